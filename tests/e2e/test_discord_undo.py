"""End to end: /undo, undo by consent, through the real discord.py client.

Via Belli is the table: its "+" (the summon menu) is an action a player may
take back and leaves the same player to act, so nobody (not even a bot) has
acted since. The match is addressed through ``LiveMatch.channel_id`` (its
thread in thread mode, the lobby's channel in channel mode).
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.discord import GueridonBot
from bot.i18n import t
from bot.service import LiveMatch
from engine.match import UNDO
from tests.e2e.test_discord_between_battle import World, live_match
from tests.fakediscord import FakeChannel, FakeDiscord, FakeMessage, FakeUser

TEXTS = {
    "en-US": {
        "asks": "asks to take back their last move",
        "took": "took back a move",
        "refused": "refused",
        "expired": "Nobody answered in time",
        "history": "1 move taken back",
    },
    "fr": {
        "asks": "demande à reprendre son dernier coup",
        "took": "a repris un coup",
        "refused": "a refusé",
        "expired": "Personne n'a répondu à temps",
        "history": "1 coup repris",
    },
}


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord.serve() as f:
        yield f


async def _start(world: World, bot: GueridonBot, *, with_bot: bool = False) -> LiveMatch:
    fake = world.fake
    await fake.slash(world.alice, world.chan, "lobby create", game="via-belli", seats=2)
    if with_bot:
        await fake.slash(world.alice, world.chan, "lobby addbot", level="easy")
    else:
        await fake.slash(world.bob, world.chan, "lobby join")
    await fake.slash(world.alice, world.chan, "lobby start")

    def started() -> LiveMatch | None:
        try:
            return live_match(bot, world.chan)
        except AssertionError:
            return None

    live: LiveMatch = await fake.wait_for(started)
    where = _where(world, live)
    await fake.wait_for(lambda: any(m.attachments for m in fake.channel_messages(where)))
    return live


def _where(world: World, live: LiveMatch) -> FakeChannel:
    return world.fake.channels[live.channel_id]


async def _menu(world: World, live: LiveMatch) -> tuple[FakeUser, FakeUser | None, bytes]:
    """The pending human opens the summon menu ("+"): ``(them, the other
    human or None, the state before)``."""
    fake = world.fake
    seat = next(s for s in sorted(live.match.pending()) if s not in live.bots)
    user = world.users[live.user_of(seat)]
    others = [world.users[u] for u, _ in live.players if u != user.id and u in world.users]
    before = live.game.dump_state(live.match.state)
    version = live.version
    boards = _boards(world, live)
    await fake.slash(user, _where(world, live), "play", move="+")
    await fake.wait_for(lambda: live.version == version + 1)
    # and its board is posted: else, under load, it may come after the undo
    # request and pass for the board of the take-back
    await fake.wait_for(lambda: _boards(world, live) > boards)
    return user, (others[0] if others else None), before


async def _request(world: World, live: LiveMatch, user: FakeUser) -> FakeMessage:
    fake = world.fake
    where = _where(world, live)
    res = await fake.slash(user, where, "undo")
    assert res.ephemeral
    return await fake.wait_for(
        lambda: next(
            (
                m
                for m in reversed(fake.channel_messages(where))
                if m.buttons() and "gu:" in m.buttons()[0]["custom_id"]
            ),
            None,
        )
    )


def _boards(world: World, live: LiveMatch) -> int:
    return sum(1 for m in world.fake.channel_messages(_where(world, live)) if m.attachments)


@pytest.mark.parametrize("locale", ["en-US", "fr"])
async def test_undo_accepted(fake: FakeDiscord, tmp_path: Path, locale: str) -> None:
    world = World(fake, tmp_path / "g.db", locale=locale)
    words = TEXTS[locale]
    bot = world.make_bot()
    async with fake.running(bot):
        live = await _start(world, bot)
        user, other, before = await _menu(world, live)
        assert other is not None
        request = await _request(world, live, user)
        assert words["asks"] in request.content and f"<@{other.id}>" in request.content
        boards = _boards(world, live)
        dms = len(fake.dm_messages(user))
        # only the player asked may answer
        res = await fake.click(world.eve, request, custom_id=request.buttons()[0]["custom_id"])
        assert res.ephemeral and "Only the players asked" in res.text
        await fake.click(other, request, custom_id=request.buttons()[0]["custom_id"])
        await fake.wait_for(lambda: words["took"] in fake.message(request.id).content)
        assert not fake.message(request.id).buttons()
        # the board goes back, and is posted again
        assert live.game.dump_state(live.match.state) == before
        await fake.wait_for(lambda: _boards(world, live) > boards)
        last = [m for m in fake.channel_messages(_where(world, live)) if m.attachments][-1]
        assert words["took"] in last.text
        # the requester's private view changed (the menu is closed again): sent again
        await fake.wait_for(lambda: len(fake.dm_messages(user)) > dms)
        # the record shows the !undo; a rated match's /history says so
        assert live.match.actions[-1] == (live.seat_of(user.id), UNDO)
        await fake.slash(world.alice, _where(world, live), "resign")
        await fake.wait_for(lambda: live.match.is_over)
        res = await fake.slash(world.alice, world.lobby_chan, "history")
        assert f"{live.id} Via Belli" in res.text and words["history"] in res.text
        res = await fake.slash(world.alice, world.lobby_chan, "replay", match=live.id)
        assert words["took"] in res.text


@pytest.mark.parametrize("locale", ["en-US", "fr"])
async def test_undo_refused(fake: FakeDiscord, tmp_path: Path, locale: str) -> None:
    world = World(fake, tmp_path / "g.db", locale=locale)
    bot = world.make_bot()
    async with fake.running(bot):
        live = await _start(world, bot)
        user, other, _ = await _menu(world, live)
        assert other is not None
        request = await _request(world, live, user)
        # a second request while one waits
        res = await fake.slash(user, _where(world, live), "undo")
        assert res.ephemeral and res.text
        state, version = live.match.state, live.version
        await fake.click(other, request, custom_id=request.buttons()[1]["custom_id"])
        await fake.wait_for(lambda: TEXTS[locale]["refused"] in fake.message(request.id).content)
        assert not fake.message(request.id).buttons()
        assert live.match.state is state and live.version == version


async def test_undo_times_out(fake: FakeDiscord, tmp_path: Path) -> None:
    world = World(fake, tmp_path / "g.db")
    bot = world.make_bot()
    async with fake.running(bot):
        live = await _start(world, bot)
        user, _, _ = await _menu(world, live)
        request = await _request(world, live, user)
        version = live.version
        # the service's tick, 2 minutes later
        bot.host.now = lambda: time.time() + bot.host.clock_config.undo_seconds + 1
        await bot.host.tick()
        await fake.wait_for(lambda: TEXTS["en-US"]["expired"] in fake.message(request.id).content)
        assert live.version == version


async def test_undo_against_a_bot_is_accepted_at_once(fake: FakeDiscord, tmp_path: Path) -> None:
    world = World(fake, tmp_path / "g.db")
    bot = world.make_bot()
    async with fake.running(bot):
        live = await _start(world, bot, with_bot=True)
        await fake.wait_for(lambda: any(s not in live.bots for s in live.match.pending()))
        user, other, before = await _menu(world, live)
        assert other is None
        res = await fake.slash(user, _where(world, live), "undo")
        assert res.ephemeral and "took back a move" in res.text
        assert live.game.dump_state(live.match.state) == before
        assert live.match.actions[-1][1] == UNDO


async def test_stale_button_and_refusals(fake: FakeDiscord, tmp_path: Path) -> None:
    world = World(fake, tmp_path / "g.db")
    bot = world.make_bot()
    async with fake.running(bot):
        live = await _start(world, bot)
        where = _where(world, live)
        # nobody has played yet: nothing to undo; a non-player is refused
        seat = sorted(live.match.pending())[0]
        first = world.users[live.user_of(seat)]
        res = await fake.slash(first, where, "undo")
        lang = "fr" if first is world.bob else "en"  # Bob reads French
        assert res.ephemeral and t(lang, "undo-refused-nothing") in res.text
        res = await fake.slash(world.eve, where, "undo")
        assert res.ephemeral and t("en", "undo-not-player") in res.text
        user, other, _ = await _menu(world, live)
        assert other is not None
        request = await _request(world, live, user)
        # the match moves on: the request's buttons are stale
        version = live.version
        legal = live.match.legal_notations(live.seat_of(user.id) or 0)
        await fake.slash(user, where, "play", move=legal[0])
        await fake.wait_for(lambda: live.version > version)
        res = await fake.click(other, request, custom_id=request.buttons()[0]["custom_id"])
        # in the clicker's language (Bob reads French)
        assert res.ephemeral and t("fr" if other is world.bob else "en", "undo-stale") in res.text
