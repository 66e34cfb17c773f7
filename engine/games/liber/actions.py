"""Chroniques de Liber's actions and their notation.

A place of the acting player's own battlefield is written ``a3`` (line
letter ``p``/``a``/``f``, place 1-5); a place of any battlefield, as targets
always are, carries its seat first: ``2f3``. Card ids name cards.

==================================  ========================================
``play archer a2``                  a unit (token-making card, place,
                                    enchantment) to a place; an object onto
                                    your unit: ``play epee-runique f2``
``play eclair 2f3``                 a spell with a target (``play <id>``
                                    without one; a god: ``play <id>``)
``play mage-de-guerre f2 2f1:2,2a3:1``  Ravage on arrival: the shares
``move a2 f2``                      move between lines (placement)
``attack f1 2a3``                   attack; Honneur du guerrier on two
                                    targets: ``attack f1 2f2:3,2f3:3``
``block f2`` / ``guard f3``         the defender blocks / picks the loyal unit
``pass``                            leave a window (or decline a reclaim)
``use a2 defausse archer``          an ability: ``use a1 invocateur p3``,
                                    ``use f4 telekinesie 2f1 2p1``,
                                    ``use a4 soin 1f2``
``general 1 1f2``                   the general's ability number 1 (target)
``equip f2 epee-runique a1``        move an object to another unit
``reclaim``                         take back the object of a dead unit
``next``                            end the phase
``discard archer``                  end phase: down to the hand limit
==================================  ========================================
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ...errors import BadNotation
from ...text import Msg
from .model import LINES

Loc = tuple[int, int]
"""A place of the acting player's battlefield: (line, index)."""
Ref = tuple[int, int, int]
"""A place of any battlefield: (seat, line, index)."""
Share = tuple[Ref, int]


@dataclass(frozen=True, slots=True)
class Play:
    card: str
    place: Loc | None = None
    target: Ref | None = None
    shares: tuple[Share, ...] = ()


@dataclass(frozen=True, slots=True)
class Move:
    src: Loc
    dst: Loc


@dataclass(frozen=True, slots=True)
class Attack:
    src: Loc
    targets: tuple[Share, ...]  # one target with share 0, or Honneur's two with shares


@dataclass(frozen=True, slots=True)
class Block:
    place: Loc


@dataclass(frozen=True, slots=True)
class Guard:
    place: Loc


@dataclass(frozen=True, slots=True)
class Pass:
    pass


@dataclass(frozen=True, slots=True)
class Next:
    pass


@dataclass(frozen=True, slots=True)
class Reclaim:
    pass


@dataclass(frozen=True, slots=True)
class Discard:
    card: str


@dataclass(frozen=True, slots=True)
class Use:
    src: Loc
    ability: str  # defausse, invocateur, telekinesie, soin
    card: str = ""  # defausse: the card discarded
    place: Loc | None = None  # invocateur: the plaine place of the token
    target: Ref | None = None  # telekinesie, soin: the unit
    dest: Ref | None = None  # telekinesie: where it goes


@dataclass(frozen=True, slots=True)
class General:
    index: int  # 0-based alternative
    target: Ref | None = None


@dataclass(frozen=True, slots=True)
class Equip:
    src: Loc
    card: str
    dst: Loc


Action = (
    Play | Move | Attack | Block | Guard | Pass | Next | Reclaim | Discard | Use | General | Equip
)

ABILITIES = ("defausse", "invocateur", "telekinesie", "soin")


def loc_text(loc: Loc) -> str:
    return f"{LINES[loc[0]]}{loc[1] + 1}"


def ref_text(ref: Ref) -> str:
    return f"{ref[0] + 1}{LINES[ref[1]]}{ref[2] + 1}"


def shares_text(shares: tuple[Share, ...]) -> str:
    return ",".join(f"{ref_text(r)}:{n}" for r, n in shares)


def format_action(action: Action) -> str:
    if isinstance(action, Play):
        parts = ["play", action.card]
        if action.place is not None:
            parts.append(loc_text(action.place))
        if action.target is not None:
            parts.append(ref_text(action.target))
        if action.shares:
            parts.append(shares_text(action.shares))
        return " ".join(parts)
    if isinstance(action, Move):
        return f"move {loc_text(action.src)} {loc_text(action.dst)}"
    if isinstance(action, Attack):
        if len(action.targets) == 1 and action.targets[0][1] == 0:
            return f"attack {loc_text(action.src)} {ref_text(action.targets[0][0])}"
        return f"attack {loc_text(action.src)} {shares_text(action.targets)}"
    if isinstance(action, Block):
        return f"block {loc_text(action.place)}"
    if isinstance(action, Guard):
        return f"guard {loc_text(action.place)}"
    if isinstance(action, Pass):
        return "pass"
    if isinstance(action, Next):
        return "next"
    if isinstance(action, Reclaim):
        return "reclaim"
    if isinstance(action, Discard):
        return f"discard {action.card}"
    if isinstance(action, Use):
        parts = ["use", loc_text(action.src), action.ability]
        if action.card:
            parts.append(action.card)
        if action.place is not None:
            parts.append(loc_text(action.place))
        if action.target is not None:
            parts.append(ref_text(action.target))
        if action.dest is not None:
            parts.append(ref_text(action.dest))
        return " ".join(parts)
    if isinstance(action, General):
        if action.target is None:
            return f"general {action.index + 1}"
        return f"general {action.index + 1} {ref_text(action.target)}"
    return f"equip {loc_text(action.src)} {action.card} {loc_text(action.dst)}"


_LOC = re.compile(r"^([paf])([1-5])$")
_REF = re.compile(r"^([1-4])([paf])([1-5])$")
_SHARE = re.compile(r"^([1-4])([paf])([1-5]):(\d{1,2})$")
_ID = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")


def _bad(text: str) -> BadNotation:
    return BadNotation(Msg.of("lb-refuse-notation", text=text.replace("`", "'")), text=text)


def _loc(token: str, text: str) -> Loc:
    m = _LOC.match(token)
    if not m:
        raise _bad(text)
    return (LINES.index(m.group(1)), int(m.group(2)) - 1)


def _ref(token: str, text: str) -> Ref:
    m = _REF.match(token)
    if not m:
        raise _bad(text)
    return (int(m.group(1)) - 1, LINES.index(m.group(2)), int(m.group(3)) - 1)


def _shares(token: str, text: str) -> tuple[Share, ...]:
    out = []
    for part in token.split(","):
        m = _SHARE.match(part)
        if not m:
            raise _bad(text)
        ref = (int(m.group(1)) - 1, LINES.index(m.group(2)), int(m.group(3)) - 1)
        out.append((ref, int(m.group(4))))
    return tuple(out)


def _card(token: str, text: str) -> str:
    if not _ID.match(token):
        raise _bad(text)
    return token


def _parse_play(words: list[str], text: str) -> Play:
    if len(words) < 2:
        raise _bad(text)
    card = _card(words[1], text)
    place: Loc | None = None
    target: Ref | None = None
    shares: tuple[Share, ...] = ()
    stage = 0
    for word in words[2:]:
        if _LOC.match(word) and stage < 1:
            place, stage = _loc(word, text), 1
        elif _REF.match(word) and stage < 2:
            target, stage = _ref(word, text), 2
        elif ":" in word and stage < 3:
            shares, stage = _shares(word, text), 3
        else:
            raise _bad(text)
    return Play(card, place, target, shares)


def _parse_use(words: list[str], text: str) -> Use:
    if len(words) < 3 or words[2] not in ABILITIES:
        raise _bad(text)
    src, ability, rest = _loc(words[1], text), words[2], words[3:]
    if ability == "defausse" and len(rest) == 1:
        return Use(src, ability, card=_card(rest[0], text))
    if ability == "invocateur" and len(rest) == 1:
        return Use(src, ability, place=_loc(rest[0], text))
    if ability == "telekinesie" and len(rest) == 2:
        return Use(src, ability, target=_ref(rest[0], text), dest=_ref(rest[1], text))
    if ability == "soin" and len(rest) == 1:
        return Use(src, ability, target=_ref(rest[0], text))
    raise _bad(text)


def parse_action(text: str) -> Action:
    words = text.strip().lower().split()
    if not words:
        raise _bad(text)
    head, n = words[0], len(words)
    if head == "play":
        return _parse_play(words, text)
    if head == "move" and n == 3:
        return Move(_loc(words[1], text), _loc(words[2], text))
    if head == "attack" and n == 3:
        src = _loc(words[1], text)
        if ":" in words[2]:
            return Attack(src, _shares(words[2], text))
        return Attack(src, ((_ref(words[2], text), 0),))
    if head == "block" and n == 2:
        return Block(_loc(words[1], text))
    if head == "guard" and n == 2:
        return Guard(_loc(words[1], text))
    if n == 1 and head in ("pass", "next", "reclaim"):
        simple: dict[str, Action] = {"pass": Pass(), "next": Next(), "reclaim": Reclaim()}
        return simple[head]
    if head == "discard" and n == 2:
        return Discard(_card(words[1], text))
    if head == "use":
        return _parse_use(words, text)
    if head == "general" and n in (2, 3) and words[1].isdigit() and 1 <= int(words[1]) <= 9:
        target = _ref(words[2], text) if n == 3 else None
        return General(int(words[1]) - 1, target)
    if head == "equip" and n == 4:
        return Equip(_loc(words[1], text), _card(words[2], text), _loc(words[3], text))
    raise _bad(text)
