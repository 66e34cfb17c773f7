"""Via Belli (seed 000): the table becomes the board.

The table is a grid of cells of about 22 mm. A card covers 3x4 cells standing
(portrait, ``P``) or 4x3 lying (landscape, ``L``); two cards touch when they
share an edge of at least one cell (corners do not count). Columns are
letters (``A`` ... ``Z``, ``AA`` ...), rows are numbers from 1, as printed on
the board image; a card on the table is named by its top-left cell (its
*tag*, ``C5``).

A turn is a series of actions paid with action points (PA). Each action is
chosen in a few short steps (a menu, then what, then where); every step is
one action of the engine, and every choice offered leads to a complete
action:

=====================  ==================================================
``D``                  draw a card (1 PA)
``+``                  summon menu (face up, or in ambush for 2 PA)
``>``                  move or recall menu (1 PA)
``x``                  attack menu (1 PA per attacker)
``^``                  Sorcier menu (the card's IVK)
``Roturier@D11``       the card to summon face up and the card to place it
                       against (``?Roturier@D11``: in ambush)
``Roturier G11P``      summon it with its top-left cell at G11, standing
                       (``L``: lying; ``?Roturier G11P`` in ambush)
``G11@D11``            the card to move and the card to move it along
``G11>G15L``           move the card at G11 to G15, lying
``<G11``               recall the card at G11
``G8+G11xJ11``         attack the card at J11 with those at G8 and G11
``^Bailli``            (Sorcier) take a Bailli back from the discard
``!D15``               (defender) reveal the ambush card at D15
``-``                  decline the free dog; in a step: back to the turn
``E``                  end the turn (only with ``must_spend_pa=false``)
=====================  ==================================================

A complete action (``Roturier G11P``, ``G11>G15L``, ``<G11``,
``G8+G11xJ11``, ``^Bailli``) is also accepted at the turn decision, where it
stands for all its steps at once (hosts may build it with their own menus).
Rules as implemented, every option and the view: ``docs/rules/via-belli.md``.
"""

from __future__ import annotations

import json
import re
import threading
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from .. import codec, rng
from ..core import Decision, Event, Game, GameInfo, GameOptions, MenuStep, Outcome, Seat
from ..core import evolve as replace
from ..data import load_json
from ..errors import BadNotation, BadOptions, BadRecord, GameOver, IllegalAction, NotYourTurn
from ..text import colon, de

GAME_ID = "via-belli"
CELL_MM = 22
"""The side of a grid cell, in millimetres."""
SHORT, LONG = 3, 4
"""A card is 3x4 cells standing (portrait) and 4x3 lying (landscape)."""

Ability = Literal["dog", "lancer", "archer", "sorcerer", "spy", "bard", "squire", "medic"]
Cell = tuple[int, int]

# ---------------------------------------------------------------------------
# Card data: schema of engine/data/via-belli.json
# ---------------------------------------------------------------------------

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
    """One kind of unit card of the deck."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)
    name: str = Field(min_length=2, max_length=40, description="French name, as printed")
    count: int = Field(ge=0, le=20, description="copies in each deck")
    ivk: int = Field(ge=0, le=20, description="summoning cost in action points")
    atk: int = Field(ge=0, le=20)
    defence: int = Field(ge=0, le=20, alias="def")
    ability: Ability | None = None
    aura_atk: int = Field(default=0, ge=0, le=10, description="ATK given to adjacent allies")
    aura_def: int = Field(default=0, ge=0, le=10, description="DEF given to adjacent allies")
    effect_fr: str = ""
    effect_en: str = ""

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


# ---------------------------------------------------------------------------
# Tables: presets and layout
# ---------------------------------------------------------------------------

TableName = Literal["gueridon", "table_basse", "standard", "salle_a_manger", "carre_4j"]


@dataclass(frozen=True, slots=True)
class Preset:
    name_fr: str
    name_en: str
    cm: tuple[int, int]
    width: int
    height: int
    castle_gap: int
    terrain_gap: int
    terrain: int  # recommended inns (= outposts) for 2 players
    cups: int


PRESETS: dict[str, Preset] = {
    "gueridon": Preset("Guéridon", "Bistro table", (60, 60), 27, 27, 21, 12, 1, 0),
    "table_basse": Preset("Table basse", "Coffee table", (100, 60), 45, 27, 37, 14, 1, 2),
    "standard": Preset("Table standard", "Standard table", (120, 80), 55, 36, 45, 14, 1, 0),
    "salle_a_manger": Preset(
        "Table de salle à manger", "Dining table", (200, 100), 91, 45, 81, 14, 2, 4
    ),
    "carre_4j": Preset(
        "Table carrée (4 joueurs)", "Square table (4 players)", (120, 120), 55, 55, 45, 14, 2, 0
    ),
}
"""Presets of our rulings: size in cm and in cells, castle gap (centre to
centre, cells), gap of the two middle terrain cards, recommended inns and
outposts (each) for two players, and cups."""

MIN_SIDE, MAX_SIDE = 16, 120


@dataclass(frozen=True, slots=True)
class Rect:
    x: int
    y: int
    w: int
    h: int

    def overlaps(self, o: Rect) -> bool:
        return (
            self.x < o.x + o.w
            and o.x < self.x + self.w
            and self.y < o.y + o.h
            and o.y < self.y + self.h
        )

    def near(self, o: Rect, margin: int) -> bool:
        """Overlaps ``o`` grown by ``margin`` cells on every side."""
        return Rect(o.x - margin, o.y - margin, o.w + 2 * margin, o.h + 2 * margin).overlaps(self)

    def inside(self, width: int, height: int) -> bool:
        return (
            self.x >= 0 and self.y >= 0 and self.x + self.w <= width and self.y + self.h <= height
        )


def card_rect(x: int, y: int, landscape: bool) -> Rect:
    return Rect(x, y, LONG, SHORT) if landscape else Rect(x, y, SHORT, LONG)


@dataclass(frozen=True, slots=True)
class Layout:
    castles: tuple[tuple[int, int, bool], ...]  # (x, y, landscape) by seat
    slots: tuple[tuple[int, int, bool], ...]  # middle terrain, in order of use
    sides: tuple[str, ...]  # "W", "N", "E", "S" by seat


def _mirror_x(width: int, x: int, w: int) -> int:
    return width - w - x


def table_layout(width: int, height: int, seats: int, castle_gap: int, terrain_gap: int) -> Layout:
    """Castles by seat (clockwise round the table: W, N, E, S, starting west)
    and the slots for the middle terrain, mirror-symmetric (4 players on a
    square table: symmetric by quarter turns)."""
    if seats == 2:
        sides: tuple[str, ...] = ("W", "E")
    elif seats == 3:
        sides = ("W", "N", "E")
    else:
        sides = ("W", "N", "E", "S")
    # west and east castles stand (their long side faces the centre)
    gap_x = min(castle_gap, width - SHORT - 2)
    xw = max(1, (width - gap_x - SHORT) // 2)
    yw = (height - LONG) // 2
    west = (xw, yw, False)
    east = (_mirror_x(width, xw, SHORT), yw, False)
    # north and south castles lie
    gap_y = min(castle_gap, height - SHORT - 2)
    yn = max(1, (height - gap_y - SHORT) // 2)
    xn = (width - LONG) // 2
    north = (xn, yn, True)
    south = (width - LONG - xn, height - SHORT - yn, True)
    if seats == 4 and width == height:
        # quarter-turn symmetry: north is west turned a quarter clockwise, etc.
        north = (width - yw - LONG, xw, True)
        east = (width - xw - SHORT, width - yw - LONG, False)
        south = (yw, width - xw - SHORT, True)
    by_side = {"W": west, "E": east, "N": north, "S": south}
    castles = tuple(by_side[s] for s in sides)
    d = terrain_gap // 2
    q = max(d, castle_gap // 4)
    offsets: list[tuple[int, int]]
    if seats == 2:
        offsets = [
            (0, -d),
            (0, d),
            (-q, 0),
            (q, 0),
            (-q, -2 * d),
            (q, -2 * d),
            (-q, 2 * d),
            (q, 2 * d),
        ]
    else:
        offsets = [
            (-d, -d),
            (d, d),
            (d, -d),
            (-d, d),
            (-2 * d, 0),
            (2 * d, 0),
            (0, -2 * d),
            (0, 2 * d),
        ]
    slots = []
    for ox, oy in offsets:
        # centre offset -> top-left, computed on the left/top half and mirrored
        # so that mirror images are exact
        lx = (width - SHORT - 2 * abs(ox)) // 2
        x = lx if ox <= 0 else _mirror_x(width, lx, SHORT)
        ty = (height - LONG - 2 * abs(oy)) // 2
        y = ty if oy <= 0 else height - LONG - ty
        slots.append((x, y, False))
    return Layout(castles=castles, slots=tuple(slots), sides=sides)


# ---------------------------------------------------------------------------
# Options (every proposed ruling of rulings/via-belli.md is one)
# ---------------------------------------------------------------------------

_CELL_RE = re.compile(r"^([A-Z]{1,2})(\d{1,3})$")


class Options(GameOptions):
    """Via Belli options. Defaults are our rulings (V1-V23) and the presets."""

    # ---- the table
    table: TableName = Field(default="standard", description="table preset")
    width: int = Field(default=0, ge=0, le=MAX_SIDE, description="custom width in cells; 0: preset")
    height: int = Field(
        default=0, ge=0, le=MAX_SIDE, description="custom height in cells; 0: preset"
    )
    castle_gap: int = Field(
        default=0,
        ge=0,
        le=MAX_SIDE,
        description="castle distance, centre to centre, in cells; 0: preset",
    )
    terrain_gap: int = Field(
        default=0, ge=0, le=60, description="distance of the middle inn and outpost; 0: preset"
    )
    inns: int | None = Field(
        default=None, ge=0, le=4, description="inns on the table; empty: recommended"
    )
    outposts: int | None = Field(
        default=None, ge=0, le=4, description="outposts on the table; empty: recommended"
    )
    cups: int | None = Field(
        default=None, ge=0, le=12, description="cups (obstacles); empty: preset"
    )
    cup_layout: Literal["preset", "random"] = Field(
        default="preset", description="cups at the preset's places, or randomised symmetrically"
    )
    cup_cells: tuple[str, ...] = Field(
        default=(), description="custom cups: top-left cells (e.g. K10,AR20); overrides cups"
    )
    cup_size: int = Field(default=4, ge=1, le=10, description="side of a cup in cells")
    terrain_cells: tuple[str, ...] = Field(
        default=(),
        description="middle terrain placed by the players: top-left cells with P (standing, "
        "the default) or L (lying), e.g. T10,T24L; one per inn and outpost",
    )
    # ---- the rules (V1-V23)
    initiative_sum: Literal["fourth-card", "whole-hand"] = Field(
        default="fourth-card",
        description="V1: initiative is ATK+DEF of the 4th card, or of the 4 cards",
    )
    initiative_card: Literal["keep", "return"] = Field(
        default="keep",
        description="V1: the initiative card stays in hand, or goes back into the deck",
    )
    terrain_hidden: bool = Field(
        default=True, description="V2: middle terrain lies face down until first contact"
    )
    must_spend_pa: bool = Field(
        default=True, description="V3: a turn ends only when all PA are spent"
    )
    deck_out: Literal["end-of-turn", "immediate"] = Field(
        default="end-of-turn",
        description="V4: an empty draw pile eliminates at the end of its owner's turn, or at once",
    )
    summon_contact: Literal["anchor", "anchor-and-card"] = Field(
        default="anchor",
        description="V5: only the anchor must touch no enemy, or the new card too",
    )
    bases_anchor: Literal["always", "unengaged"] = Field(
        default="always",
        description="V5: your castle and controlled outposts always anchor summons, or only "
        "while they touch no enemy card",
    )
    inn_relays: bool = Field(default=False, description="V6: a controlled inn relays supply")
    self_cut: bool = Field(
        default=False,
        description="V7: a move or recall may cut your own cards off (they return to hand)",
    )
    move_pivot: Literal["any", "friendly"] = Field(
        default="any", description="V8: the pivot of a move is any card, or only your own cards"
    )
    rotate_in_place: bool = Field(
        default=True, description="V8: a move may overlap the card's old place"
    )
    engaged_may_move: bool = Field(default=True, description="V8: cards touching an enemy may move")
    move_path: Literal["free", "slide"] = Field(
        default="free",
        description="V8: a moved card is lifted (path not checked), or slides along the pivot "
        "through free places, one cell or a quarter turn at a time",
    )
    attack_cap: int = Field(
        default=0, ge=0, le=10, description="V9: attacks per card and turn; 0: unlimited"
    )
    face_down_attack: bool = Field(
        default=False,
        description="V9: face-down cards may attack (with ATK 0, staying face down)",
    )
    castle_tie: Literal["falls", "holds"] = Field(
        default="falls",
        description="on a tie against a castle, it falls like any card (seed) or holds (V11)",
    )
    aura_stacking: bool = Field(
        default=True, description="V12: bonuses of several cards of the same name add up"
    )
    face_down_aura: bool = Field(
        default=False,
        description="V12: face-down cards give their aura too (secret: shown only in combat)",
    )
    reveal_choice: Literal["defender", "highest-def"] = Field(
        default="defender",
        description="V13: with several ambush cards, the defender picks, or the highest DEF is revealed",
    )
    reveal_keeps_bonuses: bool = Field(
        default=True,
        description="V13: the attacked card keeps its bonuses over the revealed values",
    )
    reveal_aura: Literal["now", "later"] = Field(
        default="now",
        description="a revealed ambush card's own aura counts in the combat that reveals it, "
        "or only from then on",
    )
    lancer_free: Literal["one", "turn"] = Field(
        default="one",
        description="V15: the Lancier's free attack: one, or all its attacks that turn",
    )
    dog_chain: bool = Field(default=False, description="V16: the free dog grants another free dog")
    spy_placement: Literal["free", "supplied"] = Field(
        default="free",
        description="V17: the Espion needs no anchor nor supply, or is placed and supplied like any card",
    )
    spy_contact: Literal["card", "unit"] = Field(
        default="card",
        description="the Espion must touch an enemy card, a castle included (seed), "
        "or an enemy unit (V17)",
    )
    sorcery_discard: Literal["own", "any"] = Field(
        default="own", description="V18: the Sorcier takes from your discard, or from any discard"
    )
    sorcery_face_down: bool = Field(
        default=False,
        description="V18: a face-down Sorcier may use its power too (it is then turned face up)",
    )
    recall_face_down: bool = Field(
        default=False, description="V19: face-down cards may be recalled"
    )
    siege_ambush: Literal["reveal", "hidden"] = Field(
        default="reveal",
        description="a siege is a normal attack: the holder's face-down cards touching the "
        "terrain are revealed and count their DEF, or stay hidden and count 0",
    )
    siege_failure: Literal["attackers-die", "no-loss"] = Field(
        default="attackers-die",
        description="V20: a failed or tied siege kills the attackers, or not",
    )
    archer_siege: bool = Field(
        default=True, description="V20: Archers may besiege through their reach"
    )
    enemy_terrain_blocks: bool = Field(
        default=False, description="V21: terrain controlled by an enemy disqualifies an anchor"
    )
    eliminated_castle: Literal["obstacle", "removed"] = Field(
        default="obstacle", description="V22: an eliminated player's castle stays as an obstacle"
    )
    eliminated_terrain: Literal["uncontrolled", "kept"] = Field(
        default="uncontrolled",
        description="V22: an eliminated player's terrain becomes uncontrolled, or stays theirs (useless)",
    )
    hand_limit: int = Field(
        default=0, ge=0, le=40, description="V23: hand limit for drawing; 0: none"
    )

    @field_validator("terrain_cells", mode="before")
    @classmethod
    def _split_places(cls, value: object) -> object:
        if isinstance(value, str):
            value = [v for v in re.split(r"[,\s/;]+", value) if v]
        if isinstance(value, list | tuple):
            out = []
            for v in value:
                text = str(v).strip().upper()
                cell = text[:-1] if text[-1:] in ("P", "L") else text
                if not _CELL_RE.match(cell):
                    raise ValueError(f"{v!r} is not a place (e.g. T10 or T10L)")
                out.append(text if text != cell else cell + "P")
            return tuple(out)
        return value

    @field_validator("cup_cells", mode="before")
    @classmethod
    def _split_cells(cls, value: object) -> object:
        if isinstance(value, str):
            value = [v for v in re.split(r"[,\s/;]+", value) if v]
        if isinstance(value, list | tuple):
            out = []
            for v in value:
                text = str(v).strip().upper()
                if not _CELL_RE.match(text):
                    raise ValueError(f"{v!r} is not a cell (e.g. K10)")
                out.append(text)
            return tuple(out)
        return value

    @model_validator(mode="after")
    def _sizes(self) -> Options:
        for key in ("width", "height"):
            value = getattr(self, key)
            if value and value < MIN_SIDE:
                raise ValueError(f"{key} must be 0 (preset) or {MIN_SIDE} to {MAX_SIDE} cells")
        return self


# ---------------------------------------------------------------------------
# State
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CardDef:
    """One unit card's definition, copied into the state so that a saved
    game never depends on a later edit of the data file."""

    name: str
    ivk: int
    atk: int
    dfn: int
    ability: str  # "" for none
    aura_atk: int
    aura_def: int
    count: int


@dataclass(frozen=True, slots=True)
class Rules:
    table: str
    width: int
    height: int
    cards: tuple[CardDef, ...]
    hand_start: int
    base_pa: int
    inn_pa: int
    ambush_cost: int
    initiative_sum: str
    initiative_card: str
    must_spend_pa: bool
    deck_out: str
    summon_contact: str
    inn_relays: bool
    self_cut: bool
    move_pivot: str
    rotate_in_place: bool
    engaged_may_move: bool
    attack_cap: int
    castle_tie: str
    aura_stacking: bool
    reveal_choice: str
    reveal_keeps_bonuses: bool
    lancer_free: str
    dog_chain: bool
    spy_placement: str
    sorcery_discard: str
    recall_face_down: bool
    siege_failure: str
    archer_siege: bool
    enemy_terrain_blocks: bool
    eliminated_castle: str
    eliminated_terrain: str
    hand_limit: int
    inns: int = 0  # inns and outposts set out on the table (public)
    outposts: int = 0
    # options added later: the defaults keep older saved games as they were
    reveal_aura: str = "later"
    spy_contact: str = "unit"
    siege_ambush: str = "hidden"
    bases_anchor: str = "always"
    face_down_attack: bool = False
    sorcery_face_down: bool = False
    move_path: str = "free"
    face_down_aura: bool = False


@dataclass(frozen=True, slots=True)
class Unit:
    """A unit card on the table. ``name`` is secret while face down."""

    owner: Seat
    name: str
    x: int
    y: int
    landscape: bool
    face_up: bool
    free_attack: bool = False  # Lancier: a free attack is available
    attacks: int = 0  # attacks made this turn (option attack_cap)
    since: int = 0  # face down: the clock when it was placed (hidden information)


@dataclass(frozen=True, slots=True)
class Castle:
    owner: Seat
    x: int
    y: int
    landscape: bool
    fallen: bool = False


TerrainKind = Literal["inn", "outpost"]


@dataclass(frozen=True, slots=True)
class Terrain:
    kind: TerrainKind  # secret until revealed
    x: int
    y: int
    landscape: bool
    revealed: bool = False
    controller: int = -1


@dataclass(frozen=True, slots=True)
class Player:
    hand: tuple[str, ...] = ()
    deck: tuple[int, ...] = ()
    """The draw pile as counts, in the order of ``Rules.cards``: a draw takes
    a card at random (with the game's generator), which is the same as
    drawing the top of a shuffled pile."""
    discard: tuple[str, ...] = ()  # the Fosse Commune, face up
    known: tuple[tuple[str, int], ...] = ()
    """Cards everyone knows are in this player's hand, each with the clock
    when it became known (it entered the hand in public: recall, cut-off,
    Sorcier, initiative card). Such a card may since have been placed face
    down, but only as a face-down card placed after that time."""
    out: bool = False


@dataclass(frozen=True, slots=True)
class Combat:
    """An attack waiting for the defender to choose the ambush card to reveal."""

    seat: Seat
    defender: Seat
    attackers: tuple[Cell, ...]
    target: Cell
    candidates: tuple[Cell, ...]


Phase = Literal[
    "turn",
    "anchor",
    "spot",
    "pivot",
    "destination",
    "attack",
    "sorcery",
    "free-dog",
    "reveal",
    "over",
]
SelKind = Literal["", "+", "?", ">", "x", "^", "dog"]


@dataclass(frozen=True, slots=True)
class State:
    rules: Rules
    cups: tuple[tuple[int, int, int, int], ...]  # obstacles: (x, y, w, h)
    castles: tuple[Castle, ...]  # by seat
    terrain: tuple[Terrain, ...]
    units: tuple[Unit, ...]
    players: tuple[Player, ...]
    rng: int
    phase: Phase
    active: Seat
    pa: int = 0
    turn: int = 0
    first_player: Seat = 0
    sel_kind: SelKind = ""
    sel_card: str = ""  # the card being summoned
    sel_unit: Cell | None = None  # the card being moved
    sel_via: Cell | None = None  # the anchor or the pivot
    combat: Combat | None = None
    last_seat: int = -1
    last_action: str = ""
    last_cells: tuple[Cell, ...] = ()
    idle_turns: int = 0  # consecutive turns in which nothing could be done
    clock: int = 0  # counts the public entries into hands and the face-down placements
    initiative: tuple[tuple[str, ...], ...] = ()  # the public initiative draws, by round
    eliminated: tuple[Seat, ...] = ()
    ranking: tuple[tuple[Seat, ...], ...] = ()
    end_reason: str = ""


# ---------------------------------------------------------------------------
# Actions
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Draw:
    pass


@dataclass(frozen=True, slots=True)
class EndTurn:
    pass


BeginKind = Literal["+", ">", "x", "^"]


@dataclass(frozen=True, slots=True)
class Begin:
    """Open one of the four menus of the turn: ``+`` summon (face up or in
    ambush), ``>`` move or recall, ``x`` attack, ``^`` Sorcier."""

    kind: BeginKind


@dataclass(frozen=True, slots=True)
class Anchor:
    """Choose the card to summon, face up or in ambush, and the card to place
    it against (its top-left cell): ``Roturier@C5``, ``?Roturier@C5``."""

    card: str
    hidden: bool
    x: int
    y: int


@dataclass(frozen=True, slots=True)
class Pivot:
    """Choose the card to move and the card to move it along: ``C5@D9``."""

    fx: int
    fy: int
    x: int
    y: int


@dataclass(frozen=True, slots=True)
class Summon:
    card: str
    hidden: bool
    x: int
    y: int
    landscape: bool


@dataclass(frozen=True, slots=True)
class Move:
    fx: int
    fy: int
    x: int
    y: int
    landscape: bool


@dataclass(frozen=True, slots=True)
class Recall:
    x: int
    y: int


@dataclass(frozen=True, slots=True)
class Attack:
    attackers: tuple[Cell, ...]  # sorted
    target: Cell


@dataclass(frozen=True, slots=True)
class Sorcery:
    card: str


@dataclass(frozen=True, slots=True)
class Reveal:
    x: int
    y: int


@dataclass(frozen=True, slots=True)
class Cancel:
    pass


Action = (
    Draw
    | EndTurn
    | Begin
    | Anchor
    | Pivot
    | Summon
    | Move
    | Recall
    | Attack
    | Sorcery
    | Reveal
    | Cancel
)
FullAction = Summon | Move | Recall | Attack | Sorcery


# ---------------------------------------------------------------------------
# Views
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class UnitView:
    tag: str  # top-left cell, e.g. "C5"
    owner: Seat
    x: int
    y: int
    w: int
    h: int
    landscape: bool
    face_up: bool
    name: str | None  # None: face down and not yours
    cost: int | None
    ability: str | None
    printed_atk: int | None
    printed_def: int | None
    atk: int  # current, bonuses included (0/0 face down)
    dfn: int
    supplied: bool  # linked to its castle or an outpost (a face-up Espion needs no link)
    free_attack: bool  # Lancier
    spied: bool  # touched by an enemy Espion: printed values count as 0
    attacks: int  # attacks made this turn (option attack_cap)
    since: int  # face down: the game's clock when it was placed


@dataclass(frozen=True, slots=True)
class CastleView:
    tag: str
    owner: Seat
    x: int
    y: int
    w: int
    h: int
    landscape: bool
    fallen: bool
    dfn: int  # current DEF (0 plus bonuses)


@dataclass(frozen=True, slots=True)
class TerrainView:
    tag: str
    x: int
    y: int
    w: int
    h: int
    landscape: bool
    kind: str | None  # "inn", "outpost"; None while face down
    controller: int  # -1: nobody
    dfn: int  # siege defence: DEF of the controller's cards touching it


@dataclass(frozen=True, slots=True)
class PlayerView:
    seat: Seat
    side: str  # "W", "N", "E", "S": where the player sits
    hand_count: int
    deck_count: int
    hand: tuple[str, ...] | None  # the observer's own hand (deck order), else None
    known: tuple[str, ...]  # cards everyone knows are in hand or face down
    discard: tuple[str, ...]
    out: bool
    inns: int
    outposts: int
    units: int
    known_at: tuple[tuple[str, int], ...]  # the known cards, with the clock when they became known


@dataclass(frozen=True, slots=True)
class SelectionView:
    kind: str  # "+" (summon), "?" (ambush), ">" (move), "x", "^", "dog" (free dog)
    card: str | None  # the chosen card (only for its owner)
    unit: str | None  # tag of the card to move / the target
    via: str | None  # tag of the anchor / pivot


@dataclass(frozen=True, slots=True)
class CombatView:
    seat: Seat
    defender: Seat
    attackers: tuple[str, ...]
    target: str
    candidates: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class CardInfo:
    name: str
    ivk: int
    atk: int
    dfn: int
    ability: str | None
    aura_atk: int
    aura_def: int
    count: int


@dataclass(frozen=True, slots=True)
class View:
    observer: Seat | None
    phase: str
    turn: int
    active: Seat
    pending: tuple[tuple[Seat, str], ...]  # (seat, decision kind)
    pa: int  # the active player's action points left
    table: str
    width: int  # cells
    height: int
    cell_mm: int
    columns: tuple[str, ...]  # column labels, left to right
    cups: tuple[tuple[int, int, int, int], ...]  # (x, y, w, h)
    obstacles: tuple[tuple[int, int, int, int], ...]  # fallen castles that still block
    castles: tuple[CastleView, ...]
    terrain: tuple[TerrainView, ...]
    units: tuple[UnitView, ...]
    supply: tuple[tuple[Seat, str, str], ...]  # supply links (seat, from tag, to tag)
    players: tuple[PlayerView, ...]
    selection: SelectionView | None
    combat: CombatView | None
    choices: tuple[str, ...]  # the observer's legal actions, in notation
    ghosts: tuple[tuple[int, int, bool], ...]  # legal spots (x, y, landscape) of choices
    last_seat: int
    last_action: str
    last_cells: tuple[Cell, ...]
    ranking: tuple[tuple[Seat, ...], ...]
    end_reason: str
    cards: tuple[CardInfo, ...]  # the deck's card kinds
    options: tuple[tuple[str, str], ...]  # rule options that differ from the defaults
    # public facts a bot needs to rebuild a consistent state (sample_state)
    rules: Rules  # every rule in force (table, cards, options, inns and outposts set out)
    first_player: Seat
    eliminated: tuple[Seat, ...]  # in order of elimination
    initiative: tuple[tuple[str, ...], ...]  # the public initiative draws, by round
    clock: int
    idle_turns: int


# ---------------------------------------------------------------------------
# Grid geometry: bit masks over the table (bit y * width + x)
# ---------------------------------------------------------------------------


@cache
def col_label(x: int) -> str:
    """0 -> A, 25 -> Z, 26 -> AA (spreadsheet columns)."""
    out = ""
    n = x + 1
    while n:
        n, r = divmod(n - 1, 26)
        out = chr(65 + r) + out
    return out


def col_index(label: str) -> int:
    n = 0
    for ch in label:
        n = n * 26 + (ord(ch) - 64)
    return n - 1


@cache
def cell_text(x: int, y: int) -> str:
    return f"{col_label(x)}{y + 1}"


@cache
def columns(width: int) -> tuple[str, ...]:
    return tuple(col_label(x) for x in range(width))


def parse_cell(text: str) -> Cell | None:
    m = _CELL_RE.match(text.strip().upper())
    if not m:
        return None
    row = int(m.group(2))
    if row < 1:
        return None
    return col_index(m.group(1)), row - 1


class Geo:
    """Footprint and contact masks of one table size (cached).

    Placements are also handled as *fields*: a mask with one bit per cell,
    bit ``y * width + x`` set when a card with its top-left cell there is a
    candidate (one field for standing cards, one for lying ones). Fields
    combine with ``&``, and their set bits in increasing order are the
    placements in reading order (top to bottom, left to right)."""

    __slots__ = (
        "_fp",
        "_ring",
        "_touch",
        "full",
        "height",
        "valid_lie",
        "valid_stand",
        "width",
    )

    def __init__(self, width: int, height: int) -> None:
        self.width = width
        self.height = height
        self._fp: dict[tuple[int, int, int, int], int] = {}
        self._ring: dict[tuple[int, int, int, int], int] = {}
        self._touch: dict[tuple[int, int, int, int], tuple[int, int]] = {}
        self.full = (1 << (width * height)) - 1
        stand_w, stand_h = SHORT, LONG
        lie_w, lie_h = LONG, SHORT
        self.valid_stand = self._corners(stand_w, stand_h)
        self.valid_lie = self._corners(lie_w, lie_h)

    def _corners(self, w: int, h: int) -> int:
        """The top-left cells of every w x h card inside the table."""
        W = self.width
        if w > W or h > self.height:
            return 0
        row = (1 << (W - w + 1)) - 1
        mask = 0
        for y in range(self.height - h + 1):
            mask |= row << (y * W)
        return mask

    def fits(self, occ: int) -> tuple[int, int]:
        """Fields of the standing and lying cards inside the table over no
        cell of ``occ``."""
        W = self.width
        free = self.full & ~occ
        h3 = free & (free >> 1) & (free >> 2)
        h4 = h3 & (free >> 3)
        stand = h3 & (h3 >> W) & (h3 >> 2 * W) & (h3 >> 3 * W) & self.valid_stand
        lie = h4 & (h4 >> W) & (h4 >> 2 * W) & self.valid_lie
        return stand, lie

    def meets(self, mask: int) -> tuple[int, int]:
        """Fields of the standing and lying cards (inside the table) covering
        at least one cell of ``mask``."""
        W = self.width
        h3 = mask | (mask >> 1) | (mask >> 2)
        h4 = h3 | (mask >> 3)
        v3 = h3 | (h3 >> W) | (h3 >> 2 * W)
        stand = (v3 | (h3 >> 3 * W)) & self.valid_stand
        lie = (h4 | (h4 >> W) | (h4 >> 2 * W)) & self.valid_lie
        return stand, lie

    def touch(self, x: int, y: int, w: int, h: int) -> tuple[int, int]:
        """Fields of the standing and lying cards inside the table sharing an
        edge of at least one cell with the w x h card at (x, y), without
        overlapping it (the footprints of :func:`around`)."""
        key = (x, y, w, h)
        hit = self._touch.get(key)
        if hit is None:
            W, H = self.width, self.height
            stand = lie = 0
            for dx, dy, fw, fh, landscape in around(w, h):
                px, py = x + dx, y + dy
                if px < 0 or py < 0 or px + fw > W or py + fh > H:
                    continue
                if landscape:
                    lie |= 1 << (py * W + px)
                else:
                    stand |= 1 << (py * W + px)
            hit = self._touch[key] = (stand, lie)
        return hit

    def placements(self, stand: int, lie: int) -> list[tuple[int, int, bool]]:
        """The placements (x, y, landscape) of two fields in reading order, a
        standing card before a lying one at the same cell."""
        W = self.width
        out: list[tuple[int, int, bool]] = []
        both = stand | lie
        while both:
            low = both & -both
            y, x = divmod(low.bit_length() - 1, W)
            if stand & low:
                out.append((x, y, False))
            if lie & low:
                out.append((x, y, True))
            both ^= low
        return out

    def fp(self, x: int, y: int, w: int, h: int) -> int:
        """The cells of a w x h rectangle at (x, y) (assumed inside)."""
        key = (x, y, w, h)
        mask = self._fp.get(key)
        if mask is None:
            row = (1 << w) - 1
            W = self.width
            mask = 0
            for r in range(h):
                mask |= row << ((y + r) * W + x)
            self._fp[key] = mask
        return mask

    def ring(self, x: int, y: int, w: int, h: int) -> int:
        """The cells sharing an edge with the rectangle, corners excluded: a
        free rectangle touches it iff it meets this ring."""
        key = (x, y, w, h)
        mask = self._ring.get(key)
        if mask is None:
            W, H = self.width, self.height
            row = (1 << w) - 1
            mask = 0
            if y > 0:
                mask |= row << ((y - 1) * W + x)
            if y + h < H:
                mask |= row << ((y + h) * W + x)
            for r in range(h):
                if x > 0:
                    mask |= 1 << ((y + r) * W + x - 1)
                if x + w < W:
                    mask |= 1 << ((y + r) * W + x + w)
            self._ring[key] = mask
        return mask


@cache
def geometry(width: int, height: int) -> Geo:
    return Geo(width, height)


@cache
def around(pw: int, ph: int) -> tuple[tuple[int, int, int, int, bool], ...]:
    """Offsets (dx, dy, w, h, landscape) of every card footprint that shares
    an edge of at least one cell with a pw x ph card at (0, 0)."""
    out = []
    for landscape in (False, True):
        w, h = (LONG, SHORT) if landscape else (SHORT, LONG)
        for dx in range(-w + 1, pw):
            out.append((dx, -h, w, h, landscape))
            out.append((dx, ph, w, h, landscape))
        for dy in range(-h + 1, ph):
            out.append((-w, dy, w, h, landscape))
            out.append((pw, dy, w, h, landscape))
    out.sort(key=lambda o: (o[1], o[0], o[4]))
    return tuple(out)


# ---------------------------------------------------------------------------
# The table analysed: cards, contacts, supply, current values
# ---------------------------------------------------------------------------

K_CASTLE, K_TERRAIN, K_UNIT = 0, 1, 2


_TABLES: dict[int, tuple[tuple[CardDef, ...], dict[str, CardDef], dict[str, int]]] = {}


def _tables(
    cards: tuple[CardDef, ...],
) -> tuple[tuple[CardDef, ...], dict[str, CardDef], dict[str, int]]:
    # memoised by the identity of the cards tuple (kept alive in the entry):
    # hashing it on every call would cost more than the lookup saves
    entry = _TABLES.get(id(cards))
    if entry is None or entry[0] is not cards:
        entry = (cards, {c.name: c for c in cards}, {c.name: i for i, c in enumerate(cards)})
        if len(_TABLES) > 64:
            _TABLES.clear()
        _TABLES[id(cards)] = entry
    return entry


def card_table(rules: Rules) -> dict[str, CardDef]:
    """Card definitions by name."""
    return _tables(rules.cards)[1]


def card_order(rules: Rules) -> dict[str, int]:
    """Position of each card in the deck list (the display order)."""
    return _tables(rules.cards)[2]


@cache
def _blank(width: int, height: int, blocks: tuple[tuple[int, int, int, int], ...]) -> int:
    """The cells of the obstacles."""
    geo = geometry(width, height)
    mask = 0
    for x, y, w, h in blocks:
        mask |= geo.fp(x, y, w, h)
    return mask


@dataclass(slots=True)
class Stats:
    batk: list[int]
    bdef: list[int]
    patk: list[int]
    pdef: list[int]
    satk: list[set[str]]
    sdef: list[set[str]]
    # the part of patk/pdef given by face-down cards (option face_down_aura):
    # secret, so views leave it out; combats count it
    hatk: list[int] | None = None
    hdef: list[int] | None = None


class Side:
    """One seat's supply network on a board."""

    __slots__ = (
        "anchors",
        "crit",
        "cut",
        "inner",
        "member_set",
        "members",
        "needy",
        "parent",
        "relays",
        "ring_wo",
        "seat",
        "sources",
        "supplied",
    )

    def __init__(self, seat: Seat) -> None:
        self.seat = seat
        self.sources: list[int] = []
        self.relays: set[int] = set()
        self.needy: list[int] = []
        self.supplied: set[int] = set()
        self.parent: dict[int, int] = {}
        self.cut: list[int] = []
        self.anchors: list[int] | None = None
        self.crit: set[int] | None = None
        self.inner: set[int] | None = None
        self.members: list[int] = []
        self.member_set: set[int] = set()
        self.ring_wo: dict[int, int] | None = None


class Board:
    """A state's table analysed once: every card as a rectangle (castles,
    terrain, units), the grid of which card covers which cell, contacts,
    supply by seat and current ATK/DEF. Shared by the states that share
    their cards (choosing a card does not change the table)."""

    def __init__(self, state: State) -> None:
        rules = state.rules
        W, H = rules.width, rules.height
        self.W, self.H = W, H
        self.state = state
        self.geo = geo = geometry(W, H)
        self.table = card_table(rules)
        X: list[int] = []
        Y: list[int] = []
        Wd: list[int] = []
        Ht: list[int] = []
        kind: list[int] = []
        ref: list[int] = []
        owner: list[int] = []
        self.castle_ci = [-1] * len(state.castles)
        self.terrain_ci = [-1] * len(state.terrain)
        self.unit_ci = [-1] * len(state.units)
        blocks = list(state.cups)
        for seat, c in enumerate(state.castles):
            w, h = (LONG, SHORT) if c.landscape else (SHORT, LONG)
            if c.fallen:
                if rules.eliminated_castle == "obstacle":
                    blocks.append((c.x, c.y, w, h))
                continue
            self.castle_ci[seat] = len(X)
            _add_card(X, Y, Wd, Ht, c.x, c.y, w, h)
            kind.append(K_CASTLE)
            ref.append(seat)
            owner.append(c.owner)
        for i, t in enumerate(state.terrain):
            w, h = (LONG, SHORT) if t.landscape else (SHORT, LONG)
            self.terrain_ci[i] = len(X)
            _add_card(X, Y, Wd, Ht, t.x, t.y, w, h)
            kind.append(K_TERRAIN)
            ref.append(i)
            owner.append(t.controller)
        for i, u in enumerate(state.units):
            w, h = (LONG, SHORT) if u.landscape else (SHORT, LONG)
            self.unit_ci[i] = len(X)
            _add_card(X, Y, Wd, Ht, u.x, u.y, w, h)
            kind.append(K_UNIT)
            ref.append(i)
            owner.append(u.owner)
        self.X, self.Y, self.Wd, self.Ht = X, Y, Wd, Ht
        self.kind, self.ref, self.owner = kind, ref, owner
        self.n = n = len(X)
        occ = _blank(W, H, tuple(blocks))
        fps = []
        for ci in range(n):
            m = geo.fp(X[ci], Y[ci], Wd[ci], Ht[ci])
            fps.append(m)
            occ |= m
        self.corner = {(X[ci], Y[ci]): ci for ci in range(n)}
        self.fps = fps
        self.occ = occ
        self.adj = [self._neighbours(ci) for ci in range(n)]
        self._reset()

    def _reset(self) -> None:
        """Forget everything computed lazily (after a change of the table)."""
        self._sides: dict[int, Side] = {}
        self._stats: Stats | None = None
        self._spied: list[bool] | None = None
        self._rings: list[int] | None = None
        self._attacks: dict[int, dict[int, list[int]]] = {}
        self._any_spot: dict[tuple[int, str], bool] = {}
        self.memo: dict[tuple[object, ...], object] = {}
        self.views: dict[tuple[object, ...], View] = {}
        self._public: PublicParts | None = None

    def _neighbours(self, ci: int) -> tuple[int, ...]:
        """Cards sharing an edge of at least one cell with card ``ci``."""
        ring = self.geo.ring(self.X[ci], self.Y[ci], self.Wd[ci], self.Ht[ci])
        fps = self.fps
        return tuple([c for c in range(self.n) if fps[c] & ring])

    @staticmethod
    def derive(parent: Board, state: State) -> Board | None:
        """The board of ``state`` from that of a state with the same castles
        whose units differ by one card added at the end or one card moved (or
        only by flags and terrain control); None when it differs more."""
        old = parent.state
        if old.castles is not state.castles or old.rules is not state.rules:
            return None
        if len(old.terrain) != len(state.terrain):
            return None
        units, before = state.units, old.units
        n_old = len(before)
        if len(units) == n_old + 1:
            changed = [n_old]
        elif len(units) == n_old:
            changed = []
        else:
            return None
        for i in range(n_old):
            a, b = units[i], before[i]
            if a is not b and (
                a.x != b.x or a.y != b.y or a.landscape != b.landscape or a.owner != b.owner
            ):
                changed.append(i)
                if len(changed) > 1:
                    return None
        board = object.__new__(Board)
        board.W, board.H = parent.W, parent.H
        board.state = state
        board.geo = parent.geo
        board.table = parent.table
        board.castle_ci = parent.castle_ci
        board.terrain_ci = parent.terrain_ci
        board.kind, board.ref = parent.kind, parent.ref
        board.owner = list(parent.owner)
        for ti, t in enumerate(state.terrain):
            board.owner[parent.terrain_ci[ti]] = t.controller
        board.X, board.Y, board.Wd, board.Ht = parent.X, parent.Y, parent.Wd, parent.Ht
        board.unit_ci, board.n = parent.unit_ci, parent.n
        board.corner, board.fps, board.occ, board.adj = (
            parent.corner,
            parent.fps,
            parent.occ,
            parent.adj,
        )
        if changed:
            ui = changed[0]
            u = units[ui]
            w, h = (LONG, SHORT) if u.landscape else (SHORT, LONG)
            board.X, board.Y = list(parent.X), list(parent.Y)
            board.Wd, board.Ht = list(parent.Wd), list(parent.Ht)
            board.fps, board.adj = list(parent.fps), list(parent.adj)
            board.corner = corner = dict(parent.corner)
            occ = parent.occ
            if ui == n_old:  # a new card
                ci = board.n
                board.n += 1
                board.unit_ci = [*parent.unit_ci, ci]
                board.kind = [*parent.kind, K_UNIT]
                board.ref = [*parent.ref, ui]
                board.owner.append(u.owner)
                _add_card(board.X, board.Y, board.Wd, board.Ht, u.x, u.y, w, h)
                board.fps.append(0)
                board.adj.append(())
            else:  # a card moved: clear its old place
                ci = parent.unit_ci[ui]
                del corner[parent.X[ci], parent.Y[ci]]
                occ &= ~parent.fps[ci]
                for nb in parent.adj[ci]:
                    board.adj[nb] = tuple(c for c in board.adj[nb] if c != ci)
                board.X[ci], board.Y[ci], board.Wd[ci], board.Ht[ci] = u.x, u.y, w, h
            corner[u.x, u.y] = ci
            m = board.geo.fp(u.x, u.y, w, h)
            board.fps[ci] = m
            board.occ = occ | m
            nbs = board._neighbours(ci)
            board.adj[ci] = nbs
            for nb in nbs:
                board.adj[nb] = tuple(sorted((*board.adj[nb], ci)))
        board._reset()
        return board

    # ---- basic queries
    def unit(self, ci: int) -> Unit:
        return self.state.units[self.ref[ci]]

    def at(self, cell: Cell) -> int:
        """The card whose top-left cell this is, or -1."""
        return self.corner.get(cell, -1)

    def cell(self, ci: int) -> Cell:
        return self.X[ci], self.Y[ci]

    def tag(self, ci: int) -> str:
        return cell_text(self.X[ci], self.Y[ci])

    def ring(self, ci: int) -> int:
        return self.rings()[ci]

    def rings(self) -> list[int]:
        """Every card's contact ring (see :meth:`Geo.ring`), by card."""
        out = self._rings
        if out is None:
            ring = self.geo.ring
            out = self._rings = [
                ring(x, y, w, h)
                for x, y, w, h in zip(self.X, self.Y, self.Wd, self.Ht, strict=True)
            ]
        return out

    def is_face_up_unit(self, ci: int) -> bool:
        return self.kind[ci] == K_UNIT and self.state.units[self.ref[ci]].face_up

    def ability(self, ci: int) -> str:
        if self.kind[ci] != K_UNIT:
            return ""
        u = self.state.units[self.ref[ci]]
        return self.table[u.name].ability if u.face_up else ""

    def is_enemy(self, ci: int, seat: Seat) -> bool:
        """An enemy unit or castle (terrain is never an enemy card)."""
        return self.kind[ci] != K_TERRAIN and self.owner[ci] != seat

    def free_field(self) -> tuple[int, int]:
        """The fields (see :class:`Geo`) of the free places of this board."""
        hit = self.memo.get(("free",))
        if hit is None:
            hit = self.memo[("free",)] = self.geo.fits(self.occ)
        return hit  # type: ignore[return-value]

    # ---- current values
    def stats(self) -> Stats:
        """Base and bonus ATK/DEF by card, and the abilities giving the bonuses."""
        if self._stats is None:
            state = self.state
            n = self.n
            batk, bdef = [0] * n, [0] * n
            patk, pdef = [0] * n, [0] * n
            satk: list[set[str]] = [set() for _ in range(n)]
            sdef: list[set[str]] = [set() for _ in range(n)]
            spied = self.spied()
            table = self.table
            stacking = state.rules.aura_stacking
            hidden_auras = state.rules.face_down_aura
            hatk: list[int] | None = [0] * n if hidden_auras else None
            hdef: list[int] | None = [0] * n if hidden_auras else None
            seen: set[tuple[int, str]] = set()
            for ci in range(n):
                if self.kind[ci] != K_UNIT:
                    continue
                u = state.units[self.ref[ci]]
                if not u.face_up and not hidden_auras:
                    continue
                cd = table[u.name]
                if u.face_up and not spied[ci]:
                    batk[ci], bdef[ci] = cd.atk, cd.dfn
                if not (cd.aura_atk or cd.aura_def):
                    continue
                for nb in self.adj[ci]:
                    if self.owner[nb] != u.owner:
                        continue
                    k = self.kind[nb]
                    if k == K_TERRAIN or (k == K_UNIT and not state.units[self.ref[nb]].face_up):
                        continue
                    if not stacking:
                        if (nb, cd.name) in seen:
                            continue
                        seen.add((nb, cd.name))
                    if cd.aura_atk:
                        patk[nb] += cd.aura_atk
                        satk[nb].add(cd.ability or "aura")
                        if hatk is not None and not u.face_up:
                            hatk[nb] += cd.aura_atk
                    if cd.aura_def:
                        pdef[nb] += cd.aura_def
                        sdef[nb].add(cd.ability or "aura")
                        if hdef is not None and not u.face_up:
                            hdef[nb] += cd.aura_def
            self._stats = Stats(batk, bdef, patk, pdef, satk, sdef, hatk, hdef)
        return self._stats

    def spied(self) -> list[bool]:
        """Face-up units touched by an enemy face-up Espion."""
        if self._spied is None:
            out = [False] * self.n
            for ci in range(self.n):
                if self.ability(ci) != "spy":
                    continue
                me = self.owner[ci]
                for nb in self.adj[ci]:
                    if (
                        self.kind[nb] == K_UNIT
                        and self.owner[nb] != me
                        and self.is_face_up_unit(nb)
                    ):
                        out[nb] = True
            self._spied = out
        return self._spied

    def atk(self, ci: int) -> int:
        s = self.stats()
        return s.batk[ci] + s.patk[ci]

    def dfn(self, ci: int) -> int:
        s = self.stats()
        return s.bdef[ci] + s.pdef[ci]

    def shown_atk(self, ci: int) -> int:
        """The ATK everyone sees: without the secret auras of face-down cards."""
        s = self.stats()
        return s.batk[ci] + s.patk[ci] - (s.hatk[ci] if s.hatk is not None else 0)

    def shown_dfn(self, ci: int) -> int:
        s = self.stats()
        return s.bdef[ci] + s.pdef[ci] - (s.hdef[ci] if s.hdef is not None else 0)

    # ---- supply
    def exempt(self, ci: int) -> bool:
        """A face-up Espion (needs no supply and relays none, option spy_placement=free)."""
        return self.state.rules.spy_placement == "free" and self.ability(ci) == "spy"

    def side(self, seat: Seat) -> Side:
        side = self._sides.get(seat)
        if side is None:
            side = self._make_side(seat)
            self._sides[seat] = side
        return side

    def _make_side(self, seat: Seat) -> Side:
        state = self.state
        side = Side(seat)
        cc = self.castle_ci[seat]
        if cc >= 0:
            side.sources.append(cc)
        inn_relays = state.rules.inn_relays
        for ti, t in enumerate(state.terrain):
            if t.controller != seat:
                continue
            if t.kind == "outpost":
                side.sources.append(self.terrain_ci[ti])
            elif inn_relays:
                side.relays.add(self.terrain_ci[ti])
        for ui, u in enumerate(state.units):
            if u.owner != seat:
                continue
            ci = self.unit_ci[ui]
            if self.exempt(ci):
                continue
            side.relays.add(ci)
            side.needy.append(ci)
        relays = side.relays
        supplied = set(side.sources)
        parent = side.parent
        frontier = list(side.sources)
        adj = self.adj
        while frontier:
            nxt = []
            for ci in frontier:
                for nb in adj[ci]:
                    if nb in relays and nb not in supplied:
                        supplied.add(nb)
                        parent[nb] = ci
                        nxt.append(nb)
            frontier = nxt
        side.supplied = supplied
        side.cut = [ci for ci in side.needy if ci not in supplied]
        side.members = [ci for ci in side.sources] + sorted(ci for ci in supplied if ci in relays)
        side.member_set = set(side.members)
        return side

    def reached_without(self, seat: Seat, removed: int) -> set[int]:
        """The seat's network reached from its sources when card ``removed`` is gone."""
        side = self.side(seat)
        relays = side.relays
        seen = set(side.sources)
        frontier = list(side.sources)
        adj = self.adj
        while frontier:
            nxt = []
            for ci in frontier:
                for nb in adj[ci]:
                    if nb != removed and nb in relays and nb not in seen:
                        seen.add(nb)
                        nxt.append(nb)
            frontier = nxt
        return seen

    def may_be_critical(self, seat: Seat, ci: int) -> bool:
        """False for a card no other card is linked through in the supply
        search's tree (a leaf of a spanning tree never cuts it): a cheap
        test before :meth:`critical`."""
        side = self.side(seat)
        if side.inner is None:
            side.inner = set(side.parent.values())
        return ci in side.inner

    def critical(self, seat: Seat) -> set[int]:
        """Units whose removal would cut other cards of the seat off."""
        side = self.side(seat)
        if side.crit is None:
            side.crit = self._articulation(side)
        return side.crit

    def _articulation(self, side: Side) -> set[int]:
        # Tarjan's articulation points from a virtual root joined to every source.
        nodes = side.supplied
        adj = self.adj
        disc: dict[int, int] = {}
        low: dict[int, int] = {}
        crit: set[int] = set()
        counter = 0
        root = -10
        stack: list[tuple[int, int, Iterable[int]]] = []

        def neighbours(ci: int) -> Iterable[int]:
            if ci == root:
                return iter(side.sources)
            return iter([nb for nb in adj[ci] if nb in nodes])

        disc[root] = low[root] = counter
        stack.append((root, -1, neighbours(root)))
        while stack:
            node, par, it = stack[-1]
            advanced = False
            for nb in it:
                if nb == par:
                    continue
                if nb in disc:
                    low[node] = min(low[node], disc[nb])
                    continue
                counter += 1
                disc[nb] = low[nb] = counter
                stack.append((nb, node, neighbours(nb)))
                advanced = True
                break
            if advanced:
                continue
            stack.pop()
            if stack:
                up = stack[-1][0]
                low[up] = min(low[up], low[node])
                if up != root and low[node] >= disc[up]:
                    crit.add(up)
        return {ci for ci in crit if self.kind[ci] == K_UNIT}

    def ring_without(self, seat: Seat, removed: int) -> int:
        """Contact ring of the seat's network (sources and supplied relays)
        without one of its cards."""
        side = self.side(seat)
        if side.ring_wo is None:
            members = side.members
            rings = [self.ring(ci) for ci in members]
            m = len(rings)
            prefix = [0] * (m + 1)
            suffix = [0] * (m + 1)
            for i in range(m):
                prefix[i + 1] = prefix[i] | rings[i]
            for i in range(m - 1, -1, -1):
                suffix[i] = suffix[i + 1] | rings[i]
            side.ring_wo = {ci: prefix[i] | suffix[i + 1] for i, ci in enumerate(members)}
            side.ring_wo[-1] = prefix[m]
        return side.ring_wo.get(removed, side.ring_wo[-1])

    def anchors(self, seat: Seat) -> list[int]:
        """Valid anchors of a summon: the castle, controlled outposts, and
        supplied units touching no enemy unit or castle (V5, V21)."""
        side = self.side(seat)
        if side.anchors is None:
            rules = self.state.rules
            out = list(side.sources)
            if rules.bases_anchor == "unengaged":  # V5 option: bases touching an enemy do not
                out = [ci for ci in out if not any(self.is_enemy(nb, seat) for nb in self.adj[ci])]
            blocks_terrain = rules.enemy_terrain_blocks
            for ci in sorted(side.supplied):
                if self.kind[ci] != K_UNIT:
                    continue
                bad = False
                for nb in self.adj[ci]:
                    k = self.kind[nb]
                    o = self.owner[nb]
                    if k == K_TERRAIN:
                        if blocks_terrain and o >= 0 and o != seat:
                            bad = True
                            break
                    elif o != seat:
                        bad = True
                        break
                if not bad:
                    out.append(ci)
            out.sort(key=lambda c: (self.Y[c], self.X[c]))
            side.anchors = out
        return side.anchors

    def enemy_ring(self, seat: Seat, units_only: bool = False) -> int:
        mask = 0
        for ci in range(self.n):
            k = self.kind[ci]
            if k == K_TERRAIN or self.owner[ci] == seat:
                continue
            if units_only and k != K_UNIT:
                continue
            mask |= self.ring(ci)
        return mask

    # ---- attacks
    def attack_map(self, seat: Seat) -> dict[int, list[int]]:
        """Enemy cards (units, castles, enemy-held terrain) and the seat's
        face-up units able to attack each (V9, Archer's reach)."""
        out = self._attacks.get(seat)
        if out is not None:
            return out
        state = self.state
        rules = state.rules
        cap = rules.attack_cap
        targets: dict[int, set[int]] = {}

        def enemy_target(ci: int) -> bool:
            k = self.kind[ci]
            if k == K_TERRAIN:
                return self.owner[ci] >= 0 and self.owner[ci] != seat
            return self.owner[ci] != seat

        face_down = rules.face_down_attack
        for ui, u in enumerate(state.units):
            if u.owner != seat or not (u.face_up or face_down):
                continue
            if cap and u.attacks >= cap:
                continue
            ci = self.unit_ci[ui]
            for t in self.adj[ci]:
                if enemy_target(t):
                    targets.setdefault(t, set()).add(ci)
            if u.face_up and self.table[u.name].ability == "archer":
                for ally in self.adj[ci]:
                    if self.owner[ally] != seat or self.kind[ally] == K_TERRAIN:
                        continue
                    for t in self.adj[ally]:
                        if t == ci or not enemy_target(t):
                            continue
                        if self.kind[t] == K_TERRAIN and not rules.archer_siege:
                            continue
                        targets.setdefault(t, set()).add(ci)
        X, Y = self.X, self.Y
        out = {
            t: sorted(a, key=lambda c: (X[c], Y[c]))
            for t, a in sorted(targets.items(), key=lambda kv: (X[kv[0]], Y[kv[0]]))
        }
        self._attacks[seat] = out
        return out


@dataclass(slots=True)
class PublicParts:
    """What every observer sees of a board (face-down cards anonymous)."""

    units: tuple[UnitView, ...]
    castles: tuple[CastleView, ...]
    obstacles: tuple[tuple[int, int, int, int], ...]
    terrain: tuple[TerrainView, ...]
    links: tuple[tuple[Seat, str, str], ...]
    inns: tuple[int, ...]
    outposts: tuple[int, ...]
    unit_counts: tuple[int, ...]


def _public_parts(b: Board) -> PublicParts:
    if b._public is not None:
        return b._public
    state = b.state
    rules = state.rules
    table = b.table
    b.stats()
    spied = b.spied()
    n = len(state.players)
    supplied: set[int] = set()
    links: list[tuple[Seat, str, str]] = []
    for p in range(n):
        if state.players[p].out:
            continue
        side = b.side(p)
        supplied |= side.supplied
        for child in sorted(side.parent, key=lambda c: (b.Y[c], b.X[c])):
            links.append((p, b.tag(side.parent[child]), b.tag(child)))
    units = []
    for ui, u in enumerate(state.units):
        ci = b.unit_ci[ui]
        cd = table[u.name]
        up = u.face_up
        units.append(
            UnitView(
                tag=b.tag(ci),
                owner=u.owner,
                x=u.x,
                y=u.y,
                w=b.Wd[ci],
                h=b.Ht[ci],
                landscape=u.landscape,
                face_up=up,
                name=u.name if up else None,
                cost=cd.ivk if up else None,
                ability=(cd.ability or None) if up else None,
                printed_atk=cd.atk if up else None,
                printed_def=cd.dfn if up else None,
                atk=b.shown_atk(ci),
                dfn=b.shown_dfn(ci),
                supplied=ci in supplied or b.exempt(ci),
                free_attack=u.free_attack,
                spied=spied[ci],
                attacks=u.attacks,
                since=u.since,
            )
        )
    castles = []
    obstacles = []
    for p, c in enumerate(state.castles):
        w, h = (LONG, SHORT) if c.landscape else (SHORT, LONG)
        ci = b.castle_ci[p]
        castles.append(
            CastleView(
                tag=cell_text(c.x, c.y),
                owner=c.owner,
                x=c.x,
                y=c.y,
                w=w,
                h=h,
                landscape=c.landscape,
                fallen=c.fallen,
                dfn=b.shown_dfn(ci) if ci >= 0 else 0,
            )
        )
        if c.fallen and rules.eliminated_castle == "obstacle":
            obstacles.append((c.x, c.y, w, h))
    terrain = []
    inns = [0] * n
    outposts = [0] * n
    for ti, t in enumerate(state.terrain):
        ci = b.terrain_ci[ti]
        holders = [k for k in b.adj[ci] if b.owner[k] == t.controller and b.kind[k] != K_TERRAIN]
        if 0 <= t.controller < n:
            if t.kind == "inn":
                inns[t.controller] += 1
            else:
                outposts[t.controller] += 1
        terrain.append(
            TerrainView(
                tag=b.tag(ci),
                x=t.x,
                y=t.y,
                w=b.Wd[ci],
                h=b.Ht[ci],
                landscape=t.landscape,
                kind=t.kind if t.revealed else None,
                controller=t.controller,
                dfn=sum(b.shown_dfn(k) for k in holders) if t.controller >= 0 else 0,
            )
        )
    counts = [0] * n
    for u in state.units:
        counts[u.owner] += 1
    b._public = PublicParts(
        units=tuple(units),
        castles=tuple(castles),
        obstacles=tuple(obstacles),
        terrain=tuple(terrain),
        links=tuple(links),
        inns=tuple(inns),
        outposts=tuple(outposts),
        unit_counts=tuple(counts),
    )
    return b._public


class _BoardCache(threading.local):
    """Each thread's own boards (bots and renders run in worker threads: a
    shared cache would hand one thread's board to another's state)."""

    def __init__(self) -> None:
        self.boards: dict[tuple[int, int, int], tuple[State, Board]] = {}
        self.last: tuple[Any, Any] = (None, None)


_CACHE = _BoardCache()
_BOARDS_KEPT = 16
"""Boards kept (least recently used dropped first): enough for a search to
find its root's board again after a playout. More costs more than it saves:
every board dropped is cold in the processor's caches by then."""
_FORMATTED: dict[object, str] = {}
_PARSED: dict[str, Action] = {}


def share_board(state: State, other: State) -> None:
    """Let ``other`` use ``state``'s board: they differ only in what a board
    never reads (names of face-down cards, kinds of face-down terrain)."""
    board = board_of(state)
    key = (id(other.units), id(other.terrain), id(other.castles))
    boards = _CACHE.boards
    if len(boards) >= _BOARDS_KEPT:
        boards.pop(next(iter(boards)))
    boards[key] = (other, board)


def board_of(state: State) -> Board:
    """The analysed table of a state, memoised by the identity of its cards:
    states that differ only by a choice in progress, PA or hands share it
    (a board reads nothing else of its state)."""
    cache = _CACHE
    last, hit = cache.last
    if (
        last is not None
        and last.units is state.units
        and last.terrain is state.terrain
        and last.castles is state.castles
        and last.rules is state.rules
    ):
        board: Board = hit
        return board
    board = _board_of(state)
    cache.last = (state, board)
    return board


def _board_of(state: State) -> Board:
    key = (id(state.units), id(state.terrain), id(state.castles))
    _BOARDS = _CACHE.boards
    hit = _BOARDS.get(key)
    if hit is not None:
        old = hit[0]
        if (
            old.units is state.units
            and old.terrain is state.terrain
            and old.castles is state.castles
            and old.rules is state.rules
        ):
            if next(reversed(_BOARDS)) != key:  # most recently used last
                del _BOARDS[key]
                _BOARDS[key] = hit
            return hit[1]
    board = None
    if _BOARDS:
        recent = _BOARDS[next(reversed(_BOARDS))][1]
        board = Board.derive(recent, state)
    if board is None:
        board = Board(state)
    if len(_BOARDS) >= _BOARDS_KEPT:
        _BOARDS.pop(next(iter(_BOARDS)))
    _BOARDS[key] = (state, board)
    return board


# ---------------------------------------------------------------------------
# Cups (obstacles)
# ---------------------------------------------------------------------------


def _centred(width: int, size: int, offset: int) -> int:
    """Top-left coordinate of a ``size`` block centred ``offset`` cells from
    the middle of ``width``; mirror images of +/- offsets are exact."""
    left = (width - size - 2 * abs(offset)) // 2
    return left if offset <= 0 else width - size - left


def preset_cups(
    width: int, height: int, seats: int, castle_gap: int, terrain_gap: int, size: int
) -> list[tuple[int, int]]:
    """The recommended cup places, in order of use (symmetric pairs first)."""
    d = terrain_gap // 2
    q = max(d, castle_gap // 4)
    if seats == 4 and width == height:
        e = max(d + size, castle_gap // 3)
        offsets = [(-e, -e), (e, e), (e, -e), (-e, e)]
    elif seats == 2:
        offsets = [
            (-q, -d),
            (q, -d),
            (-q, d),
            (q, d),
            (-q, -2 * d),
            (q, -2 * d),
            (-q, 2 * d),
            (q, 2 * d),
        ]
    else:
        # the middle terrain lies on the diagonals: the cups go on the castles' axis
        offsets = [(-q, 0), (q, 0), (-q, -2 * d), (q, 2 * d), (q, -2 * d), (-q, 2 * d)]
    return [(_centred(width, size, ox), _centred(height, size, oy)) for ox, oy in offsets]


def random_cups(
    stream: rng.Stream,
    width: int,
    height: int,
    seats: int,
    count: int,
    size: int,
    taken: Sequence[Rect],
) -> list[tuple[int, int]]:
    """``count`` cups placed at random, symmetrically: mirrored across the
    line between the west and east castles (quarter turns for 4 players on a
    square table, both mirrors on other tables)."""
    W, H, s = width, height, size

    def orbit(x: int, y: int) -> list[tuple[int, int]]:
        if seats == 4 and W == H:
            pts = [(x, y), (W - s - y, x), (W - s - x, W - s - y), (y, W - s - x)]
        elif seats == 4:
            pts = [(x, y), (W - s - x, y), (x, H - s - y), (W - s - x, H - s - y)]
        else:
            pts = [(x, y), (W - s - x, y)]
        return list(dict.fromkeys(pts))

    placed: list[Rect] = []

    def fits(pts: list[tuple[int, int]]) -> bool:
        rects = [Rect(px, py, s, s) for px, py in pts]
        for i, r in enumerate(rects):
            if not r.inside(W, H):
                return False
            if any(r.overlaps(o) for o in rects[i + 1 :]):
                return False
            if any(r.near(t, 2) for t in taken) or any(r.overlaps(p) for p in placed):
                return False
        return True

    k = len(orbit(0, 0))
    full, rest = divmod(count, k)
    plans: list[Literal["full", "pair", "axis"]] = ["full"] * full
    if k == 4 and rest >= 2:
        plans.append("pair")
        rest -= 2
    plans += ["axis"] * rest
    for plan in plans:
        for _ in range(400):
            x, y = stream.below(W - s + 1), stream.below(H - s + 1)
            if plan == "full":
                pts = orbit(x, y)
                if len(pts) < k:
                    continue
            elif plan == "pair":
                pts = [(x, y), (W - s - x, H - s - y)]
            elif k == 2:
                pts = [((W - s) // 2, y)]
            else:
                pts = [((W - s) // 2, (H - s) // 2)]
            if fits(pts):
                placed += [Rect(px, py, s, s) for px, py in pts]
                break
        else:
            raise BadOptions(
                f"Cannot place {count} cups symmetrically on this table.",
                fr=f"Impossible de placer {count} tasses symétriquement sur cette table.",
                cups=count,
            )
    return [(r.x, r.y) for r in placed]


# ---------------------------------------------------------------------------
# The game
# ---------------------------------------------------------------------------

BASE_PA = 5
INN_PA = 1
AMBUSH_COST = 2

_DECISION_TEXTS = {
    "anchor": "Choose the card and the card to place it against (Roturier@C5; "
    "?Roturier@C5 in ambush).",
    "spot": "Choose the spot: top-left cell and P (standing) or L (lying); - goes back.",
    "pivot": "Choose the card to move and the card to move it along (C5@D9), or the "
    "card to recall (<C5).",
    "destination": "Choose where it goes: top-left cell and P or L; - goes back.",
    "attack": "Choose the attackers and the target (C5+F5xD9).",
    "sorcery": "Sorcier: choose the card to take back from the discard (^Roturier).",
    "free-dog": "Dog: summon another dog for free (Cabot à Couteau@C5), or pass (-).",
}


class _LegalSet:
    """The legal actions of a position, and a membership test that is quick
    for the very objects listed (what bots and playouts pass back): by
    identity first, by value (hashing every action) only when needed."""

    __slots__ = ("_values", "actions", "ids")

    def __init__(self, actions: tuple[Action, ...]) -> None:
        self.actions = actions
        self.ids = frozenset(map(id, actions))  # the tuple keeps the objects alive
        self._values: frozenset[Action] | None = None

    def has(self, action: Action) -> bool:
        if id(action) in self.ids:
            return True
        if self._values is None:
            self._values = frozenset(self.actions)
        return action in self._values


_NO_LEGAL = _LegalSet(())

SUB_PHASES = frozenset({"anchor", "spot", "pivot", "destination", "attack", "sorcery"})
"""The steps after the first choice of an action (``-`` goes back from them)."""


class ViaBelli(Game[State, Action, View]):
    info = GameInfo(
        id=GAME_ID,
        name_fr="Via Belli",
        name_en="Via Belli",
        min_seats=2,
        max_seats=4,
        options_model=Options,
        hidden_information=True,
        chance=True,
        simultaneous=False,
        summary_en=(
            "The table is the board. Build columns of cards from your castle, always linked "
            "back to it for supply; draw, summon (face up or in ambush), move, recall and "
            "attack with action points; take inns and outposts; conquer the enemy castle. "
            "Cups are impassable mountains."
        ),
        summary_fr=(
            "La table devient plateau. Développez des colonnes de cartes depuis votre "
            "château, toujours reliées pour le ravitaillement ; piochez, invoquez (face "
            "visible ou en embuscade), déplacez, rapatriez et attaquez avec vos points "
            "d'action ; prenez auberges et avant-postes ; conquérez le château adverse. "
            "Les tasses sont des montagnes infranchissables."
        ),
    )
    state_type = State
    schema_version = 1
    max_actions = 20_000
    conformance_games = 300
    coverage_events = frozenset(
        {
            "draw",
            "summon",
            "ambush",
            "free-dog",
            "move",
            "recall",
            "attack",
            "ambush-revealed",
            "cut-off",
            "terrain-revealed",
            "control",
            "siege",
            "inn-bonus",
            "conquest",
            "deck-out",
            "eliminated",
            "pa-lost",
            "bard-bonus",
            "squire-bonus",
            "medic-bonus",
            "lancer-free-attack",
            "archer-shot",
            "sorcery",
            "spy",
            "spied",
            "resign",
            "game-over",
        }
    )
    conformance_options = (
        "table=gueridon",
        "table=table_basse",
        "table=standard",
        "table=salle_a_manger",
        "table=carre_4j",
        "table=gueridon reveal_choice=highest-def castle_tie=holds attack_cap=1 lancer_free=turn",
        "table=table_basse cup_layout=random cups=3 dog_chain=true aura_stacking=false",
        "table=gueridon summon_contact=anchor-and-card spy_placement=supplied sorcery_discard=any",
        "table=gueridon spy_contact=unit siege_ambush=hidden reveal_aura=later",
        "table=gueridon spy_placement=supplied spy_contact=unit face_down_aura=true",
        "table=table_basse face_down_aura=true face_down_attack=true",
        "table=gueridon bases_anchor=unengaged face_down_attack=true sorcery_face_down=true "
        "move_path=slide",
        "table=standard terrain_cells=T10,AB24L",
        "table=carre_4j cups=4 inns=1 outposts=2 eliminated_castle=removed eliminated_terrain=kept",
        "width=30 height=24 castle_gap=20 cup_cells=N11 self_cut=true recall_face_down=true",
        "table=gueridon must_spend_pa=false deck_out=immediate siege_failure=no-loss",
        "table=gueridon move_pivot=friendly rotate_in_place=false engaged_may_move=false "
        "initiative_sum=whole-hand initiative_card=return hand_limit=4",
        "table=gueridon terrain_hidden=false inn_relays=true archer_siege=false "
        "enemy_terrain_blocks=true reveal_keeps_bonuses=false hand_limit=6",
    )

    _memo: tuple[object, dict[int, _LegalSet]] = (None, {})

    # ---- setup ---------------------------------------------------------
    def setup(self, options: GameOptions, seats: int, seed: int) -> State:
        opts = options if isinstance(options, Options) else self.options(options)
        assert isinstance(opts, Options)
        if not self.info.min_seats <= seats <= self.info.max_seats:
            raise BadOptions(
                f"Via Belli is for 2 to 4 players, not {seats}.",
                fr=f"Via Belli se joue de 2 à 4 joueurs, pas {seats}.",
                seats=seats,
            )
        data = deck_file()
        preset = PRESETS[opts.table]
        width = opts.width or preset.width
        height = opts.height or preset.height
        if height > width:
            raise BadOptions(
                f"The width is the long side of the table: use width={height} height={width}.",
                fr=f"La largeur est le grand côté de la table : width={height} height={width}.",
            )
        castle_gap = opts.castle_gap or preset.castle_gap
        terrain_gap = opts.terrain_gap or preset.terrain_gap
        recommended = preset.terrain if seats == 2 else max(preset.terrain, 2)
        inns = recommended if opts.inns is None else opts.inns
        outposts = recommended if opts.outposts is None else opts.outposts
        if inns > data.terrain.inns * seats or outposts > data.terrain.outposts * seats:
            raise BadOptions(
                f"The decks hold {data.terrain.inns * seats} inns and "
                f"{data.terrain.outposts * seats} outposts.",
                fr=f"Les decks contiennent {data.terrain.inns * seats} auberges et "
                f"{data.terrain.outposts * seats} avant-postes.",
            )
        layout = table_layout(width, height, seats, castle_gap, terrain_gap)
        taken: list[Rect] = []
        for x, y, land in layout.castles:
            r = card_rect(x, y, land)
            if not r.inside(width, height) or any(r.overlaps(o) for o in taken):
                raise BadOptions(
                    f"The castles do not fit on a {width}x{height} table.",
                    fr=f"Les châteaux ne tiennent pas sur une table de {width}x{height}.",
                )
            taken.append(r)
        slots = layout.slots[: inns + outposts]
        if opts.terrain_cells:
            if len(opts.terrain_cells) != inns + outposts:
                raise BadOptions(
                    f"terrain_cells needs {inns + outposts} places, one per inn and outpost "
                    f"({inns} + {outposts}), not {len(opts.terrain_cells)}.",
                    fr=f"terrain_cells demande {inns + outposts} places, une par auberge et "
                    f"avant-poste ({inns} + {outposts}), pas {len(opts.terrain_cells)}.",
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
                    raise BadOptions(
                        f"The terrain card at {cell_text(x, y)} leaves the table or covers "
                        "another card.",
                        fr=f"La carte de terrain en {cell_text(x, y)} sort de la table ou "
                        "couvre une autre carte.",
                    )
            elif not r.inside(width, height) or any(r.near(o, 1) for o in taken):
                raise BadOptions(
                    f"{inns} inns and {outposts} outposts do not fit on this table.",
                    fr=f"{inns} auberges et {outposts} avant-postes ne tiennent pas sur cette table.",
                )
            taken.append(r)
        stream = rng.Stream(rng.seed_state(seed, GAME_ID))
        size = opts.cup_size
        cups: list[tuple[int, int]]
        if opts.cup_cells:
            cups = []
            for text in opts.cup_cells:
                cell = parse_cell(text)
                assert cell is not None
                cups.append(cell)
            placed: list[Rect] = []
            for cx, cy in cups:
                r = Rect(cx, cy, size, size)
                if not r.inside(width, height) or any(r.overlaps(o) for o in taken + placed):
                    raise BadOptions(
                        f"The cup at {cell_text(cx, cy)} leaves the table or covers a card.",
                        fr=f"La tasse en {cell_text(cx, cy)} sort de la table ou couvre une carte.",
                    )
                placed.append(r)
        else:
            count = preset.cups if opts.cups is None else opts.cups
            if opts.cup_layout == "random":
                cups = random_cups(stream, width, height, seats, count, size, taken)
            else:
                places = preset_cups(width, height, seats, castle_gap, terrain_gap, size)
                if count > len(places):
                    raise BadOptions(
                        f"The preset has room for {len(places)} cups; use cup_layout=random.",
                        fr=f"Le préréglage prévoit {len(places)} tasses ; utilisez cup_layout=random.",
                    )
                cups = places[:count]
                for cx, cy in cups:
                    r = Rect(cx, cy, size, size)
                    if not r.inside(width, height) or any(r.near(o, 1) for o in taken):
                        raise BadOptions(
                            f"{count} cups do not fit here; use cup_layout=random or cup_cells.",
                            fr=f"{count} tasses ne tiennent pas ici ; utilisez cup_layout=random "
                            "ou cup_cells.",
                        )
        inn: TerrainKind = "inn"
        outpost: TerrainKind = "outpost"
        kinds = list(stream.shuffle([inn] * inns + [outpost] * outposts))
        terrain = tuple(
            Terrain(kind=k, x=x, y=y, landscape=land, revealed=not opts.terrain_hidden)
            for k, (x, y, land) in zip(kinds, slots, strict=True)
        )
        castles = tuple(
            Castle(owner=seat, x=x, y=y, landscape=land)
            for seat, (x, y, land) in enumerate(layout.castles)
        )
        cards = tuple(
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
        rules = Rules(
            table=opts.table if not (opts.width or opts.height) else "custom",
            width=width,
            height=height,
            cards=cards,
            hand_start=data.hand_start,
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
            inns=inns,
            outposts=outposts,
            reveal_aura=opts.reveal_aura,
            spy_contact=opts.spy_contact,
            siege_ambush=opts.siege_ambush,
            bases_anchor=opts.bases_anchor,
            face_down_attack=opts.face_down_attack,
            sorcery_face_down=opts.sorcery_face_down,
            move_path=opts.move_path,
            face_down_aura=opts.face_down_aura,
        )
        players = []
        full = tuple(c.count for c in cards)
        for _ in range(seats):
            deck = full
            hand = []
            for _ in range(data.hand_start):
                index, deck = _pick(stream, deck)
                hand.append(cards[index].name)
            players.append(Player(hand=tuple(hand), deck=deck))
        state = State(
            rules=rules,
            cups=tuple((cx, cy, size, size) for cx, cy in cups),
            castles=castles,
            terrain=terrain,
            units=(),
            players=tuple(players),
            rng=stream.state,
            phase="turn",
            active=0,
        )
        state, first = self._initiative(state)
        events: list[Event] = []
        return self._start_turn(state, first, events, first_turn=True)

    def _initiative(self, state: State) -> tuple[State, Seat]:
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

    def setup_events(self, state: State) -> tuple[Event, ...]:
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

    # ---- who decides -----------------------------------------------------
    def seat_count(self, state: State) -> int:
        return len(state.players)

    def pending(self, state: State) -> Mapping[Seat, Decision]:
        phase = state.phase
        if phase == "over":
            return {}
        if phase == "reveal":
            assert state.combat is not None
            c = state.combat
            return {
                c.defender: Decision(
                    "reveal",
                    f"Your card at {cell_text(*c.target)} is attacked: choose the ambush card to "
                    "reveal (!cell).",
                    (("target", cell_text(*c.target)), ("attacker", c.seat)),
                )
            }
        pa = state.pa
        if phase == "turn":
            text = (
                f"Your turn, {pa} PA left: draw (D), summon (+), move or recall (>), "
                "attack (x) or Sorcier (^)."
            )
        else:
            text = _DECISION_TEXTS[phase]
        params: tuple[tuple[str, str | int], ...] = (("pa", pa),)
        if state.sel_kind:
            params += (("action", state.sel_kind),)
        if state.sel_unit is not None:
            params += (("unit", cell_text(*state.sel_unit)),)
        if state.sel_via is not None:
            params += (("via", cell_text(*state.sel_via)),)
        return {state.active: Decision(phase, text, params)}

    def check_turn(self, state: State, seat: Seat) -> None:
        """Raise NotYourTurn (or GameOver) unless ``seat`` must decide now."""
        if state.phase == "over":
            raise GameOver("The game is over.", fr="La partie est terminée.")
        combat = state.combat
        decider = combat.defender if state.phase == "reveal" and combat else state.active
        if seat != decider:
            raise NotYourTurn(
                "It is not your turn to decide.",
                fr="Ce n'est pas à vous de décider maintenant.",
                seat=seat,
            )

    # ---- legal actions -----------------------------------------------------
    def legal_actions(self, state: State, seat: Seat) -> list[Action]:
        return list(self._legal_memo(state, seat).actions)

    def _legal_memo(self, state: State, seat: Seat) -> _LegalSet:
        """The legal actions of the last state asked about, by seat (``apply``
        asks again to validate; states are immutable, so it is safe). States
        that share their table and what the seat may do with it (a resampled
        world, a choice made and taken back) share the answer, kept with the
        board."""
        memo = self._memo
        if memo[0] is not state:
            memo = self._memo = (state, {})
        found = memo[1].get(seat)
        if found is not None:
            return found
        hit = _NO_LEGAL
        if state.phase != "over" and (seat == state.active or state.phase == "reveal"):
            player = state.players[seat]
            key = (
                "legal",
                seat,
                state.active,
                state.phase,
                state.pa,
                state.sel_kind,
                state.sel_card,
                state.sel_unit,
                state.sel_via,
                state.combat,
                tuple(sorted(player.hand)),
                any(player.deck),
                tuple(p.discard for p in state.players),
            )
            b = board_of(state)
            cached = b.memo.get(key)
            if cached is None:
                cached = b.memo[key] = _LegalSet(tuple(self._legal(state, seat)))
            hit = cached  # type: ignore[assignment]
        memo[1][seat] = hit
        return hit

    def complete_actions(self, state: State, seat: Seat) -> list[Action]:
        """Every complete action the seat may type now (for hosts: autocomplete
        of ``Roturier G11P`` at the turn decision, the spots of a card as ghost
        outlines). At the turn decision: ``D``, ``E`` and every summon, move,
        recall, attack and Sorcier action; at the free-dog decision: the dog
        summons and ``-``; in a step: that step's actions."""
        legal = self.legal_actions(state, seat)
        if state.phase not in ("turn", "free-dog"):
            return legal
        out: dict[Action, None] = {}  # ordered, without repeats
        for action in legal:
            if isinstance(action, Begin | Anchor | Pivot):
                after = self._step(state, seat, action, [])
                for step in self._legal(after, seat):
                    if isinstance(step, Anchor | Pivot):
                        last = self._step(after, seat, step, [])
                        out.update(dict.fromkeys(self._legal(last, seat)))
                    else:
                        out[step] = None
            else:
                out[action] = None
        return list(out)

    def summon_spots(
        self, state: State, seat: Seat, card: str, hidden: bool, anchor: Cell
    ) -> list[tuple[int, int, bool]]:
        """The spots (x, y, landscape) offered once ``Anchor(card, hidden,
        *anchor)`` is chosen: the ``Summon`` actions of the next step, without
        making the step (for bots weighing every complete action)."""
        b = board_of(state)
        return list(self._spots_for(state, seat, card, hidden, b.at(anchor)))

    def move_places(
        self, state: State, seat: Seat, unit: Cell, pivot: Cell
    ) -> list[tuple[int, int, bool]]:
        """The places (x, y, landscape) offered once ``Pivot(*unit, *pivot)``
        is chosen: the ``Move`` actions of the next step, without making it."""
        b = board_of(state)
        return list(self._destinations(state, seat, b.at(unit), b.at(pivot)))

    def _is_legal(self, state: State, seat: Seat, action: Action) -> bool:
        return self._legal_memo(state, seat).has(action)

    def _legal(self, state: State, seat: Seat) -> list[Action]:
        """The legal actions (``legal_actions`` memoises the last answer, which
        ``apply`` asks again to validate; states are immutable, so it is safe).
        ``-`` (back to the turn decision) is accepted in every step after the
        first but listed only where it is a choice of its own (no free dog)."""
        phase = state.phase
        if phase == "over":
            return []
        if phase == "reveal":
            c = state.combat
            if c is None or seat != c.defender:
                return []
            return [Reveal(x, y) for x, y in c.candidates]
        if seat != state.active:
            return []
        if phase == "turn":
            return self._root(state, seat)
        b = board_of(state)
        out: list[Action] = []
        if phase == "anchor":
            for hidden, kind in ((False, "+"), (True, "?")):
                for card in self._cards_for(state, seat, kind):
                    for ci in self._anchors_for(state, seat, card, hidden):
                        out.append(Anchor(card, hidden, *b.cell(ci)))
        elif phase == "free-dog":
            for card in self._cards_for(state, seat, "dog"):
                for ci in self._anchors_for(state, seat, card, False):
                    out.append(Anchor(card, False, *b.cell(ci)))
            out.append(Cancel())
        elif phase == "spot":
            assert state.sel_via is not None
            hidden = state.sel_kind == "?"
            for x, y, land in self._spots_for(
                state, seat, state.sel_card, hidden, b.at(state.sel_via)
            ):
                out.append(Summon(state.sel_card, hidden, x, y, land))
        elif phase == "pivot":
            for ci in self._movers(state, seat):
                fx, fy = b.cell(ci)
                out += [Pivot(fx, fy, *b.cell(p)) for p in self._pivots(state, seat, ci)]
            out += [Recall(*b.cell(ci)) for ci in self._recallables(state, seat)]
        elif phase == "destination":
            assert state.sel_unit is not None and state.sel_via is not None
            fx, fy = state.sel_unit
            for x, y, land in self._destinations(
                state, seat, b.at(state.sel_unit), b.at(state.sel_via)
            ):
                out.append(Move(fx, fy, x, y, land))
        elif phase == "attack":
            for t in self._targets(state, seat):
                target = b.cell(t)
                for group in self._attack_groups(state, seat, t):
                    out.append(Attack(tuple(b.cell(a) for a in group), target))
        elif phase == "sorcery":
            out += [Sorcery(c) for c in self._sorcery_cards(state, seat)]
        return out

    def _root(self, state: State, seat: Seat, stop_at_first: bool = False) -> list[Action]:
        out: list[Action] = []
        rules = state.rules
        pa = state.pa
        player = state.players[seat]
        if (
            pa >= 1
            and any(player.deck)
            and not (rules.hand_limit and len(player.hand) >= rules.hand_limit)
        ):
            out.append(Draw())
            if stop_at_first:
                return out
        checks: tuple[tuple[BeginKind, bool], ...] = (
            ("+", bool(player.hand)),
            (">", pa >= 1),
            ("x", True),
            ("^", True),
        )
        for kind, cheap in checks:
            if not cheap:
                continue
            if kind == "+":
                ok = bool(self._cards_for(state, seat, "+") or self._cards_for(state, seat, "?"))
            elif kind == ">":
                ok = bool(
                    self._movers(state, seat, first_only=True) or self._recallables(state, seat)
                )
            elif kind == "x":
                ok = bool(self._targets(state, seat, first_only=True))
            else:
                ok = bool(self._sorcery_cards(state, seat))
            if ok:
                out.append(Begin(kind))
                if stop_at_first:
                    return out
        if not stop_at_first and ((not rules.must_spend_pa and pa > 0) or (pa <= 0 and out)):
            # at 0 PA the turn goes on only for a Lancier's free attack, which
            # the player may decline (seed: « il attaque gratuitement »)
            out.append(EndTurn())
        return out

    def _can_act(self, state: State) -> bool:
        return bool(self._root(state, state.active, stop_at_first=True))

    # -- summoning
    def _card_order(self, state: State) -> dict[str, int]:
        return card_order(state.rules)

    def _cards_for(self, state: State, seat: Seat, kind: str) -> list[str]:
        """Cards of the hand that can be summoned now: face up (``+``), in
        ambush (``?``) or as the free dog (``dog``)."""
        rules = state.rules
        table = card_table(rules)
        hand = state.players[seat].hand
        if not hand:
            return []
        names = sorted(set(hand), key=self._card_order(state).__getitem__)
        pa = state.pa
        out = []
        if kind == "?":
            if pa >= rules.ambush_cost and self._any_spot(state, seat, "normal"):
                out = names
            return out
        for name in names:
            cd = table[name]
            if kind == "dog":
                if cd.ability != "dog":
                    continue
            elif cd.ivk > pa:
                continue
            placement = "spy" if cd.ability == "spy" else "normal"
            if self._any_spot(state, seat, placement):
                out.append(name)
        return out

    def _placement(self, state: State, card: str, hidden: bool) -> str:
        if hidden:
            return "normal"
        return "spy" if card_table(state.rules)[card].ability == "spy" else "normal"

    def _any_spot(self, state: State, seat: Seat, placement: str) -> bool:
        b = board_of(state)
        key = (seat, placement)
        hit = b._any_spot.get(key)
        if hit is None:
            hit = any(
                self._has_spot(state, b, seat, placement, a)
                for a in self._anchor_pool(state, b, seat, placement)
            )
            b._any_spot[key] = hit
        return hit

    def _anchor_pool(self, state: State, b: Board, seat: Seat, placement: str) -> list[int]:
        if placement == "spy" and state.rules.spy_placement == "free":
            castles = (
                state.rules.spy_contact == "card"
            )  # « au contact d'au moins une carte ennemie »
            return [
                ci
                for ci in sorted(range(b.n), key=lambda c: (b.Y[c], b.X[c]))
                if b.owner[ci] != seat
                and (b.kind[ci] == K_UNIT or (castles and b.kind[ci] == K_CASTLE))
            ]
        return b.anchors(seat)

    def _spot_list(
        self, state: State, b: Board, seat: Seat, placement: str, anchor: int
    ) -> list[tuple[int, int, bool]]:
        """Free spots along ``anchor`` for a normal or an Espion placement
        (memoised per board)."""
        key = ("spots", seat, placement, anchor)
        hit = b.memo.get(key)
        if hit is None:
            stand, lie = self._spot_field(state, b, seat, placement)
            ts, tl = b.geo.touch(b.X[anchor], b.Y[anchor], b.Wd[anchor], b.Ht[anchor])
            hit = b.memo[key] = b.geo.placements(stand & ts, lie & tl)
        return hit  # type: ignore[return-value]

    def _has_spot(self, state: State, b: Board, seat: Seat, placement: str, anchor: int) -> bool:
        """Whether ``_spot_list`` has a spot."""
        stand, lie = self._spot_field(state, b, seat, placement)
        ts, tl = b.geo.touch(b.X[anchor], b.Y[anchor], b.Wd[anchor], b.Ht[anchor])
        return bool(stand & ts or lie & tl)

    def _spot_field(self, state: State, b: Board, seat: Seat, placement: str) -> tuple[int, int]:
        """The fields (see :class:`Geo`) of the free places a summon may take
        on this board, whatever the anchor (memoised per board)."""
        key = ("spot-field", seat, placement)
        hit = b.memo.get(key)
        if hit is not None:
            return hit  # type: ignore[return-value]
        rules = state.rules
        stand, lie = b.free_field()
        ring = 0
        keep_touching = False
        if placement == "spy" and rules.spy_placement != "free":
            units_only = rules.spy_contact == "unit"
            ring, keep_touching = b.enemy_ring(seat, units_only=units_only), True
        elif placement != "spy" and rules.summon_contact == "anchor-and-card":
            ring = b.enemy_ring(seat)
        if keep_touching and not ring:
            stand = lie = 0  # no enemy to touch: no spot
        elif ring:
            rs, rl = b.geo.meets(ring)
            if keep_touching:
                stand, lie = stand & rs, lie & rl
            else:
                stand, lie = stand & ~rs, lie & ~rl
        b.memo[key] = (stand, lie)
        return stand, lie

    def _anchors_for(self, state: State, seat: Seat, card: str, hidden: bool) -> list[int]:
        b = board_of(state)
        placement = self._placement(state, card, hidden)
        key = ("anchors", seat, placement)
        hit = b.memo.get(key)
        if hit is None:
            hit = [
                a
                for a in self._anchor_pool(state, b, seat, placement)
                if self._has_spot(state, b, seat, placement, a)
            ]
            b.memo[key] = hit
        return hit  # type: ignore[return-value]

    def _spots_for(
        self, state: State, seat: Seat, card: str, hidden: bool, anchor: int
    ) -> list[tuple[int, int, bool]]:
        b = board_of(state)
        placement = self._placement(state, card, hidden)
        if anchor < 0 or anchor not in self._anchor_pool(state, b, seat, placement):
            return []
        return self._spot_list(state, b, seat, placement, anchor)

    # -- moving
    def _move_need(
        self, state: State, b: Board, seat: Seat, ci: int
    ) -> tuple[int, int, list[int]] | None:
        """``_move_need_of``, memoised per board."""
        key = ("need", ci)
        if key in b.memo:
            return b.memo[key]  # type: ignore[return-value]
        need = self._move_need_of(state, b, seat, ci)
        b.memo[key] = need
        return need

    def _move_need_of(
        self, state: State, b: Board, seat: Seat, ci: int
    ) -> tuple[int, int, list[int]] | None:
        """What a destination of card ``ci`` must touch to keep supply (V7):
        (occupied cells without the card, ring of the rest of the network,
        one ring per group of cards only ``ci`` links). None: cannot move."""
        rules = state.rules
        if not rules.engaged_may_move and any(b.is_enemy(nb, seat) for nb in b.adj[ci]):
            return None
        occ = b.occ & ~b.fps[ci]
        if b.exempt(ci):
            return occ, -1, []
        if ci not in b.side(seat).supplied:
            return occ, -1, []
        if rules.self_cut or not b.may_be_critical(seat, ci) or ci not in b.critical(seat):
            return occ, b.ring_without(seat, ci), []
        side = b.side(seat)
        reached = b.reached_without(seat, ci)
        rings = b.rings()
        need = 0
        for c in reached:
            need |= rings[c]
        groups: list[int] = []
        left = (side.supplied & side.relays) - reached
        left.discard(ci)
        adj = b.adj
        while left:
            start = left.pop()
            ring = rings[start]
            frontier = [start]
            while frontier:
                nxt = []
                for c in frontier:
                    for nb in adj[c]:
                        if nb in left:
                            left.discard(nb)
                            ring |= rings[nb]
                            nxt.append(nb)
                frontier = nxt
            groups.append(ring)
        return occ, need, groups

    def _pivot_pool(self, state: State, b: Board, seat: Seat, ci: int) -> list[int]:
        pivots = list(b.adj[ci])
        if state.rules.move_pivot == "friendly":
            pivots = [p for p in pivots if b.owner[p] == seat and b.kind[p] != K_TERRAIN]
        return sorted(pivots, key=lambda c: (b.Y[c], b.X[c]))

    def _dest_fields(
        self, state: State, b: Board, ci: int, pivot: int, need: tuple[int, int, list[int]]
    ) -> tuple[int, int]:
        """The fields (see :class:`Geo`) of card ``ci``'s destinations along ``pivot``."""
        ring, groups = need[1], need[2]
        full_s, full_l, base_s, base_l = self._move_field(state, b, ci, need)
        if ring != -1 and not groups and pivot != ci and pivot in b.side(b.owner[ci]).member_set:
            full_s, full_l = base_s, base_l  # touching the pivot is touching the network
        ts, tl = b.geo.touch(b.X[pivot], b.Y[pivot], b.Wd[pivot], b.Ht[pivot])
        if state.rules.move_path == "slide":
            rs, rl = self._slide_reach(b, ci, need[0], ts, tl)
            return full_s & ts & rs, full_l & tl & rl
        return full_s & ts, full_l & tl

    def _slide_reach(self, b: Board, ci: int, occ: int, ts: int, tl: int) -> tuple[int, int]:
        """Option ``move_path=slide`` (V8): the places card ``ci`` reaches from
        its own by steps of one cell (diagonals too, to turn a corner), or by a
        quarter turn about its middle, through free places that all touch the
        pivot (fields ``ts``/``tl``)."""
        W = b.W
        fs, fl = b.geo.fits(occ)
        cs, cl = fs & ts, fl & tl
        here = 1 << (b.Y[ci] * W + b.X[ci])
        rs, rl = (0, here) if b.Wd[ci] == LONG else (here, 0)
        steps = (1, W - 1, W, W + 1)  # the eight neighbouring cells, both ways

        def spread(m: int) -> int:
            out = m
            for k in steps:
                out |= m << k | m >> k
            return out

        while True:
            # a quarter turn: standing at (x, y) <-> lying at (x-1..x, y..y+1)
            ns = spread(rs) | rl | rl << 1 | rl >> W | rl >> (W - 1)
            nl = spread(rl) | rs | rs >> 1 | rs << W | rs << (W - 1)
            ns, nl = ns & cs, nl & cl
            if ns == rs and nl == rl:
                return rs, rl
            rs, rl = ns, nl

    def _has_dest(
        self, state: State, b: Board, ci: int, pivot: int, need: tuple[int, int, list[int]]
    ) -> bool:
        stand, lie = self._dest_fields(state, b, ci, pivot, need)
        return bool(stand or lie)

    def _move_field(
        self, state: State, b: Board, ci: int, need: tuple[int, int, list[int]]
    ) -> tuple[int, int, int, int]:
        """The fields (see :class:`Geo`) of the places card ``ci`` may move
        to along any pivot: with the ring of its network to touch, then
        without it (memoised per board)."""
        key = ("move-field", ci)
        hit = b.memo.get(key)
        if hit is not None:
            return hit  # type: ignore[return-value]
        geo = b.geo
        occ, ring, groups = need
        stand, lie = geo.fits(occ)
        here = ~(1 << (b.Y[ci] * b.W + b.X[ci]))
        if b.Wd[ci] == LONG:
            lie &= here
        else:
            stand &= here
        if not state.rules.rotate_in_place:
            os_, ol = geo.meets(b.fps[ci])
            stand, lie = stand & ~os_, lie & ~ol
        for g in groups:
            gs, gl = geo.meets(g)
            stand, lie = stand & gs, lie & gl
        full_s, full_l = stand, lie
        if ring != -1:
            rs, rl = geo.meets(ring)
            full_s, full_l = stand & rs, lie & rl
        out = b.memo[key] = (full_s, full_l, stand, lie)
        return out

    def _movers(self, state: State, seat: Seat, first_only: bool = False) -> list[int]:
        """The seat's cards that have somewhere to go (memoised per board)."""
        b = board_of(state)
        key = ("movers", seat)
        hit = b.memo.get(key)
        if hit is not None:
            return hit  # type: ignore[return-value]
        if first_only:
            key1 = ("any-mover", seat)
            any_hit = b.memo.get(key1)
            if any_hit is None:
                any_hit = []
                for ui, u in enumerate(state.units):
                    if u.owner == seat and self._can_move(state, b, seat, b.unit_ci[ui]):
                        any_hit = [b.unit_ci[ui]]
                        break
                b.memo[key1] = any_hit
            return any_hit  # type: ignore[return-value]
        out = []
        for ui, u in enumerate(state.units):
            if u.owner != seat:
                continue
            ci = b.unit_ci[ui]
            if self._pivots(state, seat, ci):
                out.append(ci)
        out.sort(key=lambda c: (b.X[c], b.Y[c]))
        b.memo[key] = out
        return out

    def _can_move(self, state: State, b: Board, seat: Seat, ci: int) -> bool:
        need = self._move_need(state, b, seat, ci)
        if need is None:
            return False
        return any(
            self._has_dest(state, b, ci, p, need) for p in self._pivot_pool(state, b, seat, ci)
        )

    def _pivots(self, state: State, seat: Seat, ci: int) -> list[int]:
        b = board_of(state)
        if ci < 0 or b.kind[ci] != K_UNIT or b.owner[ci] != seat:
            return []
        key = ("pivots", ci)
        hit = b.memo.get(key)
        if hit is not None:
            return hit  # type: ignore[return-value]
        need = self._move_need(state, b, seat, ci)
        out = []
        if need is not None:
            out = [
                p
                for p in self._pivot_pool(state, b, seat, ci)
                if self._has_dest(state, b, ci, p, need)
            ]
        b.memo[key] = out
        return out

    def _destinations(
        self, state: State, seat: Seat, ci: int, pivot: int
    ) -> list[tuple[int, int, bool]]:
        b = board_of(state)
        if ci < 0 or pivot < 0 or pivot not in self._pivots(state, seat, ci):
            return []
        key = ("dest", ci, pivot)
        hit = b.memo.get(key)
        if hit is None:
            need = self._move_need(state, b, seat, ci)
            assert need is not None
            hit = b.geo.placements(*self._dest_fields(state, b, ci, pivot, need))
            b.memo[key] = hit
        return hit  # type: ignore[return-value]

    def _recallables(self, state: State, seat: Seat) -> list[int]:
        if state.pa < 1:
            return []
        b = board_of(state)
        key = ("recall", seat)
        hit = b.memo.get(key)
        if hit is not None:
            return hit  # type: ignore[return-value]
        rules = state.rules
        crit = set() if rules.self_cut else b.critical(seat)
        out = []
        for ui, u in enumerate(state.units):
            if u.owner != seat or not (u.face_up or rules.recall_face_down):
                continue
            ci = b.unit_ci[ui]
            if ci not in crit:
                out.append(ci)
        out.sort(key=lambda c: (b.X[c], b.Y[c]))
        b.memo[key] = out
        return out

    def _min_cost(self, state: State, b: Board, attackers: list[int]) -> int:
        return 0 if any(b.unit(a).free_attack for a in attackers) else 1

    def _targets(self, state: State, seat: Seat, first_only: bool = False) -> list[int]:
        b = board_of(state)
        out = []
        for t, attackers in b.attack_map(seat).items():
            if self._min_cost(state, b, attackers) <= state.pa:
                out.append(t)
                if first_only:
                    break
        return out

    def _attack_groups(self, state: State, seat: Seat, target: int) -> list[tuple[int, ...]]:
        """Every set of attackers the seat can afford against ``target``."""
        b = board_of(state)
        key = ("groups", seat, target, state.pa)
        hit = b.memo.get(key)
        if hit is not None:
            return hit  # type: ignore[return-value]
        attackers = b.attack_map(seat).get(target, [])
        pa = state.pa
        costs = [0 if b.unit(a).free_attack else 1 for a in attackers]
        n = len(attackers)
        out = []
        for mask in range(1, 1 << n):
            cost = 0
            group = []
            for i in range(n):
                if mask >> i & 1:
                    cost += costs[i]
                    group.append(attackers[i])
            if cost <= pa:
                out.append(tuple(group))
        out.sort(key=lambda g: (len(g), [(b.X[a], b.Y[a]) for a in g]))
        b.memo[key] = out
        return out

    def _sorcery_cards(self, state: State, seat: Seat) -> list[str]:
        rules = state.rules
        table = card_table(rules)
        face_down = rules.sorcery_face_down
        if not any(
            u.owner == seat and (u.face_up or face_down) and table[u.name].ability == "sorcerer"
            for u in state.units
        ):
            return []
        pool: set[str] = set(state.players[seat].discard)
        if rules.sorcery_discard == "any":
            for p in state.players:
                pool.update(p.discard)
        order = self._card_order(state)
        return sorted((c for c in pool if table[c].ivk <= state.pa), key=order.__getitem__)

    # ---- apply ---------------------------------------------------------------
    def apply(self, state: State, seat: Seat, action: Action) -> tuple[State, tuple[Event, ...]]:
        self.check_turn(state, seat)
        events: list[Event] = []
        if self._is_legal(state, seat, action):
            state = self._step(state, seat, action, events)
            return state, tuple(events)
        if isinstance(action, Cancel) and state.phase in SUB_PHASES:
            return _back(state), ()
        result = self._shortcut(state, seat, action)
        if result is None:
            en, fr = self._why_illegal(state, seat, action)
            raise IllegalAction(en, fr=fr, action=self.format_action(action))
        return result

    def _shortcut(
        self, state: State, seat: Seat, action: Action
    ) -> tuple[State, tuple[Event, ...]] | None:
        """A complete action typed at the turn decision (or a free dog's
        placement at the free-dog decision): all its steps at once."""
        events: list[Event] = []
        s = state
        if state.phase == "turn":
            begin: BeginKind
            if isinstance(action, Summon):
                begin = "+"
            elif isinstance(action, Move | Recall):
                begin = ">"
            elif isinstance(action, Attack):
                begin = "x"
            elif isinstance(action, Sorcery):
                begin = "^"
            else:
                return None
            if Begin(begin) not in self._legal(s, seat):
                return None
            s = self._step(s, seat, Begin(begin), events)
        elif state.phase != "free-dog" or not isinstance(action, Summon) or action.hidden:
            return None
        if isinstance(action, Summon | Move):
            for step in self._legal(s, seat):
                if isinstance(step, Anchor) and isinstance(action, Summon):
                    if step.card != action.card or step.hidden != action.hidden:
                        continue
                elif isinstance(step, Pivot) and isinstance(action, Move):
                    if (step.fx, step.fy) != (action.fx, action.fy):
                        continue
                else:
                    continue
                s2 = self._step(s, seat, step, events)
                if action in self._legal(s2, seat):
                    s = s2
                    break
            else:
                return None
        if action not in self._legal(s, seat):
            return None
        s = self._step(s, seat, action, events)
        return s, tuple(events)

    def _step(self, state: State, seat: Seat, action: Action, events: list[Event]) -> State:
        """Apply one legal action."""
        if isinstance(action, Begin):
            phase: Phase = {
                "+": "anchor",
                ">": "pivot",
                "x": "attack",
                "^": "sorcery",
            }[action.kind]  # type: ignore[assignment]
            return replace(state, phase=phase, sel_kind=action.kind)
        if isinstance(action, Anchor):
            kind: SelKind = "dog" if state.phase == "free-dog" else "?" if action.hidden else "+"
            return replace(
                state,
                phase="spot",
                sel_kind=kind,
                sel_card=action.card,
                sel_via=(action.x, action.y),
            )
        if isinstance(action, Pivot):
            return replace(
                state,
                phase="destination",
                sel_unit=(action.fx, action.fy),
                sel_via=(action.x, action.y),
            )
        if isinstance(action, Cancel):  # no free dog
            events.append(Event("free-dog-declined", {"seat": seat}))
            return self._after(_clear(state), events, touched=())
        if isinstance(action, Draw):
            return self._draw(state, seat, events)
        if isinstance(action, EndTurn):
            events.append(Event("end-turn", {"seat": seat, "pa": state.pa}))
            return self._end_turn(replace(state, pa=0), events)
        if isinstance(action, Summon):
            return self._summon(state, seat, action, events)
        if isinstance(action, Move):
            return self._move(state, seat, action, events)
        if isinstance(action, Recall):
            return self._recall(state, seat, action, events)
        if isinstance(action, Attack):
            return self._attack(state, seat, action, events)
        if isinstance(action, Sorcery):
            return self._sorcery(state, seat, action, events)
        assert isinstance(action, Reveal)
        c = state.combat
        assert c is not None
        return self._combat(state, c.seat, c.attackers, c.target, (action.x, action.y), events)

    # -- the actions
    def _draw(self, state: State, seat: Seat, events: list[Event]) -> State:
        player = state.players[seat]
        index, deck, next_rng = _draw_from(state.rng, player.deck)
        card = state.rules.cards[index].name
        player = replace(player, hand=(*player.hand, card), deck=deck)
        state = _set_player(state, seat, player)
        state = replace(
            state, pa=state.pa - 1, rng=next_rng, last_seat=seat, last_action="D", last_cells=()
        )
        left = sum(deck)
        events.append(
            Event(
                "draw",
                {"seat": seat, "card": card, "left": left},
                to=frozenset({seat}),
                redacted={"seat": seat, "left": left},
            )
        )
        if not left and state.rules.deck_out == "immediate":
            events.append(Event("deck-out", {"seat": seat}))
            state = self._eliminate(state, seat, "exhausted", events)
            return self._after(state, events)
        return self._after(state, events, touched=())

    def _summon(self, state: State, seat: Seat, a: Summon, events: list[Event]) -> State:
        rules = state.rules
        cd = card_table(rules)[a.card]
        free = state.sel_kind == "dog"
        cost = 0 if free else rules.ambush_cost if a.hidden else cd.ivk
        player = state.players[seat]
        known = player.known if a.hidden else _forget_latest(player.known, a.card)
        player = replace(player, hand=_remove_one(player.hand, a.card), known=known)
        clock = state.clock + 1 if a.hidden else state.clock
        unit = Unit(
            owner=seat,
            name=a.card,
            x=a.x,
            y=a.y,
            landscape=a.landscape,
            face_up=not a.hidden,
            free_attack=not a.hidden and cd.ability == "lancer",
            since=clock if a.hidden else 0,
        )
        state = _set_player(state, seat, player)
        tag = cell_text(a.x, a.y)
        orient = "L" if a.landscape else "P"
        state = replace(
            state,
            units=(*state.units, unit),
            clock=clock,
            pa=state.pa - cost,
            last_seat=seat,
            # an ambush is public only as "a face-down card went there"
            last_action=f"? {tag}{orient}" if a.hidden else self.format_action(a),
            last_cells=((a.x, a.y),),
        )
        if a.hidden:
            events.append(
                Event(
                    "ambush",
                    {"seat": seat, "card": a.card, "tag": tag, "orient": orient, "cost": cost},
                    to=frozenset({seat}),
                    redacted={"seat": seat, "tag": tag, "orient": orient, "cost": cost},
                )
            )
        else:
            events.append(
                Event(
                    "summon",
                    {
                        "seat": seat,
                        "card": a.card,
                        "tag": tag,
                        "orient": orient,
                        "cost": cost,
                        "free": free,
                    },
                )
            )
            if free:
                events.append(Event("free-dog", {"seat": seat, "card": a.card, "tag": tag}))
            if cd.ability == "spy":
                events.append(Event("spy", {"seat": seat, "tag": tag}))
        if not a.hidden and cd.ability == "dog" and (not free or rules.dog_chain):
            state = self._contact(state, (a.x, a.y), events)
            return replace(
                state, phase="free-dog", sel_kind="dog", sel_card="", sel_via=None, sel_unit=None
            )
        return self._after(state, events, touched=(a.x, a.y))

    def _move(self, state: State, seat: Seat, a: Move, events: list[Event]) -> State:
        b = board_of(state)
        ui = b.ref[b.at((a.fx, a.fy))]
        u = state.units[ui]
        units = list(state.units)
        units[ui] = replace(u, x=a.x, y=a.y, landscape=a.landscape)
        state = replace(
            state,
            units=tuple(units),
            pa=state.pa - 1,
            last_seat=seat,
            last_action=self.format_action(a),
            last_cells=((a.x, a.y), (a.fx, a.fy)),
        )
        events.append(
            Event(
                "move",
                {
                    "seat": seat,
                    "card": u.name if u.face_up else None,
                    "from": cell_text(a.fx, a.fy),
                    "tag": cell_text(a.x, a.y),
                    "orient": "L" if a.landscape else "P",
                },
            )
        )
        if state.rules.self_cut:
            return self._after(state, events)
        return self._after(state, events, touched=(a.x, a.y))

    def _recall(self, state: State, seat: Seat, a: Recall, events: list[Event]) -> State:
        b = board_of(state)
        ui = b.ref[b.at((a.x, a.y))]
        u = state.units[ui]
        player = state.players[seat]
        clock = state.clock + 1
        known = (*player.known, (u.name, clock)) if u.face_up else player.known
        state = _set_player(state, seat, replace(player, hand=(*player.hand, u.name), known=known))
        state = replace(state, clock=clock)
        state = replace(
            state,
            units=state.units[:ui] + state.units[ui + 1 :],
            pa=state.pa - 1,
            last_seat=seat,
            last_action=self.format_action(a),
            last_cells=((a.x, a.y),),
        )
        tag = cell_text(a.x, a.y)
        if u.face_up:
            events.append(Event("recall", {"seat": seat, "card": u.name, "tag": tag}))
        else:
            events.append(
                Event(
                    "recall",
                    {"seat": seat, "card": u.name, "tag": tag},
                    to=frozenset({seat}),
                    redacted={"seat": seat, "card": None, "tag": tag},
                )
            )
        if state.rules.self_cut:
            return self._after(state, events)
        return self._after(state, events, touched=())

    def _sorcery(self, state: State, seat: Seat, a: Sorcery, events: list[Event]) -> State:
        rules = state.rules
        cost = card_table(rules)[a.card].ivk
        n = len(state.players)
        source = seat
        if a.card not in state.players[seat].discard:
            # option sorcery_discard=any: the next discard holding it, in turn order
            source = next(
                (seat + k) % n
                for k in range(1, n)
                if a.card in state.players[(seat + k) % n].discard
            )
        donor = state.players[source]
        state = _set_player(
            state, source, replace(donor, discard=_remove_last(donor.discard, a.card))
        )
        player = state.players[seat]
        clock = state.clock + 1
        state = _set_player(
            state,
            seat,
            replace(player, hand=(*player.hand, a.card), known=(*player.known, (a.card, clock))),
        )
        state = replace(state, clock=clock)
        table = card_table(rules)
        if not any(
            u.owner == seat and u.face_up and table[u.name].ability == "sorcerer"
            for u in state.units
        ):  # option sorcery_face_down: the face-down Sorcier shows itself
            ui = min(
                (
                    i
                    for i, u in enumerate(state.units)
                    if u.owner == seat and table[u.name].ability == "sorcerer"
                ),
                key=lambda i: (state.units[i].y, state.units[i].x),
            )
            ru = state.units[ui]
            owner = state.players[seat]
            state = _set_player(
                state, seat, replace(owner, known=_forget_before(owner.known, ru.name, ru.since))
            )
            units = list(state.units)
            units[ui] = replace(ru, face_up=True)
            state = replace(state, units=tuple(units))
            tag = cell_text(ru.x, ru.y)
            events.append(
                Event("ambush-revealed", {"seat": seat, "card": ru.name, "tag": tag, "target": tag})
            )
        state = replace(
            state,
            pa=state.pa - cost,
            last_seat=seat,
            last_action=self.format_action(a),
            last_cells=(),
        )
        events.append(
            Event("sorcery", {"seat": seat, "card": a.card, "cost": cost, "from": source})
        )
        return self._after(state, events, touched=())

    def _attack(self, state: State, seat: Seat, a: Attack, events: list[Event]) -> State:
        rules = state.rules
        b = board_of(state)
        t = b.at(a.target)
        attackers = [b.at(c) for c in a.attackers]
        cost = 0
        free_used = []
        units = list(state.units)
        for ci in attackers:
            ui = b.ref[ci]
            u = units[ui]
            if u.free_attack:
                free_used.append(b.tag(ci))
                if rules.lancer_free == "one":
                    u = replace(u, free_attack=False)
            else:
                cost += 1
            units[ui] = replace(u, attacks=u.attacks + 1)
        if free_used:
            events.append(Event("lancer-free-attack", {"seat": seat, "tags": free_used}))
        for ci in attackers:
            if b.ability(ci) == "archer" and t not in b.adj[ci]:
                events.append(
                    Event("archer-shot", {"seat": seat, "tag": b.tag(ci), "target": b.tag(t)})
                )
        candidates: list[int] = []
        kind = b.kind[t]
        if kind == K_CASTLE or (kind == K_UNIT and b.unit(t).face_up):
            defender = b.owner[t]
            candidates = [
                k
                for k in b.adj[t]
                if b.kind[k] == K_UNIT and b.owner[k] == defender and not b.unit(k).face_up
            ]
            candidates.sort(key=lambda c: (b.X[c], b.Y[c]))
        state = replace(
            state,
            units=tuple(units),
            pa=state.pa - cost,
            last_seat=seat,
            last_action=self.format_action(a),
            last_cells=(a.target, *a.attackers),
        )
        reveal: Cell | None = None
        if len(candidates) == 1:
            reveal = b.cell(candidates[0])
        elif candidates:
            if rules.reveal_choice == "defender":
                combat = Combat(
                    seat=seat,
                    defender=b.owner[t],
                    attackers=a.attackers,
                    target=a.target,
                    candidates=tuple(b.cell(c) for c in candidates),
                )
                return replace(state, phase="reveal", combat=combat)
            table = card_table(rules)
            best = max(
                candidates,
                key=lambda c: (table[state.units[b.ref[c]].name].dfn, -b.X[c], -b.Y[c]),
            )
            reveal = b.cell(best)
        return self._combat(state, seat, a.attackers, a.target, reveal, events)

    def _combat(
        self,
        state: State,
        seat: Seat,
        attacker_cells: tuple[Cell, ...],
        target_cell: Cell,
        reveal_cell: Cell | None,
        events: list[Event],
    ) -> State:
        """Resolve an attack (V10, V11, V13, V14, V20): summed ATK of the
        attackers against the DEF of the target (or of the terrain's holders)."""
        rules = state.rules
        table = card_table(rules)
        b = board_of(state)
        st = b.stats()
        spied = b.spied()
        t = b.at(target_cell)
        attackers = [b.at(c) for c in attacker_cells]
        atk = sum(st.batk[a] + st.patk[a] for a in attackers)
        sources: set[str] = set()
        spied_cards = [b.tag(a) for a in attackers if spied[a]]
        for a in attackers:
            if st.patk[a]:
                sources |= st.satk[a]
        tk = b.kind[t]
        defender = b.owner[t]
        holders: list[int] = []
        revealed: list[int] = []  # card indices of the ambush cards turned face up
        if tk == K_TERRAIN:
            holders = [k for k in b.adj[t] if b.owner[k] == defender and b.kind[k] != K_TERRAIN]
            if rules.siege_ambush == "reveal":  # « Un Siège se déroule comme une attaque normale »
                revealed = [k for k in holders if b.kind[k] == K_UNIT and not b.unit(k).face_up]
        elif reveal_cell is not None:
            revealed = [b.at(reveal_cell)]
        dst = st  # the defence's bonuses
        if revealed and rules.reveal_aura == "now":
            # the revealed cards are face up now: their own auras count in this combat
            up = list(state.units)
            for k in revealed:
                up[b.ref[k]] = replace(up[b.ref[k]], face_up=True)
            dst = board_of(replace(state, units=tuple(up))).stats()
        if tk == K_TERRAIN:
            dfn = 0
            for k in holders:
                kbase = table[b.unit(k).name].dfn if k in revealed else st.bdef[k]
                dfn += kbase + dst.pdef[k]
                if dst.pdef[k]:
                    sources |= dst.sdef[k]
                if spied[k] and k not in revealed:
                    spied_cards.append(b.tag(k))
        else:
            base, bonus = st.bdef[t], dst.pdef[t]
            if revealed:
                base = table[b.unit(revealed[0]).name].dfn
                if not rules.reveal_keeps_bonuses:
                    bonus = 0
            elif spied[t]:
                spied_cards.append(b.tag(t))
            if bonus:
                sources |= dst.sdef[t]
            dfn = base + bonus
        for ability in sorted(sources):
            events.append(Event(f"{ability}-bonus", {"seat": seat, "target": b.tag(t)}))
        if spied_cards:
            events.append(Event("spied", {"tags": spied_cards}))
        result = "win" if atk > dfn else "lose" if atk < dfn else "tie"
        dead: list[int] = []  # card indices
        conquest = capture = False
        if tk == K_UNIT:
            dead = [t] if result == "win" else attackers if result == "lose" else [*attackers, t]
        elif tk == K_CASTLE:
            if result == "win":
                conquest = True
            elif result == "tie" and rules.castle_tie == "falls":
                conquest = True
                dead = list(attackers)
            else:
                dead = list(attackers)
        else:
            capture = result == "win"
            if not capture and rules.siege_failure == "attackers-die":
                dead = list(attackers)
        units = list(state.units)
        players = list(state.players)
        for revealed_ui in sorted(b.ref[k] for k in revealed):
            ru = units[revealed_ui]
            units[revealed_ui] = replace(
                ru, face_up=True, free_attack=table[ru.name].ability == "lancer"
            )
            owner = players[ru.owner]
            players[ru.owner] = replace(owner, known=_forget_before(owner.known, ru.name, ru.since))
            events.append(
                Event(
                    "ambush-revealed",
                    {
                        "seat": ru.owner,
                        "card": ru.name,
                        "tag": cell_text(ru.x, ru.y),
                        "target": b.tag(t),
                    },
                )
            )
        dead_info = []
        dead_ui = {b.ref[c] for c in dead}
        for ui in sorted(dead_ui):
            u = units[ui]
            owner = players[u.owner]
            known = owner.known if u.face_up else _forget_before(owner.known, u.name, u.since)
            players[u.owner] = replace(owner, discard=(*owner.discard, u.name), known=known)
            dead_info.append({"seat": u.owner, "card": u.name, "tag": cell_text(u.x, u.y)})
        events.append(
            Event(
                "attack",
                {
                    "seat": seat,
                    "attackers": [b.tag(a) for a in attackers],
                    "target": b.tag(t),
                    "target_kind": ("castle", "terrain", "unit")[tk],
                    "defender": defender,
                    "atk": atk,
                    "def": dfn,
                    "result": result,
                    "dead": dead_info,
                },
            )
        )
        state = replace(
            state,
            units=tuple(u for i, u in enumerate(units) if i not in dead_ui),
            players=tuple(players),
            combat=None,
            phase="turn",
        )
        if tk == K_TERRAIN:
            terrain = state.terrain[b.ref[t]]
            events.append(
                Event(
                    "siege",
                    {
                        "seat": seat,
                        "tag": b.tag(t),
                        "kind": terrain.kind,
                        "from": defender,
                        "success": capture,
                    },
                )
            )
            if capture:
                state = _set_terrain(state, b.ref[t], replace(terrain, controller=seat))
                if terrain.kind == "inn" and seat == state.active:
                    state = replace(state, pa=state.pa + rules.inn_pa)
                    events.append(
                        Event("inn-bonus", {"seat": seat, "tag": b.tag(t), "pa": rules.inn_pa})
                    )
        if conquest:
            events.append(Event("conquest", {"seat": seat, "target": defender, "tag": b.tag(t)}))
            state = self._eliminate(state, defender, "conquest", events)
        return self._after(state, events)

    # -- after every action
    def _after(
        self, state: State, events: list[Event], touched: Cell | tuple[()] | None = None
    ) -> State:
        """Settle the table (contacts, control, supply), then end the turn if
        no PA are left or nothing can be done with them (V3). ``touched``: the
        action only placed the card at that cell (or changed nothing on the
        table, ``()``), so no card can have lost its supply."""
        if touched is None:
            state = self._settle(state, events)
            if state.phase == "over":
                return state
        elif touched:
            state = self._contact(state, touched, events)
        state = _clear(state)
        if state.players[state.active].out:
            return self._next_turn(state, events)
        if state.pa <= 0 and not any(u.free_attack for u in state.units if u.owner == state.active):
            return self._end_turn(state, events)
        if not self._can_act(state):
            return self._end_turn(state, events)
        return state

    def _contact(self, state: State, cell: Cell, events: list[Event]) -> State:
        """The card just placed at ``cell`` reveals the terrain it touches and
        takes the uncontrolled ones (V2, V20)."""
        unit = next(u for u in state.units if u.x == cell[0] and u.y == cell[1])
        r = card_rect(unit.x, unit.y, unit.landscape)
        terrain = state.terrain
        for ti, t in enumerate(terrain):
            if not _touch(r, card_rect(t.x, t.y, t.landscape)):
                continue
            if t.revealed and t.controller >= 0:
                continue
            tag = cell_text(t.x, t.y)
            if not t.revealed:
                t = replace(t, revealed=True)
                events.append(Event("terrain-revealed", {"tag": tag, "kind": t.kind}))
            if t.controller < 0:
                t = replace(t, controller=unit.owner)
                events.append(Event("control", {"seat": unit.owner, "tag": tag, "kind": t.kind}))
                if t.kind == "inn" and unit.owner == state.active:
                    state = replace(state, pa=state.pa + state.rules.inn_pa)
                    events.append(
                        Event(
                            "inn-bonus", {"seat": unit.owner, "tag": tag, "pa": state.rules.inn_pa}
                        )
                    )
            state = _set_terrain(state, ti, t)
        return state

    def _settle(self, state: State, events: list[Event]) -> State:
        """Terrain revealed and taken on first contact (V2, V20); cards cut off
        from supply go back to their owner's hand for free (V6, V7)."""
        if state.phase == "over":
            return state
        b = board_of(state)
        n = len(state.players)
        order = [(state.active + k) % n for k in range(n)]
        terrain = list(state.terrain)
        gain = 0
        changed = False
        for ti, t in enumerate(terrain):
            ci = b.terrain_ci[ti]
            seats = {b.owner[k] for k in b.adj[ci] if b.kind[k] == K_UNIT}
            if not seats:
                continue
            tag = b.tag(ci)
            if not t.revealed:
                t = replace(t, revealed=True)
                changed = True
                events.append(Event("terrain-revealed", {"tag": tag, "kind": t.kind}))
            if t.controller < 0:
                new = next(s for s in order if s in seats)
                t = replace(t, controller=new)
                changed = True
                events.append(Event("control", {"seat": new, "tag": tag, "kind": t.kind}))
                if t.kind == "inn" and new == state.active:
                    gain += state.rules.inn_pa
                    events.append(
                        Event("inn-bonus", {"seat": new, "tag": tag, "pa": state.rules.inn_pa})
                    )
            terrain[ti] = t
        if changed:
            state = replace(state, terrain=tuple(terrain), pa=state.pa + gain)
            b = board_of(state)
        cut: dict[int, list[int]] = {}
        for seat in range(n):
            if state.players[seat].out:
                continue
            side = b.side(seat)
            if side.cut:
                cut[seat] = sorted(b.ref[ci] for ci in side.cut)
        if not cut:
            return state
        players = list(state.players)
        gone: set[int] = set()
        clock = state.clock + 1
        for seat, uis in cut.items():
            player = players[seat]
            hand = list(player.hand)
            known = list(player.known)
            cards = []
            for ui in uis:
                u = state.units[ui]
                hand.append(u.name)
                if u.face_up:
                    known.append((u.name, clock))
                cards.append((cell_text(u.x, u.y), u.name, u.face_up))
                gone.add(ui)
            players[seat] = replace(player, hand=tuple(hand), known=tuple(known))
            # public: the owner knows its face-down cards from its own view
            events.append(
                Event(
                    "cut-off",
                    {
                        "seat": seat,
                        "tags": [c[0] for c in cards],
                        "cards": [c[1] if c[2] else None for c in cards],
                    },
                )
            )
        return replace(
            state,
            players=tuple(players),
            units=tuple(u for i, u in enumerate(state.units) if i not in gone),
            clock=clock,
        )

    # -- turns
    def _end_turn(self, state: State, events: list[Event]) -> State:
        seat = state.active
        if state.pa > 0:
            events.append(Event("pa-lost", {"seat": seat, "pa": state.pa}))
        if any(u.owner == seat and (u.free_attack or u.attacks) for u in state.units):
            state = replace(
                state,
                units=tuple(
                    replace(u, free_attack=False, attacks=0)
                    if u.owner == seat and (u.free_attack or u.attacks)
                    else u
                    for u in state.units
                ),
            )
        state = replace(_clear(state), pa=0)
        player = state.players[seat]
        if not player.out and state.rules.deck_out == "end-of-turn" and not any(player.deck):
            events.append(Event("deck-out", {"seat": seat}))
            state = self._eliminate(state, seat, "exhausted", events)
            if state.phase == "over":
                return state
        return self._next_turn(state, events)

    def _next_turn(self, state: State, events: list[Event]) -> State:
        n = len(state.players)
        for k in range(1, n + 1):
            nxt = (state.active + k) % n
            if not state.players[nxt].out:
                return self._start_turn(state, nxt, events)
        return state  # unreachable: the game ends with one player left

    def _start_turn(
        self, state: State, seat: Seat, events: list[Event], first_turn: bool = False
    ) -> State:
        rules = state.rules
        inns = sum(1 for t in state.terrain if t.controller == seat and t.kind == "inn")
        pa = rules.base_pa + rules.inn_pa * inns
        state = replace(_clear(state), active=seat, pa=pa, turn=state.turn + 1)
        events.append(Event("turn", {"seat": seat, "turn": state.turn, "pa": pa}))
        if self._can_act(state):
            return replace(state, idle_turns=0) if state.idle_turns else state
        idle = state.idle_turns + 1
        living = sum(1 for p in state.players if not p.out)
        if idle > living:
            return self._finish(state, "stalemate", events)
        return self._end_turn(replace(state, idle_turns=idle), events)

    def _eliminate(self, state: State, seat: Seat, reason: str, events: list[Event]) -> State:
        """V22: the player's cards leave the table, their castle becomes an
        obstacle (or goes), their terrain becomes uncontrolled."""
        rules = state.rules
        castles = list(state.castles)
        castles[seat] = replace(castles[seat], fallen=True)
        terrain = state.terrain
        if rules.eliminated_terrain == "uncontrolled":
            terrain = tuple(
                replace(t, controller=-1) if t.controller == seat else t for t in terrain
            )
        player = state.players[seat]
        state = _set_player(state, seat, replace(player, out=True, hand=(), deck=(), known=()))
        combat = state.combat
        if combat is not None and seat in (combat.seat, combat.defender):
            combat = None
        state = replace(
            state,
            units=tuple(u for u in state.units if u.owner != seat),
            castles=tuple(castles),
            terrain=terrain,
            eliminated=(*state.eliminated, seat),
            combat=combat,
            phase="turn" if state.phase == "reveal" and combat is None else state.phase,
        )
        events.append(Event("eliminated", {"seat": seat, "reason": reason}))
        living = [s for s, p in enumerate(state.players) if not p.out]
        if len(living) <= 1:
            return self._finish(state, reason, events)
        return state

    def _finish(self, state: State, reason: str, events: list[Event]) -> State:
        living = tuple(s for s, p in enumerate(state.players) if not p.out)
        ranking = [living] if living else []
        ranking += [(s,) for s in reversed(state.eliminated)]
        state = replace(
            _clear(state), phase="over", ranking=tuple(ranking), end_reason=reason, combat=None
        )
        events.append(Event("game-over", {"reason": reason, "ranking": [list(g) for g in ranking]}))
        return state

    def resign(self, state: State, seat: Seat) -> tuple[State, tuple[Event, ...]]:
        """A resigning player is eliminated at once (V22 applies to their
        cards); the game goes on while two or more remain. An attack waiting
        for their reveal is called off (its PA stay spent)."""
        if state.phase == "over":
            raise GameOver("The game is over.", fr="La partie est terminée.")
        if not 0 <= seat < len(state.players) or state.players[seat].out:
            raise NotYourTurn(
                "You are not playing in this game.",
                fr="Vous ne jouez pas dans cette partie.",
                seat=seat,
            )
        events: list[Event] = [Event("resign", {"seat": seat})]
        was_active = state.active == seat
        state = self._eliminate(state, seat, "resign", events)
        if state.phase == "over":
            return state, tuple(events)
        if was_active:
            state = self._next_turn(_clear(state), events)
        elif state.phase in ("reveal", "free-dog"):
            state = self._settle(state, events)
        else:
            # a choice in progress may name a card that left: start it again
            state = self._after(_clear(state), events)
        return state, tuple(events)

    # ---- JSON codec ------------------------------------------------------------
    def encode_state(self, state: State) -> dict[str, Any]:
        """A compact JSON form (lists rather than objects for the cards on the
        table and the players): states are large and saved after every action."""
        return {"game": self.info.id, "schema": self.schema_version, "state": _encode(state)}

    def decode_state(self, data: Mapping[str, Any]) -> State:
        if data.get("game") != self.info.id:
            raise BadRecord(f"state of game {data.get('game')!r}, not {self.info.id!r}")
        if data.get("schema") != self.schema_version:
            raise BadRecord(
                f"state schema {data.get('schema')!r}; this engine reads {self.schema_version}"
            )
        try:
            return _decode(data["state"])
        except BadRecord:
            raise
        except (KeyError, IndexError, TypeError, ValueError, AttributeError) as exc:
            raise BadRecord(f"not a Via Belli state: {exc!r}") from None

    # ---- outcome & views ---------------------------------------------------
    def outcome(self, state: State) -> Outcome | None:
        if state.phase != "over":
            return None
        return Outcome(ranking=state.ranking, reason=state.end_reason)

    def view(self, state: State, seat: Seat | None) -> View:
        """What ``seat`` (None: a spectator) sees. Memoised by everything a view
        depends on, so that worlds a seat cannot tell apart share one view."""
        b = board_of(state)
        order = card_order(state.rules)
        players = tuple(
            (
                len(p.hand),
                sum(p.deck),
                p.discard,
                tuple(sorted((c for c, _ in p.known), key=order.__getitem__)),
                p.out,
                p.known,
            )
            for p in state.players
        )
        mine: tuple[object, ...] = ()
        if seat is not None:
            me = state.players[seat]
            mine = (
                tuple(sorted(me.hand)),
                tuple(u.name for u in state.units if u.owner == seat and not u.face_up),
                state.sel_card if seat == state.active else "",
            )
        if state.phase == "over":  # the view shows every face-down card
            mine = (*mine, tuple(u.name for u in state.units if not u.face_up))
        key = (  # the board fixes the rules and the cards on the table
            seat,
            state.cups,
            state.phase,
            state.turn,
            state.active,
            state.pa,
            state.sel_kind,
            state.sel_unit,
            state.sel_via,
            state.combat,
            state.last_seat,
            state.last_action,
            state.last_cells,
            state.ranking,
            state.end_reason,
            state.first_player,
            state.eliminated,
            state.idle_turns,
            state.clock,
            players,
            mine,
        )
        cache = b.views
        hit = cache.get(key)
        if hit is None:
            hit = cache[key] = self._view(state, seat)
        return hit

    def _view(self, state: State, seat: Seat | None) -> View:
        rules = state.rules
        b = board_of(state)
        pub = _public_parts(b)
        units = pub.units
        over = state.phase == "over"  # the game is over: every face-down card is shown
        own = (
            tuple(u.name for u in state.units if (over or u.owner == seat) and not u.face_up)
            if seat is not None or over
            else ()
        )
        if own:
            key = ("units-view", seat, own, over)
            cached = b.memo.get(key)
            if cached is None:
                table = card_table(rules)
                shown = list(units)
                for ui, u in enumerate(state.units):
                    if (over or u.owner == seat) and not u.face_up:
                        cd = table[u.name]
                        shown[ui] = replace(
                            units[ui],
                            name=u.name,
                            cost=cd.ivk,
                            ability=cd.ability or None,
                            printed_atk=cd.atk,
                            printed_def=cd.dfn,
                        )
                cached = b.memo[key] = tuple(shown)
            units = cached  # type: ignore[assignment]
        sides = _sides(len(state.players))
        order = self._card_order(state)
        players = []
        for p, pl in enumerate(state.players):
            players.append(
                PlayerView(
                    seat=p,
                    side=sides[p],
                    hand_count=len(pl.hand),
                    deck_count=sum(pl.deck),
                    hand=tuple(sorted(pl.hand, key=order.__getitem__)) if p == seat else None,
                    known=tuple(sorted((c for c, _ in pl.known), key=order.__getitem__)),
                    discard=pl.discard,
                    out=pl.out,
                    inns=pub.inns[p],
                    outposts=pub.outposts[p],
                    units=pub.unit_counts[p],
                    known_at=tuple(sorted(pl.known)),
                )
            )
        selection = None
        if state.sel_kind and state.phase not in ("turn", "over", "reveal"):
            selection = SelectionView(
                kind=state.sel_kind,
                card=(state.sel_card or None) if seat == state.active else None,
                unit=cell_text(*state.sel_unit) if state.sel_unit else None,
                via=cell_text(*state.sel_via) if state.sel_via else None,
            )
        combat = None
        if state.combat is not None:
            c = state.combat
            combat = CombatView(
                seat=c.seat,
                defender=c.defender,
                attackers=tuple(cell_text(*a) for a in c.attackers),
                target=cell_text(*c.target),
                candidates=tuple(cell_text(*a) for a in c.candidates),
            )
        choices: tuple[str, ...] = ()
        ghosts: tuple[tuple[int, int, bool], ...] = ()
        if seat is not None:
            legal = self.legal_actions(state, seat)
            choices = tuple(self.format_action(a) for a in legal)
            ghosts = tuple((a.x, a.y, a.landscape) for a in legal if isinstance(a, Summon | Move))
        return View(
            observer=seat,
            phase=state.phase,
            turn=state.turn,
            active=state.active,
            pending=tuple((s, d.kind) for s, d in self.pending(state).items()),
            pa=state.pa,
            table=rules.table,
            width=rules.width,
            height=rules.height,
            cell_mm=CELL_MM,
            columns=columns(rules.width),
            cups=state.cups,
            obstacles=pub.obstacles,
            castles=pub.castles,
            terrain=pub.terrain,
            units=units,
            supply=pub.links,
            players=tuple(players),
            selection=selection,
            combat=combat,
            choices=choices,
            ghosts=ghosts,
            last_seat=state.last_seat,
            last_action=state.last_action,
            last_cells=state.last_cells,
            ranking=state.ranking,
            end_reason=state.end_reason,
            cards=_card_infos(rules.cards),
            options=_rules_text(rules),
            rules=rules,
            first_player=state.first_player,
            eliminated=state.eliminated,
            initiative=state.initiative,
            clock=state.clock,
            idle_turns=state.idle_turns,
        )

    def determinize(self, state: State, seat: Seat | None, seed: int) -> State:
        """Resample what ``seat`` cannot see: other players' hands and
        face-down cards (drawn from what is neither on the table nor in a
        discard), the face-down terrain and the generator (which decides every
        future draw). A card known to be in a hand stays there, or becomes a
        face-down card placed after it became known. Once the game is over
        the views show every card: nothing is resampled."""
        if state.phase == "over":
            return state
        stream = rng.Stream(rng.seed_state(seed, "determinize"))
        below = _fast_below(stream)
        names = [c.name for c in state.rules.cards]
        index = card_order(state.rules)
        players = list(state.players)
        units = list(state.units)
        units_changed = False
        picking = state.phase == "spot" and state.sel_card
        hidden_by_owner: dict[int, list[int]] = {}
        for i, u in enumerate(units):
            if not u.face_up and u.owner != seat:
                hidden_by_owner.setdefault(u.owner, []).append(i)
        for p, pl in enumerate(players):
            if pl.out or p == seat:
                continue
            hidden_units = hidden_by_owner.get(p, [])
            keep = [state.sel_card] if picking and p == state.active else []
            known = sorted(pl.known, key=_latest_first) if pl.known else []
            for card in keep:
                for i, (name, _) in enumerate(known):
                    if name == card:
                        del known[i]
                        break
            n_hand = len(pl.hand) - len(keep)
            n_slots = n_hand + len(hidden_units)
            draws = n_slots - len(known)
            if draws <= 0 and len(known) <= 1 and not hidden_units:
                continue  # nothing hidden to resample
            counts = list(pl.deck)
            for card in pl.hand:
                counts[index[card]] += 1
            for i in hidden_units:
                counts[index[units[i].name]] += 1
            for card in keep:
                counts[index[card]] -= 1
            # slots 0..n_hand-1: the hand; then the face-down cards
            slots: list[str] = [""] * n_slots
            for card, when in known:
                free = [
                    k
                    for k in range(n_slots)
                    if not slots[k] and (k < n_hand or units[hidden_units[k - n_hand]].since > when)
                ]
                slots[free[below(len(free))]] = card
                counts[index[card]] -= 1
            pool: list[str] = []
            for k, c in enumerate(counts):
                if c > 0:
                    pool += [names[k]] * c
            size = len(pool)
            for j in range(draws):  # the first ``draws`` cards of a shuffled pool
                r = j + below(size - j)
                pool[j], pool[r] = pool[r], pool[j]
            fill = iter(pool[:draws])
            for k in range(n_slots):
                if not slots[k]:
                    card = next(fill)
                    slots[k] = card
                    counts[index[card]] -= 1
            players[p] = replace(pl, hand=tuple(keep + slots[:n_hand]), deck=tuple(counts))
            for i, name in zip(hidden_units, slots[n_hand:], strict=True):
                u = units[i]
                if u.name != name:
                    units[i] = _renamed(u, name)
                    units_changed = True
        terrain = state.terrain
        hidden_terrain = [i for i, t in enumerate(terrain) if not t.revealed]
        if len(hidden_terrain) > 1:
            kinds = [terrain[i].kind for i in hidden_terrain]
            for j in range(len(kinds) - 1, 0, -1):
                r = below(j + 1)
                kinds[j], kinds[r] = kinds[r], kinds[j]
            new = list(terrain)
            for i, kind in zip(hidden_terrain, kinds, strict=True):
                if new[i].kind != kind:
                    new[i] = replace(new[i], kind=kind)
            terrain = tuple(new)
        other = replace(
            state,
            players=tuple(players),
            units=tuple(units) if units_changed else state.units,
            terrain=terrain,
            rng=stream.below(1 << 62) + 1,
        )
        share_board(state, other)
        return other

    def sample_state(self, view: View, seed: int) -> State:
        """A state the observer of ``view`` cannot tell apart from the real one
        (for search bots, which only get views): what the view shows is kept;
        every player's unseen cards (their whole deck minus their cards face
        up on the table and in the discard) are dealt at random between hand,
        face-down cards and draw pile, each card known to be in a hand staying
        there or becoming a face-down card placed after it became known (and
        the card another player is placing being one that fits); the face-down
        terrain and the generator are drawn too."""
        seat = view.observer
        if seat is None:
            raise ValueError("sample_state needs a seat's view, not a spectator's")
        rules = view.rules
        stream = rng.Stream(rng.seed_state(seed, "sample-state"))
        below = _fast_below(stream)
        names = [c.name for c in rules.cards]
        index = card_order(rules)
        # face-down terrain: the kinds set out minus the kinds seen
        inns = rules.inns - sum(t.kind == "inn" for t in view.terrain)
        outposts = rules.outposts - sum(t.kind == "outpost" for t in view.terrain)
        inn: TerrainKind = "inn"
        outpost: TerrainKind = "outpost"
        hidden_kinds = list(stream.shuffle([inn] * inns + [outpost] * outposts))
        terrain = []
        for tv in view.terrain:
            kind: TerrainKind = inn if tv.kind == "inn" else outpost
            if tv.kind is None:
                kind = hidden_kinds.pop()
            terrain.append(
                Terrain(kind, tv.x, tv.y, tv.landscape, tv.kind is not None, tv.controller)
            )
        units = [
            Unit(
                u.owner,
                u.name or "",
                u.x,
                u.y,
                u.landscape,
                u.face_up,
                u.free_attack,
                u.attacks,
                u.since,
            )
            for u in view.units
        ]
        sel = view.selection
        sel_kind: SelKind = ""
        sel_card = ""
        sel_unit: Cell | None = None
        sel_via: Cell | None = None
        if sel is not None:
            sel_kind = sel.kind  # type: ignore[assignment]
            sel_card = sel.card or ""
            sel_unit = parse_cell(sel.unit) if sel.unit else None
            sel_via = parse_cell(sel.via) if sel.via else None
        combat = None
        if view.combat is not None:
            c = view.combat
            combat = Combat(
                c.seat,
                c.defender,
                tuple(_tag_cell(t) for t in c.attackers),
                _tag_cell(c.target),
                tuple(_tag_cell(t) for t in c.candidates),
            )
        state = State(
            rules=rules,
            cups=view.cups,
            castles=tuple(
                Castle(cv.owner, cv.x, cv.y, cv.landscape, cv.fallen) for cv in view.castles
            ),
            terrain=tuple(terrain),
            units=tuple(units),
            players=tuple(Player(out=pv.out) for pv in view.players),
            rng=0,
            phase=view.phase,  # type: ignore[arg-type]
            active=view.active,
            pa=view.pa,
            turn=view.turn,
            first_player=view.first_player,
            sel_kind=sel_kind,
            sel_card=sel_card,
            sel_unit=sel_unit,
            sel_via=sel_via,
            combat=combat,
            last_seat=view.last_seat,
            last_action=view.last_action,
            last_cells=view.last_cells,
            idle_turns=view.idle_turns,
            clock=view.clock,
            initiative=view.initiative,
            eliminated=view.eliminated,
            ranking=view.ranking,
            end_reason=view.end_reason,
        )
        # the card another player is placing: one that fits the choice made
        fits: set[str] = set()
        if view.phase == "spot" and not sel_card and sel_via is not None:
            fits = self._fitting_cards(state)
        players = []
        for pv in view.players:
            if pv.out:
                players.append(Player(discard=pv.discard, out=True))
                continue
            counts = [c.count for c in rules.cards]
            for card in pv.discard:
                counts[index[card]] -= 1
            for u in units:
                if u.owner == pv.seat and u.name:
                    counts[index[u.name]] -= 1
            if pv.seat == seat:
                assert pv.hand is not None
                for card in pv.hand:
                    counts[index[card]] -= 1
                players.append(
                    Player(hand=pv.hand, deck=tuple(counts), discard=pv.discard, known=pv.known_at)
                )
                continue
            known = sorted(pv.known_at, key=lambda k: -k[1])  # most constrained first
            keep: list[str] = []
            hidden = [i for i, u in enumerate(units) if u.owner == pv.seat and not u.name]
            if fits and pv.seat == view.active:
                # the card being placed is one of the hand: one that fits, and
                # leaves room for the cards known to be in the hand (a known
                # card is that card, or stays in the rest of the hand or in a
                # face-down card placed after it became known)
                since = [units[i].since for i in hidden]
                copies = [
                    c
                    for c in sorted(fits)
                    if _room_for_known(_known_without(known, c), pv.hand_count - 1, since)
                    for _ in range(max(0, counts[index[c]]))
                ]
                if not copies:
                    raise ValueError("view inconsistent: no card fits the placement in progress")
                card = copies[below(len(copies))]
                keep.append(card)
                sel_card = card
                counts[index[card]] -= 1
                known = _known_without(known, card)
            n_hand = pv.hand_count - len(keep)
            slots = [""] * (n_hand + len(hidden))
            for card, when in known:
                free = [
                    k
                    for k in range(len(slots))
                    if not slots[k] and (k < n_hand or units[hidden[k - n_hand]].since > when)
                ]
                if not free:
                    raise ValueError(f"view inconsistent: no place for seat {pv.seat}'s {card}")
                slots[free[below(len(free))]] = card
                counts[index[card]] -= 1
            pool = [names[k] for k, c in enumerate(counts) if c > 0 for _ in range(c)]
            draws = slots.count("")
            if len(pool) != draws + pv.deck_count:
                raise ValueError(
                    f"view inconsistent: seat {pv.seat} has {len(pool)} unseen cards for "
                    f"{draws} hidden places and a pile of {pv.deck_count}"
                )
            for j in range(draws):
                r = j + below(len(pool) - j)
                pool[j], pool[r] = pool[r], pool[j]
            fill = iter(pool[:draws])
            for k in range(len(slots)):
                if not slots[k]:
                    slots[k] = next(fill)
                    counts[index[slots[k]]] -= 1
            for i, name in zip(hidden, slots[n_hand:], strict=True):
                units[i] = _renamed(units[i], name)
            players.append(
                Player(
                    hand=tuple(keep + slots[:n_hand]),
                    deck=tuple(counts),
                    discard=pv.discard,
                    known=pv.known_at,
                )
            )
        return replace(
            state,
            units=tuple(units),
            players=tuple(players),
            sel_card=sel_card,
            rng=stream.below(1 << 62) + 1,
        )

    def _fitting_cards(self, state: State) -> set[str]:
        """The kinds of card the active player may be placing, given the choice
        in progress (face, anchor), whatever the hidden names on the table."""
        seat = state.active
        every = tuple(c.name for c in state.rules.cards)
        players = list(state.players)
        players[seat] = replace(players[seat], hand=every)
        before = replace(
            state,
            players=tuple(players),
            phase="free-dog" if state.sel_kind == "dog" else "anchor",
            sel_card="",
            sel_via=None,
        )
        hidden = state.sel_kind == "?"
        return {
            a.card
            for a in self._legal(before, seat)
            if isinstance(a, Anchor) and a.hidden == hidden and (a.x, a.y) == state.sel_via
        }

    # ---- notation ----------------------------------------------------------
    def format_action(self, action: Action) -> str:
        text = _FORMATTED.get(action)
        if text is None:
            text = self._format(action)
            if len(_FORMATTED) > 100_000:
                _FORMATTED.clear()
            _FORMATTED[action] = text
        return text

    def _format(self, action: Action) -> str:
        if isinstance(action, Draw):
            return "D"
        if isinstance(action, EndTurn):
            return "E"
        if isinstance(action, Begin):
            return action.kind
        if isinstance(action, Anchor):
            prefix = "?" if action.hidden else ""
            return f"{prefix}{action.card}@{cell_text(action.x, action.y)}"
        if isinstance(action, Pivot):
            return f"{cell_text(action.fx, action.fy)}@{cell_text(action.x, action.y)}"
        if isinstance(action, Summon):
            orient = "L" if action.landscape else "P"
            prefix = "?" if action.hidden else ""
            return f"{prefix}{action.card} {cell_text(action.x, action.y)}{orient}"
        if isinstance(action, Move):
            orient = "L" if action.landscape else "P"
            return f"{cell_text(action.fx, action.fy)}>{cell_text(action.x, action.y)}{orient}"
        if isinstance(action, Recall):
            return "<" + cell_text(action.x, action.y)
        if isinstance(action, Attack):
            return (
                "+".join(cell_text(*c) for c in action.attackers) + "x" + cell_text(*action.target)
            )
        if isinstance(action, Sorcery):
            return "^" + action.card
        if isinstance(action, Reveal):
            return "!" + cell_text(action.x, action.y)
        return "-"

    def parse_action(self, text: str) -> Action:
        action = _PARSED.get(text)
        if action is None:
            action = self._parse(text)
            if len(_PARSED) > 100_000:
                _PARSED.clear()
            _PARSED[text] = action
        return action

    def _parse(self, text: str) -> Action:
        raw = text.strip()
        flat = _plain(raw).upper()
        compact = re.sub(r"\s+", "", flat)
        if compact in _WORDS:
            return _WORDS[compact]
        if m := _PIVOT_RE.match(compact):
            fx, fy = _cell(m.group(1), text)
            x, y = _cell(m.group(2), text)
            return Pivot(fx, fy, x, y)
        if m := _REVEAL_RE.match(compact):
            x, y = _cell(m.group(1), text)
            return Reveal(x, y)
        if m := _RECALL_RE.match(compact):
            x, y = _cell(m.group(1), text)
            return Recall(x, y)
        if m := _MOVE_RE.match(compact):
            fx, fy = _cell(m.group(1), text)
            x, y = _cell(m.group(2), text)
            return Move(fx, fy, x, y, _orient(m.group(3)))
        if m := _ATTACK_RE.match(compact):
            cells = sorted({_cell(c, text) for c in m.group(1).split("+")})
            return Attack(tuple(cells), _cell(m.group(2), text))
        if compact.startswith("^") and len(compact) > 1:
            card = _card_name(compact[1:])
            if card:
                return Sorcery(card)
        if m := _SUMMON_RE.match(flat):
            card = _card_name(m.group(2))
            if card:
                x, y = _cell(m.group(3), text)
                return Summon(card, m.group(1) == "?", x, y, _orient(m.group(4)))
        if m := _ANCHOR_RE.match(flat):
            card = _card_name(m.group(2))
            if card:
                x, y = _cell(m.group(3), text)
                return Anchor(card, m.group(1) == "?", x, y)
        raise BadNotation(
            f"{text!r} is not a Via Belli move. Examples: D (draw), + (summon), ? (ambush), "
            "> (move), < (recall), x (attack), ^ (Sorcier), Roturier@C5 (the card and the "
            "card to place it against), Roturier C5P (summon at C5 standing; L: lying), "
            "?Clerc H9L (ambush), C5@D9 (the card to move and its pivot), C5>D9L (move), "
            "<C5 (recall), C5+F5xD9 (attack D9 with C5 and F5), ^Roturier (Sorcier), "
            "!C5 (reveal), - (back).",
            fr=f"{text!r} n'est pas un coup de Via Belli. Exemples : D (piocher), + (invoquer), "
            "? (embuscade), > (déplacer), < (rapatrier), x (attaquer), ^ (Sorcier), "
            "Roturier@C5 (la carte et la carte contre laquelle la poser), Roturier C5P "
            "(invoquer en C5 debout ; L : couchée), ?Clerc H9L (embuscade), C5@D9 (la carte "
            "à déplacer et son pivot), C5>D9L (déplacer), <C5 (rapatrier), C5+F5xD9 (attaquer "
            "D9 avec C5 et F5), ^Roturier (Sorcier), !C5 (révéler), - (retour).",
            text=text,
        )

    # ---- texts ---------------------------------------------------------------
    def _why_illegal(self, state: State, seat: Seat, action: Action) -> tuple[str, str]:
        """Why an action is refused: (English, French)."""
        phase = state.phase
        rules = state.rules
        player = state.players[seat]
        table = card_table(rules)
        if phase == "turn":
            pa = state.pa
            if isinstance(action, Draw):
                if not any(player.deck):
                    return "Your draw pile is empty.", "Votre pioche est vide."
                if rules.hand_limit and len(player.hand) >= rules.hand_limit:
                    return (
                        f"Your hand is full ({rules.hand_limit} cards).",
                        f"Votre main est pleine ({rules.hand_limit} cartes).",
                    )
                return "You have no action point left.", "Il ne vous reste aucun point d'action."
            if isinstance(action, EndTurn):
                return (
                    f"Your turn ends only when your action points are spent ({pa} left).",
                    f"Votre tour ne s'achève qu'une fois vos points d'action dépensés ({pa} restants).",
                )
            if isinstance(action, Summon):
                return self._why_not_summon(state, seat, action)
            if isinstance(action, Begin):
                en, fr = {
                    "+": (
                        "You cannot summon any card now (not enough PA, or no free place).",
                        "Vous ne pouvez invoquer aucune carte (pas assez de PA, ou aucune place).",
                    ),
                    ">": (
                        "None of your cards can move or be recalled now.",
                        "Aucune de vos cartes ne peut se déplacer ni être rapatriée.",
                    ),
                    "x": (
                        "None of your cards can attack now.",
                        "Aucune de vos cartes ne peut attaquer.",
                    ),
                    "^": (
                        "The Sorcier needs to be on the table, face up, and a card of the discard "
                        "you can pay for.",
                        "Il faut un Sorcier face visible en jeu et une carte de la défausse que vous "
                        "pouvez payer.",
                    ),
                }[action.kind]
                return en, fr
            b = board_of(state)
            if isinstance(action, Move):
                ci = b.at((action.fx, action.fy))
                if ci < 0 or b.kind[ci] != K_UNIT or b.owner[ci] != seat:
                    where = cell_text(action.fx, action.fy)
                    return f"You have no card at {where}.", f"Vous n'avez pas de carte en {where}."
                if pa < 1:
                    return (
                        "You have no action point left.",
                        "Il ne vous reste aucun point d'action.",
                    )
                return (
                    "That place is not free, does not touch a card next to yours, or would cut "
                    "your supply.",
                    "Cette place n'est pas libre, ne touche pas une carte voisine de la vôtre, ou "
                    "couperait votre ravitaillement.",
                )
            if isinstance(action, Recall):
                ci = b.at((action.x, action.y))
                where = cell_text(action.x, action.y)
                if ci < 0 or b.kind[ci] != K_UNIT or b.owner[ci] != seat:
                    return f"You have no card at {where}.", f"Vous n'avez pas de carte en {where}."
                if not b.unit(ci).face_up and not rules.recall_face_down:
                    return (
                        "Only face-up cards can be recalled.",
                        "Seules les cartes face visible peuvent être rapatriées.",
                    )
                return (
                    f"Recalling {where} would cut other cards off your castle.",
                    f"Rapatrier {where} couperait d'autres cartes de votre château.",
                )
            if isinstance(action, Attack):
                return (
                    "Those cards cannot attack that target together (they must be yours, face "
                    "up and touching it, except an Archer; 1 PA each).",
                    "Ces cartes ne peuvent pas attaquer cette cible ensemble (vos cartes face "
                    "visible qui la touchent, sauf l'Archer ; 1 PA chacune).",
                )
            if isinstance(action, Sorcery):
                if action.card not in player.discard:
                    return (
                        f"There is no {action.card} in your discard.",
                        f"Il n'y a pas {de(action.card, mute_h=False)} dans votre défausse.",
                    )
                return (
                    f"You need a face-up Sorcier and {table[action.card].ivk} PA.",
                    f"Il faut un Sorcier face visible et {table[action.card].ivk} PA.",
                )
            return (
                "Now choose an action: D, +, ?, >, <, x or ^ (or a complete move such as "
                "Roturier C5P).",
                "Choisissez une action : D, +, ?, >, <, x ou ^ (ou un coup complet comme "
                "Roturier C5P).",
            )
        if phase in ("anchor", "free-dog") and isinstance(action, Anchor):
            if action.card not in player.hand:
                return (
                    f"You have no {action.card} in hand.",
                    f"Vous n'avez pas {de(action.card, mute_h=False)} en main.",
                )
            cd = table[action.card]
            if phase == "free-dog" and cd.ability != "dog":
                return (
                    "Only a dog can be summoned for free.",
                    "Seul un chien peut être invoqué gratuitement.",
                )
            if phase == "anchor" and not action.hidden and cd.ivk > state.pa:
                return (
                    f"The {action.card} costs {cd.ivk} PA; you have {state.pa}.",
                    f"Le {action.card} coûte {cd.ivk} PA ; il vous en reste {state.pa}.",
                )
            where = cell_text(action.x, action.y)
            return (
                f"The card at {where} is not a place to summon the {action.card} against (it must "
                "be your castle, an outpost you hold, or a linked card of yours touching no "
                "enemy, with a free place along it).",
                f"La carte en {where} ne permet pas d'invoquer le {action.card} (il faut votre "
                "château, un avant-poste que vous contrôlez ou une de vos cartes reliée qui ne "
                "touche aucun ennemi, avec une place libre le long).",
            )
        if phase == "spot" and isinstance(action, Summon):
            return self._why_not_summon(state, seat, action)
        expected = {
            "anchor": (
                "choose the card and the card to place it against (Roturier@C5)",
                "choisissez la carte et la carte contre laquelle la poser (Roturier@C5)",
            ),
            "free-dog": (
                "choose a dog and where (Molosse Masqué@C5), or - to pass",
                "choisissez un chien et où (Molosse Masqué@C5), ou - pour passer",
            ),
            "spot": ("choose the spot (Roturier C5P)", "choisissez la place (Roturier C5P)"),
            "pivot": (
                "choose the card to move and its pivot (C5@D9), or to recall (<C5)",
                "choisissez la carte à déplacer et son pivot (C5@D9), ou à rapatrier (<C5)",
            ),
            "destination": (
                "choose the destination (C5>D9L)",
                "choisissez la destination (C5>D9L)",
            ),
            "attack": (
                "choose the attackers and the target (C5+F5xD9)",
                "choisissez les attaquants et la cible (C5+F5xD9)",
            ),
            "sorcery": (
                "choose a card of the discard (^Roturier)",
                "choisissez une carte de la défausse (^Roturier)",
            ),
            "reveal": (
                "choose the ambush card to reveal (!C5)",
                "choisissez la carte en embuscade à révéler (!C5)",
            ),
        }.get(phase, ("wait", "attendez"))
        cancel_en = " (or - to go back)" if phase in SUB_PHASES else ""
        cancel_fr = " (ou - pour revenir)" if phase in SUB_PHASES else ""
        return (
            f"That is not possible now: {expected[0]}{cancel_en}.",
            f"Impossible maintenant : {expected[1]}{cancel_fr}.",
        )

    def _why_not_summon(self, state: State, seat: Seat, a: Summon) -> tuple[str, str]:
        rules = state.rules
        player = state.players[seat]
        table = card_table(rules)
        if a.card not in player.hand:
            return (
                f"You have no {a.card} in hand.",
                f"Vous n'avez pas {de(a.card, mute_h=False)} en main.",
            )
        cost = rules.ambush_cost if a.hidden else table[a.card].ivk
        if state.phase == "turn" and cost > state.pa:
            return (
                f"That costs {cost} PA; you have {state.pa}.",
                f"Cela coûte {cost} PA ; il vous en reste {state.pa}.",
            )
        r = card_rect(a.x, a.y, a.landscape)
        where = cell_text(a.x, a.y)
        if not r.inside(rules.width, rules.height):
            return (
                f"A card at {where} would leave the table.",
                f"Une carte en {where} sortirait de la table.",
            )
        b = board_of(state)
        if b.geo.fp(r.x, r.y, r.w, r.h) & b.occ:
            return (
                f"The place at {where} is not free (a card or a cup is there).",
                f"La place en {where} n'est pas libre (une carte ou une tasse s'y trouve).",
            )
        if self._placement(state, a.card, a.hidden) == "spy":
            return (
                "The Espion must touch an enemy card.",
                "L'Espion doit être posé au contact d'une carte ennemie.",
            )
        return (
            f"A card at {where} must touch your castle, an outpost you hold, or one of your "
            "linked cards that touches no enemy.",
            f"Une carte en {where} doit toucher votre château, un avant-poste que vous contrôlez "
            "ou une de vos cartes reliée qui ne touche aucun ennemi.",
        )

    def decision_text(
        self, decision: Decision, locale: str = "en", names: Sequence[str] = ()
    ) -> str:
        fr = locale.lower().startswith("fr")
        kind = decision.kind
        if kind == "reveal":
            target = decision.param("target")
            attacker = decision.param("attacker")
            if isinstance(attacker, int) and 0 <= attacker < len(names):
                who = names[attacker]
            else:
                who = f"{'le joueur' if fr else 'player'} {int(attacker or 0) + 1}"
            if fr:
                return (
                    f"{who} attaque votre carte en {target} : choisissez la carte en embuscade à "
                    "retourner (!case)."
                )
            return f"{who} attacks your card at {target}: choose the ambush card to reveal (!cell)."
        if not fr:
            return decision.text
        pa = decision.param("pa")
        return {
            "turn": f"À vous, {pa} PA restants : piocher (D), invoquer (+), déplacer ou "
            "rapatrier (>), attaquer (x) ou Sorcier (^).",
            "anchor": "Choisissez la carte et la carte contre laquelle la poser (Roturier@C5 ; "
            "?Roturier@C5 en embuscade).",
            "spot": "Choisissez la place : case en haut à gauche et P (debout) ou L (couchée) ; "
            "- pour revenir.",
            "pivot": "Choisissez la carte à déplacer et la carte le long de laquelle (C5@D9), ou "
            "la carte à rapatrier (<C5).",
            "destination": "Choisissez la destination : case en haut à gauche et P ou L ; "
            "- pour revenir.",
            "attack": "Choisissez les attaquants et la cible (C5+F5xD9).",
            "sorcery": "Sorcier : choisissez la carte à reprendre dans la défausse (^Roturier).",
            "free-dog": "Chien : invoquez gratuitement un autre chien (Cabot à Couteau@C5), ou "
            "passez (-).",
        }.get(kind, decision.text)

    def describe_action(self, state: State, seat: Seat, action: Action, locale: str = "en") -> str:
        fr = locale.lower().startswith("fr")
        table = card_table(state.rules)
        if isinstance(action, Draw):
            return "Piocher (1 PA)" if fr else "Draw (1 PA)"
        if isinstance(action, EndTurn):
            return "Finir le tour" if fr else "End the turn"
        if isinstance(action, Begin):
            labels = {
                "+": ("Invoquer / embuscade", "Summon / ambush"),
                ">": ("Déplacer / rapatrier (1 PA)", "Move / recall (1 PA)"),
                "x": ("Attaquer (1 PA par carte)", "Attack (1 PA per card)"),
                "^": ("Sorcier", "Sorcier"),
            }[action.kind]
            return labels[0] if fr else labels[1]
        if isinstance(action, Cancel):
            if state.phase == "free-dog":
                return "Pas de chien gratuit" if fr else "No free dog"
            return "Annuler" if fr else "Cancel"
        if isinstance(action, Summon | Move):
            orient = (
                ("couchée" if fr else "lying")
                if action.landscape
                else ("debout" if fr else "standing")
            )
            where = f"{cell_text(action.x, action.y)} {orient}"
            if isinstance(action, Summon):
                hidden = (
                    " (embuscade)" if fr and action.hidden else " (ambush)" if action.hidden else ""
                )
                return f"{action.card} → {where}{hidden}"
            return f"{cell_text(action.fx, action.fy)} → {where}"
        if isinstance(action, Sorcery):
            return (
                f"{'Reprendre' if fr else 'Take back'} {action.card} ({table[action.card].ivk} PA)"
            )
        b = board_of(state)
        if isinstance(action, Anchor):
            cd = table[action.card]
            if state.phase == "free-dog":
                cost = "gratuit" if fr else "free"
            elif action.hidden:
                cost = ("embuscade, " if fr else "ambush, ") + f"{state.rules.ambush_cost} PA"
            else:
                cost = f"{cd.ivk} PA"
            against = _card_label(state, b, b.at((action.x, action.y)), seat, fr)
            return (
                f"{cd.name} ({cost}, {cd.atk}/{cd.dfn}) {'contre' if fr else 'against'} {against}"
            )
        if isinstance(action, Pivot):
            mover = _card_label(state, b, b.at((action.fx, action.fy)), seat, fr)
            pivot = _card_label(state, b, b.at((action.x, action.y)), seat, fr)
            return f"{mover} {'le long ' + de(pivot, mute_h=False) if fr else 'along ' + pivot}"
        if isinstance(action, Recall | Reveal):
            label = _card_label(state, b, b.at((action.x, action.y)), seat, fr)
            if isinstance(action, Recall):
                return f"{'Rapatrier' if fr else 'Recall'} {label}"
            return f"{'Retourner' if fr else 'Reveal'} {label}"
        assert isinstance(action, Attack)
        t = b.at(action.target)
        cis = [b.at(c) for c in action.attackers]
        atk = sum(b.atk(c) for c in cis)
        if b.kind[t] == K_TERRAIN:
            holders = [k for k in b.adj[t] if b.owner[k] == b.owner[t] and b.kind[k] != K_TERRAIN]
            dfn = sum(b.dfn(k) for k in holders)
        else:
            dfn = b.dfn(t)
        who = " + ".join(_card_label(state, b, c, seat, fr) for c in cis)
        return f"{who} → {_card_label(state, b, t, seat, fr)} ({atk} ATK / {dfn} DEF)"

    # ---- menus for hosts -----------------------------------------------------
    def action_menu(
        self, state: State, seat: Seat, locale: str = "en"
    ) -> list[tuple[Action, tuple[MenuStep, ...]]]:
        """The actions to pick in steps. At the turn decision (and the free
        dog's): complete actions, by what (draw, a card to summon face up or
        in ambush, a card to move or recall, a target, a Sorcier card), then
        the anchor or pivot, then the spot (``Roturier G11P`` stands for its
        steps there). A spot along several anchors is listed under the first
        one, the anchor a typed ``Roturier G11P`` uses. In a step reached by
        typing: that step's actions, grouped the same way."""
        fr = locale.lower().startswith("fr")
        phase = state.phase
        if phase not in ("turn", "free-dog", "anchor", "pivot", "attack"):
            return list(super().action_menu(state, seat, locale))
        b = board_of(state)
        out: list[tuple[Action, tuple[MenuStep, ...]]] = []
        seen: set[Action] = set()

        def add(action: Action, path: tuple[MenuStep, ...]) -> None:
            if action not in seen:
                seen.add(action)
                out.append((action, path))

        def expand(s: State, step: Anchor | Pivot) -> None:
            head = self._menu_head(s, b, seat, step, fr)
            last = self._step(s, seat, step, [])
            for a in self._legal(last, seat):
                add(a, (*head, self._menu_place(a, fr)))

        for action in self.legal_actions(state, seat):
            if isinstance(action, Begin):
                after = self._step(state, seat, action, [])
                for step in self._legal(after, seat):
                    if isinstance(step, Anchor | Pivot):
                        expand(after, step)
                    else:
                        add(step, self._menu_head(after, b, seat, step, fr))
            elif isinstance(action, Anchor) and phase == "free-dog":
                expand(state, action)
            elif isinstance(action, Anchor | Pivot | Recall | Attack):
                add(action, self._menu_head(state, b, seat, action, fr))
            else:
                text = self.format_action(action)
                label = self.describe_action(state, seat, action, locale)
                add(action, (MenuStep(text, label, text),))
        return out

    def _menu_head(
        self, state: State, b: Board, seat: Seat, action: Action, fr: bool
    ) -> tuple[MenuStep, ...]:
        """The first choices of a step action in :meth:`action_menu`."""
        table = card_table(state.rules)
        locale = "fr" if fr else "en"
        if isinstance(action, Anchor):
            cd = table[action.card]
            if state.phase == "free-dog":
                what = MenuStep(
                    "+" + cd.name,
                    f"Chien gratuit : {cd.name}" if fr else f"Free dog: {cd.name}",
                    f"{cd.atk}/{cd.dfn}",
                )
            elif action.hidden:
                cost = state.rules.ambush_cost
                what = MenuStep(
                    "?" + cd.name,
                    f"{'Embuscade' if fr else 'Ambush'}{' :' if fr else ':'} {cd.name} ({cost} PA)",
                    f"?{cd.name} · {'face cachée' if fr else 'face down'}",
                )
            else:
                what = MenuStep(
                    "+" + cd.name,
                    f"{'Invoquer' if fr else 'Summon'} {cd.name} ({cd.ivk} PA, {cd.atk}/{cd.dfn})",
                    cd.name,
                )
            anchor = _card_label(state, b, b.at((action.x, action.y)), seat, fr)
            where = MenuStep(
                "@" + cell_text(action.x, action.y),
                f"{'contre' if fr else 'against'} {anchor}",
                self.format_action(action),
            )
            return what, where
        if isinstance(action, Pivot | Recall):
            cell = (action.fx, action.fy) if isinstance(action, Pivot) else (action.x, action.y)
            mover = _card_label(state, b, b.at(cell), seat, fr)
            what = MenuStep(
                ">" + cell_text(*cell),
                f"{'Déplacer / rapatrier' if fr else 'Move / recall'} {mover}",
                "1 PA",
            )
            if isinstance(action, Recall):
                text = self.format_action(action)
                return what, MenuStep(text, self.describe_action(state, seat, action, locale), text)
            pivot = _card_label(state, b, b.at((action.x, action.y)), seat, fr)
            return what, MenuStep(
                "@" + cell_text(action.x, action.y),
                "le long " + de(pivot, mute_h=False) if fr else f"along {pivot}",
                self.format_action(action),
            )
        text = self.format_action(action)
        label = self.describe_action(state, seat, action, locale)
        if isinstance(action, Attack):
            target = _card_label(state, b, b.at(action.target), seat, fr)
            what = MenuStep(
                "x" + cell_text(*action.target), f"{'Attaquer' if fr else 'Attack'} {target}"
            )
            return what, MenuStep(text, label, text)
        return (MenuStep(text, label, text),)

    def _menu_place(self, action: Action, fr: bool) -> MenuStep:
        """The last choice of a summon or a move: the spot, by its cell."""
        text = self.format_action(action)
        if isinstance(action, Summon | Move):
            if action.landscape:
                orient = "couchée" if fr else "lying"
            else:
                orient = "debout" if fr else "standing"
            return MenuStep(text, f"{cell_text(action.x, action.y)} {orient}", text)
        return MenuStep(text, text, text)

    def describe_event(self, event: Event, names: Sequence[str], locale: str = "en") -> str | None:
        fr = locale.lower().startswith("fr")
        d = event.data

        def who(key: str = "seat") -> str:
            seat = d.get(key)
            if not isinstance(seat, int) or not 0 <= seat < len(names):
                return "?"
            return names[seat]

        kind = event.kind
        orient = {"P": "debout" if fr else "standing", "L": "couchée" if fr else "lying"}
        if kind == "deal":
            cards = d.get("cards")
            if isinstance(cards, list):
                return f"{'Votre main' if fr else 'Your hand'}{colon(fr)} {', '.join(cards)}."
            return None
        if kind in ("initiative", "initiative-tie"):
            shown = [
                f"{names[s] if s < len(names) else s + 1}{colon(fr)} {c}"
                for s, c in enumerate(d.get("cards", []))
                if c
            ]
            label = "Initiative" if kind == "initiative" else ("Départage" if fr else "Tie-break")
            return f"{label} — {', '.join(shown)}."
        if kind == "first-player":
            return f"{who()} {'commence' if fr else 'starts'}."
        if kind == "turn":
            return f"{'Tour ' + de(who()) if fr else 'Turn of ' + who()} ({d.get('pa')} PA)."
        if kind == "draw":
            card = d.get("card")
            if card:
                return f"{who()} {'pioche' if fr else 'draws'} {card}."
            return f"{who()} {'pioche une carte' if fr else 'draws a card'}."
        if kind == "summon":
            return (
                f"{who()} invoque {d['card']} en {d['tag']} ({orient.get(str(d['orient']))})."
                if fr
                else f"{who()} summons {d['card']} at {d['tag']} ({orient.get(str(d['orient']))})."
            )
        if kind == "ambush":
            card = d.get("card")
            extra = f" ({card})" if card else ""
            return (
                f"{who()} pose une carte en embuscade en {d['tag']}{extra}."
                if fr
                else f"{who()} places an ambush card at {d['tag']}{extra}."
            )
        if kind == "free-dog":
            return f"{'Chien gratuit' if fr else 'Free dog'}{colon(fr)} {d['card']}."
        if kind == "move":
            card = d.get("card") or ("une carte" if fr else "a card")
            return (
                f"{who()} déplace {card} de {d['from']} en {d['tag']}."
                if fr
                else f"{who()} moves {card} from {d['from']} to {d['tag']}."
            )
        if kind == "recall":
            card = d.get("card") or ("une carte" if fr else "a card")
            return (
                f"{who()} rapatrie {card} ({d['tag']})."
                if fr
                else f"{who()} recalls {card} ({d['tag']})."
            )
        if kind == "sorcery":
            return (
                f"Sorcier : {who()} reprend {d['card']} de la défausse."
                if fr
                else f"Sorcier: {who()} takes {d['card']} back from the discard."
            )
        if kind == "ambush-revealed":
            return (
                f"Embuscade ! {d['card']} est retourné en {d['tag']}."
                if fr
                else f"Ambush! {d['card']} is revealed at {d['tag']}."
            )
        if kind == "attack":
            result = {
                "win": ("la cible tombe", "the target falls"),
                "lose": ("les attaquants tombent", "the attackers fall"),
                "tie": ("égalité", "tie"),
            }[str(d["result"])]
            dead = d.get("dead") or []
            fallen = ", ".join(f"{x['card']} ({x['tag']})" for x in dead if isinstance(x, dict))
            tail = (f" — morts : {fallen}" if fr else f" — dead: {fallen}") if fallen else ""
            attackers = "+".join(d.get("attackers", []))
            if fr:
                return (
                    f"{who()} attaque {d['target']} avec {attackers} : {d['atk']} ATK contre "
                    f"{d['def']} DEF, {result[0]}{tail}."
                )
            return (
                f"{who()} attacks {d['target']} with {attackers}: {d['atk']} ATK against "
                f"{d['def']} DEF, {result[1]}{tail}."
            )
        if kind == "cut-off":
            cards = [c or ("carte cachée" if fr else "face-down card") for c in d.get("cards", [])]
            return (
                f"Coupées du château, retour en main {de(who())} : {', '.join(cards)}."
                if fr
                else f"Cut off from the castle, back to {who()}'s hand: {', '.join(cards)}."
            )
        if kind == "terrain-revealed":
            name = _terrain_name(str(d["kind"]), fr)
            return f"{d['tag']}{colon(fr)} {name}."
        if kind == "control":
            name = _terrain_name(str(d["kind"]), fr)
            return (
                f"{who()} prend le contrôle de l'{name} ({d['tag']})."
                if fr
                else f"{who()} takes control of the {name} ({d['tag']})."
            )
        if kind == "siege":
            name = _terrain_name(str(d["kind"]), fr)
            if d.get("success"):
                return (
                    f"Siège réussi : {who()} prend l'{name} ({d['tag']})."
                    if fr
                    else f"Siege won: {who()} takes the {name} ({d['tag']})."
                )
            return (
                f"Siège repoussé ({name}, {d['tag']})."
                if fr
                else f"Siege repelled ({name}, {d['tag']})."
            )
        if kind == "inn-bonus":
            return f"{who()}{colon(fr)} +{d['pa']} PA ({'auberge' if fr else 'inn'})."
        if kind == "conquest":
            return (
                f"{who()} conquiert le château {de(who('target'))} !"
                if fr
                else f"{who()} conquers {who('target')}'s castle!"
            )
        if kind == "deck-out":
            return f"{'Pioche épuisée' if fr else 'Draw pile exhausted'}{colon(fr)} {who()}."
        if kind == "eliminated":
            return f"{who()} {'quitte la partie' if fr else 'is out'}."
        if kind == "pa-lost":
            return (
                f"{who()} perd {d['pa']} PA (aucune action possible)."
                if fr
                else f"{who()} loses {d['pa']} PA (nothing can be done)."
            )
        if kind == "end-turn":
            return f"{who()} {'finit son tour' if fr else 'ends the turn'}."
        if kind == "resign":
            return f"{who()} {'abandonne' if fr else 'resigns'}."
        if kind == "game-over":
            ranking = d.get("ranking") or []
            if ranking and ranking[0] and len(ranking[0]) == 1:
                winner = ranking[0][0]
                name = names[winner] if isinstance(winner, int) and winner < len(names) else "?"
                return (
                    f"{name} {'remporte la partie' if fr else 'wins'} !" if fr else f"{name} wins!"
                )
            return "Fin de la partie." if fr else "Game over."
        return None

    def summary(self, view: View, names: Sequence[str], locale: str = "en") -> str:
        fr = locale.lower().startswith("fr")

        def name(seat: int) -> str:
            return names[seat] if 0 <= seat < len(names) else f"#{seat + 1}"

        lines = [
            f"Table {view.width}x{view.height} "
            f"({view.width * view.cell_mm // 10}x{view.height * view.cell_mm // 10} cm), "
            f"{'tour' if fr else 'turn'} {view.turn}, {name(view.active)}{colon(fr)} {view.pa} PA"
        ]
        for p in view.players:
            castle = view.castles[p.seat]
            status = (" — " + ("hors jeu" if fr else "out")) if p.out else ""
            side = _SIDE_WORDS.get(p.side, ("", ""))[0 if fr else 1]
            lines.append(
                f"{p.seat + 1}. {name(p.seat)} ({side}) {'château' if fr else 'castle'} {castle.tag}"
                f" DEF {castle.dfn}, {p.hand_count} {'en main' if fr else 'in hand'}, "
                f"{p.deck_count} {'en pioche' if fr else 'in deck'}, {p.inns} "
                f"{'auberge(s)' if fr else 'inn(s)'}, {p.outposts} {'avant-poste(s)' if fr else 'outpost(s)'}"
                f"{status}"
            )
            if p.hand is not None:
                lines.append(
                    f"   {'Votre main' if fr else 'Your hand'}{colon(fr)} {', '.join(p.hand) or '—'}"
                )
        for t in view.terrain:
            kind = _terrain_name(t.kind, fr) if t.kind else ("face cachée" if fr else "face down")
            holder = name(t.controller) if t.controller >= 0 else "—"
            lines.append(f"   {t.tag}{colon(fr)} {kind} ({holder})")
        for u in view.units:
            label = u.name or ("carte cachée" if fr else "face-down card")
            if not u.face_up and u.name:
                label += " (embuscade)" if fr else " (ambush)"
            orient = "L" if u.landscape else "P"
            lines.append(f"   {name(u.owner)}{colon(fr)} {label} {u.tag}{orient} {u.atk}/{u.dfn}")
        return "\n".join(lines)


# ---------------------------------------------------------------------------
# The compact JSON codec
# ---------------------------------------------------------------------------

_RULES_JSON: dict[int, tuple[Rules, Any]] = {}
_PHASES = frozenset(get_args(Phase))
_SEL_KINDS = frozenset(get_args(SelKind))


def _rules_json(rules: Rules) -> Any:
    hit = _RULES_JSON.get(id(rules))
    if hit is None or hit[0] is not rules:
        if len(_RULES_JSON) > 64:
            _RULES_JSON.clear()
        hit = (rules, codec.to_jsonable(rules))
        _RULES_JSON[id(rules)] = hit
    return hit[1]


_RULES_DECODED: dict[str, Rules] = {}


_LAST_RULES: tuple[Any, Any] = (None, None)
"""The last rules decoded and their JSON (one tuple: swapped atomically)."""


def _decode_rules(d: Any) -> Rules:
    """Rules from JSON (memoised: every saved state repeats them)."""
    global _LAST_RULES
    last_json, last = _LAST_RULES
    if d == last_json:
        known: Rules = last
        return known
    key = json.dumps(d, sort_keys=True, separators=(",", ":"))
    rules = _RULES_DECODED.get(key)
    if rules is None:
        rules = codec.from_jsonable(Rules, d)
        if len(_RULES_DECODED) > 64:
            _RULES_DECODED.clear()
        _RULES_DECODED[key] = rules
    _LAST_RULES = (json.loads(key), rules)  # a private copy: the caller may change its data
    return rules


def _cell_json(cell: Cell | None) -> list[int] | None:
    return None if cell is None else [cell[0], cell[1]]


def _encode(state: State) -> dict[str, Any]:
    combat = state.combat
    return {
        "rules": _rules_json(state.rules),
        "cups": [list(c) for c in state.cups],
        "castles": [[c.owner, c.x, c.y, c.landscape, c.fallen] for c in state.castles],
        "terrain": [
            [t.kind, t.x, t.y, t.landscape, t.revealed, t.controller] for t in state.terrain
        ],
        "units": [
            [u.owner, u.name, u.x, u.y, u.landscape, u.face_up, u.free_attack, u.attacks, u.since]
            for u in state.units
        ],
        "players": [
            [list(p.hand), list(p.deck), list(p.discard), [list(k) for k in p.known], p.out]
            for p in state.players
        ],
        "rng": state.rng,
        "phase": state.phase,
        "active": state.active,
        "pa": state.pa,
        "turn": state.turn,
        "first_player": state.first_player,
        "sel": [
            state.sel_kind,
            state.sel_card,
            _cell_json(state.sel_unit),
            _cell_json(state.sel_via),
        ],
        "combat": None
        if combat is None
        else [
            combat.seat,
            combat.defender,
            [list(c) for c in combat.attackers],
            list(combat.target),
            [list(c) for c in combat.candidates],
        ],
        "last": [state.last_seat, state.last_action, [list(c) for c in state.last_cells]],
        "idle_turns": state.idle_turns,
        "clock": state.clock,
        "initiative": [list(r) for r in state.initiative],
        "eliminated": list(state.eliminated),
        "ranking": [list(g) for g in state.ranking],
        "end_reason": state.end_reason,
    }


def _i(v: Any) -> int:
    if type(v) is not int:
        raise BadRecord(f"expected an integer, got {v!r}")
    return v


def _s(v: Any) -> str:
    if type(v) is not str:
        raise BadRecord(f"expected a string, got {v!r}")
    return v


def _b(v: Any) -> bool:
    if type(v) is not bool:
        raise BadRecord(f"expected true or false, got {v!r}")
    return v


def _l(v: Any, size: int = -1) -> list[Any]:
    if type(v) is not list or (size >= 0 and len(v) != size):
        raise BadRecord(f"expected a list{f' of {size}' if size >= 0 else ''}, got {v!r}")
    return v


def _c(v: Any) -> Cell:
    x, y = _l(v, 2)
    return _i(x), _i(y)


def _oc(v: Any) -> Cell | None:
    return None if v is None else _c(v)


def _decode(d: Any) -> State:
    if type(d) is not dict:
        raise BadRecord("a state is an object")
    extra = set(d) - {
        "rules", "cups", "castles", "terrain", "units", "players", "rng", "phase", "active", "pa",
        "turn", "first_player", "sel", "combat", "last", "idle_turns", "clock", "initiative",
        "eliminated", "ranking", "end_reason",
    }  # fmt: skip
    if extra:
        raise BadRecord(f"unknown fields {sorted(extra)} in a Via Belli state")
    rules = _decode_rules(d["rules"])
    castles = []
    for row in _l(d["castles"]):
        o, x, y, land, fallen = _l(row, 5)
        castles.append(Castle(_i(o), _i(x), _i(y), _b(land), _b(fallen)))
    terrain = []
    for row in _l(d["terrain"]):
        kind, x, y, land, revealed, ctrl = _l(row, 6)
        if kind not in ("inn", "outpost"):
            raise BadRecord(f"unknown terrain {kind!r}")
        terrain.append(Terrain(kind, _i(x), _i(y), _b(land), _b(revealed), _i(ctrl)))
    units = []
    for row in _l(d["units"]):
        o, name, x, y, land, up, free, attacks, since = _l(row, 9)
        units.append(
            Unit(_i(o), _s(name), _i(x), _i(y), _b(land), _b(up), _b(free), _i(attacks), _i(since))
        )
    players = []
    for row in _l(d["players"]):
        hand, deck, discard, known, out = _l(row, 5)
        players.append(
            Player(
                hand=tuple(_s(c) for c in _l(hand)),
                deck=tuple(_i(c) for c in _l(deck)),
                discard=tuple(_s(c) for c in _l(discard)),
                known=tuple((_s(c), _i(t)) for c, t in (_l(k, 2) for k in _l(known))),
                out=_b(out),
            )
        )
    phase = d["phase"]
    if phase not in _PHASES:
        raise BadRecord(f"unknown phase {phase!r}")
    sel_kind, sel_card, sel_unit, sel_via = _l(d["sel"], 4)
    if sel_kind not in _SEL_KINDS:
        raise BadRecord(f"unknown choice {sel_kind!r}")
    combat = None
    if d["combat"] is not None:
        seat, defender, attackers, target, candidates = _l(d["combat"], 5)
        combat = Combat(
            _i(seat),
            _i(defender),
            tuple(_c(c) for c in _l(attackers)),
            _c(target),
            tuple(_c(c) for c in _l(candidates)),
        )
    last_seat, last_action, last_cells = _l(d["last"], 3)
    return State(
        rules=rules,
        cups=tuple(
            (_i(a), _i(b), _i(c), _i(e)) for a, b, c, e in (_l(v, 4) for v in _l(d["cups"]))
        ),
        castles=tuple(castles),
        terrain=tuple(terrain),
        units=tuple(units),
        players=tuple(players),
        rng=_i(d["rng"]),
        phase=phase,
        active=_i(d["active"]),
        pa=_i(d["pa"]),
        turn=_i(d["turn"]),
        first_player=_i(d["first_player"]),
        sel_kind=sel_kind,
        sel_card=_s(sel_card),
        sel_unit=_oc(sel_unit),
        sel_via=_oc(sel_via),
        combat=combat,
        last_seat=_i(last_seat),
        last_action=_s(last_action),
        last_cells=tuple(_c(c) for c in _l(last_cells)),
        idle_turns=_i(d["idle_turns"]),
        clock=_i(d["clock"]),
        initiative=tuple(tuple(_s(c) for c in _l(r)) for r in _l(d["initiative"])),
        eliminated=tuple(_i(v) for v in _l(d["eliminated"])),
        ranking=tuple(tuple(_i(v) for v in _l(g)) for g in _l(d["ranking"])),
        end_reason=_s(d["end_reason"]),
    )


# ---------------------------------------------------------------------------
# Helpers (module level: pure functions)
# ---------------------------------------------------------------------------

_ORIENT = "P|L|V|H|PORTRAIT|PAYSAGE|LANDSCAPE|DEBOUT|COUCHEE|COUCHE|STANDING|LYING"
_C = r"[A-Z]{1,2}\d{1,3}"
_PIVOT_RE = re.compile(rf"^({_C})@({_C})$")
_ANCHOR_RE = re.compile(rf"^([+?])?\s*(.+?)\s*@\s*({_C})$")
_REVEAL_RE = re.compile(rf"^!({_C})$")
_RECALL_RE = re.compile(rf"^<({_C})$")
_MOVE_RE = re.compile(rf"^({_C})>({_C})({_ORIENT})$")
_ATTACK_RE = re.compile(rf"^({_C}(?:\+{_C})*)X({_C})$")
_SUMMON_RE = re.compile(rf"^([+?])?\s*(.+?)\s+({_C})\s*({_ORIENT})$")
_LANDSCAPE = frozenset({"L", "H", "PAYSAGE", "LANDSCAPE", "COUCHEE", "COUCHE", "LYING"})

_WORDS: dict[str, Action] = {}
for _word in ("D", "PIOCHE", "PIOCHER", "DRAW"):
    _WORDS[_word] = Draw()
for _word in ("E", "FIN", "END", "FINDETOUR", "ENDTURN"):
    _WORDS[_word] = EndTurn()
for _word in ("-", "ANNULER", "CANCEL", "PASSER", "PASS", "NON", "NO", "RETOUR", "BACK"):
    _WORDS[_word] = Cancel()
for _kind, _words in (
    ("+", ("+", "INVOQUER", "INVOCATION", "SUMMON", "?", "EMBUSCADE", "AMBUSH")),
    (">", (">", "DEPLACER", "DEPLACEMENT", "MOVE", "<", "RAPATRIER", "RAPATRIEMENT", "RECALL")),
    ("x", ("X", "ATTAQUE", "ATTAQUER", "ATTACK")),
    ("^", ("^", "SORCELLERIE", "SORCERY")),
):
    for _word in _words:
        _WORDS[_word] = Begin(_kind)  # type: ignore[arg-type]


def _plain(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def _orient(text: str) -> bool:
    return text in _LANDSCAPE


def _cell(text: str, original: str) -> Cell:
    cell = parse_cell(text)
    if cell is None:
        raise BadNotation(
            f"{text!r} is not a cell (a column letter and a row number, e.g. C5).",
            fr=f"{text!r} n'est pas une case (une lettre de colonne et un numéro de ligne, ex. C5).",
            text=original,
        )
    return cell


@cache
def _card_keys() -> dict[str, str]:
    return {name_key(u.name): u.name for u in deck_file().units}


def _card_name(text: str) -> str | None:
    """A card of the data file from its name, a unique prefix, any case or accents."""
    key = name_key(text)
    if len(key) < 2:
        return None
    keys = _card_keys()
    if key in keys:
        return keys[key]
    hits = [name for k, name in keys.items() if k.startswith(key)]
    return hits[0] if len(hits) == 1 else None


def _sides(n: int) -> tuple[str, ...]:
    return {2: ("W", "E"), 3: ("W", "N", "E")}.get(n, ("W", "N", "E", "S"))


_SIDE_WORDS = {
    "W": ("ouest", "west"),
    "N": ("nord", "north"),
    "E": ("est", "east"),
    "S": ("sud", "south"),
}


def _terrain_name(kind: str | None, fr: bool) -> str:
    if kind == "inn":
        return "auberge" if fr else "inn"
    if kind == "outpost":
        return "avant-poste" if fr else "outpost"
    return "terrain"


def _card_label(state: State, b: Board, ci: int, seat: Seat, fr: bool) -> str:
    if ci < 0:
        return "?"
    tag = b.tag(ci)
    k = b.kind[ci]
    if k == K_CASTLE:
        return f"{'Château' if fr else 'Castle'} {b.owner[ci] + 1} ({tag})"
    if k == K_TERRAIN:
        t = state.terrain[b.ref[ci]]
        name = _terrain_name(t.kind if t.revealed else None, fr)
        return f"{name[:1].upper()}{name[1:]} ({tag})"
    u = state.units[b.ref[ci]]
    if u.face_up or u.owner == seat:
        return f"{u.name} ({tag})"
    return f"{'carte cachée' if fr else 'face-down card'} ({tag})"


@cache
def _card_infos(cards: tuple[CardDef, ...]) -> tuple[CardInfo, ...]:
    return tuple(
        CardInfo(c.name, c.ivk, c.atk, c.dfn, c.ability or None, c.aura_atk, c.aura_def, c.count)
        for c in cards
    )


_RULES_TEXT: dict[int, tuple[Rules, tuple[tuple[str, str], ...]]] = {}


def _rules_text(rules: Rules) -> tuple[tuple[str, str], ...]:
    """The rule options in force that differ from the defaults (memoised)."""
    hit = _RULES_TEXT.get(id(rules))
    if hit is not None and hit[0] is rules:
        return hit[1]
    text = _rules_text_of(rules)
    if len(_RULES_TEXT) > 64:
        _RULES_TEXT.clear()
    _RULES_TEXT[id(rules)] = (rules, text)
    return text


_LAYOUT_KEYS = frozenset({"table", "width", "height", "inns", "outposts"})


def _rules_text_of(rules: Rules) -> tuple[tuple[str, str], ...]:
    defaults = Options()
    out = []
    for key in Options.model_fields:
        if not hasattr(rules, key) or key in _LAYOUT_KEYS:
            continue  # the table's layout is in the view itself
        value = getattr(rules, key)
        if value != getattr(defaults, key):
            out.append((key, str(value).lower() if isinstance(value, bool) else str(value)))
    return tuple(out)


_new = object.__new__
_set = object.__setattr__


def _renamed(u: Unit, name: str) -> Unit:
    """The same unit under another (hidden) name: a fast copy."""
    v: Unit = _new(Unit)
    _set(v, "owner", u.owner)
    _set(v, "name", name)
    _set(v, "x", u.x)
    _set(v, "y", u.y)
    _set(v, "landscape", u.landscape)
    _set(v, "face_up", u.face_up)
    _set(v, "free_attack", u.free_attack)
    _set(v, "attacks", u.attacks)
    _set(v, "since", u.since)
    return v


_LIMITS: dict[int, int] = {}


def _fast_below(stream: rng.Stream) -> Callable[[int], int]:
    """``stream.below`` inlined (the same SplitMix64 and the same rejection),
    for the many draws of ``determinize``; the stream's state follows."""
    golden, mask = 0x9E3779B97F4A7C15, (1 << 64) - 1
    m1, m2 = 0xBF58476D1CE4E5B9, 0x94D049BB133111EB

    def below(n: int) -> int:
        if n == 1:
            return 0
        limit = _LIMITS.get(n)
        if limit is None:
            limit = _LIMITS[n] = (1 << 64) - ((1 << 64) % n)
        st = stream.state
        while True:
            st = (st + golden) & mask
            z = ((st ^ (st >> 30)) * m1) & mask
            z = ((z ^ (z >> 27)) * m2) & mask
            z ^= z >> 31
            if z < limit:
                stream.state = st
                return z % n

    return below


def _add_card(
    X: list[int], Y: list[int], Wd: list[int], Ht: list[int], x: int, y: int, w: int, h: int
) -> None:
    X.append(x)
    Y.append(y)
    Wd.append(w)
    Ht.append(h)


def _latest_first(entry: tuple[str, int]) -> int:
    return -entry[1]


def _tag_cell(tag: str) -> Cell:
    cell = parse_cell(tag)
    assert cell is not None
    return cell


def _touch(a: Rect, b: Rect) -> bool:
    """Two cards that do not overlap share an edge of at least one cell."""
    if a.x < b.x + b.w and b.x < a.x + a.w:
        return a.y + a.h == b.y or b.y + b.h == a.y
    if a.y < b.y + b.h and b.y < a.y + a.h:
        return a.x + a.w == b.x or b.x + b.w == a.x
    return False


def _back(state: State) -> State:
    """``-`` in a step: back to the turn decision (to the free-dog decision
    while placing the free dog)."""
    if state.sel_kind == "dog":
        return replace(state, phase="free-dog", sel_card="", sel_via=None, sel_unit=None)
    return _clear(state)


def _clear(state: State) -> State:
    """Back to the turn decision, no choice in progress."""
    if state.phase == "turn" and not state.sel_kind and state.combat is None:
        return state
    return replace(
        state, phase="turn", sel_kind="", sel_card="", sel_unit=None, sel_via=None, combat=None
    )


def _pick(stream: rng.Stream, counts: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
    """A card drawn at random from a pile of counts: (its index, the pile left)."""
    r = stream.below(sum(counts))
    for i, c in enumerate(counts):
        if r < c:
            return i, counts[:i] + (c - 1,) + counts[i + 1 :]
        r -= c
    raise ValueError("empty pile")


def _draw_from(state_rng: int, counts: tuple[int, ...]) -> tuple[int, tuple[int, ...], int]:
    stream = rng.Stream(state_rng)
    index, pile = _pick(stream, counts)
    return index, pile, stream.state


def _known_without(known: list[tuple[str, int]], card: str) -> list[tuple[str, int]]:
    """Known hand cards (most recently known first) once ``card`` of the hand
    is accounted for: the first entry of that name is that card."""
    for i, (name, _) in enumerate(known):
        if name == card:
            return known[:i] + known[i + 1 :]
    return known


def _room_for_known(known: list[tuple[str, int]], hand: int, since: list[int]) -> bool:
    """Whether cards known to be in a hand (most recently known first) all
    find a place: one of ``hand`` hand slots, or a face-down card placed
    after the card became known (``since``: when each was placed). The
    places open to a card include those of every card known later, so
    counting is enough."""
    return all(hand + sum(1 for s in since if s > when) > i for i, (_, when) in enumerate(known))


def _remove_one(cards: tuple[str, ...], card: str) -> tuple[str, ...]:
    i = cards.index(card)
    return cards[:i] + cards[i + 1 :]


def _remove_last(cards: tuple[str, ...], card: str) -> tuple[str, ...]:
    i = len(cards) - 1 - cards[::-1].index(card)
    return cards[:i] + cards[i + 1 :]


def _forget_latest(known: tuple[tuple[str, int], ...], card: str) -> tuple[tuple[str, int], ...]:
    """A card of that name left the hand face up: forget the most recent
    knowledge of it (the older stays, the looser)."""
    best = -1
    for i, (name, when) in enumerate(known):
        if name == card and (best < 0 or when >= known[best][1]):
            best = i
    return known if best < 0 else known[:best] + known[best + 1 :]


def _forget_before(
    known: tuple[tuple[str, int], ...], card: str, since: int
) -> tuple[tuple[str, int], ...]:
    """A face-down card placed at ``since`` turned out to be ``card``: it may
    have been a card of that name known before it was placed."""
    best = -1
    for i, (name, when) in enumerate(known):
        if name == card and when < since and (best < 0 or when >= known[best][1]):
            best = i
    return known if best < 0 else known[:best] + known[best + 1 :]


def _set_player(state: State, seat: Seat, player: Player) -> State:
    players = state.players
    return replace(state, players=players[:seat] + (player,) + players[seat + 1 :])


def _set_terrain(state: State, index: int, terrain: Terrain) -> State:
    t = state.terrain
    return replace(state, terrain=t[:index] + (terrain,) + t[index + 1 :])


GAME = ViaBelli()
