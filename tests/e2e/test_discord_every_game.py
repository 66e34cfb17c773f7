"""End to end: a full match of every game the host offers, through /play."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.discord import GueridonBot
from bot.i18n import t
from bot.service import LiveMatch, hostable_games
from engine import GAMES, rng
from tests.bot.textcheck import problems
from tests.e2e.random_match import play_random_match
from tests.e2e.test_discord_between_battle import World, live_match, png
from tests.fakediscord import FakeDiscord, FakeMessage


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord.serve() as f:
        yield f


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
            options=GAMES[game_id].quick_options,
        )
        assert res.ephemeral, res.text
        await fake.slash(world.bob, world.chan, "lobby join")
        await fake.slash(world.alice, world.chan, "lobby start")
        live = live_match(bot, world.chan)
        await play_random_match(fake, world, live, rng.seed_state(11, game_id))
        boards = [m for m in fake.channel_messages(world.chan) if m.attachments]
        png(boards[-1])
        assert fake.dm_messages(world.alice) and fake.dm_messages(world.bob)
        png(fake.dm_messages(world.bob)[-1])


def _texts(message: FakeMessage) -> list[str]:
    """Every text of a message a player can read: content, embeds, the labels,
    placeholders and descriptions of its components, in every edited version."""
    out = [message.text]
    for version in message.history:
        old = FakeMessage(id=0, channel_id=0, author=message.author)
        old.content = version.get("content") or ""
        old.embeds = list(version.get("embeds") or [])
        out.append(old.text)
    for comp in message.all_components():
        for key in ("label", "placeholder"):
            if comp.get(key):
                out.append(str(comp[key]))
        for option in comp.get("options", []):
            out += [str(option.get("label", "")), str(option.get("description") or "")]
    return [text for text in out if text]


async def against_a_bot(
    fake: FakeDiscord, world: World, bot: GueridonBot, game_id: str, moves: int = 3000
) -> LiveMatch:
    """Alice opens a match of ``game_id`` against an easy bot and plays random
    legal moves with ``/play`` (at most ``moves``, or to the end)."""
    alice = world.alice
    await fake.slash(
        alice,
        world.chan,
        "lobby create",
        game=game_id,
        seats=2,
        options=GAMES[game_id].quick_options,
    )
    await fake.slash(alice, world.chan, "lobby addbot", level="easy")
    await fake.slash(alice, world.chan, "lobby start")
    live = live_match(bot, world.chan)
    await play_random_match(
        fake,
        world,
        live,
        rng.seed_state(5, game_id + world.guild.locale),
        seat_choice="first",
        players={alice.id},
        max_moves=moves,
        timeout=30,
        final_board=False,
    )
    return live


@pytest.mark.parametrize("locale", ["en-US", "fr"])
@pytest.mark.parametrize("game_id", hostable_games())
async def test_a_full_match_against_a_bot_reads_right(
    fake: FakeDiscord,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    game_id: str,
    locale: str,
) -> None:
    """A whole match of every game against a bot, in English and in French:
    no message, embed or component the fake received shows a raw key or
    English inside French, and nothing is logged at ERROR (but the known DM
    to the bot seat, see ``test_no_error_is_logged_against_a_bot``)."""
    caplog.set_level(logging.ERROR)
    world = World(fake, tmp_path / "g.db", locale=locale)
    alice = world.alice
    bot = world.make_bot()
    async with fake.running(bot):
        live = await against_a_bot(fake, world, bot, game_id)
        assert live.match.is_over
        seed = str(live.match.seed)
        await fake.wait_for(
            lambda: any(seed in m.text for m in fake.channel_messages(world.chan)), timeout=30
        )
        await bot.host.wait_for_bots()
        # in the lobby's channel: the match's thread is archived, and Discord
        # takes no command in an archived thread
        await fake.slash(alice, world.lobby_chan, "history")
        await fake.slash(alice, world.lobby_chan, "rules", game=game_id)
        await fake.slash(alice, world.lobby_chan, "play", move="zzz")
        await fake.slash(alice, world.lobby_chan, "lobby create", game=game_id, options="nope=1")
    lang = "fr" if locale == "fr" else "en"
    bad = [
        f"{problem}: {text[:200]!r}"
        for message in list(fake.messages.values())
        for text in _texts(message)
        for problem in problems(text, lang, ("alice",))
    ]
    assert not bad, "\n".join(dict.fromkeys(bad))
    assert any(t(lang, "result-title") in m.text for m in fake.messages.values())
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, [f"{r.name}: {r.getMessage()}" for r in errors]


@pytest.mark.parametrize("game_id", hostable_games())
async def test_no_error_is_logged_against_a_bot(
    fake: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture, game_id: str
) -> None:
    caplog.set_level(logging.ERROR)
    world = World(fake, tmp_path / "g.db")
    bot = world.make_bot()
    async with fake.running(bot):
        await against_a_bot(fake, world, bot, game_id, moves=3)
        await bot.host.wait_for_bots()
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, [f"{r.name}: {r.getMessage()}" for r in errors]
