"""Games played at once in several threads give the same games as one by one.

Hosts run bots and renders in worker threads, and the engines keep memos
(boards, move keys, type tables): those must never hand one thread's data to
another thread's state."""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest

from engine import GAMES, rng


@pytest.fixture
def busy_switching() -> Iterator[None]:
    """Switch threads very often, so that races show."""
    before = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        yield
    finally:
        sys.setswitchinterval(before)


def playout_digest(game_id: str, seed: int) -> str:
    game = GAMES[game_id]
    seats = 3 if game.info.max_seats >= 3 and seed % 2 else 2
    state = game.setup(game.options(game.quick_options), seats, seed)
    chooser = rng.seed_state(seed, "threads")
    digest = hashlib.sha256()
    for _ in range(400):
        pending = game.pending(state)
        if not pending:
            break
        seat = min(pending)
        legal = game.legal_actions(state, seat)
        digest.update(" ".join(game.format_action(a) for a in legal).encode())
        k, chooser = rng.randbelow(chooser, len(legal))
        state, _ = game.apply(state, seat, legal[k])
    digest.update(repr(game.encode_state(state)).encode())
    return digest.hexdigest()


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_threads_play_the_same_games(game_id: str, busy_switching: None) -> None:
    seeds = list(range(8))
    alone = [playout_digest(game_id, s) for s in seeds]
    with ThreadPoolExecutor(max_workers=4) as pool:
        together = list(pool.map(lambda s: playout_digest(game_id, s), seeds * 4))
    assert together == alone * 4
