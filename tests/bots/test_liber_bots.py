"""Chroniques de Liber's bot policy: what each level does in situations we can read."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from engine import Match, rng
from engine.bots import Budget, bot_rng, make_bot
from engine.bots.liber import CANDIDATES, CLOSE, POLICY, evaluate, quick_move, ranked, score
from engine.core import evolve
from engine.games.liber import GAME, Attack, Block, Next, Play, State
from engine.games.liber.board import general_ref, piece_at, pv_left
from engine.games.liber.model import LINES, Piece

SMALL = Budget(iterations=24)


def scenario(
    sides: tuple[Mapping[str, str], Mapping[str, str]],
    *,
    hands: tuple[tuple[str, ...], tuple[str, ...]] = ((), ()),
    gold: tuple[int, int] = (0, 0),
    faith: tuple[int, int] = (0, 0),
    general_damage: tuple[int, int] = (0, 0),
    phase: str = "attack",
    sick: tuple[str, ...] = (),
) -> State:
    """Two starter decks (general Aldric, 20 PV, at a3), seat 0 to play in
    ``phase`` after the first round; ``sides[s]`` maps places (``f3``) to
    card ids; ``sick`` lists seat 0's places whose unit arrived this turn."""
    state = GAME.setup(GAME.options("decks=starter"), 2, 1)
    uid = 100
    players = []
    for seat, player in enumerate(state.players):
        rows: list[list[Piece | None]] = [[None] * 5 for _ in range(3)]
        rows[1][2] = Piece(
            uid=seat + 1,
            card=player.general,
            owner=seat,
            general=True,
            sick=False,
            damage=general_damage[seat],
        )
        for place, card in sides[seat].items():
            line, idx = LINES.index(place[0]), int(place[1]) - 1
            uid += 1
            rows[line][idx] = Piece(
                uid=uid, card=card, owner=seat, sick=seat == 0 and place in sick, moved=True
            )
        deck = list(player.deck) + list(player.hand)
        for card in hands[seat]:
            deck.remove(card)
        players.append(
            evolve(
                player,
                lines=(tuple(rows[0]), tuple(rows[1]), tuple(rows[2])),
                hand=hands[seat],
                deck=tuple(deck),
                gold=gold[seat],
                faith=faith[seat],
            )
        )
    return evolve(
        state,
        players=tuple(players),
        turn=5,
        active=0,
        phase=phase,
        first_round=False,
        next_uid=uid + 1,
    )


def patch(state: State, ref: tuple[int, int, int], **fields: object) -> State:
    """``state`` with the piece at ``ref`` changed."""
    seat, line, idx = ref
    piece = piece_at(state, ref)
    assert piece is not None
    player = state.players[seat]
    rows = [list(row) for row in player.lines]
    rows[line][idx] = evolve(piece, **fields)
    players = list(state.players)
    players[seat] = evolve(player, lines=(tuple(rows[0]), tuple(rows[1]), tuple(rows[2])))
    return evolve(state, players=tuple(players))


def choose(level: str, state: State, seat: int, budget: Budget = SMALL) -> str:
    bot = make_bot("liber", level)
    legal = GAME.legal_actions(state, seat)
    action, _ = bot.choose(GAME.view(state, seat), legal, bot_rng(7, seat), budget)
    assert action in legal
    return GAME.format_action(action)


LEVELS_THAT_THINK = ("normal", "hard")


# ---- the general --------------------------------------------------------------------


@pytest.mark.parametrize("level", LEVELS_THAT_THINK)
def test_blocks_a_lethal_attack_on_its_general(level: str) -> None:
    """Seat 0's Chevalier (6 force) attacks seat 1's general, 4 PV left;
    the Sergent at a2 can block (it is in the attacker's range): it does."""
    state = scenario(
        ({"f3": "chevalier"}, {"a2": "sergent"}),
        general_damage=(0, 16),
    )
    state, _ = GAME.apply(state, 0, Attack((2, 2), (((1, 1, 2), 0),)))
    assert min(GAME.pending(state)) == 1
    assert Block((1, 1)) in GAME.legal_actions(state, 1)
    assert choose(level, state, 1) == "block a2"


@pytest.mark.parametrize("level", LEVELS_THAT_THINK)
def test_does_not_throw_a_unit_away_on_a_harmless_attack(level: str) -> None:
    """A Milicien (2/3) attacks the general (20 PV). The Fantassin (3/4)
    blocks: it survives and kills the Milicien. A Paysan (1/2) would die for
    2 PV of a healthy general: it does not block."""
    state = scenario(({"f3": "milicien"}, {"a2": "fantassin"}))
    state, _ = GAME.apply(state, 0, Attack((2, 2), (((1, 1, 2), 0),)))
    assert choose(level, state, 1) == "block a2"
    weak = scenario(({"f3": "milicien"}, {"a2": "paysan"}))
    weak, _ = GAME.apply(weak, 0, Attack((2, 2), (((1, 1, 2), 0),)))
    assert choose(level, weak, 1) == "pass"


@pytest.mark.parametrize("level", LEVELS_THAT_THINK)
def test_takes_a_won_general_kill(level: str) -> None:
    """Seat 1's general has 5 PV left and nothing on its front: seat 0's
    Fanatique (5 force) kills it rather than hit the paralysed Archer it
    could also attack (and that cannot block)."""
    state = scenario(
        ({"f3": "fanatique", "f2": "fantassin"}, {"a1": "archer"}),
        general_damage=(0, 15),
    )
    state = patch(state, (1, 1, 0), paralysed=True, paralysed_since=4)  # cannot block
    legal = GAME.legal_actions(state, 0)
    assert Attack((2, 2), (((1, 1, 0), 0),)) in legal
    action = choose(level, state, 0)
    assert action == "attack f3 2a3"
    after, _ = GAME.apply(state, 0, GAME.parse_action(action))
    while GAME.outcome(after) is None:  # the defender may only pass
        seat = min(GAME.pending(after))
        after, _ = GAME.apply(after, seat, GAME.legal_actions(after, seat)[-1])
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.ranking[0] == (0,) and outcome.reason == "general"


def test_normal_does_not_attack_into_a_lost_exchange() -> None:
    """A Milicien (2/3) facing a Chevalier (6/7) on the front: attacking
    loses the Milicien to the riposte for 2 damage; normal ends the phase."""
    state = scenario(({"f3": "milicien"}, {"f3": "chevalier"}))
    assert Attack((2, 2), (((1, 2, 2), 0),)) in GAME.legal_actions(state, 0)
    assert choose("normal", state, 0) == "next"


def test_normal_attacks_for_a_free_kill() -> None:
    """A Paysan (1/2) alone on the enemy front: the Archer (Tir, at a2)
    kills it with no riposte (melee cannot strike from the front to the
    back line while our Fantassin holds our front), for 2 VP and 1 faith."""
    state = scenario(({"a2": "archer", "f1": "fantassin"}, {"f3": "paysan"}))
    assert choose("normal", state, 0) == "attack a2 2f3"


# ---- spending and placing -----------------------------------------------------------


def test_normal_places_by_range() -> None:
    """A Tir unit goes to the back line (Tir case 1: arrière → front), a
    melee fighter to the front (melee case 1), an Artillerie unit never to
    the back line (it shoots from the plaine or the front)."""
    archer = scenario(({}, {}), hands=(("archer",), ()), gold=(5, 0), phase="placement")
    assert choose("normal", archer, 0).startswith("play archer a")
    catapult = scenario(({}, {}), hands=(("catapulte",), ()), gold=(10, 0), phase="placement")
    assert choose("normal", catapult, 0)[: len("play catapulte p")] in (
        "play catapulte p",
        "play catapulte f",
    )
    knight = scenario(({}, {}), hands=(("fantassin",), ()), gold=(7, 0), phase="placement")
    assert choose("normal", knight, 0).startswith("play fantassin f")


def test_normal_spends_its_gold_on_the_best_unit() -> None:
    """8 gold and a hand of Milicien (2 gold, 2/3) and Sergent (4 gold,
    3/5): the Sergent first, on the front (4 + 4 gold)."""
    state = scenario(({}, {}), hands=(("milicien", "sergent"), ()), gold=(8, 0), phase="placement")
    assert choose("normal", state, 0) == "play sergent f1"


@pytest.mark.parametrize("seed", range(6))
def test_easy_never_ends_placement_with_an_affordable_unit(seed: int) -> None:
    state = scenario(({}, {}), hands=(("milicien", "eclair"), ()), gold=(2, 0), phase="placement")
    bot = make_bot("liber", "easy")
    legal = GAME.legal_actions(state, 0)
    assert Next() in legal
    action, _ = bot.choose(GAME.view(state, 0), legal, rng.seed_state(seed))
    assert isinstance(action, Play) and action.card == "milicien"


# ---- reactions ---------------------------------------------------------------------------


def test_normal_reacts_with_an_ephemere() -> None:
    """Seat 0's Fanatique (5 force, 4 PV) attacks seat 1's Fantassin; seat
    1 holds an Éclair (3 damage) and the Fanatique is wounded once: the
    Éclair kills it before it strikes."""
    state = scenario(({"f3": "fanatique"}, {"f3": "fantassin"}), hands=((), ("eclair",)))
    state = evolve(state, players=(state.players[0], evolve(state.players[1], gold=4, faith=1)))
    state = patch(state, (0, 2, 2), damage=1)
    state, _ = GAME.apply(state, 0, Attack((2, 2), (((1, 2, 2), 0),)))
    assert min(GAME.pending(state)) == 1
    assert choose("normal", state, 1) == "play eclair 1f3"


# ---- the search's parts ------------------------------------------------------------------


def test_evaluation_reads_the_general_in_danger() -> None:
    safe = scenario(({"f3": "chevalier"}, {"f3": "sergent"}))
    exposed = scenario(({"f3": "chevalier"}, {"p3": "sergent"}), general_damage=(0, 15))
    assert score(safe, 1) > score(exposed, 1)
    assert 0.0 < evaluate(exposed, 1) < evaluate(safe, 1) < 1.0
    ref = general_ref(exposed, 1)
    assert ref is not None
    piece = piece_at(exposed, ref)
    assert piece is not None and pv_left(exposed, ref, piece) == 5


def test_playout_moves_are_legal_along_a_match() -> None:
    match = Match(GAME, None, 2, 4)
    bot = make_bot("liber", "normal")
    r = bot_rng(4, 0)
    n = 0
    while not match.is_over and n < 400:
        seat = min(match.pending())
        legal = match.legal_actions(seat)
        assert quick_move(match.state, seat, legal, rng.seed_state(n))[0] in legal
        assert 0.0 <= POLICY.evaluate(match.state, seat) <= 1.0
        action, r = bot.choose(match.view(seat), legal, r)
        match.play(seat, action)
        n += 1
    assert n > 20


def test_hard_searches_only_the_moves_normal_likes() -> None:
    """hard's root: normal's move first, then at most the runner-up, and
    only the moves normal scores within CLOSE of its best."""
    state = scenario(
        ({"f3": "chevalier", "a2": "archer"}, {"f3": "sergent", "a1": "archer"}),
    )
    view = GAME.view(state, 0)
    legal = GAME.legal_actions(state, 0)
    candidates = POLICY.candidates(view, legal)
    assert 1 <= len(candidates) <= CANDIDATES
    assert all(a in legal for a in candidates)
    normal, _ = POLICY.normal(view, legal, 1)
    assert candidates[0] == normal
    scores = dict((a, v) for v, a in ranked(state, 0, legal))
    assert all(scores[a] >= scores[normal] - CLOSE for a in candidates)


def test_hard_plays_normal_when_its_move_is_clear() -> None:
    """The lethal block: nothing else comes close, hard does not search."""
    state = scenario(({"f3": "chevalier"}, {"a2": "sergent"}), general_damage=(0, 16))
    state, _ = GAME.apply(state, 0, Attack((2, 2), (((1, 1, 2), 0),)))
    view, legal = GAME.view(state, 1), GAME.legal_actions(state, 1)
    assert POLICY.candidates(view, legal) == [Block((1, 1))]
    choice = make_bot("liber", "hard").think(view, legal, 3, SMALL)
    assert choice.action == Block((1, 1)) and choice.iterations == 0
