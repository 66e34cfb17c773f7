"""Answering an interaction, whether or not it was acknowledged already."""

from __future__ import annotations

import contextlib
from typing import Any

import discord

from .core import BotCore
from .text import clip


async def reply(
    interaction: discord.Interaction,
    content: str | None = None,
    *,
    ephemeral: bool = True,
    **kwargs: Any,
) -> None:
    """Answer whether or not the interaction was deferred."""
    if content is not None:
        kwargs["content"] = clip(content, 2000)
    if interaction.response.is_done():
        await interaction.followup.send(ephemeral=ephemeral, **kwargs)
    else:
        await interaction.response.send_message(ephemeral=ephemeral, **kwargs)


async def defer_public(interaction: discord.Interaction) -> None:
    """Acknowledge at once with a public "thinking" answer, for a handler that
    must read the store before it knows whether it refuses: a refusal then
    replaces the public placeholder with a private message (:func:`go_private`)."""
    await interaction.response.defer(thinking=True)
    bot = interaction.client
    if isinstance(bot, BotCore):
        bot.public_thinking.add(interaction.id)


async def go_private(interaction: discord.Interaction) -> None:
    """Before a refusal: drop a public "thinking" placeholder (see
    :func:`defer_public`), so that the refusal is for the user only."""
    bot = interaction.client
    if isinstance(bot, BotCore) and interaction.id in bot.public_thinking:
        bot.public_thinking.discard(interaction.id)
        with contextlib.suppress(discord.HTTPException):
            await interaction.delete_original_response()
