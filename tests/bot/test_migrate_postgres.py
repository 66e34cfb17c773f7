"""``python run.py migrate-to-postgres`` (bot/migrate_postgres.py): a SQLite
database made by the real host (finished, active and cancelled matches of
several games, an open lobby, a deck, ratings, clocks, a taken-back move, a
waiting take-back request, a spectator, a server's settings) is copied into
an empty PostgreSQL database; the verify passes; a host opened on the copy
resumes the active matches and plays on (new rows get new ids, new results
come after the copied ones); a corrupted copy is caught; a second run
refuses; the legacy database of tests/data migrates too."""

from __future__ import annotations

import asyncio
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import psycopg
import pytest

from bot.migrate_postgres import Refused, main, migrate, replay_problem, verify
from bot.service import HostService, LiveMatch, UserRef
from bot.spectators import Spectators
from bot.store import Store
from bot.undo import UndoDesk
from engine import GAMES, Match, rng
from engine.games.liber import deck as deck_rules
from engine.games.liber.data import decks_by_id

ALICE = UserRef(1, "Alice", "en-US")
BOB = UserRef(2, "Bob", "fr")
CHLOE = UserRef(3, "Chloé", "fr")
EVE = UserRef(5, "Eve", "en-GB")
GUILD = 9
LEGACY_DB = Path(__file__).parent.parent / "data" / "legacy_store.db"


async def _random_moves(svc: HostService, live: LiveMatch, steps: int | None, salt: int) -> None:
    """The pending human seats play random legal moves (``None``: to the end)."""
    chooser = rng.seed_state(salt, "migrate-test")
    done = 0
    while not live.match.is_over and (steps is None or done < steps):
        seat = min(s for s in live.match.pending() if s not in live.bots)
        moves = [live.game.format_action(a) for a in live.match.legal_actions(seat)]
        index, chooser = rng.randbelow(chooser, len(moves))
        await svc.play(live.id, live.user_of(seat), moves[index], seat=seat)
        await svc.wait_for_bots()
        done += 1


async def _undoable_move(svc: HostService, live: LiveMatch) -> int:
    """The pending human plays an action the rules let them take back; their user id."""
    match = live.match
    seat = next(s for s in sorted(match.pending()) if s not in live.bots)
    game = live.game
    for action in match.legal_actions(seat):
        after, events = game.apply(match.state, seat, action)
        if game.undoable(match.state, seat, action, after, events):
            await svc.play(live.id, live.user_of(seat), game.format_action(action), seat=seat)
            return live.user_of(seat)
    raise AssertionError("no undoable action")


def _deck_text() -> str:
    spec = decks_by_id()["starter"]
    return deck_rules.deck_list_text(spec.general, spec.cards)


async def _start(
    svc: HostService, channel: int, game: str, players: list[UserRef], **lobby: Any
) -> LiveMatch:
    options = lobby.pop("options", GAMES[game].quick_options)
    await svc.create_lobby(
        guild_id=GUILD, channel_id=channel, host=players[0], game_id=game, options=options, **lobby
    )
    for user in players[1:]:
        await svc.join(channel, user)
    return await svc.start(channel, players[0])


async def _build(path: Path) -> dict[str, int]:
    """The source database; ``{name: match id}`` of its matches."""
    store = await Store.open(path)
    svc = HostService(store, seed_source=iter(range(500, 600)).__next__, bot_clock=None)
    await svc.resume()
    await svc.remember_guild(GUILD, 100, "fr")
    ids: dict[str, int] = {}
    # finished, with a result and ratings
    done = await _start(svc, 101, "between-battle", [ALICE, BOB])
    await _random_moves(svc, done, None, 1)
    ids["finished"] = done.id
    # active on the fast clock: a taken-back move, a waiting request, a spectator
    active = await _start(svc, 102, "via-belli", [ALICE, BOB], clock="fast")
    desk = UndoDesk.of(svc)
    user = await _undoable_move(svc, active)
    asked = await desk.request(active.id, user)
    other = next(iter(asked.request.asked))
    await desk.answer(active.id, asked.request.version, other, True)
    user = await _undoable_move(svc, active)
    await desk.request(active.id, user)  # left waiting
    await Spectators(svc).watch(active, EVE.id)
    ids["active"] = active.id
    # active, with a deck and an easy bot
    await svc.create_deck(ALICE, "Rush", _deck_text())
    await svc.create_deck(ALICE, "Old", _deck_text())
    await svc.delete_deck(ALICE.id, "Old")  # SQLite never gives its id again
    await svc.create_lobby(
        guild_id=GUILD,
        channel_id=103,
        host=ALICE,
        game_id="liber",
        options=GAMES["liber"].quick_options,
        deck="Rush",
    )
    await svc.add_bot(103, ALICE, "easy")
    deck_match = await svc.start(103, ALICE)
    await svc.wait_for_bots()
    await _random_moves(svc, deck_match, 2, 3)
    ids["deck"] = deck_match.id
    # cancelled after a few moves
    cancelled = await _start(svc, 104, "between-battle", [ALICE, BOB, CHLOE])
    await _random_moves(svc, cancelled, 3, 4)
    await svc.cancel(cancelled.channel_id, ALICE, is_admin=False)
    ids["cancelled"] = cancelled.id
    # an open lobby
    await svc.create_lobby(guild_id=GUILD, channel_id=105, host=BOB, game_id="belle-position")
    await svc.join(105, CHLOE)
    await svc.wait_for_bots()
    await store.close()
    return ids


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, int]]:
    """Made once per module (a few short games); each test copies it."""
    path = tmp_path_factory.mktemp("migrate") / "source.db"
    ids = asyncio.run(_build(path))
    return path, ids


@pytest.fixture
def source_db(source: tuple[Path, dict[str, int]], tmp_path: Path) -> Path:
    path = tmp_path / "gueridon.db"
    shutil.copy(source[0], path)
    return path


def _counts(path: Path) -> dict[str, int]:
    with sqlite3.connect(path) as db:
        names = [
            r[0]
            for r in db.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'"
                " AND name NOT LIKE 'sqlite_%' AND name != 'schema_version'"
            )
        ]
        return {n: int(db.execute(f'SELECT COUNT(*) FROM "{n}"').fetchone()[0]) for n in names}


def _quiet(_: str) -> None:
    pass


async def test_copy_verifies_and_a_host_plays_on_postgres(
    source: tuple[Path, dict[str, int]], source_db: Path, postgres_url: str
) -> None:
    ids = source[1]
    counts = _counts(source_db)
    for table in ("matches", "lobbies", "decks", "ratings", "clocks", "undo_requests", "watchers"):
        assert counts[table] > 0, table
    with sqlite3.connect(source_db) as db:
        statuses = dict(db.execute("SELECT id, status FROM matches").fetchall())
        assert db.execute("SELECT COUNT(*) FROM match_actions WHERE action = '!undo'").fetchone()
        max_lobby = db.execute("SELECT MAX(id) FROM lobbies").fetchone()[0]
        max_seq = db.execute("SELECT MAX(finish_seq) FROM results").fetchone()[0]
        deck_seq = db.execute("SELECT seq FROM sqlite_sequence WHERE name = 'decks'").fetchone()
        assert deck_seq[0] > db.execute("SELECT MAX(id) FROM decks").fetchone()[0]
    assert sorted(statuses.values()) == ["active", "active", "cancelled", "finished"]

    report = await migrate(source_db, postgres_url, say=_quiet)
    assert report.problems == []
    assert report.tables == counts
    assert report.matches == len(statuses)
    assert report.ratings > 0
    assert _counts(source_db) == counts  # the source is left as it was

    svc = await HostService.open(postgres_url, seed_source=lambda: 4242, bot_clock=None)
    try:
        resumed = await svc.resume()
        assert sorted(live.id for live in resumed) == sorted([ids["active"], ids["deck"]])
        desk = UndoDesk.of(svc)
        await desk.load()
        assert desk.pending(ids["active"]) is not None  # the waiting request came along
        active = await svc.get_match(ids["active"])
        version = active.version
        await _random_moves(svc, active, 2, 7)
        row = await svc.store.match(ids["active"])
        assert row is not None and row.version == version + 2 == active.version
        # new rows continue after the copied ids, new results after the copied order
        fresh = await _start(svc, 106, "between-battle", [BOB, CHLOE])
        assert fresh.lobby_id == max_lobby + 1
        await _random_moves(svc, fresh, None, 8)
        await svc.wait_for_bots()
        await svc.create_deck(BOB, "Neuf", _deck_text())
    finally:
        await svc.close()
    async with await psycopg.AsyncConnection.connect(postgres_url) as conn:
        cur = await conn.execute("SELECT finish_seq FROM results WHERE match_id = %s", (fresh.id,))
        seq = await cur.fetchone()
        cur = await conn.execute("SELECT id FROM decks WHERE name = 'Neuf'")
        new_deck = await cur.fetchone()
    assert seq is not None and seq[0] > max_seq
    assert new_deck == (deck_seq[0] + 1,)


async def test_a_corrupted_copy_is_caught(
    source: tuple[Path, dict[str, int]], source_db: Path, postgres_url: str
) -> None:
    ids = source[1]
    assert (await migrate(source_db, postgres_url, say=_quiet)).ok
    store = await Store.open(source_db)
    row = await store.match(ids["finished"])
    actions = await store.match_actions(ids["finished"])
    await store.close()
    assert row is not None
    # the fourth action becomes another move that was legal at that point
    record = row.record(actions)
    before = Match.replay(record, upto=3)
    _, seat, played, _ = actions[3]
    other = next(
        text
        for text in (before.game.format_action(a) for a in before.legal_actions(seat))
        if text != played
    )
    async with await psycopg.AsyncConnection.connect(postgres_url) as conn:
        await conn.execute(
            "UPDATE match_actions SET action = %s WHERE match_id = %s AND version = 4",
            (other, ids["finished"]),
        )
        await conn.execute(
            "UPDATE ratings SET mu = mu + 1 WHERE ctid = (SELECT ctid FROM ratings LIMIT 1)"
        )
    report = await verify(source_db, postgres_url)
    assert not report.ok
    where = f"match {ids['finished']} (between-battle): "
    assert [p for p in report.problems if p.startswith(where)], report.problems
    assert "match_actions: the rows' contents differ from SQLite's" in report.problems
    assert "ratings: the rows' contents differ from SQLite's" in report.problems
    assert [p for p in report.problems if p.startswith("rating global/")], report.problems
    # the replay check alone sees the altered action too
    altered = [(v, s, other if v == 4 else a, e) for v, s, a, e in actions]
    assert replay_problem(row, altered) is not None
    assert replay_problem(row, actions) is None


async def test_a_second_run_refuses_and_a_dry_run_writes_nothing(
    source_db: Path, postgres_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["--from", str(source_db), "--to", postgres_url]
    assert await asyncio.to_thread(main, [*args, "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "dry run: nothing written" in out and "The copy would be exact." in out
    async with await psycopg.AsyncConnection.connect(postgres_url) as conn:
        cur = await conn.execute("SELECT COUNT(*) FROM matches")
        assert (await cur.fetchone()) == (0,)
    assert await asyncio.to_thread(main, args) == 0
    out = capsys.readouterr().out
    assert "The copy is exact." in out and "matches replayed" in out
    assert await asyncio.to_thread(main, args) == 2
    err = capsys.readouterr().err
    assert "already holds matches and lobbies" in err and "nothing was copied" in err
    with pytest.raises(Refused, match="already holds matches"):
        await migrate(source_db, postgres_url, say=_quiet)


async def test_the_legacy_database_migrates(tmp_path: Path, postgres_url: str) -> None:
    path = tmp_path / "old.db"
    shutil.copy(LEGACY_DB, path)
    original = path.read_bytes()
    report = await migrate(path, postgres_url, say=_quiet)
    assert report.problems == []
    assert report.matches == 8
    assert path.read_bytes() == original  # read through a copy: the file is untouched


async def test_an_unknown_database_is_refused_at_once(source_db: Path, postgres_url: str) -> None:
    missing = postgres_url.rsplit("/", 1)[0] + "/no_such_database"
    with pytest.raises(Refused, match=r'cannot open .*"no_such_database" does not exist'):
        await asyncio.wait_for(migrate(source_db, missing, say=_quiet), timeout=10)


async def test_a_missing_source_or_a_sqlite_target_is_refused(tmp_path: Path) -> None:
    with pytest.raises(Refused, match="no SQLite database"):
        await migrate(tmp_path / "none.db", "postgresql://x@127.0.0.1/y", say=_quiet)
    (tmp_path / "a.db").write_bytes(b"")
    with pytest.raises(Refused, match="postgresql:// URL"):
        await migrate(tmp_path / "a.db", str(tmp_path / "b.db"), say=_quiet)


async def test_a_difference_exits_1_and_is_named(
    source_db: Path,
    postgres_url: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The command's answer when the verify finds something (here a replay
    said to differ for every match)."""
    import bot.migrate_postgres as module

    monkeypatch.setattr(module, "replay_problem", lambda row, actions: f"match {row.id}: odd")
    code = await asyncio.to_thread(main, ["--from", str(source_db), "--to", postgres_url])
    out = capsys.readouterr().out
    assert code == 1
    assert "The copy differs (4):" in out and "  - match 1: odd" in out
