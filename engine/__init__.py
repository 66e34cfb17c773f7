"""gueridon's rules engine: pure, deterministic, JSON-serialisable games.

``GAMES`` maps each game id to its game object. See :mod:`engine.core` for
the contract and :mod:`engine.match` for the match facade (versions, event
log, records, replay, seed commitment).
"""

from __future__ import annotations

from typing import Any

from .core import Decision, Event, Game, GameInfo, GameOptions, MenuStep, Outcome, Seat
from .errors import (
    BadNotation,
    BadOptions,
    BadRecord,
    GameOver,
    IllegalAction,
    NotYourTurn,
    RulesError,
    StaleAction,
)
from .games import battalia, belle_position, between_battle, liber, via_belli
from .match import ENGINE_VERSION, LoggedEvent, Match, MatchRecord, seed_commitment

GAMES: dict[str, Game[Any, Any, Any]] = {
    between_battle.GAME.info.id: between_battle.GAME,
    belle_position.GAME.info.id: belle_position.GAME,
    via_belli.GAME.info.id: via_belli.GAME,
    liber.GAME.info.id: liber.GAME,
    battalia.GAME.info.id: battalia.GAME,
}
"""The registry. Fixed ids: between-battle, via-belli, belle-position, liber,
battalia (each is added here when its game is implemented)."""

GAME_IDS = ("between-battle", "via-belli", "belle-position", "liber", "battalia")

__all__ = [
    "ENGINE_VERSION",
    "GAMES",
    "GAME_IDS",
    "BadNotation",
    "BadOptions",
    "BadRecord",
    "Decision",
    "Event",
    "Game",
    "GameInfo",
    "GameOptions",
    "GameOver",
    "IllegalAction",
    "LoggedEvent",
    "Match",
    "MatchRecord",
    "MenuStep",
    "NotYourTurn",
    "Outcome",
    "RulesError",
    "Seat",
    "StaleAction",
    "seed_commitment",
]
