"""Optional pytest plugin: a ready-made ``fake_discord`` fixture.

Enable it from the root ``conftest.py`` with ``pytest_plugins = ["tests.fakediscord.pytest_plugin"]``,
or define the same 3-line fixture in your test module.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from .server import FakeDiscord


@pytest.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    """A started, patched FakeDiscord; asserts no violations/unanswered interactions at exit."""
    async with FakeDiscord.serve() as fake:
        yield fake
