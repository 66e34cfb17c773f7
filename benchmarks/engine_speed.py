"""Engine speed, per game: random full games per second and actions per second
(median of 5 runs), ``apply`` and ``legal_actions`` latency (p50, p99), and
the state JSON encode and decode time.

Every figure is CPU time (:func:`time.process_time`): the machine is shared,
and wall time would count the other processes' turns as ours. The timed
playouts draw each action through :meth:`Game.random_action` and apply it,
nothing else: a game whose ``random_action`` never lists every action is
timed without that listing. The latency columns come from a separate pass
over the first run's games that times ``apply`` and ``legal_actions`` on
every state met.

With the ``bench`` extra installed (``.venv/bin/pip install -e '.[bench]'``),
OpenSpiel's pure-Python games are measured in the same process and each of
our rows is compared with their median decisions per second (see
:mod:`benchmarks.openspiel_rows`: one action of ours includes the chance it
draws, so it compares with one OpenSpiel decision)."""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path
from typing import Any

from engine import GAMES, rng

from . import openspiel_rows
from .report import machine, percentile, write_json

NAME = "engine"
HELP = "engine speed per game: games/s, actions/s, apply and legal_actions latency, JSON"
DEFAULT_JSON = Path(__file__).parent / "results" / "engine.json"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--quick", action="store_true", help="fewer games (under a minute)")
    parser.add_argument("--json", type=Path, default=DEFAULT_JSON, help="where to write JSON")
    parser.add_argument(
        "--no-openspiel",
        action="store_true",
        help="skip the OpenSpiel comparison even when pyspiel is installed",
    )


def _playout(game: Any, seats: int, seed: int, options: Any) -> tuple[int, Any]:
    """One random game, as the timed runs play it: ``(actions, final state)``."""
    state = game.setup(options, seats, seed)
    chooser = rng.seed_state(seed, "bench")
    pending, random_action, apply = game.pending, game.random_action, game.apply
    steps = 0
    while True:
        waiting = pending(state)
        if not waiting:
            return steps, state
        seat = min(waiting)
        action, chooser = random_action(state, seat, chooser)
        state, _ = apply(state, seat, action)
        steps += 1


def _timed_playout(
    game: Any, seats: int, seed: int, options: Any
) -> tuple[list[float], list[float]]:
    """The same game as :func:`_playout` (same seed, same draws), timing
    ``legal_actions`` and ``apply`` on every state: ``(legal, apply)`` seconds."""
    state = game.setup(options, seats, seed)
    chooser = rng.seed_state(seed, "bench")
    clock = time.process_time
    legal_times: list[float] = []
    apply_times: list[float] = []
    while True:
        waiting = game.pending(state)
        if not waiting:
            return legal_times, apply_times
        seat = min(waiting)
        t0 = clock()
        game.legal_actions(state, seat)
        t1 = clock()
        action, chooser = game.random_action(state, seat, chooser)
        t2 = clock()
        state, _ = game.apply(state, seat, action)
        t3 = clock()
        legal_times.append(t1 - t0)
        apply_times.append(t3 - t2)


EXTRA_ROWS: tuple[tuple[str, str, str, int | None], ...] = (
    ("between-battle 2p", "between-battle", "", 2),
    ("via-belli 2p", "via-belli", "table=standard", 2),
    ("via-belli largest", "via-belli", "table=salle_a_manger", None),
)
"""``(label, game id, options, seats)``: rows beyond each game's defaults
(which mix every seat count). Via Belli's largest table is where enumerating
legal placements costs the most."""


def bench_game(
    game_id: str, games: int, options_text: str = "", seats: int | None = None
) -> dict[str, Any]:
    game = GAMES[game_id]
    info = game.info
    options = game.options(options_text or None)
    seat_counts = [seats] if seats else list(range(info.min_seats, info.max_seats + 1))
    runs = []
    states = []
    for run in range(5):
        t0 = time.process_time()
        actions = 0
        for i in range(games):
            seats = seat_counts[i % len(seat_counts)]
            n, final = _playout(game, seats, run * 100_003 + i, options)
            actions += n
            if run == 0 and i < 20:
                states.append(final)
        elapsed = time.process_time() - t0
        runs.append((games / elapsed, actions / elapsed))
    # latency: the first run's games again, timing each call
    all_legal: list[float] = []
    all_apply: list[float] = []
    for i in range(games):
        seats = seat_counts[i % len(seat_counts)]
        legal_t, apply_t = _timed_playout(game, seats, i, options)
        all_legal += legal_t
        all_apply += apply_t
    # saving and loading real states, as the host does (dump_state / load_state)
    enc, dec = [], []
    for state in states:
        for _ in range(5):
            t0 = time.process_time()
            text = game.dump_state(state)
            t1 = time.process_time()
            game.load_state(text)
            t2 = time.process_time()
            enc.append(t1 - t0)
            dec.append(t2 - t1)
    return {
        "game": game_id,
        "games_per_s": statistics.median(r[0] for r in runs),
        "actions_per_s": statistics.median(r[1] for r in runs),
        "apply_p50_ms": percentile(all_apply, 50) * 1e3,
        "apply_p99_ms": percentile(all_apply, 99) * 1e3,
        "legal_p50_ms": percentile(all_legal, 50) * 1e3,
        "legal_p99_ms": percentile(all_legal, 99) * 1e3,
        "json_encode_ms": statistics.median(enc) * 1e3,
        "json_decode_ms": statistics.median(dec) * 1e3,
        "games_per_run": games,
        "options": options_text,
    }


def run(args: argparse.Namespace) -> int:
    games = 40 if args.quick else 200
    rows = []
    print(
        f"{'game':<18}{'games/s':>10}{'actions/s':>12}{'apply p50':>11}{'apply p99':>11}"
        f"{'legal p50':>11}{'legal p99':>11}{'JSON enc':>10}{'JSON dec':>10}"
    )
    plan: list[tuple[str, str, str, int | None]] = [
        (game_id, game_id, "", None) for game_id in sorted(GAMES)
    ]
    plan += [row for row in EXTRA_ROWS if row[1] in GAMES]
    for label, game_id, options_text, seats in plan:
        per = games if game_id == "between-battle" else max(10, games // 5)
        row = bench_game(game_id, per, options_text, seats)
        row["seats"] = seats
        row["label"] = label
        rows.append(row)
        print(
            f"{label:<18}{row['games_per_s']:>10.0f}{row['actions_per_s']:>12.0f}"
            f"{row['apply_p50_ms']:>9.3f}ms{row['apply_p99_ms']:>9.3f}ms"
            f"{row['legal_p50_ms']:>9.3f}ms{row['legal_p99_ms']:>9.3f}ms"
            f"{row['json_encode_ms']:>8.2f}ms{row['json_decode_ms']:>8.2f}ms",
            flush=True,
        )
    report: dict[str, Any] = {"machine": machine(), "quick": args.quick, "games": rows}
    if not args.no_openspiel:
        ours = {row["label"]: row["actions_per_s"] for row in rows}
        compared = openspiel_rows.run(ours, seconds=0.5 if args.quick else 2.0)
        if compared is not None:
            report["openspiel"] = compared
    write_json(args.json, report)
    print(f"written: {args.json}")
    return 0
