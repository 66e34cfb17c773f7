"""Guided lessons, one module per game: ``bot/learn/games/<game>.py``
exposes ``LESSON`` (see :mod:`bot.learn.lesson`); its texts are the
catalogue domain ``learn_<game>`` (``i18n/locales/<lang>/learn_<game>.po``)."""

from __future__ import annotations

import importlib

from engine import GAMES

from .lesson import Attempt, Lesson, LessonError, Step, Tutor, walk


def lesson_for(game_id: str) -> Lesson:
    """The lesson of a game (``KeyError`` for an unknown game)."""
    if game_id not in GAMES:
        raise KeyError(game_id)
    module = importlib.import_module(f"{__name__}.games.{game_id.replace('-', '_')}")
    lesson: Lesson = module.LESSON
    return lesson


__all__ = ["Attempt", "Lesson", "LessonError", "Step", "Tutor", "lesson_for", "walk"]
