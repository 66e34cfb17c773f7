"""What things cost: the gold of playing a card (the line's extra cost
included) and a price as players read it. Used by the rules, the legality
checks, the texts and the bots (kept apart so that none of them imports
another for a price)."""

from __future__ import annotations

from ...core import Seat
from ...text import Msg
from .actions import Play
from .board import card_of
from .model import ARRIERE, Card, State


def arrive_line_cost(state: State, seat: Seat, line: int, card: Card) -> int:
    """The extra gold for arriving on a line: +2 arrière, +4 front
    (Déplacement: none; the first round, seats after the first: option)."""
    if line == 0 or "deplacement" in card.keywords:
        return 0
    if state.first_round and seat != 0 and state.rules.first_turn_placement == "free":
        return 0
    return 2 if line == ARRIERE else 4


def play_cost(state: State, seat: Seat, action: Play) -> int:
    """The gold ``seat`` pays to play ``action`` (the card and its line)."""
    card = card_of(state, action.card)
    gold = card.gold
    if card.type == "unite" and action.place is not None:
        gold += arrive_line_cost(state, seat, action.place[0], card)
    return gold


def cost(gold: int, faith: int = 0) -> Msg:
    """A price as players read it: the zero parts left out (« 3 or »,
    « 2 foi », « 3 or, 2 foi », « gratuit »)."""
    if gold and faith:
        return Msg.of("lb-cost-both", gold=gold, faith=faith)
    if faith:
        return Msg.of("lb-cost-faith", faith=faith)
    if gold:
        return Msg.of("lb-cost-gold", gold=gold)
    return Msg.of("lb-cost-free")
