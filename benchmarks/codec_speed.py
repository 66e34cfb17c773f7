"""State codec speed, per game: encode and decode time per saved state (JSON
text or bytes, the envelope with the game and schema included) of the msgspec
codec (``engine/codec.py``, what ``Game.dump_state`` / ``load_state`` run)
against the former reflective codec (``codec.to_jsonable`` / ``from_jsonable``
through the json module) and, while it exists, Via Belli's hand-written
compact codec; median over real states of random games, and the mean size."""

from __future__ import annotations

import argparse
import importlib
import json
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from engine import GAMES, codec, rng

from .report import machine, write_json

NAME = "codec"
HELP = "state codec per game: encode/decode time, msgspec vs the former codecs"
DEFAULT_JSON = Path(__file__).parent / "results" / "codec.json"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--quick", action="store_true", help="fewer states (a few seconds)")
    parser.add_argument("--json", type=Path, default=DEFAULT_JSON, help="where to write JSON")


def _states(game_id: str, games: int) -> list[Any]:
    """States spread over random games (every seat count), setup to end."""
    game = GAMES[game_id]
    seat_counts = list(range(game.info.min_seats, game.info.max_seats + 1))
    out: list[Any] = []
    for i in range(games):
        state = game.setup(game.options(None), seat_counts[i % len(seat_counts)], 1000 + i)
        chooser = rng.seed_state(i, "codec-bench")
        step = 0
        while pending := game.pending(state):
            if step % 15 == 0:
                out.append(state)
            seat = min(pending)
            legal = game.legal_actions(state, seat)
            index, chooser = rng.randbelow(chooser, len(legal))
            state, _ = game.apply(state, seat, legal[index])
            step += 1
        out.append(state)
    return out


def _time(fn: Callable[[Any], Any], items: list[Any], repeat: int) -> float:
    """Median over items of the best of ``repeat`` calls, in microseconds."""
    times = []
    for item in items:
        best = float("inf")
        for _ in range(repeat):
            t0 = time.perf_counter()
            fn(item)
            best = min(best, time.perf_counter() - t0)
        times.append(best)
    return statistics.median(times) * 1e6


def _codecs(game_id: str) -> dict[str, tuple[Callable[[Any], Any], Callable[[Any], Any]]]:
    """``{name: (encode state -> saved, decode saved -> state)}``."""
    game = GAMES[game_id]
    tp = game.state_type
    schema = game.schema_version

    def new_enc(state: Any) -> bytes:
        return codec.encode({"game": game_id, "schema": schema, "state": state})

    def new_dec(data: bytes) -> Any:
        return codec.decode(tp, codec.read_envelope(data).state)

    def old_enc(state: Any) -> str:
        return json.dumps({"game": game_id, "schema": schema, "state": codec.to_jsonable(state)})

    def old_dec(text: str) -> Any:
        return codec.from_jsonable(tp, json.loads(text)["state"])

    out = {"msgspec": (new_enc, new_dec), "reflective (old)": (old_enc, old_dec)}
    compact = _via_belli_compact() if game_id == "via-belli" else None
    if compact is not None:
        encode, decode = compact

        def vb_enc(state: Any) -> str:
            return json.dumps({"game": game_id, "schema": 1, "state": encode(state)})

        def vb_dec(text: str) -> Any:
            return decode(json.loads(text)["state"])

        out["Via Belli compact (old)"] = (vb_enc, vb_dec)
    return out


def _via_belli_compact() -> tuple[Callable[[Any], Any], Callable[[Any], Any]] | None:
    for name in ("engine.games.via_belli.codec", "engine.games.via_belli"):
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError:
            continue
        encode, decode = getattr(module, "_encode", None), getattr(module, "_decode", None)
        if encode is not None and decode is not None:
            return encode, decode
    return None


def run(args: argparse.Namespace) -> int:
    games, repeat = (2, 3) if args.quick else (6, 7)
    rows = []
    print(
        f"{'game':<16}{'codec':<26}{'encode':>10}{'decode':>10}{'size':>9}{'× enc':>7}{'× dec':>7}"
    )
    for game_id in sorted(GAMES):
        states = _states(game_id, games)
        tp = GAMES[game_id].state_type
        results = {}
        for name, (enc, dec) in _codecs(game_id).items():
            saved = [enc(s) for s in states]
            assert all(dec(x) == s for x, s in zip(saved, states, strict=True)), name
            assert all(type(dec(x)) is tp for x in saved[:3])
            results[name] = (
                _time(enc, states, repeat),
                _time(dec, saved, repeat),
                statistics.mean(len(x) for x in saved),
            )
        new_enc, new_dec, _ = results["msgspec"]
        for name, (enc_us, dec_us, size) in results.items():
            row = {
                "game": game_id,
                "codec": name,
                "states": len(states),
                "encode_us": enc_us,
                "decode_us": dec_us,
                "size_bytes": size,
                "encode_vs_msgspec": enc_us / new_enc,
                "decode_vs_msgspec": dec_us / new_dec,
            }
            rows.append(row)
            print(
                f"{game_id:<16}{name:<26}{enc_us:>8.0f}µs{dec_us:>8.0f}µs{size:>9.0f}"
                f"{row['encode_vs_msgspec']:>7.1f}{row['decode_vs_msgspec']:>7.1f}",
                flush=True,
            )
    write_json(args.json, {"machine": machine(), "quick": args.quick, "rows": rows})
    print(f"written: {args.json}")
    return 0
