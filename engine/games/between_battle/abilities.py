"""Between Battle's card abilities: the joker, each character's special and
unique ability, and the sub-decisions they open (the joker's pull, the
Pirate's tutor, a target). Each function applies one of them to a state and
appends its events; none ends the turn (``rules`` does)."""

from __future__ import annotations

from collections.abc import Callable

from ... import rng
from ...core import Event, Seat
from ...core import evolve as replace
from .board import (
    ability_of,
    code_of,
    next_seat,
    opponents,
    plain,
    remove_one,
    set_pile,
    set_player,
    with_pile,
)
from .legality import pull_choices
from .model import State

# abilities that hit one opponent: the next one, or one the player chooses
# (``targeting=choose``, with 3-4 players)
TARGETED = ("discard-random", "reveal")


def resolve(
    state: State,
    seat: Seat,
    ability: str,
    pile: int,
    events: list[Event],
    target: Seat | None = None,
) -> State:
    """Apply one ability for ``seat``, played on ``pile``; may leave a
    sub-decision pending (joker pull, tutor, target)."""
    if ability == "joker":
        return _joker(state, seat, pile, events)
    if ability in TARGETED:
        if target is None:
            choices = opponents(state, seat)
            if not choices:
                return state
            if state.rules.targeting == "choose" and len(choices) > 1:
                return replace(
                    state, phase="target", work_ability=ability, work_pile=pile, decider=seat
                )
            target = choices[0]
        hit = _discard_random if ability == "discard-random" else _reveal
        return hit(state, seat, target, events)
    own = _OWN.get(ability)
    return state if own is None else own(state, seat, pile, events)


def _joker(state: State, seat: Seat, pile: int, events: list[Event]) -> State:
    if pull_choices(replace(state, work_pile=pile)):
        return replace(state, phase="joker-pull", work_pile=pile, decider=seat)
    events.append(Event("joker-empty", {"seat": seat, "pile": pile}))
    return state


def _discard_random(state: State, seat: Seat, target: Seat, events: list[Event]) -> State:
    victim = state.players[target]
    if not victim.hand:
        events.append(Event("discard-none", {"seat": seat, "target": target}))
        return state
    index, next_rng = rng.randbelow(state.rng, len(victim.hand))
    card = victim.hand[index]
    hand = victim.hand[:index] + victim.hand[index + 1 :]
    revealed = remove_one(victim.revealed, card) if card in victim.revealed else victim.revealed
    state = set_player(state, target, replace(victim, hand=hand, revealed=revealed))
    state = replace(state, rng=next_rng, discard=(*state.discard, card))
    events.append(Event("discard", {"seat": seat, "target": target, "card": card}))
    return state


def _reveal(state: State, seat: Seat, target: Seat, events: list[Event]) -> State:
    victim = state.players[target]
    state = set_player(state, target, replace(victim, revealed=victim.hand))
    events.append(Event("reveal", {"seat": seat, "target": target, "cards": sorted(victim.hand)}))
    return state


def _draw(state: State, seat: Seat, pile: int, events: list[Event]) -> State:
    player = state.players[seat]
    if not player.deck:
        events.append(Event("draw", {"seat": seat, "count": 0}))
        return state
    card = player.deck[0]
    state = set_player(
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
    return state


def _lock(state: State, seat: Seat, pile: int, events: list[Event]) -> State:
    locked = next_seat(state, seat)
    locks = tuple(lk for lk in state.lock_next if lk[0] != locked) + ((locked, pile),)
    events.append(Event("lock", {"seat": seat, "target": locked, "pile": pile}))
    return replace(state, lock_next=locks)


def _cancel(state: State, seat: Seat, pile: int, events: list[Event]) -> State:
    cancelled = next_seat(state, seat)
    if cancelled not in state.cancel_next:
        state = replace(state, cancel_next=(*state.cancel_next, cancelled))
    events.append(Event("cancel", {"seat": seat, "target": cancelled}))
    return state


def _extra_turn(state: State, seat: Seat, pile: int, events: list[Event]) -> State:
    events.append(Event("extra-turn", {"seat": seat}))
    return replace(state, extra_turn=True)


def _tutor_start(state: State, seat: Seat, pile: int, events: list[Event]) -> State:
    if state.players[seat].deck:
        return replace(state, phase="tutor", decider=seat)
    events.append(Event("tutor-empty", {"seat": seat}))
    return state


def _steal_top(state: State, seat: Seat, pile: int, events: list[Event]) -> State:
    other = 1 - pile
    source = state.piles[other]
    if not source:
        events.append(Event("steal-top", {"seat": seat, "card": None, "from": other}))
        return state
    moved = source[-1]
    if not state.rules.cowboy_keeps_link:
        moved = plain(moved)
    state = set_pile(state, other, source[:-1])
    state = set_pile(state, pile, (*state.piles[pile], moved))
    events.append(
        Event("steal-top", {"seat": seat, "card": plain(moved), "from": other, "to": pile})
    )
    return state


_OWN: dict[str, Callable[[State, Seat, int, list[Event]], State]] = {
    "draw": _draw,
    "lock": _lock,
    "cancel": _cancel,
    "extra-turn": _extra_turn,
    "tutor": _tutor_start,
    "steal-top": _steal_top,
}
"""The abilities that act on their player or the piles, by id."""


# ---------------------------------------------------------------------------
# The sub-decisions
# ---------------------------------------------------------------------------


def pull(state: State, seat: Seat, card: str, events: list[Event]) -> State:
    """The joker brings ``card`` up from below it; that card's ability applies."""
    pile = state.work_pile
    cards = list(state.piles[pile])
    # the topmost matching card below the joker
    for i in range(len(cards) - 2, -1, -1):
        if plain(cards[i]) == card:
            moved = cards.pop(i)
            cards.append(moved)
            break
    state = replace(state, piles=with_pile(state.piles, pile, tuple(cards)), phase="turn")
    events.append(Event("joker-pull", {"seat": seat, "card": card, "pile": pile}))
    ability = ability_of(state.rules, card)
    if ability is not None and ability != "joker":
        if state.turn_cancelled:
            # cancel_stops_joker=false: the joker pulls, but « n'applique pas la
            # capacité de sa carte jouée » still holds for the pulled card
            events.append(Event("ability-cancelled", {"seat": seat, "card": card}))
        else:
            state = resolve(state, seat, ability, pile, events)
    return state


def tutor(state: State, seat: Seat, label: str, events: list[Event]) -> State:
    """The Pirate takes the card ``label`` from their deck, then shuffles it."""
    player = state.players[seat]
    card = code_of(state, seat) + label
    deck = remove_one(player.deck, card)
    deck, next_rng = rng.shuffle(state.rng, deck)
    state = set_player(state, seat, replace(player, hand=(*player.hand, card), deck=deck))
    state = replace(state, rng=next_rng, phase="turn")
    events.append(
        Event(
            "tutor",
            {"seat": seat, "card": card},
            to=frozenset({seat}),
            redacted={"seat": seat},
        )
    )
    return state
