"""Chroniques de Liber's :class:`Game`: thin methods over the modules beside it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ...core import Decision, Event, Game, GameInfo, GameOptions, MenuStep, Outcome, Seat
from ...errors import GameOver, IllegalAction, NotYourTurn
from ...text import Msg
from . import combat, legality, play, sampling, text, turns
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
    Use,
    format_action,
    parse_action,
)
from .board import order_from
from .data import GAME_ID, decks_by_id
from .model import Options, State, View
from .view import make_view


class Liber(Game[State, Action, View]):
    info = GameInfo(
        id=GAME_ID,
        min_seats=2,
        max_seats=4,
        options_model=Options,
        hidden_information=True,
        chance=True,
        simultaneous=False,
    )
    state_type = State
    schema_version = 1
    max_actions = 6000
    conformance_games = 1000
    coverage_events = frozenset(
        {
            "turn",
            "draw",
            "gold",
            "faith",
            "play",
            "move",
            "attack",
            "block",
            "strike",
            "kill",
            "poison-tick",
            "poisoned",
            "paralysed",
            "ravage",
            "invoke",
            "token",
            "telekinesis",
            "defausse",
            "soin",
            "heal",
            "general-ability",
            "equip",
            "returned",
            "discard",
            "pass",
            "favour",
            "phase",
            "game-over",
            "resign",
        }
    )
    quick_options = "gold_to_win=25 faith_to_win=6 vp_to_win=15"

    @property
    def conformance_options(self) -> tuple[str, ...]:  # type: ignore[override]
        decks = sorted(decks_by_id())
        return (
            "",
            "faith_to_win=40 vp_to_win=150 gold_to_win=150",
            *(f"decks={d}" for d in decks),
            "line_moves=any counter_limit=cycle multiplayer_end=last-standing",
            "line_moves=none first_turn_placement=anywhere initiative_kill_prevents_riposte=false",
            "vp_cap=false impatient_ready=false hand_limit=5 start_reserves=2",
        )

    # ---- setup and turns --------------------------------------------------
    def setup(self, options: GameOptions, seats: int, seed: int) -> State:
        opts = options if isinstance(options, Options) else self.options(options)
        assert isinstance(opts, Options)
        return turns.setup(opts, seats, seed)

    def seat_count(self, state: State) -> int:
        return len(state.players)

    def pending(self, state: State) -> Mapping[Seat, Decision]:
        if state.phase == "over":
            return {}
        window = state.window
        if window is not None and window.seats:
            seat = window.seats[0]
            ctx = legality.context(state, seat)
            if ctx == "reclaim":
                return {seat: Decision("reclaim", (("card", window.card),), optional=True)}
            if ctx == "loyalty":
                return {seat: Decision("loyalty")}
            return {seat: Decision("react", (("window", window.kind),), optional=True)}
        seat = state.active
        if state.phase == "end":
            n = len(state.players[seat].hand) - state.discard_to
            return {seat: Decision("discard", (("count", n),))}
        return {seat: Decision(state.phase)}

    def legal_actions(self, state: State, seat: Seat) -> list[Action]:
        """The legal actions (``legality.legal_actions``), memoised on what
        they depend on: states that differ only in what the seat cannot see
        (other hands, deck orders) share the answer."""
        key, keep = _legal_key(state, seat)
        hit = _LEGAL.get(key)
        if hit is not None and hit[0] == keep:
            return list(hit[1])
        actions = legality.legal_actions(state, seat)
        if len(_LEGAL) > 512:
            _LEGAL.clear()
        _LEGAL[key] = (keep, tuple(actions))
        return actions

    def random_action(self, state: State, seat: Seat, rng_state: int) -> tuple[Action, int]:
        """In the placement and attack phases and in reaction windows, the
        kind of action first, then its parameters, without listing every
        action (``legality.random_action``); elsewhere the default."""
        drawn = legality.random_action(state, seat, rng_state)
        if drawn is not None:
            return drawn
        return super().random_action(state, seat, rng_state)

    def apply(self, state: State, seat: Seat, action: Action) -> tuple[State, tuple[Event, ...]]:
        self.check_turn(state, seat)
        refusal = legality.check(state, seat, action)
        if refusal is not None:
            raise IllegalAction(refusal, action=self.format_action(action))
        events: list[Event] = []
        state = self._do(state, seat, action, events)
        state = turns.check_end(state, seat, events)
        return state, tuple(events)

    def _do(self, state: State, seat: Seat, action: Action, events: list[Event]) -> State:
        if isinstance(action, Play):
            state = play.play_card(state, seat, action, events)
        elif isinstance(action, Attack):
            targets = tuple(((ref[0], ref[1], ref[2]), n) for ref, n in action.targets)
            state = combat.declare(state, seat, (seat, *action.src), targets, events)
            # each attacked player (Honneur du guerrier: maybe two), in turn order
            attacked = {ref[0] for ref, _ in action.targets}
            defenders = tuple(s for s in order_from(state, seat) if s in attacked)
            return turns.open_window(state, "attack", defenders, events)
        elif isinstance(action, Move):
            state = play.move(state, seat, action, events)
        elif isinstance(action, Use):
            state = play.use(state, seat, action, events)
        elif isinstance(action, General):
            state = play.general(state, seat, action, events)
        elif isinstance(action, Equip):
            state = play.equip(state, seat, action, events)
        elif isinstance(action, Block):
            state = combat.block(state, (seat, *action.place), events)
        elif isinstance(action, Guard):
            state = combat.guard(state, (seat, *action.place), events)
        elif isinstance(action, Pass):
            return turns.leave_window(state, seat, events)
        elif isinstance(action, Reclaim):
            return turns.reclaim(state, seat, events)
        elif isinstance(action, Discard):
            return turns.discard(state, seat, action.card, events)
        elif isinstance(action, Next):
            if state.phase == "placement":
                return turns.end_placement(state, events)
            return turns.end_attack(state, events)
        return turns.advance(state, events)

    def resign(self, state: State, seat: Seat) -> tuple[State, tuple[Event, ...]]:
        if state.phase == "over":
            raise GameOver(Msg.of("core-game-over"))
        if not 0 <= seat < len(state.players) or state.players[seat].out:
            raise NotYourTurn(Msg.of("lb-refuse-not-playing"), seat=seat)
        events: list[Event] = []
        state = turns.resign(state, seat, events)
        return state, tuple(events)

    def outcome(self, state: State) -> Outcome | None:
        if state.phase != "over":
            return None
        return Outcome(
            ranking=state.ranking,
            reason=state.end_reason,
            scores=tuple(p.vp for p in state.players),
        )

    # ---- views -------------------------------------------------------------
    def view(self, state: State, seat: Seat | None) -> View:
        pending = [(s, d.kind) for s, d in self.pending(state).items()]

        def choices() -> tuple[str, ...]:
            assert seat is not None
            return tuple(format_action(a) for a in self.legal_actions(state, seat))

        return make_view(state, seat, pending, choices)

    def determinize(self, state: State, seat: Seat | None, seed: int) -> State:
        return sampling.determinize(state, seat, seed)

    def sample_state(self, view: View, seed: int) -> State:
        return sampling.sample_state(view, seed)

    # ---- notation ------------------------------------------------------------
    def format_action(self, action: Action) -> str:
        return format_action(action)

    def parse_action(self, text: str) -> Action:
        return parse_action(text)

    # ---- texts -----------------------------------------------------------------
    def describe_action(self, state: State, seat: Seat, action: Action) -> Msg:
        return text.describe_action(state, seat, action)

    def action_menu(
        self, state: State, seat: Seat
    ) -> Sequence[tuple[Action, tuple[MenuStep, ...]]]:
        return text.action_menu(state, seat, self.legal_actions(state, seat))

    def decision_text(self, decision: Decision, names: Sequence[str] = ()) -> Msg:
        return text.decision_text(decision, names)

    def describe_event(self, event: Event, names: Sequence[str]) -> Msg | None:
        return text.describe_event(event, names)

    def summary(self, view: View, names: Sequence[str]) -> Msg:
        return text.summary(view, names)

    def rules_details(self) -> Msg:
        return text.rules_details()


_LEGAL: dict[tuple[object, ...], tuple[tuple[object, ...], tuple[Action, ...]]] = {}


def _legal_key(state: State, seat: Seat) -> tuple[tuple[object, ...], tuple[object, ...]]:
    """What a seat's legal actions depend on: the public table (by identity:
    the objects are kept with the answer, so an id is never reused while it
    is cached) and the seat's own hand and counters."""
    me = state.players[seat]
    boards = tuple(p.lines for p in state.players)
    outs = tuple(p.out for p in state.players)
    keep = (state.rules, state.cards, state.window, state.combat, boards)
    key = (
        seat,
        tuple(id(k) for k in keep[:2]),
        state.window,
        state.combat,
        tuple(id(b) for b in boards),
        outs,
        state.turn,
        state.active,
        state.phase,
        state.first_round,
        state.discard_to,
        me.hand,
        me.gold,
        me.faith,
        me.vp,
        me.god,
        me.used,
    )
    return key, keep


GAME = Liber()
