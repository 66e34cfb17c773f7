"""Several host processes on one database (issue 18): two or three
:class:`HostService` instances, each with its own :class:`Store` on ONE
database and its own :class:`ShardSet`, in one test. Each owns the matches
and lobbies of its shards (resumes them, drives their bots and clocks,
expires their lobbies); any of them may play a move on any match (a click in
direct messages reaches shard 0's process), under the match's database lock.
Run on a SQLite file (WAL: several connections) and on PostgreSQL."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.logcontext import ContextFilter
from bot.service import BOT_STALE_RETRIES, ClockConfig, HostError, HostService, LiveMatch, UserRef
from bot.shards import ShardSet, shard_of
from bot.store import StaleWrite
from tests.bot.test_automation import FakeTime, Recorder

ALICE = UserRef(1, "Alice", "en-US")
BOB = UserRef(2, "Bob", "fr")
G0 = 10 << 22  # a server of shard 0 (of 2)
G1 = 11 << 22  # a server of shard 1 (of 2)
S0 = ShardSet(2, frozenset({0}))  # also receives the direct messages
S1 = ShardSet(2, frozenset({1}))
EVERY = ShardSet.every(2)
CFG = ClockConfig(correspondence_seconds=1000, lobby_ttl=600, bot_iterations=25)
OPTIONS = "characters=pirate,ninja"

Host = Callable[..., Awaitable[tuple[HostService, Recorder]]]


def test_the_servers_fall_in_their_shards() -> None:
    assert (shard_of(G0, 2), shard_of(G1, 2)) == (0, 1)


@pytest.fixture
def now() -> FakeTime:
    return FakeTime()


@pytest.fixture
async def host(database: str, now: FakeTime) -> AsyncIterator[Host]:
    """``await host(shards)``: a process on the test's one database (its own
    store), resumed, with a recorder of what it announces on its own."""
    made: list[HostService] = []

    async def make(shards: ShardSet, **kwargs: Any) -> tuple[HostService, Recorder]:
        svc = await HostService.open(
            database,
            shards=shards,
            now=now,
            clock_config=CFG,
            bot_clock=None,
            seed_source=lambda: 777,
            **kwargs,
        )
        rec = Recorder()
        svc.listeners.append(rec)
        await svc.resume()
        made.append(svc)
        return svc, rec

    yield make
    for svc in made:
        with contextlib.suppress(Exception):
            await svc.wait_for_bots()
            await svc.close()


async def _start(
    svc: HostService, guild_id: int | None, channel: int, *, bot: bool = False
) -> LiveMatch:
    await svc.create_lobby(
        guild_id=guild_id,
        channel_id=channel,
        host=ALICE,
        game_id="between-battle",
        seats=2,
        options=OPTIONS,
    )
    if bot:
        await svc.add_bot(channel, ALICE, "easy")
    else:
        await svc.join(channel, BOB)
    return await svc.start(channel, ALICE)


def _turn(live: LiveMatch) -> tuple[int, str]:
    """The pending seat's user and a legal move, from ``live`` (up to date)."""
    seat = sorted(live.match.pending())[0]
    user = live.user_of(seat)
    return user, live.game.format_action(live.match.legal_actions(seat)[0])


async def _versions(svc: HostService, match_id: int) -> list[int]:
    return [version for version, *_ in await svc.store.match_actions(match_id)]


# ---- ownership -----------------------------------------------------------------------------
async def test_resume_loads_only_the_owned_matches(host: Host) -> None:
    p0, _ = await host(S0)
    p1, _ = await host(S1)
    m0 = await _start(p0, G0, 100)
    m1 = await _start(p1, G1, 101)
    dm = await _start(p0, None, 102)  # no server: shard 0
    q0, _ = await host(S0)
    q1, _ = await host(S1)
    assert set(q0.matches) == {m0.id, dm.id}
    assert set(q1.matches) == {m1.id}
    assert q1.match_in(101) is not None and q1.match_in(100) is None
    # the default (every shard) loads them all
    every, _ = await host(EVERY)
    assert set(every.matches) == {m0.id, m1.id, dm.id}


async def test_a_move_played_elsewhere_is_committed_once_and_the_owner_plays_on(
    host: Host,
) -> None:
    owner, rec = await host(S1)
    dms, _ = await host(S0)  # receives the direct messages, owns none of shard 1
    live = await _start(owner, G1, 200)
    start = live.version
    # a missed notification (PostgreSQL): the lock's reload must suffice
    assert owner._stop_listening is not None
    await owner._stop_listening()
    # a click in direct messages: the other process loads the match and plays it
    there = await dms.get_match(live.id)
    assert there is not live and not dms.owns(there)
    user, move = _turn(there)
    update = await dms.play(live.id, user, move, expected_version=start)
    assert update.version == start + 1
    assert await _versions(owner, live.id) == [start + 1]
    assert not dms._bot_tasks  # it drives nothing of another process's match
    # the owner is behind: its next move (a button of the new board) is
    # accepted after a reload, into the very object other code holds
    assert live.version == start
    user, move = _turn(there)
    update = await owner.play(live.id, user, move, expected_version=start + 1)
    assert update.live is live and live.version == start + 2
    assert owner.match_in(200) is live
    assert await _versions(owner, live.id) == [start + 1, start + 2]
    # and the direct-message process, behind in turn, reloads too
    user, move = _turn(live)
    update = await dms.play(live.id, user, move, expected_version=start + 2)
    assert update.live is there and there.version == start + 3
    assert await _versions(owner, live.id) == [start + 1, start + 2, start + 3]
    assert rec.updates == []  # the process that played announces, not the owner


async def test_a_cancelled_match_is_refused_on_every_process(host: Host) -> None:
    owner, _ = await host(S1)
    dms, _ = await host(S0)
    live = await _start(owner, G1, 210)
    there = await dms.get_match(live.id)
    await owner.cancel(210, ALICE, is_admin=True)
    user, move = _turn(there)
    with pytest.raises(HostError) as err:
        await dms.play(live.id, user, move, expected_version=there.version)
    assert err.value.key == "match-closed"
    assert await _versions(owner, live.id) == []


async def test_a_match_finished_elsewhere_is_retired_by_its_owner(host: Host) -> None:
    owner, _ = await host(S1)
    dms, _ = await host(S0)
    live = await _start(owner, G1, 220)
    update = await dms.resign(live.id, BOB.id)  # from another process
    assert update.outcome is not None
    await owner.tick()  # the sweep (and, on PostgreSQL, the notification)
    assert live.status == "finished" and live.match.is_over
    assert owner.match_in(220) is None  # the channel is free for a new lobby
    await owner.create_lobby(
        guild_id=G1, channel_id=220, host=ALICE, game_id="between-battle", options=OPTIONS
    )


async def test_the_owners_bots_reply_after_a_move_made_elsewhere(host: Host, database: str) -> None:
    owner, rec = await host(S1)
    dms, _ = await host(S0)
    live = await _start(owner, G1, 300, bot=True)
    await owner.wait_for_bots()
    assert 0 in live.match.pending()  # Alice's turn
    version = live.version
    there = await dms.get_match(live.id)
    user, move = _turn(there)
    await dms.play(live.id, user, move, expected_version=version)
    assert not dms._bot_tasks  # only the owner drives the bots
    if database.startswith("postgres"):
        # the notification reaches the owner without a tick
        for _ in range(300):
            await owner.wait_for_bots()
            if len(await _versions(owner, live.id)) >= version + 2:
                break
            await asyncio.sleep(0.01)
    else:
        await owner.tick()  # the sweep finds the match behind
        await owner.wait_for_bots()
    versions = await _versions(owner, live.id)
    assert versions[version : version + 2] == [version + 1, version + 2]
    assert live.version == versions[-1]
    assert any(u.seat == 1 and u.version == version + 2 for u in rec.updates)


async def test_two_processes_racing_the_same_move(host: Host) -> None:
    owner, _ = await host(S1)
    dms, _ = await host(S0)
    live = await _start(owner, G1, 400)
    there = await dms.get_match(live.id)
    version = live.version
    user, move = _turn(live)
    results = await asyncio.gather(
        owner.play(live.id, user, move, expected_version=version),
        dms.play(live.id, user, move, expected_version=version),
        return_exceptions=True,
    )
    refused = [r for r in results if isinstance(r, BaseException)]
    assert len(refused) == 1 and isinstance(refused[0], HostError)
    assert refused[0].key == "stale"
    assert await _versions(owner, live.id) == [version + 1]
    assert live.version == version + 1 or there.version == version + 1
    # a move typed without a version is checked against the fresh state: the
    # same seat is no longer to play (between-battle alternates)
    behind = there if there.version == version else live
    svc = dms if behind is there else owner
    with pytest.raises(HostError) as err:
        await svc.play(live.id, user, move)
    assert err.value.key in {"not-your-turn", "illegal"}
    assert behind.version == version + 1  # reloaded
    assert await _versions(owner, live.id) == [version + 1]


# ---- direct messages on shard 0's process ---------------------------------------------------
async def test_a_users_latest_match_in_direct_messages_whoever_owns_it(host: Host) -> None:
    """``/play`` and ``/board`` in direct messages reach shard 0's process:
    the user's latest active match is found whichever process owns it."""
    dms, _ = await host(S0)
    owner, _ = await host(S1)
    older = await _start(dms, G0, 1100)  # shard 0's own
    newer = await _start(owner, G1, 1101)  # another process's, started later
    assert [m.id for m in dms.user_matches(ALICE.id)] == [older.id]  # memory: the old one
    latest = await dms.latest_match_of(ALICE.id)
    assert latest is not None and latest.id == newer.id and not dms.owns(latest)
    assert latest.version == newer.version
    assert (await dms.latest_match_of(BOB.id)).id == newer.id  # type: ignore[union-attr]
    assert await dms.latest_match_of(99) is None
    # finished by its owner: the older one is the latest again
    await owner.resign(newer.id, BOB.id)
    latest = await dms.latest_match_of(ALICE.id)
    assert latest is not None and latest.id == older.id
    assert (await owner.latest_match_of(ALICE.id)).id == older.id  # type: ignore[union-attr]


async def test_a_match_of_another_process_is_read_again_when_the_database_is_ahead(
    host: Host,
) -> None:
    """A seat's buttons in direct messages: the clicked match (loaded
    before on this process) must be the database's, or the newest buttons
    would be refused as stale."""
    owner, _ = await host(S1)
    dms, _ = await host(S0)
    live = await _start(owner, G1, 1200)
    there = await dms.get_match(live.id)
    user, move = _turn(live)
    await owner.play(live.id, user, move)  # the owner moves on
    assert there.version == live.version - 1
    again = await dms.get_match(live.id)
    assert again is there and there.version == live.version
    assert there.match.state == live.match.state
    # finished by its owner: seen as finished, and refused as such
    await owner.resign(live.id, ALICE.id)
    assert (await dms.get_match(live.id)).status == "finished" and there.match.is_over
    with pytest.raises(HostError) as err:
        await dms.play(live.id, BOB.id, "pass")
    assert err.value.key == "game-over"


async def test_an_owned_match_behind_catches_up_when_looked_up(host: Host) -> None:
    """The owner missed a notification: a lookup (a click in its channel)
    brings the match up to date before the click is checked, and its bots
    and clocks follow."""
    owner, _ = await host(S1)
    dms, _ = await host(S0)
    live = await _start(owner, G1, 1300)
    assert owner._stop_listening is not None
    await owner._stop_listening()  # no notification
    user, move = _turn(live)
    await dms.play(live.id, user, move)
    assert live.version == 0
    assert (await owner.get_match(live.id)) is live and live.version == 1
    assert owner.match_in(1300) is live


# ---- spectators ------------------------------------------------------------------------------
ZOE = 5  # a spectator


async def test_spectators_are_read_through_the_database_within_the_cache_lifetime(
    host: Host, now: FakeTime
) -> None:
    """A ``/watch`` made on one process, the board announced by another (a
    move clicked in direct messages): the announcing process reads who
    follows the match through the database; its own writes count at once,
    another's within ``cache_seconds``."""
    from bot.spectators import Spectators

    owner, _ = await host(S1, cache_seconds=30.0)
    dms, _ = await host(S0, cache_seconds=30.0)
    live = await _start(owner, G1, 1500)
    at_owner, at_dms = Spectators(owner), Spectators(dms)
    await at_owner.load()
    await at_dms.load()  # start-up: nobody follows yet
    assert await at_dms.watchers(live.id) == ()
    await at_owner.watch(live, ZOE)  # on the owner's process
    assert await at_owner.watchers(live.id) == (ZOE,)  # its own write, at once
    # another process's match is live there too (a /watch with its number in DMs)
    there = await dms.get_match(live.id)
    at_dms.check_can_watch(there, 6)
    await at_dms.watch(there, 6)
    assert await at_dms.watchers(live.id) == (6,)  # its own write; the other's not yet
    now.t += 31
    assert await at_dms.watchers(live.id) == (ZOE, 6)  # read through again
    assert await at_owner.watchers(live.id) == (ZOE, 6)
    assert await at_dms.following(live.id, ZOE)
    await at_dms.unwatch(live.id, ZOE)
    assert await at_dms.watchers(live.id) == (6,)
    assert await at_owner.watchers(live.id) == (ZOE, 6)  # cached for a while
    now.t += 31
    assert await at_owner.watchers(live.id) == (6,)
    assert not await at_owner.following(live.id, ZOE)
    # finished elsewhere: refused as over on both processes
    await dms.resign(live.id, ALICE.id)
    for spectators, svc in ((at_owner, owner), (at_dms, dms)):
        with pytest.raises(HostError) as err:
            spectators.check_can_watch(await svc.get_match(live.id), 7)
        assert err.value.key == "watch-over"


async def test_a_read_of_the_spectators_does_not_undo_a_watch_made_meanwhile(
    host: Host,
) -> None:
    """The read through the database and this process's own ``/watch``
    overlap: what the read found is older than memory and is not kept."""
    from bot.spectators import Spectators

    owner, _ = await host(S1)
    live = await _start(owner, G1, 1550)
    spectators = Spectators(owner)
    original = owner.store.match_watchers

    async def slow_read(match_id: int) -> list[tuple[int, str]]:
        rows = await original(match_id)
        await spectators.watch(live, ZOE)  # lands while the read is on its way
        return rows

    owner.store.match_watchers = slow_read  # type: ignore[method-assign]
    assert await spectators.watchers(live.id) == (ZOE,)
    owner.store.match_watchers = original  # type: ignore[method-assign]
    assert await spectators.watchers(live.id) == (ZOE,)  # read again: the database agrees


async def test_the_default_set_up_reads_spectators_from_memory(
    tmp_path: Path, now: FakeTime
) -> None:
    from bot.spectators import Spectators

    svc = await HostService.open(tmp_path / "g.db", now=now, clock_config=CFG, bot_clock=None)
    try:
        live = await _start(svc, G1, 1600)
        spectators = Spectators(svc)
        await spectators.load()
        await spectators.watch(live, ZOE)
        reads: list[int] = []
        original = svc.store.match_watchers

        async def counting(match_id: int) -> list[tuple[int, str]]:
            reads.append(match_id)
            return await original(match_id)

        svc.store.match_watchers = counting  # type: ignore[method-assign]
        now.t += 3600
        assert await spectators.watchers(live.id) == (ZOE,)
        assert await spectators.following(live.id, ZOE)
        assert reads == []
    finally:
        await svc.close()


# ---- clocks and lobbies --------------------------------------------------------------------
async def test_a_restart_shifts_only_its_own_clocks(host: Host, now: FakeTime) -> None:
    p0, _ = await host(S0)
    p1, _ = await host(S1)
    m0 = await _start(p0, G0, 500)
    m1 = await _start(p1, G1, 501)
    await p0.tick()
    await p1.tick()
    before0 = await p0.store.clocks(m0.id)
    before1 = await p0.store.clocks(m1.id)
    await p1.close()  # shard 1 goes down for 300 s; shard 0 keeps ticking
    for _ in range(3):
        now.t += 100
        await p0.tick()
    q1, _ = await host(S1)
    assert set(q1.matches) == {m1.id}
    after0 = await q1.store.clocks(m0.id)
    after1 = await q1.store.clocks(m1.id)
    assert after0 == before0  # shard 0 was up: its clocks ran
    pending = [seat for seat, row in before1.items() if row[3]]
    assert pending
    for seat in pending:
        assert after1[seat][0] == pytest.approx(before1[seat][0] + 300)


async def test_a_lobby_expires_once_with_two_processes_ticking(host: Host, now: FakeTime) -> None:
    p0, rec0 = await host(S0)
    p1, rec1 = await host(S1)
    every, rec_all = await host(EVERY)  # owns shard 0 too: they race for its lobbies
    owned0 = await p0.create_lobby(
        guild_id=G0, channel_id=600, host=ALICE, game_id="between-battle", options=OPTIONS
    )
    owned1 = await p1.create_lobby(
        guild_id=G1, channel_id=601, host=ALICE, game_id="between-battle", options=OPTIONS
    )
    now.t += CFG.lobby_ttl + 1
    await asyncio.gather(p0.tick(), p1.tick(), every.tick())
    await asyncio.gather(p0.tick(), p1.tick(), every.tick())
    announced = rec0.expired + rec1.expired + rec_all.expired
    assert sorted(announced) == sorted([owned0.id, owned1.id])
    assert owned1.id not in rec0.expired  # not its shard
    assert owned0.id not in rec1.expired
    assert (await p0.lobby(owned0.id)).status == "cancelled"  # type: ignore[union-attr]


async def test_a_clock_is_handled_by_one_process_only(host: Host, now: FakeTime) -> None:
    p1, rec1 = await host(S1)
    every, rec_all = await host(EVERY)  # owns shard 1 too
    live = await _start(p1, G1, 700)
    assert live.id not in every.matches  # started after it resumed: loaded when due
    version = live.version
    now.t += CFG.correspondence_seconds / 2 + 1  # half time: one reminder
    await asyncio.gather(p1.tick(), every.tick())
    assert len(rec1.reminders) + len(rec_all.reminders) == 1
    now.t += CFG.correspondence_seconds  # expired: one move by the clock
    await asyncio.gather(p1.tick(), every.tick())
    await asyncio.gather(p1.wait_for_bots(), every.wait_for_bots())
    by_clock = [u for u in rec1.updates + rec_all.updates if u.by_clock]
    assert len(by_clock) == 1
    assert await _versions(p1, live.id) == [version + 1]


# ---- the bot driver ------------------------------------------------------------------------
async def test_the_bot_driver_stops_after_three_stale_refusals(
    host: Host, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The version moves behind the driver's back at every try (the review
    saw 1,235 retries in 3 s): it reloads and tries again 3 times, then
    stops with a warning; the next kick starts it again."""
    owner, rec = await host(S1)
    live = await _start(owner, G1, 800, bot=True)
    await owner.wait_for_bots()
    assert 0 in live.match.pending()
    user, move = _turn(live)
    store = owner.store
    real = store.locked_match
    tries = 0

    @contextlib.asynccontextmanager
    async def moved_behind(match_id: int) -> AsyncIterator[Any]:
        async with real(match_id) as locked:

            class Behind:
                version = locked.version
                status = locked.status

                async def commit_action(self, **kwargs: Any) -> None:
                    nonlocal tries
                    if kwargs["seat"] == 1:  # the bot's
                        tries += 1
                        raise StaleWrite("another process moved the match on")
                    await locked.commit_action(**kwargs)

                async def clocks(self) -> Any:
                    return await locked.clocks()

                async def set_clocks(self, rows: Any) -> None:
                    await locked.set_clocks(rows)

            yield Behind()

    monkeypatch.setattr(store, "locked_match", moved_behind)
    caplog.handler.addFilter(ContextFilter())
    with caplog.at_level(logging.WARNING, logger="bot.service"):
        await owner.play(live.id, user, move)  # the bot's turn
        await asyncio.wait_for(owner.wait_for_bots(), 10)
    assert tries == 4  # the first try and 3 more
    warnings = [r for r in caplog.records if "stale refusals in a row" in r.getMessage()]
    assert len(warnings) == 1
    assert f"match {live.id}" in warnings[0].where  # type: ignore[attr-defined]
    assert f"guild {G1}" in warnings[0].where  # type: ignore[attr-defined]
    # the store works again: the next kick lets the bot play
    monkeypatch.setattr(store, "locked_match", real)
    version = live.version
    owner.kick_bots(live)
    await owner.wait_for_bots()
    assert live.version > version and any(u.seat == 1 for u in rec.updates)


async def test_the_bot_driver_thinks_again_while_a_player_moves_on(
    host: Host, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Both seats decide at once (Belle Position's deployment): each move the player makes
    while the bot thinks makes the bot's move stale. That is progress, not a loop: the driver
    thinks again however often, and the bot is never left holding its decision while the
    player waits for it (tests/e2e/test_discord_every_game.py, on a loaded machine: four of
    the player's moves in a row stopped the bot, and the match with it)."""
    owner, _ = await host(S1)
    await owner.create_lobby(
        guild_id=G1,
        channel_id=810,
        host=ALICE,
        game_id="belle-position",
        seats=2,
        options="turn_limit=2",
    )
    await owner.add_bot(810, ALICE, "easy")
    real = owner._bot_move
    moved = 0

    async def meanwhile_the_player_moves(live: LiveMatch, seat: int, level: str) -> Any:
        nonlocal moved
        thought = await real(live, seat, level)
        players = [s for s in sorted(live.match.pending()) if s not in live.bots]
        if players:
            # a placement (taking one back, "undo", would deploy for ever)
            notation = next(n for n in live.match.legal_notations(players[0]) if n != "undo")
            await owner.play(live.id, live.user_of(players[0]), notation)
            moved += 1
        return thought

    monkeypatch.setattr(owner, "_bot_move", meanwhile_the_player_moves)
    with caplog.at_level(logging.WARNING, logger="bot.service"):
        live = await owner.start(810, ALICE)
        await asyncio.wait_for(owner.wait_for_bots(), 30)
    assert moved > BOT_STALE_RETRIES + 1  # that many stale refusals in a row
    assert not [r for r in caplog.records if "stale refusals" in r.getMessage()]
    assert not [s for s in live.match.pending() if s in live.bots]


# ---- caches that cross processes -----------------------------------------------------------
async def test_caches_see_other_processes_writes_within_their_lifetime(
    host: Host, now: FakeTime
) -> None:
    p0, _ = await host(S0, cache_seconds=30.0)
    p1, _ = await host(S1, cache_seconds=30.0)
    await p0.remember_user(ALICE)
    settings = await p0.guild_settings(G1)
    assert settings.language is None
    # another process writes: a new name, closed DMs, a server's language
    await p1.remember_user(UserRef(ALICE.id, "Alicia", "fr"))
    await p1.mark_dm_closed(ALICE.id)
    await p1.save_guild_settings(settings.model_copy(update={"language": "fr"}))
    await p1.remember_guild(G1, 900, "de")
    await p0.remember_user(ALICE)  # within the lifetime: the cached rows
    assert ALICE.id not in p0.dm_closed
    assert (await p0.guild_settings(G1)).language is None
    now.t += 31
    await p0.remember_user(UserRef(ALICE.id, "Alicia", None))  # read through again
    assert ALICE.id in p0.dm_closed and p0.user_locale(ALICE.id) == "fr"
    assert p0.names[ALICE.id] == "Alicia"
    assert (await p0.guild_settings(G1)).language == "fr"
    assert p0.guild_locales[G1] == "de"
    # this process's own writes are seen at once
    await p0.mark_dm_closed(ALICE.id, False)
    assert ALICE.id not in p0.dm_closed
    await p0.save_guild_settings(settings.model_copy(update={"language": "en"}))
    assert (await p0.guild_settings(G1)).language == "en"


async def test_the_default_set_up_reads_no_cache_again(tmp_path: Path, now: FakeTime) -> None:
    """One process on SQLite owning every shard: nothing else writes, the
    caches never expire, the tick sweeps nothing."""
    svc = await HostService.open(tmp_path / "g.db", now=now, clock_config=CFG, bot_clock=None)
    try:
        assert not svc.shared
        await svc.remember_user(ALICE)
        await svc.guild_settings(G1)
        live = await _start(svc, G1, 1400)
        calls: list[str] = []
        for name in (
            "user_state",
            "guild_settings",
            "guild_locale",
            "active_versions",
            "user_active_matches",
            "match_state",
            "match",
        ):
            original = getattr(svc.store, name)

            def counting(*args: Any, _name: str = name, _fn: Any = original) -> Any:
                calls.append(_name)
                return _fn(*args)

            setattr(svc.store, name, counting)
        now.t += 3600
        await svc.remember_user(ALICE)
        await svc.guild_settings(G1)
        await svc.tick()
        assert await svc.latest_match_of(ALICE.id) is live  # from memory
        assert await svc.get_match(live.id) is live
        assert calls == []
    finally:
        await svc.close()


# ---- take-back requests ----------------------------------------------------------------------
async def test_a_take_back_request_is_left_to_its_matchs_process(host: Host) -> None:
    """The undo desk of another process (it loads every saved request) does
    not close a request of a match it does not own."""
    from bot.undo import UndoDesk

    owner, _ = await host(S1)
    other, _ = await host(S0)
    live = await _start(owner, G1, 1000)
    seat = sorted(live.match.pending())[0]
    user = live.user_of(seat)
    state, game = live.match.state, live.game
    move = next(
        game.format_action(action)
        for action in game.legal_actions(state, seat)
        if game.undoable(state, seat, action, *game.apply(state, seat, action))
    )
    await owner.play(live.id, user, move)
    asked = await UndoDesk.of(owner).request(live.id, user)
    assert asked.status == "asked"
    UndoDesk.of(other)
    await other.tick()
    assert [row[0] for row in await other.store.undo_requests()] == [live.id]
    assert UndoDesk.of(other).pending(live.id) is None
    # the owner's desk still has it, and the other player can accept it
    other_user = next(uid for uid, _ in live.players if uid != user)
    done = await UndoDesk.of(owner).answer(live.id, asked.request.version, other_user, True)
    assert done.status == "done" and live.version == asked.request.version + 1
