"""Whether an action is legal now, and if not why: one check per kind of
action, the single source of legality.

Each check returns None when the action is legal and otherwise the
:class:`~.text.Refusal` that ``apply`` raises (``Refusal.error``). The legal
actions are built from the same checks and queries: ``_root`` lists ``D``,
the four menus and ``E`` by asking :func:`check_draw`, :func:`check_begin`
and :func:`check_end_turn`; the steps list what the queries of
``summoning.py``, ``moving.py`` and ``attacking.py`` give, and the checks of
the steps' actions test membership in those same queries. A complete action
typed at the turn decision (``Roturier G11P``, ``G11>G15L``, ``<G11``,
``G8+G11xJ11``, ``^Bailli``) is legal when its menu is open to the player
and each of its steps would be listed. Only when an action is illegal do the
checks look for the reason, in the order the refusals have always been
given (the first condition that fails)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...core import Seat
from .actions import (
    Action,
    Anchor,
    Attack,
    Begin,
    BeginKind,
    Cancel,
    Draw,
    EndTurn,
    Move,
    Pivot,
    Recall,
    Reveal,
    Sorcery,
    Summon,
)
from .attacking import _attack_groups, _targets
from .board import K_UNIT, board_of, card_table
from .geometry import card_rect, cell_text
from .model import SUB_PHASES, State
from .moving import _destinations, _movers, _pivots, _recallables
from .summoning import _anchors_for, _cards_for, _placement, _sorcery_cards, _spots_for
from .text import (
    ATTACK_GROUP,
    BEGIN_REFUSALS,
    CHOOSE_ACTION,
    DOG_ONLY,
    EMPTY_PILE,
    MOVE_PLACE,
    NO_PA,
    RECALL_FACE_UP,
    SPY_CONTACT,
    Refusal,
    bad_anchor,
    card_cost,
    hand_full,
    must_touch,
    no_card_at,
    not_free,
    not_in_discard,
    not_in_hand,
    off_table,
    pa_unspent,
    recall_cuts,
    sorcery_needs,
    summon_cost,
    wrong_step,
)


def refusal(state: State, seat: Seat, action: Action) -> Refusal | None:
    """None when ``seat``, the seat deciding now (see ``check_turn``), may
    play ``action``: an action ``legal_actions`` lists, ``-`` in a step after
    the first, or a complete action standing for its steps; otherwise why
    not."""
    phase = state.phase
    check = _CHECKS.get((phase, type(action)))
    if check is not None:
        return check(state, seat, action)
    if phase == "turn":
        return CHOOSE_ACTION
    if isinstance(action, Cancel) and phase in SUB_PHASES:
        return None  # back to the turn decision
    return wrong_step(phase)


# ---- the turn decision: draw, the four menus, end of turn -------------------


def check_draw(state: State, seat: Seat) -> Refusal | None:
    """``D``: 1 PA, a card left in the pile, room in the hand (V23)."""
    rules = state.rules
    player = state.players[seat]
    if not any(player.deck):
        return EMPTY_PILE
    if rules.hand_limit and len(player.hand) >= rules.hand_limit:
        return hand_full(rules.hand_limit)
    if state.pa < 1:
        return NO_PA
    return None


def check_begin(state: State, seat: Seat, kind: BeginKind) -> Refusal | None:
    """``+``, ``>``, ``x``, ``^``: the menu opens when it has a choice to offer."""
    pa = state.pa
    if kind == "+":
        ok = bool(state.players[seat].hand) and bool(
            _cards_for(state, seat, "+") or _cards_for(state, seat, "?")
        )
    elif kind == ">":
        ok = pa >= 1 and bool(_movers(state, seat, first_only=True) or _recallables(state, seat))
    elif kind == "x":
        ok = bool(_targets(state, seat, first_only=True))
    else:
        ok = bool(_sorcery_cards(state, seat))
    return None if ok else BEGIN_REFUSALS[kind]


def check_end_turn(state: State, seat: Seat, others: bool | None = None) -> Refusal | None:
    """``E``: with ``must_spend_pa=false`` while PA are left; at 0 PA when a
    Lancier's free attack keeps the turn going, which the player may decline
    (seed: « il attaque gratuitement »). ``others``: whether ``D`` or a menu
    is open (computed when not given)."""
    pa = state.pa
    if not state.rules.must_spend_pa and pa > 0:
        return None
    if pa <= 0:
        if others is None:
            others = check_draw(state, seat) is None or any(
                check_begin(state, seat, kind) is None for kind in ("+", ">", "x", "^")
            )
        if others:
            return None
    return pa_unspent(pa)


# ---- summoning --------------------------------------------------------------


def check_anchor(state: State, seat: Seat, a: Anchor) -> Refusal | None:
    """``Roturier@D11``: a card the step offers, against one of its anchors."""
    b = board_of(state)
    dog = state.phase == "free-dog"
    if not (dog and a.hidden):
        kind = "dog" if dog else "?" if a.hidden else "+"
        if a.card in _cards_for(state, seat, kind) and b.at((a.x, a.y)) in _anchors_for(
            state, seat, a.card, a.hidden
        ):
            return None
    if a.card not in state.players[seat].hand:
        return not_in_hand(a.card)
    cd = card_table(state.rules)[a.card]
    if dog and cd.ability != "dog":
        return DOG_ONLY
    if not dog and not a.hidden and cd.ivk > state.pa:
        return card_cost(a.card, cd.ivk, state.pa)
    return bad_anchor(cell_text(a.x, a.y), a.card)


def _summon_spot_listed(state: State, seat: Seat, a: Summon, kind: str) -> bool:
    """Whether the summon is a spot of an anchor the ``kind`` summon offers."""
    if a.card not in _cards_for(state, seat, kind):
        return False
    spot = (a.x, a.y, a.landscape)
    return any(
        spot in _spots_for(state, seat, a.card, a.hidden, ci)
        for ci in _anchors_for(state, seat, a.card, a.hidden)
    )


def check_summon_now(state: State, seat: Seat, a: Summon) -> Refusal | None:
    """``Roturier G11P`` typed at the turn decision: ``+``, an anchor, the spot."""
    if check_begin(state, seat, "+") is None and _summon_spot_listed(
        state, seat, a, "?" if a.hidden else "+"
    ):
        return None
    return _why_not_summon(state, seat, a)


def check_dog_summon(state: State, seat: Seat, a: Summon) -> Refusal | None:
    """A free dog's placement typed at the free-dog decision."""
    if not a.hidden and _summon_spot_listed(state, seat, a, "dog"):
        return None
    return wrong_step(state.phase)


def check_spot(state: State, seat: Seat, a: Summon) -> Refusal | None:
    """The spot step: one of the chosen anchor's free spots."""
    hidden = state.sel_kind == "?"
    if a.card == state.sel_card and a.hidden == hidden and state.sel_via is not None:
        b = board_of(state)
        spots = _spots_for(state, seat, state.sel_card, hidden, b.at(state.sel_via))
        if (a.x, a.y, a.landscape) in spots:
            return None
    return _why_not_summon(state, seat, a)


def _why_not_summon(state: State, seat: Seat, a: Summon) -> Refusal:
    """The first condition of a summon that fails."""
    rules = state.rules
    if a.card not in state.players[seat].hand:
        return not_in_hand(a.card)
    cost = rules.ambush_cost if a.hidden else card_table(rules)[a.card].ivk
    if state.phase == "turn" and cost > state.pa:
        return summon_cost(cost, state.pa)
    r = card_rect(a.x, a.y, a.landscape)
    where = cell_text(a.x, a.y)
    if not r.inside(rules.width, rules.height):
        return off_table(where)
    b = board_of(state)
    if b.geo.fp(r.x, r.y, r.w, r.h) & b.occ:
        return not_free(where)
    if _placement(state, a.card, a.hidden) == "spy":
        return SPY_CONTACT
    return must_touch(where)


# ---- moving and recalling ---------------------------------------------------


def _pivot_listed(state: State, seat: Seat, a: Pivot) -> bool:
    b = board_of(state)
    ci = b.at((a.fx, a.fy))
    return ci in _movers(state, seat) and b.at((a.x, a.y)) in _pivots(state, seat, ci)


def check_pivot(state: State, seat: Seat, a: Pivot) -> Refusal | None:
    """``G11@D11``: a card that can move, and a card it can move along."""
    return None if _pivot_listed(state, seat, a) else wrong_step(state.phase)


def check_destination(state: State, seat: Seat, a: Move) -> Refusal | None:
    """The destination step: a place along the chosen pivot."""
    if (a.fx, a.fy) == state.sel_unit and state.sel_via is not None:
        b = board_of(state)
        places = _destinations(state, seat, b.at(state.sel_unit), b.at(state.sel_via))
        if (a.x, a.y, a.landscape) in places:
            return None
    return wrong_step(state.phase)


def check_move_now(state: State, seat: Seat, a: Move) -> Refusal | None:
    """``G11>G15L`` typed at the turn decision: ``>``, a pivot, the place."""
    b = board_of(state)
    ci = b.at((a.fx, a.fy))
    if check_begin(state, seat, ">") is None and ci in _movers(state, seat):
        place = (a.x, a.y, a.landscape)
        if any(place in _destinations(state, seat, ci, p) for p in _pivots(state, seat, ci)):
            return None
    if ci < 0 or b.kind[ci] != K_UNIT or b.owner[ci] != seat:
        return no_card_at(cell_text(a.fx, a.fy))
    if state.pa < 1:
        return NO_PA
    return MOVE_PLACE


def check_recall(state: State, seat: Seat, a: Recall) -> Refusal | None:
    """``<G11`` in the move step: a card that can be recalled."""
    ci = board_of(state).at((a.x, a.y))
    return None if ci in _recallables(state, seat) else wrong_step(state.phase)


def check_recall_now(state: State, seat: Seat, a: Recall) -> Refusal | None:
    """``<G11`` typed at the turn decision."""
    b = board_of(state)
    ci = b.at((a.x, a.y))
    if check_begin(state, seat, ">") is None and ci in _recallables(state, seat):
        return None
    where = cell_text(a.x, a.y)
    if ci < 0 or b.kind[ci] != K_UNIT or b.owner[ci] != seat:
        return no_card_at(where)
    if not b.unit(ci).face_up and not state.rules.recall_face_down:
        return RECALL_FACE_UP
    return recall_cuts(where)


# ---- attacking, the Sorcier, the reveal --------------------------------------


def _attack_listed(state: State, seat: Seat, a: Attack) -> bool:
    b = board_of(state)
    for t in _targets(state, seat):
        if b.cell(t) == a.target:
            groups = _attack_groups(state, seat, t)
            return any(tuple(b.cell(c) for c in group) == a.attackers for group in groups)
    return False


def check_attack(state: State, seat: Seat, a: Attack) -> Refusal | None:
    """The attack step: attackers the player can afford against a target."""
    return None if _attack_listed(state, seat, a) else wrong_step(state.phase)


def check_attack_now(state: State, seat: Seat, a: Attack) -> Refusal | None:
    """``G8+G11xJ11`` typed at the turn decision."""
    if check_begin(state, seat, "x") is None and _attack_listed(state, seat, a):
        return None
    return ATTACK_GROUP


def check_sorcery(state: State, seat: Seat, a: Sorcery) -> Refusal | None:
    """The Sorcier step: a card of the discard the player can pay for."""
    return None if a.card in _sorcery_cards(state, seat) else wrong_step(state.phase)


def check_sorcery_now(state: State, seat: Seat, a: Sorcery) -> Refusal | None:
    """``^Bailli`` typed at the turn decision."""
    if check_begin(state, seat, "^") is None and a.card in _sorcery_cards(state, seat):
        return None
    if a.card not in state.players[seat].discard:
        return not_in_discard(a.card)
    return sorcery_needs(card_table(state.rules)[a.card].ivk)


def check_reveal(state: State, seat: Seat, a: Reveal) -> Refusal | None:
    """The defender's reveal: one of the ambush cards touching the target."""
    c = state.combat
    if c is not None and seat == c.defender and (a.x, a.y) in c.candidates:
        return None
    return wrong_step(state.phase)


def _listed(state: State, seat: Seat, action: Any) -> Refusal | None:
    """An action every step lists (``-`` at the free-dog decision)."""
    return None


_CHECKS: dict[tuple[str, type], Callable[[State, Seat, Any], Refusal | None]] = {
    ("turn", Draw): lambda s, seat, _: check_draw(s, seat),
    ("turn", EndTurn): lambda s, seat, _: check_end_turn(s, seat),
    ("turn", Begin): lambda s, seat, a: check_begin(s, seat, a.kind),
    ("turn", Summon): check_summon_now,
    ("turn", Move): check_move_now,
    ("turn", Recall): check_recall_now,
    ("turn", Attack): check_attack_now,
    ("turn", Sorcery): check_sorcery_now,
    ("anchor", Anchor): check_anchor,
    ("free-dog", Anchor): check_anchor,
    ("free-dog", Summon): check_dog_summon,
    ("free-dog", Cancel): _listed,
    ("spot", Summon): check_spot,
    ("pivot", Pivot): check_pivot,
    ("pivot", Recall): check_recall,
    ("destination", Move): check_destination,
    ("attack", Attack): check_attack,
    ("sorcery", Sorcery): check_sorcery,
    ("reveal", Reveal): check_reveal,
}
"""The check of each kind of action at each decision; any other action is
refused with what the decision expects (``-`` goes back from a step)."""
