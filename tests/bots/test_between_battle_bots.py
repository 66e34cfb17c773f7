"""Between Battle's bot policy: what each level does in situations we can read."""

from __future__ import annotations

from collections import Counter

from engine import Match, rng
from engine.bots import Budget, bot_rng, make_bot
from engine.bots.between_battle import POLICY, quick_move, unseen_cards
from engine.games.between_battle import GAME, TakeDamage
from tests.games.bb_helpers import act, scenario


def _choose(level: str, state: object, budget: Budget | None = None) -> str:
    seat = state.decider  # type: ignore[attr-defined]
    bot = make_bot(GAME.info.id, level)
    action, _ = bot.choose(GAME.view(state, seat), GAME.legal_actions(state, seat), 42, budget)
    return GAME.format_action(action)


def test_view_shows_the_public_facts_sampling_needs() -> None:
    s = scenario(["7 1", "2"], piles=("Ch4", "Ch10"), damage=[2, "Pi16"], last_player=1)
    view = GAME.view(s, 0)
    # « ces cartes sont placées face cachée »: the count only, never the cards
    assert not hasattr(view.players[1], "damage_cards")
    assert (view.players[0].damage, view.players[1].damage) == (2, 1)
    assert "Pi16" not in repr(view) and "Pi15" not in repr(view)
    assert view.last_player == 1
    assert view.rules == s.rules
    assert view.eliminated == ()


def test_unseen_cards_are_the_hidden_hand_and_deck() -> None:
    s = scenario(
        ["7 1", "2 3 9"],
        piles=("Ch4", "Ch10~"),
        damage=[0, 1],
        revealed=["", "9"],
        discard=("Ch6",),
    )
    view = GAME.view(s, 0)
    hidden = Counter(s.players[1].hand + s.players[1].deck) - Counter(s.players[1].revealed)
    # the damage cards lie face down: seat 1's own ChX there is unseen too
    assert s.players[1].damage == ("ChX",)
    assert Counter(unseen_cards(view, 1)) == hidden + Counter(s.players[1].damage)
    assert Counter(unseen_cards(view, 0)) == Counter(s.players[0].deck)


def test_easy_never_takes_damage_when_it_can_play() -> None:
    match = Match(GAME, None, 2, 3)
    bot = make_bot(GAME.info.id, "easy")
    r = bot_rng(3, 0)
    seen = 0
    while not match.is_over:
        seat = min(match.pending())
        legal = match.legal_actions(seat)
        action, r = bot.choose(match.view(seat), legal, r)
        if len(legal) > 1 and TakeDamage() in legal:
            assert action != TakeDamage()
            seen += 1
        match.play(seat, action)
    assert seen > 5


def test_every_level_gives_the_bigger_pile() -> None:
    s = scenario(["7 1", "2 3"], piles=("Pi1 Pi2 Pi3", "Pi9"), active=1, last_player=0)
    s, _ = act(s, "D")
    assert s.phase == "choose-pile" and s.decider == 0
    for level in ("easy", "normal", "hard"):
        assert _choose(level, s, Budget(iterations=40)) == "P1"


def test_hard_takes_the_knockout() -> None:
    # the Chevalier has 2 life left: pile 1 (3 cards) knocks them out
    s = scenario(["7 1", "2 3"], piles=("Pi1 Pi2 Pi3", "Pi9"), active=1, damage=[0, 8])
    s, _ = act(s, "D")
    assert _choose("hard", s, Budget(iterations=30)) == "P1"
    assert GAME.outcome(act(s, "P1")[0]) is not None


def test_normal_leaves_the_opponent_nothing_to_play() -> None:
    # Piles 4 and 13. Playing 11 on pile 1 leaves only 12 playable, and the
    # Chevalier's 12 and joker are in the discard: they must take damage.
    s = scenario(["1 2 6 11 16", "1 2 3 4 7"], piles=("Pi4", "Pi13"), discard=("Ch12", "ChX"))
    assert _choose("normal", s) == "11>1"


def test_sample_state_samples_the_face_down_damage() -> None:
    # « ces cartes sont placées face cachée »: a bot's view has damage counts
    # only, so its sampled states deal the damage cards among the unseen ones
    s = scenario(
        ["7 1", "2 3 9"], piles=("Ch4", "Pi10"), damage=["15 16", "13 14 X"], discard=("Ch6",)
    )
    view = GAME.view(s, 0)
    seen: set[tuple[str, ...]] = set()
    for seed in range(30):
        t = GAME.sample_state(view, seed)
        assert GAME.view(t, 0) == view
        assert [len(p.damage) for p in t.players] == [2, 3]
        everything = Counter(
            [c for pile in t.piles for c in pile]
            + list(t.discard)
            + [c for p in t.players for c in p.hand + p.deck + p.damage]
        )
        assert everything == Counter(
            [c for pile in s.piles for c in pile]
            + list(s.discard)
            + [c for p in s.players for c in p.hand + p.deck + p.damage]
        )
        seen.add(t.players[1].damage)
    assert len(seen) > 1  # the identities are sampled, not read from the view
    legal = {GAME.format_action(a) for a in GAME.legal_actions(s, 0)}
    for level in ("easy", "normal", "hard"):
        assert _choose(level, s, Budget(iterations=40)) in legal


def test_quick_move_keeps_gaps_tight() -> None:
    s = scenario(["1 2 6 11 16", "1 2 3 4 7"], piles=("Pi4", "Pi13"))
    legal = GAME.legal_actions(s, 0)
    picks: Counter[str] = Counter()
    r = rng.seed_state(1)
    for _ in range(200):
        action, r = quick_move(s, legal, r)
        picks[GAME.format_action(action)] += 1
    top, count = picks.most_common(1)[0]
    assert top in {"11>1", "6>2"} and count > 100  # one gap of one value
    assert POLICY.playout(s, 0, legal, 5)[0] in legal
