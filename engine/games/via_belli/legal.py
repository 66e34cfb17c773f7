"""The legal actions of a position."""

from __future__ import annotations

from ...core import Seat
from .actions import (
    Action,
    Anchor,
    Attack,
    Begin,
    BeginKind,
    Cancel,
    Draw,
    EndTurn,
    Move,
    Pivot,
    Recall,
    Reveal,
    Sorcery,
    Summon,
)
from .attacking import _attack_groups, _targets
from .board import board_of
from .checks import check_begin, check_draw, check_end_turn
from .geometry import Cell
from .model import State
from .moving import _destinations, _movers, _pivots, _recallables
from .summoning import _anchors_for, _cards_for, _sorcery_cards, _spots_for


def _legal(state: State, seat: Seat) -> list[Action]:
    """The legal actions (``legal_actions`` memoises the last answer, which
    ``apply`` asks again to validate; states are immutable, so it is safe).
    ``-`` (back to the turn decision) is accepted in every step after the
    first but listed only where it is a choice of its own (no free dog)."""
    phase = state.phase
    if phase == "over":
        return []
    if phase == "reveal":
        c = state.combat
        if c is None or seat != c.defender:
            return []
        return [Reveal(x, y) for x, y in c.candidates]
    if seat != state.active:
        return []
    if phase == "turn":
        return _root(state, seat)
    b = board_of(state)
    out: list[Action] = []
    if phase == "anchor":
        for hidden, kind in ((False, "+"), (True, "?")):
            for card in _cards_for(state, seat, kind):
                for ci in _anchors_for(state, seat, card, hidden):
                    out.append(Anchor(card, hidden, *b.cell(ci)))
    elif phase == "free-dog":
        for card in _cards_for(state, seat, "dog"):
            for ci in _anchors_for(state, seat, card, False):
                out.append(Anchor(card, False, *b.cell(ci)))
        out.append(Cancel())
    elif phase == "spot":
        assert state.sel_via is not None
        hidden = state.sel_kind == "?"
        for x, y, land in _spots_for(state, seat, state.sel_card, hidden, b.at(state.sel_via)):
            out.append(Summon(state.sel_card, hidden, x, y, land))
    elif phase == "pivot":
        for ci in _movers(state, seat):
            fx, fy = b.cell(ci)
            out += [Pivot(fx, fy, *b.cell(p)) for p in _pivots(state, seat, ci)]
        out += [Recall(*b.cell(ci)) for ci in _recallables(state, seat)]
    elif phase == "destination":
        assert state.sel_unit is not None and state.sel_via is not None
        fx, fy = state.sel_unit
        for x, y, land in _destinations(state, seat, b.at(state.sel_unit), b.at(state.sel_via)):
            out.append(Move(fx, fy, x, y, land))
    elif phase == "attack":
        for t in _targets(state, seat):
            target = b.cell(t)
            for group in _attack_groups(state, seat, t):
                out.append(Attack(tuple(b.cell(a) for a in group), target))
    elif phase == "sorcery":
        out += [Sorcery(c) for c in _sorcery_cards(state, seat)]
    return out


def _root(state: State, seat: Seat, stop_at_first: bool = False) -> list[Action]:
    """The turn decision's actions: ``D``, the menus that have a choice to
    offer, ``E`` (each decided by its check in ``checks.py``)."""
    out: list[Action] = []
    if check_draw(state, seat) is None:
        out.append(Draw())
        if stop_at_first:
            return out
    for kind in _MENUS:
        if check_begin(state, seat, kind) is None:
            out.append(Begin(kind))
            if stop_at_first:
                return out
    if not stop_at_first and check_end_turn(state, seat, others=bool(out)) is None:
        out.append(EndTurn())
    return out


_MENUS: tuple[BeginKind, ...] = ("+", ">", "x", "^")


def _can_act(state: State) -> bool:
    return bool(_root(state, state.active, stop_at_first=True))


def summon_spots(
    state: State, seat: Seat, card: str, hidden: bool, anchor: Cell
) -> list[tuple[int, int, bool]]:
    """The spots (x, y, landscape) offered once ``Anchor(card, hidden,
    *anchor)`` is chosen: the ``Summon`` actions of the next step, without
    making the step (for bots weighing every complete action)."""
    b = board_of(state)
    return list(_spots_for(state, seat, card, hidden, b.at(anchor)))


def move_places(state: State, seat: Seat, unit: Cell, pivot: Cell) -> list[tuple[int, int, bool]]:
    """The places (x, y, landscape) offered once ``Pivot(*unit, *pivot)``
    is chosen: the ``Move`` actions of the next step, without making it."""
    b = board_of(state)
    return list(_destinations(state, seat, b.at(unit), b.at(pivot)))
