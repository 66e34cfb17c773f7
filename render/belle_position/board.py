"""Belle Position images: the public board (header, banner, fronts, dice, armies)."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

import i18n
from engine.games.belle_position import (
    PlayerView,
    Test,
)

from ..common import (
    CARD_FACE,
    INK,
    RGB,
    Box,
    Font,
    darken,
    drop_shadow,
    ellipse,
    fit_text,
    fit_with_names,
    font,
    icon,
    lighten,
    mix,
    pill,
    readable_on,
    to_png,
)
from ..liber.layers import gradient, paste_rgba
from ..liber.layers import rounded as _rrect
from .cards import (
    _card_back,
    _card_h,
    _draw_die,
    glyph,
)
from .context import (
    _context,
    _Ctx,
    _front_pairs,
    _mods_text,
    _public_mover,
)
from .positions import (
    _box_height,
    _draw_position,
)
from .style import (
    BG_BOTTOM,
    BG_TOP,
    BOX_W,
    GOLD,
    GOLD_DARK,
    GOLD_SUB,
    GREEN,
    GUTTER,
    MARGIN,
    MUTED,
    NEUTRAL,
    PANEL,
    PANEL_EDGE,
    RED,
    TEXT,
    WHITE,
    WIDTH,
    draw_text,
    text_width,
    wrap_text,
)

# ---------------------------------------------------------------------------
# Board: header, banner, fronts
# ---------------------------------------------------------------------------


def render_board(view: object, names: Sequence[str], locale: str = "en") -> bytes:
    ctx = _context(view, names, locale, private=False)
    v = ctx.view
    pairs = _front_pairs(v)
    front_h = [
        max(_box_height(ctx, v.positions[a]), _box_height(ctx, v.positions[b])) for a, b in pairs
    ]

    header_h = 62
    banner_top = header_h
    banner_h = 80
    armies_top = banner_top + banner_h + 14
    armies_h = ARMY_H
    fronts_top = armies_top + armies_h + 10
    fronts_h = sum(front_h) + FRONT_GAP * (len(front_h) - 1)
    dice_top = fronts_top + fronts_h + 14
    dice_h = _dice_height(ctx)
    details_top = dice_top + dice_h + (12 if dice_h else 0)
    details_h = _details_height(ctx)
    legend_top = details_top + details_h + 6
    legend = _legend_lines(ctx)
    height = legend_top + 19 * len(legend) + 6

    img = gradient(WIDTH, height, BG_TOP, BG_BOTTOM)
    _header(img, ctx)
    _banner(img, ctx, banner_top, banner_h)
    mover = _public_mover(v)
    columns = (MARGIN, MARGIN + BOX_W + GUTTER)
    for col, p in enumerate(pairs[0]):
        seat = v.positions[p].line
        x = columns[col]
        _army_panel(img, ctx, v.players[seat], (x, armies_top, x + BOX_W, armies_top + armies_h))
    cx = MARGIN + BOX_W + GUTTER // 2
    draw_text(img, (cx, armies_top + armies_h / 2), "⇄", font("bold", 24), MUTED, "mm")
    y = fronts_top
    for (a, b), h in zip(pairs, front_h, strict=True):
        _draw_position(img, ctx, v.positions[a], (columns[0], y, columns[0] + BOX_W, y + h), mover)
        _draw_position(img, ctx, v.positions[b], (columns[1], y, columns[1] + BOX_W, y + h), mover)
        _no_mans_land(img, ctx, a, b, y, h)
        y += h + FRONT_GAP
    _dice_section(img, ctx, dice_top, dice_h)
    if details_h:
        for col, p in enumerate(pairs[0]):
            seat = v.positions[p].line
            x = columns[col]
            _details(
                img, ctx, v.players[seat], (x, details_top, x + BOX_W, details_top + details_h)
            )
    for k, line in enumerate(legend):
        draw_text(img, (WIDTH / 2, legend_top + 2 + k * 19), line, LEGEND_FONT, MUTED, "ma")
    return to_png(img)


FRONT_GAP = 10
LEGEND_FONT = font("regular", 15)


def _legend_lines(ctx: _Ctx) -> list[str]:
    out: list[str] = []
    for key in ("legend", "legend_codes", "legend_terrain", "legend_marks"):
        lines = wrap_text(ctx.t(key), LEGEND_FONT, WIDTH - 2 * MARGIN)
        if len(lines) > 2:
            lines = [lines[0], fit_text(" ".join(lines[1:]), LEGEND_FONT, WIDTH - 2 * MARGIN)]
        out += lines
    return out


def _header(img: Image.Image, ctx: _Ctx) -> None:
    v = ctx.view
    title = i18n.translate(ctx.lang, "game-belle-position-name")
    draw_text(img, (MARGIN + 2, 34), title, font("bold", 30), TEXT, "lm")
    sub = font("regular", 18)
    draw_text(img, (MARGIN + 250, 36), "1870–71", sub, MUTED, "lm")
    right = WIDTH - MARGIN
    small = font("condensed-bold", 19)
    if v.turn > 0:
        right -= pill(
            img,
            right,
            16,
            (
                ctx.t("turn", n=v.turn, m=2 * v.turn_limit)
                if v.turn_limit
                else ctx.t("turn-open", n=v.turn)
            ),
            font("condensed-bold", 20),
            (46, 84, 73),
            TEXT,
            34,
            align="right",
        )
        right -= 14
    # the phase track
    if v.phase == "deploy":
        steps = [("deploy", ctx.t("deployment"))]
    elif v.phase == "over":
        steps = [("over", ctx.t("game_over"))]
    else:
        steps = [
            ("rally", ctx.t("ph_rally")),
            ("combat", ctx.t("ph_combat")),
            ("movement", ctx.t("ph_movement")),
            ("reinforce", ctx.t("ph_reinforce")),
        ]
    current = "combat" if v.phase == "allocate" else v.phase
    widths = [text_width(small, label) + 26 for _, label in steps]
    x = right - sum(widths) - 4 * (len(steps) - 1)
    for (key, label), w in zip(steps, widths, strict=True):
        on = key == current
        fill = GOLD if on else (38, 70, 61)
        ink = GOLD_DARK if on else MUTED
        _rrect(img, (x, 18, x + w, 50), 9, fill)
        draw_text(img, (x + w / 2, 35), label, small, ink, "mm")
        x += w + 4


def _banner_text(ctx: _Ctx) -> tuple[int, str, str]:
    """(seat or -1, headline, hint) for the public banner."""
    v = ctx.view
    if v.phase == "over":
        reason = ctx.t_or(f"reason-{v.end_reason}", v.end_reason)
        head = ctx.t("winner", who=ctx.who(v.winner)) if v.winner >= 0 else ctx.t("draw")
        return v.winner, head, reason
    if v.phase == "deploy":
        head = ctx.t("banner-deploy")
        parts = []
        for seat in range(2):
            ready = v.players[seat].ready
            state = ctx.t("ready-mark" if ready else "deploying-mark")
            parts.append(ctx.t("pair", label=ctx.name(seat), text=state))
        return -1, head, "  ·  ".join(parts)
    if not v.pending:
        return -1, ctx.t("waiting"), ""
    seat, kind = v.pending[0]
    who = ctx.who(seat)
    m = v.players[seat].letter  # the deciding player's own handles in examples
    e = v.players[1 - seat].letter
    failed = v.last_tests[-1].card if v.last_tests else f"{m}7"
    if kind == "rout":  # option ralliement_timing=failure
        what = ctx.t("banner-rout", failed=failed)
        hint = ctx.t("banner-rout-hint", failed=failed)
    elif kind == "rally":
        what = ctx.t("banner-rally")
        hint = ctx.t("banner-rally-hint", m=m)
    elif kind == "combat":
        what = ctx.t("banner-combat")
        hint = ctx.t("banner-combat-hint", m=m, e=e)
    elif kind == "allocate" and v.alloc is not None:
        what = ctx.t("banner-allocate", n=v.alloc.hits, where=ctx.at(v.alloc.position))
        hint = ctx.t("banner-allocate-hint", m=m)
    elif kind == "movement":
        what = ctx.t("banner-movement")
        hint = ctx.t("banner-movement-hint", m=m)
    else:
        what, hint = kind, ""
    return seat, ctx.t("pair", label=who, text=what), hint


def _banner(img: Image.Image, ctx: _Ctx, top: int, height: int) -> None:
    v = ctx.view
    box = (MARGIN, top, WIDTH - MARGIN, top + height)
    seat, headline, hint = _banner_text(ctx)
    drop_shadow(img, box, 18, offset=3, blur=5)
    _rrect(img, box, 18, GOLD)
    disc = 56
    dx, dy = box[0] + 16, top + (height - disc) // 2
    colour = ctx.colour(seat) if seat >= 0 else NEUTRAL
    ellipse(img, (dx, dy, dx + disc, dy + disc), colour, WHITE, 3)
    if v.phase == "over":
        crown = icon("crown", 32, WHITE)
        paste_rgba(img, crown, (dx + (disc - 32) // 2, dy + (disc - 32) // 2 - 1))
    elif seat >= 0:
        draw_text(
            img, (dx + disc / 2, dy + disc / 2 + 1), str(seat + 1), font("bold", 30), WHITE, "mm"
        )
    else:
        paste_rgba(img, glyph("swords", 30, 30, WHITE), (dx + 13, dy + 13))
    tx = dx + disc + 16
    avail = box[2] - tx - 18
    size = 27
    big = font("bold", size)
    while text_width(big, headline) > avail and size > 23:
        size -= 1
        big = font("bold", size)
    headline = _fit_with_names(ctx, headline, big, avail)
    if hint:
        draw_text(img, (tx, top + 30), headline, big, GOLD_DARK, "lm")
        hint_font = font("regular", 21)
        draw_text(img, (tx, top + 61), fit_text(hint, hint_font, avail), hint_font, GOLD_SUB, "lm")
    else:
        draw_text(img, (tx, top + height / 2), headline, big, GOLD_DARK, "lm")


def _fit_with_names(ctx: _Ctx, text: str, fnt: Font, max_width: int) -> str:
    return fit_with_names(ctx.names, text, fnt, max_width)


def _no_mans_land(img: Image.Image, ctx: _Ctx, a: int, b: int, y: int, h: int) -> None:
    """Between two facing positions: a dashed line, and the last fire's
    direction when it crossed here (long range, counter-battery)."""
    cx = MARGIN + BOX_W + GUTTER // 2
    colour = mix(BG_TOP, TEXT, 0.22)
    draw = ImageDraw.Draw(img)
    for yy in range(y + 8, y + h - 8, 14):
        draw.line((cx, yy, cx, min(yy + 7, y + h - 8)), fill=colour, width=2)
    combat = ctx.view.last_combat
    if combat is None or ctx.view.phase == "deploy":
        return
    if {combat.origin, combat.at} == {a, b} and combat.origin != combat.at:
        seat = combat.seat
        d = 30
        cy = y + h // 2
        ellipse(
            img, (cx - d // 2, cy - d // 2, cx + d // 2, cy + d // 2), ctx.colour(seat), GOLD, 2
        )
        arrow = glyph("arrow", 18, 14, WHITE)
        if combat.at == b:
            paste_rgba(img, arrow, (cx - 9, cy - 7))
        else:
            paste_rgba(img, arrow.transpose(Image.Transpose.FLIP_LEFT_RIGHT), (cx - 9, cy - 7))


# ---------------------------------------------------------------------------
# Dice: the last fire and the last cohesion tests
# ---------------------------------------------------------------------------

DIE = 50
TEST_DIE = 28
TEST_ROW = 36
MAX_TEST_ROWS = 6


def _dice_height(ctx: _Ctx) -> int:
    v = ctx.view
    if v.phase == "deploy":
        return 0
    fire = 228 if v.last_combat is not None else 96
    tests = len(v.last_tests)
    rows = min(tests, MAX_TEST_ROWS) + (1 if tests > MAX_TEST_ROWS else 0)
    test_h = 54 + max(1, rows) * TEST_ROW + 10
    return max(fire, test_h)


def _dice_section(img: Image.Image, ctx: _Ctx, top: int, height: int) -> None:
    if height <= 0:
        return
    left = (MARGIN, top, MARGIN + BOX_W, top + height)
    right = (MARGIN + BOX_W + GUTTER, top, WIDTH - MARGIN, top + height)
    _fire_panel(img, ctx, left)
    _tests_panel(img, ctx, right)


def _panel_frame(img: Image.Image, box: Box, title: str, seat: int, ctx: _Ctx) -> int:
    _rrect(img, box, 16, PANEL, PANEL_EDGE, 2)
    x0, y0, x1, _ = box
    title_font = font("bold", 17)
    draw_text(img, (x0 + 16, y0 + 20), title, title_font, GOLD, "lm")
    if seat >= 0:
        tx = x0 + 16 + text_width(title_font, title) + 12
        name_font = font("condensed-bold", 18)
        who = fit_text(ctx.who(seat), name_font, x1 - tx - 40)
        w = text_width(name_font, who) + 36
        _rrect(img, (tx, y0 + 7, tx + w, y0 + 33), 13, ctx.colour(seat))
        img.paste(ctx.accent(seat), (tx + 10, y0 + 13, tx + 18, y0 + 27))
        draw_text(img, (tx + 24, y0 + 21), who, name_font, WHITE, "lm")
    return y0 + 40


def _fire_panel(img: Image.Image, ctx: _Ctx, box: Box) -> None:
    combat = ctx.view.last_combat
    seat = combat.seat if combat is not None else -1
    title = ctx.t("last_fire")
    if combat is not None and combat.turn:
        title += f" · {ctx.t('fire_turn', n=combat.turn)}"
    y = _panel_frame(img, box, title, seat, ctx)
    x0, _, x1, y1 = box
    if combat is None:
        draw_text(img, (x0 + 16, y + 18), ctx.t("no_fire"), font("regular", 19), MUTED, "lm")
        return
    inner = x1 - x0 - 32
    # who fired, how, at what
    line_font = font("condensed-bold", 21)
    firer = f"{combat.card} {ctx.type_name(combat.type)}"
    if combat.mode != "melee":
        firer += f" ({ctx.code(combat.origin)})"
    mode = ctx.t_or(f"mode-{combat.mode}", combat.mode)
    status = f", {ctx.t(combat.status)}" if combat.status in ("attack", "defence") else ""
    text2 = f"{mode}{status} {ctx.at(combat.at)}"
    if combat.target:
        text2 = f"{mode} → {ctx.card_label(combat.target)} {ctx.at(combat.at)}"
        if text_width(font("regular", 19), text2) > inner:
            text2 = f"{mode} → {ctx.card_label(combat.target)} ({ctx.code(combat.at)})"
    draw_text(img, (x0 + 16, y + 12), fit_text(firer, line_font, inner), line_font, TEXT, "lm")
    sub = font("regular", 19)
    draw_text(img, (x0 + 16, y + 38), fit_text(text2, sub, inner), sub, MUTED, "lm")
    # the dice
    dy = y + 58
    dx = x0 + 16
    sixes_hit_general = bool(combat.general)
    for value in combat.dice:
        hit = value <= combat.threshold
        if hit:
            fill, pip, edge = RED, WHITE, darken(RED, 0.3)
        else:
            fill, pip, edge = CARD_FACE, INK, (150, 150, 140)
        _draw_die(img, dx, dy, DIE, value, fill, pip, edge)
        if value == 6 and sixes_hit_general:
            star = icon("star", 20, GOLD)
            ellipse(img, (dx + DIE - 16, dy - 8, dx + DIE + 8, dy + 16), GOLD_DARK, GOLD, 2)
            paste_rgba(img, star, (dx + DIE - 14, dy - 7))
        dx += DIE + 10
    if not combat.dice:
        draw_text(img, (dx, dy + DIE / 2), "—", font("bold", 30), MUTED, "lm")
        dx += 40
    # threshold and hits on the right
    rx = x1 - 16
    hits = combat.hits
    hits_text = (
        ctx.t("no_hit") if hits == 0 else (ctx.t("hit") if hits == 1 else ctx.t("hits", n=hits))
    )
    hf = font("bold", 24)
    hw = text_width(hf, hits_text) + 24
    _rrect(img, (rx - hw, dy + 6, rx, dy + DIE - 6), 12, RED if hits else (70, 84, 80))
    draw_text(img, (rx - hw / 2, dy + DIE / 2), hits_text, hf, WHITE, "mm")
    rx -= hw + 10
    thr_font = font("bold", 26)
    thr = f"≤ {combat.threshold}"
    lab_font = font("condensed-bold", 15)
    tw = max(text_width(thr_font, thr), text_width(lab_font, ctx.t("to_hit"))) + 16
    if rx - tw > dx:
        _rrect(img, (rx - tw, dy, rx, dy + DIE), 10, CARD_FACE, GOLD, 3)
        draw_text(img, (rx - tw / 2, dy + 14), ctx.t("to_hit"), lab_font, GOLD_SUB, "mm")
        draw_text(img, (rx - tw / 2, dy + 34), thr, thr_font, INK, "mm")
    # how many dice
    y2 = dy + DIE + 18
    n = combat.dice_count
    count = ctx.t("die") if n == 1 else ctx.t("dice", n=n)
    calc = f"VC {combat.vc}"
    if combat.modifiers:
        calc += ", " + _mods_text(ctx, combat.modifiers)
    calc = f"{calc} → {count}"
    small = font("regular", 18)
    draw_text(img, (x0 + 16, y2), fit_text(calc, small, inner), small, TEXT, "lm")
    # losses and eliminations
    y3 = y2 + 26
    parts: list[str] = []
    for uid in dict.fromkeys(combat.losses):
        k = combat.losses.count(uid)
        label = ctx.card_label(uid) + (f" ×{k}" if k > 1 else "")
        if uid in combat.eliminated:
            label += f" ({ctx.t('elim_short')})"
        parts.append(label)
    placing = ctx.view.phase == "allocate" and ctx.view.alloc is not None
    if parts:
        text3 = ctx.t("pair", label=ctx.t("losses_on"), text=", ".join(parts))
    elif hits and placing:
        text3 = ctx.t("pair", label=ctx.t("losses_on"), text=ctx.t("placing"))
    elif hits:
        text3 = ctx.t("pair", label=ctx.t("losses_on"), text=ctx.t("lost"))
    else:
        text3 = ""
    if placing and parts:
        text3 += f" · {ctx.t('placing')}"
    if text3:
        draw_text(
            img, (x0 + 16, y3), fit_text(text3, small, inner), small, lighten(RED, 0.45), "lm"
        )
        y3 += 24
    if combat.general:
        g = ctx.card_label(combat.general)
        six = combat.sixes
        text4 = ctx.t("general-sixes", six=six, general=g)
        draw_text(img, (x0 + 16, y3), fit_text(text4, small, inner), small, GOLD, "lm")
    del y1


def _tests_panel(img: Image.Image, ctx: _Ctx, box: Box) -> None:
    tests = ctx.view.last_tests
    seat = tests[0].seat if tests else -1
    y = _panel_frame(img, box, ctx.t("tests"), seat, ctx)
    x0, _, x1, _ = box
    if not tests:
        draw_text(img, (x0 + 16, y + 18), ctx.t("no_tests"), font("regular", 19), MUTED, "lm")
        return
    y += 6
    for test in tests[:MAX_TEST_ROWS]:
        _test_row(img, ctx, test, x0 + 12, y, x1 - 12)
        y += TEST_ROW
    if len(tests) > MAX_TEST_ROWS:
        more = ctx.t("more", n=len(tests) - MAX_TEST_ROWS)
        draw_text(img, (x0 + 16, y + TEST_ROW / 2), more, font("regular", 18), MUTED, "lm")


def _on_board(ctx: _Ctx, uid: str) -> bool:
    """Whether the card ``uid`` is on the board in the view."""
    return any(c.uid == uid for p in ctx.view.positions for side in p.sides for c in side.units)


def _test_row(img: Image.Image, ctx: _Ctx, test: Test, x0: int, y: int, x1: int) -> None:
    h = TEST_ROW - 4
    _rrect(img, (x0, y, x1, y + h), 8, mix(PANEL, (0, 0, 0), 0.18))
    # result on the right
    if test.kind == "general":
        result = ctx.t("survives") if test.passed else ctx.t("killed")
    elif test.kind == "disorganisation":
        result = ctx.t("stays") if test.passed else ctx.t("to_reserve")
    elif (
        not test.passed
        and ctx.view.rules.ralliement_timing == "failure"
        and _on_board(ctx, test.card)
    ):
        # option ralliement_timing=failure: still on the board after failing
        pending = ctx.view.phase == "rally" and ctx.view.last_tests[-1] == test
        result = ctx.t("fails_test" if pending else "rallied")
    else:
        result = ctx.t("holds_test") if test.passed else ctx.t("routs")
    rf = font("condensed-bold", 17)
    rw = text_width(rf, result) + 18
    fill = GREEN if test.passed or result == ctx.t("rallied") else RED
    _rrect(img, (x1 - rw - 4, y + 4, x1 - 4, y + h - 4), 8, fill)
    draw_text(img, (x1 - 4 - rw / 2, y + h / 2 + 1), result, rf, WHITE, "mm")
    # dice
    dx = x1 - rw - 12
    for value in reversed(test.dice):
        if test.kind == "general":
            ok = value != 6
        else:
            ok = value == 1 or (value != 6 and value <= test.target)
        fill_d, pip, edge = (
            (CARD_FACE, INK, (150, 150, 140)) if ok else (RED, WHITE, darken(RED, 0.3))
        )
        dx -= TEST_DIE
        _draw_die(img, dx, y + (h - TEST_DIE) // 2, TEST_DIE, value, fill_d, pip, edge)
        dx -= 4
    # the number to reach
    tf = font("bold", 18)
    if test.kind == "general":
        target = ctx.t("dies_on_6")
        tf = font("condensed-bold", 16)
    else:
        target = f"≤ {test.target}"
    tw = text_width(tf, target) + 12
    dx -= 6
    _rrect(img, (dx - tw, y + 5, dx, y + h - 5), 7, CARD_FACE)
    draw_text(img, (dx - tw / 2, y + h / 2 + 1), target, tf, INK, "mm")
    dx -= tw + 8
    # who
    nf = font("condensed-bold", 17)
    label = f"{test.card} {ctx.type_short(test.type)} · {ctx.code(test.position)}"
    if test.kind == "disorganisation":
        label = f"{ctx.t('disorg')} {label}"
    elif test.kind == "general":
        label = f"★ {test.card} {ctx.type_name(test.type)}"
    if test.modifiers and test.kind != "general":
        mods = _mods_text(ctx, test.modifiers)
        full = f"{label} ({mods})"
        if text_width(nf, full) <= dx - x0 - 10:
            label = full
    draw_text(img, (x0 + 8, y + h / 2 + 1), fit_text(label, nf, dx - x0 - 10), nf, TEXT, "lm")


# ---------------------------------------------------------------------------
# Armies: counters on top of each line, details under the dice
# ---------------------------------------------------------------------------

ARMY_H = 98
ARMY_BAND = 40
DETAIL_LINE = 22
DETAIL_LABEL = font("condensed-bold", 17)
DETAIL_TEXT = font("regular", 17)


def _army_panel(img: Image.Image, ctx: _Ctx, player: PlayerView, box: Box) -> None:
    """The head of a battle line: the player, the army, its counters, how
    many enemy positions it holds (two win), readiness while deploying."""
    v = ctx.view
    x0, y0, x1, y1 = box
    seat = player.seat
    colour = ctx.colour(seat)
    pending = any(s == seat for s, _ in v.pending)
    _rrect(img, box, 14, PANEL, GOLD if pending else mix(PANEL_EDGE, colour, 0.4), 3)
    band = (x0 + 3, y0 + 3, x1 - 3, y0 + ARMY_BAND)
    _rrect(img, band, 12, colour)
    img.paste(colour, (band[0], band[3] - 12, band[2], band[3]))
    img.paste(ctx.accent(seat), (x0 + 12, y0 + 11, x0 + 18, y0 + ARMY_BAND - 8))
    disc = 28
    dx, dy = x0 + 26, y0 + 3 + (ARMY_BAND - 3 - disc) // 2
    ellipse(img, (dx, dy, dx + disc, dy + disc), WHITE)
    draw_text(
        img, (dx + disc / 2, dy + disc / 2 + 1), str(seat + 1), font("bold", 18), colour, "mm"
    )
    right_text = f"{ctx.t('army-' + player.side)} · {ctx.t('points', n=player.points)}"
    rf = font("condensed-bold", 18)
    mid = y0 + 3 + (ARMY_BAND - 3) / 2
    draw_text(img, (x1 - 14, mid + 1), right_text, rf, lighten(colour, 0.7), "rm")
    nf = font("condensed-bold", 23)
    name = fit_text(ctx.name(seat), nf, x1 - dx - disc - 40 - text_width(rf, right_text))
    draw_text(img, (dx + disc + 10, mid + 1), name, nf, readable_on(colour), "lm")
    # counters
    y = y0 + ARMY_BAND + 6
    x = x0 + 14
    mini_w = 22
    back = _card_back(mini_w, _card_h(mini_w), colour, ctx.accent(seat), player.letter)
    big = font("bold", 24)
    label_font = font("regular", 15)
    if v.phase == "deploy":
        counters = [
            (ctx.t("dealt"), player.army_size - player.pile_count),
            (ctx.t("pile"), player.pile_count),
        ]
    else:
        counters = [
            (ctx.t("reserve"), player.reserve_count),
            (ctx.t("pile"), player.pile_count),
            (ctx.t("eliminated"), len(player.eliminated)),
        ]
    for label, value in counters:
        paste_rgba(img, back, (x, y + 8))
        paste_rgba(img, back, (x + 5, y + 5))
        tx = x + mini_w + 12
        draw_text(img, (tx, y + 15), str(value), big, TEXT, "lm")
        draw_text(img, (tx, y + 37), label, label_font, MUTED, "lm")
        x = tx + max(text_width(big, str(value)), text_width(label_font, label)) + 18
    # on the right: readiness, or the occupation count (two win)
    right = x1 - 12
    cy = y + 4
    if v.phase == "deploy":
        if player.ready:
            pill(
                img,
                right,
                cy + 4,
                ctx.t("ready") + " ✓",
                font("condensed-bold", 18),
                GREEN,
                WHITE,
                32,
                align="right",
            )
        else:
            pill(
                img,
                right,
                cy + 4,
                ctx.t("deploying"),
                font("condensed-bold", 18),
                (70, 84, 80),
                TEXT,
                32,
                align="right",
            )
        return
    # occupation: enemy positions held alone, two win
    holds = player.holds
    slot = 22
    ox = x + 4
    for k in range(2):
        bx = ox + k * (slot + 5)
        filled = k < holds
        _rrect(img, (bx, y + 4, bx + slot, y + 4 + slot), 6, GOLD if filled else PANEL, GOLD, 2)
        if filled:
            paste_rgba(img, icon("star", 14, GOLD_DARK), (bx + 4, y + 8))
    occ_font = font("regular", 15)
    draw_text(img, (ox, y + 37), ctx.t("occupation"), occ_font, GOLD if holds else MUTED, "lm")
    end = ox + max(2 * slot + 5, text_width(occ_font, ctx.t("occupation")))
    if v.first_player == seat:
        first = ctx.t("first")
        ff = font("condensed-bold", 15)
        if right - text_width(ff, first) - 20 > end + 8:
            pill(img, right, cy + 4, first, ff, (46, 84, 73), MUTED, 26, pad=10, align="right")
    del y1


def _generals_text(ctx: _Ctx, player: PlayerView) -> str:
    """The side's generals that everybody can place: where each is, or that
    he is dead; then how many the army has besides (the board shows public
    information only, the same for every observer)."""
    parts = []
    unseen = player.generals_unseen
    for gs in player.generals:
        if not gs.public:
            unseen += 1
        elif gs.where == "board":
            parts.append(f"{gs.name}\u00a0({gs.code})")
        elif gs.where == "reserve":
            parts.append(f"{gs.name}\u00a0({ctx.t('gen_reserve')})")
        else:
            parts.append(f"{gs.name}\u00a0†\u00a0({ctx.t('gen_dead')})")
    if unseen:
        parts.append(ctx.t("gen_unseen", n=unseen))
    # no-break spaces: a wrapped line never starts with "·" nor separates a
    # general from his position
    return "\u00a0· ".join(parts)


def _detail_lines(ctx: _Ctx, player: PlayerView) -> list[tuple[str, str, RGB]]:
    """(label, text, colour): the generals, eliminated cards, specials
    played, reserve cards known to all."""
    out: list[tuple[str, str, RGB]] = []
    if ctx.view.phase == "deploy":
        return out
    if player.generals or player.generals_unseen:
        out.append((ctx.t("label", label=ctx.t("generals")), _generals_text(ctx, player), GOLD))
    if player.eliminated:
        names: dict[str, int] = {}
        for card in player.eliminated:
            names[card.short] = names.get(card.short, 0) + 1
        text_ = ", ".join(f"{n} ×{k}" if k > 1 else n for n, k in names.items())
        out.append((ctx.t("label", label=ctx.t("eliminated")), text_, lighten(RED, 0.4)))
    if player.used:
        out.append(
            (ctx.t("label", label=ctx.t("played")), ", ".join(c.name for c in player.used), TEXT)
        )
    if player.reserve_known:
        shorts = ", ".join(ctx.type_short(t) for t in player.reserve_known)
        out.append((ctx.t("label", label=ctx.t("known")), shorts, TEXT))
    return out


def _wrapped_details(ctx: _Ctx, player: PlayerView) -> list[tuple[str, list[str], RGB]]:
    """Detail lines wrapped under their label (at most two rows each)."""
    inner = BOX_W - 36
    out = []
    for label, text_, ink in _detail_lines(ctx, player):
        first = inner - text_width(DETAIL_LABEL, label)
        rows: list[str] = []
        line = ""
        for word in text_.split(" "):
            limit = first if not rows else inner
            candidate = f"{line} {word}" if line else word
            if text_width(DETAIL_TEXT, candidate) <= limit or not line:
                line = candidate
            else:
                rows.append(line)
                line = word
        rows.append(line)
        if len(rows) > 2:
            rows = [rows[0], fit_text(" ".join(rows[1:]), DETAIL_TEXT, inner)]
        rows[0] = fit_text(rows[0], DETAIL_TEXT, first)
        out.append((label, rows, ink))
    return out


def _details_height(ctx: _Ctx) -> int:
    rows = max(sum(len(r) for _, r, _ in _wrapped_details(ctx, p)) for p in ctx.view.players)
    return DETAIL_LINE * rows + 20 if rows else 0


def _details(img: Image.Image, ctx: _Ctx, player: PlayerView, box: Box) -> None:
    x0, y0, x1, y1 = box
    lines = _wrapped_details(ctx, player)
    if not lines:
        return
    _rrect(img, box, 12, mix(BG_BOTTOM, PANEL, 0.6))
    img.paste(ctx.colour(player.seat), (x0 + 6, y0 + 10, x0 + 12, y1 - 10))
    y = y0 + 10
    for label, rows, ink in lines:
        draw_text(img, (x0 + 20, y + 11), label, DETAIL_LABEL, MUTED, "lm")
        lx = x0 + 20 + text_width(DETAIL_LABEL, label)
        for k, row in enumerate(rows):
            draw_text(img, (lx if k == 0 else x0 + 20, y + 11), row, DETAIL_TEXT, ink, "lm")
            y += DETAIL_LINE
    del x1
