"""Between Battle's French texts call the two battle piles « paquets », as
the board image, the moves and the lesson do: the lobby's options (issue 16)
said « pile », so a player read two words for one thing."""

from __future__ import annotations

import re

import i18n

PILE = re.compile(r"\bpiles?\b", re.IGNORECASE)


def test_between_battle_french_says_paquet_never_pile() -> None:
    keys = [
        k for k in i18n.keys("fr") if k.startswith(("bb-", "opt-bb-", "optval-bb-", "learn-bb-"))
    ]
    assert len(keys) > 50
    texts = {k: i18n.template("fr", k) for k in keys}
    said = {k: v for k, v in texts.items() if PILE.search(re.sub(r"\{[^}]*\}", "", v))}
    assert said == {}
