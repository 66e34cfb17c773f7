"""A text that tells a player to type a command names it as their Discord
shows it: French clients show the ``name-*`` translations (``/suivre``,
``/salon retirer``), so a French sentence saying ``/watch`` or ``/lobby kick``
sends the player looking for a command their list does not show.

Checked on every text of every catalogue, but the three host texts issue
16's POLISH pass rewrites (``help-text``, ``no-lobby``, ``not-host``): their
turn comes with that rewrite.
"""

from __future__ import annotations

import re

import pytest

import i18n

# rewritten elsewhere in issue 16 (POLISH); still naming the English commands
NOT_YET = frozenset({"help-text", "no-lobby", "not-host"})

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
def test_texts_name_commands_as_discord_shows_them(locale: str) -> None:
    other_locale = "en" if locale == "fr" else "fr"
    own_names = _names(locale)
    other_names = _names(other_locale)
    own = {v.casefold() for v in own_names.values()}
    other = {v.casefold() for k, v in other_names.items() if own_names.get(k) != v}
    keys = sorted(i18n.keys(locale) - NOT_YET)
    assert len(keys) > 1000  # every catalogue is there
    wrong = {
        key: found
        for key in keys
        if (found := mentions_in_wrong_language(i18n.template(locale, key), own, other))
    }
    assert wrong == {}
