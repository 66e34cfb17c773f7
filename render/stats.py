"""Ratings images: a leaderboard page and a rating history chart.

``render_leaderboard`` draws one page (up to ten rows) of a ranking table:
rank (medals for the podium), name, rating, games, wins and win rate, with a
mark and a legend for provisional ratings. ``render_rating_chart`` draws one
or more rating histories as a line chart. Both use the card-table palette of
:mod:`render.between_battle` and stay legible at Discord's ~550 px preview.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from PIL import Image, ImageDraw

from .common import (
    RGB,
    Box,
    Font,
    Labels,
    canvas,
    clean_text,
    darken,
    draw_text,
    ellipse,
    fit_text,
    font,
    icon,
    lighten,
    mix,
    paste_rgba,
    pill,
    readable_on,
    rounded,
    shadow_mask,
    text_width,
    to_png,
)

# Palette: the card table of the game boards.
BG_TOP: RGB = (26, 52, 45)
BG_BOTTOM: RGB = (19, 38, 33)
FELT: RGB = (33, 66, 57)
FELT_EDGE: RGB = (52, 92, 80)
STRIPE: RGB = (37, 72, 62)
TEXT: RGB = (240, 236, 226)
MUTED: RGB = (170, 190, 181)
FAINT: RGB = (112, 138, 128)
GOLD: RGB = (242, 193, 78)
GOLD_DARK: RGB = (58, 42, 12)
SILVER: RGB = (204, 211, 216)
BRONZE: RGB = (214, 142, 84)
PROVISIONAL: RGB = (118, 132, 127)
GRID: RGB = (46, 84, 73)

MARGIN = 24
ROWS_PER_PAGE = 10


def _t(tr: Labels, key: str, **params: object) -> str:
    return tr(f"render-stats-{key.replace('_', '-')}", **params)


def _percent(wins: int, games: int, tr: Labels) -> str:
    if games <= 0:
        return "–"
    value = round(100 * max(0, min(wins, games)) / games)
    return tr("render-percent", value=value)


# ---------------------------------------------------------------------------
# Leaderboard
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class LeaderboardRow:
    """One line of a leaderboard page."""

    rank: int  # 1-based
    name: str  # display name (cleaned when drawn)
    rating: int  # shown rating (starts at 1000)
    games: int
    wins: int
    provisional: bool  # fewer rated games than the threshold


LB_WIDTH = 1000
ROW_H = 58
HEAD_ROW_H = 46

# column anchors (x): rank centre, name left, rating right, counts centred
COL_RANK = 82
COL_NAME = 128
COL_RATING = 584
COL_BADGE = 596
COL_GAMES = 696
COL_WINS = 806
COL_RATE = 916
COL_ROOM = 100  # width of a centred column

MEDALS: dict[int, RGB] = {1: GOLD, 2: SILVER, 3: BRONZE}


def render_leaderboard(
    title: str,
    subtitle: str,
    rows: Sequence[LeaderboardRow],
    page: int,
    pages: int,
    locale: str = "en",
    highlight_rank: int | None = None,
) -> bytes:
    """One leaderboard page as a PNG, 1000 px wide.

    At most ten rows are drawn (extra rows are ignored). ``page``/``pages``
    show in the top-right corner when there is more than one page; a
    multi-page leaderboard keeps the height of a full page, so that turning
    pages does not make the message jump. ``highlight_rank`` outlines that
    row (e.g. the reader's own)."""
    tr = Labels(locale)
    shown = list(rows[:ROWS_PER_PAGE])
    pages = max(1, pages)
    page = min(max(1, page), pages)
    sub = clean_text(subtitle[:300], "regular")

    header_h = 108 if sub else 78
    if not shown:
        body_h = 250
    else:
        slots = ROWS_PER_PAGE if pages > 1 else len(shown)
        body_h = HEAD_ROW_H + slots * ROW_H + 18
    any_provisional = any(row.provisional for row in shown)
    # pages of one leaderboard share a height: the legend's line is kept
    footer_h = 54 if any_provisional or pages > 1 else 24
    height = header_h + body_h + footer_h

    img = canvas(LB_WIDTH, height, BG_TOP, BG_BOTTOM)
    right = LB_WIDTH - MARGIN
    if pages > 1:
        text = _t(tr, "page", page=page, pages=pages)
        right -= pill(
            img,
            right,
            22,
            text,
            font("condensed-bold", 21),
            STRIPE,
            TEXT,
            38,
            16,
            outline=FELT_EDGE,
            align="right",
        )
        right -= 16
    _title(img, title, sub, right)

    box = (MARGIN, header_h, LB_WIDTH - MARGIN, header_h + body_h)
    _panel(img, box, 22)
    if not shown:
        _empty_state(img, box, _t(tr, "empty"), _t(tr, "empty_hint"))
    else:
        _table(img, tr, shown, box, pages > 1, highlight_rank)
    if any_provisional:
        _provisional_legend(img, tr, box[3] + 14)
    return to_png(img)


def _panel(img: Image.Image, box: Box, radius: int) -> None:
    """A felt panel with a soft shadow and a thin edge, like the board's.

    Same look as ``drop_shadow`` + ``rounded`` of :mod:`render.common`, but
    only the corners and the shadow's rim go through masks: pasting a
    full-size mask costs milliseconds on a panel this big."""
    x0, y0, x1, y1 = box
    blur, offset = 6, 4
    mask = shadow_mask(x1 - x0, y1 - y0, radius, blur, 90)
    pad = 2 * blur
    sx, sy = x0 - pad, y0 - pad + offset
    rim = pad + radius + offset
    w, h = mask.size
    for part in (
        (0, 0, w, rim),
        (0, h - rim, w, h),
        (0, rim, rim, h - rim),
        (w - rim, rim, w, h - rim),
    ):
        if part[2] > part[0] and part[3] > part[1]:
            piece = mask.crop(part)
            img.paste((0, 0, 0), (sx + part[0], sy + part[1], sx + part[2], sy + part[3]), piece)
    _flat_rounded(img, box, radius, FELT_EDGE)
    _flat_rounded(img, (x0 + 2, y0 + 2, x1 - 2, y1 - 2), radius - 2, FELT)


def _flat_rounded(img: Image.Image, box: Box, radius: int, fill: RGB) -> None:
    """``rounded`` without an outline, masks only at the four corners."""
    x0, y0, x1, y1 = box
    r = max(1, min(radius, (x1 - x0) // 2, (y1 - y0) // 2))
    for cx, cy in ((x0, y0), (x1 - 2 * r, y0), (x0, y1 - 2 * r), (x1 - 2 * r, y1 - 2 * r)):
        rounded(img, (cx, cy, cx + 2 * r, cy + 2 * r), r, fill)
    img.paste(fill, (x0 + r, y0, x1 - r, y1))
    img.paste(fill, (x0, y0 + r, x1, y1 - r))


def _title(img: Image.Image, title: str, subtitle: str, right: int) -> None:
    head = font("bold", 32)
    text = fit_text(clean_text(title[:300], "bold"), head, right - MARGIN - 8)
    if subtitle:
        draw_text(img, (MARGIN + 2, 42), text, head, TEXT, "lm")
        small = font("regular", 22)
        draw_text(
            img, (MARGIN + 2, 80), fit_text(subtitle, small, right - MARGIN - 8), small, MUTED, "lm"
        )
    else:
        draw_text(img, (MARGIN + 2, 40), text, head, TEXT, "lm")


def _empty_state(img: Image.Image, box: Box, line: str, hint: str) -> None:
    cx = (box[0] + box[2]) // 2
    cy = (box[1] + box[3]) // 2
    disc = 74
    ellipse(img, (cx - disc // 2, cy - 92, cx + disc // 2, cy - 92 + disc), STRIPE, FELT_EDGE, 3)
    crown = icon("crown", 42, FAINT)
    paste_rgba(img, crown, (cx - 21, cy - 92 + (disc - 42) // 2 - 1))
    big = font("bold", 30)
    draw_text(img, (cx, cy + 18), fit_text(line, big, box[2] - box[0] - 60), big, TEXT, "mm")
    small = font("regular", 22)
    draw_text(img, (cx, cy + 58), fit_text(hint, small, box[2] - box[0] - 60), small, MUTED, "mm")


def _table(
    img: Image.Image,
    tr: Labels,
    rows: list[LeaderboardRow],
    box: Box,
    fixed: bool,
    highlight_rank: int | None,
) -> None:
    x0, y0, x1, _ = box
    hy = y0 + HEAD_ROW_H // 2 + 2
    head = font("condensed-bold", 20)
    draw_text(img, (COL_RANK, hy), "#", head, MUTED, "mm")
    draw_text(img, (COL_NAME, hy), _t(tr, "player").upper(), head, MUTED, "lm")
    draw_text(img, (COL_RATING, hy), _t(tr, "rating").upper(), head, MUTED, "rm")
    for key, x in (("games", COL_GAMES), ("wins", COL_WINS), ("win_rate", COL_RATE)):
        label = _t(tr, key).upper()
        size = 20
        while size > 14 and text_width(font("condensed-bold", size), label) > COL_ROOM - 8:
            size -= 1
        draw_text(img, (x, hy), label, font("condensed-bold", size), MUTED, "mm")
    line_y = y0 + HEAD_ROW_H
    img.paste(FELT_EDGE, (x0 + 16, line_y - 1, x1 - 16, line_y + 1))

    top = line_y + 6
    slots = ROWS_PER_PAGE if fixed else len(rows)
    for i in range(slots):
        ry = top + i * ROW_H
        row_box = (x0 + 10, ry + 2, x1 - 10, ry + ROW_H - 2)
        if i % 2 == 1:
            rounded(img, row_box, 12, STRIPE)
        if i < len(rows):
            _row(img, tr, rows[i], row_box, rows[i].rank == highlight_rank)


def _row(img: Image.Image, tr: Labels, row: LeaderboardRow, box: Box, highlight: bool) -> None:
    y0, y1 = box[1], box[3]
    cy = (y0 + y1) / 2
    if highlight:
        rounded(img, box, 12, mix(FELT, GOLD, 0.2), GOLD, 3)
    # rank
    if row.rank in MEDALS:
        medal = _medal(row.rank, 50)
        paste_rgba(img, medal, (COL_RANK - medal.width // 2, round(cy - medal.height / 2)))
    else:
        rank = str(row.rank)
        size = 26
        while size > 14 and text_width(font("bold", size), rank) > 62:
            size -= 2
        draw_text(img, (COL_RANK, cy + 1), rank, font("bold", size), MUTED, "mm")
    # name
    name = clean_text(row.name[:200], "condensed-bold") or f"{_t(tr, 'player')} {row.rank}"
    name_font = font("condensed-bold", 27)
    name_colour = GOLD if highlight else TEXT
    draw_text(
        img,
        (COL_NAME, cy + 1),
        fit_text(name, name_font, COL_RATING - 116 - COL_NAME),
        name_font,
        name_colour,
        "lm",
    )
    # rating and its provisional mark
    rating = str(row.rating)
    size = 30
    while size > 16 and text_width(font("bold", size), rating) > 112:
        size -= 2
    colour = lighten(PROVISIONAL, 0.35) if row.provisional else TEXT
    draw_text(img, (COL_RATING, cy + 1), rating, font("bold", size), colour, "rm")
    if row.provisional:
        _provisional_badge(img, COL_BADGE, round(cy - 13), 26)
    # counts
    for value, x in ((row.games, COL_GAMES), (row.wins, COL_WINS)):
        text, fnt = _count(value, COL_ROOM - 10)
        draw_text(img, (x, cy + 1), text, fnt, TEXT, "mm")
    _win_rate(img, tr, row, round(cy))


def _count(value: int, max_width: int) -> tuple[str, Font]:
    """A count and the largest font (25 px down to 18) that fits; huge
    counts are shortened to thousands ("123k")."""
    value = max(0, value)
    text = str(value)
    for candidate in (text, f"{value // 1000}k", f"{value // 1_000_000}M"):
        for size in range(25, 17, -1):
            fnt = font("condensed-bold", size)
            if text_width(fnt, candidate) <= max_width:
                return candidate, fnt
    fnt = font("condensed-bold", 18)
    return fit_text(text, fnt, max_width), fnt


def _win_rate(img: Image.Image, tr: Labels, row: LeaderboardRow, cy: int) -> None:
    text = _percent(row.wins, row.games, tr)
    fnt = font("condensed-bold", 24)
    draw_text(img, (COL_RATE, cy - 6), text, fnt, TEXT if row.games > 0 else MUTED, "mm")
    bar_w, bar_h = 76, 6
    bx, by = COL_RATE - bar_w // 2, cy + 12
    rounded(img, (bx, by, bx + bar_w, by + bar_h), 3, darken(FELT, 0.35))
    if row.games > 0:
        share = max(0, min(row.wins, row.games)) / row.games
        filled = round(bar_w * share)
        if filled >= 4:
            rounded(img, (bx, by, bx + filled, by + bar_h), 3, GOLD)


def _provisional_badge(img: Image.Image, x: int, y: int, size: int) -> None:
    ellipse(img, (x, y, x + size, y + size), PROVISIONAL)
    fnt = font("bold", round(size * 0.7))
    draw_text(img, (x + size / 2, y + size / 2 + 1), "?", fnt, (255, 255, 255), "mm")


def _provisional_legend(img: Image.Image, tr: Labels, y: int) -> None:
    size = 24
    _provisional_badge(img, MARGIN + 14, y + 2, size)
    fnt = font("regular", 21)
    text = fit_text(_t(tr, "provisional"), fnt, LB_WIDTH - 2 * MARGIN - 60)
    draw_text(img, (MARGIN + 14 + size + 10, y + 2 + size / 2), text, fnt, MUTED, "lm")


@lru_cache(maxsize=8)
def _medal(rank: int, size: int) -> Image.Image:
    """A medal for the podium: ribbon tails behind a rimmed disc with the
    rank. An RGBA tile, drawn large then downscaled."""
    s = 4
    n = size * s
    colour = MEDALS[rank]
    ribbon = (60, 112, 160) if rank == 1 else (150, 64, 64) if rank == 2 else (86, 120, 74)
    tile = Image.new("RGBA", (n, n), (0, 0, 0, 0))
    d = ImageDraw.Draw(tile)
    r = n * 0.36
    cx, cy = n / 2, n * 0.42
    dark = (*darken(ribbon, 0.25), 255)
    light = (*ribbon, 255)
    d.polygon(
        [(cx - r * 0.9, cy), (cx - r * 0.05, cy), (cx - r * 0.3, n), (cx - r * 1.0, n * 0.88)],
        fill=dark,
    )
    d.polygon(
        [(cx + r * 0.05, cy), (cx + r * 0.9, cy), (cx + r * 1.0, n * 0.88), (cx + r * 0.3, n)],
        fill=light,
    )
    rim = (*darken(colour, 0.3), 255)
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=rim)
    inner = r * 0.84
    d.ellipse((cx - inner, cy - inner, cx + inner, cy + inner), fill=(*colour, 255))
    shine = r * 0.66
    d.ellipse(
        (cx - shine, cy - shine, cx + shine, cy + shine),
        outline=(*lighten(colour, 0.35), 255),
        width=max(1, s),
    )
    fnt = font("bold", round(r * 1.05))
    d.text((cx, cy + s), str(rank), font=fnt, fill=(*darken(colour, 0.62), 255), anchor="mm")
    return tile.resize((size, size), Image.Resampling.LANCZOS)


# ---------------------------------------------------------------------------
# Rating chart
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class RatingSeries:
    """One rating history: the shown rating after each rated match."""

    label: str  # e.g. a game name, "Server" or "Global"
    points: Sequence[int]  # oldest first; may be empty or a single point


CHART_W = 900
CHART_H = 420
SERIES_COLOURS: tuple[RGB, ...] = (
    GOLD,
    (88, 196, 178),
    (236, 116, 96),
    (150, 160, 236),
    (214, 132, 200),
    (160, 206, 110),
)
_SUPER = 3  # supersampling of the plotted lines
MAX_SERIES = 6
JOINT_LIMIT = 160


def render_rating_chart(title: str, series: Sequence[RatingSeries], locale: str = "en") -> bytes:
    """Rating histories as a line chart (900x420 PNG): x is the number of
    matches played, y the rating with round ticks; one colour per series,
    a legend, and each series' last value labelled. With fewer than two
    points in every series, a "not enough games yet" message instead."""
    tr = Labels(locale)
    shown = list(series[:MAX_SERIES])
    img = canvas(CHART_W, CHART_H, BG_TOP, BG_BOTTOM)

    head = font("bold", 28)
    name = clean_text(title[:300], "bold")
    labels = [_series_label(tr, s, i) for i, s in enumerate(shown)]
    inline = _legend_width(labels) + min(text_width(head, name), 320) + 30 <= CHART_W - 2 * MARGIN
    title_room = CHART_W - 2 * MARGIN
    if inline:
        title_room = _legend(img, labels, 35) - MARGIN - 30
    draw_text(img, (MARGIN + 2, 34), fit_text(name, head, title_room), head, TEXT, "lm")
    top = 66
    if labels and not inline:  # a legend line of its own under the title
        _legend(img, labels, 80)
        top = 106
    box = (MARGIN, top, CHART_W - MARGIN, CHART_H - MARGIN)
    _panel(img, box, 20)
    longest = max((len(s.points) for s in shown), default=0)
    if longest < 2:
        _empty_state_chart(img, tr, box, shown)
    else:
        _plot(img, tr, box, shown, longest)
    return to_png(img)


def _series_label(tr: Labels, item: RatingSeries, index: int) -> str:
    label = clean_text(item.label[:120], "condensed-bold")
    return label or f"{_t(tr, 'series')} {index + 1}"


LEGEND_DOT = 14
LEGEND_GAP = 24


def _legend_width(labels: list[str]) -> int:
    fnt = font("condensed-bold", 21)
    if not labels:
        return 0
    items = sum(LEGEND_DOT + 8 + text_width(fnt, label) for label in labels)
    return items + LEGEND_GAP * (len(labels) - 1)


def _legend(img: Image.Image, labels: list[str], cy: int) -> int:
    """The legend, right-aligned on the line centred on ``cy``, labels cut
    to share the width; returns its left edge."""
    fnt = font("condensed-bold", 21)
    x = CHART_W - MARGIN
    if not labels:
        return x
    room = CHART_W - 2 * MARGIN
    each = (room - len(labels) * (LEGEND_DOT + 8 + LEGEND_GAP)) // len(labels)
    if _legend_width(labels) > room:
        labels = [fit_text(label, fnt, max(40, each)) for label in labels]
    for i in reversed(range(len(labels))):
        colour = SERIES_COLOURS[i % len(SERIES_COLOURS)]
        x -= text_width(fnt, labels[i])
        draw_text(img, (x, cy), labels[i], fnt, TEXT, "lm")
        x -= LEGEND_DOT + 8
        top = cy - LEGEND_DOT // 2
        ellipse(img, (x, top, x + LEGEND_DOT, top + LEGEND_DOT), colour)
        x -= LEGEND_GAP
    return x + LEGEND_GAP


def _empty_state_chart(img: Image.Image, tr: Labels, box: Box, series: list[RatingSeries]) -> None:
    cx = (box[0] + box[2]) // 2
    cy = (box[1] + box[3]) // 2
    # a faint dashed baseline, like an empty chart
    for x in range(box[0] + 40, box[2] - 40, 24):
        img.paste(GRID, (x, cy + 62, x + 12, cy + 64))
    big = font("bold", 30)
    width = box[2] - box[0] - 60
    draw_text(img, (cx, cy - 30), fit_text(_t(tr, "not_enough"), big, width), big, TEXT, "mm")
    small = font("regular", 22)
    hint = _t(tr, "not_enough_hint")
    draw_text(img, (cx, cy + 10), fit_text(hint, small, width), small, MUTED, "mm")
    # single ratings, if any, as chips under the message
    chips = [(i, s) for i, s in enumerate(series) if s.points]
    if not chips:
        return
    chip_font = font("condensed-bold", 20)
    texts = [f"{_series_label(tr, s, i)}  {s.points[-1]}" for i, s in chips]
    room = (width - 12 * len(texts)) // len(texts)
    texts = [fit_text(t, chip_font, max(40, room - 40)) for t in texts]
    widths = [text_width(chip_font, t) + 34 for t in texts]
    x = cx - (sum(widths) + 12 * (len(widths) - 1)) // 2
    for (i, _), text, w in zip(chips, texts, widths, strict=True):
        colour = SERIES_COLOURS[i % len(SERIES_COLOURS)]
        pill(img, x, cy + 48, text, chip_font, colour, readable_on(colour), 32, 17)
        x += w + 12


def nice_step(span: float, target: int) -> int:
    """A round tick step (1, 2, 2.5, 5 × 10^k, at least 1) giving about
    ``target`` intervals over ``span``."""
    raw = max(span, 1) / max(1, target)
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 2.5, 5, 10):
        step = factor * power
        if step >= raw and step == int(step):
            return max(1, int(step))
    return max(1, int(10 * power))


def _y_range(values: list[int]) -> tuple[int, int, int]:
    """(low, high, step) of the y axis: round ticks around the data, with
    some air when the ratings barely move."""
    lo, hi = min(values), max(values)
    if hi - lo < 20:
        mid = (lo + hi) / 2
        lo, hi = math.floor(mid - 10), math.ceil(mid + 10)
    step = nice_step(hi - lo, 4)
    low = math.floor(lo / step) * step
    high = math.ceil(hi / step) * step
    if high == low:
        high = low + step
    return low, high, step


def _x_ticks(count: int) -> list[int]:
    """Ticks for matches 1..count: 1, round numbers, and none crowding 1."""
    step = nice_step(count - 1, 6) if count > 12 else 1 if count <= 8 else 2
    ticks = [1]
    ticks += [t for t in range(step, count + 1, step) if t - 1 >= step * 0.5]
    return ticks


def _plot(img: Image.Image, tr: Labels, box: Box, series: list[RatingSeries], count: int) -> None:
    values = [p for s in series for p in s.points]
    low, high, step = _y_range(values)
    axis_font = font("condensed-bold", 20)
    tick_w = max(text_width(axis_font, str(t)) for t in range(low, high + 1, step))
    left = box[0] + 22 + tick_w + 12
    right = box[2] - 100  # room for the last-value labels
    top = box[1] + 26
    bottom = box[3] - 56

    def px(i: int) -> float:
        return left + (right - left) * (i / (count - 1))

    def py(v: float) -> float:
        return bottom - (bottom - top) * ((v - low) / (high - low))

    # grid and y ticks
    for t in range(low, high + 1, step):
        y = round(py(t))
        img.paste(GRID, (left, y, right + 14, y + 1 + (t == low)))
        draw_text(img, (left - 12, y), str(t), axis_font, MUTED, "rm")
    # x ticks
    for t in _x_ticks(count):
        x = round(px(t - 1))
        img.paste(GRID, (x, bottom + 1, x + 1, bottom + 7))
        draw_text(img, (x, bottom + 20), str(t), axis_font, MUTED, "mm")
    draw_text(
        img, ((left + right) / 2, bottom + 43), _t(tr, "matches"), font("regular", 19), FAINT, "mm"
    )

    # the lines, supersampled on a copy of the plot area
    pad = 10
    area = (left - pad, top - pad, right + pad + 1, bottom + pad + 1)
    s = _SUPER
    crop = img.crop(area)
    big = crop.resize((crop.width * s, crop.height * s), Image.Resampling.NEAREST)
    d = ImageDraw.Draw(big)
    ends: list[tuple[float, int, RGB]] = []
    for index in reversed(range(len(series))):
        points = series[index].points
        if not points:
            continue
        colour = SERIES_COLOURS[index % len(SERIES_COLOURS)]
        coords = [
            ((px(i) - area[0]) * s, (py(v) - area[1]) * s)
            for i, v in _thin(points, (right - left) // 2)
        ]
        if len(coords) > 1:
            # round joints cost a Python call per vertex: only for sparse lines
            joint: Literal["curve"] | None = "curve" if len(coords) <= JOINT_LIMIT else None
            d.line(coords, fill=darken(colour, 0.55), width=8 * s, joint=joint)
            d.line(coords, fill=colour, width=4 * s, joint=joint)
        ex, ey = coords[-1]
        r = 6 * s
        d.ellipse((ex - r, ey - r, ex + r, ey + r), fill=darken(colour, 0.55))
        r = 4 * s
        d.ellipse((ex - r, ey - r, ex + r, ey + r), fill=colour)
        ends.append((py(points[-1]), index, colour))
    small = big.reduce(s)
    img.paste(small, area[:2])

    # last values, pushed apart when they collide
    _end_labels(img, series, ends, px, (box[2] - 10, top, bottom))


def _thin(points: Sequence[int], buckets: int) -> list[tuple[int, int]]:
    """``(index, value)`` pairs to draw: every point of a short series; for a
    long one, the first, lowest, highest and last point of each of about
    ``buckets`` runs, so that the drawn envelope is unchanged."""
    n = len(points)
    if n <= 2 * max(1, buckets):
        return list(enumerate(points))
    size = math.ceil(n / buckets)
    out: list[tuple[int, int]] = []
    for start in range(0, n, size):
        run = range(start, min(n, start + size))
        low = min(run, key=lambda i: points[i])
        high = max(run, key=lambda i: points[i])
        for i in sorted({run[0], low, high, run[-1]}):
            out.append((i, points[i]))
    return out


def _end_labels(
    img: Image.Image,
    series: list[RatingSeries],
    ends: list[tuple[float, int, RGB]],
    px: Callable[[int], float],
    bounds: tuple[int, int, int],
) -> None:
    """A value pill right of each series' last point; pills ending at about
    the same x are spread vertically so that none hides another."""
    fnt = font("bold", 20)
    h = 30
    limit, top, bottom = bounds  # right edge, top and bottom of the plot
    placed: list[tuple[float, float, int, RGB]] = []  # (x, y centre, index, colour)
    for y, index, colour in ends:
        placed.append((px(len(series[index].points) - 1) + 14, y, index, colour))
    placed.sort()
    clusters: list[list[tuple[float, float, int, RGB]]] = []
    reach = -math.inf  # right edge of the current cluster's widest pill
    for item in placed:
        width = text_width(fnt, str(series[item[2]].points[-1])) + 22
        if clusters and item[0] < reach + 6:
            clusters[-1].append(item)
        else:
            clusters.append([item])
        reach = max(reach, item[0] + width) if len(clusters[-1]) > 1 else item[0] + width
    lo, hi = top - 10 + h / 2, bottom + 10 - h / 2
    for cluster in clusters:
        cluster.sort(key=lambda item: item[1])
        ys = [min(max(item[1], lo), hi) for item in cluster]
        for i in range(1, len(ys)):  # push down, then back up from the bottom
            ys[i] = max(ys[i], ys[i - 1] + h + 2)
        ys[-1] = min(ys[-1], hi)
        for i in reversed(range(len(ys) - 1)):
            ys[i] = min(ys[i], ys[i + 1] - h - 2)
        for (x, _, index, colour), y in zip(cluster, ys, strict=True):
            text = str(series[index].points[-1])
            left = min(round(x), limit - text_width(fnt, text) - 22)
            pill(img, left, round(y - h / 2), text, fnt, colour, readable_on(colour), h, 11)
