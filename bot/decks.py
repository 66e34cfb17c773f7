"""Decks that players build, with no Discord import: create (from pasted text
or an attached file's text), list, show, delete, and the deck each seat of a
lobby plays.

A deck belongs to a user wherever they play (``decks`` table, one name per
user and game, names compared folded). It is stored as the canonical deck
code the engine reads (``general:card*n+card*n``), so a lobby copies the code
of the chosen deck when the player joins, and the match's options hold every
seat's code: records replay whatever happens to the decks later. The
ready-made decks of the card pool are there for everyone: listed, shown and
chosen like a player's own, never deleted.

The rules of a deck list (50 cards, at most 4 copies, one general, known
cards) are the engine's (``engine.games.liber.deck``); every problem is
reported at once.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import i18n
from engine.errors import RulesError

from .cards import fold
from .store import Store

DECK_GAMES = ("liber",)
"""Games whose seats play a deck (their options have a ``decks`` entry per seat)."""
MAX_NAME = 40
"""Longest deck name (it must fit a Discord choice and a lobby line)."""
MAX_DECKS = 20
"""Decks a user may keep per game (the autocomplete shows 25 choices, the
ready-made ones among them)."""
MAX_LIST_CHARS = 20_000
"""Longest deck list read, pasted or attached (a 50-card list is ~1,500)."""
MAX_FILE_BYTES = 64 * 1024
"""Largest attached deck file read."""


class DeckRefused(Exception):
    """A refusal about decks: ``key`` and ``params`` (``bot.service.HostError``
    re-raises it with the same key, so adapters translate it like the others)."""

    def __init__(self, key: str, rules: RulesError | None = None, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.rules = rules
        self.params = params


@dataclass(frozen=True)
class Deck:
    """A player's deck or a ready-made one (``ready``: its id)."""

    game_id: str
    name: str  # the player's name for it; ready-made: the French name
    code: str
    general: str
    cards: tuple[tuple[str, int], ...]  # (card id, copies), by id
    ready: str | None = None
    names: tuple[tuple[str, str], ...] = ()  # ready-made: (language, name)
    style: tuple[tuple[str, str], ...] = ()  # ready-made: (language, its way of playing)

    def title(self, locale: str | None) -> str:
        """The name a player reads (a ready-made deck's in their language)."""
        if not self.names:
            return self.name
        by_lang = dict(self.names)
        return by_lang.get(i18n.pick(locale)) or by_lang.get(i18n.FALLBACK) or self.name

    def style_in(self, locale: str | None) -> str:
        by_lang = dict(self.style)
        return by_lang.get(i18n.pick(locale)) or by_lang.get(i18n.FALLBACK) or ""

    @property
    def size(self) -> int:
        return sum(n for _, n in self.cards)


# ---- the engine's deck rules (engine.games.liber.deck) --------------------------------
def _rules(game_id: str) -> Any:
    if game_id not in DECK_GAMES:
        raise DeckRefused("deck-no-decks")
    from engine.games.liber import deck

    return deck


def _decode(game_id: str, code: str) -> tuple[str, tuple[tuple[str, int], ...]]:
    general, counts = _rules(game_id).parse_deck_code(code)
    return general, tuple(sorted(dict(counts).items()))


def _encode(game_id: str, general: str, counts: Mapping[str, int]) -> str:
    return str(_rules(game_id).deck_code(general, dict(counts)))


def code_of(game_id: str, general: str, counts: Mapping[str, int]) -> str:
    """The canonical code of a deck (what a match's options hold)."""
    return _encode(game_id, general, counts)


def ready_decks(game_id: str) -> list[Deck]:
    """The ready-made decks of a game's card pool, in the pool's order."""
    if game_id not in DECK_GAMES:
        return []
    from engine.games.liber.data import card_file

    out = []
    for spec in card_file().decks:
        counts = dict(spec.cards)
        code = _encode(game_id, spec.general, counts)
        out.append(
            Deck(
                game_id=game_id,
                name=spec.name.fr,
                code=code,
                general=spec.general,
                cards=tuple(sorted(counts.items())),
                ready=spec.id,
                names=(("fr", spec.name.fr), ("en", spec.name.en)),
                style=(("fr", spec.style.fr), ("en", spec.style.en)),
            )
        )
    return out


def read_list(game_id: str, text: str) -> tuple[str, dict[str, int]]:
    """A pasted deck list read and checked by the engine's rules: the general
    and the cards, or :class:`DeckRefused` with every problem at once."""
    rules = _rules(game_id)
    try:
        general, counts = rules.checked(rules.parse_deck_list(text))
    except RulesError as err:
        raise DeckRefused("deck-invalid", rules=err) from None
    return str(general), dict(counts)


def list_text(deck: Deck) -> str:
    """The deck as a pasteable list (French card names, any language reads it)."""
    return str(_rules(deck.game_id).deck_list_text(deck.general, dict(deck.cards)))


_COUNT_AHEAD = re.compile(r"[ \t]+(?=\d{1,2}[ \t]*[xX×]?[ \t]+[^\d\s])")
_COUNT_BEHIND = re.compile(r"(?<=[xX×]\d)[ \t]+|(?<=[xX×]\d\d)[ \t]+")
_GENERAL_AHEAD = re.compile(r"[ \t]+(?=(?:g[ée]n[ée]ral|general|commander)[ \t]*:)", re.I)
_HEADER_AHEAD = re.compile(r"[ \t]+(?=(?:deck|main|cartes|cards)[ \t]*:?[ \t]+\d)", re.I)


def split_pasted_line(text: str) -> str:
    """A deck list pasted into a command option, which Discord keeps on one
    line (its newlines become spaces), cut back into lines: before each
    ``N Card`` / ``Nx Card`` count, after each ``Card xN``, before a
    ``Général :`` line and a section header; ``;`` also ends a line. Text that
    has lines already is left as it is. (One case stays ambiguous: a general
    line followed by ``Card xN`` lines, where nothing marks the end of the
    general's name: such a list is written with the general last, or
    attached, or typed in the box.)"""
    if "\n" in text:
        return text
    out = text.replace(";", "\n")
    for pattern in (_GENERAL_AHEAD, _HEADER_AHEAD, _COUNT_AHEAD, _COUNT_BEHIND):
        out = pattern.sub("\n", out)
    return out


def check_name(name: str) -> str:
    """A deck name as kept: trimmed, one line, not empty, not too long, not
    the name of a ready-made deck (those are everyone's)."""
    clean = " ".join(name.split())
    if not clean or not fold(clean):
        raise DeckRefused("deck-name-empty")
    if len(clean) > MAX_NAME:
        raise DeckRefused("deck-name-long", max=MAX_NAME)
    return clean


def attachment_text(filename: str, size: int, content_type: str | None, data: bytes) -> str:
    """An attached deck file's text: a ``.txt`` (or text/plain) file of at
    most :data:`MAX_FILE_BYTES`, in UTF-8 (a BOM allowed) or Latin-1."""
    is_text = filename.lower().endswith(".txt") or (content_type or "").startswith("text/plain")
    if not is_text:
        raise DeckRefused("deck-file-not-text", file=filename[:80])
    if size > MAX_FILE_BYTES or len(data) > MAX_FILE_BYTES:
        raise DeckRefused("deck-file-too-big", kb=MAX_FILE_BYTES // 1024)
    if b"\x00" in data:
        raise DeckRefused("deck-file-not-text", file=filename[:80])
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("latin-1")


class DeckService:
    """Decks in the store, for one game or another."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def create(
        self, user_id: int, name: str, text: str, game_id: str = "liber"
    ) -> tuple[Deck, bool]:
        """Save a deck from its list (replacing the user's deck of the same
        name); True when it replaced one. Every problem of the list at once."""
        _rules(game_id)
        clean = check_name(name)
        key = fold(clean)
        ready = ready_decks(game_id)
        if any(key in (fold(d.ready or ""), *(fold(n) for _, n in d.names)) for d in ready):
            raise DeckRefused("deck-name-ready", name=clean)
        if not text.strip():
            raise DeckRefused("deck-list-empty")
        if len(text) > MAX_LIST_CHARS:
            raise DeckRefused("deck-list-long", max=MAX_LIST_CHARS)
        try:
            general, counts = read_list(game_id, text)
        except DeckRefused as err:
            err.params.setdefault("name", clean)
            raise
        existing = await self.store.user_deck(user_id, game_id, key)
        if existing is None and await self.store.count_decks(user_id, game_id) >= MAX_DECKS:
            raise DeckRefused("deck-too-many", max=MAX_DECKS)
        code = _encode(game_id, general, counts)
        row, replaced = await self.store.save_deck(user_id, game_id, clean, key, code)
        return self._deck(game_id, row.name, row.code), replaced

    def _deck(self, game_id: str, name: str, code: str) -> Deck:
        general, cards = _decode(game_id, code)
        return Deck(game_id=game_id, name=name, code=code, general=general, cards=cards)

    async def mine(self, user_id: int, game_id: str = "liber") -> list[Deck]:
        _rules(game_id)
        rows = await self.store.user_decks(user_id, game_id)
        return [self._deck(game_id, r.name, r.code) for r in rows]

    async def find(self, user_id: int, name: str, game_id: str = "liber") -> Deck:
        """The deck a user named: one of theirs (folded name), else a
        ready-made one (its id or its name in any language)."""
        _rules(game_id)
        key = fold(name)
        if key:
            row = await self.store.user_deck(user_id, game_id, key)
            if row is not None:
                return self._deck(game_id, row.name, row.code)
            for deck in ready_decks(game_id):
                if key in (fold(deck.ready or ""), *(fold(n) for _, n in deck.names)):
                    return deck
        raise DeckRefused("no-such-deck", name=" ".join(name.split())[: MAX_NAME * 2])

    async def delete(self, user_id: int, name: str, game_id: str = "liber") -> Deck:
        deck = await self.find(user_id, name, game_id)
        if deck.ready is not None:
            raise DeckRefused("deck-ready-kept", name=deck.name)
        row = await self.store.user_deck(user_id, game_id, fold(deck.name))
        assert row is not None
        await self.store.delete_deck(row.id)
        return deck

    async def choices(
        self, user_id: int, typed: str, locale: str | None, game_id: str = "liber"
    ) -> list[tuple[str, str]]:
        """``(label, value)`` for autocomplete: the user's decks, then the
        ready-made ones (marked), those matching what was typed, at most 25."""
        key = fold(typed)
        out: list[tuple[str, str]] = []
        for deck in await self.mine(user_id, game_id):
            if key in fold(deck.name):
                out.append((deck.name, deck.name))
        for deck in ready_decks(game_id):
            title = deck.title(locale)
            if key in fold(title) or key in fold(deck.ready or ""):
                label = i18n.translate(locale, "deck-ready-label", name=title)
                out.append((label, deck.ready or deck.name))
        return out[:25]

    def seat_codes(
        self,
        game_id: str,
        seats: Sequence[int],
        chosen: Mapping[int, str],
        given: Sequence[str] = (),
    ) -> tuple[str, ...]:
        """Every seat's deck code for the match's options: the deck the
        seat's player chose, else the lobby options' entry for that seat,
        else a ready-made deck, in turn (bot seats among them)."""
        ready = ready_decks(game_id)
        rules = _rules(game_id)
        codes = []
        for seat, uid in enumerate(seats):
            if uid in chosen:
                codes.append(chosen[uid])
            elif seat < len(given):
                _, general, cards = rules.resolve_deck(given[seat])
                counts: dict[str, int] = {}
                for card in cards:
                    counts[card] = counts.get(card, 0) + 1
                codes.append(_encode(game_id, general, counts))
            else:
                codes.append(ready[seat % len(ready)].code)
        return tuple(codes)
