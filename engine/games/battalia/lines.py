"""Battle lines, shared by the base battles and Buff's fights: what a line
may hold, its strength (morale, terrain, titles, scrolls, amulet dice, Buff's
bannerless bonus) and the distinct lines a hand can lay.

Why a module of its own: ``buff.py`` needs lines for the ``fight`` answer,
and ``battle.py`` imports ``heroes.py``, which imports ``buff.py`` (a hero
stepping onto Buff is attacked); ``buff.py`` importing ``battle.py`` would
close an import circle. These functions are the ENGINE's, as written in
``battle.py`` (which can import them from here instead of keeping its own
copy).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from functools import cache, lru_cache
from itertools import product

from ... import rng
from ...core import Seat, evolve
from .actions import Cards, canon
from .board import tile_at
from .cards import physical
from .costs import choose
from .data import faction_terrain, great_by_code
from .model import Breakdown, State
from .oracle import illuminated

TRANSFORMS = ("T", "M", "R")
AMULET_ORDER = (3, 2, 6, 1, 5, 4)
"""Amulet faces from best to worst, to keep the better of two rolls."""


@cache
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


def has_faction(code: str) -> bool:
    """A plain line card with a faction a scroll may change (2.7 « change a
    card's faction »): a weapon or a horse of a faction."""
    return len(code) == 2 and code[0] in ("A", "C")


def _targets(entry: str) -> list[str]:
    return entry.split(">", 1)[1].split("+")


def line_ok(state: State, line: Cards, *, weapon: bool) -> bool:
    """A well-formed line: line cards only, each transformation on units of
    the line (at most one of each type per unit), a weapon when attacking."""
    units = Counter(c for c in line if ">" not in c and kind_of(c) == "unit")
    convertible = units + Counter(c for c in line if ">" not in c and has_faction(c))
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
    for ttype, counter in per_type.items():
        pool = convertible if ttype == "R" else units
        if any(pool[u] < n for u, n in counter.items()):
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
    converted: Counter[str] = Counter()  # weapons, horses a scroll turned
    for entry in line:
        if ">" not in entry:
            continue
        ttype = transform_type(physical(entry))
        for target in _targets(entry):
            if ttype == "R" and not target[0].isdigit():
                converted[target] += 1
                continue
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
        others = []
        for c in line:
            if ">" not in c and kind_of(c) == "unit":
                continue
            if ">" not in c and converted[c] > 0:
                converted[c] -= 1
                continue  # a scroll made it the seat's faction
            others.append(card_faction(physical(c)))
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
    """Distinct lines from ``hand`` (transformations on one unit each); they
    depend on the hand's line cards only (memoised on them)."""
    key = tuple(sorted(c for c in hand if kind_of(c) != "none"))
    return list(_lines(key, weapon, limit))


@lru_cache(maxsize=4096)
def _lines(hand: tuple[str, ...], weapon: bool, limit: int) -> tuple[Cards, ...]:
    plain = Counter(c for c in hand if kind_of(c) in ("unit", "plain"))
    trans = Counter(c for c in hand if kind_of(c) == "transform")
    out: list[Cards] = []
    for base in _subsets(plain):
        if weapon and not any(is_weapon(c) for c in base):
            continue
        units = Counter(c for c in base if kind_of(c) == "unit")
        convertible = units + Counter(c for c in base if has_faction(c))
        for extra in _transform_sets(trans, units, convertible):
            out.append(canon([*base, *extra]))
            if len(out) >= limit:
                return tuple(out)
    return tuple(out)


def _subsets(pool: Counter[str]) -> Iterator[tuple[str, ...]]:
    codes = sorted(pool)
    for counts in product(*(range(pool[c] + 1) for c in codes)):
        yield tuple(c for c, n in zip(codes, counts, strict=True) for _ in range(n))


def _transform_sets(
    trans: Counter[str], units: Counter[str], convertible: Counter[str]
) -> Iterator[tuple[str, ...]]:
    if not convertible or not trans:
        yield ()
        return
    by_type: dict[str, list[str]] = {}
    for code in sorted(trans):
        by_type.setdefault(transform_type(code), []).extend([code] * trans[code])
    options: list[list[tuple[str, ...]]] = []
    for ttype, cards in by_type.items():
        pool = convertible if ttype == "R" else units
        opts: list[tuple[str, ...]] = [()]
        n_units = sum(pool.values())
        for k in range(1, min(len(cards), n_units) + 1):
            for chosen in choose(Counter(cards), k):
                for targets in choose(pool, k):
                    opts.append(tuple(f"{c}>{t}" for c, t in zip(chosen, targets, strict=True)))
        options.append(opts)
    for combo in product(*options):
        yield tuple(e for part in combo for e in part)
