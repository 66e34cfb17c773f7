"""Chroniques de Liber's options, state and views (frozen, slotted dataclasses).

Places: each player's battlefield has three lines of five places. Lines are
numbered ``0`` plaine, ``1`` arrière, ``2`` front (``LINES``), places ``0..4``
(written 1-5 in the notation: ``a3`` is the middle of the back line). The
general is a piece on the battlefield (``Piece.general``), placed at ``a3``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from pydantic import Field, field_validator

from ...core import GameOptions, Seat

LINES = ("p", "a", "f")
"""Line letters by index: plaine, arrière, front."""
PLAINE, ARRIERE, FRONT = 0, 1, 2
PLACES = 5

# ---------------------------------------------------------------------------
# Options (every proposed ruling of rulings/chroniques-de-liber.md is one)
# ---------------------------------------------------------------------------

DECK_CODE = re.compile(r"^[a-z0-9-]+(:[a-z0-9-]+\*[1-4](\+[a-z0-9-]+\*[1-4])*)?$")
"""A ready-made deck id (``aggro``), or a built deck written as a code:
``<general>:<card>*<n>+<card>*<n>...`` (card ids; ``engine.games.liber.deck``
reads and writes it)."""


class Options(GameOptions):
    """Chroniques de Liber options. Defaults follow the seed, then rulings L1-L12."""

    decks: tuple[str, ...] = Field(
        default=(),
        description="decks by seat, separated by / (a ready-made deck id or a deck code); "
        "empty: the ready-made decks in turn",
    )
    line_moves: Literal["one-step", "none", "any"] = Field(
        default="one-step",
        description="L3: during placement a unit that did not arrive this turn moves one "
        "line (one-step), not at all (none) or to any line (any)",
    )
    first_turn_placement: Literal["free", "anywhere"] = Field(
        default="free",
        description="L7: on their first turn, the players after the first place on any line "
        "at no extra cost (free), or on any line paying the extra cost (anywhere)",
    )
    counter_limit: Literal["turn", "cycle"] = Field(
        default="turn",
        description="a unit that counter-attacked (riposte or block) cannot again before the "
        "end of the turn (seed), or before the start of its owner's next turn (L5)",
    )
    initiative_kill_prevents_riposte: bool = Field(
        default=True, description="L6: an Initiative strike that kills prevents the riposte"
    )
    hand_limit: int = Field(default=7, ge=1, le=20, description="L8: hand limit at end of turn")
    vp_cap: bool = Field(
        default=True,
        description="L9: victory points count damage actually dealt (capped at the PV left)",
    )
    gold_per_reserve: int = Field(default=5, ge=1, le=20, description="gold per reserve (seed)")
    start_reserves: int = Field(default=1, ge=1, le=5, description="L2: gold reserves at start")
    faith_to_win: int = Field(default=20, ge=1, le=99, description="faith win (seed: 20)")
    vp_to_win: int = Field(default=40, ge=1, le=999, description="victory point win (seed: 40)")
    gold_to_win: int = Field(default=60, ge=1, le=999, description="gold win (seed: 60)")
    multiplayer_end: Literal["first-general", "last-standing"] = Field(
        default="first-general",
        description="3-4 players: the first general killed ends the game (its killer wins), "
        "or the game goes on until one general is left",
    )

    impatient_ready: bool = Field(
        default=True,
        description="L7: Impatient units arrive without summoning sickness",
    )

    @field_validator("decks", mode="before")
    @classmethod
    def _split_decks(cls, value: object) -> object:
        if isinstance(value, str):
            value = [v for v in value.split("/") if v]
        if isinstance(value, list | tuple):
            for v in value:
                if not DECK_CODE.match(str(v)):
                    raise ValueError(f"not a deck: {v!r}")
            return tuple(str(v) for v in value)
        return value


# ---------------------------------------------------------------------------
# State
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Card:
    """The rules of one card, copied into the state from the card pool so that
    a saved game never depends on a later edit of the data file (texts stay
    in the pool). ``keywords`` are keyword ids; ``effects`` are
    ``(kind, amount, target, scope, token)`` tuples."""

    id: str
    type: str
    spell: str = ""
    gold: int = 0
    faith: int = 0
    vp: int = 0
    force: int = 0
    pv: int = 0
    keywords: tuple[str, ...] = ()
    invoke_cost: int = 0
    invoke_token: str = ""
    ravage: int = 0
    effects: tuple[tuple[str, int, str, str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class Rules:
    """The options in force (see :class:`Options`)."""

    line_moves: str
    first_turn_placement: str
    counter_limit: str
    initiative_kill_prevents_riposte: bool
    hand_limit: int
    vp_cap: bool
    gold_per_reserve: int
    start_reserves: int
    faith_to_win: int
    vp_to_win: int
    gold_to_win: int
    multiplayer_end: str
    impatient_ready: bool = True


@dataclass(frozen=True, slots=True)
class Piece:
    """Something on a battlefield: a unit, token or general (fights), or a
    place, enchantment or favour (``fixture``). ``owner`` is the seat whose
    card it is; it sits on its owner's battlefield."""

    uid: int
    card: str
    owner: Seat
    fixture: bool = False
    general: bool = False
    damage: int = 0
    sick: bool = True  # arrived this turn: cannot attack yet
    attacks: int = 0  # attacks declared this turn
    countered: bool = False  # riposted or blocked (see Rules.counter_limit)
    moved: bool = False  # moved between lines this turn (L3)
    poisoned_by: int = -1  # seat whose card poisoned it (-1: not poisoned)
    poison_scores: bool = True  # its ticks score VP (not when a general's ability poisoned it)
    paralysed: bool = False  # cannot attack nor defend during its owner's next turn
    paralysed_since: int = 0  # the turn it was paralysed (ends at the end of a later own turn)
    equipment: tuple[str, ...] = ()  # objects (card ids)
    used: tuple[str, ...] = ()  # once-per-turn abilities used this turn
    bonus: int = 0  # force until the end of the turn (spells, general ability)
    heal_at_end: int = 0  # Soin: PV regained at the end of the turn


Line = tuple[Piece | None, ...]


@dataclass(frozen=True, slots=True)
class Player:
    seat: Seat
    deck_name: str  # ready-made deck id, or "" for a built deck
    general: str  # the general's card id
    lines: tuple[Line, Line, Line]  # plaine, arrière, front
    deck: tuple[str, ...] = ()  # draw pile, top first
    hand: tuple[str, ...] = ()
    graveyard: tuple[str, ...] = ()
    gold: int = 0
    faith: int = 0
    vp: int = 0
    god: str = ""  # the god invoked, beside the battlefield ("" none)
    used: tuple[str, ...] = ()  # the player's once-per-turn uses (general ability ...)
    out: bool = False  # general killed or resigned
    decklist: tuple[str, ...] = ()  # the deck's 50 cards, sorted (public: the options name it)


Phase = Literal["placement", "attack", "end", "over"]


@dataclass(frozen=True, slots=True)
class Strike:
    """One target of a declared attack: a piece (by uid) on ``seat``'s
    battlefield and the damage sent to it (Honneur du guerrier splits)."""

    seat: Seat
    uid: int
    share: int = 0


@dataclass(frozen=True, slots=True)
class Combat:
    """A declared attack waiting for its reactions (blocks, éphémères,
    Impatient units), then resolved."""

    seat: Seat
    attacker: int  # uid
    strikes: tuple[Strike, ...]
    blocker: int = -1  # uid of the unit that blocked (-1: none)
    loyal: tuple[int, ...] = ()  # Loyauté: the loyal units the defender chooses among (uids)


WindowKind = Literal["attack", "end-placement", "end-attack", "end-turn", "reclaim"]


@dataclass(frozen=True, slots=True)
class Window:
    """A response window: ``seats`` are asked in order (the first decides
    now); seats with nothing playable are left out when it opens."""

    kind: WindowKind
    seats: tuple[Seat, ...]
    card: str = ""  # reclaim: the object that may be taken back


@dataclass(frozen=True, slots=True)
class State:
    rules: Rules
    cards: tuple[Card, ...]  # every card this match can see, sorted by id
    players: tuple[Player, ...]
    rng: int
    turn: int  # turns begun so far (1: the first player's first turn)
    active: Seat
    phase: Phase
    first_round: bool  # every player's first turn: placement only
    window: Window | None = None
    combat: Combat | None = None
    windows: tuple[Window, ...] = ()  # windows queued after the current one
    next_uid: int = 1
    ranking: tuple[tuple[Seat, ...], ...] = ()
    end_reason: str = ""  # general / faith / vp / gold / resign / last-standing
    discard_to: int = 0  # end phase: hand size to discard down to (0: no discard due)
    dead_generals: tuple[tuple[Seat, Seat], ...] = ()  # (seat, killer) not yet judged


# ---------------------------------------------------------------------------
# Views (what a seat, or a spectator, may see)
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PieceView:
    uid: int
    card: str  # card id (names, texts and art come from the pool)
    owner: Seat
    place: str  # "a3"
    fixture: bool
    general: bool
    force: int  # current force, bonuses included (what it would strike with now)
    pv: int  # current maximum PV, bonuses included
    damage: int
    sick: bool
    poisoned: bool
    paralysed: bool
    countered: bool
    attacks: int
    equipment: tuple[str, ...]
    keywords: tuple[str, ...]
    moved: bool = False
    used: tuple[str, ...] = ()
    bonus: int = 0
    heal_at_end: int = 0
    poisoned_by: int = -1
    paralysed_since: int = 0
    poison_scores: bool = True


@dataclass(frozen=True, slots=True)
class SideView:
    seat: Seat
    deck_name: str
    general: str
    pieces: tuple[PieceView, ...]  # the general included, by line then place
    god: str
    gold: int
    faith: int
    vp: int
    reserves: int  # gold reserves (gold per turn = reserves × gold_per_reserve)
    income: int  # gold the next draw phase brings (reserves and Producteur)
    hand_count: int
    deck_count: int
    graveyard: tuple[str, ...]  # public, oldest first
    out: bool
    used: tuple[str, ...] = ()  # the player's once-per-turn uses (general ability)
    decklist: tuple[str, ...] = ()  # the deck's cards (public: the options name the deck)


@dataclass(frozen=True, slots=True)
class CombatView:
    seat: Seat
    attacker: str  # place of the attacker, "f2"
    targets: tuple[tuple[Seat, str, int], ...]  # (seat, place, share)
    blocker: str  # place of the blocker ("" none)


@dataclass(frozen=True, slots=True)
class View:
    observer: Seat | None
    turn: int
    active: Seat
    phase: str
    first_round: bool
    sides: tuple[SideView, ...]
    hand: tuple[str, ...] | None  # the observer's hand (card ids, in hand order)
    pending: tuple[tuple[Seat, str], ...]  # (seat, decision kind)
    window: str  # the open window's kind ("" none)
    combat: CombatView | None
    choices: tuple[str, ...]  # the observer's legal actions, in notation
    ranking: tuple[tuple[Seat, ...], ...]
    end_reason: str
    hand_limit: int
    faith_to_win: int
    vp_to_win: int
    gold_to_win: int
    # the rest of the public state (search bots rebuild states from views)
    rules: Rules | None = None
    cards: tuple[Card, ...] = ()
    state_window: Window | None = None
    state_windows: tuple[Window, ...] = ()
    state_combat: Combat | None = None
    next_uid: int = 0
    discard_to: int = 0
