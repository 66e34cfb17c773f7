"""Picking a move in steps: the games' action menus grouped into levels that
fit Discord's selects (bot.menu), over random playouts of every game."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from bot.i18n import menu_entries
from bot.menu import (
    PAGE,
    PAGED,
    BadMenu,
    Menu,
    build_menu,
    page_count,
    page_of,
    page_range,
    parse_path,
    path_text,
)
from bot.menu import MenuStep as Step
from engine import GAMES, Game, MenuStep, rng
from engine.games.via_belli import Summon

# the games that keep the default menu: one level, the legal actions
DEFAULT_MENU_GAMES = sorted(
    game_id for game_id, game in GAMES.items() if type(game).action_menu is Game.action_menu
)


def states(
    game_id: str, seed: int, steps: int, options: str | None = None
) -> Iterator[tuple[Any, int]]:
    """(state, pending seat) along a seeded random playout (with the game's
    ``quick_options`` unless ``options`` are given)."""
    game = GAMES[game_id]
    state = game.setup(game.options(game.quick_options if options is None else options), 2, seed)
    chooser = rng.seed_state(seed, "menu-tests")
    for _ in range(steps):
        pending = sorted(game.pending(state))
        if not pending:
            return
        seat = pending[0]
        yield state, seat
        action, chooser = rng.choice(chooser, list(game.legal_actions(state, seat)))
        state, _ = game.apply(state, seat, action)


def menu_of(game_id: str, state: Any, seat: int, locale: str = "en") -> Menu:
    game = GAMES[game_id]
    return build_menu(menu_entries(game, state, seat, locale))


def check_pages(menu: Menu) -> None:
    """Every level shows each of its choices exactly once over its pages, in
    selects of at most 25 options, at most 5 a page."""
    stack = [menu.root]
    while stack:
        node = stack.pop()
        if node.is_leaf:
            continue
        count = len(node.children)
        assert count > 0
        seen: list[int] = []
        for page in range(page_count(count)):
            selects = page_of(count, page)
            assert 0 < len(selects) <= 5
            assert all(0 < len(s) <= 25 for s in selects)
            seen += [o.child for s in selects for o in s if o.child is not None]
        assert seen == list(range(count))
        stack.extend(node.children)


@pytest.mark.parametrize("game_id", DEFAULT_MENU_GAMES)
def test_default_menu_is_the_legal_actions_one_level(game_id: str) -> None:
    game = GAMES[game_id]
    checked = 0
    for state, seat in (x for seed in (3, 4, 5) for x in states(game_id, seed, 100)):
        legal = game.legal_actions(state, seat)
        entries = game.action_menu(state, seat)
        assert [a for a, _ in entries] == list(legal)
        for action, path in entries:
            notation = game.format_action(action)
            assert path == (
                MenuStep(notation, game.describe_action(state, seat, action), notation),
            )
        menu = menu_of(game_id, state, seat)
        assert menu.flat
        assert [c.entry for c in menu.root.children] == list(range(len(legal)))
        check_pages(menu)
        checked += 1
    assert checked > 20


def test_via_belli_every_action_reachable_once_and_levels_fit() -> None:
    game = GAMES["via-belli"]
    deep = longest = summons = 0
    for seed in (1,):
        for state, seat in states("via-belli", seed, 120):
            menu = menu_of("via-belli", state, seat)
            if state.phase in ("turn", "free-dog"):
                expected = [game.format_action(a) for a in game.complete_actions(state, seat)]
            else:
                expected = [game.format_action(a) for a in game.legal_actions(state, seat)]
            leaves = [menu.entries[node.entry or 0][0] for _, node in menu.leaves()]
            # every action once, and nothing else
            assert sorted(leaves) == sorted(expected)
            assert len(set(leaves)) == len(leaves)
            check_pages(menu)
            # at the turn decision a summon is picked as what, then anchor, then spot
            for notation, path in menu.entries:
                if state.phase == "turn" and isinstance(game.parse_action(notation), Summon):
                    assert len(path) == 3 and path[1].key.startswith("@")
                    summons += 1
            deep = max(deep, max(len(p) for _, p in menu.entries))
            longest = max(longest, max(len(n.children) for n in _nodes(menu)))
            # a sample of the menu's actions is accepted as is
            for notation, _ in menu.entries[:: max(1, len(menu.entries) // 5)]:
                game.apply(state, seat, game.parse_action(notation))
    assert deep == 3 and summons > 100
    assert longest > 25  # some level needed several selects


def _nodes(menu: Menu) -> list[Any]:
    out, stack = [], [menu.root]
    while stack:
        node = stack.pop()
        if not node.is_leaf:
            out.append(node)
            stack.extend(node.children)
    return out


def test_via_belli_menu_is_localised_with_the_same_keys() -> None:
    for state, seat in states("via-belli", 4, 40):
        if state.phase != "turn":
            continue
        game = GAMES["via-belli"]
        en = menu_entries(game, state, seat, "en")
        fr = menu_entries(game, state, seat, "fr")
        assert [a for a, _ in en] == [a for a, _ in fr]
        assert [[s.key for s in p] for _, p in en] == [[s.key for s in p] for _, p in fr]
        labels_en = {s.label for _, p in en for s in p}
        labels_fr = {s.label for _, p in fr for s in p}
        assert any(label.startswith("Summon") for label in labels_en)
        assert any(label.startswith("Invoquer") for label in labels_fr)
        assert any(label.endswith(("standing", "lying")) for label in labels_en)
        assert any(label.endswith(("debout", "couchée")) for label in labels_fr)
        return
    raise AssertionError("no turn decision")


def _step(key: str) -> Step:
    return Step(key, key.upper())


def test_build_menu_groups_by_prefix_in_first_seen_order() -> None:
    menu = build_menu(
        [
            ("a1", (_step("a"), _step("1"))),
            ("b", (_step("b"),)),
            ("a2", (_step("a"), _step("2"))),
        ]
    )
    assert not menu.flat
    assert [c.step.key for c in menu.root.children if c.step] == ["a", "b"]
    a = menu.node((0,))
    assert a is not None and [c.entry for c in a.children] == [0, 2]
    assert menu.node((1,)) is not None and menu.node((1,)).entry == 1  # type: ignore[union-attr]
    assert menu.node((0, 2)) is None and menu.node((1, 0)) is None and menu.node((5,)) is None
    assert [s.key for s in menu.trail((0, 1))] == ["a", "2"]


@pytest.mark.parametrize(
    "entries",
    [
        [("x", ())],
        [("x", (_step("a"),)), ("y", (_step("a"),))],
        [("x", (_step("a"),)), ("y", (_step("a"), _step("b")))],
        [("y", (_step("a"), _step("b"))), ("x", (_step("a"),))],
    ],
)
def test_build_menu_refuses_a_broken_contract(entries: list[tuple[str, Any]]) -> None:
    with pytest.raises(BadMenu):
        build_menu(entries)


def test_long_levels_are_paged() -> None:
    assert page_count(PAGE) == 1 and page_count(PAGE + 1) == 2
    count = 300
    pages = page_count(count)
    assert pages == 3
    shown: list[int] = []
    for page in range(pages):
        options = [o for s in page_of(count, page) for o in s]
        assert len(options) <= PAGE
        # the last option turns the page, the last page back to the first
        assert options[-1].child is None and options[-1].page == (page + 1) % pages
        shown += [o.child for o in options if o.child is not None]
        first, last = page_range(count, page)
        assert (first, last) == (page * PAGED + 1, min(count, (page + 1) * PAGED))
    assert shown == list(range(count))
    assert [len(s) for s in page_of(30, 0)] == [25, 5]


def test_index_paths() -> None:
    assert parse_path("") == () and parse_path("3.0.12") == (3, 0, 12)
    assert path_text((3, 0, 12)) == "3.0.12"
    for bad in ("3..1", "a", "1.-2", "1." * 20 + "1", "123456"):
        assert parse_path(bad) is None
