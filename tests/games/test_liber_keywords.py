"""Chroniques de Liber (seed 002): the 24 keywords, one scenario each.

Each test quotes the keyword's sentence of the seed (in French) and plays
the same situation twice: with the card as printed, then with the keyword
removed from the card (``without``: the pool entry without it, as setup
turns it into rules), and asserts a different outcome, so that each test
fails if the keyword stops working. Then the two rules that cover every
keyword: once per turn, and the same effect never stacks; and the
attacker's abilities first (« Les capacités de l'unité attaquante est
prioritaire sur celle défensive »).
"""

from __future__ import annotations

from dataclasses import replace as dc_replace

import pytest

from engine.errors import IllegalAction
from engine.games.liber.data import KEYWORDS
from tests.games.liber_helpers import (
    act,
    at,
    decide,
    first,
    g,
    kinds,
    known_hands,
    legal,
    pass_all,
    refused,
    scenario,
    to_next_turn,
    to_phase,
    without,
)


def test_the_seed_lists_24_keywords_and_each_has_a_test_here() -> None:
    names = {
        name.removeprefix("test_").split("_")[0].replace("-", "_")
        for name in globals()
        if name.startswith("test_")
    }
    assert len(KEYWORDS) == 24
    for kw in KEYWORDS:
        assert kw.replace("-", "_").split("_")[0] in names, kw


def _attack_again(state, text):
    state, events = act(state, text)
    state, more = pass_all(state)
    return state, events + more


def _attack(board, text, *, strip=None, hands=("", ""), **kw):
    """Play ``text`` in seat 0's attack phase (seat 1 has nothing to react
    with), with ``strip = (card, keyword)`` removed when given."""
    state = scenario(board=board, hands=hands, phase="attack", **kw)
    if strip is not None:
        state = without(state, *strip)
    state, events = act(state, text)
    state, more = pass_all(state)
    return state, events + more


# ---- Armure --------------------------------------------------------------------------------


@pytest.mark.parametrize("strip", [False, True])
def test_armure_takes_two_off_each_hit(strip: bool) -> None:
    """« Armure : Permet de réduire les dégâts subit de 2 points, ne peut être
    cumulable. »"""
    state, _ = _attack(
        ({"f1": "fantassin"}, {"f1": "porte-bouclier"}),
        "attack f1 2f1",
        strip=("porte-bouclier", "armure") if strip else None,
    )
    assert at(state, "2f1").damage == (3 if strip else 1)  # type: ignore[union-attr]


def test_armure_applies_to_spell_damage_too_but_not_to_poison() -> None:
    """« réduire les dégâts subis de 2 points »: every hit (an Éclair of 3
    leaves 1); poison is a loss of PV, not a hit."""
    state = scenario(
        board=({}, {"f1": "porte-bouclier poisoned"}),
        hands=("eclair", ""),
        gold=(4, 0),
        faith=(1, 0),
    )
    state, _ = act(state, "play eclair 2f1")
    assert at(state, "2f1").damage == 1  # type: ignore[union-attr]
    state, _ = to_next_turn(state)
    assert at(state, "2f1").damage == 2  # type: ignore[union-attr]


# ---- Artillerie ------------------------------------------------------------------------------


@pytest.mark.parametrize("strip", [False, True])
def test_artillerie_strikes_the_front_from_the_plaine(strip: bool) -> None:
    """« Artillerie : Permet d'avoir une portée de trois lignes (passe par
    dessus les lignes ami ou ennemi) »: from the plaine to the enemy front
    (its case 1), which no melee case allows."""
    state = scenario(
        board=({"p1": "catapulte", "f2": "milicien"}, {"f1": "fantassin"}),
        hands=("", ""),
        phase="attack",
    )
    if strip:
        state = without(state, "catapulte", "artillerie")
        refused(state, "attack p1 2f1", error=IllegalAction, match="range")
    else:
        state, _ = act(state, "attack p1 2f1")
        assert at(state, "2f1") is None


# ---- Coup fatal ------------------------------------------------------------------------------


@pytest.mark.parametrize("strip", [False, True])
def test_coup_fatal_destroys_the_wounded_blocker_at_the_end_of_the_combat(strip: bool) -> None:
    """« Coup fatal : Détruit l'unité qui l'a bloqué, à la fin du combat, si
    cette dernière est à porter et à subit des blessures. »"""
    state = scenario(
        board=({"f1": "assassin"}, {"f1": "milicien", "f3": "sergent"}),
        hands=("", ""),
        phase="attack",
    )
    if strip:
        state = without(state, "assassin", "coup-fatal")
    state, _ = act(state, "attack f1 2f1")
    assert decide(state) == (1, "react") and "block f3" in legal(state)
    state, events = act(state, "block f3")
    if strip:
        assert at(state, "2f3").damage == 4  # type: ignore[union-attr]
    else:
        assert at(state, "2f3") is None and first(events, "kill").data["cause"] == "coup-fatal"
    assert at(state, "2f1").damage == 0  # type: ignore[union-attr]


def test_coup_fatal_spares_an_unwounded_blocker_and_needs_a_blocker() -> None:
    """« si cette dernière ... a subi des blessures »: an Armure blocker that
    takes 0 stays; a unit attacked without a block is not destroyed."""
    state = scenario(
        board=({"f1": "pillard"}, {"f1": "milicien", "f3": "paladin"}),
        hands=("", ""),
        phase="attack",
    )
    # a Pillard (force 2) with the Assassin's Coup fatal
    cards = tuple(
        dc_replace(c, keywords=(*c.keywords, "coup-fatal")) if c.id == "pillard" else c
        for c in state.cards
    )
    state = dc_replace(state, cards=cards)
    state, _ = act(state, "attack f1 2f1", "block f3")
    paladin = at(state, "2f3")
    assert paladin is not None and paladin.damage == 0
    plain = scenario(board=({"f1": "assassin"}, {"f1": "sergent"}), hands=("", ""), phase="attack")
    plain, _ = act(plain, "attack f1 2f1")
    assert at(plain, "2f1").damage == 4  # type: ignore[union-attr]


# ---- Défausse --------------------------------------------------------------------------------


@pytest.mark.parametrize("strip", [False, True])
def test_defausse_discards_a_card_for_two_gold_once_on_your_turn(strip: bool) -> None:
    """« Défausse : Défaussez-vous d'une carte ajouter 2 pièces d'or à votre
    réserve, utilisable une fois à son tour. »"""
    state = scenario(board=({"a1": "marchand"}, {}), hands=("milicien archer", ""), gold=(0, 0))
    if strip:
        state = without(state, "marchand", "defausse")
        refused(state, "use a1 defausse milicien", error=IllegalAction)
        return
    state, events = act(state, "use a1 defausse milicien")
    player = state.players[0]
    assert player.gold == 2 and player.hand == ("archer",) and "milicien" in player.graveyard
    assert "defausse" in kinds(events)
    refused(state, "use a1 defausse archer", error=IllegalAction)  # once per turn
    # not on the opponent's turn: it is no reaction
    other = scenario(board=({}, {"a1": "marchand"}), hands=("", "milicien"), phase="attack")
    refused(other, "use a1 defausse milicien", seat=1)


# ---- Déplacement -----------------------------------------------------------------------------


@pytest.mark.parametrize("strip", [False, True])
def test_deplacement_arrives_on_any_line_for_free(strip: bool) -> None:
    """« Déplacement : Permet d'arriver n'importe où sur n'importe qu'elle
    ligne de votre armée. »"""
    state = scenario(hands=("cavalier", ""), gold=(8, 0))
    if strip:
        state = without(state, "cavalier", "deplacement")
    state, _ = act(state, "play cavalier f3")
    assert state.players[0].gold == (0 if strip else 4)


@pytest.mark.parametrize("strip", [False, True])
def test_deplacement_moves_to_any_line(strip: bool) -> None:
    """Déplacement, and ruling L3 (« Déplacement and Télékinésie override
    this »): from the plaine straight to the front."""
    state = scenario(board=({"p1": "cavalier"}, {}), hands=("", ""))
    if strip:
        state = without(state, "cavalier", "deplacement")
        refused(state, "move p1 f1", error=IllegalAction)
        assert "move p1 a1" in legal(state)
    else:
        state, _ = act(state, "move p1 f1")
        assert at(state, "1f1").card == "cavalier"  # type: ignore[union-attr]


# ---- Double attaque --------------------------------------------------------------------------


@pytest.mark.parametrize("strip", [False, True])
def test_double_attaque_attacks_a_second_time(strip: bool) -> None:
    """« Double attaque : L'unité a une attaque supplémentaire, attaque une
    seconde fois. »"""
    board = ({"f1": "duelliste"}, {"f1": "pelerin", "f3": "pelerin", "f5": "pelerin"})
    state, _ = _attack(
        board, "attack f1 2f1", strip=("duelliste", "double-attaque") if strip else None
    )
    assert at(state, "2f1") is None
    if strip:
        refused(state, "attack f1 2f3", error=IllegalAction, match="no attack left")
        return
    state, _ = _attack_again(state, "attack f1 2f3")
    assert at(state, "2f3") is None
    refused(state, "attack f1 2f5", error=IllegalAction)  # two, not three


# ---- Encouragement ---------------------------------------------------------------------------


@pytest.mark.parametrize("strip", [False, True])
def test_encouragement_gives_the_other_units_one_force_in_their_attack_phase(strip: bool) -> None:
    """« Encouragement : Les autres unités sous votre commandement gagne +1 en
    force durant leur phase d'attaque. »"""
    board = ({"a1": "capitaine", "f1": "fantassin"}, {"f1": "garde-du-mur"})
    state, _ = _attack(
        board, "attack f1 2f1", strip=("capitaine", "encouragement") if strip else None
    )
    assert at(state, "2f1").damage == (3 if strip else 4)  # type: ignore[union-attr]


def test_encouragement_is_not_for_itself_nor_outside_the_attack_phase() -> None:
    """« Les autres unités » « durant leur phase d'attaque »: the Capitaine
    itself strikes with 4; a riposte in the opponent's attack phase gets
    nothing; two Encouragements give +1 (the same effect never stacks)."""
    state, _ = _attack(({"f1": "capitaine"}, {"f1": "garde-du-mur"}), "attack f1 2f1")
    assert at(state, "2f1").damage == 4  # type: ignore[union-attr]
    state, _ = _attack(
        ({"f1": "milicien"}, {"f1": "fantassin", "a1": "capitaine"}), "attack f1 2f1"
    )
    assert at(state, "1f1") is None or at(state, "1f1").damage == 3  # type: ignore[union-attr]
    state, _ = _attack(
        ({"a1": "capitaine", "a2": "tambour", "f1": "fantassin"}, {"f1": "garde-du-mur"}),
        "attack f1 2f1",
    )
    assert at(state, "2f1").damage == 4  # type: ignore[union-attr]


# ---- Empoisonnement --------------------------------------------------------------------------


@pytest.mark.parametrize("strip", [False, True])
def test_empoisonnement_poisons_the_unit_attacked_one_pv_a_turn(strip: bool) -> None:
    """« Empoisonnement : Empoisonne l'unité attaqué. Cette dernière perdra 1
    pv par tour, jusqu'à être soigner. »"""
    board = ({"f1": "herboriste"}, {"f1": "garde-du-mur"})
    state, _ = _attack(
        board, "attack f1 2f1", strip=("herboriste", "empoisonnement") if strip else None
    )
    assert at(state, "2f1").damage == 1  # type: ignore[union-attr]
    vp = state.players[0].vp
    state, events = to_next_turn(state)
    if strip:
        assert at(state, "2f1").damage == 1  # type: ignore[union-attr]
        assert "poison-tick" not in kinds(events)
        return
    assert at(state, "2f1").damage == 2  # type: ignore[union-attr]
    assert state.players[0].vp == vp + 1  # the poisoner's victory point
    state, _ = to_next_turn(state)
    state, _ = to_next_turn(state)
    assert at(state, "2f1").damage == 3  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("attacker", "target", "flag"),
    [("herboriste", "fantassin", "poisoned"), ("sorciere-du-givre", "fanatique", "paralysed")],
)
def test_empoisonnement_and_paralysie_even_when_the_attacker_dies(
    attacker: str, target: str, flag: str
) -> None:
    """« Empoisonnement : Empoisonne l'unité attaqué. » « Paralysie : l'unité
    est paralysé pour le tour de l'adversaire » « Les capacités de l'unité
    attaquante est prioritaire sur celle défensive »: the riposte that kills
    the attacker does not undo its ability on the unit it attacked."""
    state, _ = _attack(({"f1": attacker}, {"f1": target}), "attack f1 2f1")
    assert at(state, "1f1") is None
    struck = at(state, "2f1")
    assert struck is not None
    assert (struck.poisoned_by == 0) if flag == "poisoned" else struck.paralysed


@pytest.mark.parametrize("prevents", [True, False])
def test_empoisonnement_not_when_an_initiative_riposte_kills_first(prevents: bool) -> None:
    """« Initiative : L'unité attaque en premier. » An Herboriste (1/3)
    attacking a Chef de horde (4/4, Initiative) dies before it strikes
    (``initiative_kill_prevents_riposte``, L6): it never hit, so nothing is
    poisoned; with the option off it strikes all the same, and poisons."""
    opts = "" if prevents else "initiative_kill_prevents_riposte=false"
    state, _ = _attack(({"f1": "herboriste"}, {"f1": "chef-de-horde"}), "attack f1 2f1", opts=opts)
    assert at(state, "1f1") is None
    chef = at(state, "2f1")
    assert chef is not None
    assert chef.damage == (0 if prevents else 1)
    assert chef.poisoned_by == (-1 if prevents else 0)


# ---- Entraver --------------------------------------------------------------------------------


@pytest.mark.parametrize("strip", [False, True])
def test_entraver_returns_the_dead_unit_to_its_owners_hand(strip: bool) -> None:
    """« Entraver : Quand l'unité meurt au lieu d'aller dans le cimetière elle
    retourne dans la main de son propriétaire »"""
    board = ({"f1": "fanatique"}, {"f1": "spectre"})
    state, _ = _attack(board, "attack f1 2f1", strip=("spectre", "entraver") if strip else None)
    bob = state.players[1]
    assert at(state, "2f1") is None
    if strip:
        assert bob.graveyard == ("spectre",) and bob.hand == ()
    else:
        assert bob.hand == ("spectre",) and bob.graveyard == ()
        assert state.players[0].faith == 1  # it died all the same


# ---- Fanatique -------------------------------------------------------------------------------


@pytest.mark.parametrize("strip", [False, True])
def test_fanatique_scores_two_victory_points_per_wound(strip: bool) -> None:
    """« Fanatique : Les unité possédant le fanatisme, chaque blessure faite à
    un ennemi, rapporte 2 point de victoire au lieu d'un. »"""
    board = ({"f1": "fanatique"}, {"f1": "garde-du-mur"})
    state, _ = _attack(board, "attack f1 2f1", strip=("fanatique", "fanatique") if strip else None)
    assert state.players[0].vp == (5 if strip else 10)


# ---- Furtivité -------------------------------------------------------------------------------


@pytest.mark.parametrize("strip", [False, True])
def test_furtivite_suffers_no_counter_attack_when_it_attacks(strip: bool) -> None:
    """« Furtivité : Quand l'unité attaque à son tour, elle ne peut subir de
    contre attaque. »"""
    board = ({"f1": "pillard"}, {"f1": "garde-du-mur"})
    state, _ = _attack(board, "attack f1 2f1", strip=("pillard", "furtivite") if strip else None)
    assert at(state, "1f1").damage == (1 if strip else 0)  # type: ignore[union-attr]


def test_furtivite_does_not_stop_its_own_riposte() -> None:
    """« Quand l'unité attaque à son tour »: attacked, a Pillard strikes back."""
    state, _ = _attack(({"f1": "fantassin"}, {"f1": "pillard"}), "attack f1 2f1")
    assert at(state, "1f1").damage == 2  # type: ignore[union-attr]


# ---- Invocateur ------------------------------------------------------------------------------


@pytest.mark.parametrize("strip", [False, True])
def test_invocateur_makes_its_token_for_x_gold(strip: bool) -> None:
    """« Invocateur : Permet de générer des troupes pour X pièce d'or. »"""
    state = scenario(board=({"a1": "necromancien"}, {}), hands=("", ""), gold=(5, 0))
    if strip:
        state = without(state, "necromancien", "invocateur")
        refused(state, "use a1 invocateur p3", error=IllegalAction)
        return
    state, events = act(state, "use a1 invocateur p3")
    assert at(state, "1p3").card == "squelette" and state.players[0].gold == 3  # type: ignore[union-attr]
    assert "invoke" in kinds(events)
    refused(state, "use a1 invocateur p4", error=IllegalAction)  # once per turn


def test_invocateur_the_summoned_creature_leaves_no_corpse() -> None:
    """« Quand la créature invoquée meurt elle ne va pas au cimetière, elle
    est juste désinvoquer. » (its killer still earns the faith: an enemy
    creature died)"""
    state = scenario(
        board=({"p1": "catapulte"}, {"f1": "squelette"}), hands=("", ""), phase="attack"
    )
    state, _ = act(state, "attack p1 2f1")
    assert at(state, "2f1") is None and state.players[1].graveyard == ()
    assert state.players[0].faith == 1


# ---- Honneur du guerrier ---------------------------------------------------------------------


@pytest.mark.parametrize("strip", [False, True])
def test_honneur_du_guerrier_attacks_two_units_and_splits_the_damage(strip: bool) -> None:
    """« Honneur du guerrier : Peut attaque deux unité à la fois, qui sont à
    portées. Vous répartissez les dégâts entre ses unités. »"""
    state = scenario(
        board=({"f1": "chevalier"}, {"f1": "sergent", "f3": "fantassin"}),
        hands=("", ""),
        phase="attack",
    )
    if strip:
        state = without(state, "chevalier", "honneur")
        refused(state, "attack f1 2f1:2,2f3:4", error=IllegalAction)
        return
    assert "attack f1 2f1:2,2f3:4" in legal(state)
    refused(state, "attack f1 2f1:2,2f3:3", error=IllegalAction)  # all 6, split
    state, _ = _attack_again(state, "attack f1 2f1:2,2f3:4")
    assert at(state, "2f1").damage == 2 and at(state, "2f3") is None  # type: ignore[union-attr]


def test_honneur_du_guerrier_both_targets_must_be_in_range() -> None:
    """« qui sont à portées »: a back-line unit behind an occupied front is
    not in melee range."""
    state = scenario(
        board=({"f1": "chevalier"}, {"f1": "garde-du-mur", "a1": "milicien"}),
        hands=("", ""),
        phase="attack",
    )
    refused(state, "attack f1 2f1:3,2a1:3", error=IllegalAction)


def _honneur_on_two_players(
    hands: tuple[str, str, str], gold: tuple[int, int, int], attack: str = "attack f1 2f1:4,3f1:2"
):
    """Seat 1's Chevalier (6, Initiative) attacks seat 2's Milicien (2/3)
    and seat 3's Sergent (3/5), 4 and 2 of its force by default."""
    state = scenario(
        seats=3,
        opts="decks=starter/starter/controle",
        board=({"f1": "chevalier"}, {"f1": "milicien"}, {"f1": "sergent"}),
        hands=hands,
        gold=gold,
        faith=(0, 1, 1),
        phase="attack",
    )
    return act(state, attack)


def test_honneur_du_guerrier_each_attacked_player_gets_the_window_in_turn_order() -> None:
    """« Peut attaque deux unité à la fois »: when the two units belong to two
    players, each of them may react to the attack, in turn order."""
    state, _ = _honneur_on_two_players(("", "eclair", "eclair"), (0, 4, 4))
    assert state.window is not None and state.window.seats == (1, 2)
    assert decide(state) == (1, "react")
    state, _ = act(state, "pass")
    assert decide(state) == (2, "react")
    state, events = act(state, "pass")
    assert state.window is None and "strike" in kinds(events)
    assert at(state, "2f1") is None and at(state, "3f1").damage == 2  # type: ignore[union-attr]


def test_honneur_du_guerrier_a_target_gone_the_other_takes_only_its_share() -> None:
    """« Vous répartissez les dégâts entre ses unités. »: seat 3 kills seat
    2's Milicien with an Éclair in the window; its Sergent takes its 2, not
    the Chevalier's whole 6."""
    state, _ = _honneur_on_two_players(("", "", "eclair"), (0, 0, 4))
    assert decide(state) == (2, "react")  # seat 2 has nothing to play: skipped
    state, events = act(state, "play eclair 2f1")
    assert at(state, "2f1") is None and "strike" in kinds(events)
    sergent = at(state, "3f1")
    assert sergent is not None and sergent.damage == 2
    assert at(state, "1f1").damage == 3  # type: ignore[union-attr]  # the Sergent strikes back


def test_honneur_du_guerrier_a_target_paralysed_in_the_window_does_not_strike_back() -> None:
    """« Paralysie : l'unité est paralysé pour le tour de l'adversaire, et ne
    peut se défendre en cas d'attaque. »: seat 3's Chaînes de glace on seat
    2's Milicien in the window: it takes its 1 and does not strike back (the
    Sergent, 5 on 5 PV, dies first: Initiative)."""
    hands = ("", "", "chaines-de-glace")
    state, _ = _honneur_on_two_players(hands, (0, 0, 2), "attack f1 2f1:1,3f1:5")
    state, events = act(state, "play chaines-de-glace 2f1")
    milicien = at(state, "2f1")
    assert milicien is not None and milicien.paralysed and milicien.damage == 1
    assert at(state, "3f1") is None
    assert at(state, "1f1").damage == 0  # type: ignore[union-attr]
    assert not [e for e in events if e.kind == "strike" and e.data["target"] == "chevalier"]


# ---- Impatient -------------------------------------------------------------------------------


@pytest.mark.parametrize("strip", [False, True])
def test_impatient_is_played_during_the_opponents_turn(strip: bool) -> None:
    """« Impatient : L'unité peut être jouer à n'importe quel moment, y
    compris durant le tour de l'adversaire. »"""
    state = scenario(
        board=({"f1": "fantassin"}, {"f1": "milicien"}),
        hands=("", "recrue"),
        gold=(0, 1),
        phase="attack",
    )
    state = known_hands(state)
    if strip:
        state = without(state, "recrue", "impatient")
    state, _ = act(state, "attack f1 2f1")
    if strip:  # nothing to react with: the window was skipped, the attack resolved
        assert state.window is None and at(state, "2f1") is None
        refused(state, "play recrue p1", seat=1)
        return
    assert decide(state) == (1, "react") and "play recrue p1" in legal(state)
    state, _ = act(state, "play recrue p1")
    recrue = at(state, "2p1")
    assert recrue is not None and not recrue.sick  # L7: Impatient has no summoning sickness


# ---- Initiative ------------------------------------------------------------------------------


@pytest.mark.parametrize("strip", [False, True])
def test_initiative_strikes_first_and_a_kill_prevents_the_riposte(strip: bool) -> None:
    """« Initiative : l'unité attaque en premier, si deux unités on initiative
    cette compétence s'annule. »"""
    board = ({"f1": "archer-d-elite"}, {"f1": "berserker"})
    state, _ = _attack(
        board, "attack f1 2f1", strip=("archer-d-elite", "initiative") if strip else None
    )
    assert at(state, "2f1") is None
    assert at(state, "1f1").damage == (3 if strip else 0)  # type: ignore[union-attr]


def test_initiative_on_both_sides_cancels() -> None:
    """« si deux unités ont initiative cette compétence s'annule »: the
    blows are simultaneous."""
    state, _ = _attack(({"f1": "archer-d-elite"}, {"f1": "chef-de-horde"}), "attack f1 2f1")
    assert at(state, "1f1") is None and at(state, "2f1").damage == 3  # type: ignore[union-attr]


def test_initiative_of_the_defender_strikes_first_too() -> None:
    state, _ = _attack(({"f1": "berserker"}, {"f1": "archer-d-elite"}), "attack f1 2f1")
    assert at(state, "1f1") is None and at(state, "2f1").damage == 0  # type: ignore[union-attr]


# ---- Loyauté ---------------------------------------------------------------------------------


@pytest.mark.parametrize("strip", [False, True])
def test_loyaute_protects_its_line_and_the_lines_behind(strip: bool) -> None:
    """« Loyauté : Tant qu'une unité possédé loyauté, il est impossible à
    l'adversaire de combattre d'autres troupes sur la ligne, ou sur les ligne
    arrière. »"""
    state = scenario(
        board=({"f1": "archer"}, {"f1": "garde-du-mur", "f2": "milicien", "a1": "paysan"}),
        hands=("", ""),
        phase="attack",
    )
    if strip:
        state = without(state, "garde-du-mur", "loyaute")
    targets = {t for t in legal(state) if t.startswith("attack f1 ")}
    if strip:
        assert {"attack f1 2f2", "attack f1 2a1", "attack f1 2a3"} <= targets
    else:
        assert targets == {"attack f1 2f1"}
        refused(state, "attack f1 2a3", error=IllegalAction, match="[Ll]oyal")


def test_loyaute_does_not_protect_the_line_in_front() -> None:
    """« sur la ligne, ou sur les lignes arrière »: a loyal unit on the back
    line leaves the front open."""
    state = scenario(
        board=({"f1": "archer"}, {"a1": "garde-du-mur", "f2": "milicien"}),
        hands=("", ""),
        phase="attack",
    )
    assert "attack f1 2f2" in legal(state) and "attack f1 2a3" not in legal(state)


@pytest.mark.parametrize("strip", [False, True])
def test_loyaute_the_defender_chooses_among_several(strip: bool) -> None:
    """« Si plusieurs unités au loyauté le défenseur choisit laquelle est
    attaqué en premier. »"""
    state = scenario(
        board=({"f1": "fantassin"}, {"f1": "garde-du-mur", "f4": "hallebardier"}),
        hands=("", ""),
        phase="attack",
    )
    if strip:
        state = without(state, "hallebardier", "loyaute")
    state, _ = act(state, "attack f1 2f1")
    if strip:
        assert g.pending(state)[1].kind == "react"  # a block, but no choice
        state, _ = pass_all(state)
        assert at(state, "2f1").damage == 3  # type: ignore[union-attr]
        return
    assert g.pending(state)[1].kind == "loyalty"
    assert legal(state, 1) == {"guard f1", "guard f4"}
    state, _ = act(state, "guard f4")
    state, _ = pass_all(state)
    assert at(state, "2f4").damage == 3 and at(state, "2f1").damage == 0  # type: ignore[union-attr]


# ---- Paralysie -------------------------------------------------------------------------------


@pytest.mark.parametrize("strip", [False, True])
def test_paralysie_no_attack_on_its_owners_next_turn(strip: bool) -> None:
    """« Paralysie : l'unité est paralysé pour le tour de l'adversaire, et ne
    peut se défendre en cas d'attaque. »"""
    board = ({"f1": "sorciere-du-givre", "f2": "milicien"}, {"f1": "garde-du-mur"})
    state, _ = _attack(
        board, "attack f1 2f1", strip=("sorciere-du-givre", "paralysie") if strip else None
    )
    paralysed = at(state, "2f1")
    assert paralysed is not None and paralysed.paralysed is not strip
    if not strip:  # « ne peut se défendre »: no riposte, no block
        state, _ = act(state, "attack f2 2f1")
        assert at(state, "1f2").damage == 0  # type: ignore[union-attr]
    state, _ = to_next_turn(state)
    state, _ = to_phase(state, "attack")
    assert state.active == 1
    assert ("attack f1 1f1" in legal(state)) is strip
    state, _ = to_next_turn(state)
    state, _ = to_next_turn(state)  # its next own turn: free again
    state, _ = to_phase(state, "attack")
    assert not at(state, "2f1").paralysed and "attack f1 1f1" in legal(state)  # type: ignore[union-attr]


def test_paralysie_no_riposte_and_no_block() -> None:
    state = scenario(
        board=({"f1": "fantassin"}, {"f1": "milicien paralysed", "f2": "sergent paralysed"}),
        hands=("", ""),
        phase="attack",
    )
    state, _ = act(state, "attack f1 2f1")
    assert state.window is None  # no block to offer: the window was skipped
    assert at(state, "1f1").damage == 0  # type: ignore[union-attr]


def test_paralysie_an_attacker_paralysed_in_the_window_does_not_strike() -> None:
    """« Paralysie : l'unité est paralysé pour le tour de l'adversaire, et ne
    peut se défendre en cas d'attaque. » and a paralysed unit cannot attack
    (« no attack, no defence »): Chaînes de glace on the declared attacker
    in the attack window cancels its attack, and nobody strikes."""
    state = scenario(
        opts="decks=starter/controle",
        board=({"f1": "fantassin"}, {"f1": "milicien"}),
        hands=("", "chaines-de-glace"),
        gold=(0, 2),
        phase="attack",
    )
    state, _ = act(state, "attack f1 2f1")
    state, events = act(state, "play chaines-de-glace 1f1")
    assert "attack-cancelled" in kinds(events) and "strike" not in kinds(events)
    fantassin, milicien = at(state, "1f1"), at(state, "2f1")
    assert fantassin is not None and fantassin.paralysed and fantassin.damage == 0
    assert milicien is not None and milicien.damage == 0
    assert state.window is None and fantassin.attacks == 1  # its attack is spent


# ---- Producteur ------------------------------------------------------------------------------


@pytest.mark.parametrize("strip", [False, True])
def test_producteur_brings_one_more_gold_a_turn(strip: bool) -> None:
    """« Producteur : Cette unité apporte 1 pièce d'or supplémentaire par
    tour. »"""
    state = scenario(board=({}, {"p1": "paysan", "p2": "paysan"}), hands=("", ""), phase="attack")
    if strip:
        state = without(state, "paysan", "producteur")
    state, _ = to_next_turn(state)
    assert state.players[1].gold == (5 if strip else 7)


# ---- Ravage ----------------------------------------------------------------------------------


@pytest.mark.parametrize("strip", [False, True])
def test_ravage_deals_three_damage_shared_on_arrival(strip: bool) -> None:
    """« Ravage : Inflige 3 point de dommage répartie sur une ou plusieurs
    unité(s) quand l'unité arrive en jeu. »"""
    state = scenario(
        board=({}, {"f1": "garde-du-mur", "a2": "milicien"}),
        hands=("mage-de-guerre", ""),
        gold=(6, 0),
    )
    if strip:
        state = without(state, "mage-de-guerre", "ravage")
        refused(state, "play mage-de-guerre p1 2f1:2,2a2:1", error=IllegalAction)
        state, _ = act(state, "play mage-de-guerre p1")
        assert at(state, "2f1").damage == 0  # type: ignore[union-attr]
        return
    refused(state, "play mage-de-guerre p1", error=IllegalAction)  # it must be shared
    refused(state, "play mage-de-guerre p1 2f1:2,2a2:2", error=IllegalAction)
    refused(state, "play mage-de-guerre p1 2a3:3", error=IllegalAction)  # units, not the general
    state, events = act(state, "play mage-de-guerre p1 2f1:2,2a2:1")
    assert at(state, "2f1").damage == 2 and at(state, "2a2").damage == 1  # type: ignore[union-attr]
    assert "ravage" in kinds(events) and state.players[0].vp == 3


def test_ravage_with_no_enemy_unit_deals_nothing() -> None:
    state = scenario(hands=("mage-de-guerre", ""), gold=(6, 0))
    state, _ = act(state, "play mage-de-guerre p1")
    assert at(state, "1p1").card == "mage-de-guerre"  # type: ignore[union-attr]


# ---- Regroupement ----------------------------------------------------------------------------


@pytest.mark.parametrize("strip", [False, True])
def test_regroupement_adds_one_defence_force_per_adjacent_unit(strip: bool) -> None:
    """« Regroupement : Pour chaque unité adjacente ajoutez un bonus de +1 à
    leur force en défense. »"""
    board = ({"f2": "hallebardier"}, {"f1": "paysan", "f2": "sergent", "f3": "milicien"})
    state, _ = _attack(board, "attack f2 2f2", strip=("sergent", "regroupement") if strip else None)
    assert at(state, "1f2").damage == (3 if strip else 5)  # type: ignore[union-attr]


def test_regroupement_counts_only_in_defence() -> None:
    """« en défense »: attacking, the Sergent strikes with its 3."""
    state = scenario(
        board=({"f1": "paysan", "f2": "sergent", "f3": "milicien"}, {"f2": "garde-du-mur"}),
        hands=("", ""),
        phase="attack",
    )
    state, _ = act(state, "attack f2 2f2")
    assert at(state, "2f2").damage == 3  # type: ignore[union-attr]


# ---- Soin ------------------------------------------------------------------------------------


@pytest.mark.parametrize("strip", [False, True])
def test_soin_heals_one_pv_at_the_end_of_the_turn_and_cures(strip: bool) -> None:
    """« Soin : l'unité ciblé regagne 1 PV en fin de tour. Elle soigne aussi
    poison et paralysie. »"""
    state = scenario(
        board=({"a1": "pretre", "f1": "fantassin dmg=2 poisoned paralysed"}, {}), hands=("", "")
    )
    if strip:
        state = without(state, "pretre", "soin")
        refused(state, "use a1 soin 1f1", error=IllegalAction)
        return
    state, _ = act(state, "use a1 soin 1f1")
    assert at(state, "1f1").damage == 2  # type: ignore[union-attr]  # at the end of the turn
    refused(state, "use a1 soin 1f1", error=IllegalAction)  # once per turn
    state, _ = to_next_turn(state)
    healed = at(state, "1f1")
    assert healed is not None and healed.damage == 1
    assert healed.poisoned_by == -1 and not healed.paralysed


# ---- Télékinésie -----------------------------------------------------------------------------


@pytest.mark.parametrize("strip", [False, True])
def test_telekinesie_moves_any_unit_of_either_army(strip: bool) -> None:
    """« Télékinésie : Ceci permet de déplacer n'importe quelles unités, les
    généraux ne sont pas comprit dans les unités, de son clan ou de celui
    ennemi. Utilisable une fois par tour, à son tour. »"""
    state = scenario(
        board=({"a1": "mentaliste", "p1": "milicien"}, {"f1": "fantassin"}), hands=("", "")
    )
    if strip:
        state = without(state, "mentaliste", "telekinesie")
        refused(state, "use a1 telekinesie 2f1 2p1", error=IllegalAction)
        return
    state, events = act(state, "use a1 telekinesie 2f1 2p1")
    assert at(state, "2p1").card == "fantassin" and at(state, "2f1") is None  # type: ignore[union-attr]
    assert "telekinesis" in kinds(events)
    refused(state, "use a1 telekinesie 1p1 1f1", error=IllegalAction)  # once per turn


def test_telekinesie_not_the_generals_and_not_onto_another_battlefield() -> None:
    state = scenario(
        board=({"a1": "mentaliste", "p1": "milicien"}, {"f1": "fantassin"}), hands=("", "")
    )
    refused(state, "use a1 telekinesie 2a3 2p1", error=IllegalAction)
    refused(state, "use a1 telekinesie 1a3 1f3", error=IllegalAction)
    refused(state, "use a1 telekinesie 2f1 1f1", error=IllegalAction)
    state, _ = act(state, "use a1 telekinesie 1p1 1f1")  # its own clan too
    assert at(state, "1f1").card == "milicien"  # type: ignore[union-attr]


# ---- Tir -------------------------------------------------------------------------------------


@pytest.mark.parametrize("strip", [False, True])
def test_tir_shoots_over_its_own_front(strip: bool) -> None:
    """« Tir : Permet d'avoir une portée de deux lignes (passe par dessus les
    lignes ami ou ennemi) »"""
    state = scenario(
        board=({"a1": "archer", "f5": "milicien"}, {"f2": "fantassin"}),
        hands=("", ""),
        phase="attack",
    )
    if strip:
        state = without(state, "archer", "tir")
        refused(state, "attack a1 2f2", error=IllegalAction, match="range")
    else:
        state, _ = act(state, "attack a1 2f2")
        assert at(state, "2f2").damage == 2  # type: ignore[union-attr]
        assert at(state, "1a1").damage == 0  # type: ignore[union-attr]  # no melee reach back


# ---- Vol -------------------------------------------------------------------------------------


@pytest.mark.parametrize("strip", [False, True])
def test_vol_only_flying_or_tir_units_wound_it(strip: bool) -> None:
    """« Vol : Ne peut être blesser que par des unités volantes ou des unités
    avec le tir. »"""
    board = ({"f1": "fantassin"}, {"f1": "griffon"})
    state, _ = _attack(board, "attack f1 2f1", strip=("griffon", "vol") if strip else None)
    assert at(state, "2f1").damage == (3 if strip else 0)  # type: ignore[union-attr]
    assert at(state, "1f1") is None  # it still strikes back: 4 on 4 PV


def test_vol_is_wounded_by_tir_and_by_flying_units() -> None:
    state, _ = _attack(({"f1": "archer"}, {"f1": "griffon"}), "attack f1 2f1")
    assert at(state, "2f1").damage == 2  # type: ignore[union-attr]
    state, _ = _attack(({"f1": "ange"}, {"f1": "griffon"}), "attack f1 2f1")
    assert at(state, "2f1") is None  # 5 on 5 PV


def test_vol_a_general_without_vol_or_tir_does_not_wound_it() -> None:
    """« Ne peut être blessé que par des unités volantes ou des unités avec le
    tir. » The general is a unit (« Cette unité est présente dès le début en
    jeu »): Aldric (force 3) attacking a Griffon wounds nothing."""
    state = scenario(
        board=({}, {"f1": "griffon"}), generals=("f3", "a3"), hands=("", ""), phase="attack"
    )
    state, _ = act(state, "attack f3 2f1")
    assert at(state, "2f1").damage == 0  # type: ignore[union-attr]


def test_vol_a_generals_ability_wounds_it_like_a_spell() -> None:
    """« Vol : Ne peut être blesser que par des unités volantes ou des unités
    avec le tir. » A general's ability is not a unit's blow (like a spell, it
    wounds): Corwin's 2 damage on a Griffon."""
    state = scenario(
        board=({}, {"f1": "griffon"}), general_cards=("corwin", "aldric"), vp=(3, 0), hands=("", "")
    )
    state, _ = act(state, "general 1 2f1")
    assert at(state, "2f1").damage == 2  # type: ignore[union-attr]


# ---- « Capacité »: once per turn, never stacking, the attacker first -------------------------


def test_the_same_effect_never_stacks_armure_from_two_sources() -> None:
    """« le même effet ne peut être se cumuler »: Armure stays −2."""
    state = scenario(board=({"f1": "chevalier"}, {"f1": "paladin"}), hands=("", ""), phase="attack")
    state, _ = act(state, "attack f1 2f1")
    assert at(state, "2f1").damage == 4  # type: ignore[union-attr]


def test_an_ability_works_once_per_turn_and_again_the_next_turn() -> None:
    """« Les capacité ne peut être activé qu'une fois par tour »: Défausse
    again on the owner's next turn."""
    state = scenario(
        board=({"a1": "marchand"}, {}),
        hands=("milicien archer", ""),
        decks=("paysan paysan", "paysan paysan"),
    )
    state, _ = act(state, "use a1 defausse milicien")
    refused(state, "use a1 defausse archer", error=IllegalAction)
    state, _ = to_next_turn(state)
    state, _ = to_next_turn(state)
    assert state.active == 0
    state, _ = act(state, "use a1 defausse archer")
    assert "archer" in state.players[0].graveyard


def test_the_attackers_abilities_come_first() -> None:
    """« Les capacités de l'unité attaquante est prioritaire sur celle
    défensive »: a Pillard's Furtivité wins over the defender's Initiative
    riposte; the Assassin's Coup fatal settles before anything else the
    blocker could do."""
    state, _ = _attack(({"f1": "pillard"}, {"f1": "archer-d-elite"}), "attack f1 2f1")
    assert at(state, "1f1").damage == 0  # type: ignore[union-attr]
