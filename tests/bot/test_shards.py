"""Which process owns which server: Discord's shard formula and its SQL twin."""

from __future__ import annotations

import sqlite3

import pytest

from bot.settings import Settings
from bot.shards import ShardSet, parse_ids, shard_of

GUILDS = [None, 81384788765712384, 41771983423143937, 1 << 40, (1 << 62) + 12345, 7 << 22]


def test_the_formula_of_discord_s_documentation() -> None:
    # "shard_id = (guild_id >> 22) % num_shards"; direct messages go to shard 0
    assert shard_of(81384788765712384, 2) == (81384788765712384 >> 22) % 2
    assert shard_of(7 << 22, 4) == 3
    assert shard_of(None, 4) == 0
    assert shard_of(7 << 22, 1) == 0


@pytest.mark.parametrize(
    "text,ids", [("0", {0}), ("0,2", {0, 2}), ("0-2", {0, 1, 2}), ("0-1, 4", {0, 1, 4})]
)
def test_shard_ids_parse(text: str, ids: set[int]) -> None:
    assert parse_ids(text) == ids


@pytest.mark.parametrize("text", ["", "2-1", "a"])
def test_bad_shard_ids_are_refused(text: str) -> None:
    with pytest.raises(ValueError):
        parse_ids(text)


@pytest.mark.parametrize(
    "shards",
    [
        ShardSet.every(1),
        ShardSet.every(3),
        ShardSet(3, frozenset({0})),
        ShardSet(3, frozenset({1, 2})),
        ShardSet(4, frozenset({2})),
    ],
)
def test_the_sql_predicate_agrees_with_owns(shards: ShardSet) -> None:
    db = sqlite3.connect(":memory:")
    db.execute("CREATE TABLE m (guild_id INTEGER)")
    db.executemany("INSERT INTO m VALUES (?)", [(g,) for g in GUILDS])
    where, params = shards.sql("guild_id")
    got = [g for (g,) in db.execute(f"SELECT guild_id FROM m WHERE {where}", params)]
    assert sorted(got, key=str) == sorted((g for g in GUILDS if shards.owns(g)), key=str)


def test_every_guild_has_exactly_one_owner_among_the_processes() -> None:
    processes = [
        ShardSet(3, frozenset({0})),
        ShardSet(3, frozenset({1})),
        ShardSet(3, frozenset({2})),
    ]
    for guild in GUILDS:
        assert sum(p.owns(guild) for p in processes) == 1


def test_settings_default_to_one_process_with_every_shard() -> None:
    settings = Settings(discord_token="x")
    assert settings.shards == ShardSet.every(1)
    assert settings.syncs_commands
    assert settings.database == "gueridon.db"


def test_settings_of_a_shard_process() -> None:
    settings = Settings(
        discord_token="x", shard_count=3, shard_ids="1-2", database_url="postgresql://g@localhost/g"
    )
    assert settings.shards == ShardSet(3, frozenset({1, 2}))
    assert not settings.syncs_commands  # shard 0's process syncs the commands
    assert settings.database == "postgresql://g@localhost/g"


@pytest.mark.parametrize(
    "fields",
    [{"shard_count": 2, "shard_ids": "2"}, {"shard_ids": "0"}, {"database_url": "mysql://x"}],
)
def test_settings_that_cannot_work_are_refused(fields: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        Settings(discord_token="x", **fields)
