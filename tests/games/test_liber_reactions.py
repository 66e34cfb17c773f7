"""Chroniques de Liber: reactions during another player's turn (issue 14),
and 3-4 players in free-for-all.

« Les attaques peuvent être bloquées par des cartes des unités adverse. »
« Impatient : L'unité peut être jouer à n'importe quel moment, y compris
durant le tour de l'adversaire. » « ... et les éphémères (pouvant être
lancer durant le tour de l'adversaire. »

Windows: when an attack is declared (the attacked seat: block, éphémère,
Impatient unit), at the end of the placement phase and of the attack phase
(every other living seat, in turn order). A seat with nothing it might play
is skipped without being asked; ``pending`` names the reacting seat with
``Decision("react", (("window", kind),))`` and its legal actions are what
it may do now, plus ``pass``.
"""

from __future__ import annotations

import pytest

from engine.core import Decision
from engine.errors import IllegalAction, NotYourTurn
from tests.games.liber_helpers import (
    act,
    act_as,
    at,
    first,
    g,
    kinds,
    known_hands,
    legal,
    pass_all,
    refused,
)
from tests.games.liber_helpers import scenario as base


def scenario(**kw):
    kw.setdefault("opts", "decks=starter")
    kw.setdefault("hands", ("",) * kw.get("seats", 2))
    return known_hands(base(**kw))


def react(kind: str) -> Decision:
    return Decision("react", (("window", kind),), optional=True)


# ---- The attack window -----------------------------------------------------------------------


def test_attack_window_names_the_attacked_seat_and_only_what_it_may_do_now() -> None:
    state = scenario(
        board=({"f1": "fantassin"}, {"f1": "milicien", "f2": "sergent"}),
        hands=("eclair", "eclair recrue fantassin"),
        gold=(4, 5),
        faith=(1, 1),
        phase="attack",
    )
    state, events = act(state, "attack f1 2f1")
    assert dict(g.pending(state)) == {1: react("attack")}
    assert g.view(state, 1).window == "attack" and g.view(state, 0).pending == ((1, "react"),)
    options = legal(state, 1)
    assert "block f2" in options and "pass" in options and "play eclair 1f1" in options
    taken = {"a3", "f1", "f2"}  # the general, the Milicien, the Sergent
    free = {f"{line}{i}" for line in "paf" for i in range(1, 6)} - taken
    # a Recrue (1 gold) on any free place it can pay for: 5 gold, +4 on the front
    assert {t for t in options if t.startswith("play recrue")} == {
        f"play recrue {place}" for place in free
    }
    assert not any(t.startswith(("play fantassin", "attack", "next", "move")) for t in options)
    assert legal(state, 0) == set()
    with pytest.raises(NotYourTurn):
        act_as(state, 0, "next")
    refused(state, "play fantassin p1", seat=1, error=IllegalAction)
    assert first(events, "attack").data["targets"] == [[[1, 2, 0], 0]]


def test_attack_window_an_ephemere_then_the_attack_resolves() -> None:
    """An Éclair on the attacker in the window: it dies before its blow."""
    state = scenario(
        board=({"f1": "archer"}, {"f1": "milicien"}),
        hands=("", "eclair"),
        gold=(0, 4),
        faith=(0, 1),
        phase="attack",
    )
    state, _ = act(state, "attack f1 2f1")
    state, events = act(state, "play eclair 1f1")
    assert at(state, "1f1") is None and at(state, "2f1").damage == 0  # type: ignore[union-attr]
    assert "attack-cancelled" in kinds(events)
    assert state.window is None and dict(g.pending(state)) == {0: Decision("attack")}


def test_attack_window_an_impatient_unit_arrives_and_may_block() -> None:
    state = scenario(
        board=({"f1": "fantassin"}, {"f1": "milicien"}),
        hands=("", "eclaireur"),
        gold=(0, 3),
        phase="attack",
    )
    state, _ = act(state, "attack f1 2f1")
    state, _ = act(state, "play eclaireur f3")  # Déplacement: the front, free
    assert dict(g.pending(state)) == {1: react("attack")}
    assert legal(state) == {"block f3", "pass"}
    state, _ = act(state, "block f3")
    assert at(state, "2f3") is None and at(state, "2f1").damage == 0  # type: ignore[union-attr]
    assert at(state, "1f1").damage == 2  # type: ignore[union-attr]


def test_the_window_is_skipped_without_asking_when_nothing_is_playable() -> None:
    """« A window where the player has nothing playable is skipped without
    asking anything. » (issue 14): no block, an empty hand."""
    state = scenario(board=({"f1": "fantassin"}, {"f1": "milicien"}), phase="attack")
    state, events = act(state, "attack f1 2f1")
    assert state.window is None and "window" not in kinds(events)
    assert at(state, "2f1") is None and dict(g.pending(state)) == {0: Decision("attack")}


def test_the_window_is_skipped_when_the_deck_holds_no_reaction_card() -> None:
    """Cards in hand, but none of the deck list's cards is an éphémère or an
    Impatient unit: skipped (only public information decides)."""
    state = base(
        opts="decks=starter",
        board=({"f1": "fantassin"}, {"f1": "milicien"}),
        hands=("", "milicien fantassin"),
        gold=(0, 20),
        phase="attack",
    )
    list_ = tuple(c for c in state.players[1].decklist if c not in ("eclair", "eclaireur"))
    from engine.core import evolve

    players = list(state.players)
    players[1] = evolve(players[1], decklist=list_)
    state = evolve(state, players=tuple(players))
    state, _ = act(state, "attack f1 2f1")
    assert state.window is None


def test_the_window_is_skipped_when_the_reaction_cannot_be_paid() -> None:
    state = scenario(
        board=({"f1": "fantassin"}, {"f1": "milicien"}),
        hands=("", "eclair"),
        gold=(0, 2),  # the Éclair costs 4, the starter deck's Éclaireur 3
        faith=(0, 1),
        phase="attack",
    )
    state, _ = act(state, "attack f1 2f1")
    assert state.window is None


# ---- End-of-phase windows --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("phase", "kind"), [("placement", "end-placement"), ("attack", "end-attack")]
)
def test_end_of_phase_windows_every_other_seat_in_turn_order(phase: str, kind: str) -> None:
    state = scenario(
        seats=3,
        board=({"f1": "milicien"}, {}, {}),
        hands=("", "eclair", "eclair"),
        gold=(0, 4, 4),
        faith=(0, 1, 1),
        phase=phase,
    )
    state, _ = act(state, "next")
    assert dict(g.pending(state)) == {1: react(kind)}
    assert legal(state) == {"play eclair 1f1", "pass"}
    state, _ = act(state, "pass")
    assert dict(g.pending(state)) == {2: react(kind)}
    state, events = act(state, "play eclair 1f1")
    assert at(state, "1f1") is None and state.players[2].vp == 3
    assert state.window is None
    if phase == "placement":
        assert state.phase == "attack" and "phase" in kinds(events)
    else:
        assert state.active == 1  # the end phase followed: the next turn began


def test_end_of_phase_window_asks_only_the_seats_that_may_react() -> None:
    state = scenario(
        seats=4,
        board=({"f1": "milicien"}, {}, {}, {}),
        hands=("", "", "recrue", ""),
        gold=(0, 0, 1, 0),
    )
    state, _ = act(state, "next")
    assert dict(g.pending(state)) == {2: react("end-placement")}
    state, _ = act(state, "play recrue p1")
    assert state.phase == "attack" and at(state, "3p1").card == "recrue"  # type: ignore[union-attr]


def test_the_active_player_plays_impatient_units_and_ephemeres_in_its_attack_phase() -> None:
    state = scenario(
        board=({}, {"f1": "hallebardier"}),
        hands=("recrue eclair milicien", ""),
        gold=(10, 0),
        faith=(1, 0),
        phase="attack",
    )
    options = legal(state)
    assert "play recrue f1" in options and "play eclair 2f1" in options
    assert not any(t.startswith("play milicien") for t in options)
    state, _ = act(state, "play recrue f1")
    assert "attack f1 2f1" in legal(state)  # L7: ready at once


def test_a_paralysed_or_countered_unit_offers_no_block() -> None:
    state = scenario(
        board=(
            {"f1": "fantassin"},
            {"f1": "milicien", "f2": "sergent paralysed", "f3": "paysan countered"},
        ),
        phase="attack",
    )
    state, _ = act(state, "attack f1 2f1")
    assert state.window is None


# ---- 3 and 4 players -------------------------------------------------------------------------


@pytest.mark.parametrize("seats", [3, 4])
def test_free_for_all_an_attack_names_the_enemy_it_targets(seats: int) -> None:
    """(issue 14) « each player has their own battlefield, an attack names the
    enemy it targets »; only that enemy's window opens."""
    boards = [{"f1": "milicien"} for _ in range(seats)]
    boards[0] = {"f1": "fantassin"}
    hands = ["eclair"] * seats
    hands[0] = ""
    state = scenario(
        seats=seats,
        board=tuple(boards),
        hands=tuple(hands),
        gold=(0,) + (4,) * (seats - 1),
        faith=(0,) + (1,) * (seats - 1),
        phase="attack",
    )
    targets = {t for t in legal(state) if t.startswith("attack f1")}
    assert targets == {f"attack f1 {s}f1" for s in range(2, seats + 1)}
    state, events = act(state, f"attack f1 {seats}f1")
    assert dict(g.pending(state)) == {seats - 1: react("attack")}
    state, _ = pass_all(state)
    assert at(state, f"{seats}f1") is None
    assert all(at(state, f"{s}f1") is not None for s in range(2, seats))
    assert first(events, "attack").data["targets"][0][0][0] == seats - 1


@pytest.mark.parametrize("seats", [3, 4])
def test_free_for_all_turns_go_round_every_seat(seats: int) -> None:
    state = g.setup(g.options("decks=starter"), seats, 7)
    order = [state.active]
    for _ in range(seats):
        while True:
            seat, decision = next(iter(g.pending(state).items()))
            if decision.kind == "discard":
                text = f"discard {state.players[seat].hand[0]}"
            else:
                text = "pass" if decision.kind == "react" else "next"
            state, events = act_as(state, seat, text)
            if "turn" in kinds(events):
                break
        order.append(state.active)
    assert order == [*range(seats), 0]
    assert not state.first_round


def test_a_seat_holding_nothing_playable_is_skipped_though_its_deck_has_reactions() -> None:
    """« A window where the player has nothing playable is skipped without
    asking anything » (the issue): the engine decides from the seat's real
    hand, not from its deck list (the others learn only that it was not
    asked, as with any auto-pass; docs/rules/liber.md says so)."""
    state = base(
        opts="decks=starter",
        board=({"f1": "fantassin"}, {"f1": "milicien"}),
        hands=("", "milicien"),
        gold=(0, 10),
        faith=(0, 1),
        phase="attack",
    )
    state, _ = act(state, "attack f1 2f1")
    assert 1 not in g.pending(state)
    assert state.combat is None  # resolved at once, nobody was asked
