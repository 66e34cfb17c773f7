"""Between Battle images: the public board and one seat's hand.

``render_board`` draws what every observer may see: the two piles (labelled
1 and 2 as in the notation ``7>1``), each player's character, life, hand and
deck sizes, revealed cards and markers, who must decide now, and the final
ranking once the game is over. ``render_private`` draws one seat's hand as
full cards with their ability texts and the moves each card allows now.

The board is designed 1100 px wide so that Discord's ~550 px preview stays
legible.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from PIL import Image, ImageDraw

import i18n
from engine.games.between_battle import Deck, PlayerView, View, deck_file

from .common import (
    CARD_FACE,
    INK,
    RGB,
    Box,
    Font,
    canvas,
    card_radius,
    card_shell,
    clean_text,
    darken,
    dashed_frame,
    dim,
    draw_card_back,
    draw_lines,
    drop_shadow,
    ellipse,
    fit_paragraph,
    fit_text,
    fit_with_names,
    font,
    hex_rgb,
    icon,
    lighten,
    message_image,
    mix,
    ordinal,
    paste_rgba,
    readable_on,
    render_cache,
    rotated_text,
    text_width,
    to_png,
)
from .common import (
    draw_text_cached as draw_text,
)
from .common import (
    pill_fast as pill,
)
from .common import (
    rounded_fast as rounded,
)

WIDTH = 1100
MARGIN = 24
CARD_RATIO = 1.48

# Palette: a dark green card table, cream cards, gold for "act now".
BG_TOP: RGB = (26, 52, 45)
BG_BOTTOM: RGB = (19, 38, 33)
FELT: RGB = (33, 66, 57)
FELT_EDGE: RGB = (52, 92, 80)
PANEL: RGB = (30, 56, 49)
PANEL_EDGE: RGB = (56, 90, 80)
TEXT: RGB = (240, 236, 226)
MUTED: RGB = (170, 190, 181)
GOLD: RGB = (242, 193, 78)
GOLD_DARK: RGB = (58, 42, 12)
RED: RGB = (214, 69, 65)
HEART: RGB = (226, 72, 80)
HP_EMPTY: RGB = (22, 40, 35)
SILVER: RGB = (196, 204, 210)
NEUTRAL: RGB = (120, 128, 124)

KIND_COLOURS: dict[str, RGB] = {
    "special": (201, 146, 28),
    "unique": (124, 77, 160),
    "link": (31, 133, 120),
    "joker": (45, 42, 40),
}
# Every word of these images is a ``bb-render-*`` key of the between_battle catalogue.


# ---------------------------------------------------------------------------
# Context: everything derived once from the view
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class _Ctx:
    view: View
    lang: str
    names: tuple[str, ...]
    colours: dict[str, RGB]  # character id -> colour
    char_names: dict[str, str]  # character id -> localised name
    by_code: dict[str, Deck]
    by_character: dict[str, Deck]
    kinds: dict[str, str]  # "Pi7" -> "number"

    def t(self, key: str, **params: object) -> str:
        return i18n.translate(self.lang, "bb-render-" + key.replace("_", "-"), **params)

    def reason(self, reason: str) -> str:
        """Why the game ended (the raw reason when the catalogue has no word for it)."""
        key = f"bb-render-reason-{reason}"
        return i18n.translate(self.lang, key) if i18n.has(self.lang, key) else reason

    def name(self, seat: int) -> str:
        if 0 <= seat < len(self.names):
            return self.names[seat]
        return self.t("player", n=seat + 1)

    def seat_colour(self, seat: int) -> RGB:
        if 0 <= seat < len(self.view.players):
            return self.colours.get(self.view.players[seat].character, NEUTRAL)
        return NEUTRAL

    def code_colour(self, code: str) -> RGB:
        deck = self.by_code.get(code)
        return self.colours.get(deck.character, NEUTRAL) if deck else NEUTRAL

    def char_name(self, character: str) -> str:
        return self.char_names.get(character, character.capitalize())

    def kind(self, card: str) -> str:
        return self.kinds.get(card.rstrip("~"), "number")

    def ability(self, card: str) -> str | None:
        kind = self.kind(card)
        deck = self.by_code.get(card[:2])
        if kind in ("joker", "link"):
            return kind
        if deck is None:
            return None
        if kind == "special":
            return deck.special
        if kind == "unique":
            return deck.unique
        return None

    def cards(self, n: int) -> str:
        return self.t("one_card") if n == 1 else self.t("n_cards", n=n)

    def damage(self, n: int) -> str:
        return self.t("one_damage") if n == 1 else self.t("n_damage", n=n)


def _context(view: object, names: Sequence[str], locale: str) -> _Ctx:
    if not isinstance(view, View):
        raise TypeError(f"expected a Between Battle View, got {type(view).__name__}")
    lang = i18n.pick(locale)
    colours: dict[str, RGB] = {}
    char_names: dict[str, str] = {}
    for spec in deck_file().characters:
        colours[spec.id] = hex_rgb(spec.colour)
        char_names[spec.id] = i18n.translate(lang, f"bb-char-{spec.id}")
    kinds: dict[str, str] = {}
    for deck in view.decks:
        for label, kind in zip(deck.cards, deck.kinds, strict=False):
            kinds[deck.code + label] = kind
    cleaned: list[str] = []
    for seat in range(len(view.players)):
        raw = str(names[seat]) if seat < len(names) else ""
        text = clean_text(raw[:200], "condensed-bold")
        cleaned.append(text or i18n.translate(lang, "bb-render-player", n=seat + 1))
    return _Ctx(
        view=view,
        lang=lang,
        names=tuple(cleaned),
        colours=colours,
        char_names=char_names,
        by_code={d.code: d for d in view.decks},
        by_character={d.character: d for d in view.decks},
        kinds=kinds,
    )


def _label(card: str) -> str:
    return card[2:].rstrip("~")


# ---------------------------------------------------------------------------
# What must be decided now
# ---------------------------------------------------------------------------


def _playable_range(view: View) -> tuple[int, int] | None:
    """Values playable between the piles under the rules in force (strict or
    inclusive "between", consecutive tops free or not); None: any card."""
    v0, v1 = view.pile_values
    if v0 is None or v1 is None:
        return None
    lo, hi = min(v0, v1), max(v0, v1)
    if view.adjacent_tops_free and hi - lo <= 1:
        return None
    if view.between_rule == "inclusive":
        return lo, hi
    if hi - lo <= 1:
        return None
    return lo + 1, hi - 1


def _open_link_piles(view: View) -> list[int]:
    return [i for i in (0, 1) if view.piles[i] and view.piles[i][-1].endswith("~")]


def _decision(ctx: _Ctx, seat: int, kind: str, you: bool) -> tuple[str, str]:
    """(headline, hint) for the decision ``kind`` of ``seat``; ``you``: the
    reader is that seat (second person)."""
    v = ctx.view
    who = "" if you else ctx.name(seat)

    def head(key: str, **params: object) -> str:
        text = ctx.t(key, **params)
        if you:
            return text[:1].upper() + text[1:]
        return ctx.t("pair", label=who, text=text)

    if kind == "turn":
        if v.turn_lock >= 0:
            n = v.turn_lock + 1
            line = head("head-turn-lock", n=n)
            hint = ctx.t("hint-turn-lock", knight=ctx.char_name("chevalier"), n=n)
            return line, hint
        line = head("head-turn")
        links = _open_link_piles(v)
        parts = [ctx.t("hint-play-example")]
        if links:
            parts.append(ctx.t("hint-link-example", code=f"5+{links[0] + 1}"))
        parts.append(ctx.t("hint-damage"))
        return line, ctx.t("type", parts="  ·  ".join(parts))
    if kind == "choose-pile":
        taker = ctx.name(v.active)
        sizes = [len(p) for p in v.piles]
        if you:
            line = ctx.t("head-choose-pile-you", taker=taker)
        else:
            line = ctx.t("head-choose-pile", who=who, taker=taker)
        hint = "  ·  ".join(
            ctx.t("pair", label=f"P{i + 1}", text=ctx.damage(sizes[i])) for i in (0, 1)
        )
        return line, hint
    if kind == "joker-pull":
        n = v.work_pile + 1
        line = head("head-joker-pull", n=n)
        hint = ctx.t("hint-joker-pull")
        return line, hint
    if kind == "tutor":
        line = head("head-tutor", pirate=ctx.char_name("pirate"))
        hint = ctx.t("hint-tutor")
        return line, hint
    if kind == "target":
        ability: str | None = v.work_ability or None
        target = ability if ability in ("discard-random", "reveal") else "other"
        line = head("head-target", what=ctx.t(f"target-{target}"))
        hint = ctx.t("hint-target")
        return line, hint
    if kind == "draft":
        line = head("head-draft")
        taken = {p.character for p in v.players}
        names = ", ".join(d.character for d in v.decks if d.character not in taken)
        return line, ctx.t("hint-draft", names=names)
    return head("head-decide"), ""


def _ranking_line(ctx: _Ctx) -> tuple[str, str]:
    v = ctx.view
    reason = ctx.reason(v.end_reason)
    first = v.ranking[0] if v.ranking else ()
    if len(first) == 1:
        headline = ctx.t("winner", name=ctx.name(first[0]), reason=reason)
    elif first:
        who = ctx.t("and").join(ctx.name(s) for s in first)
        headline = ctx.t("tie", who=who, reason=reason)
    else:
        headline = f"{ctx.t('game_over')}  ·  {reason}"
    parts = []
    place = 1
    hp = ctx.t("hp")
    for group in v.ranking:
        for seat in group:
            life = max(0, v.players[seat].life) if seat < len(v.players) else 0
            parts.append(f"{ordinal(place, ctx.lang)} {ctx.name(seat)} ({life} {hp})")
        place += len(group)
    return headline, "  ·  ".join(parts)


# ---------------------------------------------------------------------------
# Cards
# ---------------------------------------------------------------------------


CardStyle = Literal["mini", "pile", "hand"]


def _card_height(width: int) -> int:
    return round(width * CARD_RATIO)


def _kind_icon(kind: str, size: int, colour: RGB) -> Image.Image | None:
    if kind == "special":
        return icon("star", size, colour)
    if kind == "unique":
        return icon("diamond", size, colour)
    if kind == "link":
        return icon("link", size, colour)
    if kind == "joker":
        return icon("joker", size, colour)
    return None


def _draw_card(
    img: Image.Image,
    ctx: _Ctx,
    card: str,
    x: int,
    y: int,
    width: int,
    style: CardStyle,
    shadow: bool = True,
    visible: int = 0,
) -> Box:
    """Draw a face-up card; ``style`` is ``"mini"``, ``"pile"`` or ``"hand"``
    (with its ability text). Returns the card's box.

    The card's shell is pasted on the table (its rounded corners blend with
    what lies below), then its face, drawn once per card, style and
    language (:func:`_card_face`), is copied over everything but the
    corners: the same pixels as drawing it all here."""
    height = _card_height(width)
    code = card[:2]
    colour = ctx.code_colour(code)
    kind = ctx.kind(card)
    if shadow:
        drop_shadow(
            img,
            (x, y, x + width, y + height),
            card_radius(width),
            offset=max(2, width // 30),
            blur=max(2, width // 30),
            cover_radius=card_radius(width),
        )
    paste_rgba(img, card_shell(width, height, colour), (x, y))
    deck = ctx.by_code.get(code)
    face = _card_face(
        _Face(
            card=card,
            colour=colour,
            kind=kind,
            ability=ctx.ability(card),
            char_name=ctx.char_name(deck.character) if deck is not None else None,
            lang=ctx.lang,
        ),
        width,
        style,
        visible,
        x % 2,
        y % 2,
    )
    mask = _inside_corners(width, height, card_radius(width), x % 2, y % 2)
    img.paste(face, (x - x % 2, y - y % 2), mask)
    return (x, y, x + width, y + height)


@dataclass(frozen=True)
class _Face:
    """What a card's face shows (the key of its cached drawing)."""

    card: str
    colour: RGB
    kind: str
    ability: str | None
    char_name: str | None
    lang: str

    def t(self, key: str, **params: object) -> str:
        return i18n.translate(self.lang, "bb-render-" + key.replace("_", "-"), **params)


@render_cache(64)
def _inside_corners(width: int, height: int, radius: int, px: int, py: int) -> Image.Image:
    """An ``L`` mask of a :func:`_card_face` tile: 255 on the card at
    ``(px, py)`` but in its four ``radius`` x ``radius`` corners, 0 elsewhere."""
    mask = Image.new("L", (width + 1, height + 1), 0)
    mask.paste(255, (px, py, px + width, py + height))
    r = min(radius, width // 2, height // 2)
    for cx, cy in ((0, 0), (width - r, 0), (0, height - r), (width - r, height - r)):
        mask.paste(0, (px + cx, py + cy, px + cx + r, py + cy + r))
    return mask


@render_cache(256)  # up to ~60 MB of tiles (a hand card is 230 KB in memory)
def _card_face(
    face: _Face, width: int, style: CardStyle, visible: int, px: int, py: int
) -> Image.Image:
    """A card's shell and face as an RGB tile one pixel larger than the card,
    the card at ``(px, py)``: the parities of its place on the image (half
    pixels round to even, so they change where a centred icon lands).
    :func:`_draw_card` copies it but for the card's corners. Shared: never
    draw on it."""
    height = _card_height(width)
    img = Image.new("RGB", (width + 1, height + 1), face.colour)
    x, y = px, py
    card, colour, kind = face.card, face.colour, face.kind
    label = _label(card)
    ink = darken(colour, 0.12)
    shell = card_shell(width, height, colour)
    img.paste(shell, (x, y), shell)
    cx = x + width / 2

    if style == "mini":
        size = round(width * (0.44 if len(label) > 1 else 0.56))
        if 0 < visible < width:
            # the next card covers this one but ``visible`` pixels: the number
            # goes in that strip, smaller if it must, never cut
            fnt = font("bold", size)
            while size > 9 and text_width(fnt, label) > visible - 4:
                size -= 1
                fnt = font("bold", size)
            draw_text(img, (x + 3, y + height * 0.56), label, fnt, ink, "lm")
            return img
        draw_text(img, (cx, y + height * 0.56), label, font("bold", size), ink, "mm")
        kind_icon = _kind_icon(kind, max(8, round(width * 0.26)), KIND_COLOURS.get(kind, ink))
        if kind_icon is not None:
            paste_rgba(img, kind_icon, (round(cx - kind_icon.width / 2), y + round(height * 0.1)))
        return img

    big_corner = style == "hand" and face.ability is not None
    corner_size = round(width * (0.22 if big_corner else 0.16 if style == "hand" else 0.19))
    corner = font("bold", corner_size)
    pad = round(width * 0.1)
    paste_rgba(img, _corner_tile(label, corner, ink, 0), (x + pad, y + round(width * 0.075)))
    icon_size = round(width * 0.12)
    kind_icon = _kind_icon(kind, icon_size, KIND_COLOURS.get(kind, ink))
    if kind_icon is not None:
        paste_rgba(img, kind_icon, (x + width - pad - icon_size, y + round(width * 0.09)))

    if style == "pile":
        tile = _corner_tile(label, corner, ink, 180)
        paste_rgba(
            img, tile, (x + width - pad - tile.width, y + height - round(width * 0.1) - tile.height)
        )
        diameter = round(width * 0.56)
        cy = y + height * 0.47
        _value_disc(img, kind, label, round(cx), round(cy), diameter, colour)
        if kind in KIND_COLOURS:
            _kind_badge(img, face, kind, round(cx), round(cy + diameter / 2 + width * 0.04), width)
        return img

    # hand: value disc, badge, ability text
    ability = face.ability
    if ability is None:
        diameter = round(width * 0.5)
        cy = y + height * 0.42
        _value_disc(img, kind, label, round(cx), round(cy), diameter, colour)
        if face.char_name is not None:
            name = face.char_name.upper()
            draw_text(
                img,
                (cx, y + height * 0.78),
                name,
                font("condensed-bold", round(width * 0.085)),
                mix(colour, CARD_FACE, 0.25),
                "mm",
            )
        return img
    # text cards: the value stays in the corner, the text gets the room
    badge_top = y + round(width * 0.075) + round(corner_size * 0.8) + round(width * 0.08)
    badge_h = _kind_badge(img, face, kind, round(cx), badge_top, width)
    key = f"bb-render-ability-{ability}"
    text = i18n.translate(face.lang, key) if i18n.has(face.lang, key) else ""
    top = badge_top + badge_h + round(width * 0.045)
    inner = width - 2 * round(width * 0.105)
    bottom = y + height - round(width * 0.1)
    sizes = list(range(round(width * 0.105), round(width * 0.07) - 1, -1))
    fnt, lines, line_height = fit_paragraph(text, "regular", inner, bottom - top, sizes, 1.18)
    block = len(lines) * line_height
    start = top + max(0, (bottom - top - block) // 2)
    draw_lines(img, cx, start, lines, fnt, INK, line_height, "center")
    return img


def _corner_tile(label: str, fnt: Font, ink: RGB, angle: int) -> Image.Image:
    """A card corner's number as an RGBA tile turned by ``angle``; 6 and 9 are
    underlined, as on playing cards, so a turned 9 never reads as 6."""
    if label not in UNDERLINED:
        return rotated_text(label, fnt, ink, angle)
    left, top, right, bottom = fnt.getbbox(label)
    w, h = max(1, int(right - left)), max(1, int(bottom - top))
    thick = max(2, round(h * 0.1))
    tile = Image.new("RGBA", (w, h + 2 * thick + 1), (0, 0, 0, 0))
    draw = ImageDraw.Draw(tile)
    draw.text((-left, -top), label, font=fnt, fill=(*ink, 255))
    draw.rectangle((0, h + thick, w - 1, h + 2 * thick), fill=(*ink, 255))
    return tile.rotate(angle, expand=True)


UNDERLINED = frozenset({"6", "9"})


def _value_disc(
    img: Image.Image, kind: str, label: str, cx: int, cy: int, diameter: int, colour: RGB
) -> None:
    r = diameter // 2
    box = (cx - r, cy - r, cx - r + diameter, cy - r + diameter)
    if kind == "joker":
        ellipse(img, box, KIND_COLOURS["joker"], GOLD, max(2, diameter // 18))
        draw_text(img, (cx, cy), "X", font("bold", round(diameter * 0.56)), GOLD, "mm")
        return
    ellipse(img, box, colour, lighten(colour, 0.45), max(2, diameter // 22))
    size = round(diameter * (0.5 if len(label) > 1 else 0.58))
    draw_text(img, (cx, cy + diameter * 0.02), label, font("bold", size), (255, 255, 255), "mm")


def _kind_badge(
    img: Image.Image, ctx: _Ctx | _Face, kind: str, cx: int, top: int, card_width: int
) -> int:
    """A kind pill centred on ``cx``; returns its height (0 for numbers)."""
    if kind not in KIND_COLOURS:
        return 0
    height = max(14, round(card_width * 0.16))
    fnt = font("condensed-bold", round(height * 0.62))
    colour = KIND_COLOURS[kind]
    kind_icon = _kind_icon(kind, round(height * 0.58), (255, 255, 255))
    pill(
        img,
        cx,
        top,
        ctx.t(f"kind-{kind}"),
        fnt,
        colour,
        (255, 255, 255),
        height,
        icon=kind_icon,
        align="center",
    )
    return height


def _link_emblem(img: Image.Image, cx: int, cy: int, size: int) -> None:
    r = size // 2
    drop_shadow(img, (cx - r, cy - r, cx + r, cy + r), r, offset=2, blur=3)
    ellipse(
        img,
        (cx - r, cy - r, cx + r, cy + r),
        KIND_COLOURS["link"],
        (255, 255, 255),
        max(2, size // 14),
    )
    glyph = icon("link", round(size * 0.6), (255, 255, 255))
    paste_rgba(img, glyph, (cx - glyph.width // 2, cy - glyph.height // 2))


# ---------------------------------------------------------------------------
# Board
# ---------------------------------------------------------------------------

PILE_CARD_W = 140
PEEK = 34
MAX_BENEATH = 3
DEEP_PEEK = 5
BF_HEIGHT = 380


def render_board(view: object, names: Sequence[str], locale: str = "en") -> bytes:
    ctx = _context(view, names, locale)
    v = ctx.view
    n = len(v.players)
    columns = 2 if n in (2, 4) else n
    rows = (n + columns - 1) // columns
    panel_w = _panel_width(n)
    panel_h = _panel_height(ctx)

    header_h = 66
    banner_top = header_h
    banner_h = 84
    bf_top = banner_top + banner_h + 16
    panels_top = bf_top + BF_HEIGHT + 28
    height = panels_top + rows * panel_h + (rows - 1) * 26 + 22

    img = canvas(WIDTH, height, BG_TOP, BG_BOTTOM)
    _header(img, ctx)
    _banner(img, ctx, banner_top, banner_h)
    _battlefield(img, ctx, bf_top)
    for seat, player in enumerate(v.players):
        row, col = divmod(seat, columns)
        px = MARGIN + col * (panel_w + 16)
        py = panels_top + row * (panel_h + 26)
        _player_panel(img, ctx, player, (px, py, px + panel_w, py + panel_h))
    return to_png(img)


def _header(img: Image.Image, ctx: _Ctx) -> None:
    v = ctx.view
    title = i18n.translate(ctx.lang, "game-between-battle-name")
    draw_text(img, (MARGIN + 2, 34), title, font("bold", 30), TEXT, "lm")
    right = WIDTH - MARGIN
    small = font("condensed-bold", 20)
    if v.turn > 0:
        right -= pill(
            img, right, 17, ctx.t("turn", n=v.turn), small, (46, 84, 73), TEXT, 34, align="right"
        )
        right -= 10
    if v.discard:
        pill(
            img,
            right,
            17,
            ctx.t("discard", n=len(v.discard)),
            small,
            (38, 70, 61),
            MUTED,
            34,
            align="right",
        )


def _banner(img: Image.Image, ctx: _Ctx, top: int, height: int) -> None:
    v = ctx.view
    box = (MARGIN, top, WIDTH - MARGIN, top + height)
    over = v.phase == "over"
    seat = v.pending[0][0] if v.pending else (v.ranking[0][0] if over and v.ranking else -1)
    if over:
        headline, hint = _ranking_line(ctx)
    elif v.pending:
        headline, hint = _decision(ctx, v.pending[0][0], v.pending[0][1], you=False)
    else:
        headline, hint = ctx.t("waiting"), ""
    fill = GOLD
    drop_shadow(img, box, 18, offset=3, blur=5, cover_radius=18)
    rounded(img, box, 18, fill)
    # seat disc (or crown) in the deciding player's colour
    disc = 56
    dx, dy = box[0] + 16, top + (height - disc) // 2
    colour = ctx.seat_colour(seat) if seat >= 0 else NEUTRAL
    ellipse(img, (dx, dy, dx + disc, dy + disc), colour, (255, 255, 255), 3)
    if over:
        crown = icon("crown", 32, (255, 255, 255))
        paste_rgba(img, crown, (dx + (disc - 32) // 2, dy + (disc - 32) // 2 - 1))
    elif seat >= 0:
        draw_text(
            img,
            (dx + disc / 2, dy + disc / 2 + 1),
            str(seat + 1),
            font("bold", 30),
            (255, 255, 255),
            "mm",
        )
    tx = dx + disc + 16
    avail = box[2] - tx - 18
    big = font("bold", 29)
    headline = _fit_with_names(ctx, headline, big, avail)
    if hint:
        draw_text(img, (tx, top + 30), headline, big, GOLD_DARK, "lm")
        hint_font = font("regular", 22)
        draw_text(
            img, (tx, top + 62), fit_text(hint, hint_font, avail), hint_font, (104, 78, 24), "lm"
        )
    else:
        draw_text(img, (tx, top + height / 2), headline, big, GOLD_DARK, "lm")


def _fit_with_names(ctx: _Ctx, text: str, fnt: Font, max_width: int) -> str:
    return fit_with_names(ctx.names, text, fnt, max_width)


def _centre_hint(ctx: _Ctx) -> tuple[str, str, str] | None:
    """(label, big text, small text) for the middle of the table."""
    v = ctx.view
    if v.phase == "turn":
        empties = [i for i in (0, 1) if not v.piles[i]]
        play_on = ctx.t("play-on")
        if v.turn_lock >= 0:
            lock = ctx.t("lock-of", knight=ctx.char_name("chevalier"))
            return play_on, ctx.t("pile", n=v.turn_lock + 1), lock
        if len(empties) == 1 and v.empty_pile_must:
            sub = ctx.t("any-value-empty")
            return play_on, ctx.t("pile", n=empties[0] + 1), sub
        window = _playable_range(v)
        if window is None:
            if len(empties) == 2:
                sub = ctx.t("empty-piles")
            elif None in v.pile_values:
                sub = ctx.t("pile-no-value")
            else:
                sub = ctx.t("consecutive-tops")
            return ctx.t("playable"), ctx.t("any_card"), sub
        big = str(window[0]) if window[0] == window[1] else f"{window[0]} – {window[1]}"
        return ctx.t("playable"), big, ctx.t("joker_always")
    if v.phase == "choose-pile":
        label = ctx.t("type-label")
        return label, "P1 / P2", ctx.t("damage_taker", name=ctx.name(v.active))
    if v.phase == "joker-pull":
        sub = ctx.t("bring-up-card")
        return "Joker", ctx.t("pile", n=v.work_pile + 1), sub
    return None


def _battlefield(img: Image.Image, ctx: _Ctx, top: int) -> None:
    v = ctx.view
    box = (MARGIN, top, WIDTH - MARGIN, top + BF_HEIGHT)
    rounded(img, box, 26, FELT, FELT_EDGE, 2)
    cx = WIDTH // 2
    if v.phase == "over":
        reason = ctx.reason(v.end_reason)
        over_font = font("bold", 28)
        over = fit_text(ctx.t("game_over"), over_font, 250)
        draw_text(img, (cx, top + 168), over, over_font, TEXT, "mm")
        draw_text(img, (cx, top + 212), reason, font("condensed-bold", 24), GOLD, "mm")
    hint = _centre_hint(ctx)
    if hint is not None:
        label, big, sub = hint
        draw_text(img, (cx, top + 132), label, font("condensed-bold", 22), MUTED, "mm")
        size = 58
        while size > 30 and text_width(font("bold", size), big) > 250:
            size -= 4
        draw_text(img, (cx, top + 184), big, font("bold", size), GOLD, "mm")
        if sub:
            sub_font = font("regular", 21)
            draw_text(img, (cx, top + 238), fit_text(sub, sub_font, 250), sub_font, MUTED, "mm")
    for index in (0, 1):
        _pile(img, ctx, index, top)


def _pile(img: Image.Image, ctx: _Ctx, index: int, top: int) -> None:
    v = ctx.view
    pile = v.piles[index]
    outward = index == 0
    card_w, card_h = PILE_CARD_W, _card_height(PILE_CARD_W)
    sx = MARGIN + 48 if outward else WIDTH - MARGIN - 48 - card_w
    bottom = top + BF_HEIGHT - 14
    card_y = bottom - card_h
    info_x = sx + card_w + 26 if outward else sx - 26 - 170
    info_w = 170
    highlight = (v.phase == "joker-pull" and v.work_pile == index) or v.phase == "choose-pile"
    highlight = highlight or v.turn_lock == index
    offsets = pile_offsets(len(pile))
    if highlight:
        hx0, hx1 = sx - 12, sx + card_w + 12
        hy0 = card_y - (offsets[0] if offsets else 0) - 12
        rounded(img, (hx0, hy0, hx1, bottom + 12), 18, mix(FELT, GOLD, 0.35), GOLD, 3)
    if not pile:
        _empty_slot(img, ctx, sx, card_y, card_w, card_h)
    else:
        # every card shows: the nearest ones with their number, deeper ones as edges
        near = len(pile) - 1 - MAX_BENEATH
        for k, card in enumerate(pile[:-1]):
            shadow = k >= near
            _draw_card(img, ctx, card, sx, card_y - offsets[k], card_w, "pile", shadow=shadow)
        _draw_card(img, ctx, pile[-1], sx, card_y, card_w, "pile")
        if pile[-1].endswith("~"):
            ex = sx if outward else sx + card_w
            _link_emblem(img, ex, card_y + card_h // 2, 46)

    # the info column: label, value, count, markers
    ix = info_x + info_w // 2
    y = card_y - MAX_BENEATH * PEEK + 2
    draw_text(img, (ix, y + 14), ctx.t("pile", n=index + 1).upper(), font("bold", 26), TEXT, "mm")
    disc = 92
    dy = y + 38
    value = v.pile_values[index]
    ring = GOLD if value is not None else MUTED
    ellipse(img, (ix - disc // 2, dy, ix + disc // 2, dy + disc), (20, 40, 35), ring, 4)
    text = "–" if value is None else str(value)
    draw_text(
        img, (ix, dy + disc / 2 + 1), text, font("bold", 46 if len(text) < 3 else 36), TEXT, "mm"
    )
    if pile:
        sub = ctx.t("value") if value is not None else ctx.t("no_value")
        draw_text(img, (ix, dy + disc + 16), sub, font("regular", 19), MUTED, "mm")
    y = dy + disc + 36
    if v.phase == "choose-pile":
        count = ctx.damage(len(pile))
        draw_text(img, (ix, y + 12), count, font("condensed-bold", 21), GOLD, "mm")
    else:
        count = ctx.cards(len(pile)) if pile else ctx.t("empty")
        draw_text(img, (ix, y + 12), count, font("condensed-bold", 21), TEXT, "mm")
    y += 30
    chip_font = font("condensed-bold", 17)
    if pile and pile[-1].endswith("~"):
        pill(
            img,
            ix,
            y,
            ctx.t("open_link"),
            chip_font,
            KIND_COLOURS["link"],
            (255, 255, 255),
            28,
            icon=icon("link", 18, (255, 255, 255)),
            align="center",
        )
        y += 34
    locks: list[tuple[str, RGB]] = []
    chip_room = info_w - 44
    if v.turn_lock == index and v.phase != "over":
        locks.append((fit_text(ctx.name(v.active), chip_font, chip_room), RED))
    for seat, pile_index in v.lock_next:
        if pile_index == index:
            locks.append((fit_text(ctx.name(seat), chip_font, chip_room), (150, 70, 60)))
    for text_, colour in locks:
        lock_icon = icon("lock", 17, (255, 255, 255))
        label = text_
        pill(
            img,
            ix,
            y,
            label,
            chip_font,
            colour,
            (255, 255, 255),
            28,
            icon=lock_icon,
            align="center",
        )
        y += 34


STACK_ROOM = 140  # pixels above the top card for the cards beneath it


def pile_offsets(n: int) -> list[int]:
    """How far above the top card each card of an ``n``-card pile is drawn,
    bottom card first (the top card, offset 0, is not listed). The
    ``MAX_BENEATH`` cards just below the top show their number (``PEEK``, less
    for a tall pile); every deeper card shows an edge: all ``n`` are counted on
    the image, within ``STACK_ROOM``."""
    below = max(0, n - 1)
    near = min(below, MAX_BENEATH)
    deep = below - near
    peek = PEEK
    step = DEEP_PEEK
    if deep:
        peek = max(MIN_PEEK, min(PEEK, (STACK_ROOM - deep * 9) // near))
        step = max(3, min(9, (STACK_ROOM - near * peek) // deep))
    out = []
    for k in range(below):
        depth_near = min(near, below - k)
        depth_deep = max(0, below - near - k)
        out.append(depth_near * peek + depth_deep * step)
    return out


MIN_PEEK = 28


def _empty_slot(img: Image.Image, ctx: _Ctx, x: int, y: int, w: int, h: int) -> None:
    rounded(img, (x, y, x + w, y + h), card_radius(w), mix(FELT, (0, 0, 0), 0.18))
    colour = mix(FELT, TEXT, 0.35)
    dashed_frame(img, (x + 8, y + 8, x + w - 8, y + h - 8), colour)
    draw_text(img, (x + w / 2, y + h / 2), ctx.t("empty"), font("condensed-bold", 22), colour, "mm")


# ---------------------------------------------------------------------------
# Player panels
# ---------------------------------------------------------------------------

MINI_W = 38
REVEAL_W = 42
BAND_H = 48


def _chips(ctx: _Ctx, player: PlayerView) -> list[tuple[str, RGB, str]]:
    v = ctx.view
    out: list[tuple[str, RGB, str]] = []
    if v.phase == "over":
        return out
    if v.turn_lock >= 0 and v.active == player.seat:
        out.append((ctx.t("lock_chip_now", n=v.turn_lock + 1), RED, "lock"))
    for seat, pile in v.lock_next:
        if seat == player.seat:
            out.append((ctx.t("lock_chip", n=pile + 1), (150, 70, 60), "lock"))
    if v.turn_cancelled and v.active == player.seat:
        out.append((ctx.t("cancelled_chip"), (110, 80, 140), "cancel"))
    if player.seat in v.cancel_next:
        out.append((ctx.t("cancel_chip"), (110, 80, 140), "cancel"))
    return out


REVEALED_ROW = 84


def _panel_width(n: int) -> int:
    columns = 2 if n in (2, 4) else n
    return (WIDTH - 2 * MARGIN - (columns - 1) * 16) // columns


def _revealed_inline(ctx: _Ctx) -> bool:
    """Wide panels show a few revealed cards beside the hand; narrow panels,
    or more cards, need a row of their own (so numbers are never covered)."""
    most = max((len(p.revealed) for p in ctx.view.players), default=0)
    return _panel_width(len(ctx.view.players)) >= 480 and most <= 2


ABILITY_ROW = 28
ABILITIES_H = 2 * ABILITY_ROW + 8


def _panel_height(ctx: _Ctx) -> int:
    base = BAND_H + 176
    if any(p.character and not p.out for p in ctx.view.players):
        base += ABILITIES_H
    wide = _revealed_inline(ctx)
    if not wide and any(p.revealed for p in ctx.view.players):
        base += REVEALED_ROW
    if any(_chips(ctx, p) for p in ctx.view.players):
        base += 40
    return base


def _player_panel(img: Image.Image, ctx: _Ctx, player: PlayerView, box: Box) -> None:
    v = ctx.view
    x0, y0, x1, y1 = box
    w = x1 - x0
    colour = ctx.colours.get(player.character, NEUTRAL)
    pending_kinds = {seat: kind for seat, kind in v.pending}
    pending = player.seat in pending_kinds
    outline = GOLD if pending else PANEL_EDGE
    drop_shadow(img, box, 18, offset=4, blur=6, opacity=90, cover_radius=18)
    rounded(img, box, 18, PANEL, outline, 4 if pending else 2)
    # band
    inset = 4 if pending else 2
    band = (x0 + inset, y0 + inset, x1 - inset, y0 + BAND_H)
    rounded(img, band, 15, colour)
    img.paste(colour, (band[0], band[3] - 16, band[2], band[3]))
    disc = 34
    dx, dy = x0 + 12, y0 + (BAND_H - disc) // 2 + 1
    ellipse(img, (dx, dy, dx + disc, dy + disc), (255, 255, 255))
    draw_text(
        img,
        (dx + disc / 2, dy + disc / 2 + 1),
        str(player.seat + 1),
        font("bold", 21),
        colour,
        "mm",
    )
    on_band = readable_on(colour)
    char_font = font("condensed-bold", 19)
    char_text = ctx.char_name(player.character).upper() if player.character else ""
    char_w = text_width(char_font, char_text)
    draw_text(
        img, (x1 - 16, y0 + BAND_H / 2 + 1), char_text, char_font, mix(on_band, colour, 0.2), "rm"
    )
    name_font = font("condensed-bold", 26)
    name = fit_text(ctx.name(player.seat), name_font, w - (disc + 24) - char_w - 36)
    draw_text(img, (dx + disc + 10, y0 + BAND_H / 2 + 1), name, name_font, on_band, "lm")

    if not player.character:
        draw_text(
            img,
            ((x0 + x1) / 2, (y0 + BAND_H + y1) / 2),
            ctx.t("drafting") if pending else ctx.t("draft_wait"),
            font("condensed-bold", 24),
            MUTED,
            "mm",
        )
        _panel_tag(img, ctx, player, box)
        return
    # life
    y = y0 + BAND_H + 14
    life = max(0, player.life)
    heart = icon("heart", 30, HEART)
    paste_rgba(img, heart, (x0 + 16, y + 4))
    life_font = font("bold", 36)
    life_colour = (255, 140, 130) if 0 < life <= 3 else TEXT
    draw_text(img, (x0 + 54, y + 20), str(life), life_font, life_colour, "lm")
    lx = x0 + 54 + text_width(life_font, str(life)) + 6
    draw_text(img, (lx, y + 24), f"/ {player.hp} {ctx.t('hp')}", font("regular", 22), MUTED, "lm")
    dmg_text = f"{ctx.t('damage')} {player.damage}"
    draw_text(
        img,
        (x1 - 16, y + 24),
        dmg_text,
        font("condensed-bold", 21),
        (236, 150, 140) if player.damage else MUTED,
        "rm",
    )
    y += 46
    _hp_bar(img, (x0 + 16, y, x1 - 16, y + 16), player.hp, life)
    y += 30
    if not player.out:
        _abilities(img, ctx, player, x0 + 16, y - 4, x1 - 16)
        y += ABILITIES_H

    if player.out:
        # nothing left in hand or deck: a stamp instead
        dim(img, (x0 + 4, y0 + BAND_H, x1 - 4, y - 4), PANEL, 0.5, 0)
        _panel_tag(img, ctx, player, box)
        stamp = font("bold", 32)
        sw = text_width(stamp, ctx.t("out")) + 40
        sx = (x0 + x1) // 2 - sw // 2
        sy = y + 12
        rounded(img, (sx, sy, sx + sw, sy + 50), 10, (60, 30, 30), RED, 3)
        draw_text(img, (sx + sw / 2, sy + 26), ctx.t("out"), stamp, (240, 120, 110), "mm")
        return

    # hand and deck
    hand_end = _hand_and_deck(img, ctx, player, x0 + 16, y, x1 - 16)
    if _revealed_inline(ctx):
        if player.revealed:
            _revealed_cards(img, ctx, player, hand_end + 18, y - 4, x1 - 16 - 132, 74)
        y += 82
    else:
        y += 82
        if any(p.revealed for p in v.players):
            if player.revealed:
                _revealed_cards(img, ctx, player, x0 + 10, y, x1 - 10, REVEALED_ROW - 12)
            y += REVEALED_ROW
    chips = _chips(ctx, player)
    if chips:
        cx = x0 + 16
        chip_font = font("condensed-bold", 17)
        for text_, chip_colour, icon_name in chips:
            glyph = icon("lock" if icon_name == "lock" else "cancel", 17, (255, 255, 255))
            label = fit_text(text_, chip_font, x1 - 16 - cx - 50)
            if text_width(chip_font, label) < 30:
                break
            cx += (
                pill(img, cx, y, label, chip_font, chip_colour, (255, 255, 255), 30, icon=glyph) + 8
            )

    _panel_tag(img, ctx, player, box)


ABILITY_FONT_SIZE = 20


def ability_lines(ctx: _Ctx, character: str) -> list[tuple[str, str]]:
    """The help card, face up for all: (kind, short text) of the character's
    special and unique abilities."""
    deck = ctx.by_character.get(character)
    if deck is None:
        return []
    return [
        ("special", ctx.t(f"ability-short-{deck.special}")),
        ("unique", ctx.t(f"ability-short-{deck.unique}")),
    ]


def _abilities(img: Image.Image, ctx: _Ctx, player: PlayerView, x0: int, y: int, x1: int) -> None:
    """The help card's two abilities in short, each after its kind's icon
    (the icons the pile cards carry)."""
    fnt = font("regular", ABILITY_FONT_SIZE)
    for row, (kind, text_) in enumerate(ability_lines(ctx, player.character)):
        ry = y + row * ABILITY_ROW
        glyph = _kind_icon(kind, 20, KIND_COLOURS[kind])
        if glyph is not None:
            ellipse(img, (x0 - 2, ry + 1, x0 + 24, ry + 27), (236, 230, 214))
            paste_rgba(img, glyph, (x0 + 11 - glyph.width // 2, ry + 14 - glyph.height // 2))
        draw_text(img, (x0 + 32, ry + 14), fit_text(text_, fnt, x1 - x0 - 32), fnt, TEXT, "lm")


def _panel_tag(img: Image.Image, ctx: _Ctx, player: PlayerView, box: Box) -> None:
    """The marker over a panel's top edge: to play / choosing, or the place."""
    v = ctx.view
    x1, y0 = box[2], box[1]
    pending_kinds = {seat: kind for seat, kind in v.pending}
    tag_font = font("condensed-bold", 18)
    if v.phase == "over":
        place = _place(v, player.seat)
        if place:
            text_ = ordinal(place, ctx.lang)
            fill = GOLD if place == 1 else SILVER
            crown = icon("crown", 20, GOLD_DARK) if place == 1 else None
            pill(
                img,
                x1 - 20,
                y0 - 20,
                text_,
                tag_font,
                fill,
                GOLD_DARK,
                30,
                icon=crown,
                align="right",
            )
    elif player.seat in pending_kinds:
        kind = pending_kinds[player.seat]
        text_ = ctx.t("to_play") if kind == "turn" else ctx.t("choosing")
        pill(img, x1 - 20, y0 - 20, text_, tag_font, GOLD, GOLD_DARK, 30, align="right")


def _place(v: View, seat: int) -> int:
    place = 1
    for group in v.ranking:
        if seat in group:
            return place
        place += len(group)
    return 0


def _hp_bar(img: Image.Image, box: Box, hp: int, life: int) -> None:
    x0, y0, x1, y1 = box
    w = x1 - x0
    h = y1 - y0
    rounded(img, box, h // 2, HP_EMPTY)
    if hp <= 0:
        return
    if hp <= 20:
        gap = 3
        seg = (w - gap * (hp - 1)) / hp
        for i in range(hp):
            sx = round(x0 + i * (seg + gap))
            ex = round(x0 + i * (seg + gap) + seg)
            fill = HEART if i < life else (60, 80, 74)
            rounded(img, (sx, y0, max(sx + 2, ex), y1), min(4, h // 2), fill)
    else:
        fw = round(w * max(0, min(life, hp)) / hp)
        rounded(img, box, h // 2, (60, 80, 74))
        if fw > 0:
            rounded(img, (x0, y0, x0 + max(fw, h), y1), h // 2, HEART)


def _hand_and_deck(
    img: Image.Image, ctx: _Ctx, player: PlayerView, x0: int, y: int, x1: int
) -> int:
    """The hand (face down) and the deck; returns where the hand block ends."""
    colour = ctx.colours.get(player.character, NEUTRAL)
    mini_h = _card_height(MINI_W)
    count_font = font("bold", 28)
    label_font = font("regular", 19)
    deck_block = 120
    # the hand: a fan of face-down cards
    n = player.hand_count
    avail = x1 - x0 - deck_block - 90
    step = 14 if n <= 1 else max(5, min(14, (avail - MINI_W) // (n - 1)))
    cx = x0
    for i in range(n):
        drop_shadow(
            img, (cx, y, cx + MINI_W, y + mini_h), 4, 1, 2, cover_radius=card_radius(MINI_W)
        )
        draw_card_back(img, cx, y, MINI_W, mini_h, colour)
        cx += step if i < n - 1 else MINI_W
    if n == 0:
        rounded(img, (cx, y, cx + MINI_W, y + mini_h), 5, mix(PANEL, (0, 0, 0), 0.2))
        cx += MINI_W
    tx = cx + 12
    draw_text(img, (tx, y + 18), str(n), count_font, TEXT, "lm")
    draw_text(img, (tx, y + 46), ctx.t("hand"), label_font, MUTED, "lm")
    hand_end = tx + max(text_width(count_font, str(n)), text_width(label_font, ctx.t("hand")))
    # the deck: a small stack
    dx = x1 - deck_block
    layers = min(3, player.deck_count)
    if layers == 0:
        rounded(img, (dx, y, dx + MINI_W, y + mini_h), 5, mix(PANEL, (0, 0, 0), 0.2))
    for k in range(layers):
        off = (layers - 1 - k) * 3
        box = (dx + off, y - off, dx + off + MINI_W, y - off + mini_h)
        drop_shadow(img, box, 4, offset=1, blur=2, cover_radius=card_radius(MINI_W))
        draw_card_back(img, dx + off, y - off, MINI_W, mini_h, colour)
    tx = dx + MINI_W + 18
    draw_text(img, (tx, y + 18), str(player.deck_count), count_font, TEXT, "lm")
    draw_text(img, (tx, y + 46), ctx.t("deck"), label_font, MUTED, "lm")
    return hand_end


def _revealed_cards(
    img: Image.Image, ctx: _Ctx, player: PlayerView, x0: int, y: int, x1: int, height: int
) -> None:
    """The hand cards everyone sees (Ninja's unique), face up, in a dark
    tray from ``x0`` to ``x1`` of height ``height``."""
    cards = list(player.revealed)
    width = REVEAL_W
    start = x0 + 46
    step = width + 6
    room = x1 - 8 - start
    if len(cards) * step - 6 > room:
        step = max(12, (room - width) // max(1, len(cards) - 1))
    x1 = min(x1, start + (len(cards) - 1) * step + width + 10)
    rounded(img, (x0, y, x1, y + height), 12, mix(PANEL, (0, 0, 0), 0.25))
    eye = icon("eye", 24, GOLD)
    paste_rgba(img, eye, (x0 + 10, y + height // 2 - 20))
    label_font = font("condensed-bold", 14)
    draw_text(img, (x0 + 22, y + height // 2 + 14), ctx.t("visible"), label_font, GOLD, "mm")
    card_h = _card_height(width)
    top = y + (height - card_h) // 2
    for i, card in enumerate(cards):
        shown = step if i < len(cards) - 1 and step < width else 0
        _draw_card(img, ctx, card, start + i * step, top, width, "mini", False, shown)


# ---------------------------------------------------------------------------
# Private image: one seat's hand
# ---------------------------------------------------------------------------

HAND_CARD_MAX = 196
HAND_PER_ROW = 6


def render_private(view: object, names: Sequence[str], locale: str = "en") -> bytes:
    ctx = _context(view, names, locale)
    v = ctx.view
    seat = v.observer
    player = v.players[seat] if seat is not None and 0 <= seat < len(v.players) else None
    if player is None or player.hand is None:
        return message_image(ctx.t("spectator_title"), [ctx.t("spectator")])
    hand = player.hand
    n = len(hand)
    rows = (n + HAND_PER_ROW - 1) // HAND_PER_ROW
    per_row = max(1, (n + rows - 1) // rows) if rows else 1
    gap = 16
    card_w = min(HAND_CARD_MAX, (WIDTH - 2 * MARGIN - (per_row - 1) * gap) // per_row)
    card_h = _card_height(card_w)
    by_label, other = _split_choices(v.choices)
    my_turn = any(s == seat and k == "turn" for s, k in v.pending)
    row_h = card_h + (64 if my_turn or by_label else 28)
    option_lines = _option_chips(ctx, other)

    header_h = 96
    status_top = header_h + 14
    status_h = 72
    context_top = status_top + status_h + 14
    context_h = 76
    cards_top = context_top + context_h + 16
    body_h = rows * row_h if n else 70
    y_after = cards_top + body_h
    options_h = 0
    if option_lines:
        options_h = 44 + 48 * _option_rows(option_lines)
    revealed_note = bool(player.revealed)
    note_h = 32 if revealed_note else 0
    height = y_after + options_h + note_h + 20

    img = canvas(WIDTH, height, BG_TOP, BG_BOTTOM)
    _private_header(img, ctx, player, header_h)
    _private_status(img, ctx, seat, status_top, status_h)
    _private_context(img, ctx, context_top, context_h)

    if not n:
        draw_text(
            img,
            (WIDTH / 2, cards_top + 30),
            ctx.t("no_cards"),
            font("condensed-bold", 26),
            MUTED,
            "mm",
        )
    for i, card in enumerate(hand):
        row, col = divmod(i, per_row)
        in_row = min(per_row, n - row * per_row)
        row_w = in_row * card_w + (in_row - 1) * gap
        x = (WIDTH - row_w) // 2 + col * (card_w + gap)
        y = cards_top + row * row_h
        _draw_card(img, ctx, card, x, y, card_w, "hand")
        if card in player.revealed:
            eye = icon("eye", 26, GOLD)
            ex = x + card_w // 2 - 22
            rounded(img, (ex, y - 12, ex + 44, y + 14), 13, (20, 40, 35), GOLD, 2)
            paste_rgba(img, eye, (ex + 9, y - 12))
        moves = by_label.get(_label(card), [])
        cy = y + card_h + 14
        if moves:
            _move_chips(img, moves, x + card_w // 2, cy, card_w)
        elif my_turn:
            dim(img, (x, y, x + card_w, y + card_h), BG_BOTTOM, 0.45, card_radius(card_w))
            draw_text(
                img,
                (x + card_w / 2, cy + 17),
                ctx.t("not_playable"),
                font("regular", 19),
                MUTED,
                "mm",
            )
    y = y_after
    if option_lines:
        draw_text(
            img,
            (MARGIN + 4, y + 16),
            ctx.t("your_options"),
            font("condensed-bold", 22),
            MUTED,
            "lm",
        )
        _draw_options(img, option_lines, y + 40)
        y += options_h
    if revealed_note:
        fnt = font("regular", 19)
        draw_text(img, (WIDTH / 2, y + 14), ctx.t("revealed_note"), fnt, GOLD, "mm")
    return to_png(img)


def _split_choices(choices: Sequence[str]) -> tuple[dict[str, list[str]], list[str]]:
    """Card moves (``7>1``, ``5+2``) by card label, and every other choice."""
    by_label: dict[str, list[str]] = {}
    other: list[str] = []
    for choice in choices:
        for sep in (">", "+"):
            label, found, pile = choice.partition(sep)
            if found and pile.isdigit() and label:
                by_label.setdefault(label, []).append(choice)
                break
        else:
            other.append(choice)
    return by_label, other


def _move_chips(img: Image.Image, moves: Sequence[str], cx: int, y: int, max_w: int) -> None:
    gap = 6
    size = 21
    fnt = font("bold", size)
    widths = [text_width(fnt, m) + 22 for m in moves]
    while size > 13 and sum(widths) + gap * (len(widths) - 1) > max_w:
        size -= 1
        fnt = font("bold", size)
        widths = [text_width(fnt, m) + 14 for m in moves]
    total = sum(widths) + gap * (len(widths) - 1)
    x = cx - total // 2
    for move, w in zip(moves, widths, strict=True):
        fill = KIND_COLOURS["link"] if "+" in move else (52, 140, 84)
        rounded(img, (x, y, x + w, y + 34), 10, fill, lighten(fill, 0.35), 2)
        draw_text(img, (x + w / 2, y + 17), move, fnt, (255, 255, 255), "mm")
        x += w + gap


def _describe(ctx: _Ctx, choice: str) -> str:
    v = ctx.view
    if choice == "D":
        return ctx.t("desc-damage")
    if choice.startswith("P") and choice[1:].isdigit():
        i = int(choice[1:]) - 1
        n = len(v.piles[i]) if 0 <= i < 2 else 0
        return ctx.t("desc-give-pile", n=i + 1, damage=ctx.damage(n))
    if choice.startswith("^"):
        card = choice[1:]
        deck = ctx.by_code.get(card[:2])
        owner = ctx.char_name(deck.character) if deck else card[:2]
        return ctx.t("desc-bring-up", card=_label(card), owner=owner)
    if choice.startswith("T"):
        return ctx.t("desc-take", value=choice[1:])
    if choice.startswith("@") and choice[1:].isdigit():
        return ctx.name(int(choice[1:]) - 1)
    if choice in ctx.by_character:
        return ctx.char_name(choice)
    return ""


def _option_chips(ctx: _Ctx, choices: Sequence[str]) -> list[tuple[str, str]]:
    out = []
    for choice in choices:
        label = _describe(ctx, choice)
        if label.replace("-", "").lower() == choice.replace("-", "").lower():
            label = ""
        out.append((choice, label))
    return out


def _chip_width(code: str, label: str) -> int:
    w = text_width(font("bold", 22), code) + 28
    if label:
        w += text_width(font("regular", 21), label) + 14
    return w


def _option_rows(options: Sequence[tuple[str, str]]) -> int:
    rows, x = 1, 0
    limit = WIDTH - 2 * MARGIN
    for code, label in options:
        w = min(_chip_width(code, label), limit)
        if x and x + w > limit:
            rows += 1
            x = 0
        x += w + 10
    return rows


def _draw_options(img: Image.Image, options: Sequence[tuple[str, str]], top: int) -> None:
    x, y = MARGIN, top
    limit = WIDTH - 2 * MARGIN
    code_font = font("bold", 22)
    label_font = font("regular", 21)
    for code, label in options:
        w = min(_chip_width(code, label), limit)
        if x > MARGIN and x - MARGIN + w > limit:
            x = MARGIN
            y += 48
        rounded(img, (x, y, x + w, y + 40), 12, (44, 80, 70), (74, 116, 104), 2)
        code_w = text_width(code_font, code) + 28
        fill = RED if code == "D" else (52, 140, 84)
        rounded(img, (x, y, x + code_w, y + 40), 12, fill)
        draw_text(img, (x + code_w / 2, y + 20), code, code_font, (255, 255, 255), "mm")
        if label:
            text_ = fit_text(label, label_font, w - code_w - 14)
            draw_text(img, (x + code_w + 8, y + 20), text_, label_font, TEXT, "lm")
        x += w + 10


def _moves_hint(ctx: _Ctx, choices: Sequence[str]) -> str:
    """The notation explained on the seat's own moves (``8>1``, ``5+2``, ``D``)."""
    plays = [c for c in choices if ">" in c]
    links = [c for c in choices if "+" in c]
    parts = []
    if plays:
        label, _, pile = plays[0].partition(">")
        what = ctx.t("the-joker") if label == "X" else ctx.t("the-card", label=label)
        parts.append(ctx.t("hint-play", code=plays[0], what=what, pile=pile))
    if links:
        label, _, pile = links[0].partition("+")
        parts.append(ctx.t("hint-link", code=links[0], pile=pile))
    if "D" in choices:
        parts.append(ctx.t("hint-damage"))
    if not parts:
        return ""
    return ctx.t("type", parts="  ·  ".join(parts))


def _private_header(img: Image.Image, ctx: _Ctx, player: PlayerView, height: int) -> None:
    colour = ctx.colours.get(player.character, NEUTRAL)
    box = (MARGIN, 14, WIDTH - MARGIN, height)
    rounded(img, box, 20, colour)
    on = readable_on(colour)
    disc = 52
    dx, dy = MARGIN + 16, 14 + (height - 14 - disc) // 2
    ellipse(img, (dx, dy, dx + disc, dy + disc), (255, 255, 255))
    draw_text(
        img,
        (dx + disc / 2, dy + disc / 2 + 1),
        str(player.seat + 1),
        font("bold", 30),
        colour,
        "mm",
    )
    # right side: life, damage, deck
    right = WIDTH - MARGIN - 18
    mid = 14 + (height - 14) / 2
    if player.character:
        small = font("condensed-bold", 21)
        stat_fill = darken(colour, 0.3)
        white = (255, 255, 255)
        top = round(mid - 18)
        for text_ in (
            f"{ctx.t('deck')} {player.deck_count}",
            f"{ctx.t('damage')} {player.damage}",
        ):
            right -= pill(img, right, top, text_, small, stat_fill, white, 36, align="right") + 10
        life_text = f"{max(0, player.life)} / {player.hp} {ctx.t('hp')}"
        heart = icon("heart", 22, HEART)
        life_font = font("bold", 22)
        ink = darken(HEART, 0.1)
        right -= pill(
            img, right, top, life_text, life_font, white, ink, 36, icon=heart, align="right"
        )
        right -= 10
    tx = dx + disc + 16
    avail = right - tx - 10
    title = font("bold", 30)
    name = fit_text(ctx.name(player.seat), title, avail)
    draw_text(img, (tx, mid - 14), name, title, on, "lm")
    sub = ctx.t("your_hand")
    if player.character:
        sub = f"{sub}  ·  {ctx.char_name(player.character)}"
    draw_text(
        img,
        (tx, mid + 20),
        fit_text(sub, font("regular", 21), avail),
        font("regular", 21),
        mix(on, colour, 0.2),
        "lm",
    )


def _private_status(img: Image.Image, ctx: _Ctx, seat: int | None, top: int, height: int) -> None:
    v = ctx.view
    box = (MARGIN, top, WIDTH - MARGIN, top + height)
    mine = [(s, k) for s, k in v.pending if s == seat]
    if v.phase == "over":
        headline, hint = _ranking_line(ctx)
        place = _place(v, seat) if seat is not None else 0
        if place:
            if place == 1:
                you = ctx.t("you-win")
            else:
                you = ctx.t("you-finish", place=ordinal(place, ctx.lang))
            hint, headline = f"{headline}  ·  {hint}", you
        fill, ink, sub_ink = GOLD, GOLD_DARK, (104, 78, 24)
    elif mine:
        headline, hint = _decision(ctx, mine[0][0], mine[0][1], you=True)
        if mine[0][1] == "turn":
            headline = ctx.t("your-turn", what=headline[:1].lower() + headline[1:])
            hint = _moves_hint(ctx, v.choices) or hint
        fill, ink, sub_ink = GOLD, GOLD_DARK, (104, 78, 24)
    elif v.pending:
        headline, hint = _decision(ctx, v.pending[0][0], v.pending[0][1], you=False)
        headline = f"{ctx.t('waiting')}  ·  {headline}"
        hint = ""
        fill, ink, sub_ink = (44, 80, 70), TEXT, MUTED
    else:
        headline, hint = ctx.t("waiting"), ""
        fill, ink, sub_ink = (44, 80, 70), TEXT, MUTED
    rounded(img, box, 16, fill)
    big = font("bold", 27)
    avail = box[2] - box[0] - 44
    headline = _fit_with_names(ctx, headline, big, avail)
    if hint:
        draw_text(img, (box[0] + 22, top + 26), headline, big, ink, "lm")
        small = font("regular", 20)
        draw_text(img, (box[0] + 22, top + 54), fit_text(hint, small, avail), small, sub_ink, "lm")
    else:
        draw_text(img, (box[0] + 22, top + height / 2), headline, big, ink, "lm")


def _private_context(img: Image.Image, ctx: _Ctx, top: int, height: int) -> None:
    """The two piles' tops, small, so the hand can be read alone."""
    v = ctx.view
    x = MARGIN + 6
    mini = 46
    mini_h = _card_height(mini)
    cy = top + height / 2
    label_font = font("condensed-bold", 22)
    value_font = font("regular", 20)
    small = font("regular", 19)
    for index in (0, 1):
        pile = v.piles[index]
        label = ctx.t("pile", n=index + 1)
        draw_text(img, (x, cy), label, label_font, TEXT, "lm")
        x += text_width(label_font, label) + 22
        cy_card = round(cy - mini_h / 2)
        if pile:
            _draw_card(img, ctx, pile[-1], x, cy_card, mini, "mini")
            if pile[-1].endswith("~"):
                _link_emblem(img, x + mini if index else x, cy_card + 12, 20)
        else:
            rounded(img, (x, cy_card, x + mini, cy_card + mini_h), 5, mix(BG_TOP, (0, 0, 0), 0.25))
        x += mini + 16
        value = v.pile_values[index]
        if value is not None:
            first = f"{ctx.t('value')} {value}"
        else:
            first = ctx.t("no_value") if pile else ctx.t("empty")
        second = ctx.cards(len(pile)) if pile else ""
        if second:
            draw_text(img, (x, cy - 12), first, small, TEXT, "lm")
            draw_text(img, (x, cy + 13), second, small, MUTED, "lm")
        else:
            draw_text(img, (x, cy), first, small, MUTED, "lm")
        x += max(text_width(small, first), text_width(small, second)) + 44
    hint = _centre_hint(ctx)
    if hint is not None:
        label, text_, _ = hint
        right = WIDTH - MARGIN - 6
        big = font("bold", 30)
        draw_text(img, (right, cy), text_, big, GOLD, "rm")
        draw_text(img, (right - text_width(big, text_) - 12, cy), label, value_font, MUTED, "rm")
