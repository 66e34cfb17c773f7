"""The Discord adapter: slash commands, persistent buttons, DMs, board images.

Everything game-related goes through :class:`bot.service.HostService`; this
module only translates between Discord and the service. No game-specific
code lives here: boards come from :mod:`render`, texts from the game's own
``describe_event`` / ``decision_text`` and from :mod:`bot.i18n`.

Components are :class:`discord.ui.DynamicItem` subclasses whose custom_id
carries only numbers (match id, state version, index of the legal action, or
the index path of a choice in the game's action menu, :mod:`bot.menu`), so
they survive restarts and never hold a secret.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import re
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _T
from discord.ext import commands

from engine import GAMES

from .i18n import FR, duration_text, error_text, lang, result_lines, rules_text, t
from .menu import PAGE, Menu, build_menu, page_count, page_of, page_range, parse_path, path_text
from .service import HostError, HostService, LiveMatch, Lobby, Update, UserRef, hostable_games
from .settings import Settings
from .store import Store
from .workers import Workers

log = logging.getLogger("gueridon")

DM_CLOSED_CODES = {50007, 50278}
BUTTON_LIMIT = 20  # more legal actions than this: select menus
EMBED_COLOUR = 0x7A4E2D


# ---------------------------------------------------------------------------
# Translation of command names and descriptions
# ---------------------------------------------------------------------------


class Translator(app_commands.Translator):
    """French descriptions and game names from the i18n catalogue."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        if not str(locale.value).lower().startswith("fr"):
            return None
        key = string.extras.get("key")
        if key is None:
            return None
        if key.startswith("game:"):
            game = GAMES.get(key[5:])
            return game.info.name_fr if game else None
        return FR.get(key)


def _desc(key: str) -> app_commands.locale_str:
    return _T(t("en", key), key=key)


def _name(name: str) -> app_commands.locale_str:
    """A command or option name, localised through the ``name-*`` keys."""
    return _T(name, key=f"name-{name}")


GAME_CHOICES = [
    app_commands.Choice(name=_T(GAMES[gid].info.name_en, key=f"game:{gid}"), value=gid)
    for gid in hostable_games()
]


# ---------------------------------------------------------------------------
# The bot
# ---------------------------------------------------------------------------


class GueridonBot(commands.Bot):
    def __init__(self, settings: Settings, **kwargs: Any) -> None:
        intents = kwargs.pop("intents", None) or discord.Intents.default()
        kwargs.setdefault("command_prefix", commands.when_mentioned)
        kwargs.setdefault("help_command", None)
        super().__init__(intents=intents, **kwargs)
        self.settings = settings
        self.store: Store | None = None
        self.service: HostService | None = None
        self.ticker: asyncio.Task[None] | None = None
        # images and hard bots' thinking run in worker processes (threads in tests)
        self.render_pool = Workers(
            "render", settings.render_workers, processes=settings.worker_processes
        )
        self.bot_pool = Workers("bots", settings.bot_workers, processes=settings.worker_processes)
        self.channel_locale: dict[int, str] = {}
        self.user_locale: dict[int, str] = {}
        # one announcement of a match at a time; a lock exists only while an
        # announcement of its match runs or waits (see :meth:`announcing`)
        self.announce_locks: dict[int, asyncio.Lock] = {}
        self._announce_users: dict[int, int] = {}
        # lines and private views of announcements folded into a newer one
        self.pending_lines: dict[int, list[str]] = {}
        self.pending_private: dict[int, set[int]] = {}
        # action menus by (match, version, seat, language): a click resolves its
        # index path in the menu of the version it was built for
        self.menus: dict[tuple[int, int, int, str], Menu] = {}
        # interactions acknowledged by a public "thinking" (see defer_public)
        self.public_thinking: set[int] = set()
        self._busy = 0
        self._idle = asyncio.Event()
        self._idle.set()

    @contextlib.asynccontextmanager
    async def working(self) -> AsyncIterator[None]:
        """Marks a handler in flight; :meth:`close` waits for them to finish."""
        self._busy += 1
        self._idle.clear()
        try:
            yield
        finally:
            self._busy -= 1
            if self._busy == 0:
                self._idle.set()

    async def setup_hook(self) -> None:
        self.store = await Store.open(self.settings.database_path)
        self.service = HostService(
            self.store,
            provisional_games=self.settings.provisional_games,
            clock_config=self.settings.clock_config(),
            bot_workers=self.bot_pool,
        )
        self.service.listeners.append(DiscordListener(self))
        resumed = await self.service.resume()
        self.ticker = asyncio.get_running_loop().create_task(self._tick_forever())
        log.info("resumed %d active matches", len(resumed))
        await self.tree.set_translator(Translator())
        from .discord_records import LeaderboardPage, RecordsCog, RematchButton, ReplayStep

        await self.add_cog(GameCog(self))
        await self.add_cog(RecordsCog(self))
        self.add_dynamic_items(
            LobbyButton,
            MoveButton,
            MoveSelect,
            MenuSelect,
            HandButton,
            LeaderboardPage,
            ReplayStep,
            RematchButton,
        )
        guild_id = self.settings.dev_guild_id
        if guild_id:
            guild = discord.Object(id=guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()

    async def _tick_forever(self) -> None:
        """The turn clock: reminders, expiries, old lobbies."""
        while True:
            await asyncio.sleep(self.settings.tick_seconds)
            try:
                await self.host.tick()
            except Exception:
                log.exception("clock tick failed")

    async def close(self) -> None:
        if self.ticker is not None:
            self.ticker.cancel()
        if self.service is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.service.wait_for_bots(), timeout=10)
        # let handlers in flight finish their announcements (bounded wait)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._idle.wait(), timeout=10)
        try:
            await super().close()
        finally:
            if self.store is not None:
                await self.store.close()
                self.store = None
            self.render_pool.close()
            self.bot_pool.close()

    @property
    def host(self) -> HostService:
        assert self.service is not None, "setup_hook has not run"
        return self.service

    # ---- helpers ------------------------------------------------------------------
    async def render(self, fn: Callable[..., bytes], *args: Any) -> bytes:
        """Draw off the event loop, in a worker (``fn`` and its arguments pickle)."""
        return await self.render_pool.run(fn, *args)

    def locale_for_channel(self, channel_id: int) -> str:
        known = self.channel_locale.get(channel_id)
        if known is None and self.service is not None:
            known = self.service.channel_locale(channel_id)  # saved before a restart
        return known or "en"

    def locale_for_user(self, user_id: int) -> str:
        known = self.user_locale.get(user_id)
        if known is None and self.service is not None:
            known = self.service.user_locale(user_id)  # saved before a restart
        return known or "en"

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

    async def note_interaction(self, interaction: discord.Interaction) -> UserRef:
        user = interaction.user
        locale = str(interaction.locale.value) if interaction.locale else "en"
        self.user_locale[user.id] = locale
        if interaction.guild_id is not None and interaction.channel_id is not None:
            guild_locale = interaction.guild_locale
            self.channel_locale.setdefault(
                interaction.channel_id, str(guild_locale.value) if guild_locale else locale
            )
        ref = UserRef(user.id, user.display_name, locale)
        await self.host.remember_user(ref)
        if interaction.guild_id is not None and interaction.channel_id is not None:
            guild_locale = interaction.guild_locale
            await self.host.remember_guild(
                interaction.guild_id,
                interaction.channel_id,
                str(guild_locale.value) if guild_locale else None,
            )
        return ref

    # ---- what players see ------------------------------------------------------------
    async def board_message(
        self, live: LiveMatch, locale: str, header: Sequence[str] = ()
    ) -> tuple[discord.Embed, discord.File, list[int]]:
        """The public board: embed text, image, and the users to mention."""
        from render import render_board

        match = live.match
        game = live.game
        view = match.view(None)
        embed = discord.Embed(
            title=t(locale, "match-title", game=game.info.name(locale), match=live.id),
            colour=EMBED_COLOUR,
        )
        history = [line for line in header if line]
        lines: list[str] = []
        mentions: list[int] = []
        outcome = match.outcome()
        pending = match.pending()
        if outcome is None:
            for seat, decision in sorted(pending.items()):
                user_id = live.user_of(seat)
                mentions.append(user_id)
                lines.append(
                    t(
                        locale,
                        "to-act",
                        who=f"<@{user_id}>",
                        what=game.decision_text(decision, lang(locale), live.names),
                    )
                )
        else:
            title, *rest = result_lines(locale, outcome, live.names)
            lines += [f"**{title}**", *rest]
            lines.append(t(locale, "seed-reveal", seed=match.seed, sha=match.seed_commitment))
        embed.description = _fit_description(
            history, lines, 4000, lambda n: t(locale, "earlier-lines", count=n)
        )
        embed.set_image(url="attachment://board.png")
        png = await self.render(render_board, live.game_id, view, live.names, locale)
        return embed, discord.File(io.BytesIO(png), filename="board.png"), mentions

    async def private_message(
        self, live: LiveMatch, seat: int, locale: str
    ) -> tuple[list[discord.Embed], list[discord.File], discord.ui.View | None, int]:
        """One seat's private view: hand image, the legal actions, and the
        version they belong to (everything is taken from one state, before any
        await, so a newer action cannot mix in). When the actions are
        placements the game draws (a step reached by typing), a second image
        shows them numbered, and so are the buttons."""
        from render import render_choices, render_private

        match = live.match
        game = live.game
        version = match.version
        view = match.view(seat)
        pending = match.pending()
        components = self.action_view(live, seat, locale)
        placements: list[tuple[int, str]] = []
        numbered = None
        if seat in pending:
            menu = self.menu_for(live, seat, locale)
            if menu.flat:
                placements = [(i + 1, n) for i, (n, _) in enumerate(menu.entries)]
                numbered = self.action_view(live, seat, locale, numbered=True)
        embed = discord.Embed(
            title=t(locale, "hand-title", game=game.info.name(locale), match=live.id),
            colour=EMBED_COLOUR,
        )
        if seat in pending:
            embed.description = t(
                locale,
                "to-act",
                who=t(locale, "your-turn"),
                what=game.decision_text(pending[seat], lang(locale), live.names),
            )
        elif pending:
            other, decision = sorted(pending.items())[0]
            embed.description = t(
                locale,
                "hand-not-your-turn",
                what=t(
                    locale,
                    "to-act",
                    who=live.names[other],
                    what=game.decision_text(decision, lang(locale), live.names),
                ),
            )
        embed.set_image(url="attachment://hand.png")
        png = await self.render(render_private, live.game_id, view, live.names, locale)
        embeds = [embed]
        files = [discord.File(io.BytesIO(png), filename="hand.png")]
        if placements:
            spots = await self.render_pool.run(
                render_choices, live.game_id, view, live.names, locale, placements
            )
            if spots is not None:
                extra = discord.Embed(description=t(locale, "menu-spots"), colour=EMBED_COLOUR)
                extra.set_image(url="attachment://spots.png")
                embeds.append(extra)
                files.append(discord.File(io.BytesIO(spots), filename="spots.png"))
                components = numbered
        return embeds, files, components, version

    def menu_for(self, live: LiveMatch, seat: int, locale: str) -> Menu:
        """The seat's action menu in the current state (memoised per version)."""
        match = live.match
        key = (live.id, match.version, seat, lang(locale))
        menu = self.menus.get(key)
        if menu is None:
            game = live.game
            entries = game.action_menu(match.state, seat, lang(locale))
            menu = build_menu([(game.format_action(a), path) for a, path in entries])
            if len(self.menus) >= 64:
                self.menus.pop(next(iter(self.menus)))
            self.menus[key] = menu
        return menu

    def action_view(
        self, live: LiveMatch, seat: int, locale: str, numbered: bool = False
    ) -> discord.ui.View | None:
        """The seat's choices: buttons (or selects) of every action when they
        are one choice away and few; else the first level of the game's menu,
        each choice narrowing to the next level (:class:`MenuSelect`).
        ``numbered``: labels start with the action's number (1, 2 ...)."""
        match = live.match
        if seat not in match.pending():
            return None
        menu = self.menu_for(live, seat, locale)
        view = discord.ui.View(timeout=None)
        children = menu.root.children
        if not menu.flat or len(children) > PAGE:
            self.add_menu_level(view, live, seat, locale, menu, (), 0, numbered)
            return view
        labels = [c.step.label if c.step else "" for c in children]
        if numbered:
            labels = [f"{i + 1}. {label}" for i, label in enumerate(labels)]
        notations = [menu.entries[c.entry or 0][0] for c in children]
        if len(children) <= BUTTON_LIMIT:
            for index, (label, notation) in enumerate(zip(labels, notations, strict=True)):
                view.add_item(
                    MoveButton(live.id, match.version, seat, index, _button_label(label, notation))
                )
        else:
            for chunk, page in enumerate(page_of(len(children), 0)):
                options = [
                    discord.SelectOption(
                        label=_clip(labels[i], 100),
                        value=str(i),
                        description=_clip(notations[i], 100) if labels[i] != notations[i] else None,
                    )
                    for i in (o.child for o in page if o.child is not None)
                ]
                view.add_item(
                    MoveSelect(
                        live.id,
                        match.version,
                        seat,
                        chunk,
                        options,
                        placeholder=t(locale, "choose-action"),
                    )
                )
        return view

    def add_menu_level(
        self,
        view: discord.ui.View,
        live: LiveMatch,
        seat: int,
        locale: str,
        menu: Menu,
        path: tuple[int, ...],
        page: int,
        numbered: bool = False,
    ) -> None:
        """One page of a level of the menu as selects (≤ 25 options each, ≤ 5):
        a choice plays its action or opens the next level; on a long level
        the last option turns the page. ``numbered``: labels start with the
        choice's number (the ghost outlines' numbers)."""
        node = menu.node(path)
        assert node is not None and not node.is_leaf
        count = len(node.children)
        selects = page_of(count, page)
        for chunk, options in enumerate(selects):
            items = []
            for o in options:
                if o.child is not None:
                    step = node.children[o.child].step
                    assert step is not None
                    label = f"{o.child + 1}. {step.label}" if numbered else step.label
                    items.append(
                        discord.SelectOption(
                            label=_clip(label, 100),
                            value=o.value,
                            description=_clip(step.detail, 100) if step.detail else None,
                        )
                    )
                else:
                    first, last = page_range(count, o.page or 0)
                    items.append(
                        discord.SelectOption(
                            label=_clip(
                                t(locale, "menu-next-page", first=first, last=last, count=count),
                                100,
                            ),
                            value=o.value,
                            emoji="➡️",
                        )
                    )
            shown = [o.child for o in options if o.child is not None]
            if len(selects) > 1 or page_count(count) > 1:
                placeholder = t(
                    locale,
                    "menu-choose-range",
                    first=min(shown) + 1 if shown else 0,
                    last=max(shown) + 1 if shown else 0,
                    count=count,
                )
            else:
                placeholder = t(locale, "menu-choose")
            view.add_item(
                MenuSelect(
                    live.id,
                    live.match.version,
                    seat,
                    path_text(path),
                    page,
                    chunk,
                    items,
                    placeholder=_clip(placeholder, 150),
                )
            )

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
                    text = live.game.describe_event(seen, names, lang(locale))
                    if text:
                        lines.append(f"· {text}")
            if live.version > update.version:
                # A newer action is already committed and its own announcement
                # will follow: one board for both, with every line of both.
                self.pending_lines[live.id] = lines
                self.pending_private.setdefault(live.id, set()).update(update.private_changed)
                return
            await self.post_board(live, locale, lines)
            for seat in sorted(update.private_changed | self.pending_private.pop(live.id, set())):
                if seat in live.resigned or live.is_bot_seat(seat):
                    continue  # bot seats have no one to read a DM: nothing is drawn for them
                await self.send_private(live, seat)

    async def post_board(self, live: LiveMatch, locale: str, header: Sequence[str] = ()) -> None:
        channel = self.get_partial_messageable(live.channel_id)
        embed, file, mentions = await self.board_message(live, locale, header)
        kwargs: dict[str, Any] = {}
        view = discord.ui.View(timeout=None)
        if not live.match.is_over:
            view.add_item(HandButton(live.id, locale))
        else:
            from .discord_records import RematchButton

            view.add_item(RematchButton(live.id, t(locale, "rematch")))
        kwargs["view"] = view
        try:
            message = await channel.send(
                content=" ".join(f"<@{u}>" for u in dict.fromkeys(mentions)) or None,
                embed=embed,
                file=file,
                allowed_mentions=discord.AllowedMentions(users=True),
                **kwargs,
            )
        except discord.HTTPException:
            log.exception("could not post the board of match %s", live.id)
            return
        await self.host.set_board_message(live, message.id)

    async def send_private(self, live: LiveMatch, seat: int) -> None:
        """DM one seat its private view, once per change; remember closed DMs."""
        user_id = live.user_of(seat)
        if live.is_bot_seat(seat):
            return
        host = self.host
        if user_id in host.dm_closed:
            await self.notice_dm_closed(live, seat)
            return
        assert self.store is not None
        previous = await self.store.seat_message(live.id, seat)
        if previous is not None and previous[2] == live.version:
            return  # this seat already has the private view of this version
        locale = self.locale_for_user(user_id)
        embeds, files, view, version = await self.private_message(live, seat, locale)
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
                await host.mark_dm_closed(user_id)
                await self.notice_dm_closed(live, seat)
                return
            log.warning("DM to %s refused: %s", user_id, err)
            return
        except discord.HTTPException:
            log.exception("could not DM seat %s of match %s", seat, live.id)
            return
        await self.store.set_seat_message(live.id, seat, channel.id, message.id, version)

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


class DiscordListener:
    """Tells Discord what happened without an interaction: bot moves, clock
    decisions, reminders, expired lobbies."""

    def __init__(self, bot: GueridonBot) -> None:
        self.bot = bot

    async def on_update(self, update: Update) -> None:
        async with self.bot.working():
            await self.bot.announce(update)

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
        cog = self.bot.get_cog("GameCog")
        if isinstance(cog, GameCog):
            await cog.refresh_lobby(lobby)
        locale = self.bot.locale_for_channel(lobby.channel_id)
        channel = self.bot.get_partial_messageable(lobby.channel_id)
        with contextlib.suppress(discord.HTTPException):
            await channel.send(t(locale, "lobby-expired"))


def create_bot(settings: Settings, **kwargs: Any) -> GueridonBot:
    """A ready-to-log-in bot; extra keyword arguments go to the client."""
    return GueridonBot(settings, **kwargs)


def run_bot(settings: Settings) -> int:
    discord.utils.setup_logging(level=getattr(logging, settings.log_level.upper(), logging.INFO))
    bot = create_bot(settings)
    token = settings.token
    assert token is not None
    try:
        bot.run(token, log_handler=None)
    except discord.LoginFailure:
        print("Discord refused the token: check DISCORD_TOKEN in your .env.")
        return 2
    return 0


# ---------------------------------------------------------------------------
# Replying
# ---------------------------------------------------------------------------


def _locale(interaction: discord.Interaction) -> str:
    return str(interaction.locale.value) if interaction.locale else "en"


async def reply(
    interaction: discord.Interaction,
    content: str | None = None,
    *,
    ephemeral: bool = True,
    **kwargs: Any,
) -> None:
    """Answer whether or not the interaction was deferred."""
    if content is not None:
        content = _clip(content, 2000)
    if content is not None:
        kwargs["content"] = content
    if interaction.response.is_done():
        await interaction.followup.send(ephemeral=ephemeral, **kwargs)
    else:
        await interaction.response.send_message(ephemeral=ephemeral, **kwargs)


async def confirm_and_announce(
    interaction: discord.Interaction, text: str, update: Update, header: Sequence[str] = ()
) -> None:
    """After a committed action: the ephemeral confirmation and the
    announcement at once, so the board is drawn while the confirmation
    travels, and goes out even if the confirmation fails."""
    bot = interaction.client
    assert isinstance(bot, GueridonBot)
    announcing = asyncio.ensure_future(bot.announce(update, header))
    try:
        await reply(interaction, text)
    finally:
        await announcing


async def defer_public(interaction: discord.Interaction) -> None:
    """Acknowledge at once with a public "thinking" answer, for a handler that
    must read the store before it knows whether it refuses: a refusal then
    replaces the public placeholder with a private message (:func:`reply_error`)."""
    await interaction.response.defer(thinking=True)
    bot = interaction.client
    if isinstance(bot, GueridonBot):
        bot.public_thinking.add(interaction.id)


async def _go_private(interaction: discord.Interaction) -> None:
    """Before a refusal: drop a public "thinking" placeholder (see
    :func:`defer_public`), so that the refusal is for the user only."""
    bot = interaction.client
    if isinstance(bot, GueridonBot) and interaction.id in bot.public_thinking:
        bot.public_thinking.discard(interaction.id)
        with contextlib.suppress(discord.HTTPException):
            await interaction.delete_original_response()


async def reply_error(interaction: discord.Interaction, err: HostError) -> None:
    text = error_text(_locale(interaction), err.key, err.rules, **err.params)
    await _go_private(interaction)
    await reply(interaction, t(_locale(interaction), "error-prefix", message=text))


async def guarded(interaction: discord.Interaction, body: Callable[[], Awaitable[None]]) -> None:
    """Run a handler: refusals and surprises become ephemeral messages."""
    bot = interaction.client
    if isinstance(bot, GueridonBot):
        async with bot.working():
            try:
                await _guarded(interaction, body)
            finally:
                bot.public_thinking.discard(interaction.id)
    else:
        await _guarded(interaction, body)


async def _guarded(interaction: discord.Interaction, body: Callable[[], Awaitable[None]]) -> None:
    try:
        await body()
    except HostError as err:
        await reply_error(interaction, err)
    except Exception:
        log.exception("interaction failed")
        with contextlib.suppress(discord.HTTPException):
            await _go_private(interaction)
            await reply(interaction, t(_locale(interaction), "internal-error"))


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _fit_description(
    history: Sequence[str], status: Sequence[str], limit: int, dropped: Callable[[int], str]
) -> str:
    """What happened, then who acts (or the result and the seed): the status
    lines always show whole; when everything does not fit, the oldest history
    lines give way to one line saying how many were left out."""
    tail = _clip("\n".join(status), limit)
    whole = "\n".join([*history, tail])
    if len(whole) <= limit:
        return whole
    # newest lines first, keeping room for the "n earlier lines" line
    room = limit - len(tail) - len(dropped(len(history))) - 2
    kept: list[str] = []
    for line in reversed(history):
        if len(line) + 1 > room:
            break
        kept.append(line)
        room -= len(line) + 1
    head = [dropped(len(history) - len(kept)), *reversed(kept)]
    text = "\n".join([*head, tail])
    return text if len(text) <= limit else tail


def _button_label(label: str, notation: str) -> str:
    return _clip(label if label == notation else f"{label}", 80)


# ---------------------------------------------------------------------------
# Commands
# ---------------------------------------------------------------------------


class GameCog(commands.Cog):
    lobby = app_commands.Group(name=_name("lobby"), description=_desc("cmd-lobby"), guild_only=True)

    def __init__(self, bot: GueridonBot) -> None:
        self.bot = bot

    @property
    def host(self) -> HostService:
        return self.bot.host

    # ---- lobby ---------------------------------------------------------------------------
    @lobby.command(name=_name("create"), description=_desc("cmd-lobby-create"))
    @app_commands.describe(
        game=_desc("opt-game"),
        seats=_desc("opt-seats"),
        options=_desc("opt-options"),
        clock=_desc("opt-clock"),
    )
    @app_commands.rename(
        game=_name("game"), seats=_name("seats"), options=_name("options"), clock=_name("clock")
    )
    @app_commands.choices(
        game=GAME_CHOICES,
        clock=[
            app_commands.Choice(name=_desc("clock-correspondence"), value="correspondence"),
            app_commands.Choice(name=_desc("clock-fast"), value="fast"),
        ],
    )
    async def lobby_create(
        self,
        interaction: discord.Interaction,
        game: str,
        seats: app_commands.Range[int, 1, 8] | None = None,
        options: str | None = None,
        clock: str = "correspondence",
    ) -> None:
        async def body() -> None:
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
                clock=clock,
            )
            locale = self.bot.locale_for_channel(interaction.channel_id)
            embed, view = self.lobby_message(lobby, locale)
            channel = self.bot.get_partial_messageable(interaction.channel_id)
            message = await channel.send(embed=embed, view=view)
            await self.host.store.set_lobby_message(lobby.id, message.id)
            await reply(
                interaction,
                t(
                    _locale(interaction),
                    "lobby-opened",
                    game=GAMES[game].info.name(_locale(interaction)),
                ),
            )

        await guarded(interaction, body)

    def lobby_message(self, lobby: Lobby, locale: str) -> tuple[discord.Embed, discord.ui.View]:
        game = GAMES[lobby.game_id]
        names = [self.host.display_name(u, lobby) for u in lobby.players]
        embed = discord.Embed(
            title=t(locale, "lobby-title", game=game.info.name(locale)), colour=EMBED_COLOUR
        )
        embed.description = t(
            locale,
            "lobby-body",
            host=self.host.names.get(lobby.host_id, f"#{lobby.host_id}"),
            count=len(lobby.players),
            seats=lobby.seats,
            players=", ".join(names),
            options=f"`{lobby.options}`" if lobby.options else t(locale, "lobby-default-options"),
        )
        embed.description += "\n" + t(
            locale, "lobby-clock", clock=t(locale, f"clock-{lobby.clock}")
        )
        view = discord.ui.View(timeout=None)
        if lobby.status == "open":
            for action, style in (
                ("join", discord.ButtonStyle.success),
                ("leave", discord.ButtonStyle.secondary),
                ("addbot", discord.ButtonStyle.secondary),
                ("start", discord.ButtonStyle.primary),
                ("cancel", discord.ButtonStyle.danger),
            ):
                view.add_item(LobbyButton(lobby.id, action, t(locale, f"button-{action}"), style))
        return embed, view

    async def refresh_lobby(self, lobby: Lobby) -> None:
        if lobby.message_id is None:
            return
        locale = self.bot.locale_for_channel(lobby.channel_id)
        embed, view = self.lobby_message(lobby, locale)
        channel = self.bot.get_partial_messageable(lobby.channel_id)
        try:
            await channel.get_partial_message(lobby.message_id).edit(embed=embed, view=view)
        except discord.HTTPException:
            log.warning("could not update the message of lobby %s", lobby.id)

    async def lobby_action(
        self,
        interaction: discord.Interaction,
        action: str,
        level: str = "normal",
        lobby_id: int | None = None,
    ) -> None:
        """join / leave / start / cancel / addbot, from a command or a button
        (``lobby_id``: the lobby of the clicked button, which must still be
        open). Acknowledged first, then everything else."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        user = await self.bot.note_interaction(interaction)
        if lobby_id is not None:
            clicked = await self.host.lobby(lobby_id)
            if clicked is None or clicked.status != "open":
                raise HostError("no-lobby")
        channel_id = interaction.channel_id
        assert channel_id is not None
        locale = self.bot.locale_for_channel(channel_id)
        if action == "start":
            live = await self.host.start(channel_id, user)
            lobby = None if live.lobby_id is None else await self.host.lobby(live.lobby_id)
            if lobby is not None:
                await self.refresh_lobby(lobby)
            await reply(
                interaction, t(_locale(interaction), "lobby-started", players=", ".join(live.names))
            )
            channel = self.bot.get_partial_messageable(channel_id)
            await channel.send(
                t(locale, "lobby-started", players=", ".join(live.names))
                + "\n"
                + t(locale, "seed-commit", sha=live.match.seed_commitment)
            )
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
            return
        if action == "join":
            lobby = await self.host.join(channel_id, user)
            text = t(locale, "lobby-joined", user=user.name)
        elif action == "addbot":
            lobby = await self.host.add_bot(channel_id, user, level)
            text = t(locale, "lobby-bot-added", level=t(locale, f"level-{level}"))
        elif action == "leave":
            lobby = await self.host.leave(channel_id, user)
            text = t(locale, "lobby-left", user=user.name)
        else:
            is_admin = bool(interaction.permissions.manage_guild)
            result = await self.host.cancel(channel_id, user, is_admin=is_admin)
            if isinstance(result, LiveMatch):
                await reply(
                    interaction,
                    t(_locale(interaction), "match-cancelled", match=result.id, user=user.name),
                )
                channel = self.bot.get_partial_messageable(channel_id)
                await channel.send(t(locale, "match-cancelled", match=result.id, user=user.name))
                return
            lobby = result
            text = t(locale, "lobby-cancelled")
        await self.refresh_lobby(lobby)
        await reply(interaction, text)

    @lobby.command(name=_name("join"), description=_desc("cmd-lobby-join"))
    async def lobby_join(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: self.lobby_action(interaction, "join"))

    @lobby.command(name=_name("leave"), description=_desc("cmd-lobby-leave"))
    async def lobby_leave(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: self.lobby_action(interaction, "leave"))

    @lobby.command(name=_name("start"), description=_desc("cmd-lobby-start"))
    async def lobby_start(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: self.lobby_action(interaction, "start"))

    @lobby.command(name=_name("cancel"), description=_desc("cmd-lobby-cancel"))
    async def lobby_cancel(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: self.lobby_action(interaction, "cancel"))

    @lobby.command(name=_name("addbot"), description=_desc("cmd-lobby-addbot"))
    @app_commands.describe(level=_desc("opt-level"))
    @app_commands.rename(level=_name("level"))
    @app_commands.choices(
        level=[
            app_commands.Choice(name=_desc("level-easy"), value="easy"),
            app_commands.Choice(name=_desc("level-normal"), value="normal"),
            app_commands.Choice(name=_desc("level-hard"), value="hard"),
        ]
    )
    async def lobby_addbot(self, interaction: discord.Interaction, level: str = "normal") -> None:
        await guarded(interaction, lambda: self.lobby_action(interaction, "addbot", level))

    # ---- playing ------------------------------------------------------------------------
    def match_for(self, interaction: discord.Interaction) -> LiveMatch:
        """The match of this channel, or in DMs the user's latest match."""
        if interaction.guild_id is not None and interaction.channel_id is not None:
            live = self.host.match_in(interaction.channel_id)
            if live is None:
                raise HostError("no-match")
            return live
        mine = self.host.user_matches(interaction.user.id)
        if not mine:
            raise HostError("no-match")
        return mine[0]

    @app_commands.command(name=_name("play"), description=_desc("cmd-play"))
    @app_commands.describe(move=_desc("opt-move"))
    @app_commands.rename(move=_name("move"))
    async def play(self, interaction: discord.Interaction, move: str) -> None:
        async def body() -> None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            await self.bot.note_interaction(interaction)
            live = self.match_for(interaction)
            update = await self.host.play(live.id, interaction.user.id, move)
            text = t(_locale(interaction), "move-accepted", move=update.action)
            await confirm_and_announce(interaction, text, update)

        await guarded(interaction, body)

    @play.autocomplete("move")
    async def play_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        try:
            live = self.match_for(interaction)
        except HostError:
            return []
        typed = current.strip().lower()
        choices = []
        for notation, label in self.typed_moves(live, interaction.user.id, _locale(interaction)):
            shown = notation if label == notation else f"{notation} — {label}"
            if typed and typed not in shown.lower():
                continue
            choices.append(app_commands.Choice(name=_clip(shown, 100), value=notation[:100]))
            if len(choices) == 25:
                break
        return choices

    def typed_moves(self, live: LiveMatch, user_id: int, locale: str) -> list[tuple[str, str]]:
        """``(notation, label)`` of what the user may type now: the actions of
        the game's menu (complete ones, as ``Roturier G11P``, where the game
        offers them), labelled by their path, then the other legal actions."""
        legal = self.host.legal_moves(live, user_id, locale)
        seat = live.seat_of(user_id)
        if seat is None or seat not in live.match.pending():
            return legal
        menu = self.bot.menu_for(live, seat, locale)
        moves = [(n, " › ".join(step.label for step in path)) for n, path in menu.entries]
        known = {n for n, _ in moves}
        return moves + [(n, label) for n, label in legal if n not in known]

    @app_commands.command(name=_name("hand"), description=_desc("cmd-hand"))
    async def hand(self, interaction: discord.Interaction) -> None:
        async def body() -> None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            await self.bot.note_interaction(interaction)
            live = self.match_for(interaction)
            await self.send_hand(interaction, live)

        await guarded(interaction, body)

    async def send_hand(self, interaction: discord.Interaction, live: LiveMatch) -> None:
        seat = live.seat_of(interaction.user.id)
        if seat is None:
            await reply(interaction, t(_locale(interaction), "spectator"))
            return
        embeds, files, view, _ = await self.bot.private_message(live, seat, _locale(interaction))
        kwargs: dict[str, Any] = {"embeds": embeds, "files": files}
        if view is not None:
            kwargs["view"] = view
        await reply(interaction, **kwargs)

    @app_commands.command(name=_name("board"), description=_desc("cmd-board"))
    async def board(self, interaction: discord.Interaction) -> None:
        async def body() -> None:
            live = self.match_for(interaction)  # from memory: refusals stay ephemeral
            await interaction.response.defer(thinking=True)
            await self.bot.note_interaction(interaction)
            locale = self.bot.locale_for_channel(live.channel_id)
            embed, file, _ = await self.bot.board_message(live, locale)
            await interaction.followup.send(embed=embed, file=file)

        await guarded(interaction, body)

    @app_commands.command(name=_name("resign"), description=_desc("cmd-resign"))
    async def resign(self, interaction: discord.Interaction) -> None:
        async def body() -> None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            user = await self.bot.note_interaction(interaction)
            live = self.match_for(interaction)
            update = await self.host.resign(live.id, interaction.user.id)
            locale = self.bot.locale_for_channel(live.channel_id)
            await confirm_and_announce(
                interaction,
                t(_locale(interaction), "resign-accepted"),
                update,
                [t(locale, "resigned", user=user.name)],
            )

        await guarded(interaction, body)

    @app_commands.command(name=_name("rules"), description=_desc("cmd-rules"))
    @app_commands.describe(game=_desc("opt-game"))
    @app_commands.rename(game=_name("game"))
    @app_commands.choices(game=GAME_CHOICES)
    async def rules(self, interaction: discord.Interaction, game: str) -> None:
        async def body() -> None:
            locale = _locale(interaction)
            g = GAMES.get(game)
            if g is None:
                raise HostError("unknown-game", game=game, games=", ".join(sorted(GAMES)))
            info = g.info
            embed = discord.Embed(
                title=t(locale, "rules-title", game=info.name(locale)), colour=EMBED_COLOUR
            )
            in_force = None
            if interaction.channel_id is not None:
                live = self.host.match_in(interaction.channel_id)
                if live is not None and live.game_id == game:
                    in_force = g.options_text(live.match.options)
            embed.description = _clip(
                rules_text(locale, info, in_force, g.rules_details(locale)), 4000
            )
            await reply(interaction, embed=embed)

        await guarded(interaction, body)

    @app_commands.command(name=_name("help"), description=_desc("cmd-help"))
    async def help(self, interaction: discord.Interaction) -> None:
        async def body() -> None:
            await reply(interaction, t(_locale(interaction), "help-text"))

        await guarded(interaction, body)


def _duration(seconds: float) -> str:
    if seconds >= 3600 and seconds % 3600 == 0:
        return f"{int(seconds // 3600)} h"
    if seconds >= 60 and seconds % 60 == 0:
        return f"{int(seconds // 60)} min"
    return f"{round(seconds)} s"


# ---------------------------------------------------------------------------
# Persistent components
# ---------------------------------------------------------------------------


def _cog(interaction: discord.Interaction) -> GameCog:
    bot = interaction.client
    assert isinstance(bot, GueridonBot)
    cog = bot.get_cog("GameCog")
    assert isinstance(cog, GameCog)
    return cog


class LobbyButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"gl:(?P<action>join|leave|start|cancel|addbot):(?P<lobby>\d+)",
):
    def __init__(
        self,
        lobby_id: int,
        action: str,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label or action, style=style, custom_id=f"gl:{action}:{lobby_id}"
            )
        )
        self.lobby_id = lobby_id
        self.action = action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> LobbyButton:
        assert isinstance(item, discord.ui.Button)
        return cls(int(match["lobby"]), match["action"], item.label or "", item.style)

    async def callback(self, interaction: discord.Interaction) -> None:
        cog = _cog(interaction)

        async def body() -> None:
            await cog.lobby_action(interaction, self.action, lobby_id=self.lobby_id)

        await guarded(interaction, body)


async def _play_index(
    interaction: discord.Interaction, match_id: int, version: int, seat: int, index: int
) -> None:
    cog = _cog(interaction)
    bot = cog.bot

    async def body() -> None:
        # a deferred update: the clicked message itself can then be edited
        await interaction.response.defer()
        await bot.note_interaction(interaction)
        live = await _fresh_match(cog, interaction, match_id, version, seat)
        entries = bot.menu_for(live, seat, _locale(interaction)).entries
        if not 0 <= index < len(entries):
            raise HostError("stale")
        await _play_notation(interaction, cog, match_id, version, seat, entries[index][0])

    await guarded(interaction, body)


async def _fresh_match(
    cog: GameCog, interaction: discord.Interaction, match_id: int, version: int, seat: int
) -> LiveMatch:
    """The match of a component, if the clicker holds the seat and the
    component belongs to the current version (else a refusal)."""
    live = await cog.host.get_match(match_id)
    if not 0 <= seat < live.match.seats or live.user_of(seat) != interaction.user.id:
        raise HostError("not-seated")
    if live.version != version:
        raise HostError("stale")
    return live


async def _play_notation(
    interaction: discord.Interaction,
    cog: GameCog,
    match_id: int,
    version: int,
    seat: int,
    notation: str,
) -> None:
    """Play a chosen action (the version checked again under the match lock),
    spend the clicked components, confirm, announce."""
    update = await cog.host.play(
        match_id, interaction.user.id, notation, expected_version=version, seat=seat
    )
    with contextlib.suppress(discord.HTTPException):  # the clicked components are spent
        await interaction.edit_original_response(view=None)
    await reply(interaction, t(_locale(interaction), "move-accepted", move=update.action))
    await cog.bot.announce(update)


class MoveButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"gm:(?P<match>\d+):(?P<version>\d+):(?P<seat>\d+):(?P<index>\d+)",
):
    def __init__(self, match_id: int, version: int, seat: int, index: int, label: str = "") -> None:
        super().__init__(
            discord.ui.Button(
                label=label or str(index),
                style=discord.ButtonStyle.primary,
                custom_id=f"gm:{match_id}:{version}:{seat}:{index}",
            )
        )
        self.match_id, self.version, self.seat, self.index = match_id, version, seat, index

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> MoveButton:
        label = item.label if isinstance(item, discord.ui.Button) else ""
        return cls(
            int(match["match"]),
            int(match["version"]),
            int(match["seat"]),
            int(match["index"]),
            label or "",
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        await _play_index(interaction, self.match_id, self.version, self.seat, self.index)


def _one_choice_select(
    custom_id: str,
    options: list[discord.SelectOption] | None,
    placeholder: str | None,
    fallback: str,
) -> discord.ui.Select[Any]:
    """A select of one choice; rebuilt from a custom_id alone (after a
    restart) it gets a placeholder option with the value ``fallback``."""
    return discord.ui.Select(
        custom_id=custom_id,
        options=options or [discord.SelectOption(label="…", value=fallback)],
        placeholder=placeholder,
        min_values=1,
        max_values=1,
    )


class MoveSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"gs:(?P<match>\d+):(?P<version>\d+):(?P<seat>\d+):(?P<chunk>\d+)",
):
    def __init__(
        self,
        match_id: int,
        version: int,
        seat: int,
        chunk: int,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
    ) -> None:
        super().__init__(
            _one_choice_select(f"gs:{match_id}:{version}:{seat}:{chunk}", options, placeholder, "0")
        )
        self.match_id, self.version, self.seat = match_id, version, seat

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> MoveSelect:
        return cls(
            int(match["match"]),
            int(match["version"]),
            int(match["seat"]),
            int(match["chunk"]),
            list(item.options) if isinstance(item, discord.ui.Select) else None,
            item.placeholder if isinstance(item, discord.ui.Select) else None,
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        values = self.item.values
        index = int(values[0]) if values and values[0].isdecimal() else -1
        await _play_index(interaction, self.match_id, self.version, self.seat, index)


class MenuSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=(
        r"gp:(?P<match>\d+):(?P<version>\d+):(?P<seat>\d+):(?P<path>[\d.]*)"
        r":(?P<page>\d+):(?P<chunk>\d+)"
    ),
):
    """A level of a game's action menu (:mod:`bot.menu`): the custom_id holds
    the match, the version, the seat, the index path of the choices made so
    far and the page; the chosen value is a choice (``c3``) or a page
    (``p1``). A choice plays its action or answers, ephemerally, with the next
    level (and, for placements, an image of the numbered spots)."""

    def __init__(
        self,
        match_id: int,
        version: int,
        seat: int,
        path: str,
        page: int,
        chunk: int,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
    ) -> None:
        super().__init__(
            _one_choice_select(
                f"gp:{match_id}:{version}:{seat}:{path}:{page}:{chunk}", options, placeholder, "c0"
            )
        )
        self.match_id, self.version, self.seat = match_id, version, seat
        self.path, self.page = path, page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> MenuSelect:
        return cls(
            int(match["match"]),
            int(match["version"]),
            int(match["seat"]),
            match["path"],
            int(match["page"]),
            int(match["chunk"]),
            list(item.options) if isinstance(item, discord.ui.Select) else None,
            item.placeholder if isinstance(item, discord.ui.Select) else None,
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        cog = _cog(interaction)
        bot = cog.bot
        values = self.item.values
        value = values[0] if values else ""

        async def body() -> None:
            await interaction.response.defer()
            await bot.note_interaction(interaction)
            live = await _fresh_match(cog, interaction, self.match_id, self.version, self.seat)
            locale = _locale(interaction)
            menu = bot.menu_for(live, self.seat, locale)
            path = parse_path(self.path)
            node = None if path is None else menu.node(path)
            if path is None or node is None or node.is_leaf or not value[1:].isdigit():
                raise HostError("stale")
            number = int(value[1:])
            if value.startswith("p"):
                await self.send_level(interaction, live, menu, path, number)
                return
            if not value.startswith("c") or number >= len(node.children):
                raise HostError("stale")
            child = node.children[number]
            if child.entry is not None:
                notation = menu.entries[child.entry][0]
                await _play_notation(
                    interaction, cog, self.match_id, self.version, self.seat, notation
                )
                return
            await self.send_level(interaction, live, menu, (*path, number), 0)

        await guarded(interaction, body)

    async def send_level(
        self,
        interaction: discord.Interaction,
        live: LiveMatch,
        menu: Menu,
        path: tuple[int, ...],
        page: int,
    ) -> None:
        """Answer with a level of the menu: what was chosen so far, the
        choices as selects and, when the game draws them, the numbered spots."""
        from render import render_choices

        bot = _cog(interaction).bot
        locale = _locale(interaction)
        node = menu.node(path)
        assert node is not None
        view_of_seat = live.match.view(self.seat)
        leaves = [
            (i + 1, menu.entries[c.entry][0])
            for i, c in enumerate(node.children)
            if c.entry is not None
        ]
        components = discord.ui.View(timeout=None)
        png = None
        if leaves:
            png = await bot.render_pool.run(
                render_choices,
                live.game_id,
                view_of_seat,
                live.names,
                locale,
                leaves,
            )
        bot.add_menu_level(
            components, live, self.seat, locale, menu, path, page, numbered=png is not None
        )
        trail = " › ".join(step.label for step in menu.trail(path)) or live.game.info.name(locale)
        text = t(locale, "menu-level", path=trail)
        kwargs: dict[str, Any] = {"view": components}
        if png is not None:
            text += "\n" + t(locale, "menu-spots")
            kwargs["file"] = discord.File(io.BytesIO(png), filename="spots.png")
        await reply(interaction, text, **kwargs)


class HandButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"gh:(?P<match>\d+)"):
    """On the public board: shows the clicker's private view, ephemerally."""

    def __init__(self, match_id: int, locale: str = "en") -> None:
        label = "Ma main" if lang(locale) == "fr" else "My hand"
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                custom_id=f"gh:{match_id}",
                emoji="🃏",
            )
        )
        self.match_id = match_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> HandButton:
        return cls(int(match["match"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        cog = _cog(interaction)

        async def body() -> None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            await cog.bot.note_interaction(interaction)
            live = await cog.host.get_match(self.match_id)
            await cog.send_hand(interaction, live)

        await guarded(interaction, body)
