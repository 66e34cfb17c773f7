"""The Between Battle renderer: valid, bounded, deterministic, pure PNGs."""

from __future__ import annotations

import copy
import dataclasses
import io
import os
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageStat

from engine.games.between_battle import View
from render import RENDERED_GAMES, UnknownGame, render_board, render_private
from render.common import clean_text, fit_text, font, text_width, wrap_text

from .scenarios import GAME, GAME_ID, NAMES, SCENARIOS, views

LOCALES = ("en", "fr")
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
