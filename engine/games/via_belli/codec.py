"""The reader of Via Belli's schema-1 saves: the compact JSON form (lists
rather than objects) the game wrote before the shared msgspec codec
(:mod:`engine.codec`, schema 2). Used only by
:func:`engine.codec_legacy.read_via_belli_v1`."""

from __future__ import annotations

import json
from typing import Any, get_args

from ... import codec
from ...errors import BadRecord
from .geometry import Cell
from .model import Castle, Combat, Phase, Player, Rules, SelKind, State, Terrain, Unit

_PHASES = frozenset(get_args(Phase))


_SEL_KINDS = frozenset(get_args(SelKind))


_RULES_DECODED: dict[str, Rules] = {}


_LAST_RULES: tuple[Any, Any] = (None, None)
"""The last rules decoded and their JSON (one tuple: swapped atomically)."""


def _decode_rules(d: Any) -> Rules:
    """Rules from JSON (memoised: every saved state repeats them)."""
    global _LAST_RULES
    last_json, last = _LAST_RULES
    if d == last_json:
        known: Rules = last
        return known
    key = json.dumps(d, sort_keys=True, separators=(",", ":"))
    rules = _RULES_DECODED.get(key)
    if rules is None:
        rules = codec.from_jsonable(Rules, d)
        if len(_RULES_DECODED) > 64:
            _RULES_DECODED.clear()
        _RULES_DECODED[key] = rules
    _LAST_RULES = (json.loads(key), rules)  # a private copy: the caller may change its data
    return rules


def _i(v: Any) -> int:
    if type(v) is not int:
        raise BadRecord(f"expected an integer, got {v!r}")
    return v


def _s(v: Any) -> str:
    if type(v) is not str:
        raise BadRecord(f"expected a string, got {v!r}")
    return v


def _b(v: Any) -> bool:
    if type(v) is not bool:
        raise BadRecord(f"expected true or false, got {v!r}")
    return v


def _l(v: Any, size: int = -1) -> list[Any]:
    if type(v) is not list or (size >= 0 and len(v) != size):
        raise BadRecord(f"expected a list{f' of {size}' if size >= 0 else ''}, got {v!r}")
    return v


def _c(v: Any) -> Cell:
    x, y = _l(v, 2)
    return _i(x), _i(y)


def _oc(v: Any) -> Cell | None:
    return None if v is None else _c(v)


def _decode(d: Any) -> State:
    if type(d) is not dict:
        raise BadRecord("a state is an object")
    extra = set(d) - {
        "rules", "cups", "castles", "terrain", "units", "players", "rng", "phase", "active", "pa",
        "turn", "first_player", "sel", "combat", "last", "idle_turns", "clock", "initiative",
        "eliminated", "ranking", "end_reason",
    }  # fmt: skip
    if extra:
        raise BadRecord(f"unknown fields {sorted(extra)} in a Via Belli state")
    rules = _decode_rules(d["rules"])
    castles, terrain, units, players = _decode_cards(d)
    phase = d["phase"]
    if phase not in _PHASES:
        raise BadRecord(f"unknown phase {phase!r}")
    sel_kind, sel_card, sel_unit, sel_via = _l(d["sel"], 4)
    if sel_kind not in _SEL_KINDS:
        raise BadRecord(f"unknown choice {sel_kind!r}")
    combat = None
    if d["combat"] is not None:
        seat, defender, attackers, target, candidates = _l(d["combat"], 5)
        combat = Combat(
            _i(seat),
            _i(defender),
            tuple(_c(c) for c in _l(attackers)),
            _c(target),
            tuple(_c(c) for c in _l(candidates)),
        )
    last_seat, last_action, last_cells = _l(d["last"], 3)
    return State(
        rules=rules,
        cups=tuple(
            (_i(a), _i(b), _i(c), _i(e)) for a, b, c, e in (_l(v, 4) for v in _l(d["cups"]))
        ),
        castles=tuple(castles),
        terrain=tuple(terrain),
        units=tuple(units),
        players=tuple(players),
        rng=_i(d["rng"]),
        phase=phase,
        active=_i(d["active"]),
        pa=_i(d["pa"]),
        turn=_i(d["turn"]),
        first_player=_i(d["first_player"]),
        sel_kind=sel_kind,
        sel_card=_s(sel_card),
        sel_unit=_oc(sel_unit),
        sel_via=_oc(sel_via),
        combat=combat,
        last_seat=_i(last_seat),
        last_action=_s(last_action),
        last_cells=tuple(_c(c) for c in _l(last_cells)),
        idle_turns=_i(d["idle_turns"]),
        clock=_i(d["clock"]),
        initiative=tuple(tuple(_s(c) for c in _l(r)) for r in _l(d["initiative"])),
        eliminated=tuple(_i(v) for v in _l(d["eliminated"])),
        ranking=tuple(tuple(_i(v) for v in _l(g)) for g in _l(d["ranking"])),
        end_reason=_s(d["end_reason"]),
    )


def _decode_cards(
    d: dict[str, Any],
) -> tuple[list[Castle], list[Terrain], list[Unit], list[Player]]:
    """The castles, terrain, units and players of a state's JSON."""
    castles = []
    for row in _l(d["castles"]):
        o, x, y, land, fallen = _l(row, 5)
        castles.append(Castle(_i(o), _i(x), _i(y), _b(land), _b(fallen)))
    terrain = []
    for row in _l(d["terrain"]):
        kind, x, y, land, revealed, ctrl = _l(row, 6)
        if kind not in ("inn", "outpost"):
            raise BadRecord(f"unknown terrain {kind!r}")
        terrain.append(Terrain(kind, _i(x), _i(y), _b(land), _b(revealed), _i(ctrl)))
    units = []
    for row in _l(d["units"]):
        o, name, x, y, land, up, free, attacks, since = _l(row, 9)
        units.append(
            Unit(_i(o), _s(name), _i(x), _i(y), _b(land), _b(up), _b(free), _i(attacks), _i(since))
        )
    players = []
    for row in _l(d["players"]):
        hand, deck, discard, known, out = _l(row, 5)
        players.append(
            Player(
                hand=tuple(_s(c) for c in _l(hand)),
                deck=tuple(_i(c) for c in _l(deck)),
                discard=tuple(_s(c) for c in _l(discard)),
                known=tuple((_s(c), _i(t)) for c, t in (_l(k, 2) for k in _l(known))),
                out=_b(out),
            )
        )
    return castles, terrain, units, players
