"""The engine's shared parts: generator, codec, events, options, match facade."""

from __future__ import annotations

import ast
import hashlib
import json
import pathlib
from dataclasses import dataclass
from typing import Literal

import pytest

from bot.i18n import game_name, game_text
from engine import GAME_IDS, GAMES, Match, MatchRecord, rng
from engine.codec import dumps, from_jsonable, loads, to_jsonable
from engine.core import Event, Outcome, evolve, parse_options_text
from engine.errors import (
    BadNotation,
    BadOptions,
    BadRecord,
    GameOver,
    IllegalAction,
    NotYourTurn,
    RulesError,
    StaleAction,
)
from engine.text import Msg

ROOT = pathlib.Path(__file__).resolve().parents[1]


# ---- generator -------------------------------------------------------------


def test_splitmix64_known_values() -> None:
    # Reference outputs of SplitMix64 from state 0 (Vigna's reference code).
    state = 0
    out = []
    for _ in range(3):
        value, state = rng.next_u64(state)
        out.append(value)
    assert out == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]


def test_randbelow_is_uniform_enough_and_in_range() -> None:
    state = rng.seed_state(42)
    counts = [0] * 6
    for _ in range(6000):
        value, state = rng.randbelow(state, 6)
        counts[value] += 1
    assert all(900 < c < 1100 for c in counts)
    with pytest.raises(ValueError):
        rng.randbelow(state, 0)


def test_shuffle_is_a_permutation_and_deterministic() -> None:
    items = tuple(range(20))
    a, s1 = rng.shuffle(7, items)
    b, s2 = rng.shuffle(7, items)
    assert a == b and s1 == s2
    assert sorted(a) == list(items) and a != items


def test_seed_state_spreads_small_seeds() -> None:
    assert len({rng.seed_state(i) for i in range(1000)}) == 1000
    assert rng.seed_state(1, "a") != rng.seed_state(1, "b")


def test_roll_and_stream() -> None:
    stream = rng.Stream(rng.seed_state(3))
    faces = {stream.roll() for _ in range(200)}
    assert faces == {1, 2, 3, 4, 5, 6}


def test_rules_code_never_imports_random() -> None:
    for path in (ROOT / "engine").rglob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            for name in names:
                root = name.split(".")[0]
                assert root not in {"random", "discord", "PIL", "aiosqlite", "sqlite3"}, (
                    f"{path.name} imports {name}"
                )


# ---- codec -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Inner:
    name: str
    flag: bool = False


@dataclass(frozen=True, slots=True)
class Outer:
    items: tuple[Inner, ...]
    pair: tuple[int, str]
    maybe: int | None
    tags: frozenset[str]
    mode: Literal["a", "b"]
    ratio: float


def test_codec_round_trip() -> None:
    value = Outer((Inner("x"), Inner("y", True)), (1, "z"), None, frozenset({"b", "a"}), "b", 1.5)
    data = to_jsonable(value)
    assert data["tags"] == ["a", "b"]
    assert from_jsonable(Outer, json.loads(json.dumps(data))) == value
    assert loads(Outer, dumps(value)) == value


@pytest.mark.parametrize(
    "bad",
    [
        {"items": [], "pair": [1], "maybe": None, "tags": [], "mode": "a", "ratio": 1.0},
        {"items": [], "pair": [1, "z"], "maybe": "1", "tags": [], "mode": "a", "ratio": 1.0},
        {"items": [], "pair": [1, "z"], "maybe": None, "tags": [], "mode": "c", "ratio": 1.0},
        {"items": [], "pair": [1, "z"], "maybe": None, "tags": [], "mode": "a"},
        {"items": [], "pair": [1, "z"], "maybe": None, "tags": [], "mode": "a", "x": 1},
    ],
)
def test_codec_refuses_bad_data(bad: dict[str, object]) -> None:
    with pytest.raises(BadRecord):
        from_jsonable(Outer, bad)


def test_codec_fills_defaults_of_fields_older_saves_lack() -> None:
    # a field added later with a default (Inner.flag) reads as its default ...
    assert from_jsonable(Inner, {"name": "x"}) == Inner("x", False)
    # ... a field without one is still required
    with pytest.raises(BadRecord, match="name"):
        from_jsonable(Inner, {"flag": True})


def test_evolve_matches_replace_and_shares_fields() -> None:
    value = Outer((Inner("x"),), (1, "z"), 3, frozenset(), "a", 0.0)
    changed = evolve(value, maybe=4)
    assert changed == Outer((Inner("x"),), (1, "z"), 4, frozenset(), "a", 0.0)
    assert changed.items is value.items
    assert value.maybe == 3
    with pytest.raises(TypeError):
        evolve(value, nope=1)


# ---- errors, events, outcomes, options -------------------------------------


def test_error_hierarchy() -> None:
    for cls in (IllegalAction, NotYourTurn, BadNotation, BadOptions, StaleAction, GameOver):
        assert issubclass(cls, RulesError) and issubclass(cls, ValueError)
    err = IllegalAction(Msg.of("core-not-your-turn"), card="7")
    assert err.msg == Msg.of("core-not-your-turn") and err.params == {"card": "7"}
    assert err.code == "illegal" and str(err) == "core-not-your-turn"


def test_event_visibility() -> None:
    public = Event("play", {"card": "Pi7"})
    secret = Event("draw", {"cards": ["Pi7"]}, to=frozenset({1}), redacted={"count": 1})
    silent = Event("peek", {"cards": ["Pi7"]}, to=frozenset({0}))
    assert public.for_seat(None) is public
    assert secret.for_seat(1) is secret
    assert secret.for_seat(0) == Event("draw", {"count": 1})
    assert secret.for_seat(None) == Event("draw", {"count": 1})
    assert silent.for_seat(1) is None
    assert Event.from_json(json.loads(json.dumps(secret.to_json()))) == secret


def test_outcome_places() -> None:
    out = Outcome(((2,), (0, 3), (1,)), "x")
    assert out.winner == 2
    assert [out.place(s) for s in range(4)] == [2, 4, 1, 2]
    assert Outcome(((0, 1),), "tie").winner is None


def test_options_text() -> None:
    assert parse_options_text("a=1 b=x, c=y;d=z") == {"a": "1", "b": "x", "c": "y", "d": "z"}
    with pytest.raises(BadOptions):
        parse_options_text("nonsense")
    game = GAMES["between-battle"]
    with pytest.raises(BadOptions) as info:
        game.options("colour=blue")
    assert info.value.msg.key == "core-unknown-option"
    assert "Valid keys" in game_text("en", info.value.msg) and "between_rule" in str(info.value)
    with pytest.raises(BadOptions):
        game.options("hp=0")
    opts = game.options("hp=12 between-rule=inclusive")
    assert game.options_text(opts) == "hp=12 between_rule=inclusive"
    assert game.options(game.options_text(opts)) == opts


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_quick_options_give_a_short_complete_game(game_id: str) -> None:
    """``Game.quick_options`` (what tests and smoke runs play) are valid options
    (in ``/lobby create`` text, written back the same) and a random game with
    them ends, within the game's bound."""
    game = GAMES[game_id]
    options = game.options(game.quick_options)
    assert game.options(game.options_text(options)) == options
    state = game.setup(options, game.info.min_seats, 1)
    chooser = rng.seed_state(1, "quick")
    for _ in range(game.max_actions):
        pending = game.pending(state)
        if not pending:
            break
        seat = min(pending)
        action, chooser = rng.choice(chooser, list(game.legal_actions(state, seat)))
        state, _ = game.apply(state, seat, action)
    assert game.outcome(state) is not None


def test_registry_ids_are_the_fixed_ones() -> None:
    assert set(GAMES) <= set(GAME_IDS)
    for game_id, game in GAMES.items():
        assert game.info.id == game_id
        assert game_name("en", game_id) and game_name("fr", game_id)
        assert 1 <= game.info.min_seats <= game.info.max_seats


# ---- match facade ------------------------------------------------------------


def _play_some(match: Match, n: int) -> None:
    chooser = 99
    for _ in range(n):
        pending = sorted(match.pending())
        if not pending:
            return
        seat = pending[0]
        legal = match.legal_notations(seat)
        index, chooser = rng.randbelow(chooser, len(legal))
        match.play(seat, legal[index])


def test_match_versions_and_stale_actions() -> None:
    match = Match(GAMES["between-battle"], "characters=pirate,ninja", 2, seed=5)
    assert match.version == 0
    seat = next(iter(match.pending()))
    move = match.legal_notations(seat)[0]
    match.play(seat, move, expected_version=0)
    assert match.version == 1
    seat = next(iter(match.pending()))
    with pytest.raises(StaleAction):
        match.play(seat, match.legal_notations(seat)[0], expected_version=0)
    other = 1 - seat
    with pytest.raises(NotYourTurn):
        match.play(other, "D")
    assert match.version == 1


def test_seed_commitment_and_reveal() -> None:
    match = Match(GAMES["between-battle"], "characters=pirate,ninja", 2, seed=123456789)
    assert match.seed_commitment == hashlib.sha256(b"123456789").hexdigest()
    assert match.revealed_seed() is None
    _play_some(match, 5000)
    assert match.is_over
    assert match.revealed_seed() == 123456789
    with pytest.raises(GameOver):
        match.play(0, "D")


def test_record_replay_and_snapshot() -> None:
    match = Match(GAMES["between-battle"], "hp=6", 3, seed=77)
    _play_some(match, 5000)
    record = match.record()
    text = record.dumps()
    back = MatchRecord.loads(text)
    assert back == record
    assert Match.replay(back).state == match.state
    half = Match.replay(back, upto=10)
    assert half.version == 10
    restored = Match.restore(json.loads(json.dumps(match.snapshot())))
    assert restored.state == match.state and restored.version == match.version
    # events are filtered per seat
    for seat in range(3):
        for item in match.events(seat):
            assert item.event.to is None or seat in item.event.to


def test_record_refuses_a_wrong_seed() -> None:
    match = Match(GAMES["between-battle"], "", 2, seed=1)
    data = match.record().to_json()
    data["seed"] = "2"
    with pytest.raises(BadRecord):
        MatchRecord.from_json(data)
    with pytest.raises(BadRecord):
        MatchRecord.from_json({"format": 1})
