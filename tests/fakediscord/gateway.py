"""The fake gateway: a JSON websocket speaking Discord's gateway v10 protocol.

Sharding, as Discord does it (https://discord.com/developers/docs/events/gateway#sharding):
a session that IDENTIFYs with ``shard: [shard_id, num_shards]`` receives the events of the
guilds with ``(guild_id >> 22) % num_shards == shard_id`` only, and direct messages only on
shard 0; a session without ``shard`` receives everything. An invalid shard closes the
connection with 4010, a session that would hold more than 2,500 guilds with 4011
(https://discord.com/developers/docs/topics/opcodes-and-status-codes#gateway-gateway-close-event-codes).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import logging
import uuid
import zlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

from .models import PRIVILEGED_INTENTS

if TYPE_CHECKING:
    from .server import FakeDiscord

_log = logging.getLogger("tests.fakediscord.gateway")

OP_DISPATCH = 0
OP_HEARTBEAT = 1
OP_IDENTIFY = 2
OP_PRESENCE = 3
OP_VOICE_STATE = 4
OP_RESUME = 6
OP_RECONNECT = 7
OP_REQUEST_MEMBERS = 8
OP_INVALID_SESSION = 9
OP_HELLO = 10
OP_HEARTBEAT_ACK = 11

CLOSE_INVALID_SHARD = 4010  # "You sent an invalid shard when identifying."
CLOSE_SHARDING_REQUIRED = 4011  # "The session would have handled too many guilds"
#: "Each shard can only support a maximum of 2500 guilds" (gateway#sharding)
MAX_GUILDS_PER_SESSION = 2500


def shard_of(guild_id: int | None, num_shards: int) -> int:
    """Discord's formula: ``shard_id = (guild_id >> 22) % num_shards``; direct messages
    (no guild) go to shard 0 (https://discord.com/developers/docs/events/gateway#sharding)."""
    if guild_id is None or num_shards <= 1:
        return 0
    return (guild_id >> 22) % num_shards


class _Every:
    """The scope of an event sent to every session whatever its shard (``fake.dispatch``)."""

    def __repr__(self) -> str:
        return "EVERY_SHARD"


EVERY_SHARD = _Every()
Scope = int | None | _Every


@dataclass(eq=False)
class GatewaySession:
    """One identified gateway session; survives reconnects until it is invalidated."""

    session_id: str
    intents: int
    seq: int = 0
    buffer: collections.deque[dict[str, Any]] = field(
        default_factory=lambda: collections.deque(maxlen=5000)
    )
    connection: GatewayConnection | None = None
    invalidated: bool = False
    resumes: int = 0
    identified_at: float = 0.0
    #: ``(shard_id, num_shards)`` from IDENTIFY; None: an unsharded session (every event)
    shard: tuple[int, int] | None = None

    @property
    def live(self) -> bool:
        return not self.invalidated and self.connection is not None and not self.connection.closed

    def has_intent(self, intent: int) -> bool:
        return bool(self.intents & intent)

    def receives(self, guild_id: Scope) -> bool:
        """Whether events of ``guild_id`` (None: a direct message) reach this session."""
        if self.shard is None or isinstance(guild_id, _Every):
            return True
        shard_id, num_shards = self.shard
        return shard_of(guild_id, num_shards) == shard_id


class GatewayConnection:
    """One websocket; payloads are queued and written in order by a single writer task."""

    def __init__(self, ws: web.WebSocketResponse, compress: str | None, path: str) -> None:
        self.ws = ws
        self.compress = compress
        self.path = path
        self.session: GatewaySession | None = None
        self.closed = False
        self.close_code: int | None = None
        self.heartbeats = 0
        self._zlib = zlib.compressobj() if compress == "zlib-stream" else None
        self._queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self._writer = asyncio.create_task(self._write_loop(), name="fakediscord-gateway-writer")

    def send(self, payload: dict[str, Any]) -> None:
        if not self.closed:
            self._queue.put_nowait(payload)

    async def _write_loop(self) -> None:
        while True:
            payload = await self._queue.get()
            if payload is None:
                return
            raw = json.dumps(payload, separators=(",", ":"), ensure_ascii=False)
            try:
                if self._zlib is not None:
                    data = self._zlib.compress(raw.encode()) + self._zlib.flush(zlib.Z_SYNC_FLUSH)
                    await self.ws.send_bytes(data)
                else:
                    await self.ws.send_str(raw)
            except (ConnectionError, RuntimeError):
                self.closed = True
                return

    async def close(self, code: int = 1000, message: bytes = b"") -> None:
        if not self.ws.closed:
            await self.flush()
            with contextlib.suppress(Exception):
                await self.ws.close(code=code, message=message)
        await self._stop_writer()

    async def flush(self) -> None:
        while not self._queue.empty() and not self._writer.done():
            await asyncio.sleep(0)

    async def _stop_writer(self) -> None:
        self.closed = True
        if not self._writer.done():
            self._queue.put_nowait(None)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._writer, 1.0)
        if not self._writer.done():
            self._writer.cancel()


class Gateway:
    """Accepts websocket connections and drives the HELLO/IDENTIFY/RESUME life cycle."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.sessions: dict[str, GatewaySession] = {}
        self.connections: list[GatewayConnection] = []
        self.heartbeat_interval_ms = 41_250

    # -- helpers --------------------------------------------------------------------------

    def live_sessions(self) -> list[GatewaySession]:
        return [s for s in self.sessions.values() if s.live]

    def sessions_of(self, guild_id: Scope) -> list[GatewaySession]:
        """The valid (live or resumable) sessions that receive ``guild_id``'s events."""
        return [s for s in self.sessions.values() if not s.invalidated and s.receives(guild_id)]

    def dispatch(
        self,
        event: str,
        data: Any,
        *,
        intent: int | None = None,
        guild_id: Scope = EVERY_SHARD,
    ) -> int:
        """Send a DISPATCH to every valid session of ``guild_id``'s shard (None: a direct
        message, shard 0; ``EVERY_SHARD``: every session). ``data`` may be a
        callable(session) -> dict.

        Returns how many live connections were sent the event.
        """
        delivered = 0
        for session in self.sessions_of(guild_id):
            if intent is not None and not session.has_intent(intent):
                continue
            body = data(session) if callable(data) else data
            if body is None:
                continue
            session.seq += 1
            payload = {"op": OP_DISPATCH, "t": event, "s": session.seq, "d": body}
            session.buffer.append(payload)
            if session.live and session.connection is not None:
                session.connection.send(payload)
                delivered += 1
        return delivered

    async def close_all(self, code: int = 1001) -> None:
        for conn in list(self.connections):
            await conn.close(code=code)

    def reconnect_all(self) -> int:
        """Ask every live connection to reconnect (op 7); clients then RESUME."""
        n = 0
        for session in self.live_sessions():
            assert session.connection is not None
            session.connection.send({"op": OP_RECONNECT, "d": None})
            n += 1
        return n

    def invalidate_all(self) -> None:
        for session in self.live_sessions():
            assert session.connection is not None
            session.connection.send({"op": OP_INVALID_SESSION, "d": False})
            session.invalidated = True

    # -- websocket handler ------------------------------------------------------------------

    async def handle(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(max_msg_size=0, autoclose=True, autoping=True)
        await ws.prepare(request)
        compress = request.query.get("compress")
        if compress not in ("zlib-stream",):
            # zstd-stream is not implemented: plain text frames are always understood by
            # discord.py (it only decompresses binary frames).
            compress = None
        conn = GatewayConnection(ws, compress, request.path)
        self.connections.append(conn)
        conn.send({"op": OP_HELLO, "d": {"heartbeat_interval": self.heartbeat_interval_ms}})
        try:
            while True:
                msg = await ws.receive()
                if msg.type == WSMsgType.TEXT:
                    try:
                        payload = json.loads(msg.data)
                    except ValueError:
                        await conn.close(4002, b"Decode error")
                        break
                    if not await self._on_payload(conn, payload):
                        break
                elif msg.type == WSMsgType.BINARY:
                    await conn.close(4002, b"Decode error")
                    break
                elif msg.type == WSMsgType.CLOSE:
                    conn.close_code = int(msg.data) if msg.data is not None else None
                    break
                else:  # CLOSING, CLOSED, ERROR
                    break
        finally:
            if conn.close_code is None:
                conn.close_code = ws.close_code
            await conn.close()
            session = conn.session
            if session is not None and session.connection is conn:
                session.connection = None
                if conn.close_code in (1000, 1001):
                    # A clean close ends the session: it can't be resumed (as on Discord).
                    session.invalidated = True
            self.fake._notify()
        return ws

    async def _on_payload(self, conn: GatewayConnection, payload: dict[str, Any]) -> bool:
        op = payload.get("op")
        data = payload.get("d")
        if op == OP_HEARTBEAT:
            conn.heartbeats += 1
            conn.send({"op": OP_HEARTBEAT_ACK, "d": None})
        elif op == OP_IDENTIFY:
            return await self._identify(conn, data or {})
        elif op == OP_RESUME:
            return await self._resume(conn, data or {})
        elif op == OP_REQUEST_MEMBERS:
            self._request_members(conn, data or {})
        elif op in (OP_PRESENCE, OP_VOICE_STATE):
            pass
        else:
            await conn.close(4001, b"Unknown opcode")
            return False
        return True

    async def _identify(self, conn: GatewayConnection, data: dict[str, Any]) -> bool:
        fake = self.fake
        if conn.session is not None:
            await conn.close(4005, b"Already authenticated")
            return False
        if data.get("token") != fake.token:
            await conn.close(4004, b"Authentication failed")
            return False
        intents = int(data.get("intents") or 0)
        disallowed = [
            name
            for name, bit in PRIVILEGED_INTENTS.items()
            if intents & bit and name not in fake.allowed_privileged_intents
        ]
        if disallowed:
            await conn.close(4014, b"Disallowed intent(s)")
            return False
        shard: tuple[int, int] | None = None
        if data.get("shard") is not None:
            try:
                shard_id, num_shards = (int(x) for x in data["shard"])
            except (TypeError, ValueError):
                await conn.close(CLOSE_INVALID_SHARD, b"Invalid shard")
                return False
            if num_shards <= 0 or not 0 <= shard_id < num_shards:
                await conn.close(CLOSE_INVALID_SHARD, b"Invalid shard")
                return False
            shard = (shard_id, num_shards)
        probe = GatewaySession(session_id="", intents=intents, shard=shard)
        guilds = [g for g in fake.bot_guilds() if probe.receives(g.id)]
        if len(guilds) > fake.max_guilds_per_session:
            await conn.close(CLOSE_SHARDING_REQUIRED, b"Sharding required")
            return False
        fake.identify_count += 1
        session = GatewaySession(session_id=uuid.uuid4().hex, intents=intents, shard=shard)
        session.identified_at = asyncio.get_running_loop().time()
        self.sessions[session.session_id] = session
        session.connection = conn
        conn.session = session
        ready: dict[str, Any] = {
            "v": 10,
            "user": fake.bot_user_payload(),
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.session_id,
            "session_type": "normal",
            "resume_gateway_url": fake.resume_gateway_url,
            "application": {"id": str(fake.application_id), "flags": fake.application_flags()},
            "private_channels": [],
            "presences": [],
            "relationships": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "user_settings": {},
            "auth": {},
            "_trace": ["fakediscord"],
        }
        if shard is not None:
            ready["shard"] = list(shard)
        self._send_to(session, "READY", ready)
        for guild in guilds:
            self._send_to(session, "GUILD_CREATE", fake.guild_create_payload(guild, session))
        fake._notify()
        return True

    async def _resume(self, conn: GatewayConnection, data: dict[str, Any]) -> bool:
        session = self.sessions.get(str(data.get("session_id")))
        if data.get("token") != self.fake.token or session is None or session.invalidated:
            conn.send({"op": OP_INVALID_SESSION, "d": False})
            return True
        if session.connection is not None and session.connection is not conn:
            await session.connection.close(4000)
        session.connection = conn
        conn.session = session
        last = int(data.get("seq") or 0)
        for payload in list(session.buffer):
            if payload["s"] > last:
                conn.send(payload)
                if payload["t"] == "INTERACTION_CREATE":
                    inter = self.fake.interactions.get(int(payload["d"]["id"]))
                    if inter is not None:
                        inter.delivered += 1
        session.resumes += 1
        self._send_to(session, "RESUMED", {"_trace": ["fakediscord"]})
        self.fake._notify()
        return True

    def _request_members(self, conn: GatewayConnection, data: dict[str, Any]) -> None:
        fake = self.fake
        guild = fake.guilds.get(int(data.get("guild_id") or 0))
        if guild is None or conn.session is None or not conn.session.receives(guild.id):
            return  # a guild of another shard: this session knows nothing of it
        members = list(guild.members.values())
        user_ids = data.get("user_ids")
        if user_ids:
            wanted = {int(u) for u in user_ids}
            members = [m for m in members if m.user.id in wanted]
        query = data.get("query")
        if query:
            members = [m for m in members if m.user.name.lower().startswith(str(query).lower())]
        limit = int(data.get("limit") or 0)
        if limit:
            members = members[:limit]
        body: dict[str, Any] = {
            "guild_id": str(guild.id),
            "members": [m.payload() for m in members],
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
        }
        if data.get("nonce"):
            body["nonce"] = data["nonce"]
        self._send_to(conn.session, "GUILD_MEMBERS_CHUNK", body)

    def _send_to(self, session: GatewaySession, event: str, body: dict[str, Any]) -> None:
        session.seq += 1
        payload = {"op": OP_DISPATCH, "t": event, "s": session.seq, "d": body}
        session.buffer.append(payload)
        if session.connection is not None:
            session.connection.send(payload)
