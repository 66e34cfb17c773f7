"""End to end: the real bot (real discord.py) against the fake Discord on 127.0.0.1.

Matches of Between Battle are played through slash commands, buttons and DMs;
the fake fails the test at teardown if any interaction went unanswered or
broke a Discord limit.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import discord
import pytest

from bot import Settings, create_bot
from bot.discord import GueridonBot
from bot.service import LiveMatch, hostable_games
from engine import rng
from tests.e2e.random_match import play_random_match
from tests.fakediscord import FakeChannel, FakeDiscord, FakeGuild, FakeMessage, FakeUser


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord.serve() as f:
        yield f


class World:
    """A server with a games channel and four members.

    ``lobby_chan`` is the channel where lobbies open. ``chan`` is where the
    latest match plays or played: by default (thread mode) the thread made
    from the newest lobby message (archived or not, so that a finished match's
    final board is read there), else ``lobby_chan`` (before a lobby starts, in
    channel mode). Open lobbies in ``lobby_chan`` once a match has started."""

    def __init__(self, fake: FakeDiscord, db: Path, locale: str = "en-US") -> None:
        self.fake = fake
        self.db = db
        self.guild: FakeGuild = fake.add_guild("Café des jeux", locale=locale)
        self.lobby_chan: FakeChannel = fake.add_text_channel(self.guild, "jeux")
        self.alice = fake.add_user("alice", guild=self.guild, locale=locale)
        self.bob = fake.add_user("bob", guild=self.guild, locale="fr")
        self.admin = fake.add_user(
            "modo", guild=self.guild, permissions=discord.Permissions(manage_guild=True)
        )
        self.eve = fake.add_user("eve", guild=self.guild)
        self.users = {u.id: u for u in (self.alice, self.bob, self.admin, self.eve)}

    @property
    def chan(self) -> FakeChannel:
        return current_chan(self.fake, self.lobby_chan)

    def make_bot(self, **settings: Any) -> GueridonBot:
        """A bot drawing (and thinking) in threads unless ``worker_processes=True``:
        starting worker processes costs more than the few images of a test."""
        settings.setdefault("worker_processes", False)
        config = Settings(discord_token=self.fake.token, database_path=str(self.db), **settings)
        return create_bot(config, guild_ready_timeout=0.05)


@pytest.fixture
def world(fake: FakeDiscord, tmp_path: Path) -> World:
    return World(fake, tmp_path / "gueridon.db")


def current_chan(fake: FakeDiscord, lobby_chan: FakeChannel) -> FakeChannel:
    """Where the latest match of a lobby channel plays or played: the thread
    made from the channel's newest message with an embed (a lobby, or in
    channel mode a board), else the channel itself."""
    for message in reversed(fake.channel_messages(lobby_chan, include_ephemeral=False)):
        if message.embeds:
            thread = None if message.thread_id is None else fake.channels.get(message.thread_id)
            return thread if thread is not None else lobby_chan
    return lobby_chan


def match_chan(fake: FakeDiscord, live: LiveMatch) -> FakeChannel:
    """Where ``live`` plays (or played): its thread, or its lobby's channel."""
    return fake.channels[live.channel_id]


def live_match(bot: GueridonBot, chan: FakeChannel) -> LiveMatch:
    """The match playing in ``chan``, or in the thread of ``chan``'s newest lobby."""
    live = bot.host.match_in(chan.id)
    if live is None and not chan.is_thread:
        # a finished match's thread (archived) or a thread the test did not pick
        for m in sorted(bot.host.matches.values(), key=lambda m: -m.id):
            if m.lobby_channel_id == chan.id and bot.host.match_in(m.channel_id) is m:
                live = m
                break
    assert live is not None
    return live


def pending_user(world: World, live: LiveMatch) -> tuple[FakeUser, int]:
    seat = sorted(live.match.pending())[0]
    return world.users[live.user_of(seat)], seat


async def dm_with_buttons(
    fake: FakeDiscord, user: FakeUser, live: LiveMatch, version: int
) -> FakeMessage:
    """The DM whose buttons act on this version of the match."""
    prefix = f"gm:{live.id}:{version}:"

    def find() -> FakeMessage | None:
        for m in reversed(fake.dm_messages(user)):
            buttons = m.buttons()
            if buttons and buttons[0]["custom_id"].startswith(prefix):
                return m
        return None

    found: FakeMessage = await fake.wait_for(find)
    return found


def png(message: FakeMessage) -> bytes:
    assert message.attachments, message.text
    data = message.attachments[0].data
    assert data.startswith(b"\x89PNG")
    return data


async def open_and_start(world: World, options: str = "characters=pirate,ninja") -> None:
    fake = world.fake
    res = await fake.slash(
        world.alice, world.chan, "lobby create", game="between-battle", seats=2, options=options
    )
    assert res.ephemeral and "lobby" in res.text.lower()
    lobby_message = fake.last_message(world.chan)
    assert lobby_message is not None and lobby_message.buttons()
    await fake.click(world.bob, lobby_message, label="Join")
    updated = fake.message(lobby_message.id)
    assert "bob" in updated.text
    start = await fake.click(world.alice, updated, label="Start")
    assert start.acknowledged
    await fake.wait_for(lambda: any(m.attachments for m in fake.channel_messages(world.chan)))


async def test_full_match_with_commands_buttons_and_dms(fake: FakeDiscord, world: World) -> None:
    bot = world.make_bot()
    async with fake.running(bot):
        await open_and_start(world)
        live = live_match(bot, world.chan)
        # the board is in the channel and mentions who must act
        board = [m for m in fake.channel_messages(world.chan) if m.attachments][-1]
        png(board)
        actor, _ = pending_user(world, live)
        assert f"<@{actor.id}>" in board.content
        # both players got their hand by DM
        await fake.wait_for(lambda: fake.dm_messages(world.alice) and fake.dm_messages(world.bob))
        png(fake.dm_messages(world.alice)[-1])
        turn = 0

        async def move(user: FakeUser, seat: int, legal: list[str], index: int) -> None:
            nonlocal turn
            version = live.version
            way = turn % 3
            turn += 1
            if way == 0:
                # /play with autocomplete
                choices = await fake.autocomplete(user, world.chan, "play", option="move", value="")
                assert 0 < len(choices) <= 25
                assert {c["value"] for c in choices} <= set(legal)
                res = await fake.slash(user, world.chan, "play", move=legal[index])
                assert res.ephemeral
            elif way == 1:
                # a button of the latest DM
                dm = await dm_with_buttons(fake, user, live, version)
                button = dm.buttons()[index]
                await fake.click(user, dm, custom_id=button["custom_id"])
            else:
                # /hand, then a button of the ephemeral hand
                res = await fake.slash(user, world.chan, "hand")
                assert res.ephemeral
                hand = res.messages[-1]
                png(hand)
                button = hand.buttons()[index]
                await fake.click(user, hand, custom_id=button["custom_id"])

        await play_random_match(
            fake, world, live, rng.seed_state(5), move=move, seat_choice="first", max_moves=1499
        )
        assert turn < 1500
        # the result and the revealed seed are posted
        seed = str(live.match.seed)
        played = match_chan(fake, live)  # its thread, archived at the end
        await fake.wait_for(lambda: any(seed in m.text for m in fake.channel_messages(played)))
        final = [m for m in fake.channel_messages(played) if seed in m.text][-1]
        assert "Seed" in final.text
        assert live.match.seed_commitment in final.text
        result = await bot.host.store.result(live.id)
        assert result is not None
        # the channel is free again
        res = await fake.slash(world.alice, world.lobby_chan, "lobby create", game="between-battle")
        assert "opened" in res.text


async def test_closed_dms_are_announced_once_and_hand_still_works(
    fake: FakeDiscord, world: World
) -> None:
    fake.set_dms_open(world.bob, False)
    bot = world.make_bot()
    async with fake.running(bot):
        await open_and_start(world)
        live = live_match(bot, world.chan)
        notice = "/hand"
        await fake.wait_for(
            lambda: any(
                notice in m.text and "bob" not in m.text.lower() and str(world.bob.id) in m.text
                for m in fake.channel_messages(world.chan)
            )
        )
        for _ in range(6):
            user, seat = pending_user(world, live)
            version = live.version
            await fake.slash(user, world.chan, "play", move=live.match.legal_notations(seat)[0])
            await fake.wait_for(lambda v=version: live.version > v)
        notices = [
            m
            for m in fake.channel_messages(world.chan)
            if notice in m.text and str(world.bob.id) in m.text and not m.attachments
        ]
        assert len(notices) == 1
        assert fake.dm_messages(world.bob) == []
        res = await fake.slash(world.bob, world.chan, "hand")
        assert res.ephemeral
        png(res.messages[-1])


async def test_restart_mid_match_old_buttons_still_work(fake: FakeDiscord, world: World) -> None:
    bot = world.make_bot()
    await fake.start_client(bot)
    await open_and_start(world)
    live = live_match(bot, world.chan)
    for _ in range(3):
        user, seat = pending_user(world, live)
        version = live.version
        await fake.slash(user, world.chan, "play", move=live.match.legal_notations(seat)[0])
        await fake.wait_for(lambda v=version: live.version > v)
    user, seat = pending_user(world, live)
    version, state = live.version, live.match.state
    dm = await dm_with_buttons(fake, user, live, version)
    await fake.stop_client(bot)

    bot2 = world.make_bot()
    async with fake.running(bot2):
        again = live_match(bot2, world.chan)
        assert again.version == version and again.match.state == state
        dm = fake.message(dm.id)
        assert dm.buttons()
        res = await fake.click(user, dm, custom_id=dm.buttons()[-1]["custom_id"])
        assert res.acknowledged
        await fake.wait_for(lambda: again.version == version + 1)
        row = await bot2.host.store.match(again.id)
        assert row is not None and row.version == version + 1


async def test_double_click_applies_exactly_one_action(fake: FakeDiscord, world: World) -> None:
    bot = world.make_bot()
    async with fake.running(bot):
        await open_and_start(world)
        live = live_match(bot, world.chan)
        user, _ = pending_user(world, live)
        version = live.version
        dm = await dm_with_buttons(fake, user, live, version)
        custom_id = dm.buttons()[0]["custom_id"]
        results = await asyncio.gather(
            fake.click(user, dm, custom_id=custom_id), fake.click(user, dm, custom_id=custom_id)
        )
        await fake.wait_for(lambda: all(r.followups for r in results))
        assert live.version == version + 1
        texts = [r.followups[-1].text for r in results]
        assert sum("changed" in t or "changé" in t for t in texts) == 1, texts
        assert len(await bot.host.store.match_actions(live.id)) == 1


async def _error(fake: FakeDiscord, user: FakeUser, chan: FakeChannel, cmd: str, **kw: Any) -> str:
    res = await fake.slash(user, chan, cmd, **kw)
    assert res.ephemeral, res.text
    return res.text


async def test_bad_input_gets_a_clear_ephemeral_error(fake: FakeDiscord, world: World) -> None:
    bot = world.make_bot()
    async with fake.running(bot):
        chan, alice, bob, eve = world.chan, world.alice, world.bob, world.eve
        text = await _error(
            fake, alice, chan, "lobby create", game="between-battle", options="colour=red"
        )
        assert "Valid keys" in text and "between_rule" in text
        # French user, French error
        text = await _error(fake, bob, chan, "lobby create", game="between-battle", options="hp=0")
        assert "Options refusées" in text
        text = await _error(fake, alice, chan, "play", move="7>1")
        assert "no match" in text
        text = await _error(fake, alice, chan, "lobby addbot")
        assert "no open lobby" in text
        await fake.slash(
            alice,
            chan,
            "lobby create",
            game="between-battle",
            seats=2,
            options="characters=pirate,ninja",
        )
        text = await _error(fake, bob, chan, "lobby create", game="between-battle")
        assert "déjà" in text
        text = await _error(fake, bob, chan, "lobby start")
        assert "hôte" in text
        text = await _error(fake, alice, chan, "lobby start")
        assert "At least 2" in text
        await fake.slash(bob, chan, "lobby join")
        text = await _error(fake, eve, chan, "lobby cancel")
        assert "Only the host" in text
        await fake.slash(alice, chan, "lobby start")
        live = live_match(bot, chan)
        chan = match_chan(fake, live)  # the match plays in its thread
        assert chan.is_thread and chan.parent_id == world.lobby_chan.id
        actor, _ = pending_user(world, live)
        other = bob if actor is alice else alice
        version, state = live.version, live.match.state
        text = await _error(fake, actor, chan, "play", move="zz")
        assert "Between Battle" in text
        text = await _error(fake, actor, chan, "play", move="99>1")
        assert "99" in text
        text = await _error(fake, other, chan, "play", move="D")
        assert "not your turn" in text.lower() or "pas à vous" in text
        text = await _error(fake, eve, chan, "play", move="D")
        assert "no seat" in text
        assert live.version == version and live.match.state is state
        # a stale button: play once, then click a button of the previous version
        dm = await dm_with_buttons(fake, actor, live, version)
        stale_id = dm.buttons()[0]["custom_id"]
        await fake.slash(actor, chan, "play", move="D")
        await fake.wait_for(lambda: live.version > version)
        stale_message = fake.message(dm.id)
        if stale_message.buttons():
            res = await fake.click(actor, stale_message, custom_id=stale_id)
            await res.wait_followups(1)
            assert "changed" in res.followups[-1].text or "changé" in res.followups[-1].text
        # permissions: Eve cannot cancel the match, the admin can
        text = await _error(fake, eve, chan, "lobby cancel")
        assert "Only the host" in text
        res = await fake.slash(world.admin, chan, "lobby cancel")
        assert "cancelled" in res.text
        assert bot.host.match_in(chan.id) is None


async def test_help_rules_board_and_localised_commands(fake: FakeDiscord, world: World) -> None:
    bot = world.make_bot()
    async with fake.running(bot):
        res = await fake.slash(world.alice, world.chan, "help")
        assert "/lobby create" in res.text and res.ephemeral
        res = await fake.slash(world.bob, world.chan, "help")
        assert "salon d'attente" in res.text
        res = await fake.slash(world.alice, world.chan, "rules", game="between-battle")
        assert "between_rule=strict" in res.text and "2-4 players" in res.text
        # the help cards lie face up: every character's abilities, in the reader's language
        assert "Characters (help cards)" in res.text
        assert "Discard a random card from your opponent's hand." in res.text
        res = await fake.slash(world.bob, world.chan, "rules", game="between-battle")
        assert "Votre adversaire révèle sa main actuelle" in res.text and "PV" in res.text
        res = await fake.slash(world.bob, world.chan, "board")
        assert "Aucune partie" in res.text
        names = {c["name"] for c in fake.commands()}
        assert {"lobby", "play", "hand", "board", "resign", "rules", "help"} <= names
        lobby = fake.command("lobby")
        subs = {o["name"] for o in lobby["options"]}
        assert subs == {"create", "join", "leave", "start", "cancel", "addbot", "kick", "options"}
        create = next(o for o in lobby["options"] if o["name"] == "create")
        game = next(o for o in create["options"] if o["name"] == "game")
        assert {c["value"] for c in game["choices"]} == set(hostable_games())
        assert "between-battle" in hostable_games()
        assert create.get("description_localizations", {}).get("fr")
        assert lobby.get("name_localizations", {}).get("fr") == "salon"
        assert fake.command("play")["name_localizations"]["fr"] == "jouer"
        assert fake.command("rules")["name_localizations"]["fr"] == "règles"
        await open_and_start(world)
        res = await fake.slash(world.eve, world.chan, "board")
        png(res.messages[-1])
        res = await fake.slash(world.alice, world.chan, "rules", game="between-battle")
        assert "Options in force here: Characters: Pirate and Ninja" in res.text  # in words


async def test_resign_ends_the_match_with_the_seed(fake: FakeDiscord, world: World) -> None:
    bot = world.make_bot()
    async with fake.running(bot):
        await open_and_start(world)
        live = live_match(bot, world.chan)
        res = await fake.slash(world.bob, world.chan, "resign")
        assert res.ephemeral
        await fake.wait_for(lambda: live.match.is_over)
        await fake.wait_for(
            lambda: any(str(live.match.seed) in m.text for m in fake.channel_messages(world.chan))
        )
        outcome = live.match.outcome()
        assert outcome is not None and outcome.winner == live.seats_of(world.alice.id)[0]


async def test_a_person_against_a_bot_and_bots_to_the_end(fake: FakeDiscord, world: World) -> None:
    bot = world.make_bot()
    async with fake.running(bot):
        res = await fake.slash(
            world.alice,
            world.chan,
            "lobby create",
            game="between-battle",
            seats=3,
            options="hp=4",
        )
        lobby_message = fake.last_message(world.chan)
        assert lobby_message is not None
        await fake.click(world.alice, lobby_message, label="Add bot")
        res = await fake.slash(world.alice, world.chan, "lobby addbot", level="easy")
        assert "bot" in res.text.lower()
        text = await _error(fake, world.bob, world.chan, "lobby addbot")
        assert "hôte" in text  # only the host adds bots
        lobby = await bot.host.lobby_in(world.chan.id)
        assert lobby is not None and len(lobby.bots) == 2
        assert "Bot 1 (★★)" in fake.message(lobby_message.id).text
        await fake.slash(world.alice, world.chan, "lobby start")
        live = live_match(bot, world.chan)
        # Alice plays until the cards are dealt, then resigns: the bots finish alone
        for _ in range(30):
            await fake.wait_for(
                lambda: (
                    live.match.is_over
                    or any(live.user_of(s) == world.alice.id for s in live.match.pending())
                ),
                timeout=20,
            )
            if live.match.state.phase != "draft":
                break
            seat = live.seats_of(world.alice.id)[0]
            version = live.version
            await fake.slash(
                world.alice, world.chan, "play", move=live.match.legal_notations(seat)[0]
            )
            await fake.wait_for(lambda v=version: live.version > v)
        await fake.slash(world.alice, world.chan, "resign")
        await fake.wait_for(lambda: live.match.is_over, timeout=60)
        seed = str(live.match.seed)
        await fake.wait_for(lambda: any(seed in m.text for m in fake.channel_messages(world.chan)))
        # the bots' moves were announced on the board
        assert any("Bot 2" in m.text for m in fake.channel_messages(world.chan))


async def test_images_and_a_hard_bot_in_worker_processes(fake: FakeDiscord, world: World) -> None:
    """The production set-up: boards, hands and the hard bot's thinking in
    worker processes; the pools are gone once the bot is closed."""
    from concurrent.futures import ProcessPoolExecutor

    bot = world.make_bot(worker_processes=True, bot_seconds=0.2)
    async with fake.running(bot):
        await fake.slash(
            world.alice, world.chan, "lobby create", game="between-battle", seats=2, options="hp=4"
        )
        await fake.slash(world.alice, world.chan, "lobby addbot", level="hard")
        await fake.slash(world.alice, world.chan, "lobby start", _timeout=30)
        live = live_match(bot, world.chan)
        bot_seat = next(iter(live.bots))
        while not any(seat == bot_seat for seat, _ in live.match.record().actions):
            await fake.wait_for(
                lambda: (
                    live.match.is_over
                    or any(live.user_of(s) == world.alice.id for s in live.match.pending())
                ),
                timeout=30,
            )
            if live.match.is_over:
                break
            seat = live.seats_of(world.alice.id)[0]
            version = live.version
            await fake.slash(
                world.alice,
                world.chan,
                "play",
                move=live.match.legal_notations(seat)[0],
                _timeout=30,
            )
            await fake.wait_for(lambda v=version: live.version > v, timeout=30)
        await bot.host.wait_for_bots()
        assert any(seat == bot_seat for seat, _ in live.match.record().actions)
        assert isinstance(bot.render_pool.executor(), ProcessPoolExecutor)
        assert isinstance(bot.bot_pool.executor(), ProcessPoolExecutor)
        boards = [m for m in fake.channel_messages(world.chan) if m.attachments]
        assert len(boards) >= 2 and png(boards[-1])
        hands = [m for m in fake.dm_messages(world.alice) if m.attachments]
        assert hands and png(hands[-1])
    with pytest.raises(RuntimeError):
        bot.render_pool.executor()
