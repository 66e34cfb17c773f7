"""Between Battle's rules: the :class:`BetweenBattle` game (setup, who decides,
legal actions, apply, the turn, damage and the end, views)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

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
    ability_of,
    card_kind,
    code_of,
    damage_chooser,
    deck_by_character,
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
        decks = tuple(
            Deck(
                character=c.id,
                code=c.code,
                hp=c.hp_asymmetric if opts.hp_variant == "asymmetric" else c.hp,
                special=c.special,
                unique=c.unique,
                cards=tuple("X" if card.value is None else str(card.value) for card in c.cards),
                kinds=tuple(card.kind for card in c.cards),
            )
            for c in data.characters
        )
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
            for seat, character in enumerate(opts.characters):
                state = self._assign(state, seat, character)
            state, _ = self._deal(state)
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

    def _assign(self, state: State, seat: Seat, character: str) -> State:
        deck = deck_by_character(state.rules.decks)[character]
        player = state.players[seat]
        hp = player.hp or deck.hp
        players = list(state.players)
        players[seat] = replace(player, character=character, hp=hp)
        return replace(state, players=tuple(players))

    def _deal(self, state: State) -> tuple[State, list[Event]]:
        stream = rng.Stream(state.rng)
        players = []
        events: list[Event] = []
        size = state.rules.hand_size
        for seat, player in enumerate(state.players):
            deck = deck_by_character(state.rules.decks)[player.character]
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
        state = replace(
            state,
            players=tuple(players),
            rng=stream.state,
            first_player=first,
        )
        events.append(Event("first-player", {"seat": first}))
        state, more = self._start_turn(state, first)
        return state, events + more

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

    # ---- apply ---------------------------------------------------------------
    def apply(self, state: State, seat: Seat, action: Action) -> tuple[State, tuple[Event, ...]]:
        self.check_turn(state, seat)
        refusal = legality.refusal(state, seat, action)
        if refusal is not None:
            raise IllegalAction(text.refusal_text(refusal), action=self.format_action(action))
        events: list[Event] = []
        if isinstance(action, Pick):
            state = self._assign(state, seat, action.character)
            events.append(Event("pick", {"seat": seat, "character": action.character}))
            if all(p.character for p in state.players):
                state, more = self._deal(state)
                events += more
            else:
                state = replace(state, active=seat + 1, decider=seat + 1)
        elif isinstance(action, Play | Link):
            state = self._play(state, seat, action, events)
        elif isinstance(action, TakeDamage):
            state = self._declare_damage(state, seat, events)
        elif isinstance(action, GivePile):
            state = self._give_pile(state, action.pile, events)
        elif isinstance(action, Pull):
            state = self._pull(state, seat, action.card, events)
        elif isinstance(action, Tutor):
            state = self._tutor(state, seat, action.card, events)
        elif isinstance(action, Target):
            ability = state.work_ability
            state = replace(state, work_ability="", phase="turn")
            state = abilities.resolve(state, seat, ability, state.work_pile, events, action.seat)
            state = self._maybe_end_turn(state, seat, events)
        return state, tuple(events)

    # -- playing a card
    def _play(self, state: State, seat: Seat, action: Play | Link, events: list[Event]) -> State:
        rules = state.rules
        player = state.players[seat]
        card = code_of(state, seat) + action.card
        hand = remove_one(player.hand, card)
        revealed = remove_one(player.revealed, card) if card in player.revealed else player.revealed
        state = set_player(state, seat, replace(player, hand=hand, revealed=revealed))
        pile = action.pile
        kind = card_kind(rules, card)
        if isinstance(action, Link):
            old = state.piles[pile]
            placed = card + "~" if rules.link_chain else card
            state = set_pile(state, pile, (placed,))
            state = replace(state, discard=state.discard + tuple(plain(c) for c in old))
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
            state = set_pile(state, pile, (*state.piles[pile], placed))
            events.append(Event("play", {"seat": seat, "card": card, "pile": pile}))
        state = replace(state, last_player=seat, work_pile=pile)
        if isinstance(action, Play):
            ability = ability_of(rules, card)
            if ability is not None:
                if state.turn_cancelled and (ability != "joker" or rules.cancel_stops_joker):
                    events.append(Event("ability-cancelled", {"seat": seat, "card": card}))
                else:
                    state = abilities.resolve(state, seat, ability, pile, events)
        return self._maybe_end_turn(state, seat, events)

    def _pull(self, state: State, seat: Seat, card: str, events: list[Event]) -> State:
        return self._maybe_end_turn(abilities.pull(state, seat, card, events), seat, events)

    def _tutor(self, state: State, seat: Seat, label: str, events: list[Event]) -> State:
        return self._maybe_end_turn(abilities.tutor(state, seat, label, events), seat, events)

    # -- end of a turn
    def _maybe_end_turn(self, state: State, seat: Seat, events: list[Event]) -> State:
        if state.phase != "turn":
            return state  # a sub-decision is pending
        player = state.players[seat]
        if not player.hand and not player.deck:
            return self._coup_fatal(state, seat, events)
        state = self._refill_empty_hands(state, events)
        bonus = state.extra_turn
        nxt = seat if bonus else next_seat(state, seat)
        state, more = self._start_turn(state, nxt, bonus)
        events += more
        return state

    def _refill_empty_hands(self, state: State, events: list[Event]) -> State:
        for seat, player in enumerate(state.players):
            if not player.out and not player.hand and player.deck:
                state = draw_to(state, seat, state.rules.hand_size, events)
        return state

    def _start_turn(
        self, state: State, seat: Seat, bonus: bool = False
    ) -> tuple[State, list[Event]]:
        events: list[Event] = []
        player = state.players[seat]
        if not player.hand and not player.deck:
            # Nothing left to play with (the Pirate discarded their last card).
            # The seed has no rule for it: option ``exhausted``.
            if state.rules.exhausted == "pass":
                n = len(state.players)
                for step in range(1, n):
                    s = (seat + step) % n
                    other = state.players[s]
                    if not other.out and (other.hand or other.deck):
                        events.append(Event("turn-passed", {"seat": seat}))
                        state = replace(
                            state,
                            lock_next=tuple(lk for lk in state.lock_next if lk[0] != seat),
                            cancel_next=tuple(c for c in state.cancel_next if c != seat),
                        )
                        state, more = self._start_turn(state, s)
                        return state, events + more
            ender = state.last_player if state.last_player >= 0 else seat
            state = self._finish(state, ender, "exhausted", events)
            return state, events
        lock = -1
        locks = []
        for target, pile in state.lock_next:
            if target == seat:
                lock = pile
            else:
                locks.append((target, pile))
        cancelled = seat in state.cancel_next
        state = replace(
            state,
            phase="turn",
            active=seat,
            decider=seat,
            turn=state.turn + 1,
            turn_lock=lock,
            turn_cancelled=cancelled,
            lock_next=tuple(locks),
            cancel_next=tuple(s for s in state.cancel_next if s != seat),
            extra_turn=False,
            bonus_turn=bonus,
        )
        events.append(
            Event("turn", {"seat": seat, "turn": state.turn, "lock": lock, "cancelled": cancelled})
        )
        return state, events

    # -- damage
    def _declare_damage(self, state: State, seat: Seat, events: list[Event]) -> State:
        chooser = damage_chooser(state, seat)
        events.append(Event("damage-declared", {"seat": seat, "chooser": chooser}))
        if not state.piles[0] and not state.piles[1]:
            return self._take_pile(state, seat, chooser, None, events)
        return replace(state, phase="choose-pile", decider=chooser)

    def _give_pile(self, state: State, pile: int, events: list[Event]) -> State:
        return self._take_pile(state, state.active, state.decider, pile, events)

    def _take_pile(
        self, state: State, taker: Seat, chooser: Seat, pile: int | None, events: list[Event]
    ) -> State:
        cards: tuple[str, ...] = ()
        if pile is not None:
            cards = tuple(plain(c) for c in state.piles[pile])
            state = set_pile(state, pile, ())
        victim = state.players[taker]
        victim = replace(victim, damage=victim.damage + cards)
        state = set_player(state, taker, victim)
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
            state = self._eliminate(state, taker, events)
            if state.phase == "over":
                return state
        # refill
        for seat, player in enumerate(state.players):
            if player.out:
                continue
            if state.rules.damage_refill == "all" or seat in (taker, chooser):
                state = draw_to(state, seat, state.rules.hand_size, events)
        nxt = taker if not state.players[taker].out else next_seat(state, taker)
        state, more = self._start_turn(state, nxt)
        events += more
        return state

    def _eliminate(
        self, state: State, seat: Seat, events: list[Event], reason: str = "knockout"
    ) -> State:
        player = state.players[seat]
        state = set_player(state, seat, replace(player, out=True, hand=(), deck=(), revealed=()))
        state = replace(
            state,
            eliminated=(*state.eliminated, seat),
            lock_next=tuple(lk for lk in state.lock_next if lk[0] != seat),
            cancel_next=tuple(s for s in state.cancel_next if s != seat),
        )
        events.append(Event("eliminated", {"seat": seat}))
        alive = [s for s, p in enumerate(state.players) if not p.out]
        # « La fin de partie se déclenche lorsqu'un joueur subit des dégâts et que
        # ses points de vie arrivent à zéro »: a death by damage ends the game
        # (elimination=first-death); a resignation alone does not
        first_death = state.rules.elimination == "first-death" and reason == "knockout"
        if len(alive) <= 1 or first_death:
            ender = state.last_player if state.last_player >= 0 else alive[0]
            state = self._finish(state, ender, reason, events)
        return state

    def _coup_fatal(self, state: State, seat: Seat, events: list[Event]) -> State:
        victims = [s for s in opponents(state, seat)]
        if state.rules.coup_fatal_targets == "next":
            victims = victims[:1]
        for victim_seat in victims:
            victim = state.players[victim_seat]
            cards = victim.hand + victim.deck
            victim = replace(victim, hand=(), deck=(), revealed=(), damage=victim.damage + cards)
            state = set_player(state, victim_seat, victim)
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
        return self._finish(state, seat, "coup-fatal", events)

    def _finish(self, state: State, ender: Seat, reason: str, events: list[Event]) -> State:
        """End the game: the living rank by life left, the ender winning ties."""
        living = [s for s, p in enumerate(state.players) if not p.out]
        groups: dict[int, list[Seat]] = {}
        for s in living:
            groups.setdefault(state.players[s].life, []).append(s)
        ranking: list[tuple[Seat, ...]] = []
        for life in sorted(groups, reverse=True):
            group = groups[life]
            if ender in group and len(group) > 1:
                ranking.append((ender,))
                group = [s for s in group if s != ender]
            ranking.append(tuple(group))
        for s in reversed(state.eliminated):
            ranking.append((s,))
        state = replace(
            state,
            phase="over",
            ranking=tuple(ranking),
            end_reason=reason,
            decider=-1,
        )
        events.append(
            Event(
                "game-over",
                {
                    "reason": reason,
                    "ranking": [list(g) for g in ranking],
                    "ender": ender,
                    "life": [p.life for p in state.players],
                },
            )
        )
        return state

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
        if state.last_player == seat:
            state = replace(state, last_player=-1)
        state = self._eliminate(state, seat, events, "resign")
        if state.phase == "over":
            return state, tuple(events)
        if active_left:
            # the resigner's turn (or its damage) is abandoned: the next player plays
            state = replace(state, phase="turn", work_ability="")
            state, more = self._start_turn(state, next_seat(state, seat))
            events += more
        elif was_deciding:
            # they were choosing a damage pile: the next living player chooses
            state = replace(state, decider=damage_chooser(state, state.active))
        return state, tuple(events)

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
