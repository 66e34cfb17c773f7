"""Write ``legacy_store.db``: a host database as the release before the msgspec
state codec (issue 13) writes it, for ``tests/bot/test_store_legacy.py``.

How it was made (on the unchanged code of that release, the main branch at
commit 00396b6, whose Via Belli saves states in its compact schema-1 format
and the other games in the reflective codec's schema-1 JSON)::

    cd /work/main && .venv/bin/python /path/to/tests/data/make_legacy_db.py OUT.db

It plays, through ``HostService`` and the real ``Store`` (migrations 001 to
004, WAL checkpointed into one file), random human-only matches with fixed
seeds: for each game one left mid-game (active) and one played to the end
(finished), plus a Via Belli match for three with a resignation and a Between
Battle match for three cancelled after a few moves. Every action row keeps its
events, every match its last snapshot. Nothing here is imported by the tests.
"""

from __future__ import annotations

import asyncio
import sqlite3
import sys
from pathlib import Path

from bot.service import HostService, LiveMatch, UserRef
from bot.store import Store
from engine import rng

USERS = [UserRef(101, "Alice", "en-US"), UserRef(102, "Bob", "fr"), UserRef(103, "Chloé", "fr")]
GUILD = 9

# (channel, game, seats, options, seed, actions to play: None = to the end, resign, cancel)
MATCHES: list[tuple[int, str, int, str, int, int | None, bool, bool]] = [
    (201, "between-battle", 2, "", 11, None, False, False),
    (202, "between-battle", 2, "characters=pirate,ninja", 12, 9, False, False),
    (203, "between-battle", 3, "", 13, 6, False, True),
    (211, "belle-position", 2, "", 21, None, False, False),
    (212, "belle-position", 2, "", 22, 40, False, False),
    (221, "via-belli", 2, "table=standard", 31, None, False, False),
    (222, "via-belli", 2, "table=gueridon", 32, 25, False, False),
    (223, "via-belli", 3, "table=gueridon", 33, 30, True, False),
]


async def play(svc: HostService, live: LiveMatch, steps: int | None, salt: int) -> None:
    chooser = rng.seed_state(salt, "legacy-db")
    done = 0
    while not live.match.is_over and (steps is None or done < steps):
        seat = min(live.match.pending())
        user = live.user_of(seat)
        moves = [live.game.format_action(a) for a in live.match.legal_actions(seat)]
        index, chooser = rng.randbelow(chooser, len(moves))
        await svc.play(live.id, user, moves[index], seat=seat)
        done += 1


async def main(path: Path) -> None:
    store = await Store.open(path)
    seeds = iter([m[4] for m in MATCHES])
    svc = HostService(store, seed_source=lambda: next(seeds), bot_clock=None)
    await svc.resume()
    for user in USERS:
        await svc.remember_user(user)
    for channel, game, seats, options, _, steps, resign, cancel in MATCHES:
        await svc.create_lobby(
            guild_id=GUILD,
            channel_id=channel,
            host=USERS[0],
            game_id=game,
            seats=seats,
            options=options,
        )
        for user in USERS[1:seats]:
            await svc.join(channel, user)
        live = await svc.start(channel, USERS[0])
        await play(svc, live, steps, channel)
        if resign:
            await svc.resign(live.id, USERS[2].id)
            await play(svc, live, 5, channel + 1)
        if cancel:
            await svc.cancel(channel, USERS[0], is_admin=True)
    await store.close()
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        db.execute("PRAGMA journal_mode=DELETE")
        db.execute("VACUUM")


if __name__ == "__main__":
    out = Path(sys.argv[1])
    if out.exists():
        sys.exit(f"{out} exists")
    asyncio.run(main(out))
