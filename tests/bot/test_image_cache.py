"""The host's image cache (bot/images.py): every image drawn once."""

from __future__ import annotations

import asyncio
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest

from bot.images import ImageCache
from bot.service import LiveMatch


class Painter:
    """Counts the drawings; each image names what it was drawn from."""

    def __init__(self, delay: float = 0.0) -> None:
        self.calls: list[Any] = []
        self.delay = delay

    async def __call__(self, inputs: Any) -> bytes:
        self.calls.append(inputs)
        await asyncio.sleep(self.delay)
        return f"png of {inputs}".encode()


async def test_one_drawing_per_version_and_language() -> None:
    cache, paint = ImageCache(), Painter()
    asked: list[str] = []

    def inputs() -> str:
        asked.append("view")
        return "view-5"

    first = await cache.get("board", 1, None, "en-US", 5, inputs, paint)
    # the channel, a spectator and /board: the same version, the same language
    assert await cache.get("board", 1, None, "en-GB", 5, inputs, paint) == first
    assert await cache.get("board", 1, None, "en", 5, inputs, paint) == first
    assert paint.calls == ["view-5"] and asked == ["view"]  # the view drawn once
    # another language is another image; another match too
    await cache.get("board", 1, None, "fr", 5, lambda: "view-5", paint)
    await cache.get("board", 2, None, "en", 5, lambda: "view-5", paint)
    assert len(paint.calls) == 3 and cache.hits == 2 and cache.draws == 3


async def test_equal_inputs_at_a_new_version_are_not_drawn_again() -> None:
    cache, paint = ImageCache(), Painter()
    await cache.get("private", 1, 0, "fr", 3, lambda: ("hand", "names"), paint)
    await cache.get("private", 1, 0, "fr", 4, lambda: ("hand", "names"), paint)
    assert len(paint.calls) == 1
    await cache.get("private", 1, 0, "fr", 5, lambda: ("other hand", "names"), paint)
    assert paint.calls == [("hand", "names"), ("other hand", "names")]
    # only the last one of a seat is kept: the first hand is drawn again
    await cache.get("private", 1, 0, "fr", 6, lambda: ("hand", "names"), paint)
    assert len(paint.calls) == 3
    # seats are apart
    await cache.get("private", 1, 1, "fr", 6, lambda: ("hand", "names"), paint)
    assert len(paint.calls) == 4 and len(cache) == 2


async def test_callers_at_once_share_one_drawing() -> None:
    cache, paint = ImageCache(), Painter(delay=0.05)
    images = await asyncio.gather(
        *(cache.get("board", 7, None, "fr", 1, lambda: "v", paint) for _ in range(5))
    )
    assert len(set(images)) == 1 and len(paint.calls) == 1


async def test_a_failed_drawing_is_not_kept() -> None:
    cache = ImageCache()

    async def broken(_: Any) -> bytes:
        raise RuntimeError("worker died")

    with pytest.raises(RuntimeError):
        await cache.get("board", 1, None, "en", 1, lambda: "v", broken)
    paint = Painter()
    assert await cache.get("board", 1, None, "en", 1, lambda: "v", paint) == b"png of v"
    assert len(paint.calls) == 1


async def test_memory_is_bounded() -> None:
    cache, paint = ImageCache(budget=30), Painter()
    for match in range(10):  # each image is 8 bytes: three fit
        await cache.get("board", match, None, "en", 1, lambda: "v", paint)
    assert cache.size <= 30 and len(cache) == 3
    # the most recent ones stay; a match that ended leaves nothing
    await cache.get("board", 9, None, "en", 1, lambda: "v", paint)
    assert len(paint.calls) == 10
    cache.forget(9)
    assert len(cache) == 2 and cache.size == 16


async def test_the_host_asks_no_worker_for_spots_a_game_never_draws(tmp_path: Path) -> None:
    """Between Battle draws no placements (``render_choices`` is None for
    it): its private messages send no view to a worker for them; Via Belli's
    are drawn, once per version and seat."""
    from bot import Settings, create_bot
    from render import CHOICE_GAMES

    assert "between-battle" not in CHOICE_GAMES and "via-belli" in CHOICE_GAMES
    bot = create_bot(
        Settings(discord_token="x", database_path=str(tmp_path / "g.db"), worker_processes=False)
    )
    sent: list[Any] = []

    async def run(fn: Any, *args: Any) -> Any:
        sent.append(fn)
        return b"spots"

    bot.render_pool.run = run  # type: ignore[method-assign]
    for game_id, drawn in (("between-battle", []), ("via-belli", [b"spots"])):
        live = cast(LiveMatch, SimpleNamespace(id=1, game_id=game_id, names=["A", "B"]))
        got = [await bot.spots_png(live, 0, "view", 3, "fr", [(1, "x")]) for _ in range(2)]
        assert [g for g in got if g is not None] == drawn * 2
    assert len(sent) == 1  # Via Belli's, once
    bot.render_pool.close()
