"""Battalia images: sizes and palette (a warm wooden table, a parchment map
whose squares are painted by terrain, the factions' element colours)."""

from __future__ import annotations

from ..common import RGB, text_width_cached, wrap_text_cached
from ..liber.layers import draw_text as fast_draw_text

WIDTH = 1100
MARGIN = 16

draw_text = fast_draw_text
text_width = text_width_cached
wrap_text = wrap_text_cached

# The table and its panels
BG_TOP: RGB = (58, 44, 34)
BG_BOTTOM: RGB = (40, 30, 24)
PANEL: RGB = (72, 56, 44)
PANEL_EDGE: RGB = (110, 88, 66)
PANEL_DARK: RGB = (50, 39, 31)
TEXT: RGB = (246, 238, 222)
MUTED: RGB = (196, 180, 156)
GOLD: RGB = (242, 193, 78)
GOLD_DARK: RGB = (66, 46, 12)
RED: RGB = (204, 62, 52)
GREEN: RGB = (86, 170, 90)
PARCHMENT: RGB = (244, 234, 210)
INK: RGB = (44, 34, 26)
INK_SOFT: RGB = (110, 94, 76)

# The map
OFF_AREA: RGB = (86, 70, 54)  # squares outside the playable area
EMPTY: RGB = (226, 212, 178)  # an empty playable square
GRID: RGB = (64, 50, 38)
ROAD: RGB = (238, 224, 188)
ROAD_EDGE: RGB = (104, 80, 52)

# Terrains: (base, detail)
TERRAINS: dict[str, tuple[RGB, RGB]] = {
    "foret": ((92, 138, 74), (48, 96, 50)),
    "lac": ((86, 150, 200), (196, 228, 246)),
    "desert": ((232, 200, 132), (204, 160, 96)),
    "montagne": ((160, 148, 134), (104, 92, 82)),
    "plaine": ((176, 200, 112), (130, 160, 74)),
}

# Factions: element colours (earth green, water blue, fire red, air gold);
# the mercenaries ("sans bannière") dark grey.
FACTION_COLOURS: dict[str, RGB] = {
    "u": (52, 132, 62),
    "i": (40, 104, 196),
    "a": (196, 58, 44),
    "n": (214, 160, 28),
    "m": (84, 80, 88),
}
FACTION_TERRAIN = {"u": "foret", "i": "lac", "a": "desert", "n": "montagne"}
# A seat before its faction is chosen (the four colours are the factions')
UNCHOSEN: RGB = (140, 130, 120)
NEUTRAL: RGB = (236, 232, 222)
BUFF: RGB = (46, 36, 44)
BUFF_EDGE: RGB = (206, 52, 46)
HORDE: RGB = (170, 34, 30)

# Artefact types in the Oracle's order
ARTEFACT_TYPES = ("O", "A", "M", "T", "R", "E", "C")
TYPE_COLOURS: dict[str, RGB] = {
    "O": (132, 110, 84),
    "A": (150, 60, 56),
    "M": (120, 80, 160),
    "T": (186, 140, 40),
    "R": (70, 120, 140),
    "E": (96, 130, 70),
    "C": (140, 92, 50),
}
