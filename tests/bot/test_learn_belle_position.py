"""The Belle Position lesson (``bot/learn/games/belle_position.py``): it
plays through, its texts exist in both languages and read well, and each
step shows the mechanic its text teaches (seed 001, quoted per test)."""

from __future__ import annotations

import functools
from typing import Any

import i18n
from bot.learn import lesson_for
from bot.learn.games.belle_position import CUIRASSIERS, LESSON, LIGNE_LEFT, LIGNE_RIGHT, PRUSSIAN
from bot.learn.lesson import Tutor, walk
from engine.core import Event
from tests.bot.textcheck import problems

# The German positions' indices in the state (FG FC FD AG AC AD).
AG, AC, AD = 3, 4, 5


def _keys() -> list[str]:
    keys = [LESSON.intro, LESSON.outro]
    for step in LESSON.steps:
        keys += [k for k in (step.say, step.hint, step.done) if k is not None]
    return keys


def _steps() -> list[tuple[Tutor, list[Event]]]:
    """For each step, a tutor played up to it and the events the learner was
    shown after that step's move (each entry keeps its own state)."""
    out = []
    for number in range(1, len(LESSON.steps) + 1):
        tutor = Tutor(LESSON)
        events: list[Event] = tutor.new_events()
        for step in LESSON.steps[:number]:
            attempt = tutor.act(step.expect[0])
            assert attempt.accepted, step.say
            events = tutor.new_events()
        out.append((tutor, events))
    return out


@functools.cache
def _played() -> list[Any]:
    """The steps, played once for the whole file (on first use, not at import)."""
    return _steps()


def _state(number: int) -> Any:
    return _played()[number - 1][0].match.state


def _kinds(number: int, kind: str) -> list[dict[str, Any]]:
    return [dict(e.data) for e in _played()[number - 1][1] if e.kind == kind]


def _card(state: Any, seat: int, uid: str) -> Any:
    return next(c for c in state.armies[seat].cards if c.uid == uid)


def test_the_lesson_walks_through_and_is_registered() -> None:
    tutor = walk(LESSON)
    assert tutor.finished
    assert lesson_for("belle-position") is LESSON
    assert 4 <= len(LESSON.steps) <= 8
    assert all(step.expect for step in LESSON.steps)


def test_every_text_exists_in_both_languages_and_reads_well() -> None:
    for key in _keys():
        assert key.startswith("learn-bp-")
        for lang in ("en", "fr"):
            assert i18n.has(lang, key), (lang, key)
            text = i18n.translate(lang, key)
            assert problems(text, lang) == [], (lang, key, problems(text, lang))
            assert len(text) <= 600, (lang, key, len(text))


def test_each_step_names_the_move_it_asks_for() -> None:
    for step in LESSON.steps:
        for lang in ("en", "fr"):
            assert f"`{step.expect[0]}`" in i18n.translate(lang, step.say), (lang, step.say)
    for lang in ("en", "fr"):
        # the closing line after the outro names the command in the player's language
        assert "/lobby" not in i18n.translate(lang, LESSON.outro)


def test_step_1_deploys_the_cuirassiers_face_down() -> None:
    """« Les joueurs examinent leurs cartes, puis déploient faces cachées les
    cartes de leur choix dans leurs trois positions de bataille »."""
    card = _card(_state(1), 0, CUIRASSIERS)
    assert card.type == "cuirassiers" and card.loc == 1 and not card.up
    assert _kinds(1, "deploy") == [
        {"seat": 0, "card": CUIRASSIERS, "type": "cuirassiers", "position": "FC"}
    ]
    # The tutor sees nothing of it.
    tutor = _played()[0][0]
    assert all(
        e.event.kind != "deploy" for e in tutor.match.events(1, 0) if e.event.data.get("seat") == 0
    )


def test_step_2_fewer_terrain_cards_plays_first() -> None:
    """« Le camp qui a déployé le moins de cartes de terrain joue en premier »."""
    assert _kinds(2, "first-player") == [{"seat": 0, "terrain": [0, 1], "rolls": []}]
    state = _state(2)
    assert state.phase == "movement" and state.active == 0
    # The German wings hold no unit (only the Bois on the left wing).
    german = state.armies[1].cards
    assert {c.type for c in german if c.loc in (AG, AD)} == {"bois"}


def test_step_3_moving_into_an_enemy_position_engages_it() -> None:
    """« Lorsqu'une carte est déplacée vers une position contenant des cartes
    ennemies, elle devient engagée »."""
    (move,) = _kinds(3, "move")
    assert move["card"] == CUIRASSIERS and move["to"] == "AC" and move["engaged"] is True
    assert _card(_state(3), 0, CUIRASSIERS).loc == AC


def test_step_4_reveal_reinforcement_enemy_fire_and_cohesion() -> None:
    """« toutes les cartes des deux camps engagées sont révélées face visible à
    l'issue d'une phase de mouvements »; « 4 – Renforts. Tirer une carte de la
    pioche »; « un test par jeton avec 1d6 »."""
    assert {e["card"] for e in _kinds(4, "reveal:cuirassiers")} == {CUIRASSIERS}
    assert [e["seat"] for e in _kinds(4, "reinforcement")][:1] == [0]
    (fire,) = _kinds(4, "melee")
    assert fire["seat"] == 1 and fire["card"] == PRUSSIAN and fire["hits"] == 1
    assert fire["status"] == "defence"
    assert sum(d <= fire["threshold"] for d in fire["dice"]) == fire["hits"]
    assert _kinds(4, "loss") == [
        {"seat": 0, "card": CUIRASSIERS, "type": "cuirassiers", "position": "AC", "tokens": 1}
    ]
    (test,) = _kinds(4, "cohesion")
    assert test["card"] == CUIRASSIERS and test["passed"] is True
    assert test["dice"][0] <= test["target"]
    card = _card(_state(4), 0, CUIRASSIERS)
    assert card.up and card.tokens == 0
    assert _played()[3][0].match.state.phase == "combat"


def test_step_5_melee_rolls_vc_dice_against_the_firepower() -> None:
    """« on tire 1d6 par point de VC » ; « une unité de puissance de feu 3 doit
    obtenir des « 1 », des « 2 » ou des « 3 » »."""
    (fire,) = _kinds(5, "melee")
    assert fire["seat"] == 0 and fire["card"] == CUIRASSIERS
    assert fire["status"] == "attack" and fire["vc"] == 3 and fire["threshold"] == 3
    assert len(fire["dice"]) == 3
    assert fire["hits"] == sum(d <= 3 for d in fire["dice"]) == 1
    tokens = sum(c.tokens for c in _state(5).armies[1].cards if c.loc == AC)
    assert tokens == 1
    assert _card(_state(5), 0, CUIRASSIERS).fought


def test_steps_6_and_7_win_by_occupying_two_abandoned_positions() -> None:
    """« Un joueur est déclaré vainqueur à l'instant où il occupe deux
    positions ennemies abandonnées »."""
    assert _kinds(6, "conquered") == [{"position": "AD", "seat": 0}]
    assert _card(_state(6), 0, LIGNE_LEFT).loc == AD
    assert not _played()[5][0].match.is_over
    assert _kinds(7, "conquered") == [{"position": "AG", "seat": 0}]
    assert _card(_state(7), 0, LIGNE_RIGHT).loc == AG
    outcome = _played()[6][0].match.outcome()
    assert outcome is not None
    assert outcome.reason == "occupation" and outcome.ranking == ((0,), (1,))
