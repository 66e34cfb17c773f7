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
"""

from __future__ import annotations

import contextlib
import inspect
import json
import logging
import re
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, overload

import aiosqlite

from engine.match import UNDO, MatchRecord

from . import ratings
from .database import Connection, PostgresDatabase, SqliteDatabase, open_database
from .guilds import GuildSettings, channels_text, parse_channels
from .shards import ShardSet

log = logging.getLogger(__name__)
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


class StaleWrite(Exception):
    """The match's version in the database is not the one expected."""


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


@dataclass(frozen=True)
class LobbyRow:
    id: int
    guild_id: int | None
    channel_id: int
    game_id: str
    host_id: int
    seats: int
    options: str
    status: str
    message_id: int | None
    players: tuple[int, ...]  # user ids in joining order
    bots: tuple[tuple[int, str], ...] = ()  # (bot user id, level)
    clock: str = "correspondence"
    created_epoch: float = 0.0
    decks: tuple[tuple[int, str, str], ...] = ()  # (user id, deck name, deck code) chosen


@dataclass(frozen=True)
class DeckRow:
    id: int
    user_id: int
    game_id: str
    name: str
    code: str


@dataclass(frozen=True)
class MatchRow:
    id: int
    lobby_id: int | None
    guild_id: int | None
    channel_id: int
    game_id: str
    options: str
    seats: int
    seed: int
    status: str
    snapshot: str
    version: int
    board_message_id: int | None
    players: tuple[tuple[int, str], ...]  # (user id, name) by seat
    resigned: tuple[int, ...]  # seats
    dm_notice_sent: tuple[int, ...]  # seats
    bots: tuple[int, ...] = ()  # seats played by bots
    bot_levels: tuple[tuple[int, str], ...] = ()  # (seat, level)
    replaced: tuple[int, ...] = ()  # seats taken over by a bot after expiries
    clock: str = "correspondence"
    lobby_channel_id: int | None = None  # where its lobby opened (channel_id: where it plays)
    board_version: int | None = None  # the version its latest board shows (None: unknown)

    def record(self, actions: Sequence[tuple[int, int, str, str]]) -> MatchRecord:
        """The match's record (game, options, seats, seed and moves), which
        replays it: ``actions`` are its :meth:`Store.match_actions` rows."""
        return MatchRecord(
            game=self.game_id,
            options=json.loads(self.options),
            seats=self.seats,
            seed=self.seed,
            actions=tuple((seat, action) for _, seat, action, _ in actions),
        )


class LockedMatch:
    """A match's row held under the database's lock (:meth:`Store.locked_match`)."""

    def __init__(
        self, store: Store, db: Connection, match_id: int, version: int, status: str
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


class Store:
    """All database access of the host, over :mod:`bot.database`: SQLite (one
    connection on aiosqlite's thread, so the event loop never waits on the
    disk) or PostgreSQL (a pool). The SQL is written once for both."""

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

    # ---- users -----------------------------------------------------------------
    async def upsert_user(self, user_id: int, name: str, locale: str | None) -> None:
        await self._write(
            "INSERT INTO users (user_id, name, locale, updated_at) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET name = excluded.name,"
            " locale = COALESCE(excluded.locale, users.locale), updated_at = excluded.updated_at",
            (user_id, name, locale, now_iso()),
        )

    async def user_locale(self, user_id: int) -> str | None:
        row = await self.database.fetchone("SELECT locale FROM users WHERE user_id = ?", (user_id,))
        return None if row is None else row[0]

    async def user_state(self, user_id: int) -> tuple[str, str | None, bool] | None:
        """``(name, locale, dm_closed)`` of a user seen before, else None."""
        row = await self.database.fetchone(
            "SELECT name, locale, dm_closed FROM users WHERE user_id = ?", (user_id,)
        )
        return None if row is None else (str(row[0]), row[1], bool(row[2]))

    async def set_dm_closed(self, user_id: int, closed: bool) -> None:
        await self._write(
            "INSERT INTO users (user_id, name, updated_at, dm_closed) VALUES (?, '', ?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET dm_closed = excluded.dm_closed",
            (user_id, now_iso(), int(closed)),
        )

    async def dm_closed_users(self) -> set[int]:
        rows = await self.database.fetchall("SELECT user_id FROM users WHERE dm_closed = 1")
        return {int(r[0]) for r in rows}

    # ---- guilds -------------------------------------------------------------------
    async def guild_locale(self, guild_id: int) -> str | None:
        row = await self.database.fetchone(
            "SELECT locale FROM guild_settings WHERE guild_id = ?", (guild_id,)
        )
        return None if row is None else row[0]

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        """A server's settings (the defaults for a server never seen)."""
        row = await self.database.fetchone(
            "SELECT language, match_mode, lobby_channels, default_clock, bots_allowed,"
            " cancel_role_id, thread_notice FROM guild_settings WHERE guild_id = ?",
            (guild_id,),
        )
        if row is None:
            return GuildSettings(guild_id=guild_id)
        return GuildSettings(
            guild_id=guild_id,
            language=row[0],
            match_mode=row[1],
            lobby_channels=parse_channels(row[2]),
            default_clock=row[3],
            bots_allowed=bool(row[4]),
            cancel_role_id=row[5],
            thread_notice=bool(row[6]),
        )

    async def save_guild_settings(self, settings: GuildSettings) -> None:
        """Write every setting of a server (its Discord locale is left as it is)."""
        await self._write(
            "INSERT INTO guild_settings (guild_id, language, match_mode, lobby_channels,"
            " default_clock, bots_allowed, cancel_role_id, thread_notice)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET language = excluded.language,"
            " match_mode = excluded.match_mode, lobby_channels = excluded.lobby_channels,"
            " default_clock = excluded.default_clock, bots_allowed = excluded.bots_allowed,"
            " cancel_role_id = excluded.cancel_role_id, thread_notice = excluded.thread_notice",
            (
                settings.guild_id,
                settings.language,
                settings.match_mode,
                channels_text(settings.lobby_channels),
                settings.default_clock,
                int(settings.bots_allowed),
                settings.cancel_role_id,
                int(settings.thread_notice),
            ),
        )

    async def set_guild_locale(self, guild_id: int, locale: str | None) -> None:
        await self._write(
            "INSERT INTO guild_settings (guild_id, locale) VALUES (?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET locale = excluded.locale",
            (guild_id, locale),
        )

    # ---- lobbies ------------------------------------------------------------------
    async def create_lobby(
        self,
        guild_id: int | None,
        channel_id: int,
        game_id: str,
        host_id: int,
        seats: int,
        options: str,
    ) -> int:
        stamp = now_iso()
        async with self.transaction() as db:
            row = await db.fetchone(
                "INSERT INTO lobbies (guild_id, channel_id, game_id, host_id, seats, options,"
                " status, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, 'open', ?, ?)"
                " RETURNING id",
                (guild_id, channel_id, game_id, host_id, seats, options, stamp, stamp),
            )
            assert row is not None
            lobby_id = int(row[0])
            await db.execute(
                "INSERT INTO lobby_players (lobby_id, user_id, position, joined_at)"
                " VALUES (?, ?, 0, ?)",
                (lobby_id, host_id, stamp),
            )
        return lobby_id

    async def lobby(self, lobby_id: int) -> LobbyRow | None:
        row = await self.database.fetchone("SELECT * FROM lobbies WHERE id = ?", (lobby_id,))
        return None if row is None else await self._lobby_row(row)

    async def open_lobby_in(self, channel_id: int) -> LobbyRow | None:
        row = await self.database.fetchone(
            "SELECT * FROM lobbies WHERE channel_id = ? AND status = 'open'", (channel_id,)
        )
        return None if row is None else await self._lobby_row(row)

    async def open_lobbies(self) -> list[LobbyRow]:
        rows = await self.database.fetchall("SELECT * FROM lobbies WHERE status = 'open'")
        return [await self._lobby_row(r) for r in rows]

    async def _lobby_row(self, row: Any) -> LobbyRow:
        members = await self.database.fetchall(
            "SELECT user_id, bot_level, deck_name, deck FROM lobby_players WHERE lobby_id = ?"
            " ORDER BY position",
            (row["id"],),
        )
        players = tuple(int(r[0]) for r in members)
        bots = tuple((int(r[0]), str(r[1])) for r in members if r[1] is not None)
        decks = tuple((int(r[0]), str(r[2]), str(r[3])) for r in members if r[3] is not None)
        return LobbyRow(
            id=row["id"],
            guild_id=row["guild_id"],
            channel_id=row["channel_id"],
            game_id=row["game_id"],
            host_id=row["host_id"],
            seats=row["seats"],
            options=row["options"],
            status=row["status"],
            message_id=row["message_id"],
            players=players,
            bots=bots,
            clock=row["clock"],
            created_epoch=float(row["created_epoch"]),
            decks=decks,
        )

    async def add_lobby_player(
        self, lobby_id: int, user_id: int, bot_level: str | None = None
    ) -> None:
        await self._write(
            "INSERT INTO lobby_players (lobby_id, user_id, position, joined_at, bot_level)"
            " VALUES (?, ?, (SELECT COALESCE(MAX(position), -1) + 1 FROM lobby_players"
            " WHERE lobby_id = ?), ?, ?)",
            (lobby_id, user_id, lobby_id, now_iso(), bot_level),
        )

    async def set_lobby_deck(
        self, lobby_id: int, user_id: int, name: str | None, code: str | None
    ) -> None:
        """The deck a seated player chose (its name and code, copied); None: none."""
        await self._write(
            "UPDATE lobby_players SET deck_name = ?, deck = ? WHERE lobby_id = ? AND user_id = ?",
            (name, code, lobby_id, user_id),
        )

    # ---- decks ----------------------------------------------------------------------
    async def save_deck(
        self, user_id: int, game_id: str, name: str, name_key: str, code: str
    ) -> tuple[DeckRow, bool]:
        """Create the user's deck, or replace the one of the same (folded)
        name; True when it replaced one."""
        stamp = now_iso()
        async with self.transaction() as db:
            old = await db.fetchone(
                "SELECT id FROM decks WHERE user_id = ? AND game_id = ? AND name_key = ?",
                (user_id, game_id, name_key),
            )
            if old is None:
                row = await db.fetchone(
                    "INSERT INTO decks (user_id, game_id, name, name_key, code, created_at,"
                    " updated_at) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
                    (user_id, game_id, name, name_key, code, stamp, stamp),
                )
                assert row is not None
                deck_id = int(row[0])
            else:
                deck_id = int(old[0])
                await db.execute(
                    "UPDATE decks SET name = ?, code = ?, updated_at = ? WHERE id = ?",
                    (name, code, stamp, deck_id),
                )
        return DeckRow(deck_id, user_id, game_id, name, code), old is not None

    async def user_decks(self, user_id: int, game_id: str) -> list[DeckRow]:
        """The user's decks of a game, by name."""
        rows = await self.database.fetchall(
            "SELECT id, user_id, game_id, name, code FROM decks"
            " WHERE user_id = ? AND game_id = ? ORDER BY name_key",
            (user_id, game_id),
        )
        return [DeckRow(int(r[0]), int(r[1]), str(r[2]), str(r[3]), str(r[4])) for r in rows]

    async def user_deck(self, user_id: int, game_id: str, name_key: str) -> DeckRow | None:
        r = await self.database.fetchone(
            "SELECT id, user_id, game_id, name, code FROM decks"
            " WHERE user_id = ? AND game_id = ? AND name_key = ?",
            (user_id, game_id, name_key),
        )
        return None if r is None else DeckRow(int(r[0]), int(r[1]), str(r[2]), str(r[3]), str(r[4]))

    async def count_decks(self, user_id: int, game_id: str) -> int:
        row = await self.database.fetchone(
            "SELECT COUNT(*) FROM decks WHERE user_id = ? AND game_id = ?", (user_id, game_id)
        )
        return int(row[0]) if row else 0

    async def delete_deck(self, deck_id: int) -> None:
        await self._write("DELETE FROM decks WHERE id = ?", (deck_id,))

    async def set_lobby_clock(self, lobby_id: int, clock: str, created_epoch: float) -> None:
        await self._write(
            "UPDATE lobbies SET clock = ?, created_epoch = ? WHERE id = ?",
            (clock, created_epoch, lobby_id),
        )

    async def set_lobby_rules(self, lobby_id: int, seats: int, options: str, clock: str) -> None:
        """A lobby's seats, options text and clock, changed by its host before the start."""
        await self._write(
            "UPDATE lobbies SET seats = ?, options = ?, clock = ?, updated_at = ? WHERE id = ?",
            (seats, options, clock, now_iso(), lobby_id),
        )

    async def latest_lobby_in(self, channel_id: int) -> LobbyRow | None:
        """The channel's most recent lobby, whatever its status."""
        row = await self.database.fetchone(
            "SELECT * FROM lobbies WHERE channel_id = ? ORDER BY id DESC LIMIT 1", (channel_id,)
        )
        return None if row is None else await self._lobby_row(row)

    async def stamp_old_lobbies(self, epoch: float, shards: ShardSet | None = None) -> None:
        """Lobbies opened before the clock existed start their life now (those
        of the servers ``shards`` owns; None: all)."""
        owned, params = _owned(shards, "guild_id")
        await self._write(
            "UPDATE lobbies SET created_epoch = ? WHERE created_epoch = 0 AND status = 'open'"
            f" AND {owned}",
            (epoch, *params),
        )

    async def expire_lobbies(
        self, now: float, ttl: float, shards: ShardSet | None = None
    ) -> list[LobbyRow]:
        """Cancel the open lobbies older than ``ttl`` seconds of the servers
        ``shards`` owns, and return those this call closed (so each is
        announced once, whichever process runs it)."""
        owned, params = _owned(shards, "guild_id")
        rows = await self.database.fetch_write(
            "UPDATE lobbies SET status = 'cancelled', updated_at = ?"
            " WHERE status = 'open' AND created_epoch > 0 AND created_epoch <= ?"
            f" AND {owned} RETURNING *",
            (now_iso(), now - ttl, *params),
        )
        closed = [await self._lobby_row(r) for r in rows]
        return sorted(closed, key=lambda lobby: lobby.id)

    async def remove_lobby_player(self, lobby_id: int, user_id: int) -> None:
        await self._write(
            "DELETE FROM lobby_players WHERE lobby_id = ? AND user_id = ?", (lobby_id, user_id)
        )

    async def set_lobby_host(self, lobby_id: int, host_id: int) -> None:
        await self._write("UPDATE lobbies SET host_id = ? WHERE id = ?", (host_id, lobby_id))

    async def set_lobby_status(self, lobby_id: int, status: str) -> None:
        await self._write(
            "UPDATE lobbies SET status = ?, updated_at = ? WHERE id = ?",
            (status, now_iso(), lobby_id),
        )

    async def set_lobby_message(self, lobby_id: int, message_id: int | None) -> None:
        await self._write("UPDATE lobbies SET message_id = ? WHERE id = ?", (message_id, lobby_id))

    # ---- matches --------------------------------------------------------------------
    async def create_match(
        self,
        *,
        lobby_id: int | None,
        guild_id: int | None,
        channel_id: int,
        game_id: str,
        options: str,
        seats: int,
        seed: int,
        seed_sha256: str,
        engine_version: str,
        snapshot: str,
        players: Sequence[tuple[int, str]],
        bot_levels: Mapping[int, str] | None = None,
        clock: str = "correspondence",
    ) -> int:
        """Create the match (and close its lobby) in one transaction.
        ``bot_levels`` maps the seats played by bots to their level. The
        match plays in ``channel_id`` (its lobby's channel) until
        :meth:`move_match` moves it to its thread."""
        stamp = now_iso()
        async with self.transaction() as db:
            row = await db.fetchone(
                "INSERT INTO matches (lobby_id, guild_id, channel_id, lobby_channel_id, game_id,"
                " options, seats, seed, seed_sha256, engine_version, status, snapshot, version,"
                " created_at, updated_at, clock)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'active', ?, 0, ?, ?, ?) RETURNING id",
                (
                    lobby_id,
                    guild_id,
                    channel_id,
                    channel_id,
                    game_id,
                    options,
                    seats,
                    str(seed),
                    seed_sha256,
                    engine_version,
                    snapshot,
                    stamp,
                    stamp,
                    clock,
                ),
            )
            assert row is not None
            match_id = int(row[0])
            levels = bot_levels or {}
            await db.executemany(
                "INSERT INTO match_players (match_id, seat, user_id, name, is_bot, bot_level)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                [
                    (match_id, seat, uid, name, int(seat in levels), levels.get(seat))
                    for seat, (uid, name) in enumerate(players)
                ],
            )
            if lobby_id is not None:
                await db.execute(
                    "UPDATE lobbies SET status = 'started', updated_at = ? WHERE id = ?",
                    (stamp, lobby_id),
                )
        return match_id

    async def commit_action(
        self,
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
    ) -> None:
        """One transaction: append the action, write the snapshot, bump the
        version (only if it still is ``expected_version``), and, when the
        game ended, the result, each seat's place and the new ratings."""
        async with self.transaction() as db:
            await self._commit_action(
                db,
                match_id,
                expected_version=expected_version,
                seat=seat,
                action=action,
                events=events,
                snapshot=snapshot,
                status=status,
                result=result,
                guild_id=guild_id,
                game_id=game_id,
                resigned_seat=resigned_seat,
                finished=finished,
            )

    @contextlib.asynccontextmanager
    async def locked_match(self, match_id: int) -> AsyncIterator[LockedMatch]:
        """The match's row under the database's lock, in one transaction:
        ``.version`` and ``.status`` as the database has them now, and
        ``await .commit_action(...)`` written in that transaction. Leaving the
        block commits, an exception rolls back. Keep it short (no Discord
        call, no worker, no sleep): every other writer waits. Plain reads of
        the store are fine inside; no other write of the store (on SQLite it
        would wait for this very lock). ``KeyError`` if there is no such match."""
        async with self.transaction() as db:
            # PostgreSQL: the row's lock, to the end of the transaction; SQLite:
            # BEGIN IMMEDIATE locked the whole database already
            lock = " FOR UPDATE" if db.dialect == "postgres" else ""
            row = await db.fetchone(
                f"SELECT version, status FROM matches WHERE id = ?{lock}", (match_id,)
            )
            if row is None:
                raise KeyError(match_id)
            yield LockedMatch(self, db, match_id, int(row[0]), str(row[1]))

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
    ) -> None:
        stamp = now_iso()
        new_version = expected_version + 1
        changed = await db.execute(
            "UPDATE matches SET snapshot = ?, version = ?, status = ?, updated_at = ?,"
            " finished_at = CASE WHEN ? = 'active' THEN NULL ELSE ? END"
            " WHERE id = ? AND version = ? AND status = 'active'",
            (snapshot, new_version, status, stamp, status, stamp, match_id, expected_version),
        )
        if changed != 1:
            raise StaleWrite(f"match {match_id} is not at version {expected_version}")
        await db.execute(
            "INSERT INTO match_actions (match_id, version, seat, action, events, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (match_id, new_version, seat, action, json.dumps(events), stamp),
        )
        if resigned_seat is not None:
            await db.execute(
                "UPDATE match_players SET resigned = 1 WHERE match_id = ? AND seat = ?",
                (match_id, resigned_seat),
            )
        if result is not None:
            ranking, reason = result
            seats = finished.seats if finished is not None else ()
            if db.dialect == "postgres":
                # finishing transactions take turns from here to their commit:
                # the finishing order is the order their ratings were computed in
                await db.execute("SELECT pg_advisory_xact_lock(?)", (RATINGS_LOCK,))
                next_seq = "nextval('results_finish_seq')"
            else:
                # one writer at a time (BEGIN IMMEDIATE)
                next_seq = "(SELECT COALESCE(MAX(finish_seq), 0) + 1 FROM results)"
            await db.execute(
                "INSERT INTO results (match_id, guild_id, game_id, ranking, reason,"
                " finished_at, seats, with_bots, rated, finish_seq, undos) VALUES"
                f" (?, ?, ?, ?, ?, ?, ?, ?, 1, {next_seq},"
                " (SELECT COUNT(*) FROM match_actions WHERE match_id = ? AND action = ?))",
                (
                    match_id,
                    guild_id,
                    game_id,
                    ranking,
                    reason,
                    stamp,
                    len(seats),
                    int(any(x.is_bot for x in seats)),
                    match_id,
                    UNDO,
                ),
            )
            if finished is not None:
                await self._write_result_players(db, finished)
                await self._rate(db, finished, stamp)
        if db.dialect == "postgres":
            # delivered to the listeners when the transaction commits
            await db.execute("SELECT pg_notify(?, ?)", (MOVES_CHANNEL, f"{match_id}:{new_version}"))

    async def _write_result_players(self, db: Connection, finished: ratings.FinishedMatch) -> None:
        await db.executemany(
            "INSERT INTO result_players (match_id, seat, user_id, place, resigned, is_bot)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            [
                (finished.match_id, seat, r.user_id, r.place, int(r.resigned), int(r.is_bot))
                for seat, r in enumerate(finished.seats)
            ],
        )

    async def _rate(self, db: Connection, finished: ratings.FinishedMatch, stamp: str) -> None:
        """Update the ratings of one finished match (inside its transaction)."""
        table: dict[ratings.Key, ratings.Rating] = {}
        pool = ratings.pool_of(finished.seats)
        for scope in ratings.scopes(finished.guild_id):
            for seat in finished.seats:
                row = await db.fetchone(
                    "SELECT mu, sigma, games, wins FROM ratings WHERE scope = ? AND game_id = ?"
                    " AND pool = ? AND user_id = ?",
                    (scope, finished.game_id, pool, seat.user_id),
                )
                if row is not None and not seat.is_bot:
                    table[(scope, finished.game_id, pool, seat.user_id)] = ratings.Rating(
                        float(row[0]), float(row[1]), int(row[2]), int(row[3])
                    )
        changed = ratings.apply_match(table, finished)
        await self._write_ratings(db, finished.match_id, changed, stamp)

    async def _write_ratings(
        self,
        db: Connection,
        match_id: int,
        changed: Sequence[tuple[ratings.Key, ratings.Rating]],
        stamp: str,
    ) -> None:
        await db.executemany(
            "INSERT INTO ratings (scope, game_id, pool, user_id, mu, sigma, games, wins,"
            " updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT"
            " (scope, game_id, pool, user_id) DO UPDATE SET mu = excluded.mu,"
            " sigma = excluded.sigma, games = excluded.games, wins = excluded.wins,"
            " updated_at = excluded.updated_at",
            [(*key, r.mu, r.sigma, r.games, r.wins, stamp) for key, r in changed],
        )
        await db.executemany(
            "INSERT INTO rating_history (match_id, scope, game_id, pool, user_id, mu, sigma, at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [(match_id, *key, r.mu, r.sigma, stamp) for key, r in changed],
        )

    async def finished_matches(self) -> list[ratings.FinishedMatch]:
        """Every rated result, in the order the matches finished."""
        return await self._finished_matches(self.database)

    async def _finished_matches(self, db: Connection) -> list[ratings.FinishedMatch]:
        rows = await db.fetchall(
            "SELECT r.match_id, r.guild_id, r.game_id, p.seat, p.user_id, p.place, p.resigned,"
            " p.is_bot FROM results r JOIN result_players p ON p.match_id = r.match_id"
            " WHERE r.rated = 1 ORDER BY r.finish_seq, r.match_id, p.seat"
        )
        out: list[ratings.FinishedMatch] = []
        current: list[ratings.SeatResult] = []
        head: tuple[int, int | None, str] | None = None
        for row in rows:
            key = (int(row[0]), row[1], str(row[2]))
            if head is not None and key != head:
                out.append(ratings.FinishedMatch(head[0], head[1], head[2], tuple(current)))
                current = []
            head = key
            current.append(ratings.SeatResult(int(row[4]), int(row[5]), bool(row[6]), bool(row[7])))
        if head is not None:
            out.append(ratings.FinishedMatch(head[0], head[1], head[2], tuple(current)))
        return out

    async def recompute_ratings(self) -> int:
        """Throw the ratings away and rebuild them from the stored results."""
        async with self.transaction() as db:
            if db.dialect == "postgres":
                # no match finishes meanwhile (the finishing transactions wait)
                await db.execute("SELECT pg_advisory_xact_lock(?)", (RATINGS_LOCK,))
            matches = await self._finished_matches(db)
            await db.execute("DELETE FROM ratings")
            await db.execute("DELETE FROM rating_history")
            table: dict[ratings.Key, ratings.Rating] = {}
            for match in matches:
                row = await db.fetchone(
                    "SELECT finished_at FROM results WHERE match_id = ?", (match.match_id,)
                )
                stamp = str(row[0]) if row else now_iso()
                changed = ratings.apply_match(table, match)
                await self._write_ratings(db, match.match_id, changed, stamp)
        return len(matches)

    async def all_ratings(self) -> dict[ratings.Key, tuple[float, float, int, int]]:
        rows = await self.database.fetchall(
            "SELECT scope, game_id, pool, user_id, mu, sigma, games, wins FROM ratings"
        )
        return {
            (str(r[0]), str(r[1]), str(r[2]), int(r[3])): (
                float(r[4]),
                float(r[5]),
                int(r[6]),
                int(r[7]),
            )
            for r in rows
        }

    async def leaderboard(
        self, scope: str, game_id: str, pool: str, offset: int, limit: int
    ) -> tuple[list[tuple[int, str, float, float, int, int]], int]:
        """``(user id, name, mu, sigma, games, wins)`` best first, and the total."""
        row = await self.database.fetchone(
            "SELECT COUNT(*) FROM ratings WHERE scope = ? AND game_id = ? AND pool = ?",
            (scope, game_id, pool),
        )
        total = int(row[0]) if row else 0
        rows = await self.database.fetchall(
            "SELECT r.user_id, COALESCE(u.name, ''), r.mu, r.sigma, r.games, r.wins"
            " FROM ratings r LEFT JOIN users u ON u.user_id = r.user_id"
            " WHERE r.scope = ? AND r.game_id = ? AND r.pool = ?"
            " ORDER BY (r.mu - 3 * r.sigma) DESC, r.games DESC, r.user_id LIMIT ? OFFSET ?",
            (scope, game_id, pool, limit, offset),
        )
        return [
            (int(r[0]), str(r[1]), float(r[2]), float(r[3]), int(r[4]), int(r[5])) for r in rows
        ], total

    async def user_ratings(
        self, user_id: int, scope: str
    ) -> list[tuple[str, str, float, float, int, int]]:
        """``(game, pool, mu, sigma, games, wins)`` of a user in a scope."""
        rows = await self.database.fetchall(
            "SELECT game_id, pool, mu, sigma, games, wins FROM ratings"
            " WHERE user_id = ? AND scope = ? ORDER BY game_id, pool",
            (user_id, scope),
        )
        return [
            (str(r[0]), str(r[1]), float(r[2]), float(r[3]), int(r[4]), int(r[5])) for r in rows
        ]

    async def user_record(
        self, user_id: int, guild_id: int | None
    ) -> list[tuple[str, int, int, float]]:
        """``(game, played, won, average place)`` over finished matches."""
        where = "p.user_id = ?"
        params: list[Any] = [user_id]
        if guild_id is not None:
            where += " AND r.guild_id = ?"
            params.append(guild_id)
        rows = await self.database.fetchall(
            "SELECT r.game_id, COUNT(*), SUM(CASE WHEN p.place = 1 THEN 1 ELSE 0 END),"
            " AVG(p.place) FROM result_players p JOIN results r ON r.match_id = p.match_id"
            f" WHERE {where} GROUP BY r.game_id ORDER BY r.game_id",
            params,
        )
        return [(str(r[0]), int(r[1]), int(r[2] or 0), float(r[3] or 0)) for r in rows]

    async def rating_series(
        self, user_id: int, game_id: str, scope: str, pool: str = "humans"
    ) -> list[tuple[str, float, float]]:
        """``(when, mu, sigma)`` after each rated match, oldest first."""
        rows = await self.database.fetchall(
            "SELECT at, mu, sigma FROM rating_history WHERE user_id = ? AND game_id = ?"
            " AND scope = ? AND pool = ? ORDER BY id",
            (user_id, game_id, scope, pool),
        )
        return [(str(r[0]), float(r[1]), float(r[2])) for r in rows]

    async def recent_results(
        self,
        *,
        user_id: int | None = None,
        game_id: str | None = None,
        guild_id: int | None = None,
        limit: int = 10,
    ) -> list[tuple[int, str, str, str, list[tuple[int, str, int, bool, bool]]]]:
        """Recent finished matches, newest first:
        ``(match id, game, reason, finished at, [(user, name, place, resigned, bot)])``."""
        clauses = []
        params: list[Any] = []
        if user_id is not None:
            clauses.append("r.match_id IN (SELECT match_id FROM result_players WHERE user_id = ?)")
            params.append(user_id)
        if game_id is not None:
            clauses.append("r.game_id = ?")
            params.append(game_id)
        if guild_id is not None:
            clauses.append("r.guild_id = ?")
            params.append(guild_id)
        where = ("WHERE " + " AND ".join(clauses)) if clauses else ""
        heads = await self.database.fetchall(
            f"SELECT r.match_id, r.game_id, r.reason, r.finished_at FROM results r {where}"
            " ORDER BY r.finish_seq DESC LIMIT ?",
            (*params, limit),
        )
        out = []
        for head in heads:
            rows = await self.database.fetchall(
                "SELECT p.user_id, COALESCE(mp.name, ''), p.place, p.resigned, p.is_bot"
                " FROM result_players p LEFT JOIN match_players mp ON mp.match_id = p.match_id"
                " AND mp.seat = p.seat WHERE p.match_id = ? ORDER BY p.place, p.seat",
                (head[0],),
            )
            seats = [(int(r[0]), str(r[1]), int(r[2]), bool(r[3]), bool(r[4])) for r in rows]
            out.append((int(head[0]), str(head[1]), str(head[2]), str(head[3]), seats))
        return out

    # ---- undo by consent (issue 16, bot/undo.py) --------------------------------------
    async def undo_counts(self, match_ids: Sequence[int]) -> dict[int, int]:
        """``{match id: moves taken back}`` of finished matches (``results.undos``)."""
        if not match_ids:
            return {}
        marks = ", ".join("?" for _ in match_ids)
        rows = await self.database.fetchall(
            f"SELECT match_id, undos FROM results WHERE match_id IN ({marks})", tuple(match_ids)
        )
        return {int(r[0]): int(r[1]) for r in rows}

    async def undo_requests(self) -> list[tuple[int, int, int, int, str, str, float, int]]:
        """Every waiting take-back request: ``(match, version, seat, user,
        asked, accepted, deadline, message id)``."""
        rows = await self.database.fetchall(
            "SELECT match_id, version, seat, user_id, asked, accepted, deadline, message_id"
            " FROM undo_requests"
        )
        return [
            (
                int(r[0]),
                int(r[1]),
                int(r[2]),
                int(r[3]),
                str(r[4]),
                str(r[5]),
                float(r[6]),
                int(r[7]),
            )
            for r in rows
        ]

    async def save_undo_request(
        self,
        match_id: int,
        *,
        version: int,
        seat: int,
        user_id: int,
        asked: str,
        accepted: str,
        deadline: float,
        message_id: int,
    ) -> None:
        async with self.transaction() as db:
            await db.execute(
                "INSERT INTO undo_requests (match_id, version, seat, user_id, asked, accepted,"
                " deadline, message_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (match_id)"
                " DO UPDATE SET version = excluded.version, seat = excluded.seat,"
                " user_id = excluded.user_id, asked = excluded.asked,"
                " accepted = excluded.accepted, deadline = excluded.deadline,"
                " message_id = excluded.message_id",
                (match_id, version, seat, user_id, asked, accepted, deadline, message_id),
            )

    async def drop_undo_request(self, match_id: int) -> None:
        async with self.transaction() as db:
            await db.execute("DELETE FROM undo_requests WHERE match_id = ?", (match_id,))

    # ---- spectators (bot/spectators.py) -----------------------------------------------
    async def watcher_rows(self) -> list[tuple[int, int, str, str]]:
        """``(match id, user id, since, the match's status)`` of every
        spectator, oldest first."""
        rows = await self.database.fetchall(
            "SELECT w.match_id, w.user_id, w.since, m.status FROM watchers w"
            " JOIN matches m ON m.id = w.match_id ORDER BY w.since"
        )
        return [(int(r[0]), int(r[1]), str(r[2]), str(r[3])) for r in rows]

    async def match_watchers(self, match_id: int) -> list[tuple[int, str]]:
        """``(user id, since)`` of a match's spectators, oldest first (read
        through by processes that did not record them)."""
        rows = await self.database.fetchall(
            "SELECT user_id, since FROM watchers WHERE match_id = ? ORDER BY since, user_id",
            (match_id,),
        )
        return [(int(r[0]), str(r[1])) for r in rows]

    # ---- the turn clock ---------------------------------------------------------------
    async def clocks(self, match_id: int) -> dict[int, tuple[float, float, float, bool, bool, int]]:
        """``{seat: (since, per_move, bank, pending, reminded, expiries)}``
        (read after every action: one trip to the database's thread, not
        three for a cursor, its rows and its closing)."""
        return await _read_clocks(self.database, match_id)

    async def due_clocks(self, now: float) -> list[tuple[int, int, float, float, float, bool, int]]:
        """Every pending clock of an active match that is due at ``now`` (its
        deadline passed, or half of it with no reminder yet), in one query:
        ``[(match_id, seat, since, per_move, bank, reminded, expiries)]``."""
        rows = await self.database.fetchall(
            "SELECT c.match_id, c.seat, c.since, c.per_move, c.bank, c.reminded, c.expiries"
            " FROM clocks c JOIN matches m ON m.id = c.match_id"
            " WHERE c.pending = 1 AND m.status = 'active'"
            " AND (? >= c.since + c.per_move + c.bank"
            " OR (c.reminded = 0 AND ? >= c.since + (c.per_move + c.bank) / 2))"
            " ORDER BY c.match_id, c.seat",
            (now, now),
        )
        return [
            (int(r[0]), int(r[1]), float(r[2]), float(r[3]), float(r[4]), bool(r[5]), int(r[6]))
            for r in rows
        ]

    async def claim_due_clocks(
        self, now: float, shards: ShardSet | None = None, lease: float = 30.0
    ) -> list[tuple[int, int, float, float, float, bool, int]]:
        """The pending clocks of the owned active matches whose ``deadline``
        passed, claimed in one statement: their deadline moves to ``now +
        lease``, so another process (or this one's next tick) does not handle
        them again meanwhile; the host's next :meth:`set_clock` writes the
        real deadline. ``[(match_id, seat, since, per_move, bank, reminded,
        expiries)]`` by match and seat."""
        owned, params = _owned(shards, "m.guild_id")
        skip = " FOR UPDATE OF c SKIP LOCKED" if self.dialect == "postgres" else ""
        rows = await self.database.fetch_write(
            "UPDATE clocks SET deadline = ? WHERE (match_id, seat) IN ("
            " SELECT c.match_id, c.seat FROM clocks c JOIN matches m ON m.id = c.match_id"
            " WHERE c.pending = 1 AND c.deadline <= ? AND m.status = 'active'"
            f" AND {owned}{skip})"
            " RETURNING match_id, seat, since, per_move, bank, reminded, expiries",
            (now + lease, now, *params),
        )
        return sorted(
            (int(r[0]), int(r[1]), float(r[2]), float(r[3]), float(r[4]), bool(r[5]), int(r[6]))
            for r in rows
        )

    async def remind_clock(self, match_id: int, seat: int, since: float) -> bool:
        """:meth:`LockedMatch.remind` under the match's lock: False if the
        clock is no longer the pending, unreminded one that started at
        ``since`` in an active match. On SQLite one statement: it takes the
        write lock that every :meth:`locked_match` holds (``BEGIN
        IMMEDIATE``), so no move's transaction runs between its check and its
        write; PostgreSQL takes the match's row lock."""
        if self.dialect == "sqlite":
            changed = await self.database.execute(
                f"{_REMIND} AND match_id IN (SELECT id FROM matches WHERE id = ?"
                " AND status = 'active')",
                (match_id, seat, since, match_id),
            )
            return changed == 1
        async with self.locked_match(match_id) as locked:
            return await locked.remind(seat, since)

    async def set_clock(
        self,
        match_id: int,
        seat: int,
        *,
        since: float,
        per_move: float,
        bank: float,
        pending: bool,
        reminded: bool,
        expiries: int,
    ) -> None:
        await self._write(
            _SET_CLOCK,
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
            ),
        )

    async def set_clocks(
        self, match_id: int, rows: Mapping[int, tuple[float, float, float, bool, bool, int]]
    ) -> None:
        """Several seats' clocks at once ``{seat: (since, per_move, bank,
        pending, reminded, expiries)}``: one statement, one commit."""
        await _write_clocks(self.database, match_id, rows)

    async def set_replaced(self, match_id: int, seat: int) -> None:
        await self._write(
            "UPDATE match_players SET replaced = 1, bot_level = 'normal'"
            " WHERE match_id = ? AND seat = ?",
            (match_id, seat),
        )

    @overload
    async def heartbeat(self, epoch: float) -> float | None: ...

    @overload
    async def heartbeat(self, epoch: float, shards: ShardSet) -> dict[int, float | None]: ...

    async def heartbeat(
        self, epoch: float, shards: ShardSet | None = None
    ) -> float | dict[int, float | None] | None:
        """Record that the host is alive now and return the previous beat.

        With ``shards``: a beat for each shard id the set owns (under its
        shard count), and ``{shard id: previous beat}``; a shard never seen
        under this count falls back to the newest beat of any shard layout,
        then to the single host's beat (``host_state``), then None. Without
        (one process, the old call): the single host's beat."""
        if shards is None:
            row = await self.database.fetchone(
                "SELECT value FROM host_state WHERE key = 'alive_at'"
            )
            await self._write(
                "INSERT INTO host_state (key, value) VALUES ('alive_at', ?)"
                " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (repr(epoch),),
            )
            return None if row is None else float(row[0])
        ids = sorted(shards.ids)
        async with self.transaction() as db:
            rows = await db.fetchall(
                "SELECT shard_id, alive_at FROM shard_heartbeats WHERE shard_count = ?",
                (shards.count,),
            )
            mine = {int(r[0]): float(r[1]) for r in rows}
            fallback: float | None = None
            if any(i not in mine for i in ids):
                row = await db.fetchone("SELECT MAX(alive_at) FROM shard_heartbeats")
                if row is not None and row[0] is not None:
                    fallback = float(row[0])
                else:
                    row = await db.fetchone("SELECT value FROM host_state WHERE key = 'alive_at'")
                    fallback = None if row is None else float(row[0])
            await db.executemany(
                "INSERT INTO shard_heartbeats (shard_count, shard_id, alive_at) VALUES (?, ?, ?)"
                " ON CONFLICT (shard_count, shard_id) DO UPDATE SET alive_at = excluded.alive_at",
                [(shards.count, i, epoch) for i in ids],
            )
        return {i: mine.get(i, fallback) for i in ids}

    async def shift_clocks(self, seconds: float, shards: ShardSet | None = None) -> None:
        """Freeze the clocks over a downtime: the pending decisions of the
        active matches ``shards`` owns (None: all) start later."""
        owned, params = _owned(shards, "m.guild_id")
        await self._write(
            "UPDATE clocks SET since = since + ?, deadline = deadline + ? WHERE pending = 1"
            " AND match_id IN (SELECT m.id FROM matches m WHERE m.status = 'active'"
            f" AND {owned})",
            (seconds, seconds, *params),
        )

    async def listen_moves(
        self, callback: Callable[[int, int | None], Awaitable[None] | None], *, retry: float = 1.0
    ) -> Callable[[], Awaitable[None]]:
        """Call ``callback(match_id, version)`` (version None: cancelled) for
        each move committed by any process (this one's too), from the event
        loop, and return the async function that stops listening.

        PostgreSQL: ``LISTEN gueridon_moves`` on a connection of its own,
        connecting again every ``retry`` seconds if it drops (moves committed
        meanwhile are not heard: the owner's sweep finds them). SQLite has one
        process, which sees its own moves: nothing to listen to."""
        database = self.database
        if not isinstance(database, PostgresDatabase):

            async def stop() -> None:
                return None

            return stop

        async def heard(payload: str) -> None:
            match_id, _, version = payload.partition(":")
            try:
                parsed = (int(match_id), None if version == "cancelled" else int(version))
            except ValueError:
                log.warning("unreadable move notification %r", payload)
                return
            result = callback(*parsed)
            if inspect.isawaitable(result):
                await result

        return await database.listen(MOVES_CHANNEL, heard, retry=retry)

    async def cancel_match(self, match_id: int) -> None:
        async with self.transaction() as db:
            cancelled = await db.execute(
                "UPDATE matches SET status = 'cancelled', updated_at = ?, finished_at = ?"
                " WHERE id = ? AND status = 'active'",
                (now_iso(), now_iso(), match_id),
            )
            if cancelled and db.dialect == "postgres":
                await db.execute("SELECT pg_notify(?, ?)", (MOVES_CHANNEL, f"{match_id}:cancelled"))

    async def move_match(self, match_id: int, channel_id: int) -> None:
        """The match plays in ``channel_id`` from now on (its thread)."""
        await self._write("UPDATE matches SET channel_id = ? WHERE id = ?", (channel_id, match_id))

    async def set_board_message(self, match_id: int, message_id: int, version: int) -> None:
        """Where the match's latest board went, and the version it shows
        (a board of an older version, posted late by another process, does
        not replace a newer one)."""
        await self._write(
            "UPDATE matches SET board_message_id = ?, board_version = ? WHERE id = ?"
            " AND (board_version IS NULL OR board_version <= ?)",
            (message_id, version, match_id, version),
        )

    async def set_dm_notice_sent(self, match_id: int, seat: int) -> None:
        await self._write(
            "UPDATE match_players SET dm_notice_sent = 1 WHERE match_id = ? AND seat = ?",
            (match_id, seat),
        )

    async def match(self, match_id: int) -> MatchRow | None:
        row = await self.database.fetchone("SELECT * FROM matches WHERE id = ?", (match_id,))
        return None if row is None else await self._match_row(row)

    async def match_state(self, match_id: int) -> tuple[int, str] | None:
        """``(version, status)`` of a match (None: no such match): the cheap
        check of whether a match in memory is behind the database."""
        row = await self.database.fetchone(
            "SELECT version, status FROM matches WHERE id = ?", (match_id,)
        )
        return None if row is None else (int(row[0]), str(row[1]))

    async def user_active_matches(self, user_id: int) -> list[int]:
        """The ids of the active matches where ``user_id`` holds a seat,
        newest first, whichever process owns them (direct-message commands
        on shard 0's process)."""
        rows = await self.database.fetchall(
            "SELECT DISTINCT m.id FROM matches m JOIN match_players p ON p.match_id = m.id"
            " WHERE p.user_id = ? AND m.status = 'active' ORDER BY m.id DESC",
            (user_id,),
        )
        return [int(r[0]) for r in rows]

    async def active_matches(self, shards: ShardSet | None = None) -> list[MatchRow]:
        """The active matches whose server ``shards`` owns (None: all)."""
        owned, params = _owned(shards, "guild_id")
        rows = await self.database.fetchall(
            f"SELECT * FROM matches WHERE status = 'active' AND {owned} ORDER BY id", params
        )
        return [await self._match_row(r) for r in rows]

    async def active_versions(self, shards: ShardSet | None = None) -> dict[int, int]:
        """``{match id: version}`` of the active matches ``shards`` owns: the
        sweep that finds moves other processes made."""
        owned, params = _owned(shards, "guild_id")
        rows = await self.database.fetchall(
            f"SELECT id, version FROM matches WHERE status = 'active' AND {owned}", params
        )
        return {int(r[0]): int(r[1]) for r in rows}

    async def _match_row(self, row: Any) -> MatchRow:
        seats = await self.database.fetchall(
            "SELECT seat, user_id, name, resigned, dm_notice_sent, is_bot, bot_level, replaced"
            " FROM match_players"
            " WHERE match_id = ? ORDER BY seat",
            (row["id"],),
        )
        return MatchRow(
            id=row["id"],
            lobby_id=row["lobby_id"],
            guild_id=row["guild_id"],
            channel_id=row["channel_id"],
            game_id=row["game_id"],
            options=row["options"],
            seats=row["seats"],
            seed=int(row["seed"]),
            status=row["status"],
            snapshot=row["snapshot"],
            version=row["version"],
            board_message_id=row["board_message_id"],
            board_version=row["board_version"],
            players=tuple((int(s["user_id"]), str(s["name"])) for s in seats),
            resigned=tuple(int(s["seat"]) for s in seats if s["resigned"]),
            dm_notice_sent=tuple(int(s["seat"]) for s in seats if s["dm_notice_sent"]),
            bots=tuple(int(s["seat"]) for s in seats if s["is_bot"] or s["replaced"]),
            bot_levels=tuple(
                (int(s["seat"]), str(s["bot_level"] or "normal"))
                for s in seats
                if s["is_bot"] or s["replaced"]
            ),
            replaced=tuple(int(s["seat"]) for s in seats if s["replaced"]),
            clock=row["clock"],
            lobby_channel_id=row["lobby_channel_id"],
        )

    async def match_actions(self, match_id: int) -> list[tuple[int, int, str, str]]:
        """``(version, seat, action, events_json)`` in order."""
        rows = await self.database.fetchall(
            "SELECT version, seat, action, events FROM match_actions WHERE match_id = ?"
            " ORDER BY version",
            (match_id,),
        )
        return [(int(r[0]), int(r[1]), str(r[2]), str(r[3])) for r in rows]

    async def result(self, match_id: int) -> tuple[str, str] | None:
        row = await self.database.fetchone(
            "SELECT ranking, reason FROM results WHERE match_id = ?", (match_id,)
        )
        return None if row is None else (str(row[0]), str(row[1]))

    async def set_seat_message(
        self, match_id: int, seat: int, channel_id: int, message_id: int, version: int
    ) -> None:
        await self._write(
            "INSERT INTO seat_messages (match_id, seat, channel_id, message_id, version)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT (match_id, seat) DO UPDATE SET"
            " channel_id = excluded.channel_id, message_id = excluded.message_id,"
            " version = excluded.version",
            (match_id, seat, channel_id, message_id, version),
        )

    async def swap_seat_message(
        self, match_id: int, seat: int, channel_id: int, message_id: int, version: int
    ) -> tuple[bool, tuple[int, int, int] | None]:
        """Record where a seat's private view of ``version`` went unless a
        newer one is recorded (another process sent it meanwhile), in one
        transaction: ``(recorded, the row found before)``. Two processes
        announcing two versions of a match at once (a click in direct
        messages and a move typed in the match's channel) then leave the
        newer one recorded, and each knows which message's buttons are stale."""
        async with self.transaction() as db:
            lock = " FOR UPDATE" if db.dialect == "postgres" else ""
            row = await db.fetchone(
                "SELECT channel_id, message_id, version FROM seat_messages"
                f" WHERE match_id = ? AND seat = ?{lock}",
                (match_id, seat),
            )
            found = None if row is None else (int(row[0]), int(row[1]), int(row[2]))
            if found is not None and found[2] > version:
                return False, found
            await db.execute(
                "INSERT INTO seat_messages (match_id, seat, channel_id, message_id, version)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT (match_id, seat) DO UPDATE SET"
                " channel_id = excluded.channel_id, message_id = excluded.message_id,"
                " version = excluded.version WHERE seat_messages.version <= excluded.version",
                (match_id, seat, channel_id, message_id, version),
            )
            return True, found

    def seat_lock(self, match_id: int, seat: int) -> contextlib.AbstractAsyncContextManager[None]:
        """Held by the process writing a seat's private message, from reading
        where the last one went to recording the new one, against every
        process on the database (:mod:`bot.keylocks`)."""
        return self.database.key_lock(SEAT_LOCKS + match_id * 64 + seat)

    async def seat_message(self, match_id: int, seat: int) -> tuple[int, int, int] | None:
        row = await self.database.fetchone(
            "SELECT channel_id, message_id, version FROM seat_messages"
            " WHERE match_id = ? AND seat = ?",
            (match_id, seat),
        )
        return None if row is None else (int(row[0]), int(row[1]), int(row[2]))


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
