"""Chroniques de Liber: what must hold after every action, checked over
seeded random matches (2-4 players, several option sets), and the engine
bugs those matches found, each pinned by a small scenario.

* Every card of a deck list is somewhere exactly once: hand, draw pile,
  graveyard, battlefield (units, places, enchantments), equipment, the
  god, or an object waiting to be taken back (« Quand une unité meurt, on
  peut récupérer l'objet en payant son coût en pièces d'or, sinon il va au
  cimetière. »). Tokens and favours are made by other cards.
* Gold, faith and victory points are never negative.
* No fighter stays on the battlefield with no PV left (« L'Unité B est mise
  au cimetière. »).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine.games.liber.board import card_of, max_pv, pieces
from engine.games.liber.model import State
from tests.games.liber_helpers import act, at, g, kinds, scenario

OPTIONS = (
    "",
    "line_moves=any counter_limit=cycle multiplayer_end=last-standing",
    "decks=starter",
    "decks=foi",
)


def problems(state: State) -> list[str]:
    out = []
    waiting = [w for w in (state.window, *state.windows) if w is not None and w.kind == "reclaim"]
    for seat, player in enumerate(state.players):
        if min(player.gold, player.faith, player.vp) < 0:
            out.append(f"seat {seat}: negative gold/faith/vp")
        if player.out:
            continue
        seen = Counter(player.hand) + Counter(player.deck) + Counter(player.graveyard)
        if player.god:
            seen[player.god] += 1
        for ref, piece in pieces(state, seat):
            if not piece.fixture and piece.damage >= max_pv(state, ref, piece):
                out.append(f"{piece.card} at {ref} has no PV left")
            if not piece.general and card_of(state, piece.card).type not in ("token", "faveur"):
                seen[piece.card] += 1
            seen.update(piece.equipment)
        seen.update(w.card for w in waiting if w.seats and w.seats[0] == seat)
        if seen != Counter(player.decklist):
            extra = seen - Counter(player.decklist)
            lost = Counter(player.decklist) - seen
            out.append(f"seat {seat}: cards extra {dict(extra)} lost {dict(lost)}")
    return out


@pytest.mark.parametrize("game", range(24))
def test_random_matches_keep_every_card_and_no_negative_counter(game: int) -> None:
    rng = random.Random(game)
    seats = 2 + game % 3
    state = g.setup(g.options(OPTIONS[game % 4]), seats, game)
    assert problems(state) == []
    for step in range(1500):
        if g.outcome(state) is not None:
            break
        seat = next(iter(g.pending(state)))
        action = rng.choice(g.legal_actions(state, seat))
        state, _ = g.apply(state, seat, action)
        if g.outcome(state) is None:
            assert problems(state) == [], (step, g.format_action(action))


# ---- the bugs the random matches found -------------------------------------------------------


def test_a_unit_with_two_objects_offers_each_back_once() -> None:
    """« Quand une unité meurt, on peut récupérer l'objet en payant son coût
    en pièces d'or, sinon il va au cimetière. »: each object once."""
    state = scenario(
        opts="decks=starter",
        board=({"f1": "milicien eq=epee-runique eq=cotte-de-mailles"}, {"p1": "catapulte"}),
        hands=("", ""),
        gold=(10, 0),
        active=1,
        phase="attack",
    )
    state, _ = act(state, "attack p1 1f1")
    taken = 0
    while state.window is not None and state.window.kind == "reclaim":
        state, _ = act(state, "reclaim")
        taken += 1
    assert taken == 2
    assert sorted(state.players[0].hand) == ["cotte-de-mailles", "epee-runique"]
    assert state.players[0].gold == 10 - 1 - 2


@pytest.mark.parametrize("how", ["move f2 a2", "use a1 telekinesie 2f1 2a1"])
def test_a_unit_that_loses_its_last_pv_by_leaving_a_line_dies(how: str) -> None:
    """(Found by the random matches; fixed on the engine branch.) A Garde du mur (5 PV) with 5 damage on the front of the Remparts (+1
    PV) has 1 PV left; moved to the back line it has none: it dies."""
    state = scenario(
        opts="decks=starter",
        board=(
            {"f2": "garde-du-mur dmg=5", "p1": "remparts", "a1": "mentaliste"},
            {"f1": "garde-du-mur dmg=5", "p1": "remparts"},
        ),
        hands=("", ""),
    )
    state, events = act(state, how)
    moved = "1a2" if how.startswith("move") else "2a1"
    assert at(state, moved) is None and "kill" in kinds(events)


def test_an_object_is_not_lost_when_the_attacker_is_eliminated() -> None:
    state = scenario(
        seats=3,
        opts="decks=starter multiplayer_end=last-standing",
        board=({"f1": "milicien eq=epee-runique"}, {}, {}),
        generals=("a3", "f3", "a3"),
        general_damage=(0, 19, 0),
        hands=("", "", ""),
        gold=(5, 0, 0),
        active=1,
        phase="attack",
    )
    state, events = act(state, "attack f3 1f1")  # both fall: Aldric 3 on 3 PV, the riposte 4
    assert state.players[1].out and "out" in kinds(events)
    alice = state.players[0]
    offered = g.pending(state).get(0)
    assert (
        offered is not None and offered.kind == "reclaim"
    ) or "epee-runique" in alice.graveyard + alice.hand


@pytest.mark.parametrize("answer", ["reclaim", "pass"])
def test_the_turn_of_an_eliminated_attacker_ends_after_the_reclaim(answer: str) -> None:
    """« Quand une unité meurt, on peut récupérer l'objet en payant son coût
    en pièces d'or, sinon il va au cimetière. »: seat 2 is out in its own
    attack (last-standing); seat 1 decides on its Épée runique first, then
    seat 3's turn begins."""
    state = scenario(
        seats=3,
        opts="decks=starter multiplayer_end=last-standing",
        board=({"f1": "milicien eq=epee-runique"}, {}, {}),
        generals=("a3", "f3", "a3"),
        general_damage=(0, 19, 0),
        hands=("", "", ""),
        gold=(5, 0, 0),
        active=1,
        phase="attack",
    )
    state, _ = act(state, "attack f3 1f1")
    assert state.players[1].out and state.active == 1
    decision = g.pending(state).get(0)
    assert decision is not None and decision.kind == "reclaim"
    state, events = act(state, answer)
    assert state.active == 2 and state.phase == "placement" and "turn" in kinds(events)
    alice = state.players[0]
    if answer == "reclaim":
        assert alice.hand == ("epee-runique",) and alice.gold == 5 - 1
    else:
        assert alice.graveyard == ("milicien", "epee-runique") and alice.gold == 5
