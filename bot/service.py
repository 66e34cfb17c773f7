"""The lobby and match service: the authoritative host, with no Discord in it.

Adapters (the Discord cogs, the terminal console) call this service and show
what it returns. Rules:

* one writer per match: an :class:`asyncio.Lock` per match, plus the version
  check in the database write;
* every accepted action is committed to the database before the service
  returns, so before any message goes out;
* every refusal is a :class:`HostError` with a translation key, and changes
  nothing.

Several processes may share one database (issue 18): each owns the matches
and lobbies of its shards (:class:`~bot.shards.ShardSet`), resumes them,
drives their bots and clocks and expires their lobbies. Any process may play a
move on any match (a direct-message click reaches shard 0's process): always
under the match's database lock (:meth:`Store.locked_match`), after reloading
the match when the database is ahead of memory. The owner learns of moves made
elsewhere by :meth:`Store.listen_moves` and by the sweep of :meth:`tick`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from cachetools import TTLCache

from engine import ENGINE_VERSION, GAMES, Event, Match, MatchRecord, RulesError
from engine.core import Decision
from engine.match import LoggedEvent
from engine.text import Msg

from . import logcontext, ratings
from .decks import DECK_GAMES, Deck, DeckRefused, DeckService
from .guilds import GuildSettings
from .i18n import game_text
from .live import (
    BOT_LEVEL_MARK,
    CLOCKS,
    ClockConfig,
    ClockRow,
    HostError,
    HostListener,
    LiveMatch,
    Lobby,
    Update,
    UserRef,
    Venue,
    bot_name,
    hostable_games,
    private_key,
)
from .shards import ShardSet, shard_of
from .store import LockedMatch, MatchRow, StaleWrite, Store
from .workers import Workers, think

__all__ = [  # what other modules import from here (the data classes are in bot/live.py)
    "BOT_LEVEL_MARK",
    "BOT_STALE_RETRIES",
    "CACHE_SIZE",
    "CLOCKS",
    "ClockConfig",
    "ClockRow",
    "HostError",
    "HostListener",
    "HostService",
    "LiveMatch",
    "Lobby",
    "Update",
    "UserRef",
    "Venue",
    "bot_name",
    "hostable_games",
    "private_key",
]

log = logging.getLogger(__name__)

BOT_STALE_RETRIES = 3
"""How many stale refusals in a row, on a match whose version did not move on,
a bot driver takes (reloading the match each time) before it gives up until the
next kick, notification or sweep."""
CACHE_SIZE = 100_000  # users or servers whose cached rows are fresh at once


def _is_row_id(value: int) -> bool:
    """Could be the id of a row (SQLite integers are signed 64-bit): larger
    numbers, typed or crafted, name nothing rather than overflow."""
    return 0 < value < 2**63


class HostService:
    """Lobbies and matches for every game of :data:`engine.GAMES`."""

    def __init__(
        self,
        store: Store,
        *,
        seed_source: Callable[[], int] | None = None,
        provisional_games: int = 5,
        clock_config: ClockConfig | None = None,
        now: Callable[[], float] = time.time,
        bot_clock: Callable[[], float] | None = time.monotonic,
        bot_workers: Workers | None = None,
        keep_inactive: int = 32,
        shards: ShardSet | None = None,
        cache_seconds: float = 30.0,
    ) -> None:
        self.store = store
        # the shards this process owns: their matches and lobbies are its own
        self.shards = shards or ShardSet.every(1)
        # Other processes may write the same database unless this is the
        # embedded default (SQLite, one process owning every shard): then the
        # caches of users and servers read through it again after
        # ``cache_seconds`` and the tick sweeps for moves made elsewhere.
        self.shared = not (store.dialect == "sqlite" and self.shards.is_all)
        self.cache_seconds = cache_seconds
        # users and servers whose cached rows are fresh (shared databases only)
        self._fresh_users: TTLCache[int, bool] = TTLCache(CACHE_SIZE, cache_seconds, timer=now)
        self._fresh_guilds: TTLCache[int, bool] = TTLCache(CACHE_SIZE, cache_seconds, timer=now)
        self._stop_listening: Callable[[], Awaitable[None]] | None = None
        self._catch_ups: set[asyncio.Task[None]] = set()
        # finished, cancelled and looked-up matches kept in memory (the most
        # recently used); older ones are dropped and read again on demand
        self.keep_inactive = keep_inactive
        self._inactive: OrderedDict[int, None] = OrderedDict()
        self.provisional_games = provisional_games
        self.clock_config = clock_config or ClockConfig()
        self.now = now
        self.bot_clock = bot_clock  # None: bots think by iterations only (tests)
        # where hard bots think (worker processes); None: a thread
        self.bot_workers = bot_workers
        self.listeners: list[HostListener] = []
        self._bot_tasks: dict[int, asyncio.Task[None]] = {}
        self.matches: dict[int, LiveMatch] = {}
        self.by_channel: dict[int, int] = {}  # channel id -> active match id
        self.names: dict[int, str] = {}
        # languages, kept in the store so that what the host says on its own
        # (bot moves, clock decisions, reminders) after a restart is still in
        # each player's and each server's language
        self.user_locales: dict[int, str] = {}
        self.guild_locales: dict[int, str] = {}
        self.channel_guilds: dict[int, int] = {}  # channel id -> guild id
        self._guild_settings: dict[int, GuildSettings] = {}  # read through the store
        self.dm_closed: set[int] = set()
        self._seed_source = seed_source or (lambda: secrets.randbits(63))
        self._channel_locks: dict[int, asyncio.Lock] = {}
        self.decks = DeckService(store)
        # collaborators' periodic work (bot/undo.py: expired take-back requests),
        # run by tick() with its time
        self.tick_hooks: list[Callable[[float], Awaitable[None]]] = []
        self.extensions: dict[str, Any] = {}  # collaborators by name (bot/undo.py)

    # ---- start-up --------------------------------------------------------------
    async def resume(self) -> list[LiveMatch]:
        """Load the active matches this process owns from the database, and
        start hearing of the moves other processes make."""
        self.dm_closed = await self.store.dm_closed_users()
        if not await self.store.all_ratings() and await self.store.finished_matches():
            # results from before ratings existed (schema version 2): rate them now
            await self.store.recompute_ratings()
        # the clocks were frozen while the host was down: each shard's own
        # downtime, from its own heartbeat (another process may own the others)
        now = self.now()
        beats = await self.store.heartbeat(now, self.shards)
        for shard_id, last in sorted(beats.items()):
            if last is not None and now > last:
                one = ShardSet(self.shards.count, frozenset({shard_id}))
                await self.store.shift_clocks(now - last, one)
        await self.store.stamp_old_lobbies(now, self.shards)
        resumed = []
        for row in await self.store.active_matches(self.shards):
            try:
                live = await self._load(row)
            except Exception:
                log.exception("could not resume match %s", row.id)
                continue
            self._register(live)
            resumed.append(live)
        for live in resumed:
            await self._load_locales(live)
        for live in resumed:
            self.kick_bots(live)
        if self._stop_listening is None:
            self._stop_listening = await self.store.listen_moves(self._on_move)
        return resumed

    async def _load_locales(self, live: LiveMatch) -> None:
        """The saved languages of a match's players and server."""
        for uid, _ in live.players:
            if self.shared:
                await self._refresh_user(uid)
            elif uid > 0 and uid not in self.user_locales:
                locale = await self.store.user_locale(uid)
                if locale:
                    self.user_locales[uid] = locale
        if live.guild_id is not None:
            await self._know_guild(live.guild_id, live.channel_id)

    async def _know_guild(self, guild_id: int, channel_id: int) -> None:
        """Which server a channel is in, and that server's saved language."""
        self.channel_guilds[channel_id] = guild_id
        if guild_id not in self.guild_locales and not self.shared:  # shared: read with the settings
            locale = await self.store.guild_locale(guild_id)
            if locale:
                self.guild_locales[guild_id] = locale
        await self.guild_settings(guild_id)

    async def _load(self, row: MatchRow, known: LiveMatch | None = None) -> LiveMatch:
        """The match of ``row`` in memory (``known``: the same match already
        in memory, whose lobby host is not read again)."""
        actions = await self.store.match_actions(row.id)
        record = row.record(actions)
        events = [
            LoggedEvent(version, Event.from_json(e))
            for version, _, _, events_json in actions
            for e in json.loads(events_json)
        ]
        match = Match.from_parts(record, row.snapshot, row.version, events)
        lobby_host = None
        if known is not None and known.lobby_id == row.lobby_id:
            lobby_host = known.lobby_host
        elif row.lobby_id is not None:
            lobby = await self.store.lobby(row.lobby_id)
            lobby_host = lobby.host_id if lobby else None
        for uid, name in row.players:
            self.names.setdefault(uid, name)
        return LiveMatch(
            id=row.id,
            guild_id=row.guild_id,
            channel_id=row.channel_id,
            game_id=row.game_id,
            players=list(row.players),
            match=match,
            lobby_id=row.lobby_id,
            lobby_host=lobby_host,
            board_message_id=row.board_message_id,
            board_version=row.board_version,
            resigned=set(row.resigned),
            dm_notice_sent=set(row.dm_notice_sent),
            bots=set(row.bots),
            bot_levels=dict(row.bot_levels),
            replaced=set(row.replaced),
            clock=row.clock,
            lobby_channel_id=row.lobby_channel_id,
            status=row.status,
        )

    async def _reload(self, live: LiveMatch, row: MatchRow | None = None) -> None:
        """Read the match again from the database (another process moved it
        on, finished or cancelled it) and swap what it says into ``live`` in
        place: other code holds references to that object. Called under
        ``live.lock``."""
        if row is None:
            row = await self.store.match(live.id)
            if row is None:
                return
        fresh = await self._load(row, known=live)
        old_channel = live.channel_id
        if fresh.match.version != live.match.version:
            # what each seat was last shown is another process's knowledge now:
            # every seat concerned by the next move counts as changed (a new
            # direct message; its message may read that process's version)
            live.private_keys.clear()
        live.match = fresh.match
        live.players = fresh.players
        live.board_message_id = fresh.board_message_id
        live.board_version = fresh.board_version
        live.resigned = fresh.resigned
        live.dm_notice_sent |= fresh.dm_notice_sent
        live.bots = fresh.bots
        live.bot_levels = fresh.bot_levels
        live.replaced = fresh.replaced
        live.clock = fresh.clock
        live.channel_id = fresh.channel_id
        live.lobby_channel_id = fresh.lobby_channel_id
        live.status = fresh.status
        if old_channel != live.channel_id and self.by_channel.get(old_channel) == live.id:
            del self.by_channel[old_channel]
            self.by_channel[live.channel_id] = live.id
        ended = live.status != "active" or live.match.is_over
        if ended and self.by_channel.get(live.channel_id) == live.id:
            del self.by_channel[live.channel_id]

    def owns(self, live: LiveMatch) -> bool:
        """Whether this process owns the match (its server's shard)."""
        return self.shards.owns(live.guild_id)

    def _drives(self, live: LiveMatch) -> bool:
        """Whether this process runs the match's bots and clocks: it owns it
        and the match is still played."""
        return (
            live.status == "active"
            and not live.match.is_over
            and self.by_channel.get(live.channel_id) == live.id
            and self.owns(live)
        )

    def _register(self, live: LiveMatch) -> None:
        self.matches[live.id] = live
        if live.guild_id is not None:
            self.channel_guilds[live.channel_id] = live.guild_id
            if live.lobby_channel_id is not None:  # its lines there speak the server's language
                self.channel_guilds[live.lobby_channel_id] = live.guild_id
        if live.match.is_over or live.status != "active" or not self.owns(live):
            if self.by_channel.get(live.channel_id) == live.id:
                self.by_channel.pop(live.channel_id, None)
            self._retire(live)
        else:
            self.by_channel[live.channel_id] = live.id

    def _retire(self, live: LiveMatch) -> None:
        """A match no longer played here (finished, cancelled, or only looked
        up): kept among the :attr:`keep_inactive` most recent, then dropped
        from memory (the store still has it)."""
        if self.by_channel.get(live.channel_id) == live.id:
            return
        self._inactive[live.id] = None
        self._inactive.move_to_end(live.id)
        while len(self._inactive) > self.keep_inactive:
            old, _ = self._inactive.popitem(last=False)
            self.matches.pop(old, None)
            task = self._bot_tasks.get(old)
            if task is not None and task.done():
                del self._bot_tasks[old]

    def _channel_lock(self, channel_id: int) -> asyncio.Lock:
        return self._channel_locks.setdefault(channel_id, asyncio.Lock())

    async def _refresh_user(self, user_id: int) -> None:
        """On a shared database, read a user's name, language and closed DMs
        again when what is cached is older than :attr:`cache_seconds`
        (another process may have written them)."""
        if not self.shared or user_id <= 0 or user_id in self._fresh_users:
            return
        state = await self.store.user_state(user_id)
        self._fresh_users[user_id] = True
        if state is None:
            return
        name, locale, closed = state
        if name:
            self.names[user_id] = name
        if locale:
            self.user_locales[user_id] = locale
        if closed:
            self.dm_closed.add(user_id)
        else:
            self.dm_closed.discard(user_id)

    async def _refresh_players(self, live: LiveMatch) -> None:
        """The cached rows of a match's players, fresh enough to announce it."""
        if self.shared:
            for uid, _ in live.players:
                await self._refresh_user(uid)

    async def remember_user(self, user: UserRef) -> None:
        await self._refresh_user(user.id)
        new_locale = user.locale is not None and self.user_locales.get(user.id) != user.locale
        if self.names.get(user.id) != user.name or new_locale:
            self.names[user.id] = user.name
            if user.locale is not None:
                self.user_locales[user.id] = user.locale
            await self.store.upsert_user(user.id, user.name, user.locale)

    async def remember_guild(self, guild_id: int, channel_id: int, locale: str | None) -> None:
        """A server's language (Discord's ``guild_locale``), saved when it changes."""
        self.channel_guilds[channel_id] = guild_id
        await self.guild_settings(guild_id)
        if locale and self.guild_locales.get(guild_id) != locale:
            self.guild_locales[guild_id] = locale
            await self.store.set_guild_locale(guild_id, locale)

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        """A server's ``/settings`` (cached; the defaults for a server never
        seen). On a shared database, read again with the server's saved
        language once the cache is older than :attr:`cache_seconds`."""
        settings = self._guild_settings.get(guild_id)
        stale = self.shared and guild_id not in self._fresh_guilds
        if settings is None or stale:
            settings = await self.store.guild_settings(guild_id)
            self._guild_settings[guild_id] = settings
            if self.shared:
                locale = await self.store.guild_locale(guild_id)
                if locale:
                    self.guild_locales[guild_id] = locale
                self._fresh_guilds[guild_id] = True
        return settings

    async def save_guild_settings(self, settings: GuildSettings) -> GuildSettings:
        await self.store.save_guild_settings(settings)
        self._guild_settings[settings.guild_id] = settings
        return settings

    def user_locale(self, user_id: int) -> str | None:
        return self.user_locales.get(user_id)

    def channel_locale(self, channel_id: int) -> str | None:
        """The saved language of the server a channel belongs to."""
        guild_id = self.channel_guilds.get(channel_id)
        if guild_id is None:
            return None
        settings = self._guild_settings.get(guild_id)
        if settings is not None and settings.language:
            return settings.language
        return self.guild_locales.get(guild_id)

    # ---- lookups -----------------------------------------------------------------
    def match_in(self, channel_id: int) -> LiveMatch | None:
        match_id = self.by_channel.get(channel_id)
        return None if match_id is None else self.matches.get(match_id)

    async def get_match(self, match_id: int) -> LiveMatch:
        """The match ``match_id`` (read from the database if not in memory).
        On a shared database a match in memory is read again when the
        database is ahead of it (another process played, finished or
        cancelled it), so that what is shown and checked from it is current:
        a button of the newest board is not refused as stale."""
        known = match_id in self.matches
        live = await self._lookup(match_id)
        if known and self.shared:
            await self._freshen(live)
        return live

    async def _lookup(self, match_id: int) -> LiveMatch:
        """The match from memory, else loaded from the database (moves check
        its version under the match's database lock: see :meth:`_locked`)."""
        live = self.matches.get(match_id)
        if live is None:
            if not _is_row_id(match_id):
                raise HostError("no-such-match", match=match_id)
            row = await self.store.match(match_id)
            if row is None:
                raise HostError("no-such-match", match=match_id)
            live = await self._load(row)
            # an active match of this process's shards plays here (they are
            # loaded at start-up, or this is one another process started);
            # another process's match (a click in direct messages) or an
            # inactive one is only looked up: kept among the inactive ones
            self._register(live)
            if self.by_channel.get(live.channel_id) == live.id:
                await self._load_locales(live)
                self.kick_bots(live)
        elif live.id in self._inactive:
            self._inactive.move_to_end(live.id)
        return live

    async def _freshen(self, live: LiveMatch) -> None:
        """Read ``live`` again if the database is ahead of it (shared
        databases): an owned match catches up as after a notification (its
        bots and clocks follow), another process's is swapped in place."""
        state = await self.store.match_state(live.id)
        if state is None or state == (live.version, live.status):
            return
        version, status = state
        if self.owns(live):
            await self._catch_up(live.id, version if status == "active" else None)
            return
        async with live.lock:
            row = await self.store.match(live.id)
            if row is not None and (row.version, row.status) != (live.version, live.status):
                await self._reload(live, row)
        if live.status != "active" or live.match.is_over:
            self._retire(live)

    async def latest_match_of(self, user_id: int) -> LiveMatch | None:
        """The user's latest active match (``/play``, ``/board`` and the
        like in direct messages). On a shared database the database says
        which are active, whichever process owns them (shard 0's process
        receives every direct message); else this process's, from memory."""
        if not self.shared:
            mine = self.user_matches(user_id)
            return mine[0] if mine else None
        for match_id in await self.store.user_active_matches(user_id):
            try:
                live = await self.get_match(match_id)
            except HostError:
                continue
            if live.status == "active" and not live.match.is_over and live.seats_of(user_id):
                return live
        return None

    async def current_match(self, match_id: int) -> LiveMatch:
        """:meth:`get_match`, brought up to the database first when other
        processes share it, even when it was just loaded: a click in direct
        messages reaches shard 0's process, whose copy of another process's
        match (loaded by an earlier click) is as old as that click; the
        owner's may lag its listener by a moment. What a click is checked and
        read against (its version, the seat's menu) must be the match the
        database has."""
        live = await self._lookup(match_id)
        if self.shared:
            await self._freshen(live)
        return live

    async def lobby_in(self, channel_id: int) -> Lobby | None:
        row = await self.store.open_lobby_in(channel_id)
        return None if row is None else Lobby.of(row)

    async def lobby(self, lobby_id: int) -> Lobby | None:
        if not _is_row_id(lobby_id):
            return None
        row = await self.store.lobby(lobby_id)
        return None if row is None else Lobby.of(row)

    def user_matches(self, user_id: int) -> list[LiveMatch]:  # this process's own
        """Active matches where the user holds a seat, newest first, among
        those this process plays (see :meth:`latest_match_of` for any
        process's)."""
        return sorted(
            (
                m
                for m in self.matches.values()
                if not m.match.is_over and m.seats_of(user_id) and m.channel_id in self.by_channel
            ),
            key=lambda m: -m.id,
        )

    # ---- lobbies -------------------------------------------------------------------
    async def create_lobby(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        host: UserRef,
        game_id: str,
        seats: int | None = None,
        options: str = "",
        clock: str | None = None,
        deck: str | None = None,
        parent_id: int | None = None,
    ) -> Lobby:
        """Open a lobby. ``clock`` None: the server's default clock;
        ``parent_id``: the channel of a thread (a thread of a channel where
        the server's settings allow lobbies is allowed too)."""
        settings = None if guild_id is None else await self.guild_settings(guild_id)
        if settings is not None:
            if not settings.lobby_allowed_in(channel_id, parent_id):
                where = ", ".join(f"<#{c}>" for c in settings.lobby_channels)
                raise HostError("settings-lobby-elsewhere", channels=where)
            clock = settings.clock_for(clock)
        clock = clock or "correspondence"
        if clock not in CLOCKS:
            raise HostError("bad-clock", clock=clock, clocks=", ".join(CLOCKS))
        game = GAMES.get(game_id)
        if game is None or game_id not in hostable_games():
            raise HostError("unknown-game", game=game_id, games=", ".join(hostable_games()))
        info = game.info
        table = seats if seats is not None else info.max_seats
        if not info.min_seats <= table <= info.max_seats:
            raise HostError(
                "bad-seats",
                game=Msg.of(f"game-{game_id}-name"),
                min=info.min_seats,
                max=info.max_seats,
            )
        try:
            parsed = game.options(options or None)
        except RulesError as err:
            raise HostError("bad-options", rules=err) from None
        chosen = None if deck is None else await self.find_deck(host.id, deck, game_id)
        await self.remember_user(host)
        async with self._channel_lock(channel_id):
            if self.match_in(channel_id) is not None or await self.lobby_in(channel_id):
                raise HostError("channel-busy")
            lobby_id = await self.store.create_lobby(
                guild_id, channel_id, game_id, host.id, table, game.options_text(parsed)
            )
            await self.store.set_lobby_clock(lobby_id, clock, self.now())
            if chosen is not None:
                await self.store.set_lobby_deck(lobby_id, host.id, chosen.name, chosen.code)
        lobby = await self.lobby(lobby_id)
        assert lobby is not None
        return lobby

    async def _open_lobby(self, channel_id: int) -> Lobby:
        lobby = await self.lobby_in(channel_id)
        if lobby is None:
            raise HostError("no-lobby")
        return lobby

    async def join(self, channel_id: int, user: UserRef, deck: str | None = None) -> Lobby:
        """Take a seat; with ``deck`` (games played with decks), the deck this
        seat plays (a seated player may join again to choose another)."""
        await self.remember_user(user)
        chosen = None
        if deck is not None:
            lobby = await self._open_lobby(channel_id)
            chosen = await self.find_deck(user.id, deck, lobby.game_id)
        async with self._channel_lock(channel_id):
            lobby = await self._open_lobby(channel_id)
            if user.id in lobby.players and chosen is None:
                raise HostError("already-joined")
            if user.id not in lobby.players:
                if len(lobby.players) >= lobby.seats:
                    raise HostError("lobby-full", seats=lobby.seats)
                await self.store.add_lobby_player(lobby.id, user.id)
            if chosen is not None:
                await self.store.set_lobby_deck(lobby.id, user.id, chosen.name, chosen.code)
            new = await self.lobby(lobby.id)
        assert new is not None
        return new

    async def add_bot(self, channel_id: int, user: UserRef, level: str = "normal") -> Lobby:
        """The host adds a bot seat (``easy``, ``normal`` or ``hard``)."""
        from engine.bots import LEVELS, POLICIES

        if level not in LEVELS:
            raise HostError("bad-level", level=level, levels=", ".join(LEVELS))
        async with self._channel_lock(channel_id):
            lobby = await self._open_lobby(channel_id)
            if user.id != lobby.host_id:
                raise HostError("not-host")
            if (
                lobby.guild_id is not None
                and not (await self.guild_settings(lobby.guild_id)).bots_allowed
            ):
                raise HostError("settings-bots-refused")
            if lobby.game_id not in POLICIES:
                raise HostError("no-bots-for-game", game=Msg.of(f"game-{lobby.game_id}-name"))
            if len(lobby.players) >= lobby.seats:
                raise HostError("lobby-full", seats=lobby.seats)
            # the smallest free number: a bot seat the host removed leaves a gap
            taken = {-uid for uid, _ in lobby.bots}
            number = next(n for n in range(1, len(taken) + 2) if n not in taken)
            bot_id = -number
            self.names[bot_id] = bot_name(number, level)
            await self.store.add_lobby_player(lobby.id, bot_id, bot_level=level)
            new = await self.lobby(lobby.id)
        assert new is not None
        return new

    def display_name(self, user_id: int, lobby: Lobby | None = None) -> str:
        if user_id < 0 and lobby is not None:
            level = dict(lobby.bots).get(user_id, "normal")
            return bot_name(-user_id, level)
        return self.names.get(user_id, f"#{user_id}")

    async def leave(self, channel_id: int, user: UserRef) -> Lobby:
        async with self._channel_lock(channel_id):
            lobby = await self._open_lobby(channel_id)
            if user.id not in lobby.players:
                raise HostError("not-in-lobby")
            await self.store.remove_lobby_player(lobby.id, user.id)
            rest = [p for p in lobby.players if p != user.id and p > 0]
            if not rest:
                await self.store.set_lobby_status(lobby.id, "cancelled")
            elif user.id == lobby.host_id:
                await self.store.set_lobby_host(lobby.id, rest[0])
            new = await self.lobby(lobby.id)
        assert new is not None
        return new

    async def cancel(
        self, channel_id: int, user: UserRef, *, is_admin: bool, role_ids: Sequence[int] = ()
    ) -> Lobby | LiveMatch:
        """Cancel the channel's lobby or match: its host, an admin (Manage
        Server) or a member with the server's cancel role (``role_ids``: the
        member's roles)."""
        async with self._channel_lock(channel_id):
            lobby = await self.lobby_in(channel_id)
            live = self.match_in(channel_id) if lobby is None else None
            where = lobby if lobby is not None else live
            guild_id = None if where is None else where.guild_id
            cancel_role = None
            if not is_admin and guild_id is not None:
                settings = await self.guild_settings(guild_id)
                is_admin = settings.may_cancel(role_ids)
                cancel_role = settings.cancel_role_id
            # the refusal says who may cancel here
            refusal = (
                HostError("not-host-cancel")
                if cancel_role is None
                else HostError("not-host-cancel-role", role=f"<@&{cancel_role}>")
            )
            if lobby is not None:
                if user.id != lobby.host_id and not is_admin:
                    raise refusal
                await self.store.set_lobby_status(lobby.id, "cancelled")
                new = await self.lobby(lobby.id)
                assert new is not None
                return new
            if live is None:
                raise self.cancel_elsewhere(channel_id) or HostError("nothing-to-cancel")
            if user.id != live.lobby_host and not is_admin:
                raise refusal
            async with live.lock:
                await self.store.cancel_match(live.id)
                live.status = "cancelled"
                self.by_channel.pop(channel_id, None)
            self._retire(live)
            return live

    def cancel_elsewhere(self, channel_id: int, lobby_id: int | None = None) -> HostError | None:
        """Where to cancel instead, when a channel's lobbies started matches
        that play in threads of their own (``lobby_id``: only that lobby's):
        the refusal names their threads."""
        threads = [
            live.channel_id
            for live in self.matches.values()
            if live.lobby_channel_id == channel_id
            and live.channel_id != channel_id
            and (lobby_id is None or live.lobby_id == lobby_id)
            and self.by_channel.get(live.channel_id) == live.id
        ]
        if not threads:
            return None
        mentions = ", ".join(f"<#{thread}>" for thread in sorted(threads))
        return HostError("cancel-in-thread", count=len(threads), threads=mentions)

    async def start(self, channel_id: int, user: UserRef, venue: Venue | None = None) -> LiveMatch:
        """Start the channel's lobby. ``venue`` (the adapter's) may give the
        match a place of its own before anything of it is announced and
        before its bots or clock run."""
        async with self._channel_lock(channel_id):
            lobby = await self._open_lobby(channel_id)
            if user.id != lobby.host_id:
                raise HostError("not-host")
            game = GAMES[lobby.game_id]
            if len(lobby.players) < game.info.min_seats:
                raise HostError(
                    "not-enough-players", min=game.info.min_seats, have=len(lobby.players)
                )
            seed = self._seed_source()
            try:
                options = self._with_decks(lobby, game.options(lobby.options or None))
                match = Match(game, options, len(lobby.players), seed)
            except RulesError as err:
                raise HostError("bad-options", rules=err) from None
            players = [(uid, self.display_name(uid, lobby)) for uid in lobby.players]
            levels = dict(lobby.bots)
            bot_levels = {
                seat: levels[uid] for seat, uid in enumerate(lobby.players) if uid in levels
            }
            match_id = await self.store.create_match(
                lobby_id=lobby.id,
                guild_id=lobby.guild_id,
                channel_id=channel_id,
                game_id=lobby.game_id,
                options=json.dumps(match.options.model_dump(mode="json"), sort_keys=True),
                seats=len(players),
                seed=seed,
                seed_sha256=match.seed_commitment,
                engine_version=ENGINE_VERSION,
                snapshot=game.dump_state(match.state).decode(),
                players=players,
                bot_levels=bot_levels,
                clock=lobby.clock,
            )
            live = LiveMatch(
                id=match_id,
                guild_id=lobby.guild_id,
                channel_id=channel_id,
                game_id=lobby.game_id,
                players=players,
                match=match,
                lobby_id=lobby.id,
                lobby_host=lobby.host_id,
                bots=set(bot_levels),
                bot_levels=bot_levels,
                clock=lobby.clock,
                lobby_channel_id=channel_id,
            )
            place = None
            if venue is not None:
                try:
                    place = await venue(live, lobby)
                except Exception:
                    log.exception("no venue for match %s: it plays in its channel", match_id)
            if place is not None and place != channel_id:
                await self.move_match(live, place)
            self._register(live)
            # every seat is sent its private view of the start
            start_pending = match.pending()
            for s in range(match.seats):
                live.private_keys[s] = (
                    match.version,
                    private_key(game, match.state, start_pending, s),
                )
        await self._sync_clock(live)
        self.kick_bots(live)
        return live

    async def move_match(self, live: LiveMatch, channel_id: int) -> None:
        """The match plays in ``channel_id`` from now on (its thread): the
        store and :attr:`by_channel` follow, and its former channel is free
        for a new lobby."""
        old = live.channel_id
        await self.store.move_match(live.id, channel_id)
        live.channel_id = channel_id
        if live.guild_id is not None:
            self.channel_guilds[channel_id] = live.guild_id
        if self.by_channel.get(old) == live.id:
            del self.by_channel[old]
            self.by_channel[channel_id] = live.id

    def _with_decks(self, lobby: Lobby, options: Any) -> Any:
        """A deck game's options with every seat's deck code (chosen, given
        in the options, or ready-made), so that the match record replays."""
        if lobby.game_id not in DECK_GAMES:
            return options
        chosen = {uid: code for uid, _, code in lobby.decks}
        codes = self.decks.seat_codes(lobby.game_id, lobby.players, chosen, options.decks)
        # validated again, so that the options' own checks see the codes
        return type(options).model_validate({**options.model_dump(), "decks": codes})

    # ---- decks ------------------------------------------------------------------------
    async def find_deck(self, user_id: int, name: str, game_id: str = "liber") -> Deck:
        """The user's deck or a ready-made one, by name."""
        try:
            return await self.decks.find(user_id, name, game_id)
        except DeckRefused as err:
            raise HostError(err.key, rules=err.rules, **err.params) from None

    async def create_deck(
        self, user: UserRef, name: str, text: str, game_id: str = "liber"
    ) -> tuple[Deck, bool]:
        await self.remember_user(user)
        try:
            return await self.decks.create(user.id, name, text, game_id)
        except DeckRefused as err:
            raise HostError(err.key, rules=err.rules, **err.params) from None

    async def delete_deck(self, user_id: int, name: str, game_id: str = "liber") -> Deck:
        try:
            return await self.decks.delete(user_id, name, game_id)
        except DeckRefused as err:
            raise HostError(err.key, rules=err.rules, **err.params) from None

    async def user_decks(self, user_id: int, game_id: str = "liber") -> list[Deck]:
        return await self.decks.mine(user_id, game_id)

    # ---- play ------------------------------------------------------------------------
    def legal_moves(
        self, live: LiveMatch, user_id: int, locale: str = "en"
    ) -> list[tuple[str, str]]:
        """``(notation, label)`` of the user's legal actions, from memory."""
        seat = live.seat_of(user_id)
        if seat is None or live.match.is_over:
            return []
        game = live.game
        state = live.match.state
        return [
            (game.format_action(a), game_text(locale, game.describe_action(state, seat, a)))
            for a in game.legal_actions(state, seat)
        ]

    async def play(
        self,
        match_id: int,
        user_id: int,
        move: str,
        *,
        expected_version: int | None = None,
        seat: int | None = None,
        by_clock: bool = False,
        expired: tuple[float, int, bool] | None = None,
    ) -> Update:
        """Play ``move`` for ``user_id``'s seat: checked, committed and the
        clocks synced in the match's locked transaction, then accepted in
        memory. ``by_clock``: a bot decided for the absent player;
        ``expired``: ``(since, expiries, optional)`` of the clock that ran out
        (refused as ``stale`` unless that clock is still the seat's running
        one; the seat's count of expiries and its bank are written with the
        move)."""
        live = await self._lookup(match_id)  # checked again under the lock
        seats = live.seats_of(user_id)
        if not seats:
            raise HostError("not-seated")
        if seat is not None and seat not in seats:
            raise HostError("not-seated")
        with self._log_ids(live):
            async with live.lock:
                async with self._locked(live) as locked:
                    # checked against the database's match, reloaded if it was ahead
                    match = live.match
                    if live.status == "cancelled" and not match.is_over:
                        raise HostError("match-closed")
                    if expected_version is not None and expected_version != match.version:
                        raise HostError("stale")
                    if match.is_over:
                        raise HostError("game-over")
                    if seat is None:
                        seat = live.seat_of(user_id)
                        assert seat is not None
                    if seat not in match.pending():
                        raise HostError("not-your-turn")
                    before_pending = dict(match.pending())
                    try:
                        new_state, events, notation = match.preview(seat, move.strip())
                    except RulesError as err:
                        raise HostError("illegal", rules=err) from None
                    # committed first, with the clocks; only then does the
                    # match in memory change
                    await self._commit(locked, live, seat, notation, new_state, events)
                    saved = await self._sync_locked(
                        locked, live, new_state, moved=seat, by_clock=by_clock, expired=expired
                    )
                match.accept(seat, notation, new_state, events)
                live.clock_before.update(saved)
                self._after_commit(live)
                update = self._update(live, seat, notation, events, before_pending)
                if by_clock:
                    update = replace(update, by_clock=True)
            await self._refresh_players(live)
            self.kick_bots(live)
        return update

    def _log_ids(self, live: LiveMatch) -> contextlib.AbstractContextManager[None]:
        """Log lines about ``live`` carry its shard, server and match."""
        return logcontext.bind(
            shard=shard_of(live.guild_id, self.shards.count), guild=live.guild_id, match=live.id
        )

    @contextlib.asynccontextmanager
    async def _locked(self, live: LiveMatch) -> AsyncIterator[LockedMatch]:
        """The match's database lock (under ``live.lock``): when the database
        is ahead of memory (another process played, finished or cancelled
        the match), the match is read again and swapped into ``live`` first.
        Leaving the block commits what was written in it."""
        async with self.store.locked_match(live.id) as locked:
            if locked.version != live.match.version or locked.status != live.status:
                await self._reload(live)
            yield locked

    async def resign(self, match_id: int, user_id: int) -> Update:
        live = await self._lookup(match_id)  # checked again under the lock
        seats = live.seats_of(user_id)
        if not seats:
            raise HostError("not-seated")
        with self._log_ids(live):
            async with live.lock:
                async with self._locked(live) as locked:
                    match = live.match
                    if match.is_over:
                        raise HostError("game-over")
                    seat = next((s for s in seats if s not in live.resigned), None)
                    if seat is None:
                        raise HostError("already-resigned")
                    before_pending = dict(match.pending())
                    try:
                        new_state, events, notation = match.preview_resign(seat)
                    except RulesError as err:
                        raise HostError("illegal", rules=err) from None
                    await self._commit(
                        locked, live, seat, notation, new_state, events, resigned=seat
                    )
                    saved = await self._sync_locked(
                        locked, live, new_state, moved=seat, resigned=seat
                    )
                match.accept(seat, notation, new_state, events)
                live.clock_before.update(saved)
                live.resigned.add(seat)
                self._after_commit(live)
                update = self._update(live, seat, notation, events, before_pending)
            await self._refresh_players(live)
            self.kick_bots(live)
        return update

    async def commit_undo(self, live: LiveMatch, seat: int, version: int) -> Update:
        """Take back ``seat``'s last action (undo by consent, bot/undo.py):
        the ``!undo`` row and the previous state are committed first, then the
        match in memory changes; the clocks follow the pending seats again and
        the bots are kicked (a bot move thought on the undone version is
        refused by its version check)."""
        with self._log_ids(live):
            async with live.lock:
                async with self._locked(live) as locked:
                    match = live.match
                    if match.version != version or live.status == "cancelled":
                        raise HostError("undo-stale")
                    before_pending = dict(match.pending())
                    views = [match.view(s) for s in range(match.seats)]
                    try:
                        new_state, events, notation = match.preview_undo(
                            seat, expected_version=version
                        )
                    except RulesError as err:
                        raise HostError("illegal", rules=err) from None
                    await self._commit(locked, live, seat, notation, new_state, events)
                    await self._sync_locked(
                        locked, live, new_state, moved=None, undone=(seat, version)
                    )
                match.accept(seat, notation, new_state, events)
                live.clock_before.pop(seat, None)  # taken back: its saved row is spent
                changed = {s for s in range(match.seats) if match.view(s) != views[s]}
                update = self._update(live, seat, notation, events, before_pending, also=changed)
            await self._refresh_players(live)
            self.kick_bots(live)
        return update

    async def _commit(
        self,
        locked: LockedMatch,
        live: LiveMatch,
        seat: int,
        action: str,
        new_state: Any,
        events: Sequence[Event],
        resigned: int | None = None,
    ) -> None:
        game = live.game
        outcome = game.outcome(new_state)
        result = None
        finished = None
        if outcome is not None:
            ranking = [[live.user_of(s) for s in group] for group in outcome.ranking]
            result = (
                json.dumps({"seats": [list(g) for g in outcome.ranking], "users": ranking}),
                outcome.reason,
            )
            quitters = (
                live.resigned | live.replaced | ({resigned} if resigned is not None else set())
            )
            finished = ratings.FinishedMatch(
                match_id=live.id,
                guild_id=live.guild_id,
                game_id=live.game_id,
                seats=tuple(
                    ratings.SeatResult(
                        user_id=live.user_of(seat),
                        place=outcome.place(seat),
                        resigned=seat in quitters,
                        is_bot=seat in live.bots and seat not in live.replaced,
                    )
                    for seat in range(live.match.seats)
                ),
            )
        try:
            await locked.commit_action(
                expected_version=live.match.version,
                seat=seat,
                action=action,
                events=[e.to_json() for e in events],
                snapshot=game.dump_state(new_state).decode(),
                status="finished" if outcome is not None else "active",
                result=result,
                guild_id=live.guild_id,
                game_id=live.game_id,
                resigned_seat=resigned,
                finished=finished,
            )
        except StaleWrite:
            raise HostError("stale") from None

    def _after_commit(self, live: LiveMatch) -> None:
        if live.match.is_over:
            live.status = "finished"
            self.by_channel.pop(live.channel_id, None)
            self._retire(live)

    def _update(
        self,
        live: LiveMatch,
        seat: int,
        action: str,
        events: tuple[Event, ...],
        before_pending: Mapping[int, Decision],
        also: Iterable[int] = (),
    ) -> Update:
        match = live.match
        pending = match.pending()
        concerned = set(pending) | set(before_pending) | set(also)
        for ev in events:
            if ev.to is not None:
                concerned |= set(ev.to)
        # compared with what the seat was last shown (its key when it was last
        # concerned), not with the state just before: the seat's view may have
        # changed since, by actions that did not concern it
        changed = set()
        game, state, version = live.game, match.state, match.version
        for s in concerned:
            shown = live.private_keys.get(s)
            now = private_key(game, state, pending, s)
            live.private_keys[s] = (version, now)
            if shown is None or shown[1] != now:
                changed.add(s)
        return Update(
            live=live,
            version=match.version,
            seat=seat,
            action=action,
            events=events,
            pending=pending,
            outcome=match.outcome(),
            private_changed=frozenset(changed),
        )

    # ---- bots and the clock ------------------------------------------------------------------
    def kick_bots(self, live: LiveMatch) -> None:
        """Let the bots play the decisions that are theirs (in the background).
        Only the process that owns the match drives its bots."""
        if not self._drives(live):
            return
        if not any(seat in live.bots for seat in live.match.pending()):
            return
        task = self._bot_tasks.get(live.id)
        if task is not None and not task.done():
            return
        self._bot_tasks[live.id] = asyncio.get_running_loop().create_task(self._drive_bots(live))

    async def _drive_bots(self, live: LiveMatch) -> None:
        logcontext.set_ids(
            shard=shard_of(live.guild_id, self.shards.count), guild=live.guild_id, match=live.id
        )
        stale = 0  # stale refusals in a row
        while True:
            match = live.match
            if not self._drives(live):
                return
            seats = [s for s in sorted(match.pending()) if s in live.bots]
            if not seats:
                return
            seat = seats[0]
            level = live.bot_levels.get(seat, "normal")
            try:
                notation, version = await self._bot_move(live, seat, level)
                update = await self.play(
                    live.id, live.user_of(seat), notation, expected_version=version, seat=seat
                )
            except HostError as err:
                if err.key == "stale":
                    # the match moved on meanwhile (here or in another process):
                    # play reloaded it if the database was ahead; think again.
                    # A player moving while the bot thinks (both to decide at
                    # once: Belle Position's deployment) is progress, however
                    # often; only refusals on a match that did not move on
                    # count (a loop), a few times
                    stale = 0 if live.version > version else stale + 1
                    if stale <= BOT_STALE_RETRIES:
                        continue
                    log.warning(
                        "bot of match %s seat %s: %s stale refusals in a row, stopped",
                        live.id,
                        seat,
                        stale,
                    )
                    return
                log.warning("bot of match %s seat %s refused: %s", live.id, seat, err.key)
                return
            except Exception:
                log.exception("bot of match %s seat %s failed", live.id, seat)
                return
            stale = 0
            await self._notify_update(update)

    async def _bot_move(self, live: LiveMatch, seat: int, level: str) -> tuple[str, int]:
        """A bot's choice for a seat, thought out off the event loop: ``hard``
        (about a second of pure Python) in :attr:`bot_workers` when given,
        the others (milliseconds) in a thread."""
        from engine import rng
        from engine.bots import Budget, bot_rng, has_bots

        match = live.match
        version = match.version
        legal = list(match.legal_actions(seat))
        state = bot_rng(match.seed, seat, str(version))
        if not has_bots(live.game_id):
            # a game whose bots are not written yet: a random legal action, from
            # a generator derived from the match's seed (the same after a
            # restart), so that an absent player never stalls the match
            action, _ = rng.choice(state, legal)
            return live.game.format_action(action), version
        view = match.view(seat)
        cfg = self.clock_config
        budget = Budget(
            iterations=cfg.bot_iterations,
            seconds=cfg.bot_seconds if self.bot_clock is not None else None,
            clock=self.bot_clock,
        )
        args = (live.game_id, level, view, legal, state, budget)
        if level == "hard" and self.bot_workers is not None:
            action, _ = await self.bot_workers.run(think, *args)
        else:
            action, _ = await asyncio.to_thread(think, *args)
        return live.game.format_action(action), version

    async def _notify_update(self, update: Update) -> None:
        for listener in list(self.listeners):
            try:
                await listener.on_update(update)
            except Exception:
                log.exception("listener failed on an update")

    async def wait_for_bots(self) -> None:
        """Until no bot is thinking (tests, shutdown)."""
        while True:
            tasks = [t for t in self._bot_tasks.values() if not t.done()]
            if not tasks:
                return
            await asyncio.gather(*tasks, return_exceptions=True)

    async def _sync_clock(self, live: LiveMatch) -> None:
        """Start the clock of seats that now have a decision, stop the others
        (a match just started, or caught up with another process's moves), in
        the match's locked transaction. Nothing when the database is ahead of
        memory: the move that put it ahead synced the clocks in its own."""
        if live.match.is_over:
            return
        async with live.lock, self.store.locked_match(live.id) as locked:
            if locked.version != live.match.version or locked.status != "active":
                return
            rows = await locked.clocks()
            changed, _ = self._clock_changes(
                live, rows, live.match.pending(), live.match.version, moved=None
            )
            await locked.set_clocks(changed)

    async def _sync_locked(
        self,
        locked: LockedMatch,
        live: LiveMatch,
        new_state: Any,
        *,
        moved: int | None,
        by_clock: bool = False,
        undone: tuple[int, int] | None = None,
        resigned: int | None = None,
        expired: tuple[float, int, bool] | None = None,
    ) -> dict[int, tuple[int, ClockRow]]:
        """The clocks after an action committed in ``locked`` (not yet
        accepted in memory: ``new_state`` is the state it makes), read and
        written in that same transaction, so that no other process's move
        computes them from an older state. Returns the rows to keep for an
        undo (:attr:`LiveMatch.clock_before`), to record once accepted.
        ``expired``: see :meth:`play`; ``HostError("stale")`` (the whole
        transaction rolls back) when the clock that ran out is no longer the
        seat's running one."""
        game = live.game
        over = game.outcome(new_state) is not None
        if over and expired is None:
            return {}
        rows = await locked.clocks()
        if expired is not None:
            row = rows.get(moved) if moved is not None else None
            if row is None or not row[3] or row[0] != expired[0]:
                raise HostError("stale")  # the seat acted (or its clock moved) meanwhile
        if over:
            return {}
        changed, saved = self._clock_changes(
            live,
            rows,
            game.pending(new_state),
            live.match.version + 1,
            moved=moved,
            by_clock=by_clock,
            undone=undone,
            resigned=resigned,
            expired=expired,
        )
        await locked.set_clocks(changed)
        return saved

    def _clock_changes(
        self,
        live: LiveMatch,
        rows: Mapping[int, ClockRow],
        pending: Mapping[int, Decision],
        version: int,
        *,
        moved: int | None,
        by_clock: bool = False,
        undone: tuple[int, int] | None = None,
        resigned: int | None = None,
        expired: tuple[float, int, bool] | None = None,
    ) -> tuple[dict[int, ClockRow], dict[int, tuple[int, ClockRow]]]:
        """The clock rows that change (``{seat: row}``) once ``pending`` (at
        ``version``) is the match's, from the database's ``rows``, and the
        rows to save for an undo. ``moved``: the seat whose decision was just
        made (by its player, or by a bot when ``by_clock``); a player who
        decides resets their count of expiries. ``undone``: ``(seat,
        version)`` after an undo of the action that made ``version``: a
        take-back costs the others no time (their decision was not made: no
        bank is charged) and gives the seat that took back none (its clock is
        as it was when that action started). ``expired``: the moved seat's
        clock ran out: its count of expiries is set, and its bank emptied on
        the fast clock (kept whole when the decision was optional)."""
        cfg = self.clock_config
        now = self.now()
        changed: dict[int, ClockRow] = {}
        saved: dict[int, tuple[int, ClockRow]] = {}
        restored = None
        if undone is not None:
            before = live.clock_before.get(undone[0])
            if before is not None and before[0] == undone[1]:
                restored = before[1]
        for seat in range(live.match.seats):
            if seat in live.bots or seat in live.resigned or seat == resigned:
                continue
            old = rows.get(seat)
            row = old
            if row is None:
                row = (now, cfg.per_move(live.clock), cfg.bank(live.clock), False, False, 0)
            if seat == moved and row[3]:
                saved[seat] = (version, row)
            if undone is not None and seat == undone[0] and restored is not None:
                row = restored if seat in pending else (*restored[:3], False, False, restored[5])
            elif undone is not None and row[3] and seat not in pending:
                row = (*row[:3], False, row[4], row[5])  # stopped, not charged
            since, per_move, bank, was_pending, reminded, expiries = row
            if seat == moved and not by_clock:
                expiries = 0
            if was_pending and (seat not in pending or seat == moved):
                # the decision is made: the bank pays what went over
                used = now - since
                bank = max(0.0, bank - max(0.0, used - per_move))
                was_pending = False
            if seat in pending and not was_pending:
                since, was_pending, reminded = now, True, False
            if seat == moved and expired is not None:
                _, expiries, optional = expired
                # an optional decision let pass takes nothing from the bank;
                # an absence on the fast clock empties it
                bank = row[2] if optional else (0.0 if live.clock == "fast" else bank)
            new = (since, per_move, bank, was_pending, reminded, expiries)
            if new != old:
                changed[seat] = new
        return changed, saved

    async def tick(self) -> None:
        """Remind, expire decisions, expire old lobbies, for the shards this
        process owns. Hosts call this every few seconds; it also records each
        owned shard's heartbeat, which freezes its clocks while it is down,
        and (on a shared database) catches up with the moves other processes
        made in its matches."""
        now = self.now()
        await self.store.heartbeat(now, self.shards)
        if self.shared:
            await self.sweep()
        due: dict[int, list[tuple[int, float, float, float, bool, int]]] = {}
        # claimed: no other process handles these clocks for a while (a lease)
        for (
            match_id,
            seat,
            since,
            per_move,
            bank,
            reminded,
            expiries,
        ) in await self.store.claim_due_clocks(now, self.shards):
            due.setdefault(match_id, []).append((seat, since, per_move, bank, reminded, expiries))
        for match_id, clocks in due.items():
            try:
                live = self.matches.get(match_id)
                if live is None:  # owned, due, not in memory: read it
                    live = await self.get_match(match_id)
                if not self._drives(live):
                    continue
                with self._log_ids(live):
                    await self._tick_match(live, clocks, now)
            except Exception:
                # one broken match must not hold up the others' clocks
                log.exception("clock of match %s failed", match_id)
        for hook in list(self.tick_hooks):
            try:
                await hook(now)
            except Exception:
                log.exception("a tick hook failed")
        # only the lobbies this call closed: each is announced once
        for row in await self.store.expire_lobbies(now, self.clock_config.lobby_ttl, self.shards):
            lobby = Lobby.of(row)
            if lobby.guild_id is not None:
                await self._know_guild(lobby.guild_id, lobby.channel_id)
            for listener in list(self.listeners):
                try:
                    await listener.on_lobby_expired(lobby)
                except Exception:
                    log.exception("listener failed on an expired lobby")

    # ---- moves made by other processes ------------------------------------------------------
    async def sweep(self) -> None:
        """Catch up with the owned matches the database has moved on (a move
        played by another process, whose notification was missed) and retire
        those finished or cancelled elsewhere."""
        versions = await self.store.active_versions(self.shards)
        for match_id, version in versions.items():
            live = self.matches.get(match_id)
            if live is None or version != live.version or not self._drives(live):
                await self._catch_up(match_id, version)
        for live in list(self.matches.values()):
            if live.id not in versions and self._drives(live):
                await self._catch_up(live.id, None)

    def _on_move(self, match_id: int, version: int | None) -> None:
        """A move (``version``) or a cancel (None) committed by any process
        (this one's too), heard through :meth:`Store.listen_moves`: the owner
        catches up in a task of its own, so that the listener never waits on
        a match's lock."""
        live = self.matches.get(match_id)
        if live is None or not self._drives(live):
            return  # not driven here (an owned match not in memory: the sweep finds it)
        if version is not None and version <= live.version:
            return  # this process's own move, or one it already has
        task = asyncio.get_running_loop().create_task(self._catch_up(match_id, version))
        self._catch_ups.add(task)
        task.add_done_callback(self._catch_ups.discard)

    async def _catch_up(self, match_id: int, version: int | None) -> None:
        """Bring an owned match up to the database's ``version`` (None: it is
        no longer active): reload it, retire it if it ended, sync its clocks
        and kick its bots. Matches of other processes are left alone."""
        try:
            live = self.matches.get(match_id)
            if live is None:
                if version is None:
                    return
                row = await self.store.match(match_id)
                if row is None or row.status != "active" or not self.shards.owns(row.guild_id):
                    return
                live = await self.get_match(match_id)  # registered: it plays here
                await self._sync_clock(live)
                return
            if not self.owns(live):
                return
            if version is not None and version <= live.version and self._drives(live):
                return  # up to date
            with self._log_ids(live):
                async with live.lock:
                    row = await self.store.match(match_id)
                    if row is None or (row.version == live.version and row.status == live.status):
                        return
                    await self._reload(live, row)
                if live.status != "active" or live.match.is_over:
                    self._retire(live)
                    return
                if self.by_channel.get(live.channel_id) is None:
                    self._register(live)
                await self._sync_clock(live)
                self.kick_bots(live)
        except Exception:
            log.exception("could not catch up with match %s", match_id)

    async def _tick_match(
        self,
        live: LiveMatch,
        clocks: list[tuple[int, float, float, float, bool, int]],
        now: float,
    ) -> None:
        """Remind or expire the due clocks of one match."""
        for seat, since, per_move, bank, reminded, expiries in clocks:
            if seat in live.bots or seat not in live.match.pending():
                continue
            total = per_move + bank
            deadline = since + total
            if now >= deadline:
                await self._expire(live, seat, expiries + 1, since)
            elif not reminded and now >= since + total / 2:
                # under the match's lock, and only if it is still the clock
                # found due: a move made meanwhile (here or elsewhere) wins
                if not await self.store.remind_clock(live.id, seat, since):
                    continue
                for listener in list(self.listeners):
                    try:
                        await listener.on_reminder(live, seat, deadline - now)
                    except Exception:
                        log.exception("listener failed on a reminder")

    async def _expire(self, live: LiveMatch, seat: int, expiries: int, since: float) -> None:
        """The clock that started at ``since`` ran out: a ``normal`` bot
        decides for the absent player, and the clock's expiry is written with
        that move, in its locked transaction (nothing if the seat acted or its
        clock moved meanwhile). An optional decision (a response window the
        player may let pass) does not count as an absence and takes nothing
        from the bank."""
        cfg = self.clock_config
        # the state the bot thinks on (play refuses the move on any other)
        decision = live.match.pending().get(seat)
        optional = decision is not None and decision.optional
        if optional:
            expiries -= 1
        try:
            notation, version = await self._bot_move(live, seat, "normal")
            update = await self.play(
                live.id,
                live.user_of(seat),
                notation,
                expected_version=version,
                seat=seat,
                by_clock=True,
                expired=(since, expiries, optional),
            )
        except HostError:
            return  # the player (or someone) acted meanwhile
        if expiries >= cfg.max_expiries and not live.match.is_over:
            # absent too often: a bot plays the seat to the end
            live.bots.add(seat)
            live.replaced.add(seat)
            live.bot_levels[seat] = "normal"
            await self.store.set_replaced(live.id, seat)
        await self._notify_update(update)
        self.kick_bots(live)

    # ---- records, ratings, replays ---------------------------------------------------------
    async def leaderboard(
        self, game_id: str, scope: str, page: int, per_page: int = 10
    ) -> tuple[list[tuple[int, int, str, int, int, int, bool]], int, int]:
        """One page of a leaderboard: ``[(rank, user, name, rating, games, wins,
        provisional)]``, the page (clamped) and the number of pages."""
        if game_id not in GAMES:
            raise HostError("unknown-game", game=game_id, games=", ".join(sorted(GAMES)))
        _, total = await self.store.leaderboard(scope, game_id, "humans", 0, 0)
        pages = max(1, (total + per_page - 1) // per_page)
        page = min(max(page, 1), pages)
        rows, _ = await self.store.leaderboard(
            scope, game_id, "humans", (page - 1) * per_page, per_page
        )
        out = []
        for i, (uid, name, mu, sigma, games, wins) in enumerate(rows):
            out.append(
                (
                    (page - 1) * per_page + i + 1,
                    uid,
                    self.names.get(uid, name) or f"#{uid}",
                    ratings.display(mu, sigma),
                    games,
                    wins,
                    games < self.provisional_games,
                )
            )
        return out, page, pages

    async def player_stats(
        self, user_id: int, guild_id: int | None
    ) -> tuple[list[tuple[str, int, int, float]], dict[str, dict[str, tuple[int, int, bool]]]]:
        """The user's record per game (played, won, average place) and ratings
        ``{game: {scope or "bots": (rating, games, provisional)}}``."""
        record = await self.store.user_record(user_id, None)
        rated: dict[str, dict[str, tuple[int, int, bool]]] = {}
        wanted = ratings.scopes(guild_id)
        for scope in wanted:
            for game_id, pool, mu, sigma, games, _wins in await self.store.user_ratings(
                user_id, scope
            ):
                key = scope if pool == "humans" else f"{scope}:bots"
                rated.setdefault(game_id, {})[key] = (
                    ratings.display(mu, sigma),
                    games,
                    games < self.provisional_games,
                )
        return record, rated

    async def rating_points(self, user_id: int, game_id: str, scope: str) -> list[int]:
        return [
            ratings.display(mu, sigma)
            for _, mu, sigma in await self.store.rating_series(user_id, game_id, scope)
        ]

    async def history(
        self, *, user_id: int | None, game_id: str | None, guild_id: int | None, limit: int = 10
    ) -> list[tuple[int, str, str, str, list[tuple[int, str, int, bool, bool]]]]:
        return await self.store.recent_results(
            user_id=user_id, game_id=game_id, guild_id=guild_id, limit=limit
        )

    async def replay_record(self, match_id: int) -> tuple[LiveMatch, dict[str, Any]]:
        """The match record as JSON data; the seed only once the match is over
        (before that, only its SHA-256 commitment)."""
        live = await self.get_match(match_id)
        data = live.match.record().to_json()
        data["players"] = live.names
        if not live.match.is_over:
            # Moves can name hidden cards (a card taken from a deck, an ambush,
            # a secret deployment): until the end, only the commitment is given.
            data.pop("seed")
            data.pop("actions")
            data["note"] = "the moves and the seed are revealed when the match ends"
        return live, data

    def replay_step(self, live: LiveMatch, step: int) -> tuple[Match, tuple[Event, ...]]:
        """The match as it was after ``step`` actions (0: the start), and the
        events of that step."""
        step = min(max(step, 0), live.version)
        match = Match.replay(live.match.record(), upto=step)
        events = tuple(item.event for item in live.match.log if item.version == step)
        return match, events

    async def rematch(self, match_id: int, user: UserRef) -> Lobby:
        """A new lobby in the same channel with the same players and options,
        hosted by whoever asked."""
        live = await self.get_match(match_id)
        if not live.match.is_over:
            raise HostError("rematch-not-over")
        if user.id not in {uid for uid, _ in live.players}:
            raise HostError("not-seated")
        previous = live.match.options
        if live.game_id in DECK_GAMES:  # decks follow their players, not the seats
            previous = previous.model_copy(update={"decks": ()})
        options = live.game.options_text(previous)
        channel_id = live.lobby_channel_id or live.channel_id  # not in the match's thread
        lobby = await self.create_lobby(
            guild_id=live.guild_id,
            channel_id=channel_id,
            host=user,
            game_id=live.game_id,
            seats=live.match.seats,
            options=options,
            clock=live.clock,  # the finished match's clock, not the server's default
        )
        for seat, (uid, name) in enumerate(live.players):
            if uid != user.id and seat not in live.bots:
                await self.join(channel_id, UserRef(uid, name))
            decks = getattr(live.match.options, "decks", ())
            if live.game_id in DECK_GAMES and seat not in live.bots and seat < len(decks):
                await self.store.set_lobby_deck(lobby.id, uid, "", decks[seat])
        new = await self.lobby(lobby.id)
        assert new is not None
        return new

    # ---- delivery bookkeeping -----------------------------------------------------------
    async def mark_dm_closed(self, user_id: int, closed: bool = True) -> None:
        if closed:
            self.dm_closed.add(user_id)
        else:
            self.dm_closed.discard(user_id)
        await self.store.set_dm_closed(user_id, closed)

    async def mark_dm_notice(self, live: LiveMatch, seat: int) -> None:
        live.dm_notice_sent.add(seat)
        await self.store.set_dm_notice_sent(live.id, seat)

    async def set_board_message(self, live: LiveMatch, message_id: int, version: int) -> None:
        """Where the match's latest board went, showing ``version``."""
        if live.board_version is not None and version < live.board_version:
            return  # a newer board is out
        live.board_message_id = message_id
        live.board_version = version
        await self.store.set_board_message(live.id, message_id, version)

    async def set_lobby_message(self, lobby_id: int, message_id: int | None) -> None:
        """The message that shows a lobby (updated as players come and go)."""
        await self.store.set_lobby_message(lobby_id, message_id)

    async def seat_message(self, match_id: int, seat: int) -> tuple[int, int, int] | None:
        """Where a seat's latest private view went: ``(channel, message, version)``."""
        return await self.store.seat_message(match_id, seat)

    async def set_seat_message(
        self, match_id: int, seat: int, channel_id: int, message_id: int, version: int
    ) -> None:
        await self.store.set_seat_message(match_id, seat, channel_id, message_id, version)

    def seat_lock(self, match_id: int, seat: int) -> contextlib.AbstractAsyncContextManager[None]:
        """:meth:`Store.seat_lock` where other processes share the database;
        alone, the announcer's lock of the match is enough."""
        if not self.shared:
            return contextlib.nullcontext()
        return self.store.seat_lock(match_id, seat)

    async def swap_seat_message(
        self, match_id: int, seat: int, channel_id: int, message_id: int, version: int
    ) -> tuple[bool, tuple[int, int, int] | None]:
        """:meth:`Store.swap_seat_message`: recorded unless a newer view is."""
        return await self.store.swap_seat_message(match_id, seat, channel_id, message_id, version)

    # ---- opening and closing ----------------------------------------------------------
    @classmethod
    async def open(cls, database: str | Path, **kwargs: Any) -> HostService:
        """A service on the store at ``database`` (a SQLite file or a
        ``postgresql://`` URL; opened and migrated); keyword arguments as for
        the constructor (``shards=``...). :meth:`close` closes the store."""
        return cls(await Store.open(database), **kwargs)

    async def close(self) -> None:
        if self._stop_listening is not None:
            stop, self._stop_listening = self._stop_listening, None
            await stop()
        for task in list(self._catch_ups):
            task.cancel()
        if self._catch_ups:
            await asyncio.gather(*self._catch_ups, return_exceptions=True)
        await self.store.close()

    async def record(self, match_id: int) -> MatchRecord:
        live = await self.get_match(match_id)
        return live.match.record()
