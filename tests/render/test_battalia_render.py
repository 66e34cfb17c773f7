"""The Battalia renderer: valid, bounded PNGs from hand-made views
(tests/render/battalia_views.py: 2, 3 and 4 seats; Buff on the board,
hired, bribed, absent, not in the game; a battle, Buff's attack, an auction
hidden then revealed, the end of the game, a full hand), the same board for
every observer, the map's colours where the view puts things, the cost
table's "can pay now", and the numbered ghost tiles of a placement.

To look at the images by hand: ``python -m tests.render.test_battalia_render OUTDIR``.
"""

from __future__ import annotations

import dataclasses
import io
import sys
from pathlib import Path

import pytest
from PIL import Image, ImageStat

from engine.games.battalia.model import Rules, View
from render.battalia import render_board, render_private, render_spots
from render.battalia.board import CELL, HEADER_H, cell_box, status_line
from render.battalia.choices import SPOT_COLOURS
from render.battalia.context import context
from render.battalia.panels import buff_lines
from render.battalia.private import can_pay
from render.battalia.style import BUFF, FACTION_COLOURS, MARGIN, OFF_AREA
from tests.i18n import test_pseudo_locale

from .battalia_views import (
    FULL_HAND,
    NAMES,
    SCENARIOS,
    buff,
    four_seats,
    observed,
    over,
    tile,
    two_seats,
)

qps = test_pseudo_locale.qps  # the pseudo-locale fixture

LOCALES = ("en", "fr")
MAX_BYTES = 500 * 1024
PLACES = ("place d2 0", "place d2 1", "place d2 3", "place c4 0", "place b4 2", "place d3 1")


def _check(data: bytes, min_height: int = 150, max_height: int = 2200) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(data) < MAX_BYTES
    img = Image.open(io.BytesIO(data))
    assert img.format == "PNG"
    img.load()
    assert img.width == 1100
    assert min_height <= img.height <= max_height
    assert ImageStat.Stat(img.convert("L")).stddev[0] > 12  # not blank
    return img.convert("RGB")


def _square(img: Image.Image, square: str) -> Image.Image:
    """The board image's crop of one map square."""
    col, row = "abcdefg".index(square[0]), int(square[1]) - 1
    return img.crop(cell_box(MARGIN, HEADER_H, CELL, col, row))


def _count(img: Image.Image, colour: tuple[int, int, int], tolerance: int = 0) -> int:
    colours: list[tuple[int, tuple[int, int, int]]] = img.getcolors(maxcolors=1 << 24) or []  # type: ignore[assignment]
    return sum(
        n
        for n, c in colours
        if all(abs(a - b) <= tolerance for a, b in zip(c, colour, strict=True))
    )


@pytest.mark.parametrize("scenario", sorted(SCENARIOS))
def test_every_view_renders_in_both_locales(scenario: str) -> None:
    v = SCENARIOS[scenario]()
    for locale in LOCALES:
        boards = set()
        for seat in (None, *range(len(v.players))):
            seen = observed(v, seat)
            boards.add(render_board(seen, NAMES, locale))
            data = render_private(seen, NAMES, locale)
            if seat is None:
                _check(data, max_height=400)
            else:
                _check(data, min_height=600)
        # the board shows public information only: every observer gets the same
        assert len(boards) == 1, scenario
        _check(boards.pop(), min_height=850)


def test_cities_take_their_owners_colour_and_change_it_when_conquered() -> None:
    v = four_seats()
    img = _check(render_board(v, NAMES))
    green, blue = FACTION_COLOURS["u"], FACTION_COLOURS["i"]
    # b2 is Alice's (Ursidés, green) city; e2 Bruno's (Insulaires, blue)
    assert _count(_square(img, "b2"), green) > 200
    assert _count(_square(img, "e2"), blue) > 200
    assert _count(_square(img, "e2"), green) == 0
    conquered = tuple(dataclasses.replace(t, owner=0) if t.square == "e2" else t for t in v.tiles)
    img2 = _check(render_board(dataclasses.replace(v, tiles=conquered), NAMES))
    assert _count(_square(img2, "e2"), green) > 200
    assert _count(_square(img2, "e2"), blue) == 0


def test_the_playable_area_depends_on_the_seats() -> None:
    two = _check(render_board(two_seats(), NAMES))
    four = _check(render_board(four_seats(), NAMES))
    # a1 is off the 2-seat area (b2..f6), inside the 4-seat one
    assert _count(_square(two, "a1"), OFF_AREA) > CELL * CELL // 2
    assert _count(_square(four, "a1"), OFF_AREA) == 0
    assert _count(_square(two, "c4"), OFF_AREA) == 0


def test_a_placed_tile_shows_its_terrain_and_roads() -> None:
    empty = _check(render_board(two_seats(), NAMES))
    lake = tile("e4", "road", "X", 0, "lac")
    v = two_seats(tiles=(*two_seats().tiles, lake))
    img = _check(render_board(v, NAMES))
    before, after = _square(empty, "e4"), _square(img, "e4")
    assert _count(after, (86, 150, 200), 30) > 300  # the lake's blue
    assert _count(before, (86, 150, 200), 30) == 0
    # a straight road from north to south leaves the west edge's middle as terrain
    road = tile("e4", "road", "I", 0, "lac")
    straight = _square(
        _check(render_board(two_seats(tiles=(*two_seats().tiles, road)), NAMES)), "e4"
    )
    cross = after
    west = (4, CELL // 2)
    assert straight.getpixel(west) != cross.getpixel(west)


def test_buff_is_drawn_where_he_stands_and_only_there() -> None:
    on = _check(render_board(four_seats(), NAMES))
    assert _count(_square(on, "e3"), BUFF, 6) > 80
    assert _count(_square(on, "d4"), BUFF, 6) < 10
    moved = _check(render_board(four_seats(buff=buff(square="d4", horde=8, entered=True)), NAMES))
    assert _count(_square(moved, "d4"), BUFF, 6) > 80
    assert _count(_square(moved, "e3"), BUFF, 6) < 10
    away = _check(render_board(SCENARIOS["buff-absent"](), NAMES))
    for square in ("e3", "d4"):
        assert _count(_square(away, square), BUFF, 6) < 10


def test_buffs_panel_says_what_is_known_of_him() -> None:
    def texts(v: View, locale: str = "en") -> list[str]:
        return [t for t, _ in buff_lines(context(v, NAMES, locale))]

    assert texts(four_seats()) == ["On e3", "Bribed by Alice → day 12"]
    assert texts(SCENARIOS["three-seats-hired"]()) == [
        "Hired by Alice → day 18",
        "On c3",
        "Bribed by Chloé → day 16",
    ]
    assert texts(SCENARIOS["buff-absent"]()) == ["Beaten: back at the week's end"]
    assert texts(SCENARIOS["auction"]()) == ["Auction in progress"]
    assert texts(two_seats()) == ["Enters at the end of week 1"]
    gone = four_seats(buff=buff(horde=10, entered=True), roll=None)
    assert texts(gone, "fr") == ["Hors du plateau : enchère en fin de semaine"]
    assert texts(two_seats(rules=Rules(buff=False)), "fr") == ["Absent de cette partie"]


def test_the_headline_says_who_must_do_what() -> None:
    def line(v: View, locale: str = "en") -> str:
        return status_line(context(v, NAMES, locale))[0]

    assert line(four_seats()) == "Bruno to play"
    assert line(SCENARIOS["auction"](), "fr") == "Enchère pour Buff : Chloé doit miser"
    assert line(SCENARIOS["buff-battle"]()) == "Bruno: bribe, recruit or fight Buff"
    assert line(SCENARIOS["two-seats-placing"](), "fr") == "Alice : poser la carte de terrain"
    assert status_line(context(SCENARIOS["over"](), NAMES, "en")) == ("Winner: Bruno", True)
    full = over(end_reason="full")
    assert status_line(context(full, NAMES, "fr")) == (
        "Vainqueur : Bruno · le plateau est plein",
        True,
    )
    tie = over(ranking=((1, 3), (0, 2)))
    assert line(tie, "fr") == "Vainqueurs : Bruno, Dmitri"


def test_the_battle_and_the_auction_add_their_panels() -> None:
    plain = _check(render_board(four_seats(), NAMES))
    fight = _check(render_board(SCENARIOS["battle"](), NAMES))
    hidden = _check(render_board(SCENARIOS["auction"](), NAMES))
    shown = _check(render_board(SCENARIOS["auction-revealed"](), NAMES))
    assert fight.height > plain.height and hidden.height > plain.height
    assert hidden.height == shown.height
    # the revealed bids draw the cards (their faction colours); hidden ones do not
    lower = (0, plain.height, 1100, hidden.height)
    red = FACTION_COLOURS["a"]
    assert _count(shown.crop(lower), red) > _count(hidden.crop(lower), red) + 200


def test_can_pay_fills_recipes_exactly() -> None:
    road_t = {"u1": 2, "P": 1}
    road_i = {"u1": 1, "P": 1}
    assert can_pay(road_t, ["1u", "1m", "P"], True, 2)
    assert not can_pay(road_t, ["1u", "P"], True, 2)
    # a Tool fills two rank-1 slots when building, never one slot alone
    assert can_pay(road_t, ["Oa", "P"], True, 2)
    assert not can_pay(road_i, ["Oa", "P"], True, 2)
    assert not can_pay(road_t, ["Oa", "P"], False, 2)
    assert can_pay({"u1": 3}, ["Oa", "1i"], True, 2)
    assert can_pay({"u1": 4}, ["Oa"], True, 4)  # illuminated: the Tool counts 4
    # any unit of the rank, any artefact of the type (a Great Artefact acting as it)
    assert can_pay({"u2": 1, "u1": 2}, ["2m", "1a", "1n"], False, 2)
    assert can_pay({"A": 1, "P": 2}, ["G1", "P", "P"], False, 2)
    assert not can_pay({"A": 1, "P": 2}, ["Ai", "P"], False, 2)


def test_the_private_image_grows_with_the_hand() -> None:
    small = _check(render_private(observed(four_seats(), 0, ("1u", "P")), NAMES))
    full = _check(render_private(observed(four_seats(), 0, FULL_HAND), NAMES))
    empty = _check(render_private(observed(four_seats(), 0, ()), NAMES))
    assert empty.height <= small.height < full.height


def test_the_cost_table_lights_what_the_hand_pays() -> None:
    lit = (86, 110, 60)
    poor = _check(render_private(observed(four_seats(), 0, ("1u",)), NAMES))
    rich = _check(render_private(observed(four_seats(), 0, ("1u", "1u", "P", "P", "P")), NAMES))
    assert _count(poor, lit) == 0
    assert _count(rich, lit) > _count(poor, lit) + 5000


def test_placements_are_numbered_ghost_tiles_on_a_close_up() -> None:
    v = two_seats()
    choices = [(k + 1, c) for k, c in enumerate(PLACES)]
    data = render_spots(v, NAMES, "en", choices)
    assert data is not None
    img = _check(data, min_height=300)
    # every spot's colour is there, each on its own square
    for k in range(len(choices)):
        assert _count(img, SPOT_COLOURS[k % len(SPOT_COLOURS)]) > 50
    # fewer spots: fewer colours
    one = _check(render_spots(v, NAMES, "fr", choices[:1]) or b"", min_height=300)
    assert _count(one, SPOT_COLOURS[1]) < 20
    # the notations without a square draw nothing
    assert render_spots(v, NAMES, "en", [(1, "end"), (2, "mulligan")]) is None


def test_buffs_paths_are_numbered_where_they_end() -> None:
    v = four_seats()
    choices = [(1, "buff"), (2, "buff e2"), (3, "buff f3 f4")]
    img = _check(render_spots(v, NAMES, "en", choices) or b"", min_height=300)
    for k in range(3):
        assert _count(img, SPOT_COLOURS[k]) > 50


def test_the_images_speak_the_pseudo_locale(monkeypatch: pytest.MonkeyPatch, qps: str) -> None:
    """Every word drawn comes from the catalogues (bracketed in ``qps``),
    but for seat names and card names (French in every language)."""
    import re

    import render.battalia
    from engine.games.battalia.data import card_name, data
    from tests.i18n.test_pseudo_locale import OPEN, _drawn, _known, outside_brackets

    texts = _drawn(monkeypatch, render.battalia)
    for build in SCENARIOS.values():
        v = build()
        render_board(v, NAMES, qps)
        render_private(observed(v, 1), NAMES, qps)
        render_private(observed(v, None), NAMES, qps)
    render_spots(two_seats(), NAMES, qps, [(1, PLACES[0])])
    codes = {*FULL_HAND, "1m", "2m", "3m", "4m", "G1", "G3", "G4", "G5", "Ai", "4i", "2a", "1a"}
    allowed = {
        *NAMES,
        *(card_name(c) for c in codes),
        *(a.name for a in data().artefacts),
        *(r.name for r in data().ranks),
    }
    words = {w for text in allowed for w in re.findall(r"[^\W\d_]{2,}", text)}
    leaks = sorted(
        {
            t
            for t in texts
            for w in re.findall(r"[^\W\d_]{2,}", outside_brackets(t))
            if not _known(w, words)
        }
    )
    assert not leaks, "\n".join(leaks)
    assert sum(OPEN in t for t in texts) > 100
    with pytest.raises(TypeError):
        render_board(object(), NAMES)
    with pytest.raises(TypeError):
        render_private(object(), NAMES)


def main(out: str) -> None:
    path = Path(out)
    path.mkdir(parents=True, exist_ok=True)
    for name, build in SCENARIOS.items():
        v = build()
        for locale in LOCALES:
            (path / f"{name}-{locale}-board.png").write_bytes(render_board(v, NAMES, locale))
    for locale in LOCALES:
        hand = observed(four_seats(), 1)
        (path / f"hand-{locale}.png").write_bytes(render_private(hand, NAMES, locale))
        spots = render_spots(two_seats(), NAMES, locale, [(k + 1, c) for k, c in enumerate(PLACES)])
        (path / f"spots-{locale}.png").write_bytes(spots or b"")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "/tmp/battalia-check")


def test_a_resigned_player_is_greyed_out_and_labelled() -> None:
    from render.battalia.style import RED

    done = over()
    assert [p.resigned for p in done.players] == [False, False, True, False]
    stayed = over(players=tuple(dataclasses.replace(p, resigned=False) for p in done.players))
    a = _check(render_board(done, NAMES))
    b = _check(render_board(stayed, NAMES))
    cards = (0, a.height - 160, 1100, a.height)
    assert _count(a.crop(cards), RED) > _count(b.crop(cards), RED) + 500


def test_hero_moves_summons_and_entries_are_numbered_on_their_squares() -> None:
    v = observed(four_seats(), 0)
    choices = [(1, "move h1 d3 : P"), (2, "move h1 d3 e3 : P P"), (3, "summon b2 : Au P P")]
    data = render_spots(v, NAMES, "fr", choices)
    assert data is not None
    img = _check(data, min_height=300)
    for k in range(3):
        assert _count(img, SPOT_COLOURS[k]) > 50
    entry = render_spots(SCENARIOS["auction-revealed"](), NAMES, "en", [(1, "enter a1")])
    assert entry is not None and _count(_check(entry, min_height=300), SPOT_COLOURS[0]) > 50


def _panel_texts(monkeypatch: pytest.MonkeyPatch, v: View) -> list[str]:
    """The texts the panels draw for ``v`` (English)."""
    import render.battalia.panels as panels

    drawn: list[str] = []
    original = panels.__dict__["draw_text"]

    def spy(img: Image.Image, xy: tuple[float, float], text: str, *args: object) -> None:
        drawn.append(text)
        original(img, xy, text, *args)

    monkeypatch.setattr(panels, "draw_text", spy)
    render_board(v, NAMES, "en")
    return drawn


def test_a_neutral_defence_shows_its_fixed_strength(monkeypatch: pytest.MonkeyPatch) -> None:
    from engine.games.battalia.model import BattleView, Breakdown

    line = ("Au", "2u")
    ruins = BattleView(
        0,
        "h1",
        "d4",
        "d4",
        line,
        None,
        Breakdown(line, base=3, total=3),
        Breakdown((), level=8, total=8),
        3,
        8,
        "defender",
        "ruins",
        None,
    )
    texts = _panel_texts(monkeypatch, four_seats(battle=ruins))
    assert "Waiting for the defence…" not in texts
    assert "the Ruins" in texts and "defence 8" in texts
    assert "The defender holds" in texts
    waiting = dataclasses.replace(ruins, defender_break=None, defender_total=None, result="")
    assert "Waiting for the defence…" in _panel_texts(monkeypatch, four_seats(battle=waiting))


def test_the_private_image_says_what_the_decision_is() -> None:
    """Issue 15 review: Buff's attack said only "You have a decision to
    make."; every engine decision kind now says what to decide."""
    from render.battalia.private import decision_text

    def said(v: View, seat: int, locale: str = "en") -> str:
        return decision_text(context(observed(v, seat), NAMES, locale), seat)

    attacked = SCENARIOS["buff-battle"]()
    hero = next(h.square for h in attacked.heroes if h.seat == 1)
    attacked = dataclasses.replace(attacked, buff=dataclasses.replace(attacked.buff, square=hero))
    assert said(attacked, 1) == (
        f"Buff (horde 10) attacks your hero on {hero}: bribe him (3 Provisions), "
        "recruit him (4 Provisions) or fight (a line of strength 10 or more)."
    )
    assert said(attacked, 1, "fr").startswith(f"Buff (horde 10) attaque votre héros en {hero} :")
    assert said(attacked, 0) == ""
    fight = dataclasses.replace(SCENARIOS["battle"](), pending=((1, "defend"),))
    assert (
        said(fight, 1) == "Alice attacks you on e2 with strength 12: lay a defence line or retreat."
    )
    moving = four_seats(pending=((2, "buff-move"),), roll=4)
    assert said(moving, 2).startswith("The die says 4: move Buff from ")
    assert said(SCENARIOS["auction"](), 2, "fr") == (
        "Enchère pour Buff (horde 6) : misez des cartes de force non nulle."
    )
    generic = {"en": "You have a decision to make.", "fr": "Vous avez une décision à prendre."}
    for kind in ("faction", "start", "turn", "place", "take", "enter", "keep", "unheard-of"):
        for locale in LOCALES:
            text = said(four_seats(pending=((0, kind),)), 0, locale)
            assert text and "bt-render" not in text
            assert (text == generic[locale]) == (kind == "unheard-of"), (kind, text)
    for kind in ("buff-answer", "keep", "defend", "bid", "buff-move"):
        line = status_line(context(four_seats(pending=((0, kind),)), NAMES, "en"))[0]
        assert not line.startswith("Waiting for"), (kind, line)


def test_the_images_call_cities_villes_as_the_games_texts_do() -> None:
    """Issue 15 review: the images said « cité », the game's texts « ville »."""
    import i18n

    fr = i18n.catalogue("fr").messages
    en = i18n.catalogue("en").messages
    keys = [k for k in fr if k.startswith("bt-render-")]
    assert keys
    for key in keys:
        assert "cité" not in fr[key].lower(), (key, fr[key])
    assert "ville" in fr["bt-render-target-city"] and "city" in en["bt-render-target-city"]
    assert fr["bt-render-cost-upgrade-2"] == "Agrandir au niveau 2"
    assert en["bt-render-cost-upgrade-2"] == "Upgrade to level 2"


def test_great_artefacts_are_named_or_drawn_face_down_with_their_count() -> None:
    """Issue 15 review: the market's Great Artefacts were tiny identical gems;
    with the option ``great_face_down`` the view gives only their count."""
    from engine.games.battalia.model import MarketView
    from render.battalia.cards import chip
    from render.battalia.panels import great_display

    v = four_seats()
    assert great_display(v.market) == (list(v.market.great_artefacts), 0)
    # each chip shows the type it acts as: the sword and the wings differ
    assert chip("G1", 36, 46).tobytes() != chip("G3", 36, 46).tobytes()

    @dataclasses.dataclass(frozen=True)
    class FaceDown(MarketView):
        great_count: int = 0

    fields = {f.name: getattr(v.market, f.name) for f in dataclasses.fields(MarketView)}
    down = FaceDown(**(fields | {"great_artefacts": ()}), great_count=4)
    assert great_display(down) == ([], 4)
    named = _check(render_board(v, NAMES, "fr"))
    hidden = _check(render_board(dataclasses.replace(v, market=down), NAMES, "fr"))
    assert named.size != hidden.size or named.tobytes() != hidden.tobytes()
    assert context(v, NAMES, "fr").t("great-face-down", n=4) == "4 cartes face cachée"
    none = dataclasses.replace(v.market, great_artefacts=())
    assert great_display(none) == ([], 0)


def test_buffs_bare_horde_is_not_said_twice() -> None:
    """Issue 15 review: Buff's defence read « la horde  horde 6 »."""
    from engine.games.battalia.model import Breakdown
    from render.battalia.panels import line_note

    ctx = context(four_seats(), NAMES, "fr")
    assert line_note(ctx, Breakdown((), level=6, total=6), True) == ""
    hired = Breakdown(("1m", "Au"), base=2, bannerless=1, total=3)
    assert line_note(ctx, hired, False) != ""
