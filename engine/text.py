"""Small helpers for the games' French texts (pure, no I/O)."""

from __future__ import annotations

_VOWELS = frozenset("aeiouyàâäéèêëîïôöûüœAEIOUYÀÂÄÉÈÊËÎÏÔÖÛÜŒ")


def elides(word: str, mute_h: bool = True) -> bool:
    """Whether French elides before ``word``: a vowel, or an h when ``mute_h``
    (player names are taken to start with a mute h, "d'Hugo", "d'Hélène";
    card names such as "Hussards" or "Hauteur" do not: pass ``mute_h=False``)."""
    return bool(word) and (word[0] in _VOWELS or (mute_h and word[0] in "hH"))


def de(word: str, mute_h: bool = True) -> str:
    """``de Bob`` / ``d'Alice``."""
    return f"d'{word}" if elides(word, mute_h) else f"de {word}"


def que(word: str, mute_h: bool = True) -> str:
    """``que Bob`` / ``qu'Alice``."""
    return f"qu'{word}" if elides(word, mute_h) else f"que {word}"


def colon(fr: bool) -> str:
    """The colon and the space before it: ``" :"`` in French, ``":"`` in English."""
    return " :" if fr else ":"


def semicolon(fr: bool) -> str:
    """A list separator: ``" ; "`` in French, ``"; "`` in English."""
    return " ; " if fr else "; "
