"""Game images: a game view in, PNG bytes out.

Pure functions (no files written, no network, no Discord): the Discord host
and the console call :func:`render_board` for the public table and
:func:`render_private` for one seat's hand; :func:`render_choices` draws
the placements a seat is choosing among (numbered ghost outlines), for the
games that have placements. Each game has its own module;
shared drawing helpers live in :mod:`render.common`. The ratings images
(:func:`render_leaderboard`, :func:`render_rating_chart`) live in :mod:`render.stats`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from . import battalia, belle_position, between_battle, liber, via_belli
from .stats import LeaderboardRow, RatingSeries, render_leaderboard, render_rating_chart

Renderer = Callable[[object, Sequence[str], str], bytes]


class UnknownGame(KeyError, ValueError):
    """No renderer for this game id (both a KeyError and a ValueError)."""


class UnknownCard(KeyError, ValueError):
    """No such card in this game's pool (both a KeyError and a ValueError)."""


CardRenderer = Callable[[str, str], bytes]
ChoicesRenderer = Callable[[object, Sequence[str], str, Sequence[tuple[int, str]]], bytes | None]

# The registry of this layer: one line per game, its module (which defines
# render_board, render_private and, for games with placements, render_spots).
_MODULES = {
    "between-battle": between_battle,
    "belle-position": belle_position,
    "via-belli": via_belli,
    "liber": liber,
    "battalia": battalia,
}
_BOARD: dict[str, Renderer] = {gid: m.render_board for gid, m in _MODULES.items()}
_PRIVATE: dict[str, Renderer] = {gid: m.render_private for gid, m in _MODULES.items()}
_CHOICES: dict[str, ChoicesRenderer] = {
    gid: m.render_spots for gid, m in _MODULES.items() if hasattr(m, "render_spots")
}

RENDERED_GAMES = frozenset(_BOARD)
"""The game ids that have a renderer."""
CHOICE_GAMES = frozenset(_CHOICES)
"""The game ids whose :func:`render_choices` may draw something (for the
others it is always None: hosts need not ask)."""

# The games whose cards are data (a pool the host's /card searches): their
# render_card(card_id, locale). Independent of _MODULES: a card can be drawn
# before its game plays.
_CARDS: dict[str, CardRenderer] = {"liber": liber.render_card}
CARD_GAMES = frozenset(_CARDS)
"""The game ids whose cards :func:`render_card` draws."""


def _renderer(table: dict[str, Renderer], game_id: str) -> Renderer:
    try:
        return table[game_id]
    except KeyError:
        known = ", ".join(sorted(table))
        raise UnknownGame(f"no renderer for game {game_id!r} (known: {known})") from None


def render_board(game_id: str, view: object, names: Sequence[str], locale: str = "en") -> bytes:
    """The public table as a PNG: any observer's view, spectators included."""
    return _renderer(_BOARD, game_id)(view, names, locale)


def render_private(game_id: str, view: object, names: Sequence[str], locale: str = "en") -> bytes:
    """One seat's private image (its hand and moves) as a PNG; a message
    image for a spectator's view."""
    return _renderer(_PRIVATE, game_id)(view, names, locale)


def render_choices(
    game_id: str,
    view: object,
    names: Sequence[str],
    locale: str,
    choices: Sequence[tuple[int, str]],
) -> bytes | None:
    """The choices a seat is making, drawn on its view, or None when the game
    has nothing to draw for them. ``choices`` are ``(number, notation)``: the
    image carries the numbers the host shows beside each choice (Via Belli:
    each legal spot of the card being placed as a numbered ghost outline;
    Battalia: each legal square and rotation of the terrain card as a
    numbered ghost tile, heroes' and Buff's paths, start and entry squares).
    Games without placements return None."""
    _renderer(_BOARD, game_id)  # an unknown game is an error, as for boards
    draw = _CHOICES.get(game_id)
    return None if draw is None else draw(view, names, locale, choices)


def render_card(game_id: str, card_id: str, locale: str = "en") -> bytes:
    """One card of a game's pool, large, with its full text in ``locale``
    (UnknownGame for a game without cards, UnknownCard for an id the pool
    lacks)."""
    draw = _CARDS.get(game_id)
    if draw is None:
        known = ", ".join(sorted(_CARDS))
        raise UnknownGame(f"no cards for game {game_id!r} (games with cards: {known})")
    try:
        return draw(card_id, locale)
    except KeyError:
        raise UnknownCard(f"no card {card_id!r} in game {game_id!r}") from None


__all__ = [
    "CARD_GAMES",
    "RENDERED_GAMES",
    "LeaderboardRow",
    "RatingSeries",
    "UnknownCard",
    "UnknownGame",
    "render_board",
    "render_card",
    "render_choices",
    "render_leaderboard",
    "render_private",
    "render_rating_chart",
]
