"""Deterministic Between Battle states for the renderer tests (and for
looking at the images by hand: ``python -m tests.render.scenarios OUTDIR``)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from engine import GAMES, rng
from engine.games.between_battle import State

GAME_ID = "between-battle"
GAME = GAMES[GAME_ID]
CHARACTERS = {
    2: "pirate,ninja",
    3: "chevalier,cowboy,ninja",
    4: "pirate,chevalier,cowboy,ninja",
}


def playthrough(options: str, seats: int, seed: int, damage_odds: int = 2) -> Iterator[State]:
    """Every state of one game played with random legal moves chosen by a
    seeded :mod:`engine.rng` generator (taking damage about ``damage_odds``
    times in ten when something else is possible)."""
    state: State = GAME.setup(GAME.options(options), seats, seed)
    chooser = rng.seed_state(seed, "render-tests")
    yield state
    for _ in range(2000):
        pending = GAME.pending(state)
        if not pending:
            return
        seat = next(iter(pending))
        actions = GAME.legal_actions(state, seat)
        others = [a for a in actions if GAME.format_action(a) != "D"]
        roll, chooser = rng.randbelow(chooser, 10)
        pool = others if others and roll >= damage_odds else actions
        action, chooser = rng.choice(chooser, pool)
        state, _ = GAME.apply(state, seat, action)
        yield state


def find(predicate: Callable[[State], bool], seats: int = 2, options: str | None = None) -> State:
    """The first state satisfying ``predicate`` over seeds 0, 1, 2 ..."""
    opts = options if options is not None else f"characters={CHARACTERS[seats]}"
    for seed in range(400):
        for state in playthrough(opts, seats, seed):
            if predicate(state):
                return state
    raise LookupError("no such state")


def _top(state: State, suffix: str) -> bool:
    return any(p and p[-1].endswith(suffix) for p in state.piles)


SCENARIOS: dict[str, Callable[[], State]] = {
    "2p-start": lambda: find(lambda s: s.phase == "turn", 2),
    "2p-mid": lambda: find(lambda s: s.turn >= 12 and s.phase == "turn" and all(s.piles), 2),
    "2p-joker-top": lambda: find(lambda s: _top(s, "X") and s.phase == "turn", 2),
    "2p-joker-pull": lambda: find(lambda s: s.phase == "joker-pull", 2),
    "2p-open-link": lambda: find(lambda s: _top(s, "~") and s.phase == "turn", 2),
    "2p-revealed": lambda: find(
        lambda s: any(p.revealed for p in s.players) and s.phase == "turn", 2
    ),
    "2p-choose-pile": lambda: find(lambda s: s.phase == "choose-pile" and all(s.piles), 2),
    "2p-tutor": lambda: find(lambda s: s.phase == "tutor", 2),
    "2p-over": lambda: find(lambda s: s.phase == "over", 2),
    "2p-draft": lambda: GAME.setup(GAME.options(""), 2, 7),
    "2p-locked": lambda: find(
        lambda s: s.turn_lock >= 0 and s.turn > 6, 2, "characters=chevalier,cowboy"
    ),
    "2p-cancelled": lambda: find(
        lambda s: s.turn_cancelled and s.turn > 6, 2, "characters=cowboy,chevalier"
    ),
    "3p-locked": lambda: find(lambda s: s.turn_lock >= 0 and s.phase == "turn", 3),
    "3p-mid": lambda: find(lambda s: s.turn >= 15 and s.phase == "turn" and all(s.piles), 3),
    "3p-over": lambda: find(lambda s: s.phase == "over", 3),
    "4p-mid": lambda: find(
        lambda s: s.turn >= 10 and s.phase == "turn" and (s.turn_lock >= 0 or s.turn_cancelled),
        4,
    ),
    "4p-revealed": lambda: find(
        lambda s: (
            any(p.revealed for p in s.players)
            and any(p.out for p in s.players)
            and s.phase == "turn"
        ),
        4,
        f"characters={CHARACTERS[4]} elimination=last-standing",
    ),
    "4p-target": lambda: find(
        lambda s: s.phase == "target",
        4,
        f"characters={CHARACTERS[4]} targeting=choose",
    ),
    "4p-over": lambda: find(lambda s: s.phase == "over", 4),
}

NAMES = (
    "Alice",
    "Bérénice de la Tour-d'Auvergne 🐉🎲",
    "李小龙 Bruce",
    "🎴🎴",
)


def views(state: State) -> list[tuple[int | None, Any]]:
    seats = GAME.seat_count(state)
    return [(seat, GAME.view(state, seat)) for seat in [*range(seats), None]]


def main(out: str) -> None:
    from render import render_board, render_private

    path = Path(out)
    path.mkdir(parents=True, exist_ok=True)
    for name, build in SCENARIOS.items():
        state = build()
        seats = GAME.seat_count(state)
        names = NAMES[:seats]
        for locale in ("en", "fr"):
            spectator = GAME.view(state, None)
            (path / f"{name}-{locale}-board.png").write_bytes(
                render_board(GAME_ID, spectator, names, locale)
            )
            for seat in range(seats):
                view = GAME.view(state, seat)
                (path / f"{name}-{locale}-hand{seat + 1}.png").write_bytes(
                    render_private(GAME_ID, view, names, locale)
                )
        print(name, "turn", state.turn, state.phase)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "/tmp/render-check")
