"""Menus for hosts: complete actions and the labelled paths of choices."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core import Game, MenuStep, Seat
from ...text import de
from .actions import Action, Anchor, Attack, Begin, Move, Pivot, Recall, Summon, format_action
from .board import Board, board_of, card_table
from .geometry import cell_text
from .legal import _legal
from .model import State
from .play import _step
from .text import _card_label, describe_action

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
    game: ViaBelli, state: State, seat: Seat, locale: str = "en"
) -> list[tuple[Action, tuple[MenuStep, ...]]]:
    """The actions to pick in steps. At the turn decision (and the free
    dog's): complete actions, by what (draw, a card to summon face up or
    in ambush, a card to move or recall, a target, a Sorcier card), then
    the anchor or pivot, then the spot (``Roturier G11P`` stands for its
    steps there). A spot along several anchors is listed under the first
    one, the anchor a typed ``Roturier G11P`` uses. In a step reached by
    typing: that step's actions, grouped the same way."""
    fr = locale.lower().startswith("fr")
    phase = state.phase
    if phase not in ("turn", "free-dog", "anchor", "pivot", "attack"):
        return list(Game.action_menu(game, state, seat, locale))
    b = board_of(state)
    out: list[tuple[Action, tuple[MenuStep, ...]]] = []
    seen: set[Action] = set()

    def add(action: Action, path: tuple[MenuStep, ...]) -> None:
        if action not in seen:
            seen.add(action)
            out.append((action, path))

    def expand(s: State, step: Anchor | Pivot) -> None:
        head = _menu_head(s, b, seat, step, fr)
        last = _step(s, seat, step, [])
        for a in _legal(last, seat):
            add(a, (*head, _menu_place(a, fr)))

    for action in game.legal_actions(state, seat):
        if isinstance(action, Begin):
            after = _step(state, seat, action, [])
            for step in _legal(after, seat):
                if isinstance(step, Anchor | Pivot):
                    expand(after, step)
                else:
                    add(step, _menu_head(after, b, seat, step, fr))
        elif isinstance(action, Anchor) and phase == "free-dog":
            expand(state, action)
        elif isinstance(action, Anchor | Pivot | Recall | Attack):
            add(action, _menu_head(state, b, seat, action, fr))
        else:
            text = format_action(action)
            label = describe_action(state, seat, action, locale)
            add(action, (MenuStep(text, label, text),))
    return out


def _menu_head(
    state: State, b: Board, seat: Seat, action: Action, fr: bool
) -> tuple[MenuStep, ...]:
    """The first choices of a step action in :meth:`action_menu`."""
    table = card_table(state.rules)
    locale = "fr" if fr else "en"
    if isinstance(action, Anchor):
        cd = table[action.card]
        if state.phase == "free-dog":
            what = MenuStep(
                "+" + cd.name,
                f"Chien gratuit : {cd.name}" if fr else f"Free dog: {cd.name}",
                f"{cd.atk}/{cd.dfn}",
            )
        elif action.hidden:
            cost = state.rules.ambush_cost
            what = MenuStep(
                "?" + cd.name,
                f"{'Embuscade' if fr else 'Ambush'}{' :' if fr else ':'} {cd.name} ({cost} PA)",
                f"?{cd.name} · {'face cachée' if fr else 'face down'}",
            )
        else:
            what = MenuStep(
                "+" + cd.name,
                f"{'Invoquer' if fr else 'Summon'} {cd.name} ({cd.ivk} PA, {cd.atk}/{cd.dfn})",
                cd.name,
            )
        anchor = _card_label(state, b, b.at((action.x, action.y)), seat, fr)
        where = MenuStep(
            "@" + cell_text(action.x, action.y),
            f"{'contre' if fr else 'against'} {anchor}",
            format_action(action),
        )
        return what, where
    if isinstance(action, Pivot | Recall):
        cell = (action.fx, action.fy) if isinstance(action, Pivot) else (action.x, action.y)
        mover = _card_label(state, b, b.at(cell), seat, fr)
        what = MenuStep(
            ">" + cell_text(*cell),
            f"{'Déplacer / rapatrier' if fr else 'Move / recall'} {mover}",
            "1 PA",
        )
        if isinstance(action, Recall):
            text = format_action(action)
            return what, MenuStep(text, describe_action(state, seat, action, locale), text)
        pivot = _card_label(state, b, b.at((action.x, action.y)), seat, fr)
        return what, MenuStep(
            "@" + cell_text(action.x, action.y),
            "le long " + de(pivot, mute_h=False) if fr else f"along {pivot}",
            format_action(action),
        )
    text = format_action(action)
    label = describe_action(state, seat, action, locale)
    if isinstance(action, Attack):
        target = _card_label(state, b, b.at(action.target), seat, fr)
        what = MenuStep(
            "x" + cell_text(*action.target), f"{'Attaquer' if fr else 'Attack'} {target}"
        )
        return what, MenuStep(text, label, text)
    return (MenuStep(text, label, text),)


def _menu_place(action: Action, fr: bool) -> MenuStep:
    """The last choice of a summon or a move: the spot, by its cell."""
    text = format_action(action)
    if isinstance(action, Summon | Move):
        if action.landscape:
            orient = "couchée" if fr else "lying"
        else:
            orient = "debout" if fr else "standing"
        return MenuStep(text, f"{cell_text(action.x, action.y)} {orient}", text)
    return MenuStep(text, text, text)
