"""Bot strength: win rates of the bot levels against each other, per game.

Every pairing (e.g. ``hard-easy``) plays ``--games`` two-player matches of
every game with bots, through :class:`engine.Match`, the two levels swapping
seats every game; a match counts 1 for the winner, 1/2 each for a shared
first place. ``hard`` thinks with a fixed iteration budget (deterministic:
the same command gives the same table on any machine, only the times vary)
unless ``--seconds`` gives it a clock. Also reported: thinking time per
decision of each level, as CPU time of the worker process (robust when the
machine is shared) and as wall time.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

NAME = "strength"
HELP = "win rates of the bot levels against each other (docs/performance.md)"

DEFAULT_PAIRINGS = ("hard-easy", "normal-easy", "hard-normal")
DEFAULT_JSON = Path(__file__).parent / "results" / "strength.json"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--games", type=int, default=200, help="matches per pairing (200)")
    parser.add_argument(
        "--quick", action="store_true", help="a smoke run: 20 matches, hard at 150 iterations"
    )
    parser.add_argument(
        "--pairings",
        default=",".join(DEFAULT_PAIRINGS),
        help=f"comma list of A-B level pairs ({','.join(DEFAULT_PAIRINGS)})",
    )
    parser.add_argument("--game", action="append", help="game id (repeatable; default: all)")
    parser.add_argument(
        "--iterations", type=int, default=None, help="hard's iteration cap per decision"
    )
    parser.add_argument(
        "--seconds",
        type=float,
        default=None,
        help="also give hard a clock and this many seconds per decision (not reproducible)",
    )
    parser.add_argument("--options", default="", help="game options text (default: defaults)")
    parser.add_argument("--seed", type=int, default=0, help="first match seed")
    parser.add_argument(
        "--workers", type=int, default=os.cpu_count() or 1, help="processes (default: CPUs)"
    )
    parser.add_argument("--json", type=Path, default=DEFAULT_JSON, help="where to write JSON")


# ---------------------------------------------------------------------------
# One match
# ---------------------------------------------------------------------------


@dataclass
class MatchResult:
    game: str
    seed: int
    levels: tuple[str, ...]  # by seat
    ranking: list[list[int]]
    reason: str
    actions: int
    times: dict[str, list[float]] = field(default_factory=dict)  # level -> CPU s per decision
    wall: dict[str, list[float]] = field(default_factory=dict)  # level -> wall s per decision
    iterations: list[int] = field(default_factory=list)  # hard's, per searched decision
    turns: int = 0  # the game's turn counter at the end, for games that have one


def play_match(
    game_id: str,
    levels: tuple[str, ...],
    seed: int,
    iterations: int,
    seconds: float | None,
    options: str,
) -> MatchResult:
    from engine import GAMES, Match
    from engine.bots import Budget, bot_rng, make_bot

    game = GAMES[game_id]
    match = Match(game, options, len(levels), seed)
    bots = [make_bot(game_id, level) for level in levels]
    states = [bot_rng(seed, seat, "benchmark") for seat in range(len(levels))]
    budget = Budget(
        iterations=iterations,
        seconds=seconds,
        clock=time.monotonic if seconds is not None else None,
    )
    result = MatchResult(game_id, seed, levels, [], "", 0)
    while not match.is_over:
        seat = min(match.pending())
        legal = match.legal_actions(seat)
        start, cpu_start = time.perf_counter(), time.process_time()
        choice = bots[seat].think(match.view(seat), legal, states[seat], budget)
        cpu = time.process_time() - cpu_start
        wall = time.perf_counter() - start
        states[seat] = choice.rng_state
        if len(legal) > 1:  # a single legal action is played without thinking
            result.times.setdefault(levels[seat], []).append(cpu)
            result.wall.setdefault(levels[seat], []).append(wall)
            if choice.iterations:
                result.iterations.append(choice.iterations)
        match.play(seat, choice.action)
        result.actions += 1
    outcome = match.outcome()
    assert outcome is not None
    result.ranking = [list(group) for group in outcome.ranking]
    result.reason = outcome.reason
    result.turns = int(getattr(match.state, "turn", 0) or 0)
    return result


def _play(args: tuple[str, tuple[str, ...], int, int, float | None, str]) -> MatchResult:
    return play_match(*args)


# ---------------------------------------------------------------------------
# A pairing
# ---------------------------------------------------------------------------


@dataclass
class PairingResult:
    game: str
    a: str
    b: str
    games: int = 0
    score_a: float = 0.0
    reasons: dict[str, int] = field(default_factory=dict)
    times: dict[str, list[float]] = field(default_factory=dict)
    wall: dict[str, list[float]] = field(default_factory=dict)
    iterations: list[int] = field(default_factory=list)
    actions: int = 0
    turns: list[int] = field(default_factory=list)

    def add(self, match: MatchResult) -> None:
        self.games += 1
        self.actions += match.actions
        self.turns.append(match.turns)
        self.reasons[match.reason] = self.reasons.get(match.reason, 0) + 1
        first = match.ranking[0]
        seat_a = match.levels.index(self.a) if self.a != self.b else 0
        if seat_a in first:
            self.score_a += 1.0 / len(first)
        for level, values in match.times.items():
            self.times.setdefault(level, []).extend(values)
        for level, values in match.wall.items():
            self.wall.setdefault(level, []).extend(values)
        self.iterations.extend(match.iterations)

    @property
    def rate(self) -> float:
        return self.score_a / self.games if self.games else 0.0

    def interval(self) -> tuple[float, float]:
        """Wilson 95% interval of A's win rate."""
        n = self.games
        if not n:
            return 0.0, 1.0
        z = 1.96
        p = self.rate
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        return max(0.0, centre - half), min(1.0, centre + half)

    def time_stats(self, level: str, wall: bool = False) -> dict[str, float]:
        values = sorted((self.wall if wall else self.times).get(level, []))
        if not values:
            return {"decisions": 0, "mean": 0.0, "p95": 0.0, "max": 0.0}
        return {
            "decisions": len(values),
            "mean": sum(values) / len(values),
            "p95": values[min(len(values) - 1, int(0.95 * len(values)))],
            "max": values[-1],
        }

    def to_json(self) -> dict[str, Any]:
        lo, hi = self.interval()
        return {
            "game": self.game,
            "a": self.a,
            "b": self.b,
            "games": self.games,
            "score_a": self.score_a,
            "win_rate_a": round(self.rate, 4),
            "ci95": [round(lo, 4), round(hi, 4)],
            "end_reasons": dict(sorted(self.reasons.items())),
            "mean_actions": round(self.actions / self.games, 1) if self.games else 0,
            "turns": _spread(self.turns),
            "cpu_seconds_per_decision": {
                level: {k: round(v, 5) for k, v in self.time_stats(level).items()}
                for level in sorted({self.a, self.b})
            },
            "wall_seconds_per_decision": {
                level: {k: round(v, 5) for k, v in self.time_stats(level, wall=True).items()}
                for level in sorted({self.a, self.b})
            },
            "hard_iterations_mean": (
                round(sum(self.iterations) / len(self.iterations), 1) if self.iterations else None
            ),
        }


def _spread(values: list[int]) -> dict[str, float]:
    """Min, median, mean and max of a list of game lengths (turns)."""
    if not values:
        return {}
    ordered = sorted(values)
    return {
        "min": ordered[0],
        "median": ordered[len(ordered) // 2],
        "mean": round(sum(ordered) / len(ordered), 1),
        "max": ordered[-1],
    }


def run_pairing(
    game_id: str,
    a: str,
    b: str,
    games: int,
    *,
    iterations: int,
    seconds: float | None,
    options: str,
    seed: int,
    workers: int,
) -> PairingResult:
    tasks = []
    for i in range(games):
        levels = (a, b) if i % 2 == 0 else (b, a)
        tasks.append((game_id, levels, seed + i, iterations, seconds, options))
    result = PairingResult(game_id, a, b)
    if workers <= 1:
        for task in tasks:
            result.add(_play(task))
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            for match in pool.map(_play, tasks, chunksize=1):
                result.add(match)
    return result


# ---------------------------------------------------------------------------
# The command
# ---------------------------------------------------------------------------


def _parse_pairings(text: str) -> list[tuple[str, str]]:
    from engine.bots import LEVELS

    out: list[tuple[str, str]] = []
    for chunk in text.split(","):
        a, sep, b = chunk.strip().partition("-")
        if not sep or a not in LEVELS or b not in LEVELS:
            raise SystemExit(f"bad pairing {chunk!r}: use A-B with levels {', '.join(LEVELS)}")
        out.append((a, b))
    return out


def table(results: Sequence[PairingResult]) -> str:
    head = (
        "| game | pairing | games | A's score | A's win rate (95% CI) "
        "| A CPU s/decision (mean, p95, max) | B CPU s/decision (mean) |"
    )
    lines = [head, "|---|---|---|---|---|---|---|"]
    for r in results:
        lo, hi = r.interval()
        ta, tb = r.time_stats(r.a), r.time_stats(r.b)
        lines.append(
            f"| {r.game} | {r.a} vs {r.b} | {r.games} | {r.score_a:g} "
            f"| {r.rate:.1%} ({lo:.1%}–{hi:.1%}) "
            f"| {ta['mean']:.3f}, {ta['p95']:.3f}, {ta['max']:.3f} | {tb['mean']:.4f} |"
        )
    return "\n".join(lines)


def machine() -> dict[str, Any]:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {
        "cpu": cpu,
        "cpus": os.cpu_count(),
        "python": sys.version.split()[0],
        "implementation": platform.python_implementation(),
        "system": f"{platform.system()} {platform.release()}",
    }


def run(args: argparse.Namespace) -> int:
    from engine.bots import DEFAULT_BUDGET, POLICIES

    games = 20 if args.quick and args.games == 200 else args.games
    iterations = args.iterations or (150 if args.quick else DEFAULT_BUDGET.iterations)
    game_ids = args.game or sorted(POLICIES)
    pairings = _parse_pairings(args.pairings)
    started = time.perf_counter()
    results = []
    for game_id in game_ids:
        for a, b in pairings:
            t0 = time.perf_counter()
            result = run_pairing(
                game_id,
                a,
                b,
                games,
                iterations=iterations,
                seconds=args.seconds,
                options=args.options,
                seed=args.seed,
                workers=args.workers,
            )
            results.append(result)
            print(
                f"{game_id}: {a} vs {b}: {result.score_a:g}/{result.games} "
                f"({result.rate:.1%}) in {time.perf_counter() - t0:.0f} s",
                file=sys.stderr,
                flush=True,
            )
    print(table(results))
    report = {
        "benchmark": NAME,
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "command": "python -m benchmarks " + " ".join(sys.argv[1:]),
        "machine": machine(),
        "workers": args.workers,
        "seats": 2,
        "games_per_pairing": games,
        "hard_budget": {"iterations": iterations, "seconds": args.seconds},
        "options": args.options,
        "elapsed_seconds": round(time.perf_counter() - started, 1),
        "results": [r.to_json() for r in results],
    }
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(report, indent=1) + "\n")
    print(f"written {args.json}", file=sys.stderr)
    return 0
