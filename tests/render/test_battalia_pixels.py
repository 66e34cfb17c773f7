"""Battalia images keep their pixels: the hand-made views
(tests/render/battalia_views.py), boards and hands in both locales, the
placement close-ups and seeded random positions, against
tests/render/golden/battalia.json (recorded before the images were cached);
a warm render is a cold one."""

from __future__ import annotations

from functools import partial

from render import render_board, render_choices, render_private

from .battalia_views import NAMES, SCENARIOS, observed, two_seats
from .golden_pixels import Image_, check_warm_equals_cold, compare, random_matches

GAME_ID = "battalia"
PLACES = ("place d2 0", "place d2 1", "place d2 3", "place c4 0", "place b4 2", "place d3 1")


def _choices(locale: str, count: int) -> bytes:
    choices = [(k + 1, c) for k, c in enumerate(PLACES[:count])]
    data = render_choices(GAME_ID, two_seats(), NAMES, locale, choices)
    assert data is not None
    return data


def golden_images() -> list[Image_]:
    images: list[Image_] = []
    for name in sorted(SCENARIOS):
        v = SCENARIOS[name]()
        for locale in ("en", "fr"):
            board = observed(v, None)
            hand = observed(v, len(v.players) - 1)
            images.append(
                (f"{name}-{locale}-board", partial(render_board, GAME_ID, board, NAMES, locale))
            )
            images.append(
                (f"{name}-{locale}-hand", partial(render_private, GAME_ID, hand, NAMES, locale))
            )
    images.append(
        (
            "spectator-hand",
            partial(render_private, GAME_ID, observed(two_seats(), None), NAMES, "fr"),
        )
    )
    images.append(("spots-en", partial(_choices, "en", 6)))
    images.append(("spots-fr", partial(_choices, "fr", 2)))
    for k, match in enumerate(random_matches(GAME_ID, 6)):
        locale = ("en", "fr")[k % 2]
        names = NAMES[: match.seats]
        seat = min(match.pending()) if match.pending() else 0
        images.append(
            (f"random{k}-board", partial(render_board, GAME_ID, match.view(None), names, locale))
        )
        images.append(
            (f"random{k}-hand", partial(render_private, GAME_ID, match.view(seat), names, locale))
        )
    return images


def test_the_images_keep_their_pixels() -> None:
    compare(GAME_ID, golden_images())


def test_a_warm_render_is_a_cold_render() -> None:
    images = [
        i
        for i in golden_images()
        if i[0].startswith(("battle-fr", "auction-en", "spots-en", "random3"))
    ]
    assert len(images) >= 6
    check_warm_equals_cold("render.battalia", images)
