"""Pixel goldens for the renderers that caching must not change.

Each game's test renders a fixed list of images (hand-made views, scenario
states and a few positions of seeded random games, boards and hands, both
locales) and compares the SHA-256 of each image's decoded RGBA pixels with
``tests/render/golden/<game>.json``, recorded from the renderer before its
images were cached. A cache that changes one pixel fails the test.

To re-record (only when a drawing changes on purpose, never for a speed-up):
``python -m tests.render.golden_pixels GAME_MODULE`` (e.g.
``tests.render.test_liber_pixels``), which rewrites that game's JSON.
"""

from __future__ import annotations

import hashlib
import importlib
import io
import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

from PIL import Image

from engine import GAMES, Match, rng

GOLDEN_DIR = Path(__file__).parent / "golden"

Image_ = tuple[str, Callable[[], bytes]]
"""One image of a golden: its name and how to draw it (PNG bytes)."""


def pixels_digest(png: bytes) -> str:
    """SHA-256 of the decoded pixels (RGBA), independent of the PNG encoding."""
    with Image.open(io.BytesIO(png)) as img:
        rgba = img.convert("RGBA")
    return hashlib.sha256(repr(rgba.size).encode() + rgba.tobytes()).hexdigest()


def random_matches(game_id: str, count: int, seed: int = 17) -> Iterator[Match]:
    """Matches stopped at various points of seeded random games (the legal
    moves are sorted before one is drawn, so that the list's order does not
    matter, only which moves are legal)."""
    game = GAMES[game_id]
    chooser = rng.seed_state(seed, game_id)
    low, high = game.info.min_seats, game.info.max_seats
    for i in range(count):
        match = Match(game, None, low + i % (high - low + 1), 1000 + i)
        stop, chooser = rng.randbelow(chooser, 50)
        for _ in range(stop):
            pending = sorted(match.pending())
            if not pending:
                break
            legal = sorted(match.legal_notations(pending[0]))
            index, chooser = rng.randbelow(chooser, len(legal))
            match.play(pending[0], legal[index])
        yield match


def golden_path(game_id: str) -> Path:
    return GOLDEN_DIR / f"{game_id}.json"


def load(game_id: str) -> dict[str, str]:
    data: dict[str, str] = json.loads(golden_path(game_id).read_text(encoding="utf-8"))
    return data


def digests(images: list[Image_]) -> dict[str, str]:
    out: dict[str, str] = {}
    for name, draw in images:
        assert name not in out, f"two images named {name}"
        out[name] = pixels_digest(draw())
    return out


def compare(game_id: str, images: list[Image_]) -> None:
    """Every image's pixels are the golden's; names the images that differ."""
    expected = load(game_id)
    got = digests(images)
    assert sorted(got) == sorted(expected), "the list of images changed"
    changed = [name for name in got if got[name] != expected[name]]
    assert not changed, f"{len(changed)} image(s) changed: {changed}"


def record(module_name: str) -> None:
    module = importlib.import_module(module_name)
    game_id: str = module.GAME_ID
    images: list[Image_] = module.golden_images()
    path = golden_path(game_id)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(digests(images), indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"{path}: {len(images)} images")


if __name__ == "__main__":
    for name in sys.argv[1:]:
        record(name)


def clear_caches(*packages: str) -> int:
    """Empty every memo (``functools`` caches) of the given render packages
    and of :mod:`render.common`: the next image is drawn cold. Returns how
    many caches were cleared."""
    cleared = 0
    names = ("render.common", *packages)
    for module_name, module in list(sys.modules.items()):
        if module is None or not any(
            module_name == p or module_name.startswith(p + ".") for p in names
        ):
            continue
        for value in list(vars(module).values()):
            clear = getattr(value, "cache_clear", None)
            if callable(clear) and getattr(value, "__module__", None) == module_name:
                clear()
                cleared += 1
    return cleared


def check_warm_equals_cold(package: str, images: list[Image_]) -> None:
    """Each image drawn with every cache empty is the image drawn again with
    the caches full (after the others), byte for byte."""
    assert clear_caches(package) > 0
    cold = [draw() for _, draw in images]
    for _, draw in images:  # fill the caches with the other images too
        draw()
    warm = [draw() for _, draw in reversed(images)][::-1]
    for (name, _), a, b in zip(images, cold, warm, strict=True):
        assert a == b, f"{name}: warm render differs from cold render"
