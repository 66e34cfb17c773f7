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

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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

# Loaded on first use, so that importing one module of the package (say
# ``bot.discord.text``) imports that module and what it needs, nothing more:
# each module is then checked to import on its own (tests/bot/test_import_graph.py).
_EXPORTS = {
    "GueridonBot": ".client",
    "create_bot": ".client",
    "run_bot": ".client",
    "InfoCog": ".cogs",
    "LobbyCog": ".cogs",
    "PlayCog": ".cogs",
    "RecordsCog": ".cogs",
    "COMPONENTS": ".components",
    "HandButton": ".components",
    "LeaderboardPage": ".components",
    "LobbyButton": ".components",
    "MenuSelect": ".components",
    "MoveButton": ".components",
    "MoveSelect": ".components",
    "RematchButton": ".components",
    "ReplayStep": ".components",
}


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(module, __name__), name)


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
