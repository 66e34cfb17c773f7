"""The market (ruling 2.2, 2.5): face-down stacks of units by rank and of
artefacts by type, the mercenaries' stack, the provision supply. A buy takes
the top card of a stack; on the Oracle's matching type the buyer names the
faction. Buying a non-mercenary unit also gives a Provision [S-impl].

The mercenaries' stack is face up, lowest rank on top [P]: its top's price
is the price of a unit of that rank, and it gives no Provision.
"""

from __future__ import annotations

from ... import rng
from ...core import Event, Seat, evolve
from .actions import Buy
from .cards import gain, give_provision, play_cards
from .data import ARTEFACTS, data
from .model import State
from .oracle import matching_type

UNIT_STACKS = ("1", "2", "3", "4")


def stack(state: State, key: str) -> tuple[str, ...]:
    return _stacks(state.market).get(key, ())


def _stacks(market: tuple[tuple[str, tuple[str, ...]], ...]) -> dict[str, tuple[str, ...]]:
    """The market's stacks by key, worked out once per market tuple."""
    hit = _STACKS.get(id(market))
    if hit is not None and hit[0] is market:
        return hit[1]
    if len(_STACKS) > 256:
        _STACKS.clear()
    stacks: dict[str, tuple[str, ...]] = {}
    for k, cards in market:
        stacks.setdefault(k, cards)
    _STACKS[id(market)] = (market, stacks)
    return stacks


_STACKS: dict[int, tuple[tuple[tuple[str, tuple[str, ...]], ...], dict[str, tuple[str, ...]]]] = {}


def set_stack(state: State, key: str, cards: tuple[str, ...]) -> State:
    return evolve(state, market=tuple((k, cards if k == key else c) for k, c in state.market))


def build_market(
    factions: tuple[str, ...], mercenaries: bool, gen: int
) -> tuple[tuple[tuple[str, tuple[str, ...]], ...], int]:
    """The shuffled stacks (top last) for the factions in play."""
    d = data()
    out: list[tuple[str, tuple[str, ...]]] = []
    for r in d.ranks:
        cards = [f"{r.rank}{f}" for f in factions for _ in range(r.per_faction)]
        shuffled, gen = rng.shuffle(gen, cards)
        out.append((str(r.rank), shuffled))
    if mercenaries:
        ranks = sorted(d.mercenary.ranks, reverse=True)
        out.append(("m", tuple(f"{r}m" for r in ranks)))
    for a in d.artefacts:
        cards = [f"{a.code}{f}" for f in factions for _ in range(a.per_faction)]
        shuffled, gen = rng.shuffle(gen, cards)
        out.append((a.code, shuffled))
    return tuple(out), gen


def price(state: State, key: str) -> str | None:
    """The recipe name a stack's card costs (None: nothing to buy there)."""
    if key in UNIT_STACKS:
        return f"unit-{key}" if stack(state, key) else None
    if key == "m":
        cards = stack(state, "m")
        return f"unit-{cards[-1][0]}" if cards else None
    if key in ARTEFACTS:
        return key if stack(state, key) else None
    if len(key) == 2 and key[0] in ARTEFACTS:
        if key[0] != matching_type(state.day):
            return None
        return key[0] if key in stack(state, key[0]) else None
    return None


def buyable(state: State) -> list[str]:
    """The stack keys with something to buy now (matching factions included)."""
    out = [k for k, cards in state.market if cards]
    kind = matching_type(state.day)
    out += sorted({c for c in stack(state, kind)}, key=lambda c: "uian".index(c[1]))
    return out


def buy(state: State, seat: Seat, action: Buy, events: list[Event]) -> State:
    key = action.stack
    state = play_cards(state, seat, action.cards)
    if len(key) == 2:
        cards = list(stack(state, key[0]))
        # the topmost card of that faction
        idx = len(cards) - 1 - cards[::-1].index(key)
        card = cards.pop(idx)
        state = set_stack(state, key[0], tuple(cards))
    else:
        cards = list(stack(state, key))
        card = cards.pop()
        state = set_stack(state, key, tuple(cards))
    state = gain(state, seat, (card,))
    provision = False
    if card[0].isdigit() and card[1] != "m" and state.rules.buy_provision and state.provisions:
        state = give_provision(state, seat)
        provision = True
    events.append(
        Event(
            "buy",
            {
                "seat": seat,
                "stack": key,
                "card": card,
                "cards": list(action.cards),
                "provision": provision,
            },
        )
    )
    return state
