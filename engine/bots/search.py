"""``hard``: information-set Monte Carlo over determinisations, for any game.

Each iteration draws a full state consistent with the bot's view
(:meth:`GamePolicy.sample_state`: a *determinisation*), picks one of the
bot's legal actions by UCB1, applies it and plays the game out with the
policy's fast :meth:`GamePolicy.playout` for every seat. The most visited
action (ties: the best mean reward, then the first) is played: UCB1 visits
the actions that look best most often.

A policy can *anchor* the search on its ``normal`` heuristic
(:attr:`GamePolicy.anchored`): the root then holds the heuristic's action and
a few others drawn from the bot's generator, and the search's verdict
overrides the heuristic only when another action's mean reward is clearly
better. With long games and a small budget this keeps ``hard`` at least as
good as ``normal`` while still catching the moves the heuristic misjudges.

Because a fresh determinisation is drawn every iteration, the statistics of
an action are averaged over the worlds the bot cannot tell apart: it never
relies on one particular guess of the hidden cards (no peeking, and no
overconfidence in one deal). The search is deterministic for a given
generator state unless the budget has a clock.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TypeVar

from .. import rng
from ..core import Game, Seat
from .base import Budget, GamePolicy, reward

S = TypeVar("S")
A = TypeVar("A")
V = TypeVar("V")


def search(
    policy: GamePolicy[S, A, V],
    view: V,
    legal: Sequence[A],
    rng_state: int,
    budget: Budget,
) -> tuple[A, int, int]:
    """``(action, next_rng_state, iterations)``: flat UCB1 over the root's
    legal actions (those the policy's :meth:`GamePolicy.candidates` keeps),
    each iteration on a new determinisation."""
    game = policy.game
    seat = policy.observer(view)
    anchor: A | None = None
    if policy.anchored:
        anchor, rng_state = policy.normal(view, legal, rng_state)
    legal = list(policy.candidates(view, legal))
    if anchor is not None:
        others = [a for a in legal if a != anchor]
        if len(others) > policy.root_arms:
            picked: list[A] = []
            for _ in range(policy.root_arms):
                k, rng_state = rng.randbelow(rng_state, len(others))
                picked.append(others.pop(k))
            others = picked
        legal = [anchor, *others]
    if len(legal) == 1:
        return legal[0], rng_state, 0
    arms = len(legal)
    visits = [0] * arms
    totals = [0.0] * arms
    time_up = budget.deadline()
    c = policy.exploration
    iterations = 0
    while iterations < budget.iterations:
        if iterations >= arms and time_up():
            break
        iterations += 1
        seed, rng_state = rng.next_u64(rng_state)
        if iterations <= arms:
            arm = iterations - 1  # every action once, in order
        else:
            log_n = math.log(iterations)
            best = -1.0
            arm = 0
            for i in range(arms):
                n = visits[i]
                score = totals[i] / n + c * math.sqrt(log_n / n) if n else math.inf
                if score > best:
                    best, arm = score, i
        state = policy.sample_state(view, seed)
        action = legal[arm]
        if action not in game.legal_actions(state, seat):
            # the game's determinisation disagrees with the view; skip the world
            continue
        state, _ = game.apply(state, seat, action)
        value = playout(policy, state, seat, rng.seed_state(seed, "playout"))
        visits[arm] += 1
        totals[arm] += value
    if anchor is not None:
        choice = _anchored_choice(
            legal, visits, totals, policy.anchor_margin, policy.anchor_min_visits
        )
        return choice, rng_state, iterations
    best_arm = max(
        range(arms),
        key=lambda i: (visits[i], totals[i] / visits[i] if visits[i] else 0.0, -i),
    )
    return legal[best_arm], rng_state, iterations


def _anchored_choice(
    legal: Sequence[A],
    visits: Sequence[int],
    totals: Sequence[float],
    margin: float,
    min_visits: int = 2,
) -> A:
    """``legal[0]`` (the heuristic's action) unless another action, visited at
    least half as often as the most visited one and at least ``min_visits``
    times, has a mean reward better by more than ``margin``; the heuristic's
    action itself needs ``min_visits`` playouts before it can be overruled."""
    if visits[0] < max(1, min_visits):
        return legal[0]
    floor = max(2, min_visits, max(visits) // 2)
    best, best_mean = 0, totals[0] / visits[0] + margin
    for i in range(1, len(legal)):
        if visits[i] >= floor and totals[i] / visits[i] > best_mean:
            best, best_mean = i, totals[i] / visits[i]
    return legal[best]


def playout(policy: GamePolicy[S, A, V], state: S, seat: Seat, rng_state: int) -> float:
    """Play ``state`` out with the policy's playout moves
    (:meth:`GamePolicy.playout_action`: random ones through
    :meth:`Game.random_action`); ``seat``'s reward."""
    game: Game[S, A, V] = policy.game
    seats = game.seat_count(state)
    limit = policy.playout_depth or game.max_actions
    for _ in range(limit):
        outcome = game.outcome(state)
        if outcome is not None:
            return reward(outcome, seat, seats)
        pending = game.pending(state)
        mover = min(pending)
        action, rng_state = policy.playout_action(state, mover, rng_state)
        state, _ = game.apply(state, mover, action)
    outcome = game.outcome(state)
    if outcome is not None:
        return reward(outcome, seat, seats)
    return policy.evaluate(state, seat)
