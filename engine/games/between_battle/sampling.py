"""Resampling what a seat cannot see: ``determinize`` (from a state) and
``sample_state`` (from a seat's view, for the search bots)."""

from __future__ import annotations

from ... import rng
from ...core import Seat
from ...core import evolve as replace
from .board import deck_by_character, plain
from .model import Player, PlayerView, State, View


def determinize(state: State, seat: Seat | None, seed: int) -> State:
    """Resample what ``seat`` cannot see: the others' hidden hand cards,
    every deck's order and which cards lie face down as damage (« placées
    face cachée »). A character's hidden cards (its owner's hidden hand and
    deck, and its cards in anybody's damage) are dealt again between those
    places; every count stays the same."""
    stream = rng.Stream(rng.seed_state(seed, "determinize"))
    players = list(state.players)
    codes = deck_by_character(state.rules.decks)
    owner_of = {codes[p.character].code: i for i, p in enumerate(players) if p.character}
    pools: dict[str, list[str]] = {code: [] for code in owner_of}
    for p in players:
        for card in p.damage:
            pools.setdefault(card[:2], []).append(card)
    kept: dict[Seat, tuple[str, ...]] = {}
    # choosing with the Pirate's unique, a player sees their deck's cards
    tutor = seat if seat is not None and state.phase == "tutor" else -1
    if state.decider != seat:
        tutor = -1
    for i, p in enumerate(players):
        if not p.character:
            continue
        known = list(p.hand) if i == seat else list(p.revealed)
        hidden = list(p.hand)
        for card in known:
            hidden.remove(card)
        kept[i] = tuple(known)
        if i == tutor:
            continue
        pools[codes[p.character].code] += hidden + list(p.deck)
    bag: list[str] = []
    dealt: dict[Seat, list[str]] = {}
    for code in sorted(pools):
        pool = stream.shuffle(pools[code])
        owner = owner_of.get(code)
        need = 0
        if owner is not None and owner != tutor:
            p = players[owner]
            need = len(p.hand) - len(kept[owner]) + len(p.deck)
        dealt[owner if owner is not None else -1] = list(pool[:need])
        bag += pool[need:]
    bag = list(stream.shuffle(bag))
    for i, p in enumerate(players):
        damage = tuple(bag[: len(p.damage)])
        bag = bag[len(p.damage) :]
        if not p.character:
            players[i] = replace(p, damage=damage)
            continue
        own = dealt.get(i, [])
        if i == tutor:
            own = list(stream.shuffle(p.deck))
        n_hidden = len(p.hand) - len(kept[i])
        players[i] = replace(
            p,
            hand=kept[i] + tuple(own[:n_hidden]),
            deck=tuple(own[n_hidden:]),
            damage=damage,
        )
    return replace(state, players=tuple(players), rng=stream.below(1 << 62) + 1)


def sample_state(view: View, seed: int) -> State:
    """A state the observer of ``view`` cannot tell apart from the real one.

    The damage cards lie face down: a view gives their count only. Each
    character's cards that are nowhere public (piles, discard, revealed,
    the observer's hand) are its owner's hidden hand and deck, or somebody's
    damage. The owner's share is dealt at random; the rest (plus, for an
    eliminated player's character, as many of its unseen cards as needed)
    are the damage cards, dealt at random by each player's damage count.
    The observer keeps their own hand; their deck order is drawn too."""
    if view.observer is None:
        raise ValueError("sample_state needs a seat's view, not a spectator's")
    stream = rng.Stream(rng.seed_state(seed, "sample-state"))
    drafted = view.phase != "draft"
    required: list[str] = []  # unseen cards of living players' characters
    optional: list[str] = []  # unseen cards of eliminated players' characters
    own_share: dict[Seat, tuple[tuple[str, ...], list[str]]] = {}
    if drafted:
        seen = _public_counts(view)
        for pv in view.players:
            if not pv.character:
                continue
            known, pool, need = _unseen_cards(view, pv, seen, stream)
            own_share[pv.seat] = (known, pool[:need])
            (optional if pv.out else required).extend(pool[need:])
    bag = _damage_bag(view, required, optional, stream) if drafted else []
    players = [_sampled_player(pv, own_share, bag, drafted) for pv in view.players]
    return _state_from_view(view, tuple(players), stream.below(1 << 62) + 1)


def _public_counts(view: View) -> dict[str, int]:
    """How many copies of each card lie face up (piles, discard)."""
    seen: dict[str, int] = {}
    public = [plain(c) for pile in view.piles for c in pile]
    public += view.discard
    for card in public:
        seen[card] = seen.get(card, 0) + 1
    return seen


def _unseen_cards(
    view: View, pv: PlayerView, seen: dict[str, int], stream: rng.Stream
) -> tuple[tuple[str, ...], list[str], int]:
    """A player's character: the hand cards the observer knows, its unseen
    cards shuffled, and how many of them are the owner's hidden hand and deck
    (the first ones; the rest are damage cards somewhere)."""
    deck = deck_by_character(view.rules.decks)[pv.character]
    known = () if pv.out else tuple(pv.hand if pv.hand is not None else pv.revealed)
    taken = dict(seen)
    for card in known:
        taken[card] = taken.get(card, 0) + 1
    pool = []
    for label in deck.cards:
        card = deck.code + label
        if taken.get(card, 0):
            taken[card] -= 1
        else:
            pool.append(card)
    pool = list(stream.shuffle(pool))
    need = 0 if pv.out else pv.hand_count - len(known) + pv.deck_count
    seat = view.observer
    if pv.seat == seat and view.phase == "tutor" and view.pending[0][0] == seat:
        # the Pirate's unique shows its player the cards of their deck
        in_deck = [deck.code + c[1:] for c in view.choices]
        pool = [c for c in pool if c not in in_deck] + list(stream.shuffle(in_deck))
        pool = pool[len(pool) - need :] + pool[: len(pool) - need]
    if len(pool) < need or pv.hand_count < len(known):
        raise ValueError(
            f"view inconsistent: seat {pv.seat} has {len(pool)} unseen cards, "
            f"{pv.hand_count - len(known)} in hand and {pv.deck_count} in the deck"
        )
    return known, pool, need


def _damage_bag(
    view: View, required: list[str], optional: list[str], stream: rng.Stream
) -> list[str]:
    """The face-down damage cards, shuffled: every unseen card of a living
    player's character that is not in its owner's hand or deck, and as many
    of the eliminated players' unseen cards as the damage counts need."""
    total_damage = sum(pv.damage for pv in view.players)
    extra = total_damage - len(required)
    if extra < 0 or extra > len(optional):
        raise ValueError(
            f"view inconsistent: {total_damage} damage cards, "
            f"{len(required)} to {len(required) + len(optional)} unseen cards for them"
        )
    return list(stream.shuffle(required + list(stream.shuffle(optional))[:extra]))


def _sampled_player(
    pv: PlayerView,
    own_share: dict[Seat, tuple[tuple[str, ...], list[str]]],
    bag: list[str],
    drafted: bool,
) -> Player:
    """One player: their damage cards taken off the front of ``bag`` (in
    seat order), their known hand plus their share of unseen cards."""
    damage = tuple(bag[: pv.damage]) if drafted else ()
    del bag[: len(damage)]
    if pv.seat not in own_share or pv.out:
        return Player(pv.character, pv.hp, damage=damage, out=pv.out)
    known, share = own_share[pv.seat]
    n_hidden = pv.hand_count - len(known)
    return Player(
        character=pv.character,
        hp=pv.hp,
        hand=known + tuple(share[:n_hidden]),
        deck=tuple(share[n_hidden:]),
        damage=damage,
        revealed=pv.revealed,
        out=False,
    )


def _state_from_view(view: View, players: tuple[Player, ...], generator: int) -> State:
    """The state around the sampled players: everything else is public."""
    return State(
        rules=view.rules,
        players=players,
        piles=view.piles,
        rng=generator,
        phase=view.phase,  # type: ignore[arg-type]
        active=view.active,
        decider=view.pending[0][0] if view.pending else -1,
        discard=view.discard,
        turn=view.turn,
        first_player=view.first_player,
        work_pile=view.work_pile,
        work_ability=view.work_ability,
        lock_next=view.lock_next,
        cancel_next=view.cancel_next,
        turn_lock=view.turn_lock,
        turn_cancelled=view.turn_cancelled,
        extra_turn=False,
        last_player=view.last_player,
        eliminated=view.eliminated,
        ranking=view.ranking,
        end_reason=view.end_reason,
        bonus_turn=view.bonus_turn,
    )
