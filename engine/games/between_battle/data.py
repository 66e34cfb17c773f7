"""Between Battle's card data: the schema of ``engine/data/between-battle.json``
(validated by pydantic) and its loading, read once."""

from __future__ import annotations

from functools import cache
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from ...data import load_json

GAME_ID = "between-battle"

Kind = Literal["number", "special", "unique", "link", "joker"]
SpecialAbility = Literal["discard-random", "draw", "lock", "extra-turn"]
UniqueAbility = Literal["tutor", "steal-top", "cancel", "reveal"]
CharacterId = Literal["pirate", "chevalier", "cowboy", "ninja"]


class CardSpec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    value: int | None = Field(description="printed number; null for the joker (X)")
    kind: Kind

    @model_validator(mode="after")
    def _joker_has_no_value(self) -> CardSpec:
        if (self.kind == "joker") != (self.value is None):
            raise ValueError("the joker, and only the joker, has no value")
        if self.value is not None and not 0 <= self.value <= 99:
            raise ValueError("card values go from 0 to 99")
        return self


class CharacterSpec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    id: CharacterId
    code: str = Field(pattern=r"^[A-Z][a-z]$")
    colour: str = Field(pattern=r"^#[0-9a-fA-F]{6}$")
    hp: int = Field(ge=1, le=99)
    hp_asymmetric: int = Field(ge=1, le=99)
    special: SpecialAbility
    unique: UniqueAbility
    cards: tuple[CardSpec, ...]

    @model_validator(mode="after")
    def _labels_consistent(self) -> CharacterSpec:
        kinds: dict[str, str] = {}
        for card in self.cards:
            label = "X" if card.value is None else str(card.value)
            if kinds.setdefault(label, card.kind) != card.kind:
                raise ValueError(f"{self.id}: two cards labelled {label} of different kinds")
        if not self.cards:
            raise ValueError(f"{self.id}: a deck needs cards")
        return self


class DeckFile(BaseModel):
    """The Between Battle card data file."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    format: Literal[1]
    comment: str = Field(default="", alias="_comment")
    hand_size: int = Field(ge=1, le=10)
    characters: tuple[CharacterSpec, ...]

    @model_validator(mode="after")
    def _unique_characters(self) -> DeckFile:
        ids = [c.id for c in self.characters]
        codes = [c.code for c in self.characters]
        if len(set(ids)) != len(ids) or len(set(codes)) != len(codes):
            raise ValueError("character ids and codes must be unique")
        return self


@cache
def deck_file() -> DeckFile:
    return DeckFile.model_validate(load_json("between-battle.json"))
