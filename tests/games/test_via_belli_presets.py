"""Via Belli: 300 random games on every table preset, 2 to 4 players
(``--full``; the default test tier plays the first ``SAMPLE_PER_PRESET``).

The shared conformance test (tests/test_conformance.py) plays 300 Via Belli
games (50 in the default tier) with its deep per-step checks over all presets
and option sets; this sweep adds 300 games *per preset* with the per-step checks
that stay cheap (every pending seat and only they have legal actions, the chosen
action goes through its notation, the game ends within ``max_actions``, the
record replays to the same state and a snapshot restores it)."""

from __future__ import annotations

import pytest

from engine import GAMES
from tests.conformance import PlayoutStats, run_playout

PRESETS = ("gueridon", "table_basse", "standard", "salle_a_manger", "carre_4j")
GAMES_PER_PRESET = 300
SAMPLE_PER_PRESET = 15
CHUNKS = 3


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """``--full``: 3 chunks of 100 games per preset; default tier: one chunk."""
    if "chunk" in metafunc.fixturenames:
        metafunc.parametrize("chunk", range(CHUNKS if metafunc.config.getoption("--full") else 1))


@pytest.mark.parametrize("preset", PRESETS)
def test_random_games_on_every_preset(preset: str, chunk: int, full_sweep: bool) -> None:
    game = GAMES["via-belli"]
    stats = PlayoutStats()
    per_chunk = GAMES_PER_PRESET // CHUNKS if full_sweep else SAMPLE_PER_PRESET
    for i in range(chunk * per_chunk, (chunk + 1) * per_chunk):
        seats = 2 + i % 3
        played = run_playout(game, seats, 70_000 + i, f"table={preset}", stats, deep=False)
        assert played is not None, f"table={preset} refused {seats} players"
    assert stats.games == per_chunk
    assert set(stats.seat_counts) == {2, 3, 4}
    assert stats.events["attack"] > 0 and stats.events["summon"] > 0
