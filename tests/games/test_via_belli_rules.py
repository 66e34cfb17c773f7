"""Via Belli (seed 000): one scenario per rule sentence, worked example, ruling and option.

Each test cites, in French, the sentence of the rules it checks (or the ruling
V1-V23 of our rulings file, or the option). Situations are built directly
with ``tests.games.vb_helpers.scenario``: cards are written ``0:Roturier@G11P``
(seat, name, top-left cell, P standing / L lying; ``?`` before the name: face
down). Unless told otherwise the table is 40x24 cells, the castles stand at
D11 (seat 0, blue) and M11 (seat 1, red). Nothing is read from /work/shared.
"""

from __future__ import annotations

import copy
import json

import pytest

from engine import GAMES, Match, MatchRecord
from engine.core import evolve
from engine.errors import BadNotation, BadOptions, BadRecord, IllegalAction, NotYourTurn, RulesError
from engine.games.via_belli import (
    GAME,
    PRESETS,
    Anchor,
    Attack,
    Begin,
    Cancel,
    Draw,
    EndTurn,
    Move,
    Options,
    Pivot,
    Recall,
    Reveal,
    Sorcery,
    Summon,
    card_rect,
    cell_text,
    deck_file,
    parse_cell,
    preset_cups,
    table_layout,
)
from tests.games.vb_helpers import (
    act,
    all_cards,
    base,
    draw,
    en,
    first,
    fr,
    frozen,
    g,
    kinds,
    legal,
    scenario,
    tags,
    unit_at,
)

CASTLES = ["D11P", "M11P"]


def near(units: list[str], **kw: object) -> object:
    """A scenario with the two castles close to each other (D11 and M11)."""
    kw.setdefault("castles", CASTLES)
    return scenario(units, **kw)  # type: ignore[arg-type]


def rect_touch(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    """Independent check of contact: an edge shared over at least one cell."""
    ax, ay, aw, ah = a
    bx, by, bw, bh = b
    if ax < bx + bw and bx < ax + aw and ay < by + bh and by < ay + ah:
        return False  # overlap
    xs = min(ax + aw, bx + bw) - max(ax, bx)
    ys = min(ay + ah, by + bh) - max(ay, by)
    if xs >= 1 and (ay + ah == by or by + bh == ay):
        return True
    return ys >= 1 and (ax + aw == bx or bx + bw == ax)


def rect_of(spec: str) -> tuple[int, int, int, int]:
    cell = parse_cell(spec[:-1])
    assert cell is not None
    r = card_rect(cell[0], cell[1], spec.endswith("L"))
    return r.x, r.y, r.w, r.h


def test_registered() -> None:
    """The game is registered under its fixed id, for 2 to 4 players."""
    assert GAMES["via-belli"] is GAME
    assert g.info.min_seats == 2 and g.info.max_seats == 4
    assert g.info.hidden_information and g.info.chance and not g.info.simultaneous
    assert g.conformance_games == 300


# ===========================================================================
# Material: the proposed deck (data file) and the grid
# ===========================================================================


def test_materiel_deck_propose_32_unites_et_5_terrains() -> None:
    """Rulings, proposed deck: 32 units per player (14 kinds) and 5 terrain cards
    (1 Château, 2 Auberges, 2 Avant-Postes); the values the seed's examples pin down:
    Roturier ATK 2, Archer DEF 1, Clerc ATK 1, Paladin DEF 2, dogs cost 1."""
    data = deck_file()
    units = {u.name: u for u in data.units}
    assert sum(u.count for u in data.units) == 32
    assert len(units) == 14
    assert (data.terrain.castle, data.terrain.inns, data.terrain.outposts) == (1, 2, 2)
    assert units["Roturier"].atk == 2 and units["Archer"].defence == 1
    assert units["Clerc"].atk == 1 and units["Paladin"].defence == 2
    assert units["Cabot à Couteau"].ivk == units["Molosse Masqué"].ivk == 1
    assert {u.ability for u in data.units if u.ability} == {
        "dog",
        "squire",
        "bard",
        "medic",
        "lancer",
        "archer",
        "sorcerer",
        "spy",
    }
    assert (units["Écuyer"].aura_atk, units["Écuyer"].aura_def) == (2, 0)
    assert (units["Barde"].aura_atk, units["Barde"].aura_def) == (1, 1)
    assert (units["Médecin"].aura_atk, units["Médecin"].aura_def) == (0, 2)
    s = base()
    assert s.rules.cards[0].name == "Serf"
    assert [sum(p.deck) + len(p.hand) for p in s.players] == [32, 32]


def test_data_file_schema_refuses_bad_cards() -> None:
    """The data file is validated by a schema a group can rely on when editing it."""
    from engine.games.via_belli import DeckFile

    raw = json.loads(json.dumps(deck_file().model_dump(by_alias=True)))
    DeckFile.model_validate(raw)
    for mutate, needle in (
        (lambda d: d["units"][0].update(name="Pioche"), "notation"),
        (lambda d: d["units"][0].update(name="Serf2"), "letters"),
        (lambda d: d["units"][1].update(name="Serf"), "unique"),
        (lambda d: d["units"][0].update(ability="fly"), "ability"),
        (lambda d: d["units"][0].update(atk=-1), "atk"),
        (lambda d: d.update(hand_start=40), "hand_start"),
    ):
        bad = copy.deepcopy(raw)
        mutate(bad)
        with pytest.raises(ValueError) as exc:
            DeckFile.model_validate(bad)
        assert needle in str(exc.value), needle


def test_grille_case_22mm_carte_3x4_debout_4x3_couchee() -> None:
    """Rulings, grid: cells of about 22 mm; a card covers 3x4 cells standing (P) and
    4x3 lying (L); a position is the top-left cell plus P/L."""
    from engine.games.via_belli import CELL_MM

    assert CELL_MM == 22
    assert card_rect(2, 4, False).w == 3 and card_rect(2, 4, False).h == 4
    assert card_rect(2, 4, True).w == 4 and card_rect(2, 4, True).h == 3
    s = near(["0:Roturier@G11P", "0:Serf@G15L"])
    v = g.view(s, 0)
    r = {u.tag: (u.w, u.h) for u in v.units}
    assert r == {"G11": (3, 4), "G15": (4, 3)}
    assert v.cell_mm == 22 and v.columns[:3] == ("A", "B", "C") and v.columns[26] == "AA"


def test_contact_par_un_bord_d_au_moins_une_case_pas_par_un_coin() -> None:
    """Rulings, contact: two cards touch when they share an edge of at least one cell;
    touching only at a corner does not count."""
    # the Serf at J15 touches the Roturier at G11 only at a corner: not linked
    s = near(["0:Roturier@G11P", "0:Serf@J15P", "0:Serf@I19L"])
    linked = {u.tag: u.supplied for u in g.view(s, None).units}
    assert linked == {"G11": True, "J15": False, "I19": False}
    # one cell of shared edge is enough: the lying Serf at I15 shares one cell
    s = near(["0:Roturier@G11P", "0:Serf@I15L"])
    assert rect_touch(rect_of("G11P"), rect_of("I15L"))
    assert all(u.supplied for u in g.view(s, None).units)
    # after an attack, the table is settled: the corner-only Serf goes back to hand
    s = near(["0:Roturier@G11P", "0:Serf@J15P", "1:Serf@J11P"])
    t, ev = act(s, "x", "G11xJ11")
    assert "J15P" not in tags(t) and first(ev, "cut-off").data["tags"] == ["J15"]
    # the spots offered along a card all touch it by an edge
    s = near([], hands=["Roturier", ""])
    t, _ = act(s, "+", "Roturier@D11")
    for action in g.legal_actions(t, 0):
        assert isinstance(action, Summon)
        spec = cell_text(action.x, action.y) + ("L" if action.landscape else "P")
        assert rect_touch(rect_of("D11P"), rect_of(spec)), spec


def test_bords_de_table_et_tasses_bloquent() -> None:
    """Rulings: table edges and obstacles (cups: 4x4 blocked cells) block; a legal
    footprint lies inside the table, over no card and no cup."""
    s = scenario([], castles=["A1L", "AK21L"], hands=["Serf", ""], cups=["A4"])
    t, _ = act(s, "+", "Serf@A1")
    spots = legal(t)
    for spot in spots:
        x, y, w, h = rect_of(spot.split()[1])
        assert x >= 0 and y >= 0 and x + w <= 40 and y + h <= 24
        assert not (x < 4 and y + h > 3 and y < 7), spot  # the cup at A4..D7
    assert "Serf E1P" in spots and "Serf A4L" not in spots
    with pytest.raises(IllegalAction) as exc:
        g.apply(t, 0, Summon("Serf", False, 0, 3, True))
    assert "not free" in en(exc.value) and "tasse" in fr(exc.value)


# ===========================================================================
# Tables: presets, layout, cups
# ===========================================================================


@pytest.mark.parametrize("name", sorted(PRESETS))
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_presets_du_gueridon_a_la_table_a_manger(name: str, seats: int) -> None:
    """Rulings, table presets: from the bistro table (guéridon) to the dining table
    and a square four-player table, each with its castles, inns and outposts; a
    symmetric layout (every seat's castle inside, nothing overlaps)."""
    preset = PRESETS[name]
    s = base(f"table={name}", seats)
    assert (s.rules.width, s.rules.height) == (preset.width, preset.height)
    rects = [card_rect(c.x, c.y, c.landscape) for c in s.castles]
    rects += [card_rect(t.x, t.y, t.landscape) for t in s.terrain]
    for i, r in enumerate(rects):
        assert r.inside(preset.width, preset.height)
        assert not any(r.overlaps(o) for o in rects[i + 1 :])
    expected = preset.terrain if seats == 2 else max(preset.terrain, 2)
    assert sum(t.kind == "inn" for t in s.terrain) == expected
    assert sum(t.kind == "outpost" for t in s.terrain) == expected
    assert len(s.cups) == preset.cups
    # West and East mirror each other
    w, e = s.castles[0], s.castles[-1 if seats < 4 else 2]
    assert (w.x + 3 + e.x == preset.width and w.y == e.y) or seats == 4


def test_chateaux_a_un_metre_terrains_a_mi_distance_separes_de_30_cm() -> None:
    """« Châteaux à 1 mètre l'un de l'autre, l'Avant-Poste et l'Auberge positionnés à
    mi-distance entre les 2 Châteaux, séparés entre eux de 30cm »: on the standard
    table the castles stand about 45 cells (1 m) apart, the two terrain cards on the
    midline, 14 cells (30 cm) apart."""
    s = base("table=standard")
    a, b = s.castles
    gap = (b.x + 1.5) - (a.x + 1.5)
    assert abs(gap * 22 - 1000) < 40
    t1, t2 = s.terrain
    assert t1.x == t2.x and t1.x + 1.5 == 55 / 2
    assert (t2.y - t1.y) == 14 and abs(14 * 22 - 300) < 10
    assert {t.kind for t in s.terrain} == {"inn", "outpost"}


def test_une_auberge_et_un_avant_poste_a_deux_le_double_a_quatre() -> None:
    """« Nous recommandons de jouer avec une seule Auberge et un Avant-Poste si vous
    êtes à 2 joueurs et de doubler ces quantités si vous êtes 4 »; 3 players: like 4
    (our choice)."""
    for seats, count in ((2, 1), (3, 2), (4, 2)):
        s = base("table=carre_4j" if seats > 2 else "table=standard", seats)
        assert sum(t.kind == "inn" for t in s.terrain) == count
        assert sum(t.kind == "outpost" for t in s.terrain) == count


def test_les_decks_contiennent_2_auberges_et_2_avant_postes() -> None:
    """« les Decks contiennent tous 2 Auberges et 2 Avant-Postes si vous souhaitez
    étendre le domaine de jeu »: options ``inns``/``outposts`` up to what the decks
    hold."""
    s = base("table=salle_a_manger inns=2 outposts=1", 2)
    assert sorted(t.kind for t in s.terrain) == ["inn", "inn", "outpost"]
    with pytest.raises(BadOptions) as exc:
        base("inns=0 outposts=5", 2)
    assert "outposts" in en(exc.value)


def test_option_tables_personnalisees_largeur_hauteur_ecart() -> None:
    """Options ``width``/``height`` (a custom table) and ``castle_gap``/``terrain_gap``."""
    s = base("width=30 height=20 castle_gap=20 terrain_gap=8")
    assert (s.rules.width, s.rules.height, s.rules.table) == (30, 20, "custom")
    a, b = s.castles
    assert b.x - a.x in (20, 21)
    t1, t2 = s.terrain
    assert t2.y - t1.y == 8
    with pytest.raises(BadOptions) as exc:
        base("width=20 height=30")
    assert "width=30 height=20" in en(exc.value)
    with pytest.raises(BadOptions):
        g.options("width=10")


def test_option_tasses_placees_par_l_utilisateur() -> None:
    """Option ``cup_cells``: the lobby places cups (4x4 blocked cells, option
    ``cup_size``) on chosen cells; a cup off the table or over a card is refused."""
    s = base("width=30 height=20 castle_gap=20 cup_cells=T3,A1 cup_size=3")
    assert s.cups == ((19, 2, 3, 3), (0, 0, 3, 3))
    with pytest.raises(BadOptions) as exc:
        base("width=30 height=20 castle_gap=20 cup_cells=AC1")
    assert "AC1" in en(exc.value)
    with pytest.raises(BadOptions):
        g.options("cup_cells=K")


@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.parametrize("table", ["table_basse", "carre_4j", "salle_a_manger"])
def test_option_tasses_aleatoires_symetriques(seats: int, table: str) -> None:
    """Rulings, « Cups/glasses: blocked 4x4 cells, placed mirror-symmetrically »:
    ``cup_layout=random`` places them at random, symmetrically (quarter turns for 4
    players on a square table), away from castles and terrain; the seed decides."""
    opts = f"table={table} cup_layout=random cups=4"
    s = base(opts, seats, seed=3)
    W, H = s.rules.width, s.rules.height
    cups = {(x, y) for x, y, _, _ in s.cups}
    assert len(cups) == 4
    for x, y in cups:
        if seats == 4 and W == H:
            assert (W - 4 - y, x) in cups
        elif seats == 4:
            assert (W - 4 - x, H - 4 - y) in cups
        else:
            assert (W - 4 - x, y) in cups
    assert base(opts, seats, seed=3).cups == s.cups
    assert any(base(opts, seats, seed=k).cups != s.cups for k in range(4, 8))


def test_preset_cups_and_layout_helpers() -> None:
    """The preset cups are symmetric pairs; the layout puts seat 0 West and goes
    clockwise (W, N, E, S)."""
    places = preset_cups(45, 27, 2, 37, 14, 4)
    assert places[1] == (45 - 4 - places[0][0], places[0][1])
    assert table_layout(55, 55, 4, 45, 14).sides == ("W", "N", "E", "S")
    assert table_layout(55, 36, 3, 45, 14).sides == ("W", "N", "E")
    assert [p.side for p in g.view(base("table=carre_4j", 4), 0).players] == ["W", "N", "E", "S"]


# ===========================================================================
# Préparation
# ===========================================================================


def test_preparation_chateaux_face_visible_terrains_faces_cachees_melanges() -> None:
    """« Les Châteaux faces découvertes devant chaque joueur et les Avant-Poste et
    Auberges faces cachées après mélange »; V2: terrain taken out of the decks, the
    middle ones shuffled face down."""
    kinds_seen = set()
    for seed in range(12):
        s = base("table=standard", seed=seed)
        assert [c.owner for c in s.castles] == [0, 1]
        assert all(not t.revealed and t.controller == -1 for t in s.terrain)
        kinds_seen.add(tuple(t.kind for t in s.terrain))
        v = g.view(s, 0)
        assert all(t.kind is None for t in v.terrain)
        assert {c.name for c in s.rules.cards}.isdisjoint({"Château", "Auberge", "Avant-Poste"})
    assert kinds_seen == {("inn", "outpost"), ("outpost", "inn")}


def test_option_terrain_cells() -> None:
    """« Les positions et le nombre de ces cartes sont laissés libres aux joueurs. »: option
    ``terrain_cells`` puts the inns and outposts at the players' cells (``P`` standing,
    ``L`` lying), as ``cup_cells`` does for cups."""
    s = base("terrain_cells=T10,T24L")
    assert sorted((t.x, t.y, t.landscape) for t in s.terrain) == [(19, 9, False), (19, 23, True)]
    assert sorted(t.kind for t in s.terrain) == ["inn", "outpost"]
    s = base("inns=2 outposts=1 terrain_cells=T2,T10,T24L")
    assert len(s.terrain) == 3
    with pytest.raises(BadOptions):
        base("terrain_cells=T10")  # 2 cards, 1 place
    with pytest.raises(BadOptions):
        base("terrain_cells=T10,T11")  # overlapping
    with pytest.raises(BadOptions):
        base("terrain_cells=T10,BZ3")  # off the table
    with pytest.raises(BadOptions):
        g.options("terrain_cells=T10,nowhere")


def test_option_terrain_hidden_false() -> None:
    """Option ``terrain_hidden=false``: the middle terrain lies face up from the start."""
    s = base("terrain_hidden=false")
    assert all(t.revealed for t in s.terrain)
    assert {t.kind for t in g.view(s, None).terrain} == {"inn", "outpost"}


def test_trois_cartes_en_main_puis_une_quatrieme_pour_l_initiative() -> None:
    """« Chaque joueur débute la partie avec trois cartes en main. Chaque joueur pioche
    une quatrième carte et somme ses Points d'Attaque et de Défense. Celui ayant le
    total le plus élevé commence la partie. »; V1: keep all 4 cards, compare the 4th
    card only; the 4th card is drawn in public."""
    table = {c.name: c for c in base().rules.cards}
    for seed in range(30):
        s = base(seed=seed)
        assert [len(p.hand) for p in s.players] == [4, 4]
        assert [sum(p.deck) for p in s.players] == [28, 28]
        rounds = s.initiative
        fourth = rounds[0]
        assert [p.hand[3] for p in s.players] == list(fourth)
        assert [p.known for p in s.players] == [((fourth[0], 0),), ((fourth[1], 0),)]
        last = rounds[-1]
        scores = {seat: table[c].atk + table[c].dfn for seat, c in enumerate(last) if c}
        assert s.first_player == max(scores, key=scores.__getitem__)
        assert s.active == s.first_player and g.pending(s)[s.first_player].kind == "turn"
        events = g.setup_events(s)
        init = first(events, "initiative")
        assert init.to is None and init.data["cards"] == list(fourth)
        deals = [e for e in events if e.kind == "deal"]
        assert [e.to for e in deals] == [frozenset({0}), frozenset({1})]
        assert deals[0].for_seat(1).data == {"seat": 0, "count": 3}


def test_initiative_egalite_les_joueurs_a_departager_piochent_a_nouveau() -> None:
    """« En cas d'égalité, les joueurs à départager piochent une nouvelle carte jusqu'à
    ce qu'un des joueurs ait un total plus élevé. Les cartes utilisées pour ces tirages
    supplémentaires sont remises dans la pioche »."""
    table = {c.name: c for c in base().rules.cards}
    ties = 0
    for seed in range(60):
        s = base(seed=seed, seats=3)
        if len(s.initiative) == 1:
            continue
        ties += 1
        first_row = s.initiative[0]
        values = [table[c].atk + table[c].dfn for c in first_row]
        tied = {i for i, v in enumerate(values) if v == max(values)}
        assert len(tied) > 1
        for row in s.initiative[1:]:
            assert {i for i, c in enumerate(row) if c} <= tied
        assert [len(p.hand) for p in s.players] == [4, 4, 4]
        assert [sum(p.deck) for p in s.players] == [28, 28, 28]
        events = g.setup_events(s)
        assert "initiative-tie" in kinds(events)
    assert ties >= 3


def test_option_initiative_sum_whole_hand() -> None:
    """Option ``initiative_sum=whole-hand`` (V1 alternative): « somme ses Points
    d'Attaque et de Défense » read as the sum over the 4 cards in hand."""
    table = {c.name: c for c in base().rules.cards}
    for seed in range(20):
        s = base("initiative_sum=whole-hand", seed=seed)
        if len(s.initiative) > 1:
            continue
        totals = [sum(table[c].atk + table[c].dfn for c in p.hand) for p in s.players]
        assert totals[s.first_player] == max(totals)


def test_option_initiative_card_return() -> None:
    """Option ``initiative_card=return`` (V1 alternative): the initiative card goes
    back into the pile; players start with 3 cards."""
    s = base("initiative_card=return")
    assert [len(p.hand) for p in s.players] == [3, 3]
    assert [sum(p.deck) for p in s.players] == [29, 29]
    assert all(p.known == () for p in s.players)


def test_le_jeu_se_joue_dans_le_sens_des_aiguilles_d_une_montre() -> None:
    """V1: play goes clockwise (seats sit W, N, E, S in seat order)."""
    s = scenario([], seats=4, opts="table=carre_4j", active=2, pa=1)
    t, ev = act(s, "D")
    assert t.active == 3 and first(ev, "turn").data["seat"] == 3
    t = evolve(t, pa=1)
    t, _ = act(t, "D")
    assert t.active == 0


# ===========================================================================
# Actions, points d'action
# ===========================================================================


def test_cinq_pa_par_tour_plus_un_par_auberge_controlee() -> None:
    """« De base, chaque joueur a 5 PA par tour, et chaque Auberge contrôlée offre 1 PA
    supplémentaire par tour à son possesseur. »"""
    s = near(
        ["0:Roturier@G11P"],
        terrain_cards=["inn@J15P=1", "inn@J19P=1", "outpost@P2P=1"],
        active=0,
        pa=1,
    )
    t, ev = act(s, "D")
    assert t.active == 1 and t.pa == 7
    assert first(ev, "turn").data == {"seat": 1, "turn": 2, "pa": 7}


def test_le_tour_ne_s_acheve_que_si_tous_les_pa_sont_utilises() -> None:
    """« Son tour ne s'achève que s'il a utilisé tous ses Points d'Action. Le joueur peut
    accomplir la même action plusieurs fois »; V3: no passing while PA are left."""
    s = near([], pa=3)
    assert "E" not in legal(s)
    t, _ = act(s, "D", "D")
    assert t.active == 0 and t.pa == 1 and len(t.players[0].hand) == 2
    t, ev = act(t, "D")
    assert t.active == 1 and "turn" in kinds(ev)
    with pytest.raises(IllegalAction) as exc:
        g.apply(s, 0, EndTurn())
    assert "spent" in en(exc.value)


def test_v3_pa_restants_perdus_si_rien_n_est_possible() -> None:
    """V3: « If the draw pile is empty and nothing else is legal, leftover PA are
    lost »: the turn ends, so the game never stalls."""
    s = near([], hands=["", ""], decks=[{"Serf": 2}, None], pa=2)
    t, ev = act(s, "D")  # a Serf (1 PA) is playable: the turn goes on
    assert t.active == 0 and t.pa == 1
    s = near([], hands=["", ""], decks=[{"Paladin": 1}, None], pa=2)
    t, ev = act(s, "D")  # a Paladin costs 4, an ambush 2, no card on the table
    assert first(ev, "pa-lost").data == {"seat": 0, "pa": 1}
    assert kinds(ev)[1:4] == ["pa-lost", "deck-out", "eliminated"]


def test_option_must_spend_pa_false() -> None:
    """Option ``must_spend_pa=false`` (V3 alternative): ``E`` ends the turn early."""
    s = near([], opts="width=40 height=24 castle_gap=30 inns=0 outposts=0 must_spend_pa=false")
    assert "E" in legal(s)
    t, ev = act(s, "E")
    assert t.active == 1 and kinds(ev)[:2] == ["end-turn", "turn"]


def test_pioche_un_pa() -> None:
    """« Pioche (1 Point d'Action) : Vous piochez une carte de votre Deck que vous ajoutez
    à votre main. » The card is seen by its owner only."""
    s = near([])
    t, ev = act(s, "D")
    assert t.pa == 4 and len(t.players[0].hand) == 1 and sum(t.players[0].deck) == 31
    e = first(ev, "draw")
    assert e.to == frozenset({0}) and e.data["card"] == t.players[0].hand[0]
    assert e.for_seat(1).data == {"seat": 0, "left": 31}
    assert all_cards(t, 0) == all_cards(s, 0)


def test_option_hand_limit() -> None:
    """Option ``hand_limit`` (V23: no limit by default): with a limit, drawing stops
    when the hand is full."""
    s = near([], hands=["Serf,Serf,Serf", ""])
    assert "D" in legal(s)
    s = near(
        [],
        hands=["Serf,Serf,Serf", ""],
        opts="width=40 height=24 castle_gap=30 inns=0 outposts=0 hand_limit=3",
    )
    assert "D" not in legal(s)
    with pytest.raises(IllegalAction) as exc:
        g.apply(s, 0, Draw())
    assert "full" in en(exc.value)


# ===========================================================================
# Invocation
# ===========================================================================


def test_invocation_cout_ivk_contre_le_chateau() -> None:
    """« Invocation (Coût en PA indiqué par le score IVK ...) : ... la déposer en contact
    avec votre Château »: the card, the anchor, then the spot; it costs its IVK."""
    s = near([], hands=["Bailli,Serf", ""])
    assert legal(s) == {"D", "+"}
    t, _ = act(s, "+")
    assert legal(t) >= {"Bailli@D11", "Serf@D11", "?Bailli@D11", "?Serf@D11"}
    t, _ = act(t, "Bailli@D11")
    assert "Bailli G11P" in legal(t) and "Bailli G11L" in legal(t)
    t, ev = act(t, "Bailli G11P")
    assert t.pa == 2 and "G11P" in tags(t) and t.players[0].hand == ("Serf",)
    assert first(ev, "summon").data == {
        "seat": 0,
        "card": "Bailli",
        "tag": "G11",
        "orient": "P",
        "cost": 3,
        "free": False,
    }
    # a card too dear is not offered face up
    s = near([], hands=["Paladin", ""], pa=3)
    t, _ = act(s, "+")
    assert not any(a.startswith("Paladin@") for a in legal(t))


def test_invocation_le_long_d_une_carte_reliee_non_en_contact_ennemi() -> None:
    """« ... ou une de vos cartes déjà présente sur le plateau, non en contact avec une
    carte ennemie, et elle même reliée à votre Château »; V5: the anchor must touch no
    enemy unit or castle, the new card may."""
    s = near(["0:Roturier@G11P", "0:Serf@G7P", "1:Archer@J7P"], hands=["Serf", ""])
    t, _ = act(s, "+")
    anchors = {a.split("@")[1] for a in legal(t) if a.startswith("Serf@")}
    assert anchors == {"D11", "G11"}  # the Serf at G7 touches the enemy Archer
    t, _ = act(t, "Serf@G11")
    assert "Serf G15P" in legal(t)
    # the new card may touch an enemy: at J11 it touches the red castle
    assert "Serf J11P" in legal(t)
    with pytest.raises(IllegalAction) as exc:
        g.apply(t, 0, Summon("Serf", False, 30, 20, False))
    assert "must touch your castle" in en(exc.value)


def test_v5_option_summon_contact_anchor_and_card() -> None:
    """Option ``summon_contact=anchor-and-card`` (V5 alternative): the new card must not
    touch an enemy either."""
    opts = "width=40 height=24 castle_gap=30 inns=0 outposts=0 summon_contact=anchor-and-card"
    s = near(["0:Roturier@G11P"], hands=["Serf", ""], opts=opts)
    t, _ = act(s, "+", "Serf@G11")
    spots = legal(t)
    assert "Serf G15P" in spots
    assert "Serf J11P" not in spots


def test_v5_option_bases_anchor_unengaged() -> None:
    """« il faut la déposer en contact avec votre Château, un Avant-Poste que vous
    contrôlez, ou une de vos cartes déjà présente sur le plateau, non en contact avec une
    carte ennemie »; V5: the castle and controlled outposts are anchors even when an enemy
    touches them (option ``bases_anchor=unengaged``: only while no enemy card does)."""
    units = ["1:Roturier@G11P"]  # an enemy against castle D11
    t, _ = act(near(units, hands=["Serf", ""]), "+")
    assert "Serf@D11" in legal(t)
    opts = "width=40 height=24 castle_gap=30 inns=0 outposts=0 bases_anchor=unengaged"
    s = near(units, hands=["Serf", ""], opts=opts)
    assert not any(g.format_action(a).startswith("Serf") for a in g.complete_actions(s, 0))
    s = near([], hands=["Serf", ""], opts=opts)
    t, _ = act(s, "+")
    assert "Serf@D11" in legal(t)


def test_v21_le_terrain_ennemi_n_est_pas_une_carte_ennemie() -> None:
    """V21: terrain held by an enemy is not an "enemy card" for the anchor rule (option
    ``enemy_terrain_blocks=true``: it is)."""
    units = ["0:Roturier@G11P"]
    s = near(units, hands=["Serf", ""], terrain_cards=["outpost@J15P=1"])
    t, _ = act(s, "+")
    assert "Serf@G11" in legal(t)
    opts = "width=40 height=24 castle_gap=30 inns=0 outposts=0 enemy_terrain_blocks=true"
    s = near(units, hands=["Serf", ""], terrain_cards=["outpost@G15P=1"], opts=opts)
    t, _ = act(s, "+")
    assert "Serf@G11" not in legal(t) and "Serf@D11" in legal(t)


def test_embuscade_face_cachee_deux_pa_zero_zero_sans_bonus() -> None:
    """« Si vous invoquez votre carte en embuscade, aucun bonus ne s'applique sur elle, et
    ses Points d'Attaque (ATK) et de Défense (DEF) descendent à 0. Son coup d'invocation
    est alors de 2 PA peu importe sa valeur réelle. »"""
    s = near(["0:Barde@G11P"], hands=["Paladin", ""])
    t, ev = act(s, "+", "?Paladin@G11", "?Paladin G15P")
    assert t.pa == 3
    u = unit_at(t, "G15")
    assert u is not None and not u.face_up
    e = first(ev, "ambush")
    assert e.to == frozenset({0}) and e.data["card"] == "Paladin"
    assert e.for_seat(1).data == {"seat": 0, "tag": "G15", "orient": "P", "cost": 2}
    mine = {x.tag: x for x in g.view(t, 0).units}
    theirs = {x.tag: x for x in g.view(t, 1).units}
    assert (mine["G15"].atk, mine["G15"].dfn) == (0, 0)  # the Barde gives it nothing
    assert mine["G15"].name == "Paladin" and theirs["G15"].name is None
    assert (theirs["G11"].atk, theirs["G11"].dfn) == (1, 1)


def test_chiens_invocation_normale_permet_un_second_chien_gratuit() -> None:
    """« Cabot à Couteau / Molosse Masqué : L'invocation normale d'une de ces cartes pour
    1 Point d'Action permet d'invoquer gratuitement un autre chien si vous l'avez en
    main. »; V16: either name, face up, normal placement, no chaining."""
    s = near([], hands=["Cabot à Couteau,Molosse Masqué,Cabot à Couteau", ""])
    t, _ = act(s, "+", "Cabot à Couteau@D11", "Cabot à Couteau G11P")
    assert t.phase == "free-dog" and t.pa == 4
    assert "-" in legal(t) and "Molosse Masqué@G11" in legal(t)
    t2, ev = act(t, "Molosse Masqué@G11", "Molosse Masqué J11P")
    assert t2.pa == 4 and t2.phase == "turn"
    assert first(ev, "summon").data["free"] is True and "free-dog" in kinds(ev)
    # no chaining: the free dog grants nothing
    assert "free-dog" not in {d.kind for d in g.pending(t2).values()}
    # declining
    t3, ev = act(t, "-")
    assert t3.phase == "turn" and "free-dog-declined" in kinds(ev)
    # the decision comes even without a second dog in hand (nothing leaks)
    s = near([], hands=["Cabot à Couteau,Serf", ""])
    t, _ = act(s, "+", "Cabot à Couteau@D11", "Cabot à Couteau G11P")
    assert t.phase == "free-dog" and legal(t) == {"-"}
    # an ambushed dog grants nothing
    s = near([], hands=["Cabot à Couteau,Molosse Masqué", ""])
    t, _ = act(s, "+", "?Cabot à Couteau@D11", "?Cabot à Couteau G11P")
    assert t.phase == "turn"


def test_option_dog_chain() -> None:
    """Option ``dog_chain=true`` (V16 alternative): the free dog grants another."""
    opts = "width=40 height=24 castle_gap=30 inns=0 outposts=0 dog_chain=true"
    s = near([], hands=["Cabot à Couteau,Molosse Masqué,Cabot à Couteau", ""], opts=opts)
    t, _ = act(s, "+", "Cabot à Couteau@D11", "Cabot à Couteau G11P")
    t, _ = act(t, "Molosse Masqué@G11", "Molosse Masqué J11P")
    assert t.phase == "free-dog"
    t, _ = act(t, "Cabot à Couteau@G11", "Cabot à Couteau G15P")
    assert t.pa == 4 and len(t.units) == 3


def test_espion_se_pose_dans_les_rangs_adverses() -> None:
    """« Espion : L'espion est à poser dans les rangs de l'armée adverse. Il doit être au
    contact d'au moins une carte ennemie pour être invoqué. »; V17: it needs no anchor
    and no supply."""
    s = scenario(
        ["1:Roturier@AA11P"],
        castles=["D11P", "AD11P"],
        hands=["Espion", ""],
    )
    t, _ = act(s, "+")
    assert {a for a in legal(t) if a.startswith("Espion@")} == {"Espion@AA11", "Espion@AD11"}
    t, ev = act(t, "Espion@AA11", "Espion X11P")
    assert t.pa == 1 and "spy" in kinds(ev)
    # not linked to its castle, yet it stays (exempt from supply)
    t = evolve(t, pa=1)
    t, _ = act(t, "D")
    assert "X11P" in tags(t, 0)
    v = g.view(t, 1)
    assert [u.supplied for u in v.units if u.tag == "X11"] == [True]


def test_espion_au_contact_d_un_chateau_ennemi() -> None:
    """« Il doit être au contact d'au moins une carte ennemie pour être invoqué. »: an enemy
    castle is an enemy card, as for summoning (option ``spy_contact=unit``, ruling V17:
    only an enemy unit will do)."""
    s = scenario([], castles=["D11P", "AD11P"], hands=["Espion", ""])
    t, _ = act(s, "+")
    assert {a for a in legal(t) if a.startswith("Espion@")} == {"Espion@AD11"}
    t, ev = act(t, "Espion@AD11", "Espion AA11P")
    assert "spy" in kinds(ev) and "AA11P" in tags(t, 0)
    opts = "width=40 height=24 castle_gap=30 inns=0 outposts=0 spy_contact=unit"
    s = scenario([], castles=["D11P", "AD11P"], hands=["Espion", ""], opts=opts)
    assert not any(a.startswith("Espion") for a in map(g.format_action, g.complete_actions(s, 0)))
    # placed along an anchor (option spy_placement=supplied): the castle still counts
    opts = "width=40 height=24 castle_gap=30 inns=0 outposts=0 spy_placement=supplied"
    t, _ = act(near(["0:Serf@G11P"], hands=["Espion", ""], opts=opts), "+")
    assert "Espion@G11" in legal(t)
    t, _ = act(t, "Espion@G11")
    assert "Espion J11P" in legal(t)
    t, _ = act(near(["0:Serf@G11P"], hands=["Espion", ""], opts=opts + " spy_contact=unit"), "+")
    assert "Espion@G11" not in legal(t)


def test_espion_reduit_a_zero_les_scores_de_base_des_cartes_touchees() -> None:
    """« Il réduit à 0 les scores de base d'ATK et de DEF des cartes adverses qu'il touche
    (les bonus s'ajoutent par dessus ce score de 0 néanmoins). »"""
    s = scenario(
        ["0:Espion@X11P", "1:Paladin@AA11P", "1:Barde@AA15P"],
        castles=["D11P", "AD11P"],
        active=0,
    )
    v = {u.tag: u for u in g.view(s, None).units}
    assert (v["AA11"].atk, v["AA11"].dfn) == (1, 1)  # 0/0 + the Barde's +1/+1
    assert v["AA11"].spied and not v["AA15"].spied
    # the Espion (ATK 0) attacks: 0 against 1
    _t, ev = act(s, "X11xAA11")
    assert first(ev, "attack").data["result"] == "lose" and "spied" in kinds(ev)


def test_option_spy_placement_supplied() -> None:
    """Option ``spy_placement=supplied`` (V17 alternative): the Espion is placed along an
    anchor like any card, must touch an enemy, and needs supply."""
    opts = "width=40 height=24 castle_gap=30 inns=0 outposts=0 spy_placement=supplied"
    s = near(["0:Roturier@G11P", "1:Archer@J15P"], hands=["Espion", ""], opts=opts)
    t, _ = act(s, "+")
    spy = {a for a in legal(t) if a.startswith("Espion@")}
    assert spy and all(a.split("@")[1] in ("D11", "G11") for a in spy)
    t, _ = act(t, sorted(spy)[0])
    for spot in legal(t):
        assert rect_touch(rect_of(spot.split()[1]), rect_of("J15P")) or rect_touch(
            rect_of(spot.split()[1]), rect_of("M11P")
        ), spot


# ===========================================================================
# Rapatriement, déplacement
# ===========================================================================


def test_rapatriement_un_pa_face_visible_reinvoquer_au_cout_normal() -> None:
    """« Rapatriement (1 Point d'Action) : Vous pouvez reprendre une de vos cartes en jeu
    face visible dans votre main. Vous devrez la réinvoquer au coût normal. »; V19:
    face-up cards only."""
    s = near(["0:Paladin@G11P", "0:?Serf@D15L"])
    t, _ = act(s, ">")
    assert "<G11" in legal(t) and "<D15" not in legal(t)
    t, ev = act(t, "<G11")
    assert t.pa == 4 and t.players[0].hand == ("Paladin",) and "G11P" not in tags(t)
    assert first(ev, "recall").data == {"seat": 0, "card": "Paladin", "tag": "G11"}
    assert t.players[0].known == (("Paladin", 1),)
    t, _ = act(t, "+", "Paladin@D11", "Paladin G11P")
    assert t.pa == 0 or t.active == 1


def test_option_recall_face_down() -> None:
    """Option ``recall_face_down=true`` (V19 alternative): face-down cards too; the card
    stays secret."""
    opts = "width=40 height=24 castle_gap=30 inns=0 outposts=0 recall_face_down=true"
    s = near(["0:?Serf@G11P"], opts=opts)
    t, ev = act(s, ">", "<G11")
    e = first(ev, "recall")
    assert e.to == frozenset({0}) and e.for_seat(1).data == {"seat": 0, "card": None, "tag": "G11"}
    assert t.players[0].known == ()


def test_v7_un_rapatriement_qui_couperait_une_colonne_est_interdit() -> None:
    """V7: « A Move or Recall that would cut off another friendly card is illegal »
    (option ``self_cut=true``: allowed, the cut cards go back to hand for free)."""
    s = near(["0:Roturier@G11P", "0:Serf@J15P", "0:Serf@G15P"])
    t, _ = act(s, ">")
    assert "<G15" not in legal(t) and "<G11" not in legal(t) and "<J15" in legal(t)
    with pytest.raises(IllegalAction) as exc:
        g.apply(s, 0, Recall(6, 14))
    assert "cut" in en(exc.value)
    opts = "width=40 height=24 castle_gap=30 inns=0 outposts=0 self_cut=true"
    s = near(["0:Roturier@G11P", "0:Serf@J15P", "0:Serf@G15P"], opts=opts, hands=["", ""])
    t, ev = act(s, ">", "<G15")
    assert sorted(t.players[0].hand) == ["Serf", "Serf"]
    assert first(ev, "cut-off").data["tags"] == ["J15"] and t.pa == 4


def test_v8_option_move_path_slide() -> None:
    """« Vous pouvez déplacer une de vos cartes déjà invoquée n'importe où le long d'une
    des cartes lui étant adjacente. »; V8: the path is not checked (option
    ``move_path=slide``: the card slides along the pivot, one cell or a quarter turn at a
    time, through free places touching it, so it cannot jump over the cards around)."""
    units = ["0:Barde@G11P", "0:Cabot à Couteau@G15P"]
    kw = {"castles": ["D11P", "J11P"]}  # both sides of the Barde are taken
    t, _ = act(near(units, **kw), ">", "G15@G11")  # type: ignore[arg-type]
    free = {a.split(">")[1] for a in legal(t)}
    assert {"G7P", "F8L", "H15P", "E15P", "G15L"} <= free
    opts = "width=40 height=24 castle_gap=30 inns=0 outposts=0 move_path=slide"
    t, _ = act(near(units, opts=opts, **kw), ">", "G15@G11")  # type: ignore[arg-type]
    slide = {a.split(">")[1] for a in legal(t)}
    assert {"H15P", "E15P", "G15L"} <= slide and slide < free
    assert not any(int(p[1:-1]) < 11 for p in slide)  # nothing above the Barde
    # with the right side free, it goes round the corner
    t, _ = act(near(units, opts=opts), ">", "G15@G11")
    assert "G15>G7P" in legal(t)


def test_deplacement_du_cabot_autour_du_barde() -> None:
    """« Déplacement (1 Point d'Action) : Vous pouvez déplacer une de vos cartes déjà
    invoquée n'importe où le long d'une des cartes lui étant adjacente. » — « Déplacements
    possibles du Cabot autour du Barde (pour 1 Point d'Action) »: every free place along
    the Barde, standing or lying."""
    s = near(["0:Barde@G11P", "0:Cabot à Couteau@G15P"])
    t, _ = act(s, ">")
    assert "G15@G11" in legal(t)
    t, _ = act(t, "G15@G11")
    got = {a.split(">")[1] for a in legal(t)}
    # independent computation: every footprint along the Barde, free of the castle
    expected = set()
    barde = rect_of("G11P")
    castle = rect_of("D11P")
    red = rect_of("M11P")
    for land in (False, True):
        w, h = (4, 3) if land else (3, 4)
        for x in range(0, 40 - w + 1):
            for y in range(0, 24 - h + 1):
                r = (x, y, w, h)
                if not rect_touch(r, barde):
                    continue
                if any(
                    x < ox + ow and ox < x + w and y < oy + oh and oy < y + h
                    for ox, oy, ow, oh in (castle, red, barde)
                ):
                    continue
                spec = cell_text(x, y) + ("L" if land else "P")
                if spec != "G15P":
                    expected.add(spec)
    assert got == expected and len(got) >= 20
    t2, ev = act(t, "G15>G8L")
    assert t2.pa == 4 and "G8L" in tags(t2) and "G15P" not in tags(t2)
    assert first(ev, "move").data == {
        "seat": 0,
        "card": "Cabot à Couteau",
        "from": "G15",
        "tag": "G8",
        "orient": "L",
    }


def test_v8_pivot_ennemi_ou_terrain_tourner_sur_place_et_ravitaillement() -> None:
    """V8: the pivot may be any card touching the mover (friendly, enemy or terrain);
    rotating in place counts; the path is not checked; the moved card must stay linked
    (V7)."""
    s = near(V8_UNITS, terrain_cards=["inn@G15P=0"])
    t, _ = act(s, ">")
    pivots = {a for a in legal(t) if "@" in a}
    assert {"G11@D11", "G11@J11", "G11@G15", "D15@D11", "D15@G15"} <= pivots
    t, _ = act(s, ">", "D15@D11")
    assert "D15>C15L" in legal(t)  # turned, overlapping its old place
    t, _ = act(s, ">", "G11@J11")
    for move in legal(t):  # along the enemy Archer, linked to the castle or the Serf
        spec = rect_of(move.split(">")[1])
        assert rect_touch(spec, rect_of("J11P"))
        assert rect_touch(spec, rect_of("D11P")) or rect_touch(spec, rect_of("D15P"))
    t, _ = act(s, ">", "D15@G15")
    for move in legal(t):  # along the inn: the inn relays nothing
        spec = rect_of(move.split(">")[1])
        assert rect_touch(spec, rect_of("D11P")) or rect_touch(spec, rect_of("G11P")), move


V8_UNITS = ["0:Roturier@G11P", "0:Serf@D15P", "1:Archer@J11P"]


def test_option_move_pivot_rotate_engaged() -> None:
    """Options ``move_pivot=friendly``, ``rotate_in_place=false``, ``engaged_may_move=false``
    (V8 alternatives)."""
    base_opts = "width=40 height=24 castle_gap=30 inns=0 outposts=0"
    kw = {"terrain_cards": ["inn@G15P=0"]}
    t, _ = act(near(V8_UNITS, opts=base_opts + " move_pivot=friendly", **kw), ">")
    assert "G11@J11" not in legal(t) and "G11@G15" not in legal(t) and "D15@D11" in legal(t)
    t, _ = act(near(V8_UNITS, opts=base_opts + " rotate_in_place=false", **kw), ">", "D15@D11")
    assert legal(t) and "D15>C15L" not in legal(t)
    for move in legal(t):
        assert not rect_of(move.split(">")[1])[0] < 6 or True
        x, y, w, h = rect_of(move.split(">")[1])
        assert not (x < 6 and x + w > 3 and y < 18 and y + h > 14), move
    t, _ = act(near(V8_UNITS, opts=base_opts + " engaged_may_move=false", **kw), ">")
    assert not any(a.startswith("G11@") for a in legal(t)) and "D15@D11" in legal(t)


# ===========================================================================
# Attaque
# ===========================================================================


def test_exemple_roturier_contre_archer() -> None:
    """« Situation simple d'attaque. L'ATK du Roturier étant supérieure à la DEF de
    l'Archer (2>1) la carte attaquée meurt. Cela coûte 1 Point d'Action au joueur
    bleu. »"""
    s = near(["0:Roturier@G11P", "1:Archer@J11P"])
    t, _ = act(s, "x")
    assert legal(t) == {"G11xJ11"}
    t, ev = act(t, "G11xJ11")
    assert t.pa == 4
    e = first(ev, "attack")
    assert (e.data["atk"], e.data["def"], e.data["result"]) == (2, 1, "win")
    assert "J11P" not in tags(t) and t.players[1].discard == ("Archer",)
    assert "G11P" in tags(t)


def test_exemple_attaque_conjointe_1_plus_1_plus_2_egale_2_plus_2() -> None:
    """« Deux cartes attaquent ensemble, on somme donc leur score. A cela s'ajoute le
    bonus du Barde qui offre +1 ATK au Clerc qui lui est adjacente. Mais le Paladin
    attaqué bénéficie lui du bonus du médecin lui ajoutant +2 DEF. Ainsi les deux camps
    sont à égalité (1+1+2 = 2+2) et donc les cartes attaquantes comme attaquées sont
    tuées. Les cartes de soutien ne sont pas directement engagées dans le combat et
    restent donc. »"""
    s = near(["0:Clerc@G11P", "0:Roturier@G8L", "0:Barde@D15L", "1:Paladin@J11P", "1:Médecin@K15L"])
    v = {u.tag: u for u in g.view(s, None).units}
    assert (v["G11"].atk, v["G8"].atk, v["J11"].dfn) == (2, 2, 4)
    t, ev = act(s, "x", "G8+G11xJ11")
    e = first(ev, "attack")
    assert (e.data["atk"], e.data["def"], e.data["result"]) == (4, 4, "tie")
    assert {d["card"] for d in e.data["dead"]} == {"Clerc", "Roturier", "Paladin"}
    assert tags(t) == {"D15L", "K15L"}  # the Barde and the Médecin stay
    assert t.pa == 3
    assert {"bard-bonus", "medic-bonus"} <= set(kinds(ev))
    assert sorted(t.players[0].discard) == ["Clerc", "Roturier"]
    assert t.players[1].discard == ("Paladin",)


def test_attaque_perdue_les_attaquants_meurent() -> None:
    """« Si le total des scores d'ATK est plus faible que le total de la DEF, c'est votre
    carte (ou vos cartes) qui meurt et est déposée dans votre Fosse Commune. »"""
    s = near(["0:Serf@G11P", "1:Clerc@J11P"])
    t, ev = act(s, "x", "G11xJ11")
    assert first(ev, "attack").data["result"] == "lose"
    assert t.players[0].discard == ("Serf",) and "J11P" in tags(t)


def test_v9_attaques_illimitees_et_option_attack_cap() -> None:
    """V9: a card may attack several times a turn, 1 PA each (option ``attack_cap``)."""
    s = near(["0:Paladin@G11P", "1:Serf@J11P", "1:Serf@G8L"])
    t, _ = act(s, "x", "G11xG8")
    t, _ = act(t, "x", "G11xJ11")
    assert t.pa == 3 and tags(t, 1) == set()
    opts = "width=40 height=24 castle_gap=30 inns=0 outposts=0 attack_cap=1"
    s = near(["0:Paladin@G11P", "1:Serf@J11P", "1:Serf@G8L"], opts=opts)
    t, _ = act(s, "x", "G11xJ11")
    assert "x" not in legal(t)


def test_v9_les_cartes_face_cachee_n_attaquent_pas_et_il_faut_toucher() -> None:
    """V9: face-down cards cannot attack; attackers must touch the target."""
    s = near(["0:?Paladin@G11P", "0:Roturier@G15P", "1:Archer@J11P"])
    assert "x" not in legal(s)
    with pytest.raises(IllegalAction):
        g.apply(s, 0, Attack(((6, 10),), (9, 10)))


def test_v9_option_face_down_attack() -> None:
    """« Si vous invoquez votre carte en embuscade, aucun bonus ne s'applique sur elle, et
    ses Points d'Attaque (ATK) et de Défense (DEF) descendent à 0. »: the seed does not
    forbid a face-down card to attack; V9 does (option ``face_down_attack=true``: it
    attacks with ATK 0 and stays face down)."""
    units = ["0:?Paladin@G11P", "1:?Serf@J11P", "1:Roturier@G15P"]
    s = near(units)
    assert "x" not in legal(s)
    opts = "width=40 height=24 castle_gap=30 inns=0 outposts=0 face_down_attack=true"
    s = near(units, opts=opts)
    t, _ = act(s, "x")
    assert legal(t) >= {"G11xJ11", "G11xG15"}
    t, ev = act(t, "G11xJ11")  # 0 against a face-down 0: a tie, both die
    e = first(ev, "attack")
    assert (e.data["atk"], e.data["def"], e.data["result"]) == (0, 0, "tie")
    t, ev = act(near(units, opts=opts), "x", "G11xG15")  # 0 against 2
    assert first(ev, "attack").data["result"] == "lose" and "ambush-revealed" not in kinds(ev)


def test_v12_option_face_down_aura() -> None:
    """« Certaines cartes possèdent un effet spécial qui s'active lors de leur invocation
    ou perdure tant qu'elles sont sur le terrain. »; V12: face-down cards give no aura
    (option ``face_down_aura=true``: they do, secretly: views leave the bonus out, the
    combat counts it). « Si vous invoquez votre carte en embuscade, aucun bonus ne
    s'applique sur elle »: they still receive none."""
    units = ["0:Roturier@G11P", "0:?Écuyer@G15P", "1:Clerc@J11P"]
    _t, ev = act(near(units), "x", "G11xJ11")
    assert first(ev, "attack").data["atk"] == 2
    opts = "width=40 height=24 castle_gap=30 inns=0 outposts=0 face_down_aura=true"
    s = near(units, opts=opts)
    for seat in (0, 1, None):
        assert [u.atk for u in g.view(s, seat).units if u.tag == "G11"] == [2]
    _t, ev = act(s, "x", "G11xJ11")
    e = first(ev, "attack")
    assert (e.data["atk"], e.data["result"]) == (4, "win") and "squire-bonus" in kinds(ev)
    # a face-down card next to a face-down Écuyer gets nothing
    opts += " face_down_attack=true"
    s = near(["0:?Roturier@G11P", "0:?Écuyer@G15P", "1:Clerc@J11P"], opts=opts)
    _t, ev = act(s, "x", "G11xJ11")
    assert first(ev, "attack").data["atk"] == 0


def test_embuscade_attaquee_directement_zero_en_defense() -> None:
    """« En revanche, si la carte en embuscade est directement attaquée, elle a 0 Point de
    Défense, et est donc à la merci de n'importe quelle carte adverse. »; V14: an ATK-0
    attacker ties and both die."""
    s = near(["0:Roturier@G11P", "1:?Paladin@J11P"])
    t, ev = act(s, "x", "G11xJ11")
    e = first(ev, "attack")
    assert (e.data["def"], e.data["result"]) == (0, "win")
    assert e.data["dead"] == [{"seat": 1, "card": "Paladin", "tag": "J11"}]
    s = near(["0:Serf@G11P", "1:?Paladin@J11P"])
    t, ev = act(s, "x", "G11xJ11")
    assert first(ev, "attack").data["result"] == "tie" and not t.units


def test_exemple_embuscade_revelee_contre_le_bailli() -> None:
    """« Le Roturier est attaqué. La carte en embuscade est alors retournée et ses scores
    de DEF sont utilisés pour le calcul. Ici ils dépassent l'ATK du Bailli et c'est donc
    ce dernier qui meurt. »"""
    s = near(["0:Roturier@G11P", "0:?Clerc@D15L", "1:Bailli@J11P"], active=1)
    t, ev = act(s, "x", "J11xG11")
    assert kinds(ev)[:2] == ["ambush-revealed", "attack"]
    assert first(ev, "ambush-revealed").data == {
        "seat": 0,
        "card": "Clerc",
        "tag": "D15",
        "target": "G11",
    }
    e = first(ev, "attack")
    assert (e.data["atk"], e.data["def"], e.data["result"]) == (2, 3, "lose")
    assert tags(t) == {"G11P", "D15L"}
    clerc = unit_at(t, "D15")
    assert clerc is not None and clerc.face_up  # « face visible pour le reste de la partie »
    v = {u.tag: u for u in g.view(t, None).units}
    assert (v["G11"].dfn, v["D15"].dfn) == (2, 3)  # only for that combat


def test_exemple_embuscade_si_l_atk_avait_ete_superieure() -> None:
    """« Cependant si le score d'ATK avait été supérieur, c'est bien la carte attaquée
    d'origine (ici le Roturier) qui meurt et non la carte précédemment en embuscade. »"""
    s = near(["0:Roturier@G11P", "0:?Clerc@D15L", "1:Paladin@J11P"], active=1)
    t, ev = act(s, "x", "J11xG11")
    e = first(ev, "attack")
    assert (e.data["atk"], e.data["def"], e.data["result"]) == (4, 3, "win")
    assert e.data["dead"] == [{"seat": 0, "card": "Roturier", "tag": "G11"}]
    clerc = unit_at(t, "D15")
    assert clerc is not None and clerc.face_up


def test_v13_plusieurs_embuscades_le_defenseur_choisit() -> None:
    """V13: the reveal is mandatory; with several qualifying cards the defender picks
    (option ``reveal_choice=highest-def``: the highest printed DEF is revealed)."""
    units = ["0:Roturier@G11P", "0:?Serf@D15L", "0:?Clerc@G7P", "1:Bailli@J11P"]
    s = near(units, active=1)
    t, ev = act(s, "x", "J11xG11")
    assert t.phase == "reveal" and list(g.pending(t)) == [0]
    assert g.pending(t)[0].kind == "reveal" and legal(t, 0) == {"!D15", "!G7"}
    assert g.legal_actions(t, 1) == []
    with pytest.raises(NotYourTurn):
        g.apply(t, 1, Reveal(3, 14))
    t2, ev = act(t, "!D15")  # the Serf: DEF 2 = ATK 2, a tie
    assert first(ev, "attack").data["result"] == "tie"
    assert t2.active == 1 and t2.phase == "turn"
    opts = "width=40 height=24 castle_gap=30 inns=0 outposts=0 reveal_choice=highest-def"
    s = near(units, active=1, opts=opts)
    t, ev = act(s, "x", "J11xG11")
    assert first(ev, "ambush-revealed").data["card"] == "Clerc"


def test_v13_option_reveal_keeps_bonuses() -> None:
    """V13: the revealed card's printed values replace the attacked card's base; the
    attacked card keeps its bonuses (option ``reveal_keeps_bonuses=false``: it does not)."""
    units = ["0:Roturier@G11P", "0:?Serf@D15L", "0:Médecin@G7P", "1:Paladin@J11P"]
    _, ev = act(near(units, active=1), "x", "J11xG11")
    assert first(ev, "attack").data["def"] == 4  # Serf 2 + Médecin 2
    opts = "width=40 height=24 castle_gap=30 inns=0 outposts=0 reveal_keeps_bonuses=false"
    _t, ev = act(near(units, active=1, opts=opts), "x", "J11xG11")
    assert first(ev, "attack").data["def"] == 2


def test_embuscade_revelee_son_aura_compte_dans_le_combat() -> None:
    """« La carte précédemment en embuscade est désormais face visible pour le reste de la
    partie. » and « Médecin : Offre un bonus de +2 DEF à toutes les cartes alliées
    adjacentes. »: a revealed Médecin is face up at once, so its aura counts in the very
    combat that revealed it (option ``reveal_aura=later``: only from then on)."""
    units = ["0:Roturier@G11P", "0:?Médecin@D15L", "1:Paladin@J11P"]
    t, ev = act(near(units, active=1), "x", "J11xG11")
    e = first(ev, "attack")
    assert (e.data["atk"], e.data["def"], e.data["result"]) == (4, 4, "tie")  # 2 + 2
    assert "medic-bonus" in kinds(ev) and tags(t) == {"D15L"}
    opts = "width=40 height=24 castle_gap=30 inns=0 outposts=0 reveal_aura=later"
    t, ev = act(near(units, active=1, opts=opts), "x", "J11xG11")
    e = first(ev, "attack")
    assert (e.data["atk"], e.data["def"], e.data["result"]) == (4, 2, "win")
    assert tags(t) == {"D15L", "J11P"}
    # in a siege, a revealed Médecin strengthens the holder it touches
    units = ["0:Paladin@G11P", "1:Serf@M11P", "1:?Médecin@J15L"]
    kw = {"castles": ["D11P", "P11P"], "terrain_cards": ["inn@J11P=1"]}
    _t, ev = act(scenario(units, **kw), "x", "G11xJ11")  # type: ignore[arg-type]
    assert first(ev, "attack").data["def"] == 6  # Serf 2 + 2, Médecin 2


def test_colonnes_coupees_retour_en_main_sans_cout_exemple_du_serf() -> None:
    """« Si une carte du plateau est tuée et défaussée, toutes les cartes n'étant
    désormais plus reliées au Château ou à un Avant-Poste contrôlé sont rapatriées dans la
    main du joueur, sans coût de Points d'Action pour la victime. » — « Le Serf vient
    d'être tué, toutes les cartes à sa droite ne sont plus reliées au château et sont
    rapatriées dans la main du joueur. »"""
    s = scenario(
        ["0:Serf@G11P", "0:Roturier@J11P", "0:Archer@M11P", "1:Paladin@G8L"],
        castles=["D11P", "G5L"],
        active=1,
        hands=["", ""],
    )
    t, ev = act(s, "x", "G8xG11")
    assert kinds(ev)[:2] == ["attack", "cut-off"]
    cut = first(ev, "cut-off")
    assert cut.data == {"seat": 0, "tags": ["J11", "M11"], "cards": ["Roturier", "Archer"]}
    assert cut.to is None
    assert sorted(t.players[0].hand) == ["Archer", "Roturier"]
    assert tags(t, 0) == set() and t.players[0].discard == ("Serf",)
    assert t.pa == 4 and t.active == 1
    assert sorted(t.players[0].known) == [("Archer", 1), ("Roturier", 1)]


# ===========================================================================
# Terrain: castle, inn, outpost, control, siege
# ===========================================================================


def test_v6_ravitaillement_par_des_cartes_alliees_face_visible_ou_cachee() -> None:
    """V6: supply is an edge-contact chain of your own units (face up or down) back to
    the castle or a controlled outpost; inns do not relay (option ``inn_relays=true``:
    a controlled inn does)."""
    s = near(["0:?Serf@G11P", "0:Roturier@G15L"])
    assert all(u.supplied for u in g.view(s, None).units)
    units = ["0:Roturier@G11P", "0:Serf@G19P"]
    s = near(units, terrain_cards=["inn@G15P=0"])
    assert {u.tag: u.supplied for u in g.view(s, None).units} == {"G11": True, "G19": False}
    opts = "width=40 height=24 castle_gap=30 inns=0 outposts=0 inn_relays=true"
    s = near(units, terrain_cards=["inn@G15P=0"], opts=opts)
    assert all(u.supplied for u in g.view(s, None).units)


def test_chateau_zero_zero_et_conquete() -> None:
    """« Chaque château a 0 d'ATK et 0 de DEF. Pour conquérir un Château adverse et
    remporter la partie, il faut vaincre sa carte en l'attaquant. Le combat est alors
    calculé comme pour n'importe quelle carte. »"""
    s = near(["0:Roturier@J11P"])
    assert g.view(s, None).castles[1].dfn == 0
    t, ev = act(s, "x", "J11xM11")
    assert kinds(ev)[:3] == ["attack", "conquest", "eliminated"]
    assert t.phase == "over" and g.outcome(t) is not None
    assert g.outcome(t).ranking == ((0,), (1,)) and g.outcome(t).reason == "conquest"
    assert g.pending(t) == {} and g.legal_actions(t, 0) == []
    assert first(ev, "game-over").data == {"reason": "conquest", "ranking": [[0], [1]]}


def test_chateau_renforce_par_medecin_barde_ou_embuscade() -> None:
    """« De base, les châteaux ont 0 en DEF mais ils peuvent être renforcés par les effets
    spéciaux d'un Médecin ou d'un Barde, ou par une carte en embuscade. »"""
    opts = "width=40 height=24 castle_gap=30 inns=0 outposts=0 castle_tie=holds"
    s = near(["0:Roturier@J11P", "1:Médecin@P11P"], opts=opts)
    assert g.view(s, None).castles[1].dfn == 2
    t, ev = act(s, "x", "J11xM11")
    assert first(ev, "attack").data["result"] == "tie" and t.phase != "over"
    assert "J11P" not in tags(t)
    s = near(["0:Roturier@J11P", "1:Barde@P11P"])
    assert g.view(s, None).castles[1].dfn == 1
    s = near(["0:Roturier@J11P", "1:?Clerc@P11P"])
    t, ev = act(s, "x", "J11xM11")
    assert "ambush-revealed" in kinds(ev) and first(ev, "attack").data["def"] == 3


def test_chateau_egalite_calculee_comme_pour_n_importe_quelle_carte() -> None:
    """« Pour conquérir un Château adverse et remporter la partie, il faut vaincre sa carte
    en l'attaquant. Le combat est alors calculé comme pour n'importe quelle carte. » and
    « Si les deux sont égaux, toutes les cartes impliquées dans l'attaque meurent. »: on a
    tie the castle falls and the attackers die (default ``castle_tie=falls``; ruling V11,
    the castle holds, is the option ``castle_tie=holds``)."""
    s = near(["0:Roturier@J11P", "1:Médecin@P11P"])
    t, ev = act(s, "x", "J11xM11")
    attack = first(ev, "attack").data
    assert attack["result"] == "tie" and [d["card"] for d in attack["dead"]] == ["Roturier"]
    assert t.phase == "over" and "conquest" in kinds(ev) and g.outcome(t).ranking[0] == (0,)
    # an ATK-0 Serf against an undefended castle: 0 = 0, a tie, the castle falls
    t, ev = act(near(["0:Serf@J11P"]), "x", "J11xM11")
    assert t.phase == "over" and first(ev, "attack").data["result"] == "tie"
    opts = "width=40 height=24 castle_gap=30 inns=0 outposts=0 castle_tie=holds"
    t, ev = act(near(["0:Serf@J11P"], opts=opts), "x", "J11xM11")
    assert t.phase != "over" and "J11P" not in tags(t)


def test_terrain_revele_au_premier_contact_et_controle() -> None:
    """« Si aucun joueur ne contrôle une carte de terrain, le premier à l'atteindre via
    une de ses cartes gagne son contrôle. »; V2/V20: revealed on first contact."""
    s = near([], hands=["Serf", ""], terrain_cards=["?outpost@G15P"])
    t, ev = act(s, "+", "Serf@D11", "Serf G11P")
    assert kinds(ev)[1:3] == ["terrain-revealed", "control"]
    assert t.terrain[0].revealed and t.terrain[0].controller == 0
    assert first(ev, "terrain-revealed").data == {"tag": "G15", "kind": "outpost"}


def test_auberge_un_pa_des_le_tour_du_controle() -> None:
    """« L'Auberge ... Si vous la contrôlez, vous gagnez 1 PA par tour (valable dès le
    tour où vous en gagnez le contrôle). »"""
    s = near([], hands=["Serf", ""], terrain_cards=["?inn@G15P"])
    t, ev = act(s, "+", "Serf@D11", "Serf G11P")
    assert t.pa == 5 and "inn-bonus" in kinds(ev)  # 5 - 1 + 1


def test_avant_poste_seconde_base() -> None:
    """« L'Avant-poste est une seconde base pour votre armée. Une fois contrôlé, vous
    pouvez invoquer de nouvelles cartes partant de l'Avant-Poste ou d'une colonne reliée
    à l'Avant-Poste sans qu'elles soient reliées à votre Château. »"""
    s = scenario(
        ["0:Serf@V11P"],
        castles=["D11P", "AK11P"],
        terrain_cards=["outpost@S11P=0"],
        hands=["Serf", ""],
    )
    t, _ = act(s, "D")
    assert "V11P" in tags(t)  # linked to the outpost only: supplied
    t, _ = act(s, "+")
    anchors = {a.split("@")[1] for a in legal(t)}
    assert {"D11", "S11", "V11"} <= anchors


def test_siege_exemple_de_l_auberge() -> None:
    """« L'Auberge est attaquée par le joueur bleu. La somme d'ATK de ses deux cartes
    attaquantes dépasse celle de DEF de la seule carte rouge touchant l'Auberge. La carte
    terrain est donc capturée mais aucune carte n'est défaussée. Le joueur bleu obtient
    immédiatement 1 Point d'Action supplémentaire. »"""
    s = scenario(
        ["0:Roturier@G11P", "0:Archer@G15L", "1:Roturier@M11P"],
        castles=["D11P", "P11P"],
        terrain_cards=["inn@J11P=1"],
    )
    t, _ = act(s, "x")
    assert "G11+G15xJ11" in legal(t)
    t, ev = act(t, "G11+G15xJ11")
    e = first(ev, "attack")
    assert (e.data["atk"], e.data["def"], e.data["dead"]) == (4, 2, [])
    assert first(ev, "siege").data["success"] is True
    assert t.terrain[0].controller == 0 and t.pa == 4
    assert len(t.units) == 3


def test_siege_se_deroule_comme_une_attaque_echec() -> None:
    """« Un Siège se déroule comme une attaque normale. Le joueur le déclenchant désigne
    les cartes avec lesquelles il attaque, dépensant alors 1 PA par carte »; V20: a failed
    or tied siege kills the attackers, never the defenders (option
    ``siege_failure=no-loss``)."""
    units = ["0:Serf@G11P", "1:Roturier@M11P"]
    s = scenario(units, castles=["D11P", "P11P"], terrain_cards=["inn@J11P=1"])
    t, ev = act(s, "x", "G11xJ11")
    assert first(ev, "siege").data["success"] is False
    assert t.players[0].discard == ("Serf",) and "M11P" in tags(t)
    opts = "width=40 height=24 castle_gap=30 inns=0 outposts=0 siege_failure=no-loss"
    s = scenario(units, castles=["D11P", "P11P"], terrain_cards=["inn@J11P=1"], opts=opts)
    t, ev = act(s, "x", "G11xJ11")
    assert "G11P" in tags(t) and t.terrain[0].controller == 1


def test_siege_comme_une_attaque_normale_revele_les_embuscades() -> None:
    """« Un Siège se déroule comme une attaque normale. » and « Si une de vos cartes,
    adjacente à une carte placée en embuscade, est attaquée, retournez votre carte placée
    en embuscade. »: the holder's face-down cards touching the besieged terrain are turned
    face up and count their DEF (option ``siege_ambush=hidden``: they stay hidden and
    count 0)."""
    units = ["0:Paladin@G11P", "1:Serf@M11P", "1:?Clerc@J15L"]
    kw = {"castles": ["D11P", "P11P"], "terrain_cards": ["inn@J11P=1"]}
    t, ev = act(scenario(units, **kw), "x", "G11xJ11")  # type: ignore[arg-type]
    assert first(ev, "ambush-revealed").data == {
        "seat": 1,
        "card": "Clerc",
        "tag": "J15",
        "target": "J11",
    }
    e = first(ev, "attack")
    assert (e.data["atk"], e.data["def"], e.data["result"]) == (4, 5, "lose")  # Serf 2 + Clerc 3
    assert first(ev, "siege").data["success"] is False and t.terrain[0].controller == 1
    clerc = unit_at(t, "J15")
    assert clerc is not None and clerc.face_up and "G11P" not in tags(t)
    opts = "width=40 height=24 castle_gap=30 inns=0 outposts=0 siege_ambush=hidden"
    t, ev = act(scenario(units, opts=opts, **kw), "x", "G11xJ11")  # type: ignore[arg-type]
    assert "ambush-revealed" not in kinds(ev) and first(ev, "attack").data["def"] == 2
    assert t.terrain[0].controller == 0
    clerc = unit_at(t, "J15")
    assert clerc is not None and not clerc.face_up


def test_siege_d_un_avant_poste_coupe_les_colonnes_adverses() -> None:
    """V7/V20: taking an outpost away cuts the columns that depended on it."""
    s = scenario(
        ["0:Paladin@P15L", "1:Serf@S11P"],
        castles=["D11P", "AK11P"],
        terrain_cards=["outpost@P11P=1"],
    )
    t, ev = act(s, "x", "P15xP11")
    assert t.terrain[0].controller == 0
    assert first(ev, "cut-off").data == {"seat": 1, "tags": ["S11"], "cards": ["Serf"]}


# ===========================================================================
# Cartes spéciales
# ===========================================================================


def test_ecuyer_plus_deux_atk_aux_allies_adjacents() -> None:
    """« Ecuyer : Offre un bonus de +2 ATK à toutes les cartes alliées adjacentes. »"""
    s = near(["0:Écuyer@G11P", "0:Serf@G15P", "0:Serf@J11P", "1:Serf@AA11P"])
    v = {u.tag: u for u in g.view(s, None).units}
    assert (v["G15"].atk, v["J11"].atk, v["G11"].atk) == (2, 2, 1)
    assert v["AA11"].atk == 0


def test_barde_plus_un_plus_un_et_medecin_plus_deux_def() -> None:
    """« Barde : Offre un bonus de +1 ATK et +1 DEF à toutes les cartes alliées
    adjacentes. » « Médecin : Offre un bonus de +2 DEF à toutes les cartes alliées
    adjacentes. »; V12: bonuses stack (option ``aura_stacking=false``: one per name)."""
    s = near(["0:Barde@G11P", "0:Médecin@G15P", "0:Serf@J13P", "0:Barde@J17P"])
    v = {u.tag: u for u in g.view(s, None).units}
    assert (v["J13"].atk, v["J13"].dfn) == (2, 6)  # 0+1+1 / 2+1+2+1
    assert g.view(s, None).castles[0].dfn == 1  # the Barde at G11 touches the castle
    opts = "width=40 height=24 castle_gap=30 inns=0 outposts=0 aura_stacking=false"
    s = near(["0:Barde@G11P", "0:Médecin@G15P", "0:Serf@J13P", "0:Barde@J17P"], opts=opts)
    v = {u.tag: u for u in g.view(s, None).units}
    assert (v["J13"].atk, v["J13"].dfn) == (1, 5)


def test_lancier_attaque_gratuitement_au_tour_de_son_invocation() -> None:
    """« Lancier : Au tour où il est invoqué ..., il attaque gratuitement. »; V15: one
    free attack that turn (option ``lancer_free=turn``: every attack that turn)."""
    lancer_units = ["0:Serf@G11P", "1:Serf@J15P", "1:Serf@G19P"]
    s = near(lancer_units, castles=["D11P", "J19P"], hands=["Lancier", ""])
    t, _ = act(s, "+", "Lancier@G11", "Lancier G15P")
    assert t.pa == 2
    t, ev = act(t, "x", "G15xJ15")
    assert t.pa == 2 and "lancer-free-attack" in kinds(ev)
    t, ev = act(t, "x", "G15xG19")  # the second attack is paid
    assert t.pa == 1 and "lancer-free-attack" not in kinds(ev)
    opts = "width=40 height=24 castle_gap=30 inns=0 outposts=0 lancer_free=turn"
    s = near(lancer_units, castles=["D11P", "J19P"], hands=["Lancier", ""], opts=opts)
    t, _ = act(s, "+", "Lancier@G11", "Lancier G15P")
    t, _ = act(t, "x", "G15xJ15")
    t, _ = act(t, "x", "G15xG19")
    assert t.pa == 2 and not tags(t, 1)


def test_lancier_invoque_avec_le_dernier_pa_garde_son_attaque_gratuite() -> None:
    """« Lancier : Au tour où il est invoqué ..., il attaque gratuitement. » and « Son tour
    ne s'achève que s'il a utilisé tous ses Points d'Action. »: a Lancier summoned with
    the last 3 PA still attacks for free; the turn waits for it (or for ``E``, since the
    free attack is not compulsory), then ends."""
    lancer_units = ["0:Serf@G11P", "1:Serf@J15P"]
    s = near(lancer_units, castles=["D11P", "J19P"], hands=["Lancier", ""], pa=3)
    t, _ = act(s, "+", "Lancier@G11", "Lancier G15P")
    assert t.active == 0 and t.pa == 0
    assert {"x", "E"} <= legal(t) and "D" not in legal(t)
    t, ev = act(t, "x", "G15xJ15")
    assert "lancer-free-attack" in kinds(ev) and "J15P" not in tags(t, 1)
    assert t.active == 1 and "turn" in kinds(ev)  # nothing left: the turn ends
    # declining the free attack ends the turn too, without a pa-lost event
    t, _ = act(s, "+", "Lancier@G11", "Lancier G15P")
    t, ev = act(t, "E")
    assert t.active == 1 and "pa-lost" not in kinds(ev) and "J15P" in tags(t, 1)
    # without a free attack, the last PA still ends the turn at once
    s = near(["0:Serf@G11P", "1:Serf@J15P"], castles=["D11P", "J19P"], hands=["Roturier", ""], pa=2)
    t, _ = act(s, "+", "Roturier@G11", "Roturier G15P")
    assert t.active == 1


def test_lancier_retourne_d_embuscade_attaque_gratuitement_au_tour_suivant() -> None:
    """« (ou si il a été retourné d'embuscade lors du tour de l'adversaire) »; V15: the
    free attack comes in its owner's next turn."""
    s = near(
        ["0:Roturier@G11P", "0:?Lancier@G15P", "1:Serf@J9P"], castles=["D11P", "J13P"], active=1
    )
    t, ev = act(s, "x", "J9xG11")
    assert first(ev, "ambush-revealed").data["card"] == "Lancier"
    lancier = unit_at(t, "G15")
    assert lancier is not None and lancier.face_up and lancier.free_attack
    t = evolve(t, pa=1)
    t, _ = act(t, "D")
    assert t.active == 0 and t.pa == 5
    t, ev = act(t, "x", "G15xJ13")
    assert "lancer-free-attack" in kinds(ev) and "conquest" in kinds(ev)


def test_archer_attaque_une_carte_touchee_par_un_allie_adjacent() -> None:
    """« Archer : Il peut attaquer une carte adverse si une carte alliée adjacente la
    touche. »; V10: if the attack fails, the Archer dies too."""
    s = near(["0:Archer@G11P", "0:Serf@G15P", "1:Serf@J15P"])
    t, _ = act(s, "x")
    assert "G11xJ15" in legal(t)
    t, ev = act(t, "G11xJ15")
    assert "archer-shot" in kinds(ev) and "J15P" not in tags(t)
    s = near(["0:Archer@G11P", "0:Serf@G15P", "1:Clerc@J15P"])
    t, ev = act(s, "x", "G11xJ15")
    assert first(ev, "attack").data["result"] == "lose" and "G11P" not in tags(t)
    # without an allied card touching the target: nothing
    s = near(["0:Archer@G11P", "1:Serf@J19P"])
    assert "x" not in legal(s)


def test_option_archer_siege() -> None:
    """V20: Archers may besiege through their reach (option ``archer_siege=false``)."""
    units = ["0:Archer@D15L", "0:Serf@G11P", "1:Roturier@M11P"]
    kw = {"castles": ["D11P", "P11P"], "terrain_cards": ["inn@J11P=1"]}
    t, _ = act(scenario(units, **kw), "x")  # type: ignore[arg-type]
    assert "D15xJ11" in legal(t)
    opts = "width=40 height=24 castle_gap=30 inns=0 outposts=0 archer_siege=false"
    t, _ = act(scenario(units, opts=opts, **kw), "x")  # type: ignore[arg-type]
    assert "D15xJ11" not in legal(t)


def test_sorcier_rapatrie_une_carte_de_la_defausse() -> None:
    """« Sorcier : Il peut rapatrier une carte de son choix de la défausse dans la main du
    joueur en dépensant autant de PA que coûterait l'invocation de la carte. »; V18: face
    up, from your own discard (option ``sorcery_discard=any``)."""
    s = near(["0:Sorcier@G11P"], discards=[["Bailli", "Paladin"], ["Lancier"]], pa=3)
    t, _ = act(s, "^")
    assert legal(t) == {"^Bailli"}  # the Paladin costs 4
    t, ev = act(t, "^Bailli")
    assert t.pa == 0 or t.active == 1
    assert "Bailli" in t.players[0].hand and t.players[0].discard == ("Paladin",)
    assert first(ev, "sorcery").data == {"seat": 0, "card": "Bailli", "cost": 3, "from": 0}
    s = near(["0:?Sorcier@G11P"], discards=[["Serf"], []])
    assert "^" not in legal(s)
    opts = "width=40 height=24 castle_gap=30 inns=0 outposts=0 sorcery_discard=any"
    s = near(["0:Sorcier@G11P"], discards=[[], ["Lancier"]], opts=opts)
    t, ev = act(s, "^", "^Lancier")
    assert t.players[1].discard == () and first(ev, "sorcery").data["from"] == 1


def test_v18_option_sorcery_face_down() -> None:
    """« Sorcier : Il peut rapatrier une carte de son choix de la défausse dans la main du
    joueur »; V18: only a face-up Sorcier (option ``sorcery_face_down=true``: a face-down
    one too, which is then turned face up)."""
    units = ["0:?Sorcier@G11P"]
    assert "^" not in legal(near(units, discards=[["Serf"], []]))
    opts = "width=40 height=24 castle_gap=30 inns=0 outposts=0 sorcery_face_down=true"
    s = near(units, discards=[["Serf"], []], opts=opts)
    t, ev = act(s, "^", "^Serf")
    assert kinds(ev)[:2] == ["ambush-revealed", "sorcery"]
    sorcier = unit_at(t, "G11")
    assert sorcier is not None and sorcier.face_up and "Serf" in t.players[0].hand
    text = fr(g.describe_event(first(ev, "ambush-revealed"), ["Ana", "Bo"]))
    assert text == "Embuscade ! Sorcier est retourné en G11."


# ===========================================================================
# Fin de partie, 3-4 joueurs
# ===========================================================================


def test_v4_pioche_epuisee_a_la_fin_du_tour() -> None:
    """« Une armée est décimée si son Château est vaincu ou si son Deck est épuisé. »; V4:
    a player whose draw pile is empty at the end of their own turn is eliminated
    (option ``deck_out=immediate``: at once)."""
    one = {"Serf": 1}
    s = near([], decks=[one, None], pa=2)
    t, ev = act(s, "D")
    assert t.active == 0 and t.pa == 1  # the pile is empty, the turn goes on
    t, ev = act(t, "+", "Serf@D11", "Serf G11P")
    assert kinds(ev)[-4:] == ["deck-out", "eliminated", "game-over"][-4:] or "deck-out" in kinds(ev)
    assert t.phase == "over" and g.outcome(t).ranking == ((1,), (0,))
    assert g.outcome(t).reason == "exhausted"
    opts = "width=40 height=24 castle_gap=30 inns=0 outposts=0 deck_out=immediate"
    s = near([], decks=[one, None], pa=2, opts=opts)
    t, ev = act(s, "D")
    assert t.phase == "over" and "deck-out" in kinds(ev)


def test_trois_joueurs_le_dernier_survivant_gagne() -> None:
    """« ... ou d'être le dernier survivant (si l'on joue à trois ou quatre) » — « Le jeu
    s'achève quand tous les joueurs sauf un ont eu leur Château vaincu ou leur Deck
    épuisé. »; V22: the loser's cards leave, its castle becomes an obstacle, its
    terrain becomes uncontrolled."""
    s = scenario(
        ["0:Roturier@J11P", "1:Serf@P11P", "2:Serf@AA11P"],
        seats=3,
        castles=["D11P", "M11P", "AD11P"],
        terrain_cards=["outpost@P15P=1"],
    )
    t, ev = act(s, "x", "J11xM11")
    assert kinds(ev)[:2] == ["attack", "conquest"] and t.phase == "turn"
    assert t.players[1].out and t.castles[1].fallen and not tags(t, 1)
    assert t.terrain[0].controller == -1
    v = g.view(t, None)
    assert v.obstacles == ((12, 10, 3, 4),)
    # the fallen castle blocks
    t2, _ = act(t, "D")
    assert t2.active == 0
    assert first(ev, "eliminated").data == {"seat": 1, "reason": "conquest"}
    t3, _ev3 = act(evolve(t, active=0, pa=1), "D")
    assert t3.active == 2  # seat 1 is skipped


def test_option_eliminated_castle_and_terrain() -> None:
    """Options ``eliminated_castle=removed`` and ``eliminated_terrain=kept`` (V22)."""
    opts = (
        "width=40 height=24 castle_gap=30 inns=0 outposts=0 "
        "eliminated_castle=removed eliminated_terrain=kept"
    )
    s = scenario(
        ["0:Roturier@J11P", "2:Serf@AA11P"],
        seats=3,
        castles=["D11P", "M11P", "AD11P"],
        terrain_cards=["outpost@P15P=1"],
        opts=opts,
    )
    t, _ = act(s, "x", "J11xM11")
    assert g.view(t, None).obstacles == () and t.terrain[0].controller == 1


def test_resign_elimine_et_la_partie_continue_a_trois() -> None:
    """A resigning player is eliminated at once (V22 applies); the game goes on while
    two or more remain."""
    s = scenario(["0:Roturier@G11P", "1:Serf@P11P"], seats=3, castles=["D11P", "M11P", "AD11P"])
    t, ev = g.resign(s, 1)
    assert kinds(ev)[:2] == ["resign", "eliminated"] and t.phase == "turn" and t.active == 0
    t, ev = g.resign(t, 0)
    assert t.phase == "over" and g.outcome(t).ranking == ((2,), (0,), (1,))
    with pytest.raises(RulesError):
        g.resign(t, 2)


def test_resign_du_defenseur_pendant_la_revelation() -> None:
    """The defender resigning while choosing the ambush card to reveal calls the attack
    off (its PA stay spent)."""
    units = ["0:Roturier@G11P", "0:?Serf@D15L", "0:?Clerc@G7P", "1:Bailli@J11P", "2:Serf@AD1L"]
    s = near(units, seats=3, castles=["D11P", "M11P", "AD11P"], active=1)
    t, _ = act(s, "x", "J11xG11")
    assert t.phase == "reveal"
    t, _ev = g.resign(t, 0)
    assert t.phase == "turn" and t.active == 1 and t.pa == 4 and t.combat is None


# ===========================================================================
# Options: every field, defaults are the rulings
# ===========================================================================

DEFAULTS = {
    "table": "standard",
    "width": 0,
    "height": 0,
    "castle_gap": 0,
    "terrain_gap": 0,
    "inns": None,
    "outposts": None,
    "cups": None,
    "cup_layout": "preset",
    "cup_cells": (),
    "cup_size": 4,
    "terrain_cells": (),
    "initiative_sum": "fourth-card",
    "initiative_card": "keep",
    "terrain_hidden": True,
    "must_spend_pa": True,
    "deck_out": "end-of-turn",
    "summon_contact": "anchor",
    "bases_anchor": "always",
    "inn_relays": False,
    "self_cut": False,
    "move_pivot": "any",
    "rotate_in_place": True,
    "engaged_may_move": True,
    "move_path": "free",
    "attack_cap": 0,
    "face_down_attack": False,
    "castle_tie": "falls",
    "aura_stacking": True,
    "face_down_aura": False,
    "reveal_choice": "defender",
    "reveal_keeps_bonuses": True,
    "reveal_aura": "now",
    "lancer_free": "one",
    "dog_chain": False,
    "spy_placement": "free",
    "spy_contact": "card",
    "sorcery_discard": "own",
    "sorcery_face_down": False,
    "recall_face_down": False,
    "siege_ambush": "reveal",
    "siege_failure": "attackers-die",
    "archer_siege": True,
    "enemy_terrain_blocks": False,
    "eliminated_castle": "obstacle",
    "eliminated_terrain": "uncontrolled",
    "hand_limit": 0,
}

OPTION_CASES: dict[str, tuple[str, object]] = {
    "table": ("gueridon", "gueridon"),
    "width": ("60", 60),
    "height": ("30", 30),
    "castle_gap": ("40", 40),
    "terrain_gap": ("10", 10),
    "inns": ("2", 2),
    "outposts": ("0", 0),
    "cups": ("2", 2),
    "cup_layout": ("random", "random"),
    "cup_cells": ("k10,Q3", ("K10", "Q3")),
    "cup_size": ("3", 3),
    "terrain_cells": ("t10,T24L", ("T10P", "T24L")),
    "initiative_sum": ("whole-hand", "whole-hand"),
    "initiative_card": ("return", "return"),
    "terrain_hidden": ("false", False),
    "must_spend_pa": ("false", False),
    "deck_out": ("immediate", "immediate"),
    "summon_contact": ("anchor-and-card", "anchor-and-card"),
    "bases_anchor": ("unengaged", "unengaged"),
    "inn_relays": ("true", True),
    "self_cut": ("true", True),
    "move_pivot": ("friendly", "friendly"),
    "rotate_in_place": ("false", False),
    "engaged_may_move": ("false", False),
    "move_path": ("slide", "slide"),
    "attack_cap": ("2", 2),
    "face_down_attack": ("true", True),
    "castle_tie": ("holds", "holds"),
    "aura_stacking": ("false", False),
    "face_down_aura": ("true", True),
    "reveal_choice": ("highest-def", "highest-def"),
    "reveal_keeps_bonuses": ("false", False),
    "reveal_aura": ("later", "later"),
    "lancer_free": ("turn", "turn"),
    "dog_chain": ("true", True),
    "spy_placement": ("supplied", "supplied"),
    "spy_contact": ("unit", "unit"),
    "sorcery_discard": ("any", "any"),
    "sorcery_face_down": ("true", True),
    "recall_face_down": ("true", True),
    "siege_ambush": ("hidden", "hidden"),
    "siege_failure": ("no-loss", "no-loss"),
    "archer_siege": ("false", False),
    "enemy_terrain_blocks": ("true", True),
    "eliminated_castle": ("removed", "removed"),
    "eliminated_terrain": ("kept", "kept"),
    "hand_limit": ("7", 7),
}


def test_options_every_field_is_covered() -> None:
    """Every field of ``Options`` has a case below (a new option needs a test)."""
    assert set(Options.model_fields) == set(OPTION_CASES) == set(DEFAULTS)


def test_options_defaults_are_the_rulings() -> None:
    """Each ruling is an option whose default is our resolution (V1-V23)."""
    opts = g.options("")
    assert {k: getattr(opts, k) for k in DEFAULTS} == DEFAULTS
    assert g.options_text(opts) == ""


@pytest.mark.parametrize("key", sorted(OPTION_CASES))
def test_option_non_default_value(key: str) -> None:
    """Every option accepts its non-default value, as text and as a mapping, and it
    reaches the rules of a new game."""
    text, value = OPTION_CASES[key]
    opts = g.options(f"{key.replace('_', '-')}={text}")
    assert getattr(opts, key) == value
    assert g.options({key: value}) == opts
    assert g.options(g.options_text(opts)) == opts
    extra = {
        "width": "height=30",
        "cups": "table=salle_a_manger",
        "cup_layout": "cups=2",
    }.get(key, "")
    s = base(f"{key}={text} {extra}")
    rules = s.rules
    if hasattr(rules, key):
        assert getattr(rules, key) == value
    mirror = {
        "width": lambda: rules.width,
        "height": lambda: rules.height,
        "castle_gap": lambda: s.castles[1].x - s.castles[0].x,
        "terrain_gap": lambda: s.terrain[1].y - s.terrain[0].y,
        "inns": lambda: sum(t.kind == "inn" for t in s.terrain),
        "outposts": lambda: sum(t.kind == "outpost" for t in s.terrain),
        "cups": lambda: len(s.cups),
        "cup_cells": lambda: tuple(cell_text(x, y) for x, y, _, _ in s.cups),
        "cup_size": lambda: 3,
        "terrain_hidden": lambda: all(not t.revealed for t in s.terrain),
        "cup_layout": lambda: "random" if s.cups != base("cups=2").cups else "preset",
    }
    if key in mirror:
        got = mirror[key]()
        if key == "castle_gap":
            assert got in (40, 41)
        elif key == "cup_size":
            assert all(c[2] == 3 for c in base(f"cup_cells=K10 {key}={text}").cups)
        else:
            assert got == value, (key, got)


def test_options_unknown_key_and_bad_values_are_readable() -> None:
    """An unknown option is refused with the list of valid keys; bad values are refused
    readably."""
    with pytest.raises(BadOptions) as exc:
        g.options("tablecloth=red")
    assert "Valid keys:" in en(exc.value) and "castle_gap" in en(exc.value)
    for text, needle in (
        ("table=kitchen", "table"),
        ("width=200", "width"),
        ("cups=-1", "cups"),
        ("cup_cells=11", "is not a cell"),
        ("hand_limit=x", "hand_limit"),
    ):
        with pytest.raises(BadOptions) as exc:
            g.options(text)
        assert needle in en(exc.value), (text, en(exc.value))
    with pytest.raises(BadOptions) as exc:
        g.setup(g.options(""), 5, seed=1)
    assert "2 to 4" in en(exc.value) and "2 à 4" in fr(exc.value)


# ===========================================================================
# Notation
# ===========================================================================

ACTIONS = [
    Draw(),
    EndTurn(),
    Cancel(),
    Begin("+"),
    Begin(">"),
    Begin("x"),
    Begin("^"),
    Anchor("Roturier", False, 3, 10),
    Anchor("Cabot à Couteau", True, 28, 44),
    Pivot(2, 4, 3, 9),
    Summon("Roturier", False, 2, 4, False),
    Summon("Molosse Masqué", True, 26, 0, True),
    Move(2, 4, 3, 8, True),
    Recall(2, 4),
    Attack(((2, 4), (5, 4)), (3, 8)),
    Attack(((90, 44),), (26, 1)),
    Sorcery("Médecin"),
    Reveal(2, 4),
]


@pytest.mark.parametrize("action", ACTIONS, ids=lambda a: GAME.format_action(a))
def test_notation_round_trip(action: object) -> None:
    """``parse_action(format_action(a)) == a`` for every action kind."""
    text = g.format_action(action)  # type: ignore[arg-type]
    assert g.parse_action(text) == action
    assert g.format_action(g.parse_action(text)) == text


def test_notation_examples_of_the_module() -> None:
    """The notation of the module docstring: grid coordinates, letters for columns,
    numbers for rows."""
    assert [g.format_action(a) for a in ACTIONS] == [
        "D",
        "E",
        "-",
        "+",
        ">",
        "x",
        "^",
        "Roturier@D11",
        "?Cabot à Couteau@AC45",
        "C5@D10",
        "Roturier C5P",
        "?Molosse Masqué AA1L",
        "C5>D9L",
        "<C5",
        "C5+F5xD9",
        "CM45xAA2",
        "^Médecin",
        "!C5",
    ]


@pytest.mark.parametrize(
    ("text", "action"),
    [
        (" d ", Draw()),
        ("pioche", Draw()),
        ("annuler", Cancel()),
        ("invoquer", Begin("+")),
        ("?", Begin("+")),
        ("embuscade", Begin("+")),
        ("rapatrier", Begin(">")),
        ("X", Begin("x")),
        ("attaque", Begin("x")),
        ("roturier c5 p", Summon("Roturier", False, 2, 4, False)),
        ("+ROTURIER C5 paysage", Summon("Roturier", False, 2, 4, True)),
        ("? clerc h9 couchée", Summon("Clerc", True, 7, 8, True)),
        ("medecin c5v", Summon("Médecin", False, 2, 4, False)),
        ("ecuyer@d11", Anchor("Écuyer", False, 3, 10)),
        ("? rot @ d11", Anchor("Roturier", True, 3, 10)),
        ("cabot@a1", Anchor("Cabot à Couteau", False, 0, 0)),
        ("c5 @ d9", Pivot(2, 4, 3, 8)),
        ("c5 > d9 h", Move(2, 4, 3, 8, True)),
        ("< c5", Recall(2, 4)),
        ("f5 + c5 x d9", Attack(((2, 4), (5, 4)), (3, 8))),
        ("^ medecin", Sorcery("Médecin")),
        ("! c5", Reveal(2, 4)),
    ],
)
def test_notation_lenient_inputs(text: str, action: object) -> None:
    """Spaces, case, accents, unique prefixes of card names and French words are
    forgiven; attackers may come in any order."""
    assert g.parse_action(text) == action


@pytest.mark.parametrize(
    "text", ["", "C5", "C0>D9P", "Roturier C5", "Dragon C5P", "@C5", "C5xx", "^^", "s@C5", "!"]
)
def test_notation_malformed_text_is_a_readable_error(text: str) -> None:
    """Malformed text raises BadNotation with examples of valid moves, in both languages."""
    with pytest.raises(BadNotation) as exc:
        g.parse_action(text)
    assert "Via Belli" in en(exc.value) or "cell" in en(exc.value)
    assert fr(exc.value) != en(exc.value)
    assert exc.value.code == "bad-notation"


def test_coup_complet_tape_au_tour_equivaut_aux_etapes() -> None:
    """A complete action typed at the turn decision stands for all its steps: the same
    state as step by step, one line in the record."""
    s = near(["0:Roturier@G11P", "0:Serf@G15P", "1:Archer@J11P"], hands=["Bailli", ""])
    for steps, full in (
        (["+", "Bailli@D11", "Bailli D7P"], "Bailli D7P"),
        (["+", "?Bailli@D11", "?Bailli D7P"], "?Bailli D7P"),
        ([">", "G15@G11", "G15>G8L"], "G15>G8L"),
        ([">", "<G15"], "<G15"),
        (["x", "G11xJ11"], "G11xJ11"),
    ):
        a, _ = act(s, *steps)
        b, _ = act(s, full)
        assert a == b, full
    with pytest.raises(IllegalAction) as exc:
        act(s, "Bailli Z20P")
    assert "must touch" in en(exc.value)
    m = Match(GAME, "width=40 height=24 castle_gap=30", 2, 5)
    m.state = s
    m.play(0, "Bailli D7P")
    assert m.actions == [(0, "Bailli D7P")]


def test_complete_actions_for_hosts() -> None:
    """``complete_actions``: every complete action typable at the turn decision (for
    autocomplete and ghost outlines); each one applies, as its steps would."""
    s = near(
        ["0:Roturier@G11P", "0:Serf@G15P", "0:Sorcier@A15L", "1:Archer@J11P"],
        hands=["Bailli,Cabot à Couteau", ""],
        discards=[["Serf"], []],
    )
    full = {g.format_action(a) for a in g.complete_actions(s, 0)}
    assert {"D", "Bailli D7P", "?Bailli D7P", "G15>G8L", "<G15", "G11xJ11", "^Serf"} <= full
    assert not any(a in full for a in ("+", ">", "x", "^"))
    for text in sorted(full):
        g.apply(s, 0, g.parse_action(text))
    spots = {a for a in full if a.startswith("Bailli ")}
    t, _ = act(s, "+", "Bailli@D11")
    assert legal(t) <= spots
    t, _ = act(s, "+", "Cabot à Couteau@D11", "Cabot à Couteau D7P")
    assert {g.format_action(a) for a in g.complete_actions(t, 0)} == {"-"}
    assert g.complete_actions(s, 1) == []


def test_moins_revient_au_choix_de_l_action() -> None:
    """``-`` in a step goes back to the turn decision (to the free-dog decision while
    placing the free dog); it is accepted there, not listed."""
    s = near([], hands=["Serf", ""])
    t, _ = act(s, "+", "Serf@D11")
    assert "-" not in legal(t)
    u, ev = act(t, "-")
    assert u == evolve(s) and ev == []
    with pytest.raises(IllegalAction):
        act(s, "-")


def test_describe_action_labels_fr_en() -> None:
    """Button labels in English and French."""
    s = near(["0:Roturier@G11P", "1:Archer@J11P"], hands=["Bailli", ""])
    assert en(g.describe_action(s, 0, Draw())) == "Draw (1 PA)"
    assert fr(g.describe_action(s, 0, Draw())) == "Piocher (1 PA)"
    assert fr(g.describe_action(s, 0, Begin("+"))) == "Invoquer / embuscade"
    assert en(g.describe_action(s, 0, Attack(((6, 10),), (9, 10)))) == (
        "Roturier (G11) → Archer (J11) (2 ATK / 1 DEF)"
    )
    t, _ = act(s, "+")
    assert fr(g.describe_action(t, 0, Anchor("Bailli", True, 3, 10))) == (
        "Bailli (embuscade, 2 PA, 2/3) contre Château 1 (D11)"
    )
    assert en(g.describe_action(t, 0, Summon("Bailli", False, 3, 6, True))) == "Bailli → D7 lying"
    d = g.pending(t)[0]
    assert "Roturier@C5" in en(g.decision_text(d)) and "Roturier@C5" in fr(g.decision_text(d))


def test_describe_event_lines() -> None:
    """Every event a host logs has an English and a French line."""
    s = near(["0:Roturier@G11P", "1:Archer@J11P"])
    _, ev = act(s, "x", "G11xJ11")
    line = en(g.describe_event(first(ev, "attack"), ["Ana", "Bo"]))
    assert (
        line
        == "Ana attacks J11 with G11: 2 ATK against 1 DEF, the target falls — dead: Archer (J11)."
    )
    assert "attaque" in fr(g.describe_event(first(ev, "attack"), ["Ana", "Bo"]))


# ===========================================================================
# Immutability, codec, views, hidden information
# ===========================================================================


def test_illegal_action_does_not_change_the_state() -> None:
    """States are immutable: refused and accepted actions leave the input untouched."""
    s = near(["0:Roturier@G11P", "1:Archer@J11P"], hands=["Serf", ""])
    deep = copy.deepcopy(s)
    before = frozen(s)
    for seat, text in ((1, "D"), (0, "Z9>A1P"), (0, "!C5"), (0, "<J11"), (0, "^Serf")):
        with pytest.raises(RulesError):
            g.apply_text(s, seat, text)
    for action in g.legal_actions(s, 0):
        g.apply(s, 0, action)
    assert frozen(s) == before and s == deep


def test_json_codec_round_trip_and_refusals() -> None:
    """``decode_state(encode_state(s)) == s`` through JSON text, mid-decision too;
    foreign or damaged data is refused."""
    s = near(["0:Roturier@G11P", "0:?Serf@D15L", "0:?Clerc@G7P", "1:Bailli@J11P"], active=1)
    t, _ = act(s, "x", "J11xG11")
    for state in (base(), base("table=carre_4j", 4), s, t):
        text = json.dumps(g.encode_state(state))
        assert g.decode_state(json.loads(text)) == state
    data = g.encode_state(t)
    with pytest.raises(BadRecord):
        g.decode_state({**data, "game": "between-battle"})
    with pytest.raises(BadRecord):
        g.decode_state({**data, "schema": 99})
    broken = json.loads(json.dumps(data))
    broken["state"]["units"][0][2] = "x"
    with pytest.raises(BadRecord):
        g.decode_state(broken)
    broken = json.loads(json.dumps(data))
    broken["state"]["phase"] = "nap"
    with pytest.raises(BadRecord):
        g.decode_state(broken)


def test_view_what_each_player_sees() -> None:
    """Public: the table (cards face up with current ATK/DEF, face-down cards as such,
    revealed terrain and control, supply links), counts of hands and piles, discards,
    cards known to be in hand. Private: your hand, your face-down cards, your legal
    actions (with the spots as ghosts)."""
    s = near(
        ["0:Roturier@G11P", "0:?Clerc@D15L", "1:Archer@J15P"],
        hands=["Serf", "Paladin"],
        terrain_cards=["?inn@S2P", "outpost@S20P=1"],
    )
    v0, v1, vs = g.view(s, 0), g.view(s, 1), g.view(s, None)
    assert v0.players[0].hand == ("Serf",) and v0.players[1].hand is None
    assert vs.players[0].hand is None and vs.choices == ()
    clerc0 = next(u for u in v0.units if u.tag == "D15")
    clerc1 = next(u for u in v1.units if u.tag == "D15")
    assert clerc0.name == "Clerc" and clerc1.name is None and clerc1.cost is None
    assert [t.kind for t in v1.terrain] == [None, "outpost"]
    assert tuple(map(str, v0.supply[0])) == ("0", "D11", "G11")
    assert v0.choices == ("D", "+", ">") and v1.choices == ()
    t, _ = act(s, "+", "Serf@G11")
    assert len(g.view(t, 0).ghosts) == len(g.view(t, 0).choices) > 0
    assert g.view(t, 0).selection is not None and g.view(t, 0).selection.card == "Serf"  # type: ignore[union-attr]
    assert g.view(t, 1).selection.card is None  # type: ignore[union-attr]
    assert "Your hand: Serf" in en(g.summary(v0, ["Ana", "Bo"]))
    assert v0.options == () and v0.rules == s.rules
    opts = "width=40 height=24 castle_gap=30 inns=0 outposts=0 castle_tie=holds dog_chain=true"
    assert g.view(near([], opts=opts), 0).options == (
        ("castle_tie", "holds"),
        ("dog_chain", "true"),
    )


def test_fin_de_partie_les_cartes_face_cachee_sont_montrees() -> None:
    """« Le jeu s'achève quand tous les joueurs sauf un ont eu leur Château vaincu ou leur
    Deck épuisé. »: once the game is over, every view names the face-down cards left on
    the table (they stay face down); nothing is hidden any more, so ``determinize``
    changes nothing."""
    s = near(["0:Roturier@J11P", "0:?Clerc@G15P", "1:?Bailli@Q11P"])
    v = {u.tag: u for u in g.view(s, 1).units}
    assert v["G15"].name is None
    t, ev = act(s, "x", "J11xM11")
    assert t.phase == "over" and "conquest" in kinds(ev)
    for seat in (0, 1, None):
        units = {u.tag: u for u in g.view(t, seat).units}
        clerc = units["G15"]
        assert (clerc.name, clerc.face_up, clerc.printed_def, clerc.cost) == ("Clerc", False, 3, 2)
    assert g.determinize(t, 1, 7) == t


def test_determinize_keeps_every_view_and_known_cards() -> None:
    """``determinize`` resamples hands, face-down cards and terrain consistently: every
    view is unchanged, cards known to be in a hand stay there, nothing is lost."""
    s = near(
        ["0:Roturier@G11P", "0:?Clerc@D15L", "1:?Paladin@AA11P"],
        hands=["Serf,Bailli", "Lancier"],
        terrain_cards=["?inn@S2P", "?outpost@S20P"],
    )
    s = evolve(s, players=(s.players[0], evolve(s.players[1], known=(("Lancier", 0),))))
    seen = set()
    for seed in range(12):
        for observer in (0, 1, None):
            d = g.determinize(s, observer, seed)
            assert g.view(d, observer) == g.view(s, observer)
            for seat in (0, 1):
                assert sum(all_cards(d, seat).values()) == 32
            if observer == 0:
                assert "Lancier" in d.players[1].hand
                seen.add((d.players[1].hand, d.units[2].name, tuple(t.kind for t in d.terrain)))
    assert len(seen) > 3


def test_sample_state_rebuilds_a_state_from_a_view() -> None:
    """``sample_state(view, seed)`` (for search bots, which only get views): a full
    state whose view is the given one for every seed, with the same legal actions,
    from which play goes on; along random games with 2 to 4 players."""
    from engine import rng

    checked = 0
    for seed, (opts, seats) in enumerate(
        (("table=gueridon", 2), ("width=24 height=18 castle_gap=16", 3), ("table=carre_4j", 4))
    ):
        s = g.setup(g.options(opts), seats, seed)
        r = rng.seed_state(seed, "sample")
        steps = 0
        while g.outcome(s) is None and steps < 260:
            if steps % 3 == 0:
                for observer in range(seats):
                    view = g.view(s, observer)
                    for k in range(2):
                        other = g.sample_state(view, k + steps)
                        assert g.view(other, observer) == view
                        assert g.legal_actions(other, observer) == g.legal_actions(s, observer)
                        checked += 1
                    pending = sorted(g.pending(other))
                    for action in g.legal_actions(other, pending[0])[:3]:
                        g.apply(other, pending[0], action)
            pending = sorted(g.pending(s))
            i, r = rng.randbelow(r, len(pending))
            acts = g.legal_actions(s, pending[i])
            j, r = rng.randbelow(r, len(acts))
            s, _ = g.apply(s, pending[i], acts[j])
            steps += 1
    assert checked > 300
    with pytest.raises(ValueError):
        g.sample_state(g.view(base(), None), 1)


def test_views_survive_the_json_codec() -> None:
    """Views are JSON-able values (hosts may send them to bots in other processes)."""
    from engine.codec import from_jsonable, to_jsonable
    from engine.games.via_belli import View

    s = near(["0:Roturier@G11P", "0:?Clerc@D15L", "0:?Serf@G7P", "1:Bailli@J11P"], active=1)
    t, _ = act(s, "x", "J11xG11")
    for state in (s, t):
        for seat in (0, 1, None):
            v = g.view(state, seat)
            assert from_jsonable(View, json.loads(json.dumps(to_jsonable(v)))) == v


def test_match_record_replay_and_snapshot() -> None:
    """A match replays from its record to the same state and restores from a snapshot."""
    m = Match(GAME, "table=gueridon", 2, seed=11)
    for _ in range(60):
        if m.is_over:
            break
        seat = next(iter(m.pending()))
        m.play(seat, m.legal_notations(seat)[0])
    record = MatchRecord.loads(m.record().dumps())
    assert Match.replay(record).state == m.state
    assert Match.restore(json.loads(json.dumps(m.snapshot()))).state == m.state


def test_draw_helper_prints_the_table() -> None:
    """The test helper's text drawing (castles #, cards by owner, cups ~)."""
    s = near(["0:Roturier@G11P", "1:?Serf@J11P"], cups=["A1"])
    lines = draw(s).splitlines()
    assert lines[0].startswith("~~~~") and lines[10][3:12] == "###000bbb"
