"""Chroniques de Liber's texts for hosts: actions, menus, events, decisions,
summaries and the keyword glossary, as catalogue keys (``lb-…`` in
``i18n/locales/<lang>/liber.po``) and parameters. Card names are French in
every language: they are plain string parameters, read from the card pool."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ...core import Decision, Event, MenuStep, Seat
from ...text import Msg, MsgParam
from .actions import (
    Action,
    Attack,
    Block,
    Discard,
    Equip,
    General,
    Guard,
    Move,
    Next,
    Pass,
    Play,
    Reclaim,
    Ref,
    Use,
    format_action,
    loc_text,
    ref_text,
)
from .board import card_of, piece_at
from .costs import cost, play_cost
from .data import KEYWORDS, cards_by_id
from .model import LINES, State, View


def lines(*items: Msg) -> Msg:
    out = items[-1]
    for item in reversed(items[:-1]):
        out = Msg.of("lb-lines", first=item, rest=out)
    return out


def name(card_id: str) -> str:
    """A card's French name (its id when the pool has no such card)."""
    spec = cards_by_id().get(card_id)
    return spec.name if spec is not None else card_id


def _at(state: State, ref: Ref) -> str:
    piece = piece_at(state, ref)
    return name(piece.card) if piece is not None else "?"


def _seat_name(names: Sequence[str], seat: object) -> str:
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    return f"#{seat + 1}" if isinstance(seat, int) else "?"


# ---------------------------------------------------------------------------
# Actions
# ---------------------------------------------------------------------------


def describe_action(state: State, seat: Seat, action: Action) -> Msg:
    if isinstance(action, Play):
        return _describe_play(state, seat, action)
    if isinstance(action, Attack):
        unit = _at(state, (seat, *action.src))
        if len(action.targets) == 1 and action.targets[0][1] == 0:
            ref = action.targets[0][0]
            return Msg.of("lb-act-attack", unit=unit, target=_at(state, ref), place=ref_text(ref))
        (r1, n1), (r2, n2) = action.targets
        return Msg.of(
            "lb-act-attack-honneur",
            unit=unit,
            first=_at(state, r1),
            first_damage=n1,
            second=_at(state, r2),
            second_damage=n2,
        )
    if isinstance(action, Move):
        unit = _at(state, (seat, *action.src))
        return Msg.of("lb-act-move", unit=unit, src=loc_text(action.src), dst=loc_text(action.dst))
    if isinstance(action, Use):
        return _describe_use(state, seat, action)
    if isinstance(action, General):
        general = card_of(state, state.players[seat].general)
        effect = _effect(general.effects[action.index])
        if action.target is None:
            return Msg.of("lb-act-general", effect=effect, vp=general.vp)
        return Msg.of(
            "lb-act-general-target",
            effect=effect,
            vp=general.vp,
            target=_at(state, action.target),
            place=ref_text(action.target),
        )
    if isinstance(action, Equip):
        return Msg.of(
            "lb-act-equip",
            card=name(action.card),
            unit=_at(state, (seat, *action.dst)),
            cost=cost(card_of(state, action.card).gold),
        )
    if isinstance(action, Block):
        unit = _at(state, (seat, *action.place))
        return Msg.of("lb-act-block", unit=unit, place=loc_text(action.place))
    if isinstance(action, Guard):
        unit = _at(state, (seat, *action.place))
        return Msg.of("lb-act-guard", unit=unit, place=loc_text(action.place))
    if isinstance(action, Pass):
        return Msg.of("lb-act-pass")
    if isinstance(action, Next):
        return Msg.of(f"lb-act-next-{state.phase}")
    if isinstance(action, Reclaim):
        obj = state.window.card if state.window is not None else ""
        return Msg.of(
            "lb-act-reclaim", card=name(obj), cost=cost(card_of(state, obj).gold if obj else 0)
        )
    assert isinstance(action, Discard)
    return Msg.of("lb-act-discard", card=name(action.card))


def _describe_play(state: State, seat: Seat, action: Play) -> Msg:
    card = card_of(state, action.card)
    nm = name(action.card)
    price = cost(play_cost(state, seat, action), card.faith)
    if card.type == "unite":
        assert action.place is not None
        if action.shares:
            return Msg.of(
                "lb-act-play-ravage",
                card=nm,
                place=loc_text(action.place),
                cost=price,
                shares=_shares(state, action.shares),
            )
        return Msg.of("lb-act-play-unit", card=nm, place=loc_text(action.place), cost=price)
    if card.type == "objet":
        assert action.place is not None
        unit = _at(state, (seat, *action.place))
        return Msg.of("lb-act-play-object", card=nm, unit=unit, cost=price)
    if action.place is not None:
        return Msg.of("lb-act-play-fixture", card=nm, place=loc_text(action.place), cost=price)
    if card.type == "dieu":
        return Msg.of("lb-act-play-god", card=nm, cost=price)
    if action.target is not None:
        return Msg.of(
            "lb-act-play-spell-target",
            card=nm,
            target=_at(state, action.target),
            place=ref_text(action.target),
            cost=price,
        )
    return Msg.of("lb-act-play-spell", card=nm, cost=price)


def _shares(state: State, shares: tuple[tuple[Ref, int], ...]) -> Msg:
    """Ravage's shares as players read them: « 2 dégâts à Archer (2a1), … »."""
    parts = [
        Msg.of("lb-share", damage=n, target=_at(state, ref), place=ref_text(ref))
        for ref, n in shares
    ]
    out = parts[-1]
    for part in reversed(parts[:-1]):
        out = Msg.of("lb-join-comma", first=part, rest=out)
    return out


def _describe_use(state: State, seat: Seat, action: Use) -> Msg:
    unit = _at(state, (seat, *action.src))
    if action.ability == "defausse":
        return Msg.of("lb-act-defausse", unit=unit, card=name(action.card))
    if action.ability == "invocateur":
        card = card_of(state, piece_at(state, (seat, *action.src)).card)  # type: ignore[union-attr]
        assert action.place is not None
        return Msg.of(
            "lb-act-invocateur",
            unit=unit,
            token=name(card.invoke_token),
            place=loc_text(action.place),
            cost=cost(card.invoke_cost),
        )
    assert action.target is not None
    if action.ability == "telekinesie":
        assert action.dest is not None
        return Msg.of(
            "lb-act-telekinesie",
            unit=unit,
            target=_at(state, action.target),
            src=ref_text(action.target),
            dst=ref_text(action.dest),
        )
    return Msg.of("lb-act-soin", unit=unit, target=_at(state, action.target))


def _effect(effect: tuple[str, int, str, str, str]) -> Msg:
    kind, amount, _target, scope, token = effect
    return Msg.of(
        f"lb-effect-{kind}",
        amount=amount,
        scope=Msg.of(f"lb-scope-{scope}"),
        token=name(token) if token else "",
    )


# ---------------------------------------------------------------------------
# The staged menu: card → line → place; attacker → target; ...
# ---------------------------------------------------------------------------


def _step(key: str, label: Msg | str, detail: Msg | str = "") -> MenuStep:
    return MenuStep(key, label, detail)


def action_menu(
    state: State, seat: Seat, actions: Sequence[Action]
) -> list[tuple[Action, tuple[MenuStep, ...]]]:
    return [(a, _path(state, seat, a)) for a in actions]


def _path(state: State, seat: Seat, a: Action) -> tuple[MenuStep, ...]:
    notation = format_action(a)
    last = _step(notation, describe_action(state, seat, a), notation)
    if isinstance(a, Play):
        card = card_of(state, a.card)
        head = _step(f"play:{a.card}", Msg.of("lb-menu-play", card=name(a.card)))
        if card.type == "unite":
            assert a.place is not None
            line = _step(f"line:{a.place[0]}", Msg.of(f"lb-line-{LINES[a.place[0]]}"))
            place = _step(
                f"place:{loc_text(a.place)}",
                Msg.of(
                    "lb-menu-place", place=loc_text(a.place), cost=cost(play_cost(state, seat, a))
                ),
                loc_text(a.place),
            )
            if card.ravage:
                return (head, line, place, last)
            return (head, line, place)
        if a.place is None and a.target is None:
            return (last,)
        return (head, last)
    if isinstance(a, Attack):
        unit = _at(state, (seat, *a.src))
        head = _step(
            f"attack:{loc_text(a.src)}", Msg.of("lb-menu-attacker", unit=unit), loc_text(a.src)
        )
        if len(a.targets) == 1 and a.targets[0][1] == 0:
            return (head, last)
        pair = "+".join(ref_text(r) for r, _ in a.targets)
        both = Msg.of(
            "lb-menu-pair", first=_at(state, a.targets[0][0]), second=_at(state, a.targets[1][0])
        )
        return (head, _step(f"pair:{pair}", both, pair), last)
    if isinstance(a, Move):
        unit = _at(state, (seat, *a.src))
        head = _step("move", Msg.of("lb-menu-move"))
        return (head, _step(f"unit:{loc_text(a.src)}", unit, loc_text(a.src)), last)
    if isinstance(a, Use):
        unit = _at(state, (seat, *a.src))
        head = _step(
            f"use:{loc_text(a.src)}:{a.ability}",
            Msg.of("lb-menu-use", unit=unit, ability=Msg.of(f"lb-kw-{a.ability}")),
            loc_text(a.src),
        )
        return (head, last)
    if isinstance(a, General):
        head = _step("general", Msg.of("lb-menu-general"))
        if a.target is None:
            return (head, last)
        general = card_of(state, state.players[seat].general)
        effect = _step(f"effect:{a.index}", _effect(general.effects[a.index]))
        return (head, effect, last)
    if isinstance(a, Equip):
        head = _step("equip", Msg.of("lb-menu-equip"))
        src = _step(
            f"object:{loc_text(a.src)}:{a.card}",
            Msg.of("lb-menu-object", card=name(a.card), unit=_at(state, (seat, *a.src))),
        )
        return (head, src, last)
    if isinstance(a, Discard | Block | Guard):
        return (last,)
    return (last,)


# ---------------------------------------------------------------------------
# Decisions
# ---------------------------------------------------------------------------


def decision_text(decision: Decision, names: Sequence[str] = ()) -> Msg:
    kind = decision.kind
    if kind == "react":
        return Msg.of(f"lb-decision-react-{decision.param('window')}")
    if kind == "discard":
        return Msg.of("lb-decision-discard", count=int(decision.param("count") or 1))
    if kind == "reclaim":
        card = str(decision.param("card") or "")
        return Msg.of("lb-decision-reclaim", card=name(card))
    if kind in ("placement", "attack", "loyalty"):
        return Msg.of(f"lb-decision-{kind}")
    return Msg.of("lb-decision-wait")


# ---------------------------------------------------------------------------
# Events
# ---------------------------------------------------------------------------


class _E:
    def __init__(self, event: Event, names: Sequence[str]) -> None:
        self.d: dict[str, Any] = dict(event.data)
        self.names = names

    def who(self, key: str = "seat") -> str:
        return _seat_name(self.names, self.d.get(key))

    def card(self, key: str = "card") -> str:
        return name(str(self.d.get(key, "")))


def _ev(key: str, **fields: Callable[[_E], MsgParam]) -> Callable[[_E], Msg | None]:
    return lambda e: Msg.of(key, **{k: f(e) for k, f in fields.items()})


def _who(key: str = "seat") -> Callable[[_E], MsgParam]:
    return lambda e: e.who(key)


def _card(key: str = "card") -> Callable[[_E], MsgParam]:
    return lambda e: e.card(key)


def _int(key: str) -> Callable[[_E], MsgParam]:
    return lambda e: int(e.d.get(key) or 0)


def _loc(key: str) -> Callable[[_E], MsgParam]:
    """A place of the player's own battlefield, without the seat (``a2``)."""

    def f(e: _E) -> MsgParam:
        ref = e.d.get(key)
        if isinstance(ref, list | tuple) and len(ref) == 3:
            return loc_text((int(ref[1]), int(ref[2])))
        return "?"

    return f


def _place(key: str) -> Callable[[_E], MsgParam]:
    def f(e: _E) -> MsgParam:
        ref = e.d.get(key)
        if isinstance(ref, list | tuple) and len(ref) == 3:
            return ref_text((int(ref[0]), int(ref[1]), int(ref[2])))
        return "?"

    return f


def _gain(what: str) -> Callable[[_E], Msg | None]:
    def f(e: _E) -> Msg | None:
        cause = str(e.d.get("cause") or "card")
        if cause == "defausse":  # the Défausse line already says « pour 2 or »
            return None
        return Msg.of(f"lb-ev-{what}-{cause}", name=e.who(), amount=int(e.d.get("amount") or 0))

    return f


def _strike(e: _E) -> Msg | None:
    source = str(e.d.get("source") or "unit")
    dealer = e.card("dealer") if e.d.get("dealer") else ""
    key = "lb-ev-strike-vp" if e.d.get("vp") else "lb-ev-strike"
    if not e.d.get("damage"):  # Armure, Vol: no wound
        key = (
            "lb-ev-strike-none"
            if dealer and source not in ("spell", "poison")
            else "lb-ev-hurt-none"
        )
    elif source in ("spell", "poison") or not dealer:  # a general's blow names it
        key = "lb-ev-hurt-vp" if e.d.get("vp") else "lb-ev-hurt"
    return Msg.of(
        key,
        dealer=dealer,
        target=e.card("target"),
        owner=e.who("owner"),
        damage=int(e.d.get("damage") or 0),
        vp=int(e.d.get("vp") or 0),
        name=e.who(),
    )


def _attack(e: _E) -> Msg | None:
    """The targets with their owners (« Morgane (Bob) »): with 3-4 players
    an attack names the enemy it targets."""
    refs = [t[0] if isinstance(t, list | tuple) else None for t in e.d.get("targets", [])]
    parts = []
    for i, c in enumerate(e.d.get("cards", [])):
        ref = refs[i] if i < len(refs) else None
        owner = ref[0] if isinstance(ref, list | tuple) and ref else None
        owned = f"{name(str(c))} ({_seat_name(e.names, owner)})" if owner is not None else None
        parts.append(owned or name(str(c)))
    targets = " + ".join(parts)
    return Msg.of("lb-ev-attack", name=e.who(), unit=e.card(), targets=targets)


def _kill(e: _E) -> Msg | None:
    cause = str(e.d.get("cause") or "wounds")
    return Msg.of(f"lb-ev-kill-{cause}", card=e.card(), owner=e.who("owner"), name=e.who())


def _play(e: _E) -> Msg | None:
    """« Alice joue Archer en a2. », « … Éclair sur Cavalier (Bob). »"""
    spec = cards_by_id().get(str(e.d.get("card", "")))
    place = e.d.get("place")
    if e.d.get("target_card"):
        return Msg.of(
            "lb-ev-play-target",
            name=e.who(),
            card=e.card(),
            target=e.card("target_card"),
            owner=_seat_name(e.names, (e.d.get("target") or [None])[0]),
        )
    if place and spec is not None and spec.type != "objet":
        return Msg.of("lb-ev-play-place", name=e.who(), card=e.card(), place=_loc("place")(e))
    return Msg.of("lb-ev-play", name=e.who(), card=e.card())


def _bonus(e: _E) -> Msg | None:
    amount = int(e.d.get("amount") or 0)
    if e.d.get("card"):
        return Msg.of("lb-ev-bonus-unit", card=e.card(), owner=e.who("owner"), amount=amount)
    scope = str(e.d.get("scope") or "all")
    if scope == "all":
        return Msg.of("lb-ev-bonus", owner=e.who("owner"), amount=amount)
    return Msg.of(
        "lb-ev-bonus-line", owner=e.who("owner"), amount=amount, scope=Msg.of(f"lb-scope-{scope}")
    )


def _game_over(e: _E) -> Msg | None:
    reason = str(e.d.get("reason") or "general")
    return Msg.of(f"lb-ev-game-over-{reason}", name=e.who("winner"))


def _general(e: _E) -> Msg | None:
    return Msg.of(
        "lb-ev-general-ability", name=e.who(), general=e.card(), vp=int(e.d.get("vp") or 0)
    )


_EVENTS: dict[str, Callable[[_E], Msg | None]] = {
    "turn": _ev("lb-ev-turn", name=_who(), turn=_int("turn")),
    "draw": _ev("lb-ev-draw", name=_who(), count=_int("count")),
    "gold": _gain("gold"),
    "faith": _gain("faith"),
    "play": _play,
    "move": _ev("lb-ev-move", name=_who(), card=_card(), src=_loc("from"), dst=_loc("to")),
    "attack": _attack,
    "attack-cancelled": _ev("lb-ev-attack-cancelled", name=_who()),
    "block": _ev("lb-ev-block", name=_who(), card=_card()),
    "loyalty": _ev("lb-ev-loyalty", name=_who(), card=_card()),
    "strike": _strike,
    "kill": _kill,
    "poison-tick": _ev("lb-ev-poison-tick", card=_card(), owner=_who("owner")),
    "poisoned": _ev("lb-ev-poisoned", card=_card(), owner=_who("owner")),
    "paralysed": _ev("lb-ev-paralysed", card=_card(), owner=_who("owner")),
    "heal": lambda e: Msg.of(
        ("lb-ev-heal-cure" if e.d.get("amount") else "lb-ev-cure")
        if e.d.get("cured")
        else ("lb-ev-heal" if e.d.get("amount") else "lb-ev-heal-none"),
        card=e.card(),
        owner=e.who("owner"),
        amount=int(e.d.get("amount") or 0),
    ),
    "bonus": _bonus,
    "ravage": _ev("lb-ev-ravage", name=_who(), card=_card(), amount=_int("amount")),
    "invoke": _ev("lb-ev-invoke", name=_who(), unit=_card("unit"), card=_card()),
    "token": _ev("lb-ev-token", name=_who(), card=_card(), place=_loc("place")),
    "telekinesis": lambda e: Msg.of(
        "lb-ev-telekinesis",
        name=e.who(),
        card=e.card(),
        owner=_seat_name(e.names, (e.d.get("from") or [None])[0]),
        dst=_place("to")(e),
    ),
    "defausse": _ev("lb-ev-defausse", name=_who(), unit=_card("unit"), card=_card()),
    "soin": _ev("lb-ev-soin", name=_who(), unit=_card("unit"), card=_card()),
    "general-ability": _general,
    "equip": _ev("lb-ev-equip", name=_who(), card=_card(), unit=_card("unit")),
    "reclaim": lambda e: Msg.of(
        "lb-ev-reclaim", name=e.who(), card=e.card(), cost=cost(int(e.d.get("gold") or 0))
    ),
    "discard": _ev("lb-ev-discard", name=_who(), card=_card()),
    "pass": lambda e: None,
    "favour": _ev("lb-ev-favour", name=_who(), card=_card()),
    "returned": _ev("lb-ev-returned", name=_who(), card=_card()),
    "phase": _ev("lb-ev-phase-attack", name=_who()),
    "out": _ev("lb-ev-out", name=_who()),
    "resign": _ev("lb-ev-resign", name=_who()),
    "game-over": _game_over,
}


def describe_event(event: Event, names: Sequence[str]) -> Msg | None:
    line = _EVENTS.get(event.kind)
    return line(_E(event, names)) if line is not None else None


# ---------------------------------------------------------------------------
# Summary and glossary
# ---------------------------------------------------------------------------


def _status(piece: Any) -> Msg | str:
    parts = []
    for flag in ("sick", "poisoned", "paralysed", "countered"):
        if getattr(piece, flag):
            parts.append(Msg.of(f"lb-status-{flag}"))
    if not parts:
        return ""
    out: Msg = parts[-1]
    for part in reversed(parts[:-1]):
        out = Msg.of("lb-join-comma", first=part, rest=out)
    return Msg.of("lb-status", list=out)


def summary(view: View, names: Sequence[str]) -> Msg:
    out = [
        Msg.of(
            f"lb-summary-turn-{view.phase}",
            turn=view.turn,
            name=_seat_name(names, view.active),
        )
    ]
    for side in view.sides:
        general = next((p for p in side.pieces if p.general), None)
        out.append(
            Msg.of(
                "lb-summary-side-out" if side.out else "lb-summary-side",
                name=_seat_name(names, side.seat),
                general=name(side.general),
                pv=(general.pv - general.damage) if general is not None else 0,
                gold=side.gold,
                faith=side.faith,
                vp=side.vp,
                hand=side.hand_count,
                deck=side.deck_count,
            )
        )
        if side.god:
            out.append(Msg.of("lb-summary-god", card=name(side.god)))
        for p in side.pieces:
            if p.general:
                continue
            if p.fixture:
                out.append(Msg.of("lb-summary-fixture", place=p.place, card=name(p.card)))
                continue
            out.append(
                Msg.of(
                    "lb-summary-piece",
                    place=p.place,
                    card=name(p.card),
                    force=p.force,
                    pv=p.pv - p.damage,
                    max=p.pv,
                    status=_status(p),
                )
            )
    if view.hand is not None:
        cards = ", ".join(name(c) for c in view.hand) or "—"
        out.append(Msg.of("lb-summary-hand", cards=cards))
    return lines(*out)


def rules_details() -> Msg:
    """The keyword glossary: each keyword's name and what it does."""
    items = [Msg.of("lb-glossary-title")]
    for kw in KEYWORDS:
        items.append(
            Msg.of("lb-glossary-item", name=Msg.of(f"lb-kw-{kw}"), text=Msg.of(f"lb-kwtext-{kw}"))
        )
    return lines(*items)
