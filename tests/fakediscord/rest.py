"""The fake REST API (``/api/v10``) answering discord.py's real HTTP client."""

from __future__ import annotations

import json
import logging
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from aiohttp import BodyPartReader, web

from . import limits
from .errors import DiscordError
from .models import (
    ADMINISTRATOR,
    ATTACH_FILES,
    FLAG_EPHEMERAL,
    FLAG_IS_COMPONENTS_V2,
    FLAG_LOADING,
    FLAG_SUPPRESS_EMBEDS,
    FLAG_SUPPRESS_NOTIFICATIONS,
    GUILD_TEXT,
    MANAGE_CHANNELS,
    MANAGE_MESSAGES,
    MANAGE_THREADS,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    READ_MESSAGE_HISTORY,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    THREAD_ARCHIVE_DURATIONS,
    VIEW_CHANNEL,
    FakeChannel,
    FakeInteraction,
    FakeMessage,
    iso,
    now,
)

if TYPE_CHECKING:
    from .server import FakeDiscord

_log = logging.getLogger("tests.fakediscord.rest")

API = "/api/v10"
JSON_HEADERS = {"Content-Type": "application/json"}


@dataclass(frozen=True)
class Upload:
    index: int
    filename: str
    data: bytes
    content_type: str | None


def json_response(data: Any, status: int = 200) -> web.Response:
    body = json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode()
    # discord.py parses JSON only when Content-Type is *exactly* application/json.
    return web.Response(body=body, status=status, headers=JSON_HEADERS)


def no_content() -> web.Response:
    return web.Response(status=204)


async def read_body(request: web.Request) -> tuple[dict[str, Any], list[Upload]]:
    """Parse a JSON body or a multipart body with ``payload_json`` and ``files[n]``."""
    uploads: list[Upload] = []
    if request.content_type.startswith("multipart/"):
        payload: dict[str, Any] = {}
        reader = await request.multipart()
        while True:
            part = await reader.next()
            if part is None:
                break
            if not isinstance(part, BodyPartReader):  # nested multipart: not used by Discord
                continue
            name = part.name or ""
            raw = await part.read(decode=False)
            if name == "payload_json":
                payload = json.loads(bytes(raw).decode())
            else:
                m = re.fullmatch(r"files\[(\d+)\]|file(\d*)", name)
                if m is None:
                    raise DiscordError(
                        400,
                        50035,
                        "Invalid Form Body",
                        violation="invalid_form_body",
                        detail=f"unexpected multipart field {name!r}",
                    )
                index = int(m.group(1) or m.group(2) or 0)
                uploads.append(
                    Upload(
                        index=index,
                        filename=part.filename or f"file{index}",
                        data=bytes(raw),
                        content_type=part.headers.get("Content-Type"),
                    )
                )
        return payload, uploads
    text = await request.text()
    if not text:
        return {}, []
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise DiscordError(400, 50109, "The request body contains invalid JSON.") from exc
    if not isinstance(data, dict):
        return {"__list__": data}, []
    return data, []


def _snowflake(value: str) -> int:
    try:
        return int(value)
    except ValueError as exc:
        raise DiscordError(404, 0, "404: Not Found") from exc


def form_error(errors: list[limits.FieldError], *, kind: str = "invalid_form_body") -> DiscordError:
    body = limits.error_body(errors)
    return DiscordError(
        400,
        50035,
        "Invalid Form Body",
        errors=body["errors"],
        violation=kind,
        detail="; ".join(str(e) for e in errors),
    )


class RestAPI:
    """All REST handlers; they mutate the :class:`FakeDiscord` state."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake

    # -- app wiring -----------------------------------------------------------------------

    def add_routes(self, app: web.Application) -> None:
        r = app.router
        a = API
        r.add_get(f"{a}/gateway", self.get_gateway)
        r.add_get(f"{a}/gateway/bot", self.get_gateway_bot)
        r.add_get(f"{a}/users/@me", self.get_me)
        r.add_get(f"{a}/users/@me/guilds", self.get_my_guilds)
        r.add_post(f"{a}/users/@me/channels", self.create_dm)
        r.add_get(f"{a}/users/{{user_id}}", self.get_user)
        r.add_get(f"{a}/oauth2/applications/@me", self.get_application)
        r.add_get(f"{a}/applications/@me", self.get_application)
        # application commands
        base = f"{a}/applications/{{app_id}}"
        for prefix in (f"{base}/commands", f"{base}/guilds/{{guild_id}}/commands"):
            r.add_get(f"{prefix}/permissions", self.get_command_permissions)
            r.add_get(prefix, self.list_commands)
            r.add_put(prefix, self.bulk_overwrite_commands)
            r.add_post(prefix, self.upsert_command)
            r.add_get(f"{prefix}/{{command_id}}", self.get_command)
            r.add_patch(f"{prefix}/{{command_id}}", self.edit_command)
            r.add_delete(f"{prefix}/{{command_id}}", self.delete_command)
        # channels & messages
        c = f"{a}/channels/{{channel_id}}"
        r.add_get(c, self.get_channel)
        r.add_patch(c, self.edit_channel)
        r.add_delete(c, self.delete_channel)
        r.add_get(f"{c}/messages", self.list_messages)
        r.add_post(f"{c}/messages", self.create_message)
        r.add_post(f"{c}/messages/bulk-delete", self.bulk_delete)
        r.add_get(f"{c}/messages/{{message_id}}", self.get_message)
        r.add_patch(f"{c}/messages/{{message_id}}", self.edit_message)
        r.add_delete(f"{c}/messages/{{message_id}}", self.delete_message)
        r.add_put(f"{c}/messages/{{message_id}}/reactions/{{emoji}}/@me", self.add_reaction)
        r.add_delete(f"{c}/messages/{{message_id}}/reactions/{{emoji}}/@me", self.remove_reaction)
        r.add_delete(f"{c}/messages/{{message_id}}/reactions", self.clear_reactions)
        r.add_post(f"{c}/typing", self.typing)
        r.add_post(f"{c}/threads", self.create_thread)
        r.add_post(f"{c}/messages/{{message_id}}/threads", self.create_thread)
        r.add_get(f"{c}/thread-members", self.list_thread_members)
        r.add_put(f"{c}/thread-members/{{member}}", self.thread_member)
        r.add_delete(f"{c}/thread-members/{{member}}", self.thread_member)
        # guilds
        g = f"{a}/guilds/{{guild_id}}"
        r.add_get(g, self.get_guild)
        r.add_get(f"{g}/channels", self.get_guild_channels)
        r.add_get(f"{g}/roles", self.get_guild_roles)
        r.add_get(f"{g}/members", self.list_members)
        r.add_get(f"{g}/members/{{user_id}}", self.get_member)
        # interactions & webhooks
        r.add_post(f"{a}/interactions/{{interaction_id}}/{{token}}/callback", self.callback)
        w = f"{a}/webhooks/{{app_id}}/{{token}}"
        r.add_post(w, self.followup)
        r.add_get(f"{w}/messages/{{message_id}}", self.get_webhook_message)
        r.add_patch(f"{w}/messages/{{message_id}}", self.edit_webhook_message)
        r.add_delete(f"{w}/messages/{{message_id}}", self.delete_webhook_message)
        # attachments (CDN)
        r.add_get("/attachments/{attachment_id}/{filename}", self.get_attachment)

    @web.middleware
    async def middleware(self, request: web.Request, handler: Any) -> web.StreamResponse:
        fake = self.fake
        route = f"{request.method} {request.path}"
        try:
            if request.path.startswith(API) and not request.path.startswith(
                (f"{API}/interactions/", f"{API}/webhooks/")
            ):
                auth = request.headers.get("Authorization", "")
                if auth != f"Bot {fake.token}":
                    raise DiscordError(401, 0, "401: Unauthorized")
            response: web.StreamResponse = await handler(request)
        except DiscordError as err:
            if err.violation:
                fake.record_violation(
                    err.violation,
                    err.detail or err.message,
                    route=route,
                    interaction_id=self._interaction_id_of(request),
                )
            response = json_response(err.body(), err.status)
        except web.HTTPException as exc:
            if exc.status in (404, 405) and request.path.startswith(API):
                fake.record_violation(
                    "unsupported_route",
                    f"the fake does not implement {route}",
                    route=route,
                )
                response = json_response(
                    {"code": 0, "message": f"{exc.status}: {exc.reason}"}, exc.status
                )
            else:
                raise
        except ConnectionError:
            # the client went away in the middle of its request (a bot process killed while
            # it uploaded a message): no whole request reached Discord, nothing is done and
            # nobody is there to read an answer; aiohttp drops the connection
            fake.request_log.append((request.method, request.path, 0))
            raise
        except Exception as exc:  # a bug in the fake: never let discord.py retry a 5xx
            _log.exception("fake discord crashed on %s", route)
            fake.record_violation(
                "fake_internal_error", f"{type(exc).__name__}: {exc}", route=route
            )
            response = json_response({"code": 0, "message": f"fake internal error: {exc}"}, 400)
        fake.request_log.append((request.method, request.path, response.status))
        return response

    # -- helpers --------------------------------------------------------------------------

    def _interaction_id_of(self, request: web.Request) -> int | None:
        info = request.match_info
        if "interaction_id" in info:
            try:
                return int(info["interaction_id"])
            except ValueError:
                return None
        if "token" in info:
            inter = self.fake.interactions_by_token.get(info["token"])
            return inter.id if inter is not None else None
        return None

    def _channel(self, request: web.Request) -> FakeChannel:
        cid = _snowflake(request.match_info["channel_id"])
        channel = self.fake.channels.get(cid)
        if channel is None:
            raise DiscordError(404, 10003, "Unknown Channel")
        return channel

    def _require(self, channel: FakeChannel, perms: int, what: str) -> None:
        fake = self.fake
        if channel.is_dm:
            return
        have = fake.permissions_for(fake.bot_user.id, channel)
        if not have & VIEW_CHANNEL:
            raise DiscordError(
                403, 50001, "Missing Access", violation="missing_access", detail=what
            )
        if have & perms != perms:
            raise DiscordError(
                403, 50013, "Missing Permissions", violation="missing_permissions", detail=what
            )

    def _has(self, channel: FakeChannel, perms: int) -> bool:
        have = self.fake.permissions_for(self.fake.bot_user.id, channel)
        return have & perms == perms

    def _message(self, channel: FakeChannel, request: web.Request) -> FakeMessage:
        mid = _snowflake(request.match_info["message_id"])
        msg = self.fake.messages.get(mid)
        if msg is None or msg.deleted or msg.channel_id != channel.id:
            raise DiscordError(404, 10008, "Unknown Message")
        if msg.ephemeral:
            raise DiscordError(
                404,
                10008,
                "Unknown Message",
                violation="ephemeral_via_channel",
                detail="ephemeral messages can only be read/edited through the interaction webhook",
            )
        return msg

    def _check_files(self, uploads: list[Upload], limit: int) -> None:
        for up in uploads:
            if len(up.data) > limit:
                raise DiscordError(
                    413,
                    40005,
                    "Request entity too large",
                    violation="file_too_large",
                    detail=f"{up.filename} is {len(up.data)} bytes, limit is {limit}",
                )

    def _validate(
        self,
        payload: dict[str, Any],
        uploads: list[Upload],
        *,
        limit: int,
        editing: FakeMessage | None = None,
    ) -> None:
        """Check files, limits and emptiness of a create body or (``editing``) an edit body."""
        self._check_files(uploads, limit)
        errors = limits.validate_message(payload, n_files=len(uploads))
        if errors:
            raise form_error(errors)
        result = payload
        if editing is not None:
            kept = payload.get("attachments")
            result = {
                "content": payload.get("content", editing.content),
                "embeds": payload.get("embeds", editing.embeds),
                "components": payload.get("components", editing.components),
                "attachments": kept if isinstance(kept, list) else editing.attachments,
            }
        n_files = len(uploads) + (len(result.get("attachments") or []) if editing else 0)
        if limits.is_empty_message(result, n_files):
            raise DiscordError(
                400,
                50006,
                "Cannot send an empty message",
                violation="empty_message",
                detail="no content, embeds, components, stickers, poll or files"
                + (" left after the edit" if editing else ""),
            )

    # -- misc -----------------------------------------------------------------------------

    async def get_gateway(self, request: web.Request) -> web.Response:
        return json_response({"url": self.fake.gateway_url})

    async def get_gateway_bot(self, request: web.Request) -> web.Response:
        """The gateway's address, the recommended number of shards (about one per 1,000
        guilds) and the session start limit, which each IDENTIFY uses up
        (https://discord.com/developers/docs/events/gateway#get-gateway-bot,
        #session-start-limit-object)."""
        fake = self.fake
        total = fake.session_start_total
        return json_response(
            {
                "url": fake.gateway_url,
                "shards": fake.recommended_shard_count(),
                "session_start_limit": {
                    "total": total,
                    "remaining": max(0, total - fake.identify_count),
                    "reset_after": 86_400_000,
                    "max_concurrency": 1,
                },
            }
        )

    async def get_me(self, request: web.Request) -> web.Response:
        return json_response(self.fake.bot_user_payload())

    async def get_my_guilds(self, request: web.Request) -> web.Response:
        return json_response(
            [
                {
                    "id": str(g.id),
                    "name": g.name,
                    "icon": None,
                    "owner": False,
                    "permissions": str(self.fake.base_permissions(self.fake.bot_user.id, g)),
                    "features": [],
                }
                for g in self.fake.bot_guilds()
            ]
        )

    async def get_user(self, request: web.Request) -> web.Response:
        user = self.fake.users.get(_snowflake(request.match_info["user_id"]))
        if user is None:
            raise DiscordError(404, 10013, "Unknown User")
        return json_response(user.payload())

    async def create_dm(self, request: web.Request) -> web.Response:
        payload, _ = await read_body(request)
        try:
            recipient = int(payload.get("recipient_id") or 0)
        except (TypeError, ValueError):
            recipient = 0
        user = self.fake.users.get(recipient)
        if user is None:
            # Discord refuses a DM channel with anyone it does not know (a
            # negative or made-up id included) as it refuses GET /users/{id}.
            raise DiscordError(404, 10013, "Unknown User")
        return json_response(self.fake.dm_channel(user).payload())

    async def get_application(self, request: web.Request) -> web.Response:
        return json_response(self.fake.application_payload())

    # -- application commands -------------------------------------------------------------

    def _command_scope(self, request: web.Request) -> int | None:
        if _snowflake(request.match_info["app_id"]) != self.fake.application_id:
            raise DiscordError(
                403,
                50001,
                "Missing Access",
                violation="wrong_application_id",
                detail="application id does not match the bot",
            )
        gid = request.match_info.get("guild_id")
        if gid is None:
            return None
        guild_id = _snowflake(gid)
        if guild_id not in self.fake.guilds:
            raise DiscordError(
                403,
                50001,
                "Missing Access",
                violation="missing_access",
                detail=f"unknown guild {guild_id}",
            )
        return guild_id

    async def get_command_permissions(self, request: web.Request) -> web.Response:
        self._command_scope(request)
        return json_response([])

    async def list_commands(self, request: web.Request) -> web.Response:
        scope = self._command_scope(request)
        return json_response(list(self.fake.command_store(scope).values()))

    async def bulk_overwrite_commands(self, request: web.Request) -> web.Response:
        scope = self._command_scope(request)
        payload, _ = await read_body(request)
        commands = payload.get("__list__")
        if not isinstance(commands, list):
            raise form_error(
                [limits.FieldError((), "LIST_TYPE_CONVERT", "Must be an array.")],
                kind="invalid_commands",
            )
        errors = limits.validate_command_set(commands)
        if errors:
            raise form_error(errors, kind="invalid_commands")
        return json_response(self.fake.overwrite_commands(scope, commands))

    async def upsert_command(self, request: web.Request) -> web.Response:
        scope = self._command_scope(request)
        payload, _ = await read_body(request)
        errors = limits.validate_command(payload)
        if errors:
            raise form_error(errors, kind="invalid_commands")
        return json_response(self.fake.upsert_command(scope, payload), 201)

    def _stored_command(self, request: web.Request) -> tuple[int | None, dict[str, Any]]:
        scope = self._command_scope(request)
        cid = _snowflake(request.match_info["command_id"])
        cmd = self.fake.command_store(scope).get(cid)
        if cmd is None:
            raise DiscordError(404, 10063, "Unknown application command")
        return scope, cmd

    async def get_command(self, request: web.Request) -> web.Response:
        _, cmd = self._stored_command(request)
        return json_response(cmd)

    async def edit_command(self, request: web.Request) -> web.Response:
        scope, cmd = self._stored_command(request)
        payload, _ = await read_body(request)
        merged = {
            k: v for k, v in cmd.items() if k not in ("id", "application_id", "version", "guild_id")
        }
        merged.update(payload)
        errors = limits.validate_command(merged)
        if errors:
            raise form_error(errors, kind="invalid_commands")
        return json_response(self.fake.upsert_command(scope, merged))

    async def delete_command(self, request: web.Request) -> web.Response:
        scope, cmd = self._stored_command(request)
        del self.fake.command_store(scope)[int(cmd["id"])]
        return no_content()

    # -- channels -------------------------------------------------------------------------

    async def get_channel(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        if not channel.is_dm:
            self._require(channel, VIEW_CHANNEL, "view channel")
        return json_response(channel.payload())

    async def edit_channel(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        payload, _ = await read_body(request)
        if channel.is_dm:
            raise DiscordError(
                400, 50003, "Cannot execute action on a DM channel", violation="invalid_action"
            )
        needed = MANAGE_THREADS if channel.is_thread else MANAGE_CHANNELS
        if not (channel.is_thread and channel.owner_id == self.fake.bot_user.id):
            self._require(channel, needed, "edit channel")
        if channel.is_thread:
            # https://discord.com/developers/docs/resources/channel#modify-channel-json-params-thread:
            # "Requires the thread to have archived set to false or be set to false in the
            # request"; a locked thread is unarchived by MANAGE_THREADS only
            still_archived = payload.get("archived", True) is not False
            if channel.archived and still_archived and set(payload) - {"archived", "locked"}:
                raise _archived_thread()
            if channel.archived and payload.get("archived") is False and channel.locked:
                self._require(channel, MANAGE_THREADS, "unarchive a locked thread")
            # https://discord.com/developers/docs/topics/threads#editing--deleting-threads:
            # "Editing a thread to change `rate_limit_per_user` or `locked` requires
            # `MANAGE_THREADS`", even for the thread's creator
            if {"locked", "rate_limit_per_user"} & set(payload):
                self._require(channel, MANAGE_THREADS, "lock a thread or set its slowmode")
            duration = payload.get("auto_archive_duration")
            if duration is not None:
                if duration not in THREAD_ARCHIVE_DURATIONS:
                    raise _bad_archive_duration()
                channel.auto_archive_duration = int(duration)
        if "name" in payload:
            name = payload["name"]
            errs: list[limits.FieldError] = []
            limits._len_between(name, 1, 100, ("name",), errs)
            if errs:
                raise form_error(errs)
            channel.name = name
        if "topic" in payload:
            channel.topic = payload["topic"]
        if "archived" in payload and bool(payload["archived"]) != channel.archived:
            channel.archived = bool(payload["archived"])
            channel.archive_changed = now()
        if "locked" in payload:
            channel.locked = bool(payload["locked"])
        event = "THREAD_UPDATE" if channel.is_thread else "CHANNEL_UPDATE"
        self.fake.dispatch(event, channel.payload(), guild_id=channel.guild_id)
        self.fake._notify(channel.id, channel.parent_id or channel.id)
        return json_response(channel.payload())

    async def delete_channel(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        if channel.is_dm:
            return json_response(channel.payload())
        needed = MANAGE_THREADS if channel.is_thread else MANAGE_CHANNELS
        self._require(channel, needed, "delete channel")
        self.fake.remove_channel(channel)
        return json_response(channel.payload())

    async def list_messages(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        self._require(channel, VIEW_CHANNEL | READ_MESSAGE_HISTORY, "read message history")
        q = request.query
        limit = max(1, min(100, int(q.get("limit", "50"))))
        msgs = [m for m in self.fake.channel_messages(channel, include_ephemeral=False)]
        if "before" in q:
            msgs = [m for m in msgs if m.id < int(q["before"])]
            msgs = msgs[-limit:]
        elif "after" in q:
            msgs = [m for m in msgs if m.id > int(q["after"])]
            msgs = msgs[:limit]
        elif "around" in q:
            around = int(q["around"])
            older = [m for m in msgs if m.id <= around]
            newer = [m for m in msgs if m.id > around]
            half = limit // 2
            msgs = older[-(limit - half) :] + newer[:half]
        else:
            msgs = msgs[-limit:]
        msgs.reverse()
        return json_response([self.fake.message_payload(m) for m in msgs])

    async def create_message(self, request: web.Request) -> web.Response:
        fake = self.fake
        channel = self._channel(request)
        payload, uploads = await read_body(request)
        if channel.is_dm:
            assert channel.recipient is not None
            if not channel.recipient.dms_open:
                raise DiscordError(403, 50007, "Cannot send messages to this user")
        else:
            send = SEND_MESSAGES_IN_THREADS if channel.is_thread else SEND_MESSAGES
            self._require(channel, send, "send message")
            if uploads:
                self._require(channel, send | ATTACH_FILES, "attach files")
            if channel.is_thread and channel.locked:
                # https://discord.com/developers/docs/topics/threads: a locked thread
                # takes messages only from members with MANAGE_THREADS
                if channel.archived and not self._has(channel, MANAGE_THREADS):
                    raise _archived_thread()
                self._require(channel, MANAGE_THREADS, "send to a locked thread")
        self._validate(payload, uploads, limit=fake.attachment_size_limit)
        payload = dict(payload)
        payload["flags"] = int(payload.get("flags") or 0) & (
            FLAG_SUPPRESS_EMBEDS | FLAG_SUPPRESS_NOTIFICATIONS | FLAG_IS_COMPONENTS_V2
        )
        reference = payload.get("message_reference")
        if reference is not None:
            ref_id = int(reference.get("message_id") or 0)
            ref = fake.messages.get(ref_id)
            if ref is None or ref.deleted:
                if reference.get("fail_if_not_exists", True):
                    raise form_error(
                        [
                            limits.FieldError(
                                ("message_reference",),
                                "MESSAGE_REFERENCE_UNKNOWN_MESSAGE",
                                "Unknown message",
                            )
                        ],
                        kind="invalid_reference",
                    )
                reference = None
        if channel.is_thread and channel.archived:
            # sending to an archived, unlocked thread unarchives it
            channel.archived = False
            channel.archive_changed = now()
            fake.dispatch("THREAD_UPDATE", channel.payload(), guild_id=channel.guild_id)
        msg = fake.create_message(
            channel,
            fake.bot_user,
            payload,
            uploads,
            type=19 if reference else 0,
            reference=reference,
        )
        return json_response(fake.message_payload(msg))

    async def get_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        self._require(channel, VIEW_CHANNEL | READ_MESSAGE_HISTORY, "read message history")
        return json_response(self.fake.message_payload(self._message(channel, request)))

    async def edit_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        msg = self._message(channel, request)
        payload, uploads = await read_body(request)
        _refuse_if_archived(channel)
        if msg.author.id != self.fake.bot_user.id:
            only_flags = set(payload) <= {"flags"}
            if not only_flags:
                raise DiscordError(
                    403,
                    50005,
                    "Cannot edit a message authored by another user",
                    violation="edit_foreign_message",
                    detail=f"message {msg.id} by {msg.author.name}",
                )
            self._require(channel, MANAGE_MESSAGES, "suppress embeds")
        self._validate(payload, uploads, limit=self.fake.attachment_size_limit, editing=msg)
        self.fake.apply_edit(msg, payload, uploads)
        return json_response(self.fake.message_payload(msg))

    async def delete_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        msg = self._message(channel, request)
        if msg.author.id != self.fake.bot_user.id:
            self._require(channel, MANAGE_MESSAGES, "delete another user's message")
        self.fake.delete_message(msg)
        return no_content()

    async def bulk_delete(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        self._require(channel, MANAGE_MESSAGES, "bulk delete")
        payload, _ = await read_body(request)
        ids = [int(x) for x in payload.get("messages", [])]
        if not 2 <= len(ids) <= 100:
            raise form_error(
                [
                    limits.FieldError(
                        ("messages",),
                        "BASE_TYPE_BAD_LENGTH",
                        "Must be between 2 and 100 in length.",
                    )
                ]
            )
        for mid in ids:
            msg = self.fake.messages.get(mid)
            if msg is not None and msg.channel_id == channel.id and not msg.deleted:
                self.fake.delete_message(msg)
        return no_content()

    async def add_reaction(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        msg = self._message(channel, request)
        _refuse_if_archived(channel)
        emoji = request.match_info["emoji"]
        self.fake.set_reaction(msg, self.fake.bot_user, emoji, add=True)
        return no_content()

    async def remove_reaction(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        msg = self._message(channel, request)
        _refuse_if_archived(channel)
        self.fake.set_reaction(msg, self.fake.bot_user, request.match_info["emoji"], add=False)
        return no_content()

    async def clear_reactions(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        self._require(channel, MANAGE_MESSAGES, "clear reactions")
        msg = self._message(channel, request)
        msg.reactions.clear()
        self.fake._notify(channel.id)
        return no_content()

    async def typing(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        if not channel.is_dm:
            self._require(channel, VIEW_CHANNEL, "typing")
        self.fake.typing_log.append(channel.id)
        return no_content()

    async def create_thread(self, request: web.Request) -> web.Response:
        fake = self.fake
        parent = self._channel(request)
        payload, _ = await read_body(request)
        if parent.type != GUILD_TEXT:
            raise DiscordError(
                400, 50024, "Cannot execute action on this channel type", violation="invalid_action"
            )
        from_message = request.match_info.get("message_id")
        source: FakeMessage | None = None
        if from_message is not None:
            source = self._message(parent, request)
            ttype = PUBLIC_THREAD
        else:
            ttype = int(payload.get("type") or PRIVATE_THREAD)
        from .models import CREATE_PRIVATE_THREADS, CREATE_PUBLIC_THREADS

        self._require(
            parent,
            CREATE_PUBLIC_THREADS if ttype == PUBLIC_THREAD else CREATE_PRIVATE_THREADS,
            "create thread",
        )
        name = payload.get("name")
        errs: list[limits.FieldError] = []
        limits._len_between(name, 1, 100, ("name",), errs)
        if errs:
            raise form_error(errs)
        duration = payload.get("auto_archive_duration") or 1440
        if duration not in THREAD_ARCHIVE_DURATIONS:
            raise _bad_archive_duration()
        if source is not None and source.thread_id is not None:
            raise DiscordError(
                400,
                160004,
                "A thread has already been created for this message",
                violation="invalid_action",
            )
        thread = fake.create_thread(parent, str(name), ttype, source, int(duration))
        return json_response(fake.thread_payload(thread), 201)

    async def list_thread_members(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        if not channel.is_thread:
            raise DiscordError(
                400, 50024, "Cannot execute action on this channel type", violation="invalid_action"
            )
        self._require(channel, VIEW_CHANNEL, "list thread members")
        return json_response(
            [
                {
                    "id": str(channel.id),
                    "user_id": str(uid),
                    "join_timestamp": iso(channel.created_at),
                    "flags": 0,
                }
                for uid in sorted(channel.member_ids)
            ]
        )

    async def thread_member(self, request: web.Request) -> web.Response:
        """PUT/DELETE /channels/{thread}/thread-members/{@me | user}
        (https://discord.com/developers/docs/resources/channel#add-thread-member): the
        thread must not be archived; adding someone else needs Send Messages in
        Threads, removing someone else Manage Threads."""
        fake = self.fake
        channel = self._channel(request)
        if not channel.is_thread:
            raise DiscordError(
                400, 50024, "Cannot execute action on this channel type", violation="invalid_action"
            )
        if channel.archived:
            raise _archived_thread()
        who = request.match_info["member"]
        add = request.method == "PUT"
        user = fake.bot_user if who == "@me" else fake.users.get(_snowflake(who))
        guild = fake.guild_of(channel)
        if user is None or guild is None or user.id not in guild.members:
            raise DiscordError(404, 10007, "Unknown Member")
        if user.id != fake.bot_user.id:
            needed = SEND_MESSAGES_IN_THREADS if add else MANAGE_THREADS
            self._require(channel, needed, "add a thread member" if add else "remove one")
        else:
            self._require(channel, VIEW_CHANNEL, "join a thread")
        fake.set_thread_member(channel, user, add=add)
        return no_content()

    # -- guilds ---------------------------------------------------------------------------

    def _guild_of(self, request: web.Request) -> Any:
        guild = self.fake.guilds.get(_snowflake(request.match_info["guild_id"]))
        if guild is None or self.fake.bot_user.id not in guild.members:
            raise DiscordError(404, 10004, "Unknown Guild")
        return guild

    async def get_guild(self, request: web.Request) -> web.Response:
        guild = self._guild_of(request)
        return json_response(self.fake.guild_payload(guild))

    async def get_guild_channels(self, request: web.Request) -> web.Response:
        guild = self._guild_of(request)
        return json_response(
            [
                self.fake.channels[c].payload()
                for c in guild.channel_ids
                if not self.fake.channels[c].is_thread
            ]
        )

    async def get_guild_roles(self, request: web.Request) -> web.Response:
        guild = self._guild_of(request)
        return json_response([r.payload() for r in guild.roles.values()])

    async def list_members(self, request: web.Request) -> web.Response:
        guild = self._guild_of(request)
        limit = max(1, min(1000, int(request.query.get("limit", "1"))))
        after = int(request.query.get("after", "0"))
        members = sorted(guild.members.values(), key=lambda m: m.user.id)
        members = [m for m in members if m.user.id > after][:limit]
        return json_response([m.payload() for m in members])

    async def get_member(self, request: web.Request) -> web.Response:
        guild = self._guild_of(request)
        member = guild.members.get(_snowflake(request.match_info["user_id"]))
        if member is None:
            raise DiscordError(404, 10007, "Unknown Member")
        return json_response(member.payload())

    # -- attachments ----------------------------------------------------------------------

    async def get_attachment(self, request: web.Request) -> web.Response:
        att = self.fake.attachments.get(_snowflake(request.match_info["attachment_id"]))
        if att is None or att.filename != request.match_info["filename"]:
            return web.Response(status=404, text="Not Found")
        return web.Response(
            body=att.data,
            headers={"Content-Type": att.content_type or "application/octet-stream"},
        )

    # -- interactions ---------------------------------------------------------------------

    async def callback(self, request: web.Request) -> web.Response:
        fake = self.fake
        iid = _snowflake(request.match_info["interaction_id"])
        inter = fake.interactions.get(iid)
        if inter is None or inter.token != request.match_info["token"]:
            raise DiscordError(
                404,
                10062,
                "Unknown interaction",
                violation="unknown_interaction",
                detail=f"no interaction {iid} with that token",
            )
        payload, uploads = await read_body(request)
        now = fake.loop_time()
        if inter.acknowledged:
            raise DiscordError(
                400,
                40060,
                "Interaction has already been acknowledged.",
                violation="double_ack",
                detail=f"{inter.describe()} already answered with type {inter.response_type}",
            )
        elapsed = now - inter.dispatched_at
        if elapsed > inter.ack_window:
            inter.expired = True
            fake._notify(inter.channel.id)
            raise DiscordError(
                404,
                10062,
                "Unknown interaction",
                violation="late_ack",
                detail=f"initial response to {inter.describe()} came {elapsed:.2f}s after dispatch (window {inter.ack_window}s)",
            )
        rtype = payload.get("type")
        data = payload.get("data") or {}
        allowed = {
            1: {1},
            2: {4, 5, 9},
            3: {4, 5, 6, 7, 9},
            4: {8},
            5: {4, 5, 6, 7},
        }.get(inter.type, set())
        if rtype not in allowed or (rtype in (6, 7) and inter.source_message_id is None):
            raise form_error(
                [
                    limits.FieldError(
                        ("type",),
                        "INTERACTION_RESPONSE_TYPE_INVALID",
                        f"Response type {rtype!r} is not valid for a {inter.kind} interaction",
                    )
                ],
                kind="invalid_response_type",
            )
        message: FakeMessage | None = None
        if rtype == 4:
            self._validate(data, uploads, limit=fake.attachment_size_limit)
            message = fake.create_interaction_message(inter, data, uploads)
            inter.original_message_id = message.id
        elif rtype == 5:
            flags = int(data.get("flags") or 0)
            inter.deferred_ephemeral = bool(flags & FLAG_EPHEMERAL)
            message = fake.create_interaction_message(
                inter, {"content": "", "flags": (flags & FLAG_EPHEMERAL) | FLAG_LOADING}, []
            )
            inter.original_message_id = message.id
        elif rtype in (6, 7):
            if rtype == 7:
                assert inter.source_message_id is not None
                message = fake.messages[inter.source_message_id]
                self._validate(data, uploads, limit=fake.attachment_size_limit, editing=message)
                fake.apply_edit(message, data, uploads)
            inter.original_message_id = inter.source_message_id
        elif rtype == 8:
            errors = limits.validate_choices(data.get("choices"), limits.focused_type(inter.data))
            if errors:
                raise form_error(errors, kind="invalid_autocomplete")
            inter.choices = list(data.get("choices") or [])
        elif rtype == 9:
            errors = limits.validate_modal(data)
            if errors:
                raise form_error(errors, kind="invalid_modal")
            inter.modal = data
        inter.response_type = int(rtype)
        inter.responded_at = now
        original = fake.messages.get(inter.original_message_id or 0)
        inter.ack_snapshot = (-1 if original is None else len(original.history), 0)
        fake._notify(inter.channel.id)
        if request.query.get("with_response") not in ("1", "true", "True"):
            return no_content()
        body: dict[str, Any] = {
            "interaction": {
                "id": str(inter.id),
                "type": inter.type,
                "response_message_loading": rtype == 5,
                "response_message_ephemeral": bool(message is not None and message.ephemeral),
            },
        }
        if message is not None:
            body["interaction"]["response_message_id"] = str(message.id)
        if rtype != 1:
            resource: dict[str, Any] = {"type": rtype}
            if message is not None:
                resource["message"] = fake.message_payload(message)
            body["resource"] = resource
        return json_response(body)

    def _webhook_interaction(self, request: web.Request) -> FakeInteraction:
        fake = self.fake
        app_id = _snowflake(request.match_info["app_id"])
        inter = fake.interactions_by_token.get(request.match_info["token"])
        if inter is None or app_id != fake.application_id:
            raise DiscordError(
                404,
                10015,
                "Unknown Webhook",
                violation="unknown_webhook",
                detail="no interaction with that token",
            )
        age = fake.loop_time() - inter.dispatched_at
        if age > fake.token_ttl:
            raise DiscordError(
                401,
                50027,
                "Invalid Webhook Token",
                violation="expired_token",
                detail=f"token of {inter.describe()} used {age:.0f}s after dispatch (valid {fake.token_ttl:.0f}s)",
            )
        if not inter.acknowledged:
            raise DiscordError(
                404,
                10015,
                "Unknown Webhook",
                violation="webhook_before_ack",
                detail=f"{inter.describe()} used its webhook before the initial response",
            )
        if inter.response_type == 8:
            raise DiscordError(
                404,
                10015,
                "Unknown Webhook",
                violation="webhook_after_autocomplete",
                detail=inter.describe(),
            )
        return inter

    def _webhook_message(self, inter: FakeInteraction, request: web.Request) -> FakeMessage:
        raw = request.match_info["message_id"]
        if raw == "@original":
            mid = inter.original_message_id
            if mid is None:
                raise DiscordError(
                    404,
                    10008,
                    "Unknown Message",
                    violation="no_original_response",
                    detail=f"{inter.describe()} has no original response message (response type {inter.response_type})",
                )
        else:
            mid = _snowflake(raw)
            if mid != inter.original_message_id and mid not in inter.followup_ids:
                raise DiscordError(404, 10008, "Unknown Message")
        msg = self.fake.messages.get(mid)
        if msg is None or msg.deleted:
            raise DiscordError(404, 10008, "Unknown Message")
        return msg

    async def followup(self, request: web.Request) -> web.Response:
        fake = self.fake
        inter = self._webhook_interaction(request)
        payload, uploads = await read_body(request)
        self._validate(payload, uploads, limit=fake.attachment_size_limit)
        original = fake.messages.get(inter.original_message_id or 0)
        if (
            inter.response_type == 5
            and original is not None
            and original.loading
            and not original.deleted
        ):
            # The first follow-up after a "thinking" defer replaces the loading message.
            edit = dict(payload)
            edit["flags"] = (int(payload.get("flags") or 0) & ~FLAG_EPHEMERAL) | (
                FLAG_EPHEMERAL if inter.deferred_ephemeral else 0
            )
            fake.apply_edit(original, edit, uploads, mark_edited=False)
            msg = original
        else:
            msg = fake.create_interaction_message(inter, payload, uploads, followup=True)
        wait = request.query.get("wait", "false").lower() in ("1", "true")
        return json_response(fake.message_payload(msg)) if wait else no_content()

    async def get_webhook_message(self, request: web.Request) -> web.Response:
        inter = self._webhook_interaction(request)
        return json_response(self.fake.message_payload(self._webhook_message(inter, request)))

    async def edit_webhook_message(self, request: web.Request) -> web.Response:
        inter = self._webhook_interaction(request)
        msg = self._webhook_message(inter, request)
        payload, uploads = await read_body(request)
        self._validate(payload, uploads, limit=self.fake.attachment_size_limit, editing=msg)
        was_loading = msg.loading
        self.fake.apply_edit(msg, payload, uploads, mark_edited=not was_loading)
        return json_response(self.fake.message_payload(msg))

    async def delete_webhook_message(self, request: web.Request) -> web.Response:
        inter = self._webhook_interaction(request)
        msg = self._webhook_message(inter, request)
        self.fake.delete_message(msg)
        return no_content()


__all__ = ["ADMINISTRATOR", "RestAPI", "Upload", "json_response"]


def _archived_thread() -> DiscordError:
    """https://discord.com/developers/docs/topics/opcodes-and-status-codes#json (50083)."""
    return DiscordError(
        400, 50083, "Operation cannot be performed on an archived thread", violation="archived"
    )


def _refuse_if_archived(channel: FakeChannel | None) -> None:
    """https://discord.com/developers/docs/topics/threads#active--archived-threads:
    "Users cannot edit messages, add reactions, use application commands, or join
    archived threads" (deleting messages is the one thing left)."""
    if channel is not None and channel.is_thread and channel.archived:
        raise _archived_thread()


def _bad_archive_duration() -> DiscordError:
    return form_error(
        [
            limits.FieldError(
                ("auto_archive_duration",),
                "BASE_TYPE_CHOICES",
                f"Value must be one of {set(THREAD_ARCHIVE_DURATIONS)}.",
            )
        ]
    )
