"""Battalia's cost table (rulings/battalia.md 2.7, [S-impl] unless noted):
one test per row, each payment accepted exactly and refused with a card
too many, a card too few or a wrong rank. « Cards are spent as "coins" of
their type and rank »; a rank-N unit is any unit of that rank, mercenaries
included (design).

Day 2 unless told (the Tool is illuminated on day 1); seat 0 plays the
Ursidés from a1 (exits E S).
"""

from __future__ import annotations

import pytest

from engine.errors import BadNotation
from engine.games.battalia.data import data
from tests.games.battalia_helpers import (
    GAME,
    act,
    begun,
    first,
    hand,
    heroes,
    lay,
    legal,
    on_day,
    refused,
    tile,
)


def table(cards: str, day: int = 2, **kw):
    return on_day(hand(begun(3, **kw), 0, cards), day)


def accepted(state, text: str):
    """Listed among the legal actions (in canonical notation) and played."""
    text = GAME.format_action(GAME.parse_action(text))
    assert text in legal(state), (text, sorted(legal(state)))
    return act(state, text)


@pytest.mark.parametrize(("rank", "price"), [(1, 2), (2, 3), (3, 4), (4, 5)])
def test_2_7_units_cost_provisions(rank, price):
    """2.7: « Friman / Chief / Priest / Lord: 2 / 3 / 4 / 5 Provisions »."""
    state = table("P " * 7 + "1u")
    state, events = accepted(state, f"buy {rank} : " + " ".join(["P"] * price))
    assert first(events, "buy").data["card"][0] == str(rank)
    state = table("P " * 7 + "1u")
    assert refused(state, f"buy {rank} : " + " ".join(["P"] * (price - 1))) == "bt-refuse-cost"
    assert refused(state, f"buy {rank} : " + " ".join(["P"] * (price + 1))) == "bt-refuse-cost"
    assert refused(state, f"buy {rank} : 1u" + " P" * (price - 1)) == "bt-refuse-cost"


def test_2_7_tool_three_frimen():
    """2.7: « Tool: 3 Frimen » (mercenaries are Frimen too)."""
    state = table("1u 1i 1m 1a 2u")
    accepted(state, "buy O : 1u 1i 1m")
    assert refused(state, "buy O : 1u 1i") == "bt-refuse-cost"
    assert refused(state, "buy O : 1u 1i 1a 1m") == "bt-refuse-cost"
    assert refused(state, "buy O : 1u 1i 2u") == "bt-refuse-cost"


def test_2_7_tool_counts_two_frimen_when_building():
    """2.7: « (when building, a tool counts as 2 Frimen) »: a Tool fills the
    T road's two rank-1 slots; two Tools for it are a card too many."""
    state = table("Ou Oi 1u P P")
    accepted(state, "road T : Ou P")
    assert refused(state, "road T : Ou Oi P") == "bt-refuse-cost"
    assert "road I : Ou P" in legal(state)  # a Tool may fill one slot too
    assert refused(state, "buy A : Ou P") == "bt-refuse-cost"  # only when building


def test_2_7_tool_and_a_friman_too_many_when_building():
    """2.7 / design: « payment must fill the recipe exactly, no card too
    many »: a level-1 city is 3 rank-1 slots; Tool (2) + Friman is exact,
    Tool + 2 Frimen has a card too many (day 2, Tool not illuminated; on day
    1 the Tool alone fills 4)."""
    state = table("Ou 1u 1i 1a P")
    assert "city 1D : 1u Ou" in legal(state)
    assert refused(state, "city 1D : 1u 1i Ou") == "bt-refuse-cost"
    assert refused(state, "road T : 1u Ou P") == "bt-refuse-cost"  # the Tool fills both
    day1 = table("Ou 1u 1i 1a", day=1)
    assert refused(day1, "city 1D : 1u Ou") == "bt-refuse-cost"


@pytest.mark.parametrize(
    ("kind", "good", "bad"),
    [
        ("A", "2u 1i 1a", ["1u 1i 1a", "2u 1i", "2u 1i 1a 1n", "3u 1i 1a"]),
        ("M", "3u 1i 1a", ["2u 1i 1a", "3u 1i", "3u 1i 1a 1n", "4u 1i 1a"]),
        ("T", "4u 1i 1a", ["3u 1i 1a", "4u 1i", "4u 1i 1a 1n", "4u 2i 1a"]),
        ("R", "3u 2i 1a", ["3u 2i 2a", "3u 1i 1a", "3u 2i", "3u 2i 1a 1n"]),
        ("E", "2u 1i P", ["2u 1i", "2u P P", "2u 1i 1a P", "3u 1i P"]),
        ("C", "2u P P", ["2u P", "1u P P", "2u P P P", "2u 1i P"]),
    ],
)
def test_2_7_artefact_recipes(kind, good, bad):
    """2.7: « Weapon: Chief + 2 Frimen; Amulet: Priest + 2 Frimen; Title:
    Lord + 2 Frimen; Scroll: Priest + Chief + Friman; Tent: Chief + Friman +
    Provision; Horse: Chief + 2 Provisions »."""
    state = table("4u 3u 2u 2i 2a 1i 1a 1n P P P 1u")
    canon = GAME.format_action(GAME.parse_action(f"buy {kind} : {good}"))
    _, events = accepted(state, canon)
    assert first(events, "buy").data["card"][0] == kind
    for cards in bad:
        assert refused(state, f"buy {kind} : {cards}") == "bt-refuse-cost", cards


def test_2_7_straight_or_curved_road():
    """2.7: « Straight or curved road: Friman + Provision »."""
    state = table("1u 1i 2u P P")
    accepted(state, "road I : 1u P")
    accepted(state, "road L : 1i P")
    assert refused(state, "road I : 1u 1i P") == "bt-refuse-cost"
    assert refused(state, "road L : 1u") == "bt-refuse-cost"
    assert refused(state, "road I : 2u P") == "bt-refuse-cost"


def test_2_7_t_or_cross_road():
    """2.7: « T or cross road: 2 Frimen + Provision »."""
    state = lay(table("1u 1i 1a P P"), "a1-a2-b2", exits={"b2": 2})  # b2 opens E onto c2
    accepted(state, "road T : 1u 1i P")
    state2, _ = accepted(state, "road X : 1u 1i P")
    assert "place c2 0" in legal(state2)
    assert refused(state, "road X : 1u P") == "bt-refuse-cost"
    assert refused(state, "road T : 1u 1i 1a P") == "bt-refuse-cost"
    assert refused(state, "road X : 1u 1i P P") == "bt-refuse-cost"


@pytest.mark.parametrize("level", [1, 2, 3, 4])
def test_2_7_new_city_three_units_of_its_level(level):
    """2.7 [S, official Q&A]: « New city of level N: 3 units of rank N »."""
    r = level
    other = 2 if level != 2 else 3
    state = table(f"{r}u {r}i {r}a {r}m {other}n P", day=2)
    state, _ = accepted(state, f"city {level}D : {r}u {r}i {r}a")
    state, _ = act(state, "place b1 3")
    assert (tile(state, "b1").level, tile(state, "b1").owner) == (level, 0)
    state = table(f"{r}u {r}i {r}a {r}m {other}n P", day=2)
    assert refused(state, f"city {level}D : {r}u {r}i") == "bt-refuse-cost"
    assert refused(state, f"city {level}D : {r}u {r}i {r}a {r}m") == "bt-refuse-cost"
    assert refused(state, f"city {level}D : {r}u {r}i {other}n") == "bt-refuse-cost"


def test_2_7_upgrade_two_units_of_the_new_level():
    """2.7 [S]: « Upgrade a city by +1: 2 units of the new level's rank »."""
    state = table("2u 2m 1u 1i 3u")
    accepted(state, "upgrade a1 : 2u 2m")
    assert refused(state, "upgrade a1 : 1u 1i") == "bt-refuse-cost"
    assert refused(state, "upgrade a1 : 2u") == "bt-refuse-cost"
    assert refused(state, "upgrade a1 : 2u 2m 1u") == "bt-refuse-cost"
    assert refused(state, "upgrade a1 : 2u 3u") == "bt-refuse-cost"


def test_2_7_summon_a_hero_weapon_and_two_provisions():
    """2.7: « Summon a hero: Weapon + 2 Provisions » (onto one of your
    cities, from your supply: 2.4 [P])."""
    state = table("Au Ai Ci P P P P")
    state, events = accepted(state, "summon a1 : Au P P")
    assert first(events, "summon").data["hero"] == "h1"
    assert [(h.seat, h.index, h.square) for h in state.heroes] == [(0, 1, "a1")]
    assert refused(state, "summon a1 : Ai P") == "bt-refuse-cost"
    assert refused(state, "summon a1 : Ai P P P") == "bt-refuse-cost"
    assert refused(state, "summon a1 : Ci P P") == "bt-refuse-cost"
    assert refused(state, "summon g1 : Ai P P") == "bt-refuse-summon-city"  # seat 1's
    assert refused(state, "summon d1 : Ai P P") == "bt-refuse-summon-city"  # neutral
    state, _ = act(hand(state, 0, "Ai P P Au P P"), "summon a1 : Ai P P")
    assert refused(state, "summon a1 : Au P P") == "bt-refuse-no-hero"


def test_2_7_move_a_provision_per_space_or_a_horse():
    """2.7: « Move a hero: 1 Provision per space, or a Horse for up to 3
    spaces » (details in test_battalia_map.py, 2.8)."""
    state = lay(table("P P Cu P"), "a1-a2-a3-a4")  # a4: the neutral city
    state = heroes(state, {"a1": ("1h1",)})
    accepted(state, "move h1 a2 a3 : P P")
    accepted(state, "move h1 a2 a3 a4 : Cu")
    assert refused(state, "move h1 a2 a3 : P") == "bt-refuse-cost"
    assert refused(state, "move h1 a2 a3 : Cu P") == "bt-refuse-cost"


def test_2_7_start_a_battle_weapon():
    """2.7: « Start a battle: Weapon » (it stands in the line, 2.10)."""
    state = lay(table("Au 4u 4i Cu"), "d1-d2")
    state = heroes(state, {"d2": ("1h1",)})
    assert refused(state, "attack h1 d1 : 4u 4i") == "bt-refuse-line"
    assert refused(state, "attack h1 d1 : Cu 4u 4i") == "bt-refuse-line"
    accepted(state, "attack h1 d1 : Au 4u 4i")


def test_2_7_hero_abilities_left_out():
    """2.7: « Hero ability: 2 or 3 Provisions (hero abilities themselves
    unknown [P: drop them]) » — no such action and no such recipe."""
    assert not any("abilit" in name for name in data().costs)
    with pytest.raises(BadNotation):
        GAME.parse_action("ability h1 : P P")


def test_2_7_bribe_and_recruit_buff_costs():
    """2.7 [Buff]: « Bribe Buff / recruit Buff: 3 / 4 Provisions » (played
    in test_battalia_buff.py, s27 and s32: here the table's row)."""
    assert data().costs["bribe"] == {"P": 3}
    assert data().costs["recruit"] == {"P": 4}
    assert data().costs["retreat"] == {"P": 2} and data().costs["retreat-horse"] == {"C": 1}
