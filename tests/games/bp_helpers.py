"""Helpers to build Belle Position situations from a compact description.

A situation lists, for each side, where its cards are, with absolute codes:
``FG FC FD`` (the French left, centre and right wings), ``AG AC AD`` (the
German ones), ``R`` (that side's reserve) and ``P`` (its pile, top first)::

    scenario(
        french={"FC": "ligne-francaise^ mac-mahon", "R": "ralliement"},
        german={"FC": "landwehr^#1", "AC": "garde-prussienne"},
    )

A card is a type id (or a name the army lists accept, ``Ligne Française``
written ``ligne-francaise``) followed by flags: ``^`` face up, ``#N`` N loss
tokens, ``!`` fought this turn, ``=N`` N moves made this turn, ``*`` Marche
Forcée, ``~`` Retranchements, ``?`` (reserve) known to the opponent.
Generals and terrain on the board are face up. Handles are given in the
order written: the first French card is F1. Seat 0 leads the French unless
the options say ``french_seat=2``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from typing import Any

from engine import rng
from engine.core import Event, evolve
from engine.games.belle_position import (
    GAME,
    GONE,
    PILE,
    RESERVE,
    Army,
    Card,
    State,
    TypeDef,
    _resolve,
    army_text,
    board,
    catalog,
    pack_type,
    type_def,
)
from tests.games import scenario as common

g = GAME

CODES = ("FG", "FC", "FD", "AG", "AC", "AD")
_TOKEN = re.compile(r"^([^#!=*~?^]+)((?:\^|#\d+|!|=\d|\*|~|\?)*)$")


def _card(spec: str, side: str, uid: str, loc: int, kinds: dict[str, str]) -> Card:
    m = _TOKEN.match(spec)
    if m is None:
        raise ValueError(f"bad card spec {spec!r}")
    name, flags = m.group(1), m.group(2)
    tid = name if name in kinds else _resolve(name, side)
    if tid is None:
        raise ValueError(f"unknown card {name!r}")
    kind = kinds.get(tid) or type_def(tid).kind
    up = "^" in flags or (loc >= 0 and kind in ("general", "terrain"))
    card = Card(uid, tid, loc).set(
        up=up,
        fought="!" in flags,
        forced="*" in flags,
        entrenched="~" in flags,
        known="?" in flags,
    )
    if t := re.search(r"#(\d+)", flags):
        card = card.set(tokens=int(t.group(1)))
    if mv := re.search(r"=(\d)", flags):
        card = card.set(moves=int(mv.group(1)))
    return card


def base(opts: str = "", seed: int = 1) -> State:
    return g.setup(g.options(opts), 2, seed)


def scenario(
    french: Mapping[str, str] | None = None,
    german: Mapping[str, str] | None = None,
    *,
    opts: str = "",
    active: int = 0,
    phase: str = "combat",
    conquered: Iterable[str] = (),
    dice: Sequence[int | tuple[int, ...]] | None = None,
    extra_types: Sequence[TypeDef] = (),
    seed: int = 1,
    turn: int = 3,
    **fields: Any,
) -> State:
    """A state in ``phase`` with ``active`` to play (see the module docstring)."""
    start = base(opts, seed)
    kinds = {t.id: t.kind for t in extra_types}
    defs = {t.id: t for t in extra_types}
    armies = []
    used: list[str] = []
    for army in start.armies:
        spec = french if army.side == "french" else german
        cards: list[Card] = []
        pile: list[int] = []
        for code, text in (spec or {}).items():
            if code == "R":
                loc = RESERVE
            elif code == "P":
                loc = PILE
            elif code == "X":
                loc = GONE
            else:
                loc = CODES.index(code)
            for token in text.split():
                uid = f"{army.letter}{len(cards) + 1}"
                card = _card(token, army.side, uid, loc, kinds)
                if loc == PILE:
                    pile.append(len(cards))
                cards.append(card)
                if card.type not in used:
                    used.append(card.type)
        counts: dict[str, int] = {}
        for c in cards:
            counts[c.type] = counts.get(c.type, 0) + 1
        known = [(tid, n) for tid, n in counts.items() if tid not in defs]
        known.sort(key=lambda kv: catalog().order.get(kv[0], 10_000))
        points = sum(type_def(tid).points * n for tid, n in known)
        armies.append(
            Army(
                side=army.side,
                letter=army.letter,
                cards=tuple(cards),
                pile=tuple(pile),
                points=points,
                text=army_text(known) if known else "",
                done=True,
            )
        )
    table = tuple(pack_type(defs[tid] if tid in defs else type_def(tid)) for tid in used)
    rules = evolve(start.rules, table=table)
    state = evolve(
        start,
        rules=rules,
        armies=(armies[0], armies[1]),
        phase=phase,
        active=active,
        turn=turn,
        first_player=0,
        rng=rig(*dice) if dice else start.rng,
    )
    b = board(state)
    flags = []
    for p in range(6):
        owner = p // 3
        flags.append(
            bool(b.units[1 - owner][p] and not b.units[owner][p]) or CODES[p] in set(conquered)
        )
    state = evolve(state, conquered=tuple(flags))
    return evolve(state, **fields) if fields else state


@cache
def rig(*faces: int | tuple[int, ...]) -> int:
    """A generator state whose next dice are ``faces`` (found by search); an
    entry may be a tuple of acceptable faces, such as ``(1, 2, 3)``."""
    wanted = [(f,) if isinstance(f, int) else f for f in faces]
    for i in range(5_000_000):
        state = rng.seed_state(i, "rig")
        s = state
        for allowed in wanted:
            got, s = rng.roll(s)
            if got not in allowed:
                break
        else:
            return state
    raise AssertionError(f"no generator state rolls {faces}")


LOW = (1, 2, 3)
HIGH = (4, 5)


def rolls(state_rng: int, n: int) -> list[int]:
    """The next ``n`` dice of a generator state."""
    out = []
    for _ in range(n):
        face, state_rng = rng.roll(state_rng)
        out.append(face)
    return out


def act(state: State, *texts: str) -> tuple[State, list[Event]]:
    """Apply notations in turn, each by the single seat that must decide."""
    return common.act(g, state, *texts, only=True)


def act_as(state: State, seat: int, *texts: str) -> tuple[State, list[Event]]:
    return common.act_as(g, state, seat, *texts)


def legal(state: State, seat: int | None = None) -> set[str]:
    return common.legal(g, state, seat)


kinds = common.kinds
first = common.first
all_of = common.all_of


def card(state: State, uid: str) -> Card:
    army = state.armies[0] if state.armies[0].letter == uid[0] else state.armies[1]
    return army.cards[int(uid[1:]) - 1]


def where(state: State, uid: str) -> str:
    """Where a card is: a position code, R, P, X (eliminated) or USED."""
    loc = card(state, uid).loc
    if loc >= 0:
        return CODES[loc]
    return {RESERVE: "R", PILE: "P", GONE: "X"}.get(loc, "USED")


def frozen(state: State) -> str:
    return common.frozen(g, state)
