"""A compact builder of Battalia situations for Buff's scenario tests.

``table(...)`` lays out a state directly (no set-up phase)::

    state = table(
        roads="a1-b1-c1 c1-c2",        # connections: each tile gets exactly these exits
        terrain={"c1": "lac"},          # default: plaine
        cities={"a1": (0, 1)},          # square: (owner seat, level); "start" kind on starts
        heroes={"c2": ("2h1",)},        # 1-based seat refs
        hands=("1u 2u P P P", "", ""),
        buff="a1",                       # Buff free on a1 (or buff=None: off the board)
        day=8,
    )

Seats are 0-based in the state and 1-based in refs (``2h1`` is seat 1's first
hero). Factions default to ``u i a n``; the phase is ``turn`` of ``active``.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence

from engine import rng
from engine.core import evolve
from engine.games.battalia.data import LAYOUTS, board, exits_of
from engine.games.battalia.model import BuffState, Hero, Options, Player, Rules, State, Tile

DIRS = {(0, -1): 1, (1, 0): 2, (0, 1): 4, (-1, 0): 8}


def _xy(sq: str) -> tuple[int, int]:
    return ord(sq[0]) - ord("a"), int(sq[1:]) - 1


def _direction(a: str, b: str) -> int:
    (ax, ay), (bx, by) = _xy(a), _xy(b)
    return DIRS[(bx - ax, by - ay)]


def layout_for(mask: int) -> tuple[str, int]:
    """The layout and rotation whose exits are exactly ``mask``."""
    for layout in LAYOUTS:
        for rotation in range(4):
            if exits_of(layout, rotation) == mask:
                return layout, rotation
    raise ValueError(mask)


def masks(roads: str) -> dict[str, int]:
    """``"a1-b1-c1 c1-c2"`` → every square's exit mask."""
    out: dict[str, int] = {}
    for chain in roads.split():
        squares = chain.split("-")
        for a, b in itertools.pairwise(squares):
            out[a] = out.get(a, 0) | _direction(a, b)
            out[b] = out.get(b, 0) | _direction(b, a)
    return out


def rules(**options: object) -> Rules:
    return Rules(**Options(**options).model_dump())  # type: ignore[arg-type]


def table(
    *,
    seats: int = 3,
    roads: str = "",
    terrain: Mapping[str, str] | None = None,
    cities: Mapping[str, tuple[int | None, int]] | None = None,
    heroes: Mapping[str, Sequence[str]] | None = None,
    hands: Sequence[str] = (),
    factions: str = "uian",
    buff: str | None = None,
    horde: int = 6,
    owner: int | None = None,
    hire_until: int | None = None,
    bribes: Sequence[tuple[int, int]] = (),
    entered: bool = True,
    day: int = 8,
    active: int = 0,
    phase: str = "turn",
    seed: int = 1,
    options: Mapping[str, object] | None = None,
) -> State:
    terrain = dict(terrain or {})
    cities = dict(cities or {})
    starts = {sq for sq, _, _ in board(seats).starts[:seats]}
    tiles = []
    for sq, mask in sorted(masks(roads).items()):
        layout, rotation = layout_for(mask)
        owner_seat, level = cities.get(sq, (None, 0))
        kind = "road" if sq not in cities else ("start" if sq in starts else "city")
        tiles.append(Tile(sq, kind, layout, rotation, terrain.get(sq, "plaine"), level, owner_seat))
    hero_list = []
    for sq, refs in (heroes or {}).items():
        for ref in refs:
            hero_list.append(Hero(int(ref[0]) - 1, int(ref[2]), sq))
    players = []
    for seat in range(seats):
        hand = tuple(hands[seat].split()) if seat < len(hands) else ()
        players.append(Player(seat, faction=factions[seat], hand=hand))
    state_buff = BuffState(
        square=buff,
        horde=horde,
        owner=owner,
        hire_until=hire_until,
        bribes=tuple(bribes),
        absent=buff is None and entered,
        entered=entered,
    )
    return State(
        rules=rules(**(options or {})),
        seats=seats,
        rng=rng.seed_state(seed, "buff-test"),
        phase=phase,
        active=active,
        day=day,
        players=tuple(players),
        tiles=tuple(tiles),
        heroes=tuple(sorted(hero_list, key=lambda h: (h.seat, h.index))),
        buff=state_buff,
        provisions=50,
    )


def with_hand(state: State, seat: int, cards: str) -> State:
    players = list(state.players)
    players[seat] = evolve(players[seat], hand=tuple(cards.split()))
    return evolve(state, players=tuple(players))


def with_deck(state: State, seat: int, cards: str) -> State:
    players = list(state.players)
    players[seat] = evolve(players[seat], deck=tuple(cards.split()))
    return evolve(state, players=tuple(players))
