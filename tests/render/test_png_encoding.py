"""render.common.to_png: lossless, valid PNG, the compression level honoured."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageDraw

from render.common import canvas, rounded, to_png


def _board_like(mode: str) -> Image.Image:
    img = canvas(320, 200, (26, 52, 45), (19, 38, 33))
    rounded(img, (20, 20, 300, 120), 18, (242, 193, 78), (255, 255, 255), 3)
    ImageDraw.Draw(img).text((40, 140), "Pile 2 · 7 – 9", fill=(240, 236, 226))
    if mode == "RGBA":
        img = img.convert("RGBA")
        img.putalpha(img.convert("L"))
    return img.convert(mode)


@pytest.mark.parametrize("mode", ["RGB", "RGBA", "L", "P"])
def test_round_trip_is_lossless(mode: str) -> None:
    img = _board_like(mode)
    data = to_png(img)
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    with Image.open(io.BytesIO(data)) as back:
        back.load()
        want = img if mode in ("RGB", "RGBA") else img.convert("RGB")
        assert back.mode == want.mode and back.size == want.size
        assert back.tobytes() == want.tobytes()


def test_compression_level_is_honoured() -> None:
    img = _board_like("RGB")
    stored, fast, default = to_png(img, 0), to_png(img, 1), to_png(img)
    assert len(stored) > 320 * 200 * 3 > 4 * len(fast)
    assert len(default) <= len(fast)
    for data in (stored, fast, default):
        with Image.open(io.BytesIO(data)) as back:
            assert back.tobytes() == img.tobytes()
