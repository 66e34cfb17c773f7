"""End to end: a seat's private message is sent again only when it reads
differently (issue 17). In Belle Position both seats decide some steps at
once; one seat's choice leaves the other's hand and decision alone: that
seat gets no new DM, its message's buttons move to the new version and
still play."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.service import private_key
from tests.e2e.test_discord_between_battle import World, live_match
from tests.fakediscord import FakeDiscord, FakeMessage


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord.serve() as f:
        yield f


def _ids(message: FakeMessage) -> list[str]:
    return [c["custom_id"] for c in [*message.buttons(), *message.selects()]]


async def test_a_seat_left_alone_keeps_its_dm_with_fresh_buttons(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    world = World(fake, tmp_path / "g.db")
    bot = world.make_bot()
    async with fake.running(bot):
        await fake.slash(
            world.alice,
            world.chan,
            "lobby create",
            game="belle-position",
            seats=2,
            options="turn_limit=2",
        )
        await fake.slash(world.bob, world.chan, "lobby join")
        await fake.slash(world.alice, world.chan, "lobby start")
        live = live_match(bot, world.chan)
        match, game = live.match, live.game
        for _ in range(60):
            pending = sorted(match.pending())
            seat = pending[0]
            user = world.users[live.user_of(seat)]
            move = match.legal_notations(seat)[0]
            other = 1 - seat
            other_user = world.users[live.user_of(other)]
            before = private_key(game, match.state, match.pending(), other)
            after_state, _ = game.apply_text(match.state, seat, move)
            after = private_key(game, after_state, game.pending(after_state), other)
            if other not in pending or before != after:
                version = match.version
                await fake.slash(user, world.chan, "play", move=move)
                await fake.wait_for(lambda v=version: match.version > v)
                continue
            break
        else:
            pytest.fail("no simultaneous step met")
        # ``other`` waits on a decision the move leaves alone
        await fake.wait_for(
            lambda: (
                bool(fake.dm_messages(other_user))
                and f":{match.version}:" in "".join(_ids(fake.dm_messages(other_user)[-1]))
            )
        )
        kept = [m.id for m in fake.dm_messages(other_user)]
        image = fake.dm_messages(other_user)[-1].attachments[0].data
        version = match.version
        res = await fake.slash(user, world.chan, "play", move=move)
        assert res.ephemeral, res.text
        await fake.wait_for(
            lambda: any(f":{version + 1}:" in i for i in _ids(fake.dm_messages(other_user)[-1]))
        )
        now = fake.dm_messages(other_user)
        assert [m.id for m in now] == kept  # no new DM: the same message, its image kept
        assert now[-1].attachments[0].data == image
        assert all(f":{version + 1}:" in i for i in _ids(now[-1]) if i.count(":") >= 3)
        # the kept message plays at the new version
        message = now[-1]
        if message.buttons():
            res = await fake.click(other_user, message, custom_id=message.buttons()[0]["custom_id"])
        else:
            select = message.selects()[0]
            res = await fake.select(
                other_user, message, select["custom_id"], [select["options"][0]["value"]]
            )
        await fake.wait_for(lambda: match.version > version + 1 or bool(res.text))
        stale = ("The board changed since you looked", "Le plateau a changé entre-temps")
        assert not any(text in res.text for text in stale), res.text
