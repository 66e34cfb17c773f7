"""What changes the table: damage (Armure, Vol, victory points), deaths
(faith, Entraver, tokens, objects to reclaim), healing, and the effects of
cards (``data.EffectKind``)."""

from __future__ import annotations

from ...core import Event, Seat
from ...core import evolve as replace
from .board import (
    Ref,
    card_of,
    cards_of,
    find_uid,
    free_places,
    has_kw,
    lasting_amount,
    max_pv,
    piece_at,
    set_piece,
    set_player,
)
from .model import PLAINE, Piece, State, Window

Source = str
"""What deals damage: ``unit``, ``spell`` (spells and objects), ``general``,
``god`` or ``poison``."""


def new_piece(state: State, card: str, owner: Seat, **fields: object) -> tuple[State, Piece]:
    piece = Piece(uid=state.next_uid, card=card, owner=owner, **fields)  # type: ignore[arg-type]
    return replace(state, next_uid=state.next_uid + 1), piece


def deal_damage(
    state: State,
    source_seat: Seat,
    ref: Ref,
    amount: int,
    events: list[Event],
    *,
    source: Source = "unit",
    dealer_card: str = "",
    scores: bool = True,
) -> State:
    """``amount`` damage to the piece at ``ref``. Armure takes 2 off every
    hit (not poison); a Vol piece is only wounded by flying or Tir units
    (spells do wound it). The dealer's owner scores 1 victory point per
    damage point dealt to an enemy non-general unit (capped at the PV left
    with ``vp_cap``; Fanatique 2), none from generals and gods."""
    piece = piece_at(state, ref)
    if piece is None or piece.fixture:
        return state
    table = cards_of(state)
    target_card = table[piece.card]
    if source != "poison" and "armure" in target_card.keywords:
        amount = max(0, amount - 2)
    if source == "unit" and "vol" in target_card.keywords:
        kws = table[dealer_card].keywords if dealer_card else ()
        if "vol" not in kws and "tir" not in kws:
            amount = 0
    left = max_pv(state, ref, piece) - piece.damage
    vp = 0
    enemy = 0 <= source_seat != ref[0]
    if scores and not piece.general and source in ("unit", "spell", "poison") and enemy:
        vp = min(amount, max(0, left)) if state.rules.vp_cap else amount
        if dealer_card and "fanatique" in table[dealer_card].keywords:
            vp *= 2
    piece = replace(piece, damage=piece.damage + amount)
    state = set_piece(state, ref, piece)
    if vp:
        player = state.players[source_seat]
        state = set_player(state, source_seat, replace(player, vp=player.vp + vp))
    events.append(
        Event(
            "strike",
            {
                "seat": source_seat,
                "dealer": dealer_card,
                "source": source,
                "target": piece.card,
                "owner": ref[0],
                "place": list(ref),
                "damage": amount,
                "vp": vp,
            },
        )
    )
    if piece.damage >= max_pv(state, ref, piece):
        state = kill(state, ref, source_seat, events)
    return state


def kill(state: State, ref: Ref, killer: Seat, events: list[Event], cause: str = "wounds") -> State:
    """The piece at ``ref`` dies: +1 faith to the killer for an enemy unit,
    the owner's faith-on-own-death places, then the card goes to the
    graveyard (a token vanishes, Entraver returns it to the hand, a general
    is out), and each object it carried may be reclaimed."""
    piece = piece_at(state, ref)
    if piece is None:
        return state
    owner = ref[0]
    state = set_piece(state, ref, None)
    card = card_of(state, piece.card)
    events.append(
        Event("kill", {"seat": killer, "card": piece.card, "owner": owner, "cause": cause})
    )
    if piece.general:
        return replace(state, dead_generals=(*state.dead_generals, (owner, killer)))
    if killer >= 0 and killer != owner and not state.players[killer].out:
        state = gain(state, killer, "faith", 1, events, cause="kill")
    bonus = lasting_amount(state, owner, "faith-on-own-death")
    if bonus:
        state = gain(state, owner, "faith", bonus, events, cause="death")
    player = state.players[owner]
    if card.type == "token":
        pass
    elif "entraver" in card.keywords:
        player = replace(player, hand=(*player.hand, piece.card))
        events.append(Event("returned", {"seat": owner, "card": piece.card}))
    else:
        player = replace(player, graveyard=(*player.graveyard, piece.card))
    state = set_player(state, owner, player)
    for obj in piece.equipment:
        state = _object_falls(state, owner, obj)
    return state


def _object_falls(state: State, owner: Seat, obj: str) -> State:
    """An object whose unit died: its owner may take it back paying its cost
    (a reclaim window), else it goes to the graveyard."""
    if state.players[owner].gold >= card_of(state, obj).gold:
        window = Window("reclaim", (owner,), obj)
        queue = state.windows
        if state.window is not None:
            queue = (state.window, *queue)
        # the reclaims come before the window that was open
        reclaims = tuple(w for w in queue if w.kind == "reclaim")
        others = tuple(w for w in queue if w.kind != "reclaim")
        if state.window is None or state.window.kind != "reclaim":
            return replace(state, window=window, windows=reclaims + others)
        return replace(state, windows=(*reclaims, window, *others))
    player = state.players[owner]
    return set_player(state, owner, replace(player, graveyard=(*player.graveyard, obj)))


def sweep(state: State, seat: Seat, events: list[Event]) -> State:
    """Units of a battlefield whose damage reaches their PV now (a bonus of
    a line or an object lost by moving) die; nobody killed them."""
    for line, row in enumerate(state.players[seat].lines):
        for idx, piece in enumerate(row):
            if piece is None or piece.fixture:
                continue
            ref = (seat, line, idx)
            if piece.damage >= max_pv(state, ref, piece):
                state = kill(state, ref, -1, events)
    return state


def gain(
    state: State, seat: Seat, what: str, amount: int, events: list[Event], cause: str = ""
) -> State:
    player = state.players[seat]
    if what == "gold":
        player = replace(player, gold=player.gold + amount)
    elif what == "faith":
        player = replace(player, faith=player.faith + amount)
    else:
        player = replace(player, vp=player.vp + amount)
    events.append(Event(what, {"seat": seat, "amount": amount, "cause": cause}))
    return set_player(state, seat, player)


def heal(state: State, ref: Ref, amount: int, events: list[Event]) -> State:
    """Remove ``amount`` damage; also cures poison and paralysis."""
    piece = piece_at(state, ref)
    if piece is None or piece.fixture:
        return state
    healed = min(amount, piece.damage)
    piece = replace(piece, damage=piece.damage - healed, poisoned_by=-1, paralysed=False)
    events.append(Event("heal", {"owner": ref[0], "card": piece.card, "amount": healed}))
    return set_piece(state, ref, piece)


def draw(state: State, seat: Seat, count: int, events: list[Event]) -> State:
    player = state.players[seat]
    cards = player.deck[:count]
    if not cards:
        return state
    player = replace(player, deck=player.deck[len(cards) :], hand=player.hand + cards)
    # public, the count only: the drawer reads the cards in its hand (a
    # private event's presence could differ between worlds the others cannot
    # tell apart, e.g. when a window is skipped)
    events.append(Event("draw", {"seat": seat, "count": len(cards)}))
    return set_player(state, seat, player)


def make_tokens(
    state: State, seat: Seat, token: str, count: int, events: list[Event], place: int = -1
) -> State:
    """``count`` tokens (or a favour) on ``seat``'s plaine: at ``place``, else
    the first free places (none when the plaine is full)."""
    fixture = card_of(state, token).type == "faveur"
    for _ in range(count):
        free = free_places(state, seat, PLAINE)
        if not free:
            break
        idx = place if place >= 0 and place in free else free[0]
        state, piece = new_piece(state, token, seat, fixture=fixture, sick=not fixture)
        state = set_piece(state, (seat, PLAINE, idx), piece)
        events.append(Event("token", {"seat": seat, "card": token, "place": [seat, PLAINE, idx]}))
        place = -1
    return state


def apply_effect(
    state: State,
    seat: Seat,
    effect: tuple[str, int, str, str, str],
    target: Ref | None,
    events: list[Event],
    source: Source = "spell",
) -> State:
    """One effect of a spell, a general's ability or a fixture's arrival."""
    kind, amount, _target, scope, token = effect
    piece = piece_at(state, target) if target is not None else None
    if kind == "damage" and target is not None:
        return deal_damage(state, seat, target, amount, events, source=source)
    if kind == "heal" and target is not None:
        return heal(state, target, amount, events)
    if kind == "force" and target is not None and piece is not None:
        events.append(Event("bonus", {"owner": target[0], "card": piece.card, "amount": amount}))
        return set_piece(state, target, replace(piece, bonus=piece.bonus + amount))
    if kind == "pv" and target is not None:
        return heal(state, target, amount, events)
    if kind in ("gold", "faith"):
        return gain(state, seat, kind, amount, events, cause="card")
    if kind == "draw":
        return draw(state, seat, amount, events)
    if kind == "token" and token:
        return make_tokens(state, seat, token, max(1, amount), events)
    if kind == "paralyse" and target is not None:
        return paralyse(state, target, events)
    if kind == "poison" and target is not None:
        return poison(state, target, seat, events, scores=source != "general")
    if kind == "destroy" and target is not None:
        return kill(state, target, seat, events, cause="destroyed")
    if kind == "units-force" and source == "spell":
        return _all_units(state, seat, scope, amount, events)
    return state


def _all_units(state: State, seat: Seat, scope: str, amount: int, events: list[Event]) -> State:
    """A rituel's or éphémère's ``units-force``: your units in ``scope`` get
    the bonus until the end of the turn."""
    lines = {"front": (2,), "arriere": (1,), "plaine": (0,)}.get(scope, (0, 1, 2))
    for line in lines:
        for idx, piece in enumerate(state.players[seat].lines[line]):
            if piece is not None and not piece.fixture and not piece.general:
                state = set_piece(
                    state, (seat, line, idx), replace(piece, bonus=piece.bonus + amount)
                )
    events.append(Event("bonus", {"owner": seat, "card": "", "amount": amount}))
    return state


def paralyse(state: State, ref: Ref, events: list[Event]) -> State:
    piece = piece_at(state, ref)
    if piece is None or piece.fixture:
        return state
    events.append(Event("paralysed", {"owner": ref[0], "card": piece.card}))
    return set_piece(state, ref, replace(piece, paralysed=True, paralysed_since=state.turn))


def poison(state: State, ref: Ref, by: Seat, events: list[Event], scores: bool = True) -> State:
    """Poison the piece: it loses 1 PV each of its turns until healed; the
    wounds score for ``by`` unless a general's ability poisoned it."""
    piece = piece_at(state, ref)
    if piece is None or piece.fixture:
        return state
    events.append(Event("poisoned", {"owner": ref[0], "card": piece.card, "seat": by}))
    return set_piece(state, ref, replace(piece, poisoned_by=by, poison_scores=scores))


def uid_ref(state: State, uid: int) -> Ref | None:
    return find_uid(state, uid)


def keyword(state: State, piece: Piece, kw: str) -> bool:
    return has_kw(state, piece, kw)
