"""The start of a game: the table, the decks, the initiative (V1)."""

from __future__ import annotations

from dataclasses import dataclass

from ... import rng
from ...core import Event, Seat
from ...core import evolve as replace
from ...errors import BadOptions
from ...text import Msg
from .board import card_table
from .data import GAME_ID, PRESETS, DeckFile, Preset, deck_file
from .geometry import (
    Layout,
    Rect,
    card_rect,
    cell_text,
    parse_cell,
    preset_cups,
    random_cups,
    table_layout,
)
from .model import (
    AMBUSH_COST,
    BASE_PA,
    INN_PA,
    CardDef,
    Castle,
    Options,
    Player,
    Rules,
    State,
    Terrain,
    TerrainKind,
    _pick,
)
from .turns import _start_turn


@dataclass(frozen=True, slots=True)
class TableSize:
    """The table of a new game, in cells, and how much terrain it holds."""

    width: int
    height: int
    castle_gap: int
    terrain_gap: int
    inns: int
    outposts: int


def setup(opts: Options, seats: int, seed: int) -> State:
    """A new game (the options validated and the seat count checked by the game)."""
    data = deck_file()
    preset = PRESETS[opts.table]
    size = table_size(opts, preset, seats, data)
    layout = table_layout(size.width, size.height, seats, size.castle_gap, size.terrain_gap)
    taken = _place_castles(layout, size)
    slots = _terrain_slots(opts, layout, size, taken)
    stream = rng.Stream(rng.seed_state(seed, GAME_ID))
    cups = _cups(opts, preset, size, seats, stream, taken)
    inn: TerrainKind = "inn"
    outpost: TerrainKind = "outpost"
    kinds = list(stream.shuffle([inn] * size.inns + [outpost] * size.outposts))
    terrain = tuple(
        Terrain(kind=k, x=x, y=y, landscape=land, revealed=not opts.terrain_hidden)
        for k, (x, y, land) in zip(kinds, slots, strict=True)
    )
    castles = tuple(
        Castle(owner=seat, x=x, y=y, landscape=land)
        for seat, (x, y, land) in enumerate(layout.castles)
    )
    cards = _card_defs(data)
    rules = _rules(opts, size, cards, data.hand_start)
    state = State(
        rules=rules,
        cups=tuple((cx, cy, opts.cup_size, opts.cup_size) for cx, cy in cups),
        castles=castles,
        terrain=terrain,
        units=(),
        players=_deal(stream, seats, cards, data.hand_start),
        rng=stream.state,
        phase="turn",
        active=0,
    )
    state, first = _initiative(state)
    events: list[Event] = []
    return _start_turn(state, first, events, first_turn=True)


def table_size(opts: Options, preset: Preset, seats: int, data: DeckFile) -> TableSize:
    """The table's size and gaps (the preset's unless set), and the inns and
    outposts set out (the recommended numbers unless set)."""
    width = opts.width or preset.width
    height = opts.height or preset.height
    if height > width:
        raise BadOptions(Msg.of("vb-refuse-width", width=height, height=width))
    castle_gap = opts.castle_gap or preset.castle_gap
    terrain_gap = opts.terrain_gap or preset.terrain_gap
    recommended = preset.terrain if seats == 2 else max(preset.terrain, 2)
    inns = recommended if opts.inns is None else opts.inns
    outposts = recommended if opts.outposts is None else opts.outposts
    if inns > data.terrain.inns * seats or outposts > data.terrain.outposts * seats:
        held = {"inns": data.terrain.inns * seats, "outposts": data.terrain.outposts * seats}
        raise BadOptions(Msg.of("vb-refuse-terrain-held", **held))
    return TableSize(width, height, castle_gap, terrain_gap, inns, outposts)


def _place_castles(layout: Layout, size: TableSize) -> list[Rect]:
    """The castles' rectangles, checked to fit on the table."""
    width, height = size.width, size.height
    taken: list[Rect] = []
    for x, y, land in layout.castles:
        r = card_rect(x, y, land)
        if not r.inside(width, height) or any(r.overlaps(o) for o in taken):
            raise BadOptions(Msg.of("vb-refuse-castles-fit", width=width, height=height))
        taken.append(r)
    return taken


def _terrain_slots(
    opts: Options, layout: Layout, size: TableSize, taken: list[Rect]
) -> tuple[tuple[int, int, bool], ...]:
    """The places of the middle terrain (the layout's, or ``terrain_cells``),
    checked and added to ``taken``."""
    width, height, inns, outposts = size.width, size.height, size.inns, size.outposts
    slots = layout.slots[: inns + outposts]
    if opts.terrain_cells:
        if len(opts.terrain_cells) != inns + outposts:
            given = len(opts.terrain_cells)
            raise BadOptions(
                Msg.of(
                    "vb-refuse-terrain-cells",
                    places=inns + outposts,
                    inns=inns,
                    outposts=outposts,
                    given=given,
                )
            )
        own: list[tuple[int, int, bool]] = []
        for text in opts.terrain_cells:
            cell = parse_cell(text[:-1])
            assert cell is not None
            own.append((cell[0], cell[1], text.endswith("L")))
        slots = tuple(own)
    for x, y, land in slots:
        r = card_rect(x, y, land)
        if opts.terrain_cells:
            if not r.inside(width, height) or any(r.overlaps(o) for o in taken):
                raise BadOptions(Msg.of("vb-refuse-terrain-place", cell=cell_text(x, y)))
        elif not r.inside(width, height) or any(r.near(o, 1) for o in taken):
            raise BadOptions(Msg.of("vb-refuse-terrain-fit", inns=inns, outposts=outposts))
        taken.append(r)
    return slots


def _cups(
    opts: Options,
    preset: Preset,
    size: TableSize,
    seats: int,
    stream: rng.Stream,
    taken: list[Rect],
) -> list[tuple[int, int]]:
    """The cups' top-left cells: ``cup_cells``, or the preset's places, or
    random symmetric places (drawn from ``stream``)."""
    width, height, cup = size.width, size.height, opts.cup_size
    if opts.cup_cells:
        return _custom_cups(opts, size, taken)
    count = preset.cups if opts.cups is None else opts.cups
    if opts.cup_layout == "random":
        return random_cups(stream, width, height, seats, count, cup, taken)
    places = preset_cups(width, height, seats, size.castle_gap, size.terrain_gap, cup)
    if count > len(places):
        raise BadOptions(Msg.of("vb-refuse-preset-cups", count=len(places)))
    cups = places[:count]
    for cx, cy in cups:
        r = Rect(cx, cy, cup, cup)
        if not r.inside(width, height) or any(r.near(o, 1) for o in taken):
            raise BadOptions(Msg.of("vb-refuse-cups-fit", count=count))
    return cups


def _custom_cups(opts: Options, size: TableSize, taken: list[Rect]) -> list[tuple[int, int]]:
    """The cups of ``cup_cells``, checked to be on the table and over no card."""
    cups = []
    for text in opts.cup_cells:
        cell = parse_cell(text)
        assert cell is not None
        cups.append(cell)
    placed: list[Rect] = []
    for cx, cy in cups:
        r = Rect(cx, cy, opts.cup_size, opts.cup_size)
        if not r.inside(size.width, size.height) or any(r.overlaps(o) for o in taken + placed):
            raise BadOptions(Msg.of("vb-refuse-cup-place", cell=cell_text(cx, cy)))
        placed.append(r)
    return cups


def _card_defs(data: DeckFile) -> tuple[CardDef, ...]:
    """The data file's unit cards, as copied into the state."""
    return tuple(
        CardDef(
            name=u.name,
            ivk=u.ivk,
            atk=u.atk,
            dfn=u.defence,
            ability=u.ability or "",
            aura_atk=u.aura_atk,
            aura_def=u.aura_def,
            count=u.count,
        )
        for u in data.units
    )


def _rules(opts: Options, size: TableSize, cards: tuple[CardDef, ...], hand_start: int) -> Rules:
    """Every rule in force, copied from the options into the state."""
    return Rules(
        table=opts.table if not (opts.width or opts.height) else "custom",
        width=size.width,
        height=size.height,
        cards=cards,
        hand_start=hand_start,
        base_pa=BASE_PA,
        inn_pa=INN_PA,
        ambush_cost=AMBUSH_COST,
        initiative_sum=opts.initiative_sum,
        initiative_card=opts.initiative_card,
        must_spend_pa=opts.must_spend_pa,
        deck_out=opts.deck_out,
        summon_contact=opts.summon_contact,
        inn_relays=opts.inn_relays,
        self_cut=opts.self_cut,
        move_pivot=opts.move_pivot,
        rotate_in_place=opts.rotate_in_place,
        engaged_may_move=opts.engaged_may_move,
        attack_cap=opts.attack_cap,
        castle_tie=opts.castle_tie,
        aura_stacking=opts.aura_stacking,
        reveal_choice=opts.reveal_choice,
        reveal_keeps_bonuses=opts.reveal_keeps_bonuses,
        lancer_free=opts.lancer_free,
        dog_chain=opts.dog_chain,
        spy_placement=opts.spy_placement,
        sorcery_discard=opts.sorcery_discard,
        recall_face_down=opts.recall_face_down,
        siege_failure=opts.siege_failure,
        archer_siege=opts.archer_siege,
        enemy_terrain_blocks=opts.enemy_terrain_blocks,
        eliminated_castle=opts.eliminated_castle,
        eliminated_terrain=opts.eliminated_terrain,
        hand_limit=opts.hand_limit,
        inns=size.inns,
        outposts=size.outposts,
        reveal_aura=opts.reveal_aura,
        spy_contact=opts.spy_contact,
        siege_ambush=opts.siege_ambush,
        bases_anchor=opts.bases_anchor,
        face_down_attack=opts.face_down_attack,
        sorcery_face_down=opts.sorcery_face_down,
        move_path=opts.move_path,
        face_down_aura=opts.face_down_aura,
    )


def _deal(
    stream: rng.Stream, seats: int, cards: tuple[CardDef, ...], hand_start: int
) -> tuple[Player, ...]:
    """Each player's starting hand, drawn from a full deck of their own."""
    players = []
    full = tuple(c.count for c in cards)
    for _ in range(seats):
        deck = full
        hand = []
        for _ in range(hand_start):
            index, deck = _pick(stream, deck)
            hand.append(cards[index].name)
        players.append(Player(hand=tuple(hand), deck=deck))
    return tuple(players)


def _initiative(state: State) -> tuple[State, Seat]:
    """V1: everyone draws a 4th card in public; the highest ATK+DEF starts;
    the tied draw again until one is higher (those cards go back into the
    pile)."""
    rules = state.rules
    table = card_table(rules)
    names = [c.name for c in rules.cards]
    seats = len(state.players)
    stream = rng.Stream(state.rng)
    players = list(state.players)
    fourth = []
    for p, pl in enumerate(players):
        card = ""
        if sum(pl.deck):
            index, deck = _pick(stream, pl.deck)
            card = names[index]
            players[p] = replace(pl, hand=(*pl.hand, card), deck=deck, known=((card, 0),))
        fourth.append(card)

    def value(card: str) -> int:
        cd = table.get(card)
        return cd.atk + cd.dfn if cd else -1

    if rules.initiative_sum == "whole-hand":
        scores = [sum(value(c) for c in pl.hand) for pl in players]
    else:
        scores = [value(c) for c in fourth]
    rounds = [tuple(fourth)]
    best = max(scores)
    contenders = [p for p in range(seats) if scores[p] == best]
    piles = [pl.deck for pl in players]
    while len(contenders) > 1:
        if any(not sum(piles[p]) for p in contenders):
            contenders = [contenders[stream.below(len(contenders))]]
            break
        row = [""] * seats
        for p in contenders:
            index, piles[p] = _pick(stream, piles[p])
            row[p] = names[index]
        rounds.append(tuple(row))
        best = max(value(row[p]) for p in contenders)
        contenders = [p for p in contenders if value(row[p]) == best]
    # the tie-break cards go back: the piles are the players' own again
    first = contenders[0]
    if rules.initiative_card == "return":
        for p, pl in enumerate(players):
            if fourth[p]:
                counts = list(pl.deck)
                counts[names.index(fourth[p])] += 1
                players[p] = replace(pl, hand=pl.hand[:-1], deck=tuple(counts), known=())
    state = replace(state, players=tuple(players), rng=stream.state, first_player=first)
    return replace(state, initiative=tuple(rounds)), first


def setup_events(state: State) -> tuple[Event, ...]:
    """The deal (each hand to its owner), the public initiative draw, the
    first player and the first turn."""
    if state.turn != 1 or state.units:
        return ()
    rules = state.rules
    events = []
    for seat, p in enumerate(state.players):
        dealt = list(p.hand[: rules.hand_start])
        events.append(
            Event(
                "deal",
                {"seat": seat, "cards": dealt},
                to=frozenset({seat}),
                redacted={"seat": seat, "count": len(dealt)},
            )
        )
    for i, row in enumerate(state.initiative):
        events.append(
            Event(
                "initiative" if i == 0 else "initiative-tie",
                {"round": i, "cards": [c or None for c in row]},
            )
        )
    events.append(Event("first-player", {"seat": state.first_player}))
    events.append(Event("turn", {"seat": state.active, "turn": 1, "pa": state.pa}))
    return tuple(events)
