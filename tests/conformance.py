"""The shared conformance check every registered game must pass.

``run_playout`` plays one random game (choices from the engine's own
deterministic generator, never :mod:`random`) and checks at every step:

* each pending seat has at least one legal action, and every other seat none;
* every legal action of every pending seat applies without error, and leaves
  the input state untouched;
* ``parse_action(format_action(a)) == a`` for every legal action;
* the state survives a JSON round trip exactly (through text);
* each seat's view, and a spectator's, is identical when everything that
  seat may not see is resampled (``determinize``);
* what a seat sees of events addressed to others (their redacted form) is
  identical in every world that seat cannot tell apart;
* the game ends within ``game.max_actions``;
* (``deep``) now and then, when the action just played may be taken back
  (:meth:`Match.undo_refusal`), undoing it gives back the exact state before
  it (the state codec's bytes are equal), the record with its ``!undo``
  replays to that state, and playing the action again gives the same state
  (so the game goes on exactly as it would have: the sweep's games and their
  coverage do not depend on this check);

and at the end, that replaying the match record rebuilds the final state and
that a snapshot restores it.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from engine import Match, MatchRecord, rng
from engine.core import Game
from engine.errors import BadOptions, RulesError


@dataclass
class PlayoutStats:
    games: int = 0
    actions: int = 0
    events: Counter[str] = field(default_factory=Counter)
    seat_counts: Counter[int] = field(default_factory=Counter)
    outcomes: Counter[str] = field(default_factory=Counter)


def _json_roundtrip(game: Game[Any, Any, Any], state: Any) -> None:
    encoded = game.encode_state(state)
    text = json.dumps(encoded, sort_keys=True)
    back = game.decode_state(json.loads(text))
    assert back == state, "JSON round trip changed the state"
    assert json.dumps(game.encode_state(back), sort_keys=True) == text


def _check_views(game: Game[Any, Any, Any], state: Any, seats: int, salt: int) -> None:
    for observer in [*range(seats), None]:
        base = game.view(state, observer)
        for k in range(2):
            other = game.determinize(state, observer, salt * 7 + k)
            assert game.view(other, observer) == base, (
                f"seat {observer}'s view changed when hidden information was resampled"
            )


def _hidden_from(event: Any, observer: int | None) -> bool:
    return event.to is not None and (observer is None or observer not in event.to)


def _check_event_redaction(
    game: Game[Any, Any, Any],
    state: Any,
    seat: int,
    action: Any,
    events: tuple[Any, ...],
    seats: int,
    salt: int,
) -> None:
    """What an observer sees of events addressed to others must not depend on
    what it cannot see."""
    for observer in [*range(seats), None]:
        if observer == seat:
            continue
        mine = [e.for_seat(observer) for e in events if _hidden_from(e, observer)]
        if not mine:
            continue
        other = game.determinize(state, observer, salt)
        if action not in game.legal_actions(other, seat):
            continue
        _, other_events = game.apply(other, seat, action)
        theirs = [e.for_seat(observer) for e in other_events if _hidden_from(e, observer)]
        assert [(e.kind, e.data) if e else None for e in mine] == [
            (e.kind, e.data) if e else None for e in theirs
        ], f"redacted events leak hidden information to seat {observer}"


UNDO_EVERY = 30
"""In deep playouts, the undo check runs at about one step in this many."""


def _check_undo(game: Game[Any, Any, Any], match: Match, seat: int, before: Any) -> None:
    """Undo the action ``seat`` just played when the rules allow it: the state
    comes back exactly, the record replays to it (checked at the first undo of
    a game; the final replay covers the others), and the action is played
    again (same state as before the undo)."""
    if match.undo_refusal(seat) is not None:
        return
    first = not match.undone()
    notation = match.actions[-1][1]
    after = game.dump_state(match.state)
    match.undo(seat)
    assert game.dump_state(match.state) == game.dump_state(before), "undo changed the state"
    if first:
        replayed = Match.replay(MatchRecord.loads(match.record().dumps()))
        assert game.dump_state(replayed.state) == game.dump_state(before), "replay diverged"
        assert replayed.version == match.version
    match.play(seat, notation)
    assert game.dump_state(match.state) == after, "the action played again gave another state"


def run_playout(
    game: Game[Any, Any, Any],
    seats: int,
    seed: int,
    options: str,
    stats: PlayoutStats,
    *,
    deep: bool = True,
) -> Match | None:
    """Play and check one random game; ``deep`` adds the costlier checks
    (every legal action applied, views, JSON) at every step."""
    try:
        match = Match(game, options, seats, seed)
    except BadOptions:
        return None
    chooser = rng.seed_state(seed, "conformance-chooser")
    # a generator of its own, so that the undo check never changes the game
    undo_chooser = rng.seed_state(seed, "conformance-undo")
    steps = 0
    while True:
        state = match.state
        pending = game.pending(state)
        outcome = game.outcome(state)
        if not pending:
            assert outcome is not None, "nobody is pending but the game is not over"
            break
        assert outcome is None, "the game is over but seats are pending"
        for s in range(seats):
            legal = game.legal_actions(state, s)
            if s in pending:
                assert legal, f"pending seat {s} has no legal action"
            else:
                assert not legal, f"seat {s} is not pending but has legal actions"
        if deep:
            before = game.encode_state(state)
            _json_roundtrip(game, state)
            _check_views(game, state, seats, seed * 1000 + steps)
            for s in pending:
                legal_here = game.legal_actions(state, s)
                for action in legal_here:
                    text = game.format_action(action)
                    assert game.parse_action(text) == action, f"notation {text!r} round trip"
                    game.apply(state, s, action)
                draw = rng.seed_state(seed, "conformance-random-action", str(steps), str(s))
                for _ in range(3):
                    drawn, draw = game.random_action(state, s, draw)
                    assert drawn in legal_here, f"random_action drew an illegal {drawn!r}"
            assert game.encode_state(state) == before, "apply changed its input state"
        # now and then somebody resigns
        roll, chooser = rng.randbelow(chooser, 300)
        if roll == 0:
            quitter, chooser = rng.randbelow(chooser, seats)
            try:
                events = match.resign(quitter)
            except RulesError:
                pass
            else:
                stats.events["resign"] += 1
                steps += 1
                continue
        # choose the seat and the action
        seat_list = sorted(pending)
        pick, chooser = rng.randbelow(chooser, len(seat_list))
        seat = seat_list[pick]
        legal = game.legal_actions(state, seat)
        index, chooser = rng.randbelow(chooser, len(legal))
        action = legal[index]
        version = match.version
        events = match.play(seat, game.format_action(action), expected_version=version)
        if deep:
            _check_event_redaction(game, state, seat, action, events, seats, seed + steps)
            undo_roll, undo_chooser = rng.randbelow(undo_chooser, UNDO_EVERY)
            if undo_roll == 0:
                _check_undo(game, match, seat, state)
        for event in events:
            stats.events[event.kind] += 1
        steps += 1
        assert steps <= game.max_actions, f"no end after {steps} actions"
    outcome = game.outcome(match.state)
    assert outcome is not None
    ranked = sorted(s for group in outcome.ranking for s in group)
    assert ranked == list(range(seats)), "the ranking must list every seat once"
    # replay and restore
    record = MatchRecord.loads(match.record().dumps())
    replayed = Match.replay(record)
    assert replayed.state == match.state, "replay diverged"
    assert replayed.version == match.version
    restored = Match.restore(json.loads(json.dumps(match.snapshot())))
    assert restored.state == match.state
    assert [(e.version, e.event) for e in restored.log] == [(e.version, e.event) for e in match.log]
    stats.games += 1
    stats.actions += steps
    stats.seat_counts[seats] += 1
    stats.outcomes[outcome.reason] += 1
    return match
