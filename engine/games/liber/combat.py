"""Combat: declaring an attack, the defender's block or Loyauté choice, and
the resolution (the A/B example: simultaneous damage; Initiative, Furtivité,
Honneur du guerrier, Empoisonnement, Paralysie, Coup fatal)."""

from __future__ import annotations

from dataclasses import dataclass

from ...core import Event, Seat
from ...core import evolve as replace
from . import effects
from .board import Ref, cards_of, find_uid, force, has_kw, piece_at, set_piece, units
from .model import Combat, State, Strike
from .range import in_range, protected


def loyal_choices(state: State, src: Ref, target: Ref) -> tuple[int, ...]:
    """Loyauté: when the attack targets a loyal unit and several loyal units
    of that battlefield could be attacked, the defender chooses which."""
    attacker = piece_at(state, src)
    piece = piece_at(state, target)
    if attacker is None or piece is None or not has_kw(state, piece, "loyaute"):
        return ()
    found = []
    for ref, other in units(state, target[0]):
        loyal = has_kw(state, other, "loyaute") and not protected(state, ref)
        if loyal and in_range(state, src, attacker, ref):
            found.append(other.uid)
    return tuple(found) if len(found) > 1 else ()


def declare(
    state: State, seat: Seat, src: Ref, targets: tuple[tuple[Ref, int], ...], events: list[Event]
) -> State:
    attacker = piece_at(state, src)
    assert attacker is not None
    state = set_piece(state, src, replace(attacker, attacks=attacker.attacks + 1))
    strikes = []
    for ref, share in targets:
        piece = piece_at(state, ref)
        assert piece is not None
        strikes.append(Strike(ref[0], piece.uid, share))
    loyal = loyal_choices(state, src, targets[0][0]) if len(targets) == 1 else ()
    combat = Combat(seat=seat, attacker=attacker.uid, strikes=tuple(strikes), loyal=loyal)
    events.append(
        Event(
            "attack",
            {
                "seat": seat,
                "card": attacker.card,
                "place": list(src),
                "targets": [[list(ref), share] for ref, share in targets],
                "cards": [piece_at(state, ref).card for ref, _ in targets],  # type: ignore[union-attr]
            },
        )
    )
    return replace(state, combat=combat)


def block_candidates(state: State, seat: Seat) -> list[Ref]:
    """The defender's units that may block: any of its units (not the
    general) that the attacker could attack (range), not paralysed, that has
    not counter-attacked, other than the one attacked (single targets only)."""
    combat = state.combat
    if combat is None or combat.blocker >= 0 or combat.loyal or len(combat.strikes) != 1:
        return []
    strike = combat.strikes[0]
    if strike.seat != seat:
        return []
    src = find_uid(state, combat.attacker)
    attacker = piece_at(state, src) if src is not None else None
    if src is None or attacker is None:
        return []
    out = []
    for ref, piece in units(state, seat):
        if piece.uid == strike.uid or piece.paralysed or piece.countered:
            continue
        if in_range(state, src, attacker, ref):
            out.append(ref)
    return out


def block(state: State, ref: Ref, events: list[Event]) -> State:
    combat = state.combat
    assert combat is not None
    piece = piece_at(state, ref)
    assert piece is not None
    state = set_piece(state, ref, replace(piece, countered=True))
    strike = combat.strikes[0]
    events.append(Event("block", {"seat": ref[0], "card": piece.card, "place": list(ref)}))
    combat = replace(combat, blocker=piece.uid, strikes=(Strike(ref[0], piece.uid, strike.share),))
    return replace(state, combat=combat)


def guard(state: State, ref: Ref, events: list[Event]) -> State:
    combat = state.combat
    assert combat is not None
    piece = piece_at(state, ref)
    assert piece is not None
    events.append(Event("loyalty", {"seat": ref[0], "card": piece.card, "place": list(ref)}))
    combat = replace(combat, loyal=(), strikes=(Strike(ref[0], piece.uid, 0),))
    return replace(state, combat=combat)


@dataclass(frozen=True, slots=True)
class _Hit:
    dealer: int  # uid
    dealer_card: str
    seat: Seat  # dealer's owner
    general: bool
    target: int  # uid
    amount: int


def _can_riposte(state: State, src: Ref, attacker_uid: int, ref: Ref, blocker: int) -> bool:
    piece = piece_at(state, ref)
    a_ref = find_uid(state, attacker_uid)
    if piece is None or a_ref is None:
        return False
    attacker = piece_at(state, a_ref)
    assert attacker is not None
    if piece.paralysed or (piece.countered and piece.uid != blocker):
        return False
    if has_kw(state, attacker, "furtivite"):
        return False
    return in_range(state, ref, piece, a_ref)


def resolve(state: State, events: list[Event]) -> State:
    """Resolve the declared attack (``state.combat``)."""
    combat = state.combat
    assert combat is not None
    state = replace(state, combat=None)
    src = find_uid(state, combat.attacker)
    if src is None:
        events.append(Event("attack-cancelled", {"seat": combat.seat}))
        return state
    attacker = piece_at(state, src)
    assert attacker is not None
    if attacker.paralysed:  # paralysed in the window (Chaînes de glace): it cannot attack
        events.append(Event("attack-cancelled", {"seat": combat.seat}))
        return state
    table = cards_of(state)
    akws = table[attacker.card].keywords
    targets: list[tuple[Ref, int]] = []
    for strike in combat.strikes:
        ref = find_uid(state, strike.uid)
        if ref is not None:
            targets.append((ref, strike.share))
    if not targets:
        events.append(Event("attack-cancelled", {"seat": combat.seat}))
        return state
    a_force = force(state, src, attacker)
    honneur = len(combat.strikes) > 1  # each target its share, even when the other is gone
    target_uids = [s.uid for s in combat.strikes]
    first: list[_Hit] = []
    second: list[_Hit] = []
    for ref, share in targets:
        piece = piece_at(state, ref)
        assert piece is not None
        amount = share if honneur else a_force
        hit = _Hit(attacker.uid, attacker.card, src[0], attacker.general, piece.uid, amount)
        t_init = "initiative" in table[piece.card].keywords
        a_init = "initiative" in akws
        (first if a_init and not t_init else second).append(hit)
        if _can_riposte(state, src, attacker.uid, ref, combat.blocker):
            state = set_piece(state, ref, replace(piece, countered=True))
            back = _Hit(
                piece.uid,
                piece.card,
                ref[0],
                piece.general,
                attacker.uid,
                force(state, ref, piece, defending=True),
            )
            (first if t_init and not a_init else second).append(back)
    wounded: dict[int, int] = {}
    struck: set[int] = set()
    state = _hits(state, first, wounded, struck, events, None)
    survivors = None if not state.rules.initiative_kill_prevents_riposte else True
    state = _hits(state, second, wounded, struck, events, survivors)
    if attacker.uid not in struck:  # killed first by an Initiative riposte: it never hit
        akws = tuple(k for k in akws if k not in ("empoisonnement", "paralysie"))
    return _after(state, combat, attacker.uid, akws, target_uids, wounded, events)


def _hits(
    state: State,
    hits: list[_Hit],
    wounded: dict[int, int],
    struck: set[int],
    events: list[Event],
    alive: bool | None,
) -> State:
    """Apply ``hits`` simultaneously: every dealer alive when they begin
    strikes (with ``alive`` unset, dead dealers strike too); the dealers
    that strike are added to ``struck``."""
    strikers = {h.dealer for h in hits if alive is None or find_uid(state, h.dealer) is not None}
    struck.update(strikers)
    for hit in hits:
        if hit.dealer not in strikers:
            continue
        ref = find_uid(state, hit.target)
        if ref is None:
            continue
        before = piece_at(state, ref)
        assert before is not None
        source = "general" if hit.general else "unit"
        state = effects.deal_damage(
            state, hit.seat, ref, hit.amount, events, source=source, dealer_card=hit.dealer_card
        )
        after = piece_at(state, ref)
        dealt = (after.damage if after is not None else before.damage + hit.amount) - before.damage
        wounded[hit.target] = wounded.get(hit.target, 0) + max(0, dealt)
    return state


def _after(
    state: State,
    combat: Combat,
    attacker_uid: int,
    akws: tuple[str, ...],
    target_uids: list[int],
    wounded: dict[int, int],
    events: list[Event],
) -> State:
    """After the blows: Empoisonnement and Paralysie on the surviving units
    attacked (even when the riposte killed the attacker: its abilities come
    first), Coup fatal on the unit that blocked."""
    a_ref = find_uid(state, attacker_uid)
    for target_uid in target_uids:
        ref = find_uid(state, target_uid)
        if ref is None:
            continue
        if "empoisonnement" in akws:
            state = effects.poison(state, ref, combat.seat, events)
        if "paralysie" in akws:
            state = effects.paralyse(state, ref, events)
    if combat.blocker >= 0 and "coup-fatal" in akws and a_ref is not None:
        ref = find_uid(state, combat.blocker)
        attacker = piece_at(state, a_ref)
        hurt = ref is not None and attacker is not None and wounded.get(combat.blocker, 0) > 0
        if hurt and in_range(state, a_ref, attacker, ref):  # type: ignore[arg-type]
            state = effects.kill(state, ref, combat.seat, events, cause="coup-fatal")  # type: ignore[arg-type]
    return state
