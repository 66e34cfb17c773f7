"""Renderer speed, per game: board and private-image render time (p50, p95),
the same divided by the time Pillow takes to encode a blank PNG of the same
size in the same run (a ratio stable across machines: how close we are to
the floor), and the PNG sizes."""

from __future__ import annotations

import argparse
import io
import statistics
import time
from pathlib import Path
from typing import Any

from PIL import Image

from engine import GAMES, Match, rng
from render import RENDERED_GAMES, render_board, render_private

from .report import machine, percentile, write_json

NAME = "render"
HELP = "render speed per game: board and hand images, ratio to a blank PNG, sizes"
DEFAULT_JSON = Path(__file__).parent / "results" / "render.json"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--quick", action="store_true", help="fewer images")
    parser.add_argument("--json", type=Path, default=DEFAULT_JSON, help="where to write JSON")


def _positions(game_id: str, count: int) -> list[Match]:
    """Matches stopped at various points of random games."""
    game = GAMES[game_id]
    out = []
    chooser = rng.seed_state(7, game_id)
    seats = game.info.min_seats
    for i in range(count):
        match = Match(game, None, seats + i % (game.info.max_seats - seats + 1), i)
        stop, chooser = rng.randbelow(chooser, 60)
        for _ in range(stop):
            pending = sorted(match.pending())
            if not pending:
                break
            legal = match.legal_notations(pending[0])
            index, chooser = rng.randbelow(chooser, len(legal))
            match.play(pending[0], legal[index])
        out.append(match)
    return out


def _blank_encode(width: int, height: int) -> float:
    image = Image.new("RGB", (width, height), (30, 60, 45))
    t0 = time.perf_counter()
    image.save(io.BytesIO(), format="PNG", compress_level=6)
    return time.perf_counter() - t0


def bench_game(game_id: str, count: int) -> dict[str, Any]:
    names = ["Alice", "Bob", "Chloé", "David"]
    boards, privates, board_sizes, private_sizes, blanks = [], [], [], [], []
    for match in _positions(game_id, count):
        t0 = time.perf_counter()
        png = render_board(game_id, match.view(None), names[: match.seats])
        boards.append(time.perf_counter() - t0)
        board_sizes.append(len(png))
        with Image.open(io.BytesIO(png)) as image:
            width, height = image.size
        blanks.append(_blank_encode(width, height))
        seat = sorted(match.pending())[0] if match.pending() else 0
        t0 = time.perf_counter()
        png = render_private(game_id, match.view(seat), names[: match.seats])
        privates.append(time.perf_counter() - t0)
        private_sizes.append(len(png))
    blank = statistics.median(blanks)
    return {
        "game": game_id,
        "board_p50_ms": percentile(boards, 50) * 1e3,
        "board_p95_ms": percentile(boards, 95) * 1e3,
        "private_p50_ms": percentile(privates, 50) * 1e3,
        "private_p95_ms": percentile(privates, 95) * 1e3,
        "blank_png_ms": blank * 1e3,
        "board_p95_over_blank": percentile(boards, 95) / blank,
        "private_p95_over_blank": percentile(privates, 95) / blank,
        "board_png_bytes": int(statistics.median(board_sizes)),
        "private_png_bytes": int(statistics.median(private_sizes)),
        "images": count,
    }


def run(args: argparse.Namespace) -> int:
    count = 20 if args.quick else 100
    rows = []
    print(
        f"{'game':<16}{'board p50':>11}{'board p95':>11}{'x blank':>9}{'hand p50':>10}"
        f"{'hand p95':>10}{'x blank':>9}{'board PNG':>11}{'hand PNG':>10}"
    )
    for game_id in sorted(RENDERED_GAMES):
        row = bench_game(game_id, count)
        rows.append(row)
        print(
            f"{game_id:<16}{row['board_p50_ms']:>9.1f}ms{row['board_p95_ms']:>9.1f}ms"
            f"{row['board_p95_over_blank']:>8.1f}x{row['private_p50_ms']:>8.1f}ms"
            f"{row['private_p95_ms']:>8.1f}ms{row['private_p95_over_blank']:>8.1f}x"
            f"{row['board_png_bytes'] / 1024:>9.0f}KB{row['private_png_bytes'] / 1024:>8.0f}KB",
            flush=True,
        )
    write_json(args.json, {"machine": machine(), "quick": args.quick, "games": rows})
    print(f"written: {args.json}")
    return 0
