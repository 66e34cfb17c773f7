"""``python -m benchmarks <subcommand>``: see the package docstring."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from types import ModuleType

from . import codec_speed, engine_speed, host_speed, render_speed, shard_speed, strength

SUBCOMMANDS: tuple[ModuleType, ...] = (
    engine_speed,
    codec_speed,
    render_speed,
    host_speed,
    shard_speed,
    strength,
)
"""Add a module here to add a subcommand (engine, render, host ...)."""


EVERYTHING: tuple[ModuleType, ...] = (engine_speed, codec_speed, render_speed, host_speed)
"""What ``python -m benchmarks`` runs without a subcommand, in this order.
Bot strength is left out: 200 matches per pairing take hours (run
``python -m benchmarks strength``)."""


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks",
        description=(
            "Without a subcommand: the engine, render and host benchmarks in turn, "
            "each with its defaults, or each with --quick. Bot strength takes hours: "
            "run the strength subcommand on its own."
        ),
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help="without a subcommand: every benchmark's quick mode (a few minutes in all)",
    )
    sub = parser.add_subparsers(dest="command", metavar="SUBCOMMAND")
    children: dict[str, argparse.ArgumentParser] = {}
    for module in SUBCOMMANDS:
        child = sub.add_parser(module.NAME, help=module.HELP, description=module.__doc__)
        module.add_arguments(child)
        child.set_defaults(run=module.run)
        children[module.NAME] = child
    args = parser.parse_args(argv)
    if args.command is not None:
        code: int = args.run(args)
        return code
    worst = 0
    for module in EVERYTHING:
        print(f"\n## {module.NAME}\n", flush=True)
        child_args = children[module.NAME].parse_args(["--quick"] if args.quick else [])
        worst = max(worst, module.run(child_args))
    return worst


if __name__ == "__main__":
    sys.exit(main())
