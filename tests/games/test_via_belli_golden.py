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

# (options, seats, seed) -> sha256 of the playout's transcript. Re-recorded once for
# issue 13: the final state is now saved by the shared msgspec codec (schema 2)
# instead of Via Belli's compact one; the hashes were first computed on the
# code before the package split with only encode_state swapped, and match.
GOLDEN: dict[tuple[str, int, int], str] = {
    ("table=standard", 2, 1): "9a211b95cfdee34525723563468919e343e3d38635ab86fc877604d61a514975",
    ("table=standard", 2, 2): "9f922a312b99bf29d81de743d2eff2640fd3787079db1c36069bd65f93576560",
    ("table=gueridon", 2, 3): "272f03ce50f38b75b60a4b49af91a8b85b2bcacfb411df75268ece4fced33c07",
    ("table=gueridon", 3, 4): "d537dc3de7c21eca51d03847dbc1514db9b5cbfe2630e52336da55603edc083f",
    (
        "table=table_basse cup_layout=random cups=3 dog_chain=true",
        2,
        5,
    ): "590b8f1ea6fb5fab4bc7e2dd7640b934c888fcd4af3385e0180a004ef1f45c49",
    ("table=carre_4j", 4, 6): "4102274993d824ab6a597f124f2aef8e363b44b0f35a6c30121473f8a2cb43fb",
    (
        "table=salle_a_manger",
        3,
        7,
    ): "809c87c63e7cca0f98ad3c8345b5e29370aa234cdd9c2ffc01f2d8af8d3068cc",
    (
        "table=gueridon reveal_choice=highest-def castle_tie=falls attack_cap=1",
        4,
        8,
    ): "8322218aca0c27fd7973b09a0803526b5c751ea1830ba653b6e853dbb7f244b6",
    (
        "table=standard must_spend_pa=false self_cut=true recall_face_down=true",
        2,
        9,
    ): "d729b55fbbb59d60255cb6940ddc5c1116b40be78f1ac98c517ddf75f1bc34f0",
    ("table=standard", 3, 10): "0f743f0f320b49d50d925f5e640b592b047e1648a8257767dcf79019ef5ca530",
    (
        "table=carre_4j cups=4 inns=1 outposts=2 eliminated_castle=removed",
        4,
        11,
    ): "d5deffbb7335682992358b34125aa0728d7811746da646bc6d88730f54f84fdd",
    (
        "table=salle_a_manger",
        2,
        12,
    ): "c36902391f1e83abf7ca84c2ef05849816de6302a99324baa9a6a3c65ea7a4ec",
}

# (options, levels by seat, seed) -> sha256 of the match's choices and final state
BOT_GOLDEN: dict[tuple[str, tuple[str, ...], int], str] = {
    (
        "table=gueridon",
        ("normal", "easy"),
        21,
    ): "7cceac14a0c9655e918697dc8db8bcc9f6aa643f82ee43d2d0efe9a3fa0b4c82",
    (
        "table=standard",
        ("easy", "normal"),
        22,
    ): "6a5690ebbaa84cf08fadc7ca975697b384fe16d0aa9a336b716f79244be97f9b",
    (
        "table=gueridon",
        ("normal", "normal", "easy"),
        23,
    ): "c5b629a86d5d57d731336f4fffce08d6a23fa91a6453e19f167c130b9e7d2420",
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
