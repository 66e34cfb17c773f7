"""Chroniques de Liber, issue 14's « Done when »: « A 2-player match and a
3-player match with built decks play to each of the four victory
conditions in the tests. »

The matches are seeded, not scripted move by move: they start from a real
setup with two built decks (deck codes, ``Options.decks``; the third seat
plays the first deck again), shuffled by the match seed, and every seat
plays by the small fixed policy below, which picks among the engine's own
legal actions (sorted, so the match is the same on every run). The policy
differs by the victory aimed at:

* ``general``: units to the front, every attack on whatever is in reach
  (generals included): a general falls;
* ``vp``: units to the front, attacks on units only, generals never attack;
* ``faith``: the same, with ``vp_to_win=999`` so that victory points, which
  always come first with these decks, do not end the match;
* ``gold``: nobody plays anything: the reserve's 5 gold a turn reaches 60.

The fin de partie sentences: « La partie se termine lorsque l'un des
joueurs a : - Tuer le général adverse. - 20 points de foi dans la réserve
- 40 points de victoire, un point de victoire par PV retirer au unité
adverse (autre que le général). - 60 pièce d'or en réserve »
"""

from __future__ import annotations

from collections import Counter

import pytest

from engine.games.liber.board import card_of
from engine.games.liber.deck import deck_code, parse_deck_code
from engine.games.liber.model import State
from tests.games.liber_helpers import all_of, g

KNIGHTS = deck_code(
    "aldric",
    {
        "paysan": 4,
        "milicien": 4,
        "archer": 4,
        "fantassin": 4,
        "sergent": 4,
        "fanatique": 4,
        "assassin": 4,
        "duelliste": 4,
        "griffon": 4,
        "catapulte": 4,
        "chevalier": 4,
        "eclaireur": 4,
        "epee-runique": 2,
    },
)
HORDE = deck_code(
    "brenna",
    {
        "recrue": 4,
        "berserker": 4,
        "pillard": 4,
        "tambour": 4,
        "zelote": 4,
        "cavalier": 4,
        "chef-de-horde": 4,
        "milicien": 4,
        "fantassin": 4,
        "fanatique": 4,
        "chevalier": 4,
        "catapulte": 4,
        "rage": 2,
    },
)
EXTRA = {"general": "", "vp": "", "faith": "vp_to_win=999", "gold": ""}


def _cost(state: State, text: str) -> int:
    return card_of(state, text.split()[1]).gold


def choose(state: State, seat: int, kind: str, goal: str) -> str:
    """The policy: one legal action's notation."""
    options = sorted(g.format_action(a) for a in g.legal_actions(state, seat))
    assert options, (seat, kind)
    if kind in ("discard", "loyalty"):
        return options[0]
    if kind in ("react", "reclaim"):
        return "pass"
    if goal == "gold":
        return "next"
    if kind == "placement":
        units = [
            o
            for o in options
            if o.startswith("play ") and card_of(state, o.split()[1]).type == "unite"
        ]
        if not units:
            return "next"
        front = [o for o in units if o.split()[2].startswith("f")] or units
        return max(front, key=lambda o: (_cost(state, o), o))
    attacks = [o for o in options if o.startswith("attack ") and ":" not in o]
    if goal != "general":  # units only, and generals (at a3) never attack
        attacks = [o for o in attacks if not o.endswith("a3") and o.split()[1] != "a3"]
    return attacks[0] if attacks else "next"


def play_match(seats: int, goal: str, seed: int) -> tuple[State, list]:
    decks = "/".join([KNIGHTS, HORDE, KNIGHTS][:seats])
    state = g.setup(g.options(f"decks={decks} {EXTRA[goal]}".strip()), seats, seed)
    for seat, code in enumerate([KNIGHTS, HORDE, KNIGHTS][:seats]):
        general, counts = parse_deck_code(code)
        assert state.players[seat].general == general
        assert Counter(state.players[seat].decklist) == Counter(dict(counts))
    events: list = []
    for _ in range(3000):
        if g.outcome(state) is not None:
            return state, events
        pending = g.pending(state)
        assert len(pending) == 1
        seat, decision = next(iter(pending.items()))
        text = choose(state, seat, decision.kind, goal)
        state, evs = g.apply_text(state, seat, text)
        events += evs
    raise AssertionError("the match did not end")


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("seats", [2, 3])
@pytest.mark.parametrize("goal", ["general", "faith", "vp", "gold"])
def test_a_built_deck_match_plays_to_each_victory(goal: str, seats: int, seed: int) -> None:
    state, events = play_match(seats, goal, seed)
    outcome = g.outcome(state)
    assert outcome is not None and outcome.reason == goal
    winner = outcome.ranking[0][0]
    player = state.players[winner]
    over = all_of(events, "game-over")
    assert len(over) == 1 and over[0].data["winner"] == winner and events[-1].kind == "game-over"
    if goal == "general":
        killed = [e for e in all_of(events, "kill") if e.data["card"] in ("aldric", "brenna")]
        assert killed and killed[-1].data["seat"] == winner
        victim = killed[-1].data["owner"]
        assert not any(
            p is not None and p.general for row in state.players[victim].lines for p in row
        )
        assert outcome.ranking[-1] == (victim,)
    elif goal == "faith":
        assert player.faith >= 20 and all(p.vp < 999 for p in state.players)
        assert (
            sum(e.data["amount"] for e in all_of(events, "faith") if e.data["seat"] == winner) >= 20
        )
    elif goal == "vp":
        assert player.vp >= 40
        assert all(p.faith < 20 and p.gold < 60 for p in state.players)
    else:
        assert player.gold >= 60 and winner == 0  # the first seat gets there first
        assert all(e.kind != "attack" for e in events)
    # the match is a real one: every seat had turns, the first round had no combat
    turns = [e.data["seat"] for e in all_of(events, "turn")]
    assert set(turns) == set(range(seats)) and len(turns) > seats
    first_attack = next((i for i, e in enumerate(events) if e.kind == "attack"), None)
    if first_attack is not None:
        turn_events = [i for i, e in enumerate(events) if e.kind == "turn"]
        assert first_attack > turn_events[seats - 1]
