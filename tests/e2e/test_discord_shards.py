"""End to end: two real bot processes, one per gateway shard, over one database.

Process 0 runs shard 0 of 2 (and so receives every direct message), process 1 runs shard 1.
Each owns the servers of its shard: their commands and buttons reach it alone (the fake
Discord routes like Discord, tests/fakediscord/gateway.py). A click on a direct message's
button about a match of a shard-1 server reaches process 0, which must play it on the match
in the database and post the board to the match's thread; the owner, process 1, must then
accept the next move.

The database: the ``database`` fixture (tests/conftest.py), a SQLite file (WAL) that both
processes share, and a PostgreSQL database (skipped with its reason when PostgreSQL cannot
start, required by ``--full``).
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot import Settings, create_bot
from bot.discord import GueridonBot
from bot.discord.client import setup_logging
from bot.i18n import t
from bot.service import HostService, LiveMatch, UserRef
from tests.fakediscord import (
    FakeChannel,
    FakeDiscord,
    FakeGuild,
    FakeMessage,
    FakeUser,
    InteractionNotDelivered,
)
from tests.fakediscord.processes import BotProcesses


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord.serve() as f:
        yield f


class Server:
    """A server on one shard, with its games channel."""

    def __init__(self, fake: FakeDiscord, name: str, shard: int, users: list[FakeUser]) -> None:
        self.shard = shard
        self.guild: FakeGuild = fake.add_guild(name, shard=(shard, 2))
        self.games: FakeChannel = fake.add_text_channel(self.guild, "jeux")
        for user in users:
            fake.add_member(self.guild, user)


def sessions_that_got(fake: FakeDiscord, interaction_id: int) -> set[tuple[int, int] | None]:
    """The shards of the gateway sessions an interaction was dispatched to."""
    return {
        session.shard
        for session in fake.gateway.sessions.values()
        for payload in session.buffer
        if payload["t"] == "INTERACTION_CREATE" and payload["d"]["id"] == str(interaction_id)
    }


async def fresh_match(database: str, match_id: int) -> LiveMatch:
    """The match as the database has it now (a service of the test's own, read only)."""
    service = await HostService.open(database)
    try:
        return await service.get_match(match_id)
    finally:
        await service.close()


async def active_match_of(database: str, guild: FakeGuild) -> int:
    service = await HostService.open(database)
    try:
        rows = await service.store.active_matches()
    finally:
        await service.close()
    [match_id] = [row.id for row in rows if row.guild_id == guild.id]
    return match_id


def boards(fake: FakeDiscord, channel: FakeChannel) -> list[FakeMessage]:
    return [m for m in fake.channel_messages(channel, include_ephemeral=False) if m.attachments]


def refusals(text: str) -> list[str]:
    """The refusals a move must not meet, in both languages."""
    found = []
    for locale in ("en", "fr"):
        for key in ("match-closed", "stale", "internal-error"):
            if t(locale, key) in text:
                found.append(key)
    return found


async def open_match(
    fake: FakeDiscord, server: Server, alice: FakeUser, bob: FakeUser
) -> FakeChannel:
    """alice opens a lobby, bob joins, alice starts: the match's thread. Every interaction is
    delivered to the server's shard alone."""
    res = await fake.slash(alice, server.games, "lobby create", game="between-battle", seats=2)
    assert res.ephemeral and not refusals(res.text)
    assert sessions_that_got(fake, res.interaction.id) == {(server.shard, 2)}
    lobby = fake.last_message(server.games)
    assert lobby is not None and lobby.buttons()
    await fake.click(bob, lobby, label="Join")
    start = await fake.click(alice, lobby, label="Start")
    assert sessions_that_got(fake, start.interaction.id) == {(server.shard, 2)}
    thread_id = await fake.wait_for(lambda: fake.message(lobby.id).thread_id)
    thread = fake.channels[thread_id]
    await fake.wait_for(lambda: boards(fake, thread))
    return thread


async def dm_move(fake: FakeDiscord, user: FakeUser, match_id: int, version: int) -> FakeMessage:
    """The user's direct message whose components play on ``version`` of the match."""
    prefixes = (f"gm:{match_id}:{version}:", f"gs:{match_id}:{version}:")

    def find() -> FakeMessage | None:
        for message in reversed(fake.dm_messages(user)):
            for comp in message.buttons() + message.selects():
                if str(comp.get("custom_id", "")).startswith(prefixes):
                    return message
        return None

    found: FakeMessage = await fake.wait_for(find, timeout=10)
    return found


async def typed_move(
    fake: FakeDiscord, database: str, match_id: int, users: dict[int, FakeUser]
) -> LiveMatch:
    """The seat to move types a legal move with ``/play`` in the match's thread: delivered to
    shard 1's process (the owner), accepted, the board posted. Returns the match before."""
    live = await fresh_match(database, match_id)
    thread = fake.channels[live.channel_id]
    seat = sorted(live.match.pending())[0]
    shown = len(boards(fake, thread))
    move = live.match.legal_notations(seat)[0]
    res = await fake.slash(users[live.user_of(seat)], thread, "play", move=move)
    assert sessions_that_got(fake, res.interaction.id) == {(1, 2)}
    assert not refusals(res.text) and "⚠️" not in res.text, res.text
    await fake.wait_for(lambda: len(boards(fake, thread)) > shown, timeout=10)
    assert (await fresh_match(database, match_id)).version == live.version + 1
    return live


def dm_log(fake: FakeDiscord, user: FakeUser) -> list[tuple[int, list[str]]]:
    """Every direct message of the user: (message, custom ids of its components)."""
    return [
        (m.id, [str(c.get("custom_id")) for c in m.buttons() + m.selects()])
        for m in fake.dm_messages(user)
    ]


def live_buttons(fake: FakeDiscord, user: FakeUser, match_id: int) -> list[tuple[int, int]]:
    """(message, version) of every component of the match still on the user's DMs."""
    found = []
    for message in fake.dm_messages(user):
        for comp in message.buttons() + message.selects():
            parts = str(comp.get("custom_id", "")).split(":")
            if len(parts) > 2 and parts[1] == str(match_id):
                found.append((message.id, int(parts[2])))
    return sorted(set(found))


async def test_two_shard_processes_share_matches_and_direct_messages(
    fake: FakeDiscord, tmp_path: Path, database: str
) -> None:
    alice = fake.add_user("alice")
    bob = fake.add_user("bob", locale="fr")
    users = {u.id: u for u in (alice, bob)}
    north = Server(fake, "Nord", 0, [alice, bob])
    south = Server(fake, "Sud", 1, [alice, bob])
    # migrated before the processes start, as a deployment does: two processes migrating a
    # new database at once collide (see the report of issue 18)
    await (await HostService.open(database)).close()
    async with BotProcesses(fake, tmp_path / "procs", database=database, shard_count=2) as procs:
        procs.add(shard_ids="0")
        procs.add(shard_ids="1")
        await procs.start_all()
        assert fake.ready_shards() == {(0, 2), (1, 2)}
        # a match, then an open lobby, in each server: each answered by its own shard
        for server in (north, south):
            await open_match(fake, server, alice, bob)
            res = await fake.slash(bob, server.games, "lobby create", game="between-battle")
            assert res.ephemeral and not refusals(res.text)
            assert sessions_that_got(fake, res.interaction.id) == {(server.shard, 2)}
        north_id = await active_match_of(database, north.guild)
        north_version = (await fresh_match(database, north_id)).version
        match_id = await active_match_of(database, south.guild)
        await typed_move(fake, database, match_id, users)
        # shard 1's process crashes: its server's interactions are lost ("interaction failed")
        await procs.kill(1)
        thread = fake.channels[(await fresh_match(database, match_id)).channel_id]
        fake.ack_window = 0.5
        with pytest.raises(InteractionNotDelivered):
            await fake.slash(alice, thread, "hand")
        fake.ack_window = 3.0
        # restarted, it resumes its match from the database and takes the next move
        await procs.restart(1)
        await typed_move(fake, database, match_id, users)
        # the seat to move clicks a button of its direct message: shard 0's process gets it,
        # plays it on the match as the database has it and posts the board to its thread
        live = await fresh_match(database, match_id)
        seat = sorted(live.match.pending())[0]
        player = users[live.user_of(seat)]
        dm = await dm_move(fake, player, match_id, live.version)
        shown = len(boards(fake, thread))
        buttons = [b for b in dm.buttons() if str(b["custom_id"]).startswith(f"gm:{match_id}:")]
        if buttons:
            res = await fake.click(player, dm, custom_id=buttons[0]["custom_id"])
        else:
            [select] = [s for s in dm.selects() if str(s["custom_id"]).startswith("gs:")]
            value = select["options"][0]["value"]
            res = await fake.select(player, dm, select["custom_id"], [value])
        assert sessions_that_got(fake, res.interaction.id) == {(0, 2)}
        # the update of the DM is deferred; the confirmation (or a refusal) follows
        [answer] = await res.wait_followups(1, timeout=10)
        assert answer.ephemeral and not refusals(answer.text), answer.text
        await fake.wait_for(lambda: len(boards(fake, thread)) > shown, timeout=10)
        assert (await fresh_match(database, match_id)).version == live.version + 1
        # the owner takes the next move on the match another process moved
        await typed_move(fake, database, match_id, users)
        now = await fresh_match(database, match_id)
        to_move = {now.user_of(s) for s in now.match.pending()}
        # whichever process sent them, only the current version's buttons are left in DMs,
        # in one message, and the seat to move has them
        for user in (alice, bob):
            try:
                await fake.wait_for(
                    lambda u=user: (
                        all(v == now.version for _, v in live_buttons(fake, u, match_id))
                        and len({m for m, _ in live_buttons(fake, u, match_id)})
                        == (u.id in to_move)
                    ),
                    timeout=10,
                )
            except TimeoutError:
                raise AssertionError(
                    f"{user.name} (to move: {user.id in to_move}) has live components"
                    f" {live_buttons(fake, user, match_id)} (message, version) at version"
                    f" {now.version}; their direct messages: {dm_log(fake, user)}"
                ) from None
        # the shard-0 server's match was never touched
        assert (await fresh_match(database, north_id)).version == north_version
        # each process logged where it runs
        assert "shards 0/2" in procs[0].stderr() and "shards 1/2" in procs[1].stderr()


# --------------------------------------------------------------------------------------------
# one process with some of the shards (in the test's process)
# --------------------------------------------------------------------------------------------


def shard_bot(fake: FakeDiscord, db: Path, **settings: Any) -> GueridonBot:
    config = Settings(
        discord_token=fake.token, database_path=str(db), worker_processes=False, **settings
    )
    return create_bot(config, guild_ready_timeout=0.05)


class Lines(logging.Handler):
    """The log lines as ``run_bot`` writes them (with the shard, server and match)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.lines: list[str] = []
        root = logging.getLogger()
        level = root.level
        setup_logging(Settings(discord_token="x"), self)
        root.removeHandler(self)  # setup_logging puts it on the root logger: the test's only
        root.setLevel(level)

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record))


async def test_a_process_runs_its_shards_syncs_only_if_asked_and_logs_where(
    fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    alice = fake.add_user("alice")
    bob = fake.add_user("bob")
    north = Server(fake, "Nord", 0, [alice, bob])
    south = Server(fake, "Sud", 1, [alice, bob])
    # shard 1 of 2 only: its servers alone, and no command sync (shard 0's process does it)
    bot = shard_bot(fake, tmp_path / "g.db", shard_count=2, shard_ids="1")
    async with fake.running(bot):
        assert bot.shard_count == 2 and bot.shard_ids == [1]
        assert [g.id for g in bot.guilds] == [south.guild.id]
        assert fake.ready_shards() == {(1, 2)}
        assert fake.sync_count == 0
    bot = shard_bot(fake, tmp_path / "g.db", shard_count=2, shard_ids="1", sync_commands=True)
    lines = Lines()
    logging.getLogger("gueridon").addHandler(lines)
    try:
        async with fake.running(bot):
            assert fake.sync_count == 1
            with pytest.raises(InteractionNotDelivered):
                await fake.slash(alice, north.games, "lobby create", game="between-battle")
            thread = await open_match(fake, south, alice, bob)
            [live] = [m for m in bot.host.matches.values() if m.channel_id == thread.id]

            async def broken(*args: Any) -> None:
                raise RuntimeError("the store is away")

            # a command's failure, then a button's, each logged with where it happened
            monkeypatch.setattr(bot.host, "remember_user", broken)
            res = await fake.slash(alice, thread, "hand")
            assert t("en", "internal-error") in res.text
            board = boards(fake, thread)[-1]
            [hand] = [b for b in board.buttons() if str(b["custom_id"]).startswith("gh:")]
            res = await fake.click(alice, board, custom_id=hand["custom_id"])
            assert t("en", "internal-error") in res.text
            fake.take_bot_errors("interaction failed", logger="gueridon", count=2)
    finally:
        logging.getLogger("gueridon").removeHandler(lines)
    where = f"[shard 1 guild {south.guild.id} match {live.id}] interaction failed"
    assert [line.splitlines()[0].split(" gueridon ", 1)[1] for line in lines.lines] == [
        where,
        where,
    ]


async def test_without_every_shard_seat_messages_and_languages_are_read_through_the_store(
    tmp_path: Path,
) -> None:
    """Another process may have sent a seat a newer private view, or heard a player speak
    another language since: a process that does not run every shard asks the store."""
    alice, bob = UserRef(1, "Alice", "en-US"), UserRef(2, "Bob", "fr")
    for shard_ids in (None, "1"):
        settings = Settings(
            discord_token="x",
            database_path=str(tmp_path / f"{shard_ids}.db"),
            worker_processes=False,
            shard_count=2 if shard_ids else None,
            shard_ids=shard_ids,
        )
        bot = create_bot(settings)
        bot.service = host = await HostService.open(settings.database)
        try:
            await host.create_lobby(
                guild_id=9 << 22, channel_id=100, host=alice, game_id="between-battle", seats=2
            )
            await host.join(100, bob)
            live = await host.start(100, alice)
            await bot.set_seat_message(live, 0, 10, 1000, 1)  # this process's DM
            await host.set_seat_message(live.id, 0, 10, 2000, 2)  # another process's, newer
            bot.user_locale[alice.id] = "en-US"  # alice's last interaction with this process
            await host.remember_user(UserRef(alice.id, "Alice", "fr"))  # and with another
            if shard_ids is None:  # one process, every shard: its memory is the truth
                assert await bot.seat_message(live, 0) == (10, 1000, 1)
                assert bot.locale_for_user(alice.id) == "en-US"
            else:
                assert await bot.seat_message(live, 0) == (10, 2000, 2)
                assert bot.locale_for_user(alice.id) == "fr"
        finally:
            await host.close()
            bot.render_pool.close()
            bot.bot_pool.close()
