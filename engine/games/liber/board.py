"""The table analysed: cards, places, pieces, and the values that bonuses make.

Lines are ``0`` plaine, ``1`` arrière, ``2`` front (``model.LINES``), places
``0..4``. A piece is found by its place ``(seat, line, index)`` or its uid.
"""

from __future__ import annotations

from collections.abc import Iterator

from ...core import Seat
from ...core import evolve as replace
from .model import ARRIERE, FRONT, PLACES, PLAINE, Card, Piece, Player, State

Ref = tuple[int, int, int]

_CARDS: dict[int, tuple[tuple[Card, ...], dict[str, Card]]] = {}


_LAST: list[tuple[tuple[Card, ...], dict[str, Card]]] = [((), {})]


def cards_of(state: State) -> dict[str, Card]:
    """The state's cards by id (memoised per cards tuple; the last one in a
    single slot, replaced in one assignment so that threads never mix two)."""
    cards = state.cards
    last = _LAST[0]
    if last[0] is cards:
        return last[1]
    key = id(cards)
    hit = _CARDS.get(key)
    if hit is None or hit[0] is not cards:
        if len(_CARDS) > 64:
            _CARDS.clear()
        hit = (cards, {c.id: c for c in cards})
        _CARDS[key] = hit
    _LAST[0] = hit
    return hit[1]


def card_of(state: State, card_id: str) -> Card:
    return cards_of(state)[card_id]


def has_kw(state: State, piece: Piece, keyword: str) -> bool:
    return keyword in cards_of(state)[piece.card].keywords


# ---------------------------------------------------------------------------
# Places and pieces
# ---------------------------------------------------------------------------


def piece_at(state: State, ref: Ref) -> Piece | None:
    seat, line, idx = ref
    if not 0 <= seat < len(state.players):
        return None
    return state.players[seat].lines[line][idx]


def set_player(state: State, seat: Seat, player: Player) -> State:
    players = list(state.players)
    players[seat] = player
    return replace(state, players=tuple(players))


def set_piece(state: State, ref: Ref, piece: Piece | None) -> State:
    seat, line, idx = ref
    player = state.players[seat]
    row = list(player.lines[line])
    row[idx] = piece
    lines = list(player.lines)
    lines[line] = tuple(row)
    return set_player(state, seat, replace(player, lines=(lines[0], lines[1], lines[2])))


def pieces(state: State, seat: Seat) -> Iterator[tuple[Ref, Piece]]:
    """Every piece of a battlefield (fixtures included), line by line."""
    for line, row in enumerate(state.players[seat].lines):
        for idx, piece in enumerate(row):
            if piece is not None:
                yield (seat, line, idx), piece


def fighters(state: State, seat: Seat) -> Iterator[tuple[Ref, Piece]]:
    """Units, tokens and the general of a battlefield."""
    for ref, piece in pieces(state, seat):
        if not piece.fixture:
            yield ref, piece


def units(state: State, seat: Seat) -> Iterator[tuple[Ref, Piece]]:
    """Units and tokens (not the general, not fixtures)."""
    for ref, piece in pieces(state, seat):
        if not piece.fixture and not piece.general:
            yield ref, piece


def find_uid(state: State, uid: int) -> Ref | None:
    for seat, player in enumerate(state.players):
        for line, row in enumerate(player.lines):
            for idx, piece in enumerate(row):
                if piece is not None and piece.uid == uid:
                    return (seat, line, idx)
    return None


def free_places(state: State, seat: Seat, line: int) -> list[int]:
    return [i for i, p in enumerate(state.players[seat].lines[line]) if p is None]


def line_has_fighter(state: State, seat: Seat, line: int) -> bool:
    return any(p is not None and not p.fixture for p in state.players[seat].lines[line])


def general_ref(state: State, seat: Seat) -> Ref | None:
    for ref, piece in fighters(state, seat):
        if piece.general:
            return ref
    return None


def living(state: State) -> list[Seat]:
    return [s for s, p in enumerate(state.players) if not p.out]


def enemies(state: State, seat: Seat) -> list[Seat]:
    return [s for s in living(state) if s != seat]


def next_living(state: State, seat: Seat) -> Seat:
    n = len(state.players)
    for step in range(1, n + 1):
        s = (seat + step) % n
        if not state.players[s].out:
            return s
    return seat


def order_from(state: State, seat: Seat) -> list[Seat]:
    """Living seats in turn order after ``seat`` (``seat`` excluded)."""
    n = len(state.players)
    return [(seat + k) % n for k in range(1, n) if not state.players[(seat + k) % n].out]


# ---------------------------------------------------------------------------
# Lasting effects (fixtures and gods): the same card's effect never stacks
# ---------------------------------------------------------------------------


_LASTING: dict[tuple[int, str], tuple[object, tuple[Card, ...], list[Card]]] = {}


def lasting(state: State, seat: Seat) -> list[Card]:
    """The distinct cards whose lasting effects work for ``seat``: its
    places, enchantments and favours, and its god (each id once: the same
    effect never stacks). Memoised per plaine line and god."""
    player = state.players[seat]
    row = player.lines[PLAINE]
    key = (id(row), player.god)
    hit = _LASTING.get(key)
    if hit is not None and hit[0] is row and hit[1] is state.cards:
        return hit[2]
    table = cards_of(state)
    seen: dict[str, Card] = {}
    for piece in row:
        if piece is not None and piece.fixture:
            seen.setdefault(piece.card, table[piece.card])
    if player.god:
        seen.setdefault(player.god, table[player.god])
    found = list(seen.values())
    if len(_LASTING) > 256:
        _LASTING.clear()
    _LASTING[key] = (row, state.cards, found)
    return found


def lasting_amount(state: State, seat: Seat, kind: str, line: int = -1) -> int:
    total = 0
    for card in lasting(state, seat):
        for k, amount, _target, scope, _token in card.effects:
            if k == kind and _in_scope(scope, line):
                total += amount
    return total


def _in_scope(scope: str, line: int) -> bool:
    if scope == "all" or line < 0:
        return True
    return {"front": FRONT, "arriere": ARRIERE, "plaine": PLAINE}.get(scope) == line


def reserves(state: State, seat: Seat) -> int:
    return state.rules.start_reserves + lasting_amount(state, seat, "gold-reserve")


_INCOME: dict[tuple[int, str], tuple[object, object, object, int]] = {}


def income(state: State, seat: Seat) -> int:
    """Gold the draw phase brings: reserves × gold per reserve, +1 per
    Producteur (memoised per battlefield)."""
    player = state.players[seat]
    key = (id(player.lines), player.god)
    hit = _INCOME.get(key)
    if (
        hit is not None
        and hit[0] is player.lines
        and hit[1] is state.cards
        and hit[2] is state.rules
    ):
        return hit[3]
    producers = sum(1 for _, p in units(state, seat) if has_kw(state, p, "producteur"))
    value = reserves(state, seat) * state.rules.gold_per_reserve + producers
    if len(_INCOME) > 256:
        _INCOME.clear()
    _INCOME[key] = (player.lines, state.cards, state.rules, value)
    return value


# ---------------------------------------------------------------------------
# Force and PV with their bonuses
# ---------------------------------------------------------------------------


def equipment_amount(state: State, piece: Piece, kind: str) -> int:
    table = cards_of(state)
    total = 0
    for obj in dict.fromkeys(piece.equipment):  # two copies of an object: no stacking
        for k, amount, *_ in table[obj].effects:
            if k == kind:
                total += amount
    return total


def max_pv(state: State, ref: Ref, piece: Piece) -> int:
    base = card_of(state, piece.card).pv + equipment_amount(state, piece, "pv")
    if not piece.general:
        base += lasting_amount(state, ref[0], "units-pv", ref[1])
    return base


def pv_left(state: State, ref: Ref, piece: Piece) -> int:
    return max_pv(state, ref, piece) - piece.damage


def encouraged(state: State, ref: Ref, piece: Piece) -> bool:
    """Encouragement: another unit of the same army has it, and it is its
    owner's attack phase (the bonus is +1, however many)."""
    seat = ref[0]
    if piece.general or state.active != seat or state.phase != "attack":
        return False
    return any(
        other.uid != piece.uid and has_kw(state, other, "encouragement")
        for _, other in units(state, seat)
    )


def regrouped(state: State, ref: Ref, piece: Piece) -> int:
    """Regroupement: +1 force in defence per adjacent allied unit on its line."""
    if not has_kw(state, piece, "regroupement"):
        return 0
    seat, line, idx = ref
    row = state.players[seat].lines[line]
    near = [row[j] for j in (idx - 1, idx + 1) if 0 <= j < PLACES]
    return sum(1 for other in near if other is not None and not other.fixture)


def force(state: State, ref: Ref, piece: Piece, defending: bool = False) -> int:
    value = card_of(state, piece.card).force + piece.bonus + equipment_amount(state, piece, "force")
    if not piece.general:
        value += lasting_amount(state, ref[0], "units-force", ref[1])
        if encouraged(state, ref, piece):
            value += 1
    if defending:
        value += regrouped(state, ref, piece)
    return max(0, value)
