"""gueridon's host: the store, the lobby and match service, the Discord
adapter and the terminal console.

``bot.create_bot(settings)`` returns a ready-to-log-in Discord bot;
``bot.Settings`` reads its settings; ``python -m bot`` runs it and
``python -m bot console`` plays in the terminal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .settings import Settings

if TYPE_CHECKING:
    from .discord import GueridonBot


def create_bot(settings: Settings, **kwargs: Any) -> GueridonBot:
    """A ready-to-log-in ``discord.ext.commands.Bot`` (see :mod:`bot.discord`)."""
    from .discord import create_bot as _create

    return _create(settings, **kwargs)


__all__ = ["Settings", "create_bot"]
