"""The board: squares, the playable area, exits and rotations, road
connectivity, and where a terrain card may be placed (ruling 2.9).

Squares are ``a1``..``g7``: the letter is the column (left→right), the number
the row (top→bottom). Exits: N=1 E=2 S=4 W=8.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from ...core import Seat
from .data import board, exits_of
from .model import State, Tile

N, E, S, W = 1, 2, 4, 8
DIRS: tuple[tuple[int, int, int], ...] = ((N, 0, -1), (E, 1, 0), (S, 0, 1), (W, -1, 0))
OPPOSITE = {N: S, E: W, S: N, W: E}
COLS = "abcdefg"


def square(x: int, y: int) -> str:
    return f"{COLS[x]}{y + 1}"


def xy(sq: str) -> tuple[int, int]:
    return COLS.index(sq[0]), int(sq[1:]) - 1


@cache
def area(seats: int) -> tuple[str, ...]:
    """The playable squares for a seat count, row by row."""
    first, _, last = board(seats).area.partition(":")
    (x0, y0), (x1, y1) = xy(first), xy(last)
    return tuple(square(x, y) for y in range(y0, y1 + 1) for x in range(x0, x1 + 1))


@cache
def area_set(seats: int) -> frozenset[str]:
    return frozenset(area(seats))


@cache
def neighbours(sq: str) -> tuple[tuple[int, str], ...]:
    """(direction, square) of the board squares next to ``sq``."""
    x, y = xy(sq)
    out = []
    for d, dx, dy in DIRS:
        nx, ny = x + dx, y + dy
        if 0 <= nx < 7 and 0 <= ny < 7:
            out.append((d, square(nx, ny)))
    return tuple(out)


def tile_exits(tile: Tile) -> int:
    return _EXITS[tile.layout][tile.rotation % 4]


_EXITS = {lay: tuple(exits_of(lay, r) for r in range(4)) for lay in "DILTX"}


class _Index:
    """What one tuple of tiles says about the board, worked out once and
    shared by every state holding that tuple (states share unchanged fields):
    the tile by square, each tiled square's exits, and, lazily, its road
    neighbours and each free square's exit constraints."""

    __slots__ = ("by_square", "exits", "needs", "roads", "tiles")

    def __init__(self, tiles: tuple[Tile, ...]) -> None:
        self.tiles = tiles
        self.by_square = {t.square: t for t in tiles}
        self.exits = {t.square: _EXITS[t.layout][t.rotation % 4] for t in tiles}
        self.roads: dict[str, tuple[str, ...]] = {}
        self.needs: dict[tuple[int, str], tuple[int, int]] = {}

    def road_neighbours(self, sq: str) -> tuple[str, ...]:
        hit = self.roads.get(sq)
        if hit is not None:
            return hit
        exits = self.exits
        mask = exits.get(sq)
        out: list[str] = []
        if mask is not None:
            for d, other in neighbours(sq):
                if mask & d:
                    there = exits.get(other)
                    if there is not None and there & OPPOSITE[d]:
                        out.append(other)
        result = self.roads[sq] = tuple(out)
        return result

    def need(self, seats: int, sq: str) -> tuple[int, int]:
        """``(must, forbid)``: the exits a card on ``sq`` must have (towards
        neighbours with an exit towards it) and must not have (towards cards
        without one, squares off the area, the board's edge)."""
        key = (seats, sq)
        hit = self.needs.get(key)
        if hit is not None:
            return hit
        inside = area_set(seats)
        exits = self.exits
        must = forbid = 0
        for d, other in neighbours(sq):
            if other not in inside:
                forbid |= d
                continue
            there = exits.get(other)
            if there is not None:
                if there & OPPOSITE[d]:
                    must |= d
                else:
                    forbid |= d
        forbid |= _EDGES[sq]
        self.needs[key] = (must, forbid)
        return must, forbid


@cache
def _edges(sq: str) -> int:
    x, y = xy(sq)
    return (N if y == 0 else 0) | (S if y == 6 else 0) | (W if x == 0 else 0) | (E if x == 6 else 0)


_EDGES = {square(x, y): _edges(square(x, y)) for x in range(7) for y in range(7)}


def _index(tiles: tuple[Tile, ...]) -> _Index:
    hit = _INDEXES.get(id(tiles))
    if hit is not None and hit.tiles is tiles:
        return hit
    if len(_INDEXES) > 256:
        _INDEXES.clear()
    index = _INDEXES[id(tiles)] = _Index(tiles)
    return index


_INDEXES: dict[int, _Index] = {}


def tiles_by_square(state: State) -> dict[str, Tile]:
    return _index(state.tiles).by_square


def tile_at(state: State, sq: str) -> Tile | None:
    return _index(state.tiles).by_square.get(sq)


def road_neighbours(state: State, sq: str) -> list[str]:
    """The squares a piece on ``sq`` can step to: both cards have facing exits."""
    return list(_index(state.tiles).road_neighbours(sq))


def road_map(state: State) -> Callable[[str], tuple[str, ...]]:
    """:func:`road_neighbours` for the state's board, as shared tuples."""
    return _index(state.tiles).road_neighbours


def connected(state: State, a: str, b: str) -> bool:
    return b in road_neighbours(state, a)


def put_tile(state: State, tile: Tile) -> tuple[Tile, ...]:
    """The tiles with ``tile`` set on its square (kept sorted)."""
    rest = [t for t in state.tiles if t.square != tile.square]
    return tuple(sorted([*rest, tile], key=lambda t: t.square))


def own_squares(state: State, seat: Seat) -> set[str]:
    """Squares of the seat's cities and heroes (the hired Buff included)."""
    out = {t.square for t in state.tiles if t.owner == seat}
    out |= {h.square for h in state.heroes if h.seat == seat}
    if state.buff.owner == seat and state.buff.square is not None:
        out.add(state.buff.square)
    return out


def network(state: State, seat: Seat) -> set[str]:
    """Squares road-connected to the seat's cities or heroes."""
    roads = _index(state.tiles).road_neighbours
    seen = own_squares(state, seat)
    todo = list(seen)
    while todo:
        sq = todo.pop()
        for nxt in roads(sq):
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


@cache
def distinct_rotations(layout: str) -> tuple[int, ...]:
    """The rotations giving distinct exits (the lowest of each)."""
    seen: dict[int, int] = {}
    for r in range(4):
        seen.setdefault(exits_of(layout, r), r)
    return tuple(sorted(seen.values()))


def fits(state: State, sq: str, mask: int) -> bool:
    """Exits match every existing neighbour and none points off the area."""
    must, forbid = _index(state.tiles).need(state.seats, sq)
    return not mask & forbid and mask & must == must


class _Spots:
    """Where a seat may place cards, for one board (tiles), pieces (heroes,
    Buff) and placement rule: the free squares next to its anchors, and the
    spots per layout (filled as asked)."""

    __slots__ = ("by_layout", "frontier", "keep")

    def __init__(self, keep: tuple[object, ...], frontier: tuple[str, ...]) -> None:
        self.keep = keep
        self.frontier = frontier
        self.by_layout: dict[str, tuple[tuple[str, int], ...]] = {}


def _spots_of(state: State, seat: Seat) -> _Spots:
    tiles, heroes = state.tiles, state.heroes
    buff = state.buff
    mode = state.rules.placement
    hired = buff.square if buff.owner == seat else None  # see own_squares
    key = (id(tiles), id(heroes), mode, hired, seat, state.seats)
    hit = _SPOTS.get(key)
    if hit is not None and hit.keep[0] is tiles and hit.keep[1] is heroes:
        return hit
    index = _index(tiles)
    by_square = index.by_square
    anchors = network(state, seat) if mode != "adjacent" else set(by_square)
    exit_needed = mode == "network_exit"
    # the free squares of the area orthogonally next to an anchor card (ruling
    # 2.9: a square road-connected to the seat's pieces); with placement
    # network_exit that card must also have an exit towards it; area order
    inside = area_set(state.seats)
    exits = index.exits
    near: set[str] = set()
    for anchor in anchors:
        mask = exits.get(anchor)
        if mask is None:
            continue
        for d, other in neighbours(anchor):
            if other in inside and other not in by_square and (not exit_needed or mask & d):
                near.add(other)
    frontier = tuple(sq for sq in area(state.seats) if sq in near)
    if len(_SPOTS) > 4096:
        _SPOTS.clear()
    spots = _SPOTS[key] = _Spots((tiles, heroes), frontier)
    return spots


_SPOTS: dict[tuple[object, ...], _Spots] = {}


def legal_spots(state: State, seat: Seat, layout: str) -> list[tuple[str, int]]:
    """Where the seat may place a card of this layout: (square, rotation),
    rotations deduplicated by their exits (see :func:`distinct_rotations`).
    Memoised on what it depends on (the tiles, the pieces, the rules)."""
    return list(spots_for(state, seat, layout))


def spots_for(state: State, seat: Seat, layout: str) -> tuple[tuple[str, int], ...]:
    """:func:`legal_spots` as a shared tuple."""
    spots = _spots_of(state, seat)
    hit = spots.by_layout.get(layout)
    if hit is not None:
        return hit
    index = _index(state.tiles)
    seats = state.seats
    masks = [(r, exits_of(layout, r)) for r in distinct_rotations(layout)]
    out = []
    for sq in spots.frontier:
        must, forbid = index.need(seats, sq)
        for r, mask in masks:
            if not mask & forbid and mask & must == must:
                out.append((sq, r))
    result = spots.by_layout[layout] = tuple(out)
    return result


def canonical_rotation(layout: str, rotation: int) -> int:
    """The lowest rotation with the same exits (``place b1 3`` on a straight
    road is ``place b1 1``)."""
    mask = exits_of(layout, rotation % 4)
    return next(r for r in distinct_rotations(layout) if exits_of(layout, r) == mask)


def spot_refusal(state: State, seat: Seat, layout: str, sq: str, rotation: int) -> str | None:
    """Why a card may not go on ``sq`` with ``rotation`` (a refusal key's tail:
    ``place-off-area``, ``place-network``, ``place-exits``; ``spot`` for a
    square already holding a card), or None."""
    index = _index(state.tiles)
    if sq not in area_set(state.seats):
        return "place-off-area"
    if sq in index.by_square:
        return "spot"
    if (sq, canonical_rotation(layout, rotation)) in spots_for(state, seat, layout):
        return None
    if sq not in _spots_of(state, seat).frontier:
        return "place-network"
    return "place-exits"


def is_full(state: State) -> bool:
    return len(state.tiles) >= len(area(state.seats))
