"""What a seat sees."""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from ...core import Seat
from ...core import evolve as replace
from .actions import Move, Summon, format_action
from .board import K_TERRAIN, Board, PublicParts, board_of, card_order, card_table
from .geometry import CELL_MM, LONG, SHORT, cell_text, columns
from .model import (
    CardDef,
    CardInfo,
    CastleView,
    CombatView,
    Options,
    PlayerView,
    Rules,
    SelectionView,
    State,
    TerrainView,
    UnitView,
    View,
)
from .turns import pending

if TYPE_CHECKING:
    from ...core import Game
    from .actions import Action

    ViaBelli = Game[State, Action, View]  # the game object (rules.py imports this module)


def view(game: ViaBelli, state: State, seat: Seat | None) -> View:
    """What ``seat`` (None: a spectator) sees. Memoised by everything a view
    depends on, so that worlds a seat cannot tell apart share one view."""
    b = board_of(state)
    order = card_order(state.rules)
    players = tuple(
        (
            len(p.hand),
            sum(p.deck),
            p.discard,
            tuple(sorted((c for c, _ in p.known), key=order.__getitem__)),
            p.out,
            p.known,
        )
        for p in state.players
    )
    mine: tuple[object, ...] = ()
    if seat is not None:
        me = state.players[seat]
        mine = (
            tuple(sorted(me.hand)),
            tuple(u.name for u in state.units if u.owner == seat and not u.face_up),
            state.sel_card if seat == state.active else "",
        )
    if state.phase == "over":  # the view shows every face-down card
        mine = (*mine, tuple(u.name for u in state.units if not u.face_up))
    key = (  # the board fixes the rules and the cards on the table
        seat,
        state.cups,
        state.phase,
        state.turn,
        state.active,
        state.pa,
        state.sel_kind,
        state.sel_unit,
        state.sel_via,
        state.combat,
        state.last_seat,
        state.last_action,
        state.last_cells,
        state.ranking,
        state.end_reason,
        state.first_player,
        state.eliminated,
        state.idle_turns,
        state.clock,
        players,
        mine,
    )
    cache = b.views
    hit = cache.get(key)
    if hit is None:
        hit = cache[key] = _view(game, state, seat)
    return hit


def _view(game: ViaBelli, state: State, seat: Seat | None) -> View:
    rules = state.rules
    b = board_of(state)
    pub = _public_parts(b)
    units = _units_shown(state, b, pub, seat)
    players = _player_views(state, seat, pub)
    selection = _selection_view(state, seat)
    combat = _combat_view(state)
    choices: tuple[str, ...] = ()
    ghosts: tuple[tuple[int, int, bool], ...] = ()
    if seat is not None:
        legal = game.legal_actions(state, seat)
        choices = tuple(format_action(a) for a in legal)
        ghosts = tuple((a.x, a.y, a.landscape) for a in legal if isinstance(a, Summon | Move))
    return View(
        observer=seat,
        phase=state.phase,
        turn=state.turn,
        active=state.active,
        pending=tuple((s, d.kind) for s, d in pending(state).items()),
        pa=state.pa,
        table=rules.table,
        width=rules.width,
        height=rules.height,
        cell_mm=CELL_MM,
        columns=columns(rules.width),
        cups=state.cups,
        obstacles=pub.obstacles,
        castles=pub.castles,
        terrain=pub.terrain,
        units=units,
        supply=pub.links,
        players=tuple(players),
        selection=selection,
        combat=combat,
        choices=choices,
        ghosts=ghosts,
        last_seat=state.last_seat,
        last_action=state.last_action,
        last_cells=state.last_cells,
        ranking=state.ranking,
        end_reason=state.end_reason,
        cards=_card_infos(rules.cards),
        options=_rules_text(rules),
        rules=rules,
        first_player=state.first_player,
        eliminated=state.eliminated,
        initiative=state.initiative,
        clock=state.clock,
        idle_turns=state.idle_turns,
    )


def _units_shown(
    state: State, b: Board, pub: PublicParts, seat: Seat | None
) -> tuple[UnitView, ...]:
    """The units as ``seat`` sees them: its own face-down cards named (every
    face-down card once the game is over)."""
    units = pub.units
    over = state.phase == "over"  # the game is over: every face-down card is shown
    own = (
        tuple(u.name for u in state.units if (over or u.owner == seat) and not u.face_up)
        if seat is not None or over
        else ()
    )
    if own:
        key = ("units-view", seat, own, over)
        cached = b.memo.get(key)
        if cached is None:
            table = card_table(state.rules)
            shown = list(units)
            for ui, u in enumerate(state.units):
                if (over or u.owner == seat) and not u.face_up:
                    cd = table[u.name]
                    shown[ui] = replace(
                        units[ui],
                        name=u.name,
                        cost=cd.ivk,
                        ability=cd.ability or None,
                        printed_atk=cd.atk,
                        printed_def=cd.dfn,
                    )
            cached = b.memo[key] = tuple(shown)
        units = cached  # type: ignore[assignment]
    return units


def _player_views(state: State, seat: Seat | None, pub: PublicParts) -> list[PlayerView]:
    """The players as ``seat`` sees them (its own hand only)."""
    sides = _sides(len(state.players))
    order = card_order(state.rules)
    players = []
    for p, pl in enumerate(state.players):
        players.append(
            PlayerView(
                seat=p,
                side=sides[p],
                hand_count=len(pl.hand),
                deck_count=sum(pl.deck),
                hand=tuple(sorted(pl.hand, key=order.__getitem__)) if p == seat else None,
                known=tuple(sorted((c for c, _ in pl.known), key=order.__getitem__)),
                discard=pl.discard,
                out=pl.out,
                inns=pub.inns[p],
                outposts=pub.outposts[p],
                units=pub.unit_counts[p],
                known_at=tuple(sorted(pl.known)),
            )
        )
    return players


def _selection_view(state: State, seat: Seat | None) -> SelectionView | None:
    """The choice in progress (the card only for its owner)."""
    selection = None
    if state.sel_kind and state.phase not in ("turn", "over", "reveal"):
        selection = SelectionView(
            kind=state.sel_kind,
            card=(state.sel_card or None) if seat == state.active else None,
            unit=cell_text(*state.sel_unit) if state.sel_unit else None,
            via=cell_text(*state.sel_via) if state.sel_via else None,
        )
    return selection


def _combat_view(state: State) -> CombatView | None:
    """An attack waiting for the defender's reveal."""
    combat = None
    if state.combat is not None:
        c = state.combat
        combat = CombatView(
            seat=c.seat,
            defender=c.defender,
            attackers=tuple(cell_text(*a) for a in c.attackers),
            target=cell_text(*c.target),
            candidates=tuple(cell_text(*a) for a in c.candidates),
        )
    return combat


def _public_parts(b: Board) -> PublicParts:
    if b._public is not None:
        return b._public
    state = b.state
    n = len(state.players)
    b.stats()
    supplied, links = _supply(b)
    castles, obstacles = _castle_views(b)
    terrain, inns, outposts = _terrain_views(b)
    counts = [0] * n
    for u in state.units:
        counts[u.owner] += 1
    b._public = PublicParts(
        units=_unit_views(b, supplied),
        castles=castles,
        obstacles=obstacles,
        terrain=terrain,
        links=links,
        inns=inns,
        outposts=outposts,
        unit_counts=tuple(counts),
    )
    return b._public


def _supply(b: Board) -> tuple[set[int], tuple[tuple[Seat, str, str], ...]]:
    """The supplied cards of every player in the game, and the supply links
    (seat, from tag, to tag)."""
    state = b.state
    supplied: set[int] = set()
    links: list[tuple[Seat, str, str]] = []
    for p in range(len(state.players)):
        if state.players[p].out:
            continue
        side = b.side(p)
        supplied |= side.supplied
        for child in sorted(side.parent, key=lambda c: (b.Y[c], b.X[c])):
            links.append((p, b.tag(side.parent[child]), b.tag(child)))
    return supplied, tuple(links)


def _unit_views(b: Board, supplied: set[int]) -> tuple[UnitView, ...]:
    """The units as everyone sees them (face-down cards anonymous)."""
    state = b.state
    table = b.table
    spied = b.spied()
    units = []
    for ui, u in enumerate(state.units):
        ci = b.unit_ci[ui]
        cd = table[u.name]
        up = u.face_up
        units.append(
            UnitView(
                tag=b.tag(ci),
                owner=u.owner,
                x=u.x,
                y=u.y,
                w=b.Wd[ci],
                h=b.Ht[ci],
                landscape=u.landscape,
                face_up=up,
                name=u.name if up else None,
                cost=cd.ivk if up else None,
                ability=(cd.ability or None) if up else None,
                printed_atk=cd.atk if up else None,
                printed_def=cd.dfn if up else None,
                atk=b.shown_atk(ci),
                dfn=b.shown_dfn(ci),
                supplied=ci in supplied or b.exempt(ci),
                free_attack=u.free_attack,
                spied=spied[ci],
                attacks=u.attacks,
                since=u.since,
            )
        )
    return tuple(units)


def _castle_views(
    b: Board,
) -> tuple[tuple[CastleView, ...], tuple[tuple[int, int, int, int], ...]]:
    """The castles, and the fallen ones that stay as obstacles (V22)."""
    state = b.state
    rules = state.rules
    castles = []
    obstacles = []
    for p, c in enumerate(state.castles):
        w, h = (LONG, SHORT) if c.landscape else (SHORT, LONG)
        ci = b.castle_ci[p]
        castles.append(
            CastleView(
                tag=cell_text(c.x, c.y),
                owner=c.owner,
                x=c.x,
                y=c.y,
                w=w,
                h=h,
                landscape=c.landscape,
                fallen=c.fallen,
                dfn=b.shown_dfn(ci) if ci >= 0 else 0,
            )
        )
        if c.fallen and rules.eliminated_castle == "obstacle":
            obstacles.append((c.x, c.y, w, h))
    return tuple(castles), tuple(obstacles)


def _terrain_views(
    b: Board,
) -> tuple[tuple[TerrainView, ...], tuple[int, ...], tuple[int, ...]]:
    """The terrain cards, and the inns and outposts each seat holds."""
    state = b.state
    n = len(state.players)
    terrain = []
    inns = [0] * n
    outposts = [0] * n
    for ti, t in enumerate(state.terrain):
        ci = b.terrain_ci[ti]
        holders = [k for k in b.adj[ci] if b.owner[k] == t.controller and b.kind[k] != K_TERRAIN]
        if 0 <= t.controller < n:
            if t.kind == "inn":
                inns[t.controller] += 1
            else:
                outposts[t.controller] += 1
        terrain.append(
            TerrainView(
                tag=b.tag(ci),
                x=t.x,
                y=t.y,
                w=b.Wd[ci],
                h=b.Ht[ci],
                landscape=t.landscape,
                kind=t.kind if t.revealed else None,
                controller=t.controller,
                dfn=sum(b.shown_dfn(k) for k in holders) if t.controller >= 0 else 0,
            )
        )
    return tuple(terrain), tuple(inns), tuple(outposts)


@cache
def _card_infos(cards: tuple[CardDef, ...]) -> tuple[CardInfo, ...]:
    return tuple(
        CardInfo(c.name, c.ivk, c.atk, c.dfn, c.ability or None, c.aura_atk, c.aura_def, c.count)
        for c in cards
    )


_RULES_TEXT: dict[int, tuple[Rules, tuple[tuple[str, str], ...]]] = {}


def _rules_text(rules: Rules) -> tuple[tuple[str, str], ...]:
    """The rule options in force that differ from the defaults (memoised)."""
    hit = _RULES_TEXT.get(id(rules))
    if hit is not None and hit[0] is rules:
        return hit[1]
    text = _rules_text_of(rules)
    if len(_RULES_TEXT) > 64:
        _RULES_TEXT.clear()
    _RULES_TEXT[id(rules)] = (rules, text)
    return text


_LAYOUT_KEYS = frozenset({"table", "width", "height", "inns", "outposts"})


def _rules_text_of(rules: Rules) -> tuple[tuple[str, str], ...]:
    defaults = Options()
    out = []
    for key in Options.model_fields:
        if not hasattr(rules, key) or key in _LAYOUT_KEYS:
            continue  # the table's layout is in the view itself
        value = getattr(rules, key)
        if value != getattr(defaults, key):
            out.append((key, str(value).lower() if isinstance(value, bool) else str(value)))
    return tuple(out)


def _sides(n: int) -> tuple[str, ...]:
    return {2: ("W", "E"), 3: ("W", "N", "E")}.get(n, ("W", "N", "E", "S"))
