"""The battlefield: positions and their codes, where every card is (:class:`Board`, derived
from the armies and memoised), grouping capacity, movement allowances, card signatures."""

from __future__ import annotations

import dataclasses
import threading
from bisect import bisect_left, insort
from collections.abc import Mapping, Sequence
from typing import Any

from .data import GONE, RESERVE, WINGS, TypeDef, unpack_type
from .model import _KNOWN, Army, Card, CardView, Rules, State, Test


def opposite(p: int) -> int:
    """The enemy position facing ``p`` (one's left faces the enemy's right)."""
    return (1 - p // 3) * 3 + (2 - p % 3)


def lateral(p: int) -> tuple[int, ...]:
    line, wing = divmod(p, 3)
    return tuple(line * 3 + w for w in (wing - 1, wing + 1) if 0 <= w <= 2)


def relative_code(seat: int, p: int) -> str:
    if p == RESERVE:
        return "R"
    line, wing = divmod(p, 3)
    return WINGS[wing] if line == seat else "E" + WINGS[wing]


def absolute_of(seat: int, code: str) -> int:
    if code == "R":
        return RESERVE
    if code.startswith("E"):
        return (1 - seat) * 3 + WINGS.index(code[1])
    return seat * 3 + WINGS.index(code)


def _abs_code(state: State, p: int) -> str:
    if p == RESERVE:
        return "R"
    return state.armies[p // 3].letter + WINGS[p % 3]


class _Caches(threading.local):
    """The engine's memos, one set per thread: bots and renders work in
    threads, and a memo shared between threads could hand one thread's
    board or move keys to another thread's state."""

    def __init__(self) -> None:
        self.types: dict[int, tuple[tuple[str, ...], dict[str, TypeDef], dict[str, str]]] = {}
        self.boards: dict[int, tuple[tuple[Army, Army], Board]] = {}
        self.last_board: list[tuple[tuple[Army, Army], Board, Mapping[str, str]]] = []
        self.card_views: dict[tuple[object, ...], CardView] = {}
        # the rules, and for them: a card's signature -> the number of its _move_key
        self.sig_keys: list[Any] = [None, {}]
        self.move_key_ids: dict[tuple[object, ...] | None, int] = {None: -1}


_LOCAL = _Caches()


def _types(rules: Rules) -> dict[str, TypeDef]:
    """The card types of a state's rules, by id (memoised by identity)."""
    entry = _LOCAL.types.get(id(rules.table))
    if entry is None or entry[0] is not rules.table:
        if entry is not None or len(_LOCAL.types) > 64:
            _LOCAL.types.clear()
            _LOCAL.card_views.clear()  # their keys hold ids of the dicts dropped here
        defs = [unpack_type(line) for line in rules.table]
        entry = (rules.table, {t.id: t for t in defs}, {t.id: t.kind for t in defs})
        _LOCAL.types[id(rules.table)] = entry
    return entry[1]


def _type_list(rules: Rules) -> tuple[TypeDef, ...]:
    """The card types of a state's rules, in table order."""
    return tuple(_types(rules).values())


def _kinds(rules: Rules) -> dict[str, str]:
    """Card type id -> kind (unit, general, terrain, special)."""
    _types(rules)
    return _LOCAL.types[id(rules.table)][2]


class Board:
    """Where every card is, by seat and position (derived from the armies).

    Read only once built: a board derived from another one (:meth:`derive`)
    shares the lists that did not change."""

    __slots__ = ("alive", "general", "reserve", "terrain", "terrain_cards", "units")

    def __init__(self, armies: tuple[Army, Army], kinds: Mapping[str, str]) -> None:
        self.units: tuple[list[list[int]], list[list[int]]] = (
            [[], [], [], [], [], []],
            [[], [], [], [], [], []],
        )
        self.general: tuple[list[int], list[int]] = ([-1] * 6, [-1] * 6)
        self.terrain: list[list[str]] = [[], [], [], [], [], []]
        self.terrain_cards: list[list[tuple[int, int]]] = [[], [], [], [], [], []]
        self.reserve: tuple[list[int], list[int]] = ([], [])
        self.alive = [0, 0]  # units not eliminated, per seat
        for s, army in enumerate(armies):
            units = self.units[s]
            alive = 0
            for i, c in enumerate(army.cards):
                loc = c.loc
                if loc >= 0:
                    kind = kinds[c.type]
                    if kind == "unit":
                        units[loc].append(i)
                        alive += 1
                    elif kind == "general":
                        self.general[s][loc] = i
                    else:
                        self.terrain[loc].append(c.type)
                        self.terrain_cards[loc].append((s, i))
                elif loc == RESERVE:
                    self.reserve[s].append(i)
                    if kinds[c.type] == "unit":
                        alive += 1
                elif loc != GONE and kinds[c.type] == "unit":
                    alive += 1
            self.alive[s] = alive

    def derive(
        self, old: tuple[Army, Army], new: tuple[Army, Army], kinds: Mapping[str, str]
    ) -> Board | None:
        """The board of ``new``, from this board of ``old``, when a few cards
        changed place or type (None: too many changes, build it afresh).
        Lists are in card order, exactly as :meth:`__init__` builds them."""
        changes = _changed_cards(old, new)
        if changes is None:
            return None
        return self.derive_changes(changes, kinds)

    def derive_changes(
        self, changes: Sequence[tuple[int, int, Card, Card]], kinds: Mapping[str, str]
    ) -> Board | None:
        """This board with the cards ``(seat, index, old card, new card)``
        moved (None: the boards disagree, build it afresh)."""
        b = Board.__new__(Board)
        b.units = (list(self.units[0]), list(self.units[1]))
        b.general = self.general
        b.terrain = list(self.terrain)
        b.terrain_cards = list(self.terrain_cards)
        b.reserve = self.reserve
        b.alive = self.alive
        copied: set[object] = set()  # the lists already copied (copy on write)
        for s, i, x, y in changes:
            if not b._shift(s, i, x, False, kinds, copied):
                return None
            if not b._shift(s, i, y, True, kinds, copied):
                return None
        return b

    def _shift(
        self, s: int, i: int, c: Card, adding: bool, kinds: Mapping[str, str], copied: set[object]
    ) -> bool:
        """Take card ``i`` of seat ``s`` out of the place ``c`` says (or put it
        there when ``adding``), copying each shared list before its first
        change (False: the boards disagree, build it afresh)."""
        loc = c.loc
        if loc >= 0:
            kind = kinds[c.type]
            if kind == "unit":
                ukey = ("u", s, loc)
                if ukey not in copied:
                    copied.add(ukey)
                    self.units[s][loc] = list(self.units[s][loc])
                if adding:
                    insort(self.units[s][loc], i)
                else:
                    self.units[s][loc].remove(i)
            elif kind == "general":
                if "g" not in copied:
                    copied.add("g")
                    self.general = (list(self.general[0]), list(self.general[1]))
                if self.general[s][loc] != (-1 if adding else i):
                    return False
                self.general[s][loc] = i if adding else -1
            else:
                self._shift_terrain(s, i, c, adding, copied)
        elif loc == RESERVE:
            if "r" not in copied:
                copied.add("r")
                self.reserve = (list(self.reserve[0]), list(self.reserve[1]))
            if adding:
                insort(self.reserve[s], i)
            else:
                self.reserve[s].remove(i)
        if loc != GONE and kinds[c.type] == "unit":
            if "a" not in copied:
                copied.add("a")
                self.alive = list(self.alive)
            self.alive[s] += 1 if adding else -1
        return True

    def _shift_terrain(self, s: int, i: int, c: Card, adding: bool, copied: set[object]) -> None:
        loc = c.loc
        tkey = ("t", loc)
        if tkey not in copied:
            copied.add(tkey)
            self.terrain[loc] = list(self.terrain[loc])
            self.terrain_cards[loc] = list(self.terrain_cards[loc])
        if adding:
            k = bisect_left(self.terrain_cards[loc], (s, i))
            self.terrain_cards[loc].insert(k, (s, i))
            self.terrain[loc].insert(k, c.type)
        else:
            k = self.terrain_cards[loc].index((s, i))
            del self.terrain_cards[loc][k]
            del self.terrain[loc][k]

    def present(self, seat: int, p: int) -> bool:
        """Has ``seat`` any card (unit or general) in ``p``?"""
        return bool(self.units[seat][p]) or self.general[seat][p] >= 0

    def engaged(self, p: int) -> bool:
        return self.present(0, p) and self.present(1, p)


def _changed_cards(
    old: tuple[Army, Army], new: tuple[Army, Army]
) -> list[tuple[int, int, Card, Card]] | None:
    """(seat, index, old card, new card) for the cards that changed place or
    type between two armies (None: too many, or the armies differ in size)."""
    changes: list[tuple[int, int, Card, Card]] = []
    for s in (0, 1):
        oa = old[s]
        na = new[s]
        if oa is na or oa.cards is na.cards:
            continue
        oc = oa.cards
        nc = na.cards
        if len(oc) != len(nc):
            return None
        for i, x in enumerate(oc):
            y = nc[i]
            if x is not y and (x.loc != y.loc or x.type != y.type):
                changes.append((s, i, x, y))
        if len(changes) > 8:
            return None
    return changes


def board(state: State) -> Board:
    """The board of a state (memoised by the identity of its armies; a new
    one is derived from the last board asked for when only a few cards
    changed, which is the common case from one state to the next)."""
    armies = state.armies
    entry = _LOCAL.boards.get(id(armies))
    if entry is None or entry[0] is not armies:
        kinds = _kinds(state.rules)
        b = None
        if _LOCAL.last_board:
            last_armies, last, last_kinds = _LOCAL.last_board[0]
            if last_kinds is kinds:
                b = last.derive(last_armies, armies, kinds)
        if b is None:
            b = Board(armies, kinds)
        _keep_board(armies, b, kinds)
        return b
    if not _LOCAL.last_board or _LOCAL.last_board[0][0] is not armies:
        _LOCAL.last_board[:] = [(armies, entry[1], _kinds(state.rules))]
    return entry[1]


def _keep_board(armies: tuple[Army, Army], b: Board, kinds: Mapping[str, str]) -> None:
    """Memoise ``b`` as the board of ``armies`` (and the last one asked for)."""
    boards = _LOCAL.boards
    if len(boards) >= 16:
        boards.pop(next(iter(boards)))
    boards[id(armies)] = (armies, b)
    _LOCAL.last_board[:] = [(armies, b, kinds)]


def _carry_board(
    state: State, armies: tuple[Army, Army], seat: int, i: int, old: Card, new: Card
) -> None:
    """The armies of ``state`` became ``armies`` by card ``i`` of ``seat``
    changing from ``old`` to ``new`` (and, at most, other cards changing
    their status bits): when the board of ``state`` is known, the board of
    ``armies`` is made from it at once, with no search for what changed (the
    same board when the card kept its place)."""
    entry = _LOCAL.boards.get(id(state.armies))
    if entry is None or entry[0] is not state.armies:
        return
    kinds = _kinds(state.rules)
    b: Board | None = entry[1]
    if old.loc != new.loc or old.type != new.type:
        assert b is not None
        b = b.derive_changes([(seat, i, old, new)], kinds)
        if b is None:
            return
    assert b is not None
    _keep_board(armies, b, kinds)


def _carry_same_board(state: State, armies: tuple[Army, Army]) -> None:
    """The armies of ``state`` became ``armies`` with no card changing place
    or type: they share the board, when it is known."""
    entry = _LOCAL.boards.get(id(state.armies))
    if entry is not None and entry[0] is state.armies:
        _keep_board(armies, entry[1], _kinds(state.rules))


def card_index(uid: str) -> int:
    return int(uid[1:]) - 1


def status_of(conquered: Sequence[bool], seat: int, p: int) -> str:
    """Attack or defence for ``seat``'s cards in ``p`` (seed 9, rulings B6)."""
    if p // 3 == seat:
        return "attack" if conquered[p] else "defence"
    return "defence" if conquered[p] else "attack"


ARTILLERY = ("artillery", "mitrailleuse")


MARCHING = ("infantry", "artillery", "mitrailleuse")


def _allowance(rules: Rules, t: TypeDef, forced: bool) -> int:
    """Moves a card may make this turn (seed 12, rulings B4, Marche Forcée)."""
    if t.kind == "general":
        return 2
    if t.kind != "unit":
        return 1
    base = t.move
    if t.category == "artillery" and rules.artillery_moves == "one":
        base = 1
    return max(base, 2) if forced else base


def _light(rules: Rules, t: TypeDef) -> bool:
    """Optional rule 19: light cavalry may fight and then move."""
    return rules.light_cavalry and t.id in rules.light_cavalry_units


def _cap(state: State, b: Board, seat: int, p: int) -> int:
    """Grouping capacity of ``seat`` in ``p``: 4, plus its general's rally bonus."""
    g = b.general[seat][p]
    bonus = 0
    if g >= 0:
        bonus = _types(state.rules)[state.armies[seat].cards[g].type].rally
    return state.rules.grouping + bonus


def _count(b: Board, seat: int, p: int) -> int:
    """Cards counted for grouping: the side's units and the position's terrain."""
    return len(b.units[seat][p]) + len(b.terrain[p])


def _sig(state: State, seat: int, i: int, c: Card) -> tuple[object, ...]:
    """Two cards with the same signature are interchangeable for every rule
    (whether the opponent knows a reserve card does not change what it can do)."""
    return (c.type, c.loc, c.bits & ~_KNOWN, i == state.mover and seat == state.active)


def _copier(cls: type[Any], changed: tuple[str, ...]) -> Any:
    """``evolve(obj, **{name: value})`` for the fields ``changed`` of ``cls``,
    the values given in that order: the same object evolve makes, with no
    keyword dictionary and no loop over the changes (hot paths)."""
    lines = [f"def copy(o, {', '.join(changed)}):", "    n = new(cls)"]
    for f in dataclasses.fields(cls):
        value = f.name if f.name in changed else f"o.{f.name}"
        lines.append(f"    sa(n, {f.name!r}, {value})")
    lines.append("    return n")
    scope: dict[str, Any] = {"new": object.__new__, "sa": object.__setattr__, "cls": cls}
    exec("\n".join(lines), scope)
    return scope["copy"]


_with_armies = _copier(State, ("armies",))
_with_armies_mover = _copier(State, ("armies", "mover"))
_with_cards = _copier(Army, ("cards",))


def _set_army(state: State, seat: int, army: Army) -> State:
    armies = (army, state.armies[1]) if seat == 0 else (state.armies[0], army)
    new: State = _with_armies(state, armies)
    return new


def _set_card(state: State, seat: int, i: int, card: Card) -> State:
    army = state.armies[seat]
    old = army.cards[i]
    cards = army.cards[:i] + (card,) + army.cards[i + 1 :]
    new = _set_army(state, seat, _with_cards(army, cards))
    _carry_board(state, new.armies, seat, i, old, card)
    return new


def _index_of(army: Army, uid: str) -> int:
    """The index of a card handle in an army (-1: not one of its cards)."""
    if len(uid) < 2 or uid[0] != army.letter or not uid[1:].isdigit():
        return -1
    i = int(uid[1:]) - 1
    return i if 0 <= i < len(army.cards) and army.cards[i].uid == uid else -1


def _test_data(state: State, test: Test) -> dict[str, Any]:
    return {
        "seat": test.seat,
        "card": test.card,
        "type": test.type,
        "position": _abs_code(state, test.position),
        "target": test.target,
        "modifiers": [list(m) for m in test.modifiers],
        "dice": list(test.dice),
        "passed": test.passed,
    }


_CODES = tuple({p: relative_code(seat, p) for p in (*range(6), RESERVE)} for seat in (0, 1))
