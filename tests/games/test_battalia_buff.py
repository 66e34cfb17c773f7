"""Buff le Sans Bannière (seed 004): one scenario test per sentence of the
seed (quoted in French), the three worked examples with their numbers, one
test per ruling F1-F7 and per option.

States are laid out with ``battalia_buff_helpers.table``; Buff's hooks and
decisions are called directly (``buff.on_day_start``, ``buff.apply`` …).
"""

from __future__ import annotations

import pytest

from engine.core import evolve
from engine.errors import IllegalAction
from engine.games.battalia import buff, wander
from engine.games.battalia.actions import (
    Bid,
    Bribe,
    BuffMove,
    Enter,
    Fight,
    Recruit,
    format_action,
    parse_action,
)
from tests.games.battalia_buff_helpers import table, with_deck, with_hand


def kinds(events: list) -> list[str]:
    return [e.kind for e in events]


def notations(actions: list) -> set[str]:
    return {format_action(a) for a in actions}


def do(state, seat, text):
    return buff.apply(state, seat, parse_action(text))


def refusal(state, seat, text) -> str:
    with pytest.raises(IllegalAction) as err:
        buff.apply(state, seat, parse_action(text))
    return err.value.msg.key


def auction_state(hands=("2u 1u P", "3i Ai P", "1a P P"), **kw):
    """Day 8 begins, Buff never entered: the auction is open."""
    kw.setdefault("roads", "a1-b1-c1 g1-f1 g7-g6")
    kw.setdefault("cities", {"a1": (0, 1), "g1": (1, 1), "g7": (2, 1)})
    state = table(hands=hands, buff=None, entered=False, day=8, phase="day-start", **kw)
    state, events = buff.on_day_start(state)
    return state, events


def bid_all(state, *texts):
    events = []
    for seat, text in enumerate(texts):
        state, evs = do(state, seat, text)
        events += evs
    return state, events


# ---------------------------------------------------------------------------
# Introduction
# ---------------------------------------------------------------------------


def test_s01_chef_terrifiant_d_une_horde():
    """« Buff Le Sans Bannière est le chef terrifiant d'une horde de
    mercenaires frontaliers. » — Buff and his horde are one piece with one
    strength, the horde's token."""
    state = table(roads="a1-b1", heroes={"b1": ("2h1",)}, hands=("", "P"), buff="a1", horde=8)
    state = evolve(state, buff=evolve(state.buff, roll=1, mover=0), phase="buff-move")
    state, events = do(state, 0, "buff b1")
    attack = next(e for e in events if e.kind == "buff-attack")
    assert attack.data["horde"] == 8


def test_s02_pille_depuis_la_peripherie():
    """« La horde pille les territoires de l'Oracle Solaire depuis sa
    périphérie, causant des ennuis aux joueurs les moins généreux. » — he
    enters from the board's corners (the start cities) only."""
    state, _ = auction_state()
    state, _ = bid_all(state, "bid 2u", "bid 3i", "bid 1a")
    assert notations(buff.legal(state, 1)) == {"enter a1", "enter g1", "enter g7"}


def test_s03_laisser_tranquille_ou_allie():
    """« Mais si un joueur est disposé à dépenser quelques ressources, Buff
    Le Sans Bannière pourrait le laisser tranquille, voir même devenir un
    allié précieux. » — an attacked seat with Provisions may bribe or
    recruit."""
    state = _attacked(hand="P P P P 1u")
    assert {"bribe : P P P", "recruit : P P P P"} <= notations(buff.legal(state, 1))


# ---------------------------------------------------------------------------
# Entry
# ---------------------------------------------------------------------------


def test_s04_entre_a_la_fin_de_la_premiere_semaine():
    """« Buff Le Sans Bannière entre en jeu à la fin de la première
    semaine. » — no auction on days 2-7, one at the start of day 8."""
    for day in range(2, 8):
        state = table(hands=("1u", "1i", "1a"), buff=None, entered=False, day=day)
        state, events = buff.on_day_start(evolve(state, phase="day-start"))
        assert state.phase == "day-start" and "auction-open" not in kinds(events)
    state, events = auction_state()
    assert state.phase == "auction" and "auction-open" in kinds(events)


def test_s05_avant_le_tour_du_premier_joueur():
    """« Après une rotation complète de l'Oracle, quand les pales portant le
    symbole de l'outil se superposent à nouveau, le jeu est brièvement
    interrompu (avant le tour du premier joueur). » — day 8 lights the Tool
    again; the auction interrupts the day-start, which resumes afterwards."""
    from engine.games.battalia.oracle import illuminated_type

    assert illuminated_type(1) == illuminated_type(8) == "O"
    state, _ = auction_state()
    assert state.buff.resume == "day-start"
    state, _ = bid_all(state, "bid 2u", "bid 3i", "bid 1a")
    state, _ = do(state, 1, "enter g7")
    assert state.phase == "day-start"


def test_s06_tous_secretement_une_ou_plusieurs_cartes():
    """« A ce moment tous les joueurs choisissent secrètement une ou
    plusieurs cartes de leur main afin d'encherir. » — every seat decides at
    once; at least one card; the others read only that a seat has bid."""
    state, _ = auction_state()
    assert set(buff.pending(state)) == {0, 1, 2}
    assert all(d.kind == "bid" for d in buff.pending(state).values())
    assert "bid" not in notations(buff.legal(state, 0))
    assert refusal(state, 0, "bid") == "bt-refuse-bid-empty"
    state, events = do(state, 1, "bid 3i Ai")
    (event,) = events
    assert event.to == frozenset({1})
    assert event.for_seat(0).data == {"seat": 1}
    assert event.for_seat(None).data == {"seat": 1}
    assert event.for_seat(1).data["cards"] == ["3i", "Ai"]


def test_s07_force_non_nulle_sans_limite():
    """« Chaque carte doit avoir une force de combat non nulle (il n'y a par
    contre pas de limite au nombre de cartes que l'on peut choisir). »"""
    state, _ = auction_state(hands=("2u 1u 4u 3u Ou P", "1i", "1a"))
    assert refusal(state, 0, "bid 2u P") == "bt-refuse-bid-zero"
    assert refusal(state, 0, "bid Ou") == "bt-refuse-bid-zero"
    legal = notations(buff.legal(state, 0))
    assert "bid 1u 2u 3u 4u" in legal
    assert len(legal) == 15  # every non-empty subset of the 4 units
    state, _ = do(state, 0, "bid 1u 2u 3u 4u")
    assert state.auction.bids == ((0, ("1u", "2u", "3u", "4u")),)


def test_s08_reveles_simultanement():
    """« Une fois que tous les joueurs ont choisi leurs cartes, ils les
    révèlent simultanément. » — nothing is public before the last bid; then
    one public event gives every bid."""
    state, _ = auction_state()
    state, events = bid_all(state, "bid 2u", "bid 3i")
    assert all(e.to is not None for e in events)
    assert state.auction.revealed is False
    state, events = do(state, 2, "bid 1a")
    reveal = next(e for e in events if e.kind == "auction")
    assert reveal.to is None
    assert reveal.data["bids"] == [[0, ["2u"], 2], [1, ["3i"], 3], [2, ["1a"], 1]]
    assert state.auction.revealed


def test_s09_total_le_plus_eleve():
    """« Le joueur qui « sacrifie » la force de combat totale la plus élevée
    gagne le droit de choisir l'endroit par lequel Buff entrera en jeu. »"""
    state, _ = auction_state(hands=("2u 1u", "3i", "1a P"))
    state, _ = bid_all(state, "bid 1u 2u", "bid 3i", "bid 1a")
    assert state.auction.winner in (0, 1)  # 3 and 3: a tie, see the next tests
    state, _ = auction_state(hands=("2u 1u 2u", "3i", "1a P"))
    state, _events = bid_all(state, "bid 1u 2u 2u", "bid 3i", "bid 1a")
    assert state.auction.winner == 0 and state.phase == "enter"
    assert set(buff.pending(state)) == {0}


def test_s10_egalite_plus_de_points_de_victoire():
    """« En cas d'égalité, c'est le joueur qui possède le plus de point de
    victoire qui gagne ce privilège. »"""
    state, _ = auction_state(
        hands=("3u", "3i", "1a"), cities={"a1": (0, 1), "g1": (1, 2), "g7": (2, 1)}
    )
    state, events = bid_all(state, "bid 3u", "bid 3i", "bid 1a")
    assert state.auction.winner == 1
    assert next(e for e in events if e.kind == "auction").data["tie"] == "vp"


def test_s11_toujours_egalite_au_hasard():
    """« S'il y a toujours égalité, un des joueurs à égalité est choisi au
    hasard. » — the game's generator decides, both can win, the third never."""
    winners = set()
    for seed in range(20):
        state, _ = auction_state(hands=("3u", "3i", "1a"), seed=seed)
        state, events = bid_all(state, "bid 3u", "bid 3i", "bid 1a")
        winners.add(state.auction.winner)
        assert next(e for e in events if e.kind == "auction").data["tie"] == "chance"
    assert winners == {0, 1}


def test_s12_une_ville_de_depart_d_un_angle():
    """« Le gagnant de l'enchère choisit une des villes de départ d'un des
    angles du plateau de jeu et place dessus la figurine de Buff. »"""
    state, _ = auction_state()
    state, _ = bid_all(state, "bid 2u", "bid 3i", "bid 1a")
    assert refusal(state, 1, "enter d1") == "bt-refuse-enter-square"
    assert refusal(state, 1, "enter a7") == "bt-refuse-enter-square"  # no 4th seat
    state, events = do(state, 1, "enter g7")
    assert state.buff.square == "g7" and state.buff.owner is None
    assert "buff-enter" in kinds(events)


def test_s13_jeton_de_niveau_6():
    """« La carte spéciale de Buff Le Sans Bannière est placée à côté du
    plateau de jeu et l'on place sur cette carte un jeton universel de
    niveau 6. Ce jeton représente la force de combat initiale de la
    horde. »"""
    state, _ = auction_state()
    state, _ = bid_all(state, "bid 2u", "bid 3i", "bid 1a")
    state, events = do(state, 1, "enter a1")
    assert state.buff.horde == 6
    assert next(e for e in events if e.kind == "buff-enter").data["horde"] == 6


def test_s14_six_pendant_la_seconde_semaine():
    """« La force de combat de la horde est de 6 pendant toute la durée de la
    seconde semaine de jeu. »"""
    state = table(roads="a1-b1", hands=("1u",), buff="a1", horde=6, day=8)
    for day in range(9, 15):
        state, _ = buff.on_day_start(evolve(state, day=day, phase="day-start"))
        assert state.buff.horde == 6
    state, _ = buff.on_day_start(evolve(state, day=15, phase="day-start"))
    assert state.buff.horde == 8


def test_s15_encheres_defaussees_mains_completees():
    """« Une fois que Buff Le Sans Bannière est entré sur le plateau de jeu,
    toutes les cartes utilisées pour enchérir sont défaussées et chaque
    joueur complète sa main à 6 cartes. »"""
    state, _ = auction_state(hands=("2u 1u P", "3i Ai P", "1a P P"))
    for seat in range(3):
        state = with_deck(state, seat, "P P P P P P")
    state, _ = bid_all(state, "bid 1u 2u", "bid 3i Ai")
    # the bids stay in the hands (secret: the hand counts tell nothing) …
    assert [len(p.hand) for p in state.players] == [3, 3, 3]
    state, _ = do(state, 2, "bid 1a")
    # … until all are revealed together
    assert [p.hand for p in state.players] == [("P",), ("P",), ("P", "P")]
    state, _ = do(state, 1, "enter a1")
    assert [p.discard for p in state.players] == [("1u", "2u"), ("3i", "Ai"), ("1a",)]
    assert [len(p.hand) for p in state.players] == [6, 6, 6]
    assert state.auction is None


def test_example_encheres_a_trois_joueurs_vert_choisit_rouge():
    """Exemple : « après le dernier jour de la première semaine dans une
    partie à 3 joueurs, les joueurs devraient enchérir … Le joueur vert
    remporte l'enchère et il doit maintenant décider entre les 3 villes de
    départ (A, B et C). … il décide donc de placer la figurine sur la ville
    de départ du joueur rouge (B). » — green = Ursidés (seat 1, a1 = A), red
    = Ambrardents (seat 3, g1 = B), blue = Insulaires (seat 2, g7 = C)."""
    state, _ = auction_state(
        hands=("3u 2u", "2i", "1a 1a"),
        factions="uai",
        cities={"a1": (0, 1), "g1": (1, 1), "g7": (2, 1)},
    )
    state, _ = bid_all(state, "bid 2u 3u", "bid 2i", "bid 1a 1a")
    assert state.auction.winner == 0
    assert notations(buff.legal(state, 0)) == {"enter a1", "enter g1", "enter g7"}
    red = next(p.seat for p in state.players if p.faction == "a")
    red_start = next(t.square for t in state.tiles if t.owner == red)
    state, _events = do(state, 0, f"enter {red_start}")
    assert state.buff.square == "g1"


def test_s16_le_jeu_reprend_son_cours():
    """« Une fois que Buff Le Sans Bannière est positionné, le jeu reprend son
    cours, avec les changements suivants » — back to the phase the auction
    interrupted, nothing pending from Buff."""
    state, _ = auction_state()
    state, _ = bid_all(state, "bid 2u", "bid 3i", "bid 1a")
    state, _ = do(state, 1, "enter a1")
    assert buff.pending(state) is None and state.phase == "day-start"


# ---------------------------------------------------------------------------
# Movement
# ---------------------------------------------------------------------------


def moving(roll, roads="a1-b1-c1-d1-e1", heroes=None, at="a1", mover=0, **kw):
    state = table(roads=roads, heroes=heroes, buff=at, hands=("P", "P P P", "1a"), **kw)
    state = evolve(state, phase="after-turn")
    return evolve(
        state,
        phase="buff-move",
        buff=evolve(state.buff, roll=roll, mover=mover, resume="after-turn"),
    )


def test_s17_a_la_fin_de_son_tour_chaque_joueur_lance_un_de():
    """« A la fin de son tour, chaque joueur a le droit de déplacer la
    figurine de Buff. Pour ce faire, le joueur lance un dé et peut déplacer
    la figurine en fonction du résultat de ce dé. »"""
    faces = set()
    for seed in range(30):
        state = table(roads="a1-b1-c1-d1-e1-f1-g1", buff="a1", seed=seed, phase="after-turn")
        state, events = buff.after_turn(state, 2)
        roll = next(e for e in events if e.kind == "buff-roll")
        assert roll.data["seat"] == 2
        faces.add(roll.data["roll"])
        assert buff.pending(state)[2].kind == "buff-move"
        assert buff.pending(state)[2].param("roll") == roll.data["roll"]
    assert faces == {1, 2, 3, 4, 5, 6}


def test_s18_pas_force_d_utiliser_tous_les_points():
    """« Le joueur n'est pas forcé d'utiliser tous les points de mouvements
    fournis par le dé. Par exemple, si un joueur obtient un 3, il peut
    déplacer Buff de une, deux ou trois cases ou il peut décider de ne pas le
    déplacer du tout. »"""
    state = moving(3)
    assert notations(buff.legal(state, 0)) == {"buff", "buff b1", "buff b1 c1", "buff b1 c1 d1"}
    assert refusal(state, 0, "buff b1 c1 d1 e1") == "bt-refuse-buff-too-far"
    state, _events = do(state, 0, "buff")
    assert state.buff.square == "a1" and state.phase == "after-turn"


def test_s19_uniquement_sur_les_routes_existantes():
    """« Buff Le Sans Bannière se déplace uniquement sur les routes
    existantes, comme tous les autres héros. » — no step onto an empty
    square or through facing sides without exits."""
    state = moving(2, roads="a1-b1 b2-c2")  # b1 and b2 are not connected
    assert notations(buff.legal(state, 0)) == {"buff", "buff b1"}
    assert refusal(state, 0, "buff b1 b2") == "bt-refuse-buff-not-connected"
    assert refusal(state, 0, "buff a2") == "bt-refuse-buff-not-connected"


def test_s20_jamais_deux_fois_la_meme_case():
    """« Durant un même tour, la figurine de Buff ne peut pas passer deux
    fois par la même case lorsqu'elle se déplace. » — a loop a1 b1 b2 a2
    cannot be closed back onto a1, nor go round twice."""
    state = moving(6, roads="a1-b1-b2-a2-a1 b2-c2")
    legal = notations(buff.legal(state, 0))
    assert "buff b1 b2 a2" in legal and "buff b1 b2 c2" in legal
    assert not any(m.count(" ") > 3 and "a1" in m.split()[1:] for m in legal)
    assert refusal(state, 0, "buff b1 b2 a2 a1") == "bt-refuse-buff-revisit"


def test_s21_pas_par_la_case_de_depart_ni_demi_tour():
    """« Cela implique qu'elle ne peut pas passer par la case où elle a
    débuté son mouvement ou faire demi-tour. »"""
    state = moving(3, at="b1")
    assert refusal(state, 0, "buff c1 b1") == "bt-refuse-buff-revisit"
    assert refusal(state, 0, "buff a1 b1 c1") == "bt-refuse-buff-revisit"
    assert "buff c1 d1 e1" in notations(buff.legal(state, 0))


def test_s22_impasse_points_perdus():
    """« Si la figurine atteint une impasse alors son mouvement s'arrête, et
    tous les points de mouvement restants sont perdus. »"""
    state = moving(6, roads="a1-b1-c1")
    assert notations(buff.legal(state, 0)) == {"buff", "buff b1", "buff b1 c1"}
    state, _ = do(state, 0, "buff b1 c1")
    assert state.buff.square == "c1" and buff.pending(state) is None


def test_cannot_move_the_roll_is_shown_and_nothing_asked():
    """A dead end all round (Buff's start city with no road yet): the d6 is
    rolled and shown, nobody decides."""
    state = table(roads="a1-b1", buff="a1", phase="after-turn")
    state = evolve(state, tiles=tuple(t for t in state.tiles if t.square == "a1"))
    state, events = buff.after_turn(state, 0)
    assert kinds(events) == ["buff-roll"] and buff.pending(state) is None


# ---------------------------------------------------------------------------
# Attacks
# ---------------------------------------------------------------------------


def test_s23_s_arrete_sur_un_heros_et_l_attaque():
    """« Quand Buff Le Sans Bannière atteint une case contenant la figurine
    d'un héros, son mouvement s'arrête immédiatement et le héros est
    automatiquement attaqué. »"""
    state = moving(4, heroes={"c1": ("2h1",)})
    legal = notations(buff.legal(state, 0))
    assert "buff b1 c1" in legal and "buff b1 c1 d1" not in legal
    assert refusal(state, 0, "buff b1 c1 d1") == "bt-refuse-buff-past-hero"
    state, events = do(state, 0, "buff b1 c1")
    assert kinds(events)[:2] == ["buff-move", "buff-attack"]
    assert state.phase == "buff-attack" and set(buff.pending(state)) == {1}
    assert buff.pending(state)[1].kind == "buff-answer"


def test_s24_aussi_a_l_entree_sur_une_ville_de_depart():
    """« Ceci inclut aussi le cas suivant : quand la figurine de Buff entre
    en jeu et qu'elle est positionnée directement sur une ville de départ
    avec un héros dessus. »"""
    state, _ = auction_state(heroes={"g1": ("2h2",)}, hands=("2u", "3i P P P", "1a"))
    state, _ = bid_all(state, "bid 2u", "bid 3i", "bid 1a")
    state, events = do(state, 1, "enter g1")
    attack = next(e for e in events if e.kind == "buff-attack")
    assert attack.data["hero"] == "2h2" and attack.data["horde"] == 6
    assert set(buff.pending(state)) == {1}


def test_s25_uniquement_aux_heros_jamais_aux_villes():
    """« La horde s'attaque uniquement aux héros, jamais aux villes (trop
    dangereux) ! » — a city without hero does not stop him, and stays as it
    was."""
    state = moving(3, cities={"c1": (1, 3)})
    assert "buff b1 c1 d1" in notations(buff.legal(state, 0))
    state, events = do(state, 0, "buff b1 c1")
    assert "buff-attack" not in kinds(events)
    assert next(t for t in state.tiles if t.square == "c1").owner == 1


def _attacked(hand="P P P P 2i", horde=6, terrain=None, day=9):
    """Seat 2's hero 2h1 on b1 is attacked by Buff (seat 1 moved him)."""
    state = moving(1, heroes={"b1": ("2h1",)}, terrain=terrain, horde=horde, day=day)
    state = with_hand(state, 1, hand)
    state, _ = do(state, 0, "buff b1")
    return state


def test_s26_trois_options():
    """« A partir de ce moment, le propriétaire du héros a trois options » —
    bribe, recruit, fight (no retreat)."""
    state = _attacked(hand="P P P P 2i")
    legal = notations(buff.legal(state, 1))
    assert {"bribe : P P P", "recruit : P P P P", "fight", "fight : 2i"} <= legal
    assert all(m.split()[0] in ("bribe", "recruit", "fight") for m in legal)


def test_s27_soudoyer_trois_provisions_partagent_l_espace():
    """« I. Soudoyer Buff avec de la nourriture en jouant 3 cartes de
    provisions. Dans ce cas aucun combat n'a lieu et les deux figurines
    partagent le même espace. »"""
    state = _attacked(hand="P P P P 2i")
    assert refusal(state, 1, "bribe : P P") == "bt-refuse-bribe-cost"
    state, events = do(state, 1, "bribe : P P P")
    assert kinds(events) == ["bribe"]
    assert state.players[1].hand == ("P", "2i") and state.players[1].discard == ("P",) * 3
    assert state.buff.square == "b1" and any(h.square == "b1" for h in state.heroes)
    assert state.phase == "after-turn"


def test_s28_laisser_tranquille_une_semaine():
    """« Buff et sa horde s'engagent à laisser tranquille les héros de ce
    joueur pour une durée d'une semaine. » — the marker lasts 7 days."""
    state = _attacked(day=9)
    state, events = do(state, 1, "bribe : P P P")
    assert state.buff.bribes == ((1, 16),) and buff.is_bribed(state, 1)
    assert events[0].data == {"seat": 1, "until": 16}


def test_s29_plus_de_combat_automatique_mais_recruter():
    """« A partir de cet instant, si Buff rencontre à nouveau les héros de ce
    joueur durant les 7 jours suivants, aucun combat ne se déclenche
    automatiquement entre eux, mais les héros gardent la capacité de recruter
    Buff (voir l'option suivante). »"""
    state = moving(3, heroes={"b1": ("2h1",), "d1": ("3h1",)}, bribes=((1, 15),), day=10)
    legal = notations(buff.legal(state, 0))
    assert "buff b1 c1 d1" in legal  # 2h1 does not stop him
    state, events = do(state, 0, "buff b1")
    assert "buff-attack" not in kinds(events)
    # a hero of the bribed seat stepping onto him: no fight
    state, events = buff.on_hero_arrives(evolve(state, phase="turn", active=1), 1, "h1", "b1")
    assert events == [] and state.phase == "turn"
    # … but it may hire him on its turn
    state = with_hand(state, 1, "P P P P")
    assert notations(buff.turn_actions(state, 1)) == {"recruit : P P P P"}
    state, events = do(state, 1, "recruit : P P P P")
    assert state.buff.owner == 1 and state.phase == "turn"


def test_s30_interdit_d_attaquer_buff_sciemment():
    """« Les héros ne sont de plus pas autorisés à attaquer Buff sciemment
    pendant cette semaine (car ce serait contraire à leur accord). » — the
    base game asks :func:`buff.is_bribed` before offering ``attack … buff``."""
    state = table(roads="a1-b1", heroes={"b1": ("2h1",)}, buff="a1", bribes=((1, 15),), day=10)
    assert buff.is_bribed(state, 1) and not buff.is_bribed(state, 0)


def test_s31_marqueur_retire_apres_une_rotation():
    """« Pour garder trace des 7 jours le joueur place son marqueur de temps
    à côté du bras extérieur de l'oracle qui est illuminé à ce moment là.
    Après une rotation complète le marqueur de temps est retiré et les héros
    du joueur sont à nouveau vulnérables aux attaques des mercenaires. »"""
    state = _attacked(day=9)
    state, _ = do(state, 1, "bribe : P P P")
    for day in range(10, 16):
        state, events = buff.on_day_start(evolve(state, day=day, phase="day-start"))
        assert buff.is_bribed(state, 1) and "bribe-ends" not in kinds(events)
    state, events = buff.on_day_start(evolve(state, day=16, phase="day-start"))
    assert "bribe-ends" in kinds(events) and not buff.is_bribed(state, 1)
    assert state.buff.bribes == ()


def test_s32_recruter_quatre_provisions_chef_sans_horde():
    """« II. Recruter Buff pour une semaine en jouant 4 cartes de provisions.
    Le joueur recrute uniquement le chef, sans sa horde (dans le jeu, la
    horde est considérée comme étant un groupe d'unités abstraites
    représenté par le pion placé sur la carte spéciale de Buff). »"""
    state = _attacked(hand="P P P P 2i")
    assert refusal(state, 1, "recruit : P P P") == "bt-refuse-recruit-cost"
    state, events = do(state, 1, "recruit : P P P P")
    assert kinds(events) == ["recruit"]
    assert state.buff.owner == 1 and state.players[1].hand == ("2i",)
    assert state.buff.square == "b1" and state.phase == "after-turn"


def test_s33_carte_devant_lui_proprietaire():
    """« Le joueur place la carte de Buff devant lui pour rappeler qu'il est
    le propriétaire de la figurine et retourne le pion de niveau 6 dans la
    boîte de jeu. » — the owner is recorded; nobody rolls for him."""
    state = _attacked()
    state, _ = do(state, 1, "recruit : P P P P")
    assert state.buff.owner == 1
    state, events = buff.after_turn(evolve(state, phase="after-turn"), 2)
    assert events == [] and buff.pending(state) is None


def test_s34_recrute_pour_une_semaine_seulement():
    """« Buff ne peut être recruté que pour une semaine. Pour garder trace des
    7 jours le joueur place son marqueur de temps … »"""
    state = _attacked(day=9)
    state, events = do(state, 1, "recruit : P P P P")
    assert state.buff.hire_until == 16 and events[0].data["until"] == 16


def test_s35_fin_du_recrutement_reste_sur_place_nouveau_jeton():
    """« Après une rotation complète le marqueur de temps est retiré et Buff
    Le Sans Bannière est à nouveau libre de ses actions. Son précédent
    propriétaire replace la carte de Buff à côté du plateau de jeu, en y
    positionnant un nouveau jeton universel pour indiquer la force de la
    horde. La figurine de Buff est laissée sur l'espace du plateau de jeu sur
    laquelle elle se trouve et les joueurs peuvent recommencer à la
    déplacer. »"""
    state = _attacked(day=9)
    state, _ = do(state, 1, "recruit : P P P P")
    state = evolve(state, buff=evolve(state.buff, square="c1"))  # he moved as a hero
    state, events = buff.on_day_start(evolve(state, day=15, phase="day-start"))
    assert state.buff.owner == 1  # still hired on day 15
    state, events = buff.on_day_start(evolve(state, day=16, phase="day-start"))
    end = next(e for e in events if e.kind == "hire-ends")
    assert end.data == {"seat": 1, "square": "c1", "horde": 8}
    assert state.buff.owner is None and state.buff.square == "c1" and state.buff.horde == 8
    state, events = buff.after_turn(evolve(state, phase="after-turn"), 0)
    assert "buff-roll" in kinds(events)


def test_s36_combattre_au_moins_la_force_de_la_horde():
    """« III. Combattre Buff. Dans ce cas, étant le défenseur, le joueur a
    besoin de former une ligne de combat avec des cartes dont la force est au
    moins égale à la force de la horde. » — the cards' strength (option
    ``buff_fight_bonuses`` off by default: no morale, no terrain): 2i 3i Ci =
    2+3+1 = 6 against 6 wins; 2i 3i = 5 loses though its morale would make 6."""
    state = _attacked(hand="2i 3i Ci")
    _, events = do(state, 1, "fight : 2i 3i Ci")
    fight = next(e for e in events if e.kind == "buff-fight")
    assert (fight.data["strength"], fight.data["horde"], fight.data["won"]) == (6, 6, True)
    _, events = do(state, 1, "fight : 2i 3i")
    fight = next(e for e in events if e.kind == "buff-fight")
    assert (fight.data["strength"], fight.data["won"]) == (5, False)


def test_s37_repousse_retire_jusqu_a_la_semaine_suivante():
    """« Si le joueur repousse avec succès la horde, la figurine de Buff Le
    Sans Bannière est retirée du plateau de jeu jusqu'au début de la semaine
    suivante. »"""
    state = _attacked(hand="2i 3i Ci", day=10)
    state, events = do(state, 1, "fight : 2i 3i Ci")
    assert "buff-removed" in kinds(events)
    assert state.buff.square is None and state.buff.absent
    assert state.players[1].discard == ("2i", "3i", "Ci")
    for day in range(11, 15):
        state, events = buff.on_day_start(evolve(state, day=day, phase="day-start"))
        assert state.phase == "day-start"
    state, events = buff.on_day_start(evolve(state, day=15, phase="day-start"))
    assert state.phase == "auction" and state.buff.horde == 8


def test_s38_perd_la_bataille_se_separe_du_heros():
    """« Si le joueur perd la bataille, il doit se séparer de son héros,
    conformément aux règles de combat. »"""
    state = _attacked(hand="2i 1i P")
    state, events = do(state, 1, "fight : 1i 2i")
    fight = next(e for e in events if e.kind == "buff-fight")
    assert fight.data["strength"] == 3 and not fight.data["won"]
    assert "hero-lost" in kinds(events)
    assert not any(h.seat == 1 for h in state.heroes)
    assert state.buff.square == "b1"


# ---------------------------------------------------------------------------
# Additional rules
# ---------------------------------------------------------------------------


def test_s39_plusieurs_heros_le_deplaceur_choisit():
    """« Si la horde se déplace sur une case contenant les figurines de
    plusieurs héros, le joueur qui est pour le moment responsable du
    déplacement de Buff décide lequel des héros est attaqué. Seul un des
    héros peut être attaqué. »"""
    state = moving(2, heroes={"c1": ("2h1", "3h2")})
    legal = notations(buff.legal(state, 0))
    assert {"buff b1 c1 2h1", "buff b1 c1 3h2"} <= legal and "buff b1 c1" not in legal
    assert refusal(state, 0, "buff b1 c1") == "bt-refuse-buff-choose-hero"
    state, events = do(state, 0, "buff b1 c1 3h2")
    assert [e.data["hero"] for e in events if e.kind == "buff-attack"] == ["3h2"]
    assert set(buff.pending(state)) == {2}


def test_s40_un_heros_qui_se_deplace_sur_buff_est_attaque():
    """« Si un héros se déplace sur une case contenant la figurine de Buff Le
    Sans Bannière, le héros est attaqué. Important : dans ce cas Buff Le Sans
    Bannière est là aussi considéré comme étant l'attaquant, puisque il est
    supposé représenter la faction la plus agressive. »"""
    state = table(roads="a1-b1", heroes={"a1": ("1h1",)}, buff="a1", hands=("P P P",))
    state, events = buff.on_hero_arrives(state, 0, "h1", "a1")
    attack = next(e for e in events if e.kind == "buff-attack")
    assert attack.data["by"] == -1  # the horde attacks, not a player
    assert state.phase == "buff-attack" and set(buff.pending(state)) == {0}
    assert state.buff.resume == "turn"
    state, _ = do(state, 0, "bribe : P P P")
    assert state.phase == "turn"


def test_s41_fin_de_semaine_absent_rentre_par_enchere():
    """« Si à la fin d'une semaine Buff Le Sans Bannière n'est pas présent sur
    le plateau de jeu, sa figurine rentre à nouveau en jeu. Chaque fois que
    Buff pille à nouveau le royaume, les joueurs doivent enchérir pour le
    privilège de choisir par où il fera son entrée – C'est toujours une ville
    de départ. »"""
    state = table(
        roads="a1-b1 g1-f1 g7-g6",
        cities={"a1": (0, 1), "g1": (1, 1), "g7": (2, 1)},
        buff=None,
        entered=True,
        hands=("1u", "1i", "1a"),
        day=22,
        phase="day-start",
    )
    state, _events = buff.on_day_start(state)
    assert state.phase == "auction" and state.buff.horde == 10
    state, _ = bid_all(state, "bid 1u", "bid 1i", "bid 1a")
    winner = state.auction.winner
    assert notations(buff.legal(state, winner)) == {"enter a1", "enter g1", "enter g7"}


# ---------------------------------------------------------------------------
# The horde's strength
# ---------------------------------------------------------------------------


def test_s42_la_horde_devient_plus_forte_chaque_semaine():
    """« Au début de la seconde semaine, lorsque Buff Le Sans Bannière entre
    en jeu pour la première fois, la force de la horde est de 6. Cette valeur
    va varier pendant la partie. Chaque semaine la horde devient plus forte.
    Arrivé à la troisième semaine de la partie, la force de la horde devient
    8 car les mercenaires ont de nouvelles recrues »"""
    assert [wander.horde_for_week(w) for w in (2, 3)] == [6, 8]


def test_s43_personne_proprietaire_jeton_6_remplace_par_8():
    """« Si aucun joueur n'est propriétaire de la figurine de Buff au début
    de la nouvelle semaine (admettons pour cet exemple que ce soit la
    troisième semaine), les joueurs remplacent le jeton de niveau 6 se
    trouvant sur la carte de Buff par un jeton de niveau 8. »"""
    state = table(roads="a1-b1", buff="b1", horde=6, day=15, phase="day-start")
    state, events = buff.on_day_start(state)
    assert state.buff.horde == 8
    assert next(e for e in events if e.kind == "horde").data == {"week": 3, "horde": 8}


def test_s44_recrute_semaine_deux_libere_avec_un_jeton_8():
    """« Si un joueur a recruté Buff durant la semaine précédente (seconde
    semaine), quand ce dernier est libéré de ses obligations sa carte reçoit
    un jeton de niveau 8 pour indiquer la force de la horde. » — the token is
    not changed at the boundary while he is hired; he takes 8 when freed."""
    state = table(roads="a1-b1", buff="b1", horde=6, owner=0, hire_until=17, day=15)
    state, events = buff.on_day_start(evolve(state, phase="day-start"))
    assert state.buff.owner == 0 and "horde" not in kinds(events)
    state, events = buff.on_day_start(evolve(state, day=17, phase="day-start"))
    assert state.buff.owner is None and state.buff.horde == 8


def test_s45_plus_deux_chaque_semaine():
    """« Chaque semaine qui passe voit la force de la horde augmenter de 2
    points. Durant la quatrième semaine de la partie la force de la horde est
    de 10, elle sera de 12 durant la cinquième semaine, et ainsi de suite. »"""
    state = table(roads="a1-b1", buff="b1", horde=6, day=8)
    seen = []
    for week in range(3, 7):
        state, _ = buff.on_day_start(evolve(state, day=7 * week - 6, phase="day-start"))
        seen.append(state.buff.horde)
    assert seen == [8, 10, 12, 14]


def test_s46_pile_de_jetons_16_et_20_au_dos():
    """« Il est recommandé d'empiler les jetons de valeur paire … Dans le cas
    rare où la partie durerait plus longtemps que 6 semaines, souvenez-vous
    que le niveau 16 se trouve au dos du jeton de niveau 14, et que le niveau
    20 se trouve au dos du jeton de niveau 18. » — weeks 7 to 9 are 16, 18,
    20; past the tokens the horde grows on (« et ainsi de suite »)."""
    assert [wander.horde_for_week(w) for w in range(2, 11)] == [6, 8, 10, 12, 14, 16, 18, 20, 22]


def test_option_horde_cap_twenty():
    """Option ``horde_cap`` (F3: « tokens run from 6 to 20 »): with 20 the
    horde stops at the last printed token."""
    assert wander.horde_for_week(10, 20) == 20 and wander.horde_for_week(8, 20) == 18
    state = table(roads="a1-b1", buff="b1", horde=20, day=64, options={"horde_cap": 20})
    state, _ = buff.on_day_start(evolve(state, phase="day-start"))
    assert state.buff.horde == 20


# ---------------------------------------------------------------------------
# Rulings F1-F7 and the options
# ---------------------------------------------------------------------------


def test_f1_entry_after_the_first_rotation_before_the_first_turn():
    """F1: after the first full oracle rotation (day 8), before the first
    player's turn — the auction suspends the day-start."""
    state, _ = auction_state()
    assert state.day == 8 and state.phase == "auction" and state.buff.resume == "day-start"


def test_f2_and_option_empty_bid():
    """F2 allowed bidding nothing: option ``empty_bid`` (default off, the
    seed's « une ou plusieurs »). A seat without a card of non-zero strength
    bids nothing in any case."""
    state, _ = auction_state(hands=("2u", "P P", "1a"), options={"empty_bid": True})
    assert "bid" in notations(buff.legal(state, 0))
    state, _ = do(state, 0, "bid")
    state, _ = auction_state(hands=("2u", "P P", "1a"))
    assert notations(buff.legal(state, 1)) == {"bid"}
    assert notations(buff.legal(state, 0)) == {"bid 2u"}
    state, _ = bid_all(state, "bid 2u", "bid", "bid 1a")
    assert state.auction.winner == 0


def test_f3_horde_formula():
    """F3: ``6 + 2·(week − 2)``."""
    assert all(wander.horde_for_week(w) == 6 + 2 * (w - 2) for w in range(2, 12))


def test_f4_movement_one_d6_no_revisit_stop_on_hero():
    """F4: 1d6, 0..n spaces along roads, never revisiting, stop and attack on
    a hero's space (the mover picks), never a city."""
    state = moving(6, roads="a1-b1-c1-d1 b1-b2", heroes={"d1": ("3h1",)})
    legal = notations(buff.legal(state, 0))
    assert legal == {"buff", "buff b1", "buff b1 c1", "buff b1 c1 d1", "buff b1 b2"}


def test_f5_no_possible_option_is_a_lost_fight():
    """F5: when the attacked seat can neither bribe nor recruit (fewer than 3
    Provisions) nor lay a single line card, the fight is lost at once."""
    state = moving(1, heroes={"b1": ("2h1",)})
    state = with_hand(state, 1, "P P Ou")
    state, events = do(state, 0, "buff b1")
    fight = next(e for e in events if e.kind == "buff-fight")
    assert fight.data["forced"] and not fight.data["won"]
    assert "hero-lost" in kinds(events) and buff.pending(state) is None
    assert state.phase == "after-turn"


def test_f6_hire_ends_stays_put_current_token():
    """F6: when the hire ends he stays put and takes the current token; the
    others do not move him while he is hired."""
    state = table(roads="a1-b1-c1", buff="c1", owner=2, hire_until=20, day=20, horde=6)
    state, events = buff.after_turn(evolve(state, day=19, phase="after-turn"), 0)
    assert events == []
    state, events = buff.on_day_start(evolve(state, day=20, phase="day-start"))
    assert (state.buff.square, state.buff.owner, state.buff.horde) == ("c1", None, 8)  # week 3
    state, events = buff.on_day_start(evolve(state, day=22, phase="day-start"))
    assert state.buff.horde == 10  # week 4


def test_f7_end_of_week_off_board_new_auction():
    """F7: if Buff is off the board at a week boundary, a new auction — and
    only then (on board: none)."""
    state = table(roads="a1-b1", buff="b1", day=15, phase="day-start", hands=("1u",))
    state, events = buff.on_day_start(state)
    assert "auction-open" not in kinds(events) and state.phase == "day-start"


def test_option_buff_fight_bonuses_on():
    """Option ``buff_fight_bonuses`` (ruling §4 [P] « Terrain and morale
    bonuses apply normally »; default off, the seed's « des cartes dont la
    force »): on, a hero fighting the horde adds morale and terrain."""
    off = _attacked(hand="2i 3i", terrain={"b1": "lac"})
    _, events = do(off, 1, "fight : 2i 3i")
    fight = next(e for e in events if e.kind == "buff-fight")
    assert fight.data["strength"] == 5 and not fight.data["won"]
    on = evolve(off, rules=evolve(off.rules, buff_fight_bonuses=True))
    _, events = do(on, 1, "fight : 2i 3i")
    fight = next(e for e in events if e.kind == "buff-fight")
    assert (fight.data["base"], fight.data["morale"], fight.data["terrain"]) == (5, 1, 1)
    assert fight.data["strength"] == 7


def test_enter_with_several_heroes_the_winner_picks():
    """With two heroes on the entry city the auction's winner names the one
    attacked: ``enter g1 1h1`` (and the notation reads back)."""
    state, _ = auction_state(heroes={"g1": ("1h1", "2h1")}, hands=("2u", "3i P P P", "1a"))
    state, _ = bid_all(state, "bid 2u", "bid 3i", "bid 1a")
    legal = notations(buff.legal(state, 1))
    assert {"enter g1 1h1", "enter g1 2h1"} <= legal and "enter g1" not in legal
    assert refusal(state, 1, "enter g1") == "bt-refuse-buff-choose-hero"
    assert format_action(parse_action("enter g1 1h1")) == "enter g1 1h1"
    state, _events = do(state, 1, "enter g1 1h1")
    assert set(buff.pending(state)) == {0}


def test_not_now_refusals():
    """Buff's decisions are refused outside their moment."""
    state = table(roads="a1-b1", buff="a1", hands=("P P P",))
    assert buff.check(state, 0, Bribe(("P", "P", "P"))).msg.key == "bt-refuse-buff-not-now"
    assert buff.check(state, 0, Bid(("1u",))).msg.key == "bt-refuse-buff-not-now"
    assert buff.check(state, 0, Enter("a1")).msg.key == "bt-refuse-buff-not-now"
    assert buff.check(state, 0, BuffMove(())).msg.key == "bt-refuse-buff-not-now"
    assert buff.check(state, 0, Fight(())).msg.key == "bt-refuse-buff-not-now"
    assert buff.check(state, 0, Recruit(("P",) * 4)).msg.key == "bt-refuse-recruit-not-here"


def test_owner_hero_stepping_onto_hired_buff_is_not_attacked():
    """Buff attacks heroes stepping onto him only while free: his owner's
    heroes (and anyone's, while he is hired) share his square in peace."""
    state = table(roads="a1-b1", heroes={"a1": ("1h1",)}, buff="a1", owner=0, hire_until=12)
    state, events = buff.on_hero_arrives(state, 0, "h1", "a1")
    assert events == [] and state.phase == "turn"
    state = evolve(state, buff=evolve(state.buff, owner=None, hire_until=None))
    state, events = buff.on_hero_arrives(state, 0, "h1", "a1")
    assert [e.kind for e in events] == ["buff-attack", "buff-fight", "hero-lost"]  # F5


def test_option_buff_off_nothing_happens():
    """Option ``buff`` (default on): off, no auction at the end of week 1,
    no roll after a turn, no attack on a hero stepping onto his square."""
    state = table(
        roads="a1-b1",
        buff=None,
        entered=False,
        day=8,
        phase="day-start",
        hands=("1u", "1i", "1a"),
        options={"buff": False},
    )
    state, events = buff.on_day_start(state)
    assert events == [] and state.phase == "day-start"
    state = table(roads="a1-b1", heroes={"a1": ("1h1",)}, buff="a1", options={"buff": False})
    assert buff.after_turn(state, 0) == (state, [])
    assert buff.on_hero_arrives(state, 0, "h1", "a1") == (state, [])
