"""Belle Position: rules fidelity (issue 12). Each test quotes the seed
sentence it checks; each proposed ruling is an option with its own test."""

from __future__ import annotations

import i18n
from tests.games.bp_helpers import (
    act,
    card,
    g,
    kinds,
    legal,
    scenario,
    where,
)

# ---------------------------------------------------------------------------
# 15 – long-range losses on every unit of the position (seed 11)
# ---------------------------------------------------------------------------


def test_pertes_a_longue_portee_sur_chaque_carte_de_la_position() -> None:
    """« Répartir les pertes de manière à ce que chaque carte d'unité ennemie dans
    la position soit identifiée par un jeton avant qu'une d'entre elles en reçoive
    un second »: at long range the face-down units of the target position take
    their share too (each is turned face up as it takes its token)."""
    s = scenario(
        {"FG": "artillerie-de-la-garde-ml^"},
        {"AD": "landwehr^ landwehr landwehr"},
        dice=(1, 1, 1),
    )
    s, ev = act(s, "F1@ED")
    assert [card(s, f"A{i}").tokens for i in (1, 2, 3)] == [1, 1, 1]
    assert all(where(s, f"A{i}") == "AD" for i in (1, 2, 3))  # nobody eliminated
    assert kinds(ev).count("reveal:landwehr") == 2  # the two hidden ones, as they are hit


def test_pertes_la_batterie_ne_prend_pas_tout() -> None:
    """The battery that revealed itself no longer absorbs all the return fire:
    with 2 hits on a position holding it and a hidden unit, each gets one."""
    s = scenario(
        {"FC": "artillerie-de-la-garde-ml^ chasseurs-a-pied"},
        {"AC": "artillerie-legere-bl^"},
        active=1,
        dice=(1, 1),
    )
    s, ev = act(s, "A1@EC")
    assert card(s, "F1").tokens == 1 and card(s, "F2").tokens == 1
    assert "reveal:chasseurs-a-pied" in kinds(ev)
    s = scenario(
        {"FC": "artillerie-de-la-garde-ml^ chasseurs-a-pied"},
        {"AC": "artillerie-legere-bl^"},
        active=1,
        dice=(1, 1),
        opts="long_range_losses=face-up",
    )
    s, _ = act(s, "A1@EC")
    assert card(s, "F1").tokens == 2 and card(s, "F2").tokens == 0


def test_pertes_cartes_cachees_differentes_le_joueur_choisit() -> None:
    """« choisie par le joueur qui subit les pertes »: with one hit for two hidden
    cards the taker chooses, whether or not they are the same type (asking only
    for different ones would tell the shooter what they are)."""
    for hidden, offered in (
        ("landwehr landwehr", {"-A2"}),  # interchangeable: offered once
        ("landwehr ligne-prussienne", {"-A2", "-A3"}),
    ):
        s = scenario(
            {"FG": "artillerie-de-la-garde-ml^"},
            {"AD": f"landwehr^#1 {hidden}"},
            dice=(1, 5, 5),
        )
        s, _ = act(s, "F1@ED")
        assert s.phase == "allocate" and legal(s) == offered
        assert g.view(s, 1).alloc.candidates == ("A2", "A3")  # type: ignore[union-attr]
        shooter = g.view(s, 0).alloc
        assert shooter is not None and shooter.candidates == () and shooter.hidden == 2


def test_option_long_range_losses_face_up() -> None:
    """Option ``long_range_losses=face-up`` (ruling B8): only face-up units take
    long-range losses."""
    s = scenario(
        {"FG": "artillerie-de-la-garde-ml^"},
        {"AD": "landwehr^ landwehr landwehr"},
        dice=(1, 1, 5),
        opts="long_range_losses=face-up",
    )
    s, _ = act(s, "F1@ED")
    assert card(s, "A1").tokens == 2 and card(s, "A2").tokens == 0


# ---------------------------------------------------------------------------
# 16 – no turn limit and no draw by default (not in the seed)
# ---------------------------------------------------------------------------


def test_pas_de_limite_de_tours_par_defaut() -> None:
    """« Une partie se décompose en tours de jeu alternés » and « Un joueur est
    déclaré vainqueur à l'instant où il occupe deux positions ennemies
    abandonnées »: the seed has no turn limit and no draw, so by default the
    battle goes on; ``turn_limit=N`` (N turns each) brings the draw back."""
    assert g.options("").turn_limit == 0
    s = scenario(
        {"FC": "ligne-francaise"}, {"AC": "landwehr"}, phase="movement", active=1, turn=400
    )
    s, _ = act(s, "ok")
    assert g.outcome(s) is None and s.turn == 401
    # the draw that ``turn_limit=N`` brings back: test_belle_position_rules.py::test_turn_limit_draw


# ---------------------------------------------------------------------------
# 18 – counter-battery anywhere in the enemy battle line (seed 10)
# ---------------------------------------------------------------------------


def test_contre_batterie_sur_la_ligne_de_bataille_adverse() -> None:
    """« si le joueur déclare effectuer un tir en contre batterie, elle peut alors
    viser spécifiquement une carte d'artillerie ou de mitrailleuses de la ligne
    de bataille adverse »: a battery in the centre may aim at a battery on
    either enemy wing, not only at the position opposite."""
    french = {"FC": "artillerie-de-la-garde-ml^"}
    german = {
        "AC": "landwehr^",
        "AG": "artillerie-legere-bl^ landwehr^",
        "AD": "artillerie-de-reserve-bl^",
    }
    s = scenario(french, german, dice=(1, 2, 5))
    assert legal(s) == {"F1@EC", "F1@A2", "F1@A4", "ok"}
    s, ev = act(s, "F1@A4")
    data = next(e for e in ev if e.kind == "counter-battery").data
    assert data["at"] == "AD" and data["hits"] == 2
    assert card(s, "A4").tokens == 2 and card(s, "A2").tokens == 0
    assert legal(s) == {
        "ok"
    }  # « tous les combats ... dans une position avant de passer à une autre »


def test_contre_batterie_pas_sur_une_position_engagee_ni_une_batterie_cachee() -> None:
    """The target position must not be engaged (« si toutefois elle-même et la
    position adverse ne sont pas engagées ») and the battery aimed at must be
    visible (« sa cible doit être également visible »)."""
    s = scenario(
        {"FC": "artillerie-de-la-garde-ml^", "AG": "ligne-francaise^"},
        {"AG": "artillerie-legere-bl^", "AD": "artillerie-de-reserve-bl"},
    )
    assert legal(s) == {"F2@EG", "ok"}  # F2's melee only: no counter-battery for F1


def test_option_counter_battery_range_opposite() -> None:
    """Option ``counter_battery_range=opposite``: only the opposite position."""
    s = scenario(
        {"FC": "artillerie-de-la-garde-ml^"},
        {"AC": "landwehr^", "AG": "artillerie-legere-bl^"},
        opts="counter_battery_range=opposite",
    )
    assert legal(s) == {"F1@EC", "ok"}


# ---------------------------------------------------------------------------
# 17 – the grouping limit is ignored until all moves are done (seed 12)
# ---------------------------------------------------------------------------

LIGNES = " ".join(["ligne-francaise^"] * 4)


def test_limite_ignoree_jusqu_a_la_fin_des_mouvements_dans_la_ligne_adverse() -> None:
    """« Les cartes sont déplacées individuellement, l'une après l'autre dans
    l'ordre au choix du joueur, et la règle de limites de regroupement est
    ignorée jusqu'à ce que tous les mouvements soient effectués »: a fresh unit
    may enter a full conquered enemy position before one of its holders leaves
    (the old rule refused it until the holder had gone first)."""
    quiet = {"AG": "landwehr", "AD": "landwehr"}
    for order in (("F5>EC", "F1>C"), ("F1>C", "F5>EC")):
        s = scenario(
            {"AC": LIGNES, "FC": "zouaves-turcos^"}, quiet, phase="movement", conquered=["AC"]
        )
        s, _ = act(s, order[0])
        if order[0] == "F5>EC":
            assert "ok" not in legal(s)  # over the limit: the phase cannot end yet
        s, _ = act(s, order[1])
        assert "ok" in legal(s)
        assert where(s, "F5") == "AC" and where(s, "F1") == "FC"


def test_limite_ignoree_en_engageant() -> None:
    """The same when engaging: a fifth unit may join a position where the enemy
    stands while one of the four there can still go back."""
    s = scenario(
        {
            "AC": "ligne-francaise^ ligne-francaise^ dragons^ ligne-francaise^",
            "FC": "zouaves-turcos^",
        },
        {"AC": "landwehr^", "AG": "landwehr", "AD": "landwehr"},
        phase="movement",
    )
    assert "F5>EC" in legal(s)
    s, _ = act(s, "F5>EC")
    assert "ok" not in legal(s)
    s, _ = act(s, "F3>C")  # the Dragons go back (and could go on to the reserve)
    assert "ok" in legal(s)


def test_limite_jamais_sans_issue_dans_la_ligne_adverse() -> None:
    """Ruling B5 still holds: the phase may not end over the limit, so a move is
    refused when no move left could restore it (the holders have fought)."""
    s = scenario(
        {"AC": " ".join(["ligne-francaise^!"] * 4), "FC": "zouaves-turcos^"},
        {"AG": "landwehr", "AD": "landwehr"},
        phase="movement",
        conquered=["AC"],
    )
    assert "F5>EC" not in legal(s)


def test_un_seul_general_par_position_pendant_les_mouvements() -> None:
    """« Au maximum, un seul général peut être déployé par position », during the
    movement phase too: a second general may not join the first."""
    s = scenario(
        {"FC": "ligne-francaise^ mac-mahon", "FG": "ligne-francaise^", "R": "bazaine"},
        {"AC": "landwehr", "AG": "landwehr", "AD": "landwehr"},
        phase="movement",
    )
    moves = {a for a in legal(s) if a.startswith("F4>")}
    assert moves == {"F4>G", "F4>D"}
    s, _ = act(s, "F2>R")  # Mac-Mahon leaves the centre: Bazaine may go there
    assert "F4>C" in legal(s)


# ---------------------------------------------------------------------------
# 19 – where the seed is silent or ambiguous: an option each
# ---------------------------------------------------------------------------


def test_terrain_en_cours_de_partie_dans_toute_position_non_engagee() -> None:
    """« [elles] ne peuvent être positionnées en cours de partie que dans une
    position non engagée »: the seed does not say « own », so by default a
    terrain card may go into any position that is not engaged, such as an enemy
    position one's units hold; never where enemy cards stand."""
    s = scenario(
        {"R": "hauteur", "AC": "ligne-francaise^"},
        {"AG": "landwehr", "FD": "landwehr^", "FC": "landwehr"},
        phase="movement",
        conquered=["AC"],
    )
    assert {a for a in legal(s) if a.startswith("F1>")} == {"F1>G", "F1>EC", "F1>ED"}
    s, _ = act(s, "F1>EC")
    assert where(s, "F1") == "AC"
    s = scenario(
        {"R": "hauteur", "AC": "ligne-francaise^"},
        {"AG": "landwehr", "FD": "landwehr^", "FC": "landwehr"},
        phase="movement",
        conquered=["AC"],
        opts="terrain_placement=own",
    )
    assert {a for a in legal(s) if a.startswith("F1>")} == {"F1>G"}


def test_option_long_range_hill() -> None:
    """« hauteur : VC du défenseur augmentée d'un point pour les combats »: the
    seed does not say whether a battery on a hill fires better at long range.
    Default: no; option ``long_range_hill=true``: one more die."""
    french = {"FC": "artillerie-de-la-garde-ml^ hauteur"}
    german = {"AC": "landwehr^ landwehr^ landwehr^ landwehr^"}
    s = scenario(french, german, dice=(5, 5, 5, 5))
    s, ev = act(s, "F1@EC")
    assert next(e for e in ev if e.kind == "long-range").data["dice_count"] == 3
    s = scenario(french, german, dice=(5, 5, 5, 5), opts="long_range_hill=true")
    s, ev = act(s, "F1@EC")
    data = next(e for e in ev if e.kind == "long-range").data
    assert data["dice_count"] == 4 and ["hauteur", 1] in data["modifiers"]


def test_option_budget_mode_total() -> None:
    """« une vingtaine de cartes de son camp totalisant 200 ou 250 points »: read as
    a cap by default (ruling B1); ``budget_mode=total``: the army must spend its
    budget (no card of 4 points or more left unbought). The presets (197 and
    198 points) total 200."""
    import pytest

    from engine.errors import BadOptions

    cheap = "french=" + ",".join(["francs-tireurs*18"])
    assert g.options(cheap).french  # a cap: 72 points is fine
    with pytest.raises(BadOptions) as exc:
        g.options(cheap + " budget_mode=total")
    assert "must total 200" in i18n.translate("en", exc.value.msg)
    assert "doit totaliser 200" in i18n.translate("fr", exc.value.msg)
    assert g.options("budget_mode=total").budget_mode == "total"  # the presets
    with pytest.raises(BadOptions):
        g.options("budget_mode=total budget=250")


def test_option_forced_march_any() -> None:
    """Marche Forcée (proposed, « one infantry or artillery unit may make 2 moves
    this turn »): the rulings do not say when. Default: before the unit's first
    move; ``forced_march=any``: also right after it, while it is still moving."""
    spec = {"R": "marche-forcee ligne-francaise"}
    quiet = {"P": "landwehr"}
    s = scenario(spec, quiet, phase="movement")
    s, _ = act(s, "F2>C")
    assert "F1!F2" not in legal(s)
    s = scenario(spec, quiet, phase="movement", opts="forced_march=any")
    s, _ = act(s, "F2>C")
    assert "F1!F2" in legal(s)
    s, _ = act(s, "F1!F2", "F2>EC")
    assert where(s, "F2") == "AC"


# ---------------------------------------------------------------------------
# 20 – names: each player's own handles in examples
# ---------------------------------------------------------------------------


def test_les_exemples_utilisent_les_cartes_du_joueur() -> None:
    """The German player's prompts give German handles (``A7>C``), which the
    engine accepts from them (``F7>C`` was refused: not their card)."""
    from engine.errors import IllegalAction

    s = g.setup(g.options(""), 2, 1)
    pending = g.pending(s)
    for seat, letter in ((0, "F"), (1, "A")):
        for locale in ("en", "fr"):
            text = i18n.translate(locale, g.decision_text(pending[seat]))
            assert f"({letter}7>C)" in text, text
    s2, _ = g.apply_text(s, 1, "A7>C")  # the German example is playable
    assert s2 != s
    try:
        g.apply_text(s, 1, "F7>C")
    except IllegalAction:
        pass
    else:
        raise AssertionError("F7 is not a German card")
    s = scenario(
        {"FC": "artillerie-de-la-garde-ml^"},
        {"AC": "landwehr^", "AG": "artillerie-legere-bl^", "R": "ralliement"},
        active=1,
    )
    for locale in ("en", "fr"):
        text = i18n.translate(locale, g.decision_text(g.pending(s)[1]))
        assert "A7@EC" in text and "A7@F3" in text, text


def test_sample_state_with_terrain_in_the_enemy_line() -> None:
    """A terrain card placed in an enemy position stays its owner's card when a
    bot rebuilds a state from a view (``sample_state``)."""
    s = scenario(
        {"R": "hauteur", "AC": "ligne-francaise^"},
        {"AG": "landwehr", "FD": "landwehr^", "FC": "landwehr"},
        phase="movement",
        conquered=["AC"],
    )
    s, _ = act(s, "F1>EC")
    for observer in (0, 1, None):
        view = g.view(s, observer)
        assert g.view(g.sample_state(view, 3), observer) == view


def test_english_wing_codes_parse_to_the_canonical_notation() -> None:
    """The notation stays French (``G C D``, ``EG EC ED``); English players may
    type L, EL or ER (enemy right), which read back in the canonical form."""
    for typed, canonical in (
        ("F7>L", "F7>G"),
        ("F7>EL", "F7>EG"),
        ("F7>ER", "F7>ED"),
        ("A7 > enemy right", "A7>ED"),
        ("F7>R", "F7>R"),
        ("F7@ER", "F7@ED"),
    ):
        assert g.format_action(g.parse_action(typed)) == canonical
