"""The host's translation layer: every user-facing string of the host.

The sentences live in the gettext catalogues of the :mod:`i18n` package
(``i18n/locales/<lang>/host.po``; a game's name and summary in its own
domain); ``t(locale, key, **params)`` picks the catalogue language of a
Discord or console locale (:func:`i18n.pick`: ``fr-FR`` -> ``fr``, unknown ->
``en``). Game-specific sentences (decisions, rule refusals) come from the
game modules themselves (``Game.decision_text``, ``RulesError.message``), so
no game-specific text lives here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from types import MappingProxyType
from typing import Any

import i18n
from engine.text import Msg

from .menu import MenuStep


def host_messages(language: str) -> Mapping[str, str]:
    """The ``host`` domain of a language (read-only ``key -> sentence``)."""
    cat = i18n.catalogue(language)
    return MappingProxyType({k: v for k, v in cat.messages.items() if cat.domains.get(k) == "host"})


EN: Mapping[str, str] = host_messages("en")
FR: Mapping[str, str] = host_messages("fr")


def lang(locale: str | None) -> str:
    """The catalogue language of a locale (``"fr"`` for any French locale,
    ``"en"`` for anything without a catalogue)."""
    return i18n.pick(locale)


def t(locale: str | None, key: str, **params: Any) -> str:
    try:
        return i18n.translate(locale, key, **params)
    except (KeyError, IndexError):
        # a template whose parameters were not all given reads as written
        return i18n.template(locale, key)


def game_name(locale: str | None, game_id: str) -> str:
    """A game's name in the player's language (``game-<id>-name``)."""
    return t(locale, f"game-{game_id}-name")


def game_summary(locale: str | None, game_id: str) -> str:
    """A game's one-paragraph summary (``game-<id>-summary``)."""
    return t(locale, f"game-{game_id}-summary")


def duration_text(locale: str | None, seconds: float) -> str:
    """A remaining time as a player reads it: whole seconds under a minute,
    then minutes, then hours (with the minutes under ten hours); never
    "0", and singular for 1 in both languages."""
    whole = max(1, round(seconds))
    if whole < 60:
        return t(locale, "time-second" if whole == 1 else "time-seconds", count=whole)
    minutes = round(seconds / 60)
    if minutes < 60:
        return t(locale, "time-minute" if minutes == 1 else "time-minutes", count=minutes)
    hours, rest = divmod(minutes, 60)
    if hours >= 10 or rest == 0:
        hours = round(seconds / 3600)
        return t(locale, "time-hour" if hours == 1 else "time-hours", count=hours)
    return t(
        locale,
        "time-hours-minutes",
        hours=t(locale, "time-hour" if hours == 1 else "time-hours", count=hours),
        minutes=t(locale, "time-minute" if rest == 1 else "time-minutes", count=rest),
    )


def reason_text(locale: str | None, reason: str) -> str:
    """Why a match ended (``Outcome.reason`` or the stored result reason), never a raw key."""
    key = f"reason-{reason}"
    if i18n.has(locale, key):
        return t(locale, key)
    return t(locale, "reason-other")


def result_lines(locale: str | None, outcome: Any, names: Sequence[str]) -> list[str]:
    """The end of a match: the title, one line per place (tied seats share a
    place), and the reason. Used by the final board and the console."""
    lines = [t(locale, "result-title")]
    place = 1
    for group in outcome.ranking:
        for seat in group:
            lines.append(t(locale, "result-line", place=place, user=names[seat]))
        place += len(group)
    lines.append(t(locale, "result-reason", reason=reason_text(locale, outcome.reason)))
    return lines


def history_line(
    locale: str | None,
    match_id: int,
    game_name: str,
    date: str,
    seats: Sequence[tuple[str, int, bool, bool]],
    reason: str,
    undos: int = 0,
) -> str:
    """One ``/history`` line; ``seats`` are (name, place, resigned, bot);
    ``undos``: moves taken back by consent (said when there were any)."""
    players = ", ".join(
        f"{place}. {name}"
        + (f" ({t(locale, 'resigned-mark')})" if resigned else "")
        + (f" ({t(locale, 'bot-mark')})" if bot else "")
        for name, place, resigned, bot in seats
    )
    return t(
        locale,
        "history-line",
        match=match_id,
        game=game_name,
        date=date,
        players=players,
        reason=reason_text(locale, reason),
    ) + (f" · {t(locale, 'undo-count', n=undos)}" if undos else "")


def rules_text(
    locale: str | None, info: Any, in_force: str | None = None, details: str = ""
) -> str:
    """The ``/rules`` text of a game (``info`` is its ``GameInfo``); ``in_force``
    is the options of the match or lobby in the channel in words
    (:func:`bot.lobby_options.readable_options`), "" for the defaults;
    ``details`` is the game's own longer text (``Game.rules_details``)."""
    summary = game_summary(locale, info.id)
    defaults = info.options_model()
    opts = ", ".join(
        f"`{name}={option_value_text(getattr(defaults, name))}`"
        for name in info.options_model.model_fields
    )
    parts = [
        summary,
        t(locale, "rules-seats", min=info.min_seats, max=info.max_seats),
        t(locale, "rules-options", options=opts),
    ]
    if in_force is not None:
        words = in_force or t(locale, "lobby-standard-rules")
        parts.append(t(locale, "rules-in-force", options=words))
    if details:
        parts.append(details)
    parts.append(t(locale, "rules-doc", game=info.id))
    return "\n\n".join(parts)


def option_value_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple | list):
        return ",".join(map(str, value)) or "—"
    return "—" if value is None else str(value)


def error_text(locale: str | None, key: str, rules: Any = None, **params: Any) -> str:
    """The message for a :class:`bot.service.HostError` (``rules``: the
    engine's :class:`~engine.errors.RulesError`, whose ``msg`` is translated)."""
    if rules is not None:
        params = {**params, "reason": game_text(locale, rules.msg)}
    return t(locale, key, **params)


def game_text(locale: str | None, text: Msg | str | None) -> str:
    """A text the engine returned (a :class:`~engine.text.Msg`: a key and its
    parameters) in the player's language; a plain string (a notation, a card
    name) reads the same in every language; None reads as ""."""
    if text is None:
        return ""
    if isinstance(text, str):
        return text
    return _game_text(lang(locale), text)


@lru_cache(maxsize=8192)
def _game_text(language: str, text: Msg) -> str:
    # engine messages repeat a lot (a card's label in every path of a menu)
    return i18n.translate(language, text)


def menu_entries(
    game: Any, state: Any, seat: int, locale: str | None
) -> list[tuple[str, tuple[MenuStep, ...]]]:
    """A seat's action menu (``Game.action_menu``) with every label and
    detail in the player's language, keyed by notation."""
    return [
        (
            game.format_action(action),
            tuple(
                MenuStep(step.key, game_text(locale, step.label), game_text(locale, step.detail))
                for step in path
            ),
        )
        for action, path in game.action_menu(state, seat)
    ]
