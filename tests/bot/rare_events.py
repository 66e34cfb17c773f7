"""Events a random walk of a game seldom reaches, played from a few set
positions (the game's scenario helpers) so that the texts walk
(``test_texts.py``) reads them too: each position is a real state, and each
event comes out of the engine's ``apply``."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from engine.core import Event, evolve


def _battalia() -> Iterator[tuple[Event, int]]:
    from engine.games.battalia import GAME as g
    from tests.games.battalia_helpers import scenario

    def play(state: Any, seat: int, *moves: str) -> Iterator[tuple[Event, int]]:
        for move in moves:
            state, events = g.apply(state, seat, g.parse_action(move))
            yield from ((event, state.seats) for event in events)

    # a hero attacked by a hero retreats (option ``retreat``)
    state = scenario(
        roads="b2-c2-d2-e2", heroes={"c2": ("1h1",), "d2": ("2h1",)}, hands=("2u Au", "P P"), day=3
    )
    state, events = g.apply(state, 0, g.parse_action("attack h1 2h1 : 2u Au"))
    yield from ((event, 2) for event in events)
    yield from play(state, 1, "retreat e2 : P P")
    # the Ruins won: a Great Artefact
    state = scenario(roads="b2-c2-d2 d2-d3-d4", heroes={"d3": ("1h1",)}, hands=("4u 4u Au",), day=3)
    state, events = g.apply(state, 0, g.parse_action("attack h1 d4 : 4u 4u Au"))
    yield from ((event, 2) for event in events)
    yield from play(state, 0, f"take {state.great[0]}")
    # Buff's hire runs out at the start of a day
    state = scenario(seats=2, options="", roads="b2-c2-d2", day=5, active=1)
    hired = evolve(state.buff, square="c2", owner=0, hire_until=6, entered=True, absent=False)
    yield from play(evolve(state, buff=hired), 1, "end")


RARE: dict[str, Callable[[], Iterator[tuple[Event, int]]]] = {"battalia": _battalia}
"""By game: the rare events, with the seat count of their match."""
