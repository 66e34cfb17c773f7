"""Golden playouts: fixed seeds played by a fixed-seed uniform random chooser
must give exactly the recorded games (the notations played, every legal list
offered, the events and the final state). The hashes were recorded from the
engine before its speed work: any change of behaviour — an action offered in
another order, a different event, another final state — shows here."""

from __future__ import annotations

import hashlib
import json

import pytest

from engine import rng
from engine.bots import bot_rng, make_bot
from engine.games.via_belli import GAME

# (options, seats, seed) -> sha256 of the playout's transcript
GOLDEN: dict[tuple[str, int, int], str] = {
    ("table=standard", 2, 1): "4eb5a32885e702f20ad73642621a95c746538184e5ca0bb8e53284a430b8c6c9",
    ("table=standard", 2, 2): "2ebde11ead6a9bb75b93f59b5a936bc6023a3e63b7c8beecb671912323156606",
    ("table=gueridon", 2, 3): "0811a9fba0edc5cac8b273d62423cad979e006c9b0eeed8fab81fcdf0b8c467e",
    ("table=gueridon", 3, 4): "f5e7d51ee6578b8d37cecfc96e26b8305584539dbe0d3f4f13b4774a514b54e2",
    (
        "table=table_basse cup_layout=random cups=3 dog_chain=true",
        2,
        5,
    ): "92530f179d9900fb3c571714b0664b229981b8c65f3b51b699a151a3187f3b47",
    ("table=carre_4j", 4, 6): "ee3a58361b624b364f4496433e2d43912213752cbe6be47b0741ec290f280519",
    (
        "table=salle_a_manger",
        3,
        7,
    ): "f5abc58d64d6a1b4bc42ddfe8f4d1f2f8940e7701bf439abfbd644223dab0585",
    (
        "table=gueridon reveal_choice=highest-def castle_tie=falls attack_cap=1",
        4,
        8,
    ): "4aded03e3f0e04cb6b4a6107a5bb2af5aea32aee4355f82af11e738ec4e164b8",
    (
        "table=standard must_spend_pa=false self_cut=true recall_face_down=true",
        2,
        9,
    ): "a6b61d1912c5256f99a02a62e27e78891d58f698c5a86c6e37fb722fc485f9bb",
    ("table=standard", 3, 10): "2dc85ec7cbe96eb3ac2a2d7549958358d079c1ffa95f0a3f3e971e356e1591b4",
    (
        "table=carre_4j cups=4 inns=1 outposts=2 eliminated_castle=removed",
        4,
        11,
    ): "2a156fb8a7b1579641360d8b30b5677937814069d6742dc85a49f0d05053cb78",
    (
        "table=salle_a_manger",
        2,
        12,
    ): "ceda9fa0ffe5ace8b1d74d6c0cd6163a75657720f8b0d7db41059b7df21d0287",
}

# (options, levels by seat, seed) -> sha256 of the match's choices and final state
BOT_GOLDEN: dict[tuple[str, tuple[str, ...], int], str] = {
    (
        "table=gueridon",
        ("normal", "easy"),
        21,
    ): "492c8e8164d95f91887eb7688008311991e5898d00df98604b84b10130885760",
    (
        "table=standard",
        ("easy", "normal"),
        22,
    ): "723d7d1ba3cd2ea6d437c489f5dda4760928610b793bf876e654fb9ac7531050",
    (
        "table=gueridon",
        ("normal", "normal", "easy"),
        23,
    ): "826bd9e6651c7053430c81a3e2b7f826776b992aa11c53067bd839b238c826ef",
}

CASES = [
    ("table=standard", 2, 1),
    ("table=standard", 2, 2),
    ("table=gueridon", 2, 3),
    ("table=gueridon", 3, 4),
    ("table=table_basse cup_layout=random cups=3 dog_chain=true", 2, 5),
    ("table=carre_4j", 4, 6),
    ("table=salle_a_manger", 3, 7),
    ("table=gueridon reveal_choice=highest-def castle_tie=falls attack_cap=1", 4, 8),
    ("table=standard must_spend_pa=false self_cut=true recall_face_down=true", 2, 9),
    ("table=standard", 3, 10),
    ("table=carre_4j cups=4 inns=1 outposts=2 eliminated_castle=removed", 4, 11),
    ("table=salle_a_manger", 2, 12),
]

BOT_CASES = [
    ("table=gueridon", ("normal", "easy"), 21),
    ("table=standard", ("easy", "normal"), 22),
    ("table=gueridon", ("normal", "normal", "easy"), 23),
]


def transcript_hash(options: str, seats: int, seed: int) -> str:
    """Play one game with a uniform random chooser; hash everything it showed."""
    state = GAME.setup(GAME.options(options), seats, seed)
    chooser = rng.seed_state(seed, "golden")
    h = hashlib.sha256()
    h.update(json.dumps([e.to_json() for e in GAME.setup_events(state)]).encode())
    steps = 0
    while True:
        pending = GAME.pending(state)
        if not pending:
            break
        seat = min(pending)
        legal = GAME.legal_actions(state, seat)
        h.update(("|".join(GAME.format_action(a) for a in legal) + "\n").encode())
        index, chooser = rng.randbelow(chooser, len(legal))
        h.update(f"{seat}:{GAME.format_action(legal[index])}\n".encode())
        state, events = GAME.apply(state, seat, legal[index])
        h.update(json.dumps([e.to_json() for e in events]).encode())
        steps += 1
        assert steps < GAME.max_actions
    h.update(json.dumps(GAME.encode_state(state), sort_keys=True).encode())
    for seat in range(seats):
        h.update(repr(GAME.view(state, seat)).encode())
    return h.hexdigest()


def bot_transcript_hash(options: str, levels: tuple[str, ...], seed: int) -> str:
    """A match between bot levels (``normal`` is deterministic for a seed):
    the hash of every choice and the final state."""
    bots = [make_bot(GAME.info.id, level) for level in levels]
    rngs = [bot_rng(seed, seat) for seat in range(len(levels))]
    state = GAME.setup(GAME.options(options), len(levels), seed)
    h = hashlib.sha256()
    steps = 0
    while True:
        pending = GAME.pending(state)
        if not pending:
            break
        seat = min(pending)
        legal = GAME.legal_actions(state, seat)
        action, rngs[seat] = bots[seat].choose(GAME.view(state, seat), legal, rngs[seat])
        h.update(f"{seat}:{GAME.format_action(action)}\n".encode())
        state, _ = GAME.apply(state, seat, action)
        steps += 1
        assert steps < GAME.max_actions
    h.update(json.dumps(GAME.encode_state(state), sort_keys=True).encode())
    return h.hexdigest()


@pytest.mark.parametrize(("options", "seats", "seed"), CASES)
def test_golden_playout(options: str, seats: int, seed: int) -> None:
    assert transcript_hash(options, seats, seed) == GOLDEN[(options, seats, seed)]


@pytest.mark.parametrize(("options", "levels", "seed"), BOT_CASES)
def test_golden_bot_match(options: str, levels: tuple[str, ...], seed: int) -> None:
    assert bot_transcript_hash(options, levels, seed) == BOT_GOLDEN[(options, levels, seed)]


if __name__ == "__main__":  # to record: PYTHONPATH=. python -m tests.games.test_via_belli_golden
    for case in CASES:
        print(f"    {case!r}: {transcript_hash(*case)!r},")
    print()
    for bot_case in BOT_CASES:
        print(f"    {bot_case!r}: {bot_transcript_hash(*bot_case)!r},")
