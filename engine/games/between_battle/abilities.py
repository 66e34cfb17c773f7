"""Between Battle's card abilities: the joker, each character's special and
unique ability, and the sub-decisions they open (the joker's pull, the
Pirate's tutor, a target). Each function applies one of them to the action's
:class:`~.board.Draft` and appends its events; none ends the turn (``rules``
does)."""

from __future__ import annotations

from collections.abc import Callable

from ... import rng
from ...core import Event, Seat
from ...core import evolve as replace
from .board import (
    Draft,
    ability_of,
    code_of,
    next_seat,
    opponents,
    plain,
    remove_one,
    set_pile,
    set_player,
)
from .legality import pull_choices_of

# abilities that hit one opponent: the next one, or one the player chooses
# (``targeting=choose``, with 3-4 players)
TARGETED = ("discard-random", "reveal")


def resolve(
    d: Draft,
    seat: Seat,
    ability: str,
    pile: int,
    events: list[Event],
    target: Seat | None = None,
) -> None:
    """Apply one ability for ``seat``, played on ``pile``; may leave a
    sub-decision pending (joker pull, tutor, target)."""
    if ability == "joker":
        _joker(d, seat, pile, events)
        return
    if ability in TARGETED:
        if target is None:
            choices = opponents(d, seat)
            if not choices:
                return
            if d.rules.targeting == "choose" and len(choices) > 1:
                d.phase = "target"
                d.work_ability = ability
                d.work_pile = pile
                d.decider = seat
                return
            target = choices[0]
        hit = _discard_random if ability == "discard-random" else _reveal
        hit(d, seat, target, events)
        return
    own = _OWN.get(ability)
    if own is not None:
        own(d, seat, pile, events)


def _joker(d: Draft, seat: Seat, pile: int, events: list[Event]) -> None:
    if pull_choices_of(d.piles[pile], d.rules.joker_depth):
        d.phase = "joker-pull"
        d.work_pile = pile
        d.decider = seat
        return
    events.append(Event("joker-empty", {"seat": seat, "pile": pile}))


def _discard_random(d: Draft, seat: Seat, target: Seat, events: list[Event]) -> None:
    victim = d.players[target]
    if not victim.hand:
        events.append(Event("discard-none", {"seat": seat, "target": target}))
        return
    index, next_rng = rng.randbelow(d.rng, len(victim.hand))
    card = victim.hand[index]
    hand = victim.hand[:index] + victim.hand[index + 1 :]
    revealed = remove_one(victim.revealed, card) if card in victim.revealed else victim.revealed
    set_player(d, target, replace(victim, hand=hand, revealed=revealed))
    d.rng = next_rng
    d.discard = (*d.discard, card)
    events.append(Event("discard", {"seat": seat, "target": target, "card": card}))


def _reveal(d: Draft, seat: Seat, target: Seat, events: list[Event]) -> None:
    victim = d.players[target]
    set_player(d, target, replace(victim, revealed=victim.hand))
    events.append(Event("reveal", {"seat": seat, "target": target, "cards": sorted(victim.hand)}))


def _draw(d: Draft, seat: Seat, pile: int, events: list[Event]) -> None:
    player = d.players[seat]
    if not player.deck:
        events.append(Event("draw", {"seat": seat, "count": 0}))
        return
    card = player.deck[0]
    set_player(d, seat, replace(player, hand=(*player.hand, card), deck=player.deck[1:]))
    events.append(
        Event(
            "draw",
            {"seat": seat, "cards": [card]},
            to=frozenset({seat}),
            redacted={"seat": seat, "count": 1},
        )
    )


def _lock(d: Draft, seat: Seat, pile: int, events: list[Event]) -> None:
    locked = next_seat(d, seat)
    d.lock_next = tuple(lk for lk in d.lock_next if lk[0] != locked) + ((locked, pile),)
    events.append(Event("lock", {"seat": seat, "target": locked, "pile": pile}))


def _cancel(d: Draft, seat: Seat, pile: int, events: list[Event]) -> None:
    cancelled = next_seat(d, seat)
    if cancelled not in d.cancel_next:
        d.cancel_next = (*d.cancel_next, cancelled)
    events.append(Event("cancel", {"seat": seat, "target": cancelled}))


def _extra_turn(d: Draft, seat: Seat, pile: int, events: list[Event]) -> None:
    events.append(Event("extra-turn", {"seat": seat}))
    d.extra_turn = True


def _tutor_start(d: Draft, seat: Seat, pile: int, events: list[Event]) -> None:
    if d.players[seat].deck:
        d.phase = "tutor"
        d.decider = seat
        return
    events.append(Event("tutor-empty", {"seat": seat}))


def _steal_top(d: Draft, seat: Seat, pile: int, events: list[Event]) -> None:
    other = 1 - pile
    source = d.piles[other]
    if not source:
        events.append(Event("steal-top", {"seat": seat, "card": None, "from": other}))
        return
    moved = source[-1]
    if not d.rules.cowboy_keeps_link:
        moved = plain(moved)
    set_pile(d, other, source[:-1])
    set_pile(d, pile, (*d.piles[pile], moved))
    events.append(
        Event("steal-top", {"seat": seat, "card": plain(moved), "from": other, "to": pile})
    )


_OWN: dict[str, Callable[[Draft, Seat, int, list[Event]], None]] = {
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


def pull(d: Draft, seat: Seat, card: str, events: list[Event]) -> None:
    """The joker brings ``card`` up from below it; that card's ability applies."""
    pile = d.work_pile
    cards = list(d.piles[pile])
    # the topmost matching card below the joker
    for i in range(len(cards) - 2, -1, -1):
        if plain(cards[i]) == card:
            moved = cards.pop(i)
            cards.append(moved)
            break
    set_pile(d, pile, tuple(cards))
    d.phase = "turn"
    events.append(Event("joker-pull", {"seat": seat, "card": card, "pile": pile}))
    ability = ability_of(d.rules, card)
    if ability is not None and ability != "joker":
        if d.turn_cancelled:
            # cancel_stops_joker=false: the joker pulls, but « n'applique pas la
            # capacité de sa carte jouée » still holds for the pulled card
            events.append(Event("ability-cancelled", {"seat": seat, "card": card}))
        else:
            resolve(d, seat, ability, pile, events)


def tutor(d: Draft, seat: Seat, label: str, events: list[Event]) -> None:
    """The Pirate takes the card ``label`` from their deck, then shuffles it."""
    player = d.players[seat]
    card = code_of(d, seat) + label
    deck = remove_one(player.deck, card)
    deck, next_rng = rng.shuffle(d.rng, deck)
    set_player(d, seat, replace(player, hand=(*player.hand, card), deck=deck))
    d.rng = next_rng
    d.phase = "turn"
    events.append(
        Event(
            "tutor",
            {"seat": seat, "card": card},
            to=frozenset({seat}),
            redacted={"seat": seat},
        )
    )
