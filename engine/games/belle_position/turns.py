"""The turn sequence (seed 3-6, 12-15): deployment, the first player, cohesion tests and
Désorganisation, the combat and movement phases, moves and special cards, reinforcement."""

from __future__ import annotations

from ... import rng
from ...core import Event
from ...core import evolve as replace
from .actions import Action, Done, Move, Play, Undo
from .board import (
    Board,
    _abs_code,
    _cap,
    _carry_board,
    _carry_same_board,
    _count,
    _set_army,
    _test_data,
    _types,
    _with_armies_mover,
    _with_cards,
    absolute_of,
    board,
    card_index,
    lateral,
)
from .changes import _after_change, _eliminate, _finish, _reveal
from .data import RESERVE, USED
from .dice import _cohesion
from .legal import _fire_actions, _rally_actions, _remember
from .model import _ENTRENCHED, _FORCED, _FOUGHT, _KNOWN, _UP, Card, State, Test
from .movement import _forget_one


def _apply_deploy(state: State, seat: int, action: Action, events: list[Event]) -> State:
    army = state.armies[seat]
    types = _types(state.rules)
    if isinstance(action, Move):
        i = card_index(action.card)
        c = army.cards[i]
        p = absolute_of(seat, action.to)
        t = types[c.type]
        cards = list(army.cards)
        cards[i] = c.set(loc=p, up=t.kind != "unit")
        army = replace(army, cards=tuple(cards), staged=(*army.staged, i))
        events.append(
            Event(
                "deploy",
                {"seat": seat, "card": c.uid, "type": c.type, "position": _abs_code(state, p)},
                to=frozenset({seat}),
            )
        )
        return _set_army(state, seat, army)
    if isinstance(action, Undo):
        i = army.staged[-1]
        c = army.cards[i]
        cards = list(army.cards)
        cards[i] = c.set(loc=RESERVE, up=False)
        army = replace(army, cards=tuple(cards), staged=army.staged[:-1])
        events.append(
            Event(
                "undo",
                {
                    "seat": seat,
                    "card": c.uid,
                    "type": c.type,
                    "position": _abs_code(state, c.loc),
                },
                to=frozenset({seat}),
            )
        )
        return _set_army(state, seat, army)
    state = _set_army(state, seat, replace(army, done=True))
    events.append(Event("ready", {"seat": seat}))
    if all(a.done for a in state.armies):
        state = _begin_battle(state, events)
    return state


def _begin_battle(state: State, events: list[Event]) -> State:
    """Both have deployed: generals and terrain are shown, the side with
    fewer terrain cards plays first (a tie: dice, rerolled while equal)."""
    types = _types(state.rules)
    armies = tuple(replace(a, staged=()) for a in state.armies)
    state = replace(state, armies=(armies[0], armies[1]))
    b = board(state)
    terrain_counts = []
    for seat, army in enumerate(state.armies):
        positions = []
        placed = 0
        for p in range(seat * 3, seat * 3 + 3):
            g = b.general[seat][p]
            terrain = [
                [c.uid, c.type]
                for c in army.cards
                if c.loc == p and types[c.type].kind == "terrain"
            ]
            placed += len(terrain)
            positions.append(
                {
                    "position": _abs_code(state, p),
                    "general": None if g < 0 else [army.cards[g].uid, army.cards[g].type],
                    "terrain": terrain,
                    "hidden": len(b.units[seat][p]),
                }
            )
        terrain_counts.append(placed)
        events.append(
            Event(
                "deployed",
                {"seat": seat, "positions": positions, "reserve": len(b.reserve[seat])},
            )
        )
        for c in army.cards:
            if c.loc >= 0 and types[c.type].kind == "terrain":
                events.append(
                    Event(
                        f"terrain:{c.type}",
                        {
                            "seat": seat,
                            "card": c.uid,
                            "position": _abs_code(state, c.loc),
                            "setup": True,
                        },
                    )
                )
    stream = rng.Stream(state.rng)
    rolls: list[list[int]] = []
    if terrain_counts[0] != terrain_counts[1]:
        first = 0 if terrain_counts[0] < terrain_counts[1] else 1
    else:
        while True:
            pair = [stream.roll(), stream.roll()]
            rolls.append(pair)
            if pair[0] != pair[1]:
                break
        first = 0 if rolls[-1][0] > rolls[-1][1] else 1
    events.append(Event("first-player", {"seat": first, "terrain": terrain_counts, "rolls": rolls}))
    state = replace(state, rng=stream.state, first_player=first)
    return _start_turn(state, first, events)


def _start_turn(state: State, seat: int, events: list[Event]) -> State:
    turn = state.turn + 1
    limit = state.rules.turn_limit
    if limit and turn > 2 * limit:
        return _finish(state, -1, "turn-limit", events)
    state = replace(
        state,
        active=seat,
        turn=turn,
        combat_at=-1,
        closed=(),
        mover=-1,
        alloc=None,
        phase="rally",
    )
    events.append(Event("turn", {"seat": seat, "turn": turn}))
    if state.rules.ralliement_timing == "failure":
        return _run_cohesion(state, events)  # Ralliement comes after a failed test
    rally = _rally_actions(state)
    if len(rally) > 1:
        _remember(state, seat, rally)
        return state
    return _run_cohesion(state, events)


def _run_cohesion(state: State, events: list[Event], resume: bool = False) -> State:
    """Seed 6 and 17: one die per loss token, a natural 6 always fails and
    a 1 always succeeds; a failure routs the card. Generals roll after the
    units and die on a 6. Then Désorganisation where a limit is broken.

    Option ``ralliement_timing=failure``: when a unit fails while its
    player still holds a Ralliement, the tests stop there (phase
    ``rally``, that unit the last of ``last_tests``) until the player
    rallies it or lets it rout; ``resume`` then goes on with the units
    that still carry tokens."""
    seat = state.active
    stream = rng.Stream(state.rng)
    b = board(state)
    army = state.armies[seat]
    cards = list(army.cards)
    tests: list[Test] = []
    routed: list[int] = []
    may_rally = state.rules.ralliement_timing == "failure" and any(
        army.cards[i].type == "ralliement" for i in b.reserve[seat]
    )
    earlier = state.last_tests if resume else ()
    if _unit_tests(state, b, cards, stream, tests, routed, may_rally):
        # option ralliement_timing=failure: the player decides now
        state = _set_army(state, seat, replace(army, cards=tuple(cards)))
        state = replace(state, rng=stream.state, phase="rally")
        for test in tests[:-1]:
            events.append(Event("cohesion", _test_data(state, test)))
        data = dict(_test_data(state, tests[-1]))
        data["may_rally"] = True
        events.append(Event("cohesion", data))
        return replace(state, last_tests=earlier + tuple(tests))
    _general_tests(b, seat, cards, stream, tests, routed)
    new = _set_army(state, seat, replace(army, cards=tuple(cards)))
    _carry_same_board(state, new.armies)  # tokens only (the routed go below)
    state = new
    state = replace(state, rng=stream.state)
    for test in tests:
        events.append(
            Event(
                "cohesion" if test.kind == "cohesion" else "general-test",
                _test_data(state, test),
            )
        )
    for i in routed:
        cause = "rout" if _types(state.rules)[cards[i].type].kind == "unit" else "general-test"
        state = _eliminate(state, seat, i, cause, events)
    state = replace(state, last_tests=earlier + tuple(tests))
    state = _disorganise(state, seat, events)
    state = _after_change(state, events)
    if state.phase == "over":
        return state
    return _enter_combat(state, events)


def _unit_tests(
    state: State,
    b: Board,
    cards: list[Card],
    stream: rng.Stream,
    tests: list[Test],
    routed: list[int],
    may_rally: bool,
) -> bool:
    """The active side's units with loss tokens test their cohesion, in
    position order: ``cards`` lose the tokens of those that pass, ``tests``
    gets every test, ``routed`` the ones that fail. True: a unit failed
    while ``may_rally`` (the tests stop there, that unit's test last)."""
    seat = state.active
    for p in range(6):
        for i in b.units[seat][p]:
            c = cards[i]
            if not c.tokens:
                continue
            target, mods = _cohesion(state, b, seat, c)
            dice: list[int] = []
            passed = True
            for _ in range(c.tokens):
                die = stream.roll()
                dice.append(die)
                if die == 6 or (die != 1 and die > target):
                    passed = False
                    break
            tests.append(
                Test(seat, c.uid, c.type, "cohesion", p, target, mods, tuple(dice), passed)
            )
            if passed:
                cards[i] = c.set(tokens=0)
            elif may_rally:
                return True
            else:
                routed.append(i)
    return False


def _general_tests(
    b: Board,
    seat: int,
    cards: list[Card],
    stream: rng.Stream,
    tests: list[Test],
    routed: list[int],
) -> None:
    """Generals with tokens roll one die per token and die on a 6 (seed 17)."""
    for p in range(6):
        g = b.general[seat][p]
        if g < 0 or not cards[g].tokens:
            continue
        c = cards[g]
        dice = []
        passed = True
        for _ in range(c.tokens):
            die = stream.roll()
            dice.append(die)
            if die == 6:
                passed = False
                break
        tests.append(Test(seat, c.uid, c.type, "general", p, 5, (), tuple(dice), passed))
        if passed:
            cards[g] = c.set(tokens=0)
        else:
            routed.append(g)


def _disorganise(state: State, seat: int, events: list[Event]) -> State:
    """Seed 14: where the side is over its limit, all its units there test
    cohesion; those that fail go back to the reserve; again until the
    limit holds."""
    tests: list[Test] = []
    while True:
        b = board(state)
        over = [
            p for p in range(6) if b.units[seat][p] and _count(b, seat, p) > _cap(state, b, seat, p)
        ]
        if not over:
            break
        p = over[0]
        for i in b.units[seat][p]:
            if not state.armies[seat].cards[i].up:
                state = _reveal(state, seat, i, events)
        b = board(state)
        stream = rng.Stream(state.rng)
        cards = list(state.armies[seat].cards)
        failed = []
        for i in b.units[seat][p]:
            c = cards[i]
            target, mods = _cohesion(state, b, seat, c)
            die = stream.roll()
            passed = die == 1 or (die != 6 and die <= target)
            test = Test(seat, c.uid, c.type, "disorganisation", p, target, mods, (die,), passed)
            tests.append(test)
            events.append(Event("disorganisation", _test_data(state, test)))
            if not passed:
                failed.append(i)
        state = replace(state, rng=stream.state)
        for i in failed:
            c = cards[i]
            cards[i] = c.set(loc=RESERVE, up=False, known=True, tokens=0, entrenched=False)
            events.append(
                Event(
                    "to-reserve",
                    {
                        "seat": seat,
                        "card": c.uid,
                        "type": c.type,
                        "position": _abs_code(state, p),
                    },
                )
            )
        state = _set_army(state, seat, replace(state.armies[seat], cards=tuple(cards)))
    if tests:
        state = replace(state, last_tests=state.last_tests + tuple(tests))
    return state


def _enter_combat(state: State, events: list[Event]) -> State:
    if state.rules.flank_attack and _flank_win(state):
        return _finish(state, state.active, "flank", events)
    state = replace(state, phase="combat", combat_at=-1, closed=())
    fire = _fire_actions(state)
    if not fire:
        return _enter_movement(state, events)
    _remember(state, state.active, [*fire, Done()])
    return state


def _enter_movement(state: State, events: list[Event]) -> State:
    return replace(state, phase="movement", mover=-1, combat_at=-1)


def _flank_win(state: State) -> bool:
    """Optional rule 18: a unit able to attack a vacant position of the
    enemy line from the flank wins."""
    seat = state.active
    enemy = 1 - seat
    b = board(state)
    for p in range(enemy * 3, enemy * 3 + 3):
        if (
            b.units[seat][p]
            and not b.present(enemy, p)
            and any(not b.units[enemy][x] for x in lateral(p))
        ):
            return True
    return False


def _end_movement(state: State, events: list[Event]) -> State:
    seat = state.active
    if state.rules.overflow == "disorganise":
        state = _disorganise(state, seat, events)
        state = _after_change(state, events)
        if state.phase == "over":
            return state
    state = _reveal_engaged(state, events)
    state = _reinforce(state, seat, events)
    army = state.armies[seat]
    turn_bits = _FOUGHT | _FORCED | 0xE0  # fought, Marche Forcée, moves: this turn only
    if any(c.bits & turn_bits for c in army.cards):
        cards = tuple(
            Card(c.uid, c.type, c.loc, c.bits & ~turn_bits) if c.bits & turn_bits else c
            for c in army.cards
        )
        new = _set_army(state, seat, replace(army, cards=cards))
        _carry_same_board(state, new.armies)  # status bits only
        state = new
    return _start_turn(state, 1 - seat, events)


def _reveal_engaged(state: State, events: list[Event]) -> State:
    """Seed 13: at the end of a movement phase every card of both sides in
    an engaged position is turned face up."""
    b = board(state)
    todo = []
    for p in range(6):
        if b.engaged(p):
            for seat in (0, 1):
                for i in b.units[seat][p]:
                    if not state.armies[seat].cards[i].up:
                        todo.append((seat, i))
    if not todo:
        return state
    # _reveal for each, in that order, with one new army per side
    new_cards = [list(state.armies[0].cards), list(state.armies[1].cards)]
    for seat, i in todo:
        c = new_cards[seat][i]
        new_cards[seat][i] = Card(c.uid, c.type, c.loc, c.bits | _UP)
        events.append(
            Event(
                f"reveal:{c.type}",
                {"seat": seat, "card": c.uid, "type": c.type, "position": _abs_code(state, c.loc)},
            )
        )
    armies = state.armies
    new = replace(
        state,
        armies=(
            replace(armies[0], cards=tuple(new_cards[0]))
            if any(s == 0 for s, _ in todo)
            else armies[0],
            replace(armies[1], cards=tuple(new_cards[1]))
            if any(s == 1 for s, _ in todo)
            else armies[1],
        ),
    )
    _carry_same_board(state, new.armies)  # face up: the same places
    return new


def _reinforce(state: State, seat: int, events: list[Event]) -> State:
    """Seed 15: the turn ends with a card drawn into the reserve."""
    army = state.armies[seat]
    if not army.pile:
        events.append(Event("no-reinforcement", {"seat": seat}))
        return state
    i = army.pile[0]
    c = army.cards[i]
    drawn = c.set(loc=RESERVE, known=False)
    cards = army.cards[:i] + (drawn,) + army.cards[i + 1 :]
    new = _set_army(state, seat, replace(army, cards=cards, pile=army.pile[1:]))
    _carry_board(state, new.armies, seat, i, c, drawn)
    state = new
    events.append(
        Event(
            "reinforcement",
            {"seat": seat, "card": c.uid, "type": c.type},
            to=frozenset({seat}),
            redacted={"seat": seat},
        )
    )
    return state


def _move(state: State, seat: int, action: Move, events: list[Event]) -> State:
    types = _types(state.rules)
    army = state.armies[seat]
    i = card_index(action.card)
    c = army.cards[i]
    t = types[c.type]
    src = c.loc
    dest = absolute_of(seat, action.to)
    b = board(state)
    engaged = dest >= 0 and b.present(1 - seat, dest)
    bits = c.bits
    was_up = bool(bits & _UP)
    # one move more, Retranchements lost (Card.set, written out: hot path)
    bits = ((bits & ~0xE0) | ((((bits >> 5) & 7) + 1) << 5)) & ~_ENTRENCHED
    if dest == RESERVE:
        # face down, known to the opponent if it was face up, no tokens
        bits = (bits & ~_UP & ~_KNOWN | (_KNOWN if was_up else 0)) & 0xFF
    elif src == RESERVE:
        bits = (bits | _UP if t.kind != "unit" else bits & ~_UP) & ~_KNOWN
    cards = list(army.cards)
    moved = cards[i] = Card(c.uid, c.type, dest, bits)
    if src == RESERVE:
        # _forget_all / _forget_one, over the reserve only (in card order)
        if t.kind == "unit":
            for j in b.reserve[seat]:
                cj = cards[j]
                if j != i and cj.bits & _KNOWN:
                    cards[j] = Card(cj.uid, cj.type, cj.loc, cj.bits & ~_KNOWN)
        else:  # (the moved card is never known any more: the search always runs)
            for j in b.reserve[seat]:
                cj = cards[j]
                if j != i and cj.bits & _KNOWN and cj.type == t.id:
                    cards[j] = Card(cj.uid, cj.type, cj.loc, cj.bits & ~_KNOWN)
                    break
    army = _with_cards(army, tuple(cards))
    armies = (army, state.armies[1]) if seat == 0 else (state.armies[0], army)
    _carry_board(state, armies, seat, i, c, moved)
    state = _with_armies_mover(state, armies, i)
    data = {
        "seat": seat,
        "card": c.uid,
        "type": c.type,
        "from": _abs_code(state, src),
        "to": _abs_code(state, dest),
        "engaged": engaged,
    }
    if was_up:
        events.append(Event("move", data))
    else:
        hidden = {k: data[k] for k in ("seat", "from", "to", "engaged")}
        events.append(Event("move", data, to=frozenset({seat}), redacted=hidden))
    if src == RESERVE and t.kind == "general":
        events.append(
            Event(
                "general",
                {
                    "seat": seat,
                    "card": c.uid,
                    "type": c.type,
                    "position": _abs_code(state, dest),
                },
            )
        )
    elif t.kind == "terrain":
        events.append(
            Event(
                f"terrain:{c.type}",
                {
                    "seat": seat,
                    "card": c.uid,
                    "position": _abs_code(state, dest),
                    "setup": False,
                },
            )
        )
    return _after_change(state, events)


def _play(state: State, seat: int, action: Play, events: list[Event]) -> State:
    """Ralliement (cohesion phase), Marche Forcée and Retranchements
    (movement phase): played from the reserve, then discarded."""
    army = state.armies[seat]
    i = card_index(action.card)
    j = card_index(action.target)
    special = army.cards[i]
    target = army.cards[j]
    cards = list(army.cards)
    cards[i] = special.set(loc=USED, up=True)
    _forget_one(cards, special.type, i)
    if special.type == "ralliement":
        cards[j] = target.set(tokens=0)
    elif special.type == "marche-forcee":
        cards[j] = target.set(forced=True)
    else:
        cards[j] = target.set(entrenched=True)
    new = _set_army(state, seat, replace(army, cards=tuple(cards)))
    _carry_board(state, new.armies, seat, i, special, cards[i])  # the target: status only
    state = new
    data = {
        "seat": seat,
        "card": special.uid,
        "target": target.uid,
        "type": target.type,
        "position": _abs_code(state, target.loc),
        "tokens": target.tokens,
    }
    kind = f"special:{special.type}"
    if target.up:
        events.append(Event(kind, data))
    else:
        hidden = {k: data[k] for k in ("seat", "card", "position")}
        events.append(Event(kind, data, to=frozenset({seat}), redacted=hidden))
    if special.type == "ralliement" and state.rules.ralliement_timing == "failure":
        return _run_cohesion(state, events, resume=True)
    if special.type == "ralliement" and len(_rally_actions(state)) <= 1:
        return _run_cohesion(state, events)
    return state
