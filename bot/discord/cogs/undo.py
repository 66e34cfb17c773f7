"""``/undo``: ask the other players to take back your last move (undo by
consent, :mod:`bot.undo`), and their Accept / Refuse buttons.

The request is a public message in the match's channel (its thread in thread
mode) mentioning the players asked, with persistent buttons carrying the
match id and version (``gu:<match>:<version>:<a|r>``); only those players may
answer. The message is edited with the outcome; after an undo the board is
posted again and the private views that changed are sent again.
"""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands

from ...i18n import duration_text, t
from ...service import HostError, HostService
from ...undo import UndoDesk, UndoResult
from ..announce import Announcer, confirm_and_announce
from ..components import UNDO, UndoButton
from ..replies import reply
from ..translation import desc, locale_of, name

log = logging.getLogger("gueridon")


class UndoListener:
    """Edits a request's message when it runs out of time (the service's tick)."""

    def __init__(self, bot: Announcer) -> None:
        self.bot = bot

    async def on_update(self, update: object) -> None:
        return None

    async def on_reminder(self, *args: object) -> None:
        return None

    async def on_lobby_expired(self, lobby: object) -> None:
        return None

    async def on_undo_closed(self, result: UndoResult) -> None:
        await close_message(self.bot, result, "undo-expired")


async def close_message(bot: Announcer, result: UndoResult, key: str, **params: str) -> None:
    """The request's message says how it ended, without its buttons."""
    request, live = result.request, result.live
    if not request.message_id:
        return
    locale = bot.locale_for_channel(live.channel_id)
    text = t(locale, key, player=live.names[request.seat], **params)
    channel = bot.get_partial_messageable(live.channel_id)
    try:
        await channel.get_partial_message(request.message_id).edit(content=text, view=None)
    except discord.HTTPException:
        log.warning("could not edit the undo request of match %s", live.id)


class UndoCog(commands.Cog, name=UNDO):
    def __init__(self, bot: Announcer) -> None:
        self.bot = bot
        self.undo_listener = UndoListener(bot)

    @property
    def host(self) -> HostService:
        return self.bot.host

    @property
    def desk(self) -> UndoDesk:
        return UndoDesk.of(self.host)

    async def cog_load(self) -> None:
        self.host.listeners.append(self.undo_listener)
        UndoDesk.of(self.host)  # its expiry runs in the service's tick

    async def cog_unload(self) -> None:
        if self.undo_listener in self.host.listeners:
            self.host.listeners.remove(self.undo_listener)

    @app_commands.command(name=name("undo"), description=desc("cmd-undo"))
    async def undo(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        user = await self.bot.note_interaction(interaction)
        if interaction.channel_id is None:
            raise HostError("no-match")
        live = self.host.match_in(interaction.channel_id)
        if live is None:
            raise HostError("no-match")
        result = await self.desk.request(live.id, interaction.user.id)
        locale = self.bot.locale_for_channel(live.channel_id)
        if result.status == "done":  # bots only: accepted at once
            assert result.update is not None
            line = t(locale, "undo-accepted", player=live.names[result.request.seat])
            await confirm_and_announce(
                interaction,
                t(locale_of(interaction), "undo-accepted", player=user.name),
                result.update,
                [line],
            )
            return
        request = result.request
        seconds = request.deadline - self.host.now()
        # the move is not named: its notation may show what others may not see
        # (a card summoned in ambush)
        text = t(
            locale,
            "undo-request",
            player=live.names[request.seat],
            others=" ".join(f"<@{u}>" for u in sorted(request.asked)),
            time=duration_text(locale, seconds),
        )
        view = discord.ui.View(timeout=None)
        view.add_item(UndoButton(live.id, request.version, True, t(locale, "undo-accept")))
        view.add_item(UndoButton(live.id, request.version, False, t(locale, "undo-refuse")))
        channel = self.bot.get_partial_messageable(live.channel_id)
        message = await channel.send(
            content=text,
            view=view,
            allowed_mentions=discord.AllowedMentions(users=True),
        )
        await self.desk.set_message(live.id, message.id)
        await reply(interaction, t(locale_of(interaction), "undo-sent"))

    async def answer_undo(
        self, interaction: discord.Interaction, match_id: int, version: int, accept: bool
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        user = await self.bot.note_interaction(interaction)
        result = await self.desk.answer(match_id, version, interaction.user.id, accept)
        mine = locale_of(interaction)
        live = result.live
        if result.status == "noted":
            await reply(interaction, t(mine, "undo-noted"))
            return
        if result.status == "refused":
            await close_message(self.bot, result, "undo-declined", refuser=user.name)
            await reply(
                interaction,
                t(mine, "undo-declined", refuser=user.name, player=live.names[result.request.seat]),
            )
            return
        assert result.update is not None
        await close_message(self.bot, result, "undo-accepted")
        locale = self.bot.locale_for_channel(live.channel_id)
        line = t(locale, "undo-accepted", player=live.names[result.request.seat])
        await confirm_and_announce(
            interaction,
            t(mine, "undo-accepted", player=live.names[result.request.seat]),
            result.update,
            [line],
        )
