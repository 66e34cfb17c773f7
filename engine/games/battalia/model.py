"""Battalia's options, state and views (frozen, slotted dataclasses).

Squares are ``a1``..``g7`` (letter = column left→right, number = row top→
bottom). Exits are a mask N=1 E=2 S=4 W=8. Seats are 0-based in the state,
1-based in the notation. Stacks are tuples with their top card last.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from pydantic import Field

from ...core import GameOptions, Seat

# ---------------------------------------------------------------------------
# Options: every [P] of rulings/battalia.md and of the design is one
# ---------------------------------------------------------------------------


class Options(GameOptions):
    """Battalia options. Defaults: seed 004, then the rulings (section 2-5)."""

    buff: bool = Field(default=True, description="play with Buff le Sans Bannière (seed 004)")
    mercenaries: bool = Field(
        default=True, description="2.1: the 8 mercenary units (sans bannière) are in the market"
    )
    advanced: bool = Field(
        default=False, description="2.8: advanced game, steps entering your homeland are free"
    )
    illuminated: bool = Field(
        default=True, description="2.6 [P]: the illuminated artefact type has its doubled effect"
    )
    retreat: bool = Field(
        default=True, description="2.10 [P]: a hero attacked by a hero may retreat 1 square"
    )
    cohort_size: int = Field(
        default=3, ge=2, le=6, description="2.5 [P]: cards of one faction a cohort reveals"
    )
    cohort_draw: int = Field(default=1, ge=1, le=3, description="2.5 [P]: cards a cohort draws")
    neutral_defence: int = Field(
        default=5, ge=0, le=20, description="2.10 [P]: a neutral city's defence"
    )
    ruins_defence: int = Field(default=8, ge=0, le=20, description="2.10 [P]: the Ruins' defence")
    start_level: int = Field(default=1, ge=1, le=4, description="2.4 [P]: start city level")
    heroes_start: Literal["supply", "start"] = Field(
        default="supply",
        description="3 [P]: heroes start in the supply (summoned later) or on the start city",
    )
    empty_bid: bool = Field(
        default=False,
        description="F2: bidding nothing is allowed (the seed asks one or more cards)",
    )
    week_limit: int = Field(
        default=0, ge=0, le=50, description="the game ends after this many weeks (0: no limit)"
    )
    hand_size: int = Field(default=6, ge=3, le=10, description="2.5 [S]: hand refill at end")
    mulligan_draw: int = Field(default=5, ge=1, le=10, description="2.5 [S]: mulligan draw")
    buy_provision: bool = Field(
        default=True, description="2.5 [S-impl]: buying a non-mercenary unit gives a Provision"
    )
    placement: Literal["network", "network_exit", "adjacent"] = Field(
        default="network",
        description="2.9 [P]: a new terrain card must be next to a square road-connected to "
        "your cities or heroes (network), next to such a square with an exit towards it "
        "(network_exit, stricter), or only next to any card (adjacent)",
    )
    two_seat_removed: Literal["u", "i", "a", "n"] = Field(
        default="n", description="2.2 [S, P which]: the faction removed from 2-player decks"
    )
    end_no_placement: bool = Field(
        default=True,
        description="12 [P]: the game ends when no seat can place any terrain card any more",
    )
    wild_bonus: int = Field(
        default=1, ge=0, le=3, description="2.7 [P]: an amulet's 6 (wild) adds this strength"
    )
    buff_defence_ties: Literal["buff", "attacker"] = Field(
        default="buff", description="design [P]: a hero attacking Buff loses ties (buff)"
    )
    horde_cap: int = Field(
        default=0,
        ge=0,
        le=99,
        description="seed 004: the horde grows by 2 a week on and on (0); F3's printed "
        "tokens stop at 20 (20)",
    )
    great_face_down: bool = Field(
        default=True,
        description="2.4 [S]: the Great Artefacts lie face down; the Ruins' winner takes "
        "one by its place (take 2) and then learns it (off: face up, take G2)",
    )
    tie_breaks: Literal["cities", "none"] = Field(
        default="cities",
        description="2.12 [P]: a VP tie goes to more level-4 cities, then more cities "
        "(cities); or stays shared (none)",
    )
    defender_refill: bool = Field(
        default=False, description="2.10, 3 [P]: a defender refills its hand after a battle"
    )
    hero_limit: int = Field(
        default=0,
        ge=0,
        le=6,
        description="2.8 [P]: heroes a square may hold (0: no limit); entering an enemy "
        "hero's square never starts a battle",
    )
    ruins_again: bool = Field(
        default=True,
        description="2.11 [P]: the Ruins stay neutral and can be attacked again (off: won once)",
    )
    attack_reach: Literal["adjacent", "square"] = Field(
        default="adjacent",
        description="2.10 [P]: a hero attacks on its square or a road-adjacent one "
        "(adjacent), or on its square only (square)",
    )
    buff_fight_bonuses: bool = Field(
        default=False,
        description="seed 004 S36: a line of cards whose strength is at least the horde's "
        "(false); rulings 4 [P]: morale and terrain bonuses count too (true)",
    )


# ---------------------------------------------------------------------------
# State
# ---------------------------------------------------------------------------

TileKind = Literal["road", "city", "start", "neutral", "ruins"]


@dataclass(frozen=True, slots=True)
class Rules:
    """The options in force (a copy of :class:`Options`, serialisable)."""

    buff: bool = True
    mercenaries: bool = True
    advanced: bool = False
    illuminated: bool = True
    retreat: bool = True
    cohort_size: int = 3
    cohort_draw: int = 1
    neutral_defence: int = 5
    ruins_defence: int = 8
    start_level: int = 1
    heroes_start: str = "supply"
    empty_bid: bool = False
    week_limit: int = 0
    hand_size: int = 6
    mulligan_draw: int = 5
    buy_provision: bool = True
    placement: str = "network"
    two_seat_removed: str = "n"
    end_no_placement: bool = True
    wild_bonus: int = 1
    buff_defence_ties: str = "buff"
    horde_cap: int = 0
    great_face_down: bool = True
    tie_breaks: str = "cities"
    defender_refill: bool = False
    hero_limit: int = 0
    ruins_again: bool = True
    attack_reach: str = "adjacent"
    buff_fight_bonuses: bool = False


@dataclass(frozen=True, slots=True)
class Tile:
    """A terrain card on the board (pre-printed pieces included)."""

    square: str
    kind: str  # TileKind
    layout: str
    rotation: int
    terrain: str
    level: int = 0  # cities (start, neutral included); 0 for roads and the Ruins
    owner: Seat | None = None


@dataclass(frozen=True, slots=True)
class Hero:
    """A hero on the board: ``index`` 1 or 2 (a seat's own heroes)."""

    seat: Seat
    index: int
    square: str


@dataclass(frozen=True, slots=True)
class Player:
    seat: Seat
    faction: str = ""  # "" until chosen
    start: str = ""  # the start square ("" until chosen)
    hand: tuple[str, ...] = ()
    deck: tuple[str, ...] = ()  # top last
    discard: tuple[str, ...] = ()
    played: tuple[str, ...] = ()  # played this turn (discarded at `end`)
    tent: tuple[str, ...] = ()  # kept aside, back to hand at the start of the next turn
    resigned: bool = False


@dataclass(frozen=True, slots=True)
class Breakdown:
    """A battle line's strength, part by part."""

    cards: tuple[str, ...] = ()
    base: int = 0  # the cards' strengths (titles, amulets applied)
    morale: int = 0
    terrain: int = 0
    bannerless: int = 0  # Buff leading: +1 per bannerless unit
    level: int = 0  # a defended city's level, or a neutral/Ruins/horde defence
    rolls: tuple[tuple[str, int], ...] = ()  # amulet dice: (unit code, d6)
    total: int = 0


@dataclass(frozen=True, slots=True)
class Battle:
    """A battle in progress, or the last one (``result`` set)."""

    attacker: Seat | None  # None: Buff's horde attacks
    piece: str  # the attacking hero: "h1", "h2", "b" (hired Buff) or "buff"
    target_kind: str  # city / neutral / ruins / hero / buff
    target: str  # a square, a hero ref "2h1", or "buff"
    square: str
    defender: Seat | None  # None: a neutral city or the Ruins
    attacker_line: tuple[str, ...] = ()
    attacker_break: Breakdown | None = None
    defender_line: tuple[str, ...] | None = None
    defender_break: Breakdown | None = None
    result: str = ""  # "" pending, "attacker", "defender", "retreat"


@dataclass(frozen=True, slots=True)
class Placing:
    """A paid terrain card drawn and waiting for its ``place``."""

    seat: Seat
    kind: str  # road / city
    layout: str
    terrain: str
    level: int = 0


@dataclass(frozen=True, slots=True)
class BuffState:
    """Buff le Sans Bannière (rulings §4 data model). Days are the global
    round counter; a marker placed on day d expires at the start of day d+7."""

    square: str | None = None
    horde: int = 6
    owner: Seat | None = None
    hire_until: int | None = None
    bribes: tuple[tuple[Seat, int], ...] = ()  # (seat, until day)
    absent: bool = False  # removed (beaten or his owner lost) until the week boundary
    entered: bool = False  # has entered at least once
    roll: int | None = None  # the last d6
    mover: Seat | None = None  # the seat whose `buff …` move is pending
    victim: tuple[Seat, int] | None = None  # the attacked (seat, hero index): bribe/recruit/fight
    chooser: Seat | None = None  # who picks the hero when several stand on his square
    resume: str = ""  # the phase to go back to after Buff's decision


@dataclass(frozen=True, slots=True)
class Auction:
    """The entry auction: ``bids`` (seat, cards) hidden until all have bid."""

    bidders: tuple[Seat, ...]  # still to bid
    bids: tuple[tuple[Seat, tuple[str, ...]], ...] = ()
    winner: Seat | None = None
    revealed: bool = False


Phase = Literal[
    "faction",
    "start",
    "turn",
    "place",
    "defend",
    "take",
    "auction",
    "enter",
    "buff-move",
    "buff-attack",
    "over",
]


@dataclass(frozen=True, slots=True)
class State:
    rules: Rules
    seats: int
    rng: int
    phase: str  # Phase
    active: Seat
    day: int
    players: tuple[Player, ...]
    tiles: tuple[Tile, ...] = ()  # sorted by square
    heroes: tuple[Hero, ...] = ()
    market: tuple[tuple[str, tuple[str, ...]], ...] = ()  # stack key → cards, top last
    roads: tuple[tuple[str, tuple[str, ...]], ...] = ()  # layout → terrains, top last
    cities: tuple[tuple[str, tuple[str, ...]], ...] = ()
    provisions: int = 0  # the provision supply
    great: tuple[str, ...] = ()  # Great Artefacts displayed
    great_hidden: tuple[str, ...] = ()  # those not drawn
    ambush: tuple[str, ...] = ()
    first_action: bool = True  # mulligan / cohort still allowed this turn
    order: tuple[Seat, ...] = ()  # set-up: seats in faction-choice order
    battle: Battle | None = None
    placing: Placing | None = None
    buff: BuffState = BuffState()
    auction: Auction | None = None
    ranking: tuple[tuple[Seat, ...], ...] = ()
    end_reason: str = ""
    turn: int = 0  # turns begun so far
    gone: tuple[Seat, ...] = ()  # resigned seats, in order


# ---------------------------------------------------------------------------
# Views (what RENDER draws; names are fixed: add fields, never rename)
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TileView:
    square: str
    kind: str  # road / city / start / neutral / ruins
    layout: str
    rotation: int
    exits: int  # N=1 E=2 S=4 W=8
    terrain: str
    level: int
    owner: Seat | None


@dataclass(frozen=True, slots=True)
class HeroView:
    seat: Seat
    index: int  # 1, 2; 0 = the hired Buff
    square: str


@dataclass(frozen=True, slots=True)
class BuffView:
    square: str | None
    horde: int
    owner: Seat | None
    hire_until: int | None
    bribes: tuple[tuple[Seat, int], ...]
    absent: bool
    entered: bool


@dataclass(frozen=True, slots=True)
class PlayerView:
    seat: Seat
    faction: str
    vp: int
    cities: int
    level4: int
    hand_count: int
    deck_count: int
    discard_count: int
    heroes_in_supply: int
    tent_count: int
    marker: tuple[str, int] | None  # ("bribe" | "hire", until day)
    start: str = ""
    resigned: bool = False


@dataclass(frozen=True, slots=True)
class MarketView:
    stacks: tuple[tuple[str, int], ...]  # (stack key, count)
    matching_factions: tuple[str, ...]
    roads: tuple[tuple[str, int], ...]
    cities: tuple[tuple[str, int], ...]
    provisions: int
    great_artefacts: tuple[str, ...]
    ambush: int
    mercenary_top: str | None = None  # the mercenary stack's face-up top


@dataclass(frozen=True, slots=True)
class BattleView:
    attacker: Seat | None
    piece: str
    target: str
    square: str
    attacker_line: tuple[str, ...]
    defender_line: tuple[str, ...] | None
    attacker_break: Breakdown | None
    defender_break: Breakdown | None
    attacker_total: int
    defender_total: int | None
    result: str
    target_kind: str = ""
    defender: Seat | None = None


@dataclass(frozen=True, slots=True)
class AuctionView:
    bidders: tuple[Seat, ...]  # still to bid
    bids: tuple[tuple[Seat, tuple[str, ...], int], ...]  # revealed (seat, cards, total)
    winner: Seat | None
    own_bid: tuple[str, ...] | None = None  # the observer's bid, if any


@dataclass(frozen=True, slots=True)
class View:
    observer: Seat | None
    seats: int
    factions: tuple[str, ...]
    phase: str
    active: Seat
    day: int
    week: int
    day_of_week: int
    illuminated: str
    matching: str
    area: tuple[str, ...]
    starts: tuple[str, ...]
    tiles: tuple[TileView, ...]
    heroes: tuple[HeroView, ...]
    buff: BuffView
    players: tuple[PlayerView, ...]
    market: MarketView
    hand: tuple[str, ...]  # the observer's, sorted
    tent: tuple[str, ...]
    deck_contents: tuple[str, ...]  # the observer's deck, sorted
    battle: BattleView | None
    auction: AuctionView | None
    roll: int | None
    placing: Placing | None
    pending: tuple[tuple[Seat, str], ...]  # (seat, decision kind)
    winner: Seat | None
    ranking: tuple[tuple[Seat, ...], ...]
    # the rest of the public state (search bots rebuild states from views)
    end_reason: str = ""
    rules: Rules | None = None
    discard: tuple[str, ...] = ()  # the observer's discard pile, sorted
    played: tuple[str, ...] = ()  # the observer's played cards this turn
    first_action: bool = True
    turn: int = 0
    state_buff: BuffState | None = None
    order: tuple[Seat, ...] = ()
    great_hidden_count: int = 0
    neutral: tuple[str, ...] = ()
    ruins: str = ""
    gone: tuple[Seat, ...] = ()  # resigned seats, in order
    choices: tuple[str, ...] = ()  # the observer's legal actions, in notation
