"""Chroniques de Liber's legality, decided once.

Every kind of action has one check: it returns ``None`` when the seat may
play the action now, or the refusal (a :class:`~engine.text.Msg`, key
``lb-refuse-…``) that ``apply`` raises as :class:`~engine.errors.IllegalAction`.
``legal_actions`` lists candidate actions and keeps those the checks accept,
so the list, the validation and the explanation cannot disagree.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from functools import partial
from itertools import combinations

from ... import rng
from ...core import Seat
from ...core import evolve as replace
from ...text import Msg
from . import combat as combat_mod
from .actions import (
    Action,
    Attack,
    Block,
    Discard,
    Equip,
    General,
    Guard,
    Loc,
    Move,
    Next,
    Pass,
    Play,
    Reclaim,
    Ref,
    Use,
    loc_text,
    ref_text,
)
from .board import (
    card_of,
    cards_of,
    enemies,
    fighters,
    force,
    free_places,
    has_kw,
    living,
    piece_at,
    pieces,
    units,
)
from .costs import cost as price
from .costs import play_cost
from .data import cards_by_id
from .model import FRONT, PLACES, PLAINE, Card, Piece, State, Window
from .range import in_range, protected


def _n(card_id: str) -> str:
    """A card's French name, for refusals (its id if the pool has none)."""
    spec = cards_by_id().get(card_id)
    return spec.name if spec is not None else card_id


# ---------------------------------------------------------------------------
# What the seat is deciding now
# ---------------------------------------------------------------------------


def context(state: State, seat: Seat) -> str:
    """``placement``, ``attack`` (the active seat's phases), ``discard``,
    ``react`` (first seat of an open window), ``loyalty``, ``reclaim``, or
    ``""`` (nothing to decide)."""
    if state.phase == "over" or state.players[seat].out:
        return ""
    window = state.window
    if window is not None:
        if not window.seats or window.seats[0] != seat:
            return ""
        if window.kind == "reclaim":
            return "reclaim"
        if window.kind == "attack" and state.combat is not None and state.combat.loyal:
            return "loyalty"
        return "react"
    if seat != state.active:
        return ""
    if state.phase == "end":
        return "discard" if state.discard_to else ""
    return state.phase


def _not_now(state: State, seat: Seat) -> Msg:
    ctx = context(state, seat)
    return Msg.of("lb-refuse-not-now", expected=Msg.of(f"lb-expect-{ctx or 'wait'}"))


# ---------------------------------------------------------------------------
# Targets
# ---------------------------------------------------------------------------


def target_ok(state: State, seat: Seat, kind: str, ref: Ref) -> bool:
    """Is the place ``ref`` a valid target of kind ``kind`` (data.Target) for
    ``seat``? Units are units and tokens; ``enemy``/``any`` include generals."""
    if not 0 <= ref[0] < len(state.players) or state.players[ref[0]].out:
        return False
    piece = piece_at(state, ref)
    if piece is None or piece.fixture:
        return False
    own = ref[0] == seat
    if kind == "unit":
        return not piece.general
    if kind == "enemy-unit":
        return not piece.general and not own
    if kind == "own-unit":
        return not piece.general and own
    if kind == "enemy":
        return not own
    return kind == "any"


def target_kind(card: Card) -> str:
    for _kind, _amount, target, _scope, _token in card.effects:
        if target != "none":
            return target
    return "none"


def all_targets(state: State, seat: Seat, kind: str) -> list[Ref]:
    out = []
    for s in living(state):
        for ref, _piece in fighters(state, s):
            if target_ok(state, seat, kind, ref):
                out.append(ref)
    return out


# ---------------------------------------------------------------------------
# The checks, one per kind of action
# ---------------------------------------------------------------------------


def _timing(state: State, seat: Seat, card: Card) -> bool:
    """May this card be played now (its type, the phase, the window)?"""
    ctx = context(state, seat)
    impatient = card.type == "unite" and "impatient" in card.keywords
    ephemeral = card.type == "sort" and card.spell == "ephemere"
    if ctx == "placement":
        return True
    if ctx == "attack":
        return impatient or (card.type == "sort" and card.spell != "enchantement")
    if ctx == "react":
        return impatient or ephemeral
    return False


def check_play(state: State, seat: Seat, a: Play) -> Msg | None:
    player = state.players[seat]
    table = cards_of(state)
    if a.card not in player.hand or a.card not in table:
        return Msg.of("lb-refuse-not-in-hand", card=_n(a.card))
    card = table[a.card]
    if context(state, seat) not in ("placement", "attack", "react"):
        return _not_now(state, seat)
    if not _timing(state, seat, card):
        return Msg.of("lb-refuse-card-timing", card=_n(a.card))
    problem = _shape(state, seat, card, a)
    if problem is not None:
        return problem
    if player.gold < play_cost(state, seat, a) or player.faith < card.faith:
        return Msg.of(
            "lb-refuse-cost", card=_n(a.card), cost=price(play_cost(state, seat, a), card.faith)
        )
    return None


def _shape(state: State, seat: Seat, card: Card, a: Play) -> Msg | None:
    if card.type == "unite":
        if a.place is None or a.target is not None:
            return Msg.of("lb-refuse-need-place", card=_n(a.card))
        if piece_at(state, (seat, *a.place)) is not None:
            return Msg.of("lb-refuse-place-taken", place=loc_text(a.place))
        return _ravage(state, seat, card, a)
    if a.shares:
        return Msg.of("lb-refuse-no-ravage", card=_n(a.card))
    if card.type == "objet":
        if a.place is None or a.target is not None:
            return Msg.of("lb-refuse-need-unit", card=_n(a.card))
        piece = piece_at(state, (seat, *a.place))
        if piece is None or piece.fixture or piece.general:
            return Msg.of("lb-refuse-need-unit", card=_n(a.card))
        return None
    if card.type == "lieu" or card.spell == "enchantement":
        if a.place is None or a.target is not None or a.place[0] != PLAINE:
            return Msg.of("lb-refuse-need-plaine", card=_n(a.card))
        if piece_at(state, (seat, *a.place)) is not None:
            return Msg.of("lb-refuse-place-taken", place=loc_text(a.place))
        return None
    if card.type == "dieu":
        if a.place is not None or a.target is not None:
            return Msg.of("lb-refuse-no-target", card=_n(a.card))
        if state.players[seat].god:
            return Msg.of("lb-refuse-one-god")
        return None
    if a.place is not None:
        return Msg.of("lb-refuse-no-place", card=_n(a.card))
    kind = target_kind(card)
    if kind == "none":
        return Msg.of("lb-refuse-no-target", card=_n(a.card)) if a.target is not None else None
    if a.target is None or not target_ok(state, seat, kind, a.target):
        return Msg.of("lb-refuse-bad-target", target=Msg.of(f"lb-target-{kind}"))
    return None


_RAVAGE: list[tuple[object, int, list[Ref]]] = [(None, -1, [])]


def ravage_targets(state: State, seat: Seat) -> list[Ref]:
    """The enemy units a Ravage may hit (memoised for the last table, in one
    slot replaced in one assignment)."""
    last = _RAVAGE[0]
    if last[0] is state.players and last[1] == seat:
        return last[2]
    found = [ref for s in enemies(state, seat) for ref, _ in units(state, s)]
    _RAVAGE[0] = (state.players, seat, found)
    return found


def _ravage(state: State, seat: Seat, card: Card, a: Play) -> Msg | None:
    if not card.ravage:
        return Msg.of("lb-refuse-no-ravage", card=_n(a.card)) if a.shares else None
    targets = ravage_targets(state, seat)
    refs = [ref for ref, _ in a.shares]
    total = sum(n for _, n in a.shares)
    ok = (
        len(set(refs)) == len(refs)
        and all(n >= 1 for _, n in a.shares)
        and all(ref in targets for ref in refs)
        and total == (card.ravage if targets else 0)
    )
    if not ok:
        return Msg.of("lb-refuse-ravage", amount=card.ravage)
    return None


def check_move(state: State, seat: Seat, a: Move) -> Msg | None:
    if context(state, seat) != "placement":
        return _not_now(state, seat)
    piece = piece_at(state, (seat, *a.src))
    if piece is None or piece.fixture or piece.general:
        return Msg.of("lb-refuse-no-unit", place=loc_text(a.src))
    if piece.moved:
        return Msg.of("lb-refuse-moved", card=_n(piece.card))
    if piece_at(state, (seat, *a.dst)) is not None:
        return Msg.of("lb-refuse-place-taken", place=loc_text(a.dst))
    step = abs(a.dst[0] - a.src[0])
    rule = "any" if has_kw(state, piece, "deplacement") else state.rules.line_moves
    if step == 0 or rule == "none" or (rule == "one-step" and step != 1):
        return Msg.of("lb-refuse-move-line", rule=Msg.of(f"lb-moves-{rule}"))
    return None


def check_use(state: State, seat: Seat, a: Use) -> Msg | None:
    if context(state, seat) not in ("placement", "attack"):
        return _not_now(state, seat)
    piece = piece_at(state, (seat, *a.src))
    if piece is None or piece.fixture or not has_kw(state, piece, a.ability):
        return Msg.of(
            "lb-refuse-no-ability", place=loc_text(a.src), ability=Msg.of(f"lb-kw-{a.ability}")
        )
    if a.ability in piece.used:
        return Msg.of("lb-refuse-used", ability=Msg.of(f"lb-kw-{a.ability}"))
    player = state.players[seat]
    if a.ability == "defausse":
        return None if a.card in player.hand else Msg.of("lb-refuse-not-in-hand", card=_n(a.card))
    if a.ability == "invocateur":
        card = card_of(state, piece.card)
        if a.place is None or a.place[0] != PLAINE or piece_at(state, (seat, *a.place)) is not None:
            return Msg.of("lb-refuse-need-plaine", card=_n(card.invoke_token))
        if player.gold < card.invoke_cost:
            return Msg.of(
                "lb-refuse-cost", card=_n(card.invoke_token), cost=price(card.invoke_cost)
            )
        return None
    if a.ability == "telekinesie":
        t, d = a.target, a.dest
        if t is None or d is None or not target_ok(state, seat, "unit", t):
            return Msg.of("lb-refuse-bad-target", target=Msg.of("lb-target-unit"))
        if d[0] != t[0] or piece_at(state, d) is not None:
            return Msg.of("lb-refuse-telekinesis-place")
        return None
    if a.target is None or not target_ok(state, seat, "own-unit", a.target):
        return Msg.of("lb-refuse-bad-target", target=Msg.of("lb-target-own-unit"))
    return None


def check_general(state: State, seat: Seat, a: General) -> Msg | None:
    if context(state, seat) not in ("placement", "attack"):
        return _not_now(state, seat)
    player = state.players[seat]
    card = card_of(state, player.general)
    if not 0 <= a.index < len(card.effects):
        return Msg.of("lb-refuse-general-index", count=len(card.effects))
    if "general" in player.used:
        return Msg.of("lb-refuse-general-used")
    if player.vp < card.vp:
        return Msg.of("lb-refuse-general-vp", vp=card.vp)
    kind = card.effects[a.index][2]
    if kind == "none":
        return Msg.of("lb-refuse-no-target", card=_n(card.id)) if a.target is not None else None
    if a.target is None or not target_ok(state, seat, kind, a.target):
        return Msg.of("lb-refuse-bad-target", target=Msg.of(f"lb-target-{kind}"))
    return None


def check_equip(state: State, seat: Seat, a: Equip) -> Msg | None:
    if context(state, seat) != "placement":
        return _not_now(state, seat)
    src = piece_at(state, (seat, *a.src))
    if src is None or a.card not in src.equipment:
        return Msg.of("lb-refuse-no-object", card=_n(a.card), place=loc_text(a.src))
    dst = piece_at(state, (seat, *a.dst))
    if dst is None or dst.fixture or dst.general or a.dst == a.src:
        return Msg.of("lb-refuse-need-unit", card=_n(a.card))
    cost = card_of(state, a.card).gold
    if state.players[seat].gold < cost:
        return Msg.of("lb-refuse-cost", card=_n(a.card), cost=price(cost))
    return None


def attack_limit(state: State, piece: Piece) -> int:
    return 2 if has_kw(state, piece, "double-attaque") else 1


def attacker_problem(state: State, seat: Seat, src: Loc) -> Msg | None:
    piece = piece_at(state, (seat, *src))
    if piece is None or piece.fixture:
        return Msg.of("lb-refuse-no-unit", place=loc_text(src))
    if piece.sick:
        return Msg.of("lb-refuse-sick", card=_n(piece.card))
    if piece.paralysed:
        return Msg.of("lb-refuse-paralysed", card=_n(piece.card))
    if piece.attacks >= attack_limit(state, piece):
        return Msg.of("lb-refuse-attacked", card=_n(piece.card))
    return None


def target_problem(state: State, seat: Seat, src: Loc, ref: Ref) -> Msg | None:
    attacker = piece_at(state, (seat, *src))
    assert attacker is not None
    if ref[0] == seat or not target_ok(state, seat, "enemy", ref):
        return Msg.of("lb-refuse-not-enemy", place=ref_text(ref))
    if not in_range(state, (seat, *src), attacker, ref):
        return Msg.of("lb-refuse-range", place=ref_text(ref))
    if protected(state, ref):
        return Msg.of("lb-refuse-loyal", place=ref_text(ref))
    return None


def check_attack(state: State, seat: Seat, a: Attack) -> Msg | None:
    if context(state, seat) != "attack":
        return _not_now(state, seat)
    problem = attacker_problem(state, seat, a.src)
    if problem is not None:
        return problem
    attacker = piece_at(state, (seat, *a.src))
    assert attacker is not None
    for ref, _ in a.targets:
        problem = target_problem(state, seat, a.src, ref)
        if problem is not None:
            return problem
    if len(a.targets) == 1 and a.targets[0][1] == 0:
        return None
    total = force(state, (seat, *a.src), attacker)
    refs = [r for r, _ in a.targets]
    if (
        not has_kw(state, attacker, "honneur")
        or len(a.targets) != 2
        or len(set(refs)) != 2
        or any(n < 1 for _, n in a.targets)
        or sum(n for _, n in a.targets) != total
    ):
        return Msg.of("lb-refuse-honneur", force=total)
    return None


def check_block(state: State, seat: Seat, a: Block) -> Msg | None:
    if context(state, seat) != "react" or state.window is None or state.window.kind != "attack":
        return _not_now(state, seat)
    if (seat, *a.place) not in combat_mod.block_candidates(state, seat):
        return Msg.of("lb-refuse-block", place=loc_text(a.place))
    return None


def check_guard(state: State, seat: Seat, a: Guard) -> Msg | None:
    if context(state, seat) != "loyalty":
        return _not_now(state, seat)
    piece = piece_at(state, (seat, *a.place))
    assert state.combat is not None
    if piece is None or piece.uid not in state.combat.loyal:
        return Msg.of("lb-refuse-guard", place=loc_text(a.place))
    return None


def check(state: State, seat: Seat, action: Action) -> Msg | None:
    """The refusal of ``action`` by ``seat`` now, or None if it is legal."""
    ctx = context(state, seat)
    if isinstance(action, Play):
        return check_play(state, seat, action)
    if isinstance(action, Attack):
        return check_attack(state, seat, action)
    if isinstance(action, Move):
        return check_move(state, seat, action)
    if isinstance(action, Use):
        return check_use(state, seat, action)
    if isinstance(action, General):
        return check_general(state, seat, action)
    if isinstance(action, Equip):
        return check_equip(state, seat, action)
    if isinstance(action, Block):
        return check_block(state, seat, action)
    if isinstance(action, Guard):
        return check_guard(state, seat, action)
    if isinstance(action, Pass):
        return None if ctx in ("react", "reclaim") else _not_now(state, seat)
    if isinstance(action, Next):
        return None if ctx in ("placement", "attack") else _not_now(state, seat)
    if isinstance(action, Reclaim):
        if ctx != "reclaim":
            return _not_now(state, seat)
        assert state.window is not None
        cost = card_of(state, state.window.card).gold
        if state.players[seat].gold < cost:
            return Msg.of("lb-refuse-cost", card=_n(state.window.card), cost=price(cost))
        return None
    assert isinstance(action, Discard)
    if ctx != "discard":
        return _not_now(state, seat)
    if action.card not in state.players[seat].hand:
        return Msg.of("lb-refuse-not-in-hand", card=_n(action.card))
    return None


# ---------------------------------------------------------------------------
# The candidates, filtered by the checks
# ---------------------------------------------------------------------------


def _places(state: State, seat: Seat, lines: tuple[int, ...]) -> Iterator[Loc]:
    for line in lines:
        for idx in free_places(state, seat, line):
            yield (line, idx)


def _splits(total: int, n: int) -> Iterator[tuple[int, ...]]:
    if n == 1:
        yield (total,)
        return
    for first in range(1, total - n + 2):
        for rest in _splits(total - first, n - 1):
            yield (first, *rest)


def ravage_shares(state: State, seat: Seat, amount: int) -> list[tuple[tuple[Ref, int], ...]]:
    """Every way to share ``amount`` damage among the enemy units (each
    share at least 1; at most ``amount`` targets)."""
    targets = ravage_targets(state, seat)
    if not targets:
        return [()]
    out = []
    for n in range(1, min(amount, len(targets)) + 1):
        for group in combinations(targets, n):
            for split in _splits(amount, n):
                out.append(tuple(zip(group, split, strict=True)))
    return out


def _playable(state: State, seat: Seat) -> Iterator[tuple[str, Card]]:
    """The distinct cards of the seat's hand it may afford and play now (the
    cheap filter before their actions are made), in id order."""
    player = state.players[seat]
    table = cards_of(state)
    for card_id in sorted(set(player.hand)):
        card = table[card_id]
        if not _timing(state, seat, card) or player.faith < card.faith or player.gold < card.gold:
            continue
        yield card_id, card


def card_candidates(state: State, seat: Seat, card_id: str, card: Card) -> Iterator[Play]:
    """The candidate plays of one card (see :func:`play_candidates`)."""
    if card.type == "unite":
        shares = ravage_shares(state, seat, card.ravage) if card.ravage else [()]
        for place in _places(state, seat, (PLAINE, 1, FRONT)):
            for share in shares:
                yield Play(card_id, place, None, share)
    elif card.type == "objet":
        for ref, _piece in units(state, seat):
            yield Play(card_id, (ref[1], ref[2]))
    elif card.type == "lieu" or card.spell == "enchantement":
        for place in _places(state, seat, (PLAINE,)):
            yield Play(card_id, place)
    elif card.type == "dieu":
        yield Play(card_id)
    elif card.type == "sort":
        kind = target_kind(card)
        if kind == "none":
            yield Play(card_id)
        else:
            for ref in all_targets(state, seat, kind):
                yield Play(card_id, None, ref)


def play_candidates(state: State, seat: Seat) -> Iterator[Play]:
    for card_id, card in _playable(state, seat):
        yield from card_candidates(state, seat, card_id, card)


def _attack_sources(state: State, seat: Seat) -> Iterator[tuple[Ref, Piece]]:
    for ref, piece in fighters(state, seat):
        if attacker_problem(state, seat, (ref[1], ref[2])) is None:
            yield ref, piece


def attacker_candidates(state: State, seat: Seat, ref: Ref, piece: Piece) -> Iterator[Attack]:
    """The candidate attacks of one attacker (see :func:`attack_candidates`)."""
    src = (ref[1], ref[2])
    targets = [
        t
        for s in enemies(state, seat)
        for t, _ in fighters(state, s)
        if target_problem(state, seat, src, t) is None
    ]
    for t in targets:
        yield Attack(src, ((t, 0),))
    if has_kw(state, piece, "honneur"):
        total = force(state, ref, piece)
        for t1, t2 in combinations(targets, 2):
            for n in range(1, total):
                yield Attack(src, ((t1, n), (t2, total - n)))


def attack_candidates(state: State, seat: Seat) -> Iterator[Attack]:
    for ref, piece in _attack_sources(state, seat):
        yield from attacker_candidates(state, seat, ref, piece)


def piece_uses(state: State, seat: Seat, ref: Ref, piece: Piece) -> Iterator[Action]:
    """The candidate ability uses of one piece (see :func:`use_candidates`)."""
    player = state.players[seat]
    src = (ref[1], ref[2])
    kws = card_of(state, piece.card).keywords
    if "defausse" in kws:
        for card in sorted(set(player.hand)):
            yield Use(src, "defausse", card=card)
    if "invocateur" in kws:
        for place in _places(state, seat, (PLAINE,)):
            yield Use(src, "invocateur", place=place)
    if "telekinesie" in kws:
        for s in living(state):
            for t, _moved in units(state, s):
                for line in range(3):
                    for idx in free_places(state, s, line):
                        yield Use(src, "telekinesie", target=t, dest=(s, line, idx))
    if "soin" in kws:
        for t, _ in units(state, seat):
            yield Use(src, "soin", target=t)


def general_candidates(state: State, seat: Seat) -> Iterator[General]:
    general = card_of(state, state.players[seat].general)
    for index, effect in enumerate(general.effects):
        if effect[2] == "none":
            yield General(index)
        else:
            for t in all_targets(state, seat, effect[2]):
                yield General(index, t)


_USES = frozenset({"defausse", "invocateur", "telekinesie", "soin"})


def use_candidates(state: State, seat: Seat) -> Iterator[Action]:
    for ref, piece in fighters(state, seat):
        yield from piece_uses(state, seat, ref, piece)
    yield from general_candidates(state, seat)


def unit_placements(state: State, seat: Seat, ref: Ref, piece: Piece) -> Iterator[Action]:
    """One unit's candidate moves and object transfers (placement phase)."""
    src = (ref[1], ref[2])
    for line in range(3):
        for idx in free_places(state, seat, line):
            yield Move(src, (line, idx))
    for obj in dict.fromkeys(piece.equipment):
        for dst, _other in units(state, seat):
            if dst != ref:
                yield Equip(src, obj, (dst[1], dst[2]))


def placement_candidates(state: State, seat: Seat) -> Iterator[Action]:
    for ref, piece in units(state, seat):
        if piece.moved:
            continue
        yield from unit_placements(state, seat, ref, piece)


def block_candidates(state: State, seat: Seat) -> Iterator[Action]:
    window = state.window
    if window is not None and window.kind == "attack":
        for ref in combat_mod.block_candidates(state, seat):
            yield Block((ref[1], ref[2]))


def reactions(state: State, seat: Seat) -> Iterator[Action]:
    """What a window's seat may play besides ``pass``."""
    yield from block_candidates(state, seat)
    yield from play_candidates(state, seat)


def unseen(state: State, seat: Seat) -> Counter[str]:
    """The cards of a seat's deck list that are in no public place (its
    graveyard, battlefield, objects, god): what its hand may hold."""
    player = state.players[seat]
    listed = set(player.decklist)
    seen: Counter[str] = Counter(player.graveyard)
    for _ref, piece in pieces(state, seat):
        if not piece.general and piece.card in listed:
            seen[piece.card] += 1
        for obj in piece.equipment:
            seen[obj] += 1
    if player.god:
        seen[player.god] += 1
    return Counter(player.decklist) - seen


def has_reaction(state: State, seat: Seat, window: Window) -> bool:
    """Is the seat asked in this window? What it really holds decides it
    (its hand, its gold and faith, its blocks on the board): a seat with
    nothing playable is skipped without being asked. Opponents learn only
    that it was or was not asked, as with any digital card game's
    auto-pass; no card is named (see docs/rules/liber.md)."""
    player = state.players[seat]
    if window.kind == "reclaim":
        return player.gold >= card_of(state, window.card).gold
    if window.kind == "attack" and state.combat is not None and state.combat.loyal:
        return True
    asked = replace(state, window=replace(window, seats=(seat,)))
    return any(check(asked, seat, a) is None for a in reactions(asked, seat))


def legal_actions(state: State, seat: Seat) -> list[Action]:
    ctx = context(state, seat)
    if not ctx:
        return []
    if ctx == "reclaim":
        out: list[Action] = [Reclaim(), Pass()]
    elif ctx == "loyalty":
        assert state.combat is not None
        out = [Guard((r[1], r[2])) for r, p in units(state, seat) if p.uid in state.combat.loyal]
    elif ctx == "react":
        out = [*reactions(state, seat), Pass()]
    elif ctx == "discard":
        out = [Discard(c) for c in sorted(set(state.players[seat].hand))]
    elif ctx == "placement":
        out = [
            *play_candidates(state, seat),
            *placement_candidates(state, seat),
            *use_candidates(state, seat),
            Next(),
        ]
    else:
        out = [
            *attack_candidates(state, seat),
            *play_candidates(state, seat),
            *use_candidates(state, seat),
            Next(),
        ]
    return [a for a in out if check(state, seat, a) is None]


# ---------------------------------------------------------------------------
# A random legal action without listing them all (random playouts)
# ---------------------------------------------------------------------------

Group = tuple[Callable[[], Iterable[Action]], Play | None]
"""The candidates of one kind of action from one source (a card, a piece,
the general...), made only when the group is drawn; for a Ravage unit, a
play of it (no place, no share) whose place and share are drawn apart."""

RAVAGE_TRIES = 8
"""How many (place, share) pairs a Ravage unit's group draws before it
lists its candidates (a place may be too dear for the seat's gold)."""


def _attack_groups(state: State, seat: Seat) -> list[Group]:
    groups: list[Group] = []
    for ref, piece in _attack_sources(state, seat):
        if has_kw(state, piece, "honneur"):
            groups.append((partial(attacker_candidates, state, seat, ref, piece), None))
        else:
            # every enemy fighter, left to check_attack (which asks
            # target_problem, as attacker_candidates does) one draw at a time
            groups.append((partial(_single_attacks, state, seat, ref), None))
    return groups


def _play_groups(state: State, seat: Seat) -> list[Group]:
    groups: list[Group] = []
    for card_id, card in _playable(state, seat):
        ravage = Play(card_id) if card.type == "unite" and card.ravage else None
        groups.append((partial(card_candidates, state, seat, card_id, card), ravage))
    return groups


def _placement_groups(state: State, seat: Seat) -> list[Group]:
    return [
        (partial(unit_placements, state, seat, ref, piece), None)
        for ref, piece in units(state, seat)
        if not piece.moved
    ]


def _use_groups(state: State, seat: Seat) -> list[Group]:
    groups: list[Group] = [
        (partial(piece_uses, state, seat, ref, piece), None)
        for ref, piece in fighters(state, seat)
        if _USES.intersection(card_of(state, piece.card).keywords)
    ]
    groups.append((partial(general_candidates, state, seat), None))
    return groups


def _block_groups(state: State, seat: Seat) -> list[Group]:
    return [(partial(block_candidates, state, seat), None)]


_KINDS: dict[str, tuple[Callable[[State, Seat], list[Group]], ...]] = {
    "placement": (_play_groups, _placement_groups, _use_groups),
    "attack": (_attack_groups, _play_groups, _use_groups),
    "react": (_block_groups, _play_groups),
}
"""The kinds of action of each decision, as :func:`legal_actions` lists
them (the closing ``next``/``pass`` aside): each makes its groups, one per
source (an attacker, a card, a unit, a piece with an ability, the general)."""


def _single_attacks(state: State, seat: Seat, ref: Ref) -> Iterator[Attack]:
    """An attacker's one-target attacks on every enemy fighter, unfiltered:
    those :func:`check` accepts are :func:`attacker_candidates`' one-target ones."""
    src = (ref[1], ref[2])
    for s in enemies(state, seat):
        for t, _ in fighters(state, s):
            yield Attack(src, ((t, 0),))


def _plausible(state: State, seat: Seat, action: Action) -> bool:
    """A cheap first test before :func:`check`: a one-target attack's target
    (most enemy fighters are out of range); True for everything else."""
    if type(action) is Attack and len(action.targets) == 1:
        return target_problem(state, seat, action.src, action.targets[0][0]) is None
    return True


def _draw_ravage(
    state: State, seat: Seat, card_id: str, rng_state: int
) -> tuple[Action | None, int]:
    """A Ravage unit's play: its place, then its share of the damage, drawn
    apart (up to :data:`RAVAGE_TRIES` pairs that :func:`check` accepts); else None."""
    places = list(_places(state, seat, (PLAINE, 1, FRONT)))
    if not places:
        return None, rng_state
    shares = ravage_shares(state, seat, card_of(state, card_id).ravage)
    for _ in range(RAVAGE_TRIES):
        place, rng_state = rng.choice(rng_state, places)
        share, rng_state = rng.choice(rng_state, shares)
        action = Play(card_id, place, None, share)
        if check(state, seat, action) is None:
            return action, rng_state
    return None, rng_state


def random_action(state: State, seat: Seat, rng_state: int) -> tuple[Action, int] | None:
    """One of :func:`legal_actions` drawn without listing them all, or None
    when the decision is a short list anyway (the caller lists and picks).

    In the placement and attack phases and in a reaction window, the kind of
    action is drawn first (:data:`_KINDS`: attack, play a card, move, use an
    ability, block..., or the closing ``next``/``pass``, always legal), then
    its source (which attacker, card, unit, piece), then one of that
    source's candidates that :func:`check` accepts (drawn one at a time, a
    refused one set aside); a source with none is dropped and another
    drawn, a kind with none too. A Ravage unit draws its place and its share
    apart. Not uniform over the legal actions: each kind is as likely as
    ``next``, whatever its size."""
    ctx = context(state, seat)
    kinds = list(_KINDS.get(ctx, ()))
    if not kinds:
        return None
    while kinds:
        index, rng_state = rng.randbelow(rng_state, len(kinds) + 1)
        if index == len(kinds):
            break
        groups = kinds[index](state, seat)
        while groups:
            k, rng_state = rng.randbelow(rng_state, len(groups))
            candidates, ravage = groups.pop(k)
            if ravage is not None:
                drawn, rng_state = _draw_ravage(state, seat, ravage.card, rng_state)
                if drawn is not None:
                    return drawn, rng_state
            pool = list(candidates())
            while pool:
                j, rng_state = rng.randbelow(rng_state, len(pool))
                action = pool[j]
                if _plausible(state, seat, action) and check(state, seat, action) is None:
                    return action, rng_state
                pool[j] = pool[-1]
                pool.pop()
        kinds.pop(index)
    return (Pass() if ctx == "react" else Next()), rng_state


__all__ = ["PLACES", "check", "legal_actions", "random_action"]
