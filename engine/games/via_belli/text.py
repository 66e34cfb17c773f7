"""The texts for players, as catalogue keys (``vb-*`` in the ``via_belli``
domain of ``i18n/locales/<lang>/via_belli.po``) and their parameters:
decisions, actions, events, summaries and the reasons an action is refused.
Hosts translate the returned :class:`~engine.text.Msg`."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ...core import Decision, Event, Seat
from ...errors import IllegalAction
from ...text import Msg, MsgParam
from .actions import (
    Action,
    Anchor,
    Attack,
    Begin,
    Cancel,
    Draw,
    EndTurn,
    Move,
    Pivot,
    Recall,
    Reveal,
    Sorcery,
    Summon,
)
from .board import K_CASTLE, K_TERRAIN, Board, board_of, card_table
from .geometry import cell_text
from .model import SUB_PHASES, State, View


def chain(key: str, items: Sequence[MsgParam]) -> MsgParam:
    """Items joined by the separator of ``key`` (a message ``{head}<sep>{tail}``):
    nested messages, so that each language writes its own separator."""
    if not items:
        return ""
    out = items[-1]
    for item in reversed(items[:-1]):
        out = Msg.of(key, head=item, tail=out)
    return out


def listing(items: Sequence[MsgParam]) -> MsgParam:
    """``A, B, C`` (the comma list of the old texts, without a final "and")."""
    return chain("vb-comma-list", items)


def decision_text(decision: Decision, names: Sequence[str] = ()) -> Msg:
    kind = decision.kind
    if kind == "reveal":
        attacker = decision.param("attacker")
        who: MsgParam
        if isinstance(attacker, int) and 0 <= attacker < len(names):
            who = names[attacker]
        else:
            who = Msg.of("vb-player-number", n=int(attacker or 0) + 1)
        return Msg.of("vb-decision-reveal", player=who, target=str(decision.param("target")))
    if kind == "turn":
        return Msg.of("vb-decision-turn", pa=decision.param("pa") or 0)
    return Msg.of(f"vb-decision-{kind}")


_BEGIN_KEYS = {"+": "summon", ">": "move", "x": "attack", "^": "sorcery"}


def place(x: int, y: int, landscape: bool) -> Msg:
    """``C5 standing`` / ``C5 lying``: a spot by its top-left cell."""
    return Msg.of("vb-place-lying" if landscape else "vb-place-standing", cell=cell_text(x, y))


def describe_action(state: State, seat: Seat, action: Action) -> Msg:
    table = card_table(state.rules)
    if isinstance(action, Draw):
        return Msg.of("vb-action-draw")
    if isinstance(action, EndTurn):
        return Msg.of("vb-action-end-turn")
    if isinstance(action, Begin):
        return Msg.of(f"vb-action-begin-{_BEGIN_KEYS[action.kind]}")
    if isinstance(action, Cancel):
        return Msg.of("vb-action-no-free-dog" if state.phase == "free-dog" else "vb-action-cancel")
    if isinstance(action, Summon):
        key = "vb-action-summon-ambush" if action.hidden else "vb-action-summon"
        return Msg.of(key, card=action.card, place=place(action.x, action.y, action.landscape))
    if isinstance(action, Move):
        where = place(action.x, action.y, action.landscape)
        return Msg.of("vb-action-move", source=cell_text(action.fx, action.fy), place=where)
    if isinstance(action, Sorcery):
        return Msg.of("vb-action-sorcery", card=action.card, ivk=table[action.card].ivk)
    b = board_of(state)
    if isinstance(action, Anchor):
        cd = table[action.card]
        against = card_label(state, b, b.at((action.x, action.y)), seat)
        stats: dict[str, MsgParam] = {"card": cd.name, "atk": cd.atk, "dfn": cd.dfn}
        if state.phase == "free-dog":
            return Msg.of("vb-action-anchor-free", target=against, **stats)
        if action.hidden:
            cost = state.rules.ambush_cost
            return Msg.of("vb-action-anchor-ambush", target=against, cost=cost, **stats)
        return Msg.of("vb-action-anchor", target=against, cost=cd.ivk, **stats)
    if isinstance(action, Pivot):
        mover = card_label(state, b, b.at((action.fx, action.fy)), seat)
        pivot = card_label(state, b, b.at((action.x, action.y)), seat)
        return Msg.of("vb-action-pivot", card=mover, pivot=pivot)
    if isinstance(action, Recall | Reveal):
        label = card_label(state, b, b.at((action.x, action.y)), seat)
        key = "vb-action-recall" if isinstance(action, Recall) else "vb-action-reveal"
        return Msg.of(key, card=label)
    assert isinstance(action, Attack)
    t = b.at(action.target)
    cis = [b.at(c) for c in action.attackers]
    atk = sum(b.atk(c) for c in cis)
    if b.kind[t] == K_TERRAIN:
        holders = [k for k in b.adj[t] if b.owner[k] == b.owner[t] and b.kind[k] != K_TERRAIN]
        dfn = sum(b.dfn(k) for k in holders)
    else:
        dfn = b.dfn(t)
    who = chain("vb-attackers", [card_label(state, b, c, seat) for c in cis])
    target = card_label(state, b, t, seat)
    return Msg.of("vb-action-attack", attackers=who, target=target, atk=atk, dfn=dfn)


def describe_event(event: Event, names: Sequence[str]) -> Msg | None:
    d = event.data

    def who(key: str = "seat") -> str:
        seat = d.get(key)
        if not isinstance(seat, int) or not 0 <= seat < len(names):
            return "?"
        return names[seat]

    kind = event.kind
    describe = _EVENT_TEXTS.get(kind)
    return None if describe is None else describe(kind, d, who, names)


def _setup_event_text(
    kind: str, d: Mapping[str, Any], who: Callable[..., str], names: Sequence[str]
) -> Msg | None:
    """The deal, the initiative and the turns."""
    if kind == "deal":
        cards = d.get("cards")
        if isinstance(cards, list):
            return Msg.of("vb-event-deal", cards=listing(cards))
        return None
    if kind in ("initiative", "initiative-tie"):
        shown = [
            Msg.of("vb-initiative-card", player=names[s] if s < len(names) else s + 1, card=c)
            for s, c in enumerate(d.get("cards", []))
            if c
        ]
        return Msg.of(f"vb-event-{kind}", cards=listing(shown))
    if kind == "first-player":
        return Msg.of("vb-event-first-player", player=who())
    if kind == "turn":
        return Msg.of("vb-event-turn", player=who(), pa=str(d.get("pa")))
    return None


def _play_event_text(
    kind: str, d: Mapping[str, Any], who: Callable[..., str], names: Sequence[str]
) -> Msg | None:
    """Draws, summons, moves, recalls and the Sorcier."""
    card = d.get("card")
    if kind == "draw":
        if card:
            return Msg.of("vb-event-draw", player=who(), card=card)
        return Msg.of("vb-event-draw-hidden", player=who())
    if kind == "summon":
        orient = Msg.of(f"vb-orient-{d['orient']}")
        return Msg.of("vb-event-summon", player=who(), card=d["card"], tag=d["tag"], orient=orient)
    if kind == "ambush":
        if card:
            return Msg.of("vb-event-ambush-seen", player=who(), tag=d["tag"], card=card)
        return Msg.of("vb-event-ambush", player=who(), tag=d["tag"])
    if kind == "free-dog":
        return Msg.of("vb-event-free-dog", card=d["card"])
    if kind in ("move", "recall"):
        extra = {"source": d["from"]} if kind == "move" else {}
        if card:
            return Msg.of(f"vb-event-{kind}", player=who(), card=card, tag=d["tag"], **extra)
        return Msg.of(f"vb-event-{kind}-hidden", player=who(), tag=d["tag"], **extra)
    if kind == "sorcery":
        return Msg.of("vb-event-sorcery", player=who(), card=d["card"])
    return None


def _combat_event_text(
    kind: str, d: Mapping[str, Any], who: Callable[..., str], names: Sequence[str]
) -> Msg | None:
    """Attacks, ambushes revealed, supply cut off."""
    if kind == "ambush-revealed":
        return Msg.of("vb-event-ambush-revealed", card=d["card"], tag=d["tag"])
    if kind == "attack":
        result = Msg.of(f"vb-attack-{d['result']}")
        dead = d.get("dead") or []
        fallen = [
            Msg.of("vb-dead-card", card=x["card"], tag=x["tag"])
            for x in dead
            if isinstance(x, dict)
        ]
        params: dict[str, MsgParam] = {
            "player": who(),
            "target": d["target"],
            "attackers": "+".join(d.get("attackers", [])),
            "atk": d["atk"],
            "dfn": d["def"],
            "result": result,
        }
        if fallen:
            return Msg.of("vb-event-attack-dead", dead=listing(fallen), **params)
        return Msg.of("vb-event-attack", **params)
    if kind == "cut-off":
        cards = [c or Msg.of("vb-hidden-card") for c in d.get("cards", [])]
        return Msg.of("vb-event-cut-off", player=who(), cards=listing(cards))
    return None


def _terrain_event_text(
    kind: str, d: Mapping[str, Any], who: Callable[..., str], names: Sequence[str]
) -> Msg | None:
    """Terrain revealed, taken, besieged, and the castles conquered."""
    if kind in ("terrain-revealed", "control", "siege"):
        name = terrain_name(str(d["kind"]))
        if kind == "terrain-revealed":
            return Msg.of("vb-event-terrain-revealed", tag=d["tag"], terrain=name)
        if kind == "control":
            return Msg.of("vb-event-control", player=who(), terrain=name, tag=d["tag"])
        if d.get("success"):
            return Msg.of("vb-event-siege-won", player=who(), terrain=name, tag=d["tag"])
        return Msg.of("vb-event-siege-repelled", terrain=name, tag=d["tag"])
    if kind == "inn-bonus":
        return Msg.of("vb-event-inn-bonus", player=who(), pa=str(d["pa"]))
    if kind == "conquest":
        return Msg.of("vb-event-conquest", player=who(), target=who("target"))
    return None


def _end_event_text(
    kind: str, d: Mapping[str, Any], who: Callable[..., str], names: Sequence[str]
) -> Msg | None:
    """Lost PA, ends of turns, eliminations and the end of the game."""
    if kind in ("deck-out", "eliminated", "end-turn", "resign"):
        return Msg.of(f"vb-event-{kind}", player=who())
    if kind == "pa-lost":
        return Msg.of("vb-event-pa-lost", player=who(), pa=str(d["pa"]))
    if kind == "game-over":
        ranking = d.get("ranking") or []
        if ranking and ranking[0] and len(ranking[0]) == 1:
            winner = ranking[0][0]
            name = names[winner] if isinstance(winner, int) and winner < len(names) else "?"
            return Msg.of("vb-event-winner", player=name)
        return Msg.of("vb-event-game-over")
    return None


_EVENT_TEXTS: dict[str, Callable[..., Msg | None]] = {
    "deal": _setup_event_text,
    "initiative": _setup_event_text,
    "initiative-tie": _setup_event_text,
    "first-player": _setup_event_text,
    "turn": _setup_event_text,
    "draw": _play_event_text,
    "summon": _play_event_text,
    "ambush": _play_event_text,
    "free-dog": _play_event_text,
    "move": _play_event_text,
    "recall": _play_event_text,
    "sorcery": _play_event_text,
    "ambush-revealed": _combat_event_text,
    "attack": _combat_event_text,
    "cut-off": _combat_event_text,
    "terrain-revealed": _terrain_event_text,
    "control": _terrain_event_text,
    "siege": _terrain_event_text,
    "inn-bonus": _terrain_event_text,
    "conquest": _terrain_event_text,
    "deck-out": _end_event_text,
    "eliminated": _end_event_text,
    "pa-lost": _end_event_text,
    "end-turn": _end_event_text,
    "resign": _end_event_text,
    "game-over": _end_event_text,
}
"""Which function words each kind of event."""


def summary(view: View, names: Sequence[str]) -> Msg:
    def name(seat: int) -> str:
        return names[seat] if 0 <= seat < len(names) else f"#{seat + 1}"

    lines: list[MsgParam] = [
        Msg.of(
            "vb-summary-table",
            width=view.width,
            height=view.height,
            width_cm=view.width * view.cell_mm // 10,
            height_cm=view.height * view.cell_mm // 10,
            turn=view.turn,
            player=name(view.active),
            pa=view.pa,
        )
    ]
    for p in view.players:
        castle = view.castles[p.seat]
        lines.append(
            Msg.of(
                "vb-summary-player-out" if p.out else "vb-summary-player",
                n=p.seat + 1,
                player=name(p.seat),
                side=Msg.of(f"vb-side-{p.side}") if p.side in _SIDES else "",
                castle=castle.tag,
                dfn=castle.dfn,
                hand=p.hand_count,
                deck=p.deck_count,
                inns=p.inns,
                outposts=p.outposts,
            )
        )
        if p.hand is not None:
            cards = listing(p.hand) if p.hand else "—"
            lines.append(Msg.of("vb-summary-hand", cards=cards))
    for t in view.terrain:
        kind = terrain_name(t.kind) if t.kind else Msg.of("vb-face-down")
        holder = name(t.controller) if t.controller >= 0 else "—"
        lines.append(Msg.of("vb-summary-terrain", tag=t.tag, terrain=kind, player=holder))
    for u in view.units:
        label: MsgParam = u.name or Msg.of("vb-hidden-card")
        if not u.face_up and u.name:
            label = Msg.of("vb-ambush-card", card=u.name)
        lines.append(
            Msg.of(
                "vb-summary-unit",
                player=name(u.owner),
                card=label,
                tag=u.tag,
                orient="L" if u.landscape else "P",
                atk=u.atk,
                dfn=u.dfn,
            )
        )
    out = chain("vb-lines", lines)
    assert isinstance(out, Msg)
    return out


_SIDES = frozenset("WNES")


def terrain_name(kind: str | None) -> Msg:
    """``inn``, ``outpost`` or ``terrain`` (face down), lower case."""
    return Msg.of(f"vb-terrain-{kind}" if kind in ("inn", "outpost") else "vb-terrain-unknown")


def card_label(state: State, b: Board, ci: int, seat: Seat) -> MsgParam:
    """A card on the table as ``seat`` knows it, with its tag: ``Roturier (C5)``,
    ``Castle 2 (F1)``, ``Inn (M12)``, ``face-down card (C9)``."""
    if ci < 0:
        return "?"
    tag = b.tag(ci)
    k = b.kind[ci]
    if k == K_CASTLE:
        return Msg.of("vb-label-castle", n=b.owner[ci] + 1, tag=tag)
    if k == K_TERRAIN:
        t = state.terrain[b.ref[ci]]
        kind = t.kind if t.revealed else None
        key = f"vb-label-{kind}" if kind in ("inn", "outpost") else "vb-label-terrain"
        return Msg.of(key, tag=tag)
    u = state.units[b.ref[ci]]
    if u.face_up or u.owner == seat:
        return Msg.of("vb-label-card", card=u.name, tag=tag)
    return Msg.of("vb-label-hidden", tag=tag)


# ---------------------------------------------------------------------------
# Why an action is refused (the checks in ``checks.py`` pick the sentence)
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why an action is refused: a ``vb-refuse-*`` message."""

    msg: Msg

    def error(self, action: str) -> IllegalAction:
        """The error ``apply`` raises for the action (in notation)."""
        return IllegalAction(self.msg, action=action)


def _refusal(key: str, **params: MsgParam) -> Refusal:
    return Refusal(Msg.of(f"vb-refuse-{key}", **params))


EMPTY_PILE = _refusal("empty-pile")
NO_PA = _refusal("no-pa")
BEGIN_REFUSALS = {kind: _refusal(f"begin-{name}") for kind, name in _BEGIN_KEYS.items()}
MOVE_PLACE = _refusal("move-place")
RECALL_FACE_UP = _refusal("recall-face-up")
ATTACK_GROUP = _refusal("attack-group")
CHOOSE_ACTION = _refusal("choose-action")
DOG_ONLY = _refusal("dog-only")
SPY_CONTACT = _refusal("spy-contact")


def hand_full(limit: int) -> Refusal:
    return _refusal("hand-full", limit=limit)


def pa_unspent(pa: int) -> Refusal:
    return _refusal("pa-unspent", pa=pa)


def no_card_at(where: str) -> Refusal:
    return _refusal("no-card-at", cell=where)


def recall_cuts(where: str) -> Refusal:
    return _refusal("recall-cuts", cell=where)


def not_in_discard(card: str) -> Refusal:
    return _refusal("not-in-discard", card=card)


def sorcery_needs(ivk: int) -> Refusal:
    return _refusal("sorcery-needs", ivk=ivk)


def not_in_hand(card: str) -> Refusal:
    return _refusal("not-in-hand", card=card)


def card_cost(card: str, ivk: int, pa: int) -> Refusal:
    return _refusal("card-cost", card=card, ivk=ivk, pa=pa)


def bad_anchor(where: str, card: str) -> Refusal:
    return _refusal("bad-anchor", cell=where, card=card)


def summon_cost(cost: int, pa: int) -> Refusal:
    return _refusal("summon-cost", cost=cost, pa=pa)


def off_table(where: str) -> Refusal:
    return _refusal("off-table", cell=where)


def not_free(where: str) -> Refusal:
    return _refusal("not-free", cell=where)


def must_touch(where: str) -> Refusal:
    return _refusal("must-touch", cell=where)


_EXPECTED = frozenset(
    ("anchor", "free-dog", "spot", "pivot", "destination", "attack", "sorcery", "reveal")
)


def wrong_step(phase: str) -> Refusal:
    """An action of another step: what this step expects."""
    expected = Msg.of(f"vb-expected-{phase}" if phase in _EXPECTED else "vb-expected-wait")
    key = "wrong-step-back" if phase in SUB_PHASES else "wrong-step"
    return _refusal(key, expected=expected)
