"""The core of :class:`~bot.store.Store`: its constructor, transactions and
migrations, and what more than one part uses.

:class:`StoreCore` holds the database connection (``database``,
``dialect``, ``db``, ``transaction``, ``_write``) and the migrations
(``schema_version``, ``migrate``; the files are read by :func:`migrations`
and :func:`postgres_migrations`). This module also holds the constants and
helpers the parts share (the advisory lock keys, ``MOVES_CHANNEL``,
:func:`now_iso`, :func:`_owned`, :func:`clock_deadline`, the clock rows'
SQL) and :class:`LockedMatch` (a match's row under the database's lock,
which reads and writes clocks and commits moves).

The store's other methods are in parts, one module each, every one a mixin
class that inherits from :class:`StoreCore`: ``store_people.py`` (users,
servers, lobbies, decks), ``store_matches.py`` (matches, moves, boards and
seat messages), ``store_records.py`` (results, ratings, take-back requests,
spectators) and ``store_clocks.py`` (the turn clock, heartbeats);
:class:`~bot.store.Store` (``store.py``) inherits them all. What one part
(or :class:`LockedMatch`) calls in another part is declared at the end of
:class:`StoreCore` under ``TYPE_CHECKING``: a signature only, for mypy; at
run time the method is found on :class:`~bot.store.Store`. No module here
imports ``bot.store``, not even for typing (that would be an import circle:
see tests/bot/test_import_graph.py).
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import aiosqlite

from . import ratings
from .database import Connection, PostgresDatabase, SqliteDatabase
from .rows import StaleWrite
from .shards import ShardSet

MIGRATIONS_DIR = Path(__file__).resolve().parent.parent / "migrations"
_MIGRATION_RE = re.compile(r"^(\d{3})_[a-z0-9_]+\.sql$")
# PostgreSQL starts from a baseline equal to SQLite's schema at this version
# (migrations/postgres/001_baseline.sql); later versions have a file per dialect.
POSTGRES_BASELINE = 10
# pg_advisory_xact_lock keys (any constants, the same in every process)
MIGRATION_LOCK = 0x67756572_0001
RATINGS_LOCK = 0x67756572_0002
SEAT_LOCKS = 1 << 48  # Store.seat_lock: this plus match id * 64 + seat
MOVES_CHANNEL = "gueridon_moves"
_SCHEMA_VERSION_TABLE = (
    "CREATE TABLE IF NOT EXISTS schema_version ("
    " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
)


def clock_deadline(
    since: float, per_move: float, bank: float, pending: bool, reminded: bool
) -> float | None:
    """When a clock next needs the host: its reminder (half of its time) until
    reminded, then its expiry; None while the seat is not deciding."""
    if not pending:
        return None
    if not reminded:
        return since + (per_move + bank) / 2
    return since + per_move + bank


def _owned(shards: ShardSet | None, column: str) -> tuple[str, list[int]]:
    """The SQL predicate (and its parameters) of the rows ``shards`` owns."""
    return ("1 = 1", []) if shards is None else shards.sql(column)


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def migrations(directory: Path = MIGRATIONS_DIR) -> list[tuple[int, str, str]]:
    """``(version, file name, sql)`` of every migration, in order."""
    out = []
    for path in sorted(directory.iterdir()):
        m = _MIGRATION_RE.match(path.name)
        if m:
            out.append((int(m.group(1)), path.name, path.read_text(encoding="utf-8")))
    versions = [v for v, _, _ in out]
    if versions != list(range(1, len(versions) + 1)):
        raise RuntimeError(f"migrations must be numbered 001, 002, ...: {versions}")
    return out


def postgres_migrations(
    directory: Path = MIGRATIONS_DIR / "postgres",
) -> list[tuple[int, str, str]]:
    """``(version, file name, sql)`` on PostgreSQL: ``001_baseline.sql`` as
    version :data:`POSTGRES_BASELINE`, then the files numbered after it."""
    out = []
    for path in sorted(directory.iterdir()):
        m = _MIGRATION_RE.match(path.name)
        if not m:
            continue
        number = int(m.group(1))
        if number == 1:
            version = POSTGRES_BASELINE
        elif number > POSTGRES_BASELINE:
            version = number
        else:
            raise RuntimeError(f"{path.name}: after the baseline, PostgreSQL files start at 011")
        out.append((version, path.name, path.read_text(encoding="utf-8")))
    out.sort()
    versions = [v for v, _, _ in out]
    expected = list(range(POSTGRES_BASELINE, POSTGRES_BASELINE + len(versions)))
    if versions != expected:
        raise RuntimeError(f"PostgreSQL migrations must follow the baseline: {versions}")
    return out


class LockedMatch:
    """A match's row held under the database's lock (:meth:`Store.locked_match`)."""

    def __init__(
        self, store: StoreCore, db: Connection, match_id: int, version: int, status: str
    ) -> None:
        self._store = store
        self._db = db
        self.match_id = match_id
        self.version = version
        self.status = status

    async def commit_action(self, **kwargs: Any) -> None:
        """:meth:`Store.commit_action`'s keyword arguments (no ``match_id``),
        written in the lock's transaction; ``StaleWrite`` if
        ``expected_version`` is not the row's."""
        if kwargs["expected_version"] != self.version or self.status != "active":
            raise StaleWrite(
                f"match {self.match_id} is not at version {kwargs['expected_version']}"
            )
        await self._store._commit_action(self._db, self.match_id, **kwargs)
        self.version = int(kwargs["expected_version"]) + 1
        self.status = str(kwargs["status"])

    async def clocks(self) -> dict[int, tuple[float, float, float, bool, bool, int]]:
        """:meth:`Store.clocks` of this match, read in the lock's transaction."""
        return await _read_clocks(self._db, self.match_id)

    async def set_clocks(
        self, rows: Mapping[int, tuple[float, float, float, bool, bool, int]]
    ) -> None:
        """:meth:`Store.set_clocks` of this match, written in the lock's
        transaction (so a concurrent move's clocks never overwrite these)."""
        await _write_clocks(self._db, self.match_id, rows)

    async def remind(self, seat: int, since: float) -> bool:
        """Mark the seat's clock reminded, and move its deadline to its expiry
        (:func:`clock_deadline`), if it is still the pending, unreminded clock
        that started at ``since`` (the one found due) of an active match;
        False if it changed meanwhile."""
        if self.status != "active":
            return False
        changed = await self._db.execute(_REMIND, (self.match_id, seat, since))
        return changed == 1


class StoreCore:
    """The connection, transactions and migrations of the store (see the
    module's docstring for how the parts fit together)."""

    def __init__(self, database: SqliteDatabase | PostgresDatabase, path: str) -> None:
        self.database = database
        self.dialect = database.dialect
        self.path = path

    @property
    def db(self) -> aiosqlite.Connection:
        """SQLite's own connection (for SQLite-only code and tests: PRAGMAs,
        aiosqlite's thread). PostgreSQL has none: use the store's methods."""
        if isinstance(self.database, SqliteDatabase):
            return self.database.raw
        raise AttributeError("store.db is SQLite's connection; on PostgreSQL use store.database")

    def transaction(self) -> contextlib.AbstractAsyncContextManager[Connection]:
        """One transaction: the statements of the block commit together."""
        return self.database.transaction()

    async def _write(self, sql: str, params: Sequence[Any] = ()) -> None:
        await self.database.execute(sql, params)

    # ---- migrations ----------------------------------------------------------
    async def schema_version(self) -> int:
        await self.database.execute(_SCHEMA_VERSION_TABLE)
        row = await self.database.fetchone("SELECT MAX(version) FROM schema_version")
        return int(row[0]) if row and row[0] is not None else 0

    async def migrate(self, *, upto: int | None = None) -> int:
        if self.dialect == "postgres":
            return await self._migrate_postgres(upto)
        current = await self.schema_version()
        for version, name, sql in migrations():
            if version <= current or (upto is not None and version > upto):
                continue
            async with self.transaction() as db:
                # read again under the write lock (BEGIN IMMEDIATE): another
                # process opening the same file at once may have applied it
                row = await db.fetchone("SELECT MAX(version) FROM schema_version")
                if row is not None and row[0] is not None and row[0] >= version:
                    current = int(row[0])
                    continue
                for statement in _split_sql(sql):
                    await db.execute(statement)
                await db.execute(
                    "INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)",
                    (version, name, now_iso()),
                )
            current = version
        return current

    async def _migrate_postgres(self, upto: int | None) -> int:
        """The baseline, then the later migrations, in one transaction under an
        advisory lock: processes starting at once wait for the first one,
        which migrates; the others find the work done."""
        if upto is not None and upto < POSTGRES_BASELINE:
            raise ValueError(f"PostgreSQL starts at version {POSTGRES_BASELINE}")
        async with self.transaction() as db:
            await db.execute("SELECT pg_advisory_xact_lock(?)", (MIGRATION_LOCK,))
            await db.execute(_SCHEMA_VERSION_TABLE)
            row = await db.fetchone("SELECT MAX(version) FROM schema_version")
            current = int(row[0]) if row and row[0] is not None else 0
            for version, name, sql in postgres_migrations():
                if version <= current or (upto is not None and version > upto):
                    continue
                for statement in _split_sql(sql):
                    await db.execute(statement)
                await db.execute(
                    "INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)",
                    (version, name, now_iso()),
                )
                current = version
        return current

    # ---- calls across parts ------------------------------------------------------
    # (signatures for mypy only, checked against the parts' own: see the module's
    # docstring)
    if TYPE_CHECKING:
        # matches (store_matches.py)
        def locked_match(
            self, match_id: int
        ) -> contextlib.AbstractAsyncContextManager[LockedMatch]: ...

        async def _commit_action(
            self,
            db: Connection,
            match_id: int,
            *,
            expected_version: int,
            seat: int,
            action: str,
            events: list[dict[str, Any]],
            snapshot: str,
            status: str,
            result: tuple[str, str] | None = None,
            guild_id: int | None = None,
            game_id: str = "",
            resigned_seat: int | None = None,
            finished: ratings.FinishedMatch | None = None,
        ) -> None: ...

        # results and ratings (store_records.py)
        async def _write_result_players(
            self, db: Connection, finished: ratings.FinishedMatch
        ) -> None: ...

        async def _rate(
            self, db: Connection, finished: ratings.FinishedMatch, stamp: str
        ) -> None: ...


# a reminder, only on the clock found due (the deadline moves to its expiry:
# clock_deadline of a reminded clock)
_REMIND = (
    "UPDATE clocks SET reminded = 1, deadline = since + per_move + bank"
    " WHERE match_id = ? AND seat = ? AND pending = 1 AND reminded = 0 AND since = ?"
)
_SET_CLOCK = (
    "INSERT INTO clocks (match_id, seat, since, per_move, bank, pending, reminded,"
    " expiries, deadline) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (match_id, seat)"
    " DO UPDATE SET since = excluded.since, per_move = excluded.per_move,"
    " bank = excluded.bank, pending = excluded.pending, reminded = excluded.reminded,"
    " expiries = excluded.expiries, deadline = excluded.deadline"
)


async def _read_clocks(
    db: Connection, match_id: int
) -> dict[int, tuple[float, float, float, bool, bool, int]]:
    """A match's clock rows, on ``db`` (the database, or a transaction's connection)."""
    rows = await db.fetchall(
        "SELECT seat, since, per_move, bank, pending, reminded, expiries FROM clocks"
        " WHERE match_id = ?",
        (match_id,),
    )
    return {
        int(r[0]): (float(r[1]), float(r[2]), float(r[3]), bool(r[4]), bool(r[5]), int(r[6]))
        for r in rows
    }


async def _write_clocks(
    db: Connection, match_id: int, rows: Mapping[int, tuple[float, float, float, bool, bool, int]]
) -> None:
    """Several seats' clocks (and their deadlines) in one statement, on ``db``."""
    if not rows:
        return
    await db.executemany(
        _SET_CLOCK,
        [
            (
                match_id,
                seat,
                since,
                per_move,
                bank,
                int(pending),
                int(reminded),
                expiries,
                clock_deadline(since, per_move, bank, pending, reminded),
            )
            for seat, (since, per_move, bank, pending, reminded, expiries) in rows.items()
        ],
    )


def _split_sql(sql: str) -> list[str]:
    """Statements of a migration file (no semicolons inside literals there)."""
    lines = [line for line in sql.splitlines() if not line.strip().startswith("--")]
    return [s.strip() for s in "\n".join(lines).split(";") if s.strip()]
