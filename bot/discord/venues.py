"""Where a match plays on Discord.

In thread mode (a server's default, ``GuildSettings.match_mode``) a match
plays in a public thread made from its lobby message (Discord gives the thread
that message's id): :meth:`Venues.open` makes it when the match starts, before
the service registers the match, so no board, bot move or clock message goes
out before the match has its thread. The lobby's channel then gets one line at
the start (:meth:`Venues.started`) and one at the end (:meth:`Venues.ended`),
after which the thread is archived. In channel mode, or when the bot may not
make the thread (it says so once per server, in the channel, naming the
missing permission), the match plays in the lobby's channel as before.
"""

from __future__ import annotations

import contextlib
import logging
from typing import Literal

import discord

import i18n

from ..i18n import game_name, reason_text, t
from ..service import LiveMatch, Lobby
from .core import BotCore

log = logging.getLogger("gueridon")

# the auto-archive durations Discord accepts, in minutes
# (https://discord.com/developers/docs/resources/channel#start-thread-from-message)
ArchiveMinutes = Literal[60, 1440, 4320, 10080]
ARCHIVE_MINUTES: tuple[ArchiveMinutes, ...] = (60, 1440, 4320, 10080)
THREAD_NAME_LIMIT = 100  # characters (same page: "name: 1-100 character channel name")


def archive_minutes(per_move_seconds: float) -> ArchiveMinutes:
    """The shortest auto-archive duration that outlasts two decisions of the
    match's clock (a silent thread is archived; the next board reopens it)."""
    for minutes in ARCHIVE_MINUTES:
        if minutes * 60 >= 2 * per_move_seconds:
            return minutes
    return ARCHIVE_MINUTES[-1]


def thread_name(locale: str, game_id: str, match_id: int, names: list[str]) -> str:
    """The thread's name: the game, the match and its players, cut to fit."""
    name = t(
        locale,
        "thread-name",
        game=game_name(locale, game_id),
        match=match_id,
        players=i18n.join_list(locale, names),
    )
    if len(name) > THREAD_NAME_LIMIT:
        name = name[: THREAD_NAME_LIMIT - 1].rstrip() + "…"
    return name


class Venues:
    """Opens, announces and closes the threads of a bot's matches."""

    def __init__(self, bot: BotCore) -> None:
        self.bot = bot

    async def open(self, live: LiveMatch, lobby: Lobby) -> int | None:
        """The service's venue: the id of the match's new thread, or None to
        play in the lobby's channel (channel mode, or no thread possible)."""
        host = self.bot.host
        if live.guild_id is None or lobby.message_id is None:
            return None
        settings = await host.guild_settings(live.guild_id)
        if settings.match_mode != "thread":
            return None
        channel = self.bot.get_channel(lobby.channel_id)
        if channel is not None and not isinstance(channel, discord.TextChannel):
            return None  # a thread, a voice channel's chat...: no thread from there
        if isinstance(channel, discord.TextChannel):
            me = channel.guild.me
            perms = channel.permissions_for(me) if me is not None else None
            if perms is not None:
                for flag, key in (
                    ("create_public_threads", "thread-perm-create"),
                    ("send_messages_in_threads", "thread-perm-send"),
                ):
                    if not getattr(perms, flag):
                        await self._cannot(live, lobby, key)
                        return None
        locale = self.bot.locale_for_channel(lobby.channel_id)
        try:
            data = await self.bot.http.start_thread_with_message(
                lobby.channel_id,
                lobby.message_id,
                name=thread_name(locale, live.game_id, live.id, live.names),
                auto_archive_duration=archive_minutes(host.clock_config.per_move(live.clock)),
                rate_limit_per_user=None,
            )
        except discord.Forbidden as err:
            log.warning("no thread for match %s: %s", live.id, err)
            await self._cannot(live, lobby, "thread-perm-create" if err.code == 50013 else None)
            return None
        except discord.HTTPException as err:
            log.warning("no thread for match %s: %s", live.id, err)
            await self._cannot(live, lobby, None)
            return None
        if settings.thread_notice:
            # threads work again: a later loss of the permission is told again
            await host.save_guild_settings(settings.model_copy(update={"thread_notice": False}))
        return int(data["id"])

    async def _cannot(self, live: LiveMatch, lobby: Lobby, permission: str | None) -> None:
        """Say once per server why its matches play in the channel."""
        assert live.guild_id is not None
        host = self.bot.host
        settings = await host.guild_settings(live.guild_id)
        if settings.thread_notice:
            return
        locale = self.bot.locale_for_channel(lobby.channel_id)
        if permission is None:
            text = t(locale, "thread-refused")
        else:
            text = t(locale, "thread-no-permission", permission=t(locale, permission))
        try:
            await self.bot.get_partial_messageable(lobby.channel_id).send(text)
        except discord.HTTPException:
            log.warning("could not say why match %s has no thread", live.id)
            return
        await host.save_guild_settings(settings.model_copy(update={"thread_notice": True}))

    async def started(self, live: LiveMatch) -> None:
        """The lobby channel's line at the start: game, players, the thread."""
        if not live.in_thread or live.lobby_channel_id is None:
            return
        locale = self.bot.locale_for_channel(live.lobby_channel_id)
        text = t(
            locale,
            "thread-started",
            game=game_name(locale, live.game_id),
            match=live.id,
            players=i18n.join_list(locale, live.names),
            thread=f"<#{live.channel_id}>",
        )
        await self._say(live, text)

    async def ended(self, live: LiveMatch) -> None:
        """After the final board: the result in one line in the lobby's
        channel, and the thread archived."""
        outcome = live.match.outcome()
        if not live.in_thread or live.lobby_channel_id is None or outcome is None:
            return
        locale = self.bot.locale_for_channel(live.lobby_channel_id)
        winners = [live.names[seat] for seat in outcome.ranking[0]] if outcome.ranking else []
        text = t(
            locale,
            "thread-ended",
            game=game_name(locale, live.game_id),
            match=live.id,
            result=t(
                locale,
                "thread-winners",
                count=len(winners),
                players=i18n.join_list(locale, winners),
            ),
            reason=reason_text(locale, outcome.reason),
            thread=f"<#{live.channel_id}>",
        )
        await self._say(live, text)
        await self.archive(live)

    async def cancelled(self, live: LiveMatch, user: str) -> None:
        """A cancelled match: one line in the lobby's channel, the thread archived."""
        if not live.in_thread or live.lobby_channel_id is None:
            return
        locale = self.bot.locale_for_channel(live.lobby_channel_id)
        text = t(
            locale,
            "thread-cancelled",
            game=game_name(locale, live.game_id),
            match=live.id,
            user=user,
            thread=f"<#{live.channel_id}>",
        )
        await self._say(live, text)
        await self.archive(live)

    async def _say(self, live: LiveMatch, text: str) -> None:
        assert live.lobby_channel_id is not None
        try:
            await self.bot.get_partial_messageable(live.lobby_channel_id).send(text)
        except discord.HTTPException:
            log.warning("could not tell the lobby channel of match %s", live.id)

    async def archive(self, live: LiveMatch) -> None:
        if not live.in_thread:
            return
        with contextlib.suppress(discord.HTTPException):
            await self.bot.http.edit_channel(live.channel_id, archived=True)
