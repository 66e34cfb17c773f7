"""The store: migrations, WAL, the one-transaction action commit (the tests
taking ``database`` run on SQLite and on PostgreSQL)."""

from __future__ import annotations

import json
from pathlib import Path

import aiosqlite
import pytest

from bot import ratings
from bot.guilds import GuildSettings
from bot.store import StaleWrite, Store, migrations


async def _columns(db: aiosqlite.Connection) -> dict[str, list[tuple[str, str]]]:
    out = {}
    async with db.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
    ) as cur:
        tables = [r[0] for r in await cur.fetchall()]
    for table in sorted(tables):
        async with db.execute(f"PRAGMA table_info({table})") as cur:
            out[table] = [(r[1], r[2]) for r in await cur.fetchall()]
    return out


async def _indexes(db: aiosqlite.Connection) -> set[str]:
    async with db.execute("SELECT name FROM sqlite_master WHERE type = 'index'") as cur:
        return {r[0] for r in await cur.fetchall() if not r[0].startswith("sqlite_")}


def test_migrations_are_numbered_from_one() -> None:
    found = migrations()
    assert [v for v, _, _ in found] == list(range(1, len(found) + 1))
    assert len(found) >= 2


@pytest.mark.parametrize("start", range(len(migrations())))
async def test_upgrade_path_from_every_earlier_version(tmp_path: Path, start: int) -> None:
    latest = len(migrations())
    fresh = await Store.open(tmp_path / "fresh.db")
    old = await Store.open(tmp_path / "old.db", upto=start)
    assert await old.schema_version() == start
    if start >= 1:
        # data written by an older version survives the upgrade
        lobby_id = await old.create_lobby(10, 20, "between-battle", 30, 2, "")
    await old.close()
    upgraded = await Store.open(tmp_path / "old.db")
    assert await upgraded.schema_version() == latest
    assert await _columns(upgraded.db) == await _columns(fresh.db)
    assert await _indexes(upgraded.db) == await _indexes(fresh.db)
    if start >= 1:
        lobby = await upgraded.lobby(lobby_id)
        assert lobby is not None and lobby.players == (30,)
    await upgraded.close()
    await fresh.close()


async def test_wal_mode(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "g.db")
    async with store.db.execute("PRAGMA journal_mode") as cur:
        row = await cur.fetchone()
    assert row is not None and row[0] == "wal"
    await store.close()


async def test_commit_action_checks_the_version(database: str) -> None:
    store = await Store.open(database)
    match_id = await store.create_match(
        lobby_id=None,
        guild_id=1,
        channel_id=2,
        game_id="between-battle",
        options="{}",
        seats=2,
        seed=5,
        seed_sha256="x",
        engine_version="1",
        snapshot="{}",
        players=[(1, "a"), (2, "b")],
    )
    await store.commit_action(
        match_id, expected_version=0, seat=0, action="D", events=[], snapshot="s1", status="active"
    )
    with pytest.raises(StaleWrite):
        await store.commit_action(
            match_id,
            expected_version=0,
            seat=1,
            action="P1",
            events=[],
            snapshot="s2",
            status="active",
        )
    row = await store.match(match_id)
    assert row is not None and row.version == 1 and row.snapshot == "s1"
    assert [a[2] for a in await store.match_actions(match_id)] == ["D"]
    await store.close()


async def test_one_open_lobby_per_channel(database: str) -> None:
    store = await Store.open(database)
    await store.create_lobby(1, 2, "between-battle", 3, 2, "")
    with pytest.raises(Exception, match=r"(?i)unique"):
        await store.create_lobby(1, 2, "between-battle", 4, 2, "")
    # the failed transaction left nothing behind and the store still works
    lobby = await store.open_lobby_in(2)
    assert lobby is not None and lobby.host_id == 3
    await store.close()


async def test_every_method_on_both_databases(database: str) -> None:
    """The store's other methods, once each, with Discord-sized ids (64 bits)
    and a bot's made-up negative id: the SQL is the same on both databases."""
    big = 1_234_567_890_123_456_789
    store = await Store.open(database)
    await store.upsert_user(big, "Anne", "fr")
    await store.upsert_user(big, "Anne B", None)  # keeps the locale
    assert await store.user_locale(big) == "fr"
    await store.set_dm_closed(big, True)
    assert await store.dm_closed_users() == {big}
    # servers
    await store.set_guild_locale(big, "fr")
    assert await store.guild_locale(big) == "fr"
    settings = GuildSettings(
        guild_id=big, language="en", lobby_channels=(big - 1, big - 2), cancel_role_id=big - 3
    )
    await store.save_guild_settings(settings.model_copy(update={"bots_allowed": False}))
    got = await store.guild_settings(big)
    assert got == settings.model_copy(update={"bots_allowed": False})
    assert await store.guild_locale(big) == "fr"
    # lobbies
    lobby_id = await store.create_lobby(big, big - 9, "chroniques-de-liber", big, 2, "")
    await store.add_lobby_player(lobby_id, -7, "easy")
    await store.set_lobby_deck(lobby_id, big, "Mon deck", "g:c*2")
    await store.set_lobby_rules(lobby_id, 3, "hp=4", "fast")
    await store.set_lobby_message(lobby_id, big - 10)
    await store.set_lobby_host(lobby_id, -7)
    lobby = await store.latest_lobby_in(big - 9)
    assert lobby is not None and lobby == await store.open_lobby_in(big - 9)
    assert (lobby.players, lobby.bots, lobby.decks) == (
        (big, -7),
        ((-7, "easy"),),
        ((big, "Mon deck", "g:c*2"),),
    )
    assert (lobby.seats, lobby.options, lobby.clock, lobby.message_id, lobby.host_id) == (
        3, "hp=4", "fast", big - 10, -7
    )  # fmt: skip
    await store.remove_lobby_player(lobby_id, -7)
    await store.set_lobby_status(lobby_id, "cancelled")
    assert await store.open_lobby_in(big - 9) is None
    # decks
    deck, replaced = await store.save_deck(big, "chroniques-de-liber", "Mon Deck", "mon deck", "a")
    again, replaced_again = await store.save_deck(
        big, "chroniques-de-liber", "mon deck", "mon deck", "b"
    )
    assert (replaced, replaced_again, again.id) == (False, True, deck.id)
    assert await store.user_decks(big, "chroniques-de-liber") == [again]
    assert await store.user_deck(big, "chroniques-de-liber", "mon deck") == again
    assert await store.count_decks(big, "chroniques-de-liber") == 1
    await store.delete_deck(deck.id)
    assert await store.count_decks(big, "chroniques-de-liber") == 0
    # a match, its messages, its undo request, its end
    mid = await store.create_match(
        lobby_id=None, guild_id=big, channel_id=big - 20, game_id="between-battle",
        options="{}", seats=2, seed=2**63 + 5, seed_sha256="x", engine_version="1",
        snapshot="s0", players=[(big, "Anne"), (-7, "bot")], bot_levels={1: "easy"},
    )  # fmt: skip
    await store.move_match(mid, big - 21)
    await store.set_board_message(mid, big - 22, 3)
    await store.set_board_message(mid, big - 26, 2)  # older, posted late: not recorded
    await store.set_dm_notice_sent(mid, 0)
    await store.set_replaced(mid, 0)
    await store.set_seat_message(mid, 0, big - 23, big - 24, 1)
    await store.set_seat_message(mid, 0, big - 23, big - 25, 2)
    assert await store.seat_message(mid, 0) == (big - 23, big - 25, 2)
    row = await store.match(mid)
    assert row is not None
    assert (row.channel_id, row.lobby_channel_id, row.board_message_id, row.seed) == (
        big - 21, big - 20, big - 22, 2**63 + 5
    )  # fmt: skip
    assert row.board_version == 3
    assert (row.dm_notice_sent, row.replaced, row.bots, row.bot_levels) == (
        (0,), (0,), (0, 1), ((0, "normal"), (1, "easy"))
    )  # fmt: skip
    for accepted in ("", str(big)):
        await store.save_undo_request(
            mid, version=0, seat=0, user_id=big, asked=str(big), accepted=accepted,
            deadline=12.5, message_id=big - 26,
        )  # fmt: skip
    assert await store.undo_requests() == [(mid, 0, 0, big, str(big), str(big), 12.5, big - 26)]
    await store.drop_undo_request(mid)
    assert await store.undo_requests() == []
    await store.set_clocks(mid, {0: (0.0, 10.0, 0.0, True, False, 0)})
    assert [c[:2] for c in await store.due_clocks(6.0)] == [(mid, 0)]
    await store.commit_action(
        mid, expected_version=0, seat=0, action="!undo", events=[], snapshot="s1", status="active"
    )
    finished = ratings.FinishedMatch(
        mid,
        big,
        "between-battle",
        (ratings.SeatResult(big, 1), ratings.SeatResult(-7, 2, resigned=True, is_bot=True)),
    )
    await store.commit_action(
        mid, expected_version=1, seat=1, action="R", events=[{"kind": "x", "data": {"b": 1, "a": [2]}}],
        snapshot="s2", status="finished", result=('{"seats": [[0], [1]]}', "resign"),
        guild_id=big, game_id="between-battle", resigned_seat=1, finished=finished,
    )  # fmt: skip
    assert await store.result(mid) == ('{"seats": [[0], [1]]}', "resign")
    assert await store.undo_counts([mid, mid + 1]) == {mid: 1}
    assert json.loads((await store.match_actions(mid))[1][3]) == [
        {"kind": "x", "data": {"b": 1, "a": [2]}}
    ]
    assert await store.user_record(big, big) == [("between-battle", 1, 1, 1.0)]
    assert await store.user_record(big, None) == [("between-battle", 1, 1, 1.0)]
    assert [r[:2] for r in await store.user_ratings(big, "global")] == [("between-battle", "bots")]
    assert len(await store.rating_series(big, "between-battle", f"guild:{big}", "bots")) == 1
    recent = await store.recent_results(user_id=big, game_id="between-battle", guild_id=big)
    assert recent[0][:3] == (mid, "between-battle", "resign")
    assert recent[0][4] == [(big, "Anne", 1, False, False), (-7, "bot", 2, True, True)]
    board, total = await store.leaderboard(f"guild:{big}", "between-battle", "bots", 0, 5)
    assert total == 1 and board[0][:2] == (big, "Anne B")
    await store.close()


async def test_two_stores_migrating_one_sqlite_file_at_once_apply_each_version_once(
    tmp_path: Path,
) -> None:
    """Two processes starting at once on an old file: both read version 9,
    and the second finds version 10 applied once it holds the write lock (it
    used to fail with "duplicate column name")."""
    import asyncio

    path = tmp_path / "race.db"
    await (await Store.open(path, upto=9)).close()
    a, b = await Store.open(path, upto=9), await Store.open(path, upto=9)
    try:
        versions = await asyncio.gather(a.migrate(), b.migrate())
        assert versions[0] == versions[1] == await a.schema_version() >= 10
    finally:
        await a.close()
        await b.close()
