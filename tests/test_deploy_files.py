"""The files of ``deploy/`` (no Docker engine nor systemd manager needed):
the compose file parses, its services run commands and set settings that
exist in the code, its shards cover ``SHARD_COUNT`` once each; the systemd
units run the same command, one shard per instance (``systemd-analyze
verify`` checks them where it is installed); ``docs/deployment.md`` names
only settings that exist."""

from __future__ import annotations

import importlib.util
import json
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml  # type: ignore[import-untyped]

import run
from bot.settings import Settings
from bot.shards import shard_of

ROOT = Path(__file__).resolve().parent.parent
DEPLOY = ROOT / "deploy"
UNITS = DEPLOY / "systemd"
SETTINGS = {name.upper() for name in Settings.model_fields}


def _compose() -> dict[str, Any]:
    data = yaml.safe_load((DEPLOY / "compose.yaml").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def _bots(compose: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {name: s for name, s in compose["services"].items() if name != "postgres"}


def _module_of(command: list[str]) -> str:
    """``python -m X ...`` -> ``X`` (the only way the deploy files start code)."""
    assert Path(command[0]).name.startswith("python"), command
    assert command[1] == "-m", command
    return command[2]


def _runs(module: str) -> bool:
    spec = importlib.util.find_spec(module)
    if spec is None:
        return False
    if spec.submodule_search_locations is not None:  # a package: its __main__
        return importlib.util.find_spec(module + ".__main__") is not None
    return True


def test_compose_services_run_existing_commands_with_existing_settings() -> None:
    compose = _compose()
    bots = _bots(compose)
    assert sorted(bots) == ["bot-0", "bot-1", "bot-2"]
    images = {(s["build"]["context"], s["build"]["dockerfile"], s["image"]) for s in bots.values()}
    assert len(images) == 1, "the three bots share one image"
    context, dockerfile, _ = images.pop()
    assert (DEPLOY / context).resolve() == ROOT
    assert (ROOT / dockerfile).is_file()
    for name, service in bots.items():
        for command in (service["command"], service["healthcheck"]["test"][1:]):
            assert _runs(_module_of(command)), (name, command)
        env = service["environment"]
        assert set(env) <= SETTINGS, (name, set(env) - SETTINGS)
        assert service["depends_on"]["postgres"]["condition"] == "service_healthy"
        assert service["stop_signal"] == "SIGINT"  # discord.py closes its sessions cleanly


def test_compose_shards_cover_the_count_once_and_only_shard_0_syncs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    bots = _bots(_compose())
    owned: list[int] = []
    syncing = []
    for name, service in bots.items():
        for key, value in service["environment"].items():
            monkeypatch.setenv(key, str(value).replace("${POSTGRES_PASSWORD:-gueridon}", "pw"))
        settings = Settings()  # what that process reads (and validates)
        assert settings.database_url is not None
        assert "@postgres:" in settings.database_url  # the compose service's host name
        assert settings.shards.count == 3
        owned.extend(settings.shards.ids)
        if settings.syncs_commands:
            syncing.append(name)
        # a server is owned by exactly the process of its shard
        assert settings.shards.owns(5 << 22) == (shard_of(5 << 22, 3) in settings.shards.ids)
    assert sorted(owned) == [0, 1, 2]
    assert syncing == ["bot-0"]


def test_compose_postgres_is_health_checked_and_keeps_its_data() -> None:
    compose = _compose()
    postgres = compose["services"]["postgres"]
    assert "pg_isready" in " ".join(postgres["healthcheck"]["test"])
    volume, mount = postgres["volumes"][0].split(":", 1)
    assert volume in compose["volumes"]
    assert mount == "/var/lib/postgresql/data"
    env = postgres["environment"]
    url = _bots(compose)["bot-0"]["environment"]["DATABASE_URL"]
    assert f"//{env['POSTGRES_USER']}:" in url and url.endswith("/" + env["POSTGRES_DB"])


def test_dockerfile_copies_what_exists_and_runs_the_compose_command() -> None:
    lines = (DEPLOY / "Dockerfile").read_text(encoding="utf-8").splitlines()
    copies = [line.split()[1:-1] for line in lines if line.startswith("COPY ")]
    for sources in copies:
        for source in sources:
            assert (ROOT / source).exists(), source
    cmd = next(line for line in lines if line.startswith("CMD "))
    assert json.loads(cmd[4:]) == _bots(_compose())["bot-0"]["command"]


def _unit(path: Path) -> list[tuple[str, str, str]]:
    """``(section, key, value)`` of a unit file, in order (keys may repeat)."""
    out = []
    section = ""
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            section = line.strip("[]")
            continue
        key, value = line.split("=", 1)
        out.append((section, key.strip(), value.strip()))
    return out


def _values(unit: list[tuple[str, str, str]], section: str, key: str) -> list[str]:
    return [v for s, k, v in unit if s == section and k == key]


def test_systemd_instance_runs_one_shard_with_the_compose_command() -> None:
    unit = _unit(UNITS / "gueridon@.service")
    start = shlex.split(_values(unit, "Service", "ExecStart")[0])
    assert start[1:] == _bots(_compose())["bot-0"]["command"][1:]
    assert _runs(_module_of(start))
    assert _values(unit, "Service", "Environment") == ["SHARD_IDS=%i"]
    files = _values(unit, "Service", "EnvironmentFile")
    assert "/etc/gueridon/gueridon.env" in files
    assert _values(unit, "Install", "WantedBy") == ["gueridon.target"]
    assert _values(unit, "Unit", "PartOf") == ["gueridon.target"]
    assert _values(unit, "Service", "KillSignal") == ["SIGINT"]
    install = _unit(UNITS / "gueridon-install.service")
    assert "gueridon-install.service" in _values(unit, "Unit", "Requires")
    command = shlex.split(_values(install, "Service", "ExecStart")[0])
    assert Path(command[1]).name == "run.py" and command[2:] == ["install"]
    assert (UNITS / "gueridon.target").is_file()


def test_run_py_install_only_prepares_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[str, ...]] = []
    monkeypatch.setattr(run, "_ensure_env", lambda: calls.append(("ensure",)))

    def fake_run(*args: str) -> int:
        calls.append(args)
        return 0

    monkeypatch.setattr(run, "_run", fake_run)
    assert run.main(["install"]) == 0
    assert calls == [("ensure",)]
    assert run.main(["migrate-to-postgres", "--dry-run"]) == 0
    assert calls[-1] == ("-m", "bot.migrate_postgres", "--dry-run")


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="no systemd-analyze here")
def test_systemd_analyze_verifies_the_units(tmp_path: Path) -> None:
    """The units as installed under a stand-in /opt/gueridon (whose python
    and run.py exist), checked by systemd itself."""
    home = tmp_path / "opt"
    (home / ".venv" / "bin").mkdir(parents=True)
    (home / ".venv" / "bin" / "python").symlink_to(sys.executable)
    (home / "run.py").symlink_to(ROOT / "run.py")
    units = tmp_path / "units"
    units.mkdir()
    for path in UNITS.iterdir():
        text = path.read_text(encoding="utf-8").replace("/opt/gueridon", str(home))
        text = text.replace("/usr/bin/python3", sys.executable)
        (units / path.name).write_text(text, encoding="utf-8")
    names = ["gueridon@0.service", "gueridon@2.service", "gueridon-install.service"]
    done = subprocess.run(
        ["systemd-analyze", "verify", "--man=no", *(str(units / n) for n in names)],
        capture_output=True,
        text=True,
        cwd=units,
        timeout=60,
    )
    report = (done.stdout + done.stderr).strip()
    # units this machine lacks (postgresql.service) are not the files' fault
    problems = [line for line in report.splitlines() if "postgresql.service" not in line]
    assert done.returncode == 0 and not problems, report


NOT_SETTINGS = {
    "POSTGRES_PASSWORD",  # compose's variable for the database password
    "POSTGRES_USER",
    "POSTGRES_DB",
    "PGPASSWORD",
}


def test_deployment_doc_names_only_existing_settings() -> None:
    text = (ROOT / "docs" / "deployment.md").read_text(encoding="utf-8")
    named = set(re.findall(r"\b([A-Z][A-Z0-9]*_[A-Z0-9_]+)=", text))
    named |= set(re.findall(r"`([A-Z][A-Z0-9]*_[A-Z0-9_]+)`", text))
    assert named - SETTINGS - NOT_SETTINGS == set()
    for name in ("DATABASE_URL", "SHARD_COUNT", "SHARD_IDS", "SYNC_COMMANDS", "DATABASE_PATH"):
        assert name in named
