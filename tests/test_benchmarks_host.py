"""The pure helpers of the host benchmark (``benchmarks/host_*.py``): CPU
readings and their split, interaction figures, failure counting, arguments.
The benchmark itself is not a test (``python run.py bench host``)."""

from __future__ import annotations

import argparse
import os
import threading
import time

import pytest

from benchmarks.host_cpu import (
    EngineMeter,
    Reading,
    delta,
    parse_stat_cpu,
    process_cpu,
    self_cpu,
    split,
    thread_cpu,
)
from benchmarks.host_players import Tally, interaction_stats
from benchmarks.host_speed import matches_list
from engine import GAMES
from engine.match import Match


def test_stat_cpu_counts_fields_after_the_command_name_even_with_spaces_and_parentheses() -> None:
    # fields: pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt
    # cmajflt utime stime ...
    stat = "4242 (a (weird) name) S 1 2 3 4 5 6 7 8 9 10 250 50 11 12 20 0 1 0"
    assert parse_stat_cpu(stat, ticks=100) == pytest.approx(3.0)


def test_own_process_and_thread_cpu_are_read() -> None:
    me = process_cpu(os.getpid())
    assert me is not None and me > 0
    assert abs(me - self_cpu()) < 0.5  # ticks vs getrusage: same clock, coarser
    assert thread_cpu(threading.current_thread()) is not None
    done = threading.Thread(target=lambda: None)
    done.start()
    done.join()
    assert thread_cpu(done) is None  # a finished thread has no clock left


def test_delta_counts_newcomers_from_zero_and_drops_the_departed() -> None:
    before = {1: 2.0, 2: 5.0}
    after = {1: 3.5, 3: 0.25}  # 2 ended, 3 started in between
    assert delta(before, after) == pytest.approx(1.75)


def test_split_per_action_discord_io_is_the_rest_of_the_process() -> None:
    before = Reading(
        process=10.0,
        engine=1.0,
        harness=0.5,
        database={7: 2.0},
        pool_threads={8: 0.1},
        images={100: 4.0},
        fake=3.0,
    )
    after = Reading(
        process=12.0,  # 2 s of the bot's process
        engine=1.4,  # 0.4 s engine
        harness=0.6,  # 0.1 s answering the players
        database={7: 2.3},  # 0.3 s SQLite
        pool_threads={8: 0.2},  # 0.1 s pickling for the workers
        images={100: 5.0, 101: 0.5},  # 1.5 s drawing, a worker started meanwhile
        other_workers={200: 0.05},
        fake=4.0,
    )
    cpu = split(before, after, actions=10)
    assert cpu["engine"] == pytest.approx(40.0)
    assert cpu["database"] == pytest.approx(30.0)
    assert cpu["images"] == pytest.approx(160.0)  # workers + the pool's threads
    assert cpu["discord_io"] == pytest.approx(110.0)  # 2 - 0.4 - 0.1 - 0.3 - 0.1
    assert cpu["other_workers"] == pytest.approx(5.0)
    assert cpu["total"] == pytest.approx(40 + 30 + 160 + 110 + 5)
    assert cpu["harness"] == pytest.approx(10.0)  # apart: in no column, not in the total
    assert cpu["fake"] == pytest.approx(100.0)
    assert split(before, before, actions=0)["total"] == 0.0


def test_interaction_stats_count_late_and_unanswered() -> None:
    records = [
        (0.0, 0.010, False),
        (1.0, 1.020, False),
        (2.0, 2.030, False),
        (3.0, 6.5, False),  # answered after 3 s (a fake more lenient than Discord)
        (4.0, None, True),  # expired: Discord refused the late answer
        (5.0, None, False),  # not answered yet
    ]
    stats = interaction_stats(records)
    assert stats["interactions"] == 6
    assert stats["late"] == 2
    assert stats["unanswered"] == 1
    assert stats["ack_p50_ms"] == pytest.approx(30.0)
    assert stats["ack_max_ms"] == pytest.approx(3500.0)
    assert interaction_stats([])["ack_p99_ms"] == 0.0


def test_tally_counts_kinds_and_keeps_three_samples() -> None:
    tally = Tally()
    for _ in range(4):
        tally.add(TimeoutError("no board within 60 s"))
    tally.add("missing match")
    assert tally.count == 5
    assert tally.kinds == {"TimeoutError": 4, "missing match": 1}
    assert tally.samples == ["TimeoutError: no board within 60 s"] * 3


def test_matches_list_argument() -> None:
    assert matches_list("1,50, 200,500") == (1, 50, 200, 500)
    for bad in ("", "0,5", "a,b"):
        with pytest.raises(argparse.ArgumentTypeError):
            matches_list(bad)


def test_engine_meter_counts_outermost_calls_only_and_uninstalls() -> None:
    game = GAMES["between-battle"]
    cls = type(game)
    original_pending = cls.pending
    original_play = Match.play
    meter = EngineMeter()
    meter.install()
    try:
        assert cls.pending is not original_pending
        match = Match(game, game.options(game.quick_options), 2, seed=3)
        calls = meter.calls
        seat = min(match.pending())
        assert meter.calls == calls + 1  # Match.pending calls Game.pending: one call
        notation = match.legal_notations(seat)[0]
        calls, cpu = meter.calls, meter.cpu
        start = time.thread_time()
        match.play(seat, notation)
        spent = time.thread_time() - start
        assert meter.calls == calls + 1
        assert 0 < meter.cpu - cpu <= spent
        with meter.excluded():
            match.pending()
        assert meter.calls == calls + 1
    finally:
        meter.uninstall()
    assert cls.pending is original_pending and Match.play is original_play
    assert "pending" not in cls.__dict__ or cls.__dict__["pending"] is original_pending


async def test_store_calls_are_counted_by_method_and_the_store_restored() -> None:
    from benchmarks.host_speed import StoreCalls
    from bot.store import Store

    original = Store.upsert_user
    calls = StoreCalls()
    calls.install()
    try:
        store = await Store.open(":memory:")
        try:
            await store.upsert_user(1, "alice", "fr")
            await store.upsert_user(2, "bob", None)
            assert calls.counts["upsert_user"] == 2
        finally:
            await store.close()
    finally:
        calls.uninstall()
    assert Store.upsert_user is original
