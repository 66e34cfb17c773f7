"""Helpers to build Chroniques de Liber situations compactly.

``scenario(...)`` starts from a real setup and lays out what a test needs::

    state = scenario(
        board=({"f1": "fantassin", "a2": "archer"}, {"f2": "porte-bouclier dmg=2"}),
        hands=("eclair milicien", ""),
        gold=(10, 0),
        phase="attack",
    )

Places are written as in the notation (``a3``: back line, place 3); a
piece is ``"<card id> [flag ...]"`` with the flags ``sick``, ``poisoned``
(by the other seat), ``paralysed``, ``countered``, ``moved``, ``dmg=N``,
``bonus=N``, ``attacks=N``, ``eq=<object id>`` (repeatable) and ``heal``.
Pieces are ready (not sick) unless ``sick`` is given. Each general stays at
``a3`` unless ``generals`` says otherwise (``None``: no general on the
board); ``general_cards`` replaces the generals (card ids). The active seat decides in ``phase`` (``placement``, ``attack`` or
``end``), in turn ``turn`` (after the first round unless ``first_round``).
Cards a pool lacks (the seed's A/B units) can be added with ``extra_cards``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.core import Event, evolve
from engine.games.liber import GAME
from engine.games.liber.board import find_uid, piece_at
from engine.games.liber.model import LINES, PLACES, Card, Piece, State
from tests.games import scenario as common

g = GAME

Ref = tuple[int, int, int]


def place(text: str) -> tuple[int, int]:
    """``"a3"`` -> ``(1, 2)``."""
    return LINES.index(text[0]), int(text[1:]) - 1


def ref(text: str) -> Ref:
    """``"2f3"`` -> ``(1, 2, 2)`` (seat 2, front, place 3)."""
    return int(text[0]) - 1, LINES.index(text[1]), int(text[2:]) - 1


def _piece(spec: str, uid: int, owner: int, card_of: dict[str, Card]) -> Piece:
    words = spec.split()
    card = words[0]
    fields: dict[str, Any] = {"sick": False, "moved": False}
    equipment: list[str] = []
    for flag in words[1:]:
        key, _, value = flag.partition("=")
        if key == "dmg":
            fields["damage"] = int(value)
        elif key in ("bonus", "attacks"):
            fields[key] = int(value)
        elif key == "eq":
            equipment.append(value)
        elif key == "poisoned":
            fields["poisoned_by"] = int(value) - 1 if value else 1 - owner
        elif key == "heal":
            fields["heal_at_end"] = 1
        elif key == "paralysed":
            fields["paralysed"] = True
        elif key in ("sick", "countered", "moved"):
            fields[key] = True
        else:
            raise ValueError(f"unknown flag {flag!r}")
    fixture = card_of[card].type in ("lieu", "faveur") or card_of[card].spell == "enchantement"
    if fixture:
        fields["sick"] = False
    return Piece(
        uid=uid, card=card, owner=owner, fixture=fixture, equipment=tuple(equipment), **fields
    )


def scenario(
    *,
    seats: int = 2,
    opts: str = "",
    board: Sequence[dict[str, str]] | None = None,
    hands: Sequence[str] | None = None,
    decks: Sequence[str | None] | None = None,
    gold: Sequence[int] | None = None,
    faith: Sequence[int] | None = None,
    vp: Sequence[int] | None = None,
    gods: Sequence[str] | None = None,
    generals: Sequence[str | None] | None = None,
    general_damage: Sequence[int] | None = None,
    general_cards: Sequence[str] | None = None,
    active: int = 0,
    phase: str = "placement",
    turn: int | None = None,
    first_round: bool = False,
    extra_cards: Sequence[Card] = (),
    seed: int = 1,
    **fields: Any,
) -> State:
    """A state where ``active`` decides in ``phase`` (see the module docstring)."""
    state = g.setup(g.options(opts), seats, seed)
    cards = {c.id: c for c in state.cards}
    for extra in extra_cards:
        cards[extra.id] = extra
    from engine.games.liber.data import cards_by_id
    from engine.games.liber.turns import card_rules

    for pooled in cards_by_id().values():  # every card of the pool may be used
        cards.setdefault(pooled.id, card_rules(pooled))
    state = evolve(state, cards=tuple(sorted(cards.values(), key=lambda c: c.id)))
    uid = 100
    players = []
    for seat, player in enumerate(state.players):
        rows: list[list[Piece | None]] = [[None] * PLACES for _ in range(3)]
        if general_cards is not None:
            player = evolve(player, general=general_cards[seat])
        where = generals[seat] if generals is not None else "a3"
        if where is not None:
            line, idx = place(where)
            dmg = general_damage[seat] if general_damage is not None else 0
            rows[line][idx] = Piece(
                uid=seat + 1, card=player.general, owner=seat, general=True, sick=False, damage=dmg
            )
        for text, spec in (board[seat] if board is not None else {}).items():
            line, idx = place(text)
            rows[line][idx] = _piece(spec, uid, seat, cards)
            uid += 1
        changes: dict[str, Any] = {"lines": tuple(tuple(r) for r in rows)}
        if hands is not None:
            changes["hand"] = tuple(hands[seat].split())
        if decks is not None and decks[seat] is not None:
            changes["deck"] = tuple(str(decks[seat]).split())
        for name, values in (("gold", gold), ("faith", faith), ("vp", vp), ("god", gods)):
            if values is not None:
                changes[name] = values[seat]
        players.append(evolve(player, **changes))
    state = evolve(
        state,
        players=tuple(players),
        active=active,
        phase=phase,
        turn=turn if turn is not None else (1 if first_round else seats + 1),
        first_round=first_round,
        window=None,
        windows=(),
        combat=None,
        next_uid=uid,
    )
    return evolve(state, **fields) if fields else state


def at(state: State, text: str) -> Piece | None:
    """The piece at ``"2f3"`` (seat 2, front, place 3)."""
    return piece_at(state, ref(text))


def where(state: State, uid: int) -> str:
    """The place of a piece by uid, as ``"2f3"`` ("" if it is gone)."""
    found = find_uid(state, uid)
    if found is None:
        return ""
    return f"{found[0] + 1}{LINES[found[1]]}{found[2] + 1}"


def pass_all(state: State) -> tuple[State, list[Event]]:
    """Everybody pending in a window passes until no window is open."""
    events: list[Event] = []
    while state.window is not None and g.pending(state):
        state, evs = act(state, "pass")
        events += evs
    return state, events


def act(state: State, *texts: str) -> tuple[State, list[Event]]:
    return common.act(g, state, *texts)


def act_as(state: State, seat: int, *texts: str) -> tuple[State, list[Event]]:
    return common.act_as(g, state, seat, *texts)


def legal(state: State, seat: int | None = None) -> set[str]:
    return common.legal(g, state, seat)


def refused(state: State, text: str, seat: int | None = None, **kwargs: Any) -> Any:
    return common.refused(g, state, text, seat, **kwargs)


kinds = common.kinds
first = common.first
all_of = common.all_of


def frozen(state: State) -> str:
    return common.frozen(g, state)
