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
hashes were the first recording's. Re-recorded again for issue 12 (rules
fidelity), whose defaults changed on purpose: long-range losses on every unit
of the position (seed 11), no turn limit, counter-battery on the whole enemy
line (seed 10), terrain into any non-engaged position (seed 5), the grouping
limit ignored until all moves are done (seed 12); the option sets gained the
new options, the state the new rules fields, the view ``AllocView.hidden``
and the decisions their players' letters. Re-recorded for issue 12 item 19
(Ralliement timing): no default changed; the state's and the view's rules
gained the field ``ralliement_timing`` (default ``before``); with that field
stripped from the encoded states and views, the 40 previous hashes were
reproduced exactly before re-recording. Re-recorded for issue 13 (one text
catalogue): the views lost ``PositionView.name_fr``/``name_en`` and
``PlayerView.side_name_fr``/``side_name_en`` (hosts translate
``bp-pos-<code>`` / ``bp-side-<side>``); with those fields stripped from the
views, the 40 previous hashes were reproduced exactly before re-recording.
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
    (0, 1): ("ebd25276d3a627ab", "8105fcf40dcb7cd3", 417),
    (0, 2): ("a7be4604e7e1788a", "7ddb208b3f0e772c", 281),
    (0, 3): ("5c79aa422bd6845d", "709ffe83ebe698b2", 457),
    (0, 4): ("20bf776cfc990127", "96c847cd5d17851e", 316),
    (0, 5): ("e428334fa891e65c", "0b085ecce88db62d", 423),
    (0, 6): ("6ca94120a58aaf50", "962cb51102c2ad89", 416),
    (0, 7): ("6eef337e990eb00e", "5e35f89025000b31", 403),
    (0, 8): ("774ea48408593a35", "b20046a829ddb2e7", 308),
    (0, 9): ("e35855c046733bd0", "b24f173927691d13", 420),
    (0, 10): ("edfbc308387c73ac", "4db78e095165a253", 421),
    (1, 1): ("07f03794c9335c7a", "dee0b1b46e67275d", 135),
    (1, 2): ("48b10056c32fa81a", "e2a3d4c27d99e059", 128),
    (1, 3): ("e58e08235feb0427", "86d41e942404703d", 120),
    (1, 4): ("b04050ab1deb4263", "de4fc67890165077", 147),
    (1, 5): ("33d808d75fe7aa0e", "90ab271cd6d72018", 121),
    (1, 6): ("309f68e1e3c33062", "f3c84c13136000ed", 131),
    (1, 7): ("26853b7ac371e484", "0af8a8383947c638", 132),
    (1, 8): ("38f28c7a29d0c8df", "be0f7270f9a50495", 127),
    (1, 9): ("1710c80d04dac61f", "0f9e0e215c4d6c11", 144),
    (1, 10): ("f5cca6ec23d61a61", "2265f22140238f75", 143),
    (2, 1): ("af77bda0ce7015d2", "95596f2c3926c2eb", 120),
    (2, 2): ("393f0e6dd307afdd", "ab5411d48d3ec578", 125),
    (2, 3): ("234b3ca32a250dd7", "b9f645cdfccc22f1", 104),
    (2, 4): ("8cfbd3443cde276c", "556d3fd67a339472", 124),
    (2, 5): ("b63859ae2560b271", "e2c6c2814fd45dbd", 102),
    (2, 6): ("16a010691b0e1b4c", "feb4d4d13abbd06c", 112),
    (2, 7): ("b655b0daf5f9f312", "42be623ec3faabb2", 27),
    (2, 8): ("789fa90a9a5e4049", "efeabc3ca862b659", 130),
    (2, 9): ("38e04455db5a8820", "c1d1d29563296870", 148),
    (2, 10): ("4bb732b36c277d3c", "a9a3b1b5b23c9ba8", 131),
    (3, 1): ("b1f928fbe6444965", "f641c71909e6ed69", 118),
    (3, 2): ("e35256e8eafd4333", "b2e90b979df221ad", 123),
    (3, 3): ("642f97565884a655", "235ff52cda650561", 55),
    (3, 4): ("c5afa22adb1d9d82", "517024a5ad8b75d9", 95),
    (3, 5): ("5c60bd64fda67b47", "10d88081d0a5902e", 79),
    (3, 6): ("41662dfa839902e6", "e92f755afe89e1dc", 111),
    (3, 7): ("9be1e5ec13cf8978", "862e0b3484cafc7a", 78),
    (3, 8): ("576cddfc861f8936", "44fb917b5630c67a", 97),
    (3, 9): ("82b68980d5583d33", "8cf791861bf8277d", 124),
    (3, 10): ("988a8edcb2aeda69", "116af744c88e47b8", 108),
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
