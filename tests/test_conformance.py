"""Every registered game passes the shared conformance check (tests/conformance.py).

Two tiers (tests/conftest.py): ``pytest --full`` (``python3 run.py test --full``,
``.ci/run``) plays the complete sweep, ``game.conformance_games`` random games
per game (1,000 unless the game's issue sets another number); the default tier
plays the first ``SAMPLE_GAMES`` of the same games, over the same seat counts
and option sets. A fraction of them get the deep, per-step checks.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine import GAMES
from engine.core import Game
from tests.conformance import PlayoutStats, run_playout

DEEP_EVERY = 4
CHUNKS = 10
SAMPLE_GAMES = 100


def play_scheduled(game: Game[Any, Any, Any], i: int, stats: PlayoutStats, *, deep: bool) -> None:
    """Random game number ``i`` of the sweep: its seat count, options and seed."""
    info = game.info
    seat_range = list(range(info.min_seats, info.max_seats + 1))
    options = game.conformance_options
    seats = seat_range[i % len(seat_range)]
    opts = options[(i // len(seat_range)) % len(options)]
    played = run_playout(game, seats, seed=i, options=opts, stats=stats, deep=deep)
    if played is None:  # options not valid for this seat count: use the defaults
        run_playout(game, seats, seed=i, options="", stats=stats, deep=deep)


def sweep_games(game: Game[Any, Any, Any], full: bool) -> int:
    return game.conformance_games if full else min(SAMPLE_GAMES, game.conformance_games)


@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_random_playouts(game_id: str, chunk: int, full_sweep: bool) -> None:
    game = GAMES[game_id]
    per_chunk = sweep_games(game, full_sweep) // CHUNKS
    stats = PlayoutStats()
    for i in range(chunk * per_chunk, (chunk + 1) * per_chunk):
        play_scheduled(game, i, stats, deep=i % DEEP_EVERY == 0)
    assert stats.games == per_chunk > 0


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_playouts_cover_every_ability(game_id: str) -> None:
    """Random play reaches every event the game declares (``coverage_events``) and
    every seat count, within the games of the complete sweep. Runs its own
    playouts (the cheap checks only; the choices do not depend on the checks, so
    these are the sweep's own first games) and stops once everything is seen."""
    game = GAMES[game_id]
    seat_range = range(game.info.min_seats, game.info.max_seats + 1)
    stats = PlayoutStats()

    def covered() -> bool:
        return game.coverage_events <= set(stats.events) and all(
            stats.seat_counts[n] > 0 for n in seat_range
        )

    for i in range(game.conformance_games):
        play_scheduled(game, i, stats, deep=False)
        if covered():
            break
    missing = sorted(game.coverage_events - set(stats.events))
    assert not missing, f"{stats.games} random playouts never produced {missing}"
    assert all(stats.seat_counts[n] > 0 for n in seat_range), stats.seat_counts
