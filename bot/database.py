"""The connection layer under the store: one small interface over SQLite
(aiosqlite) and PostgreSQL (psycopg 3 and its async pool), so that the store
writes its SQL once.

SQL is written with ``?`` marks; on PostgreSQL they become ``%s`` (and a
literal ``%`` becomes ``%%``), once per statement text. Rows read by index and
by column name on both. Outside :meth:`Database.transaction`, each statement
commits on its own; inside, every statement runs on the transaction's one
connection and commits when the block ends (an exception rolls back).

- SQLite: one connection (aiosqlite runs it on its own thread); writes and
  transactions take turns under one lock (``BEGIN IMMEDIATE``), so no
  statement ever lands inside another's transaction. Reads do not wait.
- PostgreSQL: a pool of connections in autocommit mode; a transaction takes
  one connection from the pool for its whole life.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import inspect
import logging
import os
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import aiosqlite

from .keylocks import FileKeyLocks, KeyLocks, PostgresKeyLocks

if TYPE_CHECKING:
    import psycopg
    from psycopg_pool import AsyncConnectionPool

Params = Sequence[Any]
log = logging.getLogger(__name__)


def is_postgres_url(database: str | Path) -> bool:
    return isinstance(database, str) and database.startswith(("postgresql://", "postgres://"))


class Row(Sequence[Any]):
    """A row of PostgreSQL readable like ``aiosqlite.Row``: ``row[0]``,
    ``row["name"]``, ``row.keys()``."""

    __slots__ = ("_index", "_values")

    def __init__(self, values: Sequence[Any], index: Mapping[str, int]) -> None:
        self._values = tuple(values)
        self._index = index

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, str):
            return self._values[self._index[key]]
        return self._values[key]

    def __len__(self) -> int:
        return len(self._values)

    def __iter__(self) -> Any:
        return iter(self._values)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Row):
            return self._values == other._values
        return isinstance(other, tuple) and self._values == other

    def __hash__(self) -> int:
        return hash(self._values)

    def __repr__(self) -> str:
        return f"Row{self._values!r}"

    def keys(self) -> list[str]:
        return list(self._index)


class Connection(Protocol):
    """What a transaction (and a database outside one) can do."""

    dialect: str

    async def fetchone(self, sql: str, params: Params = ()) -> Any | None: ...

    async def fetchall(self, sql: str, params: Params = ()) -> list[Any]: ...

    async def execute(self, sql: str, params: Params = ()) -> int: ...

    async def executemany(self, sql: str, rows: Iterable[Params]) -> None: ...


class Database(Connection, Protocol):
    def transaction(self) -> contextlib.AbstractAsyncContextManager[Connection]: ...

    def key_lock(self, key: int) -> contextlib.AbstractAsyncContextManager[None]: ...

    async def close(self) -> None: ...


# ---- SQLite ------------------------------------------------------------------------
class _SqliteConnection:
    """Statements on the shared connection, inside a transaction that holds the lock."""

    dialect = "sqlite"

    def __init__(self, raw: aiosqlite.Connection) -> None:
        self.raw = raw

    async def fetchone(self, sql: str, params: Params = ()) -> Any | None:
        # one trip to aiosqlite's thread (a cursor, its rows and its closing are three)
        rows = await self.raw.execute_fetchall(sql, params)
        for row in rows:
            return row
        return None

    async def fetchall(self, sql: str, params: Params = ()) -> list[Any]:
        return list(await self.raw.execute_fetchall(sql, params))

    async def execute(self, sql: str, params: Params = ()) -> int:
        cur = await self.raw.execute(sql, params)
        return int(cur.rowcount)

    async def executemany(self, sql: str, rows: Iterable[Params]) -> None:
        await self.raw.executemany(sql, rows)


class SqliteDatabase(_SqliteConnection):
    """One aiosqlite connection in autocommit mode, WAL, and the write lock."""

    def __init__(self, raw: aiosqlite.Connection, path: str) -> None:
        super().__init__(raw)
        self.path = path
        self.lock = asyncio.Lock()
        # other processes on the file (shard processes) lock the byte of a
        # key in a file beside it; in memory, or without fcntl, nothing shares it
        shared = path != ":memory:" and os.name == "posix"
        self.key_locks = FileKeyLocks(f"{path}.locks") if shared else KeyLocks()

    @classmethod
    async def open(cls, path: str | Path) -> SqliteDatabase:
        path = str(path)
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        raw = await aiosqlite.connect(path, isolation_level=None)
        raw.row_factory = aiosqlite.Row
        await raw.execute("PRAGMA journal_mode=WAL")
        await raw.execute("PRAGMA synchronous=NORMAL")
        await raw.execute("PRAGMA foreign_keys=ON")
        await raw.execute("PRAGMA busy_timeout=5000")
        return cls(raw, path)

    async def execute(self, sql: str, params: Params = ()) -> int:
        async with self.lock:
            return await super().execute(sql, params)

    async def executemany(self, sql: str, rows: Iterable[Params]) -> None:
        async with self.lock:
            await super().executemany(sql, rows)

    async def fetch_write(self, sql: str, params: Params = ()) -> list[Any]:
        """A write that returns rows (``RETURNING``), under the lock."""
        async with self.lock:
            return await super().fetchall(sql, params)

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[Connection]:
        async with self.lock:
            # a COMMIT refused (another process on the file: SQLITE_BUSY) or a
            # task cancelled while its BEGIN or COMMIT waits for aiosqlite's
            # thread rolls back too: a transaction left open would make every
            # later BEGIN fail ("cannot start a transaction within a
            # transaction"). The thread runs statements in order, so the
            # ROLLBACK comes after whatever was already sent; with nothing
            # left to roll back, it is refused, and that is fine.
            try:
                await self.raw.execute("BEGIN IMMEDIATE")
                yield _SqliteConnection(self.raw)
                await self.raw.execute("COMMIT")
            except BaseException:
                with contextlib.suppress(sqlite3.OperationalError):
                    await self.raw.execute("ROLLBACK")
                raise

    def key_lock(self, key: int) -> contextlib.AbstractAsyncContextManager[None]:
        """Hold ``key`` against every process on this file (:mod:`bot.keylocks`)."""
        return self.key_locks.hold(key)

    async def close(self) -> None:
        await self.key_locks.close()
        await self.raw.close()


# ---- PostgreSQL ---------------------------------------------------------------------
@functools.lru_cache(maxsize=1024)
def to_postgres(sql: str) -> str:
    """``?`` marks to ``%s``, and ``%`` to ``%%`` (outside quoted literals
    ``?`` and ``%`` are marks and operators; inside, they are text)."""
    out = []
    quoted = False
    for ch in sql:
        if ch == "'":
            quoted = not quoted
            out.append(ch)
        elif ch == "%":
            out.append("%%")
        elif ch == "?" and not quoted:
            out.append("%s")
        else:
            out.append(ch)
    return "".join(out)


def _row_factory(cursor: Any) -> Any:
    description = cursor.description
    if description is None:
        return tuple
    index = {column.name: i for i, column in enumerate(description)}

    def make(values: Sequence[Any]) -> Row:
        return Row(values, index)

    return make


async def _configure(conn: psycopg.AsyncConnection[Any]) -> None:
    """JSONB columns read back as their text, like SQLite's TEXT (the store
    parses what it needs)."""
    from psycopg.types.string import TextLoader

    conn.adapters.register_loader("jsonb", TextLoader)


class _PostgresConnection:
    dialect = "postgres"

    def __init__(self, conn: psycopg.AsyncConnection[Any]) -> None:
        self.conn = conn

    async def fetchone(self, sql: str, params: Params = ()) -> Any | None:
        cur = await self.conn.execute(to_postgres(sql), params)
        return await cur.fetchone()

    async def fetchall(self, sql: str, params: Params = ()) -> list[Any]:
        cur = await self.conn.execute(to_postgres(sql), params)
        return list(await cur.fetchall())

    async def execute(self, sql: str, params: Params = ()) -> int:
        cur = await self.conn.execute(to_postgres(sql), params)
        return int(cur.rowcount)

    async def executemany(self, sql: str, rows: Iterable[Params]) -> None:
        async with self.conn.cursor() as cur:
            await cur.executemany(to_postgres(sql), list(rows))


class PostgresDatabase:
    """A pool of autocommit connections; a transaction holds one of them."""

    dialect = "postgres"

    def __init__(self, pool: AsyncConnectionPool[Any], url: str) -> None:
        self.pool = pool
        self.url = url
        self.key_locks = PostgresKeyLocks(url)

    @classmethod
    async def open(cls, url: str, *, min_size: int = 1, max_size: int = 16) -> PostgresDatabase:
        import psycopg
        from psycopg_pool import AsyncConnectionPool

        # one plain connection first: a database that cannot be reached (or a
        # refused login) fails at once with PostgreSQL's reason, where the
        # pool would retry quietly for its whole timeout
        probe = await psycopg.AsyncConnection.connect(url, connect_timeout=10)
        await probe.close()
        pool: AsyncConnectionPool[Any] = AsyncConnectionPool(
            url,
            min_size=min_size,
            max_size=max_size,
            kwargs={"autocommit": True, "row_factory": _row_factory},
            configure=_configure,
            open=False,
        )
        await pool.open(wait=True, timeout=30.0)
        return cls(pool, url)

    async def fetchone(self, sql: str, params: Params = ()) -> Any | None:
        async with self.pool.connection() as conn:
            return await _PostgresConnection(conn).fetchone(sql, params)

    async def fetchall(self, sql: str, params: Params = ()) -> list[Any]:
        async with self.pool.connection() as conn:
            return await _PostgresConnection(conn).fetchall(sql, params)

    async def execute(self, sql: str, params: Params = ()) -> int:
        async with self.pool.connection() as conn:
            return await _PostgresConnection(conn).execute(sql, params)

    async def executemany(self, sql: str, rows: Iterable[Params]) -> None:
        async with self.transaction() as tx:
            await tx.executemany(sql, rows)

    async def fetch_write(self, sql: str, params: Params = ()) -> list[Any]:
        return await self.fetchall(sql, params)

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[Connection]:
        async with self.pool.connection() as conn, conn.transaction():
            yield _PostgresConnection(conn)

    @contextlib.asynccontextmanager
    async def session(self) -> AsyncIterator[psycopg.AsyncConnection[Any]]:
        """One connection of the pool for a while (advisory locks of a session)."""
        async with self.pool.connection() as conn:
            yield conn

    async def listen(
        self,
        channel: str,
        callback: Callable[[str], Awaitable[None] | None],
        *,
        retry: float = 1.0,
    ) -> Callable[[], Awaitable[None]]:
        """``LISTEN channel`` on a connection of its own (not the pool's) and
        call ``callback(payload)`` for each notification, from the event loop;
        if the connection drops, connect again every ``retry`` seconds
        (notifications sent meanwhile are lost: callers sweep for them).
        Listening has begun when this returns; it returns the async function
        that stops it."""
        import psycopg

        async def connect() -> psycopg.AsyncConnection[Any]:
            conn = await psycopg.AsyncConnection.connect(self.url, autocommit=True)
            try:
                await conn.execute(f"LISTEN {channel}")
            except BaseException:
                await conn.close()
                raise
            return conn

        async def run(conn: psycopg.AsyncConnection[Any] | None) -> None:
            failures = 0
            while True:
                try:
                    if conn is None:
                        conn = await connect()
                        log.info("listening on %s again", channel)
                    failures = 0
                    async for note in conn.notifies():
                        try:
                            result = callback(note.payload)
                            if inspect.isawaitable(result):
                                await result
                        except Exception:
                            log.exception("a %s listener failed on %r", channel, note.payload)
                except Exception as exc:
                    failures += 1
                    log.warning(
                        "the %s listener's connection failed (%s); reconnecting", channel, exc
                    )
                finally:
                    if conn is not None:
                        with contextlib.suppress(Exception):
                            await conn.close()
                        conn = None
                # ``retry`` seconds, doubling while the database stays away (30 s at most)
                await asyncio.sleep(min(retry * 2 ** max(failures - 1, 0), 30.0))

        task = asyncio.create_task(run(await connect()), name=f"listen {channel}")

        async def stop() -> None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

        return stop

    def key_lock(self, key: int) -> contextlib.AbstractAsyncContextManager[None]:
        """Hold ``key`` against every process on this database (:mod:`bot.keylocks`)."""
        return self.key_locks.hold(key)

    async def close(self) -> None:
        await self.key_locks.close()
        await self.pool.close()


async def open_database(database: str | Path) -> SqliteDatabase | PostgresDatabase:
    """``postgresql://...`` or ``postgres://...``: PostgreSQL; else a SQLite file."""
    if is_postgres_url(database):
        return await PostgresDatabase.open(str(database))
    return await SqliteDatabase.open(database)
