"""Test-wide set-up."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from bot.settings import Settings


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
