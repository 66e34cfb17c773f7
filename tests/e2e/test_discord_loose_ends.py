"""End to end, issue 16's loose ends: ``/lobby cancel`` (and the lobby's
Cancel button) in the lobby's channel while its match plays in a thread say
where to cancel; spectators are known before a restarted bot resumes its
matches."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.discord.components import LobbyButton
from bot.lobby_options import readable_options
from bot.service import HostService
from tests.bot.textcheck import problems
from tests.e2e.test_discord_between_battle import World, live_match, open_and_start
from tests.fakediscord import FakeDiscord


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord.serve() as f:
        yield f


@pytest.mark.parametrize("language", ["en", "fr"])
async def test_cancel_in_the_lobby_channel_names_the_matchs_thread(
    fake: FakeDiscord, tmp_path: Path, language: str
) -> None:
    world = World(fake, tmp_path / "g.db")
    who = world.alice if language == "en" else world.bob  # Bob reads French
    bot = world.make_bot()
    async with fake.running(bot):
        await open_and_start(world)
        live = live_match(bot, world.lobby_chan)
        assert live.channel_id != world.lobby_chan.id  # it plays in its thread
        thread = f"<#{live.channel_id}>"
        res = await fake.slash(who, world.lobby_chan, "lobby cancel")
        assert res.ephemeral and thread in res.text, res.text
        assert problems(res.text, language) == []
        assert ("/salon annuler" if language == "fr" else "/lobby cancel") in res.text
        # a Cancel button of that lobby (an older lobby message, say) says the same
        assert live.lobby_id is not None
        view = discord.ui.View(timeout=None)
        view.add_item(LobbyButton(live.lobby_id, "cancel", "Cancel"))
        sent = await bot.get_partial_messageable(world.lobby_chan.id).send("lobby", view=view)
        clicked = await fake.click(who, fake.message(sent.id), label="Cancel")
        await fake.wait_for(lambda: thread in (clicked.text or ""))
        assert clicked.ephemeral
        # nothing was cancelled; in the thread, the host cancels
        assert bot.host.match_in(live.channel_id) is live
        res = await fake.slash(world.alice, fake.channels[live.channel_id], "lobby cancel")
        assert bot.host.match_in(live.channel_id) is None


async def test_spectators_are_known_before_matches_resume(
    fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A board announced while a restarted bot resumes its matches (a bot
    seat's move, the clock) reaches the spectators: they are loaded first."""
    world = World(fake, tmp_path / "g.db")
    bot = world.make_bot()
    async with fake.running(bot):
        settings = await bot.host.guild_settings(world.guild.id)
        await bot.host.save_guild_settings(settings.model_copy(update={"match_mode": "channel"}))
        await open_and_start(world)
        live = live_match(bot, world.chan)
        await fake.slash(world.eve, world.chan, "watch")
        await fake.wait_for(lambda: fake.dm_messages(world.eve))
    seen: list[Any] = []
    kick_bots = HostService.kick_bots

    def spying(self: HostService, resumed: Any) -> None:
        cog: Any = bot2.get_cog("watch")
        seen.append(None if cog is None else cog.spectators.of(resumed.id))
        kick_bots(self, resumed)

    monkeypatch.setattr(HostService, "kick_bots", spying)
    bot2 = world.make_bot()
    async with fake.running(bot2):
        assert seen == [(world.eve.id,)], seen
        assert bot2.host.matches[live.id].match.version == live.match.version


async def test_rules_show_the_options_in_force_in_words(fake: FakeDiscord, tmp_path: Path) -> None:
    world = World(fake, tmp_path / "g.db")
    bot = world.make_bot()
    options = "characters=pirate,ninja hp=3"
    async with fake.running(bot):
        await fake.slash(
            world.alice, world.chan, "lobby create", game="between-battle", seats=2, options=options
        )
        # the open lobby's options, then the match's (in its thread), in words
        words = readable_options("en", "between-battle", options)
        for channel in (world.lobby_chan, None):
            if channel is None:
                await fake.slash(world.bob, world.lobby_chan, "lobby join")
                await fake.slash(world.alice, world.lobby_chan, "lobby start")
                channel = fake.channels[live_match(bot, world.lobby_chan).channel_id]
            res = await fake.slash(world.eve, channel, "rules", game="between-battle")
            text = res.messages[-1].embeds[0]["description"]
            assert f"Options in force here: {words}" in text.split("\n"), text
            assert "hp=3" not in text
