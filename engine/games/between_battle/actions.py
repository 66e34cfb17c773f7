"""Between Battle's actions and their notation (see the package docstring)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ...core import Seat
from ...errors import BadNotation
from ...text import Msg
from .data import CharacterId
from .model import CHARACTER_ALIASES

# ---------------------------------------------------------------------------
# Actions
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Pick:
    character: CharacterId


@dataclass(frozen=True, slots=True)
class Play:
    card: str  # label in hand: "7", "X"
    pile: int  # 0 or 1


@dataclass(frozen=True, slots=True)
class Link:
    card: str
    pile: int


@dataclass(frozen=True, slots=True)
class TakeDamage:
    pass


@dataclass(frozen=True, slots=True)
class GivePile:
    pile: int


@dataclass(frozen=True, slots=True)
class Pull:
    card: str  # full code, e.g. "Co7"


@dataclass(frozen=True, slots=True)
class Tutor:
    card: str  # label


@dataclass(frozen=True, slots=True)
class Target:
    seat: Seat


Action = Pick | Play | Link | TakeDamage | GivePile | Pull | Tutor | Target


# ---------------------------------------------------------------------------
# Notation
# ---------------------------------------------------------------------------

CODES = {"pi": "Pi", "ch": "Ch", "co": "Co", "ni": "Ni"}
_PICK_RE = re.compile(r"^[a-z-]+$")
_PLAY_RE = re.compile(r"^(\d{1,2}|X)\s*>\s*([12])$")
_LINK_RE = re.compile(r"^(\d{1,2})\s*\+\s*([12])$")
_GIVE_RE = re.compile(r"^P\s*([12])$")
_PULL_RE = re.compile(r"^\^\s*(PI|CH|CO|NI)\s*(\d{1,2}|X)$")
_TUTOR_RE = re.compile(r"^T\s*(\d{1,2}|X)$")
_TARGET_RE = re.compile(r"^@\s*([1-9])$")
_DAMAGE_WORDS = {"D", "DAMAGE", "DEGATS", "DÉGÂTS", "DEGÂTS", "DÉGATS"}


def _label(text: str) -> str:
    return "X" if text == "X" else str(int(text))


def format_action(action: Action) -> str:
    if isinstance(action, Play):
        return f"{action.card}>{action.pile + 1}"
    if isinstance(action, TakeDamage):
        return "D"
    if isinstance(action, GivePile):
        return f"P{action.pile + 1}"
    if isinstance(action, Link):
        return f"{action.card}+{action.pile + 1}"
    if isinstance(action, Pull):
        return f"^{action.card}"
    if isinstance(action, Tutor):
        return f"T{action.card}"
    if isinstance(action, Target):
        return f"@{action.seat + 1}"
    return action.character


def parse_action(text: str) -> Action:
    raw = text.strip()
    up = raw.upper().replace(" ", "")
    if up in _DAMAGE_WORDS:
        return TakeDamage()
    if m := _PLAY_RE.match(up):
        return Play(_label(m.group(1)), int(m.group(2)) - 1)
    if m := _LINK_RE.match(up):
        return Link(_label(m.group(1)), int(m.group(2)) - 1)
    if m := _GIVE_RE.match(up):
        return GivePile(int(m.group(1)) - 1)
    if m := _PULL_RE.match(up):
        return Pull(CODES[m.group(1).lower()] + _label(m.group(2)))
    if m := _TUTOR_RE.match(up):
        return Tutor(_label(m.group(1)))
    if m := _TARGET_RE.match(up):
        return Target(int(m.group(1)) - 1)
    low = raw.lower().replace(" ", "")
    if _PICK_RE.match(low) and low in CHARACTER_ALIASES:
        character = CHARACTER_ALIASES[low]
        return Pick(character)  # type: ignore[arg-type]
    raise BadNotation(Msg.of("bb-refuse-notation", text=repr(text)), text=text)
