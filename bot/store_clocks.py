"""The turn clock: a part of :class:`~bot.store.Store`.

Each seat's clock (read, set, found due, claimed, reminded), seats replaced
by a bot after expiries, the host's heartbeats (per shard) and the clocks
frozen over a downtime. A mixin of :class:`Store`: see
:mod:`bot.store_core` for how the parts fit together.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import overload

from .shards import ShardSet
from .store_core import (
    _REMIND,
    _SET_CLOCK,
    StoreCore,
    _owned,
    _read_clocks,
    _write_clocks,
    clock_deadline,
)


class ClocksPart(StoreCore):
    """The turn clock and the heartbeats."""

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
