"""Belle Position's bots: the normal heuristic's choices, and no peeking."""

from __future__ import annotations

from collections.abc import Iterator

from engine import GAMES, rng
from engine.bots import make_bot
from engine.bots.belle_position import POLICY, heuristic_move, types
from engine.games.belle_position import (
    RESERVE,
    Card,
    Fire,
    Loss,
    Move,
    Play,
    State,
    TypeDef,
    absolute_of,
    card_index,
)
from tests.bots.helpers import bot_positions

GAME = GAMES["belle-position"]


def positions(
    seed: int, levels: tuple[str, str] = ("normal", "easy")
) -> Iterator[tuple[State, int]]:
    """``(state, seat to decide)`` along a match between bots."""
    return bot_positions("belle-position", seed, levels)


def _cases(phase: str, seeds: range = range(6)) -> Iterator[tuple[State, int, list[object]]]:
    for seed in seeds:
        for state, seat in positions(seed):
            if state.phase == phase:
                legal = GAME.legal_actions(state, seat)
                if len(legal) > 1:
                    yield state, seat, list(legal)


def _aimed_at(state: State, seat: int, fire: Fire) -> int:
    """The position a fire lands on (counter-battery: where the aimed card is)."""
    if fire.at[0] in "FA":
        return state.armies[1 - seat].cards[card_index(fire.at)].loc
    return absolute_of(seat, fire.at)


def test_fire_is_concentrated_on_the_position_being_fought() -> None:
    """Once the combat at a position has started, the bot finishes it (a
    position left is closed for the turn) instead of spreading its fire."""
    checked = 0
    for state, seat, legal in _cases("combat"):
        if state.combat_at < 0:
            continue
        here = [
            a for a in legal if isinstance(a, Fire) and _aimed_at(state, seat, a) == state.combat_at
        ]
        if not here or len(here) == len([a for a in legal if isinstance(a, Fire)]):
            continue
        choice = heuristic_move(state, seat, legal)  # type: ignore[arg-type]
        assert choice in here
        checked += 1
    assert checked > 0


def test_fire_starts_with_the_strongest_unit() -> None:
    """Between fires at one position, the unit with the most expected hits fires first."""
    checked = 0
    for state, seat, legal in _cases("combat"):
        choice = heuristic_move(state, seat, legal)  # type: ignore[arg-type]
        if not isinstance(choice, Fire):
            continue
        tt = types(state)
        army = state.armies[seat].cards

        def power(uid: str, tt: dict[str, TypeDef] = tt, army: tuple[Card, ...] = army) -> float:
            t = tt[army[card_index(uid)].type]
            return t.vc * max(t.fire_attack, t.fire_defence, t.long_range)

        same_target = [a for a in legal if isinstance(a, Fire) and a.at == choice.at]
        assert power(choice.card) == max(power(a.card) for a in same_target)
        checked += 1
    assert checked > 0


def test_losses_go_where_they_hurt_least() -> None:
    checked = 0
    for state, seat, legal in _cases("allocate"):
        army = state.armies[seat].cards
        tt = types(state)

        def room(uid: str, tt: dict[str, TypeDef] = tt, army: tuple[Card, ...] = army) -> float:
            c = army[card_index(uid)]
            return tt[c.type].vc - c.tokens + 0.5 * tt[c.type].save

        choice = heuristic_move(state, seat, legal)  # type: ignore[arg-type]
        assert isinstance(choice, Loss)
        assert room(choice.card) == max(room(a.card) for a in legal if isinstance(a, Loss))
        checked += 1
    assert checked > 0


def test_hurt_units_do_not_advance_and_ralliement_goes_to_the_worst_hurt() -> None:
    advances = 0
    for state, seat, legal in _cases("movement"):
        choice = heuristic_move(state, seat, legal)  # type: ignore[arg-type]
        if isinstance(choice, Move) and choice.to.startswith("E"):
            c = state.armies[seat].cards[card_index(choice.card)]
            if types(state)[c.type].kind == "unit" and c.loc != RESERVE:
                assert c.tokens == 0
                advances += 1
    assert advances > 0
    for state, seat, legal in _cases("rally"):
        choice = heuristic_move(state, seat, legal)  # type: ignore[arg-type]
        if isinstance(choice, Play):
            army = state.armies[seat].cards
            targets = [card_index(a.target) for a in legal if isinstance(a, Play)]
            assert army[card_index(choice.target)].tokens == max(army[i].tokens for i in targets)


def test_normal_and_easy_do_not_peek() -> None:
    """Same view, same seed: same choice, whatever the hidden cards are."""
    bots = [make_bot("belle-position", level) for level in ("easy", "normal")]
    checked = 0
    for n, (state, seat) in enumerate(positions(3, ("normal", "normal"))):
        if n % 4:
            continue
        view, legal = GAME.view(state, seat), GAME.legal_actions(state, seat)
        r = rng.seed_state(n, "peek")
        expected = [bot.choose(view, legal, r) for bot in bots]
        for k in (1, 2, 3):
            other = GAME.determinize(state, seat, 100 * n + k)
            assert GAME.view(other, seat) == view
            got = [bot.choose(view, GAME.legal_actions(other, seat), r) for bot in bots]
            assert got == expected
        checked += 1
    assert checked > 10


def test_playout_and_evaluate_stay_in_range() -> None:
    for n, (state, seat) in enumerate(positions(5)):
        if n % 10:
            continue
        assert 0.0 <= POLICY.evaluate(state, seat) <= 1.0
        assert 0.0 <= POLICY.evaluate(state, 1 - seat) <= 1.0


def test_generals_never_go_alone_into_an_enemy_position() -> None:
    """« un général ne peut jamais tenir seul une position. S'il est engagé, un
    général solitaire est immédiatement éliminé »: along bot matches, normal
    never moves a general where no unit of its side stands."""
    checked = 0
    for state, seat, legal in _cases("movement", range(4)):
        choice = heuristic_move(state, seat, legal)
        if not isinstance(choice, Move):
            continue
        c = state.armies[seat].cards[card_index(choice.card)]
        if types(state)[c.type].kind != "general":
            continue
        dest = absolute_of(seat, choice.to)
        if dest == RESERVE:
            continue
        checked += 1
        units_there = [
            i
            for i, u in enumerate(state.armies[seat].cards)
            if u.loc == dest and types(state)[u.type].kind == "unit"
        ]
        assert units_there, (choice, state.turn)
    assert checked


def test_normal_attacks_a_weaker_position() -> None:
    """« Une carte d'infanterie ou de cavalerie doit être engagée pour combattre »:
    with four fresh units facing one Landwehr, normal advances into it (the old
    heuristic weighed one unit against the whole position and stayed home)."""
    from tests.games.bp_helpers import scenario

    s = scenario(
        {"FC": "zouaves-turcos^ chasseurs-a-pied^ ligne-francaise^ ligne-francaise^"},
        {"AC": "landwehr^ landwehr^ landwehr^", "AG": "landwehr", "AD": "landwehr"},
        phase="movement",
        turn=5,
    )
    choice = heuristic_move(s, 0, GAME.legal_actions(s, 0))
    assert isinstance(choice, Move) and choice.to == "EC"


def test_normal_self_play_ends_by_occupation() -> None:
    """« Un joueur est déclaré vainqueur à l'instant où il occupe deux positions
    ennemies abandonnées »: normal against itself fights to a result (the old
    heuristic drew by the turn limit in 3 games of 4, twice without a shot)."""
    from benchmarks.strength import play_match

    for seed in (3, 4):
        result = play_match(
            "belle-position", ("normal", "normal"), seed, 50, None, "turn_limit=100"
        )
        assert result.reason == "occupation", (seed, result.reason, result.turns)
