"""Undo by consent in the service (bot/undo.py), without Discord."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.service import ClockConfig, HostError, HostService, LiveMatch, UserRef
from bot.store import Store
from bot.undo import UndoDesk, UndoResult
from engine.match import UNDO

ALICE = UserRef(1, "Alice", "en-US")
BOB = UserRef(2, "Bob", "fr")
CHLOE = UserRef(3, "Chloé", "fr")
CHAN = 100


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def clock() -> Clock:
    return Clock()


@pytest.fixture
async def service(tmp_path: Path, clock: Clock) -> AsyncIterator[HostService]:
    store = await Store.open(tmp_path / "g.db")
    svc = HostService(
        store, seed_source=lambda: 4242, now=clock, bot_clock=None, clock_config=ClockConfig()
    )
    await svc.resume()
    yield svc
    await svc.wait_for_bots()
    await store.close()


async def _started(svc: HostService, *, bot: bool = False) -> LiveMatch:
    await svc.create_lobby(guild_id=9, channel_id=CHAN, host=ALICE, game_id="via-belli", seats=2)
    if bot:
        await svc.add_bot(CHAN, ALICE, "easy")
    else:
        await svc.join(CHAN, BOB)
    return await svc.start(CHAN, ALICE)


async def _undoable_move(svc: HostService, live: LiveMatch) -> tuple[int, bytes]:
    """The pending human plays their first legal action the rules let them
    take back: ``(user, state before)``."""
    match = live.match
    seat = next(s for s in sorted(match.pending()) if s not in live.bots)
    game = live.game
    for action in match.legal_actions(seat):
        after, events = game.apply(match.state, seat, action)
        if game.undoable(match.state, seat, action, after, events):
            before = game.dump_state(match.state)
            await svc.play(live.id, live.user_of(seat), game.format_action(action), seat=seat)
            return live.user_of(seat), before
    raise AssertionError("no undoable action")


async def test_accepted_undo_is_committed_and_counted(service: HostService, tmp_path: Path) -> None:
    live = await _started(service)
    user, before = await _undoable_move(service, live)
    other = BOB.id if user == ALICE.id else ALICE.id
    desk = UndoDesk.of(service)
    asked = await desk.request(live.id, user)
    assert asked.status == "asked" and asked.request.asked == {other}
    version = live.version
    with pytest.raises(HostError) as err:
        await desk.request(live.id, user)
    assert err.value.key == "undo-pending"
    done = await desk.answer(live.id, version, other, True)
    assert done.status == "done" and done.update is not None
    assert done.update.action == UNDO and done.update.version == version + 1
    assert live.game.dump_state(live.match.state) == before
    # the store has the !undo row and the snapshot; a restart resumes it
    rows = await service.store.match_actions(live.id)
    assert rows[-1][2] == UNDO and rows[-1][0] == version + 1
    store2 = await Store.open(tmp_path / "g.db")
    svc2 = HostService(store2, seed_source=lambda: 1)
    try:
        (resumed,) = await svc2.resume()
        assert resumed.version == version + 1
        assert live.game.dump_state(resumed.match.state) == before
    finally:
        await store2.close()
    # the result counts the undo
    await service.resign(live.id, ALICE.id)
    assert await service.store.undo_counts([live.id]) == {live.id: 1}


async def test_refused_and_refusals(service: HostService) -> None:
    live = await _started(service)
    user, _ = await _undoable_move(service, live)
    other = BOB.id if user == ALICE.id else ALICE.id
    desk = UndoDesk.of(service)
    with pytest.raises(HostError) as err:
        await desk.request(live.id, CHLOE.id)
    assert err.value.key == "undo-not-player"
    await desk.request(live.id, user)
    with pytest.raises(HostError) as err:
        await desk.answer(live.id, live.version, user, True)
    assert err.value.key == "undo-not-asked"
    with pytest.raises(HostError) as err:
        await desk.answer(live.id, live.version - 1, other, True)
    assert err.value.key == "undo-stale"
    state = live.match.state
    refused = await desk.answer(live.id, live.version, other, False)
    assert refused.status == "refused" and refused.by == other
    assert live.match.state is state and desk.pending(live.id) is None
    with pytest.raises(HostError) as err:
        await desk.answer(live.id, live.version, other, True)
    assert err.value.key == "undo-stale"
    # the other player has nothing of theirs to take back
    with pytest.raises(HostError) as err:
        await desk.request(live.id, other)
    assert err.value.key in ("undo-refused-not-yours", "undo-refused-nothing")


async def test_request_expires_in_tick(service: HostService, clock: Clock) -> None:
    live = await _started(service)
    user, _ = await _undoable_move(service, live)
    closed: list[UndoResult] = []

    class Listener:
        async def on_update(self, update: Any) -> None: ...

        async def on_reminder(self, *args: Any) -> None: ...

        async def on_lobby_expired(self, lobby: Any) -> None: ...

        async def on_undo_closed(self, result: UndoResult) -> None:
            closed.append(result)

    service.listeners.append(Listener())
    desk = UndoDesk.of(service)
    await desk.request(live.id, user)
    clock.now += 119
    await service.tick()
    assert desk.pending(live.id) is not None and not closed
    clock.now += 2
    await service.tick()
    assert desk.pending(live.id) is None
    assert [r.status for r in closed] == ["expired"]
    assert await service.store.undo_requests() == []
    # an answer after the time limit, before a tick closed the request, is too late
    await desk.request(live.id, user)
    clock.now += 121
    other = BOB.id if user == ALICE.id else ALICE.id
    with pytest.raises(HostError) as err:
        await desk.answer(live.id, live.version, other, True)
    assert err.value.key == "undo-stale"


async def test_a_request_survives_a_restart(service: HostService, tmp_path: Path) -> None:
    live = await _started(service)
    user, before = await _undoable_move(service, live)
    other = BOB.id if user == ALICE.id else ALICE.id
    await UndoDesk.of(service).request(live.id, user)
    store2 = await Store.open(tmp_path / "g.db")
    svc2 = HostService(store2, seed_source=lambda: 1, now=lambda: 1001.0)
    try:
        (resumed,) = await svc2.resume()
        done = await UndoDesk.of(svc2).answer(live.id, resumed.version, other, True)
        assert done.status == "done"
        assert resumed.game.dump_state(resumed.match.state) == before
    finally:
        await store2.close()


async def test_bots_accept_at_once(service: HostService) -> None:
    live = await _started(service, bot=True)
    # Via Belli's "+" opens the summon menu: the human is still to act, so the
    # bot has not played since
    seat = next(s for s in live.match.pending() if s not in live.bots)
    before = live.game.dump_state(live.match.state)
    await service.play(live.id, live.user_of(seat), "+", seat=seat)
    result = await UndoDesk.of(service).request(live.id, live.user_of(seat))
    assert result.status == "done" and result.request.asked == frozenset()
    assert live.game.dump_state(live.match.state) == before
    assert live.match.actions[-1] == (seat, UNDO)
    # a bot move thought on the undone version is refused by the version check
    # (the bots' driver then thinks again on the new state)
    bot_seat = next(iter(live.bots))
    with pytest.raises(HostError) as err:
        await service.play(
            live.id, live.user_of(bot_seat), "D", expected_version=live.version - 1, seat=bot_seat
        )
    assert err.value.key == "stale"
