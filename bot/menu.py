"""Picking a move in steps: a game's action menu as a tree of short lists.

:meth:`engine.core.Game.action_menu` gives every action with its path of
choices (kind of action, card, anchor, spot ...). :func:`build_menu` groups
the actions by path prefix into a tree; a host shows one level at a time.
:func:`page_of` cuts a level into pages and selects that respect Discord's
limits (at most 25 options a select, 5 selects a message): a level of up to
125 choices fits one page; a longer one is split into pages of 124 choices,
each ending with an option that opens the next page (the last: the first).

Pure and game-agnostic (no discord import): the Discord adapter turns levels
into components whose custom_id carries the match, the version, the seat and
the chosen prefix as a short index path (``"2.0"``), so that a click can be
resolved again from the same state after a restart.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class MenuStep:
    """A step of a menu path as a player reads it: the engine's
    :class:`engine.MenuStep` with its label and detail translated
    (:func:`bot.i18n.menu_entries`)."""

    key: str
    label: str
    detail: str = ""


SELECT_OPTIONS = 25
"""Discord's limit of options in one select."""
SELECTS_PER_MESSAGE = 5
"""Discord's limit of action rows in one message (a select fills a row)."""
PAGE = SELECT_OPTIONS * SELECTS_PER_MESSAGE
PAGED = PAGE - 1  # a page of a longer level keeps one option to turn the page
MAX_DEPTH = 12  # keeps the index path of a custom_id short


class BadMenu(ValueError):
    """A game's action menu breaks the contract of ``Game.action_menu``."""


@dataclass(slots=True)
class MenuNode:
    """A choice of a level (the root has no step): a leaf plays the action
    ``entry`` (an index into :attr:`Menu.entries`), else it opens
    ``children``."""

    step: MenuStep | None
    children: list[MenuNode] = field(default_factory=list)
    entry: int | None = None
    _by_key: dict[str, MenuNode] = field(default_factory=dict, repr=False)

    @property
    def is_leaf(self) -> bool:
        return self.entry is not None


@dataclass(slots=True)
class Menu:
    """The tree of one seat's actions in one state.

    ``entries`` are ``(notation, path)`` in the game's order; ``root`` the
    first level."""

    entries: list[tuple[str, tuple[MenuStep, ...]]]
    root: MenuNode

    @property
    def flat(self) -> bool:
        """Every action is one choice away (the default menu of a game)."""
        return all(child.is_leaf for child in self.root.children)

    def node(self, path: Sequence[int]) -> MenuNode | None:
        """The node at an index path from the root, or None (a stale path)."""
        node = self.root
        for index in path:
            if node.is_leaf or not 0 <= index < len(node.children):
                return None
            node = node.children[index]
        return node

    def trail(self, path: Sequence[int]) -> list[MenuStep]:
        """The steps chosen along an index path (a valid one)."""
        out: list[MenuStep] = []
        node = self.root
        for index in path:
            node = node.children[index]
            assert node.step is not None
            out.append(node.step)
        return out

    def leaves(self) -> list[tuple[tuple[int, ...], MenuNode]]:
        """Every leaf with its index path (tests, debugging)."""
        out: list[tuple[tuple[int, ...], MenuNode]] = []
        stack: list[tuple[tuple[int, ...], MenuNode]] = [((), self.root)]
        while stack:
            path, node = stack.pop()
            if node.is_leaf:
                out.append((path, node))
            for i, child in enumerate(node.children):
                stack.append(((*path, i), child))
        out.sort(key=lambda item: item[0])
        return out


def build_menu(entries: Sequence[tuple[str, tuple[MenuStep, ...]]]) -> Menu:
    """Group ``(notation, path)`` entries by path prefix, keeping the order in
    which each choice first appears. Raises :class:`BadMenu` when a path is
    empty or too deep, when two actions share a path, or when a path is a
    prefix of another (a choice would both play and open a level)."""
    root = MenuNode(None)
    kept = list(entries)
    for index, (notation, path) in enumerate(kept):
        if not path or len(path) > MAX_DEPTH:
            raise BadMenu(f"{notation!r}: a menu path has 1 to {MAX_DEPTH} steps, not {len(path)}")
        node = root
        for depth, step in enumerate(path):
            if node.is_leaf:
                raise BadMenu(f"{notation!r}: its path goes on past another action")
            child = node._by_key.get(step.key)
            if child is None:
                child = MenuNode(step)
                node._by_key[step.key] = child
                node.children.append(child)
            last = depth == len(path) - 1
            if last and (child.is_leaf or child.children):
                raise BadMenu(f"{notation!r}: its path is taken or leads further")
            node = child
        node.entry = index
    return Menu(kept, root)


@dataclass(frozen=True, slots=True)
class PageOption:
    """One option of a page: a child of the level (``child``) or the option
    that turns to page ``page``."""

    child: int | None = None
    page: int | None = None

    @property
    def value(self) -> str:
        return f"c{self.child}" if self.child is not None else f"p{self.page}"


def page_count(choices: int, selects: int = SELECTS_PER_MESSAGE) -> int:
    """The pages of a level of ``choices`` choices shown in at most
    ``selects`` selects (fewer than Discord's five leave rows for buttons)."""
    whole = SELECT_OPTIONS * selects
    return 1 if choices <= whole else -(-choices // (whole - 1))


def page_of(choices: int, page: int, selects: int = SELECTS_PER_MESSAGE) -> list[list[PageOption]]:
    """The selects (lists of at most 25 options, at most ``selects`` lists)
    showing page ``page`` of a level of ``choices`` choices."""
    pages = page_count(choices, selects)
    page = page % pages
    paged = SELECT_OPTIONS * selects - 1  # one option turns the page
    if pages == 1:
        options = [PageOption(child=i) for i in range(choices)]
    else:
        start = page * paged
        options = [PageOption(child=i) for i in range(start, min(choices, start + paged))]
        options.append(PageOption(page=(page + 1) % pages))
    return [options[i : i + SELECT_OPTIONS] for i in range(0, len(options), SELECT_OPTIONS)]


def page_range(choices: int, page: int, selects: int = SELECTS_PER_MESSAGE) -> tuple[int, int]:
    """The 1-based first and last choice numbers of a page."""
    pages = page_count(choices, selects)
    page = page % pages
    if pages == 1:
        return 1, choices
    paged = SELECT_OPTIONS * selects - 1
    start = page * paged
    return start + 1, min(choices, start + paged)


def parse_path(text: str) -> tuple[int, ...] | None:
    """``"2.0"`` -> (2, 0); ``""`` -> (); None when malformed."""
    if not text:
        return ()
    parts = text.split(".")
    if not all(p.isdigit() and len(p) <= 4 for p in parts) or len(parts) > MAX_DEPTH:
        return None
    return tuple(int(p) for p in parts)


def path_text(path: Sequence[int]) -> str:
    return ".".join(str(i) for i in path)


__all__ = [
    "PAGE",
    "PAGED",
    "SELECT_OPTIONS",
    "BadMenu",
    "Menu",
    "MenuNode",
    "PageOption",
    "build_menu",
    "page_count",
    "page_of",
    "page_range",
    "parse_path",
    "path_text",
]
