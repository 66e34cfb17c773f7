"""The store API of issue 18 (several processes, each owning some shards):
clock deadlines and their claims, per-shard heartbeats, lobbies expired once,
matches locked for a move, the owned matches. Runs on SQLite and on
PostgreSQL (the ``database`` fixture)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.shards import ShardSet, shard_of
from bot.store import StaleWrite, Store, clock_deadline, migrations

# servers on shard 0 and shard 1 of 2 (Discord's formula: (id >> 22) % count)
G0 = 1_000_000 << 22
G1 = (1_000_001 << 22) + 12345
TWO = ShardSet.every(2)
FIRST = ShardSet(2, frozenset({0}))
SECOND = ShardSet(2, frozenset({1}))


def test_the_servers_are_on_the_shards_the_tests_say() -> None:
    assert shard_of(G0, 2) == 0 and shard_of(G1, 2) == 1


@pytest.fixture
async def store(database: str) -> AsyncIterator[Store]:
    opened = await Store.open(database)
    yield opened
    await opened.close()


async def _match(store: Store, guild_id: int | None, channel_id: int) -> int:
    return await store.create_match(
        lobby_id=None,
        guild_id=guild_id,
        channel_id=channel_id,
        game_id="between-battle",
        options="{}",
        seats=2,
        seed=5,
        seed_sha256="x",
        engine_version="1",
        snapshot="s0",
        players=[(1, "a"), (-2, "bot")],
    )


async def _finish(store: Store, match_id: int, version: int) -> None:
    await store.commit_action(
        match_id,
        expected_version=version,
        seat=0,
        action="R",
        events=[],
        snapshot="end",
        status="finished",
    )


# ---- migration 010 --------------------------------------------------------------
async def test_migration_10_backfills_the_clock_deadlines(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    old = await Store.open(path, upto=9)
    mid = await _match(old, G0, 5)
    rows = [
        (0, 100.0, 60.0, 600.0, 1, 0),  # pending, not reminded: reminder at half
        (1, 100.0, 60.0, 600.0, 1, 1),  # reminded: expiry
        (2, 100.0, 60.0, 600.0, 0, 0),  # not deciding
    ]
    async with old.transaction() as db:
        await db.executemany(
            "INSERT INTO clocks (match_id, seat, since, per_move, bank, pending, reminded,"
            " expiries) VALUES (?, ?, ?, ?, ?, ?, ?, 0)",
            [(mid, *r) for r in rows],
        )
    await old.close()
    store = await Store.open(path)
    assert await store.schema_version() == migrations()[-1][0]
    async with store.db.execute(
        "SELECT seat, deadline FROM clocks WHERE match_id = ? ORDER BY seat", (mid,)
    ) as cur:
        got = [(int(r[0]), r[1]) for r in await cur.fetchall()]
    assert got == [(0, 100.0 + 330.0), (1, 100.0 + 660.0), (2, None)]
    await store.close()


def test_clock_deadline() -> None:
    assert clock_deadline(10.0, 20.0, 40.0, True, False) == 40.0
    assert clock_deadline(10.0, 20.0, 40.0, True, True) == 70.0
    assert clock_deadline(10.0, 20.0, 40.0, False, False) is None


# ---- clocks -------------------------------------------------------------------------
async def _deadlines(store: Store, match_id: int) -> dict[int, float | None]:
    rows = await store.database.fetchall(
        "SELECT seat, deadline FROM clocks WHERE match_id = ?", (match_id,)
    )
    return {int(r[0]): r[1] for r in rows}


async def test_set_clock_and_set_clocks_write_the_deadline(store: Store) -> None:
    mid = await _match(store, G0, 5)
    await store.set_clock(
        mid, 0, since=100.0, per_move=60.0, bank=0.0, pending=True, reminded=False, expiries=0
    )
    await store.set_clocks(
        mid, {1: (100.0, 60.0, 40.0, True, True, 1), 2: (100.0, 60.0, 0.0, False, False, 0)}
    )
    assert await _deadlines(store, mid) == {0: 130.0, 1: 200.0, 2: None}
    await store.set_clock(
        mid, 0, since=100.0, per_move=60.0, bank=0.0, pending=True, reminded=True, expiries=0
    )
    assert (await _deadlines(store, mid))[0] == 160.0


async def test_claim_due_clocks_hands_each_due_clock_out_once(store: Store) -> None:
    mine_id = await _match(store, G0, 5)
    theirs_id = await _match(store, G1, 6)
    done_id = await _match(store, G0, 7)
    for mid in (mine_id, theirs_id, done_id):
        await store.set_clocks(
            mid,
            {
                0: (100.0, 60.0, 0.0, True, False, 0),  # reminder due at 130
                1: (100.0, 60.0, 0.0, False, False, 0),  # not deciding
            },
        )
    await _finish(store, done_id, 0)
    assert await store.claim_due_clocks(129.0, FIRST) == []
    claimed = await store.claim_due_clocks(131.0, FIRST, lease=30.0)
    assert claimed == [(mine_id, 0, 100.0, 60.0, 0.0, False, 0)]
    # claimed: leased for 30 s, to this call only
    assert (await _deadlines(store, mine_id))[0] == 161.0
    assert await store.claim_due_clocks(131.0, FIRST) == []
    assert await store.claim_due_clocks(160.0, TWO) == [(theirs_id, 0, 100.0, 60.0, 0.0, False, 0)]
    # the lease ran out (the process that claimed it died): due again
    assert [c[:2] for c in await store.claim_due_clocks(161.0, FIRST)] == [(mine_id, 0)]
    # the reminder went out: the next deadline is the expiry
    await store.set_clock(
        mine_id, 0, since=100.0, per_move=60.0, bank=0.0, pending=True, reminded=True, expiries=0
    )
    assert await store.claim_due_clocks(159.0, FIRST) == []
    assert [c[:2] for c in await store.claim_due_clocks(200.0, FIRST)] == [(mine_id, 0)]


async def test_two_claims_at_once_never_share_a_clock(database: str) -> None:
    stores = [await Store.open(database) for _ in range(3)]
    try:
        ids = [await _match(stores[0], G0, ch) for ch in range(10, 30)]
        for mid in ids:
            await stores[0].set_clocks(mid, {0: (0.0, 10.0, 0.0, True, True, 0)})
        claims = await asyncio.gather(*(s.claim_due_clocks(50.0) for s in stores * 2))
        handed = [c[:2] for claim in claims for c in claim]
        assert sorted(handed) == [(mid, 0) for mid in ids]
    finally:
        for s in stores:
            await s.close()


async def test_shift_clocks_moves_only_the_owned_active_pending_clocks(store: Store) -> None:
    mine = await _match(store, G0, 5)
    theirs = await _match(store, G1, 6)
    dm = await _match(store, None, 7)
    for mid in (mine, theirs, dm):
        await store.set_clocks(
            mid, {0: (100.0, 60.0, 0.0, True, False, 0), 1: (90.0, 60.0, 0.0, False, False, 0)}
        )
    await store.shift_clocks(50.0, SECOND)
    assert (await store.clocks(theirs))[0][0] == 150.0
    assert (await store.clocks(theirs))[1][0] == 90.0
    assert await _deadlines(store, theirs) == {0: 180.0, 1: None}
    assert (await store.clocks(mine))[0][0] == 100.0
    assert (await store.clocks(dm))[0][0] == 100.0
    await store.shift_clocks(10.0, FIRST)  # shard 0 owns the matches with no server
    assert (await store.clocks(mine))[0][0] == 110.0
    assert (await store.clocks(dm))[0][0] == 110.0
    assert (await store.clocks(theirs))[0][0] == 150.0
    await store.shift_clocks(1.0)  # the old call: every shard
    assert [(await store.clocks(m))[0][0] for m in (mine, theirs, dm)] == [111.0, 151.0, 111.0]


# ---- heartbeats ------------------------------------------------------------------------
async def test_heartbeat_per_shard(store: Store) -> None:
    assert await store.heartbeat(1000.0) is None  # the single host of old
    assert await store.heartbeat(1010.0) == 1000.0
    # a shard never seen falls back to the single host's beat
    assert await store.heartbeat(1100.0, FIRST) == {0: 1010.0}
    assert await store.heartbeat(1200.0, FIRST) == {0: 1100.0}
    # then to the newest beat of any layout
    assert await store.heartbeat(1300.0, SECOND) == {1: 1200.0}
    assert await store.heartbeat(1400.0, FIRST) == {0: 1200.0}
    assert await store.heartbeat(1500.0, ShardSet.every(3)) == {0: 1400.0, 1: 1400.0, 2: 1400.0}
    assert await store.heartbeat(1600.0, TWO) == {0: 1400.0, 1: 1300.0}


async def test_heartbeat_of_a_fresh_database_is_none(store: Store) -> None:
    assert await store.heartbeat(5.0, TWO) == {0: None, 1: None}
    assert await store.heartbeat(6.0, SECOND) == {1: 5.0}


# ---- lobbies ---------------------------------------------------------------------------------
async def test_expire_lobbies_returns_only_what_it_closed(store: Store) -> None:
    old_mine = await store.create_lobby(G0, 5, "between-battle", 1, 2, "")
    old_theirs = await store.create_lobby(G1, 6, "between-battle", 1, 2, "")
    young = await store.create_lobby(G0, 7, "between-battle", 1, 2, "")
    unstamped = await store.create_lobby(G0, 8, "between-battle", 1, 2, "")
    for lobby_id, epoch in ((old_mine, 100.0), (old_theirs, 100.0), (young, 900.0)):
        await store.set_lobby_clock(lobby_id, "correspondence", epoch)
    closed = await store.expire_lobbies(1000.0, 600.0, FIRST)
    assert [(lobby.id, lobby.status, lobby.players) for lobby in closed] == [
        (old_mine, "cancelled", (1,))
    ]
    assert await store.expire_lobbies(1000.0, 600.0, FIRST) == []
    assert [lobby.id for lobby in await store.expire_lobbies(1000.0, 600.0)] == [old_theirs]
    open_now = {lobby.id for lobby in await store.open_lobbies()}
    assert open_now == {young, unstamped}


async def test_expire_lobbies_at_once_announces_each_once(database: str) -> None:
    stores = [await Store.open(database) for _ in range(3)]
    try:
        ids = [await stores[0].create_lobby(G0, ch, "between-battle", 1, 2, "") for ch in range(9)]
        for lobby_id in ids:
            await stores[0].set_lobby_clock(lobby_id, "correspondence", 1.0)
        runs = await asyncio.gather(*(s.expire_lobbies(1000.0, 10.0) for s in stores))
        assert sorted(lobby.id for run in runs for lobby in run) == ids
    finally:
        for s in stores:
            await s.close()


async def test_stamp_old_lobbies_per_shard(store: Store) -> None:
    mine = await store.create_lobby(G0, 5, "between-battle", 1, 2, "")
    theirs = await store.create_lobby(G1, 6, "between-battle", 1, 2, "")
    await store.stamp_old_lobbies(50.0, SECOND)
    assert [(await store.lobby(x)).created_epoch for x in (mine, theirs)] == [0.0, 50.0]  # type: ignore[union-attr]
    await store.stamp_old_lobbies(70.0)
    assert [(await store.lobby(x)).created_epoch for x in (mine, theirs)] == [70.0, 50.0]  # type: ignore[union-attr]


# ---- matches -------------------------------------------------------------------------------
async def test_active_matches_and_versions_of_the_owned_shards(store: Store) -> None:
    mine = await _match(store, G0, 5)
    theirs = await _match(store, G1, 6)
    dm = await _match(store, None, 7)
    done = await _match(store, G0, 8)
    await _finish(store, done, 0)
    await store.commit_action(
        theirs, expected_version=0, seat=0, action="D", events=[], snapshot="s1", status="active"
    )
    assert [m.id for m in await store.active_matches(FIRST)] == [mine, dm]
    assert [m.id for m in await store.active_matches(SECOND)] == [theirs]
    assert [m.id for m in await store.active_matches()] == [mine, theirs, dm]
    assert await store.active_versions(SECOND) == {theirs: 1}
    assert await store.active_versions(FIRST) == {mine: 0, dm: 0}
    assert await store.active_versions() == {mine: 0, theirs: 1, dm: 0}
    # the bot's made-up negative id is stored as it is
    row = await store.match(mine)
    assert row is not None and row.players == ((1, "a"), (-2, "bot"))


async def test_locked_match_commits_in_its_transaction(store: Store) -> None:
    mid = await _match(store, G0, 5)
    async with store.locked_match(mid) as locked:
        assert (locked.version, locked.status) == (0, "active")
        # plain reads are allowed inside the block
        assert (await store.match(mid)) is not None
        await locked.commit_action(
            expected_version=0, seat=0, action="D", events=[], snapshot="s1", status="active"
        )
        assert locked.version == 1
    row = await store.match(mid)
    assert row is not None and (row.version, row.snapshot) == (1, "s1")
    async with store.locked_match(mid) as locked:
        with pytest.raises(StaleWrite):
            await locked.commit_action(
                expected_version=0, seat=0, action="P", events=[], snapshot="s2", status="active"
            )
    assert [a[2] for a in await store.match_actions(mid)] == ["D"]


async def test_locked_match_rolls_back_on_an_exception(store: Store) -> None:
    mid = await _match(store, G0, 5)
    with pytest.raises(RuntimeError):
        async with store.locked_match(mid) as locked:
            await locked.commit_action(
                expected_version=0, seat=0, action="D", events=[], snapshot="s1", status="active"
            )
            raise RuntimeError("the preview failed")
    row = await store.match(mid)
    assert row is not None and (row.version, row.snapshot) == (0, "s0")
    assert await store.match_actions(mid) == []
    # the store still works after the rollback
    await store.commit_action(
        mid, expected_version=0, seat=0, action="D", events=[], snapshot="s1", status="active"
    )
    with pytest.raises(KeyError):
        async with store.locked_match(mid + 100):
            pass


async def test_locked_match_sees_a_finished_match(store: Store) -> None:
    mid = await _match(store, G0, 5)
    await _finish(store, mid, 0)
    async with store.locked_match(mid) as locked:
        assert (locked.version, locked.status) == (1, "finished")
        with pytest.raises(StaleWrite):
            await locked.commit_action(
                expected_version=1, seat=0, action="D", events=[], snapshot="x", status="active"
            )


async def test_locked_match_serialises_two_processes(database: str) -> None:
    """Two stores (two processes) play the same match at once: each reads the
    version under the lock, so exactly one move per version gets in and no
    move is refused."""
    a, b = await Store.open(database), await Store.open(database)
    try:
        mid = await _match(a, G0, 5)

        async def play(store: Store, label: str) -> None:
            for i in range(5):
                async with store.locked_match(mid) as locked:
                    await locked.commit_action(
                        expected_version=locked.version,
                        seat=0,
                        action=f"{label}{i}",
                        events=[],
                        snapshot=f"{label}{i}",
                        status="active",
                    )

        await asyncio.gather(play(a, "a"), play(b, "b"))
        actions = await a.match_actions(mid)
        assert [v for v, *_ in actions] == list(range(1, 11))
        assert sorted(x[2] for x in actions) == sorted(
            [f"a{i}" for i in range(5)] + [f"b{i}" for i in range(5)]
        )
    finally:
        await a.close()
        await b.close()


# ---- users -------------------------------------------------------------------------------
async def test_user_state(store: Store) -> None:
    assert await store.user_state(9) is None
    await store.upsert_user(9, "Anne", "fr")
    assert await store.user_state(9) == ("Anne", "fr", False)
    await store.set_dm_closed(9, True)
    assert await store.user_state(9) == ("Anne", "fr", True)
    await store.set_dm_closed(-3, True)  # a user never seen (a bot's id)
    assert await store.user_state(-3) == ("", None, True)


async def test_listen_moves_stop_is_callable(store: Store) -> None:
    seen: list[tuple[int, int | None]] = []

    async def heard(match_id: int, version: int | None) -> None:
        seen.append((match_id, version))

    stop = await store.listen_moves(heard)
    await stop()
    if store.dialect == "sqlite":
        mid = await _match(store, G0, 5)
        await store.commit_action(
            mid, expected_version=0, seat=0, action="D", events=[], snapshot="s1", status="active"
        )
        assert seen == []  # one process sees its own moves


# ---- direct messages and spectators on any process -----------------------------------------
async def test_a_users_active_matches_newest_first_whichever_shard(store: Store) -> None:
    """Shard 0's process receives every direct message: ``/play`` there
    needs the user's latest active match, whoever owns it."""
    older = await _match(store, G0, 10)
    newer = await _match(store, G1, 11)  # another shard's
    finished = await _match(store, G1, 12)
    await _finish(store, finished, 0)
    cancelled = await _match(store, None, 13)
    await store.cancel_match(cancelled)
    twice = await store.create_match(  # one user on two seats (the console's hot seat)
        lobby_id=None,
        guild_id=G0,
        channel_id=14,
        game_id="between-battle",
        options="{}",
        seats=2,
        seed=5,
        seed_sha256="x",
        engine_version="1",
        snapshot="s0",
        players=[(7, "g"), (7, "g")],
    )
    assert await store.user_active_matches(1) == [newer, older]
    assert await store.user_active_matches(7) == [twice]
    assert await store.user_active_matches(99) == []
    assert await store.match_state(newer) == (0, "active")
    assert await store.match_state(finished) == (1, "finished")
    assert await store.match_state(cancelled) == (0, "cancelled")
    assert await store.match_state(10**9) is None


async def test_a_matchs_watchers_in_the_order_they_came(store: Store) -> None:
    match_id = await _match(store, G1, 20)
    other = await _match(store, G1, 21)
    for user_id, since in ((5, "2026-01-01T00:00:02"), (4, "2026-01-01T00:00:01")):
        await store._write(
            "INSERT INTO watchers (match_id, user_id, since) VALUES (?, ?, ?)",
            (match_id, user_id, since),
        )
    await store._write(
        "INSERT INTO watchers (match_id, user_id, since) VALUES (?, ?, ?)", (other, 6, "x")
    )
    assert await store.match_watchers(match_id) == [
        (4, "2026-01-01T00:00:01"),
        (5, "2026-01-01T00:00:02"),
    ]
    assert await store.match_watchers(10**9) == []
