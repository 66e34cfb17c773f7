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
    out: list[Action] = []
    rules = state.rules
    pa = state.pa
    player = state.players[seat]
    if (
        pa >= 1
        and any(player.deck)
        and not (rules.hand_limit and len(player.hand) >= rules.hand_limit)
    ):
        out.append(Draw())
        if stop_at_first:
            return out
    checks: tuple[tuple[BeginKind, bool], ...] = (
        ("+", bool(player.hand)),
        (">", pa >= 1),
        ("x", True),
        ("^", True),
    )
    for kind, cheap in checks:
        if not cheap:
            continue
        if kind == "+":
            ok = bool(_cards_for(state, seat, "+") or _cards_for(state, seat, "?"))
        elif kind == ">":
            ok = bool(_movers(state, seat, first_only=True) or _recallables(state, seat))
        elif kind == "x":
            ok = bool(_targets(state, seat, first_only=True))
        else:
            ok = bool(_sorcery_cards(state, seat))
        if ok:
            out.append(Begin(kind))
            if stop_at_first:
                return out
    if not stop_at_first and ((not rules.must_spend_pa and pa > 0) or (pa <= 0 and out)):
        # at 0 PA the turn goes on only for a Lancier's free attack, which
        # the player may decline (seed: « il attaque gratuitement »)
        out.append(EndTurn())
    return out


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
