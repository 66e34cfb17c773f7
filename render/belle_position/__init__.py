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
legible."""

from __future__ import annotations

from .board import _generals_text, render_board
from .context import _context
from .private import render_private

__all__ = ["_context", "_generals_text", "render_board", "render_private"]
