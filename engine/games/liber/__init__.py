"""Chroniques de Liber (seed 002): the general's duel, with decks players build.

The package: ``data`` (the card pool's schema), ``model`` (options, state,
views), ``actions`` (actions and notation), ``board`` (places, pieces,
force and PV with their bonuses), ``range`` (the case tables, Loyauté),
``effects`` (damage, deaths, card effects), ``combat``, ``play`` (each
action's effect), ``turns`` (setup, phases, windows, victory),
``legality`` (one check per kind of action), ``view``, ``sampling``,
``text`` (catalogue keys) and ``rules`` (the :class:`Liber` game).
"""

from __future__ import annotations

from .actions import (
    Action,
    Attack,
    Block,
    Discard,
    Equip,
    General,
    Guard,
    Move,
    Next,
    Pass,
    Play,
    Reclaim,
    Use,
    format_action,
    parse_action,
)
from .data import GAME_ID, CardSpec, card, card_file, cards_by_id, decks_by_id
from .model import Options, State, View
from .rules import GAME, Liber

__all__ = [
    "GAME",
    "GAME_ID",
    "Action",
    "Attack",
    "Block",
    "CardSpec",
    "Discard",
    "Equip",
    "General",
    "Guard",
    "Liber",
    "Move",
    "Next",
    "Options",
    "Pass",
    "Play",
    "Reclaim",
    "State",
    "Use",
    "View",
    "card",
    "card_file",
    "cards_by_id",
    "decks_by_id",
    "format_action",
    "parse_action",
]
