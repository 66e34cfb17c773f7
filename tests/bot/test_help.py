"""``/help`` names every slash command the bot registers, as a player's
client shows it (the French names in French), within Discord's limits; the
console's ``help`` names its ``undo``; ``--help`` says ``--learn``."""

from __future__ import annotations

import asyncio
import importlib.util
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from discord import app_commands

import i18n
from bot.console import parser
from bot.discord import GueridonBot, create_bot
from bot.discord.cogs import cogs
from bot.i18n import t
from bot.service import HostService
from bot.settings import Settings
from tests.bot.textcheck import problems

ROOT = Path(__file__).resolve().parents[2]
CONTENT_LIMIT = 2000  # a message's content (Discord's "Create Message" limits)


@pytest.fixture
async def bot(tmp_path: Path) -> AsyncIterator[GueridonBot]:
    made = create_bot(Settings(discord_token="x", database_path=str(tmp_path / "g.db")))
    made.service = await HostService.open(str(tmp_path / "g.db"))
    try:
        for cog in cogs(made):
            await made.add_cog(cog)
        yield made
    finally:
        await made.service.close()
        made.render_pool.close()
        made.bot_pool.close()
        await asyncio.sleep(0)


def shown(name: app_commands.locale_str, language: str) -> str:
    """A name as Discord shows it in ``language`` (what
    :class:`bot.discord.translation.Translator` gives, else the English)."""
    key = name.extras.get("key")
    if language != "en" and key is not None and key in i18n.keys(language):
        return i18n.translate(language, key)
    return name.message


def slash_names(bot: GueridonBot, language: str) -> list[str]:
    """Every command of the tree, ``/group sub`` for a subcommand."""
    found = []
    for command in bot.tree.walk_commands():
        if isinstance(command, app_commands.Group):
            continue
        words = [shown(command._locale_name or app_commands.locale_str(command.name), language)]
        parent = command.parent
        while parent is not None:
            words.insert(
                0, shown(parent._locale_name or app_commands.locale_str(parent.name), language)
            )
            parent = parent.parent
        found.append("/" + " ".join(words))
    return found


@pytest.mark.parametrize("language", ["en", "fr"])
async def test_help_names_every_registered_command(bot: GueridonBot, language: str) -> None:
    names = slash_names(bot, language)
    assert len(names) == len(set(names)) >= 29
    # issue 16's commands are among them
    for key in ("name-kick", "name-undo", "name-watch", "name-board", "name-learn"):
        assert any(n.endswith(i18n.translate(language, key)) for n in names), key
    text = t(language, "help-text")
    missing = [n for n in names if f"`{n}`" not in text and f"`{n} " not in text]
    assert not missing, missing
    assert len(text) <= CONTENT_LIMIT
    assert problems(text, language) == []


@pytest.mark.parametrize("language", ["en", "fr"])
def test_console_help_names_undo_and_the_arguments_say_learn(language: str) -> None:
    text = t(language, "console-help", examples="D")
    assert f"  {t(language, 'name-console-undo')} " in text
    assert "--learn" in parser(language).format_help()
    spec = importlib.util.spec_from_file_location("gueridon_run_help", ROOT / "run.py")
    assert spec is not None and spec.loader is not None
    run = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(run)
    assert "--learn" in (run.__doc__ or "")
