"""End to end (issue 16, review): what a player meets on a server after a
while, through the real discord.py client on the fake Discord.

* Discord archives a match's thread left silent for its auto-archive
  duration (a correspondence match waits up to a day for a move): ``/watch``
  from the lobby's channel still adds the spectator to it, reopening it first,
  since Discord refuses new members in an archived thread (400 / 50083).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.bot.textcheck import problems
from tests.e2e.test_discord_between_battle import World, live_match, open_and_start
from tests.fakediscord import FakeDiscord


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord.serve() as f:
        yield f


@pytest.mark.parametrize("language", ["en", "fr"])
async def test_watch_joins_a_thread_discord_archived_for_silence(
    fake: FakeDiscord, tmp_path: Path, language: str
) -> None:
    world = World(fake, tmp_path / "g.db")
    locale = "en-US" if language == "en" else "fr"
    zoe = fake.add_user("zoé", guild=world.guild, locale=locale)
    bot = world.make_bot()
    async with fake.running(bot):
        await open_and_start(world, options="characters=pirate,ninja hp=3")
        live = live_match(bot, world.chan)
        thread = fake.channels[live.channel_id]
        assert thread.is_thread
        fake.auto_archive(thread)
        # discord.py drops an archived thread from its cache
        await fake.wait_for(lambda: bot.get_channel(thread.id) is None)
        # no command runs in an archived thread: zoé asks from the lobby's channel
        res = await fake.slash(zoe, world.lobby_chan, "watch", match=live.id)
        assert res.ephemeral
        assert problems(res.text, language) == []
        assert thread.mention in res.text
        assert zoe.id in fake.thread_members(thread)
        assert not thread.archived
        assert fake.take_violations() == []
