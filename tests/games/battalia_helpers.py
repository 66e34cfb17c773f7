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

from collections.abc import Mapping, Sequence
from typing import Any

from engine.core import Event, evolve
from engine.games.battalia import GAME
from engine.games.battalia.model import Hero, State, Tile
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


def refused(state: State, text: str, seat: int | None = None, **kw: Any) -> Any:
    return common.refused(g, state, text, seat, **kw)


kinds = common.kinds
first = common.first
all_of = common.all_of
