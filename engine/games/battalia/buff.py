"""Buff le Sans Bannière (seed 004; rulings §4-5, F1-F7): the hooks the base
game calls and the Buff decisions.

Hooks: :func:`on_day_start` (time markers, the horde's token, the auction),
:func:`after_turn` (the d6 and the ``buff …`` move), :func:`on_hero_arrives`
(a hero stepping onto Buff is attacked). Decisions (phases ``auction``,
``enter``, ``buff-move``, ``buff-attack``): :func:`pending`, :func:`legal`,
:func:`check`, :func:`apply`; :func:`turn_actions` adds the voluntary
``recruit`` of a hero sharing free Buff's square; :func:`is_bribed`.

While a Buff decision is pending ``state.buff.resume`` keeps the phase the
game goes back to afterwards (``_finish``). Hero refs in Buff's actions name
the seat (``2h1``: seat 2's first hero), whoever moves him.
"""

from __future__ import annotations

from collections.abc import Iterator

from ... import rng
from ...core import Decision, Event, Seat, evolve
from ...errors import IllegalAction
from ...text import Msg
from . import lines, wander
from .actions import Action, Bid, Bribe, BuffMove, Enter, Fight, Recruit, canon
from .board import road_map, road_neighbours
from .cards import discard_cards, draw_up_to, gain, holds, physical
from .data import board as board_spec
from .data import great_by_code
from .model import Auction, Hero, State
from .oracle import day_of_week, illuminated, week

PHASES = ("auction", "enter", "buff-move", "buff-attack")
MARKER_DAYS = 7
"""« Pour garder trace des 7 jours … Après une rotation complète le marqueur
de temps est retiré »."""
BRIBE_COST = 3
RECRUIT_COST = 4

Events = list[Event]


# ---------------------------------------------------------------------------
# Small readers
# ---------------------------------------------------------------------------


def hero_ref(seat: Seat, index: int) -> str:
    """``2h1``: the 1-based seat and the hero's index."""
    return f"{seat + 1}h{index}"


def _parse_ref(ref: str) -> tuple[Seat, int]:
    return int(ref[0]) - 1, int(ref[2])


def is_bribed(state: State, seat: Seat) -> bool:
    """Whether the seat's bribe marker is still out (its heroes are not
    attacked by Buff and may not attack him)."""
    return any(s == seat and until > state.day for s, until in state.buff.bribes)


def is_free(state: State) -> bool:
    """Buff is on the board and nobody has hired him."""
    b = state.buff
    return state.rules.buff and b.square is not None and b.owner is None


def attackable(state: State, square: str) -> list[Hero]:
    """The heroes on ``square`` free Buff attacks: not of a bribed seat."""
    return [h for h in state.heroes if h.square == square and not is_bribed(state, h.seat)]


def vp(state: State, seat: Seat) -> int:
    """Victory points: the levels of the cities the seat controls."""
    return sum(t.level for t in state.tiles if t.owner == seat)


def bid_strength(state: State, code: str) -> int:
    """A card's strength in the auction (« une force de combat non nulle »):
    units their rank, weapons and horses 1 (2 when illuminated), Great
    Artefacts their value; everything else 0."""
    if code[0].isdigit():
        return int(code[0])
    if code in great_by_code():
        return great_by_code()[code].strength
    if code[0] in ("A", "C") and len(code) == 2:
        return 2 if illuminated(state, code[0]) else 1
    return 0


def start_squares(state: State) -> tuple[str, ...]:
    """The start cities of the board: « une des villes de départ d'un des
    angles du plateau de jeu »."""
    return tuple(sq for sq, _, _ in board_spec(state.seats).starts[: state.seats])


def _provisions(cards: tuple[str, ...], n: int) -> bool:
    return len(cards) == n and all(c == "P" for c in cards)


def _refuse(key: str, **params: str | int) -> IllegalAction:
    return IllegalAction(Msg.of(f"bt-refuse-{key}", **params))


def _set_buff(state: State, **changes: object) -> State:
    return evolve(state, buff=evolve(state.buff, **changes))


# ---------------------------------------------------------------------------
# Hooks
# ---------------------------------------------------------------------------


def on_day_start(state: State) -> tuple[State, Events]:
    """A new day, before the first seat's turn: expired markers, then at a
    week boundary the horde's token and, Buff being off the board, the
    auction (F1, F7)."""
    events: Events = []
    if not state.rules.buff:
        return state, events
    state = _expire(state, events)
    if day_of_week(state.day) != 0 or state.day == 1:
        return state, events
    b = state.buff
    if b.owner is None:
        horde = wander.horde_for_week(week(state.day), state.rules.horde_cap)
        if horde != b.horde or not b.entered:
            events.append(Event("horde", {"week": week(state.day), "horde": horde}))
        state = _set_buff(state, horde=horde)
    if state.buff.square is None and state.buff.owner is None:
        state = _open_auction(state, events)
    return state, events


def _expire(state: State, events: Events) -> State:
    b = state.buff
    kept = []
    for seat, until in b.bribes:
        if until <= state.day:
            events.append(Event("bribe-ends", {"seat": seat}))
        else:
            kept.append((seat, until))
    if len(kept) != len(b.bribes):
        state = _set_buff(state, bribes=tuple(kept))
    b = state.buff
    if b.owner is not None and b.hire_until is not None and b.hire_until <= state.day:
        horde = wander.horde_for_week(week(state.day), state.rules.horde_cap)
        events.append(
            Event("hire-ends", {"seat": b.owner, "square": b.square or "", "horde": horde})
        )
        state = _set_buff(state, owner=None, hire_until=None, horde=horde)
    return state


def _open_auction(state: State, events: Events) -> State:
    bidders = tuple(p.seat for p in state.players if not p.resigned)
    events.append(Event("auction-open", {"week": week(state.day)}))
    state = _enter_phase(state, "auction")
    return evolve(state, auction=Auction(bidders=bidders))


def _enter_phase(state: State, phase: str) -> State:
    """Switch to a Buff phase, remembering where the game goes back to."""
    resume = state.buff.resume if state.phase in PHASES else state.phase
    return evolve(state, phase=phase, buff=evolve(state.buff, resume=resume))


def _finish(state: State) -> State:
    """The Buff episode is over: back to the phase it interrupted."""
    return evolve(
        state,
        phase=state.buff.resume or "turn",
        buff=evolve(state.buff, resume="", mover=None, victim=None, chooser=None),
    )


def after_turn(state: State, seat: Seat) -> tuple[State, Events]:
    """After a seat's ``end``: while Buff is free on the board, that seat
    rolls the d6 and moves him (decision ``buff-move``); when he cannot take
    a step the roll is shown and nothing is asked."""
    events: Events = []
    if not is_free(state):
        return state, events
    face, gen = rng.roll(state.rng, 6)
    events.append(Event("buff-roll", {"seat": seat, "roll": face}))
    b = state.buff
    if not road_neighbours(state, b.square or ""):  # no step to take: only the empty path
        return evolve(state, rng=gen, buff=evolve(b, roll=face)), events
    # the decision buff-move (as _enter_phase, then the mover), in one copy
    resume = b.resume if state.phase in PHASES else state.phase
    buff = evolve(b, roll=face, resume=resume, mover=seat)
    return evolve(state, rng=gen, phase="buff-move", buff=buff), events


def on_hero_arrives(state: State, seat: Seat, hero: str, square: str) -> tuple[State, Events]:
    """A hero ending a move on free Buff's square is attacked, Buff being
    the attacker (« Buff … est là aussi considéré comme étant l'attaquant »),
    unless its seat is bribed."""
    events: Events = []
    if hero == "b" or not is_free(state) or state.buff.square != square:
        return state, events
    if is_bribed(state, seat):
        return state, events
    state = _attack(state, seat, int(hero[1]), None, events)
    return state, events


def _attack(state: State, seat: Seat, index: int, by: Seat | None, events: Events) -> State:
    """Buff attacks the seat's hero: the owner answers (bribe, recruit,
    fight), or loses at once when none is possible (F5)."""
    square = state.buff.square or ""
    events.append(
        Event(
            "buff-attack",
            {
                "seat": seat,
                "hero": hero_ref(seat, index),
                "square": square,
                "horde": state.buff.horde,
                "by": -1 if by is None else by,
            },
        )
    )
    state = _enter_phase(state, "buff-attack")
    state = _set_buff(state, victim=(seat, index), mover=None)
    if not _can_answer(state, seat):
        return _fight(state, seat, (), events, forced=True)
    return state


def _can_answer(state: State, seat: Seat) -> bool:
    """F5: some answer is possible — three Provisions, or a card that may
    stand in a battle line."""
    hand = state.players[seat].hand
    if hand.count("P") >= BRIBE_COST:
        return True
    return any(lines.kind_of(c) in ("unit", "plain") for c in hand)


# ---------------------------------------------------------------------------
# Pending decisions and legal actions
# ---------------------------------------------------------------------------


def pending(state: State) -> dict[Seat, Decision] | None:
    """The Buff decisions pending, or None outside Buff's phases."""
    b = state.buff
    if state.phase == "auction" and state.auction is not None:
        return {s: Decision("bid") for s in state.auction.bidders}
    if state.phase == "enter" and state.auction is not None and state.auction.winner is not None:
        return {state.auction.winner: Decision("enter")}
    if state.phase == "buff-move" and b.mover is not None:
        return {b.mover: Decision("buff-move", (("roll", b.roll or 0),))}
    if state.phase == "buff-attack" and b.victim is not None:
        seat, index = b.victim
        params = (("hero", hero_ref(seat, index)), ("horde", b.horde), ("square", b.square or ""))
        return {seat: Decision("buff-answer", params)}
    return None


def legal(state: State, seat: Seat) -> list[Action]:
    """The seat's legal Buff decisions (empty when it has none)."""
    decision = (pending(state) or {}).get(seat)
    if decision is None:
        return []
    if decision.kind == "bid":
        hand = state.players[seat].hand
        bids = wander.distinct_bids(
            hand, lambda c: bid_strength(state, c), empty=state.rules.empty_bid
        )
        return [Bid(canon(b)) for b in bids]
    if decision.kind == "enter":
        return list(_entries(state))
    if decision.kind == "buff-move":
        return list(_moves(state))
    return list(_answers(state, seat))


def _entries(state: State) -> Iterator[Enter]:
    for sq in start_squares(state):
        heroes = attackable(state, sq)
        if len(heroes) > 1:
            yield from (Enter(sq, hero_ref(h.seat, h.index)) for h in heroes)
        else:
            yield Enter(sq)


def _paths(state: State, roll: int) -> list[tuple[str, ...]]:
    start = state.buff.square or ""
    heroes = {h.square for h in state.heroes if not is_bribed(state, h.seat)}  # attackable
    return wander.buff_paths(start, roll, road_map(state), heroes.__contains__)


def _moves(state: State) -> Iterator[BuffMove]:
    for path in _paths(state, state.buff.roll or 0):
        heroes = attackable(state, path[-1]) if path else []
        if len(heroes) > 1:
            yield from (BuffMove(path, hero_ref(h.seat, h.index)) for h in heroes)
        else:
            yield BuffMove(path)


def random_move(state: State, seat: Seat, gen: int) -> tuple[BuffMove, int] | None:
    """One of :func:`legal`'s ``buff …`` moves for the mover, drawn by a
    walk instead of listing every path: at each square stop there or step
    on to a road neighbour not entered yet (uniformly), never past the roll
    nor past a square with an attackable hero, as :func:`wander.buff_paths`
    lists them; then the hero attacked when several stand at the end. None
    when ``seat`` is not the mover. ``(move, generator)``."""
    b = state.buff
    if state.phase != "buff-move" or b.mover != seat:
        return None
    roll = b.roll or 0
    roads = road_map(state)
    stops = {h.square for h in state.heroes if not is_bribed(state, h.seat)}  # attackable
    here = b.square or ""
    seen = {here}
    path: list[str] = []
    while len(path) < roll and not (path and path[-1] in stops):
        options = sorted(sq for sq in roads(here) if sq not in seen)
        if not options:
            break
        k, gen = rng.randbelow(gen, len(options) + 1)
        if k == len(options):
            break  # stop here
        here = options[k]
        seen.add(here)
        path.append(here)
    heroes = attackable(state, path[-1]) if path else []
    if len(heroes) > 1:
        h, gen = rng.choice(gen, heroes)
        return BuffMove(tuple(path), hero_ref(h.seat, h.index)), gen
    return BuffMove(tuple(path)), gen


def _answers(state: State, seat: Seat) -> Iterator[Action]:
    hand = state.players[seat].hand
    if hand.count("P") >= BRIBE_COST:
        yield Bribe(("P",) * BRIBE_COST)
    if hand.count("P") >= RECRUIT_COST:
        yield Recruit(("P",) * RECRUIT_COST)
    for line in lines.lines(state, hand, weapon=False):
        yield Fight(line)


def resample_bids(state: State, seat: Seat | None, gen: int) -> tuple[State, int]:
    """``determinize``'s part for the auction: every other seat's secret bid
    (not revealed yet) is redrawn among the distinct bids of its resampled
    hand, so a sampled state neither betrays the bid nor holds a bid of
    cards the hand lacks. ``(state, generator)``."""
    auction = state.auction
    if auction is None or auction.revealed or not auction.bids:
        return state, gen
    bids = []
    for bidder, cards in auction.bids:
        if bidder != seat:
            hand = state.players[bidder].hand
            options = wander.distinct_bids(
                hand, lambda c: bid_strength(state, c), empty=state.rules.empty_bid
            )
            cards, gen = rng.choice(gen, options)
        bids.append((bidder, canon(cards)))
    return evolve(state, auction=evolve(auction, bids=tuple(bids))), gen


def turn_actions(state: State, seat: Seat) -> list[Action]:
    """During its turn, a seat with a hero on free Buff's square may hire him
    (« les héros gardent la capacité de recruter Buff »)."""
    if state.phase != "turn" or state.active != seat or not _shares(state, seat):
        return []
    if state.players[seat].hand.count("P") < RECRUIT_COST:
        return []
    return [Recruit(("P",) * RECRUIT_COST)]


def _shares(state: State, seat: Seat) -> bool:
    return is_free(state) and any(
        h.seat == seat and h.square == state.buff.square for h in state.heroes
    )


# ---------------------------------------------------------------------------
# Checks (one per action kind: None when legal, else the refusal)
# ---------------------------------------------------------------------------


def check(state: State, seat: Seat, action: Action) -> IllegalAction | None:
    decision = (pending(state) or {}).get(seat)
    kind = decision.kind if decision is not None else ""
    if isinstance(action, Recruit) and kind == "":
        return _check_turn_recruit(state, seat, action)
    expected = {
        Bid: "bid",
        Enter: "enter",
        BuffMove: "buff-move",
        Bribe: "buff-answer",
        Recruit: "buff-answer",
        Fight: "buff-answer",
    }.get(type(action))
    if expected is None or expected != kind:
        return _refuse("buff-not-now")
    if isinstance(action, Bid):
        return _check_bid(state, seat, action)
    if isinstance(action, Enter):
        return _check_enter(state, action)
    if isinstance(action, BuffMove):
        return _check_move(state, action)
    return _check_answer(state, seat, action)


def _check_bid(state: State, seat: Seat, action: Bid) -> IllegalAction | None:
    hand = state.players[seat].hand
    if not holds(hand, action.cards):
        return _refuse("not-in-hand")
    for card in action.cards:
        if bid_strength(state, card) <= 0:
            return _refuse("bid-zero", card=card)
    if (
        not action.cards
        and not state.rules.empty_bid
        and any(bid_strength(state, c) > 0 for c in hand)
    ):
        return _refuse("bid-empty")
    return None


def _check_enter(state: State, action: Enter) -> IllegalAction | None:
    if action.square not in start_squares(state):
        return _refuse("enter-square", square=action.square)
    return _check_victim(state, action.square, action.hero)


def _check_victim(state: State, square: str, hero: str) -> IllegalAction | None:
    heroes = [hero_ref(h.seat, h.index) for h in attackable(state, square)]
    if hero and hero not in heroes:
        return _refuse("buff-hero", hero=hero)
    if not hero and len(heroes) > 1:
        return _refuse("buff-choose-hero", square=square)
    return None


def _check_move(state: State, action: BuffMove) -> IllegalAction | None:
    roll = state.buff.roll or 0
    why = wander.valid_path(
        state.buff.square or "",
        action.path,
        roll,
        lambda sq: road_neighbours(state, sq),
        lambda sq: bool(attackable(state, sq)),
    )
    if why is not None:
        return _refuse(f"buff-{why}", roll=roll)
    if not action.path:
        return _refuse("buff-hero", hero=action.hero) if action.hero else None
    return _check_victim(state, action.path[-1], action.hero)


def _check_answer(state: State, seat: Seat, action: Action) -> IllegalAction | None:
    hand = state.players[seat].hand
    if isinstance(action, Bribe):
        if not _provisions(action.cards, BRIBE_COST):
            return _refuse("bribe-cost")
        return None if holds(hand, action.cards) else _refuse("not-in-hand")
    if isinstance(action, Recruit):
        if not _provisions(action.cards, RECRUIT_COST):
            return _refuse("recruit-cost")
        return None if holds(hand, action.cards) else _refuse("not-in-hand")
    assert isinstance(action, Fight)
    if not holds(hand, [physical(c) for c in action.line]):
        return _refuse("not-in-hand")
    if not lines.line_ok(state, action.line, weapon=False):
        return _refuse("line")
    return None


def _check_turn_recruit(state: State, seat: Seat, action: Recruit) -> IllegalAction | None:
    if state.phase != "turn" or state.active != seat:
        return _refuse("buff-not-now")
    if not _shares(state, seat):
        return _refuse("recruit-not-here")
    if not _provisions(action.cards, RECRUIT_COST):
        return _refuse("recruit-cost")
    if not holds(state.players[seat].hand, action.cards):
        return _refuse("not-in-hand")
    return None


# ---------------------------------------------------------------------------
# Effects
# ---------------------------------------------------------------------------


def apply(state: State, seat: Seat, action: Action) -> tuple[State, Events]:
    """Apply a Buff decision (checked first)."""
    refusal = check(state, seat, action)
    if refusal is not None:
        raise refusal
    events: Events = []
    if isinstance(action, Bid):
        state = _bid(state, seat, action, events)
    elif isinstance(action, Enter):
        state = _enter(state, seat, action, events)
    elif isinstance(action, BuffMove):
        state = _move(state, seat, action, events)
    elif isinstance(action, Bribe):
        state = _bribe(state, seat, action, events)
    elif isinstance(action, Recruit):
        state = _recruit(state, seat, action, events)
    else:
        assert isinstance(action, Fight)
        state = _fight(state, seat, action.line, events, forced=False)
    return state, events


def _bid(state: State, seat: Seat, action: Bid, events: Events) -> State:
    """A secret bid: addressed to the bidder only, the others read that it
    has bid. The cards stay in the hand until Buff enters."""
    auction = state.auction
    assert auction is not None
    total = sum(bid_strength(state, c) for c in action.cards)
    events.append(
        Event(
            "bid",
            {"seat": seat, "cards": list(action.cards), "total": total},
            to=frozenset({seat}),
            redacted={"seat": seat},
        )
    )
    auction = evolve(
        auction,
        bidders=tuple(s for s in auction.bidders if s != seat),
        bids=(*auction.bids, (seat, action.cards)),
    )
    state = evolve(state, auction=auction)
    if auction.bidders:
        return state
    return _reveal(state, events)


def withdraw(state: State, seat: Seat, events: Events) -> State:
    """A seat resigning during the auction leaves it without a bid: the
    others' bids decide (revealed when they are all in)."""
    auction = state.auction
    if state.phase != "auction" or auction is None or seat not in auction.bidders:
        return state
    auction = evolve(auction, bidders=tuple(s for s in auction.bidders if s != seat))
    state = evolve(state, auction=auction)
    if auction.bidders:
        return state
    return _reveal(state, events)


def _reveal(state: State, events: Events) -> State:
    """All have bid: reveal together; the highest total wins, then the most
    victory points, then chance."""
    auction = state.auction
    assert auction is not None
    bids = sorted(auction.bids)
    totals = [(s, sum(bid_strength(state, c) for c in cards), vp(state, s)) for s, cards in bids]
    tied = wander.auction_order(totals)
    tie = ""
    gen = state.rng
    if len(tied) > 1:
        winner, gen = rng.choice(gen, tied)
        tie = "chance"
    else:
        winner = tied[0]
        top = max(t for _, t, _ in totals)
        tie = "vp" if sum(1 for _, t, _ in totals if t == top) > 1 else ""
    events.append(
        Event(
            "auction",
            {
                "bids": [
                    [s, list(cards), t] for (s, cards), (_, t, _) in zip(bids, totals, strict=True)
                ],
                "winner": winner,
                "tie": tie,
            },
        )
    )
    auction = evolve(auction, bids=tuple(bids), winner=winner, revealed=True)
    for seat, cards in bids:
        state = _out_of_hand(state, seat, cards)
    return evolve(state, rng=gen, auction=auction, phase="enter")


def _out_of_hand(state: State, seat: Seat, cards: tuple[str, ...]) -> State:
    """Revealed bid cards leave the hand (they are discarded when Buff
    enters). Tolerant of a resampled hand (``determinize``) that lacks one."""
    hand = list(state.players[seat].hand)
    for card in cards:
        if card in hand:
            hand.remove(card)
    player = evolve(state.players[seat], hand=tuple(hand))
    return evolve(state, players=tuple(player if p.seat == seat else p for p in state.players))


def _enter(state: State, seat: Seat, action: Enter, events: Events) -> State:
    """Buff enters on the chosen start city with the week's token; the bids
    are discarded, every seat refills to 6, a hero there is attacked."""
    auction = state.auction
    assert auction is not None
    horde = wander.horde_for_week(week(state.day), state.rules.horde_cap)
    state = _set_buff(
        state,
        square=action.square,
        owner=None,
        hire_until=None,
        absent=False,
        entered=True,
        horde=horde,
    )
    events.append(Event("buff-enter", {"seat": seat, "square": action.square, "horde": horde}))
    for bidder, cards in auction.bids:
        if cards:
            state = gain(state, bidder, cards)
    for p in state.players:
        if not p.resigned:
            state, more = draw_up_to(state, p.seat, state.rules.hand_size)
            events.extend(more)
    state = evolve(state, auction=None)
    return _maybe_attack(state, action.square, action.hero, seat, events)


def _maybe_attack(state: State, square: str, hero: str, by: Seat, events: Events) -> State:
    heroes = attackable(state, square)
    if hero:
        target = _parse_ref(hero)
    elif len(heroes) == 1:
        target = (heroes[0].seat, heroes[0].index)
    else:
        return _finish(state)
    return _attack(state, target[0], target[1], by, events)


def _move(state: State, seat: Seat, action: BuffMove, events: Events) -> State:
    if action.path:
        events.append(
            Event(
                "buff-move",
                {"seat": seat, "from": state.buff.square or "", "path": list(action.path)},
            )
        )
        state = _set_buff(state, square=action.path[-1])
        return _maybe_attack(state, action.path[-1], action.hero, seat, events)
    events.append(Event("buff-move", {"seat": seat, "from": state.buff.square or "", "path": []}))
    return _finish(state)


def _bribe(state: State, seat: Seat, action: Bribe, events: Events) -> State:
    """Three Provisions: 7 days of peace for the seat's heroes."""
    until = state.day + MARKER_DAYS
    state = discard_cards(state, seat, action.cards)
    bribes = tuple(b for b in state.buff.bribes if b[0] != seat) + ((seat, until),)
    state = _set_buff(state, bribes=tuple(sorted(bribes)))
    events.append(Event("bribe", {"seat": seat, "until": until}))
    return _finish(state)


def _recruit(state: State, seat: Seat, action: Recruit, events: Events) -> State:
    """Four Provisions: Buff is the seat's hero ``b`` for 7 days."""
    until = state.day + MARKER_DAYS
    state = discard_cards(state, seat, action.cards)
    state = _set_buff(state, owner=seat, hire_until=until)
    events.append(Event("recruit", {"seat": seat, "until": until, "square": state.buff.square}))
    # S31: each player has one time marker (« son marqueur de temps »): a
    # bribed seat that hires Buff moves it to the hire, the bribe ends
    if any(s == seat for s, _ in state.buff.bribes):
        bribes = tuple((s, u) for s, u in state.buff.bribes if s != seat)
        state = evolve(state, buff=evolve(state.buff, bribes=bribes))
        events.append(Event("bribe-ends", {"seat": seat}))
    return _finish(state) if state.phase in PHASES else state


def _fight(
    state: State, seat: Seat, line: tuple[str, ...], events: Events, *, forced: bool
) -> State:
    """The defender's line against the horde: at least the horde wins (Buff
    leaves until the week boundary), less loses the hero."""
    b = state.buff
    assert b.victim is not None
    index = b.victim[1]
    square = b.square or ""
    state, breakdown = lines.resolve_line(state, seat, line, square, leader="hero")
    if not state.rules.buff_fight_bonuses:
        breakdown = evolve(breakdown, morale=0, terrain=0, total=breakdown.base)
    state = _discard_line(state, seat, line, breakdown.rolls)
    won = breakdown.total >= b.horde
    events.append(
        Event(
            "buff-fight",
            {
                "seat": seat,
                "hero": hero_ref(seat, index),
                "line": list(line),
                "strength": breakdown.total,
                "base": breakdown.base,
                "morale": breakdown.morale,
                "terrain": breakdown.terrain,
                "rolls": [list(r) for r in breakdown.rolls],
                "horde": b.horde,
                "won": won,
                "forced": forced,
            },
        )
    )
    if won:
        state = _set_buff(state, square=None, absent=True)
        events.append(Event("buff-removed", {"by": seat, "owner": None, "square": square}))
    else:
        heroes = tuple(h for h in state.heroes if (h.seat, h.index) != (seat, index))
        state = evolve(state, heroes=heroes)
        events.append(Event("hero-lost", {"seat": seat, "hero": f"h{index}"}))
    return _finish(state)


def _discard_line(
    state: State, seat: Seat, line: tuple[str, ...], rolls: tuple[tuple[str, int], ...]
) -> State:
    """The line leaves the hand for the discard pile; a unit whose amulet
    rolled a 4 goes to the Ambush (as in every battle)."""
    if not line:
        return state
    cards = [physical(c) for c in line]
    hand = list(state.players[seat].hand)
    for card in cards:
        hand.remove(card)
    ambush = list(state.ambush)
    for unit, face in rolls:
        if face == 4 and unit in cards:
            cards.remove(unit)
            ambush.append(unit)
    state = evolve(state, ambush=tuple(ambush))
    player = evolve(state.players[seat], hand=tuple(hand))
    players = tuple(player if p.seat == seat else p for p in state.players)
    return gain(evolve(state, players=players), seat, cards)
