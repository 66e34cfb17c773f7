"""Belle Position images: the public battlefield and one seat's cards.

``render_board`` draws what every observer may see, and only that, so the
image is the same whichever seat's view it is drawn from: the two battle
lines as three *fronts* (each own wing beside the enemy wing it faces: the
French left wing faces the German right wing), with terrain, generals,
face-up units (type, VC, firepower by status, loss tokens) and face-down
cards as card backs; conquered and engaged positions; the last fire's dice
and the last cohesion tests; each army's reserve, pile and losses; whose
decision it is, the turn and the phase. During the secret deployment
nothing of either side's placement is shown, only who is ready.

``render_private`` draws one seat's own cards (its battle line with its
face-down cards identified, its reserve, its deployment order) with the
moves each card allows now, in the notation players type.

Card and unit names stay French in both languages, as printed on the cards.
The board is designed 1100 px wide so that Discord's ~550 px preview stays
legible.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw, ImageFont

import i18n
from engine.games.belle_position import (
    CardView,
    PlayerView,
    PositionView,
    SideAt,
    Test,
    TypeDef,
    View,
)

from .common import (
    CARD_FACE,
    INK,
    RGB,
    Box,
    Font,
    canvas,
    clean_text,
    darken,
    dashed_frame,
    drop_shadow,
    ellipse,
    fit_text,
    font,
    icon,
    lighten,
    message_image,
    mix,
    paste_rgba,
    pill,
    readable_on,
    rounded_mask,
    to_png,
)
from .common import draw_text as _draw_text_uncached
from .common import text_width as _text_width_uncached
from .common import wrap_text as _wrap_text_uncached

WIDTH = 1100
MARGIN = 24
GUTTER = 36  # no man's land between the two lines
BOX_W = (WIDTH - 2 * MARGIN - GUTTER) // 2
CARD_W = 104
CARD_RATIO = 1.15
# Text: a board draws some seventy strings, most of them the same from one
# board to the next (labels, names, the legend). Their glyph masks, widths and
# wrappings are kept; drawing is then Pillow's own bitmap fill, so the pixels
# are exactly those of ImageDraw.text.


@lru_cache(maxsize=4096)
def _text_mask(
    text: str, fnt: ImageFont.FreeTypeFont, anchor: str, fx: float, fy: float
) -> tuple[Any, tuple[int, int]]:
    mask, offset = fnt.getmask2(text, "L", None, None, None, 0, anchor, 0, (fx, fy))
    return mask, offset


def draw_text(
    img: Image.Image,
    xy: tuple[float, float],
    text: str,
    fnt: Font,
    fill: RGB,
    anchor: str = "la",
) -> None:
    """:func:`render.common.draw_text`, with the glyph masks kept."""
    if "\n" in text or not isinstance(fnt, ImageFont.FreeTypeFont) or img.mode != "RGB":
        _draw_text_uncached(img, xy, text, fnt, fill, anchor)
        return
    x, y = xy
    fx, ix = math.modf(x)
    fy, iy = math.modf(y)
    mask, offset = _text_mask(text, fnt, anchor, fx, fy)
    draw = ImageDraw.Draw(img)
    draw.draw.draw_bitmap((int(ix) + offset[0], int(iy) + offset[1]), mask, draw._getink(fill)[0])


@lru_cache(maxsize=8192)
def text_width(fnt: Font, text: str) -> int:
    return _text_width_uncached(fnt, text)


@lru_cache(maxsize=1024)
def _wrapped(text: str, fnt: Font, max_width: int) -> tuple[str, ...]:
    return tuple(_wrap_text_uncached(text, fnt, max_width))


def wrap_text(text: str, fnt: Font, max_width: int) -> list[str]:
    return list(_wrapped(text, fnt, max_width))


# Palette: the house's dark green table, cream cards, gold for "act now".
BG_TOP: RGB = (26, 52, 45)
BG_BOTTOM: RGB = (19, 38, 33)
FELT: RGB = (33, 66, 57)
FELT_EDGE: RGB = (56, 92, 80)
PANEL: RGB = (30, 56, 49)
PANEL_EDGE: RGB = (56, 90, 80)
TEXT: RGB = (240, 236, 226)
MUTED: RGB = (170, 190, 181)
GOLD: RGB = (242, 193, 78)
GOLD_DARK: RGB = (58, 42, 12)
GOLD_SUB: RGB = (104, 78, 24)
RED: RGB = (206, 58, 52)
TOKEN: RGB = (200, 36, 36)
GREEN: RGB = (52, 140, 84)
NEUTRAL: RGB = (120, 128, 124)
WHITE: RGB = (255, 255, 255)
SHADOW: RGB = darken(FELT, 0.45)

# Uniforms: French blue (with the red of the trousers as accent), Prussian
# dark blue-grey.
FRENCH: RGB = (38, 86, 176)
FRENCH_ACCENT: RGB = (200, 44, 50)
GERMAN: RGB = (54, 62, 80)
GERMAN_ACCENT: RGB = (196, 200, 206)
SIDE_COLOURS: dict[str, tuple[RGB, RGB]] = {
    "french": (FRENCH, FRENCH_ACCENT),
    "german": (GERMAN, GERMAN_ACCENT),
}
TERRAIN_COLOURS: dict[str, RGB] = {
    "bois": (52, 112, 56),
    "hauteur": (150, 110, 60),
    "bourg": (150, 72, 58),
}
SPECIAL_COLOUR: RGB = (150, 104, 30)
ATTACK: RGB = (196, 72, 52)
DEFENCE: RGB = (46, 120, 150)

# ---------------------------------------------------------------------------
# Context
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class _Ctx:
    view: View
    lang: str
    names: tuple[str, str]
    types: dict[str, TypeDef]
    cards: dict[str, CardView]  # uid -> a card the reader may identify

    def t(self, key: str, **params: object) -> str:
        return _tr(key, self.lang, **params)

    def t_or(self, key: str, default: str) -> str:
        """The ``bp-render-<key>`` text, or ``default`` when the catalogue has none."""
        full = "bp-render-" + key.replace("_", "-")
        return i18n.translate(self.lang, full) if i18n.has(self.lang, full) else default

    def name(self, seat: int) -> str:
        if 0 <= seat < 2:
            return self.names[seat]
        return self.t("player", n=seat + 1)

    def side(self, seat: int) -> str:
        return self.view.players[seat].side if 0 <= seat < 2 else ""

    def colour(self, seat: int) -> RGB:
        return SIDE_COLOURS.get(self.side(seat), (NEUTRAL, NEUTRAL))[0]

    def accent(self, seat: int) -> RGB:
        return SIDE_COLOURS.get(self.side(seat), (NEUTRAL, NEUTRAL))[1]

    def side_name(self, seat: int) -> str:
        if not 0 <= seat < 2:
            return ""
        p = self.view.players[seat]
        return self.t_or(f"side-{p.side}", p.side)

    def who(self, seat: int) -> str:
        """``Alice (French)``."""
        return f"{self.name(seat)} ({self.side_name(seat)})"

    def pos(self, p: int) -> PositionView | None:
        positions = self.view.positions
        return positions[p] if 0 <= p < len(positions) else None

    def pos_name(self, p: int) -> str:
        pos = self.pos(p)
        if pos is None:
            return "?"
        return self.t_or(f"pos-{pos.code}", pos.code)

    def at(self, p: int) -> str:
        """``in the German centre (AC)`` / ``au centre allemand (AC)``."""
        key = f"bp-render-at-{self.code(p)}"
        if not i18n.has(self.lang, key):
            key = "bp-render-at"
        return i18n.translate(self.lang, key, name=self.pos_name(p), code=self.code(p))

    def code(self, p: int) -> str:
        pos = self.pos(p)
        return pos.code if pos is not None else "?"

    def type_name(self, tid: str) -> str:
        t = self.types.get(tid)
        return t.name if t is not None else tid

    def type_short(self, tid: str) -> str:
        t = self.types.get(tid)
        return t.short if t is not None else tid

    def card_label(self, uid: str) -> str:
        """``A3 Landwehr`` when the card is known, else the handle alone."""
        card = self.cards.get(uid)
        return f"{uid} {card.short}" if card is not None else uid


def _tr(key: str, lang: str, **params: object) -> str:
    """A word of these images: the ``bp-render-<key>`` text of the catalogue."""
    return i18n.translate(lang, "bp-render-" + key.replace("_", "-"), **params)


def _clean_names(names: Sequence[str], lang: str) -> tuple[str, str]:
    cleaned: list[str] = []
    for seat in range(2):
        raw = str(names[seat]) if seat < len(names) else ""
        text = clean_text(raw[:200], "condensed-bold")
        cleaned.append(text or _tr("player", lang, n=seat + 1))
    return cleaned[0], cleaned[1]


def _context(view: object, names: Sequence[str], locale: str, private: bool) -> _Ctx:
    if not isinstance(view, View):
        raise TypeError(f"expected a Belle Position View, got {type(view).__name__}")
    lang = i18n.pick(locale)
    cards: dict[str, CardView] = {}
    deploying = view.phase == "deploy"
    for pos in view.positions:
        if deploying and not private:
            break
        for card in pos.terrain:
            cards[card.uid] = card
        for side in pos.sides:
            if side.general is not None:
                cards[side.general.uid] = side.general
            for card in side.units:
                if card.face_up or private:
                    cards[card.uid] = card
    for player in view.players:
        for card in (*player.eliminated, *player.used):
            cards.setdefault(card.uid, card)
        if private and player.reserve is not None:
            for card in player.reserve:
                cards.setdefault(card.uid, card)
    return _Ctx(
        view=view,
        lang=lang,
        names=_clean_names(names, lang),
        types={t.id: t for t in view.types},
        cards=cards,
    )


def _public_side(side: SideAt) -> tuple[tuple[CardView, ...], int]:
    """The face-up units of a side and the number of face-down ones, the same
    whoever observes (the owner's own view lists its face-down cards)."""
    shown = tuple(c for c in side.units if c.face_up)
    return shown, side.hidden + len(side.units) - len(shown)


def _public_mover(view: View) -> str:
    """The card that moved last, when everybody may know it (face up)."""
    if not view.mover:
        return ""
    for pos in view.positions:
        for side in pos.sides:
            if side.general is not None and side.general.uid == view.mover:
                return view.mover
            for card in side.units:
                if card.uid == view.mover and card.face_up:
                    return view.mover
    return ""


def _front_pairs(view: View) -> list[tuple[int, int]]:
    """(French position, German position it faces) for the three fronts, from
    the French left wing (top) to the French right wing (bottom)."""
    french = 0 if view.players[0].side == "french" else 1
    out = []
    for wing in range(3):
        p = french * 3 + wing
        pos = view.positions[p] if p < len(view.positions) else None
        opposite = pos.opposite if pos is not None else (1 - french) * 3 + 2 - wing
        out.append((p, opposite))
    return out


def _mods_text(ctx: _Ctx, mods: Sequence[tuple[str, int]]) -> str:
    return ", ".join(f"{ctx.t_or(f'mod-{name}', name)} {_signed(value)}" for name, value in mods)


def _signed(value: int) -> str:
    return f"+{value}" if value > 0 else (f"−{-value}" if value < 0 else "0")


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


@lru_cache(maxsize=64)
def _corners(radius: int) -> tuple[Image.Image, Image.Image, Image.Image, Image.Image]:
    """The four corner masks of a rounded rectangle (top left, top right,
    bottom left, bottom right), as :func:`render.common.rounded_mask` draws them."""
    mask = rounded_mask(2 * radius, 2 * radius, radius)
    r = radius
    return (
        mask.crop((0, 0, r, r)),
        mask.crop((r, 0, 2 * r, r)),
        mask.crop((0, r, r, 2 * r)),
        mask.crop((r, r, 2 * r, 2 * r)),
    )


def _solid(img: Image.Image, box: Box, radius: int, colour: RGB) -> None:
    x0, y0, x1, y1 = box
    w, h = max(1, x1 - x0), max(1, y1 - y0)
    x1, y1 = x0 + w, y0 + h
    r = min(radius, w // 2, h // 2)
    if r <= 0:
        img.paste(colour, (x0, y0, x1, y1))
        return
    img.paste(colour, (x0 + r, y0, x1 - r, y1))
    img.paste(colour, (x0, y0 + r, x0 + r, y1 - r))
    img.paste(colour, (x1 - r, y0 + r, x1, y1 - r))
    tl, tr, bl, br = _corners(r)
    img.paste(colour, (x0, y0, x0 + r, y0 + r), tl)
    img.paste(colour, (x1 - r, y0, x1, y0 + r), tr)
    img.paste(colour, (x0, y1 - r, x0 + r, y1), bl)
    img.paste(colour, (x1 - r, y1 - r, x1, y1), br)


def _rrect(
    img: Image.Image,
    box: Box,
    radius: int,
    fill: RGB,
    outline: RGB | None = None,
    width: int = 0,
) -> None:
    """:func:`render.common.rounded`, pixel for pixel, but masking only the
    corners: plain fills elsewhere (big panels are drawn several times faster)."""
    w, h = max(1, box[2] - box[0]), max(1, box[3] - box[1])
    x, y = box[0], box[1]
    radius = min(radius, w // 2, h // 2)
    if outline is not None and width > 0:
        _solid(img, (x, y, x + w, y + h), radius, outline)
        iw, ih = w - 2 * width, h - 2 * width
        if iw > 0 and ih > 0:
            inner = max(0, radius - width)
            _solid(img, (x + width, y + width, x + width + iw, y + width + ih), inner, fill)
        return
    _solid(img, (x, y, x + w, y + h), radius, fill)


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


# ---------------------------------------------------------------------------
# Board: header, banner, fronts
# ---------------------------------------------------------------------------


def render_board(view: object, names: Sequence[str], locale: str = "en") -> bytes:
    ctx = _context(view, names, locale, private=False)
    v = ctx.view
    pairs = _front_pairs(v)
    front_h = [
        max(_box_height(ctx, v.positions[a]), _box_height(ctx, v.positions[b])) for a, b in pairs
    ]

    header_h = 62
    banner_top = header_h
    banner_h = 80
    armies_top = banner_top + banner_h + 14
    armies_h = ARMY_H
    fronts_top = armies_top + armies_h + 10
    fronts_h = sum(front_h) + FRONT_GAP * (len(front_h) - 1)
    dice_top = fronts_top + fronts_h + 14
    dice_h = _dice_height(ctx)
    details_top = dice_top + dice_h + (12 if dice_h else 0)
    details_h = _details_height(ctx)
    legend_top = details_top + details_h + 6
    legend = _legend_lines(ctx)
    height = legend_top + 19 * len(legend) + 6

    img = canvas(WIDTH, height, BG_TOP, BG_BOTTOM)
    _header(img, ctx)
    _banner(img, ctx, banner_top, banner_h)
    mover = _public_mover(v)
    columns = (MARGIN, MARGIN + BOX_W + GUTTER)
    for col, p in enumerate(pairs[0]):
        seat = v.positions[p].line
        x = columns[col]
        _army_panel(img, ctx, v.players[seat], (x, armies_top, x + BOX_W, armies_top + armies_h))
    cx = MARGIN + BOX_W + GUTTER // 2
    draw_text(img, (cx, armies_top + armies_h / 2), "⇄", font("bold", 24), MUTED, "mm")
    y = fronts_top
    for (a, b), h in zip(pairs, front_h, strict=True):
        _draw_position(img, ctx, v.positions[a], (columns[0], y, columns[0] + BOX_W, y + h), mover)
        _draw_position(img, ctx, v.positions[b], (columns[1], y, columns[1] + BOX_W, y + h), mover)
        _no_mans_land(img, ctx, a, b, y, h)
        y += h + FRONT_GAP
    _dice_section(img, ctx, dice_top, dice_h)
    if details_h:
        for col, p in enumerate(pairs[0]):
            seat = v.positions[p].line
            x = columns[col]
            _details(
                img, ctx, v.players[seat], (x, details_top, x + BOX_W, details_top + details_h)
            )
    for k, line in enumerate(legend):
        draw_text(img, (WIDTH / 2, legend_top + 2 + k * 19), line, LEGEND_FONT, MUTED, "ma")
    return to_png(img)


FRONT_GAP = 10
LEGEND_FONT = font("regular", 15)


def _legend_lines(ctx: _Ctx) -> list[str]:
    out: list[str] = []
    for key in ("legend", "legend_codes", "legend_terrain", "legend_marks"):
        lines = wrap_text(ctx.t(key), LEGEND_FONT, WIDTH - 2 * MARGIN)
        if len(lines) > 2:
            lines = [lines[0], fit_text(" ".join(lines[1:]), LEGEND_FONT, WIDTH - 2 * MARGIN)]
        out += lines
    return out


def _header(img: Image.Image, ctx: _Ctx) -> None:
    v = ctx.view
    title = i18n.translate(ctx.lang, "game-belle-position-name")
    draw_text(img, (MARGIN + 2, 34), title, font("bold", 30), TEXT, "lm")
    sub = font("regular", 18)
    draw_text(img, (MARGIN + 250, 36), "1870–71", sub, MUTED, "lm")
    right = WIDTH - MARGIN
    small = font("condensed-bold", 19)
    if v.turn > 0:
        right -= pill(
            img,
            right,
            16,
            (
                ctx.t("turn", n=v.turn, m=2 * v.turn_limit)
                if v.turn_limit
                else ctx.t("turn-open", n=v.turn)
            ),
            font("condensed-bold", 20),
            (46, 84, 73),
            TEXT,
            34,
            align="right",
        )
        right -= 14
    # the phase track
    if v.phase == "deploy":
        steps = [("deploy", ctx.t("deployment"))]
    elif v.phase == "over":
        steps = [("over", ctx.t("game_over"))]
    else:
        steps = [
            ("rally", ctx.t("ph_rally")),
            ("combat", ctx.t("ph_combat")),
            ("movement", ctx.t("ph_movement")),
            ("reinforce", ctx.t("ph_reinforce")),
        ]
    current = "combat" if v.phase == "allocate" else v.phase
    widths = [text_width(small, label) + 26 for _, label in steps]
    x = right - sum(widths) - 4 * (len(steps) - 1)
    for (key, label), w in zip(steps, widths, strict=True):
        on = key == current
        fill = GOLD if on else (38, 70, 61)
        ink = GOLD_DARK if on else MUTED
        _rrect(img, (x, 18, x + w, 50), 9, fill)
        draw_text(img, (x + w / 2, 35), label, small, ink, "mm")
        x += w + 4


def _banner_text(ctx: _Ctx) -> tuple[int, str, str]:
    """(seat or -1, headline, hint) for the public banner."""
    v = ctx.view
    if v.phase == "over":
        reason = ctx.t_or(f"reason-{v.end_reason}", v.end_reason)
        head = ctx.t("winner", who=ctx.who(v.winner)) if v.winner >= 0 else ctx.t("draw")
        return v.winner, head, reason
    if v.phase == "deploy":
        head = ctx.t("banner-deploy")
        parts = []
        for seat in range(2):
            ready = v.players[seat].ready
            state = ctx.t("ready-mark" if ready else "deploying-mark")
            parts.append(ctx.t("pair", label=ctx.name(seat), text=state))
        return -1, head, "  ·  ".join(parts)
    if not v.pending:
        return -1, ctx.t("waiting"), ""
    seat, kind = v.pending[0]
    who = ctx.who(seat)
    m = v.players[seat].letter  # the deciding player's own handles in examples
    e = v.players[1 - seat].letter
    failed = v.last_tests[-1].card if v.last_tests else f"{m}7"
    if kind == "rout":  # option ralliement_timing=failure
        what = ctx.t("banner-rout", failed=failed)
        hint = ctx.t("banner-rout-hint", failed=failed)
    elif kind == "rally":
        what = ctx.t("banner-rally")
        hint = ctx.t("banner-rally-hint", m=m)
    elif kind == "combat":
        what = ctx.t("banner-combat")
        hint = ctx.t("banner-combat-hint", m=m, e=e)
    elif kind == "allocate" and v.alloc is not None:
        what = ctx.t("banner-allocate", n=v.alloc.hits, where=ctx.at(v.alloc.position))
        hint = ctx.t("banner-allocate-hint", m=m)
    elif kind == "movement":
        what = ctx.t("banner-movement")
        hint = ctx.t("banner-movement-hint", m=m)
    else:
        what, hint = kind, ""
    return seat, ctx.t("pair", label=who, text=what), hint


def _banner(img: Image.Image, ctx: _Ctx, top: int, height: int) -> None:
    v = ctx.view
    box = (MARGIN, top, WIDTH - MARGIN, top + height)
    seat, headline, hint = _banner_text(ctx)
    drop_shadow(img, box, 18, offset=3, blur=5)
    _rrect(img, box, 18, GOLD)
    disc = 56
    dx, dy = box[0] + 16, top + (height - disc) // 2
    colour = ctx.colour(seat) if seat >= 0 else NEUTRAL
    ellipse(img, (dx, dy, dx + disc, dy + disc), colour, WHITE, 3)
    if v.phase == "over":
        crown = icon("crown", 32, WHITE)
        paste_rgba(img, crown, (dx + (disc - 32) // 2, dy + (disc - 32) // 2 - 1))
    elif seat >= 0:
        draw_text(
            img, (dx + disc / 2, dy + disc / 2 + 1), str(seat + 1), font("bold", 30), WHITE, "mm"
        )
    else:
        paste_rgba(img, glyph("swords", 30, 30, WHITE), (dx + 13, dy + 13))
    tx = dx + disc + 16
    avail = box[2] - tx - 18
    size = 27
    big = font("bold", size)
    while text_width(big, headline) > avail and size > 23:
        size -= 1
        big = font("bold", size)
    headline = _fit_with_names(ctx, headline, big, avail)
    if hint:
        draw_text(img, (tx, top + 30), headline, big, GOLD_DARK, "lm")
        hint_font = font("regular", 21)
        draw_text(img, (tx, top + 61), fit_text(hint, hint_font, avail), hint_font, GOLD_SUB, "lm")
    else:
        draw_text(img, (tx, top + height / 2), headline, big, GOLD_DARK, "lm")


def _fit_with_names(ctx: _Ctx, text_: str, fnt: Font, max_width: int) -> str:
    """Fit a sentence holding player names: shorten the longest names first,
    so that what must be done stays readable."""
    if text_width(fnt, text_) <= max_width:
        return text_
    names = sorted({nm for nm in ctx.names if nm in text_}, key=len, reverse=True)
    shortened = text_
    for limit in (24, 18, 14, 10):
        shortened = text_
        for nm in names:
            if len(nm) > limit:
                shortened = shortened.replace(nm, nm[: limit - 1].rstrip() + "…")
        if text_width(fnt, shortened) <= max_width:
            return shortened
    return fit_text(shortened, fnt, max_width)


def _no_mans_land(img: Image.Image, ctx: _Ctx, a: int, b: int, y: int, h: int) -> None:
    """Between two facing positions: a dashed line, and the last fire's
    direction when it crossed here (long range, counter-battery)."""
    cx = MARGIN + BOX_W + GUTTER // 2
    colour = mix(BG_TOP, TEXT, 0.22)
    draw = ImageDraw.Draw(img)
    for yy in range(y + 8, y + h - 8, 14):
        draw.line((cx, yy, cx, min(yy + 7, y + h - 8)), fill=colour, width=2)
    combat = ctx.view.last_combat
    if combat is None or ctx.view.phase == "deploy":
        return
    if {combat.origin, combat.at} == {a, b} and combat.origin != combat.at:
        seat = combat.seat
        d = 30
        cy = y + h // 2
        ellipse(
            img, (cx - d // 2, cy - d // 2, cx + d // 2, cy + d // 2), ctx.colour(seat), GOLD, 2
        )
        arrow = glyph("arrow", 18, 14, WHITE)
        if combat.at == b:
            paste_rgba(img, arrow, (cx - 9, cy - 7))
        else:
            paste_rgba(img, arrow.transpose(Image.Transpose.FLIP_LEFT_RIGHT), (cx - 9, cy - 7))


# ---------------------------------------------------------------------------
# Dice: the last fire and the last cohesion tests
# ---------------------------------------------------------------------------

DIE = 50
TEST_DIE = 28
TEST_ROW = 36
MAX_TEST_ROWS = 6


def _dice_height(ctx: _Ctx) -> int:
    v = ctx.view
    if v.phase == "deploy":
        return 0
    fire = 228 if v.last_combat is not None else 96
    tests = len(v.last_tests)
    rows = min(tests, MAX_TEST_ROWS) + (1 if tests > MAX_TEST_ROWS else 0)
    test_h = 54 + max(1, rows) * TEST_ROW + 10
    return max(fire, test_h)


def _dice_section(img: Image.Image, ctx: _Ctx, top: int, height: int) -> None:
    if height <= 0:
        return
    left = (MARGIN, top, MARGIN + BOX_W, top + height)
    right = (MARGIN + BOX_W + GUTTER, top, WIDTH - MARGIN, top + height)
    _fire_panel(img, ctx, left)
    _tests_panel(img, ctx, right)


def _panel_frame(img: Image.Image, box: Box, title: str, seat: int, ctx: _Ctx) -> int:
    _rrect(img, box, 16, PANEL, PANEL_EDGE, 2)
    x0, y0, x1, _ = box
    title_font = font("bold", 17)
    draw_text(img, (x0 + 16, y0 + 20), title, title_font, GOLD, "lm")
    if seat >= 0:
        tx = x0 + 16 + text_width(title_font, title) + 12
        name_font = font("condensed-bold", 18)
        who = fit_text(ctx.who(seat), name_font, x1 - tx - 40)
        w = text_width(name_font, who) + 36
        _rrect(img, (tx, y0 + 7, tx + w, y0 + 33), 13, ctx.colour(seat))
        img.paste(ctx.accent(seat), (tx + 10, y0 + 13, tx + 18, y0 + 27))
        draw_text(img, (tx + 24, y0 + 21), who, name_font, WHITE, "lm")
    return y0 + 40


def _fire_panel(img: Image.Image, ctx: _Ctx, box: Box) -> None:
    combat = ctx.view.last_combat
    seat = combat.seat if combat is not None else -1
    title = ctx.t("last_fire")
    if combat is not None and combat.turn:
        title += f" · {ctx.t('fire_turn', n=combat.turn)}"
    y = _panel_frame(img, box, title, seat, ctx)
    x0, _, x1, y1 = box
    if combat is None:
        draw_text(img, (x0 + 16, y + 18), ctx.t("no_fire"), font("regular", 19), MUTED, "lm")
        return
    inner = x1 - x0 - 32
    # who fired, how, at what
    line_font = font("condensed-bold", 21)
    firer = f"{combat.card} {ctx.type_name(combat.type)}"
    if combat.mode != "melee":
        firer += f" ({ctx.code(combat.origin)})"
    mode = ctx.t_or(f"mode-{combat.mode}", combat.mode)
    status = f", {ctx.t(combat.status)}" if combat.status in ("attack", "defence") else ""
    text2 = f"{mode}{status} {ctx.at(combat.at)}"
    if combat.target:
        text2 = f"{mode} → {ctx.card_label(combat.target)} {ctx.at(combat.at)}"
        if text_width(font("regular", 19), text2) > inner:
            text2 = f"{mode} → {ctx.card_label(combat.target)} ({ctx.code(combat.at)})"
    draw_text(img, (x0 + 16, y + 12), fit_text(firer, line_font, inner), line_font, TEXT, "lm")
    sub = font("regular", 19)
    draw_text(img, (x0 + 16, y + 38), fit_text(text2, sub, inner), sub, MUTED, "lm")
    # the dice
    dy = y + 58
    dx = x0 + 16
    sixes_hit_general = bool(combat.general)
    for value in combat.dice:
        hit = value <= combat.threshold
        if hit:
            fill, pip, edge = RED, WHITE, darken(RED, 0.3)
        else:
            fill, pip, edge = CARD_FACE, INK, (150, 150, 140)
        _draw_die(img, dx, dy, DIE, value, fill, pip, edge)
        if value == 6 and sixes_hit_general:
            star = icon("star", 20, GOLD)
            ellipse(img, (dx + DIE - 16, dy - 8, dx + DIE + 8, dy + 16), GOLD_DARK, GOLD, 2)
            paste_rgba(img, star, (dx + DIE - 14, dy - 7))
        dx += DIE + 10
    if not combat.dice:
        draw_text(img, (dx, dy + DIE / 2), "—", font("bold", 30), MUTED, "lm")
        dx += 40
    # threshold and hits on the right
    rx = x1 - 16
    hits = combat.hits
    hits_text = (
        ctx.t("no_hit") if hits == 0 else (ctx.t("hit") if hits == 1 else ctx.t("hits", n=hits))
    )
    hf = font("bold", 24)
    hw = text_width(hf, hits_text) + 24
    _rrect(img, (rx - hw, dy + 6, rx, dy + DIE - 6), 12, RED if hits else (70, 84, 80))
    draw_text(img, (rx - hw / 2, dy + DIE / 2), hits_text, hf, WHITE, "mm")
    rx -= hw + 10
    thr_font = font("bold", 26)
    thr = f"≤ {combat.threshold}"
    lab_font = font("condensed-bold", 15)
    tw = max(text_width(thr_font, thr), text_width(lab_font, ctx.t("to_hit"))) + 16
    if rx - tw > dx:
        _rrect(img, (rx - tw, dy, rx, dy + DIE), 10, CARD_FACE, GOLD, 3)
        draw_text(img, (rx - tw / 2, dy + 14), ctx.t("to_hit"), lab_font, GOLD_SUB, "mm")
        draw_text(img, (rx - tw / 2, dy + 34), thr, thr_font, INK, "mm")
    # how many dice
    y2 = dy + DIE + 18
    n = combat.dice_count
    count = ctx.t("die") if n == 1 else ctx.t("dice", n=n)
    calc = f"VC {combat.vc}"
    if combat.modifiers:
        calc += ", " + _mods_text(ctx, combat.modifiers)
    calc = f"{calc} → {count}"
    small = font("regular", 18)
    draw_text(img, (x0 + 16, y2), fit_text(calc, small, inner), small, TEXT, "lm")
    # losses and eliminations
    y3 = y2 + 26
    parts: list[str] = []
    for uid in dict.fromkeys(combat.losses):
        k = combat.losses.count(uid)
        label = ctx.card_label(uid) + (f" ×{k}" if k > 1 else "")
        if uid in combat.eliminated:
            label += f" ({ctx.t('elim_short')})"
        parts.append(label)
    placing = ctx.view.phase == "allocate" and ctx.view.alloc is not None
    if parts:
        text3 = ctx.t("pair", label=ctx.t("losses_on"), text=", ".join(parts))
    elif hits and placing:
        text3 = ctx.t("pair", label=ctx.t("losses_on"), text=ctx.t("placing"))
    elif hits:
        text3 = ctx.t("pair", label=ctx.t("losses_on"), text=ctx.t("lost"))
    else:
        text3 = ""
    if placing and parts:
        text3 += f" · {ctx.t('placing')}"
    if text3:
        draw_text(
            img, (x0 + 16, y3), fit_text(text3, small, inner), small, lighten(RED, 0.45), "lm"
        )
        y3 += 24
    if combat.general:
        g = ctx.card_label(combat.general)
        six = combat.sixes
        text4 = ctx.t("general-sixes", six=six, general=g)
        draw_text(img, (x0 + 16, y3), fit_text(text4, small, inner), small, GOLD, "lm")
    del y1


def _tests_panel(img: Image.Image, ctx: _Ctx, box: Box) -> None:
    tests = ctx.view.last_tests
    seat = tests[0].seat if tests else -1
    y = _panel_frame(img, box, ctx.t("tests"), seat, ctx)
    x0, _, x1, _ = box
    if not tests:
        draw_text(img, (x0 + 16, y + 18), ctx.t("no_tests"), font("regular", 19), MUTED, "lm")
        return
    y += 6
    for test in tests[:MAX_TEST_ROWS]:
        _test_row(img, ctx, test, x0 + 12, y, x1 - 12)
        y += TEST_ROW
    if len(tests) > MAX_TEST_ROWS:
        more = ctx.t("more", n=len(tests) - MAX_TEST_ROWS)
        draw_text(img, (x0 + 16, y + TEST_ROW / 2), more, font("regular", 18), MUTED, "lm")


def _on_board(ctx: _Ctx, uid: str) -> bool:
    """Whether the card ``uid`` is on the board in the view."""
    return any(c.uid == uid for p in ctx.view.positions for side in p.sides for c in side.units)


def _test_row(img: Image.Image, ctx: _Ctx, test: Test, x0: int, y: int, x1: int) -> None:
    h = TEST_ROW - 4
    _rrect(img, (x0, y, x1, y + h), 8, mix(PANEL, (0, 0, 0), 0.18))
    # result on the right
    if test.kind == "general":
        result = ctx.t("survives") if test.passed else ctx.t("killed")
    elif test.kind == "disorganisation":
        result = ctx.t("stays") if test.passed else ctx.t("to_reserve")
    elif (
        not test.passed
        and ctx.view.rules.ralliement_timing == "failure"
        and _on_board(ctx, test.card)
    ):
        # option ralliement_timing=failure: still on the board after failing
        pending = ctx.view.phase == "rally" and ctx.view.last_tests[-1] == test
        result = ctx.t("fails_test" if pending else "rallied")
    else:
        result = ctx.t("holds_test") if test.passed else ctx.t("routs")
    rf = font("condensed-bold", 17)
    rw = text_width(rf, result) + 18
    fill = GREEN if test.passed or result == ctx.t("rallied") else RED
    _rrect(img, (x1 - rw - 4, y + 4, x1 - 4, y + h - 4), 8, fill)
    draw_text(img, (x1 - 4 - rw / 2, y + h / 2 + 1), result, rf, WHITE, "mm")
    # dice
    dx = x1 - rw - 12
    for value in reversed(test.dice):
        if test.kind == "general":
            ok = value != 6
        else:
            ok = value == 1 or (value != 6 and value <= test.target)
        fill_d, pip, edge = (
            (CARD_FACE, INK, (150, 150, 140)) if ok else (RED, WHITE, darken(RED, 0.3))
        )
        dx -= TEST_DIE
        _draw_die(img, dx, y + (h - TEST_DIE) // 2, TEST_DIE, value, fill_d, pip, edge)
        dx -= 4
    # the number to reach
    tf = font("bold", 18)
    if test.kind == "general":
        target = ctx.t("dies_on_6")
        tf = font("condensed-bold", 16)
    else:
        target = f"≤ {test.target}"
    tw = text_width(tf, target) + 12
    dx -= 6
    _rrect(img, (dx - tw, y + 5, dx, y + h - 5), 7, CARD_FACE)
    draw_text(img, (dx - tw / 2, y + h / 2 + 1), target, tf, INK, "mm")
    dx -= tw + 8
    # who
    nf = font("condensed-bold", 17)
    label = f"{test.card} {ctx.type_short(test.type)} · {ctx.code(test.position)}"
    if test.kind == "disorganisation":
        label = f"{ctx.t('disorg')} {label}"
    elif test.kind == "general":
        label = f"★ {test.card} {ctx.type_name(test.type)}"
    if test.modifiers and test.kind != "general":
        mods = _mods_text(ctx, test.modifiers)
        full = f"{label} ({mods})"
        if text_width(nf, full) <= dx - x0 - 10:
            label = full
    draw_text(img, (x0 + 8, y + h / 2 + 1), fit_text(label, nf, dx - x0 - 10), nf, TEXT, "lm")


# ---------------------------------------------------------------------------
# Armies: counters on top of each line, details under the dice
# ---------------------------------------------------------------------------

ARMY_H = 98
ARMY_BAND = 40
DETAIL_LINE = 22
DETAIL_LABEL = font("condensed-bold", 17)
DETAIL_TEXT = font("regular", 17)


def _army_panel(img: Image.Image, ctx: _Ctx, player: PlayerView, box: Box) -> None:
    """The head of a battle line: the player, the army, its counters, how
    many enemy positions it holds (two win), readiness while deploying."""
    v = ctx.view
    x0, y0, x1, y1 = box
    seat = player.seat
    colour = ctx.colour(seat)
    pending = any(s == seat for s, _ in v.pending)
    _rrect(img, box, 14, PANEL, GOLD if pending else mix(PANEL_EDGE, colour, 0.4), 3)
    band = (x0 + 3, y0 + 3, x1 - 3, y0 + ARMY_BAND)
    _rrect(img, band, 12, colour)
    img.paste(colour, (band[0], band[3] - 12, band[2], band[3]))
    img.paste(ctx.accent(seat), (x0 + 12, y0 + 11, x0 + 18, y0 + ARMY_BAND - 8))
    disc = 28
    dx, dy = x0 + 26, y0 + 3 + (ARMY_BAND - 3 - disc) // 2
    ellipse(img, (dx, dy, dx + disc, dy + disc), WHITE)
    draw_text(
        img, (dx + disc / 2, dy + disc / 2 + 1), str(seat + 1), font("bold", 18), colour, "mm"
    )
    right_text = f"{ctx.t('army-' + player.side)} · {ctx.t('points', n=player.points)}"
    rf = font("condensed-bold", 18)
    mid = y0 + 3 + (ARMY_BAND - 3) / 2
    draw_text(img, (x1 - 14, mid + 1), right_text, rf, lighten(colour, 0.7), "rm")
    nf = font("condensed-bold", 23)
    name = fit_text(ctx.name(seat), nf, x1 - dx - disc - 40 - text_width(rf, right_text))
    draw_text(img, (dx + disc + 10, mid + 1), name, nf, readable_on(colour), "lm")
    # counters
    y = y0 + ARMY_BAND + 6
    x = x0 + 14
    mini_w = 22
    back = _card_back(mini_w, _card_h(mini_w), colour, ctx.accent(seat), player.letter)
    big = font("bold", 24)
    label_font = font("regular", 15)
    if v.phase == "deploy":
        counters = [
            (ctx.t("dealt"), player.army_size - player.pile_count),
            (ctx.t("pile"), player.pile_count),
        ]
    else:
        counters = [
            (ctx.t("reserve"), player.reserve_count),
            (ctx.t("pile"), player.pile_count),
            (ctx.t("eliminated"), len(player.eliminated)),
        ]
    for label, value in counters:
        paste_rgba(img, back, (x, y + 8))
        paste_rgba(img, back, (x + 5, y + 5))
        tx = x + mini_w + 12
        draw_text(img, (tx, y + 15), str(value), big, TEXT, "lm")
        draw_text(img, (tx, y + 37), label, label_font, MUTED, "lm")
        x = tx + max(text_width(big, str(value)), text_width(label_font, label)) + 18
    # on the right: readiness, or the occupation count (two win)
    right = x1 - 12
    cy = y + 4
    if v.phase == "deploy":
        if player.ready:
            pill(
                img,
                right,
                cy + 4,
                ctx.t("ready") + " ✓",
                font("condensed-bold", 18),
                GREEN,
                WHITE,
                32,
                align="right",
            )
        else:
            pill(
                img,
                right,
                cy + 4,
                ctx.t("deploying"),
                font("condensed-bold", 18),
                (70, 84, 80),
                TEXT,
                32,
                align="right",
            )
        return
    # occupation: enemy positions held alone, two win
    holds = player.holds
    slot = 22
    ox = x + 4
    for k in range(2):
        bx = ox + k * (slot + 5)
        filled = k < holds
        _rrect(img, (bx, y + 4, bx + slot, y + 4 + slot), 6, GOLD if filled else PANEL, GOLD, 2)
        if filled:
            paste_rgba(img, icon("star", 14, GOLD_DARK), (bx + 4, y + 8))
    occ_font = font("regular", 15)
    draw_text(img, (ox, y + 37), ctx.t("occupation"), occ_font, GOLD if holds else MUTED, "lm")
    end = ox + max(2 * slot + 5, text_width(occ_font, ctx.t("occupation")))
    if v.first_player == seat:
        first = ctx.t("first")
        ff = font("condensed-bold", 15)
        if right - text_width(ff, first) - 20 > end + 8:
            pill(img, right, cy + 4, first, ff, (46, 84, 73), MUTED, 26, pad=10, align="right")
    del y1


def _generals_text(ctx: _Ctx, player: PlayerView) -> str:
    """The side's generals that everybody can place: where each is, or that
    he is dead; then how many the army has besides (the board shows public
    information only, the same for every observer)."""
    parts = []
    unseen = player.generals_unseen
    for gs in player.generals:
        if not gs.public:
            unseen += 1
        elif gs.where == "board":
            parts.append(f"{gs.name}\u00a0({gs.code})")
        elif gs.where == "reserve":
            parts.append(f"{gs.name}\u00a0({ctx.t('gen_reserve')})")
        else:
            parts.append(f"{gs.name}\u00a0†\u00a0({ctx.t('gen_dead')})")
    if unseen:
        parts.append(ctx.t("gen_unseen", n=unseen))
    # no-break spaces: a wrapped line never starts with "·" nor separates a
    # general from his position
    return "\u00a0· ".join(parts)


def _detail_lines(ctx: _Ctx, player: PlayerView) -> list[tuple[str, str, RGB]]:
    """(label, text, colour): the generals, eliminated cards, specials
    played, reserve cards known to all."""
    out: list[tuple[str, str, RGB]] = []
    if ctx.view.phase == "deploy":
        return out
    if player.generals or player.generals_unseen:
        out.append((ctx.t("label", label=ctx.t("generals")), _generals_text(ctx, player), GOLD))
    if player.eliminated:
        names: dict[str, int] = {}
        for card in player.eliminated:
            names[card.short] = names.get(card.short, 0) + 1
        text_ = ", ".join(f"{n} ×{k}" if k > 1 else n for n, k in names.items())
        out.append((ctx.t("label", label=ctx.t("eliminated")), text_, lighten(RED, 0.4)))
    if player.used:
        out.append(
            (ctx.t("label", label=ctx.t("played")), ", ".join(c.name for c in player.used), TEXT)
        )
    if player.reserve_known:
        shorts = ", ".join(ctx.type_short(t) for t in player.reserve_known)
        out.append((ctx.t("label", label=ctx.t("known")), shorts, TEXT))
    return out


def _wrapped_details(ctx: _Ctx, player: PlayerView) -> list[tuple[str, list[str], RGB]]:
    """Detail lines wrapped under their label (at most two rows each)."""
    inner = BOX_W - 36
    out = []
    for label, text_, ink in _detail_lines(ctx, player):
        first = inner - text_width(DETAIL_LABEL, label)
        rows: list[str] = []
        line = ""
        for word in text_.split(" "):
            limit = first if not rows else inner
            candidate = f"{line} {word}" if line else word
            if text_width(DETAIL_TEXT, candidate) <= limit or not line:
                line = candidate
            else:
                rows.append(line)
                line = word
        rows.append(line)
        if len(rows) > 2:
            rows = [rows[0], fit_text(" ".join(rows[1:]), DETAIL_TEXT, inner)]
        rows[0] = fit_text(rows[0], DETAIL_TEXT, first)
        out.append((label, rows, ink))
    return out


def _details_height(ctx: _Ctx) -> int:
    rows = max(sum(len(r) for _, r, _ in _wrapped_details(ctx, p)) for p in ctx.view.players)
    return DETAIL_LINE * rows + 20 if rows else 0


def _details(img: Image.Image, ctx: _Ctx, player: PlayerView, box: Box) -> None:
    x0, y0, x1, y1 = box
    lines = _wrapped_details(ctx, player)
    if not lines:
        return
    _rrect(img, box, 12, mix(BG_BOTTOM, PANEL, 0.6))
    img.paste(ctx.colour(player.seat), (x0 + 6, y0 + 10, x0 + 12, y1 - 10))
    y = y0 + 10
    for label, rows, ink in lines:
        draw_text(img, (x0 + 20, y + 11), label, DETAIL_LABEL, MUTED, "lm")
        lx = x0 + 20 + text_width(DETAIL_LABEL, label)
        for k, row in enumerate(rows):
            draw_text(img, (lx if k == 0 else x0 + 20, y + 11), row, DETAIL_TEXT, ink, "lm")
            y += DETAIL_LINE
    del x1


# ---------------------------------------------------------------------------
# Private image: one seat's cards and moves
# ---------------------------------------------------------------------------

COL_GAP = 20
COL_W = (WIDTH - 2 * MARGIN - COL_GAP) // 2
TILE_W = 48
CHIP_H = 32


@dataclass(frozen=True)
class _Entry:
    card: CardView
    uids: tuple[str, ...]
    moves: tuple[str, ...]
    hidden: bool  # a face-down card on the battlefield (the enemy does not know it)


def _choice_card(choice: str) -> str:
    """The card a choice acts with (``""`` for ``ok`` and ``undo``)."""
    if choice.startswith("-"):
        return choice[1:]
    for sep in ("!", "@", ">"):
        head, found, _ = choice.partition(sep)
        if found:
            return head
    return ""


def _entries(
    cards: Sequence[CardView], by_card: dict[str, list[str]], on_board: bool
) -> list[_Entry]:
    """Cards grouped when interchangeable (same type and status), with their moves."""
    groups: dict[CardView, list[CardView]] = {}
    for card in cards:
        key = dataclasses.replace(card, uid="")
        groups.setdefault(key, []).append(card)
    out = []
    for members in groups.values():
        uids = tuple(c.uid for c in members)
        moves: list[str] = []
        for uid in uids:
            moves += by_card.get(uid, [])
        first = members[0]
        hidden = on_board and first.kind == "unit" and not first.face_up
        out.append(_Entry(first, uids, tuple(moves), hidden))
    return out


def _entry_lines(entry: _Entry, lang: str) -> tuple[str, str]:
    card = entry.card
    sep = " · "
    title = f"{entry.uids[0]}  {card.name}"
    if len(entry.uids) > 1:
        title = f"{', '.join(entry.uids)}  {card.name}"
    if card.kind == "unit":
        bits = [f"VC {card.vc}", f"A{card.fire_attack} / D{card.fire_defence}"]
        if card.long_range:
            bits.append(f"*{card.long_range}")
        if card.save:
            bits.append(f"{_tr('save', lang)} {_signed(card.save)}")
        bits.append(f"{_tr('move', lang)} {card.move}")
        if card.cohesion:
            bits.append(_tr("coh", lang, n=card.cohesion))
        if card.tokens:
            bits.append(_tr("tokens_n", lang, n=card.tokens))
        if card.fought:
            bits.append(_tr("fired", lang))
        if card.moves:
            bits.append(_tr("moved", lang))
        if card.entrenched:
            bits.append(_tr("entrenched", lang))
        if card.forced:
            bits.append(_tr("forced", lang))
        return title, sep.join(bits)
    if card.kind == "general":
        bits = [f"A{card.attack} / D{card.defence}"]
        if card.rally:
            bits.append(f"{_tr('rally', lang)} +{card.rally}")
        if card.tokens:
            bits.append(_tr("tokens_n", lang, n=card.tokens))
        return title, sep.join(bits)
    key = f"bp-render-text-{card.type}"
    return title, i18n.translate(lang, key) if i18n.has(lang, key) else ""


def _chip_rows(moves: Sequence[str], width: int) -> list[list[tuple[str, int]]]:
    fnt = font("bold", 18)
    rows: list[list[tuple[str, int]]] = []
    row: list[tuple[str, int]] = []
    used = 0
    for move in moves:
        w = text_width(fnt, move) + 18
        if row and used + w > width:
            rows.append(row)
            row, used = [], 0
        row.append((move, w))
        used += w + 6
    if row:
        rows.append(row)
    return rows


ENTRY_TEXT_W = COL_W - TILE_W - 30
ENTRY_TITLE = font("condensed-bold", 20)
ENTRY_SUB = font("regular", 17)
ENTRY_TAG = font("condensed-bold", 15)


@dataclass(frozen=True)
class _EntryLayout:
    title: str
    lines: tuple[str, ...]
    chips: tuple[tuple[tuple[str, int], ...], ...]
    height: int


@lru_cache(maxsize=2048)
def _entry_layout(entry: _Entry, lang: str) -> _EntryLayout:
    """What an entry shows and how tall it is (memoised: the same cards come
    back from one image to the next)."""
    title, sub = _entry_lines(entry, lang)
    title_w = ENTRY_TEXT_W
    if entry.hidden:
        title_w -= text_width(ENTRY_TAG, _tr("hidden_tag", lang)) + 24
    lines = wrap_text(sub, ENTRY_SUB, ENTRY_TEXT_W) if sub else []
    if len(lines) > 2:
        lines = [lines[0], fit_text(" ".join(lines[1:]), ENTRY_SUB, ENTRY_TEXT_W)]
    chips = tuple(tuple(row) for row in _chip_rows(entry.moves, ENTRY_TEXT_W))
    height = max(_card_h(TILE_W) + 16, 46 + 20 * len(lines) + len(chips) * (CHIP_H + 6))
    return _EntryLayout(fit_text(title, ENTRY_TITLE, title_w), tuple(lines), chips, height)


def _entry_height(ctx: _Ctx, entry: _Entry) -> int:
    return _entry_layout(entry, ctx.lang).height


def _mini_tile(img: Image.Image, ctx: _Ctx, card: CardView, seat: int, x: int, y: int) -> None:
    w, h = TILE_W, _card_h(TILE_W)
    if card.kind == "terrain":
        colour = TERRAIN_COLOURS.get(card.type, NEUTRAL)
    elif card.kind == "special":
        colour = SPECIAL_COLOUR
    else:
        colour = ctx.colour(seat)
    _rrect(img, (x, y, x + w, y + h), 6, colour)
    _rrect(img, (x + 3, y + 24, x + w - 3, y + h - 3), 4, CARD_FACE)
    if card.kind == "unit":
        draw_text(img, (x + w / 2, y + 13), str(card.vc), font("bold", 19), WHITE, "mm")
        sym = glyph(card.category, 30, 20, colour)
        paste_rgba(img, sym, (x + (w - 30) // 2, y + 24 + (h - 27 - 20) // 2))
        if card.tokens:
            ellipse(img, (x + w - 18, y + h - 18, x + w - 2, y + h - 2), TOKEN, WHITE, 2)
    elif card.kind == "general":
        star = icon("star", 16, WHITE)
        paste_rgba(img, star, (x + (w - 16) // 2, y + 4))
        vf = font("bold", 13)
        draw_text(img, (x + w / 2, y + 24 + (h - 27) / 2 - 8), f"A{card.attack}", vf, colour, "mm")
        draw_text(img, (x + w / 2, y + 24 + (h - 27) / 2 + 8), f"D{card.defence}", vf, colour, "mm")
    else:
        g = glyph(card.type, 30, 24, colour)
        paste_rgba(img, g, (x + (w - 30) // 2, y + 24 + (h - 27 - 24) // 2))
        draw_text(
            img,
            (x + w / 2, y + 13),
            "T" if card.kind == "terrain" else "S",
            font("bold", 15),
            WHITE,
            "mm",
        )


def _draw_entry(img: Image.Image, ctx: _Ctx, entry: _Entry, seat: int, x: int, y: int) -> None:
    layout = _entry_layout(entry, ctx.lang)
    h = layout.height
    has_moves = bool(entry.moves)
    edge = mix(PANEL_EDGE, GREEN, 0.5) if has_moves else PANEL_EDGE
    _rrect(img, (x, y, x + COL_W, y + h - 6), 12, PANEL, edge, 2)
    _mini_tile(img, ctx, entry.card, seat, x + 8, y + 8)
    tx = x + 8 + TILE_W + 12
    if entry.hidden:
        tag = ctx.t("hidden_tag")
        tag_w = text_width(ENTRY_TAG, tag) + 16
        tag_x = x + COL_W - 10 - tag_w
        back_colour = darken(ctx.colour(seat), 0.25)
        _rrect(img, (tag_x, y + 9, tag_x + tag_w, y + 31), 11, back_colour, GOLD, 2)
        draw_text(img, (tag_x + tag_w / 2, y + 20), tag, ENTRY_TAG, GOLD, "mm")
    draw_text(img, (tx, y + 20), layout.title, ENTRY_TITLE, TEXT, "lm")
    ty = y + 34
    for line in layout.lines:
        draw_text(img, (tx, ty + 10), line, ENTRY_SUB, MUTED, "lm")
        ty += 20
    ty += 6
    cf = font("bold", 18)
    for row in layout.chips:
        cx = tx
        for move, w in row:
            _rrect(img, (cx, ty, cx + w, ty + CHIP_H), 9, GREEN, lighten(GREEN, 0.35), 2)
            draw_text(img, (cx + w / 2, ty + CHIP_H / 2 + 1), move, cf, WHITE, "mm")
            cx += w + 6
        ty += CHIP_H + 6


def _pack(ctx: _Ctx, entries: Sequence[_Entry]) -> list[tuple[_Entry, int, int]]:
    """Two columns, row by row: (entry, column, y offset); the total height
    is the last offset plus its row height."""
    out: list[tuple[_Entry, int, int]] = []
    y = 0
    for i in range(0, len(entries), 2):
        pair = entries[i : i + 2]
        h = max(_entry_height(ctx, e) for e in pair)
        for col, entry in enumerate(pair):
            out.append((entry, col, y))
        y += h
    return out


def _packed_height(ctx: _Ctx, entries: Sequence[_Entry]) -> int:
    total = 0
    for i in range(0, len(entries), 2):
        total += max(_entry_height(ctx, e) for e in entries[i : i + 2])
    return total


def _private_groups(
    ctx: _Ctx, seat: int, by_card: dict[str, list[str]]
) -> list[tuple[PositionView, list[_Entry]]]:
    """The seat's cards on the battlefield, position by position (its own
    line first), with their moves."""
    v = ctx.view
    letter = v.players[seat].letter
    out: list[tuple[PositionView, list[_Entry]]] = []
    order = [seat * 3 + w for w in range(3)] + [(1 - seat) * 3 + w for w in range(3)]
    for p in order:
        if p >= len(v.positions):
            continue
        pos = v.positions[p]
        side = pos.sides[seat]
        cards: list[CardView] = []
        if side.general is not None:
            cards.append(side.general)
        cards += list(side.units)
        cards += [c for c in pos.terrain if c.uid.startswith(letter) and v.phase == "deploy"]
        if not cards:
            continue
        out.append((pos, _entries(cards, by_card, on_board=True)))
    return out


def render_private(view: object, names: Sequence[str], locale: str = "en") -> bytes:
    ctx = _context(view, names, locale, private=True)
    v = ctx.view
    seat = v.observer
    player = v.players[seat] if seat is not None and 0 <= seat < len(v.players) else None
    if seat is None or player is None or player.reserve is None:
        return message_image(ctx.t("spectator_title"), [ctx.t("spectator")])
    by_card: dict[str, list[str]] = {}
    general_moves: list[str] = []
    for choice in v.choices:
        card = _choice_card(choice)
        if card:
            by_card.setdefault(card, []).append(choice)
        else:
            general_moves.append(choice)
    groups = _private_groups(ctx, seat, by_card)
    reserve = _entries(player.reserve, by_card, on_board=False)

    header_h = 96
    status_top = header_h + 12
    status_h = 76
    y = status_top + status_h + 12
    order_line = bool(player.staged) and v.phase == "deploy" and not player.ready
    order_top = y
    if order_line:
        y += 40
    others_top = y
    others_h = 56 if general_moves else 0
    y += others_h
    field_top = y
    field_h = 44
    if groups:
        for _, entries in groups:
            field_h += 38 + _packed_height(ctx, entries)
    else:
        field_h += 36
    reserve_top = field_top + field_h + 8
    reserve_h = 44 + (_packed_height(ctx, reserve) if reserve else 36)
    notation_top = reserve_top + reserve_h + 6
    height = notation_top + 36

    img = canvas(WIDTH, height, BG_TOP, BG_BOTTOM)
    _private_header(img, ctx, player, header_h)
    _private_status(img, ctx, seat, status_top, status_h)
    if order_line:
        _order_line(img, ctx, player, order_top)
    if general_moves:
        _general_moves(img, ctx, general_moves, others_top)
    # the battlefield
    y = field_top
    _section_title(img, ctx.t("on_field"), y)
    y += 44
    if not groups:
        draw_text(
            img, (MARGIN + 4, y + 12), ctx.t("nothing_field"), font("regular", 19), MUTED, "lm"
        )
    for pos, entries in groups:
        _group_head(img, ctx, pos, seat, y)
        y += 38
        for entry, col, off in _pack(ctx, entries):
            _draw_entry(img, ctx, entry, seat, MARGIN + col * (COL_W + COL_GAP), y + off)
        y += _packed_height(ctx, entries)
    # the reserve
    y = reserve_top
    n = len(player.reserve)
    title = (
        ctx.t("reserve_0") if n == 0 else ctx.t("reserve_1") if n == 1 else ctx.t("reserve_n", n=n)
    )
    _section_title(img, title, y, f"{ctx.t('pile')} {player.pile_count}")
    y += 44
    if not reserve:
        draw_text(img, (MARGIN + 4, y + 12), "—", font("regular", 19), MUTED, "lm")
    for entry, col, off in _pack(ctx, reserve):
        _draw_entry(img, ctx, entry, seat, MARGIN + col * (COL_W + COL_GAP), y + off)
    nf = font("regular", 17)
    draw_text(img, (WIDTH / 2, notation_top + 14), ctx.t("notation"), nf, MUTED, "mm")
    return to_png(img)


def _section_title(img: Image.Image, title: str, y: int, right: str = "") -> None:
    fnt = font("bold", 22)
    draw_text(img, (MARGIN + 4, y + 20), title, fnt, TEXT, "lm")
    x = MARGIN + 4 + text_width(fnt, title) + 14
    draw = ImageDraw.Draw(img)
    end = WIDTH - MARGIN
    if right:
        rf = font("condensed-bold", 19)
        draw_text(img, (end, y + 20), right, rf, MUTED, "rm")
        end -= text_width(rf, right) + 14
    draw.line((x, y + 21, end, y + 21), fill=PANEL_EDGE, width=2)


def _group_head(img: Image.Image, ctx: _Ctx, pos: PositionView, seat: int, y: int) -> None:
    rel = pos.relative
    colour = ctx.colour(pos.line)
    x = MARGIN
    x += pill(img, x, y + 2, rel or pos.code, font("bold", 19), GOLD, GOLD_DARK, 30, pad=12) + 8
    x += pill(img, x, y + 2, pos.code, font("bold", 17), colour, WHITE, 30, pad=10) + 10
    name = ctx.t_or(f"wing-{rel}", ctx.pos_name(pos.index))
    side = pos.sides[seat]
    status = ctx.t(side.status) if side.status in ("attack", "defence") else ""
    bits = [name, status, f"{side.count}/{side.capacity}"]
    if pos.terrain and ctx.view.phase != "deploy":
        bits.append(", ".join(t.name for t in pos.terrain))
    if pos.conquered:
        bits.append(ctx.t("conquered").lower())
    if pos.engaged:
        bits.append(ctx.t("engaged").lower())
    fnt = font("condensed-bold", 19)
    draw_text(
        img,
        (x, y + 17),
        fit_text("  ·  ".join(b for b in bits if b), fnt, WIDTH - MARGIN - x),
        fnt,
        TEXT,
        "lm",
    )


def _order_line(img: Image.Image, ctx: _Ctx, player: PlayerView, y: int) -> None:
    where: dict[str, str] = {}
    for pos in ctx.view.positions:
        for side in pos.sides:
            if side.general is not None:
                where[side.general.uid] = pos.relative
            for card in side.units:
                where[card.uid] = pos.relative
        for card in pos.terrain:
            where[card.uid] = pos.relative
    steps = [f"{uid}>{where.get(uid, '?')}" for uid in player.staged]
    label = ctx.t("label", label=ctx.t("order"))
    lf = font("condensed-bold", 18)
    draw_text(img, (MARGIN + 4, y + 16), label, lf, MUTED, "lm")
    x = MARGIN + 4 + text_width(lf, label)
    draw_text(
        img,
        (x, y + 16),
        fit_text("  ".join(steps), font("bold", 18), WIDTH - MARGIN - x),
        font("bold", 18),
        TEXT,
        "lm",
    )


def _ok_label(ctx: _Ctx, choice: str) -> str:
    v = ctx.view
    if choice == "undo":
        return ctx.t("ok-undo")
    if v.phase == "rally" and v.rules.ralliement_timing == "failure":
        return ctx.t("ok-let-rout")
    return ctx.t_or(f"ok-{v.phase}", ctx.t("ok-done"))


def _general_moves(img: Image.Image, ctx: _Ctx, moves: Sequence[str], y: int) -> None:
    x = MARGIN
    code_font = font("bold", 21)
    label_font = font("regular", 19)
    for move in moves:
        label = _ok_label(ctx, move)
        code_w = text_width(code_font, move) + 28
        w = code_w + text_width(label_font, label) + 22
        fill = GREEN if move == "ok" else (120, 96, 40)
        _rrect(img, (x, y, x + w, y + 42), 12, (44, 80, 70), (74, 116, 104), 2)
        _rrect(img, (x, y, x + code_w, y + 42), 12, fill)
        draw_text(img, (x + code_w / 2, y + 21), move, code_font, WHITE, "mm")
        draw_text(img, (x + code_w + 10, y + 21), label, label_font, TEXT, "lm")
        x += w + 12


def _private_header(img: Image.Image, ctx: _Ctx, player: PlayerView, height: int) -> None:
    seat = player.seat
    colour = ctx.colour(seat)
    box = (MARGIN, 14, WIDTH - MARGIN, height)
    _rrect(img, box, 20, colour)
    img.paste(ctx.accent(seat), (MARGIN + 16, 30, MARGIN + 24, height - 16))
    disc = 52
    dx, dy = MARGIN + 36, 14 + (height - 14 - disc) // 2
    ellipse(img, (dx, dy, dx + disc, dy + disc), WHITE)
    draw_text(
        img, (dx + disc / 2, dy + disc / 2 + 1), str(seat + 1), font("bold", 30), colour, "mm"
    )
    right = WIDTH - MARGIN - 18
    mid = 14 + (height - 14) / 2
    small = font("condensed-bold", 21)
    stat_fill = darken(colour, 0.3)
    top = round(mid - 18)
    for text_ in (
        f"{ctx.t('pile')} {player.pile_count}",
        f"{ctx.t('reserve')} {len(player.reserve or ())}",
    ):
        right -= pill(img, right, top, text_, small, stat_fill, WHITE, 36, align="right") + 10
    tx = dx + disc + 16
    avail = right - tx - 10
    title = font("bold", 30)
    draw_text(img, (tx, mid - 14), fit_text(ctx.name(seat), title, avail), title, WHITE, "lm")
    army = ctx.t("army-" + player.side)
    sub = f"{ctx.t('your_cards')}  ·  {army}  ·  {ctx.t('points', n=player.points)}"
    sf = font("regular", 21)
    draw_text(img, (tx, mid + 20), fit_text(sub, sf, avail), sf, lighten(colour, 0.75), "lm")


def _private_status(img: Image.Image, ctx: _Ctx, seat: int, top: int, height: int) -> None:
    v = ctx.view
    box = (MARGIN, top, WIDTH - MARGIN, top + height)
    mine = [k for s, k in v.pending if s == seat]
    hint = ""
    if v.phase == "over":
        if v.winner < 0:
            headline = ctx.t("you_draw")
        else:
            headline = ctx.t("you_win") if v.winner == seat else ctx.t("you_lose")
        hint = ctx.t_or(f"reason-{v.end_reason}", v.end_reason)
        fill, ink, sub_ink = GOLD, GOLD_DARK, GOLD_SUB
    elif mine:
        headline, hint = _your_decision(ctx, mine[0], seat)
        fill, ink, sub_ink = GOLD, GOLD_DARK, GOLD_SUB
    else:
        _, other, _ = _banner_text(ctx)
        headline = f"{ctx.t('waiting')}  ·  {other}"
        if v.phase == "deploy":
            headline = ctx.t("deploy-done")
        fill, ink, sub_ink = (44, 80, 70), TEXT, MUTED
    _rrect(img, box, 16, fill)
    big = font("bold", 26)
    avail = box[2] - box[0] - 44
    headline = _fit_with_names(ctx, headline, big, avail)
    if hint:
        draw_text(img, (box[0] + 22, top + 26), headline, big, ink, "lm")
        small = font("regular", 20)
        hint = _fit_with_names(ctx, hint, small, avail)
        draw_text(img, (box[0] + 22, top + 56), hint, small, sub_ink, "lm")
    else:
        draw_text(img, (box[0] + 22, top + height / 2), headline, big, ink, "lm")


def _example(choices: Sequence[str], sep: str) -> str:
    for choice in choices:
        if sep in choice and not choice.startswith("-"):
            return choice
    return ""


def _your_decision(ctx: _Ctx, kind: str, seat: int) -> tuple[str, str]:
    v = ctx.view
    choices = v.choices
    other = 1 - seat
    m = v.players[seat].letter  # the player's own handles in the examples
    if kind == "deploy":
        ex = _example(choices, ">") or f"{m}7>C"
        ready = v.players[other].ready
        opp = ctx.t("opp_ready" if ready else "opp_deploying", name=ctx.name(other))
        return ctx.t("you-deploy"), ctx.t("you-deploy-hint", ex=ex, opp=opp)
    if kind == "rout":  # option ralliement_timing=failure
        failed = v.last_tests[-1].card if v.last_tests else f"{m}7"
        ex = _example(choices, "!") or f"{m}21!{failed}"
        return ctx.t("you-rout", failed=failed), ctx.t("you-rout-hint", ex=ex)
    if kind == "rally":
        ex = _example(choices, "!") or f"{m}21!{m}7"
        return ctx.t("you-rally"), ctx.t("you-rally-hint", ex=ex)
    if kind == "combat":
        ex = _example(choices, "@") or f"{m}7@EC"
        return ctx.t("you-combat"), ctx.t("you-combat-hint", ex=ex)
    if kind == "allocate" and v.alloc is not None:
        n = v.alloc.hits
        where = ctx.at(v.alloc.position)
        ex = next((c for c in choices if c.startswith("-")), f"-{m}3")
        return ctx.t("you-allocate", n=n, where=where), ctx.t("you-allocate-hint", ex=ex)
    if kind == "movement":
        ex = _example(choices, ">") or f"{m}7>EC"
        return ctx.t("you-movement"), ctx.t("you-movement-hint", ex=ex, m=m)
    return kind, ""
