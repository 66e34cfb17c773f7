"""Belle Position texts for hosts: actions, decisions, events, summaries, and why
an action is refused, as catalogue keys and parameters (:class:`~engine.text.Msg`,
keys ``bp-*`` of ``i18n/locales/<lang>/belle_position.po``); hosts translate them.

Card names are French in every language and are passed as plain strings, as
are handles (``F7``), position codes and seat names. Positions, sides, fire
modes, modifiers, causes and end reasons are keys derived from their ids
(``bp-at-FG``, ``bp-side-french``, ``bp-mode-melee``...)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ...core import Decision, Event, Seat
from ...text import Msg, MsgParam
from .actions import Action, Fire, Loss, Move, Play, Undo
from .board import (
    _index_of,
    _types,
)
from .data import army_entries, describe_army, type_name
from .model import CardView, State, View

_CODES = frozenset({"FG", "FC", "FD", "AG", "AC", "AD", "R"})


_RELATIVE = frozenset({"G", "C", "D", "EG", "EC", "ED", "R"})


_SIDES = frozenset({"french", "german"})


_MODES = frozenset({"melee", "long-range", "counter-battery", "flank-attack"})


_MODS = frozenset({"save", "bourg", "retranchements", "general", "bois", "hauteur"})


_PHASES = frozenset({"deploy", "movement", "combat", "rally", "over"})


_REASONS = frozenset({"occupation", "flank", "annihilation", "resign", "turn-limit"})


_CAUSES = frozenset({"losses", "rout", "general-test", "alone"})


def _raw(text: str) -> Msg:
    """A text that is no language's (an unknown id shown as it is)."""
    return Msg.of("bp-raw", text=text)


def _join(key: str, items: Sequence[MsgParam]) -> MsgParam:
    """``items`` joined by the separator of ``key`` (``bp-join-comma``:
    ``{a}, {b}``; ``bp-join-semicolon``: ``{a}; {b}`` / ``{a} ; {b}``;
    ``bp-join-lines``: one per line); ``""`` when there is none."""
    if not items:
        return ""
    joined = items[-1]
    for item in reversed(items[:-1]):
        joined = Msg.of(key, a=item, b=joined)
    return joined


def _at(code: str) -> Msg:
    """``"FG"`` -> "à l'aile gauche française" / "in the French left wing"."""
    return Msg.of(f"bp-at-{code}") if code in _CODES else Msg.of("bp-at-code", code=code)


def _the(code: str) -> Msg:
    """``"FC"`` -> "le centre français" / "the French centre"."""
    return Msg.of(f"bp-the-{code}") if code in _CODES else Msg.of("bp-the-code", code=code)


def _code_name(code: str) -> MsgParam:
    """``"FG"`` -> "aile gauche française" / "French left wing"."""
    return Msg.of(f"bp-pos-{code}") if code in _CODES else code


def _relative_name(code: str) -> MsgParam:
    """``"EG"`` -> "aile gauche ennemie" / "enemy left wing"; ``"G"`` -> "your left wing"."""
    return Msg.of(f"bp-rel-{code}") if code in _RELATIVE else code


def _side(side: object) -> MsgParam:
    return Msg.of(f"bp-side-{side}") if side in _SIDES else "?"


def _name_of(data: Mapping[str, Any], key: str = "type") -> str:
    value = data.get(key)
    return type_name(str(value)) if value else "?"


def _mods(mods: object) -> Msg | None:
    """The modifiers of a roll (``save +1, Bourg +1``), None when there is none."""
    if not isinstance(mods, list) or not mods:
        return None
    items: list[MsgParam] = []
    for m in mods:
        name, value = str(m[0]), f"{int(m[1]):+d}"
        if name in _MODS:
            items.append(Msg.of(f"bp-mod-{name}", value=value))
        else:
            items.append(Msg.of("bp-mod-other", name=name, value=value))
    joined = _join("bp-join-comma", items)
    assert isinstance(joined, Msg)
    return joined


class _Ev:
    """An event's data and the players' names, with the pieces every
    description uses."""

    __slots__ = ("d", "names")

    def __init__(self, event: Event, names: Sequence[str]) -> None:
        self.d = event.data
        self.names = names

    def who(self, key: str = "seat") -> str:
        seat = self.d.get(key)
        if not isinstance(seat, int) or not 0 <= seat < len(self.names):
            return "?"
        return self.names[seat]

    def where(self, key: str = "position") -> Msg:
        return _at(str(self.d.get(key, "")))

    def card(self, uid_key: str = "card", type_key: str = "type") -> str:
        return f"{_name_of(self.d, type_key)} ({self.d.get(uid_key)})"

    def dice(self) -> str:
        return " ".join(str(x) for x in self.d.get("dice", []))


def describe_event(event: Event, names: Sequence[str]) -> Msg | None:
    """One line of the match log for ``event`` (None: not worth a line)."""
    kind = event.kind
    describe = _DESCRIBE.get(kind)
    if describe is None and ":" in kind:
        describe = _DESCRIBE.get(kind.split(":", 1)[0] + ":")
    if describe is None:
        return None
    return describe(_Ev(event, names), kind)


def _army_text(e: _Ev, kind: str) -> Msg:
    d = e.d
    army = army_entries(str(d.get("list", "")), str(d.get("side", "french")))
    return Msg.of(
        "bp-ev-army",
        who=e.who(),
        side=_side(d.get("side")),
        points=str(d.get("points")),
        cards=str(d.get("cards")),
        army=describe_army(army),
    )


def _deal_text(e: _Ev, kind: str) -> Msg:
    d = e.d
    if "cards" in d:
        shown = ", ".join(f"{type_name(t)} ({u})" for u, t in d["cards"])
        return Msg.of("bp-ev-deal-own", cards=shown)
    return Msg.of("bp-ev-deal", who=e.who(), count=str(d.get("count")), pile=str(d.get("pile")))


def _hidden(count: object) -> Msg:
    return Msg.of("bp-hidden-count", count=str(count))


def _deployed_text(e: _Ev, kind: str) -> Msg:
    parts: list[MsgParam] = []
    for pos in e.d.get("positions", []):
        bits: list[MsgParam] = []
        if pos.get("general"):
            bits.append(type_name(pos["general"][1]))
        bits += [type_name(t) for _, t in pos.get("terrain", [])]
        hidden = pos.get("hidden", 0)
        if hidden:
            bits.append(_hidden(hidden))
        shown = _join("bp-join-comma", bits) if bits else "—"
        parts.append(
            Msg.of("bp-ev-deployed-position", position=str(pos.get("position")), bits=shown)
        )
    return Msg.of("bp-ev-deployed", who=e.who(), positions=_join("bp-join-semicolon", parts))


def _terrain_text(e: _Ev, kind: str) -> Msg:
    tid = kind.split(":", 1)[1]
    return Msg.of("bp-ev-placed", who=e.who(), card=type_name(tid), where=e.where())


def _first_player_text(e: _Ev, kind: str) -> Msg:
    d = e.d
    terrain = d.get("terrain", [0, 0])
    rolls = d.get("rolls") or []
    if rolls:
        dice = _join("bp-join-semicolon", [f"{a}–{b}" for a, b in rolls])
        return Msg.of("bp-ev-first-dice", who=e.who(), dice=dice)
    return Msg.of("bp-ev-first-terrain", who=e.who(), mine=str(terrain[0]), theirs=str(terrain[1]))


def _test_text(e: _Ev, kind: str) -> Msg:
    """Cohesion and Désorganisation tests."""
    d = e.d
    ok = d.get("passed")
    if kind == "cohesion":
        result = "holds" if ok else "routs"
        if not ok and d.get("may_rally"):  # option ralliement_timing=failure
            result = "fails"
        key = f"bp-ev-cohesion-{result}"
    else:
        key = "bp-ev-disorganisation-stays" if ok else "bp-ev-disorganisation-back"
    mods = _mods(d.get("modifiers"))
    return Msg.of(
        key,
        card=e.card(),
        where=e.where(),
        dice=e.dice(),
        target=str(d.get("target")),
        mods="" if mods is None else Msg.of("bp-mods-paren", mods=mods),
    )


def _general_test_text(e: _Ev, kind: str) -> Msg:
    key = "bp-ev-general-survives" if e.d.get("passed") else "bp-ev-general-killed"
    return Msg.of(key, card=e.card(), dice=e.dice())


def _fire_text(e: _Ev, kind: str) -> Msg:
    """Melee, long-range fire, counter-battery, flank attack."""
    d = e.d
    status = d.get("status")
    mode = f"bp-firing-{kind}"
    if status:
        mode += "-attack" if status == "attack" else "-defence"
    target = f" → {e.card('target', 'target_type')}" if d.get("target") else ""
    mods = _mods(d.get("modifiers"))
    sixes: MsgParam = ""
    if d.get("general"):
        sixes = Msg.of(
            "bp-ev-fire-sixes", sixes=str(d.get("sixes")), general=e.card("general", "general_type")
        )
    return Msg.of(
        "bp-ev-fire",
        who=e.who(),
        card=e.card(),
        mode=Msg.of(mode),
        the=_the(str(d.get("at"))),
        target=target,
        count=str(d.get("dice_count")),
        vc=str(d.get("vc")),
        mods="" if mods is None else Msg.of("bp-mods-more", mods=mods),
        dice=e.dice() or "—",
        threshold=str(d.get("threshold")),
        hits=str(d.get("hits")),
        sixes=sixes,
    )


def _eliminated_text(e: _Ev, kind: str) -> Msg:
    cause = str(e.d.get("cause"))
    why = Msg.of(f"bp-cause-{cause}") if cause in _CAUSES else _raw(cause)
    return Msg.of("bp-ev-eliminated", card=e.card(), why=why)


def _conquest_text(e: _Ev, kind: str) -> Msg:
    key = "bp-ev-conquered" if kind == "conquered" else "bp-ev-recovered"
    return Msg.of(key, who=e.who(), the=_the(str(e.d.get("position", ""))))


def _move_text(e: _Ev, kind: str) -> Msg:
    d = e.d
    key = "bp-ev-move-engaged" if d.get("engaged") else "bp-ev-move"
    card: MsgParam = e.card() if "card" in d else Msg.of("bp-hidden-card")
    return Msg.of(
        key,
        who=e.who(),
        card=card,
        src=_code_name(str(d.get("from"))),
        dst=_code_name(str(d.get("to"))),
    )


def _special_text(e: _Ev, kind: str) -> Msg:
    d = e.d
    special = type_name(kind.split(":", 1)[1])
    if "target" in d:
        return Msg.of(
            "bp-ev-special",
            who=e.who(),
            special=special,
            card=str(d.get("card")),
            target=e.card("target"),
        )
    return Msg.of(
        "bp-ev-special-hidden",
        who=e.who(),
        special=special,
        card=str(d.get("card")),
        where=e.where(),
    )


def _reinforcement_text(e: _Ev, kind: str) -> Msg:
    if "card" in e.d:
        return Msg.of("bp-ev-reinforcement", card=e.card())
    return Msg.of("bp-ev-reinforcement-drawn", who=e.who())


def _game_over_text(e: _Ev, kind: str) -> Msg:
    reason = str(e.d.get("reason"))
    text = Msg.of(f"bp-reason-{reason}") if reason in _REASONS else _raw(reason)
    if e.d.get("winner") is None:
        return Msg.of("bp-ev-draw", reason=text)
    return Msg.of("bp-ev-wins", who=e.who("winner"), reason=text)


_DESCRIBE: dict[str, Callable[[_Ev, str], Msg]] = {
    "army": _army_text,
    "deal": _deal_text,
    "deploy": lambda e, k: Msg.of("bp-ev-deploy", card=e.card(), where=e.where()),
    "undo": lambda e, k: Msg.of("bp-ev-undo", card=e.card()),
    "ready": lambda e, k: Msg.of("bp-ev-ready", who=e.who()),
    "deployed": _deployed_text,
    "terrain:": _terrain_text,
    "general": lambda e, k: Msg.of("bp-ev-placed", who=e.who(), card=e.card(), where=e.where()),
    "first-player": _first_player_text,
    "turn": lambda e, k: Msg.of("bp-ev-turn", turn=str(e.d.get("turn")), who=e.who()),
    "cohesion": _test_text,
    "disorganisation": _test_text,
    "general-test": _general_test_text,
    **dict.fromkeys(sorted(_MODES), _fire_text),
    "loss": lambda e, k: Msg.of("bp-ev-loss", card=e.card(), tokens=str(e.d.get("tokens"))),
    "eliminated": _eliminated_text,
    "reveal:": lambda e, k: Msg.of("bp-ev-reveal", who=e.who(), card=e.card(), where=e.where()),
    "to-reserve": lambda e, k: Msg.of("bp-ev-to-reserve", card=e.card()),
    "conquered": _conquest_text,
    "recovered": _conquest_text,
    "move": _move_text,
    "special:": _special_text,
    "reinforcement": _reinforcement_text,
    "no-reinforcement": lambda e, k: Msg.of("bp-ev-no-reinforcement", who=e.who()),
    "resign": lambda e, k: Msg.of("bp-ev-resign", who=e.who()),
    "game-over": _game_over_text,
}


def describe_action(state: State, seat: Seat, action: Action) -> Msg:
    army = state.armies[seat]

    def card_label(uid: str, side: int = seat) -> str:
        i = _index_of(state.armies[side], uid)
        if i < 0:
            return uid
        return f"{type_name(state.armies[side].cards[i].type)} ({uid})"

    if isinstance(action, Move):
        where = _relative_name(action.to)
        i = _index_of(army, action.card)
        kind = _types(state.rules)[army.cards[i].type].kind if i >= 0 else "unit"
        if state.phase == "deploy":
            key = "bp-act-deploy"
        elif kind == "terrain":
            key = "bp-act-place"
        else:
            key = "bp-act-move"
        return Msg.of(key, card=card_label(action.card), where=where)
    if isinstance(action, Fire):
        if action.at in ("G", "C", "D", "EG", "EC", "ED"):
            return Msg.of(
                "bp-act-fire", card=card_label(action.card), where=_relative_name(action.at)
            )
        return Msg.of(
            "bp-act-counter-battery",
            card=card_label(action.card),
            target=card_label(action.at, 1 - seat),
        )
    if isinstance(action, Loss):
        return Msg.of("bp-act-loss", card=card_label(action.card))
    if isinstance(action, Play):
        return Msg.of("bp-act-play", card=card_label(action.card), target=card_label(action.target))
    if isinstance(action, Undo):
        return Msg.of("bp-act-undo")
    if state.phase == "rally" and state.rules.ralliement_timing == "failure":
        return Msg.of("bp-act-let-rout")
    if state.phase in ("deploy", "rally", "combat", "movement"):
        return Msg.of(f"bp-act-done-{state.phase}")
    return Msg.of("bp-act-done")


def decision_text(decision: Decision, names: Sequence[str] = ()) -> Msg:
    kind = decision.kind
    m = str(decision.param("letter") or "F")  # the player's own handles in examples
    e = str(decision.param("enemy") or ("A" if m == "F" else "F"))
    if kind == "deploy":
        return Msg.of("bp-decision-deploy", m=m)
    if kind == "rout":
        failed = str(decision.param("card") or f"{m}7")
        special = str(decision.param("special") or f"{m}21")
        return Msg.of("bp-decision-rout", failed=failed, special=special)
    if kind == "rally":
        return Msg.of("bp-decision-rally", m=m)
    if kind == "combat":
        return Msg.of("bp-decision-combat", m=m, e=e)
    if kind == "allocate":
        hits = str(decision.param("hits"))
        where = _at(str(decision.param("position") or ""))
        return Msg.of("bp-decision-allocate", hits=hits, where=where, m=m)
    return Msg.of("bp-decision-movement", m=m)


def summary(view: View, names: Sequence[str]) -> Msg:
    """A few lines describing a view (console, accessibility)."""

    def who(seat: int) -> str:
        return names[seat] if 0 <= seat < len(names) else f"#{seat + 1}"

    def card(c: CardView) -> Msg:
        tokens = f" [{c.tokens}]" if c.tokens else ""
        key = "bp-summary-card" if c.face_up else "bp-summary-card-hidden"
        return Msg.of(key, uid=c.uid, short=c.short, vc=str(c.vc), tokens=tokens)

    lines: list[MsgParam] = []
    limit = f"/{2 * view.turn_limit}" if view.turn_limit else ""
    if view.phase in _PHASES:
        lines.append(
            Msg.of(
                "bp-summary-turn",
                turn=str(view.turn),
                limit=limit,
                phase=Msg.of(f"bp-phase-{view.phase}"),
            )
        )
    else:
        lines.append(Msg.of("bp-summary-turn-only", turn=str(view.turn), limit=limit))
    for pos in view.positions:
        terrain = ", ".join(t.name for t in pos.terrain)
        key = "bp-summary-position"
        if terrain:
            key += "-terrain"
        if pos.conquered:
            key += "-conquered"
        lines.append(Msg.of(key, code=pos.code, name=_code_name(pos.code), terrain=terrain))
        for side in pos.sides:
            bits: list[MsgParam] = []
            if side.general is not None:
                g = side.general
                bits.append(
                    f"{g.name} A{g.attack}/D{g.defence}" + (f" [{g.tokens}]" if g.tokens else "")
                )
            if side.units:
                bits.append(_join("bp-join-comma", [card(c) for c in side.units]))
            if side.hidden:
                bits.append(_hidden(side.hidden))
            if bits:
                lines.append(
                    Msg.of(
                        "bp-summary-side", who=who(side.seat), bits=_join("bp-join-semicolon", bits)
                    )
                )
    for p in view.players:
        lines.append(
            Msg.of(
                "bp-summary-player",
                who=who(p.seat),
                side=_side(p.side),
                reserve=str(p.reserve_count),
                pile=str(p.pile_count),
            )
        )
        if p.reserve is not None:
            lines.append("   " + ", ".join(f"{c.uid} {c.short}" for c in p.reserve))
    if view.last_combat is not None:
        c = view.last_combat
        lines.append(
            Msg.of(
                "bp-summary-combat",
                card=c.card,
                mode=Msg.of(f"bp-mode-{c.mode}") if c.mode in _MODES else "",
                dice=" ".join(str(d) for d in c.dice),
                threshold=str(c.threshold),
                hits=str(c.hits),
            )
        )
    text = _join("bp-join-lines", lines)
    assert isinstance(text, Msg)  # the first line is the turn's
    return text


# ---- why an action is refused (the keys legality.check returns) ----------------


def refusal_text(key: str, params: Mapping[str, Any]) -> Msg:
    """The sentence of a refusal of :func:`legality.check`: ``bp-refuse-<key>``
    (a few keys pick a variant from a flag)."""
    shape = _SHAPES.get(key)
    if shape is not None:
        return shape(params)
    return Msg.of(f"bp-refuse-{key}", **{k: _param(v) for k, v in params.items()})


def _param(value: Any) -> MsgParam:
    if isinstance(value, str | int | float | Msg):
        return value
    if isinstance(value, list | tuple):
        return ", ".join(str(v) for v in value)
    return str(value)


def _not_in_reserve(p: Mapping[str, Any]) -> Msg:
    key = "bp-refuse-not-in-reserve-deployed" if p["deployed"] else "bp-refuse-not-in-reserve-pile"
    return Msg.of(key, name=p["name"], card=p["card"])


def _cannot_fire(p: Mapping[str, Any]) -> Msg:
    key = "bp-refuse-cannot-fire-flank" if p["flank"] else "bp-refuse-cannot-fire"
    return Msg.of(key, name=p["name"], at=p["at"])


def _destination(p: Mapping[str, Any]) -> Msg:
    key = "bp-refuse-destination-engaged" if p["engaged"] else "bp-refuse-destination"
    allowed = ", ".join(p["allowed"]) or "—"
    return Msg.of(key, name=p["name"], to=p["to"], allowed=allowed)


def _special_played(p: Mapping[str, Any]) -> Msg:
    card = str(p["card"])
    return Msg.of("bp-refuse-special-played", name=p["name"], card=card, letter=card[0])


_SHAPES: dict[str, Callable[[Mapping[str, Any]], Msg]] = {
    "not-in-reserve": _not_in_reserve,
    "cannot-fire": _cannot_fire,
    "destination": _destination,
    "special-played": _special_played,
}
