"""Chroniques de Liber images: one seat's hand, every card with its full
text (a spectator gets a short message image)."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from engine.games.liber.data import CardSpec

from ..common import (
    darken,
    fit_text,
    fit_with_names,
    font,
    message_image,
    mix,
    pill,
    to_png,
)
from .board import _banner_lines, pending_line
from .cards import cost_discs, draw_paragraphs, lead_lines, paragraphs, type_colour
from .context import Ctx, card_name, context, spec, tr
from .layers import gradient, rounded
from .style import (
    BG_BOTTOM,
    BG_TOP,
    COIN,
    FAITH,
    GOLD,
    GOLD_DARK,
    GREEN,
    INK,
    INK_SOFT,
    MARGIN,
    MUTED,
    PARCHMENT,
    TEXT,
    WIDTH,
    draw_text,
    text_width,
)
from .tiles import counter_chip, stat_chip, type_label

COL_GAP = 16
COL_W = (WIDTH - 2 * MARGIN - COL_GAP) // 2
PAD = 16
NAME_FONT = font("bold", 25)
TYPE_FONT = font("condensed-bold", 20)
BOLD = font("condensed-bold", 21)
REGULAR = font("regular", 21)
LINE_H = 26
HEAD_H = 98


def render_private(view: object, names: Sequence[str], locale: str = "en") -> bytes:
    ctx = context(view, names, locale)
    v = ctx.view
    if v.observer is None or v.hand is None:
        return message_image(ctx.t("spectator-title"), [ctx.t("spectator-text")])
    playable = _playable(v.choices)
    panels = [_Panel(ctx, card_id, card_id in playable) for card_id in v.hand]
    rows = [panels[i : i + 2] for i in range(0, len(panels), 2)]
    heights = [max(p.height for p in row) for row in rows]
    height = HEAD_H + sum(heights) + COL_GAP * len(rows) + (70 if not panels else 0) + 16
    img = gradient(WIDTH, height, BG_TOP, BG_BOTTOM)
    _head(img, ctx, bool(playable & set(v.hand)))
    y = HEAD_H
    if not panels:
        draw_text(img, (WIDTH / 2, y + 30), ctx.t("hand-empty"), font("bold", 24), MUTED, "mm")
    for row, h in zip(rows, heights, strict=True):
        for k, panel in enumerate(row):
            panel.draw(img, MARGIN + k * (COL_W + COL_GAP), y, h)
        y += h + COL_GAP
    return to_png(img)


def _playable(choices: Sequence[str]) -> set[str]:
    """The card ids the observer may play now (``play <id> ...`` choices)."""
    out = set()
    for choice in choices:
        words = choice.split()
        if len(words) >= 2 and words[0] == "play":
            out.add(words[1])
    return out


def _head(img: Image.Image, ctx: Ctx, playable: bool) -> None:
    v = ctx.view
    seat = v.observer if v.observer is not None else 0
    side = ctx.side(seat)
    small = font("condensed-bold", 19)
    right = WIDTH - MARGIN
    if side is not None:
        bits = [
            (COIN, ctx.t("gold", n=side.gold, income=side.income)),
            (FAITH, ctx.t("faith", n=side.faith, m=v.faith_to_win)),
            ((150, 150, 160), ctx.t("hand-limit", n=len(v.hand or ()), m=v.hand_limit)),
        ]
        for colour, text in reversed(bits):
            right -= text_width(small, text) + 36
            counter_chip(img, right, 15, colour, text, small)
            right -= 8
    title = ctx.t("hand-title", name=ctx.name(seat))
    draw_text(
        img,
        (MARGIN + 2, 28),
        fit_with_names(ctx.names, title, font("bold", 28), right - MARGIN - 20),
        font("bold", 28),
        TEXT,
        "lm",
    )
    status, mine = status_line(ctx, playable)
    colour = GOLD if mine else MUTED
    fnt = font("condensed-bold", 21)
    draw_text(
        img, (MARGIN + 2, 64), fit_with_names(ctx.names, status, fnt, 1000), fnt, colour, "lm"
    )


def status_line(ctx: Ctx, playable: bool) -> tuple[str, bool]:
    """The hand's second line and whether the observer must decide: what
    it decides (a reaction, a discard ...), "your move", or who plays."""
    v = ctx.view
    kinds = [kind for s, kind in v.pending if s == v.observer]
    if not kinds or v.observer is None:
        return _banner_lines(ctx)[0], False
    line = pending_line(ctx, v.observer, kinds[0])
    return line or ctx.t("your-move-cards" if playable else "your-move"), True


class _Panel:
    """One card of the hand, laid out once (its height) and drawn."""

    def __init__(self, ctx: Ctx, card_id: str, playable: bool) -> None:
        self.ctx = ctx
        self.card_id = card_id
        self.card: CardSpec | None = spec(card_id)
        self.playable = playable
        self.lines: list[tuple[str, str]] = []
        if self.card is not None:
            for para in paragraphs(self.card, ctx.lang):
                self.lines += lead_lines(para, BOLD, REGULAR, COL_W - 2 * PAD - 8, ctx.lang)
        self.height = 44 + 30 + 8 + LINE_H * len(self.lines) + PAD

    def draw(self, img: Image.Image, x: int, y: int, height: int) -> None:
        ctx = self.ctx
        card = self.card
        colour = type_colour(card)
        edge = GOLD if self.playable else darken(colour, 0.2)
        rounded(img, (x, y, x + COL_W, y + height), 14, PARCHMENT, edge, 4 if self.playable else 2)
        rounded(img, (x + 6, y + 8, x + 14, y + height - 8), 3, colour)
        right = x + COL_W - PAD
        if card is not None:
            right = cost_discs(img, card, right, y + 8, 36, ctx.lang)
        name = fit_text(card_name(self.card_id), NAME_FONT, right - x - PAD - 16)
        draw_text(img, (x + PAD + 8, y + 27), name, NAME_FONT, INK, "lm")
        ty = y + 44 + 13
        label = type_label(ctx.lang, self.card_id) if card is not None else self.card_id
        draw_text(img, (x + PAD + 8, ty), label, TYPE_FONT, darken(colour, 0.2), "lm")
        tx = x + PAD + 8 + text_width(TYPE_FONT, label) + 14
        if card is not None and card.force is not None and card.pv is not None:
            tx += stat_chip(img, tx, ty - 13, "sword", str(card.force), (84, 70, 58), 26, BOLD) + 6
            stat_chip(img, tx, ty - 13, "♥", str(card.pv), GREEN, 26, BOLD)
        if self.playable:
            tag = ctx.t("playable")
            pill(
                img,
                x + COL_W - PAD,
                ty - 13,
                tag,
                font("condensed-bold", 17),
                GOLD,
                GOLD_DARK,
                26,
                align="right",
            )
        draw_paragraphs(
            img,
            x + PAD + 8,
            y + 44 + 30 + 6,
            self.lines,
            BOLD,
            REGULAR,
            LINE_H,
            mix(INK, INK_SOFT, 0.2),
        )


__all__ = ["render_private", "tr"]
