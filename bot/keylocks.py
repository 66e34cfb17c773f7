"""Locks on a number, held across the processes that share a database.

Used where a process must not be overtaken while it talks to Discord: a
seat's private message (:meth:`bot.store.Store.seat_lock`). Two processes
may announce two versions of one match at once (a click in direct messages
reaches shard 0's process, a move typed in the match's thread its owner);
without a lock, the older edit of a direct message can land last and leave
stale buttons.

- PostgreSQL: session advisory locks (``pg_try_advisory_lock``) on one
  connection of their own, outside the pool: a lock held while Discord
  answers (rate limits can make that seconds) never takes a connection
  from the moves. Waiting polls, so that connection is never blocked.
- SQLite: POSIX record locks (``lockf``) on one byte of a file beside the
  database, the byte at the key's offset.

Both are re-entrant within a process, so a lock of this process's own (one
:class:`asyncio.Lock` per key held) comes first. If the lock cannot be had
(the PostgreSQL connection is down), the holder goes on without it, with a
warning: a stale button is refused when clicked, a lost message is not.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import psycopg

log = logging.getLogger(__name__)

POLL = 0.01  # the first wait between two tries; it doubles up to POLL_MAX
POLL_MAX = 0.1


class KeyLocks:
    """The in-process half; subclasses add the cross-process one."""

    def __init__(self) -> None:
        self._local: dict[int, tuple[asyncio.Lock, int]] = {}  # key: (lock, users)

    @contextlib.asynccontextmanager
    async def hold(self, key: int) -> AsyncIterator[None]:
        lock, users = self._local.get(key, (asyncio.Lock(), 0))
        self._local[key] = (lock, users + 1)
        try:
            async with lock:
                held = await self._acquire(key)
                try:
                    yield
                finally:
                    if held:
                        await self._release(key)
        finally:
            lock, users = self._local[key]
            if users == 1:
                del self._local[key]
            else:
                self._local[key] = (lock, users - 1)

    async def _acquire(self, key: int) -> bool:
        """Wait for the other processes; false: went on without the lock."""
        wait = POLL
        while True:
            try:
                if await self._try(key):
                    return True
            except Exception as exc:
                log.warning("could not take lock %s (%s): going on without it", key, exc)
                return False
            await asyncio.sleep(wait)
            wait = min(wait * 2, POLL_MAX)

    async def _try(self, key: int) -> bool:
        return True  # one process: the in-process lock is enough

    async def _release(self, key: int) -> None:
        return None

    async def close(self) -> None:
        return None


class PostgresKeyLocks(KeyLocks):
    """Session advisory locks on a connection of their own."""

    def __init__(self, url: str) -> None:
        super().__init__()
        self.url = url
        self._conn: psycopg.AsyncConnection[Any] | None = None
        self._turn = asyncio.Lock()  # one statement at a time on the connection

    async def _ask(self, sql: str, key: int) -> bool:
        import psycopg

        async with self._turn:
            if self._conn is None or self._conn.closed:
                self._conn = await psycopg.AsyncConnection.connect(self.url, autocommit=True)
            try:
                cur = await self._conn.execute(sql, (key,))
                row = await cur.fetchone()
            except psycopg.OperationalError:
                # the connection is gone, and the locks it held with it
                with contextlib.suppress(Exception):
                    await self._conn.close()
                self._conn = None
                raise
            return bool(row and row[0])

    async def _try(self, key: int) -> bool:
        return await self._ask("SELECT pg_try_advisory_lock(%s)", key)

    async def _release(self, key: int) -> None:
        try:
            await self._ask("SELECT pg_advisory_unlock(%s)", key)
        except Exception as exc:  # a lost connection released it already
            log.warning("could not release lock %s (%s)", key, exc)

    async def close(self) -> None:
        if self._conn is not None:
            with contextlib.suppress(Exception):
                await self._conn.close()
            self._conn = None


class FileKeyLocks(KeyLocks):
    """``lockf`` on the byte at the key's offset of ``path``."""

    def __init__(self, path: str) -> None:
        super().__init__()
        self.path = path
        self._fd: int | None = None

    def _file(self) -> int:
        # opened once and kept: closing any descriptor of the file would drop
        # every record lock this process holds on it
        if self._fd is None:
            self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        return self._fd

    async def _try(self, key: int) -> bool:
        import fcntl

        try:
            fcntl.lockf(self._file(), fcntl.LOCK_EX | fcntl.LOCK_NB, 1, key)
        except (BlockingIOError, PermissionError):
            return False
        return True

    async def _release(self, key: int) -> None:
        import fcntl

        fcntl.lockf(self._file(), fcntl.LOCK_UN, 1, key)

    async def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
