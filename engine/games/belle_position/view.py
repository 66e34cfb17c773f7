"""What a seat (or a spectator) sees of a state: :func:`build_view`."""

from __future__ import annotations

from collections.abc import Mapping

from ...core import Seat
from .actions import format_action
from .board import (
    _LOCAL,
    Board,
    _abs_code,
    _allowance,
    _cap,
    _type_list,
    _types,
    board,
    opposite,
    relative_code,
    status_of,
)
from .data import GONE, RESERVE, USED, WINGS, TypeDef, army_entries, catalog
from .dice import _cohesion_of, _position_bonus
from .legal import _loss_candidates, legal_actions, pending
from .model import (
    _FORCED,
    AllocView,
    CardView,
    GeneralStatus,
    PlayerView,
    PositionView,
    SideAt,
    State,
    View,
)
from .movement import _immobile

_KIND_ORDER = {"unit": 0, "general": 1, "terrain": 2, "special": 3}


def _card_view(
    state: State,
    seat: int,
    i: int,
    types: Mapping[str, TypeDef],
    bonus: Mapping[tuple[int, int], tuple[str, int, bool]],
) -> CardView:
    rules = state.rules
    c = state.armies[seat].cards[i]
    loc = c.loc
    if loc in (GONE, USED):
        found = _LOCAL.card_views.get((c, id(types), rules.artillery_moves))
        if found is not None:
            return found
    t = types[c.type]
    status = ""
    cohesion = 0
    bits = c.bits
    kind = t.kind
    if loc >= 0 and kind == "unit":
        status, gen, bourg = bonus[seat, loc]
        cohesion = _cohesion_of(rules, t, c, status, gen, bourg)[0]
    allowance = _allowance(rules, t, bool(bits & _FORCED))
    moves_left = 0
    # what the rules let it move (movement._immobile); terrain is placed, not moved
    is_mover = state.mover == i and state.active == seat
    if kind != "terrain" and _immobile(rules, t, loc, bits, is_mover) is None:
        moves_left = allowance - ((bits >> 5) & 7)
    key = (c, id(types), status, cohesion, allowance, moves_left)
    found = _LOCAL.card_views.get(key)
    if found is not None:
        return found
    view = CardView(
        uid=c.uid,
        type=c.type,
        name=t.name,
        short=t.short,
        kind=t.kind,
        category=t.category,
        face_up=c.up,
        tokens=c.tokens,
        vc=t.vc,
        fire_attack=t.fire_attack,
        fire_defence=t.fire_defence,
        long_range=t.long_range,
        save=t.save,
        move=allowance,
        attack=t.attack,
        defence=t.defence,
        rally=t.rally,
        status=status,
        cohesion=cohesion,
        fought=c.fought,
        moves=c.moves,
        moves_left=moves_left,
        entrenched=c.entrenched,
        forced=c.forced,
    )
    if len(_LOCAL.card_views) > 50_000:
        _LOCAL.card_views.clear()
    _LOCAL.card_views[key] = view
    if loc in (GONE, USED):
        _LOCAL.card_views[c, id(types), rules.artillery_moves] = view
    return view


_Bonus = Mapping[tuple[int, int], tuple[str, int, bool]]


def build_view(state: State, seat: Seat | None) -> View:
    rules = state.rules
    types = _types(rules)
    b = board(state)
    bonus = {(s, p): _position_bonus(state, b, s, p) for s in (0, 1) for p in range(6)}
    positions = tuple(_position_view(state, b, seat, p, types, bonus) for p in range(6))
    players = [_player_view(state, b, seat, s, types, bonus) for s in (0, 1)]
    choices: tuple[str, ...] = ()
    if seat is not None:
        choices = tuple(format_action(a) for a in legal_actions(state, seat))
    winner = -1
    if state.phase == "over" and len(state.ranking) == 2:
        winner = state.ranking[0][0]
    return View(
        observer=seat,
        phase=state.phase,
        turn=state.turn,
        turn_limit=rules.turn_limit,
        active=state.active,
        first_player=state.first_player,
        pending=tuple((s, d.kind) for s, d in pending(state).items()),
        players=(players[0], players[1]),
        positions=positions,
        combat_at=state.combat_at,
        closed=state.closed,
        mover=_public_mover(state, seat),
        alloc=_alloc_view(state, seat),
        last_combat=state.last_combat,
        last_tests=state.last_tests,
        choices=choices,
        ranking=state.ranking,
        end_reason=state.end_reason,
        winner=winner,
        rules=rules,
        types=_type_list(rules),
    )


def _shown(state: State, seat: Seat | None, s: int) -> bool:
    """Are side ``s``'s cards on the board shown to ``seat`` (during deployment
    each side sees its own only)?"""
    return state.phase != "deploy" or s == seat


def _position_view(
    state: State,
    b: Board,
    seat: Seat | None,
    p: int,
    types: Mapping[str, TypeDef],
    bonus: _Bonus,
) -> PositionView:
    deploying = state.phase == "deploy"
    line, wing = divmod(p, 3)
    terrain_shown = _shown(state, seat, line)
    sides = [_side_at(state, b, seat, s, p, terrain_shown, types, bonus) for s in (0, 1)]
    terrain: tuple[CardView, ...] = ()
    if terrain_shown:
        terrain = tuple(_card_view(state, s, i, types, bonus) for s, i in b.terrain_cards[p])
    holder = -1
    if not deploying:
        if b.units[0][p] and not b.units[1][p]:
            holder = 0
        elif b.units[1][p] and not b.units[0][p]:
            holder = 1
    code = _abs_code(state, p)
    return PositionView(
        index=p,
        line=line,
        wing=WINGS[wing],
        code=code,
        relative="" if seat is None else relative_code(seat, p),
        opposite=opposite(p),
        terrain=terrain,
        conquered=state.conquered[p],
        engaged=not deploying and b.engaged(p),
        holder=holder,
        sides=(sides[0], sides[1]),
    )


def _side_at(
    state: State,
    b: Board,
    seat: Seat | None,
    s: int,
    p: int,
    terrain_shown: bool,
    types: Mapping[str, TypeDef],
    bonus: _Bonus,
) -> SideAt:
    army = state.armies[s]
    status = status_of(state.conquered, s, p)
    if not _shown(state, seat, s):
        return SideAt(s, None, (), 0, 0, state.rules.grouping, status)
    g = b.general[s][p]
    units = []
    hidden = 0
    for i in b.units[s][p]:
        if s == seat or army.cards[i].up:
            units.append(_card_view(state, s, i, types, bonus))
        else:
            hidden += 1
    count = len(b.units[s][p]) + (len(b.terrain[p]) if terrain_shown else 0)
    return SideAt(
        seat=s,
        general=_card_view(state, s, g, types, bonus) if g >= 0 else None,
        units=tuple(units),
        hidden=hidden,
        count=count,
        capacity=_cap(state, b, s, p),
        status=status,
    )


def _player_view(
    state: State,
    b: Board,
    seat: Seat | None,
    s: int,
    types: Mapping[str, TypeDef],
    bonus: _Bonus,
) -> PlayerView:
    army = state.armies[s]
    deploying = state.phase == "deploy"
    own = s == seat
    reserve: tuple[CardView, ...] | None = None
    if own:
        order = catalog().order
        idx = sorted(
            b.reserve[s],
            key=lambda i: (
                _KIND_ORDER[types[army.cards[i].type].kind],
                order.get(army.cards[i].type, 10_000),
                i,
            ),
        )
        reserve = tuple(_card_view(state, s, i, types, bonus) for i in idx)
    if deploying and not own:
        reserve_count = sum(1 for c in army.cards if c.loc == RESERVE or c.loc >= 0)
        known: tuple[str, ...] = ()
    else:
        reserve_count = len(b.reserve[s])
        known = tuple(
            sorted(
                (army.cards[i].type for i in b.reserve[s] if army.cards[i].known),
                key=lambda tid: catalog().order.get(tid, 10_000),
            )
        )
    enemy = 1 - s
    holds = 0
    if not deploying:
        holds = sum(
            1 for p in range(enemy * 3, enemy * 3 + 3) if b.units[s][p] and not b.units[enemy][p]
        )
    generals, generals_total = _generals(state, s, own, _shown(state, seat, s), types)
    return PlayerView(
        seat=s,
        side=army.side,
        letter=army.letter,
        points=army.points,
        army=army_entries(army.text, army.side),
        army_size=len(army.cards),
        reserve_count=reserve_count,
        reserve=reserve,
        reserve_known=known,
        pile_count=len(army.pile),
        eliminated=tuple(
            _card_view(state, s, i, types, bonus) for i, c in enumerate(army.cards) if c.loc == GONE
        ),
        used=tuple(
            _card_view(state, s, i, types, bonus) for i, c in enumerate(army.cards) if c.loc == USED
        ),
        ready=army.done,
        staged=tuple(army.cards[i].uid for i in army.staged) if own else (),
        holds=holds,
        generals=generals,
        generals_unseen=generals_total - len(generals),
    )


def _alloc_view(state: State, seat: Seat | None) -> AllocView | None:
    alloc = state.alloc
    if alloc is None or state.phase != "allocate":
        return None
    taker_cards = state.armies[alloc.taker].cards
    cands = _loss_candidates(state)
    # face-down handles stay secret to all but the taker
    own = seat == alloc.taker
    named = [j for j in cands if own or taker_cards[j].up]
    return AllocView(
        taker=alloc.taker,
        position=alloc.position,
        hits=alloc.hits,
        candidates=tuple(taker_cards[j].uid for j in named),
        hidden=len(cands) - len(named),
        target=alloc.target,
        artillery_only=alloc.artillery_only,
    )


def _generals(
    state: State, s: int, own: bool, on_board_shown: bool, types: Mapping[str, TypeDef]
) -> tuple[tuple[GeneralStatus, ...], int]:
    """Side ``s``'s generals that the observer can place, and how many
    generals the army has: on the board (face up, but not the other
    side's during deployment), in the reserve (one's own; the other
    side's only when seen going back, and then by type alone), dead (in
    public). Generals in the pile are never listed (even their owner
    does not know the pile's order)."""
    deploying = state.phase == "deploy"
    board_: list[GeneralStatus] = []
    reserve: list[GeneralStatus] = []
    dead: list[GeneralStatus] = []
    total = 0
    for c in state.armies[s].cards:
        t = types[c.type]
        if t.kind != "general":
            continue
        total += 1
        loc = c.loc
        if loc >= 0:
            if on_board_shown:
                code = _abs_code(state, loc)
                board_.append(
                    GeneralStatus(c.uid, c.type, t.name, "board", loc, code, not deploying)
                )
        elif loc == GONE:
            dead.append(GeneralStatus(c.uid, c.type, t.name, "dead", -1, "", True))
        elif loc == RESERVE and (own or c.known):
            uid = c.uid if own else ""
            reserve.append(GeneralStatus(uid, c.type, t.name, "reserve", -1, "", c.known))
    board_.sort(key=lambda g: g.position)
    order = catalog().order
    reserve.sort(key=lambda g: (order.get(g.type, 10_000), g.type, g.uid))
    return (*board_, *reserve, *dead), total


def _public_mover(state: State, seat: Seat | None) -> str:
    """The card that moved last, if ``seat`` may know which (its owner, or
    everybody when it is face up)."""
    if state.mover < 0 or state.phase != "movement":
        return ""
    c = state.armies[state.active].cards[state.mover]
    return c.uid if seat == state.active or c.up else ""
