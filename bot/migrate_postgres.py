"""``python run.py migrate-to-postgres``: copy a SQLite database into
PostgreSQL, then prove the copy.

1. The SQLite file is read through a consistent copy (SQLite's online backup,
   safe even while a bot writes) that is brought to the latest schema; the
   file itself is left as it was, so going back to SQLite stays possible.
2. ``Store.open(url)`` applies the PostgreSQL schema (under its lock).
3. One PostgreSQL transaction locks the tables, refuses if any of them holds
   rows (a second run never duplicates anything), copies every table in
   foreign-key order with ``COPY ... FROM STDIN``, and moves the identity
   sequences and the ``finish_seq`` sequence past the copied values.
4. The verify, on what PostgreSQL holds after the commit: the rows of every
   table (count and content) equal the SQLite ones; every match replays from
   its seed and actions to its stored state, version and status; the ratings
   recomputed from the copied results equal the copied ratings.

Exit codes: 0 the copy is exact, 1 the verify found a difference (named),
2 nothing was copied (a refusal, a missing file or setting).
"""

from __future__ import annotations

import argparse
import asyncio
import graphlib
import hashlib
import json
import re
import sqlite3
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

from engine import GAMES, Match

from . import ratings
from .store import MatchRow, Store

SKIPPED = frozenset({"schema_version"})
"""Tables not copied: each database records its own migrations."""
FINISH_SEQUENCE = "results_finish_seq"
"""The sequence PostgreSQL draws ``results.finish_seq`` from (bot/store.py)."""


class Refused(Exception):
    """Nothing was copied: the reason is the message."""


@dataclass
class Report:
    tables: dict[str, int] = field(default_factory=dict)  # table -> rows copied
    matches: int = 0  # matches replayed
    ratings: int = 0  # ratings recomputed
    seconds: float = 0.0  # in all
    copy_seconds: float = 0.0  # of which reading, copying and committing
    problems: list[str] = field(default_factory=list)
    dry_run: bool = False

    @property
    def ok(self) -> bool:
        return not self.problems

    def lines(self) -> list[str]:
        out = [f"  {name:<18} {rows:>9,} rows" for name, rows in self.tables.items()]
        total = sum(self.tables.values())
        verb = "checked (dry run: nothing written)" if self.dry_run else "copied"
        out.append(
            f"{total:,} rows of {len(self.tables)} tables {verb} in {self.copy_seconds:.1f} s;"
            f" {self.matches} matches replayed, {self.ratings} ratings recomputed;"
            f" {self.seconds:.1f} s in all."
        )
        if self.problems:
            out.append(f"The copy differs ({len(self.problems)}):")
            out.extend(f"  - {p}" for p in self.problems)
        else:
            out.append("The copy is exact." if not self.dry_run else "The copy would be exact.")
        return out


def hide_password(url: str) -> str:
    return re.sub(r"(://[^:/@]*):[^@/]*@", r"\1:***@", url)


# ---- SQLite: the source -----------------------------------------------------------------
def snapshot_sqlite(source: Path, into: Path) -> Path:
    """A consistent copy of ``source`` (SQLite's online backup), in ``into``."""
    copy = into / "source.db"
    src = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    dst = sqlite3.connect(copy)
    try:
        src.backup(dst)
    finally:
        dst.close()
        src.close()
    return copy


def sqlite_tables(db: sqlite3.Connection) -> dict[str, list[str]]:
    """``{table: columns}`` of the copied tables, parents before children."""
    names = [
        str(r[0])
        for r in db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        )
        if str(r[0]) not in SKIPPED
    ]
    order = graphlib.TopologicalSorter[str]()
    for name in sorted(names):
        parents = {str(r[2]) for r in db.execute(f'PRAGMA foreign_key_list("{name}")')}
        order.add(name, *sorted(parents - {name}))
    return {
        name: [str(r[1]) for r in db.execute(f'PRAGMA table_info("{name}")')]
        for name in order.static_order()
        if name in names
    }


# ---- comparing rows across the two databases ---------------------------------------------
def _plain(value: Any) -> Any:
    """One value as both databases give it back (booleans as 0/1, integral
    floats as ints, so that a REAL 0 and an INTEGER 0 compare equal)."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, Decimal):
        value = float(value)
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        return int(value)
    if isinstance(value, memoryview):
        return bytes(value)
    return value


def _json(value: Any) -> Any:
    """A JSON column's value as canonical text: SQLite keeps the text the
    store wrote, PostgreSQL's JSONB gives it back parsed (keys reordered)."""
    if value is None:
        return None
    data = json.loads(value) if isinstance(value, str | bytes) else value
    return json.dumps(data, sort_keys=True, ensure_ascii=False)


class Digest:
    """An order-free digest of a table's rows (the sum of their hashes);
    ``json`` marks the columns compared as JSON."""

    def __init__(self, json_columns: Sequence[bool] = ()) -> None:
        self.rows = 0
        self.total = 0
        self.json = tuple(json_columns)

    def add(self, row: Sequence[Any]) -> None:
        marks = self.json or (False,) * len(row)
        values = (_json(v) if j else _plain(v) for v, j in zip(row, marks, strict=True))
        text = repr(tuple(values)).encode()
        self.rows += 1
        self.total = (self.total + int.from_bytes(hashlib.sha256(text).digest())) % 2**256


def _sqlite_digest(
    db: sqlite3.Connection, table: str, columns: Sequence[str], json_columns: Sequence[bool]
) -> Digest:
    digest = Digest(json_columns)
    cols = ", ".join(f'"{c}"' for c in columns)
    for row in db.execute(f'SELECT {cols} FROM "{table}"'):
        digest.add(row)
    return digest


# ---- PostgreSQL: the target --------------------------------------------------------------
async def _connect(url: str) -> Any:
    """Autocommit: each ``conn.transaction()`` below is a real transaction."""
    import psycopg

    return await psycopg.AsyncConnection.connect(url, autocommit=True)


async def _pg_columns(conn: Any) -> dict[str, dict[str, str]]:
    """``{table: {column: data type}}`` of the target's schema."""
    cur = await conn.execute(
        "SELECT table_name, column_name, data_type FROM information_schema.columns"
        " WHERE table_schema = current_schema()"
    )
    out: dict[str, dict[str, str]] = {}
    for table, column, kind in await cur.fetchall():
        out.setdefault(str(table), {})[str(column)] = str(kind)
    return out


def _schema_problems(tables: dict[str, list[str]], pg: dict[str, dict[str, str]]) -> list[str]:
    problems = []
    for table, columns in tables.items():
        if table not in pg:
            problems.append(f"PostgreSQL has no table {table}")
            continue
        missing = [c for c in columns if c not in pg[table]]
        if missing:
            problems.append(f"PostgreSQL's {table} has no column {', '.join(missing)}")
    return problems


async def _pg_counts(conn: Any, tables: Iterable[str]) -> dict[str, int]:
    out = {}
    for table in tables:
        cur = await conn.execute(f'SELECT COUNT(*) FROM "{table}"')
        row = await cur.fetchone()
        out[table] = int(row[0])
    return out


async def _pg_digest(
    conn: Any, table: str, columns: Sequence[str], json_columns: Sequence[bool]
) -> Digest:
    digest = Digest(json_columns)
    cols = ", ".join(f'"{c}"' for c in columns)
    async with conn.transaction(), conn.cursor(name=f"digest_{table}") as cur:
        await cur.execute(f'SELECT {cols} FROM "{table}"')
        async for row in cur:
            digest.add(row)
    return digest


async def _copy_table(
    conn: Any, src: sqlite3.Connection, table: str, columns: Sequence[str]
) -> int:
    cols = ", ".join(f'"{c}"' for c in columns)
    rows = 0
    async with conn.cursor() as cur, cur.copy(f'COPY "{table}" ({cols}) FROM STDIN') as copy:
        for row in src.execute(f'SELECT {cols} FROM "{table}"'):
            await copy.write_row(tuple(row))
            rows += 1
    return rows


def sqlite_sequences(db: sqlite3.Connection) -> dict[str, int]:
    """SQLite's AUTOINCREMENT counters: past the largest id when the newest
    rows were deleted (a deleted deck's id is never given again)."""
    found = db.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sqlite_sequence'"
    ).fetchone()
    if found is None:
        return {}
    return {
        str(name): int(seq) for name, seq in db.execute("SELECT name, seq FROM sqlite_sequence")
    }


async def _reset_sequences(conn: Any, tables: Iterable[str], used: dict[str, int]) -> None:
    """Identity (or serial) columns continue after the copied ids (and after
    SQLite's counter, ``used``), the finishing order after the copied
    ``finish_seq``."""
    wanted = set(tables)
    cur = await conn.execute(
        "SELECT table_name, column_name FROM information_schema.columns"
        " WHERE table_schema = current_schema()"
        " AND (is_identity = 'YES' OR column_default LIKE 'nextval(%')"
    )
    for table, column in await cur.fetchall():
        if table not in wanted:
            continue
        await conn.execute(
            f"SELECT setval(pg_get_serial_sequence(%s, %s),"
            f' GREATEST((SELECT MAX("{column}") FROM "{table}"), %s, 0) + 1, false)',
            (f'"{table}"', column, used.get(table, 0)),
        )
    cur = await conn.execute("SELECT to_regclass(%s)", (FINISH_SEQUENCE,))
    row = await cur.fetchone()
    if row is not None and row[0] is not None:
        await conn.execute(
            "SELECT setval(%s, COALESCE((SELECT MAX(finish_seq) FROM results), 0) + 1, false)",
            (FINISH_SEQUENCE,),
        )


async def _refuse_if_not_empty(conn: Any, tables: Sequence[str]) -> None:
    names = ", ".join(f'"{t}"' for t in tables)
    # a second migration (or a bot already running on the target) waits here
    await conn.execute(f"LOCK TABLE {names} IN EXCLUSIVE MODE")
    counts = await _pg_counts(conn, tables)
    held = {t: n for t, n in counts.items() if n}
    if held:
        first = [t for t in ("matches", "lobbies") if t in held]
        what = [f"{t}: {held[t]}" for t in first]
        others = len(held) - len(first)
        if others:
            what.append(f"{others} other table{'s' if others > 1 else ''} with rows")
        reason = " and ".join(first) if first else "rows"
        raise Refused(
            f"the target database already holds {reason} ({', '.join(what)}): nothing was"
            " copied. migrate-to-postgres fills an empty database only (a second run would"
            " duplicate everything): give it a new database, or drop and create it again."
        )


# ---- the verify --------------------------------------------------------------------------
def replay_problem(row: MatchRow, actions: Sequence[tuple[int, int, str, str]]) -> str | None:
    """Why a stored match is not what its record replays to (None: it is).
    ``actions`` are ``row``'s ``(version, seat, action, events)`` rows in
    order."""
    where = f"match {row.id} ({row.game_id})"
    versions = [v for v, _, _, _ in actions]
    if versions != list(range(1, len(actions) + 1)):
        return f"{where}: its actions are not numbered 1..{len(actions)}"
    record = row.record(actions)
    try:
        replayed = Match.replay(record)
    except Exception as exc:  # any refusal of the engine is a broken record
        return f"{where}: its record does not replay ({type(exc).__name__}: {exc})"
    if replayed.version != row.version:
        return f"{where}: replayed to version {replayed.version}, stored {row.version}"
    game = GAMES[row.game_id]
    try:
        stored = game.load_state(row.snapshot)
    except Exception as exc:
        return f"{where}: its stored snapshot does not load ({type(exc).__name__}: {exc})"
    if stored != replayed.state:
        return f"{where}: the replayed state differs from the stored snapshot"
    expected = {"active": False, "finished": True}.get(row.status)
    if expected is not None and replayed.is_over != expected:
        over = "over" if replayed.is_over else "not over"
        return f"{where}: stored as {row.status} but its replay is {over}"
    return None


async def verify(source: Path, target: str, tables: dict[str, list[str]] | None = None) -> Report:
    """Compare PostgreSQL at ``target`` with the SQLite file ``source`` (at the
    latest schema): rows, replays, ratings. Writes nothing."""
    report = Report()
    src = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    try:
        tables = tables or sqlite_tables(src)
        conn = await _connect(target)
        try:
            schema = await _pg_columns(conn)
            problems = _schema_problems(tables, schema)
            if problems:
                report.problems.extend(problems)
                return report
            counts = await _pg_counts(conn, tables)
            for table, columns in tables.items():
                as_json = [schema[table][c] in {"json", "jsonb"} for c in columns]
                mine = _sqlite_digest(src, table, columns, as_json)
                report.tables[table] = mine.rows
                if counts[table] != mine.rows:
                    report.problems.append(
                        f"{table}: {counts[table]} rows in PostgreSQL, {mine.rows} in SQLite"
                    )
                elif (await _pg_digest(conn, table, columns, as_json)).total != mine.total:
                    report.problems.append(f"{table}: the rows' contents differ from SQLite's")
            cur = await conn.execute("SELECT id FROM matches ORDER BY id")
            match_ids = [int(r[0]) for r in await cur.fetchall()]
        finally:
            await conn.close()
    finally:
        src.close()
    store = await Store.open(target)
    try:
        await _check_matches(store, match_ids, report)
        await _check_ratings(store, report)
    finally:
        await store.close()
    return report


async def _check_matches(store: Store, match_ids: Sequence[int], report: Report) -> None:
    for match_id in match_ids:
        row = await store.match(match_id)
        if row is None:
            report.problems.append(f"match {match_id}: not readable through the store")
            continue
        problem = replay_problem(row, await store.match_actions(match_id))
        if problem:
            report.problems.append(problem)
        report.matches += 1


async def _check_ratings(store: Store, report: Report) -> None:
    recomputed = ratings.recompute(await store.finished_matches())
    stored = await store.all_ratings()
    report.ratings = len(recomputed)
    for key in sorted(set(recomputed) | set(stored), key=repr):
        mine = stored.get(key)
        again = recomputed.get(key)
        fresh = None if again is None else (again.mu, again.sigma, again.games, again.wins)
        if mine != fresh:
            report.problems.append(
                f"rating {'/'.join(map(str, key))}: copied {mine}, recomputed {fresh}"
            )


# ---- the migration -----------------------------------------------------------------------
async def migrate(
    source: Path, target: str, *, dry_run: bool = False, say: Callable[[str], None] = print
) -> Report:
    """Copy ``source`` (a SQLite file) into the empty PostgreSQL database at
    ``target`` and verify it. :class:`Refused` when nothing could be copied."""
    if not source.is_file():
        raise Refused(f"no SQLite database at {source}")
    if not target.startswith(("postgresql://", "postgres://")):
        raise Refused("the target must be a postgresql:// URL (--to or DATABASE_URL)")
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="gueridon-migrate-") as tmp:
        say(f"Reading {source} (a consistent copy, brought to the latest schema) ...")
        copy = snapshot_sqlite(source, Path(tmp))
        await (await Store.open(copy)).close()  # the migrations of a SQLite start
        say(f"Opening {hide_password(target)} (the PostgreSQL schema) ...")
        try:
            await (await _connect(target)).close()  # fails at once, with the reason
            await (await Store.open(target)).close()
        except Exception as exc:  # unreachable server, wrong password, no such database
            raise Refused(f"cannot open {hide_password(target)}: {exc}".strip()) from exc
        src = sqlite3.connect(copy)
        try:
            tables = sqlite_tables(src)
            conn = await _connect(target)
            try:
                problems = _schema_problems(tables, await _pg_columns(conn))
                if problems:
                    raise Refused("; ".join(problems))
                copied = await _copy_all(conn, src, tables, dry_run=dry_run)
                copy_seconds = time.perf_counter() - started
            finally:
                await conn.close()
        finally:
            src.close()
        if dry_run:
            report = await _dry_report(copy, copied)
        else:
            say("Copied; verifying ...")
            report = await verify(copy, target, tables)
            report.tables = copied
    report.seconds = time.perf_counter() - started
    report.copy_seconds = copy_seconds
    return report


async def _copy_all(
    conn: Any, src: sqlite3.Connection, tables: dict[str, list[str]], *, dry_run: bool
) -> dict[str, int]:
    """Every table in one transaction (rolled back on a dry run, after
    counting what PostgreSQL received)."""
    copied: dict[str, int] = {}
    try:
        async with conn.transaction(force_rollback=dry_run):
            await _refuse_if_not_empty(conn, list(tables))
            for table, columns in tables.items():
                copied[table] = await _copy_table(conn, src, table, columns)
            await _reset_sequences(conn, tables, sqlite_sequences(src))
            if dry_run:
                received = await _pg_counts(conn, tables)
                wrong = {t: (n, copied[t]) for t, n in received.items() if n != copied[t]}
                if wrong:
                    raise Refused(f"PostgreSQL received other row counts: {wrong}")
    except Refused:
        raise
    except Exception as exc:
        raise Refused(f"the copy failed and was rolled back ({type(exc).__name__}: {exc})") from exc
    return copied


async def _dry_report(copy: Path, copied: dict[str, int]) -> Report:
    """A dry run checks the source itself: replays and ratings."""
    report = Report(tables=copied, dry_run=True)
    with sqlite3.connect(copy) as db:
        match_ids = [int(r[0]) for r in db.execute("SELECT id FROM matches ORDER BY id")]
    store = await Store.open(copy)
    try:
        await _check_matches(store, match_ids, report)
        await _check_ratings(store, report)
    finally:
        await store.close()
    return report


def main(argv: Sequence[str] | None = None) -> int:
    from .settings import Settings

    settings = Settings()
    parser = argparse.ArgumentParser(
        prog="python3 run.py migrate-to-postgres",
        description="Copy the SQLite database into an empty PostgreSQL database, then"
        " verify the copy (rows, every match replayed, ratings recomputed).",
    )
    parser.add_argument(
        "--from",
        dest="source",
        default=settings.database_path,
        help=f"the SQLite file (default: DATABASE_PATH, here {settings.database_path})",
    )
    parser.add_argument(
        "--to",
        dest="target",
        default=settings.database_url,
        help="the PostgreSQL URL, postgresql://user:password@host/db (default: DATABASE_URL)",
    )
    parser.add_argument(
        "--dry-run",
        action="store_true",
        help="copy inside a transaction that is rolled back: nothing is written"
        " (the PostgreSQL schema is still applied)",
    )
    args = parser.parse_args(argv)
    if not args.target:
        print("No target: give --to postgresql://... or set DATABASE_URL.", file=sys.stderr)
        return 2
    try:
        report = asyncio.run(migrate(Path(args.source), args.target, dry_run=args.dry_run))
    except Refused as exc:
        print(f"migrate-to-postgres refused: {exc}", file=sys.stderr)
        return 2
    print(f"migrate-to-postgres: {args.source} -> {hide_password(args.target)}")
    for line in report.lines():
        print(line)
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
