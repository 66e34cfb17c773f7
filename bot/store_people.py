"""Users, servers, lobbies and decks: a part of :class:`~bot.store.Store`.

Users (names, languages, closed direct messages), servers' settings, lobbies
(their seats, bots, decks chosen, clock, expiry) and the users' decks. A
mixin of :class:`Store`: see :mod:`bot.store_core` for how the parts fit
together.
"""

from __future__ import annotations

from typing import Any

from .guilds import GuildSettings, channels_text, parse_channels
from .rows import DeckRow, LobbyRow
from .shards import ShardSet
from .store_core import StoreCore, _owned, now_iso


class PeoplePart(StoreCore):
    """Users, servers, lobbies and decks."""

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
