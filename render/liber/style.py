"""Chroniques de Liber images: sizes, palette and the cached text drawing."""

from __future__ import annotations

from ..common import RGB, text_width_cached, wrap_text_cached
from .layers import draw_text as fast_draw_text

WIDTH = 1100
MARGIN = 20
LABEL_W = 40  # the line names, turned, left of each battlefield
GAP = 8  # between places
CELL_W = (WIDTH - 2 * MARGIN - LABEL_W - 4 * GAP) // 5
CELL_H = 128


# the cached text drawing is render.common's (shared with Belle Position)
draw_text = fast_draw_text
text_width = text_width_cached
wrap_text = wrap_text_cached


# Palette: a dark slate table, parchment cards, gold for "act now".
BG_TOP: RGB = (34, 36, 48)
BG_BOTTOM: RGB = (24, 25, 34)
FIELD: RGB = (44, 48, 62)
FIELD_EDGE: RGB = (70, 76, 96)
PANEL: RGB = (40, 43, 57)
PANEL_EDGE: RGB = (78, 84, 106)
TEXT: RGB = (238, 234, 224)
MUTED: RGB = (168, 172, 188)
GOLD: RGB = (242, 193, 78)
GOLD_DARK: RGB = (58, 42, 12)
RED: RGB = (214, 64, 56)
BLUE: RGB = (70, 150, 230)
GREEN: RGB = (70, 170, 90)
WHITE: RGB = (255, 255, 255)
PARCHMENT: RGB = (246, 239, 222)
INK: RGB = (40, 34, 28)
INK_SOFT: RGB = (105, 94, 80)

# Seats: blue, red, green, violet (white text reads on each).
SEAT_COLOURS: tuple[RGB, ...] = ((46, 94, 178), (176, 52, 48), (40, 128, 78), (118, 70, 160))

# Card types: the band of places, enchantments, favours and the hand's cards.
TYPE_COLOURS: dict[str, RGB] = {
    "unite": (120, 96, 70),
    "token": (110, 110, 110),
    "general": (160, 120, 30),
    "objet": (70, 110, 130),
    "sort": (104, 64, 150),
    "lieu": (96, 120, 56),
    "dieu": (186, 140, 40),
    "faveur": (196, 150, 60),
}

# Statuses: (glyph, colour).
STATUS_MARKS: dict[str, tuple[str, RGB]] = {
    "poisoned": ("☠", (60, 150, 60)),
    "paralysed": ("❄", (60, 130, 210)),
    "sick": ("z", (120, 120, 132)),
    "countered": ("↺", (214, 120, 40)),
    "attacked": ("⚔", (150, 60, 60)),
}
COIN: RGB = (226, 176, 52)
FAITH: RGB = (150, 110, 210)
VP: RGB = (214, 90, 70)
