"""What players see without asking: the board in the channel after every
committed action, private views by DM, lobby messages, reminders and the
notices of closed DMs; and :class:`DiscordListener`, which hears what the
service does on its own (bot moves, clock decisions, expired lobbies)."""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from typing import Any

import discord

import i18n
from engine import GAMES

from ..decks import DECK_GAMES
from ..i18n import duration_text, game_name, game_text, result_lines, t
from ..lobby_options import readable_options
from ..service import LiveMatch, Lobby, Update
from ..settings import Settings
from .components import HandButton, LobbyButton, RematchButton
from .core import BotCore
from .menus import action_view
from .replies import reply
from .text import EMBED_COLOUR, fit_description
from .venues import Venues

log = logging.getLogger("gueridon")

BoardListener = Callable[[LiveMatch, list[Update], Any, int], Awaitable[None]]
"""Called after a match's board was posted, with the updates it showed
(several when announcements were folded) and the state and version it drew
(a newer action may be committed by then): spectators (``cogs/watch.py``)."""

DM_CLOSED_CODES = {50007, 50278}
# how many of a seat's latest direct messages a restart reads for buttons it sent but
# never recorded (Announcer.clear_unrecorded)
UNRECORDED_SCAN = 10

LOBBY_BUTTONS = (
    ("join", discord.ButtonStyle.success),
    ("leave", discord.ButtonStyle.secondary),
    ("addbot", discord.ButtonStyle.secondary),
    ("start", discord.ButtonStyle.primary),
    ("cancel", discord.ButtonStyle.danger),
)


class Announcer(BotCore):
    """The bot's announcing half (see :class:`bot.discord.client.GueridonBot`)."""

    def __init__(self, settings: Settings, **kwargs: Any) -> None:
        super().__init__(settings, **kwargs)
        # one announcement of a match at a time; a lock exists only while an
        # announcement of its match runs or waits (see :meth:`announcing`)
        self.announce_locks: dict[int, asyncio.Lock] = {}
        self._announce_users: dict[int, int] = {}
        # lines and private views of announcements folded into a newer one
        self.pending_lines: dict[int, list[str]] = {}
        self.pending_private: dict[int, set[int]] = {}
        self.pending_updates: dict[int, list[Update]] = {}
        # (match, seat) -> (channel, message, version) of its latest private view
        self.seat_messages: dict[tuple[int, int], tuple[int, int, int] | None] = {}
        self.board_listeners: list[BoardListener] = []
        self.venues = Venues(self)  # where matches play: their threads

    @contextlib.asynccontextmanager
    async def announcing(self, match_id: int) -> AsyncIterator[None]:
        """Hold the match's announcement lock. The lock is dropped as soon as
        no announcement of the match runs or waits, so that finished and
        evicted matches (the service keeps only ``keep_inactive`` of them)
        leave nothing behind here."""
        lock = self.announce_locks.get(match_id)
        if lock is None:
            lock = self.announce_locks[match_id] = asyncio.Lock()
        self._announce_users[match_id] = self._announce_users.get(match_id, 0) + 1
        try:
            async with lock:
                yield
        finally:
            left = self._announce_users.pop(match_id) - 1
            if left:
                self._announce_users[match_id] = left
            else:
                del self.announce_locks[match_id]

    # ---- what players see ------------------------------------------------------------
    async def board_message(
        self, live: LiveMatch, locale: str, header: Sequence[str] = ()
    ) -> tuple[discord.Embed, discord.File, list[int]]:
        """The public board: embed text, image, and the users to mention."""
        match = live.match
        game = live.game
        state, version = match.state, match.version  # one state, before any await
        embed = discord.Embed(
            title=t(locale, "match-title", game=game_name(locale, game.info.id), match=live.id),
            colour=EMBED_COLOUR,
        )
        history = [line for line in header if line]
        lines: list[str] = []
        mentions: list[int] = []
        outcome = match.outcome()
        if outcome is None:
            for seat, decision in sorted(match.pending().items()):
                user_id = live.user_of(seat)
                who = live.names[seat]  # a bot seat's synthetic id mentions no one
                if not live.is_bot_seat(seat):
                    mentions.append(user_id)
                    who = f"<@{user_id}>"
                lines.append(
                    t(
                        locale,
                        "to-act",
                        who=who,
                        what=game_text(locale, game.decision_text(decision, names=live.names)),
                    )
                )
        else:
            title, *rest = result_lines(locale, outcome, live.names)
            lines += [f"**{title}**", *rest]
            lines.append(t(locale, "seed-reveal", seed=match.seed, sha=match.seed_commitment))
        embed.description = fit_description(
            history, lines, 4000, lambda n: t(locale, "earlier-lines", count=n)
        )
        embed.set_image(url="attachment://board.png")
        png = await self.board_png(live, state, version, locale)
        return embed, discord.File(io.BytesIO(png), filename="board.png"), mentions

    def private_text(self, live: LiveMatch, seat: int, locale: str) -> str | None:
        """Who acts, as the seat reads it above its private view."""
        game = live.game
        pending = live.match.pending()
        if seat in pending:
            return t(
                locale,
                "to-act",
                who=t(locale, "your-turn"),
                what=game_text(locale, game.decision_text(pending[seat], names=live.names)),
            )
        if pending:
            other, decision = sorted(pending.items())[0]
            return t(
                locale,
                "hand-not-your-turn",
                what=t(
                    locale,
                    "to-act",
                    who=live.names[other],
                    what=game_text(locale, game.decision_text(decision, names=live.names)),
                ),
            )
        return None

    async def private_message(
        self, live: LiveMatch, seat: int, locale: str
    ) -> tuple[list[discord.Embed], list[discord.File], discord.ui.View | None, int]:
        """One seat's private view: hand image, the legal actions, and the
        version they belong to (everything is taken from one state, before any
        await, so a newer action cannot mix in). When the actions are
        placements the game draws (a step reached by typing), a second image
        shows them numbered, and so are the buttons."""
        match = live.match
        version = match.version
        view = match.view(seat)
        components = action_view(self, live, seat, locale)
        placements: list[tuple[int, str]] = []
        numbered = None
        if seat in match.pending():
            menu = self.menu_for(live, seat, locale)
            if menu.flat:
                placements = [(i + 1, n) for i, (n, _) in enumerate(menu.entries)]
                numbered = action_view(self, live, seat, locale, numbered=True)
        embed = discord.Embed(
            title=t(locale, "hand-title", game=game_name(locale, live.game.info.id), match=live.id),
            colour=EMBED_COLOUR,
        )
        embed.description = self.private_text(live, seat, locale)
        embed.set_image(url="attachment://hand.png")
        png = await self.private_png(live, seat, view, version, locale)
        embeds = [embed]
        files = [discord.File(io.BytesIO(png), filename="hand.png")]
        if placements:
            spots = await self.spots_png(live, seat, view, version, locale, placements)
            if spots is not None:
                extra = discord.Embed(description=t(locale, "menu-spots"), colour=EMBED_COLOUR)
                extra.set_image(url="attachment://spots.png")
                embeds.append(extra)
                files.append(discord.File(io.BytesIO(spots), filename="spots.png"))
                components = numbered
        return embeds, files, components, version

    def lobby_decks(self, lobby: Lobby, locale: str) -> str:
        """Who plays which deck (a deck game's lobby), and how to choose one."""
        chosen = {uid: name for uid, name, _ in lobby.decks}
        seats = []
        for uid in lobby.players:
            name = chosen.get(uid)
            if name is None:
                deck = t(locale, "lobby-deck-ready")
            else:
                deck = (
                    t(locale, "lobby-deck-named", name=name)
                    if name
                    else t(locale, "lobby-deck-kept")
                )
            seats.append(
                t(locale, "lobby-deck-seat", player=self.host.display_name(uid, lobby), deck=deck)
            )
        return t(locale, "lobby-decks", decks=i18n.join_list(locale, seats))

    def lobby_message(self, lobby: Lobby, locale: str) -> tuple[discord.Embed, discord.ui.View]:
        game = GAMES[lobby.game_id]
        host = self.host
        names = [host.display_name(u, lobby) for u in lobby.players]
        embed = discord.Embed(
            title=t(locale, "lobby-title", game=game_name(locale, game.info.id)),
            colour=EMBED_COLOUR,
        )
        embed.description = t(
            locale,
            "lobby-body",
            host=host.names.get(lobby.host_id, f"#{lobby.host_id}"),
            count=len(lobby.players),
            seats=lobby.seats,
            players=", ".join(names),
            options=readable_options(locale, lobby.game_id, lobby.options),
        )
        embed.description += "\n" + t(
            locale, "lobby-clock", clock=t(locale, f"clock-{lobby.clock}")
        )
        if lobby.game_id in DECK_GAMES:
            embed.description += "\n" + self.lobby_decks(lobby, locale)
        view = discord.ui.View(timeout=None)
        if lobby.status == "open":
            for action, style in LOBBY_BUTTONS:
                view.add_item(LobbyButton(lobby.id, action, t(locale, f"button-{action}"), style))
        return embed, view

    async def post_lobby(self, lobby: Lobby, content: str | None = None) -> None:
        """A new lobby's message in its channel (remembered, to be updated)."""
        locale = self.locale_for_channel(lobby.channel_id)
        embed, view = self.lobby_message(lobby, locale)
        channel = self.get_partial_messageable(lobby.channel_id)
        message = await channel.send(content=content, embed=embed, view=view)
        await self.host.set_lobby_message(lobby.id, message.id)

    async def refresh_lobby(self, lobby: Lobby, content: str | None = None) -> None:
        """The lobby's message shows the lobby as it is now; ``content``: a
        notice above it (a seat the host freed, a change of options), ``""``
        to clear it (a seat taken or left since), None to leave it as it is."""
        if lobby.message_id is None:
            return
        locale = self.locale_for_channel(lobby.channel_id)
        embed, view = self.lobby_message(lobby, locale)
        channel = self.get_partial_messageable(lobby.channel_id)
        extra: dict[str, Any] = {} if content is None else {"content": content or None}
        try:
            await channel.get_partial_message(lobby.message_id).edit(
                embed=embed, view=view, **extra
            )
        except discord.HTTPException:
            log.warning("could not update the message of lobby %s", lobby.id)

    # ---- announcing an update ------------------------------------------------------------
    async def announce(self, update: Update, header: Sequence[str] = ()) -> None:
        """After a committed action: the board in the channel, private views by DM."""
        live = update.live
        async with self.announcing(live.id):
            locale = self.locale_for_channel(live.channel_id)
            lines = self.pending_lines.pop(live.id, []) + list(header)
            names = live.names
            for event in update.events:
                seen = event.for_seat(None)
                if seen is not None:
                    text = game_text(locale, live.game.describe_event(seen, names))
                    if text:
                        lines.append(f"· {text}")
            if live.version > update.version:
                # A newer action is already committed and its own announcement
                # will follow: one board for both, with every line of both.
                self.pending_lines[live.id] = lines
                self.pending_private.setdefault(live.id, set()).update(update.private_changed)
                self.pending_updates.setdefault(live.id, []).append(update)
                return
            shown = live.match.state, live.match.version  # what post_board draws
            await self.post_board(live, locale, lines)
            changed = update.private_changed | self.pending_private.pop(live.id, set())
            # a pending seat whose message reads the same keeps it: only its
            # buttons, which name the version, are brought up to date
            for seat in sorted(changed | set(live.match.pending())):
                if seat in live.resigned or live.is_bot_seat(seat):
                    continue  # bot seats have no one to read a DM: nothing is drawn for them
                await self.send_private(live, seat, changed=seat in changed)
            updates = [*self.pending_updates.pop(live.id, []), update]
            for listener in self.board_listeners:
                try:
                    await listener(live, updates, *shown)
                except Exception:
                    log.exception("a board listener failed on match %s", live.id)
            if update.outcome is not None:
                self.images.forget(live.id)
                for seat in range(live.match.seats):
                    self.seat_messages.pop((live.id, seat), None)
                await self.venues.ended(live)  # the lobby channel's line, the thread archived

    async def post_board(self, live: LiveMatch, locale: str, header: Sequence[str] = ()) -> None:
        channel = self.get_partial_messageable(live.channel_id)
        version = live.match.version  # what board_message draws (before any await)
        embed, file, mentions = await self.board_message(live, locale, header)
        view = discord.ui.View(timeout=None)
        if not live.match.is_over:
            view.add_item(HandButton(live.id, locale))
        else:
            view.add_item(RematchButton(live.id, t(locale, "rematch")))
        try:
            message = await channel.send(
                content=" ".join(f"<@{u}>" for u in dict.fromkeys(mentions)) or None,
                embed=embed,
                file=file,
                allowed_mentions=discord.AllowedMentions(users=True),
                view=view,
            )
        except discord.HTTPException:
            log.exception("could not post the board of match %s", live.id)
            return
        await self.host.set_board_message(live, message.id, version)

    async def seat_message(self, live: LiveMatch, seat: int) -> tuple[int, int, int] | None:
        """Where the seat's latest private view went, ``(channel, message,
        version)``: kept in memory as it is saved (read from the store once
        after a restart). With several processes, another one may have sent
        the seat a newer view (a direct-message click reaches shard 0's
        process, whoever owns the match): read from the store every time."""
        key = (live.id, seat)
        if key not in self.seat_messages or not self.settings.shards.is_all:
            self.seat_messages[key] = await self.host.seat_message(live.id, seat)
        return self.seat_messages[key]

    async def set_seat_message(
        self, live: LiveMatch, seat: int, channel_id: int, message_id: int, version: int
    ) -> None:
        self.seat_messages[(live.id, seat)] = (channel_id, message_id, version)
        await self.host.set_seat_message(live.id, seat, channel_id, message_id, version)

    async def send_private(self, live: LiveMatch, seat: int, changed: bool = True) -> None:
        """DM one seat its private view, once per change; remember closed DMs.
        ``changed`` false: the seat's message would read the same (see
        :attr:`Update.private_changed`), so its buttons are brought to the
        current version in place, and no new DM is sent (unless it has none).
        With other processes on the database, under the seat's lock
        (:meth:`HostService.seat_lock`): one of them may be announcing another
        version of the match (a click in direct messages reaches shard 0's
        process, a move typed in the thread its owner), and an older edit of
        the same message must not land after a newer one."""
        if live.is_bot_seat(seat):
            return
        if live.user_of(seat) in self.host.dm_closed:
            await self.notice_dm_closed(live, seat)
            return
        async with self.host.seat_lock(live.id, seat):
            await self._send_private(live, seat, changed)

    async def _send_private(self, live: LiveMatch, seat: int, changed: bool) -> None:
        user_id = live.user_of(seat)
        previous = await self.seat_message(live, seat)
        if previous is not None and previous[2] >= live.version:
            return  # this seat already has the private view of this version (or a newer one)
        locale = self.locale_for_user(user_id)
        embeds, files, view, version = await self.private_message(live, seat, locale)
        # ``changed`` compares with the version before this update; shared, the
        # seat's message may read an older one (another process's announcement
        # is late): edited in place only if it reads the version just before
        in_place = not changed and previous is not None
        if in_place and self.host.shared and previous is not None:
            in_place = previous[2] == live.version - 1
        if in_place and previous is not None:
            channel_id, message_id, _ = previous
            try:
                message = self.get_partial_messageable(channel_id).get_partial_message(message_id)
                await message.edit(view=view)
            except discord.HTTPException:
                pass  # gone or refused: a new message follows
            else:
                await self.record_seat_message(
                    live, seat, channel_id, message_id, version, previous
                )
                return
        try:
            user = self.get_user(user_id) or await self.fetch_user(user_id)
            channel = user.dm_channel or await user.create_dm()
            if previous is not None:
                # the old private message's buttons are stale now
                with contextlib.suppress(discord.HTTPException):
                    await channel.get_partial_message(previous[1]).edit(view=None)
            kwargs: dict[str, Any] = {"embeds": embeds, "files": files}
            if view is not None:
                kwargs["view"] = view
            message = await channel.send(**kwargs)
        except discord.Forbidden as err:
            if err.code in DM_CLOSED_CODES:
                await self.host.mark_dm_closed(user_id)
                await self.notice_dm_closed(live, seat)
                return
            log.warning("DM to %s refused: %s", user_id, err)
            return
        except discord.HTTPException:
            log.exception("could not DM seat %s of match %s", seat, live.id)
            return
        await self.record_seat_message(live, seat, channel.id, message.id, version, previous)

    async def record_seat_message(
        self,
        live: LiveMatch,
        seat: int,
        channel_id: int,
        message_id: int,
        version: int,
        previous: tuple[int, int, int] | None,
    ) -> None:
        """Remember the seat's new private message. With other processes on
        the database, one of them may have sent the seat another view while
        this one was sending (a click in direct messages reaches shard 0's
        process, a move typed in the match's channel its owner): the newer
        view is recorded and the other message's buttons, stale, are removed,
        whichever process finishes last."""
        if not self.host.shared:
            await self.set_seat_message(live, seat, channel_id, message_id, version)
            return
        recorded, found = await self.host.swap_seat_message(
            live.id, seat, channel_id, message_id, version
        )
        key = (live.id, seat)
        if recorded:
            self.seat_messages[key] = (channel_id, message_id, version)
            # an older view sent meanwhile by another process: not ``previous``,
            # whose buttons were removed before this one was sent
            stale = found if found not in (None, previous) and found[1] != message_id else None
        else:
            self.seat_messages[key] = found
            # this one, unless the newer view is in the same message
            stale = None if found and found[1] == message_id else (channel_id, message_id, version)
        if stale is not None:
            with contextlib.suppress(discord.HTTPException):
                channel = self.get_partial_messageable(stale[0])
                await channel.get_partial_message(stale[1]).edit(view=None)

    async def send_lost_private(self, matches: Sequence[LiveMatch]) -> None:
        """After a restart on a shared database: a match whose latest board
        shows an older version gets the current board, and a seat whose latest
        private view is older than its match the current one (the process
        died between a move's commit and its messages, or another process's
        did). On the embedded default nothing is sent again."""
        async with self.working():
            for live in matches:
                async with self.announcing(live.id):
                    if live.status != "active" or live.match.is_over:
                        continue
                    if live.board_version is not None and live.board_version < live.version:
                        locale = self.locale_for_channel(live.channel_id)
                        await self.post_board(live, locale, [t(locale, "board-after-restart")])
                    for seat in sorted(live.match.pending()):
                        if seat in live.resigned or live.is_bot_seat(seat):
                            continue
                        if live.user_of(seat) in self.host.dm_closed:
                            continue
                        try:
                            previous = await self.seat_message(live, seat)
                            if previous is None or previous[2] < live.version:
                                await self.send_private(live, seat)
                                await self.clear_unrecorded(live, seat)
                        except Exception:
                            log.exception("could not DM seat %s of match %s again", seat, live.id)

    async def clear_unrecorded(self, live: LiveMatch, seat: int) -> None:
        """Remove the match's move components from the seat's recent direct
        messages but the recorded one: a process that died between sending a
        view and recording it left that message's buttons live, and nothing
        else knows of it. Read from the channel's history (the last
        :data:`UNRECORDED_SCAN` messages), under the seat's lock."""
        user_id = live.user_of(seat)
        names = {f"gm:{live.id}", f"gs:{live.id}"}
        async with self.host.seat_lock(live.id, seat):
            recorded = await self.seat_message(live, seat)
            keep = None if recorded is None else recorded[1]
            try:
                user = self.get_user(user_id) or await self.fetch_user(user_id)
                channel = user.dm_channel or await user.create_dm()
                async for message in channel.history(limit=UNRECORDED_SCAN):
                    if message.id == keep or self.user is None:
                        continue
                    if message.author.id != self.user.id:
                        continue
                    ids = [
                        str(getattr(item, "custom_id", None) or "")
                        for row in message.components
                        for item in getattr(row, "children", [row])
                    ]
                    if any(":".join(i.split(":")[:2]) in names for i in ids):
                        with contextlib.suppress(discord.HTTPException):
                            await message.edit(view=None)
            except discord.HTTPException as err:
                log.warning("could not read the direct messages of %s: %s", user_id, err)

    async def notice_dm_closed(self, live: LiveMatch, seat: int) -> None:
        if seat in live.dm_notice_sent:
            return
        await self.host.mark_dm_notice(live, seat)
        locale = self.locale_for_channel(live.channel_id)
        channel = self.get_partial_messageable(live.channel_id)
        user_id = live.user_of(seat)
        try:
            await channel.send(
                t(locale, "dm-closed", user=f"<@{user_id}>"),
                allowed_mentions=discord.AllowedMentions(users=True),
            )
        except discord.HTTPException:
            log.exception("could not post the closed-DM notice")


async def confirm_and_announce(
    interaction: discord.Interaction, text: str, update: Update, header: Sequence[str] = ()
) -> None:
    """After a committed action: the ephemeral confirmation and the
    announcement at once, so the board is drawn while the confirmation
    travels, and goes out even if the confirmation fails."""
    bot = interaction.client
    assert isinstance(bot, Announcer)
    announcing = asyncio.ensure_future(bot.announce(update, header))
    try:
        await reply(interaction, text)
    finally:
        await announcing


class DiscordListener:
    """Tells Discord what happened without an interaction: bot moves, clock
    decisions, reminders, expired lobbies."""

    def __init__(self, bot: Announcer) -> None:
        self.bot = bot

    async def on_update(self, update: Update) -> None:
        header: list[str] = []
        if update.by_clock:
            # the seat's clock ran out: say whose move the host played
            live = update.live
            locale = self.bot.locale_for_channel(live.channel_id)
            header.append(t(locale, "clock-played", name=live.names[update.seat]))
        async with self.bot.working():
            await self.bot.announce(update, header)

    async def on_reminder(self, live: LiveMatch, seat: int, remaining: float) -> None:
        bot = self.bot
        user_id = live.user_of(seat)
        if user_id not in bot.host.dm_closed:
            locale = bot.locale_for_user(user_id)
            try:
                user = bot.get_user(user_id) or await bot.fetch_user(user_id)
                await user.send(
                    t(
                        locale,
                        "reminder-dm",
                        match=live.id,
                        channel=f"<#{live.channel_id}>",
                        left=duration_text(locale, remaining),
                    )
                )
                return
            except discord.Forbidden as err:
                if err.code in DM_CLOSED_CODES:
                    await bot.host.mark_dm_closed(user_id)
            except discord.HTTPException:
                log.warning("could not DM a reminder to %s", user_id)
        locale = bot.locale_for_channel(live.channel_id)
        channel = bot.get_partial_messageable(live.channel_id)
        with contextlib.suppress(discord.HTTPException):
            await channel.send(
                t(
                    locale,
                    "reminder-mention",
                    user=f"<@{user_id}>",
                    left=duration_text(locale, remaining),
                ),
                allowed_mentions=discord.AllowedMentions(users=True),
            )

    async def on_lobby_expired(self, lobby: Lobby) -> None:
        await self.bot.refresh_lobby(lobby)
        locale = self.bot.locale_for_channel(lobby.channel_id)
        channel = self.bot.get_partial_messageable(lobby.channel_id)
        with contextlib.suppress(discord.HTTPException):
            await channel.send(t(locale, "lobby-expired"))
