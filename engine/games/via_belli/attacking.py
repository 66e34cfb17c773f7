"""What can attack what (V9, the Archer's reach) and for how many PA."""

from __future__ import annotations

from ...core import Seat
from .board import Board, board_of
from .model import State


def _min_cost(state: State, b: Board, attackers: list[int]) -> int:
    return 0 if any(b.unit(a).free_attack for a in attackers) else 1


def _targets(state: State, seat: Seat, first_only: bool = False) -> list[int]:
    b = board_of(state)
    out = []
    for t, attackers in b.attack_map(seat).items():
        if _min_cost(state, b, attackers) <= state.pa:
            out.append(t)
            if first_only:
                break
    return out


def _attack_groups(state: State, seat: Seat, target: int) -> list[tuple[int, ...]]:
    """Every set of attackers the seat can afford against ``target``."""
    b = board_of(state)
    key = ("groups", seat, target, state.pa)
    hit = b.memo.get(key)
    if hit is not None:
        return hit  # type: ignore[return-value]
    attackers = b.attack_map(seat).get(target, [])
    pa = state.pa
    costs = [0 if b.unit(a).free_attack else 1 for a in attackers]
    n = len(attackers)
    out = []
    for mask in range(1, 1 << n):
        cost = 0
        group = []
        for i in range(n):
            if mask >> i & 1:
                cost += costs[i]
                group.append(attackers[i])
        if cost <= pa:
            out.append(tuple(group))
    out.sort(key=lambda g: (len(g), [(b.X[a], b.Y[a]) for a in g]))
    b.memo[key] = out
    return out
