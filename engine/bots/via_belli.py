"""Bots for Via Belli: the per-game policy behind every level.

Turns are chosen in menu steps (draw, or open ``+``/``>``/``x``/``^``, then the
card and its anchor or pivot, then the spot). The bots score *complete*
actions (a summon with its spot, a move with its place, an attack, a draw)
and answer each step with the step leading to the best one; every score reads
only public facts and the bot's own hand, so the plan made at the turn
decision is the one followed through the next steps.

* ``easy``: a random legal step, with light sense: at the turn decision it
  draws only when its hand is low (fewer than 3 cards) and never ends its
  turn early.
* ``normal``: :func:`heuristic_move` on a state rebuilt from the view by
  ``sample_state``. It **builds columns** (summons adjacent to its cards,
  towards the enemy castle and the nearest terrain it does not hold),
  **takes the inns** (touching a terrain card takes it), **attacks** when the
  summed ATK beats the DEF (castles first), **defends its castle** (summons
  next to it when enemy units come near), draws when its hand is low (never
  its last cards: an empty pile loses), and reveals the ambush card with the
  best printed DEF.
* ``hard`` (generic, :mod:`engine.bots.search`): Monte Carlo over states drawn
  by :meth:`ViaBelli.sample_state`, among the :data:`CANDIDATES` steps the
  normal heuristic likes best (:meth:`ViaBelliPolicy.candidates`); playouts
  use :func:`quick_move` (some moves at random), cut after
  :attr:`ViaBelliPolicy.playout_depth` actions and scored by :func:`evaluate`
  (units on the table and how far they marched on the enemy castles, castles
  open to a winning attack, held terrain, cards).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from .. import rng
from ..core import Seat
from ..games.via_belli import (
    GAME,
    K_CASTLE,
    K_UNIT,
    LONG,
    SHORT,
    Action,
    Anchor,
    Attack,
    Begin,
    Board,
    Cancel,
    Draw,
    EndTurn,
    Move,
    Pivot,
    Recall,
    Rect,
    Reveal,
    Sorcery,
    State,
    Summon,
    ViaBelli,
    View,
    board_of,
    card_table,
)
from .base import GamePolicy

PLAYOUT_NOISE = 5  # one playout step in 5 is random
CANDIDATES = 6  # root actions hard searches (the normal heuristic's best)
CASTLE_KILL = 1000.0
TERRAIN_TAKE = 6.0


def _rect(x: int, y: int, landscape: bool) -> Rect:
    return Rect(x, y, LONG, SHORT) if landscape else Rect(x, y, SHORT, LONG)


def _touch(a: Rect, b: Rect) -> bool:
    if a.x < b.x + b.w and b.x < a.x + a.w:
        return a.y + a.h == b.y or b.y + b.h == a.y
    if a.y < b.y + b.h and b.y < a.y + a.h:
        return a.x + a.w == b.x or b.x + b.w == a.x
    return False


def _dist(a: Rect, b: Rect) -> float:
    return abs(2 * a.x + a.w - 2 * b.x - b.w) / 2 + abs(2 * a.y + a.h - 2 * b.y - b.h) / 2


class _Scene:
    """The public facts a score needs, computed once per decision."""

    def __init__(self, state: State, seat: Seat) -> None:
        self.state = state
        self.seat = seat
        self.b: Board = board_of(state)
        self.table = card_table(state.rules)
        castles = state.castles
        self.own_castle = _rect(castles[seat].x, castles[seat].y, castles[seat].landscape)
        self.enemy_castles = [
            _rect(c.x, c.y, c.landscape)
            for s, c in enumerate(castles)
            if s != seat and not c.fallen and s not in state.eliminated
        ]
        self.free_terrain = [
            _rect(t.x, t.y, t.landscape) for t in state.terrain if t.controller != seat
        ]
        enemy_units = [_rect(u.x, u.y, u.landscape) for u in state.units if u.owner != seat]
        self.threat = min((_dist(r, self.own_castle) for r in enemy_units), default=99.0)
        self._progress: dict[tuple[int, int, bool], float] = {}

    def place(self, x: int, y: int, landscape: bool) -> float:
        """:meth:`progress` of a card at (x, y), memoised (a decision weighs
        the same spots for many cards and anchors)."""
        key = (x, y, landscape)
        hit = self._progress.get(key)
        if hit is None:
            hit = self._progress[key] = self.progress(_rect(x, y, landscape))
        return hit

    def progress(self, r: Rect) -> float:
        """How well placed a card of ours is: near the enemy castle, near
        terrain we do not hold, and near our castle when it is threatened."""
        score = 0.0
        if self.enemy_castles:
            score -= 0.15 * min(_dist(r, c) for c in self.enemy_castles)
        if self.free_terrain:
            score -= 0.25 * min(_dist(r, t) for t in self.free_terrain)
            if any(_touch(r, t) for t in self.free_terrain):
                score += TERRAIN_TAKE
        if self.threat < 9:
            score += max(0.0, 4.0 - 0.4 * _dist(r, self.own_castle))
        return score


def _summon_score(scene: _Scene, card: str, hidden: bool, x: int, y: int, land: bool) -> float:
    cd = scene.table[card]
    score = 2.0 + 0.4 * (cd.atk + cd.dfn) + scene.place(x, y, land)
    return score - (1.0 if hidden else 0.2 * cd.ivk)


def _move_score(scene: _Scene, fx: int, fy: int, x: int, y: int, land: bool) -> float:
    b = scene.b
    old = b.at((fx, fy))
    now = scene.place(x, y, land)
    was = scene.place(fx, fy, b.unit(old).landscape) if old >= 0 else now
    gain = now - was
    # a move that gains nothing is the last resort (it could go on forever)
    return gain - 0.5 if gain > 0.25 else -40.0


def _score(scene: _Scene, action: Action) -> float:
    state, seat, b = scene.state, scene.seat, scene.b
    if isinstance(action, Summon):
        return _summon_score(
            scene, action.card, action.hidden, action.x, action.y, action.landscape
        )
    if isinstance(action, Attack):
        total = sum(b.atk(b.at(cell)) for cell in action.attackers)
        ti = b.at(action.target)
        kind = b.kind[ti]
        if kind == K_UNIT:
            unit = b.unit(ti)
            dfn = b.dfn(ti) if unit.face_up else 0
            value = 8.0 + (scene.table[unit.name].ivk if unit.face_up else 2.0)
        elif kind == K_CASTLE:
            dfn, value = b.dfn(ti), CASTLE_KILL
        else:  # a siege: the holder's cards around count; a rough guess
            dfn, value = b.dfn(ti) if ti >= 0 else 0, TERRAIN_TAKE + 2.0
        cost = 0.5 * len(action.attackers)
        if total > dfn or (total == dfn and kind == K_CASTLE and state.rules.castle_tie == "falls"):
            return value - cost
        return -20.0 - cost
    if isinstance(action, Move):
        return _move_score(scene, action.fx, action.fy, action.x, action.y, action.landscape)
    if isinstance(action, Draw):
        player = state.players[seat]
        left = sum(player.deck)
        if left <= 2:
            return -30.0
        return max(4.0 - 1.5 * len(player.hand), -4.0)
    if isinstance(action, Recall):
        return -35.0
    if isinstance(action, Sorcery):
        return 0.5
    if isinstance(action, Reveal):
        ci = b.at((action.x, action.y))
        unit = b.unit(ci)
        return float(scene.table[unit.name].dfn)
    if isinstance(action, Cancel):
        return 0.0
    return -0.1  # EndTurn


def heuristic_move(state: State, seat: Seat, legal: Sequence[Action]) -> Action:
    """The heuristic's step among ``legal`` (see the module doc)."""
    if len(legal) == 1:
        return legal[0]
    scene = _Scene(state, seat)
    phase = state.phase
    best: Action = legal[0]
    best_score = -1e18
    for step in legal:
        score = _best_after(scene, state, seat, step, 2 if phase == "turn" else 1)
        if score > best_score:
            best, best_score = step, score
    return best


def _best_after(scene: _Scene, state: State, seat: Seat, step: Action, depth: int) -> float:
    """The best score of the complete actions ``step`` leads to (menus opened
    are followed with the engine; the spots a card or a move may take are
    asked of the engine without making the step, every spot weighed once)."""
    if isinstance(step, Anchor):
        spots = GAME.summon_spots(state, seat, step.card, step.hidden, (step.x, step.y))
        if not spots:
            return -1e9
        x, y, land = max(spots, key=lambda s: scene.place(*s))  # the first of the best
        return _summon_score(scene, step.card, step.hidden, x, y, land)
    if isinstance(step, Pivot):
        places = GAME.move_places(state, seat, (step.fx, step.fy), (step.x, step.y))
        if not places:
            return -1e9
        x, y, land = max(places, key=lambda s: scene.place(*s))
        return _move_score(scene, step.fx, step.fy, x, y, land)
    if not isinstance(step, Begin):
        return _score(scene, step)
    if depth <= 0:
        return -1e9
    after, _ = GAME.apply(state, seat, step)
    return max(
        (_best_after(scene, after, seat, a, depth - 1) for a in GAME.legal_actions(after, seat)),
        default=-1e9,
    )


ADVANCE = 0.12  # per cell closer to an enemy castle than ADVANCE_RANGE
ADVANCE_RANGE = 30.0
CASTLE_THREAT = 12.0  # a castle its enemies could take now


def evaluate(state: State, seat: Seat) -> float:
    """A cut playout's estimated reward in [0, 1] for ``seat``: material on
    the table, held terrain, cards in hand and pile, how far the columns have
    marched on the enemy castles, and castles their enemies could take now."""
    if seat in state.eliminated:
        return 0.0
    table = card_table(state.rules)
    others = max(1, len(state.players) - len(state.eliminated) - 1)
    castles = [
        (s, _rect(c.x, c.y, c.landscape))
        for s, c in enumerate(state.castles)
        if not c.fallen and s not in state.eliminated
    ]
    score = 0.0
    for u in state.units:
        cd = table[u.name]
        value = 1.0 + (0.3 * (cd.atk + cd.dfn))
        r = _rect(u.x, u.y, u.landscape)
        near = min((_dist(r, c) for s, c in castles if s != u.owner), default=ADVANCE_RANGE)
        value += ADVANCE * max(0.0, ADVANCE_RANGE - near)
        score += value if u.owner == seat else -value / others
    for t in state.terrain:
        if t.controller == seat:
            score += 3.0
        elif t.controller >= 0:
            score -= 3.0
    b = board_of(state)
    falls = state.rules.castle_tie == "falls"  # a tie takes the castle too
    for s, _ in castles:
        ci = b.castle_ci[s]
        if ci < 0:
            continue
        dfn = b.dfn(ci) - (1 if falls else 0)
        for enemy in range(len(state.players)):
            if enemy == s or enemy in state.eliminated:
                continue
            attackers = b.attack_map(enemy).get(ci)
            if attackers and sum(b.atk(a) for a in attackers) > dfn:
                if s == seat:
                    score -= CASTLE_THREAT
                elif enemy == seat:
                    score += CASTLE_THREAT / others
                break
    player = state.players[seat]
    score += 0.3 * len(player.hand) + 0.05 * sum(player.deck)
    return 1.0 / (1.0 + math.exp(-score / 8.0))


def _defence(b: Board, ci: int) -> int:
    """A target's DEF as an attacker sees it (a face-down unit has none)."""
    if b.kind[ci] == K_UNIT and not b.unit(ci).face_up:
        return 0
    return b.dfn(ci)


def quick_move(
    state: State, seat: Seat, legal: Sequence[Action], rng_state: int
) -> tuple[Action, int]:
    """``hard``'s playout step: cheap (no look-ahead with the engine). At the
    turn decision: an attack menu only when one may win, otherwise a summon
    (or a draw when the hand is low), sometimes a random step; anchors and
    pivots at random; spots, places, attacks and reveals by :func:`_score`.
    The random steps are drawn by :meth:`ViaBelli.random_step` (the card or
    the card to move first, then its anchor or pivot), never from ``legal``."""
    if len(legal) == 1:
        return legal[0], rng_state
    roll, rng_state = rng.randbelow(rng_state, PLAYOUT_NOISE)
    phase = state.phase
    if phase == "turn":
        if roll == 0:
            return GAME.random_action(state, seat, rng_state)
        b = board_of(state)
        if Begin("x") in legal and any(
            sum(b.atk(a) for a in attackers) > _defence(b, t)
            for t, attackers in b.attack_map(seat).items()
        ):
            return Begin("x"), rng_state
        hand = len(state.players[seat].hand)
        if hand <= 1 and Draw() in legal and sum(state.players[seat].deck) > 2:
            return Draw(), rng_state
        for begin in (Begin("+"), Begin(">")):
            if begin in legal:
                return begin, rng_state
        return legal[0], rng_state
    if isinstance(legal[0], Anchor | Pivot | Recall) or roll == 0:
        # drawn without listing (the card or the card to move first), no recall
        # while a card can move
        return GAME.random_step(state, seat, rng_state, recall=False)
    scene = _Scene(state, seat)
    return max(legal, key=lambda a: _score(scene, a)), rng_state


class ViaBelliPolicy(GamePolicy[State, Action, View]):
    game: ViaBelli = GAME
    playout_depth = 8
    exploration = 0.7

    def observer(self, view: View) -> Seat:
        if view.observer is None:
            raise ValueError("bots play a seat: a spectator's view has no decisions")
        return view.observer

    def easy(self, view: View, legal: Sequence[Action], rng_state: int) -> tuple[Action, int]:
        options = list(legal)
        if view.phase == "turn":
            if view.players[self.observer(view)].hand_count >= 3:
                options = [a for a in options if not isinstance(a, Draw)] or options
            options = [a for a in options if not isinstance(a, EndTurn)] or options
        return rng.choice(rng_state, options)

    def normal(self, view: View, legal: Sequence[Action], rng_state: int) -> tuple[Action, int]:
        seat = self.observer(view)
        seed, rng_state = rng.next_u64(rng_state)
        state = GAME.sample_state(view, seed)
        return heuristic_move(state, seat, legal), rng_state

    def playout(
        self, state: State, seat: Seat, legal: Sequence[Action], rng_state: int
    ) -> tuple[Action, int]:
        return quick_move(state, seat, legal, rng_state)

    def evaluate(self, state: State, seat: Seat) -> float:
        return evaluate(state, seat)

    def candidates(self, view: View, legal: Sequence[Action]) -> Sequence[Action]:
        """The :data:`CANDIDATES` steps the normal heuristic likes best, best
        first (its scores read only public facts and the bot's own hand, so
        any sampled world gives the same ones)."""
        if len(legal) <= CANDIDATES:
            return legal
        seat = self.observer(view)
        state = GAME.sample_state(view, 0)
        scene = _Scene(state, seat)
        depth = 2 if state.phase == "turn" else 1
        scores = [_best_after(scene, state, seat, step, depth) for step in legal]
        order = sorted(range(len(legal)), key=lambda i: -scores[i])  # stable: ties keep order
        return [legal[i] for i in order[:CANDIDATES]]


POLICY = ViaBelliPolicy()
