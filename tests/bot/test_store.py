"""The store: migrations, WAL, the one-transaction action commit (the tests
taking ``database`` run on SQLite and on PostgreSQL)."""

from __future__ import annotations

from pathlib import Path

import aiosqlite
import pytest

from bot.store import StaleWrite, Store, migrations


async def _columns(db: aiosqlite.Connection) -> dict[str, list[tuple[str, str]]]:
    out = {}
    async with db.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
    ) as cur:
        tables = [r[0] for r in await cur.fetchall()]
    for table in sorted(tables):
        async with db.execute(f"PRAGMA table_info({table})") as cur:
            out[table] = [(r[1], r[2]) for r in await cur.fetchall()]
    return out


async def _indexes(db: aiosqlite.Connection) -> set[str]:
    async with db.execute("SELECT name FROM sqlite_master WHERE type = 'index'") as cur:
        return {r[0] for r in await cur.fetchall() if not r[0].startswith("sqlite_")}


def test_migrations_are_numbered_from_one() -> None:
    found = migrations()
    assert [v for v, _, _ in found] == list(range(1, len(found) + 1))
    assert len(found) >= 2


@pytest.mark.parametrize("start", range(len(migrations())))
async def test_upgrade_path_from_every_earlier_version(tmp_path: Path, start: int) -> None:
    latest = len(migrations())
    fresh = await Store.open(tmp_path / "fresh.db")
    old = await Store.open(tmp_path / "old.db", upto=start)
    assert await old.schema_version() == start
    if start >= 1:
        # data written by an older version survives the upgrade
        lobby_id = await old.create_lobby(10, 20, "between-battle", 30, 2, "")
    await old.close()
    upgraded = await Store.open(tmp_path / "old.db")
    assert await upgraded.schema_version() == latest
    assert await _columns(upgraded.db) == await _columns(fresh.db)
    assert await _indexes(upgraded.db) == await _indexes(fresh.db)
    if start >= 1:
        lobby = await upgraded.lobby(lobby_id)
        assert lobby is not None and lobby.players == (30,)
    await upgraded.close()
    await fresh.close()


async def test_wal_mode(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "g.db")
    async with store.db.execute("PRAGMA journal_mode") as cur:
        row = await cur.fetchone()
    assert row is not None and row[0] == "wal"
    await store.close()


async def test_commit_action_checks_the_version(database: str) -> None:
    store = await Store.open(database)
    match_id = await store.create_match(
        lobby_id=None,
        guild_id=1,
        channel_id=2,
        game_id="between-battle",
        options="{}",
        seats=2,
        seed=5,
        seed_sha256="x",
        engine_version="1",
        snapshot="{}",
        players=[(1, "a"), (2, "b")],
    )
    await store.commit_action(
        match_id, expected_version=0, seat=0, action="D", events=[], snapshot="s1", status="active"
    )
    with pytest.raises(StaleWrite):
        await store.commit_action(
            match_id,
            expected_version=0,
            seat=1,
            action="P1",
            events=[],
            snapshot="s2",
            status="active",
        )
    row = await store.match(match_id)
    assert row is not None and row.version == 1 and row.snapshot == "s1"
    assert [a[2] for a in await store.match_actions(match_id)] == ["D"]
    await store.close()


async def test_one_open_lobby_per_channel(database: str) -> None:
    store = await Store.open(database)
    await store.create_lobby(1, 2, "between-battle", 3, 2, "")
    with pytest.raises(Exception, match=r"(?i)unique"):
        await store.create_lobby(1, 2, "between-battle", 4, 2, "")
    # the failed transaction left nothing behind and the store still works
    lobby = await store.open_lobby_in(2)
    assert lobby is not None and lobby.host_id == 3
    await store.close()
