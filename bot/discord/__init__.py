"""The Discord adapter: it translates between Discord and
:class:`bot.service.HostService`, and holds no game-specific code (boards
come from :mod:`render`, texts from the games and :mod:`bot.i18n`).

* :mod:`.client` — :class:`GueridonBot`: start-up, the clock's tick, shutdown;
* :mod:`.core` — the state every part shares (service, workers, languages,
  action menus, handlers in flight);
* :mod:`.announce` — boards, private views by DM, lobby messages, the
  service's listener;
* :mod:`.cogs` — the commands by concern: lobby, play, info, records;
* :mod:`.components` — the persistent buttons and selects (``DynamicItem``);
  :mod:`.menus` lays a seat's choices out with them;
* :mod:`.errors` — the one error path (the command tree's ``on_error`` and
  the components' base); :mod:`.replies` — answering an interaction;
* :mod:`.translation` — the command translator and an interaction's language;
  :mod:`.text` — fitting text into Discord's limits.
"""

from __future__ import annotations

from .client import GueridonBot, create_bot, run_bot
from .cogs import InfoCog, LobbyCog, PlayCog, RecordsCog
from .components import (
    COMPONENTS,
    HandButton,
    LeaderboardPage,
    LobbyButton,
    MenuSelect,
    MoveButton,
    MoveSelect,
    RematchButton,
    ReplayStep,
)

__all__ = [
    "COMPONENTS",
    "GueridonBot",
    "HandButton",
    "InfoCog",
    "LeaderboardPage",
    "LobbyButton",
    "LobbyCog",
    "MenuSelect",
    "MoveButton",
    "MoveSelect",
    "PlayCog",
    "RecordsCog",
    "RematchButton",
    "ReplayStep",
    "create_bot",
    "run_bot",
]
