"""Exact recipe matching (table 2.7): a payment fills its recipe's slots with
no card too many. Slots: ``P``, ``u1``..``u4`` (a unit of that rank, any
faction, mercenaries included), an artefact type (a Great Artefact fills its
``acts_as`` type). When building, a Tool fills 2 rank-1 slots (4 when the
tool is illuminated). Payments are enumerated as distinct multisets.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from functools import lru_cache
from itertools import product

from .actions import Cards, canon
from .data import data, great_by_code
from .model import State
from .oracle import illuminated


def slot_of(code: str) -> str:
    """The recipe slot a card fills (``""``: none)."""
    if code == "P":
        return "P"
    if code[0].isdigit():
        return f"u{code[0]}"
    if code.startswith("G"):
        return great_by_code()[code].acts_as
    return code[0]


def tool_value(state: State) -> int:
    """Rank-1 slots one Tool fills when building."""
    base = data().tool_frimen
    return base * 2 if illuminated(state, "O") else base


def matches(cards: Iterable[str], recipe: dict[str, int], *, tools: int = 0) -> bool:
    """Whether ``cards`` fill ``recipe`` exactly; ``tools`` > 0: Tools count
    as that many rank-1 units each (building)."""
    have = Counter(slot_of(c) for c in cards)
    n_tools = have.pop("O", 0) if tools and "O" not in recipe else 0
    if n_tools:
        need = recipe.get("u1", 0)
        real = have.get("u1", 0)
        if real + n_tools * tools < need or real + (n_tools - 1) * tools >= need:
            return False
        if real > need or (real and real - 1 + n_tools * tools >= need):
            return False
        have["u1"] = need
    return dict(have) == {k: v for k, v in recipe.items() if v}


def choose(pool: Counter[str], n: int) -> Iterator[tuple[str, ...]]:
    """Distinct multisets of ``n`` codes from ``pool``."""
    codes = sorted(pool)

    def rec(i: int, left: int) -> Iterator[tuple[str, ...]]:
        if left == 0:
            yield ()
            return
        if i >= len(codes):
            return
        code = codes[i]
        for k in range(min(pool[code], left), -1, -1):
            for rest in rec(i + 1, left - k):
                yield (code,) * k + rest

    return rec(0, n)


def payments(hand: Iterable[str], recipe: dict[str, int], *, tools: int = 0) -> list[Cards]:
    """Every distinct payment of ``recipe`` from ``hand`` (canonical order)."""
    by_slot: dict[str, Counter[str]] = {}
    for c in hand:
        by_slot.setdefault(slot_of(c), Counter())[c] += 1
    variants: list[dict[str, int]] = [dict(recipe)]
    tool_pool = by_slot.get("O", Counter())
    if tools and "O" not in recipe and recipe.get("u1") and tool_pool:
        need = recipe["u1"]
        for t in range(1, sum(tool_pool.values()) + 1):
            real = max(0, need - t * tools)
            if real + (t - 1) * tools >= need:
                break
            variants.append({**recipe, "u1": real, "O": t})
    out: list[Cards] = []
    for variant in variants:
        parts = []
        for slot, n in variant.items():
            if n == 0:
                continue
            pool = by_slot.get(slot, Counter())
            if sum(pool.values()) < n:
                break
            parts.append(list(choose(pool, n)))
        else:
            for combo in product(*parts):
                out.append(canon([c for part in combo for c in part]))
    return out


def recipe_of(name: str) -> dict[str, int]:
    return data().costs[name]


@lru_cache(maxsize=8192)
def _pays(hand: tuple[str, ...], name: str, tools: int) -> tuple[Cards, ...]:
    return tuple(payments(hand, recipe_of(name), tools=tools))


def payments_for(hand: Iterable[str], name: str, *, tools: int = 0) -> list[Cards]:
    """:func:`payments` of the recipe called ``name``, memoised on the hand."""
    return list(_pays(tuple(sorted(hand)), name, tools))
