"""The numbers a unit rolls against: cohesion (seed 6, 16, 17; rulings B10) and the dice
of a fire (seed 8-10, 16, 18), written once for the rules, the views and the explanations."""

from __future__ import annotations

from .board import Board, _types, status_of
from .data import TypeDef
from .model import Card, Rules, State


def _position_bonus(state: State, b: Board, seat: int, p: int) -> tuple[str, int, bool]:
    """(status, the general's bonus, Bourg present) for ``seat``'s units in ``p``."""
    status = status_of(state.conquered, seat, p)
    g = b.general[seat][p]
    bonus = 0
    if g >= 0:
        gt = _types(state.rules)[state.armies[seat].cards[g].type]
        bonus = gt.attack if status == "attack" else gt.defence
    return status, bonus, "bourg" in b.terrain[p]


def _cohesion_of(
    rules: Rules, t: TypeDef, c: Card, status: str, bonus: int, bourg: bool
) -> tuple[int, tuple[tuple[str, int], ...]]:
    mods: list[tuple[str, int]] = []
    value = t.vc + t.save
    if t.save:
        mods.append(("save", t.save))
    if status == "defence" and t.category == "infantry":
        if bourg:
            mods.append(("bourg", 1))
            value += 1
        if c.entrenched and (not bourg or rules.entrenchment_stacks):
            mods.append(("retranchements", 1))
            value += 1
    if bonus:
        mods.append(("general", bonus))
        value += bonus
    return value, tuple(mods)


def _cohesion(
    state: State, b: Board, seat: int, c: Card
) -> tuple[int, tuple[tuple[str, int], ...]]:
    """Cohesion of a unit where it stands (seed 6, 16, 17; rulings B10):
    VC + save, + Bourg or Retranchements for defending infantry, + the
    general's A (attacking) or D (defending)."""
    t = _types(state.rules)[c.type]
    if c.loc < 0:
        return t.vc + t.save, ((("save", t.save),) if t.save else ())
    status, bonus, bourg = _position_bonus(state, b, seat, c.loc)
    return _cohesion_of(state.rules, t, c, status, bonus, bourg)


def _dice(
    state: State, b: Board, seat: int, t: TypeDef, mode: str, origin: int, at: int
) -> tuple[int, tuple[tuple[str, int], ...], int, str]:
    """(dice, modifiers, threshold, status) of a unit firing (seed 8-10, 16, 18)."""
    mods: list[tuple[str, int]] = []
    n = t.vc
    terrain = b.terrain[at]
    woods = -2 if t.category == "cavalry" else -1
    status = ""
    if mode == "melee":
        status = status_of(state.conquered, seat, origin)
        if status == "attack":
            threshold = t.fire_attack
            if "bois" in terrain:
                mods.append(("bois", woods))
                n += woods
        else:
            threshold = t.fire_defence
            if "hauteur" in terrain:
                mods.append(("hauteur", 1))
                n += 1
    elif mode in ("long-range", "counter-battery"):
        threshold = t.long_range
        if state.rules.long_range_terrain == "target" and "bois" in terrain:
            mods.append(("bois", -1))
            n -= 1
        if state.rules.long_range_hill and "hauteur" in b.terrain[origin]:
            mods.append(("hauteur", 1))  # option: the battery's own hill
            n += 1
    else:  # flank attack: only the attacked position's terrain applies
        threshold = 1 if origin // 3 == seat else 2
        if "bois" in terrain:
            mods.append(("bois", woods))
            n += woods
    return max(0, n), tuple(mods), threshold, status


def _dice_count(
    state: State, b: Board, seat: int, t: TypeDef, mode: str, origin: int, at: int
) -> int:
    """The number of dice of :func:`_dice` (whether a unit can fire): the
    unit's VC when neither position has terrain, :func:`_dice` otherwise."""
    terrain = b.terrain
    if not terrain[at] and not terrain[origin]:
        return t.vc
    return _dice(state, b, seat, t, mode, origin, at)[0]
