"""The card pools of the games that have cards players look up (``/card``)
and build decks from, with no Discord import: finding a card by a typed name,
and what a player reads about it.

Card names stay French in every language; a card's rules text is data in
both languages (``text.fr`` / ``text.en`` of the pool). Chroniques de Liber is
the only game with a browsable pool so far; another game joins by adding its
pool loader to :data:`POOLS`.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache

import i18n


@dataclass(frozen=True)
class CardEntry:
    """One card of a pool, as the host shows it."""

    game_id: str
    id: str
    name: str  # French, in every language
    type: str
    spell: str | None
    gold: int
    faith: int
    vp: int
    force: int | None
    pv: int | None
    text: tuple[tuple[str, str], ...]  # (language, rules text)
    collectible: bool

    @property
    def value(self) -> str:
        """The card's id across games (``liber/archer``): autocomplete values."""
        return f"{self.game_id}/{self.id}"

    def text_in(self, language: str) -> str:
        texts = dict(self.text)
        return texts.get(language) or texts.get(i18n.FALLBACK) or ""


def fold(text: str) -> str:
    """A name as players type it: no case, accents, apostrophes, hyphens or
    repeated spaces (``Épée  runique`` and ``epee-runique`` fold alike)."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    for mark in "'’`-_":
        plain = plain.replace(mark, " ")
    return " ".join(plain.split())


def _liber_pool() -> tuple[CardEntry, ...]:
    from engine.games.liber.data import card_file

    return tuple(
        CardEntry(
            game_id="liber",
            id=c.id,
            name=c.name,
            type=c.type,
            spell=c.spell,
            gold=c.gold,
            faith=c.faith,
            vp=c.vp,
            force=c.force,
            pv=c.pv,
            text=(("fr", c.text.fr), ("en", c.text.en)),
            collectible=c.collectible,
        )
        for c in card_file().cards
    )


POOLS: dict[str, Callable[[], Sequence[CardEntry]]] = {"liber": _liber_pool}
"""game id -> its card pool."""


@cache
def pool(game_id: str) -> tuple[CardEntry, ...]:
    return tuple(POOLS[game_id]())


def all_cards() -> tuple[CardEntry, ...]:
    """Every card of every game with a pool, by game then name."""
    return tuple(
        sorted((c for g in sorted(POOLS) for c in pool(g)), key=lambda c: (c.game_id, fold(c.name)))
    )


def find_card(typed: str) -> CardEntry | None:
    """The card a player named: an autocomplete value (``liber/archer``), an
    id, or a name (folded); None when nothing matches exactly."""
    typed = typed.strip()
    cards = all_cards()
    for card in cards:
        if typed == card.value:
            return card
    key = fold(typed)
    for card in cards:
        if key in (fold(card.id), fold(card.name)):
            return card
    return None


def search_cards(typed: str, limit: int = 25) -> list[CardEntry]:
    """Cards whose name starts with what was typed, then those containing it."""
    key = fold(typed)
    cards = all_cards()
    if not key:
        return list(cards[:limit])
    starts = [c for c in cards if fold(c.name).startswith(key) or fold(c.id).startswith(key)]
    inside = [c for c in cards if c not in starts and key in fold(c.name)]
    return (starts + inside)[:limit]


def closest_names(typed: str, n: int = 3) -> list[str]:
    """The names closest to an unknown one (suggestions in a refusal)."""
    import difflib

    names = {fold(c.name): c.name for c in all_cards()}
    return [names[k] for k in difflib.get_close_matches(fold(typed), list(names), n=n)]
