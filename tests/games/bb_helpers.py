"""Helpers to build Between Battle situations from a compact description.

Cards are written as in the engine: ``"Pi7"`` (Pirate 7), ``"ChX"`` (the
Chevalier's joker), ``"Co5~"`` (an open link on a pile). In a hand or a deck a
bare label (``"7"``, ``"X"``) means the card of that seat's own character.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import i18n
from engine.core import Event, evolve
from engine.errors import RulesError
from engine.games.between_battle import GAME, State
from engine.text import Msg
from tests.games import scenario as common

g = GAME

CODES = {"pirate": "Pi", "chevalier": "Ch", "cowboy": "Co", "ninja": "Ni"}
LABELS = tuple([str(v) for v in range(1, 17)] + ["X"])

CardSpec = str | Sequence[str]


def _sort_key(card: str) -> tuple[int, str]:
    label = card[2:].rstrip("~")
    return (999 if label == "X" else int(label), card)


def cards(spec: CardSpec, code: str = "") -> tuple[str, ...]:
    """``"7 X Co5"`` -> ``("Pi7", "PiX", "Co5")`` for code ``"Pi"``."""
    tokens = spec.split() if isinstance(spec, str) else list(spec)
    out = []
    for token in tokens:
        if token[:1].isalpha() and token[:1] != "X":
            out.append(token)
        else:
            if not code:
                raise ValueError(f"{token!r} needs a character code")
            out.append(code + token)
    return tuple(out)


def base(chars: str = "pirate,chevalier", opts: str = "", seed: int = 1) -> State:
    seats = len(chars.split(","))
    return g.setup(g.options(f"characters={chars} {opts}"), seats, seed=seed)


def scenario(
    hands: Sequence[CardSpec],
    *,
    chars: str = "pirate,chevalier",
    opts: str = "",
    piles: tuple[CardSpec, CardSpec] = ("", ""),
    decks: Sequence[CardSpec | None] | None = None,
    damage: Sequence[int | CardSpec] | None = None,
    revealed: Sequence[CardSpec] | None = None,
    out: Iterable[int] = (),
    active: int = 0,
    last_player: int = -1,
    **fields: Any,
) -> State:
    """A state in phase ``turn`` where ``active`` must decide.

    Decks default to the seat's cards that are nowhere else (lowest first, so
    draws are predictable); ``damage`` takes a count (cards taken from the
    same pool, highest first) or explicit cards.
    """
    state = base(chars, opts)
    names = chars.split(",")
    pile_cards = (cards(piles[0]), cards(piles[1]))
    used = {c.rstrip("~") for pile in pile_cards for c in pile}
    used |= {c.rstrip("~") for c in fields.get("discard", ())}
    players = []
    outs = set(out)
    for seat, name in enumerate(names):
        code = CODES[name]
        hand = cards(hands[seat], code)
        used |= set(hand)
        pool = [code + label for label in LABELS if code + label not in used]
        dmg: tuple[str, ...] = ()
        if damage is not None:
            spec = damage[seat]
            if isinstance(spec, int):
                dmg = tuple(pool[len(pool) - spec :]) if spec else ()
            else:
                dmg = cards(spec, code)
        pool = [c for c in pool if c not in dmg]
        deck_spec = None if decks is None else decks[seat]
        deck = tuple(pool) if deck_spec is None else cards(deck_spec, code)
        used |= set(dmg) | set(deck)
        shown = cards(revealed[seat], code) if revealed is not None else ()
        player = evolve(
            state.players[seat],
            hand=hand,
            deck=deck,
            damage=dmg,
            revealed=shown,
            out=seat in outs,
        )
        players.append(player)
    state = evolve(
        state,
        players=tuple(players),
        piles=pile_cards,
        phase="turn",
        active=active,
        decider=active,
        turn=1,
        first_player=0,
        last_player=last_player,
        eliminated=tuple(sorted(outs)),
    )
    return evolve(state, **fields) if fields else state


def act(state: State, *texts: str) -> tuple[State, list[Event]]:
    """Apply notations in turn, each by the seat that must decide."""
    return common.act(g, state, *texts, seat_of=_decider)


def legal(state: State, seat: int | None = None) -> set[str]:
    return common.legal(g, state, seat, seat_of=_decider)


def _decider(state: State) -> int:
    return state.decider


def plays(state: State, seat: int | None = None) -> set[str]:
    """The legal ``card>pile`` plays only."""
    return {a for a in legal(state, seat) if ">" in a}


kinds = common.kinds
first = common.first


def hand(state: State, seat: int) -> list[str]:
    return sorted(state.players[seat].hand, key=_sort_key)


def frozen(state: State) -> str:
    """The state as canonical JSON text (to check it was not changed)."""
    return common.frozen(g, state)


def all_cards(state: State) -> list[str]:
    """Every card of the game wherever it is (to check nothing is lost or doubled)."""
    out = [c.rstrip("~") for pile in state.piles for c in pile]
    out += list(state.discard)
    for p in state.players:
        out += list(p.hand) + list(p.deck) + list(p.damage)
    return sorted(out)


def said(value: Msg | RulesError | None, lang: str = "en") -> str:
    """What a player reads: a text the engine returned (a ``Msg``), or a
    refusal's message, translated into ``lang``."""
    if isinstance(value, RulesError):
        value = value.msg
    return "" if value is None else i18n.translate(lang, value)
