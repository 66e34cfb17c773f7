"""Buff le Sans Bannière: a placeholder with the hooks the base rules call
(the BUFF engineer's ``buff.py`` replaces this file; with it, Buff never
enters and nothing happens).

Hooks, called by the base rules: ``on_day_start(state)`` (a new day, before
seat 0's turn), ``after_turn(state, seat)`` (right after a seat's ``end``),
``on_hero_arrives(state, seat, hero, square)`` (a hero ended a move); each
returns ``(state, events)``. ``pending(state)`` (Buff's decisions, or None),
``legal(state, seat)``, ``check(state, seat, action)`` (an IllegalAction or
None) and ``apply(state, seat, action)`` for Bid, Enter, BuffMove, Bribe,
Recruit, Fight; ``is_bribed(state, seat)``.
"""

from __future__ import annotations

from ...core import Decision, Event, Seat
from ...errors import IllegalAction
from ...text import Msg
from .actions import Action
from .model import State


def on_day_start(state: State) -> tuple[State, list[Event]]:
    return state, []


def after_turn(state: State, seat: Seat) -> tuple[State, list[Event]]:
    return state, []


def on_hero_arrives(state: State, seat: Seat, hero: str, square: str) -> tuple[State, list[Event]]:
    return state, []


def pending(state: State) -> dict[Seat, Decision] | None:
    return None


def legal(state: State, seat: Seat) -> list[Action]:
    return []


def check(state: State, seat: Seat, action: Action) -> IllegalAction | None:
    return IllegalAction(Msg.of("bt-refuse-not-now"))


def apply(state: State, seat: Seat, action: Action) -> tuple[State, list[Event]]:
    raise AssertionError("Buff is not in play")


def is_bribed(state: State, seat: Seat) -> bool:
    return any(s == seat and until > state.day for s, until in state.buff.bribes)
