"""End to end: a full match of every game the host offers, through /play."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.service import LiveMatch, hostable_games
from engine import rng
from tests.e2e.test_discord_between_battle import World, live_match, png
from tests.fakediscord import FakeDiscord

# Options that keep a random match short enough for the suite.
SHORT = {
    "between-battle": "hp=3",
    "belle-position": "turn_limit=2",
    "via-belli": "table=gueridon",
}


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord.serve() as f:
        yield f


async def play_at_random(fake: FakeDiscord, world: World, live: LiveMatch, chooser: int) -> None:
    """Play ``live`` to its end with random legal moves typed with ``/play``
    by whoever is pending, then wait for the final board (the seed revealed)."""
    for _ in range(5000):
        if live.match.is_over:
            break
        pending = sorted(live.match.pending())
        k, chooser = rng.randbelow(chooser, len(pending))
        seat = pending[k]
        user = world.users[live.user_of(seat)]
        legal = live.match.legal_notations(seat)
        i, chooser = rng.randbelow(chooser, len(legal))
        version = live.version
        res = await fake.slash(user, world.chan, "play", move=legal[i])
        assert res.ephemeral
        assert "Played" in res.text or "joué" in res.text, (legal[i], res.text)
        await fake.wait_for(lambda v=version: live.version > v)
    assert live.match.is_over
    seed = str(live.match.seed)
    # the last boards may still be drawing on a busy machine
    await fake.wait_for(
        lambda: any(seed in m.text for m in fake.channel_messages(world.chan)), timeout=30
    )


@pytest.mark.parametrize("game_id", hostable_games())
async def test_a_full_match_of_every_game(fake: FakeDiscord, tmp_path: Path, game_id: str) -> None:
    world = World(fake, tmp_path / "g.db")
    bot = world.make_bot()
    async with fake.running(bot):
        res = await fake.slash(
            world.alice,
            world.chan,
            "lobby create",
            game=game_id,
            seats=2,
            options=SHORT.get(game_id, ""),
        )
        assert res.ephemeral, res.text
        await fake.slash(world.bob, world.chan, "lobby join")
        await fake.slash(world.alice, world.chan, "lobby start")
        live = live_match(bot, world.chan)
        await play_at_random(fake, world, live, rng.seed_state(11, game_id))
        boards = [m for m in fake.channel_messages(world.chan) if m.attachments]
        png(boards[-1])
        assert fake.dm_messages(world.alice) and fake.dm_messages(world.bob)
        png(fake.dm_messages(world.bob)[-1])
