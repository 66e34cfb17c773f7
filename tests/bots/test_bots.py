"""Bot players (issue 5): every level of every game plays full matches through
:class:`engine.Match`, only ever legal moves, deterministically, and never
peeks at what its seat may not see."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from engine import GAMES, Match, rng
from engine.bots import (
    LEVELS,
    POLICIES,
    Bot,
    BotError,
    Budget,
    NoBots,
    bot_rng,
    has_bots,
    make_bot,
    policy_for,
    reward,
)
from engine.core import NoStateSampler, Outcome

TINY = Budget(iterations=12)
"""Enough for hard to search (every root action at least once on small hands)
while keeping the suite fast."""

SLOW_GAMES = {
    "belle-position": Budget(iterations=4),
    "via-belli": Budget(iterations=4),
    "liber": Budget(iterations=4),
    "battalia": Budget(iterations=2),
}
"""Games whose matches are long (hundreds of decisions): hard still searches
(several determinisations, playouts and evaluations) with a smaller budget."""


def tiny(game_id: str) -> Budget:
    """:data:`TINY`, or the smaller budget of a slow game."""
    return SLOW_GAMES.get(game_id, TINY)


PEEK_EVERY = {"liber": 6, "battalia": 4}
"""How often ``test_no_peeking`` looks at a position, for games whose shortened
matches are still hundreds of moves long."""

GAME_IDS = sorted(POLICIES)
"""The games with bots: every test below runs on each (a registered game
without bots fails ``test_every_registered_game_has_bots``)."""


def _seat_counts(game_id: str) -> list[int]:
    info = GAMES[game_id].info
    return [n for n in (2, 3, 4) if info.min_seats <= n <= info.max_seats]


def play(
    game_id: str, levels: tuple[str, ...], seed: int, budget: Budget | None = None
) -> tuple[Match, list[int]]:
    """One full match between bots; the seats' final generator states."""
    budget = budget or tiny(game_id)
    match = Match(GAMES[game_id], GAMES[game_id].quick_options, len(levels), seed)
    bots = [make_bot(game_id, level) for level in levels]
    states = [bot_rng(seed, seat) for seat in range(len(levels))]
    while not match.is_over:
        seat = min(match.pending())
        legal = match.legal_actions(seat)
        action, states[seat] = bots[seat].choose(match.view(seat), legal, states[seat], budget)
        assert action in legal
        match.play(seat, action, expected_version=match.version)
    return match, states


def positions(game_id: str, seats: int, seed: int, every: int = 1) -> Iterator[tuple[Any, int]]:
    """``(state, pending seat)`` along a match between normal bots."""
    game = GAMES[game_id]
    match = Match(game, game.quick_options, seats, seed)
    bot = make_bot(game_id, "normal")
    r = bot_rng(seed, 0, "positions")
    step = 0
    while not match.is_over:
        seat = min(match.pending())
        if step % every == 0:
            yield match.state, seat
        action, r = bot.choose(match.view(seat), match.legal_actions(seat), r)
        match.play(seat, action)
        step += 1


# ---- the registry ----------------------------------------------------------------


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_registered_game_has_bots(game_id: str) -> None:
    """Issue 5: three levels for every game. A newly registered game needs
    ``engine/bots/<game>.py`` (see engine/bots/__init__.py)."""
    assert has_bots(game_id), f"{game_id} has no bots: write engine/bots/<game>.py"
    policy = policy_for(game_id)
    assert policy.game is GAMES[game_id]


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_fallback_keeps_any_registered_game_moving(game_id: str) -> None:
    """``make_bot(..., fallback=True)`` plays every registered game, bots or not."""
    bot = make_bot(game_id, "normal", fallback=True)
    info = GAMES[game_id].info
    match = Match(GAMES[game_id], None, info.min_seats, 1)
    r = bot_rng(1, 0)
    for _ in range(GAMES[game_id].max_actions):
        if match.is_over:
            break
        seat = min(match.pending())
        action, r = bot.choose(match.view(seat), match.legal_actions(seat), r)
        match.play(seat, action)
    assert match.is_over


def test_unknown_game_or_level() -> None:
    with pytest.raises(NoBots, match="no bots"):
        make_bot("no-such-game", "easy")
    with pytest.raises(ValueError, match="unknown bot level"):
        make_bot(GAME_IDS[0], "grandmaster")


def test_budget_validation_and_empty_legal() -> None:
    with pytest.raises(ValueError):
        Budget(iterations=0)
    with pytest.raises(ValueError):
        Budget(seconds=0)
    game_id = GAME_IDS[0]
    state, seat = next(positions(game_id, 2, 0))
    view = GAMES[game_id].view(state, seat)
    with pytest.raises(BotError, match="no legal action"):
        make_bot(game_id, "easy").choose(view, [], 1)


def test_reward_places() -> None:
    assert reward(Outcome(((1,), (0,)), "x"), 1, 2) == 1.0
    assert reward(Outcome(((1,), (0,)), "x"), 0, 2) == 0.0
    four = Outcome(((2,), (0, 3), (1,)), "x")
    assert [reward(four, s, 4) for s in range(4)] == [0.5, 0.0, 1.0, 0.5]


# ---- full matches ------------------------------------------------------------------


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("game_id", GAME_IDS)
def test_each_level_plays_full_matches(game_id: str, level: str, full_sweep: bool) -> None:
    """A whole match with every seat at ``level``, for every seat count (the
    default test tier: the fewest and the most seats)."""
    counts = _seat_counts(game_id)
    for seats in counts if full_sweep else sorted({counts[0], counts[-1]}):
        match, _ = play(game_id, (level,) * seats, seed=seats)
        outcome = match.outcome()
        assert outcome is not None
        assert sorted(s for group in outcome.ranking for s in group) == list(range(seats))


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_mixed_levels_many_matches(game_id: str, full_sweep: bool) -> None:
    """Many short matches, every level in every seat, all seat counts (12; the
    default test tier plays the first 4: every level still sits in every seat)."""
    counts = _seat_counts(game_id)
    for i in range(12 if full_sweep else 4):
        seats = counts[i % len(counts)]
        levels = tuple(LEVELS[(i + s) % len(LEVELS)] for s in range(seats))
        play(game_id, levels, seed=100 + i, budget=Budget(iterations=4))


# ---- legal moves, determinism -------------------------------------------------------------


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_bots_only_return_legal_actions(game_id: str) -> None:
    game = GAMES[game_id]
    policy = policy_for(game_id)
    for seats in _seat_counts(game_id):
        for state, seat in positions(game_id, seats, seed=7, every=2):
            view = game.view(state, seat)
            legal = game.legal_actions(state, seat)
            r = rng.seed_state(seats, "legal")
            # the raw policies too, not only through the Bot wrapper's check
            assert policy.easy(view, legal, r)[0] in legal
            assert policy.normal(view, legal, r)[0] in legal
            assert policy.playout(state, seat, legal, r)[0] in legal
            assert make_bot(game_id, "hard").choose(view, legal, r, tiny(game_id))[0] in legal


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_same_inputs_same_moves(game_id: str) -> None:
    """With an iteration budget (no clock) a whole match replays identically."""
    levels = ("hard", "normal", "easy")[: max(2, _seat_counts(game_id)[0])]
    a, states_a = play(game_id, levels, seed=11)
    b, states_b = play(game_id, levels, seed=11)
    assert a.record() == b.record()
    assert states_a == states_b
    c, _ = play(game_id, levels, seed=12)
    assert c.record() != a.record()


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_bots_are_thread_safe(game_id: str) -> None:
    """The host runs bots in worker threads: concurrent calls agree with serial ones."""
    game = GAMES[game_id]
    cases = []
    for state, seat in positions(game_id, 2, seed=3, every=3):
        view, legal = game.view(state, seat), game.legal_actions(state, seat)
        for level in LEVELS:
            cases.append((make_bot(game_id, level), view, legal, rng.seed_state(len(cases))))

    def run(case: tuple[Bot[Any, Any, Any], Any, Any, int]) -> tuple[Any, int]:
        bot, view, legal, r = case
        return bot.choose(view, legal, r, tiny(game_id))

    serial = [run(case) for case in cases]
    with ThreadPoolExecutor(max_workers=4) as pool:
        threaded = list(pool.map(run, cases))
    assert threaded == serial


def test_clock_budget_stops_the_search() -> None:
    """A host clock ends the search; the iteration cap still bounds it."""
    # a game whose hard bot searches every decision with a few choices
    # (Battalia's, first in the list, plays normal's move outside its turns)
    game_id = "belle-position"
    game = GAMES[game_id]
    bot = make_bot(game_id, "hard")
    state, seat = next(
        (s, seat)
        for s, seat in positions(game_id, 2, seed=5)
        if 2 < len(game.legal_actions(s, seat)) <= 5
    )
    view, legal = game.view(state, seat), game.legal_actions(state, seat)
    ticks = iter(range(10**6))
    lock = threading.Lock()

    def fake_clock() -> float:
        with lock:
            return next(ticks) * 0.1  # each call is 0.1 s later

    timed = bot.think(view, legal, 5, Budget(iterations=10_000, seconds=2.0, clock=fake_clock))
    assert len(legal) <= timed.iterations <= 25
    capped = bot.think(view, legal, 5, Budget(iterations=30))
    assert capped.iterations == 30
    assert Budget(iterations=30).deterministic
    assert not Budget(clock=fake_clock).deterministic


# ---- no peeking ------------------------------------------------------------------------------


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_no_peeking(game_id: str, full_sweep: bool) -> None:
    """Change what the seat may not see (other hands, deck orders, the
    generator): every level's choice is unchanged for the same seed (the
    default tier looks at every other position of ``--full``'s)."""
    game = GAMES[game_id]
    bots = [make_bot(game_id, level) for level in LEVELS]
    checked = 0
    changed_worlds = 0
    for seats in _seat_counts(game_id):
        # shortened games: look at every move; Liber's moves are many and
        # alike (a whole turn of placements), every sixth is enough
        every = PEEK_EVERY.get(game_id, 1 if game.quick_options else 3) * (1 if full_sweep else 2)
        for state, seat in positions(game_id, seats, seed=20 + seats, every=every):
            view = game.view(state, seat)
            legal = game.legal_actions(state, seat)
            r = rng.seed_state(checked, "no-peeking")
            expected = [bot.choose(view, legal, r, tiny(game_id)) for bot in bots]
            for k in (1, 2):
                other = game.determinize(state, seat, 1000 * checked + k)
                if game.encode_state(other) != game.encode_state(state):
                    changed_worlds += 1
                other_view = game.view(other, seat)
                other_legal = game.legal_actions(other, seat)
                got = [bot.choose(other_view, other_legal, r, tiny(game_id)) for bot in bots]
                assert got == expected, f"seat {seat}'s bot saw hidden information"
            checked += 1
    assert checked > (20 if full_sweep else 10)
    assert changed_worlds > checked  # the hidden information really changed


# ---- sampling states from views (hard's determinisations) ------------------------------------


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_sampled_states_look_the_same_from_the_seat(game_id: str, full_sweep: bool) -> None:
    """A state sampled from a view gives that view back, with the same legal
    actions (the default tier looks at every fourth position, ``--full`` every
    other one)."""
    game = GAMES[game_id]
    policy = policy_for(game_id)
    for seats in _seat_counts(game_id):
        every = 2 if full_sweep else 4
        for state, seat in positions(game_id, seats, seed=40 + seats, every=every):
            for observer in range(seats):
                view = game.view(state, observer)
                for k in range(2):
                    sampled = policy.sample_state(view, k)
                    assert game.view(sampled, observer) == view
                    assert game.legal_actions(sampled, observer) == game.legal_actions(
                        state, observer
                    )
            assert seat in game.pending(policy.sample_state(game.view(state, seat), 9))


def test_games_without_sample_state_say_so() -> None:
    from engine.core import Game

    game = GAMES[GAME_IDS[0]]
    state, seat = next(positions(GAME_IDS[0], 2, 0))
    with pytest.raises(NoStateSampler, match="sample_state"):
        Game.sample_state(game, game.view(state, seat), 0)  # the base class's default


def test_policies_cover_registered_games_only() -> None:
    assert set(POLICIES) <= set(GAMES)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_views_travel_to_other_processes(game_id: str) -> None:
    """Hosts may run bots in a process pool: views and actions pickle, and
    views survive the JSON codec, with the same choice on the other side."""
    import pickle

    from engine.codec import from_jsonable, to_jsonable

    game = GAMES[game_id]
    for state, seat in positions(game_id, 2, seed=8, every=5):
        view, legal = game.view(state, seat), game.legal_actions(state, seat)
        assert from_jsonable(type(view), to_jsonable(view)) == view
        view2, legal2 = pickle.loads(pickle.dumps((view, legal)))
        bot = make_bot(game_id, "hard")
        budget = tiny(game_id)
        assert bot.choose(view2, legal2, 1, budget) == bot.choose(view, legal, 1, budget)


# ---- hard anchored on normal -------------------------------------------------------------


def test_anchored_choice_keeps_the_heuristic_unless_clearly_beaten() -> None:
    from engine.bots.search import _anchored_choice

    legal = ["normal", "b", "c"]
    # equal means: the heuristic's action stays
    assert _anchored_choice(legal, [10, 10, 10], [5.0, 5.0, 5.0], 0.05) == "normal"
    # better, but within the margin: stays
    assert _anchored_choice(legal, [10, 10, 10], [5.0, 5.4, 5.0], 0.05) == "normal"
    # clearly better and visited enough: overrides
    assert _anchored_choice(legal, [10, 10, 10], [5.0, 7.0, 8.0], 0.05) == "c"
    # clearly better but barely visited (a lucky playout): stays
    assert _anchored_choice(legal, [20, 2, 20], [10.0, 2.0, 10.0], 0.05) == "normal"
    # never visited at all (every world skipped it): the heuristic
    assert _anchored_choice(legal, [0, 5, 5], [0.0, 5.0, 5.0], 0.05) == "normal"


def test_anchored_search_looks_at_few_actions_and_plays_legal_ones() -> None:
    game_id = "belle-position"
    policy = policy_for(game_id)
    assert policy.anchored
    game = GAMES[game_id]
    bot = make_bot(game_id, "hard")
    normal = make_bot(game_id, "normal")
    checked = 0
    for state, seat in positions(game_id, 2, seed=3, every=7):
        legal = game.legal_actions(state, seat)
        if len(legal) <= policy.root_arms + 1:
            continue
        view = game.view(state, seat)
        # one iteration per root arm: each arm once, the heuristic's first
        choice = bot.think(view, legal, 9, Budget(iterations=policy.root_arms + 1))
        assert choice.action in legal
        assert choice.iterations == policy.root_arms + 1
        # with every arm seen once, no arm has the visits to override the heuristic
        expected, _ = normal.choose(view, legal, 9)
        assert choice.action == expected
        checked += 1
        if checked == 3:
            break
    assert checked == 3


def test_anchored_choice_needs_min_visits_on_both_sides() -> None:
    from engine.bots.search import _anchored_choice

    legal = ["normal", "b", "c"]
    # "b" looks far better, but over 5 playouts only: no evidence, the heuristic stays
    assert _anchored_choice(legal, [5, 5, 5], [1.0, 5.0, 1.0], 0.05, min_visits=12) == "normal"
    # the heuristic itself barely visited: it cannot be overruled yet
    assert _anchored_choice(legal, [4, 20, 2], [0.0, 20.0, 0.0], 0.05, min_visits=12) == "normal"
    # enough playouts on both sides and clearly better: overrides
    assert _anchored_choice(legal, [12, 14, 2], [3.0, 12.0, 2.0], 0.05, min_visits=12) == "b"


def test_belle_position_hard_plays_normal_on_a_small_budget() -> None:
    """Issue 12 item 21: on a budget too small for the search's verdict to be
    evidence, ``hard`` plays exactly ``normal``'s move, so it is never weaker
    (before, 25 iterations changed the heuristic's move about one time in 3)."""
    game_id = "belle-position"
    policy = policy_for(game_id)
    game = GAMES[game_id]
    bot = make_bot(game_id, "hard")
    normal = make_bot(game_id, "normal")
    # the most an arm other than the heuristic's can get while the heuristic
    # also reaches anchor_min_visits is below anchor_min_visits
    iterations = 2 * policy.anchor_min_visits + policy.root_arms - 2
    checked = 0
    for state, seat in positions(game_id, 2, seed=5, every=3):
        legal = game.legal_actions(state, seat)
        if len(legal) <= policy.root_arms + 1:
            continue
        view = game.view(state, seat)
        choice = bot.think(view, legal, 11, Budget(iterations=iterations, seconds=None))
        assert choice.iterations == iterations
        expected, _ = normal.choose(view, legal, 11)
        assert choice.action == expected
        checked += 1
        if checked == 12:
            break
    assert checked == 12


def test_belle_position_bots_handle_ralliement_after_a_failed_test() -> None:
    """Option ``ralliement_timing=failure`` (issue 12 item 19): after a failed
    cohesion test every level answers the new decision from the view alone;
    ``normal`` and ``hard`` rally the unit (without it, it routs), and the view
    turns back into states that keep the decision."""
    from engine.games.belle_position import GAME as bp
    from tests.games.bp_helpers import act, scenario

    french = {"FG": "ligne-francaise^#2 chasseurs-a-pied^#1", "R": "ralliement"}
    s = scenario(
        french,
        {"AC": "landwehr"},
        active=1,
        phase="movement",
        dice=(2, 5, 2),
        opts="ralliement_timing=failure",
    )
    s, _ = act(s, "ok")
    assert bp.pending(s)[0].kind == "rout"
    view = bp.view(s, 0)
    legal = bp.legal_actions(s, 0)
    sampled = bp.sample_state(view, 5)
    assert bp.pending(sampled)[0].kind == "rout"
    assert [bp.format_action(a) for a in bp.legal_actions(sampled, 0)] == [
        bp.format_action(a) for a in legal
    ]
    for level in ("easy", "normal", "hard"):
        choice = make_bot("belle-position", level).think(
            view, legal, 3, Budget(iterations=30, seconds=None)
        )
        assert choice.action in legal
        if level != "easy":
            assert bp.format_action(choice.action) == "F3!F1"
