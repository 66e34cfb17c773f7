"""What ``/settings`` says, in the reader's language, with no Discord import.

Every setting of :class:`bot.guilds.GuildSettings` has a name (``settings-what-*``)
and a value in words: a default reads as what it means ("every channel",
"Discord's server language (French)"), never as an empty field. The Discord
cog (:mod:`bot.discord.cogs.settings`) shows these lines and applies the
changes :func:`changed` computes; the service enforces the settings
(:meth:`bot.service.HostService.create_lobby`, ``add_bot``, ``cancel``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from babel import Locale, UnknownLocaleError

import i18n

from .guilds import GuildSettings
from .i18n import duration_text, lang, t
from .service import ClockConfig, HostError

# the settings in the order they are shown; ``reset`` takes these names too
SETTINGS: tuple[str, ...] = (
    "language",
    "mode",
    "lobby_channels",
    "clock",
    "bots",
    "cancel_role",
)

DISCORD_LANGUAGE = "discord"  # the ``language`` choice that follows Discord's locale


def language_name(reader: str | None, language: str) -> str:
    """A catalogue language's name in the reader's language (CLDR through
    Babel: ``fr`` reads "French" in English, "français" in French); a
    language Babel does not know reads as its code."""
    try:
        name = Locale.parse(language).get_display_name(Locale.parse(lang(reader)))
    except (UnknownLocaleError, ValueError):
        return language
    return name or language


def own_name(language: str) -> str:
    """A language in its own words, capitalised: what the ``language`` choices show."""
    name = language_name(language, language)
    return name[:1].upper() + name[1:]


def value_text(
    reader: str | None,
    what: str,
    settings: GuildSettings,
    discord_locale: str | None,
    clocks: ClockConfig,
) -> str:
    """One setting's value in words (``what``: a name of :data:`SETTINGS`)."""
    if what == "language":
        if settings.language:
            return language_name(reader, settings.language)
        used = language_name(reader, lang(discord_locale))
        return t(reader, "settings-language-discord", language=used)
    if what == "mode":
        return t(reader, f"settings-mode-{settings.match_mode}")
    if what == "lobby_channels":
        if not settings.lobby_channels:
            return t(reader, "settings-channels-every")
        return i18n.join_list(lang(reader), (f"<#{c}>" for c in settings.lobby_channels))
    if what == "clock":
        clock = settings.default_clock
        return t(
            reader,
            f"settings-clock-{clock}",
            per_move=duration_text(reader, clocks.per_move(clock)),
            bank=duration_text(reader, clocks.bank(clock)),
        )
    if what == "bots":
        return t(reader, "settings-bots-yes" if settings.bots_allowed else "settings-bots-no")
    if what == "cancel_role":
        role = settings.cancel_role_id
        if role is None:
            return t(reader, "settings-cancel-role-none")
        return "@everyone" if role == settings.guild_id else f"<@&{role}>"
    raise ValueError(f"unknown setting {what!r}")


def line(
    reader: str | None,
    what: str,
    settings: GuildSettings,
    discord_locale: str | None,
    clocks: ClockConfig,
) -> str:
    """``• Language: French`` (the colon as the language writes it)."""
    return t(
        reader,
        "settings-line",
        what=t(reader, f"settings-what-{what}"),
        value=value_text(reader, what, settings, discord_locale, clocks),
    )


def show_text(
    reader: str | None, settings: GuildSettings, discord_locale: str | None, clocks: ClockConfig
) -> str:
    """``/settings show``: every setting in words, then how to change them."""
    lines = [t(reader, "settings-show-title")]
    lines += [line(reader, what, settings, discord_locale, clocks) for what in SETTINGS]
    lines.append(t(reader, "settings-show-footer"))
    return "\n".join(lines)


def changes_text(
    reader: str | None,
    key: str,
    settings: GuildSettings,
    whats: Iterable[str],
    discord_locale: str | None,
    clocks: ClockConfig,
) -> str:
    """The reply to ``set`` or ``reset`` (``key``: its heading): the new value
    of every setting that was named."""
    lines = [t(reader, key)]
    lines += [line(reader, what, settings, discord_locale, clocks) for what in whats]
    return "\n".join(lines)


def changed(
    settings: GuildSettings,
    *,
    language: str | None = None,
    mode: str | None = None,
    clock: str | None = None,
    bots: bool | None = None,
    cancel_role: int | None = None,
    add_channel: int | None = None,
    remove_channel: int | None = None,
) -> tuple[GuildSettings, list[str]]:
    """The settings after ``/settings set`` and the names of those it sets
    (``language``: a catalogue language or :data:`DISCORD_LANGUAGE`).
    A refusal (:class:`HostError`) when nothing is asked or a channel to
    remove is not in the list."""
    update: dict[str, Any] = {}
    whats: list[str] = []
    if language is not None:
        update["language"] = None if language == DISCORD_LANGUAGE else language
        whats.append("language")
    if mode is not None:
        update["match_mode"] = mode
        whats.append("mode")
    channels = list(settings.lobby_channels)
    if add_channel is not None and add_channel not in channels:
        channels.append(add_channel)
    if remove_channel is not None:
        if remove_channel not in channels:
            raise HostError("settings-channel-not-listed", channel=f"<#{remove_channel}>")
        channels.remove(remove_channel)
    if add_channel is not None or remove_channel is not None:
        update["lobby_channels"] = tuple(channels)
        whats.append("lobby_channels")
    if clock is not None:
        update["default_clock"] = clock
        whats.append("clock")
    if bots is not None:
        update["bots_allowed"] = bots
        whats.append("bots")
    if cancel_role is not None:
        update["cancel_role_id"] = cancel_role
        whats.append("cancel_role")
    if not whats:
        raise HostError("settings-set-nothing")
    return settings.model_copy(update=update), whats


def reset(settings: GuildSettings, what: str) -> tuple[GuildSettings, Sequence[str]]:
    """The settings with one (or, with ``all``, every) setting back to its
    default; the thread notice is kept (it is not a choice)."""
    default = GuildSettings(guild_id=settings.guild_id)
    fields = {
        "language": ("language",),
        "mode": ("match_mode",),
        "lobby_channels": ("lobby_channels",),
        "clock": ("default_clock",),
        "bots": ("bots_allowed",),
        "cancel_role": ("cancel_role_id",),
    }
    whats = SETTINGS if what == "all" else (what,)
    if any(w not in fields for w in whats):
        raise ValueError(f"unknown setting {what!r}")
    update = {f: getattr(default, f) for w in whats for f in fields[w]}
    return settings.model_copy(update=update), whats
