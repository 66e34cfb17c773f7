"""Between Battle's cards, piles and seats: pure helpers over the state."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

from ...core import Event, Seat
from ...core import evolve as replace
from .model import Deck, Phase, Player, Rules, State

# ---------------------------------------------------------------------------
# Card helpers
# ---------------------------------------------------------------------------


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


def deck_tables(decks: tuple[Deck, ...]) -> _Tables:
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


def kind_table(decks: tuple[Deck, ...]) -> dict[str, str]:
    return deck_tables(decks)[1]


def deck_by_code(decks: tuple[Deck, ...]) -> dict[str, Deck]:
    return deck_tables(decks)[2]


def deck_by_character(decks: tuple[Deck, ...]) -> dict[str, Deck]:
    return deck_tables(decks)[3]


def card_kind(rules: Rules, card: str) -> str:
    return kind_table(rules.decks)[plain(card)]


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
    return deck_ability(deck_by_code(rules.decks)[card[:2]], card_kind(rules, card))


def deck_ability(deck: Deck, kind: str) -> str | None:
    """The ability id a card of ``deck`` of this ``kind`` triggers (None for plain cards)."""
    if kind == "special":
        return deck.special
    if kind == "unique":
        return deck.unique
    if kind == "joker":
        return "joker"
    return None


def sort_key(card: str) -> tuple[int, str]:
    value = card_value(card)
    return (999 if value is None else value, card)


# ---------------------------------------------------------------------------
# Helpers (module level: they are pure functions of the state)
# ---------------------------------------------------------------------------


def code_of(state: State | Draft, seat: Seat) -> str:
    character = state.players[seat].character
    return deck_by_character(state.rules.decks)[character].code


def label_key(label: str) -> tuple[int, str]:
    return (999, label) if label == "X" else (int(label), label)


def remove_one(cards: tuple[str, ...], card: str) -> tuple[str, ...]:
    i = cards.index(card)
    return cards[:i] + cards[i + 1 :]


def with_pile(
    piles: tuple[tuple[str, ...], tuple[str, ...]], index: int, pile: tuple[str, ...]
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    return (pile, piles[1]) if index == 0 else (piles[0], pile)


# ---------------------------------------------------------------------------
# The draft: one action builds its new state in one go
# ---------------------------------------------------------------------------


class Draft:
    """A mutable working copy of a :class:`State` for one ``apply`` (or
    ``setup``, ``resign``): every step of the action edits it in place and
    :meth:`freeze` builds the new state once at the end, sharing every
    field nothing changed. Made by :func:`draft_of`; never stored."""

    __slots__ = tuple(f.name for f in dataclasses.fields(State))

    rules: Rules
    players: tuple[Player, ...]
    piles: tuple[tuple[str, ...], tuple[str, ...]]
    rng: int
    phase: Phase
    active: Seat
    decider: Seat
    discard: tuple[str, ...]
    turn: int
    first_player: Seat
    work_pile: int
    work_ability: str
    lock_next: tuple[tuple[Seat, int], ...]
    cancel_next: tuple[Seat, ...]
    turn_lock: int
    turn_cancelled: bool
    extra_turn: bool
    last_player: Seat
    eliminated: tuple[Seat, ...]
    ranking: tuple[tuple[Seat, ...], ...]
    end_reason: str
    bonus_turn: bool

    def freeze(self) -> State:
        """The new state (one copy)."""
        return _freeze(self)


def _compile_draft() -> tuple[Callable[[State], Draft], Callable[[Draft], State]]:
    names = Draft.__slots__
    lines = ["def draft_of(s):", "    d = new(Draft)"]
    lines += [f"    d.{name} = s.{name}" for name in names]
    lines += ["    return d", "def freeze(d):", "    s = new(State)"]
    lines += [f"    sa(s, {name!r}, d.{name})" for name in names]
    lines += ["    return s"]
    scope: dict[str, Any] = {
        "new": object.__new__,
        "sa": object.__setattr__,
        "Draft": Draft,
        "State": State,
    }
    exec("\n".join(lines), scope)
    return scope["draft_of"], scope["freeze"]


draft_of, _freeze = _compile_draft()
"""``draft_of(state)``: a :class:`Draft` of ``state`` (its fields shared)."""


def set_pile(d: Draft, index: int, pile: tuple[str, ...]) -> None:
    d.piles = with_pile(d.piles, index, pile)


def set_player(d: Draft, seat: Seat, player: Player) -> None:
    players = d.players
    d.players = players[:seat] + (player,) + players[seat + 1 :]


def draw_to(d: Draft, seat: Seat, size: int, events: list[Event]) -> None:
    player = d.players[seat]
    need = size - len(player.hand)
    if need <= 0 or not player.deck:
        return
    drawn = player.deck[:need]
    set_player(d, seat, replace(player, hand=player.hand + drawn, deck=player.deck[len(drawn) :]))
    events.append(
        Event(
            "draw",
            {"seat": seat, "cards": list(drawn)},
            to=frozenset({seat}),
            redacted={"seat": seat, "count": len(drawn)},
        )
    )


def open_top(pile: tuple[str, ...]) -> bool:
    return bool(pile) and pile[-1].endswith("~")


def next_seat(state: State | Draft, seat: Seat) -> Seat:
    n = len(state.players)
    for step in range(1, n + 1):
        s = (seat + step) % n
        if not state.players[s].out:
            return s
    return seat


def opponents(state: State | Draft, seat: Seat) -> list[Seat]:
    """Living opponents in turn order, starting with the next player."""
    n = len(state.players)
    return [(seat + step) % n for step in range(1, n) if not state.players[(seat + step) % n].out]


def damage_chooser(state: State | Draft, taker: Seat) -> Seat:
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
