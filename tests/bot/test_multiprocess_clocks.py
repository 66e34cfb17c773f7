"""The turn clock with several host processes on one database (issue 18,
SERVICE-3): a match's clock rows change in the same locked transaction as
the action that changes them, so a move committed by another process can
never be followed by a clock sync computed from an older ``pending``, and a
reminder or an expiry never overwrites (nor is overwritten by) a concurrent
move's clocks. Each race is made deterministic by running the other
process's step at the exact point where the old code (clocks synced after
the lock) went wrong: between the commit and the clock sync, or between the
claim of a due clock and its handling. Run on SQLite and PostgreSQL."""

# the tests take the imported fixtures host and now as parameters
# ruff: noqa: F811
from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from bot.service import HostService, LiveMatch
from bot.shards import ShardSet
from tests.bot.test_automation import FakeTime
from tests.bot.test_multiprocess_service import (
    ALICE,
    BOB,
    CFG,
    G1,
    OPTIONS,
    S0,
    S1,
    Host,
    _turn,
    host,  # noqa: F401  (the fixture, shared with the other multiprocess tests)
    now,  # noqa: F401  (the fixture)
)

PER_MOVE = CFG.fast_seconds  # 90
BANK = CFG.fast_bank  # 300


async def _start_fast(svc: HostService, channel: int, *, bot: bool) -> LiveMatch:
    await svc.create_lobby(
        guild_id=G1,
        channel_id=channel,
        host=ALICE,
        game_id="between-battle",
        seats=2,
        options=OPTIONS,
        clock="fast",
    )
    if bot:
        await svc.add_bot(channel, ALICE, "easy")
    else:
        await svc.join(channel, BOB)
    live = await svc.start(channel, ALICE)
    await svc.wait_for_bots()
    return live


async def _owner_and_other(host: Host) -> tuple[HostService, Any, HostService]:
    """The owner of shard 1 (deaf to NOTIFY, so that only the test decides
    when it catches up) and shard 0's process, which gets the DM clicks."""
    owner, rec = await host(S1)
    if owner._stop_listening is not None:
        await owner._stop_listening()
        owner._stop_listening = None
    other, _ = await host(S0)
    return owner, rec, other


def _move_giving_the_turn_to(live: LiveMatch, seat: int) -> tuple[int, str]:
    """The pending seat's user and a legal move after which ``seat`` has a
    decision (from ``live``, up to date)."""
    mover = sorted(live.match.pending())[0]
    for action in live.match.legal_actions(mover):
        notation = live.game.format_action(action)
        new_state, _, _ = live.match.preview(mover, notation)
        if seat in live.game.pending(new_state):
            return live.user_of(mover), notation
    raise AssertionError(f"no move of seat {mover} gives seat {seat} a decision")


async def _clock(svc: HostService, match_id: int, seat: int) -> tuple[Any, ...]:
    """``(since, per_move, bank, pending, reminded, expiries, deadline)`` as
    the database has it."""
    row = await svc.store.database.fetchone(
        "SELECT since, per_move, bank, pending, reminded, expiries, deadline FROM clocks"
        " WHERE match_id = ? AND seat = ?",
        (match_id, seat),
    )
    assert row is not None
    since, per_move, bank, pending, reminded, expiries, deadline = row
    return (
        float(since),
        float(per_move),
        float(bank),
        bool(pending),
        bool(reminded),
        int(expiries),
        None if deadline is None else float(deadline),
    )


def _once(
    monkeypatch: pytest.MonkeyPatch,
    svc: HostService,
    name: str,
    before: Callable[[], Awaitable[None]],
    *,
    after_call: bool = False,
) -> list[int]:
    """Patch ``svc.<name>`` (or its store's, for a ``store.`` name) to run
    ``before`` once, before the real call (or after it with ``after_call``).
    Returns a list that counts the runs."""
    runs: list[int] = []
    target: Any = svc
    if name.startswith("store."):
        target, name = svc.store, name.removeprefix("store.")
    real = getattr(target, name)

    async def patched(*args: Any, **kwargs: Any) -> Any:
        if runs or not after_call:
            if not runs:
                runs.append(1)
                await before()
            return await real(*args, **kwargs)
        result = await real(*args, **kwargs)
        runs.append(1)
        await before()
        return result

    monkeypatch.setattr(target, name, patched)
    return runs


async def test_the_owners_bot_replying_before_the_movers_clock_sync(
    host: Host, now: FakeTime, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SERVICE-2's race: a move played on the process that got the DM click
    (not the owner); the owner catches up and its bot answers before that
    process would have synced the clocks (the old code synced them after the
    lock, from its own ``pending``: the seat whose turn it now is lost its
    running clock, so no reminder and no expiry). The clocks are now written
    with each move: the seat now pending has a running clock with the right
    deadline, and the mover's bank paid for the time over its move."""
    owner, _, other = await _owner_and_other(host)
    live = await _start_fast(owner, 900, bot=True)
    assert 0 in live.match.pending() and not live.match.is_over
    now.t += PER_MOVE + 10  # 10 s over: the bank pays them
    there = await other.get_match(live.id)
    user, move = _turn(there)
    replied_at: list[float] = []

    async def owner_replies() -> None:
        now.t += 5
        replied_at.append(now.t)
        await owner._catch_up(live.id, there.version)
        await owner.wait_for_bots()

    runs = _once(monkeypatch, other, "_refresh_players", owner_replies)
    await other.play(live.id, user, move, expected_version=there.version)
    assert runs == [1]
    assert live.version >= there.version + 1  # the owner's bot answered
    assert 0 in live.match.pending()
    since, per_move, bank, pending, reminded, expiries, deadline = await _clock(owner, live.id, 0)
    assert pending and not reminded and expiries == 0
    assert bank == BANK - 10  # the mover's bank was charged
    assert since == replied_at[0]  # its new decision's clock runs from the reply
    assert deadline == since + (per_move + bank) / 2  # its reminder is due then
    # and the owner's clock does remind and expire it
    now.t = since + (per_move + bank) / 2
    await owner.tick()
    assert (await _clock(owner, live.id, 0))[4]  # reminded


async def test_a_reminder_racing_a_move_made_elsewhere(
    host: Host, now: FakeTime, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The owner claims a clock due for its reminder; before it writes the
    reminder, the seat plays on another process. The old code wrote the
    claimed row back (running, reminded, its old bank) over the move's
    clocks and reminded a player who had played. Now the reminder is
    written under the match's lock only if the clock is still the one found
    due."""
    owner, rec, other = await _owner_and_other(host)
    live = await _start_fast(owner, 901, bot=False)
    seat = sorted(live.match.pending())[0]
    start = live.version
    now.t += 200  # past half of 90 + 300
    played_at: list[float] = []

    async def seat_plays() -> None:
        there = await other.get_match(live.id)
        user, move = _turn(there)
        played_at.append(now.t)
        await other.play(live.id, user, move, expected_version=start)

    runs = _once(monkeypatch, owner, "store.claim_due_clocks", seat_plays, after_call=True)
    await owner.tick()
    assert runs == [1] and played_at
    assert rec.reminders == []  # nobody is reminded of a move they made
    since, _, bank, pending, reminded, _, deadline = await _clock(owner, live.id, seat)
    assert not pending and deadline is None
    assert bank == BANK - (200 - PER_MOVE)  # the move's charge stands
    # the seat whose turn it now is runs from the move
    after = await other.get_match(live.id)
    for s in after.match.pending():
        since, _, _, pending, reminded, _, _ = await _clock(owner, live.id, s)
        assert pending and not reminded and since == played_at[0]


async def test_an_expiry_racing_a_move_made_elsewhere(
    host: Host, now: FakeTime, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The owner's clock runs out and a bot plays for the absent seat; the
    seat that then has the decision answers on another process, handing the
    turn over, before the owner's clock sync would have run (the old code
    then synced from the expiry's ``pending``: it stopped the clock of the
    seat whose turn it was and ran the other's, and wrote the expiry's bank
    and count outside any lock). Now the expiry's clocks (bank emptied on
    the fast clock, one expiry counted) are written with its move, and the
    answer's sync starts from them."""
    owner, rec, other = await _owner_and_other(host)
    live = await _start_fast(owner, 902, bot=False)
    seat = sorted(live.match.pending())[0]
    now.t += PER_MOVE + BANK + 1  # run out
    answered: list[tuple[float, int]] = []

    async def next_seat_answers() -> None:
        now.t += 7
        there = await other.get_match(live.id)
        answerer = sorted(there.match.pending())[0]
        answered.append((now.t, answerer))
        user, move = _move_giving_the_turn_to(there, 1 - answerer)
        await other.play(live.id, user, move, expected_version=there.version)

    runs = _once(monkeypatch, owner, "_refresh_players", next_seat_answers)
    await owner.tick()
    assert runs == [1]
    assert [u.by_clock for u in rec.updates] == [True]  # the expiry's move
    ((answered_at, answerer),) = answered
    fresh = await other.get_match(live.id)
    assert sorted(fresh.match.pending()) == [1 - answerer]
    since, _, bank, pending, reminded, expiries, deadline = await _clock(
        owner, live.id, 1 - answerer
    )
    assert pending and not reminded and since == answered_at  # its turn runs
    assert deadline == since + (PER_MOVE + bank) / 2
    assert not (await _clock(owner, live.id, answerer))[3]  # it answered: stopped
    # the expiry's bank and count stand (a player who then decides resets the count)
    _, _, bank, _, _, expiries, _ = await _clock(owner, live.id, seat)
    assert bank == 0.0 and expiries == (0 if answerer == seat else 1)


async def test_an_expiry_of_a_clock_that_moved_meanwhile_is_dropped(
    host: Host, now: FakeTime, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The clock claimed as run out is not the seat's running clock any more
    when the bot's move reaches the lock (here: the downtime shift of a
    restarting process moved it): no move is played for the seat."""
    owner, rec, other = await _owner_and_other(host)
    live = await _start_fast(owner, 903, bot=False)
    start = live.version
    now.t += PER_MOVE + BANK + 1

    async def shifted() -> None:
        await other.store.shift_clocks(100.0, ShardSet.every(2))

    _once(monkeypatch, owner, "store.claim_due_clocks", shifted, after_call=True)
    await owner.tick()
    assert rec.updates == [] and live.version == start
    assert await owner.store.match_actions(live.id) == []


async def test_locked_clocks_are_written_in_the_locks_transaction(
    host: Host, now: FakeTime
) -> None:
    """``LockedMatch.clocks``/``set_clocks``/``remind`` read and write on the
    lock's own connection: seen inside the block, rolled back with it, and a
    reminder (there or ``Store.remind_clock``) only lands on the clock that
    was found due."""
    owner, _ = await host(S1)
    live = await _start_fast(owner, 904, bot=False)
    seat = sorted(live.match.pending())[0]
    store = owner.store
    before = await store.clocks(live.id)
    since = before[seat][0]
    row = (since, PER_MOVE, 12.0, True, False, 2)
    with pytest.raises(RuntimeError):
        async with store.locked_match(live.id) as locked:
            await locked.set_clocks({seat: row})
            assert (await locked.clocks())[seat] == row
            raise RuntimeError("rolled back")
    assert await store.clocks(live.id) == before
    assert not await store.remind_clock(live.id, seat, since + 1.0)  # not the one found due
    async with store.locked_match(live.id) as locked:
        assert not await locked.remind(seat, since + 1.0)
        assert await locked.remind(seat, since)
        assert not await locked.remind(seat, since)  # reminded already
    assert not await store.remind_clock(live.id, seat, since)
    _, per_move, bank, pending, reminded, _, deadline = await _clock(owner, live.id, seat)
    assert pending and reminded and deadline == since + per_move + bank
