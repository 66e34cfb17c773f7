"""Small helpers for the games' French texts (pure, no I/O)."""

from __future__ import annotations

_VOWELS = frozenset("aeiouyhàâäéèêëîïôöûüœAEIOUYHÀÂÄÉÈÊËÎÏÔÖÛÜŒ")


def elides(word: str) -> bool:
    """Whether French elides before ``word`` (a vowel or a mute h: names are
    taken to start with a mute h, "d'Hugo", "d'Hélène")."""
    return bool(word) and word[0] in _VOWELS


def de(word: str) -> str:
    """``de Bob`` / ``d'Alice``."""
    return f"d'{word}" if elides(word) else f"de {word}"


def que(word: str) -> str:
    """``que Bob`` / ``qu'Alice``."""
    return f"qu'{word}" if elides(word) else f"que {word}"


def colon(fr: bool) -> str:
    """The colon and the space before it: ``" :"`` in French, ``":"`` in English."""
    return " :" if fr else ":"
