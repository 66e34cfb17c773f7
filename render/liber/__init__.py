"""Chroniques de Liber images: the public board, one seat's hand, one card.

``render_board`` draws what every observer may see, and only that, so the
image is the same whichever seat's view it is drawn from: each player's
battlefield as three lines of five places, the lines of two battlefields
facing each other (plaine, arrière, front | front, arrière, plaine; with 3-4
players the battlefields are stacked in duels); each unit, token and general
with its name, force, PV left / maximum, equipment, statuses and keyword
abbreviations (a legend explains them); the places, enchantments and favours
of the plaine; each player's god and counters (gold and income, faith,
victory points, hand, deck, graveyard); whose turn, which phase, the open
reaction window and the attack being declared (arrows and rings); the
winner when the game is over.

``render_private`` draws the observer's hand, each card with its full text
(costs, type, force and PV, keywords with their rules, the card's text in
the reader's language); the cards the observer may play now are ringed in
gold. ``render_card`` draws one card of the pool, large (the host's
``/card``).

Card names stay French in every language. The board and the hand are 1100 px
wide so that Discord's ~550 px preview stays legible.
"""

from __future__ import annotations

from .board import render_board
from .cards import render_card
from .private import render_private

__all__ = ["render_board", "render_card", "render_private"]
