"""What the end-to-end matches of Chroniques de Liber showed (issue 14),
checked without Discord:

* at every level of a seat's menu, two choices must be told apart by what is
  shown (a select option shows its label and its detail; a button of the
  flat layout, its label only): two Prêtres' "Prêtre: Healing" in one
  select, two "Block with Milicien" buttons;
* French agreement: "Archer (alice) est empoisonnée", "Martyr (eve) est
  paralysée" (the card names are of both genders)."""

from __future__ import annotations

from collections import Counter

import pytest

from bot.i18n import menu_entries, t
from bot.menu import MenuNode, build_menu
from engine import GAMES, rng

GAME = GAMES["liber"]


def _twins(node: MenuNode, flat: bool) -> list[str]:
    """Sibling choices shown the same (label, and detail unless buttons)."""
    shown = Counter(
        (c.step.label, "" if flat else c.step.detail) for c in node.children if c.step is not None
    )
    twins = [f"{label} {detail}".strip() for (label, detail), n in shown.items() if n > 1]
    for child in node.children:
        twins += _twins(child, False)
    return twins


def _twins_in_random_games(games: int, locale: str) -> list[str]:
    found: list[str] = []
    for seed in range(games):
        state = GAME.setup(GAME.options(""), 2, seed)
        chooser = rng.seed_state(seed, "labels")
        while GAME.pending(state):
            for seat in GAME.pending(state):
                menu = build_menu(menu_entries(GAME, state, seat, locale))
                found += _twins(menu.root, menu.flat)
            seat = sorted(GAME.pending(state))[0]
            action, chooser = rng.choice(chooser, GAME.legal_actions(state, seat))
            state, _ = GAME.apply(state, seat, action)
    return sorted(set(found))


@pytest.mark.parametrize("locale", ["en", "fr"])
def test_choices_of_one_level_can_be_told_apart(locale: str) -> None:
    twins = _twins_in_random_games(6, locale)
    assert not twins, twins


@pytest.mark.parametrize(
    "key",
    [
        "lb-ev-poisoned",
        "lb-ev-paralysed",
        "lb-ev-kill-destroyed",
        "lb-ev-kill-coup-fatal",
        "lb-refuse-card-timing",
        "lb-refuse-moved",
        "lb-refuse-sick",
        "lb-refuse-paralysed",
    ],
)
def test_french_event_lines_agree_with_masculine_cards(key: str) -> None:
    text = t("fr", key, card="Archer", owner="alice", name="bob")
    assert "Archer" in text and "{" not in text, text
    feminine = ("empoisonnée", "paralysée", "détruite", "jouée", "arrivée", "déplacée")
    assert not any(w in text for w in feminine), text


def test_menu_details_are_plain_text() -> None:
    state = GAME.setup(GAME.options(""), 2, 3)
    menu = build_menu(menu_entries(GAME, state, 0, "en"))
    details = [step.detail for _, path in menu.entries for step in path if step.detail]
    assert details
    assert not [d for d in details if "`" in d], details[:5]


def _labels(node: MenuNode) -> list[str]:
    out = [c.step.label for c in node.children if c.step is not None]
    for child in node.children:
        out += _labels(child)
    return out


@pytest.mark.parametrize("locale", ["en", "fr"])
def test_menu_labels_start_with_a_capital(locale: str) -> None:
    """Found in e2e: a general's effects were the only lower-case choices
    (« paralyser », "heal 3 PV") among « Jouer Archer », "Attack with …"."""
    lower: set[str] = set()
    for seed in range(6):
        state = GAME.setup(GAME.options(""), 2, seed)
        chooser = rng.seed_state(seed, "labels")
        while GAME.pending(state):
            for seat in GAME.pending(state):
                menu = build_menu(menu_entries(GAME, state, seat, locale))
                lower |= {label for label in _labels(menu.root) if label[:1].islower()}
            seat = sorted(GAME.pending(state))[0]
            action, chooser = rng.choice(chooser, GAME.legal_actions(state, seat))
            state, _ = GAME.apply(state, seat, action)
    assert not lower, sorted(lower)


@pytest.mark.parametrize(
    ("key", "params", "expected"),
    [
        ("lb-menu-object", {"card": "Reliquaire", "unit": "Martyr"}, "Reliquaire on Martyr"),
        ("lb-ev-bonus", {"owner": "alice", "amount": 1}, "alice's units gain"),
        ("lb-effect-heal", {"amount": 3}, "Heal 3 PV"),
    ],
)
def test_english_phrasing(key: str, params: dict[str, object], expected: str) -> None:
    """Found in e2e: "Reliquaire of Martyr" (the object is on the unit),
    "Units of alice gain…"."""
    assert expected in t("en", key, **params)


def test_a_resigner_is_alone_in_last_place() -> None:
    """Found through the host's bots test (tests/bot/test_automation.py): seat 0
    resigns at once, the two others play on until a general falls."""
    state = GAME.setup(GAME.options(""), 3, 0)
    state, _ = GAME.resign(state, 0)
    chooser = rng.seed_state(0, "r")
    while GAME.pending(state):
        seat = sorted(GAME.pending(state))[0]
        action, chooser = rng.choice(chooser, GAME.legal_actions(state, seat))
        state, _ = GAME.apply(state, seat, action)
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.reason == "general"
    assert outcome.ranking[-1] == (0,), outcome.ranking
