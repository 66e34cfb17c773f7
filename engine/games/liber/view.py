"""What a seat (or a spectator) sees: everything but the other hands and
the order of the decks."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ...core import Seat
from .actions import loc_text
from .board import card_of, find_uid, force, income, max_pv, pieces, reserves
from .model import LINES, CombatView, PieceView, SideView, State, View

_Sources = tuple[object, str, object]
_PIECES: dict[tuple[int, int, str, int], tuple[_Sources, tuple[PieceView, ...]]] = {}


def piece_views(state: State, seat: Seat) -> tuple[PieceView, ...]:
    """A battlefield's pieces as seen (memoised: views of states that differ
    only in hidden cards share their battlefields)."""
    player = state.players[seat]
    key = (id(player.lines), state.active, state.phase, id(state.cards))
    hit = _PIECES.get(key)
    if hit is not None:
        lines, god, cards = hit[0]
        if lines is player.lines and god == player.god and cards is state.cards:
            return hit[1]
    found = _piece_views(state, seat)
    if len(_PIECES) > 512:
        _PIECES.clear()
    _PIECES[key] = ((player.lines, player.god, state.cards), found)
    return found


def _piece_views(state: State, seat: Seat) -> tuple[PieceView, ...]:
    out = []
    for ref, p in pieces(state, seat):
        fights = not p.fixture
        out.append(
            PieceView(
                uid=p.uid,
                card=p.card,
                owner=p.owner,
                place=f"{LINES[ref[1]]}{ref[2] + 1}",
                fixture=p.fixture,
                general=p.general,
                force=force(state, ref, p) if fights else 0,
                pv=max_pv(state, ref, p) if fights else 0,
                damage=p.damage,
                sick=p.sick,
                poisoned=p.poisoned_by >= 0,
                paralysed=p.paralysed,
                countered=p.countered,
                attacks=p.attacks,
                equipment=p.equipment,
                keywords=card_of(state, p.card).keywords,
                moved=p.moved,
                used=p.used,
                bonus=p.bonus,
                heal_at_end=p.heal_at_end,
                poisoned_by=p.poisoned_by,
                paralysed_since=p.paralysed_since,
                poison_scores=p.poison_scores,
            )
        )
    return tuple(out)


def _place(state: State, uid: int) -> tuple[Seat, str]:
    ref = find_uid(state, uid)
    if ref is None:
        return (-1, "")
    return ref[0], loc_text((ref[1], ref[2]))


def make_view(
    state: State,
    seat: Seat | None,
    pending: Sequence[tuple[Seat, str]],
    choices: Callable[[], tuple[str, ...]],
) -> View:
    sides = tuple(
        SideView(
            seat=i,
            deck_name=p.deck_name,
            general=p.general,
            pieces=piece_views(state, i),
            god=p.god,
            gold=p.gold,
            faith=p.faith,
            vp=p.vp,
            reserves=reserves(state, i),
            income=income(state, i),
            hand_count=len(p.hand),
            deck_count=len(p.deck),
            graveyard=p.graveyard,
            out=p.out,
            used=p.used,
            decklist=p.decklist,
        )
        for i, p in enumerate(state.players)
    )
    combat = None
    c = state.combat
    if c is not None:
        targets = []
        for strike in c.strikes:
            s, place = _place(state, strike.uid)
            targets.append((s, place, strike.share))
        combat = CombatView(
            seat=c.seat,
            attacker=_place(state, c.attacker)[1],
            targets=tuple(targets),
            blocker=_place(state, c.blocker)[1] if c.blocker >= 0 else "",
        )
    return View(
        observer=seat,
        turn=state.turn,
        active=state.active,
        phase=state.phase,
        first_round=state.first_round,
        sides=sides,
        hand=state.players[seat].hand if seat is not None else None,
        pending=tuple(pending),
        window=state.window.kind if state.window is not None else "",
        combat=combat,
        choices=choices() if seat is not None else (),
        ranking=state.ranking,
        end_reason=state.end_reason,
        hand_limit=state.rules.hand_limit,
        faith_to_win=state.rules.faith_to_win,
        vp_to_win=state.rules.vp_to_win,
        gold_to_win=state.rules.gold_to_win,
        rules=state.rules,
        cards=state.cards,
        state_window=state.window,
        state_windows=state.windows,
        state_combat=state.combat,
        next_uid=state.next_uid,
        discard_to=state.discard_to,
    )
