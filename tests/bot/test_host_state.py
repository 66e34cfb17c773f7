"""What the host keeps in memory and what its clock does: finished and
looked-up matches are dropped past a bound, the clock reads the due clocks
in one query (claiming them, issue 18) and one broken match does not stop the others, and a clock
expiry in a game without bots falls back to a random legal action."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bot.service import ClockConfig, HostService, LiveMatch, UserRef
from bot.store import Store
from engine import GAMES
from engine.bots import has_bots
from engine.core import Decision, Event, Game, GameInfo, GameOptions, Outcome
from tests.bot.test_automation import FakeTime, Recorder

ALICE = UserRef(1, "Alice", "en-US")
BOB = UserRef(2, "Bob", "fr")
CFG = ClockConfig(correspondence_seconds=100, lobby_ttl=10**9, bot_iterations=25)


@pytest.fixture
async def svc(tmp_path: Path) -> AsyncIterator[tuple[HostService, FakeTime, Recorder]]:
    store = await Store.open(tmp_path / "g.db")
    now = FakeTime()
    service = HostService(
        store,
        seed_source=lambda: 2024,
        clock_config=CFG,
        now=now,
        bot_clock=None,
        keep_inactive=3,
    )
    rec = Recorder()
    service.listeners.append(rec)
    await service.resume()
    yield service, now, rec
    await service.wait_for_bots()
    await store.close()


async def _start(svc: HostService, channel: int, game_id: str = "between-battle") -> LiveMatch:
    options = "characters=pirate,ninja" if game_id == "between-battle" else ""
    await svc.create_lobby(
        guild_id=7, channel_id=channel, host=ALICE, game_id=game_id, seats=2, options=options
    )
    await svc.join(channel, BOB)
    return await svc.start(channel, ALICE)


# ---- eviction ---------------------------------------------------------------------------
async def test_finished_and_looked_up_matches_are_dropped_past_the_bound(
    svc: tuple[HostService, FakeTime, Recorder],
) -> None:
    service, _, _ = svc
    finished = []
    for i in range(6):
        live = await _start(service, 1000 + i)
        await service.resign(live.id, BOB.id)
        assert live.match.is_over
        finished.append(live.id)
    active = await _start(service, 2000)
    # the active match and the 3 most recent finished ones
    assert set(service.matches) == {active.id, *finished[-3:]}
    # /replay and /stats-style look-ups load old matches again, then drop them
    for match_id in finished:
        live, record = await service.replay_record(match_id)
        assert live.match.is_over and str(record["seed"]) == "2024"
    assert set(service.matches) == {active.id, *finished[-3:]}
    # a cancelled match is retired too; the active one is never dropped
    cancelled = await _start(service, 2001)
    await service.cancel(2001, ALICE, is_admin=True)
    for match_id in finished[:3]:
        await service.get_match(match_id)
    assert cancelled.id not in service.matches and active.id in service.matches
    assert len(service.matches) == 1 + 3
    # what was dropped is read again from the store, identical
    again = await service.get_match(finished[0])
    assert again.match.is_over and again.match.outcome() is not None


# ---- the clock ---------------------------------------------------------------------------
async def test_tick_reads_the_due_clocks_in_one_query(
    svc: tuple[HostService, FakeTime, Recorder], monkeypatch: pytest.MonkeyPatch
) -> None:
    service, now, rec = svc
    lives = [await _start(service, 3000 + i) for i in range(4)]
    calls: list[str] = []
    for name in ("clocks", "claim_due_clocks"):
        original = getattr(service.store, name)

        def counting(*args: Any, _name: str = name, _fn: Any = original) -> Any:
            calls.append(_name)
            return _fn(*args)

        monkeypatch.setattr(service.store, name, counting)
    await service.tick()  # nothing due
    assert calls == ["claim_due_clocks"]
    calls.clear()
    now.t += 51  # half time for every match: four reminders, still one read
    await service.tick()
    assert calls == ["claim_due_clocks"]
    assert sorted(r[0] for r in rec.reminders) == sorted(live.id for live in lives)


async def test_a_failing_match_does_not_stop_the_others_clocks(
    svc: tuple[HostService, FakeTime, Recorder],
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    service, now, _ = svc
    broken = await _start(service, 4000)
    fine = await _start(service, 4001)
    assert broken.id < fine.id  # the broken one comes first in the tick

    def explode(seat: int | None = None) -> Any:
        raise RuntimeError("corrupted match")

    monkeypatch.setattr(broken.match, "pending", explode)
    version = fine.version
    now.t += 101
    with caplog.at_level(logging.ERROR):
        await service.tick()
    assert fine.version > version  # its clock expired and a bot decided
    assert any(f"match {broken.id}" in r.getMessage() for r in caplog.records)


# ---- a game without bots -----------------------------------------------------------------
class RaceOptions(GameOptions):
    target: int = 5


@dataclass(frozen=True, slots=True)
class RaceState:
    total: int
    turn: int
    target: int
    winner: int | None = None


class Race(Game[RaceState, int, RaceState]):
    """Add 1 or 2 in turn; whoever reaches the target wins. No bot policy."""

    info = GameInfo(
        id="test-race",
        min_seats=2,
        max_seats=2,
        options_model=RaceOptions,
        hidden_information=False,
        chance=False,
        simultaneous=False,
    )
    state_type = RaceState

    def setup(self, options: GameOptions, seats: int, seed: int) -> RaceState:
        assert isinstance(options, RaceOptions)
        return RaceState(0, 0, options.target)

    def pending(self, state: RaceState) -> Mapping[int, Decision]:
        return {} if state.winner is not None else {state.turn: Decision("turn")}

    def legal_actions(self, state: RaceState, seat: int) -> Sequence[int]:
        return [1, 2] if seat in self.pending(state) else []

    def apply(
        self, state: RaceState, seat: int, action: int
    ) -> tuple[RaceState, tuple[Event, ...]]:
        total = state.total + action
        winner = seat if total >= state.target else None
        return RaceState(total, 1 - seat, state.target, winner), (Event("add", {"n": action}),)

    def view(self, state: RaceState, seat: int | None) -> RaceState:
        return state

    def outcome(self, state: RaceState) -> Outcome | None:
        if state.winner is None:
            return None
        return Outcome(((state.winner,), (1 - state.winner,)), "target")

    def seat_count(self, state: RaceState) -> int:
        return 2

    def resign(self, state: RaceState, seat: int) -> tuple[RaceState, tuple[Event, ...]]:
        return RaceState(state.total, state.turn, state.target, 1 - seat), ()

    def determinize(self, state: RaceState, seat: int | None, seed: int) -> RaceState:
        return state

    def format_action(self, action: int) -> str:
        return str(action)

    def parse_action(self, text: str) -> int:
        return int(text)


async def test_a_clock_expiry_in_a_game_without_bots_plays_a_random_legal_action(
    svc: tuple[HostService, FakeTime, Recorder], monkeypatch: pytest.MonkeyPatch
) -> None:
    import render

    service, now, rec = svc
    monkeypatch.setitem(GAMES, "test-race", Race())
    monkeypatch.setattr(render, "RENDERED_GAMES", render.RENDERED_GAMES | {"test-race"})
    assert not has_bots("test-race")
    live = await _start(service, 5000, "test-race")
    absent = sorted(live.match.pending())[0]
    now.t += 101
    await service.tick()
    assert live.version == 1 and live.match.actions[0][0] == absent
    assert live.match.actions[0][1] in ("1", "2")
    assert rec.updates and rec.updates[-1].seat == absent
    # after three expiries in a row the seat is played for good, still at random
    for _ in range(10):
        if live.match.is_over:
            break
        seat = sorted(live.match.pending())[0]
        if seat == absent:
            now.t += 101
            await service.tick()
        else:
            await service.play(live.id, live.user_of(seat), "1")
        await service.wait_for_bots()
    assert live.match.is_over


# ---- languages ---------------------------------------------------------------------------
async def test_languages_are_saved_and_reloaded_after_a_restart(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "g.db")
    now = FakeTime()
    cfg = ClockConfig(correspondence_seconds=100, lobby_ttl=600)
    first = HostService(store, seed_source=lambda: 5, clock_config=cfg, now=now, bot_clock=None)
    await first.resume()
    await first.remember_user(BOB)
    await first.remember_guild(7, 6000, "fr")
    await first.remember_guild(8, 6001, "fr")
    live = await _start(first, 6000)
    await first.create_lobby(guild_id=8, channel_id=6001, host=ALICE, game_id="between-battle")
    await store.close()
    # the restart: nothing in memory, no interaction since
    store = await Store.open(tmp_path / "g.db")
    second = HostService(store, seed_source=lambda: 5, clock_config=cfg, now=now, bot_clock=None)
    rec = Recorder()
    second.listeners.append(rec)
    await second.resume()
    assert second.user_locale(BOB.id) == "fr" and second.user_locale(ALICE.id) == "en-US"
    assert second.channel_locale(live.channel_id) == "fr"
    assert second.channel_locale(6001) is None  # a lobby's server: learnt when needed
    now.t += 601
    await second.tick()
    assert rec.expired and second.channel_locale(6001) == "fr"
    await second.wait_for_bots()
    await store.close()
