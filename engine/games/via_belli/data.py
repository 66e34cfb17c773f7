"""Card data and table presets: the schema of ``engine/data/via-belli.json``
(validated with pydantic) and its loading."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import cache
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from ...data import load_json
from .geometry import _CELL_RE

GAME_ID = "via-belli"


Ability = Literal["dog", "lancer", "archer", "sorcerer", "spy", "bard", "squire", "medic"]


RESERVED_WORDS = frozenset(
    {
        "d",
        "e",
        "x",
        "p",
        "l",
        "v",
        "h",
        "pioche",
        "piocher",
        "draw",
        "fin",
        "end",
        "annuler",
        "cancel",
        "passer",
        "pass",
        "invoquer",
        "invocation",
        "summon",
        "embuscade",
        "ambush",
        "deplacer",
        "deplacement",
        "move",
        "rapatrier",
        "rapatriement",
        "recall",
        "attaque",
        "attaquer",
        "attack",
        "sorcellerie",
        "sorcery",
    }
)


class UnitSpec(BaseModel):
    """One kind of unit card of the deck (its effect text for players, when it
    has one: ``vb-render-effect-<key>`` in the catalogue, see ``render.via_belli.card_key``)."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)
    name: str = Field(min_length=2, max_length=40, description="French name, as printed")
    count: int = Field(ge=0, le=20, description="copies in each deck")
    ivk: int = Field(ge=0, le=20, description="summoning cost in action points")
    atk: int = Field(ge=0, le=20)
    defence: int = Field(ge=0, le=20, alias="def")
    ability: Ability | None = None
    aura_atk: int = Field(default=0, ge=0, le=10, description="ATK given to adjacent allies")
    aura_def: int = Field(default=0, ge=0, le=10, description="DEF given to adjacent allies")

    @field_validator("name")
    @classmethod
    def _name_is_not_notation(cls, value: str) -> str:
        if not re.fullmatch(r"[^\W\d_][^\W\d_ '’-]*(?:[ '’-][^\W\d_]+)*", value):
            raise ValueError(f"{value!r}: a card name is made of letters, spaces and dashes")
        key = name_key(value)
        if key in RESERVED_WORDS or _CELL_RE.match(key.upper()):
            raise ValueError(f"{value!r} cannot be a card name: it reads as notation")
        return value


class TerrainSpec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    castle: Literal[1]
    inns: int = Field(ge=0, le=4)
    outposts: int = Field(ge=0, le=4)


class DeckFile(BaseModel):
    """The Via Belli card data file (one deck per player, all decks alike)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    format: Literal[1]
    comment: str = Field(default="", alias="_comment")
    hand_start: int = Field(ge=0, le=10, description="cards in hand before the initiative card")
    terrain: TerrainSpec
    units: tuple[UnitSpec, ...]

    @model_validator(mode="after")
    def _consistent(self) -> DeckFile:
        keys = [name_key(u.name) for u in self.units]
        if len(set(keys)) != len(keys):
            raise ValueError("unit names must be unique (ignoring case and accents)")
        total = sum(u.count for u in self.units)
        if total < self.hand_start + 2:
            raise ValueError(f"a deck of {total} units is too small")
        for key in keys:
            others = [k for k in keys if k != key and k.startswith(key)]
            if others:
                raise ValueError(f"a card name must not begin another one: {key!r}, {others}")
        return self


@cache
def deck_file() -> DeckFile:
    return DeckFile.model_validate(load_json("via-belli.json"))


def name_key(text: str) -> str:
    """A card name as it is matched: no accents, no case, no spaces or dashes."""
    decomposed = unicodedata.normalize("NFKD", text)
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return re.sub(r"[\s\-'’_]+", "", plain).lower()


TableName = Literal["gueridon", "table_basse", "standard", "salle_a_manger", "carre_4j"]


@dataclass(frozen=True, slots=True)
class Preset:
    """A table preset (its name for players: ``vb-table-<id>`` in the catalogue)."""

    cm: tuple[int, int]
    width: int
    height: int
    castle_gap: int
    terrain_gap: int
    terrain: int  # recommended inns (= outposts) for 2 players
    cups: int


PRESETS: dict[str, Preset] = {
    "gueridon": Preset((60, 60), 27, 27, 21, 12, 1, 0),
    "table_basse": Preset((100, 60), 45, 27, 37, 14, 1, 2),
    "standard": Preset((120, 80), 55, 36, 45, 14, 1, 0),
    "salle_a_manger": Preset((200, 100), 91, 45, 81, 14, 2, 4),
    "carre_4j": Preset((120, 120), 55, 55, 45, 14, 2, 0),
}
"""Presets of our rulings: size in cm and in cells, castle gap (centre to
centre, cells), gap of the two middle terrain cards, recommended inns and
outposts (each) for two players, and cups."""
