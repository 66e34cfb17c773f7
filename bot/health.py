"""``python -m bot.health``: is this process alive? Exit 0 when every shard it
runs (``SHARD_COUNT``, ``SHARD_IDS``) beat in the database within
``--max-age`` seconds, else 1, naming the late shards. The host's ``tick``
writes one beat per owned shard every ``TICK_SECONDS`` into
``shard_heartbeats``; this reads them (SQLite or PostgreSQL, as the settings
say) and writes nothing: a container's or a monitor's health check."""

from __future__ import annotations

import argparse
import sqlite3
import sys
import time
from collections.abc import Sequence

from .settings import Settings

QUERY = "SELECT shard_id, alive_at FROM shard_heartbeats WHERE shard_count = "


def beats(database: str, shard_count: int) -> dict[int, float]:
    """``{shard id: last beat (epoch seconds)}`` under ``shard_count``."""
    if database.startswith(("postgresql://", "postgres://")):
        import psycopg

        with psycopg.connect(database, connect_timeout=5, autocommit=True) as conn:
            rows = conn.execute(QUERY + "%s", (shard_count,)).fetchall()
    else:
        with sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=5) as db:
            rows = db.execute(QUERY + "?", (shard_count,)).fetchall()
    return {int(shard): float(at) for shard, at in rows}


def late_shards(
    seen: dict[int, float], ids: Sequence[int], now: float, max_age: float
) -> list[int]:
    return [i for i in sorted(ids) if now - seen.get(i, float("-inf")) > max_age]


def main(argv: Sequence[str] | None = None) -> int:
    settings = Settings()
    parser = argparse.ArgumentParser(prog="python -m bot.health", description=__doc__)
    parser.add_argument(
        "--max-age",
        type=float,
        default=max(60.0, 6 * settings.tick_seconds),
        help="seconds since a shard's last beat (default: 60, or 6 ticks if longer)",
    )
    args = parser.parse_args(argv)
    shards = settings.shards
    try:
        seen = beats(settings.database, shards.count)
    except Exception as exc:  # no database, no table yet, PostgreSQL down
        print(f"unhealthy: cannot read the heartbeats ({type(exc).__name__}: {exc})")
        return 1
    now = time.time()
    late = late_shards(seen, sorted(shards.ids), now, args.max_age)
    if late:
        ages = ", ".join(
            f"{i} ({now - seen[i]:.0f} s ago)" if i in seen else f"{i} (never)" for i in late
        )
        print(f"unhealthy: shards {shards.describe()}: no recent beat from {ages}")
        return 1
    print(f"healthy: shards {shards.describe()} beat within {args.max_age:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
