"""Chroniques de Liber images: the pieces on a battlefield (units, tokens,
generals, and the places, enchantments and favours of the plaine), drawn as
cached tiles, and the small marks they carry."""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

import i18n
from engine.games.liber.data import CardSpec
from engine.games.liber.model import PieceView

from ..common import (
    RGB,
    Font,
    darken,
    dim,
    ellipse,
    fit_text,
    font,
    icon,
    lighten,
    mix,
    rounded_mask,
)
from .context import card_name, card_text, keyword_order, spec, tr
from .layers import paste_rgba, rounded
from .style import (
    CELL_H,
    CELL_W,
    GOLD,
    GREEN,
    INK,
    INK_SOFT,
    PARCHMENT,
    RED,
    STATUS_MARKS,
    TEXT,
    TYPE_COLOURS,
    WHITE,
    draw_text,
    text_width,
    wrap_text,
)

BAND_H = 30
RADIUS = 10
NAME_FONT = font("condensed-bold", 19)
STAT_FONT = font("bold", 21)
CHIP_FONT = font("condensed-bold", 16)
SMALL_FONT = font("condensed-bold", 15)
TEXT_FONT = font("regular", 14)
MARK_FONT = font("bold", 15)


def statuses(piece: PieceView) -> list[str]:
    """The piece's status marks, in the legend's order."""
    out = []
    if piece.poisoned:
        out.append("poisoned")
    if piece.paralysed:
        out.append("paralysed")
    if piece.sick and not piece.fixture:
        out.append("sick")
    if piece.countered:
        out.append("countered")
    if piece.attacks:
        out.append("attacked")
    return out


def status_mark(img: Image.Image, kind: str, x: int, y: int, size: int) -> None:
    """A round mark (glyph on colour) whose top left is (x, y)."""
    glyph, colour = STATUS_MARKS[kind]
    ellipse(img, (x, y, x + size, y + size), colour, WHITE, 2)
    fnt = font("bold", max(10, round(size * 0.6)))
    draw_text(img, (x + size / 2, y + size / 2 + 1), glyph, fnt, WHITE, "mm")


def keyword_chip(img: Image.Image, x: int, y: int, label: str, height: int, fnt: Font) -> int:
    """A keyword's abbreviation on a chip; returns its width."""
    w = text_width(fnt, label) + 10
    rounded(img, (x, y, x + w, y + height), 5, (226, 212, 184), (150, 128, 96), 1)
    draw_text(img, (x + w / 2, y + height / 2 + 1), label, fnt, INK, "mm")
    return w


@lru_cache(maxsize=32)
def sword(size: int, colour: RGB) -> Image.Image:
    """A sword (force), point up and to the right, as an RGBA tile."""
    s = 4
    n = size * s
    big = Image.new("L", (n, n), 0)
    d = ImageDraw.Draw(big)
    w = max(s, round(n * 0.15))
    d.line((n * 0.3, n * 0.7, n * 0.92, n * 0.08), fill=255, width=w)  # blade
    d.line((n * 0.14, n * 0.5, n * 0.5, n * 0.86), fill=255, width=w)  # guard
    d.line((n * 0.08, n * 0.92, n * 0.32, n * 0.68), fill=255, width=round(w * 1.1))  # grip
    mask = big.resize((size, size), Image.Resampling.LANCZOS)
    tile = Image.new("RGBA", (size, size), (*colour, 0))
    tile.putalpha(mask)
    return tile


def stat_chip(
    img: Image.Image,
    x: int,
    y: int,
    glyph: str,
    value: str,
    fill: RGB,
    height: int,
    fnt: Font | None = None,
) -> int:
    """Force (a sword) or ``♥ 5/7`` on a coloured chip; returns its width."""
    vfnt = fnt or STAT_FONT
    size = round(height * 0.58)
    if glyph == "sword":
        gw = size
    else:
        gfnt = font("bold", size)
        gw = text_width(gfnt, glyph)
    vw = text_width(vfnt, value)
    pad = max(6, height // 4)
    w = pad + gw + 5 + vw + pad
    rounded(img, (x, y, x + w, y + height), max(5, height // 4), fill)
    if glyph == "sword":
        paste_rgba(img, sword(size, WHITE), (x + pad, y + (height - size) // 2))
    else:
        draw_text(img, (x + pad, y + height / 2 + 1), glyph, gfnt, WHITE, "lm")
    draw_text(img, (x + pad + gw + 5, y + height / 2 + 1), value, vfnt, WHITE, "lm")
    return w


@lru_cache(maxsize=512)
def piece_tile(piece: PieceView, lang: str, colour: RGB) -> Image.Image:
    """A piece on its place, as an RGBA tile of CELL_W x CELL_H: a fighter
    (unit, token, general) or a fixture (place, enchantment, favour)."""
    if piece.fixture:
        return _fixture_tile(piece, lang)
    return _fighter_tile(piece, lang, colour)


def _shell(colour: RGB, border: RGB, border_w: int) -> Image.Image:
    img = Image.new("RGB", (CELL_W, CELL_H), border)
    rounded(
        img,
        (border_w, BAND_H, CELL_W - border_w, CELL_H - border_w),
        max(2, RADIUS - border_w),
        PARCHMENT,
    )
    img.paste(colour, (border_w, border_w, CELL_W - border_w, BAND_H))
    return img


def _finish(img: Image.Image) -> Image.Image:
    out = img.convert("RGBA")
    out.putalpha(rounded_mask(CELL_W, CELL_H, RADIUS))
    return out


def _fighter_tile(piece: PieceView, lang: str, colour: RGB) -> Image.Image:
    img = _fighter_face(piece, lang, colour)
    if piece.pv and piece.damage >= piece.pv:  # fallen (a general at 0 PV)
        dim(img, (0, 0, CELL_W, CELL_H), (30, 30, 36), 0.55)
        draw_text(img, (CELL_W / 2, CELL_H - 30), "✝", font("bold", 40), WHITE, "mm")
    return _finish(img)


def counter_chip(img: Image.Image, x: int, y: int, colour: RGB, text: str, fnt: Font) -> int:
    """A counter (gold, faith, victory ...): a coloured dot and its text on a
    dark chip; returns its width."""
    w = text_width(fnt, text) + 36
    rounded(img, (x, y, x + w, y + 26), 13, (30, 33, 44), mix((78, 84, 106), colour, 0.5), 1)
    ellipse(img, (x + 7, y + 6, x + 21, y + 20), colour)
    draw_text(img, (x + 27, y + 14), text, fnt, TEXT, "lm")
    return w


def _fighter_face(piece: PieceView, lang: str, colour: RGB) -> Image.Image:
    """A unit, token or general: name, force, PV left / max, statuses,
    keywords, equipment and its place."""
    border = GOLD if piece.general else darken(colour, 0.25)
    img = _shell(colour, border, 4 if piece.general else 3)
    x = 9
    if piece.general:
        paste_rgba(img, icon("crown", 20, GOLD), (x, 5))
        x += 24
    name, fnt = fit_name(card_name(piece.card), CELL_W - x - 8)
    draw_text(img, (x, BAND_H / 2 + 1), name, fnt, WHITE, "lm")
    # row A: force, PV left / max, statuses
    row_a, chip_h = BAND_H + 6, 30
    cx = 8
    cx += stat_chip(img, cx, row_a, "sword", str(piece.force), (84, 70, 58), chip_h) + 5
    left = max(0, piece.pv - piece.damage)
    fill = RED if piece.damage else GREEN
    cx += stat_chip(img, cx, row_a, "♥", f"{left}/{piece.pv}", darken(fill, 0.1), chip_h) + 5
    marks = statuses(piece)
    size = 24
    mx = CELL_W - 8 - size
    spill: list[str] = []
    for kind in reversed(marks):
        if mx < cx:
            spill.insert(0, kind)
            continue
        status_mark(img, kind, mx, row_a + (chip_h - size) // 2, size)
        mx -= size + 3
    # row B: keywords
    row_b = row_a + chip_h + 6
    kx = 8
    words = [tr(lang, f"kwa-{k}") for k in keyword_order(piece.keywords)]
    for k, label in enumerate(words):
        rest = len(words) - k
        w = text_width(CHIP_FONT, label) + 10
        room = CELL_W - 8 - kx - (0 if rest == 1 else 34)
        if w > room:
            keyword_chip(img, kx, row_b, f"+{rest}", 21, CHIP_FONT)
            break
        kx += keyword_chip(img, kx, row_b, label, 21, CHIP_FONT) + 4
    # row C: equipment, the statuses that did not fit, the place
    row_c = row_b + 25
    right = CELL_W - 8
    draw_text(img, (right, row_c + 10), piece.place, SMALL_FONT, INK_SOFT, "rm")
    right -= text_width(SMALL_FONT, piece.place) + 6
    for kind in reversed(spill):
        right -= 20
        status_mark(img, kind, right, row_c, 20)
        right -= 3
    if piece.equipment:
        names = equipment_text(piece.equipment)
        paste_rgba(img, icon("diamond", 13, (70, 110, 130)), (8, row_c + 4))
        draw_text(
            img, (25, row_c + 10), fit_text(names, SMALL_FONT, right - 30), SMALL_FONT, INK, "lm"
        )
    return img


def fit_name(name: str, width: int) -> tuple[str, Font]:
    """A card name in the band: smaller type before an ellipsis."""
    for size in (19, 18, 17, 16):
        fnt = font("condensed-bold", size)
        if text_width(fnt, name) <= width:
            return name, fnt
    return fit_text(name, fnt, width), fnt


def equipment_text(equipment: tuple[str, ...]) -> str:
    """``2× Épée runique, Bouclier``: the objects a unit carries."""
    counts: dict[str, int] = {}
    for card_id in equipment:
        counts[card_id] = counts.get(card_id, 0) + 1
    return ", ".join(f"{n}× {card_name(c)}" if n > 1 else card_name(c) for c, n in counts.items())


def _fixture_tile(piece: PieceView, lang: str) -> Image.Image:
    card = spec(piece.card)
    kind = card.type if card is not None else "lieu"
    colour = TYPE_COLOURS.get(kind, TYPE_COLOURS["lieu"])
    img = _shell(colour, darken(colour, 0.3), 3)
    name, fnt = fit_name(card_name(piece.card), CELL_W - 16)
    draw_text(img, (9, BAND_H / 2 + 1), name, fnt, WHITE, "lm")
    spell = card.spell if card is not None else None
    label = tr(lang, f"kind-{spell}" if spell else f"type-{kind}")
    room = CELL_W - 24 - text_width(SMALL_FONT, piece.place)
    draw_text(
        img,
        (9, BAND_H + 12),
        fit_text(label, SMALL_FONT, room),
        SMALL_FONT,
        darken(colour, 0.2),
        "lm",
    )
    draw_text(img, (CELL_W - 8, BAND_H + 12), piece.place, SMALL_FONT, INK_SOFT, "rm")
    summary = effect_summary(card, lang) if card is not None else []
    if summary:  # large: what the fixture does, legible at Discord's preview
        fnt = font("condensed-bold", 19)
        lines = [part for line in summary for part in wrap_text(line, fnt, CELL_W - 18)][:3]
        top = BAND_H + 46 - (len(lines) - 1) * 11
        for k, line in enumerate(lines):
            draw_text(img, (CELL_W / 2, top + k * 23), line, fnt, INK, "mm")
    elif card is not None:  # an effect without a summary: the card's text
        lines = wrap_text(card_text(card, lang), TEXT_FONT, CELL_W - 16)
        keep = 4
        if len(lines) > keep:
            lines = lines[: keep - 1] + [fit_text(lines[keep - 1] + "…", TEXT_FONT, CELL_W - 16)]
        for k, line in enumerate(lines):
            draw_text(img, (9, BAND_H + 24 + k * 17), line, TEXT_FONT, INK, "la")
    return _finish(img)


def effect_summary(card: CardSpec, lang: str) -> list[str]:
    """One short line per effect of a place, enchantment or favour
    (``Front : +1 force``), or [] when one of them has no short form."""
    out = []
    for effect in card.effects:
        key = f"fx-{effect.kind}"
        if effect.kind in ("units-force", "units-pv"):
            key += f"-{effect.scope}"
        if not i18n.has(lang, "lb-render-" + key):
            return []
        out.append(tr(lang, key, n=effect.amount))
    return out


def _type_key(kind: str, spell: str | None) -> str:
    return f"spell-{spell}" if kind == "sort" and spell else kind


def type_label(lang: str, card_id: str) -> str:
    card = spec(card_id)
    if card is None:
        return ""
    return tr(lang, f"type-{_type_key(card.type, card.spell)}")


def empty_place(img: Image.Image, x: int, y: int, place: str, field: RGB) -> None:
    """A free place: a faint frame with its notation."""
    rounded(
        img,
        (x, y, x + CELL_W, y + CELL_H),
        RADIUS,
        lighten(field, 0.06),
        mix(field, WHITE, 0.18),
        1,
    )
    draw_text(
        img, (x + CELL_W / 2, y + CELL_H / 2), place, MARK_FONT, mix(field, WHITE, 0.35), "mm"
    )
