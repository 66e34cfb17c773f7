"""Between Battle's legality, decided once.

Every kind of action has one check: it returns ``None`` when the deciding
seat may play the action now, or the :class:`Refusal` that says why not (a
stable key and the values its sentence needs; ``text.refusal_text`` turns it
into the catalogue message ``bb-refuse-<key>``). ``legal_actions`` builds its list from the same
checks, ``apply`` validates with them and the refusal's sentence comes from
what they found, so the list, the validation and the explanation cannot
disagree.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from ... import rng
from ...core import Seat
from .actions import Action, GivePile, Link, Pick, Play, Pull, TakeDamage, Target, Tutor
from .board import card_value as _card_value
from .board import deck_tables, label_key, open_top, opponents, pile_value, plain
from .data import CharacterId
from .model import State

Param = int | str | None


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why an action is illegal now: a stable key (``"not-between"``,
    ``"locked-pile"`` ...) and the values of its sentence (piles 1-based)."""

    key: str
    params: tuple[tuple[str, Param], ...] = ()

    def param(self, key: str) -> Param:
        for k, v in self.params:
            if k == key:
                return v
        return None


# ---------------------------------------------------------------------------
# What the turn allows
# ---------------------------------------------------------------------------


def play_targets(state: State) -> tuple[int, ...]:
    """The piles the active player may play on this turn."""
    lock = state.turn_lock
    p0, p1 = state.piles
    empties = ((0,) if not p0 else ()) + ((1,) if not p1 else ())
    rules = state.rules
    if lock >= 0:
        if rules.lock_beats_empty_pile or not empties or lock in empties:
            return (lock,)
        return ()  # the empty-pile obligation and the lock cannot both be met
    if rules.empty_pile_must and len(empties) == 1:
        return empties
    return (0, 1)


def locked_alone(state: State) -> bool:
    """Option ``locked_pile_alone=joker-only``: the player is locked on a pile
    with a value while the other pile has none; only the joker goes there."""
    return _locked_alone(state, pile_value(state.piles[0]), pile_value(state.piles[1]))


def _locked_alone(state: State, v0: int | None, v1: int | None) -> bool:
    lock = state.turn_lock
    if lock < 0 or state.rules.locked_pile_alone != "joker-only":
        return False
    values = (v0, v1)
    return values[lock] is not None and values[1 - lock] is None


def free_play(state: State) -> bool:
    """Any card goes on the pile(s) the player may play on: a pile has no
    value (T2), or the tops are equal or consecutive (T3) and this is not the
    same player's extra turn (« le joueur suivant »)."""
    return _free_play(state, pile_value(state.piles[0]), pile_value(state.piles[1]))


def _free_play(state: State, v0: int | None, v1: int | None) -> bool:
    rules = state.rules
    if v0 is None or v1 is None:
        return not _locked_alone(state, v0, v1)
    if not rules.adjacent_tops_free or abs(v0 - v1) > 1:
        return False
    return not state.bonus_turn or rules.adjacent_on_extra_turn


BETWEEN = "between"
"""A pile's rule for number cards when they must lie between the two values."""


class Turn(NamedTuple):
    """What the current turn allows, worked out once per state.

    ``card_rule[pile]`` says what a card that is not a joker may do there:
    ``None`` (any card goes), :data:`BETWEEN` (a card strictly between ``lo``
    and ``hi``, else ``"not-between"``), or the refusal key for every card;
    ``joker_rule[pile]`` the same for the joker.
    """

    lock: int  # the pile the Chevalier forces, -1: none
    targets: tuple[int, ...]  # piles a card may go on
    card_rule: tuple[str | None, str | None]
    joker_rule: tuple[str | None, str | None]
    lo: int
    hi: int
    link_piles: tuple[int, ...]  # piles with an open link to connect to
    values: tuple[int | None, int | None]


_LAST_TURN: list[tuple[State | None, Turn | None]] = [(None, None)]


def turn_of(state: State) -> Turn:
    """The :class:`Turn` of ``state`` (the last answer is kept: ``apply``
    checks an action on the state ``legal_actions`` has just listed)."""
    last, turn = _LAST_TURN[0]
    if last is state and turn is not None:
        return turn
    turn = _turn_of(state)
    _LAST_TURN[0] = (state, turn)
    return turn


def _turn_of(state: State) -> Turn:
    rules = state.rules
    p0, p1 = state.piles
    lock = state.turn_lock
    targets = play_targets(state)
    v0, v1 = pile_value(p0), pile_value(p1)
    alone = _locked_alone(state, v0, v1)
    free = _free_play(state, v0, v1)
    lo = hi = 0
    if not free and v0 is not None and v1 is not None:
        lo, hi = (v0, v1) if v0 <= v1 else (v1, v0)
        if rules.between_rule == "inclusive":
            lo, hi = lo - 1, hi + 1
    # « (X) = Cette carte peut toujours être jouée »: when no pile can take a
    # card (lock_beats_empty_pile=false), the joker still goes on the locked pile
    joker_targets = targets or ((lock,) if lock >= 0 else (0, 1))
    # a pile with no value (empty, or only jokers) takes any card, unless alone
    any0 = free or (v0 is None and not alone)
    any1 = free or (v1 is None and not alone)
    card_rule = (
        _card_rule(0, targets, lock, any0, alone),
        _card_rule(1, targets, lock, any1, alone),
    )
    joker_rule = (
        _card_rule(0, joker_targets, lock, True, False),
        _card_rule(1, joker_targets, lock, True, False),
    )
    links: tuple[int, ...] = ()
    if lock < 0:
        links = ((0,) if open_top(p0) else ()) + ((1,) if open_top(p1) else ())
    return Turn(lock, targets, card_rule, joker_rule, lo, hi, links, (v0, v1))


def _card_rule(
    pile: int, targets: tuple[int, ...], lock: int, any_card: bool, alone: bool
) -> str | None:
    """What a card may do on ``pile``: see :class:`Turn`."""
    if pile in targets:
        if any_card:
            return None
        return "joker-only" if alone else BETWEEN
    if lock >= 0:
        return "locked-pile" if pile != lock else "lock-and-empty-pile"
    return "empty-pile"


# ---------------------------------------------------------------------------
# The checks of the turn (one per kind of action)
# ---------------------------------------------------------------------------


def play_problem(turn: Turn, value: int, kind: str, pile: int) -> str | None:
    """Why a card (its value and kind) cannot go on ``pile`` this turn: a
    refusal key, or None when it can. (``pile`` is 0 or 1.)"""
    rule = (turn.joker_rule if kind == "joker" else turn.card_rule)[pile]
    if rule is BETWEEN:
        return None if turn.lo < value < turn.hi else "not-between"
    return rule


def link_problem(turn: Turn, kind: str, pile: int) -> str | None:
    """Why a card of ``kind`` cannot create a link on ``pile``, or None."""
    if turn.lock >= 0:
        return "locked-pile" if pile != turn.lock else "lock-no-link"
    if kind != "link":
        return "not-a-link"
    if pile not in turn.link_piles:
        return "no-open-link"
    return None


def damage_problem(state: State, card_actions: Callable[[], Sequence[object]]) -> str | None:
    """Taking damage is always possible, except with both piles empty under
    ``damage_with_empty_piles=refused`` when the player can play a card."""
    if state.piles[0] or state.piles[1] or state.rules.damage_with_empty_piles == "allowed":
        return None
    return "damage-empty-piles" if card_actions() else None


def _card_refusal(state: State, seat: Seat, action: Play | Link) -> Refusal | None:
    tables = deck_tables(state.rules.decks)
    player = state.players[seat]
    card = tables[3][player.character].code + action.card
    if card not in player.hand:
        return Refusal("no-card", (("card", action.card),))
    value, kind, _ = tables[4][card]
    turn = turn_of(state)
    if type(action) is Play:
        # a pile number out of range (never parsed from a notation) lies nowhere
        outside = action.pile not in (0, 1)
        key = "not-between" if outside else play_problem(turn, value, kind, action.pile)
    else:
        key = link_problem(turn, kind, action.pile)
    if key is None:
        return None
    return Refusal(key, _card_params(key, action, turn))


def _card_params(key: str, action: Play | Link, turn: Turn) -> tuple[tuple[str, Param], ...]:
    """The values the sentence of a card's refusal needs."""
    if key in ("not-a-link", "no-open-link"):
        return (("card", action.card), ("pile", action.pile + 1))
    if key == "not-between":
        return (("card", action.card), ("low", turn.values[0]), ("high", turn.values[1]))
    if key == "empty-pile":
        return (("pile", turn.targets[0] + 1),)
    if key == "lock-and-empty-pile":
        return (("pile", turn.lock + 1), ("empty", 2 - turn.lock))
    return (("pile", turn.lock + 1),)  # locked-pile, lock-no-link, joker-only


def card_actions(state: State, seat: Seat) -> list[Action]:
    """The cards ``seat`` may play this turn (plays, then links, card by card
    in value order, joker last): those :func:`play_problem` and
    :func:`link_problem` accept."""
    info = deck_tables(state.rules.decks)[4]
    turn = turn_of(state)
    lo, hi = turn.lo, turn.hi
    links = turn.link_piles
    actions: list[Action] = []
    add = actions.append
    for card in sorted(set(state.players[seat].hand), key=info.__getitem__):
        value, kind, label = info[card]
        # play_problem(turn, value, kind, pile) is None, unrolled: this loop is
        # the engine's hottest (the single-source test checks they agree)
        rule0, rule1 = turn.joker_rule if kind == "joker" else turn.card_rule
        if rule0 is None or (rule0 is BETWEEN and lo < value < hi):
            add(Play(label, 0))
        if rule1 is None or (rule1 is BETWEEN and lo < value < hi):
            add(Play(label, 1))
        for pile in links:
            if link_problem(turn, kind, pile) is None:
                add(Link(label, pile))
    return actions


def random_turn_action(state: State, seat: Seat, rng_state: int) -> tuple[Action, int]:
    """One of the turn's legal actions (:func:`legal_actions` in the
    ``turn`` phase) drawn at random, and the generator's next state, without
    building the list's actions: the same checks as :func:`card_actions`
    over the hand's (card, pile) spots, then one action made. Uniform, as a
    hand never holds a card twice (each deck has every card once)."""
    info = deck_tables(state.rules.decks)[4]
    turn = turn_of(state)
    lo, hi = turn.lo, turn.hi
    links = turn.link_piles
    spots: list[tuple[str, int, bool]] = []
    add = spots.append
    for card in state.players[seat].hand:
        value, kind, label = info[card]
        rule0, rule1 = turn.joker_rule if kind == "joker" else turn.card_rule
        if rule0 is None or (rule0 is BETWEEN and lo < value < hi):
            add((label, 0, False))
        if rule1 is None or (rule1 is BETWEEN and lo < value < hi):
            add((label, 1, False))
        for pile in links:
            if link_problem(turn, kind, pile) is None:
                add((label, pile, True))
    damage = damage_problem(state, lambda: spots) is None
    index, rng_state = rng.randbelow(rng_state, len(spots) + damage)
    if index == len(spots):
        return TakeDamage(), rng_state
    label, pile, link = spots[index]
    return (Link(label, pile) if link else Play(label, pile)), rng_state


def _turn_refusal(state: State, seat: Seat, action: Action) -> Refusal | None:
    if type(action) is Play or type(action) is Link:
        return _card_refusal(state, seat, action)
    if isinstance(action, TakeDamage):
        key = damage_problem(state, lambda: card_actions(state, seat))
        return None if key is None else Refusal(key)
    return Refusal("turn-expected")


# ---------------------------------------------------------------------------
# The other decisions: a list of choices each
# ---------------------------------------------------------------------------


def give_choices(state: State) -> tuple[int, ...]:
    """The piles the damage chooser may give (an empty one only with
    ``give_empty_pile``, or when both are empty)."""
    piles = state.piles
    given = tuple(i for i in (0, 1) if piles[i] or state.rules.give_empty_pile)
    return given or (0, 1)


def pick_choices(state: State) -> tuple[CharacterId, ...]:
    taken = {p.character for p in state.players}
    return tuple(d.character for d in state.rules.decks if d.character not in taken)


def pull_choices(state: State) -> list[str]:
    """The cards the joker may bring up (each once, the topmost first)."""
    return pull_choices_of(state.piles[state.work_pile], state.rules.joker_depth)


def pull_choices_of(pile: tuple[str, ...], depth: int) -> list[str]:
    """The cards a joker on top of ``pile`` may bring up (``depth``: the
    option ``joker_depth``, 0 for any card)."""
    below = pile[:-1]
    if depth:
        below = below[-depth:]
    out: list[str] = []
    for card in reversed(below):
        code = plain(card)
        if _card_value(code) is not None and code not in out:
            out.append(code)
    return out


def tutor_choices(state: State, seat: Seat) -> list[str]:
    """The labels of the cards in ``seat``'s deck, in value order."""
    return sorted({c[2:] for c in state.players[seat].deck}, key=label_key)


def _choice_refusal(state: State, seat: Seat, action: Action) -> Refusal | None:
    phase = state.phase
    if phase == "choose-pile" and isinstance(action, GivePile):
        if action.pile in give_choices(state):
            return None
        return Refusal("give-empty", (("pile", action.pile + 1),))
    if phase == "draft" and isinstance(action, Pick) and action.character in pick_choices(state):
        return None
    if phase == "joker-pull" and isinstance(action, Pull) and action.card in pull_choices(state):
        return None
    if phase == "tutor" and isinstance(action, Tutor) and action.card in tutor_choices(state, seat):
        return None
    if phase == "target" and isinstance(action, Target) and action.seat in opponents(state, seat):
        return None
    return Refusal("not-now", (("phase", phase),))


# ---------------------------------------------------------------------------
# The entry points
# ---------------------------------------------------------------------------


def refusal(state: State, seat: Seat, action: Action) -> Refusal | None:
    """None when ``seat``, the seat deciding now, may play ``action``; else
    why not. (Whose turn it is, and the end of the game, are checked before:
    ``Game.check_turn``.)"""
    if state.phase == "turn":
        return _turn_refusal(state, seat, action)
    return _choice_refusal(state, seat, action)


def legal_actions(state: State, seat: Seat) -> list[Action]:
    """Every action ``seat`` may play now, in a fixed order; each passes
    :func:`refusal`."""
    phase = state.phase
    if phase == "over" or seat != state.decider:
        return []
    if phase == "turn":
        actions = card_actions(state, seat)
        if damage_problem(state, lambda: actions) is None:
            actions.append(TakeDamage())
        return actions
    if phase == "choose-pile":
        return [GivePile(i) for i in give_choices(state)]
    if phase == "draft":
        return [Pick(c) for c in pick_choices(state)]
    if phase == "joker-pull":
        return [Pull(c) for c in pull_choices(state)]
    if phase == "tutor":
        return [Tutor(label) for label in tutor_choices(state, seat)]
    return [Target(s) for s in opponents(state, seat)]
