"""Battalia images: the cards as chips (a unit's rank on its faction's
colour, an artefact's type icon, Provisions' sack, a Great Artefact's gem),
small for the board's lines and bids, larger with their French name in the
hand."""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from ..common import RGB, Font, darken, fit_paragraph, font, mix, rounded
from .context import card_faction, card_group, card_name, card_rank
from .style import FACTION_COLOURS, INK, PARCHMENT, draw_text, text_width, wrap_text
from .tiles import type_colour, type_icon

PROVISION: RGB = (176, 142, 84)
GREAT: RGB = (150, 110, 30)
UNKNOWN: RGB = (92, 78, 66)  # a stack's top or a recipe slot: any faction


def card_colour(code: str) -> RGB:
    """The chip's colour: the card's faction, or its kind's own colour."""
    group = card_group(code)
    if group == "provision":
        return PROVISION
    if group == "great":
        return GREAT
    faction = card_faction(code)
    return FACTION_COLOURS.get(faction or "", UNKNOWN)


@lru_cache(maxsize=512)
def chip(code: str, w: int, h: int, named: bool = False) -> Image.Image:
    """A card as a chip (RGBA): coloured frame, parchment face, the rank or
    the type icon large; with ``named``, its French name at the bottom."""
    colour = card_colour(code)
    tile = Image.new("RGB", (w, h), (0, 0, 0))
    radius = max(4, w // 9)
    rounded(tile, (0, 0, w, h), radius, darken(colour, 0.35))
    rounded(tile, (2, 2, w - 2, h - 2), radius - 1, colour)
    band = max(3, w // 14)
    face = (band, band, w - band, h - band)
    rounded(tile, face, max(2, radius - band // 2), PARCHMENT)
    group = card_group(code)
    name_h = round(h * 0.36) if named else 0
    top, bottom = face[1], face[3] - name_h
    cx, cy = w / 2, (top + bottom) / 2
    art = min(w - 2 * band, bottom - top) * 0.74
    if group == "unit":
        rank = card_rank(code)
        size = round(art * 0.9)
        fnt = font("bold", max(8, size))
        ring = round(art * 0.98)
        d = ImageDraw.Draw(tile)
        d.ellipse(
            (cx - ring / 2, cy - ring / 2, cx + ring / 2, cy + ring / 2),
            fill=mix(colour, PARCHMENT, 0.12),
        )
        draw_text(tile, (cx, cy + 1), str(rank), fnt, (255, 255, 255), "mm")
    else:
        kind = {"provision": "P", "great": _great_type(code)}.get(group, code[:1])
        ink = darken(type_colour(kind), 0.1) if group == "artefact" else darken(colour, 0.25)
        ic = type_icon(kind, max(8, round(art)), ink)
        tile.paste(ic, (round(cx - ic.width / 2), round(cy - ic.height / 2)), ic)
    if named:
        fnt, lines, lh = _name_lines(card_name(code), w - 2 * band - 4, name_h - 4)
        y = bottom + (name_h - len(lines) * lh) / 2
        for k, line in enumerate(lines):
            draw_text(tile, (cx, y + k * lh + lh / 2), line, fnt, INK, "mm")
    out = tile.convert("RGBA")
    mask = Image.new("L", (w, h), 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, w - 1, h - 1), radius=radius, fill=255)
    out.putalpha(mask)
    return out


def _great_type(code: str) -> str:
    """A Great Artefact's chip shows the type it acts as (its gold frame
    tells it from the ordinary artefacts); an unknown code the gem."""
    from engine.games.battalia.data import great_by_code

    great = great_by_code().get(code)
    return great.acts_as if great is not None else "G"


def _name_lines(name: str, width: int, height: int) -> tuple[Font, list[str], int]:
    """The largest size at which ``name`` fits without cutting a word."""
    for size in (15, 14, 13, 12, 11, 10):
        fnt = font("condensed-bold", size)
        if all(text_width(fnt, word) <= width for word in name.split()):
            lines = wrap_text(name, fnt, width)
            lh = round(size * 1.15)
            if len(lines) * lh <= height:
                return fnt, lines, lh
    return fit_paragraph(name, "condensed-bold", width, height, (10,))


def paste_chips(
    img: Image.Image,
    codes: tuple[str, ...] | list[str],
    x: int,
    y: int,
    w: int,
    h: int,
    max_width: int,
    gap: int = 4,
) -> int:
    """Chips side by side from (x, y), overlapping when they need to fit in
    ``max_width``; returns the x after the last one."""
    if not codes:
        return x
    step = w + gap
    if len(codes) * step - gap > max_width:
        step = max(8, (max_width - w) // max(1, len(codes) - 1))
    for k, code in enumerate(codes):
        tile = chip(code, w, h)
        img.paste(tile, (x + k * step, y), tile)
    return x + (len(codes) - 1) * step + w
