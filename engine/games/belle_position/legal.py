"""Who decides and what they may do: the pending decisions, the legal actions of each
phase (memoised for the last two states asked), and the handle that stands for
interchangeable cards."""

from __future__ import annotations

from collections.abc import Mapping

from ...core import Decision, Seat
from .actions import Action, Done, Fire, Loss, Move, Play, Undo
from .board import (
    ARTILLERY,
    Board,
    _abs_code,
    _cap,
    _count,
    _index_of,
    _sig,
    _types,
    board,
    card_index,
    lateral,
    opposite,
    relative_code,
)
from .data import WINGS, TypeDef
from .dice import _dice_count
from .model import _FOUGHT, _KNOWN, Card, State
from .movement import _move_actions


# the decisions without parameters (immutable: made once)
# (made once per army letter: the examples use the deciding player's own handles)
def _decisions(m: str) -> dict[str, Decision]:
    e = "A" if m == "F" else "F"
    params = (("letter", m), ("enemy", e))
    return {
        "deploy": Decision(
            "deploy",
            params,
        ),
        "rally": Decision(
            "rally",
            params,
        ),
        "combat": Decision("combat", params),
        "movement": Decision(
            "movement",
            params,
        ),
    }


_DECISIONS = {m: _decisions(m) for m in ("F", "A")}


_FIRES: dict[tuple[str, str], Fire] = {}  # the same for Fire actions


# The legal actions of the last two (state, seat) asked: apply then knows an
# action it is given is one of them without checking it again.
_MEMO: list[tuple[object, int, tuple[Action, ...]]] = [(None, -1, ()), (None, -1, ())]


def legal_actions(state: State, seat: Seat) -> list[Action]:
    for memo in _MEMO:
        if memo[0] is state and memo[1] == seat:
            return list(memo[2])
    actions = _legal(state, seat)
    _remember(state, seat, actions)
    return actions


def pending(state: State) -> Mapping[Seat, Decision]:
    phase = state.phase
    if phase == "over":
        return {}
    if phase == "deploy":
        return {
            seat: _DECISIONS[state.armies[seat].letter]["deploy"]
            for seat in (0, 1)
            if not state.armies[seat].done
        }
    if phase == "allocate":
        alloc = state.alloc
        assert alloc is not None
        code = _abs_code(state, alloc.position)
        m = state.armies[alloc.taker].letter
        return {
            alloc.taker: Decision(
                "allocate",
                (("hits", alloc.hits), ("position", code), ("letter", m)),
            )
        }
    seat = state.active
    m = state.armies[seat].letter
    if phase == "rally" and state.rules.ralliement_timing == "failure":
        failed = state.last_tests[-1].card if state.last_tests else ""
        play = next((a for a in _rally_actions(state) if isinstance(a, Play)), None)
        special = play.card if play is not None else f"{m}21"
        return {
            seat: Decision(
                "rout",
                (("card", failed), ("special", special), ("letter", m)),
            )
        }
    return {seat: _DECISIONS[m][phase]}


def _remember(state: State, seat: Seat, actions: list[Action]) -> None:
    """Keep the legal actions of ``seat`` in ``state`` (the last two asked)."""
    _MEMO[1] = _MEMO[0]
    _MEMO[0] = (state, seat, tuple(actions))


# The last action random_action drew, legal for that state and seat.
_DRAWN: list[tuple[object, int, object]] = [(None, -1, None)]


def _drawn(state: State, seat: Seat, action: Action) -> None:
    """Keep the action random_action drew (legal: apply need not check it)."""
    _DRAWN[0] = (state, seat, action)


def _offered(state: State, seat: Seat, action: Action) -> bool:
    """Is ``action`` itself one of the legal actions last listed (or the
    action last drawn) for this state and seat (the usual case: no need to
    check it again)?"""
    drawn = _DRAWN[0]
    if drawn[2] is action and drawn[0] is state and drawn[1] == seat:
        return True
    for memo in _MEMO:
        if memo[0] is state and memo[1] == seat:
            return any(a is action for a in memo[2])
    return False


def _legal(state: State, seat: Seat) -> list[Action]:
    """The legal actions; cards that are interchangeable (same type, place
    and status) are offered once, by their first handle."""
    phase = state.phase
    if phase == "over" or seat not in (0, 1):
        return []
    if phase == "deploy":
        if state.armies[seat].done:
            return []
        return _deploy_actions(state, seat)
    if phase == "allocate":
        alloc = state.alloc
        if alloc is None or seat != alloc.taker:
            return []
        return _loss_actions(state)
    if seat != state.active:
        return []
    if phase == "rally":
        return _rally_actions(state)
    if phase == "combat":
        return [*_fire_actions(state), Done()]
    return _move_actions(state)


def _deploy_actions(state: State, seat: Seat) -> list[Action]:
    army = state.armies[seat]
    types = _types(state.rules)
    b = board(state)
    out: list[Action] = []
    seen: set[str] = set()
    for i in b.reserve[seat]:
        c = army.cards[i]
        t = types[c.type]
        if t.kind == "special" or c.type in seen:
            continue
        seen.add(c.type)
        for w in range(3):
            if _can_deploy(state, b, seat, seat * 3 + w, t):
                out.append(Move(c.uid, WINGS[w]))
    if army.staged:
        out.append(Undo())
    out.append(Done())
    return out


def _can_deploy(state: State, b: Board, seat: int, p: int, t: TypeDef) -> bool:
    return _place_refusal(state, b, seat, p, t) is None


def _place_refusal(state: State, b: Board, seat: int, p: int, t: TypeDef) -> str | None:
    """Why a card of type ``t`` cannot be placed in ``p`` during deployment,
    as a refusal key (None: it can). Seed 3-5, 17: at most 4 cards (units
    and terrain) per position plus the general's rally bonus; one general;
    two different terrain cards, in a position that is not engaged."""
    kind = t.kind
    if kind == "special":
        return "special-stays"
    if kind == "general":
        return "general-there" if b.general[seat][p] >= 0 else None
    if kind == "terrain":
        if b.present(1 - seat, p):
            return "terrain-engaged"
        if t.id in b.terrain[p]:
            return "same-terrain"
        if len(b.terrain[p]) >= 2:
            return "two-terrain"
    if _count(b, seat, p) + 1 > _cap(state, b, seat, p):
        return "full"
    return None


def _rally_actions(state: State) -> list[Action]:
    seat = state.active
    army = state.armies[seat]
    types = _types(state.rules)
    b = board(state)
    rally = next((c for i in b.reserve[seat] if (c := army.cards[i]).type == "ralliement"), None)
    out: list[Action] = []
    if state.rules.ralliement_timing == "failure":
        # option: only the unit that has just failed its test, once the dice are rolled
        if rally is not None and state.phase == "rally" and state.last_tests:
            out.append(Play(rally.uid, state.last_tests[-1].card))
        out.append(Done())
        return out
    if rally is not None:
        seen: set[tuple[object, ...]] = set()
        for p in range(6):
            for i in b.units[seat][p]:
                c = army.cards[i]
                if c.tokens and types[c.type].kind == "unit":
                    sig = _sig(state, seat, i, c)
                    if sig not in seen:
                        seen.add(sig)
                        out.append(Play(rally.uid, c.uid))
    out.append(Done())
    return out


def _fire_options(
    state: State, b: Board, seat: int, c: Card, t: TypeDef
) -> list[tuple[str, str, int, int]]:
    """(at, mode, target position, target card) for a unit that may fire."""
    p = c.loc
    enemy = 1 - seat
    out: list[tuple[str, str, int, int]] = []
    closed = state.closed
    if b.units[enemy][p]:
        if p not in closed and _dice_count(state, b, seat, t, "melee", p, p) > 0:
            out.append((relative_code(seat, p), "melee", p, -1))
        return out
    if b.present(enemy, p):
        return out
    ecards = state.armies[enemy].cards
    types = _types(state.rules)
    if t.long_range and p // 3 == seat:
        q = opposite(p)
        if q not in closed and not b.present(seat, q):
            visible = [j for j in b.units[enemy][q] if ecards[j].up]
            if visible and _dice_count(state, b, seat, t, "long-range", p, q) > 0:
                out.append((relative_code(seat, q), "long-range", q, -1))
                seen: set[tuple[object, ...]] = set()
                for j in visible:
                    cj = ecards[j]
                    if types[cj.type].category not in ARTILLERY:
                        continue
                    sig = (
                        ("spread",)
                        if state.rules.counter_battery == "spread"
                        else _sig(state, enemy, j, cj)
                    )
                    if sig not in seen:
                        seen.add(sig)
                        out.append((cj.uid, "counter-battery", q, j))
        if state.rules.counter_battery_range == "line":
            # seed 10: « viser spécifiquement une carte d'artillerie ou de
            # mitrailleuses de la ligne de bataille adverse »: any enemy
            # position that is not engaged, not only the opposite one
            for x in range(enemy * 3, enemy * 3 + 3):
                if x == q or x in closed or b.present(seat, x):
                    continue
                if _dice_count(state, b, seat, t, "counter-battery", p, x) <= 0:
                    continue
                seen_x: set[tuple[object, ...]] = set()
                for j in b.units[enemy][x]:
                    cj = ecards[j]
                    if not cj.up or types[cj.type].category not in ARTILLERY:
                        continue
                    sig = (
                        ("spread",)
                        if state.rules.counter_battery == "spread"
                        else _sig(state, enemy, j, cj)
                    )
                    if sig not in seen_x:
                        seen_x.add(sig)
                        out.append((cj.uid, "counter-battery", x, j))
    if state.rules.flank_attack:
        for x in lateral(p):
            if (
                x not in closed
                and b.units[enemy][x]
                and _dice_count(state, b, seat, t, "flank-attack", p, x) > 0
            ):
                out.append((relative_code(seat, x), "flank-attack", x, -1))
    return out


def _fire_actions(state: State) -> list[Action]:
    seat = state.active
    army = state.armies[seat]
    types = _types(state.rules)
    b = board(state)
    out: list[Action] = []
    seen: set[tuple[object, ...]] = set()
    mover = state.mover
    cards = army.cards
    for p in range(6):
        for i in b.units[seat][p]:
            c = cards[i]
            bits = c.bits
            if bits & _FOUGHT:
                continue
            sig = (c.type, p, bits & ~_KNOWN, i == mover)  # _sig (seat is active)
            if sig in seen:
                continue
            seen.add(sig)
            uid = c.uid
            for at, _, _, _ in _fire_options(state, b, seat, c, types[c.type]):
                action = _FIRES.get((uid, at))
                if action is None:
                    action = _FIRES[uid, at] = Fire(uid, at)
                out.append(action)
    return out


def _loss_candidates(state: State) -> list[int]:
    """The taker's units that may take the next loss (seed 11: every unit
    there has a token before any has a second)."""
    alloc = state.alloc
    assert alloc is not None
    taker = alloc.taker
    army = state.armies[taker]
    if alloc.target:
        j = card_index(alloc.target)
        return [j] if army.cards[j].loc == alloc.position else []
    types = _types(state.rules)
    b = board(state)
    # seed 11: « chaque carte d'unité ennemie dans la position », face down
    # ones too (option long_range_losses=face-up, ruling B8: visible ones only)
    hidden_too = not alloc.artillery_only and state.rules.long_range_losses == "every-unit"
    eligible = [
        j
        for j in b.units[taker][alloc.position]
        if (army.cards[j].up or hidden_too)
        and (not alloc.artillery_only or types[army.cards[j].type].category in ARTILLERY)
    ]
    if not eligible:
        return []
    low = min(army.cards[j].tokens for j in eligible)
    return [j for j in eligible if army.cards[j].tokens == low]


def _loss_actions(state: State) -> list[Action]:
    alloc = state.alloc
    assert alloc is not None
    army = state.armies[alloc.taker]
    out: list[Action] = []
    seen: set[tuple[object, ...]] = set()
    for j in _loss_candidates(state):
        sig = _sig(state, alloc.taker, j, army.cards[j])
        if sig not in seen:
            seen.add(sig)
            out.append(Loss(army.cards[j].uid))
    return out


def _rep(state: State, seat: int, uid: str) -> str | None:
    """The handle offered in the legal actions for a card interchangeable
    with ``uid`` (None: not a card of ``seat``)."""
    army = state.armies[seat]
    i = _index_of(army, uid)
    if i < 0:
        return None
    c = army.cards[i]
    sig = _sig(state, seat, i, c)
    for j, cj in enumerate(army.cards):
        if cj.loc == c.loc and _sig(state, seat, j, cj) == sig:
            return cj.uid
    return uid


def _canonical(state: State, seat: int, action: Action) -> Action | None:
    if isinstance(action, Done | Undo):
        return action
    if isinstance(action, Move):
        card = _rep(state, seat, action.card)
        return None if card is None else Move(card, action.to)
    if isinstance(action, Loss):
        card = _rep(state, seat, action.card)
        return None if card is None else Loss(card)
    if isinstance(action, Play):
        card = _rep(state, seat, action.card)
        target = _rep(state, seat, action.target)
        if card is None or target is None:
            return None
        return Play(card, target)
    card = _rep(state, seat, action.card)
    if card is None:
        return None
    at = _canonical_target(state, seat, action.at)
    return None if at is None else Fire(card, at)


def _canonical_target(state: State, seat: int, at: str) -> str | None:
    """What a Fire action aims at, as the legal actions name it: a position
    code as it is; an enemy card (counter-battery) by the handle offered for
    it (None: not an enemy card, or no artillery to spread the losses on)."""
    if at[:1] in ("F", "A") and at[1:].isdigit():
        enemy = 1 - seat
        if state.rules.counter_battery == "spread":
            ecards = state.armies[enemy].cards
            j = _index_of(state.armies[enemy], at)
            if j < 0:
                return None
            types = _types(state.rules)
            for cj in ecards:
                if cj.loc == ecards[j].loc and cj.up and types[cj.type].category in ARTILLERY:
                    return cj.uid
            return None
        return _rep(state, enemy, at)
    return at
