"""Translation on the Discord side: the :class:`app_commands.Translator` of
command names, descriptions and game choices, and the language of an
interaction. The texts themselves are in :mod:`bot.i18n`."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import locale_str as _T

from engine import GAMES

from ..i18n import FR, t
from ..service import hostable_games


class Translator(app_commands.Translator):
    """French descriptions and game names from the i18n catalogue."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        if not str(locale.value).lower().startswith("fr"):
            return None
        key = string.extras.get("key")
        if key is None:
            return None
        if key.startswith("game:"):
            game = GAMES.get(key[5:])
            return game.info.name_fr if game else None
        return FR.get(key)


def locale_of(interaction: discord.Interaction) -> str:
    """The language of the user behind an interaction."""
    return str(interaction.locale.value) if interaction.locale else "en"


def desc(key: str) -> app_commands.locale_str:
    """A description (English text, French through the ``key``)."""
    return _T(t("en", key), key=key)


def name(name: str) -> app_commands.locale_str:
    """A command or option name, localised through the ``name-*`` keys."""
    return _T(name, key=f"name-{name}")


GAME_CHOICES = [
    app_commands.Choice(name=_T(GAMES[gid].info.name_en, key=f"game:{gid}"), value=gid)
    for gid in hostable_games()
]
