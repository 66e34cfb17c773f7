"""Exceptions raised by the fake Discord and its harness."""

from __future__ import annotations

from typing import Any


class HarnessError(Exception):
    """The test asked for something a real Discord user could not do (or the fake can't)."""


class CommandNotSynced(HarnessError):
    """``fake.slash`` named a command the bot never registered (synced) with the fake."""


class CommandNotAvailable(HarnessError):
    """The command exists but a real user could not run it here (context or permissions)."""


class NoBotConnected(HarnessError):
    """An interaction was sent while no bot client had an identified gateway session."""


class InteractionNotAcknowledged(AssertionError):
    """The bot did not give an initial response within the acknowledgement window."""


class InteractionNotDelivered(InteractionNotAcknowledged):
    """No gateway session of the interaction's shard was connected (a process down): Discord
    did not deliver it and the user sees "This interaction failed"."""


class DeferredWithoutFollowup(AssertionError):
    """The bot deferred (the user sees "thinking...") but never edited it nor followed up."""


class DiscordError(Exception):
    """An HTTP error answered to the bot with a Discord-style JSON body.

    ``violation`` marks errors that mean the bot did something real Discord refuses (those are
    recorded in ``FakeDiscord.violations``), as opposed to runtime conditions a correct bot
    must handle (closed DMs, deleted messages, ...).
    """

    def __init__(
        self,
        status: int,
        code: int,
        message: str,
        *,
        errors: dict[str, Any] | None = None,
        violation: str | None = None,
        detail: str | None = None,
    ) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors
        self.violation = violation
        self.detail = detail

    def body(self) -> dict[str, Any]:
        data: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.errors:
            data["errors"] = self.errors
        return data
