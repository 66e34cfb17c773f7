"""Battalia's base rules (rulings/battalia.md, section 2): set-up, costs,
placement, movement, battles, conquest, the end and its tie-breaks. The
sentences quoted are the rulings' (the base rulebook is not public)."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.core import Event, evolve
from engine.games.battalia.battle import line_strength
from engine.games.battalia.board import area
from engine.games.battalia.costs import matches, payments
from engine.games.battalia.data import data
from engine.games.battalia.model import Tile
from engine.games.battalia.turns import check_end, ranking, score
from tests.games.battalia_helpers import act, act_as, first, g, kinds, legal, refused, scenario

# ---------------------------------------------------------------------------
# Set-up
# ---------------------------------------------------------------------------


def test_starting_deck_is_ten_cards_and_six_are_drawn() -> None:
    """« Deal each player 3 rank-1 units, 1 rank-2, 1 rank-3 and 5 provisions:
    a 10-card deck »; « draw back up to 6 »."""
    state = g.setup(g.options(""), 3, 7)
    for p in state.players:
        cards = Counter(c[0] for c in (*p.hand, *p.deck))
        assert cards == {"1": 3, "2": 1, "3": 1, "P": 5}
        assert len(p.hand) == 6
    assert state.provisions == 80 - 3 * 5


def test_factions_in_turn_order_then_the_last_to_choose_places_first() -> None:
    """« The last player to choose places his start city first »."""
    state = g.setup(g.options("buff=false"), 3, 2)
    assert legal(state) == {"faction u", "faction i", "faction a", "faction n"}
    state, _ = act(state, "faction i", "faction u")
    refused(state, "faction u")
    state, _ = act(state, "faction n")
    assert state.phase == "start" and state.active == 2
    state, _events = act(state, "start g7")
    tile = next(t for t in state.tiles if t.square == "g7")
    assert (tile.owner, tile.level, tile.terrain) == (2, 1, "montagne")
    assert state.active == 1
    state, _ = act(state, "start a1", "start g1")
    assert state.phase == "turn" and state.active == 0 and state.day == 1


def test_two_player_game_removes_a_faction_and_uses_the_small_area() -> None:
    """« 2-player game: one faction is removed from all decks (60 units and
    60 provisions) and a smaller board area is used »."""
    state = g.setup(g.options(""), 2, 3)
    units = [c for _, cards in state.market for c in cards if c[0].isdigit() and c[1] != "m"]
    dealt = [c for p in state.players for c in (*p.hand, *p.deck) if c[0].isdigit()]
    assert len(units) + len(dealt) == 60
    assert not any(c[1] == "n" for c in units + dealt)
    assert state.provisions + 10 == 60
    assert legal(state) == {"faction u", "faction i", "faction a"}


# ---------------------------------------------------------------------------
# Costs (table 2.7)
# ---------------------------------------------------------------------------

SAMPLE = {"P": "P", "u1": "1u", "u2": "2i", "u3": "3a", "u4": "4n"}


def _cards_for(recipe: dict[str, int]) -> list[str]:
    out = []
    for slot, n in recipe.items():
        out += [SAMPLE.get(slot, f"{slot}u")] * n
    return out


@pytest.mark.parametrize("name", sorted(data().costs))
def test_every_recipe_is_paid_exactly(name: str) -> None:
    """« Each line pays the exact card-type recipe of one action »."""
    recipe = data().costs[name]
    cards = _cards_for(recipe)
    assert matches(cards, recipe)
    assert not matches([*cards, "P" if "P" not in recipe else "1u"], recipe)
    assert not matches(cards[1:], recipe)
    assert tuple(sorted(cards)) in {tuple(sorted(p)) for p in payments(cards, recipe)}


def test_a_tool_counts_as_two_frimen_when_building() -> None:
    """« Tool (when building, a tool counts as 2 Frimen) »; illuminated: 4."""
    road_t = data().costs["road-T"]
    assert matches(["Ou", "P"], road_t, tools=2)
    assert not matches(["Ou", "P"], road_t)  # not a rank-1 unit otherwise
    assert not matches(["Ou", "1u", "P"], road_t, tools=2)  # one card too many
    city_1 = data().costs["city-1"]
    assert matches(["Ou", "1a"], city_1, tools=2)
    assert not matches(["Ou"], city_1, tools=2)
    assert matches(["Ou"], city_1, tools=4)


def test_buying_a_unit_also_gives_a_provision() -> None:
    """« Buying any non-mercenary unit also gives you a Provision »."""
    state = scenario(hands=("P P P P P",))
    before = state.provisions
    state, events = act(state, "buy 2 : P P P")
    bought = first(events, "buy").data
    assert bought["card"][0] == "2" and bought["provision"]
    assert state.provisions == before - 1
    assert Counter(state.players[0].discard)["P"] >= 1
    refused(state, "buy 2 : P P")  # 3 Provisions, not 2


def test_matching_type_lets_the_buyer_choose_the_faction() -> None:
    """« On the Oracle's "matching" type you may choose the faction »: day 1
    matches the tool (O)."""
    state = scenario(hands=("1u 1u 1i",), day=1)
    assert "buy Oi : 1u 1u 1i" in legal(state)
    state, events = act(state, "buy Oi : 1u 1u 1i")
    assert first(events, "buy").data["card"] == "Oi"
    day2 = scenario(hands=("1u 1u 1i",), day=2)
    refused(day2, "buy Oi : 1u 1u 1i")


# ---------------------------------------------------------------------------
# Placement (2.9)
# ---------------------------------------------------------------------------


def test_placement_matches_neighbours_stays_inside_and_joins_the_network() -> None:
    """« Exits must match every existing neighbour »; « No exit may point off
    the board »; « orthogonally adjacent to a square that is road-connected to
    one of your cities or heroes »."""
    state = scenario(hands=("1u P",))  # seat 1 on f6 (exits N, W), seat 2 on b2
    state, events = act(state, "road I : 1u P")
    assert state.phase == "place"
    # next to f6 only: e6 (a W-E straight) or f5 (a N-S straight)
    assert legal(state) == {"place e6 1", "place f5 0"}
    refused(state, "place c3 0")  # not next to the network
    refused(state, "place e6 0")  # N-S straight: f6's exit W meets no exit
    state, events = act(state, "place e6 1")
    tile = next(t for t in state.tiles if t.square == "e6")
    assert (tile.kind, tile.layout, tile.rotation) == ("road", "I", 1)
    assert kinds(events)[-1] == "place"


def test_no_exit_points_off_the_area() -> None:
    """« No exit may point off the board »: the 2-player area is b2..f6."""
    state = scenario(roads="f6-f5-f4", hands=("1u 1u P",), day=2)
    # a cross anywhere next to the network points off the area or meets a wall
    assert not any(a.startswith("road X") for a in legal(state))
    refused(state, "road X : 1u 1u P")
    state = scenario(roads="f6-f5-f4", hands=("1u 1u P",), day=2)
    state, _ = act(state, "road T : 1u 1u P")
    spots = legal(state)
    assert spots and all(
        sq[0] in "bcdef" and sq[1] in "23456" for _, sq, _ in (s.split() for s in spots)
    )
    # f3: a T with its back to the east (N S W) fits; any turn with an east exit does not
    assert "place f3 2" not in spots and "place f3 1" not in spots


# ---------------------------------------------------------------------------
# Movement (2.8)
# ---------------------------------------------------------------------------


def test_moving_costs_a_provision_a_step_or_a_horse_for_three() -> None:
    """« Move a hero: 1 Provision per space, or a Horse for up to 3 spaces »."""
    state = scenario(roads="b2-c2-d2-e2", heroes={"b2": ("1h1",)}, hands=("P P Cu",), day=2)
    assert "move h1 c2 d2 : P P" in legal(state)
    assert "move h1 c2 d2 e2 : Cu" in legal(state)
    refused(state, "move h1 c2 : P P")  # a card too many
    refused(state, "move h1 c2 d2 e2 : P P")  # not enough
    state, _events = act(state, "move h1 c2 d2 e2 : Cu")
    assert next(h for h in state.heroes if h.seat == 0).square == "e2"


def test_advanced_game_steps_into_the_homeland_are_free() -> None:
    """« Advanced game: steps that enter your homeland terrain are free »."""
    state = scenario(
        options="buff=false advanced=true",
        roads="b2-c2-d2",
        terrain={"c2": "foret", "d2": "lac"},
        heroes={"b2": ("1h1",)},
        hands=("P",),
    )
    assert "move h1 c2" in legal(state)  # seat 1 is Ursidés: forest is free
    assert "move h1 c2 d2 : P" in legal(state)
    basic = scenario(roads="b2-c2", terrain={"c2": "foret"}, heroes={"b2": ("1h1",)}, hands=("P",))
    refused(basic, "move h1 c2")


# ---------------------------------------------------------------------------
# Battles (2.10, 2.11)
# ---------------------------------------------------------------------------


def test_line_strength_with_morale_and_terrain() -> None:
    """« Morale bonus +1: every card in your line belongs to your faction;
    mercenary cards do not break this »; « Terrain bonus +1: the battle
    square's terrain is your homeland »."""
    state = scenario(roads="b2-c2", terrain={"c2": "foret"}, day=3)
    brk = line_strength(state, 0, ("2u", "4m", "Au"), "c2", leader="hero")
    assert (brk.base, brk.morale, brk.terrain, brk.total) == (7, 1, 1, 9)
    mixed = line_strength(state, 0, ("2u", "2i", "Au"), "c2", leader="hero")
    assert (mixed.morale, mixed.total) == (0, 6)
    buff_led = line_strength(state, 0, ("2u", "4m", "3m", "Au"), "c2", leader="buff")
    assert (buff_led.morale, buff_led.bannerless, buff_led.total) == (0, 2, 10 + 2 + 1)


def test_conquering_a_neutral_city_and_the_defender_wins_ties() -> None:
    """« Neutral cities have a fixed defence of 5 »; « ties go to the
    defender »; « a won city changes colour at the same level »."""
    # seat 1's hero next to the neutral city f2 (2 players): b2-c2-d2-e2-f2
    road = "b2-c2-d2-e2-f2"
    tie = scenario(roads=road, heroes={"e2": ("1h1",)}, hands=("3i Au",), day=3)
    assert "attack h1 f2 : 3i Au" in legal(tie)
    state, events = act(tie, "attack h1 f2 : 3i Au")  # 4 vs 5 (no morale: Insulaire)
    assert first(events, "battle").data["result"] == "defender"
    assert "hero-lost" in kinds(events) and not state.heroes
    win = scenario(roads=road, heroes={"e2": ("1h1",)}, hands=("3u 2u Au",), day=3)
    state, events = act(win, "attack h1 f2 : 2u 3u Au")  # 6 + morale 1 = 7 > 5
    assert first(events, "battle").data["result"] == "attacker"
    tile = next(t for t in state.tiles if t.square == "f2")
    assert (tile.owner, tile.level) == (0, 4)
    assert score(state, 0) == (5, 1, 2)
    assert sorted(state.players[0].discard) == sorted(["2u", "3u", "Au"])


def test_a_city_defender_adds_the_level_and_may_lose_it() -> None:
    """« City defence = defender's line + city level »."""
    state = scenario(
        seats=2,
        roads="b2-c2 e6-f6",
        cities={"c2": (1, 2)},
        heroes={"b2": ("1h1",)},
        hands=("4u Au", "2i"),
        day=3,
    )
    state, events = act(state, "attack h1 c2 : 4u Au")  # 5 + morale = 6
    assert state.phase == "defend" and list(g.pending(state)) == [1]
    assert "defend : 2i" in legal(state, 1)
    state, events = act_as(state, 1, "defend : 2i")  # 2 + morale + level 2 = 5
    assert first(events, "battle").data["result"] == "attacker"
    assert next(t for t in state.tiles if t.square == "c2").owner == 0


def test_ruins_give_a_great_artefact() -> None:
    """« Beating them earns a Great Artefact »: defence 8."""
    road = "b2-c2-d2 d2-d3-d4"
    state = scenario(roads=road, heroes={"d3": ("1h1",)}, hands=("4u 4u Au",), day=3)
    state = evolve(state, rules=evolve(state.rules, great_face_down=False))  # face up
    state, events = act(state, "attack h1 d4 : 4u 4u Au")  # 9 + 1 = 10 > 8
    assert first(events, "battle").data["result"] == "attacker"
    assert state.phase == "take"
    shown = state.great
    state, _events = act(state, f"take {shown[0]}")
    assert shown[0] in state.players[0].discard and shown[0] not in state.great
    assert state.phase == "turn"


# ---------------------------------------------------------------------------
# The end (2.12)
# ---------------------------------------------------------------------------


def test_tie_breaks_level4_cities_then_cities() -> None:
    """« Tie-breaks: more level-4 cities, then more cities »."""
    state = scenario(seats=3, day=5)
    tiles = [t for t in state.tiles if t.owner is None or t.kind != "start"]
    tiles += [
        Tile("a1", "start", "L", 1, "foret", 4, 0),
        Tile("g1", "start", "L", 2, "lac", 2, 1),
        Tile("b1", "city", "I", 1, "lac", 2, 1),
        Tile("g7", "start", "L", 3, "desert", 1, 2),
        Tile("f7", "city", "I", 1, "desert", 1, 2),
        Tile("e7", "city", "I", 1, "desert", 2, 2),
    ]
    state = evolve(state, tiles=tuple(sorted(tiles, key=lambda t: t.square)))
    assert [score(state, s)[0] for s in range(3)] == [4, 4, 4]
    assert ranking(state) == ((0,), (2,), (1,))


def test_the_game_ends_at_once_on_a_full_area() -> None:
    """« The game ends immediately when … the board is full »."""
    state = g.setup(g.options("buff=false"), 2, 4)
    state, _ = act(state, "faction u", "faction i", "start f6", "start b2")
    filled = {t.square for t in state.tiles}
    missing = [sq for sq in area(2) if sq not in filled]
    extra = [Tile(sq, "road", "X", 0, "plaine") for sq in missing[1:]]
    state = evolve(state, tiles=tuple(sorted((*state.tiles, *extra), key=lambda t: t.square)))
    last = missing[0]
    events: list[Event] = []
    assert check_end(state, events).phase == "turn"  # one square left
    full = check_end(
        evolve(state, tiles=(*state.tiles, Tile(last, "road", "X", 0, "plaine"))), events
    )
    assert full.phase == "over" and full.end_reason == "full"
    assert kinds(events) == ["game-over"]
    assert g.outcome(full) is not None


def test_week_limit_ends_the_game() -> None:
    state = scenario(options="buff=false week_limit=1", day=7, active=1)
    state, events = act(state, "end")
    assert state.phase == "over" and state.end_reason == "weeks"
    assert "game-over" in kinds(events)


# ---------------------------------------------------------------------------
# Start of turn, heroes, upgrades, tents, retreat
# ---------------------------------------------------------------------------


def test_mulligan_and_cohort_only_as_the_first_action() -> None:
    """« Mulligan: discard your hand and draw 5 »; « 3 or more same-faction
    cards → draw 1 extra card »."""
    state = scenario(hands=("1u 2u 3u P P P",), decks=("1a 1a 1a 1a 1a 1a",))
    assert {"mulligan", "cohort 1u 2u 3u"} <= legal(state)
    after, events = act(state, "cohort 1u 2u 3u")
    assert len(after.players[0].hand) == 7 and "draw" in kinds(events)
    refused(after, "mulligan")
    after, _ = act(state, "mulligan")
    assert sorted(after.players[0].hand) == ["1a"] * 5
    late, _ = act(state, "buy 2 : P P P")
    refused(late, "cohort 1u 2u 3u")


def test_summon_upgrade_and_tent() -> None:
    """« Summon a hero: Weapon + 2 Provisions »; « Upgrade a city by +1: 2
    units of the new level's rank »; « Tent … setting it up costs Tent +
    Provision »."""
    state = scenario(hands=("Au P P 2u 2i Eu P 3a",), day=2)
    state, events = act(state, "summon f6 : Au P P")
    assert [(h.seat, h.index, h.square) for h in state.heroes] == [(0, 1, "f6")]
    state, _ = act(state, "upgrade f6 : 2i 2u")
    assert next(t for t in state.tiles if t.square == "f6").level == 2
    state, events = act(state, "tent 3a : Eu P")
    assert state.players[0].tent == ("3a",)
    assert first(events, "tent").for_seat(1).data == {"seat": 0, "count": 1, "cards": ["Eu", "P"]}
    state, _ = act(state, "end")
    assert state.players[0].tent == ("3a",)
    state, _ = act_as(state, 1, "end")
    assert "3a" in state.players[0].hand and not state.players[0].tent


def test_end_of_turn_discards_everything_and_draws_six() -> None:
    """« Discard the played cards, the bought cards and the rest of your
    hand, then draw back up to 6 »."""
    state = scenario(hands=("P P P 1u",), decks=("1i 1i 1i 1i 1i 1i 1i",))
    state, _ = act(state, "buy 2 : P P P", "end")
    p = state.players[0]
    assert sorted(p.hand) == ["1i"] * 6
    assert sorted(c for c in p.discard if c[0] != "2") == ["1u", "P", "P", "P", "P"]


def test_a_hero_attacked_by_a_hero_may_retreat() -> None:
    """« When attacked in a hero-vs-hero battle, the defender may pay 2
    Provisions or a Horse to move 1 space away and avoid the fight »."""
    state = scenario(
        roads="c3-d3-e3",
        heroes={"c3": ("1h1",), "d3": ("2h1",)},
        hands=("2u Au", "P P Ci"),
        day=3,
    )
    state, _ = act(state, "attack h1 2h1 : 2u Au")
    assert {"retreat e3 : P P", "retreat e3 : Ci"} <= legal(state, 1)
    refused(state, "retreat c3 : P P", 1)  # not onto the attacker
    state, events = act_as(state, 1, "retreat e3 : Ci")
    assert kinds(events) == ["retreat"]
    assert [(h.seat, h.square) for h in state.heroes] == [(0, "c3"), (1, "e3")]
    assert state.battle is not None and state.battle.result == "retreat"
    no_retreat = scenario(
        options="buff=false retreat=false",
        roads="c3-d3-e3",
        heroes={"c3": ("1h1",), "d3": ("2h1",)},
        hands=("2u Au", "P P Ci"),
        day=3,
    )
    no_retreat, _ = act(no_retreat, "attack h1 2h1 : 2u Au")
    assert not any(a.startswith("retreat") for a in legal(no_retreat, 1))


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_sample_state_rebuilds_the_view(seats: int) -> None:
    from engine import rng as generator

    state = g.setup(g.options(""), seats, seats)
    chooser = generator.seed_state(seats, "sample")
    for step in range(400):
        if not g.pending(state):
            break
        seat = sorted(g.pending(state))[0]
        actions = g.legal_actions(state, seat)
        i, chooser = generator.randbelow(chooser, len(actions))
        state, _ = g.apply(state, seat, actions[i])
        if step % 37 == 0:
            for observer in range(seats):
                view = g.view(state, observer)
                assert g.view(g.sample_state(view, step), observer) == view


def test_a_seat_resigning_during_the_auction_is_no_longer_asked_to_bid() -> None:
    """A seat that leaves owes no decision: it leaves the auction without a
    bid (no card of its is bid for it: the seed asks « une ou plusieurs
    cartes », so a forced bid would be a real one), and the auction goes on
    with the others' bids."""
    from engine import rng as generator

    state = g.setup(g.options(""), 3, 5)
    chooser = generator.seed_state(5, "r")
    while state.phase != "auction" and g.pending(state):
        seat = sorted(g.pending(state))[0]
        actions = g.legal_actions(state, seat)
        i, chooser = generator.randbelow(chooser, len(actions))
        state, _ = g.apply(state, seat, actions[i])
    assert state.phase == "auction" and set(g.pending(state)) == {0, 1, 2}
    state, events = g.resign(state, 1)
    assert set(g.pending(state)) == {0, 2}
    assert kinds(events) == ["resign"]
    assert g.legal_actions(state, 1) == []
    for seat in (0, 2):
        state, events = g.apply(state, seat, g.legal_actions(state, seat)[0])
    assert state.auction is not None and {s for s, _ in state.auction.bids} == {0, 2}
    assert state.auction.winner in (0, 2) and "auction" in kinds(events)
