"""The shape issue 13 asks of the game packages: each file something a person
can hold in their head (no module in ``engine/games/`` over about 1,000 lines,
no function over about 80), and one package per game."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from engine import GAMES

ROOT = Path(__file__).resolve().parent.parent
GAMES_DIR = ROOT / "engine" / "games"
MAX_FILE_LINES = 1000
MAX_FUNCTION_LINES = 80


def _modules() -> list[Path]:
    return sorted(GAMES_DIR.rglob("*.py"))


def test_every_game_is_a_package() -> None:
    for game in GAMES.values():
        package = type(game).__module__.split(".")
        assert package[:2] == ["engine", "games"], type(game).__module__
        assert (GAMES_DIR / package[2] / "__init__.py").is_file(), package


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(GAMES_DIR)))
def test_file_and_function_sizes(path: Path) -> None:
    source = path.read_text(encoding="utf-8")
    assert source.count("\n") <= MAX_FILE_LINES, f"{path}: {source.count(chr(10))} lines"
    long = [
        f"{node.name} ({node.end_lineno - node.lineno + 1} lines, line {node.lineno})"
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and (node.end_lineno or node.lineno) - node.lineno + 1 > MAX_FUNCTION_LINES
    ]
    assert not long, f"{path}: functions over {MAX_FUNCTION_LINES} lines: {long}"


# A language is data (i18n/locales/<lang>/*.po): the engine and the renderer hold
# no branch on a language (``fr = ...``, ``if fr``, ``startswith("fr")``,
# ``== "fr"``) and no pair of words per language (``name_fr``, ``text_en``...).
LANGUAGE_BRANCH = re.compile(
    r"""\bfr\s*=[^=]|\bif\s+(not\s+)?fr\b|\bfr\s+else\b|\bfr\s*:\s*bool"""
    r"""|\bis_french\b|startswith\(\s*["']fr|==\s*["']fr["']|\b\w+_(fr|en)\b"""
)


@pytest.mark.parametrize(
    "path",
    sorted([*(ROOT / "engine").rglob("*.py"), *(ROOT / "render").rglob("*.py")]),
    ids=lambda p: str(p.relative_to(ROOT)),
)
def test_no_language_branch_in_engine_or_render(path: Path) -> None:
    hits = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if LANGUAGE_BRANCH.search(line)
    ]
    assert not hits, "\n".join(hits)


def test_the_language_check_sees_branches() -> None:
    for line in ('fr = locale.startswith("fr")', "x = a if fr else b", "name_fr: str"):
        assert LANGUAGE_BRANCH.search(line), line
    assert not LANGUAGE_BRANCH.search('lang = i18n.pick(locale)  # "fr-FR" -> "fr"')
