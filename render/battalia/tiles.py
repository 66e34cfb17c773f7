"""Battalia images: the drawn pieces (terrain squares, roads, cities, the
Ruins, heroes, Buff and his horde token, the artefact types' icons). Each
piece is an RGBA tile drawn large and downscaled (anti-aliased), cached by
its parameters: a board pastes the same few tiles again and again."""

from __future__ import annotations

import math
import random
from functools import lru_cache

from PIL import Image, ImageDraw

from ..common import RGB, darken, font, lighten, mix
from .style import (
    BUFF,
    BUFF_EDGE,
    EMPTY,
    HORDE,
    NEUTRAL,
    ROAD,
    ROAD_EDGE,
    TERRAINS,
    TYPE_COLOURS,
)

SS = 3  # supersampling of the drawn tiles

N, E, S, W = 1, 2, 4, 8
BASE_EXITS = {"D": N, "I": N | S, "L": N | E, "T": N | E | S, "X": N | E | S | W}


def rotate_exits(mask: int, rotation: int) -> int:
    """``mask`` turned ``rotation`` quarter turns clockwise (N -> E -> S -> W)."""
    r = rotation % 4
    return ((mask << r) | (mask >> (4 - r))) & 15


def layout_exits(layout: str, rotation: int) -> int:
    return rotate_exits(BASE_EXITS.get(layout, 0), rotation)


def _down(big: Image.Image, size: tuple[int, int]) -> Image.Image:
    return big.resize(size, Image.Resampling.LANCZOS)


# ---------------------------------------------------------------------------
# Terrain squares
# ---------------------------------------------------------------------------


@lru_cache(maxsize=32)
def terrain_tile(terrain: str | None, size: int) -> Image.Image:
    """A square of ``terrain`` (an RGB tile): a base colour and its motif
    (trees, waves, dunes, peaks, grass); ``None`` is an empty square."""
    if terrain not in TERRAINS:
        tile = Image.new("RGB", (size, size), EMPTY)
        d = ImageDraw.Draw(tile)
        dot = darken(EMPTY, 0.1)
        step = max(6, size // 8)
        for py in range(step // 2, size, step):
            for px in range(step // 2 + (py // step % 2) * step // 2, size, step):
                d.point((px, py), fill=dot)
        return tile
    base, detail = TERRAINS[terrain]
    n = size * SS
    big = Image.new("RGB", (n, n), base)
    d = ImageDraw.Draw(big)
    rng = random.Random(terrain)  # a fixed motif per terrain
    # a soft lighter corner, so that squares read as tiles
    d.rectangle((0, 0, n, n // 2), fill=mix(base, lighten(base, 0.2), 0.5))
    d.rectangle((0, n // 2, n, n), fill=base)
    big = big.resize((1, 2)).resize((n, n), Image.Resampling.BILINEAR)
    d = ImageDraw.Draw(big)
    spots = [(0.2, 0.22), (0.78, 0.2), (0.2, 0.78), (0.8, 0.8), (0.5, 0.5), (0.5, 0.12)]
    spots += [(0.12, 0.5), (0.88, 0.5), (0.5, 0.9), (0.35, 0.35), (0.65, 0.65), (0.66, 0.34)]
    if terrain == "foret":
        for fx, fy in spots:
            x, y = (fx + rng.uniform(-0.04, 0.04)) * n, (fy + rng.uniform(-0.04, 0.04)) * n
            r = n * rng.uniform(0.075, 0.095)
            d.rectangle((x - r * 0.18, y, x + r * 0.18, y + r * 1.2), fill=(92, 66, 40))
            d.ellipse((x - r, y - r * 1.1, x + r, y + r * 0.7), fill=detail)
            d.ellipse(
                (x - r * 0.6, y - r * 0.95, x + r * 0.2, y - r * 0.2), fill=lighten(detail, 0.25)
            )
    elif terrain == "lac":
        w = max(2, n // 40)
        for fx, fy in spots[:9]:
            x, y = fx * n, fy * n
            r = n * 0.07
            d.arc((x - r * 2, y - r, x, y + r), 200, 340, fill=detail, width=w)
            d.arc((x, y - r, x + r * 2, y + r), 200, 340, fill=detail, width=w)
    elif terrain == "desert":
        w = max(2, n // 36)
        for k in range(5):
            y = n * (0.12 + k * 0.2)
            x = n * (0.1 + (k % 2) * 0.35)
            d.arc((x, y, x + n * 0.5, y + n * 0.22), 195, 345, fill=detail, width=w)
        for fx, fy in spots[6:9]:
            d.ellipse(
                (fx * n - 3 * SS, fy * n - 3 * SS, fx * n + 3 * SS, fy * n + 3 * SS), fill=detail
            )
    elif terrain == "montagne":
        for fx, fy, s in (
            (0.26, 0.36, 0.22),
            (0.72, 0.3, 0.2),
            (0.3, 0.84, 0.2),
            (0.76, 0.82, 0.24),
        ):
            x, y, h = fx * n, fy * n, s * n
            d.polygon([(x - h, y + h * 0.5), (x, y - h * 0.7), (x + h, y + h * 0.5)], fill=detail)
            d.polygon(
                [(x, y - h * 0.7), (x + h, y + h * 0.5), (x + h * 0.3, y + h * 0.5)],
                fill=darken(detail, 0.2),
            )
            d.polygon(
                [
                    (x - h * 0.32, y - h * 0.22),
                    (x, y - h * 0.7),
                    (x + h * 0.32, y - h * 0.22),
                    (x, y - h * 0.3),
                ],
                fill=(246, 244, 240),
            )
    else:  # plaine
        w = max(2, n // 50)
        for fx, fy in spots:
            x, y = (fx + rng.uniform(-0.05, 0.05)) * n, (fy + rng.uniform(-0.05, 0.05)) * n
            h = n * 0.06
            d.line((x, y, x - h * 0.5, y - h), fill=detail, width=w)
            d.line((x, y, x, y - h * 1.2), fill=detail, width=w)
            d.line((x, y, x + h * 0.5, y - h), fill=detail, width=w)
        for fx, fy in spots[::3]:
            x, y = (fx + 0.08) * n, (fy + 0.06) * n
            d.ellipse((x - 2 * SS, y - 2 * SS, x + 2 * SS, y + 2 * SS), fill=(246, 236, 150))
    return _down(big, (size, size))


@lru_cache(maxsize=64)
def road_tile(exits: int, size: int, alpha: int = 255) -> Image.Image:
    """The roads of a square (RGBA): a band from the centre to each exit."""
    n = size * SS
    c = n / 2
    big = Image.new("RGBA", (n, n), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    ends = {N: (c, 0), E: (n, c), S: (c, n), W: (0, c)}
    outer, inner = round(n * 0.24), round(n * 0.17)
    for bit, end in ends.items():
        if exits & bit:
            d.line((c, c, *end), fill=(*ROAD_EDGE, alpha), width=outer)
    if exits:
        r = outer / 2
        d.ellipse((c - r, c - r, c + r, c + r), fill=(*ROAD_EDGE, alpha))
    for bit, end in ends.items():
        if exits & bit:
            d.line((c, c, *end), fill=(*ROAD, alpha), width=inner)
    if exits:
        r = inner / 2
        d.ellipse((c - r, c - r, c + r, c + r), fill=(*ROAD, alpha))
    # a dashed middle line, the cart track
    dash = (*mix(ROAD, ROAD_EDGE, 0.45), alpha)
    step = n // 14
    for bit, end in ends.items():
        if exits & bit:
            for k in range(1, 7, 2):
                t0, t1 = k / 7, (k + 0.8) / 7
                x0, y0 = c + (end[0] - c) * t0, c + (end[1] - c) * t0
                x1, y1 = c + (end[0] - c) * t1, c + (end[1] - c) * t1
                d.line((x0, y0, x1, y1), fill=dash, width=max(2, step // 3))
    return _down(big, (size, size))


# ---------------------------------------------------------------------------
# Cities and the Ruins
# ---------------------------------------------------------------------------


@lru_cache(maxsize=64)
def city_tile(colour: RGB, level: int, size: int) -> Image.Image:
    """A walled town in ``colour`` (RGBA, ``size`` wide): more towers for a
    higher level, and the level in a shield below."""
    n = size * SS
    big = Image.new("RGBA", (n, n), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    edge = (255, 255, 255, 255) if colour != NEUTRAL else (70, 60, 50, 255)
    fill = (*colour, 255)
    towers = max(1, min(4, level))
    base_y = n * 0.74
    wall_top = n * 0.46
    x0, x1 = n * 0.1, n * 0.9
    out = max(3, n // 28)

    def castle(dr: ImageDraw.ImageDraw, grow: float, col: tuple[int, int, int, int]) -> None:
        dr.rectangle((x0 - grow, wall_top - grow, x1 + grow, base_y + grow), fill=col)
        span = (x1 - x0) / (towers + 1)
        tw = min(n * 0.17, span * 0.9)
        for k in range(towers + 2):
            tx = x0 + k * (x1 - x0) / (towers + 1)
            top = n * 0.22 if 0 < k < towers + 1 else n * 0.3
            dr.rectangle(
                (tx - tw / 2 - grow, top - grow, tx + tw / 2 + grow, base_y + grow), fill=col
            )
            dr.polygon(
                [
                    (tx - tw / 2 - grow * 1.6, top + grow * 0.3),
                    (tx, top - n * 0.13 - grow * 1.8),
                    (tx + tw / 2 + grow * 1.6, top + grow * 0.3),
                ],
                fill=col,
            )

    castle(d, out, edge)
    castle(d, 0, fill)
    # a gate and windows
    dark = (*darken(colour, 0.55), 255)
    gx = n / 2
    d.rectangle((gx - n * 0.07, base_y - n * 0.16, gx + n * 0.07, base_y), fill=dark)
    d.ellipse((gx - n * 0.07, base_y - n * 0.23, gx + n * 0.07, base_y - n * 0.09), fill=dark)
    tile = _down(big, (size, size))
    return tile


@lru_cache(maxsize=16)
def ruins_tile(size: int) -> Image.Image:
    """The Ruins: broken columns on a cracked floor (RGBA)."""
    n = size * SS
    big = Image.new("RGBA", (n, n), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    stone, shade, edge = (214, 206, 190, 255), (150, 140, 124, 255), (70, 60, 50, 255)
    d.rounded_rectangle((n * 0.1, n * 0.7, n * 0.9, n * 0.84), radius=n // 30, fill=edge)
    d.rounded_rectangle((n * 0.12, n * 0.72, n * 0.88, n * 0.82), radius=n // 40, fill=stone)
    for k, (fx, top) in enumerate(((0.24, 0.2), (0.5, 0.38), (0.76, 0.26))):
        x = fx * n
        w = n * 0.075
        d.rectangle((x - w - 4, top * n - 4, x + w + 4, n * 0.72), fill=edge)
        d.rectangle((x - w, top * n, x + w, n * 0.72), fill=stone)
        d.rectangle((x + w * 0.3, top * n, x + w, n * 0.72), fill=shade)
        # broken tops
        jag = [
            (x - w - 4, top * n),
            (x - w * 0.2, top * n - n * (0.05 + 0.03 * k)),
            (x + w * 0.4, top * n + n * 0.02),
            (x + w + 4, top * n - n * 0.04),
        ]
        d.polygon([*jag, (x + w + 4, top * n + 6), (x - w - 4, top * n + 6)], fill=edge)
        d.polygon(
            [(a, b + 4) for a, b in jag] + [(x + w, top * n + 8), (x - w, top * n + 8)], fill=stone
        )
    d.rectangle((n * 0.56, n * 0.62, n * 0.7, n * 0.7), fill=shade)
    return _down(big, (size, size))


# ---------------------------------------------------------------------------
# Heroes, Buff, tokens
# ---------------------------------------------------------------------------


def _pawn(d: ImageDraw.ImageDraw, n: int, grow: float, col: tuple[int, int, int, int]) -> None:
    g = grow
    d.ellipse((n * 0.3 - g, n * 0.04 - g, n * 0.7 + g, n * 0.44 + g), fill=col)
    d.polygon(
        [
            (n * 0.36 - g, n * 0.36),
            (n * 0.64 + g, n * 0.36),
            (n * 0.86 + g, n * 0.9 + g),
            (n * 0.14 - g, n * 0.9 + g),
        ],
        fill=col,
    )
    d.rounded_rectangle(
        (n * 0.1 - g, n * 0.78 - g, n * 0.9 + g, n * 0.98 + g), radius=n // 12, fill=col
    )


@lru_cache(maxsize=64)
def hero_tile(colour: RGB, label: str, size: int) -> Image.Image:
    """A hero pawn in its owner's colour, white-edged, ``label`` on it."""
    n = size * SS
    big = Image.new("RGBA", (n, n), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    _pawn(d, n, n * 0.07, (30, 24, 20, 255))
    _pawn(d, n, n * 0.035, (255, 255, 255, 255))
    _pawn(d, n, 0, (*colour, 255))
    d.ellipse((n * 0.37, n * 0.1, n * 0.5, n * 0.22), fill=(*lighten(colour, 0.45), 255))
    if label:
        fnt = font("bold", round(n * 0.36))
        ink = (255, 255, 255, 255) if sum(colour) < 520 else (40, 30, 20, 255)
        d.text((n / 2, n * 0.7), label, font=fnt, fill=ink, anchor="mm")
    return _down(big, (size, size))


@lru_cache(maxsize=16)
def buff_tile(size: int, ring: RGB | None = None) -> Image.Image:
    """Buff le Sans Bannière: a dark horned warlord pawn, red-edged; ringed
    in his employer's colour when hired."""
    n = size * SS
    big = Image.new("RGBA", (n, n), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    if ring is not None:
        d.ellipse((0, n * 0.02, n, n), fill=(*ring, 255))
        d.ellipse((n * 0.06, n * 0.08, n * 0.94, n * 0.94), fill=(255, 255, 255, 255))
    edge = (*BUFF_EDGE, 255)
    body = (*BUFF, 255)

    def horns(grow: float, col: tuple[int, int, int, int]) -> None:
        g = grow
        d.polygon(
            [
                (n * 0.34 - g, n * 0.2),
                (n * 0.16 - g, n * 0.02 - g),
                (n * 0.2 - g, n * 0.3 + g),
                (n * 0.36, n * 0.32 + g),
            ],
            fill=col,
        )
        d.polygon(
            [
                (n * 0.66 + g, n * 0.2),
                (n * 0.84 + g, n * 0.02 - g),
                (n * 0.8 + g, n * 0.3 + g),
                (n * 0.64, n * 0.32 + g),
            ],
            fill=col,
        )

    inset = n * 0.1
    sub = Image.new("RGBA", (n, n), (0, 0, 0, 0))
    sd = ImageDraw.Draw(sub)
    _pawn(sd, n, n * 0.05, edge)
    _pawn(sd, n, 0, body)
    small = sub.resize((round(n - 2 * inset), round(n - 2 * inset)), Image.Resampling.LANCZOS)
    horns(n * 0.03, edge)
    horns(0, (232, 222, 200, 255))
    big.alpha_composite(small, (round(inset), round(inset)))
    # eyes
    for ex in (0.44, 0.56):
        d.ellipse((n * (ex - 0.025), n * 0.26, n * (ex + 0.025), n * 0.31), fill=(*BUFF_EDGE, 255))
    fnt = font("bold", round(n * 0.28))
    d.text((n / 2, n * 0.71), "B", font=fnt, fill=(250, 230, 200, 255), anchor="mm")
    return _down(big, (size, size))


@lru_cache(maxsize=32)
def token_tile(text: str, size: int, fill: RGB = HORDE, ring: RGB = (242, 193, 78)) -> Image.Image:
    """A round token (the horde's strength, a city's level)."""
    n = size * SS
    big = Image.new("RGBA", (n, n), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    d.ellipse((0, 0, n - 1, n - 1), fill=(30, 22, 18, 255))
    d.ellipse((n * 0.05, n * 0.05, n * 0.95, n * 0.95), fill=(*ring, 255))
    d.ellipse((n * 0.14, n * 0.14, n * 0.86, n * 0.86), fill=(*fill, 255))
    fnt = font("bold", round(n * (0.5 if len(text) < 2 else 0.42)))
    ink = (255, 255, 255, 255) if sum(fill) < 520 else (40, 30, 20, 255)
    d.text((n / 2, n / 2 + n * 0.02), text, font=fnt, fill=ink, anchor="mm")
    return _down(big, (size, size))


# ---------------------------------------------------------------------------
# Artefact types
# ---------------------------------------------------------------------------


@lru_cache(maxsize=128)
def type_icon(kind: str, size: int, colour: RGB = (255, 255, 255)) -> Image.Image:
    """The icon of an artefact type (O tool, A weapon, M amulet, T title,
    R scroll, E tent, C horse), in ``colour`` on a transparent tile."""
    n = size * 4
    m = Image.new("L", (n, n), 0)
    d = ImageDraw.Draw(m)
    w = max(3, n // 9)
    if kind == "O":  # a hammer
        d.line((n * 0.22, n * 0.86, n * 0.62, n * 0.36), fill=255, width=w)
        d.polygon(
            [
                (n * 0.42, n * 0.22),
                (n * 0.62, n * 0.06),
                (n * 0.92, n * 0.36),
                (n * 0.76, n * 0.52),
            ],
            fill=255,
        )
    elif kind == "A":  # a sword
        d.polygon(
            [
                (n * 0.5, n * 0.02),
                (n * 0.58, n * 0.14),
                (n * 0.58, n * 0.62),
                (n * 0.42, n * 0.62),
                (n * 0.42, n * 0.14),
            ],
            fill=255,
        )
        d.rectangle((n * 0.22, n * 0.62, n * 0.78, n * 0.71), fill=255)
        d.rectangle((n * 0.45, n * 0.71, n * 0.55, n * 0.88), fill=255)
        d.ellipse((n * 0.41, n * 0.85, n * 0.59, n * 0.99), fill=255)
    elif kind == "M":  # an amulet on its chain
        d.line((n * 0.2, n * 0.06, n * 0.5, n * 0.44), fill=255, width=max(2, w // 2))
        d.line((n * 0.8, n * 0.06, n * 0.5, n * 0.44), fill=255, width=max(2, w // 2))
        d.ellipse((n * 0.26, n * 0.4, n * 0.74, n * 0.88), fill=255)
        d.ellipse((n * 0.4, n * 0.54, n * 0.6, n * 0.74), fill=0)
    elif kind == "T":  # a crown
        d.polygon(
            [
                (n * 0.06, n * 0.28),
                (n * 0.3, n * 0.54),
                (n * 0.5, n * 0.16),
                (n * 0.7, n * 0.54),
                (n * 0.94, n * 0.28),
                (n * 0.84, n * 0.8),
                (n * 0.16, n * 0.8),
            ],
            fill=255,
        )
    elif kind == "R":  # a scroll
        d.rectangle((n * 0.22, n * 0.18, n * 0.78, n * 0.82), fill=255)
        d.ellipse((n * 0.12, n * 0.08, n * 0.32, n * 0.28), fill=255)
        d.ellipse((n * 0.68, n * 0.72, n * 0.88, n * 0.92), fill=255)
        for k in range(3):
            y = n * (0.36 + k * 0.14)
            d.line((n * 0.32, y, n * 0.68, y), fill=0, width=max(2, w // 3))
    elif kind == "E":  # a tent
        d.polygon([(n * 0.5, n * 0.08), (n * 0.96, n * 0.86), (n * 0.04, n * 0.86)], fill=255)
        d.polygon([(n * 0.5, n * 0.42), (n * 0.66, n * 0.86), (n * 0.34, n * 0.86)], fill=0)
    elif kind == "C":  # a horseshoe
        d.arc((n * 0.12, n * 0.06, n * 0.88, n * 0.82), 150, 390, fill=255, width=round(n * 0.16))
        for x in (0.2, 0.8):
            d.rectangle((n * (x - 0.08), n * 0.66, n * (x + 0.08), n * 0.92), fill=255)
    elif kind == "G":  # a Great Artefact: a gem
        d.polygon(
            [
                (n * 0.2, n * 0.3),
                (n * 0.36, n * 0.12),
                (n * 0.64, n * 0.12),
                (n * 0.8, n * 0.3),
                (n * 0.5, n * 0.9),
            ],
            fill=255,
        )
    elif kind == "P":  # provisions: a sack
        d.ellipse((n * 0.16, n * 0.3, n * 0.84, n * 0.96), fill=255)
        d.polygon(
            [(n * 0.36, n * 0.36), (n * 0.3, n * 0.06), (n * 0.7, n * 0.06), (n * 0.64, n * 0.36)],
            fill=255,
        )
    tile = Image.new("RGBA", (size, size), (*colour, 0))
    tile.putalpha(m.resize((size, size), Image.Resampling.LANCZOS))
    return tile


def type_colour(kind: str) -> RGB:
    return TYPE_COLOURS.get(kind, (120, 110, 100))


def ray_points(
    cx: float, cy: float, r0: float, r1: float, k: int, count: int = 7
) -> list[tuple[float, float]]:
    """The wedge ``k`` of a ``count``-ray wheel (ray 0 at the top, clockwise)."""
    a0 = -math.pi / 2 + (k - 0.42) * 2 * math.pi / count
    a1 = -math.pi / 2 + (k + 0.42) * 2 * math.pi / count
    return [
        (cx + r0 * math.cos(a0), cy + r0 * math.sin(a0)),
        (cx + r1 * math.cos(a0), cy + r1 * math.sin(a0)),
        (cx + r1 * math.cos((a0 + a1) / 2), cy + r1 * math.sin((a0 + a1) / 2)),
        (cx + r1 * math.cos(a1), cy + r1 * math.sin(a1)),
        (cx + r0 * math.cos(a1), cy + r0 * math.sin(a1)),
    ]
