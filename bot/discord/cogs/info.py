"""``/rules`` and ``/help``."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from engine import GAMES

from ...i18n import game_name, game_text, rules_text, t
from ...lobby_options import readable_options
from ...service import HostError
from ..announce import Announcer
from ..replies import reply
from ..text import EMBED_COLOUR, clip
from ..translation import GAME_CHOICES, desc, locale_of, name


class InfoCog(commands.Cog, name="InfoCog"):
    def __init__(self, bot: Announcer) -> None:
        self.bot = bot

    @app_commands.command(name=name("rules"), description=desc("cmd-rules"))
    @app_commands.describe(game=desc("opt-game"))
    @app_commands.rename(game=name("game"))
    @app_commands.choices(game=GAME_CHOICES)
    async def rules(self, interaction: discord.Interaction, game: str) -> None:
        # acknowledged first: the channel's open lobby is read from the store
        await interaction.response.defer(ephemeral=True, thinking=True)
        locale = locale_of(interaction)
        g = GAMES.get(game)
        if g is None:
            raise HostError("unknown-game", game=game, games=", ".join(sorted(GAMES)))
        info = g.info
        embed = discord.Embed(
            title=t(locale, "rules-title", game=game_name(locale, info.id)), colour=EMBED_COLOUR
        )
        in_force = None  # the options of this channel's match, else of its open lobby
        if interaction.channel_id is not None:
            live = self.bot.host.match_in(interaction.channel_id)
            lobby = await self.bot.host.lobby_in(interaction.channel_id)
            if live is not None and live.game_id == game:
                in_force = readable_options(locale, game, live.match.options)
            elif lobby is not None and lobby.game_id == game:
                in_force = readable_options(locale, game, lobby.options)
        embed.description = clip(
            rules_text(locale, info, in_force, game_text(locale, g.rules_details())), 4000
        )
        await reply(interaction, embed=embed)

    @app_commands.command(name=name("help"), description=desc("cmd-help"))
    async def help(self, interaction: discord.Interaction) -> None:
        await reply(interaction, t(locale_of(interaction), "help-text"))
