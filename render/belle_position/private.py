"""Belle Position images: one seat's cards and moves."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

import i18n
from engine.games.belle_position import (
    CardView,
    PlayerView,
    PositionView,
)

from ..common import (
    CARD_FACE,
    RGB,
    Box,
    darken,
    ellipse,
    fit_text,
    font,
    icon,
    lighten,
    message_image,
    mix,
    pill,
    to_png,
)
from ..liber.layers import gradient, on_flat, paste_rgb, paste_rgba
from ..liber.layers import rounded as _rrect
from .board import (
    _banner_text,
    _fit_with_names,
)
from .cards import (
    _card_h,
    glyph,
)
from .context import (
    _context,
    _Ctx,
    _signed,
    _tr,
)
from .style import (
    BG_BOTTOM,
    BG_TOP,
    GOLD,
    GOLD_DARK,
    GOLD_SUB,
    GREEN,
    MARGIN,
    MUTED,
    NEUTRAL,
    PANEL,
    PANEL_EDGE,
    SPECIAL_COLOUR,
    TERRAIN_COLOURS,
    TEXT,
    TOKEN,
    WHITE,
    WIDTH,
    draw_text,
    text_width,
    wrap_text,
)

# ---------------------------------------------------------------------------
# Private image: one seat's cards and moves
# ---------------------------------------------------------------------------

COL_GAP = 20
COL_W = (WIDTH - 2 * MARGIN - COL_GAP) // 2
TILE_W = 48
CHIP_H = 32


@dataclass(frozen=True)
class _Entry:
    card: CardView
    uids: tuple[str, ...]
    moves: tuple[str, ...]
    hidden: bool  # a face-down card on the battlefield (the enemy does not know it)


def _choice_card(choice: str) -> str:
    """The card a choice acts with (``""`` for ``ok`` and ``undo``)."""
    if choice.startswith("-"):
        return choice[1:]
    for sep in ("!", "@", ">"):
        head, found, _ = choice.partition(sep)
        if found:
            return head
    return ""


def _entries(
    cards: Sequence[CardView], by_card: dict[str, list[str]], on_board: bool
) -> list[_Entry]:
    """Cards grouped when interchangeable (same type and status), with their moves."""
    groups: dict[CardView, list[CardView]] = {}
    for card in cards:
        key = dataclasses.replace(card, uid="")
        groups.setdefault(key, []).append(card)
    out = []
    for members in groups.values():
        uids = tuple(c.uid for c in members)
        moves: list[str] = []
        for uid in uids:
            moves += by_card.get(uid, [])
        first = members[0]
        hidden = on_board and first.kind == "unit" and not first.face_up
        out.append(_Entry(first, uids, tuple(moves), hidden))
    return out


def _entry_lines(entry: _Entry, lang: str) -> tuple[str, str]:
    card = entry.card
    sep = " · "
    title = f"{entry.uids[0]}  {card.name}"
    if len(entry.uids) > 1:
        title = f"{', '.join(entry.uids)}  {card.name}"
    if card.kind == "unit":
        bits = [f"VC {card.vc}", f"A{card.fire_attack} / D{card.fire_defence}"]
        if card.long_range:
            bits.append(f"*{card.long_range}")
        if card.save:
            bits.append(f"{_tr('save', lang)} {_signed(card.save)}")
        bits.append(f"{_tr('move', lang)} {card.move}")
        if card.cohesion:
            bits.append(_tr("coh", lang, n=card.cohesion))
        if card.tokens:
            bits.append(_tr("tokens_n", lang, n=card.tokens))
        if card.fought:
            bits.append(_tr("fired", lang))
        if card.moves:
            bits.append(_tr("moved", lang))
        if card.entrenched:
            bits.append(_tr("entrenched", lang))
        if card.forced:
            bits.append(_tr("forced", lang))
        return title, sep.join(bits)
    if card.kind == "general":
        bits = [f"A{card.attack} / D{card.defence}"]
        if card.rally:
            bits.append(f"{_tr('rally', lang)} +{card.rally}")
        if card.tokens:
            bits.append(_tr("tokens_n", lang, n=card.tokens))
        return title, sep.join(bits)
    key = f"bp-render-text-{card.type}"
    return title, i18n.translate(lang, key) if i18n.has(lang, key) else ""


def _chip_rows(moves: Sequence[str], width: int) -> list[list[tuple[str, int]]]:
    fnt = font("bold", 18)
    rows: list[list[tuple[str, int]]] = []
    row: list[tuple[str, int]] = []
    used = 0
    for move in moves:
        w = text_width(fnt, move) + 18
        if row and used + w > width:
            rows.append(row)
            row, used = [], 0
        row.append((move, w))
        used += w + 6
    if row:
        rows.append(row)
    return rows


ENTRY_TEXT_W = COL_W - TILE_W - 30
ENTRY_TITLE = font("condensed-bold", 20)
ENTRY_SUB = font("regular", 17)
ENTRY_TAG = font("condensed-bold", 15)


@dataclass(frozen=True)
class _EntryLayout:
    title: str
    lines: tuple[str, ...]
    chips: tuple[tuple[tuple[str, int], ...], ...]
    height: int


@lru_cache(maxsize=2048)
def _entry_layout(entry: _Entry, lang: str) -> _EntryLayout:
    """What an entry shows and how tall it is (memoised: the same cards come
    back from one image to the next)."""
    title, sub = _entry_lines(entry, lang)
    title_w = ENTRY_TEXT_W
    if entry.hidden:
        title_w -= text_width(ENTRY_TAG, _tr("hidden_tag", lang)) + 24
    lines = wrap_text(sub, ENTRY_SUB, ENTRY_TEXT_W) if sub else []
    if len(lines) > 2:
        lines = [lines[0], fit_text(" ".join(lines[1:]), ENTRY_SUB, ENTRY_TEXT_W)]
    chips = tuple(tuple(row) for row in _chip_rows(entry.moves, ENTRY_TEXT_W))
    height = max(_card_h(TILE_W) + 16, 46 + 20 * len(lines) + len(chips) * (CHIP_H + 6))
    return _EntryLayout(fit_text(title, ENTRY_TITLE, title_w), tuple(lines), chips, height)


def _entry_height(ctx: _Ctx, entry: _Entry) -> int:
    return _entry_layout(entry, ctx.lang).height


def _mini_tile(
    img: Image.Image, ctx: _Ctx, card: CardView, seat: int, x: int, y: int, panel: Box
) -> None:
    if card.kind == "terrain":
        colour = TERRAIN_COLOURS.get(card.type, NEUTRAL)
    elif card.kind == "special":
        colour = SPECIAL_COLOUR
    else:
        colour = ctx.colour(seat)
    face = (card.kind, card.type, card.category, card.vc, bool(card.tokens))
    stats = (card.attack, card.defence, colour)
    if on_flat((x, y, x + TILE_W, y + _card_h(TILE_W)), panel, 12):  # a cached tile
        paste_rgb(img, _mini_face(face, stats), (x, y))
    else:
        _draw_mini(img, face, stats, x, y)


@lru_cache(maxsize=256)
def _mini_face(face: tuple[str, str, str, int, bool], stats: tuple[int, int, RGB]) -> Image.Image:
    """A hand entry's small card drawn on the panel's fill (an RGB tile)."""
    tile = Image.new("RGB", (TILE_W, _card_h(TILE_W)), PANEL)
    _draw_mini(tile, face, stats, 0, 0)
    return tile


def _draw_mini(
    img: Image.Image,
    face: tuple[str, str, str, int, bool],
    stats: tuple[int, int, RGB],
    x: int,
    y: int,
) -> None:
    kind, type_, category, vc, tokens = face
    attack, defence, colour = stats
    w, h = TILE_W, _card_h(TILE_W)
    _rrect(img, (x, y, x + w, y + h), 6, colour)
    _rrect(img, (x + 3, y + 24, x + w - 3, y + h - 3), 4, CARD_FACE)
    if kind == "unit":
        draw_text(img, (x + w / 2, y + 13), str(vc), font("bold", 19), WHITE, "mm")
        sym = glyph(category, 30, 20, colour)
        paste_rgba(img, sym, (x + (w - 30) // 2, y + 24 + (h - 27 - 20) // 2))
        if tokens:
            ellipse(img, (x + w - 18, y + h - 18, x + w - 2, y + h - 2), TOKEN, WHITE, 2)
    elif kind == "general":
        star = icon("star", 16, WHITE)
        paste_rgba(img, star, (x + (w - 16) // 2, y + 4))
        vf = font("bold", 13)
        draw_text(img, (x + w / 2, y + 24 + (h - 27) / 2 - 8), f"A{attack}", vf, colour, "mm")
        draw_text(img, (x + w / 2, y + 24 + (h - 27) / 2 + 8), f"D{defence}", vf, colour, "mm")
    else:
        g = glyph(type_, 30, 24, colour)
        paste_rgba(img, g, (x + (w - 30) // 2, y + 24 + (h - 27 - 24) // 2))
        draw_text(
            img,
            (x + w / 2, y + 13),
            "T" if kind == "terrain" else "S",
            font("bold", 15),
            WHITE,
            "mm",
        )


def _draw_entry(img: Image.Image, ctx: _Ctx, entry: _Entry, seat: int, x: int, y: int) -> None:
    layout = _entry_layout(entry, ctx.lang)
    h = layout.height
    has_moves = bool(entry.moves)
    edge = mix(PANEL_EDGE, GREEN, 0.5) if has_moves else PANEL_EDGE
    panel = (x, y, x + COL_W, y + h - 6)
    _rrect(img, panel, 12, PANEL, edge, 2)
    _mini_tile(img, ctx, entry.card, seat, x + 8, y + 8, panel)
    tx = x + 8 + TILE_W + 12
    if entry.hidden:
        tag = ctx.t("hidden_tag")
        tag_w = text_width(ENTRY_TAG, tag) + 16
        tag_x = x + COL_W - 10 - tag_w
        back_colour = darken(ctx.colour(seat), 0.25)
        _rrect(img, (tag_x, y + 9, tag_x + tag_w, y + 31), 11, back_colour, GOLD, 2)
        draw_text(img, (tag_x + tag_w / 2, y + 20), tag, ENTRY_TAG, GOLD, "mm")
    draw_text(img, (tx, y + 20), layout.title, ENTRY_TITLE, TEXT, "lm")
    ty = y + 34
    for line in layout.lines:
        draw_text(img, (tx, ty + 10), line, ENTRY_SUB, MUTED, "lm")
        ty += 20
    ty += 6
    for row in layout.chips:
        cx = tx
        for move, w in row:
            if on_flat((cx, ty, cx + w, ty + CHIP_H), panel, 12):  # a cached tile
                paste_rgb(img, _move_chip(move, w), (cx, ty))
            else:
                _draw_move_chip(img, move, cx, ty, w)
            cx += w + 6
        ty += CHIP_H + 6


@lru_cache(maxsize=256)
def _move_chip(move: str, width: int) -> Image.Image:
    """A move's chip drawn on an entry's fill (an RGB tile)."""
    tile = Image.new("RGB", (width, CHIP_H), PANEL)
    _draw_move_chip(tile, move, 0, 0, width)
    return tile


def _draw_move_chip(img: Image.Image, move: str, x: int, y: int, w: int) -> None:
    _rrect(img, (x, y, x + w, y + CHIP_H), 9, GREEN, lighten(GREEN, 0.35), 2)
    draw_text(img, (x + w / 2, y + CHIP_H / 2 + 1), move, font("bold", 18), WHITE, "mm")


def _pack(ctx: _Ctx, entries: Sequence[_Entry]) -> list[tuple[_Entry, int, int]]:
    """Two columns, row by row: (entry, column, y offset); the total height
    is the last offset plus its row height."""
    out: list[tuple[_Entry, int, int]] = []
    y = 0
    for i in range(0, len(entries), 2):
        pair = entries[i : i + 2]
        h = max(_entry_height(ctx, e) for e in pair)
        for col, entry in enumerate(pair):
            out.append((entry, col, y))
        y += h
    return out


def _packed_height(ctx: _Ctx, entries: Sequence[_Entry]) -> int:
    total = 0
    for i in range(0, len(entries), 2):
        total += max(_entry_height(ctx, e) for e in entries[i : i + 2])
    return total


def _private_groups(
    ctx: _Ctx, seat: int, by_card: dict[str, list[str]]
) -> list[tuple[PositionView, list[_Entry]]]:
    """The seat's cards on the battlefield, position by position (its own
    line first), with their moves."""
    v = ctx.view
    letter = v.players[seat].letter
    out: list[tuple[PositionView, list[_Entry]]] = []
    order = [seat * 3 + w for w in range(3)] + [(1 - seat) * 3 + w for w in range(3)]
    for p in order:
        if p >= len(v.positions):
            continue
        pos = v.positions[p]
        side = pos.sides[seat]
        cards: list[CardView] = []
        if side.general is not None:
            cards.append(side.general)
        cards += list(side.units)
        cards += [c for c in pos.terrain if c.uid.startswith(letter) and v.phase == "deploy"]
        if not cards:
            continue
        out.append((pos, _entries(cards, by_card, on_board=True)))
    return out


def render_private(view: object, names: Sequence[str], locale: str = "en") -> bytes:
    ctx = _context(view, names, locale, private=True)
    v = ctx.view
    seat = v.observer
    player = v.players[seat] if seat is not None and 0 <= seat < len(v.players) else None
    if seat is None or player is None or player.reserve is None:
        return message_image(ctx.t("spectator_title"), [ctx.t("spectator")])
    by_card: dict[str, list[str]] = {}
    general_moves: list[str] = []
    for choice in v.choices:
        card = _choice_card(choice)
        if card:
            by_card.setdefault(card, []).append(choice)
        else:
            general_moves.append(choice)
    groups = _private_groups(ctx, seat, by_card)
    reserve = _entries(player.reserve, by_card, on_board=False)

    header_h = 96
    status_top = header_h + 12
    status_h = 76
    y = status_top + status_h + 12
    order_line = bool(player.staged) and v.phase == "deploy" and not player.ready
    order_top = y
    if order_line:
        y += 40
    others_top = y
    others_h = 56 if general_moves else 0
    y += others_h
    field_top = y
    field_h = 44
    if groups:
        for _, entries in groups:
            field_h += 38 + _packed_height(ctx, entries)
    else:
        field_h += 36
    reserve_top = field_top + field_h + 8
    reserve_h = 44 + (_packed_height(ctx, reserve) if reserve else 36)
    notation_top = reserve_top + reserve_h + 6
    height = notation_top + 36

    img = gradient(WIDTH, height, BG_TOP, BG_BOTTOM)
    _private_header(img, ctx, player, header_h)
    _private_status(img, ctx, seat, status_top, status_h)
    if order_line:
        _order_line(img, ctx, player, order_top)
    if general_moves:
        _general_moves(img, ctx, general_moves, others_top)
    # the battlefield
    y = field_top
    _section_title(img, ctx.t("on_field"), y)
    y += 44
    if not groups:
        draw_text(
            img, (MARGIN + 4, y + 12), ctx.t("nothing_field"), font("regular", 19), MUTED, "lm"
        )
    for pos, entries in groups:
        _group_head(img, ctx, pos, seat, y)
        y += 38
        for entry, col, off in _pack(ctx, entries):
            _draw_entry(img, ctx, entry, seat, MARGIN + col * (COL_W + COL_GAP), y + off)
        y += _packed_height(ctx, entries)
    # the reserve
    y = reserve_top
    n = len(player.reserve)
    title = (
        ctx.t("reserve_0") if n == 0 else ctx.t("reserve_1") if n == 1 else ctx.t("reserve_n", n=n)
    )
    _section_title(img, title, y, f"{ctx.t('pile')} {player.pile_count}")
    y += 44
    if not reserve:
        draw_text(img, (MARGIN + 4, y + 12), "—", font("regular", 19), MUTED, "lm")
    for entry, col, off in _pack(ctx, reserve):
        _draw_entry(img, ctx, entry, seat, MARGIN + col * (COL_W + COL_GAP), y + off)
    nf = font("regular", 17)
    draw_text(img, (WIDTH / 2, notation_top + 14), ctx.t("notation"), nf, MUTED, "mm")
    return to_png(img)


def _section_title(img: Image.Image, title: str, y: int, right: str = "") -> None:
    fnt = font("bold", 22)
    draw_text(img, (MARGIN + 4, y + 20), title, fnt, TEXT, "lm")
    x = MARGIN + 4 + text_width(fnt, title) + 14
    draw = ImageDraw.Draw(img)
    end = WIDTH - MARGIN
    if right:
        rf = font("condensed-bold", 19)
        draw_text(img, (end, y + 20), right, rf, MUTED, "rm")
        end -= text_width(rf, right) + 14
    draw.line((x, y + 21, end, y + 21), fill=PANEL_EDGE, width=2)


def _group_head(img: Image.Image, ctx: _Ctx, pos: PositionView, seat: int, y: int) -> None:
    rel = pos.relative
    colour = ctx.colour(pos.line)
    x = MARGIN
    x += pill(img, x, y + 2, rel or pos.code, font("bold", 19), GOLD, GOLD_DARK, 30, pad=12) + 8
    x += pill(img, x, y + 2, pos.code, font("bold", 17), colour, WHITE, 30, pad=10) + 10
    name = ctx.t_or(f"wing-{rel}", ctx.pos_name(pos.index))
    side = pos.sides[seat]
    status = ctx.t(side.status) if side.status in ("attack", "defence") else ""
    bits = [name, status, f"{side.count}/{side.capacity}"]
    if pos.terrain and ctx.view.phase != "deploy":
        bits.append(", ".join(t.name for t in pos.terrain))
    if pos.conquered:
        bits.append(ctx.t("conquered").lower())
    if pos.engaged:
        bits.append(ctx.t("engaged").lower())
    fnt = font("condensed-bold", 19)
    draw_text(
        img,
        (x, y + 17),
        fit_text("  ·  ".join(b for b in bits if b), fnt, WIDTH - MARGIN - x),
        fnt,
        TEXT,
        "lm",
    )


def _order_line(img: Image.Image, ctx: _Ctx, player: PlayerView, y: int) -> None:
    where: dict[str, str] = {}
    for pos in ctx.view.positions:
        for side in pos.sides:
            if side.general is not None:
                where[side.general.uid] = pos.relative
            for card in side.units:
                where[card.uid] = pos.relative
        for card in pos.terrain:
            where[card.uid] = pos.relative
    steps = [f"{uid}>{where.get(uid, '?')}" for uid in player.staged]
    label = ctx.t("label", label=ctx.t("order"))
    lf = font("condensed-bold", 18)
    draw_text(img, (MARGIN + 4, y + 16), label, lf, MUTED, "lm")
    x = MARGIN + 4 + text_width(lf, label)
    draw_text(
        img,
        (x, y + 16),
        fit_text("  ".join(steps), font("bold", 18), WIDTH - MARGIN - x),
        font("bold", 18),
        TEXT,
        "lm",
    )


def _ok_label(ctx: _Ctx, choice: str) -> str:
    v = ctx.view
    if choice == "undo":
        return ctx.t("ok-undo")
    if v.phase == "rally" and v.rules.ralliement_timing == "failure":
        return ctx.t("ok-let-rout")
    return ctx.t_or(f"ok-{v.phase}", ctx.t("ok-done"))


def _general_moves(img: Image.Image, ctx: _Ctx, moves: Sequence[str], y: int) -> None:
    x = MARGIN
    code_font = font("bold", 21)
    label_font = font("regular", 19)
    for move in moves:
        label = _ok_label(ctx, move)
        code_w = text_width(code_font, move) + 28
        w = code_w + text_width(label_font, label) + 22
        fill = GREEN if move == "ok" else (120, 96, 40)
        _rrect(img, (x, y, x + w, y + 42), 12, (44, 80, 70), (74, 116, 104), 2)
        _rrect(img, (x, y, x + code_w, y + 42), 12, fill)
        draw_text(img, (x + code_w / 2, y + 21), move, code_font, WHITE, "mm")
        draw_text(img, (x + code_w + 10, y + 21), label, label_font, TEXT, "lm")
        x += w + 12


def _private_header(img: Image.Image, ctx: _Ctx, player: PlayerView, height: int) -> None:
    seat = player.seat
    colour = ctx.colour(seat)
    box = (MARGIN, 14, WIDTH - MARGIN, height)
    _rrect(img, box, 20, colour)
    img.paste(ctx.accent(seat), (MARGIN + 16, 30, MARGIN + 24, height - 16))
    disc = 52
    dx, dy = MARGIN + 36, 14 + (height - 14 - disc) // 2
    ellipse(img, (dx, dy, dx + disc, dy + disc), WHITE)
    draw_text(
        img, (dx + disc / 2, dy + disc / 2 + 1), str(seat + 1), font("bold", 30), colour, "mm"
    )
    right = WIDTH - MARGIN - 18
    mid = 14 + (height - 14) / 2
    small = font("condensed-bold", 21)
    stat_fill = darken(colour, 0.3)
    top = round(mid - 18)
    for text_ in (
        f"{ctx.t('pile')} {player.pile_count}",
        f"{ctx.t('reserve')} {len(player.reserve or ())}",
    ):
        right -= pill(img, right, top, text_, small, stat_fill, WHITE, 36, align="right") + 10
    tx = dx + disc + 16
    avail = right - tx - 10
    title = font("bold", 30)
    draw_text(img, (tx, mid - 14), fit_text(ctx.name(seat), title, avail), title, WHITE, "lm")
    army = ctx.t("army-" + player.side)
    sub = f"{ctx.t('your_cards')}  ·  {army}  ·  {ctx.t('points', n=player.points)}"
    sf = font("regular", 21)
    draw_text(img, (tx, mid + 20), fit_text(sub, sf, avail), sf, lighten(colour, 0.75), "lm")


def _private_status(img: Image.Image, ctx: _Ctx, seat: int, top: int, height: int) -> None:
    v = ctx.view
    box = (MARGIN, top, WIDTH - MARGIN, top + height)
    mine = [k for s, k in v.pending if s == seat]
    hint = ""
    if v.phase == "over":
        if v.winner < 0:
            headline = ctx.t("you_draw")
        else:
            headline = ctx.t("you_win") if v.winner == seat else ctx.t("you_lose")
        hint = ctx.t_or(f"reason-{v.end_reason}", v.end_reason)
        fill, ink, sub_ink = GOLD, GOLD_DARK, GOLD_SUB
    elif mine:
        headline, hint = _your_decision(ctx, mine[0], seat)
        fill, ink, sub_ink = GOLD, GOLD_DARK, GOLD_SUB
    else:
        _, other, _ = _banner_text(ctx)
        headline = f"{ctx.t('waiting')}  ·  {other}"
        if v.phase == "deploy":
            headline = ctx.t("deploy-done")
        fill, ink, sub_ink = (44, 80, 70), TEXT, MUTED
    _rrect(img, box, 16, fill)
    big = font("bold", 26)
    avail = box[2] - box[0] - 44
    headline = _fit_with_names(ctx, headline, big, avail)
    if hint:
        draw_text(img, (box[0] + 22, top + 26), headline, big, ink, "lm")
        small = font("regular", 20)
        hint = _fit_with_names(ctx, hint, small, avail)
        draw_text(img, (box[0] + 22, top + 56), hint, small, sub_ink, "lm")
    else:
        draw_text(img, (box[0] + 22, top + height / 2), headline, big, ink, "lm")


def _example(choices: Sequence[str], sep: str) -> str:
    for choice in choices:
        if sep in choice and not choice.startswith("-"):
            return choice
    return ""


def _your_decision(ctx: _Ctx, kind: str, seat: int) -> tuple[str, str]:
    v = ctx.view
    choices = v.choices
    other = 1 - seat
    m = v.players[seat].letter  # the player's own handles in the examples
    if kind == "deploy":
        ex = _example(choices, ">") or f"{m}7>C"
        ready = v.players[other].ready
        opp = ctx.t("opp_ready" if ready else "opp_deploying", name=ctx.name(other))
        return ctx.t("you-deploy"), ctx.t("you-deploy-hint", ex=ex, opp=opp)
    if kind == "rout":  # option ralliement_timing=failure
        failed = v.last_tests[-1].card if v.last_tests else f"{m}7"
        ex = _example(choices, "!") or f"{m}21!{failed}"
        return ctx.t("you-rout", failed=failed), ctx.t("you-rout-hint", ex=ex)
    if kind == "rally":
        ex = _example(choices, "!") or f"{m}21!{m}7"
        return ctx.t("you-rally"), ctx.t("you-rally-hint", ex=ex)
    if kind == "combat":
        ex = _example(choices, "@") or f"{m}7@EC"
        return ctx.t("you-combat"), ctx.t("you-combat-hint", ex=ex)
    if kind == "allocate" and v.alloc is not None:
        n = v.alloc.hits
        where = ctx.at(v.alloc.position)
        ex = next((c for c in choices if c.startswith("-")), f"-{m}3")
        return ctx.t("you-allocate", n=n, where=where), ctx.t("you-allocate-hint", ex=ex)
    if kind == "movement":
        ex = _example(choices, ">") or f"{m}7>EC"
        return ctx.t("you-movement"), ctx.t("you-movement-hint", ex=ex, m=m)
    return kind, ""
