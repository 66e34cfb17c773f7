"""Bots for Battalia with Buff le Sans Bannière: the per-game policy behind every level.

Every level thinks from its seat's view only: ``normal`` and ``hard`` rebuild
a state with ``sample_state`` and their scores read only its public parts
(the board, the heroes, Buff, the market's counts, the battle in progress)
and the bot's own hand; the other seats' hands are only counted.

* ``easy``: a random legal action with light sense: in its turn it never ends
  the turn while a build, an upgrade or a buy is affordable, and it bids one
  or two cards.
* ``normal``: :func:`heuristic_move`. Each legal action gets a score
  (:class:`_Scene`), the best is played, ``end`` scores 0, so the turn goes on
  while something is worth doing. Its plan: **builds** cities (their level in
  victory points) and **upgrades** them, **buys** units (the higher rank the
  better, provisions come with them) and weapons once it has a hero to use
  them, lays **roads** towards the free squares and the cities it does not
  hold, **summons** a hero and **moves** it towards a neutral city, the Ruins
  or a weak enemy city, and **attacks** when its line beats the defence (a
  neutral city's or the Ruins' printed one, a city's level plus what the
  owner's hand may add). Defending, it lays the smallest line that holds, or
  retreats (or lays nothing) when none holds. The auction: it bids its minor
  cards to place Buff when an opponent leads or has heroes out, else the
  cheapest bid; as the winner it enters Buff next to the leader's heroes;
  moving Buff it drives him onto or towards an opponent's hero (the leader
  first) and away from its own; attacked by Buff it fights when its line
  reaches the horde, else recruits him (4 Provisions) or bribes him (3), and
  lays nothing in a fight it cannot win.
* ``hard`` (generic, :mod:`engine.bots.search`): Monte Carlo over states drawn
  by :meth:`Battalia.sample_state`, anchored on ``normal`` (another action
  replaces the heuristic's only when its mean reward is better by
  :attr:`BattaliaPolicy.anchor_margin` over at least
  :attr:`BattaliaPolicy.anchor_min_visits` playouts each). It searches in
  its turns only, among the :data:`CANDIDATES` actions the heuristic scores
  within :data:`CLOSE` of its best (when no other is that close, it plays
  ``normal``'s action without searching); placing a card, defending and Buff's decisions are
  ``normal``'s. Playouts: every seat plays the heuristic
  (:func:`quick_move`, some builds and buys at random) for
  :attr:`BattaliaPolicy.playout_depth` actions (about the rest of the turn),
  then :func:`evaluate` (victory points, cards by worth and heroes out,
  against the best opponent's). A playout costs about 16 ms on the shared
  machine: at a 1 s clock ``hard`` gets about 60 of them.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Sequence

from .. import rng
from ..core import Seat
from ..games.battalia import GAME, Action, Battalia, State, View
from ..games.battalia.actions import (
    Attack,
    Bid,
    Bribe,
    BuffMove,
    Buy,
    ChooseFaction,
    ChooseStart,
    City,
    Cohort,
    Defend,
    End,
    Enter,
    Fight,
    Move,
    Mulligan,
    Place,
    Recruit,
    Retreat,
    Road,
    Summon,
    Take,
    Tent,
    Upgrade,
)
from ..games.battalia.board import area_set, legal_spots, neighbours, road_neighbours, xy
from ..games.battalia.data import exits_of, great_by_code
from ..games.battalia.legality import random_of
from ..games.battalia.lines import card_faction, kind_of, line_strength, transform_type
from ..games.battalia.oracle import illuminated
from .base import GamePolicy

CANDIDATES = 4  # root actions hard searches (the heuristic's best)
CLOSE = 2.0  # hard searches the actions scored within this of the heuristic's best
PLAYOUT_NOISE = 6  # one playout decision in 6 is random
VP = 6.0  # one victory point, in the scores' unit
HERO_LOSS = 8.0  # a hero sent back to the supply (a summon to pay again)
ENEMY_LINE = 0.9  # what each card of a defender's hand may add to its defence
UNIT_VALUE = {1: 2.0, 2: 2.6, 3: 3.0, 4: 3.3}  # buying a unit of that rank
ARTEFACT_VALUE = {"A": 1.2, "O": 1.6, "C": 0.8, "T": 1.0, "M": 0.6, "R": 0.4, "E": 0.3}
WEAPON_WITH_HERO = 2.8  # a weapon once a hero is out (attacks need one)

_DIRS = (1, 2, 4, 8)
RANDOM_KINDS = (Buy, Road, City, Upgrade)
"""What a playout's random move may be (:func:`quick_move`)."""


def _bfs(state: State, sources: Sequence[str]) -> dict[str, int]:
    """Road distance (steps) from the nearest of ``sources``."""
    dist = {sq: 0 for sq in sources}
    todo = deque(sources)
    while todo:
        sq = todo.popleft()
        for nxt in road_neighbours(state, sq):
            if nxt not in dist:
                dist[nxt] = dist[sq] + 1
                todo.append(nxt)
    return dist


def _manhattan(a: str, b: str) -> int:
    (ax, ay), (bx, by) = xy(a), xy(b)
    return abs(ax - bx) + abs(ay - by)


def _vp(state: State, seat: Seat) -> int:
    return sum(t.level for t in state.tiles if t.owner == seat)


def _hero_square(state: State, seat: Seat, hero: str) -> str | None:
    if hero == "b":
        return state.buff.square if state.buff.owner == seat else None
    index = int(hero[1])
    return next((h.square for h in state.heroes if h.seat == seat and h.index == index), None)


def _bribed(state: State, seat: Seat) -> bool:
    return any(s == seat and until > state.day for s, until in state.buff.bribes)


class _Scene:
    """The public facts the scores need, computed once per decision."""

    def __init__(self, state: State, seat: Seat) -> None:
        self.state = state
        self.seat = seat
        self.faction = state.players[seat].faction
        self.hand = state.players[seat].hand
        self.tiles = {t.square: t for t in state.tiles}
        self.playing = [
            s for s in range(state.seats) if s != seat and not state.players[s].resigned
        ]
        self.vp = {s: _vp(state, s) for s in range(state.seats)}
        best_other = max((self.vp[s] for s in self.playing), default=0)
        leaders = [s for s in self.playing if self.vp[s] == best_other]
        self.leader: Seat | None = leaders[0] if leaders else None
        self.my_heroes = [(f"h{h.index}", h.square) for h in state.heroes if h.seat == seat]
        if state.buff.owner == seat and state.buff.square is not None:
            self.my_heroes.append(("b", state.buff.square))
        self.enemy_heroes = [h for h in state.heroes if h.seat != seat]
        self._targets: dict[str, float] | None = None
        self._dist: dict[str, int] | None = None
        self._strength: dict[tuple[tuple[str, ...], str, str], int] = {}

    # ---- targets -------------------------------------------------------------------
    def defence(self, target: str) -> tuple[float, float]:
        """(estimated defence, value of winning) of an attack target."""
        state, seat = self.state, self.seat
        if target == "buff":
            return float(state.buff.horde), 1.0
        if target[0].isdigit():
            owner = int(target[0]) - 1
            hand = len(state.players[owner].hand)
            return ENEMY_LINE * hand + 1, 2.0
        tile = self.tiles.get(target)
        if tile is None:
            return 99.0, 0.0
        if tile.kind == "ruins":
            value = 2.5 if state.great else 0.0
            return float(state.rules.ruins_defence), value
        if tile.owner is None:
            return float(state.rules.neutral_defence), 4 * VP
        if tile.owner == seat:
            return 99.0, 0.0
        hand = len(state.players[tile.owner].hand)
        others = max(1, len(self.playing))
        return tile.level + ENEMY_LINE * hand + 1, tile.level * VP * (1 + 1 / others)

    def targets(self) -> dict[str, float]:
        """Squares worth a hero's attack: neutral cities, the Ruins, weak
        enemy cities; their value."""
        if self._targets is None:
            out: dict[str, float] = {}
            for t in self.state.tiles:
                if t.kind == "ruins" or (t.level and t.owner != self.seat):
                    defence, value = self.defence(t.square)
                    if value > 0 and defence < 11:
                        out[t.square] = value
            self._targets = out
        return self._targets

    def attack_dist(self) -> dict[str, int]:
        """Steps from each square to one from which a target can be attacked."""
        if self._dist is None:
            targets = list(self.targets())
            dist = _bfs(self.state, targets)
            self._dist = {sq: max(0, d - 1) for sq, d in dist.items()}
        return self._dist

    # ---- lines ---------------------------------------------------------------------
    def strength(self, line: tuple[str, ...], square: str, leader: str = "hero") -> int:
        """A line's strength without amulet luck (an amulet's unit counts 0)."""
        key = (line, square, leader)
        hit = self._strength.get(key)
        if hit is None:
            rolls = tuple((e.split(">", 1)[1].split("+")[0], 4) for e in line if _is_amulet(e))
            brk = line_strength(self.state, self.seat, line, square, leader=leader, rolls=rolls)
            hit = self._strength[key] = brk.total
        return hit

    def best_line(self, hand: Sequence[str], square: str, weapon: bool) -> int:
        """A quick estimate of the strongest line ``hand`` can lay on ``square``."""
        plain = [c for c in hand if kind_of(c) in ("unit", "plain")]
        if weapon and not any(_weapon(c) for c in plain):
            return 0
        own = [c for c in plain if card_faction(c) in (None, self.faction, "m")]
        best = 0
        for line in (plain, own):
            if line and (not weapon or any(_weapon(c) for c in line)):
                best = max(best, self.strength(tuple(sorted(line)), square))
        return best


def _is_amulet(entry: str) -> bool:
    return ">" in entry and transform_type(entry.split(">", 1)[0]) == "M"


def _weapon(code: str) -> bool:
    if code.startswith("G"):
        return great_by_code()[code].acts_as == "A"
    return len(code) == 2 and code[0] == "A"


def _after_paying(hand: Sequence[str], cards: Sequence[str]) -> list[str]:
    rest = list(hand)
    for c in cards:
        code = c.split(">", 1)[0]
        if code in rest:
            rest.remove(code)
    return rest


# ---------------------------------------------------------------------------
# Scores of the turn's actions
# ---------------------------------------------------------------------------


def _place_score(scene: _Scene, sq: str, rotation: int, layout: str, kind: str) -> float:
    """How good a terrain card on ``sq`` is: open exits (room to grow),
    closeness to the cities worth taking, links to them; a city away from
    enemy heroes."""
    state = scene.state
    mask = exits_of(layout, rotation)
    inside = area_set(state.seats)
    score = 0.0
    for d, other in neighbours(sq):
        if not mask & d or other not in inside:
            continue
        there = scene.tiles.get(other)
        if there is None:
            score += 0.6
        elif other in scene.targets():
            score += 3.0
    targets = scene.targets()
    if targets:
        score -= 0.5 * min(_manhattan(sq, t) for t in targets)
    if kind == "city":
        if any(_manhattan(sq, h.square) <= 1 for h in scene.enemy_heroes):
            score -= 2.0
        buff = state.buff
        if buff.square is not None and buff.owner != scene.seat:
            score -= 1.0 if _manhattan(sq, buff.square) <= 1 else 0.0
    return score


def _best_spot(scene: _Scene, layout: str, kind: str) -> float:
    spots = legal_spots(scene.state, scene.seat, layout)
    if not spots:
        return -5.0
    return max(_place_score(scene, sq, r, layout, kind) for sq, r in spots)


def _buy_score(scene: _Scene, a: Buy) -> float:
    key = a.stack
    if key in ("1", "2", "3", "4"):
        return UNIT_VALUE[int(key)]
    if key == "m":
        top = next((cards[-1] for k, cards in scene.state.market if k == "m" and cards), "1m")
        return UNIT_VALUE[int(top[0])] - 0.4
    kind = key[0]
    if kind == "A" and scene.my_heroes:
        value = WEAPON_WITH_HERO
    elif kind == "A" and scene.targets():
        value = 2.0
    else:
        value = ARTEFACT_VALUE.get(kind, 0.3)
    if len(key) == 2 and key[1] == scene.faction:
        value += 0.2
    # artefacts cost units: a little for what they use up
    return value - 0.15 * sum(1 for c in a.cards if c != "P")


def _attack_score(scene: _Scene, a: Attack) -> float:
    state = scene.state
    square = _target_square(state, a.target)
    if square is None:
        return -50.0
    defence, value = scene.defence(a.target)
    leader = "buff" if a.hero == "b" else "hero"
    strength = scene.strength(a.line, square, leader)
    if value <= 0:
        return -50.0
    if strength > defence or (
        a.target == "buff" and state.rules.buff_defence_ties == "attacker" and strength >= defence
    ):
        return value + 1.0 - 0.25 * len(a.line)
    return -HERO_LOSS - 0.5 * len(a.line)


def _target_square(state: State, target: str) -> str | None:
    if target == "buff":
        return state.buff.square
    if target[0].isdigit():
        seat, index = int(target[0]) - 1, int(target[2])
        return next((h.square for h in state.heroes if (h.seat, h.index) == (seat, index)), None)
    return target


def _move_score(scene: _Scene, a: Move) -> float:
    state = scene.state
    start = _hero_square(state, scene.seat, a.hero)
    if start is None or not a.path:
        return -50.0
    end = a.path[-1]
    buff = state.buff
    if buff.square == end and buff.owner is None and not _bribed(state, scene.seat):
        rest = _after_paying(scene.hand, a.cards)
        if scene.best_line(rest, end, weapon=False) < buff.horde:
            return -30.0
    dist = scene.attack_dist()
    before = dist.get(start, 9)
    after = dist.get(end, 9)
    if after >= before:
        return -10.0
    cost = 0.4 * len(a.cards)
    if after == 0:
        # an attack this turn?
        rest = _after_paying(scene.hand, a.cards)
        near = [end, *road_neighbours(state, end)]
        best = 0.0
        for sq in near:
            if sq in scene.targets():
                defence, value = scene.defence(sq)
                if scene.best_line(rest, sq, weapon=True) > defence:
                    best = max(best, 0.8 * value)
        if best:
            return best - cost
    return 1.2 * (before - after) - cost


def _summon_score(scene: _Scene, a: Summon) -> float:
    targets = scene.targets()
    if not targets:
        return -1.0
    dist = scene.attack_dist().get(a.square, 9)
    base = 4.5 if not scene.my_heroes else 1.5
    return base - 0.3 * dist


def _turn_score(scene: _Scene, a: Action) -> float:
    if isinstance(a, End):
        return 0.0
    if isinstance(a, City):
        return a.level * VP + 1.0 + 0.3 * _best_spot(scene, a.layout, "city") - 0.05 * len(a.cards)
    if isinstance(a, Upgrade):
        return VP + 0.5
    if isinstance(a, Attack):
        return _attack_score(scene, a)
    if isinstance(a, Cohort):
        return 5.0
    if isinstance(a, Buy):
        return _buy_score(scene, a)
    if isinstance(a, Road):
        base = 2.2 if scene.targets() and not scene.my_heroes else 1.6
        tools = sum(1 for c in a.cards if c[0] == "O")
        return base + 0.4 * _best_spot(scene, a.layout, "road") - 0.2 * len(a.cards) - tools
    if isinstance(a, Summon):
        return _summon_score(scene, a)
    if isinstance(a, Move):
        return _move_score(scene, a)
    if isinstance(a, Tent):
        kept = max((UNIT_VALUE.get(int(c[0]), 0) if c[0].isdigit() else 1.0) for c in a.kept)
        return 0.2 * kept + 0.1
    if isinstance(a, Recruit):
        return 1.0
    if isinstance(a, Mulligan):
        return -1.0  # chosen by heuristic_move when nothing else is worth it
    return -1.0


# ---------------------------------------------------------------------------
# The other decisions
# ---------------------------------------------------------------------------


def _defend_choice(scene: _Scene, legal: Sequence[Action]) -> Action:
    state = scene.state
    battle = state.battle
    assert battle is not None
    attack = battle.attacker_break.total if battle.attacker_break else 0
    level = 0
    if battle.target_kind == "city":
        tile = scene.tiles.get(battle.square)
        level = tile.level if tile is not None else 0
    holding = [
        a
        for a in legal
        if isinstance(a, Defend) and scene.strength(a.line, battle.square) + level >= attack
    ]
    if holding:
        return min(holding, key=lambda a: (len(a.line), scene.strength(a.line, battle.square)))
    retreats = [a for a in legal if isinstance(a, Retreat)]
    if retreats:
        own = [sq for sq, _ in scene.my_heroes]
        return min(
            retreats,
            key=lambda a: (len(a.cards), -_manhattan(a.square, battle.square), a.square in own),
        )
    return next((a for a in legal if isinstance(a, Defend) and not a.line), legal[0])


def _answer_choice(scene: _Scene, legal: Sequence[Action]) -> Action:
    """Attacked by Buff: fight when the line reaches the horde, else recruit,
    else bribe, else lose the hero without spending cards."""
    state = scene.state
    horde = state.buff.horde
    square = state.buff.square or ""
    bonuses = state.rules.buff_fight_bonuses
    winning = []
    for a in legal:
        if isinstance(a, Fight):
            total = scene.strength(a.line, square)
            if not bonuses:
                total = sum(_plain_strength(state, c) for c in a.line if ">" not in c)
            if total >= horde:
                winning.append((len(a.line), total, a))
    if winning:
        return min(winning, key=lambda x: (x[0], x[1]))[2]
    for kind in (Recruit, Bribe):
        for a in legal:
            if isinstance(a, kind):
                return a
    return next((a for a in legal if isinstance(a, Fight) and not a.line), legal[0])


def _plain_strength(state: State, code: str) -> int:
    if code[0].isdigit():
        return int(code[0])
    if code.startswith("G"):
        return great_by_code()[code].strength
    if code[0] in ("A", "C"):
        return 2 if illuminated(state, code[0]) else 1
    return 0


def _bid_choice(scene: _Scene, legal: Sequence[Action]) -> Action:
    """Bid the minor cards (ranks 1-2, weapons, horses) when placing Buff is
    worth it (an opponent leads or has heroes out), else the cheapest bid."""
    state = scene.state
    bids = [a for a in legal if isinstance(a, Bid)]
    if not bids:
        return legal[0]

    def total(a: Bid) -> int:
        return sum(_plain_strength(state, c) for c in a.cards)

    want = bool(scene.enemy_heroes) or any(
        scene.vp[s] > scene.vp[scene.seat] for s in scene.playing
    )
    if want:
        minor = [a for a in bids if all(not c[0].isdigit() or int(c[0]) <= 2 for c in a.cards)]
        pool = minor or bids
        return max(pool, key=lambda a: (total(a), -len(a.cards)))
    return min(bids, key=lambda a: (total(a), len(a.cards), a.cards))


class _Threat:
    """How good it is for Buff to stand on a square: near the opponents'
    heroes (the leader's first), far from ours (one search per hero)."""

    def __init__(self, scene: _Scene) -> None:
        state = scene.state
        self.weighted: list[tuple[float, dict[str, int]]] = []
        for h in scene.enemy_heroes:
            if not _bribed(state, h.seat):
                weight = 1.5 if h.seat == scene.leader else 1.0
                self.weighted.append((weight, _bfs(state, [h.square])))
        for _, sq in scene.my_heroes:
            self.weighted.append((-1.2, _bfs(state, [sq])))

    def __call__(self, square: str) -> float:
        return sum(w * max(0, 7 - dist.get(square, 12)) for w, dist in self.weighted)


def _victim_value(scene: _Scene, ref: str, square: str) -> float:
    state = scene.state
    heroes = [h for h in state.heroes if h.square == square and not _bribed(state, h.seat)]
    if ref:
        seat = int(ref[0]) - 1
        heroes = [h for h in heroes if h.seat == seat and h.index == int(ref[2])]
    if not heroes:
        return 0.0
    h = heroes[0]
    if h.seat == scene.seat:
        return -40.0
    return 20.0 + (5.0 if h.seat == scene.leader else 0.0)


def _buff_move_choice(scene: _Scene, legal: Sequence[Action]) -> Action:
    threat = _Threat(scene)
    start = scene.state.buff.square or ""

    def score(a: Action) -> float:
        assert isinstance(a, BuffMove)
        end = a.path[-1] if a.path else start
        return _victim_value(scene, a.hero, end) + threat(end) - 0.01 * len(a.path)

    return max(legal, key=score)


def _enter_choice(scene: _Scene, legal: Sequence[Action]) -> Action:
    threat = _Threat(scene)

    def score(a: Action) -> float:
        assert isinstance(a, Enter)
        value = _victim_value(scene, a.hero, a.square) + threat(a.square)
        tile = scene.tiles.get(a.square)
        if tile is not None and tile.owner is not None and tile.owner != scene.seat:
            value += 2.0 if tile.owner == scene.leader else 1.0
        elif tile is not None and tile.owner == scene.seat:
            value -= 3.0
        return value

    return max(legal, key=score)


def _place_choice(scene: _Scene, legal: Sequence[Action]) -> Action:
    placing = scene.state.placing
    assert placing is not None
    return max(
        legal,
        key=lambda a: (
            _place_score(scene, a.square, a.rotation, placing.layout, placing.kind)
            if isinstance(a, Place)
            else -99.0
        ),
    )


def _take_choice(legal: Sequence[Action]) -> Action:
    def value(a: Action) -> float:
        if not isinstance(a, Take):
            return -1.0
        g = great_by_code().get(a.artefact)
        if g is None:  # face down (option great_face_down): taken by its place, unseen
            return 0.0
        return g.strength + (1.0 if g.acts_as == "A" else 0.0) + 0.5 * (g.title or 0)

    return max(legal, key=value)


def heuristic_move(state: State, seat: Seat, legal: Sequence[Action]) -> Action:
    """The heuristic's action among ``legal`` (see the module doc)."""
    if len(legal) == 1:
        return legal[0]
    scene = _Scene(state, seat)
    first = legal[0]
    if isinstance(first, ChooseFaction | ChooseStart):
        return first
    if isinstance(first, Bid):
        return _bid_choice(scene, legal)
    if isinstance(first, Enter):
        return _enter_choice(scene, legal)
    if isinstance(first, BuffMove):
        return _buff_move_choice(scene, legal)
    if any(isinstance(a, Fight | Bribe) for a in legal) and state.phase == "buff-attack":
        return _answer_choice(scene, legal)
    if isinstance(first, Place):
        return _place_choice(scene, legal)
    if isinstance(first, Take):
        return _take_choice(legal)
    if isinstance(first, Defend | Retreat):
        return _defend_choice(scene, legal)
    return _best_turn_action(scene, legal)


def _best_turn_action(scene: _Scene, legal: Sequence[Action]) -> Action:
    scored = _scored(scene, legal)
    best, best_score = scored[0]
    mulligan = next((a for a in legal if isinstance(a, Mulligan)), None)
    if mulligan is not None and best_score < 1.0:
        return mulligan
    return best


def _scored(scene: _Scene, legal: Sequence[Action]) -> list[tuple[Action, float]]:
    """The legal actions with their scores, best first (ties keep the order)."""
    out = [(a, _turn_score(scene, a)) for a in legal]
    order = sorted(range(len(out)), key=lambda i: -out[i][1])
    return [out[i] for i in order]


# ---------------------------------------------------------------------------
# hard: playouts and their evaluation
# ---------------------------------------------------------------------------


def _material(state: State, seat: Seat) -> float:
    """What the seat's cards are worth for the turns to come (units by rank,
    weapons and the other artefacts, provisions), in victory points."""
    p = state.players[seat]
    value = 0.0
    for c in (*p.hand, *p.deck, *p.discard, *p.played, *p.tent):
        if c == "P":
            value += 0.04
        elif c[0].isdigit():
            value += 0.1 + 0.06 * int(c[0])
        elif c.startswith("G"):
            value += 0.4
        else:
            value += 0.2 if c[0] in "AO" else 0.1
    return value


def evaluate(state: State, seat: Seat) -> float:
    """A cut playout's estimated reward in [0, 1] for ``seat``: its victory
    points and material (cards, heroes out) against the best opponent's."""
    if state.players[seat].resigned:
        return 0.0

    def worth(s: Seat) -> float:
        heroes = sum(1 for h in state.heroes if h.seat == s)
        return _vp(state, s) + _material(state, s) + 0.5 * heroes

    others = [worth(s) for s in range(state.seats) if s != seat and not state.players[s].resigned]
    score = worth(seat) - max(others, default=0.0)
    return 1.0 / (1.0 + math.exp(-score / 3.0))


def quick_move(
    state: State, seat: Seat, legal: Sequence[Action], rng_state: int
) -> tuple[Action, int]:
    """A playout's move: the heuristic's, sometimes a random build, upgrade
    or buy (never a random ``end`` nor a random attack), drawn by the game's
    own random draw (:func:`random_of`: a kind, an action line,
    then a payment) without looking at the whole list."""
    if len(legal) == 1:
        return legal[0], rng_state
    roll, rng_state = rng.randbelow(rng_state, PLAYOUT_NOISE)
    if roll == 0 and state.phase == "turn":
        drawn = random_of(state, seat, rng_state, RANDOM_KINDS)
        if drawn is not None:
            return drawn
    return heuristic_move(state, seat, legal), rng_state


def _easy_turn(view: View, legal: Sequence[Action]) -> list[Action]:
    builds = [a for a in legal if isinstance(a, Buy | Road | City | Upgrade)]
    options: list[Action] = list(legal)
    if builds:
        options = [a for a in legal if not isinstance(a, End)]
    return options or list(legal)


class BattaliaPolicy(GamePolicy[State, Action, View]):
    game: Battalia = GAME
    playout_depth = 10
    exploration = 0.7
    anchored = True
    root_arms = CANDIDATES - 1
    anchor_margin = 0.03
    anchor_min_visits = 2

    def observer(self, view: View) -> Seat:
        if view.observer is None:
            raise ValueError("bots play a seat: a spectator's view has no decisions")
        return view.observer

    def easy(self, view: View, legal: Sequence[Action], rng_state: int) -> tuple[Action, int]:
        options = list(legal)
        if view.phase == "turn":
            options = _easy_turn(view, legal)
        elif options and isinstance(options[0], Bid):
            small: list[Action] = [
                a for a in options if isinstance(a, Bid) and 1 <= len(a.cards) <= 2
            ]
            options = small or options
        return rng.choice(rng_state, options)

    def normal(self, view: View, legal: Sequence[Action], rng_state: int) -> tuple[Action, int]:
        seat = self.observer(view)
        if len(legal) == 1:
            return legal[0], rng_state
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
        """In a turn, the :data:`CANDIDATES` actions the heuristic scores
        within :data:`CLOSE` of its best, best first; elsewhere its choice
        alone (no search). Its scores read only public facts and the bot's
        own hand, so any sampled world gives the same ones."""
        seat = self.observer(view)
        state = GAME.sample_state(view, 0)
        if view.phase != "turn":
            # the heuristic's own choice: no search (placing, defending, Buff)
            return [heuristic_move(state, seat, legal)]
        scored = _scored(_Scene(state, seat), legal)
        best = scored[0][1]
        return [a for a, score in scored[:CANDIDATES] if score >= best - CLOSE]


POLICY = BattaliaPolicy()
