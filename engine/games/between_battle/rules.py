"""Between Battle's rules: the :class:`BetweenBattle` game (setup, who decides,
legal actions, apply, the turn, damage and the end, views)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache

from ... import rng
from ...core import Decision, Event, Game, GameInfo, GameOptions, Outcome, Seat
from ...core import evolve as replace
from ...errors import BadOptions, GameOver, IllegalAction, NotYourTurn
from ...text import Msg
from . import abilities, legality, sampling, text
from .actions import (
    Action,
    GivePile,
    Link,
    Pick,
    Play,
    Pull,
    TakeDamage,
    Target,
    Tutor,
    format_action,
    parse_action,
)
from .board import (
    Draft,
    damage_chooser,
    deck_ability,
    deck_by_character,
    deck_tables,
    draft_of,
    draw_to,
    next_seat,
    opponents,
    pile_value,
    plain,
    remove_one,
    set_pile,
    set_player,
    sort_key,
)
from .data import GAME_ID, deck_file
from .model import Deck, Options, Player, PlayerView, Rules, State, View


@cache
def _decks(hp_variant: str) -> tuple[Deck, ...]:
    """The decks a new game copies into its state, built once per HP variant
    (a shared tuple: states are immutable, and the decks' lookup tables are
    memoised by its identity)."""
    return tuple(
        Deck(
            character=c.id,
            code=c.code,
            hp=c.hp_asymmetric if hp_variant == "asymmetric" else c.hp,
            special=c.special,
            unique=c.unique,
            cards=tuple("X" if card.value is None else str(card.value) for card in c.cards),
            kinds=tuple(card.kind for card in c.cards),
        )
        for c in deck_file().characters
    )


class BetweenBattle(Game[State, Action, View]):
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
    max_actions = 3000
    coverage_events = frozenset(
        {
            "pick",
            "play",
            "link",
            "joker-pull",
            "discard",
            "draw",
            "lock",
            "extra-turn",
            "tutor",
            "steal-top",
            "cancel",
            "reveal",
            "ability-cancelled",
            "damage",
            "eliminated",
            "coup-fatal",
            "resign",
            "game-over",
        }
    )
    quick_options = "hp=3"
    conformance_options = (
        "",
        "characters=ninja,cowboy,pirate,chevalier",
        "targeting=choose",
        "link_chain=true joker_depth=2",
        "damage_chooser=taker damage_refill=taker-and-chooser",
        "elimination=last-standing coup_fatal_targets=next exhausted=pass",
        "hp_variant=asymmetric between_rule=inclusive",
        "empty_pile_rule=free lock_beats_empty_pile=false adjacent_tops_free=false",
        "cancel_stops_joker=false cowboy_keeps_link=false hp=4",
        "locked_pile_alone=joker-only adjacent_on_extra_turn=true "
        "damage_with_empty_piles=refused give_empty_pile=true",
    )

    # ---- setup ---------------------------------------------------------
    def setup(self, options: GameOptions, seats: int, seed: int) -> State:
        opts = options if isinstance(options, Options) else self.options(options)
        assert isinstance(opts, Options)
        if not self.info.min_seats <= seats <= self.info.max_seats:
            raise BadOptions(Msg.of("bb-refuse-seats", seats=seats), seats=seats)
        if opts.characters and len(opts.characters) != seats:
            count = len(opts.characters)
            raise BadOptions(
                Msg.of("bb-refuse-characters-count", decks=count, seats=seats), seats=seats
            )
        data = deck_file()
        decks = _decks(opts.hp_variant)
        rules = Rules(
            between_rule=opts.between_rule,
            empty_pile_must=opts.empty_pile_rule == "must-play-there",
            adjacent_tops_free=opts.adjacent_tops_free,
            damage_chooser=opts.damage_chooser,
            damage_refill=opts.damage_refill,
            joker_depth=opts.joker_depth,
            link_chain=opts.link_chain,
            lock_beats_empty_pile=opts.lock_beats_empty_pile,
            coup_fatal_targets=opts.coup_fatal_targets,
            cancel_stops_joker=opts.cancel_stops_joker,
            cowboy_keeps_link=opts.cowboy_keeps_link,
            elimination=opts.elimination,
            targeting=opts.targeting,
            hand_size=data.hand_size,
            decks=decks,
            exhausted=opts.exhausted,
            locked_pile_alone=opts.locked_pile_alone,
            adjacent_on_extra_turn=opts.adjacent_on_extra_turn,
            damage_with_empty_piles=opts.damage_with_empty_piles,
            give_empty_pile=opts.give_empty_pile,
        )
        state = State(
            rules=rules,
            players=tuple(Player(character="", hp=opts.hp or 0) for _ in range(seats)),
            piles=((), ()),
            rng=rng.seed_state(seed, GAME_ID),
            phase="draft",
            active=0,
            decider=0,
        )
        if opts.characters:
            d = draft_of(state)
            for seat, character in enumerate(opts.characters):
                self._assign(d, seat, character)
            self._deal(d, [])
            state = d.freeze()
        return state

    def setup_events(self, state: State) -> tuple[Event, ...]:
        """With preset characters the cards are dealt by ``setup``: the deal
        (each hand to its owner), the first player and the first turn."""
        if state.phase == "draft" or state.turn != 1:
            return ()
        events = [
            Event(
                "deal",
                {"seat": seat, "cards": list(p.hand)},
                to=frozenset({seat}),
                redacted={"seat": seat, "count": len(p.hand)},
            )
            for seat, p in enumerate(state.players)
        ]
        events.append(Event("first-player", {"seat": state.first_player}))
        events.append(
            Event("turn", {"seat": state.active, "turn": 1, "lock": -1, "cancelled": False})
        )
        return tuple(events)

    def _assign(self, d: Draft, seat: Seat, character: str) -> None:
        deck = deck_by_character(d.rules.decks)[character]
        player = d.players[seat]
        hp = player.hp or deck.hp
        set_player(d, seat, replace(player, character=character, hp=hp))

    def _deal(self, d: Draft, events: list[Event]) -> None:
        stream = rng.Stream(d.rng)
        players = []
        size = d.rules.hand_size
        for seat, player in enumerate(d.players):
            deck = deck_by_character(d.rules.decks)[player.character]
            cards = stream.shuffle([deck.code + label for label in deck.cards])
            hand, rest = cards[:size], cards[size:]
            players.append(replace(player, hand=hand, deck=rest))
            events.append(
                Event(
                    "deal",
                    {"seat": seat, "cards": list(hand)},
                    to=frozenset({seat}),
                    redacted={"seat": seat, "count": len(hand)},
                )
            )
        first = stream.below(len(players))
        d.players = tuple(players)
        d.rng = stream.state
        d.first_player = first
        events.append(Event("first-player", {"seat": first}))
        self._start_turn(d, first, events)

    # ---- who decides -----------------------------------------------------
    def seat_count(self, state: State) -> int:
        return len(state.players)

    def pending(self, state: State) -> Mapping[Seat, Decision]:
        phase = state.phase
        if phase == "over":
            return {}
        seat = state.decider
        if phase == "turn":
            lock = state.turn_lock
            params: tuple[tuple[str, str | int], ...] = ()
            if lock >= 0:
                params = (("pile", lock + 1),)
            return {seat: Decision("turn", params)}
        if phase == "choose-pile":
            return {
                seat: Decision(
                    "choose-pile",
                    (("taker", state.active),),
                )
            }
        if phase == "draft":
            return {seat: Decision("draft")}
        if phase == "joker-pull":
            return {
                seat: Decision(
                    "joker-pull",
                    (("pile", state.work_pile + 1),),
                )
            }
        if phase == "tutor":
            return {seat: Decision("tutor")}
        return {
            seat: Decision(
                "target",
                (("ability", state.work_ability),),
            )
        }

    # ---- legal actions -----------------------------------------------------
    def legal_actions(self, state: State, seat: Seat) -> list[Action]:
        """The legal actions (``legality.legal_actions``). The last answer is
        memoised: hosts and bots often ask twice about the same state, and
        states are immutable, so it is safe."""
        memo = self._memo
        if memo[0] is state and memo[1] == seat:
            return list(memo[2])
        actions = legality.legal_actions(state, seat)
        self._memo = (state, seat, tuple(actions))
        return actions

    _memo: tuple[object, int, tuple[Action, ...]] = (None, -1, ())

    def random_action(self, state: State, seat: Seat, rng_state: int) -> tuple[Action, int]:
        """In a turn, one legal action drawn without listing them all
        (``legality.random_turn_action``, uniform); elsewhere the default."""
        if state.phase == "turn" and seat == state.decider:
            return legality.random_turn_action(state, seat, rng_state)
        return super().random_action(state, seat, rng_state)

    # ---- apply ---------------------------------------------------------------
    def apply(self, state: State, seat: Seat, action: Action) -> tuple[State, tuple[Event, ...]]:
        """The action's new state, built in one go: every step edits one
        :class:`~.board.Draft` of ``state``, frozen once at the end."""
        self.check_turn(state, seat)
        refusal = legality.refusal(state, seat, action)
        if refusal is not None:
            raise IllegalAction(text.refusal_text(refusal), action=self.format_action(action))
        events: list[Event] = []
        d = draft_of(state)
        if isinstance(action, Pick):
            self._assign(d, seat, action.character)
            events.append(Event("pick", {"seat": seat, "character": action.character}))
            if all(p.character for p in d.players):
                self._deal(d, events)
            else:
                d.active = d.decider = seat + 1
        elif isinstance(action, Play | Link):
            self._play(d, seat, action, events)
        elif isinstance(action, TakeDamage):
            self._declare_damage(d, seat, events)
        elif isinstance(action, GivePile):
            self._take_pile(d, d.active, d.decider, action.pile, events)
        elif isinstance(action, Pull):
            abilities.pull(d, seat, action.card, events)
            self._maybe_end_turn(d, seat, events)
        elif isinstance(action, Tutor):
            abilities.tutor(d, seat, action.card, events)
            self._maybe_end_turn(d, seat, events)
        elif isinstance(action, Target):
            ability = d.work_ability
            d.work_ability = ""
            d.phase = "turn"
            abilities.resolve(d, seat, ability, d.work_pile, events, action.seat)
            self._maybe_end_turn(d, seat, events)
        return d.freeze(), tuple(events)

    # -- playing a card
    def _play(self, d: Draft, seat: Seat, action: Play | Link, events: list[Event]) -> None:
        rules = d.rules
        player = d.players[seat]
        tables = deck_tables(rules.decks)
        deck = tables[3][player.character]
        card = deck.code + action.card
        hand = remove_one(player.hand, card)
        revealed = remove_one(player.revealed, card) if card in player.revealed else player.revealed
        set_player(d, seat, replace(player, hand=hand, revealed=revealed))
        pile = action.pile
        kind = tables[4][card][1]
        if isinstance(action, Link):
            old = d.piles[pile]
            placed = card + "~" if rules.link_chain else card
            set_pile(d, pile, (placed,))
            d.discard = d.discard + tuple(plain(c) for c in old)
            events.append(
                Event(
                    "link",
                    {
                        "seat": seat,
                        "card": card,
                        "pile": pile,
                        "discarded": [plain(c) for c in old],
                    },
                )
            )
        else:
            placed = card + "~" if kind == "link" else card
            set_pile(d, pile, (*d.piles[pile], placed))
            events.append(Event("play", {"seat": seat, "card": card, "pile": pile}))
        d.last_player = seat
        d.work_pile = pile
        if isinstance(action, Play):
            ability = deck_ability(deck, kind)
            if ability is not None:
                if d.turn_cancelled and (ability != "joker" or rules.cancel_stops_joker):
                    events.append(Event("ability-cancelled", {"seat": seat, "card": card}))
                else:
                    abilities.resolve(d, seat, ability, pile, events)
        self._maybe_end_turn(d, seat, events)

    # -- end of a turn
    def _maybe_end_turn(self, d: Draft, seat: Seat, events: list[Event]) -> None:
        if d.phase != "turn":
            return  # a sub-decision is pending
        player = d.players[seat]
        if not player.hand and not player.deck:
            self._coup_fatal(d, seat, events)
            return
        self._refill_empty_hands(d, events)
        bonus = d.extra_turn
        nxt = seat if bonus else next_seat(d, seat)
        self._start_turn(d, nxt, events, bonus)

    def _refill_empty_hands(self, d: Draft, events: list[Event]) -> None:
        for seat, player in enumerate(d.players):
            if not player.out and not player.hand and player.deck:
                draw_to(d, seat, d.rules.hand_size, events)

    def _start_turn(self, d: Draft, seat: Seat, events: list[Event], bonus: bool = False) -> None:
        player = d.players[seat]
        if not player.hand and not player.deck:
            # Nothing left to play with (the Pirate discarded their last card).
            # The seed has no rule for it: option ``exhausted``.
            if d.rules.exhausted == "pass":
                n = len(d.players)
                for step in range(1, n):
                    s = (seat + step) % n
                    other = d.players[s]
                    if not other.out and (other.hand or other.deck):
                        events.append(Event("turn-passed", {"seat": seat}))
                        d.lock_next = tuple(lk for lk in d.lock_next if lk[0] != seat)
                        d.cancel_next = tuple(c for c in d.cancel_next if c != seat)
                        self._start_turn(d, s, events)
                        return
            ender = d.last_player if d.last_player >= 0 else seat
            self._finish(d, ender, "exhausted", events)
            return
        lock = -1
        locks = []
        for target, pile in d.lock_next:
            if target == seat:
                lock = pile
            else:
                locks.append((target, pile))
        cancelled = seat in d.cancel_next
        d.phase = "turn"
        d.active = d.decider = seat
        d.turn = turn = d.turn + 1
        d.turn_lock = lock
        d.turn_cancelled = cancelled
        d.lock_next = tuple(locks)
        d.cancel_next = tuple(s for s in d.cancel_next if s != seat)
        d.extra_turn = False
        d.bonus_turn = bonus
        events.append(
            Event("turn", {"seat": seat, "turn": turn, "lock": lock, "cancelled": cancelled})
        )

    # -- damage
    def _declare_damage(self, d: Draft, seat: Seat, events: list[Event]) -> None:
        chooser = damage_chooser(d, seat)
        events.append(Event("damage-declared", {"seat": seat, "chooser": chooser}))
        if not d.piles[0] and not d.piles[1]:
            self._take_pile(d, seat, chooser, None, events)
            return
        d.phase = "choose-pile"
        d.decider = chooser

    def _take_pile(
        self, d: Draft, taker: Seat, chooser: Seat, pile: int | None, events: list[Event]
    ) -> None:
        cards: tuple[str, ...] = ()
        if pile is not None:
            cards = tuple(plain(c) for c in d.piles[pile])
            set_pile(d, pile, ())
        victim = d.players[taker]
        victim = replace(victim, damage=victim.damage + cards)
        set_player(d, taker, victim)
        events.append(
            Event(
                "damage",
                {
                    "seat": taker,
                    "pile": pile,
                    "cards": list(cards),
                    "amount": len(cards),
                    "life": victim.life,
                },
            )
        )
        if victim.life <= 0:
            self._eliminate(d, taker, events)
            if d.phase == "over":
                return
        # refill
        for seat, player in enumerate(d.players):
            if player.out:
                continue
            if d.rules.damage_refill == "all" or seat in (taker, chooser):
                draw_to(d, seat, d.rules.hand_size, events)
        nxt = taker if not d.players[taker].out else next_seat(d, taker)
        self._start_turn(d, nxt, events)

    def _eliminate(
        self, d: Draft, seat: Seat, events: list[Event], reason: str = "knockout"
    ) -> None:
        player = d.players[seat]
        set_player(d, seat, replace(player, out=True, hand=(), deck=(), revealed=()))
        d.eliminated = (*d.eliminated, seat)
        d.lock_next = tuple(lk for lk in d.lock_next if lk[0] != seat)
        d.cancel_next = tuple(s for s in d.cancel_next if s != seat)
        events.append(Event("eliminated", {"seat": seat}))
        alive = [s for s, p in enumerate(d.players) if not p.out]
        # « La fin de partie se déclenche lorsqu'un joueur subit des dégâts et que
        # ses points de vie arrivent à zéro »: a death by damage ends the game
        # (elimination=first-death); a resignation alone does not
        first_death = d.rules.elimination == "first-death" and reason == "knockout"
        if len(alive) <= 1 or first_death:
            ender = d.last_player if d.last_player >= 0 else alive[0]
            self._finish(d, ender, reason, events)

    def _coup_fatal(self, d: Draft, seat: Seat, events: list[Event]) -> None:
        victims = [s for s in opponents(d, seat)]
        if d.rules.coup_fatal_targets == "next":
            victims = victims[:1]
        for victim_seat in victims:
            victim = d.players[victim_seat]
            cards = victim.hand + victim.deck
            victim = replace(victim, hand=(), deck=(), revealed=(), damage=victim.damage + cards)
            set_player(d, victim_seat, victim)
            events.append(
                Event(
                    "coup-fatal",
                    {
                        "seat": seat,
                        "target": victim_seat,
                        "amount": len(cards),
                        "cards": sorted(cards),
                        "life": victim.life,
                    },
                )
            )
        self._finish(d, seat, "coup-fatal", events)

    def _finish(self, d: Draft, ender: Seat, reason: str, events: list[Event]) -> None:
        """End the game: the living rank by life left, the ender winning ties."""
        living = [s for s, p in enumerate(d.players) if not p.out]
        groups: dict[int, list[Seat]] = {}
        for s in living:
            groups.setdefault(d.players[s].life, []).append(s)
        ranking: list[tuple[Seat, ...]] = []
        for life in sorted(groups, reverse=True):
            group = groups[life]
            if ender in group and len(group) > 1:
                ranking.append((ender,))
                group = [s for s in group if s != ender]
            ranking.append(tuple(group))
        for s in reversed(d.eliminated):
            ranking.append((s,))
        d.phase = "over"
        d.ranking = tuple(ranking)
        d.end_reason = reason
        d.decider = -1
        events.append(
            Event(
                "game-over",
                {
                    "reason": reason,
                    "ranking": [list(g) for g in ranking],
                    "ender": ender,
                    "life": [p.life for p in d.players],
                },
            )
        )

    def resign(self, state: State, seat: Seat) -> tuple[State, tuple[Event, ...]]:
        """A resigning player is eliminated at once (ranked below everyone
        still playing); with one player left, or ``elimination=first-death``,
        the game ends. If it was their decision, play moves on."""
        if state.phase == "over":
            raise GameOver(Msg.of("core-game-over"))
        if not 0 <= seat < len(state.players) or state.players[seat].out:
            raise NotYourTurn(Msg.of("bb-refuse-not-playing"), seat=seat)
        if state.phase == "draft":
            raise IllegalAction(Msg.of("bb-refuse-resign-draft"), code="resign-draft")
        events: list[Event] = [Event("resign", {"seat": seat})]
        was_deciding = state.decider == seat
        active_left = state.active == seat
        d = draft_of(state)
        if d.last_player == seat:
            d.last_player = -1
        self._eliminate(d, seat, events, "resign")
        if d.phase == "over":
            return d.freeze(), tuple(events)
        if active_left:
            # the resigner's turn (or its damage) is abandoned: the next player plays
            d.phase = "turn"
            d.work_ability = ""
            self._start_turn(d, next_seat(d, seat), events)
        elif was_deciding:
            # they were choosing a damage pile: the next living player chooses
            d.decider = damage_chooser(d, d.active)
        return d.freeze(), tuple(events)

    # ---- outcome & views ---------------------------------------------------
    def outcome(self, state: State) -> Outcome | None:
        if state.phase != "over":
            return None
        return Outcome(
            ranking=state.ranking,
            reason=state.end_reason,
            scores=tuple(p.life for p in state.players),
        )

    def view(self, state: State, seat: Seat | None) -> View:
        players = tuple(
            PlayerView(
                seat=i,
                character=p.character,
                hp=p.hp,
                damage=len(p.damage),
                life=p.life,
                hand_count=len(p.hand),
                deck_count=len(p.deck),
                hand=tuple(sorted(p.hand, key=sort_key)) if i == seat else None,
                revealed=tuple(sorted(p.revealed, key=sort_key)),
                out=p.out,
            )
            for i, p in enumerate(state.players)
        )
        choices: tuple[str, ...] = ()
        if seat is not None:
            choices = tuple(self.format_action(a) for a in self.legal_actions(state, seat))
        return View(
            observer=seat,
            phase=state.phase,
            turn=state.turn,
            active=state.active,
            pending=tuple((s, d.kind) for s, d in self.pending(state).items()),
            players=players,
            piles=state.piles,
            pile_values=(pile_value(state.piles[0]), pile_value(state.piles[1])),
            discard=state.discard,
            lock_next=state.lock_next,
            cancel_next=state.cancel_next,
            turn_lock=state.turn_lock,
            turn_cancelled=state.turn_cancelled,
            work_pile=state.work_pile,
            choices=choices,
            ranking=state.ranking,
            end_reason=state.end_reason,
            decks=state.rules.decks,
            hand_size=state.rules.hand_size,
            between_rule=state.rules.between_rule,
            adjacent_tops_free=state.rules.adjacent_tops_free,
            empty_pile_must=state.rules.empty_pile_must,
            work_ability=state.work_ability,
            last_player=state.last_player,
            first_player=state.first_player,
            eliminated=state.eliminated,
            rules=state.rules,
            bonus_turn=state.bonus_turn,
            free_play=legality.free_play(state),
        )

    def determinize(self, state: State, seat: Seat | None, seed: int) -> State:
        return sampling.determinize(state, seat, seed)

    def sample_state(self, view: View, seed: int) -> State:
        return sampling.sample_state(view, seed)

    def rules_details(self) -> Msg:
        return text.character_sheet()

    # ---- notation ----------------------------------------------------------
    def format_action(self, action: Action) -> str:
        return format_action(action)

    def parse_action(self, text: str) -> Action:
        return parse_action(text)

    # ---- texts ---------------------------------------------------------------
    def describe_action(self, state: State, seat: Seat, action: Action) -> Msg:
        return text.describe_action(state, seat, action)

    def decision_text(self, decision: Decision, names: Sequence[str] = ()) -> Msg:
        return text.decision_text(decision, names)

    def describe_event(self, event: Event, names: Sequence[str]) -> Msg | None:
        return text.describe_event(event, names)

    def summary(self, view: View, names: Sequence[str]) -> Msg:
        return text.summary(view, names)


GAME = BetweenBattle()
