"""Heroes (ruling 2.8): summoning onto an own city, paths along roads and
their cost (1 Provision a step, or a Horse for up to 3 steps, 6 when the
horse is illuminated; advanced game: steps entering your homeland are free,
never for Buff), and losing a hero.

A seat's heroes are ``h1`` and ``h2``; the Buff it has hired is ``b``.
Helper BUFF uses: :func:`lose_hero` (returns the state).
"""

from __future__ import annotations

import heapq
from collections import Counter
from collections.abc import Iterable

from ...core import Event, Seat, evolve
from . import buff
from .actions import Cards, Move, Summon, canon
from .board import road_map, tile_at
from .cards import play_cards
from .costs import choose
from .data import data, faction_terrain, great_by_code
from .model import Hero, State
from .oracle import illuminated


def hero_square(state: State, seat: Seat, hero: str) -> str | None:
    """Where the seat's hero stands (None: in the supply / not hired)."""
    if hero == "b":
        return state.buff.square if state.buff.owner == seat else None
    index = int(hero[1])
    for h in state.heroes:
        if h.seat == seat and h.index == index:
            return h.square
    return None


def heroes_of(state: State, seat: Seat) -> list[str]:
    """The seat's heroes on the board: ``h1``, ``h2``, ``b``."""
    out = [f"h{h.index}" for h in state.heroes if h.seat == seat]
    if state.buff.owner == seat and state.buff.square is not None:
        out.append("b")
    return sorted(out)


def in_supply(state: State, seat: Seat) -> int:
    return 2 - sum(1 for h in state.heroes if h.seat == seat)


def free_index(state: State, seat: Seat) -> int | None:
    used = {h.index for h in state.heroes if h.seat == seat}
    return next((i for i in (1, 2) if i not in used), None)


def own_cities(state: State, seat: Seat) -> list[str]:
    return [t.square for t in state.tiles if t.owner == seat and t.level > 0]


def homeland(state: State, seat: Seat, square: str) -> bool:
    tile = tile_at(state, square)
    faction = state.players[seat].faction
    return tile is not None and bool(faction) and tile.terrain == faction_terrain()[faction]


def step_is_free(state: State, seat: Seat, hero: str, square: str) -> bool:
    """Advanced game: a step entering your homeland is free (never for Buff)."""
    return state.rules.advanced and hero != "b" and homeland(state, seat, square)


def paid_steps(state: State, seat: Seat, hero: str, path: tuple[str, ...]) -> int:
    return sum(0 if step_is_free(state, seat, hero, sq) else 1 for sq in path)


def has_room(state: State, square: str) -> bool:
    """A hero may end a move, a summon or a retreat on ``square`` (option
    ``hero_limit``, 2.8 [P]: 0 = no limit). Buff counts as a hero."""
    limit = state.rules.hero_limit
    if not limit:
        return True
    here = sum(1 for h in state.heroes if h.square == square)
    here += 1 if state.buff.square == square else 0
    return here < limit


def buff_stop(state: State, seat: Seat, hero: str) -> str | None:
    """The square where the hero's move must stop: free Buff's, unless the
    seat is bribed (seed 004: « Si un héros se déplace sur une case contenant
    la figurine de Buff …, le héros est attaqué »; entering it is a move onto
    it, so no path goes past him). None when nothing stops the hero."""
    if hero == "b" or not buff.is_free(state) or buff.is_bribed(state, seat):
        return None
    return state.buff.square


def path_ok(state: State, start: str, path: tuple[str, ...], stop: str | None = None) -> bool:
    """Adjacent connected squares, none twice (the start included), and
    ``stop`` (see :func:`buff_stop`) only as the last square."""
    roads = road_map(state)
    seen = {start}
    here = start
    for i, sq in enumerate(path):
        if sq in seen or sq not in roads(here):
            return False
        if sq == stop and i < len(path) - 1:
            return False
        seen.add(sq)
        here = sq
    return True


def horse_cap(state: State, code: str) -> int:
    """Steps one horse card covers."""
    if code.startswith("G"):
        return great_by_code()[code].steps
    base = data().horse_steps
    return base * 2 if illuminated(state, "C") else base


def is_horse(code: str) -> bool:
    if code.startswith("G"):
        return great_by_code()[code].acts_as == "C"
    return code[0] == "C"


def move_payment_ok(state: State, cards: Iterable[str], steps: int) -> bool:
    """Provisions and horses covering ``steps`` with no card too many."""
    cards = list(cards)
    if any(c != "P" and not is_horse(c) for c in cards):
        return False
    p = cards.count("P")
    caps = sorted(horse_cap(state, c) for c in cards if c != "P")
    cover = p + sum(caps)
    if cover < steps:
        return False
    if p and cover - 1 >= steps:
        return False
    return not (caps and cover - caps[0] >= steps)


def move_payments(state: State, hand: Iterable[str], steps: int) -> list[Cards]:
    if steps == 0:
        return [()]
    pool = Counter(c for c in hand if c == "P" or is_horse(c))
    out: set[Cards] = set()
    horses = Counter({c: n for c, n in pool.items() if c != "P"})
    for h in range(0, sum(horses.values()) + 1):
        for chosen in choose(horses, h):
            cover = sum(horse_cap(state, c) for c in chosen)
            p = max(0, steps - cover)
            if p <= pool["P"]:
                cards = canon([*chosen, *(["P"] * p)])
                if move_payment_ok(state, cards, steps):
                    out.add(cards)
    return sorted(out)


def cheapest_paths(state: State, seat: Seat, hero: str, budget: int) -> dict[str, tuple[str, ...]]:
    """For every square the hero can reach paying at most ``budget`` steps,
    one path with the fewest paid steps (then the fewest steps)."""
    start = hero_square(state, seat, hero)
    if start is None:
        return {}
    stop = buff_stop(state, seat, hero)
    best: dict[str, tuple[int, int]] = {start: (0, 0)}
    paths: dict[str, tuple[str, ...]] = {start: ()}
    heap: list[tuple[int, int, str]] = [(0, 0, start)]
    roads = road_map(state)
    while heap:
        cost, length, sq = heapq.heappop(heap)
        if best.get(sq) != (cost, length) or sq == stop:
            continue  # a move entering Buff's square ends there
        for nxt in roads(sq):
            c = cost + (0 if step_is_free(state, seat, hero, nxt) else 1)
            if c > budget or nxt in paths[sq] or nxt == start:
                continue
            key = (c, length + 1)
            if nxt not in best or key < best[nxt]:
                best[nxt] = key
                paths[nxt] = (*paths[sq], nxt)
                heapq.heappush(heap, (c, length + 1, nxt))
    paths.pop(start)
    if state.rules.hero_limit:
        return {sq: p for sq, p in paths.items() if has_room(state, sq)}
    return paths


def summon(state: State, seat: Seat, action: Summon, events: list[Event]) -> State:
    state = play_cards(state, seat, action.cards)
    index = free_index(state, seat)
    assert index is not None
    heroes = (*state.heroes, Hero(seat, index, action.square))
    state = evolve(state, heroes=tuple(sorted(heroes, key=lambda h: (h.seat, h.index))))
    events.append(
        Event(
            "summon",
            {
                "seat": seat,
                "hero": f"h{index}",
                "square": action.square,
                "cards": list(action.cards),
            },
        )
    )
    return state


def place_hero(state: State, seat: Seat, hero: str, square: str) -> State:
    if hero == "b":
        return evolve(state, buff=evolve(state.buff, square=square))
    index = int(hero[1])
    heroes = tuple(
        Hero(h.seat, h.index, square) if (h.seat, h.index) == (seat, index) else h
        for h in state.heroes
    )
    return evolve(state, heroes=heroes)


def move(state: State, seat: Seat, action: Move, events: list[Event]) -> State:
    start = hero_square(state, seat, action.hero)
    state = play_cards(state, seat, action.cards)
    dest = action.path[-1]
    state = place_hero(state, seat, action.hero, dest)
    events.append(
        Event(
            "move",
            {
                "seat": seat,
                "hero": action.hero,
                "from": start,
                "path": list(action.path),
                "cards": list(action.cards),
            },
        )
    )
    if action.hero != "b":
        state, more = buff.on_hero_arrives(state, seat, action.hero, dest)
        events.extend(more)
    return state


def lose_hero(state: State, seat: Seat, hero: str) -> State:
    """The hero goes back to its owner's supply; the hired Buff (``b``) is
    removed from the board until the auction."""
    if hero in ("b", "buff"):
        return evolve(
            state,
            buff=evolve(state.buff, square=None, owner=None, hire_until=None, absent=True),
        )
    index = int(hero[1])
    heroes = tuple(h for h in state.heroes if (h.seat, h.index) != (seat, index))
    return evolve(state, heroes=heroes)
