"""The Chroniques de Liber lesson (``bot/learn/games/liber.py``): it plays
through, its texts exist in English and French and read well, and each step
shows the mechanic its text teaches (assertions on the state and the events)."""

from __future__ import annotations

from typing import Any

import pytest

import i18n
from bot.learn import Tutor, lesson_for, walk
from bot.learn.games.liber import LESSON
from engine.core import Event
from tests.bot.textcheck import problems

PLAINE, ARRIERE, FRONT = 0, 1, 2


def _keys() -> list[str]:
    keys = [LESSON.intro, LESSON.outro]
    for step in LESSON.steps:
        keys += [k for k in (step.say, step.hint, step.done) if k]
    return keys


def _play() -> tuple[Tutor, list[list[Event]], list[Any]]:
    """The lesson with the moves it asks for: the events each step showed
    the learner and the state after each step (the tutor's reply included)."""
    tutor = Tutor(LESSON)
    tutor.new_events()
    shown, states = [], []
    for step in LESSON.steps:
        attempt = tutor.act(step.expect[0])
        assert attempt.accepted, step.say
        shown.append(tutor.new_events())
        states.append(tutor.match.state)
    return tutor, shown, states


def _piece(state: Any, seat: int, line: int, place: int) -> Any:
    return state.players[seat].lines[line][place - 1]


def test_the_lesson_walks_to_its_end() -> None:
    assert lesson_for("liber") is LESSON
    tutor = walk(LESSON)
    assert tutor.finished and not tutor.match.is_over


def test_every_step_asks_for_a_move_the_rules_accept() -> None:
    tutor = Tutor(LESSON)
    for step in LESSON.steps:
        assert step.expect, "every step of this lesson names its move"
        assert step.expect[0] in tutor.legal()
        notation, _, why = tutor.hint()
        assert notation == step.expect[0] and why is not None
        assert tutor.act(notation).accepted


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_texts_exist_and_read_well(lang: str) -> None:
    known = set(i18n.keys(lang))
    for key in _keys():
        assert key.startswith("learn-lb-")
        assert key in known, f"{key} missing in {lang}"
        text = i18n.translate(lang, key)
        assert problems(text, lang) == [], (key, text)
        assert len(text) < 600, (key, len(text))
    other = "fr" if lang == "en" else "en"
    for key in _keys():
        assert i18n.translate(lang, key) != i18n.translate(other, key), key
    # Each step's text names the move it asks for, as it is typed.
    for step in LESSON.steps:
        assert f"`{step.expect[0]}`" in i18n.translate(lang, step.say), step.say
    # the closing line after the outro names the command in the player's language
    assert "/lobby" not in i18n.translate(lang, LESSON.outro)


def test_each_step_shows_its_mechanic() -> None:
    tutor, shown, states = _play()
    place, end_turn, window, move, attack_phase, attack, impatient, general = shown

    # 1. A unit on the back line costs its gold plus 2 (Berserker: 2 + 2),
    #    and arrives with its summoning sickness.
    assert [(e.kind, e.data["card"], e.data["gold"]) for e in place] == [("play", "berserker", 4)]
    berserker = _piece(states[0], 0, ARRIERE, 2)
    assert berserker.card == "berserker" and berserker.sick
    assert states[0].players[0].gold == 1
    # 2. The first round is placement only: ending it ends the turn; the
    #    tutor's draw phase gives it a card and 5 gold, and it places a
    #    Frondeur on its front.
    assert [e.kind for e in end_turn][:3] == ["turn", "draw", "gold"]
    assert _piece(states[1], 1, FRONT, 2).card == "frondeur"
    assert 0 in tutor.game.pending(states[1]) and states[1].window is not None
    # 3. The learner's response window (end of the tutor's placement) is
    #    passed; the learner's turn begins with its draw phase: 1 + 5 gold.
    assert [e.kind for e in window] == ["pass", "turn", "draw", "gold"]
    assert states[2].players[0].gold == 6 and states[2].active == 0
    # 4. One line forward: a2 to f2.
    assert [(e.kind, e.data["from"], e.data["to"]) for e in move] == [
        ("move", [0, ARRIERE, 1], [0, FRONT, 1])
    ]
    assert _piece(states[3], 0, FRONT, 2).card == "berserker"
    # 5. The attack phase begins.
    assert [(e.kind, e.data["phase"]) for e in attack_phase] == [("phase", "attack")]
    # 6. Melee front to front: the Frondeur dies, 4 VP (2 damage counted,
    #    doubled by Fanatique), 1 faith; its riposte wounds the Berserker.
    kinds = [e.kind for e in attack]
    assert kinds == ["attack", "strike", "kill", "faith", "strike"]
    assert attack[1].data["vp"] == 4 and attack[2].data["card"] == "frondeur"
    assert attack[4].data["dealer"] == "frondeur" and attack[4].data["damage"] == 1
    after = states[5]
    assert (after.players[0].vp, after.players[0].faith) == (4, 1)
    assert _piece(after, 0, FRONT, 2).damage == 1
    assert all(piece is None for piece in after.players[1].lines[FRONT])
    # 7. An Impatient Recrue on the front (1 + 4 gold), ready at once.
    recrue = _piece(states[6], 0, FRONT, 3)
    assert recrue.card == "recrue" and not recrue.sick
    assert [(e.kind, e.data["gold"]) for e in impatient] == [("play", 5)]
    # 8. The enemy front is empty, so the general on the back line is in
    #    reach: 2 damage and no VP; the general strikes back and kills it.
    strikes = [e for e in general if e.kind == "strike"]
    assert [(e.data["target"], e.data["damage"], e.data["vp"]) for e in strikes] == [
        ("corwin", 2, 0),
        ("recrue", 2, 0),
    ]
    corwin = _piece(states[7], 1, ARRIERE, 3)
    assert corwin.general and corwin.damage == 2
    assert _piece(states[7], 0, FRONT, 3) is None
    assert states[7].players[0].vp == 4
    assert tutor.finished
