"""Battalia's battles, the Ruins and the end (rulings/battalia.md 2.10,
2.11, 2.12): one scenario per item, quoting the ruling (English) and its
tag ([S], [Buff], [P] with the option's name).

Three seats from a real set-up (``battalia_helpers.begun``): seat 0
Ursidés (forêt) on a1, seat 1 Insulaires (lac) on g1, seat 2 Ambrardents
(désert) on g7; day 3 unless told (Weapons and Horses not illuminated).
"""

from __future__ import annotations

import pytest

from engine import rng
from engine.core import evolve
from engine.games.battalia.lines import line_strength
from engine.games.battalia.model import Tile
from tests.games.battalia_helpers import (
    GAME,
    act,
    begun,
    discard,
    first,
    hand,
    heroes,
    kinds,
    lay,
    legal,
    on_day,
    refused,
    retile,
    tile,
    with_rules,
)


def duel(terrain=None, day: int = 3, **options):
    """Seat 0's h1 on c2, seat 1's h1 on d2: road b2-c2-d2-e2 and d2-d3."""
    state = lay(begun(3), "b2-c2-d2-e2 d2-d3", terrain=terrain or {})
    state = heroes(state, {"c2": ("1h1",), "d2": ("2h1",)})
    state = with_rules(on_day(state, day), **options)
    return state


def neutral(day: int = 3, **options):
    """Seat 0's h1 on d2, below the neutral city d1 (level 4, plaine)."""
    state = heroes(lay(begun(3), "d1-d2"), {"d2": ("1h1",)})
    return with_rules(on_day(state, day), **options)


def ruins(day: int = 3, **options):
    """Seat 0's h1 on d3, above the Ruins d4 (a cross, plaine)."""
    state = heroes(lay(begun(3), "d3-d4"), {"d3": ("1h1",)})
    return with_rules(on_day(state, day), **options)


def in_supply(state, seat: int) -> int:
    return GAME.view(state, seat).players[seat].heroes_in_supply


# ---------------------------------------------------------------------------
# 2.10 Battles
# ---------------------------------------------------------------------------


def test_2_10_targets_heroes_cities_neutral_cities_ruins():
    """2.10 [Buff]: « Heroes may attack enemy heroes, enemy cities, neutral
    cities and the Ruins » — never their own city."""
    state = lay(begun(3), "c4-d4 c4-c3 c4-b4 c4-c5", terrain={})
    state = retile(state, "c3", kind="city", level=2, owner=1)
    state = retile(state, "c5", kind="city", level=1, owner=0)
    state = heroes(state, {"c4": ("1h1",), "b4": ("3h1",)})
    state = hand(on_day(state, 3), 0, "Au")
    targets = {t.split()[2] for t in legal(state) if t.startswith("attack h1 ")}
    assert targets == {"d4", "c3", "3h1"}
    assert refused(state, "attack h1 c5 : Au") == "bt-refuse-target"


def test_2_10_on_the_square_or_road_adjacent():
    """2.10 [P] 1: « The attacker's hero must share a square with, or be
    road-adjacent to, the target. »"""
    state = hand(duel(), 0, "Au 2u")
    assert "attack h1 2h1 : Au" in legal(state)  # road-adjacent
    far = heroes(state, {"e2": ("2h1",)})
    assert refused(far, "attack h1 2h1 : Au") == "bt-refuse-target"  # two steps
    same = heroes(state, {"c2": ("2h1",)})
    assert "attack h1 2h1 : Au" in legal(same)
    # side by side without a road between them
    apart = lay(state, exits={"c3": 8})
    apart = heroes(apart, {"c3": ("2h1",)})
    assert refused(apart, "attack h1 2h1 : Au") == "bt-refuse-target"


def test_2_10_line_contents():
    """2.10: « A battle line may contain units …; weapons and horses …;
    transformation artefacts (amulet, title, scroll) applied to cards in the
    line [S]. Tools, tents and Provisions may not be used. » (Great
    Artefacts too: 2.11 [P].)"""
    state = hand(duel(), 0, "Au Cu 2u 4i Tu Ou Eu P G1")
    for bad in ("Au Ou", "Au Eu", "Au P", "Au Tu", "Au Tu>4u"):
        assert refused(state, f"attack h1 2h1 : {bad}") == "bt-refuse-line", bad
    assert "attack h1 2h1 : 2u 4i Au Cu G1 Tu>2u" in legal(state)
    state, _ = act(state, "attack h1 2h1 : Au")
    state = hand(state, 1, "2i P Oi")
    assert refused(state, "defend : 2i P") == "bt-refuse-line"
    assert refused(state, "defend : Oi") == "bt-refuse-line"
    assert "defend : 2i" in legal(state) and "defend" in legal(state)


def test_2_10_morale_mercenaries_do_not_break_it():
    """2.10 [Buff]: « Morale bonus +1: every card in your line belongs to
    your faction; mercenary cards do not break this »."""
    state = hand(duel(), 0, "Au 2u 3m 1i Ai")
    _, events = act(state, "attack h1 2h1 : Au 2u 3m")
    assert first(events, "attack").data["strength"] == 1 + 2 + 3 + 1
    _, events = act(state, "attack h1 2h1 : Au 2u 1i")
    assert first(events, "attack").data["strength"] == 1 + 2 + 1
    _, events = act(state, "attack h1 2h1 : Ai 2u")
    assert first(events, "attack").data["strength"] == 1 + 2


def test_2_10_terrain_bonus_is_the_players():
    """2.10 [Buff]: « Terrain bonus +1: the battle square's terrain is your
    homeland. This bonus belongs to the player, not the hero » — the square
    fought on is the target's (d2, lac: the Insulaires' homeland), not the
    attacker's (c2, forêt)."""
    state = hand(duel(terrain={"c2": "foret", "d2": "lac"}), 0, "Ai")
    state, events = act(state, "attack h1 2h1 : Ai")
    assert first(events, "attack").data["strength"] == 1  # no bonus for seat 0
    state = hand(state, 1, "1u")
    state, events = act(state, "defend : 1u")
    assert first(events, "defend").data["strength"] == 1 + 1  # lac: seat 1's homeland
    assert state.battle.defender_break.terrain == 1
    assert first(events, "battle").data["result"] == "defender"


def test_2_10_ties_go_to_the_defender():
    """2.10 [Buff]: « The defender needs total ≥ attacker, so ties go to the
    defender. »"""
    state = hand(duel(), 0, "Ai 2u")
    state, _ = act(state, "attack h1 2h1 : Ai 2u")  # 3 (no morale: Ai)
    state = hand(state, 1, "Ai 1i 1u")
    state, events = act(state, "defend : 1u 1i Ai")  # 3 (no morale: 1u)
    battle = first(events, "battle").data
    assert (battle["attack"], battle["defence"], battle["result"]) == (3, 3, "defender")
    assert in_supply(state, 0) == 2 and in_supply(state, 1) == 1


def test_2_10_city_defence_adds_the_level():
    """2.10 [P] 4: « City defence = defender's line + city level »; the
    defender is the city's owner."""
    state = lay(begun(3), "f1-g1", terrain={})  # seat 1's start city g1, level 1
    state = retile(state, "g1", level=3)
    state = hand(heroes(on_day(state, 3), {"f1": ("1h1",)}), 0, "Ai 4u 4i")
    state, _ = act(state, "attack h1 g1 : Ai 4u 4i")  # 9
    assert list(GAME.pending(state)) == [1]
    state = hand(state, 1, "2i 3i")
    state, events = act(state, "defend : 2i 3i")  # 5 + morale 1 + terrain 1 (lac) + level 3
    assert first(events, "battle").data["defence"] == 2 + 3 + 1 + 1 + 3
    assert first(events, "battle").data["result"] == "defender"


def test_2_10_neutral_city_five_option_neutral_defence():
    """2.10 [P] 5 `neutral_defence` (default 5): « Neutral cities have a
    fixed defence of 5 … with no cards »; no decision is asked."""
    state = hand(neutral(), 0, "Au 3u 4u")
    lost, events = act(state, "attack h1 d1 : Au 3u")  # 1 + 3 + 1 = 5: a tie
    assert first(events, "battle").data["defence"] == 5
    assert first(events, "battle").data["result"] == "defender"
    assert lost.phase == "turn" and list(GAME.pending(lost)) == [0]
    _won, events = act(state, "attack h1 d1 : Au 4u")  # 6
    assert first(events, "battle").data["result"] == "attacker"
    weaker = hand(neutral(neutral_defence=3), 0, "Au 2u")
    _, events = act(weaker, "attack h1 d1 : Au 2u")  # 4 > 3
    assert first(events, "battle").data["result"] == "attacker"


def test_2_10_ruins_eight_option_ruins_defence():
    """2.10 [P] 5 `ruins_defence` (default 8): « the Ruins 8 »."""
    state = hand(ruins(), 0, "Au 3u 4u")
    _, events = act(state, "attack h1 d4 : Au 3u 4u")  # 1 + 3 + 4 + 1 = 9
    assert first(events, "battle").data["defence"] == 8
    assert first(events, "battle").data["result"] == "attacker"
    harder = hand(ruins(ruins_defence=10), 0, "Au 3u 4u")
    _, events = act(harder, "attack h1 d4 : Au 3u 4u")
    assert first(events, "battle").data["result"] == "defender"


def test_2_10_the_losers_hero_goes_back_to_the_supply():
    """2.10 [Buff]: « A hero that loses is lost »; [P] 6: « Loser: his hero
    goes back to his supply » (and may be summoned again)."""
    state = hand(neutral(), 0, "Au 1u Ai P P")
    state, events = act(state, "attack h1 d1 : Au 1u")
    assert first(events, "hero-lost").data == {"seat": 0, "hero": "h1"}
    assert state.heroes == () and in_supply(state, 0) == 2
    assert "summon a1 : Ai P P" in legal(state)
    # hero against hero: the defender's hero is lost when it loses
    duel_state = hand(duel(), 0, "Au 4u")
    duel_state, _ = act(duel_state, "attack h1 2h1 : Au 4u")
    duel_state, events = act(hand(duel_state, 1, ""), "defend")
    assert first(events, "hero-lost").data == {"seat": 1, "hero": "h1"}
    assert [(h.seat, h.square) for h in duel_state.heroes] == [(0, "c2")]


def test_2_10_conquest_keeps_the_level_changes_the_colour():
    """2.10 [P] 6: « If the attacker wins against a city, he swaps the level
    token for one of his own colour at the same level »; 2.12 [S]: « Points
    change hands with conquest »; a neutral city becomes yours at 4."""
    state = lay(begun(3), "f1-g1")
    state = retile(state, "g1", level=3)
    state = hand(heroes(on_day(state, 3), {"f1": ("1h1",)}), 0, "Au 4u 4u")
    before = GAME.view(state, None).players
    assert (before[0].vp, before[1].vp) == (1, 3)
    state, _ = act(state, "attack h1 g1 : Au 4u 4u")
    state, events = act(hand(state, 1, ""), "defend")
    assert first(events, "conquer").data == {"seat": 0, "square": "g1", "from": 1, "level": 3}
    assert (tile(state, "g1").owner, tile(state, "g1").level) == (0, 3)
    after = GAME.view(state, None).players
    assert (after[0].vp, after[1].vp) == (4, 0)
    state = hand(neutral(), 0, "Au 4u")
    state, _ = act(state, "attack h1 d1 : Au 4u")
    assert (tile(state, "d1").owner, tile(state, "d1").level) == (0, 4)
    assert GAME.view(state, None).players[0].vp == 5


def test_2_10_line_cards_to_their_owners_discard_piles():
    """2.10 [P] 7: « Every card used goes to its owner's discard pile. The
    defender does not refill his hand until his own turn. »"""
    state = discard(hand(duel(), 0, "Au 2u P"), 0, "")
    state = discard(hand(state, 1, "3i 1i 2i P"), 1, "")
    state, _ = act(state, "attack h1 2h1 : Au 2u")
    assert state.players[0].hand == ("P",)
    state, _ = act(state, "defend : 1i 3i")
    assert sorted(state.players[0].discard) == ["2u", "Au"]
    assert sorted(state.players[1].discard) == ["1i", "3i"]
    assert sorted(state.players[1].hand) == ["2i", "P"]  # no refill
    assert state.active == 0 and state.phase == "turn"


def test_2_10_retreat_two_provisions_or_a_horse_option_retreat():
    """2.10 [P] `retreat` (default on): « when attacked in a hero-vs-hero
    battle, the defender may pay 2 Provisions or a Horse to move 1 space away
    and avoid the fight »."""
    state = hand(duel(), 0, "Au 4u")
    state, _ = act(state, "attack h1 2h1 : Au 4u")
    state = hand(state, 1, "P P P Ci 1i")
    offered = {t for t in legal(state) if t.startswith("retreat")}
    assert offered == {"retreat e2 : P P", "retreat e2 : Ci", "retreat d3 : P P", "retreat d3 : Ci"}
    assert refused(state, "retreat c2 : P P") == "bt-refuse-retreat-square"  # the attacker's
    assert refused(state, "retreat e2 : P") == "bt-refuse-cost"
    assert refused(state, "retreat e2 : P P P") == "bt-refuse-cost"
    assert refused(state, "retreat e2 : Ci P") == "bt-refuse-cost"
    after, events = act(state, "retreat d3 : Ci")
    assert first(events, "retreat").data["square"] == "d3"
    assert [(h.seat, h.square) for h in after.heroes] == [(0, "c2"), (1, "d3")]
    assert "battle" not in kinds(events) and "hero-lost" not in kinds(events)
    assert after.players[0].discard[-2:] == ("4u", "Au")  # the attacker's line
    off = with_rules(state, retreat=False)
    assert not any(t.startswith("retreat") for t in legal(off))
    assert refused(off, "retreat d3 : P P") == "bt-refuse-no-retreat"


def test_2_10_no_retreat_for_a_city():
    """2.10 [P]: retreat is for « a hero-vs-hero battle » only."""
    state = lay(begun(3), "f1-g1 f1-f2")
    state = hand(heroes(on_day(state, 3), {"f1": ("1h1",)}), 0, "Au")
    state, _ = act(state, "attack h1 g1 : Au")
    state = hand(state, 1, "P P Ci")
    assert not any(t.startswith("retreat") for t in legal(state))
    assert refused(state, "retreat f2 : P P") == "bt-refuse-retreat-square"


@pytest.mark.parametrize(
    ("face", "value", "ambush"),
    [(1, 2, 0), (2, 4, 0), (3, 6, 0), (4, 0, 1), (5, 0, 0), (6, 2 + 1, 0)],
)
def test_2_7_amulet_faces(face, value, ambush):
    """2.7: « Amulet: Priest + 2 Frimen (d6: 1 no change, 2 card counts
    double, 3 triple, 4 card to Ambush, 5 card discarded, 6 wild card) »;
    design [P] `wild_bonus`=1: 6 counts as your faction and +1."""
    state = neutral(day=4)  # the Amulet is not illuminated: one die
    line = ("Au", "2i", "Mu>2i")  # an Ursidé's line with an Insulaire unit
    brk = line_strength(state, 0, line, "d1", leader="hero", rolls=(("2i", face),))
    assert brk.base == 1 + value
    assert brk.morale == (1 if face == 6 else 0)  # wild: the unit counts as an Ursidé
    wild = with_rules(state, wild_bonus=2)
    brk2 = line_strength(wild, 0, line, "d1", leader="hero", rolls=(("2i", face),))
    assert brk2.base == brk.base + (1 if face == 6 else 0)
    # after the battle: 4 sends the unit to the Ambush, the rest to the discard pile
    for seed in range(200):
        s = evolve(hand(state, 0, "Au 2i Mu"), rng=rng.seed_state(seed, "face"))
        if rng.roll(s.rng, 6)[0] == face:
            break
    s, events = act(s, "attack h1 d1 : Au 2i Mu>2i")
    assert first(events, "battle").data["rolls"] == [["2i", face]]
    assert len(s.ambush) == ambush
    assert ("2i" in s.players[0].discard) == (ambush == 0)


def test_2_10_morale_broken_by_a_foreign_weapon_even_with_a_wild_unit():
    """2.10 [Buff]: morale asks every card of the line (the Insulaires'
    Weapon and Amulet break an Ursidé's morale whatever the die)."""
    state = neutral()
    brk = line_strength(state, 0, ("Ai", "2i", "Mi>2i"), "d1", leader="hero", rolls=(("2i", 6),))
    assert brk.morale == 0


def test_option_buff_defence_ties():
    """design [P] `buff_defence_ties` (default `buff`): « Buff defends with
    the horde strength, ties to Buff »; `attacker`: the attacker wins ties."""
    base = lay(begun(3, options="buff=true"), "c2-d2")
    base = heroes(on_day(base, 10), {"c2": ("1h1",)})
    base = evolve(base, buff=evolve(base.buff, square="d2", horde=6, entered=True))
    state = hand(base, 0, "Ai 2i 3i")
    state, events = act(state, "attack h1 buff : Ai 2i 3i")  # 6 = horde
    assert first(events, "battle").data["result"] == "defender"
    assert state.heroes == ()
    other = with_rules(hand(base, 0, "Ai 2i 3i"), buff_defence_ties="attacker")
    other, events = act(other, "attack h1 buff : Ai 2i 3i")
    assert first(events, "battle").data["result"] == "attacker"
    assert other.buff.square is None and other.buff.absent


# ---------------------------------------------------------------------------
# 2.11 Ruins and Great Artefacts
# ---------------------------------------------------------------------------


def test_2_11_beating_the_ruins_earns_a_great_artefact():
    """2.11 [S]: « Beating them earns a Great Artefact »; [P]: « The winner
    picks one displayed Great Artefact into his discard pile. The Ruins stay
    neutral, give no points and can be attacked again. »"""
    state = hand(ruins(great_face_down=False), 0, "Au 4u 4u Ai 4i 4n")  # face up
    shown = state.great
    state, events = act(state, "attack h1 d4 : Au 4u 4u")
    assert state.phase == "take" and list(GAME.pending(state)) == [0]
    assert legal(state) == {f"take {g}" for g in shown}
    pick = shown[1]
    state, events = act(state, f"take {pick}")
    assert first(events, "great-artefact").data == {"seat": 0, "artefact": pick}
    assert pick in state.players[0].discard and pick not in state.great
    assert len(state.great) == len(shown) - 1
    ruins_tile = tile(state, "d4")
    assert (ruins_tile.owner, ruins_tile.level, ruins_tile.kind) == (None, 0, "ruins")
    assert GAME.view(state, None).players[0].vp == 1  # the start city only
    assert any(t.startswith("attack h1 d4 ") for t in legal(state))  # again


def test_2_11_no_great_artefact_left():
    """2.11 [P]: with no Great Artefact displayed, the victory gives none
    (no decision)."""
    state = evolve(hand(ruins(), 0, "Au 4u 4u"), great=())
    state, _ = act(state, "attack h1 d4 : Au 4u 4u")
    assert state.phase == "turn"


def test_2_11_great_artefacts_effects():
    """2.11 [S] names: « Sword of Elemag and Shield of Britos (weapons),
    Wings of Aviena, Crown of Titus »; effects [P] (data file): G1 G2 a
    Weapon of strength 2, G3 a Horse of strength 2 and 6 steps, G4 a Title of
    +2, G5 an Amulet rolled twice."""
    state = hand(neutral(), 0, "G1 G2 G3 2u G4 G5")
    _, events = act(state, "attack h1 d1 : G1")  # a weapon: the battle's cost
    assert first(events, "attack").data["strength"] == 2 + 1  # morale: no faction
    _, events = act(state, "attack h1 d1 : G2 G3")
    assert first(events, "attack").data["strength"] == 2 + 2 + 1
    _, events = act(state, "attack h1 d1 : 2u G1 G4>2u")
    assert first(events, "attack").data["strength"] == 2 + 2 + 2 + 1
    brk = line_strength(state, 0, ("G1", "2u", "G5>2u"), "d1", leader="hero")
    assert len(brk.rolls) == 1
    walk = lay(begun(3), "a1-a2-a3-a4 a4-b4-c4-d4")
    walk = hand(heroes(on_day(walk, 3), {"a1": ("1h1",)}), 0, "G3")
    assert "move h1 a2 a3 a4 b4 c4 d4 : G3" in legal(walk)


# ---------------------------------------------------------------------------
# 2.12 Victory points and the end
# ---------------------------------------------------------------------------


def test_2_12_vp_are_the_levels_of_your_cities():
    """2.12 [S]: « VP = the sum of the levels of the cities you control at
    that moment. »"""
    state = lay(begun(3), "a1-b1-c1", cities={"c1": (0, 3)})
    state = retile(state, "a4", owner=0)
    views = GAME.view(state, None).players
    assert (views[0].vp, views[0].level4, views[0].cities) == (1 + 3 + 4, 1, 3)
    assert views[1].vp == 1


def _owned_neutrals(state, seat, count):
    for sq in ("d1", "g4", "d7", "a4")[:count]:
        state = retile(state, sq, owner=seat)
    return state


def test_2_12_five_level4_cities_end_the_game_at_once():
    """2.12 [S]: « The game ends immediately when a player controls 5
    level-4 cities » — here mid-turn, by an upgrade."""
    state = _owned_neutrals(begun(3), 0, 4)
    state = retile(state, "a1", level=3)
    state = hand(on_day(state, 3), 0, "4u 4i 1u P")
    state, events = act(state, "upgrade a1 : 4u 4i")
    assert state.phase == "over" and state.end_reason == "five-level4"
    assert first(events, "game-over").data["reason"] == "five-level4"
    assert GAME.pending(state) == {}
    assert GAME.outcome(state).ranking[0] == (0,)


def test_2_12_the_winner_need_not_end_the_game():
    """2.12 [S]: « The player with the most VP wins; he need not be the one
    who ended the game. » Seat 0 conquers its fifth level-4 city (20 VP);
    seat 1 holds more (4 level-4 and 3 level-3 cities: 26 VP)."""
    state = _owned_neutrals(begun(3), 0, 3)
    state = lay(state, "a1-b1 g1-g2-f2", cities={"b1": (0, 4), "f2": (1, 4)})
    more = [("e3", 4), ("e5", 4), ("c6", 4), ("e6", 3), ("c7", 3), ("f5", 3)]
    extra = [Tile(sq, "city", "D", 0, "plaine", lvl, 1) for sq, lvl in more]
    state = evolve(state, tiles=tuple(sorted([*state.tiles, *extra], key=lambda t: t.square)))
    state = lay(state, "a4-a5")
    state = hand(heroes(on_day(state, 3), {"a5": ("1h1",)}), 0, "Au 4u")
    before = GAME.view(state, None).players
    assert (before[0].level4, before[1].level4, before[1].vp) == (4, 4, 26)
    state, events = act(state, "attack h1 a4 : Au 4u")
    assert state.end_reason == "five-level4" and "conquer" in kinds(events)
    outcome = GAME.outcome(state)
    assert outcome.scores[:2] == (21, 26)
    assert outcome.ranking[0] == (1,)


def test_2_12_tie_breaks_level4_then_cities():
    """2.12 [P]: « Tie-breaks: more level-4 cities, then more cities »
    (still tied: a shared place)."""
    from engine.games.battalia.turns import finish

    state = begun(3)
    state = retile(state, "a1", level=4)  # seat 0: 4 VP, one level 4, one city
    state = lay(state, "g1-g2", cities={"g2": (1, 3)})  # seat 1: 1 + 3 = 4, two cities
    state = lay(state, "g7-g6", cities={"g6": (2, 3)})  # seat 2: 4, two cities
    over = finish(state, "weeks", [])
    assert over.ranking == ((0,), (1, 2))
    state = retile(state, "g6", level=2)
    state = evolve(state, tiles=(*state.tiles, Tile("e7", "city", "D", 0, "plaine", 1, 2)))
    state = evolve(state, tiles=tuple(sorted(state.tiles, key=lambda t: t.square)))
    over = finish(state, "weeks", [])
    assert over.ranking == ((0,), (2,), (1,))  # 4 VP each; seat 2 has three cities


def test_2_12_week_limit():
    """Option `week_limit` (default 0: no limit, [P]): the game ends when
    that many weeks are over (here 1: at the start of day 8)."""
    state = with_rules(on_day(begun(3), 7), week_limit=1, buff=False)
    for _ in range(3):
        state, _ = act(state, "end")
    assert state.phase == "over" and state.end_reason == "weeks" and state.day == 8
    unlimited = with_rules(on_day(begun(3), 7), buff=False)
    for _ in range(3):
        unlimited, _ = act(unlimited, "end")
    assert unlimited.phase == "turn" and unlimited.day == 8


def test_option_end_no_placement():
    """Option `end_no_placement` (default on, [P]): « the game ends when no
    seat can place a terrain card any more »; off: play goes on."""
    state = begun(3)
    empty = evolve(state, roads=tuple((k, ()) for k, _ in state.roads))
    empty = evolve(empty, cities=tuple((k, ()) for k, _ in state.cities))
    over, _events = act(empty, "end")
    assert over.phase == "over" and over.end_reason == "no-placement"
    on, _ = act(with_rules(empty, end_no_placement=False), "end")
    assert on.phase == "turn" and on.active == 1


def test_2_10_procedure_the_attackers_line_is_revealed_first():
    """2.10 [P] 2-3: « The attacker lays his battle line. The defender then
    lays a line from the 6-card hand he holds between turns. » (design: the
    attacker's line is revealed, then the defender's decision)."""
    state = hand(duel(), 0, "Au 2u P")
    state, events = act(state, "attack h1 2h1 : Au 2u")
    assert first(events, "attack").data["line"] == ["2u", "Au"]
    assert state.phase == "defend" and dict(GAME.pending(state))[1].kind == "defend"
    for seat in (1, 2, None):
        battle = GAME.view(state, seat).battle
        assert battle.attacker_line == ("2u", "Au") and battle.defender_line is None
    assert refused(state, "end", seat=0) == "core-not-your-turn"  # the attacker waits
