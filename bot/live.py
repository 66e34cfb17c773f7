"""What the host service deals in: its data classes and small helpers.

:class:`HostError` (a refusal), :class:`UserRef`, :class:`LiveMatch` (a
match in memory), :func:`private_key`, :class:`Update` (what one accepted
action did), :class:`Lobby`, :class:`ClockConfig` and the
:class:`HostListener` adapters implement. No behaviour of the service is
here (that is :mod:`bot.service`); :mod:`bot.service` re-exports every
name, so ``from bot.service import LiveMatch`` keeps working.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from engine import GAMES, Event, Match, Outcome, RulesError
from engine.core import Decision, Game

from .store import LobbyRow

# a seat's clock row: (since, per_move, bank, pending, reminded, expiries)
ClockRow = tuple[float, float, float, bool, bool, int]


def hostable_games() -> list[str]:
    """The games the host offers: those of the engine that the renderer can
    draw (a game is registered in the engine first, then gets its images)."""
    from render import RENDERED_GAMES

    return sorted(g for g in GAMES if g in RENDERED_GAMES)


# A bot seat's name is shown in every language: its level is marked by stars,
# not by an English word ("Bot 2 (★★)" for normal).
BOT_LEVEL_MARK = {"easy": "★", "normal": "★★", "hard": "★★★"}


def bot_name(number: int, level: str) -> str:
    return f"Bot {number} ({BOT_LEVEL_MARK.get(level, level)})"


class HostError(Exception):
    """A refusal a user can read: ``key`` is a translation key of
    :mod:`bot.i18n`, ``params`` fill it. ``rules`` carries the engine's own
    error when the rules refused."""

    def __init__(self, key: str, rules: RulesError | None = None, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.rules = rules
        self.params = params


@dataclass(frozen=True)
class UserRef:
    id: int
    name: str
    locale: str | None = None


@dataclass
class LiveMatch:
    """A match in memory, with its seats and lock. ``channel_id`` is where it
    plays (its thread in thread mode), ``lobby_channel_id`` where its lobby
    opened (the same in channel mode)."""

    id: int
    guild_id: int | None
    channel_id: int
    game_id: str
    players: list[tuple[int, str]]  # (user id, display name) by seat
    match: Match
    lobby_id: int | None = None
    lobby_host: int | None = None
    board_message_id: int | None = None
    board_version: int | None = None  # the version the latest board shows (None: unknown)
    resigned: set[int] = field(default_factory=set)
    dm_notice_sent: set[int] = field(default_factory=set)
    bots: set[int] = field(default_factory=set)
    bot_levels: dict[int, str] = field(default_factory=dict)
    replaced: set[int] = field(default_factory=set)
    clock: str = "correspondence"
    lobby_channel_id: int | None = None
    # the database's status: "active", "finished" or "cancelled" (a match is
    # closed by its status, whichever process played or cancelled it)
    status: str = "active"
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    # seat -> (the version its last action made, its clock row before it):
    # an undo of that action puts the row back (memory only, like a request's wait)
    clock_before: dict[int, tuple[int, tuple[float, float, float, bool, bool, int]]] = field(
        default_factory=dict
    )
    # seat -> (version, what its private message was last made to show: see
    # :func:`private_key`): set at the start and whenever an action concerns
    # the seat; none after a restart (the seat is then sent its message again)
    private_keys: dict[int, tuple[int, Any]] = field(default_factory=dict)

    @property
    def game(self) -> Game[Any, Any, Any]:
        return self.match.game

    @property
    def in_thread(self) -> bool:
        """Whether the match plays somewhere else than its lobby's channel."""
        return self.lobby_channel_id is not None and self.lobby_channel_id != self.channel_id

    @property
    def names(self) -> list[str]:
        return [name for _, name in self.players]

    @property
    def version(self) -> int:
        return self.match.version

    def seats_of(self, user_id: int) -> list[int]:
        return [seat for seat, (uid, _) in enumerate(self.players) if uid == user_id]

    def seat_of(self, user_id: int) -> int | None:
        """The user's seat; with several (console hot-seat), the pending one."""
        seats = self.seats_of(user_id)
        if not seats:
            return None
        pending = self.match.pending()
        for seat in seats:
            if seat in pending:
                return seat
        return seats[0]

    def user_of(self, seat: int) -> int:
        return self.players[seat][0]

    def is_bot_seat(self, seat: int) -> bool:
        """A seat created for a bot (a synthetic, negative user id): no one
        reads its private messages. (A player replaced by a bot keeps theirs.)"""
        return self.players[seat][0] < 0


def private_key(
    game: Game[Any, Any, Any], state: Any, pending: Mapping[int, Decision], seat: int
) -> Any:
    """What a seat's private message shows of ``state``: its view (the
    image, and the actions it may take: a seat's legal actions follow from
    what it sees) and whose decision its text names (its own, else the first
    pending seat's). Two states with equal keys give the seat the same message."""
    if seat in pending:
        who: tuple[int, Decision] | None = (seat, pending[seat])
    elif pending:
        first = min(pending)
        who = (first, pending[first])
    else:
        who = None
    return game.view(state, seat), who


@dataclass(frozen=True)
class Update:
    """What happened after one accepted action; adapters announce it."""

    live: LiveMatch
    version: int
    seat: int  # who acted
    action: str  # notation ("!resign" for a resignation)
    events: tuple[Event, ...]
    pending: Mapping[int, Decision]
    outcome: Outcome | None
    # seats whose private message must be sent again: those the action
    # concerns (pending before or after it, or sent an event) whose private
    # message reads differently now (:func:`private_key`); a pending seat left
    # out keeps its message, only its buttons name the new version
    private_changed: frozenset[int]
    by_clock: bool = False  # played for the seat when its clock ran out


@dataclass(frozen=True)
class Lobby:
    id: int
    guild_id: int | None
    channel_id: int
    game_id: str
    host_id: int
    seats: int
    options: str
    status: str
    message_id: int | None
    players: tuple[int, ...]
    bots: tuple[tuple[int, str], ...] = ()
    clock: str = "correspondence"
    decks: tuple[tuple[int, str, str], ...] = ()  # (user id, deck name, code) chosen

    @staticmethod
    def of(row: LobbyRow) -> Lobby:
        return Lobby(
            row.id,
            row.guild_id,
            row.channel_id,
            row.game_id,
            row.host_id,
            row.seats,
            row.options,
            row.status,
            row.message_id,
            row.players,
            row.bots,
            row.clock,
            row.decks,
        )


CLOCKS = ("correspondence", "fast")


@dataclass(frozen=True)
class ClockConfig:
    """The turn clock. ``correspondence``: ``correspondence_seconds`` per
    decision; ``fast``: ``fast_seconds`` per decision plus a bank of
    ``fast_bank`` seconds for the whole match. At half time the player is
    reminded; on expiry a ``normal`` bot decides for them; after
    ``max_expiries`` expiries in a row a bot takes the seat for good (and the
    player takes last place for ratings)."""

    correspondence_seconds: float = 24 * 3600
    fast_seconds: float = 90
    fast_bank: float = 300
    max_expiries: int = 3
    lobby_ttl: float = 24 * 3600
    bot_seconds: float = 1.0
    bot_iterations: int = 1500
    undo_seconds: float = 120
    """How long the other players have to answer a take-back request (bot/undo.py)."""

    def per_move(self, clock: str) -> float:
        return self.fast_seconds if clock == "fast" else self.correspondence_seconds

    def bank(self, clock: str) -> float:
        return self.fast_bank if clock == "fast" else 0.0


Venue = Callable[[LiveMatch, Lobby], Awaitable[int | None]]
"""Where a match that starts will play: an adapter's coroutine that may open
a place of its own for it (Discord: a thread made from the lobby message) and
returns its id, or None to play in the lobby's channel."""


class HostListener(Protocol):
    """What adapters hear about that no interaction of theirs caused."""

    async def on_update(self, update: Update) -> None: ...

    async def on_reminder(self, live: LiveMatch, seat: int, remaining: float) -> None: ...

    async def on_lobby_expired(self, lobby: Lobby) -> None: ...
