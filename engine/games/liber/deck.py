"""Chroniques de Liber's deck lists (pure, no I/O).

A deck is a general and 50 cards, at most 4 of each (the seed). Players
write it as plain text, as they paste lists from other card games::

    Général : Aldric
    4 Archer
    3x Paysan
    2 x Mine d'or
    Porte-bouclier x2

:func:`parse_deck_list` reads such a text into a :class:`DeckList` (every
line kept, unknown names included), :func:`validate` lists every problem at
once as :class:`~engine.text.Msg` (keys ``lb-deck-*``, domain
``liber_decks``), :class:`DeckError` carries them for callers that raise.

Games name decks in ``Options.decks``: a ready-made deck id (``aggro``) or a
deck code ``general:card*n+card*n`` (card ids, sorted: :func:`deck_code`,
:func:`parse_deck_code`); :func:`resolve_deck` turns either into the general
and the 50 card ids. :func:`deck_list_text` writes a deck back as text that
reads back to the same deck.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache

from ...errors import RulesError
from ...text import Msg
from .data import CardSpec, cards_by_id, decks_by_id

DECK_SIZE = 50
MAX_COPIES = 4

CountsLike = Mapping[str, int] | Iterable[tuple[str, int]]

# ---------------------------------------------------------------------------
# Names: folding and lookup
# ---------------------------------------------------------------------------

_APOSTROPHES = "'’‘`´ʼ"
_LIGATURES = {"œ": "oe", "æ": "ae", "ß": "ss"}


def fold(text: str, apostrophe: str = "") -> str:
    """``text`` compared loosely: no case, no accents, apostrophes replaced by
    ``apostrophe`` (dropped by default), any other punctuation a space, spaces
    collapsed. ``fold("Mine d’Or ")`` is ``"mine dor"``."""
    text = unicodedata.normalize("NFKD", text.casefold())
    text = "".join(c for c in text if not unicodedata.combining(c))
    text = "".join(_LIGATURES.get(c, c) for c in text)
    text = "".join(apostrophe if c in _APOSTROPHES else c for c in text)
    return " ".join(re.sub(r"[^0-9a-z]+", " ", text).split())


def _keys(text: str) -> tuple[str, ...]:
    return tuple(dict.fromkeys((fold(text), fold(text, " "))))


@cache
def _index() -> dict[str, str]:
    """Folded name or id -> card id (names and ids of every card)."""
    index: dict[str, str] = {}
    for spec in cards_by_id().values():
        for key in (*_keys(spec.name), fold(spec.id)):
            index.setdefault(key, spec.id)
    return index


def find_card(name: str) -> str | None:
    """The id of the card ``name`` designates (a French name or an id, in any
    case, with or without accents or apostrophes), or None."""
    index = _index()
    for key in _keys(name):
        if key in index:
            return index[key]
    return None


def suggest(name: str, generals: bool = False) -> str | None:
    """The French name of the card (of the general when ``generals``) closest
    to ``name`` (difflib on folded names), or None when nothing is close."""
    cards = cards_by_id().values()
    by_fold = {fold(c.name): c.name for c in cards if not generals or c.type == "general"}
    found = difflib.get_close_matches(fold(name), list(by_fold), n=1, cutoff=0.6)
    return by_fold[found[0]] if found else None


# ---------------------------------------------------------------------------
# Parsing
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DeckEntry:
    """One card line: ``count`` copies of ``name`` (as written), ``card_id``
    None when no card has that name. ``general_line``: written as
    ``Général : <name>``."""

    line: int
    count: int
    name: str
    card_id: str | None
    general_line: bool = False

    @property
    def spec(self) -> CardSpec | None:
        return cards_by_id()[self.card_id] if self.card_id is not None else None


@dataclass(frozen=True, slots=True)
class DeckList:
    """A deck as read: its card lines in order and the lines that could not be
    read (``(line number, text)``, numbered from 1)."""

    entries: tuple[DeckEntry, ...] = ()
    unreadable: tuple[tuple[int, str], ...] = ()

    @classmethod
    def of(cls, general: str | None, counts: CountsLike) -> DeckList:
        """A deck list from ids (unknown ids are kept as unknown cards)."""
        entries = [] if general is None else [DeckEntry(0, 1, general, _known(general), True)]
        entries += [DeckEntry(0, n, c, _known(c)) for c, n in _merge(counts).items()]
        return cls(tuple(entries))

    @property
    def generals(self) -> tuple[str, ...]:
        """The distinct generals named (general cards only), in order."""
        ids = [e.card_id for e in self.entries if _is_general(e) and e.card_id is not None]
        return tuple(dict.fromkeys(i for i in ids if cards_by_id()[i].type == "general"))

    @property
    def general(self) -> str | None:
        """The general, when exactly one is named."""
        return self.generals[0] if len(self.generals) == 1 else None

    @property
    def counts(self) -> dict[str, int]:
        """Copies by card id of the known deck cards (tokens, favours and
        generals left out)."""
        out: dict[str, int] = {}
        for e in self.entries:
            spec = e.spec
            if spec is not None and spec.collectible and not e.general_line:
                out[spec.id] = out.get(spec.id, 0) + e.count
        return out

    @property
    def total(self) -> int:
        """Every card line's count but the generals' (unknown names included)."""
        return sum(e.count for e in self.entries if not _is_general(e))


def _known(card_id: str) -> str | None:
    return card_id if card_id in cards_by_id() else None


def _is_general(entry: DeckEntry) -> bool:
    spec = entry.spec
    return entry.general_line or (spec is not None and spec.type == "general")


def _merge(counts: CountsLike) -> dict[str, int]:
    pairs = counts.items() if isinstance(counts, Mapping) else counts
    out: dict[str, int] = {}
    for card_id, n in pairs:
        out[card_id] = out.get(card_id, 0) + n
    return out


_HEADERS = frozenset(
    fold(h)
    for h in (
        "deck",
        "main",
        "main deck",
        "maindeck",
        "decklist",
        "deck list",
        "liste",
        "cartes",
        "cards",
        "paquet",
        "pioche",
        "bibliotheque",
        "library",
        "general",
        "generals",
        "generaux",
        "commander",
        "commandant",
        "chef",
        "unites",
        "units",
        "creatures",
        "objets",
        "objects",
        "items",
        "equipement",
        "sorts",
        "spells",
        "lieux",
        "places",
        "lands",
        "terrains",
        "dieux",
        "gods",
    )
)
_GENERAL_WORDS = frozenset(fold(w) for w in ("général", "general", "commandant", "commander"))
_GENERAL_LINE = re.compile(r"^([^\W\d_]+)\s*[:=]\s*(.+)$")
_COUNT_FIRST = re.compile(r"^(\d{1,3})\s*(?:[x×]\s+|[x×]?\s+)(.+)$", re.IGNORECASE)
_COUNT_LAST = re.compile(r"^(.+?)\s+[x×]\s*(\d{1,3})$", re.IGNORECASE)
_COUNT_PAREN = re.compile(r"\s*\(\s*\d+\s*\)\s*$")
_BULLET = re.compile(r"^(?:[-*•·]\s+)")
_COMMENT = re.compile(r"(?:^|\s)(?:#|//).*$")


def parse_deck_list(text: str) -> DeckList:
    """Read a pasted deck list: one ``N Card name`` line per card (also
    ``Nx Card name``, ``N x Card name``, ``Card name xN``, or a bare name for
    one copy), a general line (``Général : Aldric``, ``General: Aldric``, or
    the general's name among the cards), blank lines, comments (``#``,
    ``//``) and section headers (``Deck``, ``Main``, ``Général``, ``Sorts
    (12)``...). Nothing is refused here: :func:`validate` says what is wrong."""
    entries: list[DeckEntry] = []
    unreadable: list[tuple[int, str]] = []
    for number, raw in enumerate(text.lstrip("\ufeff").splitlines(), start=1):
        line = _BULLET.sub("", _COMMENT.sub("", raw).strip()).strip()
        if not line:
            continue
        entry = _read_line(number, line)
        if entry is None:
            unreadable.append((number, raw.strip()))
        elif entry.count > 0:
            entries.append(entry)
    return DeckList(tuple(entries), tuple(unreadable))


def _read_line(number: int, line: str) -> DeckEntry | None:
    """A card line, an empty entry (count 0) for a header, None if unreadable."""
    general = _GENERAL_LINE.match(line)
    if general and fold(general.group(1)) in _GENERAL_WORDS:
        value = general.group(2).strip()
        counted = _counted(value)
        name = counted[1] if counted is not None and counted[0] == 1 else value
        return DeckEntry(number, 1, name, find_card(name), True)
    counted = _counted(line)
    if counted is not None:
        count, name = counted
        return DeckEntry(number, count, name, find_card(name)) if count > 0 else None
    card_id = find_card(line)
    if card_id is not None:
        return DeckEntry(number, 1, line, card_id)
    bare = _COUNT_PAREN.sub("", line).rstrip(" :").strip()
    if fold(bare) in _HEADERS:
        return DeckEntry(number, 0, bare, None)
    return None


def _counted(line: str) -> tuple[int, str] | None:
    first = _COUNT_FIRST.match(line)
    if first:
        return int(first.group(1)), first.group(2).strip()
    last = _COUNT_LAST.match(line)
    if last:
        return int(last.group(2)), last.group(1).strip()
    return None


# ---------------------------------------------------------------------------
# Validation
# ---------------------------------------------------------------------------


class DeckError(RulesError):
    """A deck that cannot be played. ``problems`` are every reason, ``msg``
    all of them in one text (one per line)."""

    code = "deck"

    def __init__(self, problems: tuple[Msg, ...]) -> None:
        super().__init__(join_problems(problems), problems=problems)
        self.problems = problems


def join_problems(problems: tuple[Msg, ...]) -> Msg:
    """One text listing ``problems``, one per line (``lb-deck-invalid``)."""
    joined = problems[-1] if problems else Msg.of("lb-deck-ok")
    for problem in reversed(problems[:-1]):
        joined = Msg.of("lb-deck-lines", first=problem, rest=joined)
    return Msg.of("lb-deck-invalid", n=len(problems), problems=joined)


def validate(deck: DeckList) -> tuple[Msg, ...]:
    """Every problem of ``deck``: first the lines' own, in line order
    (unreadable lines, unknown cards with the closest name, tokens and
    favours, a general line naming no general), then no general or several,
    more than 4 copies, not 50 cards. Empty when the deck can be played."""
    by_line = [(n, Msg.of("lb-deck-unreadable", line=n, text=t)) for n, t in deck.unreadable]
    by_line += [(e.line, m) for e in deck.entries for m in _entry_problems(e)]
    problems = [m for _, m in sorted(by_line, key=lambda item: item[0])]
    generals = deck.generals
    if not generals and not any(e.general_line for e in deck.entries):
        problems.append(Msg.of("lb-deck-no-general"))
    elif len(generals) > 1:
        names = tuple(Msg.of("lb-deck-card", card=cards_by_id()[g].name) for g in generals)
        problems.append(Msg.of("lb-deck-generals", n=len(generals), cards=names))
    for card_id, count in sorted(deck.counts.items()):
        if count > MAX_COPIES:
            name = cards_by_id()[card_id].name
            problems.append(Msg.of("lb-deck-copies", card=name, n=count, max=MAX_COPIES))
    if deck.total != DECK_SIZE:
        problems.append(Msg.of("lb-deck-size", n=deck.total, size=DECK_SIZE))
    return tuple(problems)


def _entry_problems(entry: DeckEntry) -> list[Msg]:
    spec = entry.spec
    if spec is None:
        close = suggest(entry.name, generals=entry.general_line)
        if close is None:
            return [Msg.of("lb-deck-unknown", name=entry.name)]
        return [Msg.of("lb-deck-unknown-suggest", name=entry.name, card=close)]
    if entry.general_line and spec.type != "general":
        return [Msg.of("lb-deck-not-general", card=spec.name)]
    if spec.type == "token":
        return [Msg.of("lb-deck-token", card=spec.name)]
    if spec.type == "faveur":
        return [Msg.of("lb-deck-favour", card=spec.name)]
    return []


def checked(deck: DeckList) -> tuple[str, dict[str, int]]:
    """The general and the copies by card id of a valid ``deck``
    (:class:`DeckError` with every problem otherwise)."""
    problems = validate(deck)
    if problems or deck.general is None:
        raise DeckError(problems)
    return deck.general, deck.counts


# ---------------------------------------------------------------------------
# Deck codes (Options.decks) and text
# ---------------------------------------------------------------------------


def deck_code(general: str, counts: CountsLike) -> str:
    """``general:card*n+card*n`` with the card ids sorted: one code per deck."""
    merged = _merge(counts)
    cards = "+".join(f"{c}*{n}" for c, n in sorted(merged.items()) if n > 0)
    return f"{general}:{cards}"


_CODE = re.compile(r"^([a-z0-9]+(?:-[a-z0-9]+)*):((?:[a-z0-9-]+\*\d+)(?:\+[a-z0-9-]+\*\d+)*)$")


def parse_deck_code(code: str) -> tuple[str, tuple[tuple[str, int], ...]]:
    """The general and the ``(card id, copies)`` of a deck code, sorted by id
    (a card written twice is merged). :class:`DeckError` ``lb-deck-bad-code``
    when ``code`` is not one; the cards are not checked here."""
    found = _CODE.match(code.strip())
    if not found:
        raise DeckError((Msg.of("lb-deck-bad-code", code=code.strip()),))
    pairs = []
    for part in found.group(2).split("+"):
        card_id, count = part.split("*")
        pairs.append((card_id, int(count)))
    return found.group(1), tuple(sorted(_merge(pairs).items()))


def resolve_deck(text: str) -> tuple[str, str, tuple[str, ...]]:
    """An ``Options.decks`` entry as ``(deck name, general, cards)``: the deck
    name is the ready-made deck's id, or ``""`` for a deck code; the cards
    are the 50 ids, each repeated by its copies, sorted (the game shuffles).
    :class:`DeckError` if it names no deck or the deck cannot be played."""
    name = text.strip()
    ready = decks_by_id().get(name)
    if ready is not None:
        return ready.id, ready.general, _expand(ready.cards)
    if ":" not in name:
        close = difflib.get_close_matches(name, list(decks_by_id()), n=1)
        if close:
            raise DeckError((Msg.of("lb-deck-unknown-deck-suggest", name=name, deck=close[0]),))
        raise DeckError((Msg.of("lb-deck-unknown-deck", name=name),))
    general, pairs = parse_deck_code(name)
    general, counts = checked(DeckList.of(general, pairs))
    return "", general, _expand(counts.items())


def _expand(pairs: Iterable[tuple[str, int]]) -> tuple[str, ...]:
    return tuple(c for c, n in sorted(pairs) for _ in range(n))


_TYPE_ORDER = {"unite": 0, "objet": 1, "sort": 2, "lieu": 3, "dieu": 4}


def deck_list_text(general: str | None, counts: CountsLike) -> str:
    """The deck as pasteable text with the French card names (the same in
    every language): the general line, then one ``N Name`` line per card,
    units first, then objects, spells, places and gods, each by gold cost
    then name. Unknown ids are written as they are."""
    by_id = cards_by_id()
    lines = []
    if general is not None:
        lines += [f"Général : {by_id[general].name if general in by_id else general}", ""]

    def order(item: tuple[str, int]) -> tuple[int, int, str]:
        spec = by_id.get(item[0])
        if spec is None:
            return (9, 0, item[0])
        return (_TYPE_ORDER.get(spec.type, 8), spec.gold, fold(spec.name))

    for card_id, count in sorted(_merge(counts).items(), key=order):
        name = by_id[card_id].name if card_id in by_id else card_id
        lines.append(f"{count} {name}")
    return "\n".join(lines) + "\n"
