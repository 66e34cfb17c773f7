"""Undo and the turn clock (``fast``): a take-back costs the other players no
time and gives the player who took back none: their clock is as it was when
the undone action started."""

from __future__ import annotations

from pathlib import Path

from bot.service import ClockConfig, HostService, UserRef
from bot.store import Store
from bot.undo import UndoDesk

ALICE = UserRef(1, "Alice", "en-US")
BOB = UserRef(2, "Bob", "fr")
CHAN = 100


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def test_an_undo_charges_no_one_and_restores_the_movers_clock(tmp_path: Path) -> None:
    clock = Clock()
    store = await Store.open(tmp_path / "g.db")
    config = ClockConfig(fast_seconds=10, fast_bank=100)
    svc = HostService(
        store, seed_source=lambda: 4242, now=clock, bot_clock=None, clock_config=config
    )
    try:
        await svc.resume()
        await svc.create_lobby(
            guild_id=9, channel_id=CHAN, host=ALICE, game_id="between-battle", seats=2, clock="fast"
        )
        await svc.join(CHAN, BOB)
        live = await svc.start(CHAN, ALICE)
        match, game = live.match, live.game
        (mover,) = sorted(match.pending())
        other = 1 - mover
        started = (await store.clocks(live.id))[mover]
        assert started[3] and started[2] == 100  # pending, a full bank
        # the mover thinks 15 s (5 s over the per-move time), then plays
        clock.now += 15

        def passes_the_turn(a: object) -> bool:  # undoable, and the other player decides next
            after, events = game.apply(match.state, mover, a)
            undoable = game.undoable(match.state, mover, a, after, events)
            return undoable and mover not in game.pending(after)

        action = next(a for a in match.legal_actions(mover) if passes_the_turn(a))
        await svc.play(live.id, live.user_of(mover), game.format_action(action), seat=mover)
        rows = await store.clocks(live.id)
        assert rows[mover][2] == 95 and not rows[mover][3]
        assert other in match.pending() and rows[other][3]
        other_before = rows[other]
        # the other player waits 40 s on the request before accepting
        desk = UndoDesk.of(svc)
        asked = await desk.request(live.id, live.user_of(mover))
        assert asked.status == "asked"
        clock.now += 40
        done = await desk.answer(live.id, live.version, live.user_of(other), True)
        assert done.status == "done"
        rows = await store.clocks(live.id)
        # the other player's decision was not made: stopped, their bank untouched
        assert not rows[other][3] and rows[other][2] == other_before[2] == 100
        # the mover's clock is back where it was when their action started:
        # the time thought before the move and the wait still count
        assert rows[mover] == started
        assert sorted(match.pending()) == [mover]
    finally:
        await svc.wait_for_bots()
        await store.close()
