"""The Belle Position renderer: valid, bounded, deterministic, pure PNGs that
show only public information on the board.

States come from random seeded play (:mod:`engine.rng`). To look at the
images by hand: ``python -m tests.render.test_belle_position_render OUTDIR``.
"""

from __future__ import annotations

import copy
import dataclasses
import io
import os
import sys
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageStat

from engine import GAMES, rng
from engine.games.belle_position import State, View
from render import RENDERED_GAMES, render_board, render_private

GAME_ID = "belle-position"
GAME = GAMES[GAME_ID]
LOCALES = ("en", "fr")
MAX_BYTES = 300 * 1024
NAMES = ("Alice", "Bérénice de la Tour-d'Auvergne 🐉🎲")

# Rich option sets: every terrain, the optional rules, counter-battery spread.
VARIANT = (
    "german=garde-prussienne*2,jagers-prussiens*2,landwehr*3,artillerie-legere-bl*2,"
    "cuirassiers*2,kronprinz-friedrich,steinmetz,generalmajor,hauteur,bourg*2,"
    "ralliement*2 budget=250 overflow=disorganise counter_battery=spread flank_attack=true"
)
SWAPPED = "french_seat=2 light_cavalry=true"


def playthrough(options: str, seed: int, ok_odds: int = 3) -> Iterator[State]:
    """Every state of one game played with random legal moves chosen by a
    seeded generator; ``ok`` (end of a phase) is taken about ``ok_odds``
    times in ten when something else is possible, ``undo`` never."""
    state: State = GAME.setup(GAME.options(options), 2, seed)
    chooser = rng.seed_state(seed, "render-tests")
    yield state
    for _ in range(3000):
        pending = GAME.pending(state)
        if not pending:
            return
        seat = sorted(pending)[0]
        actions = GAME.legal_actions(state, seat)
        texts = [GAME.format_action(a) for a in actions]
        others = [a for a, t in zip(actions, texts, strict=True) if t not in ("ok", "undo")]
        plain = [a for a, t in zip(actions, texts, strict=True) if t != "undo"] or actions
        roll, chooser = rng.randbelow(chooser, 10)
        pool = others if others and roll >= ok_odds else plain
        action, chooser = rng.choice(chooser, pool)
        state, _ = GAME.apply(state, seat, action)
        yield state


def find(predicate: Callable[[State], bool], options: str = "") -> State:
    """The first state satisfying ``predicate`` over seeds 0, 1, 2 ..."""
    for seed in range(200):
        for state in playthrough(options, seed):
            if predicate(state):
                return state
    raise LookupError("no such state")


def _half_deployed(s: State) -> bool:
    a, b = s.armies
    return s.phase == "deploy" and a.done and len(b.staged) >= 4 and not b.done


def _failed_tests(s: State) -> bool:
    return s.phase == "combat" and any(not t.passed for t in s.last_tests)


def _resigned_in_deployment() -> State:
    state = find(lambda s: s.phase == "deploy" and len(s.armies[0].staged) >= 3)
    resigned: State = GAME.resign(state, 1)[0]
    return resigned


SCENARIOS: dict[str, Callable[[], State]] = {
    "deploy-start": lambda: GAME.setup(GAME.options(""), 2, 11),
    "deploy-half": lambda: find(_half_deployed),
    "rally": lambda: find(lambda s: s.phase == "rally"),
    "combat-first": lambda: find(lambda s: s.phase == "combat"),
    "combat-dice": lambda: find(
        lambda s: s.phase == "combat" and s.last_combat is not None and s.turn >= 6
    ),
    "combat-tests": lambda: find(_failed_tests),
    "allocate": lambda: find(lambda s: s.phase == "allocate" and s.turn >= 4),
    "movement": lambda: find(lambda s: s.phase == "movement" and s.mover >= 0 and s.turn >= 5),
    "movement-late": lambda: find(
        lambda s: s.phase == "movement" and any(s.conquered) and s.turn >= 10
    ),
    "over": lambda: find(lambda s: s.phase == "over"),
    "variant-combat": lambda: find(
        lambda s: s.phase == "combat" and s.last_combat is not None and s.turn >= 5, VARIANT
    ),
    "variant-over": lambda: find(lambda s: s.phase == "over", VARIANT),
    "swapped-allocate": lambda: find(lambda s: s.phase == "allocate", SWAPPED),
    "resigned-deploying": _resigned_in_deployment,
    "counter-battery": lambda: find(
        lambda s: s.last_combat is not None and s.last_combat.mode == "counter-battery"
    ),
    "general-sixes": lambda: find(
        lambda s: s.last_combat is not None and s.last_combat.general != "" and s.turn > 4
    ),
    "general-test": lambda: find(
        lambda s: any(t.kind == "general" for t in s.last_tests) and s.phase == "combat"
    ),
    "disorganisation": lambda: find(
        lambda s: any(t.kind == "disorganisation" for t in s.last_tests), VARIANT
    ),
}


@cache
def _state(name: str) -> State:
    return SCENARIOS[name]()


def views(state: State) -> list[tuple[int | None, Any]]:
    return [(seat, GAME.view(state, seat)) for seat in (0, 1, None)]


def _open(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    assert img.format == "PNG"
    img.load()
    return img


def _check_image(data: bytes, min_height: int = 150, max_height: int = 2600) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(data) < MAX_BYTES
    img = _open(data)
    assert img.width == 1100
    assert min_height <= img.height <= max_height
    assert ImageStat.Stat(img.convert("L")).stddev[0] > 12  # not blank
    return img


@pytest.mark.parametrize("scenario", sorted(SCENARIOS))
def test_every_view_renders_in_both_locales(scenario: str) -> None:
    state = _state(scenario)
    for locale in LOCALES:
        boards: set[bytes] = set()
        privates: dict[int | None, bytes] = {}
        for seat, view in views(state):
            board = render_board(GAME_ID, view, NAMES, locale)
            _check_image(board, min_height=600)
            boards.add(board)
            data = render_private(GAME_ID, view, NAMES, locale)
            if seat is None:
                _check_image(data, max_height=400)
            else:
                _check_image(data, min_height=300)
            privates[seat] = data
        # the board shows public information only: every observer gets the same
        assert len(boards) == 1, scenario
        # each seat sees its own cards; the spectator gets a message
        assert len(set(privates.values())) == 3


def test_every_phase_is_covered() -> None:
    phases = {_state(name).phase for name in SCENARIOS}
    assert phases == {"deploy", "rally", "combat", "allocate", "movement", "over"}
    assert _state("combat-dice").last_combat is not None
    assert any(not t.passed for t in _state("combat-tests").last_tests)


def test_dice_are_drawn() -> None:
    """The last fire and the last cohesion tests are on the board."""
    view = GAME.view(_state("combat-tests"), None)
    assert view.last_combat is not None and view.last_tests
    board = render_board(GAME_ID, view, NAMES)
    assert render_board(GAME_ID, dataclasses.replace(view, last_combat=None), NAMES) != board
    assert render_board(GAME_ID, dataclasses.replace(view, last_tests=()), NAMES) != board


def test_public_board_hides_the_deployment() -> None:
    """While deploying, a seat's own view holds its placed cards; the board
    drawn from it must not show them (nor their number)."""
    state = _state("deploy-half")
    own = GAME.view(state, 1)
    assert any(side.units for pos in own.positions for side in pos.sides)
    assert render_board(GAME_ID, own, NAMES) == render_board(GAME_ID, GAME.view(state, None), NAMES)


def test_hidden_cards_are_not_identified_on_the_board() -> None:
    """The owner's view lists its face-down cards; the board draws them as
    backs, so a view with their types changed draws the same image."""
    state = _state("movement")
    view = GAME.view(state, state.active)
    hidden = [
        (p, s, c)
        for p, pos in enumerate(view.positions)
        for s, side in enumerate(pos.sides)
        for c in side.units
        if not c.face_up
    ]
    assert hidden
    positions = list(view.positions)
    for p, s, c in hidden:
        pos = positions[p]
        side = pos.sides[s]
        units = tuple(
            dataclasses.replace(u, name="Zouaves/Turcos", short="Zouaves", vc=4)
            if u.uid == c.uid
            else u
            for u in side.units
        )
        sides = list(pos.sides)
        sides[s] = dataclasses.replace(side, units=units)
        positions[p] = dataclasses.replace(pos, sides=(sides[0], sides[1]))
    changed = dataclasses.replace(view, positions=tuple(positions))
    assert render_board(GAME_ID, changed, NAMES) == render_board(GAME_ID, view, NAMES)
    assert render_private(GAME_ID, changed, NAMES) != render_private(GAME_ID, view, NAMES)


@pytest.mark.parametrize("scenario", ["deploy-half", "combat-dice", "allocate", "over"])
def test_rendering_is_deterministic(scenario: str) -> None:
    state = _state(scenario)
    for seat, view in views(state):
        assert render_board(GAME_ID, view, NAMES, "fr") == render_board(GAME_ID, view, NAMES, "fr")
        if seat is not None:
            again = GAME.view(state, seat)
            assert render_private(GAME_ID, view, NAMES) == render_private(GAME_ID, again, NAMES)


@pytest.mark.parametrize("scenario", ["deploy-half", "combat-tests", "allocate", "variant-over"])
def test_rendering_does_not_mutate_inputs(scenario: str) -> None:
    state = _state(scenario)
    for _, view in views(state):
        before = copy.deepcopy(view)
        names = list(NAMES)
        render_board(GAME_ID, view, names, "en")
        render_private(GAME_ID, view, names, "fr")
        assert view == before
        assert names == list(NAMES)
    assert GAME.view(state, 0) == views(state)[0][1]


def test_rendering_writes_no_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    state = _state("combat-dice")
    render_board(GAME_ID, GAME.view(state, None), NAMES)
    render_private(GAME_ID, GAME.view(state, 0), NAMES)
    assert os.listdir(tmp_path) == []


def test_locales_differ_and_default_is_english() -> None:
    view = GAME.view(_state("combat-dice"), 0)
    en = render_board(GAME_ID, view, NAMES)
    assert en == render_board(GAME_ID, view, NAMES, "en-GB")
    assert en != render_board(GAME_ID, view, NAMES, "fr")
    assert render_board(GAME_ID, view, NAMES, "fr") == render_board(GAME_ID, view, NAMES, "FR-ca")
    assert render_private(GAME_ID, view, NAMES) != render_private(GAME_ID, view, NAMES, "fr")


def test_private_images_differ_per_seat_and_show_moves() -> None:
    state = _state("allocate")
    taker = GAME.view(state, state.alloc.taker if state.alloc else 0)
    other = GAME.view(state, 1 - taker.observer if taker.observer is not None else 1)
    assert taker.choices and not other.choices
    a = render_private(GAME_ID, taker, NAMES)
    b = render_private(GAME_ID, other, NAMES)
    assert a != b
    # without its moves, the taker's image changes: the moves are drawn
    assert render_private(GAME_ID, dataclasses.replace(taker, choices=()), NAMES) != a


@pytest.mark.parametrize(
    "names",
    [[], ["", "   "], ["\U0001f409\U0001f3b2", "李小龙"], ["A" * 300, "Zoë\u200d\ufe0f 🎉 " * 20]],
)
def test_awkward_names_are_handled(names: list[str]) -> None:
    for _, view in views(_state("combat-tests")):
        _check_image(render_board(GAME_ID, view, names), min_height=600)
        render_private(GAME_ID, view, names, "fr")


def test_registered_and_wrong_view() -> None:
    assert GAME_ID in RENDERED_GAMES
    with pytest.raises(TypeError):
        render_board(GAME_ID, object(), [])
    with pytest.raises(TypeError):
        render_private(GAME_ID, object(), [])


def test_view_type_is_the_engine_view() -> None:
    assert isinstance(GAME.view(_state("rally"), 1), View)


def test_generals_line_and_fire_turn_are_public() -> None:
    """The board's details name each side's generals that everybody can place
    (with their position, or dead) and count the others; the last-fire panel
    gives the turn of the fire. Every observer gets the same text."""
    from engine.core import evolve
    from render.belle_position import _context, _generals_text
    from tests.games.bp_helpers import act, scenario

    s = scenario(
        {"FC": "zouaves-turcos^ mac-mahon", "R": "frossard bourbaki?", "X": "bazaine"},
        {"FC": "landwehr^ landwehr^"},
        turn=7,
    )
    s, _ = act(s, "F1@C")
    texts = set()
    for seat, view in [(0, GAME.view(s, 0)), (1, GAME.view(s, 1)), (None, GAME.view(s, None))]:
        ctx = _context(view, NAMES, "en", private=False)
        texts.add(_generals_text(ctx, view.players[0]))
        assert view.last_combat is not None and view.last_combat.turn == 7, seat
    assert {t.replace("\u00a0", " ") for t in texts} == {
        "Mac-Mahon (FC) · Bourbaki (in reserve) · Bazaine † (dead) · 1 unseen"
    }
    # the same boards for everybody, and the turn changes the image
    boards = {render_board(GAME_ID, GAME.view(s, seat), NAMES) for seat in (0, 1, None)}
    assert len(boards) == 1
    assert s.last_combat is not None
    earlier = evolve(s, last_combat=evolve(s.last_combat, turn=5))
    assert render_board(GAME_ID, GAME.view(earlier, None), NAMES) not in boards


def main(out: str) -> None:
    path = Path(out)
    path.mkdir(parents=True, exist_ok=True)
    for name, build in SCENARIOS.items():
        state = build()
        for locale in LOCALES:
            spectator = GAME.view(state, None)
            (path / f"{name}-{locale}-board.png").write_bytes(
                render_board(GAME_ID, spectator, NAMES, locale)
            )
            for seat in (0, 1):
                view = GAME.view(state, seat)
                (path / f"{name}-{locale}-hand{seat + 1}.png").write_bytes(
                    render_private(GAME_ID, view, NAMES, locale)
                )
        print(name, "turn", state.turn, state.phase)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "/tmp/bp-check")
