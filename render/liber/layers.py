"""Cheaper drawing primitives with the same pixels, for the boards that are
drawn after every action (Chroniques de Liber, Belle Position, Battalia).

``render.common`` draws each shape through :meth:`PIL.Image.Image.paste`,
whose Python checks (load, mode, mutability) cost more than filling a small
rectangle; these helpers call the same C paste (``Image.im.paste``) with the
same arguments, so the pixels are Pillow's own, on canvases this layer owns
(created, loaded and writable). The background gradient is pasted in bands
of equal rows instead of being resized from a column.

Caches are process-wide and bounded (``functools.lru_cache``); cached images
are never drawn on, only pasted.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

from PIL import Image, ImageFont

from ..common import RGB, Box, Font, canvas, draw_text_cached, rounded_mask
from ..common import paste_rgba as _paste_rgba

_CORE: Any = Image.core  # type: ignore[attr-defined]  # Pillow's C module


@lru_cache(maxsize=64)
def _corners(radius: int) -> tuple[object, object, object, object]:
    """The four corner masks of :func:`render.common.rounded_mask` (core images)."""
    mask = rounded_mask(2 * radius, 2 * radius, radius)
    r = radius
    return (
        mask.crop((0, 0, r, r)).im,
        mask.crop((r, 0, 2 * r, r)).im,
        mask.crop((0, r, r, 2 * r)).im,
        mask.crop((r, r, 2 * r, 2 * r)).im,
    )


def _solid(core: object, box: Box, radius: int, colour: RGB) -> None:
    x0, y0, x1, y1 = box
    w, h = max(1, x1 - x0), max(1, y1 - y0)
    x1, y1 = x0 + w, y0 + h
    r = min(radius, w // 2, h // 2)
    paste = core.paste  # type: ignore[attr-defined]
    if r <= 0:
        paste(colour, (x0, y0, x1, y1))
        return
    paste(colour, (x0 + r, y0, x1 - r, y1))
    paste(colour, (x0, y0 + r, x0 + r, y1 - r))
    paste(colour, (x1 - r, y0 + r, x1, y1 - r))
    tl, tr, bl, br = _corners(r)
    paste(colour, (x0, y0, x0 + r, y0 + r), tl)
    paste(colour, (x1 - r, y0, x1, y0 + r), tr)
    paste(colour, (x0, y1 - r, x0 + r, y1), bl)
    paste(colour, (x1 - r, y1 - r, x1, y1), br)


def rounded(
    img: Image.Image,
    box: Box,
    radius: int,
    fill: RGB,
    outline: RGB | None = None,
    width: int = 0,
) -> None:
    """:func:`render.common.rounded_fast`, pixel for pixel, through the C
    paste directly (``img`` is an RGB canvas of this layer)."""
    w, h = max(1, box[2] - box[0]), max(1, box[3] - box[1])
    x, y = box[0], box[1]
    radius = min(radius, w // 2, h // 2)
    core = img.im
    if outline is not None and width > 0:
        _solid(core, (x, y, x + w, y + h), radius, outline)
        iw, ih = w - 2 * width, h - 2 * width
        if iw > 0 and ih > 0:
            inner = max(0, radius - width)
            _solid(core, (x + width, y + width, x + width + iw, y + width + ih), inner, fill)
        return
    _solid(core, (x, y, x + w, y + h), radius, fill)


def paste_rgba(img: Image.Image, tile: Image.Image, xy: tuple[int, int]) -> None:
    """:func:`render.common.paste_rgba` (an RGBA tile through its own alpha)
    through the C paste directly."""
    if tile.mode != "RGBA" or img.mode not in ("RGB", "RGBA"):
        _paste_rgba(img, tile, xy)  # Pillow converts: its own path
        return
    x, y = xy
    core = tile.im
    img.im.paste(core, (x, y, x + tile.width, y + tile.height), core)


def paste_rgb(img: Image.Image, tile: Image.Image, xy: tuple[int, int]) -> None:
    """An opaque RGB tile copied onto ``img`` at ``xy``."""
    x, y = xy
    img.im.paste(tile.im, (x, y, x + tile.width, y + tile.height))


@lru_cache(maxsize=128)
def _bands(height: int, top: RGB, bottom: RGB) -> tuple[tuple[int, int, RGB], ...]:
    """The rows of :func:`render.common.canvas`'s gradient, as runs of equal
    colour: ``(first row, end row, colour)``."""
    column = canvas(1, height, top, bottom)
    runs: list[tuple[int, int, RGB]] = []
    start = 0
    previous = column.getpixel((0, 0))
    for y in range(1, height + 1):
        colour = column.getpixel((0, y)) if y < height else None
        if colour != previous:
            assert isinstance(previous, tuple)
            runs.append((start, y, (previous[0], previous[1], previous[2])))
            start, previous = y, colour
    return tuple(runs)


def gradient(width: int, height: int, top: RGB, bottom: RGB) -> Image.Image:
    """:func:`render.common.canvas`, pixel for pixel: the same rows, pasted
    as bands of equal colour (a few fills instead of a resize)."""
    img = Image.new("RGB", (width, height), top)
    paste = img.im.paste
    for y0, y1, colour in _bands(height, top, bottom):
        if colour != top:
            paste(colour, (0, y0, width, y1))
    return img


@lru_cache(maxsize=4096)
def _text_mask(
    text: str, fnt: ImageFont.FreeTypeFont, anchor: str, fx: float, fy: float
) -> tuple[Any, tuple[int, int]]:
    mask, offset = fnt.getmask2(text, "L", None, None, None, 0, anchor, 0, (fx, fy))
    return mask, offset


@lru_cache(maxsize=256)
def _ink(fill: RGB) -> int:
    """The RGB ink Pillow's ``ImageDraw`` computes for ``fill``."""
    ink: int = _CORE.draw(Image.new("RGB", (1, 1)).im, 0).draw_ink(fill)
    return ink


def draw_text(
    img: Image.Image,
    xy: tuple[float, float],
    text: str,
    fnt: Font,
    fill: RGB,
    anchor: str = "la",
) -> None:
    """:func:`render.common.draw_text_cached`, pixel for pixel, without
    building an ``ImageDraw`` per string: the same cached glyph mask, drawn
    by the same C call."""
    if "\n" in text or not isinstance(fnt, ImageFont.FreeTypeFont) or img.mode != "RGB":
        draw_text_cached(img, xy, text, fnt, fill, anchor)
        return
    x, y = xy
    fx, ix = math.modf(x)
    fy, iy = math.modf(y)
    mask, offset = _text_mask(text, fnt, anchor, fx, fy)
    _CORE.draw(img.im, 0).draw_bitmap((int(ix) + offset[0], int(iy) + offset[1]), mask, _ink(fill))


def on_flat(cell: Box, box: Box, radius: int, border: int = 2) -> bool:
    """Whether ``cell`` lies on the flat fill of a rounded panel ``box``
    (outline ``border`` at most): clear of its four rounded corners, or
    within them only where the fill is whole (well inside the arc)."""
    x0, y0, x1, y1 = box
    if cell[0] < x0 + border or cell[1] < y0 + border:
        return False  # on the outline
    if cell[2] > x1 - border or cell[3] > y1 - border:
        return False
    r = radius
    reach = r - border - 3  # farther from a corner's centre, the arc (resampled) blends
    for cx, cy, sx, sy in (
        (x0 + r, y0 + r, x0, y0),
        (x1 - r, y0 + r, x1 - r, y0),
        (x0 + r, y1 - r, x0, y1 - r),
        (x1 - r, y1 - r, x1 - r, y1 - r),
    ):
        ix0, iy0 = max(cell[0], sx), max(cell[1], sy)
        ix1, iy1 = min(cell[2], sx + r), min(cell[3], sy + r)
        if ix0 >= ix1 or iy0 >= iy1:
            continue  # not in this corner's square
        # the point of the overlap farthest from the corner's centre
        px = ix0 if cx == sx + r else ix1
        py = iy0 if cy == sy + r else iy1
        if (px - cx) ** 2 + (py - cy) ** 2 > reach**2:
            return False
    return True
