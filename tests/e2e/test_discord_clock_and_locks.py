"""End to end (issue 11 follow-ups): the reminder gives the time really left,
in the player's language, and announcement locks do not outlive their
announcements (finished and evicted matches keep none)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot import Settings, create_bot
from tests.e2e.test_discord_between_battle import World, live_match
from tests.e2e.test_discord_host_robustness import _play_against_a_bot
from tests.fakediscord import DiscordError, FakeDiscord, FakeMessage


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord.serve() as f:
        yield f


@pytest.mark.parametrize(
    ("locale", "expected"),
    [("en-US", "about 1 second left"), ("fr", "il reste environ 1 seconde avant")],
)
async def test_the_reminder_says_seconds_when_seconds_are_left(
    fake: FakeDiscord, tmp_path: Path, locale: str, expected: str
) -> None:
    """A fast clock of 2 s a decision: the half-time reminder comes with
    about one second left, and says so (it used to say "about 1 min")."""
    world = World(fake, tmp_path / "g.db", locale=locale)
    alice = world.alice
    bot = world.make_bot(fast_seconds=2.0, fast_bank_seconds=0.0, tick_seconds=0.1)
    async with fake.running(bot):
        await fake.slash(
            alice,
            world.chan,
            "lobby create",
            game="between-battle",
            seats=2,
            options="hp=3",
            clock="fast",
        )
        await fake.slash(alice, world.chan, "lobby addbot", level="easy")
        await fake.slash(alice, world.chan, "lobby start")
        live = live_match(bot, world.chan)

        def reminder() -> FakeMessage | None:
            return next((m for m in fake.dm_messages(alice) if "⏰" in m.text), None)

        message = await fake.wait_for(reminder, timeout=20)
        assert expected in message.text, message.text
        assert "min" not in message.text, message.text
        await bot.host.wait_for_bots()
        assert live.id in bot.host.matches


async def test_announcement_locks_are_dropped(fake: FakeDiscord, tmp_path: Path) -> None:
    """Matches against bots, played to the end: no announcement lock is left
    for any of them, finished or evicted from the service's memory."""
    world = World(fake, tmp_path / "g.db")
    bot = world.make_bot()
    async with fake.running(bot):
        bot.host.keep_inactive = 1  # the first match is evicted when the second ends
        finished = []
        for _ in range(2):
            await _play_against_a_bot(fake, world, bot)  # to the end, the seed revealed
            finished.append(max(bot.host.matches))
        await fake.wait_for(lambda: not bot.announce_locks, timeout=5)
        assert finished[0] not in bot.host.matches  # evicted
        assert not bot.announce_locks and not bot.pending_lines and not bot.pending_private


async def test_announcements_of_a_match_wait_for_each_other(tmp_path: Path) -> None:
    """The lock still serialises the announcements of one match while they run."""
    bot = create_bot(Settings(discord_token="x", database_path=str(tmp_path / "g.db")))
    order: list[str] = []
    first_in = asyncio.Event()
    release = asyncio.Event()

    async def first() -> None:
        async with bot.announcing(7):
            order.append("first in")
            first_in.set()
            await release.wait()
            order.append("first out")

    async def second() -> None:
        await first_in.wait()
        async with bot.announcing(7):
            order.append("second in")

    async def other_match() -> None:
        await first_in.wait()
        async with bot.announcing(8):
            order.append("other match")

    tasks = [asyncio.create_task(f()) for f in (first, second, other_match)]
    await asyncio.wait_for(first_in.wait(), timeout=5)
    for _ in range(5):
        await asyncio.sleep(0)
    assert order == ["first in", "other match"]  # another match does not wait
    assert set(bot.announce_locks) == {7}
    release.set()
    await asyncio.gather(*tasks)
    assert order == ["first in", "other match", "first out", "second in"]
    assert bot.announce_locks == {}


async def test_replay_declares_the_range_of_a_match_id(fake: FakeDiscord, tmp_path: Path) -> None:
    """/replay's match id is declared 1..2^53, so Discord itself refuses 0, a
    negative or an absurd number; an id in range that names no match still
    gets the bot's own private refusal."""
    world = World(fake, tmp_path / "g.db")
    async with fake.running(world.make_bot()):
        [spec] = fake.command("replay")["options"]
        assert (spec["type"], spec["min_value"], spec["max_value"]) == (4, 1, 2**53)
        for absurd in (0, -5, 2**53 + 1, 2**63):
            with pytest.raises(DiscordError) as info:
                await fake.slash(world.alice, world.chan, "replay", match=absurd)
            assert (info.value.status, info.value.code) == (400, 50035)
        res = await fake.slash(world.alice, world.chan, "replay", match=2**53)
        [answer] = await res.wait_followups(1)
        assert answer.ephemeral and str(2**53) in answer.text, answer.text
