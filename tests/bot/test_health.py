"""``python -m bot.health`` (bot/health.py): a process is healthy when every
shard of its settings beat in the database lately, on SQLite and PostgreSQL
(the compose file's health check, docs/deployment.md)."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from bot import health
from bot.shards import ShardSet
from bot.store import Store


def _settings(monkeypatch: pytest.MonkeyPatch, database: str, count: str, ids: str) -> None:
    key = "DATABASE_URL" if database.startswith("postgresql://") else "DATABASE_PATH"
    monkeypatch.setenv(key, database)
    monkeypatch.setenv("SHARD_COUNT", count)
    monkeypatch.setenv("SHARD_IDS", ids)


async def test_each_shard_of_the_process_must_have_beaten_lately(
    database: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    store = await Store.open(database)
    now = time.time()
    await store.heartbeat(now - 5, ShardSet(3, frozenset({1})))
    await store.heartbeat(now - 600, ShardSet(3, frozenset({2})))
    await store.close()

    _settings(monkeypatch, database, "3", "1")
    assert await asyncio.to_thread(health.main, []) == 0
    assert "healthy: shards 1/3" in capsys.readouterr().out

    _settings(monkeypatch, database, "3", "1-2")
    assert await asyncio.to_thread(health.main, []) == 1
    out = capsys.readouterr().out
    assert "unhealthy" in out and "2 (600 s ago)" in out and "1 (" not in out
    assert await asyncio.to_thread(health.main, ["--max-age", "900"]) == 0
    capsys.readouterr()

    _settings(monkeypatch, database, "3", "0")
    assert await asyncio.to_thread(health.main, []) == 1
    assert "0 (never)" in capsys.readouterr().out

    _settings(monkeypatch, database, "2", "1")  # another shard layout: its own beats
    assert await asyncio.to_thread(health.main, []) == 1
    assert "1 (never)" in capsys.readouterr().out


def test_no_database_is_unhealthy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _settings(monkeypatch, str(tmp_path / "none.db"), "1", "0")
    assert health.main([]) == 1
    assert "cannot read the heartbeats" in capsys.readouterr().out
