"""Hand-made Chroniques de Liber views for the renderer tests (and for
looking at the images by hand: ``python -m tests.render.test_liber_render OUTDIR``).

The views are built directly (not played), so that every status, a combat,
each window and the end of the game are drawn whatever the engine does."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from engine.games.liber.data import card
from engine.games.liber.model import CombatView, PieceView, SideView, View

NAMES = ("Alice", "Bérénice de la Tour-d'Auvergne 🐉🎲", "Chloé", "Dmitri")


def piece(card_id: str, owner: int, place: str, **changes: Any) -> PieceView:
    """A piece with the card's printed force, PV and keywords (fixtures for
    places, enchantments and favours), ready to act unless ``changes`` say."""
    spec = card(card_id)
    fighter = spec.type in ("unite", "token", "general")
    base = PieceView(
        uid=abs(hash((card_id, owner, place))) % 10_000,
        card=card_id,
        owner=owner,
        place=place,
        fixture=not fighter,
        general=spec.type == "general",
        force=spec.force or 0,
        pv=spec.pv or 0,
        damage=0,
        sick=False,
        poisoned=False,
        paralysed=False,
        countered=False,
        attacks=0,
        equipment=(),
        keywords=tuple(k.id for k in spec.keywords),
    )
    return dataclasses.replace(base, **changes)


def side(seat: int, general: str, pieces: list[PieceView], **changes: Any) -> SideView:
    base = SideView(
        seat=seat,
        deck_name="starter",
        general=general,
        pieces=(piece(general, seat, "a3"), *pieces),
        god="",
        gold=0,
        faith=0,
        vp=0,
        reserves=1,
        income=5,
        hand_count=7,
        deck_count=43,
        graveyard=(),
        out=False,
    )
    return dataclasses.replace(base, **changes)


def view(sides: list[SideView], **changes: Any) -> View:
    base = View(
        observer=None,
        turn=1,
        active=0,
        phase="placement",
        first_round=False,
        sides=tuple(sides),
        hand=None,
        pending=((0, "play"),),
        window="",
        combat=None,
        choices=(),
        ranking=(),
        end_reason="",
        hand_limit=7,
        faith_to_win=20,
        vp_to_win=40,
        gold_to_win=60,
    )
    return dataclasses.replace(base, **changes)


def observed(
    v: View, seat: int | None, hand: tuple[str, ...] = (), choices: tuple[str, ...] = ()
) -> View:
    """``v`` as ``seat`` sees it (its hand and choices; a spectator has none)."""
    if seat is None:
        return dataclasses.replace(v, observer=None, hand=None, choices=())
    return dataclasses.replace(v, observer=seat, hand=hand, choices=choices)


def start() -> View:
    """The first player's first turn: generals alone, a few units placed."""
    return view(
        [
            side(
                0,
                "aldric",
                [piece("paysan", 0, "p1", sick=True), piece("archer", 0, "a2", sick=True)],
                gold=5,
                hand_count=5,
                deck_count=42,
            ),
            side(1, "ysolde", [], hand_count=7, deck_count=43),
        ],
        turn=1,
        first_round=True,
    )


def statuses() -> View:
    """Every status, equipment, fixtures, gods, damage, bonuses."""
    a = [
        piece("mine-d-or", 0, "p1"),
        piece("benediction", 0, "p2"),
        piece("faveur-de-la-guerre", 0, "p3"),
        piece("squelette", 0, "p4", sick=True),
        piece("paysan", 0, "p5"),
        piece("archer", 0, "a1", equipment=("epee-runique",), force=4),
        piece("empoisonneuse", 0, "a2", poisoned=True, damage=1),
        piece("pretre", 0, "a4", countered=True),
        piece("porte-bouclier", 0, "f2", damage=2, pv=7),
        piece("chevalier", 0, "f3", attacks=1, equipment=("epee-runique", "epee-runique"), force=9),
        piece(
            "sorciere-du-givre",
            0,
            "f4",
            paralysed=True,
            poisoned=True,
            countered=True,
            sick=True,
            attacks=1,
        ),
    ]
    b = [
        piece("autel", 1, "p1"),
        piece("necromancien", 1, "a1"),
        piece("catapulte", 1, "p3"),
        piece("griffon", 1, "f1", damage=4),
        piece("assassin", 1, "f3", sick=True),
        piece("mage-de-guerre", 1, "a5", paralysed=True),
    ]
    return view(
        [
            side(
                0,
                "aldric",
                a,
                god="dieu-de-la-guerre",
                gold=23,
                income=11,
                faith=12,
                vp=27,
                reserves=2,
                hand_count=3,
                deck_count=21,
                graveyard=("milicien", "eclair"),
            ),
            side(
                1,
                "ysolde",
                b,
                gold=4,
                faith=3,
                vp=31,
                hand_count=9,
                deck_count=19,
                graveyard=("fantassin",) * 5,
            ),
        ],
        turn=14,
        active=1,
        phase="attack",
        pending=((1, "play"),),
    )


def attack_window() -> View:
    """Seat 0's Chevalier attacks seat 1's Griffon; seat 1 may react."""
    v = statuses()
    return dataclasses.replace(
        v,
        active=0,
        turn=15,
        window="attack",
        pending=((1, "react"),),
        combat=CombatView(seat=0, attacker="f3", targets=((1, "f1", 0),), blocker=""),
    )


def blocked() -> View:
    v = attack_window()
    assert v.combat is not None
    return dataclasses.replace(
        v, combat=dataclasses.replace(v.combat, blocker="f3"), pending=((0, "play"),), window=""
    )


def honour() -> View:
    """Honneur du guerrier: two targets, the damage split."""
    v = attack_window()
    return dataclasses.replace(
        v,
        combat=CombatView(seat=0, attacker="f3", targets=((1, "f1", 5), (1, "f3", 4)), blocker=""),
    )


def four_players() -> View:
    sides = [
        side(0, "aldric", [piece("archer", 0, "a1"), piece("fantassin", 0, "f3")], gold=12, vp=8),
        side(
            1, "ysolde", [piece("catapulte", 1, "p2"), piece("griffon", 1, "f5", damage=2)], faith=6
        ),
        side(
            2,
            "aldric",
            [piece("mine-d-or", 2, "p1"), piece("sergent", 2, "f2")],
            gold=31,
            income=10,
        ),
        side(3, "ysolde", [], out=True, hand_count=0, deck_count=30),
    ]
    sides[3] = dataclasses.replace(sides[3], pieces=())
    return view(
        sides,
        turn=22,
        active=2,
        phase="attack",
        window="end-attack",
        pending=((0, "react"),),
        combat=CombatView(seat=2, attacker="f2", targets=((1, "f5", 0),), blocker=""),
    )


def three_players() -> View:
    sides = [
        side(0, "aldric", [piece("duelliste", 0, "f1")]),
        side(1, "ysolde", [piece("spectre", 1, "f1")], god="dieu-de-la-guerre"),
        side(2, "aldric", [piece("mentaliste", 2, "a2"), piece("capitaine", 2, "f4")]),
    ]
    return view(sides, turn=9, active=1, phase="end", pending=((1, "discard"),))


def over() -> View:
    v = statuses()
    sides = list(v.sides)
    general = piece("ysolde", 1, "a3", damage=18)
    sides[1] = dataclasses.replace(sides[1], pieces=(general, *sides[1].pieces[1:]), out=True)
    return dataclasses.replace(
        v, sides=tuple(sides), phase="over", pending=(), ranking=((0,), (1,)), end_reason="general"
    )


FULL_HAND = (
    "dieu-de-la-guerre",
    "necromancien",
    "chevalier",
    "benediction",
    "eclair",
    "mine-d-or",
    "epee-runique",
    "autel",
    "milicien",
    "empoisonneuse",
)

SCENARIOS: dict[str, Callable[[], View]] = {
    "start": start,
    "statuses": statuses,
    "attack-window": attack_window,
    "blocked": blocked,
    "honour": honour,
    "three-players": three_players,
    "four-players": four_players,
    "over": over,
}
