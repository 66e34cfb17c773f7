"""The players' side of ``bench host``: the fake Discord and the simulated
players, in a process of their own (``host_speed`` starts :func:`main` with
the ``spawn`` context), so that the bot's process holds only the bot.

The bot reaches this fake over 127.0.0.1 exactly as it reaches Discord (REST
and the gateway). The players learn whose turn it is and what they may play
through a side channel, a JSON-lines socket answered by the benchmark's
harness in the bot's process (``{"op": "turn", "lobby": id}`` ->
``{"channel", "user", "legal"}``): one cheap read of ``Match.pending`` and
``legal_notations`` per action, timed there and reported apart as the
harness. (The real ``/play`` autocomplete would cost the bot what players'
autocomplete costs, but it lists 25 choices at most, says nothing of whose
turn it is, and would add interactions to the acknowledgement figures that
the issue's run did not have: the figures stay comparable.)

Protocol, one JSON object a line, each request with an ``id`` its answer
repeats: ``fake`` (the fake's addresses and token: the harness starts the
bot, answers when it is ready), ``turn``, ``phase`` (``play`` / ``end``: the
harness reads its CPU counters), ``done`` (the results: the harness stops
the bot, then answers).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import time
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from functools import partial
from typing import Any

from .report import percentile

LATE_S = 3.0  # Discord's window for an interaction's first response


@dataclass
class Params:
    matches: int
    actions: int
    think: float
    open_concurrency: int = 10
    game: str = "between-battle"
    options: str = "characters=pirate,ninja"
    board_timeout: float = 60.0
    help_samples: int = 5


@dataclass
class Table:
    index: int
    lobby: Any  # FakeChannel
    users: tuple[Any, Any]  # FakeUser
    thread: Any = None  # where the match plays, once open


@dataclass
class Tally:
    """What went wrong, counted (never raised): the kinds and a few samples."""

    count: int = 0
    kinds: dict[str, int] = field(default_factory=dict)
    samples: list[str] = field(default_factory=list)

    def add(self, error: BaseException | str) -> None:
        self.count += 1
        kind = error if isinstance(error, str) else type(error).__name__
        self.kinds[kind] = self.kinds.get(kind, 0) + 1
        if len(self.samples) < 3:
            text = error if isinstance(error, str) else f"{kind}: {error}"
            self.samples.append(text.splitlines()[0][:200] if text else kind)


def interaction_stats(
    records: Iterable[tuple[float, float | None, bool]], window: float = LATE_S
) -> dict[str, float]:
    """Acknowledgement figures of interactions given as ``(dispatched_at,
    responded_at or None, expired)``: percentiles (ms) of those answered,
    ``late`` (answered after ``window`` seconds, or expired unanswered: Discord
    refuses a first response after 3 s) and ``unanswered`` (neither yet)."""
    acks: list[float] = []
    late = unanswered = count = 0
    for dispatched, responded, expired in records:
        count += 1
        if responded is None:
            if expired:
                late += 1
            else:
                unanswered += 1
            continue
        acks.append(responded - dispatched)
        if responded - dispatched > window:
            late += 1
    return {
        "interactions": count,
        "late": late,
        "unanswered": unanswered,
        "ack_p50_ms": percentile(acks, 50) * 1e3,
        "ack_p95_ms": percentile(acks, 95) * 1e3,
        "ack_p99_ms": percentile(acks, 99) * 1e3,
        "ack_max_ms": max(acks, default=0.0) * 1e3,
    }


class SideChannel:
    """The players' end of the side channel (requests multiplexed by id)."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self._next = 0
        self._waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._task = asyncio.create_task(self._read())

    async def _read(self) -> None:
        while line := await self.reader.readline():
            answer = json.loads(line)
            future = self._waiting.pop(answer.pop("id"), None)
            if future is not None and not future.done():
                future.set_result(answer)
        for future in self._waiting.values():
            if not future.done():
                future.set_exception(ConnectionError("the harness closed the side channel"))

    async def ask(self, op: str, timeout: float = 300.0, **fields: Any) -> dict[str, Any]:
        self._next += 1
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[self._next] = future
        self.writer.write(json.dumps({"id": self._next, "op": op, **fields}).encode() + b"\n")
        await self.writer.drain()
        answer = await asyncio.wait_for(future, timeout)
        if "error" in answer:
            raise RuntimeError(f"harness: {answer['error']}")
        return answer

    async def close(self) -> None:
        self.writer.close()
        with contextlib.suppress(Exception):
            await self.writer.wait_closed()
        self._task.cancel()


def main(side_port: int, params: dict[str, Any]) -> None:
    """The process's entry point (a module-level function: it pickles)."""
    logging.basicConfig(level=logging.WARNING)
    asyncio.run(_players(side_port, Params(**params)))


def _boards(fake: Any, channel: Any, skip: int = 0) -> list[Any]:
    return [m for m in fake.channel_messages(channel) if m.attachments][skip:]


async def _players(side_port: int, params: Params) -> None:
    from tests.fakediscord import FakeDiscord

    reader, writer = await asyncio.open_connection("127.0.0.1", side_port, limit=2**24)
    side = SideChannel(reader, writer)
    fake = FakeDiscord()
    await fake.start()
    try:
        fake.followup_timeout = 60
        fake.response_poll = 0.5  # wake-ups come per channel; the poll is a safety net
        # Discord allows 500 channels per server: a server per 100 tables
        guilds = [fake.add_guild(f"Bench {g}") for g in range(1 + (params.matches - 1) // 100)]
        tables = []
        for i in range(params.matches):
            guild = guilds[i // 100]
            a, b = fake.add_user(f"a{i}", guild=guild), fake.add_user(f"b{i}", guild=guild)
            tables.append(Table(i, fake.add_text_channel(guild, f"t{i}"), (a, b)))
        await side.ask("fake", api=fake.api_url, gateway=fake.gateway_url, token=fake.token)
        await fake.wait_for(fake.live_sessions, timeout=30)
        result: dict[str, Any] = {"params": asdict(params)}
        result["open"] = await _open_all(fake, side, tables, params)
        playing = [t for t in tables if t.thread is not None]
        before_play = set(fake.interactions)
        await side.ask("phase", name="play", game=params.game, options=params.options)
        result["play"] = await _play_all(fake, side, playing, params)
        await side.ask("phase", name="end")
        result["play"].update(_stats(fake, set(fake.interactions) - before_play))
        result["help_ms"] = await _help_floor(fake, tables, params)
        problems = fake.problems()
        result["problems"] = len(problems)
        result["problem_samples"] = [p[:300] for p in problems[:3]]
        await side.ask("done", result=result)
    finally:
        await side.close()
        await fake.stop()


def _stats(fake: Any, ids: set[int]) -> dict[str, float]:
    return interaction_stats(
        (i.dispatched_at, i.responded_at, i.expired)
        for key, i in fake.interactions.items()
        if key in ids
    )


async def _open_all(
    fake: Any, side: SideChannel, tables: list[Table], params: Params
) -> dict[str, Any]:
    """Open every table (lobby create, join, start, first board), at most
    ``open_concurrency`` at once; a table that fails is counted, not raised."""
    gate = asyncio.Semaphore(params.open_concurrency)
    failed = Tally()

    async def open_one(table: Table) -> None:
        a, b = table.users
        async with gate:
            try:
                await fake.slash(
                    a,
                    table.lobby,
                    "lobby create",
                    game=params.game,
                    seats=2,
                    options=params.options,
                    _timeout=60,
                )
                await fake.slash(b, table.lobby, "lobby join", _timeout=60)
                await fake.slash(a, table.lobby, "lobby start", _timeout=60)
                turn = await side.ask("turn", lobby=table.lobby.id)
                if turn.get("missing"):
                    raise LookupError("no match after /lobby start")
                thread = fake.channels[turn["channel"]]
                await fake.wait_for(
                    partial(_boards, fake, thread),
                    timeout=params.board_timeout,
                    poll=1.0,
                    channel=thread,
                )
                table.thread = thread
            except Exception as error:  # counted and reported, never a crash
                failed.add(error)

    before = set(fake.interactions)
    start = time.perf_counter()
    await asyncio.gather(*(open_one(t) for t in tables))
    seconds = time.perf_counter() - start
    stats = _stats(fake, set(fake.interactions) - before)
    return {
        "seconds": seconds,
        "tables": len(tables),
        "failed": failed.count,
        "failures": asdict(failed),
        **stats,
    }


async def _play_all(
    fake: Any, side: SideChannel, tables: list[Table], params: Params
) -> dict[str, Any]:
    board_latency: list[float] = []
    timed_out = Tally()
    done = 0

    async def play(table: Table) -> None:
        nonlocal done
        chooser = random.Random(table.index)
        thread = table.thread
        for _ in range(params.actions):
            if params.think > 0:
                await asyncio.sleep(params.think * (0.5 + chooser.random()))
            try:
                turn = await side.ask("turn", lobby=table.lobby.id)
                if turn.get("over") or turn.get("missing"):
                    return
                user = fake.users[turn["user"]]
                move = chooser.choice(turn["legal"])
                seen = len(_boards(fake, thread))
                t0 = time.time()
                await fake.slash(user, thread, "play", move=move, _timeout=60)
                board = await fake.wait_for(
                    partial(_boards, fake, thread, seen),
                    timeout=params.board_timeout,
                    poll=1.0,
                    channel=thread,
                )
            except Exception as error:  # overloaded or broken: this table stops, counted
                timed_out.add(error)
                return
            # the time the fake stored the board, not the time this player woke up
            board_latency.append(board[0].timestamp.timestamp() - t0)
            done += 1

    start = time.perf_counter()
    await asyncio.gather(*(play(t) for t in tables))
    seconds = time.perf_counter() - start
    return {
        "seconds": seconds,
        "tables": len(tables),
        "actions": done,
        "actions_per_s": done / seconds if seconds else 0.0,
        # what the players ask for: one action per table every `think` seconds
        "demand_per_s": len(tables) / params.think if params.think > 0 else None,
        "board_p50_ms": percentile(board_latency, 50) * 1e3,
        "board_p95_ms": percentile(board_latency, 95) * 1e3,
        "board_p99_ms": percentile(board_latency, 99) * 1e3,
        "tables_timed_out": timed_out.count,
        "timeouts": asdict(timed_out),
    }


async def _help_floor(fake: Any, tables: list[Table], params: Params) -> float | None:
    """A trivial command's round trip (``/help``), the floor under every figure."""
    if not tables:
        return None
    times = []
    for _ in range(params.help_samples):
        t0 = time.perf_counter()
        try:
            await fake.slash(tables[0].users[0], tables[0].lobby, "help", _timeout=30)
        except Exception:
            continue
        times.append(time.perf_counter() - t0)
    return percentile(times, 50) * 1e3 if times else None
