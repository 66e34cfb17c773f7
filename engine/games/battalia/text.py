"""Battalia's texts for hosts: action labels, events, decisions, the
summary and the rules details, as catalogue keys (``bt-…`` in
``i18n/locales/<lang>/battalia.po``) and parameters.

Card, faction and terrain names are French in every language: card names
are plain string parameters (:func:`card_name`), faction and terrain names
catalogue keys whose English text is the French name. Everything here reads
actions through their notation (``buy 2 : P P P``), so the labels follow the
notation that players type."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import cache
from typing import Any

from ...core import Decision, Event, Seat
from ...text import Msg, MsgParam
from . import data
from .actions import Action, format_action

# ---------------------------------------------------------------------------
# Names (French in every language)
# ---------------------------------------------------------------------------

RANKS = {"1": "Citoyen", "2": "Chef", "3": "Prêtre", "4": "Seigneur"}
FACTIONS = ("u", "i", "a", "n", "m")
# faction adjectives (masculine, feminine) for the composed card names
_ADJ = {
    "u": ("ursidé", "ursidée"),
    "i": ("insulaire", "insulaire"),
    "a": ("ambrardent", "ambrardente"),
    "n": ("nébuleux", "nébuleuse"),
    "m": ("sans bannière", "sans bannière"),
}
# artefact types: (name, feminine)
ARTEFACTS = {
    "O": ("Outil", False),
    "A": ("Arme", True),
    "M": ("Amulette", True),
    "T": ("Titre", False),
    "R": ("Parchemin", False),
    "E": ("Tente", True),
    "C": ("Cheval", False),
}
ARTEFACT_ORDER = "OAMTREC"
LAYOUTS = "DILTX"
TERRAINS = ("foret", "lac", "desert", "montagne", "plaine")
# exits: N=1 E=2 S=4 W=8
_DIRS = ((1, "n"), (2, "e"), (4, "s"), (8, "w"))


@cache
def card_name(code: str) -> str:
    """A card's French name from its code (``2i`` → « Chef insulaire »,
    ``Au`` → « Arme ursidée », ``P`` → « Provisions »); a transformation
    ``Tu>2u`` reads « Titre ursidé → Chef ursidé », a scroll on two units
    ``Ra>1a+2i`` « Parchemin ambrardent → Citoyen ambrardent, Chef insulaire »."""
    if ">" in code:
        art, _, units = code.partition(">")
        return f"{card_name(art)} → " + ", ".join(card_name(u) for u in units.split("+"))
    if code in ARTEFACTS:
        return ARTEFACTS[code][0]
    if code in RANKS:
        return RANKS[code]
    try:
        return data.card_name(code)
    except (KeyError, IndexError, StopIteration, ValueError):
        return code


def cards_text(codes: Iterable[str]) -> str:
    """A payment or a line as players read it: « 3 × Provisions »,
    « Citoyen ursidé + Provisions » (names in the notation's order, equal
    cards counted)."""
    counts = Counter(codes)
    parts = []
    for code in dict.fromkeys(codes):
        n = counts[code]
        name = "Provision" if code == "P" and n == 1 else card_name(code)
        parts.append(f"{n} × {name}" if n > 1 else name)
    return " + ".join(parts) if parts else "—"


def faction(code: str) -> Msg:
    return Msg.of(f"bt-faction-{code}" if code in FACTIONS else "bt-faction-none")


def terrain(name: str) -> Msg:
    return Msg.of(f"bt-terrain-{name}" if name in TERRAINS else "bt-terrain-none")


def layout(code: str) -> Msg:
    return Msg.of(f"bt-layout-{code}" if code and code in LAYOUTS else "bt-layout-none")


def artefact(code: str) -> Msg:
    return Msg.of(f"bt-art-{code}" if code in ARTEFACTS else "bt-art-none")


def exits(mask: int) -> Msg:
    """« nord, est et sud » from an exit mask."""
    dirs = tuple(Msg.of(f"bt-dir-{d}") for bit, d in _DIRS if mask & bit)
    return Msg.of("bt-exits", dirs=dirs) if dirs else Msg.of("bt-exits-none")


def _base_exits(code: str) -> int:
    return {"D": 1, "I": 5, "L": 3, "T": 7, "X": 15}.get(code, 0)


def rotate(mask: int, r: int) -> int:
    """The exit mask turned ``r`` quarter turns clockwise (N→E→S→W)."""
    for _ in range(r % 4):
        mask = ((mask << 1) | (mask >> 3)) & 15
    return mask


def seat_name(names: Sequence[str], seat: object) -> str:
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    return f"#{seat + 1}" if isinstance(seat, int) else "?"


def lines(*items: Msg) -> Msg:
    out = items[-1]
    for item in reversed(items[:-1]):
        out = Msg.of("bt-lines", first=item, rest=out)
    return out


# ---------------------------------------------------------------------------
# Notation, read as text
# ---------------------------------------------------------------------------


def split(notation: str) -> tuple[list[str], list[str]]:
    """``"move h1 c3 d3 : P P"`` → (``[move, h1, c3, d3]``, ``[P, P]``)."""
    head, sep, tail = notation.partition(" : ")
    if not sep and head.endswith(" :"):
        head = head[:-2]
    return head.split(), tail.split()


def hero(token: str) -> Msg:
    """``h1`` → « votre héros 1 », ``2h1`` → « héros 1 du joueur 2 »,
    ``b`` → « Buff (votre héros) », ``buff`` → « Buff »."""
    if token == "buff":
        return Msg.of("bt-hero-buff")
    if token == "b":
        return Msg.of("bt-hero-own-buff")
    if token.startswith("h"):
        return Msg.of("bt-hero-own", n=token[1:])
    seat, _, n = token.partition("h")
    if n == "b":
        return Msg.of("bt-hero-other-buff", seat=seat)
    return Msg.of("bt-hero-other", seat=seat, n=n)


def _is_square(token: str) -> bool:
    return len(token) == 2 and token[0] in "abcdefg" and token[1] in "1234567"


def _tile_kind(state: Any, square: str) -> str | None:
    tiles = getattr(state, "tiles", None)
    tile = None
    if isinstance(tiles, Mapping):
        tile = tiles.get(square)
    elif isinstance(tiles, tuple | list):
        for item in tiles:
            if isinstance(item, tuple | list) and len(item) == 2 and item[0] == square:
                tile = item[1]
                break
            if getattr(item, "square", None) == square:
                tile = item
                break
    if tile is None:
        return None
    kind = getattr(tile, "kind", None)
    return str(kind) if kind is not None else None


def target(state: Any, token: str) -> Msg:
    """An attack's target: a square's city, the Ruins, a hero or Buff."""
    if not _is_square(token):
        return hero(token)
    kind = _tile_kind(state, token)
    if kind == "ruins":
        return Msg.of("bt-target-ruins", square=token)
    if kind == "neutral":
        return Msg.of("bt-target-neutral", square=token)
    return Msg.of("bt-target-city", square=token)


def _payment(cards: Sequence[str]) -> Msg | str:
    return cards_text(cards) if cards else Msg.of("bt-free")


def stack_card(stack: str) -> Msg | str:
    """What a market stack sells: « Chef », « Arme » (top card), « Arme
    ursidée » (the matching type with a faction), « Mercenaire »."""
    if stack in RANKS:
        return RANKS[stack]
    if stack == "m":
        return Msg.of("bt-stack-m")
    if stack in ARTEFACTS:  # a type: a game term, translated (card names stay French)
        return artefact(stack)
    return card_name(stack)


# ---------------------------------------------------------------------------
# Actions
# ---------------------------------------------------------------------------


def describe_action(state: Any, seat: Seat, action: Action) -> Msg:
    """The short label of an action (buttons, autocomplete)."""
    return describe_notation(state, seat, format_action(action))


def describe_notation(state: Any, seat: Seat, notation: str) -> Msg:
    """The short label of an action, from its notation."""
    head, cards = split(notation)
    verb = head[0] if head else ""
    args = head[1:]
    f = _ACTIONS.get(verb)
    if f is None:
        return Msg.of("action-notation", notation=notation)
    return f(state, args, cards)


def _a_faction(state: Any, args: list[str], cards: list[str]) -> Msg:
    return Msg.of("bt-act-faction", faction=faction(args[0] if args else ""))


def _a_start(state: Any, args: list[str], cards: list[str]) -> Msg:
    return Msg.of("bt-act-start", square=args[0] if args else "?")


def _a_cohort(state: Any, args: list[str], cards: list[str]) -> Msg:
    return Msg.of("bt-act-cohort", cards=cards_text(args + cards))


def _a_buy(state: Any, args: list[str], cards: list[str]) -> Msg:
    stack = args[0] if args else "?"
    if len(stack) == 2 and stack[0] in ARTEFACTS:
        return Msg.of("bt-act-buy-choice", card=card_name(stack), payment=_payment(cards))
    return Msg.of("bt-act-buy", card=stack_card(stack), payment=_payment(cards))


def _a_road(state: Any, args: list[str], cards: list[str]) -> Msg:
    return Msg.of("bt-act-road", layout=layout(args[0] if args else ""), payment=_payment(cards))


def _a_city(state: Any, args: list[str], cards: list[str]) -> Msg:
    spec = args[0] if args else "?"
    return Msg.of(
        "bt-act-city", level=int(spec[:-1] or 0), layout=layout(spec[-1:]), payment=_payment(cards)
    )


def _a_place(state: Any, args: list[str], cards: list[str]) -> Msg:
    square = args[0] if args else "?"
    r = int(args[1]) if len(args) > 1 and args[1].isdigit() else 0
    return Msg.of("bt-act-place", square=square, rotation=r, exits=exits(_placing_exits(state, r)))


def _placing_exits(state: Any, r: int) -> int:
    """The exits of the terrain card being placed, turned ``r`` times."""
    placing = getattr(state, "placing", None)
    code = getattr(placing, "layout", None)
    if code is None and isinstance(placing, tuple | list) and placing:
        code = next((p for p in placing if isinstance(p, str) and p in LAYOUTS), None)
    if code is None and isinstance(placing, str):
        code = placing[-1:]
    return rotate(_base_exits(str(code or "")), r)


def _a_upgrade(state: Any, args: list[str], cards: list[str]) -> Msg:
    return Msg.of("bt-act-upgrade", square=args[0] if args else "?", payment=_payment(cards))


def _a_summon(state: Any, args: list[str], cards: list[str]) -> Msg:
    return Msg.of("bt-act-summon", square=args[0] if args else "?", payment=_payment(cards))


def _hero_square(state: Any, token: str) -> str | None:
    """Where the active seat's hero ``h1`` / ``h2`` / ``b`` stands now."""
    if token == "b":
        return getattr(getattr(state, "buff", None), "square", None)
    seat = getattr(state, "active", None)
    for h in getattr(state, "heroes", ()) or ():
        if h.seat == seat and f"h{h.index}" == token:
            return str(h.square)
    return None


def _a_move(state: Any, args: list[str], cards: list[str]) -> Msg:
    who = hero(args[0]) if args else Msg.of("bt-hero-buff")
    start = _hero_square(state, args[0]) if args else None
    path = " → ".join(([start] if start else []) + args[1:]) or "?"
    return Msg.of("bt-act-move", hero=who, path=path, payment=_payment(cards))


def _a_attack(state: Any, args: list[str], cards: list[str]) -> Msg:
    who = hero(args[0]) if args else Msg.of("bt-hero-buff")
    aim = target(state, args[1]) if len(args) > 1 else Msg.of("bt-hero-buff")
    return Msg.of("bt-act-attack", hero=who, target=aim, line=cards_text(cards))


def _a_tent(state: Any, args: list[str], cards: list[str]) -> Msg:
    return Msg.of("bt-act-tent", kept=cards_text(args), payment=_payment(cards))


def _a_defend(state: Any, args: list[str], cards: list[str]) -> Msg:
    if not cards:
        return Msg.of("bt-act-defend-empty")
    return Msg.of("bt-act-defend", line=cards_text(cards))


def _a_retreat(state: Any, args: list[str], cards: list[str]) -> Msg:
    return Msg.of("bt-act-retreat", square=args[0] if args else "?", payment=_payment(cards))


def _a_take(state: Any, args: list[str], cards: list[str]) -> Msg:
    token = args[0] if args else "?"
    return Msg.of("bt-act-take", card=f"#{token}" if token.isdigit() else card_name(token))


def _a_bid(state: Any, args: list[str], cards: list[str]) -> Msg:
    bid = args + cards
    if not bid:
        return Msg.of("bt-act-bid-empty")
    return Msg.of("bt-act-bid", cards=cards_text(bid), total=bid_total(state, bid))


def bid_total(state: Any, codes: Sequence[str]) -> int:
    """A bid's strength: units their rank, weapons and horses 1 (2 when
    illuminated), Great Artefacts their value (data), the rest 0."""
    if state is not None and hasattr(state, "rules"):  # the engine's own count
        from .buff import bid_strength

        return sum(bid_strength(state, code) for code in codes)
    lit = _illuminated(state)
    total = 0
    for code in codes:
        if code[:1] in RANKS:
            total += int(code[0])
        elif code[:1] in ("A", "C"):
            total += 2 if lit == code[0] else 1
        elif code.startswith("G"):
            total += _great_strength(code)
    return total


def _illuminated(state: Any) -> str | None:
    day = getattr(state, "day", None)
    if not isinstance(day, int) or day < 1:
        return None
    return ARTEFACT_ORDER[(day - 1) % 7]


def _great_strength(code: str) -> int:
    spec = data.great_by_code().get(code)
    return spec.strength if spec is not None else 0


def _a_enter(state: Any, args: list[str], cards: list[str]) -> Msg:
    square = args[0] if args else "?"
    if len(args) > 1:
        return Msg.of("bt-act-enter-hero", square=square, hero=hero(args[1]))
    return Msg.of("bt-act-enter", square=square)


def _a_buff(state: Any, args: list[str], cards: list[str]) -> Msg:
    squares = [a for a in args if _is_square(a)]
    heroes = [a for a in args if not _is_square(a)]
    if not squares:
        base: Msg = Msg.of("bt-act-buff-stay")
    else:
        base = Msg.of("bt-act-buff-move", path=" → ".join(squares))
    if heroes:
        return Msg.of("bt-act-buff-hero", move=base, hero=hero(heroes[0]))
    return base


def _a_bribe(state: Any, args: list[str], cards: list[str]) -> Msg:
    return Msg.of("bt-act-bribe", payment=_payment(cards))


def _a_recruit(state: Any, args: list[str], cards: list[str]) -> Msg:
    return Msg.of("bt-act-recruit", payment=_payment(cards))


def _a_fight(state: Any, args: list[str], cards: list[str]) -> Msg:
    if not cards:
        return Msg.of("bt-act-fight-empty")
    return Msg.of("bt-act-fight", line=cards_text(cards))


_ACTIONS: dict[str, Callable[[Any, list[str], list[str]], Msg]] = {
    "faction": _a_faction,
    "start": _a_start,
    "mulligan": lambda state, args, cards: Msg.of("bt-act-mulligan"),
    "cohort": _a_cohort,
    "buy": _a_buy,
    "road": _a_road,
    "city": _a_city,
    "place": _a_place,
    "upgrade": _a_upgrade,
    "summon": _a_summon,
    "move": _a_move,
    "attack": _a_attack,
    "tent": _a_tent,
    "end": lambda state, args, cards: Msg.of("bt-act-end"),
    "defend": _a_defend,
    "retreat": _a_retreat,
    "take": _a_take,
    "bid": _a_bid,
    "enter": _a_enter,
    "buff": _a_buff,
    "bribe": _a_bribe,
    "recruit": _a_recruit,
    "fight": _a_fight,
}
VERBS = frozenset(_ACTIONS)


# ---------------------------------------------------------------------------
# Decisions
# ---------------------------------------------------------------------------


_DECISION_ALIASES = {"take": "ruins", "buff-attack": "buff-answer", "auction": "bid"}


def decision_text(decision: Decision, names: Sequence[str] = ()) -> Msg:
    kind = _DECISION_ALIASES.get(decision.kind, decision.kind)
    p = dict(decision.params)
    if kind == "buff-move":
        return Msg.of("bt-decision-buff-move", roll=int(p.get("roll") or 0))
    if kind == "buff-answer":
        return Msg.of(
            "bt-decision-buff-answer",
            horde=int(p.get("horde") or 0),
            square=str(p.get("square") or "?"),
        )
    if kind == "defend":
        return _decision_defend(p, names)
    if kind == "place":
        code = str(p.get("card") or "")
        if not code:
            level = int(p.get("level") or 0)
            code = f"{level}{p.get('layout') or ''}" if p.get("kind") == "city" or level else ""
            code = code or str(p.get("layout") or "")
        ter = str(p.get("terrain") or "")
        return Msg.of("bt-decision-place", card=_terrain_card(code), terrain=terrain(ter))
    if kind == "bid":
        return Msg.of("bt-decision-bid")
    if kind in ("faction", "start", "turn", "ruins", "enter", "wait"):
        return Msg.of(f"bt-decision-{kind}")
    return Msg.of("bt-decision-wait")


def _decision_defend(p: Mapping[str, str | int], names: Sequence[str]) -> Msg:
    """« Bob attaque votre héros 1 (force 7) : défendez… »."""
    attacker = p.get("attacker")
    who: MsgParam = Msg.of("bt-hero-buff")
    if isinstance(attacker, int) and attacker >= 0:  # no names (a refusal): « Le joueur 1 »
        who = seat_name(names, attacker) if names else Msg.of("bt-seat-n", n=attacker + 1)
    aim = str(p.get("target") or "")
    strength = int(p.get("strength") or 0)
    if _is_square(aim):
        return Msg.of("bt-decision-defend-city", attacker=who, square=aim, strength=strength)
    if aim in ("buff", "b") or aim.endswith("b"):
        return Msg.of("bt-decision-defend-buff", attacker=who, strength=strength)
    n = aim.partition("h")[2] or "?"
    return Msg.of("bt-decision-defend-hero", attacker=who, n=n, strength=strength)


def _terrain_card(code: str) -> Msg:
    """« une route en virage », « une ville de niveau 2 en T »."""
    if code[:-1].isdigit():
        return Msg.of("bt-card-city", level=int(code[:-1]), layout=layout(code[-1:]))
    return Msg.of("bt-card-road", layout=layout(code[-1:]))


# ---------------------------------------------------------------------------
# Events
# ---------------------------------------------------------------------------


class _E:
    def __init__(self, event: Event, names: Sequence[str]) -> None:
        self.d: dict[str, Any] = dict(event.data)
        self.names = names

    def who(self, key: str = "seat") -> str:
        return seat_name(self.names, self.d.get(key))

    def i(self, key: str) -> int:
        v = self.d.get(key)
        return int(v) if isinstance(v, int | float) else 0

    def s(self, key: str, default: str = "?") -> str:
        v = self.d.get(key)
        return str(v) if v not in (None, "") else default

    def cards(self, key: str = "cards") -> str:
        v = self.d.get(key) or ()
        if isinstance(v, str):
            v = v.split()
        return cards_text([str(c) for c in v])


def _ev(key: str, **fields: Callable[[_E], MsgParam]) -> Callable[[_E], Msg | None]:
    return lambda e: Msg.of(key, **{k: f(e) for k, f in fields.items()})


def _who(key: str = "seat") -> Callable[[_E], MsgParam]:
    return lambda e: e.who(key)


def _int(key: str) -> Callable[[_E], MsgParam]:
    return lambda e: e.i(key)


def _str(key: str) -> Callable[[_E], MsgParam]:
    return lambda e: e.s(key)


def _hero_of(e: _E, key: str = "hero") -> Msg:
    """A hero named by its owner: « le héros 1 d'Alice », « Buff »."""
    v = e.d.get(key)
    if v in ("buff", "b", 0) and e.d.get(key + "_seat") is None and v != 0:
        return Msg.of("bt-hero-buff")
    owner = e.d.get("owner", e.d.get("seat"))
    if isinstance(v, str) and "h" in v and v[0].isdigit():
        seat_text, _, n = v.partition("h")
        owner, v = int(seat_text) - 1, n
    elif isinstance(v, str) and v.startswith("h"):
        v = v[1:]
    if v in ("b", "0", 0):
        return Msg.of("bt-ev-hero-buff-of", owner=seat_name(e.names, owner))
    return Msg.of("bt-ev-hero-of", n=str(v), owner=seat_name(e.names, owner))


def _own_hero(e: _E, key: str = "hero") -> Msg:
    """The acting seat's own hero: « son héros 1 », « Buff »."""
    v = e.d.get(key)
    text = str(v) if v is not None else ""
    if text in ("b", "buff", "0", "h0"):
        return Msg.of("bt-hero-buff")
    return Msg.of("bt-ev-own-hero", n=text.lstrip("h") or "?")


def _event_card(e: _E) -> Msg:
    """The terrain card of a ``build`` / ``place`` event: « une route
    (virage) », « une ville de niveau 2 (en T) »."""
    layout_code = e.s("layout", "")
    if e.s("kind", "") == "city" or e.i("level"):
        return Msg.of("bt-card-city", level=e.i("level"), layout=layout(layout_code))
    return Msg.of("bt-card-road", layout=layout(layout_code))


def _e_build(e: _E) -> Msg:
    return Msg.of(
        "bt-ev-build",
        name=e.who(),
        card=_event_card(e),
        terrain=terrain(e.s("terrain", "")),
        payment=e.cards(),
    )


def _e_place(e: _E) -> Msg:
    mask = rotate(_base_exits(e.s("layout", "")), e.i("rotation"))
    return Msg.of(
        "bt-ev-place", name=e.who(), card=_event_card(e), square=e.s("square"), exits=exits(mask)
    )


def _e_buy(e: _E) -> Msg:
    got = e.d.get("card")
    card = card_name(str(got)) if got else stack_card(e.s("stack"))
    key = "bt-ev-buy-provision" if e.d.get("provision") else "bt-ev-buy"
    return Msg.of(key, name=e.who(), card=card, payment=e.cards())


def _e_move(e: _E) -> Msg:
    path = list(e.d.get("path") or ())
    if e.d.get("from"):
        path.insert(0, e.d["from"])
    text = " → ".join(str(s) for s in path) if isinstance(path, list | tuple) else str(path)
    return Msg.of("bt-ev-move", name=e.who(), hero=_own_hero(e), path=text or "?")


def _e_attack(e: _E) -> Msg:
    aim = e.d.get("target")
    if isinstance(aim, str) and _is_square(aim):
        kind = e.s("kind", e.s("target_kind", "city"))
        tgt: Msg = Msg.of(
            {
                "ruins": "bt-target-ruins",
                "neutral": "bt-target-neutral",
            }.get(kind, "bt-target-city"),
            square=aim,
        )
    elif aim == "buff":
        tgt = Msg.of("bt-hero-buff")
    else:
        tgt = _hero_of(e, "target")
    return Msg.of(
        "bt-ev-attack" if "strength" in e.d else "bt-ev-attack-plain",
        name=e.who(),
        hero=_own_hero(e),
        target=tgt,
        line=e.cards("line"),
        strength=e.i("strength"),
    )


def _e_battle(e: _E) -> Msg:
    attacker = e.d.get("attacker")
    att: MsgParam = Msg.of("bt-hero-buff") if attacker is None else e.who("attacker")
    aim = e.s("target")
    kind = e.s("kind", "")
    if aim == "buff" or kind == "buff":
        tgt: MsgParam = Msg.of("bt-hero-buff")
    elif _is_square(aim):
        tgt = Msg.of(
            {"ruins": "bt-target-ruins", "neutral": "bt-target-neutral"}.get(
                kind, "bt-target-city"
            ),
            square=aim,
        )
    else:
        tgt = _hero_of(e, "target")
    won = e.s("result", "") == "attacker" or bool(e.d.get("won"))
    return Msg.of(
        "bt-ev-battle-won" if won else "bt-ev-battle-held",
        attacker=att,
        target=tgt,
        a=e.i("attack"),
        d=e.i("defence"),
    )


def _e_draw(e: _E) -> Msg:
    return Msg.of("bt-ev-draw", name=e.who(), count=e.i("count"))


def _e_bid(e: _E) -> Msg:
    """Redacted for the others: only « Alice a enchéri »."""
    if e.d.get("cards"):
        return Msg.of("bt-ev-bid-own", name=e.who(), cards=e.cards(), total=e.i("total"))
    return Msg.of("bt-ev-bid", name=e.who())


def _e_auction(e: _E) -> Msg:
    bids = e.d.get("bids") or ()
    parts: list[Msg] = []
    for item in bids:
        if isinstance(item, Mapping):
            seat, cards, total = item.get("seat"), item.get("cards") or (), item.get("total")
        elif isinstance(item, list | tuple) and len(item) >= 3:
            seat, cards, total = item[0], item[1], item[2]
        else:
            continue
        parts.append(
            Msg.of(
                "bt-ev-auction-bid",
                name=seat_name(e.names, seat),
                cards=cards_text([str(c) for c in cards]),
                total=int(total or 0),
            )
        )
    listed: MsgParam = tuple(parts) if parts else Msg.of("bt-ev-auction-none")
    tie = e.s("tie", "")
    if tie in ("vp", "chance"):
        return Msg.of(f"bt-ev-auction-tie-{tie}", bids=listed, winner=e.who("winner"))
    return Msg.of("bt-ev-auction", bids=listed, winner=e.who("winner"))


def _e_game_over(e: _E) -> Msg:
    reason = e.s("reason", "")
    ranking = e.d.get("ranking") or []
    first = [int(s) for s in ranking[0]] if ranking else []
    if not first and isinstance(e.d.get("winner"), int):
        first = [int(e.d["winner"])]
    scores = e.d.get("scores") or []
    vp = int(scores[first[0]]) if first and first[0] < len(scores) else 0
    key = {
        "level4": "level4",
        "five-level4": "level4",
        "full": "full",
        "stuck": "stuck",
        "no-placement": "stuck",
        "week-limit": "week-limit",
        "weeks": "week-limit",
        "resign": "resign",
    }.get(reason, "")
    why: MsgParam = Msg.of(f"bt-end-{key}") if key else Msg.of("bt-end-other")
    if len(first) > 1:
        winners = tuple(Msg.of("bt-name", name=seat_name(e.names, s)) for s in first)
        return Msg.of("bt-ev-game-over-tie", why=why, names=winners, vp=vp)
    return Msg.of(
        "bt-ev-game-over", why=why, name=seat_name(e.names, first[0] if first else None), vp=vp
    )


def _e_cohort(e: _E) -> Msg:
    return Msg.of("bt-ev-cohort", name=e.who(), cards=e.cards())


def _e_tent(e: _E) -> Msg:
    if e.d.get("kept"):
        return Msg.of("bt-ev-tent-own", name=e.who(), cards=e.cards("kept"))
    return Msg.of("bt-ev-tent", name=e.who(), count=e.i("count") or 1)


def _e_defend(e: _E) -> Msg:
    line = e.d.get("line") or e.d.get("cards")
    if not line:
        return Msg.of("bt-ev-defend-empty", name=e.who())
    key = "bt-ev-defend" if "strength" in e.d else "bt-ev-defend-plain"
    return Msg.of(
        key,
        name=e.who(),
        line=e.cards("line" if "line" in e.d else "cards"),
        strength=e.i("strength"),
    )


def _e_buff_move(e: _E) -> Msg:
    path = [str(s) for s in e.d.get("path") or ()]
    start = e.s("from", e.s("square"))
    if not path:
        return Msg.of("bt-ev-buff-stay", name=e.who(), square=start)
    if e.d.get("from"):
        path.insert(0, start)
    return Msg.of("bt-ev-buff-move", name=e.who(), path=" → ".join(path))


def _e_hero_lost(e: _E) -> Msg:
    owner, n = _ref(e.d.get("hero"), e.d.get("owner", e.d.get("seat")))
    who = seat_name(e.names, owner)
    if n in ("b", "buff", "0"):
        return Msg.of("bt-ev-buff-lost", owner=who)
    return Msg.of("bt-ev-hero-lost", n=n, owner=who)


def _ref(value: object, seat: object) -> tuple[object, str]:
    """A hero in an event: ``2h1`` (seat 2's hero 1), ``h1`` / ``1`` (the
    seat's), ``b`` / ``buff`` → (0-based owner, index text)."""
    text = str(value) if value is not None else ""
    if text[:1].isdigit() and "h" in text:
        seat_text, _, n = text.partition("h")
        return int(seat_text) - 1, n
    if text[:1].isdigit() and text.endswith("b"):
        return int(text[:-1]) - 1, "b"
    return seat, text.removeprefix("h") or "?"


def _e_buff_fight(e: _E) -> Msg:
    owner, _n = _ref(e.d.get("hero"), e.d.get("seat"))
    who = seat_name(e.names, owner)
    if e.d.get("forced"):
        return Msg.of("bt-ev-buff-fight-forced", name=who, horde=e.i("horde"))
    return Msg.of(
        "bt-ev-buff-fight-won" if e.d.get("won") else "bt-ev-buff-fight-lost",
        name=who,
        line=e.cards("line"),
        strength=e.i("strength"),
        horde=e.i("horde"),
    )


_EVENTS: dict[str, Callable[[_E], Msg | None]] = {
    "faction": lambda e: Msg.of("bt-ev-faction", name=e.who(), faction=faction(e.s("faction"))),
    "start": _ev("bt-ev-start", name=_who(), square=_str("square")),
    "turn": _ev("bt-ev-turn", name=_who()),
    "day": lambda e: Msg.of(
        "bt-ev-day",
        day=e.i("day"),
        illuminated=artefact(e.s("illuminated", ARTEFACT_ORDER[(e.i("day") - 1) % 7])),
        matching=artefact(e.s("matching", "ORAEMCT"[(e.i("day") - 1) % 7])),
    ),
    "week": _ev("bt-ev-week", week=_int("week")),
    "mulligan": _ev("bt-ev-mulligan", name=_who()),
    "cohort": _e_cohort,
    "buy": _e_buy,
    "build": _e_build,
    "place": _e_place,
    "upgrade": _ev("bt-ev-upgrade", name=_who(), square=_str("square"), level=_int("level")),
    "summon": lambda e: Msg.of(
        "bt-ev-summon", name=e.who(), hero=_own_hero(e), square=e.s("square")
    ),
    "move": _e_move,
    "attack": _e_attack,
    "defend": _e_defend,
    "retreat": lambda e: Msg.of("bt-ev-retreat", name=e.who(), square=e.s("square")),
    "battle": _e_battle,
    "conquer": _ev("bt-ev-conquer", name=_who(), square=_str("square"), level=_int("level")),
    "hero-lost": _e_hero_lost,
    "great-artefact": lambda e: Msg.of(
        "bt-ev-great-artefact", name=e.who(), card=card_name(e.s("artefact", e.s("card")))
    ),
    "tent": _e_tent,
    "tent-back": _ev("bt-ev-tent-back", name=_who(), count=_int("count")),
    "end": _ev("bt-ev-end", name=_who()),
    "draw": _e_draw,
    "reshuffle": _ev("bt-ev-reshuffle", name=_who()),
    "buff-roll": _ev("bt-ev-buff-roll", name=_who(), roll=_int("roll")),
    "buff-move": _e_buff_move,
    "buff-attack": lambda e: Msg.of(
        "bt-ev-buff-attack", hero=_hero_of(e), square=e.s("square"), horde=e.i("horde")
    ),
    "buff-fight": _e_buff_fight,
    "auction-open": _ev("bt-ev-auction-open", week=_int("week")),
    "bribe": _ev("bt-ev-bribe", name=_who(), until=_int("until")),
    "recruit": _ev("bt-ev-recruit", name=_who(), until=_int("until")),
    "hire-ends": _ev("bt-ev-hire-ends", name=_who(), horde=_int("horde")),
    "bribe-ends": _ev("bt-ev-bribe-ends", name=_who()),
    "buff-removed": _ev("bt-ev-buff-removed", name=_who("by")),
    "horde": _ev("bt-ev-horde", horde=_int("horde")),
    "bid": _e_bid,
    "auction": _e_auction,
    "buff-enter": _ev("bt-ev-buff-enter", name=_who(), square=_str("square")),
    "game-over": _e_game_over,
    "resign": _ev("bt-ev-resign", name=_who()),
}
EVENT_KINDS = frozenset(_EVENTS)


def describe_event(event: Event, names: Sequence[str]) -> Msg | None:
    line = _EVENTS.get(event.kind)
    return line(_E(event, names)) if line is not None else None


# ---------------------------------------------------------------------------
# Summary and rules details
# ---------------------------------------------------------------------------


def summary(view: Any, names: Sequence[str]) -> Msg:
    day = int(getattr(view, "day", 0) or 0)
    out = [
        Msg.of(
            "bt-summary-day",
            day=day,
            week=int(getattr(view, "week", 0) or 0),
            dow=int(getattr(view, "day_of_week", 0) or 0) + 1,
            illuminated=artefact(str(getattr(view, "illuminated", "") or "")),
            matching=artefact(str(getattr(view, "matching", "") or "")),
            turn=_summary_turn(view, names),
        )
    ]
    for p in getattr(view, "players", ()) or ():
        out.append(
            Msg.of(
                "bt-summary-player",
                name=seat_name(names, p.seat),
                faction=faction(str(p.faction or "")),
                vp=int(p.vp),
                cities=int(p.cities),
                level4=int(p.level4),
                hand=int(p.hand_count),
                deck=int(p.deck_count),
                heroes=int(getattr(p, "heroes_in_supply", 0) or 0),
            )
        )
    heroes = tuple(
        Msg.of("bt-summary-hero", name=seat_name(names, h.seat), n=h.index, square=h.square)
        for h in getattr(view, "heroes", ()) or ()
        if h.index
    )
    if heroes:
        out.append(Msg.of("bt-summary-heroes", heroes=heroes))
    out.append(_summary_buff(view, names))
    for seat, until in getattr(getattr(view, "buff", None), "bribes", ()) or ():
        out.append(Msg.of("bt-summary-bribe", name=seat_name(names, seat), until=int(until)))
    out.extend(_summary_pending(view, names))
    if getattr(view, "observer", None) is not None:
        hand = getattr(view, "hand", ()) or ()
        out.append(Msg.of("bt-summary-hand", cards=cards_text(sorted(hand)) if hand else "—"))
        tent = getattr(view, "tent", ()) or ()
        if tent:
            out.append(Msg.of("bt-summary-tent", cards=cards_text(sorted(tent))))
    return lines(*out)


def _summary_turn(view: Any, names: Sequence[str]) -> Msg:
    """Whose turn it is; during the auction, that it is open (its line
    below names who still bids); once the match is over, that it is."""
    if getattr(view, "phase", "") == "over" or getattr(view, "winner", None) is not None:
        return Msg.of("bt-summary-turn-over")
    auction = getattr(view, "auction", None)
    if auction is not None and auction.bidders:
        return Msg.of("bt-summary-turn-auction")
    return Msg.of("bt-summary-turn", name=seat_name(names, getattr(view, "active", None)))


def _summary_pending(view: Any, names: Sequence[str]) -> list[Msg]:
    """The auction still open, the battle waiting for its defence."""
    out = []
    auction = getattr(view, "auction", None)
    if auction is not None and auction.bidders:
        who = tuple(Msg.of("bt-name", name=seat_name(names, s)) for s in auction.bidders)
        out.append(Msg.of("bt-summary-auction", names=who, count=len(who)))
    battle = getattr(view, "battle", None)
    if battle is not None and not battle.result:
        attacker: MsgParam = (
            Msg.of("bt-hero-buff") if battle.attacker is None else seat_name(names, battle.attacker)
        )
        out.append(
            Msg.of(
                "bt-summary-battle",
                attacker=attacker,
                square=battle.square,
                strength=int(battle.attacker_total),
            )
        )
    return out


def _summary_buff(view: Any, names: Sequence[str]) -> Msg:
    buff = getattr(view, "buff", None)
    if buff is None:
        return Msg.of("bt-summary-buff-off")
    if getattr(buff, "owner", None) is not None:
        return Msg.of(
            "bt-summary-buff-hired",
            name=seat_name(names, buff.owner),
            square=str(buff.square or "?"),
            until=int(buff.hire_until or 0),
        )
    if getattr(buff, "square", None):
        return Msg.of("bt-summary-buff", square=str(buff.square), horde=int(buff.horde or 0))
    if getattr(buff, "absent", False):
        return Msg.of("bt-summary-buff-away", horde=int(buff.horde or 0))
    return Msg.of("bt-summary-buff-off")


COST_ROWS = (
    "units",
    "tool",
    "weapon",
    "amulet",
    "title",
    "scroll",
    "tent",
    "horse",
    "road",
    "road-big",
    "city",
    "upgrade",
    "summon",
    "move",
    "battle",
    "retreat",
    "bribe",
    "recruit",
)


def rules_details() -> Msg:
    """The cost table, the Oracle's cycles and the Great Artefacts."""
    items = [Msg.of("bt-rules-costs-title")]
    items += [Msg.of(f"bt-rules-cost-{row}") for row in COST_ROWS]
    items.append(Msg.of("bt-rules-oracle-title"))
    items.append(
        Msg.of(
            "bt-rules-oracle",
            illuminated=tuple(artefact(c) for c in ARTEFACT_ORDER),
            matching=tuple(artefact(c) for c in "ORAEMCT"),
        )
    )
    items.append(Msg.of("bt-rules-illuminated"))
    items.append(Msg.of("bt-rules-great-title"))
    for spec in data.data().great_artefacts:
        items.append(Msg.of("bt-rules-great", name=spec.name, effect=great_effect(spec.code)))
    return lines(*items)


def great_effect(code: str) -> Msg:
    """What a Great Artefact does (data file: the artefact it acts as, with
    its fixed doubled effect [P])."""
    spec = data.great_by_code().get(code)
    if spec is None:
        return Msg.of("bt-great-none")
    if spec.acts_as == "C":
        return Msg.of("bt-great-C", strength=spec.strength, steps=spec.steps)
    if spec.acts_as == "T":
        return Msg.of("bt-great-T", ranks=spec.title)
    if spec.acts_as == "M":
        return Msg.of("bt-great-M", rolls=spec.amulet_rolls)
    return Msg.of("bt-great-A", strength=spec.strength)
