"""What every part of the adapter shares: the bot's state (service, worker
pools, languages, action menus) and the handlers in flight. The bot class
itself (:class:`bot.discord.client.GueridonBot`) adds announcing, start-up
and shutdown on top of this.

The bot is an :class:`~discord.ext.commands.AutoShardedBot`: one process runs
the gateway shards ``SHARD_IDS`` of ``SHARD_COUNT`` (by default all of them,
as many as Discord advises), and receives only those shards' servers (and, with
shard 0, the direct messages). Nothing here may count on a cached guild,
channel or member of a server another process serves: posts go through
``get_partial_messageable`` (REST), users through ``fetch_user``."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from typing import Any

import discord
from discord.ext import commands

from ..i18n import lang, menu_entries
from ..images import ImageCache
from ..menu import Menu, build_menu
from ..service import HostService, LiveMatch, UserRef
from ..settings import Settings
from ..shards import parse_ids, shard_of
from ..workers import Workers

MENU_CACHE = 64  # action menus kept, by (match, version, seat, language)


def shard_options(settings: Settings) -> dict[str, Any]:
    """discord.py's ``shard_count`` / ``shard_ids`` from the settings: none of
    them (both None) lets discord.py ask Discord how many shards to run, all of
    them in this process."""
    ids = sorted(parse_ids(settings.shard_ids)) if settings.shard_ids else None
    return {"shard_count": settings.shard_count, "shard_ids": ids}


class BotCore(commands.AutoShardedBot):
    def __init__(self, settings: Settings, **kwargs: Any) -> None:
        intents = kwargs.pop("intents", None) or discord.Intents.default()
        kwargs.setdefault("command_prefix", commands.when_mentioned)
        kwargs.setdefault("help_command", None)
        for key, value in shard_options(settings).items():
            kwargs.setdefault(key, value)
        super().__init__(intents=intents, **kwargs)
        self.settings = settings
        self.service: HostService | None = None
        # images and hard bots' thinking run in worker processes (threads in tests)
        self.render_pool = Workers(
            "render", settings.render_workers, processes=settings.worker_processes
        )
        self.bot_pool = Workers("bots", settings.bot_workers, processes=settings.worker_processes)
        # the last board, private image and spots drawn per match: drawn once
        self.images = ImageCache()
        self.channel_locale: dict[int, str] = {}
        self.user_locale: dict[int, str] = {}
        # action menus by (match, version, seat, language): a click resolves its
        # index path in the menu of the version it was built for
        self.menus: dict[tuple[int, int, int, str], Menu] = {}
        # interactions acknowledged by a public "thinking" (see replies.defer_public)
        self.public_thinking: set[int] = set()
        self._busy = 0
        self._idle = asyncio.Event()
        self._idle.set()

    @property
    def host(self) -> HostService:
        assert self.service is not None, "setup_hook has not run"
        return self.service

    # ---- handlers in flight -----------------------------------------------------------
    def _enter(self) -> None:
        self._busy += 1
        self._idle.clear()

    def _leave(self) -> None:
        self._busy -= 1
        if self._busy == 0:
            self._idle.set()

    @contextlib.asynccontextmanager
    async def working(self) -> AsyncIterator[None]:
        """Marks a handler in flight; :meth:`close` waits for them to finish."""
        self._enter()
        try:
            yield
        finally:
            self._leave()

    def hold(self, task: asyncio.Task[Any], interaction_id: int) -> None:
        """Count ``task`` (a command's, see :class:`~bot.discord.errors.GueridonTree`)
        as a handler in flight until it ends, its refusal included; then
        forget the interaction's public placeholder."""
        self._enter()

        def done(_: asyncio.Task[Any]) -> None:
            self.public_thinking.discard(interaction_id)
            self._leave()

        task.add_done_callback(done)

    async def wait_idle(self, timeout: float) -> None:
        """Let handlers in flight finish their announcements (bounded wait)."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._idle.wait(), timeout=timeout)

    # ---- helpers ------------------------------------------------------------------------
    def shard_for(self, guild_id: int | None) -> int:
        """The gateway shard that receives ``guild_id``'s events (0: direct messages)."""
        return shard_of(guild_id, self.shard_count or self.settings.shards.count)

    async def render(self, fn: Callable[..., bytes], *args: Any) -> bytes:
        """Draw off the event loop, in a worker (``fn`` and its arguments pickle)."""
        return await self.render_pool.run(fn, *args)

    async def board_png(self, live: LiveMatch, state: Any, version: int, locale: str) -> bytes:
        """The public board of ``state`` (the match at ``version``), drawn
        once for the channel, the spectators and ``/board`` alike, from
        ``view(state, None)`` only."""
        from render import render_board

        game, names = live.game, live.names

        async def draw(inputs: tuple[Any, tuple[str, ...]]) -> bytes:
            return await self.render(render_board, live.game_id, inputs[0], names, locale)

        png: bytes = await self.images.get(
            "board",
            live.id,
            None,
            locale,
            version,
            lambda: (game.view(state, None), tuple(names)),
            draw,
        )
        return png

    async def private_png(
        self, live: LiveMatch, seat: int, view: Any, version: int, locale: str
    ) -> bytes:
        """A seat's private image of ``view`` (the match at ``version``), drawn
        again only when the view changed."""
        from render import render_private

        names = live.names

        async def draw(_: Any) -> bytes:
            return await self.render(render_private, live.game_id, view, names, locale)

        png: bytes = await self.images.get(
            "private", live.id, seat, locale, version, lambda: (view, tuple(names)), draw
        )
        return png

    async def spots_png(
        self,
        live: LiveMatch,
        seat: int,
        view: Any,
        version: int,
        locale: str,
        placements: list[tuple[int, str]],
    ) -> bytes | None:
        """The numbered spots a seat chooses among, on its view (None: the
        game draws none), drawn again only when they or the view changed."""
        from render import CHOICE_GAMES, render_choices

        if live.game_id not in CHOICE_GAMES:
            return None  # nothing to draw: no trip to a worker
        names = live.names

        async def draw(_: Any) -> bytes | None:
            return await self.render_pool.run(
                render_choices, live.game_id, view, names, locale, placements
            )

        png: bytes | None = await self.images.get(
            "spots",
            live.id,
            seat,
            locale,
            version,
            lambda: (view, tuple(names), tuple(placements)),
            draw,
        )
        return png

    def locale_for_channel(self, channel_id: int) -> str:
        """The language of public messages: the server's ``/settings`` language
        first (it takes effect at once), then Discord's, saved or seen."""
        known = None if self.service is None else self.service.channel_locale(channel_id)
        return known or self.channel_locale.get(channel_id) or "en"

    def locale_for_user(self, user_id: int) -> str:
        """The language of a user's direct messages: the one of their latest
        interaction. With several processes the user may have talked to
        another one since: the service's, which reads through the store,
        comes first then."""
        known = None
        if self.service is not None and not self.settings.shards.is_all:
            known = self.service.user_locale(user_id)
        known = known or self.user_locale.get(user_id)
        if known is None and self.service is not None:
            known = self.service.user_locale(user_id)  # saved before a restart
        return known or "en"

    async def note_interaction(self, interaction: discord.Interaction) -> UserRef:
        user = interaction.user
        locale = str(interaction.locale.value) if interaction.locale else "en"
        self.user_locale[user.id] = locale
        if interaction.guild_id is not None and interaction.channel_id is not None:
            guild_locale = interaction.guild_locale
            self.channel_locale.setdefault(
                interaction.channel_id, str(guild_locale.value) if guild_locale else locale
            )
        ref = UserRef(user.id, user.display_name, locale)
        await self.host.remember_user(ref)
        if interaction.guild_id is not None and interaction.channel_id is not None:
            guild_locale = interaction.guild_locale
            await self.host.remember_guild(
                interaction.guild_id,
                interaction.channel_id,
                str(guild_locale.value) if guild_locale else None,
            )
        return ref

    def menu_for(self, live: LiveMatch, seat: int, locale: str) -> Menu:
        """The seat's action menu in the current state (memoised per version)."""
        match = live.match
        key = (live.id, match.version, seat, lang(locale))
        menu = self.menus.get(key)
        if menu is None:
            game = live.game
            menu = build_menu(menu_entries(game, match.state, seat, locale))
            if len(self.menus) >= MENU_CACHE:
                self.menus.pop(next(iter(self.menus)))
            self.menus[key] = menu
        return menu
