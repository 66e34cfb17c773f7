"""Hand-made Battalia views for the render tests: 2, 3 and 4 seats, Buff
on the board, hired, bribed, absent or off, a battle, an auction, the end of
the game, a full hand."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from engine.games.battalia.model import (
    AuctionView,
    BattleView,
    Breakdown,
    BuffView,
    HeroView,
    MarketView,
    Placing,
    PlayerView,
    Rules,
    TileView,
    View,
)

NAMES = ("Alice", "Bruno", "Chloé", "Dmitri")
COLS = "abcdefg"
ILLUMINATED = ("O", "A", "M", "T", "R", "E", "C")
MATCHING = ("O", "R", "A", "E", "M", "C", "T")
BASE = {"D": 1, "I": 5, "L": 3, "T": 7, "X": 15}


def exits(layout: str, rotation: int) -> int:
    mask = BASE[layout]
    for _ in range(rotation % 4):
        mask = ((mask << 1) | (mask >> 3)) & 15
    return mask


def tile(
    square: str,
    kind: str,
    layout: str,
    rotation: int,
    terrain: str,
    level: int = 0,
    owner: int | None = None,
) -> TileView:
    return TileView(square, kind, layout, rotation, exits(layout, rotation), terrain, level, owner)


def area(seats: int) -> tuple[str, ...]:
    if seats == 2:
        return tuple(f"{c}{r}" for r in range(2, 7) for c in COLS[1:6])
    return tuple(f"{c}{r}" for r in range(1, 8) for c in COLS)


def buff(
    square: str | None = None,
    horde: int = 6,
    owner: int | None = None,
    hire_until: int | None = None,
    bribes: tuple[tuple[int, int], ...] = (),
    absent: bool = False,
    entered: bool = False,
) -> BuffView:
    return BuffView(square, horde, owner, hire_until, bribes, absent, entered)


def player(
    seat: int,
    faction: str,
    vp: int = 0,
    cities: int = 1,
    level4: int = 0,
    hand_count: int = 6,
    deck_count: int = 4,
    discard_count: int = 0,
    heroes_in_supply: int = 2,
    tent_count: int = 0,
    marker: tuple[str, int] | None = None,
) -> PlayerView:
    return PlayerView(
        seat,
        faction,
        vp,
        cities,
        level4,
        hand_count,
        deck_count,
        discard_count,
        heroes_in_supply,
        tent_count,
        marker,
    )


def view(**kw: object) -> View:
    """A view with every field; ``kw`` fills or overrides them."""
    base: dict[str, object] = dict(
        observer=None,
        seats=4,
        factions=(),
        phase="turn",
        active=0,
        day=1,
        week=1,
        day_of_week=0,
        illuminated="O",
        matching="O",
        area=area(4),
        starts=(),
        tiles=(),
        heroes=(),
        buff=buff(),
        players=(),
        market=market(),
        hand=(),
        tent=(),
        deck_contents=(),
        battle=None,
        auction=None,
        roll=None,
        placing=None,
        pending=(),
        winner=None,
        ranking=(),
        rules=Rules(),
    )
    base.update(kw)
    return View(**base)  # type: ignore[arg-type]


def market(**kw: object) -> MarketView:
    base = MarketView(
        stacks=(
            ("1", 14),
            ("2", 16),
            ("3", 12),
            ("4", 11),
            ("m", 6),
            ("O", 9),
            ("A", 7),
            ("M", 12),
            ("T", 10),
            ("R", 11),
            ("E", 12),
            ("C", 8),
        ),
        matching_factions=("u", "i", "n"),
        roads=(("I", 9), ("L", 7), ("T", 10), ("X", 11)),
        cities=(("D", 4), ("I", 5), ("L", 6), ("T", 3), ("X", 6)),
        provisions=41,
        great_artefacts=("G1", "G3", "G4"),
        ambush=2,
    )
    return dataclasses.replace(base, **kw)  # type: ignore[arg-type]


def four_seats(**kw: object) -> View:
    factions = ("u", "i", "a", "n")
    tiles = (
        tile("a1", "start", "L", 1, "foret", 2, 0),
        tile("g1", "start", "L", 2, "lac", 1, 1),
        tile("g7", "start", "L", 3, "desert", 3, 2),
        tile("a7", "start", "L", 0, "montagne", 1, 3),
        tile("d1", "neutral", "T", 1, "plaine", 4, None),
        tile("g4", "neutral", "T", 2, "plaine", 4, 1),
        tile("d7", "neutral", "T", 3, "plaine", 4, None),
        tile("a4", "neutral", "T", 0, "plaine", 4, None),
        tile("d4", "ruins", "X", 0, "plaine"),
        tile("b1", "road", "I", 1, "foret"),
        tile("c1", "road", "I", 1, "plaine"),
        tile("a2", "road", "I", 0, "foret"),
        tile("a3", "road", "I", 0, "montagne"),
        tile("b2", "city", "X", 0, "foret", 2, 0),
        tile("c2", "road", "L", 2, "lac"),
        tile("c3", "road", "T", 2, "lac"),
        tile("d3", "road", "I", 1, "desert"),
        tile("e3", "road", "X", 0, "lac"),
        tile("e2", "city", "D", 2, "lac", 3, 1),
        tile("f1", "road", "I", 1, "lac"),
        tile("g2", "road", "I", 0, "lac"),
        tile("g3", "road", "I", 0, "montagne"),
        tile("f4", "road", "L", 3, "desert"),
        tile("f3", "road", "I", 0, "desert"),
        tile("g6", "road", "I", 0, "desert"),
        tile("f7", "road", "I", 1, "desert"),
        tile("e7", "city", "I", 1, "desert", 1, 2),
        tile("a6", "road", "I", 0, "montagne"),
        tile("b7", "road", "I", 1, "montagne"),
        tile("c4", "road", "I", 1, "foret"),
        tile("b4", "road", "I", 1, "montagne"),
        tile("d5", "road", "I", 0, "plaine"),
        tile("d6", "city", "I", 0, "montagne", 4, 3),
    )
    heroes = (
        HeroView(0, 1, "c3"),
        HeroView(0, 2, "b2"),
        HeroView(1, 1, "e3"),
        HeroView(2, 1, "f4"),
        HeroView(3, 1, "d5"),
        HeroView(3, 2, "d5"),
    )
    players = (
        player(
            0,
            "u",
            vp=4,
            cities=2,
            level4=0,
            hand_count=6,
            deck_count=9,
            discard_count=4,
            heroes_in_supply=0,
            tent_count=1,
            marker=("bribe", 12),
        ),
        player(
            1,
            "i",
            vp=8,
            cities=3,
            level4=1,
            hand_count=6,
            deck_count=3,
            discard_count=11,
            heroes_in_supply=1,
        ),
        player(
            2,
            "a",
            vp=4,
            cities=2,
            level4=0,
            hand_count=5,
            deck_count=12,
            discard_count=0,
            heroes_in_supply=1,
        ),
        player(
            3,
            "n",
            vp=5,
            cities=2,
            level4=1,
            hand_count=6,
            deck_count=7,
            discard_count=6,
            heroes_in_supply=0,
        ),
    )
    v = view(
        observer=None,
        seats=4,
        factions=factions,
        phase="turn",
        active=1,
        day=10,
        week=2,
        day_of_week=2,
        illuminated=ILLUMINATED[2],
        matching=MATCHING[2],
        area=area(4),
        starts=("a1", "g1", "g7", "a7"),
        tiles=tiles,
        heroes=heroes,
        buff=buff(square="e3", horde=6, owner=None, bribes=((0, 12),), entered=True),
        players=players,
        market=market(),
        roll=4,
        pending=((1, "turn"),),
    )
    return dataclasses.replace(v, **kw)  # type: ignore[arg-type]


def two_seats(**kw: object) -> View:
    tiles = (
        tile("b2", "start", "L", 1, "lac", 1, 0),
        tile("f6", "start", "L", 3, "foret", 1, 1),
        tile("f2", "neutral", "T", 2, "plaine", 4, None),
        tile("b6", "neutral", "T", 0, "plaine", 4, None),
        tile("d4", "ruins", "X", 0, "plaine"),
        tile("c2", "road", "I", 1, "lac"),
        tile("b3", "road", "L", 0, "lac"),
        tile("c3", "city", "L", 3, "foret", 1, 0),
    )
    v = view(
        observer=None,
        seats=2,
        factions=("i", "u"),
        phase="turn",
        active=0,
        day=3,
        week=1,
        day_of_week=2,
        illuminated="M",
        matching="A",
        area=area(2),
        starts=("b2", "f6"),
        tiles=tiles,
        heroes=(HeroView(0, 1, "c2"),),
        buff=buff(horde=6),
        players=(
            player(0, "i", vp=2, cities=2, heroes_in_supply=1),
            player(1, "u", vp=1, cities=1, heroes_in_supply=2),
        ),
        market=market(great_artefacts=("G2", "G5")),
        pending=((0, "place"),),
        placing=Placing(0, "road", "T", "lac"),
    )
    return dataclasses.replace(v, **kw)  # type: ignore[arg-type]


def three_seats(**kw: object) -> View:
    v = four_seats()
    tiles = tuple(t for t in v.tiles if t.square != "a7" and t.owner != 3)
    v = dataclasses.replace(
        v,
        seats=3,
        factions=("u", "i", "a"),
        starts=("a1", "g1", "g7"),
        tiles=tiles,
        heroes=tuple(h for h in v.heroes if h.seat != 3),
        players=v.players[:3],
        buff=buff(square="c3", horde=8, owner=0, hire_until=18, bribes=((2, 16),), entered=True),
        day=15,
        week=3,
        day_of_week=0,
        illuminated="O",
        matching="O",
        roll=None,
    )
    players = list(v.players)
    players[0] = dataclasses.replace(players[0], marker=("hire", 18))
    v = dataclasses.replace(v, players=tuple(players))
    return dataclasses.replace(v, **kw)  # type: ignore[arg-type]


def _merged(defaults: dict[str, object], kw: dict[str, object]) -> dict[str, object]:
    out = dict(defaults)
    out.update(kw)
    return out


def battle(**kw: object) -> View:
    atk_cards = ("Au", "3u", "2u", "2m", "T>2u")
    dfd_cards = ("Ai", "4i", "M>4i")
    atk = Breakdown(atk_cards, base=10, morale=1, terrain=1, total=12)
    dfd = Breakdown(dfd_cards, base=7, morale=1, level=3, rolls=(("4i", 2),), total=11)
    b = BattleView(
        0, "h1", "e2", "e2", atk_cards, dfd_cards, atk, dfd, 12, 11, "attacker", "city", 1
    )
    return four_seats(**_merged({"battle": b, "pending": ((0, "turn"),), "active": 0}, kw))


def buff_battle(**kw: object) -> View:
    atk = Breakdown((), level=10, total=10)
    b = BattleView(None, "buff", "2h1", "e3", (), None, atk, None, 10, None, "", "hero", 1)
    defaults = {
        "battle": b,
        "pending": ((1, "buff-answer"),),  # the engine's decision kind
        "buff": buff(square="e3", horde=10, entered=True),
    }
    return four_seats(**_merged(defaults, kw))


def auction(**kw: object) -> View:
    a = AuctionView(bidders=(2,), bids=(), winner=None)
    defaults = {
        "auction": a,
        "buff": buff(horde=6, entered=False),
        "day": 8,
        "week": 2,
        "day_of_week": 0,
        "pending": ((2, "bid"),),
        "players": tuple(dataclasses.replace(p, marker=None) for p in three_seats().players),
    }
    return three_seats(**_merged(defaults, kw))


def auction_revealed(**kw: object) -> View:
    a = AuctionView(
        bidders=(),
        bids=((0, ("3u", "Au"), 4), (1, ("4i",), 4), (2, ("2a", "2m", "1a"), 5)),
        winner=2,
    )
    return auction(**_merged({"auction": a, "pending": ((2, "enter"),)}, kw))


def over(**kw: object) -> View:
    """Bruno won; Chloé had resigned."""
    players = tuple(dataclasses.replace(p, resigned=p.seat == 2) for p in four_seats().players)
    kw = _merged({"players": players}, kw)
    return four_seats(
        **_merged(
            {"phase": "over", "winner": 1, "ranking": ((1,), (3,), (0, 2)), "pending": ()}, kw
        )
    )


def buff_absent(**kw: object) -> View:
    return four_seats(
        **_merged({"buff": buff(horde=8, absent=True, entered=True), "roll": None}, kw)
    )


def buff_disabled(**kw: object) -> View:
    return two_seats(**_merged({"rules": Rules(buff=False)}, kw))


def setup(**kw: object) -> View:
    """Set-up: two seats have chosen their faction, nobody a start square."""
    tiles = tuple(t for t in four_seats().tiles if t.kind in ("neutral", "ruins"))
    tiles = tuple(dataclasses.replace(t, owner=None) for t in tiles)
    defaults = {
        "factions": ("u", "i", "", ""),
        "phase": "start",
        "day": 1,
        "week": 1,
        "day_of_week": 0,
        "tiles": tiles,
        "heroes": (),
        "buff": buff(),
        "roll": None,
        "active": 3,
        "pending": ((3, "start"),),
        "players": tuple(
            player(s, f, vp=0, cities=0, hand_count=0, deck_count=10)
            for s, f in enumerate(("u", "i", "", ""))
        ),
    }
    return four_seats(**_merged(defaults, kw))


FULL_HAND = (
    "1u",
    "1u",
    "1i",
    "2u",
    "2m",
    "3u",
    "4a",
    "P",
    "P",
    "P",
    "Au",
    "Cu",
    "Mi",
    "Tu",
    "Ru",
    "Eu",
    "Ou",
    "G2",
)

SCENARIOS: dict[str, Callable[[], View]] = {
    "four-seats": four_seats,
    "three-seats-hired": three_seats,
    "two-seats-placing": two_seats,
    "battle": battle,
    "buff-battle": buff_battle,
    "auction": auction,
    "auction-revealed": auction_revealed,
    "over": over,
    "buff-absent": buff_absent,
    "buff-disabled": buff_disabled,
    "setup": setup,
}


def observed(v: View, seat: int | None, hand: tuple[str, ...] = FULL_HAND) -> View:
    """``v`` seen by ``seat`` (its hand, tent and deck), or by a spectator."""
    if seat is None:
        return dataclasses.replace(v, observer=None, hand=(), tent=(), deck_contents=())
    return dataclasses.replace(
        v,
        observer=seat,
        hand=tuple(sorted(hand)),
        tent=("3u",),
        deck_contents=("1u", "1u", "2i", "P", "P", "P", "P"),
    )
