"""The slash commands, one cog per concern: lobbies, playing, rules and help,
records, decks, spectators. Handlers acknowledge first, call the service, then answer; they do
not catch: refusals and failures go through :mod:`bot.discord.errors`."""

from __future__ import annotations

from discord.ext import commands

from ..announce import Announcer
from .decks import DecksCog
from .info import InfoCog
from .learn import LearnCog
from .lobby import LobbyCog
from .play import PlayCog
from .records import RecordsCog
from .settings import SettingsCog
from .undo import UndoCog
from .watch import WatchCog


def cogs(bot: Announcer) -> list[commands.Cog]:
    """Every cog, in the order their commands are registered."""
    return [
        LobbyCog(bot),
        PlayCog(bot),
        InfoCog(bot),
        RecordsCog(bot),
        DecksCog(bot),
        SettingsCog(bot),
        LearnCog(bot),
        WatchCog(bot),
        UndoCog(bot),
    ]


__all__ = [
    "DecksCog",
    "InfoCog",
    "LearnCog",
    "LobbyCog",
    "PlayCog",
    "RecordsCog",
    "SettingsCog",
    "UndoCog",
    "WatchCog",
    "cogs",
]
