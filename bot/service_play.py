"""Play, a part of :class:`~bot.service.HostService`.

Legal moves, playing, resigning and taking back a move: each checked and
committed in the match's locked transaction before the match in memory
changes, and the :class:`~bot.live.Update` that adapters announce. A mixin
of :class:`HostService`: see :mod:`bot.service_core` for how the parts fit
together.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from engine import Event, RulesError
from engine.core import Decision

from . import logcontext, ratings
from .i18n import game_text
from .live import HostError, LiveMatch, Update, private_key
from .service_core import HostCore
from .shards import shard_of
from .store import LockedMatch, StaleWrite


class PlayPart(HostCore):
    """Moves, resignations and take-backs."""

    # ---- play ------------------------------------------------------------------------
    def legal_moves(
        self, live: LiveMatch, user_id: int, locale: str = "en"
    ) -> list[tuple[str, str]]:
        """``(notation, label)`` of the user's legal actions, from memory."""
        seat = live.seat_of(user_id)
        if seat is None or live.match.is_over:
            return []
        game = live.game
        state = live.match.state
        return [
            (game.format_action(a), game_text(locale, game.describe_action(state, seat, a)))
            for a in game.legal_actions(state, seat)
        ]

    async def play(
        self,
        match_id: int,
        user_id: int,
        move: str,
        *,
        expected_version: int | None = None,
        seat: int | None = None,
        by_clock: bool = False,
        expired: tuple[float, int, bool] | None = None,
    ) -> Update:
        """Play ``move`` for ``user_id``'s seat: checked, committed and the
        clocks synced in the match's locked transaction, then accepted in
        memory. ``by_clock``: a bot decided for the absent player;
        ``expired``: ``(since, expiries, optional)`` of the clock that ran out
        (refused as ``stale`` unless that clock is still the seat's running
        one; the seat's count of expiries and its bank are written with the
        move)."""
        live = await self._lookup(match_id)  # checked again under the lock
        seats = live.seats_of(user_id)
        if not seats:
            raise HostError("not-seated")
        if seat is not None and seat not in seats:
            raise HostError("not-seated")
        with self._log_ids(live):
            async with live.lock:
                async with self._locked(live) as locked:
                    # checked against the database's match, reloaded if it was ahead
                    match = live.match
                    if live.status == "cancelled" and not match.is_over:
                        raise HostError("match-closed")
                    if expected_version is not None and expected_version != match.version:
                        raise HostError("stale")
                    if match.is_over:
                        raise HostError("game-over")
                    if seat is None:
                        seat = live.seat_of(user_id)
                        assert seat is not None
                    if seat not in match.pending():
                        raise HostError("not-your-turn")
                    before_pending = dict(match.pending())
                    try:
                        new_state, events, notation = match.preview(seat, move.strip())
                    except RulesError as err:
                        raise HostError("illegal", rules=err) from None
                    # committed first, with the clocks; only then does the
                    # match in memory change
                    await self._commit(locked, live, seat, notation, new_state, events)
                    saved = await self._sync_locked(
                        locked, live, new_state, moved=seat, by_clock=by_clock, expired=expired
                    )
                match.accept(seat, notation, new_state, events)
                live.clock_before.update(saved)
                self._after_commit(live)
                update = self._update(live, seat, notation, events, before_pending)
                if by_clock:
                    update = replace(update, by_clock=True)
            await self._refresh_players(live)
            self.kick_bots(live)
        return update

    def _log_ids(self, live: LiveMatch) -> contextlib.AbstractContextManager[None]:
        """Log lines about ``live`` carry its shard, server and match."""
        return logcontext.bind(
            shard=shard_of(live.guild_id, self.shards.count), guild=live.guild_id, match=live.id
        )

    @contextlib.asynccontextmanager
    async def _locked(self, live: LiveMatch) -> AsyncIterator[LockedMatch]:
        """The match's database lock (under ``live.lock``): when the database
        is ahead of memory (another process played, finished or cancelled
        the match), the match is read again and swapped into ``live`` first.
        Leaving the block commits what was written in it."""
        async with self.store.locked_match(live.id) as locked:
            if locked.version != live.match.version or locked.status != live.status:
                await self._reload(live)
            yield locked

    async def resign(self, match_id: int, user_id: int) -> Update:
        live = await self._lookup(match_id)  # checked again under the lock
        seats = live.seats_of(user_id)
        if not seats:
            raise HostError("not-seated")
        with self._log_ids(live):
            async with live.lock:
                async with self._locked(live) as locked:
                    match = live.match
                    if match.is_over:
                        raise HostError("game-over")
                    seat = next((s for s in seats if s not in live.resigned), None)
                    if seat is None:
                        raise HostError("already-resigned")
                    before_pending = dict(match.pending())
                    try:
                        new_state, events, notation = match.preview_resign(seat)
                    except RulesError as err:
                        raise HostError("illegal", rules=err) from None
                    await self._commit(
                        locked, live, seat, notation, new_state, events, resigned=seat
                    )
                    saved = await self._sync_locked(
                        locked, live, new_state, moved=seat, resigned=seat
                    )
                match.accept(seat, notation, new_state, events)
                live.clock_before.update(saved)
                live.resigned.add(seat)
                self._after_commit(live)
                update = self._update(live, seat, notation, events, before_pending)
            await self._refresh_players(live)
            self.kick_bots(live)
        return update

    async def commit_undo(self, live: LiveMatch, seat: int, version: int) -> Update:
        """Take back ``seat``'s last action (undo by consent, bot/undo.py):
        the ``!undo`` row and the previous state are committed first, then the
        match in memory changes; the clocks follow the pending seats again and
        the bots are kicked (a bot move thought on the undone version is
        refused by its version check)."""
        with self._log_ids(live):
            async with live.lock:
                async with self._locked(live) as locked:
                    match = live.match
                    if match.version != version or live.status == "cancelled":
                        raise HostError("undo-stale")
                    before_pending = dict(match.pending())
                    views = [match.view(s) for s in range(match.seats)]
                    try:
                        new_state, events, notation = match.preview_undo(
                            seat, expected_version=version
                        )
                    except RulesError as err:
                        raise HostError("illegal", rules=err) from None
                    await self._commit(locked, live, seat, notation, new_state, events)
                    await self._sync_locked(
                        locked, live, new_state, moved=None, undone=(seat, version)
                    )
                match.accept(seat, notation, new_state, events)
                live.clock_before.pop(seat, None)  # taken back: its saved row is spent
                changed = {s for s in range(match.seats) if match.view(s) != views[s]}
                update = self._update(live, seat, notation, events, before_pending, also=changed)
            await self._refresh_players(live)
            self.kick_bots(live)
        return update

    async def _commit(
        self,
        locked: LockedMatch,
        live: LiveMatch,
        seat: int,
        action: str,
        new_state: Any,
        events: Sequence[Event],
        resigned: int | None = None,
    ) -> None:
        game = live.game
        outcome = game.outcome(new_state)
        result = None
        finished = None
        if outcome is not None:
            ranking = [[live.user_of(s) for s in group] for group in outcome.ranking]
            result = (
                json.dumps({"seats": [list(g) for g in outcome.ranking], "users": ranking}),
                outcome.reason,
            )
            quitters = (
                live.resigned | live.replaced | ({resigned} if resigned is not None else set())
            )
            finished = ratings.FinishedMatch(
                match_id=live.id,
                guild_id=live.guild_id,
                game_id=live.game_id,
                seats=tuple(
                    ratings.SeatResult(
                        user_id=live.user_of(seat),
                        place=outcome.place(seat),
                        resigned=seat in quitters,
                        is_bot=seat in live.bots and seat not in live.replaced,
                    )
                    for seat in range(live.match.seats)
                ),
            )
        try:
            await locked.commit_action(
                expected_version=live.match.version,
                seat=seat,
                action=action,
                events=[e.to_json() for e in events],
                snapshot=game.dump_state(new_state).decode(),
                status="finished" if outcome is not None else "active",
                result=result,
                guild_id=live.guild_id,
                game_id=live.game_id,
                resigned_seat=resigned,
                finished=finished,
            )
        except StaleWrite:
            raise HostError("stale") from None

    def _after_commit(self, live: LiveMatch) -> None:
        if live.match.is_over:
            live.status = "finished"
            self.by_channel.pop(live.channel_id, None)
            self._retire(live)

    def _update(
        self,
        live: LiveMatch,
        seat: int,
        action: str,
        events: tuple[Event, ...],
        before_pending: Mapping[int, Decision],
        also: Iterable[int] = (),
    ) -> Update:
        match = live.match
        pending = match.pending()
        concerned = set(pending) | set(before_pending) | set(also)
        for ev in events:
            if ev.to is not None:
                concerned |= set(ev.to)
        # compared with what the seat was last shown (its key when it was last
        # concerned), not with the state just before: the seat's view may have
        # changed since, by actions that did not concern it
        changed = set()
        game, state, version = live.game, match.state, match.version
        for s in concerned:
            shown = live.private_keys.get(s)
            now = private_key(game, state, pending, s)
            live.private_keys[s] = (version, now)
            if shown is None or shown[1] != now:
                changed.add(s)
        return Update(
            live=live,
            version=match.version,
            seat=seat,
            action=action,
            events=events,
            pending=pending,
            outcome=match.outcome(),
            private_changed=frozenset(changed),
        )
