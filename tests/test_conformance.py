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
SAMPLE_GAMES = 50

# What each game of the sweep produced, by game id and game number: the
# coverage test reuses the games this session already played (the random
# choices do not depend on the checks, so a game plays out the same either way).
_PLAYED: dict[str, dict[int, PlayoutStats]] = {}


def play_scheduled(game: Game[Any, Any, Any], i: int, *, deep: bool) -> PlayoutStats:
    """Random game number ``i`` of the sweep: its seat count, options and seed."""
    info = game.info
    seat_range = list(range(info.min_seats, info.max_seats + 1))
    options = game.conformance_options
    seats = seat_range[i % len(seat_range)]
    opts = options[(i // len(seat_range)) % len(options)]
    stats = PlayoutStats()
    played = run_playout(game, seats, seed=i, options=opts, stats=stats, deep=deep)
    if played is None:  # options not valid for this seat count: use the defaults
        run_playout(game, seats, seed=i, options="", stats=stats, deep=deep)
    assert stats.games == 1
    _PLAYED.setdefault(info.id, {})[i] = stats
    return stats


def sweep_games(game: Game[Any, Any, Any], full: bool) -> int:
    return game.conformance_games if full else min(SAMPLE_GAMES, game.conformance_games)


@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_random_playouts(game_id: str, chunk: int, full_sweep: bool) -> None:
    game = GAMES[game_id]
    per_chunk = sweep_games(game, full_sweep) // CHUNKS
    assert per_chunk > 0
    for i in range(chunk * per_chunk, (chunk + 1) * per_chunk):
        play_scheduled(game, i, deep=i % DEEP_EVERY == 0)


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_playouts_cover_every_ability(game_id: str) -> None:
    """Random play reaches every event the game declares (``coverage_events``) and
    every seat count within the games of the complete sweep, in either tier:
    the games this session has not played yet are played here (with the cheap
    checks only), in order, until everything has been seen."""
    game = GAMES[game_id]
    seat_range = range(game.info.min_seats, game.info.max_seats + 1)
    seen = PlayoutStats()

    def covered() -> bool:
        return game.coverage_events <= set(seen.events) and all(
            seen.seat_counts[n] > 0 for n in seat_range
        )

    for i in range(game.conformance_games):
        one = _PLAYED.get(game_id, {}).get(i) or play_scheduled(game, i, deep=False)
        seen.games += one.games
        seen.events.update(one.events)
        seen.seat_counts.update(one.seat_counts)
        if covered():
            break
    missing = sorted(game.coverage_events - set(seen.events))
    assert not missing, f"{seen.games} random playouts never produced {missing}"
    assert all(seen.seat_counts[n] > 0 for n in seat_range), seen.seat_counts
