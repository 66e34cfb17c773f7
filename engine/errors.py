"""One error hierarchy for everything a player or a caller can get wrong."""

from __future__ import annotations

from .text import Msg


class RulesError(ValueError):
    """An action was refused. ``msg`` is what a player reads: a catalogue key
    and its parameters (:class:`engine.text.Msg`), translated by the host.

    ``code`` is a stable machine key, ``params`` machine-readable details
    (tests, logs). ``str(error)`` is for logs only.
    """

    code = "rules"

    def __init__(self, msg: Msg, *, code: str | None = None, **params: object) -> None:
        super().__init__(f"{msg.key} {dict(msg.params)}" if msg.params else msg.key)
        self.msg = msg
        if code is not None:
            self.code = code
        self.params = params


class IllegalAction(RulesError):
    """Well formed, but not allowed now by the rules."""

    code = "illegal"


class NotYourTurn(RulesError):
    """The seat has nothing to decide at the moment."""

    code = "not-your-turn"


class BadNotation(RulesError):
    """The text could not be read as an action of this game."""

    code = "bad-notation"


class BadOptions(RulesError):
    """Game options that the game does not accept."""

    code = "bad-options"


class StaleAction(RulesError):
    """The action was chosen against an older version of the game."""

    code = "stale"


class GameOver(RulesError):
    """The game has ended; nothing more can be played."""

    code = "game-over"


class BadRecord(RulesError):
    """A match record or a saved state that cannot be read back. ``detail``
    says why, for logs and developers (``core-bad-record`` shows it in
    English only)."""

    code = "bad-record"

    def __init__(self, detail: str | Msg, *, code: str | None = None, **params: object) -> None:
        msg = detail if isinstance(detail, Msg) else Msg.of("core-bad-record", detail=detail)
        super().__init__(msg, code=code, **params)


class UndoRefused(RulesError):
    """A take-back the rules do not allow now (see :meth:`engine.Match.undo`).
    ``reason`` is one of :data:`engine.undo.REASONS`; the message key is
    ``undo-refused-<reason>``."""

    code = "undo-refused"

    def __init__(self, reason: str) -> None:
        super().__init__(Msg.of(f"undo-refused-{reason}"), reason=reason)
        self.reason = reason
