"""Every game's guided lesson (``bot/learn/games/<game>.py``): it plays
through, its texts exist in English and French and read well, a move the
lesson does not ask for and a move the rules refuse are answered as the
learner should read them, and every hint is a legal move.

Runs over every game of ``engine.GAMES`` whose lesson module exists."""

from __future__ import annotations

import importlib.util

import pytest

import i18n
from bot.i18n import game_text, t
from bot.learn import Lesson, Tutor, lesson_for, walk
from bot.learn.sessions import Sessions, step_title, turn_lines
from engine import GAMES
from tests.bot.textcheck import problems

LESSON_GAMES = [
    gid
    for gid in GAMES
    if importlib.util.find_spec(f"bot.learn.games.{gid.replace('-', '_')}") is not None
]
LANGS = ("en", "fr")


def lesson_keys(lesson: Lesson) -> list[str]:
    keys = [lesson.intro, lesson.outro, *(k for k in lesson.names if k)]
    for step in lesson.steps:
        keys += [k for k in (step.say, step.hint, step.done) if k]
    return keys


def test_there_is_a_lesson() -> None:
    assert "between-battle" in LESSON_GAMES


@pytest.mark.parametrize("game_id", LESSON_GAMES)
def test_walk_plays_the_lesson_through(game_id: str) -> None:
    lesson = lesson_for(game_id)
    assert 4 <= len(lesson.steps) <= 8, "a lesson shows 4 to 8 situations"
    tutor = walk(lesson)
    assert tutor.finished


@pytest.mark.parametrize("game_id", LESSON_GAMES)
@pytest.mark.parametrize("locale", LANGS)
def test_every_key_exists_and_reads_well(game_id: str, locale: str) -> None:
    lesson = lesson_for(game_id)
    for key in lesson_keys(lesson):
        assert i18n.has(locale, key), f"{key} missing in {locale}"
    # the whole lesson as the learner reads it, refusals and hints included
    sessions = Sessions()
    session, turn = sessions.start(1, game_id, "Alice")
    texts = [step_title(locale, session), *turn_lines(locale, session, turn)]
    while not session.finished:
        texts += turn_lines(locale, session, sessions.hint(1))
        texts += turn_lines(locale, session, sessions.act(1, "zzz"))
        notation = session.tutor.hint()[0]
        texts += turn_lines(locale, session, sessions.act(1, notation))
        texts.append(step_title(locale, session))
    for text in texts:
        assert text and problems(text, locale, ("Alice",)) == [], (text, problems(text, locale))


@pytest.mark.parametrize("game_id", LESSON_GAMES)
def test_a_move_the_lesson_does_not_ask_for_is_refused_with_what_it_wants(game_id: str) -> None:
    lesson = lesson_for(game_id)
    tutor = Tutor(lesson)
    checked = 0
    for step in lesson.steps:
        if not step.expect:
            break
        others = [n for n in tutor.legal() if n not in step.expect]
        if others:
            version = tutor.match.version
            attempt = tutor.act(others[0])
            assert not attempt.accepted and attempt.refusal is None
            assert attempt.wanted is not None
            words = game_text("en", attempt.wanted)
            assert words and words == game_text(
                "en",
                tutor.game.describe_action(
                    tutor.match.state, tutor.learner, tutor.game.parse_action(step.expect[0])
                ),
            )
            assert tutor.match.version == version, "a refused move changes nothing"
            checked += 1
        assert tutor.act(step.expect[0]).accepted
    assert checked, "no step offered another legal move to try"


@pytest.mark.parametrize("game_id", LESSON_GAMES)
def test_a_move_the_rules_refuse_gets_the_rules_sentence(game_id: str) -> None:
    tutor = Tutor(lesson_for(game_id))
    version = tutor.match.version
    attempt = tutor.act("zz9")
    assert not attempt.accepted and attempt.refusal is not None
    for locale in LANGS:
        sentence = game_text(locale, attempt.refusal)
        line = t(locale, "learn-refused", reason=sentence)
        assert sentence in line and problems(line, locale) == []
    assert tutor.match.version == version


@pytest.mark.parametrize("game_id", LESSON_GAMES)
def test_every_hint_is_legal(game_id: str) -> None:
    tutor = Tutor(lesson_for(game_id))
    while not tutor.finished:
        notation, words, _ = tutor.hint()
        assert tutor.accepts(notation)
        assert game_text("en", words) and game_text("fr", words)
        assert tutor.act(notation).accepted


# ---- Between Battle: what each step shows -------------------------------------------


def bb_at(step: int) -> Tutor:
    """The Between Battle lesson at the start of ``step`` (1-based)."""
    lesson = lesson_for("between-battle")
    tutor = Tutor(lesson)
    for s in lesson.steps[: step - 1]:
        assert tutor.act(s.expect[0]).accepted
    return tutor


def test_bb_step_1_both_piles_empty_any_card_anywhere() -> None:
    # « Au début, les deux zones de bataille sont vides » : any card, either pile
    tutor = bb_at(1)
    view = tutor.match.view(0)
    assert view.piles == ((), ())
    hand = [c[2:] for c in view.players[0].hand]
    assert {f"{c}>{p}" for c in hand for p in (1, 2)} <= set(tutor.legal())


def test_bb_step_2_only_values_strictly_between() -> None:
    # « un chiffre compris ENTRE les deux valeurs »
    tutor = bb_at(2)
    assert tutor.match.view(0).pile_values == (2, 15)
    legal = tutor.legal()
    assert "9>1" in legal and "6>2" in legal
    attempt = tutor.act("5>1")  # 5 is between too, but it is the link the lesson keeps
    assert attempt.wanted is not None


def test_bb_step_3_a_link_ignores_the_values() -> None:
    tutor = bb_at(3)
    view = tutor.match.view(0)
    assert view.pile_values == (12, 15)
    refused = tutor.act("6>1")  # 6 is not between 12 and 15
    assert refused.refusal is not None and refused.refusal.key.startswith("bb-refuse")
    assert tutor.act("5+1").accepted
    after = tutor.match.view(0)
    assert [c for c in after.piles[0]][:1] == ["Co5"]


def test_bb_steps_4_5_the_joker_brings_a_card_back() -> None:
    tutor = bb_at(4)
    assert tutor.match.view(0).pile_values == (5, 11)
    assert tutor.act("X>2").accepted
    assert "^Pi15" in tutor.legal()
    assert tutor.act("^Pi15").accepted


def test_bb_step_6_nothing_fits_take_damage() -> None:
    tutor = bb_at(6)
    assert tutor.match.view(0).pile_values == (13, 15)
    assert tutor.legal() == ["D"]
    hp = tutor.match.view(0).players[0].life
    assert tutor.act("D").accepted and tutor.finished
    assert tutor.match.view(0).players[0].life == hp - 3
