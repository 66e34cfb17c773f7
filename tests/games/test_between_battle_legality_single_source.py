"""Between Battle: what is legal and why an action is refused come from one
set of checks (``engine/games/between_battle/legality.py``).

``legal_actions`` lists exactly the actions the check accepts, ``apply``
refuses exactly those it refuses, and the refusal's sentence is the one the
check produced (``text.refusal_text``).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from engine import GAMES, rng
from engine.errors import IllegalAction, RulesError
from engine.games.between_battle import (
    Action,
    GivePile,
    Link,
    Pick,
    Play,
    Pull,
    State,
    TakeDamage,
    Target,
    Tutor,
    legality,
)
from engine.games.between_battle import text as bb_text
from tests.games.bb_helpers import said, scenario

G = GAMES["between-battle"]
LABELS = [str(v) for v in range(1, 17)] + ["X"]


def _random_states(games: int) -> Iterator[tuple[State, int]]:
    """States of random games over every conformance option set and seat count
    (one in three steps), with the seat that decides."""
    options = G.conformance_options
    r = rng.seed_state(13, "single-source")
    for k in range(games):
        try:
            state = G.setup(G.options(options[k % len(options)]), 2 + k % 3, k)
        except RulesError:
            continue  # a preset character list for another seat count
        for step in range(G.max_actions):
            pending = G.pending(state)
            if not pending:
                break
            seat = min(pending)
            legal = G.legal_actions(state, seat)
            if step % 3 == 0:
                yield state, seat
            i, r = rng.randbelow(r, len(legal))
            state, _ = G.apply(state, seat, legal[i])


def _near_misses(state: State, seat: int) -> list[Action]:
    """Actions close to the legal ones: every card label on every pile (in hand
    or not), links, damage, both piles to give, cards to pull or take, every
    seat as a target, every character."""
    out: list[Action] = []
    for label in LABELS:
        out += [Play(label, 0), Play(label, 1), Link(label, 0), Link(label, 1)]
    out += [TakeDamage(), GivePile(0), GivePile(1)]
    codes = ("Pi", "Ch", "Co", "Ni")
    out += [Pull(code + label) for code in codes for label in ("3", "7", "10", "X")]
    out += [Tutor(label) for label in ("1", "5", "10", "14", "X")]
    out += [Target(s) for s in range(len(state.players))]
    out += [Pick(c) for c in ("pirate", "chevalier", "cowboy", "ninja")]
    return out


def test_legal_actions_and_refusals_come_from_the_same_checks() -> None:
    seen_keys: set[str] = set()
    states = 0
    for state, seat in _random_states(40):
        states += 1
        legal = G.legal_actions(state, seat)
        for action in legal:
            assert legality.refusal(state, seat, action) is None, (state, action)
        for action in _near_misses(state, seat):
            refusal = legality.refusal(state, seat, action)
            assert (refusal is None) == (action in legal), (G.format_action(action), refusal)
            if refusal is None:
                continue
            seen_keys.add(refusal.key)
            msg = bb_text.refusal_text(refusal)
            with pytest.raises(IllegalAction) as exc:
                G.apply(state, seat, action)
            assert exc.value.code == "illegal"
            assert exc.value.params == {"action": G.format_action(action)}
            assert exc.value.msg == msg
    assert states > 300
    # the walk meets the common refusals (the rare ones have scenarios below)
    assert {"no-card", "not-between", "turn-expected", "not-now", "not-a-link"} <= seen_keys


# Every refusal, with the sentences players read (the same as before the
# checks were shared, except ``lock-and-empty-pile``, which used to read "The 7
# is not between 10 and None.").
CASES = [
    (
        "no-card",
        {},
        "9>1",
        "You have no 9 in hand.",
        "Vous n'avez pas de 9 en main.",
    ),
    (
        "not-between",
        {},
        "2>1",
        "The 2 is not between 5 and 10.",
        "Le 2 n'est pas compris entre 5 et 10.",
    ),
    (
        "locked-pile",
        {"turn_lock": 0},
        "7>2",
        "The Chevalier forces you to play on pile 1.",
        "Le Chevalier vous oblige à jouer sur le paquet 1.",
    ),
    (
        "lock-no-link",
        {"turn_lock": 0},
        "5+1",
        "Under the Chevalier's lock you cannot create a link.",
        "Sous l'effet du Chevalier, vous ne pouvez pas créer de lien.",
    ),
    (
        "not-a-link",
        {},
        "7+1",
        "The 7 is not a link card.",
        "Le 7 n'est pas une carte lien.",
    ),
    (
        "no-open-link",
        {},
        "5+2",
        "Pile 2 has no open link to connect to.",
        "Le paquet 2 n'a pas de lien ouvert à compléter.",
    ),
    (
        "turn-expected",
        {},
        "P1",
        "Now play a card, create a link or take damage (D).",
        "Jouez une carte, créez un lien ou prenez des dégâts (D).",
    ),
]


@pytest.mark.parametrize(("key", "fields", "notation", "en", "fr"), CASES)
def test_refusal_sentences(
    key: str, fields: dict[str, int], notation: str, en: str, fr: str
) -> None:
    state = scenario(["2 3 5 7 X", "6"], piles=("Ch4 Co5~", "Ch10"), **fields)
    _assert_refused(state, notation, key, en, fr)


def _assert_refused(state: State, notation: str, key: str, en: str, fr: str) -> None:
    action = G.parse_action(notation)
    refusal = legality.refusal(state, state.decider, action)
    assert refusal is not None and refusal.key == key
    assert notation not in {G.format_action(a) for a in G.legal_actions(state, state.decider)}
    with pytest.raises(IllegalAction) as exc:
        G.apply(state, state.decider, action)
    assert (said(exc.value, "en"), said(exc.value, "fr")) == (en, fr)


def test_refusal_empty_pile() -> None:
    # « Si il y a une zone du champ de bataille vide, le joueur est obligé de jouer dessus »
    state = scenario(["2 7 X", "6"], piles=("Ch4", ""))
    _assert_refused(
        state,
        "7>1",
        "empty-pile",
        "Pile 2 is empty: you must play there.",
        "Le paquet 2 est vide : vous devez jouer dessus.",
    )
    _assert_refused(
        state,
        "X>1",
        "empty-pile",
        "Pile 2 is empty: you must play there.",
        "Le paquet 2 est vide : vous devez jouer dessus.",
    )


def test_refusal_joker_only_on_a_locked_pile_alone() -> None:
    state = scenario(
        ["7 X", "6"], opts="locked_pile_alone=joker-only", piles=("Ch4", ""), turn_lock=0
    )
    _assert_refused(
        state,
        "7>1",
        "joker-only",
        "The other pile is empty: only the joker goes on pile 1 (Chevalier).",
        "L'autre paquet est vide : seul le joker va sur le paquet 1 (Chevalier).",
    )
    assert {G.format_action(a) for a in G.legal_actions(state, 0)} == {"X>1", "D"}


def test_refusal_lock_and_empty_pile_names_both_rules() -> None:
    """Option ``lock_beats_empty_pile=false``: locked on pile 1 while pile 2 is
    empty, only the joker can be played (« (X) = Cette carte peut toujours être
    jouée »). The refusal says so; it used to read "The 7 is not between 10 and
    None."."""
    state = scenario(
        ["3 7 X", "5 9"], opts="lock_beats_empty_pile=false", piles=("Ch4 Ch10", ""), turn_lock=0
    )
    assert {G.format_action(a) for a in G.legal_actions(state, 0)} == {"X>1", "D"}
    _assert_refused(
        state,
        "7>1",
        "lock-and-empty-pile",
        "Pile 2 is empty but the Chevalier forces you to play on pile 1: only the joker can "
        "go there, or take damage (D).",
        "Le paquet 2 est vide mais le Chevalier vous oblige à jouer sur le paquet 1 : seul le "
        "joker peut y aller, sinon prenez des dégâts (D).",
    )
    _assert_refused(
        state,
        "X>2",
        "locked-pile",
        "The Chevalier forces you to play on pile 1.",
        "Le Chevalier vous oblige à jouer sur le paquet 1.",
    )


def test_refusal_damage_with_empty_piles() -> None:
    state = scenario(["3 7", "6"], opts="damage_with_empty_piles=refused")
    _assert_refused(
        state,
        "D",
        "damage-empty-piles",
        "Both piles are empty: there is no damage to take, play a card.",
        "Les deux paquets sont vides : pas de dégâts à prendre, jouez une carte.",
    )


def test_refusal_give_empty_pile() -> None:
    state = scenario(["3 7", "6"], piles=("Ch4", ""), last_player=1)
    state, _ = G.apply_text(state, 0, "D")
    assert state.phase == "choose-pile"
    _assert_refused(
        state,
        "P2",
        "give-empty",
        "Pile 2 is empty: give the pile that has cards.",
        "Le paquet 2 est vide : donnez le paquet qui a des cartes.",
    )


def test_refusal_not_now() -> None:
    state = G.setup(G.options(""), 2, 1)
    _assert_refused(
        state,
        "7>1",
        "not-now",
        "That is not possible now: choose a character.",
        "Impossible maintenant : choisissez un personnage.",
    )
