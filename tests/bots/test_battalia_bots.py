"""Battalia's bots: the normal heuristic's choices (Buff's answers, the
auction, Buff's moves, battles, roads and cities), easy's light sense, and
hard's root actions. Situations are laid out with the Buff tests' ``table``."""

from __future__ import annotations

from engine import GAMES, rng
from engine.bots import Budget, make_bot
from engine.bots.battalia import POLICY, _Scene, heuristic_move
from engine.core import evolve
from engine.games.battalia import GAME, State, buff, format_action, parse_action
from engine.games.battalia.actions import (
    Attack,
    Bid,
    Buy,
    City,
    End,
    Fight,
    Road,
    Upgrade,
)
from engine.games.battalia.model import Placing, Tile
from tests.bots.helpers import bot_positions
from tests.games.battalia_buff_helpers import layout_for, table, with_hand

LEVELS = ("easy", "normal", "hard")


def do(state: State, seat: int, text: str) -> tuple[State, object]:
    return GAME.apply(state, seat, parse_action(text))


def auction_state(
    hands: tuple[str, ...] = ("2u 1u P", "3i Ai P", "1a P P"), **kw: object
) -> tuple[State, object]:
    """Day 8 begins, Buff never entered: the auction is open (as in the Buff tests)."""
    kw.setdefault("roads", "a1-b1-c1 g1-f1 g7-g6")
    kw.setdefault("cities", {"a1": (0, 1), "g1": (1, 1), "g7": (2, 1)})
    state = table(hands=hands, buff=None, entered=False, day=8, phase="day-start", **kw)
    return buff.on_day_start(state)


def normal_choice(state: State, seat: int) -> str:
    """The normal bot's choice, from the seat's view only."""
    legal = GAME.legal_actions(state, seat)
    action, _ = make_bot("battalia", "normal").choose(GAME.view(state, seat), legal, 7)
    assert action in legal
    return format_action(action)


def _attacked(hand: str, horde: int = 6) -> State:
    """Seat 2's hero 2h1 on b1 is attacked by Buff (seat 1 moved him there)."""
    state = table(
        roads="a1-b1-c1 g1-f1 g7-g6",
        cities={"a1": (0, 1), "g1": (1, 1), "g7": (2, 1)},
        heroes={"b1": ("2h1",)},
        buff="a1",
        horde=horde,
        day=9,
        phase="buff-move",
    )
    state = evolve(state, buff=evolve(state.buff, mover=0, roll=1))
    state = with_hand(state, 1, hand)
    state, _ = do(state, 0, "buff b1")
    assert state.phase == "buff-attack"
    return state


# ---- Buff: fight, recruit, bribe -------------------------------------------------------


def test_normal_fights_buff_when_its_line_holds() -> None:
    """Horde 6: 3i 3i with morale (seat 2 is Insulaire) makes 7 ≥ 6: it fights,
    with the smallest line that holds, rather than paying Provisions."""
    state = _attacked("P P P P 3i 3i 1u", horde=6)
    choice = normal_choice(state, 1)
    assert choice == "fight : 3i 3i"
    after, _ = do(state, 1, choice)
    assert after.buff.square is None and after.buff.absent  # Buff beaten


def test_normal_recruits_or_bribes_when_its_line_cannot_hold() -> None:
    """Horde 12 is out of reach: with 4 Provisions it hires Buff, with 3 it
    bribes him, and with neither it lays nothing (keeps its cards)."""
    assert normal_choice(_attacked("P P P P 3i 2i", horde=12), 1) == "recruit : P P P P"
    assert normal_choice(_attacked("P P P 3i 2i", horde=12), 1) == "bribe : P P P"
    assert normal_choice(_attacked("P 3i 2i", horde=12), 1) == "fight"


def test_every_level_answers_buff_from_its_view() -> None:
    state = _attacked("P P P P 3i 2i", horde=8)
    legal = GAME.legal_actions(state, 1)
    view = GAME.view(state, 1)
    for level in LEVELS:
        action, _ = make_bot("battalia", level).choose(view, legal, 3, Budget(iterations=8))
        assert action in legal


# ---- the auction and Buff's moves -----------------------------------------------------


def test_every_level_bids_in_the_auction() -> None:
    state, _ = auction_state()
    for seat in range(3):
        legal = GAME.legal_actions(state, seat)
        assert legal and all(isinstance(a, Bid) for a in legal)
        for level in LEVELS:
            action, _ = make_bot("battalia", level).choose(
                GAME.view(state, seat), legal, 5, Budget(iterations=8)
            )
            assert isinstance(action, Bid) and action.cards  # one or more cards


def test_normal_bids_more_when_an_opponent_leads() -> None:
    """Seat 1 leads (a level-3 city): seat 1 keeps its cards (the cheapest
    bid), seat 0 bids its minor cards to place Buff, but keeps its rank 3."""
    hands = ("2u 1u 3u P", "3i 2i Ai P", "1a P P")
    even, _ = auction_state(hands=hands)
    assert normal_choice(even, 0) == "bid 1u"  # nobody leads, no hero out: the cheapest
    lead, _ = auction_state(hands=hands, cities={"a1": (0, 1), "g1": (1, 3), "g7": (2, 1)})
    assert normal_choice(lead, 0) == "bid 1u 2u"
    assert normal_choice(lead, 1) == "bid Ai"


def test_normal_moves_buff_onto_an_opponent_rather_than_its_own_hero() -> None:
    """Seat 1 rolls 2 from b1: a1 holds its own hero, c1 an opponent's."""
    state = table(
        roads="a1-b1-c1-d1",
        cities={"a1": (0, 1)},
        heroes={"a1": ("2h1",), "c1": ("1h1",)},
        buff="b1",
        day=9,
        phase="buff-move",
    )
    state = evolve(state, buff=evolve(state.buff, mover=1, roll=2))
    legal = {format_action(a) for a in GAME.legal_actions(state, 1)}
    assert {"buff a1", "buff c1"} <= legal
    assert normal_choice(state, 1) == "buff c1"


# ---- battles ---------------------------------------------------------------------------


def _facing(hand0: str, hand1: str) -> State:
    """Seat 1's hero on b1, next to the neutral city c1 (defence 5) and to
    seat 2's hero on b2 (which may retreat to b3)."""
    state = table(
        roads="a1-b1-c1 b1-b2-b3",
        cities={"a1": (0, 1), "c1": (None, 4)},
        heroes={"b1": ("1h1",), "b2": ("2h1",)},
        hands=(hand0, hand1, ""),
        day=3,
    )
    tiles = tuple(evolve(t, kind="neutral") if t.square == "c1" else t for t in state.tiles)
    return evolve(state, tiles=tiles)


def test_normal_conquers_a_neutral_city_when_its_line_wins() -> None:
    """Au 3u 2u with morale is 7 > 5: it attacks c1 with a winning line; with
    Au 1i only (2, no morale) it does not attack."""
    strong = _facing("Au 3u 2u 1i", "P P")
    choice = parse_action(normal_choice(strong, 0))
    assert isinstance(choice, Attack) and choice.target == "c1"
    scene = _Scene(strong, 0)
    assert scene.strength(choice.line, "c1") > strong.rules.neutral_defence
    weak = _facing("Au 1i", "P P")
    assert not isinstance(parse_action(normal_choice(weak, 0)), Attack)


def test_normal_defends_with_the_smallest_line_that_holds_or_retreats() -> None:
    """Seat 1 attacks seat 2's hero with Au 2u 1u (5 with morale). Holding
    3i 3i 1i P, its smallest holding line is 1i 3i (5 with morale: the defender
    wins ties), not 3i 3i; with 1i P P it cannot hold and retreats."""
    for hand, expected in (("3i 3i 1i P", "defend : 1i 3i"), ("1i P P", "retreat")):
        state = _facing("Au 2u 1u", hand)
        state, _ = GAME.apply(state, 0, parse_action("attack h1 2h1 : 1u 2u Au"))
        assert state.phase == "defend"
        assert normal_choice(state, 1).startswith(expected)


# ---- roads and cities ------------------------------------------------------------------


def test_normal_places_the_road_that_reaches_a_free_city() -> None:
    """A straight road drawn: on c1 it links the start a1 (by b1) to the neutral
    city d1, on b2 it leads nowhere; the bot lays it on c1."""
    state = table(roads="a1-b1 b1-b2", cities={"a1": (0, 1)}, day=3, phase="place")
    tiles = [t for t in state.tiles if t.square != "b2"]
    b1 = next(t for t in tiles if t.square == "b1")
    layout, rotation = layout_for(2 | 4 | 8)  # b1: W, E, S
    tiles = [evolve(b1, layout=layout, rotation=rotation) if t is b1 else t for t in tiles]
    layout, rotation = layout_for(2 | 4 | 8)  # d1: a neutral city opening W, E, S
    tiles.append(Tile("d1", "neutral", layout, rotation, "plaine", 4, None))
    state = evolve(
        state,
        tiles=tuple(sorted(tiles, key=lambda t: t.square)),
        placing=Placing(0, "road", "I", "foret"),
    )
    legal = {format_action(a) for a in GAME.legal_actions(state, 0)}
    assert {"place c1 1", "place b2 0"} <= legal
    assert normal_choice(state, 0) == "place c1 1"


def test_normal_builds_a_city_before_a_road_and_ends_only_when_done() -> None:
    """Along normal matches: whenever a city is affordable and placeable, the
    turn's choice is a city or an upgrade (victory points), never a road or
    a buy; and it never ends its turn with an upgrade left undone."""
    checked = 0
    for seed in range(2):
        for state, seat in bot_positions("battalia", seed, ("normal", "normal")):
            if state.phase != "turn":
                continue
            legal = GAME.legal_actions(state, seat)
            choice = heuristic_move(state, seat, legal)
            if any(isinstance(a, City) for a in legal):
                assert isinstance(choice, City | Upgrade | Attack), format_action(choice)
                checked += 1
            if any(isinstance(a, Upgrade) for a in legal):
                assert not isinstance(choice, End | Buy | Road)
    assert checked > 0


def test_easy_never_ends_with_a_build_or_buy_left_undone() -> None:
    checked = 0
    bot = make_bot("battalia", "easy")
    for seed in range(3):
        for state, seat in bot_positions("battalia", seed, ("easy", "normal")):
            if state.phase != "turn" or seat != 0:
                continue
            legal = GAME.legal_actions(state, seat)
            view = GAME.view(state, seat)
            for k in range(3):
                action, _ = bot.choose(view, legal, rng.seed_state(seed, str(k)))
                if isinstance(action, End):
                    assert not any(isinstance(a, Buy | Road | City | Upgrade) for a in legal)
                    checked += 1
    assert checked > 0


# ---- hard ------------------------------------------------------------------------------


def test_hard_searches_the_heuristics_best_turn_actions_only() -> None:
    """Hard's root actions are the heuristic's best few in a turn (normal's
    choice first), and normal's choice alone in any other decision."""
    seen_turn = seen_other = 0
    for state, seat in bot_positions("battalia", 4, ("normal", "normal")):
        legal = GAME.legal_actions(state, seat)
        if len(legal) < 2:
            continue
        view = GAME.view(state, seat)
        roots = list(POLICY.candidates(view, legal))
        expected = heuristic_move(state, seat, legal)
        assert roots and set(roots) <= set(legal)
        if state.phase == "turn":
            assert roots[0] == expected or len(roots) > 1
            seen_turn += 1
        else:
            assert roots == [expected]
            seen_other += 1
    assert seen_turn > 10 and seen_other > 10


def test_hard_plays_normal_on_a_budget_too_small_to_overrule_it() -> None:
    game = GAMES["battalia"]
    hard, normal = make_bot("battalia", "hard"), make_bot("battalia", "normal")
    checked = 0
    for state, seat in bot_positions("battalia", 2, ("normal", "normal")):
        legal = game.legal_actions(state, seat)
        if state.phase != "turn" or len(legal) < 8:
            continue
        view = game.view(state, seat)
        choice = hard.think(view, legal, 11, Budget(iterations=3, seconds=None))
        assert choice.action == normal.choose(view, legal, 11)[0]
        checked += 1
        if checked == 8:
            break
    assert checked == 8


def test_fight_lines_are_chosen_from_the_view_only() -> None:
    """The other seats' hands do not change the defender's answer."""
    state = _attacked("P 3i 3i 2i", horde=6)
    base = normal_choice(state, 1)
    other = with_hand(state, 0, "4u 4u 4u Au Au")
    assert normal_choice(other, 1) == base
    assert isinstance(parse_action(base), Fight)
