"""The core of :class:`~bot.service.HostService`: its state, start-up and lookups.

:class:`HostCore` holds what every part of the service shares: the
constructor (the store, the shards, the caches of users, servers and
matches), start-up (resuming the matches this process owns, languages and
settings) and lookups (a channel's match or lobby, a match by id, read
again when the database is ahead of memory).

The service's other methods are in parts, one module each, every one a
mixin class that inherits from :class:`HostCore`: ``service_lobbies.py``,
``service_play.py``, ``service_bots.py`` and ``service_records.py``;
:class:`~bot.service.HostService` (``service.py``) inherits them all. A part
sees the core's attributes and methods by plain inheritance. What one part
(or the core) calls in another part is declared at the end of
:class:`HostCore` under ``TYPE_CHECKING``: a signature only, for mypy
(which checks that the part's definition fits it, as an override); at run
time the method is found on :class:`~bot.service.HostService`. A new call
across parts adds its signature there. No part imports ``bot.service``, not
even for typing (that would be an import circle: see
tests/bot/test_import_graph.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from cachetools import TTLCache

from engine import Event, Match
from engine.match import LoggedEvent

from .decks import DeckService
from .guilds import GuildSettings
from .live import ClockConfig, ClockRow, HostError, HostListener, LiveMatch, Lobby, Update, UserRef
from .shards import ShardSet
from .store import LockedMatch, MatchRow, Store
from .workers import Workers

# the service's one logger, whichever part logs (tests and log filters name it)
log = logging.getLogger("bot.service")

CACHE_SIZE = 100_000  # users or servers whose cached rows are fresh at once


def _is_row_id(value: int) -> bool:
    """Could be the id of a row (SQLite integers are signed 64-bit): larger
    numbers, typed or crafted, name nothing rather than overflow."""
    return 0 < value < 2**63


class HostCore:
    """The shared state, start-up and lookups of the host service (see the
    module's docstring for how the parts fit together)."""

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

    # ---- defined by the parts ---------------------------------------------------
    # (signatures for mypy only, checked against the parts' own: see the module's
    # docstring)
    if TYPE_CHECKING:
        # lobbies (service_lobbies.py)
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
        ) -> Lobby: ...

        async def join(self, channel_id: int, user: UserRef, deck: str | None = None) -> Lobby: ...

        # play (service_play.py)
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
        ) -> Update: ...

        def _log_ids(self, live: LiveMatch) -> contextlib.AbstractContextManager[None]: ...

        # bots and the clock, moves made by other processes (service_bots.py)
        def kick_bots(self, live: LiveMatch) -> None: ...

        async def _sync_clock(self, live: LiveMatch) -> None: ...

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
        ) -> dict[int, tuple[int, ClockRow]]: ...

        def _on_move(self, match_id: int, version: int | None) -> None: ...

        async def _catch_up(self, match_id: int, version: int | None) -> None: ...
