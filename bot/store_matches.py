"""Matches: a part of :class:`~bot.store.Store`.

Creating a match, committing a move (:meth:`Store.commit_action`, or
:meth:`LockedMatch.commit_action` under :meth:`Store.locked_match`), the
notifications of moves (PostgreSQL's NOTIFY), reading a match's rows, and
where its boards and seats' private views went. A mixin of :class:`Store`:
see :mod:`bot.store_core` for how the parts fit together.
"""

from __future__ import annotations

import contextlib
import inspect
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from typing import Any

from engine.match import UNDO

from . import ratings
from .database import Connection, PostgresDatabase
from .rows import MatchRow, StaleWrite
from .shards import ShardSet
from .store_core import (
    MOVES_CHANNEL,
    RATINGS_LOCK,
    SEAT_LOCKS,
    LockedMatch,
    StoreCore,
    _owned,
    now_iso,
)

# the store's one logger, whichever part logs (tests and log filters name it)
log = logging.getLogger("bot.store")


class MatchesPart(StoreCore):
    """Matches: creating, moves, notifications, reads, boards, seat messages."""

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

    # ---- a match's rows, boards and seat messages ------------------------------------
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
