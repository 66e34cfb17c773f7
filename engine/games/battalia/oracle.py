"""The Sun Oracle: days, weeks, the illuminated and the matching artefact
types (ruling 2.6; the cycles are in the data file)."""

from __future__ import annotations

from .data import data
from .model import State


def day_of_week(day: int) -> int:
    """0..6: the day's place in its week (day 1 is 0)."""
    return (day - 1) % 7


def week(day: int) -> int:
    return (day - 1) // 7 + 1


def illuminated_type(day: int) -> str:
    return data().oracle.illuminated[day_of_week(day)]


def matching_type(day: int) -> str:
    return data().oracle.matching[day_of_week(day)]


def illuminated(state: State, kind: str) -> bool:
    """Whether artefact type ``kind`` has its doubled effect today."""
    return state.rules.illuminated and illuminated_type(state.day) == kind
