"""What every game gets for free: versions, the event log, records and replay.

A :class:`Match` wraps one game's state. Each accepted action raises
``version`` by one (hosts send it with buttons to refuse stale clicks), is
appended to the record as ``(seat, notation)``, and its events go to the
log, which is filtered per seat on the way out.

The seed is committed at the start (:attr:`Match.seed_commitment`, the
SHA-256 of its decimal text) and revealed by :meth:`Match.revealed_seed`
only once the game is over, so anyone can replay the record and check every
shuffle and die roll.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .core import Decision, Event, Game, GameOptions, Outcome, Seat
from .errors import BadRecord, GameOver, NotYourTurn, StaleAction, UndoRefused
from .text import Msg

ENGINE_VERSION = "1.0"
RECORD_FORMAT = 1
RESIGN = "!resign"
"""The record's notation for a resignation (not a game action: any seat may
resign at any time)."""
UNDO = "!undo"
"""The record's notation for taking back the seat's own last entry (undo by
consent, :meth:`Match.undo`). Like ``!resign`` it raises the version; replay
rebuilds the state as it was before the undone action."""
_UNKNOWN: Any = object()


def seed_commitment(seed: int) -> str:
    return hashlib.sha256(str(seed).encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class LoggedEvent:
    version: int
    """The match version right after the action that caused the event."""
    event: Event


@dataclass(frozen=True)
class MatchRecord:
    """Everything needed to rebuild a match exactly."""

    game: str
    options: Mapping[str, Any]
    seats: int
    seed: int
    actions: tuple[tuple[Seat, str], ...]
    engine_version: str = ENGINE_VERSION

    @property
    def seed_commitment(self) -> str:
        return seed_commitment(self.seed)

    def to_json(self) -> dict[str, Any]:
        return {
            "format": RECORD_FORMAT,
            "engine_version": self.engine_version,
            "game": self.game,
            "options": dict(self.options),
            "seats": self.seats,
            "seed": str(self.seed),
            "seed_sha256": self.seed_commitment,
            "actions": [[seat, text] for seat, text in self.actions],
        }

    def dumps(self) -> str:
        return json.dumps(self.to_json(), ensure_ascii=False, indent=1)

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> MatchRecord:
        try:
            if data.get("format") != RECORD_FORMAT:
                raise BadRecord(f"unknown record format {data.get('format')!r}")
            seed = int(data["seed"])
            commitment = data.get("seed_sha256")
            if commitment is not None and commitment != seed_commitment(seed):
                raise BadRecord("the seed does not match its published SHA-256")
            return MatchRecord(
                game=str(data["game"]),
                options=dict(data["options"]),
                seats=int(data["seats"]),
                seed=seed,
                actions=tuple((int(s), str(t)) for s, t in data["actions"]),
                engine_version=str(data.get("engine_version", ENGINE_VERSION)),
            )
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, BadRecord):
                raise
            raise BadRecord(f"not a match record: {exc}") from None

    @staticmethod
    def loads(text: str) -> MatchRecord:
        return MatchRecord.from_json(json.loads(text))


class Match:
    """A live game: state, version, log and record. Not thread-safe; hosts
    keep one writer per match."""

    def __init__(
        self,
        game: Game[Any, Any, Any],
        options: GameOptions | Mapping[str, Any] | str | None,
        seats: int,
        seed: int,
    ) -> None:
        self.game = game
        self.options = game.options(options)
        self.seats = seats
        self.seed = seed
        self.state: Any = game.setup(self.options, seats, seed)
        self.version = 0
        self.log: list[LoggedEvent] = [LoggedEvent(0, e) for e in game.setup_events(self.state)]
        self.actions: list[tuple[Seat, str]] = []
        self._before: Any = _UNKNOWN
        """The state before the last record entry (kept for :meth:`undo`;
        rebuilt by replay when unknown, after :meth:`from_parts`)."""

    # ---- reading -----------------------------------------------------
    @property
    def seed_commitment(self) -> str:
        return seed_commitment(self.seed)

    def revealed_seed(self) -> int | None:
        return self.seed if self.is_over else None

    @property
    def is_over(self) -> bool:
        return self.game.outcome(self.state) is not None

    def outcome(self) -> Outcome | None:
        return self.game.outcome(self.state)

    def pending(self) -> Mapping[Seat, Decision]:
        return self.game.pending(self.state)

    def legal_actions(self, seat: Seat) -> Sequence[Any]:
        return self.game.legal_actions(self.state, seat)

    def legal_notations(self, seat: Seat) -> list[str]:
        fmt = self.game.format_action
        return [fmt(a) for a in self.game.legal_actions(self.state, seat)]

    def view(self, seat: Seat | None) -> Any:
        return self.game.view(self.state, seat)

    def events(self, seat: Seat | None, since_version: int = -1) -> list[LoggedEvent]:
        """The log as ``seat`` may see it, after ``since_version`` (the setup's
        own events carry version 0)."""
        out = []
        for item in self.log:
            if item.version <= since_version:
                continue
            seen = item.event.for_seat(seat)
            if seen is not None:
                out.append(LoggedEvent(item.version, seen))
        return out

    # ---- acting ------------------------------------------------------
    def play(
        self, seat: Seat, action: Any, *, expected_version: int | None = None
    ) -> tuple[Event, ...]:
        """Apply an action (object or notation). Raises RulesError subclasses."""
        new_state, events, notation = self.preview(seat, action, expected_version=expected_version)
        self.accept(seat, notation, new_state, events)
        return events

    def preview(
        self, seat: Seat, action: Any, *, expected_version: int | None = None
    ) -> tuple[Any, tuple[Event, ...], str]:
        """Check and compute an action without changing the match:
        ``(new_state, events, notation)``. Hosts commit the result to their
        database, then :meth:`accept` it, so nobody sees an uncommitted state."""
        if expected_version is not None and expected_version != self.version:
            raise StaleAction(
                Msg.of("core-stale"),
                expected=expected_version,
                actual=self.version,
            )
        if self.is_over:
            raise GameOver(Msg.of("core-game-over"))
        if seat not in self.game.pending(self.state):
            raise NotYourTurn(Msg.of("core-not-your-turn"), seat=seat)
        if isinstance(action, str):
            action = self.game.parse_action(action)
        new_state, events = self.game.apply(self.state, seat, action)
        return new_state, events, self.game.format_action(action)

    def preview_resign(self, seat: Seat) -> tuple[Any, tuple[Event, ...], str]:
        """Like :meth:`preview`, for a resignation."""
        if self.is_over:
            raise GameOver(Msg.of("core-game-over"))
        if not 0 <= seat < self.seats:
            raise NotYourTurn(Msg.of("core-no-seat"), seat=seat)
        new_state, events = self.game.resign(self.state, seat)
        return new_state, events, RESIGN

    def accept(self, seat: Seat, notation: str, new_state: Any, events: tuple[Event, ...]) -> None:
        """Make a previewed action part of the match."""
        self._before = self.state
        self.state = new_state
        self.version += 1
        self.actions.append((seat, notation))
        for ev in events:
            self.log.append(LoggedEvent(self.version, ev))

    def resign(self, seat: Seat) -> tuple[Event, ...]:
        """The seat resigns (see :meth:`Game.resign`); recorded as ``!resign``."""
        new_state, events, notation = self.preview_resign(seat)
        self.accept(seat, notation, new_state, events)
        return events

    # ---- undo by consent ----------------------------------------------
    def undo_refusal(self, seat: Seat) -> UndoRefused | None:
        """Why ``seat`` may not take back its last entry now, or None.

        Only the seat's own last record entry, a game action (not a
        resignation nor an undo), before anyone else acted and before the
        end, and only when the game's :meth:`~engine.core.Game.undo_blocker`
        allows it (no draw, die, shuffle or reveal)."""
        if self.is_over:
            return UndoRefused("over")
        if not self.actions or not 0 <= seat < self.seats:
            return UndoRefused("nothing")
        last_seat, last = self.actions[-1]
        if last_seat != seat:
            mine = any(s == seat and t not in (UNDO, RESIGN) for s, t in self.actions)
            return UndoRefused("acted-since" if mine else "not-yours")
        if last in (UNDO, RESIGN):
            return UndoRefused("nothing")
        before = self.previous_state()
        action = self.game.parse_action(last)
        after, events = self.game.apply(before, seat, action)
        if self.game.undo_blocker(before, seat, action, after, events) is not None:
            return UndoRefused("hidden")
        return None

    def previous_state(self) -> Any:
        """The state before the last record entry (replayed when a restored
        match does not know it)."""
        if self._before is _UNKNOWN:
            if not self.actions:
                return self.state
            self._before = Match.replay(self.record(), upto=len(self.actions) - 1).state
        return self._before

    def preview_undo(
        self, seat: Seat, *, expected_version: int | None = None
    ) -> tuple[Any, tuple[Event, ...], str]:
        """Like :meth:`preview`, for taking back ``seat``'s last action:
        ``(state before it, (), "!undo")``; raises :class:`UndoRefused`."""
        if expected_version is not None and expected_version != self.version:
            raise StaleAction(Msg.of("core-stale"), expected=expected_version, actual=self.version)
        refusal = self.undo_refusal(seat)
        if refusal is not None:
            raise refusal
        return self.previous_state(), (), UNDO

    def undo(self, seat: Seat, *, expected_version: int | None = None) -> tuple[Event, ...]:
        """Take back ``seat``'s last action (recorded as ``!undo``; the
        version rises by one, the log keeps the undone action's events)."""
        new_state, events, notation = self.preview_undo(seat, expected_version=expected_version)
        self.accept(seat, notation, new_state, events)
        return events

    def undone(self) -> frozenset[int]:
        """Indexes in :attr:`actions` of the entries an ``!undo`` took back."""
        return undone_entries(self.actions)

    # ---- records -----------------------------------------------------
    def record(self) -> MatchRecord:
        return MatchRecord(
            game=self.game.info.id,
            options=self.options.model_dump(mode="json"),
            seats=self.seats,
            seed=self.seed,
            actions=tuple(self.actions),
        )

    @classmethod
    def replay(cls, record: MatchRecord, upto: int | None = None) -> Match:
        """Rebuild a match from its record (the first ``upto`` actions)."""
        from . import GAMES

        game = GAMES.get(record.game)
        if game is None:
            raise BadRecord(f"unknown game {record.game!r}")
        match = cls(game, record.options, record.seats, record.seed)
        for seat, text in record.actions[:upto]:
            if text == RESIGN:
                match.resign(seat)
            elif text == UNDO:
                match.undo(seat)
            else:
                match.play(seat, text)
        return match

    def snapshot(self) -> dict[str, Any]:
        """JSON data from which :meth:`restore` rebuilds this match without replay."""
        return {
            "record": self.record().to_json(),
            "version": self.version,
            "state": self.game.encode_state(self.state),
            "log": [[item.version, item.event.to_json()] for item in self.log],
        }

    @classmethod
    def restore(cls, data: Mapping[str, Any]) -> Match:
        record = MatchRecord.from_json(data["record"])
        log = [LoggedEvent(int(v), Event.from_json(e)) for v, e in data.get("log", [])]
        return cls.from_parts(record, data["state"], int(data["version"]), log)

    @classmethod
    def from_parts(
        cls,
        record: MatchRecord,
        encoded_state: Mapping[str, Any] | bytes | str,
        version: int,
        log: Sequence[LoggedEvent] = (),
    ) -> Match:
        """Rebuild a live match from a stored state (no replay needed): the
        saved form as parsed JSON (:meth:`Game.encode_state`) or as JSON text
        or bytes (:meth:`Game.dump_state`, what hosts store), any schema the
        game reads."""
        from . import GAMES

        game = GAMES.get(record.game)
        if game is None:
            raise BadRecord(f"unknown game {record.game!r}")
        match = cls.__new__(cls)
        match.game = game
        match.options = game.options(record.options)
        match.seats = record.seats
        match.seed = record.seed
        if isinstance(encoded_state, bytes | str):
            match.state = game.load_state(encoded_state)
        else:
            match.state = game.decode_state(encoded_state)
        match.version = version
        match.actions = list(record.actions)
        match.log = list(log)
        match._before = _UNKNOWN
        if match.version != len(match.actions):
            raise BadRecord("snapshot version does not match its action count")
        return match


def undone_entries(actions: Sequence[tuple[Seat, str]]) -> frozenset[int]:
    """Indexes of the record entries an ``!undo`` took back (each ``!undo``
    takes back the entry just before it)."""
    out = set()
    for i, (_, text) in enumerate(actions):
        if text == UNDO and i > 0:
            out.add(i - 1)
    return frozenset(out)
