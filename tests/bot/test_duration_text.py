"""The remaining time a reminder gives (issue 11 follow-up): seconds under a
minute, then minutes, then hours, in English and in French."""

from __future__ import annotations

import pytest

from bot.i18n import duration_text, t
from tests.bot.textcheck import problems


@pytest.mark.parametrize(
    ("seconds", "en", "fr"),
    [
        (0.2, "1 second", "1 seconde"),
        (1.0, "1 second", "1 seconde"),
        (20.0, "20 seconds", "20 secondes"),
        (59.4, "59 seconds", "59 secondes"),
        (59.6, "1 minute", "1 minute"),
        (89.0, "1 minute", "1 minute"),
        (195.0, "3 minutes", "3 minutes"),
        (3599.0, "1 hour", "1 heure"),
        (5400.0, "1 hour and 30 minutes", "1 heure et 30 minutes"),
        (7260.0, "2 hours and 1 minute", "2 heures et 1 minute"),
        (43_200.0, "12 hours", "12 heures"),
        (12.6 * 3600, "13 hours", "13 heures"),
    ],
)
def test_remaining_time_in_both_languages(seconds: float, en: str, fr: str) -> None:
    assert duration_text("en-US", seconds) == en
    assert duration_text("fr", seconds) == fr


@pytest.mark.parametrize("locale", ["en-US", "fr"])
@pytest.mark.parametrize("seconds", [20.0, 45.0, 195.0, 5400.0, 43_200.0])
def test_reminders_say_the_time_left(locale: str, seconds: float) -> None:
    """With 20 seconds left the reminder no longer says "about 1 min"."""
    left = duration_text(locale, seconds)
    texts = [
        t(locale, "reminder-dm", match=3, channel="<#1>", left=left),
        t(locale, "reminder-mention", user="<@2>", left=left),
    ]
    lang = "fr" if locale == "fr" else "en"
    for text in texts:
        assert left in text and "{" not in text, text
        assert not problems(text, lang, ()), (text, problems(text, lang, ()))
        if seconds < 60:
            assert "min" not in text, text
