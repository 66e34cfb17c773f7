"""Bots for Between Battle: the per-game policy behind every level.

* ``easy``: a random card among those it may play (it takes damage only when
  nothing is playable), gives the bigger pile when it chooses the damage,
  everything else at random.
* ``normal``: looks one move ahead with the engine itself. For each card it
  may play (and each joker pull), it computes the piles that result and the
  chance that the next player holds nothing playable there (from the cards
  that player may still hold: their character's cards that are nowhere
  public), weighted by the damage they would then take; it keeps its joker
  and links for when they matter, and only takes damage when stuck.
* ``hard`` (generic, :mod:`engine.bots.search`): Monte Carlo over states
  drawn by :meth:`BetweenBattle.sample_state`, playouts by :func:`quick_move`,
  a fast state-level version of ``normal``'s idea (tight gaps, no free play).

Only the view is ever read by ``easy`` and ``normal``; the engine is only used
on states rebuilt from that view.
"""

from __future__ import annotations

from collections.abc import Sequence

from .. import rng
from ..core import Seat
from ..core import evolve as replace
from ..games.between_battle import (
    GAME,
    Action,
    BetweenBattle,
    GivePile,
    Link,
    Pick,
    Play,
    Player,
    State,
    TakeDamage,
    Target,
    Tutor,
    View,
    card_kind,
    pile_value,
    plain,
)
from .base import GamePolicy

# Draft preference of ``normal``: normal against itself wins 62% with the
# Pirate, 47% with the Chevalier or the Ninja, 43% with the Cow-boy.
PICK_ORDER = ("pirate", "chevalier", "ninja", "cowboy")
# Tutor preference: the joker, the links, then the middle values.
TUTOR_ORDER = ("X", "12", "5", "8", "9", "7", "10", "6", "11", "14", "3")

JOKER_COST = 1.2
LINK_COST = 0.4
RISK = 0.35  # how much of the next pile we expect to eat when the opponent can play
KILL_BONUS = 25.0
WIN = 1000.0


# ---------------------------------------------------------------------------
# What a view says about the others' hidden cards
# ---------------------------------------------------------------------------


def unseen_cards(view: View, seat: Seat) -> tuple[str, ...]:
    """The cards ``seat`` may hold face down (hand or deck) as far as the
    observer of ``view`` can tell: their character's cards that are neither
    public (piles, discard, revealed) nor, for the observer, in hand. Damage
    cards lie face down (views give their count only), so some of these may
    be under somebody's help card."""
    pv = view.players[seat]
    if not pv.character or pv.out:
        return ()
    public: dict[str, int] = {}
    for card in [plain(c) for pile in view.piles for c in pile] + list(view.discard):
        public[card] = public.get(card, 0) + 1
    for card in pv.hand if pv.hand is not None else pv.revealed:
        public[card] = public.get(card, 0) + 1
    deck = next(d for d in view.decks if d.character == pv.character)
    out = []
    for label in deck.cards:
        card = deck.code + label
        if public.get(card, 0):
            public[card] -= 1
        else:
            out.append(card)
    return tuple(out)


def _none_held(pool: int, good: int, draws: int) -> float:
    """Chance that ``draws`` cards taken from ``pool`` miss all ``good`` ones."""
    if draws <= 0 or good <= 0:
        return 1.0
    if good + draws > pool:
        return 0.0
    p = 1.0
    for i in range(draws):
        p *= (pool - good - i) / (pool - i)
    return p


# ---------------------------------------------------------------------------
# The policy
# ---------------------------------------------------------------------------


class BetweenBattlePolicy(GamePolicy[State, Action, View]):
    game: BetweenBattle = GAME
    exploration = 0.6

    def observer(self, view: View) -> Seat:
        if view.observer is None:
            raise ValueError("bots play a seat: a spectator's view has no decisions")
        return view.observer

    # ---- easy ----------------------------------------------------------
    def easy(self, view: View, legal: Sequence[Action], rng_state: int) -> tuple[Action, int]:
        sizes = (len(view.piles[0]), len(view.piles[1]))
        return _easy(legal, sizes, rng_state)

    # ---- normal ----------------------------------------------------------
    def normal(self, view: View, legal: Sequence[Action], rng_state: int) -> tuple[Action, int]:
        seat = self.observer(view)
        first = legal[0]
        if isinstance(first, Pick):
            picks = {a.character: a for a in legal if isinstance(a, Pick)}
            return picks[next(c for c in PICK_ORDER if c in picks)], rng_state
        if isinstance(first, GivePile):
            return _give_bigger(legal, (len(view.piles[0]), len(view.piles[1]))), rng_state
        if isinstance(first, Tutor):
            return _best_tutor(legal), rng_state
        if isinstance(first, Target):
            return _weakest_target(view, legal), rng_state
        # a turn or a joker pull: look one move ahead on a state rebuilt from the view
        seed, rng_state = rng.next_u64(rng_state)
        state = GAME.sample_state(view, seed)
        pools = {
            p.seat: unseen_cards(view, p.seat) for p in view.players if p.seat != seat and not p.out
        }
        revealed = {p.seat: p.revealed for p in view.players}
        candidates = [a for a in legal if not isinstance(a, TakeDamage)]
        if not candidates:
            return legal[0], rng_state
        best: Action = candidates[0]
        best_score = -1e18
        for action in candidates:
            score = _score_action(state, seat, action, pools, revealed, 0)
            if score > best_score:
                best, best_score = action, score
        return best, rng_state

    # ---- hard's playouts ---------------------------------------------------
    def playout(
        self, state: State, seat: Seat, legal: Sequence[Action], rng_state: int
    ) -> tuple[Action, int]:
        return quick_move(state, legal, rng_state)


POLICY = BetweenBattlePolicy()


# ---------------------------------------------------------------------------
# Shared pieces
# ---------------------------------------------------------------------------


def _easy(
    legal: Sequence[Action], pile_sizes: tuple[int, int], rng_state: int
) -> tuple[Action, int]:
    first = legal[0]
    if isinstance(first, GivePile):
        return _give_bigger(legal, pile_sizes), rng_state
    plays = [a for a in legal if not isinstance(a, TakeDamage)]
    return rng.choice(rng_state, plays or legal)


def _give_bigger(legal: Sequence[Action], sizes: tuple[int, int]) -> Action:
    pile = 0 if sizes[0] >= sizes[1] else 1
    for action in legal:
        if isinstance(action, GivePile) and action.pile == pile:
            return action
    return legal[0]


def _best_tutor(legal: Sequence[Action]) -> Action:
    labels = {a.card: a for a in legal if isinstance(a, Tutor)}
    for label in TUTOR_ORDER:
        if label in labels:
            return labels[label]
    return legal[len(legal) // 2]


def _weakest_target(view: View, legal: Sequence[Action]) -> Action:
    """The opponent closest to losing (least life), the next one on ties."""
    targets = [a for a in legal if isinstance(a, Target)]
    return min(targets, key=lambda a: view.players[a.seat].life) if targets else legal[0]


def _score_action(
    state: State,
    seat: Seat,
    action: Action,
    pools: dict[Seat, tuple[str, ...]],
    revealed: dict[Seat, tuple[str, ...]],
    depth: int,
) -> float:
    """How good ``action`` looks for ``seat``, one move ahead (see module doc)."""
    cost = 0.0
    if isinstance(action, Play | Link):
        code = state.players[seat].character
        card = next(d.code for d in state.rules.decks if d.character == code) + action.card
        kind = card_kind(state.rules, card)
        if kind == "joker":
            cost = JOKER_COST
        elif kind == "link":
            cost = LINK_COST
    after, _ = GAME.apply(state, seat, action)
    return _score_state(after, seat, pools, revealed, depth) - cost


def _score_state(
    state: State,
    seat: Seat,
    pools: dict[Seat, tuple[str, ...]],
    revealed: dict[Seat, tuple[str, ...]],
    depth: int,
) -> float:
    if state.phase == "over":
        ranking = state.ranking
        return WIN if ranking and ranking[0] == (seat,) else -WIN
    mover = state.decider
    if mover == seat:
        # my own follow-up (joker pull, tutor, target, the Ninja's extra turn)
        legal = GAME.legal_actions(state, seat)
        if depth >= 2 or not legal:
            return 0.0
        first = legal[0]
        if isinstance(first, Tutor):
            return _score_action(state, seat, _best_tutor(legal), pools, revealed, depth + 1)
        if isinstance(first, Target):
            legal = legal[:1]
        options = [a for a in legal if not isinstance(a, TakeDamage)] or legal
        if options == [TakeDamage()]:
            return -float(max(len(state.piles[0]), len(state.piles[1])))
        return max(_score_action(state, seat, a, pools, revealed, depth + 1) for a in options)
    if state.phase != "turn":
        return 0.0
    big = max(len(state.piles[0]), len(state.piles[1]))
    stuck = _stuck_chance(state, mover, pools.get(mover, ()), revealed.get(mover, ()))
    gain = float(big)
    if big >= state.players[mover].life:
        gain += KILL_BONUS
    risk = float(big + 1)
    if big + 1 >= state.players[seat].life:
        risk += KILL_BONUS / 2
    return stuck * gain - (1.0 - stuck) * RISK * risk


def _stuck_chance(
    state: State, mover: Seat, pool: tuple[str, ...], revealed: tuple[str, ...]
) -> float:
    """Chance that ``mover`` (about to start a turn) has no card to play."""
    player = state.players[mover]
    shown = tuple(c for c in revealed if c in player.hand)
    every = tuple(sorted(set(pool) | set(shown)))
    if not every:
        return 1.0
    probe = replace(state, players=_with_hand(state, mover, every))
    playable = {a.card for a in GAME.legal_actions(probe, mover) if isinstance(a, Play | Link)}
    code = every[0][:2]
    if any(c[2:] in playable for c in shown):
        return 0.0
    good = sum(1 for c in pool if c[:2] == code and c[2:] in playable)
    hidden = len(player.hand) - len(shown)
    return _none_held(len(pool), good, hidden)


def _with_hand(state: State, seat: Seat, hand: tuple[str, ...]) -> tuple[Player, ...]:
    players = list(state.players)
    players[seat] = replace(players[seat], hand=hand)
    return tuple(players)


# ---------------------------------------------------------------------------
# The playout policy of ``hard`` (reads a simulated state, must be fast)
# ---------------------------------------------------------------------------

_FREE = -12.0  # a play that lets the next player play anything
_QUICK_NOISE = 5  # one move in 5 is a random playable card


def quick_move(state: State, legal: Sequence[Action], rng_state: int) -> tuple[Action, int]:
    """A cheap sensible move: in a turn, the card leaving the tightest gap
    that is not a free play (sometimes a random one); otherwise like easy."""
    first = legal[0]
    if isinstance(first, GivePile):
        return _give_bigger(legal, (len(state.piles[0]), len(state.piles[1]))), rng_state
    if not isinstance(first, Play | Link):
        return rng.choice(rng_state, legal)
    plays = [a for a in legal if isinstance(a, Play | Link)]
    if len(plays) <= 1:
        return (plays[0] if plays else legal[0]), rng_state
    roll, rng_state = rng.randbelow(rng_state, _QUICK_NOISE)
    if roll == 0:
        pick: Action
        pick, rng_state = rng.choice(rng_state, plays)
        return pick, rng_state
    values = (pile_value(state.piles[0]), pile_value(state.piles[1]))
    adjacent_free = state.rules.adjacent_tops_free
    best: Action = plays[0]
    best_score = -1e9
    for action in plays:
        value = None if action.card == "X" else int(action.card)
        other = values[1 - action.pile]
        if value is None:  # joker: keep it for later
            score = _FREE - 1.0
        elif other is None:
            score = _FREE
        else:
            gap = abs(value - other) - 1
            score = _FREE if gap <= 0 and adjacent_free else -float(gap)
            if isinstance(action, Link):
                score += 0.5  # resetting a pile is worth a little
        if score > best_score:
            best, best_score = action, score
    return best, rng_state
