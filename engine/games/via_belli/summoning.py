"""What can be summoned where: cards of the hand, anchors and free spots
(normal and Espion placements), and the Sorcier's cards."""

from __future__ import annotations

from ...core import Seat
from .board import K_CASTLE, K_UNIT, Board, board_of, card_order, card_table
from .model import State


def _cards_for(state: State, seat: Seat, kind: str) -> list[str]:
    """Cards of the hand that can be summoned now: face up (``+``), in
    ambush (``?``) or as the free dog (``dog``)."""
    rules = state.rules
    table = card_table(rules)
    hand = state.players[seat].hand
    if not hand:
        return []
    names = sorted(set(hand), key=card_order(state.rules).__getitem__)
    pa = state.pa
    out = []
    if kind == "?":
        if pa >= rules.ambush_cost and _any_spot(state, seat, "normal"):
            out = names
        return out
    for name in names:
        cd = table[name]
        if kind == "dog":
            if cd.ability != "dog":
                continue
        elif cd.ivk > pa:
            continue
        placement = "spy" if cd.ability == "spy" else "normal"
        if _any_spot(state, seat, placement):
            out.append(name)
    return out


def _placement(state: State, card: str, hidden: bool) -> str:
    if hidden:
        return "normal"
    return "spy" if card_table(state.rules)[card].ability == "spy" else "normal"


def _any_spot(state: State, seat: Seat, placement: str) -> bool:
    b = board_of(state)
    key = (seat, placement)
    hit = b._any_spot.get(key)
    if hit is None:
        hit = any(
            _has_spot(state, b, seat, placement, a) for a in _anchor_pool(state, b, seat, placement)
        )
        b._any_spot[key] = hit
    return hit


def _anchor_pool(state: State, b: Board, seat: Seat, placement: str) -> list[int]:
    if placement == "spy" and state.rules.spy_placement == "free":
        castles = state.rules.spy_contact == "card"  # « au contact d'au moins une carte ennemie »
        return [
            ci
            for ci in sorted(range(b.n), key=lambda c: (b.Y[c], b.X[c]))
            if b.owner[ci] != seat
            and (b.kind[ci] == K_UNIT or (castles and b.kind[ci] == K_CASTLE))
        ]
    return b.anchors(seat)


def _spot_list(
    state: State, b: Board, seat: Seat, placement: str, anchor: int
) -> list[tuple[int, int, bool]]:
    """Free spots along ``anchor`` for a normal or an Espion placement
    (memoised per board)."""
    key = ("spots", seat, placement, anchor)
    hit = b.memo.get(key)
    if hit is None:
        stand, lie = _spot_field(state, b, seat, placement)
        ts, tl = b.geo.touch(b.X[anchor], b.Y[anchor], b.Wd[anchor], b.Ht[anchor])
        hit = b.memo[key] = b.geo.placements(stand & ts, lie & tl)
    return hit  # type: ignore[return-value]


def _has_spot(state: State, b: Board, seat: Seat, placement: str, anchor: int) -> bool:
    """Whether ``_spot_list`` has a spot."""
    stand, lie = _spot_field(state, b, seat, placement)
    ts, tl = b.geo.touch(b.X[anchor], b.Y[anchor], b.Wd[anchor], b.Ht[anchor])
    return bool(stand & ts or lie & tl)


def _spot_field(state: State, b: Board, seat: Seat, placement: str) -> tuple[int, int]:
    """The fields (see :class:`Geo`) of the free places a summon may take
    on this board, whatever the anchor (memoised per board)."""
    key = ("spot-field", seat, placement)
    hit = b.memo.get(key)
    if hit is not None:
        return hit  # type: ignore[return-value]
    rules = state.rules
    stand, lie = b.free_field()
    ring = 0
    keep_touching = False
    if placement == "spy" and rules.spy_placement != "free":
        units_only = rules.spy_contact == "unit"
        ring, keep_touching = b.enemy_ring(seat, units_only=units_only), True
    elif placement != "spy" and rules.summon_contact == "anchor-and-card":
        ring = b.enemy_ring(seat)
    if keep_touching and not ring:
        stand = lie = 0  # no enemy to touch: no spot
    elif ring:
        rs, rl = b.geo.meets(ring)
        if keep_touching:
            stand, lie = stand & rs, lie & rl
        else:
            stand, lie = stand & ~rs, lie & ~rl
    b.memo[key] = (stand, lie)
    return stand, lie


def _anchors_for(state: State, seat: Seat, card: str, hidden: bool) -> list[int]:
    b = board_of(state)
    placement = _placement(state, card, hidden)
    key = ("anchors", seat, placement)
    hit = b.memo.get(key)
    if hit is None:
        hit = [
            a
            for a in _anchor_pool(state, b, seat, placement)
            if _has_spot(state, b, seat, placement, a)
        ]
        b.memo[key] = hit
    return hit  # type: ignore[return-value]


def _spots_for(
    state: State, seat: Seat, card: str, hidden: bool, anchor: int
) -> list[tuple[int, int, bool]]:
    b = board_of(state)
    placement = _placement(state, card, hidden)
    if anchor < 0 or anchor not in _anchor_pool(state, b, seat, placement):
        return []
    return _spot_list(state, b, seat, placement, anchor)


def _sorcery_cards(state: State, seat: Seat) -> list[str]:
    rules = state.rules
    table = card_table(rules)
    face_down = rules.sorcery_face_down
    if not any(
        u.owner == seat and (u.face_up or face_down) and table[u.name].ability == "sorcerer"
        for u in state.units
    ):
        return []
    pool: set[str] = set(state.players[seat].discard)
    if rules.sorcery_discard == "any":
        for p in state.players:
            pool.update(p.discard)
    order = card_order(state.rules)
    return sorted((c for c in pool if table[c].ivk <= state.pa), key=order.__getitem__)
