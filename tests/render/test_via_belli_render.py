"""The Via Belli renderer: valid, bounded, deterministic, pure PNGs that show
public information only on the board."""

from __future__ import annotations

import copy
import io
from collections.abc import Callable, Iterator
from functools import cache
from typing import Any

import pytest
from PIL import Image, ImageStat

from engine import GAMES, rng
from render import RENDERED_GAMES, render_board, render_private
from render.via_belli import (
    BOARD_W,
    DETAIL_BELOW,
    DETAIL_CELL,
    _name_lines,
    _public_action,
    board_cell,
    board_image,
    crop_area,
    detail_area,
)

GAME_ID = "via-belli"
GAME = GAMES[GAME_ID]
NAMES = ("Alice", "Bruno", "Chloé", "Dmitri")
LOCALES = ("en", "fr")
MAX_BYTES = 300 * 1024
MAX_SIDE = 1600


def playthrough(options: str, seats: int, seed: int, steps: int = 3000) -> Iterator[Any]:
    """Every state of a game played with seeded random legal moves."""
    state = GAME.setup(GAME.options(options), seats, seed)
    chooser = rng.seed_state(seed, "render-tests")
    yield state
    for _ in range(steps):
        pending = GAME.pending(state)
        if not pending:
            return
        seat = next(iter(pending))
        action, chooser = rng.choice(chooser, list(GAME.legal_actions(state, seat)))
        state, _ = GAME.apply(state, seat, action)
        yield state


def find(options: str, seats: int, predicate: Callable[[Any], bool]) -> Any:
    for seed in range(40):
        for state in playthrough(options, seats, seed):
            if predicate(state):
                return state
    raise LookupError("no such state")


SCENARIOS: dict[str, Callable[[], Any]] = {
    "gueridon-2p-start": lambda: find("table=gueridon", 2, lambda s: s.phase == "turn"),
    "standard-2p-mid": lambda: find("table=standard", 2, lambda s: s.turn >= 20),
    "basse-2p-over": lambda: find("table=table_basse", 2, lambda s: s.phase == "over"),
    "salle-3p-mid": lambda: find("table=salle_a_manger", 3, lambda s: s.turn >= 25),
    "carre-4p-mid": lambda: find("table=carre_4j", 4, lambda s: s.turn >= 30),
    "standard-2p-attack": lambda: find("table=standard", 2, lambda s: s.phase == "attack"),
    "standard-3p-spot": lambda: find("table=standard", 3, lambda s: s.phase == "spot"),
}


@cache
def _state(name: str) -> Any:
    return SCENARIOS[name]()


def _views(state: Any) -> list[tuple[int | None, Any]]:
    seats: list[int | None] = [*range(GAME.seat_count(state)), None]
    return [(seat, GAME.view(state, seat)) for seat in seats]


def _check(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(data) < MAX_BYTES
    img = Image.open(io.BytesIO(data))
    assert img.format == "PNG"
    img.load()
    assert max(img.size) <= MAX_SIDE
    assert min(img.size) >= 150
    assert ImageStat.Stat(img.convert("L")).stddev[0] > 12  # not blank
    return img


def test_registered() -> None:
    assert GAME_ID in RENDERED_GAMES
    with pytest.raises(TypeError):
        render_board(GAME_ID, object(), [])
    with pytest.raises(TypeError):
        render_private(GAME_ID, object(), [])


@pytest.mark.parametrize("scenario", sorted(SCENARIOS))
def test_board_is_public_and_bounded(scenario: str) -> None:
    state = _state(scenario)
    names = list(NAMES[: GAME.seat_count(state)])
    for locale in LOCALES:
        boards = {render_board(GAME_ID, view, names, locale) for _, view in _views(state)}
        # public information only: every observer gets the same bytes
        assert len(boards) == 1
        img = _check(boards.pop())
        assert img.width >= 900 and img.height >= 600


@pytest.mark.parametrize("scenario", sorted(SCENARIOS))
def test_private_images(scenario: str) -> None:
    state = _state(scenario)
    names = list(NAMES[: GAME.seat_count(state)])
    for locale in LOCALES:
        privates: dict[int | None, bytes] = {}
        for seat, view in _views(state):
            data = render_private(GAME_ID, view, names, locale)
            _check(data)
            privates[seat] = data
        assert len(set(privates.values())) == len(privates)


def test_locales_differ_and_bytes_are_deterministic() -> None:
    state = _state("standard-2p-mid")
    view = GAME.view(state, 0)
    names = list(NAMES[:2])
    en = render_board(GAME_ID, view, names, "en")
    fr = render_board(GAME_ID, view, names, "fr")
    assert en != fr
    assert render_board(GAME_ID, view, names, "en") == en
    assert render_private(GAME_ID, view, names, "fr") == render_private(GAME_ID, view, names, "fr")


def test_view_not_mutated() -> None:
    state = _state("carre-4p-mid")
    view = GAME.view(state, 1)
    before = copy.deepcopy(view)
    render_board(GAME_ID, view, list(NAMES), "fr")
    render_private(GAME_ID, view, list(NAMES), "en")
    assert view == before


def test_finished_game_differs_from_the_move_before() -> None:
    over = _state("basse-2p-over")
    assert over.phase == "over" and over.ranking
    data = render_board(GAME_ID, GAME.view(over, None), list(NAMES[:2]), "en")
    _check(data)


@pytest.mark.parametrize("scenario", sorted(SCENARIOS))
def test_board_sized_for_the_discord_preview(scenario: str) -> None:
    """Discord shows a board about 550 px wide in the chat: the board is at most
    BOARD_W (1,100 px) wide and shows only the part of the table in use, so its
    cells (and the cards' type) are as large as that width allows."""
    state = _state(scenario)
    view = GAME.view(state, None)
    img = _check(render_board(GAME_ID, view, list(NAMES[: GAME.seat_count(state)]), "fr"))
    assert img.width <= BOARD_W
    x0, y0, x1, y1 = crop_area(view)
    for u in view.units:
        assert x0 <= u.x and u.x + u.w <= x1 and y0 <= u.y and u.y + u.h <= y1
    for c in view.castles:
        assert x0 <= c.x and c.x + c.w <= x1 and y0 <= c.y and c.y + c.h <= y1
    s = board_cell(x1 - x0, y1 - y0)
    assert s >= min(34, (BOARD_W - 200) // (x1 - x0))


def test_large_tables_get_a_close_up_of_the_last_action() -> None:
    """When the part of the table in use is too wide for legible cards (the 2 m
    dining table), a close-up of the last action at DETAIL_CELL pixels per cell
    comes under the board."""
    state = _state("salle-3p-mid")
    view = GAME.view(state, None)
    x0, y0, x1, y1 = crop_area(view)
    assert board_cell(x1 - x0, y1 - y0) < DETAIL_BELOW
    area = detail_area(view, 28, 12)
    assert area is not None and view.last_cells
    ax0, ay0, ax1, ay1 = area
    assert any(ax0 <= x < ax1 and ay0 <= y < ay1 for x, y in view.last_cells)
    names = list(NAMES[:3])
    full = _check(render_board(GAME_ID, view, names, "fr"))
    plain = board_image(view, names, "fr", board_cell(x1 - x0, y1 - y0), (x0, y0, x1, y1))
    assert full.width == plain.width and full.height > plain.height + 12 * DETAIL_CELL


def test_long_card_names_go_on_two_lines() -> None:
    """« Molosse Masqué » and « Cabot à Couteau » are set on two lines rather than
    shrunk to one tiny line."""
    size, lines = _name_lines("Molosse Masqué", 60, 18)
    assert lines == ("Molosse", "Masqué") and size >= 14  # one line would need 8 px
    size, lines = _name_lines("Cabot à Couteau", 60, 18)
    assert len(lines) == 2 and size >= 14
    assert _name_lines("Serf", 60, 18) == (18, ("Serf",))


def test_face_down_cards_are_shown_at_the_end_of_the_game() -> None:
    """Once the game is over the board shows the face-down cards' faces (the engine's
    view names them); before, their backs."""
    from dataclasses import replace

    from tests.games.vb_helpers import act, scenario

    s = scenario(["0:Roturier@J11P", "0:?Clerc@G15P"], castles=["D11P", "M11P"])
    over, _ = act(s, "x", "J11xM11")
    assert over.phase == "over"
    view = GAME.view(over, None)
    clerc = next(u for u in view.units if u.tag == "G15")
    assert clerc.name == "Clerc" and not clerc.face_up
    shown = render_board(GAME_ID, view, list(NAMES[:2]), "en")
    hidden = replace(
        view,
        units=tuple(
            replace(u, name=None, cost=None, printed_atk=None, printed_def=None)
            if not u.face_up
            else u
            for u in view.units
        ),
    )
    assert shown != render_board(GAME_ID, hidden, list(NAMES[:2]), "en")
    # during the game the public board never shows them
    before = GAME.view(s, None)
    assert all(u.name is None for u in before.units if not u.face_up)


def test_missing_names_do_not_fail() -> None:
    view = GAME.view(_state("salle-3p-mid"), 2)
    _check(render_board(GAME_ID, view, [], "en"))
    _check(render_private(GAME_ID, view, ["", "x"], "fr"))


def test_ambush_names_are_hidden_in_the_last_action() -> None:
    assert _public_action("?Lancier F10L") == "? F10L"
    assert _public_action("?Cabot à Couteau@D11") == "?@D11"
    assert _public_action("Roturier G11P") == "Roturier G11P"
    assert _public_action("G8+G11xJ11") == "G8+G11xJ11"
