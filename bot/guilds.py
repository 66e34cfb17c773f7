"""A server's settings, as its admins choose them with ``/settings``.

Pure data, no Discord import: :class:`GuildSettings` is what the store keeps
in ``guild_settings`` (migration 006) and what the service reads before
opening a lobby, adding a bot, cancelling or starting a match. A server the
bot has never heard from has the defaults: matches in threads, lobbies in
every channel, the correspondence clock, bots allowed, no cancel role, and
the language Discord gives for the server.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from pydantic import BaseModel, ConfigDict

MatchMode = Literal["thread", "channel"]
MATCH_MODES: tuple[MatchMode, ...] = ("thread", "channel")


class GuildSettings(BaseModel):
    """One server's choices. Frozen: change one with ``model_copy(update=...)``."""

    model_config = ConfigDict(frozen=True)

    guild_id: int
    language: str | None = None  # None: Discord's preferred locale of the server
    match_mode: MatchMode = "thread"
    lobby_channels: tuple[int, ...] = ()  # empty: every channel
    default_clock: str = "correspondence"
    bots_allowed: bool = True
    cancel_role_id: int | None = None
    thread_notice: bool = False  # said once that threads could not be made here

    def lobby_allowed_in(self, channel_id: int, parent_id: int | None = None) -> bool:
        """Whether a lobby may open in this channel (or in a thread of an allowed one)."""
        if not self.lobby_channels:
            return True
        return channel_id in self.lobby_channels or (
            parent_id is not None and parent_id in self.lobby_channels
        )

    def clock_for(self, clock: str | None) -> str:
        """The clock of a new lobby: the one asked for, else the server's default."""
        return self.default_clock if clock is None else clock

    def may_cancel(self, role_ids: Iterable[int]) -> bool:
        """Whether a member with these roles holds the server's cancel role
        (the lobby's host and members with Manage Server may cancel anyway).
        The @everyone role has the server's id and is in no member's list."""
        role = self.cancel_role_id
        return role is not None and (role == self.guild_id or role in set(role_ids))


def channels_text(channels: tuple[int, ...]) -> str:
    """The stored form of ``lobby_channels``: ids separated by spaces."""
    return " ".join(str(c) for c in channels)


def parse_channels(text: str | None) -> tuple[int, ...]:
    return tuple(int(part) for part in (text or "").split() if part.isdigit())
