"""The bot itself: one level of one game's policy, behind ``choose``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Generic, TypeVar

from .base import DEFAULT_BUDGET, LEVELS, BotChoice, BotError, Budget, GamePolicy, Level
from .search import search

S = TypeVar("S")
A = TypeVar("A")
V = TypeVar("V")


class Bot(Generic[S, A, V]):
    """One level of one game's bot. Stateless and thread-safe: hosts may call
    :meth:`choose` from worker threads (or processes: views are JSON-able)."""

    __slots__ = ("level", "policy")

    def __init__(self, policy: GamePolicy[S, A, V], level: Level) -> None:
        if level not in LEVELS:
            raise ValueError(f"unknown bot level {level!r}; levels: {', '.join(LEVELS)}")
        self.policy = policy
        self.level: Level = level

    def __repr__(self) -> str:
        return f"Bot({self.policy.game.info.id!r}, {self.level!r})"

    def choose(
        self, view: V, legal: Sequence[A], rng_state: int, budget: Budget | None = None
    ) -> tuple[A, int]:
        """``(action, next_rng_state)`` for the seat whose view this is."""
        choice = self.think(view, legal, rng_state, budget)
        return choice.action, choice.rng_state

    def think(
        self, view: V, legal: Sequence[A], rng_state: int, budget: Budget | None = None
    ) -> BotChoice[A]:
        """Like :meth:`choose`, with the search statistics."""
        if not legal:
            raise BotError(f"{self!r}: no legal action to choose from")
        legal = list(legal)
        if len(legal) == 1:
            return BotChoice(legal[0], rng_state)
        iterations = 0
        if self.level == "easy":
            action, rng_state = self.policy.easy(view, legal, rng_state)
        elif self.level == "normal":
            action, rng_state = self.policy.normal(view, legal, rng_state)
        else:
            try:
                action, rng_state, iterations = search(
                    self.policy, view, legal, rng_state, budget or DEFAULT_BUDGET
                )
            except ValueError:
                # A view the game could not turn back into a state (a sampler
                # bug; none known): play the normal heuristic rather than stall
                # the match.
                action, rng_state = self.policy.normal(view, legal, rng_state)
        if action not in legal:
            raise BotError(f"{self!r} chose {action!r}, which is not a legal action")
        return BotChoice(action, rng_state, iterations)
