"""Belle Position images: what is derived once from the view, and the words (the
belle_position catalogue's ``bp-render-*`` keys)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import i18n
from engine.games.belle_position import (
    CardView,
    PositionView,
    SideAt,
    TypeDef,
    View,
)

from ..common import (
    RGB,
    clean_text,
)
from .style import (
    NEUTRAL,
    SIDE_COLOURS,
)

# ---------------------------------------------------------------------------
# Context
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class _Ctx:
    view: View
    lang: str
    names: tuple[str, str]
    types: dict[str, TypeDef]
    cards: dict[str, CardView]  # uid -> a card the reader may identify

    def t(self, key: str, **params: object) -> str:
        return _tr(key, self.lang, **params)

    def t_or(self, key: str, default: str) -> str:
        """The ``bp-render-<key>`` text, or ``default`` when the catalogue has none."""
        full = "bp-render-" + key.replace("_", "-")
        return i18n.translate(self.lang, full) if i18n.has(self.lang, full) else default

    def name(self, seat: int) -> str:
        if 0 <= seat < 2:
            return self.names[seat]
        return self.t("player", n=seat + 1)

    def side(self, seat: int) -> str:
        return self.view.players[seat].side if 0 <= seat < 2 else ""

    def colour(self, seat: int) -> RGB:
        return SIDE_COLOURS.get(self.side(seat), (NEUTRAL, NEUTRAL))[0]

    def accent(self, seat: int) -> RGB:
        return SIDE_COLOURS.get(self.side(seat), (NEUTRAL, NEUTRAL))[1]

    def side_name(self, seat: int) -> str:
        if not 0 <= seat < 2:
            return ""
        p = self.view.players[seat]
        return self.t_or(f"side-{p.side}", p.side)

    def who(self, seat: int) -> str:
        """``Alice (French)``."""
        return f"{self.name(seat)} ({self.side_name(seat)})"

    def pos(self, p: int) -> PositionView | None:
        positions = self.view.positions
        return positions[p] if 0 <= p < len(positions) else None

    def pos_name(self, p: int) -> str:
        pos = self.pos(p)
        if pos is None:
            return "?"
        return self.t_or(f"pos-{pos.code}", pos.code)

    def at(self, p: int) -> str:
        """``in the German centre (AC)`` / ``au centre allemand (AC)``."""
        key = f"bp-render-at-{self.code(p)}"
        if not i18n.has(self.lang, key):
            key = "bp-render-at"
        return i18n.translate(self.lang, key, name=self.pos_name(p), code=self.code(p))

    def code(self, p: int) -> str:
        pos = self.pos(p)
        return pos.code if pos is not None else "?"

    def type_name(self, tid: str) -> str:
        t = self.types.get(tid)
        return t.name if t is not None else tid

    def type_short(self, tid: str) -> str:
        t = self.types.get(tid)
        return t.short if t is not None else tid

    def card_label(self, uid: str) -> str:
        """``A3 Landwehr`` when the card is known, else the handle alone."""
        card = self.cards.get(uid)
        return f"{uid} {card.short}" if card is not None else uid


def _tr(key: str, lang: str, **params: object) -> str:
    """A word of these images: the ``bp-render-<key>`` text of the catalogue."""
    return i18n.translate(lang, "bp-render-" + key.replace("_", "-"), **params)


def _clean_names(names: Sequence[str], lang: str) -> tuple[str, str]:
    cleaned: list[str] = []
    for seat in range(2):
        raw = str(names[seat]) if seat < len(names) else ""
        text = clean_text(raw[:200], "condensed-bold")
        cleaned.append(text or _tr("player", lang, n=seat + 1))
    return cleaned[0], cleaned[1]


def _context(view: object, names: Sequence[str], locale: str, private: bool) -> _Ctx:
    if not isinstance(view, View):
        raise TypeError(f"expected a Belle Position View, got {type(view).__name__}")
    lang = i18n.pick(locale)
    cards: dict[str, CardView] = {}
    deploying = view.phase == "deploy"
    for pos in view.positions:
        if deploying and not private:
            break
        for card in pos.terrain:
            cards[card.uid] = card
        for side in pos.sides:
            if side.general is not None:
                cards[side.general.uid] = side.general
            for card in side.units:
                if card.face_up or private:
                    cards[card.uid] = card
    for player in view.players:
        for card in (*player.eliminated, *player.used):
            cards.setdefault(card.uid, card)
        if private and player.reserve is not None:
            for card in player.reserve:
                cards.setdefault(card.uid, card)
    return _Ctx(
        view=view,
        lang=lang,
        names=_clean_names(names, lang),
        types={t.id: t for t in view.types},
        cards=cards,
    )


def _public_side(side: SideAt) -> tuple[tuple[CardView, ...], int]:
    """The face-up units of a side and the number of face-down ones, the same
    whoever observes (the owner's own view lists its face-down cards)."""
    shown = tuple(c for c in side.units if c.face_up)
    return shown, side.hidden + len(side.units) - len(shown)


def _public_mover(view: View) -> str:
    """The card that moved last, when everybody may know it (face up)."""
    if not view.mover:
        return ""
    for pos in view.positions:
        for side in pos.sides:
            if side.general is not None and side.general.uid == view.mover:
                return view.mover
            for card in side.units:
                if card.uid == view.mover and card.face_up:
                    return view.mover
    return ""


def _front_pairs(view: View) -> list[tuple[int, int]]:
    """(French position, German position it faces) for the three fronts, from
    the French left wing (top) to the French right wing (bottom)."""
    french = 0 if view.players[0].side == "french" else 1
    out = []
    for wing in range(3):
        p = french * 3 + wing
        pos = view.positions[p] if p < len(view.positions) else None
        opposite = pos.opposite if pos is not None else (1 - french) * 3 + 2 - wing
        out.append((p, opposite))
    return out


def _mods_text(ctx: _Ctx, mods: Sequence[tuple[str, int]]) -> str:
    return ", ".join(f"{ctx.t_or(f'mod-{name}', name)} {_signed(value)}" for name, value in mods)


def _signed(value: int) -> str:
    return f"+{value}" if value > 0 else (f"−{-value}" if value < 0 else "0")
