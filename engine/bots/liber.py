"""Bots for Chroniques de Liber: the per-game policy behind every level.

Every level reads the seat's view only. ``normal`` and ``hard`` think on a
state rebuilt from that view (``Liber.sample_state``): the other hands and
the decks' order are drawn, but nothing they do looks at them (the
opponent's simulated replies are blocks, Loyauté choices, reclaims and
passes, never a card from its hand), so any sampled world gives the same
choice.

* ``easy``: a random legal move with light sense. The moves are grouped (a
  card, a unit's attacks, a unit's ability...) and a group is drawn before
  one of its moves, so that a card with many targets or Ravage shares is not
  drawn more often; it prefers acting over ``next``/``pass`` three times in
  four, and never ends its placement phase while it can pay for a unit of
  its hand.
* ``normal``: one move ahead with :func:`score`, a material-and-goals
  evaluation: it weighs each candidate move by the position it leads to, the
  opponent's reply to an attack included (its best block, or none), and
  plays the best, ``next``/``pass`` when nothing improves the position. What
  follows from the evaluation: it spends its gold on the units that bring the
  most force and PV for the deck, on the line where their range works
  (fighters on the front, Tir behind it, Artillerie on the plaine), walks its
  fighters up, attacks when the exchange wins material, victory points or
  faith (and always for a won general kill), blocks when the block saves its
  general or wins the exchange, plays its éphémères in the windows when they
  pay, and leans towards the victory condition it is closest to (a convex
  bonus per goal).
* ``hard`` (generic, :mod:`engine.bots.search`): Monte Carlo over sampled
  states, anchored on ``normal``. When normal's best move is clear (no other
  move within :data:`CLOSE` of its score) hard plays it at once; otherwise it
  weighs normal's move and the runner-up (:data:`CANDIDATES`) by playing each
  on states drawn from its view, :data:`PLAYOUT_DEPTH` moves on with
  every seat playing normal's heuristic (:func:`playout_move`: the
  opponent's reply turn included, with the hands the sample dealt it), then
  :func:`evaluate`; the runner-up replaces normal's move only when its mean
  is better by :attr:`LiberPolicy.anchor_margin`. :func:`quick_move` is a
  cheaper rule-based playout kept for experiments and tests.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from .. import rng
from ..core import Seat
from ..games.liber import GAME, Liber, State, View
from ..games.liber.actions import (
    Action,
    Attack,
    Block,
    Discard,
    Equip,
    General,
    Guard,
    Move,
    Next,
    Pass,
    Play,
    Reclaim,
    Use,
)
from ..games.liber.board import (
    Ref,
    card_of,
    cards_of,
    enemies,
    fighters,
    find_uid,
    force,
    general_ref,
    has_kw,
    income,
    max_pv,
    piece_at,
    pv_left,
    units,
)
from ..games.liber.costs import play_cost
from ..games.liber.legality import context
from ..games.liber.model import ARRIERE, PLAINE, Card, Piece
from ..games.liber.range import in_range, protected
from .base import GamePolicy

CANDIDATES = 2  # root moves hard searches at most (the ones normal rates best)
CLOSE = 2.5  # ... within this much of normal's best score
PLAYOUT_DEPTH = 8  # moves played out (by normal) before the evaluation
PLAYOUT_NOISE = 8  # quick_move: one move in 8 is random
WIN = 1000.0

# weights of :func:`score`
GENERAL_PV = 2.5
GENERAL_WOUNDS = 0.0  # times the general's wounded fraction squared
UNIT_FORCE = 1.0
UNIT_PV = 0.7
UNIT_BASE = 1.5
HAND_CARD = 0.9
GOLD = 0.22
INCOME = 0.9
FAITH = 1.2
VP = 0.45
GOD = 10.0
GOAL_BONUS = 30.0  # times progress³ towards each victory condition
LETHAL_THREAT = 25.0
THREAT = 1.2
REACH = 1.0

# how well a unit of each range kind works from each line (plaine, arrière, front)
LINE_USE = {
    "melee": (0.15, 0.55, 1.0),
    "tir": (0.15, 1.0, 0.9),
    "artillerie": (1.0, 0.7, 1.0),
}


def range_kind(card: Card) -> str:
    if "artillerie" in card.keywords:
        return "artillerie"
    if "tir" in card.keywords:
        return "tir"
    return "melee"


# ---------------------------------------------------------------------------
# The evaluation
# ---------------------------------------------------------------------------


def unit_value(state: State, ref: Ref, piece: Piece) -> float:
    """What a unit on the table is worth to its owner: force (times how well
    its range works from its line), PV left, abilities, statuses."""
    card = card_of(state, piece.card)
    use = LINE_USE[range_kind(card)][ref[1]]
    value = UNIT_BASE + UNIT_FORCE * force(state, ref, piece) * use
    value += UNIT_PV * max(0, pv_left(state, ref, piece))
    value += 0.4 * len(card.keywords) + (1.5 if "armure" in card.keywords else 0.0)
    if piece.paralysed:
        value -= 0.3 * force(state, ref, piece) + 0.5
    if piece.poisoned_by >= 0:
        value -= 1.5
    return value


def threat(state: State, seat: Seat, target: Ref) -> int:
    """The force ``seat``'s fighters could send at the piece at ``target`` on
    their next attack phase (range and Loyauté as they stand; paralysed
    fighters do not count)."""
    if protected(state, target):
        return 0
    total = 0
    for ref, piece in fighters(state, seat):
        if piece.paralysed:
            continue
        if in_range(state, ref, piece, target):
            total += force(state, ref, piece)
    return total


def side_value(state: State, seat: Seat) -> float:
    """A seat's material and resources (no threats, no goals)."""
    player = state.players[seat]
    value = 0.0
    for ref, piece in units(state, seat):
        value += unit_value(state, ref, piece)
    for fixture in player.lines[PLAINE]:
        if fixture is not None and fixture.fixture:
            value += 1.0 + 0.3 * card_of(state, fixture.card).gold
    gen = general_ref(state, seat)
    if gen is not None:
        general = piece_at(state, gen)
        assert general is not None
        left = pv_left(state, gen, general)
        wounds = 1.0 - left / max(1, max_pv(state, gen, general))
        value += GENERAL_PV * left - GENERAL_WOUNDS * wounds**2
    value += HAND_CARD * min(len(player.hand), state.rules.hand_limit)
    value += GOLD * player.gold + INCOME * income(state, seat)
    value += FAITH * player.faith + VP * player.vp + (GOD if player.god else 0.0)
    rules = state.rules
    for have, goal in (
        (player.faith, rules.faith_to_win),
        (player.vp, rules.vp_to_win),
        (player.gold, rules.gold_to_win),
    ):
        value += GOAL_BONUS * min(1.0, have / goal) ** 3
    return value


def danger(state: State, seat: Seat) -> float:
    """How exposed ``seat``'s general is to its enemies' next attacks."""
    gen = general_ref(state, seat)
    if gen is None:
        return LETHAL_THREAT * 2
    general = piece_at(state, gen)
    assert general is not None
    left = max(1, pv_left(state, gen, general))
    worst = 0.0
    for enemy in enemies(state, seat):
        t = threat(state, enemy, gen)
        value = THREAT * t + (LETHAL_THREAT if t >= left else 0.0)
        worst = max(worst, value)
    return worst


def score(state: State, seat: Seat) -> float:
    """The position for ``seat``: its side minus its enemies' (their mean),
    its general's danger against its reach on theirs; ±:data:`WIN` at the end."""
    if state.phase == "over":
        if not state.ranking:
            return 0.0
        if seat in state.ranking[0]:
            return WIN
        return -WIN
    if state.players[seat].out:
        return -WIN
    foes = enemies(state, seat)
    mine = side_value(state, seat) - danger(state, seat)
    theirs = 0.0
    for enemy in foes:
        theirs += side_value(state, enemy) - REACH * danger(state, enemy)
    return mine - theirs / max(1, len(foes))


def evaluate(state: State, seat: Seat) -> float:
    """:func:`score` squashed into [0, 1] for the search."""
    value = score(state, seat)
    return 1.0 / (1.0 + math.exp(-value / 20.0))


# ---------------------------------------------------------------------------
# normal: one move ahead, with the opponent's reply to an attack
# ---------------------------------------------------------------------------


def _pending_seat(state: State) -> Seat | None:
    pending = GAME.pending(state)
    return min(pending) if pending else None


def settle(state: State, seat: Seat, limit: int = 8) -> State:
    """Play the other seats' window answers (blocks, Loyauté, reclaims,
    passes: never a card of their hands) until ``seat`` decides again, the
    turn passes to another seat's own phase, or the game ends."""
    for _ in range(limit):
        mover = _pending_seat(state)
        if mover is None or mover == seat:
            break
        ctx = context(state, mover)
        if ctx not in ("react", "loyalty", "reclaim"):
            break
        action = reply(state, mover)
        state, _ = GAME.apply(state, mover, action)
    return state


def _finish_window(state: State, seat: Seat) -> State:
    """After a block: the blocker passes the rest of its window."""
    for _ in range(4):
        if _pending_seat(state) != seat or context(state, seat) != "react":
            break
        state, _ = GAME.apply(state, seat, Pass())
    return state


def reply(state: State, seat: Seat) -> Action:
    """A window answer without cards: the best block (or none) by
    :func:`score`, the sturdiest loyal unit, a reclaim."""
    ctx = context(state, seat)
    legal = GAME.legal_actions(state, seat)
    if ctx == "reclaim":
        return Reclaim() if Reclaim() in legal else Pass()
    if ctx == "loyalty":
        guards = [a for a in legal if isinstance(a, Guard)]

        def sturdy(a: Guard) -> int:
            piece = piece_at(state, (seat, *a.place))
            return pv_left(state, (seat, *a.place), piece) if piece is not None else 0

        return max(guards, key=sturdy) if guards else legal[0]
    blocks = [a for a in legal if isinstance(a, Block)]
    if not blocks or Pass() not in legal:
        return Pass() if Pass() in legal else legal[0]
    best: Action = Pass()
    best_value = score(_finish_window(GAME.apply(state, seat, Pass())[0], seat), seat)
    for block in blocks:
        after = _finish_window(GAME.apply(state, seat, block)[0], seat)
        value = score(after, seat)
        if value > best_value + 0.01:
            best, best_value = block, value
    return best


def _kill_value(state: State, ref: Ref, amount: int) -> float:
    piece = piece_at(state, ref)
    if piece is None:
        return 0.0
    left = pv_left(state, ref, piece)
    if amount >= left:
        return 10.0 + unit_value(state, ref, piece)
    return float(amount)


def _shares_value(state: State, shares: tuple[tuple[Ref, int], ...]) -> float:
    return sum(_kill_value(state, ref, n) for ref, n in shares)


def prune(state: State, seat: Seat, legal: Sequence[Action]) -> list[Action]:
    """The moves worth weighing: one place per line for a card or a move (the
    first free one), the best Ravage shares and Honneur split per choice,
    Télékinésie only to push an enemy to its plaine or pull one of ours."""
    seen: dict[tuple[object, ...], Action] = {}
    best_split: dict[tuple[object, ...], float] = {}
    for action in legal:
        key: tuple[object, ...]
        if isinstance(action, Play) and action.place is not None:
            key = ("play", action.card, action.place[0])
            if action.shares:
                value = _shares_value(state, action.shares)
                if key in seen and best_split.get(key, -1.0) >= value:
                    continue
                best_split[key] = value
                seen[key] = action
                continue
        elif isinstance(action, Move):
            key = ("move", action.src, action.dst[0])
        elif isinstance(action, Attack) and len(action.targets) > 1:
            key = ("honneur", action.src, tuple(r for r, _ in action.targets))
            value = _shares_value(state, action.targets)
            if key in seen and best_split.get(key, -1.0) >= value:
                continue
            best_split[key] = value
            seen[key] = action
            continue
        elif isinstance(action, Use) and action.ability == "telekinesie":
            assert action.target is not None and action.dest is not None
            enemy = action.target[0] != seat
            if enemy and action.dest[1] != PLAINE:
                continue
            key = ("tk", action.target, action.dest[1])
        elif isinstance(action, Use) and action.ability == "defausse":
            key = ("defausse", action.src)
        else:
            key = ("any", action)
        seen.setdefault(key, action)
    return list(seen.values())


def _defausse_card(state: State, seat: Seat, legal: Sequence[Action]) -> Action | None:
    """Défausse: the least useful card of the hand (a second god, a card far
    above the gold we have), if any such card is there."""
    player = state.players[seat]
    for action in legal:
        if isinstance(action, Use) and action.ability == "defausse":
            card = card_of(state, action.card)
            if card.type == "dieu" and player.god:
                return action
            if card.gold > player.gold + 2 * income(state, seat):
                return action
    return None


def ranked(state: State, seat: Seat, legal: Sequence[Action]) -> list[tuple[float, Action]]:
    """Each weighed move with the score of the position it leads to, best
    first (``next`` and ``pass`` included; Défausse only on a dead card)."""
    dead = _defausse_card(state, seat, legal)
    out: list[tuple[float, Action]] = []
    for i, action in enumerate(prune(state, seat, legal)):
        if isinstance(action, Use) and action.ability == "defausse" and action != dead:
            continue
        after, _ = GAME.apply(state, seat, action)
        if isinstance(action, Block):
            after = _finish_window(after, seat)
        after = settle(after, seat)
        value = score(after, seat)
        if isinstance(action, Next | Pass):
            value += 0.05  # ties: do nothing rather than something useless
        out.append((value - 1e-6 * i, action))
    out.sort(key=lambda pair: -pair[0])
    return out


def heuristic_move(state: State, seat: Seat, legal: Sequence[Action]) -> Action:
    """normal's move (see the module doc)."""
    if len(legal) == 1:
        return legal[0]
    ctx = context(state, seat)
    if ctx == "discard":
        return _worst_card(state, seat, legal)
    if ctx in ("loyalty", "reclaim"):
        return reply(state, seat)
    best = ranked(state, seat, legal)
    return best[0][1] if best else legal[-1]


def _worst_card(state: State, seat: Seat, legal: Sequence[Action]) -> Action:
    """Discard: the card least worth keeping (the dearest beyond our means,
    else the cheapest)."""
    gold = state.players[seat].gold + income(state, seat)

    def keep(action: Action) -> float:
        assert isinstance(action, Discard)
        card = card_of(state, action.card)
        cost = card.gold + 2 * card.faith
        return -cost if cost > gold + 6 else cost + card.force + card.pv

    return min(legal, key=keep)


# ---------------------------------------------------------------------------
# hard's playouts: simple rules, no look-ahead
# ---------------------------------------------------------------------------


def _unit_play_rank(state: State, seat: Seat, action: Action) -> float:
    assert isinstance(action, Play) and action.place is not None
    card = card_of(state, action.card)
    use = LINE_USE[range_kind(card)][action.place[0]]
    return card.force * use + 0.7 * card.pv - 0.3 * play_cost(state, seat, action)


def _quick_placement(state: State, seat: Seat, legal: Sequence[Action]) -> Action:
    table = cards_of(state)
    plays = [a for a in legal if isinstance(a, Play) and table[a.card].type == "unite"]
    if plays:
        return max(plays, key=lambda a: _unit_play_rank(state, seat, a))
    for action in legal:
        if isinstance(action, Move) and action.dst[0] == action.src[0] + 1:
            piece = piece_at(state, (seat, *action.src))
            if piece is not None:
                kind = range_kind(card_of(state, piece.card))
                if kind == "melee" or (kind == "tir" and action.dst[0] == ARRIERE):
                    return action
    for action in legal:
        if isinstance(action, Play) and table[action.card].type in ("lieu", "objet", "dieu"):
            return action
    return Next()


def _attack_rank(state: State, seat: Seat, action: Attack) -> float:
    src = (seat, *action.src)
    attacker = piece_at(state, src)
    if attacker is None:
        return -1.0
    hit = force(state, src, attacker)
    value = 0.0
    for ref, share in action.targets:
        target = piece_at(state, ref)
        if target is None:
            continue
        amount = share or hit
        if target.general:
            value += 6.0 + amount
        elif amount >= pv_left(state, ref, target):
            value += 8.0 + card_of(state, target.card).force
        else:
            value += 0.5 * amount
        if in_range(state, ref, target, src) and not has_kw(state, attacker, "furtivite"):
            back = force(state, ref, target, defending=True)
            if back >= pv_left(state, src, attacker) and not attacker.general:
                value -= 4.0 + hit
    return value


def _pv_at(state: State, ref: Ref) -> int:
    piece = piece_at(state, ref)
    return pv_left(state, ref, piece) if piece is not None else 0


def _quick_block(state: State, seat: Seat, legal: Sequence[Action]) -> Action:
    combat = state.combat
    blocks = [a for a in legal if isinstance(a, Block)]
    if combat is None or not blocks:
        return Pass()
    a_ref = find_uid(state, combat.attacker)
    t_ref = find_uid(state, combat.strikes[0].uid)
    if a_ref is None or t_ref is None:
        return Pass()
    attacker, target = piece_at(state, a_ref), piece_at(state, t_ref)
    assert attacker is not None and target is not None
    hit = force(state, a_ref, attacker)
    if target.general and hit >= pv_left(state, t_ref, target) - 2:
        return max(blocks, key=lambda b: _pv_at(state, (seat, *b.place)))
    for block in blocks:
        ref = (seat, *block.place)
        piece = piece_at(state, ref)
        assert piece is not None
        survives = pv_left(state, ref, piece) > hit
        kills = force(state, ref, piece, defending=True) >= pv_left(state, a_ref, attacker)
        if survives and kills:
            return block
    return Pass()


def quick_move(
    state: State, seat: Seat, legal: Sequence[Action], rng_state: int
) -> tuple[Action, int]:
    """``hard``'s playout move: cheap rules (see the module doc), one move in
    :data:`PLAYOUT_NOISE` drawn like ``easy``."""
    if len(legal) == 1:
        return legal[0], rng_state
    roll, rng_state = rng.randbelow(rng_state, PLAYOUT_NOISE)
    if roll == 0:
        return easy_move(legal, rng_state, cards_of(state))
    ctx = context(state, seat)
    if ctx == "placement":
        action = _quick_placement(state, seat, legal)
    elif ctx == "attack":
        attacks = [a for a in legal if isinstance(a, Attack)]
        ranks = [(_attack_rank(state, seat, a), a) for a in attacks]
        best = max(ranks, key=lambda p: p[0], default=(0.0, Next()))
        action = best[1] if best[0] > 0 else Next()
    elif ctx == "react":
        action = _quick_block(state, seat, legal)
    elif ctx == "reclaim":
        action = Reclaim() if Reclaim() in legal else Pass()
    else:
        action = legal[0]
    return (action if action in legal else legal[-1]), rng_state


def playout_move(
    state: State, seat: Seat, legal: Sequence[Action], rng_state: int
) -> tuple[Action, int]:
    """``hard``'s playout move: normal's own (on the simulated state, so
    every seat plays by the heuristic)."""
    return heuristic_move(state, seat, legal), rng_state


# ---------------------------------------------------------------------------
# easy
# ---------------------------------------------------------------------------


def _group(action: Action) -> tuple[object, ...]:
    if isinstance(action, Play):
        return ("play", action.card)
    if isinstance(action, Attack | Move | Use | Equip):
        return (type(action).__name__, action.src)
    if isinstance(action, General):
        return ("general", action.index)
    return (type(action).__name__,)


def easy_move(
    legal: Sequence[Action], rng_state: int, table: dict[str, Card]
) -> tuple[Action, int]:
    """A random move: a group of moves drawn first (a card, a unit's attacks,
    an ability), then one of its moves; acting rather than ``next``/``pass``
    three times in four; never ``next`` in placement while a unit of the
    hand is affordable."""
    acting = [a for a in legal if not isinstance(a, Next | Pass)]
    units_affordable = any(isinstance(a, Play) and table[a.card].type == "unite" for a in acting)
    roll, rng_state = rng.randbelow(rng_state, 4)
    options = legal
    if acting and (roll or units_affordable):
        options = acting
    groups: dict[tuple[object, ...], list[Action]] = {}
    for action in options:
        groups.setdefault(_group(action), []).append(action)
    keys = list(groups)
    k, rng_state = rng.randbelow(rng_state, len(keys))
    return rng.choice(rng_state, groups[keys[k]])


# ---------------------------------------------------------------------------
# The policy
# ---------------------------------------------------------------------------


class LiberPolicy(GamePolicy[State, Action, View]):
    game: Liber = GAME
    playout_depth = PLAYOUT_DEPTH
    exploration = 0.5
    anchored = True
    root_arms = CANDIDATES - 1
    anchor_margin = 0.02
    anchor_min_visits = 2

    def observer(self, view: View) -> Seat:
        if view.observer is None:
            raise ValueError("bots play a seat: a spectator's view has no decisions")
        return view.observer

    def easy(self, view: View, legal: Sequence[Action], rng_state: int) -> tuple[Action, int]:
        self.observer(view)
        return easy_move(legal, rng_state, {c.id: c for c in view.cards})

    def normal(self, view: View, legal: Sequence[Action], rng_state: int) -> tuple[Action, int]:
        seat = self.observer(view)
        state = GAME.sample_state(view, 0)
        return heuristic_move(state, seat, legal), rng_state

    def candidates(self, view: View, legal: Sequence[Action]) -> Sequence[Action]:
        """The moves normal rates within :data:`CLOSE` of its best (at most
        :data:`CANDIDATES`), best first; only normal's move when it is clear
        (then hard plays it without searching)."""
        if len(legal) <= 1:
            return legal
        seat = self.observer(view)
        state = GAME.sample_state(view, 0)
        if context(state, seat) in ("discard", "loyalty", "reclaim"):
            return [heuristic_move(state, seat, legal)]
        scored = ranked(state, seat, legal)
        if not scored:
            return list(legal)
        top = scored[0][0]
        return [a for v, a in scored[:CANDIDATES] if v >= top - CLOSE]

    def playout(
        self, state: State, seat: Seat, legal: Sequence[Action], rng_state: int
    ) -> tuple[Action, int]:
        return playout_move(state, seat, legal, rng_state)

    def evaluate(self, state: State, seat: Seat) -> float:
        return evaluate(state, seat)


POLICY = LiberPolicy()

__all__ = ["POLICY", "LiberPolicy", "evaluate", "heuristic_move", "quick_move", "score"]
