"""The msgspec state codec (engine/codec.py) and the readers of older formats
(engine/codec_legacy.py), on states of random games of every game."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

import pytest

from engine import GAMES, Match, MatchRecord, rng
from engine.codec import convert, decode, encode, to_builtins, to_jsonable
from engine.codec_legacy import read_via_belli_v1
from engine.core import Game
from engine.errors import BadRecord

SEEDS = (3, 8)
V1_SNAPSHOTS = Path(__file__).parent / "data" / "via_belli_v1_snapshots.json"


@cache
def random_states(game_id: str) -> tuple[Any, ...]:
    """Every state of a few random games (all seat counts, first and last
    conformance option sets), from the setup to the end."""
    game = GAMES[game_id]
    out: list[Any] = []
    options = sorted({game.conformance_options[0], game.conformance_options[-1]})
    for seats in range(game.info.min_seats, game.info.max_seats + 1):
        for k, seed in enumerate(SEEDS):
            text = options[k % len(options)]
            try:
                state = game.setup(game.options(text), seats, seed)
            except BadRecord:
                continue
            except ValueError:  # an option set that does not fit this seat count
                continue
            chooser = rng.seed_state(seed, "codec-test")
            out.append(state)
            while pending := game.pending(state):
                seat = min(pending)
                legal = game.legal_actions(state, seat)
                index, chooser = rng.randbelow(chooser, len(legal))
                state, _ = game.apply(state, seat, legal[index])
                out.append(state)
    assert len(out) > 50
    return tuple(out)


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_states_round_trip_exactly(game_id: str) -> None:
    """Every state of random games survives the codec, as bytes and as Python
    data, equal and with equal field types (the 64-bit generator state too)."""
    game = GAMES[game_id]
    tp = game.state_type
    for state in random_states(game_id):
        data = encode(state)
        back = decode(tp, data)
        assert back == state
        assert repr(back) == repr(state)  # same values, tuples stay tuples
        assert back.rng == state.rng
        assert convert(tp, json.loads(data)) == state
        assert convert(tp, to_builtins(state)) == state
        assert encode(back) == data


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_the_json_is_the_former_generic_codecs(game_id: str) -> None:
    """The msgspec codec writes the JSON the reflective codec wrote (the old
    snapshots of Between Battle and Belle Position are in today's format,
    hence their unchanged schema 1); so does ``to_builtins``."""
    for state in random_states(game_id)[::5]:
        old = to_jsonable(state)
        assert json.loads(encode(state)) == old
        assert json.loads(json.dumps(to_builtins(state))) == old


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_dump_and_load_state(game_id: str) -> None:
    """``dump_state`` / ``load_state`` (bytes or text) and ``encode_state`` /
    ``decode_state`` (parsed JSON) agree and round-trip."""
    game = GAMES[game_id]
    for state in random_states(game_id)[::9]:
        data = game.dump_state(state)
        assert game.load_state(data) == state
        assert game.load_state(data.decode()) == state
        assert json.loads(data) == json.loads(json.dumps(game.encode_state(state)))
        assert game.decode_state(json.loads(data)) == state


@pytest.mark.parametrize("game_id", ["between-battle", "belle-position"])
def test_foreign_or_damaged_saves_are_refused(game_id: str) -> None:
    game = GAMES[game_id]
    state = random_states(game_id)[7]
    saved = json.loads(game.dump_state(state))
    bad: list[Any] = [
        {**saved, "game": "via-belli"},
        {**saved, "schema": 99},
        {**saved, "schema": "1"},
        {**saved, "state": {**saved["state"], "phase": "lunch"}},
        {**saved, "state": {**saved["state"], "rng": "12"}},
        {k: v for k, v in saved.items() if k != "state"},
    ]
    for data in bad:
        with pytest.raises(BadRecord):
            game.decode_state(data)
        with pytest.raises(BadRecord):
            game.load_state(json.dumps(data))
    for text in (b"", b"[1]", b"{", json.dumps({**saved, "state": [1]}).encode()):
        with pytest.raises(BadRecord):
            game.load_state(text)


def _via_belli_after_merge() -> Game[Any, Any, Any]:
    """Via Belli as it is once it drops its own codec (the change the lead
    makes in the Via Belli package): the shared msgspec codec under schema 2,
    the compact format of schema 1 read by the legacy reader."""
    current = type(GAMES["via-belli"])

    class ViaBelliOnTheSharedCodec(current):  # type: ignore[misc,valid-type]
        schema_version = 2
        legacy_readers = MappingProxyType({1: read_via_belli_v1})
        encode_state = Game.encode_state
        decode_state = Game.decode_state

    game: Game[Any, Any, Any] = ViaBelliOnTheSharedCodec()
    return game


def test_via_belli_on_the_shared_codec_reads_its_old_compact_snapshots() -> None:
    """Snapshots in the compact schema-1 format, written by the release before
    (tests/data/make_via_belli_v1.py), read as the states their records replay
    to; new saves are schema 2 in the shared format."""
    new_game = _via_belli_after_merge()
    cases = json.loads(V1_SNAPSHOTS.read_text())
    assert sum(len(case["snapshots"]) for case in cases) > 30
    for case in cases:
        record = MatchRecord.from_json(case["record"])
        match = Match.replay(record, upto=0)
        for version, compact in case["snapshots"]:
            assert compact["schema"] == 1 and isinstance(compact["state"]["units"], list)
            for seat, text in record.actions[match.version : version]:
                match.play(seat, text)
            state = match.state
            assert new_game.decode_state(compact) == state
            assert new_game.load_state(json.dumps(compact)) == state
            saved = new_game.dump_state(state)
            assert json.loads(saved)["schema"] == 2
            assert json.loads(saved)["state"] == to_jsonable(state)
            assert new_game.load_state(saved) == state
            assert new_game.decode_state(new_game.encode_state(state)) == state
    compact = cases[0]["snapshots"][-1][1]
    with pytest.raises(BadRecord):
        new_game.decode_state({**compact, "schema": 3})
    broken = json.loads(json.dumps(compact))
    broken["state"]["units"] = [["x"]]
    with pytest.raises(BadRecord):
        new_game.decode_state(broken)
    with pytest.raises(BadRecord):
        new_game.load_state(json.dumps(broken))
    with pytest.raises(BadRecord):
        read_via_belli_v1({"phase": "nap"})


def test_a_game_without_a_legacy_reader_refuses_older_schemas() -> None:
    game = GAMES["between-battle"]
    saved = game.encode_state(random_states("between-battle")[0])
    with pytest.raises(BadRecord, match="schema 0"):
        game.decode_state({**saved, "schema": 0})
