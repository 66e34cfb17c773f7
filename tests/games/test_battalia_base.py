"""Battalia's base game (rulings/battalia.md 2.1 factions, 2.2 card counts,
2.4 set-up, 2.5 the turn, 2.6 the Oracle): one scenario per item, quoting
the ruling (English) and its tag ([S], [S-impl], [Buff], [P] with the
option's name). The map is in ``test_battalia_map.py``, the cost table in
``test_battalia_costs.py``, battles and the end in
``test_battalia_battles.py``; Buff (seed 004) in ``test_battalia_buff.py``.
"""

from __future__ import annotations

from collections import Counter

import pytest

from engine.core import evolve
from engine.errors import RulesError
from engine.games.battalia.data import data
from engine.games.battalia.model import Options
from engine.games.battalia.oracle import illuminated_type, matching_type, week
from tests.games.battalia_helpers import (
    GAME,
    act,
    act_as,
    all_of,
    begun,
    deck,
    discard,
    first,
    hand,
    heroes,
    kinds,
    lay,
    legal,
    on_day,
    refused,
    tile,
    with_rules,
    with_stack,
)


def everything(state) -> Counter[str]:
    """Every creation card of the game: market, players, supply, displays."""
    out: Counter[str] = Counter()
    for _, cards in state.market:
        out.update(cards)
    for p in state.players:
        out.update((*p.hand, *p.deck, *p.discard, *p.played, *p.tent))
    out["P"] += state.provisions
    out.update((*state.great, *state.great_hidden, *state.ambush))
    return out


# ---------------------------------------------------------------------------
# 2.1 Players, factions, homelands
# ---------------------------------------------------------------------------


def test_2_1_two_to_four_players_four_factions():
    """2.1 [S]: « 2–4 players. There are four factions, each tied to an
    element and a home terrain » (Ursidés forest, Insulaires lakes,
    Ambrardents desert [P], Nébuleux mountains [P])."""
    assert (GAME.info.min_seats, GAME.info.max_seats) == (2, 4)
    state = GAME.setup(GAME.options(""), 4, 1)
    assert legal(state, 0) == {"faction u", "faction i", "faction a", "faction n"}
    names = {f.code: (f.name, f.terrain) for f in data().factions}
    assert names == {
        "u": ("Ursidés", "foret"),
        "i": ("Insulaires", "lac"),
        "a": ("Ambrardents", "desert"),
        "n": ("Nébuleux", "montagne"),
    }


def test_2_1_mercenaries_and_factions_of_cards():
    """2.1 [S]: « Kickstarter extras add a fifth group, the mercenaries
    (sans bannière): 8 neutral unit cards. Every card except Provisions and
    Great Artefacts has a faction. » (ranks 1 1 2 2 3 3 4 4 [P])."""
    state = begun(4)
    cards = everything(state)
    mercs = sorted(c for c in cards.elements() if c.endswith("m"))
    assert mercs == ["1m", "1m", "2m", "2m", "3m", "3m", "4m", "4m"]
    for code in cards:
        if code == "P" or code.startswith("G"):
            continue
        assert code[1] in "uianm", code


# ---------------------------------------------------------------------------
# 2.2 Components and card counts
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("seats", [3, 4])
def test_2_2_card_counts(seats):
    """2.2 [S]: « 80 unit cards in four decks by rank. Per faction: 6
    Frimen/Citizens, 6 Chiefs, 4 Priests, 4 Lords [S-impl]. 80 Provision
    cards. 84 artefacts in seven type decks … 3 per type per faction. 5 Great
    Artefacts. 28 city cards in five decks by road layout … 48 road cards in
    four decks » (spread [P]: roads 12 of each layout, cities 4 dead ends and
    6 of each other layout)."""
    state = begun(seats)
    cards = everything(state)
    for f in "uian":
        assert [cards[f"{r}{f}"] for r in (1, 2, 3, 4)] == [6, 6, 4, 4]
        for art in "OAMTREC":
            assert cards[f"{art}{f}"] == 3
    assert sum(n for c, n in cards.items() if c[0].isdigit() and c[1] != "m") == 80
    assert cards["P"] == 80
    assert sum(n for c, n in cards.items() if c[0] in "OAMTREC") == 84
    assert sorted(c for c in cards if c.startswith("G")) == ["G1", "G2", "G3", "G4", "G5"]
    roads = {k: len(v) for k, v in state.roads}
    cities = {k: len(v) for k, v in state.cities}
    assert roads == {"I": 12, "L": 12, "T": 12, "X": 12}
    assert cities == {"D": 4, "I": 6, "L": 6, "T": 6, "X": 6}


def test_2_2_two_player_game_removes_a_faction():
    """2.2 [S, S-impl]: « 2-player game: one faction is removed from all
    decks (60 units and 60 provisions) »; which one is [P], option
    `two_seat_removed` (default `n`, the Nébuleux)."""
    state = begun(2, factions="ui")
    cards = everything(state)
    assert not any(c[1:] == "n" for c in cards if len(c) == 2 and c != "P")
    assert sum(n for c, n in cards.items() if c[0].isdigit() and c[1] != "m") == 60
    assert cards["P"] == 60
    assert sum(n for c, n in cards.items() if c[0] in "OAMTREC") == 63
    two = GAME.setup(GAME.options(""), 2, 1)
    assert legal(two, 0) == {"faction u", "faction i", "faction a"}
    other = GAME.setup(GAME.options("two_seat_removed=u"), 2, 1)
    assert legal(other, 0) == {"faction i", "faction a", "faction n"}
    assert not any(c.endswith("u") for c in everything(other) if c != "P")


def test_2_2_provisions_equal_units_in_play():
    """2.2 [S]: « Provision cards. Their number always equals the number of
    units in play » — dealt 5 units and 5 Provisions each; buying a
    (non-mercenary) unit brings one Provision with it."""

    def in_play(state):
        units = provisions = 0
        for p in state.players:
            cards = (*p.hand, *p.deck, *p.discard, *p.played)
            units += sum(1 for c in cards if c[0].isdigit() and c[1] != "m")
            provisions += cards.count("P")
        return units, provisions

    state = on_day(begun(3), 2)
    assert in_play(state) == (15, 15)
    assert state.players[0].hand.count("P") >= 2
    state, _ = act(state, "buy 1 : P P")
    assert in_play(state) == (16, 16)


# ---------------------------------------------------------------------------
# 2.4 Set-up
# ---------------------------------------------------------------------------


def test_2_4_starting_deck_of_ten_cards():
    """2.4 [S; matches S-impl]: « Deal each player 3 rank-1 units, 1 rank-2,
    1 rank-3 and 5 provisions: a 10-card deck. The units come from the
    common decks, so their factions are random. »"""
    fresh = GAME.setup(GAME.options(""), 3, 7)
    for p in fresh.players:
        cards = [*p.hand, *p.deck]
        ranks = sorted(int(c[0]) for c in cards if c != "P")
        assert ranks == [1, 1, 1, 2, 3] and cards.count("P") == 5
        assert len(p.hand) == 6 and len(p.deck) == 4
    stacks = {k: len(v) for k, v in fresh.market}
    assert stacks["1"] == 24 - 9 and stacks["2"] == 24 - 3 and stacks["3"] == 16 - 3
    factions = {c[1] for p in fresh.players for c in (*p.hand, *p.deck) if c != "P"}
    assert len(factions) > 1  # from the common decks: mixed factions


def test_2_4_faction_choice_in_turn_order():
    """2.4 [S]: « Players choose a faction, partly according to the units
    they were dealt » — in turn order, each faction once."""
    state = GAME.setup(GAME.options(""), 3, 1)
    assert list(GAME.pending(state)) == [0]
    assert GAME.legal_actions(state, 1) == []
    state, events = act(state, "faction i")
    assert first(events, "faction").data == {"seat": 0, "faction": "i"}
    assert list(GAME.pending(state)) == [1]
    assert refused(state, "faction i") == "bt-refuse-faction-taken"
    state, _ = act(state, "faction n", "faction u")
    assert [p.faction for p in state.players] == ["i", "n", "u"]


def test_2_4_last_to_choose_places_first():
    """2.4 [S]: « The last player to choose places his start city first. »"""
    state = GAME.setup(GAME.options(""), 4, 1)
    state, _ = act(state, "faction u", "faction i", "faction a", "faction n")
    assert state.phase == "start" and list(GAME.pending(state)) == [3]
    order = []
    for sq in ("g7", "a1", "a7", "g1"):
        order.append(next(iter(GAME.pending(state))))
        state, _ = act(state, f"start {sq}")
        if state.phase == "start":
            assert refused(state, f"start {sq}") == "bt-refuse-start-square"
    assert order == [3, 2, 1, 0]
    assert [p.start for p in state.players] == ["g1", "a7", "a1", "g7"]
    assert state.phase == "turn" and state.active == 0 and state.day == 1


def test_2_4_great_artefacts_players_plus_one():
    """2.4 [S]: « Draw players+1 Great Artefacts face down beside the
    board » (face down: the views tell how many, option great_face_down;
    the rest hidden)."""
    for seats in (2, 3, 4):
        state = begun(seats, factions="uian"[:seats])
        assert len(state.great) == seats + 1
        assert len(state.great_hidden) == 5 - seats - 1
        view = GAME.view(state, 0)
        assert view.market.great_artefacts == ("G0",) * (seats + 1)
        assert view.great_hidden_count == 4 - seats


def test_2_4_start_city_level_one_option_start_level():
    """2.4 [P] `start_level` (default 1): « Start city = a level-1 token in
    your colour. »"""
    state = begun(3)
    assert {tile(state, sq).level for sq in ("a1", "g1", "g7")} == {1}
    assert [tile(state, sq).owner for sq in ("a1", "g1", "g7")] == [0, 1, 2]
    higher = begun(3, options="start_level=2")
    assert tile(higher, "a1").level == 2
    assert GAME.view(higher, None).players[0].vp == 2


def test_2_4_heroes_start_off_the_board_option_heroes_start():
    """2.4 [P] / 3 `heroes_start` (default `supply`): « Heroes start off the
    board (see summon below) »; alternative `start`: « both start on the
    start city (simpler) »."""
    state = begun(3)
    assert state.heroes == ()
    assert GAME.view(state, 0).players[0].heroes_in_supply == 2
    other = begun(3, options="heroes_start=start")
    squares = sorted((h.seat, h.index, h.square) for h in other.heroes)
    assert squares == [
        (0, 1, "a1"),
        (0, 2, "a1"),
        (1, 1, "g1"),
        (1, 2, "g1"),
        (2, 1, "g7"),
        (2, 2, "g7"),
    ]


# ---------------------------------------------------------------------------
# 2.5 Turn structure
# ---------------------------------------------------------------------------


def test_2_5_mulligan_discard_the_hand_and_draw_five():
    """2.5 [S]: « Start of turn: choose one of the following, or neither.
    Mulligan: discard your hand and draw 5 » (`mulligan_draw`); only as the
    first action of the turn."""
    state = hand(begun(3), 0, "1u 2u P P P P")
    state = deck(state, 0, "1i 1a 2i 3a 4n P P")
    state, events = act(state, "mulligan")
    p = state.players[0]
    assert sorted(p.discard) == ["1u", "2u", "P", "P", "P", "P"]
    assert sorted(p.hand) == ["2i", "3a", "4n", "P", "P"]  # the deck's top 5
    assert "mulligan" in kinds(events)
    assert refused(state, "mulligan") == "bt-refuse-first-action"
    other = with_rules(hand(begun(3), 0, "1u P"), mulligan_draw=3)
    other, _ = act(other, "mulligan")
    assert len(other.players[0].hand) == 3


def test_2_5_mulligan_or_cohort_only_first():
    """2.5 [S]: « choose one of the following, or neither » — after any
    other action, neither is offered."""
    state = on_day(hand(begun(3), 0, "1u 1u 1u P P P"), 2)
    assert "mulligan" in legal(state) and "cohort 1u 1u 1u" in legal(state)
    later, _ = act(state, "buy 1 : P P")
    assert refused(later, "mulligan") == "bt-refuse-first-action"
    assert refused(later, "cohort 1u 1u 1u") == "bt-refuse-first-action"
    after_cohort, _ = act(state, "cohort 1u 1u 1u")
    assert refused(after_cohort, "mulligan") == "bt-refuse-first-action"


def test_2_5_cohort_three_of_a_faction_draw_one():
    """2.5 [P] `cohort_size`=3, `cohort_draw`=1: « Cohort: reveal several
    cards of one faction to draw extra cards. 3 or more same-faction cards →
    draw 1 extra card. » The revealed cards stay in the hand; mercenaries
    have no banner."""
    state = hand(begun(3), 0, "1u 2u Au 1i 1m 2m P")
    state = deck(state, 0, "4a 3n")
    assert refused(state, "cohort 1u 2u") == "bt-refuse-cohort-size"
    assert refused(state, "cohort 1u 2u 1i") == "bt-refuse-cohort-faction"
    assert refused(state, "cohort 1m 2m 1u") == "bt-refuse-cohort-faction"
    state2, events = act(state, "cohort 1u 2u Au")
    assert sorted(state2.players[0].hand) == sorted(["1u", "2u", "Au", "1i", "1m", "2m", "P", "3n"])
    assert first(events, "cohort").data["cards"] == ["1u", "2u", "Au"]
    four = hand(state, 0, "1u 2u 3u 4u")
    assert "cohort 1u 2u 3u 4u" not in legal(four)  # the menu lists exactly 3
    four, _ = act(four, "cohort 1u 2u 3u 4u")  # more than 3 is allowed
    assert len(four.players[0].hand) == 5


def test_2_5_cohort_options():
    """2.5 [P]: options `cohort_size` (2..6) and `cohort_draw` (1..3)."""
    state = hand(begun(3), 0, "1u 2u 1i P")
    state = deck(state, 0, "4a 3n 2n")
    small = with_rules(state, cohort_size=2, cohort_draw=2)
    small, _ = act(small, "cohort 1u 2u")
    assert len(small.players[0].hand) == 6
    big = with_rules(hand(state, 0, "1u 2u 3u P"), cohort_size=4)
    assert refused(big, "cohort 1u 2u 3u") == "bt-refuse-cohort-size"


def test_2_5_action_lines_pay_the_exact_recipe():
    """2.5 [S, S-impl]: « lay cards from your hand in action lines. Each line
    pays the exact card-type recipe of one action … Take as many actions as
    your cards allow. » A card too many or a wrong rank is refused."""
    state = on_day(hand(begun(3), 0, "2u 1i 1a 1n P P P P P"), 2)
    assert refused(state, "buy A : 2u 1i 1a 1n") == "bt-refuse-cost"  # one too many
    assert refused(state, "buy A : 1i 1a 1n") == "bt-refuse-cost"  # no rank 2
    assert refused(state, "buy 1 : P P P") == "bt-refuse-cost"
    assert refused(state, "buy A : 2i 1u 1a") == "bt-refuse-not-in-hand"
    state, _ = act(state, "buy A : 1i 1a 2u", "buy 1 : P P", "buy 2 : P P P")
    assert state.players[0].hand == ("1n",)


def test_2_5_buy_the_top_card_into_the_discard_pile():
    """2.5 [S]: « a bought card is the top card of its face-down stack, so
    its faction is random … Bought creation cards go to your discard
    pile. »"""
    state = on_day(hand(begun(3), 0, "1u 1i 1a P P P"), 2)
    state = with_stack(state, "O", "Oa Oi On")  # top: On
    state, events = act(state, "buy O : 1u 1i 1a")
    assert first(events, "buy").data["card"] == "On"
    assert state.players[0].discard == ("On",)
    assert dict(state.market)["O"] == ("Oa", "Oi")
    assert state.players[0].played == ("1u", "1i", "1a")


def test_2_5_matching_type_choose_the_faction():
    """2.5 [S]: « On the Oracle's "matching" type you may choose the
    faction instead » (day 3: the Weapon is matching)."""
    state = hand(begun(3), 0, "2u 1i 1a 2a 1u 1n")
    state = with_stack(state, "A", "Ai Ai Au An")
    day3 = on_day(state, 3)
    assert matching_type(3) == "A"
    assert {"buy Ai : 1i 1a 2u", "buy Au : 1i 1a 2u"} <= legal(day3)
    day3, events = act(day3, "buy Ai : 1a 1i 2u")
    assert first(events, "buy").data["card"] == "Ai"
    assert dict(day3.market)["A"] == ("Ai", "Au", "An")
    assert refused(day3, "buy Aa : 1u 1n 2a") == "bt-refuse-stack"  # none left of that faction
    day2 = on_day(state, 2)  # the Scroll is matching, not the Weapon
    assert refused(day2, "buy Ai : 1i 1a 2u") == "bt-refuse-stack"


def test_2_5_a_bought_unit_brings_a_provision_not_a_mercenary():
    """2.5 [S-impl] `buy_provision`: « Buying any non-mercenary unit also
    gives you a Provision »; none with a mercenary (the module's *sans
    bannière*), none when the supply is empty, none with the option off."""
    state = on_day(hand(begun(3), 0, "P P P P P P P P P"), 2)
    supply = state.provisions
    state, events = act(state, "buy 1 : P P")
    assert first(events, "buy").data["provision"] is True
    assert sorted(state.players[0].discard)[-1] == "P" and len(state.players[0].discard) == 2
    assert state.provisions == supply - 1
    state, events = act(state, "buy m : P P")  # the mercenaries' top is a rank 1
    assert (first(events, "buy").data["card"], first(events, "buy").data["provision"]) == (
        "1m",
        False,
    )
    assert state.provisions == supply - 1
    _, events = act(evolve(state, provisions=0), "buy 1 : P P")
    assert first(events, "buy").data["provision"] is False
    off = with_rules(on_day(hand(begun(3), 0, "P P"), 2), buy_provision=False)
    off, events = act(off, "buy 1 : P P")
    assert first(events, "buy").data["provision"] is False
    assert len(off.players[0].discard) == 1


def test_2_5_end_of_turn_discard_and_draw_up_to_six():
    """2.5 [S] `hand_size`=6: « End of turn: discard the played cards, the
    bought cards and the rest of your hand, then draw back up to 6. »"""
    state = on_day(hand(begun(3), 0, "1u 1i 1a 2u P P P"), 2)
    state = deck(state, 0, "4u 4i 4a 4n 3u 3i 3a 3n")
    state = with_stack(state, "O", "Oa Ou")
    state, _ = act(state, "buy O : 1u 1i 1a")
    state, events = act(state, "end")
    p = state.players[0]
    assert p.discard == ("Ou", "1u", "1i", "1a", "2u", "P", "P", "P")
    assert p.hand == ("3n", "3a", "3i", "3u", "4n", "4a") and p.deck == ("4u", "4i")
    assert p.played == ()
    assert "end" in kinds(events) and state.active == 1
    big = with_rules(deck(hand(begun(3), 0, ""), 0, "P " * 9), hand_size=8)
    big, _ = act(big, "end")
    assert len(big.players[0].hand) == 8


def test_2_5_reshuffle_when_the_deck_runs_out():
    """2.5 [S]: « Reshuffle the discard pile when the deck runs out. »"""
    state = hand(begun(3), 0, "P")
    state = deck(state, 0, "1u 2u")
    state = discard(state, 0, "3u 3i 3a 3n 4u")
    state, events = act(state, "end")
    p = state.players[0]
    assert len(p.hand) == 6 and p.hand[:2] == ("2u", "1u") and p.discard == ()
    assert Counter(p.hand) + Counter(p.deck) == Counter(
        ["1u", "2u", "3u", "3i", "3a", "3n", "4u", "P"]
    )
    assert first(events, "reshuffle").data == {"seat": 0, "count": 6}


def test_2_5_tent_keeps_a_card_for_the_next_turn():
    """2.7 [S-impl]: « Tent (keep a card for later turns): … setting it up
    costs Tent + Provision » — the kept card misses the end-of-turn discard
    and comes back at the start of the next turn."""
    state = on_day(hand(begun(3), 0, "Eu P 4u 1i"), 2)
    assert refused(state, "tent 4u : Eu") == "bt-refuse-cost"
    assert refused(state, "tent 4u 1i : Eu P") == "bt-refuse-tent-size"  # 1 card (2: day 6)
    state, _ = act(state, "tent 4u : Eu P")
    assert state.players[0].tent == ("4u",)
    state, _ = act(state, "end")
    assert "4u" not in state.players[0].discard and state.players[0].tent == ("4u",)
    for seat in (1, 2):
        state, _ = act_as(state, seat, "end")
    assert state.active == 0 and "4u" in state.players[0].hand
    assert state.players[0].tent == ()


# ---------------------------------------------------------------------------
# 2.6 Oracle, days and weeks
# ---------------------------------------------------------------------------


def test_2_6_a_round_is_a_day_seven_days_a_week():
    """2.6 [S]: « One round (every player takes one turn) is one day. The
    disc has 7 rays [S], so 7 days make a week. » [Buff]"""
    state = begun(3, options="buff=false")
    for day in range(1, 9):
        assert state.day == day and state.active == 0
        for seat in range(3):
            assert state.active == seat
            state, _ = act_as(state, seat, "end")
    assert state.day == 9
    assert [week(d) for d in (1, 7, 8, 14, 15)] == [1, 1, 2, 2, 3]


def test_2_6_week_event_on_day_eight():
    """2.6 [Buff]: « A new week starts when the blades showing the tool
    symbol line up again. »"""
    state = evolve(begun(3, options="buff=false"), day=7)
    state, _ = act_as(state, 0, "end")
    state, _ = act_as(state, 1, "end")
    state, events = act_as(state, 2, "end")
    assert first(events, "week").data == {"week": 2, "day": 8}
    assert first(events, "day").data == {"day": 8, "week": 2}
    assert illuminated_type(8) == "O"


def test_2_6_the_two_cycles():
    """2.6 [S-impl]: « illuminated: tool, weapon, amulet, title, scroll, tent,
    horse; matching: tool, scroll, weapon, tent, amulet, horse, title. Day 1
    shows tool on both lists »."""
    assert [illuminated_type(d) for d in range(1, 15)] == list("OAMTREC" * 2)
    assert [matching_type(d) for d in range(1, 15)] == list("ORAEMCT" * 2)
    view = GAME.view(on_day(begun(3), 12), 0)
    assert (view.illuminated, view.matching, view.week, view.day_of_week) == ("R", "M", 2, 4)


def _neutral_attack(line: str, day: int, **options):
    """Seat 0's hero on d2, below the neutral city d1 (plaine, defence 5)."""
    state = lay(begun(3), "d1-d2")
    state = heroes(state, {"d2": ("1h1",)})
    state = with_rules(on_day(state, day), **options)
    cards = " ".join(c.split(">")[0] for c in line.split())
    return hand(state, 0, cards)


def _strength(state, line):
    state, events = act(state, f"attack h1 d1 : {line}")
    return first(events, "attack").data["strength"]


def test_2_6_illuminated_weapon_and_horse_strength_two():
    """2.6 [P] `illuminated`: « weapon and horse have strength 2 » on their
    day (Weapon day 2, Horse day 7); 1 otherwise."""
    line = "Ai Ci"  # no morale (Insulaires' cards in an Ursidés line)
    assert _strength(_neutral_attack(line, 2), line) == 2 + 1
    assert _strength(_neutral_attack(line, 7), line) == 1 + 2
    assert _strength(_neutral_attack(line, 3), line) == 1 + 1
    assert _strength(_neutral_attack(line, 2, illuminated=False), line) == 1 + 1


def test_2_6_illuminated_title_plus_two():
    """2.6 [P] `illuminated`: « title raises rank by 2 » (Title day 4; +1
    otherwise)."""
    line = "Ai 2i Ti>2i"
    assert _strength(_neutral_attack(line, 4), line) == 1 + 2 + 2
    assert _strength(_neutral_attack(line, 3), line) == 1 + 2 + 1
    assert _strength(_neutral_attack(line, 4, illuminated=False), line) == 1 + 2 + 1


def test_2_6_illuminated_scroll_converts_two_cards():
    """2.6 [P] `illuminated`: « scroll converts 2 cards » (day 5): the
    scroll turns two units of the line to your faction (morale +1)."""
    line = "Au 1i 2i Ru>1i+2i"
    state = _neutral_attack(line, 5)
    assert _strength(state, line) == 1 + 1 + 2 + 1  # morale
    one = "Au 1i Ru>1i"
    assert _strength(_neutral_attack(one, 3), one) == 1 + 1 + 1
    state = _neutral_attack(line, 3)
    assert refused(state, f"attack h1 d1 : {line}") == "bt-refuse-line"
    off = _neutral_attack(line, 5, illuminated=False)
    assert refused(off, f"attack h1 d1 : {line}") == "bt-refuse-line"


def test_2_6_illuminated_amulet_rolls_twice():
    """2.6 [P] `illuminated`: « amulet lets you roll twice and keep one
    result » (day 3): two dice are rolled, the better face kept (3 > 2 > 6 >
    1 > 5 > 4); one die on another day."""
    from engine import rng
    from engine.games.battalia.lines import AMULET_ORDER

    for seed in range(1, 40):
        state = evolve(_neutral_attack("Au 2u Mu>2u", 3), rng=rng.seed_state(seed, "amulet"))
        a, gen = rng.roll(state.rng, 6)
        b, _ = rng.roll(gen, 6)
        kept = min((a, b), key=AMULET_ORDER.index)
        _, events = act(state, "attack h1 d1 : Au 2u Mu>2u")
        assert first(events, "battle").data["rolls"] == [["2u", kept]]
        plain = evolve(on_day(state, 4), rng=state.rng)
        _, events = act(plain, "attack h1 d1 : Au 2u Mu>2u")
        assert first(events, "battle").data["rolls"] == [["2u", a]]
        off = evolve(with_rules(state, illuminated=False), rng=state.rng)
        _, events = act(off, "attack h1 d1 : Au 2u Mu>2u")
        assert first(events, "battle").data["rolls"] == [["2u", a]]  # one die
        if a != kept:
            return
    raise AssertionError("no seed where the second die changes the result")


def test_2_6_illuminated_tool_counts_four_frimen():
    """2.7 [S-impl] / 2.6 [P]: « when building, a tool counts as 2 Frimen »,
    4 on the Tool's day (day 1)."""
    state = hand(begun(3), 0, "Ou Oi 1u P 1i 1a")
    day1 = state  # Tool illuminated
    assert "city 1D : Ou" in legal(day1)  # 4 rank-1 slots ≥ 3
    assert refused(day1, "city 1D : Oi Ou") == "bt-refuse-cost"  # a Tool too many
    day2 = on_day(state, 2)
    assert refused(day2, "city 1D : Ou") == "bt-refuse-cost"
    assert "city 1D : 1u Ou" in legal(day2)
    assert "city 1D : Ou Oi" in legal(day2)
    off = with_rules(state, illuminated=False)
    assert refused(off, "city 1D : Ou") == "bt-refuse-cost"


def test_2_6_illuminated_tent_keeps_two():
    """2.6 [P] / 2.7 [S-impl]: « tent holds 2 cards » on the Tent's day
    (day 6)."""
    state = hand(begun(3), 0, "Eu P 4u 1i")
    day6 = on_day(state, 6)
    day6, _ = act(day6, "tent 1i 4u : Eu P")
    assert sorted(day6.players[0].tent) == ["1i", "4u"]
    assert refused(on_day(state, 5), "tent 1i 4u : Eu P") == "bt-refuse-tent-size"
    off = with_rules(on_day(state, 6), illuminated=False)
    assert refused(off, "tent 1i 4u : Eu P") == "bt-refuse-tent-size"


def test_options_defaults():
    """Every option of Options with its default (docs/rules/battalia.md's
    table; [P] items default to the ruling's proposal, seed 004 over F2)."""
    o = Options()
    assert o.model_dump() == {
        "buff": True,
        "mercenaries": True,
        "advanced": False,
        "illuminated": True,
        "retreat": True,
        "cohort_size": 3,
        "cohort_draw": 1,
        "neutral_defence": 5,
        "ruins_defence": 8,
        "start_level": 1,
        "heroes_start": "supply",
        "empty_bid": False,
        "week_limit": 0,
        "hand_size": 6,
        "mulligan_draw": 5,
        "buy_provision": True,
        "placement": "network",
        "two_seat_removed": "n",
        "end_no_placement": True,
        "wild_bonus": 1,
        "buff_defence_ties": "buff",
        "horde_cap": 0,
        "great_face_down": True,
        "tie_breaks": "cities",
        "defender_refill": False,
        "hero_limit": 0,
        "ruins_again": True,
        "attack_reach": "adjacent",
        "buff_fight_bonuses": False,
    }
    with pytest.raises(RulesError):
        GAME.options("cohort_size=1")
    with pytest.raises(RulesError):
        GAME.options("heroes_start=nowhere")


def test_option_mercenaries_off():
    """2.1 [S] option `mercenaries` (default on): « 8 neutral unit cards »;
    off: no mercenary stack."""
    state = begun(3, options="mercenaries=false")
    assert "m" not in dict(state.market)
    assert not any(c.endswith("m") for c in everything(state))
    state = on_day(hand(state, 0, "P P"), 2)
    assert not any(t.startswith("buy m") for t in legal(state))


def test_option_mercenary_stack_face_up_lowest_first():
    """2.1 / design [P]: the mercenaries' stack is face up, lowest rank on
    top; its top's price is a unit of that rank."""
    state = on_day(begun(3), 2)
    assert dict(state.market)["m"] == ("4m", "4m", "3m", "3m", "2m", "2m", "1m", "1m")
    state = with_stack(hand(state, 0, "P P P P"), "m", "4m 3m")
    assert refused(state, "buy m : P P") == "bt-refuse-cost"
    state, events = act(state, "buy m : P P P P")
    assert first(events, "buy").data["card"] == "3m"
    assert GAME.view(state, 0).market.mercenary_top == "4m"


def test_all_of_helper_used():
    """(keeps ``all_of`` exercised: several draw events at end of turn)"""
    state = hand(begun(3), 0, "")
    state = deck(state, 0, "1u 1u 1u")
    state = discard(state, 0, "P P P P")
    _, events = act(state, "end")
    assert sum(e.data["count"] for e in all_of(events, "draw")) == 6


def test_option_buff():
    """Option `buff` (default on, seed 004): the module's auction opens at
    the start of day 8; off, the base game alone (no auction, Buff's actions
    refused)."""
    on = evolve(begun(3, options="buff=true"), day=7)
    for _ in range(3):
        on, _ = act(on, "end")
    assert on.day == 8 and on.phase == "auction" and set(GAME.pending(on)) == {0, 1, 2}
    off = evolve(begun(3, options="buff=false"), day=7)
    for _ in range(3):
        off, _ = act(off, "end")
    assert off.day == 8 and off.phase == "turn" and list(GAME.pending(off)) == [0]
    assert refused(off, "bribe : P P P") == "bt-refuse-no-buff"
