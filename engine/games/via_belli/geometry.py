"""The grid: cells and their names, card rectangles, the table layout, cups,
and the bit-mask geometry of placements."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Literal

from ... import rng
from ...errors import BadOptions
from ...text import Msg

CELL_MM = 22
"""The side of a grid cell, in millimetres."""


SHORT, LONG = 3, 4
"""A card is 3x4 cells standing (portrait) and 4x3 lying (landscape)."""


Cell = tuple[int, int]


MIN_SIDE, MAX_SIDE = 16, 120


@dataclass(frozen=True, slots=True)
class Rect:
    x: int
    y: int
    w: int
    h: int

    def overlaps(self, o: Rect) -> bool:
        return (
            self.x < o.x + o.w
            and o.x < self.x + self.w
            and self.y < o.y + o.h
            and o.y < self.y + self.h
        )

    def near(self, o: Rect, margin: int) -> bool:
        """Overlaps ``o`` grown by ``margin`` cells on every side."""
        return Rect(o.x - margin, o.y - margin, o.w + 2 * margin, o.h + 2 * margin).overlaps(self)

    def inside(self, width: int, height: int) -> bool:
        return (
            self.x >= 0 and self.y >= 0 and self.x + self.w <= width and self.y + self.h <= height
        )


def card_rect(x: int, y: int, landscape: bool) -> Rect:
    return Rect(x, y, LONG, SHORT) if landscape else Rect(x, y, SHORT, LONG)


@dataclass(frozen=True, slots=True)
class Layout:
    castles: tuple[tuple[int, int, bool], ...]  # (x, y, landscape) by seat
    slots: tuple[tuple[int, int, bool], ...]  # middle terrain, in order of use
    sides: tuple[str, ...]  # "W", "N", "E", "S" by seat


def _mirror_x(width: int, x: int, w: int) -> int:
    return width - w - x


def table_layout(width: int, height: int, seats: int, castle_gap: int, terrain_gap: int) -> Layout:
    """Castles by seat (clockwise round the table: W, N, E, S, starting west)
    and the slots for the middle terrain, mirror-symmetric (4 players on a
    square table: symmetric by quarter turns)."""
    if seats == 2:
        sides: tuple[str, ...] = ("W", "E")
    elif seats == 3:
        sides = ("W", "N", "E")
    else:
        sides = ("W", "N", "E", "S")
    # west and east castles stand (their long side faces the centre)
    gap_x = min(castle_gap, width - SHORT - 2)
    xw = max(1, (width - gap_x - SHORT) // 2)
    yw = (height - LONG) // 2
    west = (xw, yw, False)
    east = (_mirror_x(width, xw, SHORT), yw, False)
    # north and south castles lie
    gap_y = min(castle_gap, height - SHORT - 2)
    yn = max(1, (height - gap_y - SHORT) // 2)
    xn = (width - LONG) // 2
    north = (xn, yn, True)
    south = (width - LONG - xn, height - SHORT - yn, True)
    if seats == 4 and width == height:
        # quarter-turn symmetry: north is west turned a quarter clockwise, etc.
        north = (width - yw - LONG, xw, True)
        east = (width - xw - SHORT, width - yw - LONG, False)
        south = (yw, width - xw - SHORT, True)
    by_side = {"W": west, "E": east, "N": north, "S": south}
    castles = tuple(by_side[s] for s in sides)
    d = terrain_gap // 2
    q = max(d, castle_gap // 4)
    offsets: list[tuple[int, int]]
    if seats == 2:
        offsets = [
            (0, -d),
            (0, d),
            (-q, 0),
            (q, 0),
            (-q, -2 * d),
            (q, -2 * d),
            (-q, 2 * d),
            (q, 2 * d),
        ]
    else:
        offsets = [
            (-d, -d),
            (d, d),
            (d, -d),
            (-d, d),
            (-2 * d, 0),
            (2 * d, 0),
            (0, -2 * d),
            (0, 2 * d),
        ]
    slots = []
    for ox, oy in offsets:
        # centre offset -> top-left, computed on the left/top half and mirrored
        # so that mirror images are exact
        lx = (width - SHORT - 2 * abs(ox)) // 2
        x = lx if ox <= 0 else _mirror_x(width, lx, SHORT)
        ty = (height - LONG - 2 * abs(oy)) // 2
        y = ty if oy <= 0 else height - LONG - ty
        slots.append((x, y, False))
    return Layout(castles=castles, slots=tuple(slots), sides=sides)


_CELL_RE = re.compile(r"^([A-Z]{1,2})(\d{1,3})$")


@cache
def col_label(x: int) -> str:
    """0 -> A, 25 -> Z, 26 -> AA (spreadsheet columns)."""
    out = ""
    n = x + 1
    while n:
        n, r = divmod(n - 1, 26)
        out = chr(65 + r) + out
    return out


def col_index(label: str) -> int:
    n = 0
    for ch in label:
        n = n * 26 + (ord(ch) - 64)
    return n - 1


@cache
def cell_text(x: int, y: int) -> str:
    return f"{col_label(x)}{y + 1}"


@cache
def columns(width: int) -> tuple[str, ...]:
    return tuple(col_label(x) for x in range(width))


def parse_cell(text: str) -> Cell | None:
    m = _CELL_RE.match(text.strip().upper())
    if not m:
        return None
    row = int(m.group(2))
    if row < 1:
        return None
    return col_index(m.group(1)), row - 1


class Geo:
    """Footprint and contact masks of one table size (cached).

    Placements are also handled as *fields*: a mask with one bit per cell,
    bit ``y * width + x`` set when a card with its top-left cell there is a
    candidate (one field for standing cards, one for lying ones). Fields
    combine with ``&``, and their set bits in increasing order are the
    placements in reading order (top to bottom, left to right)."""

    __slots__ = (
        "_fp",
        "_ring",
        "_touch",
        "full",
        "height",
        "valid_lie",
        "valid_stand",
        "width",
    )

    def __init__(self, width: int, height: int) -> None:
        self.width = width
        self.height = height
        self._fp: dict[tuple[int, int, int, int], int] = {}
        self._ring: dict[tuple[int, int, int, int], int] = {}
        self._touch: dict[tuple[int, int, int, int], tuple[int, int]] = {}
        self.full = (1 << (width * height)) - 1
        stand_w, stand_h = SHORT, LONG
        lie_w, lie_h = LONG, SHORT
        self.valid_stand = self._corners(stand_w, stand_h)
        self.valid_lie = self._corners(lie_w, lie_h)

    def _corners(self, w: int, h: int) -> int:
        """The top-left cells of every w x h card inside the table."""
        W = self.width
        if w > W or h > self.height:
            return 0
        row = (1 << (W - w + 1)) - 1
        mask = 0
        for y in range(self.height - h + 1):
            mask |= row << (y * W)
        return mask

    def fits(self, occ: int) -> tuple[int, int]:
        """Fields of the standing and lying cards inside the table over no
        cell of ``occ``."""
        W = self.width
        free = self.full & ~occ
        h3 = free & (free >> 1) & (free >> 2)
        h4 = h3 & (free >> 3)
        stand = h3 & (h3 >> W) & (h3 >> 2 * W) & (h3 >> 3 * W) & self.valid_stand
        lie = h4 & (h4 >> W) & (h4 >> 2 * W) & self.valid_lie
        return stand, lie

    def meets(self, mask: int) -> tuple[int, int]:
        """Fields of the standing and lying cards (inside the table) covering
        at least one cell of ``mask``."""
        W = self.width
        h3 = mask | (mask >> 1) | (mask >> 2)
        h4 = h3 | (mask >> 3)
        v3 = h3 | (h3 >> W) | (h3 >> 2 * W)
        stand = (v3 | (h3 >> 3 * W)) & self.valid_stand
        lie = (h4 | (h4 >> W) | (h4 >> 2 * W)) & self.valid_lie
        return stand, lie

    def touch(self, x: int, y: int, w: int, h: int) -> tuple[int, int]:
        """Fields of the standing and lying cards inside the table sharing an
        edge of at least one cell with the w x h card at (x, y), without
        overlapping it (the footprints of :func:`around`)."""
        key = (x, y, w, h)
        hit = self._touch.get(key)
        if hit is None:
            W, H = self.width, self.height
            stand = lie = 0
            for dx, dy, fw, fh, landscape in around(w, h):
                px, py = x + dx, y + dy
                if px < 0 or py < 0 or px + fw > W or py + fh > H:
                    continue
                if landscape:
                    lie |= 1 << (py * W + px)
                else:
                    stand |= 1 << (py * W + px)
            hit = self._touch[key] = (stand, lie)
        return hit

    def placements(self, stand: int, lie: int) -> list[tuple[int, int, bool]]:
        """The placements (x, y, landscape) of two fields in reading order, a
        standing card before a lying one at the same cell."""
        W = self.width
        out: list[tuple[int, int, bool]] = []
        both = stand | lie
        while both:
            low = both & -both
            y, x = divmod(low.bit_length() - 1, W)
            if stand & low:
                out.append((x, y, False))
            if lie & low:
                out.append((x, y, True))
            both ^= low
        return out

    def fp(self, x: int, y: int, w: int, h: int) -> int:
        """The cells of a w x h rectangle at (x, y) (assumed inside)."""
        key = (x, y, w, h)
        mask = self._fp.get(key)
        if mask is None:
            row = (1 << w) - 1
            W = self.width
            mask = 0
            for r in range(h):
                mask |= row << ((y + r) * W + x)
            self._fp[key] = mask
        return mask

    def ring(self, x: int, y: int, w: int, h: int) -> int:
        """The cells sharing an edge with the rectangle, corners excluded: a
        free rectangle touches it iff it meets this ring."""
        key = (x, y, w, h)
        mask = self._ring.get(key)
        if mask is None:
            W, H = self.width, self.height
            row = (1 << w) - 1
            mask = 0
            if y > 0:
                mask |= row << ((y - 1) * W + x)
            if y + h < H:
                mask |= row << ((y + h) * W + x)
            for r in range(h):
                if x > 0:
                    mask |= 1 << ((y + r) * W + x - 1)
                if x + w < W:
                    mask |= 1 << ((y + r) * W + x + w)
            self._ring[key] = mask
        return mask


@cache
def geometry(width: int, height: int) -> Geo:
    return Geo(width, height)


@cache
def around(pw: int, ph: int) -> tuple[tuple[int, int, int, int, bool], ...]:
    """Offsets (dx, dy, w, h, landscape) of every card footprint that shares
    an edge of at least one cell with a pw x ph card at (0, 0)."""
    out = []
    for landscape in (False, True):
        w, h = (LONG, SHORT) if landscape else (SHORT, LONG)
        for dx in range(-w + 1, pw):
            out.append((dx, -h, w, h, landscape))
            out.append((dx, ph, w, h, landscape))
        for dy in range(-h + 1, ph):
            out.append((-w, dy, w, h, landscape))
            out.append((pw, dy, w, h, landscape))
    out.sort(key=lambda o: (o[1], o[0], o[4]))
    return tuple(out)


def _centred(width: int, size: int, offset: int) -> int:
    """Top-left coordinate of a ``size`` block centred ``offset`` cells from
    the middle of ``width``; mirror images of +/- offsets are exact."""
    left = (width - size - 2 * abs(offset)) // 2
    return left if offset <= 0 else width - size - left


def preset_cups(
    width: int, height: int, seats: int, castle_gap: int, terrain_gap: int, size: int
) -> list[tuple[int, int]]:
    """The recommended cup places, in order of use (symmetric pairs first)."""
    d = terrain_gap // 2
    q = max(d, castle_gap // 4)
    if seats == 4 and width == height:
        e = max(d + size, castle_gap // 3)
        offsets = [(-e, -e), (e, e), (e, -e), (-e, e)]
    elif seats == 2:
        offsets = [
            (-q, -d),
            (q, -d),
            (-q, d),
            (q, d),
            (-q, -2 * d),
            (q, -2 * d),
            (-q, 2 * d),
            (q, 2 * d),
        ]
    else:
        # the middle terrain lies on the diagonals: the cups go on the castles' axis
        offsets = [(-q, 0), (q, 0), (-q, -2 * d), (q, 2 * d), (q, -2 * d), (-q, 2 * d)]
    return [(_centred(width, size, ox), _centred(height, size, oy)) for ox, oy in offsets]


def random_cups(
    stream: rng.Stream,
    width: int,
    height: int,
    seats: int,
    count: int,
    size: int,
    taken: Sequence[Rect],
) -> list[tuple[int, int]]:
    """``count`` cups placed at random, symmetrically: mirrored across the
    line between the west and east castles (quarter turns for 4 players on a
    square table, both mirrors on other tables)."""
    W, H, s = width, height, size

    def orbit(x: int, y: int) -> list[tuple[int, int]]:
        if seats == 4 and W == H:
            pts = [(x, y), (W - s - y, x), (W - s - x, W - s - y), (y, W - s - x)]
        elif seats == 4:
            pts = [(x, y), (W - s - x, y), (x, H - s - y), (W - s - x, H - s - y)]
        else:
            pts = [(x, y), (W - s - x, y)]
        return list(dict.fromkeys(pts))

    placed: list[Rect] = []

    def fits(pts: list[tuple[int, int]]) -> bool:
        rects = [Rect(px, py, s, s) for px, py in pts]
        for i, r in enumerate(rects):
            if not r.inside(W, H):
                return False
            if any(r.overlaps(o) for o in rects[i + 1 :]):
                return False
            if any(r.near(t, 2) for t in taken) or any(r.overlaps(p) for p in placed):
                return False
        return True

    k = len(orbit(0, 0))
    full, rest = divmod(count, k)
    plans: list[Literal["full", "pair", "axis"]] = ["full"] * full
    if k == 4 and rest >= 2:
        plans.append("pair")
        rest -= 2
    plans += ["axis"] * rest
    for plan in plans:
        for _ in range(400):
            x, y = stream.below(W - s + 1), stream.below(H - s + 1)
            if plan == "full":
                pts = orbit(x, y)
                if len(pts) < k:
                    continue
            elif plan == "pair":
                pts = [(x, y), (W - s - x, H - s - y)]
            elif k == 2:
                pts = [((W - s) // 2, y)]
            else:
                pts = [((W - s) // 2, (H - s) // 2)]
            if fits(pts):
                placed += [Rect(px, py, s, s) for px, py in pts]
                break
        else:
            raise BadOptions(Msg.of("vb-refuse-cups-symmetry", count=count), cups=count)
    return [(r.x, r.y) for r in placed]


def _touch(a: Rect, b: Rect) -> bool:
    """Two cards that do not overlap share an edge of at least one cell."""
    if a.x < b.x + b.w and b.x < a.x + a.w:
        return a.y + a.h == b.y or b.y + b.h == a.y
    if a.y < b.y + b.h and b.y < a.y + a.h:
        return a.x + a.w == b.x or b.x + b.w == a.x
    return False
