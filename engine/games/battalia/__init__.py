"""Battalia: The Creation, with Buff le Sans Bannière (seed 004; rulings
``battalia.md``): the map-building deck-builder.

The package: ``data`` (the data file's schema), ``model`` (options, state,
views), ``actions`` (actions and notation), ``board`` (squares, exits,
placement), ``cards`` (hands, decks, the supply), ``costs`` (recipes),
``market``, ``oracle``, ``turns`` (set-up, turns, days, the end), ``heroes``,
``battle``, ``buff`` (Buff le Sans Bannière), ``legality`` (one check per
kind of action), ``view``, ``sampling``, ``text`` and ``rules`` (the game).
"""

from __future__ import annotations

from .actions import Action, format_action, parse_action
from .data import GAME_ID
from .model import Options, State, View
from .rules import GAME, Battalia

__all__ = [
    "GAME",
    "GAME_ID",
    "Action",
    "Battalia",
    "Options",
    "State",
    "View",
    "format_action",
    "parse_action",
]
