"""Chroniques de Liber: each ruling L1-L12 of our rulings file, and each
option of ``Options`` with its default and its other values.

The rulings are our defaults where the seed is silent (the seed wins where
they disagree: ``counter_limit`` defaults to the seed's « avant la fin du
tour »). Each test names the ruling or the option it checks.
"""

from __future__ import annotations

import pytest

from engine.errors import BadOptions, IllegalAction
from engine.games.liber import Options
from tests.games.liber_helpers import (
    act,
    at,
    decide,
    g,
    legal,
    pass_all,
    refused,
    to_next_turn,
    to_phase,
)
from tests.games.liber_helpers import scenario as base


def scenario(**kw):
    kw.setdefault("opts", "decks=starter")
    kw.setdefault("hands", ("",) * kw.get("seats", 2))
    return base(**kw)


def with_opts(opts: str, **kw):
    return scenario(opts=f"decks=starter {opts}".strip(), **kw)


def test_every_option_default_is_the_seed_then_the_rulings() -> None:
    opts = Options()
    assert opts.decks == ()
    assert opts.line_moves == "one-step"  # L3
    assert opts.first_turn_placement == "free"  # L7
    assert opts.counter_limit == "turn"  # the seed (L5 says a turn cycle: option)
    assert opts.initiative_kill_prevents_riposte is True  # L6
    assert opts.hand_limit == 7  # L8
    assert opts.vp_cap is True  # L9
    assert (opts.gold_per_reserve, opts.start_reserves) == (5, 1)  # seed, L2
    assert (opts.faith_to_win, opts.vp_to_win, opts.gold_to_win) == (20, 40, 60)  # seed
    assert opts.multiplayer_end == "first-general"
    assert opts.impatient_ready is True  # L7


@pytest.mark.parametrize(
    "text",
    [
        "line_moves=sideways",
        "counter_limit=game",
        "hand_limit=0",
        "multiplayer_end=never",
        "decks=Aldric!",
    ],
)
def test_bad_option_values_are_refused(text: str) -> None:
    with pytest.raises(BadOptions):
        g.options(text)


# ---- decks -----------------------------------------------------------------------------------


def test_option_decks_default_the_ready_made_decks_in_turn() -> None:
    state = g.setup(g.options(""), 4, 1)
    assert [p.deck_name for p in state.players] == ["aggro", "controle", "foi", "starter"]
    one = g.setup(g.options("decks=tir"), 3, 1)
    assert [p.deck_name for p in one.players] == ["tir"] * 3
    with pytest.raises(BadOptions):
        g.setup(g.options("decks=tir/foi"), 3, 1)  # one, or one per seat
    with pytest.raises(BadOptions):
        g.setup(g.options("decks=nothing"), 2, 1)


# ---- L1 --------------------------------------------------------------------------------------


def test_l1_a_battlefield_per_player_general_in_the_middle_of_the_back_line() -> None:
    """L1: « Per player: plaine, arrière, front, 5 slots each. ... The general
    starts in the middle slot of the back line. »"""
    state = g.setup(g.options(""), 4, 2)
    view = g.view(state, None)
    assert len(view.sides) == 4
    for side in view.sides:
        assert [(p.place, p.general) for p in side.pieces] == [("a3", True)]


# ---- L2 --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("opts", "income", "with_mine"),
    [("", 5, 10), ("start_reserves=2", 10, 15), ("gold_per_reserve=3", 3, 6)],
)
def test_l2_one_reserve_at_the_start_gold_carries_over(opts, income, with_mine) -> None:
    """L2: « Each player starts with 1 reserve (5 gold per turn); "Lieu" cards
    add more. Gold carries over between turns. » (options start_reserves,
    gold_per_reserve)"""
    state = with_opts(opts, gold=(0, 7), phase="attack")
    state, _ = to_next_turn(state)
    assert state.players[1].gold == 7 + income
    mine = with_opts(opts, board=({}, {"p2": "mine-d-or"}), phase="attack")
    mine, _ = to_next_turn(mine)
    assert mine.players[1].gold == with_mine


# ---- L3: line_moves --------------------------------------------------------------------------


def test_l3_one_step_default_one_line_forward_or_back_once() -> None:
    """L3: « during placement, a unit that did not arrive this turn may move
    one line forward or back. »"""
    state = scenario(board=({"a1": "milicien"}, {}), hands=("paysan", ""), gold=(1, 0))
    assert {"move a1 f1", "move a1 p1"} <= legal(state)
    refused(state, "move a1 a2", error=IllegalAction)  # not along its line
    state, _ = act(state, "move a1 f2")
    refused(state, "move f2 a2", error=IllegalAction)  # once a turn
    state, _ = act(state, "play paysan p1")
    refused(state, "move p1 a4", error=IllegalAction)  # arrived this turn
    state, _ = to_phase(state, "attack")
    refused(state, "move f2 a2", error=IllegalAction)  # placement only


def test_l3_one_step_refuses_two_lines() -> None:
    state = scenario(board=({"p1": "milicien"}, {}))
    refused(state, "move p1 f1", error=IllegalAction)


def test_l3_option_none_no_line_moves() -> None:
    state = with_opts("line_moves=none", board=({"a1": "milicien", "p1": "cavalier"}, {}))
    refused(state, "move a1 f1", error=IllegalAction)
    assert "move p1 f1" in legal(state)  # Déplacement overrides


def test_l3_option_any_to_any_line() -> None:
    state = with_opts("line_moves=any", board=({"p1": "milicien"}, {}))
    state, _ = act(state, "move p1 f1")
    assert at(state, "1f1").card == "milicien"  # type: ignore[union-attr]


def test_l3_generals_do_not_move() -> None:
    state = with_opts("line_moves=any")
    refused(state, "move a3 f3", error=IllegalAction)


# ---- L4 --------------------------------------------------------------------------------------


def test_l4_the_case_tables_literally_back_line_artillery_cannot_hit_the_front() -> None:
    """L4: « Implement the listed melee, Tir and Artillerie case tables
    literally; ... artillery in the back line cannot hit the enemy front. »
    (every case: test_liber_range.py)"""
    state = scenario(board=({"a1": "catapulte"}, {"f1": "fantassin"}), phase="attack")
    refused(state, "attack a1 2f1", error=IllegalAction, match="range")


# ---- L5 and counter_limit --------------------------------------------------------------------


def test_l5_block_with_a_unit_that_can_legally_fight_the_attacker() -> None:
    """L5: « The defender may redirect an attack onto one of its own units
    that can legally fight the attacker. »: a back-line unit behind an
    occupied front is out of a front melee unit's reach; the general never
    blocks."""
    state = scenario(
        board=({"f1": "fantassin"}, {"f1": "milicien", "f2": "sergent", "a1": "hallebardier"}),
        phase="attack",
    )
    state, _ = act(state, "attack f1 2f1")
    assert legal(state) == {"block f2", "pass"}
    refused(state, "block a1", error=IllegalAction)
    refused(state, "block a3", error=IllegalAction)


def test_l5_no_block_on_a_two_target_attack() -> None:
    state = scenario(
        board=({"f1": "chevalier"}, {"f1": "milicien", "f3": "fantassin", "f5": "sergent"}),
        phase="attack",
    )
    state, _ = act(state, "attack f1 2f1:3,2f3:3")
    assert state.window is None  # nothing to ask: resolved


def _three_seats_counter(opts: str):
    """Seat 0 attacks seat 2's Hallebardier (it strikes back); then seat 1
    attacks it in its own turn."""
    state = with_opts(
        opts,
        seats=3,
        board=({"f1": "fantassin"}, {"f1": "fantassin"}, {"f1": "hallebardier"}),
        phase="attack",
    )
    state, _ = act(state, "attack f1 3f1")
    state, _ = pass_all(state)
    assert at(state, "1f1").damage == 3  # type: ignore[union-attr]
    state, _ = to_next_turn(state)
    state, _ = to_phase(state, "attack")
    assert state.active == 1
    state, _ = act(state, "attack f1 3f1")
    state, _ = pass_all(state)
    return at(state, "2f1").damage  # type: ignore[union-attr]


def test_counter_limit_turn_default_again_the_next_turn() -> None:
    """The seed: « ne peut pas en faire avant la fin du tour »: at the next
    turn (another player's) it strikes back again."""
    assert _three_seats_counter("") == 3


def test_counter_limit_cycle_not_before_its_owners_next_turn() -> None:
    """L5: « One counter/block per unit per turn cycle. »"""
    assert _three_seats_counter("counter_limit=cycle") == 0


# ---- L6 and initiative_kill_prevents_riposte -------------------------------------------------


def test_l6_damage_is_permanent_pv_return_only_through_soin() -> None:
    """L6: « It is permanent; PV return only through Soin. »"""
    state = scenario(
        board=({"f1": "fantassin dmg=2", "a1": "pretre"}, {}), decks=("paysan " * 5, "paysan " * 5)
    )
    for _ in range(2):
        state, _ = to_next_turn(state)
    assert at(state, "1f1").damage == 2  # type: ignore[union-attr]
    state, _ = act(state, "use a1 soin 1f1")
    state, _ = to_next_turn(state)
    assert at(state, "1f1").damage == 1  # type: ignore[union-attr]


@pytest.mark.parametrize("prevents", [True, False])
def test_l6_initiative_kill_prevents_the_riposte_option(prevents: bool) -> None:
    """L6: « Initiative strikes first, and a kill prevents the riposte. »
    (initiative_kill_prevents_riposte=false: the killed unit strikes too)"""
    opts = "" if prevents else "initiative_kill_prevents_riposte=false"
    state = with_opts(opts, board=({"f1": "archer-d-elite"}, {"f1": "berserker"}), phase="attack")
    state, _ = act(state, "attack f1 2f1")
    assert at(state, "2f1") is None
    assert at(state, "1f1").damage == (0 if prevents else 3)  # type: ignore[union-attr]


# ---- L7, first_turn_placement and impatient_ready --------------------------------------------


@pytest.mark.parametrize(("opts", "paid"), [("", 0), ("first_turn_placement=anywhere", 4)])
def test_l7_the_second_player_places_anywhere_on_its_first_turn(opts: str, paid: int) -> None:
    """L7: « The second player places for free anywhere. »
    (first_turn_placement=anywhere: any line, paying the extra cost)"""
    state = with_opts(opts, hands=("", "milicien"), gold=(0, 6), active=1, first_round=True, turn=2)
    state, _ = act(state, "play milicien f2")
    assert state.players[1].gold == 6 - 2 - paid


def test_l7_the_first_player_pays_the_lines_on_its_first_turn() -> None:
    state = scenario(hands=("milicien", ""), gold=(5, 0), first_round=True, turn=1)
    refused(state, "play milicien f2", error=IllegalAction)
    assert "play milicien a2" in legal(state)


@pytest.mark.parametrize("ready", [True, False])
def test_l7_summoning_sickness_applies_except_for_impatient(ready: bool) -> None:
    """L7: « Summoning sickness applies except for Impatient. »
    (impatient_ready=false: Impatient units are sick as the others)"""
    opts = "" if ready else "impatient_ready=false"
    state = with_opts(
        opts, hands=("recrue milicien", ""), gold=(11, 0), board=({}, {"f1": "paysan"})
    )
    state, _ = act(state, "play recrue f1", "play milicien f2")
    assert at(state, "1f1").sick is not ready and at(state, "1f2").sick  # type: ignore[union-attr]
    state, _ = to_phase(state, "attack")
    assert ("attack f1 2f1" in legal(state)) is ready


def test_l7_the_first_turn_is_placement_only() -> None:
    """L7: « Placement only. »"""
    state = scenario(board=({"f1": "fantassin"}, {"f1": "fantassin"}), first_round=True, turn=1)
    state, _ = act(state, "next")
    state, _ = pass_all(state)
    assert state.active == 1 and state.phase == "placement"


# ---- L8 hand_limit ---------------------------------------------------------------------------


@pytest.mark.parametrize(("opts", "kept"), [("", 7), ("hand_limit=5", 5)])
def test_l8_hand_limit(opts: str, kept: int) -> None:
    """L8: « Hand limit. 7. »"""
    hand = "paysan milicien archer fantassin sergent pretre spectre assassin"
    state = with_opts(opts, hands=(hand, ""), phase="attack")
    state, _ = act(state, "next")
    state, _ = pass_all(state)
    while decide(state)[1] == "discard":
        state, _ = act(state, f"discard {state.players[0].hand[0]}")
    assert state.active == 1 and len(state.players[0].hand) == kept


# ---- L9 and vp_cap ---------------------------------------------------------------------------


@pytest.mark.parametrize(("opts", "vp"), [("", 2), ("vp_cap=false", 5)])
def test_l9_victory_points_capped_at_the_pv_left(opts: str, vp: int) -> None:
    """L9: « 1 VP per point of damage actually dealt to non-general units
    (capped at remaining PV; Fanatique ×2). None from generals or gods.
    General abilities spend VP. »"""
    state = with_opts(opts, board=({"p1": "catapulte"}, {"f1": "paysan"}), phase="attack")
    state, _ = act(state, "attack p1 2f1")
    assert state.players[0].vp == vp


def test_l9_fanatique_doubles_the_capped_points() -> None:
    state = scenario(board=({"f1": "fanatique"}, {"f1": "paysan"}), phase="attack")
    state, _ = act(state, "attack f1 2f1")
    assert state.players[0].vp == 4


def test_l9_general_abilities_spend_victory_points() -> None:
    state = scenario(board=({"f1": "fantassin"}, {}), vp=(3, 0))
    state, _ = act(state, "general 1 1f1")
    assert state.players[0].vp == 0


@pytest.mark.parametrize(
    ("opts", "values", "reason"),
    [
        ("faith_to_win=5", {"faith": (5, 0)}, "faith"),
        ("vp_to_win=10", {"vp": (10, 0)}, "vp"),
        ("gold_to_win=12", {"gold": (12, 0)}, "gold"),
    ],
)
def test_l9_win_thresholds_are_options(opts, values, reason) -> None:
    """L9: « Wins: general at 0, 20 faith, 40 VP or 60 gold. »
    (faith_to_win, vp_to_win, gold_to_win)"""
    state = with_opts(opts, **values)
    state, _ = act(state, "next")
    assert g.outcome(state).reason == reason  # type: ignore[union-attr]
    below = {k: (v[0] - 1, 0) for k, v in values.items()}
    state = with_opts(opts, **below)
    state, _ = act(state, "next")
    assert g.outcome(state) is None


# ---- L10 -------------------------------------------------------------------------------------


def test_l10_faith_pays_for_the_god_and_for_spells_faith_costs() -> None:
    """L10: « +1 per enemy unit killed (not sacrificed). Pays for one god per
    player and for spells' faith costs. »"""
    state = scenario(
        board=({}, {"f1": "hallebardier"}), hands=("eclair", ""), gold=(4, 0), faith=(0, 0)
    )
    refused(state, "play eclair 2f1", error=IllegalAction, match="faith|cost")
    state = scenario(
        hands=("jugement", ""), board=({}, {"f1": "hallebardier"}), gold=(3, 0), faith=(3, 0)
    )
    state, _ = act(state, "play jugement 2f1")
    assert at(state, "2f1") is None and state.players[0].faith == 1  # paid 3, the kill gave 1


# ---- L11 -------------------------------------------------------------------------------------


def test_l11_plain_slots_are_shared() -> None:
    """L11: « Shared by arriving units, enchantments, places, tokens and
    favours. Gods sit beside the board. »"""
    full = {
        f"p{i}": kind
        for i, kind in enumerate(
            ["paysan", "mine-d-or", "benediction", "squelette", "faveur-de-la-guerre"], 1
        )
    }
    state = scenario(
        board=(full, {}),
        hands=("milicien autel appel-des-ombres dieu-de-la-guerre", ""),
        gold=(20, 0),
        faith=(10, 0),
    )
    options = legal(state)
    assert not any(t.startswith(("play milicien p", "play autel")) for t in options)
    assert "play milicien a1" in options and "play dieu-de-la-guerre" in options
    state, _ = act(state, "play appel-des-ombres")  # no free place: no token
    assert sum(1 for p in state.players[0].lines[0] if p is not None) == 5


# ---- L12 -------------------------------------------------------------------------------------


def test_l12_abilities_once_per_turn_no_stacking_attacker_first() -> None:
    """L12: « Once per turn each; the same effect does not stack; the
    attacker's abilities resolve first. » (each keyword: test_liber_keywords)
    Two Tambours de guerre on the plaine give the front +1, not +2."""
    state = scenario(
        board=(
            {"f1": "fantassin", "p1": "tambours-de-guerre", "p2": "tambours-de-guerre"},
            {"f1": "hallebardier"},
        ),
        phase="attack",
    )
    state, _ = act(state, "attack f1 2f1")
    assert at(state, "2f1").damage == 4  # type: ignore[union-attr]


# ---- multiplayer_end -------------------------------------------------------------------------


def _general_falls(opts: str):
    state = with_opts(
        opts,
        seats=3,
        board=({"f1": "chevalier"}, {}, {}),
        generals=("a3", "f3", "a3"),
        general_damage=(0, 17, 0),
        phase="attack",
    )
    return act(state, "attack f1 2f3")


def test_multiplayer_end_first_general_default_the_killer_wins() -> None:
    state, _ = _general_falls("")
    outcome = g.outcome(state)
    assert outcome is not None and outcome.reason == "general" and outcome.ranking[0] == (0,)
    assert outcome.ranking[-1] == (1,)


def test_multiplayer_end_last_standing_play_goes_on() -> None:
    state, events = _general_falls("multiplayer_end=last-standing")
    assert "out" in [e.kind for e in events]
    assert g.outcome(state) is None and state.players[1].out
    assert all(p is None for row in state.players[1].lines for p in row)
    assert state.active == 0
    state, _ = to_next_turn(state)
    assert state.active == 2  # the seat that is out is skipped


def _two_generals_fall():
    """Seat 0 kills seat 2's general (« last-standing »: seat 2 is out), then
    seat 3's: one general is left."""
    state = with_opts(
        "multiplayer_end=last-standing",
        seats=3,
        board=({"f1": "chevalier", "f2": "fanatique"}, {}, {}),
        generals=("a3", "f3", "f3"),
        general_damage=(0, 17, 15),
        phase="attack",
    )
    state, _ = act(state, "attack f1 2f3")
    assert g.outcome(state) is None and state.players[1].out
    state, events = act(state, "attack f2 3f3")
    return state, events


def test_multiplayer_end_last_standing_the_last_general_wins() -> None:
    state, _ = _two_generals_fall()
    outcome = g.outcome(state)
    assert outcome is not None and outcome.ranking[0] == (0,)


def test_multiplayer_end_last_standing_reason() -> None:
    state, _ = _two_generals_fall()
    assert g.outcome(state).reason == "last-standing"  # type: ignore[union-attr]


def test_multiplayer_end_last_standing_ranks_by_elimination_order() -> None:
    state, _ = _two_generals_fall()
    assert g.outcome(state).ranking == ((0,), (2,), (1,))  # type: ignore[union-attr]


def test_multiplayer_end_last_standing_generals_falling_together_rank_together() -> None:
    """Seat 2's general attacks seat 3's: both fall in the same exchange
    (« Les dégâts sont simultanés »), both players are out together and
    share the rank after seat 1, the last general standing."""
    state = with_opts(
        "multiplayer_end=last-standing",
        seats=3,
        generals=("a3", "f3", "f3"),
        general_damage=(0, 19, 17),
        active=1,
        phase="attack",
    )
    state, _ = act(state, "attack f3 3f3")
    outcome = g.outcome(state)
    assert outcome is not None and outcome.reason == "last-standing"
    assert outcome.ranking == ((0,), (1, 2))


def test_players_out_rank_by_order_resigning_then_a_general_killed() -> None:
    """4 players, first-general: seat 4 resigns (out first), then seat 1
    kills seat 2's general: seat 3 (living) ranks second, seat 2 third,
    seat 4 last."""
    state = with_opts(
        "",
        seats=4,
        board=({"f1": "chevalier"}, {}, {}, {}),
        generals=("a3", "f3", "a3", "a3"),
        general_damage=(0, 17, 0, 0),
        phase="attack",
    )
    state, _ = g.resign(state, 3)
    assert g.outcome(state) is None
    state, _ = act(state, "attack f1 2f3")
    outcome = g.outcome(state)
    assert outcome is not None and outcome.reason == "general"
    assert outcome.ranking == ((0,), (2,), (1,), (3,))


def test_players_out_rank_by_order_two_resign() -> None:
    state = with_opts("", seats=3)
    state, _ = g.resign(state, 2)
    state, _ = g.resign(state, 1)
    outcome = g.outcome(state)
    assert outcome is not None and outcome.reason == "resign"
    assert outcome.ranking == ((0,), (1,), (2,))


def test_multiplayer_end_first_general_the_killer_wins_even_off_its_turn() -> None:
    """Seat 2's general attacks seat 1's Fanatique, whose riposte kills it:
    the killer (not the active seat) wins."""
    state = with_opts(
        "",
        seats=3,
        board=({"f1": "fanatique"}, {}, {}),
        generals=("a3", "f3", "a3"),
        general_damage=(0, 18, 0),
        active=1,
        phase="attack",
    )
    state, _ = act(state, "attack f3 1f1")
    outcome = g.outcome(state)
    assert outcome is not None and outcome.reason == "general" and outcome.ranking[0] == (0,)
