"""What can move where (V7, V8) and what can be recalled."""

from __future__ import annotations

from ...core import Seat
from .board import K_TERRAIN, K_UNIT, Board, board_of
from .geometry import LONG
from .model import State


def _move_need(state: State, b: Board, seat: Seat, ci: int) -> tuple[int, int, list[int]] | None:
    """``_move_need_of``, memoised per board."""
    key = ("need", ci)
    if key in b.memo:
        return b.memo[key]  # type: ignore[return-value]
    need = _move_need_of(state, b, seat, ci)
    b.memo[key] = need
    return need


def _move_need_of(state: State, b: Board, seat: Seat, ci: int) -> tuple[int, int, list[int]] | None:
    """What a destination of card ``ci`` must touch to keep supply (V7):
    (occupied cells without the card, ring of the rest of the network,
    one ring per group of cards only ``ci`` links). None: cannot move."""
    rules = state.rules
    if not rules.engaged_may_move and any(b.is_enemy(nb, seat) for nb in b.adj[ci]):
        return None
    occ = b.occ & ~b.fps[ci]
    if b.exempt(ci):
        return occ, -1, []
    if ci not in b.side(seat).supplied:
        return occ, -1, []
    if rules.self_cut or not b.may_be_critical(seat, ci) or ci not in b.critical(seat):
        return occ, b.ring_without(seat, ci), []
    side = b.side(seat)
    reached = b.reached_without(seat, ci)
    rings = b.rings()
    need = 0
    for c in reached:
        need |= rings[c]
    groups: list[int] = []
    left = (side.supplied & side.relays) - reached
    left.discard(ci)
    adj = b.adj
    while left:
        start = left.pop()
        ring = rings[start]
        frontier = [start]
        while frontier:
            nxt = []
            for c in frontier:
                for nb in adj[c]:
                    if nb in left:
                        left.discard(nb)
                        ring |= rings[nb]
                        nxt.append(nb)
            frontier = nxt
        groups.append(ring)
    return occ, need, groups


def _pivot_pool(state: State, b: Board, seat: Seat, ci: int) -> list[int]:
    pivots = list(b.adj[ci])
    if state.rules.move_pivot == "friendly":
        pivots = [p for p in pivots if b.owner[p] == seat and b.kind[p] != K_TERRAIN]
    return sorted(pivots, key=lambda c: (b.Y[c], b.X[c]))


def _dest_fields(
    state: State, b: Board, ci: int, pivot: int, need: tuple[int, int, list[int]]
) -> tuple[int, int]:
    """The fields (see :class:`Geo`) of card ``ci``'s destinations along ``pivot``."""
    ring, groups = need[1], need[2]
    full_s, full_l, base_s, base_l = _move_field(state, b, ci, need)
    if ring != -1 and not groups and pivot != ci and pivot in b.side(b.owner[ci]).member_set:
        full_s, full_l = base_s, base_l  # touching the pivot is touching the network
    ts, tl = b.geo.touch(b.X[pivot], b.Y[pivot], b.Wd[pivot], b.Ht[pivot])
    if state.rules.move_path == "slide":
        rs, rl = _slide_reach(b, ci, need[0], ts, tl)
        return full_s & ts & rs, full_l & tl & rl
    return full_s & ts, full_l & tl


def _slide_reach(b: Board, ci: int, occ: int, ts: int, tl: int) -> tuple[int, int]:
    """Option ``move_path=slide`` (V8): the places card ``ci`` reaches from
    its own by steps of one cell (diagonals too, to turn a corner), or by a
    quarter turn about its middle, through free places that all touch the
    pivot (fields ``ts``/``tl``)."""
    W = b.W
    fs, fl = b.geo.fits(occ)
    cs, cl = fs & ts, fl & tl
    here = 1 << (b.Y[ci] * W + b.X[ci])
    rs, rl = (0, here) if b.Wd[ci] == LONG else (here, 0)
    steps = (1, W - 1, W, W + 1)  # the eight neighbouring cells, both ways

    def spread(m: int) -> int:
        out = m
        for k in steps:
            out |= m << k | m >> k
        return out

    while True:
        # a quarter turn: standing at (x, y) <-> lying at (x-1..x, y..y+1)
        ns = spread(rs) | rl | rl << 1 | rl >> W | rl >> (W - 1)
        nl = spread(rl) | rs | rs >> 1 | rs << W | rs << (W - 1)
        ns, nl = ns & cs, nl & cl
        if ns == rs and nl == rl:
            return rs, rl
        rs, rl = ns, nl


def _has_dest(
    state: State, b: Board, ci: int, pivot: int, need: tuple[int, int, list[int]]
) -> bool:
    stand, lie = _dest_fields(state, b, ci, pivot, need)
    return bool(stand or lie)


def _move_field(
    state: State, b: Board, ci: int, need: tuple[int, int, list[int]]
) -> tuple[int, int, int, int]:
    """The fields (see :class:`Geo`) of the places card ``ci`` may move
    to along any pivot: with the ring of its network to touch, then
    without it (memoised per board)."""
    key = ("move-field", ci)
    hit = b.memo.get(key)
    if hit is not None:
        return hit  # type: ignore[return-value]
    geo = b.geo
    occ, ring, groups = need
    stand, lie = geo.fits(occ)
    here = ~(1 << (b.Y[ci] * b.W + b.X[ci]))
    if b.Wd[ci] == LONG:
        lie &= here
    else:
        stand &= here
    if not state.rules.rotate_in_place:
        os_, ol = geo.meets(b.fps[ci])
        stand, lie = stand & ~os_, lie & ~ol
    for g in groups:
        gs, gl = geo.meets(g)
        stand, lie = stand & gs, lie & gl
    full_s, full_l = stand, lie
    if ring != -1:
        rs, rl = geo.meets(ring)
        full_s, full_l = stand & rs, lie & rl
    out = b.memo[key] = (full_s, full_l, stand, lie)
    return out


def _movers(state: State, seat: Seat, first_only: bool = False) -> list[int]:
    """The seat's cards that have somewhere to go (memoised per board)."""
    b = board_of(state)
    key = ("movers", seat)
    hit = b.memo.get(key)
    if hit is not None:
        return hit  # type: ignore[return-value]
    if first_only:
        key1 = ("any-mover", seat)
        any_hit = b.memo.get(key1)
        if any_hit is None:
            # whether any card can move: the cheap ones to ask first (the
            # latest placed, and before them those no other card is linked
            # through, whose moves need no search for cut points)
            own = [b.unit_ci[ui] for ui in range(len(state.units) - 1, -1, -1)]
            own = [ci for ci in own if b.owner[ci] == seat]
            leaves: list[int] = []
            inner: list[int] = []
            for ci in own:
                (inner if b.may_be_critical(seat, ci) else leaves).append(ci)
            any_hit = next(([ci] for ci in leaves + inner if _can_move(state, b, seat, ci)), [])
            b.memo[key1] = any_hit
        return any_hit  # type: ignore[return-value]
    out = []
    for ui, u in enumerate(state.units):
        if u.owner != seat:
            continue
        ci = b.unit_ci[ui]
        if _pivots(state, seat, ci):
            out.append(ci)
    out.sort(key=lambda c: (b.X[c], b.Y[c]))
    b.memo[key] = out
    return out


def _can_move(state: State, b: Board, seat: Seat, ci: int) -> bool:
    need = _move_need(state, b, seat, ci)
    if need is None:
        return False
    return any(_has_dest(state, b, ci, p, need) for p in _pivot_pool(state, b, seat, ci))


def _pivots(state: State, seat: Seat, ci: int) -> list[int]:
    b = board_of(state)
    if ci < 0 or b.kind[ci] != K_UNIT or b.owner[ci] != seat:
        return []
    key = ("pivots", ci)
    hit = b.memo.get(key)
    if hit is not None:
        return hit  # type: ignore[return-value]
    need = _move_need(state, b, seat, ci)
    out = []
    if need is not None:
        out = [p for p in _pivot_pool(state, b, seat, ci) if _has_dest(state, b, ci, p, need)]
    b.memo[key] = out
    return out


def _destinations(state: State, seat: Seat, ci: int, pivot: int) -> list[tuple[int, int, bool]]:
    b = board_of(state)
    if ci < 0 or pivot < 0 or pivot not in _pivots(state, seat, ci):
        return []
    key = ("dest", ci, pivot)
    hit = b.memo.get(key)
    if hit is None:
        need = _move_need(state, b, seat, ci)
        assert need is not None
        hit = b.geo.placements(*_dest_fields(state, b, ci, pivot, need))
        b.memo[key] = hit
    return hit  # type: ignore[return-value]


def _recallables(state: State, seat: Seat) -> list[int]:
    if state.pa < 1:
        return []
    b = board_of(state)
    key = ("recall", seat)
    hit = b.memo.get(key)
    if hit is not None:
        return hit  # type: ignore[return-value]
    rules = state.rules
    crit = set() if rules.self_cut else b.critical(seat)
    out = []
    for ui, u in enumerate(state.units):
        if u.owner != seat or not (u.face_up or rules.recall_face_down):
            continue
        ci = b.unit_ci[ui]
        if ci not in crit:
            out.append(ci)
    out.sort(key=lambda c: (b.X[c], b.Y[c]))
    b.memo[key] = out
    return out
