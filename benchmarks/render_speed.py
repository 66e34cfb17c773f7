"""Renderer speed, per game, in CPU time (``time.process_time``: the machine
is shared, wall time measures the neighbours): board and private-image
render time (p50, p95), each split into drawing and PNG encoding, the board
and hand of one position together (what the host draws per action, about),
the same divided by the floor, cold and warm boards, and the PNG sizes.

The floor is a blank image of the board's size encoded by the very function
our boards use (:func:`render.common.to_png`, same settings): board p95 over
blank says how far above "encode a PNG of that size" our drawing is.
Encoding is timed by encoding the returned image again (decoded from the
PNG: same size, same mode, same pixels), drawing is the rest.

Cold: the first board of a match with every renderer cache emptied
(:func:`render.common.clear_caches`: fonts, masks, card faces); warm: the
later boards of the same match, one per action."""

from __future__ import annotations

import argparse
import io
import os
import statistics
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from PIL import Image

from engine import GAMES, Match, rng
from render import RENDERED_GAMES, render_board, render_private
from render.common import clear_caches, to_png

from .report import machine, percentile, write_json

NAME = "render"
HELP = "render speed per game: board and hand images (draw / encode, CPU), ratio to a blank PNG"
DEFAULT_JSON = Path(__file__).parent / "results" / "render.json"
NAMES = ["Alice", "Bob", "Chloé", "David"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--quick", action="store_true", help="fewer images (20 per game)")
    parser.add_argument("--images", type=int, default=0, help="positions per game (default 100)")
    parser.add_argument("--games", default="", help="comma-separated game ids (default: all)")
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
            played, chooser = _step(match, chooser)
            if not played:
                break
        out.append(match)
    return out


def _step(match: Match, chooser: int) -> tuple[bool, int]:
    """Play one random legal action: (whether one was played, the chooser)."""
    pending = sorted(match.pending())
    if not pending:
        return False, chooser
    legal = match.legal_notations(pending[0])
    index, chooser = rng.randbelow(chooser, len(legal))
    match.play(pending[0], legal[index])
    return True, chooser


def _board(game_id: str, view: Callable[[int | None], object], names: list[str]) -> bytes:
    return render_board(game_id, view(None), names)


def _private(
    game_id: str, view: Callable[[int | None], object], seat: int, names: list[str]
) -> bytes:
    return render_private(game_id, view(seat), names)


def _timed(draw: Callable[[], bytes]) -> tuple[float, float, bytes]:
    """(total CPU seconds, of which encoding, png)."""
    t0 = time.process_time()
    png = draw()
    total = time.process_time() - t0
    with Image.open(io.BytesIO(png)) as decoded:
        decoded.load()
        image = decoded.copy()
    t0 = time.process_time()
    to_png(image)
    encode = time.process_time() - t0
    return total, min(encode, total), png


def _blank_encode(width: int, height: int) -> float:
    image = Image.new("RGB", (width, height), (30, 60, 45))
    t0 = time.process_time()
    to_png(image)
    return time.process_time() - t0


def _cold_warm(game_id: str, matches: int, boards: int) -> tuple[list[float], list[float]]:
    """Board CPU seconds: the first board of each match with empty caches
    (cold), then one board after each of its next actions (warm)."""
    game = GAMES[game_id]
    cold: list[float] = []
    warm: list[float] = []
    chooser = rng.seed_state(11, game_id)
    for i in range(matches):
        match = Match(game, None, game.info.min_seats, 1000 + i)
        names = NAMES[: match.seats]
        clear_caches()
        for k in range(boards):
            t0 = time.process_time()
            render_board(game_id, match.view(None), names)
            (cold if k == 0 else warm).append(time.process_time() - t0)
            played, chooser = _step(match, chooser)
            if not played:
                break
    return cold, warm


def _ms(values: list[float], q: float) -> float:
    return percentile(values, q) * 1e3


def bench_game(game_id: str, count: int) -> dict[str, Any]:
    boards, board_enc, privates, private_enc, both, blanks = [], [], [], [], [], []
    board_sizes, private_sizes = [], []
    for match in _positions(game_id, count):
        names = NAMES[: match.seats]
        view = match.view  # the view is built inside the timing, as a host does
        total, enc, png = _timed(partial(_board, game_id, view, names))
        boards.append(total)
        board_enc.append(enc)
        board_sizes.append(len(png))
        with Image.open(io.BytesIO(png)) as image:
            width, height = image.size
        blanks.append(_blank_encode(width, height))
        seat = sorted(match.pending())[0] if match.pending() else 0
        ptotal, penc, png = _timed(partial(_private, game_id, view, seat, names))
        privates.append(ptotal)
        private_enc.append(penc)
        private_sizes.append(len(png))
        both.append(total + ptotal)
    blank = max(statistics.median(blanks), 1e-6)
    cold, warm = _cold_warm(game_id, max(2, count // 10), 8)
    board_draw = [t - e for t, e in zip(boards, board_enc, strict=True)]
    private_draw = [t - e for t, e in zip(privates, private_enc, strict=True)]
    return {
        "game": game_id,
        "board_p50_ms": _ms(boards, 50),
        "board_p95_ms": _ms(boards, 95),
        "board_draw_p50_ms": _ms(board_draw, 50),
        "board_encode_p50_ms": _ms(board_enc, 50),
        "private_p50_ms": _ms(privates, 50),
        "private_p95_ms": _ms(privates, 95),
        "private_draw_p50_ms": _ms(private_draw, 50),
        "private_encode_p50_ms": _ms(private_enc, 50),
        "board_and_hand_mean_ms": statistics.fmean(both) * 1e3,
        "blank_png_ms": blank * 1e3,
        "board_p95_over_blank": percentile(boards, 95) / blank,
        "private_p95_over_blank": percentile(privates, 95) / blank,
        "cold_board_mean_ms": statistics.fmean(cold) * 1e3,
        "warm_board_p50_ms": _ms(warm, 50) if warm else 0.0,
        "board_png_bytes": int(statistics.median(board_sizes)),
        "private_png_bytes": int(statistics.median(private_sizes)),
        "images": count,
        "clock": "cpu",
    }


def run(args: argparse.Namespace) -> int:
    count = args.images or (20 if args.quick else 100)
    games = [g for g in args.games.split(",") if g] or sorted(RENDERED_GAMES)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else 0.0
    print(f"CPU ms per image, {count} positions per game, load average {load:.2f}")
    print(
        f"{'game':<15}{'board p50':>10}{'p95':>7}{'draw':>7}{'enc':>6}{'x blank':>8}"
        f"{'hand p50':>9}{'p95':>7}{'draw':>7}{'enc':>6}{'b+h':>7}{'cold':>7}{'warm':>7}"
        f"{'board':>8}{'hand':>7}"
    )
    rows = []
    for game_id in games:
        row = bench_game(game_id, count)
        rows.append(row)
        print(
            f"{game_id:<15}{row['board_p50_ms']:>10.1f}{row['board_p95_ms']:>7.1f}"
            f"{row['board_draw_p50_ms']:>7.1f}{row['board_encode_p50_ms']:>6.1f}"
            f"{row['board_p95_over_blank']:>7.1f}x"
            f"{row['private_p50_ms']:>9.1f}{row['private_p95_ms']:>7.1f}"
            f"{row['private_draw_p50_ms']:>7.1f}{row['private_encode_p50_ms']:>6.1f}"
            f"{row['board_and_hand_mean_ms']:>7.1f}"
            f"{row['cold_board_mean_ms']:>7.1f}{row['warm_board_p50_ms']:>7.1f}"
            f"{row['board_png_bytes'] / 1024:>6.0f}KB{row['private_png_bytes'] / 1024:>5.0f}KB",
            flush=True,
        )
    end_load = os.getloadavg()[0] if hasattr(os, "getloadavg") else 0.0
    print(f"load average at the end {end_load:.2f}; blank floor: render.common.to_png")
    write_json(
        args.json,
        {
            "machine": machine(),
            "quick": args.quick,
            "load_average": [load, end_load],
            "games": rows,
        },
    )
    print(f"written: {args.json}")
    return 0
