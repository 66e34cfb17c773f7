"""One error hierarchy for everything a player or a caller can get wrong."""

from __future__ import annotations


class RulesError(ValueError):
    """An action was refused. ``reason`` is a sentence a player can read.

    ``code`` is a stable machine key (for translation layers), ``params`` the
    values to fill into a translated sentence.
    """

    code = "rules"
    reason_fr: str | None = None

    def __init__(
        self, reason: str, *, code: str | None = None, fr: str | None = None, **params: object
    ) -> None:
        super().__init__(reason)
        self.reason = reason
        self.reason_fr = fr
        if code is not None:
            self.code = code
        self.params = params

    def message(self, locale: str = "en") -> str:
        """The reason in French for ``fr*`` locales when the game gave one."""
        if locale.lower().startswith("fr") and self.reason_fr:
            return self.reason_fr
        return self.reason


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
    """A match record or a saved state that cannot be read back."""

    code = "bad-record"
