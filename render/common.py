"""Drawing helpers shared by every game's renderer.

Everything here is pure: functions take sizes, colours and text and return
images, or draw on an image the caller owns. The only module state is
memoisation (fonts, glyph checks, anti-aliased masks, icons and card tiles),
which never changes a result.

Conventions: images are ``RGB`` canvases; shapes are drawn through
anti-aliased masks (supersampled, then downscaled), because Pillow's own
polygons and rounded rectangles are aliased. Boxes are ``(x0, y0, x1, y1)``
with ``x1``/``y1`` exclusive.
"""

from __future__ import annotations

import math
import struct
import unicodedata
import zlib
from collections.abc import Callable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal, TypeVar

from PIL import Image, ImageDraw, ImageFilter, ImageFont

import i18n

RGB = tuple[int, int, int]
Box = tuple[int, int, int, int]
Font = ImageFont.FreeTypeFont | ImageFont.ImageFont
FontKind = Literal["bold", "regular", "condensed-bold"]

FONT_DIR = Path(__file__).resolve().parent / "fonts"
_FONT_FILES: dict[str, str] = {
    "bold": "DejaVuSans-Bold.ttf",
    "regular": "DejaVuSansCondensed.ttf",
    "condensed-bold": "DejaVuSansCondensed-Bold.ttf",
}
_SUPERSAMPLE = 4

# ---------------------------------------------------------------------------
# Caches
# ---------------------------------------------------------------------------

_F = TypeVar("_F", bound=Callable[..., Any])
_CACHES: list[Any] = []


def render_cache(maxsize: int | None = 256) -> Callable[[_F], _F]:
    """``functools.lru_cache(maxsize)`` (thread-safe, bounded), registered so
    that :func:`clear_caches` empties it. Keyed by every argument, so the
    arguments must name everything that changes the pixels (card, locale,
    size, colour ...). A cached image is shared: paste it, never draw on it
    (``.copy()`` it first)."""

    def wrap(fn: _F) -> _F:
        cached = lru_cache(maxsize=maxsize)(fn)
        _CACHES.append(cached)
        return cached  # type: ignore[return-value]

    return wrap


def clear_caches() -> None:
    """Empty every :func:`render_cache` (tests: a cold render equals a warm one)."""
    for cached in _CACHES:
        cached.cache_clear()


# ---------------------------------------------------------------------------
# Locale and colours
# ---------------------------------------------------------------------------


class Labels:
    """The words of one image in the reader's language: ``tr = Labels(locale)``,
    then ``tr("bb-render-turn", n=3)`` (a key of the i18n catalogues)."""

    __slots__ = ("lang",)

    def __init__(self, locale: str | None) -> None:
        self.lang = i18n.pick(locale)

    def __call__(self, key: str, **params: object) -> str:
        return i18n.translate(self.lang, key, **params)


def hex_rgb(text: str) -> RGB:
    """``"#2f6f8f"`` to ``(47, 111, 143)``; unreadable text gives a neutral grey."""
    value = text.strip().lstrip("#")
    if len(value) != 6:
        return (128, 128, 128)
    try:
        return (int(value[0:2], 16), int(value[2:4], 16), int(value[4:6], 16))
    except ValueError:
        return (128, 128, 128)


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """``a`` moved a fraction ``t`` of the way to ``b``."""
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


def lighten(colour: RGB, t: float) -> RGB:
    return mix(colour, (255, 255, 255), t)


def darken(colour: RGB, t: float) -> RGB:
    return mix(colour, (0, 0, 0), t)


def luminance(colour: RGB) -> float:
    return (0.299 * colour[0] + 0.587 * colour[1] + 0.114 * colour[2]) / 255


def readable_on(colour: RGB) -> RGB:
    """Dark or light text, whichever reads better on ``colour``."""
    return (33, 28, 22) if luminance(colour) > 0.6 else (255, 255, 255)


# ---------------------------------------------------------------------------
# Fonts and text
# ---------------------------------------------------------------------------


@render_cache(None)
def font(kind: FontKind, size: int) -> Font:
    """A shipped DejaVu face (Pillow's bundled font if the file is missing)."""
    path = FONT_DIR / _FONT_FILES[kind]
    try:
        return ImageFont.truetype(str(path), size, layout_engine=ImageFont.Layout.BASIC)
    except OSError:
        return ImageFont.load_default(size=size)


@render_cache(None)
def _notdef_mask(kind: FontKind) -> bytes:
    # A private-use code point: every font draws its "missing glyph" box.
    return _glyph_signature(kind, "\U000f0000")


def _glyph_signature(kind: FontKind, char: str) -> bytes:
    mask = font(kind, 20).getmask(char)
    return repr(mask.size).encode() + bytes(mask)


@render_cache(8192)
def has_glyph(kind: FontKind, char: str) -> bool:
    """Whether ``kind`` draws ``char`` (rather than its missing-glyph box)."""
    return _glyph_signature(kind, char) != _notdef_mask(kind)


def clean_text(text: str, kind: FontKind = "condensed-bold") -> str:
    """Text the font can draw: NFC, no control or format characters, no
    variation selectors, no characters the font lacks (emoji, CJK ...),
    whitespace collapsed."""
    out: list[str] = []
    for char in unicodedata.normalize("NFC", text):
        category = unicodedata.category(char)
        code = ord(char)
        if category in ("Cc", "Zl", "Zp") or char.isspace():
            out.append(" ")
        elif _is_invisible(category, code):
            continue
        elif has_glyph(kind, char):
            out.append(char)
    return " ".join("".join(out).split())


def _is_invisible(category: str, code: int) -> bool:
    """Format and unassigned characters, variation selectors."""
    if category in ("Cf", "Cs", "Co", "Cn"):
        return True
    return 0xFE00 <= code <= 0xFE0F or 0xE0100 <= code <= 0xE01EF


def text_width(fnt: Font, text: str) -> int:
    return math.ceil(fnt.getlength(text))


def fit_text(text: str, fnt: Font, max_width: int) -> str:
    """``text``, cut with an ellipsis so that it fits in ``max_width``."""
    if text_width(fnt, text) <= max_width:
        return text
    ellipsis = "…"
    lo, hi = 0, len(text)
    while lo < hi:  # longest prefix that fits with the ellipsis
        mid = (lo + hi + 1) // 2
        if text_width(fnt, text[:mid].rstrip() + ellipsis) <= max_width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip() + ellipsis if lo else ellipsis


def fit_with_names(names: Sequence[str], text: str, fnt: Font, max_width: int) -> str:
    """Fit a sentence holding player names: shorten the longest names first,
    so that what must be done stays readable; cut the rest with an ellipsis."""
    if text_width(fnt, text) <= max_width:
        return text
    present = sorted({nm for nm in names if nm in text}, key=len, reverse=True)
    shortened = text
    for limit in (24, 18, 14, 10):
        shortened = text
        for nm in present:
            if len(nm) > limit:
                shortened = shortened.replace(nm, nm[: limit - 1].rstrip() + "…")
        if text_width(fnt, shortened) <= max_width:
            return shortened
    return fit_text(shortened, fnt, max_width)


def wrap_text(text: str, fnt: Font, max_width: int) -> list[str]:
    """Greedy word wrap; a word wider than the line is cut by characters."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split():
            candidate = f"{line} {word}" if line else word
            if text_width(fnt, candidate) <= max_width:
                line = candidate
                continue
            if line:
                lines.append(line)
            while text_width(fnt, word) > max_width and len(word) > 1:
                cut = len(word) - 1
                while cut > 1 and text_width(fnt, word[:cut]) > max_width:
                    cut -= 1
                lines.append(word[:cut])
                word = word[cut:]
            line = word
        lines.append(line)
    return lines


def fit_paragraph(
    text: str,
    kind: FontKind,
    max_width: int,
    max_height: int,
    sizes: Sequence[int],
    spacing: float = 1.2,
) -> tuple[Font, list[str], int]:
    """The largest of ``sizes`` at which ``text`` wraps into the box:
    ``(font, lines, line_height)``. At the smallest size, extra lines are
    dropped and the last kept line ends with an ellipsis."""
    fnt = font(kind, sizes[-1])
    lines: list[str] = []
    line_height = 0
    for size in sizes:
        fnt = font(kind, size)
        line_height = round(size * spacing)
        lines = wrap_text(text, fnt, max_width)
        if len(lines) * line_height <= max_height:
            return fnt, lines, line_height
    keep = max(1, max_height // max(1, line_height))
    if len(lines) > keep:
        lines = lines[:keep]
        lines[-1] = fit_text(lines[-1] + "…", fnt, max_width)
    return fnt, lines, line_height


def draw_text(
    img: Image.Image,
    xy: tuple[float, float],
    text: str,
    fnt: Font,
    fill: RGB,
    anchor: str = "la",
) -> None:
    ImageDraw.Draw(img).text(xy, text, font=fnt, fill=fill, anchor=anchor)


def draw_lines(
    img: Image.Image,
    x: float,
    y: float,
    lines: Sequence[str],
    fnt: Font,
    fill: RGB,
    line_height: int,
    align: Literal["left", "center"] = "left",
) -> None:
    """Lines from the top ``y``; ``x`` is the left edge or the centre."""
    draw = ImageDraw.Draw(img)
    anchor = "ma" if align == "center" else "la"
    for i, line in enumerate(lines):
        draw.text((x, y + i * line_height), line, font=fnt, fill=fill, anchor=anchor)


def rotated_text(text: str, fnt: Font, fill: RGB, angle: int) -> Image.Image:
    """An RGBA tile with ``text`` turned by ``angle`` degrees (90, 180 ...)."""
    left, top, right, bottom = fnt.getbbox(text)
    tile = Image.new("RGBA", (max(1, int(right - left)), max(1, int(bottom - top))), (0, 0, 0, 0))
    ImageDraw.Draw(tile).text((-left, -top), text, font=fnt, fill=(*fill, 255))
    return tile.rotate(angle, expand=True)


# ---------------------------------------------------------------------------
# Anti-aliased shapes
# ---------------------------------------------------------------------------


@render_cache(64)
def _corner(radius: int) -> Image.Image:
    """The top-left quarter of a smooth disc of ``radius``, as an ``L`` tile."""
    s = _SUPERSAMPLE
    big = Image.new("L", (2 * radius * s, 2 * radius * s), 0)
    ImageDraw.Draw(big).ellipse((0, 0, 2 * radius * s - 1, 2 * radius * s - 1), fill=255)
    quarter = big.crop((0, 0, radius * s, radius * s))
    return quarter.resize((radius, radius), Image.Resampling.LANCZOS)


@render_cache(512)
def rounded_mask(width: int, height: int, radius: int) -> Image.Image:
    """An ``L`` mask of a rounded rectangle with smooth (supersampled) corners."""
    mask = Image.new("L", (width, height), 255)
    radius = min(radius, width // 2, height // 2)
    if radius <= 0:
        return mask
    corner = _corner(radius)
    mask.paste(corner, (0, 0))
    mask.paste(corner.transpose(Image.Transpose.FLIP_LEFT_RIGHT), (width - radius, 0))
    mask.paste(corner.transpose(Image.Transpose.FLIP_TOP_BOTTOM), (0, height - radius))
    mask.paste(corner.transpose(Image.Transpose.ROTATE_180), (width - radius, height - radius))
    return mask


@render_cache(256)
def ellipse_mask(width: int, height: int) -> Image.Image:
    s = _SUPERSAMPLE
    big = Image.new("L", (width * s, height * s), 0)
    ImageDraw.Draw(big).ellipse((0, 0, width * s - 1, height * s - 1), fill=255)
    return big.resize((width, height), Image.Resampling.LANCZOS)


@render_cache(256)
def shadow_mask(width: int, height: int, radius: int, blur: int, opacity: int) -> Image.Image:
    """A soft shadow for a rounded rectangle, ``blur`` pixels wider on each side."""
    pad = blur * 2
    base = Image.new("L", (width + 2 * pad, height + 2 * pad), 0)
    base.paste(opacity, (pad, pad, pad + width, pad + height), rounded_mask(width, height, radius))
    return base.filter(ImageFilter.GaussianBlur(blur))


def _size(box: Box) -> tuple[int, int]:
    return max(1, box[2] - box[0]), max(1, box[3] - box[1])


def rounded(
    img: Image.Image,
    box: Box,
    radius: int,
    fill: RGB,
    outline: RGB | None = None,
    width: int = 0,
) -> None:
    """A filled rounded rectangle with an optional border, anti-aliased."""
    w, h = _size(box)
    x, y = box[0], box[1]
    radius = min(radius, w // 2, h // 2)
    if outline is not None and width > 0:
        img.paste(outline, (x, y, x + w, y + h), rounded_mask(w, h, radius))
        iw, ih = w - 2 * width, h - 2 * width
        if iw > 0 and ih > 0:
            inner = max(0, radius - width)
            img.paste(
                fill,
                (x + width, y + width, x + width + iw, y + width + ih),
                rounded_mask(iw, ih, inner),
            )
        return
    img.paste(fill, (x, y, x + w, y + h), rounded_mask(w, h, radius))


def ellipse(
    img: Image.Image, box: Box, fill: RGB, outline: RGB | None = None, width: int = 0
) -> None:
    w, h = _size(box)
    x, y = box[0], box[1]
    if outline is not None and width > 0:
        img.paste(outline, (x, y, x + w, y + h), ellipse_mask(w, h))
        x, y, w, h = x + width, y + width, w - 2 * width, h - 2 * width
        if w <= 0 or h <= 0:
            return
    img.paste(fill, (x, y, x + w, y + h), ellipse_mask(w, h))


def drop_shadow(
    img: Image.Image,
    box: Box,
    radius: int,
    offset: int = 4,
    blur: int = 5,
    opacity: int = 110,
    cover_radius: int | None = None,
) -> None:
    """A soft shadow under ``box``. ``cover_radius``: the caller pastes next,
    over ``box``, an opaque rounded shape of that corner radius (a card, a
    panel): the shadow is then drawn only where that shape will not cover it
    (the same pixels, a fraction of the work)."""
    w, h = _size(box)
    pad = blur * 2
    x, y = box[0] - pad, box[1] - pad + offset
    if cover_radius is None:
        mask = shadow_mask(w, h, radius, blur, opacity)
        img.paste((0, 0, 0), (x, y, x + mask.width, y + mask.height), mask)
        return
    for dx, dy, part in _shadow_parts(w, h, radius, blur, opacity, offset, cover_radius):
        img.paste((0, 0, 0), (x + dx, y + dy, x + dx + part.width, y + dy + part.height), part)


@render_cache(256)
def _shadow_parts(
    w: int, h: int, radius: int, blur: int, opacity: int, offset: int, cover: int
) -> tuple[tuple[int, int, Image.Image], ...]:
    """The pieces of :func:`shadow_mask` outside the part of the box an opaque
    rounded shape of corner radius ``cover`` hides: (x, y, mask) in the
    shadow's coordinates."""
    mask = shadow_mask(w, h, radius, blur, opacity)
    pad = blur * 2
    mw, mh = mask.size
    r = min(max(0, cover), w // 2, h // 2)
    # the box in the shadow's coordinates, and what the shape hides of it:
    # everything but its four r x r corners
    bx0, by0 = pad, pad - offset
    bx1, by1 = bx0 + w, by0 + h
    pieces = [
        (0, 0, mw, by0),  # above the box
        (0, by1, mw, mh),  # below
        (0, by0, bx0, by1),  # left
        (bx1, by0, mw, by1),  # right
        (bx0, by0, bx0 + r, by0 + r),  # the corners
        (bx1 - r, by0, bx1, by0 + r),
        (bx0, by1 - r, bx0 + r, by1),
        (bx1 - r, by1 - r, bx1, by1),
    ]
    out = []
    for x0, y0, x1, y1 in pieces:
        x0, y0, x1, y1 = max(0, x0), max(0, y0), min(mw, x1), min(mh, y1)
        if x1 > x0 and y1 > y0:
            out.append((x0, y0, mask.crop((x0, y0, x1, y1))))
    return tuple(out)


def dashed_frame(
    img: Image.Image, box: Box, colour: RGB, dash: int = 12, gap: int = 8, width: int = 2
) -> None:
    """A dashed rectangle (an empty slot), corners left open."""
    draw = ImageDraw.Draw(img)
    x0, y0, x1, y1 = box
    corner = 10
    for x in range(x0 + corner, x1 - corner, dash + gap):
        end = min(x + dash, x1 - corner)
        draw.line((x, y0, end, y0), fill=colour, width=width)
        draw.line((x, y1, end, y1), fill=colour, width=width)
    for y in range(y0 + corner, y1 - corner, dash + gap):
        end = min(y + dash, y1 - corner)
        draw.line((x0, y, x0, end), fill=colour, width=width)
        draw.line((x1, y, x1, end), fill=colour, width=width)


def paste_rgba(img: Image.Image, tile: Image.Image, xy: tuple[int, int]) -> None:
    img.paste(tile, xy, tile)


def dim(img: Image.Image, box: Box, colour: RGB, amount: float, radius: int = 0) -> None:
    """Fade a region of ``img`` towards ``colour`` (amount 0..1)."""
    w, h = _size(box)
    alpha = round(255 * amount)
    mask = rounded_mask(w, h, radius) if radius else None
    if mask is not None:
        mask = mask.point(lambda v: v * alpha // 255)
    else:
        mask = Image.new("L", (w, h), alpha)
    img.paste(colour, (box[0], box[1], box[0] + w, box[1] + h), mask)


def pill(
    img: Image.Image,
    x: int,
    y: int,
    text: str,
    fnt: Font,
    fill: RGB,
    text_fill: RGB,
    height: int,
    pad: int | None = None,
    icon: Image.Image | None = None,
    outline: RGB | None = None,
    align: Literal["left", "center", "right"] = "left",
) -> int:
    """A rounded label whose left edge (or centre, or right edge) is ``x``;
    returns its width."""
    pad = height // 2 if pad is None else pad
    icon_w = icon.width + height // 5 if icon is not None else 0
    width = pad * 2 + icon_w + text_width(fnt, text)
    if align == "center":
        x -= width // 2
    elif align == "right":
        x -= width
    rounded(img, (x, y, x + width, y + height), height // 2, fill, outline, 2 if outline else 0)
    cx = x + pad
    if icon is not None:
        paste_rgba(img, icon, (cx, y + (height - icon.height) // 2))
        cx += icon_w
    draw_text(img, (cx, y + height / 2), text, fnt, text_fill, "lm")
    return width


# ---------------------------------------------------------------------------
# Icons (RGBA tiles, drawn large then downscaled)
# ---------------------------------------------------------------------------

IconName = Literal["heart", "star", "diamond", "lock", "link", "cancel", "crown", "eye", "joker"]


@render_cache(256)
def icon(name: IconName, size: int, colour: RGB) -> Image.Image:
    s = _SUPERSAMPLE
    n = size * s
    big = Image.new("L", (n, n), 0)
    d = ImageDraw.Draw(big)
    if name == "heart":
        r = n * 0.26
        d.ellipse((n * 0.04, n * 0.12, n * 0.04 + 2 * r, n * 0.12 + 2 * r), fill=255)
        d.ellipse((n * 0.96 - 2 * r, n * 0.12, n * 0.96, n * 0.12 + 2 * r), fill=255)
        d.polygon([(n * 0.06, n * 0.44), (n * 0.94, n * 0.44), (n * 0.5, n * 0.92)], fill=255)
        d.rectangle((n * 0.3, n * 0.2, n * 0.7, n * 0.5), fill=255)
    elif name == "star":
        points = []
        for i in range(10):
            angle = -math.pi / 2 + i * math.pi / 5
            radius = n * (0.5 if i % 2 == 0 else 0.21)
            points.append((n / 2 + radius * math.cos(angle), n * 0.54 + radius * math.sin(angle)))
        d.polygon(points, fill=255)
    elif name == "diamond":
        d.polygon([(n / 2, 0), (n * 0.92, n / 2), (n / 2, n), (n * 0.08, n / 2)], fill=255)
    elif name == "lock":
        w = max(2, n // 9)
        d.rounded_rectangle((n * 0.12, n * 0.44, n * 0.88, n * 0.98), radius=n // 10, fill=255)
        d.arc((n * 0.25, n * 0.04, n * 0.75, n * 0.7), 180, 360, fill=255, width=w)
        d.line((n * 0.25 + w / 2, n * 0.37, n * 0.25 + w / 2, n * 0.48), fill=255, width=w)
        d.line((n * 0.75 - w / 2, n * 0.37, n * 0.75 - w / 2, n * 0.48), fill=255, width=w)
        d.ellipse((n * 0.43, n * 0.6, n * 0.57, n * 0.74), fill=0)
        d.rectangle((n * 0.47, n * 0.68, n * 0.53, n * 0.86), fill=0)
    elif name == "link":
        w = max(2, n // 8)
        d.rounded_rectangle(
            (n * 0.02, n * 0.28, n * 0.62, n * 0.72), radius=n // 4.5, outline=255, width=w
        )
        d.rounded_rectangle(
            (n * 0.38, n * 0.28, n * 0.98, n * 0.72), radius=n // 4.5, outline=255, width=w
        )
    elif name == "cancel":
        w = max(2, n // 8)
        d.ellipse((w / 2, w / 2, n - w / 2, n - w / 2), outline=255, width=w)
        d.line((n * 0.2, n * 0.8, n * 0.8, n * 0.2), fill=255, width=w)
    elif name == "crown":
        d.polygon(
            [
                (n * 0.05, n * 0.3),
                (n * 0.3, n * 0.55),
                (n * 0.5, n * 0.18),
                (n * 0.7, n * 0.55),
                (n * 0.95, n * 0.3),
                (n * 0.85, n * 0.82),
                (n * 0.15, n * 0.82),
            ],
            fill=255,
        )
    elif name == "eye":
        d.ellipse((n * 0.02, n * 0.22, n * 0.98, n * 0.78), fill=255)
        d.ellipse((n * 0.3, n * 0.27, n * 0.7, n * 0.73), fill=0)
        d.ellipse((n * 0.4, n * 0.37, n * 0.6, n * 0.63), fill=255)
    elif name == "joker":
        w = max(2, n // 6)
        d.line((n * 0.15, n * 0.15, n * 0.85, n * 0.85), fill=255, width=w)
        d.line((n * 0.15, n * 0.85, n * 0.85, n * 0.15), fill=255, width=w)
    mask = big.resize((size, size), Image.Resampling.LANCZOS)
    tile = Image.new("RGBA", (size, size), (*colour, 0))
    tile.putalpha(mask)
    return tile


# ---------------------------------------------------------------------------
# Cards
# ---------------------------------------------------------------------------

CARD_FACE: RGB = (251, 246, 234)
INK: RGB = (40, 34, 28)


def card_radius(width: int) -> int:
    return max(3, round(width * 0.085))


@render_cache(256)
def card_shell(width: int, height: int, colour: RGB, face: RGB = CARD_FACE) -> Image.Image:
    """The blank front of a card: a coloured border and a light face with a
    thin inner frame. An RGBA tile to paste, then write on."""
    tile = Image.new("RGB", (width, height), colour)
    radius = card_radius(width)
    border = max(2, round(width * 0.045))
    rounded(tile, (border, border, width - border, height - border), radius - border // 2, face)
    frame = max(1, round(width * 0.012))
    inset = border + max(2, round(width * 0.035))
    if width >= 60:
        rounded(
            tile,
            (inset, inset, width - inset, height - inset),
            max(2, radius - inset // 2),
            mix(face, colour, 0.35),
        )
        rounded(
            tile,
            (inset + frame, inset + frame, width - inset - frame, height - inset - frame),
            max(2, radius - inset // 2 - frame),
            face,
        )
    out = tile.convert("RGBA")
    out.putalpha(rounded_mask(width, height, radius))
    return out


@render_cache(128)
def card_back(width: int, height: int, colour: RGB) -> Image.Image:
    """A face-down card: a cream border around a dark lattice tinted with
    ``colour`` and a round emblem. An RGBA tile."""
    s = 2
    w, h = width * s, height * s
    radius = card_radius(width) * s
    base = darken(colour, 0.45)
    tile = Image.new("RGB", (w, h), CARD_FACE)
    border = max(2, round(w * 0.06))
    inner = (border, border, w - border, h - border)
    rounded(tile, inner, max(2, radius - border // 2), base)
    pattern = Image.new("RGB", (w, h), base)
    d = ImageDraw.Draw(pattern)
    step = max(6, w // 5)
    line = mix(base, colour, 0.55)
    for k in range(-h, w + h, step):
        d.line((k, 0, k + h, h), fill=line, width=max(1, s))
        d.line((k, h, k + h, 0), fill=line, width=max(1, s))
    inner_mask = Image.new("L", (w, h), 0)
    pad = border + max(2, round(w * 0.04))
    inner_mask.paste(
        255, (pad, pad, w - pad, h - pad), rounded_mask(w - 2 * pad, h - 2 * pad, radius // 2 + 1)
    )
    tile.paste(pattern, (0, 0), inner_mask)
    emblem = round(min(w, h) * 0.42)
    ex, ey = (w - emblem) // 2, (h - emblem) // 2
    ellipse(tile, (ex, ey, ex + emblem, ey + emblem), colour, CARD_FACE, max(2, emblem // 12))
    if width >= 36:
        fnt = font("bold", max(6, round(emblem * 0.38)))
        draw_text(tile, (w / 2, h / 2), "BB", fnt, CARD_FACE, "mm")
    small = tile.resize((width, height), Image.Resampling.LANCZOS).convert("RGBA")
    small.putalpha(rounded_mask(width, height, card_radius(width)))
    return small


def draw_card_back(img: Image.Image, x: int, y: int, width: int, height: int, colour: RGB) -> None:
    paste_rgba(img, card_back(width, height, colour), (x, y))


# ---------------------------------------------------------------------------
# Canvas and encoding
# ---------------------------------------------------------------------------


def canvas(width: int, height: int, top: RGB, bottom: RGB) -> Image.Image:
    """A background with a gentle vertical gradient (rows are uniform, so it
    compresses as well as a flat colour)."""
    ends = Image.new("RGB", (1, 2))
    ends.putpixel((0, 0), top)
    ends.putpixel((0, 1), bottom)
    column = ends.resize((1, height), Image.Resampling.BILINEAR)
    return column.resize((width, height), Image.Resampling.NEAREST)


def to_png(img: Image.Image, compress_level: int = 2) -> bytes:
    """PNG bytes of an RGB or RGBA image, lossless (the pixels are the image's).

    Written directly (IHDR, one IDAT, IEND): PNG filter 0 on every row,
    deflated by zlib at level 2 (default strategy). Measured on 50 real
    boards and hands of the five games (mean per image, CPU, 2-core machine
    under load; boards ~1100x1000 RGB, 3.3 MB raw):

    encoding                             board ms  hand ms  board KB  hand KB
    filter 0, level 1 (before)               17.1     12.6       153      104
    filter 0, level 2 (chosen)               16.9     12.5       146      100
    filter 0, level 3                        17.6     13.0       140       97
    filter 0, level 0 (stored)                9.3      6.8      3542     2713
    filter 0, level 1, Z_RLE                 74.3     55.3      1475     1022
    filter 0, level 1, Z_HUFFMAN_ONLY        72.6     54.3      1481     1029
    filter 0, level 1, Z_FILTERED            19.5     13.6       153      104
    sub filter, level 1                      26.7     19.1       178      125
    up filter, level 1                       26.2     18.6       163      120
    up filter, level 1, Z_RLE                31.4     22.4       328      246
    Pillow's encoder (adaptive), level 1     37.2     27.7       163      118
    Pillow, adaptive, level 1, Z_RLE         35.2     26.3       223      171
    palette (quantize 256, no dither)        19.7     15.1        65       49

    Deflate itself is ~75% of the time (~12 ms for 3.3 MB at levels 1-2;
    ``tobytes`` ~2 ms, the row framing ~1 ms): level 2 costs the same as
    level 1 for 5% smaller files; Pillow's adaptive filters cost as much as
    the compression and make files larger; RLE and Huffman-only strategies
    find no matches in filter-0 RGB rows; a palette is slower (the quantizer)
    and lossy (boards hold 950 to 12,000 colours), so it is not used."""
    if img.mode not in ("RGB", "RGBA"):
        img = img.convert("RGBA" if "A" in img.getbands() else "RGB")
    width, height = img.size
    channels = 4 if img.mode == "RGBA" else 3
    raw = memoryview(img.tobytes())
    stride = width * channels
    parts: list[bytes | memoryview] = []
    zero = b"\x00"
    for i in range(0, len(raw), stride):
        parts.append(zero)
        parts.append(raw[i : i + stride])
    header = struct.pack(">IIBBBBB", width, height, 8, 6 if channels == 4 else 2, 0, 0, 0)
    return b"".join(
        (
            b"\x89PNG\r\n\x1a\n",
            _chunk(b"IHDR", header),
            _chunk(b"IDAT", zlib.compress(b"".join(parts), compress_level)),
            _chunk(b"IEND", b""),
        )
    )


def _chunk(kind: bytes, data: bytes) -> bytes:
    crc = zlib.crc32(data, zlib.crc32(kind)) & 0xFFFFFFFF
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)


def ordinal(place: int, locale: str) -> str:
    """``1st``, ``2nd`` / ``1er``, ``2e``: the catalogue's ``ordinal``."""
    return i18n.translate(locale, "ordinal", n=place)


def message_image(title: str, lines: Sequence[str], accent: RGB = (242, 193, 78)) -> bytes:
    """A small image carrying a message (e.g. "spectators have no hand")."""
    width = 1100
    body = font("regular", 30)
    head = font("bold", 40)
    wrapped: list[str] = []
    for line in lines:
        wrapped += wrap_text(clean_text(line, "regular"), body, width - 160)
    height = 150 + 42 * len(wrapped)
    img = canvas(width, height, (27, 48, 42), (20, 36, 32))
    rounded(img, (24, 24, width - 24, height - 24), 24, (33, 58, 51), (58, 92, 82), 2)
    rounded(img, (46, 50, 54, height - 50), 4, accent)
    draw_text(img, (80, 58), fit_text(clean_text(title, "bold"), head, width - 160), head, accent)
    draw_lines(img, 80, 104, wrapped, body, (236, 231, 218), 42)
    return to_png(img)


# Fast rounded rectangles: only the corners go through a mask


@render_cache(64)
def _corners(radius: int) -> tuple[Image.Image, Image.Image, Image.Image, Image.Image]:
    """The four corner masks of :func:`render.common.rounded_mask`."""
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


def rounded_fast(
    img: Image.Image,
    box: Box,
    radius: int,
    fill: RGB,
    outline: RGB | None = None,
    width: int = 0,
) -> None:
    """:func:`rounded`, pixel for pixel, masking only the corners: plain
    fills elsewhere (big panels are drawn several times faster)."""
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


# Cached text: glyph masks, widths and wrappings kept (boards draw the same
# strings again and again)


@render_cache(4096)
def _text_mask(
    text: str, fnt: ImageFont.FreeTypeFont, anchor: str, fx: float, fy: float
) -> tuple[Any, tuple[int, int]]:
    mask, offset = fnt.getmask2(text, "L", None, None, None, 0, anchor, 0, (fx, fy))
    return mask, offset


def draw_text_cached(
    img: Image.Image,
    xy: tuple[float, float],
    text: str,
    fnt: Font,
    fill: RGB,
    anchor: str = "la",
) -> None:
    """:func:`draw_text`, with the glyph masks kept (a board draws the same
    labels and names again and again); the pixels are Pillow's own."""
    if "\n" in text or not isinstance(fnt, ImageFont.FreeTypeFont) or img.mode != "RGB":
        draw_text(img, xy, text, fnt, fill, anchor)
        return
    x, y = xy
    fx, ix = math.modf(x)
    fy, iy = math.modf(y)
    mask, offset = _text_mask(text, fnt, anchor, fx, fy)
    draw = ImageDraw.Draw(img)
    draw.draw.draw_bitmap((int(ix) + offset[0], int(iy) + offset[1]), mask, draw._getink(fill)[0])


@render_cache(8192)
def text_width_cached(fnt: Font, text: str) -> int:
    return text_width(fnt, text)


@render_cache(1024)
def _wrapped(text: str, fnt: Font, max_width: int) -> tuple[str, ...]:
    return tuple(wrap_text(text, fnt, max_width))


def wrap_text_cached(text: str, fnt: Font, max_width: int) -> list[str]:
    return list(_wrapped(text, fnt, max_width))


def pill_fast(
    img: Image.Image,
    x: int,
    y: int,
    text: str,
    fnt: Font,
    fill: RGB,
    text_fill: RGB,
    height: int,
    pad: int | None = None,
    icon: Image.Image | None = None,
    outline: RGB | None = None,
    align: Literal["left", "center", "right"] = "left",
) -> int:
    """:func:`pill`, pixel for pixel, through :func:`rounded_fast`,
    :func:`draw_text_cached` and :func:`text_width_cached`."""
    pad = height // 2 if pad is None else pad
    icon_w = icon.width + height // 5 if icon is not None else 0
    width = pad * 2 + icon_w + text_width_cached(fnt, text)
    if align == "center":
        x -= width // 2
    elif align == "right":
        x -= width
    rounded_fast(
        img, (x, y, x + width, y + height), height // 2, fill, outline, 2 if outline else 0
    )
    cx = x + pad
    if icon is not None:
        paste_rgba(img, icon, (cx, y + (height - icon.height) // 2))
        cx += icon_w
    draw_text_cached(img, (cx, y + height / 2), text, fnt, text_fill, "lm")
    return width
