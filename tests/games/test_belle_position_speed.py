"""Belle Position's fast paths (issue 17) give exactly what the slow ones give:
``random_action`` draws movement actions without listing them, uniformly over
the legal list; the boards carried from one state to the next are the boards
built afresh from the armies."""

from __future__ import annotations

from collections import Counter

import pytest

from engine import rng
from engine.core import Game
from engine.games.belle_position import GAME, Board, State, movement
from engine.games.belle_position import legal as bp_legal
from engine.games.belle_position.board import _kinds, board


def _movement_states(seed: int, count: int) -> list[State]:
    """The first ``count`` movement-phase states of a random game."""
    state = GAME.setup(GAME.options(GAME.quick_options), 2, seed)
    chooser = rng.seed_state(seed, "bp-speed")
    found: list[State] = []
    while len(found) < count:
        pending = GAME.pending(state)
        assert pending, "the game ended before enough movement phases"
        seat = min(pending)
        if state.phase == "movement":
            found.append(state)
        legal = GAME.legal_actions(state, seat)
        index, chooser = rng.randbelow(chooser, len(legal))
        state, _ = GAME.apply(state, seat, legal[index])
    return found


def test_random_action_draws_a_move_without_listing(monkeypatch: pytest.MonkeyPatch) -> None:
    """The movement phase is most of a game: its random draw must not list
    every move (the default ``Game.random_action`` does)."""
    states = _movement_states(3, 12)
    legal = [movement._move_actions(s) for s in states]

    def refuse(state: State) -> list[object]:
        raise AssertionError("random_action listed the moves")

    monkeypatch.setattr(movement, "_move_actions", refuse)
    monkeypatch.setattr(bp_legal, "_move_actions", refuse)
    draw = rng.seed_state(0, "draw")
    # the default draw lists them (this test fails without the override)
    with pytest.raises(AssertionError, match="listed"):
        Game.random_action(GAME, states[0], states[0].active, draw)
    for state, actions in zip(states, legal, strict=True):
        for _ in range(3):
            action, draw = GAME.random_action(state, state.active, draw)
            assert action in actions


def test_random_action_is_uniform_over_the_legal_moves() -> None:
    """Rejection keeps the draw uniform: every legal action comes out, each
    about as often as the others (and nothing else does)."""
    state = max(_movement_states(5, 8), key=lambda s: len(GAME.legal_actions(s, s.active)))
    legal = GAME.legal_actions(state, state.active)
    assert len(legal) >= 5
    draws = 200 * len(legal)
    counts: Counter[object] = Counter()
    draw = rng.seed_state(1, "uniform")
    for _ in range(draws):
        action, draw = GAME.random_action(state, state.active, draw)
        counts[action] += 1
    assert set(counts) == set(legal)
    for action in legal:
        # 200 expected; binomial sd about 14: 6 sd either side
        assert 115 <= counts[action] <= 285, (action, counts[action])


def test_carried_boards_are_the_boards_of_their_armies() -> None:
    """Every board met in a random game (carried over from the previous
    state, or derived) equals the board built afresh from its armies."""
    state = GAME.setup(GAME.options("turn_limit=3"), 2, 11)
    chooser = rng.seed_state(11, "bp-boards")
    checked = 0
    while GAME.pending(state):
        seat = min(GAME.pending(state))
        action, chooser = GAME.random_action(state, seat, chooser)
        state, _ = GAME.apply(state, seat, action)
        got = board(state)
        fresh = Board(state.armies, _kinds(state.rules))
        for name in Board.__slots__:
            assert getattr(got, name) == getattr(fresh, name), name
        checked += 1
    assert checked > 50


def test_hot_path_copies_are_evolve() -> None:
    """The copiers the hot paths use make what ``evolve`` makes."""
    from engine.core import evolve
    from engine.games.belle_position.board import _with_armies, _with_armies_mover, _with_cards

    state = _movement_states(2, 1)[0]
    armies = (state.armies[1], state.armies[0])
    assert _with_armies(state, armies) == evolve(state, armies=armies)
    assert _with_armies_mover(state, armies, 4) == evolve(state, armies=armies, mover=4)
    cards = tuple(reversed(state.armies[0].cards))
    assert _with_cards(state.armies[0], cards) == evolve(state.armies[0], cards=cards)
    assert _with_armies(state, armies) != state
