"""``/learn game:<game>``: a guided lesson, privately, in one ephemeral
message that every click updates (:mod:`bot.learn.sessions`).

The message shows the step's title and text, what happened in words, the
learner's board and hand images (drawn in the render workers, as in a
match; the numbered spots of a placement too), the learner's choices laid
out as a match's DM lays them out (:func:`bot.discord.menus.add_choices`,
with the lesson's own custom ids) and the Hint and Quit buttons. Lessons
live in memory only: nothing reaches the store, nothing is rated, and a
click on a lesson that no longer exists (a restart, an hour without a
click, another lesson started) says so and offers ``/learn``."""

from __future__ import annotations

import asyncio
import contextlib
import io
import weakref
from collections.abc import AsyncIterator
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from engine import GAMES

from ...i18n import game_name, t
from ...learn.sessions import (
    LessonGone,
    LessonSession,
    Sessions,
    Turn,
    step_title,
    turn_lines,
)
from ...menu import Menu, parse_path
from ...service import HostError
from ..announce import Announcer
from ..components import (
    LEARN,
    LearnButton,
    LearnHandlers,
    LearnMenuSelect,
    LearnMoveButton,
    LearnMoveSelect,
)
from ..menus import add_choices, add_level
from ..text import EMBED_COLOUR, clip
from ..translation import GAME_CHOICES, desc, locale_of, name

MAX_ROWS = 5  # Discord's limit of action rows in a message
CHOICE_ROWS = MAX_ROWS - 1  # the last row keeps Hint and Quit


class LessonItems:
    """The components of a lesson's choices (see :class:`bot.discord.menus.ChoiceItems`)."""

    def __init__(self, session: LessonSession) -> None:
        self.number, self.version = session.number, session.version

    def button(self, index: int, label: str) -> discord.ui.Item[Any]:
        return LearnMoveButton(self.number, self.version, index, label)

    def select(
        self, chunk: int, options: list[discord.SelectOption], placeholder: str
    ) -> discord.ui.Item[Any]:
        return LearnMoveSelect(self.number, self.version, chunk, options, placeholder)

    def level(
        self,
        path: str,
        page: int,
        chunk: int,
        options: list[discord.SelectOption],
        placeholder: str,
    ) -> discord.ui.Item[Any]:
        return LearnMenuSelect(self.number, self.version, path, page, chunk, options, placeholder)


def rows(view: discord.ui.View) -> int:
    """The action rows a view fills (a select takes a row of its own)."""
    kinds = [
        item.item if isinstance(item, discord.ui.DynamicItem) else item for item in view.children
    ]
    buttons = sum(1 for item in kinds if isinstance(item, discord.ui.Button))
    selects = len(kinds) - buttons
    return selects + -(-buttons // 5)


def lesson_components(
    session: LessonSession,
    menu: Menu,
    locale: str,
    path: tuple[int, ...] = (),
    page: int = 0,
    numbered: bool = False,
) -> discord.ui.View:
    """The learner's choices (a level's page of the menu, as a match's DM
    lays them out) in at most four rows, then Hint and Quit in the fifth."""
    components = discord.ui.View(timeout=None)
    items = LessonItems(session)
    if path or page:
        add_level(components, locale, menu, path, page, items, numbered, CHOICE_ROWS)
    else:
        add_choices(components, menu, locale, items, numbered, CHOICE_ROWS)
    for action in ("hint", "quit"):
        components.add_item(LearnButton(session.number, action, locale))
    return components


class LearnCog(commands.Cog, name=LEARN):
    def __init__(self, bot: Announcer) -> None:
        self.bot = bot
        self.sessions = Sessions()
        # one click at a time per user; a lock lives while a click holds it
        self.locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()

    @app_commands.command(name=name("learn"), description=desc("learn-cmd"))
    @app_commands.describe(game=desc("learn-opt-game"))
    @app_commands.rename(game=name("game"))
    @app_commands.choices(game=GAME_CHOICES)
    async def learn(self, interaction: discord.Interaction, game: str) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        locale = locale_of(interaction)
        if game not in GAMES:
            raise HostError("unknown-game", game=game, games=", ".join(sorted(GAMES)))
        try:
            session, turn = self.sessions.start(
                interaction.user.id, game, interaction.user.display_name
            )
        except KeyError:
            raise HostError("learn-no-lesson", game=game_name(locale, game)) from None
        kwargs = await self.message(session, turn, locale)
        await interaction.followup.send(ephemeral=True, **kwargs)

    # ---- the message ------------------------------------------------------------------
    async def message(
        self,
        session: LessonSession,
        turn: Turn,
        locale: str,
        path: tuple[int, ...] = (),
        page: int = 0,
    ) -> dict[str, Any]:
        """The lesson's message now: text, images and components."""
        from render import render_board, render_choices, render_private

        game_id = session.game_id
        view = session.view()  # taken before any await: one state for everything
        names = list(session.names(locale))
        lines = turn_lines(locale, session, turn)
        menu = None if session.finished else session.menu(locale)
        embed = discord.Embed(title=step_title(locale, session), colour=EMBED_COLOUR)
        if menu is not None and path:
            trail = " › ".join(step.label for step in menu.trail(path))
            lines.append(t(locale, "menu-level", path=trail))
        embed.description = clip("\n".join(lines), 4000)
        embed.set_image(url="attachment://board.png")
        board = await self.bot.render(render_board, game_id, view, names, locale)
        hand = await self.bot.render(render_private, game_id, view, names, locale)
        mine = discord.Embed(title=t(locale, "learn-your-hand"), colour=EMBED_COLOUR)
        mine.set_image(url="attachment://hand.png")
        embeds = [embed, mine]
        files = [
            discord.File(io.BytesIO(board), filename="board.png"),
            discord.File(io.BytesIO(hand), filename="hand.png"),
        ]
        components = discord.ui.View(timeout=None)
        if menu is not None:
            leaves = self.leaves(menu, path)
            spots = None
            if leaves:
                spots = await self.bot.render_pool.run(
                    render_choices, game_id, view, names, locale, leaves
                )
            if spots is not None:
                extra = discord.Embed(description=t(locale, "menu-spots"), colour=EMBED_COLOUR)
                extra.set_image(url="attachment://spots.png")
                embeds.append(extra)
                files.append(discord.File(io.BytesIO(spots), filename="spots.png"))
            components = lesson_components(session, menu, locale, path, page, spots is not None)
        return {"embeds": embeds, "files": files, "view": components}

    @staticmethod
    def leaves(menu: Menu, path: tuple[int, ...]) -> list[tuple[int, str]]:
        """The numbered actions of a level whose every choice is an action."""
        node = menu.node(path) or menu.root
        if not node.children or any(c.entry is None for c in node.children):
            return []
        return [
            (i + 1, menu.entries[c.entry][0])
            for i, c in enumerate(node.children)
            if c.entry is not None
        ]

    async def update(self, interaction: discord.Interaction, **kwargs: Any) -> None:
        """Replace the lesson's message (the one clicked) with ``kwargs``."""
        files = kwargs.pop("files", [])
        await interaction.edit_original_response(attachments=files, **kwargs)

    async def gone(self, interaction: discord.Interaction) -> None:
        locale = locale_of(interaction)
        text = t(locale, "learn-gone", command=t(locale, "name-learn"))
        await self.update(interaction, content=text, embeds=[], view=None)

    async def answer(
        self,
        interaction: discord.Interaction,
        session: LessonSession,
        turn: Turn,
        path: tuple[int, ...] = (),
        page: int = 0,
    ) -> None:
        locale = locale_of(interaction)
        kwargs = await self.message(session, turn, locale, path, page)
        if session.finished:
            self.sessions.finish(session)
        await self.update(interaction, content=None, **kwargs)

    # ---- clicks -----------------------------------------------------------------------
    @contextlib.asynccontextmanager
    async def one_at_a_time(self, user_id: int) -> AsyncIterator[None]:
        """A user's clicks on their lesson, one after the other (a double click
        then finds the lesson moved on and shows it as it is)."""
        lock = self.locks.get(user_id)
        if lock is None:
            lock = asyncio.Lock()
            self.locks[user_id] = lock
        async with lock:
            yield

    async def learn_index(
        self, interaction: discord.Interaction, session: int, version: int, index: int
    ) -> None:
        await interaction.response.defer()
        async with self.one_at_a_time(interaction.user.id):
            await self._learn_index(interaction, session, version, index)

    async def learn_menu(
        self,
        interaction: discord.Interaction,
        session: int,
        version: int,
        path: str,
        page: int,
        value: str,
    ) -> None:
        await interaction.response.defer()
        async with self.one_at_a_time(interaction.user.id):
            await self._learn_menu(interaction, session, version, path, page, value)

    async def learn_button(
        self, interaction: discord.Interaction, session: int, action: str
    ) -> None:
        await interaction.response.defer()
        async with self.one_at_a_time(interaction.user.id):
            await self._learn_button(interaction, session, action)

    async def _learn_index(
        self, interaction: discord.Interaction, session: int, version: int, index: int
    ) -> None:
        user = interaction.user.id
        try:
            lesson = self.sessions.get(user, session)
            if lesson.version != version:
                turn = Turn("played")  # an older click: show the lesson as it is
            else:
                turn = self.sessions.choose(user, index, session, locale_of(interaction))
        except LessonGone:
            await self.gone(interaction)
            return
        await self.answer(interaction, lesson, turn)

    async def _learn_menu(
        self,
        interaction: discord.Interaction,
        session: int,
        version: int,
        path: str,
        page: int,
        value: str,
    ) -> None:
        user = interaction.user.id
        locale = locale_of(interaction)
        try:
            lesson = self.sessions.get(user, session)
        except LessonGone:
            await self.gone(interaction)
            return
        menu = lesson.menu(locale)
        where = parse_path(path)
        node = None if where is None else menu.node(where)
        stale = lesson.version != version or where is None or node is None or node.is_leaf
        if stale or not value[1:].isdecimal() or value[:1] not in ("c", "p"):
            await self.answer(interaction, lesson, Turn("played"))
            return
        assert where is not None and node is not None
        number = int(value[1:])
        if value.startswith("p"):
            await self.answer(interaction, lesson, Turn("played"), where, number)
            return
        if number >= len(node.children):
            await self.answer(interaction, lesson, Turn("played"))
            return
        child = node.children[number]
        if child.entry is None:
            await self.answer(interaction, lesson, Turn("played"), (*where, number))
            return
        try:
            turn = self.sessions.act(user, menu.entries[child.entry][0], session)
        except LessonGone:
            await self.gone(interaction)
            return
        await self.answer(interaction, lesson, turn)

    async def _learn_button(
        self, interaction: discord.Interaction, session: int, action: str
    ) -> None:
        user = interaction.user.id
        locale = locale_of(interaction)
        try:
            if action == "quit":
                self.sessions.quit(user, session)
                text = t(locale, "learn-quit", command=t(locale, "name-learn"))
                await self.update(interaction, content=text, embeds=[], view=None)
                return
            lesson = self.sessions.get(user, session)
            turn = self.sessions.hint(user, session)
        except LessonGone:
            await self.gone(interaction)
            return
        await self.answer(interaction, lesson, turn)


def _handles(cog: LearnCog) -> LearnHandlers:
    return cog  # mypy checks that the cog offers what its components call
