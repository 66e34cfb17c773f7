"""``/deck create|list|show|delete`` (decks that players build, for the games
played with decks: Chroniques de Liber) and ``/card`` (a card's image and
text, for every game with a card pool). Decks belong to the user, not to a
server: the commands work in DMs too."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from ...cards import CardEntry, find_card, search_cards
from ...decks import (
    MAX_FILE_BYTES,
    MAX_NAME,
    Deck,
    DeckRefused,
    attachment_text,
    list_text,
    split_pasted_line,
)
from ...i18n import lang, t
from ...service import HostError, HostService
from ..announce import Announcer
from ..replies import reply
from ..text import EMBED_COLOUR, clip
from ..translation import desc, locale_of, name

DECK_GAME = "liber"
MODAL_LIST_CHARS = 4000
"""Discord's longest paragraph in a modal."""


def _refused(err: DeckRefused) -> HostError:
    return HostError(err.key, rules=err.rules, **err.params)


def card_names(game_id: str) -> dict[str, str]:
    from ...cards import pool

    return {c.id: c.name for c in pool(game_id)}


def deck_lines(locale: str, deck: Deck) -> str:
    """One line about a deck: its name, its general, its size."""
    names = card_names(deck.game_id)
    general = names.get(deck.general, deck.general)
    return t(locale, "deck-line", name=deck.title(locale), general=general, n=deck.size)


class DeckListModal(discord.ui.Modal):
    """``/deck create`` without a list nor a file: a box to paste the list
    into (Discord's command options keep one line only)."""

    def __init__(self, cog: DecksCog, deck_name: str, locale: str) -> None:
        super().__init__(title=clip(t(locale, "deck-modal-title", name=deck_name), 45))
        self.cog = cog
        self.deck_name = deck_name
        self.text: discord.ui.TextInput[DeckListModal] = discord.ui.TextInput(
            label=clip(t(locale, "deck-modal-label"), 45),
            style=discord.TextStyle.paragraph,
            max_length=MODAL_LIST_CHARS,
            custom_id="deck-list",
        )
        self.add_item(self.text)

    async def on_submit(self, interaction: discord.Interaction, /) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.cog.save(interaction, self.deck_name, str(self.text.value))

    async def on_error(  # type: ignore[override]
        self, interaction: discord.Interaction, error: Exception, /
    ) -> None:
        from ..errors import answer_failure

        await answer_failure(interaction, error)


class DecksCog(commands.Cog, name="DecksCog"):
    deck = app_commands.Group(name=name("deck"), description=desc("cmd-deck"))

    def __init__(self, bot: Announcer) -> None:
        self.bot = bot

    @property
    def host(self) -> HostService:
        return self.bot.host

    # ---- /deck create ----------------------------------------------------------------
    @deck.command(name=name("create"), description=desc("cmd-deck-create"))
    @app_commands.describe(
        deck_name=desc("opt-deck-name"), deck_list=desc("opt-deck-list"), file=desc("opt-deck-file")
    )
    @app_commands.rename(deck_name=name("name"), deck_list=name("list"), file=name("file"))
    async def deck_create(
        self,
        interaction: discord.Interaction,
        deck_name: app_commands.Range[str, 1, MAX_NAME],
        deck_list: app_commands.Range[str, 1, 6000] | None = None,
        file: discord.Attachment | None = None,
    ) -> None:
        locale = locale_of(interaction)
        if deck_list is None and file is None:
            # the modal is this interaction's answer: nothing to defer
            await interaction.response.send_modal(DeckListModal(self, deck_name, locale))
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.bot.note_interaction(interaction)
        if file is not None:
            if file.size > MAX_FILE_BYTES:  # refused before downloading it
                raise HostError("deck-file-too-big", kb=MAX_FILE_BYTES // 1024)
            try:
                text = attachment_text(
                    file.filename, file.size, file.content_type, await _read(file)
                )
            except DeckRefused as err:
                raise _refused(err) from None
        else:
            assert deck_list is not None
            text = split_pasted_line(deck_list)
        await self.save(interaction, deck_name, text)

    async def save(self, interaction: discord.Interaction, deck_name: str, text: str) -> None:
        user = await self.bot.note_interaction(interaction)
        locale = locale_of(interaction)
        deck, replaced = await self.host.create_deck(user, deck_name, text, DECK_GAME)
        key = "deck-replaced" if replaced else "deck-created"
        await reply(interaction, t(locale, key, line=deck_lines(locale, deck)))

    # ---- /deck list, show, delete ----------------------------------------------------
    @deck.command(name=name("list"), description=desc("cmd-deck-list"))
    async def deck_list(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.bot.note_interaction(interaction)
        locale = locale_of(interaction)
        mine = await self.host.user_decks(interaction.user.id, DECK_GAME)
        from ...decks import ready_decks

        ready = ready_decks(DECK_GAME)
        embed = discord.Embed(title=t(locale, "deck-list-title"), colour=EMBED_COLOUR)
        own = [f"• {deck_lines(locale, d)}" for d in mine] or [t(locale, "deck-list-none")]
        for i, value in enumerate(fields(own)):  # a field holds 1,024 characters
            title = t(locale, "deck-list-mine", n=len(mine)) if i == 0 else "\u200b"
            embed.add_field(name=title, value=value, inline=False)
        shared = "\n".join(
            f"• {deck_lines(locale, d)} (`{d.ready}`)\n  {d.style_in(locale)}" for d in ready
        )
        embed.add_field(
            name=t(locale, "deck-list-ready"), value=clip(shared or "—", 1024), inline=False
        )
        await reply(interaction, embed=embed)

    @deck.command(name=name("show"), description=desc("cmd-deck-show"))
    @app_commands.describe(deck_name=desc("opt-deck-pick"))
    @app_commands.rename(deck_name=name("name"))
    async def deck_show(
        self, interaction: discord.Interaction, deck_name: app_commands.Range[str, 1, 100]
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.bot.note_interaction(interaction)
        locale = locale_of(interaction)
        deck = await self.host.find_deck(interaction.user.id, deck_name, DECK_GAME)
        embed = discord.Embed(title=clip(deck.title(locale), 256), colour=EMBED_COLOUR)
        lines = [deck_lines(locale, deck)]
        if deck.ready is not None:
            lines.append(deck.style_in(locale))
        lines.append("```\n" + clip(list_text(deck), 3500) + "\n```")
        embed.description = clip("\n".join(lines), 4096)
        embed.set_footer(text=clip(t(locale, "deck-code", code=deck.code), 2048))
        await reply(interaction, embed=embed)

    @deck.command(name=name("delete"), description=desc("cmd-deck-delete"))
    @app_commands.describe(deck_name=desc("opt-deck-pick"))
    @app_commands.rename(deck_name=name("name"))
    async def deck_delete(
        self, interaction: discord.Interaction, deck_name: app_commands.Range[str, 1, 100]
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.bot.note_interaction(interaction)
        deck = await self.host.delete_deck(interaction.user.id, deck_name, DECK_GAME)
        await reply(interaction, t(locale_of(interaction), "deck-deleted", name=deck.name))

    @deck_show.autocomplete("deck_name")
    async def show_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await deck_choices(self.host, interaction, current, DECK_GAME)

    @deck_delete.autocomplete("deck_name")
    async def delete_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await deck_choices(self.host, interaction, current, DECK_GAME, ready=False)

    # ---- /card -------------------------------------------------------------------------
    @app_commands.command(name=name("card"), description=desc("cmd-card"))
    @app_commands.describe(card=desc("opt-card"))
    @app_commands.rename(card=name("card"))
    async def card(
        self, interaction: discord.Interaction, card: app_commands.Range[str, 1, 100]
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.bot.note_interaction(interaction)
        locale = locale_of(interaction)
        entry = find_card(card)
        if entry is None:
            from ...cards import closest_names

            close = closest_names(card)
            if close:
                raise HostError("no-such-card-close", card=card[:100], close=", ".join(close))
            raise HostError("no-such-card", card=card[:100])
        embed = card_embed(locale, entry)
        kwargs: dict[str, Any] = {"embed": embed}
        png = await self.card_image(entry, locale)
        embed.set_image(url="attachment://card.png")
        kwargs["file"] = discord.File(_bytes(png), filename="card.png")
        await reply(interaction, **kwargs)

    async def card_image(self, entry: CardEntry, locale: str) -> bytes:
        """The card drawn large with its text in the player's language (in
        the render workers, never on the event loop)."""
        from render import render_card

        return await self.bot.render(render_card, entry.game_id, entry.id, locale)

    @card.autocomplete("card")
    async def card_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        locale = locale_of(interaction)
        return [
            app_commands.Choice(
                name=clip(f"{c.name} — {t(locale, f'card-type-{c.type}')}", 100), value=c.value
            )
            for c in search_cards(current)
        ]


def fields(lines: list[str], limit: int = 1024) -> list[str]:
    """Lines grouped into embed field values of at most ``limit`` characters."""
    out: list[str] = []
    for line in lines:
        line = clip(line, limit)
        if out and len(out[-1]) + 1 + len(line) <= limit:
            out[-1] += "\n" + line
        else:
            out.append(line)
    return out


def card_embed(locale: str, entry: CardEntry) -> discord.Embed:
    """A card's name, type, costs, strength and rules text in the player's language."""
    embed = discord.Embed(title=clip(entry.name, 256), colour=EMBED_COLOUR)
    kind = t(locale, f"card-type-{entry.type}")
    if entry.spell:
        kind = t(locale, "card-spell-kind", type=kind, kind=t(locale, f"card-spell-{entry.spell}"))
    facts = [kind]
    if entry.gold or entry.faith or entry.type not in ("general", "token", "faveur"):
        facts.append(t(locale, "card-cost", gold=entry.gold, faith=entry.faith))
    if entry.vp:
        facts.append(t(locale, "card-vp", vp=entry.vp))
    if entry.force is not None and entry.pv is not None:
        facts.append(t(locale, "card-stats", force=entry.force, pv=entry.pv))
    text = entry.text_in(lang(locale))
    embed.description = clip(" · ".join(facts) + (f"\n\n{text}" if text else ""), 4096)
    return embed


async def deck_choices(
    host: HostService,
    interaction: discord.Interaction,
    current: str,
    game_id: str,
    *,
    ready: bool = True,
) -> list[app_commands.Choice[str]]:
    """Autocomplete of a deck name: the user's decks, then (``ready``) the
    ready-made ones; at most 25, names and values within 100 characters."""
    locale = locale_of(interaction)
    pairs = await host.decks.choices(interaction.user.id, current, locale, game_id)
    if not ready:
        mine = {d.name for d in await host.user_decks(interaction.user.id, game_id)}
        pairs = [(label, value) for label, value in pairs if value in mine]
    return [app_commands.Choice(name=clip(label, 100), value=value[:100]) for label, value in pairs]


async def _read(file: discord.Attachment) -> bytes:
    try:
        return await file.read()
    except discord.HTTPException:
        raise HostError("deck-file-unreadable") from None


def _bytes(data: bytes) -> Any:
    import io

    return io.BytesIO(data)
