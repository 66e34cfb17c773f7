"""The Discord adapter's seams (``bot/discord/``): the custom_id formats of
messages already posted in servers, the one error path of commands and
components, handlers in flight, and the store reached only through the
service. The whole adapter against a fake Discord is in ``tests/e2e``."""

from __future__ import annotations

import ast
import asyncio
import logging
import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from discord import app_commands

from bot import Settings, create_bot
from bot.discord import (
    COMPONENTS,
    GueridonBot,
    HandButton,
    LeaderboardPage,
    LobbyButton,
    MenuSelect,
    MoveButton,
    MoveSelect,
    RematchButton,
    ReplayStep,
)
from bot.discord.components import (
    GueridonItem,
    LearnButton,
    LearnMenuSelect,
    LearnMoveButton,
    LearnMoveSelect,
    UndoButton,
)
from bot.discord.errors import GueridonTree, answer_failure
from bot.i18n import error_text, t
from bot.service import HostError

ADAPTER = Path(__file__).resolve().parents[2] / "bot" / "discord"

# the templates of the components as released: messages in servers carry them
RELEASED = {
    "LobbyButton": r"gl:(?P<action>join|leave|start|cancel|addbot):(?P<lobby>\d+)",
    "MoveButton": r"gm:(?P<match>\d+):(?P<version>\d+):(?P<seat>\d+):(?P<index>\d+)",
    "MoveSelect": r"gs:(?P<match>\d+):(?P<version>\d+):(?P<seat>\d+):(?P<chunk>\d+)",
    "MenuSelect": (
        r"gp:(?P<match>\d+):(?P<version>\d+):(?P<seat>\d+):(?P<path>[\d.]*)"
        r":(?P<page>\d+):(?P<chunk>\d+)"
    ),
    "HandButton": r"gh:(?P<match>\d+)",
    "LeaderboardPage": r"gb:(?P<game>[a-z-]+):(?P<scope>[gs]):(?P<page>\d+)",
    "ReplayStep": r"gv:(?P<match>\d+):(?P<step>\d+):(?P<slot>[a-z-]+)",
    "RematchButton": r"gr:(?P<match>\d+)",
    "LearnMoveButton": r"lm:(?P<session>\d+):(?P<version>\d+):(?P<index>\d+)",
    "LearnMoveSelect": r"ls:(?P<session>\d+):(?P<version>\d+):(?P<chunk>\d+)",
    "LearnMenuSelect": (
        r"lp:(?P<session>\d+):(?P<version>\d+):(?P<path>[\d.]*):(?P<page>\d+):(?P<chunk>\d+)"
    ),
    "LearnButton": r"lc:(?P<action>hint|quit):(?P<session>\d+)",
    "UndoButton": r"gu:(?P<match>\d+):(?P<version>\d+):(?P<answer>[ar])",
}


def test_custom_id_templates_are_the_released_ones() -> None:
    assert {c.__name__: c.__discord_ui_compiled_template__.pattern for c in COMPONENTS} == (
        RELEASED
    )


async def test_custom_ids_read_back_to_the_same_component() -> None:
    option = [discord.SelectOption(label="a", value="0")]
    made: list[tuple[GueridonItem[Any], str, dict[str, Any]]] = [
        (LobbyButton(7, "addbot", "Add"), "gl:addbot:7", {"lobby_id": 7, "action": "addbot"}),
        (MoveButton(3, 12, 1, 4, "x"), "gm:3:12:1:4", {"match_id": 3, "version": 12, "index": 4}),
        (MoveSelect(3, 12, 1, 2, option), "gs:3:12:1:2", {"match_id": 3, "seat": 1}),
        (
            MenuSelect(3, 12, 0, "1.0", 2, 1, option),
            "gp:3:12:0:1.0:2:1",
            {"match_id": 3, "version": 12, "seat": 0, "path": "1.0", "page": 2},
        ),
        (HandButton(9), "gh:9", {"match_id": 9}),
        (
            LeaderboardPage("via-belli", "g", 2, "next"),
            "gb:via-belli:g:2",
            {"game_id": "via-belli", "scope": "g", "page": 2},
        ),
        (ReplayStep(9, 5, "button-next", "next"), "gv:9:5:next", {"match_id": 9, "step": 5}),
        (RematchButton(9), "gr:9", {"match_id": 9}),
        (LearnMoveButton(8, 3, 4, "x"), "lm:8:3:4", {"session": 8, "version": 3, "index": 4}),
        (LearnMoveSelect(8, 3, 1, option), "ls:8:3:1", {"session": 8, "version": 3}),
        (
            LearnMenuSelect(8, 3, "2.1", 1, 0, option),
            "lp:8:3:2.1:1:0",
            {"session": 8, "version": 3, "path": "2.1", "page": 1},
        ),
        (LearnButton(8, "hint"), "lc:hint:8", {"session": 8, "action": "hint"}),
        (UndoButton(9, 4, False), "gu:9:4:r", {"match_id": 9, "version": 4, "accept": False}),
    ]
    assert {type(item) for item, _, _ in made} == set(COMPONENTS)
    for item, custom_id, fields in made:
        assert item.custom_id == custom_id
        found = re.fullmatch(type(item).__discord_ui_compiled_template__, custom_id)
        assert found is not None, custom_id
        again = await type(item).from_custom_id(None, item.item, found)  # type: ignore[arg-type]
        assert {k: getattr(again, k) for k in fields} == fields
        assert again.custom_id == custom_id


def test_the_adapter_reaches_the_store_only_through_the_service() -> None:
    """No module of the adapter imports the store or reads a ``store``
    attribute (the bot's or the service's)."""
    touching = []
    for path in sorted(ADAPTER.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                (isinstance(node, ast.Attribute) and node.attr == "store")
                or (isinstance(node, ast.ImportFrom) and (node.module or "").endswith("store"))
                or (
                    isinstance(node, ast.Import)
                    and any(a.name.endswith(".store") for a in node.names)
                )
            ):
                touching.append(f"{path.name}:{node.lineno}")
    assert len(list(ADAPTER.rglob("*.py"))) > 5
    assert touching == []


# ---------------------------------------------------------------------------
# The error path, with a stub interaction that records what it is sent
# ---------------------------------------------------------------------------


class Stub:
    """What the error path reads of an interaction; ``sent`` records
    ``(how, ephemeral, content)``."""

    def __init__(self, bot: GueridonBot, locale: str = "fr", acked: bool = False) -> None:
        self.id = 4242
        self.client = bot
        self.locale = discord.Locale(locale)
        self.sent: list[tuple[str, bool, str | None]] = []
        self.deleted = 0
        self.acked = acked
        self.response = SimpleNamespace(
            is_done=lambda: self.acked, send_message=self._send, defer=self._defer
        )
        self.followup = SimpleNamespace(send=self._follow)

    async def _defer(self, **kwargs: Any) -> None:
        self.acked = True

    async def _send(self, content: str | None = None, *, ephemeral: bool = False, **_: Any) -> None:
        self.acked = True
        self.sent.append(("response", ephemeral, content))

    async def _follow(
        self, content: str | None = None, *, ephemeral: bool = False, **_: Any
    ) -> None:
        self.sent.append(("followup", ephemeral, content))

    async def delete_original_response(self) -> None:
        self.deleted += 1


@pytest.fixture
def bot(tmp_path: Path) -> GueridonBot:
    made = create_bot(Settings(discord_token="x", database_path=str(tmp_path / "g.db")))
    assert isinstance(made.tree, GueridonTree)
    return made


def _refusal(locale: str, err: HostError) -> str:
    return t(locale, "error-prefix", message=error_text(locale, err.key, err.rules, **err.params))


@pytest.mark.parametrize("acked", [False, True])
async def test_a_refusal_is_ephemeral_in_the_users_language(bot: GueridonBot, acked: bool) -> None:
    """Raised by a command (wrapped by discord.py) before or after the
    acknowledgement: one ephemeral answer, in French for a French user."""
    err = HostError("no-such-match", match=12)
    inter = Stub(bot, "fr", acked=acked)
    command: Any = SimpleNamespace(name="replay", qualified_name="replay")
    await bot.tree.on_error(inter, app_commands.CommandInvokeError(command, err))  # type: ignore[arg-type]
    how = "followup" if acked else "response"
    assert inter.sent == [(how, True, _refusal("fr", err))]
    assert "12" in (inter.sent[0][2] or "")


async def test_a_refusal_replaces_a_public_placeholder(bot: GueridonBot) -> None:
    inter = Stub(bot, "en-US", acked=True)
    bot.public_thinking.add(inter.id)
    await answer_failure(inter, HostError("stale"))  # type: ignore[arg-type]
    assert inter.deleted == 1 and inter.id not in bot.public_thinking
    assert inter.sent == [("followup", True, _refusal("en-US", HostError("stale")))]


async def test_a_surprise_is_logged_and_answered_plainly(
    bot: GueridonBot, caplog: pytest.LogCaptureFixture
) -> None:
    inter = Stub(bot, "fr", acked=True)
    await answer_failure(inter, ZeroDivisionError("boom"))  # type: ignore[arg-type]
    assert inter.sent == [("followup", True, t("fr", "internal-error"))]
    [record] = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert record.exc_info is not None and record.exc_info[0] is ZeroDivisionError


class Failing(GueridonItem[discord.ui.Button[Any]], template=r"zz:(?P<n>\d+)"):
    """A component whose click raises what it is given."""

    def __init__(self, error: Exception) -> None:
        super().__init__(discord.ui.Button(label="x", custom_id="zz:1"))
        self.error = error
        self.busy_inside = -1

    async def run(self, interaction: discord.Interaction) -> None:
        client = interaction.client
        assert isinstance(client, GueridonBot)
        self.busy_inside = client._busy
        await interaction.response.defer()
        raise self.error


async def test_a_components_failure_takes_the_same_path(
    bot: GueridonBot, caplog: pytest.LogCaptureFixture
) -> None:
    err = HostError("not-seated")
    inter = Stub(bot, "fr")
    item = Failing(err)
    await item.callback(inter)  # type: ignore[arg-type]
    assert item.busy_inside == 1 and bot._busy == 0  # in flight while it ran
    assert inter.sent == [("followup", True, _refusal("fr", err))]
    inter = Stub(bot, "en-US")
    await Failing(KeyError("x")).callback(inter)  # type: ignore[arg-type]
    assert inter.sent == [("followup", True, t("en-US", "internal-error"))]
    assert [r.exc_info[0] for r in caplog.records if r.exc_info] == [KeyError]


async def test_a_command_is_in_flight_until_its_task_ends(bot: GueridonBot) -> None:
    """The tree counts the task running a command (and then its error
    handler) as in flight: the bot's close waits for it."""
    release = asyncio.Event()
    inter = Stub(bot)
    bot.public_thinking.add(inter.id)

    async def command() -> None:
        assert await bot.tree.interaction_check(inter)  # type: ignore[arg-type]
        await release.wait()

    task = asyncio.create_task(command())
    await asyncio.sleep(0.01)
    assert bot._busy == 1 and not bot._idle.is_set()
    waiting = asyncio.create_task(bot.wait_idle(timeout=5))
    await asyncio.sleep(0.01)
    assert not waiting.done()
    release.set()
    await asyncio.wait_for(waiting, timeout=5)
    await task
    assert bot._busy == 0 and inter.id not in bot.public_thinking


def test_the_package_exports_what_it_lists() -> None:
    import bot.discord as package

    assert sorted(package.__all__) == sorted(package._EXPORTS)
    for name in package.__all__:
        assert getattr(package, name) is not None
    with pytest.raises(AttributeError):
        package.nothing_of_the_sort  # noqa: B018
