"""Resampling what a seat cannot see: the other hands and every deck's
order (``determinize``), and a whole state from a seat's view
(``sample_state``, for the search bots)."""

from __future__ import annotations

from collections import Counter

from ... import rng
from ...core import Seat
from ...core import evolve as replace
from .model import LINES, PLACES, Piece, Player, State, View

_GOLDEN = 0x9E3779B97F4A7C15
_MASK = (1 << 64) - 1


def _shuffled(state: int, items: list[str]) -> tuple[list[str], int]:
    """A uniformly random order of ``items`` (sorted by SplitMix64 keys, the
    generator of :mod:`engine.rng` inlined: determinize runs at every step
    of the conformance checks); ``(order, next_state)``."""
    keys = []
    for _ in items:
        state = (state + _GOLDEN) & _MASK
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        keys.append(z ^ (z >> 31))
    order = sorted(range(len(items)), key=keys.__getitem__)
    return [items[i] for i in order], state


def determinize(state: State, seat: Seat | None, seed: int) -> State:
    """Another state ``seat`` cannot tell apart: each other player's hand
    and deck dealt again from the same cards, every deck reshuffled, a new
    generator."""
    generator = rng.seed_state(seed, "determinize")
    players = []
    for i, p in enumerate(state.players):
        if i == seat:
            deck, generator = _shuffled(generator, list(p.deck))
            players.append(replace(p, deck=tuple(deck)))
            continue
        pool, generator = _shuffled(generator, [*p.hand, *p.deck])
        n = len(p.hand)
        players.append(replace(p, hand=tuple(pool[:n]), deck=tuple(pool[n:])))
    value, _ = rng.next_u64(generator)
    return replace(state, players=tuple(players), rng=(value >> 2) + 1)


def _visible(view: View, seat: Seat) -> Counter[str]:
    """The cards of a deck that are in sight: graveyard, battlefield (tokens
    and favours are no deck cards), equipment, god."""
    side = view.sides[seat]
    seen: Counter[str] = Counter(side.graveyard)
    listed = set(side.decklist)
    for piece in side.pieces:
        if not piece.general and piece.card in listed:
            seen[piece.card] += 1
    for side_any in view.sides:
        for piece in side_any.pieces:
            for obj in piece.equipment:
                if piece.owner == seat and obj in listed:
                    seen[obj] += 1
    if side.god:
        seen[side.god] += 1
    return seen


def sample_state(view: View, seed: int) -> State:
    """A full state consistent with ``view``: what the view shows is kept;
    the hidden hands and decks are drawn from each deck's unseen cards."""
    if view.observer is None or view.rules is None:
        raise ValueError("sample_state needs a seat's view")
    stream = rng.Stream(rng.seed_state(seed, "sample-state"))
    players = []
    for side in view.sides:
        own = side.seat == view.observer
        known = tuple(view.hand or ()) if own else ()
        unseen = Counter(side.decklist) - _visible(view, side.seat) - Counter(known)
        pool = list(stream.shuffle(sorted(unseen.elements())))
        need = side.hand_count - len(known) + side.deck_count
        while len(pool) < need:  # cards back from the graveyard... keep the counts
            pool.append(
                side.decklist[len(pool) % len(side.decklist)] if side.decklist else side.general
            )
        hidden = side.hand_count - len(known)
        hand = known + tuple(pool[:hidden])
        deck = tuple(pool[hidden:need])
        players.append(_player(view, side.seat, hand, deck))
    return State(
        rules=view.rules,
        cards=view.cards,
        players=tuple(players),
        rng=stream.below(1 << 62) + 1,
        turn=view.turn,
        active=view.active,
        phase=view.phase,  # type: ignore[arg-type]
        first_round=view.first_round,
        window=view.state_window,
        combat=view.state_combat,
        windows=view.state_windows,
        next_uid=view.next_uid,
        ranking=view.ranking,
        end_reason=view.end_reason,
        discard_to=view.discard_to,
    )


def _player(view: View, seat: Seat, hand: tuple[str, ...], deck: tuple[str, ...]) -> Player:
    side = view.sides[seat]
    rows: list[list[Piece | None]] = [[None] * PLACES for _ in range(3)]
    for pv in side.pieces:
        line, idx = LINES.index(pv.place[0]), int(pv.place[1:]) - 1
        rows[line][idx] = Piece(
            uid=pv.uid,
            card=pv.card,
            owner=pv.owner,
            fixture=pv.fixture,
            general=pv.general,
            damage=pv.damage,
            sick=pv.sick,
            attacks=pv.attacks,
            countered=pv.countered,
            moved=pv.moved,
            poisoned_by=pv.poisoned_by,
            poison_scores=pv.poison_scores,
            paralysed=pv.paralysed,
            paralysed_since=pv.paralysed_since,
            equipment=pv.equipment,
            used=pv.used,
            bonus=pv.bonus,
            heal_at_end=pv.heal_at_end,
        )
    return Player(
        seat=seat,
        deck_name=side.deck_name,
        general=side.general,
        lines=(tuple(rows[0]), tuple(rows[1]), tuple(rows[2])),
        deck=deck,
        hand=hand,
        graveyard=side.graveyard,
        gold=side.gold,
        faith=side.faith,
        vp=side.vp,
        god=side.god,
        used=side.used,
        out=side.out,
        decklist=side.decklist,
    )
