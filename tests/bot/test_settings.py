"""Settings: the README's first steps must work, and empty values mean "not set"."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
ENV_EXAMPLE = ROOT / ".env.example"


def _clean_environ() -> dict[str, str]:
    """The environment of a new user: none of our settings set."""
    names = {name.upper() for name in Settings.model_fields}
    env = {k: v for k, v in os.environ.items() if k.upper() not in names}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    return env


def test_readme_step_2_then_run_explains_the_missing_token(tmp_path: Path) -> None:
    """README step 2: ``cp .env.example .env``, then ``python3 run.py`` (which runs
    ``python -m bot``). Without a token the bot explains what to do and exits 2,
    with no traceback, although ``DEV_GUILD_ID=`` and ``DISCORD_TOKEN=`` are empty."""
    (tmp_path / ".env").write_text(ENV_EXAMPLE.read_text(encoding="utf-8"), encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,
        env=_clean_environ(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert "Traceback" not in proc.stderr, proc.stderr
    assert proc.returncode == 2, proc.stderr
    assert "gueridon needs a Discord bot token to run." in proc.stderr


def test_env_example_has_every_empty_optional_setting_read_as_not_set(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text(ENV_EXAMPLE.read_text(encoding="utf-8"), encoding="utf-8")
    settings = Settings(_env_file=env_file)  # type: ignore[call-arg]
    assert settings.dev_guild_id is None
    assert settings.token is None
    assert settings.database_path == "gueridon.db"


def test_every_setting_left_empty_takes_its_default(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text(
        "".join(f"{name.upper()}=\n" for name in Settings.model_fields), encoding="utf-8"
    )
    settings = Settings(_env_file=env_file)  # type: ignore[call-arg]
    defaults = Settings(_env_file=None)  # type: ignore[call-arg]
    assert settings == defaults
    assert settings.dev_guild_id is None and settings.render_workers == 2


def test_empty_environment_variables_mean_not_set(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DEV_GUILD_ID", "")
    monkeypatch.setenv("RENDER_WORKERS", "")
    monkeypatch.setenv("WORKER_PROCESSES", "")
    settings = Settings()
    assert settings.dev_guild_id is None
    assert settings.render_workers == 2 and settings.worker_processes is True


def test_a_set_value_is_still_read(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text("DEV_GUILD_ID=123456789012345678\nRENDER_WORKERS=3\n", encoding="utf-8")
    settings = Settings(_env_file=env_file)  # type: ignore[call-arg]
    assert settings.dev_guild_id == 123456789012345678
    assert settings.render_workers == 3


def test_tests_never_read_the_developers_env_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """tests/conftest.py keeps a developer's own ``.env`` (and shell settings)
    out of every test's ``Settings()``."""
    (tmp_path / ".env").write_text(
        "DISCORD_TOKEN=developer-token\nDEV_GUILD_ID=42\n", encoding="utf-8"
    )
    monkeypatch.chdir(tmp_path)
    settings = Settings()
    assert settings.token is None
    assert settings.dev_guild_id is None
