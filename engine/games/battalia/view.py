"""What a seat (or a spectator) sees: the board, the heroes, Buff, the
Oracle, every player's public counts, the market, the observer's own cards,
the battle and the auction (bids hidden until all have bid)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ...core import Seat
from .board import area, tile_exits
from .data import board
from .market import stack
from .model import (
    AuctionView,
    BattleView,
    BuffView,
    HeroView,
    MarketView,
    PlayerView,
    State,
    Tile,
    TileView,
    View,
)
from .oracle import day_of_week, illuminated_type, matching_type, week
from .turns import score

# a face-down Great Artefact in MarketView.great_artefacts (2.4 [S], option
# great_face_down): the views tell only how many lie beside the board
FACE_DOWN = "G0"


def _marker(state: State, seat: Seat) -> tuple[str, int] | None:
    b = state.buff
    if b.owner == seat and b.hire_until is not None:
        return ("hire", b.hire_until)
    for s, until in b.bribes:
        if s == seat:
            return ("bribe", until)
    return None


def _players(state: State) -> tuple[PlayerView, ...]:
    out = []
    for p in state.players:
        vp, level4, cities = score(state, p.seat)
        on_board = sum(1 for h in state.heroes if h.seat == p.seat)
        out.append(
            PlayerView(
                seat=p.seat,
                faction=p.faction,
                vp=vp,
                cities=cities,
                level4=level4,
                hand_count=len(p.hand),
                deck_count=len(p.deck),
                discard_count=len(p.discard) + len(p.played),
                heroes_in_supply=2 - on_board,
                tent_count=len(p.tent),
                marker=_marker(state, p.seat),
                start=p.start,
                resigned=p.resigned,
            )
        )
    return tuple(out)


def _market(state: State) -> MarketView:
    kind = matching_type(state.day)
    merc = stack(state, "m")
    return MarketView(
        stacks=tuple((k, len(v)) for k, v in state.market),
        matching_factions=tuple(sorted({c[1] for c in stack(state, kind)}, key="uian".index)),
        roads=tuple((k, len(v)) for k, v in state.roads),
        cities=tuple((k, len(v)) for k, v in state.cities),
        provisions=state.provisions,
        great_artefacts=(
            (FACE_DOWN,) * len(state.great) if state.rules.great_face_down else state.great
        ),
        ambush=len(state.ambush),
        mercenary_top=merc[-1] if merc else None,
    )


def _battle(state: State) -> BattleView | None:
    b = state.battle
    if b is None:
        return None
    return BattleView(
        attacker=b.attacker,
        piece=b.piece,
        target=b.target,
        square=b.square,
        attacker_line=b.attacker_line,
        defender_line=b.defender_line,
        attacker_break=b.attacker_break,
        defender_break=b.defender_break,
        attacker_total=b.attacker_break.total if b.attacker_break else 0,
        defender_total=b.defender_break.total if b.defender_break else None,
        result=b.result,
        target_kind=b.target_kind,
        defender=b.defender,
    )


def _auction(state: State, seat: Seat | None) -> AuctionView | None:
    a = state.auction
    if a is None:
        return None
    bids: tuple[tuple[Seat, tuple[str, ...], int], ...] = ()
    if a.revealed:
        bids = tuple((s, cards, sum(_bid_value(state, c) for c in cards)) for s, cards in a.bids)
    own = next((cards for s, cards in a.bids if s == seat), None)
    return AuctionView(bidders=a.bidders, bids=bids, winner=a.winner, own_bid=own)


def _bid_value(state: State, code: str) -> int:
    from .buff import bid_strength

    return bid_strength(state, code)


_TILE_VIEWS: dict[int, tuple[tuple[Tile, ...], tuple[TileView, ...]]] = {}


def _tile_views(tiles: tuple[Tile, ...]) -> tuple[TileView, ...]:
    """The tiles' views, memoised on the (immutable) tiles tuple."""
    hit = _TILE_VIEWS.get(id(tiles))
    if hit is not None and hit[0] is tiles:
        return hit[1]
    out = tuple(
        TileView(t.square, t.kind, t.layout, t.rotation, tile_exits(t), t.terrain, t.level, t.owner)
        for t in tiles
    )
    if len(_TILE_VIEWS) > 512:
        _TILE_VIEWS.clear()
    _TILE_VIEWS[id(tiles)] = (tiles, out)
    return out


def make_view(
    state: State,
    seat: Seat | None,
    pending: Sequence[tuple[Seat, str]],
    choices: Callable[[], tuple[str, ...]],
) -> View:
    me = state.players[seat] if seat is not None else None
    winner = None
    if state.ranking and len(state.ranking[0]) == 1:
        winner = state.ranking[0][0]
    b = state.buff
    return View(
        observer=seat,
        seats=state.seats,
        factions=tuple(p.faction for p in state.players),
        phase=state.phase,
        active=state.active,
        day=state.day,
        week=week(state.day),
        day_of_week=day_of_week(state.day),
        illuminated=illuminated_type(state.day),
        matching=matching_type(state.day),
        area=area(state.seats),
        starts=tuple(sq for sq, _, _ in board(state.seats).starts[: state.seats]),
        tiles=_tile_views(state.tiles),
        heroes=tuple(HeroView(h.seat, h.index, h.square) for h in state.heroes)
        + ((HeroView(b.owner, 0, b.square),) if b.owner is not None and b.square else ()),
        buff=BuffView(b.square, b.horde, b.owner, b.hire_until, b.bribes, b.absent, b.entered),
        players=_players(state),
        market=_market(state),
        hand=tuple(sorted(me.hand)) if me else (),
        tent=tuple(sorted(me.tent)) if me else (),
        deck_contents=tuple(sorted(me.deck)) if me else (),
        battle=_battle(state),
        auction=_auction(state, seat),
        roll=b.roll,
        placing=state.placing,
        pending=tuple(pending),
        winner=winner,
        ranking=state.ranking,
        end_reason=state.end_reason,
        rules=state.rules,
        discard=tuple(sorted(me.discard)) if me else (),
        played=tuple(sorted(me.played)) if me else (),
        first_action=state.first_action,
        turn=state.turn,
        state_buff=state.buff,
        order=state.order,
        great_hidden_count=len(state.great_hidden),
        neutral=tuple(sq for sq, _, _ in board(state.seats).neutral),
        ruins=board(state.seats).ruins[0],
        gone=state.gone,
        choices=choices() if seat is not None and any(s == seat for s, _ in pending) else (),
    )
