"""Combat (seed 7-11, 16-18): melee, long-range fire, counter-battery and flank attacks,
and the losses they cause."""

from __future__ import annotations

from ... import rng
from ...core import Event
from ...core import evolve as replace
from .actions import Done, Fire
from .board import _abs_code, _set_card, _sig, _types, absolute_of, board, card_index, opposite
from .changes import _after_change, _eliminate, _reveal
from .data import WINGS
from .dice import _dice
from .legal import _fire_actions, _loss_candidates, _remember
from .model import _FOUGHT, _UP, Alloc, Card, Combat, State
from .turns import _enter_movement


def _apply_fire(state: State, seat: int, action: Fire, events: list[Event]) -> State:
    i = card_index(action.card)
    c = state.armies[seat].cards[i]
    at = action.at
    if at not in ("R", *WINGS, *("E" + w for w in WINGS)):
        j = card_index(at)
        q = state.armies[1 - seat].cards[j].loc
        return _fire(state, seat, i, "counter-battery", q, j, events)
    pos = absolute_of(seat, at)
    if pos == c.loc:
        mode = "melee"
    elif pos == opposite(c.loc):
        mode = "long-range"
    else:
        mode = "flank-attack"
    return _fire(state, seat, i, mode, pos, -1, events)


def _fire(
    state: State,
    seat: int,
    i: int,
    mode: str,
    at: int,
    target: int,
    events: list[Event],
) -> State:
    """Card ``i`` of ``seat`` fires (``mode``) at position ``at`` (``target``:
    the enemy card aimed at by counter-battery, -1 otherwise)."""
    rules = state.rules
    enemy = 1 - seat
    t = _types(rules)[state.armies[seat].cards[i].type]
    state = _open_fire(state, seat, i, mode, at, events)
    c = state.armies[seat].cards[i]
    b = board(state)
    n, mods, threshold, status = _dice(state, b, seat, t, mode, c.loc, at)
    stream = rng.Stream(state.rng)
    dice = tuple(stream.roll() for _ in range(n))
    hits = sum(1 for d in dice if d <= threshold)
    sixes = dice.count(6)
    general = general_type = ""
    g = b.general[enemy][at]
    if g >= 0 and sixes and (rules.general_sixes == "all" or mode == "melee"):
        gc = state.armies[enemy].cards[g]
        state = _set_card(state, enemy, g, gc.set(tokens=gc.tokens + sixes))
        general, general_type = gc.uid, gc.type
    target_uid = target_type = ""
    if target >= 0:
        tc = state.armies[enemy].cards[target]
        target_uid, target_type = tc.uid, tc.type
    combat = Combat(
        seat=seat,
        card=c.uid,
        type=c.type,
        mode=mode,
        origin=c.loc,
        at=at,
        target=target_uid,
        status=status,
        vc=t.vc,
        dice_count=n,
        modifiers=mods,
        threshold=threshold,
        dice=dice,
        hits=hits,
        sixes=sixes,
        general=general,
        turn=state.turn,
    )
    events.append(_fire_event(state, combat, target_type, general_type))
    spread = mode == "counter-battery" and rules.counter_battery == "spread"
    alloc = Alloc(
        taker=enemy,
        position=at,
        hits=hits,
        target=target_uid if mode == "counter-battery" and not spread else "",
        artillery_only=spread,
    )
    state = replace(state, rng=stream.state, last_combat=combat, alloc=alloc)
    return _distribute(state, events)


def _open_fire(state: State, seat: int, i: int, mode: str, at: int, events: list[Event]) -> State:
    """Before the dice: the firing card is turned face up and marked as
    having fought; a flank attack turns the attacked units face up; the
    combats of the position fought in before are over."""
    enemy = 1 - seat
    c = state.armies[seat].cards[i]
    if not c.up:
        # _reveal, with the card's new status set at once
        events.append(
            Event(
                f"reveal:{c.type}",
                {"seat": seat, "card": c.uid, "type": c.type, "position": _abs_code(state, c.loc)},
            )
        )
    state = _set_card(state, seat, i, Card(c.uid, c.type, c.loc, c.bits | _UP | _FOUGHT))
    if mode == "flank-attack":
        for j in board(state).units[enemy][at]:
            if not state.armies[enemy].cards[j].up:
                state = _reveal(state, enemy, j, events)
    closed = state.closed
    if state.combat_at >= 0 and state.combat_at != at:
        closed = (*closed, state.combat_at)
    return replace(state, combat_at=at, closed=closed)


def _fire_event(state: State, combat: Combat, target_type: str, general_type: str) -> Event:
    return Event(
        combat.mode,
        {
            "seat": combat.seat,
            "card": combat.card,
            "type": combat.type,
            "from": _abs_code(state, combat.origin),
            "at": _abs_code(state, combat.at),
            "target": combat.target or None,
            "target_type": target_type or None,
            "status": combat.status or None,
            "vc": combat.vc,
            "dice_count": combat.dice_count,
            "modifiers": [list(m) for m in combat.modifiers],
            "threshold": combat.threshold,
            "dice": list(combat.dice),
            "hits": combat.hits,
            "sixes": combat.sixes,
            "general": combat.general or None,
            "general_type": general_type or None,
        },
    )


def _distribute(state: State, events: list[Event]) -> State:
    """Place the losses automatically while there is no real choice; ask
    the taker (an out-of-turn decision) when there is one."""
    alloc = state.alloc
    assert alloc is not None
    hits = alloc.hits
    while hits > 0:
        cands = _loss_candidates(state)
        if not cands:
            break
        if len(cands) > hits:
            army = state.armies[alloc.taker]
            # face-down cards count as different: whether the taker is asked
            # must not tell the other side what they are
            sigs = {
                _sig(state, alloc.taker, j, army.cards[j]) if army.cards[j].up else (j,)
                for j in cands
            }
            if len(sigs) > 1:
                return replace(state, alloc=replace(alloc, hits=hits), phase="allocate")
            cands = cands[:hits]
        for j in cands:
            state = _give_loss(state, alloc.taker, j, events)
        hits -= len(cands)
    state = replace(state, alloc=None, phase="combat")
    state = _after_change(state, events)
    if state.phase == "over":
        return state
    fire = _fire_actions(state)
    if not fire:
        return _enter_movement(state, events)
    _remember(state, state.active, [*fire, Done()])
    return state


def _give_loss(state: State, seat: int, j: int, events: list[Event]) -> State:
    """One loss token; more tokens than the printed VC: eliminated (seed 11)."""
    c = state.armies[seat].cards[j]
    if not c.up:
        # a face-down unit that takes a loss is turned face up: its token,
        # its cohesion test and its elimination need its values
        state = _reveal(state, seat, j, events)
        c = state.armies[seat].cards[j]
    t = _types(state.rules)[c.type]
    c = c.set(tokens=c.tokens + 1)
    state = _set_card(state, seat, j, c)
    events.append(
        Event(
            "loss",
            {
                "seat": seat,
                "card": c.uid,
                "type": c.type,
                "position": _abs_code(state, c.loc),
                "tokens": c.tokens,
            },
        )
    )
    combat = state.last_combat
    if combat is not None:
        combat = replace(combat, losses=(*combat.losses, c.uid))
        state = replace(state, last_combat=combat)
    if c.tokens > t.vc:
        state = _eliminate(state, seat, j, "losses", events)
    return state
