"""Via Belli's random playouts (issue 17): ``random_action`` draws the card
first, then its spot, without listing every legal action, and the table's
analysis is carried from one board to the next.

* ``random_action`` returns only actions ``legal_actions`` lists, over many
  states of random games, and reaches every kind of action;
* a playout through ``random_action`` and ``apply`` never lists the legal
  actions (``apply`` takes the very action just drawn);
* the boards derived from the previous one (a card summoned, moved or taken
  off; the supply networks kept or grown) equal a board analysed from
  scratch, and so do the legal actions listed on them (property over seeds).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

import pytest

from engine import rng
from engine.games.via_belli import (
    GAME,
    Action,
    Anchor,
    Attack,
    Begin,
    Cancel,
    Draw,
    EndTurn,
    Move,
    Pivot,
    Recall,
    Reveal,
    Sorcery,
    State,
    Summon,
    ViaBelli,
)
from engine.games.via_belli import board as boards
from engine.games.via_belli.legal import _legal


def _kind(action: Action) -> str:
    if isinstance(action, Begin):
        return f"Begin{action.kind}"
    if isinstance(action, Anchor | Summon):
        return type(action).__name__ + ("?" if action.hidden else "")
    return type(action).__name__


EVERY_KIND = {
    _kind(a)
    for a in (  # one action of each kind (and each way to summon)
        Draw(),
        Begin("+"),
        Begin(">"),
        Begin("x"),
        Begin("^"),
        EndTurn(),
        Anchor("Roturier", False, 0, 0),
        Anchor("Roturier", True, 0, 0),
        Summon("Roturier", False, 0, 0, False),
        Summon("Roturier", True, 0, 0, False),
        Pivot(0, 0, 0, 0),
        Move(0, 0, 0, 0, False),
        Recall(0, 0),
        Attack(((0, 0),), (0, 0)),
        Sorcery("Roturier"),
        Reveal(0, 0),
        Cancel(),
    )
}

# (options, seats, seed): short games whose random playouts meet every kind
# of action between them (a Sorcier's card and a reveal on the gueridon with
# three players, ``E`` with ``must_spend_pa=false``), then a few more tables
GAMES = (
    ("table=gueridon", 3, 1),
    ("table=gueridon must_spend_pa=false deck_out=immediate siege_failure=no-loss", 2, 1),
    ("table=gueridon spy_contact=unit siege_ambush=hidden reveal_aura=later", 3, 1),
    ("table=salle_a_manger", 2, 2),
    ("table=carre_4j", 4, 3),
    ("width=30 height=24 castle_gap=20 cup_cells=N11 self_cut=true recall_face_down=true", 2, 4),
)


def _playout(options: str, seats: int, seed: int) -> Iterator[tuple[State, int]]:
    """The states of a game played through ``random_action``, with the seat
    deciding."""
    state = GAME.setup(GAME.options(options), seats, seed)
    chooser = rng.seed_state(seed, "test-random-action")
    while True:
        pending = GAME.pending(state)
        if not pending:
            return
        seat = min(pending)
        yield state, seat
        action, chooser = GAME.random_action(state, seat, chooser)
        state, _ = GAME.apply(state, seat, action)


def test_random_action_draws_only_legal_actions_and_every_kind() -> None:
    seen: Counter[str] = Counter()
    for options, seats, seed in GAMES:
        for steps, (state, seat) in enumerate(_playout(options, seats, seed)):
            legal = GAME.legal_actions(state, seat)
            draw = rng.seed_state(seed, str(steps))
            for _ in range(3):
                action, draw = GAME.random_action(state, seat, draw)
                assert action in legal, (options, steps, state.phase, action)
                seen[_kind(action)] += 1
    assert set(seen) == EVERY_KIND, EVERY_KIND - set(seen)


def test_random_action_is_pure_and_reproducible() -> None:
    """The same generator state draws the same action and the same next
    state; the state it was drawn from is unchanged."""
    for state, seat in _playout("table=standard", 2, 5):
        before = GAME.encode_state(state)
        one = GAME.random_action(state, seat, 12345)
        two = GAME.random_action(state, seat, 12345)
        assert one == two
        assert one[1] != 12345  # it drew
        assert GAME.encode_state(state) == before
        if state.turn > 6:
            break


def test_random_playouts_never_list_the_legal_actions(monkeypatch: pytest.MonkeyPatch) -> None:
    """``random_action`` draws a step at a time and ``apply`` takes the very
    action just drawn: a whole game without one listing of the legal
    actions (the default ``random_action`` lists them all)."""

    def no_listing(self: ViaBelli, state: State, seat: int) -> object:
        raise AssertionError("legal actions listed")

    monkeypatch.setattr(ViaBelli, "_legal_memo", no_listing)
    steps = sum(1 for _ in _playout("table=gueridon", 2, 7))
    assert steps > 100


def _fresh_board(state: State) -> boards.Board:
    return boards.Board(state)


def _same_board(derived: boards.Board, fresh: boards.Board) -> None:
    for name in (
        "n",
        "X",
        "Y",
        "Wd",
        "Ht",
        "kind",
        "ref",
        "owner",
        "unit_ci",
        "castle_ci",
        "terrain_ci",
        "corner",
        "fps",
        "occ",
        "adj",
    ):
        a, b = getattr(derived, name), getattr(fresh, name)
        if isinstance(a, list | tuple):
            a, b = list(a), list(b)
        assert a == b, name
    assert derived.rings() == fresh.rings()
    for seat in range(len(derived.state.players)):
        d, f = derived.side(seat), fresh.side(seat)
        for name in ("sources", "relays", "needy", "supplied", "parent", "cut", "members"):
            assert getattr(d, name) == getattr(f, name), f"side {seat}: {name}"
        assert d.member_set == f.member_set
        assert derived.critical(seat) == fresh.critical(seat), f"side {seat}: critical"
        assert derived.may_be_critical(seat, -1) == fresh.may_be_critical(seat, -1)
        assert d.inner == f.inner, f"side {seat}: inner"
        assert derived.anchors(seat) == fresh.anchors(seat), f"side {seat}: anchors"
        assert derived.ring_without(seat, -1) == fresh.ring_without(seat, -1)


@pytest.mark.parametrize("seed", range(3))
def test_derived_boards_equal_boards_analysed_afresh(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Property over seeds: at every decision of random games (every table
    of the conformance options by turns), the board carried over from the
    previous one and the legal actions listed on it equal those of a board
    analysed from scratch. The derivations are counted, so that each path
    (summon, move, removal, networks kept and grown) is met."""
    paths: Counter[str] = Counter()
    grown = boards.Board._grown_side
    kept = boards.Side.kept
    removal = boards.Board._derive_removal

    def count_grown(self: boards.Board, side: boards.Side, ci: int) -> boards.Side | None:
        out = grown(self, side, ci)
        paths["grown" if out is not None else "not-grown"] += 1
        return out

    def count_kept(self: boards.Side) -> boards.Side:
        paths["kept"] += 1
        return kept(self)

    def count_removal(parent: boards.Board, state: State) -> boards.Board | None:
        out = removal(parent, state)
        paths["removal" if out is not None else "no-removal"] += 1
        return out

    monkeypatch.setattr(boards.Board, "_grown_side", count_grown)
    monkeypatch.setattr(boards.Side, "kept", count_kept)
    monkeypatch.setattr(boards.Board, "_derive_removal", staticmethod(count_removal))
    options = GAME.conformance_options
    for k in range(3):
        text = options[(seed * 3 + k) % len(options)]
        seats = 2 + (seed + k) % 3
        if "carre_4j" in text:
            seats = 4
        for steps, (state, seat) in enumerate(_playout(text, seats, seed * 10 + k)):
            derived = boards.board_of(state)
            _same_board(derived, _fresh_board(state))
            if steps % 7 == 0:
                listed = _legal(state, seat)
                boards._CACHE.boards.clear()
                boards._CACHE.last = (None, None)
                assert _legal(state, seat) == listed, (text, steps)
            if steps > 250:
                break
    assert paths["grown"] and paths["kept"] and paths["removal"], paths
