"""Clicks on another process's match (issue 18, found by tests/e2e/test_discord_shard_kills.py):
the shard-0 process receives every direct message, so it keeps a copy of other processes'
matches from earlier clicks; a later click must be checked against the match as the database
has it, not against that copy. Several :class:`HostService` on one database, as in
tests/bot/test_multiprocess_service.py (SQLite and PostgreSQL)."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.service import ClockConfig, HostService, LiveMatch, UserRef
from bot.shards import ShardSet, shard_of

ALICE = UserRef(1, "Alice", "en-US")
BOB = UserRef(2, "Bob", "fr")
G1 = 11 << 22  # a server of shard 1 (of 2)
S0 = ShardSet(2, frozenset({0}))  # receives the direct messages
S1 = ShardSet(2, frozenset({1}))
CFG = ClockConfig(correspondence_seconds=1000, lobby_ttl=600, bot_iterations=25)

Host = Callable[..., Awaitable[HostService]]


@pytest.fixture
async def host(database: str) -> AsyncIterator[Host]:
    made: list[HostService] = []

    async def make(shards: ShardSet, **kwargs: Any) -> HostService:
        svc = await HostService.open(
            database, shards=shards, clock_config=CFG, bot_clock=None, seed_source=lambda: 777
        )
        await svc.resume()
        made.append(svc)
        return svc

    yield make
    for svc in made:
        with contextlib.suppress(Exception):
            await svc.wait_for_bots()
            await svc.close()


async def _start(svc: HostService, guild_id: int | None, channel: int) -> LiveMatch:
    await svc.create_lobby(
        guild_id=guild_id,
        channel_id=channel,
        host=ALICE,
        game_id="between-battle",
        seats=2,
        options="hp=3",
    )
    await svc.join(channel, BOB)
    return await svc.start(channel, ALICE)


async def _move(svc: HostService, live: LiveMatch) -> None:
    seat = sorted(live.match.pending())[0]
    move = live.match.legal_notations(seat)[0]
    await svc.play(live.id, live.user_of(seat), move, expected_version=live.version)


async def test_a_click_is_read_against_the_match_the_database_has(host: Host) -> None:
    assert shard_of(G1, 2) == 1
    owner = await host(S1)
    dms = await host(S0)
    live = await _start(owner, G1, 300)
    start = live.version
    # a first click in direct messages: the shard-0 process loads the match, plays a move
    there = await dms.current_match(live.id)
    await _move(dms, there)
    row = await owner.store.match(live.id)
    assert row is not None and there.version == start + 1 == row.version
    # the owner plays on (a move typed in the match's thread reaches it)
    mine = await owner.current_match(live.id)
    assert mine is live and mine.version == there.version
    await _move(owner, mine)
    # the copy in the shard-0 process's memory is behind: a button of the seat's
    # current direct message checked against it would be refused as stale
    assert dms.matches[live.id].version == mine.version - 1
    fresh = await dms.current_match(live.id)
    assert fresh is there and fresh.version == mine.version
    assert fresh.match.state == mine.match.state and not dms._bot_tasks
    # and the next click plays on it (the owner hears of it meanwhile, and may catch up
    # before the move returns: the version is read first)
    version = mine.version
    await _move(dms, fresh)
    assert fresh.version == version + 1


async def test_a_match_read_again_forgets_what_its_seats_were_shown(host: Host) -> None:
    """What each seat was last shown decides whether the next move changes its direct message
    (:attr:`Update.private_changed`). After another process's move, that process showed it:
    the owner, reading the match again, forgets its own record, so the seats concerned by its
    next move get a new message, not an old one's buttons edited under another hand."""
    owner = await host(S1)
    dms = await host(S0)
    live = await _start(owner, G1, 305)
    assert live.private_keys
    there = await dms.current_match(live.id)
    await _move(dms, there)
    mine = await owner.current_match(live.id)
    assert mine is live and live.version == there.version and live.private_keys == {}
    await _move(owner, live)
    assert all(version == live.version for version, _ in live.private_keys.values())


async def test_the_default_set_up_never_reads_the_match_again(tmp_path: Path) -> None:
    svc = await HostService.open(tmp_path / "g.db", clock_config=CFG, bot_clock=None)
    try:
        await svc.resume()
        assert not svc.shared
        live = await _start(svc, G1, 301)

        async def no_read(match_id: int) -> None:
            raise AssertionError("read the match again")

        svc.store.match = no_read  # type: ignore[method-assign]
        assert await svc.current_match(live.id) is live
    finally:
        await svc.close()


# ---- a seat's private message, sent by two processes at once -----------------------------
async def test_the_newer_private_view_is_recorded_whoever_writes_last(database: str) -> None:
    """Shard 0's process (a click in direct messages) and the match's owner (a move typed in
    its channel) may each send a seat a view of the match at once: the store keeps the newer
    one, and tells the older writer so."""
    svc = await HostService.open(database, clock_config=CFG, bot_clock=None)
    try:
        live = await _start(svc, G1, 302)
        store = svc.store
        assert await store.swap_seat_message(live.id, 0, 10, 1000, 1) == (True, None)
        assert await store.swap_seat_message(live.id, 0, 10, 3000, 3) == (True, (10, 1000, 1))
        # the older view, recorded last: refused, with the newer one
        assert await store.swap_seat_message(live.id, 0, 10, 2000, 2) == (False, (10, 3000, 3))
        assert await store.seat_message(live.id, 0) == (10, 3000, 3)
        # the same version again (its buttons brought up to date in place): recorded
        assert await store.swap_seat_message(live.id, 0, 10, 3000, 3) == (True, (10, 3000, 3))
    finally:
        await svc.close()


class Edits:
    """``get_partial_messageable(channel).get_partial_message(message).edit(view=None)``:
    the (channel, message) of every edit."""

    def __init__(self) -> None:
        self.edits: list[tuple[int, int]] = []

    def __call__(self, channel_id: int) -> Any:
        edits = self.edits

        class Message:
            def __init__(self, message_id: int) -> None:
                self.id = message_id

            async def edit(self, **kwargs: Any) -> None:
                assert kwargs == {"view": None}
                edits.append((channel_id, self.id))

        class Channel:
            def get_partial_message(self, message_id: int) -> Message:
                return Message(message_id)

        return Channel()


async def test_an_older_private_message_loses_its_buttons_whoever_sends_last(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The adapter's side (tests/e2e/test_discord_shards.py failed on it under load: both
    processes' messages kept live buttons): whichever process records last, the message of
    the older view loses its buttons, and the newer is remembered."""
    from bot import Settings, create_bot

    settings = Settings(
        discord_token="x",
        database_path=str(tmp_path / "g.db"),
        worker_processes=False,
        shard_count=2,
        shard_ids="1",
    )
    bot = create_bot(settings)
    bot.service = host = await HostService.open(settings.database, shards=S1)
    edits = Edits()
    monkeypatch.setattr(bot, "get_partial_messageable", edits)
    try:
        assert host.shared
        live = await _start(host, G1, 303)
        await bot.record_seat_message(live, 0, 10, 1000, 1, None)
        # another process sends version 3 meanwhile; this one records its version 2 last
        await host.swap_seat_message(live.id, 0, 10, 3000, 3)
        await bot.record_seat_message(live, 0, 10, 2000, 2, (10, 1000, 1))
        assert edits.edits == [(10, 2000)]  # its own message, older: no buttons
        assert await bot.seat_message(live, 0) == (10, 3000, 3)
        # the other way round: another process's older view recorded first
        await host.swap_seat_message(live.id, 0, 10, 4000, 4)
        await bot.record_seat_message(live, 0, 10, 5000, 5, (10, 3000, 3))
        assert edits.edits == [(10, 2000), (10, 4000)]
        assert await bot.seat_message(live, 0) == (10, 5000, 5)
        # the usual case: the previous message (its buttons already removed) is not edited
        await bot.record_seat_message(live, 0, 10, 6000, 6, (10, 5000, 5))
        assert edits.edits == [(10, 2000), (10, 4000)]
    finally:
        await host.close()
        bot.render_pool.close()
        bot.bot_pool.close()


class Dms:
    """Direct messages as the adapter writes them: what each message's components are (their
    custom ids), and every write."""

    def __init__(self) -> None:
        self.components: dict[int, list[str]] = {}
        self.writes: list[tuple[str, int]] = []
        self.next_id = 5000

    def _write(self, kind: str, message_id: int, kwargs: dict[str, Any]) -> None:
        if "view" in kwargs:
            view = kwargs["view"]
            self.components[message_id] = [c.custom_id for c in view.children] if view else []
        self.writes.append((kind, message_id))

    def channel(self, channel_id: int) -> Any:
        dms = self

        class Message:
            def __init__(self, message_id: int) -> None:
                self.id = message_id

            async def edit(self, **kwargs: Any) -> None:
                dms._write("edit", self.id, kwargs)

        class Channel:
            id = channel_id

            def get_partial_message(self, message_id: int) -> Message:
                return Message(message_id)

            async def send(self, **kwargs: Any) -> Message:
                dms.next_id += 1
                dms._write("send", dms.next_id, kwargs)
                return Message(dms.next_id)

        return Channel()

    def user(self, user_id: int) -> Any:
        class User:
            dm_channel = self.channel(10)

        return User()


async def test_a_private_message_reading_an_older_version_is_not_edited_in_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Shared database: the seat's message may read a version older than the one before this
    update (another process announced in between, or has not yet). Its buttons alone brought
    up to date would sit under an outdated hand: a new message is sent instead. Found by
    tests/e2e/test_discord_shards.py, where two processes edited one message at once and the
    older edit landed last."""
    from bot import Settings, create_bot

    settings = Settings(
        discord_token="x",
        database_path=str(tmp_path / "g.db"),
        worker_processes=False,
        shard_count=2,
        shard_ids="1",
    )
    bot = create_bot(settings)
    bot.service = host = await HostService.open(
        settings.database, shards=S1, seed_source=lambda: 777
    )
    dms = Dms()
    monkeypatch.setattr(bot, "get_partial_messageable", dms.channel)
    monkeypatch.setattr(bot, "get_user", dms.user)
    try:
        live = await _start(host, G1, 304)
        start = live.version
        for seat in range(2):
            await host.set_seat_message(live.id, seat, 10, 1000 + seat, start)
        await _move(host, live)
        await _move(host, live)
        seat = sorted(live.match.pending())[0]  # it has buttons
        await host.set_seat_message(live.id, seat, 10, 1000, start)
        # two versions behind: a new message, the old one's buttons removed
        await bot.send_private(live, seat, changed=False)
        [(kind, new)] = [w for w in dms.writes if w[1] != 1000]
        assert kind == "send" and dms.components[1000] == []
        assert dms.components[new]
        assert all(f":{live.id}:{live.version}:" in c for c in dms.components[new])
        assert await host.seat_message(live.id, seat) == (10, new, live.version)
        # the version just before: edited in place
        await host.set_seat_message(live.id, seat, 10, 1000, live.version - 1)
        await bot.send_private(live, seat, changed=False)
        assert dms.writes[-1] == ("edit", 1000)
        assert dms.components[1000]
        assert all(f":{live.id}:{live.version}:" in c for c in dms.components[1000])
        # a newer view already out (another process's): nothing written
        await host.set_seat_message(live.id, seat, 10, 1000, live.version + 1)
        writes = len(dms.writes)
        await bot.send_private(live, seat, changed=False)
        await bot.send_private(live, seat, changed=True)
        assert len(dms.writes) == writes
        # recorded after a newer view in the same message: that message keeps its buttons
        await bot.record_seat_message(live, seat, 10, 1000, live.version, (10, 1000, start))
        assert len(dms.writes) == writes
    finally:
        await host.close()
        bot.render_pool.close()
        bot.bot_pool.close()
