"""What the engine says to players: :class:`Msg`, a catalogue key and its
parameters (pure, no I/O, no language). Hosts translate (``i18n``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeAlias


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
