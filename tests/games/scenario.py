"""Game-agnostic helpers for rules scenario tests.

Each takes the game object (``engine.GAMES[game_id]``), so a new game's
rules tests start from them; a game's ``<xx>_helpers.py`` only adds its
state builders (``scenario(...)``) and binds these to its game::

    from tests.games import scenario as common

    def act(state, *texts):
        return common.act(GAME, state, *texts)

Notations are the game's own (``format_action`` / ``parse_action``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any

import pytest

from engine.core import Event, Game
from engine.errors import RulesError

AnyGame = Game[Any, Any, Any]
SeatOf = Callable[[Any], int]


def deciding_seat(game: AnyGame, state: Any, *, only: bool = False) -> int:
    """The seat that must decide now: the first pending one (with ``only``,
    fail unless exactly one seat is pending)."""
    pending = list(game.pending(state))
    if only:
        assert len(pending) == 1, f"several seats pending: {pending}"
    assert pending, "nobody is pending: the game is over"
    return pending[0]


def act(
    game: AnyGame,
    state: Any,
    *texts: str,
    seat_of: SeatOf | None = None,
    only: bool = False,
) -> tuple[Any, list[Event]]:
    """Apply notations in turn, each by the seat that must decide then
    (``seat_of(state)``, else :func:`deciding_seat`); the final state and
    every event."""
    events: list[Event] = []
    for text in texts:
        seat = seat_of(state) if seat_of else deciding_seat(game, state, only=only)
        state, evs = game.apply_text(state, seat, text)
        events += evs
    return state, events


def act_as(game: AnyGame, state: Any, seat: int, *texts: str) -> tuple[Any, list[Event]]:
    """Apply notations in turn, all by ``seat``."""
    events: list[Event] = []
    for text in texts:
        state, evs = game.apply_text(state, seat, text)
        events += evs
    return state, events


def legal(
    game: AnyGame, state: Any, seat: int | None = None, *, seat_of: SeatOf | None = None
) -> set[str]:
    """The notations of ``seat``'s legal actions (default: the deciding seat)."""
    if seat is None:
        seat = seat_of(state) if seat_of else deciding_seat(game, state)
    return {game.format_action(a) for a in game.legal_actions(state, seat)}


def refused(
    game: AnyGame,
    state: Any,
    text: str,
    seat: int | None = None,
    *,
    error: type[RulesError] = RulesError,
    match: str | None = None,
) -> RulesError:
    """Assert that playing ``text`` (by ``seat``, default the deciding seat)
    is refused with ``error`` (its English reason matching ``match``), that the
    refusal has a French reason, and that the notation is not listed as legal;
    returns the error."""
    if seat is None:
        seat = deciding_seat(game, state)
    with pytest.raises(error, match=match) as exc:
        game.apply_text(state, seat, text)
    assert exc.value.message("fr"), f"no French reason: {exc.value.reason}"
    try:
        notation = game.format_action(game.parse_action(text))
    except RulesError:
        return exc.value  # not a move at all
    if seat in game.pending(state):
        assert notation not in legal(game, state, seat)
    return exc.value


def kinds(events: Iterable[Event]) -> list[str]:
    return [e.kind for e in events]


def first(events: Iterable[Event], kind: str) -> Event:
    """The first event of ``kind`` (fails when there is none)."""
    events = list(events)
    for e in events:
        if e.kind == kind:
            return e
    raise AssertionError(f"no {kind!r} event in {kinds(events)}")


def all_of(events: Iterable[Event], kind: str) -> list[Event]:
    return [e for e in events if e.kind == kind]


def frozen(game: AnyGame, state: Any) -> str:
    """The state as canonical JSON text (to check it was not changed)."""
    return json.dumps(game.encode_state(state), sort_keys=True)
