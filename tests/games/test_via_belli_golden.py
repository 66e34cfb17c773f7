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
    ("table=standard", 2, 1): "4d7d0f2333732dd24b356071612a89a207cc255898d24e4ed1ebaaca217a1d3a",
    ("table=standard", 2, 2): "701e43075ddc67781801dd5e9cbb06be2714609aeb5b47b2a8dbd7b1f075bbab",
    ("table=gueridon", 2, 3): "6d3b96e2f50bf72fbb6e91669e740b3314b65ac5da4744967d52db4d824dcd62",
    ("table=gueridon", 3, 4): "386cad237ee59e1240b07d2c9f85ac4de90cd2330476383c4735ae4211b2e712",
    (
        "table=table_basse cup_layout=random cups=3 dog_chain=true",
        2,
        5,
    ): "4e39f0b195aa866a9b05b7c6645ea9c5bc132b285605f25fd9c937a1fe51ee39",
    ("table=carre_4j", 4, 6): "37312b95380b5497127d93101e06225c75e61a98315ab0b1f81caab45dd8d9c2",
    (
        "table=salle_a_manger",
        3,
        7,
    ): "73a15965465f84522d38fa4c5713c305bf82ae96f9f546ed6595de11fe24c5f2",
    (
        "table=gueridon reveal_choice=highest-def castle_tie=falls attack_cap=1",
        4,
        8,
    ): "19edf301174b1a065ff0904ddd828be79aeb316e5ec2cf017a26ac99197464fe",
    (
        "table=standard must_spend_pa=false self_cut=true recall_face_down=true",
        2,
        9,
    ): "82a78cf9d3737d7416945a5b8b657aafed64d4833621594fb9b2d2e68f729e16",
    ("table=standard", 3, 10): "425a78f1e0a432d1cb27d4244cb273afe5bbe12d2e6f694671fbe43beb0e7950",
    (
        "table=carre_4j cups=4 inns=1 outposts=2 eliminated_castle=removed",
        4,
        11,
    ): "2bd5b11ebceae066d013401bbd4c835647a8a76992d8d49ffed7fb122546a271",
    (
        "table=salle_a_manger",
        2,
        12,
    ): "86760b304a085a7a52b1b2e6ce5205302eda64bf3c63894d54f4228eb81644a5",
}

# (options, levels by seat, seed) -> sha256 of the match's choices and final state
BOT_GOLDEN: dict[tuple[str, tuple[str, ...], int], str] = {
    (
        "table=gueridon",
        ("normal", "easy"),
        21,
    ): "c2d700ea371c19a382d29ebb6a005d4c3d87dda48692bce6530ffb7021e897a9",
    (
        "table=standard",
        ("easy", "normal"),
        22,
    ): "0a5930bcadce48571ab07ab9b4889fcf2b0886745a7407daec65575ddbfbadd8",
    (
        "table=gueridon",
        ("normal", "normal", "easy"),
        23,
    ): "d85a46bfa1e29f83e423d94b06f85f82d15cf12775dac47a1ae25c2f0bb39244",
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
