"""Between Battle's cards, piles and seats: pure helpers over the state."""

from __future__ import annotations

from collections.abc import Sequence

from ...core import Event, Seat
from ...core import evolve as replace
from .model import Deck, Player, Rules, State

# ---------------------------------------------------------------------------
# Card helpers
# ---------------------------------------------------------------------------


def split_code(card: str) -> tuple[str, str]:
    """``"Co12~"`` -> ``("Co", "12")``."""
    return card[:2], card[2:].rstrip("~")


def is_open(card: str) -> bool:
    return card.endswith("~")


def plain(card: str) -> str:
    return card.rstrip("~")


# Lookup tables derived from the decks stored in a state. They are memoised
# by the identity of the decks tuple (kept alive in the entry), because
# hashing the tuple on every call would cost more than the lookup saves.
_Tables = tuple[
    tuple[Deck, ...],
    dict[str, str],
    dict[str, Deck],
    dict[str, Deck],
    dict[str, tuple[int, str, str]],
]
_TABLES: dict[int, _Tables] = {}


def _tables(decks: tuple[Deck, ...]) -> _Tables:
    entry = _TABLES.get(id(decks))
    if entry is None or entry[0] is not decks:
        kinds: dict[str, str] = {}
        info: dict[str, tuple[int, str, str]] = {}
        for deck in decks:
            for label, kind in zip(deck.cards, deck.kinds, strict=True):
                kinds[deck.code + label] = kind
                # (sort value, kind, label): the joker sorts last
                info[deck.code + label] = (999 if label == "X" else int(label), kind, label)
        entry = (
            decks,
            kinds,
            {d.code: d for d in decks},
            {d.character: d for d in decks},
            info,
        )
        if len(_TABLES) > 64:
            _TABLES.clear()
        _TABLES[id(decks)] = entry
    return entry


def _kind_table(decks: tuple[Deck, ...]) -> dict[str, str]:
    return _tables(decks)[1]


def _deck_by_code(decks: tuple[Deck, ...]) -> dict[str, Deck]:
    return _tables(decks)[2]


def _deck_by_character(decks: tuple[Deck, ...]) -> dict[str, Deck]:
    return _tables(decks)[3]


def card_kind(rules: Rules, card: str) -> str:
    return _kind_table(rules.decks)[plain(card)]


def card_value(card: str) -> int | None:
    label = card[2:].rstrip("~")
    return None if label == "X" else int(label)


def pile_value(pile: Sequence[str]) -> int | None:
    """A pile's value is that of its highest card that is not a joker."""
    for card in reversed(pile):
        value = card_value(card)
        if value is not None:
            return value
    return None


def ability_of(rules: Rules, card: str) -> str | None:
    """The ability id a card triggers when played (None for plain cards)."""
    kind = card_kind(rules, card)
    deck = _deck_by_code(rules.decks)[card[:2]]
    if kind == "special":
        return deck.special
    if kind == "unique":
        return deck.unique
    if kind == "joker":
        return "joker"
    return None


def _sort_key(card: str) -> tuple[int, str]:
    value = card_value(card)
    return (999 if value is None else value, card)


# ---------------------------------------------------------------------------
# Helpers (module level: they are pure functions of the state)
# ---------------------------------------------------------------------------


def _code_of(state: State, seat: Seat) -> str:
    character = state.players[seat].character
    return _deck_by_character(state.rules.decks)[character].code


def _label_key(label: str) -> tuple[int, str]:
    return (999, label) if label == "X" else (int(label), label)


def _remove_one(cards: tuple[str, ...], card: str) -> tuple[str, ...]:
    i = cards.index(card)
    return cards[:i] + cards[i + 1 :]


def _with_pile(
    piles: tuple[tuple[str, ...], tuple[str, ...]], index: int, pile: tuple[str, ...]
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    return (pile, piles[1]) if index == 0 else (piles[0], pile)


def _set_pile(state: State, index: int, pile: tuple[str, ...]) -> State:
    return replace(state, piles=_with_pile(state.piles, index, pile))


def _set_player(state: State, seat: Seat, player: Player) -> State:
    players = state.players
    return replace(state, players=players[:seat] + (player,) + players[seat + 1 :])


def _draw_to(state: State, seat: Seat, size: int, events: list[Event]) -> State:
    player = state.players[seat]
    need = size - len(player.hand)
    if need <= 0 or not player.deck:
        return state
    drawn = player.deck[:need]
    state = _set_player(
        state, seat, replace(player, hand=player.hand + drawn, deck=player.deck[len(drawn) :])
    )
    events.append(
        Event(
            "draw",
            {"seat": seat, "cards": list(drawn)},
            to=frozenset({seat}),
            redacted={"seat": seat, "count": len(drawn)},
        )
    )
    return state


def _open_top(pile: tuple[str, ...]) -> bool:
    return bool(pile) and pile[-1].endswith("~")


def _play_targets(state: State) -> tuple[int, ...]:
    """The piles the active player may play on this turn."""
    lock = state.turn_lock
    empties = tuple(i for i in (0, 1) if not state.piles[i])
    rules = state.rules
    if lock >= 0:
        if rules.lock_beats_empty_pile or not empties or lock in empties:
            return (lock,)
        return ()  # the empty-pile obligation and the lock cannot both be met
    if rules.empty_pile_must and len(empties) == 1:
        return empties
    return (0, 1)


def _locked_alone(state: State) -> bool:
    """Option ``locked_pile_alone=joker-only``: the player is locked on a pile
    with a value while the other pile has none; only the joker goes there."""
    lock = state.turn_lock
    if lock < 0 or state.rules.locked_pile_alone != "joker-only":
        return False
    return pile_value(state.piles[lock]) is not None and pile_value(state.piles[1 - lock]) is None


def _free_play(state: State) -> bool:
    """Any card goes on the pile(s) the player may play on: a pile has no
    value (T2), or the tops are equal or consecutive (T3) and this is not the
    same player's extra turn (« le joueur suivant »)."""
    rules = state.rules
    v0, v1 = pile_value(state.piles[0]), pile_value(state.piles[1])
    if v0 is None or v1 is None:
        return not _locked_alone(state)
    if not rules.adjacent_tops_free or abs(v0 - v1) > 1:
        return False
    return not state.bonus_turn or rules.adjacent_on_extra_turn


def _pull_choices(state: State) -> list[str]:
    pile = state.piles[state.work_pile]
    below = pile[:-1]
    depth = state.rules.joker_depth
    if depth:
        below = below[-depth:]
    out: list[str] = []
    for card in reversed(below):
        code = plain(card)
        if card_value(code) is not None and code not in out:
            out.append(code)
    return out


def _next_seat(state: State, seat: Seat) -> Seat:
    n = len(state.players)
    for step in range(1, n + 1):
        s = (seat + step) % n
        if not state.players[s].out:
            return s
    return seat


def _opponents(state: State, seat: Seat) -> list[Seat]:
    """Living opponents in turn order, starting with the next player."""
    n = len(state.players)
    return [(seat + step) % n for step in range(1, n) if not state.players[(seat + step) % n].out]


def _damage_chooser(state: State, taker: Seat) -> Seat:
    if state.rules.damage_chooser == "taker":
        return taker
    last = state.last_player
    if last >= 0 and last != taker and not state.players[last].out:
        return last
    # nobody else has played yet: the previous living player chooses
    n = len(state.players)
    for step in range(1, n):
        s = (taker - step) % n
        if not state.players[s].out:
            return s
    return taker
