"""The Between Battle renderer: valid, bounded, deterministic, pure PNGs."""

from __future__ import annotations

import copy
import dataclasses
import io
import itertools
import os
from functools import cache
from pathlib import Path
from typing import Any, get_args

import pytest
from PIL import Image, ImageStat

import i18n
import render.between_battle as bb
from engine.games.between_battle import SpecialAbility, UniqueAbility, View
from render import RENDERED_GAMES, UnknownGame, render_board, render_private
from render.common import clean_text, clear_caches, fit_text, font, text_width, wrap_text

from .scenarios import GAME, GAME_ID, NAMES, SCENARIOS, views

LOCALES = ("en", "fr")
# every ability of the help cards (the card data's literal types)
ABILITIES = (*get_args(SpecialAbility), *get_args(UniqueAbility))
MAX_BYTES = 300 * 1024


@cache
def _state(name: str) -> Any:
    return SCENARIOS[name]()


def _open(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    assert img.format == "PNG"
    img.load()
    return img


def _check_image(data: bytes, min_height: int = 150, max_height: int = 1700) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(data) < MAX_BYTES
    img = _open(data)
    assert img.width == 1100
    assert min_height <= img.height <= max_height
    # not blank: real contrast across the picture
    assert ImageStat.Stat(img.convert("L")).stddev[0] > 12
    return img


def _names(seats: int) -> list[str]:
    return list(NAMES[:seats])


@pytest.mark.parametrize("scenario", sorted(SCENARIOS))
def test_every_view_renders_in_both_locales(scenario: str) -> None:
    state = _state(scenario)
    seats = GAME.seat_count(state)
    names = _names(seats)
    for locale in LOCALES:
        boards: set[bytes] = set()
        privates: dict[int | None, bytes] = {}
        for seat, view in views(state):
            boards.add(_check_board(render_board(GAME_ID, view, names, locale)))
            data = render_private(GAME_ID, view, names, locale)
            if seat is None:
                _check_image(data, min_height=150, max_height=400)
            else:
                _check_image(data, min_height=300)
            privates[seat] = data
        # the board shows public information only: every observer gets the same
        assert len(boards) == 1
        # each seat sees its own hand; the spectator gets a message
        assert len(set(privates.values())) == len(privates)


def _check_board(data: bytes) -> bytes:
    _check_image(data, min_height=600)
    return data


@pytest.mark.parametrize("scenario", ["2p-mid", "3p-locked", "4p-revealed", "4p-over"])
def test_rendering_is_deterministic(scenario: str) -> None:
    state = _state(scenario)
    names = _names(GAME.seat_count(state))
    for seat, view in views(state):
        assert render_board(GAME_ID, view, names, "fr") == render_board(GAME_ID, view, names, "fr")
        if seat is not None:
            again = GAME.view(state, seat)
            assert render_private(GAME_ID, view, names) == render_private(GAME_ID, again, names)


@pytest.mark.parametrize("scenario", ["2p-joker-pull", "3p-locked", "4p-revealed"])
def test_rendering_does_not_mutate_inputs(scenario: str) -> None:
    state = _state(scenario)
    names = _names(GAME.seat_count(state))
    for _, view in views(state):
        before = copy.deepcopy(view)
        names_before = list(names)
        render_board(GAME_ID, view, names, "en")
        render_private(GAME_ID, view, names, "fr")
        assert view == before
        assert names == names_before
    assert GAME.view(state, 0) == views(state)[0][1]


def test_rendering_writes_no_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    state = _state("2p-mid")
    render_board(GAME_ID, GAME.view(state, None), _names(2))
    render_private(GAME_ID, GAME.view(state, 0), _names(2))
    assert os.listdir(tmp_path) == []


def test_locales_differ_and_default_is_english() -> None:
    view = GAME.view(_state("2p-mid"), 0)
    names = _names(2)
    en = render_board(GAME_ID, view, names)
    assert en == render_board(GAME_ID, view, names, "en-GB")
    assert en != render_board(GAME_ID, view, names, "fr")
    assert render_board(GAME_ID, view, names, "fr") == render_board(GAME_ID, view, names, "FR-ca")
    assert render_private(GAME_ID, view, names) != render_private(GAME_ID, view, names, "fr")


def test_markers_for_locks_and_cancels_render() -> None:
    """``lock_next`` and ``cancel_next`` rarely survive to a resting state;
    build such a view by hand to draw their markers."""
    view = GAME.view(_state("3p-mid"), None)
    marked = dataclasses.replace(view, lock_next=((2, 1),), cancel_next=(1,))
    plain = render_board(GAME_ID, view, _names(3))
    data = render_board(GAME_ID, marked, _names(3))
    _check_board(data)
    assert data != plain


def test_a_big_hand_wraps_into_rows() -> None:
    view = GAME.view(_state("2p-revealed"), 1)
    me = view.players[1]
    hand = ("Ni1", "Ni3", "Ni5", "Ni8", "Ni10", "Ni12", "Ni14", "NiX")
    big = dataclasses.replace(me, hand=hand, hand_count=len(hand), revealed=("Ni3", "NiX"))
    players = (view.players[0], big)
    small = _check_image(render_private(GAME_ID, view, _names(2)), min_height=300)
    data = render_private(GAME_ID, dataclasses.replace(view, players=players), _names(2))
    assert _check_image(data, min_height=300).height > small.height + 200


@pytest.mark.parametrize(
    "names",
    [
        [],
        ["", "   "],
        ["\U0001f409\U0001f3b2\U0001f3b4", "李小龙"],
        ["A" * 300, "Zoë\u200d\ufe0f 🎉 " * 20],
        ["\n\tAlice\x00", "Bob"],
    ],
)
def test_awkward_names_are_handled(names: list[str]) -> None:
    state = _state("2p-choose-pile")
    for _, view in views(state):
        _check_board(render_board(GAME_ID, view, names))
        render_private(GAME_ID, view, names, "fr")


def test_unknown_game_and_wrong_view() -> None:
    view = GAME.view(_state("2p-mid"), None)
    assert "between-battle" in RENDERED_GAMES
    with pytest.raises(KeyError):
        render_board("no-such-game", view, [])
    with pytest.raises(ValueError):
        render_private("no-such-game", view, [])
    with pytest.raises(UnknownGame):
        render_board("", view, [])
    with pytest.raises(TypeError):
        render_board(GAME_ID, object(), [])


def test_view_type_is_the_engine_view() -> None:
    assert isinstance(GAME.view(_state("2p-start"), 1), View)


def test_text_helpers() -> None:
    bold = font("bold", 24)
    assert clean_text("  Ali\u200dce 🎲 \n") == "Alice"
    assert clean_text("Zoë") == "Zoë"
    cut = fit_text("Bérénice de la Tour-d'Auvergne", bold, 150)
    assert cut.endswith("…")
    assert text_width(bold, cut) <= 150
    assert fit_text("Bob", bold, 150) == "Bob"
    regular = font("regular", 18)
    lines = wrap_text("a long sentence " * 10 + "Antidisestablishmentarianism" * 3, regular, 160)
    assert all(text_width(regular, line) <= 160 for line in lines)


def _drawn_texts(monkeypatch: pytest.MonkeyPatch) -> list[tuple[float, str, Any]]:
    """Record every text the Between Battle renderer draws: (x, text, font).
    The caches are emptied first: a card face drawn before is pasted from
    the cache, its texts not drawn again."""
    clear_caches()
    drawn: list[tuple[float, str, Any]] = []
    real_text, real_pill, real_card = bb.draw_text, bb.pill, bb._draw_card
    origin = [0]  # a card's face is drawn on a tile: where the tile goes

    def card(img: Any, ctx: Any, card_: str, x: int, *args: Any, **kw: Any) -> Any:
        origin[0] = x - x % 2
        try:
            return real_card(img, ctx, card_, x, *args, **kw)
        finally:
            origin[0] = 0

    def text(img: Any, xy: Any, text_: str, fnt: Any, *args: Any, **kw: Any) -> None:
        drawn.append((xy[0] + origin[0], text_, fnt))
        real_text(img, xy, text_, fnt, *args, **kw)

    def pill(img: Any, x: Any, y: Any, label: str, fnt: Any, *args: Any, **kw: Any) -> Any:
        drawn.append((x, label, fnt))
        return real_pill(img, x, y, label, fnt, *args, **kw)

    monkeypatch.setattr(bb, "draw_text", text)
    monkeypatch.setattr(bb, "pill", pill)
    monkeypatch.setattr(bb, "_draw_card", card)
    return drawn


@pytest.mark.parametrize("scenario", ["2p-mid", "3p-mid", "4p-mid", "4p-revealed"])
@pytest.mark.parametrize("locale", LOCALES)
def test_the_board_shows_every_help_card_face_up(
    scenario: str, locale: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """« la carte aide de jeu [...] face visible devant lui, elle indique ses capacités
    et ses points de vies »: the public board shows each living player's special and
    unique abilities, whole (never cut), in the reader's language."""
    state = _state(scenario)
    drawn = _drawn_texts(monkeypatch)
    render_board(GAME_ID, GAME.view(state, None), _names(GAME.seat_count(state)), locale)
    texts = [t for _, t, _ in drawn]
    decks = {d.character: d for d in state.rules.decks}
    for p in state.players:
        if p.out:
            continue
        deck = decks[p.character]
        for ability in (deck.special, deck.unique):
            short = i18n.translate(locale, f"bb-render-ability-short-{ability}")
            assert short in texts, (p.character, ability)


def test_every_short_ability_fits_the_narrowest_panel() -> None:
    """The short texts fit the 3-player panels whole, at the board's font."""
    fnt = font("regular", bb.ABILITY_FONT_SIZE)
    room = bb._panel_width(3) - 32 - 32
    for lang in ("en", "fr"):
        for ability in ABILITIES:
            text_ = i18n.translate(lang, f"bb-render-ability-short-{ability}")
            assert fit_text(text_, fnt, room) == text_, text_


def test_kind_badges_speak_the_readers_language(monkeypatch: pytest.MonkeyPatch) -> None:
    """The kind badges on cards: Special / Link in English, Spéciale / Lien in French."""
    view = GAME.view(_state("2p-revealed"), 1)
    me = view.players[1]
    hand = ("Ni3", "Ni5", "Ni10", "NiX")
    players = (view.players[0], dataclasses.replace(me, hand=hand, hand_count=len(hand)))
    shown = dataclasses.replace(view, players=players)
    for locale, words, foreign in (
        ("en", {"Special", "Link", "Unique", "Joker"}, {"Spéciale", "Lien"}),
        ("fr", {"Spéciale", "Lien", "Unique", "Joker"}, {"Special", "Link"}),
    ):
        drawn = _drawn_texts(monkeypatch)
        render_private(GAME_ID, shown, _names(2), locale)
        texts = {t for _, t, _ in drawn}
        assert words <= texts and not foreign & texts, locale
        monkeypatch.undo()


def test_six_and_nine_are_underlined_in_the_corners() -> None:
    """A pile card's corner number is drawn upright and upside down: 6 and 9 carry a
    bar under the digit (as on playing cards), so a turned 9 does not read as 6."""
    fnt = font("bold", 28)
    ink = (20, 20, 20)

    def full_rows(tile: Image.Image) -> list[int]:
        alpha = tile.getchannel("A")
        w, h = tile.size
        return [y for y in range(h) if all(alpha.getpixel((x, y)) > 128 for x in range(w))]

    six, turned_nine = bb._corner_tile("6", fnt, ink, 0), bb._corner_tile("9", fnt, ink, 180)
    assert full_rows(six) and max(full_rows(six)) > six.height * 0.8  # bar below the 6
    assert full_rows(turned_nine) and min(full_rows(turned_nine)) < turned_nine.height * 0.2
    assert not full_rows(bb._corner_tile("8", fnt, ink, 180))  # other numbers: no bar


@pytest.mark.parametrize("n", range(1, 17))
def test_every_card_of_a_pile_shows(n: int) -> None:
    """A pile of n cards is drawn as n cards: each card below the top sticks out
    above the next one, the nearest three by their number, within the felt."""
    offsets = bb.pile_offsets(n)
    assert len(offsets) == n - 1
    steps = [a - b for a, b in zip(offsets, [*offsets[1:], 0], strict=False)]
    assert all(step >= 3 for step in steps)
    assert all(step >= bb.MIN_PEEK for step in steps[-3:])
    assert not offsets or offsets[0] <= bb.STACK_ROOM


def test_a_nine_card_pile_draws_nine_cards(monkeypatch: pytest.MonkeyPatch) -> None:
    state = _state("2p-mid")
    pile = ("Pi1", "Ch2", "Pi4", "Ch6", "Pi7", "Ch9", "Pi11", "Ch13", "Pi15")
    view = dataclasses.replace(GAME.view(state, None), piles=(pile, ("Ch16",)))
    calls: list[str] = []
    real = bb._draw_card

    def spy(img: Any, ctx: Any, card: str, *args: Any, **kw: Any) -> Any:
        calls.append(card)
        return real(img, ctx, card, *args, **kw)

    monkeypatch.setattr(bb, "_draw_card", spy)
    render_board(GAME_ID, view, _names(2))
    assert calls == [*pile, "Ch16"]


def test_revealed_cards_keep_whole_numbers(monkeypatch: pytest.MonkeyPatch) -> None:
    """Five revealed cards overlap in the strip: each number (the 15 too) is drawn
    whole in the part of its card that stays visible."""
    view = GAME.view(_state("2p-revealed"), None)
    shown = ("Ni1", "Ni7", "Ni11", "Ni15", "Ni16")
    who = next(i for i, p in enumerate(view.players) if p.revealed)
    me = dataclasses.replace(view.players[who], revealed=shown, hand_count=5)
    players = tuple(me if i == who else p for i, p in enumerate(view.players))
    drawn = _drawn_texts(monkeypatch)
    render_board(GAME_ID, dataclasses.replace(view, players=players), _names(2))
    want = ["1", "7", "11", "15", "16"]
    texts = [t for _, t, _ in drawn]
    start = next(i for i in range(len(texts)) if texts[i : i + 5] == want)
    labels = drawn[start : start + 5]
    for (x, text_, fnt), (next_x, _, _) in itertools.pairwise(labels):
        assert x + text_width(fnt, text_) <= next_x, text_
