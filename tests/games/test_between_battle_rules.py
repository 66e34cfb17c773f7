"""Between Battle (seed 003): one scenario per rule sentence, ruling and option.

Each test cites, in French, the sentence of the rules it checks (or the ruling
T1-T11 of our rulings file, or the option). Situations are built directly with
``tests.games.bb_helpers.scenario``: hands list labels of the seat's own deck
(``"7 X"``) or full cards (``"Co7"``); piles list full cards, bottom first,
``~`` marking an open link. Nothing is read from /work/shared at run time.
"""

from __future__ import annotations

import copy
import json

import pytest

from engine import GAMES, Match, MatchRecord, rng
from engine.core import evolve
from engine.errors import (
    BadNotation,
    BadOptions,
    BadRecord,
    GameOver,
    IllegalAction,
    NotYourTurn,
    RulesError,
    StaleAction,
)
from engine.games.between_battle import (
    GAME,
    GivePile,
    Link,
    Options,
    Pick,
    Play,
    Pull,
    TakeDamage,
    Target,
    Tutor,
    ability_of,
    pile_value,
)
from tests.games.bb_helpers import (
    act,
    all_cards,
    base,
    first,
    frozen,
    g,
    hand,
    kinds,
    legal,
    plays,
    said,
    scenario,
)

ALL = "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 X"


def test_registered() -> None:
    """The game is registered under its fixed id, for 2 to 4 players."""
    assert GAMES["between-battle"] is GAME
    assert g.info.min_seats == 2 and g.info.max_seats == 4


# ===========================================================================
# Mise en place
# ===========================================================================


def test_mise_en_place_chaque_joueur_choisit_un_deck_de_personnage() -> None:
    """« Chaque joueur choisit un deck de personnage (pirate, chevalier, cow-boy ou ninja) »:
    with ``characters`` each seat gets its deck, in seat order."""
    s = base("ninja,cowboy,pirate,chevalier")
    assert [p.character for p in s.players] == ["ninja", "cowboy", "pirate", "chevalier"]
    for p, code in zip(s.players, ["Ni", "Co", "Pi", "Ch"], strict=True):
        assert {c[:2] for c in p.hand + p.deck} == {code}


def test_mise_en_place_draft_in_seat_order_without_duplicates() -> None:
    """« Chaque joueur choisit un deck de personnage »: without ``characters`` the
    players draft in seat order, and a deck taken cannot be taken again."""
    s = g.setup(g.options(""), 3, seed=5)
    assert s.phase == "draft"
    assert {k: d.kind for k, d in g.pending(s).items()} == {0: "draft"}
    assert legal(s, 0) == {"pirate", "chevalier", "cowboy", "ninja"}
    assert g.legal_actions(s, 1) == []
    with pytest.raises(NotYourTurn):
        g.apply_text(s, 1, "ninja")
    s, ev = g.apply_text(s, 0, "Cow-boy")
    assert first(ev, "pick").data == {"seat": 0, "character": "cowboy"}
    assert list(g.pending(s)) == [1]
    assert legal(s, 1) == {"pirate", "chevalier", "ninja"}
    with pytest.raises(IllegalAction):
        g.apply_text(s, 1, "cowboy")  # no duplicates
    s, _ = g.apply_text(s, 1, "knight")
    assert list(g.pending(s)) == [2]
    assert legal(s, 2) == {"pirate", "ninja"}
    s, ev = g.apply_text(s, 2, "ninja")
    assert s.phase == "turn"
    assert [p.character for p in s.players] == ["cowboy", "chevalier", "ninja"]
    assert kinds(ev).count("deal") == 3 and "first-player" in kinds(ev)
    assert all(len(p.hand) == 5 and len(p.deck) == 12 for p in s.players)


def test_mise_en_place_carte_aide_points_de_vie_10() -> None:
    """« la carte aide de jeu ... indique ses capacités et ses points de vies »:
    proposed deck, HP 10 each (default ``hp_variant=equal``)."""
    s = base("pirate,chevalier,cowboy,ninja")
    assert [p.hp for p in s.players] == [10, 10, 10, 10]
    assert [p.life for p in s.players] == [10, 10, 10, 10]
    assert [d.special for d in s.rules.decks] == ["discard-random", "lock", "draw", "extra-turn"]
    assert [d.unique for d in s.rules.decks] == ["tutor", "cancel", "steal-top", "reveal"]


def test_option_hp_variant_asymmetric() -> None:
    """Option ``hp_variant=asymmetric``: « alternative: Chevalier 11, Ninja 9 »."""
    s = base("pirate,chevalier,cowboy,ninja", "hp_variant=asymmetric")
    assert [p.hp for p in s.players] == [10, 11, 10, 9]


def test_option_hp_overrides_the_help_cards() -> None:
    """Option ``hp``: every player's HP, whatever the help card (and the variant) says."""
    s = base("pirate,chevalier,cowboy,ninja", "hp=12 hp_variant=asymmetric")
    assert [p.hp for p in s.players] == [12, 12, 12, 12]
    with pytest.raises(BadOptions):
        g.options("hp=0")
    with pytest.raises(BadOptions):
        g.options("hp=100")


def test_mise_en_place_deck_de_17_cartes_melange() -> None:
    """« Chaque joueur mélange son deck de 17 cartes »: 16 numbers and the joker,
    in an order that depends on the seed."""
    s1, s2 = base(seed=1), base(seed=2)
    for s in (s1, s2):
        for p, code in zip(s.players, ["Pi", "Ch"], strict=True):
            deck = p.hand + p.deck
            assert len(deck) == 17
            assert sorted(deck) == sorted(code + lab for lab in ALL.split())
    assert s1.players[0].hand + s1.players[0].deck != s2.players[0].hand + s2.players[0].deck
    # the same seed, the same shuffle
    assert base(seed=1) == s1


def test_materiel_18_cartes_par_personnage_et_deck_propose() -> None:
    """« 18 cartes de jeu / personnages »: 17 cards plus the help card. Proposed deck:
    plain numbers 1, 2, 4, 6, 7, 9, 11, 13, 15, 16; specials 3, 8, 14; unique 10;
    links 5, 12; joker X — the same layout for every character."""
    s = base()
    for deck in s.rules.decks:
        assert len(deck.cards) + 1 == 18
        by_kind: dict[str, list[str]] = {}
        for label, kind in zip(deck.cards, deck.kinds, strict=True):
            by_kind.setdefault(kind, []).append(label)
        assert by_kind == {
            "number": ["1", "2", "4", "6", "7", "9", "11", "13", "15", "16"],
            "special": ["3", "8", "14"],
            "unique": ["10"],
            "link": ["5", "12"],
            "joker": ["X"],
        }


@pytest.mark.parametrize(
    ("code", "special", "unique"),
    [
        ("Pi", "discard-random", "tutor"),
        ("Ch", "lock", "cancel"),
        ("Co", "draw", "steal-top"),
        ("Ni", "extra-turn", "reveal"),
    ],
)
def test_capacites_par_carte(code: str, special: str, unique: str) -> None:
    """« Les capacités des cartes spéciales » (3, 8, 14) and « des cartes uniques » (10)
    of each character; the joker's pull; links and plain numbers have none."""
    rules = base().rules
    for label in ALL.split():
        expected = {"3": special, "8": special, "14": special, "10": unique, "X": "joker"}
        assert ability_of(rules, code + label) == expected.get(label), label


def test_mise_en_place_pioche_les_5_premieres_cartes() -> None:
    """« Chaque joueur pioche les 5 premières cartes de son deck »: 5 in hand,
    12 left; each seat alone sees its cards in the deal events."""
    s = g.setup(g.options(""), 2, seed=3)
    s, _ = g.apply_text(s, 0, "pirate")
    s, ev = g.apply_text(s, 1, "chevalier")
    assert [len(p.hand) for p in s.players] == [5, 5]
    assert [len(p.deck) for p in s.players] == [12, 12]
    deals = [e for e in ev if e.kind == "deal"]
    for seat, e in enumerate(deals):
        assert e.to == frozenset({seat})
        assert e.for_seat(seat).data == {"seat": seat, "cards": list(s.players[seat].hand)}
        assert e.for_seat(1 - seat).data == {"seat": seat, "count": 5}
        assert e.for_seat(None).data == {"seat": seat, "count": 5}


def test_mise_en_place_deux_cartes_champ_de_bataille_t11() -> None:
    """« Placez 2 cartes champs de bataille »; T11: the 4 battlefield cards are pile
    frames only, 2 are spares: two piles, empty at the start, even with 4 players."""
    for chars in ("pirate,chevalier", "pirate,chevalier,cowboy,ninja"):
        s = base(chars)
        assert s.piles == ((), ())
        targets = {a.split(">")[1] for a in plays(s)}
        assert targets == {"1", "2"}
    with pytest.raises(BadNotation):
        g.parse_action("7>3")


def test_mise_en_place_premier_joueur_au_hasard() -> None:
    """« Le premier joueur est déterminé au hasard »: the first player depends on the
    seed, is announced, and is the one who must play first."""
    seen = set()
    for seed in range(20):
        s = base(seed=seed)
        seen.add(s.first_player)
        assert s.active == s.decider == s.first_player
        assert list(g.pending(s)) == [s.first_player]
        assert g.pending(s)[s.first_player].kind == "turn"
    assert seen == {0, 1}
    s = g.setup(g.options(""), 4, seed=0)
    evs = []
    for name in ("pirate", "chevalier", "cowboy", "ninja"):
        s, ev = g.apply_text(s, s.decider, name)
        evs += ev
    assert first(evs, "first-player").data == {"seat": s.first_player}


def test_mise_en_place_2_a_4_joueurs() -> None:
    """« 2 - 4 joueurs »: other seat counts, or a character list of the wrong length,
    are refused with a readable reason."""
    for seats in (1, 5):
        with pytest.raises(BadOptions) as exc:
            g.setup(g.options(""), seats, seed=1)
        assert "2 to 4" in said(exc.value)
    with pytest.raises(BadOptions) as exc:
        g.setup(g.options("characters=pirate,ninja"), 3, seed=1)
    assert "3 players" in said(exc.value)


# ===========================================================================
# Tour de jeu
# ===========================================================================


def test_tour_de_jeu_deux_possibilites_jouer_ou_prendre_des_degats() -> None:
    """« A son tour de jeu un joueur a deux possibilités. 1) Jouer une carte de sa main
    sur le champ de bataille 2) Prendre des dégâts »."""
    s = scenario(["7 1", "2"], piles=("Ch4", "Ch10"))
    assert legal(s) == {"7>1", "7>2", "D"}
    d = g.pending(s)[0]
    assert d.kind == "turn"
    # only the active seat decides
    assert g.legal_actions(s, 1) == []
    with pytest.raises(NotYourTurn):
        g.apply_text(s, 1, "D")


def test_jouer_une_carte_exemple_4_et_10() -> None:
    """« Ex : Sur le champ de bataille, les valeurs sont « 4 » et « 10 » le joueur peut
    donc jouer des cartes de sa main ayant une valeur de « 5,6,7,8,9 » » (and the
    joker, always playable)."""
    s = scenario([ALL, "1"], piles=("Ch4", "Ch10"))
    playable = {a.split(">")[0] for a in plays(s)}
    assert playable == {"5", "6", "7", "8", "9", "X"}


def test_jouer_entre_les_deux_valeurs_sur_l_un_ou_l_autre_paquet_t1() -> None:
    """« placer une carte sur l'une des deux zones du champ de bataille avec un chiffre
    compris ENTRE les deux valeurs »; T1: strictly between the tops of the two piles,
    the card may go on either pile."""
    s = scenario(["7 4 10", "1"], piles=("Ch2 Ch10", "Pi16 Ch4"))
    assert plays(s) == {"7>1", "7>2"}
    for pile in (1, 2):
        t, ev = act(s, f"7>{pile}")
        assert t.piles[pile - 1][-1] == "Pi7"
        assert pile_value(t.piles[pile - 1]) == 7
        assert first(ev, "play").data == {"seat": 0, "card": "Pi7", "pile": pile - 1}
        assert first(ev, "play").to is None  # public
        assert hand(t, 0) == ["Pi4", "Pi10"]
        assert t.active == 1 and t.last_player == 0
        assert "turn" in kinds(ev)


def test_jouer_strictement_entre_bornes_exclues() -> None:
    """T1 « Strictly between »: the two values themselves are not playable, and the
    refusal says why."""
    s = scenario(["4 10 3", "1"], piles=("Ch4", "Ch10"))
    assert plays(s) == set()
    before = frozen(s)
    with pytest.raises(IllegalAction) as exc:
        g.apply_text(s, 0, "10>1")
    assert said(exc.value) == "The 10 is not between 4 and 10."
    assert exc.value.code == "illegal"
    assert isinstance(exc.value, RulesError) and isinstance(exc.value, ValueError)
    assert frozen(s) == before
    with pytest.raises(IllegalAction) as exc:
        g.apply_text(s, 0, "8>1")
    assert said(exc.value) == "You have no 8 in hand."


def test_option_between_rule_inclusive() -> None:
    """Option ``between_rule=inclusive`` (T1 alternative): the bounds are playable too."""
    s = scenario([ALL, "1"], piles=("Ch4", "Ch10"), opts="between_rule=inclusive")
    playable = {a.split(">")[0] for a in plays(s)}
    assert playable == {"4", "5", "6", "7", "8", "9", "10", "X"}


def test_pile_value_is_its_top_number_card_and_order_of_piles_is_irrelevant() -> None:
    """« les deux valeurs indiquées »: a pile's value is its top card; the lower value
    may be on either pile."""
    s = scenario([ALL, "1"], piles=("Ch10", "Ch2 Ch16 Ch4"))
    assert {a.split(">")[0] for a in plays(s)} == {"5", "6", "7", "8", "9", "X"}


# ===========================================================================
# Prendre des dégâts
# ===========================================================================


def test_degats_etape_1_l_adversaire_choisit_le_paquet() -> None:
    """« 1) L'adversaire choisit un des deux paquets du champ de bataille, et le donne
    au joueur qui prend des dégâts. »"""
    s = scenario(["7", "1"], piles=("Ch4 Pi2", "Ch10"), active=0, last_player=1)
    t, ev = act(s, "D")
    assert first(ev, "damage-declared").data == {"seat": 0, "chooser": 1}
    assert t.phase == "choose-pile" and t.active == 0 and t.decider == 1
    d = g.pending(t)
    assert list(d) == [1] and d[1].kind == "choose-pile" and d[1].param("taker") == 0
    assert legal(t, 1) == {"P1", "P2"}
    assert g.legal_actions(t, 0) == []
    with pytest.raises(NotYourTurn):
        g.apply_text(t, 0, "P1")
    with pytest.raises(IllegalAction) as exc:
        g.apply_text(t, 1, "7>1")
    assert "P1 or P2" in said(exc.value)
    assert said(g.describe_action(t, 1, GivePile(0))) == "Give pile 1 (2 cards)"
    assert said(g.describe_action(t, 1, GivePile(0)), "fr") == "Donner le paquet 1 (2 cartes)"


def test_degats_chaque_carte_recue_1_degat_face_cachee_sous_la_carte_aide() -> None:
    """« Chaque carte ainsi reçue correspond à 1 dégât, ces cartes sont placées face
    cachée en dessous de la carte d'aide du personnage. »"""
    s = scenario(
        ["7", "1"], piles=("Ch4 Pi2 Ch5~", "Ch10"), damage=[1, 0], last_player=1, decks=["", None]
    )
    t, ev = act(s, "D", "P1")
    p = t.players[0]
    assert p.damage[-3:] == ("Ch4", "Pi2", "Ch5")  # links lose their orientation there
    assert len(p.damage) == 4 and p.life == 6
    assert t.piles == ((), ("Ch10",))
    dmg = first(ev, "damage")
    assert dmg.data["amount"] == 3 and dmg.data["life"] == 6 and dmg.data["pile"] == 0
    # face down: views show a count, never the cards
    for observer in (0, 1, None):
        view = g.view(t, observer)
        pv = view.players[0]
        assert pv.damage == 4 and pv.life == 6 and pv.hp == 10
        assert not hasattr(pv, "damage_cards")
        # the Pirate's own damage card (PiX) is in no hand, deck, pile or discard:
        # nothing in the view may name it
        assert "PiX" in p.damage and "PiX" not in repr(view)
    assert sorted(all_cards(t)) == sorted(all_cards(s))
    # being hidden, determinize deals them again among the unseen cards
    dealt = {g.determinize(t, 1, seed).players[0].damage for seed in range(20)}
    assert len(dealt) > 1
    for seed in range(20):
        assert g.view(g.determinize(t, 1, seed), 1) == g.view(t, 1)


def test_degats_etape_2_les_deux_joueurs_piochent_jusqu_a_5() -> None:
    """« 2) Les deux joueurs piochent, si nécessaire, des cartes depuis leur deck afin
    d'en avoir 5 en main. » (T4: everyone refills to 5)."""
    s = scenario(["7", "1 2 3"], piles=("Ch4", "Ch10"), last_player=1)
    t, ev = act(s, "D", "P2")
    assert [len(p.hand) for p in t.players] == [5, 5]
    assert hand(t, 0) == ["Pi1", "Pi2", "Pi3", "Pi4", "Pi7"]  # decks are lowest first here
    draws = [e for e in ev if e.kind == "draw"]
    assert [e.data["seat"] for e in draws] == [0, 1]
    assert draws[0].to == frozenset({0}) and draws[0].for_seat(1).data == {"seat": 0, "count": 4}
    # a full hand draws nothing; a short deck gives what it has
    s = scenario(["7 8 9 11 13", "1"], piles=("Ch4", "Ch10"), decks=[None, "2"], last_player=1)
    t, _ = act(s, "D", "P1")
    assert len(t.players[0].hand) == 5 and hand(t, 1) == ["Ch1", "Ch2"]


def test_degats_etape_3_le_joueur_qui_a_pris_des_degats_commence_un_nouveau_tour() -> None:
    """« 3) Le joueur qui a pris des dégâts commence un nouveau tour »."""
    s = scenario(["7", "1"], piles=("Ch4", "Ch10"), last_player=1)
    t, ev = act(s, "D", "P1")
    assert t.phase == "turn" and t.active == 0 and t.decider == 0
    assert t.turn == s.turn + 1
    assert ev[-1].kind == "turn" and ev[-1].data["seat"] == 0
    # pile 1 is now empty: the new turn must be played there, any value
    assert plays(t) == {f"{c[2:]}>1" for c in t.players[0].hand}


def test_degats_toujours_possibles_t4() -> None:
    """T4 « Always allowed »: taking damage is a choice even with playable cards, and
    the only choice without any."""
    s = scenario(["7 X", "1"], piles=("Ch4", "Ch10"))
    assert "D" in legal(s)
    s = scenario(["1 2 16", "1"], piles=("Ch4", "Ch10"))
    assert legal(s) == {"D"}


def test_degats_deux_paquets_vides_zero_degat() -> None:
    """« A son tour de jeu un joueur a deux possibilités. [...] 2) Prendre des dégâts »
    (T4: always allowed; option ``damage_with_empty_piles=allowed``, the default): with
    both piles empty there is nothing to give; the damage is taken at once (0 cards),
    everyone refills and the taker plays again."""
    s = scenario(["7 8", "1"])
    t, ev = act(s, "D")
    assert kinds(ev)[:2] == ["damage-declared", "damage"]
    assert first(ev, "damage").data["amount"] == 0 and first(ev, "damage").data["pile"] is None
    assert t.phase == "turn" and t.active == 0 and len(t.players[0].hand) == 5


def test_degats_l_adversaire_donne_un_paquet_de_cartes() -> None:
    """« L'adversaire choisit un des deux paquets du champ de bataille, et le donne au
    joueur qui prend des dégâts. Chaque carte ainsi reçue correspond à 1 dégât »: an
    empty zone is no pile of cards, so while one pile has cards it is the one given
    (option ``give_empty_pile=false``, the default: no chooser can spare a player)."""
    s = scenario(["7", "1"], piles=("", "Ch10 Pi3"), last_player=1)
    t, _ = act(s, "D")
    assert legal(t, 1) == {"P2"}
    with pytest.raises(IllegalAction) as exc:
        g.apply_text(t, 1, "P1")
    assert said(exc.value) == "Pile 1 is empty: give the pile that has cards."
    assert said(exc.value, "fr") == "Le paquet 1 est vide : donnez le paquet qui a des cartes."
    t, ev = act(t, "P2")
    assert first(ev, "damage").data["amount"] == 2 and t.players[0].life == 8
    # three players: the chooser cannot spare an ally either
    s = scenario(["7", "1", "1"], chars=THREE, piles=("Pi4", ""), active=0, last_player=2)
    t, _ = act(s, "D")
    assert t.decider == 2 and legal(t, 2) == {"P1"}


def test_option_give_empty_pile() -> None:
    """Option ``give_empty_pile=true``: the chooser may give an empty pile (0 damage)."""
    s = scenario(["7", "1"], piles=("", "Ch10 Pi3"), last_player=1, opts="give_empty_pile=true")
    t, _ = act(s, "D")
    assert legal(t, 1) == {"P1", "P2"}
    t, ev = act(t, "P1")
    assert first(ev, "damage").data["amount"] == 0 and t.players[0].life == 10


def test_option_damage_with_empty_piles_refused() -> None:
    """Option ``damage_with_empty_piles=refused``: with both piles empty ``D`` (a turn
    that changes nothing and could repeat forever) is refused; any card can be played
    there (« Si il y a une zone du champ de bataille vide, le joueur est obligé de
    jouer dessus »)."""
    s = scenario(["7 8", "1"], opts="damage_with_empty_piles=refused")
    assert legal(s) == {"7>1", "7>2", "8>1", "8>2"}
    with pytest.raises(IllegalAction) as exc:
        g.apply_text(s, 0, "D")
    assert "empty" in said(exc.value) and "vides" in said(exc.value, "fr")
    s = scenario(["7 8", "1"], piles=("Ch3", ""), opts="damage_with_empty_piles=refused")
    assert "D" in legal(s)


# ===========================================================================
# Fin de partie
# ===========================================================================


def test_fin_de_partie_points_de_vie_a_zero_le_joueur_encore_en_vie_gagne() -> None:
    """« La fin de partie se déclenche lorsqu'un joueur subit des dégâts et que ses
    points de vie arrivent à zéro. Le joueur encore en vie est le vainqueur »."""
    s = scenario(["7", "1"], piles=("Ch4 Ch6 Ch8", "Ch10"), damage=[7, 0], last_player=1)
    t, ev = act(s, "D", "P1")
    assert t.players[0].life == 0 and t.players[0].out
    assert "eliminated" in kinds(ev) and ev[-1].kind == "game-over"
    assert ev[-1].data["reason"] == "knockout"
    out = g.outcome(t)
    assert out is not None and out.winner == 1 and out.reason == "knockout"
    assert out.ranking == ((1,), (0,)) and out.place(0) == 2
    assert g.pending(t) == {} and g.legal_actions(t, 1) == []
    with pytest.raises(GameOver):
        g.apply_text(t, 1, "D")


def test_fin_de_partie_pas_avant_zero() -> None:
    """« ... arrivent à zéro »: damage that leaves 1 HP does not end the game."""
    s = scenario(["7", "1"], piles=("Ch4 Ch6", "Ch10"), damage=[7, 0], last_player=1)
    t, _ = act(s, "D", "P1")
    assert t.players[0].life == 1 and g.outcome(t) is None and t.active == 0
    # overkill counts as zero too
    s = scenario(["7", "1"], piles=("Ch4 Ch6 Ch8 Ch9", "Ch10"), damage=[8, 0], last_player=1)
    t, _ = act(s, "D", "P1")
    assert t.players[0].life == -2 and g.outcome(t).winner == 1


# ===========================================================================
# Coup fatal
# ===========================================================================


def test_coup_fatal_dernier_carte_l_adversaire_prend_sa_main_et_son_deck() -> None:
    """« Si un joueur joue sa dernière carte, alors son adversaire prend immédiatement en
    dégât toutes les cartes qu'il lui restent (en main et dans son deck). »"""
    s = scenario(["7", "1 2 3 4 5"], piles=("Ch9", "Pi4"), decks=["", "6 7 8"])
    t, ev = act(s, "7>1")
    cf = first(ev, "coup-fatal")
    assert cf.data["seat"] == 0 and cf.data["target"] == 1 and cf.data["amount"] == 8
    assert t.players[1].hand == () and t.players[1].deck == ()
    assert len(t.players[1].damage) == 8 and t.players[1].life == 2
    assert t.phase == "over" and g.outcome(t).reason == "coup-fatal"
    assert g.outcome(t).winner == 0  # 10 HP against 2
    assert sorted(all_cards(t)) == sorted(all_cards(s))


def test_coup_fatal_le_plus_de_points_de_vie_gagne() -> None:
    """« si aucun joueur n'est mort, alors c'est le joueur avec le plus de points de vie
    restant qui est déclaré gagnant » (even if it is not the one who ended it)."""
    s = scenario(["7", "1 2"], piles=("Ch9", "Pi4"), decks=["", ""], damage=[8, 0])
    t, ev = act(s, "7>1")
    assert [p.life for p in t.players] == [2, 8]
    out = g.outcome(t)
    assert out.winner == 1 and out.ranking == ((1,), (0,)) and out.scores == (2, 8)
    assert ev[-1].data["ender"] == 0


def test_coup_fatal_egalite_le_joueur_ayant_mis_fin_a_la_partie_gagne() -> None:
    """« En cas d'égalité c'est le joueur ayant mis fin à la partie qui gagne. »"""
    s = scenario(["7", "1 2 3"], piles=("Ch9", "Pi4"), decks=["", "6 8"], damage=[5, 0])
    t, _ = act(s, "7>1")
    assert [p.life for p in t.players] == [5, 5]
    assert g.outcome(t).ranking == ((0,), (1,)) and g.outcome(t).winner == 0
    # the same from the other seat
    s = scenario(["1 2 3", "7"], piles=("Pi9", "Ch4"), decks=["6 8", ""], damage=[0, 5], active=1)
    t, _ = act(s, "7>1")
    assert g.outcome(t).ranking == ((1,), (0,))


def test_coup_fatal_qui_tue_l_adversaire() -> None:
    """« Le joueur encore en vie est le vainqueur »: a coup fatal can bring the
    opponent to zero or below."""
    s = scenario(["7", "1 2"], piles=("Ch9", "Pi4"), damage=[0, 5], decks=["", None])
    t, _ = act(s, "7>1")
    assert t.players[1].life < 0 and g.outcome(t).winner == 0


def test_coup_fatal_seulement_quand_main_et_deck_sont_vides_t8() -> None:
    """T8 « Triggered when a card leaves the player's hand **and** deck empty »: the
    last card of the hand with cards left in the deck only refills the hand."""
    s = scenario(["7", "1"], piles=("Ch9", "Pi4"), decks=["1 2", None])
    t, ev = act(s, "7>1")
    assert "coup-fatal" not in kinds(ev) and g.outcome(t) is None
    assert hand(t, 0) == ["Pi1", "Pi2"] and t.active == 1


def test_coup_fatal_par_creation_de_lien_et_apres_le_joker() -> None:
    """T8: creating a link with one's last card, or a joker as last card (after its
    pull), also ends the game with a coup fatal."""
    s = scenario(["5", "1 2"], piles=("Ch9~", "Pi4"), decks=["", ""])
    t, ev = act(s, "5+1")
    assert "coup-fatal" in kinds(ev) and t.phase == "over"
    s = scenario(["X", "1 2"], piles=("Ch9 Ch7", "Pi4"), decks=["", ""])
    t, ev = act(s, "X>1")
    assert t.phase == "joker-pull" and "coup-fatal" not in kinds(ev)
    t, ev = act(t, "^Ch9")
    assert "coup-fatal" in kinds(ev) and t.phase == "over"


def test_coup_fatal_la_capacite_de_la_derniere_carte_s_applique_avant() -> None:
    """Code choice: the last card's ability is applied first (« on en applique
    obligatoirement sa capacité »), then the coup fatal: a Pirate discard makes the
    opponent take one card fewer."""
    s = scenario(["3", "1 2 4"], piles=("Ch2", "Ch9"), decks=["", ""])
    t, ev = act(s, "3>1")
    assert kinds(ev).index("discard") < kinds(ev).index("coup-fatal")
    assert first(ev, "coup-fatal").data["amount"] == 2 and len(t.discard) == 1


def test_coup_fatal_quand_un_joueur_n_a_plus_aucune_carte_a_son_tour() -> None:
    """Not in the seed (option ``exhausted=end``, the default): a player who starts a
    turn with no card in hand or deck (the Pirate discarded the last one) ends the
    game, reason ``exhausted``, ranked by HP as after a coup fatal (« c'est le joueur
    avec le plus de points de vie restant qui est déclaré gagnant »), ended by the last
    player to play; nobody takes extra damage. The seed's own endings cannot end such
    a game: the player can only take damage and then « commence un nouveau tour »
    again, for ever once both piles are empty."""
    s = scenario(["3 7", "1"], piles=("Ch2", "Ch9"), decks=[None, ""])
    t, ev = act(s, "3>1")
    assert first(ev, "discard").data["card"] == "Ch1"
    assert "coup-fatal" not in kinds(ev)
    assert t.phase == "over" and g.outcome(t).reason == "exhausted"
    assert ev[-1].data["ender"] == 0 and g.outcome(t).ranking == ((0,), (1,))


def test_option_exhausted_pass() -> None:
    """Option ``exhausted=pass``: the turns of a player with no card left pass; the game
    ends by the seed's own endings, here « Si un joueur joue sa dernière carte, alors
    son adversaire prend immédiatement en dégât toutes les cartes qu'il lui restent »."""
    s = scenario(["3 7 9", "1"], piles=("Ch2", "Ch16"), decks=["", ""], opts="exhausted=pass")
    t, ev = act(s, "3>1")
    assert first(ev, "discard").data["card"] == "Ch1"
    assert kinds(ev)[-2:] == ["turn-passed", "turn"] and t.active == 0
    assert g.outcome(t) is None
    text = said(g.describe_event(first(ev, "turn-passed"), ["Ana", "Bob"]), "fr")
    assert text == "Bob n'a plus de cartes : son tour passe."
    t, ev = act(t, "7>1", "9>1")
    assert g.outcome(t).reason == "coup-fatal" and first(ev, "coup-fatal").data["amount"] == 0
    assert g.outcome(t).ranking == ((0,), (1,))
    # a lock on the passed player is dropped with the turn
    s = scenario(
        ["3 7", "1"],
        piles=("Ch2", "Ch16"),
        decks=["", ""],
        opts="exhausted=pass",
        lock_next=((1, 0),),
    )
    t, _ = act(s, "3>1")
    assert t.lock_next == () and t.active == 0


# ===========================================================================
# Règles importantes
# ===========================================================================


def test_zone_vide_le_joueur_est_oblige_de_jouer_dessus_t2() -> None:
    """« Si il y a une zone du champ de bataille vide, le joueur est obligé de jouer
    dessus. »; T2: exactly one empty pile: you must play there, any value."""
    s = scenario(["1 7 16 X", "2"], piles=("", "Ch10"))
    assert plays(s) == {"1>1", "7>1", "16>1", "X>1"}
    with pytest.raises(IllegalAction) as exc:
        g.apply_text(s, 0, "7>2")
    assert said(exc.value) == "Pile 1 is empty: you must play there."
    t, _ = act(s, "16>1")
    assert t.piles == (("Pi16",), ("Ch10",))


def test_zones_vides_au_debut_n_importe_quelle_carte_t2() -> None:
    """T2 « At the start: any card on an empty pile »: both piles empty, every card
    on either pile."""
    s = scenario(["1 8 16 X 5", "2"])
    assert plays(s) == {f"{c}>{p}" for c in ("1", "8", "16", "X", "5") for p in (1, 2)}


def test_option_empty_pile_rule_free() -> None:
    """Option ``empty_pile_rule=free`` (T2 alternative): no obligation. Code choice: with
    one pile empty there are not two values, so any card goes on either pile."""
    s = scenario(["1 7 16", "2"], piles=("", "Ch10"), opts="empty_pile_rule=free")
    assert plays(s) == {f"{c}>{p}" for c in ("1", "7", "16") for p in (1, 2)}


def test_fin_de_tour_main_vide_pioche_jusqu_a_5() -> None:
    """« Si, à la fin d'un tour, un joueur n'a plus de cartes en main alors, il en
    pioche pour en avoir jusqu'à 5 en main. »"""
    s = scenario(["7", "1"], piles=("Ch4", "Ch10"))
    t, ev = act(s, "7>1")
    assert hand(t, 0) == ["Pi1", "Pi2", "Pi3", "Pi4", "Pi5"] and len(t.players[0].deck) == 11
    assert first(ev, "draw").data == {"seat": 0, "cards": ["Pi1", "Pi2", "Pi3", "Pi4", "Pi5"]}
    assert kinds(ev).index("draw") < kinds(ev).index("turn")
    # a hand that is not empty is not refilled
    s = scenario(["7 1", "1"], piles=("Ch4", "Ch10"))
    t, ev = act(s, "7>1")
    assert hand(t, 0) == ["Pi1"] and "draw" not in kinds(ev)
    # fewer than 5 in the deck: draw what is left
    s = scenario(["7", "1"], piles=("Ch4", "Ch10"), decks=["1 2", None])
    t, _ = act(s, "7>1")
    assert hand(t, 0) == ["Pi1", "Pi2"] and t.players[0].deck == ()


def test_fin_de_tour_un_joueur_dont_la_main_a_ete_videe_pioche_aussi() -> None:
    """« un joueur n'a plus de cartes en main »: any player, e.g. the opponent whose
    last card the Pirate discarded, refills at the end of the turn."""
    s = scenario(["3 7", "9"], piles=("Ch2", "Ch9"))
    t, ev = act(s, "3>1")
    assert first(ev, "discard").data["card"] == "Ch9"
    assert len(t.players[1].hand) == 5 and t.active == 1


def test_capacites_obligatoires() -> None:
    """« Lorsqu'une carte est jouée sur le champ de bataille, on en applique
    obligatoirement sa capacité. »: no way to skip a joker pull or a tutor, and no
    other move while the ability waits."""
    s = scenario(["X 10", "1"], piles=("Ch2 Ch4", "Ch12"))
    t, _ = act(s, "X>1")
    assert t.phase == "joker-pull" and legal(t) == {"^Ch4", "^Ch2"}
    with pytest.raises(IllegalAction) as exc:
        g.apply_text(t, 0, "D")
    assert "joker" in said(exc.value)
    s = scenario(["10 7", "1"], piles=("Ch2", "Ch12"), decks=["14 16", None])
    t, _ = act(s, "10>1")
    assert t.phase == "tutor" and legal(t) == {"T14", "T16"}
    with pytest.raises(IllegalAction):
        g.apply_text(t, 0, "7>1")
    # the Cow-boy's draw and the Ninja's reveal happen without asking
    s = scenario(["3 7", "1 2"], chars="cowboy,ninja", piles=("Ni2", "Ni12"))
    t, ev = act(s, "3>1")
    assert "draw" in kinds(ev) and len(t.players[0].hand) == 2


def test_capacite_contredit_une_regle_la_capacite_a_raison_t7() -> None:
    """« Si une capacité de carte contredit une règle de jeu c'est la capacité qui a
    raison. »; T7: the Chevalier's lock beats the empty-pile obligation."""
    s = scenario(["1 7 16", "2"], piles=("", "Ch10 Ch3"), turn_lock=1)
    # the empty pile 1 is not allowed, the locked pile 2 is (option
    # locked_pile_alone=any-card, the default: any value, since one pile has no value)
    assert plays(s) == {"1>2", "7>2", "16>2"}
    with pytest.raises(IllegalAction) as exc:
        g.apply_text(s, 0, "7>1")
    assert "Chevalier" in said(exc.value)


def test_option_locked_pile_alone_joker_only() -> None:
    """Option ``locked_pile_alone=joker-only``: locked on a pile while the other pile is
    empty, there are no two values to play between: only the joker (« (X) = Cette
    carte peut toujours être jouée ») or damage."""
    s = scenario(
        ["1 7 16 X", "2"], piles=("", "Ch10 Ch3"), turn_lock=1, opts="locked_pile_alone=joker-only"
    )
    assert legal(s) == {"X>2", "D"}
    with pytest.raises(IllegalAction) as exc:
        g.apply_text(s, 0, "7>2")
    assert "only the joker" in said(exc.value) and "seul le joker" in said(exc.value, "fr")
    # both piles with a value: the lock works as usual
    s = scenario(
        ["1 7 X", "2"], piles=("Ch4", "Ch10"), turn_lock=1, opts="locked_pile_alone=joker-only"
    )
    assert plays(s) == {"7>2", "X>2"}


def test_option_lock_beats_empty_pile_false() -> None:
    """Option ``lock_beats_empty_pile=false``: the lock and the empty-pile obligation
    both hold; when they cannot both be met, only damage is left, and the joker:
    « (X) = Cette carte peut toujours être jouée » (on the locked pile)."""
    s = scenario(
        ["1 7 X", "2"], piles=("", "Ch10 Ch3"), turn_lock=1, opts="lock_beats_empty_pile=false"
    )
    assert legal(s) == {"D", "X>2"}
    t, _ = act(s, "X>2")
    assert t.phase == "joker-pull" and t.piles[1][-1] == "PiX"
    s = scenario(["1 7", "2"], piles=("", "Ch10"), turn_lock=0, opts="lock_beats_empty_pile=false")
    assert plays(s) == {"1>1", "7>1"}


def test_deux_chiffres_qui_se_suivent_le_joueur_suivant_joue_ce_qu_il_veut_t3() -> None:
    """« Si deux chiffres se suivent ou sont identiques (sur le champs de bataille)
    alors le joueur suivant peut jouer la carte de son choix »; T3: any card, either
    pile."""
    for piles in (("Pi6", "Ch7"), ("Ch7", "Pi6"), ("Pi7", "Co7")):
        chars = "cowboy,pirate,chevalier"
        s = scenario(["1 16 3", "1", "1"], piles=piles, chars=chars)
        assert plays(s) == {f"{c}>{p}" for c in ("1", "16", "3") for p in (1, 2)}, piles
    # one apart is not enough: 6 and 8 allow only the 7
    s = scenario(["1 7 16", "1"], piles=("Ch6", "Ch8"))
    assert plays(s) == {"7>1", "7>2"}


def test_deux_chiffres_qui_se_suivent_apres_un_coup() -> None:
    """T3: the player who makes the tops consecutive gives the next player a free
    choice."""
    s = scenario(["5", "1 16 9"], piles=("Ch4", "Ch9"))
    t, _ = act(s, "5>2")  # tops 4 and 5
    assert t.active == 1 and plays(t) == {f"{c}>{p}" for c in ("1", "16", "9") for p in (1, 2)}


def test_deux_chiffres_qui_se_suivent_pas_pour_le_tour_bonus_du_ninja() -> None:
    """« Si deux chiffres se suivent ou sont identiques [...] alors le joueur suivant
    peut jouer la carte de son choix »: the next player, not the Ninja who made the
    tops consecutive and plays again (option ``adjacent_on_extra_turn=false``, the
    default). The freedom is the next player's once the extra turn is over."""
    s = scenario(["8 9 16 X", "1 16"], chars="ninja,pirate", piles=("Pi7", "Pi12"))
    t, ev = act(s, "8>2")  # Ninja special: tops 7 and 8, and a new turn
    assert "extra-turn" in kinds(ev) and t.active == 0 and t.bonus_turn
    assert plays(t) == {"X>1", "X>2"}  # nothing strictly between 7 and 8
    assert not g.view(t, 0).free_play
    t, _ = act(t, "X>1", "^Pi7")  # the joker brings the 7 back up: tops 7 and 8
    assert t.active == 1 and not t.bonus_turn and g.view(t, 1).free_play
    assert plays(t) == {f"{c}>{p}" for c in ("1", "16") for p in (1, 2)}


def test_option_adjacent_on_extra_turn() -> None:
    """Option ``adjacent_on_extra_turn=true``: consecutive tops free the Ninja's own
    extra turn too."""
    s = scenario(
        ["8 9 16", "1"],
        chars="ninja,pirate",
        piles=("Pi7", "Pi12"),
        opts="adjacent_on_extra_turn=true",
    )
    t, _ = act(s, "8>2")
    assert t.active == 0 and plays(t) == {f"{c}>{p}" for c in ("9", "16") for p in (1, 2)}


def test_option_adjacent_tops_free_false() -> None:
    """Option ``adjacent_tops_free=false`` (T3 off): consecutive tops leave no card
    strictly between; equal tops neither."""
    for piles in (("Ch6", "Ch7"), ("Ch7", "Co7")):
        s = scenario(
            ["1 16 X", "1"], chars="pirate,chevalier", piles=piles, opts="adjacent_tops_free=false"
        )
        assert plays(s) == {"X>1", "X>2"}


# ===========================================================================
# Le lien
# ===========================================================================


def test_lien_joue_sur_le_champ_de_bataille_tourne_vers_l_exterieur_t6() -> None:
    """« 1) Être jouée sur le champ de bataille => auquel cas, il faut obligatoirement
    la jouer tournée vers l'extérieur »; T6: played normally it is a number card
    (between the values) and its pile's link is open."""
    s = scenario(["5 12", "1"], piles=("Ch4", "Ch10"))
    assert plays(s) == {"5>1", "5>2"}  # the 12 is not between 4 and 10
    t, ev = act(s, "5>2")
    assert t.piles[1] == ("Ch10", "Pi5~") and pile_value(t.piles[1]) == 5
    assert first(ev, "play").data["card"] == "Pi5"
    assert kinds(ev) == ["play", "turn"]  # no ability
    assert g.view(t, None).piles[1][-1] == "Pi5~"


def test_lien_creer_un_lien_defausse_le_paquet_sans_respecter_les_valeurs_t6() -> None:
    """« 2) Créer un lien => ... défausser le paquet du champ de bataille qui a servi de
    connexion au lien et le remplacer par la carte ainsi jouée. Pour créer un lien il
    ne faut donc PAS respecter la contrainte de jouer entre les valeurs »; T6: the new
    link is alone and closed (no infinite chains)."""
    s = scenario(["12 5", "1"], piles=("Ch2 Ch9 Ch5~", "Ch4"))
    assert "12+1" in legal(s) and "5+1" in legal(s)  # 12 is not between 4 and 5
    assert "12+2" not in legal(s)
    t, ev = act(s, "12+1")
    assert t.piles == (("Pi12",), ("Ch4",))
    assert t.discard == ("Ch2", "Ch9", "Ch5")
    e = first(ev, "link")
    assert e.data == {"seat": 0, "card": "Pi12", "pile": 0, "discarded": ["Ch2", "Ch9", "Ch5"]}
    assert t.last_player == 0 and t.active == 1
    # the new link is closed: nobody can link on it
    t2 = evolve(t, players=(t.players[0], evolve(t.players[1], hand=("Ch12",))))
    assert not any("+" in a for a in legal(t2, 1))
    assert said(g.describe_action(s, 0, Link("12", 0))) == "Create link 12 on pile 1"
    assert said(g.describe_action(s, 0, Link("12", 0)), "fr") == "Créer un lien 12 sur le paquet 1"


def test_lien_creer_un_lien_demande_un_lien_ouvert() -> None:
    """« en complétant un lien déjà pré-établi »: only a pile whose top is an open link
    connects; a covered link does not; only link cards create links."""
    s = scenario(["12 7", "1"], piles=("Ch5~ Ch6", "Ch9"))
    assert not any("+" in a for a in legal(s))
    with pytest.raises(IllegalAction) as exc:
        g.apply_text(s, 0, "12+1")
    assert said(exc.value) == "Pile 1 has no open link to connect to."
    s = scenario(["12 7", "1"], piles=("Ch5~", "Ch9"))
    with pytest.raises(IllegalAction) as exc:
        g.apply_text(s, 0, "7+1")
    assert said(exc.value) == "The 7 is not a link card."


def test_lien_n_est_pas_une_capacite_et_ignore_le_cancel_t9() -> None:
    """« Créer ou jouer une carte « lien » n'est PAS une capacité. »; T9: the cancel does
    not stop links."""
    s = scenario(["12 5", "1"], piles=("Ch2 Ch5~", "Ch4"), turn_cancelled=True)
    t, ev = act(s, "12+1")
    assert "ability-cancelled" not in kinds(ev) and t.piles[0] == ("Pi12",)
    s = scenario(["5", "1"], piles=("Ch2", "Ch9"), turn_cancelled=True)
    t, ev = act(s, "5>1")
    assert "ability-cancelled" not in kinds(ev) and t.piles[0][-1] == "Pi5~"


def test_lien_creation_possible_avec_un_paquet_vide() -> None:
    """Code choice: creating a link puts the card « en dehors du champ de bataille », so
    the empty-pile obligation does not forbid it."""
    s = scenario(["12 7", "1"], piles=("", "Ch5~"))
    assert legal(s) == {"12>1", "7>1", "12+2", "D"}


def test_option_link_chain() -> None:
    """Option ``link_chain=true`` (T6 alternative): the created link stays open, so
    links can chain."""
    s = scenario(["12", "5"], piles=("Ch2 Ch5~", "Ch4"), opts="link_chain=true")
    t, _ = act(s, "12+1")
    assert t.piles[0] == ("Pi12~",)
    t = evolve(t, players=(t.players[0], evolve(t.players[1], hand=("Ch5",))))
    assert "5+1" in legal(t, 1)


# ===========================================================================
# Le joker
# ===========================================================================


def test_joker_x_peut_toujours_etre_jouee() -> None:
    """« (X) = Cette carte peut toujours être jouée »: whatever the values."""
    for piles in (("Ch4", "Ch5"), ("Ch1", "Ch16"), ("Ch8", "Ch9"), ("Ch3", "Ch12")):
        s = scenario(["X", "1"], piles=piles, opts="adjacent_tops_free=false")
        assert plays(s) == {"X>1", "X>2"}
    # code choice: the empty-pile obligation and the lock still choose the pile
    assert plays(scenario(["X", "1"], piles=("", "Ch4"))) == {"X>1"}
    assert plays(scenario(["X", "1"], piles=("Ch3", "Ch4"), turn_lock=1)) == {"X>2"}


def test_joker_faire_remonter_une_carte_au_dessus_du_joker_t5() -> None:
    """« choisissez une carte du paquet et faites la remonter au dessus de la carte
    « joker » »; T5: any card of that pile; its value becomes the pile's value."""
    s = scenario(["X 7", "1"], piles=("Ch2 Ch13 Ch6", "Ch12"))
    t, ev = act(s, "X>1")
    assert t.phase == "joker-pull" and t.decider == 0 and t.active == 0
    d = g.pending(t)[0]
    assert d.kind == "joker-pull" and d.param("pile") == 1
    assert legal(t) == {"^Ch2", "^Ch13", "^Ch6"}
    assert g.legal_actions(t, 1) == []
    t, ev = act(t, "^Ch13")
    assert t.piles[0] == ("Ch2", "Ch6", "PiX", "Ch13")
    assert pile_value(t.piles[0]) == 13
    assert first(ev, "joker-pull").data == {"seat": 0, "card": "Ch13", "pile": 0}
    assert t.phase == "turn" and t.active == 1


def test_joker_applique_la_capacite_de_la_carte_remontee() -> None:
    """« appliquez la capacité de la carte remontée comme si vous veniez de la jouer »:
    the Pirate pulls its own 3 (random discard) and discards from the opponent."""
    s = scenario(["X 7", "1 2"], piles=("Ch2 Pi3 Ch6", "Ch12"))
    t, ev = act(s, "X>1", "^Pi3")
    assert first(ev, "discard").data["seat"] == 0 and first(ev, "discard").data["target"] == 1
    assert len(t.players[1].hand) == 1 and pile_value(t.piles[0]) == 3


def test_joker_carte_de_l_adversaire_applique_sa_capacite() -> None:
    """« Si la carte remontée appartient à l'adversaire, alors, appliquez la capacité
    de la carte de l'adversaire. »: the Pirate pulls the Chevalier's 3 and locks the
    Chevalier on that pile; the Chevalier pulls the Cow-boy's 14 and draws."""
    s = scenario(["X 7", "1 6 15"], piles=("Ch3 Ch9", "Ch12"))
    t, ev = act(s, "X>1", "^Ch3")
    assert first(ev, "lock").data == {"seat": 0, "target": 1, "pile": 0}
    assert t.active == 1 and t.turn_lock == 0
    assert plays(t) == {"6>1"}
    s = scenario(["X 7", "1"], chars="chevalier,cowboy", piles=("Co14 Ch9", "Ch12"))
    t, ev = act(s, "X>1", "^Co14")
    assert first(ev, "draw").data == {"seat": 0, "cards": ["Ch1"]}
    assert hand(t, 0) == ["Ch1", "Ch7"]


def test_joker_capacite_a_decision_de_l_adversaire() -> None:
    """« appliquez la capacité de la carte de l'adversaire »: the Chevalier pulls the
    Pirate's 10 and takes a card of its choice from its own deck."""
    s = scenario(
        ["X 7", "1"], chars="chevalier,pirate", piles=("Pi10 Pi6", "Pi12"), decks=["2 16", None]
    )
    t, _ = act(s, "X>1", "^Pi10")
    assert t.phase == "tutor" and legal(t) == {"T2", "T16"}
    t, _ = act(t, "T16")
    assert hand(t, 0) == ["Ch7", "Ch16"] and t.active == 1


def test_joker_sur_un_paquet_sans_autre_carte() -> None:
    """Code choice: a joker on an empty pile has nothing to pull (event ``joker-empty``);
    a pile holding only jokers has no value, so the next player may play anything there
    and the other pile's value does not bind."""
    s = scenario(["X 7", "1 16"], piles=("", "Ch10"))
    t, ev = act(s, "X>1")
    assert "joker-empty" in kinds(ev) and t.active == 1
    assert pile_value(t.piles[0]) is None
    assert plays(t) == {"1>1", "1>2", "16>1", "16>2"}


def test_joker_ne_remonte_pas_un_autre_joker() -> None:
    """Code choice: T5 says « any card », but another joker is not offered (it has no
    value to give the pile)."""
    s = scenario(["X", "1"], piles=("Ch4 ChX", "Ch12"))
    t, _ = act(s, "X>1")
    assert legal(t) == {"^Ch4"}
    s = scenario(["X", "1"], piles=("ChX", "Ch12"))
    t, ev = act(s, "X>1")
    assert "joker-empty" in kinds(ev)


def test_joker_la_valeur_d_un_paquet_ignore_les_jokers() -> None:
    """T5: a joker has no value; a pile's value is its highest card that is not a joker."""
    s = scenario(["7 9", "1"], piles=("Ch4 ChX", "Ch10"))
    assert plays(s) == {"7>1", "7>2", "9>1", "9>2"}


def test_joker_remonte_un_lien_ouvert() -> None:
    """Code choice: a pulled link keeps its orientation, so it is open again on top."""
    s = scenario(["X", "12"], piles=("Ch5~ Ch9", "Ch12"))
    t, _ = act(s, "X>1", "^Ch5")
    assert t.piles[0][-1] == "Ch5~"
    assert "12+1" in legal(t, 1)


def test_option_joker_depth() -> None:
    """Option ``joker_depth`` (T5 alternative): only the N cards right under the joker."""
    s = scenario(["X", "1"], piles=("Ch2 Ch4 Ch6 Ch8", "Ch12"), opts="joker_depth=2")
    t, _ = act(s, "X>1")
    assert legal(t) == {"^Ch8", "^Ch6"}
    s = scenario(["X", "1"], piles=("Ch2 Ch4 Ch6 Ch8", "Ch12"), opts="joker_depth=0")
    t, _ = act(s, "X>1")
    assert legal(t) == {"^Ch8", "^Ch6", "^Ch4", "^Ch2"}


def test_joker_pull_illegal_cards() -> None:
    """« une carte du paquet »: only a card of that pile may be brought up."""
    s = scenario(["X", "1"], piles=("Ch2 Ch4", "Ch12"))
    t, _ = act(s, "X>1")
    before = frozen(t)
    for text in ("^Ch12", "^Pi2", "^ChX"):
        with pytest.raises(IllegalAction):
            g.apply_text(t, 0, text)
    assert frozen(t) == before


# ===========================================================================
# Capacités des cartes spéciales (3, 8, 14)
# ===========================================================================


def test_special_pirate_defaussez_une_carte_de_la_main_adverse_aleatoirement() -> None:
    """Pirate « Défaussez une carte dans la main de l'adversaire aléatoirement »."""
    results = set()
    for special in ("3", "8", "14"):
        for seed_rng in range(1, 9):
            s = scenario([f"{special} 1", "1 2 6 11 16"], piles=("Ch2", "Ch15"), rng=seed_rng)
            t, ev = act(s, f"{special}>1")
            e = first(ev, "discard")
            assert e.to is None  # the discarded card is public
            card = e.data["card"]
            assert card in s.players[1].hand and card not in t.players[1].hand
            assert t.discard == (card,) and len(t.players[1].hand) == 4
            results.add(card)
            # deterministic for a given state
            assert act(s, f"{special}>1")[0] == t
    assert len(results) >= 3  # random


def test_special_pirate_main_adverse_vide() -> None:
    """Pirate discard with an empty opponent hand: nothing happens (event ``discard-none``)."""
    s = scenario(["3 1", ""], piles=("Ch2", "Ch15"))
    t, ev = act(s, "3>1")
    assert "discard-none" in kinds(ev) and t.discard == ()


def test_special_cowboy_piochez_une_carte_de_votre_deck() -> None:
    """Cow-boy « Piochez une carte de votre deck » (private to the Cow-boy)."""
    s = scenario(["8 1", "1"], chars="cowboy,ninja", piles=("Ni2", "Ni15"))
    t, ev = act(s, "8>1")
    e = first(ev, "draw")
    assert e.data == {"seat": 0, "cards": ["Co2"]} and e.to == frozenset({0})
    assert e.for_seat(1).data == {"seat": 0, "count": 1}
    assert hand(t, 0) == ["Co1", "Co2"]
    s = scenario(["8 1", "1"], chars="cowboy,ninja", piles=("Ni2", "Ni15"), decks=["", None])
    t, ev = act(s, "8>1")
    assert first(ev, "draw").data == {"seat": 0, "count": 0} and hand(t, 0) == ["Co1"]


def test_special_chevalier_verrou_lors_de_son_prochain_tour() -> None:
    """Chevalier « Votre adversaire, lors de son prochain tour, doit jouer sur ce paquet
    (ou prendre des dégâts), il n'est donc pas possible de « créer un lien » »."""
    s = scenario(["4 8 5 12 1", "3 7"], piles=("Pi2", "Pi16 Pi12~"), active=1)
    t, ev = act(s, "3>1")
    assert first(ev, "lock").data == {"seat": 1, "target": 0, "pile": 0}
    assert t.active == 0 and t.turn_lock == 0
    d = g.pending(t)[0]
    assert d.param("pile") == 1 and "Chevalier" in said(g.decision_text(d))
    # between 3 and 12, on pile 1 only; no link creation on the open 12
    assert legal(t) == {"4>1", "8>1", "5>1", "D"}
    with pytest.raises(IllegalAction) as exc:
        g.apply_text(t, 0, "8>2")
    assert said(exc.value) == "The Chevalier forces you to play on pile 1."
    with pytest.raises(IllegalAction) as exc:
        g.apply_text(t, 0, "12+2")
    assert "Chevalier" in said(exc.value)
    # without the lock the same hand could link and play on pile 2
    free = evolve(t, turn_lock=-1)
    assert {"12+2", "8>2"} <= legal(free)
    # only the next turn: after it, the Pirate plays freely again
    t, _ = act(t, "4>1", "7>2")
    assert t.active == 0 and t.turn_lock == -1 and t.lock_next == ()


def test_special_chevalier_verrou_echappe_en_prenant_des_degats() -> None:
    """Chevalier lock « (ou prendre des dégâts) »: damage stays possible; code choice:
    the new turn after the damage is no longer locked (the lock was that one turn)."""
    s = scenario(["1 16", "3 7"], piles=("Pi2", "Pi9"), active=1)
    t, _ = act(s, "3>1")
    assert legal(t) == {"D"}
    t, _ = act(t, "D", "P1")
    assert t.active == 0 and t.turn_lock == -1 and t.lock_next == ()
    # pile 1 (the locked one) was given: the new turn obeys the empty pile, not the lock
    assert plays(t) == {f"{c[2:]}>1" for c in t.players[0].hand}
    s = scenario(["1 16", "3 7"], piles=("Pi2", "Pi9"), active=1)
    t, _ = act(s, "3>1", "D", "P2")
    assert plays(t) == {f"{c[2:]}>2" for c in t.players[0].hand}


def test_verrou_ne_vaut_que_pour_un_tour_meme_avec_le_tour_du_ninja() -> None:
    """Code choice: « lors de son prochain tour » is one turn: the Ninja's extra turn
    after a locked turn is free."""
    s = scenario(["3 1", "8 14 4"], chars="chevalier,ninja", piles=("Ni2", "Ni16"))
    t, _ = act(s, "3>1")
    assert t.turn_lock == 0 and plays(t) == {"8>1", "14>1", "4>1"}
    t, ev = act(t, "8>1")
    assert "extra-turn" in kinds(ev) and t.active == 1 and t.turn_lock == -1
    assert "14>2" in plays(t)


def test_special_ninja_vous_jouez_immediatement_un_nouveau_tour() -> None:
    """Ninja « Vous jouez immédiatement un nouveau tour »."""
    s = scenario(["14 7 1", "1"], chars="ninja,pirate", piles=("Pi2", "Pi16"))
    t, ev = act(s, "14>1")
    assert "extra-turn" in kinds(ev)
    assert t.active == 0 and t.decider == 0 and t.turn == s.turn + 1
    assert plays(t) == set()  # 14 and 16: nothing between; no card in hand fits
    t2, _ = act(evolve(t, piles=(("Pi2",), ("Pi16",))), "7>2")
    assert t2.active == 1
    # the extra turn refills an emptied hand first
    s = scenario(["8", "1"], chars="ninja,pirate", piles=("Pi2", "Pi16"))
    t, _ = act(s, "8>1")
    assert t.active == 0 and len(t.players[0].hand) == 5


# ===========================================================================
# Capacités des cartes uniques (10)
# ===========================================================================


def test_unique_pirate_prenez_une_carte_au_choix_puis_melangez() -> None:
    """Pirate « Prenez une carte au choix depuis votre deck et ajoutez-la à votre main.
    Mélangez ensuite votre deck »."""
    s = scenario(["10 7", "1"], piles=("Ch2", "Ch12"))
    t, _ = act(s, "10>1")
    assert t.phase == "tutor" and g.pending(t)[0].kind == "tutor"
    deck_labels = {c[2:] for c in s.players[0].deck}
    assert legal(t) == {f"T{lab}" for lab in deck_labels}
    t, ev = act(t, "T14")
    assert hand(t, 0) == ["Pi7", "Pi14"]
    assert sorted(t.players[0].deck) == sorted(c for c in s.players[0].deck if c != "Pi14")
    assert list(t.players[0].deck) != [c for c in s.players[0].deck if c != "Pi14"]  # shuffled
    e = first(ev, "tutor")
    assert e.data == {"seat": 0, "card": "Pi14"} and e.to == frozenset({0})
    assert e.for_seat(1).data == {"seat": 0} and e.for_seat(None).data == {"seat": 0}
    assert t.active == 1
    with pytest.raises(IllegalAction):
        g.apply_text(act(s, "10>1")[0], 0, "T7")  # the 7 is in hand, not in the deck


def test_unique_pirate_deck_vide() -> None:
    """Pirate tutor with an empty deck: nothing to take (event ``tutor-empty``)."""
    s = scenario(["10 7", "1"], piles=("Ch2", "Ch12"), decks=["", None])
    t, ev = act(s, "10>1")
    assert "tutor-empty" in kinds(ev) and t.active == 1


def test_unique_cowboy_prenez_la_carte_du_dessus_de_l_autre_paquet_t10() -> None:
    """Cow-boy « Prenez la carte du dessus de l'autre paquet et placez-la par dessus
    celle-ci. Gardez son sens d'orientation. »; T10: the moved card keeps its open link."""
    s = scenario(["10 1", "1"], chars="cowboy,chevalier", piles=("Ch4", "Ch2 Ch12~"))
    t, ev = act(s, "10>1")
    assert t.piles == (("Ch4", "Co10", "Ch12~"), ("Ch2",))
    assert first(ev, "steal-top").data == {"seat": 0, "card": "Ch12", "from": 1, "to": 0}
    assert pile_value(t.piles[0]) == 12
    t2 = evolve(t, players=(t.players[0], evolve(t.players[1], hand=("Ch5",))))
    assert "5+1" in legal(t2, 1)
    # the other pile emptied: the next player must play there
    s = scenario(["10 1", "1 7"], chars="cowboy,chevalier", piles=("Ch4", "Ch12"))
    t, _ = act(s, "10>1")
    assert t.piles[1] == () and plays(t) == {"1>2", "7>2"}


def test_option_cowboy_keeps_link_false() -> None:
    """Option ``cowboy_keeps_link=false`` (T10 off): the moved link is closed."""
    s = scenario(
        ["10 1", "5"],
        chars="cowboy,chevalier",
        piles=("Ch4", "Ch12~"),
        opts="cowboy_keeps_link=false",
    )
    t, _ = act(s, "10>1")
    assert t.piles[0][-1] == "Ch12" and "5+1" not in legal(t, 1)


def test_unique_cowboy_autre_paquet_vide() -> None:
    """Cow-boy steal with an empty other pile (possible with ``empty_pile_rule=free``):
    nothing moves."""
    s = scenario(
        ["10 1", "1"], chars="cowboy,chevalier", piles=("Ch4", ""), opts="empty_pile_rule=free"
    )
    t, ev = act(s, "10>1")
    assert first(ev, "steal-top").data == {"seat": 0, "card": None, "from": 1}
    assert t.piles == (("Ch4", "Co10"), ())


def test_unique_chevalier_annule_la_capacite_lors_de_son_prochain_tour() -> None:
    """Chevalier « Votre adversaire, lors de son prochain tour, n'applique pas la
    capacité de sa carte jouée. »"""
    s = scenario(["3 1", "10 13 6"], piles=("Pi2", "Pi16"), active=1)
    t, ev = act(s, "10>2")
    assert first(ev, "cancel").data == {"seat": 1, "target": 0}
    assert t.active == 0 and t.turn_cancelled and first(ev[::-1], "turn").data["cancelled"]
    t, ev = act(t, "3>1")
    assert "ability-cancelled" in kinds(ev) and "discard" not in kinds(ev)
    assert len(t.players[1].hand) == 2 and t.discard == ()
    # only that turn: the Pirate's next special works again
    t = evolve(t, players=(evolve(t.players[0], hand=("Pi8",)), t.players[1]))
    t, _ = act(t, "6>1")  # Chevalier: 3 and 10 -> the 6
    t, ev = act(t, "8>1")  # Pirate: 6 and 10 -> the 8
    assert "discard" in kinds(ev)


def test_unique_chevalier_annulation_consommee_par_des_degats() -> None:
    """Code choice: « lors de son prochain tour »: a cancelled turn spent taking damage
    uses up the cancel; the new turn after the damage has its abilities."""
    s = scenario(["3 1", "10 13 6"], piles=("Pi2", "Pi16"), active=1)
    t, _ = act(s, "10>2", "D", "P1")
    assert t.active == 0 and not t.turn_cancelled and t.cancel_next == ()
    t, ev = act(t, "3>1")  # pile 1 is empty now: any value there
    assert "discard" in kinds(ev)


def test_unique_chevalier_annule_aussi_le_joker_t9() -> None:
    """T9 « Also cancels a Joker's ability »: a cancelled joker is placed, nothing is
    pulled."""
    s = scenario(["X 1", "1"], piles=("Ch2 Ch3", "Ch16"), turn_cancelled=True)
    t, ev = act(s, "X>1")
    assert "ability-cancelled" in kinds(ev) and t.phase == "turn" and t.active == 1
    assert t.piles[0] == ("Ch2", "Ch3", "PiX")


def test_option_cancel_stops_joker_false() -> None:
    """Option ``cancel_stops_joker=false`` (T9 off): the joker still pulls, but the
    turn stays cancelled: « Votre adversaire, lors de son prochain tour, n'applique pas
    la capacité de sa carte jouée », so the pulled card's ability does not apply."""
    s = scenario(
        ["X 1", "1 2"],
        piles=("Ch2 Pi3", "Ch16"),
        turn_cancelled=True,
        opts="cancel_stops_joker=false",
    )
    t, ev = act(s, "X>1")
    assert t.phase == "joker-pull"
    t, ev = act(t, "^Pi3")
    assert "discard" not in kinds(ev) and first(ev, "ability-cancelled").data["card"] == "Pi3"
    assert t.piles[0] == ("Ch2", "PiX", "Pi3") and len(t.players[1].hand) == 2


def test_unique_ninja_votre_adversaire_revele_sa_main() -> None:
    """Ninja « Votre adversaire révèle sa main actuelle et la place face visible devant
    lui. »"""
    s = scenario(["10 1", "4 9 X"], chars="ninja,pirate", piles=("Pi2", "Pi12"))
    t, ev = act(s, "10>1")
    e = first(ev, "reveal")
    assert e.to is None and e.data == {"seat": 0, "target": 1, "cards": ["Pi4", "Pi9", "PiX"]}
    assert set(t.players[1].revealed) == {"Pi4", "Pi9", "PiX"}
    for observer in (0, None):
        pv = g.view(t, observer).players[1]
        assert pv.hand is None and pv.revealed == ("Pi4", "Pi9", "PiX")
    # « sa main actuelle »: cards drawn later stay hidden; played ones leave the display
    t, _ = act(t, "X>2")
    assert set(t.players[1].revealed) == {"Pi4", "Pi9"}
    t = evolve(t, players=(t.players[0], evolve(t.players[1], hand=(*t.players[1].hand, "Pi7"))))
    assert g.view(t, 0).players[1].revealed == ("Pi4", "Pi9")
    assert g.view(t, 0).players[1].hand_count == 3


# ===========================================================================
# 3 and 4 players
# ===========================================================================

THREE = "pirate,chevalier,cowboy"
FOUR = "pirate,chevalier,cowboy,ninja"


def test_t4_a_3_joueurs_le_dernier_joueur_a_avoir_joue_choisit() -> None:
    """T4 « The opponent (in 3–4 players: the last player to play) chooses the pile »."""
    s = scenario(["1", "1", "1"], chars=THREE, piles=("Pi4", "Ch9"), active=2, last_player=0)
    t, ev = act(s, "D")
    assert t.decider == 0 and first(ev, "damage-declared").data["chooser"] == 0
    assert list(g.pending(t)) == [0]
    t, _ = act(t, "P2")
    assert t.active == 2 and len(t.players[2].damage) == 1
    # after a play, the player who just played chooses
    s = scenario(["1", "5", "1"], chars=THREE, piles=("Pi4", "Pi9"), active=1, last_player=0)
    t, _ = act(s, "5>1", "D")
    assert t.decider == 1


def test_t4_choix_quand_personne_d_autre_n_a_joue() -> None:
    """Code choice: if nobody has played yet, or the taker itself played last (extra
    turn), the previous living player chooses (with 2 players: always « l'adversaire »)."""
    s = scenario(["1", "1"], piles=("Pi4", "Ch9"), last_player=0)
    assert act(s, "D")[0].decider == 1
    s = scenario(["1", "1"], piles=("Pi4", "Ch9"), active=1)
    assert act(s, "D")[0].decider == 0
    s = scenario(["1", "1", "1"], chars=THREE, piles=("Pi4", "Ch9"), active=1)
    assert act(s, "D")[0].decider == 0
    s = scenario(["1", "1", "1"], chars=THREE, piles=("Pi4", "Ch9"), active=1, last_player=1)
    assert act(s, "D")[0].decider == 0
    s = scenario(
        ["1", "1", "1"], chars=THREE, piles=("Pi4", "Ch9"), active=1, last_player=0, out=[0]
    )
    assert act(s, "D")[0].decider == 2


def test_option_damage_chooser_taker() -> None:
    """Option ``damage_chooser=taker`` (T4 alternative): the taker picks its own pile."""
    s = scenario(["1", "1"], piles=("Pi4", "Ch9 Ch3"), last_player=1, opts="damage_chooser=taker")
    t, ev = act(s, "D")
    assert t.decider == 0 and first(ev, "damage-declared").data["chooser"] == 0
    t, _ = act(t, "P1")
    assert t.players[0].life == 9


def test_option_damage_refill_taker_and_chooser() -> None:
    """Option ``damage_refill=taker-and-chooser`` (T4 alternative to « Everyone refills to
    5 »): in 3 players the third player does not refill."""
    for refill, expected in (("all", [5, 5, 5]), ("taker-and-chooser", [5, 5, 1])):
        s = scenario(
            ["1", "1", "1"],
            chars=THREE,
            piles=("Pi4", "Ch9"),
            active=1,
            last_player=0,
            opts=f"damage_refill={refill}",
        )
        t, _ = act(s, "D", "P1")
        assert [len(p.hand) for p in t.players] == expected, refill


def test_fin_de_partie_a_3_joueurs_la_premiere_mort_termine_la_partie() -> None:
    """« La fin de partie se déclenche lorsqu'un joueur subit des dégâts et que ses
    points de vie arrivent à zéro »: with 3-4 players too the first death ends the game
    (option ``elimination=first-death``, the default). The living rank by HP left, a
    tie going to the player who ended it (the last to play, who gave the pile); the
    dead rank last."""
    s = scenario(
        ["1", "7", "1"],
        chars=THREE,
        piles=("Pi4 Pi6", "Ch9"),
        active=2,
        last_player=1,
        damage=[3, 3, 9],
    )
    t, ev = act(s, "D", "P1")
    assert kinds(ev)[-2:] == ["eliminated", "game-over"] and t.phase == "over"
    out = g.outcome(t)
    assert out.reason == "knockout" and ev[-1].data["ender"] == 1
    assert out.ranking == ((1,), (0,), (2,)) and out.winner == 1
    # a resignation is no death by damage: the others play on
    s = scenario(["1", "7", "1"], chars=THREE, piles=("Pi4", "Ch9"), active=0)
    t, ev = g.resign(s, 2)
    assert g.outcome(t) is None and t.players[2].out and t.active == 0


def test_elimination_last_standing_a_3_joueurs() -> None:
    """Option ``elimination=last-standing``: the dead player leaves, the others play
    on; turns skip it."""
    s = scenario(
        ["1", "7", "1"],
        chars=THREE,
        piles=("Pi4 Pi6", "Ch9"),
        active=2,
        last_player=1,
        damage=[0, 0, 9],
        opts="elimination=last-standing",
    )
    t, ev = act(s, "D", "P1")
    assert "eliminated" in kinds(ev) and g.outcome(t) is None
    assert t.players[2].out and t.eliminated == (2,)
    assert t.players[2].hand == () and t.players[2].deck == ()
    assert t.active == 0  # the next living player after the dead one
    assert t.players[1].damage == () and len(t.players[0].hand) == 5  # the others refilled
    # turns go 0 -> 1 -> 0, skipping seat 2
    t = evolve(t, piles=(("Co1",), ("Co16",)))
    t, _ = act(t, "2>1")
    assert t.active == 1
    t, _ = act(t, "4>1")
    assert t.active == 0
    # killing the second-to-last player ends the game
    s = scenario(
        ["1", "7", "1"],
        chars=THREE,
        piles=("Pi4 Pi6", "Ch9"),
        active=0,
        last_player=1,
        damage=[9, 0, 0],
        out=[2],
        opts="elimination=last-standing",
    )
    t, ev = act(s, "D", "P1")
    assert g.outcome(t).ranking == ((1,), (0,), (2,))
    assert g.outcome(t).reason == "knockout"


def test_option_elimination_first_death() -> None:
    """Option ``elimination=first-death``: the game stops at the first death; the
    living rank by HP (ties to the player who ended it), the dead last."""
    s = scenario(
        ["1", "7", "1", "1"],
        chars=FOUR,
        piles=("Pi4 Pi6", "Ch9"),
        active=2,
        last_player=1,
        damage=[3, 1, 9, 3],
        opts="elimination=first-death",
    )
    t, ev = act(s, "D", "P1")
    out = g.outcome(t)
    assert out.reason == "knockout" and ev[-1].data["ender"] == 1
    assert out.ranking == ((1,), (0, 3), (2,))
    assert out.place(3) == 2 and out.winner == 1


def test_option_targeting_next_et_choose() -> None:
    """Options ``targeting=next`` (default: the Pirate's discard and the Ninja's reveal
    hit the next player) and ``targeting=choose`` (``@N``)."""
    s = scenario(["3 1", "1 2", "1 2"], chars=THREE, piles=("Ch2", "Ch9"))
    t, ev = act(s, "3>1")
    assert first(ev, "discard").data["target"] == 1
    s = scenario(["3 1", "1 2", "1 2"], chars=THREE, piles=("Ch2", "Ch9"), opts="targeting=choose")
    t, ev = act(s, "3>1")
    assert t.phase == "target" and t.decider == 0 and t.work_ability == "discard-random"
    d = g.pending(t)[0]
    assert d.kind == "target" and d.param("ability") == "discard-random"
    assert legal(t) == {"@2", "@3"}
    with pytest.raises(IllegalAction):
        g.apply_text(t, 0, "@1")
    with pytest.raises(IllegalAction):
        g.apply_text(t, 0, "@4")
    t, ev = act(t, "@3")
    assert first(ev, "discard").data["target"] == 2 and len(t.players[2].hand) == 1
    assert t.active == 1 and t.work_ability == ""
    # the Ninja's reveal, through a joker pull
    s = scenario(
        ["X 1", "1 2", "4 5"],
        chars="cowboy,pirate,chevalier",
        piles=("Ni10 Ch6", "Ch12"),
        opts="targeting=choose",
    )
    t, _ = act(s, "X>1", "^Ni10")
    assert t.phase == "target" and g.pending(t)[0].param("ability") == "reveal"
    t, ev = act(t, "@3")
    assert first(ev, "reveal").data["target"] == 2 and set(t.players[2].revealed) == {"Ch4", "Ch5"}
    # with a single living opponent there is nothing to choose
    s = scenario(
        ["3 1", "1 2", "1 2"], chars=THREE, piles=("Ch2", "Ch9"), out=[1], opts="targeting=choose"
    )
    t, ev = act(s, "3>1")
    assert first(ev, "discard").data["target"] == 2


def test_verrou_et_annulation_visent_le_joueur_suivant_a_4() -> None:
    """Code choice: in 3-4 players « votre adversaire » of the lock and the cancel is the
    next living player (``targeting`` does not apply to them)."""
    s = scenario(
        ["1", "3 10", "1", "1"], chars=FOUR, piles=("Pi2", "Pi9"), active=1, opts="targeting=choose"
    )
    t, ev = act(s, "3>1")
    assert first(ev, "lock").data["target"] == 2 and t.active == 2 and t.turn_lock == 0
    s = scenario(["1", "3 10", "1", "1"], chars=FOUR, piles=("Pi2", "Pi12"), active=1, out=[2])
    t, ev = act(s, "10>1")
    assert first(ev, "cancel").data["target"] == 3 and t.active == 3 and t.turn_cancelled


def test_tours_a_4_joueurs_dans_l_ordre_des_places() -> None:
    """Turn order follows the seats and wraps around."""
    s = scenario(
        ["7", "6", "5", "9"],
        chars=FOUR,
        piles=("Pi2", "Pi16"),
        active=2,
        decks=["1 2", "1 2", "1 2", "1 2"],
    )
    order = []
    for label in ("5>1", "9>2", "7>2", "6>1"):
        order.append(s.active)
        s, _ = act(s, label)
    assert order == [2, 3, 0, 1] and s.active == 2


def test_option_coup_fatal_targets() -> None:
    """Option ``coup_fatal_targets`` (T8, 3-4 players): ``all`` opponents take their
    remaining cards, or only the ``next`` one."""
    for mode, amounts in (("all", {1: 3, 2: 2}), ("next", {1: 3})):
        s = scenario(
            ["7", "1 2 3", "1 2"],
            chars=THREE,
            piles=("Ch2", "Ch9"),
            decks=["", "", ""],
            opts=f"coup_fatal_targets={mode}",
        )
        t, ev = act(s, "7>1")
        got = {e.data["target"]: e.data["amount"] for e in ev if e.kind == "coup-fatal"}
        assert got == amounts, mode
        assert g.outcome(t).reason == "coup-fatal"
    # ranking: most HP first
    s = scenario(
        ["7", "1 2 3", "1 2"],
        chars=THREE,
        piles=("Ch2", "Ch9"),
        decks=["", "", ""],
        damage=[6, 0, 0],
    )
    t, _ = act(s, "7>1")
    assert [p.life for p in t.players] == [4, 7, 8]
    assert g.outcome(t).ranking == ((2,), (1,), (0,))


# ===========================================================================
# Every option: parsing, defaults, non-default values, errors
# ===========================================================================

OPTION_CASES = {
    "characters": ("pirate,knight", ("pirate", "chevalier")),
    "hp": ("12", 12),
    "hp_variant": ("asymmetric", "asymmetric"),
    "between_rule": ("inclusive", "inclusive"),
    "empty_pile_rule": ("free", "free"),
    "adjacent_tops_free": ("false", False),
    "damage_chooser": ("taker", "taker"),
    "damage_refill": ("taker-and-chooser", "taker-and-chooser"),
    "joker_depth": ("3", 3),
    "link_chain": ("true", True),
    "lock_beats_empty_pile": ("false", False),
    "coup_fatal_targets": ("next", "next"),
    "cancel_stops_joker": ("false", False),
    "cowboy_keeps_link": ("false", False),
    "elimination": ("last-standing", "last-standing"),
    "targeting": ("choose", "choose"),
    "exhausted": ("pass", "pass"),
    "locked_pile_alone": ("joker-only", "joker-only"),
    "adjacent_on_extra_turn": ("true", True),
    "damage_with_empty_piles": ("refused", "refused"),
    "give_empty_pile": ("true", True),
}

DEFAULTS = {
    "characters": (),
    "hp": None,
    "hp_variant": "equal",
    "between_rule": "strict",
    "empty_pile_rule": "must-play-there",
    "adjacent_tops_free": True,
    "damage_chooser": "last-player",
    "damage_refill": "all",
    "joker_depth": 0,
    "link_chain": False,
    "lock_beats_empty_pile": True,
    "coup_fatal_targets": "all",
    "cancel_stops_joker": True,
    "cowboy_keeps_link": True,
    "elimination": "first-death",
    "targeting": "next",
    "exhausted": "end",
    "locked_pile_alone": "any-card",
    "adjacent_on_extra_turn": False,
    "damage_with_empty_piles": "allowed",
    "give_empty_pile": False,
}


def test_options_every_field_is_covered() -> None:
    """Every field of ``Options`` has a case below (a new option needs a test)."""
    assert set(Options.model_fields) == set(OPTION_CASES) == set(DEFAULTS)


def test_options_defaults_are_the_rulings() -> None:
    """Each ruling is an option whose default is our resolution (T1-T10)."""
    opts = g.options("")
    assert {k: getattr(opts, k) for k in DEFAULTS} == DEFAULTS
    assert g.options_text(opts) == ""
    assert g.options(None) == opts and g.options({}) == opts


@pytest.mark.parametrize("key", sorted(OPTION_CASES))
def test_option_non_default_value(key: str) -> None:
    """Every option accepts its non-default value, as text and as a mapping, and it
    reaches the rules of a new game."""
    text, value = OPTION_CASES[key]
    opts = g.options(f"{key.replace('_', '-')}={text}")
    assert getattr(opts, key) == value
    assert g.options({key: value}) == opts
    assert g.options(g.options_text(opts)) == opts
    chars = "" if key == "characters" else "characters=pirate,chevalier "
    s = g.setup(g.options(f"{chars}{key}={text}"), 2, seed=1)
    rules = s.rules
    mirror = {
        "between_rule": rules.between_rule,
        "empty_pile_rule": "must-play-there" if rules.empty_pile_must else "free",
        "adjacent_tops_free": rules.adjacent_tops_free,
        "damage_chooser": rules.damage_chooser,
        "damage_refill": rules.damage_refill,
        "joker_depth": rules.joker_depth,
        "link_chain": rules.link_chain,
        "lock_beats_empty_pile": rules.lock_beats_empty_pile,
        "coup_fatal_targets": rules.coup_fatal_targets,
        "cancel_stops_joker": rules.cancel_stops_joker,
        "cowboy_keeps_link": rules.cowboy_keeps_link,
        "elimination": rules.elimination,
        "targeting": rules.targeting,
        "exhausted": rules.exhausted,
        "locked_pile_alone": rules.locked_pile_alone,
        "adjacent_on_extra_turn": rules.adjacent_on_extra_turn,
        "damage_with_empty_piles": rules.damage_with_empty_piles,
        "give_empty_pile": rules.give_empty_pile,
        "characters": tuple(p.character for p in s.players),
        "hp": s.players[0].hp,
        "hp_variant": "asymmetric" if s.players[1].hp == 11 else "equal",
    }
    assert mirror[key] == value


def test_options_unknown_key_lists_valid_keys() -> None:
    """An unknown option is refused with the list of valid keys."""
    with pytest.raises(BadOptions) as exc:
        g.options("hitpoints=12")
    reason = said(exc.value)
    assert "hitpoints" in reason and "Valid keys:" in reason
    for key in OPTION_CASES:
        assert key in reason
    assert exc.value.code == "bad-options"


def test_options_bad_values_are_refused_readably() -> None:
    """Bad option values are refused with a readable reason."""
    for text, needle in (
        ("between_rule=loose", "between_rule"),
        ("joker_depth=51", "joker_depth"),
        ("joker_depth=-1", "joker_depth"),
        ("characters=pirate,pirate", "each character deck exists once"),
        ("characters=samurai", "unknown character"),
        ("hp", "key=value"),
    ):
        with pytest.raises(BadOptions) as exc:
            g.options(text)
        assert needle in said(exc.value), (text, said(exc.value))
    with pytest.raises(BadOptions) as exc:
        g.options("elimination=never")
    assert "Valid keys" in said(exc.value)


def test_options_characters_aliases_and_separators() -> None:
    """``characters`` accepts aliases (knight, cow-boy) and several separators."""
    opts = g.options("characters=Cow-boy/KNIGHT, hp=9")
    assert opts.characters == ("cowboy", "chevalier") and opts.hp == 9
    assert g.options({"characters": ["ninja", "pirate"]}).characters == ("ninja", "pirate")


# ===========================================================================
# Notation
# ===========================================================================

ACTIONS = [
    Pick("pirate"),
    Pick("cowboy"),
    Play("7", 0),
    Play("X", 1),
    Play("16", 1),
    Link("5", 0),
    Link("12", 1),
    TakeDamage(),
    GivePile(0),
    GivePile(1),
    Pull("Co7"),
    Pull("Ni16"),
    Tutor("14"),
    Tutor("X"),
    Target(1),
    Target(3),
]


@pytest.mark.parametrize("action", ACTIONS, ids=lambda a: GAME.format_action(a))
def test_notation_round_trip(action: object) -> None:
    """``parse_action(format_action(a)) == a`` for every action kind."""
    text = g.format_action(action)
    assert g.parse_action(text) == action
    assert g.format_action(g.parse_action(text)) == text


def test_notation_examples_of_the_module() -> None:
    """The notation of the module docstring."""
    assert [g.format_action(a) for a in ACTIONS[:12]] == [
        "pirate",
        "cowboy",
        "7>1",
        "X>2",
        "16>2",
        "5+1",
        "12+2",
        "D",
        "P1",
        "P2",
        "^Co7",
        "^Ni16",
    ]


@pytest.mark.parametrize(
    ("text", "action"),
    [
        (" 7 > 1 ", Play("7", 0)),
        ("x>2", Play("X", 1)),
        ("07>1", Play("7", 0)),
        ("d", TakeDamage()),
        ("dégâts", TakeDamage()),
        ("Damage", TakeDamage()),
        ("^co7", Pull("Co7")),
        ("^ Ch x", Pull("ChX")),
        ("p2", GivePile(1)),
        ("t 14", Tutor("14")),
        ("@ 2", Target(1)),
        ("5 + 2", Link("5", 1)),
        ("Cow-boy", Pick("cowboy")),
        ("Knight", Pick("chevalier")),
        ("NINJA", Pick("ninja")),
    ],
)
def test_notation_lenient_inputs(text: str, action: object) -> None:
    """Spaces, case, accents and leading zeros are forgiven."""
    assert g.parse_action(text) == action


@pytest.mark.parametrize(
    "text",
    ["", "7>3", "7>0", "100>1", "7", "P3", "^Zz7", "^Co", "T", "@0", "samurai", "7>>1", "+1"],
)
def test_notation_malformed_text_is_a_readable_error(text: str) -> None:
    """Malformed text raises BadNotation with examples of valid moves."""
    with pytest.raises(BadNotation) as exc:
        g.parse_action(text)
    assert "is not a Between Battle move" in said(exc.value)
    assert "7>1" in said(exc.value) and exc.value.code == "bad-notation"
    assert exc.value.params["text"] == text


def test_describe_action_labels() -> None:
    """Button labels, in English and French."""
    s = scenario(["X 5 7", "1"], piles=("Ch4", "Ch10"))
    assert said(g.describe_action(s, 0, Play("X", 0))) == "Joker → pile 1"
    assert said(g.describe_action(s, 0, Play("5", 1)), "fr") == "Lien 5 → paquet 2"
    assert said(g.describe_action(s, 0, Play("7", 1))) == "7 → pile 2"
    assert said(g.describe_action(s, 0, TakeDamage()), "fr") == "Prendre des dégâts"
    assert said(g.describe_action(s, 0, Pick("chevalier")), "fr") == "Chevalier"
    assert said(g.describe_action(s, 0, Pick("chevalier"))) == "Chevalier"
    assert said(g.describe_action(s, 0, Target(2))) == "Target player 3"


# ===========================================================================
# Immutability, codec, views
# ===========================================================================


def test_illegal_action_does_not_change_the_state() -> None:
    """States are immutable: refused and accepted actions leave the input untouched."""
    s = scenario(["7 3 X", "1"], piles=("Ch4", "Ch10"))
    deep = copy.deepcopy(s)
    before = frozen(s)
    for seat, text in ((0, "3>1"), (0, "P1"), (1, "D"), (0, "5+1"), (0, "^Ch4"), (0, "pirate")):
        with pytest.raises(RulesError):
            g.apply_text(s, seat, text)
    assert frozen(s) == before and s == deep
    # a legal action neither
    for action in g.legal_actions(s, 0):
        g.apply(s, 0, action)
    assert frozen(s) == before and s == deep


def test_json_codec_round_trip() -> None:
    """``decode_state(encode_state(s)) == s``, also through JSON text, mid-decision too."""
    states = [
        g.setup(g.options(""), 3, seed=4),
        base(FOUR, "hp_variant=asymmetric targeting=choose"),
        scenario(["X 7", "1"], piles=("Ch2 Ch5~", "Ch12")),
        act(scenario(["X 7", "1"], piles=("Ch2 Ch5~", "Ch12")), "X>1")[0],
        act(scenario(["7", "1"], piles=("Ch4", "Ch10"), last_player=1), "D")[0],
        act(scenario(["7", "1"], piles=("Ch9", "Pi4"), decks=["", ""]), "7>1")[0],
        scenario(["1", "1", "1"], chars=THREE, out=[1], lock_next=((2, 1),), cancel_next=(0,)),
        act(
            scenario(["3 1", "1", "1"], chars=THREE, piles=("Ch2", "Ch9"), opts="targeting=choose"),
            "3>1",
        )[0],
        act(scenario(["10 1", "1"], piles=("Ch2", "Ch12")), "10>1")[0],
    ]
    for s in states:
        enc = g.encode_state(s)
        assert enc["game"] == "between-battle" and enc["schema"] == g.schema_version
        assert g.decode_state(enc) == s
        back = g.decode_state(json.loads(json.dumps(enc)))
        assert back == s and frozen(back) == frozen(s)
        assert g.legal_actions(back, back.decider) == g.legal_actions(s, s.decider)


def test_json_codec_refuses_foreign_data() -> None:
    """A state of another game, schema or shape is refused (BadRecord)."""
    enc = g.encode_state(base())
    with pytest.raises(BadRecord):
        g.decode_state({**enc, "game": "via-belli"})
    with pytest.raises(BadRecord):
        g.decode_state({**enc, "schema": 99})
    broken = json.loads(json.dumps(enc))
    broken["state"]["phase"] = "lunch"
    with pytest.raises(BadRecord):
        g.decode_state(broken)


def test_view_hides_hands_and_decks() -> None:
    """Each seat sees its own hand only; spectators see no hand and have no choices."""
    s = scenario(["7 3", "1 2 9"], piles=("Ch4", "Ch10"))
    v0, v1, spec = g.view(s, 0), g.view(s, 1), g.view(s, None)
    assert v0.players[0].hand == ("Pi3", "Pi7") and v0.players[1].hand is None
    assert v1.players[1].hand == ("Ch1", "Ch2", "Ch9") and v1.players[0].hand is None
    assert spec.players[0].hand is None and spec.choices == ()
    assert v0.players[1].hand_count == 3 and v0.players[0].deck_count == 15
    assert set(v0.choices) == legal(s, 0) and v1.choices == ()
    assert v0.pile_values == (4, 10) and v0.pending == ((0, "turn"),)


def test_cards_are_never_lost_or_doubled() -> None:
    """A sample game: every card stays somewhere exactly once (until an elimination)."""
    m = Match(g, "characters=ninja,cowboy", 2, 11)
    r = rng.seed_state(5)
    start = all_cards(m.state)
    while not m.is_over:
        seat = next(iter(m.pending()))
        acts = m.legal_notations(seat)
        pool = [a for a in acts if a != "D"] or acts
        i, r = rng.randbelow(r, len(pool))
        m.play(seat, pool[i])
        if not any(p.out for p in m.state.players):
            assert all_cards(m.state) == start


# ===========================================================================
# Match: record, replay, versions
# ===========================================================================


def _play_out(m: Match, salt: int, limit: int = 400) -> None:
    r = rng.seed_state(salt)
    for _ in range(limit):
        if m.is_over:
            return
        seat = next(iter(m.pending()))
        acts = m.legal_notations(seat)
        pool = [a for a in acts if a != "D"] or acts
        i, r = rng.randbelow(r, len(pool))
        m.play(seat, pool[i], expected_version=m.version)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize(
    ("seats", "opts"),
    [(2, ""), (3, "targeting=choose damage_chooser=taker"), (4, "elimination=first-death")],
)
def test_match_record_replay_gives_the_same_state(seats: int, opts: str) -> None:
    """A full recorded game replays (and restores) to the identical state."""
    m = Match(g, opts, seats, 2024 + seats)
    assert m.state.phase == "draft"
    for name in ("ninja", "pirate", "chevalier", "cowboy")[:seats]:
        m.play(m.state.decider, name)
    _play_out(m, seats)
    assert m.is_over and m.version == len(m.actions)
    record = m.record()
    again = Match.replay(record)
    assert again.state == m.state and again.version == m.version
    assert frozen(again.state) == frozen(m.state)
    text = record.dumps()
    assert Match.replay(MatchRecord.loads(text)).state == m.state
    assert m.revealed_seed() == m.seed
    restored = Match.restore(json.loads(json.dumps(m.snapshot())))
    assert restored.state == m.state and restored.version == m.version
    half = Match.replay(record, upto=len(record.actions) // 2)
    assert half.version == len(record.actions) // 2 and not half.is_over


def test_match_versions_and_stale_actions() -> None:
    """Each accepted action raises the version; stale or refused actions change nothing."""
    m = Match(g, "characters=pirate,chevalier", 2, 1)
    assert m.version == 0 and m.revealed_seed() is None
    seat = m.state.active
    other = 1 - seat
    with pytest.raises(NotYourTurn):
        m.play(other, "D")
    action = m.legal_notations(seat)[0]
    events = m.play(seat, action, expected_version=0)
    assert m.version == 1 and m.actions == [(seat, action)]
    after = [item for item in m.log if item.version > 0]  # version 0: the setup's own events
    assert all(item.version == 1 for item in after) and len(after) == len(events)
    before = frozen(m.state)
    with pytest.raises(StaleAction) as exc:
        m.play(other, m.legal_notations(other)[0], expected_version=0)
    assert exc.value.params["expected"] == 0 and exc.value.params["actual"] == 1
    assert m.version == 1 and frozen(m.state) == before
    with pytest.raises(BadNotation):
        m.play(other, "7>9")
    with pytest.raises(IllegalAction):
        m.play(other, "99>1")
    assert m.version == 1 and len(m.actions) == 1


def test_match_game_over_and_event_filtering() -> None:
    """The log keeps every event; each seat reads its own cards, others only counts."""
    m = Match(g, "", 2, 3)
    m.play(0, "pirate")
    m.play(1, "ninja")
    _play_out(m, 9)
    with pytest.raises(GameOver):
        m.play(0, "D")
    for seat in (0, 1, None):
        seen = m.events(seat)
        deals = [e.event for e in seen if e.event.kind == "deal"]
        assert len(deals) == 2
        for e in deals:
            mine = e.data["seat"] == seat
            assert ("cards" in e.data) == mine and ("count" in e.data) != mine
        for item in seen:
            if item.event.kind in ("draw", "tutor") and item.event.data["seat"] != seat:
                assert "cards" not in item.event.data and "card" not in item.event.data
    assert m.events(0, since_version=m.version) == []
    assert {item.version for item in m.events(None, since_version=2)} >= {3}


# ===========================================================================
# No option combination breaks a seed sentence
# ===========================================================================

ABILITY_EVENTS = {"discard", "lock", "cancel", "extra-turn", "steal-top", "reveal", "tutor"}


def _random_games(options: str, games: int, seed: int):  # type: ignore[no-untyped-def]
    """Random games (2-4 players) under ``options``: yields (state, seat, action,
    events) for every step."""
    r = rng.seed_state(seed, "bb-invariants")
    fixed = g.options(options).characters
    for n in range(games):
        seats = len(fixed) or 2 + n % 3
        state = g.setup(g.options(options), seats, seed=seed * 1000 + n)
        for _ in range(g.max_actions):
            pending = g.pending(state)
            if not pending:
                break
            seat = min(pending)
            actions = g.legal_actions(state, seat)
            i, r = rng.randbelow(r, len(actions))
            new, events = g.apply(state, seat, actions[i])
            yield state, seat, actions[i], events
            state = new


@pytest.mark.parametrize("options", g.conformance_options)
def test_aucune_option_ne_rend_le_joker_injouable(options: str) -> None:
    """« (X) = Cette carte peut toujours être jouée »: under every option set of the
    conformance test, a player holding the joker at their turn may play it."""
    seen = 0
    for state, seat, _, _ in _random_games(options, 40, 7):
        if state.phase == "turn" and any(c.endswith("X") for c in state.players[seat].hand):
            assert any(
                isinstance(a, Play) and a.card == "X" for a in g.legal_actions(state, seat)
            ), (options, state)
            seen += 1
    assert seen > 20


@pytest.mark.parametrize("options", g.conformance_options)
def test_aucune_option_n_applique_une_capacite_pendant_un_tour_annule(options: str) -> None:
    """« Votre adversaire, lors de son prochain tour, n'applique pas la capacité de sa
    carte jouée »: under every option set, a cancelled turn's card (or the card a joker
    brings up) applies no ability; and « Lorsqu'une carte est jouée sur le champ de
    bataille, on en applique obligatoirement sa capacité » otherwise."""
    cancelled = 0
    for state, seat, action, events in _random_games(options, 40, 11):
        if state.phase in ("tutor", "target"):
            assert not state.turn_cancelled, (options, state)
        if state.phase not in ("turn", "joker-pull") or not state.turn_cancelled:
            continue
        if not isinstance(action, Play | Pull):
            continue
        own = [e.kind for e in events if e.kind in ABILITY_EVENTS and e.data.get("seat") == seat]
        assert own == [], (options, g.format_action(action), [e.kind for e in events])
        cancelled += 1
    assert cancelled > 0


@pytest.mark.parametrize("options", g.conformance_options)
def test_aucune_option_ne_cache_pas_les_degats(options: str) -> None:
    """« ces cartes sont placées face cachée »: under every option set, no view (any
    seat, spectator) names a damage card that is nowhere public."""
    checked = 0
    for state, _, _, _ in _random_games(options, 10, 13):
        public = {c.rstrip("~") for pile in state.piles for c in pile} | set(state.discard)
        for p in state.players:
            public |= set(p.revealed)
        hidden = {c for p in state.players for c in p.damage} - public
        if not hidden:
            continue
        for observer in (None, *range(len(state.players))):
            text = repr(g.view(state, observer))
            mine = set(state.players[observer].hand) if observer is not None else set()
            for card in hidden - mine:
                assert f"'{card}'" not in text, (options, card, observer)
        checked += 1
    assert checked > 0
