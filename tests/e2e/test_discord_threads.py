"""End to end: where a match plays (issue 16, item 1).

With a server's default settings a match plays in a public thread made from
its lobby message; the lobby's channel gets the lobby message, one line at
the start and one at the end, and the thread is archived after the final
board. Channel mode plays in the channel; a bot that may not make threads
says so once per server and plays in the channel; a restart finds the match
in its thread; the lobby's channel takes a new lobby while a match plays.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import discord
import pytest

from bot.discord import GueridonBot
from bot.service import LiveMatch
from tests.bot.textcheck import problems
from tests.e2e.test_discord_between_battle import World, live_match, match_chan
from tests.fakediscord import FakeChannel, FakeDiscord, FakeMessage, FakeUser

# the words each language uses, as a player reads them
WORDS = {
    "en-US": {
        "started": "has started with",
        "over": "is over",
        "winner": "Winner: ",
        "perm": "Create Public Threads",
        "match": "#",
        "hand": "/hand",
    },
    "fr": {
        "started": "a commencé avec",
        "over": "est terminée",
        "winner": "Vainqueur : ",
        "perm": "Créer des fils publics",
        "match": "n°",
        "hand": "/main",  # the command's French name, as French Discord shows it
    },
}


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord.serve() as f:
        yield f


def public(fake: FakeDiscord, chan: FakeChannel) -> list[FakeMessage]:
    return fake.channel_messages(chan, include_ephemeral=False)


async def open_lobby(world: World, host: FakeUser, guest: FakeUser) -> FakeMessage:
    """A two-seat Between Battle lobby opened by ``host``, joined by ``guest``."""
    fake = world.fake
    before = {m.id for m in public(fake, world.lobby_chan)}
    await fake.slash(
        host,
        world.lobby_chan,
        "lobby create",
        game="between-battle",
        seats=2,
        options="hp=3",
        clock="fast",
    )
    # the new message with a Join button (a cancelled match's last board, with
    # its Rematch button, may be posted after it)
    lobby = next(
        m
        for m in reversed(public(fake, world.lobby_chan))
        if m.id not in before and any(b["custom_id"].startswith("gl:join:") for b in m.buttons())
    )
    join = next(b for b in lobby.buttons() if b["custom_id"].startswith("gl:join:"))
    await fake.click(guest, lobby, custom_id=join["custom_id"])
    return fake.message(lobby.id)


async def start(world: World, bot: GueridonBot, host: FakeUser, lobby: FakeMessage) -> LiveMatch:
    fake = world.fake
    start_button = next(b for b in lobby.buttons() if b["custom_id"].startswith("gl:start:"))
    await fake.click(host, lobby, custom_id=start_button["custom_id"])
    live = next(m for m in sorted(bot.host.matches.values(), key=lambda m: -m.id))
    await fake.wait_for(
        lambda: any(m.attachments for m in public(fake, match_chan(fake, live))), timeout=10
    )
    return live


@pytest.mark.parametrize("locale", ["en-US", "fr"])
async def test_a_match_plays_entirely_inside_its_thread(
    fake: FakeDiscord, tmp_path: Path, locale: str
) -> None:
    words = WORDS[locale]
    world = World(fake, tmp_path / "g.db", locale=locale)
    fake.set_dms_open(world.bob, False)  # bob's reminders and notices go to the match
    bot = world.make_bot(fast_seconds=2.0, fast_bank_seconds=0.0, tick_seconds=0.1)
    async with fake.running(bot):
        lobby = await open_lobby(world, world.alice, world.bob)
        live = await start(world, bot, world.alice, lobby)
        thread = match_chan(fake, live)
        # the thread is made from the lobby message, named after the game and players
        assert thread.is_thread and thread.type == 11 and thread.id == lobby.id
        assert thread.parent_id == world.lobby_chan.id
        assert "Between Battle" in (thread.name or "")
        assert "alice" in (thread.name or "") and "bob" in (thread.name or "")
        assert len(thread.name or "") <= 100
        assert thread.auto_archive_duration == 60  # a fast clock: an hour of silence
        assert world.chan is thread and live_match(bot, thread) is live
        # the seed's commitment and the first board are in the thread
        assert any(live.match.seed_commitment in m.text for m in public(fake, thread))
        # the lobby's channel: the lobby message and one line naming the thread
        lines = public(fake, world.lobby_chan)
        assert lines[0].id == lobby.id and len(lines) == 2
        start_line = lines[1]
        assert words["started"] in start_line.text and f"<#{thread.id}>" in start_line.text
        assert "alice" in start_line.text and "bob" in start_line.text
        # bob's DMs are closed: the notice pointing to /hand is in the thread
        await fake.wait_for(
            lambda: any(
                words["hand"] in m.text and f"<@{world.bob.id}>" in m.text
                for m in public(fake, thread)
            )
        )
        # a reminder for bob (DMs closed), in the thread
        await fake.wait_for(
            lambda: any(
                "⏰" in m.text and f"<@{world.bob.id}>" in m.text for m in public(fake, thread)
            ),
            timeout=20,
        )
        # alice resigns in the thread, as soon as the rules let her (the cards
        # dealt), unless the clock's moves already ended the match
        for _ in range(50):
            if live.match.is_over:
                break
            version = live.version
            res = await fake.slash(world.alice, thread, "resign")
            assert res.ephemeral
            if not live.match.is_over:
                await fake.wait_for(lambda v=version: live.version > v, timeout=10)
        seed = str(live.match.seed)
        await fake.wait_for(lambda: thread.archived, timeout=20)
        final = [m for m in public(fake, thread) if seed in m.text]
        assert len(final) == 1 and final[0].buttons()  # the Rematch button
        # every board is in the thread, none in the channel
        assert sum(1 for m in public(fake, thread) if m.attachments) >= 2
        lines = public(fake, world.lobby_chan)
        assert len(lines) == 3 and not any(m.attachments for m in lines)
        end_line = lines[2]
        outcome = live.match.outcome()
        assert outcome is not None and len(outcome.ranking[0]) == 1
        winner = live.names[outcome.ranking[0][0]]
        assert words["over"] in end_line.text and words["winner"] + winner in end_line.text
        assert f"<#{thread.id}>" in end_line.text and words["match"] in end_line.text
        lang = locale[:2]
        assert problems(start_line.text, lang) == [] and problems(end_line.text, lang) == []
        assert problems(thread.name or "", lang) == []
        # the channel is free again, and the match is no longer found anywhere
        assert bot.host.match_in(thread.id) is None
        await bot.host.wait_for_bots()


async def test_channel_mode_plays_in_the_channel(fake: FakeDiscord, tmp_path: Path) -> None:
    world = World(fake, tmp_path / "g.db")
    bot = world.make_bot()
    async with fake.running(bot):
        await fake.slash(world.alice, world.lobby_chan, "help")  # the bot meets the server
        settings = await bot.host.guild_settings(world.guild.id)
        await bot.host.save_guild_settings(settings.model_copy(update={"match_mode": "channel"}))
        lobby = await open_lobby(world, world.alice, world.bob)
        live = await start(world, bot, world.alice, lobby)
        assert live.channel_id == world.lobby_chan.id and not live.in_thread
        assert fake.message(lobby.id).thread_id is None
        assert world.chan is world.lobby_chan
        assert any(m.attachments for m in public(fake, world.lobby_chan))
        await fake.slash(world.alice, world.lobby_chan, "lobby cancel")
        assert bot.host.match_in(world.lobby_chan.id) is None
        assert not any(c.is_thread for c in fake.channels.values())
        # no start or end line: everything is in the channel already
        assert not any(
            f"<#{world.lobby_chan.id}>" in m.text for m in public(fake, world.lobby_chan)
        )


@pytest.mark.parametrize("locale", ["en-US", "fr"])
async def test_without_create_public_threads_it_says_so_once_and_plays_in_the_channel(
    fake: FakeDiscord, tmp_path: Path, locale: str
) -> None:
    words = WORDS[locale]
    world = World(fake, tmp_path / "g.db", locale=locale)
    fake.set_overwrite(
        world.lobby_chan,
        fake.bot_role(world.guild),
        deny=discord.Permissions(create_public_threads=True),
    )
    bot = world.make_bot()
    async with fake.running(bot):
        for _ in range(2):
            lobby = await open_lobby(world, world.alice, world.bob)
            live = await start(world, bot, world.alice, lobby)
            assert live.channel_id == world.lobby_chan.id
            await fake.slash(world.alice, world.lobby_chan, "lobby cancel")
            assert bot.host.match_in(world.lobby_chan.id) is None
        notices = [m for m in public(fake, world.lobby_chan) if words["perm"] in m.text]
        assert len(notices) == 1, [m.text for m in notices]
        assert problems(notices[0].text, locale[:2]) == []
        assert not any(c.is_thread for c in fake.channels.values())
        assert (await bot.host.guild_settings(world.guild.id)).thread_notice
        # given the permission, the next match has its thread again
        fake.set_overwrite(world.lobby_chan, fake.bot_role(world.guild))
        lobby = await open_lobby(world, world.alice, world.bob)
        live = await start(world, bot, world.alice, lobby)
        assert live.in_thread and live.channel_id == lobby.id
        await fake.slash(world.alice, match_chan(fake, live), "lobby cancel")
        await fake.wait_for(lambda: match_chan(fake, live).archived, timeout=20)
        assert not (await bot.host.guild_settings(world.guild.id)).thread_notice


async def test_a_restart_mid_match_resumes_in_the_thread(fake: FakeDiscord, tmp_path: Path) -> None:
    world = World(fake, tmp_path / "g.db")
    bot = world.make_bot()
    async with fake.running(bot):
        lobby = await open_lobby(world, world.alice, world.bob)
        live = await start(world, bot, world.alice, lobby)
        match_id, thread = live.id, match_chan(fake, live)
    again = world.make_bot()
    async with fake.running(again):
        found = live_match(again, thread)
        assert found.id == match_id and found.channel_id == thread.id
        assert found.lobby_channel_id == world.lobby_chan.id
        boards = sum(1 for m in public(fake, thread) if m.attachments)
        user = world.users[found.user_of(sorted(found.match.pending())[0])]
        seat = found.seat_of(user.id)
        assert seat is not None
        version = found.version
        res = await fake.slash(user, thread, "play", move=found.match.legal_notations(seat)[0])
        assert res.ephemeral and found.version > version
        await fake.wait_for(lambda: sum(1 for m in public(fake, thread) if m.attachments) > boards)
        assert not any(m.attachments for m in public(fake, world.lobby_chan))
        await fake.slash(world.alice, thread, "lobby cancel")
        await fake.wait_for(lambda: thread.archived, timeout=20)


async def test_a_second_lobby_opens_in_the_channel_while_the_first_match_plays(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    world = World(fake, tmp_path / "g.db")
    bot = world.make_bot()
    async with fake.running(bot):
        first_lobby = await open_lobby(world, world.alice, world.bob)
        first = await start(world, bot, world.alice, first_lobby)
        second_lobby = await open_lobby(world, world.eve, world.admin)
        second = await start(world, bot, world.eve, second_lobby)
        assert first.channel_id == first_lobby.id and second.channel_id == second_lobby.id
        assert bot.host.match_in(first.channel_id) is first
        assert bot.host.match_in(second.channel_id) is second
        assert bot.host.match_in(world.lobby_chan.id) is None
        # each match is played, then cancelled by its host, in its own thread
        for live, host in ((first, world.alice), (second, world.eve)):
            thread = match_chan(fake, live)
            user = world.users[live.user_of(sorted(live.match.pending())[0])]
            seat = live.seat_of(user.id)
            assert seat is not None
            res = await fake.slash(user, thread, "play", move=live.match.legal_notations(seat)[0])
            assert res.ephemeral and live.version == 1
            await fake.slash(host, thread, "lobby cancel")
            await fake.wait_for(lambda t=thread: t.archived, timeout=20)
            assert any(f"#{live.id}" in m.text for m in public(fake, thread))
        lines = public(fake, world.lobby_chan)
        assert not any(m.attachments for m in lines)
        assert len(lines) == 2 + 2 + 2  # two lobbies, two start lines, two cancel lines
        assert [f"<#{first.channel_id}>" in m.text for m in lines[-2:]] == [True, False]


async def test_a_cancel_waits_for_the_board_being_posted_and_the_thread_stays_archived(
    fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A cancel typed while the last move's board is still uploading: the
    board goes out first, then the cancel line and the archive (a post in an
    archived thread opens it again, on Discord as in the fake)."""
    world = World(fake, tmp_path / "g.db")
    bot = world.make_bot()
    async with fake.running(bot):
        live = await start(world, bot, world.alice, await open_lobby(world, world.alice, world.bob))
        thread = match_chan(fake, live)
        boards = sum(1 for m in public(fake, thread) if m.attachments)
        post_board = bot.post_board
        uploading = asyncio.Event()

        async def slow_post_board(*args: object, **kwargs: object) -> None:
            uploading.set()
            await asyncio.sleep(1.0)  # a slow upload
            await post_board(*args, **kwargs)  # type: ignore[arg-type]

        monkeypatch.setattr(bot, "post_board", slow_post_board)
        user = world.users[live.user_of(sorted(live.match.pending())[0])]
        seat = live.seat_of(user.id)
        assert seat is not None
        await fake.slash(user, thread, "play", move=live.match.legal_notations(seat)[0])
        await asyncio.wait_for(uploading.wait(), 10)
        await fake.slash(world.alice, thread, "lobby cancel")
        await fake.wait_for(lambda: thread.archived, timeout=20)
        assert sum(1 for m in public(fake, thread) if m.attachments) == boards + 1
        await asyncio.sleep(0.3)
        assert thread.archived


async def test_without_send_messages_in_threads_it_names_that_permission(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    world = World(fake, tmp_path / "g.db")
    fake.set_overwrite(
        world.lobby_chan,
        fake.bot_role(world.guild),
        deny=discord.Permissions(send_messages_in_threads=True),
    )
    bot = world.make_bot()
    async with fake.running(bot):
        lobby = await open_lobby(world, world.alice, world.bob)
        live = await start(world, bot, world.alice, lobby)
        assert live.channel_id == world.lobby_chan.id
        [notice] = [m for m in public(fake, world.lobby_chan) if "permission" in m.text]
        assert "Send Messages in Threads" in notice.text
        assert not any(c.is_thread for c in fake.channels.values())  # it did not even try


async def test_when_discord_refuses_the_thread_the_match_plays_in_the_channel(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    world = World(fake, tmp_path / "g.db", locale="fr")
    bot = world.make_bot()
    async with fake.running(bot):
        lobby = await open_lobby(world, world.alice, world.bob)
        # someone already opened a thread on the lobby message: Discord refuses a second
        fake.create_thread(world.lobby_chan, "on discute", 11, fake.message(lobby.id))
        live = await start(world, bot, world.alice, lobby)
        assert live.channel_id == world.lobby_chan.id and not live.in_thread
        assert [v.kind for v in fake.take_violations()] == ["invalid_action"]
        [notice] = [m for m in public(fake, world.lobby_chan) if "fil" in m.text]
        assert "refusé" in notice.text and problems(notice.text, "fr") == []
        assert any(m.attachments for m in public(fake, world.lobby_chan))
