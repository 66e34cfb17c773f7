"""A lobby's options as a player reads them, with no Discord import.

A lobby keeps its options as the ``key=value`` text the engine reads
(:meth:`engine.core.Game.options_text`: only what differs from the defaults).
Players read them as words instead: every option that is not at its default,
by its name and value in the reader's language, e.g. "Buff: off · Horde cap:
20", or "Standard rules" when every option is at its default.

The names and values are catalogue texts of each game's own domain
(``i18n/locales/<lang>/<game>.po``): ``opt-<prefix>-<option>`` names an option
and ``optval-<prefix>-<option>-<value>`` one of the values of an option that
takes one of a few words (a ``Literal``); underscores become hyphens
(``opt-bt-horde-cap``, ``optval-bb-between-rule-inclusive``). Numbers read as
numbers, yes/no options as ``opt-value-on`` / ``opt-value-off``, and free
values (deck codes, unit ids, cells) as code. An option without a catalogue
name (a game that does not ship them yet) is shown by its key, as code.
"""

from __future__ import annotations

import typing
from typing import Any

import i18n
from engine import GAMES, RulesError
from engine.core import Game, GameOptions

from .i18n import t

# The prefix of each game's catalogue keys (``bb-…``, ``vb-…``).
TEXT_PREFIX: dict[str, str] = {
    "between-battle": "bb",
    "via-belli": "vb",
    "belle-position": "bp",
    "liber": "lb",
    "battalia": "bt",
}

# A free value (a deck code, a list of unit ids) longer than this is cut.
MAX_VALUE = 60


def _slug(text: str) -> str:
    return text.replace("_", "-")


def option_key(game_id: str, name: str) -> str:
    """The catalogue key of an option's name."""
    return f"opt-{TEXT_PREFIX.get(game_id, game_id)}-{_slug(name)}"


def value_key(game_id: str, name: str, value: str) -> str:
    """The catalogue key of one of the words an option takes."""
    return f"optval-{TEXT_PREFIX.get(game_id, game_id)}-{_slug(name)}-{_slug(value)}"


def literal_values(game: Game[Any, Any, Any], name: str) -> tuple[str, ...]:
    """The words an option takes (its ``Literal`` values, or those of the
    items of a tuple of them); () for numbers, yes/no and free values."""
    annotation = game.info.options_model.model_fields[name].annotation
    if typing.get_origin(annotation) is tuple:
        annotation = typing.get_args(annotation)[0]
    if typing.get_origin(annotation) is typing.Literal:
        return tuple(str(v) for v in typing.get_args(annotation))
    return ()


def option_name(locale: str | None, game_id: str, name: str) -> str:
    key = option_key(game_id, name)
    return t(locale, key) if i18n.has(locale, key) else f"`{name}`"


def _code(text: str) -> str:
    if len(text) > MAX_VALUE:
        text = text[: MAX_VALUE - 1] + "…"
    return f"`{text}`"


def option_value(locale: str | None, game_id: str, name: str, value: Any) -> str:
    """One option's value in words."""
    if isinstance(value, bool):
        return t(locale, "opt-value-on" if value else "opt-value-off")
    if value is None or value == () or value == "":
        return "—"
    if isinstance(value, int | float):
        return str(value)
    words = literal_values(GAMES[game_id], name) if game_id in GAMES else ()
    items = list(value) if isinstance(value, tuple | list) else [value]
    if words and all(str(v) in words for v in items):
        texts = []
        for v in items:
            key = value_key(game_id, name, str(v))
            texts.append(t(locale, key) if i18n.has(locale, key) else _code(str(v)))
        return i18n.join_list(locale, texts) if len(texts) > 1 else texts[0]
    return _code(",".join(map(str, items)))


def changed_options(game: Game[Any, Any, Any], options: GameOptions) -> list[tuple[str, Any]]:
    """``(name, value)`` of the options that differ from the defaults, in the
    order of the options model."""
    defaults = game.info.options_model()
    return [
        (name, getattr(options, name))
        for name in game.info.options_model.model_fields
        if getattr(options, name) != getattr(defaults, name)
    ]


def readable_options(locale: str | None, game_id: str, options: str | GameOptions) -> str:
    """Every option not at its default, as "Name: value" joined by " · ";
    "Standard rules" when there is none. ``options`` is the lobby's
    ``key=value`` text (valid: the lobby checked it) or a parsed model."""
    game = GAMES[game_id]
    try:
        parsed = game.options(options or None) if isinstance(options, str) else options
    except RulesError:  # saved by an older version that read them otherwise
        return _code(str(options))
    parts = [
        t(
            locale,
            "lobby-option",
            name=option_name(locale, game_id, name),
            value=option_value(locale, game_id, name, value),
        )
        for name, value in changed_options(game, parsed)
    ]
    return " · ".join(parts) if parts else t(locale, "lobby-standard-rules")
