"""``/watch`` (follow a match as a spectator, or stop) and ``/board`` (the
latest public board, privately), with the delivery of boards to spectators.

In channel mode a spectator gets each new public board by DM, in their
language; in thread mode (the match plays in a thread of its own) they are
added to the thread instead, where the boards are posted anyway
(:func:`join_thread`). What a spectator is sent is drawn from the public side
of the match only (:mod:`bot.spectators`): never a hand or a private image.
"""

from __future__ import annotations

import io
import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from ...i18n import game_name, game_text, lang, result_lines, t
from ...service import HostError, HostService, LiveMatch, Update
from ...spectators import (
    Spectators,
    plays_in_thread,
    summary_line,
    update_lines,
)
from ..announce import DM_CLOSED_CODES, Announcer
from ..replies import reply
from ..text import EMBED_COLOUR, clip, fit_description
from ..translation import desc, locale_of, name

log = logging.getLogger("gueridon")

WATCH = "watch"

MatchId = app_commands.Range[int, 1, 2**53]  # Discord's INTEGER options stop at 2^53


ARCHIVED_THREAD = 50083  # "Operation cannot be performed on an archived thread"


async def join_thread(bot: Announcer, live: LiveMatch, user_id: int) -> None:
    """Thread mode: add the spectator to the match's thread
    (PUT /channels/{thread}/thread-members/{user}); the thread's boards do
    the rest. Discord archives a thread left silent for its auto-archive
    duration (a correspondence match may wait a day for a move) and takes no
    new member there: the bot, its creator, reopens it first. discord.py
    drops an archived thread from its cache, so a thread it does not hold is
    reopened too (harmless on an open one), and an archiving it had not seen
    yet is met by reopening and trying again."""
    thread = bot.get_channel(live.channel_id)
    if not isinstance(thread, discord.Thread) or thread.archived:
        await bot.http.edit_channel(live.channel_id, archived=False)
    try:
        await bot.http.add_user_to_thread(live.channel_id, user_id)
    except discord.HTTPException as err:
        if err.code != ARCHIVED_THREAD:
            raise
        await bot.http.edit_channel(live.channel_id, archived=False)
        await bot.http.add_user_to_thread(live.channel_id, user_id)


async def leave_thread(bot: Announcer, live: LiveMatch, user_id: int) -> bool:
    """Thread mode: take the spectator out of the match's thread again
    (DELETE /channels/{thread}/thread-members/{user}), which Discord allows
    only with Manage Threads; False when the bot may not (the spectator
    leaves the thread themselves then)."""
    thread = bot.get_channel(live.channel_id)
    if not isinstance(thread, discord.Thread):
        return False
    if not thread.permissions_for(thread.guild.me).manage_threads:
        return False
    try:
        await bot.http.remove_user_from_thread(live.channel_id, user_id)
    except discord.HTTPException:
        return False
    return True


class WatchCog(commands.Cog, name=WATCH):
    def __init__(self, bot: Announcer) -> None:
        self.bot = bot
        self.spectators = Spectators(bot.host)
        bot.board_listeners.append(self.deliver)

    async def cog_load(self) -> None:
        await self.spectators.load()

    @property
    def host(self) -> HostService:
        return self.bot.host

    async def match_of(
        self, interaction: discord.Interaction, match: int | None, *, mine: bool = False
    ) -> LiveMatch:
        """The match named by ``match``, else the one played in this
        channel or thread (or the one thread started from this channel); in
        DMs (with ``mine``) the user's latest match."""
        if match is not None:
            return await self.host.get_match(match)
        if interaction.guild_id is not None and interaction.channel_id is not None:
            live = self.host.match_in(interaction.channel_id) or self.spectators.started_in(
                interaction.channel_id
            )
            if live is None:
                raise HostError("no-match")
            return live
        if mine:
            latest = await self.host.latest_match_of(interaction.user.id)
            if latest is not None:
                return latest
        raise HostError("watch-which")

    # ---- /watch ------------------------------------------------------------------------------
    @app_commands.command(name=name("watch"), description=desc("watch-cmd-watch"))
    @app_commands.describe(match=desc("watch-opt-match"))
    @app_commands.rename(match=name("match"))
    async def watch(self, interaction: discord.Interaction, match: MatchId | None = None) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.bot.note_interaction(interaction)
        live = await self.match_of(interaction, match)
        locale = locale_of(interaction)
        user_id = interaction.user.id
        spectators = self.spectators
        if await spectators.following(live.id, user_id):
            await spectators.unwatch(live.id, user_id)
            text = t(locale, "watch-stopped", match=live.id)
            if plays_in_thread(live) and not await leave_thread(self.bot, live, user_id):
                text += "\n" + t(locale, "watch-leave-thread", thread=f"<#{live.channel_id}>")
            await reply(interaction, text)
            return
        spectators.check_can_watch(live, user_id)
        game = game_name(locale, live.game.info.id)
        if plays_in_thread(live):
            await join_thread(self.bot, live, user_id)
            await spectators.watch(live, user_id)
            await reply(
                interaction,
                t(locale, "watch-thread", match=live.id, game=game, thread=f"<#{live.channel_id}>"),
            )
            return
        await spectators.watch(live, user_id)
        sent = await self.send_board(
            live, user_id, locale, [t(locale, "watch-first", match=live.id)]
        )
        if not sent:
            await spectators.unwatch(live.id, user_id)
            await reply(interaction, t(locale, "watch-dm-closed", match=live.id))
            return
        await reply(interaction, t(locale, "watch-started", match=live.id, game=game))

    @watch.autocomplete("match")
    async def watch_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        return self.match_choices(interaction, current)

    def match_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        """The server's matches being played, for the ``match:`` option."""
        locale = locale_of(interaction)
        return [
            app_commands.Choice(
                name=clip(
                    t(
                        locale,
                        "watch-choice",
                        match=live.id,
                        game=game_name(locale, live.game.info.id),
                        players=", ".join(live.names),
                    ),
                    100,
                ),
                value=live.id,
            )
            for live in self.spectators.live_matches(interaction.guild_id, str(current or ""))
        ]

    # ---- /board --------------------------------------------------------------------------------
    @app_commands.command(name=name("board"), description=desc("watch-cmd-board"))
    @app_commands.describe(match=desc("watch-opt-match"))
    @app_commands.rename(match=name("match"))
    async def board(self, interaction: discord.Interaction, match: MatchId | None = None) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.bot.note_interaction(interaction)
        live = await self.match_of(interaction, match, mine=True)
        locale = locale_of(interaction)
        match_state, version = live.match.state, live.match.version  # before any await
        line = summary_line(live, locale)
        png = await self.bot.board_png(live, match_state, version, locale)
        await reply(interaction, line, file=discord.File(io.BytesIO(png), filename="board.png"))

    @board.autocomplete("match")
    async def board_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        return self.match_choices(interaction, current)

    # ---- boards by DM -------------------------------------------------------------------------
    def board_embed(
        self, live: LiveMatch, state: Any, version: int, locale: str, lines: list[str]
    ) -> discord.Embed:
        """A spectator's board of ``state`` (the match at ``version``): the
        public lines, then who acts (by name, no mention) or the result and the
        revealed seed."""
        match = live.match
        game = live.game
        status: list[str] = []
        outcome = game.outcome(state)
        if outcome is None:
            for seat, decision in sorted(game.pending(state).items()):
                what = game_text(locale, game.decision_text(decision, names=live.names))
                status.append(t(locale, "to-act", who=live.names[seat], what=what))
        else:
            title, *rest = result_lines(locale, outcome, live.names)
            status += [f"**{title}**", *rest]
            status.append(t(locale, "seed-reveal", seed=match.seed, sha=match.seed_commitment))
        embed = discord.Embed(
            title=t(locale, "match-title", game=game_name(locale, game.info.id), match=live.id),
            colour=EMBED_COLOUR,
        )
        embed.description = fit_description(
            lines, status, 4000, lambda n: t(locale, "earlier-lines", count=n)
        )
        embed.set_image(url="attachment://board.png")
        footer = "watch-footer-end" if outcome is not None else "watch-footer"
        embed.set_footer(text=t(locale, footer, match=live.id, actions=version))
        return embed

    async def send_board(
        self,
        live: LiveMatch,
        user_id: int,
        locale: str,
        lines: list[str],
        shown: tuple[Any, int, bytes] | None = None,
        upto: int | None = None,
    ) -> bool:
        """DM one spectator the public board (``shown``: the state, its
        version and its image, taken together; else the match now); False
        when their DMs are closed (they no longer follow the match then).
        ``upto``: the version of the last action it announces (default: the
        state's); nothing is sent if they were sent that far already."""
        if shown is None:
            state, version = live.match.state, live.match.version  # before any await
            png = await self.bot.board_png(live, state, version, locale)
        else:
            state, version, png = shown
        if not self.spectators.newer(live.id, user_id, version if upto is None else upto):
            return True  # they have this board already (or a newer one)
        embed = self.board_embed(live, state, version, locale, lines)
        try:
            user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
            await user.send(embed=embed, file=discord.File(io.BytesIO(png), filename="board.png"))
        except discord.Forbidden as err:
            if err.code in DM_CLOSED_CODES:
                return False
            log.warning("DM to spectator %s refused: %s", user_id, err)
        except discord.HTTPException:
            log.exception("could not DM the board of match %s to a spectator", live.id)
        return True

    async def deliver(
        self, live: LiveMatch, updates: list[Update], state: Any, version: int
    ) -> None:
        """After a board was posted (the announcement's lock is held): each
        spectator gets it by DM, in their language, drawn from the state the
        match's board showed (``state`` at ``version``: a newer action may be
        committed by now, and comes with its own announcement and lines);
        following ends with the final board."""
        spectators = self.spectators
        final = live.game.outcome(state) is not None
        watchers = await spectators.watchers(live.id)
        if watchers and not plays_in_thread(live):
            images: dict[str, bytes] = {}
            for user_id in watchers:
                locale = lang(self.bot.locale_for_user(user_id))  # one image per language
                if locale not in images:
                    images[locale] = await self.bot.board_png(live, state, version, locale)
                lines = update_lines(updates, locale)
                shown = (state, version, images[locale])
                announced = updates[-1].version  # the state may be newer: its lines follow
                if not await self.send_board(live, user_id, locale, lines, shown, announced):
                    await spectators.unwatch(live.id, user_id)
        if final:
            await spectators.finish(live.id)
