"""What a simulated user action returns: a live view on one interaction's outcome."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .models import FakeAttachment, FakeInteraction, FakeMessage

if TYPE_CHECKING:
    from .server import FakeDiscord

RESPONSE_TYPE_NAMES = {
    1: "pong",
    4: "channel_message",
    5: "deferred_channel_message",
    6: "deferred_update",
    7: "update_message",
    8: "autocomplete_result",
    9: "modal",
}


class InteractionResult:
    """Outcome of ``fake.slash`` / ``click`` / ``select`` / ``submit_modal`` / context menus.

    Every property reads the fake's *current* state, so later edits and follow-ups show up.

    * ``message`` is the original response: the message created by a type 4/5 response, or the
      clicked message for a type 6/7 (deferred update / update message) response.
    * ``primary`` is what the user "sees first": ``message`` once it is no longer loading,
      otherwise the first follow-up.
    * ``content``, ``embeds``, ``components``, ``attachments``, ``ephemeral`` and ``text``
      come from ``primary``.
    """

    def __init__(self, fake: FakeDiscord, interaction: FakeInteraction) -> None:
        self.fake = fake
        self.interaction = interaction
        self._baseline = interaction.ack_snapshot or self._fingerprint()

    # -- state ---------------------------------------------------------------------------

    @property
    def response_type(self) -> int | None:
        return self.interaction.response_type

    @property
    def response_name(self) -> str | None:
        rt = self.interaction.response_type
        return None if rt is None else RESPONSE_TYPE_NAMES.get(rt, str(rt))

    @property
    def acknowledged(self) -> bool:
        return self.interaction.acknowledged

    @property
    def deferred(self) -> bool:
        return self.interaction.response_type in (5, 6)

    @property
    def message(self) -> FakeMessage | None:
        mid = self.interaction.original_message_id
        return self.fake.messages.get(mid) if mid is not None else None

    @property
    def followups(self) -> list[FakeMessage]:
        return [self.fake.messages[m] for m in self.interaction.followup_ids]

    @property
    def messages(self) -> list[FakeMessage]:
        """Messages created by this interaction (original response if it created one, then
        follow-ups), deleted ones excluded."""
        out: list[FakeMessage] = []
        if self.interaction.response_type in (4, 5) and self.message is not None:
            out.append(self.message)
        out.extend(self.followups)
        return [m for m in out if not m.deleted]

    @property
    def message_ids(self) -> list[int]:
        return [m.id for m in self.messages]

    @property
    def primary(self) -> FakeMessage | None:
        msg = self.message
        if msg is not None and not msg.loading and not msg.deleted:
            return msg
        live = [m for m in self.followups if not m.deleted]
        return live[0] if live else msg

    @property
    def content(self) -> str | None:
        msg = self.primary
        return msg.content if msg is not None else None

    @property
    def text(self) -> str:
        return (
            "\n".join(m.text for m in self.messages)
            if self.messages
            else (self.primary.text if self.primary is not None else "")
        )

    @property
    def embeds(self) -> list[dict[str, Any]]:
        msg = self.primary
        return msg.embeds if msg is not None else []

    @property
    def components(self) -> list[dict[str, Any]]:
        msg = self.primary
        return msg.components if msg is not None else []

    @property
    def attachments(self) -> list[FakeAttachment]:
        msg = self.primary
        return msg.attachments if msg is not None else []

    @property
    def ephemeral(self) -> bool:
        msg = self.primary
        return bool(msg is not None and msg.ephemeral)

    @property
    def choices(self) -> list[dict[str, Any]] | None:
        return self.interaction.choices

    @property
    def modal(self) -> dict[str, Any] | None:
        return self.interaction.modal

    # -- waiting -------------------------------------------------------------------------

    def _fingerprint(self) -> tuple[int, int]:
        msg = self.message
        return (-1 if msg is None else len(msg.history), len(self.interaction.followup_ids))

    async def wait_update(self, timeout: float = 5.0) -> InteractionResult:
        """Wait until the original message is edited or a follow-up arrives, compared with the
        moment of the initial response (or the previous ``wait_update``). Handy after a type 6
        (deferred update) response, whose edit comes later."""
        baseline = self._baseline
        await self.fake.wait_for(
            lambda: self._fingerprint() != baseline,
            timeout=timeout,
            message=f"no edit/follow-up for {self.interaction.describe()}",
        )
        self._baseline = self._fingerprint()
        return self

    async def wait_followups(self, count: int, timeout: float = 5.0) -> list[FakeMessage]:
        """Wait until at least ``count`` follow-ups exist, return them."""
        await self.fake.wait_for(
            lambda: len(self.interaction.followup_ids) >= count,
            timeout=timeout,
            message=f"expected {count} follow-up(s) for {self.interaction.describe()}",
        )
        return self.followups

    def __repr__(self) -> str:
        return (
            f"<InteractionResult {self.interaction.describe()} response={self.response_name} "
            f"content={self.content!r} ephemeral={self.ephemeral}>"
        )
