"""Battalia images: the board's panels (the Oracle's wheel, Buff, the
players, the market, the battle and the auction in progress)."""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

from engine.games.battalia.data import great_by_code
from engine.games.battalia.model import BattleView, Breakdown, PlayerView

from ..common import Box, darken, dim, draw_card_back, fit_text, fit_with_names, font, lighten, mix
from ..liber.layers import rounded
from .cards import GREAT, chip, paste_chips
from .context import Ctx, card_name
from .style import (
    ARTEFACT_TYPES,
    FACTION_COLOURS,
    FACTION_TERRAIN,
    GOLD,
    GOLD_DARK,
    HORDE,
    MARGIN,
    MUTED,
    NEUTRAL,
    PANEL,
    PANEL_DARK,
    PANEL_EDGE,
    RED,
    TEXT,
    WIDTH,
    draw_text,
    text_width,
    wrap_text,
)
from .tiles import (
    buff_tile,
    city_tile,
    hero_tile,
    layout_exits,
    ray_points,
    road_tile,
    terrain_tile,
    token_tile,
    type_colour,
    type_icon,
)

MATCHING = ("O", "R", "A", "E", "M", "C", "T")
TYPE_NAMES = {
    "O": "Outil",
    "A": "Arme",
    "M": "Amulette",
    "T": "Titre",
    "R": "Parchemin",
    "E": "Tente",
    "C": "Cheval",
}


def _cycles() -> tuple[tuple[str, ...], tuple[str, ...]]:
    try:
        from engine.games.battalia.data import data

        oracle = data().oracle
        return tuple(oracle.illuminated), tuple(oracle.matching)
    except (ImportError, OSError, ValueError, AttributeError):
        return ARTEFACT_TYPES, MATCHING


def type_name(kind: str) -> str:
    """An artefact type's French name (card names stay French)."""
    try:
        from engine.games.battalia.data import data

        for art in data().artefacts:
            if art.code == kind:
                return art.name
    except (ImportError, OSError, ValueError, AttributeError):
        pass
    return TYPE_NAMES.get(kind, kind)


def panel(img: Image.Image, box: Box, title: str = "", accent: tuple[int, int, int] = GOLD) -> None:
    rounded(img, box, 14, PANEL, PANEL_EDGE, 2)
    if title:
        draw_text(
            img,
            (box[0] + 14, box[1] + 20),
            fit_text(title, font("bold", 20), box[2] - box[0] - 28),
            font("bold", 20),
            accent,
            "lm",
        )


# ---------------------------------------------------------------------------
# The Oracle
# ---------------------------------------------------------------------------


def oracle_panel(img: Image.Image, ctx: Ctx, box: Box) -> None:
    """The Oracle: a 7-ray wheel (one ray a day of the week, each with the
    type it illuminates; today's lit in gold, past days dimmed), the week in
    its hub; beside it today's illuminated and matching types."""
    v = ctx.view
    panel(img, box)
    x0, y0, x1, y1 = box
    cx, cy = x0 + 90, (y0 + y1) / 2
    r_out, r_in = 82, 30
    illuminated, _ = _cycles()
    today = int(v.day_of_week) % 7
    wheel = _wheel(today, r_out, r_in)
    n = wheel.width
    img.paste(wheel, (round(cx - n / 2), round(cy - n / 2)), wheel)
    for k in range(7):
        a = -math.pi / 2 + k * 2 * math.pi / 7
        r = (r_in + r_out) / 2 + 8
        px, py = cx + r * math.cos(a), cy + r * math.sin(a)
        kind = illuminated[k % len(illuminated)]
        ink = GOLD_DARK if k == today else (MUTED if k > today else darken(MUTED, 0.35))
        ic = type_icon(kind, 24, ink)
        img.paste(ic, (round(px - 12), round(py - 12)), ic)
    draw_text(img, (cx, cy - 9), ctx.t("week-short"), font("condensed-bold", 13), MUTED, "mm")
    draw_text(img, (cx, cy + 9), str(v.week), font("bold", 22), GOLD, "mm")
    # today's types
    tx = x0 + 184
    avail = x1 - tx - 10
    label = font("condensed-bold", 17)
    name = font("bold", 20)
    draw_text(
        img,
        (tx, y0 + 20),
        fit_text(ctx.t("day-of-week", n=today + 1), label, avail),
        label,
        MUTED,
        "lm",
    )
    y = y0 + 46
    for key, kind in (("illuminated", v.illuminated), ("matching", v.matching)):
        accent = GOLD if key == "illuminated" else MATCH
        draw_text(img, (tx, y), fit_text(ctx.t(key), label, avail), label, accent, "lm")
        rounded(img, (tx, y + 12, tx + 36, y + 48), 8, accent)
        ic = type_icon(kind, 26, GOLD_DARK if key == "illuminated" else (20, 40, 60))
        img.paste(ic, (tx + 5, y + 17), ic)
        draw_text(
            img, (tx + 44, y + 30), fit_text(type_name(kind), name, avail - 44), name, TEXT, "lm"
        )
        y += 64
    # the factions still on offer on the matching type
    factions = tuple(getattr(v.market, "matching_factions", ()))
    fx = tx
    for f in factions:
        colour = FACTION_COLOURS.get(f, NEUTRAL)
        d2 = ImageDraw.Draw(img)
        d2.ellipse((fx, y - 14, fx + 16, y + 2), fill=colour, outline=(255, 255, 255), width=2)
        fx += 22


@lru_cache(maxsize=8)
def _wheel(today: int, r_out: int, r_in: int) -> Image.Image:
    """The Oracle's wheel (RGBA): seven rays, today's gold, past days dim."""
    s = 3
    n = 2 * r_out + 8
    big = Image.new("RGBA", (n * s, n * s), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    c = n * s / 2
    d.ellipse(
        (c - (r_out + 3) * s, c - (r_out + 3) * s, c + (r_out + 3) * s, c + (r_out + 3) * s),
        fill=(*PANEL_DARK, 255),
    )
    for k in range(7):
        pts = [(px * s, py * s) for px, py in ray_points(n / 2, n / 2, r_in + 4, r_out, k)]
        if k == today:
            colour = GOLD
        elif k < today:
            colour = mix(PANEL, PANEL_DARK, 0.5)
        else:
            colour = lighten(PANEL, 0.12)
        d.polygon(pts, fill=(*colour, 255))
    d.ellipse(
        (c - r_in * s, c - r_in * s, c + r_in * s, c + r_in * s),
        fill=(*GOLD_DARK, 255),
        outline=(*GOLD, 255),
        width=2 * s,
    )
    return big.resize((n, n), Image.Resampling.LANCZOS)


MATCH = (150, 206, 236)  # the matching type's mark


# ---------------------------------------------------------------------------
# Buff
# ---------------------------------------------------------------------------


def buff_lines(ctx: Ctx) -> list[tuple[str, tuple[int, int, int]]]:
    """What is known of Buff: where he is, who hired him and until when,
    who bribed him, the last roll."""
    b = ctx.view.buff
    if not ctx.buff_on():
        return [(ctx.t("buff-off"), MUTED)]
    out: list[tuple[str, tuple[int, int, int]]] = []
    if b.owner is not None:
        out.append(
            (ctx.t("buff-hired", name=ctx.name(b.owner), day=b.hire_until), ctx.colour(b.owner))
        )
    if b.square is not None:
        out.append((ctx.t("buff-at", square=b.square), TEXT))
    elif ctx.view.auction is not None:
        out.append((ctx.t("buff-auction"), GOLD))
    elif b.absent:
        out.append((ctx.t("buff-absent"), MUTED))
    elif not b.entered:
        out.append((ctx.t("buff-waiting"), MUTED))
    else:
        out.append((ctx.t("buff-away"), MUTED))
    for seat, until in b.bribes:
        out.append(
            (ctx.t("buff-bribed", name=ctx.name(seat), day=until), lighten(ctx.colour(seat), 0.3))
        )
    return out


def buff_panel(img: Image.Image, ctx: Ctx, box: Box) -> None:
    b = ctx.view.buff
    panel(img, box)
    x0, y0, x1, y1 = box
    ring = ctx.colour(b.owner) if b.owner is not None else None
    fig = buff_tile(84, ring)
    img.paste(fig, (x0 + 10, y0 + 36), fig)
    if ctx.buff_on():
        tok = token_tile(str(b.horde), 42, HORDE)
        img.paste(tok, (x0 + 66, y0 + 92), tok)
    draw_text(
        img,
        (x0 + 14, y0 + 20),
        fit_text(ctx.t("buff-title"), font("bold", 20), x1 - x0 - 70),
        font("bold", 20),
        (236, 120, 100),
        "lm",
    )
    if ctx.view.roll is not None and ctx.buff_on():
        _die(img, x1 - 44, y0 + 6, 30, int(ctx.view.roll))
    tx = x0 + 112
    avail = x1 - tx - 10
    fnt = font("condensed-bold", 18)
    y = y0 + 50
    for text, colour in buff_lines(ctx):
        for line in wrap_text(text, fnt, avail):
            if y > y1 - 12:
                return
            draw_text(img, (tx, y), line, fnt, colour, "lm")
            y += 22


def _die(img: Image.Image, x: int, y: int, size: int, value: int) -> None:
    rounded(img, (x, y, x + size, y + size), size // 5, (250, 246, 236), (40, 30, 24), 2)
    pips = {
        1: [(0.5, 0.5)],
        2: [(0.28, 0.28), (0.72, 0.72)],
        3: [(0.25, 0.25), (0.5, 0.5), (0.75, 0.75)],
        4: [(0.28, 0.28), (0.72, 0.28), (0.28, 0.72), (0.72, 0.72)],
        5: [(0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)],
        6: [(0.28, 0.22), (0.72, 0.22), (0.28, 0.5), (0.72, 0.5), (0.28, 0.78), (0.72, 0.78)],
    }
    d = ImageDraw.Draw(img)
    r = size * 0.09
    for fx, fy in pips.get(value, []):
        px, py = x + fx * size, y + fy * size
        d.ellipse((px - r, py - r, px + r, py + r), fill=HORDE)


# ---------------------------------------------------------------------------
# The players
# ---------------------------------------------------------------------------

ROW_H = 136


def players_height(ctx: Ctx) -> int:
    return ROW_H


def players_panel(img: Image.Image, ctx: Ctx, y: int) -> int:
    """One card per player side by side: name, faction, VP, cities (and
    level-4 ones), heroes in supply, hand / deck / discard, tent, markers;
    the seat to act (or the winner) ringed in gold. Returns the bottom."""
    v = ctx.view
    awaited = {seat for seat, _ in v.pending}
    winners = set(ctx.winners())
    count = max(1, len(v.players))
    gap = 10
    w = (WIDTH - 2 * MARGIN - gap * (count - 1)) // count
    x = MARGIN
    for p in v.players:
        box = (x, y, x + w, y + ROW_H)
        colour = ctx.colour(p.seat)
        hot = p.seat in awaited or p.seat in winners or (not awaited and p.seat == v.active)
        rounded(img, box, 12, GOLD if hot else PANEL_EDGE)
        rounded(img, (box[0] + 3, box[1] + 3, box[2] - 3, box[3] - 3), 10, PANEL)
        rounded(img, (box[0] + 3, box[1] + 3, box[2] - 3, box[1] + 11), 5, colour)
        _player_card(img, ctx, p, box, p.seat in winners)
        if p.resigned:  # greyed out, with a band saying so
            dim(img, box, PANEL_DARK, 0.55, 12)
            rf = font("bold", 18)
            text = fit_text(ctx.t("resigned"), rf, w - 30)
            tw = text_width(rf, text) + 20
            mid = x + w // 2
            rounded(img, (mid - tw // 2, y + 52, mid + tw // 2, y + 80), 12, RED)
            draw_text(img, (mid, y + 66), text, rf, (255, 255, 255), "mm")
        x += w + gap
    return y + ROW_H


def _player_card(img: Image.Image, ctx: Ctx, p: PlayerView, box: Box, won: bool) -> None:
    x0, y0, x1, _y1 = box
    vp_tok = token_tile(str(p.vp), 50, GOLD, (255, 255, 255))
    img.paste(vp_tok, (x1 - 60, y0 + 18), vp_tok)
    draw_text(img, (x1 - 35, y0 + 80), ctx.t("vp"), font("condensed-bold", 15), MUTED, "mm")
    tx = x0 + 12
    avail = x1 - 66 - tx
    name_f = font("bold", 22)
    name = ("★ " if won else "") + ctx.name(p.seat)
    draw_text(
        img, (tx, y0 + 30), fit_text(name, name_f, avail), name_f, GOLD if won else TEXT, "lm"
    )
    small = font("condensed-bold", 17)
    faction = ctx.faction_name(p.faction)
    fx = tx
    if p.faction in FACTION_TERRAIN:
        img.paste(terrain_tile(FACTION_TERRAIN[p.faction], 18), (tx, y0 + 44))
        fx += 24
    draw_text(
        img,
        (fx, y0 + 53),
        fit_text(faction, small, avail - fx + tx),
        small,
        lighten(ctx.colour(p.seat), 0.5),
        "lm",
    )
    ct = city_tile(ctx.colour(p.seat), 2, 26)
    img.paste(ct, (tx - 2, y0 + 62), ct)
    stat = font("bold", 18)
    cities = ctx.t("cities", n=p.cities, m=p.level4)
    draw_text(img, (tx + 26, y0 + 76), cities, stat, TEXT, "lm")
    hx = tx + 26 + text_width(stat, cities) + 8
    for _ in range(max(0, int(p.heroes_in_supply))):
        ht = hero_tile(ctx.colour(p.seat), "", 24)
        img.paste(ht, (hx, y0 + 63), ht)
        hx += 20
    if p.tent_count:  # cards kept in the tent: a tent and their number
        tent = type_icon("E", 20, type_colour("E"))
        img.paste(tent, (hx + 6, y0 + 66), tent)
        draw_text(img, (hx + 30, y0 + 76), str(p.tent_count), stat, TEXT, "lm")
    cards = ctx.t("cards", hand=p.hand_count, deck=p.deck_count, discard=p.discard_count)
    draw_text(img, (tx, y0 + 98), fit_text(cards, small, x1 - 10 - tx), small, MUTED, "lm")
    if p.marker is not None:
        kind, until = p.marker
        text = ctx.t(f"marker-{kind}", day=until)
        mf = font("condensed-bold", 16)
        w = min(text_width(mf, text) + 16, x1 - x0 - 20)
        rounded(img, (tx, y0 + 110, tx + w, y0 + 130), 10, HORDE)
        draw_text(img, (tx + w / 2, y0 + 120), fit_text(text, mf, w - 8), mf, (255, 255, 255), "mm")


# ---------------------------------------------------------------------------
# The market
# ---------------------------------------------------------------------------

CHIP_W, CHIP_H = 38, 50
GREAT_BACK = GREAT


GREAT_W, GREAT_H = 36, 46
GREAT_COLS = 2


def market_height(ctx: Ctx) -> int:
    known, hidden = great_display(ctx.view.market)
    items = len(known) + (1 if hidden else 0)
    rows = -(-items // GREAT_COLS)
    return 300 + (24 + rows * (GREAT_H + 6) if items else 0)


def great_display(market: object) -> tuple[list[str], int]:
    """The Great Artefacts on display: (the codes the view names, how many
    more lie face down). Tolerant of both views: a view naming them, and one
    giving only their count when they are face down (option
    ``great_face_down``); an entry that is no known code counts as face down."""
    codes = tuple(getattr(market, "great_artefacts", ()) or ())
    known = [c for c in codes if c in great_by_code()]
    hidden = len(codes) - len(known)
    for field in ("great_count", "great_face_down_count", "great_down", "great_hidden"):
        value = getattr(market, field, None)
        if isinstance(value, int) and not isinstance(value, bool):
            total = value if field == "great_count" else value + len(known)
            hidden = max(hidden, total - len(known))
    return known, hidden


def market_panel(img: Image.Image, ctx: Ctx, box: Box) -> None:
    """The stacks (units by rank, mercenaries, artefact types, with their
    counts: the illuminated type ringed in gold, the matching one marked),
    the Provisions, the terrain decks (roads and cities by layout), the
    Great Artefacts on display, the Ambush."""
    v = ctx.view
    m = v.market
    panel(img, box, ctx.t("market"))
    x0, y0, x1, _y1 = box
    count_f = font("bold", 16)
    stacks = dict(m.stacks)
    step = (x1 - x0 - 24 - CHIP_W) // 6
    rows = (("1", "2", "3", "4", "m", "P"), ARTEFACT_TYPES)
    top = y0 + 40
    for row in rows:
        x = x0 + 12
        for key in row:
            if key == "P":
                tile = chip("P", CHIP_W, CHIP_H)
                count = int(m.provisions)
            elif key in stacks:
                top_card = m.mercenary_top if key == "m" else None
                tile = chip(top_card, CHIP_W, CHIP_H) if top_card else _stack_chip(key)
                count = int(stacks[key])
            else:
                x += step
                continue
            img.paste(tile, (x, top), tile)
            if key == v.illuminated:
                ImageDraw.Draw(img).rounded_rectangle(
                    (x - 3, top - 3, x + CHIP_W + 2, top + CHIP_H + 2),
                    radius=7,
                    outline=GOLD,
                    width=3,
                )
            if key == v.matching:
                d = ImageDraw.Draw(img)
                d.rounded_rectangle(
                    (x - 3, top - 3, x + CHIP_W + 2, top + CHIP_H + 2),
                    radius=7,
                    outline=MATCH,
                    width=3,
                )
            draw_text(
                img,
                (x + CHIP_W / 2, top + CHIP_H + 11),
                str(count),
                count_f,
                TEXT if count else RED,
                "mm",
            )
            x += step
        top += CHIP_H + 26
    label = font("condensed-bold", 16)
    mini = 30
    for key, deck, is_city in (("roads", m.roads, False), ("cities-deck", m.cities, True)):
        x = x0 + 12
        draw_text(img, (x, top + mini / 2), ctx.t(key), label, MUTED, "lm")
        x += 58
        each = (x1 - 10 - x) // 5
        for layout, count in deck:
            img.paste(terrain_tile(None, mini), (x, top))
            r = road_tile(layout_exits(layout, 0), mini)
            img.paste(r, (x, top), r)
            if is_city:
                ct = city_tile(NEUTRAL, 1, 22)
                img.paste(ct, (x + 4, top + 4), ct)
            draw_text(
                img,
                (x + mini + 3, top + mini / 2),
                str(count),
                count_f,
                TEXT if count else RED,
                "lm",
            )
            x += each
        top += mini + 10
    _great_row(img, ctx, m, x0 + 12, top, x1 - 12)
    if m.ambush:
        draw_text(img, (x1 - 14, y0 + 20), ctx.t("ambush", n=m.ambush), label, MUTED, "rm")


def _great_row(img: Image.Image, ctx: Ctx, m: object, x0: int, top: int, x1: int) -> None:
    """The Great Artefacts on display, big enough to tell apart (each with
    its type's icon and its name), or card backs with their count when they
    lie face down."""
    known, hidden = great_display(m)
    if not known and not hidden:
        return
    label = font("condensed-bold", 16)
    draw_text(img, (x0, top + 10), ctx.t("great-artefacts"), label, MUTED, "lm")
    top += 24
    items = len(known) + (1 if hidden else 0)
    cell = (x1 - x0) // min(GREAT_COLS, items)
    name_f = font("condensed-bold", 16)

    def place(k: int) -> tuple[int, int]:
        return x0 + (k % GREAT_COLS) * cell, top + (k // GREAT_COLS) * (GREAT_H + 6)

    for k, code in enumerate(known):
        cx, cy = place(k)
        tile = chip(code, GREAT_W, GREAT_H)
        img.paste(tile, (cx, cy), tile)
        width = cell - GREAT_W - 14
        lines = wrap_text(card_name(code), name_f, width)[:2]
        for j, line in enumerate(lines):
            draw_text(
                img,
                (cx + GREAT_W + 6, cy + GREAT_H / 2 + (j - (len(lines) - 1) / 2) * 18),
                fit_text(line, name_f, width),
                name_f,
                TEXT,
                "lm",
            )
    if hidden:
        cx, top = place(len(known))
        for j in range(min(hidden, 3)):
            draw_card_back(img, cx + j * 8, top, GREAT_W, GREAT_H, GREAT_BACK)
        text = ctx.t("great-face-down", n=hidden)
        tx = cx + GREAT_W + 8 * (min(hidden, 3) - 1) + 8
        draw_text(img, (tx, top + GREAT_H / 2), fit_text(text, label, x1 - tx), label, TEXT, "lm")


def _stack_chip(key: str) -> Image.Image:
    if key in "1234":
        return chip(f"{key}?", CHIP_W, CHIP_H)
    if key == "m":
        return chip("1m", CHIP_W, CHIP_H)
    return chip(f"{key}?", CHIP_W, CHIP_H)


# ---------------------------------------------------------------------------
# The battle in progress
# ---------------------------------------------------------------------------

LINE_H = 92


def battle_height(ctx: Ctx) -> int:
    return 52 + 2 * LINE_H + (30 if ctx.view.battle is not None and ctx.view.battle.result else 0)


def _breakdown(ctx: Ctx, line: Breakdown, horde: bool) -> str:
    """``cards 10 + morale 1 + terrain 1`` (the horde's strength for Buff)."""
    parts = [ctx.t("bd-cards", n=line.base)] if line.cards else []
    for key in ("morale", "terrain", "bannerless", "level"):
        value = int(getattr(line, key, 0) or 0)
        if value:
            parts.append(ctx.t("bd-horde" if horde and key == "level" else f"bd-{key}", n=value))
    return " + ".join(parts)


def line_note(ctx: Ctx, line: Breakdown, horde: bool) -> str:
    """The breakdown written after a line's cards; none for Buff's bare
    horde (its label says it, its strength is the total)."""
    return "" if horde and not line.cards else _breakdown(ctx, line, horde)


def battle_panel(img: Image.Image, ctx: Ctx, y: int) -> int:
    b = ctx.view.battle
    if b is None:
        return y
    box = (MARGIN, y, WIDTH - MARGIN, y + battle_height(ctx))
    attacker = ctx.name(b.attacker) if b.piece != "buff" else ctx.t("target-buff")
    panel(img, box)
    head = font("bold", 21)
    title = ctx.t("battle", square=b.square, name=attacker, target=_target(ctx, b))
    draw_text(
        img,
        (MARGIN + 14, y + 22),
        fit_with_names(ctx.names, title, head, WIDTH - 2 * MARGIN - 28),
        head,
        (236, 120, 100),
        "lm",
    )
    ly = y + 44
    rows = (
        (
            b.attacker if b.piece != "buff" else None,
            b.attacker_line,
            b.attacker_break,
            ctx.t("attack-line"),
        ),
        (b.defender, b.defender_line, b.defender_break, ctx.t("defence-line")),
    )
    for k, (seat, cards, line, label) in enumerate(rows):
        colour = ctx.colour(seat) if seat is not None else HORDE
        rounded(img, (MARGIN + 10, ly, WIDTH - MARGIN - 10, ly + LINE_H - 8), 10, PANEL_DARK)
        rounded(img, (MARGIN + 10, ly, MARGIN + 18, ly + LINE_H - 8), 4, colour)
        small = font("condensed-bold", 16)
        horde = seat is None and (b.piece == "buff" if k == 0 else b.target_kind == "buff")
        if seat is not None:
            who = ctx.name(seat)
        else:
            who = ctx.t("target-buff") if horde else ctx.t("neutral-defender")
        draw_text(
            img,
            (MARGIN + 28, ly + 14),
            fit_with_names(ctx.names, f"{label} · {who}", small, 420),
            small,
            MUTED,
            "lm",
        )
        if line is None:  # the defence is not laid yet
            draw_text(
                img,
                (MARGIN + 28, ly + 50),
                ctx.t("awaiting-defence"),
                font("condensed-bold", 19),
                MUTED,
                "lm",
            )
        else:
            cards = cards or ()
            end = paste_chips(img, list(cards), MARGIN + 28, ly + 26, 40, 52, 560, 5)
            if not cards:
                if horde:
                    text = ctx.t("horde-line")
                elif seat is None:
                    text = ctx.t("ruins-line" if b.target_kind == "ruins" else "neutral-line")
                else:
                    text = ctx.t("empty-line")
                draw_text(
                    img, (MARGIN + 28, ly + 50), text, font("condensed-bold", 19), MUTED, "lm"
                )
                end = MARGIN + 28 + text_width(font("condensed-bold", 19), text)
            bd = line_note(ctx, line, horde)
            if line.rolls:
                bd += " · " + ctx.t(
                    "amulets", rolls=", ".join(f"{card_name(c)} {r}" for c, r in line.rolls)
                )
            bf = font("condensed-bold", 17)
            draw_text(
                img,
                (end + 16, ly + 52),
                fit_text(bd, bf, WIDTH - MARGIN - 110 - end),
                bf,
                TEXT,
                "lm",
            )
            tok = token_tile(str(line.total), 54, colour, (255, 255, 255))
            img.paste(tok, (WIDTH - MARGIN - 78, ly + 12), tok)
        ly += LINE_H
    if b.result:
        draw_text(
            img, (MARGIN + 14, ly + 10), ctx.t(f"result-{b.result}"), font("bold", 20), GOLD, "lm"
        )
    return box[3]


def _target(ctx: Ctx, b: BattleView) -> str:
    target = b.target
    if target == "buff":
        return ctx.t("target-buff")
    if len(target) >= 3 and target[0].isdigit() and "h" in target:
        seat = int(target[0]) - 1
        return ctx.t("target-hero", name=ctx.name(seat), n=target.split("h")[1])
    if b.target_kind == "ruins":
        return ctx.t("target-ruins")
    if b.defender is None:
        return ctx.t("target-neutral", square=target)
    return ctx.t("target-city", name=ctx.name(b.defender), square=target)


# ---------------------------------------------------------------------------
# The auction
# ---------------------------------------------------------------------------


def auction_height(ctx: Ctx) -> int:
    return 50 + 62 * len(ctx.view.players)


def auction_panel(img: Image.Image, ctx: Ctx, y: int) -> int:
    a = ctx.view.auction
    if a is None:
        return y
    box = (MARGIN, y, WIDTH - MARGIN, y + auction_height(ctx))
    panel(img, box, ctx.t("auction"), (236, 120, 100))
    bids = {seat: (cards, total) for seat, cards, total in a.bids}
    waiting = set(a.bidders)
    ly = y + 42
    fnt = font("condensed-bold", 19)
    for p in ctx.view.players:
        seat = p.seat
        colour = ctx.colour(seat)
        rounded(
            img,
            (MARGIN + 10, ly, WIDTH - MARGIN - 10, ly + 56),
            10,
            GOLD if a.winner == seat else PANEL_DARK,
        )
        rounded(img, (MARGIN + 13, ly + 3, WIDTH - MARGIN - 13, ly + 53), 8, PANEL_DARK)
        rounded(img, (MARGIN + 13, ly + 3, MARGIN + 21, ly + 53), 4, colour)
        draw_text(img, (MARGIN + 32, ly + 28), fit_text(ctx.name(seat), fnt, 200), fnt, TEXT, "lm")
        x = MARGIN + 250
        if seat in bids:
            cards, total = bids[seat]
            end = paste_chips(img, list(cards), x, ly + 6, 34, 44, 560, 4)
            if not cards:
                draw_text(img, (x, ly + 28), ctx.t("bid-nothing"), fnt, MUTED, "lm")
            tok = token_tile(str(total), 42, colour, (255, 255, 255))
            img.paste(tok, (max(end + 12, WIDTH - MARGIN - 70), ly + 7), tok)
            if a.winner == seat:
                draw_text(img, (WIDTH - MARGIN - 84, ly + 28), ctx.t("bid-winner"), fnt, GOLD, "rm")
        elif seat in waiting:
            draw_text(img, (x, ly + 28), ctx.t("bid-waiting"), fnt, MUTED, "lm")
        else:
            draw_text(img, (x, ly + 28), ctx.t("bid-done"), fnt, (150, 210, 140), "lm")
        ly += 62
    return box[3]
