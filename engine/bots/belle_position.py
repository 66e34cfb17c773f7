"""Bots for Belle Position: the per-game policy behind every level.

* ``easy``: a random legal action, with light sense: it never takes back a
  deployment (``undo``), deploys before it says ``ok``, and fires rather
  than ending the combat phase (one time in three it ends movement early).
* ``normal``: a heuristic (:func:`heuristic_move`) on a state rebuilt from the
  view by ``sample_state`` (it only reads what the view shows: hidden enemy
  cards are a guess drawn from the bot's own generator). It deploys evenly,
  plays Ralliement on the unit with the most tokens (option
  ``ralliement_timing=failure``: always on the unit that has just failed its
  test, which would rout otherwise), **concentrates fire**
  (it finishes the position it started on, then aims at the weakest enemy
  position, strongest shooter first), places its losses on the unit that
  can best absorb them. In movement it follows an **attack plan**
  (:func:`_attack_plan`): an enemy position is attacked when the force that
  can be there at the end of the phase (units already there and the fresh
  units of the own position opposite, up to the grouping limit) outweighs
  its holders by a bar that drops from 1.4 to 0.6 as the turns go by, so
  two cautious armies do not face each other for ever; once committed, it
  feeds the attack. It retakes its own positions from the reserve, sends
  idle units back to the reserve to do so, rushes abandoned enemy positions
  (two of them win), never moves a general where no unit of its side stands
  (a lone general engaged dies), never fills a position beyond its limit,
  pulls badly hurt units back and ends a phase when nothing useful is left.
* ``hard`` (generic, :mod:`engine.bots.search`), *anchored* on ``normal``:
  its default is ``normal``'s move; Monte Carlo over states drawn by
  :meth:`BellePosition.sample_state` weighs it against at most
  :attr:`BellePositionPolicy.root_arms` other moves, and another move is
  played only when, after at least
  :attr:`BellePositionPolicy.anchor_min_visits` playouts each, its mean
  reward beats the heuristic's by :attr:`BellePositionPolicy.anchor_margin`.
  Playouts are ``normal``'s heuristic (:func:`heuristic_move`) with one
  random move in :data:`PLAYOUT_NOISE`, cut after
  :attr:`BellePositionPolicy.playout_depth` actions and scored by
  :func:`evaluate` (material, loss tokens, occupied enemy positions). On a
  small budget it therefore plays exactly as ``normal``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache

from .. import rng
from ..core import Seat
from ..games.belle_position import (
    GAME,
    RESERVE,
    Action,
    BellePosition,
    Board,
    Done,
    Fire,
    Loss,
    Move,
    Play,
    State,
    TypeDef,
    Undo,
    View,
    _cap,
    _count,
    absolute_of,
    board,
    card_index,
    opposite,
    unpack_type,
)
from .base import GamePolicy

PLAYOUT_NOISE = 12  # one playout move in 12 is random: playouts play like normal
WIN_BONUS = 100.0


@lru_cache(maxsize=64)
def _types_of(table: tuple[str, ...]) -> dict[str, TypeDef]:
    out: dict[str, TypeDef] = {}
    for line in table:
        t = unpack_type(line)
        out[t.id] = t
    return out


def types(state: State) -> dict[str, TypeDef]:
    return _types_of(state.rules.table)


def _unit_strength(t: TypeDef, tokens: int) -> float:
    """What a unit is worth on the board: its cohesion left and firepower."""
    if t.kind != "unit":
        return 0.0
    left = max(t.vc - tokens, 0)
    return left + 0.5 * t.save + 0.3 * max(t.fire_attack, t.fire_defence, t.long_range)


def _position_strength(state: State, b: Board, seat: int, p: int) -> float:
    army = state.armies[seat].cards
    tt = types(state)
    return sum(_unit_strength(tt[army[i].type], army[i].tokens) for i in b.units[seat][p])


def _shot_value(state: State, seat: int, uid: str) -> float:
    """How hard a unit hits: its VC dice times the chance of each die."""
    c = state.armies[seat].cards[card_index(uid)]
    t = types(state)[c.type]
    power = max(t.fire_attack, t.fire_defence, t.long_range)
    return t.vc * power / 6.0


# ---------------------------------------------------------------------------
# The heuristic (state level; normal runs it on a state rebuilt from the view)
# ---------------------------------------------------------------------------


def heuristic_move(state: State, seat: Seat, legal: Sequence[Action]) -> Action:
    """The heuristic's choice among ``legal`` for ``seat`` (see module doc)."""
    if len(legal) == 1:
        return legal[0]
    phase = state.phase
    if phase == "deploy":
        return _deploy(state, seat, legal)
    if phase == "rally":
        return _rally(state, seat, legal)
    if phase == "combat":
        return _fire(state, seat, legal)
    if phase == "allocate":
        return _loss(state, seat, legal)
    return _movement(state, seat, legal)


def _deploy(state: State, seat: Seat, legal: Sequence[Action]) -> Action:
    b = board(state)
    army = state.armies[seat].cards
    tt = types(state)
    best: Action | None = None
    best_score = -1e9
    for a in legal:
        if not isinstance(a, Move):
            continue
        t = tt[army[card_index(a.card)].type]
        p = absolute_of(seat, a.to)
        crowd = len(b.units[seat][p])
        score = -2.0 * crowd
        if t.kind == "unit":
            score += 5.0 + t.vc
        elif t.kind == "general":
            score += 3.0 + 2.0 * crowd  # generals go where the units are
        else:  # terrain: worth little
            score += 0.5
        if score > best_score:
            best, best_score = a, score
    if best is not None:
        return best
    return next((a for a in legal if isinstance(a, Done)), legal[0])


def _rally(state: State, seat: Seat, legal: Sequence[Action]) -> Action:
    army = state.armies[seat].cards
    plays = [a for a in legal if isinstance(a, Play)]
    if plays and state.rules.ralliement_timing == "failure":
        return plays[0]  # the unit has failed its test: without Ralliement it routs
    if plays:
        best = max(plays, key=lambda a: army[card_index(a.target)].tokens)
        if army[card_index(best.target)].tokens >= 2:
            return best
    return next((a for a in legal if isinstance(a, Done)), legal[0])


def _fire(state: State, seat: Seat, legal: Sequence[Action]) -> Action:
    b = board(state)
    enemy = 1 - seat
    fires = [a for a in legal if isinstance(a, Fire)]
    if not fires:
        return legal[0]

    def target(a: Fire) -> int:
        if a.at[0] in "FA":  # counter-battery: an enemy card
            return state.armies[enemy].cards[card_index(a.at)].loc
        return absolute_of(seat, a.at)

    best = fires[0]
    best_score = -1e9
    for a in fires:
        p = target(a)
        score = 3.0 * _shot_value(state, seat, a.card)
        score -= _position_strength(state, b, enemy, p)  # the weakest position first
        if p == state.combat_at:
            score += 50.0  # finish the position being fought (it closes when we leave)
        if a.at[0] in "FA":
            score += 1.0
        if score > best_score:
            best, best_score = a, score
    return best


def _loss(state: State, seat: Seat, legal: Sequence[Action]) -> Action:
    army = state.armies[seat].cards
    tt = types(state)

    def room(a: Action) -> float:
        if not isinstance(a, Loss):
            return -1e9
        c = army[card_index(a.card)]
        t = tt[c.type]
        return (t.vc - c.tokens) + 0.5 * t.save  # the unit that can best absorb it

    return max(legal, key=room)


def _attack_plan(state: State, b: Board, seat: Seat) -> dict[int, float]:
    """Enemy positions worth attacking this movement phase, with how much the
    attack is worth: the force that can be there at the end of the phase (the
    units already there and the fresh units of the own position opposite)
    against what holds it. The bar drops as the battle goes on, so two
    cautious armies never face each other for ever."""
    enemy = 1 - seat
    army = state.armies[seat].cards
    tt = types(state)
    bar = max(0.6, 1.4 - 0.01 * state.turn)
    plan: dict[int, float] = {}
    for dest in range(enemy * 3, enemy * 3 + 3):
        src = opposite(dest)
        there = _position_strength(state, b, seat, dest)
        their = _position_strength(state, b, enemy, dest)
        can_come = 0.0
        if not b.present(enemy, src):  # no advance out of an engaged position
            room = 4 - len(b.terrain[dest]) - len(b.units[seat][dest])
            ready = sorted(
                (
                    _unit_strength(tt[army[i].type], army[i].tokens)
                    for i in b.units[seat][src]
                    if not army[i].moves and not army[i].fought and army[i].tokens == 0
                ),
                reverse=True,
            )
            can_come = sum(ready[: max(room, 0)])
        force = there + can_come
        if not b.present(enemy, dest) and b.units[seat][dest]:
            continue  # ours already
            plan[dest] = 10.0  # abandoned: occupy it
        elif force > 0 and (force >= bar * their or (there > 0 and force >= their)):
            plan[dest] = force - bar * their if not there else force - their
    # own positions the enemy holds: retake them from the reserve
    reserve = sorted(
        (
            _unit_strength(tt[army[i].type], 0)
            for i in b.reserve[seat]
            if tt[army[i].type].kind == "unit"
        ),
        reverse=True,
    )
    for q in range(seat * 3, seat * 3 + 3):
        if b.units[enemy][q] and not b.units[seat][q]:
            room = 4 - len(b.terrain[q])
            force = sum(reserve[:room])
            their = _position_strength(state, b, enemy, q)
            plan[q] = force - bar * their
    return plan


def _movement(state: State, seat: Seat, legal: Sequence[Action]) -> Action:
    b = board(state)
    enemy = 1 - seat
    army = state.armies[seat].cards
    tt = types(state)
    own_occupied = sum(1 for p in range(enemy * 3, enemy * 3 + 3) if b.units[seat][p])
    strength = [[_position_strength(state, b, s, p) for p in range(6)] for s in (0, 1)]
    plan = _attack_plan(state, b, seat)
    room = [_cap(state, b, seat, p) - _count(b, seat, p) for p in range(6)]
    can_end = any(isinstance(a, Done) for a in legal)
    best: Action | None = None
    best_score = 0.5  # below this, ending the phase is better
    for a in legal:
        if not isinstance(a, Move):
            continue
        i = card_index(a.card)
        c = army[i]
        t = tt[c.type]
        dest = absolute_of(seat, a.to)
        src = c.loc
        hurt = c.tokens / max(t.vc, 1)
        score = 0.0
        if t.kind != "general" and dest >= 0 and room[dest] <= 0 and (src < 0 or src // 3 == seat):
            # no room: only worth it when a card leaves that position after it
            # (and never when the phase must end within the limit)
            if src >= 0 and room[src] < 0 and not can_end:
                score = 0.6
            if score > best_score:
                best, best_score = a, score
            continue
        if not can_end and src >= 0 and room[src] < 0:
            # over the limit: the phase cannot end before a card leaves
            score = 5.0 - _unit_strength(t, c.tokens) if t.kind == "unit" else 0.0
        elif t.kind == "general":
            # a general alone never holds a position: he goes only where units
            # of his side are (and stay), never ahead of them
            if dest != RESERVE and b.units[seat][dest]:
                score = 1.0 + 0.5 * len(b.units[seat][dest])
                if dest // 3 == enemy:
                    score += 1.0
                if src >= 0 and b.units[seat][src]:
                    score -= 0.5 * len(b.units[seat][src]) + 0.5  # already useful there
        elif dest == RESERVE:
            if (
                t.kind == "unit"
                and src // 3 == seat
                and c.tokens == 0
                and not b.present(enemy, src)
                and not b.units[enemy][opposite(src)]
                and any(v < 0 and p // 3 == seat for p, v in plan.items())
            ):
                score = 1.2  # idle here: redeploy it to retake a position
            elif t.kind == "unit" and hurt >= 0.5 and len(b.units[seat][src]) > 1:
                score = 1.0 + 2.0 * hurt  # pull it back: its tokens go
                if src // 3 == enemy and plan.get(src, -1.0) >= 0:
                    score -= 2.0  # keep the attack going
        elif src == RESERVE:
            if t.kind == "terrain":
                score = 0.8
            else:
                crowd = len(b.units[seat][dest])
                threat = strength[enemy][dest] + strength[enemy][opposite(dest)]
                score = 1.5 + 0.4 * threat - 0.3 * crowd
                if not b.units[seat][dest]:
                    score += 3.0  # an empty position of ours invites occupation
                if opposite(dest) in plan:
                    score += 1.0  # feed the attack
                if b.units[enemy][dest] and not b.units[seat][dest]:  # retake it
                    score = 2.5 + plan.get(dest, -10.0)
        elif dest // 3 == enemy:  # advance into the enemy line
            if c.tokens == 0 or not b.present(enemy, dest):
                if not b.present(enemy, dest):
                    score = 6.0 + 4.0 * own_occupied  # occupation wins the game
                elif dest in plan:
                    score = 2.5 + plan[dest] + 0.3 * _unit_strength(t, 0)
                    if b.units[seat][dest]:
                        score += 1.0  # committed: do not leave the first ones alone
        else:  # back from the enemy line
            if t.kind == "unit" and hurt >= 0.6 and plan.get(src, -1.0) < 0:
                score = 1.0 + 2.0 * hurt
        if score > best_score:
            best, best_score = a, score
    if best is not None:
        return best
    done = next((a for a in legal if isinstance(a, Done)), None)
    if done is not None:
        return done
    moves = [a for a in legal if not isinstance(a, Undo)]
    return moves[0] if moves else legal[0]


def evaluate(state: State, seat: Seat) -> float:
    """A cut playout's estimated reward in [0, 1] for ``seat``."""
    b = board(state)
    score = 0.0
    for s, sign in ((seat, 1.0), (1 - seat, -1.0)):
        army = state.armies[s].cards
        tt = types(state)
        for c in army:
            t = tt[c.type]
            if t.kind != "unit" or c.loc < -2:
                continue
            score += sign * _unit_strength(t, c.tokens if c.loc >= 0 else 0)
        held = sum(
            1
            for p in range((1 - s) * 3, (1 - s) * 3 + 3)
            if b.units[s][p] and not b.units[1 - s][p]
        )
        score += sign * 6.0 * held
    return 1.0 / (1.0 + math.exp(-score / 12.0))


# ---------------------------------------------------------------------------
# The policy
# ---------------------------------------------------------------------------


class BellePositionPolicy(GamePolicy[State, Action, View]):
    game: BellePosition = GAME
    playout_depth = 10
    exploration = 0.7
    anchored = True
    root_arms = 4  # fewer arms, more playouts each: a verdict worth trusting
    anchor_margin = 0.06
    anchor_min_visits = 12

    def observer(self, view: View) -> Seat:
        if view.observer is None:
            raise ValueError("bots play a seat: a spectator's view has no decisions")
        return view.observer

    def easy(self, view: View, legal: Sequence[Action], rng_state: int) -> tuple[Action, int]:
        options: list[Action] = [a for a in legal if not isinstance(a, Undo)] or list(legal)
        if view.phase in ("deploy", "combat"):
            options = [a for a in options if not isinstance(a, Done)] or options
        elif view.phase == "movement":
            done = [a for a in options if isinstance(a, Done)]
            roll, rng_state = rng.randbelow(rng_state, 3)
            if done and roll == 0:
                return done[0], rng_state
        return rng.choice(rng_state, options)

    def normal(self, view: View, legal: Sequence[Action], rng_state: int) -> tuple[Action, int]:
        seat = self.observer(view)
        seed, rng_state = rng.next_u64(rng_state)
        state = GAME.sample_state(view, seed)
        return heuristic_move(state, seat, legal), rng_state

    def playout(
        self, state: State, seat: Seat, legal: Sequence[Action], rng_state: int
    ) -> tuple[Action, int]:
        roll, rng_state = rng.randbelow(rng_state, PLAYOUT_NOISE)
        if roll == 0:
            options: list[Action] = [a for a in legal if not isinstance(a, Undo)] or list(legal)
            return rng.choice(rng_state, options)
        return heuristic_move(state, seat, legal), rng_state

    def evaluate(self, state: State, seat: Seat) -> float:
        return evaluate(state, seat)


POLICY = BellePositionPolicy()
