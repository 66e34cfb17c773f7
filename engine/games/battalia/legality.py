"""One check per kind of action (None, or the refusal as an
:class:`IllegalAction` with a ``bt-refuse-…`` message). The legal actions are
the candidates each kind enumerates (payments as distinct multisets of card
codes), kept when their check passes; ``apply`` refuses with the same checks.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from functools import partial
from typing import Any

from ... import rng
from ...core import Decision, Seat
from ...errors import IllegalAction
from ...text import Msg
from . import buff, text
from .actions import (
    Action,
    Attack,
    Bid,
    Bribe,
    BuffMove,
    Buy,
    Cards,
    ChooseFaction,
    ChooseStart,
    City,
    Cohort,
    Defend,
    End,
    Enter,
    Fight,
    Move,
    Mulligan,
    Place,
    Recruit,
    Retreat,
    Road,
    Summon,
    Take,
    Tent,
    Upgrade,
    canon,
)
from .battle import is_weapon, line_ok, lines, retreat_squares, take_choices, targets
from .board import spot_refusal, spots_for, tile_at
from .cards import holds, physical
from .costs import affordable, choose, matches_recipe, payments_for, pays, tool_value
from .heroes import (
    buff_stop,
    cheapest_paths,
    free_index,
    has_room,
    hero_square,
    heroes_of,
    horse_cap,
    is_horse,
    move_payment_ok,
    move_payments,
    own_cities,
    paid_steps,
    path_ok,
)
from .market import buyable, price
from .model import State
from .oracle import illuminated, matching_type
from .turns import free_factions, free_starts

BUFF_ACTIONS = (Bid, Enter, BuffMove, Bribe, Recruit, Fight)
TURN_ACTIONS = (Mulligan, Cohort, Buy, Road, City, Upgrade, Summon, Move, Attack, Tent, End)


def refuse(key: str, **params: Any) -> IllegalAction:
    return IllegalAction(Msg.of(f"bt-refuse-{key}", **params))


def _not_now(state: State, seat: Seat) -> IllegalAction:
    """Not the moment for that action: what is expected of ``seat`` now
    (its pending decision's sentence), or that others have to decide."""
    decision = pending(state).get(seat)
    if decision is None:
        return refuse("not-now-wait")
    return refuse("not-now", expected=text.decision_text(decision))


def _own_hero(token: str) -> Msg:
    """« Votre héros 1 », « Buff » in a refusal (never the raw ``h1``)."""
    if token == "b":
        return Msg.of("bt-refuse-hero-buff")
    return Msg.of("bt-refuse-hero-own", n=token.removeprefix("h"))


def pending(state: State) -> dict[Seat, Decision]:
    """Who decides what (a fresh dict; worked out once per state object:
    playouts, checks and the legal actions all ask it)."""
    global _PENDING
    hit = _PENDING
    if hit is not None and hit[0] is state:
        return dict(hit[1])
    result = _pending(state)
    _PENDING = (state, result)
    return dict(result)


_PENDING: tuple[State, dict[Seat, Decision]] | None = None


def _pending(state: State) -> dict[Seat, Decision]:
    if state.phase == "over":
        return {}
    if state.rules.buff:
        decided = buff.pending(state)
        if decided:
            return dict(decided)
    seat = state.active
    if state.phase == "defend":
        battle = state.battle
        assert battle is not None and battle.defender is not None
        params: tuple[tuple[str, str | int], ...] = (
            ("attacker", battle.attacker if battle.attacker is not None else -1),
            ("target", battle.target),
            ("strength", battle.attacker_break.total if battle.attacker_break else 0),
        )
        return {battle.defender: Decision("defend", params)}
    if state.phase == "place" and state.placing is not None:
        p = state.placing
        params = (
            ("kind", p.kind),
            ("layout", p.layout),
            ("terrain", p.terrain),
            ("level", p.level),
        )
        return {seat: Decision("place", params)}
    if state.phase in ("faction", "start", "turn", "take"):
        return {seat: Decision(state.phase)}
    return {}


# ---------------------------------------------------------------------------
# Checks
# ---------------------------------------------------------------------------


def check(state: State, seat: Seat, action: Action) -> IllegalAction | None:
    if isinstance(action, BUFF_ACTIONS):
        if not state.rules.buff:
            return refuse("no-buff")
        return buff.check(state, seat, action)
    if state.rules.buff and buff.pending(state):
        return refuse("buff-first")
    if state.phase == "defend":
        battle = state.battle
        if battle is None or seat != battle.defender:
            return _not_now(state, seat)
    elif seat != state.active:
        return _not_now(state, seat)
    expected = _PHASE_KINDS.get(state.phase, ())
    if not isinstance(action, expected):
        return _not_now(state, seat)
    checker = _CHECKS[type(action)]
    result: IllegalAction | None = checker(state, seat, action)
    return result


def check_to_apply(state: State, seat: Seat, action: Action) -> IllegalAction | None:
    """:func:`check`, skipped for the very action (same objects) that
    :func:`random_of` has just checked on this very state (playouts apply
    what they draw)."""
    passed = _PASSED
    if passed is not None and passed[0] is state and passed[2] is action and passed[1] == seat:
        return None
    return check(state, seat, action)


_PASSED: tuple[State, Seat, Action] | None = None
"""The last action :func:`random_of` drew, checked, with its state and seat."""


def _paid(state: State, seat: Seat, cards: tuple[str, ...]) -> IllegalAction | None:
    if not holds(state.players[seat].hand, [physical(c) for c in cards]):
        return refuse("not-in-hand")
    return None


def _c_faction(state: State, seat: Seat, a: ChooseFaction) -> IllegalAction | None:
    return None if a.faction in free_factions(state) else refuse("faction-taken")


def _c_start(state: State, seat: Seat, a: ChooseStart) -> IllegalAction | None:
    return None if a.square in free_starts(state) else refuse("start-square")


def _c_mulligan(state: State, seat: Seat, a: Mulligan) -> IllegalAction | None:
    return None if state.first_action else refuse("first-action")


def _c_cohort(state: State, seat: Seat, a: Cohort) -> IllegalAction | None:
    if not state.first_action:
        return refuse("first-action")
    factions = {c[1] if len(c) == 2 and c != "P" and not c.startswith("G") else "" for c in a.cards}
    if len(factions) != 1 or factions & {"", "m"}:
        return refuse("cohort-faction")
    if len(a.cards) < state.rules.cohort_size:
        return refuse("cohort-size", size=state.rules.cohort_size)
    return _paid(state, seat, a.cards)


def _c_buy(state: State, seat: Seat, a: Buy) -> IllegalAction | None:
    name = price(state, a.stack)
    if name is None:
        return refuse("stack")
    if not matches_recipe(a.cards, name):
        return refuse("cost")
    return _paid(state, seat, a.cards)


def _deck_left(state: State, kind: str, layout: str) -> bool:
    decks = state.roads if kind == "road" else state.cities
    return any(k == layout and cards for k, cards in decks)


def _c_road(state: State, seat: Seat, a: Road) -> IllegalAction | None:
    if not _deck_left(state, "road", a.layout):
        return refuse("deck-empty")
    if not spots_for(state, seat, a.layout):
        return refuse("no-spot")
    if not matches_recipe(a.cards, f"road-{a.layout}", tools=tool_value(state)):
        return refuse("cost")
    return _paid(state, seat, a.cards)


def _c_city(state: State, seat: Seat, a: City) -> IllegalAction | None:
    if not _deck_left(state, "city", a.layout):
        return refuse("deck-empty")
    if not spots_for(state, seat, a.layout):
        return refuse("no-spot")
    if not matches_recipe(a.cards, f"city-{a.level}", tools=tool_value(state)):
        return refuse("cost")
    return _paid(state, seat, a.cards)


def _c_place(state: State, seat: Seat, a: Place) -> IllegalAction | None:
    placing = state.placing
    if placing is None:
        return _not_now(state, seat)
    why = spot_refusal(state, seat, placing.layout, a.square, a.rotation)
    return None if why is None else refuse(why, square=a.square)


def _c_upgrade(state: State, seat: Seat, a: Upgrade) -> IllegalAction | None:
    tile = tile_at(state, a.square)
    if tile is None or tile.owner != seat or not 1 <= tile.level < 4:
        return refuse("upgrade-city")
    if not matches_recipe(a.cards, f"upgrade-{tile.level + 1}"):
        return refuse("cost")
    return _paid(state, seat, a.cards)


def _c_summon(state: State, seat: Seat, a: Summon) -> IllegalAction | None:
    if free_index(state, seat) is None:
        return refuse("no-hero")
    if a.square not in own_cities(state, seat) or not has_room(state, a.square):
        return refuse("summon-city")
    if not matches_recipe(a.cards, "summon"):
        return refuse("cost")
    return _paid(state, seat, a.cards)


def _c_move(state: State, seat: Seat, a: Move) -> IllegalAction | None:
    start = hero_square(state, seat, a.hero)
    if start is None:
        return refuse("no-such-hero", hero=a.hero, who=_own_hero(a.hero))
    if not path_ok(state, start, a.path, buff_stop(state, seat, a.hero)):
        return refuse("path")
    if not has_room(state, a.path[-1]):
        return refuse("path")
    if not move_payment_ok(state, a.cards, paid_steps(state, seat, a.hero, a.path)):
        return refuse("cost")
    return _paid(state, seat, a.cards)


def _c_attack(state: State, seat: Seat, a: Attack) -> IllegalAction | None:
    if hero_square(state, seat, a.hero) is None:
        return refuse("no-such-hero", hero=a.hero, who=_own_hero(a.hero))
    if a.target == "buff" and state.rules.buff and buff.is_bribed(state, seat):
        return refuse("bribed")
    if a.target not in targets(state, seat, a.hero):
        return refuse("target")
    if not line_ok(state, a.line, weapon=True):
        return refuse("line")
    return _paid(state, seat, a.line)


def _c_tent(state: State, seat: Seat, a: Tent) -> IllegalAction | None:
    if not matches_recipe(a.cards, "tent"):
        return refuse("cost")
    room = 2 if illuminated(state, "E") else 1
    if not 1 <= len(a.kept) <= room:
        return refuse("tent-size", size=room)
    return _paid(state, seat, (*a.cards, *a.kept))


def _c_end(state: State, seat: Seat, a: End) -> IllegalAction | None:
    return None


def _c_defend(state: State, seat: Seat, a: Defend) -> IllegalAction | None:
    if not line_ok(state, a.line, weapon=False):
        return refuse("line")
    return _paid(state, seat, a.line)


def _c_retreat(state: State, seat: Seat, a: Retreat) -> IllegalAction | None:
    if not state.rules.retreat:
        return refuse("no-retreat")
    if a.square not in retreat_squares(state):
        return refuse("retreat-square")
    if not (matches_recipe(a.cards, "retreat") or matches_recipe(a.cards, "retreat-horse")):
        return refuse("cost")
    return _paid(state, seat, a.cards)


def _c_take(state: State, seat: Seat, a: Take) -> IllegalAction | None:
    return None if a.artefact in take_choices(state) else refuse("great")


_CHECKS: dict[type, Callable[..., IllegalAction | None]] = {
    ChooseFaction: _c_faction,
    ChooseStart: _c_start,
    Mulligan: _c_mulligan,
    Cohort: _c_cohort,
    Buy: _c_buy,
    Road: _c_road,
    City: _c_city,
    Place: _c_place,
    Upgrade: _c_upgrade,
    Summon: _c_summon,
    Move: _c_move,
    Attack: _c_attack,
    Tent: _c_tent,
    End: _c_end,
    Defend: _c_defend,
    Retreat: _c_retreat,
    Take: _c_take,
}
_PHASE_KINDS: dict[str, tuple[type, ...]] = {
    "faction": (ChooseFaction,),
    "start": (ChooseStart,),
    "turn": TURN_ACTIONS,
    "place": (Place,),
    "defend": (Defend, Retreat),
    "take": (Take,),
}


# ---------------------------------------------------------------------------
# Legal actions
# ---------------------------------------------------------------------------


def legal_actions(state: State, seat: Seat) -> list[Action]:
    """Every candidate of every action line of every kind (:func:`kinds`)
    its check accepts; Buff's decisions as :func:`buff.legal` lists them."""
    if seat not in pending(state):
        return []
    if state.rules.buff and buff.pending(state):
        return list(buff.legal(state, seat))
    return [
        a
        for kind in kinds(state, seat)
        for group in kind()
        for a in group()
        if check(state, seat, a) is None
    ]


Group = Callable[[], list[Action]]
"""The candidates of one action line (a stack to buy from, a layout to build,
a hero to move …), listed when called: every exact payment, path or line."""
Kind = Callable[[], list[Group]]
"""The action lines of one kind of action (buy, road, city …), listed when
called, those found empty at once left out (no exact payment in the hand)."""


def kinds(state: State, seat: Seat, only: tuple[type, ...] | None = None) -> list[Kind]:
    """The seat's candidate actions kind by kind, then action line by action
    line, in the order :func:`legal_actions` lists them; nothing is listed
    until called (:func:`random_action` calls one kind, then one line).
    ``only``: the kinds of these action types alone. Not for Buff's
    decisions (see :func:`legal_actions`)."""
    if seat not in pending(state):
        return []
    phase = state.phase
    hand = state.players[seat].hand
    tagged: list[tuple[type, Kind]]
    if phase == "faction":
        tagged = [(ChooseFaction, _one(lambda: [ChooseFaction(f) for f in free_factions(state)]))]
    elif phase == "start":
        tagged = [(ChooseStart, _one(lambda: [ChooseStart(sq) for sq in free_starts(state)]))]
    elif phase == "place":
        placing = state.placing
        assert placing is not None
        layout = placing.layout
        tagged = [(Place, _one(lambda: [Place(sq, r) for sq, r in spots_for(state, seat, layout)]))]
    elif phase == "take":
        tagged = [(Take, _one(lambda: [Take(g) for g in take_choices(state)]))]
    elif phase == "defend":
        tagged = [
            (Defend, _one(lambda: [Defend(line) for line in lines(state, hand, weapon=False)])),
            (Retreat, _one(lambda: _retreats(state, hand))),
        ]
    else:
        tagged = _turn_kinds(state, seat)
    return [kind for cls, kind in tagged if only is None or cls in only]


def _one(group: Group) -> Kind:
    """A kind of a single action line."""
    return lambda: [group]


def random_action(state: State, seat: Seat, gen: int) -> tuple[Action, int]:
    """One of :func:`legal_actions`, drawn without listing them all: a kind
    of action (:func:`kinds`), then one of its action lines, each uniformly
    among those not found empty, then one of the line's legal candidates
    (exact payment, path, battle line …). Not uniform over the legal
    actions; ``(action, generator)``."""
    drawn = random_of(state, seat, gen)
    if drawn is None:
        raise ValueError("no legal action to draw")
    return drawn


def random_of(
    state: State, seat: Seat, gen: int, only: tuple[type, ...] | None = None
) -> tuple[Action, int] | None:
    """:func:`random_action` among the actions of the types ``only`` (all
    when None); None when the seat has no such legal action."""
    if state.rules.buff and buff.pending(state):
        if only is None and state.phase == "buff-move":
            drawn = buff.random_move(state, seat, gen)
            if drawn is not None and check(state, seat, drawn[0]) is None:
                return drawn
        legal = legal_actions(state, seat)
        if only is not None:
            legal = [a for a in legal if isinstance(a, only)]
        return rng.choice(gen, legal) if legal else None
    left = kinds(state, seat, only)
    while left:
        i, gen = rng.randbelow(gen, len(left))
        groups = left[i]()
        while groups:
            j, gen = rng.randbelow(gen, len(groups))
            found = groups[j]()
            while found:  # a candidate its check refuses is drawn again without it
                k, gen = rng.randbelow(gen, len(found))
                if check(state, seat, found[k]) is None:
                    global _PASSED
                    _PASSED = (state, seat, found[k])
                    return found[k], gen
                found[k] = found[-1]
                found.pop()
            groups[j] = groups[-1]
            groups.pop()
        left[i] = left[-1]
        left.pop()
    return None


def _retreats(state: State, hand: tuple[str, ...]) -> list[Action]:
    if not state.rules.retreat:
        return []
    pays = payments_for(hand, "retreat") + payments_for(hand, "retreat-horse")
    return [Retreat(sq, p) for sq in retreat_squares(state) for p in pays]


def _turn_kinds(state: State, seat: Seat) -> list[tuple[type, Kind]]:
    """The kinds of the turn with their action type, in the order the legal
    actions list them."""
    hand = state.players[seat].hand
    out: list[tuple[type, Kind]] = []
    if state.first_action:
        out.append((Mulligan, _one(lambda: [Mulligan()])))
        out.append((Cohort, _one(lambda: _cohorts(state, hand))))
    out.append((Buy, partial(_buy_kind, state, hand)))
    out.append((Road, partial(_road_kind, state, seat, hand)))
    out.append((City, partial(_city_kind, state, seat, hand)))
    out.append((Upgrade, partial(_upgrade_kind, state, seat, hand)))
    out.append((Summon, partial(_summon_kind, state, seat, hand)))
    if state.heroes or state.buff.owner == seat:
        out.append((Move, partial(_move_kind, state, seat, hand)))
        out.append((Attack, partial(_attack_kind, state, seat, hand)))
    out.append((Tent, partial(_tent_kind, state, hand)))
    if state.rules.buff:
        out.append((Recruit, _one(lambda: buff.turn_actions(state, seat))))
    out.append((End, _one(lambda: [End()])))
    return out


def _buy_kind(state: State, hand: tuple[str, ...]) -> list[Group]:
    afford = affordable(hand)
    return [
        partial(_paid_by, Buy, key, hand, name) for key, name in _buy_lines(state) if afford(name)
    ]


def _road_kind(state: State, seat: Seat, hand: tuple[str, ...]) -> list[Group]:
    """A road of each layout with a card left and a payment; whether it has
    a spot waits for the call."""
    tools = tool_value(state)
    afford = affordable(hand, tools)
    return [
        partial(_builds, state, seat, hand, Road, layout, f"road-{layout}", tools)
        for layout, cards in state.roads
        if cards and afford(f"road-{layout}")
    ]


def _city_kind(state: State, seat: Seat, hand: tuple[str, ...]) -> list[Group]:
    """A city of each level and layout, as :func:`_road_kind`."""
    tools = tool_value(state)
    afford = affordable(hand, tools)
    return [
        partial(_builds, state, seat, hand, partial(City, level), layout, f"city-{level}", tools)
        for level in (1, 2, 3, 4)
        if afford(f"city-{level}")
        for layout, cards in state.cities
        if cards
    ]


def _builds(
    state: State,
    seat: Seat,
    hand: tuple[str, ...],
    kind: Callable[[str, Cards], Action],
    layout: str,
    name: str,
    tools: int,
) -> list[Action]:
    if not spots_for(state, seat, layout):
        return []
    return [kind(layout, p) for p in pays(hand, name, tools=tools)]


def _upgrade_kind(state: State, seat: Seat, hand: tuple[str, ...]) -> list[Group]:
    afford = affordable(hand)
    out: list[Group] = []
    for t in state.tiles:
        if t.owner == seat and 1 <= t.level < 4:
            name = f"upgrade-{t.level + 1}"
            if afford(name):
                out.append(partial(_paid_by, Upgrade, t.square, hand, name))
    return out


def _summon_kind(state: State, seat: Seat, hand: tuple[str, ...]) -> list[Group]:
    if free_index(state, seat) is None or not affordable(hand)("summon"):
        return []
    return [
        partial(_paid_by, Summon, sq, hand, "summon")
        for sq in own_cities(state, seat)
        if has_room(state, sq)
    ]


def _move_kind(state: State, seat: Seat, hand: tuple[str, ...]) -> list[Group]:
    heroes = heroes_of(state, seat)
    if not heroes:
        return []
    budget = hand.count("P") + sum(horse_cap(state, c) for c in hand if c != "P" and is_horse(c))
    return [partial(_moves, state, seat, hand, hero, budget) for hero in heroes]


def _attack_kind(state: State, seat: Seat, hand: tuple[str, ...]) -> list[Group]:
    if not any(is_weapon(c) for c in hand):  # no line to attack with
        return []
    return [
        partial(_attacks, state, hand, hero, target)
        for hero in heroes_of(state, seat)
        for target in targets(state, seat, hero)
    ]


def _tent_kind(state: State, hand: tuple[str, ...]) -> list[Group]:
    return [lambda: _tents(state, hand)] if affordable(hand)("tent") else []


def _buy_lines(state: State) -> tuple[tuple[str, str], ...]:
    """``(stack key, recipe name)`` of every stack with something to buy
    today, in :func:`buyable`'s order; once per market tuple and day."""
    key = (id(state.market), matching_type(state.day))  # what buyable and price read
    hit = _BUYS.get(key)
    if hit is not None and hit[0] is state.market:
        return hit[1]
    found = []
    for stack in buyable(state):
        name = price(state, stack)
        if name is not None:
            found.append((stack, name))
    if len(_BUYS) > 256:
        _BUYS.clear()
    result = tuple(found)
    _BUYS[key] = (state.market, result)
    return result


_BUYS: dict[tuple[int, str], tuple[object, tuple[tuple[str, str], ...]]] = {}


def _paid_by(
    kind: Callable[[str, Cards], Action], what: str, hand: tuple[str, ...], name: str
) -> list[Action]:
    """``kind(what, payment)`` for every payment of recipe ``name``."""
    return [kind(what, p) for p in pays(hand, name)]


def _attacks(state: State, hand: tuple[str, ...], hero: str, target: str) -> list[Action]:
    return [Attack(hero, target, line) for line in lines(state, hand, weapon=True)]


def _cohorts(state: State, hand: tuple[str, ...]) -> list[Action]:
    size = state.rules.cohort_size
    by_faction: dict[str, list[str]] = {}
    for c in hand:
        if len(c) == 2 and c != "P" and not c.startswith("G") and c[1] != "m":
            by_faction.setdefault(c[1], []).append(c)
    out: list[Action] = []
    for cards in by_faction.values():
        if len(cards) >= size:
            out += [Cohort(canon(list(x))) for x in choose(Counter(cards), size)]
    return out


def _moves(state: State, seat: Seat, hand: tuple[str, ...], hero: str, budget: int) -> list[Action]:
    out: list[Action] = []
    for path in cheapest_paths(state, seat, hero, budget).values():
        steps = paid_steps(state, seat, hero, path)
        out += [Move(hero, path, p) for p in move_payments(state, hand, steps)]
    return out


def _tents(state: State, hand: tuple[str, ...]) -> list[Action]:
    room = 2 if illuminated(state, "E") else 1
    out: list[Action] = []
    for pay in pays(hand, "tent"):
        rest = list(hand)
        for c in pay:
            rest.remove(c)
        for k in range(1, room + 1):
            out += [Tent(canon(list(kept)), pay) for kept in choose(Counter(rest), k)]
    return out
