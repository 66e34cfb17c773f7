"""The whole host under load: the real bot (real discord.py) against the fake
Discord on 127.0.0.1, with simulated players, for 1, 50 and 200 concurrent
Between Battle matches. Measured:

* time from an interaction's dispatch to its acknowledgement (p50, p95, p99);
* time from a ``/play`` to the new board image in the channel (p50, p95, p99):
  from just before the fake dispatches the interaction to the time the fake
  stored the next board message of that channel (when the host folds several
  actions into one board, that later board is the one counted);
* accepted actions per second;
* the SQLite commit time per action;
* a trivial command's (``/help``) round trip in the same run, as the floor;
* the process RSS with 1,000 active matches resumed from the database
  (measured in a fresh subprocess).

The players think before each move: a random time, uniform between 0.5 and
1.5 times ``--think`` (5 s by default: brisk human play), seeded per table.
With ``--think 0`` every player answers at once (a closed loop): board times
then measure the queue, ``matches / throughput``, not the latency of one
action. The fake Discord runs in the benchmark's own process and event loop,
so its work (HTTP, gateway, multipart parsing) is counted against the bot.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import resource
import subprocess
import sys
import tempfile
import time
from functools import partial
from pathlib import Path
from typing import Any

from .report import machine, percentile, write_json

NAME = "host"
HELP = "the bot under load through the fake Discord: ack and board latency, actions/s, RSS"
DEFAULT_JSON = Path(__file__).parent / "results" / "host.json"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--quick", action="store_true", help="1 and 10 matches, 100 resumed")
    parser.add_argument("--json", type=Path, default=DEFAULT_JSON, help="where to write JSON")
    parser.add_argument("--actions", type=int, default=8, help="actions per match (8)")
    parser.add_argument(
        "--think", type=float, default=5.0, help="players' mean thinking time in seconds (5)"
    )


async def _scenario(matches: int, actions: int, db: Path, think: float = 5.0) -> dict[str, Any]:
    from bot import Settings, create_bot
    from bot.store import Store
    from engine import rng
    from tests.fakediscord import DeferredWithoutFollowup, FakeDiscord, InteractionNotAcknowledged

    commit_times: list[float] = []
    original_commit = Store.commit_action

    async def timed_commit(self: Store, *args: Any, **kwargs: Any) -> None:
        t0 = time.perf_counter()
        await original_commit(self, *args, **kwargs)
        commit_times.append(time.perf_counter() - t0)

    Store.commit_action = timed_commit  # type: ignore[method-assign]
    logging.getLogger("discord").setLevel(logging.WARNING)
    board_latency: list[float] = []
    done_actions = 0
    timeouts = 0
    try:
        async with FakeDiscord.serve(check=False) as fake:
            fake.followup_timeout = 60
            guild = fake.add_guild("Bench")
            tables = []
            for i in range(matches):
                chan = fake.add_text_channel(guild, f"t{i}")
                a = fake.add_user(f"a{i}", guild=guild)
                b = fake.add_user(f"b{i}", guild=guild)
                tables.append((chan, a, b))
            bot = create_bot(
                Settings(discord_token=fake.token, database_path=str(db)),
                guild_ready_timeout=0.05,
            )
            async with fake.running(bot):

                async def open_table(chan: Any, a: Any, b: Any) -> None:
                    await fake.slash(
                        a,
                        chan,
                        "lobby create",
                        game="between-battle",
                        seats=2,
                        options="characters=pirate,ninja",
                        _timeout=60,
                    )
                    await fake.slash(b, chan, "lobby join", _timeout=60)
                    await fake.slash(a, chan, "lobby start", _timeout=60)

                def boards_in(chan: Any, skip: int = 0) -> list[Any]:
                    return [m for m in fake.channel_messages(chan) if m.attachments][skip:]

                opening = asyncio.Semaphore(20)  # set-up, not measured: no need for a burst

                async def open_gently(chan: Any, a: Any, b: Any) -> None:
                    async with opening:
                        await open_table(chan, a, b)

                await asyncio.gather(*(open_gently(*t) for t in tables))
                for chan, _, _ in tables:  # the first boards are out before the clock starts
                    await fake.wait_for(partial(boards_in, chan), timeout=120, poll=0.5)
                start_ids = set(fake.interactions)
                t_start = time.perf_counter()
                cpu_start = resource.getrusage(resource.RUSAGE_SELF)

                async def play_table(index: int, chan: Any, a: Any, b: Any) -> None:
                    nonlocal done_actions, timeouts
                    chooser = rng.seed_state(index)
                    live = bot.host.match_in(chan.id)
                    assert live is not None
                    users = {a.id: a, b.id: b}
                    for _ in range(actions):
                        if think > 0:
                            k, chooser = rng.randbelow(chooser, 1001)
                            await asyncio.sleep(think * (0.5 + k / 1000))
                        if live.match.is_over:
                            return
                        seat = sorted(live.match.pending())[0]
                        user = users[live.user_of(seat)]
                        legal = live.match.legal_notations(seat)
                        k, chooser = rng.randbelow(chooser, len(legal))
                        n = len(boards_in(chan))
                        t0 = time.time()
                        try:
                            await fake.slash(user, chan, "play", move=legal[k], _timeout=60)
                            board = await fake.wait_for(
                                partial(boards_in, chan, n),
                                timeout=120,
                                poll=0.5,  # every change in the fake wakes the waiters anyway
                            )
                        except (TimeoutError, DeferredWithoutFollowup, InteractionNotAcknowledged):
                            # overloaded: no answer or no board in time; this table stops
                            timeouts += 1
                            return
                        # the time the fake stored the board, not the time this waiter woke up
                        board_latency.append(board[0].timestamp.timestamp() - t0)
                        done_actions += 1

                await asyncio.gather(*(play_table(i, *t) for i, t in enumerate(tables)))
                elapsed = time.perf_counter() - t_start
                cpu_end = resource.getrusage(resource.RUSAGE_SELF)
                acks = [
                    i.responded_at - i.dispatched_at
                    for key, i in fake.interactions.items()
                    if key not in start_ids and i.responded_at is not None
                ]
                floor = []
                for _ in range(5):
                    t0 = time.perf_counter()
                    await fake.slash(tables[0][1], tables[0][0], "help")
                    floor.append(time.perf_counter() - t0)
            problems = fake.problems()
    finally:
        Store.commit_action = original_commit  # type: ignore[method-assign]
    return {
        "matches": matches,
        "think_s": think,
        "actions": done_actions,
        "actions_per_s": done_actions / elapsed if elapsed else 0.0,
        "ack_p50_ms": percentile(acks, 50) * 1e3,
        "ack_p95_ms": percentile(acks, 95) * 1e3,
        "ack_p99_ms": percentile(acks, 99) * 1e3,
        "board_p50_ms": percentile(board_latency, 50) * 1e3,
        "board_p95_ms": percentile(board_latency, 95) * 1e3,
        "board_p99_ms": percentile(board_latency, 99) * 1e3,
        "commit_p50_ms": percentile(commit_times, 50) * 1e3,
        "commit_p99_ms": percentile(commit_times, 99) * 1e3,
        "help_roundtrip_ms": percentile(floor, 50) * 1e3,
        # CPU of this process (event loop, SQLite and any render threads, and
        # the fake Discord) per accepted action: less noisy than wall times
        # on a shared machine; worker processes are not included
        "process_cpu_ms_per_action": (
            (cpu_end.ru_utime + cpu_end.ru_stime - cpu_start.ru_utime - cpu_start.ru_stime)
            / max(done_actions, 1)
            * 1e3
        ),
        "problems": len(problems),
        "tables_timed_out": timeouts,
    }


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


def _resume_rss(db: Path) -> tuple[float, float, int]:
    """RSS (MB) of a fresh process before and after resuming every match.

    Read from ``/proc/self/status`` (``VmHWM``, the peak, and ``VmRSS``):
    ``getrusage``'s ``ru_maxrss`` survives ``fork`` + ``exec`` on Linux, so a
    child started by this (big) benchmark process would report the parent's
    peak instead of its own."""
    code = (
        "import asyncio, sys\n"
        "def rss():\n"
        "    with open('/proc/self/status') as f:\n"
        "        kv = dict(line.split(':', 1) for line in f if ':' in line)\n"
        "    return int(kv['VmHWM'].split()[0]) / 1024\n"
        "from bot.service import HostService\nfrom bot.store import Store\n"
        "import render, discord\n"
        "before = rss()\n"
        "async def main():\n"
        f"    store = await Store.open({str(db)!r})\n"
        "    svc = HostService(store, bot_clock=None)\n"
        "    live = await svc.resume()\n"
        "    assert len(live) > 0\n"
        "    await store.close()\n"
        "    return live\n"
        "live = asyncio.run(main())\n"
        "after = rss()\n"
        "print(before, after, len(live))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).resolve().parents[1],
    )
    before, after, count = out.stdout.split()
    return float(before), float(after), int(count)


def run(args: argparse.Namespace) -> int:
    sizes = (1, 10) if args.quick else (1, 50, 200)
    rows = []
    print(f"players think {args.think:g} s on average before each move")
    print(
        f"{'matches':>8}{'actions/s':>11}{'ack p50':>9}{'ack p95':>9}{'ack p99':>9}"
        f"{'board p50':>11}{'board p95':>11}{'board p99':>11}{'commit p50':>12}{'/help':>8}"
    )
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            row = asyncio.run(_scenario(n, args.actions, Path(tmp) / f"load{n}.db", args.think))
            rows.append(row)
            print(
                f"{n:>8}{row['actions_per_s']:>11.1f}{row['ack_p50_ms']:>7.0f}ms"
                f"{row['ack_p95_ms']:>7.0f}ms{row['ack_p99_ms']:>7.0f}ms"
                f"{row['board_p50_ms']:>9.0f}ms{row['board_p95_ms']:>9.0f}ms"
                f"{row['board_p99_ms']:>9.0f}ms{row['commit_p50_ms']:>10.1f}ms"
                f"{row['help_roundtrip_ms']:>6.0f}ms"
                f"  (process CPU {row['process_cpu_ms_per_action']:.0f} ms/action"
                f", {row['tables_timed_out']} tables timed out)",
                flush=True,
            )
        resumed = 100 if args.quick else 1000
        db = Path(tmp) / "resume.db"
        asyncio.run(_make_matches(db, resumed))
        before, after, active = _resume_rss(db)
        print(
            f"RSS with {active} active matches resumed: {after:.0f} MB "
            f"(process with imports only: {before:.0f} MB)"
        )
    write_json(
        args.json,
        {
            "machine": machine(),
            "quick": args.quick,
            "load": rows,
            "resume": {"matches": active, "rss_mb": after, "rss_before_mb": before},
            "self_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        },
    )
    print(f"written: {args.json}")
    return 0
