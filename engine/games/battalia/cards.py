"""Hands, decks and discard piles (a deck's top is its last card), draws
with the state's generator, and the provision supply.

Helpers BUFF uses: :func:`discard_cards` (hand → discard pile, returns the
state) and :func:`draw_up_to` (returns ``(state, events)``).
"""

from __future__ import annotations

from collections.abc import Iterable

from ... import rng
from ...core import Event, Seat, evolve
from .actions import canon
from .model import Player, State


def physical(code: str) -> str:
    """The card a line entry is: ``Tu>2u`` is the card ``Tu``."""
    return code.split(">", 1)[0]


def take(hand: tuple[str, ...], cards: Iterable[str]) -> tuple[str, ...] | None:
    """``hand`` without ``cards`` (a multiset), or None if it lacks one."""
    left = list(hand)
    for c in cards:
        try:
            left.remove(c)
        except ValueError:
            return None
    return tuple(left)


def holds(hand: tuple[str, ...], cards: Iterable[str]) -> bool:
    """Whether ``hand`` holds every card of ``cards`` (a multiset)."""
    left = list(hand)
    for c in cards:
        try:
            left.remove(c)
        except ValueError:
            return False
    return True


def set_player(state: State, seat: Seat, player: Player) -> State:
    players = list(state.players)
    players[seat] = player
    return evolve(state, players=tuple(players))


def play_cards(state: State, seat: Seat, cards: Iterable[str]) -> State:
    """Cards leave the hand for the played pile (discarded at ``end``)."""
    cards = [physical(c) for c in cards]
    p = state.players[seat]
    hand = take(p.hand, cards)
    assert hand is not None, (p.hand, cards)
    return set_player(state, seat, evolve(p, hand=hand, played=(*p.played, *cards)))


def discard_cards(state: State, seat: Seat, cards: Iterable[str]) -> State:
    """Cards leave the hand for the discard pile at once."""
    cards = [physical(c) for c in cards]
    p = state.players[seat]
    hand = take(p.hand, cards)
    assert hand is not None, (p.hand, cards)
    return set_player(state, seat, evolve(p, hand=hand, discard=(*p.discard, *cards)))


def gain(state: State, seat: Seat, cards: Iterable[str]) -> State:
    """Cards (bought, won) go to the seat's discard pile."""
    p = state.players[seat]
    return set_player(state, seat, evolve(p, discard=(*p.discard, *cards)))


def draw(
    state: State,
    seat: Seat,
    n: int,
    events: list[Event],
    player: Player | None = None,
    **changes: object,
) -> State:
    """Draw ``n`` cards, reshuffling the discard pile when the deck runs out
    (fewer if both are empty). ``player``: the seat's player to draw for
    (changed already, not yet in ``state``); ``changes``: other fields of
    the state to set in the same copy."""
    p = state.players[seat] if player is None else player
    deck, discard, hand = list(p.deck), p.discard, list(p.hand)
    gen = state.rng
    drawn: list[str] = []
    for _ in range(n):
        if not deck:
            if not discard:
                break
            shuffled, gen = rng.shuffle(gen, discard)
            deck, discard = list(shuffled), ()
            events.append(Event("reshuffle", {"seat": seat, "count": len(deck)}))
        drawn.append(deck.pop())
    players = list(state.players)
    if not drawn:
        if player is None and not changes:
            return evolve(state, rng=gen) if gen != state.rng else state
        players[seat] = p
        return evolve(state, rng=gen, players=tuple(players), **changes)
    hand.extend(drawn)
    players[seat] = evolve(p, deck=tuple(deck), discard=discard, hand=tuple(hand))
    state = evolve(state, rng=gen, players=tuple(players), **changes)
    events.append(
        Event(
            "draw",
            {"seat": seat, "count": len(drawn), "cards": list(canon(drawn))},
            to=frozenset({seat}),
            redacted={"seat": seat, "count": len(drawn)},
        )
    )
    return state


def draw_up_to(state: State, seat: Seat, n: int) -> tuple[State, list[Event]]:
    """Draw until the hand holds ``n`` cards (or nothing is left)."""
    events: list[Event] = []
    missing = n - len(state.players[seat].hand)
    if missing > 0:
        state = draw(state, seat, missing, events)
    return state, events


def give_provision(state: State, seat: Seat) -> State:
    """One Provision from the supply to the seat's discard pile, if any is left."""
    if state.provisions <= 0:
        return state
    state = evolve(state, provisions=state.provisions - 1)
    return gain(state, seat, ("P",))


def all_cards(p: Player) -> tuple[str, ...]:
    return (*p.hand, *p.deck, *p.discard, *p.played, *p.tent)
