"""Helpers shared by the per-game bot tests."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from engine import GAMES, Match
from engine.bots import bot_rng, make_bot


def bot_positions(game_id: str, seed: int, levels: tuple[str, str]) -> Iterator[tuple[Any, int]]:
    """``(state, seat to decide)`` along a two-player match between bots of
    these levels (default options)."""
    match = Match(GAMES[game_id], None, 2, seed)
    bots = [make_bot(game_id, level) for level in levels]
    states = [bot_rng(seed, 0), bot_rng(seed, 1)]
    while not match.is_over:
        seat = min(match.pending())
        yield match.state, seat
        action, states[seat] = bots[seat].choose(
            match.view(seat), match.legal_actions(seat), states[seat]
        )
        match.play(seat, action)
