"""Belle Position images: the layout of a position's cards."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image

from engine.games.belle_position import (
    CardView,
    PositionView,
    View,
)

from ..common import (
    CARD_FACE,
    INK,
    RGB,
    Box,
    Font,
    dashed_frame,
    ellipse,
    fit_text,
    font,
    icon,
    lighten,
    mix,
    pill,
    rounded_mask,
)
from ..liber.layers import paste_rgba
from ..liber.layers import rounded as _rrect
from .cards import (
    _card_h,
    _firepower,
    _hidden_stack,
    _radius,
    _stack_width,
    _unit_card,
    _wrap_words,
    glyph,
)
from .context import (
    _Ctx,
    _public_side,
)
from .style import (
    ATTACK,
    BOX_W,
    CARD_W,
    DEFENCE,
    FELT,
    FELT_EDGE,
    GOLD,
    GOLD_DARK,
    MUTED,
    NEUTRAL,
    RED,
    SHADOW,
    TERRAIN_COLOURS,
    TEXT,
    TOKEN,
    WHITE,
    draw_text,
    text_width,
)

# ---------------------------------------------------------------------------
# Board layout: positions
# ---------------------------------------------------------------------------

TITLE_H = 38
STRIP_H = 28
CARD_GAP = 8
BLOCK_GAP = 14
BOX_PAD = 10
AVAIL = BOX_W - 2 * BOX_PAD
CARD_SIZES = (CARD_W, 96, 88)


@dataclass(frozen=True)
class _Block:
    """One side's cards in one position, as the public sees them."""

    seat: int
    general: CardView | None
    units: tuple[CardView, ...]
    hidden: int
    status: str
    count: int
    capacity: int


def _general_w(width: int) -> int:
    return round(width * 0.8)


def _item_widths(block: _Block, width: int) -> list[int]:
    """Widths of a block's items at card width ``width``: the general, the
    face-up units, the stack of face-down cards."""
    out = []
    if block.general is not None:
        out.append(_general_w(width))
    out += [width] * len(block.units)
    if block.hidden:
        out.append(_stack_width(block.hidden, width))
    return out


def _strip_min(ctx: _Ctx, block: _Block) -> int:
    return 20 + text_width(STRIP_FONT, _strip_text(ctx, block, short=True)) + 12


def _strip_text(ctx: _Ctx, block: _Block, short: bool) -> str:
    status = ctx.t(block.status) if block.status in ("attack", "defence") else block.status
    count = f"{block.count}/{block.capacity}"
    if short:
        return f"{status} {count}"
    return f"{ctx.side_name(block.seat)} {status} {count}"


STRIP_FONT = font("condensed-bold", 17)


def _row_width(widths: Sequence[int]) -> int:
    return sum(widths) + CARD_GAP * max(0, len(widths) - 1)


@dataclass(frozen=True)
class _Layout:
    """How a position's blocks are placed: side by side on one row, or one
    under the other (each possibly on several rows of cards)."""

    width: int  # card width
    side_by_side: bool
    rows: tuple[tuple[tuple[int, ...], ...], ...]  # per block: rows of item indices

    def block_height(self, index: int) -> int:
        rows = self.rows[index]
        body = len(rows) * _card_h(self.width) + (len(rows) - 1) * CARD_GAP if rows else 22
        return STRIP_H + 6 + body

    @property
    def height(self) -> int:
        if not self.rows:
            return 0
        if self.side_by_side:
            return max(self.block_height(i) for i in range(len(self.rows)))
        return sum(self.block_height(i) for i in range(len(self.rows))) + 10 * (len(self.rows) - 1)


def _layout(ctx: _Ctx, blocks: Sequence[_Block]) -> _Layout:
    if not blocks:
        return _Layout(CARD_W, False, ())
    for width in CARD_SIZES:
        total = sum(
            max(_row_width(_item_widths(b, width)), _strip_min(ctx, b)) for b in blocks
        ) + BLOCK_GAP * (len(blocks) - 1)
        if total <= AVAIL:
            single = tuple((tuple(range(len(_item_widths(b, width)))),) for b in blocks)
            return _Layout(width, len(blocks) > 1, single)
    # one block under the other, each as wide as it can be
    width = CARD_SIZES[-1]
    for candidate in CARD_SIZES:
        if all(_row_width(_item_widths(b, candidate)) <= AVAIL for b in blocks):
            width = candidate
            break
    per_block: list[tuple[tuple[int, ...], ...]] = []
    for b in blocks:
        rows: list[tuple[int, ...]] = []
        row: list[int] = []
        used = 0
        for i, w in enumerate(_item_widths(b, width)):
            need = w + (CARD_GAP if row else 0)
            if row and used + need > AVAIL:
                rows.append(tuple(row))
                row, used, need = [], 0, w
            row.append(i)
            used += need
        if row:
            rows.append(tuple(row))
        per_block.append(tuple(rows))
    return _Layout(width, False, tuple(per_block))


def _blocks(view: View, pos: PositionView) -> list[_Block]:
    owner = pos.line
    out = []
    for seat in (owner, 1 - owner):
        side = pos.sides[seat] if seat < len(pos.sides) else None
        if side is None:
            continue
        units, hidden = _public_side(side)
        if side.general is None and not units and not hidden:
            continue
        out.append(
            _Block(seat, side.general, units, hidden, side.status, side.count, side.capacity)
        )
    return out


def _box_height(ctx: _Ctx, pos: PositionView) -> int:
    if ctx.view.phase == "deploy":
        return TITLE_H + 66
    blocks = _blocks(ctx.view, pos)
    if not blocks:
        return TITLE_H + 66
    return TITLE_H + 8 + _layout(ctx, blocks).height + 12


def _draw_position(img: Image.Image, ctx: _Ctx, pos: PositionView, box: Box, mover: str) -> None:
    v = ctx.view
    x0, y0, x1, _ = box
    owner = pos.line
    colour = ctx.colour(owner)
    fighting = v.phase in ("combat", "allocate") and v.combat_at == pos.index
    edge = GOLD if fighting else mix(FELT_EDGE, colour, 0.35)
    _rrect(img, box, 16, FELT, edge, 4 if fighting else 2)
    # title: code, terrain, name when there is room, flags
    tb = (x0 + 2, y0 + 2, x1 - 2, y0 + TITLE_H)
    title_fill = mix(FELT, colour, 0.45)
    _rrect(img, tb, 14, title_fill)
    img.paste(title_fill, (tb[0], tb[3] - 14, tb[2], tb[3]))
    code_font = font("bold", 21)
    x = x0 + 8
    x += pill(img, x, y0 + 6, pos.code, code_font, colour, WHITE, TITLE_H - 10, pad=9) + 8
    flags: list[tuple[str, RGB, RGB]] = []
    if v.phase != "deploy":
        if pos.conquered:
            flags.append((ctx.t("conquered"), RED, WHITE))
        if pos.engaged:
            flags.append((ctx.t("engaged"), GOLD, GOLD_DARK))
        if fighting:
            flags.append((ctx.t("combat_here"), (230, 126, 34), WHITE))
        elif pos.index in v.closed and v.phase in ("combat", "allocate"):
            flags.append((ctx.t("closed"), (70, 84, 80), MUTED))
    fx = x1 - 8
    flag_font = font("condensed-bold", 16)
    for text_, fill, ink in flags:
        fx -= pill(img, fx, y0 + 9, text_, flag_font, fill, ink, TITLE_H - 16, pad=8, align="right")
        fx -= 6
    terrain = pos.terrain if v.phase != "deploy" else ()
    for card in terrain:
        x += _terrain_chip(img, card, x, y0 + 7, TITLE_H - 12) + 6
    name_font = font("condensed-bold", 19)
    name = ctx.pos_name(pos.index)
    if fx - x - 6 >= text_width(name_font, name) or (not terrain and fx - x > 60):
        draw_text(
            img,
            (x + 2, y0 + TITLE_H / 2 + 1),
            fit_text(name, name_font, fx - x - 6),
            name_font,
            TEXT,
            "lm",
        )
    y = y0 + TITLE_H + 8
    if v.phase == "deploy":
        _placeholder(img, (x0 + BOX_PAD, y, x1 - BOX_PAD, y + 50), ctx.t("secret"))
        return
    blocks = _blocks(v, pos)
    if not blocks:
        _placeholder(img, (x0 + BOX_PAD, y, x1 - BOX_PAD, y + 50), ctx.t("empty"))
        return
    layout = _layout(ctx, blocks)
    bx = x0 + BOX_PAD
    for i, block in enumerate(blocks):
        widths = _item_widths(block, layout.width)
        if layout.side_by_side:
            right = bx + max(_row_width(widths), _strip_min(ctx, block))
            if i == len(blocks) - 1:
                right = x1 - BOX_PAD
            _draw_block(img, ctx, block, layout, i, bx, y, right, mover)
            bx = right + BLOCK_GAP
        else:
            _draw_block(img, ctx, block, layout, i, bx, y, x1 - BOX_PAD, mover)
            y += layout.block_height(i) + 10


def _terrain_chip(img: Image.Image, card: CardView, x: int, y: int, h: int) -> int:
    colour = TERRAIN_COLOURS.get(card.type, NEUTRAL)
    fnt = font("condensed-bold", 17)
    w = 8 + h - 4 + 4 + text_width(fnt, card.name) + 10
    _rrect(img, (x, y, x + w, y + h), h // 2, colour)
    paste_rgba(img, glyph(card.type, h - 8, h - 10, WHITE), (x + 8, y + 5))
    draw_text(img, (x + 8 + h - 4, y + h / 2 + 1), card.name, fnt, WHITE, "lm")
    return w


def _placeholder(img: Image.Image, box: Box, text_: str) -> None:
    colour = mix(FELT, TEXT, 0.3)
    _rrect(img, box, 10, mix(FELT, (0, 0, 0), 0.15))
    dashed_frame(img, (box[0] + 6, box[1] + 6, box[2] - 6, box[3] - 6), colour, width=2)
    draw_text(
        img,
        ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2),
        text_,
        font("condensed-bold", 20),
        colour,
        "mm",
    )


def _draw_block(
    img: Image.Image,
    ctx: _Ctx,
    block: _Block,
    layout: _Layout,
    index: int,
    x0: int,
    y: int,
    x1: int,
    mover: str,
) -> None:
    colour = ctx.colour(block.seat)
    # strip: side colour and flag, status, grouping count (cards / limit)
    _rrect(img, (x0, y, x1, y + STRIP_H), 8, mix(FELT, colour, 0.75))
    img.paste(ctx.accent(block.seat), (x0 + 6, y + 6, x0 + 12, y + STRIP_H - 6))
    x = x0 + 20
    full = _strip_text(ctx, block, short=False)
    show_side = text_width(STRIP_FONT, full) + 32 <= x1 - x0
    if show_side:
        side = ctx.side_name(block.seat)
        draw_text(img, (x, y + STRIP_H / 2 + 1), side, STRIP_FONT, WHITE, "lm")
        x += text_width(STRIP_FONT, side) + 6
    status = ctx.t(block.status) if block.status in ("attack", "defence") else block.status
    st_colour = lighten(ATTACK, 0.35) if block.status == "attack" else lighten(DEFENCE, 0.55)
    draw_text(img, (x, y + STRIP_H / 2 + 1), status, STRIP_FONT, st_colour, "lm")
    x += text_width(STRIP_FONT, status) + 6
    count = f"{block.count}/{block.capacity}"
    over = block.count > block.capacity
    draw_text(
        img, (x, y + STRIP_H / 2 + 1), count, STRIP_FONT, lighten(RED, 0.3) if over else WHITE, "lm"
    )
    # cards
    top = y + STRIP_H + 6
    rows = layout.rows[index]
    if not rows:
        draw_text(img, (x0 + 8, top + 10), ctx.t("no_units"), font("regular", 17), MUTED, "lm")
        return
    width = layout.width
    height = _card_h(width)
    widths = _item_widths(block, width)
    offset = 1 if block.general is not None else 0
    for r, row in enumerate(rows):
        cx = x0
        cy = top + r * (height + CARD_GAP)
        for i in row:
            if block.general is not None and i == 0:
                _general_card(
                    img, ctx, block.general, block.status, block.seat, cx, cy, width, mover
                )
            elif i - offset < len(block.units):
                card = block.units[i - offset]
                _unit_card(img, ctx, card, block.seat, cx, cy, width, highlight=card.uid == mover)
            else:
                _hidden_stack(img, ctx, block.seat, block.hidden, cx, cy, width)
            cx += widths[i] + CARD_GAP


def _general_card(
    img: Image.Image,
    ctx: _Ctx,
    general: CardView,
    status: str,
    seat: int,
    x: int,
    y: int,
    card_width: int,
    mover: str,
) -> None:
    width = _general_w(card_width)
    height = _card_h(card_width)
    radius = _radius(width)
    if general.uid == mover:
        _rrect(img, (x - 5, y - 5, x + width + 5, y + height + 5), radius + 5, GOLD)
    else:
        _rrect(img, (x + 1, y + 3, x + width + 1, y + height + 3), radius, SHADOW)
    tile = _general_tile(general, status, width, height, ctx.colour(seat), ctx.accent(seat))
    paste_rgba(img, tile, (x, y))


@lru_cache(maxsize=128)
def _general_tile(
    card: CardView, status: str, width: int, height: int, colour: RGB, accent: RGB
) -> Image.Image:
    """A general: star, handle, name, A / D (the one in force lit), rally
    bonus, loss tokens (a 6 on the cohesion test kills)."""
    radius = _radius(width)
    img = Image.new("RGB", (width, height), accent)
    band_h = round(height * 0.24)
    _rrect(img, (3, 3, width - 3, height - 3), max(2, radius - 3), colour)
    border = 5
    _rrect(
        img, (border, band_h, width - border, height - border), max(2, radius - border), CARD_FACE
    )
    star = round(band_h * 0.6)
    paste_rgba(img, icon("star", star, GOLD), (border + 2, (band_h - star) // 2 + 1))
    uid_font = font("bold", max(10, round(width * 0.16)))
    draw_text(img, (width - border - 2, band_h / 2 + 1), card.uid, uid_font, WHITE, "rm")
    inner_w = width - 2 * border - 4
    name_h = round(height * 0.36)
    best: tuple[Font, int, list[str]] | None = None
    for size in (15, 14, 13, 12, 11):
        fnt = font("condensed-bold", size)
        lines = _wrap_words(card.name, fnt, inner_w)
        if lines and len(lines) <= 3 and len(lines) * round(size * 1.08) <= name_h:
            best = (fnt, size, lines)
            break
    if best is None:
        fnt = font("condensed-bold", 11)
        best = (fnt, 11, [fit_text(card.name, fnt, inner_w)])
    fnt, size, lines = best
    line_h = round(size * 1.08)
    ty = band_h + 4 + max(0, (name_h - len(lines) * line_h) // 2)
    for k, line in enumerate(lines):
        draw_text(img, (width / 2, ty + k * line_h), line, fnt, INK, "ma")
    fp_top = round(height * 0.64)
    fp_h = round(height * 0.16)
    items = [
        ("A", card.attack, status == "attack"),
        ("D", card.defence, status == "defence"),
    ]
    _firepower(img, items, width // 2, fp_top, fp_h, inner_w, colour)
    bottom = height - border - 3
    row_h = round(height * 0.13)
    row_y = bottom - row_h
    tx = border + 3
    t = min(row_h, 14)
    for _ in range(card.tokens):
        ellipse(
            img,
            (tx, row_y + (row_h - t) // 2, tx + t, row_y + (row_h - t) // 2 + t),
            TOKEN,
            WHITE,
            2,
        )
        tx += t + 1
    if card.rally:
        rf = font("bold", max(10, round(width * 0.15)))
        draw_text(img, (width - border - 3, row_y + row_h / 2), f"+{card.rally}", rf, colour, "rm")
    out = img.convert("RGBA")
    out.putalpha(rounded_mask(width, height, radius))
    return out
