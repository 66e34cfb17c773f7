"""FakeDiscord: state, aiohttp server and the test-side harness API."""

from __future__ import annotations

import asyncio
import contextlib
import copy
import logging
import re
import secrets
from collections.abc import AsyncIterator, Callable, Iterator, Mapping, Sequence
from typing import Any, TypeVar

import discord
import discord.gateway
import discord.http
import yarl
from aiohttp import web

from .errors import (
    CommandNotAvailable,
    CommandNotSynced,
    DeferredWithoutFollowup,
    DiscordError,
    HarnessError,
    InteractionNotAcknowledged,
    InteractionNotDelivered,
    NoBotConnected,
)
from .gateway import EVERY_SHARD, MAX_GUILDS_PER_SESSION, Gateway, GatewaySession, Scope, shard_of
from .limits import option_value_error
from .models import (
    ADD_REACTIONS,
    ADMINISTRATOR,
    ALL_PERMISSIONS,
    ATTACH_FILES,
    DEFAULT_BOT_PERMISSIONS,
    DEFAULT_EVERYONE_PERMISSIONS,
    DM,
    EMBED_LINKS,
    FLAG_EPHEMERAL,
    FLAG_HAS_THREAD,
    FLAG_IS_COMPONENTS_V2,
    FLAG_LOADING,
    FLAG_SUPPRESS_EMBEDS,
    FLAG_SUPPRESS_NOTIFICATIONS,
    GUILD_CATEGORY,
    GUILD_TEXT,
    INTENT_DIRECT_MESSAGE_REACTIONS,
    INTENT_DIRECT_MESSAGES,
    INTENT_GUILD_MEMBERS,
    INTENT_GUILD_MESSAGE_REACTIONS,
    INTENT_GUILD_MESSAGES,
    INTENT_GUILD_PRESENCES,
    INTENT_GUILDS,
    INTENT_MESSAGE_CONTENT,
    READ_MESSAGE_HISTORY,
    SEND_MESSAGES,
    USE_EXTERNAL_EMOJIS,
    VIEW_CHANNEL,
    FakeAttachment,
    FakeChannel,
    FakeGuild,
    FakeInteraction,
    FakeMember,
    FakeMessage,
    FakeRole,
    FakeUser,
    HasValue,
    Overwrite,
    SnowflakeFactory,
    Violation,
    as_int_permissions,
    iso,
    now,
)
from .rest import RestAPI, Upload
from .results import InteractionResult

_log = logging.getLogger("tests.fakediscord")

T = TypeVar("T")

DM_PERMISSIONS = (
    VIEW_CHANNEL
    | SEND_MESSAGES
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | ADD_REACTIONS
    | USE_EXTERNAL_EMOJIS
)
MENTION_RE = re.compile(r"<@!?(\d+)>")
ROLE_MENTION_RE = re.compile(r"<@&(\d+)>")
INTERACTION_CHANNEL_MESSAGE_FLAGS = (
    FLAG_EPHEMERAL
    | FLAG_SUPPRESS_EMBEDS
    | FLAG_SUPPRESS_NOTIFICATIONS
    | FLAG_IS_COMPONENTS_V2
    | FLAG_LOADING
)

Target = FakeUser | FakeRole


class _ErrorCollector(logging.Handler):
    """Collects the ERROR records of every logger while a bot client runs.

    Installed on the root logger, so it hears discord.py (unhandled exceptions
    in callbacks), the bot's own loggers (``gueridon``, ``bot.service``, ...),
    asyncio ("Task exception was never retrieved") and aiohttp alike. A record
    a test provokes on purpose is consumed by name with
    :meth:`FakeDiscord.take_bot_errors` / :meth:`FakeDiscord.expect_bot_errors`;
    anything left fails the test at teardown.
    """

    def __init__(self, sink: list[logging.LogRecord], changed: Callable[[], None]) -> None:
        super().__init__(level=logging.ERROR)
        self.sink = sink
        self.changed = changed

    def emit(self, record: logging.LogRecord) -> None:
        self.sink.append(record)
        with contextlib.suppress(RuntimeError):  # logged from a thread: no loop there
            asyncio.get_running_loop()
            self.changed()


def _error_matches(
    record: logging.LogRecord,
    pattern: str,
    logger: str | None,
    exc: type[BaseException] | None,
) -> bool:
    if logger is not None and record.name != logger and not record.name.startswith(logger + "."):
        return False
    chain: list[BaseException] = []  # the exception and its causes (CommandInvokeError...)
    error = record.exc_info[1] if record.exc_info else None
    while error is not None and error not in chain:
        chain.append(error)
        error = error.__cause__ or error.__context__
    if exc is not None and not any(isinstance(e, exc) for e in chain):
        return False
    text = "\n".join([record.getMessage(), *(f"{type(e).__name__}: {e}" for e in chain)])
    return re.search(pattern, text) is not None


class FakeDiscord:
    """A fake Discord (REST + gateway) on 127.0.0.1, plus a harness to act as users.

    See the package docstring (``tests/fakediscord/__init__.py``) for a guided tour.
    """

    def __init__(
        self,
        *,
        bot_name: str = "gueridon",
        token: str = "fake-bot-token",
        ack_window: float = 3.0,
        token_ttl: float = 15 * 60,
        followup_timeout: float = 5.0,
        attachment_size_limit: int = 10 * 1024 * 1024,
    ) -> None:
        self.ids = SnowflakeFactory()
        self.token = token
        #: Seconds the bot has to give the initial response, counted from dispatch.
        self.ack_window = ack_window
        #: Seconds an interaction token stays valid for follow-ups/edits (15 min on Discord).
        self.token_ttl = token_ttl
        #: How long ``slash``/``click`` wait for the follow-up after a "thinking" defer.
        self.followup_timeout = followup_timeout
        #: Max bytes per uploaded file; also sent as ``attachment_size_limit`` in interactions.
        self.attachment_size_limit = attachment_size_limit
        #: Max bytes of a file a user uploads for an ATTACHMENT option.
        self.user_upload_limit = 10 * 1024 * 1024
        #: Privileged intents enabled "in the developer portal"; others close with 4014.
        self.allowed_privileged_intents: set[str] = {"members", "presences", "message_content"}
        #: How long an interaction waits for a (re)connecting bot before NoBotConnected.
        self.connect_timeout = 5.0
        #: Guilds one gateway session may hold; more closes IDENTIFY with 4011 (Discord: 2,500).
        self.max_guilds_per_session = MAX_GUILDS_PER_SESSION
        #: ``GET /gateway/bot``'s ``shards``; None: Discord's advice, one shard per 1,000 guilds.
        self.recommended_shards: int | None = None
        #: ``session_start_limit.total`` of ``GET /gateway/bot``; each IDENTIFY uses one.
        self.session_start_total = 1000
        self.identify_count = 0

        self.application_id = self.ids()
        self.bot_user = FakeUser(id=self.application_id, name=bot_name, bot=True)
        self.owner = FakeUser(id=self.ids(), name="app-owner")
        self.users: dict[int, FakeUser] = {
            self.bot_user.id: self.bot_user,
            self.owner.id: self.owner,
        }
        self.guilds: dict[int, FakeGuild] = {}
        self.channels: dict[int, FakeChannel] = {}
        self.messages: dict[int, FakeMessage] = {}
        self.attachments: dict[int, FakeAttachment] = {}
        self._channel_messages: dict[int, list[int]] = {}
        self._dm_channels: dict[int, FakeChannel] = {}
        self._commands: dict[int | None, dict[int, dict[str, Any]]] = {}
        # a server admin's command permission overrides: (guild, command name) -> {id: allow}
        self._command_overrides: dict[tuple[int, str], dict[int, bool]] = {}
        self.interactions: dict[int, FakeInteraction] = {}
        self.interactions_by_token: dict[str, FakeInteraction] = {}
        #: Everything real Discord would have refused or flagged. Asserted empty at teardown.
        self.violations: list[Violation] = []
        #: ERROR log records of every logger while a client ran (see ``take_bot_errors``).
        self.bot_errors: list[logging.LogRecord] = []
        #: (method, path, status) of every REST request, for debugging.
        self.request_log: list[tuple[str, str, int]] = []
        self.typing_log: list[int] = []
        self.sync_count = 0

        self.gateway = Gateway(self)
        self.rest = RestAPI(self)
        self._runner: web.AppRunner | None = None
        self._port: int | None = None
        self._changed = asyncio.Event()
        # per-channel wake-ups: a waiter that names a channel sleeps on that channel's event,
        # set by the changes made there (and by any change that names no channel)
        self._channel_changed: dict[int, asyncio.Event] = {}
        #: How often ``slash``/``click`` re-check for the bot's answer between wake-ups.
        self.response_poll = 0.02
        self._clients: dict[discord.Client, asyncio.Task[None]] = {}
        self._collector = _ErrorCollector(self.bot_errors, self._notify)
        self._patch_depth = 0
        self._timers: list[asyncio.TimerHandle] = []

    # =========================================================================================
    # server life cycle
    # =========================================================================================

    async def start(self) -> FakeDiscord:
        app = web.Application(middlewares=[self.rest.middleware], client_max_size=1024**3)
        self.rest.add_routes(app)
        app.router.add_get("/gateway", self.gateway.handle)
        app.router.add_get("/resume-gateway", self.gateway.handle)
        runner = web.AppRunner(app, handle_signals=False, shutdown_timeout=1.0, access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        self._runner = runner
        self._port = int(runner.addresses[0][1])
        return self

    async def stop(self) -> None:
        await self.stop_all_clients()
        for timer in self._timers:
            timer.cancel()
        await self.gateway.close_all()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        logging.getLogger().removeHandler(self._collector)

    @property
    def port(self) -> int:
        if self._port is None:
            raise HarnessError("FakeDiscord is not started: await fake.start() first")
        return self._port

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_url(self) -> str:
        return f"{self.base_url}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    @property
    def resume_gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/resume-gateway"

    @contextlib.contextmanager
    def patched(self) -> Iterator[FakeDiscord]:
        """Point discord.py's REST base and default gateway at this fake (restored on exit)."""
        route = discord.http.Route
        ws_cls = discord.gateway.DiscordWebSocket
        old_base, old_gateway = route.BASE, ws_cls.DEFAULT_GATEWAY
        route.BASE = self.api_url
        ws_cls.DEFAULT_GATEWAY = yarl.URL(self.gateway_url)
        self._patch_depth += 1
        try:
            yield self
        finally:
            self._patch_depth -= 1
            route.BASE = old_base
            ws_cls.DEFAULT_GATEWAY = old_gateway

    @classmethod
    @contextlib.asynccontextmanager
    async def serve(cls, *, check: bool = True, **options: Any) -> AsyncIterator[FakeDiscord]:
        """Start a fake, patch discord.py, and on a clean exit assert nothing went wrong.

        On exit: wait for in-flight interactions, stop clients started with
        :meth:`start_client`, then (``check=True``) :meth:`assert_clean`.
        """
        fake = cls(**options)
        await fake.start()
        try:
            with fake.patched():
                try:
                    yield fake
                except BaseException:
                    await fake.stop_all_clients()
                    raise
                if check:
                    await fake.settle()
                await fake.stop_all_clients()
                if check:
                    fake.assert_clean()
        finally:
            await fake.stop()

    # =========================================================================================
    # bot clients
    # =========================================================================================

    async def start_client(
        self, client: discord.Client, *, token: str | None = None, ready_timeout: float = 10.0
    ) -> discord.Client:
        """Run ``client.start(token)`` in a task and wait until it is ready (``on_ready``)."""
        if self._patch_depth == 0 or self.api_url != discord.http.Route.BASE:
            raise HarnessError("discord.py is not pointed at this fake: use `with fake.patched():`")
        root = logging.getLogger()
        if self._collector not in root.handlers:
            root.addHandler(self._collector)
        task = asyncio.create_task(client.start(token or self.token), name="fakediscord-client")
        self._clients[client] = task
        try:
            await self.wait_for(
                lambda: client.is_ready() or task.done(),
                timeout=ready_timeout,
                message="bot client did not become ready",
            )
        except TimeoutError:
            await self.stop_client(client)
            raise
        if task.done():
            self._clients.pop(client, None)
            if not client.is_closed():
                await client.close()  # discord.py leaves its HTTP session open on some failures
            task.result()  # re-raise the start-up failure (LoginFailure, ConnectionClosed, ...)
            raise HarnessError("client.start() returned before the client was ready")
        return client

    async def stop_client(self, client: discord.Client, *, timeout: float = 10.0) -> None:
        """Close the client (clean gateway close, its session can't be resumed)."""
        task = self._clients.pop(client, None)
        if not client.is_closed():
            await client.close()
        if task is not None:
            try:
                await asyncio.wait_for(task, timeout)
            except (asyncio.CancelledError, Exception) as exc:
                _log.debug("client task ended with %r", exc)
        if not self._clients:
            logging.getLogger().removeHandler(self._collector)

    async def stop_all_clients(self) -> None:
        for client in list(self._clients):
            await self.stop_client(client)

    @contextlib.asynccontextmanager
    async def running(
        self, client: discord.Client, *, token: str | None = None, ready_timeout: float = 10.0
    ) -> AsyncIterator[discord.Client]:
        """``async with fake.running(bot):`` -- start the bot, wait for ready, close it after."""
        await self.start_client(client, token=token, ready_timeout=ready_timeout)
        try:
            yield client
        finally:
            await self.stop_client(client)

    def live_sessions(self) -> list[GatewaySession]:
        return self.gateway.live_sessions()

    async def force_reconnect(self, timeout: float = 5.0) -> None:
        """Send op 7 RECONNECT to connected bots and wait until they RESUMEd."""
        sessions = self.live_sessions()
        before = {s.session_id: s.resumes for s in sessions}
        self.gateway.reconnect_all()
        await self.wait_for(
            lambda: all(s.resumes > before[s.session_id] and s.live for s in sessions),
            timeout=timeout,
            message="bot did not resume after RECONNECT",
        )

    def dispatch(
        self,
        event: str,
        data: Any,
        *,
        intent: int | None = None,
        guild_id: Scope = EVERY_SHARD,
    ) -> int:
        """Send a raw gateway DISPATCH (``data`` may be a callable(session) -> dict) to the
        sessions of ``guild_id``'s shard (None: direct messages, shard 0; by default every
        session)."""
        return self.gateway.dispatch(event, data, intent=intent, guild_id=guild_id)

    def shard_sessions(self, guild: FakeGuild | int | None) -> list[GatewaySession]:
        """The live sessions that receive ``guild``'s events (None: direct messages)."""
        gid = guild.id if isinstance(guild, FakeGuild) else guild
        return [s for s in self.live_sessions() if s.receives(gid)]

    def shard_guilds(self, shard_id: int, num_shards: int) -> list[FakeGuild]:
        """The bot's guilds whose events go to shard ``shard_id`` of ``num_shards``."""
        return [g for g in self.bot_guilds() if shard_of(g.id, num_shards) == shard_id]

    def ready_shards(self) -> set[tuple[int, int]]:
        """``(shard_id, num_shards)`` of every live sharded session (READY sent)."""
        return {s.shard for s in self.live_sessions() if s.shard is not None}

    def recommended_shard_count(self) -> int:
        """What ``GET /gateway/bot`` advises: "the recommended number of shards to use when
        connecting", about one per 1,000 guilds
        (https://discord.com/developers/docs/events/gateway#get-gateway-bot)."""
        if self.recommended_shards is not None:
            return self.recommended_shards
        return max(1, -(-len(self.bot_guilds()) // 1000))

    # =========================================================================================
    # waiting
    # =========================================================================================

    def _notify(self, *channel_ids: int | None) -> None:
        """A change: wake the waiters of every change, and those of the channels named
        (every channel's waiters when none is named, or ``None`` is)."""
        self._changed.set()
        self._changed = asyncio.Event()
        if not channel_ids or None in channel_ids:
            woken = list(self._channel_changed.values())
            self._channel_changed.clear()
        else:
            woken = []
            for channel_id in channel_ids:
                event = self._channel_changed.pop(channel_id or 0, None)
                if event is not None:
                    woken.append(event)
        for event in woken:
            event.set()

    def loop_time(self) -> float:
        return asyncio.get_running_loop().time()

    async def wait_for(
        self,
        predicate: Callable[[], T | None],
        timeout: float = 5.0,
        *,
        message: str | None = None,
        poll: float = 0.02,
        channel: FakeChannel | int | None = None,
    ) -> T:
        """Wait until ``predicate()`` is truthy and return its value.

        Re-checked on every change in the fake (and every ``poll`` seconds for conditions on
        the bot's side). Raises ``TimeoutError`` after ``timeout`` seconds. With ``channel``,
        only changes in that channel (messages, edits, deletions, reactions, interactions run
        there and their answers, threads made from it) and changes that name no channel (a
        new guild, user, bot session, error...) wake it: many waiters on many channels then
        cost nothing when another channel changes.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            value = predicate()
            if value:
                return value
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(message or f"condition not met within {timeout}s")
            if channel is None:
                event = self._changed
            else:
                key = channel if isinstance(channel, int) else channel.id
                event = self._channel_changed.setdefault(key, asyncio.Event())
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), min(remaining, poll))

    async def wait_for_message(
        self,
        where: FakeChannel | FakeUser,
        predicate: Callable[[FakeMessage], bool] | None = None,
        timeout: float = 5.0,
    ) -> FakeMessage:
        """Wait for a (new or existing) message in a channel, or in a user's DMs, matching."""

        def find() -> FakeMessage | None:
            msgs = (
                self.dm_messages(where)
                if isinstance(where, FakeUser)
                else self.channel_messages(where)
            )
            for msg in reversed(msgs):
                if predicate is None or predicate(msg):
                    return msg
            return None

        return await self.wait_for(find, timeout, message=f"no matching message in {where!r}")

    async def settle(self, timeout: float | None = None) -> None:
        """Wait until every dispatched interaction is answered or its window has expired."""
        pending = [i for i in self.interactions.values() if not i.acknowledged and not i.expired]
        if not pending:
            return
        limit = timeout if timeout is not None else max(i.ack_window for i in pending) + 1.0
        with contextlib.suppress(TimeoutError):
            await self.wait_for(
                lambda: all(i.acknowledged or i.expired for i in pending), timeout=limit
            )

    # =========================================================================================
    # problems
    # =========================================================================================

    def record_violation(
        self, kind: str, message: str, *, route: str = "", interaction_id: int | None = None
    ) -> None:
        violation = Violation(
            kind=kind, message=message, route=route, interaction_id=interaction_id
        )
        _log.warning("Discord rule violated: %s", violation)
        self.violations.append(violation)
        self._notify()

    def take_violations(self) -> list[Violation]:
        """Return and clear the recorded violations (for tests that provoke them on purpose)."""
        out, self.violations[:] = list(self.violations), []
        return out

    def unanswered_interactions(self) -> list[FakeInteraction]:
        """Interactions that never got an accepted initial response (so far)."""
        return [
            i
            for i in self.interactions.values()
            if not i.acknowledged and not i.forgotten and i.delivered
        ]

    def unfinished_deferrals(self) -> list[FakeInteraction]:
        """Interactions deferred with "thinking" whose loading message was never replaced."""
        out = []
        for inter in self.interactions.values():
            if inter.response_type == 5 and not inter.forgotten:
                msg = self.messages.get(inter.original_message_id or 0)
                if msg is not None and msg.loading and not msg.deleted:
                    out.append(inter)
        return out

    def forget_interaction(self, interaction: FakeInteraction | InteractionResult) -> None:
        """Stop reporting an interaction left unanswered (or "thinking") on purpose."""
        inter = (
            interaction.interaction if isinstance(interaction, InteractionResult) else interaction
        )
        inter.forgotten = True

    def take_bot_errors(
        self,
        pattern: str,
        *,
        logger: str | None = None,
        exc: type[BaseException] | None = None,
        count: int | None = 1,
    ) -> list[logging.LogRecord]:
        """Consume the ERROR records a test provoked on purpose, and only those.

        A record matches when ``pattern`` is found (``re.search``) in its message
        or its exception's text, it comes from ``logger`` or one of its children
        (``"gueridon"``, ``"bot.service"``, ``"discord"``...) when given, and its
        exception is an ``exc`` when given. Fails unless exactly ``count`` records
        match (``None``: at least one); the others stay for the teardown check.
        """
        found = [r for r in self.bot_errors if _error_matches(r, pattern, logger, exc)]
        if (count is None and not found) or (count is not None and len(found) != count):
            fmt = logging.Formatter("%(name)s: %(message)s")
            seen = [fmt.format(r) for r in self.bot_errors]
            raise AssertionError(
                f"expected {count if count is not None else 'some'} ERROR record(s) matching "
                f"{pattern!r} (logger={logger!r}, exc={exc!r}), found {len(found)}; "
                f"collected: {seen}"
            )
        self.bot_errors[:] = [r for r in self.bot_errors if all(r is not f for f in found)]
        return found

    async def expect_bot_errors(
        self,
        pattern: str,
        *,
        logger: str | None = None,
        exc: type[BaseException] | None = None,
        count: int = 1,
        timeout: float = 5.0,
    ) -> list[logging.LogRecord]:
        """Wait until ``count`` ERROR records match (see :meth:`take_bot_errors`:
        the same matching), then consume exactly those."""
        with contextlib.suppress(TimeoutError):
            await self.wait_for(
                lambda: (
                    sum(_error_matches(r, pattern, logger, exc) for r in self.bot_errors) >= count
                ),
                timeout=timeout,
            )
        return self.take_bot_errors(pattern, logger=logger, exc=exc, count=count)

    def problems(self) -> list[str]:
        out = [f"violation: {v}" for v in self.violations]
        out += [f"unanswered interaction: {i.describe()}" for i in self.unanswered_interactions()]
        out += [f"deferred, never followed up: {i.describe()}" for i in self.unfinished_deferrals()]
        fmt = logging.Formatter("%(name)s: %(message)s")
        out += [f"bot error: {fmt.format(r)}" for r in self.bot_errors]
        return out

    def assert_clean(self) -> None:
        """Fail if any violation, unanswered interaction, stuck deferral or bot error exists."""
        problems = self.problems()
        if problems:
            raise AssertionError("fake Discord saw problems:\n  " + "\n  ".join(problems))

    # =========================================================================================
    # building the world
    # =========================================================================================

    def add_guild(
        self,
        name: str,
        *,
        locale: str = "en-US",
        owner: FakeUser | None = None,
        bot_permissions: int | HasValue | None = None,
        everyone_permissions: int | HasValue | None = None,
        shard: tuple[int, int] | None = None,
    ) -> FakeGuild:
        """Create a guild the bot is in (its role gets ``bot_permissions``). ``shard=(k, n)``
        draws its id so that its events go to shard ``k`` of ``n``."""
        gid = self.ids() if shard is None else self.ids.for_shard(*shard)
        owner = owner or self.owner
        guild = FakeGuild(id=gid, name=name, owner_id=owner.id, locale=locale)
        guild.roles[gid] = FakeRole(
            id=gid,
            guild_id=gid,
            name="@everyone",
            permissions=as_int_permissions(everyone_permissions, DEFAULT_EVERYONE_PERMISSIONS),
        )
        bot_role = FakeRole(
            id=self.ids(),
            guild_id=gid,
            name=self.bot_user.name,
            permissions=as_int_permissions(bot_permissions, DEFAULT_BOT_PERMISSIONS),
            position=1,
            managed=True,
        )
        guild.roles[bot_role.id] = bot_role
        guild.bot_role_id = bot_role.id
        self.guilds[gid] = guild
        guild.members[self.bot_user.id] = FakeMember(self.bot_user, gid, role_ids=[bot_role.id])
        if owner.id not in guild.members:
            guild.members[owner.id] = FakeMember(owner, gid)
        for session in self.gateway.sessions_of(gid):
            if not session.invalidated:
                self.gateway._send_to(
                    session, "GUILD_CREATE", self.guild_create_payload(guild, session)
                )
        self._notify()
        return guild

    def add_role(
        self, guild: FakeGuild, name: str, permissions: int | HasValue | None = 0
    ) -> FakeRole:
        role = FakeRole(
            id=self.ids(),
            guild_id=guild.id,
            name=name,
            permissions=as_int_permissions(permissions, 0),
            position=len(guild.roles),
        )
        guild.roles[role.id] = role
        self.dispatch(
            "GUILD_ROLE_CREATE",
            {"guild_id": str(guild.id), "role": role.payload()},
            intent=INTENT_GUILDS,
            guild_id=guild.id,
        )
        return role

    def _add_channel(self, guild: FakeGuild, channel: FakeChannel) -> FakeChannel:
        self.channels[channel.id] = channel
        guild.channel_ids.append(channel.id)
        self._channel_messages[channel.id] = []
        event = "THREAD_CREATE" if channel.is_thread else "CHANNEL_CREATE"
        self.dispatch(event, channel.payload(), intent=INTENT_GUILDS, guild_id=guild.id)
        self._notify(channel.id, channel.parent_id or channel.id)
        return channel

    def add_text_channel(
        self,
        guild: FakeGuild,
        name: str,
        *,
        topic: str | None = None,
        category: FakeChannel | None = None,
        overwrites: Mapping[Target, tuple[int | HasValue, int | HasValue]] | None = None,
    ) -> FakeChannel:
        """Create a text channel; ``overwrites`` maps a user/role to ``(allow, deny)`` bits."""
        channel = FakeChannel(
            id=self.ids(),
            type=GUILD_TEXT,
            name=name,
            guild_id=guild.id,
            position=len(guild.channel_ids),
            topic=topic,
            parent_id=category.id if category else None,
        )
        for target, (allow, deny) in (overwrites or {}).items():
            self._set_overwrite(channel, target, allow, deny)
        return self._add_channel(guild, channel)

    def add_category(self, guild: FakeGuild, name: str) -> FakeChannel:
        channel = FakeChannel(
            id=self.ids(),
            type=GUILD_CATEGORY,
            name=name,
            guild_id=guild.id,
            position=len(guild.channel_ids),
        )
        return self._add_channel(guild, channel)

    def _set_overwrite(
        self, channel: FakeChannel, target: Target, allow: int | HasValue, deny: int | HasValue
    ) -> None:
        kind = 1 if isinstance(target, FakeUser) else 0
        channel.overwrites = [o for o in channel.overwrites if o.id != target.id]
        channel.overwrites.append(
            Overwrite(
                id=target.id,
                type=kind,
                allow=as_int_permissions(allow, 0),
                deny=as_int_permissions(deny, 0),
            )
        )

    def set_overwrite(
        self,
        channel: FakeChannel,
        target: Target,
        *,
        allow: int | HasValue = 0,
        deny: int | HasValue = 0,
    ) -> None:
        """Set a permission overwrite on a channel (pass ``fake.guild_everyone(guild)`` for @everyone)."""
        self._set_overwrite(channel, target, allow, deny)
        self.dispatch(
            "CHANNEL_UPDATE", channel.payload(), intent=INTENT_GUILDS, guild_id=channel.guild_id
        )
        self._notify(channel.id)

    def guild_everyone(self, guild: FakeGuild) -> FakeRole:
        return guild.everyone

    def bot_role(self, guild: FakeGuild) -> FakeRole:
        assert guild.bot_role_id is not None
        return guild.roles[guild.bot_role_id]

    def add_user(
        self,
        name: str,
        *,
        guild: FakeGuild | None = None,
        permissions: int | HasValue | None = None,
        roles: Sequence[FakeRole] = (),
        locale: str = "en-US",
        nick: str | None = None,
        bot: bool = False,
    ) -> FakeUser:
        """Create a user (optionally a member of ``guild``). ``locale`` is the client locale
        sent with each interaction (e.g. "fr", "en-US")."""
        user = FakeUser(id=self.ids(), name=name, locale=locale, bot=bot)
        self.users[user.id] = user
        if guild is not None:
            self.add_member(guild, user, permissions=permissions, roles=roles, nick=nick)
        self._notify()
        return user

    def add_member(
        self,
        guild: FakeGuild,
        user: FakeUser,
        *,
        permissions: int | HasValue | None = None,
        roles: Sequence[FakeRole] = (),
        nick: str | None = None,
    ) -> FakeMember:
        """Make ``user`` a member of ``guild``; ``permissions`` become a personal role."""
        role_ids = [r.id for r in roles]
        if permissions is not None:
            role = self.add_role(guild, f"{user.name}-permissions", permissions)
            role_ids.append(role.id)
        member = FakeMember(user, guild.id, role_ids=role_ids, nick=nick)
        guild.members[user.id] = member
        body = member.payload()
        body["guild_id"] = str(guild.id)
        self.dispatch("GUILD_MEMBER_ADD", body, intent=INTENT_GUILD_MEMBERS, guild_id=guild.id)
        self._notify()
        return member

    def set_command_permission(
        self,
        guild: FakeGuild,
        name: str,
        target: FakeUser | FakeRole | FakeGuild,
        *,
        allow: bool = True,
    ) -> None:
        """A server admin's override in Server Settings > Integrations: ``target``
        (a member, a role, or the guild for @everyone) may (or may not) use the
        top-level command ``name`` whatever its ``default_member_permissions``.
        Discord checks a member's own override first, then their roles' (one
        allowing role is enough), then @everyone's, and only then the
        command's default permissions. See
        https://discord.com/developers/docs/interactions/application-commands#permissions
        and https://support.discord.com/hc/en-us/articles/10952896421783
        (Command Permissions)."""
        self._command_overrides.setdefault((guild.id, name), {})[target.id] = allow

    def _command_override(self, guild: FakeGuild, name: str, user: FakeUser) -> bool | None:
        """Whether an admin's override lets ``user`` use ``name`` (None: no override applies)."""
        overrides = self._command_overrides.get((guild.id, name))
        if not overrides:
            return None
        if user.id in overrides:
            return overrides[user.id]
        member = guild.members.get(user.id)
        roles = [overrides[r] for r in (member.role_ids if member else ()) if r in overrides]
        if roles:
            return any(roles)
        return overrides.get(guild.id)

    def set_dms_open(self, user: FakeUser, open: bool) -> None:
        """Closed DMs make the bot's message sends to this user fail with 403 / 50007."""
        user.dms_open = open

    def dm_channel(self, user: FakeUser) -> FakeChannel:
        """The DM channel between the bot and ``user`` (created on first use)."""
        channel = self._dm_channels.get(user.id)
        if channel is None:
            channel = FakeChannel(id=self.ids(), type=DM, recipient=user)
            self._dm_channels[user.id] = channel
            self.channels[channel.id] = channel
            self._channel_messages[channel.id] = []
        return channel

    def make_attachment(self, filename: str, data: bytes) -> FakeAttachment:
        """An uploaded file a user can pass as an ATTACHMENT command option.
        Discord refuses an upload over the user's limit (:attr:`user_upload_limit`,
        10 MiB without Nitro) with 413 before any bot hears of it."""
        if len(data) > self.user_upload_limit:
            raise DiscordError(
                413,
                40005,
                "Request entity too large",
                detail=f"{filename}: {len(data)} bytes over {self.user_upload_limit}",
            )
        return self._store_attachment(0, filename, data)

    def _store_attachment(
        self, channel_id: int, filename: str, data: bytes, description: str | None = None
    ) -> FakeAttachment:
        aid = self.ids()
        att = FakeAttachment.create(
            id=aid,
            filename=filename,
            data=data,
            url=f"{self.base_url}/attachments/{aid}/{filename}",
            description=description,
        )
        self.attachments[aid] = att
        return att

    # =========================================================================================
    # permissions
    # =========================================================================================

    def guild_of(self, channel: FakeChannel) -> FakeGuild | None:
        return self.guilds.get(channel.guild_id) if channel.guild_id is not None else None

    def base_permissions(self, user_id: int, guild: FakeGuild) -> int:
        if guild.owner_id == user_id:
            return ALL_PERMISSIONS
        member = guild.members.get(user_id)
        if member is None:
            return 0
        perms = guild.everyone.permissions
        for rid in member.role_ids:
            role = guild.roles.get(rid)
            if role is not None:
                perms |= role.permissions
        if perms & ADMINISTRATOR:
            return ALL_PERMISSIONS
        return perms

    def permissions_for(self, user_id: int, channel: FakeChannel) -> int:
        """Discord's permission algorithm: base perms, then @everyone/role/member overwrites."""
        if channel.type == DM:
            return DM_PERMISSIONS
        guild = self.guild_of(channel)
        if guild is None:
            return 0
        perms = self.base_permissions(user_id, guild)
        if perms & ADMINISTRATOR:
            return ALL_PERMISSIONS
        target = channel
        if channel.is_thread and channel.parent_id in self.channels:
            target = self.channels[channel.parent_id]
        member = guild.members.get(user_id)
        role_ids = set(member.role_ids) if member else set()
        for ow in target.overwrites:
            if ow.type == 0 and ow.id == guild.id:
                perms = (perms & ~ow.deny) | ow.allow
        allow = deny = 0
        for ow in target.overwrites:
            if ow.type == 0 and ow.id in role_ids:
                allow |= ow.allow
                deny |= ow.deny
        perms = (perms & ~deny) | allow
        for ow in target.overwrites:
            if ow.type == 1 and ow.id == user_id:
                perms = (perms & ~ow.deny) | ow.allow
        if not perms & VIEW_CHANNEL:
            return 0
        return perms

    # =========================================================================================
    # payloads
    # =========================================================================================

    def bot_user_payload(self) -> dict[str, Any]:
        data = self.bot_user.payload()
        data.update(verified=True, mfa_enabled=False, locale="en-US", email=None, bio="")
        return data

    def application_flags(self) -> int:
        flags = 1 << 23  # APPLICATION_COMMAND_BADGE
        if "presences" in self.allowed_privileged_intents:
            flags |= 1 << 12
        if "members" in self.allowed_privileged_intents:
            flags |= 1 << 14
        if "message_content" in self.allowed_privileged_intents:
            flags |= 1 << 18
        return flags

    def application_payload(self) -> dict[str, Any]:
        return {
            "id": str(self.application_id),
            "name": self.bot_user.name,
            "icon": None,
            "description": "",
            "summary": "",
            "type": None,
            "rpc_origins": [],
            "bot_public": True,
            "bot_require_code_grant": False,
            "bot": self.bot_user_payload(),
            "owner": self.owner.payload(),
            "team": None,
            "verify_key": "0" * 64,
            "flags": self.application_flags(),
            "hook": True,
            "interactions_endpoint_url": None,
            "redirect_uris": [],
            "tags": [],
            "install_params": None,
            "integration_types_config": {"0": {}},
            "approximate_guild_count": len(self.guilds),
        }

    def bot_guilds(self) -> list[FakeGuild]:
        return [g for g in self.guilds.values() if self.bot_user.id in g.members]

    def guild_payload(self, guild: FakeGuild) -> dict[str, Any]:
        return {
            "id": str(guild.id),
            "name": guild.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(guild.owner_id),
            "region": None,
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": [r.payload() for r in guild.roles.values()],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "application_id": None,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "safety_alerts_channel_id": None,
            "max_members": 500000,
            "vanity_url_code": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": guild.locale,
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
            "incidents_data": None,
        }

    def guild_create_payload(self, guild: FakeGuild, session: GatewaySession) -> dict[str, Any]:
        data = self.guild_payload(guild)
        members = list(guild.members.values())
        if not session.has_intent(INTENT_GUILD_PRESENCES):
            # As on Discord: without GUILD_PRESENCES only the bot's own member is sent.
            members = [m for m in members if m.user.id == self.bot_user.id]
        bot_member = guild.members[self.bot_user.id]
        chans = [self.channels[c] for c in guild.channel_ids]
        data.update(
            joined_at=iso(bot_member.joined_at),
            large=False,
            unavailable=False,
            member_count=len(guild.members),
            members=[m.payload() for m in members],
            channels=[c.payload() for c in chans if not c.is_thread],
            threads=[c.payload() for c in chans if c.is_thread and not c.archived],
            presences=[],
            voice_states=[],
            stage_instances=[],
            guild_scheduled_events=[],
            soundboard_sounds=[],
            lazy=True,
        )
        return data

    def thread_payload(self, thread: FakeChannel) -> dict[str, Any]:
        data = thread.payload()
        data["member"] = {
            "id": str(thread.id),
            "user_id": str(self.bot_user.id),
            "join_timestamp": iso(thread.created_at),
            "flags": 0,
        }
        return data

    def _reactions_payload(self, msg: FakeMessage) -> list[dict[str, Any]]:
        out = []
        for key, users in msg.reactions.items():
            if not users:
                continue
            name, _, eid = key.partition(":")
            out.append(
                {
                    "emoji": {"id": eid or None, "name": name},
                    "count": len(users),
                    "count_details": {"burst": 0, "normal": len(users)},
                    "me": self.bot_user.id in users,
                    "me_burst": False,
                    "burst_colors": [],
                    "burst_count": 0,
                }
            )
        return out

    def message_payload(self, msg: FakeMessage, *, gateway: bool = False) -> dict[str, Any]:
        mentions = []
        for uid in dict.fromkeys(int(m) for m in MENTION_RE.findall(msg.content)):
            user = self.users.get(uid)
            if user is not None:
                mentions.append(user.payload())
        data: dict[str, Any] = {
            "id": str(msg.id),
            "channel_id": str(msg.channel_id),
            "author": msg.author.payload(),
            "content": msg.content,
            "timestamp": iso(msg.timestamp),
            "edited_timestamp": iso(msg.edited_timestamp),
            "tts": msg.tts,
            "mention_everyone": False,
            "mentions": mentions,
            "mention_roles": ROLE_MENTION_RE.findall(msg.content),
            "attachments": [a.payload() for a in msg.attachments],
            "embeds": copy.deepcopy(msg.embeds),
            "components": copy.deepcopy(msg.components),
            "pinned": False,
            "type": msg.type,
            "flags": msg.flags,
        }
        if msg.reactions:
            data["reactions"] = self._reactions_payload(msg)
        if msg.webhook_id is not None:
            data["webhook_id"] = str(msg.webhook_id)
        if msg.application_id is not None:
            data["application_id"] = str(msg.application_id)
        if msg.interaction_metadata is not None:
            data["interaction_metadata"] = copy.deepcopy(msg.interaction_metadata)
        if msg.thread_id is not None and msg.thread_id in self.channels:
            data["thread"] = self.channels[msg.thread_id].payload()
        if msg.message_reference is not None:
            data["message_reference"] = dict(msg.message_reference)
            ref = self.messages.get(int(msg.message_reference["message_id"]))
            data["referenced_message"] = (
                self.message_payload(ref) if ref is not None and not ref.deleted else None
            )
        if gateway and msg.guild_id is not None:
            data["guild_id"] = str(msg.guild_id)
            guild = self.guilds.get(msg.guild_id)
            member = guild.members.get(msg.author.id) if guild else None
            if member is not None and msg.webhook_id is None:
                data["member"] = member.payload(with_user=False)
        return data

    def _gateway_message(
        self, msg: FakeMessage
    ) -> Callable[[GatewaySession], dict[str, Any] | None]:
        """MESSAGE_CREATE/UPDATE body per session, honouring intents like Discord does."""
        full = self.message_payload(msg, gateway=True)
        is_dm = msg.guild_id is None
        mentions_bot = str(self.bot_user.id) in {m["id"] for m in full["mentions"]}

        def build(session: GatewaySession) -> dict[str, Any] | None:
            if not session.has_intent(INTENT_DIRECT_MESSAGES if is_dm else INTENT_GUILD_MESSAGES):
                return None
            if (
                not session.has_intent(INTENT_MESSAGE_CONTENT)
                and not is_dm
                and msg.author.id != self.bot_user.id
                and not mentions_bot
            ):
                stripped = dict(full)
                stripped.update(content="", embeds=[], attachments=[], components=[])
                return stripped
            return full

        return build

    # =========================================================================================
    # messages
    # =========================================================================================

    def _number_components(self, components: list[Any]) -> list[dict[str, Any]]:
        comps: list[dict[str, Any]] = copy.deepcopy(components or [])
        counter = 0

        def walk(items: list[dict[str, Any]]) -> None:
            nonlocal counter
            for comp in items:
                counter += 1
                comp.setdefault("id", counter)
                if isinstance(comp.get("components"), list):
                    walk(comp["components"])
                if isinstance(comp.get("accessory"), dict):
                    walk([comp["accessory"]])

        walk(comps)
        return comps

    def _build_attachments(
        self,
        msg: FakeMessage,
        payload: dict[str, Any],
        uploads: list[Upload],
        existing: list[FakeAttachment],
    ) -> list[FakeAttachment]:
        by_index = {u.index: u for u in uploads}
        used: set[int] = set()
        out: list[FakeAttachment] = []
        spec = payload.get("attachments")
        if isinstance(spec, list):
            current = {a.id: a for a in existing}
            for item in spec:
                try:
                    aid = int(item.get("id"))
                except (TypeError, ValueError):
                    continue
                if aid in current:
                    out.append(current[aid])
                elif aid in by_index:
                    up = by_index[aid]
                    used.add(aid)
                    out.append(
                        self._store_attachment(
                            msg.channel_id,
                            item.get("filename") or up.filename,
                            up.data,
                            item.get("description"),
                        )
                    )
        else:
            out = list(existing)
        for up in uploads:
            if up.index not in used:
                out.append(self._store_attachment(msg.channel_id, up.filename, up.data))
        for att in out:
            att.ephemeral = msg.ephemeral
        return out

    def _store_message(self, channel: FakeChannel, msg: FakeMessage) -> None:
        self.messages[msg.id] = msg
        self._channel_messages.setdefault(channel.id, []).append(msg.id)
        if not msg.ephemeral:
            channel.last_message_id = msg.id
            self.dispatch("MESSAGE_CREATE", self._gateway_message(msg), guild_id=msg.guild_id)
        self._notify(channel.id)

    def create_message(
        self,
        channel: FakeChannel,
        author: FakeUser,
        payload: dict[str, Any],
        uploads: list[Upload] = [],  # noqa: B006 - never mutated
        *,
        type: int = 0,
        reference: dict[str, Any] | None = None,
        interaction: FakeInteraction | None = None,
        metadata: dict[str, Any] | None = None,
        followup: bool = False,
    ) -> FakeMessage:
        """Store a message (already validated) and dispatch MESSAGE_CREATE."""
        msg = FakeMessage(
            id=self.ids(),
            channel_id=channel.id,
            guild_id=channel.guild_id,
            author=author,
            type=type,
            content=payload.get("content") or "",
            embeds=copy.deepcopy(payload.get("embeds") or []),
            components=self._number_components(payload.get("components") or []),
            flags=int(payload.get("flags") or 0),
            tts=bool(payload.get("tts")),
        )
        if reference is not None:
            ref = {
                "type": 0,
                "message_id": str(reference["message_id"]),
                "channel_id": str(channel.id),
            }
            if channel.guild_id is not None:
                ref["guild_id"] = str(channel.guild_id)
            msg.message_reference = ref
        if interaction is not None:
            msg.interaction_id = interaction.id
            msg.webhook_id = self.application_id
            msg.application_id = self.application_id
            msg.interaction_metadata = metadata
            if msg.ephemeral:
                msg.visible_to = interaction.user.id
            if followup:
                interaction.followup_ids.append(msg.id)
        msg.attachments = self._build_attachments(msg, payload, uploads, [])
        if channel.is_thread and not msg.ephemeral:
            # https://discord.com/developers/docs/topics/threads#thread-membership:
            # sending a message in a thread makes its author a member
            channel.message_count += 1
            if author.id not in channel.member_ids:
                self.set_thread_member(channel, author, add=True)
        self._store_message(channel, msg)
        return msg

    def create_interaction_message(
        self,
        inter: FakeInteraction,
        payload: dict[str, Any],
        uploads: list[Upload],
        *,
        followup: bool = False,
    ) -> FakeMessage:
        body = dict(payload)
        body["flags"] = int(payload.get("flags") or 0) & INTERACTION_CHANNEL_MESSAGE_FLAGS
        mtype = 0
        if inter.type == 2:
            mtype = 20 if inter.data.get("type", 1) == 1 else 23
        metadata: dict[str, Any] = {
            "id": str(inter.id),
            "type": inter.type,
            "user": inter.user.payload(),
            "authorizing_integration_owners": inter.payload.get(
                "authorizing_integration_owners", {}
            ),
        }
        if inter.type == 2:
            metadata["name"] = inter.data.get("name")
            metadata["command_type"] = inter.data.get("type", 1)
        if inter.source_message_id is not None:
            metadata["interacted_message_id"] = str(inter.source_message_id)
        if followup and inter.original_message_id is not None:
            metadata["original_response_message_id"] = str(inter.original_message_id)
        msg = self.create_message(
            inter.channel,
            self.bot_user,
            body,
            uploads,
            type=mtype,
            interaction=inter,
            metadata=metadata,
            followup=followup,
        )
        return msg

    def apply_edit(
        self,
        msg: FakeMessage,
        payload: dict[str, Any],
        uploads: list[Upload],
        *,
        mark_edited: bool = True,
    ) -> FakeMessage:
        """Apply an (already validated) edit body, keep the old version in ``msg.history``."""
        msg.history.append(msg.snapshot())
        if "content" in payload:
            msg.content = payload["content"] or ""
        if "embeds" in payload:
            msg.embeds = copy.deepcopy(payload["embeds"] or [])
        if "components" in payload:
            msg.components = self._number_components(payload["components"] or [])
        if "attachments" in payload or uploads:
            msg.attachments = self._build_attachments(msg, payload, uploads, msg.attachments)
        flags = msg.flags & ~FLAG_LOADING
        if payload.get("flags") is not None:
            new = int(payload["flags"])
            flags = (flags & ~FLAG_SUPPRESS_EMBEDS) | (
                new & (FLAG_SUPPRESS_EMBEDS | FLAG_IS_COMPONENTS_V2)
            )
        msg.flags = flags
        if mark_edited:
            msg.edited_timestamp = now()
        if not msg.ephemeral:
            self.dispatch("MESSAGE_UPDATE", self._gateway_message(msg), guild_id=msg.guild_id)
        self._notify(msg.channel_id)
        return msg

    def delete_message(self, msg: FakeMessage) -> None:
        msg.deleted = True
        if not msg.ephemeral:
            body: dict[str, Any] = {"id": str(msg.id), "channel_id": str(msg.channel_id)}
            if msg.guild_id is not None:
                body["guild_id"] = str(msg.guild_id)
            intent = INTENT_DIRECT_MESSAGES if msg.guild_id is None else INTENT_GUILD_MESSAGES
            self.dispatch("MESSAGE_DELETE", body, intent=intent, guild_id=msg.guild_id)
        self._notify(msg.channel_id)

    def set_reaction(self, msg: FakeMessage, user: FakeUser, emoji: str, *, add: bool) -> None:
        users = msg.reactions.setdefault(emoji, set())
        changed = (user.id not in users) if add else (user.id in users)
        if add:
            users.add(user.id)
        else:
            users.discard(user.id)
        if changed:
            name, _, eid = emoji.partition(":")
            body: dict[str, Any] = {
                "user_id": str(user.id),
                "channel_id": str(msg.channel_id),
                "message_id": str(msg.id),
                "emoji": {"id": eid or None, "name": name},
                "burst": False,
                "type": 0,
            }
            if msg.guild_id is not None:
                body["guild_id"] = str(msg.guild_id)
                if add:
                    guild = self.guilds[msg.guild_id]
                    member = guild.members.get(user.id)
                    if member is not None:
                        body["member"] = member.payload()
            if add:
                body["message_author_id"] = str(msg.author.id)
            intent = (
                INTENT_DIRECT_MESSAGE_REACTIONS
                if msg.guild_id is None
                else INTENT_GUILD_MESSAGE_REACTIONS
            )
            self.dispatch(
                "MESSAGE_REACTION_ADD" if add else "MESSAGE_REACTION_REMOVE",
                body,
                intent=intent,
                guild_id=msg.guild_id,
            )
        self._notify(msg.channel_id)

    def create_thread(
        self,
        parent: FakeChannel,
        name: str,
        ttype: int,
        source: FakeMessage | None,
        auto_archive_duration: int = 1440,
    ) -> FakeChannel:
        """A thread made by the bot; from ``source``, it takes the message's id
        (https://discord.com/developers/docs/resources/channel#start-thread-from-message)."""
        guild = self.guilds[parent.guild_id or 0]
        thread = FakeChannel(
            id=source.id if source is not None else self.ids(),
            type=ttype,
            name=name,
            guild_id=guild.id,
            parent_id=parent.id,
            owner_id=self.bot_user.id,
            auto_archive_duration=auto_archive_duration,
            member_ids={self.bot_user.id},
        )
        self.channels[thread.id] = thread
        guild.channel_ids.append(thread.id)
        self._channel_messages[thread.id] = []
        if source is not None:
            source.thread_id = thread.id
            source.flags |= FLAG_HAS_THREAD
        body = self.thread_payload(thread)
        body["newly_created"] = True
        self.dispatch("THREAD_CREATE", body, intent=INTENT_GUILDS, guild_id=guild.id)
        if source is not None:
            self.dispatch("MESSAGE_UPDATE", self._gateway_message(source), guild_id=guild.id)
        self._notify(thread.id, parent.id)
        return thread

    def auto_archive(self, thread: FakeChannel) -> None:
        """What Discord does to a thread left silent for its ``auto_archive_duration``
        (https://discord.com/developers/docs/topics/threads#active--archived-threads): it is
        archived (THREAD_UPDATE), without anyone asking."""
        assert thread.is_thread, thread
        thread.archived = True
        thread.archive_changed = now()
        self.dispatch("THREAD_UPDATE", thread.payload(), guild_id=thread.guild_id)
        self._notify(thread.id, thread.parent_id)

    def thread_members(self, thread: FakeChannel) -> set[int]:
        """The user ids of a thread's members (tests)."""
        return set(thread.member_ids)

    def set_thread_member(self, thread: FakeChannel, user: FakeUser, *, add: bool) -> None:
        """Add or remove a thread member and dispatch THREAD_MEMBERS_UPDATE: to every
        session with GUILD_MEMBERS, else only when the bot itself joined or left
        (https://discord.com/developers/docs/topics/gateway-events#thread-members-update)."""
        if add == (user.id in thread.member_ids):
            return
        if add:
            thread.member_ids.add(user.id)
        else:
            thread.member_ids.discard(user.id)
        member = {
            "id": str(thread.id),
            "user_id": str(user.id),
            "join_timestamp": iso(thread.created_at),
            "flags": 0,
        }
        body = {
            "id": str(thread.id),
            "guild_id": str(thread.guild_id),
            "member_count": min(len(thread.member_ids), 50),
            "added_members": [member] if add else [],
            "removed_member_ids": [] if add else [str(user.id)],
        }
        self.dispatch(
            "THREAD_MEMBERS_UPDATE",
            body,
            intent=None if user.id == self.bot_user.id else INTENT_GUILD_MEMBERS,
            guild_id=thread.guild_id,
        )
        self._notify(thread.id)

    def remove_channel(self, channel: FakeChannel) -> None:
        guild = self.guild_of(channel)
        if guild is not None and channel.id in guild.channel_ids:
            guild.channel_ids.remove(channel.id)
        self.channels.pop(channel.id, None)
        event = "THREAD_DELETE" if channel.is_thread else "CHANNEL_DELETE"
        body = channel.payload()
        self.dispatch(event, body, intent=INTENT_GUILDS, guild_id=channel.guild_id)
        self._notify()

    # -- reading messages (tests) ---------------------------------------------------------

    def channel_messages(
        self,
        channel: FakeChannel,
        *,
        include_ephemeral: bool = True,
        visible_to: FakeUser | None = None,
    ) -> list[FakeMessage]:
        """Messages of a channel, oldest first, edits applied, deleted ones excluded.

        ``visible_to=user`` keeps only what that user can see (others' ephemerals hidden).
        """
        out = []
        for mid in self._channel_messages.get(channel.id, []):
            msg = self.messages[mid]
            if msg.deleted:
                continue
            if msg.ephemeral:
                if not include_ephemeral:
                    continue
                if visible_to is not None and msg.visible_to != visible_to.id:
                    continue
            out.append(msg)
        return out

    def dm_messages(self, user: FakeUser) -> list[FakeMessage]:
        """Messages in the DM channel between the bot and ``user`` (oldest first)."""
        channel = self._dm_channels.get(user.id)
        return self.channel_messages(channel) if channel is not None else []

    def last_message(self, channel: FakeChannel) -> FakeMessage | None:
        msgs = self.channel_messages(channel)
        return msgs[-1] if msgs else None

    def message(self, message_id: int) -> FakeMessage:
        try:
            return self.messages[message_id]
        except KeyError:
            raise HarnessError(f"no message {message_id}") from None

    # =========================================================================================
    # application commands
    # =========================================================================================

    def command_store(self, scope: int | None) -> dict[int, dict[str, Any]]:
        return self._commands.setdefault(scope, {})

    def _stored_command(self, scope: int | None, cid: int, body: dict[str, Any]) -> dict[str, Any]:
        stored = copy.deepcopy(body)
        stored.update(
            id=str(cid),
            application_id=str(self.application_id),
            version=str(self.ids()),
            type=int(body.get("type", 1)),
        )
        stored.setdefault("description", "")
        stored.setdefault("default_member_permissions", None)
        stored.setdefault("nsfw", False)
        stored.setdefault("integration_types", [0])
        if scope is not None:
            stored["guild_id"] = str(scope)
        else:
            stored.setdefault("dm_permission", True)
        return stored

    def overwrite_commands(
        self, scope: int | None, commands: list[dict[str, Any]]
    ) -> list[dict[str, Any]]:
        old = {(c["type"], c["name"]): int(c["id"]) for c in self.command_store(scope).values()}
        new: dict[int, dict[str, Any]] = {}
        for body in commands:
            key = (int(body.get("type", 1)), body["name"])
            cid = old.get(key) or self.ids()
            new[cid] = self._stored_command(scope, cid, body)
        self._commands[scope] = new
        self.sync_count += 1
        self._notify()
        return list(new.values())

    def upsert_command(self, scope: int | None, body: dict[str, Any]) -> dict[str, Any]:
        store = self.command_store(scope)
        key = (int(body.get("type", 1)), body["name"])
        cid = next((int(c["id"]) for c in store.values() if (c["type"], c["name"]) == key), None)
        cid = cid or self.ids()
        store[cid] = self._stored_command(scope, cid, body)
        self._notify()
        return store[cid]

    def commands(self, guild: FakeGuild | None = None) -> list[dict[str, Any]]:
        """Registered commands (global, or of ``guild``) as Discord stores them."""
        return list(self.command_store(guild.id if guild else None).values())

    def command(
        self, name: str, *, guild: FakeGuild | None = None, type: int = 1
    ) -> dict[str, Any]:
        """One registered command by name; raises CommandNotSynced if absent."""
        for cmd in self.commands(guild):
            if cmd["name"] == name and cmd["type"] == type:
                return cmd
        where = f"guild {guild.name!r}" if guild else "global scope"
        names = sorted(c["name"] for c in self.commands(guild))
        raise CommandNotSynced(f"/{name} is not registered in {where} (registered: {names})")

    def _find_command(
        self, name: str, channel: FakeChannel, user: FakeUser, ctype: int
    ) -> dict[str, Any]:
        guild = self.guild_of(channel)
        scopes: list[int | None] = [guild.id] if guild else []
        scopes.append(None)
        found: dict[str, Any] | None = None
        for scope in scopes:
            for cmd in self.command_store(scope).values():
                if cmd["name"] == name and cmd["type"] == ctype:
                    found = cmd
                    break
            if found:
                break
        if found is None:
            registered = sorted(
                f"{c['name']}" + ("" if s is None else " (guild)")
                for s in scopes
                for c in self.command_store(s).values()
            )
            raise CommandNotSynced(
                f"command {name!r} (type {ctype}) was never synced to the fake; registered: {registered}"
            )
        contexts = found.get("contexts")
        if guild is None:
            if (contexts is not None and 1 not in contexts) or (
                contexts is None and found.get("dm_permission") is False
            ):
                raise CommandNotAvailable(f"/{name} is not available in DMs with the bot")
        else:
            if contexts is not None and 0 not in contexts:
                raise CommandNotAvailable(f"/{name} is not available in guilds")
            if channel.is_thread and channel.archived:
                # https://discord.com/developers/docs/topics/threads#active--archived-threads:
                # "Users cannot ... use application commands ... [in] archived threads"
                raise CommandNotAvailable(f"/{name}: the thread {channel.name!r} is archived")
            required = found.get("default_member_permissions")
            override = self._command_override(guild, name.split(" ")[0], user)
            have = self.base_permissions(user.id, guild)
            # "Members with the Administrator permission can use all commands"
            # (https://discord.com/developers/docs/interactions/application-commands#permissions)
            if override is False and not have & ADMINISTRATOR:
                raise CommandNotAvailable(f"an override denies /{name} to {user.name}")
            if required is not None and override is None:
                need = int(required)
                if not have & ADMINISTRATOR and (need == 0 or have & need != need):
                    raise CommandNotAvailable(
                        f"{user.name} lacks default_member_permissions={need} for /{name}"
                    )
        return found

    # =========================================================================================
    # interactions (user side)
    # =========================================================================================

    def _channel_payload_for(self, channel: FakeChannel, user: FakeUser) -> dict[str, Any]:
        data = channel.payload()
        data["permissions"] = str(self.permissions_for(user.id, channel))
        return data

    def _resolved_user(
        self,
        resolved: dict[str, Any],
        guild: FakeGuild | None,
        user: FakeUser,
        channel: FakeChannel,
    ) -> None:
        resolved.setdefault("users", {})[str(user.id)] = user.payload()
        if guild is not None and user.id in guild.members:
            member = guild.members[user.id].payload(with_user=False)
            member["permissions"] = str(self.permissions_for(user.id, channel))
            resolved.setdefault("members", {})[str(user.id)] = member

    def _interaction_payload(
        self,
        inter_id: int,
        token: str,
        itype: int,
        user: FakeUser,
        channel: FakeChannel,
        data: dict[str, Any],
        message: FakeMessage | None,
    ) -> dict[str, Any]:
        guild = self.guild_of(channel)
        payload: dict[str, Any] = {
            "id": str(inter_id),
            "application_id": str(self.application_id),
            "type": itype,
            "data": data,
            "token": token,
            "version": 1,
            "locale": user.locale,
            "channel_id": str(channel.id),
            "channel": self._channel_payload_for(channel, user),
            "app_permissions": str(self.permissions_for(self.bot_user.id, channel)),
            "entitlements": [],
            "entitlement_sku_ids": [],
            "attachment_size_limit": self.attachment_size_limit,
            "authorizing_integration_owners": {"0": str(guild.id) if guild else "0"},
            "context": 0 if guild else 1,
        }
        if guild is not None:
            member = guild.members.get(user.id)
            if member is None:
                raise HarnessError(f"{user.name} is not a member of {guild.name}")
            mdata = member.payload()
            mdata["permissions"] = str(self.permissions_for(user.id, channel))
            payload.update(
                guild_id=str(guild.id),
                guild_locale=guild.locale,
                guild={"id": str(guild.id), "locale": guild.locale, "features": []},
                member=mdata,
            )
        else:
            if channel.recipient is not None and channel.recipient.id != user.id:
                raise HarnessError(f"{user.name} is not the recipient of this DM channel")
            payload["user"] = user.payload()
        if message is not None:
            payload["message"] = self.message_payload(message)
        return payload

    def _check_user_can_use(self, user: FakeUser, channel: FakeChannel) -> None:
        if channel.is_dm:
            if channel.recipient is not None and channel.recipient.id != user.id:
                raise HarnessError(f"{user.name} cannot act in another user's DM channel")
            return
        if not self.permissions_for(user.id, channel) & VIEW_CHANNEL:
            raise HarnessError(f"{user.name} cannot see #{channel.name}")

    async def _dispatch_interaction(
        self,
        itype: int,
        user: FakeUser,
        channel: FakeChannel,
        data: dict[str, Any],
        *,
        message: FakeMessage | None = None,
    ) -> FakeInteraction:
        if not self.live_sessions():
            try:
                await self.wait_for(self.live_sessions, timeout=self.connect_timeout)
            except TimeoutError:
                raise NoBotConnected("no bot client is connected to the fake gateway") from None
        guild = self.guild_of(channel)
        gid = guild.id if guild is not None else None
        if not self.gateway.sessions_of(gid):
            # Discord sends an interaction over the gateway session of its guild's shard
            # (direct messages: shard 0) and nowhere else; with no such session the user
            # sees "This interaction failed" (https://discord.com/developers/docs/events/
            # gateway#sharding)
            raise InteractionNotDelivered(
                f"{user.name}'s interaction in #{channel.name or channel.id} is not delivered: "
                f"no gateway session of {self._shard_label(gid)} (live shards: "
                f"{sorted(self.ready_shards())}); the user sees 'This interaction failed'"
            )
        inter_id = self.ids()
        token = "aW50ZXJhY3Rpb246" + secrets.token_urlsafe(48)
        payload = self._interaction_payload(inter_id, token, itype, user, channel, data, message)
        loop = asyncio.get_running_loop()
        inter = FakeInteraction(
            id=inter_id,
            token=token,
            type=itype,
            user=user,
            channel=channel,
            guild=self.guild_of(channel),
            data=data,
            payload=payload,
            dispatched_at=loop.time(),
            ack_window=self.ack_window,
            source_message_id=message.id if message is not None else None,
        )
        self.interactions[inter_id] = inter
        self.interactions_by_token[token] = inter
        # a session of the shard that is reconnecting gets it when it RESUMEs (replayed)
        inter.delivered = self.dispatch("INTERACTION_CREATE", payload, guild_id=gid)
        self._timers.append(loop.call_later(inter.ack_window, self._expire, inter))
        self._notify(channel.id)
        return inter

    def _shard_label(self, guild_id: int | None) -> str:
        """``"shard 1/2"`` (the shard that receives ``guild_id``, per shard count in use)."""
        counts = sorted({s.shard[1] for s in self.live_sessions() if s.shard is not None})
        if not counts:
            return "any shard"
        return " or ".join(f"shard {shard_of(guild_id, n)}/{n}" for n in counts)

    def _expire(self, inter: FakeInteraction) -> None:
        if not inter.acknowledged:
            inter.expired = True
            self._notify(inter.channel.id)

    def _diagnose(self, inter: FakeInteraction) -> str:
        lines = [v for v in self.violations if v.interaction_id == inter.id]
        fmt = logging.Formatter("%(name)s: %(message)s")
        errors = [fmt.format(r) for r in self.bot_errors[-3:]]
        text = ""
        if lines:
            text += "\n  rejected responses: " + "; ".join(str(v) for v in lines)
        if errors:
            text += "\n  recent bot errors:\n    " + "\n    ".join(errors)
        return text

    async def _await_response(
        self, inter: FakeInteraction, *, expect_ack: bool, timeout: float | None
    ) -> InteractionResult:
        await self.wait_for(
            lambda: inter.acknowledged or inter.expired,
            timeout=inter.ack_window + 10.0,
            channel=inter.channel,
            poll=self.response_poll,
        )
        if not inter.acknowledged:
            if expect_ack and not inter.delivered:
                gid = inter.guild.id if inter.guild is not None else None
                raise InteractionNotDelivered(
                    f"{inter.describe()} was never delivered: no live gateway session of "
                    f"{self._shard_label(gid)} within {inter.ack_window}s (Discord shows "
                    "'This interaction failed')"
                )
            if expect_ack:
                raise InteractionNotAcknowledged(
                    f"bot gave no initial response to {inter.describe()} within "
                    f"{inter.ack_window}s" + self._diagnose(inter)
                )
            return InteractionResult(self, inter)
        if inter.response_type == 5:
            limit = timeout if timeout is not None else self.followup_timeout

            loop = asyncio.get_running_loop()
            deleted_at: list[float] = []

            def done() -> bool:
                msg = self.messages.get(inter.original_message_id or 0)
                if msg is None or not msg.loading or inter.followup_ids:
                    return True
                if msg.deleted:
                    # "thinking" deleted: a follow-up (say, a private refusal)
                    # usually comes right after; give it a moment
                    if not deleted_at:
                        deleted_at.append(loop.time())
                    return loop.time() - deleted_at[0] >= 0.5
                return False

            try:
                await self.wait_for(
                    done, timeout=limit, channel=inter.channel, poll=self.response_poll
                )
            except TimeoutError:
                if expect_ack:
                    raise DeferredWithoutFollowup(
                        f"bot deferred {inter.describe()} but sent nothing within {limit}s"
                        + self._diagnose(inter)
                    ) from None
        return InteractionResult(self, inter)

    # -- option building -------------------------------------------------------------------

    def _convert_option(
        self,
        spec: dict[str, Any],
        value: Any,
        channel: FakeChannel,
        resolved: dict[str, Any],
        path: str,
    ) -> Any:
        otype = spec["type"]
        name = spec["name"]
        guild = self.guild_of(channel)
        where = f"option {name!r} of /{path}"
        if otype == 3:
            if not isinstance(value, str):
                raise HarnessError(f"{where} is a STRING, got {value!r}")
            # Discord's client keeps an option on one line: pasted line breaks
            # arrive as spaces
            value = " ".join(value.splitlines())
            low, high = spec.get("min_length", 0), spec.get("max_length", 6000)
            if not low <= len(value) <= high:
                raise HarnessError(f"{where}: length must be in [{low}, {high}]")
        elif otype == 4:
            if not isinstance(value, int) or isinstance(value, bool):
                raise HarnessError(f"{where} is an INTEGER, got {value!r}")
        elif otype == 10:
            if not isinstance(value, int | float) or isinstance(value, bool):
                raise HarnessError(f"{where} is a NUMBER, got {value!r}")
        elif otype == 5:
            if not isinstance(value, bool):
                raise HarnessError(f"{where} is a BOOLEAN, got {value!r}")
        elif otype == 6 or (otype == 9 and isinstance(value, FakeUser)):
            if not isinstance(value, FakeUser):
                raise HarnessError(f"{where} is a USER, pass a FakeUser")
            self._resolved_user(resolved, guild, value, channel)
            return str(value.id)
        elif otype == 7:
            if not isinstance(value, FakeChannel):
                raise HarnessError(f"{where} is a CHANNEL, pass a FakeChannel")
            types = spec.get("channel_types")
            if types and value.type not in types:
                raise HarnessError(f"{where} accepts channel types {types}, got {value.type}")
            cdata = {
                "id": str(value.id),
                "name": value.name,
                "type": value.type,
                "permissions": str(self.permissions_for(self.bot_user.id, value)),
                "parent_id": str(value.parent_id) if value.parent_id else None,
            }
            if value.is_thread:
                cdata["thread_metadata"] = value.payload()["thread_metadata"]
            resolved.setdefault("channels", {})[str(value.id)] = cdata
            return str(value.id)
        elif otype in (8, 9):
            if not isinstance(value, FakeRole):
                raise HarnessError(f"{where} is a ROLE/MENTIONABLE, pass a FakeRole or FakeUser")
            resolved.setdefault("roles", {})[str(value.id)] = value.payload()
            return str(value.id)
        elif otype == 11:
            if isinstance(value, tuple):
                value = self.make_attachment(value[0], value[1])
            if not isinstance(value, FakeAttachment):
                raise HarnessError(f"{where} is an ATTACHMENT, pass fake.make_attachment(...)")
            resolved.setdefault("attachments", {})[str(value.id)] = value.payload()
            return str(value.id)
        else:
            raise HarnessError(f"{where}: unsupported option type {otype}")
        if otype in (4, 10) and (problem := option_value_error(value, otype)):
            # Discord itself refuses it: 400 Invalid Form Body, the bot never hears of it
            raise DiscordError(
                400,
                50035,
                "Invalid Form Body",
                errors={"data": {"options": {name: {"_errors": [{"message": problem}]}}}},
                detail=f"{where}: {value!r}",
            )
        low_v, high_v = spec.get("min_value"), spec.get("max_value")
        if otype in (4, 10) and (
            (low_v is not None and value < low_v) or (high_v is not None and value > high_v)
        ):
            # Discord's client does not send it, and the API refuses it
            raise DiscordError(
                400,
                50035,
                "Invalid Form Body",
                errors={
                    "data": {
                        "options": {
                            name: {
                                "_errors": [{"message": f"value must be in [{low_v}, {high_v}]"}]
                            }
                        }
                    }
                },
                detail=f"{where}: {value} outside [{low_v}, {high_v}]",
            )
        choices = spec.get("choices")
        if choices and value not in [c["value"] for c in choices]:
            raise HarnessError(f"{where}: {value!r} is not one of {[c['value'] for c in choices]}")
        return value

    def _build_command_data(
        self,
        user: FakeUser,
        channel: FakeChannel,
        command: str,
        options: Mapping[str, Any],
        *,
        focused: str | None = None,
        focused_value: str = "",
    ) -> dict[str, Any]:
        parts = command.strip().lstrip("/").split()
        if not parts:
            raise HarnessError("empty command name")
        cmd = self._find_command(parts[0], channel, user, 1)
        resolved: dict[str, Any] = {}
        data: dict[str, Any] = {"id": cmd["id"], "name": cmd["name"], "type": 1}
        if cmd.get("guild_id"):
            data["guild_id"] = cmd["guild_id"]
        specs: list[dict[str, Any]] = cmd.get("options") or []
        container: list[dict[str, Any]] = []
        data["options"] = container
        path = parts[0]
        for sub in parts[1:]:
            spec = next((o for o in specs if o["name"] == sub and o["type"] in (1, 2)), None)
            if spec is None:
                subs = [o["name"] for o in specs if o["type"] in (1, 2)]
                raise CommandNotSynced(f"/{path} has no subcommand/group {sub!r} (has {subs})")
            node: dict[str, Any] = {"name": sub, "type": spec["type"], "options": []}
            container.append(node)
            container = node["options"]
            specs = spec.get("options") or []
            path += f" {sub}"
        if any(o["type"] in (1, 2) for o in specs):
            subs = [o["name"] for o in specs if o["type"] in (1, 2)]
            raise HarnessError(f"/{path} needs a subcommand: one of {subs}")
        by_name = {o["name"]: o for o in specs}
        unknown = set(options) - set(by_name)
        if focused is not None and focused not in by_name:
            unknown.add(focused)
        if unknown:
            raise HarnessError(
                f"/{path} has no option(s) {sorted(unknown)}; options: {sorted(by_name)}"
            )
        for spec in specs:
            name = spec["name"]
            if name == focused:
                if not spec.get("autocomplete"):
                    raise HarnessError(f"option {name!r} of /{path} has no autocomplete")
                container.append(
                    {"name": name, "type": spec["type"], "value": focused_value, "focused": True}
                )
            elif name in options:
                value = self._convert_option(spec, options[name], channel, resolved, path)
                container.append({"name": name, "type": spec["type"], "value": value})
            elif spec.get("required") and focused is None:
                raise HarnessError(f"/{path} requires option {name!r}")
        if resolved:
            data["resolved"] = resolved
        return data

    async def slash(
        self,
        user: FakeUser,
        channel: FakeChannel,
        command: str,
        /,
        *,
        _options: Mapping[str, Any] | None = None,
        _timeout: float | None = None,
        _expect_ack: bool = True,
        **options: Any,
    ) -> InteractionResult:
        """Run ``/command [group] [subcommand] option=value...`` as ``user`` in ``channel``.

        Built from the synced command tree (fails loudly if not synced or if an option is
        wrong), waits for the initial response, and after a "thinking" defer for the follow-up.
        Option values: str/int/float/bool, FakeUser, FakeChannel, FakeRole, FakeAttachment.
        Use ``_options={...}`` for option names that clash with Python or these parameters.
        """
        self._check_user_can_use(user, channel)
        merged = {**(_options or {}), **options}
        data = self._build_command_data(user, channel, command, merged)
        inter = await self._dispatch_interaction(2, user, channel, data)
        return await self._await_response(inter, expect_ack=_expect_ack, timeout=_timeout)

    async def autocomplete(
        self,
        user: FakeUser,
        channel: FakeChannel,
        command: str,
        /,
        option: str,
        value: str = "",
        *,
        _options: Mapping[str, Any] | None = None,
        **options: Any,
    ) -> list[dict[str, Any]]:
        """Type ``value`` into autocompleted ``option`` of ``command``; return the choices."""
        self._check_user_can_use(user, channel)
        merged = {**(_options or {}), **options}
        data = self._build_command_data(
            user, channel, command, merged, focused=option, focused_value=value
        )
        inter = await self._dispatch_interaction(4, user, channel, data)
        result = await self._await_response(inter, expect_ack=True, timeout=None)
        return list(result.choices or [])

    async def user_command(
        self,
        user: FakeUser,
        channel: FakeChannel,
        name: str,
        target: FakeUser,
        *,
        _timeout: float | None = None,
    ) -> InteractionResult:
        """Run a USER context-menu command on ``target``."""
        self._check_user_can_use(user, channel)
        cmd = self._find_command(name, channel, user, 2)
        resolved: dict[str, Any] = {}
        self._resolved_user(resolved, self.guild_of(channel), target, channel)
        data = {
            "id": cmd["id"],
            "name": name,
            "type": 2,
            "target_id": str(target.id),
            "resolved": resolved,
        }
        inter = await self._dispatch_interaction(2, user, channel, data)
        return await self._await_response(inter, expect_ack=True, timeout=_timeout)

    async def message_command(
        self, user: FakeUser, message: FakeMessage, name: str, *, _timeout: float | None = None
    ) -> InteractionResult:
        """Run a MESSAGE context-menu command on ``message``."""
        channel = self.channels[message.channel_id]
        self._check_user_can_use(user, channel)
        cmd = self._find_command(name, channel, user, 3)
        data = {
            "id": cmd["id"],
            "name": name,
            "type": 3,
            "target_id": str(message.id),
            "resolved": {"messages": {str(message.id): self.message_payload(message)}},
        }
        inter = await self._dispatch_interaction(2, user, channel, data)
        return await self._await_response(inter, expect_ack=True, timeout=_timeout)

    def _component_target(self, user: FakeUser, message: FakeMessage | int) -> FakeMessage:
        msg = self.message(message) if isinstance(message, int) else message
        msg = self.messages.get(msg.id, msg)
        if msg.deleted:
            raise HarnessError(f"message {msg.id} was deleted")
        if msg.ephemeral and msg.visible_to not in (None, user.id):
            raise HarnessError(f"{user.name} cannot see ephemeral message {msg.id}")
        if msg.loading:
            raise HarnessError(f"message {msg.id} is still loading (deferred)")
        self._check_user_can_use(user, self.channels[msg.channel_id])
        return msg

    async def click(
        self,
        user: FakeUser,
        message: FakeMessage | int,
        *,
        custom_id: str | None = None,
        label: str | None = None,
        _timeout: float | None = None,
        _expect_ack: bool = True,
    ) -> InteractionResult:
        """Click a button (found by ``custom_id`` or ``label``) on a channel or DM message."""
        msg = self._component_target(user, message)
        if custom_id is None and label is None:
            raise HarnessError("click() needs custom_id= or label=")
        button = msg.find_component(custom_id=custom_id, label=label, types=(2,))
        if button is None:
            labels = [(b.get("label"), b.get("custom_id")) for b in msg.buttons()]
            raise HarnessError(
                f"no button {custom_id or label!r} on message {msg.id}; buttons: {labels}"
            )
        if button.get("disabled"):
            raise HarnessError(
                f"button {button.get('label') or button.get('custom_id')!r} is disabled"
            )
        if button.get("style") in (5, 6) or not button.get("custom_id"):
            raise HarnessError("link/premium buttons do not send interactions")
        data = {"custom_id": button["custom_id"], "component_type": 2}
        channel = self.channels[msg.channel_id]
        inter = await self._dispatch_interaction(3, user, channel, data, message=msg)
        return await self._await_response(inter, expect_ack=_expect_ack, timeout=_timeout)

    async def select(
        self,
        user: FakeUser,
        message: FakeMessage | int,
        custom_id: str,
        values: Sequence[Any],
        *,
        _timeout: float | None = None,
        _expect_ack: bool = True,
    ) -> InteractionResult:
        """Pick ``values`` in a select menu. String selects take option values; user/role/
        channel selects take FakeUser/FakeRole/FakeChannel objects."""
        msg = self._component_target(user, message)
        comp = msg.find_component(custom_id=custom_id, types=(3, 5, 6, 7, 8))
        if comp is None:
            raise HarnessError(f"no select {custom_id!r} on message {msg.id}")
        if comp.get("disabled"):
            raise HarnessError(f"select {custom_id!r} is disabled")
        low, high = comp.get("min_values", 1), comp.get("max_values", 1)
        if not low <= len(values) <= high:
            raise HarnessError(
                f"select {custom_id!r} takes {low}..{high} values, got {len(values)}"
            )
        channel = self.channels[msg.channel_id]
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": comp["type"]}
        if comp["type"] == 3:
            allowed = [o["value"] for o in comp.get("options", [])]
            bad = [v for v in values if v not in allowed]
            if bad:
                raise HarnessError(f"{bad} not among the options of {custom_id!r}: {allowed}")
            data["values"] = list(values)
        else:
            resolved: dict[str, Any] = {}
            ids = []
            for v in values:
                if isinstance(v, FakeUser):
                    self._resolved_user(resolved, self.guild_of(channel), v, channel)
                elif isinstance(v, FakeRole):
                    resolved.setdefault("roles", {})[str(v.id)] = v.payload()
                elif isinstance(v, FakeChannel):
                    resolved.setdefault("channels", {})[str(v.id)] = {
                        "id": str(v.id),
                        "name": v.name,
                        "type": v.type,
                        "permissions": str(self.permissions_for(user.id, v)),
                    }
                else:
                    raise HarnessError(f"unsupported select value {v!r}")
                ids.append(str(v.id))
            data["values"] = ids
            data["resolved"] = resolved
        inter = await self._dispatch_interaction(3, user, channel, data, message=msg)
        return await self._await_response(inter, expect_ack=_expect_ack, timeout=_timeout)

    async def submit_modal(
        self,
        user: FakeUser,
        result: InteractionResult,
        values: Mapping[str, str | Sequence[str]],
        *,
        _timeout: float | None = None,
        _expect_ack: bool = True,
    ) -> InteractionResult:
        """Fill and submit the modal the bot opened in ``result`` (field custom_id -> value)."""
        modal = result.modal
        if modal is None:
            raise HarnessError(f"{result.interaction.describe()} did not open a modal")
        origin = result.interaction
        if user is not origin.user:
            raise HarnessError("only the user who opened the modal can submit it")
        unknown = set(values)
        components: list[dict[str, Any]] = []

        def answer(comp: dict[str, Any]) -> dict[str, Any]:
            cid = str(comp.get("custom_id") or "")
            unknown.discard(cid)
            if comp.get("type") == 4:
                value = values.get(cid, comp.get("value") or "")
                if not isinstance(value, str):
                    raise HarnessError(f"text input {cid!r} takes a string")
                if comp.get("required", True) and not value:
                    raise HarnessError(f"text input {cid!r} is required")
                low, high = comp.get("min_length", 0), comp.get("max_length", 4000)
                if value and not low <= len(value) <= high:
                    raise HarnessError(f"text input {cid!r} length must be in [{low}, {high}]")
                return {"type": 4, "id": comp.get("id", 0), "custom_id": cid, "value": value}
            chosen = values.get(cid, [])
            return {
                "type": comp.get("type"),
                "id": comp.get("id", 0),
                "custom_id": cid,
                "values": [chosen] if isinstance(chosen, str) else list(chosen),
            }

        for top in modal.get("components", []):
            if top.get("type") == 1:
                components.append(
                    {"type": 1, "components": [answer(c) for c in top.get("components", [])]}
                )
            elif top.get("type") == 18:
                components.append(
                    {
                        "type": 18,
                        "id": top.get("id", 0),
                        "component": answer(top.get("component", {})),
                    }
                )
        if unknown:
            raise HarnessError(
                f"modal {modal.get('custom_id')!r} has no field(s) {sorted(unknown)}"
            )
        data = {"custom_id": modal["custom_id"], "components": components}
        source = self.messages.get(origin.source_message_id or 0)
        inter = await self._dispatch_interaction(5, user, origin.channel, data, message=source)
        return await self._await_response(inter, expect_ack=_expect_ack, timeout=_timeout)

    # -- users posting ---------------------------------------------------------------------

    async def send_message(
        self,
        user: FakeUser,
        channel: FakeChannel,
        content: str,
        *,
        reply_to: FakeMessage | None = None,
        files: Sequence[tuple[str, bytes]] = (),
    ) -> FakeMessage:
        """Post a message as ``user`` (dispatches MESSAGE_CREATE to the bot)."""
        self._check_user_can_use(user, channel)
        uploads = [Upload(i, name, data, None) for i, (name, data) in enumerate(files)]
        reference = {"message_id": reply_to.id} if reply_to is not None else None
        return self.create_message(
            channel,
            user,
            {"content": content},
            uploads,
            type=19 if reply_to else 0,
            reference=reference,
        )

    async def react(self, user: FakeUser, message: FakeMessage, emoji: str) -> None:
        """Add a reaction as ``user`` (dispatches MESSAGE_REACTION_ADD)."""
        self.set_reaction(message, user, emoji, add=True)
