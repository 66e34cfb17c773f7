"""End to end: Belle Position with armies the players wrote, through Discord."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from engine import rng
from tests.e2e.random_match import play_random_match
from tests.e2e.test_discord_between_battle import World, live_match, png
from tests.fakediscord import FakeDiscord

FRENCH = (
    "infanterie-de-la-garde*2,fusiliers-marins*2,infanterie-de-marche*3,"
    "gardes-pontificaux*2,artillerie-de-la-garde-ml*2,lanciers-uhlans,mitrailleuses,"
    "bourbaki,faidherbe,general-de-brigade,bois*2,retranchements*2,marche-forcee,ralliement"
)
GERMAN = (
    "garde-prussienne*2,jagers-prussiens*2,landwehr*3,artillerie-legere-bl*2,"
    "cuirassiers*2,kronprinz-friedrich,steinmetz,generalmajor,hauteur,bourg*2,ralliement*2"
)


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord.serve() as f:
        yield f


async def test_an_army_over_budget_is_refused_with_the_reason(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    world = World(fake, tmp_path / "g.db")
    async with fake.running(world.make_bot()):
        res = await fake.slash(
            world.alice,
            world.chan,
            "lobby create",
            game="belle-position",
            seats=2,
            options="french=infanterie-de-la-garde*21",  # 21 × 10 points
        )
        assert res.ephemeral
        assert "210 points is over the budget of 200" in res.text, res.text
        assert not [m for m in fake.channel_messages(world.chan) if m.components]


async def test_a_full_match_with_written_armies(fake: FakeDiscord, tmp_path: Path) -> None:
    world = World(fake, tmp_path / "g.db")
    bot = world.make_bot()
    async with fake.running(bot):
        res = await fake.slash(
            world.alice,
            world.chan,
            "lobby create",
            game="belle-position",
            seats=2,
            options=f"french={FRENCH} german={GERMAN} budget=250 turn_limit=2",
        )
        assert res.ephemeral, res.text
        await fake.slash(world.bob, world.chan, "lobby join")
        await fake.slash(world.alice, world.chan, "lobby start")
        live = live_match(bot, world.chan)
        # the written lists are the armies in play
        opts = live.match.options
        assert "bourbaki" in opts.french and "steinmetz" in opts.german  # type: ignore[attr-defined]
        written = {e.split("*")[0] for e in f"{FRENCH},{GERMAN}".split(",")}
        dealt = {c.type for army in live.match.state.armies for c in army.cards}
        assert {"bourbaki", "steinmetz"} <= dealt <= written
        await play_random_match(fake, world, live, rng.seed_state(5, "written armies"))
        boards = [m for m in fake.channel_messages(world.chan) if m.attachments]
        png(boards[-1])
        png(fake.dm_messages(world.alice)[-1])
