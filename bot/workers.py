"""CPU work off the event loop: drawing images and ``hard`` bots thinking.

Both are pure Python or Pillow code that holds the GIL most of the time; in
threads they would slow the event loop down (acknowledgements, SQLite,
Discord) and use one core at most. :class:`Workers` runs them in worker
processes instead (``spawn`` start method, created on first use, shut down by
:meth:`Workers.close`), or in threads when ``processes`` is false (tests,
where starting processes would cost more than the work).

The functions sent to workers are module-level and take plain values (game
ids, views, legal actions, budgets, names): everything pickles. A worker
process that dies breaks the pool; :meth:`Workers.run` then starts a fresh
pool and tries once more, so one crash does not leave a match waiting
forever.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

log = logging.getLogger(__name__)

T = TypeVar("T")


class Workers:
    """A lazily created pool of ``size`` worker processes (or threads)."""

    def __init__(self, name: str, size: int, *, processes: bool = True) -> None:
        if size < 1:
            raise ValueError("a pool needs at least one worker")
        self.name = name
        self.size = size
        self.processes = processes
        self._executor: Executor | None = None
        self._closed = False

    def executor(self) -> Executor:
        if self._closed:
            raise RuntimeError(f"the {self.name} workers are closed")
        if self._executor is None:
            if self.processes:
                self._executor = ProcessPoolExecutor(
                    max_workers=self.size,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=_warm_up,
                )
            else:
                self._executor = ThreadPoolExecutor(
                    max_workers=self.size, thread_name_prefix=self.name
                )
        return self._executor

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in a worker, awaited without blocking the loop."""
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self.executor(), fn, *args)
        except BrokenProcessPool:
            log.warning("a %s worker process died: starting a fresh pool", self.name)
            self._discard()
            return await loop.run_in_executor(self.executor(), fn, *args)

    def _discard(self) -> None:
        executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        """Stop the workers (queued work is cancelled; idempotent)."""
        self._closed = True
        self._discard()


def _warm_up() -> None:
    """Import what the work needs once, when a worker process starts."""
    import engine.bots  # noqa: F401
    import render  # noqa: F401


def think(
    game_id: str, level: str, view: object, legal: Sequence[Any], rng_state: int, budget: Any
) -> tuple[Any, int]:
    """A bot's ``(action, next_rng_state)`` (see :meth:`engine.bots.Bot.choose`)."""
    from engine.bots import make_bot

    return make_bot(game_id, level).choose(view, legal, rng_state, budget)
