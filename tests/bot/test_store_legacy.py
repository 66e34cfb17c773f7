"""A database written by the release before the msgspec state codec still
loads: ``tests/data/legacy_store.db`` (made by ``tests/data/make_legacy_db.py``
on that release) holds matches of every game, mid-game and finished, with
their snapshots (Via Belli's in its compact schema-1 format) and events.

Each test works on a copy: every match is loaded (active ones by ``resume``,
the others on demand), its state must equal the state its record replays to,
its logged events the replayed ones; the active matches are then played to the
end and re-saved in the current format, and a restart reads them back.

The ``after-merge`` runs put in the registry Via Belli as it is once it drops
its own codec (schema 2 on the shared codec, schema 1 read by
``engine.codec_legacy.read_via_belli_v1``), the change the lead makes when the
Via Belli package is merged."""

from __future__ import annotations

import json
import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from types import MappingProxyType
from typing import Any

import pytest

import engine
from bot.service import HostService, LiveMatch
from bot.store import Store
from engine import Match, rng
from engine.codec_legacy import read_via_belli_v1
from engine.core import Game

LEGACY_DB = Path(__file__).parent.parent / "data" / "legacy_store.db"

EXPECTED = {  # match id -> (game, status), as the script wrote them
    1: ("between-battle", "finished"),
    2: ("between-battle", "active"),
    3: ("between-battle", "cancelled"),
    4: ("belle-position", "finished"),
    5: ("belle-position", "active"),
    6: ("via-belli", "finished"),
    7: ("via-belli", "active"),
    8: ("via-belli", "active"),
}


def _via_belli_after_merge() -> Game[Any, Any, Any]:
    current = type(engine.GAMES["via-belli"])

    class ViaBelliOnTheSharedCodec(current):  # type: ignore[misc,valid-type]
        schema_version = 2
        legacy_readers = MappingProxyType({1: read_via_belli_v1})
        encode_state = Game.encode_state
        decode_state = Game.decode_state

    game: Game[Any, Any, Any] = ViaBelliOnTheSharedCodec()
    return game


@pytest.fixture(params=["as-is", "after-merge"])
def registry(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    if request.param == "after-merge":
        monkeypatch.setitem(engine.GAMES, "via-belli", _via_belli_after_merge())
    yield request.param


def _rows(path: Path) -> dict[int, tuple[str, str, str, int]]:
    with sqlite3.connect(path) as db:
        rows = db.execute("SELECT id, game_id, status, snapshot, version FROM matches").fetchall()
    return {int(r[0]): (str(r[1]), str(r[2]), str(r[3]), int(r[4])) for r in rows}


def _check_against_replay(live: LiveMatch) -> None:
    replayed = Match.replay(live.match.record())
    assert live.match.state == replayed.state
    assert live.match.version == replayed.version == len(live.match.actions)
    logged = [(e.version, e.event.to_json()) for e in live.match.log]
    assert logged == [(e.version, e.event.to_json()) for e in replayed.log if e.version > 0]


async def _play_to_end(svc: HostService, live: LiveMatch) -> None:
    chooser = rng.seed_state(live.id, "legacy-test")
    while not live.match.is_over:
        seat = min(live.match.pending())
        moves = [live.game.format_action(a) for a in live.match.legal_actions(seat)]
        index, chooser = rng.randbelow(chooser, len(moves))
        await svc.play(live.id, live.user_of(seat), moves[index], seat=seat)


async def test_old_database_loads_plays_on_and_resaves(tmp_path: Path, registry: str) -> None:
    path = tmp_path / "old.db"
    shutil.copy(LEGACY_DB, path)
    before = _rows(path)
    assert {k: (g, s) for k, (g, s, _, _) in before.items()} == EXPECTED
    for game_id, _, snapshot, _ in before.values():
        assert json.loads(snapshot)["schema"] == 1  # all written by the old release
        if game_id == "via-belli":  # the compact format: the units are arrays
            assert all(isinstance(u, list) for u in json.loads(snapshot)["state"]["units"])

    store = await Store.open(path)
    svc = HostService(store, seed_source=lambda: 7, bot_clock=None)
    resumed = await svc.resume()
    assert sorted(live.id for live in resumed) == [2, 5, 7, 8]
    for match_id, (game_id, status) in EXPECTED.items():
        live = await svc.get_match(match_id)
        assert live.game_id == game_id
        assert live.match.is_over == (status == "finished")
        _check_against_replay(live)
        if game_id == "via-belli" and registry == "after-merge":
            assert live.game.schema_version == 2
    for live in resumed:
        await _play_to_end(svc, live)
        assert live.match.is_over
    await store.close()

    after = _rows(path)
    for match_id, (game_id, status, snapshot, version) in after.items():
        game = engine.GAMES[game_id]
        saved = json.loads(snapshot)
        if match_id in (2, 5, 7, 8):  # re-saved by the new code, in the current schema
            assert status == "finished" and version > before[match_id][3]
            assert saved["schema"] == game.schema_version
            assert snapshot.encode() == game.dump_state(game.load_state(snapshot))
        else:  # untouched
            assert (status, snapshot, version) == before[match_id][1:]

    # a restart reads the new snapshots (and the old ones) again
    store = await Store.open(path)
    svc = HostService(store, seed_source=lambda: 7, bot_clock=None)
    assert await svc.resume() == []
    for match_id in EXPECTED:
        live = await svc.get_match(match_id)
        _check_against_replay(live)
        assert live.match.is_over == (EXPECTED[match_id][1] != "cancelled")
    await store.close()


def test_the_committed_database_is_the_scripts() -> None:
    """The database holds what the script says: schema 4 of the store, a
    resignation and its rows, events on every action row."""
    with sqlite3.connect(LEGACY_DB) as db:
        assert db.execute("SELECT MAX(version) FROM schema_version").fetchone() == (4,)
        assert (
            db.execute("SELECT COUNT(*) FROM match_actions WHERE action = '!resign'").fetchone()[0]
            == 1
        )
        counts = dict(db.execute("SELECT match_id, COUNT(*) FROM match_actions GROUP BY match_id"))
        versions = dict(db.execute("SELECT id, version FROM matches"))
        assert counts == versions
        empty = db.execute("SELECT COUNT(*) FROM match_actions WHERE events = '[]'").fetchone()[0]
        assert empty < sum(counts.values())
