"""The store: every database access of the host, on SQLite (the default:
aiosqlite, WAL mode, one process) or PostgreSQL (``DATABASE_URL``: one or
many processes), over the connection layer of :mod:`bot.database`. The SQL
is written once; the dialects differ only in locks, sequences and NOTIFY.

The schema lives in ``migrations/`` (``migrations/README.md``):
:meth:`Store.open` applies the versions not yet recorded in
``schema_version``. Every accepted action is written by
:meth:`Store.commit_action` (or :meth:`LockedMatch.commit_action`) in one
transaction (append the action, write the snapshot, bump the version,
checked against the expected version) that commits before the host says
anything to anybody.

The store is one class, :class:`Store`, in parts (mixins) of a module each:
``store_core.py`` (:class:`~bot.store_core.StoreCore`: the connection,
transactions, migrations, :class:`~bot.store_core.LockedMatch`; how the
parts fit together), ``store_people.py`` (users, servers, lobbies, decks),
``store_matches.py`` (matches, moves, boards, seat messages),
``store_records.py`` (results, ratings, take-back requests, spectators) and
``store_clocks.py`` (the turn clock, heartbeats). Its rows are in
``rows.py``; every name is importable from here.
"""

from __future__ import annotations

from pathlib import Path

from .database import open_database
from .rows import DeckRow, LobbyRow, MatchRow, StaleWrite
from .store_clocks import ClocksPart
from .store_core import (
    MIGRATION_LOCK,
    MIGRATIONS_DIR,
    MOVES_CHANNEL,
    POSTGRES_BASELINE,
    RATINGS_LOCK,
    SEAT_LOCKS,
    LockedMatch,
    clock_deadline,
    migrations,
    now_iso,
    postgres_migrations,
)
from .store_matches import MatchesPart
from .store_people import PeoplePart
from .store_records import RecordsPart

__all__ = [  # what other modules import from here (the rows are in bot/rows.py)
    "MIGRATIONS_DIR",
    "MIGRATION_LOCK",
    "MOVES_CHANNEL",
    "POSTGRES_BASELINE",
    "RATINGS_LOCK",
    "SEAT_LOCKS",
    "DeckRow",
    "LobbyRow",
    "LockedMatch",
    "MatchRow",
    "StaleWrite",
    "Store",
    "clock_deadline",
    "migrations",
    "now_iso",
    "postgres_migrations",
]


class Store(PeoplePart, MatchesPart, RecordsPart, ClocksPart):
    """All database access of the host, over :mod:`bot.database`: SQLite (one
    connection on aiosqlite's thread, so the event loop never waits on the
    disk) or PostgreSQL (a pool). The SQL is written once for both."""

    # ---- opening and closing ----------------------------------------------------------
    @classmethod
    async def open(cls, path: str | Path, *, upto: int | None = None) -> Store:
        """Open (creating if needed) and migrate: ``postgresql://...`` or
        ``postgres://...`` is a PostgreSQL database, anything else a SQLite
        file. ``upto`` stops at a version (used by the upgrade-path test)."""
        database = await open_database(path)
        store = cls(database, str(path))
        try:
            await store.migrate(upto=upto)
        except BaseException:
            await database.close()
            raise
        return store

    async def close(self) -> None:
        await self.database.close()
