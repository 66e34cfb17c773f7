"""A seat's choices as components: buttons or selects of every action when
they are one choice away and few, else the levels of the game's action menu
(:mod:`bot.menu`) as :class:`~bot.discord.components.MenuSelect` pages."""

from __future__ import annotations

from typing import Any, Protocol

import discord

from ..i18n import t
from ..menu import (
    SELECT_OPTIONS,
    SELECTS_PER_MESSAGE,
    Menu,
    page_count,
    page_of,
    page_range,
    path_text,
)
from ..service import LiveMatch
from .components import MenuSelect, MoveButton, MoveSelect
from .core import BotCore
from .text import button_label, clip

BUTTON_LIMIT = 20  # more legal actions than this: select menus


class ChoiceItems(Protocol):
    """The components a layout of choices is made of: a match's (custom ids
    naming the match, the version and the seat) or a lesson's."""

    def button(self, index: int, label: str) -> discord.ui.Item[Any]: ...

    def select(
        self, chunk: int, options: list[discord.SelectOption], placeholder: str
    ) -> discord.ui.Item[Any]: ...

    def level(
        self,
        path: str,
        page: int,
        chunk: int,
        options: list[discord.SelectOption],
        placeholder: str,
    ) -> discord.ui.Item[Any]: ...


class MatchItems:
    """A seat's choices in a match: :class:`MoveButton`, :class:`MoveSelect`
    and :class:`MenuSelect` at the match's current version."""

    def __init__(self, live: LiveMatch, seat: int) -> None:
        self.id, self.version, self.seat = live.id, live.match.version, seat

    def button(self, index: int, label: str) -> discord.ui.Item[Any]:
        return MoveButton(self.id, self.version, self.seat, index, label)

    def select(
        self, chunk: int, options: list[discord.SelectOption], placeholder: str
    ) -> discord.ui.Item[Any]:
        return MoveSelect(self.id, self.version, self.seat, chunk, options, placeholder)

    def level(
        self,
        path: str,
        page: int,
        chunk: int,
        options: list[discord.SelectOption],
        placeholder: str,
    ) -> discord.ui.Item[Any]:
        return MenuSelect(self.id, self.version, self.seat, path, page, chunk, options, placeholder)


def action_view(
    bot: BotCore, live: LiveMatch, seat: int, locale: str, numbered: bool = False
) -> discord.ui.View | None:
    """The seat's choices: buttons (or selects) of every action when they
    are one choice away and few; else the first level of the game's menu,
    each choice narrowing to the next level (:class:`MenuSelect`).
    ``numbered``: labels start with the action's number (1, 2 ...)."""
    if seat not in live.match.pending():
        return None
    menu = bot.menu_for(live, seat, locale)
    view = discord.ui.View(timeout=None)
    add_choices(view, menu, locale, MatchItems(live, seat), numbered)
    return view


def add_choices(
    view: discord.ui.View,
    menu: Menu,
    locale: str,
    items: ChoiceItems,
    numbered: bool = False,
    selects: int = SELECTS_PER_MESSAGE,
) -> None:
    """A menu's first level laid out as :func:`action_view` does, with
    ``items``, in at most ``selects`` rows of selects (fewer than five leave
    a row for the caller's own buttons)."""
    children = menu.root.children
    if not menu.flat or len(children) > SELECT_OPTIONS * selects:
        add_level(view, locale, menu, (), 0, items, numbered, selects)
        return
    labels = [c.step.label if c.step else "" for c in children]
    if numbered:
        labels = [f"{i + 1}. {label}" for i, label in enumerate(labels)]
    notations = [menu.entries[c.entry or 0][0] for c in children]
    if len(children) <= BUTTON_LIMIT:
        for index, (label, notation) in enumerate(zip(labels, notations, strict=True)):
            view.add_item(items.button(index, button_label(label, notation)))
        return
    for chunk, page in enumerate(page_of(len(children), 0, selects)):
        options = [
            discord.SelectOption(
                label=clip(labels[i], 100),
                value=str(i),
                description=clip(notations[i], 100) if labels[i] != notations[i] else None,
            )
            for i in (o.child for o in page if o.child is not None)
        ]
        view.add_item(items.select(chunk, options, t(locale, "choose-action")))


def add_menu_level(
    view: discord.ui.View,
    live: LiveMatch,
    seat: int,
    locale: str,
    menu: Menu,
    path: tuple[int, ...],
    page: int,
    numbered: bool = False,
) -> None:
    """One page of a level of the menu as selects (≤ 25 options each, ≤ 5):
    a choice plays its action or opens the next level; on a long level
    the last option turns the page. ``numbered``: labels start with the
    choice's number (the ghost outlines' numbers)."""
    add_level(view, locale, menu, path, page, MatchItems(live, seat), numbered)


def add_level(
    view: discord.ui.View,
    locale: str,
    menu: Menu,
    path: tuple[int, ...],
    page: int,
    items: ChoiceItems,
    numbered: bool = False,
    rows: int = SELECTS_PER_MESSAGE,
) -> None:
    """:func:`add_menu_level` with the components ``items`` makes, in at most
    ``rows`` selects."""
    node = menu.node(path)
    assert node is not None and not node.is_leaf
    count = len(node.children)
    selects = page_of(count, page, rows)
    for chunk, options in enumerate(selects):
        entries = []
        for o in options:
            if o.child is not None:
                step = node.children[o.child].step
                assert step is not None
                label = f"{o.child + 1}. {step.label}" if numbered else step.label
                entries.append(
                    discord.SelectOption(
                        label=clip(label, 100),
                        value=o.value,
                        description=clip(step.detail, 100) if step.detail else None,
                    )
                )
            else:
                first, last = page_range(count, o.page or 0, rows)
                entries.append(
                    discord.SelectOption(
                        label=clip(
                            t(locale, "menu-next-page", first=first, last=last, count=count),
                            100,
                        ),
                        value=o.value,
                        emoji="➡️",
                    )
                )
        shown = [o.child for o in options if o.child is not None]
        if len(selects) > 1 or page_count(count, rows) > 1:
            placeholder = t(
                locale,
                "menu-choose-range",
                first=min(shown) + 1 if shown else 0,
                last=max(shown) + 1 if shown else 0,
                count=count,
            )
        else:
            placeholder = t(locale, "menu-choose")
        view.add_item(items.level(path_text(path), page, chunk, entries, clip(placeholder, 150)))
