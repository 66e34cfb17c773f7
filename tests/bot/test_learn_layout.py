"""Every lesson, at every step, on Discord: the learner's choices (every
page of every level of the menu, laid out by ``bot/discord/menus.py``) leave
a row for the Hint and Quit buttons, which are always there."""

from __future__ import annotations

from collections.abc import Iterator

import discord
import pytest

from bot.discord.cogs.learn import MAX_ROWS, lesson_components, rows
from bot.discord.components import LearnButton
from bot.learn import lesson_for
from bot.learn.sessions import Sessions
from bot.menu import SELECT_OPTIONS as _OPTIONS
from bot.menu import Menu, build_menu, page_count
from bot.menu import MenuStep as Step
from engine import GAMES

LEVELS_PER_STEP = 40  # the root and the levels below it, enough for every lesson's menus


def levels(menu: Menu) -> Iterator[tuple[int, ...]]:
    """The paths of the menu's levels (nodes with children), root first."""
    todo: list[tuple[int, ...]] = [()]
    while todo:
        path = todo.pop(0)
        node = menu.node(path)
        if node is None or node.is_leaf:
            continue
        yield path
        todo += [(*path, i) for i, child in enumerate(node.children) if not child.is_leaf]


def check(view: discord.ui.View, where: str) -> None:
    assert rows(view) <= MAX_ROWS, where
    actions = [item.action for item in view.children if isinstance(item, LearnButton)]
    assert actions == ["hint", "quit"], where
    for item in view.children:
        inner = item.item if isinstance(item, discord.ui.DynamicItem) else item
        if isinstance(inner, discord.ui.Select):
            assert len(inner.options) <= _OPTIONS, where


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_hint_and_quit_are_there_at_every_step(game_id: str) -> None:
    sessions = Sessions()
    session, _ = sessions.start(1, game_id, "Alice")
    checked = 0
    for index, step in enumerate(lesson_for(game_id).steps):
        assert not session.finished
        for locale in ("en", "fr"):
            menu = session.menu(locale)
            for path in list(levels(menu))[:LEVELS_PER_STEP]:
                node = menu.node(path)
                assert node is not None
                for page in range(page_count(len(node.children), MAX_ROWS - 1)):
                    for numbered in (False, True):
                        view = lesson_components(session, menu, locale, path, page, numbered)
                        check(view, f"{game_id} step {index} {locale} {path} page {page}")
                        checked += 1
        turn = sessions.hint(1, session.number)
        assert turn.hint is not None
        notation = step.expect[0] if step.expect else turn.hint[0]
        assert sessions.act(1, notation, session.number).kind == "played"
    assert session.finished and checked


@pytest.mark.parametrize("choices", [20, 21, 100, 101, 125, 126, 300])
@pytest.mark.parametrize("nested", [False, True])
def test_a_first_level_that_would_fill_five_rows_keeps_hint_and_quit(
    choices: int, nested: bool
) -> None:
    """No lesson's menu is that long yet: a game's first level of up to 125
    choices fills Discord's five rows with selects in a match's DM; a
    lesson shows at most four rows of them and pages the rest."""
    sessions = Sessions()
    session, _ = sessions.start(1, "between-battle", "Alice")
    entries = [
        (
            f"m{i}",
            (Step(f"k{i}", f"Move {i}"), Step("x", "X"))
            if nested
            else (Step(f"k{i}", f"Move {i}"),),
        )
        for i in range(choices)
    ]
    menu = build_menu(entries)
    pages = page_count(choices, MAX_ROWS - 1)
    shown: set[str] = set()
    for page in range(pages):
        view = lesson_components(session, menu, "en", (), page) if page else None
        view = view or lesson_components(session, menu, "en")
        check(view, f"{choices} page {page}")
        for item in view.children:
            inner = item.item if isinstance(item, discord.ui.DynamicItem) else item
            if isinstance(inner, discord.ui.Select):
                shown |= {o.value for o in inner.options if not o.value.startswith("p")}
            elif isinstance(inner, discord.ui.Button) and not isinstance(item, LearnButton):
                shown.add(str(inner.custom_id))
    assert len(shown) == choices  # every choice on some page
