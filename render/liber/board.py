"""Chroniques de Liber images: the public board (header, banner, each
player's battlefield with its counters, the attack being declared, legend)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

import i18n
from engine.games.liber.model import LINES, PLACES, SideView

from ..common import (
    RGB,
    Box,
    darken,
    ellipse,
    fit_text,
    fit_with_names,
    font,
    icon,
    mix,
    pill,
    rotated_text,
    to_png,
)
from .context import Ctx, card_name, context, keyword_order, place_name, seat_colour, tr
from .layers import gradient, on_flat, paste_rgb, paste_rgba, rounded
from .style import (
    BG_BOTTOM,
    BG_TOP,
    BLUE,
    CELL_H,
    CELL_W,
    COIN,
    FAITH,
    FIELD,
    FIELD_EDGE,
    GAP,
    GOLD,
    GOLD_DARK,
    LABEL_W,
    MARGIN,
    MUTED,
    PANEL,
    PANEL_EDGE,
    RED,
    STATUS_MARKS,
    TEXT,
    VP,
    WHITE,
    WIDTH,
    draw_text,
    text_width,
    wrap_text,
)
from .tiles import counter_chip, empty_place, piece_tile, status_mark, sword

HEADER_H = 58
SIDE_HEAD_H = 78
PAIR_GAP = 14  # between two fronts that face each other
BLOCK_GAP = 26  # between two duels (3-4 players)
ROW_GAP = 6
FIELD_PAD = 8
LEGEND_FONT = font("regular", 18)
BANNER_HEAD = font("bold", 24)
BANNER_LINE = font("condensed-bold", 19)


@dataclass(frozen=True)
class _Field:
    """One battlefield's place on the image."""

    seat: int
    top: int
    front_first: bool  # front line drawn at the top (plaine at the bottom)

    @property
    def rows(self) -> tuple[int, ...]:
        """Line indices from top to bottom."""
        return (2, 1, 0) if self.front_first else (0, 1, 2)

    @property
    def height(self) -> int:
        return SIDE_HEAD_H + 3 * CELL_H + 2 * ROW_GAP + 2 * FIELD_PAD

    @property
    def grid_top(self) -> int:
        return self.top + FIELD_PAD + (0 if self.front_first else SIDE_HEAD_H)

    @property
    def head_top(self) -> int:
        return self.top + (self.height - SIDE_HEAD_H if self.front_first else 0)

    def cell(self, line: int, slot: int) -> Box:
        row = self.rows.index(line)
        x = MARGIN + LABEL_W + slot * (CELL_W + GAP)
        y = self.grid_top + row * (CELL_H + ROW_GAP)
        return (x, y, x + CELL_W, y + CELL_H)


def _layout(seats: Sequence[int], top: int) -> tuple[list[_Field], int]:
    """Battlefields stacked in duels: the first of a pair with its front at
    the bottom, the second with its front at the top, fronts facing (L1:
    plaine, arrière, front | front, arrière, plaine); a lone third player
    turns its front up towards the others."""
    fields: list[_Field] = []
    y = top
    for k, seat in enumerate(seats):
        second = k % 2 == 1 or (k == len(seats) - 1 and k > 0)
        if k > 0:
            y += PAIR_GAP if k % 2 == 1 else BLOCK_GAP
        field = _Field(seat, y, front_first=second)
        fields.append(field)
        y += field.height
    return fields, y


def render_board(view: object, names: Sequence[str], locale: str = "en") -> bytes:
    ctx = context(view, names, locale)
    v = ctx.view
    banner = _banner_lines(ctx)
    banner_h = 20 + 32 + 26 * (len(banner) - 1)
    fields, bottom = _layout([s.seat for s in v.sides], HEADER_H + banner_h + 12)
    legend = _legend_lines(ctx)
    height = bottom + 16 + 30 + 24 * len(legend) + 10
    img = gradient(WIDTH, height, BG_TOP, BG_BOTTOM)
    _header(img, ctx)
    _banner(img, ctx, banner, HEADER_H, banner_h)
    cells: dict[tuple[int, str], Box] = {}
    for field in fields:
        side = ctx.side(field.seat)
        if side is not None:
            _battlefield(img, ctx, side, field, cells)
    _combat(img, ctx, cells)
    _legend(img, ctx, legend, bottom + 16)
    return to_png(img)


# ---------------------------------------------------------------------------
# Header and banner
# ---------------------------------------------------------------------------


def _header(img: Image.Image, ctx: Ctx) -> None:
    v = ctx.view
    draw_text(img, (MARGIN + 2, 30), ctx.t("title"), font("bold", 28), TEXT, "lm")
    small = font("condensed-bold", 19)
    right = WIDTH - MARGIN
    if v.phase == "over":
        pill(img, right, 13, ctx.t("game-over"), small, GOLD, GOLD_DARK, 34, align="right")
        return
    steps = [(p, ctx.t(f"phase-{p}")) for p in ("placement", "attack", "end")]
    widths = [text_width(small, label) + 26 for _, label in steps]
    x = right - sum(widths) - 4 * (len(steps) - 1)
    for (key, label), w in zip(steps, widths, strict=True):
        on = key == v.phase
        rounded(img, (x, 13, x + w, 47), 9, GOLD if on else (52, 56, 72))
        draw_text(img, (x + w / 2, 30), label, small, GOLD_DARK if on else MUTED, "mm")
        x += w + 4
    x -= sum(widths) + 4 * len(steps) + 12
    pill(img, x, 13, ctx.t("turn", n=v.turn), small, (58, 62, 80), TEXT, 34, align="right")


def _banner_lines(ctx: Ctx) -> list[str]:
    """The headline (who plays, which phase, or who won) and the details:
    the open window, the attack being declared, other pending decisions."""
    v = ctx.view
    if v.phase == "over":
        winners = ctx.winners()
        who = ", ".join(ctx.name(s) for s in winners)
        head = ctx.t("winner", name=who, n=len(winners)) if winners else ctx.t("game-over")
        reason = f"reason-{v.end_reason}"
        lines = [head]
        if v.end_reason and i18n.has(ctx.lang, "lb-render-" + reason):
            lines.append(ctx.t(reason, faith=v.faith_to_win, vp=v.vp_to_win, gold=v.gold_to_win))
        return lines
    phase = v.phase if v.phase in ("placement", "attack", "end") else "placement"
    lines = [ctx.t(f"banner-{phase}", name=ctx.name(v.active))]
    if v.combat is not None:
        lines.append(_combat_text(ctx))
    for seat, kind in v.pending:
        line = pending_line(ctx, seat, kind)
        if line:
            lines.append(line)
    if v.first_round:
        lines.append(ctx.t("first-round"))
    return lines[:4]


def pending_line(ctx: Ctx, seat: int, kind: str) -> str:
    """What ``seat`` is deciding when it is more than its own turn's moves
    (a reaction window, a discard, a loyalty choice, a reclaim); "" for the
    active player's placement and attack."""
    v = ctx.view
    key = f"window-{v.window}" if kind == "react" and v.window else f"pending-{kind}"
    if i18n.has(ctx.lang, "lb-render-" + key):
        return ctx.t(key, name=ctx.name(seat))
    return ctx.t("pending", name=ctx.name(seat)) if seat != v.active else ""


def _combat_text(ctx: Ctx) -> str:
    c = ctx.view.combat
    assert c is not None
    attacker = ctx.piece_at(c.seat, c.attacker)
    who = card_name(attacker.card) if attacker is not None else "?"
    targets = []
    for seat, place, share in c.targets:
        piece = ctx.piece_at(seat, place)
        name = card_name(piece.card) if piece is not None else "?"
        label = f"{name} ({place_name(seat, place)})"
        targets.append(ctx.t("share", target=label, n=share) if len(c.targets) > 1 else label)
    text = ctx.t(
        "attack-line",
        attacker=f"{who} ({place_name(c.seat, c.attacker)})",
        targets=", ".join(targets),
    )
    if c.blocker and c.targets:
        seat = c.targets[0][0]
        piece = ctx.piece_at(seat, c.blocker)
        name = card_name(piece.card) if piece is not None else "?"
        text += " · " + ctx.t("blocked-by", blocker=f"{name} ({place_name(seat, c.blocker)})")
    return text


def _banner(img: Image.Image, ctx: Ctx, lines: list[str], top: int, height: int) -> None:
    v = ctx.view
    over = v.phase == "over"
    colour = GOLD if over else seat_colour(v.active)
    rounded(img, (MARGIN, top, WIDTH - MARGIN, top + height), 12, PANEL, PANEL_EDGE, 2)
    rounded(img, (MARGIN + 10, top + 12, MARGIN + 16, top + height - 12), 3, colour)
    x = MARGIN + 30
    if over:
        paste_rgba(img, icon("crown", 28, GOLD), (x, top + 12))
        x += 38
    width = WIDTH - MARGIN - 20 - x
    draw_text(
        img,
        (x, top + 26),
        fit_with_names(ctx.names, lines[0], BANNER_HEAD, width),
        BANNER_HEAD,
        GOLD if over else TEXT,
        "lm",
    )
    for k, line in enumerate(lines[1:]):
        y = top + 56 + 26 * k
        text = fit_with_names(ctx.names, line, BANNER_LINE, width)
        draw_text(img, (x, y), text, BANNER_LINE, MUTED if k else mix(TEXT, GOLD, 0.4), "lm")


# ---------------------------------------------------------------------------
# Battlefields
# ---------------------------------------------------------------------------


def _battlefield(
    img: Image.Image, ctx: Ctx, side: SideView, field: _Field, cells: dict[tuple[int, str], Box]
) -> None:
    colour = seat_colour(side.seat)
    box = (MARGIN, field.top, WIDTH - MARGIN, field.top + field.height)
    edge = mix(FIELD_EDGE, colour, 0.45)
    fill = darken(FIELD, 0.15) if side.out else FIELD
    rounded(img, box, 14, fill, edge, 2)
    _side_head(img, ctx, side, field.head_top, box, fill)
    pieces = {p.place: p for p in side.pieces}
    for line in range(3):
        _, y0, _, y1 = field.cell(line, 0)
        label = _line_label(ctx.lang, line)
        paste_rgba(
            img, label, (MARGIN + (LABEL_W - label.width) // 2 + 2, (y0 + y1 - label.height) // 2)
        )
        for slot in range(PLACES):
            place = f"{LINES[line]}{slot + 1}"
            cell = field.cell(line, slot)
            cells[(side.seat, place)] = cell
            piece = pieces.get(place)
            if piece is not None:
                paste_rgba(img, piece_tile(piece, ctx.lang, colour), (cell[0], cell[1]))
            elif on_flat(cell, box, 14):  # the panel's fill all around: a cached tile
                paste_rgb(img, _empty_tile(place, fill), (cell[0], cell[1]))
            else:  # over the panel's rounded corner
                empty_place(img, cell[0], cell[1], place, FIELD)


@lru_cache(maxsize=64)
def _empty_tile(place: str, under: RGB) -> Image.Image:
    """A free place drawn on a flat ``under`` (an opaque RGB tile)."""
    tile = Image.new("RGB", (CELL_W, CELL_H), under)
    empty_place(tile, 0, 0, place, FIELD)
    return tile


@lru_cache(maxsize=16)
def _line_label(lang: str, line: int) -> Image.Image:
    text = tr(lang, f"line-{LINES[line]}")
    return rotated_text(text, font("condensed-bold", 16), MUTED, 90)


def _side_head(
    img: Image.Image, ctx: Ctx, side: SideView, top: int, panel: Box, under: RGB
) -> None:
    v = ctx.view
    colour = seat_colour(side.seat)
    x = MARGIN + 14
    y = top + 8
    ellipse(img, (x, y, x + 32, y + 32), colour, WHITE, 2)
    draw_text(img, (x + 16, y + 17), str(side.seat + 1), font("bold", 19), WHITE, "mm")
    x += 42
    tags: list[tuple[str, RGB, RGB]] = []
    if side.seat in ctx.winners():
        tags.append((ctx.t("tag-winner"), GOLD, GOLD_DARK))
    elif side.out:
        tags.append((ctx.t("tag-out"), RED, WHITE))
    elif v.phase != "over":
        deciding = {seat for seat, _ in v.pending}
        if side.seat == v.active:
            on = side.seat in deciding or not deciding
            tags.append(
                (ctx.t("tag-active"), GOLD, GOLD_DARK)
                if on
                else (ctx.t("tag-turn"), (70, 74, 94), TEXT)
            )
        if side.seat in deciding and side.seat != v.active:
            tags.append((ctx.t("tag-react"), GOLD, GOLD_DARK))
    god_font = font("condensed-bold", 19)
    god = ctx.t("god", name=card_name(side.god)) if side.god else ctx.t("no-god")
    god_w = text_width(god_font, god) + 30
    tag_w = sum(text_width(god_font, t[0]) + 34 for t in tags)
    name_font = font("bold", 23)
    name = fit_text(ctx.name(side.seat), name_font, WIDTH - MARGIN - 20 - god_w - tag_w - x - 10)
    draw_text(img, (x, y + 17), name, name_font, TEXT, "lm")
    x += text_width(name_font, name) + 12
    for label, fill, ink in tags:
        x += pill(img, x, y + 3, label, god_font, fill, ink, 28) + 8
    right = WIDTH - MARGIN - 14
    fill = (96, 74, 28) if side.god else (52, 56, 72)
    pill(img, right, y + 3, god, god_font, fill, GOLD if side.god else MUTED, 28, align="right")
    _counters(img, ctx, side, top + 46, panel, under)


def _counters(img: Image.Image, ctx: Ctx, side: SideView, y: int, panel: Box, under: RGB) -> None:
    v = ctx.view
    items: list[tuple[RGB, str]] = [
        (COIN, ctx.t("gold", n=side.gold, income=side.income)),
        (FAITH, ctx.t("faith", n=side.faith, m=v.faith_to_win)),
        (VP, ctx.t("vp", n=side.vp, m=v.vp_to_win)),
        ((150, 150, 160), ctx.t("hand", n=side.hand_count)),
        ((110, 110, 125), ctx.t("deck", n=side.deck_count)),
        ((90, 84, 84), ctx.t("graveyard", n=len(side.graveyard))),
    ]
    fnt = font("condensed-bold", 18)
    x = MARGIN + 14
    for colour, text in items:
        if x + text_width(fnt, text) + 36 > WIDTH - MARGIN - 10:
            break
        chip = _chip_tile(colour, text, under)
        if on_flat((x, y, x + chip.width, y + chip.height), panel, 14):
            paste_rgb(img, chip, (x, y))
            x += chip.width + 8
        else:  # over the panel's rounded corner
            x += counter_chip(img, x, y, colour, text, fnt) + 8


@lru_cache(maxsize=256)
def _chip_tile(colour: RGB, text: str, under: RGB) -> Image.Image:
    """A counter chip drawn on a flat ``under`` (an opaque RGB tile)."""
    fnt = font("condensed-bold", 18)
    tile = Image.new("RGB", (text_width(fnt, text) + 36, 26), under)
    counter_chip(tile, 0, 0, colour, text, fnt)
    return tile


# ---------------------------------------------------------------------------
# The attack being declared
# ---------------------------------------------------------------------------


def _combat(img: Image.Image, ctx: Ctx, cells: dict[tuple[int, str], Box]) -> None:
    c = ctx.view.combat
    if c is None:
        return
    source = cells.get((c.seat, c.attacker))
    if source is None:
        return
    _ring(img, source, GOLD)
    blocked: Box | None = None
    if c.blocker and c.targets:
        blocked = cells.get((c.targets[0][0], c.blocker))
    for seat, place, share in c.targets:
        box = cells.get((seat, place))
        if box is None:
            continue
        _ring(img, box, RED, 3 if blocked else 5)
        if blocked is None:
            _arrow(img, source, box, RED)
        if len(c.targets) > 1:
            x, y = box[2] - 18, box[1] - 14
            ellipse(img, (x, y, x + 32, y + 32), RED, WHITE, 2)
            draw_text(img, (x + 16, y + 17), str(share), font("bold", 18), WHITE, "mm")
    if blocked is not None:
        _ring(img, blocked, BLUE)
        _arrow(img, source, blocked, BLUE)


def _ring(img: Image.Image, box: Box, colour: RGB, width: int = 5) -> None:
    """A coloured outline around a place (drawn over its edge)."""
    x0, y0, x1, y1 = box
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((x0 - 3, y0 - 3, x1 + 2, y1 + 2), radius=12, outline=colour, width=width)


def _edge_point(box: Box, towards: tuple[float, float]) -> tuple[float, float]:
    """Where the segment from the box's centre to ``towards`` leaves the box."""
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    dx, dy = towards[0] - cx, towards[1] - cy
    hw, hh = (box[2] - box[0]) / 2, (box[3] - box[1]) / 2
    scale = min(hw / abs(dx) if dx else math.inf, hh / abs(dy) if dy else math.inf)
    scale = min(scale, 1.0)
    return cx + dx * scale, cy + dy * scale


def _arrow(img: Image.Image, a: Box, b: Box, colour: RGB) -> None:
    """An arrow from box ``a``'s edge to box ``b``'s edge, anti-aliased."""
    ca = ((a[0] + a[2]) / 2, (a[1] + a[3]) / 2)
    cb = ((b[0] + b[2]) / 2, (b[1] + b[3]) / 2)
    if ca == cb:
        return
    p0 = _edge_point(a, cb)
    p1 = _edge_point(b, ca)
    if math.dist(p0, p1) < 18:  # neighbours: from the centre to the edge
        p0 = ca
    x0 = int(min(p0[0], p1[0])) - 30
    y0 = int(min(p0[1], p1[1])) - 30
    x1 = int(max(p0[0], p1[0])) + 30
    y1 = int(max(p0[1], p1[1])) + 30
    outline = _arrow_mask(
        (round(p0[0] - x0), round(p0[1] - y0)),
        (round(p1[0] - x0), round(p1[1] - y0)),
        (x1 - x0, y1 - y0),
        13,
    )
    core = _arrow_mask(
        (round(p0[0] - x0), round(p0[1] - y0)),
        (round(p1[0] - x0), round(p1[1] - y0)),
        (x1 - x0, y1 - y0),
        7,
    )
    img.paste(darken(colour, 0.6), (x0, y0, x1, y1), outline)
    img.paste(colour, (x0, y0, x1, y1), core)


@lru_cache(maxsize=64)
def _arrow_mask(
    p0: tuple[int, int], p1: tuple[int, int], size: tuple[int, int], width: int
) -> Image.Image:
    s = 3
    big = Image.new("L", (size[0] * s, size[1] * s), 0)
    d = ImageDraw.Draw(big)
    dx, dy = p1[0] - p0[0], p1[1] - p0[1]
    length = math.hypot(dx, dy) or 1.0
    ux, uy = dx / length, dy / length
    head = 14 + width
    bx, by = p1[0] - ux * head, p1[1] - uy * head
    d.line((p0[0] * s, p0[1] * s, bx * s, by * s), fill=255, width=width * s)
    half = head * 0.7
    d.polygon(
        [
            (p1[0] * s + ux * width * s * 0.3, p1[1] * s + uy * width * s * 0.3),
            ((bx - uy * half) * s, (by + ux * half) * s),
            ((bx + uy * half) * s, (by - ux * half) * s),
        ],
        fill=255,
    )
    return big.resize(size, Image.Resampling.LANCZOS)


# ---------------------------------------------------------------------------
# Legend
# ---------------------------------------------------------------------------


def _board_keywords(ctx: Ctx) -> list[str]:
    found: list[str] = []
    for side in ctx.view.sides:
        for piece in side.pieces:
            found += piece.keywords
    return keyword_order(found)


def _legend_lines(ctx: Ctx) -> list[str]:
    words = [
        ctx.t("legend-kw", abbr=ctx.t(f"kwa-{k}"), name=ctx.t(f"kw-{k}"))
        for k in _board_keywords(ctx)
    ]
    if not words:
        return []
    return wrap_text(" · ".join(words), LEGEND_FONT, WIDTH - 2 * MARGIN - 10)


def _legend(img: Image.Image, ctx: Ctx, lines: list[str], top: int) -> None:
    """The status marks (always) and the keywords on the board."""
    x = MARGIN + 4
    fnt = LEGEND_FONT
    marks = [(k, ctx.t(f"status-{k}")) for k in STATUS_MARKS]
    paste_rgba(img, sword(18, TEXT), (x, top + 4))
    x += 24
    draw_text(img, (x, top + 13), ctx.t("legend-force"), fnt, MUTED, "lm")
    x += text_width(fnt, ctx.t("legend-force")) + 18
    draw_text(img, (x, top + 13), "♥", font("bold", 19), TEXT, "lm")
    x += 24
    draw_text(img, (x, top + 13), ctx.t("legend-pv"), fnt, MUTED, "lm")
    x += text_width(fnt, ctx.t("legend-pv")) + 18
    for kind, label in marks:
        status_mark(img, kind, x, top + 2, 22)
        x += 27
        draw_text(img, (x, top + 13), label, fnt, MUTED, "lm")
        x += text_width(fnt, label) + 16
    for k, line in enumerate(lines):
        draw_text(img, (MARGIN + 4, top + 30 + 24 * k + 12), line, fnt, MUTED, "lm")
