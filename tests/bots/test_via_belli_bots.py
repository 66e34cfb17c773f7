"""Via Belli's bots: the normal heuristic's choices, and no peeking."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from engine import GAMES, Match, rng
from engine.bots import bot_rng, make_bot
from engine.bots.via_belli import POLICY, _rect, _touch, heuristic_move
from engine.core import evolve
from engine.games.via_belli import (
    K_CASTLE,
    Anchor,
    Attack,
    Begin,
    Draw,
    Pivot,
    Recall,
    Rect,
    State,
    Summon,
    board_of,
)
from tests.games.vb_helpers import scenario

GAME = GAMES["via-belli"]


# With the default options (castle_tie=falls, spy_contact=card, the Espion placed
# without an anchor) a bot holding the Espion summons it against the enemy castle and
# ties it at once (0 against 0): matches last a dozen turns. The heuristic's other
# choices need long matches, so these positions come from matches where the Espion
# must touch an enemy unit (ruling V17).
OPTIONS = "spy_contact=unit"


def positions(
    seed: int, levels: tuple[str, str] = ("normal", "normal"), options: str = OPTIONS
) -> Iterator[tuple[State, int]]:
    """``(state, seat to decide)`` along a match between bots."""
    match = Match(GAME, options, 2, seed)
    bots = [make_bot("via-belli", level) for level in levels]
    states = [bot_rng(seed, 0), bot_rng(seed, 1)]
    while not match.is_over:
        seat = min(match.pending())
        yield match.state, seat
        action, states[seat] = bots[seat].choose(
            match.view(seat), match.legal_actions(seat), states[seat]
        )
        match.play(seat, action)


def _winning_castle_attack(state: State, seat: int) -> bool:
    b = board_of(state)
    tie = 1 if state.rules.castle_tie == "falls" else 0  # a tie takes the castle too
    return any(
        b.kind[t] == K_CASTLE and sum(b.atk(a) for a in attackers) + tie > b.dfn(t)
        for t, attackers in b.attack_map(seat).items()
    )


def test_normal_takes_a_castle_it_can_take() -> None:
    """When the summed ATK beats a castle's DEF, the bot opens the attack
    menu and attacks the castle."""
    checked = 0
    for seed in range(2):
        for state, seat in positions(seed):
            legal = GAME.legal_actions(state, seat)
            if state.phase == "turn" and _winning_castle_attack(state, seat):
                assert heuristic_move(state, seat, legal) == Begin("x")
                after, _ = GAME.apply(state, seat, Begin("x"))
                choice = heuristic_move(after, seat, GAME.legal_actions(after, seat))
                assert isinstance(choice, Attack)
                assert board_of(after).kind[board_of(after).at(choice.target)] == K_CASTLE
                checked += 1
    assert checked > 0


def test_normal_summons_onto_free_terrain() -> None:
    """Choosing where to put a card, the bot takes a terrain card (an inn
    or an outpost) it does not hold when one of the spots touches it."""
    checked = 0
    for seed in range(2):
        for state, seat in positions(seed):
            if state.phase != "spot":
                continue
            legal = GAME.legal_actions(state, seat)
            free = [_rect(t.x, t.y, t.landscape) for t in state.terrain if t.controller != seat]

            def takes(a: object, free: list[Rect] = free) -> bool:
                return isinstance(a, Summon) and any(
                    _touch(_rect(a.x, a.y, a.landscape), t) for t in free
                )

            if any(takes(a) for a in legal) and not all(takes(a) for a in legal):
                assert takes(heuristic_move(state, seat, legal))
                checked += 1
    assert checked > 0


def test_normal_draws_with_an_empty_hand_and_never_its_last_cards() -> None:
    for state, seat in positions(1):
        if state.phase != "turn":
            continue
        legal = GAME.legal_actions(state, seat)
        choice = heuristic_move(state, seat, legal)
        player = state.players[seat]
        if choice == Draw() and len(legal) > 1:
            assert sum(player.deck) > 2 or all(a == Draw() for a in legal[:1])


def test_normal_and_easy_do_not_peek() -> None:
    """Same view, same seed: same choice, whatever the hidden cards are."""
    bots = [make_bot("via-belli", level) for level in ("easy", "normal")]
    checked = 0
    for n, (state, seat) in enumerate(positions(4)):
        if n % 8:
            continue
        view, legal = GAME.view(state, seat), GAME.legal_actions(state, seat)
        r = rng.seed_state(n, "peek")
        expected = [bot.choose(view, legal, r) for bot in bots]
        for k in (1, 2):
            other = GAME.determinize(state, seat, 100 * n + k)
            other_view = GAME.view(other, seat)
            assert other_view == view
            got = [bot.choose(other_view, GAME.legal_actions(other, seat), r) for bot in bots]
            assert got == expected
        checked += 1
    assert checked > 10


def test_playout_moves_are_legal_and_evaluate_in_range() -> None:
    for n, (state, seat) in enumerate(positions(2)):
        if n % 7:
            continue
        legal = GAME.legal_actions(state, seat)
        assert POLICY.playout(state, seat, legal, rng.seed_state(n))[0] in legal
        assert 0.0 <= POLICY.evaluate(state, seat) <= 1.0


def test_playout_random_steps_are_drawn_without_the_list(monkeypatch: pytest.MonkeyPatch) -> None:
    """The playout's random steps (anchors, pivots, one step in
    PLAYOUT_NOISE) are drawn by ``random_step``, the card or the card to move
    first, never picked from the listed actions; a recall only when no card
    can move."""
    picked = []

    def no_pick(state: int, items: object) -> object:
        picked.append(items)
        raise AssertionError("a playout step picked from the listed actions")

    monkeypatch.setattr(rng, "choice", no_pick)
    phases = set()
    for n, (state, seat) in enumerate(positions(2)):
        legal = GAME.legal_actions(state, seat)
        if len(legal) == 1:
            continue
        for k in range(3):
            action, _ = POLICY.playout(state, seat, legal, rng.seed_state(n, str(k)))
            assert action in legal
            if isinstance(action, Recall):
                assert not any(isinstance(a, Pivot) for a in legal)
        phases.add(state.phase)
    assert {"turn", "anchor", "pivot"} <= phases
    assert not picked


def test_sampled_card_being_placed_leaves_room_for_known_cards() -> None:
    """Regression (hard fell back to normal): seat 0 is placing a card of a
    hand everyone knows (two Roturiers, recalled). Other seats' samples must
    make it a Roturier: another card that fits the anchor would leave two
    known Roturiers for one hand slot."""
    state = scenario(hands=[["Roturier", "Roturier"], ["Serf"]])
    players = list(state.players)
    players[0] = evolve(players[0], known=(("Roturier", state.clock), ("Roturier", state.clock)))
    state = evolve(state, players=tuple(players))
    state, _ = GAME.apply(state, 0, Begin("+"))
    anchor = next(a for a in GAME.legal_actions(state, 0) if isinstance(a, Anchor) and a.hidden)
    state, _ = GAME.apply(state, 0, anchor)
    assert state.phase == "spot"
    view = GAME.view(state, 1)
    for seed in range(20):
        sampled = POLICY.sample_state(view, seed)
        assert sampled.sel_card == "Roturier"
        assert sampled.players[0].hand == ("Roturier", "Roturier")
        assert GAME.view(sampled, 1) == view
