"""A fake Discord for end-to-end tests of a real, unmodified discord.py bot.

The fake runs inside the test process on ``127.0.0.1`` (random port). discord.py's own HTTP
client, gateway websocket (zlib-stream compressed, like Discord), ``app_commands.CommandTree``,
``ui.View``/``DynamicItem`` and webhooks all talk to it; only two class attributes are patched
(``discord.http.Route.BASE`` and ``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY``).

Quick start
-----------
::

    import discord
    import pytest
    from tests.fakediscord import FakeDiscord

    @pytest.fixture
    async def fake():
        async with FakeDiscord.serve() as fake:  # start + patch; asserts "clean" on exit
            yield fake

    async def test_lobby(fake: FakeDiscord) -> None:
        guild = fake.add_guild("Café", locale="fr")
        games = fake.add_text_channel(guild, "games")
        alice = fake.add_user("alice", guild=guild, locale="fr")
        bob = fake.add_user("bob", guild=guild, permissions=discord.Permissions(manage_guild=True))

        bot = make_bot(guild_ready_timeout=0.05)  # build clients with a small guild_ready_timeout
        async with fake.running(bot):              # start(token), wait for on_ready, close at exit
            res = await fake.slash(alice, games, "lobby create", game="between-battle")
            assert res.content == "Lobby created" and not res.ephemeral
            await fake.click(bob, res.message, label="Join")
            msg = await fake.wait_for_message(games, lambda m: "bob" in m.text)
            assert fake.dm_messages(alice)[-1].attachments[0].data.startswith(b"\\x89PNG")

On a clean exit ``FakeDiscord.serve()`` waits for in-flight interactions, stops clients still
running, then raises if anything went wrong (see "Teardown check"). pytest-asyncio does not
throw a test's failure into async fixtures, so a failing test may also report a teardown error
listing the same problems. A ready-made ``fake_discord`` fixture lives in
``tests.fakediscord.pytest_plugin`` (``pytest_plugins = ["tests.fakediscord.pytest_plugin"]`` in
the root conftest). The bot token is ``fake.token`` (used by default). Only one fake should be
patched in at a time (``fake.patched()`` sets two class attributes of discord.py).

Building the world (synchronous; may be called while a bot runs: it gets GUILD_CREATE etc.)
-----------------------------------------------------------------------------------------
- ``fake.add_guild(name, *, locale="en-US", owner=None, bot_permissions=None,
  everyone_permissions=None) -> FakeGuild`` -- the bot is a member, with its own role.
- ``fake.add_text_channel(guild, name, *, topic=None, category=None, overwrites=None)``
  ``-> FakeChannel``; ``fake.add_category(guild, name)``.
- ``fake.add_user(name, *, guild=None, permissions=None, roles=(), locale="en-US", nick=None,
  bot=False) -> FakeUser``; ``permissions`` (int or ``discord.Permissions``) become a personal
  role. ``fake.add_member(guild, user, ...)`` adds an existing user to another guild.
- ``fake.add_role(guild, name, permissions)``; ``fake.set_overwrite(channel, user_or_role,
  allow=..., deny=...)``; ``fake.guild_everyone(guild)``; ``fake.bot_role(guild)``.
- ``fake.set_command_permission(guild, "settings", user_or_role_or_guild, allow=True)`` -- a
  server admin's override (Server Settings > Integrations): it wins over the command's
  ``default_member_permissions`` (member first, then roles, then @everyone = the guild);
  a member with Administrator can use every command whatever the overrides.
- ``fake.set_dms_open(user, False)`` -- the bot's DM sends to this user get 403 / code 50007,
  i.e. ``discord.Forbidden`` in the bot.
- ``fake.make_attachment(filename, data)`` -- a user upload for an ATTACHMENT option (over
  ``fake.user_upload_limit``, 10 MiB, Discord refuses it: ``DiscordError`` 413, nothing sent).
- ``fake.dm_channel(user)`` -- the bot<->user DM channel: pass it to ``slash`` for a command
  run in DMs (``interaction.user`` instead of a member, ``context`` 1).

Running bots
------------
- ``async with fake.running(client):`` or ``await fake.start_client(client)`` /
  ``await fake.stop_client(client)`` (for restart tests: stop bot A, start bot B on the same
  fake; B receives interactions for messages A posted).
- ``await fake.force_reconnect()`` sends op 7; the client RESUMEs (missed events replayed).
- Several clients may run at once; every identified session receives the events of its shard.

Sharding (https://discord.com/developers/docs/events/gateway#sharding)
----------------------------------------------------------------------
- A session that IDENTIFYs with ``shard: [k, n]`` (discord.py's ``AutoShardedClient`` with
  ``shard_ids`` / ``shard_count``) gets READY (with ``shard``) and GUILD_CREATE for the guilds
  with ``(guild_id >> 22) % n == k`` only, and only their events (interactions, messages,
  reactions, channel, thread, member and role events); direct messages go to shard 0 only. A
  session without ``shard`` gets everything (every test that does not shard).
- ``fake.add_guild(name, shard=(k, n))`` draws the guild's id so that it lands on shard ``k``;
  ``fake.shard_guilds(k, n)``, ``fake.shard_sessions(guild)``, ``fake.ready_shards()`` (the
  ``(k, n)`` of the live sharded sessions).
- ``GET /gateway/bot`` advises about one shard per 1,000 guilds (``fake.recommended_shards``
  overrides it) and counts IDENTIFYs in ``session_start_limit.remaining``.
- IDENTIFY with ``k >= n`` or ``n == 0`` closes with 4010 (Invalid shard); a session that would
  hold more than ``fake.max_guilds_per_session`` (2,500) guilds closes with 4011 (Sharding
  required) (https://discord.com/developers/docs/topics/opcodes-and-status-codes).
- An interaction whose shard has no session is not delivered: ``slash``/``click`` raise
  ``InteractionNotDelivered`` at once (Discord shows "This interaction failed"). If the shard's
  session is only down (resumable: a crashed process), the event waits in its buffer for a
  RESUME; unanswered after the window, it raises ``InteractionNotDelivered`` too (with
  ``_expect_ack=False``: ``result.interaction.delivered == 0``). Such interactions are not
  counted as unanswered at teardown.
- Real bot processes (``python -m tests.launch_bot``) against a fake in the test's
  process: ``tests.fakediscord.processes.BotProcesses`` (start, ``wait_ready``, ``kill``,
  ``restart``, their stderr checked for errors at exit).

Acting as users (async; each returns when the bot has answered)
--------------------------------------------------------------
- ``await fake.slash(user, channel, "group sub", opt=value, ...) -> InteractionResult`` builds
  the APPLICATION_COMMAND from the *synced* commands (raises ``CommandNotSynced`` /
  ``CommandNotAvailable`` / ``HarnessError`` for unknown commands/options, wrong types,
  missing required options, values outside choices/ranges, missing
  ``default_member_permissions``). Values: str, int, float, bool, FakeUser, FakeChannel,
  FakeRole, FakeAttachment. Option names that clash (``user``, ``channel``, keywords) go in
  ``_options={...}``. It waits for the initial response (raises ``InteractionNotAcknowledged``
  after the window) and, after a "thinking" defer, for the follow-up/edit (raises
  ``DeferredWithoutFollowup`` after ``_timeout``/``fake.followup_timeout``). Pass
  ``_expect_ack=False`` to get the result instead of an exception.
- ``await fake.autocomplete(user, channel, "play", option="move", value="7", **other) ->
  list[dict]`` returns the choices (``{"name", "value"}``).
- ``await fake.click(user, message, custom_id=... | label=...)`` and ``await fake.select(user,
  message, custom_id, values=[...])`` send MESSAGE_COMPONENT interactions (the button must
  exist and be enabled; ephemeral messages only for their recipient).
- ``await fake.submit_modal(user, result, {"field_custom_id": "text"})`` submits the modal
  the bot opened in ``result`` (``result.modal``).
- ``await fake.user_command(user, channel, "Name", target)``, ``await fake.message_command(
  user, message, "Name")`` for context menus.
- ``await fake.send_message(user, channel, "text")`` / ``await fake.react(user, msg, "🎲")``
  dispatch MESSAGE_CREATE / MESSAGE_REACTION_ADD (content is blanked for bots without the
  message_content intent, as on Discord).

``InteractionResult``: ``response_type`` (4 message, 5 deferred, 6 deferred update, 7 update,
8 autocomplete, 9 modal), ``acknowledged``, ``deferred``, ``message`` (original response, or the
clicked message for 6/7), ``followups``, ``messages``, ``message_ids``, ``primary`` and its
``content`` / ``text`` / ``embeds`` / ``components`` / ``attachments`` / ``ephemeral``,
``choices``, ``modal``; ``await res.wait_update()`` (after a type 6 defer the edit comes later)
and ``await res.wait_followups(n)``. All read live state.

Reading what the bot did
------------------------
- ``fake.channel_messages(channel, *, include_ephemeral=True, visible_to=None)``,
  ``fake.dm_messages(user)``, ``fake.last_message(channel)``, ``fake.message(id)`` ->
  ``FakeMessage`` with ``content``, ``embeds`` (dicts), ``components`` (dicts),
  ``attachments`` (``FakeAttachment.data`` = exact bytes, ``.url`` served by the fake,
  ``.width``/``.height`` for images), ``ephemeral``, ``edited``, ``history`` (older versions),
  ``text`` (content + embed text), ``buttons()``, ``selects()``, ``find_component(...)``.
- ``fake.commands(guild=None)`` / ``fake.command(name, guild=None)``: synced commands as
  Discord stores them (names, options, localizations); ``fake.sync_count``.
- ``await fake.wait_for(lambda: ..., timeout=5)`` returns the truthy value (re-checked on
  every change); with ``channel=`` (a channel or its id) only changes in that channel and
  changes naming no channel wake it, so many waiters on many channels stay cheap (``slash``
  and ``click`` wait that way on their interaction's channel); ``await
  fake.wait_for_message(channel_or_user, predicate)``.
- Debugging: ``fake.request_log`` ((method, path, status) of every request),
  ``fake.interactions`` (every ``FakeInteraction``: payload sent, response type, timing),
  ``fake.live_sessions()`` (gateway sessions: intents, seq, resumes), ``fake.typing_log``.

Teardown check (``FakeDiscord.serve()`` calls ``fake.assert_clean()``)
----------------------------------------------------------------------
- ``fake.violations``: what real Discord would have refused or flagged -- content > 2,000,
  > 10 embeds or embed limits, > 5 action rows, > 5 buttons per row, select + other in a row,
  > 25 select options, custom_id > 100 or duplicated, > 25 autocomplete choices or choice
  name/value > 100, files over ``attachment_size_limit`` (413), empty messages, invalid
  command definitions (names, descriptions, localizations, option order...), initial response
  after ``fake.ack_window`` (default 3 s, measured from dispatch; 404 10062), a second
  initial response (400 40060), follow-ups/edits before the initial response (10015) or after
  ``fake.token_ttl`` (15 min), wrong response type for the interaction, editing another
  user's message, reading/editing an ephemeral message through the channel API, missing
  permissions, and any REST route the fake doesn't implement; command definitions whose
  INTEGER/NUMBER ``min_value``/``max_value``/choices leave Discord's ±2^53.
- STRING option values reach the bot on one line, as Discord's client sends them (pasted
  line breaks become spaces); autocomplete choices must have the focused option's type.
- Option values Discord refuses before the bot hears of them (an INTEGER beyond ±2^53, a
  value outside the option's declared ``min_value``/``max_value``): ``fake.slash`` raises
  ``DiscordError`` (400 / 50035) and nothing is dispatched.
- ``fake.unanswered_interactions()``; ``fake.unfinished_deferrals()`` (still "thinking");
  ``fake.bot_errors`` (ERROR records of *every* logger while a client runs: discord.py's
  unhandled exceptions in commands/views, the bot's own ``log.exception(...)``, asyncio's
  "Task exception was never retrieved").
- Tests that provoke problems on purpose: ``fake.take_violations()``,
  ``fake.forget_interaction(result)``, and for ERROR records, by name, never in bulk:
  ``fake.take_bot_errors(pattern, logger=..., exc=..., count=1)`` consumes exactly the
  records whose message (or exception text) matches ``pattern`` and fails if their number
  is not ``count``; ``await fake.expect_bot_errors(...)`` first waits for them (errors
  logged by background tasks).
- Tune: ``fake.ack_window``, ``fake.token_ttl``, ``fake.followup_timeout``, ``fake.response_poll``,
  ``fake.attachment_size_limit``, ``fake.allowed_privileged_intents``.

Discord behaviours reproduced (worth knowing when reading failures)
-------------------------------------------------------------------
- The first follow-up after ``defer(thinking=True)`` *replaces* the "thinking" message (it
  keeps the defer's ephemeral flag); later follow-ups are new messages.
- Without the GUILD_PRESENCES intent GUILD_CREATE carries only the bot's member; with
  GUILD_MEMBERS discord.py then chunks (op 8, answered). Use ``interaction.user``.
- A rejected response (400) does not acknowledge: the bot may still answer in the window.
- Errors are always 4xx with Discord's ``{"code", "message", "errors"}`` bodies (5xx would
  make discord.py retry with sleeps).
- Threads: a thread started from a message takes the message's id (the message gets the
  HAS_THREAD flag and a ``thread`` field; a second thread from it is 400 / 160004); it is a
  type 11 channel with ``parent_id`` and ``thread_metadata`` (the ``auto_archive_duration``
  asked for: 60, 1440, 4320 or 10080), and inherits its parent's permissions. Creating one
  needs Create Public Threads, posting in one Send Messages in Threads (403 / 50013).
  Interactions run in a thread carry the thread as their channel. ``PATCH archived: true``
  archives it; an archived thread refuses other edits, member changes, message edits and
  reactions (400 / 50083) and application commands (CommandNotAvailable), and is reopened
  by a message from whoever may send, unless it is locked (then only Manage Threads).
  Setting ``locked`` or ``rate_limit_per_user`` needs Manage Threads, even for the
  thread's creator (who may rename and archive it without). Members: PUT/DELETE/GET
  ``thread-members`` (THREAD_MEMBERS_UPDATE), message authors join;
  ``fake.thread_members(thread)`` reads them, ``fake.create_thread(parent, name, 11,
  message)`` makes one as a user would, ``fake.auto_archive(thread)`` archives it as
  Discord does a thread left silent for its ``auto_archive_duration``.
"""

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
from .models import (
    FakeAttachment,
    FakeChannel,
    FakeGuild,
    FakeInteraction,
    FakeMember,
    FakeMessage,
    FakeRole,
    FakeUser,
    Violation,
)
from .results import InteractionResult
from .server import FakeDiscord

__all__ = [
    "CommandNotAvailable",
    "CommandNotSynced",
    "DeferredWithoutFollowup",
    "DiscordError",
    "FakeAttachment",
    "FakeChannel",
    "FakeDiscord",
    "FakeGuild",
    "FakeInteraction",
    "FakeMember",
    "FakeMessage",
    "FakeRole",
    "FakeUser",
    "HarnessError",
    "InteractionNotAcknowledged",
    "InteractionNotDelivered",
    "InteractionResult",
    "NoBotConnected",
    "Violation",
]
