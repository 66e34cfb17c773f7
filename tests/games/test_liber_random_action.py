"""Chroniques de Liber's ``random_action`` (issue 17): the kind of action
first, then its parameters, never listing every action, and only legal ones."""

from __future__ import annotations

from typing import Any

import pytest

from engine import rng
from engine.games.liber import GAME, State, legality
from engine.games.liber.actions import Play

DRAWN_CONTEXTS = ("placement", "attack", "react")


def _states(seed: int, seats: int, limit: int = 250) -> list[State]:
    """States met in a random game (quick options), every third one."""
    state = GAME.setup(GAME.options(GAME.quick_options), seats, seed)
    chooser = rng.seed_state(seed, "liber-random-action-test")
    out = []
    steps = 0
    while GAME.pending(state) and steps < limit:
        seat = min(GAME.pending(state))
        if steps % 3 == 0:
            out.append(state)
        action, chooser = GAME.random_action(state, seat, chooser)
        state, _ = GAME.apply(state, seat, action)
        steps += 1
    return out


def test_random_action_never_lists_every_action(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_listing(*_: Any) -> Any:
        raise AssertionError("random_action listed every legal action")

    drawn = 0
    states = _states(11, 2, limit=120)
    for state in states:
        seat = min(GAME.pending(state))
        if legality.context(state, seat) not in DRAWN_CONTEXTS:
            continue
        legal = GAME.legal_actions(state, seat)
        with monkeypatch.context() as m:
            m.setattr(legality, "legal_actions", no_listing)
            m.setattr(type(GAME), "legal_actions", no_listing)
            action, _ = GAME.random_action(state, seat, rng.seed_state(drawn, "t"))
        assert action in legal
        drawn += 1
    assert drawn > 20


def test_random_action_draws_legal_actions_of_every_kind() -> None:
    kinds_missed = 0
    checked = 0
    ravage_drawn = 0
    for seed, seats in ((1, 2), (2, 3), (3, 4)):
        for state in _states(seed, seats):
            seat = min(GAME.pending(state))
            if legality.context(state, seat) not in DRAWN_CONTEXTS:
                continue
            legal = GAME.legal_actions(state, seat)
            kinds = {type(a) for a in legal}
            draw = rng.seed_state(seed, "kinds", str(checked))
            seen = set()
            for _ in range(30):
                action, draw = GAME.random_action(state, seat, draw)
                assert action in legal, action
                seen.add(type(action))
                ravage_drawn += isinstance(action, Play) and bool(action.shares)
            kinds_missed += len(kinds - seen)
            checked += 1
    assert checked > 40
    # each kind is as likely as the closing next/pass: 30 draws find them all
    assert kinds_missed == 0
    assert ravage_drawn > 0
