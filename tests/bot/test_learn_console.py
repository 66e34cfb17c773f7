"""``console --learn <game>``: the lesson in the terminal, driven by
scripted input, in English and in French."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from bot.console import main
from bot.learn import lesson_for
from bot.learn.sessions import Sessions
from tests.bot.textcheck import problems

GAME = "between-battle"


def _run(args: list[str], lines: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    code = main(args, stdin=io.StringIO("\n".join(lines) + "\n"), stdout=out)
    return code, out.getvalue()


def first_step_number(locale: str) -> str:
    """The number the console shows for the first step's move."""
    session, _ = Sessions().start(1, GAME, "x")
    entries = [n for n, _ in session.menu(locale).entries]
    return str(entries.index(lesson_for(GAME).steps[0].expect[0]) + 1)


@pytest.mark.parametrize(
    ("locale", "hint", "said"),
    [
        (
            "en",
            "hint",
            ["Lesson: Between Battle · step 1 of 6", "💡 Hint: 2 → pile 1", "Well played"],
        ),
        ("fr", "indice", ["Leçon : Between Battle · étape 1 sur 6", "💡 Indice :", "Bien joué"]),
    ],
)
def test_a_lesson_to_its_end_with_numbers_notation_hint_and_mistakes(
    tmp_path: Path, locale: str, hint: str, said: list[str]
) -> None:
    steps = lesson_for(GAME).steps
    lines = [hint, "9>1", "zz9", "back", first_step_number(locale)]
    lines += [s.expect[0] for s in steps[1:]]
    code, text = _run(["--learn", GAME, "--lang", locale, "--out", str(tmp_path)], lines)
    assert code == 0, text[-2000:]
    for part in said:
        assert part in text, part
    # the wrong move says what the step asks for; the typo gets the rules' sentence
    assert ("asks for another one" if locale == "en" else "en demande un autre") in text
    assert ("The rules refuse" if locale == "en" else "Les règles refusent") in text
    for line in text.splitlines():
        assert problems(line, locale, ("Student", "Élève")) == [], line
    (folder,) = [p for p in tmp_path.iterdir() if p.is_dir()]
    assert sorted(p.name for p in folder.iterdir()) == ["board.png", "hand.png"]
    assert (folder / "board.png").read_bytes().startswith(b"\x89PNG")


def test_quit_leaves_the_lesson() -> None:
    code, text = _run(["--learn", GAME, "--no-images"], ["2>1", "quit"])
    assert code == 1 and "Lesson stopped." in text
    assert "step 2 of 6" in text


def test_a_game_without_a_lesson_says_which_have_one() -> None:
    code, text = _run(["--learn", "chess", "--no-images"], [])
    assert code == 2 and "No lesson for `chess`" in text and "between-battle" in text
