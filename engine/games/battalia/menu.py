"""Battalia's staged menus: an action line built from cards, one short list
at a time.

The first level is the kind of action (buy, road, city, upgrade, summon,
move, attack, tent, start of turn, end); then its object (the stack, the
layout, the city, the hero, the target, the destination); then the payment:
every distinct exact payment the hand allows, labelled with the cards'
French names. Tile placement is a square, then a rotation (the renderer
draws the spots as numbered ghosts from the notations). Long levels (battle
lines, bids, payments) are grouped by their number of cards.

A choice that leads to a single action plays it at once: a path stops at
the first step that names one action, whose key is then the notation.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from ...core import MenuStep, Seat
from ...text import Msg
from .actions import Action, format_action
from .lines import line_strength
from .text import (
    ARTEFACTS,
    bid_total,
    card_name,
    cards_text,
    describe_notation,
    layout,
    split,
    stack_card,
    target,
)

GROUP = 20
"""A level longer than this is grouped by the number of cards (lines, bids,
payments) before its entries."""

_ORDER = (
    "mulligan",
    "cohort",
    "buy",
    "road",
    "city",
    "upgrade",
    "summon",
    "move",
    "attack",
    "tent",
    "recruit",
    "end",
)


def _rank(text: str) -> int:
    """The kinds of action in the order of a turn: the start of the turn
    first, the end last (the engine's order within a kind is kept)."""
    verb = text.split(" ", 1)[0]
    return _ORDER.index(verb) if verb in _ORDER else len(_ORDER)


_HEADS = {
    "cohort": "start",
    "mulligan": "start",
    "buy": "buy",
    "road": "road",
    "city": "city",
    "upgrade": "upgrade",
    "summon": "summon",
    "move": "move",
    "attack": "attack",
    "tent": "tent",
}


def legal_menu(
    state: Any, seat: Seat, actions: Sequence[Action]
) -> list[tuple[Action, tuple[MenuStep, ...]]]:
    """The staged menu of engine ``actions`` (the legal ones), read through
    their notation (the game's ``action_menu``; here rather than in
    :mod:`.text`, which this module imports)."""
    return action_menu(state, seat, [(a, format_action(a)) for a in actions])


def action_menu(
    state: Any, seat: Seat, notations: Sequence[tuple[Any, str]]
) -> list[tuple[Any, tuple[MenuStep, ...]]]:
    """``notations``: the legal actions with their notation, in the engine's
    order. Returns every action once with its path (see the module)."""
    if notations and all(split(t)[0][:1] and split(t)[0][0] in SPOTS for _, t in notations):
        return _spots(state, seat, notations)
    ordered = sorted(notations, key=lambda item: _rank(item[1]))
    raw = [(a, text, _natural(state, text)) for a, text in ordered]
    raw = _group_long(state, raw)
    counts = Counter(
        tuple(s.key for s in path[: i + 1]) for _, _, path in raw for i in range(len(path))
    )
    cut: list[tuple[Any, str, tuple[MenuStep, ...]]] = []
    for action, text, path in raw:
        label = describe_notation(state, seat, text)
        for i in range(len(path)):
            if counts[tuple(s.key for s in path[: i + 1])] == 1:
                # the last choice (a payment, a line) reads as itself under
                # its parents; a choice cut short reads as the whole action
                last = path[i].label if i == len(path) - 1 and i > 0 else label
                cut.append((action, text, (*path[:i], MenuStep(text, last, text))))
                break
        else:  # pragma: no cover - the natural path always ends on the notation
            cut.append((action, text, (*path, MenuStep(text, label, text))))
    out = _skip_single_choices(cut)
    if len({path[0].key for _, path in out}) == 1 and all(len(path) > 1 for _, path in out):
        out = [(action, path[1:]) for action, path in out]  # one kind only: no level for it
    return out


def _skip_single_choices(
    entries: list[tuple[Any, str, tuple[MenuStep, ...]]],
) -> list[tuple[Any, tuple[MenuStep, ...]]]:
    """Drop the inner levels that offer one choice only (one hero, one
    stack): below the first level, a step whose siblings are all the same
    key is skipped, so a player never clicks through a list of one. An
    attack's target stays, even alone: the lines under it do not name it."""
    below: dict[tuple[str, ...], set[str]] = {}
    for _, _, path in entries:
        keys = tuple(s.key for s in path)
        for i in range(1, len(path)):
            below.setdefault(keys[:i], set()).add(keys[i])
    out: list[tuple[Any, tuple[MenuStep, ...]]] = []
    for action, _, path in entries:
        keys = tuple(s.key for s in path)
        kept = [path[0]]
        for i in range(1, len(path)):
            single = len(below[keys[:i]]) == 1
            target = keys[i].startswith("attack ") and len(keys[i].split()) == 3
            if i < len(path) - 1 and single and not target:
                continue
            kept.append(path[i])
        out.append((action, tuple(kept)))
    return out


SPOTS = frozenset({"place", "buff", "enter", "start"})
"""Actions chosen on the map: a terrain card's square and rotation, Buff's
path, his entry city, a start city. Their menu is one numbered level (the
host draws a flat level's choices as numbered spots on the board, with
``render_choices``), sorted by square so the numbers of a square follow
each other."""


SPOTS_PHASES = frozenset({"place", "buff-move", "enter", "start"})
"""The phases whose menu is one numbered level of spots."""


def _spots(
    state: Any, seat: Seat, notations: Sequence[tuple[Any, str]]
) -> list[tuple[Any, tuple[MenuStep, ...]]]:
    def order(item: tuple[Any, str]) -> tuple[str, int, str]:
        head, _ = split(item[1])
        squares = [w for w in head[1:] if len(w) == 2 and w[1].isdigit()]
        return (squares[-1] if squares else "", len(squares), item[1])

    out: list[tuple[Any, tuple[MenuStep, ...]]] = []
    for action, text in sorted(notations, key=order):
        out.append((action, (MenuStep(text, describe_notation(state, seat, text), text),)))
    return out


def _step(key: str, label: Msg | str, detail: Msg | str = "") -> MenuStep:
    return MenuStep(key, label, detail)


_GROUP_KEYS = {"start": "mulligan/cohort"}
"""A level's key is what a player types to open it: the verb, or for the
start of a turn both of its verbs."""


def _natural(state: Any, text: str) -> tuple[MenuStep, ...]:
    """The full path of an action, before collapsing single choices. Keys
    are notation prefixes (``buy``, ``buy 2``, ``attack h1 c3``), so that a
    player may type one to narrow a level; the last step's key is the
    notation itself."""
    head, cards = split(text)
    verb = head[0] if head else text
    args = head[1:]
    payment = MenuStep(text, cards_text(cards) if cards else Msg.of("bt-free"), text)
    group = _HEADS.get(verb)
    top = (
        _step(_GROUP_KEYS.get(group or "", group or ""), Msg.of(f"bt-menu-{group}"))
        if group
        else None
    )
    if verb in ("buy",) and args:
        stack = args[0]
        if len(stack) == 2 and stack[0] in ARTEFACTS:
            what = _step(f"buy {stack}", Msg.of("bt-menu-choice", card=card_name(stack)))
        else:
            what = _step(f"buy {stack}", stack_card(stack))
        return _join(top, what, payment)
    if verb == "road" and args:
        label = Msg.of("bt-menu-road-layout", layout=layout(args[0]))
        return _join(top, _step(f"road {args[0]}", label), payment)
    if verb == "city" and args:
        spec = args[0]
        label = Msg.of("bt-menu-city-spec", level=int(spec[:-1] or 0), layout=layout(spec[-1:]))
        return _join(top, _step(f"city {spec}", label), payment)
    if verb in ("upgrade", "summon") and args:
        square = _step(f"{verb} {args[0]}", Msg.of("bt-menu-square", square=args[0]))
        return _join(top, square, payment)
    if verb == "move" and len(args) >= 2:
        who = _step(f"move {args[0]}", menu_hero(args[0]))
        dest = _step(
            f"move {args[0]} → {args[-1]}",
            Msg.of("bt-menu-dest", square=args[-1], steps=len(args) - 1),
        )
        path = _step(" ".join(head), " → ".join(args[1:]))
        return _join(top, who, dest, path, payment)
    if verb == "attack" and len(args) >= 2:
        who = _step(f"attack {args[0]}", menu_hero(args[0]))
        aim = _step(" ".join(head[:3]), menu_target(state, args[1]))
        line = MenuStep(text, cards_text(cards) if cards else Msg.of("bt-menu-empty-line"), text)
        return _join(top, who, aim, line)
    if verb == "tent" and args:
        kept = _step(" ".join(head), Msg.of("bt-menu-kept", cards=cards_text(args)))
        return _join(top, kept, payment)
    if verb == "bid":
        bid = args + cards
        offer = (
            Msg.of("bt-menu-bid-line", cards=cards_text(bid), total=bid_total(state, bid))
            if bid
            else Msg.of("bt-act-bid-empty")
        )
        return (_step(verb, Msg.of("bt-menu-bid")), MenuStep(text, offer, text))
    if verb == "fight":
        line = MenuStep(text, fight_label(state, cards), text)
        return (_step(verb, Msg.of("bt-menu-fight")), line)
    if verb == "defend":
        line = MenuStep(text, cards_text(cards) if cards else Msg.of("bt-menu-empty-line"), text)
        return (_step(verb, Msg.of(f"bt-menu-{verb}")), line)
    if verb == "retreat" and args:
        square = _step(f"retreat {args[0]}", Msg.of("bt-menu-square", square=args[0]))
        return (_step("retreat", Msg.of("bt-menu-retreat")), square, payment)
    if verb in ("bribe", "recruit"):
        return (_step(verb, Msg.of(f"bt-menu-{verb}")), payment)
    return _join(top, MenuStep(text, describe_notation(state, 0, text), text))


def fight_label(state: Any, cards: Sequence[str]) -> Msg | str:
    """A line against the horde with both strengths, as a bid reads:
    « Chef ursidé + Arme ursidée (force 4 contre la horde 6) » (amulets
    counted before their roll)."""
    buff: Any = getattr(state, "buff", None)
    victim = getattr(buff, "victim", None)
    shown: Msg | str = cards_text(cards) if cards else Msg.of("bt-menu-empty-line")
    if victim is None or not hasattr(state, "rules"):
        return shown
    b = line_strength(state, victim[0], tuple(cards), buff.square or "", leader="hero", rolls=())
    total = b.total if state.rules.buff_fight_bonuses else b.base
    key = "bt-menu-fight-line-amulet" if any(c[:1] == "M" for c in cards) else "bt-menu-fight-line"
    return Msg.of(key, line=shown, total=total if cards else 0, horde=buff.horde)


def menu_hero(token: str) -> Msg:
    """A hero as a menu choice (capitalised): « Héros 1 », « Buff »."""
    if token in ("b", "buff"):
        return Msg.of("bt-menu-hero-buff")
    if token.startswith("h"):
        return Msg.of("bt-menu-hero-own", n=token[1:])
    seat, _, n = token.partition("h")
    if n == "b":
        return Msg.of("bt-menu-hero-buff")
    return Msg.of("bt-menu-hero-other", seat=seat, n=n)


def menu_target(state: Any, token: str) -> Msg:
    """An attack's target as a menu choice (capitalised)."""
    if len(token) != 2 or not token[1].isdigit():
        return menu_hero(token)
    kind = target(state, token).key.removeprefix("bt-target-")
    return Msg.of(f"bt-menu-target-{kind}", square=token)


def _join(*steps: MenuStep | None) -> tuple[MenuStep, ...]:
    return tuple(s for s in steps if s is not None)


def _group_long(
    state: Any,
    raw: list[tuple[Any, str, tuple[MenuStep, ...]]],
) -> list[tuple[Any, str, tuple[MenuStep, ...]]]:
    """Insert a « n cartes » level before the last step of any level longer
    than :data:`GROUP` whose entries are card lists (lines, payments), in
    ascending order of size; for bids a « force n » level, by total."""
    parents = Counter(tuple(s.key for s in path[:-1]) for _, _, path in raw)
    first: dict[tuple[str, ...], int] = {}
    keyed = []
    for n, (action, text, path) in enumerate(raw):
        prefix = tuple(s.key for s in path[:-1])
        first.setdefault(prefix, n)
        size = 0
        if parents[prefix] > GROUP and path[-1].key == text:
            size = _size(text)
            label = Msg.of("bt-menu-size", count=size)
            head, cards = split(text)
            if head[:1] == ["bid"]:  # a bid is chosen by its strength, then its cards
                size = bid_total(state, head[1:] + cards)
                label = Msg.of("bt-menu-bid-strength", total=size)
            group = _step(f"{path[-2].key if len(path) > 1 else text} #{size}", label)
            path = (*path[:-1], group, path[-1])
        keyed.append(((first[prefix], size, n), (action, text, path)))
    keyed.sort(key=lambda item: item[0])
    return [entry for _, entry in keyed]


def _size(text: str) -> int:
    head, cards = split(text)
    if head and head[0] == "bid":
        return len(head[1:]) + len(cards)
    return len(cards)


__all__ = ["action_menu", "legal_menu"]
