"""``/settings show|set|reset``: a server's settings, for members with Manage Server.

The group declares ``default_permissions(manage_guild=True)`` (Discord hides
it from other members) and every handler checks
``interaction.permissions.manage_guild`` too, because a server's admins can
open a command to anyone in Server Settings → Integrations. It is
``guild_only``: a DM has no server to set. The words are
:mod:`bot.settings_text`'s; the service enforces the settings.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord
from discord import app_commands
from discord.app_commands import locale_str as _T
from discord.ext import commands

import i18n

from ...guilds import GuildSettings
from ...service import CLOCKS, HostError, HostService
from ...settings_text import (
    DISCORD_LANGUAGE,
    SETTINGS,
    changed,
    changes_text,
    own_name,
    reset,
    show_text,
)
from ..announce import Announcer
from ..replies import reply
from ..translation import desc, locale_of


def sname(name: str) -> app_commands.locale_str:
    """A command or option name of ``/settings`` (``settings-name-*`` keys)."""
    return _T(name, key=f"settings-name-{name}")


LANGUAGE_CHOICES = [
    app_commands.Choice(name=desc("settings-choice-discord"), value=DISCORD_LANGUAGE),
    *(app_commands.Choice(name=own_name(code), value=code) for code in i18n.languages()),
]
MODE_CHOICES = [
    app_commands.Choice(name=desc("settings-choice-thread"), value="thread"),
    app_commands.Choice(name=desc("settings-choice-channel"), value="channel"),
]
CLOCK_CHOICES = [app_commands.Choice(name=desc(f"clock-{c}"), value=c) for c in CLOCKS]
RESET_CHOICES = [
    app_commands.Choice(name=desc("settings-choice-all"), value="all"),
    *(app_commands.Choice(name=desc(f"settings-what-{w}"), value=w) for w in SETTINGS),
]
QUIET = discord.AllowedMentions.none()  # channel and role mentions, never a ping


class SettingsCog(commands.Cog, name="SettingsCog"):
    settings = app_commands.Group(
        name=sname("settings"),
        description=desc("settings-cmd"),
        guild_only=True,
        default_permissions=discord.Permissions(manage_guild=True),
    )

    def __init__(self, bot: Announcer) -> None:
        self.bot = bot

    @property
    def host(self) -> HostService:
        return self.bot.host

    async def _begin(self, interaction: discord.Interaction) -> GuildSettings:
        """Acknowledge privately, refuse a member without Manage Server, and
        read the server's settings."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        if interaction.guild_id is None or not interaction.permissions.manage_guild:
            raise HostError("settings-refused")
        await self.bot.note_interaction(interaction)
        return await self.host.guild_settings(interaction.guild_id)

    def _discord_locale(self, interaction: discord.Interaction) -> str | None:
        return str(interaction.guild_locale.value) if interaction.guild_locale else None

    @settings.command(name=sname("show"), description=desc("settings-cmd-show"))
    async def settings_show(self, interaction: discord.Interaction) -> None:
        current = await self._begin(interaction)
        text = show_text(
            locale_of(interaction),
            current,
            self._discord_locale(interaction),
            self.host.clock_config,
        )
        await reply(interaction, text, allowed_mentions=QUIET)

    @settings.command(name=sname("set"), description=desc("settings-cmd-set"))
    @app_commands.describe(
        language=desc("settings-opt-language"),
        mode=desc("settings-opt-mode"),
        clock=desc("settings-opt-clock"),
        bots=desc("settings-opt-bots"),
        cancel_role=desc("settings-opt-cancel-role"),
        add_lobby_channel=desc("settings-opt-add-channel"),
        remove_lobby_channel=desc("settings-opt-remove-channel"),
    )
    @app_commands.rename(
        language=sname("language"),
        mode=sname("mode"),
        clock=sname("clock"),
        bots=sname("bots"),
        cancel_role=sname("cancel_role"),
        add_lobby_channel=sname("add_lobby_channel"),
        remove_lobby_channel=sname("remove_lobby_channel"),
    )
    @app_commands.choices(language=LANGUAGE_CHOICES, mode=MODE_CHOICES, clock=CLOCK_CHOICES)
    async def settings_set(
        self,
        interaction: discord.Interaction,
        language: str | None = None,
        mode: str | None = None,
        clock: str | None = None,
        bots: bool | None = None,
        cancel_role: discord.Role | None = None,
        add_lobby_channel: discord.TextChannel | None = None,
        remove_lobby_channel: discord.TextChannel | None = None,
    ) -> None:
        current = await self._begin(interaction)
        new, whats = changed(
            current,
            language=language,
            mode=mode,
            clock=clock,
            bots=bots,
            cancel_role=None if cancel_role is None else cancel_role.id,
            add_channel=None if add_lobby_channel is None else add_lobby_channel.id,
            remove_channel=None if remove_lobby_channel is None else remove_lobby_channel.id,
        )
        await self._save(interaction, new, whats, "settings-changed")

    @settings.command(name=sname("reset"), description=desc("settings-cmd-reset"))
    @app_commands.describe(setting=desc("settings-opt-setting"))
    @app_commands.rename(setting=sname("setting"))
    @app_commands.choices(setting=RESET_CHOICES)
    async def settings_reset(self, interaction: discord.Interaction, setting: str) -> None:
        current = await self._begin(interaction)
        new, whats = reset(current, setting)
        await self._save(interaction, new, whats, "settings-reset-done")

    async def _save(
        self,
        interaction: discord.Interaction,
        new: GuildSettings,
        whats: Sequence[str],
        heading: str,
    ) -> None:
        """Store the new settings (public messages follow them at once) and
        say, in the admin's language, what each named setting is now."""
        await self.host.save_guild_settings(new)
        text = changes_text(
            locale_of(interaction),
            heading,
            new,
            whats,
            self._discord_locale(interaction),
            self.host.clock_config,
        )
        await reply(interaction, text, allowed_mentions=QUIET)
