"""render/liber/layers.py (used by the Liber, Belle Position and Battalia
images) draws the same pixels as render.common, and ``on_flat`` only says
"flat" where a rounded panel's fill is whole whatever lies under it."""

from __future__ import annotations

import random

from PIL import Image

from render.common import canvas, draw_text_cached, font, paste_rgba, rounded_fast
from render.liber import layers

FILL = (44, 48, 62)
EDGE = (200, 120, 40)


def test_the_gradient_is_the_canvas() -> None:
    for height in (1, 2, 57, 998, 1712):
        for top, bottom in (((34, 36, 48), (24, 25, 34)), ((0, 0, 0), (255, 200, 10))):
            a = canvas(300, height, top, bottom)
            b = layers.gradient(300, height, top, bottom)
            assert a.tobytes() == b.tobytes(), (height, top, bottom)


def test_shapes_text_and_tiles_are_render_commons() -> None:
    rng = random.Random(17)
    tile = Image.new("RGBA", (30, 20), (250, 10, 10, 128))
    for _ in range(40):
        base = canvas(220, 160, (30, 60, 45), (90, 10, 200))
        a, b = base.copy(), base.copy()
        x, y = rng.randrange(0, 100), rng.randrange(0, 80)
        box = (x, y, x + rng.randrange(1, 110), y + rng.randrange(1, 70))
        radius, width = rng.randrange(0, 20), rng.randrange(0, 4)
        rounded_fast(a, box, radius, FILL, EDGE, width)
        layers.rounded(b, box, radius, FILL, EDGE, width)
        paste_rgba(a, tile, (x, y))
        layers.paste_rgba(b, tile, (x, y))
        xy = (x + rng.random() * 20, y + rng.random() * 20)
        draw_text_cached(a, xy, "Épée ✓ 12", font("bold", 17), EDGE, "lm")
        layers.draw_text(b, xy, "Épée ✓ 12", font("bold", 17), EDGE, "lm")
        assert a.tobytes() == b.tobytes()


def test_on_flat_says_flat_only_where_the_fill_is_whole() -> None:
    rng = random.Random(3)
    said_no = 0
    for radius, border in ((8, 0), (12, 2), (14, 2), (13, 1)):
        box = (10, 10, 110, 90)
        panels = []
        for under in ((0, 0, 0), (255, 255, 255)):
            img = Image.new("RGB", (120, 100), under)
            layers.rounded(img, box, radius, FILL, EDGE, border)
            panels.append(img)
        for _ in range(2000):
            x, y = rng.randrange(10, 100), rng.randrange(10, 80)
            cell = (x, y, x + rng.randrange(1, 12), y + rng.randrange(1, 12))
            if layers.on_flat(cell, box, radius, border):
                for img in panels:
                    region = img.crop(cell)
                    assert region.getcolors() == [(region.width * region.height, FILL)], cell
            else:
                said_no += 1
    assert said_no > 0
    assert not layers.on_flat((10, 10, 20, 20), (10, 10, 110, 90), 12)
