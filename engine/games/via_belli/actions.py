"""The actions and their notation (``format_action`` / ``parse_action``)."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import cache
from typing import Literal

from ...errors import BadNotation
from ...text import Msg
from .data import deck_file, name_key
from .geometry import Cell, cell_text, parse_cell


@dataclass(frozen=True, slots=True)
class Draw:
    pass


@dataclass(frozen=True, slots=True)
class EndTurn:
    pass


BeginKind = Literal["+", ">", "x", "^"]


@dataclass(frozen=True, slots=True)
class Begin:
    """Open one of the four menus of the turn: ``+`` summon (face up or in
    ambush), ``>`` move or recall, ``x`` attack, ``^`` Sorcier."""

    kind: BeginKind


@dataclass(frozen=True, slots=True)
class Anchor:
    """Choose the card to summon, face up or in ambush, and the card to place
    it against (its top-left cell): ``Roturier@C5``, ``?Roturier@C5``."""

    card: str
    hidden: bool
    x: int
    y: int


@dataclass(frozen=True, slots=True)
class Pivot:
    """Choose the card to move and the card to move it along: ``C5@D9``."""

    fx: int
    fy: int
    x: int
    y: int


@dataclass(frozen=True, slots=True)
class Summon:
    card: str
    hidden: bool
    x: int
    y: int
    landscape: bool


@dataclass(frozen=True, slots=True)
class Move:
    fx: int
    fy: int
    x: int
    y: int
    landscape: bool


@dataclass(frozen=True, slots=True)
class Recall:
    x: int
    y: int


@dataclass(frozen=True, slots=True)
class Attack:
    attackers: tuple[Cell, ...]  # sorted
    target: Cell


@dataclass(frozen=True, slots=True)
class Sorcery:
    card: str


@dataclass(frozen=True, slots=True)
class Reveal:
    x: int
    y: int


@dataclass(frozen=True, slots=True)
class Cancel:
    pass


Action = (
    Draw
    | EndTurn
    | Begin
    | Anchor
    | Pivot
    | Summon
    | Move
    | Recall
    | Attack
    | Sorcery
    | Reveal
    | Cancel
)


FullAction = Summon | Move | Recall | Attack | Sorcery


_FORMATTED: dict[object, str] = {}


_PARSED: dict[str, Action] = {}


def format_action(action: Action) -> str:
    text = _FORMATTED.get(action)
    if text is None:
        text = _format(action)
        if len(_FORMATTED) > 100_000:
            _FORMATTED.clear()
        _FORMATTED[action] = text
    return text


def _format(action: Action) -> str:
    if isinstance(action, Draw):
        return "D"
    if isinstance(action, EndTurn):
        return "E"
    if isinstance(action, Begin):
        return action.kind
    if isinstance(action, Anchor):
        prefix = "?" if action.hidden else ""
        return f"{prefix}{action.card}@{cell_text(action.x, action.y)}"
    if isinstance(action, Pivot):
        return f"{cell_text(action.fx, action.fy)}@{cell_text(action.x, action.y)}"
    if isinstance(action, Summon):
        orient = "L" if action.landscape else "P"
        prefix = "?" if action.hidden else ""
        return f"{prefix}{action.card} {cell_text(action.x, action.y)}{orient}"
    if isinstance(action, Move):
        orient = "L" if action.landscape else "P"
        return f"{cell_text(action.fx, action.fy)}>{cell_text(action.x, action.y)}{orient}"
    if isinstance(action, Recall):
        return "<" + cell_text(action.x, action.y)
    if isinstance(action, Attack):
        return "+".join(cell_text(*c) for c in action.attackers) + "x" + cell_text(*action.target)
    if isinstance(action, Sorcery):
        return "^" + action.card
    if isinstance(action, Reveal):
        return "!" + cell_text(action.x, action.y)
    return "-"


def parse_action(text: str) -> Action:
    action = _PARSED.get(text)
    if action is None:
        action = _parse(text)
        if len(_PARSED) > 100_000:
            _PARSED.clear()
        _PARSED[text] = action
    return action


def _parse(text: str) -> Action:
    raw = text.strip()
    flat = _plain(raw).upper()
    compact = re.sub(r"\s+", "", flat)
    if compact in _WORDS:
        return _WORDS[compact]
    if m := _PIVOT_RE.match(compact):
        fx, fy = _cell(m.group(1), text)
        x, y = _cell(m.group(2), text)
        return Pivot(fx, fy, x, y)
    if m := _REVEAL_RE.match(compact):
        x, y = _cell(m.group(1), text)
        return Reveal(x, y)
    if m := _RECALL_RE.match(compact):
        x, y = _cell(m.group(1), text)
        return Recall(x, y)
    if m := _MOVE_RE.match(compact):
        fx, fy = _cell(m.group(1), text)
        x, y = _cell(m.group(2), text)
        return Move(fx, fy, x, y, _orient(m.group(3)))
    if m := _ATTACK_RE.match(compact):
        cells = sorted({_cell(c, text) for c in m.group(1).split("+")})
        return Attack(tuple(cells), _cell(m.group(2), text))
    if compact.startswith("^") and len(compact) > 1:
        card = _card_name(compact[1:])
        if card:
            return Sorcery(card)
    if m := _SUMMON_RE.match(flat):
        card = _card_name(m.group(2))
        if card:
            x, y = _cell(m.group(3), text)
            return Summon(card, m.group(1) == "?", x, y, _orient(m.group(4)))
    if m := _ANCHOR_RE.match(flat):
        card = _card_name(m.group(2))
        if card:
            x, y = _cell(m.group(3), text)
            return Anchor(card, m.group(1) == "?", x, y)
    raise BadNotation(Msg.of("vb-refuse-notation", text=text), text=text)


_ORIENT = "P|L|V|H|PORTRAIT|PAYSAGE|LANDSCAPE|DEBOUT|COUCHEE|COUCHE|STANDING|LYING"


_C = r"[A-Z]{1,2}\d{1,3}"


_PIVOT_RE = re.compile(rf"^({_C})@({_C})$")


_ANCHOR_RE = re.compile(rf"^([+?])?\s*(.+?)\s*@\s*({_C})$")


_REVEAL_RE = re.compile(rf"^!({_C})$")


_RECALL_RE = re.compile(rf"^<({_C})$")


_MOVE_RE = re.compile(rf"^({_C})>({_C})({_ORIENT})$")


_ATTACK_RE = re.compile(rf"^({_C}(?:\+{_C})*)X({_C})$")


_SUMMON_RE = re.compile(rf"^([+?])?\s*(.+?)\s+({_C})\s*({_ORIENT})$")


_LANDSCAPE = frozenset({"L", "H", "PAYSAGE", "LANDSCAPE", "COUCHEE", "COUCHE", "LYING"})


_WORDS: dict[str, Action] = {}
for _word in ("D", "PIOCHE", "PIOCHER", "DRAW"):
    _WORDS[_word] = Draw()
for _word in ("E", "FIN", "END", "FINDETOUR", "ENDTURN"):
    _WORDS[_word] = EndTurn()
for _word in ("-", "ANNULER", "CANCEL", "PASSER", "PASS", "NON", "NO", "RETOUR", "BACK"):
    _WORDS[_word] = Cancel()
for _kind, _words in (
    ("+", ("+", "INVOQUER", "INVOCATION", "SUMMON", "?", "EMBUSCADE", "AMBUSH")),
    (">", (">", "DEPLACER", "DEPLACEMENT", "MOVE", "<", "RAPATRIER", "RAPATRIEMENT", "RECALL")),
    ("x", ("X", "ATTAQUE", "ATTAQUER", "ATTACK")),
    ("^", ("^", "SORCELLERIE", "SORCERY")),
):
    for _word in _words:
        _WORDS[_word] = Begin(_kind)  # type: ignore[arg-type]


def _plain(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def _orient(text: str) -> bool:
    return text in _LANDSCAPE


def _cell(text: str, original: str) -> Cell:
    cell = parse_cell(text)
    if cell is None:
        raise BadNotation(Msg.of("vb-refuse-cell", cell=text), text=original)
    return cell


@cache
def _card_keys() -> dict[str, str]:
    return {name_key(u.name): u.name for u in deck_file().units}


def _card_name(text: str) -> str | None:
    """A card of the data file from its name, a unique prefix, any case or accents."""
    key = name_key(text)
    if len(key) < 2:
        return None
    keys = _card_keys()
    if key in keys:
        return keys[key]
    hits = [name for k, name in keys.items() if k.startswith(key)]
    return hits[0] if len(hits) == 1 else None
