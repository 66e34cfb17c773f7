"""The bot: start-up (store, service, resumed matches, cogs, translator,
persistent components, command sync), the turn clock's tick, shutdown."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

import discord

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

    async def setup_hook(self) -> None:
        self.service = await HostService.open(
            self.settings.database_path,
            provisional_games=self.settings.provisional_games,
            clock_config=self.settings.clock_config(),
            bot_workers=self.bot_pool,
        )
        self.service.listeners.append(DiscordListener(self))
        await self.tree.set_translator(Translator())
        # the cogs first: their listeners (spectators, undo requests) are in
        # place before a resumed match announces anything or its bots move
        for cog in cogs(self):
            await self.add_cog(cog)
        resumed = await self.service.resume()
        self.ticker = asyncio.get_running_loop().create_task(self._tick_forever())
        log.info("resumed %d active matches", len(resumed))
        self.add_dynamic_items(*COMPONENTS)
        guild_id = self.settings.dev_guild_id
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


def run_bot(settings: Settings) -> int:
    discord.utils.setup_logging(level=getattr(logging, settings.log_level.upper(), logging.INFO))
    bot = create_bot(settings)
    token = settings.token
    assert token is not None
    try:
        bot.run(token, log_handler=None)
    except discord.LoginFailure:
        print("Discord refused the token: check DISCORD_TOKEN in your .env.")
        return 2
    return 0
