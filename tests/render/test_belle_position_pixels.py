"""Belle Position images keep their pixels: scenario states (boards and
both seats' hands, both locales) and seeded random positions, against
tests/render/golden/belle-position.json (recorded before the images were
cached); a warm render is a cold one."""

from __future__ import annotations

from functools import partial

from render import render_board, render_private

from .golden_pixels import Image_, check_warm_equals_cold, compare, random_matches
from .test_belle_position_render import GAME, NAMES, _state

GAME_ID = "belle-position"
# one state per phase, the variant, a swapped seat and a resignation
STATES = (
    "deploy-start",
    "deploy-half",
    "rally",
    "combat-dice",
    "combat-tests",
    "allocate",
    "movement-late",
    "over",
    "variant-combat",
    "swapped-allocate",
    "resigned-deploying",
    "general-sixes",
)


def golden_images() -> list[Image_]:
    images: list[Image_] = []
    for name in STATES:
        state = _state(name)
        for k, locale in enumerate(("en", "fr")):
            board = GAME.view(state, None)
            hand = GAME.view(state, k)
            images.append(
                (f"{name}-{locale}-board", partial(render_board, GAME_ID, board, NAMES, locale))
            )
            images.append(
                (f"{name}-{locale}-hand{k}", partial(render_private, GAME_ID, hand, NAMES, locale))
            )
    spectator = GAME.view(_state("rally"), None)
    images.append(("spectator-hand", partial(render_private, GAME_ID, spectator, NAMES, "fr")))
    for k, match in enumerate(random_matches(GAME_ID, 6)):
        locale = ("en", "fr")[k % 2]
        seat = min(match.pending()) if match.pending() else 0
        images.append(
            (f"random{k}-board", partial(render_board, GAME_ID, match.view(None), NAMES, locale))
        )
        images.append(
            (f"random{k}-hand", partial(render_private, GAME_ID, match.view(seat), NAMES, locale))
        )
    return images


def test_the_images_keep_their_pixels() -> None:
    compare(GAME_ID, golden_images())


def test_a_warm_render_is_a_cold_render() -> None:
    images = [
        i
        for i in golden_images()
        if i[0].startswith(("combat-dice-fr", "movement-late-en", "random2"))
    ]
    assert len(images) >= 6
    check_warm_equals_cold("render.belle_position", images)
