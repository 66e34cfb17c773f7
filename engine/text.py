"""Small helpers for the games' French texts (pure, no I/O)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeAlias

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


@dataclass(frozen=True, slots=True)
class Msg:
    """A text the engine means a player to read: a catalogue key and its
    parameters, translated by the host (``i18n.translate(lang, msg)``).

    ``params`` is a tuple of ``(name, value)`` pairs so that the message is
    hashable; a value is a string, a number, another ``Msg`` or a tuple of
    ``Msg`` (rendered as a list in the language's list pattern). Seat names
    are passed by the host as plain string parameters."""

    key: str
    params: tuple[tuple[str, MsgParam], ...] = ()

    @classmethod
    def of(cls, key: str, **params: MsgParam) -> Msg:
        """``Msg.of("bb-played", card="Co7")``: the parameters sorted by name."""
        return cls(key, tuple(sorted(params.items())))

    def kwargs(self) -> dict[str, MsgParam]:
        return dict(self.params)


MsgParam: TypeAlias = str | int | float | Msg | tuple[Msg, ...]
