"""The thread of a match, as the Discord adapter names and sizes it."""

from __future__ import annotations

import pytest

from bot.discord.venues import ARCHIVE_MINUTES, THREAD_NAME_LIMIT, archive_minutes, thread_name
from bot.service import ClockConfig
from tests.bot.textcheck import problems


def test_the_archive_duration_outlasts_two_decisions_of_the_clock() -> None:
    clock = ClockConfig()
    assert archive_minutes(clock.per_move("fast")) == 60  # 90 s a decision
    assert archive_minutes(clock.per_move("correspondence")) == 4320  # a day a decision
    assert archive_minutes(10 * 24 * 3600) == 10080  # Discord's longest
    assert all(archive_minutes(s) in ARCHIVE_MINUTES for s in (1, 3600, 86_400, 1e9))


@pytest.mark.parametrize("locale", ["en", "fr"])
def test_the_thread_is_named_after_the_game_the_match_and_the_players(locale: str) -> None:
    name = thread_name(locale, "between-battle", 12, ["alice", "bob"])
    assert "Between Battle" in name and "12" in name and "alice" in name and "bob" in name
    assert problems(name, locale) == []
    long = thread_name(locale, "via-belli", 123456, ["x" * 40, "y" * 40, "z" * 40, "w" * 40])
    assert len(long) == THREAD_NAME_LIMIT and long.endswith("…")
