"""Belle Position images: glyphs (unit symbols, terrain and special pictograms,
dice) and cards."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from engine.games.belle_position import (
    CardView,
)

from ..common import (
    CARD_FACE,
    INK,
    RGB,
    Box,
    Font,
    darken,
    ellipse,
    fit_text,
    font,
    lighten,
    mix,
    rounded_mask,
)
from ..liber.layers import paste_rgba
from ..liber.layers import rounded as _rrect
from .context import (
    _Ctx,
    _tr,
)
from .style import (
    CARD_RATIO,
    GOLD,
    SHADOW,
    TOKEN,
    WHITE,
    draw_text,
    text_width,
)

# ---------------------------------------------------------------------------
# Glyphs: unit symbols, terrain and special pictograms, dice
# ---------------------------------------------------------------------------

_SS = 4


@lru_cache(maxsize=256)
def glyph(name: str, width: int, height: int, colour: RGB) -> Image.Image:
    """An RGBA pictogram: NATO-style unit symbols (``infantry``, ``cavalry``,
    ``artillery``, ``mitrailleuse``), terrain (``bois``, ``hauteur``,
    ``bourg``), specials (``ralliement``, ``retranchements``,
    ``marche-forcee``), ``swords``, ``arrow``."""
    w, h = width * _SS, height * _SS
    big = Image.new("L", (w, h), 0)
    d = ImageDraw.Draw(big)
    lw = max(_SS, round(min(w, h) * 0.11))
    if name in ("infantry", "cavalry", "artillery", "mitrailleuse"):
        half = lw / 2
        d.rectangle((half, half, w - half - 1, h - half - 1), outline=255, width=lw)
        if name == "infantry":
            d.line((lw, lw, w - lw, h - lw), fill=255, width=lw)
            d.line((lw, h - lw, w - lw, lw), fill=255, width=lw)
        elif name == "cavalry":
            d.line((lw, h - lw, w - lw, lw), fill=255, width=lw)
        else:
            r = h * 0.2
            d.ellipse((w / 2 - r, h / 2 - r, w / 2 + r, h / 2 + r), fill=255)
            if name == "mitrailleuse":
                d.line((w * 0.2, h / 2, w * 0.8, h / 2), fill=255, width=lw)
                d.line((w * 0.2, h * 0.3, w * 0.2, h * 0.7), fill=255, width=lw)
                d.line((w * 0.8, h * 0.3, w * 0.8, h * 0.7), fill=255, width=lw)
    elif name == "bois":
        for cx, top, scale in ((0.3, 0.12, 0.9), (0.68, 0.0, 1.0)):
            tw = w * 0.42 * scale
            d.polygon(
                [(w * cx, h * top), (w * cx - tw / 2, h * 0.78), (w * cx + tw / 2, h * 0.78)],
                fill=255,
            )
            d.rectangle((w * cx - w * 0.04, h * 0.7, w * cx + w * 0.04, h), fill=255)
    elif name == "hauteur":
        d.polygon(
            [(0, h), (w * 0.38, h * 0.18), (w * 0.6, h * 0.5), (w * 0.72, h * 0.34), (w, h)],
            fill=255,
        )
    elif name == "bourg":
        d.polygon([(w * 0.08, h * 0.45), (w * 0.5, h * 0.05), (w * 0.92, h * 0.45)], fill=255)
        d.rectangle((w * 0.18, h * 0.45, w * 0.82, h), fill=255)
        d.rectangle((w * 0.42, h * 0.64, w * 0.58, h), fill=0)
    elif name == "ralliement":
        d.rectangle((w * 0.16, h * 0.04, w * 0.16 + lw, h), fill=255)
        d.polygon([(w * 0.2, h * 0.06), (w * 0.92, h * 0.26), (w * 0.2, h * 0.5)], fill=255)
    elif name == "retranchements":
        d.polygon([(0, h), (w * 0.18, h * 0.45), (w * 0.82, h * 0.45), (w, h)], fill=255)
        for k in range(4):
            x = w * (0.22 + k * 0.19)
            d.polygon([(x, h * 0.45), (x + w * 0.06, h * 0.08), (x + w * 0.12, h * 0.45)], fill=255)
    elif name == "marche-forcee":
        for off in (0.0, 0.4):
            d.polygon(
                [
                    (w * (0.05 + off), h * 0.1),
                    (w * (0.3 + off), h * 0.1),
                    (w * (0.58 + off), h * 0.5),
                    (w * (0.3 + off), h * 0.9),
                    (w * (0.05 + off), h * 0.9),
                    (w * (0.33 + off), h * 0.5),
                ],
                fill=255,
            )
    elif name == "swords":
        d.line((w * 0.12, h * 0.12, w * 0.88, h * 0.88), fill=255, width=lw)
        d.line((w * 0.88, h * 0.12, w * 0.12, h * 0.88), fill=255, width=lw)
        for x0, y0, x1, y1 in ((0.12, 0.62, 0.38, 0.88), (0.62, 0.62, 0.88, 0.88)):
            d.line((w * x0, h * y1, w * x1, h * y0), fill=255, width=lw)
    elif name == "arrow":
        d.line((w * 0.08, h / 2, w * 0.7, h / 2), fill=255, width=lw)
        d.polygon([(w * 0.55, h * 0.15), (w * 0.95, h / 2), (w * 0.55, h * 0.85)], fill=255)
    mask = big.resize((width, height), Image.Resampling.LANCZOS)
    tile = Image.new("RGBA", (width, height), (*colour, 0))
    tile.putalpha(mask)
    return tile


_PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0.5, 0.5),),
    2: ((0.27, 0.27), (0.73, 0.73)),
    3: ((0.27, 0.27), (0.5, 0.5), (0.73, 0.73)),
    4: ((0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)),
    5: ((0.27, 0.27), (0.73, 0.27), (0.5, 0.5), (0.27, 0.73), (0.73, 0.73)),
    6: ((0.27, 0.25), (0.73, 0.25), (0.27, 0.5), (0.73, 0.5), (0.27, 0.75), (0.73, 0.75)),
}


@lru_cache(maxsize=256)
def die_face(value: int, size: int, fill: RGB, pip: RGB, edge: RGB) -> Image.Image:
    """An RGBA die showing ``value`` (1-6) with pips."""
    tile = Image.new("RGB", (size, size), edge)
    radius = max(3, size // 5)
    border = max(2, size // 16)
    _rrect(tile, (border, border, size - border, size - border), radius - border // 2, fill)
    r = max(2, round(size * 0.085))
    for px, py in _PIPS.get(value, ()):
        cx, cy = round(size * px), round(size * py)
        ellipse(tile, (cx - r, cy - r, cx + r + 1, cy + r + 1), pip)
    out = tile.convert("RGBA")
    out.putalpha(rounded_mask(size, size, radius))
    return out


def _draw_die(
    img: Image.Image, x: int, y: int, size: int, value: int, fill: RGB, pip: RGB, edge: RGB
) -> None:
    paste_rgba(img, die_face(value, size, fill, pip, edge), (x, y))


# ---------------------------------------------------------------------------
# Cards
# ---------------------------------------------------------------------------


def _card_h(width: int) -> int:
    return round(width * CARD_RATIO)


@lru_cache(maxsize=64)
def _card_back(width: int, height: int, colour: RGB, accent: RGB, letter: str) -> Image.Image:
    """A face-down card in the army's colour: pinstripes, a frame and a
    roundel with the army's letter (flat shapes: cheap to draw and encode)."""
    radius = max(3, round(width * 0.08))
    tile = Image.new("RGB", (width, height), CARD_FACE)
    border = max(2, round(width * 0.05))
    base = darken(colour, 0.2)
    _rrect(tile, (border, border, width - border, height - border), radius - 1, base)
    stripe = mix(base, lighten(colour, 0.35), 0.3)
    pad = border + max(3, round(width * 0.06))
    draw = ImageDraw.Draw(tile)
    for yy in range(pad + 2, height - pad - 1, 5):
        draw.line((pad, yy, width - pad - 1, yy), fill=stripe)
    frame = mix(base, accent, 0.6)
    draw.rectangle((pad, pad, width - pad - 1, height - pad - 1), outline=frame, width=1)
    emblem = round(min(width, height) * 0.46)
    ex, ey = (width - emblem) // 2, (height - emblem) // 2
    ellipse(tile, (ex, ey, ex + emblem, ey + emblem), colour, accent, max(2, emblem // 12))
    if width >= 30:
        fnt = font("bold", max(8, round(emblem * 0.5)))
        draw_text(tile, (width / 2, height / 2), letter, fnt, CARD_FACE, "mm")
    out = tile.convert("RGBA")
    out.putalpha(rounded_mask(width, height, radius))
    return out


def _shell(img: Image.Image, box: Box, colour: RGB, band_h: int, radius: int) -> int:
    """A card: coloured border, cream face, a header band; returns the border."""
    x0, y0, x1, y1 = box
    w = x1 - x0
    border = max(3, round(w * 0.04))
    _rrect(
        img,
        (x0 + border, y0 + band_h, x1 - border, y1 - border),
        max(2, radius - border),
        CARD_FACE,
    )
    img.paste(colour, (x0 + border, y0 + band_h, x1 - border, y0 + band_h + 3))
    return border


def _unit_card(
    img: Image.Image,
    ctx: _Ctx,
    card: CardView,
    seat: int,
    x: int,
    y: int,
    width: int,
    highlight: bool = False,
) -> None:
    """A face-up unit (see :func:`_unit_tile`), with its shadow; ``highlight``
    rings it in gold (the card that moved last)."""
    height = _card_h(width)
    radius = _radius(width)
    if highlight:
        _rrect(img, (x - 5, y - 5, x + width + 5, y + height + 5), radius + 5, GOLD)
    else:
        _rrect(img, (x + 1, y + 3, x + width + 1, y + height + 3), radius, SHADOW)
    tile = _unit_tile(card, width, ctx.colour(seat), ctx.accent(seat), ctx.lang)
    paste_rgba(img, tile, (x, y))


def _radius(width: int) -> int:
    return max(4, round(width * 0.08))


@lru_cache(maxsize=512)
def _unit_tile(card: CardView, width: int, colour: RGB, accent: RGB, lang: str) -> Image.Image:
    """A face-up unit card as an RGBA tile: VC (top left), unit symbol,
    handle, name, firepower (attack / defence, the one in force lit; ``*``
    long range), loss tokens with the cohesion they will be tested against,
    and markers (fired, moved, entrenched, forced march)."""
    height = _card_h(width)
    radius = _radius(width)
    img = Image.new("RGB", (width, height), colour)
    x = y = 0
    band_h = round(height * 0.24)
    border = _shell(img, (0, 0, width, height), colour, band_h, radius)
    # band: VC disc, unit symbol, handle
    disc = band_h - 6
    dx, dy = x + border + 2, y + 3
    ellipse(img, (dx, dy, dx + disc, dy + disc), WHITE, accent, max(2, disc // 12))
    draw_text(
        img,
        (dx + disc / 2, dy + disc / 2 + 1),
        str(card.vc),
        font("bold", round(disc * 0.66)),
        INK,
        "mm",
    )
    uid_font = font("bold", max(11, round(width * 0.14)))
    draw_text(img, (x + width - border - 3, y + band_h / 2 + 1), card.uid, uid_font, WHITE, "rm")
    uid_w = text_width(uid_font, card.uid)
    sym_w = round(width * 0.21)
    sym_h = round(sym_w * 0.66)
    room_l = dx + disc + 4
    room_r = x + width - border - 3 - uid_w - 4
    if room_r - room_l >= sym_w:
        sx = (room_l + room_r - sym_w) // 2
        paste_rgba(img, glyph(card.category, sym_w, sym_h, WHITE), (sx, y + (band_h - sym_h) // 2))
    # name
    inner_w = width - 2 * border - 8
    name_top = y + band_h + round(height * 0.04)
    name_h = round(height * 0.3)
    fnt, size, lines = _name_lines(card, inner_w, name_h, width)
    line_h = round(size * 1.08)
    block = len(lines) * line_h
    ty = name_top + max(0, (name_h - block) // 2)
    for k, line in enumerate(lines):
        draw_text(img, (x + width / 2, ty + k * line_h), line, fnt, INK, "ma")
    # firepower
    fp_top = y + round(height * 0.62)
    fp_h = round(height * 0.17)
    items = [("A", card.fire_attack, card.status == "attack")]
    items.append(("D", card.fire_defence, card.status == "defence"))
    if card.long_range:
        items.append(("*", card.long_range, False))
    _firepower(img, items, x + width // 2, fp_top, fp_h, inner_w, colour)
    # bottom: tokens, cohesion, markers
    bottom = y + height - border - 3
    row_h = round(height * 0.14)
    row_y = bottom - row_h
    tx = x + border + 4
    if card.tokens:
        t = min(row_h, round(width * 0.15))
        for _ in range(card.tokens):
            ellipse(
                img,
                (tx, row_y + (row_h - t) // 2, tx + t, row_y + (row_h - t) // 2 + t),
                TOKEN,
                WHITE,
                2,
            )
            tx += t - 2 if card.tokens > 3 else t + 1
        coh = _tr("coh", lang, n=card.cohesion)
        cf = font("condensed-bold", max(10, round(width * 0.12)))
        if tx + 4 + text_width(cf, coh) < x + width - border - 4:
            draw_text(img, (tx + 4, row_y + row_h / 2), coh, cf, TOKEN, "lm")
    mx = x + width - border - 4
    marks: list[str] = []
    if card.fought:
        marks.append("swords")
    if card.moves:
        marks.append("arrow")
    if card.entrenched:
        marks.append("retranchements")
    if card.forced:
        marks.append("marche-forcee")
    size = min(row_h, round(width * 0.14))
    for mark in reversed(marks):
        tile = glyph(mark, size, size, mix(INK, CARD_FACE, 0.3))
        mx -= size
        if mx < tx + 2:
            break
        paste_rgba(img, tile, (mx, row_y + (row_h - size) // 2))
        mx -= 3
    out = img.convert("RGBA")
    out.putalpha(rounded_mask(width, height, radius))
    return out


def _name_lines(card: CardView, max_w: int, max_h: int, width: int) -> tuple[Font, int, list[str]]:
    top = max(10, round(width * 0.15))
    sizes = [top, top - 1, top - 2, top - 3]
    for name in (card.name, card.short):
        for size in sizes:
            fnt = font("condensed-bold", size)
            lines = _wrap_words(name, fnt, max_w)
            if lines and len(lines) <= 2 and len(lines) * round(size * 1.08) <= max_h + 2:
                return fnt, size, lines
    fnt = font("condensed-bold", sizes[-1])
    return fnt, sizes[-1], [fit_text(card.short, fnt, max_w)]


def _wrap_words(text_: str, fnt: Font, max_w: int) -> list[str]:
    """Word wrap that may break after a slash or a hyphen but never inside a
    word; an empty list when a word is too wide."""
    words = text_.replace("/", "/ ").replace("-", "- ").split()
    lines: list[str] = []
    line = ""
    for word in words:
        glue = "" if line.endswith(("/", "-")) else " "
        candidate = f"{line}{glue}{word}" if line else word
        if text_width(fnt, candidate) <= max_w:
            line = candidate
            continue
        if text_width(fnt, word) > max_w:
            return []
        if line:
            lines.append(line)
        line = word
    if line:
        lines.append(line)
    return lines


def _firepower(
    img: Image.Image,
    items: Sequence[tuple[str, int, bool]],
    cx: int,
    top: int,
    height: int,
    max_w: int,
    colour: RGB,
) -> None:
    gap = max(3, height // 6)
    size = max(10, round(height * 0.62))
    fnt = font("bold", size)
    widths = [text_width(fnt, f"{label}{value}") + height // 2 for label, value, _ in items]
    total = sum(widths) + gap * (len(items) - 1)
    while total > max_w and size > 9:
        size -= 1
        fnt = font("bold", size)
        widths = [text_width(fnt, f"{label}{value}") + height // 3 for label, value, _ in items]
        total = sum(widths) + gap * (len(items) - 1)
    x = cx - total // 2
    for (label, value, lit), w in zip(items, widths, strict=True):
        box = (x, top, x + w, top + height)
        if lit:
            _rrect(img, box, height // 3, colour)
            ink = WHITE
        elif label == "*":
            _rrect(img, box, height // 3, CARD_FACE, mix(colour, CARD_FACE, 0.45), 2)
            ink = darken(colour, 0.1)
        else:
            _rrect(img, box, height // 3, mix(CARD_FACE, INK, 0.07), mix(CARD_FACE, INK, 0.2), 1)
            ink = mix(INK, CARD_FACE, 0.45)
        draw_text(img, (x + w / 2, top + height / 2 + 1), f"{label}{value}", fnt, ink, "mm")
        x += w + gap


def _hidden_stack(
    img: Image.Image, ctx: _Ctx, seat: int, count: int, x: int, y: int, width: int
) -> int:
    """``count`` face-down cards fanned; returns the stack's width."""
    height = _card_h(width)
    step = round(width * 0.2)
    letter = ctx.view.players[seat].letter if 0 <= seat < 2 else "?"
    back = _card_back(width, height, ctx.colour(seat), ctx.accent(seat), letter)
    radius = max(3, round(width * 0.08))
    for k in range(count):
        bx = x + k * step
        _rrect(img, (bx + 1, y + 3, bx + width + 1, y + height + 3), radius, SHADOW)
        paste_rgba(img, back, (bx, y))
    total = width + (count - 1) * step
    if count < 2:
        return total
    label = f"×{count}"
    fnt = font("bold", max(12, round(width * 0.17)))
    lw = text_width(fnt, label) + 14
    lx = x + total - lw - 4
    ly = y + height - round(width * 0.3)
    _rrect(img, (lx, ly, lx + lw, ly + round(width * 0.22)), 8, CARD_FACE, ctx.colour(seat), 2)
    draw_text(img, (lx + lw / 2, ly + round(width * 0.11) + 1), label, fnt, INK, "mm")
    return total


def _stack_width(count: int, width: int) -> int:
    return width + (count - 1) * round(width * 0.2) if count else 0
