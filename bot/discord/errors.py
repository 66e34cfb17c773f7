"""The one error path of the adapter.

Handlers raise; they do not catch. A :class:`~bot.service.HostError` (a
refusal: not your turn, no such match...) reaches :func:`answer_failure` and
becomes an ephemeral message in the user's language; anything else becomes
the "something went wrong" message and a logged traceback. Commands get
there through :meth:`GueridonTree.on_error` (discord.py wraps what a command
raises in a :class:`~discord.app_commands.CommandInvokeError`, whose
``original`` is the refusal); components, which discord.py does not route
to any error handler, through :func:`guard` (see
:class:`bot.discord.components.GueridonItem`). Both answer correctly whether
or not the interaction was already acknowledged.

Every interaction's handler and error path log with the shard, server and
match they are about (:mod:`bot.logcontext`): :func:`log_ids`."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from typing import Any

import discord
from discord import app_commands

from .. import logcontext
from ..i18n import error_text, t
from ..service import HostError
from .core import BotCore
from .replies import go_private, reply
from .translation import locale_of

log = logging.getLogger("gueridon")


def log_ids(interaction: discord.Interaction, match: int | None = None) -> dict[str, int | None]:
    """The log context of an interaction: the shard of its server (0 in
    direct messages), the server, and the match (given, or the one playing in
    the interaction's channel)."""
    bot = interaction.client
    # read defensively: the error path must never fail on what it logs
    guild_id = getattr(interaction, "guild_id", None)
    channel_id = getattr(interaction, "channel_id", None)
    shard = None
    if isinstance(bot, BotCore):
        shard = bot.shard_for(guild_id)
        if match is None and bot.service is not None and channel_id is not None:
            live = bot.service.match_in(channel_id)
            match = None if live is None else live.id
    return {"shard": shard, "guild": guild_id, "match": match}


def unwrap(error: BaseException) -> BaseException:
    """What a handler raised, out of discord.py's wrapper."""
    if isinstance(error, app_commands.CommandInvokeError):
        return error.original
    return error


async def answer_failure(interaction: discord.Interaction, error: BaseException) -> None:
    """Tell the user why their interaction did nothing: a refusal in their
    language, or the internal-error text (and a traceback in the log)."""
    with logcontext.bind(**log_ids(interaction)):
        await _answer_failure(interaction, unwrap(error))


async def _answer_failure(interaction: discord.Interaction, error: BaseException) -> None:
    locale = locale_of(interaction)
    if isinstance(error, HostError):
        text = error_text(locale, error.key, error.rules, **error.params)
        try:
            await go_private(interaction)
            await reply(interaction, t(locale, "error-prefix", message=text))
        except discord.HTTPException:
            log.exception("could not answer a refusal (%s)", error.key)
        return
    log.error("interaction failed", exc_info=error)
    with contextlib.suppress(discord.HTTPException):
        await go_private(interaction)
        await reply(interaction, t(locale, "internal-error"))


@contextlib.asynccontextmanager
async def guard(interaction: discord.Interaction, match: int | None = None) -> AsyncIterator[None]:
    """Run a component's handler (about ``match``, if any): in flight for
    :meth:`BotCore.close`, its failure answered by :func:`answer_failure`,
    its log lines marked with its shard, server and match."""
    bot = interaction.client
    busy = bot.working() if isinstance(bot, BotCore) else contextlib.nullcontext()
    with logcontext.bind(**log_ids(interaction, match)):
        async with busy:
            try:
                yield
            except Exception as err:
                await answer_failure(interaction, err)
            finally:
                if isinstance(bot, BotCore):
                    bot.public_thinking.discard(interaction.id)


class GueridonTree(app_commands.CommandTree[Any]):
    """The command tree: every command's failure goes to :func:`answer_failure`."""

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        # Not a check: this runs first in the task that runs the command and,
        # after it, its error handler. Counting that task as in flight lets
        # the bot's close wait for the command's announcement or refusal.
        task = asyncio.current_task()
        if isinstance(self.client, BotCore) and task is not None:
            self.client.hold(task, interaction.id)
        # the command's task (and its error handler, after it) logs where it is
        logcontext.set_ids(**log_ids(interaction))
        return True

    async def on_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError, /
    ) -> None:
        await answer_failure(interaction, error)
