"""Battalia images: one seat's private image (its hand grouped by kind, its
tent, its deck, and the cost of every action line with what the hand can pay
now); a spectator gets a short message image."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import lru_cache

from PIL import Image

from engine.games.battalia.data import data, great_by_code

from ..common import (
    fit_text,
    fit_with_names,
    font,
    message_image,
    to_png,
    wrap_text,
)
from ..liber.layers import gradient, on_flat, paste_rgb, rounded
from .cards import chip
from .context import Ctx, card_faction, card_group, card_rank, context
from .panels import type_name
from .style import (
    BG_BOTTOM,
    BG_TOP,
    GOLD,
    GOLD_DARK,
    GREEN,
    MARGIN,
    MUTED,
    PANEL,
    PANEL_DARK,
    PANEL_EDGE,
    TEXT,
    WIDTH,
    draw_text,
    text_width,
)

HEAD_H = 92
CARD_W, CARD_H = 96, 120
SMALL_W, SMALL_H = 36, 48
MINI_W, MINI_H = 26, 32
COST_ROW = 36
FACTION_ORDER = "uianm"

# The cost table's columns: (catalogue key of the column, rows); a row is
# (its label: a catalogue key or a card name, the data file's recipes).
COSTS: tuple[tuple[str, tuple[tuple[str, tuple[str, ...]], ...]], ...] = (
    (
        "costs-buy",
        (
            ("rank-1", ("unit-1",)),
            ("rank-2", ("unit-2",)),
            ("rank-3", ("unit-3",)),
            ("rank-4", ("unit-4",)),
            ("type-O", ("O",)),
            ("type-A", ("A",)),
            ("type-M", ("M",)),
            ("type-T", ("T",)),
            ("type-R", ("R",)),
            ("type-E", ("E",)),
            ("type-C", ("C",)),
        ),
    ),
    (
        "costs-build",
        (
            ("cost-road-il", ("road-I",)),
            ("cost-road-tx", ("road-T",)),
            ("cost-city-1", ("city-1",)),
            ("cost-city-2", ("city-2",)),
            ("cost-city-3", ("city-3",)),
            ("cost-city-4", ("city-4",)),
            ("cost-upgrade-2", ("upgrade-2",)),
            ("cost-upgrade-3", ("upgrade-3",)),
            ("cost-upgrade-4", ("upgrade-4",)),
        ),
    ),
    (
        "costs-heroes",
        (
            ("cost-summon", ("summon",)),
            ("cost-step", ("step",)),
            ("cost-horse-move", ("retreat-horse",)),
            ("cost-battle", ("battle",)),
            ("cost-retreat", ("retreat", "retreat-horse")),
            ("cost-tent", ("tent",)),
            ("cost-bribe", ("bribe",)),
            ("cost-recruit", ("recruit",)),
        ),
    ),
)
BUILDING = ("road-", "city-")


def render_private(view: object, names: Sequence[str], locale: str = "en") -> bytes:
    ctx = context(view, names, locale)
    v = ctx.view
    if v.observer is None:
        return message_image(ctx.t("spectator-title"), [ctx.t("spectator-text")])
    hand = list(v.hand)
    groups = _groups(hand)
    hand_h = _hand_height(ctx, groups)
    side_h = 34 + SMALL_H + 30
    cost_h = 64 + max(len(rows) for _, rows in COSTS) * COST_ROW + 34
    height = HEAD_H + hand_h + 12 + side_h + 12 + cost_h + MARGIN
    img = gradient(WIDTH, height, BG_TOP, BG_BOTTOM)
    _head(img, ctx)
    y = HEAD_H
    _hand(img, ctx, groups, y, hand_h)
    y += hand_h + 12
    half = (WIDTH - 2 * MARGIN - 12) // 2
    _pile(
        img, ctx, ctx.t("tent", n=len(v.tent)), list(v.tent), (MARGIN, y, MARGIN + half, y + side_h)
    )
    deck = list(v.deck_contents)
    _pile(
        img,
        ctx,
        ctx.t("deck", n=len(deck)),
        deck,
        (MARGIN + half + 12, y, WIDTH - MARGIN, y + side_h),
    )
    y += side_h + 12
    _costs(img, ctx, hand, (MARGIN, y, WIDTH - MARGIN, y + cost_h))
    return to_png(img)


def _head(img: Image.Image, ctx: Ctx) -> None:
    v = ctx.view
    seat = v.observer if v.observer is not None else 0
    title = ctx.t("hand-title", name=ctx.name(seat))
    big = font("bold", 28)
    draw_text(img, (MARGIN + 2, 28), fit_with_names(ctx.names, title, big, 700), big, GOLD, "lm")
    small = font("condensed-bold", 20)
    faction = ctx.faction(seat)
    text = ctx.faction_name(faction) + " · " + ctx.t("day", n=v.day)
    draw_text(img, (WIDTH - MARGIN, 28), text, small, MUTED, "rm")
    status, colour = decision_text(ctx, seat), GOLD
    if not status:
        status, colour = ctx.t("you-wait"), MUTED
    fnt = font("condensed-bold", 22)
    x = MARGIN + 2
    lines = wrap_text(status, fnt, WIDTH - 2 * MARGIN)
    if len(lines) > 1:  # a long decision: two smaller lines
        fnt = font("condensed-bold", 18)
        lines = wrap_text(status, fnt, WIDTH - 2 * MARGIN)[:2]
        for k, text in enumerate(lines):
            draw_text(
                img, (x, 58 + 22 * k), fit_text(text, fnt, WIDTH - 2 * MARGIN), fnt, colour, "lm"
            )
        return
    draw_text(img, (x, 68), fit_text(status, fnt, WIDTH - 2 * MARGIN), fnt, colour, "lm")
    auction = v.auction
    if (
        auction is not None and auction.own_bid is not None
    ):  # the observer's bid, hidden from the others
        x += text_width(fnt, status) + 24
        label = ctx.t("own-bid")
        draw_text(img, (x, 68), label, font("condensed-bold", 18), MUTED, "lm")
        x += text_width(font("condensed-bold", 18), label) + 8
        for code in auction.own_bid[:10]:
            tile = chip(code, 26, 34)
            img.paste(tile, (x, 51), tile)
            x += 30


def decision_text(ctx: Ctx, seat: int) -> str:
    """What the observer must decide now, with what the view tells of it
    (who attacks, with what strength, Buff's horde and square, the die...);
    ``""`` when nothing is pending for it. An unknown decision kind gets the
    generic sentence."""
    import i18n

    v = ctx.view
    kinds = [kind for s, kind in v.pending if s == seat]
    if not kinds:
        return ""
    kind = kinds[0]
    costs = data().costs
    buff = v.buff
    if kind in ("buff-answer", "buff-attack"):
        mine = [h.square for h in v.heroes if h.seat == seat and h.square == buff.square]
        return ctx.t(
            "you-buff-answer",
            horde=buff.horde,
            square=(mine[0] if mine else buff.square or "?"),
            bribe=costs.get("bribe", {}).get("P", 3),
            recruit=costs.get("recruit", {}).get("P", 4),
        )
    if kind == "defend" and v.battle is not None:
        b = v.battle
        return ctx.t(
            "you-defend-by", name=ctx.name(b.attacker), square=b.square, n=b.attacker_total
        )
    if kind == "buff-move" and v.roll:
        return ctx.t("you-buff-move-roll", n=v.roll, square=buff.square or "?")
    if kind in ("bid", "auction"):
        return ctx.t("you-bid-horde", horde=buff.horde)
    key = f"you-{kind}"
    return ctx.t(key if i18n.has(ctx.lang, "bt-render-" + key) else "you-other")


# ---------------------------------------------------------------------------
# The hand, grouped
# ---------------------------------------------------------------------------

Group = tuple[str, list[tuple[str, int]]]


def _groups(hand: Sequence[str]) -> list[Group]:
    """The hand as labelled groups of (code, copies): the units by faction
    (ranks ascending), the Provisions, the artefacts, the Great Artefacts."""
    counts = Counter(hand)
    out: list[Group] = []
    units = [c for c in counts if card_group(c) == "unit"]
    for faction in FACTION_ORDER:
        mine = sorted((c for c in units if card_faction(c) == faction), key=card_rank)
        if mine:
            out.append((f"units-{faction}", [(c, counts[c]) for c in mine]))
    if counts.get("P"):
        out.append(("provisions", [("P", counts["P"])]))
    order = {t: k for k, t in enumerate("OAMTREC")}
    arts = sorted(
        (c for c in counts if card_group(c) == "artefact"), key=lambda c: (order.get(c[0], 9), c)
    )
    if arts:
        out.append(("artefacts", [(c, counts[c]) for c in arts]))
    great = sorted(c for c in counts if card_group(c) == "great")
    if great:
        out.append(("great", [(c, counts[c]) for c in great]))
    return out


def _flow(groups: Sequence[Group], ctx: Ctx | None = None) -> list[tuple[int, int, Group]]:
    """Where each group goes: (x, row) in rows of cards that wrap the width
    (a group is as wide as its cards or its label)."""
    x, row = MARGIN + 14, 0
    right = WIDTH - MARGIN - 14
    out = []
    label = font("condensed-bold", 17)
    for group in groups:
        w = len(group[1]) * (CARD_W + 8) - 8
        if ctx is not None:
            w = max(w, text_width(label, ctx.t(f"group-{group[0]}")))
        if x > MARGIN + 14 and x + w > right:
            x, row = MARGIN + 14, row + 1
        out.append((x, row, group))
        x += w + 22
    return out


ROW = 30 + CARD_H + 12


def _hand_height(ctx: Ctx, groups: Sequence[Group]) -> int:
    if not groups:
        return 44 + 60
    rows = max(row for _, row, _ in _flow(groups, ctx)) + 1
    return 44 + rows * ROW


def _hand(img: Image.Image, ctx: Ctx, groups: Sequence[Group], y: int, h: int) -> None:
    rounded(img, (MARGIN, y, WIDTH - MARGIN, y + h), 14, PANEL, PANEL_EDGE, 2)
    total = sum(n for _, cards in groups for _, n in cards)
    draw_text(img, (MARGIN + 14, y + 20), ctx.t("hand", n=total), font("bold", 21), GOLD, "lm")
    if not groups:
        draw_text(img, (WIDTH / 2, y + 70), ctx.t("hand-empty"), font("bold", 22), MUTED, "mm")
        return
    label = font("condensed-bold", 17)
    for x, row, (key, cards) in _flow(groups, ctx):
        top = y + 40 + row * ROW
        draw_text(img, (x, top + 12), ctx.t(f"group-{key}"), label, MUTED, "lm")
        cx = x
        for code, copies in cards:
            tile = chip(code, CARD_W, CARD_H, named=True)
            img.paste(tile, (cx, top + 26), tile)
            if copies > 1:
                _badge(img, cx + CARD_W - 14, top + 24, f"×{copies}")
            cx += CARD_W + 8


def _badge(img: Image.Image, x: int, y: int, text: str) -> None:
    fnt = font("bold", 16)
    w = text_width(fnt, text) + 12
    rounded(img, (x - w // 2, y - 2, x + w // 2, y + 22), 11, GOLD_DARK, GOLD, 2)
    draw_text(img, (x, y + 10), text, fnt, GOLD, "mm")


def _pile(
    img: Image.Image, ctx: Ctx, title: str, cards: list[str], box: tuple[int, int, int, int]
) -> None:
    x0, y0, x1, _y1 = box
    rounded(img, box, 14, PANEL, PANEL_EDGE, 2)
    draw_text(
        img,
        (x0 + 14, y0 + 18),
        fit_text(title, font("bold", 19), x1 - x0 - 28),
        font("bold", 19),
        TEXT,
        "lm",
    )
    counts = Counter(cards)
    order = sorted(
        counts,
        key=lambda c: (
            ["unit", "provision", "artefact", "great"].index(card_group(c)),
            FACTION_ORDER.find(card_faction(c) or "m"),
            c,
        ),
    )
    x = x0 + 14
    if not order:
        draw_text(img, (x, y0 + 60), ctx.t("none"), font("condensed-bold", 18), MUTED, "lm")
    step = SMALL_W + 12
    room = (x1 - 14 - x) // step
    for k, code in enumerate(order[:room]):
        tile = chip(code, SMALL_W, SMALL_H)
        img.paste(tile, (x + k * step, y0 + 36), tile)
        if counts[code] > 1:
            fnt = font("bold", 13)
            draw_text(
                img,
                (x + k * step + SMALL_W / 2, y0 + 36 + SMALL_H + 10),
                f"×{counts[code]}",
                fnt,
                MUTED,
                "mm",
            )


# ---------------------------------------------------------------------------
# The cost table
# ---------------------------------------------------------------------------


def _slots(recipe: dict[str, int]) -> list[str]:
    """A recipe's cards as chip codes, in a fixed order (units by rank,
    artefacts, Provisions)."""
    out: list[str] = []
    for slot in sorted(recipe, key=lambda s: (s == "P", s)):
        code = "P" if slot == "P" else (f"{slot[1]}?" if slot.startswith("u") else f"{slot}?")
        out += [code] * recipe[slot]
    return out


def can_pay(recipe: dict[str, int], hand: Sequence[str], building: bool, tool_value: int) -> bool:
    """Whether ``hand`` holds cards filling ``recipe`` exactly (2.7): a slot
    ``uN`` takes any unit of rank N (mercenaries included), a type slot any
    artefact of that type (a Great Artefact acting as it included), ``P`` a
    Provision; when building, a Tool fills ``tool_value`` rank-1 slots."""
    units = Counter(card_rank(c) for c in hand if card_group(c) == "unit")
    arts = Counter(c[0] for c in hand if card_group(c) == "artefact")
    for code in hand:
        if card_group(code) == "great" and code in great_by_code():
            arts[great_by_code()[code].acts_as] += 1
    provisions = sum(1 for c in hand if c == "P")
    tools = arts.get("O", 0)
    for slot, need in recipe.items():
        if slot == "P":
            if provisions < need:
                return False
        elif slot.startswith("u"):
            rank = int(slot[1])
            if units.get(rank, 0) >= need:
                continue
            if not (building and rank == 1):
                return False
            have = units.get(rank, 0)
            if not any(
                t * tool_value <= need and need - t * tool_value <= have
                for t in range(1, tools + 1)
            ):
                return False
        elif arts.get(slot, 0) < need:
            return False
    return True


def _label(ctx: Ctx, key: str) -> str:
    if key.startswith("rank-"):
        return data().ranks[int(key[5:]) - 1].name
    if key.startswith("type-"):
        return type_name(key[5:])
    return ctx.t(key)


def _costs(img: Image.Image, ctx: Ctx, hand: Sequence[str], box: tuple[int, int, int, int]) -> None:
    x0, y0, x1, y1 = box
    rounded(img, box, 14, PANEL, PANEL_EDGE, 2)
    draw_text(img, (x0 + 14, y0 + 20), ctx.t("costs"), font("bold", 21), GOLD, "lm")
    lit = ctx.view.illuminated
    rules = ctx.view.rules
    doubled = rules is None or rules.illuminated
    tool_value = data().tool_frimen * (2 if doubled and lit == "O" else 1)
    note = ctx.t("tool-note", n=tool_value)
    nf = font("condensed-bold", 17)
    draw_text(img, (x0 + 14, y1 - 18), fit_text(note, nf, x1 - x0 - 28), nf, MUTED, "lm")
    gap = 10
    col_w = (x1 - x0 - 28 - 2 * gap) // 3
    costs = data().costs
    head = font("bold", 17)
    for k, (title, rows) in enumerate(COSTS):
        cx = x0 + 14 + k * (col_w + gap)
        draw_text(img, (cx + 4, y0 + 50), ctx.t(title), head, TEXT, "lm")
        y = y0 + 64
        for key, names in rows:
            recipes = [costs[n] for n in names if n in costs]
            payable = any(
                can_pay(r, hand, n.startswith(BUILDING), tool_value)
                for r, n in zip(recipes, names, strict=False)
            )
            label = _label(ctx, key)
            parts = tuple(tuple(_slots(r)) for r in recipes)
            row = (cx, y, cx + col_w, y + COST_ROW - 4)
            if on_flat(row, box, 14):  # on the panel's flat fill: a cached tile
                paste_rgb(img, _cost_row(label, parts, payable, col_w), (cx, y))
            else:
                _draw_cost_row(img, cx, y, col_w, label, parts, payable)
            y += COST_ROW


@lru_cache(maxsize=128)
def _cost_row(
    label: str, parts: tuple[tuple[str, ...], ...], payable: bool, col_w: int
) -> Image.Image:
    """A row of the cost table drawn on the panel's fill (an RGB tile)."""
    tile = Image.new("RGB", (col_w, COST_ROW - 4), PANEL)
    _draw_cost_row(tile, 0, 0, col_w, label, parts, payable)
    return tile


def _draw_cost_row(
    img: Image.Image,
    cx: int,
    y: int,
    col_w: int,
    label: str,
    parts: tuple[tuple[str, ...], ...],
    payable: bool,
) -> None:
    """One row of the cost table: what it buys, its recipes as card chips
    (alternatives split by "/"), ticked when the hand pays it."""
    lab = font("condensed-bold", 18)
    rounded(img, (cx, y, cx + col_w, y + COST_ROW - 4), 8, (86, 110, 60) if payable else PANEL_DARK)
    slots_w = 0
    for part in parts:
        slots_w += len(part) * (MINI_W + 2) + 14
    draw_text(
        img,
        (cx + 10, y + COST_ROW / 2 - 2),
        fit_text(label, lab, col_w - slots_w - 20),
        lab,
        TEXT if payable else MUTED,
        "lm",
    )
    sx = cx + col_w - slots_w
    for j, part in enumerate(parts):
        if j:
            draw_text(img, (sx - 6, y + COST_ROW / 2 - 2), "/", lab, MUTED, "mm")
        for code in part:
            tile = chip(code, MINI_W, MINI_H)
            img.paste(tile, (sx, y), tile)
            sx += MINI_W + 2
        sx += 14
    if payable:
        draw_text(
            img,
            (cx + col_w - slots_w - 10, y + COST_ROW / 2 - 2),
            "✓",
            font("bold", 18),
            GREEN,
            "mm",
        )
