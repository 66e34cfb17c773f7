"""Deterministic randomness that lives inside the game state.

The generator is SplitMix64: its whole state is one 64-bit integer, so it is
JSON-friendly and trivially immutable. Every function takes the state and
returns the result together with the *next* state; nothing here keeps a
hidden global, and the sequences never depend on the Python version (rules
code must never import :mod:`random`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

MASK64 = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def seed_state(seed: int, *salt: str) -> int:
    """Derive a generator state from a match seed (and optional salt words).

    Hashing spreads small seeds (0, 1, 2, ...) over the whole 64-bit space.
    """
    text = ":".join([str(seed), *salt]).encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big")


def next_u64(state: int) -> tuple[int, int]:
    """Return ``(value, next_state)``: one 64-bit output."""
    state = (state + _GOLDEN) & MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31), state


def randbelow(state: int, n: int) -> tuple[int, int]:
    """Uniform integer in ``[0, n)`` without modulo bias; ``(value, next_state)``."""
    if n <= 0:
        raise ValueError("randbelow needs n > 0")
    if n == 1:
        return 0, state
    limit = (1 << 64) - ((1 << 64) % n)
    while True:
        value, state = next_u64(state)
        if value < limit:
            return value % n, state


def roll(state: int, sides: int = 6) -> tuple[int, int]:
    """A die from 1 to ``sides``; ``(face, next_state)``."""
    value, state = randbelow(state, sides)
    return value + 1, state


def shuffle(state: int, items: Sequence[T]) -> tuple[tuple[T, ...], int]:
    """Fisher-Yates shuffle; ``(shuffled_tuple, next_state)``."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j, state = randbelow(state, i + 1)
        out[i], out[j] = out[j], out[i]
    return tuple(out), state


def choice(state: int, items: Sequence[T]) -> tuple[T, int]:
    """One element, uniformly; ``(element, next_state)``."""
    index, state = randbelow(state, len(items))
    return items[index], state


class Stream:
    """A small mutable cursor over the pure functions, for local use inside
    one ``apply`` call: take ``.state`` back into the new game state at the end."""

    __slots__ = ("state",)

    def __init__(self, state: int) -> None:
        self.state = state

    def below(self, n: int) -> int:
        value, self.state = randbelow(self.state, n)
        return value

    def roll(self, sides: int = 6) -> int:
        face, self.state = roll(self.state, sides)
        return face

    def shuffle(self, items: Sequence[T]) -> tuple[T, ...]:
        out, self.state = shuffle(self.state, items)
        return out
