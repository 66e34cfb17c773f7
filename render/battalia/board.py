"""Battalia images: the public board (the 7×7 map with its coordinates, the
header saying whose turn it is and what is awaited, the Oracle, Buff, the
players, the market, the battle and the auction in progress)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from engine.games.battalia.model import HeroView, TileView

from ..common import RGB, Box, darken, fit_with_names, font, pill, to_png
from ..liber.layers import gradient, rounded
from .context import COLUMNS, SIZE, Ctx, context
from .panels import (
    auction_height,
    auction_panel,
    battle_height,
    battle_panel,
    buff_panel,
    market_height,
    market_panel,
    oracle_panel,
    players_height,
    players_panel,
)
from .style import (
    BG_BOTTOM,
    BG_TOP,
    GOLD,
    GOLD_DARK,
    GRID,
    MARGIN,
    MUTED,
    NEUTRAL,
    OFF_AREA,
    PANEL_DARK,
    RED,
    TEXT,
    WIDTH,
    draw_text,
    text_width,
)
from .tiles import (
    buff_tile,
    city_tile,
    hero_tile,
    layout_exits,
    road_tile,
    ruins_tile,
    terrain_tile,
    token_tile,
)

HEADER_H = 84
CELL = 92
LABEL = 24
MAP_W = SIZE * CELL + 2 * LABEL
COL_X = MARGIN + MAP_W + 14
COL_W = WIDTH - MARGIN - COL_X
GAP = 12
ORACLE_H = 200
BUFF_H = 150


def render_board(view: object, names: Sequence[str], locale: str = "en") -> bytes:
    return to_png(board_image(context(view, names, locale)))


def board_image(ctx: Ctx) -> Image.Image:
    v = ctx.view
    top = HEADER_H
    right_h = ORACLE_H + GAP + BUFF_H + GAP + market_height(ctx)
    body = max(MAP_W, right_h)
    y = top + body + GAP
    below = players_height(ctx) + GAP
    if v.battle is not None:
        below += battle_height(ctx) + GAP
    if v.auction is not None:
        below += auction_height(ctx) + GAP
    img = gradient(WIDTH, y + below + 4, BG_TOP, BG_BOTTOM)
    header(img, ctx)
    map_x, map_y = MARGIN, top
    draw_map(img, ctx, map_x, map_y, CELL)
    ry = top
    oracle_panel(img, ctx, (COL_X, ry, WIDTH - MARGIN, ry + ORACLE_H))
    ry += ORACLE_H + GAP
    buff_panel(img, ctx, (COL_X, ry, WIDTH - MARGIN, ry + BUFF_H))
    ry += BUFF_H + GAP
    market_panel(img, ctx, (COL_X, ry, WIDTH - MARGIN, top + body))
    y0 = players_panel(img, ctx, y) + GAP
    if v.battle is not None:
        y0 = battle_panel(img, ctx, y0) + GAP
    if v.auction is not None:
        auction_panel(img, ctx, y0)
    return img


# ---------------------------------------------------------------------------
# Header: the title, the day, whose turn and what is awaited
# ---------------------------------------------------------------------------


def status_line(ctx: Ctx) -> tuple[str, bool]:
    """The headline: who won, or who must do what; (text, is it the end)."""
    v = ctx.view
    winners = ctx.winners()
    if winners:
        who = ", ".join(ctx.name(s) for s in winners)
        text = ctx.t("winner", name=who, n=len(winners))
        reason = f"reason-{v.end_reason}"
        if v.end_reason and _known(ctx, reason):
            text += " · " + ctx.t(reason)
        return text, True
    parts: list[str] = []
    kinds: dict[str, list[int]] = {}
    for seat, kind in v.pending:
        kinds.setdefault(kind, []).append(seat)
    for kind, seats in kinds.items():
        who = ", ".join(ctx.name(s) for s in seats)
        parts.append(
            ctx.t(
                f"await-{kind}" if _known(ctx, f"await-{kind}") else "await-other",
                name=who,
                n=len(seats),
            )
        )
    if v.phase == "over" and not parts:
        parts.append(ctx.t("game-over"))
    elif not parts:
        parts.append(ctx.t("await-turn", name=ctx.name(v.active), n=1))
    return " · ".join(parts), False


def _known(ctx: Ctx, key: str) -> bool:
    import i18n

    return i18n.has(ctx.lang, "bt-render-" + key)


def header(img: Image.Image, ctx: Ctx) -> None:
    v = ctx.view
    title = font("bold", 30)
    draw_text(img, (MARGIN + 2, 26), ctx.t("title"), title, GOLD, "lm")
    small = font("condensed-bold", 20)
    right = WIDTH - MARGIN
    w = pill(img, right, 9, ctx.t("week", n=v.week), small, (96, 76, 58), TEXT, 34, align="right")
    pill(img, right - w - 8, 9, ctx.t("day", n=v.day), small, GOLD, GOLD_DARK, 34, align="right")
    text, over = status_line(ctx)
    fnt = font("condensed-bold", 23)
    room = WIDTH - 2 * MARGIN - 10 - (60 if v.placing is not None else 0)
    text = fit_with_names(ctx.names, text, fnt, room)
    draw_text(img, (MARGIN + 2, 64), text, fnt, GOLD if over else TEXT, "lm")
    if v.placing is not None:
        placing_preview(img, ctx, MARGIN + 16 + text_width(fnt, text), 46, 36)


def placing_preview(img: Image.Image, ctx: Ctx, x: int, y: int, size: int) -> None:
    """The terrain card being placed (its terrain, its roads unturned, its
    city in the placer's colour), framed in gold."""
    p = ctx.view.placing
    if p is None:
        return
    rounded(img, (x - 3, y - 3, x + size + 3, y + size + 3), 6, GOLD)
    img.paste(terrain_tile(p.terrain, size), (x, y))
    roads = road_tile(layout_exits(p.layout, 0), size)
    img.paste(roads, (x, y), roads)
    if p.kind == "city":
        ct = city_tile(ctx.colour(p.seat), max(1, p.level), round(size * 0.7))
        img.paste(ct, (x + (size - ct.width) // 2, y + (size - ct.height) // 2), ct)


# ---------------------------------------------------------------------------
# The map
# ---------------------------------------------------------------------------


def cell_box(x0: int, y0: int, cell: int, col: int, row: int) -> Box:
    x = x0 + LABEL + col * cell
    y = y0 + LABEL + row * cell
    return (x, y, x + cell, y + cell)


def draw_map(
    img: Image.Image,
    ctx: Ctx,
    x0: int,
    y0: int,
    cell: int,
    cols: tuple[int, int] = (0, SIZE),
    rows: tuple[int, int] = (0, SIZE),
) -> dict[str, Box]:
    """The map (or the part ``cols`` × ``rows`` of it) with its coordinates,
    its top-left corner at (x0, y0); returns each drawn square's box."""
    v = ctx.view
    c0, c1 = cols
    r0, r1 = rows
    w, h = (c1 - c0) * cell, (r1 - r0) * cell
    rounded(img, (x0, y0, x0 + w + 2 * LABEL, y0 + h + 2 * LABEL), 12, PANEL_DARK)
    img.paste(GRID, (x0 + LABEL - 2, y0 + LABEL - 2, x0 + LABEL + w + 2, y0 + LABEL + h + 2))
    lab = font("bold", max(13, min(18, cell // 5)))
    for c in range(c0, c1):
        cx = x0 + LABEL + (c - c0) * cell + cell / 2
        draw_text(img, (cx, y0 + LABEL / 2), COLUMNS[c], lab, MUTED, "mm")
        draw_text(img, (cx, y0 + h + LABEL * 1.5), COLUMNS[c], lab, MUTED, "mm")
    for r in range(r0, r1):
        cy = y0 + LABEL + (r - r0) * cell + cell / 2
        draw_text(img, (x0 + LABEL / 2, cy), str(r + 1), lab, MUTED, "mm")
        draw_text(img, (x0 + w + LABEL * 1.5, cy), str(r + 1), lab, MUTED, "mm")
    area = set(v.area)
    tiles = {t.square: t for t in v.tiles}
    boxes: dict[str, Box] = {}
    for r in range(r0, r1):
        for c in range(c0, c1):
            sq = f"{COLUMNS[c]}{r + 1}"
            box = cell_box(x0, y0, cell, c - c0, r - r0)
            boxes[sq] = box
            inner = (box[0] + 1, box[1] + 1, box[2] - 1, box[3] - 1)
            if sq not in area:
                _off_area(img, inner)
                continue
            draw_square(img, ctx, inner, tiles.get(sq), sq)
    battle = v.battle
    if battle is not None and battle.square in boxes:
        bx0, by0, bx1, by1 = boxes[battle.square]
        ImageDraw.Draw(img).rounded_rectangle(
            (bx0 - 2, by0 - 2, bx1 + 1, by1 + 1), radius=8, outline=RED, width=4
        )
    _pieces(img, ctx, boxes, cell)
    return boxes


def _off_area(img: Image.Image, box: Box) -> None:
    img.paste(OFF_AREA, box)
    d = ImageDraw.Draw(img)
    line = darken(OFF_AREA, 0.12)
    x0, y0, x1, y1 = box
    for k in range(-(y1 - y0), x1 - x0, 10):
        d.line(
            (
                x0 + max(0, k),
                y0 + max(0, -k),
                x0 + min(x1 - x0, k + y1 - y0) - 1,
                y0 + min(y1 - y0, x1 - x0 - k) - 1,
            ),
            fill=line,
        )


def draw_square(img: Image.Image, ctx: Ctx, box: Box, tile: TileView | None, square: str) -> None:
    """One playable square: its terrain and roads, its city or the Ruins,
    or an empty square (a start corner ringed in its seat's colour). Every
    pixel of the square is drawn (the terrain is opaque): the result is a
    cached tile per what it shows."""
    size = box[2] - box[0]
    if size != box[3] - box[1]:
        _draw_square(img, box, _face(ctx, tile, square))
        return
    img.paste(_square_tile(size, _face(ctx, tile, square)), box[:2])


_Face = tuple[str | None, int, str, RGB, int, str]
"""What a square shows: terrain, exits, kind, owner colour, level, and a
mark: the start label of an empty start square, "owned" for a city that has
an owner."""


def _face(ctx: Ctx, tile: TileView | None, square: str) -> _Face:
    if tile is None:
        starts = tuple(ctx.view.starts)
        label = ctx.t("start-square") if square in starts else ""
        return (None, 0, "", NEUTRAL, 0, label)
    colour = NEUTRAL if tile.owner is None else ctx.colour(tile.owner)
    owned = "owned" if tile.owner is not None else ""
    return (tile.terrain, tile.exits, tile.kind, colour, max(1, tile.level), owned)


@lru_cache(maxsize=256)
def _square_tile(size: int, face: _Face) -> Image.Image:
    img = Image.new("RGB", (size, size))
    _draw_square(img, (0, 0, size, size), face)
    return img


def _draw_square(img: Image.Image, box: Box, face: _Face) -> None:
    terrain, exits, kind, colour, level, label = face
    size = box[2] - box[0]
    if terrain is None:
        img.paste(terrain_tile(None, size), box[:2])
        if label:
            _start_mark(img, box, label)
        return
    img.paste(terrain_tile(terrain, size), box[:2])
    roads = road_tile(exits, size)
    img.paste(roads, box[:2], roads)
    if kind == "ruins":
        ru = ruins_tile(round(size * 0.74))
        img.paste(
            ru, (box[0] + (size - ru.width) // 2, box[1] + (size - ru.height) // 2 - size // 20), ru
        )
    elif kind in ("city", "start", "neutral"):
        ct = city_tile(colour, level, round(size * 0.7))
        img.paste(
            ct, (box[0] + (size - ct.width) // 2, box[1] + (size - ct.height) // 2 - size // 20), ct
        )
        tok = token_tile(
            str(level),
            round(size * 0.32),
            colour,
            (255, 255, 255) if label == "owned" else (70, 60, 50),
        )
        img.paste(tok, (box[0] + size // 2 - tok.width // 2, box[3] - tok.height - 1), tok)


def _start_mark(img: Image.Image, box: Box, label: str) -> None:
    """An empty start corner: a dashed ring (in the seat's colour when a seat
    owns that corner) — it shows where the start cities go."""
    d = ImageDraw.Draw(img)
    x0, y0, x1, y1 = box
    pad = max(6, (x1 - x0) // 8)
    colour = darken((150, 130, 100), 0.1)
    for k in range(0, 360, 30):
        d.arc((x0 + pad, y0 + pad, x1 - pad, y1 - pad), k, k + 18, fill=colour, width=3)
    fnt = font("condensed-bold", max(11, (x1 - x0) // 7))
    draw_text(img, ((x0 + x1) / 2, (y0 + y1) / 2), label, fnt, colour, "mm")


def _pieces(img: Image.Image, ctx: Ctx, boxes: dict[str, Box], cell: int) -> None:
    """The heroes (their owner's colour, 1 or 2 on them) and Buff with his
    horde token, on their squares; several heroes share a square's corners."""
    v = ctx.view
    by_square: dict[str, list[HeroView]] = {}
    for hero in v.heroes:
        if hero.square in boxes and hero.index != 0:  # the hired Buff: his own figure
            by_square.setdefault(hero.square, []).append(hero)
    hsize = round(cell * 0.42)
    corners = ((0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (1.0, 1.0))
    buff = v.buff
    buff_sq = buff.square if ctx.buff_on() and buff.square in boxes else None
    for square, heroes in by_square.items():
        x0, y0, x1, y1 = boxes[square]
        slots = [c for c in corners if not (buff_sq == square and c == (1.0, 0.0))]
        for hero, (fx, fy) in zip(heroes, slots * 2, strict=False):
            tile = hero_tile(ctx.colour(hero.seat), str(hero.index), hsize)
            px = round(x0 + 2 + fx * (x1 - x0 - hsize - 4))
            py = round(y0 + 2 + fy * (y1 - y0 - hsize - 4))
            img.paste(tile, (px, py), tile)
    if buff_sq is not None:
        x0, y0, x1, y1 = boxes[buff_sq]
        size = round(cell * 0.56)
        ring = ctx.colour(buff.owner) if buff.owner is not None else None
        bt = buff_tile(size, ring)
        bx, by = x1 - size - 1, y0 + 1
        img.paste(bt, (bx, by), bt)
        tok = token_tile(str(buff.horde), round(cell * 0.3))
        img.paste(tok, (bx - tok.width // 2 + 4, by + size - tok.height + 2), tok)


def decision_text(ctx: Ctx, width: int, fnt_size: int = 20) -> str:
    text, _ = status_line(ctx)
    return fit_with_names(ctx.names, text, font("condensed-bold", fnt_size), width)


__all__ = ["board_image", "cell_box", "decision_text", "draw_map", "render_board"]
