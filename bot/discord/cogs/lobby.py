"""``/lobby create|join|leave|addbot|kick|options|start|cancel``, the lobby
buttons and the Rematch button of a final board."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from ... import lobby_control
from ...decks import DECK_GAMES
from ...i18n import game_name, t
from ...service import HostError, HostService, LiveMatch, Update, UserRef
from ..announce import Announcer
from ..components import LOBBY, LobbyHandlers
from ..replies import reply
from ..translation import GAME_CHOICES, desc, locale_of, name
from .decks import deck_choices


class LobbyCog(commands.Cog, name=LOBBY):
    lobby = app_commands.Group(name=name("lobby"), description=desc("cmd-lobby"), guild_only=True)

    def __init__(self, bot: Announcer) -> None:
        self.bot = bot

    @property
    def host(self) -> HostService:
        return self.bot.host

    @lobby.command(name=name("create"), description=desc("cmd-lobby-create"))
    @app_commands.describe(
        game=desc("opt-game"),
        seats=desc("opt-seats"),
        options=desc("opt-options"),
        clock=desc("opt-clock"),
        deck=desc("opt-deck"),
    )
    @app_commands.rename(
        game=name("game"),
        seats=name("seats"),
        options=name("options"),
        clock=name("clock"),
        deck=name("deck"),
    )
    @app_commands.choices(
        game=GAME_CHOICES,
        clock=[
            app_commands.Choice(name=desc("clock-correspondence"), value="correspondence"),
            app_commands.Choice(name=desc("clock-fast"), value="fast"),
        ],
    )
    async def lobby_create(
        self,
        interaction: discord.Interaction,
        game: str,
        seats: app_commands.Range[int, 1, 8] | None = None,
        options: str | None = None,
        clock: str | None = None,
        deck: app_commands.Range[str, 1, 100] | None = None,
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        user = await self.bot.note_interaction(interaction)
        assert interaction.channel_id is not None
        lobby = await self.host.create_lobby(
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
            host=user,
            game_id=game,
            seats=seats,
            options=options or "",
            clock=clock,  # None: the server's default clock
            deck=deck,
            parent_id=getattr(interaction.channel, "parent_id", None),  # a thread's channel
        )
        await self.bot.post_lobby(lobby)
        locale = locale_of(interaction)
        await reply(interaction, t(locale, "lobby-opened", game=game_name(locale, game)))

    @lobby_create.autocomplete("deck")
    async def create_deck_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        game = getattr(interaction.namespace, "game", None)
        if game not in DECK_GAMES:
            return []
        return await deck_choices(self.host, interaction, current, str(game))

    @lobby.command(name=name("join"), description=desc("cmd-lobby-join"))
    @app_commands.describe(deck=desc("opt-deck"))
    @app_commands.rename(deck=name("deck"))
    async def lobby_join(
        self,
        interaction: discord.Interaction,
        deck: app_commands.Range[str, 1, 100] | None = None,
    ) -> None:
        await self.lobby_action(interaction, "join", deck=deck)

    @lobby_join.autocomplete("deck")
    async def join_deck_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        if interaction.channel_id is None:
            return []
        lobby = await self.host.lobby_in(interaction.channel_id)
        if lobby is None or lobby.game_id not in DECK_GAMES:
            return []
        return await deck_choices(self.host, interaction, current, lobby.game_id)

    @lobby.command(name=name("leave"), description=desc("cmd-lobby-leave"))
    async def lobby_leave(self, interaction: discord.Interaction) -> None:
        await self.lobby_action(interaction, "leave")

    @lobby.command(name=name("start"), description=desc("cmd-lobby-start"))
    async def lobby_start(self, interaction: discord.Interaction) -> None:
        await self.lobby_action(interaction, "start")

    @lobby.command(name=name("cancel"), description=desc("cmd-lobby-cancel"))
    async def lobby_cancel(self, interaction: discord.Interaction) -> None:
        await self.lobby_action(interaction, "cancel")

    @lobby.command(name=name("addbot"), description=desc("cmd-lobby-addbot"))
    @app_commands.describe(level=desc("opt-level"))
    @app_commands.rename(level=name("level"))
    @app_commands.choices(
        level=[
            app_commands.Choice(name=desc("level-easy"), value="easy"),
            app_commands.Choice(name=desc("level-normal"), value="normal"),
            app_commands.Choice(name=desc("level-hard"), value="hard"),
        ]
    )
    async def lobby_addbot(self, interaction: discord.Interaction, level: str = "normal") -> None:
        await self.lobby_action(interaction, "addbot", level)

    @lobby.command(name=name("kick"), description=desc("cmd-lobby-kick"))
    @app_commands.describe(seat=desc("opt-kick-seat"))
    @app_commands.rename(seat=name("seat"))
    async def lobby_kick(
        self, interaction: discord.Interaction, seat: app_commands.Range[str, 1, 100]
    ) -> None:
        """The host frees a seat (a player's or a bot's): the lobby message
        says who was removed."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        user = await self.bot.note_interaction(interaction)
        channel_id = interaction.channel_id
        assert channel_id is not None
        kicked = await lobby_control.kick(self.host, channel_id, user, seat)
        locale = self.bot.locale_for_channel(channel_id)
        who = kicked.name if kicked.user_id < 0 else f"<@{kicked.user_id}>"
        await self.bot.refresh_lobby(kicked.lobby, t(locale, "lobby-kicked", user=who))
        await reply(interaction, t(locale_of(interaction), "lobby-kicked", user=kicked.name))

    @lobby_kick.autocomplete("seat")
    async def kick_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """Every seat but the host's, by number and name (players and bots)."""
        if interaction.channel_id is None:
            return []
        lobby = await self.host.lobby_in(interaction.channel_id)
        if lobby is None:
            return []
        locale = locale_of(interaction)
        typed = current.strip().casefold()
        choices = []
        for seat, uid, who in lobby_control.seat_choices(self.host, lobby):
            label = t(locale, "lobby-seat-choice", seat=seat, name=who)[:100]
            if typed in label.casefold():
                choices.append(app_commands.Choice(name=label, value=str(uid)))
        return choices[:25]

    @lobby.command(name=name("options"), description=desc("cmd-lobby-options"))
    @app_commands.describe(
        seats=desc("opt-seats"),
        options=desc("opt-change-options"),
        clock=desc("opt-clock"),
        standard=desc("opt-standard"),
    )
    @app_commands.rename(
        seats=name("seats"),
        options=name("options"),
        clock=name("clock"),
        standard=name("standard"),
    )
    @app_commands.choices(
        clock=[
            app_commands.Choice(name=desc("clock-correspondence"), value="correspondence"),
            app_commands.Choice(name=desc("clock-fast"), value="fast"),
        ],
    )
    async def lobby_options(
        self,
        interaction: discord.Interaction,
        seats: app_commands.Range[int, 1, 8] | None = None,
        options: str | None = None,
        clock: str | None = None,
        standard: bool = False,
    ) -> None:
        """The host changes the lobby's seats, options or clock before the
        start: the lobby message shows the change and the seated players
        are told, so that nobody starts a match they did not agree to."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        user = await self.bot.note_interaction(interaction)
        channel_id = interaction.channel_id
        assert channel_id is not None
        change = await lobby_control.change(
            self.host,
            channel_id,
            user,
            seats=seats,
            options=options,
            clock=clock,
            standard=standard,
        )
        locale = self.bot.locale_for_channel(channel_id)
        lines = "\n".join(lobby_control.change_lines(locale, change))
        await self.bot.refresh_lobby(
            change.after, t(locale, "lobby-changed", players="", changes=lines)
        )
        others = [uid for uid in change.after.players if uid > 0 and uid != user.id]
        if others:
            mentions = " ".join(f"<@{uid}>" for uid in others)
            channel = self.bot.get_partial_messageable(channel_id)
            await channel.send(
                t(locale, "lobby-changed", players=mentions + " ", changes=lines),
                allowed_mentions=discord.AllowedMentions(users=True),
            )
        mine = locale_of(interaction)
        changes = "\n".join(lobby_control.change_lines(mine, change))
        await reply(interaction, t(mine, "lobby-changed-done", changes=changes))

    async def lobby_action(
        self,
        interaction: discord.Interaction,
        action: str,
        level: str = "normal",
        lobby_id: int | None = None,
        deck: str | None = None,
    ) -> None:
        """join / leave / start / cancel / addbot, from a command or a button
        (``lobby_id``: the lobby of the clicked button, which must still be
        open). Acknowledged first, then everything else."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        user = await self.bot.note_interaction(interaction)
        if lobby_id is not None:
            clicked = await self.host.lobby(lobby_id)
            if clicked is None or clicked.status != "open":
                # Cancel on a lobby whose match plays in a thread: say where
                elsewhere = action == "cancel" and self.host.cancel_elsewhere(
                    interaction.channel_id or 0, lobby_id
                )
                raise elsewhere or HostError("no-lobby")
        channel_id = interaction.channel_id
        assert channel_id is not None
        if action == "start":
            await self.start(interaction, channel_id, user)
        elif action == "cancel":
            await self.cancel(interaction, channel_id, user)
        else:
            await self.seat_change(interaction, channel_id, user, action, level, deck)

    async def seat_change(
        self,
        interaction: discord.Interaction,
        channel_id: int,
        user: UserRef,
        action: str,
        level: str,
        deck: str | None = None,
    ) -> None:
        """join, addbot or leave: the lobby message updated, the user told
        (privately: in their language)."""
        locale = locale_of(interaction)
        if action == "join":
            before = await self.host.lobby_in(channel_id)
            lobby = await self.host.join(channel_id, user, deck)
            if before is not None and user.id in before.players:  # a new deck only
                name = next((n for uid, n, _ in lobby.decks if uid == user.id), "")
                await self.bot.refresh_lobby(lobby)
                await reply(interaction, t(locale_of(interaction), "lobby-deck-chosen", deck=name))
                return
            text = t(locale, "lobby-joined", user=user.name)
        elif action == "addbot":
            lobby = await self.host.add_bot(channel_id, user, level)
            text = t(locale, "lobby-bot-added", level=t(locale, f"level-{level}"))
        else:
            lobby = await self.host.leave(channel_id, user)
            text = t(locale, "lobby-left", user=user.name)
        await self.bot.refresh_lobby(lobby, "")  # an older notice is out of date now
        await reply(interaction, text)

    async def cancel(
        self, interaction: discord.Interaction, channel_id: int, user: UserRef
    ) -> None:
        """Cancel the channel's lobby, or its match (the host or an admin)."""
        locale = self.bot.locale_for_channel(channel_id)
        is_admin = bool(interaction.permissions.manage_guild)
        roles = getattr(interaction.user, "roles", ())  # a member's (the cancel role)
        result = await self.host.cancel(
            channel_id, user, is_admin=is_admin, role_ids=[r.id for r in roles]
        )
        if isinstance(result, LiveMatch):
            await reply(
                interaction,
                t(locale_of(interaction), "match-cancelled", match=result.id, user=user.name),
            )
            channel = self.bot.get_partial_messageable(channel_id)
            # after the board of a move still being posted: a post in an
            # archived thread would open it again
            async with self.bot.announcing(result.id):
                await channel.send(t(locale, "match-cancelled", match=result.id, user=user.name))
                await self.bot.venues.cancelled(result, user.name)
            return
        await self.bot.refresh_lobby(result)
        await reply(interaction, t(locale, "lobby-cancelled"))

    async def start(self, interaction: discord.Interaction, channel_id: int, user: UserRef) -> None:
        """Start the channel's lobby: the seed's commitment, then the first board,
        in the match's thread (made from the lobby message) or in the channel."""
        live = await self.host.start(channel_id, user, venue=self.bot.venues.open)
        locale = self.bot.locale_for_channel(live.channel_id)
        lobby = None if live.lobby_id is None else await self.host.lobby(live.lobby_id)
        if lobby is not None:
            await self.bot.refresh_lobby(lobby)
        await reply(
            interaction, t(locale_of(interaction), "lobby-started", players=", ".join(live.names))
        )
        channel = self.bot.get_partial_messageable(live.channel_id)
        await channel.send(
            t(locale, "lobby-started", players=", ".join(live.names))
            + "\n"
            + t(locale, "seed-commit", sha=live.match.seed_commitment)
        )
        await self.bot.venues.started(live)
        update = Update(
            live=live,
            version=live.version,
            seat=-1,
            action="",
            events=(),
            pending=live.match.pending(),
            outcome=None,
            private_changed=frozenset(range(live.match.seats)),
        )
        await self.bot.announce(update)

    async def rematch(self, interaction: discord.Interaction, match_id: int) -> None:
        """The Rematch button: a new lobby with the same players and options."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        user = await self.bot.note_interaction(interaction)
        lobby = await self.host.rematch(match_id, UserRef(user.id, user.name, user.locale))
        locale = self.bot.locale_for_channel(lobby.channel_id)
        await self.bot.post_lobby(lobby, t(locale, "rematch-opened"))
        await reply(interaction, t(locale_of(interaction), "rematch-opened"))


def _handles(cog: LobbyCog) -> LobbyHandlers:
    return cog  # mypy checks that the cog offers what its components call
