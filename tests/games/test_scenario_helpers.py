"""The shared rules-test helpers (``tests/games/scenario.py``) on every
registered game, so a new game's tests can start from them."""

from __future__ import annotations

import pytest

from engine import GAMES
from engine.errors import BadNotation, RulesError
from tests.games import scenario as common


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_the_shared_helpers_work_on_every_game(game_id: str) -> None:
    game = GAMES[game_id]
    state = game.setup(game.options(game.quick_options), game.info.min_seats, 1)
    seat = common.deciding_seat(game, state)
    notations = common.legal(game, state)
    assert notations == common.legal(game, state, seat)
    move = sorted(notations)[0]
    before = common.frozen(game, state)
    after, events = common.act(game, state, move)
    assert common.frozen(game, state) == before  # apply never changes its input
    assert common.frozen(game, after) != before
    assert common.kinds(events) == [e.kind for e in events]
    for kind in set(common.kinds(events)):
        assert common.first(events, kind) == common.all_of(events, kind)[0]
    with pytest.raises(AssertionError):
        common.first(events, "no-such-event")
    assert common.act_as(game, state, seat, move) == (after, events)
    error = common.refused(game, state, "zzz", error=BadNotation)
    assert error.code == "bad-notation"
    others = [s for s in range(game.seat_count(state)) if s not in game.pending(state)]
    if others:  # a seat with nothing to decide is refused too
        common.refused(game, state, move, others[0], error=RulesError)
