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

Helpers BUFF uses: :func:`line_strength` (no dice: ``rolls`` given or derived
without advancing the generator) and :func:`resolve_line` (rolls the amulets
and returns ``(state, breakdown)``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from itertools import product

from ... import rng
from ...core import Event, Seat, evolve
from .actions import Attack, Cards, Defend, Retreat, Take, canon
from .board import road_neighbours, tile_at
from .cards import gain, physical, set_player, take
from .costs import choose
from .data import faction_terrain, great_by_code
from .heroes import hero_square, lose_hero, place_hero
from .model import Battle, Breakdown, State
from .oracle import illuminated

TRANSFORMS = ("T", "M", "R")
AMULET_ORDER = (3, 2, 6, 1, 5, 4)
"""Amulet faces from best to worst, to keep the better of two rolls."""


def kind_of(code: str) -> str:
    """``unit``, ``plain`` (weapon, horse, G1-G3), ``transform`` (T M R G4
    G5), or ``none`` (Provisions, tools, tents: never in a line)."""
    if code[0].isdigit():
        return "unit"
    if code.startswith("G"):
        return "transform" if great_by_code()[code].acts_as in ("T", "M") else "plain"
    if code[0] in ("A", "C"):
        return "plain"
    if code[0] in TRANSFORMS:
        return "transform"
    return "none"


def transform_type(code: str) -> str:
    return great_by_code()[code].acts_as if code.startswith("G") else code[0]


def card_faction(code: str) -> str | None:
    if code == "P" or code.startswith("G"):
        return None
    return code[1]


def is_weapon(code: str) -> bool:
    if code.startswith("G"):
        return great_by_code()[code].acts_as == "A"
    return code[0] == "A"


def _targets(entry: str) -> list[str]:
    return entry.split(">", 1)[1].split("+")


def line_ok(state: State, line: Cards, *, weapon: bool) -> bool:
    """A well-formed line: line cards only, each transformation on units of
    the line (at most one of each type per unit), a weapon when attacking."""
    units = Counter(c for c in line if ">" not in c and kind_of(c) == "unit")
    per_type: dict[str, Counter[str]] = {}
    for entry in line:
        card = physical(entry)
        kind = kind_of(card)
        if ">" in entry:
            if kind != "transform":
                return False
            targets = _targets(entry)
            ttype = transform_type(card)
            if len(targets) == 2 and not (ttype == "R" and illuminated(state, "R")):
                return False
            per_type.setdefault(ttype, Counter()).update(targets)
        elif kind not in ("unit", "plain"):
            return False
    for counter in per_type.values():
        if any(units[u] < n for u, n in counter.items()):
            return False
    return not weapon or any(is_weapon(c) for c in line if ">" not in c)


def _plain_value(state: State, code: str) -> int:
    if code.startswith("G"):
        return great_by_code()[code].strength
    if code[0] in ("A", "C"):
        return 2 if illuminated(state, code[0]) else 1
    return 0


def _amulet_dice(state: State, card: str) -> int:
    if card.startswith("G"):
        return great_by_code()[card].amulet_rolls or 1
    return 2 if illuminated(state, "M") else 1


def roll_amulets(state: State, line: Cards) -> tuple[State, tuple[tuple[str, int], ...]]:
    """Roll each amulet of the line (keeping the better of two when
    illuminated): ``(state, ((unit, face), ...))``."""
    gen = state.rng
    rolls = []
    for entry in line:
        if ">" in entry and transform_type(physical(entry)) == "M":
            faces = []
            for _ in range(_amulet_dice(state, physical(entry))):
                face, gen = rng.roll(gen, 6)
                faces.append(face)
            rolls.append((_targets(entry)[0], min(faces, key=AMULET_ORDER.index)))
    return evolve(state, rng=gen), tuple(rolls)


def line_strength(
    state: State,
    seat: Seat,
    line: Cards,
    square: str,
    *,
    leader: str,
    rolls: tuple[tuple[str, int], ...] | None = None,
) -> Breakdown:
    """The strength of ``seat``'s line fought on ``square``, led by a hero
    (``leader="hero"``) or by Buff (``"buff"``)."""
    if rolls is None:
        rolls = roll_amulets(state, line)[1]
    faction = state.players[seat].faction
    units = [c for c in line if ">" not in c and kind_of(c) == "unit"]
    value = [int(u[0]) for u in units]
    own = [card_faction(u) in (faction, "m") for u in units]
    title_used: Counter[str] = Counter()
    scroll_used: Counter[str] = Counter()
    for entry in line:
        if ">" not in entry:
            continue
        ttype = transform_type(physical(entry))
        for target in _targets(entry):
            used = title_used if ttype == "T" else scroll_used if ttype == "R" else None
            if used is None:
                continue
            i = _instance(units, target, used)
            if ttype == "T":
                card = physical(entry)
                bonus = great_by_code()[card].title if card.startswith("G") else 1
                value[i] += (
                    2 if (ttype == "T" and illuminated(state, "T")) and bonus == 1 else bonus
                )
            else:
                own[i] = True
    amulet_used: Counter[str] = Counter()
    wild = 0
    for target, face in rolls:
        i = _instance(units, target, amulet_used)
        if face in (2, 3):
            value[i] *= face
        elif face in (4, 5):
            value[i] = 0
        elif face == 6:
            own[i] = True
            wild += state.rules.wild_bonus
    base = sum(value) + wild + sum(_plain_value(state, c) for c in line if ">" not in c)
    morale = 0
    bannerless = 0
    if leader == "hero" and line and faction:
        others = [card_faction(physical(c)) for c in line if ">" in c or kind_of(c) != "unit"]
        if all(own) and all(f in (None, faction, "m") for f in others):
            morale = 1
    if leader == "buff":
        bannerless = sum(1 for u in units if u[1] == "m")
    terrain = 0
    tile = tile_at(state, square)
    if faction and tile is not None and tile.terrain == faction_terrain()[faction]:
        terrain = 1
    total = base + morale + terrain + bannerless
    return Breakdown(canon(line), base, morale, terrain, bannerless, 0, tuple(rolls), total)


def _instance(units: list[str], target: str, used: Counter[str]) -> int:
    """The index of the next instance of ``target`` among the line's units."""
    skip = used[target]
    used[target] += 1
    seen = 0
    for i, u in enumerate(units):
        if u == target:
            if seen == skip:
                return i
            seen += 1
    raise ValueError(target)


def resolve_line(
    state: State, seat: Seat, line: Cards, square: str, *, leader: str
) -> tuple[State, Breakdown]:
    """Roll the line's amulets and compute its strength."""
    state, rolls = roll_amulets(state, line)
    return state, line_strength(state, seat, line, square, leader=leader, rolls=rolls)


# ---------------------------------------------------------------------------
# Lines a hand can lay (menus: distinct multisets)
# ---------------------------------------------------------------------------


def lines(state: State, hand: tuple[str, ...], *, weapon: bool, limit: int = 400) -> list[Cards]:
    """Distinct lines from ``hand`` (transformations on one unit each)."""
    plain = Counter(c for c in hand if kind_of(c) in ("unit", "plain"))
    trans = Counter(c for c in hand if kind_of(c) == "transform")
    out: list[Cards] = []
    for base in _subsets(plain):
        if weapon and not any(is_weapon(c) for c in base):
            continue
        units = Counter(c for c in base if kind_of(c) == "unit")
        for extra in _transform_sets(trans, units):
            out.append(canon([*base, *extra]))
            if len(out) >= limit:
                return out
    return out


def _subsets(pool: Counter[str]) -> Iterator[tuple[str, ...]]:
    codes = sorted(pool)
    for counts in product(*(range(pool[c] + 1) for c in codes)):
        yield tuple(c for c, n in zip(codes, counts, strict=True) for _ in range(n))


def _transform_sets(trans: Counter[str], units: Counter[str]) -> Iterator[tuple[str, ...]]:
    if not units or not trans:
        yield ()
        return
    by_type: dict[str, list[str]] = {}
    for code in sorted(trans):
        by_type.setdefault(transform_type(code), []).extend([code] * trans[code])
    options: list[list[tuple[str, ...]]] = []
    for cards in by_type.values():
        opts: list[tuple[str, ...]] = [()]
        n_units = sum(units.values())
        for k in range(1, min(len(cards), n_units) + 1):
            for chosen in choose(Counter(cards), k):
                for targets in choose(units, k):
                    opts.append(tuple(f"{c}>{t}" for c, t in zip(chosen, targets, strict=True)))
        options.append(opts)
    for combo in product(*options):
        yield tuple(e for part in combo for e in part)


# ---------------------------------------------------------------------------
# Targets and the battle itself
# ---------------------------------------------------------------------------


def targets(state: State, seat: Seat, hero: str) -> list[str]:
    """What ``hero`` may attack: on its square or a road-adjacent one."""
    from . import buff

    here = hero_square(state, seat, hero)
    if here is None:
        return []
    near = [here, *road_neighbours(state, here)]
    out: list[str] = []
    for sq in near:
        tile = tile_at(state, sq)
        if tile is None:
            continue
        if tile.kind == "ruins" or (tile.level and tile.owner != seat):
            out.append(sq)
    for h in state.heroes:
        if h.seat != seat and h.square in near:
            out.append(f"{h.seat + 1}h{h.index}")
    b = state.buff
    if b.square in near and b.owner != seat and hero != "b" and not buff.is_bribed(state, seat):
        out.append("buff")
    return out


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
    return [sq for sq in road_neighbours(state, battle.square) if sq != attacker_square]


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
    return evolve(state, battle=evolve(battle, result="retreat"), phase="turn")


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


def take_great(state: State, seat: Seat, action: Take, events: list[Event]) -> State:
    great = list(state.great)
    great.remove(action.artefact)
    state = evolve(state, great=tuple(great), phase="turn")
    state = gain(state, seat, (action.artefact,))
    events.append(Event("great-artefact", {"seat": seat, "artefact": action.artefact}))
    return state
