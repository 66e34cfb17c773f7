"""Worker pools: images and hard bots off the event loop's process."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.service import ClockConfig, HostService, UserRef
from bot.store import Store
from bot.workers import Workers
from engine import GAMES, Match, rng

ALICE = UserRef(1, "Alice")
CHAN = 400


def _crash_once(marker: str) -> int:
    """Kills its worker process the first time (no marker yet), then answers."""
    if not os.path.exists(marker):
        Path(marker).touch()
        os._exit(3)
    return os.getpid()


@pytest.fixture
async def processes() -> AsyncIterator[Workers]:
    pool = Workers("test", 1, processes=True)
    yield pool
    pool.close()


async def test_processes_run_elsewhere_and_threads_here(processes: Workers) -> None:
    assert await processes.run(os.getpid) != os.getpid()
    threads = Workers("test", 1, processes=False)
    try:
        assert await threads.run(os.getpid) == os.getpid()
    finally:
        threads.close()
    with pytest.raises(RuntimeError):
        await threads.run(os.getpid)


async def test_a_dead_worker_is_replaced_and_the_work_retried(
    processes: Workers, tmp_path: Path
) -> None:
    first = await processes.run(os.getpid)
    marker = tmp_path / "crashed"
    pid = await processes.run(_crash_once, str(marker))
    assert marker.exists() and pid != first


async def test_images_drawn_in_a_process_are_the_same(processes: Workers) -> None:
    from render import render_board, render_private

    match = Match(GAMES["between-battle"], "characters=pirate,ninja", 2, 11)
    names = ["a", "b"]
    for fn, view in ((render_board, match.view(None)), (render_private, match.view(1))):
        png = await processes.run(fn, "between-battle", view, names, "fr")
        assert png.startswith(b"\x89PNG") and png == fn("between-battle", view, names, "fr")


async def _play_against_hard(tmp_path: Path, workers: Workers | None) -> tuple[str, ...]:
    store = await Store.open(tmp_path / f"{workers is not None}.db")
    cfg = ClockConfig(bot_iterations=25)
    svc = HostService(
        store, seed_source=lambda: 2024, clock_config=cfg, bot_clock=None, bot_workers=workers
    )
    try:
        await svc.resume()
        await svc.create_lobby(
            guild_id=1,
            channel_id=CHAN,
            host=ALICE,
            game_id="between-battle",
            seats=2,
            options="hp=5",
        )
        await svc.add_bot(CHAN, ALICE, "hard")
        live = await svc.start(CHAN, ALICE)
        chooser = rng.seed_state(9)
        for _ in range(500):
            await svc.wait_for_bots()
            if live.match.is_over:
                break
            moves = svc.legal_moves(live, ALICE.id)
            i, chooser = rng.randbelow(chooser, len(moves))
            await svc.play(live.id, ALICE.id, moves[i][0])
        assert live.match.is_over
        assert any(seat == 1 for seat, _ in live.match.record().actions)
        return tuple(f"{seat}:{action}" for seat, action in live.match.record().actions)
    finally:
        await svc.wait_for_bots()
        await store.close()


async def test_a_hard_bot_in_a_process_plays_as_in_a_thread(
    processes: Workers, tmp_path: Path
) -> None:
    """Without a clock the search is deterministic: the worker process
    must not change a single move."""
    in_process = await _play_against_hard(tmp_path, processes)
    in_thread = await _play_against_hard(tmp_path, None)
    assert in_process == in_thread
