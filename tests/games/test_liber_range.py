"""Chroniques de Liber (seed 002): range, the nine cases of the three tables
taken literally (ruling L4), each both ways: as the case of an attack, and
as the case of a riposte (« l'attaque ou la riposte »), with the condition
of the case broken; the cases that must be refused; and in 3-4 players,
range judged against the lines of the enemy attacked.

The quoted sentences are the seed's (in French). Seat 0 attacks unless the
test says otherwise; ``mine``/``theirs`` are the attacker's and the
defender's pieces; generals stay at ``a3`` unless removed (``None``).

« Combat : La notion de combat est cruciale pour déterminer si une unité
peut attaquer ou être attaquée. Les différents cas sont définis comme
suit : »
"""

from __future__ import annotations

import pytest

from engine.errors import IllegalAction
from tests.games.liber_helpers import (
    act_as,
    at,
    g,
    legal,
    pass_all,
    refused,
    scenario,
)

MELEE = "fantassin"  # 3/4
TIR = "archer"  # 2/3
ART = "catapulte"  # 5/4
STURDY = "hallebardier"  # 3/6, melee (Loyauté, Regroupement: alone on its line here)


def _state(mine, theirs, seat=0, seats=2, target_seat=None, generals=True):
    boards = [dict[str, str]() for _ in range(seats)]
    boards[seat] = mine
    boards[target_seat if target_seat is not None else 1 - seat] = theirs
    return scenario(
        seats=seats,
        board=tuple(boards),
        hands=("",) * seats,
        generals=None if generals else (None,) * seats,
        active=seat,
        phase="attack",
    )


def can_attack(mine, theirs, a_at, t_at, seat=0, **kw) -> bool:
    target_seat = kw.get("target_seat", 1 - seat)
    state = _state(mine, theirs, seat, **kw)
    return f"attack {a_at} {target_seat + 1}{t_at}" in legal(state, seat)


def riposte(mine, theirs, a_at, t_at, seat=0) -> int:
    """Attack ``t_at`` from ``a_at`` (the attack must be legal) and return
    the damage the defender struck back with (0: no riposte)."""
    state = _state(mine, theirs, seat, generals=False)
    text = f"attack {a_at} {2 - seat}{t_at}"
    assert text in legal(state, seat), text
    state, events = act_as(state, seat, text)
    state, more = pass_all(state)
    back = [e for e in events + more if e.kind == "strike" and e.data["owner"] == seat]
    return sum(e.data["damage"] for e in back)


SEATS = pytest.mark.parametrize("seat", [0, 1])

# ---- Corps à corps ---------------------------------------------------------------------------


@SEATS
def test_melee_case_1_attack_and_riposte(seat: int) -> None:
    """« Cas 1 : Votre unité est sur la ligne de front, l'unité ennemie est
    également sur la ligne de front. »"""
    assert can_attack({"f1": MELEE}, {"f4": STURDY}, "f1", "f4", seat)
    assert riposte({"f1": MELEE}, {"f4": STURDY}, "f1", "f4", seat) == 3


@SEATS
def test_melee_case_2_attack_and_riposte(seat: int) -> None:
    """« Cas 2 : Votre unité est sur la ligne de front, l'unité ennemie est sur
    la ligne arrière, et aucune unité ennemie sur la ligne de front. »"""
    assert can_attack({"f1": MELEE}, {"a2": STURDY}, "f1", "a2", seat)
    assert not can_attack({"f1": MELEE}, {"a2": STURDY, "f5": "paysan"}, "f1", "a2", seat)
    # riposte by case 2: a front unit strikes back at the archer that shot it
    # from the back line, while the archer's side has no unit on its front
    assert riposte({"a1": TIR}, {"f2": STURDY}, "a1", "f2", seat) == 3
    assert riposte({"a1": TIR, "f5": "paysan"}, {"f2": STURDY}, "a1", "f2", seat) == 0


@SEATS
def test_melee_case_3_attack_and_riposte(seat: int) -> None:
    """« Cas 3 : Votre unité est sur la ligne arrière, l'unité ennemie est sur
    la ligne de front, et aucune unité alliée sur votre ligne de front. »"""
    assert can_attack({"a1": MELEE}, {"f2": STURDY}, "a1", "f2", seat)
    assert not can_attack({"a1": MELEE, "f5": "paysan"}, {"f2": STURDY}, "a1", "f2", seat)
    # riposte by case 3: a back-line unit strikes back at the archer of the
    # front that shot it, while its own front is empty
    assert riposte({"f1": TIR}, {"a2": STURDY}, "f1", "a2", seat) == 3
    assert riposte({"f1": TIR}, {"a2": STURDY, "f5": "paysan"}, "f1", "a2", seat) == 0


@SEATS
def test_melee_case_4_attack_and_riposte(seat: int) -> None:
    """« Cas 4 : Votre unité est sur la ligne arrière, l'unité ennemie est sur
    la ligne arrière, et aucune unité sur les lignes de front. »"""
    assert can_attack({"a1": MELEE}, {"a2": STURDY}, "a1", "a2", seat)
    assert not can_attack({"a1": MELEE, "f5": "paysan"}, {"a2": STURDY}, "a1", "a2", seat)
    assert not can_attack({"a1": MELEE}, {"a2": STURDY, "f5": "paysan"}, "a1", "a2", seat)
    # riposte by case 4: a catapult of the back line shoots a back-line unit
    # (its case 2); the unit strikes back only while both fronts are empty
    assert riposte({"a1": ART}, {"a2": STURDY}, "a1", "a2", seat) == 3
    assert riposte({"a1": ART, "f5": "paysan"}, {"a2": STURDY}, "a1", "a2", seat) == 0


@SEATS
@pytest.mark.parametrize(
    ("a_at", "t_at"),
    [("p1", "f1"), ("p1", "a1"), ("p1", "p1"), ("f1", "p1"), ("a1", "p1")],
)
def test_melee_every_other_case_is_refused(seat: int, a_at: str, t_at: str) -> None:
    """« Dans tous les autres cas, l'attaque ou la riposte est impossible. »
    (the plaine neither strikes nor is struck in melee)"""
    assert not can_attack({a_at: MELEE}, {t_at: STURDY}, a_at, t_at, seat, generals=False)


@SEATS
def test_melee_riposte_refused_from_the_plaine(seat: int) -> None:
    """« ... l'attaque ou la riposte est impossible »: a melee unit on the
    plaine struck by a catapult of the front does not strike back."""
    assert riposte({"f1": ART}, {"p2": STURDY}, "f1", "p2", seat) == 0


# ---- Tir -------------------------------------------------------------------------------------


@SEATS
def test_tir_case_1_attack_and_riposte(seat: int) -> None:
    """« Cas 1 : Votre unité avec le tir est sur la ligne arrière, l'unité
    ennemie est sur la ligne de front. »"""
    assert can_attack({"a1": TIR, "f5": "paysan"}, {"f2": STURDY}, "a1", "f2", seat)
    # riposte by Tir case 1: an archer of the back line strikes back at the
    # front unit that attacked it (even with a unit on its own front)
    assert riposte({"f1": TIR}, {"a2": TIR, "f5": "paysan"}, "f1", "a2", seat) == 2


@SEATS
def test_tir_case_2_attack_and_riposte(seat: int) -> None:
    """« Cas 2 : Votre unité est sur la ligne de front, l'unité ennemie est sur
    la ligne arrière ou sur la ligne de front. »"""
    assert can_attack({"f1": TIR}, {"f2": STURDY}, "f1", "f2", seat)
    assert can_attack({"f1": TIR}, {"a2": STURDY, "f5": "paysan"}, "f1", "a2", seat)
    # riposte by Tir case 2: an archer of the front strikes back at a unit
    # of the back line (an archer that shot it) and of the front
    assert riposte({"a1": TIR}, {"f2": TIR}, "a1", "f2", seat) == 2
    assert riposte({"f1": MELEE}, {"f2": TIR}, "f1", "f2", seat) == 2


@SEATS
@pytest.mark.parametrize(
    ("a_at", "t_at"),
    [("a1", "a1"), ("a1", "p1"), ("p1", "f1"), ("p1", "a1"), ("p1", "p1"), ("f1", "p1")],
)
def test_tir_every_other_case_is_refused(seat: int, a_at: str, t_at: str) -> None:
    """« Pour tous les autres cas, l'attaque ou la riposte est impossible. »"""
    assert not can_attack({a_at: TIR}, {t_at: STURDY}, a_at, t_at, seat, generals=False)


@SEATS
def test_tir_riposte_refused_back_line_to_back_line(seat: int) -> None:
    """A catapult of the back line shoots an archer of the back line: Tir
    has no case from the back line to the back line, no riposte."""
    assert riposte({"a1": ART}, {"a2": TIR}, "a1", "a2", seat) == 0


# ---- Artillerie ------------------------------------------------------------------------------


@SEATS
def test_artillerie_case_1_attack_and_riposte(seat: int) -> None:
    """« Cas 1 : Votre unité est sur la ligne de plaine, l'unité ennemie est
    sur la ligne de front. »"""
    assert can_attack({"p1": ART}, {"f2": STURDY, "a1": "paysan"}, "p1", "f2", seat)
    # riposte by case 1: a catapult of the plaine strikes back at the
    # catapult of the front that shot it (its case 3)
    assert riposte({"f1": "trebuchet"}, {"p2": ART}, "f1", "p2", seat) == 5


@SEATS
def test_artillerie_case_2_attack_and_riposte(seat: int) -> None:
    """« Cas 2 : Votre unité est sur la ligne arrière, l'unité ennemie est sur
    la ligne arrière, et aucune unité ennemie sur la ligne de front. »"""
    assert can_attack({"a1": ART, "f5": "paysan"}, {"a2": STURDY}, "a1", "a2", seat)
    assert not can_attack({"a1": ART}, {"a2": STURDY, "f5": "paysan"}, "a1", "a2", seat)
    # riposte by case 2: the catapult attacked on the back line strikes back
    # while the attacker's front is empty
    assert riposte({"a1": "trebuchet"}, {"a2": ART}, "a1", "a2", seat) == 5
    assert riposte({"a1": "trebuchet", "f5": "paysan"}, {"a2": ART}, "a1", "a2", seat) == 0


@SEATS
@pytest.mark.parametrize("t_at", ["p2", "a2", "f2"])
def test_artillerie_case_3_attack_and_riposte(seat: int, t_at: str) -> None:
    """« Cas 3 : Votre unité est sur la ligne de front, l'unité ennemie est sur
    n'importe quelle ligne. »"""
    assert can_attack({"f1": ART}, {t_at: STURDY, "f5": "paysan"}, "f1", t_at, seat)
    # riposte by case 3: a catapult of the front strikes back at the plaine
    assert riposte({"p1": "trebuchet"}, {"f2": ART}, "p1", "f2", seat) == 5


@SEATS
@pytest.mark.parametrize(("a_at", "t_at"), [("a1", "f1"), ("a1", "p1"), ("p1", "a1"), ("p1", "p1")])
def test_artillerie_every_other_case_is_refused(seat: int, a_at: str, t_at: str) -> None:
    """« Pour tous les autres cas, l'attaque ou la riposte est impossible. »
    (L4: « artillery in the back line cannot hit the enemy front »)"""
    assert not can_attack({a_at: ART}, {t_at: STURDY}, a_at, t_at, seat, generals=False)


@SEATS
def test_artillerie_riposte_refused_back_line_to_front(seat: int) -> None:
    """A catapult of the back line struck by an archer of the front cannot
    strike back (back line → front is no Artillerie case)."""
    assert riposte({"f1": TIR}, {"a2": ART, "f5": "paysan"}, "f1", "a2", seat) == 0


def test_out_of_range_is_refused_with_its_reason_in_both_languages() -> None:
    state = _state({"a1": MELEE, "f5": "paysan"}, {"f2": STURDY})
    refused(state, "attack a1 2f2", error=IllegalAction, match="range")


# ---- The general follows the same tables -----------------------------------------------------


def test_the_general_attacks_by_the_melee_table() -> None:
    """« Annoncez les attaques ... ciblant les généraux adverses ou les
    troupes »: Aldric at a3 strikes the enemy front by melee case 3 while
    his own front is empty, and their general by case 4."""
    state = _state({}, {"f2": STURDY})
    assert "attack a3 2f2" in legal(state) and "attack a3 2a3" not in legal(state)
    state = _state({}, {})
    assert "attack a3 2a3" in legal(state)
    state = _state({"f1": "paysan"}, {"f2": STURDY})
    assert not any(t.startswith("attack a3") for t in legal(state))


# ---- 3 and 4 players: range against the lines of the enemy attacked -------------------------


@pytest.mark.parametrize("seats", [3, 4])
def test_multiplayer_range_is_judged_against_the_attacked_enemys_lines(seats: int) -> None:
    """(issue 14) « range is judged between the attacker's lines and that
    enemy's lines »: melee case 2 reaches the back line of an enemy whose
    front is empty, whatever another enemy has on its front."""
    boards = [{} for _ in range(seats)]
    boards[0] = {"f1": MELEE}
    boards[1] = {"f2": "fantassin"}
    boards[seats - 1] = {"a2": "fantassin"}
    state = scenario(seats=seats, board=tuple(boards), hands=("",) * seats, phase="attack")
    options = legal(state)
    last = seats
    assert f"attack f1 {last}a2" in options and f"attack f1 {last}a3" in options
    assert "attack f1 2a3" not in options and "attack f1 2f2" in options
    # the attack names its target's seat; the window is that seat's
    state, _ = act_as(state, 0, f"attack f1 {last}a2")
    assert state.combat is None or state.combat.strikes[0].seat == last - 1
    state, _ = pass_all(state)
    assert at(state, f"{last}a2").damage == 3  # type: ignore[union-attr]
    assert at(state, "1f1").damage == 3  # type: ignore[union-attr]  # case 3 back


def test_multiplayer_loyaute_protects_only_its_own_army() -> None:
    """Loyauté « il est impossible à l'adversaire de combattre d'autres troupes
    sur la ligne »: the line of its own battlefield."""
    state = scenario(
        seats=3,
        board=({"f1": TIR}, {"f1": "garde-du-mur", "f2": "sergent"}, {"f2": "sergent"}),
        hands=("", "", ""),
        phase="attack",
    )
    options = legal(state)
    assert "attack f1 2f2" not in options and "attack f1 3f2" in options


def test_multiplayer_no_attack_on_your_own_battlefield() -> None:
    state = scenario(
        seats=3, board=({"f1": MELEE, "f2": STURDY}, {}, {}), hands=("", "", ""), phase="attack"
    )
    refused(state, "attack f1 1f2", error=IllegalAction)
    assert g.pending(state)[0].kind == "attack"


def test_places_enchantments_and_favours_are_never_struck() -> None:
    """Only units and generals fight: a Catapulte of the front (any line)
    has no target among the fixtures of the enemy plaine."""
    state = _state(
        {"f1": ART}, {"p1": "mine-d-or", "p2": "benediction", "p3": "faveur-de-la-guerre"}
    )
    assert {t for t in legal(state) if t.startswith("attack")} == {"attack f1 2a3"}
    refused(state, "attack f1 2p1", error=IllegalAction)
