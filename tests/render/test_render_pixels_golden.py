"""Between Battle and Via Belli images stay pixel-identical.

A fixed set of views (every scenario of the two games' render tests, boards
and hands, both locales, a few random positions, Via Belli's numbered spots)
is rendered and the SHA-256 of each image's decoded pixels is compared with
``golden/render_pixels.json``, recorded from the renderer before its caches
and encoder were changed (issue 17). The PNG bytes may differ (another
deflate setting), the pixels may not.

Re-record only when a picture is meant to change, and say so in the commit:
``python -m tests.render.test_render_pixels_golden``.
"""

from __future__ import annotations

import hashlib
import io
import json
import sys
from collections.abc import Callable, Iterator
from functools import cache
from itertools import islice
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from engine import GAMES
from engine.games.via_belli import Summon
from render import render_board, render_choices, render_private

from . import scenarios as bb_scenarios
from .test_via_belli_render import SCENARIOS as VB_SCENARIOS
from .test_via_belli_render import playthrough as vb_playthrough

GOLDEN = Path(__file__).parent / "golden" / "render_pixels.json"
LOCALES = ("en", "fr")
BB = "between-battle"
VB = "via-belli"
VB_NAMES = ("Alice", "Bruno", "Chloé", "Dmitri")

Render = Callable[[], bytes | None]


def pixels_digest(png: bytes) -> str:
    """SHA-256 of the decoded pixels (mode and size included)."""
    with Image.open(io.BytesIO(png)) as img:
        img.load()
        rgb = img if img.mode in ("RGB", "RGBA") else img.convert("RGB")
        head = f"{rgb.mode} {rgb.size[0]}x{rgb.size[1]}\n".encode()
        return hashlib.sha256(head + rgb.tobytes()).hexdigest()


@cache
def _bb_state(name: str) -> Any:
    return bb_scenarios.SCENARIOS[name]()


@cache
def _vb_state(name: str) -> Any:
    return VB_SCENARIOS[name]()


@cache
def _bb_random(seats: int, seed: int, stop: int) -> Any:
    options = f"characters={bb_scenarios.CHARACTERS[seats]}"
    return list(islice(bb_scenarios.playthrough(options, seats, seed), stop + 1))[-1]


@cache
def _vb_random(options: str, seats: int, seed: int, stop: int) -> Any:
    return list(vb_playthrough(options, seats, seed, steps=stop))[-1]


def _vb_spots(state: Any, seat: int, limit: int) -> list[tuple[int, str]]:
    """The numbered summons of the first card along its first anchor."""
    first: tuple[str, ...] | None = None
    out: list[tuple[int, str]] = []
    for action, path in GAMES[VB].action_menu(state, seat):
        keys = tuple(s.key for s in path[:2])
        if isinstance(action, Summon) and first in (None, keys):
            first = keys
            out.append((len(out) + 1, GAMES[VB].format_action(action)))
    return out[:limit]


def _images(
    game_id: str, tag: str, state: Any, names: tuple[str, ...]
) -> Iterator[tuple[str, Render]]:
    game = GAMES[game_id]
    seats = game.seat_count(state)
    who = list(names[:seats])
    for locale in LOCALES:
        spectator = game.view(state, None)
        yield (
            f"{game_id}/{tag}/{locale}/board",
            lambda v=spectator, loc=locale: render_board(game_id, v, who, loc),
        )
        for seat in range(seats):
            view = game.view(state, seat)
            yield (
                f"{game_id}/{tag}/{locale}/hand{seat + 1}",
                lambda v=view, loc=locale: render_private(game_id, v, who, loc),
            )
    yield (
        f"{game_id}/{tag}/en/spectator-hand",
        lambda: render_private(game_id, game.view(state, None), who, "en"),
    )


def cases() -> Iterator[tuple[str, Render]]:
    """(key, render) for every image of the golden."""
    for name in sorted(bb_scenarios.SCENARIOS):
        yield from _images(BB, name, _bb_state(name), bb_scenarios.NAMES)
    for seats, seed, stop in ((2, 11, 9), (3, 12, 31), (4, 13, 47), (2, 14, 80)):
        state = _bb_random(seats, seed, stop)
        yield from _images(BB, f"random-{seats}p-{seed}-{stop}", state, bb_scenarios.NAMES)
    for name in sorted(VB_SCENARIOS):
        yield from _images(VB, name, _vb_state(name), VB_NAMES)
    for options, seats, seed, stop in (
        ("table=gueridon", 2, 21, 17),
        ("table=standard", 3, 22, 45),
        ("table=carre_4j", 4, 23, 60),
    ):
        state = _vb_random(options, seats, seed, stop)
        tag = f"random-{options[6:]}-{seats}p-{seed}-{stop}"
        yield from _images(VB, tag, state, VB_NAMES)
    start = GAMES[VB].setup(GAMES[VB].options("table=gueridon"), 2, 7)
    seat = start.active
    spots = _vb_spots(start, seat, 40)
    for locale in LOCALES:
        for count in (3, len(spots)):
            yield (
                f"{VB}/spots-gueridon-{count}/{locale}",
                lambda loc=locale, k=count: render_choices(
                    VB, GAMES[VB].view(start, seat), VB_NAMES[:2], loc, spots[:k]
                ),
            )


def _digests(every: int = 1) -> dict[str, str]:
    """The digest of every ``every``-th image (all of them by default)."""
    out: dict[str, str] = {}
    for index, (key, draw) in enumerate(cases()):
        if index % every:
            continue
        png = draw()
        assert png is not None, key
        out[key] = pixels_digest(png)
    return out


def test_pixels_match_the_golden(full_sweep: bool) -> None:
    """Every image with ``--full``; every other one in the default tier (each
    scenario still has its board or hands in both languages checked)."""
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    digests = _digests(1 if full_sweep else 2)
    assert sorted(golden) == sorted(key for key, _ in cases())
    assert set(digests) <= set(golden) and len(digests) >= len(golden) // 2
    changed = [key for key in digests if digests[key] != golden[key]]
    assert not changed, f"{len(changed)} images changed: {changed[:10]}"


@pytest.mark.parametrize("game_id", [BB, VB])
def test_warm_render_equals_cold_render(game_id: str) -> None:
    """An image drawn with empty caches and the same image drawn again from
    the caches (and after other images filled them) are the same pixels."""
    from render.common import clear_caches

    chosen = [(k, d) for k, d in cases() if k.startswith(game_id + "/")]
    picked = chosen[:: max(1, len(chosen) // 8)]
    clear_caches()
    cold = {key: pixels_digest(draw() or b"") for key, draw in picked}
    for _, draw in chosen[1:12]:  # fill the caches with other images
        draw()
    warm = {key: pixels_digest(draw() or b"") for key, draw in picked}
    assert warm == cold
    clear_caches()
    assert {key: pixels_digest(draw() or b"") for key, draw in picked[:3]} == {
        key: cold[key] for key, _ in picked[:3]
    }


def main() -> None:
    GOLDEN.parent.mkdir(parents=True, exist_ok=True)
    digests = _digests()
    GOLDEN.write_text(json.dumps(digests, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"{len(digests)} images recorded in {GOLDEN}", file=sys.stderr)


if __name__ == "__main__":
    main()
