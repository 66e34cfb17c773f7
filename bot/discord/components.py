"""The persistent components: :class:`discord.ui.DynamicItem` subclasses
registered at start-up, so a click still works after a restart.

A custom_id carries numbers only (a match id, a state version, a seat, the
index of an action or the index path of a choice in the game's action menu),
never a card or a secret; the formats are fixed (messages already posted in
servers keep working across upgrades) and listed in ``docs/architecture.md``.

An item knows its id and hands the click to the cog of its concern, found by
name (:data:`LOBBY`, :data:`PLAY`, :data:`RECORDS`) and used through the
protocols below, so this module imports no cog. :class:`GueridonItem`
runs every click through the adapter's one error path
(:func:`bot.discord.errors.guard`)."""

from __future__ import annotations

import abc
import re
from typing import Any, Protocol, TypeVar, cast

import discord

from ..i18n import t
from ..service import HostError, LiveMatch
from .core import BotCore
from .errors import guard

ItemT = TypeVar("ItemT", bound=discord.ui.Item[Any])

LOBBY, PLAY, RECORDS, LEARN = "LobbyCog", "PlayCog", "RecordsCog", "LearnCog"
UNDO = "UndoCog"


def template(prefix: str, *fields: tuple[str, str]) -> str:
    """``prefix:(?P<name>pattern):...``: the custom_id template of a kind."""
    return prefix + "".join(f":(?P<{name}>{pattern})" for name, pattern in fields)


NUMBER = r"\d+"
MATCH = ("match", NUMBER)
SEAT_FIELDS = (MATCH, ("version", NUMBER), ("seat", NUMBER))


# ---------------------------------------------------------------------------
# What the cogs offer to their components
# ---------------------------------------------------------------------------


class LobbyHandlers(Protocol):
    async def lobby_action(
        self,
        interaction: discord.Interaction,
        action: str,
        level: str = "normal",
        lobby_id: int | None = None,
    ) -> None: ...

    async def rematch(self, interaction: discord.Interaction, match_id: int) -> None: ...


class PlayHandlers(Protocol):
    async def play_index(
        self, interaction: discord.Interaction, item: SeatItem[Any], index: int
    ) -> None: ...

    async def menu_choice(
        self, interaction: discord.Interaction, item: MenuSelect, value: str
    ) -> None: ...

    async def show_hand(self, interaction: discord.Interaction, match_id: int) -> None: ...


class RecordsHandlers(Protocol):
    async def leaderboard_page(
        self, interaction: discord.Interaction, game_id: str, scope: str, page: int
    ) -> None: ...

    async def replay_step(
        self, interaction: discord.Interaction, match_id: int, step: int
    ) -> None: ...


class UndoHandlers(Protocol):
    async def answer_undo(
        self, interaction: discord.Interaction, match_id: int, version: int, accept: bool
    ) -> None: ...


class LearnHandlers(Protocol):
    async def learn_index(
        self, interaction: discord.Interaction, session: int, version: int, index: int
    ) -> None: ...

    async def learn_menu(
        self,
        interaction: discord.Interaction,
        session: int,
        version: int,
        path: str,
        page: int,
        value: str,
    ) -> None: ...

    async def learn_button(
        self, interaction: discord.Interaction, session: int, action: str
    ) -> None: ...


def handlers(interaction: discord.Interaction, cog_name: str) -> Any:
    """The cog that handles a component's click."""
    bot = interaction.client
    cog = bot.get_cog(cog_name) if isinstance(bot, BotCore) else None
    if cog is None:
        raise RuntimeError(f"no {cog_name} to handle the component")
    return cog


# ---------------------------------------------------------------------------
# Bases
# ---------------------------------------------------------------------------


class GueridonItem(discord.ui.DynamicItem[ItemT], abc.ABC, template=r"(?!)"):
    """A persistent component: a click runs :meth:`run` through the adapter's
    one error path (in flight for the bot's close, refusals ephemeral in the
    user's language, anything else the internal-error text and a traceback).
    The base's own template matches nothing: it is never registered."""

    async def callback(self, interaction: discord.Interaction) -> None:
        async with guard(interaction, getattr(self, "match_id", None)):
            await self.run(interaction)

    @abc.abstractmethod
    async def run(self, interaction: discord.Interaction) -> None:
        """What a click does (each component kind says)."""


class MatchItem(GueridonItem[ItemT], template=r"(?!)"):
    """A component about one match: its custom_id's first number is the match id."""

    match_id: int


class SeatItem(MatchItem[ItemT], template=r"(?!)"):
    """A choice offered to one seat at one version of a match
    (``<prefix>:<match>:<version>:<seat>:...``)."""

    version: int
    seat: int

    def _set_seat(self, match_id: int, version: int, seat: int) -> None:
        self.match_id, self.version, self.seat = match_id, version, seat

    async def fresh_match(self, interaction: discord.Interaction) -> LiveMatch:
        """The match, if the clicker holds the seat and the component belongs
        to the current version (else a refusal)."""
        bot = interaction.client
        assert isinstance(bot, BotCore)
        live = await bot.host.current_match(self.match_id)
        if not 0 <= self.seat < live.match.seats or live.user_of(self.seat) != interaction.user.id:
            raise HostError("not-seated")
        if live.version != self.version:
            raise HostError("stale")
        return live


def _seat_numbers(match: re.Match[str]) -> tuple[int, int, int]:
    return int(match["match"]), int(match["version"]), int(match["seat"])


def _select_state(
    item: discord.ui.Item[Any],
) -> tuple[list[discord.SelectOption] | None, str | None]:
    if isinstance(item, discord.ui.Select):
        return list(item.options), item.placeholder
    return None, None


def one_choice_select(
    custom_id: str,
    options: list[discord.SelectOption] | None,
    placeholder: str | None,
    fallback: str,
) -> discord.ui.Select[Any]:
    """A select of one choice; rebuilt from a custom_id alone (after a
    restart) it gets a placeholder option with the value ``fallback``."""
    return discord.ui.Select(
        custom_id=custom_id,
        options=options or [discord.SelectOption(label="…", value=fallback)],
        placeholder=placeholder,
        min_values=1,
        max_values=1,
    )


def _chosen(item: discord.ui.Select[Any]) -> str:
    values = item.values
    return values[0] if values else ""


# ---------------------------------------------------------------------------
# Lobbies
# ---------------------------------------------------------------------------


class LobbyButton(
    GueridonItem[discord.ui.Button[Any]],
    template=template("gl", ("action", "join|leave|start|cancel|addbot"), ("lobby", NUMBER)),
):
    def __init__(
        self,
        lobby_id: int,
        action: str,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label or action, style=style, custom_id=f"gl:{action}:{lobby_id}"
            )
        )
        self.lobby_id = lobby_id
        self.action = action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> LobbyButton:
        assert isinstance(item, discord.ui.Button)
        return cls(int(match["lobby"]), match["action"], item.label or "", item.style)

    async def run(self, interaction: discord.Interaction) -> None:
        cog = cast(LobbyHandlers, handlers(interaction, LOBBY))
        await cog.lobby_action(interaction, self.action, lobby_id=self.lobby_id)


class RematchButton(MatchItem[discord.ui.Button[Any]], template=template("gr", MATCH)):
    """On the final board: a new lobby with the same players and options."""

    def __init__(self, match_id: int, label: str = "Rematch") -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.success,
                custom_id=f"gr:{match_id}",
                emoji="🔁",
            )
        )
        self.match_id = match_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> RematchButton:
        return cls(int(match["match"]))

    async def run(self, interaction: discord.Interaction) -> None:
        cog = cast(LobbyHandlers, handlers(interaction, LOBBY))
        await cog.rematch(interaction, self.match_id)


# ---------------------------------------------------------------------------
# Playing
# ---------------------------------------------------------------------------


class MoveButton(
    SeatItem[discord.ui.Button[Any]], template=template("gm", *SEAT_FIELDS, ("index", NUMBER))
):
    """An action, by its index in the seat's action menu at that version."""

    def __init__(self, match_id: int, version: int, seat: int, index: int, label: str = "") -> None:
        super().__init__(
            discord.ui.Button(
                label=label or str(index),
                style=discord.ButtonStyle.primary,
                custom_id=f"gm:{match_id}:{version}:{seat}:{index}",
            )
        )
        self._set_seat(match_id, version, seat)
        self.index = index

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> MoveButton:
        label = item.label if isinstance(item, discord.ui.Button) else ""
        return cls(*_seat_numbers(match), int(match["index"]), label or "")

    async def run(self, interaction: discord.Interaction) -> None:
        cog = cast(PlayHandlers, handlers(interaction, PLAY))
        await cog.play_index(interaction, self, self.index)


class MoveSelect(
    SeatItem[discord.ui.Select[Any]], template=template("gs", *SEAT_FIELDS, ("chunk", NUMBER))
):
    """The same as :class:`MoveButton`, as a select (more than 20 actions)."""

    def __init__(
        self,
        match_id: int,
        version: int,
        seat: int,
        chunk: int,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
    ) -> None:
        super().__init__(
            one_choice_select(f"gs:{match_id}:{version}:{seat}:{chunk}", options, placeholder, "0")
        )
        self._set_seat(match_id, version, seat)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> MoveSelect:
        return cls(*_seat_numbers(match), int(match["chunk"]), *_select_state(item))

    async def run(self, interaction: discord.Interaction) -> None:
        value = _chosen(self.item)
        index = int(value) if value.isdecimal() else -1
        cog = cast(PlayHandlers, handlers(interaction, PLAY))
        await cog.play_index(interaction, self, index)


class MenuSelect(
    SeatItem[discord.ui.Select[Any]],
    template=template("gp", *SEAT_FIELDS, ("path", r"[\d.]*"), ("page", NUMBER), ("chunk", NUMBER)),
):
    """A level of a game's action menu (:mod:`bot.menu`): the custom_id holds
    the match, the version, the seat, the index path of the choices made so
    far and the page; the chosen value is a choice (``c3``) or a page
    (``p1``). A choice plays its action or answers, ephemerally, with the next
    level (and, for placements, an image of the numbered spots)."""

    def __init__(
        self,
        match_id: int,
        version: int,
        seat: int,
        path: str,
        page: int,
        chunk: int,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
    ) -> None:
        super().__init__(
            one_choice_select(
                f"gp:{match_id}:{version}:{seat}:{path}:{page}:{chunk}", options, placeholder, "c0"
            )
        )
        self._set_seat(match_id, version, seat)
        self.path, self.page = path, page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> MenuSelect:
        return cls(
            *_seat_numbers(match),
            match["path"],
            int(match["page"]),
            int(match["chunk"]),
            *_select_state(item),
        )

    async def run(self, interaction: discord.Interaction) -> None:
        value = _chosen(self.item)
        cog = cast(PlayHandlers, handlers(interaction, PLAY))
        await cog.menu_choice(interaction, self, value)


class HandButton(MatchItem[discord.ui.Button[Any]], template=template("gh", MATCH)):
    """On the public board: shows the clicker's private view, ephemerally."""

    def __init__(self, match_id: int, locale: str = "en") -> None:
        label = t(locale, "button-my-hand")
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                custom_id=f"gh:{match_id}",
                emoji="🃏",
            )
        )
        self.match_id = match_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> HandButton:
        return cls(int(match["match"]))

    async def run(self, interaction: discord.Interaction) -> None:
        cog = cast(PlayHandlers, handlers(interaction, PLAY))
        await cog.show_hand(interaction, self.match_id)


# ---------------------------------------------------------------------------
# Records
# ---------------------------------------------------------------------------


class LeaderboardPage(
    GueridonItem[discord.ui.Button[Any]],
    template=template("gb", ("game", "[a-z-]+"), ("scope", "[gs]"), ("page", NUMBER)),
):
    def __init__(
        self, game_id: str, scope: str, page: int, label: str = "", disabled: bool = False
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label or str(page),
                style=discord.ButtonStyle.secondary,
                custom_id=f"gb:{game_id}:{scope}:{max(page, 0)}",
                disabled=disabled,
            )
        )
        self.game_id, self.scope, self.page = game_id, scope, page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> LeaderboardPage:
        return cls(match["game"], match["scope"], int(match["page"]))

    async def run(self, interaction: discord.Interaction) -> None:
        cog = cast(RecordsHandlers, handlers(interaction, RECORDS))
        scope = "global" if self.scope == "g" else "server"
        await cog.leaderboard_page(interaction, self.game_id, scope, self.page)


class ReplayStep(
    MatchItem[discord.ui.Button[Any]],
    template=template("gv", MATCH, ("step", NUMBER), ("slot", "[a-z-]+")),
):
    def __init__(
        self, match_id: int, step: int, slot: str, label: str = "", disabled: bool = False
    ) -> None:
        short = slot.removeprefix("button-")
        super().__init__(
            discord.ui.Button(
                label=label or short,
                style=discord.ButtonStyle.secondary,
                custom_id=f"gv:{match_id}:{step}:{short}",
                disabled=disabled,
            )
        )
        self.match_id, self.step = match_id, step

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ReplayStep:
        return cls(int(match["match"]), int(match["step"]), match["slot"])

    async def run(self, interaction: discord.Interaction) -> None:
        cog = cast(RecordsHandlers, handlers(interaction, RECORDS))
        await cog.replay_step(interaction, self.match_id, self.step)


class UndoButton(
    MatchItem[discord.ui.Button[Any]],
    template=template("gu", MATCH, ("version", NUMBER), ("answer", "[ar]")),
):
    """Accept (``a``) or refuse (``r``) a take-back request about a match
    version (bot/undo.py); a click for another version is refused as stale."""

    def __init__(self, match_id: int, version: int, accept: bool, label: str = "") -> None:
        super().__init__(
            discord.ui.Button(
                label=label or ("Accept" if accept else "Refuse"),
                style=discord.ButtonStyle.success if accept else discord.ButtonStyle.danger,
                custom_id=f"gu:{match_id}:{version}:{'a' if accept else 'r'}",
            )
        )
        self.match_id = match_id
        self.version = version
        self.accept = accept

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> UndoButton:
        return cls(int(match["match"]), int(match["version"]), match["answer"] == "a")

    async def run(self, interaction: discord.Interaction) -> None:
        cog = cast(UndoHandlers, handlers(interaction, UNDO))
        await cog.answer_undo(interaction, self.match_id, self.version, self.accept)


# ---------------------------------------------------------------------------
# Lessons (/learn): in memory only, their numbers name a lesson, not a match
# ---------------------------------------------------------------------------

LESSON_FIELDS = (("session", NUMBER), ("version", NUMBER))


class LearnMoveButton(
    GueridonItem[discord.ui.Button[Any]],
    template=template("lm", *LESSON_FIELDS, ("index", NUMBER)),
):
    """A lesson's move, by its index in the learner's menu at that version."""

    def __init__(self, session: int, version: int, index: int, label: str = "") -> None:
        super().__init__(
            discord.ui.Button(
                label=label or str(index),
                style=discord.ButtonStyle.primary,
                custom_id=f"lm:{session}:{version}:{index}",
            )
        )
        self.session, self.version, self.index = session, version, index

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> LearnMoveButton:
        label = item.label if isinstance(item, discord.ui.Button) else ""
        return cls(int(match["session"]), int(match["version"]), int(match["index"]), label or "")

    async def run(self, interaction: discord.Interaction) -> None:
        cog = cast(LearnHandlers, handlers(interaction, LEARN))
        await cog.learn_index(interaction, self.session, self.version, self.index)


class LearnMoveSelect(
    GueridonItem[discord.ui.Select[Any]],
    template=template("ls", *LESSON_FIELDS, ("chunk", NUMBER)),
):
    """The same as :class:`LearnMoveButton`, as a select (more than 20 actions)."""

    def __init__(
        self,
        session: int,
        version: int,
        chunk: int,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
    ) -> None:
        super().__init__(
            one_choice_select(f"ls:{session}:{version}:{chunk}", options, placeholder, "0")
        )
        self.session, self.version = session, version

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> LearnMoveSelect:
        numbers = int(match["session"]), int(match["version"]), int(match["chunk"])
        return cls(*numbers, *_select_state(item))

    async def run(self, interaction: discord.Interaction) -> None:
        value = _chosen(self.item)
        index = int(value) if value.isdecimal() else -1
        cog = cast(LearnHandlers, handlers(interaction, LEARN))
        await cog.learn_index(interaction, self.session, self.version, index)


class LearnMenuSelect(
    GueridonItem[discord.ui.Select[Any]],
    template=template(
        "lp", *LESSON_FIELDS, ("path", r"[\d.]*"), ("page", NUMBER), ("chunk", NUMBER)
    ),
):
    """A level of the game's action menu in a lesson (see :class:`MenuSelect`):
    a choice plays its action or shows the next level in the same message."""

    def __init__(
        self,
        session: int,
        version: int,
        path: str,
        page: int,
        chunk: int,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
    ) -> None:
        super().__init__(
            one_choice_select(
                f"lp:{session}:{version}:{path}:{page}:{chunk}", options, placeholder, "c0"
            )
        )
        self.session, self.version, self.path, self.page = session, version, path, page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> LearnMenuSelect:
        return cls(
            int(match["session"]),
            int(match["version"]),
            match["path"],
            int(match["page"]),
            int(match["chunk"]),
            *_select_state(item),
        )

    async def run(self, interaction: discord.Interaction) -> None:
        value = _chosen(self.item)
        cog = cast(LearnHandlers, handlers(interaction, LEARN))
        await cog.learn_menu(interaction, self.session, self.version, self.path, self.page, value)


class LearnButton(
    GueridonItem[discord.ui.Button[Any]],
    template=template("lc", ("action", "hint|quit"), ("session", NUMBER)),
):
    """A lesson's Hint and Quit buttons."""

    def __init__(self, session: int, action: str, locale: str = "en") -> None:
        super().__init__(
            discord.ui.Button(
                label=t(locale, f"learn-button-{action}"),
                style=discord.ButtonStyle.secondary
                if action == "hint"
                else discord.ButtonStyle.danger,
                emoji="💡" if action == "hint" else None,
                custom_id=f"lc:{action}:{session}",
            )
        )
        self.session, self.action = session, action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> LearnButton:
        return cls(int(match["session"]), match["action"])

    async def run(self, interaction: discord.Interaction) -> None:
        cog = cast(LearnHandlers, handlers(interaction, LEARN))
        await cog.learn_button(interaction, self.session, self.action)


COMPONENTS: tuple[type[GueridonItem[Any]], ...] = (
    LobbyButton,
    MoveButton,
    MoveSelect,
    MenuSelect,
    HandButton,
    LeaderboardPage,
    ReplayStep,
    RematchButton,
    UndoButton,
    LearnMoveButton,
    LearnMoveSelect,
    LearnMenuSelect,
    LearnButton,
)
"""Every kind, in the order they are registered at start-up."""
