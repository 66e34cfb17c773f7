"""Whether an action is legal, and if not why: one check per kind of action,
built on the very functions that list the legal actions (``_place_refusal``,
``_rally_actions``, ``_fire_options``, ``_loss_candidates``, ``_immobile``,
``destinations``, ``_MoveCheck``, ``_special_actions``). ``apply`` refuses
what :func:`refusal` refuses, with the reason it gives; the legal actions are
exactly the actions it accepts, each card standing for the cards
interchangeable with it (tests/games/test_belle_position_legality_single_source.py).

A check returns None (legal) or a refusal: a key and its parameters, which
:func:`text.refusal_text` turns into a catalogue message (``bp-refuse-*``)."""

from __future__ import annotations

from typing import Any

from ...errors import IllegalAction
from .actions import Action, Done, Fire, Loss, Move, Play, Undo, format_action
from .board import (
    _abs_code,
    _cap,
    _count,
    _index_of,
    _types,
    absolute_of,
    board,
    card_index,
    opposite,
    relative_code,
)
from .data import RESERVE, WINGS, type_name
from .legal import (
    _canonical,
    _canonical_target,
    _fire_options,
    _loss_candidates,
    _place_refusal,
    _rally_actions,
    _rep,
)
from .model import Card, State
from .movement import _immobile, _MoveCheck, _special_actions, destinations
from .text import refusal_text

Refusal = tuple[str, dict[str, Any]]  # a key of text.refusal_text, its parameters

_POSITIONS = ("G", "C", "D", "EG", "EC", "ED")


def refusal(state: State, seat: int, action: Action) -> IllegalAction | None:
    """None when ``seat`` (who is to decide: the turn is checked before) may
    play ``action``; else the :class:`IllegalAction` that says why."""
    found = check(state, seat, action)
    if found is None:
        return None
    return IllegalAction(refusal_text(*found), action=format_action(action))


def check(state: State, seat: int, action: Action) -> Refusal | None:
    army = state.armies[seat]
    letter = army.letter  # examples in the player's own handles
    card: Card | None = None
    if isinstance(action, Move | Fire | Loss | Play):
        i = _index_of(army, action.card)
        if i < 0:
            return "not-yours", {"card": action.card, "letter": letter, "size": len(army.cards)}
        card = army.cards[i]
    phase = state.phase
    if phase == "deploy":
        return _deploy_check(state, seat, action, card)
    if phase == "allocate":
        return _allocate_check(state, seat, action)
    if phase == "rally":
        return _rally_check(state, seat, action)
    if phase == "combat":
        if isinstance(action, Done):
            return None
        if isinstance(action, Fire) and card is not None:
            return _fire_check(state, seat, card, action)
        return "combat-phase", {"m": letter}
    if phase == "movement":
        return _movement_check(state, seat, action, card)
    return "impossible", {}


def _deploy_check(state: State, seat: int, action: Action, card: Card | None) -> Refusal | None:
    """Seed 3-5: cards go face down from the reserve into one's own
    positions, one at a time; the last one may be taken back."""
    army = state.armies[seat]
    if isinstance(action, Done):
        return None
    if isinstance(action, Undo):
        return None if army.staged else ("nothing-to-undo", {})
    if not isinstance(action, Move) or card is None:
        return "deploy-phase", {"m": army.letter}
    name = type_name(card.type)
    if card.loc != RESERVE:
        return "not-in-reserve", {"name": name, "card": card.uid, "deployed": card.loc >= 0}
    if action.to not in WINGS:
        return "own-positions", {}
    t = _types(state.rules)[card.type]
    p = absolute_of(seat, action.to)
    key = _place_refusal(state, board(state), seat, p, t)
    if key is None:
        return None
    return _place_params(state, seat, p, key, name if key == "special-stays" else t.name)


def _place_params(state: State, seat: int, p: int, key: str, name: str) -> Refusal:
    params: dict[str, Any] = {"name": name, "code": _abs_code(state, p)}
    if key == "full":
        params["cap"] = _cap(state, board(state), seat, p)
    return key, params


def _allocate_check(state: State, seat: int, action: Action) -> Refusal | None:
    """Seed 11: every unit in the position has a token before any has a
    second (the taker chooses among those with the fewest)."""
    alloc = state.alloc
    assert alloc is not None
    if not isinstance(action, Loss) or seat != alloc.taker:
        return "losses-first", {}
    candidates = _loss_candidates(state)
    rep = _rep(state, seat, action.card)
    if rep is not None and card_index(rep) in candidates:
        return None
    army = state.armies[seat]
    return "spread-losses", {"cards": [army.cards[j].uid for j in candidates]}


def _rally_check(state: State, seat: int, action: Action) -> Refusal | None:
    """Ralliement on a unit with loss tokens, before the tests (or, option
    ``ralliement_timing=failure``, on the unit that has just failed one)."""
    if isinstance(action, Done):
        return None
    offered = _rally_actions(state)
    if isinstance(action, Play) and _canonical(state, seat, action) in offered:
        return None
    m = state.armies[seat].letter
    if state.rules.ralliement_timing == "failure":
        failed = state.last_tests[-1].card if state.last_tests else ""
        play = next((a for a in offered if isinstance(a, Play)), None)
        special = play.card if play is not None else f"{m}21"
        return "rout-decision", {"failed": failed, "special": special}
    return "rally-phase", {"m": m}


def _fire_check(state: State, seat: int, card: Card, action: Fire) -> Refusal | None:
    """Seed 7-10, 18: a unit on the battlefield fires once a turn, where
    :func:`legal._fire_options` says it can."""
    name = f"{type_name(card.type)} ({card.uid})"
    t = _types(state.rules)[card.type]
    if t.kind != "unit" or card.loc < 0:
        return "not-on-field", {"name": name}
    if card.fought:
        return "fired", {"name": name}
    at = _canonical_target(state, seat, action.at)
    b = board(state)
    if at is not None and any(o[0] == at for o in _fire_options(state, b, seat, card, t)):
        return None
    if action.at in _POSITIONS:
        p = absolute_of(seat, action.at)
        if p in state.closed:
            return "combats-over", {"code": _abs_code(state, p)}
    return "cannot-fire", {"name": name, "at": action.at, "flank": state.rules.flank_attack}


def _movement_check(state: State, seat: int, action: Action, card: Card | None) -> Refusal | None:
    m = state.armies[seat].letter
    if isinstance(action, Done):
        if _MoveCheck(state, board(state), seat).within_limits():
            return None
        b = board(state)
        over = [
            _abs_code(state, p) for p in range(6) if _count(b, seat, p) > _cap(state, b, seat, p)
        ]
        return "over-limit", {"codes": over}
    if isinstance(action, Move) and card is not None:
        return _move_check(state, seat, card, action)
    if isinstance(action, Play) and card is not None:
        if _canonical(state, seat, action) in _special_actions(state, board(state), seat):
            return None
        name = type_name(card.type)
        return "play-not-now", {"name": name, "card": card.uid, "target": action.target}
    return "movement-phase", {"m": m}


def _move_check(state: State, seat: int, card: Card, action: Move) -> Refusal | None:
    """Seed 12-13, rulings B3-B5: a card that may still move
    (:func:`movement._immobile`), to a place :func:`movement.destinations`
    allows, without breaking the grouping limit for good (``_MoveCheck``)."""
    rules = state.rules
    t = _types(rules)[card.type]
    name = f"{t.name} ({card.uid})"
    i = card_index(card.uid)
    key = _immobile(rules, t, card.loc, card.bits, state.mover == i)
    if key is not None:
        return key, {"name": name, "card": card.uid}
    b = board(state)
    dests = destinations(rules, b, seat, card.loc, t)
    dest = absolute_of(seat, action.to) if action.to in (*_POSITIONS, "R") else None
    if dest is None or dest not in dests:
        engaged = (
            dest is not None
            and card.loc >= 0
            and card.loc // 3 == seat
            and dest == opposite(card.loc)
        )
        allowed = [relative_code(seat, d) for d in dests]
        return "destination", {
            "name": name,
            "to": action.to,
            "allowed": allowed,
            "engaged": engaged,
        }
    if _MoveCheck(state, b, seat).allows(state, card, t, dest):
        return None
    if t.kind == "terrain":
        return _place_params(state, seat, dest, "full", name)
    code = _abs_code(state, dest) if dest >= 0 else "R"
    return "grouping", {"name": name, "code": code}
