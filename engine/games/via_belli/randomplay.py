"""One legal action drawn at random without listing them all (random
playouts: the engine benchmark, the bots' rollouts).

Each step is drawn from the same queries the listing uses (``summoning``,
``moving``, ``attacking``, ``checks``), so a drawn action is always one
``legal_actions`` lists. The draw is lazy: the candidates of a step are
tried in a random order and the first that passes its test is taken, which
is uniform over the candidates that pass (the relative order of those is a
uniform random permutation) while testing only a few of them. The draw is
uniform over the turn decision's actions and over a step's spots, places,
reveals and Sorcier cards; a summon's anchor step draws the card (and face
up or in ambush) first, then its anchor; the move step draws a card of the
seat (to move or to recall) first, then its pivot; the attack step draws
the target first, then the attackers."""

from __future__ import annotations

from ...core import Seat
from ...rng import randbelow
from .actions import (
    Action,
    Anchor,
    Attack,
    Begin,
    Cancel,
    Draw,
    EndTurn,
    Move,
    Pivot,
    Recall,
    Reveal,
    Sorcery,
    Summon,
)
from .attacking import _attack_groups, _targets
from .board import Board, board_of
from .checks import check_begin, check_draw, check_end_turn
from .model import State
from .moving import _destinations, _has_dest, _move_need, _pivot_pool
from .summoning import _anchor_pool, _cards_for, _has_spot, _placement, _sorcery_cards, _spots_for

_ROOT: tuple[Action, ...] = (
    Draw(),
    Begin("+"),
    Begin(">"),
    Begin("x"),
    Begin("^"),
    EndTurn(),
)


def random_step(state: State, seat: Seat, r: int, recall: bool = True) -> tuple[Action, int] | None:
    """A legal action of ``seat`` drawn from generator state ``r``, and the
    generator's next state; None when the seat has none. ``recall=False``:
    at the move step, a recall only when no card can move."""
    phase = state.phase
    if phase == "over":
        return None
    if phase == "reveal":
        c = state.combat
        if c is None or seat != c.defender or not c.candidates:
            return None
        i, r = randbelow(r, len(c.candidates))
        return Reveal(*c.candidates[i]), r
    if seat != state.active:
        return None
    if phase == "turn":
        return _root(state, seat, r)
    if phase == "anchor":
        return _anchor(state, seat, r)
    if phase == "spot":
        if state.sel_via is None:
            return None
        hidden = state.sel_kind == "?"
        b = board_of(state)
        spots = _spots_for(state, seat, state.sel_card, hidden, b.at(state.sel_via))
        if not spots:
            return None
        i, r = randbelow(r, len(spots))
        return Summon(state.sel_card, hidden, *spots[i]), r
    if phase == "pivot":
        return _pivot(state, seat, r, recall)
    if phase == "destination":
        if state.sel_unit is None or state.sel_via is None:
            return None
        b = board_of(state)
        fx, fy = state.sel_unit
        places = _destinations(state, seat, b.at(state.sel_unit), b.at(state.sel_via))
        if not places:
            return None
        i, r = randbelow(r, len(places))
        return Move(fx, fy, *places[i]), r
    if phase == "attack":
        targets = _targets(state, seat)
        if not targets:
            return None
        i, r = randbelow(r, len(targets))
        t = targets[i]
        groups = _attack_groups(state, seat, t)
        j, r = randbelow(r, len(groups))
        b = board_of(state)
        return Attack(tuple(b.cell(a) for a in groups[j]), b.cell(t)), r
    if phase == "sorcery":
        cards = _sorcery_cards(state, seat)
        if not cards:
            return None
        i, r = randbelow(r, len(cards))
        return Sorcery(cards[i]), r
    if phase == "free-dog":
        dogs = _cards_for(state, seat, "dog")
        i, r = randbelow(r, len(dogs) + 1)
        if i == len(dogs):
            return Cancel(), r
        return _anchored(state, seat, dogs[i], False, r)
    return None


def _root(state: State, seat: Seat, r: int) -> tuple[Action, int] | None:
    """The turn decision: ``D``, the four menus and ``E``, each tested by its
    check (as ``legal._root`` does) in a random order."""
    left = list(_ROOT)
    closed = 0  # D and menus found closed
    while left:
        i, r = randbelow(r, len(left))
        action = left.pop(i)
        if isinstance(action, Draw):
            ok = check_draw(state, seat) is None
        elif isinstance(action, Begin):
            ok = check_begin(state, seat, action.kind) is None
        else:  # E: whether D or a menu is open is known when all were closed
            ok = check_end_turn(state, seat, False if closed == 5 else None) is None
        if ok:
            return action, r
        closed += 1
    return None


def _anchor(state: State, seat: Seat, r: int) -> tuple[Action, int] | None:
    """The summon's first step: a card face up or in ambush, then an anchor
    that offers it a spot."""
    choices = [(card, False) for card in _cards_for(state, seat, "+")]
    choices += [(card, True) for card in _cards_for(state, seat, "?")]
    if not choices:
        return None
    i, r = randbelow(r, len(choices))
    card, hidden = choices[i]
    return _anchored(state, seat, card, hidden, r)


def _anchored(
    state: State, seat: Seat, card: str, hidden: bool, r: int
) -> tuple[Action, int] | None:
    """``Anchor(card, hidden, …)`` at an anchor drawn among those with a
    spot (``summoning._anchors_for``), trying the pool in a random order."""
    b = board_of(state)
    placement = _placement(state, card, hidden)
    pool = list(_anchor_pool(state, b, seat, placement))
    while pool:
        i, r = randbelow(r, len(pool))
        ci = pool[i]
        if _has_spot(state, b, seat, placement, ci):
            return Anchor(card, hidden, *b.cell(ci)), r
        pool[i] = pool[-1]
        pool.pop()
    return None


def _pivot(state: State, seat: Seat, r: int, recall: bool) -> tuple[Action, int] | None:
    """The move step: a card of the seat to move (then a pivot along which
    it has a place) or to recall, tried in a random order."""
    b = board_of(state)
    own = [b.unit_ci[ui] for ui, u in enumerate(state.units) if u.owner == seat]
    may_recall = state.pa >= 1
    cands = [(ci, False) for ci in own]
    if recall and may_recall:
        cands += [(ci, True) for ci in own]
    while cands:
        i, r = randbelow(r, len(cands))
        ci, back = cands[i]
        cands[i] = cands[-1]
        cands.pop()
        if back:
            if _recallable(state, b, seat, ci):
                return Recall(*b.cell(ci)), r
            continue
        found = _random_pivot(state, b, seat, ci, r)
        if found is not None:
            pivot, r = found
            return Pivot(*b.cell(ci), *b.cell(pivot)), r
    if not recall and may_recall:  # only recalls left
        recallable = [ci for ci in own if _recallable(state, b, seat, ci)]
        if recallable:
            i, r = randbelow(r, len(recallable))
            return Recall(*b.cell(recallable[i])), r
    return None


def _random_pivot(state: State, b: Board, seat: Seat, ci: int, r: int) -> tuple[int, int] | None:
    """A pivot of card ``ci`` drawn among those offering a place
    (``moving._pivots``), trying its pivots in a random order; None when the
    card cannot move."""
    known = b.memo.get(("pivots", ci))
    if known is not None:
        pivots: list[int] = known  # type: ignore[assignment]
        if not pivots:
            return None
        i, r = randbelow(r, len(pivots))
        return pivots[i], r
    need = _move_need(state, b, seat, ci)
    if need is None:
        b.memo[("pivots", ci)] = []
        return None
    pool = list(_pivot_pool(state, b, seat, ci))
    while pool:
        i, r = randbelow(r, len(pool))
        p = pool[i]
        if _has_dest(state, b, ci, p, need):
            return p, r
        pool[i] = pool[-1]
        pool.pop()
    b.memo[("pivots", ci)] = []
    return None


def _recallable(state: State, b: Board, seat: Seat, ci: int) -> bool:
    """Whether card ``ci`` is one ``moving._recallables`` lists."""
    rules = state.rules
    if state.pa < 1:
        return False
    u = b.unit(ci)
    if not (u.face_up or rules.recall_face_down):
        return False
    return rules.self_cut or ci not in b.critical(seat)
