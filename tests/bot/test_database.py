"""The connection layer under the store (bot/database.py), where several processes share a
database: locks on a number across them (bot/keylocks.py: a seat's private message is written
by one process at a time; issue 18: an older edit of a direct message landed after a newer one
and left stale buttons, tests/e2e/test_discord_shards.py), and SQLite transactions."""

from __future__ import annotations

import asyncio
import sqlite3
import sys
from pathlib import Path

import pytest

from bot.database import open_database
from bot.keylocks import KeyLocks

# a process holding a key of the database until told to let it go
HOLDER = """
import asyncio, sys
from bot.database import open_database

async def main():
    db = await open_database(sys.argv[1])
    async with db.key_lock(int(sys.argv[2])):
        print("held", flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    await db.close()

asyncio.run(main())
"""


async def test_one_holder_at_a_time_in_a_process() -> None:
    locks = KeyLocks()
    order: list[str] = []

    async def hold(name: str, key: int) -> None:
        async with locks.hold(key):
            order.append(f"{name}+")
            await asyncio.sleep(0.01)
            order.append(f"{name}-")

    await asyncio.gather(hold("a", 1), hold("b", 1), hold("c", 2))
    assert order.index("a-") < order.index("b+")  # the same key: one after the other
    assert order.index("c+") < order.index("a-")  # another key: at once
    assert locks._local == {}  # nothing kept for keys no one holds


async def test_another_process_holding_the_key_is_waited_for(database: str) -> None:
    db = await open_database(database)
    child = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        HOLDER,
        database,
        "77",
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
    )
    assert child.stdin is not None and child.stdout is not None
    try:
        assert await asyncio.wait_for(child.stdout.readline(), 30) == b"held\n"
        async with db.key_lock(78):
            pass  # another key is free
        waiting = asyncio.create_task(db.key_lock(77).__aenter__())
        await asyncio.sleep(0.3)
        assert not waiting.done()
        child.stdin.write(b"go\n")
        await child.stdin.drain()
        await asyncio.wait_for(waiting, 10)
    finally:
        if child.returncode is None:
            child.kill()
        await child.wait()
        await db.close()


@pytest.mark.parametrize("database", ["postgres"], indirect=True)
async def test_a_lost_connection_goes_on_without_the_lock(database: str) -> None:
    """The lock's connection is cut (PostgreSQL restarted, the network): the announcement
    goes on, and the next one connects again."""
    db = await open_database(database)
    try:
        async with db.key_lock(5):
            pass
        conn = db.key_locks._conn  # type: ignore[union-attr]
        assert conn is not None
        async with db.pool.connection() as admin:  # type: ignore[union-attr]
            await admin.execute("SELECT pg_terminate_backend(%s)", (conn.info.backend_pid,))
        async with db.key_lock(5):
            pass  # a warning, not an error
        async with db.key_lock(5):
            assert db.key_locks._conn is not conn  # type: ignore[union-attr]
    finally:
        await db.close()


async def test_a_refused_commit_leaves_no_transaction_open(tmp_path: Path) -> None:
    """SQLite: a COMMIT that fails (here a deferred foreign key; with other processes on the
    file, SQLITE_BUSY) keeps the transaction open unless it is rolled back, and every later
    BEGIN then failed with "cannot start a transaction within a transaction" (seen in
    tests/e2e/test_discord_shards.py's SQLite run, in Store.swap_seat_message)."""
    db = await open_database(tmp_path / "t.db")
    try:
        await db.execute("CREATE TABLE a (id INTEGER PRIMARY KEY)")
        await db.execute(
            "CREATE TABLE b (a_id INTEGER REFERENCES a(id) DEFERRABLE INITIALLY DEFERRED)"
        )
        with pytest.raises(sqlite3.IntegrityError):
            async with db.transaction() as tx:
                await tx.execute("INSERT INTO b VALUES (7)")
        async with db.transaction() as tx:
            await tx.execute("INSERT INTO a VALUES (7)")
            await tx.execute("INSERT INTO b VALUES (7)")
        assert [tuple(r) for r in await db.fetchall("SELECT a_id FROM b")] == [(7,)]
    finally:
        await db.close()


async def test_a_transaction_cancelled_at_its_begin_leaves_none_open(tmp_path: Path) -> None:
    """A task cancelled while its BEGIN waits for aiosqlite's thread (a shard process shutting
    down, a timed-out interaction): the BEGIN still runs there, and is rolled back."""
    db = await open_database(tmp_path / "t.db")
    try:
        await db.execute("CREATE TABLE a (id INTEGER PRIMARY KEY)")
        for _ in range(20):

            async def write() -> None:
                async with db.transaction() as tx:
                    await tx.execute("INSERT INTO a VALUES (1)")
                    await asyncio.sleep(1)

            task = asyncio.create_task(write())
            await asyncio.sleep(0)  # at its BEGIN, or not yet
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
        async with db.transaction() as tx:
            await tx.execute("INSERT INTO a VALUES (2)")
        assert [tuple(r) for r in await db.fetchall("SELECT id FROM a")] == [(2,)]
    finally:
        await db.close()
