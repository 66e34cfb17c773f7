"""Helpers to build Via Belli situations from a compact description.

A card on the table is written ``"0:Roturier@C5P"``: its owner's seat, its
name (``?`` before the name: face down, in ambush), its top-left cell and its
orientation (``P`` standing 3x4, ``L`` lying 4x3). Castles and terrain are
written the same way without a name: ``"A1L"`` (a castle lying at A1),
``"inn@K10P"`` (an inn, face up, uncontrolled), ``"?outpost@K3P"`` (face
down), ``"inn@K10P=1"`` (held by seat 1).

``draw(state)`` prints the table as text (to debug a scenario).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import i18n
from engine.core import Event, evolve
from engine.errors import RulesError
from engine.games.via_belli import (
    GAME,
    Castle,
    Player,
    Rect,
    State,
    Terrain,
    Unit,
    card_rect,
    card_table,
    cell_text,
    parse_cell,
)
from tests.games import scenario as common

g = GAME


def en(text: object) -> str:
    """An engine text (a ``Msg``, or a refusal's ``msg``) as an English player reads it."""
    return i18n.translate("en", text.msg if isinstance(text, RulesError) else text)  # type: ignore[arg-type]


def fr(text: object) -> str:
    """The same in French."""
    return i18n.translate("fr", text.msg if isinstance(text, RulesError) else text)  # type: ignore[arg-type]


def at(text: str) -> tuple[int, int, bool]:
    """``"C5P"`` -> (2, 4, False)."""
    text = text.strip().upper()
    land = text.endswith("L")
    cell = parse_cell(text[:-1])
    assert cell is not None, text
    return cell[0], cell[1], land


def unit(spec: str) -> Unit:
    owner, _, rest = spec.partition(":")
    name, _, where = rest.rpartition("@")
    hidden = name.startswith("?")
    x, y, land = at(where)
    return Unit(
        owner=int(owner),
        name=name.lstrip("?"),
        x=x,
        y=y,
        landscape=land,
        face_up=not hidden,
        free_attack=False,
    )


def terrain(spec: str) -> Terrain:
    text, _, ctrl = spec.partition("=")
    hidden = text.startswith("?")
    kind, _, where = text.lstrip("?").partition("@")
    x, y, land = at(where)
    assert kind in ("inn", "outpost")
    return Terrain(
        kind=kind,  # type: ignore[arg-type]
        x=x,
        y=y,
        landscape=land,
        revealed=not hidden,
        controller=int(ctrl) if ctrl else -1,
    )


def base(opts: str = "", seats: int = 2, seed: int = 1) -> State:
    return g.setup(g.options(opts), seats, seed=seed)


def full_deck(state: State) -> dict[str, int]:
    return {c.name: c.count for c in state.rules.cards}


def scenario(
    units: Sequence[str] = (),
    *,
    seats: int = 2,
    opts: str = "width=40 height=24 castle_gap=30 inns=0 outposts=0",
    castles: Sequence[str] | None = None,
    terrain_cards: Sequence[str] | None = None,
    hands: Sequence[str | Sequence[str]] | None = None,
    decks: Sequence[dict[str, int] | None] | None = None,
    discards: Sequence[Sequence[str]] | None = None,
    cups: Sequence[str] = (),
    active: int = 0,
    pa: int = 5,
    **fields: Any,
) -> State:
    """A state in phase ``turn`` where ``active`` has ``pa`` action points.

    Hands are lists of names (or comma-separated text); a draw pile defaults
    to the player's whole deck minus the cards elsewhere (hand, table,
    discard)."""
    state = base(opts, seats)
    if castles is not None:
        new_castles = []
        for seat, spec in enumerate(castles):
            x, y, land = at(spec)
            new_castles.append(Castle(owner=seat, x=x, y=y, landscape=land))
        state = evolve(state, castles=tuple(new_castles))
    if terrain_cards is not None:
        state = evolve(state, terrain=tuple(terrain(t) for t in terrain_cards))
    on_table = tuple(unit(u) for u in units)
    players = []
    order = [c.name for c in state.rules.cards]
    for seat in range(seats):
        hand: tuple[str, ...] = ()
        if hands is not None:
            spec = hands[seat]
            items = [h.strip() for h in spec.split(",")] if isinstance(spec, str) else list(spec)
            hand = tuple(h for h in items if h)
        discard = tuple(discards[seat]) if discards is not None else ()
        explicit = decks[seat] if decks is not None else None
        if explicit is None:
            counts = full_deck(state)
            for name in [*hand, *discard, *(u.name for u in on_table if u.owner == seat)]:
                counts[name] -= 1
                assert counts[name] >= 0, f"seat {seat} has too many {name}"
        else:
            counts = {name: explicit.get(name, 0) for name in order}
        players.append(
            Player(hand=hand, deck=tuple(counts[name] for name in order), discard=discard)
        )
    cup_rects = []
    for spec in cups:
        cell = parse_cell(spec)
        assert cell is not None
        cup_rects.append((cell[0], cell[1], 4, 4))
    state = evolve(
        state,
        units=on_table,
        players=tuple(players),
        cups=tuple(cup_rects) if cups else state.cups,
        phase="turn",
        active=active,
        pa=pa,
        turn=1,
        first_player=0,
        sel_kind="",
        sel_card="",
        sel_unit=None,
        sel_via=None,
        combat=None,
        last_seat=-1,
        last_action="",
        last_cells=(),
    )
    state = evolve(state, **fields) if fields else state
    check_table(state)
    return state


def check_table(state: State) -> None:
    """Every card inside the table, none over another card or a cup."""
    W, H = state.rules.width, state.rules.height
    rects = [(f"castle {i}", card_rect(c.x, c.y, c.landscape)) for i, c in enumerate(state.castles)]
    rects += [(f"terrain {t.kind}", card_rect(t.x, t.y, t.landscape)) for t in state.terrain]
    rects += [(f"{u.owner}:{u.name}", card_rect(u.x, u.y, u.landscape)) for u in state.units]
    rects += [("cup", Rect(x, y, w, h)) for x, y, w, h in state.cups]
    for i, (name, r) in enumerate(rects):
        assert r.inside(W, H), f"{name} leaves the table"
        for other, o in rects[i + 1 :]:
            assert not r.overlaps(o), f"{name} overlaps {other}"


def act(state: State, *texts: str) -> tuple[State, list[Event]]:
    """Apply notations in turn, each by the seat that must decide."""
    return common.act(g, state, *texts)


def legal(state: State, seat: int | None = None) -> set[str]:
    return common.legal(g, state, seat)


kinds = common.kinds
first = common.first


def unit_at(state: State, cell: str) -> Unit | None:
    c = parse_cell(cell)
    for u in state.units:
        if (u.x, u.y) == c:
            return u
    return None


def tags(state: State, seat: int | None = None) -> set[str]:
    """Top-left cells of the cards on the table (of one seat)."""
    return {
        cell_text(u.x, u.y) + ("L" if u.landscape else "P")
        for u in state.units
        if seat is None or u.owner == seat
    }


def frozen(state: State) -> str:
    return common.frozen(g, state)


def all_cards(state: State, seat: int) -> dict[str, int]:
    """Every card of a seat wherever it is (to check none is lost or doubled)."""
    order = [c.name for c in state.rules.cards]
    p = state.players[seat]
    out = dict(zip(order, p.deck, strict=True))
    for name in [*p.hand, *p.discard, *(u.name for u in state.units if u.owner == seat)]:
        out[name] += 1
    return out


def draw(state: State) -> str:
    """The table as text: castles ``#``, terrain ``I``/``O`` (``T`` face down),
    cards by owner digit (lower case letters when face down), cups ``~``."""
    W, H = state.rules.width, state.rules.height
    grid = [["." for _ in range(W)] for _ in range(H)]

    def paint(x: int, y: int, land: bool, ch: str) -> None:
        r = card_rect(x, y, land)
        for yy in range(r.y, r.y + r.h):
            for xx in range(r.x, r.x + r.w):
                grid[yy][xx] = ch

    for x, y, w, h in state.cups:
        for yy in range(y, y + h):
            for xx in range(x, x + w):
                grid[yy][xx] = "~"
    for c in state.castles:
        paint(c.x, c.y, c.landscape, "#")
    for t in state.terrain:
        paint(t.x, t.y, t.landscape, ("I" if t.kind == "inn" else "O") if t.revealed else "T")
    for u in state.units:
        paint(u.x, u.y, u.landscape, str(u.owner) if u.face_up else "abcd"[u.owner])
    table = card_table(state.rules)
    assert table
    return "\n".join("".join(row) for row in grid)
