"""Chroniques de Liber (seed 002): one scenario per sentence of the seed.

Every test quotes, in French, the sentence it checks (the seed is not read
at run time). Keywords are in ``test_liber_keywords.py``, the range tables
in ``test_liber_range.py``, the rulings and options in
``test_liber_rulings.py``, reactions and 3-4 players in
``test_liber_reactions.py``, whole matches in ``test_liber_matches.py``.

« Ce jeu de carte est basé sur l'univers des chroniques de Liber. Vous y
incarnez un général et son armée devant faire face à d'autres combattants,
dans le principe de MTG. »
"""

from __future__ import annotations

from collections import Counter

import pytest

from engine.errors import BadOptions, IllegalAction
from engine.games.liber.deck import deck_code
from engine.games.liber.model import Card
from tests.games.liber_helpers import (
    act,
    act_as,
    all_of,
    at,
    card,
    decide,
    first,
    g,
    kinds,
    legal,
    pass_all,
    refused,
    to_next_turn,
    to_phase,
)
from tests.games.liber_helpers import scenario as base


def scenario(**kw):
    """The helpers' scenario, both seats with the starter deck (general
    Aldric: 20 PV, force 3) unless ``opts`` says otherwise."""
    kw.setdefault("opts", "decks=starter")
    return base(**kw)


BUILT = deck_code(
    "aldric",
    {
        "paysan": 4,
        "milicien": 4,
        "archer": 4,
        "fantassin": 4,
        "sergent": 4,
        "porte-bouclier": 4,
        "fanatique": 4,
        "griffon": 4,
        "catapulte": 4,
        "chevalier": 4,
        "epee-runique": 4,
        "eclair": 4,
        "mine-d-or": 2,
    },
)


# ---- Matériel --------------------------------------------------------------------------------


def test_material_a_50_card_deck_per_player_at_most_four_copies() -> None:
    """« Un deck de 50 cartes par joueur, avec un maximum de 4 cartes
    identiques. »"""
    state = g.setup(g.options(f"decks={BUILT}/{BUILT}"), 2, 5)
    for player in state.players:
        assert len(player.decklist) == 50 and len(player.hand) + len(player.deck) == 50
        assert max(Counter(player.decklist).values()) <= 4
    with pytest.raises(BadOptions):
        g.options("decks=" + BUILT.replace("archer*4", "archer*5"))
    short = BUILT.replace("+mine-d-or*2", "+mine-d-or*1")
    with pytest.raises(BadOptions):
        g.setup(g.options(f"decks={short}"), 2, 1)


def test_material_one_general_card_per_player() -> None:
    """« Une carte « général » par joueur. »"""
    state = g.setup(g.options(f"decks={BUILT}/foi"), 2, 5)
    assert [p.general for p in state.players] == ["aldric", "ysolde"]
    for player in state.players:
        generals = [p for row in player.lines for p in row if p is not None and p.general]
        assert len(generals) == 1 and generals[0].card == player.general


def test_material_a_reserve_and_a_battlefield_of_three_lines_of_five() -> None:
    """« Un espace de jeu composé d'une réserve (contenant les cartes à piocher
    et l'or), et d'un champ de bataille divisé en trois zones : plaine,
    arrière-plan, et front. Chaque ligne comporte 5 places. »"""
    state = g.setup(g.options(""), 2, 5)
    for player in state.players:
        assert len(player.lines) == 3 and all(len(row) == 5 for row in player.lines)
    view = g.view(state, 1)
    side = view.sides[0]
    assert side.deck_count == len(state.players[0].deck) and side.gold == 5
    assert view.hand == state.players[1].hand  # only one's own hand is read
    assert g.view(state, 0).hand == state.players[0].hand


# ---- Objectif --------------------------------------------------------------------------------


def test_objective_bring_the_enemy_generals_points_to_zero() -> None:
    """« Objectif : Réduire les point du général adverse à zéro. » (Général:
    « Exemple : le chiffre 20 est sont nombre de PV. »: Aldric has 20)"""
    assert card(scenario(), "aldric").pv == 20
    state = scenario(
        board=({"f1": "chevalier"}, {}),
        generals=("a3", "f3"),
        general_damage=(0, 14),
        hands=("", ""),
        phase="attack",
    )
    state, events = act(state, "attack f1 2f3")
    assert at(state, "2f3") is None and first(events, "kill").data["card"] == "aldric"
    outcome = g.outcome(state)
    assert outcome is not None and outcome.reason == "general" and outcome.ranking[0] == (0,)
    alive = scenario(
        board=({"f1": "chevalier"}, {}),
        generals=("a3", "f3"),
        general_damage=(0, 13),
        hands=("", ""),
        phase="attack",
    )
    alive, _ = act(alive, "attack f1 2f3")
    assert g.outcome(alive) is None and at(alive, "2f3").damage == 19  # type: ignore[union-attr]


# ---- Mise en place ---------------------------------------------------------------------------


def test_setup_each_player_prepares_a_deck_and_chooses_a_general() -> None:
    """« Chaque joueur prépare un deck de 50 cartes et choisit une carte
    « général ». » (the deck codes of ``Options.decks``, one per seat)"""
    tir = Counter(g.setup(g.options("decks=tir"), 2, 1).players[0].decklist)
    other = deck_code("corwin", tir)
    state = g.setup(g.options(f"decks={BUILT}/{other}"), 2, 9)
    assert state.players[0].general == "aldric" and state.players[1].general == "corwin"
    assert Counter(state.players[1].decklist) == tir


def test_setup_the_reserve_holds_the_face_down_draw_pile_gold_and_faith() -> None:
    """« Placer la réserve à gauche ou à droite, comprenant les cartes à
    piocher, face cachée), l'or et la réserve de point de foi. »"""
    state = g.setup(g.options(""), 2, 4)
    view = g.view(state, 0)
    for side, player in zip(view.sides, state.players, strict=True):
        assert side.deck_count == len(player.deck) and side.faith == 0 and side.vp == 0
    assert g.view(state, 0).sides[1].hand_count == 7 and view.hand is not None


def test_setup_the_general_stands_face_up_in_the_middle_of_the_back_line() -> None:
    """« Les joueurs placent leur général face visible au centre du champ de
    bataille sur l'arrière ligne. »"""
    state = g.setup(g.options(""), 3, 4)
    view = g.view(state, None)
    for side in view.sides:
        general = [p for p in side.pieces if p.general]
        assert [(p.place, p.card) for p in general] == [("a3", side.general)]


def test_setup_draw_seven_cards() -> None:
    """« Piocher 7 cartes que vous mettez dans votre main. » (the first
    player then draws its turn's card)"""
    for seats in (2, 3, 4):
        state = g.setup(g.options(""), seats, 2)
        assert [len(p.hand) for p in state.players] == [8] + [7] * (seats - 1)


# ---- Phase de pioche -------------------------------------------------------------------------


def test_draw_phase_draw_a_card_from_your_reserve() -> None:
    """« Piochez une carte de votre réserve. »"""
    state = scenario(hands=("", "milicien"), decks=(None, "archer paysan"), phase="attack")
    state, events = to_next_turn(state)
    assert state.players[1].hand == ("milicien", "archer")
    assert state.players[1].deck == ("paysan",)
    assert first(events, "draw").data == {"seat": 1, "count": 1}


def test_draw_phase_five_gold_per_gold_reserve_and_gold_carries_over() -> None:
    """« Recevez 5 pièces d'or par réserves d'or que vous disposez. » (L2:
    one reserve at the start; each Mine d'or adds one; gold is kept)"""
    state = scenario(board=({}, {"p1": "mine-d-or"}), hands=("", ""), gold=(0, 4), phase="attack")
    state, _ = to_next_turn(state)
    assert state.players[1].gold == 4 + 10
    assert g.view(state, 0).sides[1].reserves == 2


# ---- Phase de placement ----------------------------------------------------------------------


def test_placement_cards_from_the_hand_arrive_on_the_plaine() -> None:
    """« Jouez des cartes depuis votre main sur le champ de bataille, arrive
    sur la plaine. »"""
    state = scenario(hands=("milicien", ""), gold=(2, 0))
    assert {t for t in legal(state) if t.startswith("play")} == {
        f"play milicien p{i}" for i in range(1, 6)
    }
    state, events = act(state, "play milicien p2")
    assert at(state, "1p2").card == "milicien" and state.players[0].hand == ()  # type: ignore[union-attr]
    assert first(events, "play").data["gold"] == 2


@pytest.mark.parametrize(("where", "extra"), [("p3", 0), ("a1", 2), ("f5", 4)])
def test_placement_two_more_gold_for_the_back_line_four_for_the_front(where, extra) -> None:
    """« Vous pouvez payer 2 pièces d'or supplémentaire pour le faire arriver à
    l'arrière ligne ou 4 pièces d'or supplémentaire pour la première ligne.
    Il garde son mal d'invoque. »"""
    state = scenario(hands=("milicien", ""), gold=(10, 0))
    state, _ = act(state, f"play milicien {where}")
    assert state.players[0].gold == 10 - 2 - extra
    piece = at(state, f"1{where}")
    assert piece is not None and piece.sick
    state, _ = to_phase(state, "attack")
    assert not any(t.startswith(f"attack {where}") for t in legal(state))
    refused(state, f"attack {where} 2a3", error=IllegalAction)


def test_placement_the_summoning_sickness_ends_on_the_next_own_turn() -> None:
    state = scenario(hands=("fantassin", ""), gold=(7, 0), decks=("paysan", "paysan"))
    state, _ = act(state, "play fantassin f1")
    state, _ = to_next_turn(state)
    state, _ = to_next_turn(state)
    state, _ = to_phase(state, "attack")
    assert "attack f1 2a3" in legal(state)


# ---- Phase d'attaque -------------------------------------------------------------------------


def test_attack_phase_attacks_target_generals_or_troops() -> None:
    """« Annoncez les attaques en utilisant vos unité, ciblant les généraux
    adverses ou les troupes sur le champ de bataille. »"""
    state = scenario(board=({"f1": "archer"}, {"f2": "milicien"}), hands=("", ""), phase="attack")
    options = legal(state)
    assert {"attack f1 2f2", "attack f1 2a3"} <= options
    state, events = act(state, "attack f1 2a3")
    state, _ = pass_all(state)
    assert at(state, "2a3").damage == 2  # type: ignore[union-attr]
    assert first(events, "attack").data["cards"] == ["aldric"]


def test_attack_phase_attacks_can_be_blocked_by_enemy_units() -> None:
    """« Les attaques peuvent être bloquées par des cartes des unités
    adverse. » (L5: a unit that can legally fight the attacker)"""
    state = scenario(
        board=({"f1": "fantassin"}, {"f2": "milicien", "f4": "sergent", "p1": "paysan"}),
        hands=("", ""),
        phase="attack",
    )
    state, _ = act(state, "attack f1 2f2")
    assert decide(state) == (1, "react")
    assert legal(state) == {"block f4", "pass"}  # the plaine is out of the Fantassin's reach
    state, events = act(state, "block f4")
    assert first(events, "block").data["card"] == "sergent"
    assert at(state, "2f4").damage == 3 and at(state, "2f2").damage == 0  # type: ignore[union-attr]
    assert at(state, "1f1").damage == 3  # type: ignore[union-attr]  # the blocker struck back


def test_attack_phase_damage_and_pv_are_adjusted_for_generals_and_troops() -> None:
    """« Calculez les dégâts infligés et ajustez les points de vie des
    généraux et des troupes en conséquence. »"""
    state = scenario(
        board=({"f1": "fantassin"}, {}), generals=("a3", "f3"), hands=("", ""), phase="attack"
    )
    state, _ = act(state, "attack f1 2f3")
    assert at(state, "2f3").damage == 3 and at(state, "1f1").damage == 3  # type: ignore[union-attr]
    view = g.view(state, 0)
    general = next(p for p in view.sides[1].pieces if p.general)
    assert (general.pv, general.damage) == (20, 3)


def test_attack_phase_faith_for_each_enemy_unit_eliminated() -> None:
    """« Gagnez des points de foi pour chaque unité ennemie éliminée. »"""
    state = scenario(
        board=({"f1": "chevalier"}, {"f1": "paysan", "f2": "paysan"}),
        hands=("", ""),
        phase="attack",
    )
    state, events = act(state, "attack f1 2f1:3,2f2:3")
    state, _ = pass_all(state)
    assert state.players[0].faith == 2
    assert [e.data["cause"] for e in all_of(events, "faith")] == ["kill", "kill"]


# ---- Phase de fin de tour --------------------------------------------------------------------


def test_end_phase_discard_the_excess_cards() -> None:
    """« Défaussez les cartes excédentaires. » (L8: down to 7)"""
    hand = "paysan milicien archer fantassin sergent pretre spectre assassin griffon"
    state = scenario(hands=(hand, ""), phase="attack")
    state, _ = act(state, "next")
    state, _ = pass_all(state)
    assert g.pending(state)[0].kind == "discard" and dict(g.pending(state)[0].params)["count"] == 2
    refused(state, "next", error=IllegalAction)
    state, _ = act(state, "discard griffon")
    assert state.active == 0
    state, events = act(state, "discard paysan")
    assert state.active == 1 and len(state.players[0].hand) == 7
    assert state.players[0].graveyard == ("griffon", "paysan")
    assert kinds(events)[:2] == ["discard", "turn"]


def test_end_phase_pass_to_the_next_player() -> None:
    """« Passez au joueur suivant. »"""
    state = scenario(seats=3, hands=("", "", ""), phase="attack")
    seen = []
    for _ in range(4):
        state, _ = to_next_turn(state)
        seen.append(state.active)
    assert seen == [1, 2, 0, 1]


# ---- Premier tour ----------------------------------------------------------------------------


def test_first_turn_the_players_playing_second_place_anywhere() -> None:
    """« Note au premier tour les joueurs à jouer en second peuvent placer les
    unités où ils le souhaitent sur le champ de bataille. » (L7: for free)"""
    state = g.setup(g.options("decks=starter"), 3, 1)
    state, _ = to_next_turn(state)
    assert state.active == 1 and state.first_round
    unit = next(c for c in state.players[1].hand if card(state, c).type == "unite")
    cost = card(state, unit).gold
    state = scenario(
        seats=3, hands=("", unit, ""), gold=(0, cost, 0), active=1, first_round=True, turn=2
    )
    state, _ = act(state, f"play {unit} f3")
    assert state.players[1].gold == 0
    first_seat = scenario(hands=(unit, ""), gold=(cost, 0), first_round=True, turn=1)
    refused(first_seat, f"play {unit} f3", error=IllegalAction)


def test_first_turn_is_only_a_placement_phase_no_combat() -> None:
    """« A noté: le premier tour n'est qu'une phase de pose, pas de combat au
    premier tour. »: no attack phase in every player's first turn; the
    second round has one."""
    state = g.setup(g.options("decks=aggro/aggro"), 2, 3)
    for seat in (0, 1):
        assert state.active == seat and state.first_round
        state, events = act_as(state, seat, "next")
        state, more = pass_all(state)
        assert "phase" not in kinds(events + more)
        while decide(state)[1] == "discard":
            state, _ = act(state, f"discard {state.players[decide(state)[0]].hand[0]}")
    assert state.active == 0 and not state.first_round
    state, events = act(state, "next")
    state, more = pass_all(state)
    assert state.phase == "attack" and first(events + more, "phase").data["phase"] == "attack"


# ---- Fin de partie ---------------------------------------------------------------------------


def test_end_killing_the_enemy_general() -> None:
    """« La partie se termine lorsque l'un des joueurs a : - Tuer le général
    adverse. »"""
    state = scenario(
        board=({"a1": "archer"}, {}),
        generals=("a3", "f3"),
        general_damage=(0, 18),
        hands=("", ""),
        phase="attack",
    )
    state, events = act(state, "attack a1 2f3")
    assert first(events, "game-over").data == {
        "reason": "general",
        "winner": 0,
        "ranking": [[0], [1]],
    }


def test_end_twenty_faith_points_in_the_reserve() -> None:
    """« - 20 points de foi dans la réserve »"""
    state = scenario(
        board=({"f1": "fantassin"}, {"f1": "paysan"}), faith=(19, 0), hands=("", ""), phase="attack"
    )
    state, _ = act(state, "attack f1 2f1")
    assert state.players[0].faith == 20 and g.outcome(state).reason == "faith"  # type: ignore[union-attr]
    short = scenario(faith=(19, 0), hands=("", ""))
    short, _ = act(short, "next")
    assert g.outcome(short) is None


def test_end_forty_victory_points() -> None:
    """« - 40 points de victoire, un point de victoire par PV retirer au unité
    adverse (autre que le général). »"""
    state = scenario(
        board=({"f1": "fantassin"}, {"f1": "sergent"}), vp=(37, 0), hands=("", ""), phase="attack"
    )
    state, _ = act(state, "attack f1 2f1")
    assert state.players[0].vp == 40 and g.outcome(state).reason == "vp"  # type: ignore[union-attr]
    general = scenario(
        board=({"f1": "fantassin"}, {}),
        generals=("a3", "f3"),
        vp=(37, 0),
        hands=("", ""),
        phase="attack",
    )
    general, _ = act(general, "attack f1 2f3")
    assert general.players[0].vp == 37 and g.outcome(general) is None


def test_end_sixty_gold_in_the_reserve() -> None:
    """« - 60 pièce d'or en réserve »: reached by the draw phase's income."""
    state = scenario(gold=(0, 55), hands=("", ""), phase="attack")
    state, events = to_next_turn(state)
    outcome = g.outcome(state)
    assert outcome is not None and (outcome.reason, outcome.ranking[0]) == ("gold", (1,))
    assert first(events, "game-over").data["reason"] == "gold"


# ---- Combat: Résolution, the A/B example -----------------------------------------------------

UNIT_A = Card(id="unite-a", type="unite", gold=7, force=8, pv=10)
UNIT_B = Card(id="unite-b", type="unite", gold=7, force=3, pv=8)


@pytest.mark.parametrize("a_attacks", [True, False])
def test_resolution_the_a_b_example(a_attacks: bool) -> None:
    """« Résolution : Pour résoudre un combat, prenons un exemple : Unité A
    inflige 8 points de dégât à l'ennemi et perd 3 points de vie. VS Unité B
    inflige 3 points de dégât à l'ennemi et perd 8 points de vie. Résultat :
    L'Unité A reste sur le champ de bataille avec 7 points de vie pour les
    tours suivants. L'Unité B est mise au cimetière. » (whoever attacks)"""
    mine, theirs = ("unite-a", "unite-b") if a_attacks else ("unite-b", "unite-a")
    state = scenario(
        board=({"f1": mine}, {"f1": theirs}),
        hands=("", ""),
        phase="attack",
        extra_cards=(UNIT_A, UNIT_B),
    )
    state, events = act(state, "attack f1 2f1")
    a_at, b_at = ("1f1", "2f1") if a_attacks else ("2f1", "1f1")
    a = at(state, a_at)
    assert a is not None and a.card == "unite-a" and 10 - a.damage == 7
    assert at(state, b_at) is None
    b_owner = 1 if a_attacks else 0
    assert state.players[b_owner].graveyard == ("unite-b",)
    assert sorted(e.data["damage"] for e in all_of(events, "strike")) == [3, 8]
    for _ in range(2):  # « pour les tours suivants »
        state, _ = to_next_turn(state)
        assert 10 - at(state, a_at).damage == 7  # type: ignore[union-attr]


def test_resolution_both_can_die_simultaneously() -> None:
    """Simultaneous blows: both dealt even when both die (no Initiative)."""
    state = scenario(
        board=({"f1": "fantassin"}, {"f1": "fantassin"}), hands=("", ""), phase="attack"
    )
    state, _ = act(state, "attack f1 2f1")
    state = scenario(
        board=({"f1": "fanatique"}, {"f1": "fanatique"}), hands=("", ""), phase="attack"
    )
    state, _ = act(state, "attack f1 2f1")
    assert at(state, "1f1") is None and at(state, "2f1") is None
    assert state.players[0].faith == 1 and state.players[1].faith == 1


def test_a_unit_that_counter_attacked_cannot_again_before_the_end_of_the_turn() -> None:
    """« Attention : Une unité qui a fait une contre-attaque ne peut pas en
    faire avant la fin du tour. »: the second attack of the turn on it gets no
    riposte, and it cannot block either; the next turn it can again."""
    state = scenario(
        board=(
            {"f1": "fantassin", "f2": "fantassin", "f3": "milicien"},
            {"f1": "paladin", "f3": "paysan"},
        ),
        hands=("", ""),
        phase="attack",
    )
    state, _ = act(state, "attack f1 2f1")
    assert legal(state) == {"block f3", "pass"}
    state, _ = pass_all(state)
    assert at(state, "1f1") is None  # the Paladin's riposte: 4 on 4 PV
    assert at(state, "2f1").countered  # type: ignore[union-attr]
    state, _ = act(state, "attack f2 2f1")
    state, _ = pass_all(state)
    assert at(state, "1f2").damage == 0 and at(state, "2f1").damage == 2  # type: ignore[union-attr]
    state, _ = act(state, "attack f3 2f3")  # the Paladin may not block it
    assert state.window is None or "block f1" not in legal(state)
    state, _ = pass_all(state)
    # the next turn: seat 1's unit strikes back again
    state, _ = to_next_turn(state)
    assert not at(state, "2f1").countered  # type: ignore[union-attr]


# ---- Les points de foi -----------------------------------------------------------------------


def test_faith_one_point_when_an_enemy_creature_dies() -> None:
    """« Quand une créature ennemi meurt, vous ajouter 1 point de foi à votre
    réserve. » (by a spell too; by poison too)"""
    state = scenario(board=({}, {"f1": "paysan"}), hands=("eclair", ""), gold=(4, 0), faith=(1, 0))
    state, _ = act(state, "play eclair 2f1")
    assert state.players[0].faith == 1  # paid 1, earned 1
    poisoned = scenario(board=({}, {"f1": "martyr dmg=1 poisoned"}), hands=("", ""), phase="attack")
    poisoned, _ = to_next_turn(poisoned)
    assert at(poisoned, "2f1") is None and poisoned.players[0].faith == 1


def test_faith_a_sacrificed_creature_brings_none() -> None:
    """« Si une créature est sacrifié, elle n'apporte pas de point de foi au
    ennemi. »: a unit dying by its owner's own act (the Cotte de mailles
    moved off a wounded unit) gives nobody faith."""
    state = scenario(
        board=({"f1": "milicien dmg=4 eq=cotte-de-mailles", "f2": "fantassin"}, {}),
        hands=("", ""),
        gold=(2, 0),
    )
    state, events = act(state, "equip f1 cotte-de-mailles f2")
    assert at(state, "1f1") is None and state.players[0].graveyard == ("milicien",)
    assert [p.faith for p in state.players] == [0, 0] and "faith" not in kinds(events)


# ---- Les points de victoire ------------------------------------------------------------------


def test_vp_one_per_wound_by_a_unit() -> None:
    """« Quand une créature est blessée par une autre ou par un sort ou un
    objet, meurt, vous ajouter 1 point de victoire par blessure. »"""
    state = scenario(board=({"f1": "fantassin"}, {"f1": "sergent"}), hands=("", ""), phase="attack")
    state, events = act(state, "attack f1 2f1")
    assert [p.vp for p in state.players] == [3, 3]
    assert {e.data["vp"] for e in all_of(events, "strike")} == {3}


def test_vp_by_a_spell_and_by_an_object() -> None:
    """« ... ou par un sort ou un objet »: an Éclair's 3; a Milicien with an
    Épée runique wounds for 4."""
    state = scenario(
        board=({}, {"f1": "hallebardier"}), hands=("eclair", ""), gold=(4, 0), faith=(1, 0)
    )
    state, _ = act(state, "play eclair 2f1")
    assert state.players[0].vp == 3
    state = scenario(
        board=({"f1": "milicien eq=epee-runique"}, {"f1": "hallebardier"}),
        hands=("", ""),
        phase="attack",
    )
    state, _ = act(state, "attack f1 2f1")
    assert state.players[0].vp == 4


def test_vp_the_general_earns_none() -> None:
    """« Note, le général ou les dieux qui infligent des blessures n'apportent
    pas de point de victoires. »: Aldric's blows, Corwin's ability."""
    state = scenario(board=({}, {"f1": "hallebardier"}), hands=("", ""), phase="attack")
    state, _ = act(state, "attack a3 2f1")
    assert at(state, "2f1").damage == 3 and state.players[0].vp == 0  # type: ignore[union-attr]
    assert state.players[1].vp == 0  # nor does a riposte on a general
    corwin = scenario(
        board=({}, {"f1": "hallebardier"}),
        hands=("", ""),
        vp=(3, 0),
        generals=("a3", "a3"),
        opts="decks=tir/tir",
    )
    corwin, _ = act(corwin, "general 1 2f1")
    assert at(corwin, "2f1").damage == 2 and corwin.players[0].vp == 0  # type: ignore[union-attr]


def test_vp_poison_given_by_a_general_earns_none_but_by_a_spell_it_does() -> None:
    """« le général ... qui infligent des blessures n'apportent pas de point
    de victoires »: Malachie's poison (3 VP) wounds each turn for nothing;
    the Dague empoisonnée's poison scores for its caster."""
    state = scenario(
        board=({}, {"f1": "hallebardier"}), general_cards=("malachie", "aldric"), vp=(3, 0)
    )
    state, _ = act(state, "general 1 2f1")
    state, _ = to_next_turn(state)
    assert at(state, "2f1").damage == 1 and state.players[0].vp == 0  # type: ignore[union-attr]
    dagger = scenario(
        board=({}, {"f1": "hallebardier"}), hands=("dague-empoisonnee", ""), gold=(2, 0)
    )
    dagger, _ = act(dagger, "play dague-empoisonnee 2f1")
    dagger, _ = to_next_turn(dagger)
    assert at(dagger, "2f1").damage == 1 and dagger.players[0].vp == 1  # type: ignore[union-attr]


def test_vp_a_god_earns_none() -> None:
    """« ... ou les dieux qui infligent des blessures n'apportent pas de point
    de victoires »: no god of the pool wounds yet; the damage path marks a
    god's wound (source ``god``) and scores nothing for it, while the same
    wound by a spell scores."""
    from engine.games.liber import effects
    from tests.games.liber_helpers import ref

    state = scenario(board=({}, {"f1": "hallebardier"}))
    events: list = []
    by_god = effects.deal_damage(state, 0, ref("2f1"), 3, events, source="god")
    by_spell = effects.deal_damage(state, 0, ref("2f1"), 3, events, source="spell")
    assert at(by_god, "2f1").damage == 3 and by_god.players[0].vp == 0  # type: ignore[union-attr]
    assert by_spell.players[0].vp == 3


def test_vp_wounds_on_a_general_earn_none() -> None:
    """« un point de victoire par PV retiré aux unités adverses (autre que le
    général) »"""
    state = scenario(
        board=({"f1": "fanatique"}, {}), generals=("a3", "f3"), hands=("", ""), phase="attack"
    )
    state, _ = act(state, "attack f1 2f3")
    assert at(state, "2f3").damage == 5 and state.players[0].vp == 0  # type: ignore[union-attr]


def test_vp_capped_at_the_pv_left() -> None:
    """(L9) « 1 VP per point of damage actually dealt (capped at remaining
    PV) »: a Catapulte's 5 on a Paysan with 2 PV scores 2."""
    state = scenario(board=({"p1": "catapulte"}, {"f1": "paysan"}), hands=("", ""), phase="attack")
    state, _ = act(state, "attack p1 2f1")
    assert state.players[0].vp == 2


# ---- Les différentes cartes: Général ---------------------------------------------------------


def test_general_present_from_the_start_abilities_paid_with_victory_points() -> None:
    """« Cette unité est présente des le début en jeu. Le but étant de tuer le
    général adverse. Les capacités des généraux utiliser les points de
    victoire. » Aldric: 3 VP, one of your units +2 force this turn."""
    state = scenario(
        board=({"f1": "fantassin"}, {"f1": "hallebardier"}),
        hands=("", ""),
        vp=(5, 0),
        phase="attack",
    )
    refused(state, "general 1 2f1", error=IllegalAction)  # your own unit
    state, events = act(state, "general 1 1f1")
    assert state.players[0].vp == 2 and first(events, "general-ability").data["vp"] == 3
    refused(state, "general 1 1f1", error=IllegalAction)  # once per turn
    state, _ = act(state, "attack f1 2f1")
    assert at(state, "2f1").damage == 5  # type: ignore[union-attr]
    state, _ = to_next_turn(state)
    assert at(state, "1f1").bonus == 0  # type: ignore[union-attr]  # this turn only


def test_general_ability_refused_without_the_victory_points() -> None:
    state = scenario(board=({"f1": "fantassin"}, {}), hands=("", ""), vp=(2, 0))
    refused(state, "general 1 1f1", error=IllegalAction, match="victory point")


def test_general_ability_alternatives_ysolde() -> None:
    """Ysolde: 4 VP, heal 3 or gain 1 faith (a general's effects are
    alternatives, chosen by number)."""
    state = scenario(
        board=({"f1": "hallebardier dmg=4"}, {}), hands=("", ""), vp=(8, 0), opts="decks=foi/foi"
    )
    assert {"general 1 1f1", "general 2"} <= legal(state)
    healed, _ = act(state, "general 1 1f1")
    assert at(healed, "1f1").damage == 1 and healed.players[0].vp == 4  # type: ignore[union-attr]
    faith, _ = act(state, "general 2")
    assert faith.players[0].faith == 1 and faith.players[0].vp == 4
    refused(faith, "general 1 1f1", error=IllegalAction)


# ---- Unité -----------------------------------------------------------------------------------


def test_unit_summoned_with_gold_attacks_and_defends() -> None:
    """« Les unités sont invoqués avec les pièces d'or. Elle servent à attaque
    et à se défendre. Exemple : 8 (Force) – 7 (coût en pièces) – 8(PV) »"""
    eight = Card(id="unite-huit", type="unite", gold=7, force=8, pv=8)
    state = scenario(hands=("unite-huit", ""), gold=(6, 0), extra_cards=(eight,))
    refused(state, "play unite-huit p1", error=IllegalAction, match="gold|cost")
    state = scenario(hands=("unite-huit", ""), gold=(7, 0), extra_cards=(eight,))
    state, _ = act(state, "play unite-huit p1")
    piece = g.view(state, 0).sides[0].pieces
    assert [(p.card, p.force, p.pv) for p in piece if not p.general] == [("unite-huit", 8, 8)]


# ---- Objets ----------------------------------------------------------------------------------


def test_objects_equip_units() -> None:
    """« Les objets peuvent équipés les unités. » « Exemple : 1 (coût en
    pièces) »: the Épée runique (1 gold) gives +2 force."""
    state = scenario(board=({"f1": "milicien"}, {}), hands=("epee-runique", ""), gold=(1, 0))
    refused(state, "play epee-runique a3", error=IllegalAction)  # not the general
    state, _ = act(state, "play epee-runique f1")
    assert at(state, "1f1").equipment == ("epee-runique",) and state.players[0].gold == 0  # type: ignore[union-attr]
    force = next(p.force for p in g.view(state, 0).sides[0].pieces if p.place == "f1")
    assert force == 4


@pytest.mark.parametrize("take_back", [True, False])
def test_objects_reclaimed_paying_their_cost_or_to_the_graveyard(take_back: bool) -> None:
    """« Quand une unité meurt, on peut récupérer l'objet en payant son coût en
    pièces d'or, sinon il va au cimetière. »"""
    state = scenario(
        board=({"f1": "milicien eq=epee-runique"}, {"f1": "chevalier"}),
        hands=("", ""),
        gold=(3, 0),
        active=1,
        phase="attack",
    )
    state, _ = act(state, "attack f1 1f1")
    assert g.pending(state)[0].kind == "reclaim"
    assert legal(state, 0) == {"reclaim", "pass"}
    state, events = act(state, "reclaim" if take_back else "pass")
    alice = state.players[0]
    assert ("reclaim" in kinds(events)) is take_back
    if take_back:
        assert alice.hand == ("epee-runique",) and alice.gold == 2
        assert alice.graveyard == ("milicien",)
    else:
        assert alice.hand == () and alice.gold == 3
        assert alice.graveyard == ("milicien", "epee-runique")
    assert g.pending(state)[1].kind == "attack"


def test_objects_without_the_gold_go_to_the_graveyard_unasked() -> None:
    state = scenario(
        board=({"f1": "milicien eq=cotte-de-mailles"}, {"f1": "chevalier"}),
        hands=("", ""),
        gold=(1, 0),
        active=1,
        phase="attack",
    )
    state, _ = act(state, "attack f1 1f1")
    assert state.window is None and 0 not in g.pending(state)
    assert state.players[0].graveyard == ("milicien", "cotte-de-mailles")


def test_objects_moved_to_another_unit_paying_their_cost() -> None:
    """« On peut aussi le changer d'unité sur le champ de bataille en payant
    sont coût en pièces d'or. »"""
    state = scenario(
        board=({"f1": "milicien eq=epee-runique", "f2": "fantassin"}, {}),
        hands=("", ""),
        gold=(1, 0),
    )
    state, events = act(state, "equip f1 epee-runique f2")
    assert at(state, "1f2").equipment == ("epee-runique",) and at(state, "1f1").equipment == ()  # type: ignore[union-attr]
    assert state.players[0].gold == 0 and first(events, "equip").data["gold"] == 1
    poor = scenario(
        board=({"f1": "milicien eq=epee-runique", "f2": "fantassin"}, {}),
        hands=("", ""),
        gold=(0, 0),
    )
    refused(poor, "equip f1 epee-runique f2", error=IllegalAction)


# ---- Sorts -----------------------------------------------------------------------------------


def test_spells_rituel_on_your_turn_immediately() -> None:
    """« Les sorts permettent d'effectuer des effets. Il existe plusieurs types
    de sorts, les rituels, ... »: Pluie de flèches, 2 damage now; not in a
    window of the opponent's turn."""
    state = scenario(
        board=({}, {"f1": "hallebardier"}), hands=("pluie-de-fleches", ""), gold=(2, 0)
    )
    state, _ = act(state, "play pluie-de-fleches 2f1")
    assert at(state, "2f1").damage == 2 and state.players[0].graveyard == ("pluie-de-fleches",)  # type: ignore[union-attr]
    other = scenario(
        board=({"f1": "fantassin"}, {"f1": "hallebardier", "f2": "sergent"}),
        hands=("", "pluie-de-fleches"),
        gold=(0, 2),
        phase="attack",
    )
    other, _ = act(other, "attack f1 2f1")
    assert decide(other) == (1, "react")
    assert not any(t.startswith("play") for t in legal(other))


def test_spells_enchantement_placed_on_the_plaine_lasts() -> None:
    """« ... les enchantements, se plaçant dans la plaine, (qui durent dans le
    temps) »: Bénédiction, your units +1 PV while it stays."""
    state = scenario(board=({"f1": "milicien"}, {}), hands=("benediction", ""), gold=(3, 0))
    refused(state, "play benediction a1", error=IllegalAction)
    state, _ = act(state, "play benediction p2")
    assert at(state, "1p2").fixture  # type: ignore[union-attr]
    for _ in range(2):
        pv = next(p.pv for p in g.view(state, 0).sides[0].pieces if p.place == "f1")
        assert pv == 4
        state, _ = to_next_turn(state)


def test_spells_ephemere_cast_during_the_opponents_turn() -> None:
    """« ... et les éphémères (pouvant être lancer durant le tour de
    l'adversaire. »: Éclair (« Exemple : 4 (coût en pièce), Le 1 est le coût
    en point de foi. ») in the attack window."""
    eclair = card(scenario(), "eclair")
    assert (eclair.gold, eclair.faith) == (4, 1)
    state = scenario(
        board=({"f1": "fantassin"}, {"f1": "hallebardier"}),
        hands=("", "eclair"),
        gold=(0, 4),
        faith=(0, 1),
        phase="attack",
    )
    state, _ = act(state, "attack f1 2f1")
    assert decide(state) == (1, "react") and "play eclair 1f1" in legal(state)
    state, events = act(state, "play eclair 1f1")
    # then the attack resolves: the Fantassin, wounded 3, dies of the riposte
    assert kinds(events)[:2] == ["play", "strike"] and at(state, "1f1") is None
    assert at(state, "2f1").damage == 3  # type: ignore[union-attr]
    bob = state.players[1]
    assert (bob.gold, bob.faith, bob.vp) == (0, 1, 3 + 1)


# ---- Lieu ------------------------------------------------------------------------------------


def test_places_bring_resources_on_the_plaine_and_cannot_move() -> None:
    """« Les lieux apportent des ressources ou des compétences à votre champ de
    batailles. Ils se placent en plaine est ne peut être déplacer. »"""
    state = scenario(hands=("mine-d-or", ""), gold=(12, 0))
    refused(state, "play mine-d-or a1", error=IllegalAction)
    state, _ = act(state, "play mine-d-or p1")
    assert not any(t.startswith("move p1") for t in legal(state))
    refused(state, "move p1 a1", error=IllegalAction)
    assert g.view(state, 0).sides[0].income == 10


def test_places_autel_faith_when_one_of_your_units_dies() -> None:
    state = scenario(
        board=({"f1": "fanatique"}, {"f1": "paysan", "p1": "autel"}), hands=("", ""), phase="attack"
    )
    state, _ = act(state, "attack f1 2f1")
    assert [p.faith for p in state.players] == [1, 1]


# ---- Dieu ------------------------------------------------------------------------------------


def test_gods_one_per_player_paid_with_faith_beside_the_battlefield() -> None:
    """« Les dieux modifient la façon de jouer. On ne peut invoquer qu'un dieu
    par joueur, grâce aux points de foi. Il se place à côté du champ de
    bataille. Exemple : 10 est le coût en point de foi. »"""
    state = scenario(
        hands=("dieu-de-la-guerre deesse-de-la-lumiere", ""), faith=(9, 0), gold=(20, 0)
    )
    refused(state, "play dieu-de-la-guerre", error=IllegalAction)
    state = scenario(
        hands=("dieu-de-la-guerre deesse-de-la-lumiere", ""), faith=(18, 0), gold=(20, 0)
    )
    state, _ = act(state, "play dieu-de-la-guerre")
    player = state.players[0]
    assert player.god == "dieu-de-la-guerre" and player.faith == 8 and player.gold == 20
    assert all(p is None or p.general for row in player.lines for p in row)
    refused(state, "play deesse-de-la-lumiere", error=IllegalAction, match="god")


# ---- Token -----------------------------------------------------------------------------------


def test_tokens_generated_by_other_cards_arrive_on_the_plaine() -> None:
    """« Les tokens sont générés par d'autres cartes. Ils arrivent sur le champ
    de bataille en plaine. Exemple : 5 (force) – 1 (PV) »"""
    state = scenario(hands=("appel-des-ombres", ""), gold=(4, 0), board=({"p1": "paysan"}, {}))
    state, events = act(state, "play appel-des-ombres")
    assert [e.data["place"] for e in all_of(events, "token")] == [[0, 0, 1], [0, 0, 2]]
    assert at(state, "1p2").card == "ombre" and at(state, "1p3").card == "ombre"  # type: ignore[union-attr]
    squelette = card(state, "squelette")
    assert (squelette.type, squelette.force, squelette.pv) == ("token", 5, 1)


# ---- Faveur ----------------------------------------------------------------------------------


def test_favours_generated_by_gods_on_the_plaine_several_not_moved() -> None:
    """« Les faveurs sont généré par les dieux. Elles sont placé sur le champ de
    bataille en plaine. Elles ne peuvent être déplacer. Vous pouvez avoir
    plusieurs faveurs. »"""
    state = scenario(hands=("", ""), gods=("dieu-de-la-guerre", ""), phase="attack", active=1)
    for expected in (1, 2):
        state, events = to_next_turn(state)
        assert state.active == 0 and first(events, "favour").data["card"] == "faveur-de-la-guerre"
        favours = [p for p in state.players[0].lines[0] if p is not None]
        assert len(favours) == expected and all(p.fixture for p in favours)
        assert not any(t.startswith("move p") for t in legal(state))
        state, _ = to_next_turn(state)


def test_favour_of_the_war_god_gives_the_front_one_force() -> None:
    state = scenario(
        board=({"f1": "fantassin", "p1": "faveur-de-la-guerre"}, {"f1": "hallebardier"}),
        hands=("", ""),
        phase="attack",
    )
    state, _ = act(state, "attack f1 2f1")
    assert at(state, "2f1").damage == 4  # type: ignore[union-attr]
