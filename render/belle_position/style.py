"""Belle Position images: sizes, palette and the cached text drawing."""

from __future__ import annotations

from ..common import (
    RGB,
    darken,
    text_width_cached,
    wrap_text_cached,
)
from ..liber.layers import draw_text as fast_draw_text

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


draw_text = fast_draw_text
text_width = text_width_cached
wrap_text = wrap_text_cached


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
