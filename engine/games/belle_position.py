"""Belle Position (seed 001): 1870-71 battle lines, armies bought with points,
hidden deployment, dice fire, cohesion tests, generals and terrain.

Two players, one French and one German army. Each army is a list of cards
(units, generals, terrain, specials) bought with 200 or 250 points; 18 are
dealt into the *reserve* (the hand), the rest form the face-down
reinforcement pile. Each side has three battle positions, the left wing
(``G``), the centre (``C``) and the right wing (``D``); one's left faces the
enemy's right.

Every card of an army has a handle: its side letter (``F`` French, ``A``
German, *allemand*) and a number, ``F7``, ``A12``. Handles are given after
the shuffle, so they say nothing about the card. In the notation, positions
are written from the point of view of the player who acts: ``G`` ``C`` ``D``
(own wings), ``EG`` ``EC`` ``ED`` (enemy wings, *ennemi*), ``R`` (own
reserve). Events and views also give absolute codes: ``FG`` is the French
left wing, ``AC`` the German centre.

Notation:

===============  =========================================================
``F7>C``         deploy or move card F7 to your centre (``F7>EG``: into the
                 enemy's left wing; ``F7>R``: back to your reserve). A
                 terrain card moved from the reserve is placed face up.
``ok``           done: end your deployment, roll the cohesion tests, end the
                 combat phase, end the movement phase
``undo``         (deployment) take back the last card you deployed
``F7@EC``        F7 fires at the enemy's centre: melee when F7 is there,
                 long range when it is the opposite position, a flank
                 attack when it is beside (optional rule 18)
``F7@A3``        counter-battery: F7 fires at the enemy artillery A3
``-F3``          (the player taking losses) put the next loss token on F3
``F21!F7``       play the special card F21 on your unit F7
===============  =========================================================
"""

from __future__ import annotations

import difflib
import re
import threading
import unicodedata
from bisect import bisect_left, insort
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationInfo,
    field_validator,
    model_validator,
)

from .. import rng
from ..core import Decision, Event, Game, GameInfo, GameOptions, Outcome, Seat
from ..core import evolve as replace
from ..data import load_json
from ..errors import BadNotation, BadOptions, GameOver, IllegalAction, NotYourTurn
from ..text import colon, de, semicolon

GAME_ID = "belle-position"

SideId = Literal["french", "german"]
Category = Literal["infantry", "cavalry", "artillery", "mitrailleuse"]
TerrainId = Literal["bois", "hauteur", "bourg"]
SpecialId = Literal["ralliement", "retranchements", "marche-forcee"]

PILE = -1
RESERVE = -2
GONE = -3  # eliminated (units, generals)
USED = -4  # special cards played
WINGS = ("G", "C", "D")
LETTERS = {"french": "F", "german": "A"}


# ---------------------------------------------------------------------------
# Card data: schema of engine/data/belle-position-cards.json and -armies.json
# ---------------------------------------------------------------------------


class UnitSpec(BaseModel):
    """One line of the seed's unit table."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    id: str = Field(pattern=r"^[a-z0-9-]+$")
    name: str
    short: str
    side: Literal["french", "german", "both"]
    category: Category
    vc: int = Field(ge=1, le=4, description="Valeur de Combat: dice rolled, cohesion base")
    fire_attack: int = Field(ge=1, le=4, description="firepower when attacking")
    fire_defence: int = Field(ge=1, le=4, description="firepower when defending")
    save: int = Field(ge=-1, le=1, description="sauvegarde: -1, 0 or +1 to cohesion")
    move: int = Field(ge=1, le=2, description="the Mouvement column")
    points: int = Field(ge=1, le=50)
    long_range: int | None = Field(default=None, ge=1, le=4, description="the * factor")
    aliases: tuple[str, ...] = ()

    @model_validator(mode="after")
    def _long_range_for_artillery(self) -> UnitSpec:
        ranged = self.category in ("artillery", "mitrailleuse")
        if ranged != (self.long_range is not None):
            raise ValueError(
                f"{self.id}: artillery and mitrailleuses, and only they, fire at long range"
            )
        return self


class GeneralCosts(BaseModel):
    """The seed's budget rule for generals."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    bonus: int = Field(ge=0, description="points per A or D point (A1/D0: 4, A1/D1: 8)")
    rally: int = Field(ge=0, description="points per extra card of rally capacity")

    def cost(self, attack: int, defence: int, rally: int) -> int:
        return self.bonus * (attack + defence) + self.rally * rally


class GeneralSpec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    id: str = Field(pattern=r"^[a-z0-9-]+$")
    name: str
    side: SideId
    attack: int = Field(ge=0, le=1)
    defence: int = Field(ge=0, le=1)
    rally: int = Field(ge=0, le=2)
    points: int = Field(ge=0)
    unique: bool = True
    aliases: tuple[str, ...] = ()


class TerrainSpec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    id: TerrainId
    name: str
    points: int = Field(ge=0)
    text_fr: str
    text_en: str
    aliases: tuple[str, ...] = ()


class SpecialSpec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    id: SpecialId
    name: str
    points: int = Field(ge=0)
    text_fr: str
    text_en: str
    aliases: tuple[str, ...] = ()


class CardFile(BaseModel):
    """The Belle Position card data file."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)
    format: Literal[1]
    comment: str = Field(default="", alias="_comment")
    deal: int = Field(ge=1, le=40, description="cards dealt into the reserve")
    budgets: tuple[int, ...]
    grouping: int = Field(ge=1, le=10, description="cards per side in a position")
    general_costs: GeneralCosts
    units: tuple[UnitSpec, ...]
    generals: tuple[GeneralSpec, ...]
    terrain: tuple[TerrainSpec, ...]
    specials: tuple[SpecialSpec, ...]

    @model_validator(mode="after")
    def _consistent(self) -> CardFile:
        ids = [u.id for u in self.units] + [g.id for g in self.generals]
        ids += [t.id for t in self.terrain] + [s.id for s in self.specials]
        if len(set(ids)) != len(ids):
            raise ValueError("card ids must be unique")
        for g in self.generals:
            expected = self.general_costs.cost(g.attack, g.defence, g.rally)
            if g.points != expected:
                raise ValueError(
                    f"{g.id}: A{g.attack}/D{g.defence} rally +{g.rally} costs {expected}, "
                    f"not {g.points}"
                )
        if {t.id for t in self.terrain} != {"bois", "hauteur", "bourg"}:
            raise ValueError("the terrain cards are Bois, Hauteur and Bourg")
        if {s.id for s in self.specials} != {"ralliement", "retranchements", "marche-forcee"}:
            raise ValueError("the special cards are Ralliement, Retranchements, Marche Forcée")
        return self


class PresetCard(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    card: str
    count: int = Field(ge=1, le=40)


class PresetSpec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    id: str
    side: SideId
    name: str
    points: int
    cards: tuple[PresetCard, ...]


class ArmyFile(BaseModel):
    """The preset armies (rulings)."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)
    format: Literal[1]
    comment: str = Field(default="", alias="_comment")
    presets: tuple[PresetSpec, ...]

    @model_validator(mode="after")
    def _one_per_side(self) -> ArmyFile:
        sides = [p.side for p in self.presets]
        if sorted(sides) != ["french", "german"]:
            raise ValueError("one preset army per side")
        return self


@cache
def card_file() -> CardFile:
    return CardFile.model_validate(load_json("belle-position-cards.json"))


@cache
def army_file() -> ArmyFile:
    data = ArmyFile.model_validate(load_json("belle-position-armies.json"))
    cat = catalog()
    for preset in data.presets:
        total = 0
        for entry in preset.cards:
            if entry.card not in cat.types:
                raise ValueError(f"preset {preset.id}: unknown card {entry.card!r}")
            total += cat.types[entry.card].points * entry.count
        if total != preset.points:
            raise ValueError(f"preset {preset.id}: {total} points, the file says {preset.points}")
    return data


# ---------------------------------------------------------------------------
# Card types as the rules use them (copied into every state)
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TypeDef:
    """One kind of card, with every value the rules read.

    ``kind`` is ``unit``, ``general``, ``terrain`` or ``special``. Units have
    ``category``, ``vc``, ``fire_attack``, ``fire_defence``, ``save``,
    ``move``, ``long_range`` (0: none); generals ``attack``, ``defence``,
    ``rally``."""

    id: str
    name: str
    short: str
    kind: str
    category: str
    vc: int
    fire_attack: int
    fire_defence: int
    save: int
    move: int
    points: int
    long_range: int
    attack: int
    defence: int
    rally: int


TYPE_FIELDS = (
    "id",
    "name",
    "short",
    "kind",
    "category",
    "vc",
    "fire_attack",
    "fire_defence",
    "save",
    "move",
    "points",
    "long_range",
    "attack",
    "defence",
    "rally",
)


def pack_type(t: TypeDef) -> str:
    return "|".join(str(getattr(t, name)) for name in TYPE_FIELDS)


def unpack_type(line: str) -> TypeDef:
    parts = line.split("|")
    if len(parts) != len(TYPE_FIELDS):
        raise ValueError(f"bad card type line {line!r}")
    ints = [int(x) for x in parts[5:]]
    return TypeDef(parts[0], parts[1], parts[2], parts[3], parts[4], *ints)


@dataclass(frozen=True)
class Catalog:
    types: dict[str, TypeDef]
    sides: dict[str, str]  # type id -> french / german / both / any
    unique: frozenset[str]
    aliases: dict[str, tuple[str, ...]]  # normalised alias -> type ids
    primary: dict[str, str]  # normalised id or full name -> type id
    order: dict[str, int]
    costs: GeneralCosts


def _norm(text: str) -> str:
    """Lower case, no accents, letters and digits only: ``"Ligne Française"`` ->
    ``"lignefrancaise"``."""
    decomposed = unicodedata.normalize("NFKD", text)
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch)).lower()
    return re.sub(r"[^a-z0-9]", "", plain.replace("ß", "ss"))


@cache
def catalog() -> Catalog:
    data = card_file()
    types: dict[str, TypeDef] = {}
    sides: dict[str, str] = {}
    unique: set[str] = set()
    aliases: dict[str, list[str]] = {}

    def alias(tid: str, *names: str) -> None:
        for name in names:
            for part in [name, *name.split("/")]:
                key = _norm(part)
                if key and tid not in aliases.setdefault(key, []):
                    aliases[key].append(tid)

    for u in data.units:
        types[u.id] = TypeDef(
            id=u.id,
            name=u.name,
            short=u.short,
            kind="unit",
            category=u.category,
            vc=u.vc,
            fire_attack=u.fire_attack,
            fire_defence=u.fire_defence,
            save=u.save,
            move=u.move,
            points=u.points,
            long_range=u.long_range or 0,
            attack=0,
            defence=0,
            rally=0,
        )
        sides[u.id] = u.side
        alias(u.id, u.id, u.name, *u.aliases)
    for g in data.generals:
        types[g.id] = _general_def(g.id, g.name, g.attack, g.defence, g.rally, g.points)
        sides[g.id] = g.side
        if g.unique:
            unique.add(g.id)
        alias(g.id, g.id, g.name, *g.aliases)
    for t in data.terrain:
        types[t.id] = _plain_def(t.id, t.name, "terrain", t.points)
        sides[t.id] = "any"
        alias(t.id, t.id, t.name, *t.aliases)
    for s in data.specials:
        types[s.id] = _plain_def(s.id, s.name, "special", s.points)
        sides[s.id] = "any"
        alias(s.id, s.id, s.name, *s.aliases)
    order = {tid: i for i, tid in enumerate(types)}
    primary = {_norm(tid): tid for tid in types}
    primary.update({_norm(t.name): tid for tid, t in types.items()})
    return Catalog(
        types=types,
        sides=sides,
        unique=frozenset(unique),
        aliases={k: tuple(v) for k, v in aliases.items()},
        primary=primary,
        order=order,
        costs=data.general_costs,
    )


def _general_def(
    tid: str, name: str, attack: int, defence: int, rally: int, points: int
) -> TypeDef:
    return TypeDef(
        id=tid,
        name=name,
        short=name,
        kind="general",
        category="",
        vc=0,
        fire_attack=0,
        fire_defence=0,
        save=0,
        move=2,
        points=points,
        long_range=0,
        attack=attack,
        defence=defence,
        rally=rally,
    )


def _plain_def(tid: str, name: str, kind: str, points: int) -> TypeDef:
    return TypeDef(
        id=tid,
        name=name,
        short=name,
        kind=kind,
        category="",
        vc=0,
        fire_attack=0,
        fire_defence=0,
        save=0,
        move=1,
        points=points,
        long_range=0,
        attack=0,
        defence=0,
        rally=0,
    )


_GENERIC_ID = re.compile(r"^general-a([01])-d([01])(?:-r([12]))?$")
_GENERIC_TEXT = re.compile(r"^(?:general|gen)?(?:a([01])d([01])|d([01])a([01]))(?:r?([12]))?$")


def generic_general(attack: int, defence: int, rally: int) -> TypeDef:
    """A general known only by its values (the seed's budget rule):
    ``general-a1-d0-r1`` is "Général A1/D0 +1", 8 points."""
    tid = f"general-a{attack}-d{defence}" + (f"-r{rally}" if rally else "")
    name = f"Général A{attack}/D{defence}" + (f" +{rally}" if rally else "")
    points = catalog().costs.cost(attack, defence, rally)
    return _general_def(tid, name, attack, defence, rally, points)


def type_def(tid: str) -> TypeDef:
    """The definition of a card type id (data file or generic general)."""
    cat = catalog()
    found = cat.types.get(tid)
    if found is not None:
        return found
    m = _GENERIC_ID.match(tid)
    if m is None:
        raise KeyError(tid)
    return generic_general(int(m.group(1)), int(m.group(2)), int(m.group(3) or 0))


def type_name(tid: str) -> str:
    try:
        return type_def(tid).name
    except KeyError:
        return tid


# ---------------------------------------------------------------------------
# Army lists
# ---------------------------------------------------------------------------

_COUNT_AFTER = re.compile(r"^(.*?)\s*[x×*]\s*(\d{1,2})$", re.IGNORECASE)
_COUNT_BEFORE = re.compile(r"^(\d{1,2})\s*(?:[x×*]\s*|\s+)(.+)$", re.IGNORECASE)
PRESET_WORDS = {"preset", "prereglage", "defaut", "default", "standard"}
SIDE_FR = {"french": "française", "german": "allemande"}


class ArmyError(ValueError):
    """An army list that breaks a rule; the message is in English and French."""


def _army_error(en: str, fr: str) -> ArmyError:
    return ArmyError(f"{en} / {fr}")


def preset_entries(side: str) -> tuple[tuple[str, int], ...]:
    order = catalog().order
    for preset in army_file().presets:
        if preset.side == side:
            entries = [(c.card, c.count) for c in preset.cards]
            return tuple(sorted(entries, key=lambda kv: order.get(kv[0], 10_000)))
    raise KeyError(side)


def _resolve(token: str, side: str) -> str | None:
    """The type id a written card name means for ``side`` (None: no match)."""
    key = _norm(token)
    cat = catalog()
    if not key:
        return None
    m = _GENERIC_TEXT.match(key)
    if m and key not in cat.aliases:
        if m.group(1) is not None:
            attack, defence = int(m.group(1)), int(m.group(2))
        else:
            defence, attack = int(m.group(3)), int(m.group(4))
        return generic_general(attack, defence, int(m.group(5) or 0)).id
    if _GENERIC_ID.match(token.strip().lower()):
        return token.strip().lower()
    exact = cat.primary.get(key)
    if exact is not None and cat.sides[exact] in (side, "both", "any"):
        return exact
    found = [tid for tid in cat.aliases.get(key, ()) if cat.sides[tid] in (side, "both", "any")]
    if len(found) > 1:
        names = ", ".join(cat.types[t].name for t in found)
        raise _army_error(
            f"{token.strip()!r} is ambiguous ({names}): write the full name",
            f"{token.strip()!r} est ambigu ({names}) : écrivez le nom complet",
        )
    if found:
        return found[0]
    other = [tid for tid in cat.aliases.get(key, ())]
    if other:
        name = cat.types[other[0]].name
        enemy = "German" if side == "french" else "French"
        enemy_fr = "allemande" if side == "french" else "française"
        raise _army_error(
            f"{name} is a {enemy} card: the {side.capitalize()} army cannot take it",
            f"{name} est une carte {enemy_fr} : l'armée {SIDE_FR[side]} ne peut pas la prendre",
        )
    return None


def _unknown(token: str, side: str) -> ArmyError:
    cat = catalog()
    names = [t.name for tid, t in cat.types.items() if cat.sides[tid] in (side, "both", "any")]
    close = difflib.get_close_matches(token.strip(), names, n=3, cutoff=0.5)
    hint_en = f" Did you mean {', '.join(close)}?" if close else ""
    hint_fr = f" Vouliez-vous dire {', '.join(close)} ?" if close else ""
    return _army_error(
        f"unknown card {token.strip()!r}.{hint_en}",
        f"carte inconnue {token.strip()!r}.{hint_fr}",
    )


def _split_count(token: str) -> tuple[str, int]:
    text = token.strip()
    m = _COUNT_AFTER.match(text)
    if m and m.group(1).strip():
        return m.group(1), int(m.group(2))
    m = _COUNT_BEFORE.match(text)
    if m:
        return m.group(2), int(m.group(1))
    return text, 1


def parse_army(text: str, side: str) -> tuple[tuple[str, int], ...]:
    """Read a written army list (``"Ligne Française x5, Chasseurs à pied x2, ..."``,
    or ``preset``) into ``(type id, count)`` pairs in catalogue order.

    Separators: commas, semicolons, new lines; counts as ``x5``, ``×5``,
    ``*5`` or ``5x``; names in any case, with or without accents, spaces or
    hyphens; generals by name or by values (``Général A1/D0 +1``). Only the
    list's own shape is checked here; :func:`check_army` applies the rules."""
    raw = text.strip()
    if _norm(raw) in PRESET_WORDS:
        return preset_entries(side)
    tokens = [t for t in re.split(r"[,;\n]", raw)]
    counts: dict[str, int] = {}
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if not token.strip():
            i += 1
            continue
        # a name with a comma in it ("Ligne, autres Etats"): try two tokens first
        if i + 1 < len(tokens) and tokens[i + 1].strip():
            name, count = _split_count(token + "," + tokens[i + 1])
            try:
                joined = _resolve(name, side)
            except ArmyError:
                joined = None
            if joined is not None:
                counts[joined] = counts.get(joined, 0) + count
                i += 2
                continue
        name, count = _split_count(token)
        tid = _resolve(name, side)
        if tid is None:
            raise _unknown(name, side)
        if count < 1:
            raise _army_error(
                f"{name.strip()}: a count must be at least 1", f"{name.strip()} : au moins 1"
            )
        counts[tid] = counts.get(tid, 0) + count
        i += 1
    if not counts:
        raise _army_error("the army list is empty", "la liste d'armée est vide")
    order = catalog().order
    return tuple(sorted(counts.items(), key=lambda kv: (order.get(kv[0], 10_000), kv[0])))


def check_army(
    entries: Sequence[tuple[str, int]], side: str, budget: int, max_cards: int
) -> tuple[int, int]:
    """Apply the army-building rules; returns ``(points, cards)`` or raises
    :class:`ArmyError` with the reason."""
    cat = catalog()
    deal = card_file().deal
    points = 0
    cards = 0
    units = 0
    for tid, count in entries:
        t = type_def(tid)
        allowed = cat.sides.get(tid, side if t.kind == "general" else "any")
        if allowed not in (side, "both", "any"):
            raise _army_error(
                f"{t.name} belongs to the other side",
                f"{t.name} appartient à l'autre camp",
            )
        if tid in cat.unique and count > 1:
            raise _army_error(
                f"{t.name} is one person: at most one card",
                f"{t.name} est un seul personnage : une carte au plus",
            )
        points += t.points * count
        cards += count
        if t.kind == "unit":
            units += count
    if units == 0:
        raise _army_error("an army needs at least one unit", "une armée compte au moins une unité")
    if points > budget:
        raise _army_error(
            f"{points} points is over the budget of {budget}",
            f"{points} points dépassent le budget de {budget}",
        )
    if cards < deal:
        raise _army_error(
            f"{cards} cards: the deal takes {deal}, so an army needs at least {deal}",
            f"{cards} cartes : on en tire {deal}, une armée en compte donc au moins {deal}",
        )
    if cards > max_cards:
        raise _army_error(
            f"{cards} cards is more than the {max_cards} allowed (about twenty, option max_cards)",
            f"{cards} cartes, plus que les {max_cards} permises (une vingtaine, option max_cards)",
        )
    return points, cards


def check_total(entries: Sequence[tuple[str, int]], side: str, budget: int, max_cards: int) -> None:
    """Option ``budget_mode=total`` (« totalisant 200 ou 250 points »): the army
    spends its budget, that is, no card of its side could be added without
    passing it (the cheapest cost 4 points) unless the army is already at its
    largest size."""
    points = sum(type_def(tid).points * n for tid, n in entries)
    cards = sum(n for _, n in entries)
    if cards >= max_cards:
        return
    cat = catalog()
    cheapest = min(
        t.points
        for tid, t in cat.types.items()
        if t.points > 0 and cat.sides.get(tid, side) in (side, "both", "any")
    )
    if budget - points >= cheapest:
        raise _army_error(
            f"{points} points: the army must total {budget} (no card of {cheapest} points "
            "or more may be left unbought, option budget_mode=total)",
            f"{points} points : l'armée doit totaliser {budget} (aucune carte de {cheapest} "
            "points ou plus ne doit rester à acheter, option budget_mode=total)",
        )


@cache
def army_entries(text: str, side: str) -> tuple[tuple[str, int], ...]:
    """:func:`parse_army`, memoised (army texts in states are canonical)."""
    return parse_army(text, side)


def army_text(entries: Sequence[tuple[str, int]]) -> str:
    """The canonical, space-free text of an army list (``ligne-francaise*5,bois``)."""
    return ",".join(tid if n == 1 else f"{tid}*{n}" for tid, n in entries)


def describe_army(entries: Sequence[tuple[str, int]]) -> str:
    """An army list with its French card names (``Ligne Française ×5, Bois``)."""
    return ", ".join(type_name(tid) if n == 1 else f"{type_name(tid)} ×{n}" for tid, n in entries)


# ---------------------------------------------------------------------------
# Options (every proposed ruling of rulings/belle-position.md is one)
# ---------------------------------------------------------------------------


class Options(GameOptions):
    """Belle Position options. Defaults are the seed, then our rulings (B1-B13)."""

    budget: int = Field(default=200, description="B1: army budget in points (the seed: 200 or 250)")
    max_cards: int = Field(
        default=30,
        ge=18,
        le=60,
        description="largest army in cards (the seed: 'une vingtaine'; at least the 18 dealt)",
    )
    french: str = Field(
        default="preset",
        description="the French army: preset, or a list like ligne-francaise*5,chasseurs-a-pied*2,...",
    )
    german: str = Field(
        default="preset",
        description="the German army: preset, or a list like ligne-prussienne*4,landwehr*2,...",
    )
    french_seat: int = Field(
        default=1, ge=1, le=2, description="which player (1 or 2) leads the French"
    )
    flank_attack: bool = Field(default=False, description="optional rule 18: flank attacks")
    light_cavalry: bool = Field(
        default=False, description="optional rule 19: light cavalry may fight and then move"
    )
    light_cavalry_units: tuple[str, ...] = Field(
        default=("hussards-chasseurs",),
        description="rule 19: which cavalry is light (unit ids)",
    )
    artillery_moves: Literal["table", "one"] = Field(
        default="table",
        description="B4: moves from the Mouvement column (light artillery 2), or 1 for all artillery",
    )
    overflow: Literal["forbid", "disorganise"] = Field(
        default="forbid",
        description="B5: the movement phase may not end over the grouping limit, "
        "or overflow at its end triggers Désorganisation",
    )
    no_units_loses: bool = Field(
        default=True, description="B7: a player with no unit left anywhere loses"
    )
    counter_battery: Literal["card", "spread"] = Field(
        default="card",
        description="counter-battery: every loss on the card aimed at (seed 10), "
        "or spread over the artillery there (B9)",
    )
    general_sixes: Literal["all", "melee"] = Field(
        default="all",
        description="B11: every 6 rolled at a general's position hits them, or melee dice only",
    )
    entrenchment_stacks: bool = Field(
        default=False, description="Retranchements and Bourg add up (the rulings: they do not)"
    )
    long_range_terrain: Literal["target", "none"] = Field(
        default="target",
        description="long-range fire suffers the target position's Bois (-1 die), or no terrain",
    )
    turn_limit: int = Field(
        default=0,
        ge=0,
        le=200,
        description="turns per player before the battle ends in a draw; 0: no limit "
        "(the seed has neither a limit nor a draw)",
    )
    long_range_losses: Literal["every-unit", "face-up"] = Field(
        default="every-unit",
        description="long-range losses spread over every enemy unit in the position, face "
        "down ones too (seed 11), or over its face-up units only (B8)",
    )
    counter_battery_range: Literal["line", "opposite"] = Field(
        default="line",
        description="counter-battery aims at a battery anywhere in the enemy battle line "
        "(seed 10), or in the opposite position only",
    )
    terrain_placement: Literal["any", "own"] = Field(
        default="any",
        description="terrain placed during the game in any position that is not engaged "
        "(seed 5), or in one's own positions only (B2)",
    )
    long_range_hill: bool = Field(
        default=False,
        description="a battery on a Hauteur fires one more die at long range (the seed is silent)",
    )
    budget_mode: Literal["cap", "total"] = Field(
        default="cap",
        description="the budget is a cap (B1), or the army must total it: no card of the "
        "list could be added without passing it (« totalisant 200 ou 250 points »)",
    )
    forced_march: Literal["before", "any"] = Field(
        default="before",
        description="Marche Forcée is played before the unit's first move (ours), or also "
        "after it, while the unit is still moving",
    )
    ralliement_timing: Literal["before", "failure"] = Field(
        default="before",
        description="Ralliement is played in the cohesion phase before the dice (ruling), or "
        "on a unit that has just failed a cohesion test, which then passes all its tests",
    )

    @field_validator("budget", mode="after")
    @classmethod
    def _budget(cls, value: int) -> int:
        budgets = card_file().budgets
        if value not in budgets:
            raise ValueError(f"the budget is {' or '.join(map(str, budgets))} points")
        return value

    @field_validator("light_cavalry_units", mode="before")
    @classmethod
    def _split_units(cls, value: object) -> object:
        if isinstance(value, str):
            value = [v for v in re.split(r"[,;\s]+", value) if v]
        if isinstance(value, list | tuple):
            out = []
            for v in value:
                tid = None
                try:
                    tid = _resolve(str(v), "french")
                except ArmyError:
                    tid = None
                if tid is None or catalog().types.get(tid, None) is None:
                    raise ValueError(f"unknown unit {v!r}")
                if catalog().types[tid].category != "cavalry":
                    raise ValueError(f"{catalog().types[tid].name} is not cavalry")
                if tid not in out:
                    out.append(tid)
            return tuple(out)
        return value

    @field_validator("french", "german", mode="after")
    @classmethod
    def _check_army(cls, value: str, info: ValidationInfo) -> str:
        side = "french" if info.field_name == "french" else "german"
        if _norm(value) in PRESET_WORDS:
            return "preset"
        budget = info.data.get("budget", 200)
        max_cards = info.data.get("max_cards", 30)
        try:
            entries = parse_army(value, side)
            check_army(entries, side, budget, max_cards)
        except ArmyError as exc:
            raise ValueError(str(exc)) from None
        return army_text(entries)

    @model_validator(mode="after")
    def _presets_fit(self) -> Options:
        for side in ("french", "german"):
            text = getattr(self, side)
            entries = preset_entries(side) if text == "preset" else army_entries(text, side)
            try:
                if text == "preset":
                    check_army(entries, side, self.budget, self.max_cards)
                if self.budget_mode == "total":
                    check_total(entries, side, self.budget, self.max_cards)
            except ArmyError as exc:
                name = f"{side} preset" if text == "preset" else side
                raise ValueError(f"{name}: {exc}") from None
        return self


def army_of(options: Options, side: str) -> tuple[tuple[str, int], ...]:
    value: str = getattr(options, side)
    return parse_army(value, side)


# ---------------------------------------------------------------------------
# State
# ---------------------------------------------------------------------------


_UP, _FOUGHT, _FORCED, _ENTRENCHED, _KNOWN = 1, 2, 4, 8, 16
_FLAGS = {
    "up": _UP,
    "fought": _FOUGHT,
    "forced": _FORCED,
    "entrenched": _ENTRENCHED,
    "known": _KNOWN,
}


@dataclass(frozen=True, slots=True)
class Card:
    """One card of an army. ``loc``: a position 0-5, or PILE, RESERVE, GONE,
    USED. ``bits`` packs its status (read it through the properties):
    ``up`` (face up), ``fought`` and ``moves`` (this turn), ``forced`` (Marche
    Forcée this turn), ``entrenched`` (Retranchements), ``known`` (for a
    reserve card: its type is known to the opponent, who saw it go back face
    up and has not seen a card leave the reserve face down since), and
    ``tokens`` (loss tokens)."""

    uid: str
    type: str
    loc: int
    bits: int = 0

    @property
    def up(self) -> bool:
        return bool(self.bits & _UP)

    @property
    def fought(self) -> bool:
        return bool(self.bits & _FOUGHT)

    @property
    def forced(self) -> bool:
        return bool(self.bits & _FORCED)

    @property
    def entrenched(self) -> bool:
        return bool(self.bits & _ENTRENCHED)

    @property
    def known(self) -> bool:
        return bool(self.bits & _KNOWN)

    @property
    def moves(self) -> int:
        return (self.bits >> 5) & 7

    @property
    def tokens(self) -> int:
        return self.bits >> 8

    def set(self, loc: int | None = None, **changes: int | bool) -> Card:
        """A copy with some of ``loc``, ``up``, ``fought``, ``forced``,
        ``entrenched``, ``known``, ``moves``, ``tokens`` changed."""
        bits = self.bits
        for key, value in changes.items():
            if key == "tokens":
                bits = (bits & 0xFF) | (int(value) << 8)
            elif key == "moves":
                bits = (bits & ~0xE0) | (int(value) << 5)
            elif value:
                bits |= _FLAGS[key]
            else:
                bits &= ~_FLAGS[key]
        return Card(self.uid, self.type, self.loc if loc is None else loc, bits)


@dataclass(frozen=True, slots=True)
class Army:
    side: str
    letter: str
    cards: tuple[Card, ...]  # the card F7 is cards[6]
    pile: tuple[int, ...]  # indices, top first
    points: int
    text: str  # canonical army list
    staged: tuple[int, ...] = ()  # deployment order (for undo)
    done: bool = False  # deployment finished


@dataclass(frozen=True, slots=True)
class Rules:
    budget: int
    grouping: int
    flank_attack: bool
    light_cavalry: bool
    light_cavalry_units: tuple[str, ...]
    artillery_moves: str
    overflow: str
    no_units_loses: bool
    counter_battery: str
    general_sixes: str
    entrenchment_stacks: bool
    long_range_terrain: str
    turn_limit: int
    table: tuple[str, ...]
    """The card types of both armies, one ``|``-separated line each in the
    order of :data:`TYPE_FIELDS` (compact, so saved states stay small)."""
    long_range_losses: str = "face-up"  # older saves: the rule they were played with
    counter_battery_range: str = "opposite"
    terrain_placement: str = "own"
    long_range_hill: bool = False
    forced_march: str = "before"
    ralliement_timing: str = "before"


@dataclass(frozen=True, slots=True)
class Alloc:
    """Losses waiting to be placed by ``taker`` in ``position``."""

    taker: int
    position: int
    hits: int
    target: str = ""  # counter-battery: the card aimed at
    artillery_only: bool = False  # counter-battery spread over artillery (option)


@dataclass(frozen=True, slots=True)
class Combat:
    """The last fire, for the log and for drawing its dice."""

    seat: int
    card: str
    type: str
    mode: str  # melee, long-range, counter-battery, flank-attack
    origin: int
    at: int
    target: str  # counter-battery: the card aimed at
    status: str  # attack / defence (melee), "" otherwise
    vc: int
    dice_count: int
    modifiers: tuple[tuple[str, int], ...]
    threshold: int
    dice: tuple[int, ...]
    hits: int
    sixes: int
    general: str  # the enemy general who took tokens from the 6s
    losses: tuple[str, ...] = ()  # cards that received tokens, in order
    eliminated: tuple[str, ...] = ()
    turn: int = 0  # the turn of the fire (0: unknown, a state saved before it was kept)


@dataclass(frozen=True, slots=True)
class Test:
    """One card's cohesion (or general, or disorganisation) test."""

    seat: int
    card: str
    type: str
    kind: str  # cohesion, general, disorganisation
    position: int
    target: int  # succeeds on a die <= target (general: dies on a 6)
    modifiers: tuple[tuple[str, int], ...]
    dice: tuple[int, ...]
    passed: bool


Phase = Literal["deploy", "rally", "combat", "allocate", "movement", "over"]


@dataclass(frozen=True, slots=True)
class State:
    rules: Rules
    armies: tuple[Army, Army]
    rng: int
    phase: Phase
    active: Seat = 0
    turn: int = 0
    first_player: int = -1
    conquered: tuple[bool, bool, bool, bool, bool, bool] = (False,) * 6
    combat_at: int = -1  # position whose combats are being resolved
    closed: tuple[int, ...] = ()  # positions whose combats are over this turn
    mover: int = -1  # card (index in the active army) that moved last
    alloc: Alloc | None = None
    last_combat: Combat | None = None
    last_tests: tuple[Test, ...] = ()
    ranking: tuple[tuple[Seat, ...], ...] = ()
    end_reason: str = ""


# ---------------------------------------------------------------------------
# Actions
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Move:
    card: str
    to: str  # G C D EG EC ED R (from the mover's point of view)


@dataclass(frozen=True, slots=True)
class Done:
    pass


@dataclass(frozen=True, slots=True)
class Undo:
    pass


@dataclass(frozen=True, slots=True)
class Fire:
    card: str
    at: str  # a position code (G ... ED) or an enemy card (counter-battery)


@dataclass(frozen=True, slots=True)
class Loss:
    card: str


@dataclass(frozen=True, slots=True)
class Play:
    card: str  # the special card
    target: str  # the unit it is played on


Action = Move | Done | Undo | Fire | Loss | Play


# ---------------------------------------------------------------------------
# Views
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CardView:
    uid: str
    type: str
    name: str
    short: str
    kind: str
    category: str
    face_up: bool
    tokens: int
    vc: int
    fire_attack: int
    fire_defence: int
    long_range: int
    save: int
    move: int  # moves allowed this turn
    attack: int
    defence: int
    rally: int
    status: str  # attack / defence on the board, "" elsewhere
    cohesion: int  # current cohesion on the board (units), 0 elsewhere
    fought: bool
    moves: int  # moves made this turn
    moves_left: int
    entrenched: bool
    forced: bool


@dataclass(frozen=True, slots=True)
class SideAt:
    """One side's cards in one position, as the observer sees them."""

    seat: Seat
    general: CardView | None
    units: tuple[CardView, ...]  # the cards the observer can see
    hidden: int  # face-down units the observer cannot see
    count: int  # cards counted for grouping (units + terrain)
    capacity: int  # 4 + the general's rally bonus
    status: str  # attack / defence


@dataclass(frozen=True, slots=True)
class PositionView:
    index: int
    line: Seat  # the seat whose battle line this is
    wing: str  # G, C, D
    code: str  # absolute: FG ... AD
    relative: str  # in the observer's notation (G ... ED); "" for spectators
    name_fr: str
    name_en: str
    opposite: int
    terrain: tuple[CardView, ...]
    conquered: bool
    engaged: bool
    holder: int  # the seat whose units alone are there (-1: nobody or both)
    sides: tuple[SideAt, SideAt]


@dataclass(frozen=True, slots=True)
class GeneralStatus:
    """Where one general of a side is, as far as the observer knows."""

    uid: str  # "" when only the type is known (a card seen going back to the reserve)
    type: str
    name: str
    where: str  # board, reserve, dead
    position: int  # on the board: the position (0-5); -1 otherwise
    code: str  # on the board: its absolute code (FG ... AD); "" otherwise
    public: bool  # known to everybody (what a board image may show)


@dataclass(frozen=True, slots=True)
class PlayerView:
    seat: Seat
    side: str
    side_name_fr: str
    side_name_en: str
    letter: str
    points: int
    army: tuple[tuple[str, int], ...]  # the public army list (type id, count)
    army_size: int
    reserve_count: int
    reserve: tuple[CardView, ...] | None  # the observer's own reserve, else None
    reserve_known: tuple[str, ...]  # types known by all to be in this reserve
    pile_count: int
    eliminated: tuple[CardView, ...]
    used: tuple[CardView, ...]  # special cards played
    ready: bool  # deployment finished
    staged: tuple[str, ...]  # the observer's own deployment order (undo takes the last)
    holds: int  # enemy positions this side occupies alone
    generals: tuple[GeneralStatus, ...]  # on the board, then in the reserve, then dead
    generals_unseen: int  # the army's other generals (in the pile or not shown)


@dataclass(frozen=True, slots=True)
class AllocView:
    taker: Seat
    position: int
    hits: int
    candidates: tuple[str, ...]  # the ones the observer can name (face-down: the taker only)
    target: str  # counter-battery: the card aimed at ("" otherwise)
    artillery_only: bool  # counter-battery spread over the artillery (option)
    hidden: int = 0  # face-down candidates the observer cannot name


@dataclass(frozen=True, slots=True)
class View:
    observer: Seat | None
    phase: str
    turn: int
    turn_limit: int
    active: Seat
    first_player: int
    pending: tuple[tuple[Seat, str], ...]
    players: tuple[PlayerView, PlayerView]
    positions: tuple[PositionView, ...]
    combat_at: int
    closed: tuple[int, ...]
    mover: str  # the card that moved last this movement phase, if known ("": none)
    alloc: AllocView | None
    last_combat: Combat | None
    last_tests: tuple[Test, ...]
    choices: tuple[str, ...]
    ranking: tuple[tuple[Seat, ...], ...]
    end_reason: str
    winner: int  # -1: none (yet) or a draw
    rules: Rules
    types: tuple[TypeDef, ...]  # every card type of the two armies (names, values)


# ---------------------------------------------------------------------------
# Positions
# ---------------------------------------------------------------------------


def opposite(p: int) -> int:
    """The enemy position facing ``p`` (one's left faces the enemy's right)."""
    return (1 - p // 3) * 3 + (2 - p % 3)


def lateral(p: int) -> tuple[int, ...]:
    line, wing = divmod(p, 3)
    return tuple(line * 3 + w for w in (wing - 1, wing + 1) if 0 <= w <= 2)


def relative_code(seat: int, p: int) -> str:
    if p == RESERVE:
        return "R"
    line, wing = divmod(p, 3)
    return WINGS[wing] if line == seat else "E" + WINGS[wing]


def absolute_of(seat: int, code: str) -> int:
    if code == "R":
        return RESERVE
    if code.startswith("E"):
        return (1 - seat) * 3 + WINGS.index(code[1])
    return seat * 3 + WINGS.index(code)


_WING_FR = ("aile gauche", "centre", "aile droite")
_WING_EN = ("left wing", "centre", "right wing")
_SIDE_ADJ_FR = {"french": ("française", "français"), "german": ("allemande", "allemand")}
_SIDE_NAME = {
    "french": ("Français", "French"),
    "german": ("Allemands", "Germans"),
}


def _abs_code(state: State, p: int) -> str:
    if p == RESERVE:
        return "R"
    return state.armies[p // 3].letter + WINGS[p % 3]


@cache
def _at(code: str, fr: bool) -> str:
    """``"FG"`` -> "à l'aile gauche française" / "in the French left wing"."""
    if code == "R":
        return "en réserve" if fr else "in the reserve"
    if not fr:
        return f"in the {_code_name(code, False)}"
    name = _code_name(code, True)
    return f"au {name}" if name.startswith("centre") else f"à l'{name}"


@cache
def _the(code: str, fr: bool) -> str:
    """``"FC"`` -> "le centre français" / "the French centre"."""
    if code == "R":
        return "la réserve" if fr else "the reserve"
    if not fr:
        return f"the {_code_name(code, False)}"
    name = _code_name(code, True)
    return f"le {name}" if name.startswith("centre") else f"l'{name}"


@cache
def _code_name(code: str, fr: bool) -> str:
    """``"FG"`` -> "aile gauche française" / "French left wing"."""
    if code == "R":
        return "réserve" if fr else "reserve"
    if len(code) != 2 or code[0] not in "FA" or code[1] not in "GCD":
        return code
    side = "french" if code[0] == "F" else "german"
    wing = "GCD".index(code[1])
    if fr:
        adj = _SIDE_ADJ_FR[side][1 if wing == 1 else 0]
        return f"{_WING_FR[wing]} {adj}"
    return f"{'French' if side == 'french' else 'German'} {_WING_EN[wing]}"


# ---------------------------------------------------------------------------
# Derived tables (memoised by identity: states are immutable)
# ---------------------------------------------------------------------------


class _Caches(threading.local):
    """The engine's memos, one set per thread: bots and renders work in
    threads, and a memo shared between threads could hand one thread's
    board or move keys to another thread's state."""

    def __init__(self) -> None:
        self.types: dict[int, tuple[tuple[str, ...], dict[str, TypeDef], dict[str, str]]] = {}
        self.boards: dict[int, tuple[tuple[Army, Army], Board]] = {}
        self.last_board: list[tuple[tuple[Army, Army], Board, Mapping[str, str]]] = []
        self.card_views: dict[tuple[object, ...], CardView] = {}
        # the rules, and for them: a card's signature -> the number of its _move_key
        self.sig_keys: list[Any] = [None, {}]
        self.move_key_ids: dict[tuple[object, ...] | None, int] = {None: -1}


_LOCAL = _Caches()


def _types(rules: Rules) -> dict[str, TypeDef]:
    """The card types of a state's rules, by id (memoised by identity)."""
    entry = _LOCAL.types.get(id(rules.table))
    if entry is None or entry[0] is not rules.table:
        if entry is not None or len(_LOCAL.types) > 64:
            _LOCAL.types.clear()
            _LOCAL.card_views.clear()  # their keys hold ids of the dicts dropped here
        defs = [unpack_type(line) for line in rules.table]
        entry = (rules.table, {t.id: t for t in defs}, {t.id: t.kind for t in defs})
        _LOCAL.types[id(rules.table)] = entry
    return entry[1]


def _type_list(rules: Rules) -> tuple[TypeDef, ...]:
    """The card types of a state's rules, in table order."""
    return tuple(_types(rules).values())


def _kinds(rules: Rules) -> dict[str, str]:
    """Card type id -> kind (unit, general, terrain, special)."""
    _types(rules)
    return _LOCAL.types[id(rules.table)][2]


class Board:
    """Where every card is, by seat and position (derived from the armies).

    Read only once built: a board derived from another one (:meth:`derive`)
    shares the lists that did not change."""

    __slots__ = ("alive", "general", "reserve", "terrain", "terrain_cards", "units")

    def __init__(self, armies: tuple[Army, Army], kinds: Mapping[str, str]) -> None:
        self.units: tuple[list[list[int]], list[list[int]]] = (
            [[], [], [], [], [], []],
            [[], [], [], [], [], []],
        )
        self.general: tuple[list[int], list[int]] = ([-1] * 6, [-1] * 6)
        self.terrain: list[list[str]] = [[], [], [], [], [], []]
        self.terrain_cards: list[list[tuple[int, int]]] = [[], [], [], [], [], []]
        self.reserve: tuple[list[int], list[int]] = ([], [])
        self.alive = [0, 0]  # units not eliminated, per seat
        for s, army in enumerate(armies):
            units = self.units[s]
            alive = 0
            for i, c in enumerate(army.cards):
                loc = c.loc
                if loc >= 0:
                    kind = kinds[c.type]
                    if kind == "unit":
                        units[loc].append(i)
                        alive += 1
                    elif kind == "general":
                        self.general[s][loc] = i
                    else:
                        self.terrain[loc].append(c.type)
                        self.terrain_cards[loc].append((s, i))
                elif loc == RESERVE:
                    self.reserve[s].append(i)
                    if kinds[c.type] == "unit":
                        alive += 1
                elif loc != GONE and kinds[c.type] == "unit":
                    alive += 1
            self.alive[s] = alive

    def derive(
        self, old: tuple[Army, Army], new: tuple[Army, Army], kinds: Mapping[str, str]
    ) -> Board | None:
        """The board of ``new``, from this board of ``old``, when a few cards
        changed place or type (None: too many changes, build it afresh).
        Lists are in card order, exactly as :meth:`__init__` builds them."""
        changes: list[tuple[int, int, Card, Card]] = []
        for s in (0, 1):
            oa = old[s]
            na = new[s]
            if oa is na or oa.cards is na.cards:
                continue
            oc = oa.cards
            nc = na.cards
            if len(oc) != len(nc):
                return None
            for i, x in enumerate(oc):
                y = nc[i]
                if x is not y and (x.loc != y.loc or x.type != y.type):
                    changes.append((s, i, x, y))
            if len(changes) > 8:
                return None
        b = Board.__new__(Board)
        units = (list(self.units[0]), list(self.units[1]))
        general = self.general
        terrain = list(self.terrain)
        terrain_cards = list(self.terrain_cards)
        reserve = self.reserve
        alive = self.alive
        copied: set[object] = set()
        for s, i, x, y in changes:
            for c, adding in ((x, False), (y, True)):
                loc = c.loc
                if loc >= 0:
                    kind = kinds[c.type]
                    if kind == "unit":
                        ukey = ("u", s, loc)
                        if ukey not in copied:
                            copied.add(ukey)
                            units[s][loc] = list(units[s][loc])
                        if adding:
                            insort(units[s][loc], i)
                        else:
                            units[s][loc].remove(i)
                    elif kind == "general":
                        if "g" not in copied:
                            copied.add("g")
                            general = (list(general[0]), list(general[1]))
                        if general[s][loc] != (-1 if adding else i):
                            return None
                        general[s][loc] = i if adding else -1
                    else:
                        tkey = ("t", loc)
                        if tkey not in copied:
                            copied.add(tkey)
                            terrain[loc] = list(terrain[loc])
                            terrain_cards[loc] = list(terrain_cards[loc])
                        if adding:
                            k = bisect_left(terrain_cards[loc], (s, i))
                            terrain_cards[loc].insert(k, (s, i))
                            terrain[loc].insert(k, c.type)
                        else:
                            k = terrain_cards[loc].index((s, i))
                            del terrain_cards[loc][k]
                            del terrain[loc][k]
                elif loc == RESERVE:
                    if "r" not in copied:
                        copied.add("r")
                        reserve = (list(reserve[0]), list(reserve[1]))
                    if adding:
                        insort(reserve[s], i)
                    else:
                        reserve[s].remove(i)
                if loc != GONE and kinds[c.type] == "unit":
                    if "a" not in copied:
                        copied.add("a")
                        alive = list(alive)
                    alive[s] += 1 if adding else -1
        b.units = units
        b.general = general
        b.terrain = terrain
        b.terrain_cards = terrain_cards
        b.reserve = reserve
        b.alive = alive
        return b

    def present(self, seat: int, p: int) -> bool:
        """Has ``seat`` any card (unit or general) in ``p``?"""
        return bool(self.units[seat][p]) or self.general[seat][p] >= 0

    def engaged(self, p: int) -> bool:
        return self.present(0, p) and self.present(1, p)


def board(state: State) -> Board:
    """The board of a state (memoised by the identity of its armies; a new
    one is derived from the last board asked for when only a few cards
    changed, which is the common case from one state to the next)."""
    armies = state.armies
    entry = _LOCAL.boards.get(id(armies))
    if entry is None or entry[0] is not armies:
        kinds = _kinds(state.rules)
        b = None
        if _LOCAL.last_board:
            last_armies, last, last_kinds = _LOCAL.last_board[0]
            if last_kinds is kinds:
                b = last.derive(last_armies, armies, kinds)
        if b is None:
            b = Board(armies, kinds)
        if len(_LOCAL.boards) >= 16:
            _LOCAL.boards.pop(next(iter(_LOCAL.boards)))
        entry = (armies, b)
        _LOCAL.boards[id(armies)] = entry
        _LOCAL.last_board[:] = [(armies, b, kinds)]
    elif not _LOCAL.last_board or _LOCAL.last_board[0][0] is not armies:
        _LOCAL.last_board[:] = [(armies, entry[1], _kinds(state.rules))]
    return entry[1]


def card_index(uid: str) -> int:
    return int(uid[1:]) - 1


def status_of(conquered: Sequence[bool], seat: int, p: int) -> str:
    """Attack or defence for ``seat``'s cards in ``p`` (seed 9, rulings B6)."""
    if p // 3 == seat:
        return "attack" if conquered[p] else "defence"
    return "defence" if conquered[p] else "attack"


ARTILLERY = ("artillery", "mitrailleuse")
MARCHING = ("infantry", "artillery", "mitrailleuse")


def _allowance(rules: Rules, t: TypeDef, forced: bool) -> int:
    """Moves a card may make this turn (seed 12, rulings B4, Marche Forcée)."""
    if t.kind == "general":
        return 2
    if t.kind != "unit":
        return 1
    base = t.move
    if t.category == "artillery" and rules.artillery_moves == "one":
        base = 1
    return max(base, 2) if forced else base


def _light(rules: Rules, t: TypeDef) -> bool:
    """Optional rule 19: light cavalry may fight and then move."""
    return rules.light_cavalry and t.id in rules.light_cavalry_units


def _can_move(state: State, t: TypeDef, c: Card, i: int) -> bool:
    bits = c.bits
    if bits & _FOUGHT and not _light(state.rules, t):
        return False
    moves = (bits >> 5) & 7
    if moves == 0:
        return True
    # a card's moves are consecutive: once another card moved, it is done
    return state.mover == i and moves < _allowance(state.rules, t, bool(bits & _FORCED))


def _cap(state: State, b: Board, seat: int, p: int) -> int:
    """Grouping capacity of ``seat`` in ``p``: 4, plus its general's rally bonus."""
    g = b.general[seat][p]
    bonus = 0
    if g >= 0:
        bonus = _types(state.rules)[state.armies[seat].cards[g].type].rally
    return state.rules.grouping + bonus


def _count(b: Board, seat: int, p: int) -> int:
    """Cards counted for grouping: the side's units and the position's terrain."""
    return len(b.units[seat][p]) + len(b.terrain[p])


def _sig(state: State, seat: int, i: int, c: Card) -> tuple[object, ...]:
    """Two cards with the same signature are interchangeable for every rule
    (whether the opponent knows a reserve card does not change what it can do)."""
    return (c.type, c.loc, c.bits & ~_KNOWN, i == state.mover and seat == state.active)


def _set_army(state: State, seat: int, army: Army) -> State:
    armies = (army, state.armies[1]) if seat == 0 else (state.armies[0], army)
    return replace(state, armies=armies)


def _set_card(state: State, seat: int, i: int, card: Card) -> State:
    army = state.armies[seat]
    cards = army.cards[:i] + (card,) + army.cards[i + 1 :]
    return _set_army(state, seat, replace(army, cards=cards))


def _position_bonus(state: State, b: Board, seat: int, p: int) -> tuple[str, int, bool]:
    """(status, the general's bonus, Bourg present) for ``seat``'s units in ``p``."""
    status = status_of(state.conquered, seat, p)
    g = b.general[seat][p]
    bonus = 0
    if g >= 0:
        gt = _types(state.rules)[state.armies[seat].cards[g].type]
        bonus = gt.attack if status == "attack" else gt.defence
    return status, bonus, "bourg" in b.terrain[p]


def _cohesion_of(
    rules: Rules, t: TypeDef, c: Card, status: str, bonus: int, bourg: bool
) -> tuple[int, tuple[tuple[str, int], ...]]:
    mods: list[tuple[str, int]] = []
    value = t.vc + t.save
    if t.save:
        mods.append(("save", t.save))
    if status == "defence" and t.category == "infantry":
        if bourg:
            mods.append(("bourg", 1))
            value += 1
        if c.entrenched and (not bourg or rules.entrenchment_stacks):
            mods.append(("retranchements", 1))
            value += 1
    if bonus:
        mods.append(("general", bonus))
        value += bonus
    return value, tuple(mods)


def _cohesion(
    state: State, b: Board, seat: int, c: Card
) -> tuple[int, tuple[tuple[str, int], ...]]:
    """Cohesion of a unit where it stands (seed 6, 16, 17; rulings B10):
    VC + save, + Bourg or Retranchements for defending infantry, + the
    general's A (attacking) or D (defending)."""
    t = _types(state.rules)[c.type]
    if c.loc < 0:
        return t.vc + t.save, ((("save", t.save),) if t.save else ())
    status, bonus, bourg = _position_bonus(state, b, seat, c.loc)
    return _cohesion_of(state.rules, t, c, status, bonus, bourg)


def _dice(
    state: State, b: Board, seat: int, t: TypeDef, mode: str, origin: int, at: int
) -> tuple[int, tuple[tuple[str, int], ...], int, str]:
    """(dice, modifiers, threshold, status) of a unit firing (seed 8-10, 16, 18)."""
    mods: list[tuple[str, int]] = []
    n = t.vc
    terrain = b.terrain[at]
    woods = -2 if t.category == "cavalry" else -1
    status = ""
    if mode == "melee":
        status = status_of(state.conquered, seat, origin)
        if status == "attack":
            threshold = t.fire_attack
            if "bois" in terrain:
                mods.append(("bois", woods))
                n += woods
        else:
            threshold = t.fire_defence
            if "hauteur" in terrain:
                mods.append(("hauteur", 1))
                n += 1
    elif mode in ("long-range", "counter-battery"):
        threshold = t.long_range
        if state.rules.long_range_terrain == "target" and "bois" in terrain:
            mods.append(("bois", -1))
            n -= 1
        if state.rules.long_range_hill and "hauteur" in b.terrain[origin]:
            mods.append(("hauteur", 1))  # option: the battery's own hill
            n += 1
    else:  # flank attack: only the attacked position's terrain applies
        threshold = 1 if origin // 3 == seat else 2
        if "bois" in terrain:
            mods.append(("bois", woods))
            n += woods
    return max(0, n), tuple(mods), threshold, status


def _dice_count(
    state: State, b: Board, seat: int, t: TypeDef, mode: str, origin: int, at: int
) -> int:
    """The number of dice of :func:`_dice` alone (whether a unit can fire)."""
    n = t.vc
    terrain = b.terrain[at]
    if not terrain:
        return max(0, n)
    woods = -2 if t.category == "cavalry" else -1
    if mode == "melee":
        if status_of(state.conquered, seat, origin) == "attack":
            if "bois" in terrain:
                n += woods
        elif "hauteur" in terrain:
            n += 1
    elif mode in ("long-range", "counter-battery"):
        if state.rules.long_range_terrain == "target" and "bois" in terrain:
            n -= 1
        if state.rules.long_range_hill and "hauteur" in b.terrain[origin]:
            n += 1
    elif "bois" in terrain:
        n += woods
    return max(0, n)


class _MoveCheck:
    """Counts of the active side, to test moves against the grouping rules
    without building states (seed 3, 12, 13; rulings B5).

    Seed 12: « la règle de limites de regroupement est ignorée jusqu'à ce que
    tous les mouvements soient effectués »: any position, in either line, may
    be over the limit while cards move, whatever the order of the moves. With
    ``overflow=forbid`` the phase may not *end* over it, so a move is refused
    only when no way is left to bring every position back within the limit
    with the moves that remain (no dead end):

    ``over[p]``: cards (units and terrain) beyond the capacity in ``p``;
    ``ev[p]``: units there that can still leave: in one's own line for the
    reserve, in the enemy line back to the own position opposite, where they
    stay (one move left); ``ev2[p]`` (enemy line): units that can go back
    and on to the reserve (two moves left). Only cards whose moves have not
    started count, plus the card moving now (a card's moves are consecutive:
    once another card moves, the previous one is done)."""

    __slots__ = ("bad", "enemy", "ev", "ev2", "forbid", "over", "seat")

    def __init__(self, state: State, b: Board, seat: int) -> None:
        rules = state.rules
        types = _types(rules)
        cards = state.armies[seat].cards
        self.seat = seat
        self.forbid = rules.overflow == "forbid"
        units = b.units[seat]
        general = b.general[seat]
        terrain = b.terrain
        grouping = rules.grouping
        over = [0] * 6
        for p in range(6):
            g = general[p]
            cap = grouping if g < 0 else grouping + types[cards[g].type].rally
            over[p] = len(units[p]) + len(terrain[p]) - cap
        self.over = over
        self.bad = [p for p in range(6) if over[p] > 0]
        eunits = b.units[1 - seat]
        egeneral = b.general[1 - seat]
        self.enemy = [bool(eunits[p]) or egeneral[p] >= 0 for p in range(6)]
        ev = [0] * 6
        ev2 = [0] * 6
        for p in range(6):
            own = p // 3 == seat
            for j in units[p]:
                bits = cards[j].bits
                t = types[cards[j].type]
                # no move made yet, and not fought (unless light cavalry)
                if bits & 0xE0 or (bits & _FOUGHT and not _light(rules, t)):
                    continue
                if own or _allowance(rules, t, bool(bits & _FORCED)) < 2:
                    ev[p] += 1
                else:
                    ev2[p] += 1
        self.ev = ev
        self.ev2 = ev2

    def allows(self, state: State, c: Card, t: TypeDef, dest: int) -> bool:
        seat = self.seat
        src = c.loc
        kind = t.kind
        if kind == "terrain" and self.enemy[dest]:
            return False
        if not self.forbid:
            return True
        over = self.over[:]
        ev = self.ev[:]
        ev2 = self.ev2[:]
        if kind == "unit":
            moves = (c.bits >> 5) & 7
            allowance = _allowance(state.rules, t, bool(c.bits & _FORCED))
            if src >= 0:
                over[src] -= 1
                if moves == 0:  # it was counted as able to leave
                    if src // 3 == seat or allowance < 2:
                        ev[src] -= 1
                    else:
                        ev2[src] -= 1
            if dest >= 0:
                over[dest] += 1
                left = allowance - moves - 1
                if left >= 2 and dest // 3 != seat:
                    ev2[dest] += 1
                elif left >= 1:
                    ev[dest] += 1
        elif kind == "general":
            if src >= 0:
                over[src] += t.rally  # leaving lowers the capacity
            if dest >= 0:
                over[dest] -= t.rally
        else:  # terrain placed from the reserve
            over[dest] += 1
        for e in range((1 - seat) * 3, (1 - seat) * 3 + 3):
            o = over[e]
            land = 0
            if o > 0:
                if o > ev[e] + ev2[e]:
                    return False
                land = max(0, o - ev2[e])  # two-move units go through first
            q = opposite(e)
            need = over[q] + land
            if need > 0 and need > ev[q]:
                return False
        return True

    def within_limits(self) -> bool:
        return not self.forbid or not self.bad


def _forget_one(cards: list[Card], tid: str, leaving: int) -> None:
    """A card of type ``tid`` left the reserve face up: the opponent now knows
    one card of that type fewer in the reserve."""
    if cards[leaving].known:
        return
    for j, cj in enumerate(cards):
        if j != leaving and cj.loc == RESERVE and cj.known and cj.type == tid:
            cards[j] = cj.set(known=False)
            return


def _forget_all(cards: list[Card]) -> None:
    """A card left the reserve face down: the opponent cannot tell which."""
    for j, cj in enumerate(cards):
        if cj.loc == RESERVE and cj.known:
            cards[j] = cj.set(known=False)


# the decisions without parameters (immutable: made once)
# (made once per army letter: the examples use the deciding player's own handles)
def _decisions(m: str) -> dict[str, Decision]:
    e = "A" if m == "F" else "F"
    params = (("letter", m), ("enemy", e))
    return {
        "deploy": Decision(
            "deploy",
            f"Deploy your cards face down in your three positions ({m}7>C), then ok.",
            params,
        ),
        "rally": Decision(
            "rally",
            f"Cohesion: play Ralliement on a unit ({m}21!{m}7), or roll the tests (ok).",
            params,
        ),
        "combat": Decision(
            "combat", f"Combat: fire with a unit ({m}7@EC), or end combat (ok).", params
        ),
        "movement": Decision(
            "movement",
            f"Movement: move cards ({m}7>EC), play a card ({m}21!{m}7), or end (ok).",
            params,
        ),
    }


_DECISIONS = {m: _decisions(m) for m in ("F", "A")}
_CODES = tuple({p: relative_code(seat, p) for p in (*range(6), RESERVE)} for seat in (0, 1))
_MOVES: dict[tuple[str, str], Move] = {}  # Move actions are immutable: made once
_FIRES: dict[tuple[str, str], Fire] = {}  # the same for Fire actions


def _move_key_id(key: tuple[object, ...] | None) -> int:
    """A small number for a _move_key (-1: None), the same for equal keys."""
    found = _LOCAL.move_key_ids.get(key)
    if found is None:
        found = _LOCAL.move_key_ids[key] = len(_LOCAL.move_key_ids)
    return found


def _move_key(
    rules: Rules, t: TypeDef, loc: int, bits: int, is_mover: bool
) -> tuple[object, ...] | None:
    """None when a card cannot move now (a special card, terrain on the
    board, see also _can_move); else what its allowed destinations depend on
    (see _MoveCheck.allows and _destinations): cards with the same key go to
    the same places."""
    kind = t.kind
    if kind == "special" or (kind == "terrain" and loc >= 0):
        return None
    if bits & _FOUGHT and not _light(rules, t):
        return None
    if bits & 0xE0 and (
        not is_mover or (bits >> 5) & 7 >= _allowance(rules, t, bool(bits & _FORCED))
    ):
        return None
    moves = (bits >> 5) & 7
    if kind == "unit":
        # allows: whether one more move still leaves one (ev), and no more
        return (kind, loc, moves, moves + 1 < _allowance(rules, t, bool(bits & _FORCED)))
    if kind == "general":
        return (kind, loc, moves, t.rally)
    return (kind, loc, moves, t.id)


class BellePosition(Game[State, Action, View]):
    info = GameInfo(
        id=GAME_ID,
        name_fr="Belle Position",
        name_en="Belle Position",
        min_seats=2,
        max_seats=2,
        options_model=Options,
        hidden_information=True,
        chance=True,
        simultaneous=True,
        summary_en=(
            "1870-71: a French and a German army, bought with points, deploy face down "
            "in three battle positions. Engage the enemy, roll your Combat Value in dice "
            "against your firepower, test the cohesion of every card that took losses, "
            "and win by occupying two abandoned enemy positions."
        ),
        summary_fr=(
            "1870-71 : une armée française et une armée allemande, achetées en points, se "
            "déploient faces cachées dans trois positions. Engagez l'ennemi, lancez votre "
            "Valeur de Combat en dés contre votre puissance de feu, testez la cohésion des "
            "cartes touchées, et gagnez en occupant deux positions ennemies abandonnées."
        ),
    )
    state_type = State
    schema_version = 1
    max_actions = 6000
    conformance_games = 500
    coverage_events = frozenset(
        {
            "deploy",
            "undo",
            "ready",
            "deployed",
            "first-player",
            "turn",
            "cohesion",
            "general-test",
            "disorganisation",
            "to-reserve",
            "melee",
            "long-range",
            "counter-battery",
            "flank-attack",
            "loss",
            "eliminated",
            "move",
            "general",
            "conquered",
            "recovered",
            "reinforcement",
            "no-reinforcement",
            "resign",
            "game-over",
            *(f"reveal:{u.id}" for u in card_file().units),
            *(f"terrain:{t.id}" for t in card_file().terrain),
            *(f"special:{x.id}" for x in card_file().specials),
        }
    )
    conformance_options = (
        "turn_limit=3 budget_mode=total",
        "french=infanterie-de-la-garde*2,fusiliers-marins*2,infanterie-de-marche*3,"
        "gardes-pontificaux*2,artillerie-de-la-garde-ml*2,lanciers-uhlans,mitrailleuses,"
        "bourbaki,faidherbe,general-de-brigade,bois*2,retranchements*2,marche-forcee,"
        "ralliement flank_attack=true light_cavalry=true turn_limit=4 "
        "counter_battery_range=opposite forced_march=any long_range_hill=true",
        "german=garde-prussienne*2,jagers-prussiens*2,landwehr*3,artillerie-legere-bl*2,"
        "cuirassiers*2,kronprinz-friedrich,steinmetz,generalmajor,hauteur,bourg*2,"
        "ralliement*2 budget=250 overflow=disorganise counter_battery=spread turn_limit=4 "
        "long_range_losses=face-up terrain_placement=own",
        "french=ligne-francaise*6,garde-mobile*4,francs-tireurs*2,artillerie-legere-ml,"
        "mitrailleuses,hussards-chasseurs,general-de-brigade,hauteur,marche-forcee "
        "german=landwehr*6,ligne-autres-etats*4,infanterie-de-reserve*3,"
        "artillerie-de-reserve-bl,dragons,generalmajor,bois,ralliement "
        "french_seat=2 artillery_moves=one general_sixes=melee entrenchment_stacks=true "
        "long_range_terrain=none no_units_loses=false flank_attack=true turn_limit=3",
        "german=garde-prussienne*2,jagers-prussiens*2,landwehr*3,artillerie-legere-bl*2,"
        "cuirassiers*2,kronprinz-friedrich,steinmetz,generalmajor,hauteur,bourg*2,"
        "ralliement*2 budget=250 ralliement_timing=failure turn_limit=4",
    )

    # ---- setup ---------------------------------------------------------
    def setup(self, options: GameOptions, seats: int, seed: int) -> State:
        opts = options if isinstance(options, Options) else self.options(options)
        assert isinstance(opts, Options)
        if seats != 2:
            raise BadOptions(
                f"Belle Position is for 2 players, not {seats}.",
                fr=f"Belle Position se joue à 2, pas à {seats}.",
                seats=seats,
            )
        data = card_file()
        sides = ("french", "german") if opts.french_seat == 1 else ("german", "french")
        entries = {side: army_of(opts, side) for side in sides}
        used: list[str] = []
        for side in sides:
            for tid, _ in entries[side]:
                if tid not in used:
                    used.append(tid)
        order = catalog().order
        used.sort(key=lambda tid: (order.get(tid, 10_000), tid))
        rules = Rules(
            budget=opts.budget,
            grouping=data.grouping,
            flank_attack=opts.flank_attack,
            light_cavalry=opts.light_cavalry,
            light_cavalry_units=opts.light_cavalry_units,
            artillery_moves=opts.artillery_moves,
            overflow=opts.overflow,
            no_units_loses=opts.no_units_loses,
            counter_battery=opts.counter_battery,
            general_sixes=opts.general_sixes,
            entrenchment_stacks=opts.entrenchment_stacks,
            long_range_terrain=opts.long_range_terrain,
            turn_limit=opts.turn_limit,
            table=tuple(pack_type(type_def(tid)) for tid in used),
            long_range_losses=opts.long_range_losses,
            counter_battery_range=opts.counter_battery_range,
            terrain_placement=opts.terrain_placement,
            long_range_hill=opts.long_range_hill,
            forced_march=opts.forced_march,
            ralliement_timing=opts.ralliement_timing,
        )
        stream = rng.Stream(rng.seed_state(seed, GAME_ID))
        armies = []
        for side in sides:
            deck = [tid for tid, n in entries[side] for _ in range(n)]
            shuffled = stream.shuffle(deck)
            letter = LETTERS[side]
            cards = tuple(
                Card(uid=f"{letter}{i + 1}", type=tid, loc=RESERVE if i < data.deal else PILE)
                for i, tid in enumerate(shuffled)
            )
            points = sum(type_def(tid).points for tid in deck)
            armies.append(
                Army(
                    side=side,
                    letter=letter,
                    cards=cards,
                    pile=tuple(range(data.deal, len(cards))),
                    points=points,
                    text=army_text(entries[side]),
                )
            )
        return State(rules=rules, armies=(armies[0], armies[1]), rng=stream.state, phase="deploy")

    def setup_events(self, state: State) -> tuple[Event, ...]:
        """The two armies (public: they are lobby options) and each seat's
        deal (its cards to itself, a count to the others)."""
        events = []
        for seat, army in enumerate(state.armies):
            events.append(
                Event(
                    "army",
                    {
                        "seat": seat,
                        "side": army.side,
                        "points": army.points,
                        "cards": len(army.cards),
                        "list": army.text,
                    },
                )
            )
        for seat, army in enumerate(state.armies):
            hand = [[c.uid, c.type] for c in army.cards if c.loc == RESERVE]
            events.append(
                Event(
                    "deal",
                    {"seat": seat, "cards": hand, "pile": len(army.pile)},
                    to=frozenset({seat}),
                    redacted={"seat": seat, "count": len(hand), "pile": len(army.pile)},
                )
            )
        return tuple(events)

    def decode_state(self, data: Mapping[str, Any]) -> State:
        """States saved before the last fire kept its turn have no
        ``last_combat.turn``: it reads as 0 (unknown)."""
        inner = data.get("state")
        if isinstance(inner, Mapping):
            combat = inner.get("last_combat")
            if isinstance(combat, Mapping) and "turn" not in combat:
                data = {**data, "state": {**inner, "last_combat": {**combat, "turn": 0}}}
        return super().decode_state(data)

    # ---- who decides -----------------------------------------------------
    def seat_count(self, state: State) -> int:
        return 2

    def pending(self, state: State) -> Mapping[Seat, Decision]:
        phase = state.phase
        if phase == "over":
            return {}
        if phase == "deploy":
            return {
                seat: _DECISIONS[state.armies[seat].letter]["deploy"]
                for seat in (0, 1)
                if not state.armies[seat].done
            }
        if phase == "allocate":
            alloc = state.alloc
            assert alloc is not None
            code = _abs_code(state, alloc.position)
            m = state.armies[alloc.taker].letter
            return {
                alloc.taker: Decision(
                    "allocate",
                    f"Place {alloc.hits} loss(es) on your units in {code} (-{m}3).",
                    (("hits", alloc.hits), ("position", code), ("letter", m)),
                )
            }
        seat = state.active
        m = state.armies[seat].letter
        if phase == "rally" and state.rules.ralliement_timing == "failure":
            failed = state.last_tests[-1].card if state.last_tests else ""
            play = next((a for a in self._rally_actions(state) if isinstance(a, Play)), None)
            special = play.card if play is not None else f"{m}21"
            return {
                seat: Decision(
                    "rout",
                    f"{failed} failed its cohesion test: play Ralliement on it "
                    f"({special}!{failed}), or let it rout (ok).",
                    (("card", failed), ("special", special), ("letter", m)),
                )
            }
        return {seat: _DECISIONS[m][phase]}

    # ---- legal actions -----------------------------------------------------
    _memo: tuple[object, int, tuple[Action, ...]] = (None, -1, ())
    _memo2: tuple[object, int, tuple[Action, ...]] = (None, -1, ())

    def legal_actions(self, state: State, seat: Seat) -> list[Action]:
        for memo in (self._memo, self._memo2):
            if memo[0] is state and memo[1] == seat:
                return list(memo[2])
        actions = self._legal(state, seat)
        self._remember(state, seat, actions)
        return actions

    def _remember(self, state: State, seat: Seat, actions: list[Action]) -> None:
        """Keep the legal actions of ``seat`` in ``state`` (the last two asked)."""
        self._memo2 = self._memo
        self._memo = (state, seat, tuple(actions))

    def _offered(self, state: State, seat: Seat, action: Action) -> bool:
        """Is ``action`` itself one of the legal actions last listed for this
        state and seat (the usual case: no need to check it again)?"""
        for memo in (self._memo, self._memo2):
            if memo[0] is state and memo[1] == seat:
                return any(a is action for a in memo[2])
        return False

    def _legal(self, state: State, seat: Seat) -> list[Action]:
        """The legal actions; cards that are interchangeable (same type, place
        and status) are offered once, by their first handle."""
        phase = state.phase
        if phase == "over" or seat not in (0, 1):
            return []
        if phase == "deploy":
            if state.armies[seat].done:
                return []
            return self._deploy_actions(state, seat)
        if phase == "allocate":
            alloc = state.alloc
            if alloc is None or seat != alloc.taker:
                return []
            return self._loss_actions(state)
        if seat != state.active:
            return []
        if phase == "rally":
            return self._rally_actions(state)
        if phase == "combat":
            return [*self._fire_actions(state), Done()]
        return self._move_actions(state)

    def _deploy_actions(self, state: State, seat: Seat) -> list[Action]:
        army = state.armies[seat]
        types = _types(state.rules)
        b = board(state)
        out: list[Action] = []
        seen: set[str] = set()
        for i in b.reserve[seat]:
            c = army.cards[i]
            t = types[c.type]
            if t.kind == "special" or c.type in seen:
                continue
            seen.add(c.type)
            for w in range(3):
                if self._can_deploy(state, b, seat, seat * 3 + w, t):
                    out.append(Move(c.uid, WINGS[w]))
        if army.staged:
            out.append(Undo())
        out.append(Done())
        return out

    def _can_deploy(self, state: State, b: Board, seat: int, p: int, t: TypeDef) -> bool:
        """Seed 3-5, 17: at most 4 cards (units and terrain) per position plus
        the general's rally bonus; one general; two different terrain cards."""
        if t.kind == "general":
            return b.general[seat][p] < 0
        if _count(b, seat, p) + 1 > _cap(state, b, seat, p):
            return False
        if t.kind == "terrain":
            return len(b.terrain[p]) < 2 and t.id not in b.terrain[p]
        return t.kind == "unit"

    def _rally_actions(self, state: State) -> list[Action]:
        seat = state.active
        army = state.armies[seat]
        types = _types(state.rules)
        b = board(state)
        rally = next(
            (c for i in b.reserve[seat] if (c := army.cards[i]).type == "ralliement"), None
        )
        out: list[Action] = []
        if state.rules.ralliement_timing == "failure":
            # option: only the unit that has just failed its test, once the dice are rolled
            if rally is not None and state.phase == "rally" and state.last_tests:
                out.append(Play(rally.uid, state.last_tests[-1].card))
            out.append(Done())
            return out
        if rally is not None:
            seen: set[tuple[object, ...]] = set()
            for p in range(6):
                for i in b.units[seat][p]:
                    c = army.cards[i]
                    if c.tokens and types[c.type].kind == "unit":
                        sig = _sig(state, seat, i, c)
                        if sig not in seen:
                            seen.add(sig)
                            out.append(Play(rally.uid, c.uid))
        out.append(Done())
        return out

    def _fire_options(
        self, state: State, b: Board, seat: int, c: Card, t: TypeDef
    ) -> list[tuple[str, str, int, int]]:
        """(at, mode, target position, target card) for a unit that may fire."""
        p = c.loc
        enemy = 1 - seat
        out: list[tuple[str, str, int, int]] = []
        closed = state.closed
        if b.units[enemy][p]:
            if p not in closed and _dice_count(state, b, seat, t, "melee", p, p) > 0:
                out.append((relative_code(seat, p), "melee", p, -1))
            return out
        if b.present(enemy, p):
            return out
        ecards = state.armies[enemy].cards
        types = _types(state.rules)
        if t.long_range and p // 3 == seat:
            q = opposite(p)
            if q not in closed and not b.present(seat, q):
                visible = [j for j in b.units[enemy][q] if ecards[j].up]
                if visible and _dice_count(state, b, seat, t, "long-range", p, q) > 0:
                    out.append((relative_code(seat, q), "long-range", q, -1))
                    seen: set[tuple[object, ...]] = set()
                    for j in visible:
                        cj = ecards[j]
                        if types[cj.type].category not in ARTILLERY:
                            continue
                        sig = (
                            ("spread",)
                            if state.rules.counter_battery == "spread"
                            else _sig(state, enemy, j, cj)
                        )
                        if sig not in seen:
                            seen.add(sig)
                            out.append((cj.uid, "counter-battery", q, j))
            if state.rules.counter_battery_range == "line":
                # seed 10: « viser spécifiquement une carte d'artillerie ou de
                # mitrailleuses de la ligne de bataille adverse »: any enemy
                # position that is not engaged, not only the opposite one
                for x in range(enemy * 3, enemy * 3 + 3):
                    if x == q or x in closed or b.present(seat, x):
                        continue
                    if _dice_count(state, b, seat, t, "counter-battery", p, x) <= 0:
                        continue
                    seen_x: set[tuple[object, ...]] = set()
                    for j in b.units[enemy][x]:
                        cj = ecards[j]
                        if not cj.up or types[cj.type].category not in ARTILLERY:
                            continue
                        sig = (
                            ("spread",)
                            if state.rules.counter_battery == "spread"
                            else _sig(state, enemy, j, cj)
                        )
                        if sig not in seen_x:
                            seen_x.add(sig)
                            out.append((cj.uid, "counter-battery", x, j))
        if state.rules.flank_attack:
            for x in lateral(p):
                if (
                    x not in closed
                    and b.units[enemy][x]
                    and _dice_count(state, b, seat, t, "flank-attack", p, x) > 0
                ):
                    out.append((relative_code(seat, x), "flank-attack", x, -1))
        return out

    def _fire_actions(self, state: State) -> list[Action]:
        seat = state.active
        army = state.armies[seat]
        types = _types(state.rules)
        b = board(state)
        out: list[Action] = []
        seen: set[tuple[object, ...]] = set()
        mover = state.mover
        cards = army.cards
        for p in range(6):
            for i in b.units[seat][p]:
                c = cards[i]
                bits = c.bits
                if bits & _FOUGHT:
                    continue
                sig = (c.type, p, bits & ~_KNOWN, i == mover)  # _sig (seat is active)
                if sig in seen:
                    continue
                seen.add(sig)
                uid = c.uid
                for at, _, _, _ in self._fire_options(state, b, seat, c, types[c.type]):
                    action = _FIRES.get((uid, at))
                    if action is None:
                        action = _FIRES[uid, at] = Fire(uid, at)
                    out.append(action)
        return out

    def _loss_candidates(self, state: State) -> list[int]:
        """The taker's units that may take the next loss (seed 11: every unit
        there has a token before any has a second)."""
        alloc = state.alloc
        assert alloc is not None
        taker = alloc.taker
        army = state.armies[taker]
        if alloc.target:
            j = card_index(alloc.target)
            return [j] if army.cards[j].loc == alloc.position else []
        types = _types(state.rules)
        b = board(state)
        # seed 11: « chaque carte d'unité ennemie dans la position », face down
        # ones too (option long_range_losses=face-up, ruling B8: visible ones only)
        hidden_too = not alloc.artillery_only and state.rules.long_range_losses == "every-unit"
        eligible = [
            j
            for j in b.units[taker][alloc.position]
            if (army.cards[j].up or hidden_too)
            and (not alloc.artillery_only or types[army.cards[j].type].category in ARTILLERY)
        ]
        if not eligible:
            return []
        low = min(army.cards[j].tokens for j in eligible)
        return [j for j in eligible if army.cards[j].tokens == low]

    def _loss_actions(self, state: State) -> list[Action]:
        alloc = state.alloc
        assert alloc is not None
        army = state.armies[alloc.taker]
        out: list[Action] = []
        seen: set[tuple[object, ...]] = set()
        for j in self._loss_candidates(state):
            sig = _sig(state, alloc.taker, j, army.cards[j])
            if sig not in seen:
                seen.add(sig)
                out.append(Loss(army.cards[j].uid))
        return out

    def _destinations(self, state: State, b: Board, seat: int, c: Card, t: TypeDef) -> list[int]:
        """Seed 12 and rulings B3: reserve <-> own positions <-> the enemy
        position opposite; no lateral, diagonal or enemy-reserve moves, no
        advance out of an engaged position."""
        loc = c.loc
        enemy = 1 - seat
        own = range(seat * 3, seat * 3 + 3)
        general = t.kind == "general"
        if loc == RESERVE:
            if t.kind == "terrain":
                terrain = b.terrain
                where = own if state.rules.terrain_placement == "own" else range(6)
                return [
                    p
                    for p in where
                    if not b.present(enemy, p) and len(terrain[p]) < 2 and t.id not in terrain[p]
                ]
            return [p for p in own if not general or b.general[seat][p] < 0]
        if loc // 3 == seat:
            out = [RESERVE]
            if not b.present(enemy, loc):
                q = opposite(loc)
                if not general or b.general[seat][q] < 0:
                    out.append(q)
            return out
        q = opposite(loc)
        return [q] if not general or b.general[seat][q] < 0 else []

    def _move_actions(self, state: State) -> list[Action]:
        seat = state.active
        army = state.armies[seat]
        rules = state.rules
        types = _types(rules)
        b = board(state)
        check = _MoveCheck(state, b, seat)
        allows = check.allows
        mover = state.mover
        codes = _CODES[seat]
        enemy_there = check.enemy
        my_general = b.general[seat]
        terrain = b.terrain
        own = range(seat * 3, seat * 3 + 3)
        out: list[Action] = []
        seen: set[tuple[object, ...]] = set()
        by_key: dict[int, list[str]] = {}
        if _LOCAL.sig_keys[0] is not rules:
            _LOCAL.sig_keys[:] = [rules, {}]
        sig_keys: dict[tuple[object, ...], int] = _LOCAL.sig_keys[1]
        for i, c in enumerate(army.cards):
            loc = c.loc
            if loc < 0 and loc != RESERVE:
                continue
            bits = c.bits
            # interchangeable cards (same signature, see _sig) give the same
            # moves: only the first is offered
            sig = (c.type, loc, bits & ~_KNOWN, i == mover)
            n = len(seen)
            seen.add(sig)
            if len(seen) == n:
                continue
            key = sig_keys.get(sig)
            if key is None:
                key = sig_keys[sig] = _move_key_id(
                    _move_key(rules, types[c.type], loc, bits, i == mover)
                )
            if key < 0:
                continue
            allowed = by_key.get(key)
            if allowed is None:
                t = types[c.type]
                kind = t.kind
                # _destinations, inlined
                general = kind == "general"
                if loc == RESERVE:
                    if kind == "terrain":
                        # seed 5: « en cours de partie que dans une position non
                        # engagée » (any, where no enemy card stands); ruling B2:
                        # own positions only (option terrain_placement=own)
                        dests: Sequence[int] = [
                            p
                            for p in (own if rules.terrain_placement == "own" else range(6))
                            if not enemy_there[p] and len(terrain[p]) < 2 and t.id not in terrain[p]
                        ]
                    elif general:
                        dests = [p for p in own if my_general[p] < 0]
                    else:
                        dests = own
                elif loc // 3 == seat:
                    q = opposite(loc)
                    if not enemy_there[loc] and (not general or my_general[q] < 0):
                        dests = (RESERVE, q)
                    else:
                        dests = (RESERVE,)
                else:
                    q = opposite(loc)
                    dests = (q,) if not general or my_general[q] < 0 else ()
                allowed = by_key[key] = [codes[d] for d in dests if allows(state, c, t, d)]
            uid = c.uid
            for code in allowed:
                action = _MOVES.get((uid, code))
                if action is None:
                    action = _MOVES[uid, code] = Move(uid, code)
                out.append(action)
        out += self._special_actions(state, b, seat)
        if check.within_limits():
            out.append(Done())
        return out

    def _special_actions(self, state: State, b: Board, seat: int) -> list[Action]:
        """Marche Forcée and Retranchements, played in the movement phase."""
        army = state.armies[seat]
        types = _types(state.rules)
        out: list[Action] = []
        specials: dict[str, str] = {}
        for i in b.reserve[seat]:
            c = army.cards[i]
            if c.type in ("marche-forcee", "retranchements") and c.type not in specials:
                specials[c.type] = c.uid
        if not specials:
            return out
        enemy = 1 - seat
        seen: set[tuple[object, ...]] = set()
        for j, cj in enumerate(army.cards):
            tj = types[cj.type]
            if tj.kind != "unit":
                continue
            sig = _sig(state, seat, j, cj)
            if sig in seen:
                continue
            seen.add(sig)
            if (
                "marche-forcee" in specials
                and (cj.loc == RESERVE or cj.loc >= 0)
                and tj.category in MARCHING
                and (
                    cj.moves == 0
                    # option forced_march=any: also after its first move, while
                    # it is still the card moving (its moves are consecutive)
                    or (state.rules.forced_march == "any" and j == state.mover and cj.moves == 1)
                )
                and not cj.fought
                and not cj.forced
                and _allowance(state.rules, tj, False) < 2
            ):
                out.append(Play(specials["marche-forcee"], cj.uid))
            if (
                "retranchements" in specials
                and cj.loc >= 0
                and cj.loc // 3 == seat
                and cj.up
                and tj.category == "infantry"
                and not cj.entrenched
                and not b.present(enemy, cj.loc)
            ):
                out.append(Play(specials["retranchements"], cj.uid))
        return out

    # ---- apply ---------------------------------------------------------------
    def apply(self, state: State, seat: Seat, action: Action) -> tuple[State, tuple[Event, ...]]:
        self.check_turn(state, seat)
        if not self._offered(state, seat, action):
            canon = self._canonical(state, seat, action)
            if canon is None or canon not in self.legal_actions(state, seat):
                en, fr = self._why_illegal(state, seat, action)
                raise IllegalAction(en, fr=fr, action=self.format_action(action))
        events: list[Event] = []
        phase = state.phase
        if phase == "deploy":
            state = self._apply_deploy(state, seat, action, events)
        elif isinstance(action, Done):
            if phase == "rally" and state.rules.ralliement_timing == "failure":
                # the unit that failed its test routs; the other tests go on
                failed = card_index(state.last_tests[-1].card)
                state = self._eliminate(state, seat, failed, "rout", events)
                state = self._run_cohesion(state, events, resume=True)
            elif phase == "rally":
                state = self._run_cohesion(state, events)
            elif phase == "combat":
                state = self._enter_movement(state, events)
            else:
                state = self._end_movement(state, events)
        elif isinstance(action, Fire):
            state = self._apply_fire(state, seat, action, events)
        elif isinstance(action, Loss):
            state = self._give_loss(state, seat, card_index(action.card), events)
            alloc = state.alloc
            assert alloc is not None
            state = replace(state, alloc=replace(alloc, hits=alloc.hits - 1))
            state = self._distribute(state, events)
        elif isinstance(action, Move):
            state = self._move(state, seat, action, events)
        elif isinstance(action, Play):
            state = self._play(state, seat, action, events)
        return state, tuple(events)

    def _rep(self, state: State, seat: int, uid: str) -> str | None:
        """The handle offered in the legal actions for a card interchangeable
        with ``uid`` (None: not a card of ``seat``)."""
        army = state.armies[seat]
        i = _index_of(army, uid)
        if i < 0:
            return None
        c = army.cards[i]
        sig = _sig(state, seat, i, c)
        for j, cj in enumerate(army.cards):
            if cj.loc == c.loc and _sig(state, seat, j, cj) == sig:
                return cj.uid
        return uid

    def _canonical(self, state: State, seat: int, action: Action) -> Action | None:
        if isinstance(action, Done | Undo):
            return action
        if isinstance(action, Move):
            card = self._rep(state, seat, action.card)
            return None if card is None else Move(card, action.to)
        if isinstance(action, Loss):
            card = self._rep(state, seat, action.card)
            return None if card is None else Loss(card)
        if isinstance(action, Play):
            card = self._rep(state, seat, action.card)
            target = self._rep(state, seat, action.target)
            if card is None or target is None:
                return None
            return Play(card, target)
        card = self._rep(state, seat, action.card)
        if card is None:
            return None
        at = action.at
        if at[:1] in ("F", "A") and at[1:].isdigit():
            enemy = 1 - seat
            if state.rules.counter_battery == "spread":
                ecards = state.armies[enemy].cards
                j = _index_of(state.armies[enemy], at)
                if j < 0:
                    return None
                types = _types(state.rules)
                for cj in ecards:
                    if cj.loc == ecards[j].loc and cj.up and types[cj.type].category in ARTILLERY:
                        return Fire(card, cj.uid)
                return None
            target = self._rep(state, enemy, at)
            if target is None:
                return None
            at = target
        return Fire(card, at)

    # -- deployment (seed 3-5: face down, secret, simultaneous)
    def _apply_deploy(self, state: State, seat: int, action: Action, events: list[Event]) -> State:
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
            state = self._begin_battle(state, events)
        return state

    def _begin_battle(self, state: State, events: list[Event]) -> State:
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
        events.append(
            Event("first-player", {"seat": first, "terrain": terrain_counts, "rolls": rolls})
        )
        state = replace(state, rng=stream.state, first_player=first)
        return self._start_turn(state, first, events)

    # -- the turn (seed 5: cohesion, combat, movement, reinforcement)
    def _start_turn(self, state: State, seat: int, events: list[Event]) -> State:
        turn = state.turn + 1
        limit = state.rules.turn_limit
        if limit and turn > 2 * limit:
            return self._finish(state, -1, "turn-limit", events)
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
            return self._run_cohesion(state, events)  # Ralliement comes after a failed test
        rally = self._rally_actions(state)
        if len(rally) > 1:
            self._remember(state, seat, rally)
            return state
        return self._run_cohesion(state, events)

    def _run_cohesion(self, state: State, events: list[Event], resume: bool = False) -> State:
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
                    # option ralliement_timing=failure: the player decides now
                    state = _set_army(state, seat, replace(army, cards=tuple(cards)))
                    state = replace(state, rng=stream.state, phase="rally")
                    for test in tests[:-1]:
                        events.append(Event("cohesion", _test_data(state, test)))
                    data = dict(_test_data(state, tests[-1]))
                    data["may_rally"] = True
                    events.append(Event("cohesion", data))
                    return replace(state, last_tests=earlier + tuple(tests))
                else:
                    routed.append(i)
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
        state = _set_army(state, seat, replace(army, cards=tuple(cards)))
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
            state = self._eliminate(state, seat, i, cause, events)
        state = replace(state, last_tests=earlier + tuple(tests))
        state = self._disorganise(state, seat, events)
        state = self._after_change(state, events)
        if state.phase == "over":
            return state
        return self._enter_combat(state, events)

    def _disorganise(self, state: State, seat: int, events: list[Event]) -> State:
        """Seed 14: where the side is over its limit, all its units there test
        cohesion; those that fail go back to the reserve; again until the
        limit holds."""
        tests: list[Test] = []
        while True:
            b = board(state)
            over = [
                p
                for p in range(6)
                if b.units[seat][p] and _count(b, seat, p) > _cap(state, b, seat, p)
            ]
            if not over:
                break
            p = over[0]
            for i in b.units[seat][p]:
                if not state.armies[seat].cards[i].up:
                    state = self._reveal(state, seat, i, events)
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

    def _enter_combat(self, state: State, events: list[Event]) -> State:
        if state.rules.flank_attack and self._flank_win(state):
            return self._finish(state, state.active, "flank", events)
        state = replace(state, phase="combat", combat_at=-1, closed=())
        fire = self._fire_actions(state)
        if not fire:
            return self._enter_movement(state, events)
        self._remember(state, state.active, [*fire, Done()])
        return state

    def _enter_movement(self, state: State, events: list[Event]) -> State:
        return replace(state, phase="movement", mover=-1, combat_at=-1)

    def _flank_win(self, state: State) -> bool:
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

    def _end_movement(self, state: State, events: list[Event]) -> State:
        seat = state.active
        if state.rules.overflow == "disorganise":
            state = self._disorganise(state, seat, events)
            state = self._after_change(state, events)
            if state.phase == "over":
                return state
        state = self._reveal_engaged(state, events)
        state = self._reinforce(state, seat, events)
        army = state.armies[seat]
        turn_bits = _FOUGHT | _FORCED | 0xE0  # fought, Marche Forcée, moves: this turn only
        if any(c.bits & turn_bits for c in army.cards):
            cards = tuple(
                Card(c.uid, c.type, c.loc, c.bits & ~turn_bits) if c.bits & turn_bits else c
                for c in army.cards
            )
            state = _set_army(state, seat, replace(army, cards=cards))
        return self._start_turn(state, 1 - seat, events)

    def _reveal(self, state: State, seat: int, i: int, events: list[Event]) -> State:
        c = state.armies[seat].cards[i]
        state = _set_card(state, seat, i, c.set(up=True))
        events.append(
            Event(
                f"reveal:{c.type}",
                {"seat": seat, "card": c.uid, "type": c.type, "position": _abs_code(state, c.loc)},
            )
        )
        return state

    def _reveal_engaged(self, state: State, events: list[Event]) -> State:
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
        for seat, i in todo:
            state = self._reveal(state, seat, i, events)
        return state

    def _reinforce(self, state: State, seat: int, events: list[Event]) -> State:
        """Seed 15: the turn ends with a card drawn into the reserve."""
        army = state.armies[seat]
        if not army.pile:
            events.append(Event("no-reinforcement", {"seat": seat}))
            return state
        i = army.pile[0]
        c = army.cards[i]
        cards = army.cards[:i] + (c.set(loc=RESERVE, known=False),) + army.cards[i + 1 :]
        state = _set_army(state, seat, replace(army, cards=cards, pile=army.pile[1:]))
        events.append(
            Event(
                "reinforcement",
                {"seat": seat, "card": c.uid, "type": c.type},
                to=frozenset({seat}),
                redacted={"seat": seat},
            )
        )
        return state

    # -- combat (seed 7-11, 16-18)
    def _apply_fire(self, state: State, seat: int, action: Fire, events: list[Event]) -> State:
        i = card_index(action.card)
        c = state.armies[seat].cards[i]
        at = action.at
        if at not in ("R", *WINGS, *("E" + w for w in WINGS)):
            j = card_index(at)
            q = state.armies[1 - seat].cards[j].loc
            return self._fire(state, seat, i, "counter-battery", q, j, events)
        pos = absolute_of(seat, at)
        if pos == c.loc:
            mode = "melee"
        elif pos == opposite(c.loc):
            mode = "long-range"
        else:
            mode = "flank-attack"
        return self._fire(state, seat, i, mode, pos, -1, events)

    def _fire(
        self,
        state: State,
        seat: int,
        i: int,
        mode: str,
        at: int,
        target: int,
        events: list[Event],
    ) -> State:
        rules = state.rules
        types = _types(rules)
        enemy = 1 - seat
        c = state.armies[seat].cards[i]
        t = types[c.type]
        if not c.up:
            state = self._reveal(state, seat, i, events)
        c = state.armies[seat].cards[i]
        state = _set_card(state, seat, i, c.set(fought=True))
        if mode == "flank-attack":
            for j in board(state).units[enemy][at]:
                if not state.armies[enemy].cards[j].up:
                    state = self._reveal(state, enemy, j, events)
        closed = state.closed
        if state.combat_at >= 0 and state.combat_at != at:
            closed = (*closed, state.combat_at)
        state = replace(state, combat_at=at, closed=closed)
        b = board(state)
        n, mods, threshold, status = _dice(state, b, seat, t, mode, c.loc, at)
        stream = rng.Stream(state.rng)
        dice = tuple(stream.roll() for _ in range(n))
        hits = sum(1 for d in dice if d <= threshold)
        sixes = dice.count(6)
        general = ""
        general_type = ""
        g = b.general[enemy][at]
        if g >= 0 and sixes and (rules.general_sixes == "all" or mode == "melee"):
            gc = state.armies[enemy].cards[g]
            state = _set_card(state, enemy, g, gc.set(tokens=gc.tokens + sixes))
            general, general_type = gc.uid, gc.type
        target_uid = target_type = ""
        if target >= 0:
            tc = state.armies[enemy].cards[target]
            target_uid, target_type = tc.uid, tc.type
        combat = Combat(
            seat=seat,
            card=c.uid,
            type=c.type,
            mode=mode,
            origin=c.loc,
            at=at,
            target=target_uid,
            status=status,
            vc=t.vc,
            dice_count=n,
            modifiers=mods,
            threshold=threshold,
            dice=dice,
            hits=hits,
            sixes=sixes,
            general=general,
            turn=state.turn,
        )
        events.append(
            Event(
                mode,
                {
                    "seat": seat,
                    "card": c.uid,
                    "type": c.type,
                    "from": _abs_code(state, c.loc),
                    "at": _abs_code(state, at),
                    "target": target_uid or None,
                    "target_type": target_type or None,
                    "status": status or None,
                    "vc": t.vc,
                    "dice_count": n,
                    "modifiers": [list(m) for m in mods],
                    "threshold": threshold,
                    "dice": list(dice),
                    "hits": hits,
                    "sixes": sixes,
                    "general": general or None,
                    "general_type": general_type or None,
                },
            )
        )
        spread = mode == "counter-battery" and rules.counter_battery == "spread"
        alloc = Alloc(
            taker=enemy,
            position=at,
            hits=hits,
            target=target_uid if mode == "counter-battery" and not spread else "",
            artillery_only=spread,
        )
        state = replace(state, rng=stream.state, last_combat=combat, alloc=alloc)
        return self._distribute(state, events)

    def _distribute(self, state: State, events: list[Event]) -> State:
        """Place the losses automatically while there is no real choice; ask
        the taker (an out-of-turn decision) when there is one."""
        alloc = state.alloc
        assert alloc is not None
        hits = alloc.hits
        while hits > 0:
            cands = self._loss_candidates(state)
            if not cands:
                break
            if len(cands) > hits:
                army = state.armies[alloc.taker]
                # face-down cards count as different: whether the taker is asked
                # must not tell the other side what they are
                sigs = {
                    _sig(state, alloc.taker, j, army.cards[j]) if army.cards[j].up else (j,)
                    for j in cands
                }
                if len(sigs) > 1:
                    return replace(state, alloc=replace(alloc, hits=hits), phase="allocate")
                cands = cands[:hits]
            for j in cands:
                state = self._give_loss(state, alloc.taker, j, events)
            hits -= len(cands)
        state = replace(state, alloc=None, phase="combat")
        state = self._after_change(state, events)
        if state.phase == "over":
            return state
        fire = self._fire_actions(state)
        if not fire:
            return self._enter_movement(state, events)
        self._remember(state, state.active, [*fire, Done()])
        return state

    def _give_loss(self, state: State, seat: int, j: int, events: list[Event]) -> State:
        """One loss token; more tokens than the printed VC: eliminated (seed 11)."""
        c = state.armies[seat].cards[j]
        if not c.up:
            # a face-down unit that takes a loss is turned face up: its token,
            # its cohesion test and its elimination need its values
            state = self._reveal(state, seat, j, events)
            c = state.armies[seat].cards[j]
        t = _types(state.rules)[c.type]
        c = c.set(tokens=c.tokens + 1)
        state = _set_card(state, seat, j, c)
        events.append(
            Event(
                "loss",
                {
                    "seat": seat,
                    "card": c.uid,
                    "type": c.type,
                    "position": _abs_code(state, c.loc),
                    "tokens": c.tokens,
                },
            )
        )
        combat = state.last_combat
        if combat is not None:
            combat = replace(combat, losses=(*combat.losses, c.uid))
            state = replace(state, last_combat=combat)
        if c.tokens > t.vc:
            state = self._eliminate(state, seat, j, "losses", events)
        return state

    def _eliminate(self, state: State, seat: int, i: int, cause: str, events: list[Event]) -> State:
        c = state.armies[seat].cards[i]
        events.append(
            Event(
                "eliminated",
                {
                    "seat": seat,
                    "card": c.uid,
                    "type": c.type,
                    "position": _abs_code(state, c.loc),
                    "cause": cause,
                },
            )
        )
        state = _set_card(
            state,
            seat,
            i,
            c.set(loc=GONE, up=True, tokens=0, entrenched=False, forced=False),
        )
        combat = state.last_combat
        if cause == "losses" and combat is not None:
            state = replace(
                state, last_combat=replace(combat, eliminated=(*combat.eliminated, c.uid))
            )
        return state

    # -- after anything changes: lone generals, conquests, victory
    def _after_change(self, state: State, events: list[Event]) -> State:
        state = self._lone_generals(state, events)
        state = self._update_conquered(state, events)
        return self._check_victory(state, events)

    def _lone_generals(self, state: State, events: list[Event]) -> State:
        """Seed 17: a general can never hold a position alone; engaged alone,
        he is eliminated at once."""
        b = board(state)
        doomed = [
            (seat, b.general[seat][p])
            for p in range(6)
            for seat in (0, 1)
            if b.general[seat][p] >= 0 and not b.units[seat][p] and b.present(1 - seat, p)
        ]
        for seat, g in doomed:
            state = self._eliminate(state, seat, g, "alone", events)
        return state

    def _update_conquered(self, state: State, events: list[Event]) -> State:
        """Rulings B6: a position is conquered when it holds enemy units and
        none of its owner's; it stays so while the enemy holds on there."""
        b = board(state)
        conquered = list(state.conquered)
        for p in range(6):
            owner = p // 3
            other = 1 - owner
            if b.units[other][p] and not b.units[owner][p]:
                now = True
            elif not b.units[other][p]:
                now = False
            else:
                now = conquered[p]
            if now != conquered[p]:
                conquered[p] = now
                events.append(
                    Event(
                        "conquered" if now else "recovered",
                        {"position": _abs_code(state, p), "seat": other if now else owner},
                    )
                )
        new = (conquered[0], conquered[1], conquered[2], conquered[3], conquered[4], conquered[5])
        if new != state.conquered:
            state = replace(state, conquered=new)
        return state

    def _check_victory(self, state: State, events: list[Event]) -> State:
        """Seed 6: a player wins the instant they occupy two abandoned enemy
        positions; rulings B7: a player with no unit left anywhere loses."""
        b = board(state)
        for seat in (state.active, 1 - state.active):
            enemy = 1 - seat
            held = sum(
                1
                for p in range(enemy * 3, enemy * 3 + 3)
                if b.units[seat][p] and not b.units[enemy][p]
            )
            if held >= 2:
                return self._finish(state, seat, "occupation", events)
        if state.rules.no_units_loses:
            alive = b.alive
            if not alive[0] and not alive[1]:
                return self._finish(state, -1, "annihilation", events)
            for seat in (0, 1):
                if not alive[seat]:
                    return self._finish(state, 1 - seat, "annihilation", events)
        return state

    def _finish(self, state: State, winner: int, reason: str, events: list[Event]) -> State:
        ranking: tuple[tuple[Seat, ...], ...] = (
            ((0, 1),) if winner < 0 else ((winner,), (1 - winner,))
        )
        state = replace(state, phase="over", ranking=ranking, end_reason=reason, alloc=None)
        events.append(
            Event(
                "game-over",
                {
                    "reason": reason,
                    "winner": None if winner < 0 else winner,
                    "ranking": [list(g) for g in ranking],
                },
            )
        )
        return state

    # -- movement (seed 12-13, terrain placement, specials)
    def _move(self, state: State, seat: int, action: Move, events: list[Event]) -> State:
        types = _types(state.rules)
        army = state.armies[seat]
        i = card_index(action.card)
        c = army.cards[i]
        t = types[c.type]
        src = c.loc
        dest = absolute_of(seat, action.to)
        engaged = dest >= 0 and board(state).present(1 - seat, dest)
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
        cards[i] = Card(c.uid, c.type, dest, bits)
        if src == RESERVE:
            if t.kind == "unit":
                _forget_all(cards)
            else:
                _forget_one(cards, t.id, i)
        army = replace(army, cards=tuple(cards))
        armies = (army, state.armies[1]) if seat == 0 else (state.armies[0], army)
        state = replace(state, armies=armies, mover=i)
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
        return self._after_change(state, events)

    def _play(self, state: State, seat: int, action: Play, events: list[Event]) -> State:
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
        state = _set_army(state, seat, replace(army, cards=tuple(cards)))
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
            return self._run_cohesion(state, events, resume=True)
        if special.type == "ralliement" and len(self._rally_actions(state)) <= 1:
            return self._run_cohesion(state, events)
        return state

    # ---- resignation, outcome ----------------------------------------------
    def resign(self, state: State, seat: Seat) -> tuple[State, tuple[Event, ...]]:
        """The resigning player loses at once (possible during deployment too)."""
        if state.phase == "over":
            raise GameOver("The game is over.", fr="La partie est terminée.")
        if seat not in (0, 1):
            raise NotYourTurn(
                "You are not playing in this game.",
                fr="Vous ne jouez pas dans cette partie.",
                seat=seat,
            )
        events: list[Event] = [Event("resign", {"seat": seat})]
        state = self._finish(state, 1 - seat, "resign", events)
        return state, tuple(events)

    def outcome(self, state: State) -> Outcome | None:
        if state.phase != "over":
            return None
        return Outcome(ranking=state.ranking, reason=state.end_reason)

    # ---- views ---------------------------------------------------------------
    def _card_view(
        self,
        state: State,
        seat: int,
        i: int,
        types: Mapping[str, TypeDef],
        bonus: Mapping[tuple[int, int], tuple[str, int, bool]],
    ) -> CardView:
        rules = state.rules
        c = state.armies[seat].cards[i]
        loc = c.loc
        if loc in (GONE, USED):
            found = _LOCAL.card_views.get((c, id(types), rules.artillery_moves))
            if found is not None:
                return found
        t = types[c.type]
        status = ""
        cohesion = 0
        bits = c.bits
        kind = t.kind
        if loc >= 0 and kind == "unit":
            status, gen, bourg = bonus[seat, loc]
            cohesion = _cohesion_of(rules, t, c, status, gen, bourg)[0]
        allowance = _allowance(rules, t, bool(bits & _FORCED))
        moves_left = 0
        moves = (bits >> 5) & 7
        if (
            (loc >= 0 or loc == RESERVE)
            and kind != "terrain"
            and kind != "special"
            and (not bits & _FOUGHT or _light(rules, t))
            and (moves == 0 or (state.mover == i and state.active == seat))
        ):
            moves_left = max(0, allowance - moves)
        key = (c, id(types), status, cohesion, allowance, moves_left)
        found = _LOCAL.card_views.get(key)
        if found is not None:
            return found
        view = CardView(
            uid=c.uid,
            type=c.type,
            name=t.name,
            short=t.short,
            kind=t.kind,
            category=t.category,
            face_up=c.up,
            tokens=c.tokens,
            vc=t.vc,
            fire_attack=t.fire_attack,
            fire_defence=t.fire_defence,
            long_range=t.long_range,
            save=t.save,
            move=allowance,
            attack=t.attack,
            defence=t.defence,
            rally=t.rally,
            status=status,
            cohesion=cohesion,
            fought=c.fought,
            moves=c.moves,
            moves_left=moves_left,
            entrenched=c.entrenched,
            forced=c.forced,
        )
        if len(_LOCAL.card_views) > 50_000:
            _LOCAL.card_views.clear()
        _LOCAL.card_views[key] = view
        if loc in (GONE, USED):
            _LOCAL.card_views[c, id(types), rules.artillery_moves] = view
        return view

    def view(self, state: State, seat: Seat | None) -> View:
        rules = state.rules
        types = _types(rules)
        b = board(state)
        deploying = state.phase == "deploy"
        bonus = {(s, p): _position_bonus(state, b, s, p) for s in (0, 1) for p in range(6)}

        def shown(s: int) -> bool:
            return not deploying or s == seat

        positions = []
        for p in range(6):
            line, wing = divmod(p, 3)
            terrain_shown = shown(line)
            sides = []
            for s in (0, 1):
                army = state.armies[s]
                status = status_of(state.conquered, s, p)
                if not shown(s):
                    sides.append(SideAt(s, None, (), 0, 0, rules.grouping, status))
                    continue
                g = b.general[s][p]
                units = []
                hidden = 0
                for i in b.units[s][p]:
                    if s == seat or army.cards[i].up:
                        units.append(self._card_view(state, s, i, types, bonus))
                    else:
                        hidden += 1
                count = len(b.units[s][p]) + (len(b.terrain[p]) if terrain_shown else 0)
                sides.append(
                    SideAt(
                        seat=s,
                        general=self._card_view(state, s, g, types, bonus) if g >= 0 else None,
                        units=tuple(units),
                        hidden=hidden,
                        count=count,
                        capacity=_cap(state, b, s, p),
                        status=status,
                    )
                )
            terrain: tuple[CardView, ...] = ()
            if terrain_shown:
                terrain = tuple(
                    self._card_view(state, s, i, types, bonus) for s, i in b.terrain_cards[p]
                )
            holder = -1
            if not deploying:
                if b.units[0][p] and not b.units[1][p]:
                    holder = 0
                elif b.units[1][p] and not b.units[0][p]:
                    holder = 1
            code = _abs_code(state, p)
            positions.append(
                PositionView(
                    index=p,
                    line=line,
                    wing=WINGS[wing],
                    code=code,
                    relative="" if seat is None else relative_code(seat, p),
                    name_fr=_code_name(code, True),
                    name_en=_code_name(code, False),
                    opposite=opposite(p),
                    terrain=terrain,
                    conquered=state.conquered[p],
                    engaged=not deploying and b.engaged(p),
                    holder=holder,
                    sides=(sides[0], sides[1]),
                )
            )
        players = []
        for s, army in enumerate(state.armies):
            own = s == seat
            reserve: tuple[CardView, ...] | None = None
            if own:
                order = catalog().order
                idx = sorted(
                    b.reserve[s],
                    key=lambda i: (
                        _KIND_ORDER[types[army.cards[i].type].kind],
                        order.get(army.cards[i].type, 10_000),
                        i,
                    ),
                )
                reserve = tuple(self._card_view(state, s, i, types, bonus) for i in idx)
            if deploying and not own:
                reserve_count = sum(1 for c in army.cards if c.loc == RESERVE or c.loc >= 0)
                known: tuple[str, ...] = ()
            else:
                reserve_count = len(b.reserve[s])
                known = tuple(
                    sorted(
                        (army.cards[i].type for i in b.reserve[s] if army.cards[i].known),
                        key=lambda tid: catalog().order.get(tid, 10_000),
                    )
                )
            enemy = 1 - s
            holds = 0
            if not deploying:
                holds = sum(
                    1
                    for p in range(enemy * 3, enemy * 3 + 3)
                    if b.units[s][p] and not b.units[enemy][p]
                )
            generals, generals_total = self._generals(state, s, own, shown(s), types)
            fr_name, en_name = _SIDE_NAME[army.side]
            players.append(
                PlayerView(
                    seat=s,
                    side=army.side,
                    side_name_fr=fr_name,
                    side_name_en=en_name,
                    letter=army.letter,
                    points=army.points,
                    army=army_entries(army.text, army.side),
                    army_size=len(army.cards),
                    reserve_count=reserve_count,
                    reserve=reserve,
                    reserve_known=known,
                    pile_count=len(army.pile),
                    eliminated=tuple(
                        self._card_view(state, s, i, types, bonus)
                        for i, c in enumerate(army.cards)
                        if c.loc == GONE
                    ),
                    used=tuple(
                        self._card_view(state, s, i, types, bonus)
                        for i, c in enumerate(army.cards)
                        if c.loc == USED
                    ),
                    ready=army.done,
                    staged=tuple(army.cards[i].uid for i in army.staged) if own else (),
                    holds=holds,
                    generals=generals,
                    generals_unseen=generals_total - len(generals),
                )
            )
        alloc_view = None
        if state.alloc is not None and state.phase == "allocate":
            taker_cards = state.armies[state.alloc.taker].cards
            cands = self._loss_candidates(state)
            # face-down handles stay secret to all but the taker
            own = seat == state.alloc.taker
            named = [j for j in cands if own or taker_cards[j].up]
            alloc_view = AllocView(
                taker=state.alloc.taker,
                position=state.alloc.position,
                hits=state.alloc.hits,
                candidates=tuple(taker_cards[j].uid for j in named),
                hidden=len(cands) - len(named),
                target=state.alloc.target,
                artillery_only=state.alloc.artillery_only,
            )
        choices: tuple[str, ...] = ()
        if seat is not None:
            choices = tuple(self.format_action(a) for a in self.legal_actions(state, seat))
        winner = -1
        if state.phase == "over" and len(state.ranking) == 2:
            winner = state.ranking[0][0]
        return View(
            observer=seat,
            phase=state.phase,
            turn=state.turn,
            turn_limit=rules.turn_limit,
            active=state.active,
            first_player=state.first_player,
            pending=tuple((s, d.kind) for s, d in self.pending(state).items()),
            players=(players[0], players[1]),
            positions=tuple(positions),
            combat_at=state.combat_at,
            closed=state.closed,
            mover=self._public_mover(state, seat),
            alloc=alloc_view,
            last_combat=state.last_combat,
            last_tests=state.last_tests,
            choices=choices,
            ranking=state.ranking,
            end_reason=state.end_reason,
            winner=winner,
            rules=rules,
            types=_type_list(rules),
        )

    def _generals(
        self, state: State, s: int, own: bool, on_board_shown: bool, types: Mapping[str, TypeDef]
    ) -> tuple[tuple[GeneralStatus, ...], int]:
        """Side ``s``'s generals that the observer can place, and how many
        generals the army has: on the board (face up, but not the other
        side's during deployment), in the reserve (one's own; the other
        side's only when seen going back, and then by type alone), dead (in
        public). Generals in the pile are never listed (even their owner
        does not know the pile's order)."""
        deploying = state.phase == "deploy"
        board_: list[GeneralStatus] = []
        reserve: list[GeneralStatus] = []
        dead: list[GeneralStatus] = []
        total = 0
        for c in state.armies[s].cards:
            t = types[c.type]
            if t.kind != "general":
                continue
            total += 1
            loc = c.loc
            if loc >= 0:
                if on_board_shown:
                    code = _abs_code(state, loc)
                    board_.append(
                        GeneralStatus(c.uid, c.type, t.name, "board", loc, code, not deploying)
                    )
            elif loc == GONE:
                dead.append(GeneralStatus(c.uid, c.type, t.name, "dead", -1, "", True))
            elif loc == RESERVE and (own or c.known):
                uid = c.uid if own else ""
                reserve.append(GeneralStatus(uid, c.type, t.name, "reserve", -1, "", c.known))
        board_.sort(key=lambda g: g.position)
        order = catalog().order
        reserve.sort(key=lambda g: (order.get(g.type, 10_000), g.type, g.uid))
        return (*board_, *reserve, *dead), total

    def _public_mover(self, state: State, seat: Seat | None) -> str:
        """The card that moved last, if ``seat`` may know which (its owner, or
        everybody when it is face up)."""
        if state.mover < 0 or state.phase != "movement":
            return ""
        c = state.armies[state.active].cards[state.mover]
        return c.uid if seat == state.active or c.up else ""

    # ---- hidden information ----------------------------------------------------
    def determinize(self, state: State, seat: Seat | None, seed: int) -> State:
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
                armies[s] = self._resample_deployment(state, s, army, stream)
            else:
                armies[s] = _resample_hidden(state.rules, army, stream)
        return replace(state, armies=(armies[0], armies[1]), rng=stream.below(1 << 62) + 1)

    def sample_state(self, view: View, seed: int) -> State:
        """A state consistent with a seat's ``view`` (search bots): every card the
        view shows stays as shown; the unseen ones (face-down units, the
        opponent's reserve, both piles) are drawn from what the public army lists
        leave, face-down cards being units; the generator is new. So
        ``view(sample_state(v, k), v.observer) == v``."""
        stream = rng.Stream(rng.seed_state(seed, "sample-state"))
        armies = [self._sample_army(view, pv, stream) for pv in view.players]
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

    def _sample_army(self, view: View, pv: PlayerView, stream: rng.Stream) -> Army:
        types = _types(view.rules)
        seat = pv.seat
        slots: list[Card | None] = [None] * pv.army_size
        pool: dict[str, int] = dict(pv.army)

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

    def _resample_deployment(self, state: State, seat: int, army: Army, stream: rng.Stream) -> Army:
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
            if t.kind != "special" and self._can_deploy(probe, b, seat, p, t):
                cards[i] = cards[i].set(loc=p, up=t.kind != "unit")
                staged.append(i)
        return replace(army, cards=tuple(cards), staged=tuple(staged))

    # ---- notation ------------------------------------------------------------
    def format_action(self, action: Action) -> str:
        if isinstance(action, Move):
            return f"{action.card}>{action.to}"
        if isinstance(action, Fire):
            return f"{action.card}@{action.at}"
        if isinstance(action, Loss):
            return f"-{action.card}"
        if isinstance(action, Play):
            return f"{action.card}!{action.target}"
        if isinstance(action, Undo):
            return "undo"
        return "ok"

    def parse_action(self, text: str) -> Action:
        raw = text.strip()
        if raw == "ok":
            return Done()
        up = re.sub(r"\s+", "", raw.upper()).replace("→", ">").replace("->", ">")
        if m := _MOVE_FAST.match(up):
            return Move(_uid(m.group(1), m.group(2)), m.group(3))
        word = _norm(raw)
        if word in _DONE_WORDS:
            return Done()
        if word in _UNDO_WORDS:
            return Undo()
        if m := _MOVE_RE.match(up):
            pos = _position_code(m.group(3))
            if pos is not None:
                return Move(_uid(m.group(1), m.group(2)), pos)
        if m := _FIRE_RE.match(up):
            target = m.group(3)
            if t := _UID_RE.match(target):
                return Fire(_uid(m.group(1), m.group(2)), _uid(t.group(1), t.group(2)))
            pos = _position_code(target)
            if pos is not None and pos != "R":
                return Fire(_uid(m.group(1), m.group(2)), pos)
        if m := _LOSS_RE.match(up):
            return Loss(_uid(m.group(1), m.group(2)))
        if m := _PLAY_RE.match(up):
            return Play(_uid(m.group(1), m.group(2)), _uid(m.group(3), m.group(4)))
        raise BadNotation(
            f"{text!r} is not a Belle Position move. Examples: F7>C (deploy or move F7 to your "
            "centre), F7>EG (into the enemy's left wing), F7>R (back to the reserve), "
            "F7@EC (F7 fires at the enemy centre), F7@A3 (counter-battery on A3), "
            "-F3 (a loss on F3), F21!F7 (play card F21 on F7), ok (done), undo. French cards "
            "are F1, F2..., German cards A1, A2... (A: Allemands).",
            fr=f"{text!r} n'est pas un coup de Belle Position. Exemples : F7>C (déployer ou "
            "déplacer F7 vers votre centre), F7>EG (vers l'aile gauche ennemie), F7>R (retour "
            "en réserve), F7@EC (F7 tire sur le centre ennemi), F7@A3 (contre-batterie sur A3), "
            "-F3 (une perte sur F3), F21!F7 (jouer la carte F21 sur F7), ok (terminé), undo "
            "(annuler). Cartes françaises F1, F2..., allemandes A1, A2...",
            text=text,
        )

    # ---- texts -----------------------------------------------------------------
    def _why_illegal(self, state: State, seat: int, action: Action) -> tuple[str, str]:
        """Why an action is refused: (English, French)."""
        phase = state.phase
        army = state.armies[seat]
        m = army.letter  # examples in the player's own handles
        types = _types(state.rules)
        card: Card | None = None
        if isinstance(action, Move | Fire | Loss | Play):
            i = _index_of(army, action.card)
            if i < 0:
                return (
                    f"{action.card} is not one of your cards (yours are {army.letter}1 to "
                    f"{army.letter}{len(army.cards)}).",
                    f"{action.card} n'est pas une de vos cartes (les vôtres vont de "
                    f"{army.letter}1 à {army.letter}{len(army.cards)}).",
                )
            card = army.cards[i]
        name = type_name(card.type) if card is not None else ""
        if phase == "deploy":
            if isinstance(action, Undo):
                return ("You have nothing to take back.", "Vous n'avez rien à reprendre.")
            if not isinstance(action, Move) or card is None:
                return (
                    f"Deployment: place a card ({m}7>C), take back the last one (undo), or ok.",
                    f"Déploiement : placez une carte ({m}7>C), reprenez la dernière (undo), ou ok.",
                )
            t = types[card.type]
            if card.loc != RESERVE:
                where = "already deployed" if card.loc >= 0 else "in your reinforcement pile"
                where_fr = "déjà déployée" if card.loc >= 0 else "dans votre pioche de renforts"
                return (f"{name} ({card.uid}) is {where}.", f"{name} ({card.uid}) est {where_fr}.")
            if action.to not in WINGS:
                return (
                    "Deploy in your own positions: G, C or D.",
                    "Déployez dans vos propres positions : G, C ou D.",
                )
            if t.kind == "special":
                return (
                    f"{name} is a special card: it stays in the reserve until played.",
                    f"{name} est une carte spéciale : elle reste en réserve jusqu'à être jouée.",
                )
            return self._place_refusal(state, seat, absolute_of(seat, action.to), t)
        if phase == "allocate":
            alloc = state.alloc
            assert alloc is not None
            if isinstance(action, Loss) and seat == alloc.taker:
                names = ", ".join(army.cards[j].uid for j in self._loss_candidates(state))
                return (
                    f"Spread the losses: every unit there has a token before any has a second "
                    f"(now: {names}).",
                    f"Répartissez les pertes : chaque unité de la position a un jeton avant "
                    f"qu'une en reçoive un second (maintenant : {names}).",
                )
            return ("Place the losses first (-F3).", "Placez d'abord les pertes (-F3).")
        if phase == "rally" and state.rules.ralliement_timing == "failure":
            failed = state.last_tests[-1].card if state.last_tests else ""
            play = next((a for a in self._rally_actions(state) if isinstance(a, Play)), None)
            special = play.card if play is not None else f"{m}21"
            return (
                f"{failed} has just failed its cohesion test: play Ralliement on it "
                f"({special}!{failed}), or let it rout (ok).",
                f"{failed} vient d'échouer à son test de cohésion : jouez Ralliement sur elle "
                f"({special}!{failed}), ou laissez-la dérouter (ok).",
            )
        if phase == "rally":
            return (
                f"Cohesion phase: play Ralliement on a unit that took losses ({m}21!{m}7), or roll "
                "the tests (ok).",
                f"Phase de cohésion : jouez Ralliement sur une unité touchée ({m}21!{m}7), ou lancez "
                "les tests (ok).",
            )
        if phase == "combat":
            if isinstance(action, Fire) and card is not None:
                return self._fire_refusal(state, seat, card, action)
            return (
                f"Combat phase: fire with a unit ({m}7@EC), or end the combats (ok).",
                f"Phase de combat : faites tirer une unité ({m}7@EC), ou terminez les combats (ok).",
            )
        if phase == "movement":
            if isinstance(action, Done):
                b = board(state)
                over = [
                    _abs_code(state, p)
                    for p in range(6)
                    if _count(b, seat, p) > _cap(state, b, seat, p)
                ]
                return (
                    f"Over the grouping limit in {', '.join(over)}: move cards out before ending "
                    "the movement phase.",
                    f"Limite de regroupement dépassée en {', '.join(over)} : sortez des cartes "
                    "avant de terminer les mouvements.",
                )
            if isinstance(action, Move) and card is not None:
                return self._move_refusal(state, seat, card, action)
            if isinstance(action, Play) and card is not None:
                return (
                    f"{name} ({card.uid}) cannot be played on {action.target} now.",
                    f"{name} ({card.uid}) ne peut pas être joué sur {action.target} maintenant.",
                )
            return (
                f"Movement phase: move a card ({m}7>EC), play a card ({m}21!{m}7), or end (ok).",
                f"Phase de mouvement : déplacez une carte ({m}7>EC), jouez une carte ({m}21!{m}7), "
                "ou terminez (ok).",
            )
        return ("That is not possible now.", "Impossible maintenant.")

    def _place_refusal(self, state: State, seat: int, p: int, t: TypeDef) -> tuple[str, str]:
        b = board(state)
        code = _abs_code(state, p)
        if t.kind == "general" and b.general[seat][p] >= 0:
            return (
                f"There is already one of your generals in {code}: one per position.",
                f"Vous avez déjà un général en {code} : un par position.",
            )
        if t.kind == "terrain":
            if b.present(1 - seat, p):
                return (
                    f"{code} is engaged: terrain goes only into a position that is not.",
                    f"{code} est engagée : un terrain ne se pose que dans une position non "
                    "engagée.",
                )
            if t.id in b.terrain[p]:
                return (
                    f"There is already a {t.name} in {code}: two *different* terrain cards at most.",
                    f"Il y a déjà un {t.name} en {code} : deux terrains *différents* au plus.",
                )
            if len(b.terrain[p]) >= 2:
                return (
                    f"{code} already has two terrain cards.",
                    f"{code} a déjà deux cartes de terrain.",
                )
        return (
            f"{code} is full: {_cap(state, b, seat, p)} cards (units and terrain) at most there.",
            f"{code} est pleine : {_cap(state, b, seat, p)} cartes (unités et terrains) au plus.",
        )

    def _fire_refusal(self, state: State, seat: int, card: Card, action: Fire) -> tuple[str, str]:
        name = f"{type_name(card.type)} ({card.uid})"
        t = _types(state.rules)[card.type]
        if t.kind != "unit" or card.loc < 0:
            return (
                f"{name} is not a unit on the battlefield.",
                f"{name} n'est pas une unité sur le champ de bataille.",
            )
        if card.fought:
            return (f"{name} has already fired this turn.", f"{name} a déjà tiré ce tour-ci.")
        if action.at in ("G", "C", "D", "EG", "EC", "ED"):
            p = absolute_of(seat, action.at)
            if p in state.closed:
                return (
                    f"The combats in {_abs_code(state, p)} are over: all combats in a position "
                    "are resolved before moving on to another.",
                    f"Les combats en {_abs_code(state, p)} sont terminés : tous les combats d'une "
                    "position sont résolus avant de passer à une autre.",
                )
        return (
            f"{name} cannot fire at {action.at}: melee needs enemy units in its own position, "
            "long range artillery facing visible enemies with neither position engaged"
            + (", a flank attack enemies beside it" if state.rules.flank_attack else "")
            + ".",
            f"{name} ne peut pas tirer sur {action.at} : le corps à corps exige des ennemis dans "
            "sa position, le tir à longue portée une artillerie face à des ennemis visibles, "
            "aucune des deux positions n'étant engagée"
            + (", l'attaque de flanc des ennemis à côté" if state.rules.flank_attack else "")
            + ".",
        )

    def _move_refusal(self, state: State, seat: int, card: Card, action: Move) -> tuple[str, str]:
        types = _types(state.rules)
        t = types[card.type]
        name = f"{t.name} ({card.uid})"
        i = card_index(card.uid)
        if t.kind == "special":
            return (
                f"{name} is played on a unit ({card.uid}!{card.uid[0]}7), not moved.",
                f"{name} se joue sur une unité ({card.uid}!{card.uid[0]}7), elle ne se déplace pas.",
            )
        if card.loc in (GONE, USED):
            return (f"{name} is out of the game.", f"{name} est hors jeu.")
        if card.loc == PILE:
            return (
                f"{name} is still in your reinforcement pile.",
                f"{name} est encore dans votre pioche de renforts.",
            )
        if t.kind == "terrain" and card.loc >= 0:
            return (
                f"{name} is terrain: it stays where it was placed.",
                f"{name} est un terrain : il reste où il a été posé.",
            )
        if card.fought and not _light(state.rules, t):
            return (
                f"{name} fought this turn: it cannot also move.",
                f"{name} a combattu ce tour-ci : elle ne peut pas aussi se déplacer.",
            )
        if card.moves >= _allowance(state.rules, t, card.forced):
            return (f"{name} has no move left this turn.", f"{name} n'a plus de mouvement ce tour.")
        if card.moves and state.mover != i:
            return (
                f"{name}'s moves are over: a card's moves are consecutive, and another card "
                "has moved since.",
                f"Les mouvements {de(name, mute_h=False)} sont terminés : ils sont consécutifs, et une autre "
                "carte a bougé depuis.",
            )
        b = board(state)
        dests = self._destinations(state, b, seat, card, t)
        dest = absolute_of(seat, action.to)
        if dest not in dests:
            allowed = ", ".join(relative_code(seat, d) for d in dests) or "—"
            extra_en = extra_fr = ""
            if card.loc >= 0 and card.loc // 3 == seat and dest == opposite(card.loc):
                extra_en = " Its position is engaged: no advance into the enemy line from there."
                extra_fr = " Sa position est engagée : pas d'avance vers la ligne ennemie."
            return (
                f"{name} cannot go to {action.to} (no lateral, diagonal or enemy-reserve moves); "
                f"it may go to: {allowed}.{extra_en}",
                f"{name} ne peut pas aller en {action.to} (pas de mouvement latéral, en "
                f"diagonale ou vers la réserve ennemie) ; destinations : {allowed}.{extra_fr}",
            )
        if t.kind == "general" and dest >= 0 and b.general[seat][dest] >= 0:
            return self._place_refusal(state, seat, dest, t)
        if t.kind == "terrain":
            return self._place_refusal(state, seat, dest, t)
        code = _abs_code(state, dest) if dest >= 0 else "R"
        return (
            f"Moving {name} to {code} would break the grouping limit for good: the limit is "
            "ignored while cards move, but the moves left could no longer bring every "
            "position back within it.",
            f"Déplacer {name} en {code} briserait la limite de regroupement pour de bon : elle "
            "est ignorée pendant les mouvements, mais les mouvements restants ne pourraient "
            "plus ramener chaque position dans la limite.",
        )

    def describe_action(self, state: State, seat: Seat, action: Action, locale: str = "en") -> str:
        fr = locale.lower().startswith("fr")
        army = state.armies[seat]

        def card_label(uid: str, side: int = seat) -> str:
            i = _index_of(state.armies[side], uid)
            if i < 0:
                return uid
            return f"{type_name(state.armies[side].cards[i].type)} ({uid})"

        if isinstance(action, Move):
            where = _relative_name(action.to, fr)
            i = _index_of(army, action.card)
            kind = _types(state.rules)[army.cards[i].type].kind if i >= 0 else "unit"
            if state.phase == "deploy":
                verb = "Déployer" if fr else "Deploy"
                return f"{verb} {card_label(action.card)} → {where}"
            if kind == "terrain":
                return f"{'Poser' if fr else 'Place'} {card_label(action.card)} → {where}"
            return f"{card_label(action.card)} → {where}"
        if isinstance(action, Fire):
            if action.at in ("G", "C", "D", "EG", "EC", "ED"):
                return f"{'Tir' if fr else 'Fire'}{colon(fr)} {card_label(action.card)} → {_relative_name(action.at, fr)}"
            label = "Contre-batterie" if fr else "Counter-battery"
            return (
                f"{label}{colon(fr)} {card_label(action.card)} → {card_label(action.at, 1 - seat)}"
            )
        if isinstance(action, Loss):
            return f"{'Perte sur' if fr else 'Loss on'} {card_label(action.card)}"
        if isinstance(action, Play):
            return f"{card_label(action.card)} → {card_label(action.target)}"
        if isinstance(action, Undo):
            return "Reprendre la dernière carte" if fr else "Take back the last card"
        labels = {
            "deploy": ("Terminer le déploiement", "Finish deployment"),
            "rally": ("Lancer les tests de cohésion", "Roll the cohesion tests"),
            "combat": ("Fin des combats", "End the combats"),
            "movement": ("Fin des mouvements", "End the movement"),
        }
        if state.phase == "rally" and state.rules.ralliement_timing == "failure":
            return "Laisser l'unité dérouter" if fr else "Let the unit rout"
        fr_text, en_text = labels.get(state.phase, ("Terminé", "Done"))
        return fr_text if fr else en_text

    def decision_text(
        self, decision: Decision, locale: str = "en", names: Sequence[str] = ()
    ) -> str:
        fr = locale.lower().startswith("fr")
        kind = decision.kind
        m = str(decision.param("letter") or "F")  # the player's own handles in examples
        e = str(decision.param("enemy") or ("A" if m == "F" else "F"))
        if kind == "deploy":
            return (
                f"Déployez vos cartes faces cachées dans vos trois positions ({m}7>C), une à la "
                "fois, puis ok. L'adversaire déploie en même temps, en secret."
                if fr
                else f"Deploy your cards face down in your three positions ({m}7>C), one at a "
                "time, then ok. Your opponent deploys at the same time, in secret."
            )
        if kind == "rout":
            failed = str(decision.param("card") or f"{m}7")
            special = str(decision.param("special") or f"{m}21")
            return (
                f"{failed} vient d'échouer à son test de cohésion : jouez Ralliement sur elle "
                f"({special}!{failed}), elle réussit alors tous ses tests, ou laissez-la "
                "dérouter (ok)."
                if fr
                else f"{failed} has just failed its cohesion test: play Ralliement on it "
                f"({special}!{failed}) and it passes all its tests, or let it rout (ok)."
            )
        if kind == "rally":
            return (
                f"Cohésion : jouez Ralliement sur une unité touchée ({m}21!{m}7), ou lancez les tests (ok)."
                if fr
                else f"Cohesion: play Ralliement on a unit that took losses ({m}21!{m}7), or roll "
                "the tests (ok)."
            )
        if kind == "combat":
            return (
                f"Combats : faites tirer une unité ({m}7@EC, contre-batterie {m}7@{e}3), ou terminez (ok)."
                if fr
                else f"Combat: fire with a unit ({m}7@EC, counter-battery {m}7@{e}3), or end (ok)."
            )
        if kind == "allocate":
            hits = decision.param("hits")
            where = _at(str(decision.param("position") or ""), fr)
            return (
                f"Vous subissez {hits} perte(s) {where} : choisissez l'unité qui prend le "
                f"prochain jeton (-{m}3), chacune en ayant un avant qu'une en reçoive un second."
                if fr
                else f"You take {hits} loss(es) {where}: choose the unit that takes "
                f"the next token (-{m}3); each has one before any has a second."
            )
        return (
            f"Mouvements : déplacez des cartes ({m}7>EC), jouez une carte ({m}21!{m}7), ou terminez (ok)."
            if fr
            else f"Movement: move cards ({m}7>EC), play a card ({m}21!{m}7), or end (ok)."
        )

    def describe_event(self, event: Event, names: Sequence[str], locale: str = "en") -> str | None:
        return _describe(event, names, locale.lower().startswith("fr"))

    def summary(self, view: View, names: Sequence[str], locale: str = "en") -> str:
        fr = locale.lower().startswith("fr")

        def who(seat: int) -> str:
            return names[seat] if 0 <= seat < len(names) else f"#{seat + 1}"

        def cards(units: Sequence[CardView]) -> str:
            parts = []
            for c in units:
                label = f"{c.uid} {c.short} VC{c.vc}"
                if not c.face_up:
                    label += " (" + ("cachée" if fr else "hidden") + ")"
                if c.tokens:
                    label += f" [{c.tokens}]"
                parts.append(label)
            return ", ".join(parts)

        lines = []
        turn = "Tour" if fr else "Turn"
        phase = _PHASE.get(view.phase, ("", ""))[0 if fr else 1]
        limit = f"/{2 * view.turn_limit}" if view.turn_limit else ""
        lines.append(f"{turn} {view.turn}{limit} — {phase}")
        for pos in view.positions:
            name = pos.name_fr if fr else pos.name_en
            head = f"{pos.code} ({name})"
            if pos.terrain:
                head += " — " + ", ".join(t.name for t in pos.terrain)
            if pos.conquered:
                head += " — " + ("conquise" if fr else "conquered")
            lines.append(head)
            for side in pos.sides:
                bits = []
                if side.general is not None:
                    g = side.general
                    bits.append(
                        f"{g.name} A{g.attack}/D{g.defence}"
                        + (f" [{g.tokens}]" if g.tokens else "")
                    )
                if side.units:
                    bits.append(cards(side.units))
                if side.hidden:
                    bits.append(f"{side.hidden} " + ("cachée(s)" if fr else "hidden"))
                if bits:
                    lines.append(f"   {who(side.seat)}{colon(fr)} " + semicolon(fr).join(bits))
        for p in view.players:
            reserve = "réserve" if fr else "reserve"
            pile = "pioche" if fr else "pile"
            lines.append(
                f"{who(p.seat)} ({p.side_name_fr if fr else p.side_name_en}){colon(fr)} "
                f"{p.reserve_count} {reserve}, {p.pile_count} {pile}"
            )
            if p.reserve is not None:
                lines.append("   " + ", ".join(f"{c.uid} {c.short}" for c in p.reserve))
        if view.last_combat is not None:
            c = view.last_combat
            lines.append(
                f"{c.card} {(_MODE_FR if fr else _MODE_EN).get(c.mode, '')}{colon(fr)} "
                f"{' '.join(str(d) for d in c.dice)} ≤ {c.threshold} → {c.hits}"
            )
        return "\n".join(lines)


# ---------------------------------------------------------------------------
# Helpers (module level: pure functions)
# ---------------------------------------------------------------------------

_KIND_ORDER = {"unit": 0, "general": 1, "terrain": 2, "special": 3}
_DONE_WORDS = {
    "ok",
    "fin",
    "done",
    "end",
    "pass",
    "passe",
    "roll",
    "lancer",
    "go",
    "valider",
    "termine",
}
_UNDO_WORDS = {"undo", "annuler", "reprendre", "u"}
_UID_PART = r"([FA])0*([1-9][0-9]?)"
_UID_RE = re.compile(rf"^{_UID_PART}$")
_MOVE_RE = re.compile(rf"^{_UID_PART}>([A-ZÉ_-]+)$")
_MOVE_FAST = re.compile(rf"^{_UID_PART}>(R|E?[GCD])$")
_FIRE_RE = re.compile(rf"^{_UID_PART}@([A-ZÉ0-9_-]+)$")
_LOSS_RE = re.compile(rf"^-{_UID_PART}$")
_PLAY_RE = re.compile(rf"^{_UID_PART}!{_UID_PART}$")
_WING_WORDS = {
    "G": "G",
    "L": "G",
    "GAUCHE": "G",
    "LEFT": "G",
    "C": "C",
    "CENTRE": "C",
    "CENTER": "C",
    "D": "D",
    "DROITE": "D",
    "RIGHT": "D",
}


def _uid(letter: str, number: str) -> str:
    return f"{letter}{int(number)}"


def _position_code(text: str) -> str | None:
    t = text.replace("-", "").replace("_", "")
    if t in ("R", "RES", "RESERVE", "RÉSERVE"):
        return "R"
    if t in _WING_WORDS:
        return _WING_WORDS[t]
    for prefix in ("ENNEMI", "ENEMY", "E", "X"):
        if t.startswith(prefix) and t[len(prefix) :] in _WING_WORDS:
            return "E" + _WING_WORDS[t[len(prefix) :]]
    if t in ("ER", "XR", "ENEMYR"):  # English: enemy right (never the enemy reserve)
        return "ED"
    return None


def _index_of(army: Army, uid: str) -> int:
    """The index of a card handle in an army (-1: not one of its cards)."""
    if len(uid) < 2 or uid[0] != army.letter or not uid[1:].isdigit():
        return -1
    i = int(uid[1:]) - 1
    return i if 0 <= i < len(army.cards) and army.cards[i].uid == uid else -1


def _relative_name(code: str, fr: bool) -> str:
    if code == "R":
        return "réserve" if fr else "reserve"
    wing = WINGS.index(code[-1])
    if code.startswith("E"):
        return (
            f"{_WING_FR[wing]} {'ennemie' if wing != 1 else 'ennemi'}"
            if fr
            else f"enemy {_WING_EN[wing]}"
        )
    return f"{'votre' if fr else 'your'} {_WING_FR[wing] if fr else _WING_EN[wing]}"


def _test_data(state: State, test: Test) -> dict[str, Any]:
    return {
        "seat": test.seat,
        "card": test.card,
        "type": test.type,
        "position": _abs_code(state, test.position),
        "target": test.target,
        "modifiers": [list(m) for m in test.modifiers],
        "dice": list(test.dice),
        "passed": test.passed,
    }


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


def _name_of(data: Mapping[str, Any], key: str = "type") -> str:
    value = data.get(key)
    return type_name(str(value)) if value else "?"


_MOD_FR = {
    "save": "sauvegarde",
    "bourg": "Bourg",
    "retranchements": "Retranchements",
    "general": "général",
    "bois": "Bois",
    "hauteur": "Hauteur",
}
_MOD_EN = {
    "save": "save",
    "bourg": "Bourg",
    "retranchements": "Retranchements",
    "general": "general",
    "bois": "Bois",
    "hauteur": "Hauteur",
}


def _mods_text(mods: object, fr: bool) -> str:
    if not isinstance(mods, list) or not mods:
        return ""
    table = _MOD_FR if fr else _MOD_EN
    return ", ".join(f"{table.get(str(m[0]), str(m[0]))} {int(m[1]):+d}" for m in mods)


_PHASE = {
    "deploy": ("déploiement", "deployment"),
    "movement": ("mouvements", "movement"),
    "combat": ("combats", "combat"),
    "rally": ("cohésion", "cohesion"),
    "over": ("partie terminée", "game over"),
}
_MODE_FR = {
    "melee": "corps à corps",
    "long-range": "tir à longue portée",
    "counter-battery": "contre-batterie",
    "flank-attack": "attaque de flanc",
}
_MODE_EN = {
    "melee": "melee",
    "long-range": "long-range fire",
    "counter-battery": "counter-battery",
    "flank-attack": "flank attack",
}
_REASON = {
    "occupation": (
        "occupe deux positions ennemies abandonnées",
        "occupies two abandoned enemy positions",
    ),
    "flank": (
        "peut prendre de flanc une position vacante (règle 18)",
        "can attack a vacant position from the flank (rule 18)",
    ),
    "annihilation": ("l'adversaire n'a plus d'unité", "the enemy has no unit left"),
    "resign": ("l'adversaire abandonne", "the opponent resigns"),
    "turn-limit": ("limite de tours atteinte", "turn limit reached"),
}


def _describe(event: Event, names: Sequence[str], fr: bool) -> str | None:
    d = event.data
    kind = event.kind

    def who(key: str = "seat") -> str:
        seat = d.get(key)
        if not isinstance(seat, int) or not 0 <= seat < len(names):
            return "?"
        return names[seat]

    def where(key: str = "position") -> str:
        return _at(str(d.get(key, "")), fr)

    def card(uid_key: str = "card", type_key: str = "type") -> str:
        return f"{_name_of(d, type_key)} ({d.get(uid_key)})"

    if kind == "army":
        army = army_entries(str(d.get("list", "")), str(d.get("side", "french")))
        side = _SIDE_NAME.get(str(d.get("side")), ("?", "?"))[0 if fr else 1]
        cards = "cartes" if fr else "cards"
        return (
            f"{who()} ({side}, {d.get('points')} pts, {d.get('cards')} {cards}){colon(fr)} "
            f"{describe_army(army)}"
        )
    if kind == "deal":
        if "cards" in d:
            shown = ", ".join(f"{type_name(t)} ({u})" for u, t in d["cards"])
            return f"Votre réserve : {shown}." if fr else f"Your reserve: {shown}."
        return (
            f"{who()} reçoit {d.get('count')} cartes ({d.get('pile')} en pioche)."
            if fr
            else f"{who()} is dealt {d.get('count')} cards ({d.get('pile')} in the pile)."
        )
    if kind == "deploy":
        return f"{'Vous déployez' if fr else 'You deploy'} {card()} {where()}."
    if kind == "undo":
        return f"{'Vous reprenez' if fr else 'You take back'} {card()}."
    if kind == "ready":
        return f"{who()} {'a terminé son déploiement' if fr else 'has deployed'}."
    if kind == "deployed":
        parts = []
        for pos in d.get("positions", []):
            bits = []
            if pos.get("general"):
                bits.append(type_name(pos["general"][1]))
            bits += [type_name(t) for _, t in pos.get("terrain", [])]
            hidden = pos.get("hidden", 0)
            if hidden:
                bits.append(f"{hidden} {'cachée(s)' if fr else 'hidden'}")
            parts.append(f"{pos.get('position')}{colon(fr)} " + (", ".join(bits) or "—"))
        head = "déploiement" if fr else "deployment"
        return (
            f"{who()} — {head} : " + " ; ".join(parts)
            if fr
            else f"{who()} — {head}: " + "; ".join(parts)
        )
    if kind.startswith("terrain:"):
        tid = kind.split(":", 1)[1]
        return (
            f"{who()} : {type_name(tid)} {where()}."
            if fr
            else f"{who()}: {type_name(tid)} {where()}."
        )
    if kind == "general":
        return f"{who()} : {card()} {where()}." if fr else f"{who()}: {card()} {where()}."
    if kind == "first-player":
        terrain = d.get("terrain", [0, 0])
        rolls = d.get("rolls") or []
        if rolls:
            dice = semicolon(fr).join(f"{a}–{b}" for a, b in rolls)
            why = f"tirage au sort aux dés ({dice})" if fr else f"drawn by dice ({dice})"
        else:
            why = (
                f"moins de terrains déployés ({terrain[0]} contre {terrain[1]})"
                if fr
                else f"fewer terrain cards deployed ({terrain[0]} to {terrain[1]})"
            )
        return f"{who()} {'joue en premier' if fr else 'plays first'}{colon(fr)} {why}."
    if kind == "turn":
        return f"— {'Tour' if fr else 'Turn'} {d.get('turn')}{colon(fr)} {who()} —"
    if kind in ("cohesion", "disorganisation"):
        dice = " ".join(str(x) for x in d.get("dice", []))
        mods = _mods_text(d.get("modifiers"), fr)
        extra = f" ({mods})" if mods else ""
        ok = d.get("passed")
        if kind == "cohesion":
            label = "Cohésion" if fr else "Cohesion"
            result = ("tient" if fr else "holds") if ok else ("déroute !" if fr else "routs!")
            if not ok and d.get("may_rally"):  # option ralliement_timing=failure
                result = "échoue (Ralliement possible)" if fr else "fails (Ralliement possible)"
        else:
            label = "Désorganisation" if fr else "Disorganisation"
            result = (
                ("reste" if fr else "stays")
                if ok
                else ("retourne en réserve" if fr else "back to the reserve")
            )
        return (
            f"{label} {card()} {where()} : dés {dice} contre {d.get('target')}{extra} → {result}"
            if fr
            else f"{label} {card()} {where()}: dice {dice} against {d.get('target')}{extra} → {result}"
        )
    if kind == "general-test":
        dice = " ".join(str(x) for x in d.get("dice", []))
        result = (
            ("survit" if fr else "survives")
            if d.get("passed")
            else ("est tué (6) !" if fr else "is killed (6)!")
        )
        return f"{'Général' if fr else 'General'} {card()}{colon(fr)} {'dés' if fr else 'dice'} {dice} → {result}"
    if kind in _MODE_FR:
        mode = _MODE_FR[kind] if fr else _MODE_EN[kind]
        dice = " ".join(str(x) for x in d.get("dice", [])) or "—"
        mods = _mods_text(d.get("modifiers"), fr)
        status = d.get("status")
        status_text = ""
        if status:
            status_text = (
                (" en attaque" if status == "attack" else " en défense")
                if fr
                else (" attacking" if status == "attack" else " defending")
            )
        target = ""
        if d.get("target"):
            target = f" → {card('target', 'target_type')}"
        dice_line = (
            f"{d.get('dice_count')} dé(s) (VC {d.get('vc')}{', ' + mods if mods else ''}) : {dice}"
            if fr
            else f"{d.get('dice_count')} dice (VC {d.get('vc')}{', ' + mods if mods else ''}): {dice}"
        )
        hits = d.get("hits")
        text = (
            f"{who()} — {card()} {mode}{status_text} sur {_the(str(d.get('at')), True)}{target} : "
            f"{dice_line}, touche sur {d.get('threshold')} ou moins → {hits} perte(s)"
            if fr
            else f"{who()} — {card()} {mode}{status_text} at {_the(str(d.get('at')), False)}{target}: "
            f"{dice_line}, hitting on {d.get('threshold')} or less → {hits} loss(es)"
        )
        if d.get("general"):
            text += (
                f" ; {d.get('sixes')} six → jeton(s) sur {card('general', 'general_type')}"
                if fr
                else f"; {d.get('sixes')} six(es) → token(s) on {card('general', 'general_type')}"
            )
        return text + "."
    if kind == "loss":
        return (
            f"Perte sur {card()} ({d.get('tokens')} jeton(s))."
            if fr
            else f"Loss on {card()} ({d.get('tokens')} token(s))."
        )
    if kind == "eliminated":
        causes_fr = {
            "losses": "plus de pertes que sa VC",
            "rout": "déroute",
            "general-test": "6 au test du général",
            "alone": "général seul engagé",
        }
        causes_en = {
            "losses": "more losses than its VC",
            "rout": "routed",
            "general-test": "a 6 on the general's test",
            "alone": "a general engaged alone",
        }
        cause = str(d.get("cause"))
        why = (causes_fr if fr else causes_en).get(cause, cause)
        return f"Élimination : {card()} ({why})." if fr else f"{card()} is eliminated ({why})."
    if kind.startswith("reveal:"):
        return (
            f"{who()} révèle {card()} {where()}." if fr else f"{who()} reveals {card()} {where()}."
        )
    if kind == "to-reserve":
        return (
            f"{card()} retourne en réserve (désorganisation)."
            if fr
            else f"{card()} goes back to the reserve (disorganisation)."
        )
    if kind in ("conquered", "recovered"):
        the = _the(str(d.get("position", "")), fr)
        if kind == "conquered":
            return f"{who()} conquiert {the}." if fr else f"{who()} conquers {the}."
        return f"{who()} reprend {the}." if fr else f"{who()} retakes {the}."
    if kind == "move":
        src = _code_name(str(d.get("from")), fr)
        dst = _code_name(str(d.get("to")), fr)
        engaged = d.get("engaged")
        tail = (" — engagement !" if fr else " — engaged!") if engaged else ""
        if "card" in d:
            return f"{who()}{colon(fr)} {card()} {src} → {dst}{tail}"
        hidden = "une carte cachée" if fr else "a hidden card"
        return f"{who()}{colon(fr)} {hidden} {src} → {dst}{tail}"
    if kind.startswith("special:"):
        special = type_name(kind.split(":", 1)[1])
        if "target" in d:
            return f"{who()} {'joue' if fr else 'plays'} {special} ({d.get('card')}) → {card('target')}."
        hidden = "une carte cachée" if fr else "a hidden card"
        return (
            f"{who()} {'joue' if fr else 'plays'} {special} ({d.get('card')}) → {hidden} {where()}."
        )
    if kind == "reinforcement":
        if "card" in d:
            return f"{'Renfort' if fr else 'Reinforcement'}{colon(fr)} {card()}."
        return f"{who()} {'pioche un renfort' if fr else 'draws a reinforcement'}."
    if kind == "no-reinforcement":
        return f"{who()}{colon(fr)} {'pioche vide' if fr else 'the pile is empty'}."
    if kind == "resign":
        return f"{who()} {'abandonne' if fr else 'resigns'}."
    if kind == "game-over":
        reason = str(d.get("reason"))
        text = _REASON.get(reason, (reason, reason))[0 if fr else 1]
        if d.get("winner") is None:
            return f"{'Match nul' if fr else 'Draw'}{colon(fr)} {text}."
        return f"{who('winner')} {'l’emporte' if fr else 'wins'}{colon(fr)} {text}."
    return None


GAME = BellePosition()
