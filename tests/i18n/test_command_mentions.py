"""A text that tells a player to type a command names it as their Discord
shows it: French clients show the ``name-*`` translations (``/suivre``,
``/salon retirer``), so a French sentence saying ``/watch`` or ``/lobby kick``
sends the player looking for a command their list does not show.

Checked on issue 16's texts (server settings, threads, undo, spectators,
lessons, lobby control); the older host texts still name the English
commands and are left to their own review.
"""

from __future__ import annotations

import re

import pytest

import i18n

# issue 16's catalogue domains, by the prefix of their keys, and the lobby
# control keys it added to host.po
ISSUE16_PREFIXES = ("settings-", "thread-", "undo-", "watch-", "learn-")
ISSUE16_HOST_KEYS = (
    "lobby-kick-self",
    "lobby-kick-unknown",
    "lobby-kicked",
    "lobby-change-nothing",
    "lobby-unchanged",
    "lobby-seats-taken",
    "lobby-started-already",
    "lobby-changed",
    "lobby-changed-done",
    "cmd-lobby-kick",
    "cmd-lobby-options",
    "opt-kick-seat",
    "opt-change-options",
    "opt-standard",
    "cmd-undo",
)

# "/word" or "/word word" where a command starts: after a space, a backtick
# or an opening bracket (not "o/n" nor a path)
MENTION = re.compile(r"(?:(?<=\s)|(?<=`)|(?<=\()|^)/([^\W\d][\w-]*)(?: ([^\W\d][\w-]*))?")


def _names(locale: str) -> dict[str, str]:
    """``name-*`` key -> the command or option name in ``locale``."""
    return {
        key: i18n.translate(locale, key)
        for key in i18n.keys(locale)
        if key.startswith(("name-", "settings-name-")) and not key.startswith("name-console-")
    }


def _issue16_keys(locale: str) -> list[str]:
    keys = i18n.keys(locale)
    return sorted(k for k in keys if k.startswith(ISSUE16_PREFIXES) or k in ISSUE16_HOST_KEYS)


def mentions_in_wrong_language(text: str, own: set[str], other: set[str]) -> list[str]:
    """The command mentions of ``text`` that use a name of the other
    language (one that is not also a name of this one)."""
    wrong = []
    for match in MENTION.finditer(text):
        words = [w for w in match.groups() if w is not None]
        if any(w.casefold() in other and w.casefold() not in own for w in words):
            wrong.append(match.group(0))
    return wrong


def test_the_check_finds_an_english_command_in_french() -> None:
    fr = {"suivre", "plateau", "salon", "retirer", "options"}
    en = {"watch", "board", "lobby", "kick", "options"}
    assert mentions_in_wrong_language("Refaites `/watch` pour arrêter.", fr, en) == ["/watch"]
    assert mentions_in_wrong_language("avec `/salon kick`.", fr, en) == ["/salon kick"]
    assert mentions_in_wrong_language("avec `/salon options` (o/n)", fr, en) == []
    assert mentions_in_wrong_language("Refaites `/suivre` pour arrêter.", fr, en) == []


@pytest.mark.parametrize("locale", ["en", "fr"])
def test_issue16_texts_name_commands_as_discord_shows_them(locale: str) -> None:
    other_locale = "en" if locale == "fr" else "fr"
    own_names = _names(locale)
    other_names = _names(other_locale)
    own = {v.casefold() for v in own_names.values()}
    other = {v.casefold() for k, v in other_names.items() if own_names.get(k) != v}
    keys = _issue16_keys(locale)
    assert len(keys) > 100  # the domains are there
    wrong = {
        key: found
        for key in keys
        if (found := mentions_in_wrong_language(i18n.template(locale, key), own, other))
    }
    assert wrong == {}
