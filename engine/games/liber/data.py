"""Chroniques de Liber's card data: the schema of ``engine/data/liber-cards.json``
(the card pool and the ready-made decks, validated by pydantic) and its
loading, read once.

Every card has a stable ``id`` (an ASCII slug, ``epee-runique``) used by the
notation and the saved states, and a French ``name`` that players see in
every language. Rules texts are data too, in French and English
(``text["fr"]``, ``text["en"]``).
"""

from __future__ import annotations

from functools import cache
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from ...data import load_json

GAME_ID = "liber"
DATA_FILE = "liber-cards.json"

Keyword = Literal[
    "armure",
    "artillerie",
    "coup-fatal",
    "defausse",
    "deplacement",
    "double-attaque",
    "encouragement",
    "empoisonnement",
    "entraver",
    "fanatique",
    "furtivite",
    "invocateur",
    "honneur",
    "impatient",
    "initiative",
    "loyaute",
    "paralysie",
    "producteur",
    "ravage",
    "regroupement",
    "soin",
    "telekinesie",
    "tir",
    "vol",
]
"""The seed's 24 keywords (``honneur`` is Honneur du guerrier)."""

KEYWORDS: tuple[Keyword, ...] = Keyword.__args__  # type: ignore[attr-defined]

CardType = Literal["unite", "objet", "sort", "lieu", "dieu", "token", "faveur", "general"]
SpellKind = Literal["rituel", "enchantement", "ephemere"]

EffectKind = Literal[
    "damage",  # `amount` damage to the target (a unit, or a general if target allows)
    "heal",  # remove `amount` damage from the target; also cures poison and paralysis
    "force",  # the target gets +`amount` force (objects: while equipped; spells/generals: this turn)
    "pv",  # the target gets +`amount` PV (objects: while equipped)
    "units-force",  # your units (scope) get +`amount` force while the card is in play
    "units-pv",  # your units get +`amount` PV while the card is in play
    "gold",  # gain `amount` gold now
    "faith",  # gain `amount` faith now
    "draw",  # draw `amount` cards
    "gold-reserve",  # +`amount` gold reserve while the card is in play (places)
    "faith-on-own-death",  # +`amount` faith when one of your units dies (places)
    "token",  # create `amount` × `token` on your plaine
    "favour",  # (gods) at the start of your turn, create the favour `token` on your plaine
    "paralyse",  # the target is paralysed (as the keyword)
    "poison",  # the target is poisoned (as the keyword)
    "destroy",  # the target is destroyed (not a sacrifice, no wound)
]

Target = Literal["none", "unit", "enemy-unit", "own-unit", "enemy", "any"]
"""What an effect picks: nothing, any unit (not a general), an enemy unit, one
of your units, an enemy unit or general, any unit or general."""

Scope = Literal["all", "front", "arriere", "plaine"]


class KeywordSpec(BaseModel):
    """A keyword printed on a card, with its parameters where it has some:
    Invocateur's gold cost and token, Ravage's damage."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    id: Keyword
    cost: int | None = Field(default=None, ge=0, le=20, description="invocateur: gold per token")
    token: str | None = Field(default=None, description="invocateur: the token card id")
    amount: int | None = Field(default=None, ge=1, le=10, description="ravage: damage to share")

    @model_validator(mode="after")
    def _parameters(self) -> KeywordSpec:
        if self.id == "invocateur" and (self.cost is None or self.token is None):
            raise ValueError("invocateur needs a cost and a token")
        if self.id != "invocateur" and (self.cost is not None or self.token is not None):
            raise ValueError(f"{self.id} takes no cost or token")
        if self.id != "ravage" and self.amount is not None:
            raise ValueError(f"{self.id} takes no amount")
        return self


class Effect(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    kind: EffectKind
    amount: int = Field(default=0, ge=0, le=20)
    target: Target = "none"
    scope: Scope = "all"
    token: str | None = None


class Texts(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    fr: str
    en: str


class CardSpec(BaseModel):
    """One card of the pool. ``force``/``pv`` for units, tokens and generals;
    ``effects`` for objects, spells, places, gods, favours and a general's
    ability (paid with ``vp`` victory points)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    id: str = Field(pattern=r"^[a-z0-9]+(-[a-z0-9]+)*$")
    name: str
    type: CardType
    spell: SpellKind | None = None
    faction: str = ""
    gold: int = Field(default=0, ge=0, le=30)
    faith: int = Field(default=0, ge=0, le=30)
    vp: int = Field(default=0, ge=0, le=40, description="generals: the ability's cost in VP")
    force: int | None = Field(default=None, ge=0, le=30)
    pv: int | None = Field(default=None, ge=1, le=40)
    keywords: tuple[KeywordSpec, ...] = ()
    effects: tuple[Effect, ...] = ()
    text: Texts

    @model_validator(mode="after")
    def _shape(self) -> CardSpec:
        fights = self.type in ("unite", "token", "general")
        if fights != (self.force is not None and self.pv is not None):
            raise ValueError(f"{self.id}: units, tokens and generals (only) have force and PV")
        if (self.type == "sort") != (self.spell is not None):
            raise ValueError(f"{self.id}: spells (only) have a spell kind")
        if self.keywords and not fights:
            raise ValueError(f"{self.id}: only units, tokens and generals have keywords")
        ids = [k.id for k in self.keywords]
        if len(set(ids)) != len(ids):
            raise ValueError(f"{self.id}: a keyword printed twice")
        return self

    def keyword(self, kw: Keyword) -> KeywordSpec | None:
        for k in self.keywords:
            if k.id == kw:
                return k
        return None

    @property
    def collectible(self) -> bool:
        """Cards a deck may hold (tokens, favours and generals are not)."""
        return self.type not in ("token", "faveur", "general")


class DeckSpec(BaseModel):
    """A ready-made deck: a general and 50 cards, at most 4 of each."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    id: str = Field(pattern=r"^[a-z0-9]+(-[a-z0-9]+)*$")
    name: Texts
    style: Texts
    general: str
    cards: tuple[tuple[str, int], ...]


class CardFile(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    cards: tuple[CardSpec, ...]
    decks: tuple[DeckSpec, ...]

    @model_validator(mode="after")
    def _references(self) -> CardFile:
        by_id = {c.id: c for c in self.cards}
        if len(by_id) != len(self.cards):
            raise ValueError("two cards share an id")
        names = [c.name.casefold() for c in self.cards]
        if len(set(names)) != len(names):
            raise ValueError("two cards share a name")
        for card in self.cards:
            for ref in [k.token for k in card.keywords] + [e.token for e in card.effects]:
                if ref is not None and by_id.get(ref) is None:
                    raise ValueError(f"{card.id}: unknown token {ref!r}")
            _check_made_cards(card, by_id)
        if len({d.id for d in self.decks}) != len(self.decks):
            raise ValueError("two decks share an id")
        for deck in self.decks:
            general = by_id.get(deck.general)
            if general is None or general.type != "general":
                raise ValueError(f"deck {deck.id}: {deck.general!r} is not a general")
            total = 0
            for card_id, count in deck.cards:
                spec = by_id.get(card_id)
                if spec is None or not spec.collectible:
                    raise ValueError(f"deck {deck.id}: {card_id!r} is not a deck card")
                if not 1 <= count <= 4:
                    raise ValueError(f"deck {deck.id}: {count} copies of {card_id}")
                total += count
            if total != 50:
                raise ValueError(f"deck {deck.id}: {total} cards, not 50")
        return self


def _check_made_cards(card: CardSpec, by_id: dict[str, CardSpec]) -> None:
    """Invocateur and ``token`` effects make tokens, ``favour`` effects favours;
    a ``token``/``favour`` effect names what it makes."""
    made = [(k.token, "token") for k in card.keywords if k.token is not None]
    for e in card.effects:
        wanted = {"token": "token", "favour": "faveur"}.get(e.kind)
        if wanted is not None and e.token is None:
            raise ValueError(f"{card.id}: a {e.kind} effect names no card")
        if e.token is not None:
            made.append((e.token, wanted or "token"))
    for ref, wanted in made:
        if by_id[ref].type != wanted:
            raise ValueError(f"{card.id}: {ref!r} is not a {wanted}")


@cache
def card_file() -> CardFile:
    return CardFile.model_validate(load_json(DATA_FILE))


@cache
def cards_by_id() -> dict[str, CardSpec]:
    return {c.id: c for c in card_file().cards}


def card(card_id: str) -> CardSpec:
    """The card with this id (KeyError if the pool has none)."""
    return cards_by_id()[card_id]


@cache
def decks_by_id() -> dict[str, DeckSpec]:
    return {d.id: d for d in card_file().decks}
