"""The Belle Position game object: the engine contract (setup, pending, legal actions,
apply, view, outcome...), each method delegating to the modules of this package."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ... import rng
from ...core import Decision, Event, Game, GameInfo, GameOptions, Outcome, Seat
from ...core import evolve as replace
from ...errors import BadOptions, GameOver, NotYourTurn
from ...text import Msg
from .actions import Action, Done, Fire, Loss, Move, Play, format_action, parse_action
from .board import card_index
from .changes import _eliminate, _finish
from .combat import _apply_fire, _distribute, _give_loss
from .data import (
    GAME_ID,
    LETTERS,
    PILE,
    RESERVE,
    army_text,
    card_file,
    catalog,
    pack_type,
    type_def,
)
from .legal import _drawn, _offered, legal_actions, pending
from .legality import refusal
from .model import Army, Card, Options, Rules, State, View, army_of
from .movement import random_movement_action
from .sampling import determinize, sample_state
from .text import decision_text, describe_action, describe_event, summary
from .turns import _apply_deploy, _end_movement, _enter_movement, _move, _play, _run_cohesion
from .view import build_view


class BellePosition(Game[State, Action, View]):
    info = GameInfo(
        id=GAME_ID,
        min_seats=2,
        max_seats=2,
        options_model=Options,
        hidden_information=True,
        chance=True,
        simultaneous=True,
    )
    quick_options = "turn_limit=2"
    state_type = State
    schema_version = 1
    max_actions = 6000
    conformance_games = 500
    coverage_events = frozenset(
        {
            "deploy",
            "undo",
            "ready",
            "deployed",
            "first-player",
            "turn",
            "cohesion",
            "general-test",
            "disorganisation",
            "to-reserve",
            "melee",
            "long-range",
            "counter-battery",
            "flank-attack",
            "loss",
            "eliminated",
            "move",
            "general",
            "conquered",
            "recovered",
            "reinforcement",
            "no-reinforcement",
            "resign",
            "game-over",
            *(f"reveal:{u.id}" for u in card_file().units),
            *(f"terrain:{t.id}" for t in card_file().terrain),
            *(f"special:{x.id}" for x in card_file().specials),
        }
    )
    conformance_options = (
        "turn_limit=3 budget_mode=total",
        "french=infanterie-de-la-garde*2,fusiliers-marins*2,infanterie-de-marche*3,"
        "gardes-pontificaux*2,artillerie-de-la-garde-ml*2,lanciers-uhlans,mitrailleuses,"
        "bourbaki,faidherbe,general-de-brigade,bois*2,retranchements*2,marche-forcee,"
        "ralliement flank_attack=true light_cavalry=true turn_limit=4 "
        "counter_battery_range=opposite forced_march=any long_range_hill=true",
        "german=garde-prussienne*2,jagers-prussiens*2,landwehr*3,artillerie-legere-bl*2,"
        "cuirassiers*2,kronprinz-friedrich,steinmetz,generalmajor,hauteur,bourg*2,"
        "ralliement*2 budget=250 overflow=disorganise counter_battery=spread turn_limit=4 "
        "long_range_losses=face-up terrain_placement=own",
        "french=ligne-francaise*6,garde-mobile*4,francs-tireurs*2,artillerie-legere-ml,"
        "mitrailleuses,hussards-chasseurs,general-de-brigade,hauteur,marche-forcee "
        "german=landwehr*6,ligne-autres-etats*4,infanterie-de-reserve*3,"
        "artillerie-de-reserve-bl,dragons,generalmajor,bois,ralliement "
        "french_seat=2 artillery_moves=one general_sixes=melee entrenchment_stacks=true "
        "long_range_terrain=none no_units_loses=false flank_attack=true turn_limit=3",
        "german=garde-prussienne*2,jagers-prussiens*2,landwehr*3,artillerie-legere-bl*2,"
        "cuirassiers*2,kronprinz-friedrich,steinmetz,generalmajor,hauteur,bourg*2,"
        "ralliement*2 budget=250 ralliement_timing=failure turn_limit=4",
    )

    # ---- setup ---------------------------------------------------------
    def setup(self, options: GameOptions, seats: int, seed: int) -> State:
        opts = options if isinstance(options, Options) else self.options(options)
        assert isinstance(opts, Options)
        if seats != 2:
            raise BadOptions(Msg.of("bp-refuse-seats", seats=seats), seats=seats)
        data = card_file()
        sides = ("french", "german") if opts.french_seat == 1 else ("german", "french")
        entries = {side: army_of(opts, side) for side in sides}
        used: list[str] = []
        for side in sides:
            for tid, _ in entries[side]:
                if tid not in used:
                    used.append(tid)
        order = catalog().order
        used.sort(key=lambda tid: (order.get(tid, 10_000), tid))
        rules = Rules(
            budget=opts.budget,
            grouping=data.grouping,
            flank_attack=opts.flank_attack,
            light_cavalry=opts.light_cavalry,
            light_cavalry_units=opts.light_cavalry_units,
            artillery_moves=opts.artillery_moves,
            overflow=opts.overflow,
            no_units_loses=opts.no_units_loses,
            counter_battery=opts.counter_battery,
            general_sixes=opts.general_sixes,
            entrenchment_stacks=opts.entrenchment_stacks,
            long_range_terrain=opts.long_range_terrain,
            turn_limit=opts.turn_limit,
            table=tuple(pack_type(type_def(tid)) for tid in used),
            long_range_losses=opts.long_range_losses,
            counter_battery_range=opts.counter_battery_range,
            terrain_placement=opts.terrain_placement,
            long_range_hill=opts.long_range_hill,
            forced_march=opts.forced_march,
            ralliement_timing=opts.ralliement_timing,
        )
        stream = rng.Stream(rng.seed_state(seed, GAME_ID))
        armies = []
        for side in sides:
            deck = [tid for tid, n in entries[side] for _ in range(n)]
            shuffled = stream.shuffle(deck)
            letter = LETTERS[side]
            cards = tuple(
                Card(uid=f"{letter}{i + 1}", type=tid, loc=RESERVE if i < data.deal else PILE)
                for i, tid in enumerate(shuffled)
            )
            points = sum(type_def(tid).points for tid in deck)
            armies.append(
                Army(
                    side=side,
                    letter=letter,
                    cards=cards,
                    pile=tuple(range(data.deal, len(cards))),
                    points=points,
                    text=army_text(entries[side]),
                )
            )
        return State(rules=rules, armies=(armies[0], armies[1]), rng=stream.state, phase="deploy")

    def setup_events(self, state: State) -> tuple[Event, ...]:
        """The two armies (public: they are lobby options) and each seat's
        deal (its cards to itself, a count to the others)."""
        events = []
        for seat, army in enumerate(state.armies):
            events.append(
                Event(
                    "army",
                    {
                        "seat": seat,
                        "side": army.side,
                        "points": army.points,
                        "cards": len(army.cards),
                        "list": army.text,
                    },
                )
            )
        for seat, army in enumerate(state.armies):
            hand = [[c.uid, c.type] for c in army.cards if c.loc == RESERVE]
            events.append(
                Event(
                    "deal",
                    {"seat": seat, "cards": hand, "pile": len(army.pile)},
                    to=frozenset({seat}),
                    redacted={"seat": seat, "count": len(hand), "pile": len(army.pile)},
                )
            )
        return tuple(events)

    # ---- who decides -----------------------------------------------------
    def seat_count(self, state: State) -> int:
        return 2

    def pending(self, state: State) -> Mapping[Seat, Decision]:
        return pending(state)

    # ---- legal actions -----------------------------------------------------
    def legal_actions(self, state: State, seat: Seat) -> list[Action]:
        return legal_actions(state, seat)

    def random_action(self, state: State, seat: Seat, rng_state: int) -> tuple[Action, int]:
        """The movement phase (most of a game) draws a move without listing
        them all (:func:`movement.random_movement_action`, uniform over the
        legal actions); the other phases list and pick."""
        if state.phase == "movement" and seat == state.active:
            action, rng_state = random_movement_action(state, rng_state)
            _drawn(state, seat, action)
            return action, rng_state
        return super().random_action(state, seat, rng_state)

    # ---- apply ---------------------------------------------------------------
    def apply(self, state: State, seat: Seat, action: Action) -> tuple[State, tuple[Event, ...]]:
        self.check_turn(state, seat)
        if not _offered(state, seat, action):
            refused = refusal(state, seat, action)
            if refused is not None:
                raise refused
        events: list[Event] = []
        phase = state.phase
        if phase == "deploy":
            state = _apply_deploy(state, seat, action, events)
        elif isinstance(action, Done):
            if phase == "rally" and state.rules.ralliement_timing == "failure":
                # the unit that failed its test routs; the other tests go on
                failed = card_index(state.last_tests[-1].card)
                state = _eliminate(state, seat, failed, "rout", events)
                state = _run_cohesion(state, events, resume=True)
            elif phase == "rally":
                state = _run_cohesion(state, events)
            elif phase == "combat":
                state = _enter_movement(state, events)
            else:
                state = _end_movement(state, events)
        elif isinstance(action, Fire):
            state = _apply_fire(state, seat, action, events)
        elif isinstance(action, Loss):
            state = _give_loss(state, seat, card_index(action.card), events)
            alloc = state.alloc
            assert alloc is not None
            state = replace(state, alloc=replace(alloc, hits=alloc.hits - 1))
            state = _distribute(state, events)
        elif isinstance(action, Move):
            state = _move(state, seat, action, events)
        elif isinstance(action, Play):
            state = _play(state, seat, action, events)
        return state, tuple(events)

    # ---- resignation, outcome ----------------------------------------------
    def resign(self, state: State, seat: Seat) -> tuple[State, tuple[Event, ...]]:
        """The resigning player loses at once (possible during deployment too)."""
        if state.phase == "over":
            raise GameOver(Msg.of("core-game-over"))
        if seat not in (0, 1):
            raise NotYourTurn(Msg.of("bp-refuse-not-playing"), seat=seat)
        events: list[Event] = [Event("resign", {"seat": seat})]
        state = _finish(state, 1 - seat, "resign", events)
        return state, tuple(events)

    def outcome(self, state: State) -> Outcome | None:
        if state.phase != "over":
            return None
        return Outcome(ranking=state.ranking, reason=state.end_reason)

    # ---- views ---------------------------------------------------------------

    def view(self, state: State, seat: Seat | None) -> View:
        return build_view(state, seat)

    # ---- hidden information ----------------------------------------------------
    def determinize(self, state: State, seat: Seat | None, seed: int) -> State:
        return determinize(state, seat, seed)

    def sample_state(self, view: View, seed: int) -> State:
        return sample_state(view, seed)

    # ---- notation ------------------------------------------------------------
    def format_action(self, action: Action) -> str:
        return format_action(action)

    def parse_action(self, text: str) -> Action:
        return parse_action(text)

    # ---- texts -----------------------------------------------------------------

    def describe_action(self, state: State, seat: Seat, action: Action) -> Msg:
        return describe_action(state, seat, action)

    def decision_text(self, decision: Decision, names: Sequence[str] = ()) -> Msg:
        return decision_text(decision, names)

    def describe_event(self, event: Event, names: Sequence[str]) -> Msg | None:
        return describe_event(event, names)

    def summary(self, view: View, names: Sequence[str]) -> Msg:
        return summary(view, names)


GAME = BellePosition()
