"""End to end: after matches, /history, /stats, /leaderboard, /replay and Rematch."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from engine import Match, MatchRecord, rng
from tests.e2e.random_match import play_random_match
from tests.e2e.test_discord_between_battle import (
    World,
    live_match,
    match_chan,
    open_and_start,
    png,
)
from tests.fakediscord import FakeDiscord


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord.serve() as f:
        yield f


@pytest.fixture
def world(fake: FakeDiscord, tmp_path: Path) -> World:
    return World(fake, tmp_path / "gueridon.db")


async def _play_out(fake: FakeDiscord, world: World, bot: object) -> int:
    live = live_match(bot, world.chan)  # type: ignore[arg-type]
    await play_random_match(
        fake, world, live, rng.seed_state(9), seat_choice="first", final_board=False
    )
    return live.id


async def test_records_after_matches(fake: FakeDiscord, world: World) -> None:
    bot = world.make_bot()
    async with fake.running(bot):
        await open_and_start(world, "characters=pirate,ninja hp=3")
        first = await _play_out(fake, world, bot)
        seed = str(bot.host.matches[first].match.seed)
        played = match_chan(fake, bot.host.matches[first])  # its thread, archived at the end
        await fake.wait_for(lambda: played.archived)
        # the final board offers a rematch: same players, same options
        final = next(m for m in fake.channel_messages(played) if seed in m.text)
        res = await fake.click(world.bob, final, label="Rematch")
        await fake.wait_for(lambda: "Revanche" in res.text)  # Bob reads French
        lobby = await bot.host.lobby_in(world.chan.id)
        assert lobby is not None and set(lobby.players) == {world.alice.id, world.bob.id}
        assert "characters=pirate,ninja" in lobby.options and "hp=3" in lobby.options
        assert lobby.host_id == world.bob.id
        await fake.slash(world.bob, world.chan, "lobby start")
        second = live_match(bot, world.chan).id
        await fake.slash(world.alice, world.chan, "resign")
        await fake.wait_for(lambda: bot.host.matches[second].match.is_over)

        # the second match's thread is archived at its end: records are asked in the
        # lobby's channel (Discord refuses commands in an archived thread)
        # /history lists both, newest first, with the resignation
        res = await fake.slash(world.alice, world.lobby_chan, "history")
        text = res.text
        assert f"#{second}" in text and f"#{first}" in text
        assert text.index(f"#{second}") < text.index(f"#{first}")
        assert "resigned" in text
        res = await fake.slash(world.bob, world.lobby_chan, "history", _options={"user": world.bob})
        assert "abandon" in res.text  # Bob reads French

        # /stats: a record per game and a rating chart
        res = await fake.slash(world.alice, world.lobby_chan, "stats")
        assert "Between Battle" in res.text and "2 played" in res.text
        assert "provisional" in res.text
        png(res.messages[-1])

        # /leaderboard: both players, as an image
        res = await fake.slash(world.alice, world.lobby_chan, "leaderboard", game="between-battle")
        png(res.messages[-1])
        rows, _, pages = await bot.host.leaderboard("between-battle", f"guild:{world.guild.id}", 1)
        assert {r[1] for r in rows} == {world.alice.id, world.bob.id} and pages == 1
        res = await fake.slash(
            world.alice, world.lobby_chan, "leaderboard", game="between-battle", scope="global"
        )
        png(res.messages[-1])

        # /replay: the JSON record replays to the same state; the viewer steps
        res = await fake.slash(world.eve, world.lobby_chan, "replay", match=first)
        message = res.messages[-1]
        files = {a.filename: a for a in message.attachments}
        record = json.loads(files[f"gueridon-match-{first}.json"].data)
        assert record["seed"] == seed and record["players"] == ["alice", "bob"]
        replayed = Match.replay(MatchRecord.from_json(record))
        assert replayed.state == bot.host.matches[first].match.state
        step = await fake.click(world.eve, message, label="First")
        await step.wait_update()
        assert "Step 0/" in fake.message(message.id).text
        step = await fake.click(world.eve, fake.message(message.id), label="Next")
        await step.wait_update()
        assert "Step 1/" in fake.message(message.id).text


async def test_replay_of_a_live_match_keeps_the_seed_secret(
    fake: FakeDiscord, world: World
) -> None:
    bot = world.make_bot()
    async with fake.running(bot):
        await open_and_start(world)
        live = live_match(bot, world.chan)
        res = await fake.slash(world.eve, world.chan, "replay", match=live.id)
        message = res.messages[-1]
        data = json.loads(next(a for a in message.attachments if a.filename.endswith(".json")).data)
        assert "seed" not in data and data["seed_sha256"] == live.match.seed_commitment
        assert "actions" not in data  # moves may name hidden cards
        assert "revealed at the end" in message.text
        res = await fake.slash(world.eve, world.chan, "replay", match=999)
        assert res.ephemeral and "999" in res.text
