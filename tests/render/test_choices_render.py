"""render_choices: the placements a seat is choosing among, as numbered ghost
outlines (Via Belli); None for games without placements."""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image

from engine import GAMES
from engine.games.via_belli import Summon
from render import RENDERED_GAMES, UnknownGame, render_choices
from render.via_belli import GHOST_CELL, LABEL, SPOT_COLOURS, marker_cells

NAMES = ("Alice", "Bruno")


def _via_belli_start() -> tuple[Any, int]:
    game = GAMES["via-belli"]
    state = game.setup(game.options("table=gueridon"), 2, 7)
    return state, state.active


def _spots(state: Any, seat: int) -> list[tuple[int, str]]:
    """The numbered summons of the first card along its first anchor."""
    game = GAMES["via-belli"]
    first: tuple[str, ...] | None = None
    out = []
    for action, path in game.action_menu(state, seat):
        keys = tuple(s.key for s in path[:2])
        if isinstance(action, Summon) and first in (None, keys):
            first = keys
            out.append((len(out) + 1, game.format_action(action)))
    return out


def _image(data: bytes | None) -> Image.Image:
    assert data is not None and data.startswith(b"\x89PNG")
    img = Image.open(io.BytesIO(data))
    img.load()
    return img


def _count(img: Image.Image, colour: tuple[int, int, int]) -> int:
    colours = img.convert("RGB").getcolors(maxcolors=1 << 24) or []
    return sum(n for n, c in colours if c == colour)


def test_via_belli_spots_are_drawn_numbered_and_zoomed() -> None:
    state, seat = _via_belli_start()
    view = GAMES["via-belli"].view(state, seat)
    spots = _spots(state, seat)
    assert len(spots) > 10
    img = _image(render_choices("via-belli", view, NAMES, "en", spots))
    assert img.width <= 1600 and img.height <= 1600
    # zoomed in: the cells are bigger than on the whole board
    assert img.width >= 16 * GHOST_CELL + 2 * LABEL
    # the number markers are there (filled with the spots' colours)
    marks = sum(_count(img, c) for c in SPOT_COLOURS)
    assert marks > len(spots) * 150
    fewer = _image(render_choices("via-belli", view, NAMES, "en", spots[:3]))
    marks_fewer = sum(_count(fewer, c) for c in SPOT_COLOURS)
    assert 0 < marks_fewer < marks
    # deterministic, localised (the line of who acts)
    again = render_choices("via-belli", view, NAMES, "en", spots)
    assert again == render_choices("via-belli", view, NAMES, "en", spots)
    assert again != render_choices("via-belli", view, NAMES, "fr", spots)


def test_via_belli_spot_markers_each_in_its_own_spot() -> None:
    """Each spot's number sits on a cell of its own, inside the spot, at its top-left
    cell whenever that cell is free: numbers can be matched to spots even where
    the spots overlap."""
    state, seat = _via_belli_start()
    spots = _spots(state, seat)
    game = GAMES["via-belli"]
    rects = []
    for _, notation in spots:
        action = game.parse_action(notation)
        assert isinstance(action, Summon)
        w, h = (4, 3) if action.landscape else (3, 4)
        rects.append((action.x, action.y, w, h))
    cells = marker_cells(rects)
    assert len(set(cells)) == len(cells)
    for (x, y, w, h), (cx, cy) in zip(rects, cells, strict=True):
        assert x <= cx < x + w and y <= cy < y + h
    tops = [(x, y) for x, y, _, _ in rects]
    for k, cell in enumerate(cells):
        if tops[k] not in cells[:k]:
            assert cell == tops[k]


def test_nothing_to_draw_gives_none() -> None:
    state, seat = _via_belli_start()
    view = GAMES["via-belli"].view(state, seat)
    assert render_choices("via-belli", view, NAMES, "en", [(1, "D"), (2, "+")]) is None
    for game_id in sorted(RENDERED_GAMES - {"via-belli"}):  # every game without placements
        game = GAMES[game_id]
        s = game.setup(game.options(), 2, 1)
        seat = sorted(game.pending(s))[0]
        choices = [
            (i + 1, game.format_action(a)) for i, a in enumerate(game.legal_actions(s, seat))
        ]
        assert render_choices(game_id, game.view(s, seat), NAMES, "en", choices) is None
    with pytest.raises(UnknownGame):
        render_choices("no-such-game", view, NAMES, "en", [])
