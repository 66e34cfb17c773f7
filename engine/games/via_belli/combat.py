"""Attacks and their resolution (V10, V11, V13, V14, V20)."""

from __future__ import annotations

from typing import Any

from ...core import Event, Seat
from ...core import evolve as replace
from .actions import Attack, format_action
from .board import K_CASTLE, K_TERRAIN, K_UNIT, Board, board_of, card_table
from .geometry import Cell, cell_text
from .model import Combat, Player, State, Unit, _forget_before, _set_terrain
from .turns import _after, _eliminate


def _attack(state: State, seat: Seat, a: Attack, events: list[Event]) -> State:
    rules = state.rules
    b = board_of(state)
    t = b.at(a.target)
    attackers = [b.at(c) for c in a.attackers]
    cost = 0
    free_used = []
    units = list(state.units)
    for ci in attackers:
        ui = b.ref[ci]
        u = units[ui]
        if u.free_attack:
            free_used.append(b.tag(ci))
            if rules.lancer_free == "one":
                u = replace(u, free_attack=False)
        else:
            cost += 1
        units[ui] = replace(u, attacks=u.attacks + 1)
    if free_used:
        events.append(Event("lancer-free-attack", {"seat": seat, "tags": free_used}))
    for ci in attackers:
        if b.ability(ci) == "archer" and t not in b.adj[ci]:
            events.append(
                Event("archer-shot", {"seat": seat, "tag": b.tag(ci), "target": b.tag(t)})
            )
    candidates: list[int] = []
    kind = b.kind[t]
    if kind == K_CASTLE or (kind == K_UNIT and b.unit(t).face_up):
        defender = b.owner[t]
        candidates = [
            k
            for k in b.adj[t]
            if b.kind[k] == K_UNIT and b.owner[k] == defender and not b.unit(k).face_up
        ]
        candidates.sort(key=lambda c: (b.X[c], b.Y[c]))
    state = replace(
        state,
        units=tuple(units),
        pa=state.pa - cost,
        last_seat=seat,
        last_action=format_action(a),
        last_cells=(a.target, *a.attackers),
    )
    reveal: Cell | None = None
    if len(candidates) == 1:
        reveal = b.cell(candidates[0])
    elif candidates:
        if rules.reveal_choice == "defender":
            combat = Combat(
                seat=seat,
                defender=b.owner[t],
                attackers=a.attackers,
                target=a.target,
                candidates=tuple(b.cell(c) for c in candidates),
            )
            return replace(state, phase="reveal", combat=combat)
        table = card_table(rules)
        best = max(
            candidates,
            key=lambda c: (table[state.units[b.ref[c]].name].dfn, -b.X[c], -b.Y[c]),
        )
        reveal = b.cell(best)
    return _combat(state, seat, a.attackers, a.target, reveal, events)


def _combat(
    state: State,
    seat: Seat,
    attacker_cells: tuple[Cell, ...],
    target_cell: Cell,
    reveal_cell: Cell | None,
    events: list[Event],
) -> State:
    """Resolve an attack (V10, V11, V13, V14, V20): summed ATK of the
    attackers against the DEF of the target (or of the terrain's holders)."""
    b = board_of(state)
    t = b.at(target_cell)
    attackers = [b.at(c) for c in attacker_cells]
    atk, sources, spied_cards = _attack_strength(b, attackers)
    holders, revealed = _defenders(state, b, t, reveal_cell)
    dfn = _defence(state, b, t, holders, revealed, sources, spied_cards)
    for ability in sorted(sources):
        events.append(Event(f"{ability}-bonus", {"seat": seat, "target": b.tag(t)}))
    if spied_cards:
        events.append(Event("spied", {"tags": spied_cards}))
    result = "win" if atk > dfn else "lose" if atk < dfn else "tie"
    tk = b.kind[t]
    defender = b.owner[t]
    dead, conquest, capture = _casualties(state, tk, result, t, attackers)
    units = list(state.units)
    players = list(state.players)
    _turn_revealed(state, b, t, revealed, units, players, events)
    dead_ui = {b.ref[c] for c in dead}
    dead_info = _bury(dead_ui, units, players)
    events.append(
        Event(
            "attack",
            {
                "seat": seat,
                "attackers": [b.tag(a) for a in attackers],
                "target": b.tag(t),
                "target_kind": ("castle", "terrain", "unit")[tk],
                "defender": defender,
                "atk": atk,
                "def": dfn,
                "result": result,
                "dead": dead_info,
            },
        )
    )
    state = replace(
        state,
        units=tuple(u for i, u in enumerate(units) if i not in dead_ui),
        players=tuple(players),
        combat=None,
        phase="turn",
    )
    if tk == K_TERRAIN:
        state = _siege_outcome(state, b, t, seat, defender, capture, events)
    if conquest:
        events.append(Event("conquest", {"seat": seat, "target": defender, "tag": b.tag(t)}))
        state = _eliminate(state, defender, "conquest", events)
    return _after(state, events)


def _attack_strength(b: Board, attackers: list[int]) -> tuple[int, set[str], list[str]]:
    """The attackers' summed ATK, the abilities behind their bonuses, and
    those of them touched by an enemy Espion."""
    st = b.stats()
    spied = b.spied()
    atk = sum(st.batk[a] + st.patk[a] for a in attackers)
    sources: set[str] = set()
    spied_cards = [b.tag(a) for a in attackers if spied[a]]
    for a in attackers:
        if st.patk[a]:
            sources |= st.satk[a]
    return atk, sources, spied_cards


def _defenders(
    state: State, b: Board, t: int, reveal_cell: Cell | None
) -> tuple[list[int], list[int]]:
    """A besieged terrain's holders, and the ambush cards this combat turns
    face up (card indices)."""
    holders: list[int] = []
    revealed: list[int] = []
    if b.kind[t] == K_TERRAIN:
        defender = b.owner[t]
        holders = [k for k in b.adj[t] if b.owner[k] == defender and b.kind[k] != K_TERRAIN]
        if (
            state.rules.siege_ambush == "reveal"
        ):  # « Un Siège se déroule comme une attaque normale »
            revealed = [k for k in holders if b.kind[k] == K_UNIT and not b.unit(k).face_up]
    elif reveal_cell is not None:
        revealed = [b.at(reveal_cell)]
    return holders, revealed


def _defence(
    state: State,
    b: Board,
    t: int,
    holders: list[int],
    revealed: list[int],
    sources: set[str],
    spied_cards: list[str],
) -> int:
    """The DEF of the target (of its holders for a terrain), adding the
    abilities behind its bonuses to ``sources`` and the spied defenders to
    ``spied_cards``."""
    rules = state.rules
    table = card_table(rules)
    st = b.stats()
    spied = b.spied()
    dst = st  # the defence's bonuses
    if revealed and rules.reveal_aura == "now":
        # the revealed cards are face up now: their own auras count in this combat
        up = list(state.units)
        for k in revealed:
            up[b.ref[k]] = replace(up[b.ref[k]], face_up=True)
        dst = board_of(replace(state, units=tuple(up))).stats()
    if b.kind[t] == K_TERRAIN:
        dfn = 0
        for k in holders:
            kbase = table[b.unit(k).name].dfn if k in revealed else st.bdef[k]
            dfn += kbase + dst.pdef[k]
            if dst.pdef[k]:
                sources |= dst.sdef[k]
            if spied[k] and k not in revealed:
                spied_cards.append(b.tag(k))
        return dfn
    base, bonus = st.bdef[t], dst.pdef[t]
    if revealed:
        base = table[b.unit(revealed[0]).name].dfn
        if not rules.reveal_keeps_bonuses:
            bonus = 0
    elif spied[t]:
        spied_cards.append(b.tag(t))
    if bonus:
        sources |= dst.sdef[t]
    return base + bonus


def _casualties(
    state: State, tk: int, result: str, t: int, attackers: list[int]
) -> tuple[list[int], bool, bool]:
    """The cards that die (card indices), whether a castle falls, whether a
    terrain is taken."""
    rules = state.rules
    dead: list[int] = []
    conquest = capture = False
    if tk == K_UNIT:
        dead = [t] if result == "win" else attackers if result == "lose" else [*attackers, t]
    elif tk == K_CASTLE:
        if result == "win":
            conquest = True
        elif result == "tie" and rules.castle_tie == "falls":
            conquest = True
            dead = list(attackers)
        else:
            dead = list(attackers)
    else:
        capture = result == "win"
        if not capture and rules.siege_failure == "attackers-die":
            dead = list(attackers)
    return dead, conquest, capture


def _turn_revealed(
    state: State,
    b: Board,
    t: int,
    revealed: list[int],
    units: list[Unit],
    players: list[Player],
    events: list[Event],
) -> None:
    """Turn the revealed ambush cards face up (in ``units``; their owners'
    knowledge in ``players``)."""
    table = card_table(state.rules)
    for revealed_ui in sorted(b.ref[k] for k in revealed):
        ru = units[revealed_ui]
        units[revealed_ui] = replace(
            ru, face_up=True, free_attack=table[ru.name].ability == "lancer"
        )
        owner = players[ru.owner]
        players[ru.owner] = replace(owner, known=_forget_before(owner.known, ru.name, ru.since))
        events.append(
            Event(
                "ambush-revealed",
                {
                    "seat": ru.owner,
                    "card": ru.name,
                    "tag": cell_text(ru.x, ru.y),
                    "target": b.tag(t),
                },
            )
        )


def _bury(dead_ui: set[int], units: list[Unit], players: list[Player]) -> list[dict[str, Any]]:
    """Put the dead units in their owners' discards (in ``players``): what
    the attack event says of them."""
    dead_info: list[dict[str, Any]] = []
    for ui in sorted(dead_ui):
        u = units[ui]
        owner = players[u.owner]
        known = owner.known if u.face_up else _forget_before(owner.known, u.name, u.since)
        players[u.owner] = replace(owner, discard=(*owner.discard, u.name), known=known)
        dead_info.append({"seat": u.owner, "card": u.name, "tag": cell_text(u.x, u.y)})
    return dead_info


def _siege_outcome(
    state: State,
    b: Board,
    t: int,
    seat: Seat,
    defender: Seat,
    capture: bool,
    events: list[Event],
) -> State:
    """A siege's event, and the terrain taken (an inn's PA at once)."""
    rules = state.rules
    terrain = state.terrain[b.ref[t]]
    events.append(
        Event(
            "siege",
            {
                "seat": seat,
                "tag": b.tag(t),
                "kind": terrain.kind,
                "from": defender,
                "success": capture,
            },
        )
    )
    if capture:
        state = _set_terrain(state, b.ref[t], replace(terrain, controller=seat))
        if terrain.kind == "inn" and seat == state.active:
            state = replace(state, pa=state.pa + rules.inn_pa)
            events.append(Event("inn-bonus", {"seat": seat, "tag": b.tag(t), "pa": rules.inn_pa}))
    return state
