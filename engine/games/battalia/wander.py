"""Buff le Sans Bannière's pure arithmetic: the horde's token, his paths
along the roads, the distinct bids of a hand and the auction's winner.

Nothing here reads the game state: the callers (``buff.py``) pass what is
needed (neighbours, where heroes stand, card strengths), so each rule is
tested on its own.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from itertools import combinations

Square = str

HORDE_FIRST = 6
"""The token Buff enters with (week 2): « un jeton universel de niveau 6 »."""
HORDE_STEP = 2
"""« Chaque semaine qui passe voit la force de la horde augmenter de 2 points »."""


def horde_for_week(week: int, cap: int = 0) -> int:
    """The horde's strength during ``week`` (1-based): 6 in week 2, then +2
    a week (F3: ``6 + 2(week - 2)``). Week 1 has no horde yet; it counts
    as 6. ``cap`` > 0 stops the growth there (option ``horde_cap``: the
    printed tokens end at 20); 0 lets it grow on, as the seed's « et ainsi
    de suite » says."""
    value = HORDE_FIRST + HORDE_STEP * max(0, week - 2)
    return min(value, cap) if cap > 0 else value


def buff_paths(
    start: Square,
    roll: int,
    neighbours: Callable[[Square], Iterable[Square]],
    stops: Callable[[Square], bool],
) -> list[tuple[Square, ...]]:
    """Every move Buff may make from ``start`` with a d6 of ``roll``: the
    squares he enters, 0 to ``roll`` road steps, never a square twice in the
    move (the start included, so never back), ending on the first square
    where ``stops`` (an attackable hero stands there). A dead end simply
    ends the paths through it (« les points restants sont perdus »).
    The empty path (staying) comes first, then the others in search order."""
    out: list[tuple[Square, ...]] = [()]

    def walk(square: Square, path: tuple[Square, ...], seen: frozenset[Square]) -> None:
        if len(path) == roll:
            return
        for nxt in sorted(neighbours(square)):
            if nxt in seen:
                continue
            step = (*path, nxt)
            out.append(step)
            if not stops(nxt):
                walk(nxt, step, seen | {nxt})

    walk(start, (), frozenset({start}))
    return out


def valid_path(
    start: Square,
    path: Sequence[Square],
    roll: int,
    neighbours: Callable[[Square], Iterable[Square]],
    stops: Callable[[Square], bool],
) -> str | None:
    """None when ``path`` is a legal Buff move, else why not: ``too-far``,
    ``not-connected``, ``revisit`` or ``past-hero`` (he must stop on the
    first square with an attackable hero)."""
    if len(path) > roll:
        return "too-far"
    seen = {start}
    here = start
    for i, square in enumerate(path):
        if square not in set(neighbours(here)):
            return "not-connected"
        if square in seen:
            return "revisit"
        if stops(square) and i < len(path) - 1:
            return "past-hero"
        seen.add(square)
        here = square
    return None


def distinct_bids(
    hand: Sequence[str], strength: Callable[[str], int], *, empty: bool
) -> list[tuple[str, ...]]:
    """The distinct bids a hand allows: every sub-multiset of its cards of
    non-zero strength (sorted codes), the smallest first. ``empty`` adds
    the empty bid; a hand with no such card always has the empty bid only."""
    cards = sorted(c for c in hand if strength(c) > 0)
    seen: set[tuple[str, ...]] = set()
    out: list[tuple[str, ...]] = []
    if empty or not cards:
        out.append(())
        seen.add(())
    for size in range(1, len(cards) + 1):
        for combo in combinations(cards, size):
            if combo not in seen:
                seen.add(combo)
                out.append(combo)
    return out


def auction_order(
    totals: Sequence[tuple[int, int, int]],
) -> list[int]:
    """The bidders who tie at the top after the totals and the victory
    points: ``totals`` holds ``(seat, total, vp)``; the result (sorted
    seats) has one seat unless chance must decide among several (« un des
    joueurs à égalité est choisi au hasard »)."""
    best = max((t, v) for _, t, v in totals)
    return sorted(s for s, t, v in totals if (t, v) == best)
