"""Sharded processes against PostgreSQL: the same simulated players as
``bench host`` (``host_players``: Between Battle tables, each player thinking
a random time, uniform between 0.5 and 1.5 times ``--think``, before each of
``--actions`` moves by ``/play``), served by 1, 2 then 3 real bot processes
(``--processes 1,2,3``), each ``python -m tests.launch_bot`` with
``SHARD_COUNT=N`` and one shard of its own (``SHARD_IDS=i``), production
settings otherwise (images drawn in worker processes, a 5-second tick), all
on one throw-away PostgreSQL server that the benchmark starts itself
(``tests/pg.py``: ``fsync`` off, 127.0.0.1, a free port).

The tables are spread evenly over six servers whose ids fall on shards 0-5
of 6, so that with 1, 2 or 3 shards every shard serves the same number of
tables. The fake Discord and the players run in the benchmark's process; the
bots are processes of their own (as in ``bench host``, where the fake runs
apart from the bot). The players learn whose turn it is and what they may
play from the database (one read of the match's row and its snapshot per
action, in the benchmark's process; ``bench host`` asked the bot's process
instead, which is no longer one process).

Each row (one process count): the tables are opened, then played; reported:
actions/s delivered against the players' demand (``tables / think``), ack
p50/p99, new board p50/p95, replies past 3 s, tables that failed to open or
timed out, the CPU of each bot process with its render workers over the
play phase (seconds, and cores: CPU seconds per second of the phase) and per
action, PostgreSQL's CPU, and the load average. Every row ends with the
database check below (without kills, accepted moves are not tracked: only
the gapless versions and the replays).

``--kills N`` (after the rows): 3 processes serve ``--kill-matches`` tables
(60; players thinking at most 3 s) while one of them is killed
with SIGKILL every ``--kill-every`` seconds, round-robin, and restarted at
once; the players keep playing through the failures (a move that fails or
gets no answer is counted, and the player tries again after thinking, from
what the database says). Then the database is checked: every move a player
saw accepted (the bot answered "Played ...") is stored exactly once (at the
version after the one the player read, by its seat), versions are gapless
and match the row's, every match replays to its stored snapshot (finished
ones to their end). Printed as ``kills=N accepted=... stored=... lost=...
duplicated=...``; ``stored`` counts the rows of the run, ``unconfirmed`` the
stored moves whose answer the player never saw (the process died between
the commit and the reply), ``duplicated`` the stored rows that no attempt
of a player explains (a move stored twice, or a move nobody sent).

Results: ``benchmarks/results/shards.json`` (``--json``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import logging
import os
import random
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from . import host_players
from .host_cpu import delta, self_cpu
from .host_speed import matches_list
from .report import machine, percentile, write_json

NAME = "shards"
HELP = "1 to 3 sharded bot processes on PostgreSQL: throughput, latency, CPU; --kills: no lost move"
DEFAULT_JSON = Path(__file__).parent / "results" / "shards.json"
GUILD_SLOTS = 6  # servers on shards 0..5 of 6: even over 1, 2 and 3 shards


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--quick",
        action="store_true",
        help="12 matches, 3 actions, 1.5 s of thought, 1,2 processes",
    )
    parser.add_argument("--json", type=Path, default=DEFAULT_JSON, help="where to write JSON")
    parser.add_argument(
        "--processes",
        type=matches_list,
        default=None,
        help="bot process counts, one row each (1,2,3)",
    )
    parser.add_argument("--matches", type=int, default=None, help="tables in every row (200)")
    parser.add_argument(
        "--per-process",
        type=int,
        default=None,
        help="also rows with this many tables per process (N processes: N times as many)",
    )
    parser.add_argument("--actions", type=int, default=None, help="actions per match (8)")
    parser.add_argument(
        "--think", type=float, default=None, help="players' mean thinking time in seconds (5)"
    )
    parser.add_argument(
        "--open-concurrency", type=int, default=10, help="tables opened at once (10)"
    )
    parser.add_argument(
        "--kills", type=int, default=0, help="then a 3-process run with this many SIGKILLs (0)"
    )
    parser.add_argument(
        "--kill-every", type=float, default=3.0, help="seconds between two kills (3)"
    )
    parser.add_argument(
        "--kill-matches",
        type=int,
        default=None,
        help="tables of the kills run (60; quick 12), players thinking 3 s at most",
    )


# ---- CPU of process trees ---------------------------------------------------------------------
def _stat(pid: int) -> tuple[int, float] | None:
    """``(parent pid, CPU seconds)`` of a process, None once it is gone."""
    from .host_cpu import parse_stat_cpu

    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            text = f.read()
    except (FileNotFoundError, ProcessLookupError, PermissionError):
        return None
    try:
        ppid = int(text[text.rindex(")") + 2 :].split()[1])
        return ppid, parse_stat_cpu(text)
    except (ValueError, IndexError):
        return None


def tree_cpu(root: int, table: dict[int, tuple[int, float]] | None = None) -> dict[int, float]:
    """CPU seconds of ``root`` and every descendant (render workers and the
    like), by pid. ``table``: a ``{pid: (ppid, cpu)}`` reading of every process."""
    if table is None:
        table = process_table()
    children: dict[int, list[int]] = {}
    for pid, (ppid, _) in table.items():
        children.setdefault(ppid, []).append(pid)
    found: dict[int, float] = {}
    todo = [root]
    while todo:
        pid = todo.pop()
        if pid in found or pid not in table:
            continue
        found[pid] = table[pid][1]
        todo.extend(children.get(pid, []))
    return found


def process_table() -> dict[int, tuple[int, float]]:
    table: dict[int, tuple[int, float]] = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            stat = _stat(int(name))
            if stat is not None:
                table[int(name)] = stat
    return table


@dataclass
class CpuReading:
    bots: list[tuple[int | None, dict[int, float]]]  # per bot process: its pid, its tree
    postgres: dict[int, float]
    me: float
    at: float = field(default_factory=time.monotonic)


def read_cpu(bot_pids: list[int | None], postmaster: int | None) -> CpuReading:
    table = process_table()
    return CpuReading(
        bots=[(pid, tree_cpu(pid, table) if pid else {}) for pid in bot_pids],
        postgres=tree_cpu(postmaster, table) if postmaster else {},
        me=self_cpu(),
    )


def cpu_split(before: CpuReading, after: CpuReading, actions: int) -> dict[str, Any]:
    """Per bot process (its own process and its workers), PostgreSQL and the
    benchmark's process: CPU seconds over the phase, cores (seconds per second)
    and ms per action."""
    seconds = max(after.at - before.at, 1e-9)
    per_action = max(actions, 1)

    def figures(cpu: float) -> dict[str, float]:
        return {"cpu_s": cpu, "cores": cpu / seconds, "ms_per_action": cpu * 1e3 / per_action}

    bots = []
    for (_, old), (root, new) in zip(before.bots, after.bots, strict=True):
        own = (new.get(root, 0.0) - old.get(root, 0.0)) if root is not None else 0.0
        total = delta(old, new)
        bots.append({**figures(total), "own_s": own, "workers_s": total - own})
    all_bots = sum(b["cpu_s"] for b in bots)
    return {
        "seconds": seconds,
        "bots": bots,
        "bots_total": figures(all_bots),
        "postgres": figures(delta(before.postgres, after.postgres)),
        "players_and_fake": figures(after.me - before.me),
    }


# ---- the players' view of the game, from the database -----------------------------------------
class DbTurns:
    """Answers the players' ``turn`` question (``host_players``' side channel)
    from the database: the newest match opened in the table's lobby channel,
    its pending seat, that seat's user and legal moves, and the version read."""

    def __init__(self, store: Any) -> None:
        self.store = store
        self.by_lobby: dict[int, int] = {}

    async def ask(self, op: str, **fields: Any) -> dict[str, Any]:
        if op != "turn":
            return {}
        from engine import Match

        lobby = int(fields["lobby"])
        row = await self.store.database.fetchone(
            "SELECT id FROM matches WHERE lobby_channel_id = ? OR channel_id = ?"
            " ORDER BY id DESC LIMIT 1",
            (lobby, lobby),
        )
        if row is None:
            return {"missing": True}
        match_row = await self.store.match(int(row[0]))
        if match_row is None:
            return {"missing": True}
        if match_row.status != "active":
            return {"over": True, "channel": match_row.channel_id, "match": match_row.id}
        actions = await self.store.match_actions(match_row.id)
        record = match_row.record(actions)
        match = Match.from_parts(record, match_row.snapshot, match_row.version)
        if match.is_over:
            return {"over": True, "channel": match_row.channel_id, "match": match_row.id}
        seat = min(match.pending())
        return {
            "channel": match_row.channel_id,
            "match": match_row.id,
            "version": match_row.version,
            "seat": seat,
            "user": match_row.players[seat][0],
            "legal": match.legal_notations(seat),
        }


# ---- the database check ------------------------------------------------------------------------
@dataclass(frozen=True)
class Attempt:
    """A ``/play`` a player sent: read at ``version``, by ``seat``."""

    match: int
    version: int
    seat: int
    move: str


def check_moves(
    attempts: list[Attempt],
    accepted: list[Attempt],
    stored: dict[int, list[tuple[int, int, str]]],
) -> dict[str, Any]:
    """What the database holds against what the players did. ``stored``:
    ``{match: [(version, seat, action), ...]}`` in version order.

    * lost: an accepted move with no row at the version after the one its
      player read, by its seat, with its text;
    * duplicated: a stored row that no attempt explains (stored twice, or
      never sent); the same attempt explained by two rows cannot happen
      (one row per version);
    * unconfirmed: a stored move whose player never saw it accepted;
    * gaps: matches whose versions are not 1..n."""
    rows = {
        (match, version): (seat, action)
        for match, actions in stored.items()
        for version, seat, action in actions
    }
    sent = {(a.match, a.version + 1): (a.seat, a.move) for a in attempts}
    lost = [a for a in accepted if rows.get((a.match, a.version + 1)) != (a.seat, a.move)]
    unexplained = [key for key, value in rows.items() if sent.get(key) != value]
    confirmed = {(a.match, a.version + 1) for a in accepted}
    unconfirmed = [key for key in rows if key not in confirmed and key not in unexplained]
    gaps = [
        match
        for match, actions in stored.items()
        if [v for v, _, _ in actions] != list(range(1, len(actions) + 1))
    ]
    return {
        "accepted": len(accepted),
        "attempts": len(attempts),
        "stored": len(rows),
        "lost": len(lost),
        "duplicated": len(unexplained),
        "unconfirmed": len(unconfirmed),
        "gaps": len(gaps),
        "lost_samples": [asdict(a) for a in lost[:3]],
        "duplicated_samples": [list(k) for k in unexplained[:3]],
    }


async def check_database(url: str) -> dict[str, Any]:
    """Every match's actions (``{match: [(version, seat, action)]}``) and the
    problems of each replay (``bot.migrate_postgres.replay_problem``: gapless
    versions equal to the row's, the replay equal to the stored snapshot,
    finished matches over)."""
    from bot.migrate_postgres import replay_problem
    from bot.store import Store

    store = await Store.open(url)
    try:
        ids = [int(r[0]) for r in await store.database.fetchall("SELECT id FROM matches", ())]
        stored: dict[int, list[tuple[int, int, str]]] = {}
        problems: list[str] = []
        finished = 0
        for match_id in ids:
            row = await store.match(match_id)
            actions = await store.match_actions(match_id)
            stored[match_id] = [(v, s, a) for v, s, a, _ in actions]
            if row is None:
                continue
            finished += row.status == "finished"
            problem = replay_problem(row, actions)
            if problem is not None:
                problems.append(problem)
    finally:
        await store.close()
    return {
        "stored": stored,
        "matches": len(ids),
        "finished": finished,
        "replay_problems": len(problems),
        "replay_samples": problems[:3],
    }


# ---- one run -------------------------------------------------------------------------------------
@dataclass
class Run:
    processes: int
    params: host_players.Params
    kills: int = 0
    kill_every: float = 3.0


def _postmaster(server: Any) -> int | None:
    try:
        return int((server.data / "postmaster.pid").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None


async def _run(run: Run, url: str, postmaster: int | None, directory: Path) -> dict[str, Any]:
    from bot.store import Store
    from tests.fakediscord import FakeDiscord
    from tests.fakediscord.processes import BotProcesses

    params = run.params
    fake = FakeDiscord()
    await fake.start()
    store = await Store.open(url)
    turns = DbTurns(store)
    row: dict[str, Any] = {
        "processes": run.processes,
        "matches": params.matches,
        "load_before": os.getloadavg(),
    }
    procs = BotProcesses(
        fake,
        directory,
        database=url,
        shard_count=run.processes,
        env={"WORKER_PROCESSES": "true", "TICK_SECONDS": "5", "LOG_LEVEL": "WARNING"},
        ready_timeout=120.0,
    )
    try:
        fake.followup_timeout = 60
        fake.response_poll = 0.5
        guilds = [fake.add_guild(f"Bench {g}", shard=(g, GUILD_SLOTS)) for g in range(GUILD_SLOTS)]
        tables = []
        for i in range(params.matches):
            guild = guilds[i % GUILD_SLOTS]
            a, b = fake.add_user(f"a{i}", guild=guild), fake.add_user(f"b{i}", guild=guild)
            tables.append(host_players.Table(i, fake.add_text_channel(guild, f"t{i}"), (a, b)))
        for k in range(run.processes):
            procs.add(shard_ids=str(k))
        started = time.perf_counter()
        await procs.start_all()
        row["start_s"] = time.perf_counter() - started
        row["open"] = await host_players._open_all(fake, turns, tables, params)  # type: ignore[arg-type]
        playing = [t for t in tables if t.thread is not None]
        before_play = set(fake.interactions)

        def pids() -> list[int | None]:
            return [bp.proc.pid if bp.running and bp.proc else None for bp in procs.processes]

        cpu0 = read_cpu(pids(), postmaster)
        if run.kills:
            play = await _play_through_kills(fake, turns, playing, params, procs, run)
        else:
            play = await host_players._play_all(fake, turns, playing, params)  # type: ignore[arg-type]
        cpu1 = read_cpu(pids(), postmaster)
        row["load_after"] = os.getloadavg()
        interactions = set(fake.interactions) - before_play
        play.update(host_players._stats(fake, interactions))
        row["play"] = {k: v for k, v in play.items() if k not in ("attempts", "accepted_moves")}
        row["cpu"] = cpu_split(cpu0, cpu1, play["actions"])
        await procs.stop_all()
        db = await check_database(url)
        row["database"] = {k: v for k, v in db.items() if k != "stored"}
        if run.kills:
            row["moves"] = check_moves(play["attempts"], play["accepted_moves"], db["stored"])
        bot_problems = procs.problems()
        row["bot_errors"] = len(bot_problems)
        row["bot_error_samples"] = [p[:300] for p in bot_problems[:3]]
        fake_problems = fake.problems()
        row["fake_problems"] = len(fake_problems)
        row["fake_problem_samples"] = [p[:300] for p in fake_problems[:3]]
    except Exception as error:  # reported in the row, never a crash
        row["error"] = f"{type(error).__name__}: {error}"
        row["bot_stderr_tail"] = procs.report(lines=15)[-3000:]
    finally:
        for i in range(len(procs)):
            await procs.kill(i)
        await store.close()
        await fake.stop()
    return row


async def _play_through_kills(
    fake: Any,
    turns: DbTurns,
    tables: list[host_players.Table],
    params: host_players.Params,
    procs: Any,
    run: Run,
) -> dict[str, Any]:
    """Players who keep playing while processes die: a failed ``/play`` is
    counted and tried again (after thinking) from what the database says;
    a table plays until the kills are over and its ``params.actions`` moves
    were accepted (at most ``3 * params.actions`` tries after the kills), or
    its match ends. Meanwhile one process is killed every
    ``run.kill_every`` seconds, round-robin, and restarted at once."""
    from bot.i18n import t

    attempts: list[Attempt] = []
    accepted: list[Attempt] = []
    failures = host_players.Tally()
    refusals = host_players.Tally()
    board_latency: list[float] = []
    kills_done = asyncio.Event()
    kill_log: list[dict[str, Any]] = []

    async def killer() -> None:
        try:
            for n in range(run.kills):
                await asyncio.sleep(run.kill_every)
                i = n % len(procs)
                await procs.wait_ready(i, timeout=120)  # killed again only once it is back
                await procs.kill(i)
                kill_log.append({"process": i, "at": time.perf_counter() - start})
                await procs.start(i, wait=False)
            for i in range(len(procs)):
                await procs.wait_ready(i, timeout=120)
        finally:
            kills_done.set()

    async def play(table: host_players.Table) -> None:
        chooser = random.Random(table.index)
        done = 0
        late = 0  # tries after the kills ended: bounded, whatever fails
        while (done < params.actions or not kills_done.is_set()) and late < 3 * params.actions:
            await asyncio.sleep(params.think * (0.5 + chooser.random()))
            late += kills_done.is_set()
            try:
                turn = await turns.ask("turn", lobby=table.lobby.id)
            except Exception as error:  # the benchmark's own database read
                failures.add(error)
                continue
            if turn.get("over") or turn.get("missing"):
                return
            user = fake.users[turn["user"]]
            move = chooser.choice(turn["legal"])
            attempt = Attempt(turn["match"], turn["version"], turn["seat"], move)
            attempts.append(attempt)
            seen = len(host_players._boards(fake, table.thread))
            t0 = time.time()
            try:
                result = await fake.slash(user, table.thread, "play", move=move, _timeout=30)
            except Exception as error:  # the process died, or is starting: counted, tried again
                failures.add(error)
                continue
            if result.text.strip() != t(user.locale, "move-accepted", move=move):
                refusals.add(result.text.strip()[:80] or "(no text)")
                continue
            accepted.append(attempt)
            done += 1
            with contextlib.suppress(Exception):
                board = await fake.wait_for(
                    functools.partial(host_players._boards, fake, table.thread, seen),
                    timeout=10.0,
                    poll=1.0,
                    channel=table.thread,
                )
                board_latency.append(board[0].timestamp.timestamp() - t0)

    start = time.perf_counter()
    kill_task = asyncio.create_task(killer())
    await asyncio.gather(*(play(table) for table in tables))
    await kill_task
    seconds = time.perf_counter() - start
    return {
        "seconds": seconds,
        "tables": len(tables),
        "actions": len(accepted),
        "actions_per_s": len(accepted) / seconds if seconds else 0.0,
        "demand_per_s": len(tables) / params.think if params.think > 0 else None,
        "board_p50_ms": percentile(board_latency, 50) * 1e3,
        "board_p95_ms": percentile(board_latency, 95) * 1e3,
        "board_p99_ms": percentile(board_latency, 99) * 1e3,
        "tables_timed_out": 0,
        "failures": asdict(failures),
        "refusals": asdict(refusals),
        "kills": kill_log,
        "attempts": attempts,
        "accepted_moves": accepted,
    }


# ---- the command ---------------------------------------------------------------------------
HEADER = (
    f"{'procs':>5}{'tables':>7}{'open s':>7}{'failed':>7}{'act/s':>7}{'demand':>7}"
    f"{'ack50':>7}{'ack99':>7}{'brd50':>7}{'brd95':>7}{'>3s':>5}{'t/out':>6}"
    f"{'bot ms/act':>11}{'cores':>6}{'pg cores':>9}{'load':>6}"
)


def print_row(row: dict[str, Any]) -> None:
    if "error" in row:
        print(f"{row['processes']:>5}{row['matches']:>7}  failed: {row['error']}", flush=True)
        if row.get("bot_stderr_tail"):
            print(row["bot_stderr_tail"], flush=True)
        return
    play, cpu, opened = row["play"], row["cpu"], row["open"]
    demand = play["demand_per_s"]
    print(
        f"{row['processes']:>5}{row['matches']:>7}{opened['seconds']:>7.0f}{opened['failed']:>7}"
        f"{play['actions_per_s']:>7.1f}{'-' if demand is None else f'{demand:.1f}':>7}"
        f"{play['ack_p50_ms']:>7.0f}{play['ack_p99_ms']:>7.0f}"
        f"{play['board_p50_ms']:>7.0f}{play['board_p95_ms']:>7.0f}"
        f"{play['late']:>5}{play['tables_timed_out']:>6}"
        f"{cpu['bots_total']['ms_per_action']:>11.1f}{cpu['bots_total']['cores']:>6.2f}"
        f"{cpu['postgres']['cores']:>9.2f}{row['load_after'][0]:>6.2f}",
        flush=True,
    )


def print_details(row: dict[str, Any]) -> None:
    if "error" in row:
        return
    cpu = row["cpu"]
    parts = [
        f"process {i}: {b['cores']:.2f} cores ({b['own_s']:.1f} s bot + {b['workers_s']:.1f} s"
        f" workers, {b['ms_per_action']:.1f} ms/act)"
        for i, b in enumerate(cpu["bots"])
    ]
    parts.append(
        f"PostgreSQL {cpu['postgres']['cores']:.2f} cores ({cpu['postgres']['ms_per_action']:.1f}"
        f" ms/act); players+fake {cpu['players_and_fake']['cores']:.2f} cores"
    )
    print(
        f"  {row['processes']} proc, {row['matches']} tables, CPU over {cpu['seconds']:.0f} s: "
        + "; ".join(parts)
    )
    db = row["database"]
    print(
        f"  load {row['load_before'][0]:.2f} -> {row['load_after'][0]:.2f};"
        f" {row['play']['actions']} actions; database: {db['matches']} matches,"
        f" {db['finished']} finished, replay problems {db['replay_problems']};"
        f" bot errors {row['bot_errors']}, fake problems {row['fake_problems']}"
        + (f" {db['replay_samples']}" if db["replay_problems"] else "")
    )


def print_kills(row: dict[str, Any]) -> None:
    if "error" in row:
        return
    moves, play = row["moves"], row["play"]
    print(
        f"kills={len(play['kills'])} accepted={moves['accepted']} stored={moves['stored']}"
        f" lost={moves['lost']} duplicated={moves['duplicated']}"
    )
    print(
        f"  unconfirmed (stored, answer never seen)={moves['unconfirmed']}"
        f" attempts={moves['attempts']} version gaps={moves['gaps']}"
        f" replay problems={row['database']['replay_problems']}"
        f" failed /play={play['failures']['count']} {play['failures']['kinds']}"
        f" refused={play['refusals']['count']} {play['refusals']['kinds']}"
    )
    if moves["lost"] or moves["duplicated"]:
        print(f"  lost {moves['lost_samples']} duplicated {moves['duplicated_samples']}")


def run(args: argparse.Namespace) -> int:
    from tests import pg

    counts = args.processes or ((1, 2) if args.quick else (1, 2, 3))
    matches = args.matches or (12 if args.quick else 200)
    actions = args.actions or (3 if args.quick else 8)
    think = args.think if args.think is not None else (1.5 if args.quick else 5.0)
    kill_matches = args.kill_matches or (12 if args.quick else 60)
    cores = os.cpu_count() or 1
    print(
        f"this machine has {cores} cores: every bot process draws its images in worker"
        " processes, and one process serving 200 tables already keeps most of them busy"
        " (bench host: about 1.6 cores); more processes share the same cores and cannot"
        " scale linearly here (each process's cores are printed below)."
    )
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(
        f"players think {think:g} s on average before each of {actions} moves;"
        f" tables opened {args.open_concurrency} at a time; PostgreSQL, fsync off"
    )
    try:
        server = pg.start()
    except pg.Unavailable as error:
        print(f"no PostgreSQL server: {error}")
        return 1
    rows: list[dict[str, Any]] = []
    kill_row: dict[str, Any] | None = None
    logging.getLogger("discord").setLevel(logging.WARNING)
    plan: list[tuple[int, int]] = [(n, matches) for n in counts]
    if args.per_process:
        plan += [(n, n * args.per_process) for n in counts]
    try:
        with tempfile.TemporaryDirectory(prefix="bench-shards-") as tmp:
            print(HEADER)
            for n, tables in plan:
                params = host_players.Params(
                    matches=tables,
                    actions=actions,
                    think=think,
                    open_concurrency=args.open_concurrency,
                )
                started = time.perf_counter()
                row = asyncio.run(
                    _run(
                        Run(n, params),
                        server.migrated(),
                        _postmaster(server),
                        Path(tmp) / f"r{len(rows)}",
                    )
                )
                row["wall_s"] = time.perf_counter() - started
                rows.append(row)
                print_row(row)
            for row in rows:
                print_details(row)
            if args.kills:
                params = host_players.Params(
                    matches=kill_matches,
                    actions=actions,
                    think=min(think, 3.0),
                    open_concurrency=args.open_concurrency,
                )
                kill_run = Run(3, params, kills=args.kills, kill_every=args.kill_every)
                print(
                    f"\nkills: 3 processes, {kill_matches} tables, players think"
                    f" {params.think:g} s; SIGKILL every {args.kill_every:g} s round-robin,"
                    " restarted at once"
                )
                kill_row = asyncio.run(
                    _run(kill_run, server.migrated(), _postmaster(server), Path(tmp) / "kills")
                )
                print(HEADER)
                print_row(kill_row)
                print_details(kill_row)
                print_kills(kill_row)
    finally:
        server.stop()
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    write_json(
        args.json,
        {
            "machine": machine(),
            "load_average": os.getloadavg(),
            "quick": args.quick,
            "params": {
                "processes": list(counts),
                "matches": matches,
                "per_process": args.per_process,
                "actions": actions,
                "think_s": think,
                "open_concurrency": args.open_concurrency,
                "kills": args.kills,
                "kill_every_s": args.kill_every,
            },
            "rows": rows,
            "kills": kill_row,
        },
    )
    print(f"written: {args.json}")
    failed = any("error" in r for r in rows) or (kill_row is not None and "error" in kill_row)
    if kill_row is not None and "moves" in kill_row:
        failed = failed or bool(kill_row["moves"]["lost"] or kill_row["moves"]["duplicated"])
    return 1 if failed else 0
