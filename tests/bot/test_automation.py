"""Bot seats, the turn clock, reminders, takeover and expiring lobbies."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.service import (
    ClockConfig,
    HostError,
    HostService,
    LiveMatch,
    Lobby,
    Update,
    UserRef,
    bot_name,
    hostable_games,
)
from bot.store import Store
from engine import GAMES, rng

ALICE = UserRef(1, "Alice")
BOB = UserRef(2, "Bob")
CHAN = 300


class FakeTime:
    def __init__(self, start: float = 1_000_000.0) -> None:
        self.t = start

    def __call__(self) -> float:
        return self.t


class Recorder:
    def __init__(self) -> None:
        self.updates: list[Update] = []
        self.reminders: list[tuple[int, int, float]] = []
        self.expired: list[int] = []

    async def on_update(self, update: Update) -> None:
        self.updates.append(update)

    async def on_reminder(self, live: LiveMatch, seat: int, remaining: float) -> None:
        self.reminders.append((live.id, seat, remaining))

    async def on_lobby_expired(self, lobby: Lobby) -> None:
        self.expired.append(lobby.id)


CFG = ClockConfig(
    correspondence_seconds=100,
    fast_seconds=10,
    fast_bank=20,
    max_expiries=3,
    lobby_ttl=600,
    bot_iterations=25,
)


@pytest.fixture
async def setup(tmp_path: Path) -> AsyncIterator[tuple[HostService, FakeTime, Recorder]]:
    store = await Store.open(tmp_path / "g.db")
    now = FakeTime()
    svc = HostService(store, seed_source=lambda: 31337, clock_config=CFG, now=now, bot_clock=None)
    rec = Recorder()
    svc.listeners.append(rec)
    await svc.resume()
    yield svc, now, rec
    await svc.wait_for_bots()
    await store.close()


async def _human_moves_until_over(svc: HostService, live: LiveMatch, user: UserRef) -> None:
    chooser = rng.seed_state(4)
    for _ in range(3000):
        await svc.wait_for_bots()
        if live.match.is_over:
            return
        pending = live.match.pending()
        mine = [s for s in pending if live.user_of(s) == user.id]
        if not mine:
            continue
        moves = svc.legal_moves(live, user.id)
        i, chooser = rng.randbelow(chooser, len(moves))
        await svc.play(live.id, user.id, moves[i][0])
    raise AssertionError("the match did not end")


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
async def test_a_person_plays_a_full_match_against_a_bot(
    setup: tuple[HostService, FakeTime, Recorder], level: str
) -> None:
    svc, _, rec = setup
    await svc.create_lobby(
        guild_id=1, channel_id=CHAN, host=ALICE, game_id="between-battle", seats=2, options="hp=5"
    )
    lobby = await svc.add_bot(CHAN, ALICE, level)
    assert lobby.bots == ((-1, level),) and len(lobby.players) == 2
    live = await svc.start(CHAN, ALICE)
    assert live.bots == {1} and live.names[1] == bot_name(1, level)
    await _human_moves_until_over(svc, live, ALICE)
    assert live.match.is_over
    assert any(u.seat == 1 for u in rec.updates)  # the bot's moves were announced
    result = await svc.store.recent_results(limit=1)
    assert result[0][4][0][4] or result[0][4][1][4]  # a bot seat is marked
    # matches with bots go to the separate pool
    humans, _ = await svc.store.leaderboard("global", "between-battle", "humans", 0, 10)
    bots, _ = await svc.store.leaderboard("global", "between-battle", "bots", 0, 10)
    assert humans == [] and [r[0] for r in bots] == [ALICE.id]


def _bot_games() -> list[Any]:
    from engine.bots import POLICIES

    out = []
    for game_id in sorted(GAMES):
        if game_id not in POLICIES or game_id not in hostable_games():
            continue
        out.append(pytest.param(game_id))
    return out


@pytest.mark.parametrize("game_id", _bot_games())
async def test_bots_play_each_other_to_the_end(
    setup: tuple[HostService, FakeTime, Recorder], game_id: str
) -> None:
    svc, _, _ = setup
    for index in (sorted(GAMES).index(game_id),):
        chan = CHAN + 1 + index
        info = GAMES[game_id].info
        seats = min(3, info.max_seats)
        await svc.create_lobby(
            guild_id=1,
            channel_id=chan,
            host=ALICE,
            game_id=game_id,
            seats=seats,
            options=GAMES[game_id].quick_options,
        )
        await svc.add_bot(chan, ALICE, "easy")
        if seats == 3:
            await svc.add_bot(chan, ALICE, "normal")
        live = await svc.start(chan, ALICE)
        if seats == 3:
            # Alice leaves once the cards are dealt: the two bots play on alone
            await _human_moves_until_draft_done(svc, live)
            await svc.resign(live.id, ALICE.id)
            await svc.wait_for_bots()
            outcome = live.match.outcome()
            assert outcome is not None and outcome.ranking[-1] == (live.seats_of(ALICE.id)[0],)
        else:
            await _human_moves_until_over(svc, live, ALICE)
        assert live.match.is_over, game_id


async def _human_moves_until_draft_done(svc: HostService, live: LiveMatch) -> None:
    for _ in range(20):
        await svc.wait_for_bots()
        try:
            live.game.resign(live.match.state, 0)
            return
        except Exception:
            pass
        seat = sorted(live.match.pending())[0]
        if live.user_of(seat) == ALICE.id:
            await svc.play(live.id, ALICE.id, svc.legal_moves(live, ALICE.id)[0][0])


async def test_addbot_refusals(setup: tuple[HostService, FakeTime, Recorder]) -> None:
    svc, _, _ = setup
    await svc.create_lobby(
        guild_id=1, channel_id=CHAN, host=ALICE, game_id="between-battle", seats=2
    )
    await svc.join(CHAN, BOB)
    with pytest.raises(HostError) as err:
        await svc.add_bot(CHAN, BOB)
    assert err.value.key == "not-host"
    with pytest.raises(HostError) as err:
        await svc.add_bot(CHAN, ALICE, "genius")
    assert err.value.key == "bad-level"
    with pytest.raises(HostError) as err:
        await svc.add_bot(CHAN, ALICE)
    assert err.value.key == "lobby-full"


async def _two_humans(svc: HostService, clock: str = "correspondence") -> LiveMatch:
    await svc.create_lobby(
        guild_id=1,
        channel_id=CHAN,
        host=ALICE,
        game_id="between-battle",
        seats=2,
        options="characters=pirate,ninja",
        clock=clock,
    )
    await svc.join(CHAN, BOB)
    return await svc.start(CHAN, ALICE)


async def test_reminder_at_half_time_then_a_bot_decides(
    setup: tuple[HostService, FakeTime, Recorder],
) -> None:
    svc, now, rec = setup
    live = await _two_humans(svc)
    seat = sorted(live.match.pending())[0]
    now.t += 49
    await svc.tick()
    assert rec.reminders == []
    now.t += 2
    await svc.tick()
    assert [(r[0], r[1]) for r in rec.reminders] == [(live.id, seat)]
    assert rec.reminders[0][2] == pytest.approx(49)
    version = live.version
    now.t += 50
    await svc.tick()
    assert live.version > version  # the absent player's decision was made by a bot
    assert live.match.actions[version][0] == seat
    clocks = await svc.store.clocks(live.id)
    assert clocks[seat][5] == 1  # one expiry


async def test_three_expiries_in_a_row_and_a_bot_takes_the_seat(
    setup: tuple[HostService, FakeTime, Recorder],
) -> None:
    svc, now, _ = setup
    live = await _two_humans(svc)
    absent = sorted(live.match.pending())[0]
    present = 1 - absent
    expired = 0
    for _ in range(200):
        if absent in live.bots or live.match.is_over:
            break
        pending = live.match.pending()
        if absent in pending:
            now.t += 101
            await svc.tick()
            expired += 1
        else:
            user = live.user_of(present)
            await svc.play(live.id, user, svc.legal_moves(live, user)[0][0])
    assert absent in live.bots and absent in live.replaced and expired == 3
    # from now on the bot plays the seat at once; the match can be finished
    await _human_moves_until_over(svc, live, UserRef(live.user_of(present), "x"))
    result = await svc.store.recent_results(limit=1)
    by_user = {seat[0]: seat for seat in result[0][4]}
    assert by_user[live.user_of(absent)][3]  # counted as resigned: last for ratings
    row = await svc.store.match(live.id)
    assert row is not None and absent in row.replaced


async def test_a_player_who_acts_resets_the_expiry_count(
    setup: tuple[HostService, FakeTime, Recorder],
) -> None:
    svc, now, _ = setup
    live = await _two_humans(svc)
    seat = sorted(live.match.pending())[0]
    now.t += 101
    await svc.tick()
    assert (await svc.store.clocks(live.id))[seat][5] == 1
    for _ in range(50):
        pending = sorted(live.match.pending())
        user = live.user_of(pending[0])
        await svc.play(live.id, user, svc.legal_moves(live, user)[0][0])
        if pending[0] == seat:
            break
    assert (await svc.store.clocks(live.id))[seat][5] == 0


async def test_fast_clock_uses_the_bank(setup: tuple[HostService, FakeTime, Recorder]) -> None:
    svc, now, _ = setup
    live = await _two_humans(svc, clock="fast")
    seat = sorted(live.match.pending())[0]
    user = live.user_of(seat)
    now.t += 15  # 5 s over the 10 s per move: paid by the bank
    await svc.play(live.id, user, svc.legal_moves(live, user)[0][0])
    clocks = await svc.store.clocks(live.id)
    assert clocks[seat][2] == pytest.approx(15)
    # with the bank, the next decision may take 10 + 15 s
    pending = sorted(live.match.pending())[0]
    if pending == seat:
        now.t += 24
        await svc.tick()
        assert live.match.pending().get(seat) is not None


async def test_the_clock_is_frozen_while_the_host_is_down(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    store = await Store.open(path)
    now = FakeTime()
    svc = HostService(store, seed_source=lambda: 5, clock_config=CFG, now=now, bot_clock=None)
    await svc.resume()
    live = await _two_humans(svc)
    seat = sorted(live.match.pending())[0]
    now.t += 60
    await svc.tick()  # heartbeat at +60
    await store.close()
    # the host is down for a day
    now.t += 86400
    store2 = await Store.open(path)
    svc2 = HostService(store2, clock_config=CFG, now=now, bot_clock=None)
    await svc2.resume()
    again = svc2.match_in(CHAN)
    assert again is not None
    version = again.version
    now.t += 30  # 90 s of the 100 used: not expired
    await svc2.tick()
    assert again.version == version
    now.t += 11
    await svc2.tick()
    assert again.version == version + 1 and again.match.actions[-1][0] == seat
    await svc2.wait_for_bots()
    await store2.close()


async def test_lobbies_that_never_start_expire(
    setup: tuple[HostService, FakeTime, Recorder],
) -> None:
    svc, now, rec = setup
    lobby = await svc.create_lobby(
        guild_id=1, channel_id=CHAN, host=ALICE, game_id="between-battle"
    )
    now.t += 599
    await svc.tick()
    assert await svc.lobby_in(CHAN) is not None
    now.t += 2
    await svc.tick()
    assert await svc.lobby_in(CHAN) is None and rec.expired == [lobby.id]
