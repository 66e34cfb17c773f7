"""Belle Position options, state and views: the frozen dataclasses (and the options model)
that the rules, the renderer and the bots share."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from pydantic import Field, ValidationInfo, field_validator, model_validator

from ...core import GameOptions, Seat
from ...text import Msg
from .data import (
    PRESET_WORDS,
    ArmyError,
    TypeDef,
    _norm,
    _resolve,
    army_entries,
    army_text,
    card_file,
    catalog,
    check_army,
    check_total,
    parse_army,
    preset_entries,
)


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
        # an ArmyError is a ValueError: pydantic keeps it as the error's
        # ``ctx["error"]``, whose ``msg`` Game.options reports
        entries = parse_army(value, side)
        check_army(entries, side, budget, max_cards)
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
                reason = Msg.of("bp-army-preset", reason=exc.msg) if text == "preset" else exc.msg
                raise ArmyError(reason, option=side) from None
        return self


def army_of(options: Options, side: str) -> tuple[tuple[str, int], ...]:
    value: str = getattr(options, side)
    return parse_army(value, side)


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
