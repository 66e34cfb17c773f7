"""Resampling hidden information: ``determinize`` (from a state) and
``sample_state`` (from a view, for search bots)."""

from __future__ import annotations

from collections.abc import Callable

from ... import rng
from ...core import Seat
from ...core import evolve as replace
from .actions import Anchor
from .board import card_order, share_board
from .geometry import Cell, parse_cell
from .legal import _legal
from .model import (
    Castle,
    Combat,
    Player,
    PlayerView,
    Rules,
    SelKind,
    State,
    Terrain,
    TerrainKind,
    Unit,
    View,
)


def determinize(state: State, seat: Seat | None, seed: int) -> State:
    """Resample what ``seat`` cannot see: other players' hands and
    face-down cards (drawn from what is neither on the table nor in a
    discard), the face-down terrain and the generator (which decides every
    future draw). A card known to be in a hand stays there, or becomes a
    face-down card placed after it became known. Once the game is over
    the views show every card: nothing is resampled."""
    if state.phase == "over":
        return state
    stream = rng.Stream(rng.seed_state(seed, "determinize"))
    below = _fast_below(stream)
    players = list(state.players)
    units = list(state.units)
    units_changed = False
    picking = state.phase == "spot" and state.sel_card
    hidden_by_owner: dict[int, list[int]] = {}
    for i, u in enumerate(units):
        if not u.face_up and u.owner != seat:
            hidden_by_owner.setdefault(u.owner, []).append(i)
    for p, pl in enumerate(players):
        if pl.out or p == seat:
            continue
        keep = [state.sel_card] if picking and p == state.active else []
        hidden_units = hidden_by_owner.get(p, [])
        player = _resample_player(state, pl, keep, hidden_units, units, below)
        if player is not None:
            players[p], renamed = player
            units_changed = units_changed or renamed
    other = replace(
        state,
        players=tuple(players),
        units=tuple(units) if units_changed else state.units,
        terrain=_shuffle_hidden_terrain(state.terrain, below),
        rng=stream.below(1 << 62) + 1,
    )
    share_board(state, other)
    return other


def _resample_player(
    state: State,
    pl: Player,
    keep: list[str],
    hidden_units: list[int],
    units: list[Unit],
    below: Callable[[int], int],
) -> tuple[Player, bool] | None:
    """Deal again a player's hand (but ``keep``) and face-down cards (renamed
    in ``units``) from their unseen cards: the new player, and whether a
    face-down card changed name; None when nothing is hidden."""
    names = [c.name for c in state.rules.cards]
    index = card_order(state.rules)
    known = sorted(pl.known, key=_latest_first) if pl.known else []
    for card in keep:
        for i, (name, _) in enumerate(known):
            if name == card:
                del known[i]
                break
    n_hand = len(pl.hand) - len(keep)
    n_slots = n_hand + len(hidden_units)
    draws = n_slots - len(known)
    if draws <= 0 and len(known) <= 1 and not hidden_units:
        return None  # nothing hidden to resample
    counts = list(pl.deck)
    for card in pl.hand:
        counts[index[card]] += 1
    for i in hidden_units:
        counts[index[units[i].name]] += 1
    for card in keep:
        counts[index[card]] -= 1
    # slots 0..n_hand-1: the hand; then the face-down cards
    slots: list[str] = [""] * n_slots
    for card, when in known:
        free = [
            k
            for k in range(n_slots)
            if not slots[k] and (k < n_hand or units[hidden_units[k - n_hand]].since > when)
        ]
        slots[free[below(len(free))]] = card
        counts[index[card]] -= 1
    pool: list[str] = []
    for k, c in enumerate(counts):
        if c > 0:
            pool += [names[k]] * c
    size = len(pool)
    for j in range(draws):  # the first ``draws`` cards of a shuffled pool
        r = j + below(size - j)
        pool[j], pool[r] = pool[r], pool[j]
    fill = iter(pool[:draws])
    for k in range(n_slots):
        if not slots[k]:
            card = next(fill)
            slots[k] = card
            counts[index[card]] -= 1
    renamed = False
    for i, name in zip(hidden_units, slots[n_hand:], strict=True):
        u = units[i]
        if u.name != name:
            units[i] = _renamed(u, name)
            renamed = True
    return replace(pl, hand=tuple(keep + slots[:n_hand]), deck=tuple(counts)), renamed


def _shuffle_hidden_terrain(
    terrain: tuple[Terrain, ...], below: Callable[[int], int]
) -> tuple[Terrain, ...]:
    """The face-down terrain cards' kinds shuffled among them."""
    hidden_terrain = [i for i, t in enumerate(terrain) if not t.revealed]
    if len(hidden_terrain) > 1:
        kinds = [terrain[i].kind for i in hidden_terrain]
        for j in range(len(kinds) - 1, 0, -1):
            r = below(j + 1)
            kinds[j], kinds[r] = kinds[r], kinds[j]
        new = list(terrain)
        for i, kind in zip(hidden_terrain, kinds, strict=True):
            if new[i].kind != kind:
                new[i] = replace(new[i], kind=kind)
        terrain = tuple(new)
    return terrain


def sample_state(view: View, seed: int) -> State:
    """A state the observer of ``view`` cannot tell apart from the real one
    (for search bots, which only get views): what the view shows is kept;
    every player's unseen cards (their whole deck minus their cards face
    up on the table and in the discard) are dealt at random between hand,
    face-down cards and draw pile, each card known to be in a hand staying
    there or becoming a face-down card placed after it became known (and
    the card another player is placing being one that fits); the face-down
    terrain and the generator are drawn too."""
    seat = view.observer
    if seat is None:
        raise ValueError("sample_state needs a seat's view, not a spectator's")
    stream = rng.Stream(rng.seed_state(seed, "sample-state"))
    below = _fast_below(stream)
    state = _public_state(view, stream)
    units = list(state.units)
    sel_card = state.sel_card
    # the card another player is placing: one that fits the choice made
    fits: set[str] = set()
    if view.phase == "spot" and not sel_card and state.sel_via is not None:
        fits = _fitting_cards(state)
    players = []
    for pv in view.players:
        if pv.out:
            players.append(Player(discard=pv.discard, out=True))
            continue
        counts = _unseen_counts(view.rules, pv, units)
        if pv.seat == seat:
            assert pv.hand is not None
            for card in pv.hand:
                counts[card_order(view.rules)[card]] -= 1
            players.append(
                Player(hand=pv.hand, deck=tuple(counts), discard=pv.discard, known=pv.known_at)
            )
            continue
        placing = fits if pv.seat == view.active else set()
        player, placed = _sample_player(view.rules, pv, counts, units, placing, below)
        sel_card = placed or sel_card
        players.append(player)
    return replace(
        state,
        units=tuple(units),
        players=tuple(players),
        sel_card=sel_card,
        rng=stream.below(1 << 62) + 1,
    )


def _public_state(view: View, stream: rng.Stream) -> State:
    """The state as far as the view shows it: face-down cards unnamed,
    players without cards, the face-down terrain drawn from ``stream``."""
    rules = view.rules
    # face-down terrain: the kinds set out minus the kinds seen
    inns = rules.inns - sum(t.kind == "inn" for t in view.terrain)
    outposts = rules.outposts - sum(t.kind == "outpost" for t in view.terrain)
    inn: TerrainKind = "inn"
    outpost: TerrainKind = "outpost"
    hidden_kinds = list(stream.shuffle([inn] * inns + [outpost] * outposts))
    terrain = []
    for tv in view.terrain:
        kind: TerrainKind = inn if tv.kind == "inn" else outpost
        if tv.kind is None:
            kind = hidden_kinds.pop()
        terrain.append(Terrain(kind, tv.x, tv.y, tv.landscape, tv.kind is not None, tv.controller))
    units = [
        Unit(
            u.owner,
            u.name or "",
            u.x,
            u.y,
            u.landscape,
            u.face_up,
            u.free_attack,
            u.attacks,
            u.since,
        )
        for u in view.units
    ]
    sel = view.selection
    sel_kind: SelKind = ""
    sel_card = ""
    sel_unit: Cell | None = None
    sel_via: Cell | None = None
    if sel is not None:
        sel_kind = sel.kind  # type: ignore[assignment]
        sel_card = sel.card or ""
        sel_unit = parse_cell(sel.unit) if sel.unit else None
        sel_via = parse_cell(sel.via) if sel.via else None
    return State(
        rules=rules,
        cups=view.cups,
        castles=tuple(Castle(cv.owner, cv.x, cv.y, cv.landscape, cv.fallen) for cv in view.castles),
        terrain=tuple(terrain),
        units=tuple(units),
        players=tuple(Player(out=pv.out) for pv in view.players),
        rng=0,
        phase=view.phase,  # type: ignore[arg-type]
        active=view.active,
        pa=view.pa,
        turn=view.turn,
        first_player=view.first_player,
        sel_kind=sel_kind,
        sel_card=sel_card,
        sel_unit=sel_unit,
        sel_via=sel_via,
        combat=_combat_of(view),
        last_seat=view.last_seat,
        last_action=view.last_action,
        last_cells=view.last_cells,
        idle_turns=view.idle_turns,
        clock=view.clock,
        initiative=view.initiative,
        eliminated=view.eliminated,
        ranking=view.ranking,
        end_reason=view.end_reason,
    )


def _combat_of(view: View) -> Combat | None:
    """The attack waiting for a reveal, from its view."""
    if view.combat is None:
        return None
    c = view.combat
    return Combat(
        c.seat,
        c.defender,
        tuple(_tag_cell(t) for t in c.attackers),
        _tag_cell(c.target),
        tuple(_tag_cell(t) for t in c.candidates),
    )


def _unseen_counts(rules: Rules, pv: PlayerView, units: list[Unit]) -> list[int]:
    """A player's whole deck, by card, minus their discard and their named
    cards on the table."""
    index = card_order(rules)
    counts = [c.count for c in rules.cards]
    for card in pv.discard:
        counts[index[card]] -= 1
    for u in units:
        if u.owner == pv.seat and u.name:
            counts[index[u.name]] -= 1
    return counts


def _sample_player(
    rules: Rules,
    pv: PlayerView,
    counts: list[int],
    units: list[Unit],
    fits: set[str],
    below: Callable[[int], int],
) -> tuple[Player, str]:
    """Deal another player's unseen cards (``counts``) between hand,
    face-down cards (named in ``units``) and draw pile: the player, and the
    card they are placing (one of ``fits``; "" if none)."""
    names = [c.name for c in rules.cards]
    index = card_order(rules)
    known = sorted(pv.known_at, key=lambda k: -k[1])  # most constrained first
    keep: list[str] = []
    hidden = [i for i, u in enumerate(units) if u.owner == pv.seat and not u.name]
    if fits:
        card = _placed_card(rules, pv, counts, units, fits, hidden, known, below)
        keep.append(card)
        counts[index[card]] -= 1
        known = _known_without(known, card)
    n_hand = pv.hand_count - len(keep)
    slots = [""] * (n_hand + len(hidden))
    for card, when in known:
        free = [
            k
            for k in range(len(slots))
            if not slots[k] and (k < n_hand or units[hidden[k - n_hand]].since > when)
        ]
        if not free:
            raise ValueError(f"view inconsistent: no place for seat {pv.seat}'s {card}")
        slots[free[below(len(free))]] = card
        counts[index[card]] -= 1
    pool = [names[k] for k, c in enumerate(counts) if c > 0 for _ in range(c)]
    draws = slots.count("")
    if len(pool) != draws + pv.deck_count:
        raise ValueError(
            f"view inconsistent: seat {pv.seat} has {len(pool)} unseen cards for "
            f"{draws} hidden places and a pile of {pv.deck_count}"
        )
    for j in range(draws):
        r = j + below(len(pool) - j)
        pool[j], pool[r] = pool[r], pool[j]
    fill = iter(pool[:draws])
    for k in range(len(slots)):
        if not slots[k]:
            slots[k] = next(fill)
            counts[index[slots[k]]] -= 1
    for i, name in zip(hidden, slots[n_hand:], strict=True):
        units[i] = _renamed(units[i], name)
    player = Player(
        hand=tuple(keep + slots[:n_hand]),
        deck=tuple(counts),
        discard=pv.discard,
        known=pv.known_at,
    )
    return player, keep[0] if keep else ""


def _placed_card(
    rules: Rules,
    pv: PlayerView,
    counts: list[int],
    units: list[Unit],
    fits: set[str],
    hidden: list[int],
    known: list[tuple[str, int]],
    below: Callable[[int], int],
) -> str:
    """The card being placed is one of the hand: one that fits, and leaves
    room for the cards known to be in the hand (a known card is that card,
    or stays in the rest of the hand or in a face-down card placed after it
    became known)."""
    index = card_order(rules)
    since = [units[i].since for i in hidden]
    copies = [
        c
        for c in sorted(fits)
        if _room_for_known(_known_without(known, c), pv.hand_count - 1, since)
        for _ in range(max(0, counts[index[c]]))
    ]
    if not copies:
        raise ValueError("view inconsistent: no card fits the placement in progress")
    return copies[below(len(copies))]


def _fitting_cards(state: State) -> set[str]:
    """The kinds of card the active player may be placing, given the choice
    in progress (face, anchor), whatever the hidden names on the table."""
    seat = state.active
    every = tuple(c.name for c in state.rules.cards)
    players = list(state.players)
    players[seat] = replace(players[seat], hand=every)
    before = replace(
        state,
        players=tuple(players),
        phase="free-dog" if state.sel_kind == "dog" else "anchor",
        sel_card="",
        sel_via=None,
    )
    hidden = state.sel_kind == "?"
    return {
        a.card
        for a in _legal(before, seat)
        if isinstance(a, Anchor) and a.hidden == hidden and (a.x, a.y) == state.sel_via
    }


_new = object.__new__
_set = object.__setattr__


def _renamed(u: Unit, name: str) -> Unit:
    """The same unit under another (hidden) name: a fast copy."""
    v: Unit = _new(Unit)
    _set(v, "owner", u.owner)
    _set(v, "name", name)
    _set(v, "x", u.x)
    _set(v, "y", u.y)
    _set(v, "landscape", u.landscape)
    _set(v, "face_up", u.face_up)
    _set(v, "free_attack", u.free_attack)
    _set(v, "attacks", u.attacks)
    _set(v, "since", u.since)
    return v


_LIMITS: dict[int, int] = {}


def _fast_below(stream: rng.Stream) -> Callable[[int], int]:
    """``stream.below`` inlined (the same SplitMix64 and the same rejection),
    for the many draws of ``determinize``; the stream's state follows."""
    golden, mask = 0x9E3779B97F4A7C15, (1 << 64) - 1
    m1, m2 = 0xBF58476D1CE4E5B9, 0x94D049BB133111EB

    def below(n: int) -> int:
        if n == 1:
            return 0
        limit = _LIMITS.get(n)
        if limit is None:
            limit = _LIMITS[n] = (1 << 64) - ((1 << 64) % n)
        st = stream.state
        while True:
            st = (st + golden) & mask
            z = ((st ^ (st >> 30)) * m1) & mask
            z = ((z ^ (z >> 27)) * m2) & mask
            z ^= z >> 31
            if z < limit:
                stream.state = st
                return z % n

    return below


def _latest_first(entry: tuple[str, int]) -> int:
    return -entry[1]


def _tag_cell(tag: str) -> Cell:
    cell = parse_cell(tag)
    assert cell is not None
    return cell


def _known_without(known: list[tuple[str, int]], card: str) -> list[tuple[str, int]]:
    """Known hand cards (most recently known first) once ``card`` of the hand
    is accounted for: the first entry of that name is that card."""
    for i, (name, _) in enumerate(known):
        if name == card:
            return known[:i] + known[i + 1 :]
    return known


def _room_for_known(known: list[tuple[str, int]], hand: int, since: list[int]) -> bool:
    """Whether cards known to be in a hand (most recently known first) all
    find a place: one of ``hand`` hand slots, or a face-down card placed
    after the card became known (``since``: when each was placed). The
    places open to a card include those of every card known later, so
    counting is enough."""
    return all(hand + sum(1 for s in since if s > when) > i for i, (_, when) in enumerate(known))
