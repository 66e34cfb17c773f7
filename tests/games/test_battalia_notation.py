"""Battalia's notation and data file: every action kind's text parses back
to itself, and the data file holds the counts of ruling 2.2."""

from __future__ import annotations

import pytest

from engine.errors import BadNotation
from engine.games.battalia import actions as A
from engine.games.battalia.data import card_name, data, exits_of

TEXTS = [
    "faction u",
    "start a1",
    "mulligan",
    "cohort 1u 2u 3u",
    "buy 2 : P P P",
    "buy m : P P",
    "buy Ou : 1u 1i 1a",
    "buy T : 1u 1u 4n",
    "road T : 1u 1i P",
    "city 2L : 2u 2u 2i",
    "place c3 1",
    "upgrade c3 : 3u 3a",
    "summon c3 : Au P P",
    "move h1 c3 d3 : P P",
    "move b c3 : Ci",
    "attack h1 c3 : 2u Au Tu>2u",
    "attack h2 2h1 : Au G1 Ra>1a+2i",
    "attack b buff : 4m Ai",
    "tent 3u : Eu P",
    "end",
    "defend",
    "defend : 2u Au",
    "retreat c4 : P P",
    "retreat c4 : Cu",
    "take G2",
    "bid 2u Au",
    "bid",
    "enter a1",
    "buff",
    "buff c2 c3",
    "buff c2 2h1",
    "bribe : P P P",
    "recruit : P P P P",
    "fight : 2u Au",
    "fight",
]


@pytest.mark.parametrize("text", TEXTS)
def test_every_action_text_parses_back_to_itself(text: str) -> None:
    action = A.parse_action(text)
    assert A.format_action(action) == text
    assert A.parse_action(A.format_action(action)) == action


def test_cards_are_a_multiset_in_canonical_order() -> None:
    assert A.parse_action("buy 2 : P 1u P") == A.parse_action("buy 2 : 1u P P")
    assert A.format_action(A.parse_action("attack h1 2h1 : Tu>2u Au 2u")) == (
        "attack h1 2h1 : 2u Au Tu>2u"
    )


@pytest.mark.parametrize(
    "text",
    [
        "",
        "fly",
        "faction x",
        "start h9",
        "buy 5 : P",
        "place c3 4",
        "mulligan : P",
        "attack h3 c3",
        "cohort",
        "buy 2 : Q",
        "take X1",
        "move h1",
    ],
)
def test_bad_texts_are_refused(text: str) -> None:
    with pytest.raises(BadNotation):
        A.parse_action(text)


def test_data_counts_of_ruling_2_2() -> None:
    d = data()
    assert [r.per_faction for r in d.ranks] == [6, 6, 4, 4]
    assert sum(r.per_faction for r in d.ranks) * len(d.factions) == 80
    assert d.provisions.count == 80
    assert all(a.per_faction == 3 for a in d.artefacts) and len(d.artefacts) == 7
    assert d.mercenary.ranks == (1, 1, 2, 2, 3, 3, 4, 4)
    assert sum(sum(s.values()) for s in d.roads.values()) == 48
    assert sum(sum(s.values()) for s in d.cities.values()) == 28
    assert card_name("2i") == "Chef insulaire"
    assert card_name("Au") == "Arme ursidée"


def test_exits_rotate_clockwise() -> None:
    assert exits_of("L", 0) == 1 | 2
    assert exits_of("L", 1) == 2 | 4
    assert exits_of("T", 1) == 2 | 4 | 8
    assert exits_of("D", 3) == 8
