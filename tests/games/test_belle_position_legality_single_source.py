"""Belle Position: legality and its explanation come from the same checks.

``legality.check`` decides whether an action is legal and, when it is not,
gives the refusal that ``apply`` raises. Over random states of random games
(every option set the conformance test plays), every legal action passes the
check, and near misses (another card, another target, another destination,
an action of another phase) are accepted exactly when the action their card
stands for is legal (``_canonical``: interchangeable cards are offered once),
refused otherwise with the very reason ``apply`` gives."""

from __future__ import annotations

import random

import pytest

import i18n
from engine import rng
from engine.errors import IllegalAction
from engine.games.belle_position import GAME, Done, Fire, Loss, Move, Play, State, Undo
from engine.games.belle_position.legal import _canonical
from engine.games.belle_position.legality import check, refusal

CODES = ("G", "C", "D", "EG", "EC", "ED", "R")
OPTION_SETS = ("", *GAME.conformance_options)


def near_misses(state: State, seat: int, legal: list, r: random.Random) -> list:
    """Actions one change away from the legal ones, and a few of every kind."""
    army = state.armies[seat]
    enemy = state.armies[1 - seat]
    own = [c.uid for c in army.cards]
    theirs = [c.uid for c in enemy.cards]
    out: list = [Done(), Undo(), Move(f"{army.letter}{len(own) + 1}", "C"), Fire(theirs[0], "EC")]
    for a in r.sample(legal, min(6, len(legal))):
        if isinstance(a, Move):
            out += [Move(a.card, code) for code in CODES if code != a.to]
            out += [Move(uid, a.to) for uid in r.sample(own, 4)]
        elif isinstance(a, Fire):
            out += [Fire(a.card, code) for code in CODES[:6] if code != a.at]
            out += [Fire(a.card, uid) for uid in r.sample(theirs, 4)]
            out += [Fire(uid, a.at) for uid in r.sample(own, 4)]
        elif isinstance(a, Loss):
            out += [Loss(uid) for uid in r.sample(own, 6)]
        elif isinstance(a, Play):
            out += [Play(a.card, uid) for uid in r.sample(own, 4)]
            out += [Play(uid, a.target) for uid in r.sample(own, 3)]
    for uid in r.sample(own, 3):
        out += [Move(uid, r.choice(CODES)), Fire(uid, r.choice(CODES[:6])), Loss(uid)]
        out.append(Play(uid, r.choice(own)))
    # parsed back from their notation: never the very objects legal_actions made
    return [GAME.parse_action(GAME.format_action(a)) for a in out]


@pytest.mark.parametrize("options", OPTION_SETS, ids=range(len(OPTION_SETS)))
def test_legal_actions_and_refusals_come_from_the_same_checks(options: str) -> None:
    opts = GAME.options(dict(kv.split("=", 1) for kv in options.split()) if options else {})
    seen_accepted = seen_refused = 0
    refusal_keys: set[str] = set()
    for game in range(3):
        seed = 7_000 + 100 * OPTION_SETS.index(options) + game
        r = random.Random(seed)
        stream = rng.Stream(rng.seed_state(seed, "legality"))
        state = GAME.setup(opts, 2, seed)
        step = 0
        while GAME.outcome(state) is None and step < 1500:
            seat = sorted(GAME.pending(state))[stream.below(len(GAME.pending(state)))]
            legal = GAME.legal_actions(state, seat)
            for a in legal:
                assert check(state, seat, a) is None, (GAME.format_action(a), state.phase)
            if step % 4 == 0:
                notations = {GAME.format_action(a) for a in legal}
                for a in near_misses(state, seat, legal, r):
                    found = check(state, seat, a)
                    canon = _canonical(state, seat, a)
                    is_legal = canon is not None and GAME.format_action(canon) in notations
                    assert (found is None) == is_legal, (GAME.format_action(a), found, state.phase)
                    if found is None:
                        seen_accepted += 1
                        GAME.apply(state, seat, a)  # does not raise
                        continue
                    seen_refused += 1
                    refusal_keys.add(found[0])
                    expected = refusal(state, seat, a)
                    assert expected is not None
                    with pytest.raises(IllegalAction) as raised:
                        GAME.apply(state, seat, a)
                    for locale in ("en", "fr"):
                        assert i18n.translate(locale, raised.value.msg) == i18n.translate(
                            locale, expected.msg
                        )
                    assert raised.value.params == expected.params
                    assert raised.value.code == expected.code
            state, _ = GAME.apply(state, seat, legal[stream.below(len(legal))])
            step += 1
    assert seen_accepted and seen_refused
    # the sweep reaches the refusals of every phase, not just one kind
    assert {"not-yours", "deploy-phase", "combat-phase", "movement-phase"} <= refusal_keys
    assert refusal_keys & {"destination", "no-move-left", "moves-over", "grouping"}
