"""OpenSpiel's pure-Python games as a yardstick for our engines.

When ``pyspiel`` imports (``.venv/bin/pip install -e '.[bench]'``), the
engine benchmark plays random games of :data:`GAMES` (``python_kuhn_poker``,
``python_tic_tac_toe``, ``python_liars_poker``) in the same process as ours:
``legal_actions()``, a random choice and ``apply_action`` per decision;
chance nodes are resolved by sampling ``chance_outcomes()``.

Each game gets two rates, in CPU time (:func:`time.process_time`):

* decisions per second: player actions only;
* all actions per second: chance outcomes counted too.

**The comparison uses decisions per second.** Our engines draw chance inside
``apply`` (a shuffle, a die, a random discard), so one action of ours already
includes the chance that follows it; OpenSpiel counts each chance outcome as
an action of its own (Kuhn poker: 2 deals, then 2 or 3 decisions). The
ratio printed for each of our games is its actions per second over the
median of the three decisions per second (:func:`ratios`).
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Mapping
from typing import Any

GAMES: tuple[str, ...] = ("python_kuhn_poker", "python_tic_tac_toe", "python_liars_poker")
"""OpenSpiel's Python games we compare with (``open_spiel.python.games``)."""

INSTALL_HINT = (
    "OpenSpiel row skipped: pyspiel is not installed "
    "(install the bench extra: .venv/bin/pip install -e '.[bench]')"
)


def load() -> Any | None:
    """The ``pyspiel`` module with OpenSpiel's Python games registered, or
    None when open_spiel is not installed."""
    try:
        import open_spiel.python.games  # type: ignore[import-not-found]  # noqa: F401
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    return pyspiel


def playout(game: Any, rand: random.Random) -> tuple[int, int]:
    """One random game: ``(decisions, chance outcomes)``."""
    state = game.new_initial_state()
    decisions = chances = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            x = rand.random()
            action = outcomes[-1][0]
            for outcome, p in outcomes:
                x -= p
                if x < 0:
                    action = outcome
                    break
            state.apply_action(action)
            chances += 1
        else:
            state.apply_action(rand.choice(state.legal_actions()))
            decisions += 1
    return decisions, chances


def measure(name: str, pyspiel: Any, seconds: float = 1.0, runs: int = 5) -> dict[str, Any]:
    """Random playouts of one OpenSpiel game for about ``seconds`` of CPU per
    run; the median of ``runs`` runs of decisions/s and all actions/s."""
    game = pyspiel.load_game(name)
    rand = random.Random(17)
    playout(game, rand)  # warm up (imports, caches)
    rates: list[tuple[float, float]] = []
    for _ in range(runs):
        decisions = chances = 0
        t0 = time.process_time()
        elapsed = 0.0
        while elapsed < seconds:
            for _ in range(20):
                d, c = playout(game, rand)
                decisions += d
                chances += c
            elapsed = time.process_time() - t0
        rates.append((decisions / elapsed, (decisions + chances) / elapsed))
    return {
        "game": name,
        "decisions_per_s": statistics.median(r[0] for r in rates),
        "actions_per_s": statistics.median(r[1] for r in rates),
    }


def median_decisions(rows: Mapping[str, float]) -> float:
    """The yardstick: the median of the OpenSpiel games' decisions per second."""
    if not rows:
        raise ValueError("no OpenSpiel game measured")
    return float(statistics.median(rows.values()))


def ratios(ours: Mapping[str, float], openspiel: Mapping[str, float]) -> dict[str, float]:
    """Each of our rows' actions per second over the OpenSpiel median of
    decisions per second (``openspiel``: game name -> decisions/s)."""
    yardstick = median_decisions(openspiel)
    return {label: rate / yardstick for label, rate in ours.items()}


def run(ours: Mapping[str, float], seconds: float = 1.0) -> dict[str, Any] | None:
    """Measure :data:`GAMES`, print their row and our ratios; None (and one
    line saying how to install the extra) when pyspiel is missing."""
    pyspiel = load()
    if pyspiel is None:
        print(INSTALL_HINT)
        return None
    version = getattr(pyspiel, "__version__", "")
    print(f"\nOpenSpiel {version} pure-Python games (random playouts, CPU time):")
    print(f"{'game':<22}{'decisions/s':>13}{'all actions/s':>15}")
    rows = []
    for name in GAMES:
        row = measure(name, pyspiel, seconds)
        rows.append(row)
        print(f"{name:<22}{row['decisions_per_s']:>13.0f}{row['actions_per_s']:>15.0f}", flush=True)
    decisions = {row["game"]: row["decisions_per_s"] for row in rows}
    yardstick = median_decisions(decisions)
    relative = ratios(ours, decisions)
    print(f"median decisions/s: {yardstick:.0f}; our actions/s over it:")
    for label, ratio in relative.items():
        print(f"  {label:<20}{ours[label]:>10.0f}{ratio:>8.2f}x")
    return {"games": rows, "median_decisions_per_s": yardstick, "ratios": relative}
