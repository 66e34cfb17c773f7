"""Chroniques de Liber images keep their pixels: the hand-made views
(tests/render/liber_views.py), boards and hands in both locales, a few cards
and seeded random positions, against tests/render/golden/liber.json
(recorded before the images were cached); a warm render is a cold one."""

from __future__ import annotations

from functools import partial

from render import render_board, render_card, render_private

from .golden_pixels import Image_, check_warm_equals_cold, compare, random_matches
from .liber_views import FULL_HAND, NAMES, SCENARIOS, observed

GAME_ID = "liber"
CARDS = ("dieu-de-la-guerre", "eclair", "epee-runique", "autel")


def golden_images() -> list[Image_]:
    images: list[Image_] = []
    for name in sorted(SCENARIOS):
        v = SCENARIOS[name]()
        for locale in ("en", "fr"):
            board = observed(v, None)
            hand = observed(v, len(v.sides) - 1, FULL_HAND, ("play eclair 2f1",))
            images.append(
                (f"{name}-{locale}-board", partial(render_board, GAME_ID, board, NAMES, locale))
            )
            images.append(
                (f"{name}-{locale}-hand", partial(render_private, GAME_ID, hand, NAMES, locale))
            )
    images.append(
        (
            "spectator-hand",
            partial(render_private, GAME_ID, observed(SCENARIOS["start"](), None), NAMES, "fr"),
        )
    )
    for k, card in enumerate(CARDS):
        locale = ("en", "fr")[k % 2]
        images.append((f"card-{card}-{locale}", partial(render_card, GAME_ID, card, locale)))
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
        if i[0].startswith(("statuses-fr", "four-players-en", "card-eclair", "random1"))
    ]
    assert len(images) >= 6
    check_warm_equals_cold("render.liber", images)
