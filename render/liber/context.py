"""Chroniques de Liber images: what is derived once from the view, the card
pool's names and texts, and the words (the ``liber_render`` catalogue's
``lb-render-*`` keys)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import i18n
from engine.games.liber.data import KEYWORDS, CardSpec, cards_by_id
from engine.games.liber.model import LINES, PieceView, SideView, View

from ..common import RGB, clean_text
from .style import SEAT_COLOURS


def tr(lang: str, key: str, **params: object) -> str:
    """A word of these images: the ``lb-render-<key>`` text of the catalogue."""
    return i18n.translate(lang, "lb-render-" + key, **params)


def spec(card_id: str) -> CardSpec | None:
    """The pool's card, or None for an id the pool lacks (drawn as its id)."""
    return cards_by_id().get(card_id)


def card_name(card_id: str) -> str:
    """The French name printed on the card, in every language."""
    found = spec(card_id)
    return found.name if found is not None else card_id


def card_text(card: CardSpec, lang: str) -> str:
    """The card's rules text in ``lang`` (English when the pool lacks it)."""
    texts = card.text.model_dump()
    return str(texts.get(lang) or texts.get("en") or "")


def keyword_order(ids: Sequence[str]) -> list[str]:
    """Keyword ids in the seed's order, unknown ones last."""
    rank: dict[str, int] = {k: i for i, k in enumerate(KEYWORDS)}
    return sorted(set(ids), key=lambda k: (rank.get(k, len(rank)), k))


def seat_colour(seat: int) -> RGB:
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def place_name(seat: int, place: str) -> str:
    """``2f3``: the place as the notation writes targets (seat 1-based)."""
    return f"{seat + 1}{place}"


def parse_place(place: str) -> tuple[int, int] | None:
    """``"f2"`` -> (line index, place index 0-4); None when unreadable."""
    if len(place) != 2 or place[0] not in LINES or not place[1].isdigit():
        return None
    slot = int(place[1]) - 1
    return (LINES.index(place[0]), slot) if 0 <= slot < 5 else None


@dataclass(frozen=True)
class Ctx:
    view: View
    lang: str
    names: tuple[str, ...]

    def t(self, key: str, **params: object) -> str:
        return tr(self.lang, key, **params)

    def name(self, seat: int) -> str:
        if 0 <= seat < len(self.names):
            return self.names[seat]
        return self.t("player", n=seat + 1)

    def side(self, seat: int) -> SideView | None:
        for side in self.view.sides:
            if side.seat == seat:
                return side
        return None

    def piece_at(self, seat: int, place: str) -> PieceView | None:
        side = self.side(seat)
        if side is None:
            return None
        for piece in side.pieces:
            if piece.place == place:
                return piece
        return None

    def winners(self) -> tuple[int, ...]:
        if self.view.phase != "over" or not self.view.ranking:
            return ()
        return tuple(self.view.ranking[0])


def clean_names(names: Sequence[str], seats: int, lang: str) -> tuple[str, ...]:
    out: list[str] = []
    for seat in range(seats):
        raw = str(names[seat]) if seat < len(names) else ""
        text = clean_text(raw[:200], "condensed-bold")
        out.append(text or tr(lang, "player", n=seat + 1))
    return tuple(out)


def context(view: object, names: Sequence[str], locale: str) -> Ctx:
    if not isinstance(view, View):
        raise TypeError(f"expected a Chroniques de Liber View, got {type(view).__name__}")
    lang = i18n.pick(locale)
    return Ctx(view=view, lang=lang, names=clean_names(names, len(view.sides), lang))
