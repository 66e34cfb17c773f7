"""Helpers to build Battalia situations compactly, and the shared scenario
helpers (``tests/games/scenario.py``) bound to the game.

``scenario(...)`` starts from a real set-up played to seat 1's first turn
(factions ``u i a n`` in seat order, the start squares in the board's order:
seat 1 on a1, seat 2 on g1 ...; the market, the terrain decks and the Great
Artefacts as dealt), then lays out what a test needs::

    state = scenario(
        roads="a1-b1-c1 c1-c2",        # each square listed gets exactly these exits
        terrain={"c1": "lac"},          # default for new tiles: plaine
        cities={"c2": (1, 2)},          # square: (owner seat 0-based, level)
        heroes={"c1": ("1h1",)},        # 1-based seat refs
        hands=("1u 2u P P P", "Au"),
        day=3,
    )

Squares named in ``roads`` get road tiles with exactly those exits, except
the pre-printed pieces (start and neutral cities, the Ruins), which keep
theirs. In 2-player games seat 1 (Ursidés) starts on f6 and seat 2
(Insulaires) on b2: the last to choose a faction places first.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Any

from engine.core import Event, evolve
from engine.games.battalia import GAME
from engine.games.battalia.data import LAYOUTS, exits_of
from engine.games.battalia.model import Hero, Options, Rules, State, Tile
from tests.games import scenario as common
from tests.games.battalia_buff_helpers import layout_for, masks

g = GAME


def started(seats: int = 2, seed: int = 1, options: str = "buff=false") -> State:
    """A real game after its set-up: every seat's faction and start chosen."""
    state = g.setup(g.options(options), seats, seed)
    factions = "uian" if seats > 2 else "ui"
    for seat in range(seats):
        state, _ = g.apply(state, seat, g.parse_action(f"faction {factions[seat]}"))
    while state.phase == "start":
        seat = state.active
        square = next(iter(g.legal_actions(state, seat)))
        state, _ = g.apply(state, seat, square)
    assert state.phase == "turn" and state.active == 0
    return state


def scenario(
    *,
    seats: int = 2,
    seed: int = 1,
    options: str = "buff=false",
    roads: str = "",
    terrain: Mapping[str, str] | None = None,
    cities: Mapping[str, tuple[int | None, int]] | None = None,
    heroes: Mapping[str, Sequence[str]] | None = None,
    hands: Sequence[str] | None = None,
    decks: Sequence[str] | None = None,
    day: int | None = None,
    active: int = 0,
    first_action: bool = True,
) -> State:
    state = started(seats, seed, options)
    tiles = {t.square: t for t in state.tiles}
    terrain = dict(terrain or {})
    cities = dict(cities or {})
    for sq, mask in masks(roads).items():
        layout, rotation = layout_for(mask)
        old = tiles.get(sq)
        if old is not None and old.kind in ("start", "neutral", "ruins"):
            continue  # pre-printed pieces keep their exits
        kind = old.kind if old is not None and old.level else "road"
        owner, level = (old.owner, old.level) if old is not None else (None, 0)
        ground = terrain.get(sq, old.terrain if old is not None else "plaine")
        tiles[sq] = Tile(sq, kind, layout, rotation, ground, level, owner)
    for sq, (owner, level) in cities.items():
        t = tiles[sq]
        kind = t.kind if t.kind in ("start", "neutral") else "city"
        tiles[sq] = evolve(t, kind=kind, owner=owner, level=level)
    for sq, ground in terrain.items():
        tiles[sq] = evolve(tiles[sq], terrain=ground)
    hero_list = [
        Hero(int(ref[0]) - 1, int(ref[2]), sq)
        for sq, refs in (heroes or {}).items()
        for ref in refs
    ]
    players = list(state.players)
    for seat, cards in enumerate(hands or ()):
        players[seat] = evolve(players[seat], hand=tuple(cards.split()))
    for seat, cards in enumerate(decks or ()):
        players[seat] = evolve(players[seat], deck=tuple(cards.split()))
    return evolve(
        state,
        tiles=tuple(sorted(tiles.values(), key=lambda t: t.square)),
        heroes=tuple(sorted(hero_list, key=lambda h: (h.seat, h.index))),
        players=tuple(players),
        day=state.day if day is None else day,
        active=active,
        first_action=first_action,
    )


def act(state: State, *texts: str) -> tuple[State, list[Event]]:
    return common.act(g, state, *texts)


def act_as(state: State, seat: int, *texts: str) -> tuple[State, list[Event]]:
    return common.act_as(g, state, seat, *texts)


def legal(state: State, seat: int | None = None) -> set[str]:
    return common.legal(g, state, seat)


def refused(state: State, text: str, seat: int | None = None, **kw: Any) -> str:
    """Refused with a reason in both languages and not listed as legal:
    the refusal's key (``bt-refuse-…``)."""
    err = common.refused(g, state, text, seat, **kw)
    return err.msg.key


kinds = common.kinds
first = common.first
all_of = common.all_of

# ---------------------------------------------------------------------------
# Base-game scenario builders (test_battalia_base/map/costs/battles.py)
#
#     state = begun(3)                               # factions u i a, seat 1 on a1, 2 g1, 3 g7
#     state = lay(state, "a1-b1-c1", terrain={"b1": "foret"}, cities={"c1": (0, 2)})
#     state = heroes(state, {"b1": ("1h1",)})         # 1-based seat refs
#     state = hand(state, 0, "1u 2u P P")
#     state = on_day(state, 2)                        # Weapons illuminated
#
# ``lay`` adds new tiles whose exits are exactly the chained connections (a
# chain may start or end on an existing tile, which keeps its exits).
# ---------------------------------------------------------------------------

DIRS = {(0, -1): 1, (1, 0): 2, (0, 1): 4, (-1, 0): 8}
START_ORDER = {2: ("b2", "f6"), 3: ("a1", "g1", "g7"), 4: ("a1", "g1", "g7", "a7")}


def rules(**options: object) -> Rules:
    return Rules(**Options(**options).model_dump())  # type: ignore[arg-type]


def with_rules(state: State, **options: object) -> State:
    """The state with these options (the others at their default)."""
    return evolve(state, rules=rules(**options))


def begun(
    seats: int = 3,
    *,
    seed: int = 1,
    options: str = "",
    factions: str = "uian",
    starts: Sequence[str] | None = None,
) -> State:
    """A real set-up: factions chosen in seat order, start squares chosen
    (the last to choose a faction first); seat 0's first turn, day 1."""
    state = g.setup(g.options(options), seats, seed)
    for seat in range(seats):
        state, _ = g.apply_text(state, seat, f"faction {factions[seat]}")
    chosen = list(starts or START_ORDER[seats][:seats])
    for seat in reversed(range(seats)):
        state, _ = g.apply_text(state, seat, f"start {chosen[seat]}")
    assert state.phase == "turn" and state.active == 0 and state.day == 1
    return state


def _xy(sq: str) -> tuple[int, int]:
    return ord(sq[0]) - ord("a"), int(sq[1:]) - 1


def direction(a: str, b: str) -> int:
    (ax, ay), (bx, by) = _xy(a), _xy(b)
    return DIRS[(bx - ax, by - ay)]


def layout_of(mask: int, prefer: str = "") -> tuple[str, int]:
    """The layout and (lowest) rotation whose exits are exactly ``mask``."""
    for layout in (prefer, *LAYOUTS) if prefer else LAYOUTS:
        for rotation in range(4):
            if exits_of(layout, rotation) == mask:
                return layout, rotation
    raise ValueError(mask)


def chain_masks(roads: str) -> dict[str, int]:
    """``"a1-b1-c1 c1-c2"`` → every square's exit mask."""
    out: dict[str, int] = {}
    for chain in roads.split():
        squares = chain.split("-")
        for a, b in itertools.pairwise(squares):
            out[a] = out.get(a, 0) | direction(a, b)
            out[b] = out.get(b, 0) | direction(b, a)
    return out


def lay(
    state: State,
    roads: str = "",
    *,
    terrain: Mapping[str, str] | None = None,
    cities: Mapping[str, tuple[int | None, int]] | None = None,
    exits: Mapping[str, int] | None = None,
) -> State:
    """New tiles with exactly the chained connections (``exits`` adds dead
    exits towards empty squares: ``{"c1": 4}``); existing tiles are kept."""
    terrain = dict(terrain or {})
    cities = dict(cities or {})
    by_square = {t.square: t for t in state.tiles}
    wanted = chain_masks(roads)
    for sq, extra in (exits or {}).items():
        wanted[sq] = wanted.get(sq, 0) | extra
    new = []
    for sq, mask in sorted(wanted.items()):
        if sq in by_square:
            continue
        owner, level = cities.get(sq, (None, 0))
        layout, rotation = layout_of(mask, "D" if level and mask in (1, 2, 4, 8) else "")
        kind = "city" if sq in cities else "road"
        new.append(Tile(sq, kind, layout, rotation, terrain.get(sq, "plaine"), level, owner))
    tiles = sorted([*state.tiles, *new], key=lambda t: t.square)
    return evolve(state, tiles=tuple(tiles))


def tile(state: State, sq: str) -> Tile | None:
    return next((t for t in state.tiles if t.square == sq), None)


def retile(state: State, sq: str, **changes: object) -> State:
    """Change one tile's fields (owner, level, terrain ...)."""
    t = tile(state, sq)
    assert t is not None, sq
    tiles = tuple(evolve(t, **changes) if x.square == sq else x for x in state.tiles)
    return evolve(state, tiles=tiles)


def heroes(state: State, where: Mapping[str, Sequence[str]]) -> State:
    """Put heroes on squares: ``{"b1": ("1h1", "2h2")}`` (1-based seats)."""
    placed = {(h.seat, h.index): h for h in state.heroes}
    for sq, refs in where.items():
        for ref in refs:
            seat, index = int(ref[0]) - 1, int(ref[2])
            placed[(seat, index)] = Hero(seat, index, sq)
    return evolve(state, heroes=tuple(sorted(placed.values(), key=lambda h: (h.seat, h.index))))


def _player(state: State, seat: int, **changes: object) -> State:
    players = list(state.players)
    players[seat] = evolve(players[seat], **changes)
    return evolve(state, players=tuple(players))


def hand(state: State, seat: int, cards: str) -> State:
    return _player(state, seat, hand=tuple(cards.split()))


def deck(state: State, seat: int, cards: str) -> State:
    """The deck, its top card last."""
    return _player(state, seat, deck=tuple(cards.split()))


def discard(state: State, seat: int, cards: str) -> State:
    return _player(state, seat, discard=tuple(cards.split()))


def on_day(state: State, day: int) -> State:
    return evolve(state, day=day)


def stack(state: State, key: str) -> tuple[str, ...]:
    return next(cards for k, cards in state.market if k == key)


def with_stack(state: State, key: str, cards: str) -> State:
    """A market stack (top card last)."""
    new = tuple(cards.split())
    return evolve(state, market=tuple((k, new if k == key else c) for k, c in state.market))


def with_terrain_deck(state: State, kind: str, layout: str, terrains: str) -> State:
    field = "roads" if kind == "road" else "cities"
    new = tuple(terrains.split())
    decks = tuple((k, new if k == layout else c) for k, c in getattr(state, field))
    return evolve(state, **{field: decks})


def player(state: State, seat: int) -> Any:
    return state.players[seat]


def spots(state: State) -> set[str]:
    """The ``place`` notations offered now."""
    return {t for t in legal(state) if t.startswith("place ")}
