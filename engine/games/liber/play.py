"""What each action does (after ``legality`` accepted it): playing a card of
each type, moving, abilities (Défausse, Invocateur, Télékinésie, Soin), the
general's ability, equipping."""

from __future__ import annotations

from ...core import Event, Seat
from ...core import evolve as replace
from . import effects
from .actions import Equip, General, Move, Play, Use
from .board import Ref, card_of, piece_at, set_piece, set_player
from .model import Card, State
from .turns import arrive_line_cost


def pay(state: State, seat: Seat, gold: int, faith: int = 0, vp: int = 0) -> State:
    player = state.players[seat]
    return set_player(
        state,
        seat,
        replace(player, gold=player.gold - gold, faith=player.faith - faith, vp=player.vp - vp),
    )


def _from_hand(state: State, seat: Seat, card: str) -> State:
    player = state.players[seat]
    hand = list(player.hand)
    hand.remove(card)
    return set_player(state, seat, replace(player, hand=tuple(hand)))


def _to_graveyard(state: State, seat: Seat, card: str) -> State:
    player = state.players[seat]
    return set_player(state, seat, replace(player, graveyard=(*player.graveyard, card)))


def play_cost(state: State, seat: Seat, action: Play) -> int:
    card = card_of(state, action.card)
    gold = card.gold
    if card.type == "unite" and action.place is not None:
        gold += arrive_line_cost(state, seat, action.place[0], card)
    return gold


def play_card(state: State, seat: Seat, action: Play, events: list[Event]) -> State:
    card = card_of(state, action.card)
    gold = play_cost(state, seat, action)
    state = pay(state, seat, gold, card.faith)
    state = _from_hand(state, seat, card.id)
    data: dict[str, object] = {"seat": seat, "card": card.id, "gold": gold, "faith": card.faith}
    if action.place is not None:
        data["place"] = [seat, *action.place]
    if action.target is not None:
        data["target"] = list(action.target)
    events.append(Event("play", data))
    if card.type == "unite":
        return _unit_arrives(state, seat, card, action, events)
    if card.type == "objet":
        assert action.place is not None
        ref = (seat, *action.place)
        piece = piece_at(state, ref)
        assert piece is not None
        events.append(Event("equip", {"seat": seat, "card": card.id, "unit": piece.card}))
        return set_piece(state, ref, replace(piece, equipment=(*piece.equipment, card.id)))
    if card.type == "dieu":
        player = state.players[seat]
        return set_player(state, seat, replace(player, god=card.id))
    if card.type in ("lieu",) or (card.type == "sort" and card.spell == "enchantement"):
        assert action.place is not None
        state, piece = effects.new_piece(state, card.id, seat, fixture=True, sick=False)
        state = set_piece(state, (seat, *action.place), piece)
        return _arrival_effects(state, seat, card, None, events)
    # rituel, éphémère
    state = _arrival_effects(state, seat, card, action.target, events)
    return _to_graveyard(state, seat, card.id)


LASTING = frozenset({"units-force", "units-pv", "gold-reserve", "faith-on-own-death", "favour"})


def _arrival_effects(
    state: State, seat: Seat, card: Card, target: Ref | None, events: list[Event]
) -> State:
    fixture = card.type in ("lieu",) or card.spell == "enchantement"
    for effect in card.effects:
        if fixture and effect[0] in LASTING:
            continue
        state = effects.apply_effect(state, seat, effect, target, events, "spell")
    return state


def _unit_arrives(state: State, seat: Seat, card: Card, action: Play, events: list[Event]) -> State:
    assert action.place is not None
    ready = "impatient" in card.keywords and state.rules.impatient_ready
    state, piece = effects.new_piece(state, card.id, seat, sick=not ready, moved=True)
    state = set_piece(state, (seat, *action.place), piece)
    if action.shares:
        events.append(Event("ravage", {"seat": seat, "card": card.id, "amount": card.ravage}))
        for ref, amount in action.shares:
            state = effects.deal_damage(
                state, seat, ref, amount, events, source="unit", dealer_card=card.id
            )
    return state


def move(state: State, seat: Seat, action: Move, events: list[Event]) -> State:
    src, dst = (seat, *action.src), (seat, *action.dst)
    piece = piece_at(state, src)
    assert piece is not None
    state = set_piece(state, src, None)
    state = set_piece(state, dst, replace(piece, moved=True))
    events.append(
        Event("move", {"seat": seat, "card": piece.card, "from": list(src), "to": list(dst)})
    )
    return effects.sweep(state, seat, events)


def use(state: State, seat: Seat, action: Use, events: list[Event]) -> State:
    src = (seat, *action.src)
    piece = piece_at(state, src)
    assert piece is not None
    state = set_piece(state, src, replace(piece, used=(*piece.used, action.ability)))
    if action.ability == "defausse":
        state = _from_hand(state, seat, action.card)
        state = _to_graveyard(state, seat, action.card)
        events.append(Event("defausse", {"seat": seat, "card": action.card, "unit": piece.card}))
        return effects.gain(state, seat, "gold", 2, events, cause="defausse")
    if action.ability == "invocateur":
        assert action.place is not None
        card = card_of(state, piece.card)
        state = pay(state, seat, card.invoke_cost)
        events.append(
            Event(
                "invoke",
                {
                    "seat": seat,
                    "card": card.invoke_token,
                    "unit": piece.card,
                    "gold": card.invoke_cost,
                },
            )
        )
        return effects.make_tokens(state, seat, card.invoke_token, 1, events, place=action.place[1])
    if action.ability == "telekinesie":
        assert action.target is not None and action.dest is not None
        moved = piece_at(state, action.target)
        assert moved is not None
        state = set_piece(state, action.target, None)
        state = set_piece(state, action.dest, moved)
        events.append(
            Event(
                "telekinesis",
                {
                    "seat": seat,
                    "card": moved.card,
                    "from": list(action.target),
                    "to": list(action.dest),
                },
            )
        )
        return effects.sweep(state, action.dest[0], events)
    # soin
    assert action.target is not None
    healed = piece_at(state, action.target)
    assert healed is not None
    events.append(Event("soin", {"seat": seat, "card": healed.card, "unit": piece.card}))
    return set_piece(state, action.target, replace(healed, heal_at_end=1))


def general(state: State, seat: Seat, action: General, events: list[Event]) -> State:
    player = state.players[seat]
    card = card_of(state, player.general)
    state = pay(state, seat, 0, vp=card.vp)
    player = state.players[seat]
    state = set_player(state, seat, replace(player, used=(*player.used, "general")))
    events.append(
        Event(
            "general-ability", {"seat": seat, "card": card.id, "index": action.index, "vp": card.vp}
        )
    )
    return effects.apply_effect(
        state, seat, card.effects[action.index], action.target, events, source="general"
    )


def equip(state: State, seat: Seat, action: Equip, events: list[Event]) -> State:
    src, dst = (seat, *action.src), (seat, *action.dst)
    card = card_of(state, action.card)
    state = pay(state, seat, card.gold)
    piece = piece_at(state, src)
    assert piece is not None
    equipment = list(piece.equipment)
    equipment.remove(action.card)
    state = set_piece(state, src, replace(piece, equipment=tuple(equipment)))
    other = piece_at(state, dst)
    assert other is not None
    state = set_piece(state, dst, replace(other, equipment=(*other.equipment, action.card)))
    events.append(
        Event("equip", {"seat": seat, "card": action.card, "unit": other.card, "gold": card.gold})
    )
    # losing an object's PV can kill the unit it leaves
    left = piece_at(state, src)
    assert left is not None
    from .board import max_pv

    if left.damage >= max_pv(state, src, left):
        state = effects.kill(state, src, -1, events, cause="wounds")
    return state
