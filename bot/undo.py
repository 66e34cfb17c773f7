"""Undo by consent, the host's side (issue 16), with no Discord import.

A player asks to take back their own last action (:meth:`UndoDesk.request`);
the engine says whether it may be (``Match.undo_refusal``: nothing to undo,
not their last move, someone acted since, hidden information revealed, the
match is over). Every other human seat still playing must accept
(:meth:`UndoDesk.answer`) within ``ClockConfig.undo_seconds``; bot seats
accept at once, so a request against bots only is granted on the spot. A
refusal, the time limit (:meth:`UndoDesk.expire`, run by the service's
``tick``) or the match moving on ends the request.

The undo itself is :meth:`HostService.commit_undo`: the ``!undo`` row and the
previous state are committed in one transaction before anything is said.
Requests are kept in the store (``undo_requests``) so that the buttons of a
waiting request still work after a restart; a click for another match version
is refused as stale.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field, replace
from typing import Any

from engine.match import UNDO, undone_entries

from .service import HostError, HostService, LiveMatch, Update

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class UndoRequest:
    """A take-back request waiting for answers."""

    match_id: int
    version: int  # the match version it is about
    seat: int  # whose last action
    user_id: int  # who asked
    asked: frozenset[int]  # the users who must accept
    accepted: frozenset[int] = frozenset()
    deadline: float = 0.0
    message_id: int = 0  # the public message with the buttons (adapters)

    @property
    def waiting(self) -> frozenset[int]:
        return self.asked - self.accepted


@dataclass(frozen=True)
class UndoResult:
    """What a request or an answer led to. ``status``: ``"asked"`` (waiting
    for the others), ``"noted"`` (an acceptance, others still to answer),
    ``"done"`` (the move was taken back: ``update``), ``"refused"`` (by
    ``by``), ``"expired"``."""

    status: str
    request: UndoRequest
    live: LiveMatch
    update: Update | None = None
    by: int | None = None


@dataclass
class UndoDesk:
    """The take-back requests of a service's matches (one per match at most)."""

    host: HostService
    requests: dict[int, UndoRequest] = field(default_factory=dict)
    loaded: bool = False

    @classmethod
    def of(cls, host: HostService) -> UndoDesk:
        """The desk of a service (made once; its expiry runs in ``tick``)."""
        desk = host.extensions.get("undo")
        if not isinstance(desk, UndoDesk):
            desk = cls(host)
            host.extensions["undo"] = desk
            host.tick_hooks.append(desk.expire)
        return desk

    async def load(self) -> None:
        """The requests saved before a restart."""
        if self.loaded:
            return
        self.loaded = True
        for row in await self.host.store.undo_requests():
            match_id, version, seat, user_id, asked, accepted, deadline, message_id = row
            self.requests[match_id] = UndoRequest(
                match_id,
                version,
                seat,
                user_id,
                frozenset(int(x) for x in asked.split()),
                frozenset(int(x) for x in accepted.split()),
                deadline,
                message_id,
            )

    async def counts(self, match_ids: list[int]) -> dict[int, int]:
        """Moves taken back in finished matches (``results.undos``), for ``/history``."""
        return await self.host.store.undo_counts(match_ids)

    def pending(self, match_id: int) -> UndoRequest | None:
        return self.requests.get(match_id)

    async def _save(self, request: UndoRequest) -> None:
        self.requests[request.match_id] = request
        await self.host.store.save_undo_request(
            request.match_id,
            version=request.version,
            seat=request.seat,
            user_id=request.user_id,
            asked=" ".join(str(u) for u in sorted(request.asked)),
            accepted=" ".join(str(u) for u in sorted(request.accepted)),
            deadline=request.deadline,
            message_id=request.message_id,
        )

    async def _drop(self, match_id: int) -> None:
        self.requests.pop(match_id, None)
        await self.host.store.drop_undo_request(match_id)

    async def set_message(self, match_id: int, message_id: int) -> None:
        """Remember the public message that carries a request's buttons."""
        request = self.requests.get(match_id)
        if request is not None:
            await self._save(replace(request, message_id=message_id))

    # ---- asking and answering -------------------------------------------------------
    async def request(self, match_id: int, user_id: int) -> UndoResult:
        """``user_id`` asks to take back their last action. Refusals are
        :class:`HostError` (``undo-not-player``, ``undo-pending``,
        ``undo-refused-<reason>``)."""
        await self.load()
        host = self.host
        live = await host.get_match(match_id)
        seats = live.seats_of(user_id)
        if not seats:
            raise HostError("undo-not-player")
        match = live.match
        if match.is_over:
            raise HostError("undo-refused-over")
        old = self.requests.get(match_id)
        if old is not None:
            if old.version == match.version and old.deadline > host.now():
                raise HostError("undo-pending")
            await self._drop(match_id)  # void: the match moved on, or too late
        last_seat = match.actions[-1][0] if match.actions else None
        seat = last_seat if last_seat in seats else seats[0]
        refusal = match.undo_refusal(seat)
        if refusal is not None:
            raise HostError(f"undo-refused-{refusal.reason}")
        asked = frozenset(
            live.user_of(s)
            for s in range(match.seats)
            if s != seat
            and s not in live.bots
            and s not in live.resigned
            and live.user_of(s) != user_id
        )
        request = UndoRequest(
            match_id,
            match.version,
            seat,
            user_id,
            asked,
            deadline=host.now() + host.clock_config.undo_seconds,
        )
        if not asked:  # only bots (and the player's own seats): they accept at once
            update = await host.commit_undo(live, seat, request.version)
            return UndoResult("done", request, live, update)
        await self._save(request)
        return UndoResult("asked", request, live)

    async def answer(self, match_id: int, version: int, user_id: int, accept: bool) -> UndoResult:
        """An asked player accepts or refuses. Refusals: ``undo-stale`` (no
        request for that version any more), ``undo-not-asked``."""
        await self.load()
        request = self.requests.get(match_id)
        if request is None or request.version != version:
            raise HostError("undo-stale")
        live = await self.host.get_match(match_id)
        late = request.deadline <= self.host.now()  # before the tick closed it
        if live.match.version != version or live.match.is_over or late:
            await self._drop(match_id)
            raise HostError("undo-stale")
        if user_id not in request.asked:
            raise HostError("undo-not-asked")
        if not accept:
            await self._drop(match_id)
            return UndoResult("refused", request, live, by=user_id)
        request = replace(request, accepted=request.accepted | {user_id})
        if request.waiting:
            await self._save(request)
            return UndoResult("noted", request, live, by=user_id)
        await self._drop(match_id)
        update = await self.host.commit_undo(live, request.seat, version)
        return UndoResult("done", request, live, update, by=user_id)

    async def expire(self, now: float) -> None:
        """Close the requests past their time (called by the service's tick)
        and those whose match moved on; listeners with an ``on_undo_closed``
        method hear of each."""
        await self.load()
        for match_id, request in list(self.requests.items()):
            live = self.host.matches.get(match_id)
            if live is None and await self._elsewhere(match_id):
                # another process's match (a shared database): its own desk
                # closes the request; this one forgets it
                self.requests.pop(match_id, None)
                continue
            void = live is None or live.match.version != request.version or live.match.is_over
            if not void and request.deadline > now:
                continue
            await self._drop(match_id)
            if live is None:
                continue
            result = UndoResult("expired", request, live)
            for listener in list(self.host.listeners):
                hook = getattr(listener, "on_undo_closed", None)
                if hook is None:
                    continue
                try:
                    await hook(result)
                except Exception:
                    log.exception("listener failed on a closed undo request")

    async def _elsewhere(self, match_id: int) -> bool:
        """Whether a match not in memory belongs to another process (its
        server's shard is not this process's): only on a shared database."""
        host = self.host
        if not host.shared:
            return False
        row = await host.store.match(match_id)
        return row is not None and not host.shards.owns(row.guild_id)


def undo_count(actions: Any) -> int:
    """How many entries of a record are ``!undo``."""
    return sum(1 for _, text in actions if text == UNDO)


def undone_steps(actions: Any) -> frozenset[int]:
    """Record steps (1-based, as the replay viewer counts) that were taken back."""
    return frozenset(i + 1 for i in undone_entries(actions))
