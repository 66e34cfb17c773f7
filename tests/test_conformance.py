"""Every registered game passes the shared conformance check (tests/conformance.py)."""

from __future__ import annotations

import pytest

from engine import GAMES
from tests.conformance import PlayoutStats, run_playout

# Every game plays ``game.conformance_games`` random games over its seat counts
# (1,000 unless the game's issue sets another number); a fraction of them with
# the deep, per-step checks.
DEEP_EVERY = 4
CHUNKS = 10


@pytest.fixture(scope="module")
def stats() -> dict[str, PlayoutStats]:
    return {}


@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_random_playouts(game_id: str, chunk: int, stats: dict[str, PlayoutStats]) -> None:
    game = GAMES[game_id]
    info = game.info
    seat_range = list(range(info.min_seats, info.max_seats + 1))
    options = game.conformance_options
    st = stats.setdefault(game_id, PlayoutStats())
    per_chunk = game.conformance_games // CHUNKS
    for i in range(chunk * per_chunk, (chunk + 1) * per_chunk):
        seats = seat_range[i % len(seat_range)]
        opts = options[(i // len(seat_range)) % len(options)]
        played = run_playout(game, seats, seed=i, options=opts, stats=st, deep=i % DEEP_EVERY == 0)
        if played is None:  # options not valid for this seat count: use the defaults
            run_playout(game, seats, seed=i, options="", stats=st, deep=i % DEEP_EVERY == 0)


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_playouts_cover_every_ability(game_id: str, stats: dict[str, PlayoutStats]) -> None:
    game = GAMES[game_id]
    st = stats.get(game_id)
    if st is None or st.games < game.conformance_games:
        pytest.skip("run with the playout tests")
    missing = sorted(game.coverage_events - set(st.events))
    assert not missing, f"random playouts never produced {missing}"
    assert st.games >= game.conformance_games
    seat_range = range(game.info.min_seats, game.info.max_seats + 1)
    assert all(st.seat_counts[n] > 0 for n in seat_range)
