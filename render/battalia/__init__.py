"""Battalia images: the public board, one seat's hand, the placements.

``render_board`` draws what every observer may see: the 7×7 map (a1
top-left, the playable area, each tile's terrain and roads, the cities with
their level and owner's colour, the neutral cities, the Ruins, the start
squares), the heroes, Buff with his horde token, the Oracle's wheel, the
players, the market, the battle and the auction in progress, whose turn it
is and what is awaited. ``render_private`` draws the observer's hand by
kind, the tent, the deck and the cost of each action line.
``render_spots`` draws the legal squares and rotations of the terrain card
being placed as numbered ghost tiles on a close-up of the map.

Card names stay French in every language; the other words are the
``battalia_render`` catalogue's ``bt-render-*`` keys.
"""

from __future__ import annotations

from .board import render_board
from .choices import render_spots
from .private import render_private

__all__ = ["render_board", "render_private", "render_spots"]
