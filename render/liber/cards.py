"""Chroniques de Liber images: a card's full face (name, type, costs, force
and PV, keywords with their rules, the card's text in the reader's
language), drawn as a hand panel or as one large card (``render_card``)."""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image

import i18n
from engine.games.liber.data import CardSpec

from ..common import (
    RGB,
    Font,
    darken,
    ellipse,
    fit_text,
    font,
    icon,
    lighten,
    mix,
    to_png,
)
from .context import card_name, card_text, keyword_order, spec, tr
from .layers import gradient, paste_rgba, rounded
from .style import (
    BG_BOTTOM,
    BG_TOP,
    COIN,
    FAITH,
    GREEN,
    INK,
    INK_SOFT,
    PARCHMENT,
    TYPE_COLOURS,
    VP,
    WHITE,
    draw_text,
    text_width,
    wrap_text,
)
from .tiles import stat_chip, type_label

TYPE_GLYPHS: dict[str, str] = {
    "unite": "⚔",
    "token": "☠",
    "general": "♛",
    "objet": "◆",
    "sort": "✦",
    "lieu": "⚑",
    "dieu": "☀",
    "faveur": "★",
}


def type_colour(card: CardSpec | None) -> RGB:
    return TYPE_COLOURS.get(card.type if card is not None else "", TYPE_COLOURS["unite"])


@dataclass(frozen=True)
class Paragraph:
    """A paragraph of a card's text: an optional bold lead (a keyword's
    name) followed by regular text, wrapped."""

    lead: str
    body: str


def paragraphs(card: CardSpec, lang: str) -> list[Paragraph]:
    """The keywords with their rules, then the card's own text (left out
    when it only repeats the keyword names)."""
    out: list[Paragraph] = []
    names: list[str] = []
    for kid in keyword_order([k.id for k in card.keywords]):
        kw = card.keyword(kid)  # type: ignore[arg-type]
        name = tr(lang, f"kw-{kid}")
        params: dict[str, object] = {}
        if kw is not None and kw.amount is not None:
            params["n"] = kw.amount
            name = f"{name} {kw.amount}"
        elif kid == "ravage":
            params["n"] = 3
        if kw is not None and kw.token is not None:
            token = spec(kw.token)
            params["token"] = card_name(kw.token)
            params["cost"] = kw.cost or 0
            params["force"] = token.force if token is not None else "?"
            params["pv"] = token.pv if token is not None else "?"
        elif kid == "invocateur":
            params.update(token="?", cost=0, force="?", pv="?")
        names.append(name)
        out.append(Paragraph(name, tr(lang, f"kwd-{kid}", **params)))
    text = card_text(card, lang).strip()
    said = " ".join([*names, *(p.body for p in out)])
    if text and not _only_names(text, said):
        out.append(Paragraph("", text))
    return out


def _words(text: str) -> set[str]:
    return {w.casefold() for w in "".join(c if c.isalnum() else " " for c in text).split()}


def _only_names(text: str, said: str) -> bool:
    """Whether ``text`` only repeats what the keyword paragraphs say
    (``Tir, Empoisonnement.``)."""
    return bool(said) and _words(text) <= _words(said)


def lead_lines(
    para: Paragraph, bold: Font, regular: Font, width: int, lang: str
) -> list[tuple[str, str]]:
    """(bold part, regular part) per line: the lead opens the first line,
    the body wraps after it."""
    if not para.lead:
        return [("", line) for line in wrap_text(para.body, regular, width)]
    lead = tr(lang, "lead", name=para.lead) + " " if para.body else para.lead
    first_w = width - text_width(bold, lead)
    words = para.body.split()
    first: list[str] = []
    while words and text_width(regular, " ".join([*first, words[0]])) <= first_w:
        first.append(words.pop(0))
    out = [(lead, " ".join(first))]
    if words:
        out += [("", line) for line in wrap_text(" ".join(words), regular, width)]
    return out


def draw_paragraphs(
    img: Image.Image,
    x: int,
    y: int,
    lines: list[tuple[str, str]],
    bold: Font,
    regular: Font,
    line_h: int,
    ink: RGB,
) -> int:
    """Draw wrapped (bold, regular) lines; returns the y below them."""
    for lead, rest in lines:
        cx = x
        if lead:
            draw_text(img, (cx, y), lead, bold, ink, "la")
            cx += text_width(bold, lead)
        if rest:
            draw_text(img, (cx, y), rest, regular, ink, "la")
        y += line_h
    return y


def cost_discs(img: Image.Image, card: CardSpec, right: int, y: int, size: int, lang: str) -> int:
    """The card's costs as discs (gold, faith; a general's VP) ending at
    ``right``; returns the left edge."""
    items: list[tuple[int, RGB]] = []
    if card.type == "general":
        if card.vp:
            items.append((card.vp, VP))
    elif card.collectible:  # tokens and favours are made, never paid
        if card.gold or not card.faith:
            items.append((card.gold, COIN))
        if card.faith:
            items.append((card.faith, FAITH))
    x = right
    fnt = font("bold", round(size * 0.55))
    for value, colour in reversed(items):
        x -= size
        ellipse(img, (x, y, x + size, y + size), colour, WHITE, max(2, size // 14))
        draw_text(img, (x + size / 2, y + size / 2 + 1), str(value), fnt, WHITE, "mm")
        x -= 6
    return x


def cost_text(card: CardSpec, lang: str) -> str:
    """``6 gold · 1 faith`` (what the discs mean, in words)."""
    if card.type == "general":
        return tr(lang, "ability-cost", n=card.vp) if card.vp else ""
    if not card.collectible:
        return ""
    bits = []
    if card.gold or not card.faith:
        bits.append(tr(lang, "cost-gold", n=card.gold))
    if card.faith:
        bits.append(tr(lang, "cost-faith", n=card.faith))
    return " · ".join(bits)


# ---------------------------------------------------------------------------
# One large card
# ---------------------------------------------------------------------------

CARD_W = 640
BODY_BOLD = font("condensed-bold", 25)
BODY = font("regular", 25)
BODY_LINE = 32


def render_card(card_id: str, locale: str = "en") -> bytes:
    """One card of the pool, large, with its full text in the reader's
    language (KeyError for an id the pool lacks)."""
    card = spec(card_id)
    if card is None:
        raise KeyError(f"no Chroniques de Liber card {card_id!r}")
    lang = i18n.pick(locale)
    colour = type_colour(card)
    inner = CARD_W - 2 * 40
    lines: list[tuple[str, str]] = []
    gaps = 0
    for para in paragraphs(card, lang):
        if lines:
            lines.append(("", ""))
            gaps += 1
        lines += lead_lines(para, BODY_BOLD, BODY, inner, lang)
    art_h = 200
    top = 36 + 84 + 52 + art_h + 20
    stats_h = 64 if card.force is not None else 0
    body_h = max(BODY_LINE, len(lines) * BODY_LINE - gaps * (BODY_LINE // 2))
    height = top + stats_h + body_h + 30 + 50 + 36
    img = gradient(CARD_W + 72, height + 72, BG_TOP, BG_BOTTOM)
    ox, oy = 36, 36
    rounded(img, (ox, oy, ox + CARD_W, oy + height), 28, colour, darken(colour, 0.35), 4)
    rounded(img, (ox + 16, oy + 96, ox + CARD_W - 16, oy + height - 16), 18, PARCHMENT)
    name_font = font("bold", 38)
    left = cost_discs(img, card, ox + CARD_W - 22, oy + 20, 58, lang)
    name = fit_text(card.name, name_font, left - ox - 40)
    draw_text(img, (ox + 30, oy + 52), name, name_font, WHITE, "lm")
    y = oy + 96 + 16
    _type_line(img, card, lang, ox + 40, y, colour)
    y += 44
    _art(img, card, (ox + 40, y, ox + CARD_W - 40, y + art_h), colour)
    y += art_h + 20
    if stats_h:
        _big_stats(img, card, ox + 40, y)
        y += stats_h
    y2 = y
    for lead, rest in lines:
        if not lead and not rest:
            y2 += BODY_LINE // 2
            continue
        y2 = draw_paragraphs(img, ox + 40, y2, [(lead, rest)], BODY_BOLD, BODY, BODY_LINE, INK)
    foot = tr(lang, "card-id", id=card.id)
    draw_text(img, (ox + CARD_W / 2, oy + height - 40), foot, font("regular", 19), INK_SOFT, "mm")
    return to_png(img)


def _type_line(img: Image.Image, card: CardSpec, lang: str, x: int, y: int, colour: RGB) -> None:
    fnt = font("condensed-bold", 26)
    label = type_label(lang, card.id)
    draw_text(img, (x, y + 16), label, fnt, darken(colour, 0.25), "lm")
    cost = cost_text(card, lang)
    if cost:
        draw_text(img, (x + 560, y + 16), cost, font("condensed-bold", 22), INK_SOFT, "rm")


def _art(img: Image.Image, card: CardSpec, box: tuple[int, int, int, int], colour: RGB) -> None:
    """No illustration: the type's emblem on a tinted panel."""
    x0, y0, x1, y1 = box
    rounded(img, box, 16, lighten(colour, 0.55), mix(colour, PARCHMENT, 0.3), 3)
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    if card.type == "general":
        size = 130
        paste_rgba(
            img, icon("crown", size, darken(colour, 0.1)), (int(cx - size / 2), int(cy - size / 2))
        )
        return
    glyph = TYPE_GLYPHS.get(card.type, "✦")
    draw_text(img, (cx, cy), glyph, font("bold", 130), darken(colour, 0.15), "mm")


def _big_stats(img: Image.Image, card: CardSpec, x: int, y: int) -> None:
    fnt = font("bold", 34)
    for glyph, value, fill in (("sword", card.force, (84, 70, 58)), ("♥", card.pv, GREEN)):
        x += stat_chip(img, x, y, glyph, str(value), fill, 48, fnt) + 14
