"""Results, ratings, take-back requests and spectators: a part of
:class:`~bot.store.Store`.

A finished match's result and places, the ratings it changes (and their
rebuilding from the results), leaderboards and records, the waiting
take-back requests (bot/undo.py) and the spectators (bot/spectators.py). A
mixin of :class:`Store`: see :mod:`bot.store_core` for how the parts fit
together.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from . import ratings
from .database import Connection
from .store_core import RATINGS_LOCK, StoreCore, now_iso


class RecordsPart(StoreCore):
    """Results, ratings, take-back requests and spectators."""

    # ---- results and ratings ---------------------------------------------------------
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
