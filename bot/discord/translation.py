"""Translation on the Discord side: the :class:`app_commands.Translator` of
command names, descriptions and game choices, and the language of an
interaction. The texts themselves are in :mod:`bot.i18n`."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import locale_str as _T

import i18n

from ..i18n import game_name, t
from ..service import hostable_games


class Translator(app_commands.Translator):
    """French descriptions and game names from the i18n catalogue."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        language = i18n.pick(str(locale.value))
        key = string.extras.get("key")
        if key is None or language == i18n.FALLBACK:
            return None  # the English text given with the command
        if key.startswith("game:"):
            key = f"game-{key[5:]}-name"
        return i18n.translate(language, key) if key in i18n.keys(language) else None


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
    app_commands.Choice(name=_T(game_name("en", gid), key=f"game:{gid}"), value=gid)
    for gid in hostable_games()
]
