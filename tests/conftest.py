"""Test-wide set-up: the two test tiers, and a clean settings environment.

``python3 run.py test`` (plain ``pytest``) is the default tier: every test,
with the long random-game sweeps cut to a real sample of their first games.
``python3 run.py test --full`` (``pytest --full``; what ``.ci/run`` runs) plays
the complete sweeps. A sweep reads the tier from the ``full_sweep`` fixture.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.settings import Settings
from tests import pg

# a text key missing from a catalogue fails the test instead of falling back to English
os.environ.setdefault("GUERIDON_I18N_STRICT", "1")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--full",
        action="store_true",
        default=False,
        help="play the complete random-game sweeps (conformance, Via Belli presets)",
    )


def pytest_report_header(config: pytest.Config) -> str:
    if config.getoption("--full"):
        return "gueridon tier: full (complete random-game sweeps)"
    return "gueridon tier: default (samples of the random-game sweeps; --full for all)"


@pytest.fixture(scope="session")
def full_sweep(request: pytest.FixtureRequest) -> bool:
    """True with ``--full``: sweeps play every game, not a sample."""
    return bool(request.config.getoption("--full"))


@pytest.fixture(scope="session")
def postgres_server(request: pytest.FixtureRequest) -> Iterator[pg.Server]:
    """A PostgreSQL server for the session (``tests/pg.py``). Without one on
    this machine the test is skipped, or fails with ``--full`` (PostgreSQL
    is required there)."""
    try:
        server = pg.start()
    except pg.Unavailable as exc:
        reason = f"PostgreSQL unavailable: {exc}"
        if request.config.getoption("--full"):
            pytest.fail(reason, pytrace=False)
        pytest.skip(reason)
    yield server
    server.stop()


@pytest.fixture
def postgres_url(postgres_server: pg.Server) -> str:
    """A fresh, empty PostgreSQL database of this test's own."""
    return postgres_server.empty()


@pytest.fixture(params=["sqlite", "postgres"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Where a store opens, once per database: a SQLite file, then a fresh
    PostgreSQL database already holding the store's schema."""
    if request.param == "sqlite":
        return str(tmp_path / "gueridon.db")
    server: pg.Server = request.getfixturevalue("postgres_server")
    return server.migrated()


@pytest.fixture(autouse=True)
def _no_developer_settings(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A test's ``Settings()`` never reads the developer's own ``.env`` nor the
    settings exported in their shell: only what the test passes."""
    monkeypatch.setitem(Settings.model_config, "env_file", None)
    names = {name.lower() for name in Settings.model_fields}
    for key in list(os.environ):
        if key.lower() in names:
            monkeypatch.delenv(key)
    yield
