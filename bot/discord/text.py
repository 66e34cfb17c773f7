"""Fitting text into Discord's limits (no Discord import)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

EMBED_COLOUR = 0x7A4E2D


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def fit_description(
    history: Sequence[str], status: Sequence[str], limit: int, dropped: Callable[[int], str]
) -> str:
    """What happened, then who acts (or the result and the seed): the status
    lines always show whole; when everything does not fit, the oldest history
    lines give way to one line saying how many were left out."""
    tail = clip("\n".join(status), limit)
    whole = "\n".join([*history, tail])
    if len(whole) <= limit:
        return whole
    # newest lines first, keeping room for the "n earlier lines" line
    room = limit - len(tail) - len(dropped(len(history))) - 2
    kept: list[str] = []
    for line in reversed(history):
        if len(line) + 1 > room:
            break
        kept.append(line)
        room -= len(line) + 1
    head = [dropped(len(history) - len(kept)), *reversed(kept)]
    text = "\n".join([*head, tail])
    return text if len(text) <= limit else tail


def button_label(label: str, notation: str) -> str:
    return clip(label if label == notation else f"{label}", 80)
