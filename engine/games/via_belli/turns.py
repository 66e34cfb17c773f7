"""Who decides, what happens after every action (contacts, supply, end of
turn), turns, eliminations and the end of the game."""

from __future__ import annotations

from collections.abc import Mapping

from ...core import Decision, Event, Seat
from ...core import evolve as replace
from ...errors import GameOver, NotYourTurn
from ...text import Msg
from .board import K_UNIT, board_of
from .geometry import Cell, _touch, card_rect, cell_text
from .legal import _can_act
from .model import State, _clear, _set_player, _set_terrain


def pending(state: State) -> Mapping[Seat, Decision]:
    phase = state.phase
    if phase == "over":
        return {}
    if phase == "reveal":
        assert state.combat is not None
        c = state.combat
        return {
            c.defender: Decision(
                "reveal",
                (("target", cell_text(*c.target)), ("attacker", c.seat)),
            )
        }
    pa = state.pa
    params: tuple[tuple[str, str | int], ...] = (("pa", pa),)
    if state.sel_kind:
        params += (("action", state.sel_kind),)
    if state.sel_unit is not None:
        params += (("unit", cell_text(*state.sel_unit)),)
    if state.sel_via is not None:
        params += (("via", cell_text(*state.sel_via)),)
    return {state.active: Decision(phase, params)}


def _after(state: State, events: list[Event], touched: Cell | tuple[()] | None = None) -> State:
    """Settle the table (contacts, control, supply), then end the turn if
    no PA are left or nothing can be done with them (V3). ``touched``: the
    action only placed the card at that cell (or changed nothing on the
    table, ``()``), so no card can have lost its supply."""
    if touched is None:
        state = _settle(state, events)
        if state.phase == "over":
            return state
    elif touched:
        state = _contact(state, touched, events)
    state = _clear(state)
    if state.players[state.active].out:
        return _next_turn(state, events)
    if state.pa <= 0 and not any(u.free_attack for u in state.units if u.owner == state.active):
        return _end_turn(state, events)
    if not _can_act(state):
        return _end_turn(state, events)
    return state


def _contact(state: State, cell: Cell, events: list[Event]) -> State:
    """The card just placed at ``cell`` reveals the terrain it touches and
    takes the uncontrolled ones (V2, V20)."""
    unit = next(u for u in state.units if u.x == cell[0] and u.y == cell[1])
    r = card_rect(unit.x, unit.y, unit.landscape)
    terrain = state.terrain
    for ti, t in enumerate(terrain):
        if not _touch(r, card_rect(t.x, t.y, t.landscape)):
            continue
        if t.revealed and t.controller >= 0:
            continue
        tag = cell_text(t.x, t.y)
        if not t.revealed:
            t = replace(t, revealed=True)
            events.append(Event("terrain-revealed", {"tag": tag, "kind": t.kind}))
        if t.controller < 0:
            t = replace(t, controller=unit.owner)
            events.append(Event("control", {"seat": unit.owner, "tag": tag, "kind": t.kind}))
            if t.kind == "inn" and unit.owner == state.active:
                state = replace(state, pa=state.pa + state.rules.inn_pa)
                events.append(
                    Event("inn-bonus", {"seat": unit.owner, "tag": tag, "pa": state.rules.inn_pa})
                )
        state = _set_terrain(state, ti, t)
    return state


def _settle(state: State, events: list[Event]) -> State:
    """Terrain revealed and taken on first contact (V2, V20); cards cut off
    from supply go back to their owner's hand for free (V6, V7)."""
    if state.phase == "over":
        return state
    b = board_of(state)
    n = len(state.players)
    order = [(state.active + k) % n for k in range(n)]
    terrain = list(state.terrain)
    gain = 0
    changed = False
    for ti, t in enumerate(terrain):
        ci = b.terrain_ci[ti]
        seats = {b.owner[k] for k in b.adj[ci] if b.kind[k] == K_UNIT}
        if not seats:
            continue
        tag = b.tag(ci)
        if not t.revealed:
            t = replace(t, revealed=True)
            changed = True
            events.append(Event("terrain-revealed", {"tag": tag, "kind": t.kind}))
        if t.controller < 0:
            new = next(s for s in order if s in seats)
            t = replace(t, controller=new)
            changed = True
            events.append(Event("control", {"seat": new, "tag": tag, "kind": t.kind}))
            if t.kind == "inn" and new == state.active:
                gain += state.rules.inn_pa
                events.append(
                    Event("inn-bonus", {"seat": new, "tag": tag, "pa": state.rules.inn_pa})
                )
        terrain[ti] = t
    if changed:
        state = replace(state, terrain=tuple(terrain), pa=state.pa + gain)
        b = board_of(state)
    cut: dict[int, list[int]] = {}
    for seat in range(n):
        if state.players[seat].out:
            continue
        side = b.side(seat)
        if side.cut:
            cut[seat] = sorted(b.ref[ci] for ci in side.cut)
    if not cut:
        return state
    players = list(state.players)
    gone: set[int] = set()
    clock = state.clock + 1
    for seat, uis in cut.items():
        player = players[seat]
        hand = list(player.hand)
        known = list(player.known)
        cards = []
        for ui in uis:
            u = state.units[ui]
            hand.append(u.name)
            if u.face_up:
                known.append((u.name, clock))
            cards.append((cell_text(u.x, u.y), u.name, u.face_up))
            gone.add(ui)
        players[seat] = replace(player, hand=tuple(hand), known=tuple(known))
        # public: the owner knows its face-down cards from its own view
        events.append(
            Event(
                "cut-off",
                {
                    "seat": seat,
                    "tags": [c[0] for c in cards],
                    "cards": [c[1] if c[2] else None for c in cards],
                },
            )
        )
    return replace(
        state,
        players=tuple(players),
        units=tuple(u for i, u in enumerate(state.units) if i not in gone),
        clock=clock,
    )


def _end_turn(state: State, events: list[Event]) -> State:
    seat = state.active
    if state.pa > 0:
        events.append(Event("pa-lost", {"seat": seat, "pa": state.pa}))
    if any(u.owner == seat and (u.free_attack or u.attacks) for u in state.units):
        state = replace(
            state,
            units=tuple(
                replace(u, free_attack=False, attacks=0)
                if u.owner == seat and (u.free_attack or u.attacks)
                else u
                for u in state.units
            ),
        )
    state = replace(_clear(state), pa=0)
    player = state.players[seat]
    if not player.out and state.rules.deck_out == "end-of-turn" and not any(player.deck):
        events.append(Event("deck-out", {"seat": seat}))
        state = _eliminate(state, seat, "exhausted", events)
        if state.phase == "over":
            return state
    return _next_turn(state, events)


def _next_turn(state: State, events: list[Event]) -> State:
    n = len(state.players)
    for k in range(1, n + 1):
        nxt = (state.active + k) % n
        if not state.players[nxt].out:
            return _start_turn(state, nxt, events)
    return state  # unreachable: the game ends with one player left


def _start_turn(state: State, seat: Seat, events: list[Event], first_turn: bool = False) -> State:
    rules = state.rules
    inns = sum(1 for t in state.terrain if t.controller == seat and t.kind == "inn")
    pa = rules.base_pa + rules.inn_pa * inns
    state = replace(_clear(state), active=seat, pa=pa, turn=state.turn + 1)
    events.append(Event("turn", {"seat": seat, "turn": state.turn, "pa": pa}))
    if _can_act(state):
        return replace(state, idle_turns=0) if state.idle_turns else state
    idle = state.idle_turns + 1
    living = sum(1 for p in state.players if not p.out)
    if idle > living:
        return _finish(state, "stalemate", events)
    return _end_turn(replace(state, idle_turns=idle), events)


def _eliminate(state: State, seat: Seat, reason: str, events: list[Event]) -> State:
    """V22: the player's cards leave the table, their castle becomes an
    obstacle (or goes), their terrain becomes uncontrolled."""
    rules = state.rules
    castles = list(state.castles)
    castles[seat] = replace(castles[seat], fallen=True)
    terrain = state.terrain
    if rules.eliminated_terrain == "uncontrolled":
        terrain = tuple(replace(t, controller=-1) if t.controller == seat else t for t in terrain)
    player = state.players[seat]
    state = _set_player(state, seat, replace(player, out=True, hand=(), deck=(), known=()))
    combat = state.combat
    if combat is not None and seat in (combat.seat, combat.defender):
        combat = None
    state = replace(
        state,
        units=tuple(u for u in state.units if u.owner != seat),
        castles=tuple(castles),
        terrain=terrain,
        eliminated=(*state.eliminated, seat),
        combat=combat,
        phase="turn" if state.phase == "reveal" and combat is None else state.phase,
    )
    events.append(Event("eliminated", {"seat": seat, "reason": reason}))
    living = [s for s, p in enumerate(state.players) if not p.out]
    if len(living) <= 1:
        return _finish(state, reason, events)
    return state


def _finish(state: State, reason: str, events: list[Event]) -> State:
    living = tuple(s for s, p in enumerate(state.players) if not p.out)
    ranking = [living] if living else []
    ranking += [(s,) for s in reversed(state.eliminated)]
    state = replace(
        _clear(state), phase="over", ranking=tuple(ranking), end_reason=reason, combat=None
    )
    events.append(Event("game-over", {"reason": reason, "ranking": [list(g) for g in ranking]}))
    return state


def resign(state: State, seat: Seat) -> tuple[State, tuple[Event, ...]]:
    """A resigning player is eliminated at once (V22 applies to their
    cards); the game goes on while two or more remain. An attack waiting
    for their reveal is called off (its PA stay spent)."""
    if state.phase == "over":
        raise GameOver(Msg.of("core-game-over"))
    if not 0 <= seat < len(state.players) or state.players[seat].out:
        raise NotYourTurn(Msg.of("vb-refuse-not-playing"), seat=seat)
    events: list[Event] = [Event("resign", {"seat": seat})]
    was_active = state.active == seat
    state = _eliminate(state, seat, "resign", events)
    if state.phase == "over":
        return state, tuple(events)
    if was_active:
        state = _next_turn(_clear(state), events)
    elif state.phase in ("reveal", "free-dog"):
        state = _settle(state, events)
    else:
        # a choice in progress may name a card that left: start it again
        state = _after(_clear(state), events)
    return state, tuple(events)
