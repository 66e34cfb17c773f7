"""Via Belli's texts are catalogue keys: the engine returns ``Msg`` values
(``vb-*`` keys and parameters) and the catalogues write the sentences. The
expected sentences are those the engine wrote itself before the conversion
(the elisions, the lists and the nested labels now come from the catalogue)."""

from __future__ import annotations

from engine.core import Event
from engine.games.via_belli import Pivot
from engine.text import Msg
from tests.games.vb_helpers import act, en, fr, g, scenario

CASTLES = ["D11P", "M11P"]


def test_every_text_is_a_via_belli_key() -> None:
    s = scenario(["0:Roturier@G11P", "1:Archer@J11P"], castles=CASTLES, hands=["Bailli", ""])
    for action in g.legal_actions(s, 0):
        assert g.describe_action(s, 0, action).key.startswith("vb-")
    for _, path in g.action_menu(s, 0):
        for step in path:
            assert not isinstance(step.label, Msg) or step.label.key.startswith("vb-")
    assert g.decision_text(g.pending(s)[0]).key == "vb-decision-turn"
    assert g.summary(g.view(s, 0), ["Ana", "Bo"]).key == "vb-lines"
    refused = g.refusal(s, 0, Pivot(0, 0, 1, 1))
    assert refused is not None and refused.msg.key == "vb-refuse-choose-action"


def test_french_elision_comes_from_the_catalogue() -> None:
    """``{pivot:de_h}`` (a card: no elision before an aspirate h, elision before
    a vowel), ``{player:de}`` (a name: elision before a vowel or an h)."""
    s = scenario(["0:Roturier@G11P", "0:Écuyer@G15P", "1:?Archer@J11P"], castles=CASTLES, active=0)
    t, _ = act(s, ">")
    along_ecuyer = fr(g.describe_action(t, 0, Pivot(6, 10, 6, 14)))
    assert along_ecuyer == "Roturier (G11) le long d'Écuyer (G15)"
    along_castle = fr(g.describe_action(t, 0, Pivot(6, 10, 3, 10)))
    assert along_castle == "Roturier (G11) le long de Château 1 (D11)"
    assert en(g.describe_action(t, 0, Pivot(6, 10, 3, 10))) == "Roturier (G11) along Castle 1 (D11)"
    turn = Event("turn", {"seat": 1, "pa": 5})
    assert fr(g.describe_event(turn, ["Bob", "Hugo"])) == "Tour d'Hugo (5 PA)."
    assert fr(g.describe_event(turn, ["Bob", "Zoé"])) == "Tour de Zoé (5 PA)."
    assert en(g.describe_event(turn, ["Bob", "Hugo"])) == "Turn of Hugo (5 PA)."


def test_lists_keep_their_commas_and_nested_labels() -> None:
    """A list of cards is ``A, B, C`` in both languages (no final "and"), with a
    face-down card named in the reader's language."""
    cut = Event("cut-off", {"seat": 0, "cards": ["Serf", None, "Clerc"]})
    assert fr(g.describe_event(cut, ["Alice", "Bob"])) == (
        "Coupées du château, retour en main d'Alice : Serf, carte cachée, Clerc."
    )
    assert en(g.describe_event(cut, ["Alice", "Bob"])) == (
        "Cut off from the castle, back to Alice's hand: Serf, face-down card, Clerc."
    )
    attack = Event(
        "attack",
        {
            "seat": 1,
            "target": "G11",
            "attackers": ["J11", "J15"],
            "atk": 4,
            "def": 2,
            "result": "win",
            "dead": [{"card": "Roturier", "tag": "G11"}, {"card": "Serf", "tag": "G15"}],
        },
    )
    assert fr(g.describe_event(attack, ["Ana", "Bo"])) == (
        "Bo attaque G11 avec J11+J15 : 4 ATK contre 2 DEF, la cible tombe"
        " — morts : Roturier (G11), Serf (G15)."
    )
