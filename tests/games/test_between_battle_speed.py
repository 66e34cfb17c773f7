"""Between Battle's throughput work (issue 17): ``apply`` builds one new
state per action, and ``random_action`` draws a turn's action without
listing them, over exactly the legal ones."""

from __future__ import annotations

from typing import Any

import pytest

from engine import rng
from engine.core import evolve
from engine.games.between_battle import GAME, State, abilities, board, rules


def _random_states(options: str, seats: int, seed: int, limit: int = 400) -> list[State]:
    state = GAME.setup(GAME.options(options or None), seats, seed)
    chooser = rng.seed_state(seed, "speed-test")
    out = []
    while GAME.pending(state) and len(out) < limit:
        out.append(state)
        seat = min(GAME.pending(state))
        legal = GAME.legal_actions(state, seat)
        index, chooser = rng.randbelow(chooser, len(legal))
        state, _ = GAME.apply(state, seat, legal[index])
    return out


@pytest.mark.parametrize("options", ["", "targeting=choose link_chain=true", "exhausted=pass"])
def test_apply_builds_one_new_state_per_action(
    monkeypatch: pytest.MonkeyPatch, options: str
) -> None:
    copies = {"state": 0}

    def counting(obj: Any, **changes: Any) -> Any:
        if isinstance(obj, State):
            copies["state"] += 1
        return evolve(obj, **changes)

    for module in (rules, abilities, board):
        monkeypatch.setattr(module, "replace", counting)
    frozen = []
    freeze = board._freeze

    def counting_freeze(d: board.Draft) -> State:
        frozen.append(d)
        return freeze(d)

    monkeypatch.setattr(board, "_freeze", counting_freeze)
    played = 0
    for seed, seats in ((1, 2), (2, 3), (3, 4)):
        for state in _random_states(options, seats, seed, limit=120):
            seat = min(GAME.pending(state))
            action = GAME.legal_actions(state, seat)[0]
            copies["state"] = 0
            frozen.clear()
            GAME.apply(state, seat, action)
            assert copies["state"] == 0, "apply copied the state through evolve"
            assert len(frozen) == 1, "apply must build its new state once"
            played += 1
    assert played > 100


@pytest.mark.parametrize("options", ["", "damage_with_empty_piles=refused link_chain=true"])
def test_random_action_draws_every_legal_turn_action_and_nothing_else(options: str) -> None:
    turns = 0
    for seed, seats in ((4, 2), (5, 4), (6, 3), (7, 2), (8, 3)):
        for i, state in enumerate(_random_states(options, seats, seed, limit=200)):
            if state.phase != "turn" or i % 3:
                continue
            seat = state.decider
            legal = GAME.legal_actions(state, seat)
            draw = rng.seed_state(seed, "draws", str(i))
            drawn = set()
            for _ in range(40 * len(legal)):
                action, draw = GAME.random_action(state, seat, draw)
                drawn.add(action)
            assert drawn == set(legal)
            turns += 1
    assert turns > 20
