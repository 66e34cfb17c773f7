"""What follows any change on the battlefield: reveals, eliminations, lone generals
(seed 17), conquests (rulings B6) and victory (seed 6, rulings B7)."""

from __future__ import annotations

from ...core import Event, Seat
from ...core import evolve as replace
from .board import _abs_code, _set_card, board
from .data import GONE
from .model import State


def _reveal(state: State, seat: int, i: int, events: list[Event]) -> State:
    c = state.armies[seat].cards[i]
    state = _set_card(state, seat, i, c.set(up=True))
    events.append(
        Event(
            f"reveal:{c.type}",
            {"seat": seat, "card": c.uid, "type": c.type, "position": _abs_code(state, c.loc)},
        )
    )
    return state


def _eliminate(state: State, seat: int, i: int, cause: str, events: list[Event]) -> State:
    c = state.armies[seat].cards[i]
    events.append(
        Event(
            "eliminated",
            {
                "seat": seat,
                "card": c.uid,
                "type": c.type,
                "position": _abs_code(state, c.loc),
                "cause": cause,
            },
        )
    )
    state = _set_card(
        state,
        seat,
        i,
        c.set(loc=GONE, up=True, tokens=0, entrenched=False, forced=False),
    )
    combat = state.last_combat
    if cause == "losses" and combat is not None:
        state = replace(state, last_combat=replace(combat, eliminated=(*combat.eliminated, c.uid)))
    return state


def _after_change(state: State, events: list[Event]) -> State:
    state = _lone_generals(state, events)
    state = _update_conquered(state, events)
    return _check_victory(state, events)


def _lone_generals(state: State, events: list[Event]) -> State:
    """Seed 17: a general can never hold a position alone; engaged alone,
    he is eliminated at once."""
    b = board(state)
    units = b.units
    general = b.general
    doomed = [
        (seat, g)
        for p in range(6)
        for seat in (0, 1)
        if (g := general[seat][p]) >= 0
        and not units[seat][p]
        and (units[1 - seat][p] or general[1 - seat][p] >= 0)
    ]
    for seat, g in doomed:
        state = _eliminate(state, seat, g, "alone", events)
    return state


def _update_conquered(state: State, events: list[Event]) -> State:
    """Rulings B6: a position is conquered when it holds enemy units and
    none of its owner's; it stays so while the enemy holds on there."""
    units = board(state).units
    old = state.conquered
    conquered: list[bool] | None = None
    for p in range(6):
        owner = p // 3
        other = 1 - owner
        was = old[p]
        if units[other][p]:
            if was or units[owner][p]:
                continue  # stays as it was
            now = True
        elif was:
            now = False
        else:
            continue
        if conquered is None:
            conquered = list(old)
        conquered[p] = now
        events.append(
            Event(
                "conquered" if now else "recovered",
                {"position": _abs_code(state, p), "seat": other if now else owner},
            )
        )
    if conquered is not None:
        new = (conquered[0], conquered[1], conquered[2], conquered[3], conquered[4], conquered[5])
        state = replace(state, conquered=new)
    return state


def _check_victory(state: State, events: list[Event]) -> State:
    """Seed 6: a player wins the instant they occupy two abandoned enemy
    positions; rulings B7: a player with no unit left anywhere loses."""
    b = board(state)
    units = b.units
    for seat in (state.active, 1 - state.active):
        mine = units[seat]
        theirs = units[1 - seat]
        base = (1 - seat) * 3
        held = 0
        for p in (base, base + 1, base + 2):
            if mine[p] and not theirs[p]:
                held += 1
        if held >= 2:
            return _finish(state, seat, "occupation", events)
    if state.rules.no_units_loses:
        alive = b.alive
        if not alive[0] and not alive[1]:
            return _finish(state, -1, "annihilation", events)
        for seat in (0, 1):
            if not alive[seat]:
                return _finish(state, 1 - seat, "annihilation", events)
    return state


def _finish(state: State, winner: int, reason: str, events: list[Event]) -> State:
    ranking: tuple[tuple[Seat, ...], ...] = ((0, 1),) if winner < 0 else ((winner,), (1 - winner,))
    state = replace(state, phase="over", ranking=ranking, end_reason=reason, alloc=None)
    events.append(
        Event(
            "game-over",
            {
                "reason": reason,
                "winner": None if winner < 0 else winner,
                "ranking": [list(g) for g in ranking],
            },
        )
    )
    return state
