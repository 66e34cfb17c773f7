"""Battalia's map (rulings/battalia.md 2.3 the board, 2.8 movement, 2.9
roads and cities): one scenario per item, quoting the ruling (English) and
its tag ([S], [S-impl], [Buff], [P] with the option's name).

Situations come from a real set-up (``battalia_helpers.begun``), edited
with ``lay`` (tiles), ``heroes`` and ``hand``. Squares: letter = column,
number = row from the top (a1 top-left); exits N=1 E=2 S=4 W=8.
"""

from __future__ import annotations

import pytest

from engine.core import evolve
from engine.games.battalia.board import area, tile_exits
from engine.games.battalia.data import board, faction_terrain
from engine.games.battalia.model import Tile
from tests.games.battalia_helpers import (
    GAME,
    act,
    act_as,
    begun,
    first,
    hand,
    heroes,
    kinds,
    lay,
    legal,
    on_day,
    refused,
    spots,
    tile,
    with_rules,
    with_terrain_deck,
)

N, E, S, W = 1, 2, 4, 8
STEP = {N: (0, -1), E: (1, 0), S: (0, 1), W: (-1, 0)}


def _towards(sq: str, d: int) -> str:
    dx, dy = STEP[d]
    return f"{chr(ord(sq[0]) + dx)}{int(sq[1:]) + dy}"


def _exit_squares(t) -> list[str]:
    return [_towards(t.square, d) for d in (N, E, S, W) if tile_exits(t) & d]


# ---------------------------------------------------------------------------
# 2.3 The board
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("seats", "cells", "starts", "neutral"),
    [
        (4, 49, ["a1", "g1", "g7", "a7"], ["a4", "d1", "d7", "g4"]),
        (3, 49, ["a1", "g1", "g7"], ["a4", "d1", "d7", "g4"]),
        (2, 25, ["b2", "f6"], ["b6", "f2"]),
    ],
)
def test_2_3_board_by_seat_count(seats, cells, starts, neutral):
    """2.3: « The playable area and the start/neutral city spots depend on
    player count and are printed on the board [S]. Start cities sit in the
    corners [Buff]. Ruins on the centre square; neutral cities are level 4
    [S]. » (the layout table is [P], design: 4 seats a1 g1 g7 a7; 3 seats a7
    ordinary; 2 seats b2..f6)."""
    state = begun(seats)
    assert len(area(seats)) == cells
    if seats == 2:
        assert area(2)[0] == "b2" and area(2)[-1] == "f6"
    assert sorted(p.start for p in state.players) == sorted(starts)
    for sq in starts:
        t = tile(state, sq)
        assert t.kind == "start" and t.level == 1 and t.owner is not None
    by_kind = sorted(t.square for t in state.tiles if t.kind == "neutral")
    assert by_kind == neutral
    for sq in neutral:
        t = tile(state, sq)
        assert (t.level, t.owner, t.terrain) == (4, None, "plaine")
    ruins = tile(state, "d4")
    assert (ruins.kind, ruins.layout, ruins.level, ruins.owner) == ("ruins", "X", 0, None)
    assert tile_exits(ruins) == N | E | S | W
    # nothing else is printed
    assert len(state.tiles) == len(starts) + len(neutral) + 1


def test_2_3_three_seats_a7_is_an_ordinary_square():
    """2.3 [P] (design): with 3 seats « a7 is an ordinary empty square »: no
    start there, and a card may be laid on it."""
    state = begun(3)
    assert tile(state, "a7") is None
    assert "start a7" not in {sq for sq, _, _ in board(3).starts[:3]}
    # the neutral city a4 (exits N E S) leads down the west edge to a7
    state = lay(state, "a4-a5-a6", exits={"a6": S})
    state = heroes(state, {"a6": ("1h1",)})
    state = on_day(hand(state, 0, "1u 1i P P"), 2)
    state, _ = act(state, "road L : 1u P")
    assert "place a7 0" in spots(state)  # N+E: into a6 and b7


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_2_3_preprinted_tiles_exits_point_into_the_area(seats):
    """2.3 [P] (design): « a start city is a level-1 city of its owner's
    homeland terrain, a curve whose two exits point into the area; a neutral
    city is a level-4 city (plaine, nobody's homeland) whose exits are a T
    pointing along the edge and inward; the Ruins a cross »."""
    state = begun(seats)
    inside = set(area(seats))
    for t in state.tiles:
        assert all(sq in inside for sq in _exit_squares(t)), t
        if t.kind == "start":
            assert t.layout == "L"
            faction = state.players[t.owner].faction
            assert t.terrain == faction_terrain()[faction]
        if t.kind == "neutral" and seats > 2:
            assert t.layout == "T"
            # along the edge: the two exits that stay on the edge, and inward
            assert len(_exit_squares(t)) == 3


def test_2_3_homeland_terrains_one_card_per_square():
    """2.3 [Buff, P]: « One terrain card per square. Each road/city card
    shows a terrain; your homeland = squares of your faction's terrain »
    (2.1: forest, lakes, desert [P], mountains [P]); a card is never laid on
    an occupied square."""
    assert faction_terrain() == {"u": "foret", "i": "lac", "a": "desert", "n": "montagne"}
    state = begun(3)
    state = on_day(hand(state, 0, "1u 1i P P"), 2)
    state, _ = act(state, "road I : 1u P")
    assert not any(s.startswith(("place a1 ", "place d1 ")) for s in spots(state))


# ---------------------------------------------------------------------------
# 2.8 Movement
# ---------------------------------------------------------------------------


def _corridor(**kw):
    """Seat 0 (Ursidés, start a1: exits E S) with a road a1-a2-b2-b3-b4-b5-b6
    (b6 a dead end); day 2 (nothing of 2.8 illuminated)."""
    state = begun(3, **kw)
    return on_day(lay(state, "a1-a2-b2-b3-b4-b5-b6"), 2)


def test_2_8_heroes_move_only_along_roads():
    """2.8: « Heroes move only along roads on existing terrain cards
    [Buff] »: two squares connect only when both cards have facing exits; an
    empty square or a closed side stops the hero."""
    state = lay(_corridor(), exits={"b1": E | W})  # b1 E-W: joins a1, closed towards b2
    state = heroes(state, {"a2": ("1h1",)})
    state = hand(state, 0, "P P P P")
    moves = {t for t in legal(state) if t.startswith("move h1 ")}
    assert {"move h1 b2 : P", "move h1 a1 : P", "move h1 a1 b1 : P P"} <= moves
    assert refused(state, "move h1 a3 : P") == "bt-refuse-path"  # empty square
    assert refused(state, "move h1 b2 b1 : P P") == "bt-refuse-path"  # closed sides
    assert refused(state, "move h1 b3 : P") == "bt-refuse-path"  # not adjacent


def test_2_8_basic_game_a_provision_per_step_exactly():
    """2.8 / 2.7: « Move a hero: 1 Provision per space » (basic game); the
    payment has no card too many."""
    state = heroes(_corridor(), {"a2": ("1h1",)})
    state = hand(state, 0, "P P P P 1u")
    assert refused(state, "move h1 b2 b3 : P") == "bt-refuse-cost"
    assert refused(state, "move h1 b2 b3 : P P P") == "bt-refuse-cost"
    assert refused(state, "move h1 b2 b3 : 1u P") == "bt-refuse-cost"
    state, events = act(state, "move h1 b2 b3 : P P")
    assert first(events, "move").data["path"] == ["b2", "b3"]
    assert next(h for h in state.heroes if h.seat == 0).square == "b3"
    assert state.players[0].hand == ("P", "P", "1u")
    assert state.players[0].played == ("P", "P")


def test_2_8_a_horse_covers_three_steps_six_illuminated():
    """2.7/2.8: « a Horse for up to 3 spaces »; 2.6 [P] `illuminated`:
    « horse moves 6 » on the Horse's day (day 7)."""
    state = heroes(_corridor(), {"a1": ("1h1",)})
    state = hand(state, 0, "Cu P P")
    three = "move h1 a2 b2 b3 : Cu"
    assert three in legal(state)
    assert "move h1 a2 : Cu" in legal(state)  # a horse may cover fewer
    assert refused(state, "move h1 a2 b2 b3 b4 : Cu") == "bt-refuse-cost"
    assert "move h1 a2 b2 b3 b4 : Cu P" in legal(state)
    assert refused(state, "move h1 a2 b2 b3 : Cu P") == "bt-refuse-cost"  # P too many
    day7 = on_day(state, 7)
    assert "move h1 a2 b2 b3 b4 b5 b6 : Cu" in legal(day7)
    off = with_rules(day7, illuminated=False)
    assert refused(off, "move h1 a2 b2 b3 b4 b5 b6 : Cu") == "bt-refuse-cost"


def test_2_8_advanced_game_homeland_steps_are_free():
    """2.8 [Buff, P] `advanced` (default off): « Advanced game: steps that
    enter your homeland terrain are free. A hero may move several times per
    turn if paid »."""
    state = begun(3)
    state = lay(state, "a1-a2-b2-b3", terrain={"a2": "foret", "b2": "lac", "b3": "foret"})
    state = on_day(heroes(state, {"a1": ("1h1",)}), 2)
    state = hand(state, 0, "P P P")
    # basic game: every step paid
    assert refused(state, "move h1 a2 b2 b3 : P") == "bt-refuse-cost"
    adv = with_rules(state, advanced=True)
    assert "move h1 a2 b2 b3 : P" in legal(adv)  # only b2 (lac) is paid
    assert "move h1 a2" in legal(adv)  # a free move has no payment
    adv, _ = act(adv, "move h1 a2")
    adv, events = act(adv, "move h1 b2 : P")  # moving again in the same turn
    assert first(events, "move").data["from"] == "a2"


def test_2_8_no_hero_limit_and_no_battle_on_entering():
    """2.8 [P]: « Squares have no hero limit; entering an enemy hero's
    square does not itself start a battle (attacking is a separate
    action). »"""
    state = heroes(_corridor(), {"a2": ("1h1",), "b2": ("1h2", "2h1", "3h1")})
    state = hand(state, 0, "P P")
    state, events = act(state, "move h1 b2 : P")
    assert state.phase == "turn" and "attack" not in kinds(events)
    assert sorted((h.seat, h.index) for h in state.heroes if h.square == "b2") == [
        (0, 1),
        (0, 2),
        (1, 1),
        (2, 1),
    ]


# ---------------------------------------------------------------------------
# 2.9 Placement
# ---------------------------------------------------------------------------


def _builder(cards: str = "1u 1i P P 1a 1n", **kw):
    state = on_day(begun(3, **kw), 2)  # day 2: the Tool is not illuminated
    return hand(state, 0, cards)


def test_2_9_next_to_your_network_only():
    """2.9 [P] `placement=network`: « A new road or city card must be
    orthogonally adjacent to a square that is road-connected to one of your
    cities or heroes. »"""
    state, _ = act(_builder(), "road I : 1u P")
    offered = {s.split()[1] for s in spots(state)}
    assert offered == {"b1", "a2"}  # next to the start city a1 only
    assert refused(state, "place f1 1") == "bt-refuse-place-network"  # next to seat 1's g1
    # a road network reaching out, and a hero standing far away, both count
    state = lay(_builder(), "a1-b1-c1", exits={"c1": S})
    state = heroes(state, {"d4": ("1h1",)})
    state, _ = act(state, "road I : 1u P")
    offered = {s.split()[1] for s in spots(state)}
    assert {"c2", "d3", "d5", "c4", "e4"} <= offered  # c2 below c1; around d4
    assert not offered & {"f1", "g2", "f7", "g6"}


def test_2_9_placement_adjacent_option():
    """2.9 [P], option `placement=adjacent`: « only next to any card »: an
    opponent's start city anchors too."""
    state = with_rules(_builder(), placement="adjacent")
    state, _ = act(state, "road I : 1u P")
    offered = {s.split()[1] for s in spots(state)}
    assert {"f1", "g2", "b1", "a2"} <= offered


def test_2_9_adjacent_to_a_closed_side_of_the_network():
    """2.9 [P]: « must be orthogonally adjacent to a square that is
    road-connected to one of your cities or heroes. Exits must match every
    existing neighbour; an exit may face an empty square. » b1 (a straight
    road E-W, in seat 0's network) has a closed south side: a card on b2
    whose north side is closed is adjacent to the network and matches."""
    state = lay(_builder(), "a1-b1-c1")
    state, _ = act(state, "road I : 1u P")
    assert "place b2 1" in spots(state)  # I turned once: E-W, its N side closed
    # the stricter reading, option placement=network_exit: b1 shows b2 no exit
    strict = with_rules(lay(_builder(), "a1-b1-c1"), placement="network_exit")
    strict, _ = act(strict, "road I : 1u P")
    assert "place b2 1" not in spots(strict)
    assert refused(strict, "place b2 1") == "bt-refuse-place-network"


def test_2_9_exits_match_every_neighbour():
    """2.9 [P]: « Exits must match every existing neighbour; an exit may
    face an empty square. » c1 (exits W S) opens onto c2; d2 (exits N S)
    is closed towards c2; b2 and c3 are empty."""
    state = lay(_builder(), "a1-b1-c1 d1-d2", exits={"c1": S, "d2": S})
    state, _ = act(state, "road T : 1u 1i P")
    assert "place c2 2" in spots(state)  # S W N: up into c1, W and S to empty squares
    assert refused(state, "place c2 0") == "bt-refuse-place-exits"  # E into d2's closed side
    assert refused(state, "place c2 1") == "bt-refuse-place-exits"  # closed towards c1's exit


def test_2_9_no_exit_off_the_board():
    """2.9 [P]: « No exit may point off the board. » (2 seats: off the area
    b2..f6 as well)."""
    state, _ = act(_builder(), "road I : 1u P")
    assert "place b1 1" in spots(state)  # E-W along the top edge
    assert refused(state, "place b1 0") == "bt-refuse-place-exits"  # N off the board
    two = on_day(begun(2), 2)
    two = hand(two, 0, "1u 1i P P")
    two, _ = act(two, "road I : 1u P")
    offered = {s for s in spots(two)}
    assert "place c2 1" in offered and "place c2 0" not in offered  # N would leave b2..f6
    assert refused(two, "place b1 0") == "bt-refuse-place-off-area"  # outside the area


def test_2_9_a_new_city_gets_its_level_in_your_colour():
    """2.9 [P]: « A new city gets a level token in your colour »; 2.7 [S]:
    « New city of level N: 3 units of rank N »; its terrain is the card
    drawn (design: « draw the top terrain card of that deck (its terrain is
    revealed) »)."""
    state = _builder("2u 2i 2a P")
    state = with_terrain_deck(state, "city", "D", "montagne lac")
    state, events = act(state, "city 2D : 2u 2i 2a")
    assert first(events, "build").data["terrain"] == "lac"
    assert state.placing.level == 2
    state, events = act(state, "place b1 3")  # dead end pointing W into a1
    t = tile(state, "b1")
    assert (t.kind, t.level, t.owner, t.terrain, t.layout) == ("city", 2, 0, "lac", "D")
    assert first(events, "place").data["square"] == "b1"
    view = GAME.view(state, None)
    assert next(p for p in view.players if p.seat == 0).vp == 1 + 2


def test_2_9_upgrade_an_own_city_by_one_level():
    """2.7 [S]: « Upgrade a city by +1: 2 units of the new level's rank »;
    only your own city, never past level 4."""
    state = lay(_builder("2u 2i 3u 3a 4u 4i"), "a1-b1", cities={"b1": (0, 2)})
    state = lay(state, "g1-f1", cities={"f1": (1, 2)})
    assert refused(state, "upgrade b1 : 2u 2i") == "bt-refuse-cost"  # rank 2 → level 3 asks 3s
    assert refused(state, "upgrade b1 : 3u 3a 2u") == "bt-refuse-cost"  # one card too many
    assert refused(state, "upgrade f1 : 3u 3a") == "bt-refuse-upgrade-city"  # not yours
    assert refused(state, "upgrade d1 : 4u 4i") == "bt-refuse-upgrade-city"  # neutral
    assert "upgrade a1 : 2u 2i" in legal(state)  # the start city, level 1 → 2
    state, events = act(state, "upgrade b1 : 3u 3a")
    assert tile(state, "b1").level == 3 and first(events, "upgrade").data["level"] == 3
    state, _ = act(state, "upgrade b1 : 4u 4i")
    assert tile(state, "b1").level == 4
    state = hand(state, 0, "4u 4i")
    assert refused(state, "upgrade b1 : 4u 4i") == "bt-refuse-upgrade-city"


def test_2_9_the_full_board_ends_the_game():
    """2.9: « The board is "full" when every playable square holds a card »;
    2.12 [S]: « The game ends immediately when … the board is full. »
    (2 seats: the 25 squares of b2..f6; the last card is laid mid-turn.)"""
    state = on_day(begun(2), 2)
    taken = {t.square for t in state.tiles}
    empty = [sq for sq in area(2) if sq not in taken and sq != "c2"]
    crosses = [Tile(sq, "road", "X", 0, "plaine") for sq in empty]  # all but c2
    tiles = sorted([*state.tiles, *crosses], key=lambda t: t.square)
    state = with_rules(evolve(state, tiles=tuple(tiles)), placement="adjacent")
    state = hand(state, 0, "1u 1i P 2u")
    state, _ = act(state, "road T : 1u 1i P")
    assert state.phase == "place" and "place c2 1" in spots(state)
    state, events = act(state, "place c2 1")
    assert state.phase == "over" and state.end_reason == "full"
    assert "game-over" in kinds(events)
    assert GAME.outcome(state).reason == "full"


def test_2_9_hero_network_through_act_as():
    """2.9 [P]: a hero's square anchors placement for its owner only."""
    state = heroes(_builder(), {"d5": ("2h1",)})
    state, _ = act_as(state, 0, "road I : 1u P")
    assert not any(s.split()[1] in ("d6", "c5", "e5") for s in spots(state))


def test_2_8_the_hired_buff_pays_every_step_even_in_the_advanced_game():
    """Design 2.8 / seed 004 (F6): « advanced game: steps entering your
    homeland are free, never for Buff » — seat 0's hired Buff (`b`) pays
    the forêt steps its own heroes walk for free."""
    state = begun(3, options="advanced=true buff=true")
    state = lay(state, "a1-a2-b2", terrain={"a2": "foret", "b2": "foret"})
    state = heroes(on_day(state, 9), {"a1": ("1h1",)})
    state = evolve(
        state, buff=evolve(state.buff, square="a1", owner=0, hire_until=12, entered=True)
    )
    state = hand(state, 0, "P P P")
    assert "move h1 a2 b2" in legal(state)
    assert "move b a2 b2 : P P" in legal(state)
    assert refused(state, "move b a2 b2") == "bt-refuse-cost"


def test_2_9_no_spot_no_building_and_empty_decks():
    """Design: a road or city is « only offered when the layout has at least
    one legal spot »; an empty terrain deck sells nothing."""
    state = hand(on_day(begun(3), 2), 0, "1u 1i P P")
    assert refused(state, "road X : 1u 1i P") == "bt-refuse-no-spot"  # a1 is a corner
    empty = with_terrain_deck(state, "road", "I", "")
    assert refused(empty, "road I : 1u P") == "bt-refuse-deck-empty"
    assert "road L : 1u P" in legal(empty)
