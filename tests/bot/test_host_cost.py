"""What an action costs the host besides drawing (issue 17): trips to the
database's thread on the per-action path."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.store import Store


async def test_reads_after_every_action_take_one_trip(tmp_path: Path) -> None:
    """The clocks (read after every action) and a seat's message are one
    trip each to aiosqlite's thread: a cursor, its rows and its closing were
    three, each a hand-over of the GIL to that thread and back."""
    store = await Store.open(tmp_path / "g.db")
    await store.db.execute("PRAGMA foreign_keys=OFF")  # rows of a match not created here
    await store.set_clocks(7, {0: (1.0, 60.0, 600.0, True, False, 0)})
    await store.set_seat_message(7, 0, 11, 12, 3)
    trips = 0
    connection: Any = store.db
    execute = connection._execute

    async def counted(fn: Any, *args: Any, **kwargs: Any) -> Any:
        nonlocal trips
        trips += 1
        return await execute(fn, *args, **kwargs)

    connection._execute = counted
    try:
        assert await store.clocks(7) == {0: (1.0, 60.0, 600.0, True, False, 0)}
        assert trips == 1
        assert await store.seat_message(7, 0) == (11, 12, 3)
        assert await store.seat_message(7, 1) is None
        assert trips == 3
    finally:
        connection._execute = execute
        await store.close()
