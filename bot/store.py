"""The SQLite store (aiosqlite, WAL mode) and its migrations.

The schema lives in ``migrations/NNN_name.sql``; :meth:`Store.open` applies
the ones not yet recorded in ``schema_version``, each in its own
transaction. Every accepted action is written by :meth:`Store.commit_action`
in one transaction (append the action, write the snapshot, bump the
version, checked against the expected version) that commits before the host
says anything to anybody.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import aiosqlite

MIGRATIONS_DIR = Path(__file__).resolve().parent.parent / "migrations"
_MIGRATION_RE = re.compile(r"^(\d{3})_[a-z0-9_]+\.sql$")


class StaleWrite(Exception):
    """The match's version in the database is not the one expected."""


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


class Store:
    """All database access of the host. One connection; aiosqlite runs it on
    its own thread, so the event loop never waits on the disk."""

    def __init__(self, db: aiosqlite.Connection, path: str) -> None:
        self.db = db
        self.path = path
        # One connection is shared by every coroutine: writes and transactions
        # take turns, so no statement ever lands inside another's transaction.
        self._lock = asyncio.Lock()

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        async with self._lock:
            await self.db.execute("BEGIN IMMEDIATE")
            try:
                yield self.db
            except BaseException:
                await self.db.execute("ROLLBACK")
                raise
            await self.db.execute("COMMIT")

    async def _write(self, sql: str, params: Sequence[Any] = ()) -> None:
        async with self._lock:
            await self.db.execute(sql, params)

    @classmethod
    async def open(cls, path: str | Path, *, upto: int | None = None) -> Store:
        """Open (creating if needed) and migrate; ``upto`` stops at a version
        (used by the upgrade-path test)."""
        path = str(path)
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        db = await aiosqlite.connect(path, isolation_level=None)
        db.row_factory = aiosqlite.Row
        await db.execute("PRAGMA journal_mode=WAL")
        await db.execute("PRAGMA synchronous=NORMAL")
        await db.execute("PRAGMA foreign_keys=ON")
        await db.execute("PRAGMA busy_timeout=5000")
        store = cls(db, path)
        await store.migrate(upto=upto)
        return store

    async def close(self) -> None:
        await self.db.close()

    # ---- migrations ----------------------------------------------------------
    async def schema_version(self) -> int:
        await self.db.execute(
            "CREATE TABLE IF NOT EXISTS schema_version ("
            " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
        )
        async with self.db.execute("SELECT MAX(version) FROM schema_version") as cur:
            row = await cur.fetchone()
        return int(row[0]) if row and row[0] is not None else 0

    async def migrate(self, *, upto: int | None = None) -> int:
        current = await self.schema_version()
        for version, name, sql in migrations():
            if version <= current or (upto is not None and version > upto):
                continue
            async with self.transaction() as db:
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
        async with self.db.execute("SELECT locale FROM users WHERE user_id = ?", (user_id,)) as c:
            row = await c.fetchone()
        return None if row is None else row[0]

    async def set_dm_closed(self, user_id: int, closed: bool) -> None:
        await self._write(
            "INSERT INTO users (user_id, name, updated_at, dm_closed) VALUES (?, '', ?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET dm_closed = excluded.dm_closed",
            (user_id, now_iso(), int(closed)),
        )

    async def dm_closed_users(self) -> set[int]:
        async with self.db.execute("SELECT user_id FROM users WHERE dm_closed = 1") as cur:
            return {int(r[0]) for r in await cur.fetchall()}

    # ---- guilds -------------------------------------------------------------------
    async def guild_locale(self, guild_id: int) -> str | None:
        async with self.db.execute(
            "SELECT locale FROM guild_settings WHERE guild_id = ?", (guild_id,)
        ) as cur:
            row = await cur.fetchone()
        return None if row is None else row[0]

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
            cur = await db.execute(
                "INSERT INTO lobbies (guild_id, channel_id, game_id, host_id, seats, options,"
                " status, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, 'open', ?, ?)",
                (guild_id, channel_id, game_id, host_id, seats, options, stamp, stamp),
            )
            lobby_id = int(cur.lastrowid or 0)
            await db.execute(
                "INSERT INTO lobby_players (lobby_id, user_id, position, joined_at)"
                " VALUES (?, ?, 0, ?)",
                (lobby_id, host_id, stamp),
            )
        return lobby_id

    async def lobby(self, lobby_id: int) -> LobbyRow | None:
        async with self.db.execute("SELECT * FROM lobbies WHERE id = ?", (lobby_id,)) as cur:
            row = await cur.fetchone()
        return None if row is None else await self._lobby_row(row)

    async def open_lobby_in(self, channel_id: int) -> LobbyRow | None:
        async with self.db.execute(
            "SELECT * FROM lobbies WHERE channel_id = ? AND status = 'open'", (channel_id,)
        ) as cur:
            row = await cur.fetchone()
        return None if row is None else await self._lobby_row(row)

    async def open_lobbies(self) -> list[LobbyRow]:
        async with self.db.execute("SELECT * FROM lobbies WHERE status = 'open'") as cur:
            rows = await cur.fetchall()
        return [await self._lobby_row(r) for r in rows]

    async def _lobby_row(self, row: aiosqlite.Row) -> LobbyRow:
        async with self.db.execute(
            "SELECT user_id FROM lobby_players WHERE lobby_id = ? ORDER BY position",
            (row["id"],),
        ) as cur:
            players = tuple(int(r[0]) for r in await cur.fetchall())
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
        )

    async def add_lobby_player(self, lobby_id: int, user_id: int) -> None:
        await self._write(
            "INSERT INTO lobby_players (lobby_id, user_id, position, joined_at)"
            " VALUES (?, ?, (SELECT COALESCE(MAX(position), -1) + 1 FROM lobby_players"
            " WHERE lobby_id = ?), ?)",
            (lobby_id, user_id, lobby_id, now_iso()),
        )

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
    ) -> int:
        """Create the match (and close its lobby) in one transaction."""
        stamp = now_iso()
        async with self.transaction() as db:
            cur = await db.execute(
                "INSERT INTO matches (lobby_id, guild_id, channel_id, game_id, options, seats,"
                " seed, seed_sha256, engine_version, status, snapshot, version, created_at,"
                " updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'active', ?, 0, ?, ?)",
                (
                    lobby_id,
                    guild_id,
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
                ),
            )
            match_id = int(cur.lastrowid or 0)
            await db.executemany(
                "INSERT INTO match_players (match_id, seat, user_id, name) VALUES (?, ?, ?, ?)",
                [(match_id, seat, uid, name) for seat, (uid, name) in enumerate(players)],
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
    ) -> None:
        """One transaction: append the action, write the snapshot, bump the
        version (only if it still is ``expected_version``), and the result."""
        stamp = now_iso()
        new_version = expected_version + 1
        async with self.transaction() as db:
            cur = await db.execute(
                "UPDATE matches SET snapshot = ?, version = ?, status = ?, updated_at = ?,"
                " finished_at = CASE WHEN ? = 'active' THEN NULL ELSE ? END"
                " WHERE id = ? AND version = ? AND status = 'active'",
                (snapshot, new_version, status, stamp, status, stamp, match_id, expected_version),
            )
            if cur.rowcount != 1:
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
                await db.execute(
                    "INSERT INTO results (match_id, guild_id, game_id, ranking, reason,"
                    " finished_at) VALUES (?, ?, ?, ?, ?, ?)",
                    (match_id, guild_id, game_id, ranking, reason, stamp),
                )

    async def cancel_match(self, match_id: int) -> None:
        await self._write(
            "UPDATE matches SET status = 'cancelled', updated_at = ?, finished_at = ?"
            " WHERE id = ? AND status = 'active'",
            (now_iso(), now_iso(), match_id),
        )

    async def set_board_message(self, match_id: int, message_id: int | None) -> None:
        await self._write(
            "UPDATE matches SET board_message_id = ? WHERE id = ?", (message_id, match_id)
        )

    async def set_dm_notice_sent(self, match_id: int, seat: int) -> None:
        await self._write(
            "UPDATE match_players SET dm_notice_sent = 1 WHERE match_id = ? AND seat = ?",
            (match_id, seat),
        )

    async def match(self, match_id: int) -> MatchRow | None:
        async with self.db.execute("SELECT * FROM matches WHERE id = ?", (match_id,)) as cur:
            row = await cur.fetchone()
        return None if row is None else await self._match_row(row)

    async def active_matches(self) -> list[MatchRow]:
        async with self.db.execute(
            "SELECT * FROM matches WHERE status = 'active' ORDER BY id"
        ) as cur:
            rows = await cur.fetchall()
        return [await self._match_row(r) for r in rows]

    async def _match_row(self, row: aiosqlite.Row) -> MatchRow:
        async with self.db.execute(
            "SELECT seat, user_id, name, resigned, dm_notice_sent FROM match_players"
            " WHERE match_id = ? ORDER BY seat",
            (row["id"],),
        ) as cur:
            seats = await cur.fetchall()
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
            players=tuple((int(s["user_id"]), str(s["name"])) for s in seats),
            resigned=tuple(int(s["seat"]) for s in seats if s["resigned"]),
            dm_notice_sent=tuple(int(s["seat"]) for s in seats if s["dm_notice_sent"]),
        )

    async def match_actions(self, match_id: int) -> list[tuple[int, int, str, str]]:
        """``(version, seat, action, events_json)`` in order."""
        async with self.db.execute(
            "SELECT version, seat, action, events FROM match_actions WHERE match_id = ?"
            " ORDER BY version",
            (match_id,),
        ) as cur:
            rows = await cur.fetchall()
        return [(int(r[0]), int(r[1]), str(r[2]), str(r[3])) for r in rows]

    async def result(self, match_id: int) -> tuple[str, str] | None:
        async with self.db.execute(
            "SELECT ranking, reason FROM results WHERE match_id = ?", (match_id,)
        ) as cur:
            row = await cur.fetchone()
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

    async def seat_message(self, match_id: int, seat: int) -> tuple[int, int, int] | None:
        async with self.db.execute(
            "SELECT channel_id, message_id, version FROM seat_messages"
            " WHERE match_id = ? AND seat = ?",
            (match_id, seat),
        ) as cur:
            row = await cur.fetchone()
        return None if row is None else (int(row[0]), int(row[1]), int(row[2]))


def _split_sql(sql: str) -> list[str]:
    """Statements of a migration file (no semicolons inside literals there)."""
    lines = [line for line in sql.splitlines() if not line.strip().startswith("--")]
    return [s.strip() for s in "\n".join(lines).split(";") if s.strip()]
