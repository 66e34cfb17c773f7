"""End to end: what the host must not waste or lose (issue 11): no DM or
image for bot seats, acknowledgement before any store access, clear refusals
of bad input, locales that survive a restart."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.discord_app import GueridonBot
from tests.e2e.test_discord_between_battle import World, live_match
from tests.fakediscord import FakeDiscord


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord.serve() as f:
        yield f


@pytest.fixture
def world(fake: FakeDiscord, tmp_path: Path) -> World:
    return World(fake, tmp_path / "gueridon.db")


def _errors(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]


async def _play_against_a_bot(fake: FakeDiscord, world: World, bot: GueridonBot) -> None:
    """Alice against an easy bot, to the end, Alice typing /play."""
    await fake.slash(
        world.alice, world.chan, "lobby create", game="between-battle", seats=2, options="hp=3"
    )
    await fake.slash(world.alice, world.chan, "lobby addbot", level="easy")
    await fake.slash(world.alice, world.chan, "lobby start")
    live = live_match(bot, world.chan)
    for _ in range(200):
        await fake.wait_for(
            lambda: (
                live.match.is_over
                or any(live.user_of(s) == world.alice.id for s in live.match.pending())
            ),
            timeout=20,
        )
        if live.match.is_over:
            break
        seat = live.seats_of(world.alice.id)[0]
        version = live.version
        await fake.slash(world.alice, world.chan, "play", move=live.match.legal_notations(seat)[0])
        await fake.wait_for(lambda v=version: live.version > v)
    await bot.host.wait_for_bots()
    seed = str(live.match.seed)
    await fake.wait_for(lambda: any(seed in m.text for m in fake.channel_messages(world.chan)))
    assert live.match.is_over


async def test_bot_seats_get_no_dm_and_no_image(
    fake: FakeDiscord, world: World, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    bot = world.make_bot()
    drawn_for: list[int] = []
    private_message = bot.private_message

    async def counting(live: Any, seat: int, locale: str) -> Any:
        drawn_for.append(seat)
        return await private_message(live, seat, locale)

    bot.private_message = counting  # type: ignore[method-assign]
    async with fake.running(bot):
        await _play_against_a_bot(fake, world, bot)
        live = bot.host.matches[max(bot.host.matches)]
        alice_seat = live.seats_of(world.alice.id)[0]
        bot_seat = 1 - alice_seat
        assert live.user_of(bot_seat) < 0 and len(live.match.record().actions) >= 4
    # every private image was Alice's; none was drawn for the bot seat
    assert drawn_for and set(drawn_for) == {alice_seat}
    # no REST call about the synthetic user, no refused call at all
    assert not [r for r in fake.request_log if "/users/-" in r[1]]
    assert not [r for r in fake.request_log if r[2] >= 400], fake.request_log
    dm_opens = [r for r in fake.request_log if r[1].endswith("/users/@me/channels")]
    assert len(dm_opens) <= 1
    assert _errors(caplog) == []
