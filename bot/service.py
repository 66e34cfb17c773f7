"""The lobby and match service: the authoritative host, with no Discord in it.

Adapters (the Discord cogs, the terminal console) call this service and show
what it returns. Rules:

* one writer per match: an :class:`asyncio.Lock` per match, plus the version
  check in the database write;
* every accepted action is committed to the database before the service
  returns, so before any message goes out;
* every refusal is a :class:`HostError` with a translation key, and changes
  nothing.

Several processes may share one database (issue 18): each owns the matches
and lobbies of its shards (:class:`~bot.shards.ShardSet`), resumes them,
drives their bots and clocks and expires their lobbies. Any process may play a
move on any match (a direct-message click reaches shard 0's process): always
under the match's database lock (:meth:`Store.locked_match`), after reloading
the match when the database is ahead of memory. The owner learns of moves made
elsewhere by :meth:`Store.listen_moves` and by the sweep of :meth:`tick`.

The service is one class, :class:`HostService`, in parts (mixins) of a
module each: ``service_core.py`` (:class:`~bot.service_core.HostCore`: the
shared state, start-up and lookups; how the parts fit together),
``service_lobbies.py`` (lobbies and decks), ``service_play.py`` (moves),
``service_bots.py`` (bots, the clock, moves made by other processes) and
``service_records.py`` (records, ratings, replays, delivery bookkeeping).
Its data classes are in ``live.py``; every name is importable from here.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from engine import MatchRecord

from .live import (
    BOT_LEVEL_MARK,
    CLOCKS,
    ClockConfig,
    ClockRow,
    HostError,
    HostListener,
    LiveMatch,
    Lobby,
    Update,
    UserRef,
    Venue,
    bot_name,
    hostable_games,
    private_key,
)
from .service_bots import BOT_STALE_RETRIES, BotsPart
from .service_core import CACHE_SIZE
from .service_lobbies import LobbiesPart
from .service_play import PlayPart
from .service_records import RecordsPart
from .store import Store

__all__ = [  # what other modules import from here (the data classes are in bot/live.py)
    "BOT_LEVEL_MARK",
    "BOT_STALE_RETRIES",
    "CACHE_SIZE",
    "CLOCKS",
    "ClockConfig",
    "ClockRow",
    "HostError",
    "HostListener",
    "HostService",
    "LiveMatch",
    "Lobby",
    "Update",
    "UserRef",
    "Venue",
    "bot_name",
    "hostable_games",
    "private_key",
]


class HostService(LobbiesPart, PlayPart, BotsPart, RecordsPart):
    """Lobbies and matches for every game of :data:`engine.GAMES`."""

    # ---- opening and closing ----------------------------------------------------------
    @classmethod
    async def open(cls, database: str | Path, **kwargs: Any) -> HostService:
        """A service on the store at ``database`` (a SQLite file or a
        ``postgresql://`` URL; opened and migrated); keyword arguments as for
        the constructor (``shards=``...). :meth:`close` closes the store."""
        return cls(await Store.open(database), **kwargs)

    async def close(self) -> None:
        if self._stop_listening is not None:
            stop, self._stop_listening = self._stop_listening, None
            await stop()
        for task in list(self._catch_ups):
            task.cancel()
        if self._catch_ups:
            await asyncio.gather(*self._catch_ups, return_exceptions=True)
        await self.store.close()

    async def record(self, match_id: int) -> MatchRecord:
        live = await self.get_match(match_id)
        return live.match.record()
