"""A seat's choices as components: buttons or selects of every action when
they are one choice away and few, else the levels of the game's action menu
(:mod:`bot.menu`) as :class:`~bot.discord.components.MenuSelect` pages."""

from __future__ import annotations

import discord

from ..i18n import t
from ..menu import PAGE, Menu, page_count, page_of, page_range, path_text
from ..service import LiveMatch
from .components import MenuSelect, MoveButton, MoveSelect
from .core import BotCore
from .text import button_label, clip

BUTTON_LIMIT = 20  # more legal actions than this: select menus


def action_view(
    bot: BotCore, live: LiveMatch, seat: int, locale: str, numbered: bool = False
) -> discord.ui.View | None:
    """The seat's choices: buttons (or selects) of every action when they
    are one choice away and few; else the first level of the game's menu,
    each choice narrowing to the next level (:class:`MenuSelect`).
    ``numbered``: labels start with the action's number (1, 2 ...)."""
    match = live.match
    if seat not in match.pending():
        return None
    menu = bot.menu_for(live, seat, locale)
    view = discord.ui.View(timeout=None)
    children = menu.root.children
    if not menu.flat or len(children) > PAGE:
        add_menu_level(view, live, seat, locale, menu, (), 0, numbered)
        return view
    labels = [c.step.label if c.step else "" for c in children]
    if numbered:
        labels = [f"{i + 1}. {label}" for i, label in enumerate(labels)]
    notations = [menu.entries[c.entry or 0][0] for c in children]
    if len(children) <= BUTTON_LIMIT:
        for index, (label, notation) in enumerate(zip(labels, notations, strict=True)):
            view.add_item(
                MoveButton(live.id, match.version, seat, index, button_label(label, notation))
            )
        return view
    for chunk, page in enumerate(page_of(len(children), 0)):
        options = [
            discord.SelectOption(
                label=clip(labels[i], 100),
                value=str(i),
                description=clip(notations[i], 100) if labels[i] != notations[i] else None,
            )
            for i in (o.child for o in page if o.child is not None)
        ]
        view.add_item(
            MoveSelect(
                live.id,
                match.version,
                seat,
                chunk,
                options,
                placeholder=t(locale, "choose-action"),
            )
        )
    return view


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
    node = menu.node(path)
    assert node is not None and not node.is_leaf
    count = len(node.children)
    selects = page_of(count, page)
    for chunk, options in enumerate(selects):
        items = []
        for o in options:
            if o.child is not None:
                step = node.children[o.child].step
                assert step is not None
                label = f"{o.child + 1}. {step.label}" if numbered else step.label
                items.append(
                    discord.SelectOption(
                        label=clip(label, 100),
                        value=o.value,
                        description=clip(step.detail, 100) if step.detail else None,
                    )
                )
            else:
                first, last = page_range(count, o.page or 0)
                items.append(
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
        if len(selects) > 1 or page_count(count) > 1:
            placeholder = t(
                locale,
                "menu-choose-range",
                first=min(shown) + 1 if shown else 0,
                last=max(shown) + 1 if shown else 0,
                count=count,
            )
        else:
            placeholder = t(locale, "menu-choose")
        view.add_item(
            MenuSelect(
                live.id,
                live.match.version,
                seat,
                path_text(path),
                page,
                chunk,
                items,
                placeholder=clip(placeholder, 150),
            )
        )
