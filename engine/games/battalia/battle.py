"""Battles (ruling 2.10, 2.11): battle lines, their strength, the defender's
``defend``/``retreat`` decision, and the results.

A line holds units (strength = rank), weapons and horses (1, 2 when
illuminated), Great Artefacts (their value) and transformation artefacts on
a unit of the line: ``Tu>2u`` (title: +1 rank, +2 illuminated), ``Mi>3i``
(amulet: a d6, twice keeping the better when illuminated), ``Ra>1a`` (scroll:
the unit counts as your faction; ``Ra>1a+2i`` when illuminated). Morale +1:
every card of a non-empty line is of your faction or bannerless (a hero
leads); Buff leading gets no morale but +1 per bannerless unit. Terrain +1:
the battle square's terrain is the player's homeland. Defender wins ties.

The lines themselves (what a line may hold, its strength, the lines a hand
can lay) live in :mod:`.lines`, shared with Buff's fights; this module
re-exports :func:`line_strength` and :func:`resolve_line`.
"""

from __future__ import annotations

from ...core import Event, Seat, evolve
from . import buff
from .actions import Attack, Defend, Retreat, Take
from .board import road_neighbours, tile_at
from .cards import draw_up_to, gain, physical, set_player, take
from .heroes import has_room, hero_square, lose_hero, place_hero
from .lines import (
    card_faction,
    is_weapon,
    kind_of,
    line_ok,
    line_strength,
    lines,
    resolve_line,
    roll_amulets,
)
from .model import Battle, Breakdown, State

__all__ = [
    "card_faction",
    "declare",
    "defend",
    "is_weapon",
    "kind_of",
    "line_ok",
    "line_strength",
    "lines",
    "resolve",
    "resolve_line",
    "retreat",
    "roll_amulets",
    "take_great",
    "targets",
]

# ---------------------------------------------------------------------------
# Targets and the battle itself
# ---------------------------------------------------------------------------


def targets(state: State, seat: Seat, hero: str) -> list[str]:
    """What ``hero`` may attack: on its square or a road-adjacent one."""
    from . import buff

    here = hero_square(state, seat, hero)
    if here is None:
        return []
    near = [here]
    if state.rules.attack_reach == "adjacent":
        near += road_neighbours(state, here)
    out: list[str] = []
    for sq in near:
        tile = tile_at(state, sq)
        if tile is None:
            continue
        if (tile.kind == "ruins" and ruins_open(state)) or (tile.level and tile.owner != seat):
            out.append(sq)
    for h in state.heroes:
        if h.seat != seat and h.square in near:
            out.append(f"{h.seat + 1}h{h.index}")
    b = state.buff
    if b.square in near and b.owner != seat and hero != "b" and not buff.is_bribed(state, seat):
        out.append("buff")
    return out


def ruins_open(state: State) -> bool:
    """The Ruins may be attacked: always (option ``ruins_again``, 2.11 [P]),
    or until a Great Artefact has been taken from them (seats + 1 are drawn)."""
    return state.rules.ruins_again or len(state.great) >= state.seats + 1


def target_square(state: State, target: str) -> str | None:
    if target == "buff":
        return state.buff.square
    if target[0].isdigit():
        seat, index = int(target[0]) - 1, int(target[2])
        return next((h.square for h in state.heroes if (h.seat, h.index) == (seat, index)), None)
    return target


def declare(state: State, seat: Seat, action: Attack, events: list[Event]) -> State:
    """The attacker's line is laid and revealed; neutral targets resolve now."""
    target = action.target
    square = target_square(state, target)
    assert square is not None
    p = state.players[seat]
    hand = take(p.hand, [physical(c) for c in action.line])
    assert hand is not None
    state = set_player(state, seat, evolve(p, hand=hand))
    leader = "buff" if action.hero == "b" else "hero"
    state, brk = resolve_line(state, seat, action.line, square, leader=leader)
    kind, defender = _target_kind(state, target)
    battle = Battle(seat, action.hero, kind, target, square, defender, action.line, brk)
    state = evolve(state, battle=battle)
    events.append(
        Event(
            "attack",
            {
                "seat": seat,
                "hero": action.hero,
                "target": target,
                "kind": kind,
                "square": square,
                "line": list(action.line),
                "strength": brk.total,
            },
        )
    )
    if defender is None or state.players[defender].resigned:
        return resolve(state, events)
    return evolve(state, phase="defend")


def _target_kind(state: State, target: str) -> tuple[str, Seat | None]:
    if target == "buff":
        return "buff", state.buff.owner
    if target[0].isdigit():
        return "hero", int(target[0]) - 1
    tile = tile_at(state, target)
    assert tile is not None
    if tile.kind == "ruins":
        return "ruins", None
    if tile.owner is None:
        return "neutral", None
    return "city", tile.owner


def defend(state: State, seat: Seat, action: Defend, events: list[Event]) -> State:
    battle = state.battle
    assert battle is not None
    p = state.players[seat]
    hand = take(p.hand, [physical(c) for c in action.line])
    assert hand is not None
    state = set_player(state, seat, evolve(p, hand=hand))
    leader = "buff" if battle.target_kind == "buff" else "hero"
    state, brk = resolve_line(state, seat, action.line, battle.square, leader=leader)
    state = evolve(state, battle=evolve(battle, defender_line=action.line, defender_break=brk))
    events.append(Event("defend", {"seat": seat, "line": list(action.line), "strength": brk.total}))
    return resolve(state, events)


def retreat_squares(state: State) -> list[str]:
    battle = state.battle
    if battle is None or battle.target_kind != "hero" or battle.piece == "b":
        return []
    attacker_square = hero_square(state, battle.attacker or 0, battle.piece)
    return [
        sq
        for sq in road_neighbours(state, battle.square)
        if sq != attacker_square and has_room(state, sq)
    ]


def retreat(state: State, seat: Seat, action: Retreat, events: list[Event]) -> State:
    battle = state.battle
    assert battle is not None and battle.attacker is not None
    from .cards import discard_cards

    state = discard_cards(state, seat, action.cards)
    hero = f"h{battle.target[2]}"
    state = place_hero(state, seat, hero, action.square)
    state = gain(state, battle.attacker, [physical(c) for c in battle.attacker_line])
    events.append(
        Event(
            "retreat",
            {"seat": seat, "hero": hero, "square": action.square, "cards": list(action.cards)},
        )
    )
    state = evolve(state, battle=evolve(battle, result="retreat"), phase="turn")
    # a retreat is a move: onto free Buff's square, he attacks (seed 004)
    state, more = buff.on_hero_arrives(state, seat, hero, action.square)
    events.extend(more)
    return state


def _defence(state: State, battle: Battle) -> Breakdown:
    """The defender's side: its line (if any) and the fixed defences."""
    brk = battle.defender_break or Breakdown()
    level = 0
    if battle.target_kind == "neutral":
        level = state.rules.neutral_defence
    elif battle.target_kind == "ruins":
        level = state.rules.ruins_defence
    elif battle.target_kind == "city":
        tile = tile_at(state, battle.square)
        level = tile.level if tile is not None else 0
    elif battle.target_kind == "buff" and battle.defender is None:
        level = state.buff.horde
    return evolve(brk, level=level, total=brk.total + level)


def resolve(state: State, events: list[Event]) -> State:
    battle = state.battle
    assert battle is not None and battle.attacker is not None and battle.attacker_break
    defence = _defence(state, battle)
    attack = battle.attacker_break.total
    won = attack > defence.total
    if battle.target_kind == "buff" and battle.defender is None:
        won = attack >= defence.total if state.rules.buff_defence_ties == "attacker" else won
    result = "attacker" if won else "defender"
    attack_break = battle.attacker_break
    seat = battle.attacker
    battle = evolve(battle, defender_break=defence, result=result)
    state = evolve(state, battle=battle, phase="turn")
    state = _discard_lines(state, battle)
    if state.rules.defender_refill and battle.defender is not None:
        state, drawn = draw_up_to(state, battle.defender, state.rules.hand_size)
        events.extend(drawn)
    events.append(
        Event(
            "battle",
            {
                "attacker": battle.attacker,
                "target": battle.target,
                "kind": battle.target_kind,
                "square": battle.square,
                "attack": attack,
                "defence": defence.total,
                "result": result,
                "rolls": [list(r) for r in attack_break.rolls + defence.rolls],
            },
        )
    )
    if won:
        return _attacker_wins(state, battle, events)
    events.append(Event("hero-lost", {"seat": seat, "hero": battle.piece}))
    return lose_hero(state, seat, battle.piece)


def _attacker_wins(state: State, battle: Battle, events: list[Event]) -> State:
    seat = battle.attacker
    assert seat is not None
    kind = battle.target_kind
    if kind in ("city", "neutral"):
        tile = tile_at(state, battle.square)
        assert tile is not None
        from .board import put_tile

        state = evolve(state, tiles=put_tile(state, evolve(tile, owner=seat)))
        events.append(
            Event(
                "conquer",
                {"seat": seat, "square": battle.square, "from": tile.owner, "level": tile.level},
            )
        )
        return state
    if kind == "ruins":
        return evolve(state, phase="take") if state.great else state
    if kind == "hero":
        owner, hero = int(battle.target[0]) - 1, f"h{battle.target[2]}"
        events.append(Event("hero-lost", {"seat": owner, "hero": hero}))
        return lose_hero(state, owner, hero)
    # Buff: beaten, off the board until the week boundary
    events.append(Event("buff-removed", {"by": seat, "owner": state.buff.owner}))
    if state.buff.owner is not None:
        return lose_hero(state, state.buff.owner, "b")
    return evolve(state, buff=evolve(state.buff, square=None, absent=True))


def _discard_lines(state: State, battle: Battle) -> State:
    """Every line card goes to its owner's discard pile; an amulet's 4 sends
    its unit to the Ambush."""
    sides = [(battle.attacker, battle.attacker_line, battle.attacker_break)]
    if battle.defender is not None and battle.defender_line is not None:
        sides.append((battle.defender, battle.defender_line, battle.defender_break))
    ambush = list(state.ambush)
    for seat, line, brk in sides:
        if seat is None:
            continue
        cards = [physical(c) for c in line]
        for unit, face in brk.rolls if brk else ():
            if face == 4 and unit in cards:
                cards.remove(unit)
                ambush.append(unit)
        state = gain(state, seat, cards)
    return evolve(state, ambush=tuple(ambush))


def take_choices(state: State) -> list[str]:
    """What ``take`` names: a displayed Great Artefact's code (face up), or
    its place ``1``..``n`` (face down, 2.4 [S], option ``great_face_down``)."""
    if state.rules.great_face_down:
        return [str(i + 1) for i in range(len(state.great))]
    return list(state.great)


def take_great(state: State, seat: Seat, action: Take, events: list[Event]) -> State:
    great = list(state.great)
    code = great[int(action.artefact) - 1] if action.artefact.isdigit() else action.artefact
    great.remove(code)
    state = evolve(state, great=tuple(great), phase="turn")
    state = gain(state, seat, (code,))
    if state.rules.great_face_down:
        # the winner learns it; the others see which place was taken
        events.append(
            Event(
                "great-artefact",
                {"seat": seat, "artefact": code},
                to=frozenset({seat}),
                redacted={"seat": seat, "artefact": f"#{action.artefact}"},
            )
        )
    else:
        events.append(Event("great-artefact", {"seat": seat, "artefact": code}))
    return state
