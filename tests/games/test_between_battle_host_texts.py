"""Between Battle's resignation and the texts it gives hosts (both languages)."""

from __future__ import annotations

import pytest

from engine import GAMES, Match
from engine.core import Decision, Event
from engine.errors import GameOver, IllegalAction, NotYourTurn, RulesError
from engine.text import Msg
from tests.games.bb_helpers import said

G = GAMES["between-battle"]
NAMES = ["Alice", "Bob", "Chloé"]


def _match(seats: int = 3, options: str = "characters=pirate,ninja,cowboy") -> Match:
    if seats == 2:
        options = "characters=pirate,ninja"
    return Match(G, options, seats, seed=8)


def test_resign_in_two_players_ends_the_game() -> None:
    m = _match(2)
    events = m.resign(1)
    assert [e.kind for e in events][:2] == ["resign", "eliminated"]
    out = m.outcome()
    assert out is not None and out.ranking == ((0,), (1,)) and out.reason == "resign"
    assert m.actions[-1] == (1, "!resign")
    assert Match.replay(m.record()).state == m.state
    with pytest.raises(GameOver):
        m.resign(0)


def test_resign_of_the_active_player_passes_the_turn() -> None:
    m = _match(3)
    active = next(iter(m.pending()))
    m.resign(active)
    assert not m.is_over
    nxt = next(iter(m.pending()))
    assert nxt == (active + 1) % 3
    assert m.state.players[active].out
    with pytest.raises(NotYourTurn):
        m.resign(active)  # already out
    # the two others finish; the resigner ranks last
    m.resign(nxt)
    out = m.outcome()
    assert out is not None and out.ranking[-1] == (active,) and out.ranking[-2] == (nxt,)


def test_resign_of_the_damage_chooser_hands_the_choice_on() -> None:
    m = _match(3)
    first = next(iter(m.pending()))
    legal = [t for t in m.legal_notations(first) if t != "D"]
    m.play(first, legal[0])
    taker = next(iter(m.pending()))
    if taker == first:  # the card gave an extra turn; play on until someone else moves
        m.play(taker, next(t for t in m.legal_notations(taker) if t != "D"))
        taker = next(iter(m.pending()))
    m.play(taker, "D")
    chooser = next(iter(m.pending()))
    assert chooser != taker
    m.resign(chooser)
    new_chooser = next(iter(m.pending()))
    assert new_chooser not in (chooser, taker)
    assert m.pending()[new_chooser].kind == "choose-pile"


def test_resign_during_the_draft_is_refused() -> None:
    m = Match(G, "", 2, seed=1)
    with pytest.raises(IllegalAction):
        m.resign(0)


def test_decision_texts_in_both_languages() -> None:
    m = _match(2)
    for kind, params in [
        ("turn", ()),
        ("turn", (("pile", 2),)),
        ("choose-pile", (("taker", 1),)),
        ("draft", ()),
        ("joker-pull", (("pile", 1),)),
        ("tutor", ()),
        ("target", (("ability", "reveal"),)),
    ]:
        d = Decision(kind, params)
        en = said(G.decision_text(d), "en")
        fr = said(G.decision_text(d), "fr")
        assert en and fr and en != fr
    # what ``pending`` asks at the first turn
    for decision in m.pending().values():
        assert said(G.decision_text(decision)) == (
            "Play a card between the two piles, create a link, or take damage (D)."
        )
    taker = Decision("choose-pile", (("taker", 1),))
    assert said(G.decision_text(taker, NAMES)) == "Choose the pile Bob takes as damage (P1 or P2)."
    assert "Bob" in said(G.decision_text(taker, NAMES), "fr")
    assert "paquet 2" in said(G.decision_text(Decision("turn", (("pile", 2),))), "fr")


@pytest.mark.parametrize(
    ("event", "en", "fr"),
    [
        (Event("play", {"seat": 0, "card": "Pi7", "pile": 0}), "Alice plays Pi7 → pile 1", "joue"),
        (
            Event("damage", {"seat": 1, "amount": 3, "life": 7, "pile": 1, "cards": []}),
            "Bob takes 3 damage; 7 HP left",
            "dégât",
        ),
        (
            Event("coup-fatal", {"seat": 0, "target": 1, "amount": 4, "cards": [], "life": 1}),
            "Coup fatal! Bob takes 4 damage",
            "Coup fatal",
        ),
        (
            Event("lock", {"seat": 0, "target": 2, "pile": 1}),
            "Chloé must play on pile 2",
            "paquet 2",
        ),
        (Event("reveal", {"seat": 0, "target": 1, "cards": ["Ni1", "Ni2"]}), "Ni1, Ni2", "révèle"),
        (Event("resign", {"seat": 2}), "Chloé resigns", "abandonne"),
    ],
)
def test_event_lines(event: Event, en: str, fr: str) -> None:
    assert en in said(G.describe_event(event, NAMES), "en")
    assert fr in said(G.describe_event(event, NAMES), "fr")


def test_public_draws_say_how_many_not_which() -> None:
    secret = Event("draw", {"seat": 1, "cards": ["Ni4"]}, frozenset({1}), {"seat": 1, "count": 1})
    public = secret.for_seat(0)
    assert public is not None
    line = said(G.describe_event(public, NAMES))
    assert "Ni4" not in line and "1" in line


def test_summary_shows_only_the_observer_hand() -> None:
    m = _match(2)
    seat = next(iter(m.pending()))
    own = m.view(seat)
    text = said(G.summary(own, NAMES))
    hand = own.players[seat].hand
    assert hand is not None and " ".join(hand) in text
    other = said(G.summary(m.view(1 - seat), NAMES), "fr")
    assert " ".join(hand) not in other and "Votre main" in other and "PV" in other


def test_refusals_have_a_french_reason() -> None:
    m = _match(2)
    seat = next(iter(m.pending()))
    with pytest.raises(RulesError) as err:
        m.play(seat, "99>1")
    assert said(err.value, "en") != said(err.value, "fr")
    assert "main" in said(err.value, "fr")


def test_preset_characters_log_the_deal_and_first_player() -> None:
    m = _match(2)
    kinds = [item.event.kind for item in m.log]
    assert kinds == ["deal", "deal", "first-player", "turn"]
    seat = m.state.first_player
    mine = [e.event for e in m.events(seat) if e.event.kind == "deal"]
    assert any(e.data.get("cards") for e in mine)
    spectator = [e.event for e in m.events(None) if e.event.kind == "deal"]
    assert all("cards" not in e.data and e.data["count"] == 5 for e in spectator)
    restored = Match.restore(m.snapshot())
    assert [i.event for i in restored.log] == [i.event for i in m.log]


def test_hp_below_zero_reads_zero_as_on_the_board() -> None:
    """Overkill: the log says 0 HP left, as the final board does, not -1."""
    event = Event("damage", {"seat": 1, "amount": 3, "life": -1, "pile": 0, "cards": []})
    assert said(G.describe_event(event, NAMES)) == "Bob takes 3 damage; 0 HP left."
    assert said(G.describe_event(event, NAMES), "fr") == "Bob prend 3 dégât(s) ; reste 0 PV."


def test_french_summary_puts_a_space_before_colons() -> None:
    m = _match(2)
    text = said(G.summary(m.view(0), NAMES), "fr")
    assert "Paquet 1 : " in text and "Votre main : " in text
    assert "):" not in text
    assert "Pile 1: " in said(G.summary(m.view(0), NAMES))


@pytest.mark.parametrize("locale", ["en", "fr"])
def test_rules_details_give_every_help_card(locale: str) -> None:
    """« la carte aide de jeu [...] face visible devant lui, elle indique ses capacités
    et ses points de vies »: /rules lists every character's HP and the full texts of
    its special and unique abilities, in the reader's language."""
    from engine.games.between_battle import deck_file

    text = said(G.rules_details(), locale)
    for spec in deck_file().characters:
        assert said(Msg.of(f"bb-char-{spec.id}"), locale) in text
        assert ABILITY_TEXTS[spec.special][locale] in text
        assert ABILITY_TEXTS[spec.unique][locale] in text
    if locale == "fr":
        assert "Spéciale (3, 8, 14) : " in text and "PV" in text and "Special" not in text
    else:
        assert "Special (3, 8, 14): " in text and "HP" in text and "Spéciale" not in text
    assert GAMES["via-belli"].rules_details() is None


# The help cards' full texts, from the seed (they were the engine's
# ``ABILITY_TEXTS`` table before the catalogue).
ABILITY_TEXTS = {
    "discard-random": {
        "en": "Discard a random card from your opponent's hand.",
        "fr": "Défaussez une carte dans la main de l'adversaire aléatoirement.",
    },
    "draw": {"en": "Draw a card from your deck.", "fr": "Piochez une carte de votre deck."},
    "lock": {
        "en": "On their next turn, your opponent must play on this pile (or take damage), "
        "so they cannot create a link.",
        "fr": "Votre adversaire, lors de son prochain tour, doit jouer sur ce paquet (ou "
        "prendre des dégâts), il n'est donc pas possible de « créer un lien ».",
    },
    "extra-turn": {
        "en": "Play another turn immediately.",
        "fr": "Vous jouez immédiatement un nouveau tour.",
    },
    "tutor": {
        "en": "Take a card of your choice from your deck into your hand, then shuffle your deck.",
        "fr": "Prenez une carte au choix depuis votre deck et ajoutez-la à votre main. "
        "Mélangez ensuite votre deck.",
    },
    "steal-top": {
        "en": "Take the top card of the other pile and put it on this one, keeping its "
        "orientation.",
        "fr": "Prenez la carte du dessus de l'autre paquet et placez-la par-dessus celle-ci. "
        "Gardez son sens d'orientation.",
    },
    "cancel": {
        "en": "On their next turn, your opponent does not apply the ability of the card they "
        "play. Creating or playing a link is not an ability.",
        "fr": "Votre adversaire, lors de son prochain tour, n'applique pas la capacité de sa "
        "carte jouée. Créer ou jouer une carte « lien » n'est pas une capacité.",
    },
    "reveal": {
        "en": "Your opponent reveals their current hand and keeps it face up.",
        "fr": "Votre adversaire révèle sa main actuelle et la place face visible devant lui.",
    },
}
