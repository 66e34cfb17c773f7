"""The Via Belli lesson (``bot/learn/games/via_belli.py``): it plays through,
its texts exist in English and French and read well, and each step shows the
mechanic its text teaches (assertions on the state and the events)."""

from __future__ import annotations

from typing import Any

import pytest

import i18n
from bot.learn import Tutor, lesson_for, walk
from bot.learn.games.via_belli import LESSON
from engine.core import Event
from tests.bot.textcheck import problems


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


def _unit(view: Any, tag: str) -> Any:
    return next(u for u in view.units if u.tag == tag)


def test_the_lesson_walks_to_its_end() -> None:
    assert lesson_for("via-belli") is LESSON
    tutor = walk(LESSON)
    assert tutor.finished
    assert tutor.match.is_over


def test_every_step_asks_for_a_move_the_rules_accept() -> None:
    tutor = Tutor(LESSON)
    for step in LESSON.steps:
        assert step.expect, "every step of this lesson names its move"
        assert tutor.accepts(step.expect[0])
        notation, _, why = tutor.hint()
        assert notation == step.expect[0] and why is not None
        assert tutor.act(notation).accepted


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_texts_exist_and_read_well(lang: str) -> None:
    known = set(i18n.keys(lang))
    for key in _keys():
        assert key.startswith("learn-vb-")
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
    summon, ambush, draw, inn, dog, column, conquer = shown

    # 1. Summon face up against the castle: 2 PA (IVK) of the 5, linked.
    assert [(e.kind, e.data["card"], e.data["cost"]) for e in summon] == [("summon", "Roturier", 2)]
    # 2. Ambush: 2 PA whatever the IVK, face down; the tutor sees no name.
    assert [(e.kind, e.data["cost"]) for e in ambush] == [("ambush", 2)]
    tutor_view = tutor.game.view(states[1], 1)
    hidden = _unit(tutor_view, "K15")
    assert not hidden.face_up and hidden.name is None
    # 3. The draw spends the last PA: the turn passes. The tutor's Espion
    #    attacks the castle, the Paladin is revealed and the Espion dies.
    kinds = [e.kind for e in draw]
    assert kinds[:2] == ["draw", "turn"] and "ambush-revealed" in kinds
    attack = next(e for e in draw if e.kind == "attack")
    assert attack.data["target_kind"] == "castle" and attack.data["seat"] == 1
    assert (attack.data["atk"], attack.data["def"], attack.data["result"]) == (0, 2, "lose")
    assert [d["card"] for d in attack.data["dead"]] == ["Espion"]
    # 4. A card touching face-down terrain reveals it and takes it; an inn
    #    gives its PA at once (5 - 1 + 1).
    assert [e.kind for e in inn] == ["summon", "terrain-revealed", "control", "inn-bonus"]
    after_inn = tutor.game.view(states[3], 0)
    m6 = next(t for t in after_inn.terrain if t.tag == "M6")
    assert (m6.kind, m6.controller) == ("inn", 0) and after_inn.players[0].inns == 1
    assert after_inn.pa == 5 and tutor.game.pending(states[2])[0].param("pa") == 5
    # 5. A paid face-up dog offers a free second dog; the learner has none.
    assert tutor.game.pending(states[3])[0].kind == "free-dog"
    assert [e.kind for e in dog] == ["free-dog-declined"]
    # 6. The Lancier is summoned along the Roturier, linked, with its free attack.
    after_column = tutor.game.view(states[5], 0)
    lancier = _unit(after_column, "O12")
    assert lancier.name == "Lancier" and lancier.supplied and lancier.free_attack
    assert after_column.pa == 2
    assert [e.kind for e in column] == ["summon"]
    # 7. The free attack takes the undefended castle: the learner wins.
    attack = next(e for e in conquer if e.kind == "attack")
    assert (attack.data["atk"], attack.data["def"], attack.data["result"]) == (3, 0, "win")
    assert "conquest" in [e.kind for e in conquer]
    outcome = tutor.match.outcome()
    assert outcome is not None and outcome.winner == 0 and outcome.reason == "conquest"
    assert tutor.finished
