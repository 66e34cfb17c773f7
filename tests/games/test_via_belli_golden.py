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
    ("table=standard", 2, 1): "984853c442b80b1baed19afd0c5e51f9233dc51a1842012627e4e21f256eaae7",
    ("table=standard", 2, 2): "7889488ce4f4d10b44f36236c0043d0c4aea9273b52110b0062e81eb44a4fe54",
    ("table=gueridon", 2, 3): "5c1784f99dfc73f6022f5a9d75ecfe88abc487b9f40b83b36f222adafc5304c0",
    ("table=gueridon", 3, 4): "5e6b20ee4e4715c5769ebf10c44f08d694beefed3e7851ef323b2d6a5a6f68b6",
    (
        "table=table_basse cup_layout=random cups=3 dog_chain=true",
        2,
        5,
    ): "7c651ca52a5ab1f5221fa58b4979efa59a104bb06327cd010cc256a8232f05c5",
    ("table=carre_4j", 4, 6): "557574a695b4c365f7f10553fbc5f992497f01de264335c71b8bfb75aacb6d73",
    (
        "table=salle_a_manger",
        3,
        7,
    ): "475a6f54abdf6a99b18dab9de3ac5d7c17e4ccb48bd306aa93b797fe7fffd63e",
    (
        "table=gueridon reveal_choice=highest-def castle_tie=falls attack_cap=1",
        4,
        8,
    ): "b2fac6067c72d7b99ca55b34081f4c0233c1c67df4dc0ac326ee11c580e0c98b",
    (
        "table=standard must_spend_pa=false self_cut=true recall_face_down=true",
        2,
        9,
    ): "972ac421e435245f32c1de7ce8ac3e195b2fbbb79fb824976e8d91796bc6bf96",
    ("table=standard", 3, 10): "ffdfe985f0dc2135900299c31bfb9266f7011be561a679cd944aff439c1de710",
    (
        "table=carre_4j cups=4 inns=1 outposts=2 eliminated_castle=removed",
        4,
        11,
    ): "36731ab956bad8b9b4f092b868998e46f71af1af528b63087f1399d6f43d3f82",
    (
        "table=salle_a_manger",
        2,
        12,
    ): "ab0f559ade90e6437a39249cb12c06d6b76096cfeea377a86fced2ed686cfaf4",
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
