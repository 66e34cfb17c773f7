"""Lessons in memory (``bot/learn/sessions.py``): one per user, acted on by
notation or menu choice, hints, quit, dropped after an hour without a click."""

from __future__ import annotations

import pytest

from bot.learn import lesson_for
from bot.learn.sessions import LESSON_TTL, LessonGone, Sessions, turn_lines

GAME = "between-battle"


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_start_then_play_the_lesson_to_its_end_by_notation() -> None:
    sessions = Sessions()
    session, turn = sessions.start(7, GAME, "Alice")
    assert turn.kind == "start" and session.tutor.step_index == 0
    for step in lesson_for(GAME).steps:
        turn = sessions.act(7, step.expect[0], session.number)
        assert turn.kind == "played"
    assert session.finished
    lines = turn_lines("en", session, turn)
    assert any("/lobby create game:between-battle" in line for line in lines)
    assert any(
        "/salon créer jeu:between-battle" in line for line in turn_lines("fr", session, turn)
    )
    sessions.finish(session)
    with pytest.raises(LessonGone):
        sessions.get(7)


def test_a_menu_choice_plays_the_entry_of_that_index() -> None:
    sessions = Sessions()
    session, _ = sessions.start(7, GAME, "Alice")
    entries = session.menu("en").entries
    index = [n for n, _ in entries].index("2>1")
    turn = sessions.choose(7, index, session.number)
    assert turn.kind == "played" and session.tutor.step_index == 1
    # the menu follows the state: a new version, a new menu
    assert "9>1" in [n for n, _ in session.menu("en").entries]
    with pytest.raises(LessonGone):
        sessions.choose(7, 999, session.number)


def test_wrong_refused_and_hint_change_nothing() -> None:
    sessions = Sessions()
    session, _ = sessions.start(7, GAME, "Alice")
    version = session.version
    wrong = sessions.act(7, "9>1")
    assert wrong.kind == "wrong" and wrong.wanted is not None
    refused = sessions.act(7, "3>1")  # not in the Cow-boy's hand
    assert refused.kind == "refused" and refused.refusal is not None
    hint = sessions.hint(7)
    assert hint.kind == "hint" and hint.hint is not None and hint.hint[0] == "2>1"
    assert session.version == version and session.tutor.step_index == 0
    text = "\n".join(turn_lines("en", session, wrong))
    assert "asks for another one" in text and "Play your **2** on pile 1" in text


def test_one_lesson_per_user_a_new_one_replaces_the_old() -> None:
    numbers = iter([11, 11, 12, 13])
    sessions = Sessions(numbers=lambda: next(numbers))
    first, _ = sessions.start(7, GAME, "Alice")
    other, _ = sessions.start(8, GAME, "Bob")
    assert len(sessions) == 2
    second, _ = sessions.start(7, GAME, "Alice")
    assert second.number != first.number  # the old lesson's buttons cannot reach it
    assert len(sessions) == 2
    with pytest.raises(LessonGone):
        sessions.act(7, "2>1", first.number)
    assert sessions.act(7, "2>1", second.number).kind == "played"
    assert sessions.get(8, other.number) is other


def test_quit_forgets_the_lesson() -> None:
    sessions = Sessions()
    session, _ = sessions.start(7, GAME, "Alice")
    assert sessions.quit(7, session.number) is session
    for call in (lambda: sessions.hint(7), lambda: sessions.quit(7), lambda: sessions.get(7)):
        with pytest.raises(LessonGone):
            call()


def test_a_lesson_is_dropped_after_an_hour_without_a_click() -> None:
    clock = Clock()
    sessions = Sessions(clock=clock)
    session, _ = sessions.start(7, GAME, "Alice")
    clock.now += LESSON_TTL - 1
    sessions.hint(7, session.number)  # a click: the hour starts again
    clock.now += LESSON_TTL - 1
    assert sessions.get(7, session.number) is session
    clock.now += LESSON_TTL + 1
    with pytest.raises(LessonGone):
        sessions.act(7, "2>1", session.number)
    assert len(sessions) == 0


def test_an_unknown_game_or_one_without_a_lesson_is_a_key_error() -> None:
    sessions = Sessions()
    with pytest.raises(KeyError):
        sessions.start(7, "chess", "Alice")


def test_the_learner_and_the_tutor_are_named() -> None:
    sessions = Sessions()
    session, _ = sessions.start(7, GAME, "Alice")
    assert session.names("en") == ("Alice", "Tutor")
    assert session.names("fr") == ("Alice", "Tuteur")


@pytest.mark.parametrize(
    "game_id", ["between-battle", "via-belli", "liber", "belle-position", "battalia"]
)
def test_a_finished_lesson_names_the_lobby_command_once_in_the_players_language(
    game_id: str,
) -> None:
    """The outro and the closing line used to both say how to open a lobby,
    the outro with the English ``/lobby create`` even in French."""
    sessions = Sessions()
    session, turn = sessions.start(7, game_id, "Alice")
    for step in lesson_for(game_id).steps:
        turn = sessions.act(7, step.expect[0], session.number)
    assert session.finished
    for locale, command in (("en", "/lobby create"), ("fr", "/salon créer")):
        text = "\n".join(turn_lines(locale, session, turn))
        assert text.count(command) == 1, (locale, text)
        if locale == "fr":
            assert "/lobby" not in text
