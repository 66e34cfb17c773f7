"""Battalia's texts as a player reads them in a match (issue 15, item 4 of
the E2E brief): findings from reading a whole steered match
(``tests/e2e/battalia_story.py``) in English and French. Each was a
strict xfail until the texts were fixed; they now guard the fixes."""

from __future__ import annotations

import pytest

from bot.i18n import game_text
from engine.core import Decision
from engine.games.battalia import GAME
from tests.e2e.battalia_story import SEED, play_story

NAMES = ("Alice", "Bob", "Émile")


@pytest.mark.parametrize(("lang", "word"), [("fr", "1 case "), ("en", "1 square ")])
def test_a_buff_roll_of_one_reads_singular(lang: str, word: str) -> None:
    text = game_text(lang, GAME.decision_text(Decision("buff-move", (("roll", 1),)), NAMES))
    assert word in text, text


@pytest.mark.parametrize(("lang", "turn"), [("fr", "Au tour d"), ("en", "'s turn")])
def test_the_summary_of_a_finished_match_names_no_turn(lang: str, turn: str) -> None:
    _, state = play_story(SEED)
    assert GAME.outcome(state) is not None
    text = game_text(lang, GAME.summary(GAME.view(state, None), NAMES))
    assert turn not in text, text


@pytest.mark.parametrize(("lang", "own"), [("fr", "À vous"), ("en", "Your turn")])
def test_the_turn_decision_does_not_repeat_the_hosts_your_turn(lang: str, own: str) -> None:
    text = game_text(lang, GAME.decision_text(Decision("turn"), NAMES))
    assert not text.startswith(own), text
