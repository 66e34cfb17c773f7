"""The :class:`ViaBelli` game: the contract of :class:`engine.core.Game`, each
method a thin wrapper over the modules of this package."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType

from ... import codec_legacy
from ...core import Decision, Event, Game, GameInfo, GameOptions, MenuStep, Outcome, Seat
from ...errors import BadOptions, GameOver, IllegalAction, NotYourTurn
from ...text import Msg
from . import menu, sampling, start, text, turns
from . import view as views
from .actions import Action, Cancel, format_action, parse_action
from .board import board_of
from .checks import refusal
from .data import GAME_ID
from .geometry import Cell
from .legal import _legal, move_places, summon_spots
from .model import Options, State, View, _back
from .play import _shortcut, _step
from .randomplay import random_step


class _LegalSet:
    """The legal actions of a position, and a membership test that is quick
    for the very objects listed (what bots and playouts pass back): by
    identity first, by value (hashing every action) only when needed."""

    __slots__ = ("_values", "actions", "ids")

    def __init__(self, actions: tuple[Action, ...]) -> None:
        self.actions = actions
        self.ids = frozenset(map(id, actions))  # the tuple keeps the objects alive
        self._values: frozenset[Action] | None = None

    def has(self, action: Action) -> bool:
        if id(action) in self.ids:
            return True
        if self._values is None:
            self._values = frozenset(self.actions)
        return action in self._values


_NO_LEGAL = _LegalSet(())


class ViaBelli(Game[State, Action, View]):
    info = GameInfo(
        id=GAME_ID,
        min_seats=2,
        max_seats=4,
        options_model=Options,
        hidden_information=True,
        chance=True,
        simultaneous=False,
    )  # its name and summary: game-via-belli-name / -summary in i18n/locales/*/via_belli.po
    quick_options = "table=gueridon"
    state_type = State
    schema_version = 2  # 1: the compact format, read by codec_legacy.read_via_belli_v1
    legacy_readers = MappingProxyType({1: codec_legacy.read_via_belli_v1})
    max_actions = 20_000
    conformance_games = 300
    coverage_events = frozenset(
        {
            "draw",
            "summon",
            "ambush",
            "free-dog",
            "move",
            "recall",
            "attack",
            "ambush-revealed",
            "cut-off",
            "terrain-revealed",
            "control",
            "siege",
            "inn-bonus",
            "conquest",
            "deck-out",
            "eliminated",
            "pa-lost",
            "bard-bonus",
            "squire-bonus",
            "medic-bonus",
            "lancer-free-attack",
            "archer-shot",
            "sorcery",
            "spy",
            "spied",
            "resign",
            "game-over",
        }
    )
    conformance_options = (
        "table=gueridon",
        "table=table_basse",
        "table=standard",
        "table=salle_a_manger",
        "table=carre_4j",
        "table=gueridon reveal_choice=highest-def castle_tie=holds attack_cap=1 lancer_free=turn",
        "table=table_basse cup_layout=random cups=3 dog_chain=true aura_stacking=false",
        "table=gueridon summon_contact=anchor-and-card spy_placement=supplied sorcery_discard=any",
        "table=gueridon spy_contact=unit siege_ambush=hidden reveal_aura=later",
        "table=gueridon spy_placement=supplied spy_contact=unit face_down_aura=true",
        "table=table_basse face_down_aura=true face_down_attack=true",
        "table=gueridon bases_anchor=unengaged face_down_attack=true sorcery_face_down=true "
        "move_path=slide",
        "table=standard terrain_cells=T10,AB24L",
        "table=carre_4j cups=4 inns=1 outposts=2 eliminated_castle=removed eliminated_terrain=kept",
        "width=30 height=24 castle_gap=20 cup_cells=N11 self_cut=true recall_face_down=true",
        "table=gueridon must_spend_pa=false deck_out=immediate siege_failure=no-loss",
        "table=gueridon move_pivot=friendly rotate_in_place=false engaged_may_move=false "
        "initiative_sum=whole-hand initiative_card=return hand_limit=4",
        "table=gueridon terrain_hidden=false inn_relays=true archer_siege=false "
        "enemy_terrain_blocks=true reveal_keeps_bonuses=false hand_limit=6",
    )

    _memo: tuple[object, dict[int, _LegalSet]] = (None, {})
    _drawn: tuple[object, Seat, object] = (None, -1, None)
    """The last action :meth:`random_action` drew, with its state and seat:
    ``apply`` takes that very object without listing the legal actions."""

    # ---- setup ---------------------------------------------------------
    def setup(self, options: GameOptions, seats: int, seed: int) -> State:
        opts = options if isinstance(options, Options) else self.options(options)
        assert isinstance(opts, Options)
        if not self.info.min_seats <= seats <= self.info.max_seats:
            raise BadOptions(Msg.of("vb-refuse-seats", seats=seats), seats=seats)
        return start.setup(opts, seats, seed)

    def setup_events(self, state: State) -> tuple[Event, ...]:
        """The deal (each hand to its owner), the public initiative draw, the
        first player and the first turn."""
        return start.setup_events(state)

    # ---- who decides -----------------------------------------------------
    def seat_count(self, state: State) -> int:
        return len(state.players)

    def pending(self, state: State) -> Mapping[Seat, Decision]:
        return turns.pending(state)

    def check_turn(self, state: State, seat: Seat) -> None:
        """Raise NotYourTurn (or GameOver) unless ``seat`` must decide now."""
        if state.phase == "over":
            raise GameOver(Msg.of("core-game-over"))
        combat = state.combat
        decider = combat.defender if state.phase == "reveal" and combat else state.active
        if seat != decider:
            raise NotYourTurn(Msg.of("core-not-your-turn"), seat=seat)

    # ---- legal actions -----------------------------------------------------
    def legal_actions(self, state: State, seat: Seat) -> list[Action]:
        return list(self._legal_memo(state, seat).actions)

    def _legal_memo(self, state: State, seat: Seat) -> _LegalSet:
        """The legal actions of the last state asked about, by seat (``apply``
        asks again to validate; states are immutable, so it is safe). States
        that share their table and what the seat may do with it (a resampled
        world, a choice made and taken back) share the answer, kept with the
        board."""
        memo = self._memo
        if memo[0] is not state:
            memo = self._memo = (state, {})
        found = memo[1].get(seat)
        if found is not None:
            return found
        hit = _NO_LEGAL
        if state.phase != "over" and (seat == state.active or state.phase == "reveal"):
            player = state.players[seat]
            key = (
                "legal",
                seat,
                state.active,
                state.phase,
                state.pa,
                state.sel_kind,
                state.sel_card,
                state.sel_unit,
                state.sel_via,
                state.combat,
                tuple(sorted(player.hand)),
                any(player.deck),
                tuple(p.discard for p in state.players),
            )
            b = board_of(state)
            cached = b.memo.get(key)
            if cached is None:
                cached = b.memo[key] = _LegalSet(tuple(_legal(state, seat)))
            hit = cached  # type: ignore[assignment]
        memo[1][seat] = hit
        return hit

    def complete_actions(self, state: State, seat: Seat) -> list[Action]:
        """Every complete action the seat may type now (for hosts: autocomplete
        of ``Roturier G11P`` at the turn decision, the spots of a card as ghost
        outlines). At the turn decision: ``D``, ``E`` and every summon, move,
        recall, attack and Sorcier action; at the free-dog decision: the dog
        summons and ``-``; in a step: that step's actions."""
        return menu.complete_actions(self, state, seat)

    def summon_spots(
        self, state: State, seat: Seat, card: str, hidden: bool, anchor: Cell
    ) -> list[tuple[int, int, bool]]:
        """The spots (x, y, landscape) offered once ``Anchor(card, hidden,
        *anchor)`` is chosen: the ``Summon`` actions of the next step, without
        making the step (for bots weighing every complete action)."""
        return summon_spots(state, seat, card, hidden, anchor)

    def move_places(
        self, state: State, seat: Seat, unit: Cell, pivot: Cell
    ) -> list[tuple[int, int, bool]]:
        """The places (x, y, landscape) offered once ``Pivot(*unit, *pivot)``
        is chosen: the ``Move`` actions of the next step, without making it."""
        return move_places(state, seat, unit, pivot)

    def random_action(self, state: State, seat: Seat, rng_state: int) -> tuple[Action, int]:
        """One legal action drawn at random without listing them all: the
        card (or the seat's card to move) first, then its anchor or pivot
        (see :mod:`.randomplay`). Only actions ``legal_actions`` lists."""
        return self.random_step(state, seat, rng_state)

    def random_step(
        self, state: State, seat: Seat, rng_state: int, recall: bool = True
    ) -> tuple[Action, int]:
        """:meth:`random_action`; ``recall=False``: at the move step, a recall
        only when no card can move (the bots' playouts)."""
        found = random_step(state, seat, rng_state, recall)
        if found is None:  # nothing to draw: as the default does (it raises)
            return super().random_action(state, seat, rng_state)
        self._drawn = (state, seat, found[0])
        return found

    def _is_legal(self, state: State, seat: Seat, action: Action) -> bool:
        drawn = self._drawn
        if drawn[0] is state and drawn[2] is action and drawn[1] == seat:
            return True  # drawn by random_action for this very state
        return self._legal_memo(state, seat).has(action)

    # ---- apply ---------------------------------------------------------------
    def apply(self, state: State, seat: Seat, action: Action) -> tuple[State, tuple[Event, ...]]:
        self.check_turn(state, seat)
        events: list[Event] = []
        if self._is_legal(state, seat, action):  # listed: no need to check again
            state = _step(state, seat, action, events)
            return state, tuple(events)
        refused = refusal(state, seat, action)
        if refused is not None:
            raise refused.error(self.format_action(action))
        if isinstance(action, Cancel):  # "-" in a step: back to the decision before it
            return _back(state), ()
        result = _shortcut(state, seat, action)  # a complete action: all its steps
        assert result is not None, f"{self.format_action(action)} passed its check"
        return result

    def refusal(self, state: State, seat: Seat, action: Action) -> IllegalAction | None:
        """None when ``seat`` (the seat deciding now) may play ``action``;
        otherwise the error ``apply`` raises, from the same checks
        (``checks.py``)."""
        refused = refusal(state, seat, action)
        return None if refused is None else refused.error(self.format_action(action))

    def resign(self, state: State, seat: Seat) -> tuple[State, tuple[Event, ...]]:
        """A resigning player is eliminated at once (V22 applies to their
        cards); the game goes on while two or more remain. An attack waiting
        for their reveal is called off (its PA stay spent)."""
        return turns.resign(state, seat)

    # ---- outcome & views ---------------------------------------------------
    def outcome(self, state: State) -> Outcome | None:
        if state.phase != "over":
            return None
        return Outcome(ranking=state.ranking, reason=state.end_reason)

    def view(self, state: State, seat: Seat | None) -> View:
        """What ``seat`` (None: a spectator) sees."""
        return views.view(self, state, seat)

    def determinize(self, state: State, seat: Seat | None, seed: int) -> State:
        """Resample what ``seat`` cannot see (see :func:`sampling.determinize`)."""
        return sampling.determinize(state, seat, seed)

    def sample_state(self, view: View, seed: int) -> State:
        """A state the observer of ``view`` cannot tell apart from the real one
        (see :func:`sampling.sample_state`)."""
        return sampling.sample_state(view, seed)

    # ---- notation ----------------------------------------------------------
    def format_action(self, action: Action) -> str:
        return format_action(action)

    def parse_action(self, text: str) -> Action:
        return parse_action(text)

    # ---- texts ---------------------------------------------------------------
    def decision_text(self, decision: Decision, names: Sequence[str] = ()) -> Msg:
        return text.decision_text(decision, names)

    def describe_action(self, state: State, seat: Seat, action: Action) -> Msg:
        return text.describe_action(state, seat, action)

    def describe_event(self, event: Event, names: Sequence[str]) -> Msg | None:
        return text.describe_event(event, names)

    def summary(self, view: View, names: Sequence[str]) -> Msg:
        return text.summary(view, names)

    # ---- menus for hosts -----------------------------------------------------
    def action_menu(self, state: State, seat: Seat) -> list[tuple[Action, tuple[MenuStep, ...]]]:
        """The actions to pick in steps (see :func:`menu.action_menu`)."""
        return menu.action_menu(self, state, seat)


GAME = ViaBelli()
