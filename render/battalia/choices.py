"""Battalia images: the choices a seat is making, drawn on a close-up of the
map: each legal (square, rotation) of the terrain card being placed as a
numbered ghost tile showing that rotation's exits; Buff's paths and the
heroes' moves (the number on the square where each path ends, the path
traced); start squares, Buff's entry squares, summons and upgrades numbered
on their squares."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from engine.games.battalia.actions import (
    BuffMove,
    ChooseStart,
    Enter,
    Move,
    Place,
    Summon,
    Upgrade,
    parse_action,
)

from ..common import RGB, font, to_png
from ..liber.layers import gradient, rounded
from .board import LABEL, decision_text, draw_map, placing_preview
from .context import SIZE, Ctx, context, square_xy
from .style import BG_BOTTOM, BG_TOP, INK, MARGIN, NEUTRAL, TEXT, WIDTH, draw_text, text_width
from .tiles import city_tile, layout_exits, road_tile, terrain_tile

SPOT_COLOURS: tuple[RGB, ...] = (
    (230, 60, 60),
    (40, 120, 230),
    (250, 200, 40),
    (40, 170, 90),
    (170, 80, 220),
    (255, 130, 30),
    (30, 190, 200),
    (240, 100, 180),
)
MAX_CELL = 150
HEAD = 58


def _spots(choices: Sequence[tuple[int, str]]) -> list[tuple[int, str, object]]:
    """``(number, square, action)`` of each choice that has a square."""
    out: list[tuple[int, str, object]] = []
    for number, notation in choices:
        try:
            action = parse_action(notation)
        except ValueError:
            continue
        if isinstance(action, Place):
            out.append((number, action.square, action))
        elif isinstance(action, BuffMove):
            out.append((number, action.path[-1] if action.path else "", action))
        elif isinstance(action, Move) and action.path:
            out.append((number, action.path[-1], action))
        elif isinstance(action, Enter | ChooseStart | Summon | Upgrade):
            out.append((number, action.square, action))
    return out


def render_spots(
    view: object, names: Sequence[str], locale: str, choices: Sequence[tuple[int, str]]
) -> bytes | None:
    """The given choices (``(number, notation)``: ``place c3 1``, ``buff c2
    c3``, ``enter a1``, ``start g7``) drawn numbered on a close-up of the
    map; None when no choice has a square."""
    ctx = context(view, names, locale)
    spots = _spots(choices)
    buff_sq = ctx.view.buff.square
    spots = [(n, sq or (buff_sq or ""), a) for n, sq, a in spots]
    spots = [s for s in spots if square_xy(s[1]) is not None]
    if not spots:
        return None
    cols, rows = _window(ctx, [s[1] for s in spots])
    ncols, nrows = cols[1] - cols[0], rows[1] - rows[0]
    cell = min(MAX_CELL, (WIDTH - 2 * MARGIN - 2 * LABEL) // ncols, 760 // nrows)
    map_w = ncols * cell + 2 * LABEL
    height = HEAD + nrows * cell + 2 * LABEL + MARGIN
    img = gradient(WIDTH, height, BG_TOP, BG_BOTTOM)
    x0 = (WIDTH - map_w) // 2
    boxes = draw_map(img, ctx, x0, HEAD, cell, cols, rows)
    by_square: dict[str, list[tuple[int, object]]] = {}
    for number, square, action in spots:
        by_square.setdefault(square, []).append((number, action))
    colour_of = {n: SPOT_COLOURS[k % len(SPOT_COLOURS)] for k, (n, _, _) in enumerate(spots)}
    for number, _, action in spots:
        if isinstance(action, BuffMove):
            _path(img, boxes, action.path, colour_of[number], buff_sq)
        elif isinstance(action, Move):
            _path(img, boxes, action.path, colour_of[number], _hero_square(ctx, action.hero))
    for square, items in by_square.items():
        _ghosts(img, ctx, boxes[square], items, colour_of)
    fnt = font("condensed-bold", 22)
    text = decision_text(ctx, WIDTH - 2 * MARGIN - 70, 22)
    draw_text(img, (MARGIN + 4, HEAD / 2), text, fnt, TEXT, "lm")
    if ctx.view.placing is not None:
        placing_preview(img, ctx, MARGIN + 20 + text_width(fnt, text), HEAD // 2 - 18, 36)

    return to_png(img)


def _window(ctx: Ctx, squares: Sequence[str]) -> tuple[tuple[int, int], tuple[int, int]]:
    """The part of the map shown: the spots and one square around them, at
    least 4 × 4 squares, within the board."""
    xy = [square_xy(sq) for sq in squares]
    pts = [p for p in xy if p is not None]
    c0 = max(0, min(p[0] for p in pts) - 1)
    c1 = min(SIZE, max(p[0] for p in pts) + 2)
    r0 = max(0, min(p[1] for p in pts) - 1)
    r1 = min(SIZE, max(p[1] for p in pts) + 2)
    while c1 - c0 < 4:
        c0, c1 = max(0, c0 - (c0 > 0)), min(SIZE, c1 + (c1 - c0 < 4))
    while r1 - r0 < 4:
        r0, r1 = max(0, r0 - (r0 > 0)), min(SIZE, r1 + (r1 - r0 < 4))
    return (c0, c1), (r0, r1)


def _ghosts(
    img: Image.Image,
    ctx: Ctx,
    box: tuple[int, int, int, int],
    items: Sequence[tuple[int, object]],
    colour_of: dict[int, RGB],
) -> None:
    """A square's choices: one ghost filling the square, or up to four in its
    quarters (several rotations on the same square); each numbered."""
    x0, y0, x1, y1 = box
    size = x1 - x0
    many = len(items) > 1
    sub = size // 2 if many else size
    for k, (number, action) in enumerate(items[:4] if many else items):
        gx = x0 + (k % 2) * sub if many else x0
        gy = y0 + (k // 2) * sub if many else y0
        colour = colour_of[number]
        inner = (gx + 2, gy + 2, gx + sub - 2, gy + sub - 2)
        if isinstance(action, Place):
            _ghost_tile(img, ctx, inner, action.rotation)
        d = ImageDraw.Draw(img)
        d.rounded_rectangle(
            inner, radius=max(4, sub // 10), outline=colour, width=max(3, sub // 22)
        )
        badge = max(22, round(sub * (0.42 if many else 0.32)))
        bx = inner[0] + 3
        by = inner[1] + 3 if isinstance(action, Place) else (inner[1] + inner[3] - badge) // 2
        rounded(
            img, (bx, by, bx + badge, by + badge), max(4, badge // 4), colour, (255, 255, 255), 2
        )
        ink = INK if sum(colour) > 480 else (255, 255, 255)
        fnt = font("bold", round(badge * (0.62 if number < 10 else 0.5)))
        draw_text(img, (bx + badge / 2, by + badge / 2 + 1), str(number), fnt, ink, "mm")
    if len(items) > 4:  # more than four choices on one square: the rest listed
        rest = ", ".join(str(n) for n, _ in items[4:])
        draw_text(img, (x0 + size / 2, y1 - 10), rest, font("bold", 14), TEXT, "mm")


def _ghost_tile(img: Image.Image, ctx: Ctx, box: tuple[int, int, int, int], rotation: int) -> None:
    """The card being placed, turned ``rotation`` quarter turns: its terrain,
    its roads, its city; pasted see-through."""
    placing = ctx.view.placing
    size = box[2] - box[0]
    if placing is None or size < 8:
        return
    tile = terrain_tile(placing.terrain, size).convert("RGBA")
    roads = road_tile(layout_exits(placing.layout, rotation), size)
    tile.alpha_composite(roads)
    if placing.kind == "city":
        ct = city_tile(
            ctx.colour(placing.seat) if placing.seat is not None else NEUTRAL,
            max(1, placing.level),
            round(size * 0.6),
        )
        tile.alpha_composite(ct, ((size - ct.width) // 2, (size - ct.height) // 2))
    mask = Image.new("L", (size, size), 215)
    img.paste(tile, box[:2], mask)


def _path(
    img: Image.Image,
    boxes: dict[str, tuple[int, int, int, int]],
    path: Sequence[str],
    colour: RGB,
    start: str | None,
) -> None:
    """A path traced square to square from ``start``."""
    squares = ([start] if start else []) + list(path)
    pts = []
    for sq in squares:
        if sq in boxes:
            b = boxes[sq]
            pts.append(((b[0] + b[2]) / 2, (b[1] + b[3]) / 2))
    if len(pts) >= 2:
        ImageDraw.Draw(img).line(pts, fill=colour, width=5, joint="curve")


def _hero_square(ctx: Ctx, hero: str) -> str | None:
    """Where the observer's hero ``h1``/``h2`` (or the hired Buff ``b``) stands."""
    v = ctx.view
    if hero == "b":
        return v.buff.square
    for h in v.heroes:
        if h.seat == v.observer and f"h{h.index}" == hero:
            return h.square
    return None
