"""Between Battle (seed 003): play a number between the two piles, or take damage.

Cards are short strings: a character code and a label, ``"Pi7"`` (Pirate 7),
``"ChX"`` (the Chevalier's joker). On a pile, a link played facing outwards
(its link is open) carries a ``~`` suffix: ``"Co5~"``.

Notation (piles and seats are 1-based for people):

===============  ===================================================
``pirate``       pick a character (draft)
``7>1``          play the 7 on pile 1 (``X>2``: the joker on pile 2)
``5+1``          create a link: discard pile 1 (its top is an open
                 link) and put the 5 there alone
``D``            take damage
``P2``           (the chooser) give pile 2 to the player taking damage
``^Co7``         (joker) bring the Cow-boy's 7 up above the joker
``T14``          (Pirate's unique) take the 14 from your deck
``@2``           choose player 2 as the target of an ability
===============  ===================================================
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from .. import rng
from ..core import Decision, Event, Game, GameInfo, GameOptions, Outcome, Seat
from ..core import evolve as replace
from ..data import load_json
from ..errors import BadNotation, BadOptions, IllegalAction
from ..text import colon, de, que

GAME_ID = "between-battle"

Kind = Literal["number", "special", "unique", "link", "joker"]
SpecialAbility = Literal["discard-random", "draw", "lock", "extra-turn"]
UniqueAbility = Literal["tutor", "steal-top", "cancel", "reveal"]
CharacterId = Literal["pirate", "chevalier", "cowboy", "ninja"]


# ---------------------------------------------------------------------------
# Card data: schema of engine/data/between-battle.json
# ---------------------------------------------------------------------------


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
    name_fr: str
    name_en: str
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
# Actions
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Pick:
    character: CharacterId


@dataclass(frozen=True, slots=True)
class Play:
    card: str  # label in hand: "7", "X"
    pile: int  # 0 or 1


@dataclass(frozen=True, slots=True)
class Link:
    card: str
    pile: int


@dataclass(frozen=True, slots=True)
class TakeDamage:
    pass


@dataclass(frozen=True, slots=True)
class GivePile:
    pile: int


@dataclass(frozen=True, slots=True)
class Pull:
    card: str  # full code, e.g. "Co7"


@dataclass(frozen=True, slots=True)
class Tutor:
    card: str  # label


@dataclass(frozen=True, slots=True)
class Target:
    seat: Seat


Action = Pick | Play | Link | TakeDamage | GivePile | Pull | Tutor | Target


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


# ---------------------------------------------------------------------------
# Card helpers
# ---------------------------------------------------------------------------

CODES = {"pi": "Pi", "ch": "Ch", "co": "Co", "ni": "Ni"}


def split_code(card: str) -> tuple[str, str]:
    """``"Co12~"`` -> ``("Co", "12")``."""
    return card[:2], card[2:].rstrip("~")


def is_open(card: str) -> bool:
    return card.endswith("~")


def plain(card: str) -> str:
    return card.rstrip("~")


# Lookup tables derived from the decks stored in a state. They are memoised
# by the identity of the decks tuple (kept alive in the entry), because
# hashing the tuple on every call would cost more than the lookup saves.
_Tables = tuple[
    tuple[Deck, ...],
    dict[str, str],
    dict[str, Deck],
    dict[str, Deck],
    dict[str, tuple[int, str, str]],
]
_TABLES: dict[int, _Tables] = {}


def _tables(decks: tuple[Deck, ...]) -> _Tables:
    entry = _TABLES.get(id(decks))
    if entry is None or entry[0] is not decks:
        kinds: dict[str, str] = {}
        info: dict[str, tuple[int, str, str]] = {}
        for deck in decks:
            for label, kind in zip(deck.cards, deck.kinds, strict=True):
                kinds[deck.code + label] = kind
                # (sort value, kind, label): the joker sorts last
                info[deck.code + label] = (999 if label == "X" else int(label), kind, label)
        entry = (
            decks,
            kinds,
            {d.code: d for d in decks},
            {d.character: d for d in decks},
            info,
        )
        if len(_TABLES) > 64:
            _TABLES.clear()
        _TABLES[id(decks)] = entry
    return entry


def _kind_table(decks: tuple[Deck, ...]) -> dict[str, str]:
    return _tables(decks)[1]


def _deck_by_code(decks: tuple[Deck, ...]) -> dict[str, Deck]:
    return _tables(decks)[2]


def _deck_by_character(decks: tuple[Deck, ...]) -> dict[str, Deck]:
    return _tables(decks)[3]


def card_kind(rules: Rules, card: str) -> str:
    return _kind_table(rules.decks)[plain(card)]


def card_value(card: str) -> int | None:
    label = card[2:].rstrip("~")
    return None if label == "X" else int(label)


def pile_value(pile: Sequence[str]) -> int | None:
    """A pile's value is that of its highest card that is not a joker."""
    for card in reversed(pile):
        value = card_value(card)
        if value is not None:
            return value
    return None


def ability_of(rules: Rules, card: str) -> str | None:
    """The ability id a card triggers when played (None for plain cards)."""
    kind = card_kind(rules, card)
    deck = _deck_by_code(rules.decks)[card[:2]]
    if kind == "special":
        return deck.special
    if kind == "unique":
        return deck.unique
    if kind == "joker":
        return "joker"
    return None


# The help cards lie face up (« face visible devant lui, elle indique ses
# capacités et ses points de vies »): every player may read every character's
# abilities. Full texts (from the seed) and short ones (for the board).
ABILITY_TEXTS: dict[str, tuple[str, str]] = {
    "discard-random": (
        "Discard a random card from your opponent's hand.",
        "Défaussez une carte dans la main de l'adversaire aléatoirement.",
    ),
    "draw": ("Draw a card from your deck.", "Piochez une carte de votre deck."),
    "lock": (
        "On their next turn, your opponent must play on this pile (or take damage), "
        "so they cannot create a link.",
        "Votre adversaire, lors de son prochain tour, doit jouer sur ce paquet (ou prendre "
        "des dégâts), il n'est donc pas possible de « créer un lien ».",
    ),
    "extra-turn": ("Play another turn immediately.", "Vous jouez immédiatement un nouveau tour."),
    "tutor": (
        "Take a card of your choice from your deck into your hand, then shuffle your deck.",
        "Prenez une carte au choix depuis votre deck et ajoutez-la à votre main. "
        "Mélangez ensuite votre deck.",
    ),
    "steal-top": (
        "Take the top card of the other pile and put it on this one, keeping its orientation.",
        "Prenez la carte du dessus de l'autre paquet et placez-la par-dessus celle-ci. "
        "Gardez son sens d'orientation.",
    ),
    "cancel": (
        "On their next turn, your opponent does not apply the ability of the card they "
        "play. Creating or playing a link is not an ability.",
        "Votre adversaire, lors de son prochain tour, n'applique pas la capacité de sa "
        "carte jouée. Créer ou jouer une carte « lien » n'est pas une capacité.",
    ),
    "reveal": (
        "Your opponent reveals their current hand and keeps it face up.",
        "Votre adversaire révèle sa main actuelle et la place face visible devant lui.",
    ),
}
ABILITY_SHORT: dict[str, tuple[str, str]] = {
    "discard-random": ("Opponent discards at random", "Défausse adverse au hasard"),
    "draw": ("Draw 1 card", "Piochez 1 carte"),
    "lock": ("Opponent must play here", "L'adversaire doit jouer ici"),
    "extra-turn": ("Play again at once", "Rejouez immédiatement"),
    "tutor": ("Take any card from your deck", "Prenez 1 carte de votre deck"),
    "steal-top": ("Other pile's top moves here", "Vole le haut de l'autre paquet"),
    "cancel": ("Cancel opponent's next ability", "Annule la capacité adverse"),
    "reveal": ("Opponent reveals their hand", "L'adversaire révèle sa main"),
}


def character_sheet(locale: str = "en") -> str:
    """Every character's help card: HP, special and unique abilities (the
    values carrying them come from the card data), in ``locale``."""
    fr = locale.lower().startswith("fr")
    lang = 1 if fr else 0
    lines = ["**Personnages (cartes d'aide)**" if fr else "**Characters (help cards)**"]
    for spec in deck_file().characters:
        special = ", ".join(str(c.value) for c in spec.cards if c.kind == "special")
        unique = ", ".join(str(c.value) for c in spec.cards if c.kind == "unique")
        name = spec.name_fr if fr else spec.name_en
        hp = f"{spec.hp} {'PV' if fr else 'HP'}"
        if spec.hp_asymmetric != spec.hp:
            hp += f" ({spec.hp_asymmetric} {'avec' if fr else 'with'} `hp_variant=asymmetric`)"
        sep = " :" if fr else ":"
        lines.append(
            f"**{name}** — {hp}\n"
            f"★ {'Spéciale' if fr else 'Special'} ({special}){sep} "
            f"{ABILITY_TEXTS[spec.special][lang]}\n"
            f"♦ Unique ({unique}){sep} {ABILITY_TEXTS[spec.unique][lang]}"
        )
    return "\n".join(lines)


def _sort_key(card: str) -> tuple[int, str]:
    value = card_value(card)
    return (999 if value is None else value, card)


# ---------------------------------------------------------------------------
# The game
# ---------------------------------------------------------------------------

_PICK_RE = re.compile(r"^[a-z-]+$")
_PLAY_RE = re.compile(r"^(\d{1,2}|X)\s*>\s*([12])$")
_LINK_RE = re.compile(r"^(\d{1,2})\s*\+\s*([12])$")
_GIVE_RE = re.compile(r"^P\s*([12])$")
_PULL_RE = re.compile(r"^\^\s*(PI|CH|CO|NI)\s*(\d{1,2}|X)$")
_TUTOR_RE = re.compile(r"^T\s*(\d{1,2}|X)$")
_TARGET_RE = re.compile(r"^@\s*([1-9])$")
_DAMAGE_WORDS = {"D", "DAMAGE", "DEGATS", "DÉGÂTS", "DEGÂTS", "DÉGATS"}


class BetweenBattle(Game[State, Action, View]):
    info = GameInfo(
        id=GAME_ID,
        name_fr="Between Battle",
        name_en="Between Battle",
        min_seats=2,
        max_seats=4,
        options_model=Options,
        hidden_information=True,
        chance=True,
        simultaneous=False,
        summary_en=(
            "Play a card whose value lies strictly between the tops of the two piles, "
            "or take damage: the opponent hands you a pile, one damage per card. "
            "Links, jokers and each character's abilities bend the rules. "
            "Reduce your opponents' HP to zero."
        ),
        summary_fr=(
            "Jouez une carte dont la valeur est comprise ENTRE les sommets des deux paquets, "
            "ou prenez des dégâts : l'adversaire vous donne un paquet, 1 dégât par carte. "
            "Liens, jokers et capacités des personnages tordent les règles. "
            "Réduisez les PV de vos adversaires à zéro."
        ),
    )
    state_type = State
    schema_version = 1
    max_actions = 3000
    coverage_events = frozenset(
        {
            "pick",
            "play",
            "link",
            "joker-pull",
            "discard",
            "draw",
            "lock",
            "extra-turn",
            "tutor",
            "steal-top",
            "cancel",
            "reveal",
            "ability-cancelled",
            "damage",
            "eliminated",
            "coup-fatal",
            "resign",
            "game-over",
        }
    )
    conformance_options = (
        "",
        "characters=ninja,cowboy,pirate,chevalier",
        "targeting=choose",
        "link_chain=true joker_depth=2",
        "damage_chooser=taker damage_refill=taker-and-chooser",
        "elimination=last-standing coup_fatal_targets=next exhausted=pass",
        "hp_variant=asymmetric between_rule=inclusive",
        "empty_pile_rule=free lock_beats_empty_pile=false adjacent_tops_free=false",
        "cancel_stops_joker=false cowboy_keeps_link=false hp=4",
        "locked_pile_alone=joker-only adjacent_on_extra_turn=true "
        "damage_with_empty_piles=refused give_empty_pile=true",
    )

    # ---- setup ---------------------------------------------------------
    def setup(self, options: GameOptions, seats: int, seed: int) -> State:
        opts = options if isinstance(options, Options) else self.options(options)
        assert isinstance(opts, Options)
        if not self.info.min_seats <= seats <= self.info.max_seats:
            raise BadOptions(f"Between Battle is for 2 to 4 players, not {seats}.", seats=seats)
        if opts.characters and len(opts.characters) != seats:
            raise BadOptions(
                f"characters lists {len(opts.characters)} decks for {seats} players.",
                seats=seats,
            )
        data = deck_file()
        decks = tuple(
            Deck(
                character=c.id,
                code=c.code,
                hp=c.hp_asymmetric if opts.hp_variant == "asymmetric" else c.hp,
                special=c.special,
                unique=c.unique,
                cards=tuple("X" if card.value is None else str(card.value) for card in c.cards),
                kinds=tuple(card.kind for card in c.cards),
            )
            for c in data.characters
        )
        rules = Rules(
            between_rule=opts.between_rule,
            empty_pile_must=opts.empty_pile_rule == "must-play-there",
            adjacent_tops_free=opts.adjacent_tops_free,
            damage_chooser=opts.damage_chooser,
            damage_refill=opts.damage_refill,
            joker_depth=opts.joker_depth,
            link_chain=opts.link_chain,
            lock_beats_empty_pile=opts.lock_beats_empty_pile,
            coup_fatal_targets=opts.coup_fatal_targets,
            cancel_stops_joker=opts.cancel_stops_joker,
            cowboy_keeps_link=opts.cowboy_keeps_link,
            elimination=opts.elimination,
            targeting=opts.targeting,
            hand_size=data.hand_size,
            decks=decks,
            exhausted=opts.exhausted,
            locked_pile_alone=opts.locked_pile_alone,
            adjacent_on_extra_turn=opts.adjacent_on_extra_turn,
            damage_with_empty_piles=opts.damage_with_empty_piles,
            give_empty_pile=opts.give_empty_pile,
        )
        state = State(
            rules=rules,
            players=tuple(Player(character="", hp=opts.hp or 0) for _ in range(seats)),
            piles=((), ()),
            rng=rng.seed_state(seed, GAME_ID),
            phase="draft",
            active=0,
            decider=0,
        )
        if opts.characters:
            for seat, character in enumerate(opts.characters):
                state = self._assign(state, seat, character)
            state, _ = self._deal(state)
        return state

    def setup_events(self, state: State) -> tuple[Event, ...]:
        """With preset characters the cards are dealt by ``setup``: the deal
        (each hand to its owner), the first player and the first turn."""
        if state.phase == "draft" or state.turn != 1:
            return ()
        events = [
            Event(
                "deal",
                {"seat": seat, "cards": list(p.hand)},
                to=frozenset({seat}),
                redacted={"seat": seat, "count": len(p.hand)},
            )
            for seat, p in enumerate(state.players)
        ]
        events.append(Event("first-player", {"seat": state.first_player}))
        events.append(
            Event("turn", {"seat": state.active, "turn": 1, "lock": -1, "cancelled": False})
        )
        return tuple(events)

    def _assign(self, state: State, seat: Seat, character: str) -> State:
        deck = _deck_by_character(state.rules.decks)[character]
        player = state.players[seat]
        hp = player.hp or deck.hp
        players = list(state.players)
        players[seat] = replace(player, character=character, hp=hp)
        return replace(state, players=tuple(players))

    def _deal(self, state: State) -> tuple[State, list[Event]]:
        stream = rng.Stream(state.rng)
        players = []
        events: list[Event] = []
        size = state.rules.hand_size
        for seat, player in enumerate(state.players):
            deck = _deck_by_character(state.rules.decks)[player.character]
            cards = stream.shuffle([deck.code + label for label in deck.cards])
            hand, rest = cards[:size], cards[size:]
            players.append(replace(player, hand=hand, deck=rest))
            events.append(
                Event(
                    "deal",
                    {"seat": seat, "cards": list(hand)},
                    to=frozenset({seat}),
                    redacted={"seat": seat, "count": len(hand)},
                )
            )
        first = stream.below(len(players))
        state = replace(
            state,
            players=tuple(players),
            rng=stream.state,
            first_player=first,
        )
        events.append(Event("first-player", {"seat": first}))
        state, more = self._start_turn(state, first)
        return state, events + more

    # ---- who decides -----------------------------------------------------
    def seat_count(self, state: State) -> int:
        return len(state.players)

    def pending(self, state: State) -> Mapping[Seat, Decision]:
        phase = state.phase
        if phase == "over":
            return {}
        seat = state.decider
        if phase == "turn":
            lock = state.turn_lock
            text = "Play a card between the two piles, create a link, or take damage (D)."
            params: tuple[tuple[str, str | int], ...] = ()
            if lock >= 0:
                text = f"Play on pile {lock + 1} (Chevalier), or take damage (D)."
                params = (("pile", lock + 1),)
            return {seat: Decision("turn", text, params)}
        if phase == "choose-pile":
            return {
                seat: Decision(
                    "choose-pile",
                    f"Choose the pile that player {state.active + 1} takes as damage.",
                    (("taker", state.active),),
                )
            }
        if phase == "draft":
            return {seat: Decision("draft", "Choose your character.")}
        if phase == "joker-pull":
            return {
                seat: Decision(
                    "joker-pull",
                    f"Joker: choose a card of pile {state.work_pile + 1} to bring up.",
                    (("pile", state.work_pile + 1),),
                )
            }
        if phase == "tutor":
            return {seat: Decision("tutor", "Pirate: take a card of your choice from your deck.")}
        return {
            seat: Decision(
                "target",
                "Choose the opponent your ability targets.",
                (("ability", state.work_ability),),
            )
        }

    # ---- legal actions -----------------------------------------------------
    def legal_actions(self, state: State, seat: Seat) -> list[Action]:
        memo = self._memo
        if memo[0] is state and memo[1] == seat:
            return list(memo[2])
        actions = self._legal(state, seat)
        self._memo = (state, seat, tuple(actions))
        return actions

    _memo: tuple[object, int, tuple[Action, ...]] = (None, -1, ())

    def _legal(self, state: State, seat: Seat) -> list[Action]:
        """The legal actions (``legal_actions`` memoises the last answer, which
        ``apply`` asks again to validate; states are immutable, so it is safe)."""
        if state.phase == "over" or seat != state.decider:
            return []
        phase = state.phase
        if phase == "turn":
            return self._turn_actions(state, seat)
        if phase == "choose-pile":
            piles = state.piles
            given = [i for i in (0, 1) if piles[i] or state.rules.give_empty_pile]
            return [GivePile(i) for i in given or (0, 1)]
        if phase == "draft":
            taken = {p.character for p in state.players}
            return [Pick(d.character) for d in state.rules.decks if d.character not in taken]
        if phase == "joker-pull":
            return [Pull(c) for c in _pull_choices(state)]
        if phase == "tutor":
            labels = sorted({c[2:] for c in state.players[seat].deck}, key=_label_key)
            return [Tutor(label) for label in labels]
        # target
        return [Target(s) for s in _opponents(state, seat)]

    def _turn_actions(self, state: State, seat: Seat) -> list[Action]:
        rules = state.rules
        piles = state.piles
        targets = _play_targets(state)
        # « (X) = Cette carte peut toujours être jouée »: when no pile can take a
        # card (lock_beats_empty_pile=false), the joker still goes on the locked pile
        joker_targets = targets or ((state.turn_lock,) if state.turn_lock >= 0 else (0, 1))
        v0, v1 = pile_value(piles[0]), pile_value(piles[1])
        free = _free_play(state)
        lo = hi = 0
        if not free and v0 is not None and v1 is not None:
            lo, hi = (v0, v1) if v0 <= v1 else (v1, v0)
            if rules.between_rule == "inclusive":
                lo, hi = lo - 1, hi + 1
        # a pile with no value (empty, or only jokers) takes any card
        open_pile = (v0 is None, v1 is None)
        info = _tables(rules.decks)[4]
        link_piles = () if state.turn_lock >= 0 else tuple(i for i in (0, 1) if _open_top(piles[i]))
        actions: list[Action] = []
        for card in sorted(set(state.players[seat].hand), key=info.__getitem__):
            value, kind, label = info[card]
            if kind == "joker":
                actions.extend(Play(label, pile) for pile in joker_targets)
                continue
            ok = free or lo < value < hi
            for pile in targets:
                if ok or (open_pile[pile] and not _locked_alone(state)):
                    actions.append(Play(label, pile))
            if kind == "link":
                for pile in link_piles:
                    actions.append(Link(label, pile))
        if piles[0] or piles[1] or rules.damage_with_empty_piles == "allowed" or not actions:
            actions.append(TakeDamage())
        return actions

    # ---- apply ---------------------------------------------------------------
    def apply(self, state: State, seat: Seat, action: Action) -> tuple[State, tuple[Event, ...]]:
        self.check_turn(state, seat)
        if action not in self.legal_actions(state, seat):
            en, fr = self._why_illegal(state, seat, action)
            raise IllegalAction(en, fr=fr, action=self.format_action(action))
        events: list[Event] = []
        if isinstance(action, Pick):
            state = self._assign(state, seat, action.character)
            events.append(Event("pick", {"seat": seat, "character": action.character}))
            if all(p.character for p in state.players):
                state, more = self._deal(state)
                events += more
            else:
                state = replace(state, active=seat + 1, decider=seat + 1)
        elif isinstance(action, Play | Link):
            state = self._play(state, seat, action, events)
        elif isinstance(action, TakeDamage):
            state = self._declare_damage(state, seat, events)
        elif isinstance(action, GivePile):
            state = self._give_pile(state, action.pile, events)
        elif isinstance(action, Pull):
            state = self._pull(state, seat, action.card, events)
        elif isinstance(action, Tutor):
            state = self._tutor(state, seat, action.card, events)
        elif isinstance(action, Target):
            ability = state.work_ability
            state = replace(state, work_ability="", phase="turn")
            state = self._resolve(state, seat, ability, state.work_pile, events, action.seat)
            state = self._maybe_end_turn(state, seat, events)
        return state, tuple(events)

    def _why_illegal(self, state: State, seat: Seat, action: Action) -> tuple[str, str]:
        """Why an action is refused: (English, French)."""
        phase = state.phase
        if phase == "turn":
            if isinstance(action, Play | Link):
                card = _code_of(state, seat) + action.card
                if card not in state.players[seat].hand:
                    return (
                        f"You have no {action.card} in hand.",
                        f"Vous n'avez pas de {action.card} en main.",
                    )
                if state.turn_lock >= 0 and action.pile != state.turn_lock:
                    n = state.turn_lock + 1
                    return (
                        f"The Chevalier forces you to play on pile {n}.",
                        f"Le Chevalier vous oblige à jouer sur le paquet {n}.",
                    )
                if isinstance(action, Link):
                    if state.turn_lock >= 0:
                        return (
                            "Under the Chevalier's lock you cannot create a link.",
                            "Sous l'effet du Chevalier, vous ne pouvez pas créer de lien.",
                        )
                    if card_kind(state.rules, card) != "link":
                        return (
                            f"The {action.card} is not a link card.",
                            f"Le {action.card} n'est pas une carte lien.",
                        )
                    return (
                        f"Pile {action.pile + 1} has no open link to connect to.",
                        f"Le paquet {action.pile + 1} n'a pas de lien ouvert à compléter.",
                    )
                empties = [i for i in (0, 1) if not state.piles[i]]
                if len(empties) == 1 and action.pile not in empties and state.turn_lock < 0:
                    n = empties[0] + 1
                    return (
                        f"Pile {n} is empty: you must play there.",
                        f"Le paquet {n} est vide : vous devez jouer dessus.",
                    )
                v0, v1 = pile_value(state.piles[0]), pile_value(state.piles[1])
                if _locked_alone(state):
                    n = state.turn_lock + 1
                    return (
                        f"The other pile is empty: only the joker goes on pile {n} (Chevalier).",
                        f"L'autre paquet est vide : seul le joker va sur le paquet {n} "
                        "(Chevalier).",
                    )
                return (
                    f"The {action.card} is not between {v0} and {v1}.",
                    f"Le {action.card} n'est pas compris entre {v0} et {v1}.",
                )
            if isinstance(action, TakeDamage):
                return (
                    "Both piles are empty: there is no damage to take, play a card.",
                    "Les deux paquets sont vides : pas de dégâts à prendre, jouez une carte.",
                )
            return (
                "Now play a card, create a link or take damage (D).",
                "Jouez une carte, créez un lien ou prenez des dégâts (D).",
            )
        if phase == "choose-pile" and isinstance(action, GivePile):
            n = action.pile + 1
            return (
                f"Pile {n} is empty: give the pile that has cards.",
                f"Le paquet {n} est vide : donnez le paquet qui a des cartes.",
            )
        expected = {
            "draft": ("choose a character", "choisissez un personnage"),
            "choose-pile": ("choose a pile: P1 or P2", "choisissez un paquet : P1 ou P2"),
            "joker-pull": (
                "choose a card to bring up with the joker (^Co7)",
                "choisissez la carte que le joker fait remonter (^Co7)",
            ),
            "tutor": (
                "choose a card from your deck (T14)",
                "choisissez une carte de votre pioche (T14)",
            ),
            "target": ("choose a target (@2)", "choisissez une cible (@2)"),
        }.get(phase, ("wait", "attendez"))
        return (
            f"That is not possible now: {expected[0]}.",
            f"Impossible maintenant : {expected[1]}.",
        )

    # -- playing a card
    def _play(self, state: State, seat: Seat, action: Play | Link, events: list[Event]) -> State:
        rules = state.rules
        player = state.players[seat]
        card = _code_of(state, seat) + action.card
        hand = _remove_one(player.hand, card)
        revealed = (
            _remove_one(player.revealed, card) if card in player.revealed else player.revealed
        )
        state = _set_player(state, seat, replace(player, hand=hand, revealed=revealed))
        pile = action.pile
        kind = card_kind(rules, card)
        if isinstance(action, Link):
            old = state.piles[pile]
            placed = card + "~" if rules.link_chain else card
            state = _set_pile(state, pile, (placed,))
            state = replace(state, discard=state.discard + tuple(plain(c) for c in old))
            events.append(
                Event(
                    "link",
                    {
                        "seat": seat,
                        "card": card,
                        "pile": pile,
                        "discarded": [plain(c) for c in old],
                    },
                )
            )
        else:
            placed = card + "~" if kind == "link" else card
            state = _set_pile(state, pile, (*state.piles[pile], placed))
            events.append(Event("play", {"seat": seat, "card": card, "pile": pile}))
        state = replace(state, last_player=seat, work_pile=pile)
        if isinstance(action, Play):
            ability = ability_of(rules, card)
            if ability is not None:
                if state.turn_cancelled and (ability != "joker" or rules.cancel_stops_joker):
                    events.append(Event("ability-cancelled", {"seat": seat, "card": card}))
                else:
                    state = self._resolve(state, seat, ability, pile, events)
        return self._maybe_end_turn(state, seat, events)

    def _resolve(
        self,
        state: State,
        seat: Seat,
        ability: str,
        pile: int,
        events: list[Event],
        target: Seat | None = None,
    ) -> State:
        """Apply one ability for ``seat``; may leave a sub-decision pending."""
        if ability == "joker":
            if _pull_choices(replace(state, work_pile=pile)):
                return replace(state, phase="joker-pull", work_pile=pile, decider=seat)
            events.append(Event("joker-empty", {"seat": seat, "pile": pile}))
            return state
        if ability in ("discard-random", "reveal") and target is None:
            choices = _opponents(state, seat)
            if not choices:
                return state
            if state.rules.targeting == "choose" and len(choices) > 1:
                return replace(
                    state, phase="target", work_ability=ability, work_pile=pile, decider=seat
                )
            target = choices[0]
        if ability == "discard-random":
            assert target is not None
            victim = state.players[target]
            if not victim.hand:
                events.append(Event("discard-none", {"seat": seat, "target": target}))
                return state
            index, next_rng = rng.randbelow(state.rng, len(victim.hand))
            card = victim.hand[index]
            hand = victim.hand[:index] + victim.hand[index + 1 :]
            revealed = (
                _remove_one(victim.revealed, card) if card in victim.revealed else victim.revealed
            )
            state = _set_player(state, target, replace(victim, hand=hand, revealed=revealed))
            state = replace(state, rng=next_rng, discard=(*state.discard, card))
            events.append(Event("discard", {"seat": seat, "target": target, "card": card}))
        elif ability == "reveal":
            assert target is not None
            victim = state.players[target]
            state = _set_player(state, target, replace(victim, revealed=victim.hand))
            events.append(
                Event("reveal", {"seat": seat, "target": target, "cards": sorted(victim.hand)})
            )
        elif ability == "draw":
            player = state.players[seat]
            if player.deck:
                card = player.deck[0]
                state = _set_player(
                    state, seat, replace(player, hand=(*player.hand, card), deck=player.deck[1:])
                )
                events.append(
                    Event(
                        "draw",
                        {"seat": seat, "cards": [card]},
                        to=frozenset({seat}),
                        redacted={"seat": seat, "count": 1},
                    )
                )
            else:
                events.append(Event("draw", {"seat": seat, "count": 0}))
        elif ability == "lock":
            locked = _next_seat(state, seat)
            locks = tuple(lk for lk in state.lock_next if lk[0] != locked) + ((locked, pile),)
            state = replace(state, lock_next=locks)
            events.append(Event("lock", {"seat": seat, "target": locked, "pile": pile}))
        elif ability == "cancel":
            cancelled = _next_seat(state, seat)
            if cancelled not in state.cancel_next:
                state = replace(state, cancel_next=(*state.cancel_next, cancelled))
            events.append(Event("cancel", {"seat": seat, "target": cancelled}))
        elif ability == "extra-turn":
            state = replace(state, extra_turn=True)
            events.append(Event("extra-turn", {"seat": seat}))
        elif ability == "tutor":
            if state.players[seat].deck:
                return replace(state, phase="tutor", decider=seat)
            events.append(Event("tutor-empty", {"seat": seat}))
        elif ability == "steal-top":
            other = 1 - pile
            source = state.piles[other]
            if source:
                moved = source[-1]
                if not state.rules.cowboy_keeps_link:
                    moved = plain(moved)
                state = _set_pile(state, other, source[:-1])
                state = _set_pile(state, pile, (*state.piles[pile], moved))
                events.append(
                    Event(
                        "steal-top", {"seat": seat, "card": plain(moved), "from": other, "to": pile}
                    )
                )
            else:
                events.append(Event("steal-top", {"seat": seat, "card": None, "from": other}))
        return state

    def _pull(self, state: State, seat: Seat, card: str, events: list[Event]) -> State:
        pile = state.work_pile
        cards = list(state.piles[pile])
        # the topmost matching card below the joker
        for i in range(len(cards) - 2, -1, -1):
            if plain(cards[i]) == card:
                moved = cards.pop(i)
                cards.append(moved)
                break
        state = replace(state, piles=_with_pile(state.piles, pile, tuple(cards)), phase="turn")
        events.append(Event("joker-pull", {"seat": seat, "card": card, "pile": pile}))
        ability = ability_of(state.rules, card)
        if ability is not None and ability != "joker":
            if state.turn_cancelled:
                # cancel_stops_joker=false: the joker pulls, but « n'applique pas la
                # capacité de sa carte jouée » still holds for the pulled card
                events.append(Event("ability-cancelled", {"seat": seat, "card": card}))
            else:
                state = self._resolve(state, seat, ability, pile, events)
        return self._maybe_end_turn(state, seat, events)

    def _tutor(self, state: State, seat: Seat, label: str, events: list[Event]) -> State:
        player = state.players[seat]
        card = _code_of(state, seat) + label
        deck = _remove_one(player.deck, card)
        deck, next_rng = rng.shuffle(state.rng, deck)
        state = _set_player(state, seat, replace(player, hand=(*player.hand, card), deck=deck))
        state = replace(state, rng=next_rng, phase="turn")
        events.append(
            Event(
                "tutor",
                {"seat": seat, "card": card},
                to=frozenset({seat}),
                redacted={"seat": seat},
            )
        )
        return self._maybe_end_turn(state, seat, events)

    # -- end of a turn
    def _maybe_end_turn(self, state: State, seat: Seat, events: list[Event]) -> State:
        if state.phase != "turn":
            return state  # a sub-decision is pending
        player = state.players[seat]
        if not player.hand and not player.deck:
            return self._coup_fatal(state, seat, events)
        state = self._refill_empty_hands(state, events)
        bonus = state.extra_turn
        nxt = seat if bonus else _next_seat(state, seat)
        state, more = self._start_turn(state, nxt, bonus)
        events += more
        return state

    def _refill_empty_hands(self, state: State, events: list[Event]) -> State:
        for seat, player in enumerate(state.players):
            if not player.out and not player.hand and player.deck:
                state = _draw_to(state, seat, state.rules.hand_size, events)
        return state

    def _start_turn(
        self, state: State, seat: Seat, bonus: bool = False
    ) -> tuple[State, list[Event]]:
        events: list[Event] = []
        player = state.players[seat]
        if not player.hand and not player.deck:
            # Nothing left to play with (the Pirate discarded their last card).
            # The seed has no rule for it: option ``exhausted``.
            if state.rules.exhausted == "pass":
                n = len(state.players)
                for step in range(1, n):
                    s = (seat + step) % n
                    other = state.players[s]
                    if not other.out and (other.hand or other.deck):
                        events.append(Event("turn-passed", {"seat": seat}))
                        state = replace(
                            state,
                            lock_next=tuple(lk for lk in state.lock_next if lk[0] != seat),
                            cancel_next=tuple(c for c in state.cancel_next if c != seat),
                        )
                        state, more = self._start_turn(state, s)
                        return state, events + more
            ender = state.last_player if state.last_player >= 0 else seat
            state = self._finish(state, ender, "exhausted", events)
            return state, events
        lock = -1
        locks = []
        for target, pile in state.lock_next:
            if target == seat:
                lock = pile
            else:
                locks.append((target, pile))
        cancelled = seat in state.cancel_next
        state = replace(
            state,
            phase="turn",
            active=seat,
            decider=seat,
            turn=state.turn + 1,
            turn_lock=lock,
            turn_cancelled=cancelled,
            lock_next=tuple(locks),
            cancel_next=tuple(s for s in state.cancel_next if s != seat),
            extra_turn=False,
            bonus_turn=bonus,
        )
        events.append(
            Event("turn", {"seat": seat, "turn": state.turn, "lock": lock, "cancelled": cancelled})
        )
        return state, events

    # -- damage
    def _declare_damage(self, state: State, seat: Seat, events: list[Event]) -> State:
        chooser = _damage_chooser(state, seat)
        events.append(Event("damage-declared", {"seat": seat, "chooser": chooser}))
        if not state.piles[0] and not state.piles[1]:
            return self._take_pile(state, seat, chooser, None, events)
        return replace(state, phase="choose-pile", decider=chooser)

    def _give_pile(self, state: State, pile: int, events: list[Event]) -> State:
        return self._take_pile(state, state.active, state.decider, pile, events)

    def _take_pile(
        self, state: State, taker: Seat, chooser: Seat, pile: int | None, events: list[Event]
    ) -> State:
        cards: tuple[str, ...] = ()
        if pile is not None:
            cards = tuple(plain(c) for c in state.piles[pile])
            state = _set_pile(state, pile, ())
        victim = state.players[taker]
        victim = replace(victim, damage=victim.damage + cards)
        state = _set_player(state, taker, victim)
        events.append(
            Event(
                "damage",
                {
                    "seat": taker,
                    "pile": pile,
                    "cards": list(cards),
                    "amount": len(cards),
                    "life": victim.life,
                },
            )
        )
        if victim.life <= 0:
            state = self._eliminate(state, taker, events)
            if state.phase == "over":
                return state
        # refill
        for seat, player in enumerate(state.players):
            if player.out:
                continue
            if state.rules.damage_refill == "all" or seat in (taker, chooser):
                state = _draw_to(state, seat, state.rules.hand_size, events)
        nxt = taker if not state.players[taker].out else _next_seat(state, taker)
        state, more = self._start_turn(state, nxt)
        events += more
        return state

    def _eliminate(
        self, state: State, seat: Seat, events: list[Event], reason: str = "knockout"
    ) -> State:
        player = state.players[seat]
        state = _set_player(state, seat, replace(player, out=True, hand=(), deck=(), revealed=()))
        state = replace(
            state,
            eliminated=(*state.eliminated, seat),
            lock_next=tuple(lk for lk in state.lock_next if lk[0] != seat),
            cancel_next=tuple(s for s in state.cancel_next if s != seat),
        )
        events.append(Event("eliminated", {"seat": seat}))
        alive = [s for s, p in enumerate(state.players) if not p.out]
        # « La fin de partie se déclenche lorsqu'un joueur subit des dégâts et que
        # ses points de vie arrivent à zéro »: a death by damage ends the game
        # (elimination=first-death); a resignation alone does not
        first_death = state.rules.elimination == "first-death" and reason == "knockout"
        if len(alive) <= 1 or first_death:
            ender = state.last_player if state.last_player >= 0 else alive[0]
            state = self._finish(state, ender, reason, events)
        return state

    def _coup_fatal(self, state: State, seat: Seat, events: list[Event]) -> State:
        victims = [s for s in _opponents(state, seat)]
        if state.rules.coup_fatal_targets == "next":
            victims = victims[:1]
        for victim_seat in victims:
            victim = state.players[victim_seat]
            cards = victim.hand + victim.deck
            victim = replace(victim, hand=(), deck=(), revealed=(), damage=victim.damage + cards)
            state = _set_player(state, victim_seat, victim)
            events.append(
                Event(
                    "coup-fatal",
                    {
                        "seat": seat,
                        "target": victim_seat,
                        "amount": len(cards),
                        "cards": sorted(cards),
                        "life": victim.life,
                    },
                )
            )
        return self._finish(state, seat, "coup-fatal", events)

    def _finish(self, state: State, ender: Seat, reason: str, events: list[Event]) -> State:
        """End the game: the living rank by life left, the ender winning ties."""
        living = [s for s, p in enumerate(state.players) if not p.out]
        groups: dict[int, list[Seat]] = {}
        for s in living:
            groups.setdefault(state.players[s].life, []).append(s)
        ranking: list[tuple[Seat, ...]] = []
        for life in sorted(groups, reverse=True):
            group = groups[life]
            if ender in group and len(group) > 1:
                ranking.append((ender,))
                group = [s for s in group if s != ender]
            ranking.append(tuple(group))
        for s in reversed(state.eliminated):
            ranking.append((s,))
        state = replace(
            state,
            phase="over",
            ranking=tuple(ranking),
            end_reason=reason,
            decider=-1,
        )
        events.append(
            Event(
                "game-over",
                {
                    "reason": reason,
                    "ranking": [list(g) for g in ranking],
                    "ender": ender,
                    "life": [p.life for p in state.players],
                },
            )
        )
        return state

    def resign(self, state: State, seat: Seat) -> tuple[State, tuple[Event, ...]]:
        """A resigning player is eliminated at once (ranked below everyone
        still playing); with one player left, or ``elimination=first-death``,
        the game ends. If it was their decision, play moves on."""
        from ..errors import GameOver, NotYourTurn

        if state.phase == "over":
            raise GameOver("The game is over.")
        if not 0 <= seat < len(state.players) or state.players[seat].out:
            raise NotYourTurn("You are not playing in this game.", seat=seat)
        if state.phase == "draft":
            raise IllegalAction(
                "Resigning is possible once the cards are dealt.", code="resign-draft"
            )
        events: list[Event] = [Event("resign", {"seat": seat})]
        was_deciding = state.decider == seat
        active_left = state.active == seat
        if state.last_player == seat:
            state = replace(state, last_player=-1)
        state = self._eliminate(state, seat, events, "resign")
        if state.phase == "over":
            return state, tuple(events)
        if active_left:
            # the resigner's turn (or its damage) is abandoned: the next player plays
            state = replace(state, phase="turn", work_ability="")
            state, more = self._start_turn(state, _next_seat(state, seat))
            events += more
        elif was_deciding:
            # they were choosing a damage pile: the next living player chooses
            state = replace(state, decider=_damage_chooser(state, state.active))
        return state, tuple(events)

    # ---- outcome & views ---------------------------------------------------
    def outcome(self, state: State) -> Outcome | None:
        if state.phase != "over":
            return None
        return Outcome(
            ranking=state.ranking,
            reason=state.end_reason,
            scores=tuple(p.life for p in state.players),
        )

    def view(self, state: State, seat: Seat | None) -> View:
        players = tuple(
            PlayerView(
                seat=i,
                character=p.character,
                hp=p.hp,
                damage=len(p.damage),
                life=p.life,
                hand_count=len(p.hand),
                deck_count=len(p.deck),
                hand=tuple(sorted(p.hand, key=_sort_key)) if i == seat else None,
                revealed=tuple(sorted(p.revealed, key=_sort_key)),
                out=p.out,
            )
            for i, p in enumerate(state.players)
        )
        choices: tuple[str, ...] = ()
        if seat is not None:
            choices = tuple(self.format_action(a) for a in self.legal_actions(state, seat))
        return View(
            observer=seat,
            phase=state.phase,
            turn=state.turn,
            active=state.active,
            pending=tuple((s, d.kind) for s, d in self.pending(state).items()),
            players=players,
            piles=state.piles,
            pile_values=(pile_value(state.piles[0]), pile_value(state.piles[1])),
            discard=state.discard,
            lock_next=state.lock_next,
            cancel_next=state.cancel_next,
            turn_lock=state.turn_lock,
            turn_cancelled=state.turn_cancelled,
            work_pile=state.work_pile,
            choices=choices,
            ranking=state.ranking,
            end_reason=state.end_reason,
            decks=state.rules.decks,
            hand_size=state.rules.hand_size,
            between_rule=state.rules.between_rule,
            adjacent_tops_free=state.rules.adjacent_tops_free,
            empty_pile_must=state.rules.empty_pile_must,
            work_ability=state.work_ability,
            last_player=state.last_player,
            first_player=state.first_player,
            eliminated=state.eliminated,
            rules=state.rules,
            bonus_turn=state.bonus_turn,
            free_play=_free_play(state),
        )

    def determinize(self, state: State, seat: Seat | None, seed: int) -> State:
        """Resample what ``seat`` cannot see: the others' hidden hand cards,
        every deck's order and which cards lie face down as damage (« placées
        face cachée »). A character's hidden cards (its owner's hidden hand and
        deck, and its cards in anybody's damage) are dealt again between those
        places; every count stays the same."""
        stream = rng.Stream(rng.seed_state(seed, "determinize"))
        players = list(state.players)
        codes = _deck_by_character(state.rules.decks)
        owner_of = {codes[p.character].code: i for i, p in enumerate(players) if p.character}
        pools: dict[str, list[str]] = {code: [] for code in owner_of}
        for p in players:
            for card in p.damage:
                pools.setdefault(card[:2], []).append(card)
        kept: dict[Seat, tuple[str, ...]] = {}
        # choosing with the Pirate's unique, a player sees their deck's cards
        tutor = seat if seat is not None and state.phase == "tutor" else -1
        if state.decider != seat:
            tutor = -1
        for i, p in enumerate(players):
            if not p.character:
                continue
            known = list(p.hand) if i == seat else list(p.revealed)
            hidden = list(p.hand)
            for card in known:
                hidden.remove(card)
            kept[i] = tuple(known)
            if i == tutor:
                continue
            pools[codes[p.character].code] += hidden + list(p.deck)
        bag: list[str] = []
        dealt: dict[Seat, list[str]] = {}
        for code in sorted(pools):
            pool = stream.shuffle(pools[code])
            owner = owner_of.get(code)
            need = 0
            if owner is not None and owner != tutor:
                p = players[owner]
                need = len(p.hand) - len(kept[owner]) + len(p.deck)
            dealt[owner if owner is not None else -1] = list(pool[:need])
            bag += pool[need:]
        bag = list(stream.shuffle(bag))
        for i, p in enumerate(players):
            damage = tuple(bag[: len(p.damage)])
            bag = bag[len(p.damage) :]
            if not p.character:
                players[i] = replace(p, damage=damage)
                continue
            own = dealt.get(i, [])
            if i == tutor:
                own = list(stream.shuffle(p.deck))
            n_hidden = len(p.hand) - len(kept[i])
            players[i] = replace(
                p,
                hand=kept[i] + tuple(own[:n_hidden]),
                deck=tuple(own[n_hidden:]),
                damage=damage,
            )
        return replace(state, players=tuple(players), rng=stream.below(1 << 62) + 1)

    def sample_state(self, view: View, seed: int) -> State:
        """A state the observer of ``view`` cannot tell apart from the real one.

        The damage cards lie face down: a view gives their count only. Each
        character's cards that are nowhere public (piles, discard, revealed,
        the observer's hand) are its owner's hidden hand and deck, or somebody's
        damage. The owner's share is dealt at random; the rest (plus, for an
        eliminated player's character, as many of its unseen cards as needed)
        are the damage cards, dealt at random by each player's damage count.
        The observer keeps their own hand; their deck order is drawn too."""
        seat = view.observer
        if seat is None:
            raise ValueError("sample_state needs a seat's view, not a spectator's")
        rules = view.rules
        stream = rng.Stream(rng.seed_state(seed, "sample-state"))
        seen: dict[str, int] = {}
        public = [plain(c) for pile in view.piles for c in pile]
        public += view.discard
        for card in public:
            seen[card] = seen.get(card, 0) + 1
        by_character = _deck_by_character(rules.decks)
        drafted = view.phase != "draft"
        required: list[str] = []  # unseen cards of living players' characters
        optional: list[str] = []  # unseen cards of eliminated players' characters
        own_share: dict[Seat, tuple[tuple[str, ...], list[str]]] = {}
        for pv in view.players:
            if not pv.character or not drafted:
                continue
            deck = by_character[pv.character]
            known = () if pv.out else tuple(pv.hand if pv.hand is not None else pv.revealed)
            taken = dict(seen)
            for card in known:
                taken[card] = taken.get(card, 0) + 1
            pool = []
            for label in deck.cards:
                card = deck.code + label
                if taken.get(card, 0):
                    taken[card] -= 1
                else:
                    pool.append(card)
            pool = list(stream.shuffle(pool))
            need = 0 if pv.out else pv.hand_count - len(known) + pv.deck_count
            if pv.seat == seat and view.phase == "tutor" and view.pending[0][0] == seat:
                # the Pirate's unique shows its player the cards of their deck
                in_deck = [deck.code + c[1:] for c in view.choices]
                pool = [c for c in pool if c not in in_deck] + list(stream.shuffle(in_deck))
                pool = pool[len(pool) - need :] + pool[: len(pool) - need]
            if len(pool) < need or pv.hand_count < len(known):
                raise ValueError(
                    f"view inconsistent: seat {pv.seat} has {len(pool)} unseen cards, "
                    f"{pv.hand_count - len(known)} in hand and {pv.deck_count} in the deck"
                )
            own_share[pv.seat] = (known, pool[:need])
            (optional if pv.out else required).extend(pool[need:])
        total_damage = sum(pv.damage for pv in view.players) if drafted else 0
        extra = total_damage - len(required)
        if extra < 0 or extra > len(optional):
            raise ValueError(
                f"view inconsistent: {total_damage} damage cards, "
                f"{len(required)} to {len(required) + len(optional)} unseen cards for them"
            )
        bag = list(stream.shuffle(required + list(stream.shuffle(optional))[:extra]))
        players = []
        for pv in view.players:
            damage = tuple(bag[: pv.damage]) if drafted else ()
            bag = bag[len(damage) :]
            if pv.seat not in own_share or pv.out:
                players.append(Player(pv.character, pv.hp, damage=damage, out=pv.out))
                continue
            known, share = own_share[pv.seat]
            n_hidden = pv.hand_count - len(known)
            players.append(
                Player(
                    character=pv.character,
                    hp=pv.hp,
                    hand=known + tuple(share[:n_hidden]),
                    deck=tuple(share[n_hidden:]),
                    damage=damage,
                    revealed=pv.revealed,
                    out=False,
                )
            )
        decider = view.pending[0][0] if view.pending else -1
        return State(
            rules=rules,
            players=tuple(players),
            piles=view.piles,
            rng=stream.below(1 << 62) + 1,
            phase=view.phase,  # type: ignore[arg-type]
            active=view.active,
            decider=decider,
            discard=view.discard,
            turn=view.turn,
            first_player=view.first_player,
            work_pile=view.work_pile,
            work_ability=view.work_ability,
            lock_next=view.lock_next,
            cancel_next=view.cancel_next,
            turn_lock=view.turn_lock,
            turn_cancelled=view.turn_cancelled,
            extra_turn=False,
            last_player=view.last_player,
            eliminated=view.eliminated,
            ranking=view.ranking,
            end_reason=view.end_reason,
            bonus_turn=view.bonus_turn,
        )

    def rules_details(self, locale: str = "en") -> str:
        return character_sheet(locale)

    # ---- notation ----------------------------------------------------------
    def format_action(self, action: Action) -> str:
        if isinstance(action, Play):
            return f"{action.card}>{action.pile + 1}"
        if isinstance(action, TakeDamage):
            return "D"
        if isinstance(action, GivePile):
            return f"P{action.pile + 1}"
        if isinstance(action, Link):
            return f"{action.card}+{action.pile + 1}"
        if isinstance(action, Pull):
            return f"^{action.card}"
        if isinstance(action, Tutor):
            return f"T{action.card}"
        if isinstance(action, Target):
            return f"@{action.seat + 1}"
        return action.character

    def parse_action(self, text: str) -> Action:
        raw = text.strip()
        up = raw.upper().replace(" ", "")
        if up in _DAMAGE_WORDS:
            return TakeDamage()
        if m := _PLAY_RE.match(up):
            return Play(_label(m.group(1)), int(m.group(2)) - 1)
        if m := _LINK_RE.match(up):
            return Link(_label(m.group(1)), int(m.group(2)) - 1)
        if m := _GIVE_RE.match(up):
            return GivePile(int(m.group(1)) - 1)
        if m := _PULL_RE.match(up):
            return Pull(CODES[m.group(1).lower()] + _label(m.group(2)))
        if m := _TUTOR_RE.match(up):
            return Tutor(_label(m.group(1)))
        if m := _TARGET_RE.match(up):
            return Target(int(m.group(1)) - 1)
        low = raw.lower().replace(" ", "")
        if _PICK_RE.match(low) and low in CHARACTER_ALIASES:
            character = CHARACTER_ALIASES[low]
            return Pick(character)  # type: ignore[arg-type]
        raise BadNotation(
            f"{text!r} is not a Between Battle move. Examples: 7>1 (play the 7 on pile 1), "
            "5+2 (create a link on pile 2), D (take damage), P1 (give pile 1), "
            "^Co7 (joker: bring up the Cow-boy's 7), T14 (take the 14 from your deck), "
            "@2 (target player 2), pirate (pick a character).",
            fr=f"{text!r} n'est pas un coup de Between Battle. Exemples : 7>1 (jouer le 7 sur "
            "le paquet 1), 5+2 (créer un lien sur le paquet 2), D (prendre des dégâts), "
            "P1 (donner le paquet 1), ^Co7 (joker : remonter le 7 du Cow-boy), "
            "T14 (prendre le 14 de votre pioche), @2 (cibler le joueur 2), "
            "pirate (choisir un personnage).",
            text=text,
        )

    def describe_action(self, state: State, seat: Seat, action: Action, locale: str = "en") -> str:
        fr = locale.lower().startswith("fr")
        if isinstance(action, Play):
            kind = card_kind(state.rules, _code_of(state, seat) + action.card)
            what = {"joker": "Joker", "link": ("Lien" if fr else "Link")}.get(kind, action.card)
            if kind == "link":
                what = f"{what} {action.card}"
            return f"{what} → {'paquet' if fr else 'pile'} {action.pile + 1}"
        if isinstance(action, Link):
            return (
                f"Créer un lien {action.card} sur le paquet {action.pile + 1}"
                if fr
                else f"Create link {action.card} on pile {action.pile + 1}"
            )
        if isinstance(action, TakeDamage):
            return "Prendre des dégâts" if fr else "Take damage"
        if isinstance(action, GivePile):
            n = len(state.piles[action.pile])
            return (
                f"Donner le paquet {action.pile + 1} ({n} carte{'s' if n > 1 else ''})"
                if fr
                else f"Give pile {action.pile + 1} ({n} card{'s' if n != 1 else ''})"
            )
        if isinstance(action, Pull):
            return f"{'Remonter' if fr else 'Bring up'} {action.card}"
        if isinstance(action, Tutor):
            return f"{'Prendre' if fr else 'Take'} {action.card}"
        if isinstance(action, Target):
            return f"{'Cibler le joueur' if fr else 'Target player'} {action.seat + 1}"
        deck = _deck_by_character(state.rules.decks)[action.character]
        return _character_name(deck.character, fr)

    def decision_text(
        self, decision: Decision, locale: str = "en", names: Sequence[str] = ()
    ) -> str:
        fr = locale.lower().startswith("fr")
        kind = decision.kind
        if kind == "choose-pile":
            taker = decision.param("taker")
            if isinstance(taker, int) and 0 <= taker < len(names):
                who = names[taker]
            else:
                who = f"{'le joueur' if fr else 'player'} {int(taker or 0) + 1}"
            if fr:
                return f"Choisissez le paquet {que(who)} prend en dégâts (P1 ou P2)."
            return f"Choose the pile {who} takes as damage (P1 or P2)."
        if not fr:
            return decision.text
        if kind == "turn":
            pile = decision.param("pile")
            if pile is not None:
                return f"Jouez sur le paquet {pile} (Chevalier), ou prenez des dégâts (D)."
            return (
                "Jouez une carte entre les deux paquets, créez un lien, ou prenez des dégâts (D)."
            )
        if kind == "draft":
            return "Choisissez votre personnage."
        if kind == "joker-pull":
            return (
                f"Joker : choisissez une carte du paquet {decision.param('pile')} à faire remonter."
            )
        if kind == "tutor":
            return "Pirate : prenez une carte au choix dans votre pioche."
        return "Choisissez l'adversaire visé par votre capacité."

    def describe_event(self, event: Event, names: Sequence[str], locale: str = "en") -> str | None:
        fr = locale.lower().startswith("fr")
        d = event.data

        def who(key: str = "seat") -> str:
            seat = d.get(key)
            if not isinstance(seat, int) or not 0 <= seat < len(names):
                return "?"
            return names[seat]

        def pile(key: str = "pile") -> str:
            value = d.get(key)
            n = value + 1 if isinstance(value, int) else "?"
            return f"{'paquet' if fr else 'pile'} {n}"

        kind = event.kind
        if kind == "pick":
            name = _character_name(str(d.get("character")), fr)
            return f"{who()} {'choisit' if fr else 'picks'} {name}."
        if kind == "first-player":
            return f"{who()} {'commence' if fr else 'starts'}."
        if kind == "play":
            return f"{who()} {'joue' if fr else 'plays'} {d['card']} → {pile()}."
        if kind == "link":
            return (
                f"{who()} crée un lien avec {d['card']} : le {pile()} est défaussé."
                if fr
                else f"{who()} creates a link with {d['card']}: {pile()} is discarded."
            )
        if kind == "joker-pull":
            return (
                f"Joker : {d['card']} remonte sur le {pile()}."
                if fr
                else f"Joker: {d['card']} comes up on {pile()}."
            )
        if kind == "discard":
            return (
                f"Pirate : {who('target')} défausse {d['card']} au hasard."
                if fr
                else f"Pirate: {who('target')} discards {d['card']} at random."
            )
        if kind == "draw":
            cards = d.get("cards")
            count = len(cards) if isinstance(cards, list) else d.get("count", 0)
            if not count:
                return None
            if isinstance(cards, list):
                shown = ", ".join(cards)
                return f"{who()} {'pioche' if fr else 'draws'} {shown}."
            return f"{who()} {'pioche' if fr else 'draws'} {count}."
        if kind == "lock":
            return (
                f"Chevalier : au prochain tour, {who('target')} doit jouer sur le {pile()}."
                if fr
                else f"Chevalier: next turn, {who('target')} must play on {pile()}."
            )
        if kind == "cancel":
            return (
                f"Chevalier : la prochaine carte {de(who('target'))} n'aura pas de capacité."
                if fr
                else f"Chevalier: {who('target')}'s next card has no ability."
            )
        if kind == "extra-turn":
            return f"Ninja : {who()} rejoue." if fr else f"Ninja: {who()} plays again."
        if kind == "tutor":
            card = d.get("card")
            if card:
                return f"Pirate : vous prenez {card}." if fr else f"Pirate: you take {card}."
            return (
                f"Pirate : {who()} prend une carte de sa pioche."
                if fr
                else f"Pirate: {who()} takes a card from their deck."
            )
        if kind == "steal-top":
            if d.get("card") is None:
                return None
            return (
                f"Cow-boy : {d['card']} passe sur le {pile('to')}."
                if fr
                else f"Cow-boy: {d['card']} moves onto {pile('to')}."
            )
        if kind == "reveal":
            cards = ", ".join(d.get("cards", [])) or "—"
            return (
                f"Ninja : {who('target')} révèle sa main : {cards}."
                if fr
                else f"Ninja: {who('target')} reveals their hand: {cards}."
            )
        if kind == "ability-cancelled":
            return (
                f"Capacité de {d['card']} annulée (Chevalier)."
                if fr
                else f"{d['card']}'s ability is cancelled (Chevalier)."
            )
        if kind == "damage-declared":
            return (
                f"{who()} prend des dégâts ; {who('chooser')} choisit le paquet."
                if fr
                else f"{who()} takes damage; {who('chooser')} chooses the pile."
            )
        if kind == "damage":
            return (
                f"{who()} prend {d['amount']} dégât(s) ; reste {max(0, d['life'])} PV."
                if fr
                else f"{who()} takes {d['amount']} damage; {max(0, d['life'])} HP left."
            )
        if kind == "coup-fatal":
            return (
                f"Coup fatal ! {who('target')} prend {d['amount']} dégât(s)."
                if fr
                else f"Coup fatal! {who('target')} takes {d['amount']} damage."
            )
        if kind == "eliminated":
            return f"{who()} {'est hors jeu' if fr else 'is out'}."
        if kind == "turn-passed":
            return (
                f"{who()} n'a plus de cartes : son tour passe."
                if fr
                else f"{who()} has no cards left: their turn passes."
            )
        if kind == "resign":
            return f"{who()} {'abandonne' if fr else 'resigns'}."
        return None

    def summary(self, view: View, names: Sequence[str], locale: str = "en") -> str:
        fr = locale.lower().startswith("fr")
        lines = []
        for i, pile in enumerate(view.piles):
            value = view.pile_values[i]
            top = pile[-1] if pile else "—"
            label = "Paquet" if fr else "Pile"
            shown = "—" if value is None else value
            lines.append(f"{label} {i + 1} : {top} (valeur {shown}, {len(pile)} carte(s))")
            if not fr:
                lines[-1] = f"{label} {i + 1}: {top} (value {shown}, {len(pile)} card(s))"
        for p in view.players:
            name = names[p.seat] if p.seat < len(names) else f"#{p.seat + 1}"
            if not p.character:
                lines.append(f"{p.seat + 1}. {name}{colon(fr)} {'choisit…' if fr else 'choosing…'}")
                continue
            character = _character_name(p.character, fr)
            status = (" — " + ("hors jeu" if fr else "out")) if p.out else ""
            hp = "PV" if fr else "HP"
            hand = "main" if fr else "hand"
            deck = "pioche" if fr else "deck"
            line = (
                f"{p.seat + 1}. {name} ({character}){colon(fr)} {max(0, p.life)}/{p.hp} {hp}, "
                f"{p.hand_count} {hand}, {p.deck_count} {deck}{status}"
            )
            if p.revealed:
                line += f" — {'révélées' if fr else 'revealed'}{colon(fr)} {', '.join(p.revealed)}"
            lines.append(line)
            if p.hand is not None:
                lines.append(
                    f"   {'Votre main' if fr else 'Your hand'}{colon(fr)} {' '.join(p.hand)}"
                )
        return "\n".join(lines)


# ---------------------------------------------------------------------------
# Helpers (module level: they are pure functions of the state)
# ---------------------------------------------------------------------------


def _character_name(character: str, fr: bool) -> str:
    for spec in deck_file().characters:
        if spec.id == character:
            return spec.name_fr if fr else spec.name_en
    return character


def _code_of(state: State, seat: Seat) -> str:
    character = state.players[seat].character
    return _deck_by_character(state.rules.decks)[character].code


def _label(text: str) -> str:
    return "X" if text == "X" else str(int(text))


def _label_key(label: str) -> tuple[int, str]:
    return (999, label) if label == "X" else (int(label), label)


def _remove_one(cards: tuple[str, ...], card: str) -> tuple[str, ...]:
    i = cards.index(card)
    return cards[:i] + cards[i + 1 :]


def _with_pile(
    piles: tuple[tuple[str, ...], tuple[str, ...]], index: int, pile: tuple[str, ...]
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    return (pile, piles[1]) if index == 0 else (piles[0], pile)


def _set_pile(state: State, index: int, pile: tuple[str, ...]) -> State:
    return replace(state, piles=_with_pile(state.piles, index, pile))


def _set_player(state: State, seat: Seat, player: Player) -> State:
    players = state.players
    return replace(state, players=players[:seat] + (player,) + players[seat + 1 :])


def _draw_to(state: State, seat: Seat, size: int, events: list[Event]) -> State:
    player = state.players[seat]
    need = size - len(player.hand)
    if need <= 0 or not player.deck:
        return state
    drawn = player.deck[:need]
    state = _set_player(
        state, seat, replace(player, hand=player.hand + drawn, deck=player.deck[len(drawn) :])
    )
    events.append(
        Event(
            "draw",
            {"seat": seat, "cards": list(drawn)},
            to=frozenset({seat}),
            redacted={"seat": seat, "count": len(drawn)},
        )
    )
    return state


def _open_top(pile: tuple[str, ...]) -> bool:
    return bool(pile) and pile[-1].endswith("~")


def _play_targets(state: State) -> tuple[int, ...]:
    """The piles the active player may play on this turn."""
    lock = state.turn_lock
    empties = tuple(i for i in (0, 1) if not state.piles[i])
    rules = state.rules
    if lock >= 0:
        if rules.lock_beats_empty_pile or not empties or lock in empties:
            return (lock,)
        return ()  # the empty-pile obligation and the lock cannot both be met
    if rules.empty_pile_must and len(empties) == 1:
        return empties
    return (0, 1)


def _locked_alone(state: State) -> bool:
    """Option ``locked_pile_alone=joker-only``: the player is locked on a pile
    with a value while the other pile has none; only the joker goes there."""
    lock = state.turn_lock
    if lock < 0 or state.rules.locked_pile_alone != "joker-only":
        return False
    return pile_value(state.piles[lock]) is not None and pile_value(state.piles[1 - lock]) is None


def _free_play(state: State) -> bool:
    """Any card goes on the pile(s) the player may play on: a pile has no
    value (T2), or the tops are equal or consecutive (T3) and this is not the
    same player's extra turn (« le joueur suivant »)."""
    rules = state.rules
    v0, v1 = pile_value(state.piles[0]), pile_value(state.piles[1])
    if v0 is None or v1 is None:
        return not _locked_alone(state)
    if not rules.adjacent_tops_free or abs(v0 - v1) > 1:
        return False
    return not state.bonus_turn or rules.adjacent_on_extra_turn


def _pull_choices(state: State) -> list[str]:
    pile = state.piles[state.work_pile]
    below = pile[:-1]
    depth = state.rules.joker_depth
    if depth:
        below = below[-depth:]
    out: list[str] = []
    for card in reversed(below):
        code = plain(card)
        if card_value(code) is not None and code not in out:
            out.append(code)
    return out


def _next_seat(state: State, seat: Seat) -> Seat:
    n = len(state.players)
    for step in range(1, n + 1):
        s = (seat + step) % n
        if not state.players[s].out:
            return s
    return seat


def _opponents(state: State, seat: Seat) -> list[Seat]:
    """Living opponents in turn order, starting with the next player."""
    n = len(state.players)
    return [(seat + step) % n for step in range(1, n) if not state.players[(seat + step) % n].out]


def _damage_chooser(state: State, taker: Seat) -> Seat:
    if state.rules.damage_chooser == "taker":
        return taker
    last = state.last_player
    if last >= 0 and last != taker and not state.players[last].out:
        return last
    # nobody else has played yet: the previous living player chooses
    n = len(state.players)
    for step in range(1, n):
        s = (taker - step) % n
        if not state.players[s].out:
            return s
    return taker


GAME = BetweenBattle()
