"""The store's rows and its one exception: :class:`LobbyRow`,
:class:`DeckRow`, :class:`MatchRow` (frozen data classes, as
:class:`~bot.store.Store` reads them) and :class:`StaleWrite` (a match's
version in the database is not the one expected). Every name is importable
from :mod:`bot.store`.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from engine.match import MatchRecord


class StaleWrite(Exception):
    """The match's version in the database is not the one expected."""


@dataclass(frozen=True)
class LobbyRow:
    id: int
    guild_id: int | None
    channel_id: int
    game_id: str
    host_id: int
    seats: int
    options: str
    status: str
    message_id: int | None
    players: tuple[int, ...]  # user ids in joining order
    bots: tuple[tuple[int, str], ...] = ()  # (bot user id, level)
    clock: str = "correspondence"
    created_epoch: float = 0.0
    decks: tuple[tuple[int, str, str], ...] = ()  # (user id, deck name, deck code) chosen


@dataclass(frozen=True)
class DeckRow:
    id: int
    user_id: int
    game_id: str
    name: str
    code: str


@dataclass(frozen=True)
class MatchRow:
    id: int
    lobby_id: int | None
    guild_id: int | None
    channel_id: int
    game_id: str
    options: str
    seats: int
    seed: int
    status: str
    snapshot: str
    version: int
    board_message_id: int | None
    players: tuple[tuple[int, str], ...]  # (user id, name) by seat
    resigned: tuple[int, ...]  # seats
    dm_notice_sent: tuple[int, ...]  # seats
    bots: tuple[int, ...] = ()  # seats played by bots
    bot_levels: tuple[tuple[int, str], ...] = ()  # (seat, level)
    replaced: tuple[int, ...] = ()  # seats taken over by a bot after expiries
    clock: str = "correspondence"
    lobby_channel_id: int | None = None  # where its lobby opened (channel_id: where it plays)
    board_version: int | None = None  # the version its latest board shows (None: unknown)

    def record(self, actions: Sequence[tuple[int, int, str, str]]) -> MatchRecord:
        """The match's record (game, options, seats, seed and moves), which
        replays it: ``actions`` are its :meth:`Store.match_actions` rows."""
        return MatchRecord(
            game=self.game_id,
            options=json.loads(self.options),
            seats=self.seats,
            seed=self.seed,
            actions=tuple((seat, action) for _, seat, action, _ in actions),
        )
