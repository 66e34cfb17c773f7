"""Battalia: the [P] rules of the rulings that were fixed in the code, each a
named option with the ruling as its default (audit D7, docs/audits/battalia.md).
One test per option: the default is the ruling, the other value changes the
rule. Scenes from ``test_battalia_battles`` (three seats, day 3)."""

from __future__ import annotations

from engine.core import evolve
from engine.games.battalia.turns import finish
from tests.games.battalia_helpers import (
    GAME,
    act,
    begun,
    deck,
    hand,
    heroes,
    lay,
    legal,
    refused,
    retile,
    with_rules,
)
from tests.games.test_battalia_battles import duel, ruins


def test_option_tie_breaks():
    """2.12 [P] « Tie-breaks: more level-4 cities, then more cities »
    (`tie_breaks=cities`, default); `none`: equal VP share the place."""
    state = begun(3)
    state = retile(state, "a1", level=4)  # seat 0: 4 VP, one level-4 city
    state = lay(state, "g1-g2", cities={"g2": (1, 3)})  # seat 1: 1 + 3 = 4 VP
    state = lay(state, "g7-g6", cities={"g6": (2, 2)})  # seat 2: 1 + 2 = 3 VP
    assert finish(state, "weeks", []).ranking == ((0,), (1,), (2,))
    shared = with_rules(state, tie_breaks="none")
    assert finish(shared, "weeks", []).ranking == ((0, 1), (2,))


def test_option_defender_refill():
    """2.10 / 3 [P] « Hand refill after defending: No » (`defender_refill`
    off, default); on: the defender draws up to the hand size after the
    battle."""
    state = hand(duel(), 0, "Au 4u")
    state, _ = act(state, "attack h1 2h1 : 4u Au")
    state = deck(hand(state, 1, "1i 2i P"), 1, "1i 1i 1i 1i 1i 1i")
    after, _ = act(state, "defend : 1i 2i")
    assert after.players[1].hand == ("P",)
    refill = with_rules(state, defender_refill=True)
    after, _ = act(refill, "defend : 1i 2i")
    assert len(after.players[1].hand) == 6


def test_option_hero_limit():
    """2.8 [P] « Squares have no hero limit » (`hero_limit=0`, default); with
    a limit of 1 no move, summon or retreat ends on an occupied square."""
    state = hand(duel(), 0, "P P Au P P")
    assert "move h1 d2 : P" in legal(state)
    one = with_rules(state, hero_limit=1)
    assert not any(t.startswith("move h1 d2 :") for t in legal(one))
    assert refused(one, "move h1 d2 : P") == "bt-refuse-path"
    assert "move h1 b2 : P" in legal(one)
    city = heroes(one, {"a1": ("2h2",)})  # another seat's hero on a1
    assert refused(city, "summon a1 : Au P P") == "bt-refuse-summon-city"


def test_option_ruins_again():
    """2.11 [P] « The Ruins stay neutral … and can be attacked again »
    (`ruins_again`, default on); off: once a Great Artefact has been taken
    from them, the Ruins are no target any more."""
    state = hand(ruins(), 0, "Au 4u 4u Ai 4i 4n")
    won, _ = act(state, "attack h1 d4 : 4u Au 4u")
    won, _ = act(won, "take 1")
    won = hand(won, 0, "Au 4u")
    assert "attack h1 d4 : 4u Au" in legal(won)
    once = with_rules(won, ruins_again=False)
    assert refused(once, "attack h1 d4 : 4u Au") == "bt-refuse-target"
    fresh = with_rules(hand(ruins(), 0, "Au 4u"), ruins_again=False)
    assert "attack h1 d4 : 4u Au" in legal(fresh)


def test_option_attack_reach():
    """2.10 [P] « The attacker's hero must share a square with, or be
    road-adjacent to, the target » (`attack_reach=adjacent`, default);
    `square`: the same square only."""
    state = hand(duel(), 0, "Au 4u")
    assert "attack h1 2h1 : 4u Au" in legal(state)  # d2 is next to c2
    near = with_rules(state, attack_reach="square")
    assert refused(near, "attack h1 2h1 : 4u Au") == "bt-refuse-target"
    same = evolve(near, heroes=tuple(evolve(h, square="c2") for h in near.heroes))
    assert "attack h1 2h1 : 4u Au" in legal(same)


def test_options_are_documented_with_their_default():
    """Each option's default is the ruling's reading."""
    opts = GAME.options("")
    assert (opts.tie_breaks, opts.defender_refill, opts.hero_limit) == ("cities", False, 0)
    assert (opts.ruins_again, opts.attack_reach) == (True, "adjacent")
