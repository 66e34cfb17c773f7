"""The whole host under load: the real bot (real discord.py, production
settings: images drawn in worker processes) against the fake Discord on
127.0.0.1, with simulated players, for 1, 50, 200 and 500 concurrent Between
Battle matches (``--matches 1,50,200,500``; ``--quick``: 1 and 10 matches,
3 actions, 1.5 s of thought, 50 matches resumed). Results: a table per row
as it ends, then the CPU split, and ``benchmarks/results/host.json``
(``--json``): the parameters, the load average at the end, one object per
row (``load``: the open phase under ``open``, the play phase's figures,
``cpu_ms_per_action``, failures with their kinds and a few samples) and
``resume``.

The fake Discord and the players run in a process of their own
(``benchmarks/host_players.py``, started with the ``spawn`` context): the
bot's process holds only the bot and the benchmark's harness, a side channel
on 127.0.0.1 through which the players ask whose turn it is and what they
may play (see that module for why not the ``/play`` autocomplete).

Each row: the tables are opened first (``/lobby create``, ``join``,
``start`` and the first board), at most ``--open-concurrency`` at once; the
open phase is reported on its own (seconds, tables that failed to open,
replies past 3 s). Before the clock starts, every render worker is started
and draws once (a running bot's workers are warm; a worker's start-up is not
the cost of an action). Then every table plays ``--actions`` moves by ``/play``,
each player thinking a random time first, uniform between 0.5 and 1.5 times
``--think`` (5 s: brisk human play), seeded per table. With ``--think 0``
every player answers at once (a closed loop): board times then measure the
queue, ``matches / throughput``, not the latency of one action. Measured:

* acknowledgement time, dispatch to first response, of every interaction of
  the play phase (p50, p95, p99), and *replies past 3 s*: interactions the
  bot answered after Discord's 3-second window, or never (the fake refuses a
  late first response with 10062, as Discord does);
* board time, from just before the fake dispatches a ``/play`` to the time
  the fake stored the next board message of that table (p50, p95, p99; when
  the host folds several actions into one board, that later board counts);
* actions per second (those whose board arrived), against the players'
  demand (``tables / think``);
* tables that failed to open, and tables that timed out while playing (no
  answer or no board within 60 s: the table stops; counted, never a crash);
* the event loop's lag over the play phase (p50, p99, max): how late a task
  sleeping 50 ms wakes, what an interaction waits before its handler may
  acknowledge it;
* the SQLite commit time per action (``Store.commit_action``, wall time: it
  includes the wait for the store's write lock), and the store's calls per
  action by method (one aiosqlite connection carries them all);
* ``/help``'s round trip after the run, the floor under every figure;
* the host's CPU per action over the play phase, split (``host_cpu.py``),
  divided by the actions whose board arrived (when tables time out, the
  work done for their late boards weighs on fewer actions):
  - *engine*: the calling thread's CPU inside the outermost call into a
    ``Game`` method or a ``Match`` method or property (wrapped for the run:
    about 3 µs per outermost call, two thread-clock reads, and a fraction of
    a microsecond per inner call; some 50 outermost calls per Between Battle
    action, so about 0.15 ms an action, counted as engine);
  - *images*: the CPU of the render pool's worker processes
    (``/proc/<pid>/stat``, utime + stime, 10 ms ticks) plus the pool's own
    threads in the bot's process (the executor's manager and the queue
    feeder: pickling views, unpickling PNGs); with ``WORKER_PROCESSES=false``
    the pool's threads, which then do the drawing;
  - *database*: the aiosqlite connection's thread (its CPU clock): SQLite
    itself; the store's Python on the event loop (queueing, awaiting) is
    not in it;
  - *Discord I/O*: the rest of the bot's process (``getrusage``, every
    thread) once engine, database, pool threads and harness are taken out:
    discord.py (HTTP, gateway, JSON), the adapter's own Python (messages,
    translation, menus), asyncio, and the store's side on the event loop;
  - *harness*: the side channel's answers to the players, reported apart
    and in no column; *fake*: the players' process, for information.
  The split misses: work of a thread or child that ended during the phase
  (its CPU after the first reading is lost), engine code run inside a worker
  (drawing: counted as images), and work after the last board (the phase's
  end waits for the handlers in flight, at most 5 s).
* the RSS of a fresh process with 1,000 active matches resumed from the
  database (``VmHWM``, ``/proc/self/status``); resuming starts no worker
  process, so the render pool's two workers are started after it (one
  board each) and their peak RSS is added: the total is what a bot holds
  once it has drawn its first images. Each row also gives the bot process's
  RSS and its render workers' at the end of its play phase.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import inspect
import json
import logging
import multiprocessing
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from . import host_players
from .host_cpu import (
    EngineMeter,
    Reading,
    process_cpu,
    process_rss_mb,
    self_cpu,
    split,
    thread_cpu,
)
from .report import machine, percentile, write_json

NAME = "host"
HELP = "the bot under load through the fake Discord: ack and board latency, actions/s, CPU, RSS"
DEFAULT_JSON = Path(__file__).parent / "results" / "host.json"
DEFAULT_MATCHES = (1, 50, 200, 500)
QUICK_MATCHES = (1, 10)


def matches_list(text: str) -> tuple[int, ...]:
    """``"1,50,200"`` -> ``(1, 50, 200)`` (argparse type)."""
    try:
        counts = tuple(int(part) for part in text.split(",") if part.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a list of numbers: {text!r}") from None
    if not counts or min(counts) < 1:
        raise argparse.ArgumentTypeError("match counts are whole numbers from 1")
    return counts


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--quick",
        action="store_true",
        help="1 and 10 matches, 3 actions, 1.5 s of thought, 50 resumed",
    )
    parser.add_argument("--json", type=Path, default=DEFAULT_JSON, help="where to write JSON")
    parser.add_argument(
        "--matches",
        type=matches_list,
        default=None,
        help="concurrent matches per row, comma-separated (1,50,200,500)",
    )
    parser.add_argument("--actions", type=int, default=None, help="actions per match (8)")
    parser.add_argument(
        "--think", type=float, default=None, help="players' mean thinking time in seconds (5)"
    )
    parser.add_argument(
        "--open-concurrency",
        type=int,
        default=10,
        help="tables being opened at once before the clock starts (10)",
    )
    parser.add_argument(
        "--resumed", type=int, default=None, help="matches resumed for the RSS figure (1000)"
    )


# ---- the bot's side ---------------------------------------------------------------------
class _ErrorCount(logging.Handler):
    """ERROR records of the bot's process (the fake, elsewhere, cannot see them)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.count = 0
        self.samples: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.count += 1
        if len(self.samples) < 3:
            self.samples.append(f"{record.name}: {record.getMessage()}"[:300])


class StoreCalls:
    """Counts the store's calls by method (reads and writes all go through
    one aiosqlite connection; writes take turns under one lock)."""

    def __init__(self) -> None:
        self.counts: dict[str, int] = {}
        # (name, the function Store itself held, None: one its parts define)
        self._undo: list[tuple[str, Any]] = []

    def install(self) -> None:
        from bot.store import Store

        seen: set[str] = set()
        for cls in Store.__mro__:  # Store and its parts (bot/store_core.py)
            for name, fn in list(vars(cls).items()):
                if name in seen:
                    continue
                seen.add(name)
                if inspect.iscoroutinefunction(fn) and (
                    not name.startswith("_") or name == "_write"
                ):
                    self._undo.append((name, fn if cls is Store else None))
                    setattr(Store, name, self._counted(name, fn))

    def _counted(self, name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        counts = self.counts

        @functools.wraps(fn)
        async def counted(*args: Any, **kwargs: Any) -> Any:
            counts[name] = counts.get(name, 0) + 1
            return await fn(*args, **kwargs)

        return counted

    def uninstall(self) -> None:
        from bot.store import Store

        for name, fn in reversed(self._undo):
            if fn is None:
                delattr(Store, name)
            else:
                setattr(Store, name, fn)
        self._undo.clear()


async def loop_lag(samples: list[float], period: float = 0.05) -> None:
    """How late the event loop wakes a task that sleeps ``period`` seconds:
    what every interaction waits before its handler may acknowledge it."""
    loop = asyncio.get_running_loop()
    while True:
        start = loop.time()
        await asyncio.sleep(period)
        samples.append(loop.time() - start - period)


class Harness:
    """The bot in this process, driven by the players' process."""

    def __init__(self, db: Path, players_pid: Callable[[], int | None]) -> None:
        self.db = db
        self.players_pid = players_pid
        self.meter = EngineMeter()
        self.harness_cpu = 0.0
        self.bot: Any = None
        self._bot_task: asyncio.Task[None] | None = None
        self._matches: dict[int, Any] = {}  # lobby channel -> LiveMatch
        self.readings: dict[str, Reading] = {}
        self.engine_calls: dict[str, int] = {}
        self.store_calls = StoreCalls()
        self.store_counts: dict[str, dict[str, int]] = {}
        self.lag: list[float] = []
        self._lag_task: asyncio.Task[None] | None = None
        self.result: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.workers_rss_mb = 0.0
        self.bot_rss_mb = 0.0
        self._restore: list[Callable[[], None]] = []

    # -- the side channel ----------------------------------------------------------------
    async def serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while line := await reader.readline():
                start = time.thread_time()
                request = json.loads(line)
                if request["op"] == "turn":
                    with self.meter.excluded():
                        answer = self.turn(request["lobby"])
                else:
                    answer = await self.handle(request)
                answer["id"] = request["id"]
                writer.write(json.dumps(answer).encode() + b"\n")
                if request["op"] == "turn":
                    self.harness_cpu += time.thread_time() - start
                await writer.drain()
        except asyncio.CancelledError:  # the run is over (the loop is closing)
            pass
        except Exception as error:  # the players will see the socket close
            if not self.result.done():
                self.result.set_exception(error)
        finally:
            writer.close()

    def turn(self, lobby_id: int) -> dict[str, Any]:
        live = self._matches.get(lobby_id)
        if live is None:
            host = self.bot.host
            live = next(
                (
                    m
                    for m in host.matches.values()
                    if lobby_id in (m.lobby_channel_id, m.channel_id)
                ),
                None,
            )
            if live is None:
                return {"missing": True}
            self._matches[lobby_id] = live
        match = live.match
        if match.is_over:
            return {"over": True, "channel": live.channel_id}
        seat = min(match.pending())
        return {
            "channel": live.channel_id,
            "user": live.user_of(seat),
            "legal": match.legal_notations(seat),
        }

    async def handle(self, request: dict[str, Any]) -> dict[str, Any]:
        op = request["op"]
        if op == "fake":
            await self.start_bot(request["api"], request["gateway"], request["token"])
        elif op == "phase":
            if request["name"] == "play":
                await self.warm_pool(request["game"], request["options"])
            await self.bot.wait_idle(5.0)
            self.readings[request["name"]] = self.read()
            self.engine_calls[request["name"]] = self.meter.calls
            self.store_counts[request["name"]] = dict(self.store_calls.counts)
            if request["name"] == "play":
                self._lag_task = asyncio.create_task(loop_lag(self.lag))
            elif self._lag_task is not None:
                self._lag_task.cancel()
            if request["name"] == "end":
                self.measure_rss()
        elif op == "done":
            await self.stop_bot()
            if not self.result.done():
                self.result.set_result(request["result"])
        else:
            return {"error": f"unknown op {op!r}"}
        return {}

    # -- the bot -------------------------------------------------------------------------
    async def start_bot(self, api: str, gateway: str, token: str) -> None:
        import discord
        import yarl

        from bot import Settings, create_bot

        route, ws = discord.http.Route, discord.gateway.DiscordWebSocket
        old = route.BASE, ws.DEFAULT_GATEWAY
        route.BASE, ws.DEFAULT_GATEWAY = api, yarl.URL(gateway)

        def unpatch() -> None:
            route.BASE, ws.DEFAULT_GATEWAY = old

        self._restore.append(unpatch)
        self.meter.install()
        self._restore.append(self.meter.uninstall)
        self.store_calls.install()
        self._restore.append(self.store_calls.uninstall)
        self.bot = create_bot(
            Settings(discord_token=token, database_path=str(self.db)), guild_ready_timeout=0.05
        )
        self._bot_task = asyncio.create_task(self.bot.start(token))
        deadline = time.monotonic() + 60
        while not self.bot.is_ready():
            if self._bot_task.done():
                self._bot_task.result()
                raise RuntimeError("the bot stopped before it was ready")
            if time.monotonic() > deadline:
                raise TimeoutError("the bot was not ready within 60 s")
            await asyncio.sleep(0.05)

    async def warm_pool(self, game_id: str, options: str) -> None:
        """Start every render worker, and let each draw once, before the
        clock starts: a process pool starts its workers one by one as work
        queues up, and a worker's start (imports, fonts, first drawings) is
        not the cost of an action in a bot that has been running a while."""
        pool = self.bot.render_pool
        seen: set[int] = set()
        for _ in range(20):
            jobs = (pool.run(warm_worker, game_id, options) for _ in range(pool.size))
            seen |= set(await asyncio.gather(*jobs))
            if len(seen) >= pool.size:
                break

    async def stop_bot(self) -> None:
        if self.bot is not None and not self.bot.is_closed():
            await self.bot.close()
        if self._bot_task is not None:
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await asyncio.wait_for(self._bot_task, 30)

    def close(self) -> None:
        for undo in reversed(self._restore):
            undo()
        self._restore.clear()

    # -- CPU and memory ------------------------------------------------------------------
    def _pools(self) -> tuple[dict[int, float], dict[int, float], dict[int, float]]:
        """CPU so far of the render pool's threads in this process, of its
        worker processes, and of the other pools' worker processes."""
        threads: dict[int, float] = {}
        render: dict[int, float] = {}
        others: dict[int, float] = {}
        for pool, pids in ((self.bot.render_pool, render), (self.bot.bot_pool, others)):
            executor = pool._executor
            if executor is None:
                continue
            own = [
                getattr(executor, "_executor_manager_thread", None),
                getattr(getattr(executor, "_call_queue", None), "_thread", None),
                *getattr(executor, "_threads", ()),  # a thread pool: the drawing itself
            ]
            for thread in own:
                cpu = (
                    None
                    if thread is None or pool is not self.bot.render_pool
                    else thread_cpu(thread)
                )
                if cpu is not None and thread is not None and thread.ident is not None:
                    threads[thread.ident] = cpu
            for pid in getattr(executor, "_processes", None) or {}:
                cpu = process_cpu(pid)
                if cpu is not None:
                    pids[pid] = cpu
        return threads, render, others

    def read(self) -> Reading:
        threads, render, others = self._pools()
        db_thread = self.bot.host.store.db._thread
        db_cpu = thread_cpu(db_thread)
        players = self.players_pid()
        return Reading(
            process=self_cpu(),
            engine=self.meter.cpu,
            harness=self.harness_cpu,
            database={} if db_cpu is None else {db_thread.ident: db_cpu},
            pool_threads=threads,
            images=render,
            other_workers=others,
            fake=(process_cpu(players) or 0.0) if players is not None else 0.0,
        )

    def measure_rss(self) -> None:
        executor = self.bot.render_pool._executor
        pids = list(getattr(executor, "_processes", None) or {})
        self.workers_rss_mb = sum(process_rss_mb(pid) or 0.0 for pid in pids)
        self.bot_rss_mb = process_rss_mb(os.getpid()) or 0.0


def warm_worker(game_id: str, options: str) -> int:
    """In a render worker: draw a board and a private view once, then hold
    the worker a moment (so that the next job goes to another); its pid."""
    from engine import GAMES
    from render import render_board, render_private

    game = GAMES[game_id]
    state = game.setup(game.options(options), 2, 1)
    render_board(game_id, game.view(state, None), ["a", "b"], "en")
    render_private(game_id, game.view(state, 0), ["a", "b"], "en")
    time.sleep(0.3)
    return os.getpid()


async def _until(future: asyncio.Future[Any], alive: Callable[[], bool], limit: float) -> Any:
    """``future``'s result, unless the players' process dies or time runs out."""
    deadline = time.monotonic() + limit
    while not future.done():
        if not alive():
            await asyncio.sleep(1.0)  # its last answer may still be on its way
            if not future.done():
                raise RuntimeError("the players' process ended without its results")
        if time.monotonic() > deadline:
            raise TimeoutError(f"no results within {limit:.0f} s")
        await asyncio.wait({future}, timeout=0.5)
    return future.result()


async def _scenario(params: host_players.Params, db: Path) -> dict[str, Any]:
    from bot.store import Store

    commit_times: list[float] = []
    original_commit = Store.commit_action

    async def timed_commit(self: Store, *args: Any, **kwargs: Any) -> None:
        t0 = time.perf_counter()
        await original_commit(self, *args, **kwargs)
        commit_times.append(time.perf_counter() - t0)

    Store.commit_action = timed_commit  # type: ignore[method-assign]
    logging.getLogger("discord").setLevel(logging.WARNING)
    errors = _ErrorCount()
    logging.getLogger().addHandler(errors)
    ctx = multiprocessing.get_context("spawn")
    process: Any = None
    harness = Harness(db, lambda: None if process is None else process.pid)
    server = await asyncio.start_server(harness.serve, "127.0.0.1", 0, limit=2**24)
    port = server.sockets[0].getsockname()[1]
    row: dict[str, Any] = {"matches": params.matches, "think_s": params.think}
    try:
        process = ctx.Process(
            target=host_players.main,
            args=(port, vars(params)),
            name="bench-players",
            daemon=True,
        )
        process.start()
        # generous: opening 500 tables, then the actions at the players' pace
        limit = 600 + params.matches * 2 + params.actions * (params.think * 1.5 + 60)
        result = await _until(harness.result, process.is_alive, limit)
        row.update(_row(result, harness, commit_times))
    except Exception as error:  # reported in the row, never a crash
        row["error"] = f"{type(error).__name__}: {error}"
    finally:
        await harness.stop_bot()
        if process is not None:
            await asyncio.to_thread(process.join, 30)
            if process.is_alive():
                process.terminate()
        server.close()
        await server.wait_closed()
        harness.close()
        logging.getLogger().removeHandler(errors)
        Store.commit_action = original_commit  # type: ignore[method-assign]
    row["bot_errors"] = errors.count
    row["bot_error_samples"] = errors.samples
    return row


def _row(result: dict[str, Any], harness: Harness, commit_times: list[float]) -> dict[str, Any]:
    play = result["play"]
    cpu: dict[str, float] = {}
    if "play" in harness.readings and "end" in harness.readings:
        cpu = split(harness.readings["play"], harness.readings["end"], play["actions"])
    bot = harness.bot
    actions = max(play["actions"], 1)
    before, after = harness.store_counts.get("play", {}), harness.store_counts.get("end", {})
    store_calls = {
        name: (count - before.get(name, 0)) / actions
        for name, count in sorted(after.items(), key=lambda kv: before.get(kv[0], 0) - kv[1])
        if count > before.get(name, 0)
    }
    return {
        "open": result["open"],
        "actions": play["actions"],
        "actions_per_s": play["actions_per_s"],
        "demand_per_s": play["demand_per_s"],
        "ack_p50_ms": play["ack_p50_ms"],
        "ack_p95_ms": play["ack_p95_ms"],
        "ack_p99_ms": play["ack_p99_ms"],
        "ack_max_ms": play["ack_max_ms"],
        "replies_past_3s": play["late"],
        "unanswered": play["unanswered"],
        "interactions": play["interactions"],
        "board_p50_ms": play["board_p50_ms"],
        "board_p95_ms": play["board_p95_ms"],
        "board_p99_ms": play["board_p99_ms"],
        "tables_failed_to_open": result["open"]["failed"],
        "tables_timed_out": play["tables_timed_out"],
        "timeouts": play["timeouts"],
        "loop_lag_p50_ms": percentile(harness.lag, 50) * 1e3,
        "loop_lag_p99_ms": percentile(harness.lag, 99) * 1e3,
        "loop_lag_max_ms": max(harness.lag, default=0.0) * 1e3,
        "store_calls_per_action": store_calls,
        "commit_p50_ms": percentile(commit_times, 50) * 1e3,
        "commit_p99_ms": percentile(commit_times, 99) * 1e3,
        "help_roundtrip_ms": result["help_ms"],
        "cpu_ms_per_action": cpu,
        "engine_calls_per_action": (
            (harness.engine_calls.get("end", 0) - harness.engine_calls.get("play", 0))
            / max(play["actions"], 1)
        ),
        "worker_processes": bool(bot.settings.worker_processes),
        "render_workers": int(bot.settings.render_workers),
        "bot_rss_mb": harness.bot_rss_mb,
        "render_workers_rss_mb": harness.workers_rss_mb,
        "problems": result["problems"],
        "problem_samples": result["problem_samples"],
    }


# ---- memory with many matches resumed -----------------------------------------------------
async def _make_matches(db: Path, count: int, moves: int = 12) -> None:
    """``count`` active matches, each ``moves`` random actions in (mid-game:
    the logs resumed are those of matches under way)."""
    from bot.service import HostService, UserRef
    from bot.store import Store
    from engine import rng

    store = await Store.open(db)
    svc = HostService(store, bot_clock=None)
    await svc.resume()
    for i in range(count):
        a, b = UserRef(2 * i + 1, f"a{i}"), UserRef(2 * i + 2, f"b{i}")
        await svc.create_lobby(
            guild_id=1,
            channel_id=10_000 + i,
            host=a,
            game_id="between-battle",
            seats=2,
            options="characters=pirate,ninja",
        )
        await svc.join(10_000 + i, b)
        live = await svc.start(10_000 + i, a)
        chooser = rng.seed_state(i)
        for _ in range(moves):
            if live.match.is_over:
                break
            seat = sorted(live.match.pending())[0]
            legal = live.match.legal_notations(seat)
            k, chooser = rng.randbelow(chooser, len(legal))
            await svc.play(live.id, live.user_of(seat), legal[k])
    await store.close()


_RESUME_CODE = """
import asyncio, json, sys
from benchmarks.host_cpu import process_rss_mb
from bot.service import HostService
from bot.settings import Settings
from bot.store import Store
from bot.workers import Workers
import render, discord
from render import render_board
before = process_rss_mb('self', 'VmHWM')
async def main():
    store = await Store.open(sys.argv[1])
    svc = HostService(store, bot_clock=None)
    live = await svc.resume()
    assert len(live) > 0
    after = process_rss_mb('self', 'VmHWM')
    # resuming starts no worker: start the render pool as a bot's first boards do
    settings = Settings(discord_token='x', database_path=sys.argv[1])
    pool = Workers('render', settings.render_workers, processes=settings.worker_processes)
    jobs = [
        pool.run(render_board, m.game_id, m.match.view(None), m.names, 'en')
        for m in live[: settings.render_workers]
    ]
    await asyncio.gather(*jobs)
    pids = list(getattr(pool.executor(), '_processes', None) or {})
    workers = sum(process_rss_mb(pid, 'VmHWM') or 0.0 for pid in pids)
    pool.close()
    await store.close()
    return {'before': before, 'after': after, 'matches': len(live),
            'workers': len(pids), 'workers_rss_mb': workers}
print(json.dumps(asyncio.run(main())))
"""


def _resume_rss(db: Path) -> dict[str, Any]:
    """RSS (MB) of a fresh process before and after resuming every match,
    then of the render workers it starts.

    Read from ``/proc/<pid>/status`` (``VmHWM``, the peak): ``getrusage``'s
    ``ru_maxrss`` survives ``fork`` + ``exec`` on Linux, so a child started by
    this (big) benchmark process would report the parent's peak instead of
    its own."""
    out = subprocess.run(
        [sys.executable, "-c", _RESUME_CODE, str(db)],
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).resolve().parents[1],
    )
    data: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return data


# ---- the command ---------------------------------------------------------------------------
def _fmt(value: float | None, width: int, digits: int = 0) -> str:
    return f"{'-':>{width}}" if value is None else f"{value:>{width}.{digits}f}"


def print_row(row: dict[str, Any]) -> None:
    if "error" in row:
        print(f"{row['matches']:>8}  failed: {row['error']}", flush=True)
        return
    opened = row["open"]
    print(
        f"{row['matches']:>8}{opened['seconds']:>7.0f}s{opened['failed']:>7}{opened['late']:>6}"
        f"{row['actions_per_s']:>9.1f}{_fmt(row['demand_per_s'], 8, 1)}"
        f"{row['ack_p50_ms']:>8.0f}{row['ack_p95_ms']:>7.0f}{row['ack_p99_ms']:>7.0f}"
        f"{row['board_p50_ms']:>9.0f}{row['board_p95_ms']:>7.0f}{row['board_p99_ms']:>7.0f}"
        f"{row['replies_past_3s']:>6}{row['tables_timed_out']:>6}"
        f"{row['commit_p50_ms']:>8.1f}{_fmt(row['help_roundtrip_ms'], 7)}",
        flush=True,
    )


HEADER = (
    "           open phase     |  play phase (ms, except actions/s)\n"
    f"{'matches':>8}{'time':>8}{'failed':>7}{'>3s':>6}{'act/s':>9}{'demand':>8}"
    f"{'ack50':>8}{'ack95':>7}{'ack99':>7}{'board50':>9}{'brd95':>7}{'brd99':>7}"
    f"{'>3s':>6}{'t/out':>6}{'commit':>8}{'/help':>7}"
)


def print_cpu(rows: list[dict[str, Any]]) -> None:
    print("\nhost CPU per action (ms), play phase; worker processes counted:")
    print(
        f"{'matches':>8}{'engine':>9}{'images':>9}{'database':>10}{'Discord I/O':>13}"
        f"{'total':>8}   {'(harness':>9}{'fake)':>7}"
    )
    for row in rows:
        cpu = row.get("cpu_ms_per_action") or {}
        if not cpu:
            continue
        print(
            f"{row['matches']:>8}{cpu['engine']:>9.1f}{cpu['images']:>9.1f}"
            f"{cpu['database']:>10.1f}{cpu['discord_io']:>13.1f}{cpu['total']:>8.1f}"
            f"   {cpu['harness']:>9.2f}{cpu['fake']:>7.1f}"
        )


def run(args: argparse.Namespace) -> int:
    sizes = args.matches or (QUICK_MATCHES if args.quick else DEFAULT_MATCHES)
    actions = args.actions or (3 if args.quick else 8)
    think = args.think if args.think is not None else (1.5 if args.quick else 5.0)
    resumed = args.resumed or (50 if args.quick else 1000)
    print(
        f"players think {think:g} s on average before each of {actions} moves; "
        f"tables opened {args.open_concurrency} at a time"
    )
    print(HEADER)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            params = host_players.Params(
                matches=n,
                actions=actions,
                think=think,
                open_concurrency=args.open_concurrency,
            )
            started = time.perf_counter()
            row = asyncio.run(_scenario(params, Path(tmp) / f"load{n}.db"))
            row["wall_s"] = time.perf_counter() - started
            rows.append(row)
            print_row(row)
        print_cpu(rows)
        for row in rows:
            notes = [
                f"{row.get('bot_errors', 0)} bot errors",
                f"{row.get('problems', 0)} fake Discord problems",
            ]
            if row.get("tables_failed_to_open") or row.get("tables_timed_out"):
                notes.append(
                    f"failures {row['open']['failures']['kinds']}, "
                    f"time-outs {row['timeouts']['kinds']}"
                )
            if "loop_lag_max_ms" in row:
                notes.append(
                    f"event loop lag p99 {row['loop_lag_p99_ms']:.0f} ms"
                    f", max {row['loop_lag_max_ms']:.0f} ms"
                )
            calls = row.get("store_calls_per_action") or {}
            if calls:
                top = ", ".join(f"{name} {n:.1f}" for name, n in list(calls.items())[:4])
                notes.append(f"store calls per action {sum(calls.values()):.1f} ({top}...)")
            if "render_workers_rss_mb" in row:
                notes.append(
                    f"RSS: bot {row['bot_rss_mb']:.0f} MB"
                    f" + render workers {row['render_workers_rss_mb']:.0f} MB"
                )
            print(f"{row['matches']:>8}: " + "; ".join(notes))
        db = Path(tmp) / "resume.db"
        asyncio.run(_make_matches(db, resumed))
        resume = _resume_rss(db)
        total = resume["after"] + resume["workers_rss_mb"]
        print(
            f"RSS with {resume['matches']} active matches resumed: {resume['after']:.0f} MB "
            f"(imports only: {resume['before']:.0f} MB); with the {resume['workers']} render "
            f"workers it then starts: {total:.0f} MB (resuming itself starts none)"
        )
    write_json(
        args.json,
        {
            "machine": machine(),
            "load_average": os.getloadavg(),
            "quick": args.quick,
            "params": {
                "matches": list(sizes),
                "actions": actions,
                "think_s": think,
                "open_concurrency": args.open_concurrency,
            },
            "load": rows,
            "resume": {
                "matches": resume["matches"],
                "rss_mb": resume["after"],
                "rss_before_mb": resume["before"],
                "workers": resume["workers"],
                "workers_rss_mb": resume["workers_rss_mb"],
                "rss_with_workers_mb": total,
            },
        },
    )
    print(f"written: {args.json}")
    return 1 if any("error" in row for row in rows) else 0
