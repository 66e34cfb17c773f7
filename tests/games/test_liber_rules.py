"""Chroniques de Liber: the core rules (setup, draw phase, placement costs,
range tables, the seed's A/B example, victory order). Each test quotes the
seed sentence it checks (seed 002, in French)."""

from __future__ import annotations

import pytest

from engine.core import Event
from engine.errors import IllegalAction
from engine.games.liber import GAME
from engine.games.liber.model import Card, State
from tests.games.liber_helpers import (
    act,
    act_as,
    at,
    first,
    kinds,
    legal,
    pass_all,
    refused,
    scenario,
)

g = GAME


# ---- Mise en place -------------------------------------------------------------------------


def test_setup_draws_seven_and_places_the_general_in_the_middle_of_the_back_line() -> None:
    """« Les joueurs placent leur général face visible au centre du champ de
    bataille sur l'arrière ligne. » « Piocher 7 cartes que vous mettez dans
    votre main. » « Un deck de 50 cartes par joueur »"""
    state = g.setup(g.options("decks=starter"), 2, 3)
    for player in state.players:
        general = player.lines[1][2]
        assert general is not None and general.general and general.card == player.general
        assert len(player.hand) + len(player.deck) == 50
        assert len(player.decklist) == 50
    # the first player's turn has begun: its draw phase drew one more card
    assert state.active == 0 and state.phase == "placement"
    assert len(state.players[0].hand) == 8 and len(state.players[1].hand) == 7
    assert state.players[0].gold == 5 and state.players[1].gold == 0


# ---- Phase de pioche -----------------------------------------------------------------------


def _to_next_turn(state: State) -> tuple[State, list[Event]]:
    """The active seat ends its phases; windows are passed; the next turn begins."""
    events: list[Event] = []
    while True:
        seat, decision = next(iter(g.pending(state).items()))
        if decision.kind == "discard":
            move = f"discard {state.players[seat].hand[0]}"
        else:
            move = "pass" if state.window is not None else "next"
        state, evs = act(state, move)
        events += evs
        if "turn" in kinds(evs):
            return state, events


def test_draw_phase_draws_one_card_and_pays_five_gold_per_reserve() -> None:
    """« Piochez une carte de votre réserve. » « Recevez 5 pièces d'or par
    réserves d'or que vous disposez. » (L2: one reserve at the start, places
    add more; Producteur +1 per turn; gold carries over.)"""
    state = scenario(
        board=({}, {"p1": "mine-d-or", "p2": "paysan"}),
        hands=("", "milicien"),
        decks=(None, "archer fantassin"),
        gold=(0, 3),
        phase="attack",
    )
    state, events = _to_next_turn(state)
    bob = state.players[1]
    assert state.active == 1
    assert bob.hand == ("milicien", "archer") and bob.deck == ("fantassin",)
    assert bob.gold == 3 + 2 * 5 + 1
    assert first(events, "gold").data["amount"] == 11


def test_an_empty_deck_draws_nothing() -> None:
    state = scenario(hands=("", "milicien"), decks=(None, ""), phase="attack")
    state, events = _to_next_turn(state)
    assert state.players[1].hand == ("milicien",)
    assert "draw" not in kinds(events[kinds(events).index("turn") :])


# ---- Phase de placement --------------------------------------------------------------------


@pytest.mark.parametrize(("where", "cost"), [("p1", 3), ("a1", 5), ("f1", 7)])
def test_placement_costs_by_line(where: str, cost: int) -> None:
    """« Jouez des cartes depuis votre main sur le champ de bataille, arrive
    sur la plaine. » « Vous pouvez payer 2 pièces d'or supplémentaire pour le
    faire arriver à l'arrière ligne ou 4 pièces d'or supplémentaire pour la
    première ligne. Il garde son mal d'invoque. »"""
    state = scenario(hands=("fantassin", ""), gold=(10, 0))
    state, _ = act(state, f"play fantassin {where}")
    assert state.players[0].gold == 10 - cost
    piece = at(state, f"1{where}")
    assert piece is not None and piece.card == "fantassin" and piece.sick


def test_placement_refused_without_the_gold() -> None:
    state = scenario(hands=("fantassin", ""), gold=(6, 0))
    refused(state, "play fantassin f1", error=IllegalAction)
    assert "play fantassin a1" in legal(state)


def test_deplacement_arrives_anywhere_at_no_extra_cost() -> None:
    """« Déplacement : Permet d'arriver n'importe où sur n'importe quelle ligne
    de votre armée. »"""
    state = scenario(hands=("eclaireur", ""), gold=(3, 0))
    state, _ = act(state, "play eclaireur f2")
    assert state.players[0].gold == 0


def test_first_round_second_player_places_anywhere_for_free() -> None:
    """« Note au premier tour les joueurs à jouer en second peuvent placer les
    unités où ils le souhaitent sur le champ de bataille. » (L7: for free)"""
    state = scenario(hands=("", "fantassin"), gold=(0, 3), active=1, first_round=True, turn=2)
    state, _ = act(state, "play fantassin f3")
    assert state.players[1].gold == 0
    paying = scenario(
        hands=("", "fantassin"),
        gold=(0, 3),
        active=1,
        first_round=True,
        turn=2,
        opts="first_turn_placement=anywhere",
    )
    refused(paying, "play fantassin f3", error=IllegalAction)


def test_the_first_round_has_no_attack_phase() -> None:
    """« A noté : le premier tour n'est qu'une phase de pose, pas de combat au
    premier tour. »"""
    state = scenario(
        board=({"f1": "fantassin"}, {"f1": "fantassin"}), hands=("", ""), first_round=True, turn=1
    )
    state, events = act(state, "next")
    state, more = pass_all(state)
    assert state.active == 1 and state.phase == "placement"
    assert "phase" not in kinds(events + more)


# ---- Combat: the range case tables (L4), both ways -----------------------------------------

MELEE = "fantassin"
TIR = "archer"
ART = "catapulte"


def _attack_legal(
    attacker: str,
    a_at: str,
    t_at: str,
    extra0: dict[str, str] | None = None,
    extra1: dict[str, str] | None = None,
    seat: int = 0,
) -> bool:
    """Is ``attack <a_at> <other seat><t_at>`` legal for ``seat``, with a
    Milicien as the target and ``extra`` pieces on each side?"""
    mine = {a_at: attacker, **(extra0 or {})}
    theirs = {t_at: "milicien", **(extra1 or {})}
    board = (mine, theirs) if seat == 0 else (theirs, mine)
    state = scenario(board=board, generals=(None, None), phase="attack", active=seat)
    return f"attack {a_at} {2 - seat}{t_at}" in legal(state, seat)


@pytest.mark.parametrize("seat", [0, 1])
def test_melee_case_1_front_to_front(seat: int) -> None:
    """« Cas 1 : Votre unité est sur la ligne de front, l'unité ennemie est
    également sur la ligne de front. »"""
    assert _attack_legal(MELEE, "f1", "f3", seat=seat)


@pytest.mark.parametrize("seat", [0, 1])
def test_melee_case_2_front_to_back_only_if_the_enemy_front_is_empty(seat: int) -> None:
    """« Cas 2 : Votre unité est sur la ligne de front, l'unité ennemie est sur
    la ligne arrière, et aucune unité ennemie sur la ligne de front. »"""
    assert _attack_legal(MELEE, "f1", "a2", seat=seat)
    assert not _attack_legal(MELEE, "f1", "a2", extra1={"f5": "paysan"}, seat=seat)


@pytest.mark.parametrize("seat", [0, 1])
def test_melee_case_3_back_to_front_only_if_your_front_is_empty(seat: int) -> None:
    """« Cas 3 : Votre unité est sur la ligne arrière, l'unité ennemie est sur
    la ligne de front, et aucune unité alliée sur votre ligne de front. »"""
    assert _attack_legal(MELEE, "a1", "f2", seat=seat)
    assert not _attack_legal(MELEE, "a1", "f2", extra0={"f5": "paysan"}, seat=seat)


@pytest.mark.parametrize("seat", [0, 1])
def test_melee_case_4_back_to_back_only_if_both_fronts_are_empty(seat: int) -> None:
    """« Cas 4 : Votre unité est sur la ligne arrière, l'unité ennemie est sur
    la ligne arrière, et aucune unité sur les lignes de front. »"""
    assert _attack_legal(MELEE, "a1", "a2", seat=seat)
    assert not _attack_legal(MELEE, "a1", "a2", extra0={"f5": "paysan"}, seat=seat)
    assert not _attack_legal(MELEE, "a1", "a2", extra1={"f5": "paysan"}, seat=seat)


@pytest.mark.parametrize("seat", [0, 1])
@pytest.mark.parametrize(("a_at", "t_at"), [("p1", "f1"), ("p1", "p1"), ("f1", "p1"), ("a1", "p1")])
def test_melee_every_other_case_is_impossible(seat: int, a_at: str, t_at: str) -> None:
    """« Dans tous les autres cas, l'attaque ou la riposte est impossible. »"""
    assert not _attack_legal(MELEE, a_at, t_at, seat=seat)


@pytest.mark.parametrize("seat", [0, 1])
def test_tir_case_1_back_to_front(seat: int) -> None:
    """« Cas 1 : Votre unité avec le tir est sur la ligne arrière, l'unité
    ennemie est sur la ligne de front. » (even with an ally on your front)"""
    assert _attack_legal(TIR, "a1", "f2", extra0={"f5": "paysan"}, seat=seat)


@pytest.mark.parametrize("seat", [0, 1])
def test_tir_case_2_front_to_back_or_front(seat: int) -> None:
    """« Cas 2 : Votre unité est sur la ligne de front, l'unité ennemie est sur
    la ligne arrière ou sur la ligne de front. »"""
    assert _attack_legal(TIR, "f1", "f2", seat=seat)
    assert _attack_legal(TIR, "f1", "a2", extra1={"f5": "paysan"}, seat=seat)


@pytest.mark.parametrize("seat", [0, 1])
@pytest.mark.parametrize(("a_at", "t_at"), [("a1", "a1"), ("p1", "f1"), ("f1", "p1"), ("a1", "p2")])
def test_tir_every_other_case_is_impossible(seat: int, a_at: str, t_at: str) -> None:
    """« Pour tous les autres cas, l'attaque ou la riposte est impossible. »"""
    assert not _attack_legal(TIR, a_at, t_at, seat=seat)


@pytest.mark.parametrize("seat", [0, 1])
def test_artillerie_case_1_plaine_to_front(seat: int) -> None:
    """« Cas 1 : Votre unité est sur la ligne de plaine, l'unité ennemie est
    sur la ligne de front. »"""
    assert _attack_legal(ART, "p1", "f2", seat=seat)


@pytest.mark.parametrize("seat", [0, 1])
def test_artillerie_case_2_back_to_back_if_the_enemy_front_is_empty(seat: int) -> None:
    """« Cas 2 : Votre unité est sur la ligne arrière, l'unité ennemie est sur
    la ligne arrière, et aucune unité ennemie sur la ligne de front. »"""
    assert _attack_legal(ART, "a1", "a2", extra0={"f5": "paysan"}, seat=seat)
    assert not _attack_legal(ART, "a1", "a2", extra1={"f5": "paysan"}, seat=seat)


@pytest.mark.parametrize("seat", [0, 1])
@pytest.mark.parametrize("t_at", ["p2", "a2", "f2"])
def test_artillerie_case_3_front_to_any_line(seat: int, t_at: str) -> None:
    """« Cas 3 : Votre unité est sur la ligne de front, l'unité ennemie est sur
    n'importe quelle ligne. »"""
    assert _attack_legal(ART, "f1", t_at, extra1={"f5": "paysan"}, seat=seat)


@pytest.mark.parametrize("seat", [0, 1])
@pytest.mark.parametrize(("a_at", "t_at"), [("a1", "f1"), ("p1", "a1"), ("p1", "p1"), ("a1", "p1")])
def test_artillerie_every_other_case_is_impossible(seat: int, a_at: str, t_at: str) -> None:
    """« Pour tous les autres cas, l'attaque ou la riposte est impossible. »
    (L4: artillery on the back line cannot hit the enemy front.)"""
    assert not _attack_legal(ART, a_at, t_at, seat=seat)


def test_out_of_range_is_refused_with_its_reason() -> None:
    state = scenario(board=({"a1": MELEE, "f5": "paysan"}, {"f2": "milicien"}), phase="attack")
    refused(state, "attack a1 2f2", error=IllegalAction, match="out of range")


def test_the_riposte_follows_the_tables_too() -> None:
    """« Dans tous les autres cas, l'attaque ou la riposte est impossible. »:
    a Catapulte on the plaine strikes the front; the unit there cannot strike
    back at the plaine (front → plaine is no melee case)."""
    state = scenario(board=({"p1": ART}, {"f2": "fantassin"}), phase="attack")
    state, _events = act(state, "attack p1 2f2")
    assert at(state, "1p1").damage == 0  # type: ignore[union-attr]
    assert at(state, "2f2") is None  # 5 damage on 4 PV
    # a Fantassin at the front strikes an Archer on the back line (case 2): the
    # archer strikes back (Tir case 1: back line → front)
    state = scenario(board=({"f1": "fantassin"}, {"a2": TIR}), phase="attack")
    state, _events = act(state, "attack f1 2a2")
    assert at(state, "1f1").damage == 2  # type: ignore[union-attr]


# ---- Résolution: the seed's example --------------------------------------------------------

UNIT_A = Card(id="unite-a", type="unite", gold=1, force=8, pv=10)
UNIT_B = Card(id="unite-b", type="unite", gold=1, force=3, pv=8)


def test_the_a_b_example() -> None:
    """« Unité A inflige 8 points de dégât à l'ennemi et perd 3 points de vie.
    VS Unité B inflige 3 points de dégât à l'ennemi et perd 8 points de vie.
    Résultat : L'Unité A reste sur le champ de bataille avec 7 points de vie
    pour les tours suivants. L'Unité B est mise au cimetière. »"""
    state = scenario(
        board=({"f1": "unite-a"}, {"f1": "unite-b"}),
        phase="attack",
        extra_cards=(UNIT_A, UNIT_B),
    )
    state, events = act(state, "attack f1 2f1")
    a = at(state, "1f1")
    assert a is not None and 10 - a.damage == 7
    assert at(state, "2f1") is None and "unite-b" in state.players[1].graveyard
    # « Gagnez des points de foi pour chaque unité ennemie éliminée. »
    assert state.players[0].faith == 1
    # « un point de victoire par PV retiré aux unités adverses »: 8 and 3
    assert state.players[0].vp == 8 and state.players[1].vp == 3
    strikes = [e for e in events if e.kind == "strike"]
    assert {(e.data["dealer"], e.data["damage"]) for e in strikes} == {
        ("unite-a", 8),
        ("unite-b", 3),
    }
    # « Les dégâts sont permanents »: still 7 PV on the next turn
    state, _ = _to_next_turn(state)
    assert 10 - at(state, "1f1").damage == 7  # type: ignore[union-attr]


def test_a_unit_that_counter_attacked_cannot_again_this_turn() -> None:
    """« Attention : Une unité qui a fait une contre-attaque ne peut pas en
    faire avant la fin du tour. »"""
    state = scenario(
        board=({"f1": "fantassin", "f2": "fantassin"}, {"f1": "porte-bouclier"}),
        phase="attack",
    )
    state, _ = act(state, "attack f1 2f1")
    assert at(state, "1f1").damage == 2  # type: ignore[union-attr]
    state, _ = act(state, "attack f2 2f1")
    assert at(state, "1f2").damage == 0  # type: ignore[union-attr]


# ---- Fin de partie: the order of the victories ---------------------------------------------


def test_a_general_killed_ends_the_game() -> None:
    """« Tuer le général adverse. »"""
    state = scenario(
        board=({"f1": "fantassin"}, {}),
        generals=("a3", "f3"),
        general_damage=(0, 17),
        phase="attack",
    )
    state, _events = act(state, "attack f1 2f3")
    outcome = g.outcome(state)
    assert outcome is not None and outcome.reason == "general" and outcome.winner == 0


@pytest.mark.parametrize(
    ("faith", "vp", "gold", "reason"),
    [
        ((20, 0), (40, 0), (60, 0), "faith"),
        ((0, 0), (40, 0), (60, 0), "vp"),
        ((0, 0), (0, 0), (60, 0), "gold"),
    ],
)
def test_victories_are_checked_in_order_faith_vp_gold(
    faith: tuple[int, int], vp: tuple[int, int], gold: tuple[int, int], reason: str
) -> None:
    """« 20 points de foi dans la réserve » « 40 points de victoire » « 60
    pièces d'or en réserve »: checked after every action; when several are
    reached at once, faith, then victory points, then gold (documented
    order)."""
    state = scenario(faith=faith, vp=vp, gold=gold)
    state, _ = act(state, "next")
    outcome = g.outcome(state)
    assert outcome is not None and outcome.reason == reason and outcome.winner == 0


def test_the_general_comes_before_the_other_victories() -> None:
    """Killing the general and reaching a threshold in the same action: the
    general's death decides (and the killer wins)."""
    state = scenario(
        board=({"f1": "fantassin"}, {}),
        generals=("a3", "f3"),
        general_damage=(0, 17),
        faith=(0, 25),
        phase="attack",
    )
    state, _ = act(state, "attack f1 2f3")
    outcome = g.outcome(state)
    assert outcome is not None and (outcome.reason, outcome.winner) == ("general", 0)


def test_the_acting_seat_wins_first_when_two_reach_a_threshold() -> None:
    state = scenario(faith=(20, 20))
    state, _ = act_as(state, 0, "next")
    assert g.outcome(state).winner == 0  # type: ignore[union-attr]


# ---- Response windows, blocks, Loyauté -----------------------------------------------------


def test_the_attacked_player_may_play_an_ephemere_in_the_attack_window() -> None:
    """« les éphémères (pouvant être lancés durant le tour de l'adversaire) »:
    the attack window names the attacked seat, which may cast Éclair."""
    state = scenario(
        board=({"f1": "fantassin"}, {"f2": "milicien"}),
        hands=("", "eclair"),
        gold=(0, 4),
        faith=(0, 1),
        phase="attack",
    )
    state, _ = act(state, "attack f1 2f2")
    assert {s: d.kind for s, d in g.pending(state).items()} == {1: "react"}
    assert legal(state, 1) == {"play eclair 1f1", "pass"}
    state, events = act(state, "play eclair 1f1")
    # Éclair's 3 damage, then the combat: the Milicien's riposte finishes the Fantassin
    assert at(state, "1f1") is None and at(state, "2f2") is None
    assert kinds(events)[:2] == ["play", "strike"]


def test_a_window_with_nothing_possible_is_skipped_without_asking() -> None:
    state = scenario(
        board=({"f1": "fantassin"}, {"f2": "milicien"}), hands=("", ""), phase="attack"
    )
    state, events = act(state, "attack f1 2f2")
    assert g.pending(state) == {0: g.pending(state)[0]} and state.window is None
    assert "strike" in kinds(events)


def test_the_defender_blocks_with_a_unit_that_can_fight_the_attacker() -> None:
    """« Les attaques peuvent être bloquées par des cartes des unités
    adverses. » (L5: a unit that can legally fight the attacker)"""
    state = scenario(
        board=({"f1": "fantassin"}, {"f2": "milicien", "f3": "sergent", "p1": "paysan"}),
        hands=("", ""),
        phase="attack",
    )
    state, _ = act(state, "attack f1 2f2")
    assert legal(state, 1) == {"block f3", "pass"}  # the Paysan on the plaine is out of range
    state, _ = act(state, "block f3")
    sergent = at(state, "2f3")
    assert at(state, "2f2") is not None and sergent is not None and sergent.damage == 3
    # the Sergent strikes back with 3 + 1 (Regroupement: the Milicien beside it)
    assert at(state, "1f1") is None


def test_loyalty_protects_the_line_and_the_defender_chooses_among_loyal_units() -> None:
    """« Loyauté : Tant qu'une unité possède loyauté, il est impossible à
    l'adversaire de combattre d'autres troupes sur la ligne, ou sur les lignes
    arrière. Si plusieurs unités ont loyauté le défenseur choisit laquelle est
    attaquée en premier. »"""
    state = scenario(
        board=({"f1": "catapulte"}, {"f2": "porte-bouclier", "f3": "milicien", "a1": "archer"}),
        hands=("", ""),
        phase="attack",
    )
    assert {a for a in legal(state) if a.startswith("attack")} == {"attack f1 2f2"}
    two = scenario(
        board=({"f1": "fantassin"}, {"f2": "porte-bouclier", "f4": "porte-bouclier"}),
        hands=("", ""),
        phase="attack",
    )
    two, _ = act(two, "attack f1 2f2")
    assert g.pending(two)[1].kind == "loyalty" and legal(two, 1) == {"guard f2", "guard f4"}
    two, _ = act(two, "guard f4")
    two, _ = pass_all(two)
    assert at(two, "2f4").damage == 1 and at(two, "2f2").damage == 0  # type: ignore[union-attr]


def test_an_object_of_a_dead_unit_may_be_taken_back_paying_its_cost() -> None:
    """« Quand une unité meurt, on peut récupérer l'objet en payant son coût
    en pièces d'or, sinon il va au cimetière. »"""
    state = scenario(
        board=({"f1": "chevalier"}, {"f2": "milicien eq=epee-runique"}),
        hands=("", ""),
        gold=(0, 5),
        phase="attack",
    )
    state, _ = act(state, "attack f1 2f2")
    assert g.pending(state)[1].kind == "reclaim"
    kept, _ = act(state, "reclaim")
    assert kept.players[1].hand == ("epee-runique",) and kept.players[1].gold == 4
    lost, _ = act(state, "pass")
    assert lost.players[1].graveyard[-1] == "epee-runique" and lost.players[1].gold == 5


# ---- Views ----------------------------------------------------------------------------------


def test_a_state_sampled_from_a_view_shows_the_same_view() -> None:
    """Search bots rebuild states from their view: ``view(sample_state(v, k),
    v.observer) == v`` (hands and deck orders drawn from the unseen cards)."""
    from engine import rng

    state = g.setup(g.options(""), 3, 11)
    chooser = rng.seed_state(11, "sample")
    for step in range(120):
        seat = sorted(g.pending(state))[0]
        if step % 20 == 0:
            for observer in range(3):
                view = g.view(state, observer)
                for k in range(2):
                    assert g.view(g.sample_state(view, k), observer) == view
        action, chooser = rng.choice(chooser, g.legal_actions(state, seat))
        state, _ = g.apply(state, seat, action)
        if not g.pending(state):
            break


def test_poison_from_a_general_scores_no_victory_points() -> None:
    """« Note, le général ou les dieux qui infligent des blessures n'apportent
    pas de point de victoire. »: Malachie's poison wounds without VP; an
    Empoisonneuse's poison scores for its player."""
    state = scenario(
        board=({}, {"f1": "fantassin poisoned", "f2": "milicien"}),
        hands=("", ""),
        phase="attack",
    )
    by_unit, _ = _to_next_turn(state)
    assert at(by_unit, "2f1").damage == 1 and by_unit.players[0].vp == 1  # type: ignore[union-attr]
    malachie = scenario(
        general_cards=("malachie", "aldric"),
        board=({}, {"f2": "milicien"}),
        hands=("", ""),
        vp=(3, 0),
    )
    malachie, _ = act(malachie, "general 1 2f2")
    assert at(malachie, "2f2").poisoned_by == 0  # type: ignore[union-attr]
    malachie, _ = act(malachie, "next")
    malachie, _ = _to_next_turn(malachie)
    assert at(malachie, "2f2").damage == 1 and malachie.players[0].vp == 0  # type: ignore[union-attr]


def test_a_unit_that_loses_a_line_bonus_by_moving_dies_of_its_wounds() -> None:
    """Damage is permanent (L6): a Fantassin wounded 4 times lives on the
    front thanks to Remparts (+1 PV there); moved back (L3), it dies."""
    state = scenario(board=({"f1": "fantassin dmg=4", "p1": "remparts"}, {}), hands=("", ""))
    assert at(state, "1f1") is not None
    state, events = act(state, "move f1 a1")
    assert at(state, "1a1") is None and "fantassin" in state.players[0].graveyard
    assert "kill" in kinds(events)
