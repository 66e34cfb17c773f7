"""Battalia's data: the schema of ``engine/data/battalia.json`` (factions,
terrains, card kinds with their French names, stack counts, terrain decks,
board layouts by seat count, the starting deck, the cost recipes of table 2.7
and the Oracle's cycles), validated by pydantic and read once.

Card codes (the notation): ``P`` Provisions; units ``<rank><faction>``
(``2i`` Chef insulaire; faction ``m`` for the mercenaries, *sans bannière*);
artefacts ``<type><faction>`` (``Au`` Arme ursidée); Great Artefacts ``G1``..
``G5``. Terrain cards are a layout (``D I L T X``) and a terrain.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from ...data import load_json

GAME_ID = "battalia"
DATA_FILE = "battalia.json"

Layout = Literal["D", "I", "L", "T", "X"]
LAYOUTS: tuple[str, ...] = ("D", "I", "L", "T", "X")
ROAD_LAYOUTS: tuple[str, ...] = ("I", "L", "T", "X")
ARTEFACTS: tuple[str, ...] = ("O", "A", "M", "T", "R", "E", "C")
"""Artefact types: outil, arme, amulette, titre, parchemin, tente, cheval."""
FACTIONS: tuple[str, ...] = ("u", "i", "a", "n")
MERCENARY = "m"
PROVISION = "P"
SLOT = re.compile(r"^(P|u[1-4]|[OAMTREC])$")
"""A recipe slot: a Provision, a unit of a rank (``u2``), an artefact type."""


class _Frozen(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class FactionSpec(_Frozen):
    code: Literal["u", "i", "a", "n"]
    name: str
    adjective: str
    adjective_f: str
    terrain: str
    colour: str
    source: Literal["S", "P"]


class MercenarySpec(_Frozen):
    code: Literal["m"]
    name: str
    adjective: str
    ranks: tuple[int, ...]


class TerrainSpec(_Frozen):
    code: str
    name: str


class RankSpec(_Frozen):
    rank: int = Field(ge=1, le=4)
    name: str
    per_faction: int = Field(ge=0, le=20)
    price: int = Field(ge=1, le=9, description="Provisions to buy one")


class ProvisionSpec(_Frozen):
    code: Literal["P"]
    name: str
    count: int = Field(ge=0, le=200)


class ArtefactSpec(_Frozen):
    code: Literal["O", "A", "M", "T", "R", "E", "C"]
    name: str
    per_faction: int = Field(ge=0, le=10)


class GreatArtefactSpec(_Frozen):
    """A Great Artefact acts as an artefact of type ``acts_as`` with a fixed,
    doubled effect [P]: ``strength`` in a line, ``steps`` as a horse,
    ``title`` ranks as a title, ``amulet_rolls`` dice as an amulet."""

    code: str
    name: str
    acts_as: Literal["A", "C", "T", "M"]
    strength: int = Field(ge=0, le=9)
    steps: int = 0
    title: int = 0
    amulet_rolls: int = 0
    source: Literal["S", "P"]
    effect: Literal["S", "P"]


class BoardSpec(_Frozen):
    """One seat count's board: the playable rectangle ``b2:f6``, the start
    squares (square, layout, rotation) in corner order, the neutral cities,
    the Ruins, and the faction removed from every deck ("" none)."""

    area: str
    starts: tuple[tuple[str, Layout, int], ...]
    neutral: tuple[tuple[str, Layout, int], ...]
    ruins: tuple[str, Layout, int]
    removed_faction: str


class StartingDeck(_Frozen):
    ranks: tuple[int, ...]
    provisions: int


class Oracle(_Frozen):
    illuminated: tuple[str, ...]
    matching: tuple[str, ...]


class DataFile(_Frozen):
    factions: tuple[FactionSpec, ...]
    mercenary: MercenarySpec
    terrains: tuple[TerrainSpec, ...]
    ranks: tuple[RankSpec, ...]
    provisions: ProvisionSpec
    artefacts: tuple[ArtefactSpec, ...]
    great_artefacts: tuple[GreatArtefactSpec, ...]
    layouts: dict[str, int]
    roads: dict[str, dict[str, int]]
    cities: dict[str, dict[str, int]]
    boards: dict[str, BoardSpec]
    starting_deck: StartingDeck
    costs: dict[str, dict[str, int]]
    horse_steps: int
    tool_frimen: int
    oracle: Oracle

    @model_validator(mode="after")
    def _check(self) -> DataFile:
        if tuple(f.code for f in self.factions) != FACTIONS:
            raise ValueError("factions must be u i a n")
        terrains = {t.code for t in self.terrains}
        if any(f.terrain not in terrains for f in self.factions):
            raise ValueError("a faction's terrain is unknown")
        if tuple(a.code for a in self.artefacts) != ARTEFACTS:
            raise ValueError("artefacts must be O A M T R E C")
        if set(self.layouts) != set(LAYOUTS):
            raise ValueError("layouts must be D I L T X")
        for deck in (self.roads, self.cities):
            for layout, spread in deck.items():
                if layout not in self.layouts or not set(spread) <= terrains:
                    raise ValueError(f"bad terrain deck {layout}")
        for name, recipe in self.costs.items():
            if not recipe or any(not SLOT.match(s) or n < 1 for s, n in recipe.items()):
                raise ValueError(f"bad recipe {name}")
        for seats in ("2", "3", "4"):
            if seats not in self.boards or len(self.boards[seats].starts) < int(seats):
                raise ValueError(f"no board for {seats} seats")
        cycle = set(ARTEFACTS)
        if set(self.oracle.illuminated) != cycle or set(self.oracle.matching) != cycle:
            raise ValueError("the Oracle's cycles must hold the 7 artefact types")
        return self


@cache
def data() -> DataFile:
    """The validated data file (read once)."""
    return DataFile.model_validate(load_json(DATA_FILE))


@cache
def great_by_code() -> dict[str, GreatArtefactSpec]:
    return {g.code: g for g in data().great_artefacts}


@cache
def faction_terrain() -> dict[str, str]:
    """Faction code → its homeland terrain."""
    return {f.code: f.terrain for f in data().factions}


def recipe(name: str) -> dict[str, int]:
    """A cost recipe of table 2.7 by name (``road-T``, ``city-2``, ``A`` ...)."""
    return data().costs[name]


def card_name(code: str) -> str:
    """The French name of a card code (``2i`` → « Chef insulaire »)."""
    d = data()
    if code == PROVISION:
        return d.provisions.name
    if code in great_by_code():
        return great_by_code()[code].name
    if len(code) == 2 and code[0].isdigit():
        rank = d.ranks[int(code[0]) - 1].name
        if code[1] == MERCENARY:
            return f"{rank} {d.mercenary.adjective}"
        return f"{rank} {_faction(code[1]).adjective}"
    if len(code) == 2 and code[0] in ARTEFACTS:
        art = next(a for a in d.artefacts if a.code == code[0])
        faction = _faction(code[1])
        feminine = code[0] in ("A", "M", "E")
        return f"{art.name} {faction.adjective_f if feminine else faction.adjective}"
    raise KeyError(code)


def _faction(code: str) -> FactionSpec:
    return next(f for f in data().factions if f.code == code)


def board(seats: int) -> BoardSpec:
    return data().boards[str(seats)]


@cache
def exits_of(layout: str, rotation: int) -> int:
    """The exit mask (N=1 E=2 S=4 W=8) of a layout turned ``rotation``
    quarter turns clockwise."""
    mask = data().layouts[layout]
    for _ in range(rotation % 4):
        mask = ((mask << 1) | (mask >> 3)) & 15
    return mask
