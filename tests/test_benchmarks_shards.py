"""The pure helpers of ``bench shards`` (``benchmarks/shard_speed.py``): the
move check after the kills, the CPU of process trees, the players' view of a
match read from the database. The benchmark itself is not a test
(``python run.py bench shards``); nothing here is timed."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks import __main__ as bench_main
from benchmarks.shard_speed import (
    Attempt,
    CpuReading,
    DbTurns,
    check_moves,
    cpu_split,
    process_table,
    tree_cpu,
)


def test_every_accepted_move_stored_once_is_clean() -> None:
    a = [Attempt(1, 0, 0, "x"), Attempt(1, 1, 1, "y"), Attempt(2, 0, 0, "z")]
    stored = {1: [(1, 0, "x"), (2, 1, "y")], 2: [(1, 0, "z")]}
    result = check_moves(a, a, stored)
    assert (result["accepted"], result["stored"], result["lost"], result["duplicated"]) == (
        3,
        3,
        0,
        0,
    )
    assert result["unconfirmed"] == 0 and result["gaps"] == 0


def test_a_lost_move_a_duplicate_a_gap_and_an_unconfirmed_move_are_each_found() -> None:
    sent = [
        Attempt(1, 0, 0, "x"),
        Attempt(1, 1, 1, "y"),  # accepted, never stored: lost
        Attempt(2, 0, 0, "z"),  # stored, answer never seen: unconfirmed
    ]
    accepted = sent[:2]
    stored = {
        1: [(1, 0, "x"), (2, 1, "w")],  # version 2 holds a move nobody sent
        2: [(1, 0, "z"), (3, 0, "z")],  # the same move again, after a gap
    }
    result = check_moves(sent, accepted, stored)
    assert result["lost"] == 1
    assert result["lost_samples"] == [{"match": 1, "version": 1, "seat": 1, "move": "y"}]
    assert result["duplicated"] == 2  # (1, 2) and (2, 3): no attempt explains them
    assert result["unconfirmed"] == 1
    assert result["gaps"] == 1


def test_tree_cpu_follows_children_and_grandchildren_only() -> None:
    table = {
        10: (1, 1.0),  # the bot
        11: (10, 2.0),  # its forkserver
        12: (11, 3.0),  # a render worker
        20: (1, 9.0),  # another process
    }
    assert tree_cpu(10, table) == {10: 1.0, 11: 2.0, 12: 3.0}
    assert tree_cpu(99, table) == {}


def test_a_real_child_is_part_of_this_process_tree() -> None:
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        mine = tree_cpu(os.getpid(), process_table())
        assert os.getpid() in mine and child.pid in mine
    finally:
        child.kill()
        child.wait()


def test_cpu_split_per_process_its_workers_and_per_action() -> None:
    before = CpuReading(bots=[(10, {10: 1.0, 12: 2.0})], postgres={30: 1.0}, me=5.0, at=100.0)
    # worker 12 died (left out), worker 13 started from zero
    after = CpuReading(
        bots=[(10, {10: 2.0, 13: 3.0})], postgres={30: 1.5, 31: 0.5}, me=6.0, at=110.0
    )
    split = cpu_split(before, after, actions=20)
    bot = split["bots"][0]
    assert bot["cpu_s"] == pytest.approx(4.0)
    assert (bot["own_s"], bot["workers_s"]) == (pytest.approx(1.0), pytest.approx(3.0))
    assert bot["cores"] == pytest.approx(0.4)
    assert bot["ms_per_action"] == pytest.approx(200.0)
    assert split["postgres"]["cpu_s"] == pytest.approx(1.0)
    assert split["players_and_fake"]["cpu_s"] == pytest.approx(1.0)


def test_shards_is_a_subcommand_with_its_arguments() -> None:
    names = [module.NAME for module in bench_main.SUBCOMMANDS]
    assert "shards" in names
    shard_speed = next(m for m in bench_main.SUBCOMMANDS if m.NAME == "shards")
    assert shard_speed not in bench_main.EVERYTHING  # PostgreSQL and processes: run on its own
    args = argparse.ArgumentParser()
    shard_speed.add_arguments(args)
    parsed = args.parse_args(["--processes", "1,3", "--kills", "20"])
    assert parsed.processes == (1, 3) and parsed.kills == 20 and not parsed.quick


async def test_the_players_read_whose_turn_it_is_from_the_database(tmp_path: Path) -> None:
    from bot.service import HostService, UserRef
    from bot.store import Store

    store = await Store.open(tmp_path / "turns.db")
    try:
        svc = HostService(store, bot_clock=None)
        a, b = UserRef(1, "a"), UserRef(2, "b")
        await svc.create_lobby(
            guild_id=1,
            channel_id=500,
            host=a,
            game_id="between-battle",
            seats=2,
            options="characters=pirate,ninja",
        )
        await svc.join(500, b)
        live = await svc.start(500, a)
        turns = DbTurns(store)
        for _ in range(3):  # read back after each move (the snapshot and the actions)
            seat = min(live.match.pending())
            turn = await turns.ask("turn", lobby=500)
            assert turn["match"] == live.id and turn["version"] == live.match.version
            assert turn["seat"] == seat and turn["user"] == live.user_of(seat)
            assert turn["legal"] == live.match.legal_notations(seat)
            await svc.play(live.id, live.user_of(seat), turn["legal"][0])
        assert await turns.ask("turn", lobby=501) == {"missing": True}
    finally:
        await store.close()
