"""Exact recipe matching (table 2.7): a payment fills its recipe's slots with
no card too many. Slots: ``P``, ``u1``..``u4`` (a unit of that rank, any
faction, mercenaries included), an artefact type (a Great Artefact fills its
``acts_as`` type). When building, a Tool fills 2 rank-1 slots (4 when the
tool is illuminated). Payments are enumerated as distinct multisets.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from functools import cache, lru_cache
from itertools import count, product

from .actions import Cards, canon
from .data import data, great_by_code
from .model import State
from .oracle import illuminated


@cache
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


@cache
def _slots(name: str, tools: int) -> tuple[frozenset[str], int]:
    """The slots :func:`payments` of recipe ``name`` reads from a hand, and
    the ``tools`` value that matters (0 when Tools cannot stand in)."""
    recipe = recipe_of(name)
    slots = {k for k, v in recipe.items() if v}
    if tools and "O" not in recipe and recipe.get("u1"):
        slots.add("O")
    else:
        tools = 0
    return frozenset(slots), tools


@lru_cache(maxsize=8192)
def _pays(cards: tuple[str, ...], name: str, tools: int) -> tuple[Cards, ...]:
    return tuple(payments(cards, recipe_of(name), tools=tools))


def pays(hand: Iterable[str], name: str, *, tools: int = 0) -> tuple[Cards, ...]:
    """:func:`payments` of the recipe called ``name`` (a shared tuple),
    memoised on the hand as given, then on the cards of it the recipe can use."""
    hand = tuple(hand)
    key = (hand, name, tools)
    hit = _BY_HAND.get(key)
    if hit is not None:
        return hit
    slots, used_tools = _slots(name, tools)
    found = _pays(tuple(sorted(c for c in hand if slot_of(c) in slots)), name, used_tools)
    if len(_BY_HAND) > 8192:
        _BY_HAND.clear()
    _BY_HAND[key] = found
    return found


_BY_HAND: dict[tuple[tuple[str, ...], str, int], tuple[Cards, ...]] = {}


def payments_for(hand: Iterable[str], name: str, *, tools: int = 0) -> list[Cards]:
    """:func:`payments` of the recipe called ``name``, memoised on the hand."""
    return list(pays(hand, name, tools=tools))


def matches_recipe(cards: Iterable[str], name: str, tools: int = 0) -> bool:
    """:func:`matches` of the recipe called ``name``, memoised."""
    return _matches(tuple(cards), name, tools)


@lru_cache(maxsize=16384)
def _matches(cards: tuple[str, ...], name: str, tools: int) -> bool:
    return matches(cards, recipe_of(name), tools=tools)


def slot_counts(hand: tuple[str, ...]) -> dict[str, int]:
    """How many cards of the hand fill each recipe slot."""
    counts: dict[str, int] = {}
    for c in hand:
        slot = slot_of(c)
        counts[slot] = counts.get(slot, 0) + 1
    return counts


def affordable(hand: tuple[str, ...], tools: int = 0) -> Callable[[str], bool]:
    """``can(name)``: whether ``hand`` can pay the recipe called ``name``
    exactly (:func:`can_pay`), memoised per hand's slot counts and recipe."""
    hit = _SIG_OF_HAND.get(hand)
    if hit is None:
        signature = tuple(sorted(slot_counts(hand).items()))
        hit = _SIGNATURES.get(signature)
        if hit is None:
            if len(_SIGNATURES) > 4096:  # bounded memos: start again
                _SIGNATURES.clear()
                _SIG_OF_HAND.clear()
                _FEASIBLE.clear()
            hit = _SIGNATURES[signature] = (next(_SIG_IDS), dict(signature))
        if len(_SIG_OF_HAND) > 8192:
            _SIG_OF_HAND.clear()
        _SIG_OF_HAND[hand] = hit
    sig, counts = hit  # ids are never reused, so a key never meets other counts

    def can(name: str) -> bool:
        key = (sig, name, tools)
        found = _FEASIBLE.get(key)
        if found is None:
            if len(_FEASIBLE) > 65536:
                _FEASIBLE.clear()
            found = _FEASIBLE[key] = _feasible(counts, name, tools)
        return found

    return can


_SIG_IDS = count()
_SIG_OF_HAND: dict[tuple[str, ...], tuple[int, dict[str, int]]] = {}
_SIGNATURES: dict[tuple[tuple[str, int], ...], tuple[int, dict[str, int]]] = {}
"""Slot counts seen, with their id (a few hundred: hands hold few slots)."""
_FEASIBLE: dict[tuple[int, str, int], bool] = {}


def can_pay(hand: tuple[str, ...], name: str, *, tools: int = 0) -> bool:
    """Whether ``hand`` has at least one exact payment of the recipe called
    ``name`` (``bool(payments(...))``, without listing them)."""
    return affordable(hand, tools)(name)


def _feasible(counts: dict[str, int], name: str, tools: int) -> bool:
    """Whether a hand of these slot counts can pay the recipe exactly: some
    variant of it (Tools standing in for rank-1 units when building, as
    :func:`payments` tries them) finds enough cards in every slot."""
    recipe = recipe_of(name)
    if all(counts.get(k, 0) >= v for k, v in recipe.items()):
        return True
    tools = _slots(name, tools)[1]
    if not tools:
        return False
    need = recipe["u1"]
    for t in range(1, counts.get("O", 0) + 1):
        real = max(0, need - t * tools)
        if real + (t - 1) * tools >= need:
            break
        variant = {**recipe, "u1": real, "O": t}
        if all(counts.get(k, 0) >= v for k, v in variant.items()):
            return True
    return False
