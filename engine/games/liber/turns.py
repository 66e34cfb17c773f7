"""The turn: setup, the draw phase, the phases and their response windows,
the end phase, the next seat, victory and resignation."""

from __future__ import annotations

from ... import rng
from ...core import Event, Seat
from ...core import evolve as replace
from ...errors import BadOptions
from ...text import Msg
from . import combat, effects
from .board import (
    card_of,
    cards_of,
    fighters,
    income,
    living,
    next_living,
    order_from,
    set_piece,
    set_player,
)
from .data import GAME_ID, CardSpec, cards_by_id, decks_by_id
from .deck import DeckError
from .deck import resolve_deck as resolve
from .model import PLACES, Card, Options, Piece, Player, Rules, State, Window

# ---------------------------------------------------------------------------
# Setup
# ---------------------------------------------------------------------------


def resolve_deck(text: str) -> tuple[str, str, tuple[str, ...]]:
    """A deck of ``Options.decks``: a ready-made deck id or a deck code
    (``general:card*n+card*n``): (deck name, general id, the 50 card ids)."""
    name, general, cards = resolve(text)
    return name, general, tuple(cards)


def card_rules(spec: CardSpec) -> Card:
    invoke = spec.keyword("invocateur")
    ravage = spec.keyword("ravage")
    return Card(
        id=spec.id,
        type=spec.type,
        spell=spec.spell or "",
        gold=spec.gold,
        faith=spec.faith,
        vp=spec.vp,
        force=spec.force or 0,
        pv=spec.pv or 0,
        keywords=tuple(k.id for k in spec.keywords),
        invoke_cost=invoke.cost or 0 if invoke is not None else 0,
        invoke_token=invoke.token or "" if invoke is not None else "",
        ravage=(ravage.amount or 3) if ravage is not None else 0,
        effects=tuple((e.kind, e.amount, e.target, e.scope, e.token or "") for e in spec.effects),
    )


def _closure(ids: set[str]) -> tuple[Card, ...]:
    pool = cards_by_id()
    todo = list(ids)
    seen: set[str] = set()
    while todo:
        cid = todo.pop()
        if cid in seen or cid not in pool:
            continue
        seen.add(cid)
        spec = pool[cid]
        todo += [k.token for k in spec.keywords if k.token]
        todo += [e.token for e in spec.effects if e.token]
    return tuple(card_rules(pool[c]) for c in sorted(seen))


def setup(opts: Options, seats: int, seed: int) -> State:
    if not 2 <= seats <= 4:
        raise BadOptions(Msg.of("lb-refuse-seats", seats=seats), seats=seats)
    names = opts.decks or tuple(sorted(decks_by_id()))
    if opts.decks and len(opts.decks) not in (1, seats):
        raise BadOptions(Msg.of("lb-refuse-decks-count", decks=len(opts.decks), seats=seats))
    stream = rng.Stream(rng.seed_state(seed, GAME_ID))
    chosen = []
    for seat in range(seats):
        text = names[seat % len(names)]
        try:
            chosen.append(resolve_deck(text))
        except DeckError as exc:
            raise BadOptions(exc.msg, deck=text) from exc
        except (KeyError, ValueError) as exc:
            raise BadOptions(Msg.of("lb-refuse-deck", deck=text), deck=text) from exc
    pool = cards_by_id()
    used = {g for _, g, _ in chosen} | {c for _, _, cs in chosen for c in cs}
    unknown = sorted(c for c in used if c not in pool)
    if unknown:
        raise BadOptions(Msg.of("lb-refuse-deck", deck=unknown[0]), deck=unknown[0])
    players = []
    uid = 1
    for seat, (name, general, cards) in enumerate(chosen):
        deck = tuple(stream.shuffle(list(cards)))
        gen = Piece(uid=uid, card=general, owner=seat, general=True, sick=False, moved=True)
        uid += 1
        back = tuple(gen if i == PLACES // 2 else None for i in range(PLACES))
        empty: tuple[Piece | None, ...] = (None,) * PLACES
        players.append(
            Player(
                seat=seat,
                deck_name=name,
                general=general,
                lines=(empty, back, empty),
                deck=deck[7:],
                hand=deck[:7],
                decklist=tuple(sorted(cards)),
            )
        )
    rules = Rules(
        line_moves=opts.line_moves,
        first_turn_placement=opts.first_turn_placement,
        counter_limit=opts.counter_limit,
        initiative_kill_prevents_riposte=opts.initiative_kill_prevents_riposte,
        hand_limit=opts.hand_limit,
        vp_cap=opts.vp_cap,
        gold_per_reserve=opts.gold_per_reserve,
        start_reserves=opts.start_reserves,
        faith_to_win=opts.faith_to_win,
        vp_to_win=opts.vp_to_win,
        gold_to_win=opts.gold_to_win,
        multiplayer_end=opts.multiplayer_end,
        impatient_ready=opts.impatient_ready,
    )
    state = State(
        rules=rules,
        cards=_closure(used),
        players=tuple(players),
        rng=stream.state,
        turn=0,
        active=0,
        phase="placement",
        first_round=True,
        next_uid=uid,
    )
    events: list[Event] = []
    return start_turn(state, 0, events)


# ---------------------------------------------------------------------------
# The turn
# ---------------------------------------------------------------------------


def start_turn(state: State, seat: Seat, events: list[Event]) -> State:
    """The draw phase (automatic), then the placement phase."""
    turn = state.turn + 1
    first_round = turn <= len(state.players) and state.first_round
    state = replace(
        state,
        turn=turn,
        active=seat,
        phase="placement",
        first_round=first_round,
        window=None,
        windows=(),
        combat=None,
        discard_to=0,
    )
    state = _reset_flags(state, seat)
    events.append(Event("turn", {"seat": seat, "turn": turn}))
    state = effects.draw(state, seat, 1, events)
    gold = income(state, seat)
    state = effects.gain(state, seat, "gold", gold, events, cause="income")
    state = _poison_ticks(state, seat, events)
    return _favours(state, seat, events)


def _reset_flags(state: State, seat: Seat) -> State:
    """The new turn's flags: the active seat's units lose their summoning
    sickness, attacks, move, used abilities and counter-attack; with
    ``counter_limit=turn`` every other unit its counter-attack. Only the
    pieces that change are copied, and the state once."""
    per_turn = state.rules.counter_limit == "turn"
    players = list(state.players)
    for s, player in enumerate(players):
        if s != seat and not per_turn:
            continue
        mine = s == seat
        lines: list[tuple[Piece | None, ...]] | None = None
        for line, row in enumerate(player.lines):
            new_row: list[Piece | None] | None = None
            for idx, piece in enumerate(row):
                if piece is None or piece.fixture:
                    continue
                if mine:
                    if not (
                        piece.sick or piece.attacks or piece.moved or piece.used or piece.countered
                    ):
                        continue
                    new = replace(
                        piece, sick=False, attacks=0, moved=False, used=(), countered=False
                    )
                elif piece.countered:
                    new = replace(piece, countered=False)
                else:
                    continue
                if new_row is None:
                    new_row = list(row)
                new_row[idx] = new
            if new_row is not None:
                if lines is None:
                    lines = list(player.lines)
                lines[line] = tuple(new_row)
        if lines is not None or (mine and player.used):
            changes: dict[str, object] = {}
            if lines is not None:
                changes["lines"] = (lines[0], lines[1], lines[2])
            if mine and player.used:
                changes["used"] = ()
            players[s] = replace(player, **changes)
    if all(a is b for a, b in zip(players, state.players, strict=True)):
        return state
    return replace(state, players=tuple(players))


def _poison_ticks(state: State, seat: Seat, events: list[Event]) -> State:
    """Empoisonnement: each poisoned unit of the active player loses 1 PV."""
    for ref, piece in list(fighters(state, seat)):
        if piece.poisoned_by >= 0:
            events.append(Event("poison-tick", {"owner": seat, "card": piece.card}))
            state = effects.deal_damage(
                state,
                piece.poisoned_by,
                ref,
                1,
                events,
                source="poison",
                scores=piece.poison_scores,
            )
    return state


def _favours(state: State, seat: Seat, events: list[Event]) -> State:
    """A god's favours arrive at the start of its player's turn."""
    god = state.players[seat].god
    if not god:
        return state
    for kind, amount, _target, _scope, token in card_of(state, god).effects:
        if kind == "favour" and token:
            events.append(Event("favour", {"seat": seat, "card": token}))
            state = effects.make_tokens(state, seat, token, max(1, amount), events)
        elif kind in ("gold", "faith"):
            state = effects.gain(state, seat, kind, amount, events, cause="god")
        elif kind == "draw":
            state = effects.draw(state, seat, amount, events)
    return state


def end_placement(state: State, events: list[Event]) -> State:
    """``next`` in the placement phase: the other players' window, then the
    attack phase (none in the first round)."""
    others = tuple(order_from(state, state.active))
    return open_window(state, "end-placement", others, events)


def end_attack(state: State, events: list[Event]) -> State:
    others = tuple(order_from(state, state.active))
    return open_window(state, "end-attack", others, events)


def enter_end(state: State, events: list[Event]) -> State:
    """The end phase: discard down to the hand limit (a decision only when
    over it), then the end of the turn."""
    state = replace(state, phase="end")
    limit = state.rules.hand_limit
    if len(state.players[state.active].hand) > limit:
        return replace(state, discard_to=limit)
    return finish_turn(state, events)


def discard(state: State, seat: Seat, card: str, events: list[Event]) -> State:
    player = state.players[seat]
    hand = list(player.hand)
    hand.remove(card)
    player = replace(player, hand=tuple(hand), graveyard=(*player.graveyard, card))
    state = set_player(state, seat, player)
    events.append(Event("discard", {"seat": seat, "card": card}))
    if len(player.hand) <= state.discard_to:
        return finish_turn(replace(state, discard_to=0), events)
    return state


def finish_turn(state: State, events: list[Event]) -> State:
    """Soin heals, temporary bonuses end, the paralysis of the active
    player's units ends; the next living seat begins."""
    seat = state.active
    for s in range(len(state.players)):
        for ref, piece in list(fighters(state, s)):
            new = piece
            if piece.heal_at_end:
                state = effects.heal(state, ref, piece.heal_at_end, events)
                healed = state.players[s].lines[ref[1]][ref[2]]
                assert healed is not None
                new = replace(healed, heal_at_end=0)
            if new.bonus:
                new = replace(new, bonus=0)
            if s == seat and new.paralysed and new.paralysed_since < state.turn:
                new = replace(new, paralysed=False)
            if new is not piece and new != piece:
                state = set_piece(state, ref, new)
    if state.phase == "over":
        return state
    return start_turn(state, next_living(state, seat), events)


# ---------------------------------------------------------------------------
# Response windows
# ---------------------------------------------------------------------------


def open_window(state: State, kind: str, seats: tuple[Seat, ...], events: list[Event]) -> State:
    """A response window: the seats that can play something now (their real
    hand, gold, faith and blocks) are decided as it opens and stored in the
    window; the others are skipped without being asked."""
    from .legality import has_reaction

    probe = Window(kind, seats)  # type: ignore[arg-type]
    asked = tuple(s for s in seats if not state.players[s].out and has_reaction(state, s, probe))
    window = Window(kind, asked)  # type: ignore[arg-type]
    if state.window is None:
        state = replace(state, window=window)
        if asked:
            # its first seat has just been found to have a reaction (on this
            # state but for the window): ``advance`` would stop there at once
            return state
    else:
        state = replace(state, windows=(*state.windows, window))
    return advance(state, events)


def advance(state: State, events: list[Event]) -> State:
    """Skip the seats of the open window that have nothing to play (any
    more: an earlier seat's reaction may have taken its target away); close
    windows that have no seat left (and do what follows them)."""
    from .legality import has_reaction

    while state.window is not None and state.phase != "over":
        window = state.window
        if window.seats:
            front = window.seats[0]
            if not state.players[front].out and has_reaction(state, front, window):
                return state
            if window.kind == "reclaim":  # cannot pay: the object goes to the graveyard
                player = state.players[front]
                graveyard = (*player.graveyard, window.card)
                state = set_player(state, front, replace(player, graveyard=graveyard))
            state = replace(state, window=replace(window, seats=window.seats[1:]))
            continue
        queue = state.windows
        state = replace(state, window=queue[0] if queue else None, windows=queue[1:])
        state = _close(state, window, events)
    return state


def _close(state: State, window: Window, events: list[Event]) -> State:
    if window.kind == "attack":
        if state.combat is not None:
            state = combat.resolve(state, events)
    elif window.kind == "end-placement":
        if state.first_round:
            state = enter_end(state, events)
        else:
            state = replace(state, phase="attack")
            events.append(Event("phase", {"seat": state.active, "phase": "attack"}))
    elif window.kind == "end-attack":
        state = enter_end(state, events)
    elif window.kind == "end-turn":  # the active player is out (turns.eliminate)
        state = start_turn(state, next_living(state, state.active), events)
    return state


def leave_window(state: State, seat: Seat, events: list[Event]) -> State:
    """``pass``: the seat leaves the window."""
    window = state.window
    assert window is not None
    events.append(Event("pass", {"seat": seat, "window": window.kind}))
    if window.kind == "reclaim":
        owner = window.seats[0]
        player = state.players[owner]
        state = set_player(
            state, owner, replace(player, graveyard=(*player.graveyard, window.card))
        )
        window = replace(window, seats=())
        queue = state.windows
        state = replace(state, window=queue[0] if queue else None, windows=queue[1:])
        return advance(state, events)
    state = replace(state, window=replace(window, seats=window.seats[1:]))
    return advance(state, events)


def reclaim(state: State, seat: Seat, events: list[Event]) -> State:
    window = state.window
    assert window is not None
    card = window.card
    player = state.players[seat]
    cost = card_of(state, card).gold
    player = replace(player, gold=player.gold - cost, hand=(*player.hand, card))
    state = set_player(state, seat, player)
    events.append(Event("reclaim", {"seat": seat, "card": card, "gold": cost}))
    queue = state.windows
    state = replace(state, window=queue[0] if queue else None, windows=queue[1:])
    return advance(state, events)


# ---------------------------------------------------------------------------
# Victory
# ---------------------------------------------------------------------------


def check_end(state: State, acting: Seat, events: list[Event]) -> State:
    """Victory, after every action, in this order: a general killed, then
    faith, then victory points, then gold; among seats, the acting seat
    first, then turn order."""
    if state.phase == "over":
        return state
    if state.dead_generals:
        state = _generals(state, acting, events)
        if state.phase == "over":
            return state
    rules = state.rules
    order = [acting, *order_from(state, acting)] if not state.players[acting].out else living(state)
    players = state.players
    for seat in order:
        if players[seat].faith >= rules.faith_to_win:
            return _finish(state, seat, "faith", events)
    for seat in order:
        if players[seat].vp >= rules.vp_to_win:
            return _finish(state, seat, "vp", events)
    for seat in order:
        if players[seat].gold >= rules.gold_to_win:
            return _finish(state, seat, "gold", events)
    return state


def _generals(state: State, acting: Seat, events: list[Event]) -> State:
    dead = state.dead_generals
    state = replace(state, dead_generals=())
    multi = len(state.players) > 2  # a 3-4 player match, however many are left
    if not multi or state.rules.multiplayer_end == "first-general":
        victim, killer = dead[0]
        alive = [s for s in living(state) if s not in {v for v, _ in dead}]
        if not alive:  # the last generals fell together: the acting seat's blow came first
            alive = [acting]
        winner = killer if killer in alive else (acting if acting in alive else alive[0])
        fell = tuple(v for v, _ in dead if v != winner)
        for v in fell:
            state = set_player(state, v, replace(state.players[v], out=True))
        if fell:
            state = replace(state, eliminated=(*state.eliminated, fell))
        return _finish(state, winner, "general", events)
    if len(living(state)) == len(dead):  # the last generals fell together
        dead = tuple(d for d in dead if d[0] != acting) or dead[1:]
    before = len(state.eliminated)
    for victim, _killer in dead:
        state = eliminate(state, victim, events)
        if state.phase == "over":
            return state
    # the generals that fell together: their players rank together
    fell = tuple(s for group in state.eliminated[before:] for s in group)
    if fell:
        state = replace(state, eliminated=(*state.eliminated[:before], fell))
    alive = living(state)
    if len(alive) == 1:
        return _finish(state, alive[0], "last-standing", events)
    return state


def eliminate(state: State, seat: Seat, events: list[Event]) -> State:
    """A player leaves (general killed with ``last-standing``, or resigned):
    its battlefield and hand are cleared; play goes on without it."""
    player = state.players[seat]
    empty: tuple[Piece | None, ...] = (None,) * PLACES
    player = replace(player, out=True, lines=(empty, empty, empty), hand=(), god="")
    state = set_player(state, seat, player)
    state = replace(state, eliminated=(*state.eliminated, (seat,)))
    events.append(Event("out", {"seat": seat}))
    alive = living(state)
    if len(alive) <= 1:
        return state
    window = state.window
    if window is not None and seat in window.seats:
        state = replace(
            state, window=replace(window, seats=tuple(s for s in window.seats if s != seat))
        )
    state = replace(
        state,
        windows=tuple(
            replace(w, seats=tuple(s for s in w.seats if s != seat)) for w in state.windows
        ),
    )
    c = state.combat
    if c is not None and any(st.seat == seat for st in c.strikes):
        state = replace(state, combat=None)
    if state.active == seat:
        # its turn ends, once the others have taken back (or not) the
        # objects of their units that died: the reclaims stay open
        queue = (state.window, *state.windows) if state.window is not None else state.windows
        reclaims = tuple(w for w in queue if w.kind == "reclaim" and w.seats)
        if not reclaims:
            return start_turn(state, next_living(state, seat), events)
        ends = Window("end-turn", ())
        state = replace(state, window=reclaims[0], windows=(*reclaims[1:], ends), combat=None)
    return advance(state, events)


def _finish(state: State, winner: Seat, reason: str, events: list[Event]) -> State:
    """The ranking: the winner, the other living players (tied), then the
    players out, the later out ranking higher (out together: tied)."""
    n = len(state.players)
    others = [(winner + k) % n for k in range(1, n)]
    alive = tuple(s for s in others if not state.players[s].out)
    ranking: list[tuple[Seat, ...]] = [(winner,)]
    if alive:
        ranking.append(alive)
    for group in reversed(state.eliminated):
        if any(s != winner for s in group):
            ranking.append(tuple(s for s in others if s in group))
    ranked = {s for group in ranking for s in group}
    out = tuple(s for s in others if s not in ranked)
    if out:
        ranking.append(out)
    state = replace(
        state,
        phase="over",
        ranking=tuple(ranking),
        end_reason=reason,
        window=None,
        windows=(),
        combat=None,
    )
    events.append(
        Event(
            "game-over", {"reason": reason, "winner": winner, "ranking": [list(g) for g in ranking]}
        )
    )
    return state


def resign(state: State, seat: Seat, events: list[Event]) -> State:
    events.append(Event("resign", {"seat": seat}))
    alive = [s for s in living(state) if s != seat]
    if len(alive) == 1:
        state = set_player(state, seat, replace(state.players[seat], out=True))
        state = replace(state, eliminated=(*state.eliminated, (seat,)))
        return _finish(state, alive[0], "resign", events)
    return eliminate(state, seat, events)


__all__ = ["cards_of"]
