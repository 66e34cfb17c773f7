"""Plain data objects held by the fake Discord, and their JSON (Discord API v10) payloads."""

from __future__ import annotations

import datetime as dt
import io
import itertools
import mimetypes
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Protocol

DISCORD_EPOCH_MS = 1_420_070_400_000

# --- permission bits (https://discord.com/developers/docs/topics/permissions) ---------------
CREATE_INSTANT_INVITE = 1 << 0
ADMINISTRATOR = 1 << 3
MANAGE_CHANNELS = 1 << 4
MANAGE_GUILD = 1 << 5
ADD_REACTIONS = 1 << 6
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
MANAGE_MESSAGES = 1 << 13
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
MENTION_EVERYONE = 1 << 17
USE_EXTERNAL_EMOJIS = 1 << 18
CHANGE_NICKNAME = 1 << 26
MANAGE_ROLES = 1 << 28
USE_APPLICATION_COMMANDS = 1 << 31
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
CREATE_PRIVATE_THREADS = 1 << 36
SEND_MESSAGES_IN_THREADS = 1 << 38
ALL_PERMISSIONS = (1 << 53) - 1

DEFAULT_EVERYONE_PERMISSIONS = (
    CREATE_INSTANT_INVITE
    | ADD_REACTIONS
    | VIEW_CHANNEL
    | SEND_MESSAGES
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | USE_EXTERNAL_EMOJIS
    | CHANGE_NICKNAME
    | USE_APPLICATION_COMMANDS
    | CREATE_PUBLIC_THREADS
    | CREATE_PRIVATE_THREADS
    | SEND_MESSAGES_IN_THREADS
)
DEFAULT_BOT_PERMISSIONS = DEFAULT_EVERYONE_PERMISSIONS | MANAGE_MESSAGES | MANAGE_THREADS

# --- message flags ---------------------------------------------------------------------------
FLAG_SUPPRESS_EMBEDS = 1 << 2
FLAG_EPHEMERAL = 1 << 6
FLAG_LOADING = 1 << 7
FLAG_SUPPRESS_NOTIFICATIONS = 1 << 12
FLAG_IS_COMPONENTS_V2 = 1 << 15

# --- channel types ---------------------------------------------------------------------------
GUILD_TEXT = 0
DM = 1
GUILD_VOICE = 2
GUILD_CATEGORY = 4
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12
THREAD_TYPES = (10, PUBLIC_THREAD, PRIVATE_THREAD)
# https://discord.com/developers/docs/resources/channel#thread-metadata-object
THREAD_ARCHIVE_DURATIONS = (60, 1440, 4320, 10080)
FLAG_HAS_THREAD = 1 << 5  # message flag: a thread was started from this message

# --- gateway intents -------------------------------------------------------------------------
INTENT_GUILDS = 1 << 0
INTENT_GUILD_MEMBERS = 1 << 1
INTENT_GUILD_PRESENCES = 1 << 8
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_GUILD_MESSAGE_REACTIONS = 1 << 10
INTENT_DIRECT_MESSAGES = 1 << 12
INTENT_DIRECT_MESSAGE_REACTIONS = 1 << 13
INTENT_MESSAGE_CONTENT = 1 << 15
PRIVILEGED_INTENTS = {
    "members": INTENT_GUILD_MEMBERS,
    "presences": INTENT_GUILD_PRESENCES,
    "message_content": INTENT_MESSAGE_CONTENT,
}

VALID_LOCALES = frozenset(
    {
        "id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt", "hu",
        "nl", "no", "pl", "pt-BR", "ro", "fi", "sv-SE", "vi", "tr", "cs", "el", "bg", "ru",
        "uk", "hi", "th", "zh-CN", "ja", "zh-TW", "ko",
    }
)  # fmt: skip


class HasValue(Protocol):
    """Anything with an integer ``value`` (e.g. ``discord.Permissions``)."""

    @property
    def value(self) -> int: ...


def as_int_permissions(value: int | HasValue | None, default: int) -> int:
    if value is None:
        return default
    if isinstance(value, int):
        return value
    return int(value.value)


class SnowflakeFactory:
    """Generates increasing, time-based snowflakes (so ``created_at`` looks plausible)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._last = 0
        self._inc = itertools.count()

    def __call__(self) -> int:
        with self._lock:
            ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
            value = (ms << 22) | (next(self._inc) & 0xFFF)
            if value <= self._last:
                value = self._last + 1
            self._last = value
            return value

    def for_shard(self, shard_id: int, num_shards: int) -> int:
        """A snowflake whose guild would go to shard ``shard_id`` of ``num_shards``
        (``(id >> 22) % num_shards``): the next one, moved on to the next millisecond
        that lands there (a guild's id is its creation time)."""
        if num_shards < 1 or not 0 <= shard_id < num_shards:
            raise ValueError(f"no shard {shard_id} of {num_shards}")
        with self._lock:
            ms = max(int(time.time() * 1000) - DISCORD_EPOCH_MS, self._last >> 22)
            ms += (shard_id - ms) % num_shards
            value = (ms << 22) | (next(self._inc) & 0xFFF)
            if value <= self._last:
                value = ((ms + num_shards) << 22) | (value & 0xFFF)
            self._last = value
            return value


def iso(ts: dt.datetime | None) -> str | None:
    return ts.isoformat() if ts is not None else None


def now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


@dataclass(eq=False)
class FakeUser:
    id: int
    name: str
    locale: str = "en-US"
    bot: bool = False
    global_name: str | None = None
    dms_open: bool = True

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name,
            "discriminator": "0",
            "global_name": self.global_name if self.global_name is not None else self.name,
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
            "flags": 0,
            "banner": None,
            "accent_color": None,
        }

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def __repr__(self) -> str:
        return f"<FakeUser {self.name!r} id={self.id}>"


@dataclass(eq=False)
class FakeRole:
    id: int
    guild_id: int
    name: str
    permissions: int
    position: int = 0
    managed: bool = False

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "name": self.name,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": self.position,
            "permissions": str(self.permissions),
            "managed": self.managed,
            "mentionable": False,
            "flags": 0,
        }

    @property
    def mention(self) -> str:
        return f"<@&{self.id}>"


@dataclass(eq=False)
class FakeMember:
    user: FakeUser
    guild_id: int
    role_ids: list[int] = field(default_factory=list)
    nick: str | None = None
    joined_at: dt.datetime = field(default_factory=now)

    def payload(self, *, with_user: bool = True) -> dict[str, Any]:
        data: dict[str, Any] = {
            "roles": [str(r) for r in self.role_ids],
            "nick": self.nick,
            "avatar": None,
            "banner": None,
            "joined_at": iso(self.joined_at),
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
            "communication_disabled_until": None,
        }
        if with_user:
            data["user"] = self.user.payload()
        return data


@dataclass(eq=False)
class Overwrite:
    id: int
    type: int  # 0 = role, 1 = member
    allow: int = 0
    deny: int = 0

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "type": self.type,
            "allow": str(self.allow),
            "deny": str(self.deny),
        }


@dataclass(eq=False)
class FakeChannel:
    id: int
    type: int
    name: str | None = None
    guild_id: int | None = None
    position: int = 0
    topic: str | None = None
    parent_id: int | None = None
    overwrites: list[Overwrite] = field(default_factory=list)
    recipient: FakeUser | None = None  # for DMs
    owner_id: int | None = None  # for threads
    archived: bool = False
    locked: bool = False
    auto_archive_duration: int = 1440  # threads: minutes of silence before archiving
    archive_changed: dt.datetime | None = None  # threads: when ``archived`` last changed
    member_ids: set[int] = field(default_factory=set)  # threads: the thread's members
    message_count: int = 0  # threads: messages sent in it
    last_message_id: int | None = None
    created_at: dt.datetime = field(default_factory=now)

    @property
    def is_dm(self) -> bool:
        return self.type == DM

    @property
    def is_thread(self) -> bool:
        return self.type in THREAD_TYPES

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    def payload(self) -> dict[str, Any]:
        if self.type == DM:
            assert self.recipient is not None
            return {
                "id": str(self.id),
                "type": DM,
                "last_message_id": str(self.last_message_id) if self.last_message_id else None,
                "recipients": [self.recipient.payload()],
                "flags": 0,
            }
        data: dict[str, Any] = {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild_id),
            "name": self.name,
            "position": self.position,
            "parent_id": str(self.parent_id) if self.parent_id else None,
            "nsfw": False,
            "flags": 0,
            "rate_limit_per_user": 0,
            "last_message_id": str(self.last_message_id) if self.last_message_id else None,
        }
        if self.type in THREAD_TYPES:
            data.update(
                owner_id=str(self.owner_id) if self.owner_id else None,
                message_count=self.message_count,
                member_count=min(len(self.member_ids), 50),  # Discord stops counting at 50
                total_message_sent=self.message_count,
                thread_metadata={
                    "archived": self.archived,
                    "auto_archive_duration": self.auto_archive_duration,
                    "archive_timestamp": iso(self.archive_changed or self.created_at),
                    "locked": self.locked,
                    "invitable": True,
                    "create_timestamp": iso(self.created_at),
                },
            )
        else:
            data.update(
                topic=self.topic,
                permission_overwrites=[o.payload() for o in self.overwrites],
            )
            if self.type == GUILD_VOICE:
                data.update(bitrate=64000, user_limit=0, rtc_region=None)
        return data

    def __repr__(self) -> str:
        return f"<FakeChannel {self.name!r} id={self.id} type={self.type}>"


@dataclass(eq=False)
class FakeGuild:
    id: int
    name: str
    owner_id: int
    locale: str = "en-US"
    roles: dict[int, FakeRole] = field(default_factory=dict)
    members: dict[int, FakeMember] = field(default_factory=dict)
    channel_ids: list[int] = field(default_factory=list)
    bot_role_id: int | None = None
    created_at: dt.datetime = field(default_factory=now)

    @property
    def everyone(self) -> FakeRole:
        return self.roles[self.id]

    def __repr__(self) -> str:
        return f"<FakeGuild {self.name!r} id={self.id}>"


@dataclass(eq=False)
class FakeAttachment:
    """A stored upload; ``data`` holds the exact bytes the bot sent."""

    id: int
    filename: str
    data: bytes
    url: str
    content_type: str | None = None
    description: str | None = None
    ephemeral: bool = False
    width: int | None = None
    height: int | None = None

    @classmethod
    def create(
        cls,
        *,
        id: int,
        filename: str,
        data: bytes,
        url: str,
        description: str | None = None,
        ephemeral: bool = False,
    ) -> FakeAttachment:
        content_type = mimetypes.guess_type(filename)[0]
        width = height = None
        if content_type and content_type.startswith("image/"):
            try:
                from PIL import Image

                with Image.open(io.BytesIO(data)) as img:
                    width, height = img.size
            except Exception:
                pass
        return cls(
            id=id,
            filename=filename,
            data=data,
            url=url,
            content_type=content_type,
            description=description,
            ephemeral=ephemeral,
            width=width,
            height=height,
        )

    @property
    def size(self) -> int:
        return len(self.data)

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "filename": self.filename,
            "size": self.size,
            "url": self.url,
            "proxy_url": self.url,
            "content_type": self.content_type,
            "ephemeral": self.ephemeral,
        }
        if self.description is not None:
            data["description"] = self.description
        if self.width is not None:
            data["width"] = self.width
            data["height"] = self.height
        return data

    def __repr__(self) -> str:
        return f"<FakeAttachment {self.filename!r} {self.size} bytes>"


def _walk_components(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for comp in components:
        out.append(comp)
        if isinstance(comp.get("components"), list):
            out.extend(_walk_components(comp["components"]))
        for key in ("accessory", "component"):
            if isinstance(comp.get(key), dict):
                out.extend(_walk_components([comp[key]]))
    return out


@dataclass(eq=False)
class FakeMessage:
    """A message as stored by the fake. Edits are applied in place; ``history`` keeps old versions."""

    id: int
    channel_id: int
    author: FakeUser
    guild_id: int | None = None
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[FakeAttachment] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    tts: bool = False
    timestamp: dt.datetime = field(default_factory=now)
    edited_timestamp: dt.datetime | None = None
    webhook_id: int | None = None
    application_id: int | None = None
    interaction_metadata: dict[str, Any] | None = None
    message_reference: dict[str, Any] | None = None
    reactions: dict[str, set[int]] = field(default_factory=dict)
    visible_to: int | None = None  # user id for ephemeral messages
    deleted: bool = False
    history: list[dict[str, Any]] = field(default_factory=list)
    interaction_id: int | None = None
    thread_id: int | None = None  # the thread started from this message

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & FLAG_EPHEMERAL)

    @property
    def loading(self) -> bool:
        return bool(self.flags & FLAG_LOADING)

    @property
    def edited(self) -> bool:
        return self.edited_timestamp is not None

    @property
    def text(self) -> str:
        """Content plus every textual part of the embeds and v2 text displays, newline-joined."""
        parts: list[str] = [self.content] if self.content else []
        for embed in self.embeds:
            for key in ("title", "description"):
                if embed.get(key):
                    parts.append(str(embed[key]))
            if embed.get("author", {}).get("name"):
                parts.append(str(embed["author"]["name"]))
            for f in embed.get("fields", []):
                parts.append(f"{f.get('name', '')}\n{f.get('value', '')}")
            if embed.get("footer", {}).get("text"):
                parts.append(str(embed["footer"]["text"]))
        for comp in _walk_components(self.components):
            if comp.get("type") == 10 and comp.get("content"):
                parts.append(str(comp["content"]))
        return "\n".join(parts)

    def all_components(self) -> list[dict[str, Any]]:
        """Every component, nested ones included, in document order."""
        return _walk_components(self.components)

    def buttons(self) -> list[dict[str, Any]]:
        return [c for c in self.all_components() if c.get("type") == 2]

    def selects(self) -> list[dict[str, Any]]:
        return [c for c in self.all_components() if c.get("type") in (3, 5, 6, 7, 8)]

    def find_component(
        self, *, custom_id: str | None = None, label: str | None = None, types: tuple[int, ...] = ()
    ) -> dict[str, Any] | None:
        for comp in self.all_components():
            if types and comp.get("type") not in types:
                continue
            if custom_id is not None and comp.get("custom_id") != custom_id:
                continue
            if label is not None and comp.get("label") != label:
                continue
            if custom_id is None and label is None and not types:
                continue
            return comp
        return None

    def snapshot(self) -> dict[str, Any]:
        return {
            "content": self.content,
            "embeds": list(self.embeds),
            "components": list(self.components),
            "attachments": list(self.attachments),
            "flags": self.flags,
            "edited_timestamp": self.edited_timestamp,
        }

    def __repr__(self) -> str:
        preview = self.content if len(self.content) < 40 else self.content[:37] + "..."
        return f"<FakeMessage id={self.id} channel={self.channel_id} {preview!r}>"


@dataclass(frozen=True)
class Violation:
    """Something real Discord would have refused (or flagged) that the bot did."""

    kind: str
    message: str
    route: str = ""
    interaction_id: int | None = None

    def __str__(self) -> str:
        where = f" [{self.route}]" if self.route else ""
        return f"{self.kind}: {self.message}{where}"


@dataclass(eq=False)
class FakeInteraction:
    """Bookkeeping for one interaction the fake dispatched."""

    id: int
    token: str
    type: int  # 2 app command, 3 component, 4 autocomplete, 5 modal submit
    user: FakeUser
    channel: FakeChannel
    guild: FakeGuild | None
    data: dict[str, Any]
    payload: dict[str, Any]
    dispatched_at: float
    ack_window: float
    source_message_id: int | None = None  # component / modal-from-component
    response_type: int | None = None
    responded_at: float | None = None
    expired: bool = False
    deferred_ephemeral: bool = False
    original_message_id: int | None = None
    followup_ids: list[int] = field(default_factory=list)
    choices: list[dict[str, Any]] | None = None
    modal: dict[str, Any] | None = None
    forgotten: bool = False  # see FakeDiscord.forget_interaction
    ack_snapshot: tuple[int, int] | None = None  # (original's edit count, follow-ups) at ack
    #: live gateway connections it reached (0: its shard was not connected; a RESUME that
    #: replays it counts too)
    delivered: int = 0

    @property
    def acknowledged(self) -> bool:
        return self.response_type is not None

    @property
    def kind(self) -> str:
        return {
            1: "ping",
            2: "application_command",
            3: "component",
            4: "autocomplete",
            5: "modal_submit",
        }.get(self.type, str(self.type))

    def describe(self) -> str:
        what = self.data.get("name") or self.data.get("custom_id") or "?"
        return f"{self.kind} {what!r} (id={self.id}, user={self.user.name})"

    def __repr__(self) -> str:
        return f"<FakeInteraction {self.describe()} response_type={self.response_type}>"
