"""The bot: start-up (store, service, resumed matches, cogs, translator,
persistent components, command sync), the turn clock's tick, shutdown.

A process runs the shards of the settings (``SHARD_COUNT`` / ``SHARD_IDS``;
none: every shard) and its service owns their servers' matches and lobbies
(``settings.shards``); only the process that ``settings.syncs_commands``
(by default the one with shard 0) syncs the command tree."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

import discord

from .. import logcontext
from ..service import HostService
from ..settings import Settings
from .announce import Announcer, DiscordListener
from .cogs import cogs
from .components import COMPONENTS
from .errors import GueridonTree
from .translation import Translator

log = logging.getLogger("gueridon")


class GueridonBot(Announcer):
    def __init__(self, settings: Settings, **kwargs: Any) -> None:
        kwargs.setdefault("tree_cls", GueridonTree)
        super().__init__(settings, **kwargs)
        self.ticker: asyncio.Task[None] | None = None
        self.resending: asyncio.Task[None] | None = None

    async def setup_hook(self) -> None:
        settings = self.settings
        self.service = await HostService.open(
            settings.database,
            provisional_games=settings.provisional_games,
            clock_config=settings.clock_config(),
            bot_workers=self.bot_pool,
            shards=settings.shards,  # the servers this process owns
        )
        self.service.listeners.append(DiscordListener(self))
        await self.tree.set_translator(Translator())
        # the cogs first: their listeners (spectators, undo requests) are in
        # place before a resumed match announces anything or its bots move
        for cog in cogs(self):
            await self.add_cog(cog)
        resumed = await self.service.resume()
        loop = asyncio.get_running_loop()
        if self.service.shared and resumed:
            # the direct messages a crash may have lost (shared databases: see
            # Announcer.send_lost_private); kept until done
            self.resending = loop.create_task(self.send_lost_private(resumed))
        self.ticker = loop.create_task(self._tick_forever())
        shards = settings.shards.describe() if settings.shard_count else "all"
        log.info("shards %s: resumed %d active matches", shards, len(resumed))
        self.add_dynamic_items(*COMPONENTS)
        if not settings.syncs_commands:
            return  # another process (shard 0's) syncs the commands every process answers
        guild_id = settings.dev_guild_id
        if guild_id:
            guild = discord.Object(id=guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()

    async def _tick_forever(self) -> None:
        """The turn clock: reminders, expiries, old lobbies."""
        while True:
            await asyncio.sleep(self.settings.tick_seconds)
            try:
                await self.host.tick()
            except Exception:
                log.exception("clock tick failed")

    async def close(self) -> None:
        if self.ticker is not None:
            self.ticker.cancel()
        if self.service is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.service.wait_for_bots(), timeout=10)
        await self.wait_idle(timeout=10)
        try:
            await super().close()
        finally:
            if self.service is not None:
                await self.service.close()
            self.render_pool.close()
            self.bot_pool.close()


def create_bot(settings: Settings, **kwargs: Any) -> GueridonBot:
    """A ready-to-log-in bot; extra keyword arguments go to the client."""
    return GueridonBot(settings, **kwargs)


def setup_logging(settings: Settings, handler: logging.Handler | None = None) -> logging.Handler:
    """Log to ``handler`` (stderr by default) at the settings' level, each
    line with the shard, server and match it is about (:mod:`bot.logcontext`)."""
    handler = handler or logging.StreamHandler()
    logcontext.install(handler)
    discord.utils.setup_logging(
        handler=handler,
        formatter=handler.formatter or logging.Formatter(logcontext.FORMAT),
        level=getattr(logging, settings.log_level.upper(), logging.INFO),
    )
    return handler


def run_bot(settings: Settings) -> int:
    setup_logging(settings)
    bot = create_bot(settings)
    token = settings.token
    assert token is not None
    try:
        bot.run(token, log_handler=None)
    except discord.LoginFailure:
        print("Discord refused the token: check DISCORD_TOKEN in your .env.")
        return 2
    return 0
