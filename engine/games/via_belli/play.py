"""Applying actions: the steps of a turn and each action's effect."""

from __future__ import annotations

from ...core import Event, Seat
from ...core import evolve as replace
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
    format_action,
)
from .board import board_of, card_table
from .combat import _attack, _combat
from .geometry import cell_text
from .legal import _legal
from .model import (
    Phase,
    SelKind,
    State,
    Unit,
    _clear,
    _draw_from,
    _forget_before,
    _forget_latest,
    _remove_last,
    _remove_one,
    _set_player,
)
from .turns import _after, _contact, _eliminate, _end_turn


def _shortcut(state: State, seat: Seat, action: Action) -> tuple[State, tuple[Event, ...]] | None:
    """A complete action typed at the turn decision (or a free dog's
    placement at the free-dog decision): all its steps at once, through the
    first anchor or pivot that offers it (the one a host's menu lists it
    under). Its legality is decided by ``checks.py`` first; None (a step
    not offered) never happens for an action that passed its check."""
    events: list[Event] = []
    s = state
    if state.phase == "turn":
        begin: BeginKind
        if isinstance(action, Summon):
            begin = "+"
        elif isinstance(action, Move | Recall):
            begin = ">"
        elif isinstance(action, Attack):
            begin = "x"
        elif isinstance(action, Sorcery):
            begin = "^"
        else:
            return None
        if Begin(begin) not in _legal(s, seat):
            return None
        s = _step(s, seat, Begin(begin), events)
    elif state.phase != "free-dog" or not isinstance(action, Summon) or action.hidden:
        return None
    if isinstance(action, Summon | Move):
        for step in _legal(s, seat):
            if isinstance(step, Anchor) and isinstance(action, Summon):
                if step.card != action.card or step.hidden != action.hidden:
                    continue
            elif isinstance(step, Pivot) and isinstance(action, Move):
                if (step.fx, step.fy) != (action.fx, action.fy):
                    continue
            else:
                continue
            s2 = _step(s, seat, step, events)
            if action in _legal(s2, seat):
                s = s2
                break
        else:
            return None
    if action not in _legal(s, seat):
        return None
    s = _step(s, seat, action, events)
    return s, tuple(events)


def _step(state: State, seat: Seat, action: Action, events: list[Event]) -> State:
    """Apply one legal action."""
    if isinstance(action, Begin):
        phase: Phase = {
            "+": "anchor",
            ">": "pivot",
            "x": "attack",
            "^": "sorcery",
        }[action.kind]  # type: ignore[assignment]
        return replace(state, phase=phase, sel_kind=action.kind)
    if isinstance(action, Anchor):
        kind: SelKind = "dog" if state.phase == "free-dog" else "?" if action.hidden else "+"
        return replace(
            state,
            phase="spot",
            sel_kind=kind,
            sel_card=action.card,
            sel_via=(action.x, action.y),
        )
    if isinstance(action, Pivot):
        return replace(
            state,
            phase="destination",
            sel_unit=(action.fx, action.fy),
            sel_via=(action.x, action.y),
        )
    if isinstance(action, Cancel):  # no free dog
        events.append(Event("free-dog-declined", {"seat": seat}))
        return _after(_clear(state), events, touched=())
    if isinstance(action, Draw):
        return _draw(state, seat, events)
    if isinstance(action, EndTurn):
        events.append(Event("end-turn", {"seat": seat, "pa": state.pa}))
        return _end_turn(replace(state, pa=0), events)
    if isinstance(action, Summon):
        return _summon(state, seat, action, events)
    if isinstance(action, Move):
        return _move(state, seat, action, events)
    if isinstance(action, Recall):
        return _recall(state, seat, action, events)
    if isinstance(action, Attack):
        return _attack(state, seat, action, events)
    if isinstance(action, Sorcery):
        return _sorcery(state, seat, action, events)
    assert isinstance(action, Reveal)
    c = state.combat
    assert c is not None
    return _combat(state, c.seat, c.attackers, c.target, (action.x, action.y), events)


def _draw(state: State, seat: Seat, events: list[Event]) -> State:
    player = state.players[seat]
    index, deck, next_rng = _draw_from(state.rng, player.deck)
    card = state.rules.cards[index].name
    player = replace(player, hand=(*player.hand, card), deck=deck)
    state = _set_player(state, seat, player)
    state = replace(
        state, pa=state.pa - 1, rng=next_rng, last_seat=seat, last_action="D", last_cells=()
    )
    left = sum(deck)
    events.append(
        Event(
            "draw",
            {"seat": seat, "card": card, "left": left},
            to=frozenset({seat}),
            redacted={"seat": seat, "left": left},
        )
    )
    if not left and state.rules.deck_out == "immediate":
        events.append(Event("deck-out", {"seat": seat}))
        state = _eliminate(state, seat, "exhausted", events)
        return _after(state, events)
    return _after(state, events, touched=())


def _summon(state: State, seat: Seat, a: Summon, events: list[Event]) -> State:
    rules = state.rules
    cd = card_table(rules)[a.card]
    free = state.sel_kind == "dog"
    cost = 0 if free else rules.ambush_cost if a.hidden else cd.ivk
    player = state.players[seat]
    known = player.known if a.hidden else _forget_latest(player.known, a.card)
    player = replace(player, hand=_remove_one(player.hand, a.card), known=known)
    clock = state.clock + 1 if a.hidden else state.clock
    unit = Unit(
        owner=seat,
        name=a.card,
        x=a.x,
        y=a.y,
        landscape=a.landscape,
        face_up=not a.hidden,
        free_attack=not a.hidden and cd.ability == "lancer",
        since=clock if a.hidden else 0,
    )
    state = _set_player(state, seat, player)
    tag = cell_text(a.x, a.y)
    orient = "L" if a.landscape else "P"
    state = replace(
        state,
        units=(*state.units, unit),
        clock=clock,
        pa=state.pa - cost,
        last_seat=seat,
        # an ambush is public only as "a face-down card went there"
        last_action=f"? {tag}{orient}" if a.hidden else format_action(a),
        last_cells=((a.x, a.y),),
    )
    if a.hidden:
        events.append(
            Event(
                "ambush",
                {"seat": seat, "card": a.card, "tag": tag, "orient": orient, "cost": cost},
                to=frozenset({seat}),
                redacted={"seat": seat, "tag": tag, "orient": orient, "cost": cost},
            )
        )
    else:
        events.append(
            Event(
                "summon",
                {
                    "seat": seat,
                    "card": a.card,
                    "tag": tag,
                    "orient": orient,
                    "cost": cost,
                    "free": free,
                },
            )
        )
        if free:
            events.append(Event("free-dog", {"seat": seat, "card": a.card, "tag": tag}))
        if cd.ability == "spy":
            events.append(Event("spy", {"seat": seat, "tag": tag}))
    if not a.hidden and cd.ability == "dog" and (not free or rules.dog_chain):
        state = _contact(state, (a.x, a.y), events)
        return replace(
            state, phase="free-dog", sel_kind="dog", sel_card="", sel_via=None, sel_unit=None
        )
    return _after(state, events, touched=(a.x, a.y))


def _move(state: State, seat: Seat, a: Move, events: list[Event]) -> State:
    b = board_of(state)
    ui = b.ref[b.at((a.fx, a.fy))]
    u = state.units[ui]
    units = list(state.units)
    units[ui] = replace(u, x=a.x, y=a.y, landscape=a.landscape)
    state = replace(
        state,
        units=tuple(units),
        pa=state.pa - 1,
        last_seat=seat,
        last_action=format_action(a),
        last_cells=((a.x, a.y), (a.fx, a.fy)),
    )
    events.append(
        Event(
            "move",
            {
                "seat": seat,
                "card": u.name if u.face_up else None,
                "from": cell_text(a.fx, a.fy),
                "tag": cell_text(a.x, a.y),
                "orient": "L" if a.landscape else "P",
            },
        )
    )
    if state.rules.self_cut:
        return _after(state, events)
    return _after(state, events, touched=(a.x, a.y))


def _recall(state: State, seat: Seat, a: Recall, events: list[Event]) -> State:
    b = board_of(state)
    ui = b.ref[b.at((a.x, a.y))]
    u = state.units[ui]
    player = state.players[seat]
    clock = state.clock + 1
    known = (*player.known, (u.name, clock)) if u.face_up else player.known
    state = _set_player(state, seat, replace(player, hand=(*player.hand, u.name), known=known))
    state = replace(state, clock=clock)
    state = replace(
        state,
        units=state.units[:ui] + state.units[ui + 1 :],
        pa=state.pa - 1,
        last_seat=seat,
        last_action=format_action(a),
        last_cells=((a.x, a.y),),
    )
    tag = cell_text(a.x, a.y)
    if u.face_up:
        events.append(Event("recall", {"seat": seat, "card": u.name, "tag": tag}))
    else:
        events.append(
            Event(
                "recall",
                {"seat": seat, "card": u.name, "tag": tag},
                to=frozenset({seat}),
                redacted={"seat": seat, "card": None, "tag": tag},
            )
        )
    if state.rules.self_cut:
        return _after(state, events)
    return _after(state, events, touched=())


def _sorcery(state: State, seat: Seat, a: Sorcery, events: list[Event]) -> State:
    rules = state.rules
    cost = card_table(rules)[a.card].ivk
    n = len(state.players)
    source = seat
    if a.card not in state.players[seat].discard:
        # option sorcery_discard=any: the next discard holding it, in turn order
        source = next(
            (seat + k) % n for k in range(1, n) if a.card in state.players[(seat + k) % n].discard
        )
    donor = state.players[source]
    state = _set_player(state, source, replace(donor, discard=_remove_last(donor.discard, a.card)))
    player = state.players[seat]
    clock = state.clock + 1
    state = _set_player(
        state,
        seat,
        replace(player, hand=(*player.hand, a.card), known=(*player.known, (a.card, clock))),
    )
    state = replace(state, clock=clock)
    table = card_table(rules)
    if not any(
        u.owner == seat and u.face_up and table[u.name].ability == "sorcerer" for u in state.units
    ):  # option sorcery_face_down: the face-down Sorcier shows itself
        ui = min(
            (
                i
                for i, u in enumerate(state.units)
                if u.owner == seat and table[u.name].ability == "sorcerer"
            ),
            key=lambda i: (state.units[i].y, state.units[i].x),
        )
        ru = state.units[ui]
        owner = state.players[seat]
        state = _set_player(
            state, seat, replace(owner, known=_forget_before(owner.known, ru.name, ru.since))
        )
        units = list(state.units)
        units[ui] = replace(ru, face_up=True)
        state = replace(state, units=tuple(units))
        tag = cell_text(ru.x, ru.y)
        events.append(
            Event("ambush-revealed", {"seat": seat, "card": ru.name, "tag": tag, "target": tag})
        )
    state = replace(
        state,
        pa=state.pa - cost,
        last_seat=seat,
        last_action=format_action(a),
        last_cells=(),
    )
    events.append(Event("sorcery", {"seat": seat, "card": a.card, "cost": cost, "from": source}))
    return _after(state, events, touched=())
