"""The table analysed: every card as a rectangle, contacts, supply by seat,
current ATK/DEF, and the per-thread cache of boards."""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from ...core import Seat
from .geometry import LONG, SHORT, Cell, cell_text, geometry
from .model import CardDef, CastleView, Rules, State, TerrainView, Unit, UnitView, View

K_CASTLE, K_TERRAIN, K_UNIT = 0, 1, 2


_TABLES: dict[int, tuple[tuple[CardDef, ...], dict[str, CardDef], dict[str, int]]] = {}


def _tables(
    cards: tuple[CardDef, ...],
) -> tuple[tuple[CardDef, ...], dict[str, CardDef], dict[str, int]]:
    # memoised by the identity of the cards tuple (kept alive in the entry):
    # hashing it on every call would cost more than the lookup saves
    entry = _TABLES.get(id(cards))
    if entry is None or entry[0] is not cards:
        entry = (cards, {c.name: c for c in cards}, {c.name: i for i, c in enumerate(cards)})
        if len(_TABLES) > 64:
            _TABLES.clear()
        _TABLES[id(cards)] = entry
    return entry


def card_table(rules: Rules) -> dict[str, CardDef]:
    """Card definitions by name."""
    return _tables(rules.cards)[1]


def card_order(rules: Rules) -> dict[str, int]:
    """Position of each card in the deck list (the display order)."""
    return _tables(rules.cards)[2]


@cache
def _blank(width: int, height: int, blocks: tuple[tuple[int, int, int, int], ...]) -> int:
    """The cells of the obstacles."""
    geo = geometry(width, height)
    mask = 0
    for x, y, w, h in blocks:
        mask |= geo.fp(x, y, w, h)
    return mask


@dataclass(slots=True)
class Stats:
    batk: list[int]
    bdef: list[int]
    patk: list[int]
    pdef: list[int]
    satk: list[set[str]]
    sdef: list[set[str]]
    # the part of patk/pdef given by face-down cards (option face_down_aura):
    # secret, so views leave it out; combats count it
    hatk: list[int] | None = None
    hdef: list[int] | None = None


class Side:
    """One seat's supply network on a board."""

    __slots__ = (
        "anchors",
        "crit",
        "cut",
        "inner",
        "member_set",
        "members",
        "needy",
        "parent",
        "relays",
        "ring_wo",
        "seat",
        "sources",
        "supplied",
    )

    def __init__(self, seat: Seat) -> None:
        self.seat = seat
        self.sources: list[int] = []
        self.relays: set[int] = set()
        self.needy: list[int] = []
        self.supplied: set[int] = set()
        self.parent: dict[int, int] = {}
        self.cut: list[int] = []
        self.anchors: list[int] | None = None
        self.crit: set[int] | None = None
        self.inner: set[int] | None = None
        self.members: list[int] = []
        self.member_set: set[int] = set()
        self.ring_wo: dict[int, int] | None = None

    def kept(self) -> Side:
        """This network on a board where the seat's cards, castle and terrain
        are unchanged: everything but the anchors, which depend on enemy
        cards (a shallow copy: nothing here is changed once computed)."""
        out = Side(self.seat)
        out.sources, out.relays, out.needy = self.sources, self.relays, self.needy
        out.supplied, out.parent, out.cut = self.supplied, self.parent, self.cut
        out.crit, out.inner, out.members = self.crit, self.inner, self.members
        out.member_set, out.ring_wo = self.member_set, self.ring_wo
        return out


class Board:
    """A state's table analysed once: every card as a rectangle (castles,
    terrain, units), the grid of which card covers which cell, contacts,
    supply by seat and current ATK/DEF. Shared by the states that share
    their cards (choosing a card does not change the table)."""

    def __init__(self, state: State) -> None:
        rules = state.rules
        W, H = rules.width, rules.height
        self.W, self.H = W, H
        self.state = state
        self.geo = geo = geometry(W, H)
        self.table = card_table(rules)
        X: list[int] = []
        Y: list[int] = []
        Wd: list[int] = []
        Ht: list[int] = []
        kind: list[int] = []
        ref: list[int] = []
        owner: list[int] = []
        self.castle_ci = [-1] * len(state.castles)
        self.terrain_ci = [-1] * len(state.terrain)
        self.unit_ci = [-1] * len(state.units)
        blocks = list(state.cups)
        for seat, c in enumerate(state.castles):
            w, h = (LONG, SHORT) if c.landscape else (SHORT, LONG)
            if c.fallen:
                if rules.eliminated_castle == "obstacle":
                    blocks.append((c.x, c.y, w, h))
                continue
            self.castle_ci[seat] = len(X)
            _add_card(X, Y, Wd, Ht, c.x, c.y, w, h)
            kind.append(K_CASTLE)
            ref.append(seat)
            owner.append(c.owner)
        for i, t in enumerate(state.terrain):
            w, h = (LONG, SHORT) if t.landscape else (SHORT, LONG)
            self.terrain_ci[i] = len(X)
            _add_card(X, Y, Wd, Ht, t.x, t.y, w, h)
            kind.append(K_TERRAIN)
            ref.append(i)
            owner.append(t.controller)
        for i, u in enumerate(state.units):
            w, h = (LONG, SHORT) if u.landscape else (SHORT, LONG)
            self.unit_ci[i] = len(X)
            _add_card(X, Y, Wd, Ht, u.x, u.y, w, h)
            kind.append(K_UNIT)
            ref.append(i)
            owner.append(u.owner)
        self.X, self.Y, self.Wd, self.Ht = X, Y, Wd, Ht
        self.kind, self.ref, self.owner = kind, ref, owner
        self.n = n = len(X)
        occ = _blank(W, H, tuple(blocks))
        fps = []
        for ci in range(n):
            m = geo.fp(X[ci], Y[ci], Wd[ci], Ht[ci])
            fps.append(m)
            occ |= m
        self.corner = {(X[ci], Y[ci]): ci for ci in range(n)}
        self.fps = fps
        self.occ = occ
        self.adj = [self._neighbours(ci) for ci in range(n)]
        self._reset()

    def _reset(self) -> None:
        """Forget everything computed lazily (after a change of the table)."""
        self._sides: dict[int, Side] = {}
        self._stats: Stats | None = None
        self._spied: list[bool] | None = None
        self._rings: list[int] | None = None
        self._attacks: dict[int, dict[int, list[int]]] = {}
        self._any_spot: dict[tuple[int, str], bool] = {}
        self.memo: dict[tuple[object, ...], object] = {}
        self.views: dict[tuple[object, ...], View] = {}
        self._public: PublicParts | None = None

    def _neighbours(self, ci: int) -> tuple[int, ...]:
        """Cards sharing an edge of at least one cell with card ``ci``."""
        ring = self.geo.ring(self.X[ci], self.Y[ci], self.Wd[ci], self.Ht[ci])
        fps = self.fps
        return tuple([c for c in range(self.n) if fps[c] & ring])

    @staticmethod
    def derive(parent: Board, state: State) -> Board | None:
        """The board of ``state`` from that of a state with the same castles
        whose units differ by one card added at the end or one card moved,
        or by cards taken off (the others in the same order), or only by
        flags and terrain control; None when it differs more. The supply
        networks of the seats whose cards and terrain did not change are
        kept (a network reads only its seat's cards, see :meth:`_make_side`);
        everything else computed lazily starts afresh."""
        old = parent.state
        if old.castles is not state.castles or old.rules is not state.rules:
            return None
        if len(old.terrain) != len(state.terrain):
            return None
        if len(state.units) < len(old.units):
            return Board._derive_removal(parent, state)
        found = _unit_changes(old.units, state.units)
        if found is None:
            return None
        changed, touched = found
        board = Board._shell(parent, state, touched)
        rings = parent._rings
        grown = -1  # a summon: the seat whose network may grow by the new card
        if changed:
            grown, rings = board._place_changed(parent, changed[0], touched)
        board._reset()
        board._rings = rings
        for seat, side in parent._sides.items():
            if seat not in touched:
                board._sides[seat] = side.kept()
            elif seat == grown:
                grown_side = board._grown_side(side, board.n - 1)
                if grown_side is not None:
                    board._sides[seat] = grown_side
        return board

    @staticmethod
    def _shell(parent: Board, state: State, touched: set[int]) -> Board:
        """A board of ``state`` sharing the parent's geometry (the caller
        copies what it changes), with the terrain's controllers of ``state``;
        the seats whose terrain changed hands are added to ``touched``."""
        old = parent.state
        board = object.__new__(Board)
        board.W, board.H = parent.W, parent.H
        board.state = state
        board.geo = parent.geo
        board.table = parent.table
        board.castle_ci = parent.castle_ci
        board.terrain_ci = parent.terrain_ci
        board.kind, board.ref = parent.kind, parent.ref
        board.owner = list(parent.owner)
        for ti, t in enumerate(state.terrain):
            was = old.terrain[ti].controller
            if t.controller != was:
                touched.add(t.controller)
                touched.add(was)
            board.owner[parent.terrain_ci[ti]] = t.controller
        board.X, board.Y, board.Wd, board.Ht = parent.X, parent.Y, parent.Wd, parent.Ht
        board.unit_ci, board.n = parent.unit_ci, parent.n
        board.corner, board.fps, board.occ, board.adj = (
            parent.corner,
            parent.fps,
            parent.occ,
            parent.adj,
        )
        return board

    def _place_changed(
        self, parent: Board, ui: int, touched: set[int]
    ) -> tuple[int, list[int] | None]:
        """Unit ``ui`` of this board's state added (the last one) or moved
        since ``parent``: copy what it changes and place it. Returns the seat
        whose network may grow by it (a summon by a seat nothing else
        touched; else -1) and the contact rings carried over."""
        n_old = len(parent.state.units)
        u = self.state.units[ui]
        grown = u.owner if ui == n_old and u.owner not in touched else -1
        touched.add(u.owner)
        w, h = (LONG, SHORT) if u.landscape else (SHORT, LONG)
        self.X, self.Y = list(parent.X), list(parent.Y)
        self.Wd, self.Ht = list(parent.Wd), list(parent.Ht)
        self.fps, self.adj = list(parent.fps), list(parent.adj)
        self.corner = corner = dict(parent.corner)
        occ = parent.occ
        rings = None if parent._rings is None else list(parent._rings)
        if ui == n_old:  # a new card
            ci = self.n
            self.n += 1
            self.unit_ci = [*parent.unit_ci, ci]
            self.kind = [*parent.kind, K_UNIT]
            self.ref = [*parent.ref, ui]
            self.owner.append(u.owner)
            _add_card(self.X, self.Y, self.Wd, self.Ht, u.x, u.y, w, h)
            self.fps.append(0)
            self.adj.append(())
            if rings is not None:
                rings.append(0)
        else:  # a card moved: clear its old place
            ci = parent.unit_ci[ui]
            del corner[parent.X[ci], parent.Y[ci]]
            occ &= ~parent.fps[ci]
            for nb in parent.adj[ci]:
                self.adj[nb] = tuple(c for c in self.adj[nb] if c != ci)
            self.X[ci], self.Y[ci], self.Wd[ci], self.Ht[ci] = u.x, u.y, w, h
        corner[u.x, u.y] = ci
        m = self.geo.fp(u.x, u.y, w, h)
        self.fps[ci] = m
        self.occ = occ | m
        nbs = self._neighbours(ci)
        self.adj[ci] = nbs
        for nb in nbs:
            self.adj[nb] = tuple(sorted((*self.adj[nb], ci)))
        if rings is not None:
            rings[ci] = self.geo.ring(u.x, u.y, w, h)
        return grown, rings

    def _grown_side(self, side: Side, ci: int) -> Side | None:
        """``side`` (the seat's network on the board before) with card ``ci``,
        just summoned, touching exactly one card of the network: the very
        network :meth:`_make_side` finds. The search from the sources meets
        the new card last among that card's neighbours and finds nothing
        through it, so every other card keeps its link; the articulation
        search (:meth:`_articulation`) reaches it from that card only, which
        becomes critical. None when the new card relays nothing (an Espion
        placed freely: the network is unchanged), touches more of the network
        or the network had cut cards."""
        if side.cut or self.exempt(ci):
            return side.kept() if not side.cut and self.exempt(ci) else None
        sources, relays = side.sources, side.relays
        links = [nb for nb in self.adj[ci] if nb in relays or nb in sources]
        if len(links) != 1:
            return None
        link = links[0]
        if link not in side.supplied:
            return None
        out = Side(side.seat)
        out.sources = sources
        out.relays = relays | {ci}
        out.needy = [*side.needy, ci]
        out.supplied = side.supplied | {ci}
        out.parent = {**side.parent, ci: link}
        out.cut = side.cut
        out.members = [*side.members, ci]  # the highest card number: last when sorted
        out.member_set = side.member_set | {ci}
        if side.crit is not None:
            out.crit = side.crit | {link} if self.kind[link] == K_UNIT else side.crit
        if side.inner is not None:
            out.inner = side.inner | {link}
        return out

    @staticmethod
    def _derive_removal(parent: Board, state: State) -> Board | None:
        """:meth:`derive` when cards left the table: the others keep their
        order, place and owner (flags may change). The cards after those
        removed are numbered down; the supply networks start afresh."""
        units, before = state.units, parent.state.units
        gone: set[int] = set()  # indices in ``before``
        j = 0
        for i, b in enumerate(before):
            if j < len(units):
                a = units[j]
                if a is b or (
                    a.x == b.x and a.y == b.y and a.landscape == b.landscape and a.owner == b.owner
                ):
                    j += 1
                    continue
            gone.add(i)
        if j != len(units):
            return None
        old_ci = parent.unit_ci
        removed = {old_ci[i] for i in gone}
        new_of = [-1] * parent.n
        k = 0
        for c in range(parent.n):
            if c not in removed:
                new_of[c] = k
                k += 1
        keep = [c for c in range(parent.n) if c not in removed]
        board = object.__new__(Board)
        board.W, board.H = parent.W, parent.H
        board.state = state
        board.geo = parent.geo
        board.table = parent.table
        board.castle_ci = parent.castle_ci  # castles and terrain come first: unchanged
        board.terrain_ci = parent.terrain_ci
        board.n = k
        base = len(keep) - len(units)
        board.unit_ci = [base + i for i in range(len(units))]
        board.kind = [parent.kind[c] for c in keep]
        board.ref = [parent.ref[c] if parent.kind[c] != K_UNIT else -1 for c in keep]
        for i in range(len(units)):
            board.ref[base + i] = i
        board.owner = [parent.owner[c] for c in keep]
        for ti, t in enumerate(state.terrain):
            board.owner[parent.terrain_ci[ti]] = t.controller
        board.X = [parent.X[c] for c in keep]
        board.Y = [parent.Y[c] for c in keep]
        board.Wd = [parent.Wd[c] for c in keep]
        board.Ht = [parent.Ht[c] for c in keep]
        board.fps = [parent.fps[c] for c in keep]
        occ = parent.occ
        for c in removed:
            occ &= ~parent.fps[c]
        board.occ = occ
        board.corner = {cell: new_of[c] for cell, c in parent.corner.items() if c not in removed}
        board.adj = [tuple([new_of[nb] for nb in parent.adj[c] if nb not in removed]) for c in keep]
        board._reset()
        rings = parent._rings
        if rings is not None:
            board._rings = [rings[c] for c in keep]
        return board

    # ---- basic queries
    def unit(self, ci: int) -> Unit:
        return self.state.units[self.ref[ci]]

    def at(self, cell: Cell) -> int:
        """The card whose top-left cell this is, or -1."""
        return self.corner.get(cell, -1)

    def cell(self, ci: int) -> Cell:
        return self.X[ci], self.Y[ci]

    def tag(self, ci: int) -> str:
        return cell_text(self.X[ci], self.Y[ci])

    def ring(self, ci: int) -> int:
        return self.rings()[ci]

    def rings(self) -> list[int]:
        """Every card's contact ring (see :meth:`Geo.ring`), by card."""
        out = self._rings
        if out is None:
            ring = self.geo.ring
            out = self._rings = [
                ring(x, y, w, h)
                for x, y, w, h in zip(self.X, self.Y, self.Wd, self.Ht, strict=True)
            ]
        return out

    def is_face_up_unit(self, ci: int) -> bool:
        return self.kind[ci] == K_UNIT and self.state.units[self.ref[ci]].face_up

    def ability(self, ci: int) -> str:
        if self.kind[ci] != K_UNIT:
            return ""
        u = self.state.units[self.ref[ci]]
        return self.table[u.name].ability if u.face_up else ""

    def is_enemy(self, ci: int, seat: Seat) -> bool:
        """An enemy unit or castle (terrain is never an enemy card)."""
        return self.kind[ci] != K_TERRAIN and self.owner[ci] != seat

    def free_field(self) -> tuple[int, int]:
        """The fields (see :class:`Geo`) of the free places of this board."""
        hit = self.memo.get(("free",))
        if hit is None:
            hit = self.memo[("free",)] = self.geo.fits(self.occ)
        return hit  # type: ignore[return-value]

    # ---- current values
    def stats(self) -> Stats:
        """Base and bonus ATK/DEF by card, and the abilities giving the bonuses."""
        if self._stats is None:
            state = self.state
            n = self.n
            batk, bdef = [0] * n, [0] * n
            patk, pdef = [0] * n, [0] * n
            satk: list[set[str]] = [set() for _ in range(n)]
            sdef: list[set[str]] = [set() for _ in range(n)]
            spied = self.spied()
            table = self.table
            stacking = state.rules.aura_stacking
            hidden_auras = state.rules.face_down_aura
            hatk: list[int] | None = [0] * n if hidden_auras else None
            hdef: list[int] | None = [0] * n if hidden_auras else None
            seen: set[tuple[int, str]] = set()
            for ci in range(n):
                if self.kind[ci] != K_UNIT:
                    continue
                u = state.units[self.ref[ci]]
                if not u.face_up and not hidden_auras:
                    continue
                cd = table[u.name]
                if u.face_up and not spied[ci]:
                    batk[ci], bdef[ci] = cd.atk, cd.dfn
                if not (cd.aura_atk or cd.aura_def):
                    continue
                for nb in self.adj[ci]:
                    if self.owner[nb] != u.owner:
                        continue
                    k = self.kind[nb]
                    if k == K_TERRAIN or (k == K_UNIT and not state.units[self.ref[nb]].face_up):
                        continue
                    if not stacking:
                        if (nb, cd.name) in seen:
                            continue
                        seen.add((nb, cd.name))
                    if cd.aura_atk:
                        patk[nb] += cd.aura_atk
                        satk[nb].add(cd.ability or "aura")
                        if hatk is not None and not u.face_up:
                            hatk[nb] += cd.aura_atk
                    if cd.aura_def:
                        pdef[nb] += cd.aura_def
                        sdef[nb].add(cd.ability or "aura")
                        if hdef is not None and not u.face_up:
                            hdef[nb] += cd.aura_def
            self._stats = Stats(batk, bdef, patk, pdef, satk, sdef, hatk, hdef)
        return self._stats

    def spied(self) -> list[bool]:
        """Face-up units touched by an enemy face-up Espion."""
        if self._spied is None:
            out = [False] * self.n
            for ci in range(self.n):
                if self.ability(ci) != "spy":
                    continue
                me = self.owner[ci]
                for nb in self.adj[ci]:
                    if (
                        self.kind[nb] == K_UNIT
                        and self.owner[nb] != me
                        and self.is_face_up_unit(nb)
                    ):
                        out[nb] = True
            self._spied = out
        return self._spied

    def atk(self, ci: int) -> int:
        s = self.stats()
        return s.batk[ci] + s.patk[ci]

    def dfn(self, ci: int) -> int:
        s = self.stats()
        return s.bdef[ci] + s.pdef[ci]

    def shown_atk(self, ci: int) -> int:
        """The ATK everyone sees: without the secret auras of face-down cards."""
        s = self.stats()
        return s.batk[ci] + s.patk[ci] - (s.hatk[ci] if s.hatk is not None else 0)

    def shown_dfn(self, ci: int) -> int:
        s = self.stats()
        return s.bdef[ci] + s.pdef[ci] - (s.hdef[ci] if s.hdef is not None else 0)

    # ---- supply
    def exempt(self, ci: int) -> bool:
        """A face-up Espion (needs no supply and relays none, option spy_placement=free)."""
        return self.state.rules.spy_placement == "free" and self.ability(ci) == "spy"

    def side(self, seat: Seat) -> Side:
        side = self._sides.get(seat)
        if side is None:
            side = self._make_side(seat)
            self._sides[seat] = side
        return side

    def _make_side(self, seat: Seat) -> Side:
        state = self.state
        side = Side(seat)
        cc = self.castle_ci[seat]
        if cc >= 0:
            side.sources.append(cc)
        inn_relays = state.rules.inn_relays
        for ti, t in enumerate(state.terrain):
            if t.controller != seat:
                continue
            if t.kind == "outpost":
                side.sources.append(self.terrain_ci[ti])
            elif inn_relays:
                side.relays.add(self.terrain_ci[ti])
        spy_free = state.rules.spy_placement == "free"  # see exempt()
        table, unit_ci = self.table, self.unit_ci
        relays = side.relays
        needy = side.needy
        for ui, u in enumerate(state.units):
            if u.owner != seat:
                continue
            if spy_free and u.face_up and table[u.name].ability == "spy":
                continue
            ci = unit_ci[ui]
            relays.add(ci)
            needy.append(ci)
        supplied = set(side.sources)
        parent = side.parent
        frontier = list(side.sources)
        adj = self.adj
        while frontier:
            nxt = []
            for ci in frontier:
                for nb in adj[ci]:
                    if nb in relays and nb not in supplied:
                        supplied.add(nb)
                        parent[nb] = ci
                        nxt.append(nb)
            frontier = nxt
        side.supplied = supplied
        side.cut = [ci for ci in side.needy if ci not in supplied]
        side.members = [ci for ci in side.sources] + sorted(ci for ci in supplied if ci in relays)
        side.member_set = set(side.members)
        return side

    def reached_without(self, seat: Seat, removed: int) -> set[int]:
        """The seat's network reached from its sources when card ``removed`` is gone."""
        side = self.side(seat)
        relays = side.relays
        seen = set(side.sources)
        frontier = list(side.sources)
        adj = self.adj
        while frontier:
            nxt = []
            for ci in frontier:
                for nb in adj[ci]:
                    if nb != removed and nb in relays and nb not in seen:
                        seen.add(nb)
                        nxt.append(nb)
            frontier = nxt
        return seen

    def may_be_critical(self, seat: Seat, ci: int) -> bool:
        """False for a card no other card is linked through in the supply
        search's tree (a leaf of a spanning tree never cuts it): a cheap
        test before :meth:`critical`."""
        side = self.side(seat)
        if side.inner is None:
            side.inner = set(side.parent.values())
        return ci in side.inner

    def critical(self, seat: Seat) -> set[int]:
        """Units whose removal would cut other cards of the seat off."""
        side = self.side(seat)
        if side.crit is None:
            side.crit = self._articulation(side)
        return side.crit

    def _articulation(self, side: Side) -> set[int]:
        # Tarjan's articulation points from a virtual root joined to every source.
        nodes = side.supplied
        adj = self.adj
        disc: dict[int, int] = {}
        low: dict[int, int] = {}
        crit: set[int] = set()
        counter = 0
        root = -10
        stack: list[tuple[int, int, Iterable[int]]] = []

        def neighbours(ci: int) -> Iterable[int]:
            if ci == root:
                return iter(side.sources)
            return iter([nb for nb in adj[ci] if nb in nodes])

        disc[root] = low[root] = counter
        stack.append((root, -1, neighbours(root)))
        while stack:
            node, par, it = stack[-1]
            advanced = False
            for nb in it:
                if nb == par:
                    continue
                if nb in disc:
                    low[node] = min(low[node], disc[nb])
                    continue
                counter += 1
                disc[nb] = low[nb] = counter
                stack.append((nb, node, neighbours(nb)))
                advanced = True
                break
            if advanced:
                continue
            stack.pop()
            if stack:
                up = stack[-1][0]
                low[up] = min(low[up], low[node])
                if up != root and low[node] >= disc[up]:
                    crit.add(up)
        return {ci for ci in crit if self.kind[ci] == K_UNIT}

    def ring_without(self, seat: Seat, removed: int) -> int:
        """Contact ring of the seat's network (sources and supplied relays)
        without one of its cards."""
        side = self.side(seat)
        if side.ring_wo is None:
            members = side.members
            rings = [self.ring(ci) for ci in members]
            m = len(rings)
            prefix = [0] * (m + 1)
            suffix = [0] * (m + 1)
            for i in range(m):
                prefix[i + 1] = prefix[i] | rings[i]
            for i in range(m - 1, -1, -1):
                suffix[i] = suffix[i + 1] | rings[i]
            side.ring_wo = {ci: prefix[i] | suffix[i + 1] for i, ci in enumerate(members)}
            side.ring_wo[-1] = prefix[m]
        return side.ring_wo.get(removed, side.ring_wo[-1])

    def anchors(self, seat: Seat) -> list[int]:
        """Valid anchors of a summon: the castle, controlled outposts, and
        supplied units touching no enemy unit or castle (V5, V21)."""
        side = self.side(seat)
        if side.anchors is None:
            rules = self.state.rules
            out = list(side.sources)
            if rules.bases_anchor == "unengaged":  # V5 option: bases touching an enemy do not
                out = [ci for ci in out if not any(self.is_enemy(nb, seat) for nb in self.adj[ci])]
            blocks_terrain = rules.enemy_terrain_blocks
            kind, owner, adj = self.kind, self.owner, self.adj
            for ci in sorted(side.supplied):
                if kind[ci] != K_UNIT:
                    continue
                for nb in adj[ci]:
                    o = owner[nb]
                    if o != seat and (
                        kind[nb] != K_TERRAIN or (blocks_terrain and o >= 0)
                    ):  # an enemy card (terrain held by an enemy: option)
                        break
                else:
                    out.append(ci)
            X, Y = self.X, self.Y
            out.sort(key=lambda c: (Y[c], X[c]))
            side.anchors = out
        return side.anchors

    def enemy_ring(self, seat: Seat, units_only: bool = False) -> int:
        mask = 0
        for ci in range(self.n):
            k = self.kind[ci]
            if k == K_TERRAIN or self.owner[ci] == seat:
                continue
            if units_only and k != K_UNIT:
                continue
            mask |= self.ring(ci)
        return mask

    # ---- attacks
    def attack_map(self, seat: Seat) -> dict[int, list[int]]:
        """Enemy cards (units, castles, enemy-held terrain) and the seat's
        face-up units able to attack each (V9, Archer's reach)."""
        out = self._attacks.get(seat)
        if out is not None:
            return out
        state = self.state
        rules = state.rules
        cap = rules.attack_cap
        targets: dict[int, set[int]] = {}

        def enemy_target(ci: int) -> bool:
            k = self.kind[ci]
            if k == K_TERRAIN:
                return self.owner[ci] >= 0 and self.owner[ci] != seat
            return self.owner[ci] != seat

        face_down = rules.face_down_attack
        for ui, u in enumerate(state.units):
            if u.owner != seat or not (u.face_up or face_down):
                continue
            if cap and u.attacks >= cap:
                continue
            ci = self.unit_ci[ui]
            for t in self.adj[ci]:
                if enemy_target(t):
                    targets.setdefault(t, set()).add(ci)
            if u.face_up and self.table[u.name].ability == "archer":
                for ally in self.adj[ci]:
                    if self.owner[ally] != seat or self.kind[ally] == K_TERRAIN:
                        continue
                    for t in self.adj[ally]:
                        if t == ci or not enemy_target(t):
                            continue
                        if self.kind[t] == K_TERRAIN and not rules.archer_siege:
                            continue
                        targets.setdefault(t, set()).add(ci)
        X, Y = self.X, self.Y
        out = {
            t: sorted(a, key=lambda c: (X[c], Y[c]))
            for t, a in sorted(targets.items(), key=lambda kv: (X[kv[0]], Y[kv[0]]))
        }
        self._attacks[seat] = out
        return out


@dataclass(slots=True)
class PublicParts:
    """What every observer sees of a board (face-down cards anonymous)."""

    units: tuple[UnitView, ...]
    castles: tuple[CastleView, ...]
    obstacles: tuple[tuple[int, int, int, int], ...]
    terrain: tuple[TerrainView, ...]
    links: tuple[tuple[Seat, str, str], ...]
    inns: tuple[int, ...]
    outposts: tuple[int, ...]
    unit_counts: tuple[int, ...]


class _BoardCache(threading.local):
    """Each thread's own boards (bots and renders run in worker threads: a
    shared cache would hand one thread's board to another's state)."""

    def __init__(self) -> None:
        self.boards: dict[tuple[int, int, int], tuple[State, Board]] = {}
        self.last: tuple[Any, Any] = (None, None)


_CACHE = _BoardCache()


_BOARDS_KEPT = 16
"""Boards kept (least recently used dropped first): enough for a search to
find its root's board again after a playout. More costs more than it saves:
every board dropped is cold in the processor's caches by then."""


def share_board(state: State, other: State) -> None:
    """Let ``other`` use ``state``'s board: they differ only in what a board
    never reads (names of face-down cards, kinds of face-down terrain)."""
    board = board_of(state)
    key = (id(other.units), id(other.terrain), id(other.castles))
    boards = _CACHE.boards
    if len(boards) >= _BOARDS_KEPT:
        boards.pop(next(iter(boards)))
    boards[key] = (other, board)


def board_of(state: State) -> Board:
    """The analysed table of a state, memoised by the identity of its cards:
    states that differ only by a choice in progress, PA or hands share it
    (a board reads nothing else of its state)."""
    cache = _CACHE
    last, hit = cache.last
    if (
        last is not None
        and last.units is state.units
        and last.terrain is state.terrain
        and last.castles is state.castles
        and last.rules is state.rules
    ):
        board: Board = hit
        return board
    board = _board_of(state)
    cache.last = (state, board)
    return board


def _board_of(state: State) -> Board:
    key = (id(state.units), id(state.terrain), id(state.castles))
    _BOARDS = _CACHE.boards
    hit = _BOARDS.get(key)
    if hit is not None:
        old = hit[0]
        if (
            old.units is state.units
            and old.terrain is state.terrain
            and old.castles is state.castles
            and old.rules is state.rules
        ):
            if next(reversed(_BOARDS)) != key:  # most recently used last
                del _BOARDS[key]
                _BOARDS[key] = hit
            return hit[1]
    board = None
    if _BOARDS:
        recent = _BOARDS[next(reversed(_BOARDS))][1]
        board = Board.derive(recent, state)
    if board is None:
        board = Board(state)
    if len(_BOARDS) >= _BOARDS_KEPT:
        _BOARDS.pop(next(iter(_BOARDS)))
    _BOARDS[key] = (state, board)
    return board


def _add_card(
    X: list[int], Y: list[int], Wd: list[int], Ht: list[int], x: int, y: int, w: int, h: int
) -> None:
    X.append(x)
    Y.append(y)
    Wd.append(w)
    Ht.append(h)


def _unit_changes(
    before: Sequence[Unit], units: Sequence[Unit]
) -> tuple[list[int], set[int]] | None:
    """Between two unit lists (``units`` as long as ``before`` or one card
    longer): the indexes of the cards placed or moved (at most one, else
    None) and the seats whose cards changed in what supply reads (their
    ability: face, name, owner)."""
    n_old = len(before)
    if len(units) == n_old + 1:
        changed = [n_old]
    elif len(units) == n_old:
        changed = []
    else:
        return None
    touched: set[int] = set()
    for i in range(n_old):
        a, b = units[i], before[i]
        if a is not b:
            if a.face_up != b.face_up or a.name != b.name or a.owner != b.owner:
                touched.add(a.owner)  # what supply reads of a card: its ability
                touched.add(b.owner)
            if a.x != b.x or a.y != b.y or a.landscape != b.landscape or a.owner != b.owner:
                changed.append(i)
                if len(changed) > 1:
                    return None
    return changed, touched
