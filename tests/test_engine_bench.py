"""The engine benchmark: its playouts draw through ``Game.random_action``, its
latency pass replays the same games, and the OpenSpiel comparison's row and
arithmetic (the row itself runs only where the ``bench`` extra is installed)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from benchmarks import engine_speed, openspiel_rows
from engine import GAMES
from engine.bots import base, search
from engine.core import Game


def test_ratios_divide_by_the_median_of_the_decisions() -> None:
    # the lead's figures: kuhn 16.6k, tic-tac-toe 9.8k, liar's poker 7.3k decisions/s
    openspiel = {
        "python_kuhn_poker": 16_600.0,
        "python_tic_tac_toe": 9_800.0,
        "python_liars_poker": 7_300.0,
    }
    assert openspiel_rows.median_decisions(openspiel) == 9_800.0
    got = openspiel_rows.ratios({"between-battle": 14_700.0, "liber": 4_900.0}, openspiel)
    assert got == pytest.approx({"between-battle": 1.5, "liber": 0.5})
    with pytest.raises(ValueError):
        openspiel_rows.median_decisions({})


def test_without_pyspiel_the_row_is_skipped_with_how_to_install(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(openspiel_rows, "load", lambda: None)
    assert openspiel_rows.run({"between-battle": 1.0}, seconds=0.01) is None
    out = capsys.readouterr().out.strip().splitlines()
    assert out == [openspiel_rows.INSTALL_HINT]
    assert "pip install -e '.[bench]'" in out[0]


def test_openspiel_row_counts_decisions_and_chance_apart() -> None:
    pytest.importorskip("pyspiel")
    pyspiel = openspiel_rows.load()
    assert pyspiel is not None
    rand = random.Random(3)
    kuhn = pyspiel.load_game("python_kuhn_poker")
    for _ in range(20):
        decisions, chances = openspiel_rows.playout(kuhn, rand)
        assert chances == 2  # one card dealt to each player
        assert decisions in (2, 3)
    tic_tac_toe = pyspiel.load_game("python_tic_tac_toe")
    decisions, chances = openspiel_rows.playout(tic_tac_toe, rand)
    assert chances == 0 and 5 <= decisions <= 9
    row = openspiel_rows.measure("python_liars_poker", pyspiel, seconds=0.02, runs=1)
    assert 0 < row["decisions_per_s"] < row["actions_per_s"]
    report = openspiel_rows.run({"between-battle": 5_000.0}, seconds=0.02)
    assert report is not None
    assert [g["game"] for g in report["games"]] == list(openspiel_rows.GAMES)
    assert report["ratios"]["between-battle"] == pytest.approx(
        5_000.0 / report["median_decisions_per_s"]
    )


class _Counting:
    """Counts a game's ``legal_actions`` and ``random_action`` calls made
    from outside the game (its own ``random_action`` may list internally)."""

    def __init__(self, game: Game[Any, Any, Any], monkeypatch: pytest.MonkeyPatch) -> None:
        self.listed = 0
        self.drawn = 0
        self.inside = False
        cls = type(game)

        def legal_actions(state: Any, seat: int) -> Any:
            self.listed += not self.inside
            return cls.legal_actions(game, state, seat)

        def random_action(state: Any, seat: int, rng_state: int) -> Any:
            self.drawn += 1
            self.inside = True
            try:
                return cls.random_action(game, state, seat, rng_state)
            finally:
                self.inside = False

        monkeypatch.setattr(game, "legal_actions", legal_actions, raising=False)
        monkeypatch.setattr(game, "random_action", random_action, raising=False)


def test_benchmark_playouts_draw_through_random_action(monkeypatch: pytest.MonkeyPatch) -> None:
    game = GAMES["between-battle"]
    options = game.options(game.quick_options)
    counting = _Counting(game, monkeypatch)
    steps, final = engine_speed._playout(game, 2, 5, options)
    assert steps > 0 and game.outcome(final) is not None
    assert counting.drawn == steps
    assert counting.listed == 0  # the timed loop never lists the actions itself
    legal_t, apply_t = engine_speed._timed_playout(game, 2, 5, options)
    # the latency pass plays the same game, listing once per state
    assert len(legal_t) == len(apply_t) == steps
    assert counting.listed == steps


def test_random_playouts_of_hard_draw_through_random_action(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = GAMES["between-battle"]
    policy = base.RandomPolicy(game)
    state = game.setup(game.options(game.quick_options), 2, 9)
    counting = _Counting(game, monkeypatch)
    value = search.playout(policy, state, 0, 123)
    assert 0.0 <= value <= 1.0
    assert counting.drawn > 0 and counting.listed == 0
