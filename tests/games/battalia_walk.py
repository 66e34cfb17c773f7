"""Scripted positions for the texts walk (``tests/bot/test_texts.py``):
the rare events random Battalia games do not reach (a retreat: none in
1,000 games; a Great Artefact, Buff beaten, a hire running out) played
from a set-up position, then the match goes on at random to its end."""

from __future__ import annotations

from collections.abc import Iterator

from engine.core import evolve
from engine.games.battalia.model import State
from tests.games.battalia_helpers import scenario

Script = tuple[State, int, list[tuple[int, str]]]


def _buff(state: State, **changes: object) -> State:
    return evolve(state, buff=evolve(state.buff, entered=True, absent=False, **changes))


def scripts() -> Iterator[Script]:
    """(start state, seat count, the actions played: (seat, notation))."""
    # a hero attacked by a hero retreats (rule 2.10, option retreat)
    state = scenario(
        roads="c3-d3-e3",
        heroes={"c3": ("1h1",), "d3": ("2h1",)},
        hands=("2u Au", "P P Ci"),
        day=3,
        options="buff=false week_limit=2",
    )
    yield state, 2, [(0, "attack h1 2h1 : 2u Au"), (1, "retreat e3 : Ci")]
    # the Ruins beaten: a Great Artefact taken, face down by its place (2.4, 2.11)
    state = scenario(
        roads="b2-c2-d2 d2-d3-d4",
        heroes={"d3": ("1h1",)},
        hands=("4u 4u Au",),
        day=3,
        options="buff=false week_limit=2",
    )
    yield state, 2, [(0, "attack h1 d4 : 4u 4u Au"), (0, "take 1")]
    # a hero beats Buff: he leaves the board until the next week
    state = scenario(
        roads="c3-d3", heroes={"c3": ("1h1",)}, hands=("4u 4u Au",), day=3, options="week_limit=2"
    )
    yield _buff(state, square="d3", horde=6), 2, [(0, "attack h1 buff : 4u 4u Au")]
    # seat 2's hire of Buff runs out at the start of day 8
    state = scenario(day=7, active=1, options="week_limit=2")
    yield _buff(state, square="d3", horde=6, owner=1, hire_until=8), 2, [(1, "end")]
