"""The bot contract: levels, budgets, per-game policies, rewards.

Everything here is pure. A bot gets a seat's *view*, the seat's legal actions
and a generator state (an ``int``, see :mod:`engine.rng`); it returns an
action and the next generator state. It never gets the game state.
"""

from __future__ import annotations

import abc
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Literal, TypeVar

from .. import rng
from ..core import Game, Outcome, Seat

S = TypeVar("S")
A = TypeVar("A")
V = TypeVar("V")

Level = Literal["easy", "normal", "hard"]
LEVELS: tuple[Level, ...] = ("easy", "normal", "hard")
HOST_LEVEL: Level = "normal"
"""The level that plays an absent player's decision when the clock runs out."""


class BotError(RuntimeError):
    """A bot could not decide (no legal action, or a policy bug)."""


@dataclass(frozen=True, slots=True)
class Budget:
    """How long ``hard`` may think about one decision.

    ``iterations`` always caps the search. ``seconds`` caps it too, but only
    when the host passes a ``clock`` (e.g. :func:`time.monotonic`); without a
    clock the search is fully deterministic: same inputs, same move.
    ``easy`` and ``normal`` ignore the budget (they answer in milliseconds).
    """

    iterations: int = 1500
    seconds: float | None = 1.0
    clock: Callable[[], float] | None = None

    def __post_init__(self) -> None:
        if self.iterations < 1:
            raise ValueError("a budget needs at least one iteration")
        if self.seconds is not None and self.seconds <= 0:
            raise ValueError("a time budget must be positive")

    @property
    def deterministic(self) -> bool:
        return self.clock is None or self.seconds is None

    def deadline(self) -> Callable[[], bool]:
        """A callable telling whether the time is up (always False without a clock)."""
        clock, seconds = self.clock, self.seconds
        if clock is None or seconds is None:
            return _never
        end = clock() + seconds
        return lambda: clock() >= end


def _never() -> bool:
    return False


DEFAULT_BUDGET = Budget()
"""``hard``'s default: 1 s per decision when the host passes a clock, and at
most 1,500 iterations (about 1 s on one core of the benchmark machine)."""


@dataclass(frozen=True, slots=True)
class BotChoice(Generic[A]):
    """A bot's answer with what it cost (for logs and benchmarks)."""

    action: A
    rng_state: int
    iterations: int = 0
    """Search iterations (determinisations played out); 0 for easy and normal."""


def bot_rng(secret: int, seat: Seat, *salt: str) -> int:
    """A generator state for one bot seat. Hosts pass a value players cannot
    guess (never derive it from anything a bot could use to rebuild the deal),
    then keep the state each choice returns."""
    return rng.seed_state(secret, "bot", str(seat), *salt)


def reward(outcome: Outcome, seat: Seat, seats: int) -> float:
    """A seat's result in [0, 1]: 1 for the sole first place, 0 for the last,
    evenly spaced in between; tied seats share the mean of their places."""
    if seats <= 1:
        return 1.0
    place = 0
    for group in outcome.ranking:
        if seat in group:
            mean_place = place + (len(group) - 1) / 2  # 0-based
            return 1.0 - mean_place / (seats - 1)
        place += len(group)
    return 0.0


class GamePolicy(abc.ABC, Generic[S, A, V]):
    """Everything game-specific a bot needs: one small subclass per game, in
    ``engine/bots/<game>.py``, exposing an instance as ``POLICY``.

    Must implement: :meth:`observer`, :meth:`easy`, :meth:`normal`. The
    generic ``hard`` search also uses :meth:`sample_state` (by default the
    game's own ``Game.sample_state``), :meth:`playout` (how simulated seats
    play: a fast, state-level policy) and, if :attr:`playout_depth` is set,
    :meth:`evaluate`. All of them must be pure and must not touch the view's
    hidden parts beyond what the view itself shows.
    """

    game: Game[S, A, V]
    playout_depth: int = 0
    """Cut playouts after this many actions and :meth:`evaluate` (0: play to the end)."""
    exploration: float = 0.7
    """UCB1 exploration constant of the root search (rewards are in [0, 1])."""
    anchored: bool = False
    """Anchor ``hard`` on ``normal``: the search starts from the heuristic's
    choice, looks at no more than :attr:`root_arms` actions, and plays another
    action only when its mean reward beats the heuristic's by
    :attr:`anchor_margin` (for games whose playouts are too long or too noisy
    for a flat search to beat a good heuristic on a small budget)."""
    root_arms: int = 8
    """With :attr:`anchored`: the heuristic's action plus this many others at most."""
    anchor_margin: float = 0.05
    """With :attr:`anchored`: how much better another action must look."""
    anchor_min_visits: int = 2
    """With :attr:`anchored`: the playouts the heuristic's action and another
    one both need before the other can replace it (a mean over a handful of
    noisy playouts is no evidence)."""

    @abc.abstractmethod
    def observer(self, view: V) -> Seat:
        """The seat a view belongs to (raise for a spectator's view)."""

    @abc.abstractmethod
    def easy(self, view: V, legal: Sequence[A], rng_state: int) -> tuple[A, int]:
        """Random legal moves with light sense."""

    @abc.abstractmethod
    def normal(self, view: V, legal: Sequence[A], rng_state: int) -> tuple[A, int]:
        """A heuristic written for the game (fast: no search)."""

    def candidates(self, view: V, legal: Sequence[A]) -> Sequence[A]:
        """The root actions ``hard`` searches, best first (a non-empty part
        of ``legal``). Default: all of them, in order. Games with many
        actions a decision narrow them with their heuristic, so that the
        search's budget goes to the plausible ones."""
        return legal

    def sample_state(self, view: V, seed: int) -> S:
        """A full state consistent with ``view`` (hidden parts drawn from ``seed``)."""
        return self.game.sample_state(view, seed)

    def playout(self, state: S, seat: Seat, legal: Sequence[A], rng_state: int) -> tuple[A, int]:
        """How a seat plays inside ``hard``'s simulations. Default: uniformly
        at random. Games override it with something quick but sensible."""
        return rng.choice(rng_state, legal)

    def playout_action(self, state: S, seat: Seat, rng_state: int) -> tuple[A, int]:
        """The move ``hard``'s playouts make for ``seat``: :meth:`playout` on
        the seat's legal actions, or, for a policy that keeps the default
        (uniformly random) :meth:`playout`, :meth:`Game.random_action`, which
        a game may draw without listing every action."""
        if type(self).playout is GamePolicy.playout:
            return self.game.random_action(state, seat, rng_state)
        return self.playout(state, seat, self.game.legal_actions(state, seat), rng_state)

    def evaluate(self, state: S, seat: Seat) -> float:
        """Estimated reward in [0, 1] of a non-final state for ``seat`` (used
        when a playout is cut, see :attr:`playout_depth`)."""
        return 0.5


class RandomPolicy(GamePolicy[Any, Any, Any]):
    """The stand-in for a game without its own policy (see
    ``make_bot(..., fallback=True)``): every level plays uniformly random legal
    moves, except ``hard``, which searches with random playouts when the game
    has a ``sample_state``. It keeps matches moving; it is no real opponent."""

    def __init__(self, game: Game[Any, Any, Any]) -> None:
        self.game = game

    def observer(self, view: Any) -> Seat:
        seat = getattr(view, "observer", None)
        if not isinstance(seat, int):
            raise ValueError("bots play a seat: this view names no observer seat")
        return seat

    def easy(self, view: Any, legal: Sequence[Any], rng_state: int) -> tuple[Any, int]:
        return rng.choice(rng_state, legal)

    def normal(self, view: Any, legal: Sequence[Any], rng_state: int) -> tuple[Any, int]:
        return rng.choice(rng_state, legal)
