"""Menus for hosts: complete actions and the labelled paths of choices."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core import Game, MenuStep, Seat
from ...text import Msg
from .actions import Action, Anchor, Attack, Begin, Move, Pivot, Recall, Summon, format_action
from .board import Board, board_of, card_table
from .geometry import cell_text
from .legal import _legal
from .model import State
from .play import _step
from .text import card_label, describe_action, place

if TYPE_CHECKING:
    from .model import View

    ViaBelli = Game[State, Action, View]  # the game object (rules.py imports this module)


def complete_actions(game: ViaBelli, state: State, seat: Seat) -> list[Action]:
    """Every complete action the seat may type now (for hosts: autocomplete
    of ``Roturier G11P`` at the turn decision, the spots of a card as ghost
    outlines). At the turn decision: ``D``, ``E`` and every summon, move,
    recall, attack and Sorcier action; at the free-dog decision: the dog
    summons and ``-``; in a step: that step's actions."""
    legal = game.legal_actions(state, seat)
    if state.phase not in ("turn", "free-dog"):
        return list(legal)
    out: dict[Action, None] = {}  # ordered, without repeats
    for action in legal:
        if isinstance(action, Begin | Anchor | Pivot):
            after = _step(state, seat, action, [])
            for step in _legal(after, seat):
                if isinstance(step, Anchor | Pivot):
                    last = _step(after, seat, step, [])
                    out.update(dict.fromkeys(_legal(last, seat)))
                else:
                    out[step] = None
        else:
            out[action] = None
    return list(out)


def action_menu(
    game: ViaBelli, state: State, seat: Seat
) -> list[tuple[Action, tuple[MenuStep, ...]]]:
    """The actions to pick in steps. At the turn decision (and the free
    dog's): complete actions, by what (draw, a card to summon face up or
    in ambush, a card to move or recall, a target, a Sorcier card), then
    the anchor or pivot, then the spot (``Roturier G11P`` stands for its
    steps there). A spot along several anchors is listed under the first
    one, the anchor a typed ``Roturier G11P`` uses. In a step reached by
    typing: that step's actions, grouped the same way."""
    phase = state.phase
    if phase not in ("turn", "free-dog", "anchor", "pivot", "attack"):
        return list(Game.action_menu(game, state, seat))
    b = board_of(state)
    out: list[tuple[Action, tuple[MenuStep, ...]]] = []
    seen: set[Action] = set()

    def add(action: Action, path: tuple[MenuStep, ...]) -> None:
        if action not in seen:
            seen.add(action)
            out.append((action, path))

    def expand(s: State, step: Anchor | Pivot) -> None:
        head = _menu_head(s, b, seat, step)
        last = _step(s, seat, step, [])
        for a in _legal(last, seat):
            add(a, (*head, _menu_place(a)))

    for action in game.legal_actions(state, seat):
        if isinstance(action, Begin):
            after = _step(state, seat, action, [])
            for step in _legal(after, seat):
                if isinstance(step, Anchor | Pivot):
                    expand(after, step)
                else:
                    add(step, _menu_head(after, b, seat, step))
        elif isinstance(action, Anchor) and phase == "free-dog":
            expand(state, action)
        elif isinstance(action, Anchor | Pivot | Recall | Attack):
            add(action, _menu_head(state, b, seat, action))
        else:
            text = format_action(action)
            add(action, (_step_of(text, describe_action(state, seat, action)),))
    return out


def _step_of(text: str, label: Msg | str) -> MenuStep:
    """A choice that plays the action ``text``, with its notation as the detail
    (notation and card names are plain strings: the same in every language)."""
    return MenuStep(text, label, text)


def _menu_head(state: State, b: Board, seat: Seat, action: Action) -> tuple[MenuStep, ...]:
    """The first choices of a step action in :meth:`action_menu`."""
    table = card_table(state.rules)
    if isinstance(action, Anchor):
        cd = table[action.card]
        stats = Msg.of("vb-menu-stats", atk=cd.atk, dfn=cd.dfn)
        if state.phase == "free-dog":
            what = MenuStep("+" + cd.name, Msg.of("vb-menu-free-dog", card=cd.name), stats)
        elif action.hidden:
            cost = state.rules.ambush_cost
            what = MenuStep(
                "?" + cd.name,
                Msg.of("vb-menu-ambush", card=cd.name, cost=cost),
                Msg.of("vb-menu-face-down", card=cd.name),
            )
        else:
            what = MenuStep(
                "+" + cd.name,
                Msg.of("vb-menu-summon", card=cd.name, ivk=cd.ivk, atk=cd.atk, dfn=cd.dfn),
                cd.name,
            )
        anchor = card_label(state, b, b.at((action.x, action.y)), seat)
        where = MenuStep(
            "@" + cell_text(action.x, action.y),
            Msg.of("vb-menu-against", target=anchor),
            format_action(action),
        )
        return what, where
    if isinstance(action, Pivot | Recall):
        cell = (action.fx, action.fy) if isinstance(action, Pivot) else (action.x, action.y)
        mover = card_label(state, b, b.at(cell), seat)
        what = MenuStep(
            ">" + cell_text(*cell), Msg.of("vb-menu-move", card=mover), Msg.of("vb-menu-one-pa")
        )
        if isinstance(action, Recall):
            return what, _step_of(format_action(action), describe_action(state, seat, action))
        pivot = card_label(state, b, b.at((action.x, action.y)), seat)
        return what, MenuStep(
            "@" + cell_text(action.x, action.y),
            Msg.of("vb-menu-along", pivot=pivot),
            format_action(action),
        )
    step = _step_of(format_action(action), describe_action(state, seat, action))
    if isinstance(action, Attack):
        target = card_label(state, b, b.at(action.target), seat)
        what = MenuStep("x" + cell_text(*action.target), Msg.of("vb-menu-attack", target=target))
        return what, step
    return (step,)


def _menu_place(action: Action) -> MenuStep:
    """The last choice of a summon or a move: the spot, by its cell."""
    text = format_action(action)
    if isinstance(action, Summon | Move):
        return _step_of(text, place(action.x, action.y, action.landscape))
    return _step_of(text, text)
