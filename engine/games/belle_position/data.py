"""Belle Position card data: the schemas of engine/data/belle-position-cards.json and
-armies.json, the card types as the rules read them, and army lists (parsing, checking)."""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from ...data import load_json
from ...errors import RulesError
from ...text import Msg

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
    aliases: tuple[str, ...] = ()


class SpecialSpec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    id: SpecialId
    name: str
    points: int = Field(ge=0)
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


_COUNT_AFTER = re.compile(r"^(.*?)\s*[x×*]\s*(\d{1,2})$", re.IGNORECASE)


_COUNT_BEFORE = re.compile(r"^(\d{1,2})\s*(?:[x×*]\s*|\s+)(.+)$", re.IGNORECASE)


PRESET_WORDS = {"preset", "prereglage", "defaut", "default", "standard"}


class ArmyError(RulesError):
    """An army list that breaks a rule. ``msg`` is the reason (a ``bp-army-*``
    catalogue key and its parameters); ``option``, when set, names the option
    it is about (``french`` or ``german``) for a check made on the whole options."""

    code = "bad-army"

    def __init__(self, msg: Msg, *, option: str | None = None) -> None:
        super().__init__(msg)
        self.option = option


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
        raise ArmyError(Msg.of("bp-army-ambiguous", token=token.strip(), names=names))
    if found:
        return found[0]
    other = [tid for tid in cat.aliases.get(key, ())]
    if other:
        name = cat.types[other[0]].name
        raise ArmyError(Msg.of(f"bp-army-enemy-card-{side}", card=name))
    return None


def _unknown(token: str, side: str) -> ArmyError:
    cat = catalog()
    names = [t.name for tid, t in cat.types.items() if cat.sides[tid] in (side, "both", "any")]
    close = difflib.get_close_matches(token.strip(), names, n=3, cutoff=0.5)
    if close:
        return ArmyError(
            Msg.of("bp-army-unknown-close", token=token.strip(), close=", ".join(close))
        )
    return ArmyError(Msg.of("bp-army-unknown", token=token.strip()))


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
            raise ArmyError(Msg.of("bp-army-count", card=name.strip()))
        counts[tid] = counts.get(tid, 0) + count
        i += 1
    if not counts:
        raise ArmyError(Msg.of("bp-army-empty"))
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
            raise ArmyError(Msg.of("bp-army-other-side", card=t.name))
        if tid in cat.unique and count > 1:
            raise ArmyError(Msg.of("bp-army-one-person", card=t.name))
        points += t.points * count
        cards += count
        if t.kind == "unit":
            units += count
    if units == 0:
        raise ArmyError(Msg.of("bp-army-no-unit"))
    if points > budget:
        raise ArmyError(Msg.of("bp-army-over-budget", points=points, budget=budget))
    if cards < deal:
        raise ArmyError(Msg.of("bp-army-too-few", cards=cards, deal=deal))
    if cards > max_cards:
        raise ArmyError(Msg.of("bp-army-too-many", cards=cards, max_cards=max_cards))
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
        raise ArmyError(
            Msg.of("bp-army-must-total", points=points, budget=budget, cheapest=cheapest)
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
