"""Range (ruling L4: the seed's case tables, taken literally) and Loyauté.

The tables say from the striker's line to the struck piece's line whether
an attack, or a riposte, is possible; "enemy" is the struck piece's
battlefield, "ally" the striker's. Every other case is impossible (« Dans
tous les autres cas, l'attaque ou la riposte est impossible »).

* Corps à corps: (1) front→front; (2) front→arrière if no enemy unit on the
  enemy front; (3) arrière→front if no ally on your front; (4)
  arrière→arrière if no unit on either front line.
* Tir: (1) arrière→front; (2) front→arrière or front.
* Artillerie: (1) plaine→front; (2) arrière→arrière if no enemy unit on the
  enemy front; (3) front→any line.
"""

from __future__ import annotations

from .board import Ref, has_kw, line_has_fighter, piece_at
from .model import ARRIERE, FRONT, PLAINE, Piece, State


def melee_case(state: State, src: Ref, dst: Ref) -> int:
    """The melee case (1-4) that allows ``src`` to strike ``dst``, else 0."""
    a, b = src[1], dst[1]
    if a == FRONT and b == FRONT:
        return 1
    if a == FRONT and b == ARRIERE and not line_has_fighter(state, dst[0], FRONT):
        return 2
    if a == ARRIERE and b == FRONT and not line_has_fighter(state, src[0], FRONT):
        return 3
    if (
        a == ARRIERE
        and b == ARRIERE
        and not line_has_fighter(state, src[0], FRONT)
        and not line_has_fighter(state, dst[0], FRONT)
    ):
        return 4
    return 0


def tir_case(state: State, src: Ref, dst: Ref) -> int:
    a, b = src[1], dst[1]
    if a == ARRIERE and b == FRONT:
        return 1
    if a == FRONT and b in (ARRIERE, FRONT):
        return 2
    return 0


def artillery_case(state: State, src: Ref, dst: Ref) -> int:
    a, b = src[1], dst[1]
    if a == PLAINE and b == FRONT:
        return 1
    if a == ARRIERE and b == ARRIERE and not line_has_fighter(state, dst[0], FRONT):
        return 2
    if a == FRONT:
        return 3
    return 0


def in_range(state: State, src: Ref, striker: Piece, dst: Ref) -> bool:
    """May the piece at ``src`` strike (attack or riposte) the place ``dst``
    of another battlefield? A unit with Tir uses the Tir table, with
    Artillerie the Artillerie table (with both, either), else the melee one."""
    if src[0] == dst[0]:
        return False
    tir = has_kw(state, striker, "tir")
    artillery = has_kw(state, striker, "artillerie")
    if tir or artillery:
        return bool(
            (tir and tir_case(state, src, dst)) or (artillery and artillery_case(state, src, dst))
        )
    return bool(melee_case(state, src, dst))


def protected(state: State, ref: Ref) -> bool:
    """Loyauté: while a unit with Loyauté stands on a line, the other pieces
    of that line and of the lines behind it (front → arrière → plaine) cannot
    be fought. Loyal units of the same line do not protect each other."""
    piece = piece_at(state, ref)
    if piece is None:
        return False
    seat, line, _ = ref
    loyal_here = has_kw(state, piece, "loyaute")
    for other_line in range(line, FRONT + 1):
        for other in state.players[seat].lines[other_line]:
            if other is None or other.fixture or other.uid == piece.uid:
                continue
            if not has_kw(state, other, "loyaute"):
                continue
            if other_line > line or not loyal_here:
                return True
    return False
