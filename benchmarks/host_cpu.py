"""Where the host's CPU goes, for ``bench host``: engine, images, database and
Discord I/O, worker processes counted.

* :class:`EngineMeter` wraps every public method of the ``Game`` classes of
  ``engine.GAMES`` and of ``engine.match.Match`` (their properties too) with
  the calling thread's CPU time (``time.thread_time``). Only the outermost
  engine call on a thread is timed, so ``Match.play`` calling ``Game.apply``
  counts once. Code that runs *inside* a wrapped call from the host (a
  callback, a log line) is counted as engine; engine calls made in worker
  processes (while drawing) are not seen here: they are images.
* :class:`CpuProbe` reads, at two instants, the process's CPU
  (``getrusage``: every thread), the CPU of chosen threads (the aiosqlite
  connection's thread, the process pool's manager and feeder threads) through
  their ``pthread_getcpuclockid`` clocks, and the CPU of child processes from
  ``/proc/<pid>/stat`` (utime + stime, in clock ticks: 10 ms resolution,
  summed over a run of many seconds).
* :func:`split` turns two probes, the engine meter and the harness's own CPU
  into per-action figures. "Discord I/O" is the rest of the bot's process:
  discord.py (HTTP, gateway, JSON), the adapter's own Python (building
  messages, translating, menus), asyncio, the store's side of aiosqlite on the
  event loop (queueing, awaiting), and pickling views for the workers.
"""

from __future__ import annotations

import functools
import os
import resource
import threading
import time
import types
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


# ---- reading CPU times ------------------------------------------------------------------
def parse_stat_cpu(stat: str, ticks: int = CLOCK_TICKS) -> float:
    """utime + stime, in seconds, from the text of a ``/proc/.../stat`` file.

    The command name (field 2) is in parentheses and may hold spaces or
    parentheses: the fields are counted after its last ``)``; utime and
    stime are fields 14 and 15 (``man 5 proc``)."""
    rest = stat[stat.rindex(")") + 2 :].split()
    # rest[0] is field 3 (state): field n is rest[n - 3]
    return (int(rest[11]) + int(rest[12])) / ticks


def process_cpu(pid: int) -> float | None:
    """A process's CPU seconds so far (all its threads), or None once it is gone."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            return parse_stat_cpu(f.read())
    except (FileNotFoundError, ProcessLookupError, ValueError):
        return None


def process_rss_mb(pid: int | str, key: str = "VmRSS") -> float | None:
    """A process's resident memory (``VmRSS``, or ``VmHWM`` for the peak), in MB;
    ``pid`` may be ``"self"``."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as f:
            for line in f:
                if line.startswith(key + ":"):
                    return int(line.split()[1]) / 1024
    except (FileNotFoundError, ProcessLookupError):
        return None
    return None


def thread_cpu(thread: threading.Thread) -> float | None:
    """A live thread's CPU seconds so far, through its POSIX CPU clock."""
    if thread.ident is None or not thread.is_alive():
        return None
    try:
        return time.clock_gettime(time.pthread_getcpuclockid(thread.ident))
    except (OSError, AttributeError):  # gone meanwhile, or not on Linux
        if thread.native_id is None:
            return None
        try:
            with open(f"/proc/self/task/{thread.native_id}/stat", encoding="ascii") as f:
                return parse_stat_cpu(f.read())
        except (FileNotFoundError, ValueError):
            return None


def self_cpu() -> float:
    """This process's CPU seconds so far (user + system, every thread)."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def delta(before: Mapping[Any, float], after: Mapping[Any, float]) -> float:
    """CPU spent between two readings of several threads or processes: one
    that appeared in between started from nothing; one that is gone at the
    end is left out (what it spent after the first reading is lost)."""
    return sum(value - before.get(key, 0.0) for key, value in after.items())


# ---- the engine's share --------------------------------------------------------------------
class EngineMeter:
    """Times the engine's calls on every thread (outermost calls only)."""

    def __init__(self) -> None:
        self.cpu = 0.0
        self.calls = 0
        self._local = threading.local()
        self._undo: list[tuple[type, str, Any]] = []

    def _timed(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        meter = self

        @functools.wraps(fn)
        def timed(*args: Any, **kwargs: Any) -> Any:
            local = meter._local
            if getattr(local, "busy", False):
                return fn(*args, **kwargs)
            local.busy = True
            start = time.thread_time()
            try:
                return fn(*args, **kwargs)
            finally:
                meter.cpu += time.thread_time() - start
                meter.calls += 1
                local.busy = False

        return timed

    @contextmanager
    def excluded(self) -> Iterator[None]:
        """Engine calls made inside this block are not counted (the harness's)."""
        local = self._local
        was = getattr(local, "busy", False)
        local.busy = True
        try:
            yield
        finally:
            local.busy = was

    def _wrap_class(self, cls: type, names: list[str]) -> None:
        for name in names:
            own = cls.__dict__.get(name)
            attr = own if own is not None else _class_attr(cls, name)
            if isinstance(attr, property) and attr.fget is not None:
                new: Any = property(self._timed(attr.fget), attr.fset, attr.fdel, attr.__doc__)
            elif isinstance(attr, types.FunctionType):
                new = self._timed(attr)
            else:  # data, classes, class and static methods
                continue
            self._undo.append((cls, name, own))
            setattr(cls, name, new)

    def install(self) -> None:
        """Wrap the engine's entry points (undone by :meth:`uninstall`)."""
        import engine
        from engine.core import Game
        from engine.match import Match

        names = _public(Game)
        classes = {type(game) for game in engine.GAMES.values()}
        for cls in sorted(classes, key=lambda c: c.__qualname__):
            self._wrap_class(cls, names)
        self._wrap_class(Match, _public(Match))

    def uninstall(self) -> None:
        for cls, name, own in reversed(self._undo):
            if own is None:
                delattr(cls, name)
            else:
                setattr(cls, name, own)
        self._undo.clear()


def _class_attr(cls: type, name: str) -> Any:
    for base in cls.__mro__:
        if name in base.__dict__:
            return base.__dict__[name]
    return None


def _public(cls: type) -> list[str]:
    names = set()
    for base in cls.__mro__:
        if base is object:
            continue
        names |= {n for n in base.__dict__ if not n.startswith("_")}
    return sorted(names)


# ---- readings and the split --------------------------------------------------------------
@dataclass
class Reading:
    """CPU seconds so far, at one instant."""

    process: float
    engine: float
    harness: float
    database: dict[int, float] = field(default_factory=dict)  # thread ident -> s
    pool_threads: dict[int, float] = field(default_factory=dict)  # the pools' own threads
    images: dict[int, float] = field(default_factory=dict)  # render worker pid -> s
    other_workers: dict[int, float] = field(default_factory=dict)  # other children
    fake: float = 0.0  # the players' process (fake Discord), for information


def split(before: Reading, after: Reading, actions: int) -> dict[str, float]:
    """Milliseconds of CPU per action between two readings, by part.

    ``discord_io`` is the rest of the bot's process: everything it spent
    minus the engine, the database thread, the pools' threads and the
    harness (the benchmark's side channel answering the players)."""
    per = 1e3 / max(actions, 1)
    process = after.process - before.process
    engine = after.engine - before.engine
    harness = after.harness - before.harness
    database = delta(before.database, after.database)
    pool_threads = delta(before.pool_threads, after.pool_threads)
    workers = delta(before.images, after.images)
    other = delta(before.other_workers, after.other_workers)
    rest = max(0.0, process - engine - harness - database - pool_threads)
    images = workers + pool_threads
    return {
        "engine": engine * per,
        "images": images * per,
        "database": database * per,
        "discord_io": rest * per,
        "other_workers": other * per,
        "total": (engine + images + database + rest + other) * per,
        "harness": harness * per,
        "fake": (after.fake - before.fake) * per,
    }
