"""The README's commands: ``python3 run.py test`` (default tier) and
``python3 run.py test --full`` (complete sweeps), which ``.ci/run`` runs."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import tomllib
from pathlib import Path
from types import ModuleType

import pytest

from engine import GAMES
from tests.test_conformance import CHUNKS, SAMPLE_GAMES, sweep_games

ROOT = Path(__file__).resolve().parents[1]


def _run_py() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gueridon_run", ROOT / "run.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_ci_runs_the_full_tier() -> None:
    lines = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    commands = [line.strip() for line in lines if line.strip() and not line.startswith("#")]
    assert commands[-1] == "python3 run.py test --full"


def test_run_py_test_lints_type_checks_then_passes_its_arguments_to_pytest() -> None:
    steps = _run_py().test_steps(["--full", "-x"])
    assert steps[-1] == ("-m", "pytest", "-q", "-n", "auto", "--full", "-x")
    # the caller may say how many processes (``-n 0``: one)
    assert _run_py().test_steps(["-n", "0"])[-1] == ("-m", "pytest", "-q", "-n", "0")
    assert ("-m", "mypy") in steps  # plain mypy: the files are in pyproject.toml
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert pyproject["tool"]["mypy"]["files"] == ["engine", "render", "bot", "i18n"]


def test_discord_py_is_pinned_below_3() -> None:
    """tests/fakediscord patches discord.http.Route.BASE and
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY."""
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    (spec,) = [d for d in pyproject["project"]["dependencies"] if d.startswith("discord.py")]
    assert "<3" in spec.replace(" ", "").split(",")


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_both_tiers_play_whole_chunks(game_id: str) -> None:
    game = GAMES[game_id]
    assert sweep_games(game, full=True) == game.conformance_games
    assert sweep_games(game, full=False) == min(SAMPLE_GAMES, game.conformance_games)
    for full in (True, False):
        size = sweep_games(game, full)
        assert size % CHUNKS == 0 and size >= CHUNKS, (game_id, full, size)


def _collect(*args: str) -> set[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "--collect-only", "-p", "no:cacheprovider", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    # 0: tests were collected (5 would be "no tests collected", 4 an unknown option)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    return {line for line in proc.stdout.splitlines() if "::" in line}


def test_both_tiers_collect_every_sweep() -> None:
    """``--full`` (what ``.ci/run`` hands to pytest) is a known option and
    collects the complete sweeps; the default tier runs the same tests, the
    Via Belli presets in one chunk each."""
    sweeps = ("tests/test_conformance.py", "tests/games/test_via_belli_presets.py")
    full, default = _collect("--full", *sweeps), _collect(*sweeps)
    for game_id in GAMES:
        for ids in (full, default):
            assert f"tests/test_conformance.py::test_random_playouts[{game_id}-9]" in ids
            assert f"tests/test_conformance.py::test_playouts_cover_every_ability[{game_id}]" in ids
    presets = "tests/games/test_via_belli_presets.py::test_random_games_on_every_preset"
    assert f"{presets}[2-carre_4j]" in full and f"{presets}[0-carre_4j]" in default
    assert len(full) == len(default) + 10
    assert default < full


@pytest.mark.parametrize("how", ["no ensurepip", "ensurepip fails"])
def test_run_py_explains_a_missing_venv_module(
    how: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Debian and Ubuntu ship a working ensurepip only in python3-venv: without
    it, ``python3 run.py`` says what to install instead of a traceback, and
    leaves no half-made .venv behind."""
    run = _run_py()
    venv_dir = tmp_path / ".venv"
    monkeypatch.setattr(run, "VENV", venv_dir)
    monkeypatch.setattr(run, "PY", venv_dir / "bin" / "python")
    monkeypatch.setattr(run, "STAMP", venv_dir / ".gueridon-installed")

    def no_install(*args: object, **kwargs: object) -> None:
        raise AssertionError("must not install anything")

    monkeypatch.setattr(run.subprocess, "run", no_install)
    if how == "no ensurepip":
        real_find_spec = importlib.util.find_spec
        monkeypatch.setattr(
            importlib.util,
            "find_spec",
            lambda name, *a: None if name == "ensurepip" else real_find_spec(name, *a),
        )
    else:

        def failing_create(self: object, env_dir: Path) -> None:
            Path(env_dir, "bin").mkdir(parents=True)  # what a failed ensurepip leaves
            raise subprocess.CalledProcessError(1, ["python", "-m", "ensurepip"])

        monkeypatch.setattr(run.venv.EnvBuilder, "create", failing_create)
    with pytest.raises(SystemExit) as exit_info:
        run._ensure_env()
    assert "sudo apt install python3-venv" in str(exit_info.value.code)
    assert not venv_dir.exists()


def test_readme_and_docs_say_python3() -> None:
    """Debian and Ubuntu have no ``python``: every ``run.py`` command is written
    ``python3 run.py``."""
    files = [ROOT / "README.md", ROOT / "bot" / "__main__.py", *(ROOT / "docs").rglob("*.md")]
    for path in files:
        text = path.read_text(encoding="utf-8")
        bare = [line for line in text.splitlines() if "python run.py" in line]
        assert not bare, (path.relative_to(ROOT), bare)


def test_gitignore_covers_what_the_readme_says_is_written() -> None:
    ignored = subprocess.run(
        ["git", "check-ignore", "--no-index", "--stdin"],
        cwd=ROOT,
        input="\n".join(
            [
                ".env",
                ".venv/bin/python",
                "gueridon.db",
                "gueridon.db-wal",
                "gueridon.db-shm",
                "backup.db",
                "console-out/board.png",
                "benchmarks/results/engine.json",
            ]
        ),
        capture_output=True,
        text=True,
    )
    assert ignored.stdout.split() == [
        ".env",
        ".venv/bin/python",
        "gueridon.db",
        "gueridon.db-wal",
        "gueridon.db-shm",
        "backup.db",
        "console-out/board.png",
        "benchmarks/results/engine.json",
    ], ignored.stderr
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for written in ("console-out/", "benchmarks/results/", "gueridon.db", "backup.db", ".env"):
        assert written in readme
