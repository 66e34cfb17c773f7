"""The board: squares, the playable area, exits and rotations, road
connectivity, and where a terrain card may be placed (ruling 2.9).

Squares are ``a1``..``g7``: the letter is the column (left→right), the number
the row (top→bottom). Exits: N=1 E=2 S=4 W=8.
"""

from __future__ import annotations

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


def tiles_by_square(state: State) -> dict[str, Tile]:
    return _tile_map(state.tiles)


def _tile_map(tiles: tuple[Tile, ...]) -> dict[str, Tile]:
    if len(_MAPS) > 256:
        _MAPS.clear()
    key = id(tiles)
    hit = _MAPS.get(key)
    if hit is not None and hit[0] is tiles:
        return hit[1]
    result = {t.square: t for t in tiles}
    _MAPS[key] = (tiles, result)
    return result


_MAPS: dict[int, tuple[tuple[Tile, ...], dict[str, Tile]]] = {}


def tile_at(state: State, sq: str) -> Tile | None:
    return _tile_map(state.tiles).get(sq)


def road_neighbours(state: State, sq: str) -> list[str]:
    """The squares a piece on ``sq`` can step to: both cards have facing exits."""
    tiles = _tile_map(state.tiles)
    here = tiles.get(sq)
    if here is None:
        return []
    mask = tile_exits(here)
    out = []
    for d, other in neighbours(sq):
        if mask & d:
            there = tiles.get(other)
            if there is not None and tile_exits(there) & OPPOSITE[d]:
                out.append(other)
    return out


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
    seen = own_squares(state, seat)
    todo = list(seen)
    while todo:
        sq = todo.pop()
        for nxt in road_neighbours(state, sq):
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
    inside = area_set(state.seats)
    tiles = _tile_map(state.tiles)
    for d, other in neighbours(sq):
        there = tiles.get(other)
        if other not in inside:
            if mask & d:
                return False
            continue
        if there is not None and bool(tile_exits(there) & OPPOSITE[d]) != bool(mask & d):
            return False
    x, y = xy(sq)
    # an exit towards the board's edge points off the area
    return not (
        (y == 0 and mask & N)
        or (y == 6 and mask & S)
        or (x == 0 and mask & W)
        or (x == 6 and mask & E)
    )


def legal_spots(state: State, seat: Seat, layout: str) -> list[tuple[str, int]]:
    """Where the seat may place a card of this layout: (square, rotation),
    rotations deduplicated by their exits (see :func:`distinct_rotations`).
    Memoised on what it depends on (the tiles, the pieces, the rules)."""
    keep = (state.tiles, state.heroes, state.rules)
    key = (id(state.tiles), id(state.heroes), id(state.rules), state.buff.square, state.buff.owner)
    key2 = (*key, seat, layout)
    hit = _SPOTS.get(key2)
    if hit is not None and all(a is b for a, b in zip(hit[0], keep, strict=True)):
        return list(hit[1])
    result = _legal_spots(state, seat, layout)
    if len(_SPOTS) > 4096:
        _SPOTS.clear()
    _SPOTS[key2] = (keep, tuple(result))
    return result


_SPOTS: dict[tuple[object, ...], tuple[tuple[object, ...], tuple[tuple[str, int], ...]]] = {}


def _legal_spots(state: State, seat: Seat, layout: str) -> list[tuple[str, int]]:
    tiles = _tile_map(state.tiles)
    mode = state.rules.placement
    anchors = network(state, seat) if mode != "adjacent" else set(tiles)
    out = []
    for sq in area(state.seats):
        if sq in tiles or not _anchored(tiles, anchors, sq, exit_needed=mode == "network_exit"):
            continue
        for r in distinct_rotations(layout):
            mask = exits_of(layout, r)
            if fits(state, sq, mask):
                out.append((sq, r))
    return out


def _anchored(tiles: dict[str, Tile], anchors: set[str], sq: str, *, exit_needed: bool) -> bool:
    """``sq`` is next to an anchor card (ruling 2.9: orthogonally adjacent to a
    square road-connected to the seat's pieces); with ``exit_needed`` (option
    ``placement=network_exit``) that card must also have an exit towards it."""
    for d, other in neighbours(sq):
        if (
            other in anchors
            and other in tiles
            and (not exit_needed or tile_exits(tiles[other]) & OPPOSITE[d])
        ):
            return True
    return False


def canonical_rotation(layout: str, rotation: int) -> int:
    """The lowest rotation with the same exits (``place b1 3`` on a straight
    road is ``place b1 1``)."""
    mask = exits_of(layout, rotation % 4)
    return next(r for r in distinct_rotations(layout) if exits_of(layout, r) == mask)


def spot_refusal(state: State, seat: Seat, layout: str, sq: str, rotation: int) -> str | None:
    """Why a card may not go on ``sq`` with ``rotation`` (a refusal key's tail:
    ``place-off-area``, ``place-network``, ``place-exits``; ``spot`` for a
    square already holding a card), or None."""
    tiles = _tile_map(state.tiles)
    if sq not in area_set(state.seats):
        return "place-off-area"
    if sq in tiles:
        return "spot"
    if (sq, canonical_rotation(layout, rotation)) in legal_spots(state, seat, layout):
        return None
    mode = state.rules.placement
    anchors = network(state, seat) if mode != "adjacent" else set(tiles)
    if not _anchored(tiles, anchors, sq, exit_needed=mode == "network_exit"):
        return "place-network"
    return "place-exits"


def is_full(state: State) -> bool:
    return len(state.tiles) >= len(area(state.seats))
