"""``python -m benchmarks <subcommand>``: see the package docstring."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from types import ModuleType

from . import engine_speed, host_speed, render_speed, strength

SUBCOMMANDS: tuple[ModuleType, ...] = (engine_speed, render_speed, host_speed, strength)
"""Add a module here to add a subcommand (engine, render, host ...)."""


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True, metavar="SUBCOMMAND")
    for module in SUBCOMMANDS:
        child = sub.add_parser(module.NAME, help=module.HELP, description=module.__doc__)
        module.add_arguments(child)
        child.set_defaults(run=module.run)
    args = parser.parse_args(argv)
    code: int = args.run(args)
    return code


if __name__ == "__main__":
    sys.exit(main())
