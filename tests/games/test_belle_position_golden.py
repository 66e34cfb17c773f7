"""Belle Position: golden playouts, so that speed work cannot change behaviour.

Fixed seeds are played to the end with a fixed-seed uniform chooser over the
legal actions (the engine benchmark's way: the lowest pending seat acts).
Everything observable is hashed: the order of the legal actions (the chooser
picks by index), every notation, every event with its audience and redacted
form, the final state JSON, and now and then ``determinize`` of the state.
Views are hashed separately (a change there is a change of what the players
see). The values were recorded from the engine before any optimisation; a
change of these hashes must be a deliberate rules change, explained.
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
    (0, 1): ("4502435a05d0629c", "e7c5d63536e96015", 419),
    (0, 2): ("f218885c1d7b3d43", "2edeedb5390ed151", 314),
    (0, 3): ("d5ac3ae289f3cd32", "951fd2f6acfbee68", 246),
    (0, 4): ("1d9ce7760acfb1b4", "4b1a926489766bd2", 545),
    (0, 5): ("e516ea766ce146b9", "2fa66dabefaad027", 234),
    (0, 6): ("c8877956ae5ebbc3", "b366c9d6a1e0acd1", 513),
    (0, 7): ("6b5312ae3354d3e3", "bbf298146eaa6a8b", 493),
    (0, 8): ("c70237123b150959", "4c7252c05dfc41a2", 308),
    (0, 9): ("bfd9145de87b95fc", "5d5781b1e2bc58ea", 517),
    (0, 10): ("e67f1117fca6f4b0", "6d352c0612a68b88", 321),
    (1, 1): ("72f3b6240ae365cd", "feb0f98fc5820ccd", 141),
    (1, 2): ("9f46eae79982c28b", "fbff8c049d617d3f", 102),
    (1, 3): ("f5bf498e86aeb81e", "2edecba734ddf8bc", 139),
    (1, 4): ("df029a1f9c783eff", "665e9d569b96b8d6", 134),
    (1, 5): ("91db44b327ae4bff", "54b231bd4897bc92", 138),
    (1, 6): ("2c3052f1182e2288", "7a46ffd553af55e9", 141),
    (1, 7): ("9e8788f408f84618", "735874d0fe255369", 140),
    (1, 8): ("895e7193baa700fe", "28c0d3d69348319b", 119),
    (1, 9): ("58c061d32ad108b2", "0df8b41a1e5b5a02", 143),
    (1, 10): ("d98c855f4caa1bdd", "6c49b9e1d49f74c1", 156),
    (2, 1): ("38d132115b41a464", "38e7414287c6d4c2", 101),
    (2, 2): ("c6597be1c1413a1b", "34becfb612bee99c", 127),
    (2, 3): ("59406e20be7b8d63", "0b58bc16c6b1cce9", 120),
    (2, 4): ("ce4a6623eb3ff2a1", "f7a4e8a9f65eb8c0", 120),
    (2, 5): ("6361d2d904fe5a19", "ff611e2cf8a9405e", 112),
    (2, 6): ("feffff780dd3819f", "4b4d7008efefd7a3", 131),
    (2, 7): ("f1e5745eef96787f", "515050ceae13a8c3", 27),
    (2, 8): ("65aec5abf7429885", "2bc52ac03db68d13", 113),
    (2, 9): ("df3539a16ee6a5f3", "ee4c31069581424a", 142),
    (2, 10): ("34a71caa38d67282", "54c0bca5f060b584", 133),
    (3, 1): ("319099f0c4d7419d", "cf6ddb2b610063d2", 114),
    (3, 2): ("cd488eb1e6d646d8", "d53708ab354ae369", 114),
    (3, 3): ("b8c28ec98c15d441", "947a08e2bcdd4101", 55),
    (3, 4): ("2dac1664e83b4481", "e0a47ddbd573340b", 104),
    (3, 5): ("ea32fd83526279a4", "68529f08f21234d7", 75),
    (3, 6): ("3d3cb2ea7ec47a66", "4370ae843b256000", 73),
    (3, 7): ("a51ee2644fda5f19", "c1791f8d799e92a8", 83),
    (3, 8): ("7eff7126e54478b6", "84fa7ee3d88f4793", 85),
    (3, 9): ("15d08dbaae25e350", "f31462381bad09ea", 116),
    (3, 10): ("dddf1ca7f05f7dea", "c49f011a1f9166d3", 75),
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
