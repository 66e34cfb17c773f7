"""Between Battle's options, state and views (frozen, slotted dataclasses)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from pydantic import Field, field_validator

from ...core import GameOptions, Seat
from .data import CharacterId, SpecialAbility, UniqueAbility

# ---------------------------------------------------------------------------
# Options (every proposed ruling of rulings/between-battle.md is one)
# ---------------------------------------------------------------------------

CHARACTER_ALIASES = {
    "pirate": "pirate",
    "chevalier": "chevalier",
    "knight": "chevalier",
    "cowboy": "cowboy",
    "cow-boy": "cowboy",
    "ninja": "ninja",
}


class Options(GameOptions):
    """Between Battle options. Defaults are our rulings (T1-T11)."""

    characters: tuple[CharacterId, ...] = Field(
        default=(),
        description="characters by seat (e.g. pirate,ninja); empty: players draft in seat order",
    )
    hp: int | None = Field(
        default=None, ge=1, le=99, description="HP of every player; empty: the help cards' HP"
    )
    hp_variant: Literal["equal", "asymmetric"] = Field(
        default="equal",
        description="help-card HP: equal (10 each) or asymmetric (Chevalier 11, Ninja 9)",
    )
    between_rule: Literal["strict", "inclusive"] = Field(
        default="strict", description="T1: strictly between the two tops, or bounds included"
    )
    empty_pile_rule: Literal["must-play-there", "free"] = Field(
        default="must-play-there",
        description="T2: with exactly one empty pile you must play there (any value)",
    )
    adjacent_tops_free: bool = Field(
        default=True, description="T3: equal or consecutive tops let the next player play any card"
    )
    damage_chooser: Literal["last-player", "taker"] = Field(
        default="last-player",
        description="T4: who picks the damage pile: the opponent / last player to play, or the taker",
    )
    damage_refill: Literal["all", "taker-and-chooser"] = Field(
        default="all", description="T4: who refills to 5 after damage"
    )
    joker_depth: int = Field(
        default=0, ge=0, le=50, description="T5: how deep the joker may pull; 0 = any card"
    )
    link_chain: bool = Field(
        default=False, description="T6: a created link stays open, so links can chain"
    )
    lock_beats_empty_pile: bool = Field(
        default=True, description="T7: the Chevalier's lock beats the empty-pile obligation"
    )
    coup_fatal_targets: Literal["all", "next"] = Field(
        default="all", description="T8 (3-4 players): every opponent, or only the next one"
    )
    cancel_stops_joker: bool = Field(
        default=True, description="T9: the Chevalier's cancel also cancels a joker"
    )
    cowboy_keeps_link: bool = Field(
        default=True, description="T10: the card moved by the Cow-boy keeps its open link"
    )
    elimination: Literal["first-death", "last-standing"] = Field(
        default="first-death",
        description="3-4 players: the game ends at the first death (seed), or plays on "
        "until one survives",
    )
    exhausted: Literal["end", "pass"] = Field(
        default="end",
        description="a player with no hand and no deck at the start of their turn (after a "
        "Pirate discard): the game ends, ranked by HP; or their turns are passed",
    )
    locked_pile_alone: Literal["any-card", "joker-only"] = Field(
        default="any-card",
        description="Chevalier's lock on a pile while the other pile is empty: any card goes "
        "on the locked pile, or only the joker",
    )
    adjacent_on_extra_turn: bool = Field(
        default=False,
        description="equal or consecutive tops also free the same player's Ninja extra turn "
        "(the seed says: the next player)",
    )
    damage_with_empty_piles: Literal["allowed", "refused"] = Field(
        default="allowed",
        description="taking damage while both piles are empty: allowed (0 damage, play "
        "again) or refused",
    )
    give_empty_pile: bool = Field(
        default=False,
        description="the damage chooser may give an empty pile (0 damage) while the other "
        "pile has cards",
    )
    targeting: Literal["next", "choose"] = Field(
        default="next",
        description="3-4 players: Pirate discard and Ninja reveal hit the next player, or one you choose",
    )

    @field_validator("characters", mode="before")
    @classmethod
    def _split_characters(cls, value: object) -> object:
        if isinstance(value, str):
            value = [v for v in re.split(r"[,\s/]+", value) if v]
        if isinstance(value, list | tuple):
            out = []
            for v in value:
                key = str(v).strip().lower()
                if key not in CHARACTER_ALIASES:
                    raise ValueError(f"unknown character {v!r}")
                out.append(CHARACTER_ALIASES[key])
            if len(set(out)) != len(out):
                raise ValueError("each character deck exists once")
            return tuple(out)
        return value


# ---------------------------------------------------------------------------
# State
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Deck:
    """One character's deck definition, copied into the state so a saved game
    never depends on a later edit of the data file."""

    character: CharacterId
    code: str
    hp: int
    special: SpecialAbility
    unique: UniqueAbility
    cards: tuple[str, ...]  # labels in the deck, e.g. ("1", "2", ..., "X")
    kinds: tuple[str, ...]  # kind of each label, same order


@dataclass(frozen=True, slots=True)
class Rules:
    between_rule: str
    empty_pile_must: bool
    adjacent_tops_free: bool
    damage_chooser: str
    damage_refill: str
    joker_depth: int
    link_chain: bool
    lock_beats_empty_pile: bool
    coup_fatal_targets: str
    cancel_stops_joker: bool
    cowboy_keeps_link: bool
    elimination: str
    targeting: str
    hand_size: int
    decks: tuple[Deck, ...]
    # added later: defaults keep older saves readable
    exhausted: str = "end"
    locked_pile_alone: str = "any-card"
    adjacent_on_extra_turn: bool = False
    damage_with_empty_piles: str = "allowed"
    give_empty_pile: bool = True  # older saves were set up when an empty pile could be given


@dataclass(frozen=True, slots=True)
class Player:
    character: str  # "" until drafted
    hp: int
    hand: tuple[str, ...] = ()
    deck: tuple[str, ...] = ()  # top first
    damage: tuple[str, ...] = ()  # face down under the help card
    revealed: tuple[str, ...] = ()  # hand cards shown face up (Ninja's unique)
    out: bool = False

    @property
    def life(self) -> int:
        return self.hp - len(self.damage)


Phase = Literal["draft", "turn", "choose-pile", "joker-pull", "tutor", "target", "over"]


@dataclass(frozen=True, slots=True)
class State:
    rules: Rules
    players: tuple[Player, ...]
    piles: tuple[tuple[str, ...], tuple[str, ...]]  # bottom first
    rng: int
    phase: Phase
    active: Seat  # whose turn it is (or who drafts)
    decider: Seat  # who must decide now (== active except choose-pile)
    discard: tuple[str, ...] = ()
    turn: int = 0
    first_player: Seat = 0
    work_pile: int = 0  # pile of the card being resolved (joker, abilities)
    work_ability: str = ""  # ability waiting for a target
    lock_next: tuple[tuple[Seat, int], ...] = ()  # (seat, pile): must play there next turn
    cancel_next: tuple[Seat, ...] = ()  # seats whose next turn has no abilities
    turn_lock: int = -1  # pile forced this turn, -1: none
    turn_cancelled: bool = False
    extra_turn: bool = False
    last_player: Seat = -1  # last seat that played a card
    eliminated: tuple[Seat, ...] = ()  # in order of elimination
    ranking: tuple[tuple[Seat, ...], ...] = ()
    end_reason: str = ""
    bonus_turn: bool = False  # this turn is the same player's Ninja extra turn


# ---------------------------------------------------------------------------
# Views
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlayerView:
    seat: Seat
    character: str
    hp: int
    damage: int
    life: int
    hand_count: int
    deck_count: int
    hand: tuple[str, ...] | None  # the observer's own hand (sorted), else None
    revealed: tuple[str, ...]  # face-up hand cards everyone sees (sorted)
    out: bool
    # the damage cards lie face down under the help card: views give their count only


@dataclass(frozen=True, slots=True)
class View:
    observer: Seat | None
    phase: str
    turn: int
    active: Seat
    pending: tuple[tuple[Seat, str], ...]  # (seat, decision kind)
    players: tuple[PlayerView, ...]
    piles: tuple[tuple[str, ...], tuple[str, ...]]
    pile_values: tuple[int | None, int | None]
    discard: tuple[str, ...]
    lock_next: tuple[tuple[Seat, int], ...]
    cancel_next: tuple[Seat, ...]
    turn_lock: int
    turn_cancelled: bool
    work_pile: int
    choices: tuple[str, ...]  # the observer's legal actions, in notation
    ranking: tuple[tuple[Seat, ...], ...]
    end_reason: str
    decks: tuple[Deck, ...]
    hand_size: int
    between_rule: str  # the rules in force that change what is playable
    adjacent_tops_free: bool
    empty_pile_must: bool
    work_ability: str  # the ability waiting for a target ("target" phase)
    # public facts a bot needs to rebuild a consistent state (sample_state)
    last_player: Seat  # last seat that played a card (-1: none yet)
    first_player: Seat
    eliminated: tuple[Seat, ...]  # in order of elimination
    rules: Rules  # every rule in force
    bonus_turn: bool = False  # the active player's Ninja extra turn
    free_play: bool = False  # any card may go on the pile(s) the player may play on
