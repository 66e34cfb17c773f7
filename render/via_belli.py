"""The Via Belli renderer: the table seen from above.

The public board (:func:`render_board`) is a wooden table with the grid's
coordinates on its edges (letters for columns, numbers for rows, as in the
notation), the cups (obstacles) seen from above, the castles, the terrain
(inns and outposts, face down until revealed, bordered in their
controller's colour), the cards in their owner's colour with their French
name, cost and current ATK/DEF, the supply links and the last action. It
draws public information only: the same picture whichever seat's view it is
given (ambush cards stay face down, the observer's choices are not shown).

The private image (:func:`render_private`) shows one seat's hand with the
cards' abilities and the seat's legal actions; a spectator gets a message.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Sequence

from PIL import Image, ImageDraw

import i18n
from engine.games.via_belli import CardInfo, PlayerView, UnitView, View

from .common import (
    CARD_FACE,
    INK,
    RGB,
    Box,
    canvas,
    card_back,
    card_radius,
    card_shell,
    clean_text,
    darken,
    dashed_frame,
    draw_lines,
    ellipse,
    fit_paragraph,
    fit_text,
    font,
    icon,
    lighten,
    message_image,
    mix,
    ordinal,
    paste_rgba,
    render_cache,
    text_width,
)
from .common import (
    draw_text_cached as draw_text,
)
from .common import (
    pill_fast as pill,
)
from .common import (
    rounded_fast as rounded,
)

MAX_SIDE = 1400
MARGIN = 16
HEADER = 76
LABEL = 22  # the coordinate band around the table
PANEL_H = 96

WOOD: RGB = (150, 102, 62)
WOOD_DARK: RGB = (120, 78, 45)
WOOD_EDGE: RGB = (92, 58, 32)
BG_TOP: RGB = (44, 34, 28)
BG_BOTTOM: RGB = (30, 23, 19)
TEXT: RGB = (244, 236, 222)
MUTED: RGB = (196, 180, 160)
GOLD: RGB = (242, 193, 78)
RED: RGB = (214, 69, 65)
ATK_FILL: RGB = (176, 52, 44)
DEF_FILL: RGB = (44, 92, 150)
UP: RGB = (40, 150, 72)
DOWN: RGB = (200, 60, 50)
NEUTRAL: RGB = (128, 118, 104)
PANEL: RGB = (58, 44, 35)
PANEL_EDGE: RGB = (96, 74, 58)
TERRAIN_GREY: RGB = (96, 88, 76)
TERRAIN_FACE: RGB = (232, 218, 186)

SEAT_COLOURS: tuple[RGB, ...] = (
    (190, 52, 48),
    (42, 94, 178),
    (40, 132, 76),
    (128, 70, 166),
)


def _t(locale: str, key: str, **params: object) -> str:
    """A word of these images: the ``vb-render-<key>`` text of the catalogue."""
    return i18n.translate(locale, f"vb-render-{key}", **params)


def _t_or(locale: str, key: str, default: str) -> str:
    full = f"vb-render-{key}"
    return i18n.translate(locale, full) if i18n.has(locale, full) else default


def seat_colour(seat: int) -> RGB:
    if 0 <= seat < len(SEAT_COLOURS):
        return SEAT_COLOURS[seat]
    return NEUTRAL


def _name(names: Sequence[str], seat: int, locale: str) -> str:
    if 0 <= seat < len(names) and names[seat]:
        return clean_text(names[seat])
    return _t(locale, "player", n=seat + 1)


# ---------------------------------------------------------------------------
# Geometry
# ---------------------------------------------------------------------------


def cell_size(width: int, height: int) -> int:
    """Pixels per cell, so that the whole image stays under MAX_SIDE."""
    usable_w = MAX_SIDE - 2 * MARGIN - 2 * LABEL
    usable_h = MAX_SIDE - HEADER - PANEL_H - 2 * MARGIN - 2 * LABEL - 40
    size = min(usable_w // max(1, width), usable_h // max(1, height), 34)
    return max(6, size)


BOARD_W = 1100  # the board's width: Discord shows it about half size in the chat
MIN_CROP = (18, 14)  # the smallest part of the table shown, in cells


def crop_area(view: View) -> tuple[int, int, int, int]:
    """The part of the table the board shows (x0, y0, x1, y1 in cells): every
    castle, terrain card, cup and card with 2 cells around, so that a large
    table with its armies far apart is not shrunk to illegible cards."""
    boxes = [(c.x, c.y, c.w, c.h) for c in view.castles]
    boxes += [(t.x, t.y, t.w, t.h) for t in view.terrain]
    boxes += [(u.x, u.y, u.w, u.h) for u in view.units]
    boxes += list(view.cups) + list(view.obstacles)
    if not boxes:
        return 0, 0, view.width, view.height
    x0 = max(0, min(b[0] for b in boxes) - 2)
    y0 = max(0, min(b[1] for b in boxes) - 2)
    x1 = min(view.width, max(b[0] + b[2] for b in boxes) + 2)
    y1 = min(view.height, max(b[1] + b[3] for b in boxes) + 2)
    for lo_i, span in ((0, MIN_CROP[0]), (1, MIN_CROP[1])):
        lo, hi, full = (x0, x1, view.width) if lo_i == 0 else (y0, y1, view.height)
        while hi - lo < span and (lo > 0 or hi < full):
            lo, hi = max(0, lo - 1), min(full, hi + 1)
        if lo_i == 0:
            x0, x1 = lo, hi
        else:
            y0, y1 = lo, hi
    return x0, y0, x1, y1


def board_cell(cols: int, rows: int) -> int:
    """Pixels per cell of the board: the shown part fits BOARD_W wide (and
    MAX_SIDE high)."""
    usable_w = BOARD_W - 2 * MARGIN - 2 * LABEL
    usable_h = MAX_SIDE - HEADER - PANEL_H - 2 * MARGIN - 2 * LABEL - 40
    return max(6, min(usable_w // max(1, cols), usable_h // max(1, rows), 40))


class Grid:
    """Maps cells to pixels."""

    def __init__(self, x0: int, y0: int, size: int) -> None:
        self.x0, self.y0, self.s = x0, y0, size

    def box(self, x: int, y: int, w: int, h: int) -> Box:
        s = self.s
        return (self.x0 + x * s, self.y0 + y * s, self.x0 + (x + w) * s, self.y0 + (y + h) * s)

    def centre(self, x: int, y: int, w: int, h: int) -> tuple[float, float]:
        b = self.box(x, y, w, h)
        return ((b[0] + b[2]) / 2, (b[1] + b[3]) / 2)


# ---------------------------------------------------------------------------
# The table texture (cached)
# ---------------------------------------------------------------------------


@render_cache(8)
def wood(width: int, height: int) -> Image.Image:
    """Planks of wood: wide bands of slightly different shades, no streaks nor
    seams (they read as grid lines once the image is shrunk), drawn from a fixed
    pseudo-random sequence (deterministic; rows are uniform, so the PNG stays
    small)."""
    img = Image.new("RGB", (width, height), WOOD)
    d = ImageDraw.Draw(img)
    seed = 12345

    def nxt() -> int:
        nonlocal seed
        seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
        return seed >> 8

    plank = 72
    for top in range(0, height, plank):
        shade = nxt() % 5 - 2
        base: RGB = (WOOD[0] + shade * 4, WOOD[1] + shade * 3, WOOD[2] + shade * 2)
        d.rectangle((0, top, width, top + plank), fill=base)
    return img


# ---------------------------------------------------------------------------
# Pieces
# ---------------------------------------------------------------------------


@render_cache(32)
def cup_tile(w: int, h: int) -> Image.Image:
    """A coffee cup on its saucer, seen from above (RGBA)."""
    s = 3
    big = Image.new("RGBA", (w * s, h * s), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    W, H = w * s, h * s
    sh = max(2, W // 30)
    d.ellipse((sh * 2, sh * 3, W - 1, H - 1), fill=(0, 0, 0, 90))
    d.ellipse((0, 0, W - sh * 2, H - sh * 2), fill=(236, 232, 224, 255))
    d.ellipse((W * 0.06, H * 0.06, W * 0.94 - sh * 2, H * 0.94 - sh * 2), outline=(200, 194, 184))
    cw, ch = (W - sh * 2) * 0.62, (H - sh * 2) * 0.62
    cx, cy = (W - sh * 2) / 2, (H - sh * 2) / 2
    handle = (cx + cw / 2 - W * 0.04, cy - H * 0.06, cx + cw / 2 + W * 0.16, cy + H * 0.06)
    d.rounded_rectangle(handle, radius=H * 0.05, fill=(250, 248, 244), outline=(190, 184, 174))
    d.ellipse(
        (cx - cw / 2, cy - ch / 2, cx + cw / 2, cy + ch / 2),
        fill=(252, 250, 246),
        outline=(190, 184, 174),
        width=max(1, s),
    )
    rim = cw * 0.12
    d.ellipse(
        (cx - cw / 2 + rim, cy - ch / 2 + rim, cx + cw / 2 - rim, cy + ch / 2 - rim),
        fill=(86, 52, 30),
    )
    d.ellipse((cx - cw * 0.22, cy - ch * 0.3, cx - cw * 0.02, cy - ch * 0.18), fill=(150, 104, 70))
    return big.resize((w, h), Image.Resampling.LANCZOS)


def draw_ruin(img: Image.Image, box: Box, s: int) -> None:
    rounded(img, box, max(2, s // 3), (112, 106, 98), (70, 66, 60), 2)
    d = ImageDraw.Draw(img)
    step = max(5, s // 2)
    x0, y0, x1, y1 = box
    for k in range(x0 - (y1 - y0), x1, step):
        a = (max(x0, k), max(y0, y0 + (x0 - k)))
        b = (min(x1, k + (y1 - y0)), min(y1, y0 + (x1 - k) if k + (y1 - y0) > x1 else y1))
        d.line((a, b), fill=(92, 86, 80), width=1)


@render_cache(256)
def _castle_mask(size: int) -> Image.Image:
    s = 4
    n = size * s
    big = Image.new("L", (n, n), 0)
    d = ImageDraw.Draw(big)
    d.rectangle((n * 0.12, n * 0.35, n * 0.88, n * 0.95), fill=255)
    for i in range(4):
        x = n * (0.12 + i * 0.2)
        d.rectangle((x, n * 0.2, x + n * 0.14, n * 0.36), fill=255)
    d.rectangle((n * 0.38, n * 0.05, n * 0.62, n * 0.35), fill=255)
    d.rectangle((n * 0.38, n * 0.0, n * 0.44, n * 0.08), fill=255)
    d.rectangle((n * 0.56, n * 0.0, n * 0.62, n * 0.08), fill=255)
    d.pieslice((n * 0.38, n * 0.6, n * 0.62, n * 0.84), 180, 360, fill=0)
    d.rectangle((n * 0.38, n * 0.72, n * 0.62, n * 0.96), fill=0)
    return big.resize((size, size), Image.Resampling.LANCZOS)


def castle_icon(size: int, colour: RGB) -> Image.Image:
    tile = Image.new("RGBA", (size, size), (*colour, 0))
    tile.putalpha(_castle_mask(size))
    return tile


@render_cache(256)
def _terrain_mask(kind: str, size: int) -> Image.Image:
    s = 4
    n = size * s
    big = Image.new("L", (n, n), 0)
    d = ImageDraw.Draw(big)
    if kind == "inn":  # a tankard
        d.rounded_rectangle((n * 0.18, n * 0.22, n * 0.66, n * 0.95), radius=n * 0.06, fill=255)
        d.ellipse((n * 0.12, n * 0.06, n * 0.72, n * 0.32), fill=255)
        d.arc((n * 0.5, n * 0.36, n * 0.92, n * 0.78), 270, 90, fill=255, width=max(2, n // 10))
    else:  # a flag on a pole
        d.rectangle((n * 0.2, n * 0.05, n * 0.3, n * 0.97), fill=255)
        d.polygon([(n * 0.3, n * 0.08), (n * 0.9, n * 0.26), (n * 0.3, n * 0.46)], fill=255)
        d.rectangle((n * 0.08, n * 0.88, n * 0.5, n * 0.97), fill=255)
    return big.resize((size, size), Image.Resampling.LANCZOS)


def terrain_icon(kind: str, size: int, colour: RGB) -> Image.Image:
    tile = Image.new("RGBA", (size, size), (*colour, 0))
    tile.putalpha(_terrain_mask(kind, size))
    return tile


@render_cache(64)
def back_tile(w: int, h: int, colour: RGB) -> Image.Image:
    """A face-down card with a "?" emblem (RGBA)."""
    tile = card_back(w, h, colour).copy()
    emblem = round(min(w, h) * 0.42) + 2
    ex, ey = (w - emblem) // 2, (h - emblem) // 2
    ellipse(tile, (ex, ey, ex + emblem, ey + emblem), colour, CARD_FACE, max(1, emblem // 12))
    fnt = font("bold", max(7, round(emblem * 0.62)))
    draw_text(tile, (w / 2, h / 2 + 1), "?", fnt, CARD_FACE, "mm")
    tile.putalpha(card_back(w, h, colour).getchannel("A"))
    return tile


def _stat_badge(
    img: Image.Image, cx: float, cy: float, value: int, printed: int | None, fill: RGB, size: int
) -> None:
    """A round ATK or DEF badge; a ring shows a bonus (green) or a loss (red)."""
    r = size // 2
    box = (round(cx - r), round(cy - r), round(cx - r) + size, round(cy - r) + size)
    ring = CARD_FACE
    if printed is not None and value > printed:
        ring = UP
    elif printed is not None and value < printed:
        ring = DOWN
    ellipse(img, box, fill, ring, max(1, size // 8) if ring != CARD_FACE else max(1, size // 14))
    fnt = font("bold", max(7, round(size * 0.62)))
    draw_text(img, (cx, cy + 0.5), str(value), fnt, (255, 255, 255), "mm")


def draw_unit(img: Image.Image, u: UnitView, box: Box, s: int, over: bool = False) -> None:
    """A card on the table. Face down it shows its back (never the observer's
    own secret), except once the game is ``over``: then its face, under a
    dotted frame saying it was face down."""
    pad = max(1, s // 10)
    x0, y0, x1, y1 = box[0] + pad, box[1] + pad, box[2] - pad, box[3] - pad
    w, h = x1 - x0, y1 - y0
    colour = seat_colour(u.owner)
    if not u.face_up and not (over and u.name):
        paste_rgba(img, back_tile(w, h, colour), (x0, y0))
        return
    tile = unit_tile(
        w,
        h,
        s,
        colour,
        u.name or "",
        u.cost,
        u.atk,
        u.dfn,
        u.printed_atk,
        u.printed_def,
        (u.spied, u.free_attack, u.supplied),
    )
    paste_rgba(img, tile, (x0, y0))
    if not u.face_up:  # revealed at the end of the game
        dashed_frame(img, (x0 + 1, y0 + 1, x1 - 2, y1 - 2), INK, max(4, s // 3), 3, 2)


@render_cache(512)
def unit_tile(
    w: int,
    h: int,
    s: int,
    colour: RGB,
    name: str,
    cost: int | None,
    atk: int,
    dfn: int,
    printed_atk: int | None,
    printed_def: int | None,
    flags: tuple[bool, bool, bool],
) -> Image.Image:
    """A face-up card on the table (RGBA), cached: most cards do not change
    between two images."""
    spied, free_attack, supplied = flags
    shell = card_shell(w, h, colour)
    img = Image.new("RGB", (w, h), colour)
    img.paste(shell, (0, 0), shell)
    x0, y0, x1, y1 = 0, 0, w, h
    inner = max(2, round(w * 0.07))
    # the name, along the top, as large as the card allows (on two lines if
    # it is long: "Molosse / Masqué"), to stay legible when Discord shrinks it
    avail = w - 2 * inner
    size, lines = _name_lines(clean_text(name), avail, max(8, min(round(s * 0.78), 24)))
    fnt = font("condensed-bold", size)
    ty = y0 + inner
    for text in lines:
        draw_text(img, (w / 2, ty), text, fnt, INK, "ma")
        ty += size
    badge = max(10, min(round(s * 1.05), 34, (w - 2 * inner) // 2))
    # the cost, in a gold coin under the name, when there is room for it
    coin_y = ty + 2
    cx = x0 + inner + badge // 2
    room = y1 - inner - badge - coin_y >= badge
    if cost is not None and room:
        ellipse(
            img, (cx - badge // 2, coin_y, cx - badge // 2 + badge, coin_y + badge), GOLD, INK, 1
        )
        cf = font("bold", max(7, round(badge * 0.6)))
        draw_text(img, (cx, coin_y + badge / 2 + 0.5), str(cost), cf, INK, "mm")
    marks: list[Image.Image] = []
    isz = max(8, round(badge * 0.7))
    if spied:
        marks.append(icon("eye", isz, RED))
    if free_attack:
        marks.append(icon("star", isz, GOLD))
    if not supplied:
        marks.append(icon("cancel", isz, RED))
    # the marks: beside the coin, or between the ATK and DEF badges
    by = y1 - inner - badge // 2 - 1
    mx = x1 - inner - isz
    my = coin_y + (badge - isz) // 2 if room else round(by - isz / 2)
    if not room:
        mx = round(w / 2 + (len(marks) * (isz + 1)) / 2 - isz)
    for m in marks:
        paste_rgba(img, m, (mx, my))
        mx -= isz + 1
    # ATK and DEF at the bottom
    _stat_badge(img, x0 + inner + badge / 2, by, atk, printed_atk, ATK_FILL, badge)
    _stat_badge(img, x1 - inner - badge / 2, by, dfn, printed_def, DEF_FILL, badge)
    if not supplied:
        dashed_frame(img, (x0 + 2, y0 + 2, x1 - 3, y1 - 3), RED, max(4, s // 3), 3, 2)
    out = img.convert("RGBA")
    out.putalpha(shell.getchannel("A"))
    return out


@render_cache(256)
def _name_lines(name: str, avail: int, size: int) -> tuple[int, tuple[str, ...]]:
    """(font size, line, ...) for a card name in ``avail`` pixels: one line
    at ``size`` if it fits, else two lines split at a space, else one line
    shrunk (down to 8 px) and cut."""
    smallest = max(8, round(size * 0.8))
    for sz in range(size, smallest - 1, -1):
        if text_width(font("condensed-bold", sz), name) <= avail:
            return sz, (name,)
    words = name.split(" ")
    if len(words) > 1:
        splits = [(" ".join(words[:k]), " ".join(words[k:])) for k in range(1, len(words))]
        for sz in range(size, 7, -1):
            fnt = font("condensed-bold", sz)
            best = min(splits, key=lambda p: max(text_width(fnt, p[0]), text_width(fnt, p[1])))
            if max(text_width(fnt, best[0]), text_width(fnt, best[1])) <= avail:
                return sz, best
    sz = smallest
    while sz > 8 and text_width(font("condensed-bold", sz), name) > avail:
        sz -= 1
    return sz, (fit_text(name, font("condensed-bold", sz), avail),)


def draw_terrain(
    img: Image.Image, box: Box, kind: str | None, controller: int, dfn: int, s: int
) -> None:
    pad = max(1, s // 10)
    b = (box[0] + pad, box[1] + pad, box[2] - pad, box[3] - pad)
    w, h = b[2] - b[0], b[3] - b[1]
    ctrl = seat_colour(controller) if controller >= 0 else TERRAIN_GREY
    if kind is None:
        paste_rgba(img, back_tile(w, h, ctrl), (b[0], b[1]))
    else:
        rounded(img, b, max(3, s // 3), TERRAIN_FACE, ctrl, max(2, s // 6))
        isz = round(min(w, h) * 0.5)
        paste_rgba(
            img,
            terrain_icon(kind, isz, darken(ctrl, 0.1)),
            ((b[0] + b[2] - isz) // 2, b[1] + max(3, s // 2)),
        )
        label = "Auberge" if kind == "inn" else "Avant-poste"
        fnt = font("condensed-bold", max(8, min(round(s * 0.55), 18)))
        label = fit_text(label, fnt, w - 6)
        draw_text(img, ((b[0] + b[2]) / 2, b[3] - max(3, s // 4)), label, fnt, INK, "md")
    if controller >= 0 and dfn:
        badge = max(10, min(round(s * 0.9), 28))
        _stat_badge(img, b[2] - badge / 2 - 2, b[1] + badge / 2 + 2, dfn, None, DEF_FILL, badge)


# ---------------------------------------------------------------------------
# The public board
# ---------------------------------------------------------------------------


def _decision_text(view: View, names: Sequence[str], locale: str) -> str:
    parts = []
    for seat, kind in view.pending:
        key = f"vb-render-phase-{kind}"
        what = i18n.translate(locale, key, pa=view.pa) if i18n.has(locale, key) else kind
        parts.append(f"{_name(names, seat, locale)} — {what}")
    if not parts:
        return _t(locale, "game-over")
    return " · ".join(parts)


def _public_action(action: str) -> str:
    """The last action without the name of a card summoned in ambush."""
    return re.sub(r"^\?[^@]*?(?=@| [A-Z]+[0-9]+[PL]?$)", "?", action)


def _rects(view: View) -> dict[str, tuple[int, int, int, int]]:
    out: dict[str, tuple[int, int, int, int]] = {}
    for c in view.castles:
        out[c.tag] = (c.x, c.y, c.w, c.h)
    for t in view.terrain:
        out[t.tag] = (t.x, t.y, t.w, t.h)
    for u in view.units:
        out[u.tag] = (u.x, u.y, u.w, u.h)
    return out


def render_board(view: object, names: Sequence[str], locale: str = "en") -> bytes:
    if not isinstance(view, View):
        raise TypeError(f"expected a Via Belli view, got {type(view).__name__}")
    return _to_png(board_image(view, names, locale))


def _to_png(img: Image.Image) -> bytes:
    from .common import to_png

    return to_png(img)


DETAIL_CELL = 34  # pixels per cell of the close-up of the last action
DETAIL_BELOW = 16  # a board drawn at fewer pixels per cell gets the close-up


def detail_area(view: View, cols: int, rows: int) -> tuple[int, int, int, int] | None:
    """The part of the table (at most ``cols`` x ``rows`` cells) around the
    cards the last action touched, or None when it touched none."""
    by_cell = {(r[0], r[1]): r for r in _rects(view).values()}
    boxes = [by_cell.get(c, (c[0], c[1], 1, 1)) for c in view.last_cells]
    if not boxes:
        return None
    cx = (min(b[0] for b in boxes) + max(b[0] + b[2] for b in boxes)) // 2
    cy = (min(b[1] for b in boxes) + max(b[1] + b[3] for b in boxes)) // 2
    w, h = min(cols, view.width), min(rows, view.height)
    x0 = min(max(0, cx - w // 2), view.width - w)
    y0 = min(max(0, cy - h // 2), view.height - h)
    return x0, y0, x0 + w, y0 + h


def board_image(
    view: View,
    names: Sequence[str],
    locale: str,
    cell: int | None = None,
    area: tuple[int, int, int, int] | None = None,
) -> Image.Image:
    """The board; ``cell``: pixels per cell of the whole table (default: only
    the part of the table in use, :func:`crop_area`, at :func:`board_cell`,
    with a close-up of the last action when that is small); ``area``: draw
    only that part of the table."""
    if cell is None:
        cx0, cy0, cx1, cy1 = crop_area(view)
        s = board_cell(cx1 - cx0, cy1 - cy0)
        if s < DETAIL_BELOW:
            return _with_detail(
                board_image(view, names, locale, s, (cx0, cy0, cx1, cy1)), view, names, locale
            )
    else:
        cx0, cy0, cx1, cy1 = area or (0, 0, view.width, view.height)
        s = cell
    table_w, table_h = (cx1 - cx0) * s, (cy1 - cy0) * s
    width = max(table_w + 2 * (MARGIN + LABEL), 900)
    result_h = 44 if view.phase == "over" else 0
    height = HEADER + table_h + 2 * LABEL + MARGIN + result_h + PANEL_H + MARGIN
    img = Image.new("RGB", (width, height), BG_BOTTOM)
    tx = (width - table_w) // 2
    ty = HEADER + LABEL
    grid = Grid(tx - cx0 * s, ty - cy0 * s, s)
    _header(img, view, names, locale, width)

    # the table: frame (dashed where the table goes on beyond the part shown), wood, grid
    frame = LABEL - 4
    rounded(
        img, (tx - frame, ty - frame, tx + table_w + frame, ty + table_h + frame), 10, WOOD_EDGE
    )
    img.paste(wood(table_w, table_h), (tx, ty))
    d = ImageDraw.Draw(img)
    line = mix(WOOD, WOOD_DARK, 0.3)
    for x in range(1, cx1 - cx0):
        d.line((tx + x * s, ty, tx + x * s, ty + table_h - 1), fill=line, width=1)
    for y in range(1, cy1 - cy0):
        d.line((tx, ty + y * s, tx + table_w - 1, ty + y * s), fill=line, width=1)
    _labels(img, view, Grid(tx, ty, s), (cx0, cy0, cx1, cy1))
    more = lighten(WOOD, 0.35)
    for side, cut in ((0, cx0 > 0), (1, cy0 > 0), (2, cx1 < view.width), (3, cy1 < view.height)):
        if cut:  # the table goes on: a dotted edge
            x_a, y_a = (
                (tx + table_w - 1, ty) if side == 2 else (tx, ty + table_h - 1 if side == 3 else ty)
            )
            horizontal = side in (1, 3)
            length = table_w if horizontal else table_h
            for k in range(0, length, 10):
                seg = (
                    (x_a + k, y_a, x_a + min(k + 5, length), y_a)
                    if horizontal
                    else (x_a, y_a + k, x_a, y_a + min(k + 5, length))
                )
                d.line(seg, fill=more, width=3)

    rects = _rects(view)
    # cups and obstacles
    for x, y, w, h in view.cups:
        b = grid.box(x, y, w, h)
        paste_rgba(img, cup_tile(b[2] - b[0], b[3] - b[1]), (b[0], b[1]))
    for x, y, w, h in view.obstacles:
        draw_ruin(img, grid.box(x, y, w, h), s)

    # castles
    for c in view.castles:
        if c.fallen and view.obstacles:
            continue
        b = grid.box(c.x, c.y, c.w, c.h)
        pad = max(1, s // 10)
        b = (b[0] + pad, b[1] + pad, b[2] - pad, b[3] - pad)
        colour = NEUTRAL if c.fallen else seat_colour(c.owner)
        rounded(img, b, max(3, s // 3), darken(colour, 0.15), lighten(colour, 0.45), max(2, s // 8))
        isz = round(min(b[2] - b[0], b[3] - b[1]) * 0.62)
        paste_rgba(
            img,
            castle_icon(isz, CARD_FACE),
            ((b[0] + b[2] - isz) // 2, (b[1] + b[3] - isz) // 2 - s // 3),
        )
        if c.dfn and not c.fallen:
            badge = max(10, min(round(s * 0.95), 30))
            cy = b[3] - max(2, s // 5) - badge / 2
            _stat_badge(img, (b[0] + b[2]) / 2, cy, c.dfn, None, DEF_FILL, badge)

    # terrain
    for t in view.terrain:
        draw_terrain(img, grid.box(t.x, t.y, t.w, t.h), t.kind, t.controller, t.dfn, s)

    # cards
    over = view.phase == "over"
    for u in view.units:
        draw_unit(img, u, grid.box(u.x, u.y, u.w, u.h), s, over)

    # supply links on top: a small bridge across the edge the two cards share
    for seat, tag_a, tag_b in view.supply:
        if tag_a in rects and tag_b in rects:
            _link(img, grid, rects[tag_a], rects[tag_b], seat_colour(seat))

    _highlights(img, view, grid, rects, s)
    y = ty + table_h + LABEL + 6
    if view.phase == "over":
        _result(img, view, names, locale, width, y)
        y += result_h
    _players(img, view, names, locale, width, y)
    return img


def _with_detail(board: Image.Image, view: View, names: Sequence[str], locale: str) -> Image.Image:
    """``board`` with, under it, a close-up of the cards the last action
    touched at DETAIL_CELL pixels per cell (the table is too large for its
    cards to be read in Discord's preview)."""
    s = DETAIL_CELL
    cols = (board.width - 2 * (MARGIN + LABEL)) // s
    area = detail_area(view, cols, min(12, view.height))
    if area is None:
        return board
    x0, y0, x1, y1 = area
    part = board_image(view, names, locale, s, area)
    table_w, table_h = (x1 - x0) * s, (y1 - y0) * s
    tx = (part.width - table_w) // 2
    ty = HEADER + LABEL
    crop = part.crop((tx - LABEL, ty - LABEL, tx + table_w + LABEL, ty + table_h + LABEL))
    caption = 34
    if board.height + caption + crop.height + MARGIN > MAX_SIDE:
        return board
    out = Image.new("RGB", (board.width, board.height + caption + crop.height + MARGIN), BG_BOTTOM)
    out.paste(board, (0, 0))
    text = _t(locale, "close-up")
    head = font("condensed-bold", 20)
    draw_text(out, (MARGIN + LABEL, board.height + caption / 2), text, head, TEXT, "lm")
    out.paste(crop, ((board.width - crop.width) // 2, board.height + caption))
    return out


def _link(
    img: Image.Image,
    grid: Grid,
    ra: tuple[int, int, int, int],
    rb: tuple[int, int, int, int],
    colour: RGB,
) -> None:
    s = grid.s
    ax0, ay0, aw, ah = ra
    bx0, by0, bw, bh = rb
    ax1, ay1, bx1, by1 = ax0 + aw, ay0 + ah, bx0 + bw, by0 + bh
    half = max(3, round(s * 0.4))
    thick = max(2, round(s * 0.16))
    if ax1 == bx0 or bx1 == ax0:  # side by side: a vertical shared edge
        vx = grid.x0 + (ax1 if ax1 == bx0 else ax0) * s
        lo, hi = max(ay0, by0), min(ay1, by1)
        vy = grid.y0 + (lo + hi) * s / 2
        box = (round(vx - half), round(vy - thick), round(vx + half), round(vy + thick))
    elif ay1 == by0 or by1 == ay0:  # one above the other
        ey = grid.y0 + (ay1 if ay1 == by0 else ay0) * s
        lo, hi = max(ax0, bx0), min(ax1, bx1)
        ex = grid.x0 + (lo + hi) * s / 2
        box = (round(ex - thick), round(ey - half), round(ex + thick), round(ey + half))
    else:  # not touching (a relay): a line between the centres
        pa, pb = grid.centre(*ra), grid.centre(*rb)
        d = ImageDraw.Draw(img)
        d.line((pa, pb), fill=darken(colour, 0.4), width=thick + 2)
        d.line((pa, pb), fill=lighten(colour, 0.3), width=max(1, thick - 2))
        return
    rounded(img, box, thick, lighten(colour, 0.35), darken(colour, 0.45), max(1, thick // 3))


def _labels(img: Image.Image, view: View, grid: Grid, area: tuple[int, int, int, int]) -> None:
    """Column letters and row numbers around the part ``area`` of the table,
    whose top-left cell is at ``grid``'s origin."""
    s = grid.s
    x0, y0, x1, y1 = area
    table_w, table_h = (x1 - x0) * s, (y1 - y0) * s
    size = max(8, min(16, round(s * 0.55)))
    fnt = font("condensed-bold", size)
    small = font("condensed-bold", max(7, size - 2))
    colour = (236, 222, 200)
    for x in range(x0, x1):
        label = view.columns[x]
        f = fnt if text_width(fnt, label) <= s + 2 else small
        cx = grid.x0 + (x - x0) * s + s / 2
        draw_text(img, (cx, grid.y0 - LABEL / 2 - 1), label, f, colour, "mm")
        draw_text(img, (cx, grid.y0 + table_h + LABEL / 2 + 1), label, f, colour, "mm")
    for y in range(y0, y1):
        cy = grid.y0 + (y - y0) * s + s / 2
        label = str(y + 1)
        f = fnt if text_width(fnt, label) <= LABEL - 2 else small
        draw_text(img, (grid.x0 - LABEL / 2 - 1, cy), label, f, colour, "mm")
        draw_text(img, (grid.x0 + table_w + LABEL / 2 + 1, cy), label, f, colour, "mm")


def _outline(img: Image.Image, box: Box, colour: RGB, width: int, radius: int) -> None:
    d = ImageDraw.Draw(img)
    d.rounded_rectangle(box, radius=radius, outline=colour, width=width)


def _highlights(
    img: Image.Image,
    view: View,
    grid: Grid,
    rects: dict[str, tuple[int, int, int, int]],
    s: int,
) -> None:
    w = max(2, s // 6)
    by_cell = {(r[0], r[1]): r for r in rects.values()}
    for x, y in view.last_cells:
        r = by_cell.get((x, y))
        if r is not None:
            b = grid.box(*r)
            _outline(img, (b[0] - 1, b[1] - 1, b[2], b[3]), GOLD, w + 1, max(3, s // 3))
        else:  # the spot a card left (a recall, a fallen card)
            b = grid.box(x, y, 1, 1)
            c = s // 2
            d = ImageDraw.Draw(img)
            d.ellipse(
                (b[0] - c // 2, b[1] - c // 2, b[2] + c // 2, b[3] + c // 2), outline=GOLD, width=w
            )
    sel = view.selection
    if sel is not None:
        for tag in (sel.unit, sel.via):
            if tag and tag in rects:
                b = grid.box(*rects[tag])
                _outline(img, (b[0] - 2, b[1] - 2, b[2] + 1, b[3] + 1), (255, 255, 255), w, s // 3)
    if view.combat is not None:
        fight = view.combat
        for tag in fight.attackers:
            if tag in rects:
                b = grid.box(*rects[tag])
                _outline(img, (b[0] - 2, b[1] - 2, b[2] + 1, b[3] + 1), (255, 140, 60), w, s // 3)
        if fight.target in rects:
            b = grid.box(*rects[fight.target])
            _outline(img, (b[0] - 3, b[1] - 3, b[2] + 2, b[3] + 2), RED, w + 2, s // 3)


def _header(img: Image.Image, view: View, names: Sequence[str], locale: str, width: int) -> None:
    title = font("bold", 26)
    body = font("condensed-bold", 20)
    x = MARGIN + 4
    name = i18n.translate(locale, "game-via-belli-name")
    draw_text(img, (x, 12), name, title, GOLD)
    x += text_width(title, name) + 16
    turn = _t(locale, "turn", n=max(1, view.turn))
    x += pill(img, x, 12, turn, body, (82, 62, 48), TEXT, 30) + 10
    if view.phase != "over":
        active = view.active
        who = _decision_text(view, names, locale)
        dot = 16
        ellipse(img, (x, 19, x + dot, 19 + dot), seat_colour(active), TEXT, 2)
        x += dot + 8
        draw_text(img, (x, 27), fit_text(who, body, width - x - MARGIN), body, TEXT, "lm")
    if view.last_action and view.last_seat >= 0:
        small = font("regular", 18)
        action = _public_action(view.last_action)
        text = _t(
            locale,
            "last-action",
            who=_name(names, view.last_seat, locale),
            action=clean_text(action),
        )
        y = 50
        rounded(img, (MARGIN + 4, y + 3, MARGIN + 16, y + 15), 3, GOLD)
        draw_text(
            img,
            (MARGIN + 24, y + 9),
            fit_text(text, small, width - 2 * MARGIN - 30),
            small,
            MUTED,
            "lm",
        )


def _result(
    img: Image.Image, view: View, names: Sequence[str], locale: str, width: int, y: int
) -> None:
    rounded(img, (MARGIN, y, width - MARGIN, y + 36), 12, (70, 54, 22), GOLD, 2)
    fnt = font("bold", 20)
    parts = []
    for place, group in enumerate(view.ranking, 1):
        who = " & ".join(_name(names, s, locale) for s in group)
        parts.append(f"{ordinal(place, locale)} {who}")
    reason = _t_or(locale, f"end-{view.end_reason}", view.end_reason)
    text = _t(locale, "result", reason=reason, places=" · ".join(parts))
    paste_rgba(img, icon("crown", 22, GOLD), (MARGIN + 12, y + 7))
    draw_text(
        img, (MARGIN + 42, y + 18), fit_text(text, fnt, width - 2 * MARGIN - 60), fnt, GOLD, "lm"
    )


def _players(
    img: Image.Image, view: View, names: Sequence[str], locale: str, width: int, y: int
) -> None:
    n = max(1, len(view.players))
    gap = 10
    box_w = (width - 2 * MARGIN - gap * (n - 1)) // n
    pending = {s for s, _ in view.pending}
    for i, p in enumerate(view.players):
        x = MARGIN + i * (box_w + gap)
        colour = seat_colour(p.seat)
        edge = GOLD if p.seat in pending else PANEL_EDGE
        rounded(img, (x, y, x + box_w, y + PANEL_H - 8), 12, PANEL, edge, 3 if edge == GOLD else 2)
        rounded(img, (x + 8, y + 10, x + 16, y + PANEL_H - 18), 3, colour)
        name = _name(names, p.seat, locale)
        nf = font("bold", 20)
        side = _t_or(locale, f"side-{p.side}", p.side)
        draw_text(img, (x + 26, y + 10), fit_text(name, nf, box_w - 140), nf, TEXT)
        sf = font("regular", 15)
        draw_text(img, (x + box_w - 12, y + 14), side, sf, MUTED, "ra")
        _player_line(img, p, x + 26, y + 40, box_w - 36, locale)
        if p.out:
            draw_text(img, (x + 26, y + 64), _t(locale, "eliminated"), font("bold", 16), RED)


def _player_line(img: Image.Image, p: PlayerView, x: int, y: int, avail: int, locale: str) -> None:
    fnt = font("condensed-bold", 16)
    items = [
        (_t(locale, "hand-count", n=p.hand_count), (84, 66, 52)),
        (_t(locale, "deck-count", n=p.deck_count), (84, 66, 52)),
        (_t(locale, "discard-count", n=len(p.discard)), (84, 66, 52)),
        (_t(locale, "cards-count", n=p.units), (84, 66, 52)),
    ]
    if p.inns:
        items.append((_t(locale, "inns", n=p.inns), (150, 104, 40)))
    if p.outposts:
        items.append((_t(locale, "outposts", n=p.outposts), (150, 104, 40)))
    cx, cy = x, y
    for text, fill in items:
        w = text_width(fnt, text) + 16
        if cx + w > x + avail:
            cx, cy = x, cy + 24
            if cy > y + 30:
                break
        pill(img, cx, cy, text, fnt, fill, TEXT, 22, 8)
        cx += w + 6


# ---------------------------------------------------------------------------
# The private image
# ---------------------------------------------------------------------------

PRIVATE_W = 1100
MENU_CODES = {
    "D": "draw",
    "+": "summon",
    ">": "move",
    "x": "attack",
    "^": "sorcery",
    "E": "end",
    "-": "back",
}


def card_key(name: str) -> str:
    """A card's name as a catalogue key part: ``Cabot à Couteau`` -> ``cabot-a-couteau``."""
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", ascii_name.lower()).strip("-")


def _card_info(view: View, name: str) -> CardInfo | None:
    for c in view.cards:
        if c.name == name:
            return c
    return None


def _hand_card(
    img: Image.Image,
    view: View,
    name: str,
    x: int,
    y: int,
    w: int,
    h: int,
    seat: int,
    locale: str,
) -> None:
    """A card of the hand: its shell pasted here (the rounded corners blend
    with the background), its face drawn once (:func:`_hand_face`, cached)
    and copied over all but the corners: the same pixels."""
    colour = seat_colour(seat)
    paste_rgba(img, card_shell(w, h, colour), (x, y))
    px, py = x % 2, y % 2
    face = _hand_face(name, _card_info(view, name), w, h, colour, locale, px, py)
    img.paste(face, (x - px, y - py), _inside_corners(w, h, card_radius(w), px, py))


@render_cache(64)
def _inside_corners(width: int, height: int, radius: int, px: int, py: int) -> Image.Image:
    """An ``L`` mask of a face tile: 255 on the card at ``(px, py)`` but in
    its four ``radius`` x ``radius`` corners, 0 elsewhere."""
    mask = Image.new("L", (width + 1, height + 1), 0)
    mask.paste(255, (px, py, px + width, py + height))
    r = min(radius, width // 2, height // 2)
    for cx, cy in ((0, 0), (width - r, 0), (0, height - r), (width - r, height - r)):
        mask.paste(0, (px + cx, py + cy, px + cx + r, py + cy + r))
    return mask


@render_cache(96)  # up to ~20 MB of tiles (210 KB each in memory)
def _hand_face(
    name: str,
    info: CardInfo | None,
    w: int,
    h: int,
    colour: RGB,
    locale: str,
    px: int,
    py: int,
) -> Image.Image:
    """A hand card's shell and face, the card at ``(px, py)`` (the parities
    of its place: half pixels round to even) of an RGB tile one pixel
    larger. Shared: never draw on it."""
    img = Image.new("RGB", (w + 1, h + 1), colour)
    x, y = px, py
    shell = card_shell(w, h, colour)
    img.paste(shell, (x, y), shell)
    pad = 20
    size = 20
    nf = font("condensed-bold", size)
    while size > 13 and text_width(nf, clean_text(name)) > w - 2 * pad:
        size -= 1
        nf = font("condensed-bold", size)
    draw_text(
        img, (x + w / 2, y + pad + 2), fit_text(clean_text(name), nf, w - 2 * pad), nf, INK, "ma"
    )
    if info is None:
        return img
    badge = 34
    ellipse(img, (x + pad, y + 42, x + pad + badge, y + 42 + badge), GOLD, INK, 2)
    draw_text(img, (x + pad + badge / 2, y + 59), str(info.ivk), font("bold", 20), INK, "mm")
    lab = font("condensed-bold", 14)
    draw_text(img, (x + pad + badge + 6, y + 59), _t(locale, "ivk"), lab, (110, 96, 80), "lm")
    if info.ability:
        ab = _t_or(locale, f"ability-{info.ability}", info.ability)
        draw_text(img, (x + w - pad, y + 59), fit_text(ab, lab, w // 2), lab, colour, "rm")
    effect = _t_or(locale, f"effect-{card_key(name)}", "")
    if not effect:
        effect = _t(locale, "no-ability")
    if effect:
        fnt, lines, lh = fit_paragraph(
            clean_text(effect, "regular"), "regular", w - 2 * pad, h - 150, (15, 14, 13, 12, 11)
        )
        draw_lines(img, x + pad, y + 86, lines, fnt, INK, lh)
    by = y + h - pad - badge // 2 - 2
    _stat_badge(img, x + pad + badge / 2, by, info.atk, None, ATK_FILL, badge)
    _stat_badge(img, x + w - pad - badge / 2, by, info.dfn, None, DEF_FILL, badge)
    draw_text(img, (x + pad + badge + 6, by), _t(locale, "atk"), lab, ATK_FILL, "lm")
    draw_text(img, (x + w - pad - badge - 6, by), _t(locale, "def"), lab, DEF_FILL, "rm")
    return img


def render_private(view: object, names: Sequence[str], locale: str = "en") -> bytes:
    if not isinstance(view, View):
        raise TypeError(f"expected a Via Belli view, got {type(view).__name__}")
    seat = view.observer
    if seat is None:
        return message_image(
            _t(locale, "spectator-title"),
            [_t(locale, "spectator-line1"), _t(locale, "spectator-line2")],
        )
    from .common import to_png

    return to_png(private_image(view, names, locale, seat))


def private_image(view: View, names: Sequence[str], locale: str, seat: int) -> Image.Image:
    me = view.players[seat]
    hand = me.hand or ()
    cols = 5
    cw, ch = 196, 270
    gap = 14
    rows = max(1, math.ceil(len(hand) / cols))
    body = font("condensed-bold", 17)
    choices = list(view.choices)
    shown = choices[:80]
    # lay the choice pills out first to know the height
    pills: list[tuple[int, int, str]] = []
    px, py = MARGIN + 8, 0
    for c in shown:
        text = clean_text(c)
        if c in MENU_CODES:
            text = f"{c}  {_t(locale, 'menu-' + MENU_CODES[c])}"
        w = text_width(body, text) + 20
        if px + w > PRIVATE_W - MARGIN - 8:
            px, py = MARGIN + 8, py + 32
        pills.append((px, py, text))
        px += w + 6
    more = len(choices) - len(shown)
    choices_h = (py + 32 if shown else 34) + (30 if more else 0)
    top = 70
    hand_h = rows * (ch + gap) if hand else 60
    height = top + hand_h + 50 + choices_h + MARGIN + 10
    img = canvas(PRIVATE_W, height, BG_TOP, BG_BOTTOM)
    colour = seat_colour(seat)
    title = font("bold", 26)
    rounded(img, (MARGIN, 18, MARGIN + 10, 50), 3, colour)
    who = _name(names, seat, locale)
    head = _t(locale, "hand-of", who=who)
    draw_text(img, (MARGIN + 22, 16), fit_text(head, title, 640), title, TEXT)
    info = font("condensed-bold", 18)
    stats = _t(locale, "deck-discard", deck=me.deck_count, discard=len(me.discard))
    if view.active == seat and view.phase != "over":
        stats = _t(locale, "pa-and", pa=view.pa, rest=stats)
    draw_text(img, (PRIVATE_W - MARGIN, 26), stats, info, MUTED, "ra")
    y = top
    if not hand:
        draw_text(img, (MARGIN + 8, y + 20), _t(locale, "empty-hand"), body, MUTED)
    for i, name in enumerate(hand):
        row, col = divmod(i, cols)
        x = MARGIN + 8 + col * (cw + gap)
        _hand_card(img, view, name, x, y + row * (ch + gap), cw, ch, seat, locale)
    y += hand_h + 10
    sub = font("bold", 20)
    label = _t(locale, "legal-actions" if choices else "nothing-to-choose")
    draw_text(img, (MARGIN + 8, y), label, sub, GOLD)
    y += 34
    for x, dy, text in pills:
        pill(img, x, y + dy, text, body, (84, 66, 52), TEXT, 26, 10)
    if more:
        extra = f"… +{more}"
        draw_text(img, (MARGIN + 8, y + py + 34), extra, body, MUTED)
    return img


# ---------------------------------------------------------------------------
# Ghost outlines: the legal spots of one card, numbered
# ---------------------------------------------------------------------------

GHOST: RGB = (250, 246, 236)
GHOST_CELL = 34  # pixels per cell of the zoomed table
# the spots' colours, told apart at a glance (neighbours never share one)
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


def _spot_rects(spots: Sequence[tuple[int, str]]) -> list[tuple[int, tuple[int, int, int, int]]]:
    """``(number, rect)`` of each placement notation (summons and moves)."""
    from engine.games.via_belli import GAME, Move, Summon, card_rect

    out = []
    for number, notation in spots:
        try:
            action = GAME.parse_action(notation)
        except ValueError:
            continue
        if isinstance(action, Summon | Move):
            r = card_rect(action.x, action.y, action.landscape)
            out.append((number, (r.x, r.y, r.w, r.h)))
    return out


def render_spots(
    view: object, names: Sequence[str], locale: str, spots: Sequence[tuple[int, str]]
) -> bytes | None:
    """The table with the given placements (``(number, notation)``: summons
    ``Roturier G11P`` or moves ``G11>G15L``) drawn as numbered ghost
    outlines, the numbers a host's choices carry; a moving card is circled
    in white. None when no notation is a placement. For the seat choosing
    only: the board itself shows public information."""
    if not isinstance(view, View):
        raise TypeError(f"expected a Via Belli view, got {type(view).__name__}")
    rects = _spot_rects(spots)
    if not rects:
        return None
    from engine.games.via_belli import GAME, Move

    s = GHOST_CELL
    img = board_image(view, names, locale, s)
    table_w = view.width * s
    grid = Grid((img.width - table_w) // 2, HEADER + LABEL, s)
    movers = set()
    for _, notation in spots:
        action = GAME.parse_action(notation)
        if isinstance(action, Move):
            movers.add((action.fx, action.fy))
    by_cell = {(x, y): (x, y, w, h) for x, y, w, h in _rects(view).values()}
    for cell in movers:
        if cell in by_cell:
            b = grid.box(*by_cell[cell])
            _outline(img, (b[0] - 3, b[1] - 3, b[2] + 2, b[3] + 2), GHOST, max(2, s // 6), s // 3)
    # each spot: a thin outline and a marker of its own colour, the marker on
    # the spot's top-left cell (its name, "G11"), shaped like the card (tall:
    # standing, wide: lying); when that cell is taken, the next free cell of
    # the spot nearest to it. Neighbouring spots get different colours.
    layer = Image.new("RGBA", img.size, (0, 0, 0, 0))
    d = ImageDraw.Draw(layer)
    inset = max(1, s // 8)
    colours = [SPOT_COLOURS[k % len(SPOT_COLOURS)] for k in range(len(rects))]
    for (_, r), colour in zip(rects, colours, strict=True):
        b = grid.box(*r)
        box = (b[0] + inset, b[1] + inset, b[2] - inset, b[3] - inset)
        d.rounded_rectangle(
            box, radius=max(3, s // 3), fill=(*colour, 18), outline=(*colour, 230), width=2
        )
    img.paste(layer, (0, 0), layer)
    fnt = font("condensed-bold", max(10, round(s * 0.5)))
    cells = marker_cells([r for _, r in rects])
    for (number, r), colour, cell in zip(rects, colours, cells, strict=True):
        w, h = r[2], r[3]
        b = grid.box(cell[0], cell[1], 1, 1)
        lying = w > h
        mw, mh = (s - 2, round(s * 0.74)) if lying else (round(s * 0.74), s - 2)
        mx, my = (b[0] + b[2] - mw) // 2, (b[1] + b[3] - mh) // 2
        rounded(img, (mx, my, mx + mw, my + mh), max(3, s // 6), colour, (255, 255, 255), 2)
        ink = INK if sum(colour) > 480 else (255, 255, 255)
        draw_text(img, (mx + mw / 2, my + mh / 2 + 0.5), str(number), fnt, ink, "mm")
    return _to_png(_zoom(img, view, grid, [r for _, r in rects], names, locale))


def marker_cells(rects: Sequence[tuple[int, int, int, int]]) -> list[tuple[int, int]]:
    """The cell of each spot's number marker: its top-left cell, or when an
    earlier spot's marker has it, the free cell of the spot nearest to it."""
    taken: set[tuple[int, int]] = set()
    out = []
    for x, y, w, h in rects:
        cells = sorted(
            ((cx, cy) for cx in range(x, x + w) for cy in range(y, y + h)),
            key=lambda c: (c[0] - x + c[1] - y, c[1], c[0]),
        )
        cell = next((c for c in cells if c not in taken), (x, y))
        taken.add(cell)
        out.append(cell)
    return out


def _zoom(
    img: Image.Image,
    view: View,
    grid: Grid,
    rects: Sequence[tuple[int, int, int, int]],
    names: Sequence[str],
    locale: str,
) -> Image.Image:
    """The part of the table around ``rects`` (3 cells more each way), with
    its coordinates on the edges and a line saying whose turn it is."""
    s = grid.s
    x0 = max(0, min(r[0] for r in rects) - 3)
    y0 = max(0, min(r[1] for r in rects) - 3)
    x1 = min(view.width, max(r[0] + r[2] for r in rects) + 3)
    y1 = min(view.height, max(r[1] + r[3] for r in rects) + 3)
    # at least 16 x 12 cells, so the spots are seen among their neighbours
    while x1 - x0 < 16 and (x0 > 0 or x1 < view.width):
        x0, x1 = max(0, x0 - 1), min(view.width, x1 + 1)
    while y1 - y0 < 12 and (y0 > 0 or y1 < view.height):
        y0, y1 = max(0, y0 - 1), min(view.height, y1 + 1)
    box = grid.box(x0, y0, x1 - x0, y1 - y0)
    top = 44
    out = Image.new("RGB", (box[2] - box[0] + 2 * LABEL, box[3] - box[1] + 2 * LABEL + top))
    out.paste(BG_BOTTOM, (0, 0, out.width, out.height))
    out.paste(img.crop(box), (LABEL, top + LABEL))
    fnt = font("condensed-bold", 14)
    colour = (236, 222, 200)
    for x in range(x0, x1):
        cx = LABEL + (x - x0) * s + s / 2
        label = view.columns[x]
        draw_text(out, (cx, top + LABEL / 2), label, fnt, colour, "mm")
        draw_text(out, (cx, out.height - LABEL / 2), label, fnt, colour, "mm")
    for y in range(y0, y1):
        cy = top + LABEL + (y - y0) * s + s / 2
        draw_text(out, (LABEL / 2, cy), str(y + 1), fnt, colour, "mm")
        draw_text(out, (out.width - LABEL / 2, cy), str(y + 1), fnt, colour, "mm")
    head = font("condensed-bold", 20)
    text = _decision_text(view, names, locale)
    draw_text(out, (LABEL, top / 2), fit_text(text, head, out.width - 2 * LABEL), head, TEXT, "lm")
    return out
