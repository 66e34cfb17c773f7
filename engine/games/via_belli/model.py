"""Options, state and views (frozen dataclasses), and small pure edits of a state."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from pydantic import Field, field_validator, model_validator

from ... import rng
from ...core import GameOptions, Seat
from ...core import evolve as replace
from .data import TableName
from .geometry import _CELL_RE, MAX_SIDE, MIN_SIDE, Cell


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


BASE_PA = 5


INN_PA = 1


AMBUSH_COST = 2


SUB_PHASES = frozenset({"anchor", "spot", "pivot", "destination", "attack", "sorcery"})
"""The steps after the first choice of an action (``-`` goes back from them)."""


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
