"""Engine speed, per game: random full games per second and actions per second
(median of 5 runs), ``apply`` and ``legal_actions`` latency (p50, p99), and
the state JSON encode and decode time."""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path
from typing import Any

from engine import GAMES, rng

from .report import machine, percentile, write_json

NAME = "engine"
HELP = "engine speed per game: games/s, actions/s, apply and legal_actions latency, JSON"
DEFAULT_JSON = Path(__file__).parent / "results" / "engine.json"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--quick", action="store_true", help="fewer games (under a minute)")
    parser.add_argument("--json", type=Path, default=DEFAULT_JSON, help="where to write JSON")


def _playout(
    game: Any, seats: int, seed: int, options: Any
) -> tuple[int, list[float], list[float], Any]:
    state = game.setup(options, seats, seed)
    chooser = rng.seed_state(seed, "bench")
    legal_times: list[float] = []
    apply_times: list[float] = []
    steps = 0
    while True:
        pending = game.pending(state)
        if not pending:
            return steps, legal_times, apply_times, state
        seat = min(pending)
        t0 = time.perf_counter()
        legal = game.legal_actions(state, seat)
        t1 = time.perf_counter()
        index, chooser = rng.randbelow(chooser, len(legal))
        state, _ = game.apply(state, seat, legal[index])
        t2 = time.perf_counter()
        legal_times.append(t1 - t0)
        apply_times.append(t2 - t1)
        steps += 1


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
    all_legal: list[float] = []
    all_apply: list[float] = []
    states = []
    for run in range(5):
        t0 = time.perf_counter()
        actions = 0
        for i in range(games):
            seats = seat_counts[i % len(seat_counts)]
            n, legal_t, apply_t, final = _playout(game, seats, run * 100_003 + i, options)
            actions += n
            if run == 0:
                all_legal += legal_t
                all_apply += apply_t
                if i < 20:
                    states.append(final)
        elapsed = time.perf_counter() - t0
        runs.append((games / elapsed, actions / elapsed))
    # saving and loading real states, as the host does (dump_state / load_state)
    enc, dec = [], []
    for state in states:
        for _ in range(5):
            t0 = time.perf_counter()
            text = game.dump_state(state)
            t1 = time.perf_counter()
            game.load_state(text)
            t2 = time.perf_counter()
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
    write_json(args.json, {"machine": machine(), "quick": args.quick, "games": rows})
    print(f"written: {args.json}")
    return 0
