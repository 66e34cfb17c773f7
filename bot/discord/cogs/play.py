"""``/play`` (with autocomplete), ``/hand``, ``/resign`` (``/board`` is in
``watch.py``), and the
clicks on a seat's choices: move buttons and selects, menu levels, "my hand"."""

from __future__ import annotations

import contextlib
import io
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from ...i18n import game_name, t
from ...menu import Menu, parse_path
from ...service import HostError, HostService, LiveMatch
from ..announce import Announcer, confirm_and_announce
from ..components import PLAY, MenuSelect, PlayHandlers, SeatItem
from ..menus import add_menu_level
from ..replies import reply
from ..text import clip
from ..translation import desc, locale_of, name


class PlayCog(commands.Cog, name=PLAY):
    def __init__(self, bot: Announcer) -> None:
        self.bot = bot

    @property
    def host(self) -> HostService:
        return self.bot.host

    async def match_for(self, interaction: discord.Interaction) -> LiveMatch:
        """The match of this channel, or in DMs the user's latest match
        (whichever process owns it)."""
        if interaction.guild_id is not None and interaction.channel_id is not None:
            live = self.host.match_in(interaction.channel_id)
            if live is None:
                raise HostError("no-match")
            return live
        latest = await self.host.latest_match_of(interaction.user.id)
        if latest is None:
            raise HostError("no-match")
        return latest

    # ---- commands ---------------------------------------------------------------------
    @app_commands.command(name=name("play"), description=desc("cmd-play"))
    @app_commands.describe(move=desc("opt-move"))
    @app_commands.rename(move=name("move"))
    async def play(self, interaction: discord.Interaction, move: str) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.bot.note_interaction(interaction)
        live = await self.match_for(interaction)
        update = await self.host.play(live.id, interaction.user.id, move)
        text = t(locale_of(interaction), "move-accepted", move=update.action)
        await confirm_and_announce(interaction, text, update)

    @play.autocomplete("move")
    async def play_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        try:
            live = await self.match_for(interaction)
        except HostError:
            return []
        typed = current.strip().lower()
        choices = []
        for notation, label in self.typed_moves(live, interaction.user.id, locale_of(interaction)):
            shown = notation if label == notation else f"{notation} — {label}"
            if typed and typed not in shown.lower():
                continue
            choices.append(app_commands.Choice(name=clip(shown, 100), value=notation[:100]))
            if len(choices) == 25:
                break
        return choices

    def typed_moves(self, live: LiveMatch, user_id: int, locale: str) -> list[tuple[str, str]]:
        """``(notation, label)`` of what the user may type now: the actions of
        the game's menu (complete ones, as ``Roturier G11P``, where the game
        offers them), labelled by their path, then the other legal actions."""
        legal = self.host.legal_moves(live, user_id, locale)
        seat = live.seat_of(user_id)
        if seat is None or seat not in live.match.pending():
            return legal
        menu = self.bot.menu_for(live, seat, locale)
        moves = [(n, " › ".join(step.label for step in path)) for n, path in menu.entries]
        known = {n for n, _ in moves}
        return moves + [(n, label) for n, label in legal if n not in known]

    @app_commands.command(name=name("hand"), description=desc("cmd-hand"))
    async def hand(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.bot.note_interaction(interaction)
        await self.send_hand(interaction, await self.match_for(interaction))

    async def send_hand(self, interaction: discord.Interaction, live: LiveMatch) -> None:
        seat = live.seat_of(interaction.user.id)
        if seat is None:
            await reply(interaction, t(locale_of(interaction), "spectator"))
            return
        embeds, files, view, _ = await self.bot.private_message(live, seat, locale_of(interaction))
        kwargs: dict[str, Any] = {"embeds": embeds, "files": files}
        if view is not None:
            kwargs["view"] = view
        await reply(interaction, **kwargs)

    @app_commands.command(name=name("resign"), description=desc("cmd-resign"))
    async def resign(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.bot.note_interaction(interaction)
        live = await self.match_for(interaction)
        update = await self.host.resign(live.id, interaction.user.id)
        # no line of our own: every game's resignation event says it already
        await confirm_and_announce(
            interaction, t(locale_of(interaction), "resign-accepted"), update
        )

    # ---- components -----------------------------------------------------------------------
    async def show_hand(self, interaction: discord.Interaction, match_id: int) -> None:
        """The "my hand" button of the public board: the clicker's private view, ephemerally."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.bot.note_interaction(interaction)
        await self.send_hand(interaction, await self.host.current_match(match_id))

    async def play_index(
        self, interaction: discord.Interaction, item: SeatItem[Any], index: int
    ) -> None:
        """A move button or select: the action of that index in the seat's menu."""
        # a deferred update: the clicked message itself can then be edited
        await interaction.response.defer()
        await self.bot.note_interaction(interaction)
        live = await item.fresh_match(interaction)
        entries = self.bot.menu_for(live, item.seat, locale_of(interaction)).entries
        if not 0 <= index < len(entries):
            raise HostError("stale")
        await self.play_notation(interaction, item, entries[index][0])

    async def play_notation(
        self, interaction: discord.Interaction, item: SeatItem[Any], notation: str
    ) -> None:
        """Play a chosen action (the version checked again under the match lock),
        spend the clicked components, confirm, announce."""
        update = await self.host.play(
            item.match_id,
            interaction.user.id,
            notation,
            expected_version=item.version,
            seat=item.seat,
        )
        with contextlib.suppress(discord.HTTPException):  # the clicked components are spent
            await interaction.edit_original_response(view=None)
        await reply(interaction, t(locale_of(interaction), "move-accepted", move=update.action))
        await self.bot.announce(update)

    async def menu_choice(
        self, interaction: discord.Interaction, item: MenuSelect, value: str
    ) -> None:
        """A choice in a level of the action menu: play its action, or answer
        with the next level (or page)."""
        await interaction.response.defer()
        await self.bot.note_interaction(interaction)
        live = await item.fresh_match(interaction)
        menu = self.bot.menu_for(live, item.seat, locale_of(interaction))
        path = parse_path(item.path)
        node = None if path is None else menu.node(path)
        if path is None or node is None or node.is_leaf or not value[1:].isdecimal():
            raise HostError("stale")
        number = int(value[1:])
        if value.startswith("p"):
            await self.send_level(interaction, live, item.seat, menu, path, number)
            return
        if not value.startswith("c") or number >= len(node.children):
            raise HostError("stale")
        child = node.children[number]
        if child.entry is not None:
            await self.play_notation(interaction, item, menu.entries[child.entry][0])
            return
        await self.send_level(interaction, live, item.seat, menu, (*path, number), 0)

    async def send_level(
        self,
        interaction: discord.Interaction,
        live: LiveMatch,
        seat: int,
        menu: Menu,
        path: tuple[int, ...],
        page: int,
    ) -> None:
        """Answer with a level of the menu: what was chosen so far, the
        choices as selects and, when the game draws them, the numbered spots."""
        from render import render_choices

        locale = locale_of(interaction)
        node = menu.node(path)
        assert node is not None
        leaves = [
            (i + 1, menu.entries[c.entry][0])
            for i, c in enumerate(node.children)
            if c.entry is not None
        ]
        components = discord.ui.View(timeout=None)
        png = None
        if leaves:
            png = await self.bot.render_pool.run(
                render_choices, live.game_id, live.match.view(seat), live.names, locale, leaves
            )
        add_menu_level(components, live, seat, locale, menu, path, page, numbered=png is not None)
        trail = " › ".join(step.label for step in menu.trail(path)) or game_name(
            locale, live.game.info.id
        )
        text = t(locale, "menu-level", path=trail)
        kwargs: dict[str, Any] = {"view": components}
        if png is not None:
            text += "\n" + t(locale, "menu-spots")
            kwargs["file"] = discord.File(io.BytesIO(png), filename="spots.png")
        await reply(interaction, text, **kwargs)


def _handles(cog: PlayCog) -> PlayHandlers:
    return cog  # mypy checks that the cog offers what its components call
