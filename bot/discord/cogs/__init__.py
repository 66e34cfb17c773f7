"""The slash commands, one cog per concern: lobbies, playing, rules and help,
records. Handlers acknowledge first, call the service, then answer; they do
not catch: refusals and failures go through :mod:`bot.discord.errors`."""

from __future__ import annotations

from discord.ext import commands

from ..announce import Announcer
from .decks import DecksCog
from .info import InfoCog
from .lobby import LobbyCog
from .play import PlayCog
from .records import RecordsCog
from .undo import UndoCog


def cogs(bot: Announcer) -> list[commands.Cog]:
    """Every cog, in the order their commands are registered."""
    return [LobbyCog(bot), PlayCog(bot), InfoCog(bot), RecordsCog(bot), DecksCog(bot), UndoCog(bot)]


__all__ = ["DecksCog", "InfoCog", "LobbyCog", "PlayCog", "RecordsCog", "UndoCog", "cogs"]
