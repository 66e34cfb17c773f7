"""Set-up, turns, days and the end (ruling 2.4, 2.5, 2.12).

Set-up: every seat is dealt a 10-card deck from the common stacks (3
rank-1, 1 rank-2, 1 rank-3 units and 5 Provisions) and draws 6; the seats
choose a faction in turn order, then the start squares, the last to choose a
faction first. Turn: ``mulligan`` or ``cohort`` as the first action only,
action lines, ``end`` (discard everything, draw up to 6), Buff's hook, the
next seat; after the last seat a new day (Buff's day hook first). The game
ends at once on 5 level-4 cities or a full area, when no seat can place a
terrain card any more [P], or after ``week_limit`` weeks.
"""

from __future__ import annotations

from ... import rng
from ...core import Event, Seat, evolve
from . import buff
from .actions import ChooseFaction, ChooseStart, City, Cohort, Place, Road, Tent, Upgrade
from .board import canonical_rotation, is_full, put_tile, spots_for
from .cards import discard_cards, draw, play_cards, set_player
from .data import ROAD_LAYOUTS, board, data, faction_terrain
from .market import build_market
from .model import Hero, Options, Placing, Player, Rules, State, Tile
from .oracle import day_of_week, week

# ---------------------------------------------------------------------------
# Set-up
# ---------------------------------------------------------------------------


def factions_in_play(rules: Rules, seats: int) -> tuple[str, ...]:
    removed = rules.two_seat_removed if seats == 2 else ""
    return tuple(f.code for f in data().factions if f.code != removed)


def _terrain_decks(
    spec: dict[str, dict[str, int]], gen: int
) -> tuple[tuple[tuple[str, tuple[str, ...]], ...], int]:
    out = []
    for layout in sorted(spec, key="DILTX".index):
        cards = [t for t, n in sorted(spec[layout].items()) for _ in range(n)]
        shuffled, gen = rng.shuffle(gen, cards)
        out.append((layout, shuffled))
    return tuple(out), gen


def setup(options: Options, seats: int, seed: int) -> State:
    rules = Rules(**options.model_dump())
    gen = rng.seed_state(seed, "battalia")
    factions = factions_in_play(rules, seats)
    market, gen = build_market(factions, rules.mercenaries, gen)
    d = data()
    provisions = d.provisions.count * len(factions) // len(d.factions)
    stacks = {k: list(v) for k, v in market}
    players = []
    for seat in range(seats):
        cards = [stacks[str(r)].pop() for r in d.starting_deck.ranks]
        cards += ["P"] * d.starting_deck.provisions
        provisions -= d.starting_deck.provisions
        deck, gen = rng.shuffle(gen, cards)
        players.append(Player(seat, hand=deck[-rules.hand_size :], deck=deck[: -rules.hand_size]))
    roads, gen = _terrain_decks(d.roads, gen)
    cities, gen = _terrain_decks(d.cities, gen)
    great, gen = rng.shuffle(gen, [g.code for g in d.great_artefacts])
    spec = board(seats)
    tiles = [Tile(sq, "neutral", lay, rot, "plaine", 4, None) for sq, lay, rot in spec.neutral]
    sq, lay, rot = spec.ruins
    tiles.append(Tile(sq, "ruins", lay, rot, "plaine", 0, None))
    return State(
        rules=rules,
        seats=seats,
        rng=gen,
        phase="faction",
        active=0,
        day=1,
        players=tuple(players),
        tiles=tuple(sorted(tiles, key=lambda t: t.square)),
        market=tuple((k, tuple(v)) for k, v in stacks.items()),
        roads=roads,
        cities=cities,
        provisions=provisions,
        great=tuple(sorted(great[: seats + 1])),
        great_hidden=great[seats + 1 :],
    )


def free_factions(state: State) -> list[str]:
    taken = {p.faction for p in state.players}
    return [f for f in factions_in_play(state.rules, state.seats) if f not in taken]


def free_starts(state: State) -> list[str]:
    taken = {p.start for p in state.players}
    return [sq for sq, _, _ in board(state.seats).starts if sq not in taken]


def choose_faction(state: State, seat: Seat, action: ChooseFaction, events: list[Event]) -> State:
    p = state.players[seat]
    state = set_player(state, seat, evolve(p, faction=action.faction))
    order = (*state.order, seat)
    state = evolve(state, order=order)
    events.append(Event("faction", {"seat": seat, "faction": action.faction}))
    left = [s for s in range(state.seats) if not state.players[s].faction]
    if left:
        return evolve(state, active=left[0])
    return evolve(state, phase="start", active=order[-1])


def choose_start(state: State, seat: Seat, action: ChooseStart, events: list[Event]) -> State:
    p = state.players[seat]
    spec = next(s for s in board(state.seats).starts if s[0] == action.square)
    terrain = faction_terrain()[p.faction]
    tile = Tile(action.square, "start", spec[1], spec[2], terrain, state.rules.start_level, seat)
    state = evolve(state, tiles=put_tile(state, tile))
    state = set_player(state, seat, evolve(p, start=action.square))
    if state.rules.heroes_start == "start":
        heroes = (*state.heroes, Hero(seat, 1, action.square), Hero(seat, 2, action.square))
        state = evolve(state, heroes=tuple(sorted(heroes, key=lambda h: (h.seat, h.index))))
    events.append(Event("start", {"seat": seat, "square": action.square}))
    left = [s for s in reversed(state.order) if not state.players[s].start]
    if left:
        return evolve(state, active=left[0])
    return new_day(evolve(state, day=0), events)


# ---------------------------------------------------------------------------
# Turns and days
# ---------------------------------------------------------------------------


def playing(state: State) -> list[Seat]:
    return [p.seat for p in state.players if not p.resigned]


def begin_turn(state: State, seat: Seat, events: list[Event]) -> State:
    p = state.players[seat]
    if p.tent:
        state = set_player(state, seat, evolve(p, hand=(*p.hand, *p.tent), tent=()))
        events.append(Event("tent-back", {"seat": seat, "count": len(p.tent)}))
    events.append(Event("turn", {"seat": seat, "day": state.day}))
    return evolve(state, phase="turn", active=seat, first_action=True, turn=state.turn + 1)


def end_turn(state: State, seat: Seat, events: list[Event]) -> State:
    p = state.players[seat]
    p = evolve(p, hand=(), played=(), discard=(*p.discard, *p.played, *p.hand))
    events.append(Event("end", {"seat": seat}))
    # discard everything, draw up to the hand size: one copy of the state
    state = draw(state, seat, state.rules.hand_size, events, player=p, phase="after-turn")
    if state.rules.buff:
        state, more = buff.after_turn(state, seat)
        events.extend(more)
    return state


def new_day(state: State, events: list[Event]) -> State:
    day = state.day + 1
    state = evolve(state, day=day, phase="day-start")
    if state.rules.week_limit and week(day) > state.rules.week_limit:
        return finish(state, "weeks", events)
    if day_of_week(day) == 0 and day > 1:
        events.append(Event("week", {"week": week(day), "day": day}))
    events.append(Event("day", {"day": day, "week": week(day)}))
    if state.rules.buff:
        state, more = buff.on_day_start(state)
        events.extend(more)
    return state


def advance(state: State, events: list[Event]) -> State:
    """After a seat's turn (and Buff's move): the next seat, or a new day."""
    if state.rules.end_no_placement and not anyone_can_place(state):
        return finish(state, "no-placement", events)
    seats = playing(state)
    later = [s for s in seats if s > state.active]
    if later:
        return begin_turn(state, later[0], events)
    return new_day(state, events)


def settle(state: State, events: list[Event]) -> State:
    """Run the automatic steps until somebody must decide."""
    for _ in range(64):
        if state.phase == "over":
            return state
        state = auto_setup(state, events)
        if state.rules.buff and buff.pending(state):
            return state
        if state.phase == "after-turn":
            state = advance(state, events)
        elif state.phase == "day-start":
            state = begin_turn(state, playing(state)[0], events)
        else:
            return state
    raise AssertionError("the turn sequence does not settle")  # pragma: no cover


# ---------------------------------------------------------------------------
# Start of turn, building, tents
# ---------------------------------------------------------------------------


def mulligan(state: State, seat: Seat, events: list[Event]) -> State:
    p = state.players[seat]
    state = discard_cards(state, seat, p.hand)
    events.append(Event("mulligan", {"seat": seat, "count": len(p.hand)}))
    return draw(state, seat, state.rules.mulligan_draw, events)


def cohort(state: State, seat: Seat, action: Cohort, events: list[Event]) -> State:
    events.append(Event("cohort", {"seat": seat, "cards": list(action.cards)}))
    return draw(state, seat, state.rules.cohort_draw, events)


def _draw_terrain(state: State, kind: str, layout: str) -> tuple[State, str]:
    decks = state.roads if kind == "road" else state.cities
    new = []
    terrain = ""
    for k, cards in decks:
        if k == layout:
            terrain = cards[-1]
            cards = cards[:-1]
        new.append((k, cards))
    field = "roads" if kind == "road" else "cities"
    return evolve(state, **{field: tuple(new)}), terrain


def build(state: State, seat: Seat, action: Road | City, events: list[Event]) -> State:
    state = play_cards(state, seat, action.cards)
    kind = "road" if isinstance(action, Road) else "city"
    level = action.level if isinstance(action, City) else 0
    state, terrain = _draw_terrain(state, kind, action.layout)
    placing = Placing(seat, kind, action.layout, terrain, level)
    events.append(
        Event(
            "build",
            {
                "seat": seat,
                "kind": kind,
                "layout": action.layout,
                "terrain": terrain,
                "level": level,
                "cards": list(action.cards),
            },
        )
    )
    return evolve(state, placing=placing, phase="place")


def place(state: State, seat: Seat, action: Place, events: list[Event]) -> State:
    placing = state.placing
    assert placing is not None
    owner = seat if placing.kind == "city" else None
    rotation = canonical_rotation(placing.layout, action.rotation)
    tile = Tile(
        action.square,
        placing.kind,
        placing.layout,
        rotation,
        placing.terrain,
        placing.level,
        owner,
    )
    events.append(
        Event(
            "place",
            {
                "seat": seat,
                "square": action.square,
                "rotation": rotation,
                "kind": placing.kind,
                "layout": placing.layout,
                "terrain": placing.terrain,
                "level": placing.level,
            },
        )
    )
    return evolve(state, tiles=put_tile(state, tile), placing=None, phase="turn")


def upgrade(state: State, seat: Seat, action: Upgrade, events: list[Event]) -> State:
    state = play_cards(state, seat, action.cards)
    tile = next(t for t in state.tiles if t.square == action.square)
    state = evolve(state, tiles=put_tile(state, evolve(tile, level=tile.level + 1)))
    events.append(
        Event(
            "upgrade",
            {
                "seat": seat,
                "square": action.square,
                "level": tile.level + 1,
                "cards": list(action.cards),
            },
        )
    )
    return state


def tent(state: State, seat: Seat, action: Tent, events: list[Event]) -> State:
    state = play_cards(state, seat, action.cards)
    p = state.players[seat]
    hand = list(p.hand)
    for c in action.kept:
        hand.remove(c)
    state = set_player(state, seat, evolve(p, hand=tuple(hand), tent=(*p.tent, *action.kept)))
    events.append(
        Event(
            "tent",
            {"seat": seat, "kept": list(action.kept), "cards": list(action.cards)},
            to=frozenset({seat}),
            redacted={"seat": seat, "count": len(action.kept), "cards": list(action.cards)},
        )
    )
    return state


# ---------------------------------------------------------------------------
# Scores and the end
# ---------------------------------------------------------------------------


def score(state: State, seat: Seat) -> tuple[int, int, int]:
    """(VP = the levels of the seat's cities, level-4 cities, cities)."""
    levels = [t.level for t in state.tiles if t.owner == seat and t.level > 0]
    return sum(levels), sum(1 for v in levels if v == 4), len(levels)


def anyone_can_place(state: State) -> bool:
    layouts = [k for k, cards in state.roads if cards and k in ROAD_LAYOUTS]
    layouts += [k for k, cards in state.cities if cards and k not in layouts]
    if not layouts:
        return False
    for seat in playing(state):
        for layout in layouts:
            if spots_for(state, seat, layout):
                return True
    return False


def _level4(tiles: tuple[Tile, ...]) -> dict[Seat, int]:
    """Level-4 cities by owner (``score``'s second number), once per tiles tuple."""
    hit = _LEVEL4.get(id(tiles))
    if hit is not None and hit[0] is tiles:
        return hit[1]
    counts: dict[Seat, int] = {}
    for t in tiles:
        if t.level == 4 and t.owner is not None:
            counts[t.owner] = counts.get(t.owner, 0) + 1
    if len(_LEVEL4) > 256:
        _LEVEL4.clear()
    _LEVEL4[id(tiles)] = (tiles, counts)
    return counts


_LEVEL4: dict[int, tuple[tuple[Tile, ...], dict[Seat, int]]] = {}


def check_end(state: State, events: list[Event]) -> State:
    """The printed ends, checked after every action."""
    if state.phase == "over" or not state.order or state.phase in ("faction", "start"):
        return state
    level4 = _level4(state.tiles)
    if level4 and any(level4.get(seat, 0) >= 5 for seat in playing(state)):
        return finish(state, "five-level4", events)
    if is_full(state):
        return finish(state, "full", events)
    return state


def ranking(state: State) -> tuple[tuple[Seat, ...], ...]:
    groups: dict[tuple[int, int, int], list[Seat]] = {}
    for seat in playing(state):
        key = score(state, seat)
        if state.rules.tie_breaks == "none":
            key = (key[0], 0, 0)
        groups.setdefault(key, []).append(seat)
    out = [tuple(groups[k]) for k in sorted(groups, reverse=True)]
    out += [(s,) for s in reversed(state.gone)]
    return tuple(out)


def finish(state: State, reason: str, events: list[Event]) -> State:
    state = evolve(state, phase="over", placing=None)
    state = evolve(state, ranking=ranking(state), end_reason=reason)
    events.append(
        Event(
            "game-over",
            {
                "reason": reason,
                "ranking": [list(g) for g in state.ranking],
                "scores": [score(state, s)[0] for s in range(state.seats)],
            },
        )
    )
    return state


def resign(state: State, seat: Seat, events: list[Event]) -> State:
    """The seat leaves: its heroes leave the board, its cities stay; the game
    goes on while two seats play."""
    p = state.players[seat]
    state = set_player(state, seat, evolve(p, resigned=True))
    heroes = tuple(h for h in state.heroes if h.seat != seat)
    state = evolve(state, gone=(*state.gone, seat), heroes=heroes)
    if state.buff.owner == seat:
        state = evolve(state, buff=evolve(state.buff, owner=None, hire_until=None))
    events.append(Event("resign", {"seat": seat}))
    if len(playing(state)) <= 1:
        return finish(state, "resign", events)
    hook = getattr(buff, "on_resign", None)
    if hook is not None and state.rules.buff:
        state, more = hook(state, seat)
        events.extend(more)
    elif state.rules.buff:
        state = _buff_answers_for(state, seat, events)
    battle = state.battle
    if state.phase == "defend" and battle is not None and battle.defender == seat:
        from .actions import Defend
        from .battle import defend

        state = defend(state, seat, Defend(()), events)
    if state.active == seat and state.phase in ("turn", "place", "take"):
        p = state.players[seat]
        state = set_player(
            state, seat, evolve(p, discard=(*p.discard, *p.played, *p.hand), hand=(), played=())
        )
        state = evolve(state, phase="after-turn", placing=None)
    return settle(state, events)


def _buff_answers_for(state: State, seat: Seat, events: list[Event]) -> State:
    """Buff's decisions a resigned seat still owes are made for it: an empty
    bid, Buff staying put, an empty fight line (its heroes have left)."""
    from .actions import Action, Bid, BuffMove, Fight

    passive: dict[str, Action] = {
        "bid": Bid(()),
        "buff-move": BuffMove(()),
        "buff-answer": Fight(()),
    }
    for _ in range(8):
        decision = (buff.pending(state) or {}).get(seat)
        if decision is None:
            return state
        if decision.kind == "bid":  # the auction goes on without it
            state = buff.withdraw(state, seat, events)
            continue
        action = passive.get(decision.kind)
        if action is None or buff.check(state, seat, action) is not None:
            choices = buff.legal(state, seat)
            if not choices:
                return state
            action = choices[0]
        state, more = buff.apply(state, seat, action)
        events.extend(more)
    return state


def auto_setup(state: State, events: list[Event]) -> State:
    """A resigned seat's set-up choices are made for it (the first free one)."""
    while state.phase in ("faction", "start") and state.players[state.active].resigned:
        seat = state.active
        if state.phase == "faction":
            state = choose_faction(state, seat, ChooseFaction(free_factions(state)[0]), events)
        else:
            state = choose_start(state, seat, ChooseStart(free_starts(state)[0]), events)
    return state
