"""Battalia's actions and their notation.

Seats are 1-based in the text. Cards after `` : `` are space-separated codes
in canonical order (:func:`canon`); a transformation artefact in a battle
line is written on the unit it applies to: ``Tu>2u`` (the title Tu on 2u), ``Mi>3i``
(amulet), ``Ra>1a`` (scroll; ``Ra>1a+2i`` when illuminated), ``G4>2u`` (a Great
Artefact acting as one).

=================================  ==========================================
``faction u``                      set-up: choose a faction
``start a1``                       set-up: choose a start square
``mulligan`` / ``cohort 1u 2u 3u``  first action of a turn only
``buy 2 : P P P``                  buy a stack's top (``1``-``4``, ``m``,
                                   ``O``..``C``; ``Ou``: the matching type
                                   with its faction chosen)
``road T : 1u 1i P``               pay and draw a road card
``city 2L : 2u 2u 2i``             pay and draw a city card of that layout
``place c3 1``                     put the drawn card on c3, turned once
``upgrade c3 : 3u 3a``             own city +1 level
``summon c3 : Au P P``             a hero from your supply onto your city
``move h1 c3 d3 : P P``            a hero's path (``b``: the hired Buff)
``attack h1 c3 : Au 2u Tu>2u``      target: a square, a hero ``2h1``, ``buff``
``tent 3u : Eu P``                 keep cards aside until your next turn
``end``                            end of turn
``defend : 2u Au`` / ``defend``    the defender's line (maybe empty)
``retreat c4 : P P``               a hero attacked by a hero steps away
``take G2``                        the Ruins' Great Artefact
``bid 2u Au`` / ``bid``            Buff's auction
``enter a1`` / ``enter a1 2h1``     the auction's winner places Buff
``buff c2 c3`` / ``buff c2 2h1``   move Buff after the d6 (``buff``: stay)
``bribe : P P P``                  answer Buff's attack
``recruit : P P P P`` / ``fight : 2u Au``
=================================  ==========================================
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from ...errors import BadNotation
from ...text import Msg

Cards = tuple[str, ...]

_UNIT = r"[1-4][uianm]"
_ART = r"[OAMTREC][uian]"
_GREAT = r"G[1-9]"
_PLAIN = rf"(?:P|{_UNIT}|{_ART}|{_GREAT})"
_TARGET = rf"(?:{_UNIT}|[AC][uian])"  # a scroll may convert a weapon or a horse too
_TRANSFORM = rf"(?:[TMR][uian]|G[1-9])>{_TARGET}(?:\+{_TARGET})?"
CARD = re.compile(rf"^{_PLAIN}$")
LINE_CARD = re.compile(rf"^(?:{_PLAIN}|{_TRANSFORM})$")
SQUARE = re.compile(r"^[a-g][1-7]$")
HERO_REF = re.compile(r"^[1-4](?:h[12]|b)$")
OWN_HERO = re.compile(r"^(?:h[12]|b)$")
STACK = re.compile(r"^(?:[1-4]|m|[OAMTREC]|[OAMTREC][uian])$")

_FACTION_ORDER = "uianm"
_ART_ORDER = "OAMTREC"


@lru_cache(maxsize=8192)
def card_key(code: str) -> tuple[int, int, int, str]:
    """Canonical order: units (rank, faction), artefacts (type, faction),
    Great Artefacts, Provisions, then transformations."""
    if ">" in code:
        return (4, 0, 0, code)
    if code == "P":
        return (3, 0, 0, code)
    if code.startswith("G"):
        return (2, int(code[1:]), 0, code)
    if code[0].isdigit():
        return (0, int(code[0]), _FACTION_ORDER.index(code[1]), code)
    return (1, _ART_ORDER.index(code[0]), _FACTION_ORDER.index(code[1]), code)


def canon(cards: tuple[str, ...] | list[str]) -> Cards:
    """The cards in canonical order (a payment or a line is a multiset)."""
    return tuple(sorted(cards, key=card_key))


@dataclass(frozen=True, slots=True)
class ChooseFaction:
    faction: str


@dataclass(frozen=True, slots=True)
class ChooseStart:
    square: str


@dataclass(frozen=True, slots=True)
class Mulligan:
    pass


@dataclass(frozen=True, slots=True)
class Cohort:
    cards: Cards


@dataclass(frozen=True, slots=True)
class Buy:
    stack: str
    cards: Cards


@dataclass(frozen=True, slots=True)
class Road:
    layout: str
    cards: Cards


@dataclass(frozen=True, slots=True)
class City:
    level: int
    layout: str
    cards: Cards


@dataclass(frozen=True, slots=True)
class Place:
    square: str
    rotation: int


@dataclass(frozen=True, slots=True)
class Upgrade:
    square: str
    cards: Cards


@dataclass(frozen=True, slots=True)
class Summon:
    square: str
    cards: Cards


@dataclass(frozen=True, slots=True)
class Move:
    hero: str  # h1 / h2 / b
    path: tuple[str, ...]
    cards: Cards


@dataclass(frozen=True, slots=True)
class Attack:
    hero: str
    target: str  # a square, a hero ref "2h1", or "buff"
    line: Cards


@dataclass(frozen=True, slots=True)
class Tent:
    kept: Cards
    cards: Cards


@dataclass(frozen=True, slots=True)
class End:
    pass


@dataclass(frozen=True, slots=True)
class Defend:
    line: Cards


@dataclass(frozen=True, slots=True)
class Retreat:
    square: str
    cards: Cards


@dataclass(frozen=True, slots=True)
class Take:
    artefact: str


@dataclass(frozen=True, slots=True)
class Bid:
    cards: Cards


@dataclass(frozen=True, slots=True)
class Enter:
    square: str
    hero: str = ""  # the hero attacked when several stand there: "2h1" ("" none)


@dataclass(frozen=True, slots=True)
class BuffMove:
    path: tuple[str, ...]
    hero: str = ""  # the hero attacked when several stand there: "2h1" ("" none)


@dataclass(frozen=True, slots=True)
class Bribe:
    cards: Cards


@dataclass(frozen=True, slots=True)
class Recruit:
    cards: Cards


@dataclass(frozen=True, slots=True)
class Fight:
    line: Cards


Action = (
    ChooseFaction
    | ChooseStart
    | Mulligan
    | Cohort
    | Buy
    | Road
    | City
    | Place
    | Upgrade
    | Summon
    | Move
    | Attack
    | Tent
    | End
    | Defend
    | Retreat
    | Take
    | Bid
    | Enter
    | BuffMove
    | Bribe
    | Recruit
    | Fight
)


def _paid(head: str, cards: Cards) -> str:
    return f"{head} : {' '.join(canon(cards))}" if cards else head


def format_action(action: Action) -> str:
    match action:
        case ChooseFaction(faction):
            return f"faction {faction}"
        case ChooseStart(square):
            return f"start {square}"
        case Mulligan():
            return "mulligan"
        case Cohort(cards):
            return " ".join(("cohort", *canon(cards)))
        case Buy(stack, cards):
            return _paid(f"buy {stack}", cards)
        case Road(layout, cards):
            return _paid(f"road {layout}", cards)
        case City(level, layout, cards):
            return _paid(f"city {level}{layout}", cards)
        case Place(square, rotation):
            return f"place {square} {rotation}"
        case Upgrade(square, cards):
            return _paid(f"upgrade {square}", cards)
        case Summon(square, cards):
            return _paid(f"summon {square}", cards)
        case Move(hero, path, cards):
            return _paid(" ".join(("move", hero, *path)), cards)
        case Attack(hero, target, line):
            return _paid(f"attack {hero} {target}", line)
        case Tent(kept, cards):
            return _paid(" ".join(("tent", *canon(kept))), cards)
        case End():
            return "end"
        case Defend(line):
            return _paid("defend", line)
        case Retreat(square, cards):
            return _paid(f"retreat {square}", cards)
        case Take(artefact):
            return f"take {artefact}"
        case Bid(cards):
            return " ".join(("bid", *canon(cards)))
        case Enter(square, hero):
            return " ".join(("enter", square, *((hero,) if hero else ())))
        case BuffMove(path, hero):
            return " ".join(("buff", *path, *((hero,) if hero else ())))
        case Bribe(cards):
            return _paid("bribe", cards)
        case Recruit(cards):
            return _paid("recruit", cards)
        case Fight(line):
            return _paid("fight", line)
    raise TypeError(action)  # pragma: no cover


def _bad(text: str) -> BadNotation:
    return BadNotation(Msg.of("bt-refuse-notation", text=text.replace("`", "'")), text=text)


def _cards(tokens: list[str], text: str, pattern: re.Pattern[str] = CARD) -> Cards:
    for t in tokens:
        if not pattern.match(t):
            raise _bad(text)
    return canon(tokens)


def _split(text: str) -> tuple[list[str], list[str] | None]:
    """Words before `` : `` and the card codes after it (None: no colon)."""
    head, colon, tail = text.strip().partition(":")
    words = head.split()
    return words, (tail.split() if colon else None)


def _square(word: str, text: str) -> str:
    w = word.lower()
    if not SQUARE.match(w):
        raise _bad(text)
    return w


def parse_action(text: str) -> Action:
    words, cards = _split(text)
    if not words:
        raise _bad(text)
    head = words[0].lower()
    args = words[1:]
    parser = _PARSERS.get(head)
    if parser is None:
        raise _bad(text)
    if head not in _PAID and cards is not None:
        raise _bad(text)
    return parser(args, cards or [], text)


def _p_faction(args: list[str], _c: list[str], text: str) -> Action:
    if len(args) != 1 or args[0].lower() not in ("u", "i", "a", "n"):
        raise _bad(text)
    return ChooseFaction(args[0].lower())


def _p_start(args: list[str], _c: list[str], text: str) -> Action:
    if len(args) != 1:
        raise _bad(text)
    return ChooseStart(_square(args[0], text))


def _p_enter(args: list[str], _c: list[str], text: str) -> Action:
    hero = ""
    if len(args) == 2 and HERO_REF.match(args[1].lower()):
        hero = args[1].lower()
        args = args[:1]
    if len(args) != 1:
        raise _bad(text)
    return Enter(_square(args[0], text), hero)


def _p_simple(args: list[str], _c: list[str], text: str) -> Action:
    head = text.split()[0].lower()
    if args:
        raise _bad(text)
    return Mulligan() if head == "mulligan" else End()


def _p_cohort(args: list[str], _c: list[str], text: str) -> Action:
    if not args:
        raise _bad(text)
    return Cohort(_cards(args, text))


def _p_bid(args: list[str], _c: list[str], text: str) -> Action:
    return Bid(_cards(args, text))


def _p_buy(args: list[str], cards: list[str], text: str) -> Action:
    if len(args) == 1 and not STACK.match(args[0]):  # a buy, of no stack: say so
        stack = args[0].replace("`", "'")
        raise BadNotation(Msg.of("bt-refuse-stack-name", stack=stack), text=text)
    if len(args) != 1:
        raise _bad(text)
    return Buy(args[0], _cards(cards, text))


def _p_road(args: list[str], cards: list[str], text: str) -> Action:
    if len(args) != 1 or args[0].upper() not in ("I", "L", "T", "X"):
        raise _bad(text)
    return Road(args[0].upper(), _cards(cards, text))


def _p_city(args: list[str], cards: list[str], text: str) -> Action:
    if len(args) != 1 or not re.match(r"^[1-4][DILTXdiltx]$", args[0]):
        raise _bad(text)
    return City(int(args[0][0]), args[0][1].upper(), _cards(cards, text))


def _p_place(args: list[str], _c: list[str], text: str) -> Action:
    if len(args) != 2 or args[1] not in ("0", "1", "2", "3"):
        raise _bad(text)
    return Place(_square(args[0], text), int(args[1]))


def _p_upgrade(args: list[str], cards: list[str], text: str) -> Action:
    if len(args) != 1:
        raise _bad(text)
    return Upgrade(_square(args[0], text), _cards(cards, text))


def _p_summon(args: list[str], cards: list[str], text: str) -> Action:
    if len(args) != 1:
        raise _bad(text)
    return Summon(_square(args[0], text), _cards(cards, text))


def _p_move(args: list[str], cards: list[str], text: str) -> Action:
    if len(args) < 2 or not OWN_HERO.match(args[0].lower()):
        raise _bad(text)
    path = tuple(_square(w, text) for w in args[1:])
    return Move(args[0].lower(), path, _cards(cards, text))


def _target(word: str, text: str) -> str:
    w = word.lower()
    if w == "buff" or SQUARE.match(w) or HERO_REF.match(w):
        return w
    raise _bad(text)


def _p_attack(args: list[str], cards: list[str], text: str) -> Action:
    if len(args) != 2 or not OWN_HERO.match(args[0].lower()):
        raise _bad(text)
    return Attack(args[0].lower(), _target(args[1], text), _cards(cards, text, LINE_CARD))


def _p_tent(args: list[str], cards: list[str], text: str) -> Action:
    if not args:
        raise _bad(text)
    return Tent(_cards(args, text), _cards(cards, text))


def _p_defend(args: list[str], cards: list[str], text: str) -> Action:
    if args:
        raise _bad(text)
    return Defend(_cards(cards, text, LINE_CARD))


def _p_fight(args: list[str], cards: list[str], text: str) -> Action:
    if args:
        raise _bad(text)
    return Fight(_cards(cards, text, LINE_CARD))


def _p_retreat(args: list[str], cards: list[str], text: str) -> Action:
    if len(args) != 1:
        raise _bad(text)
    return Retreat(_square(args[0], text), _cards(cards, text))


def _p_take(args: list[str], _c: list[str], text: str) -> Action:
    if len(args) != 1 or not re.match(r"^(?:G[1-9]|[1-9])$", args[0].upper()):
        raise _bad(text)  # take G2 (face up) or take 2 (face down: the second)
    return Take(args[0].upper())


def _p_buff(args: list[str], _c: list[str], text: str) -> Action:
    hero = ""
    if args and HERO_REF.match(args[-1].lower()):
        hero = args[-1].lower()
        args = args[:-1]
    return BuffMove(tuple(_square(w, text) for w in args), hero)


def _p_bribe(args: list[str], cards: list[str], text: str) -> Action:
    if args:
        raise _bad(text)
    return Bribe(_cards(cards, text))


def _p_recruit(args: list[str], cards: list[str], text: str) -> Action:
    if args:
        raise _bad(text)
    return Recruit(_cards(cards, text))


_PARSERS = {
    "faction": _p_faction,
    "start": _p_start,
    "mulligan": _p_simple,
    "end": _p_simple,
    "cohort": _p_cohort,
    "buy": _p_buy,
    "road": _p_road,
    "city": _p_city,
    "place": _p_place,
    "upgrade": _p_upgrade,
    "summon": _p_summon,
    "move": _p_move,
    "attack": _p_attack,
    "tent": _p_tent,
    "defend": _p_defend,
    "retreat": _p_retreat,
    "take": _p_take,
    "bid": _p_bid,
    "enter": _p_enter,
    "buff": _p_buff,
    "bribe": _p_bribe,
    "recruit": _p_recruit,
    "fight": _p_fight,
}
_PAID = frozenset(
    (
        "buy",
        "road",
        "city",
        "upgrade",
        "summon",
        "move",
        "attack",
        "tent",
        "defend",
        "retreat",
        "bribe",
        "recruit",
        "fight",
    )
)
