"""The Battalia lesson (``bot/learn/games/battalia.py``): it plays through,
its texts exist in both languages and read well, and each step shows the
mechanic its text teaches. Buff's steps quote seed 004; the base game has no
seed text (its rulebook is not public), so those tests quote
``docs/rules/battalia.md``, whose sources are marked there."""

from __future__ import annotations

import functools
from typing import Any

import i18n
from bot.learn import lesson_for
from bot.learn.games.battalia import BID, FIGHT, LESSON, TUTOR_BID
from bot.learn.lesson import Tutor, walk
from engine.core import Event
from tests.bot.textcheck import problems


def _keys() -> list[str]:
    keys = [LESSON.intro, LESSON.outro]
    for step in LESSON.steps:
        keys += [k for k in (step.say, step.hint, step.done) if k is not None]
    return keys


def _steps() -> list[tuple[Tutor, list[Event], Any]]:
    """For each step: a tutor played up to it, the events the learner was
    shown after that step's move, and the state just before that move."""
    out = []
    for number in range(1, len(LESSON.steps) + 1):
        tutor = Tutor(LESSON)
        events: list[Event] = tutor.new_events()
        before = tutor.match.state
        for step in LESSON.steps[:number]:
            before = tutor.match.state
            attempt = tutor.act(step.expect[0])
            assert attempt.accepted, step.say
            events = tutor.new_events()
        out.append((tutor, events, before))
    return out


@functools.cache
def _played() -> list[Any]:
    """The steps, played once for the whole file (on first use, not at import)."""
    return _steps()


def _state(number: int) -> Any:
    return _played()[number - 1][0].match.state


def _before(number: int) -> Any:
    return _played()[number - 1][2]


def _kinds(number: int, kind: str) -> list[dict[str, Any]]:
    return [dict(e.data) for e in _played()[number - 1][1] if e.kind == kind]


def _vp(state: Any, seat: int) -> int:
    return sum(t.level for t in state.tiles if t.owner == seat)


def test_the_lesson_walks_through_and_is_registered() -> None:
    tutor = walk(LESSON)
    assert tutor.finished
    assert lesson_for("battalia") is LESSON
    assert 4 <= len(LESSON.steps) <= 8
    assert all(step.expect for step in LESSON.steps)
    assert LESSON.options == {}  # the defaults, Buff included


def test_every_text_exists_in_both_languages_and_reads_well() -> None:
    for key in _keys():
        assert key.startswith("learn-bt-")
        for lang in ("en", "fr"):
            assert i18n.has(lang, key), (lang, key)
            text = i18n.translate(lang, key)
            assert problems(text, lang) == [], (lang, key, problems(text, lang))
            assert len(text) <= 600, (lang, key, len(text))


def test_each_step_names_the_move_it_asks_for() -> None:
    for step in LESSON.steps:
        for lang in ("en", "fr"):
            assert f"`{step.expect[0]}`" in i18n.translate(lang, step.say), (lang, step.say)
    for lang in ("en", "fr"):
        # the closing line after the outro names the command in the player's language
        assert "/lobby" not in i18n.translate(lang, LESSON.outro)


def test_the_lesson_opens_on_day_7_with_the_hero_on_the_start_city() -> None:
    state = Tutor(LESSON).match.state
    assert state.day == 7 and state.active == 0
    assert state.players[0].faction == "u" and state.players[0].start == "f6"
    assert any(h.seat == 0 and h.square == "f6" for h in state.heroes)
    assert _vp(state, 0) == 1 and _vp(state, 1) == 2


def test_steps_1_and_2_a_city_paid_exactly_then_placed_is_worth_its_level() -> None:
    """docs/rules/battalia.md: « each action is paid by the exact recipe of the
    cost table, not one card more »; « City of level N | 3 rank-N units »;
    « Victory points = the sum of the levels of the cities you control »."""
    (build,) = _kinds(1, "build")
    assert build["kind"] == "city" and build["level"] == 1
    assert build["cards"] == ["1i", "1i", "1a"]
    assert len(_state(1).players[0].hand) == len(_before(1).players[0].hand) - 3
    assert _vp(_state(1), 0) == 1  # not yet on the map
    (place,) = _kinds(2, "place")
    assert place["square"] == "e5" and place["kind"] == "city"
    assert _played()[1][0].match.pending()[0].kind == "turn"  # the turn goes on
    tile = next(t for t in _state(2).tiles if t.square == "e5")
    assert tile.owner == 0 and tile.level == 1
    assert _vp(_state(2), 0) == 2 == _vp(_state(2), 1)


def test_step_3_a_bought_card_goes_to_the_discard_pile() -> None:
    """docs/rules/battalia.md: « the top card of a face-down stack »; « Bought
    cards go to the discard pile »; « Buying a non-mercenary unit also gives a
    Provision »."""
    (buy,) = _kinds(3, "buy")
    assert buy["stack"] == "1" and buy["cards"] == ["P", "P"] and buy["provision"] is True
    before, after = _before(3).players[0], _state(3).players[0]
    assert len(after.discard) == len(before.discard) + 2
    assert buy["card"] in after.discard and "P" in after.discard
    assert len(after.hand) == len(before.hand) - 2  # the two Provisions paid


def test_step_4_end_of_turn_draws_six_and_week_2_opens_the_auction() -> None:
    """« Buff Le Sans Bannière entre en jeu à la fin de la première semaine »;
    « La force de combat de la horde est de 6 pendant toute la durée de la
    seconde semaine de jeu »."""
    (draw,) = [e for e in _kinds(4, "draw") if e["seat"] == 0]
    assert draw["count"] == 6 and len(_state(4).players[0].hand) == 6
    assert _kinds(4, "week") == [{"week": 2, "day": 8}]
    assert _kinds(4, "horde") == [{"week": 2, "horde": 6}]
    assert _kinds(4, "auction-open") == [{"week": 2}]
    pending = _played()[3][0].match.pending()
    assert set(pending) == {0} and pending[0].kind == "bid"
    # The tutor's bid is secret: the learner reads only that it has bid.
    assert _kinds(4, "bid") == [{"seat": 1}]


def test_step_5_the_highest_bid_places_buff_who_attacks_the_hero_at_once() -> None:
    """« Le joueur qui « sacrifie » la force de combat totale la plus élevée
    gagne le droit de choisir l'endroit par lequel Buff entrera en jeu » ;
    « quand la figurine de Buff entre en jeu et qu'elle est positionnée
    directement sur une ville de départ avec un héros dessus »."""
    (auction,) = _kinds(5, "auction")
    assert auction["bids"] == [[0, BID.split()[1:], 1], [1, TUTOR_BID.split()[1:], 8]]
    assert auction["winner"] == 1
    assert _kinds(5, "buff-enter") == [{"seat": 1, "square": "f6", "horde": 6}]
    (attack,) = _kinds(5, "buff-attack")
    assert attack["seat"] == 0 and attack["square"] == "f6" and attack["horde"] == 6
    pending = _played()[4][0].match.pending()
    assert set(pending) == {0} and pending[0].kind == "buff-answer"
    assert {"bribe : P P P", FIGHT} <= set(_played()[4][0].legal())
    assert len(_state(5).players[0].hand) == 6  # everyone drew back to 6


def test_step_6_a_line_at_least_the_horde_drives_buff_off_the_board() -> None:
    """« le joueur a besoin de former une ligne de combat avec des cartes dont
    la force est au moins égale à la force de la horde. Si le joueur repousse
    avec succès la horde, la figurine de Buff Le Sans Bannière est retirée du
    plateau de jeu »."""
    (fight,) = _kinds(6, "buff-fight")
    assert fight["line"] == ["2u", "3i", "3a"] and fight["strength"] == 8
    assert fight["horde"] == 6 and fight["won"] is True
    assert _kinds(6, "buff-removed")[0]["square"] == "f6"
    state = _state(6)
    assert state.buff.square is None and state.buff.absent
    assert any(h.seat == 0 and h.square == "f6" for h in state.heroes)  # the hero stays
    assert state.players[0].hand.count("P") == 3  # no Provision spent
