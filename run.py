#!/usr/bin/env python3
"""One entry point that sets everything up, then runs gueridon.

    python3 run.py               run the Discord bot (reads .env / the environment)
    python3 run.py console       play in the terminal, no Discord token needed
                                 (console --learn <game>: a game's guided lesson)
    python3 run.py test          lint, type-check and run every test, with samples
                                 of the long random-game sweeps (under 10 minutes)
    python3 run.py test --full   the same with the complete sweeps (what CI runs)
    python3 run.py bench         run the benchmarks (extra arguments are passed on)
    python3 run.py install       only create or update .venv (deploy/systemd)
    python3 run.py migrate-to-postgres [--from PATH] [--to URL] [--dry-run]
                                 copy the SQLite database into an empty PostgreSQL
                                 one and verify the copy (docs/deployment.md)

Arguments after ``test`` go to pytest (``--full``, ``-k``, test files...).

The first call creates ``.venv`` next to this file and installs the project
and its test tools into it; later calls reinstall only when pyproject.toml
changes. Only the Python standard library is used here.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PY = BIN / ("python.exe" if os.name == "nt" else "python")
STAMP = VENV / ".gueridon-installed"

VENV_HELP = """\
Could not create .venv: this Python cannot make virtual environments (no ensurepip).
On Debian and Ubuntu, install the venv module first, then run this command again:
    sudo apt install python3-venv"""


def _ensure_env() -> None:
    if sys.version_info < (3, 11):  # noqa: UP036 - run.py may be started by any Python
        sys.exit("gueridon needs Python 3.11 or newer.")
    want = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    if PY.exists() and STAMP.exists() and STAMP.read_text().strip() == want:
        return
    if not PY.exists():
        if importlib.util.find_spec("ensurepip") is None:
            sys.exit(VENV_HELP)
        print("Creating .venv ...", flush=True)
        try:
            venv.EnvBuilder(with_pip=True).create(VENV)
        except subprocess.CalledProcessError:
            shutil.rmtree(VENV, ignore_errors=True)  # a half-made .venv would fail next time
            sys.exit(VENV_HELP)
    print("Installing gueridon and its test tools into .venv ...", flush=True)
    subprocess.run(
        [
            str(PY),
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            "-e",
            ".[test]",
        ],
        cwd=ROOT,
        check=True,
    )
    STAMP.write_text(want)


def test_steps(pytest_args: list[str]) -> list[tuple[str, ...]]:
    """The commands of ``run.py test``: lint, format check, type check (the files
    are listed in pyproject.toml's ``[tool.mypy]``), then pytest, spread over
    every core (pytest-xdist, ``-n auto``) unless the arguments say how
    (``-n 0`` runs in one process)."""
    parallel = any(a == "-n" or a.startswith(("-n", "--numprocesses")) for a in pytest_args)
    spread = () if parallel else ("-n", "auto")
    return [
        ("-m", "ruff", "check", "."),
        ("-m", "ruff", "format", "--check", "."),
        ("-m", "mypy"),
        ("-m", "pytest", "-q", *spread, *pytest_args),
    ]


def _run(*args: str) -> int:
    return subprocess.call([str(PY), *args], cwd=ROOT)


def main(argv: list[str]) -> int:
    cmd = argv[0] if argv else "bot"
    rest = argv[1:]
    if cmd in {"-h", "--help", "help"}:
        print(__doc__)
        return 0
    _ensure_env()
    if cmd == "bot":
        return _run("-m", "bot", *rest)
    if cmd == "console":
        return _run("-m", "bot", "console", *rest)
    if cmd == "bench":
        return _run("-m", "benchmarks", *rest)
    if cmd == "install":
        return 0  # _ensure_env() did it
    if cmd == "migrate-to-postgres":
        return _run("-m", "bot.migrate_postgres", *rest)
    if cmd == "test":
        for step in test_steps(rest):
            print("$ python " + " ".join(step), flush=True)
            code = _run(*step)
            if code:
                return code
        return 0
    print(f"Unknown command {cmd!r}.\n{__doc__}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
