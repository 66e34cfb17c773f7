"""Benchmarks: ``python -m benchmarks <subcommand> [options]``.

Each subcommand is a module of this package exposing ``NAME``, ``HELP``,
``add_arguments(parser)`` and ``run(args) -> int``, listed in
:data:`benchmarks.__main__.SUBCOMMANDS`. Results are printed as a table and
written as JSON under ``benchmarks/results/`` (or ``--json PATH``).
"""
