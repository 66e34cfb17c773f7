"""Belle Position actions and their notation (``F7>C``, ``ok``, ``undo``, ``F7@EC``,
``F7@A3``, ``-F3``, ``F21!F7``): the action types, ``format_action`` and ``parse_action``."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ...errors import BadNotation
from ...text import Msg
from .data import _norm


@dataclass(frozen=True, slots=True)
class Move:
    card: str
    to: str  # G C D EG EC ED R (from the mover's point of view)


@dataclass(frozen=True, slots=True)
class Done:
    pass


@dataclass(frozen=True, slots=True)
class Undo:
    pass


@dataclass(frozen=True, slots=True)
class Fire:
    card: str
    at: str  # a position code (G ... ED) or an enemy card (counter-battery)


@dataclass(frozen=True, slots=True)
class Loss:
    card: str


@dataclass(frozen=True, slots=True)
class Play:
    card: str  # the special card
    target: str  # the unit it is played on


Action = Move | Done | Undo | Fire | Loss | Play


_DONE_WORDS = {
    "ok",
    "fin",
    "done",
    "end",
    "pass",
    "passe",
    "roll",
    "lancer",
    "go",
    "valider",
    "termine",
}


_UNDO_WORDS = {"undo", "annuler", "reprendre", "u"}


_UID_PART = r"([FA])0*([1-9][0-9]?)"


_UID_RE = re.compile(rf"^{_UID_PART}$")


_MOVE_RE = re.compile(rf"^{_UID_PART}>([A-ZÉ_-]+)$")


_MOVE_FAST = re.compile(rf"^{_UID_PART}>(R|E?[GCD])$")


_FIRE_RE = re.compile(rf"^{_UID_PART}@([A-ZÉ0-9_-]+)$")


_LOSS_RE = re.compile(rf"^-{_UID_PART}$")


_PLAY_RE = re.compile(rf"^{_UID_PART}!{_UID_PART}$")


_WING_WORDS = {
    "G": "G",
    "L": "G",
    "GAUCHE": "G",
    "LEFT": "G",
    "C": "C",
    "CENTRE": "C",
    "CENTER": "C",
    "D": "D",
    "DROITE": "D",
    "RIGHT": "D",
}


def _uid(letter: str, number: str) -> str:
    return f"{letter}{int(number)}"


def _position_code(text: str) -> str | None:
    t = text.replace("-", "").replace("_", "")
    if t in ("R", "RES", "RESERVE", "RÉSERVE"):
        return "R"
    if t in _WING_WORDS:
        return _WING_WORDS[t]
    for prefix in ("ENNEMI", "ENEMY", "E", "X"):
        if t.startswith(prefix) and t[len(prefix) :] in _WING_WORDS:
            return "E" + _WING_WORDS[t[len(prefix) :]]
    if t in ("ER", "XR", "ENEMYR"):  # English: enemy right (never the enemy reserve)
        return "ED"
    return None


def format_action(action: Action) -> str:
    if isinstance(action, Move):
        return f"{action.card}>{action.to}"
    if isinstance(action, Fire):
        return f"{action.card}@{action.at}"
    if isinstance(action, Loss):
        return f"-{action.card}"
    if isinstance(action, Play):
        return f"{action.card}!{action.target}"
    if isinstance(action, Undo):
        return "undo"
    return "ok"


def parse_action(text: str) -> Action:
    raw = text.strip()
    if raw == "ok":
        return Done()
    up = re.sub(r"\s+", "", raw.upper()).replace("→", ">").replace("->", ">")
    if m := _MOVE_FAST.match(up):
        return Move(_uid(m.group(1), m.group(2)), m.group(3))
    word = _norm(raw)
    if word in _DONE_WORDS:
        return Done()
    if word in _UNDO_WORDS:
        return Undo()
    if m := _MOVE_RE.match(up):
        pos = _position_code(m.group(3))
        if pos is not None:
            return Move(_uid(m.group(1), m.group(2)), pos)
    if m := _FIRE_RE.match(up):
        target = m.group(3)
        if t := _UID_RE.match(target):
            return Fire(_uid(m.group(1), m.group(2)), _uid(t.group(1), t.group(2)))
        pos = _position_code(target)
        if pos is not None and pos != "R":
            return Fire(_uid(m.group(1), m.group(2)), pos)
    if m := _LOSS_RE.match(up):
        return Loss(_uid(m.group(1), m.group(2)))
    if m := _PLAY_RE.match(up):
        return Play(_uid(m.group(1), m.group(2)), _uid(m.group(3), m.group(4)))
    raise BadNotation(Msg.of("bp-refuse-notation", text=repr(text)), text=text)
