"""Hidden information: ``determinize`` (resample what a seat cannot see) and
``sample_state`` (a full state consistent with a view, for search bots)."""

from __future__ import annotations

from ... import rng
from ...core import Seat
from ...core import evolve as replace
from .board import MARCHING, Board, _allowance, _kinds, _set_army, _types, card_index
from .data import GONE, PILE, RESERVE, USED, TypeDef, army_text
from .legal import _can_deploy
from .model import _FORCED, _KNOWN, _UP, Alloc, Army, Card, CardView, PlayerView, Rules, State, View


def _shuffle_pile(army: Army, stream: rng.Stream) -> Army:
    """One's own pile order is unknown even to oneself."""
    if len(army.pile) < 2:
        return army
    shuffled = stream.shuffle([army.cards[i].type for i in army.pile])
    cards = list(army.cards)
    for i, tid in zip(army.pile, shuffled, strict=True):
        cards[i] = replace(cards[i], type=tid)
    return replace(army, cards=tuple(cards))


def _fits(rules: Rules, c: Card, t: TypeDef) -> bool:
    """Can a hidden card have type ``t`` given what everyone saw of it?"""
    if c.loc >= 0 or c.moves > 0 or c.forced:
        if t.kind != "unit":
            return False
        if c.forced and (t.category not in MARCHING or _allowance(rules, t, False) >= 2):
            return False
        if c.moves > _allowance(rules, t, c.forced):
            return False
    return True


def _resample_hidden(rules: Rules, army: Army, stream: rng.Stream) -> Army:
    """Give the opponent's unseen cards (face-down on the board, unknown in
    the reserve, in the pile) a new arrangement of the same types."""
    types = _types(rules)
    cards = army.cards
    hidden: list[int] = []
    constrained: list[int] = []
    free: list[int] = []
    for i, c in enumerate(cards):
        loc = c.loc
        bits = c.bits
        if loc == PILE or (loc == RESERVE and not bits & _KNOWN) or (loc >= 0 and not bits & _UP):
            hidden.append(i)
            if loc >= 0 or bits & (_FORCED | 0xE0):
                constrained.append(i)
            else:
                free.append(i)
    if len(hidden) < 2:
        return army

    def tightness(i: int) -> int:
        c = cards[i]
        if c.forced:
            return 0
        if c.moves > 1:
            return 1
        return 2

    constrained.sort(key=tightness)
    assignment: dict[int, str] | None = None
    pool_types = {cards[i].type for i in hidden}
    fits: dict[tuple[bool, int], dict[str, bool]] = {}
    for i in constrained:
        c = cards[i]
        key = (c.loc >= 0, c.bits & (_FORCED | 0xE0))
        if key not in fits:
            fits[key] = {tid: _fits(rules, c, types[tid]) for tid in pool_types}
    for _ in range(8):
        pool = [cards[i].type for i in hidden]
        trial: dict[int, str] = {}
        for i in constrained:
            c = cards[i]
            ok = fits[c.loc >= 0, c.bits & (_FORCED | 0xE0)]
            fitting = [k for k, tid in enumerate(pool) if ok[tid]]
            if not fitting:
                break
            trial[i] = pool.pop(fitting[stream.below(len(fitting))])
        else:
            for i, tid in zip(free, stream.shuffle(pool), strict=True):
                trial[i] = tid
            assignment = trial
            break
    if assignment is None:
        return army
    new = list(cards)
    for i, tid in assignment.items():
        if tid != new[i].type:
            new[i] = replace(new[i], type=tid)
    return replace(army, cards=tuple(new))


def determinize(state: State, seat: Seat | None, seed: int) -> State:
    """Resample what ``seat`` cannot see: the types behind the opponent's
    face-down cards, unknown reserve cards and pile (keeping every card
    where it is and every constraint its history puts on it), during
    deployment the opponent's whole deal and secret placements, one's
    own pile order, and the generator."""
    stream = rng.Stream(rng.seed_state(seed, "determinize"))
    armies = list(state.armies)
    for s, army in enumerate(state.armies):
        if s == seat:
            armies[s] = _shuffle_pile(army, stream)
        elif state.phase == "deploy":
            armies[s] = _resample_deployment(state, s, army, stream)
        else:
            armies[s] = _resample_hidden(state.rules, army, stream)
    return replace(state, armies=(armies[0], armies[1]), rng=stream.below(1 << 62) + 1)


def sample_state(view: View, seed: int) -> State:
    """A state consistent with a seat's ``view`` (search bots): every card the
    view shows stays as shown; the unseen ones (face-down units, the
    opponent's reserve, both piles) are drawn from what the public army lists
    leave, face-down cards being units; the generator is new. So
    ``view(sample_state(v, k), v.observer) == v``."""
    stream = rng.Stream(rng.seed_state(seed, "sample-state"))
    armies = [_sample_army(view, pv, stream) for pv in view.players]
    alloc = None
    if view.alloc is not None:
        a = view.alloc
        alloc = Alloc(a.taker, a.position, a.hits, a.target, a.artillery_only)
    conquered = tuple(p.conquered for p in view.positions)
    return State(
        rules=view.rules,
        armies=(armies[0], armies[1]),
        rng=stream.below(1 << 62) + 1,
        phase=view.phase,  # type: ignore[arg-type]
        active=view.active,
        turn=view.turn,
        first_player=view.first_player,
        conquered=(
            conquered[0],
            conquered[1],
            conquered[2],
            conquered[3],
            conquered[4],
            conquered[5],
        ),
        combat_at=view.combat_at,
        closed=view.closed,
        mover=card_index(view.mover) if view.mover else -1,
        alloc=alloc,
        last_combat=view.last_combat,
        last_tests=view.last_tests,
        ranking=view.ranking,
        end_reason=view.end_reason,
    )


def _sample_army(view: View, pv: PlayerView, stream: rng.Stream) -> Army:
    types = _types(view.rules)
    slots: list[Card | None] = [None] * pv.army_size
    pool: dict[str, int] = dict(pv.army)
    hidden_board, known = _place_seen(view, pv, slots, pool)
    unseen_reserve = pv.reserve_count - (len(pv.reserve) if pv.reserve is not None else 0)
    free = [i for i, c in enumerate(slots) if c is None]
    if len(free) != len(hidden_board) + unseen_reserve + pv.pile_count or any(
        n < 0 for n in pool.values()
    ):
        raise ValueError("the view does not describe a possible state")
    remaining = [tid for tid, n in pool.items() for _ in range(n)]
    for tid in known:
        remaining.remove(tid)
    remaining = list(stream.shuffle(remaining))
    board_types = []
    for _ in hidden_board:
        units = [k for k, tid in enumerate(remaining) if types[tid].kind == "unit"]
        if not units:
            raise ValueError("the view hides more units than the army has")
        board_types.append(remaining.pop(units[0]))
    uids = list(stream.shuffle(free))
    letter = pv.letter
    for p, tid in zip(hidden_board, board_types, strict=True):
        i = uids.pop()
        slots[i] = Card(f"{letter}{i + 1}", tid, p)
    for tid in known:
        i = uids.pop()
        slots[i] = Card(f"{letter}{i + 1}", tid, RESERVE).set(known=True)
    for _ in range(unseen_reserve - len(known)):
        i = uids.pop()
        slots[i] = Card(f"{letter}{i + 1}", remaining.pop(), RESERVE)
    pile = []
    while uids:
        i = uids.pop()
        slots[i] = Card(f"{letter}{i + 1}", remaining.pop(), PILE)
        pile.append(i)
    cards = tuple(c for c in slots if c is not None)
    assert len(cards) == pv.army_size
    return Army(
        side=pv.side,
        letter=letter,
        cards=cards,
        pile=tuple(pile),
        points=pv.points,
        text=army_text(pv.army),
        staged=tuple(card_index(uid) for uid in pv.staged),
        done=pv.ready,
    )


def _place_seen(
    view: View, pv: PlayerView, slots: list[Card | None], pool: dict[str, int]
) -> tuple[list[int], list[str]]:
    """Put every card of ``pv``'s army that the view shows in ``slots``, taking
    it from ``pool``; returns the positions of its face-down units (one entry
    each) and the types known to be in its reserve that the view does not
    place (an opponent's reserve)."""
    seat = pv.seat

    def put(cv: CardView, loc: int) -> None:
        slots[card_index(cv.uid)] = Card(cv.uid, cv.type, loc).set(
            up=cv.face_up,
            tokens=cv.tokens,
            fought=cv.fought,
            moves=cv.moves,
            forced=cv.forced,
            entrenched=cv.entrenched,
        )
        pool[cv.type] -= 1

    hidden_board: list[int] = []
    for pos in view.positions:
        side = pos.sides[seat]
        if side.general is not None:
            put(side.general, pos.index)
        for cv in side.units:
            put(cv, pos.index)
        hidden_board += [pos.index] * side.hidden
        for cv in pos.terrain:  # terrain may stand in either line (seed 5)
            if cv.uid.startswith(pv.letter):
                put(cv, pos.index)
    known = list(pv.reserve_known)
    if pv.reserve is not None:
        for cv in pv.reserve:
            put(cv, RESERVE)
            if cv.type in known:
                known.remove(cv.type)
                i = card_index(cv.uid)
                card = slots[i]
                assert card is not None
                slots[i] = card.set(known=True)
        known = []
    for cv in (*pv.eliminated, *pv.used):
        put(cv, GONE if cv.kind in ("unit", "general") else USED)
    return hidden_board, known


def _resample_deployment(state: State, seat: int, army: Army, stream: rng.Stream) -> Army:
    types = _types(state.rules)
    shuffled = stream.shuffle([c.type for c in army.cards])
    cards = [
        Card(c.uid, tid, RESERVE if c.loc >= 0 else c.loc, c.bits & ~_UP)
        for c, tid in zip(army.cards, shuffled, strict=True)
    ]
    staged: list[int] = []
    for i in army.staged:
        p = army.cards[i].loc
        trial = replace(army, cards=tuple(cards))
        probe = _set_army(state, seat, trial)
        b = Board(probe.armies, _kinds(state.rules))
        t = types[cards[i].type]
        if t.kind != "special" and _can_deploy(probe, b, seat, p, t):
            cards[i] = cards[i].set(loc=p, up=t.kind != "unit")
            staged.append(i)
    return replace(army, cards=tuple(cards), staged=tuple(staged))
