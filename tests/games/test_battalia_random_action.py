"""Battalia's cheap random draw (issue 17): ``random_action`` draws a kind of
action, then an action line, then one exact payment, path or battle line,
without listing every payment of every line; it returns only actions
``legal_actions`` lists, and every kind of action the seat has stays
reachable. The recipe feasibility behind it (``can_pay``) agrees with the
payments it stands for."""

from __future__ import annotations

from collections import Counter

import pytest

from engine import rng
from engine.games.battalia import GAME, legality
from engine.games.battalia.actions import Buy, City, Road, Upgrade
from engine.games.battalia.costs import can_pay, payments, pays, recipe_of
from engine.games.battalia.data import data

OPTIONS = (GAME.quick_options, f"buff=false {GAME.quick_options}")


def _walk(options: str, seats: int, seed: int, steps: int):
    """States of a random game (``steps`` actions at most): every pending
    seat's state, played by the legal list's uniform draw."""
    state = GAME.setup(GAME.options(options), seats, seed)
    chooser = rng.seed_state(seed, "bt-random-action-test")
    for _ in range(steps):
        pending = GAME.pending(state)
        if not pending:
            return
        for seat in sorted(pending):
            yield state, seat
        seat = sorted(pending)[0]
        legal = GAME.legal_actions(state, seat)
        index, chooser = rng.randbelow(chooser, len(legal))
        state, _ = GAME.apply(state, seat, legal[index])


@pytest.mark.parametrize("options", OPTIONS)
def test_random_action_draws_only_legal_actions_and_reaches_every_kind(options: str) -> None:
    """Over the states of short random games (2 to 4 seats), 4 draws per
    pending seat: each is listed by ``legal_actions``. At the first turns and
    at every turn offering a kind of action not drawn yet, 40 draws reach
    every kind of action the legal list holds there."""
    drawn: Counter[str] = Counter()
    listed: set[str] = set()
    reach_checks = 0
    for seats in (2, 3, 4):
        for state, seat in _walk(options, seats, 17 + seats, 260):
            legal = GAME.legal_actions(state, seat)
            gen = rng.seed_state(seats, "draw", str(state.turn), str(seat))
            for _ in range(4):
                action, gen = GAME.random_action(state, seat, gen)
                assert action in legal, (GAME.format_action(action), state.phase)
                drawn[type(action).__name__] += 1
            kinds = {type(a).__name__ for a in legal}
            listed |= kinds
            if (
                state.phase == "turn"
                and len(legal) > 1
                and (reach_checks < 12 or kinds - set(drawn))
            ):
                reach_checks += 1
                seen = set()
                for _ in range(40):
                    action, gen = GAME.random_action(state, seat, gen)
                    assert action in legal
                    seen.add(type(action).__name__)
                drawn.update(seen)
                assert seen == kinds, (sorted(kinds - seen), state.turn)
    assert reach_checks >= 12
    assert listed <= set(drawn), sorted(listed - set(drawn))
    common = {"ChooseFaction", "ChooseStart", "Mulligan", "Buy", "Road", "Place", "End"}
    assert common <= set(drawn)


def test_random_action_is_pure() -> None:
    """Same state, seat and generator: the same action and generator."""
    for state, seat in _walk(GAME.quick_options, 3, 5, 80):
        gen = rng.seed_state(11, "pure", str(state.turn))
        assert GAME.random_action(state, seat, gen) == GAME.random_action(state, seat, gen)


def test_random_action_in_a_turn_never_lists_the_legal_actions(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The point of the override: in a turn it draws without calling
    ``legal_actions`` (which lists every payment of every line); the
    default ``Game.random_action`` would call it."""
    states = [(s, seat) for s, seat in _walk(GAME.quick_options, 3, 9, 120) if s.phase == "turn"]
    assert len(states) > 30
    expected = [GAME.legal_actions(s, seat) for s, seat in states]

    def refuse(*_args: object) -> None:
        raise AssertionError("random_action listed every legal action")

    monkeypatch.setattr(legality, "legal_actions", refuse)
    monkeypatch.setattr(type(GAME), "legal_actions", refuse)
    for (state, seat), legal in zip(states, expected, strict=True):
        action, _ = GAME.random_action(state, seat, rng.seed_state(3, str(state.turn)))
        assert action in legal


def test_random_of_keeps_to_the_kinds_asked() -> None:
    """The bots' playouts ask for a random build, upgrade or buy: it is one
    of the legal ones of those kinds, or None when there is none."""
    kinds = (Buy, Road, City, Upgrade)
    found = 0
    for state, seat in _walk(GAME.quick_options, 2, 23, 150):
        if state.phase != "turn":
            continue
        legal = [a for a in GAME.legal_actions(state, seat) if isinstance(a, kinds)]
        drawn = legality.random_of(state, seat, rng.seed_state(1, str(state.turn)), kinds)
        if not legal:
            assert drawn is None
        else:
            assert drawn is not None and drawn[0] in legal
            found += 1
    assert found > 10


def _random_hand(gen: int, size: int) -> tuple[tuple[str, ...], int]:
    pool = ["P"] * 6 + [f"{r}{f}" for r in "1234" for f in "uianm"]
    pool += [f"{a}{f}" for a in "OAMTREC" for f in "uian"] + ["G1", "G3", "G4"]
    pool += ["Ou", "Ou", "1u", "1i", "2a"]  # more tools and low units for the builds
    hand = []
    for _ in range(size):
        i, gen = rng.randbelow(gen, len(pool))
        hand.append(pool[i])
    return tuple(hand), gen


def test_can_pay_says_whether_payments_finds_one() -> None:
    """``can_pay`` (slot counts only) is ``bool(payments)`` for every recipe,
    with Tools standing in when building (tools 2, illuminated 4) or not;
    ``pays`` (memoised on the cards a recipe can use) lists the same
    payments as ``payments`` on the whole hand."""
    gen = rng.seed_state(2026, "can-pay")
    checked = Counter[bool]()
    for n in range(150):
        hand, gen = _random_hand(gen, 4 + n % 7)
        for name in data().costs:
            for tools in (0, 2, 4):
                full = payments(hand, recipe_of(name), tools=tools)
                assert can_pay(hand, name, tools=tools) == bool(full), (hand, name, tools)
                assert list(pays(hand, name, tools=tools)) == full, (hand, name, tools)
                checked[bool(full)] += 1
    assert checked[True] > 400 and checked[False] > 400


def _draws(state, seat: int, n: int = 40) -> set[str]:
    """The kinds of ``n`` draws, each checked against the legal list."""
    legal = GAME.legal_actions(state, seat)
    gen = rng.seed_state(n, "rare", str(seat))
    seen = set()
    for _ in range(n):
        action, gen = GAME.random_action(state, seat, gen)
        assert action in legal, GAME.format_action(action)
        seen.add(type(action).__name__)
    return seen


def test_random_action_reaches_the_rare_decisions() -> None:
    """What short random games seldom reach: the defender's ``defend`` and
    ``retreat``, the Ruins' ``take``, and Buff's ``bribe`` / ``recruit`` /
    ``fight`` (positions of the battle and Buff tests)."""
    from engine.core import evolve
    from tests.games.battalia_buff_helpers import table, with_hand
    from tests.games.battalia_helpers import act, hand
    from tests.games.test_battalia_battles import duel, ruins

    state, _ = act(hand(duel(), 0, "Au 4u"), "attack h1 2h1 : Au 4u")
    state = hand(state, 1, "P P P Ci 1i")
    assert _draws(state, 1) == {"Defend", "Retreat"}
    state, _ = act(hand(ruins(great_face_down=False), 0, "Au 4u 4u"), "attack h1 d4 : Au 4u 4u")
    assert state.phase == "take" and _draws(state, 0) == {"Take"}
    state = table(
        roads="a1-b1-c1 g1-f1 g7-g6",
        cities={"a1": (0, 1), "g1": (1, 1), "g7": (2, 1)},
        heroes={"b1": ("2h1",)},
        buff="a1",
        horde=6,
        day=9,
        phase="buff-move",
    )
    state = with_hand(evolve(state, buff=evolve(state.buff, mover=0, roll=1)), 1, "P P P P 3i 2i")
    state, _ = GAME.apply(state, 0, GAME.parse_action("buff b1"))
    assert state.phase == "buff-attack"
    assert _draws(state, 1) == {"Bribe", "Recruit", "Fight"}
