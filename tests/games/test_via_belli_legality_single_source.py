"""Legality and its explanation come from the same checks
(``engine/games/via_belli/checks.py``).

Over random positions of random games (several tables, seat counts and rule
options), for the seat that decides:

* every action ``legal_actions`` lists passes its check (``GAME.refusal`` is
  None), and so does every complete action ``complete_actions`` finds by
  making the steps one by one (an independent path);
* near misses of the legal actions (another card, another target, another
  anchor or pivot, a shifted or turned spot, an attacker more or less, the
  actions of other steps, ``-``...) that the check accepts are exactly the
  listed actions, ``-`` in a step, or complete actions; ``apply`` plays
  them;
* every near miss the check refuses is not listed, and ``apply`` refuses
  it with the very error the check produced (code, message, parameters).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from engine import rng
from engine.errors import IllegalAction
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
)
from tests.games.vb_helpers import en, fr

SUB_PHASES = {"anchor", "spot", "pivot", "destination", "attack", "sorcery"}
COMPLETE = (Summon, Move, Recall, Attack, Sorcery)

GAMES: tuple[tuple[str, int, int], ...] = (
    ("table=gueridon", 2, 11),
    ("table=gueridon", 3, 12),
    ("table=table_basse cup_layout=random cups=3 dog_chain=true", 2, 13),
    ("table=carre_4j", 4, 14),
    (
        "table=gueridon summon_contact=anchor-and-card spy_placement=supplied sorcery_discard=any",
        2,
        15,
    ),
    (
        "table=gueridon bases_anchor=unengaged face_down_attack=true sorcery_face_down=true move_path=slide",
        2,
        16,
    ),
    ("table=gueridon must_spend_pa=false deck_out=immediate siege_failure=no-loss", 3, 17),
    (
        "table=gueridon move_pivot=friendly rotate_in_place=false engaged_may_move=false "
        "initiative_sum=whole-hand initiative_card=return hand_limit=4",
        2,
        18,
    ),
    (
        "table=gueridon reveal_choice=defender recall_face_down=true self_cut=true attack_cap=1",
        2,
        19,
    ),
)
STEPS = 240  # actions played per game
EVERY = 2  # positions checked: one in EVERY


def _positions(options: str, seats: int, seed: int) -> Iterator[tuple[State, int]]:
    """(state, deciding seat) along a random game."""
    state = GAME.setup(GAME.options(options), seats, seed)
    chooser = rng.seed_state(seed, "legality")
    for step in range(STEPS):
        pending = GAME.pending(state)
        if not pending:
            return
        seat = min(pending)
        if step % EVERY == 0:
            yield state, seat
        legal = GAME.legal_actions(state, seat)
        index, chooser = rng.randbelow(chooser, len(legal))
        state, _ = GAME.apply(state, seat, legal[index])


def _cells(state: State) -> list[tuple[int, int]]:
    """Every card's top-left cell, castles and terrain included."""
    out = [(c.x, c.y) for c in state.castles]
    out += [(t.x, t.y) for t in state.terrain]
    out += [(u.x, u.y) for u in state.units]
    return out


def _near_misses(state: State, seat: int, legal: list[Action]) -> list[Action]:
    """Actions close to the legal ones: one thing changed."""
    names = [c.name for c in state.rules.cards]
    cells = _cells(state)
    out: list[Action] = [Draw(), EndTurn(), Cancel(), *(Begin(k) for k in ("+", ">", "x", "^"))]
    out += [Sorcery(n) for n in names[::3]]
    out += [Recall(x, y) for x, y in cells[::2]]
    if state.combat is not None:
        out += [Reveal(x, y) for x, y in cells[:6]]
    for a in legal[:40]:
        if isinstance(a, Summon | Anchor):
            other = names[(names.index(a.card) + 1) % len(names)]
            if isinstance(a, Summon):
                out += [
                    Summon(other, a.hidden, a.x, a.y, a.landscape),
                    Summon(a.card, not a.hidden, a.x, a.y, a.landscape),
                    Summon(a.card, a.hidden, a.x + 1, a.y, a.landscape),
                    Summon(a.card, a.hidden, a.x, a.y - 1, not a.landscape),
                    Summon(a.card, a.hidden, a.x, a.y, not a.landscape),
                ]
            else:
                out += [Anchor(other, a.hidden, a.x, a.y), Anchor(a.card, not a.hidden, a.x, a.y)]
                out += [Anchor(a.card, a.hidden, x, y) for x, y in cells[:4]]
        elif isinstance(a, Pivot):
            out += [Pivot(a.fx, a.fy, x, y) for x, y in cells[::3]]
            out += [Pivot(x, y, a.x, a.y) for x, y in cells[1::3]]
        elif isinstance(a, Move):
            out += [
                Move(a.fx, a.fy, a.x - 1, a.y, a.landscape),
                Move(a.fx, a.fy, a.x, a.y + 1, not a.landscape),
                Move(a.x, a.y, a.fx, a.fy, a.landscape),
            ]
        elif isinstance(a, Attack):
            out.append(Attack(a.attackers[1:] or a.attackers, a.target))
            out += [Attack(a.attackers, (x, y)) for x, y in cells[::4]]
            out += [Attack(tuple(sorted({*a.attackers, (x, y)})), a.target) for x, y in cells[::5]]
        elif isinstance(a, Sorcery):
            out += [Sorcery(n) for n in names]
        elif isinstance(a, Reveal):
            out += [Reveal(a.x + 1, a.y), Reveal(a.x, a.y + 1)]
    return list(dict.fromkeys(out))


def _error(state: State, seat: int, action: Action) -> IllegalAction | None:
    try:
        GAME.apply(state, seat, action)
    except IllegalAction as exc:
        return exc
    return None


def _same(a: IllegalAction, b: IllegalAction) -> bool:
    return (a.code, a.msg, a.params) == (b.code, b.msg, b.params)


@pytest.mark.parametrize(("options", "seats", "seed"), GAMES)
def test_legal_actions_and_refusals_come_from_the_same_checks(
    options: str, seats: int, seed: int
) -> None:
    refused_kinds: set[tuple[str, str]] = set()
    accepted_unlisted = 0
    for state, seat in _positions(options, seats, seed):
        legal = GAME.legal_actions(state, seat)
        listed = set(legal)
        for action in legal:
            assert GAME.refusal(state, seat, action) is None, (state.phase, action)
        complete = GAME.complete_actions(state, seat)
        for action in complete:
            assert GAME.refusal(state, seat, action) is None, (state.phase, action)
        for action in _near_misses(state, seat, legal):
            check = GAME.refusal(state, seat, action)
            error = _error(state, seat, action)
            if check is None:
                assert error is None, (state.phase, action, error)
                if action not in listed:
                    accepted_unlisted += 1
                    # "-" in a step, or a complete action standing for its steps
                    assert (isinstance(action, Cancel) and state.phase in SUB_PHASES) or (
                        isinstance(action, COMPLETE) and action in complete
                    ), (state.phase, action)
            else:
                assert action not in listed and action not in complete, (state.phase, action)
                assert error is not None and _same(error, check), (state.phase, action)
                refused_kinds.add((state.phase, type(action).__name__))
    # the sample reaches refusals of many kinds, and accepted unlisted actions
    assert len(refused_kinds) >= 12, sorted(refused_kinds)
    assert accepted_unlisted > 0


def test_a_refusal_is_the_error_apply_raises() -> None:
    """At the first turn decision: a draw from an empty pile, a summon off the
    table, a menu with nothing to offer, a step's action at the turn."""
    state = GAME.setup(GAME.options("table=gueridon"), 2, 3)
    seat = min(GAME.pending(state))
    cases: list[tuple[Action, str]] = [
        (Summon(state.players[seat].hand[0], False, 40, 40, False), "would leave the table"),
        (Begin("x"), "None of your cards can attack now."),
        (Pivot(0, 0, 1, 1), "Now choose an action"),
        (Summon("Paladin", False, 0, 0, False), ""),
    ]
    for action, words in cases:
        check = GAME.refusal(state, seat, action)
        assert check is not None
        with pytest.raises(IllegalAction) as exc:
            GAME.apply(state, seat, action)
        assert _same(exc.value, check)
        assert words in en(check)
        assert fr(check) != en(check)
