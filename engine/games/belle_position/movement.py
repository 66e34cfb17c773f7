"""Movement (seed 12-13, rulings B3-B5): where a card may go, the grouping check while
cards move, and the movement-phase actions (moves, Marche Forcée, Retranchements)."""

from __future__ import annotations

from ... import rng
from .actions import Action, Done, Move, Play
from .board import (
    _CODES,
    _LOCAL,
    MARCHING,
    Board,
    _allowance,
    _light,
    _types,
    board,
    opposite,
)
from .data import GONE, PILE, RESERVE, USED, TypeDef
from .model import _FORCED, _FOUGHT, _KNOWN, Card, Rules, State


class _MoveCheck:
    """Counts of the active side, to test moves against the grouping rules
    without building states (seed 3, 12, 13; rulings B5).

    Seed 12: « la règle de limites de regroupement est ignorée jusqu'à ce que
    tous les mouvements soient effectués »: any position, in either line, may
    be over the limit while cards move, whatever the order of the moves. With
    ``overflow=forbid`` the phase may not *end* over it, so a move is refused
    only when no way is left to bring every position back within the limit
    with the moves that remain (no dead end):

    ``over[p]``: cards (units and terrain) beyond the capacity in ``p``;
    ``ev[p]``: units there that can still leave: in one's own line for the
    reserve, in the enemy line back to the own position opposite, where they
    stay (one move left); ``ev2[p]`` (enemy line): units that can go back
    and on to the reserve (two moves left). Only cards whose moves have not
    started count, plus the card moving now (a card's moves are consecutive:
    once another card moves, the previous one is done)."""

    __slots__ = ("b", "bad", "cards", "ev", "ev2", "forbid", "over", "rules", "seat")

    def __init__(self, state: State, b: Board, seat: int) -> None:
        rules = state.rules
        types = _types(rules)
        cards = state.armies[seat].cards
        self.seat = seat
        self.rules = rules
        self.cards = cards
        self.b = b
        self.forbid = rules.overflow == "forbid"
        units = b.units[seat]
        general = b.general[seat]
        terrain = b.terrain
        grouping = rules.grouping
        over = [0] * 6
        for p in range(6):
            g = general[p]
            cap = grouping if g < 0 else grouping + types[cards[g].type].rally
            over[p] = len(units[p]) + len(terrain[p]) - cap
        self.over = over
        self.bad = [p for p in range(6) if over[p] > 0]
        # ev and ev2 are counted when a move first needs them (_leaving)
        self.ev: list[int] | None = None
        self.ev2: list[int] = []

    def _leaving(self) -> list[int]:
        """Count ``ev`` and ``ev2`` (see the class)."""
        rules = self.rules
        types = _types(rules)
        cards = self.cards
        seat = self.seat
        units = self.b.units[seat]
        ev = [0] * 6
        ev2 = [0] * 6
        for p in range(6):
            own = p // 3 == seat
            for j in units[p]:
                bits = cards[j].bits
                t = types[cards[j].type]
                # no move made yet, and not fought (unless light cavalry)
                if bits & 0xE0 or (bits & _FOUGHT and not _light(rules, t)):
                    continue
                if own or _allowance(rules, t, bool(bits & _FORCED)) < 2:
                    ev[p] += 1
                else:
                    ev2[p] += 1
        self.ev = ev
        self.ev2 = ev2
        return ev

    def allows(self, state: State, c: Card, t: TypeDef, dest: int) -> bool:
        seat = self.seat
        src = c.loc
        kind = t.kind
        if kind == "terrain":
            b = self.b
            if b.units[1 - seat][dest] or b.general[1 - seat][dest] >= 0:
                return False  # an enemy card there
        if not self.forbid:
            return True
        over = self.over[:]
        if kind == "unit":
            if src >= 0:
                over[src] -= 1
            if dest >= 0:
                over[dest] += 1
        elif kind == "general":
            if src >= 0:
                over[src] += t.rally  # leaving lowers the capacity
            if dest >= 0:
                over[dest] -= t.rally
        else:  # terrain placed from the reserve
            over[dest] += 1
        if max(over) <= 0:
            return True  # every position within its limit: nothing to check
        ev = self.ev
        if ev is None:
            ev = self._leaving()
        ev = ev[:]
        ev2 = self.ev2[:]
        if kind == "unit":
            moves = (c.bits >> 5) & 7
            allowance = _allowance(state.rules, t, bool(c.bits & _FORCED))
            if src >= 0 and moves == 0:  # it was counted as able to leave
                if src // 3 == seat or allowance < 2:
                    ev[src] -= 1
                else:
                    ev2[src] -= 1
            if dest >= 0:
                left = allowance - moves - 1
                if left >= 2 and dest // 3 != seat:
                    ev2[dest] += 1
                elif left >= 1:
                    ev[dest] += 1
        for e in range((1 - seat) * 3, (1 - seat) * 3 + 3):
            o = over[e]
            land = 0
            if o > 0:
                if o > ev[e] + ev2[e]:
                    return False
                land = max(0, o - ev2[e])  # two-move units go through first
            q = opposite(e)
            need = over[q] + land
            if need > 0 and need > ev[q]:
                return False
        return True

    def within_limits(self) -> bool:
        return not self.forbid or not self.bad


def _forget_one(cards: list[Card], tid: str, leaving: int) -> None:
    """A card of type ``tid`` left the reserve face up: the opponent now knows
    one card of that type fewer in the reserve."""
    if cards[leaving].known:
        return
    for j, cj in enumerate(cards):
        if j != leaving and cj.loc == RESERVE and cj.known and cj.type == tid:
            cards[j] = cj.set(known=False)
            return


def _forget_all(cards: list[Card]) -> None:
    """A card left the reserve face down: the opponent cannot tell which."""
    for j, cj in enumerate(cards):
        if cj.loc == RESERVE and cj.known:
            cards[j] = cj.set(known=False)


_MOVES: dict[tuple[str, str], Move] = {}  # Move actions are immutable: made once


def _move_key_id(key: tuple[object, ...] | None) -> int:
    """A small number for a _move_key (-1: None), the same for equal keys."""
    found = _LOCAL.move_key_ids.get(key)
    if found is None:
        found = _LOCAL.move_key_ids[key] = len(_LOCAL.move_key_ids)
    return found


def _immobile(rules: Rules, t: TypeDef, loc: int, bits: int, is_mover: bool) -> str | None:
    """Why a card cannot move now, as a refusal key (None: it may move,
    somewhere :func:`destinations` says). Seed 12: a card moves once (twice
    for some), its moves consecutive; a card that fought does not move
    (optional rule 19: light cavalry does)."""
    kind = t.kind
    if kind == "special":
        return "special-played"
    if loc in (GONE, USED):
        return "out-of-game"
    if loc == PILE:
        return "in-pile"
    if kind == "terrain" and loc >= 0:
        return "terrain-stays"
    if bits & _FOUGHT and not _light(rules, t):
        return "fought-no-move"
    moves = (bits >> 5) & 7
    if moves >= _allowance(rules, t, bool(bits & _FORCED)):
        return "no-move-left"
    if moves and not is_mover:
        return "moves-over"
    return None


def _move_key(
    rules: Rules, t: TypeDef, loc: int, bits: int, is_mover: bool
) -> tuple[object, ...] | None:
    """None when a card cannot move now (:func:`_immobile`); else what its
    allowed destinations depend on (see _MoveCheck.allows and
    :func:`destinations`): cards with the same key go to the same places."""
    if _immobile(rules, t, loc, bits, is_mover) is not None:
        return None
    kind = t.kind
    moves = (bits >> 5) & 7
    if kind == "unit":
        # allows: whether one more move still leaves one (ev), and no more
        return (kind, loc, moves, moves + 1 < _allowance(rules, t, bool(bits & _FORCED)))
    if kind == "general":
        return (kind, loc, moves, t.rally)
    return (kind, loc, moves, t.id)


_OWN = ((0, 1, 2), (3, 4, 5))  # each seat's own positions
_OPPOSITE = tuple(opposite(p) for p in range(6))


def destinations(rules: Rules, b: Board, seat: int, loc: int, t: TypeDef) -> tuple[int, ...]:
    """Where a card of type ``t`` in ``loc`` may go, before the grouping
    check (seed 12 and rulings B3): reserve <-> own positions <-> the enemy
    position opposite; no lateral, diagonal or enemy-reserve moves, no
    advance out of an engaged position; one general per position. The
    legal moves and the explanation of a refused one both read it."""
    general = t.kind == "general"
    my_general = b.general[seat]
    if loc == RESERVE:
        if t.kind == "terrain":
            # seed 5: « en cours de partie que dans une position non
            # engagée » (any, where no enemy card stands); ruling B2:
            # own positions only (option terrain_placement=own)
            enemy = 1 - seat
            terrain = b.terrain
            return tuple(
                p
                for p in (_OWN[seat] if rules.terrain_placement == "own" else range(6))
                if not b.present(enemy, p) and len(terrain[p]) < 2 and t.id not in terrain[p]
            )
        if not general:
            return _OWN[seat]
        return tuple(p for p in _OWN[seat] if my_general[p] < 0)
    q = _OPPOSITE[loc]
    if general and my_general[q] >= 0:
        return (RESERVE,) if loc // 3 == seat else ()
    if loc // 3 == seat:
        enemy = 1 - seat
        if b.units[enemy][loc] or b.general[enemy][loc] >= 0:  # engaged: no advance
            return (RESERVE,)
        return (RESERVE, q)
    return (q,)


def _move_actions(state: State) -> list[Action]:
    seat = state.active
    army = state.armies[seat]
    rules = state.rules
    types = _types(rules)
    b = board(state)
    check = _MoveCheck(state, b, seat)
    allows = check.allows
    mover = state.mover
    codes = _CODES[seat]
    out: list[Action] = []
    seen: set[tuple[object, ...]] = set()
    by_key: dict[int, list[str]] = {}
    if _LOCAL.sig_keys[0] is not rules:
        _LOCAL.sig_keys[:] = [rules, {}]
    sig_keys: dict[tuple[object, ...], int] = _LOCAL.sig_keys[1]
    for i, c in enumerate(army.cards):
        loc = c.loc
        if loc < 0 and loc != RESERVE:
            continue
        bits = c.bits
        # interchangeable cards (same signature, see _sig) give the same
        # moves: only the first is offered
        sig = (c.type, loc, bits & ~_KNOWN, i == mover)
        n = len(seen)
        seen.add(sig)
        if len(seen) == n:
            continue
        key = sig_keys.get(sig)
        if key is None:
            key = sig_keys[sig] = _move_key_id(
                _move_key(rules, types[c.type], loc, bits, i == mover)
            )
        if key < 0:
            continue
        allowed = by_key.get(key)
        if allowed is None:
            t = types[c.type]
            dests = destinations(rules, b, seat, loc, t)
            allowed = by_key[key] = [codes[d] for d in dests if allows(state, c, t, d)]
        uid = c.uid
        for code in allowed:
            action = _MOVES.get((uid, code))
            if action is None:
                action = _MOVES[uid, code] = Move(uid, code)
            out.append(action)
    out += _special_actions(state, b, seat)
    if check.within_limits():
        out.append(Done())
    return out


def _special_actions(state: State, b: Board, seat: int) -> list[Action]:
    """Marche Forcée and Retranchements, played in the movement phase."""
    army = state.armies[seat]
    types = _types(state.rules)
    out: list[Action] = []
    specials: dict[str, str] = {}
    for i in b.reserve[seat]:
        c = army.cards[i]
        if c.type in ("marche-forcee", "retranchements") and c.type not in specials:
            specials[c.type] = c.uid
    if not specials:
        return out
    enemy = 1 - seat
    seen: set[tuple[object, ...]] = set()
    mover = state.mover if seat == state.active else -2
    for j, cj in enumerate(army.cards):
        loc = cj.loc
        if loc < 0 and loc != RESERVE:
            continue  # neither special can be played on it (and _sig tells it apart)
        tj = types[cj.type]
        if tj.kind != "unit":
            continue
        sig = (cj.type, loc, cj.bits & ~_KNOWN, j == mover)  # _sig, inlined
        if sig in seen:
            continue
        seen.add(sig)
        if (
            "marche-forcee" in specials
            and (cj.loc == RESERVE or cj.loc >= 0)
            and tj.category in MARCHING
            and (
                cj.moves == 0
                # option forced_march=any: also after its first move, while
                # it is still the card moving (its moves are consecutive)
                or (state.rules.forced_march == "any" and j == state.mover and cj.moves == 1)
            )
            and not cj.fought
            and not cj.forced
            and _allowance(state.rules, tj, False) < 2
        ):
            out.append(Play(specials["marche-forcee"], cj.uid))
        if (
            "retranchements" in specials
            and cj.loc >= 0
            and cj.loc // 3 == seat
            and cj.up
            and tj.category == "infantry"
            and not cj.entrenched
            and not b.present(enemy, cj.loc)
        ):
            out.append(Play(specials["retranchements"], cj.uid))
    return out


def random_movement_action(state: State, rng_state: int) -> tuple[Action, int]:
    """One of the active player's movement-phase actions, drawn uniformly
    from the list :func:`_move_actions` gives without making it: every
    destination of every card that may move is a candidate, drawn at
    random; a move the grouping check (``_MoveCheck.allows``) refuses is
    struck off and another drawn. Specials and ``ok`` are candidates when
    the list has them. Rejection keeps the draw uniform over the legal
    actions, and the check runs for one or two moves instead of all."""
    seat = state.active
    army = state.armies[seat]
    rules = state.rules
    types = _types(rules)
    b = board(state)
    check = _MoveCheck(state, b, seat)
    mover = state.mover
    codes = _CODES[seat]
    # (card, its type, destination) for every move before the grouping check
    cands: list[tuple[int, Card, int] | Action] = []
    seen: set[tuple[object, ...]] = set()
    dests_by_key: dict[int, tuple[int, ...]] = {}
    # the first card of each key: _move_actions checks a key's moves on it
    first: dict[int, tuple[Card, TypeDef]] = {}
    if _LOCAL.sig_keys[0] is not rules:
        _LOCAL.sig_keys[:] = [rules, {}]
    sig_keys: dict[tuple[object, ...], int] = _LOCAL.sig_keys[1]
    for i, c in enumerate(army.cards):
        loc = c.loc
        if loc < 0 and loc != RESERVE:
            continue
        bits = c.bits
        sig = (c.type, loc, bits & ~_KNOWN, i == mover)
        n = len(seen)
        seen.add(sig)
        if len(seen) == n:
            continue
        key = sig_keys.get(sig)
        if key is None:
            key = sig_keys[sig] = _move_key_id(
                _move_key(rules, types[c.type], loc, bits, i == mover)
            )
        if key < 0:
            continue
        dests = dests_by_key.get(key)
        if dests is None:
            t = types[c.type]
            first[key] = (c, t)
            dests = dests_by_key[key] = destinations(rules, b, seat, loc, t)
        for d in dests:
            cands.append((key, c, d))
    cands += _special_actions(state, b, seat)
    if check.within_limits():
        cands.append(Done())
    verdicts: dict[tuple[int, int], bool] = {}
    while cands:
        index, rng_state = rng.randbelow(rng_state, len(cands))
        drawn = cands[index]
        if not isinstance(drawn, tuple):
            return drawn, rng_state
        key, c, d = drawn
        verdict = verdicts.get((key, d))
        if verdict is None:
            fc, ft = first[key]
            verdict = verdicts[key, d] = check.allows(state, fc, ft, d)
        if verdict:
            code = codes[d]
            action = _MOVES.get((c.uid, code))
            if action is None:
                action = _MOVES[c.uid, code] = Move(c.uid, code)
            return action, rng_state
        cands[index] = cands[-1]
        cands.pop()
    raise AssertionError("no legal movement action")  # the list always has one
