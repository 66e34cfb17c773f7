"""Belle Position: golden playouts, so that speed work cannot change behaviour.

Fixed seeds are played to the end with a fixed-seed uniform chooser over the
legal actions (the engine benchmark's way: the lowest pending seat acts).
Everything observable is hashed: the order of the legal actions (the chooser
picks by index), every notation, every event with its audience and redacted
form, the final state JSON, and now and then ``determinize`` of the state.
Views are hashed separately (a change there is a change of what the players
see). The values were recorded from the engine before any optimisation; a
change of these hashes must be a deliberate rules change, explained.
Re-recorded once since: the last fire now keeps its turn (``Combat.turn``)
and the view lists each side's generals; with those fields left out, the
hashes were the first recording's.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest

from engine import codec, rng
from engine.games.belle_position import GAME, Board, _kinds, board

OPTIONS = (
    "",
    GAME.conformance_options[1],
    GAME.conformance_options[2],
    GAME.conformance_options[3],
)

# (options index, seed) -> (playout hash, view hash, actions)
GOLDEN: dict[tuple[int, int], tuple[str, str, int]] = {
    (0, 1): ("10e3f3c10161e2c1", "6cf54dc6d25351a6", 419),
    (0, 2): ("61bbf9c73d6d8e3b", "bf8dbee1e737cbb7", 314),
    (0, 3): ("66dfcbddcf7b07e3", "f7c66dce058f9983", 246),
    (0, 4): ("22d785ddbdd61e6f", "946640517398306c", 545),
    (0, 5): ("c454c3d5239564c9", "4273efc98be18a49", 234),
    (0, 6): ("f74fed7c29d4c774", "75bb299168327ec7", 513),
    (0, 7): ("d3cd3b4c88bef1d9", "d602bc0a3bb8852d", 493),
    (0, 8): ("009501e22f5b2913", "ba0c66394073352b", 308),
    (0, 9): ("3644357759387d2c", "95dcdc5b8a232171", 517),
    (0, 10): ("1fa65af26c663927", "aa011bec93b95d03", 321),
    (1, 1): ("80e4fa0cb95a1a2e", "ed010d0da2c5072f", 141),
    (1, 2): ("07e3952f4cab5578", "3ae12edace2043f5", 102),
    (1, 3): ("219b7759fbe24a9d", "e36bd8c35d95cc78", 139),
    (1, 4): ("9277f06d46a79c39", "85ea5ab3e25e4986", 134),
    (1, 5): ("dbeb3518e35fa979", "01e8d0347c655815", 138),
    (1, 6): ("533f24cfd6fe677d", "1e405cb28c7bd1a9", 141),
    (1, 7): ("d795051934f523f0", "9a35774f74c05fcb", 140),
    (1, 8): ("4e68be6190e74d47", "6430713f1c756757", 119),
    (1, 9): ("58d95a73db8519ae", "f112ae04f853ba33", 143),
    (1, 10): ("287c38f7143e4718", "e04ca8264b39ee24", 156),
    (2, 1): ("2961379a43472859", "59a2d82de4d02da6", 101),
    (2, 2): ("6aa3de3a1ce7af53", "ad5a19a6f1c76c15", 127),
    (2, 3): ("79b5d1af3f90db88", "92c26e291db85828", 120),
    (2, 4): ("048cb45880db31ed", "1b882f16a3c9574a", 120),
    (2, 5): ("8e7cb13ba1e5648e", "56670fff4a38175d", 112),
    (2, 6): ("40a5c69dcab9c281", "654763cc047b7c56", 131),
    (2, 7): ("f1e5745eef96787f", "01f176aff3681542", 27),
    (2, 8): ("6a09f7e9d4bf9b45", "5e5348505d3378fa", 113),
    (2, 9): ("0045f74509dcd28e", "4c5c93999256935a", 142),
    (2, 10): ("5e2d07adcd052a84", "d232f49dd798b379", 133),
    (3, 1): ("3458a81528a0c2a5", "c298c0b12a04f225", 114),
    (3, 2): ("c8296ff8f5a92538", "1e0bcc0ff9437c54", 114),
    (3, 3): ("87a658b2c128535c", "84e14c2ef19c915e", 55),
    (3, 4): ("dbabdf7da8167da6", "cc78ad581f90ce0c", 104),
    (3, 5): ("9b10f95923a99ee7", "3651f2cca60ab546", 75),
    (3, 6): ("220e8f26a6ac343d", "df0021c20e57cd45", 73),
    (3, 7): ("e6b7f9e5bed9f604", "fa2d4add981ddf1d", 83),
    (3, 8): ("7a3d7f2d69bc6fea", "d496566a38092c01", 85),
    (3, 9): ("0fb63316661ab340", "3693912b78a6a1bf", 116),
    (3, 10): ("0943a7ea968e4bb2", "cc9eccd36cd3086c", 75),
}


def _jsonable(obj: Any) -> Any:
    return codec.to_jsonable(obj)


def playout(options: str, seed: int) -> tuple[str, str, int]:
    game = GAME
    state = game.setup(game.options(options), 2, seed)
    chooser = rng.seed_state(seed, "golden")
    h = hashlib.sha256()
    hv = hashlib.sha256()
    for e in game.setup_events(state):
        h.update(json.dumps(e.to_json(), sort_keys=True).encode())
    steps = 0
    while True:
        pending = game.pending(state)
        if not pending:
            break
        seat = min(pending)
        legal = game.legal_actions(state, seat)
        h.update(json.dumps([game.format_action(a) for a in legal]).encode())
        index, chooser = rng.randbelow(chooser, len(legal))
        action = legal[index]
        if steps % 17 == 0:
            other = game.determinize(state, seat, seed * 31 + steps)
            h.update(json.dumps(game.encode_state(other), sort_keys=True).encode())
            for observer in (0, 1, None):
                view = game.view(state, observer)
                hv.update(json.dumps(_jsonable(view), sort_keys=True).encode())
        state, events = game.apply(state, seat, action)
        for e in events:
            h.update(json.dumps(e.to_json(), sort_keys=True).encode())
            for observer in (0, 1, None):
                shown = e.for_seat(observer)
                h.update(json.dumps(None if shown is None else shown.to_json()).encode())
        steps += 1
    h.update(json.dumps(game.encode_state(state), sort_keys=True).encode())
    for observer in (0, 1, None):
        hv.update(json.dumps(_jsonable(game.view(state, observer)), sort_keys=True).encode())
    return h.hexdigest()[:16], hv.hexdigest()[:16], steps


@pytest.mark.parametrize("key", sorted(GOLDEN))
def test_golden_playout(key: tuple[int, int]) -> None:
    opt, seed = key
    assert playout(OPTIONS[opt], seed) == GOLDEN[key]


def _board_fields(b: Board) -> tuple[object, ...]:
    return (b.units, b.general, b.terrain, b.terrain_cards, b.reserve, b.alive)


@pytest.mark.parametrize("seed", range(6))
def test_derived_boards_are_the_boards_built_afresh(seed: int) -> None:
    """``board`` derives a state's board from the last one asked for; it must
    be exactly the board built from the cards (same lists, same order), after
    every kind of action and after ``determinize``."""
    game = GAME
    state = game.setup(game.options(OPTIONS[seed % len(OPTIONS)]), 2, seed)
    chooser = rng.seed_state(seed, "boards")
    kinds = _kinds(state.rules)
    steps = 0
    while game.pending(state):
        seat = min(game.pending(state))
        legal = game.legal_actions(state, seat)
        index, chooser = rng.randbelow(chooser, len(legal))
        state, _ = game.apply(state, seat, legal[index])
        assert _board_fields(board(state)) == _board_fields(Board(state.armies, kinds))
        if steps % 5 == 0:
            other = game.determinize(state, seat, steps)
            assert _board_fields(board(other)) == _board_fields(Board(other.armies, kinds))
        steps += 1
    assert steps > 20
