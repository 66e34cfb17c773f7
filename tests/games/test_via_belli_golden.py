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
    ("table=standard", 2, 1): "89137bbdc8f49e7e73e6770667d74f34d90b3e141f6e74fca32d1f824b83f50f",
    ("table=standard", 2, 2): "016a6e3fbf3195aa8e3ae046b0cfa1f1df44f51240e4b2ba8a78a1fd9be56580",
    ("table=gueridon", 2, 3): "11894d4ad819791a7a760dc86363b791b43eef0740407d287a41086e6c0326f3",
    ("table=gueridon", 3, 4): "25c8c756900d2048a8dcc705298c9599c529e06f1340b1182ed0e2986457b9e3",
    (
        "table=table_basse cup_layout=random cups=3 dog_chain=true",
        2,
        5,
    ): "a657ed90a22b471ab2b3acae85f73e2941b2111386b3124581e78a639637d7a8",
    ("table=carre_4j", 4, 6): "45df23e63deb01cefc90ae7a9460d25d518cdd326db153c040ecfc7abfcccbe7",
    (
        "table=salle_a_manger",
        3,
        7,
    ): "d82101b93b3c4b14685ac2be58941bb80e618ebba8a23ad8ff5fcf40f01117fe",
    (
        "table=gueridon reveal_choice=highest-def castle_tie=falls attack_cap=1",
        4,
        8,
    ): "9af3069bacc51c243bef3e448a2f26ae46592da7ceb73eec03b66f0dcc508de1",
    (
        "table=standard must_spend_pa=false self_cut=true recall_face_down=true",
        2,
        9,
    ): "210897c3d8e57ac3ef1c23119332c3374297c0a7d9f35c8cc98936e554f9f653",
    ("table=standard", 3, 10): "79514b9ba8324e404c73f87b11bc57ae7c8e8d5ffafb4dbc2df007e70baa7d61",
    (
        "table=carre_4j cups=4 inns=1 outposts=2 eliminated_castle=removed",
        4,
        11,
    ): "f49a8d29702b87caa40bab556692004bddb26835e260e3e22dc1dfcc036f9868",
    (
        "table=salle_a_manger",
        2,
        12,
    ): "43532d5e6265e0225bd77ab8de487975c4f1cc69c4193d0d456ec469845a7e76",
}

# (options, levels by seat, seed) -> sha256 of the match's choices and final state
BOT_GOLDEN: dict[tuple[str, tuple[str, ...], int], str] = {
    (
        "table=gueridon",
        ("normal", "easy"),
        21,
    ): "3600d25bbe2148116e2a6cb4c0ca7dd6b4b9e85d9552a09b9d40c786b0b61e81",
    (
        "table=standard",
        ("easy", "normal"),
        22,
    ): "47f7977db38bb9fcb5ce131668c88107fe46b8bc797f3ded83f8aac3ca60687c",
    (
        "table=gueridon",
        ("normal", "normal", "easy"),
        23,
    ): "849c75e18add3c20a7ca159f7a4eff5905ab7d9939ccb306de2d0d8bbfbeb640",
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
