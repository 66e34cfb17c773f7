"""Bots, the clock and moves made by other processes, a part of
:class:`~bot.service.HostService`.

The background tasks that play bot seats, the turn clocks (synced with
every action, reminded and expired by :meth:`tick`), and catching up with
the moves other processes commit (their notifications and the sweep). A
mixin of :class:`HostService`: see :mod:`bot.service_core` for how the parts
fit together.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from typing import Any

from engine.core import Decision

from . import logcontext
from .live import ClockRow, HostError, LiveMatch, Lobby, Update
from .service_core import HostCore
from .shards import shard_of
from .store import LockedMatch
from .workers import think

# the service's one logger, whichever part logs (tests and log filters name it)
log = logging.getLogger("bot.service")

BOT_STALE_RETRIES = 3
"""How many stale refusals in a row, on a match whose version did not move on,
a bot driver takes (reloading the match each time) before it gives up until the
next kick, notification or sweep."""


class BotsPart(HostCore):
    """Bots, clocks and other processes' moves."""

    # ---- bots and the clock ------------------------------------------------------------------
    def kick_bots(self, live: LiveMatch) -> None:
        """Let the bots play the decisions that are theirs (in the background).
        Only the process that owns the match drives its bots."""
        if not self._drives(live):
            return
        if not any(seat in live.bots for seat in live.match.pending()):
            return
        task = self._bot_tasks.get(live.id)
        if task is not None and not task.done():
            return
        self._bot_tasks[live.id] = asyncio.get_running_loop().create_task(self._drive_bots(live))

    async def _drive_bots(self, live: LiveMatch) -> None:
        logcontext.set_ids(
            shard=shard_of(live.guild_id, self.shards.count), guild=live.guild_id, match=live.id
        )
        stale = 0  # stale refusals in a row
        while True:
            match = live.match
            if not self._drives(live):
                return
            seats = [s for s in sorted(match.pending()) if s in live.bots]
            if not seats:
                return
            seat = seats[0]
            level = live.bot_levels.get(seat, "normal")
            try:
                notation, version = await self._bot_move(live, seat, level)
                update = await self.play(
                    live.id, live.user_of(seat), notation, expected_version=version, seat=seat
                )
            except HostError as err:
                if err.key == "stale":
                    # the match moved on meanwhile (here or in another process):
                    # play reloaded it if the database was ahead; think again.
                    # A player moving while the bot thinks (both to decide at
                    # once: Belle Position's deployment) is progress, however
                    # often; only refusals on a match that did not move on
                    # count (a loop), a few times
                    stale = 0 if live.version > version else stale + 1
                    if stale <= BOT_STALE_RETRIES:
                        continue
                    log.warning(
                        "bot of match %s seat %s: %s stale refusals in a row, stopped",
                        live.id,
                        seat,
                        stale,
                    )
                    return
                log.warning("bot of match %s seat %s refused: %s", live.id, seat, err.key)
                return
            except Exception:
                log.exception("bot of match %s seat %s failed", live.id, seat)
                return
            stale = 0
            await self._notify_update(update)

    async def _bot_move(self, live: LiveMatch, seat: int, level: str) -> tuple[str, int]:
        """A bot's choice for a seat, thought out off the event loop: ``hard``
        (about a second of pure Python) in :attr:`bot_workers` when given,
        the others (milliseconds) in a thread."""
        from engine import rng
        from engine.bots import Budget, bot_rng, has_bots

        match = live.match
        version = match.version
        legal = list(match.legal_actions(seat))
        state = bot_rng(match.seed, seat, str(version))
        if not has_bots(live.game_id):
            # a game whose bots are not written yet: a random legal action, from
            # a generator derived from the match's seed (the same after a
            # restart), so that an absent player never stalls the match
            action, _ = rng.choice(state, legal)
            return live.game.format_action(action), version
        view = match.view(seat)
        cfg = self.clock_config
        budget = Budget(
            iterations=cfg.bot_iterations,
            seconds=cfg.bot_seconds if self.bot_clock is not None else None,
            clock=self.bot_clock,
        )
        args = (live.game_id, level, view, legal, state, budget)
        if level == "hard" and self.bot_workers is not None:
            action, _ = await self.bot_workers.run(think, *args)
        else:
            action, _ = await asyncio.to_thread(think, *args)
        return live.game.format_action(action), version

    async def _notify_update(self, update: Update) -> None:
        for listener in list(self.listeners):
            try:
                await listener.on_update(update)
            except Exception:
                log.exception("listener failed on an update")

    async def wait_for_bots(self) -> None:
        """Until no bot is thinking (tests, shutdown)."""
        while True:
            tasks = [t for t in self._bot_tasks.values() if not t.done()]
            if not tasks:
                return
            await asyncio.gather(*tasks, return_exceptions=True)

    async def _sync_clock(self, live: LiveMatch) -> None:
        """Start the clock of seats that now have a decision, stop the others
        (a match just started, or caught up with another process's moves), in
        the match's locked transaction. Nothing when the database is ahead of
        memory: the move that put it ahead synced the clocks in its own."""
        if live.match.is_over:
            return
        async with live.lock, self.store.locked_match(live.id) as locked:
            if locked.version != live.match.version or locked.status != "active":
                return
            rows = await locked.clocks()
            changed, _ = self._clock_changes(
                live, rows, live.match.pending(), live.match.version, moved=None
            )
            await locked.set_clocks(changed)

    async def _sync_locked(
        self,
        locked: LockedMatch,
        live: LiveMatch,
        new_state: Any,
        *,
        moved: int | None,
        by_clock: bool = False,
        undone: tuple[int, int] | None = None,
        resigned: int | None = None,
        expired: tuple[float, int, bool] | None = None,
    ) -> dict[int, tuple[int, ClockRow]]:
        """The clocks after an action committed in ``locked`` (not yet
        accepted in memory: ``new_state`` is the state it makes), read and
        written in that same transaction, so that no other process's move
        computes them from an older state. Returns the rows to keep for an
        undo (:attr:`LiveMatch.clock_before`), to record once accepted.
        ``expired``: see :meth:`play`; ``HostError("stale")`` (the whole
        transaction rolls back) when the clock that ran out is no longer the
        seat's running one."""
        game = live.game
        over = game.outcome(new_state) is not None
        if over and expired is None:
            return {}
        rows = await locked.clocks()
        if expired is not None:
            row = rows.get(moved) if moved is not None else None
            if row is None or not row[3] or row[0] != expired[0]:
                raise HostError("stale")  # the seat acted (or its clock moved) meanwhile
        if over:
            return {}
        changed, saved = self._clock_changes(
            live,
            rows,
            game.pending(new_state),
            live.match.version + 1,
            moved=moved,
            by_clock=by_clock,
            undone=undone,
            resigned=resigned,
            expired=expired,
        )
        await locked.set_clocks(changed)
        return saved

    def _clock_changes(
        self,
        live: LiveMatch,
        rows: Mapping[int, ClockRow],
        pending: Mapping[int, Decision],
        version: int,
        *,
        moved: int | None,
        by_clock: bool = False,
        undone: tuple[int, int] | None = None,
        resigned: int | None = None,
        expired: tuple[float, int, bool] | None = None,
    ) -> tuple[dict[int, ClockRow], dict[int, tuple[int, ClockRow]]]:
        """The clock rows that change (``{seat: row}``) once ``pending`` (at
        ``version``) is the match's, from the database's ``rows``, and the
        rows to save for an undo. ``moved``: the seat whose decision was just
        made (by its player, or by a bot when ``by_clock``); a player who
        decides resets their count of expiries. ``undone``: ``(seat,
        version)`` after an undo of the action that made ``version``: a
        take-back costs the others no time (their decision was not made: no
        bank is charged) and gives the seat that took back none (its clock is
        as it was when that action started). ``expired``: the moved seat's
        clock ran out: its count of expiries is set, and its bank emptied on
        the fast clock (kept whole when the decision was optional)."""
        cfg = self.clock_config
        now = self.now()
        changed: dict[int, ClockRow] = {}
        saved: dict[int, tuple[int, ClockRow]] = {}
        restored = None
        if undone is not None:
            before = live.clock_before.get(undone[0])
            if before is not None and before[0] == undone[1]:
                restored = before[1]
        for seat in range(live.match.seats):
            if seat in live.bots or seat in live.resigned or seat == resigned:
                continue
            old = rows.get(seat)
            row = old
            if row is None:
                row = (now, cfg.per_move(live.clock), cfg.bank(live.clock), False, False, 0)
            if seat == moved and row[3]:
                saved[seat] = (version, row)
            if undone is not None and seat == undone[0] and restored is not None:
                row = restored if seat in pending else (*restored[:3], False, False, restored[5])
            elif undone is not None and row[3] and seat not in pending:
                row = (*row[:3], False, row[4], row[5])  # stopped, not charged
            since, per_move, bank, was_pending, reminded, expiries = row
            if seat == moved and not by_clock:
                expiries = 0
            if was_pending and (seat not in pending or seat == moved):
                # the decision is made: the bank pays what went over
                used = now - since
                bank = max(0.0, bank - max(0.0, used - per_move))
                was_pending = False
            if seat in pending and not was_pending:
                since, was_pending, reminded = now, True, False
            if seat == moved and expired is not None:
                _, expiries, optional = expired
                # an optional decision let pass takes nothing from the bank;
                # an absence on the fast clock empties it
                bank = row[2] if optional else (0.0 if live.clock == "fast" else bank)
            new = (since, per_move, bank, was_pending, reminded, expiries)
            if new != old:
                changed[seat] = new
        return changed, saved

    async def tick(self) -> None:
        """Remind, expire decisions, expire old lobbies, for the shards this
        process owns. Hosts call this every few seconds; it also records each
        owned shard's heartbeat, which freezes its clocks while it is down,
        and (on a shared database) catches up with the moves other processes
        made in its matches."""
        now = self.now()
        await self.store.heartbeat(now, self.shards)
        if self.shared:
            await self.sweep()
        due: dict[int, list[tuple[int, float, float, float, bool, int]]] = {}
        # claimed: no other process handles these clocks for a while (a lease)
        for (
            match_id,
            seat,
            since,
            per_move,
            bank,
            reminded,
            expiries,
        ) in await self.store.claim_due_clocks(now, self.shards):
            due.setdefault(match_id, []).append((seat, since, per_move, bank, reminded, expiries))
        for match_id, clocks in due.items():
            try:
                live = self.matches.get(match_id)
                if live is None:  # owned, due, not in memory: read it
                    live = await self.get_match(match_id)
                if not self._drives(live):
                    continue
                with self._log_ids(live):
                    await self._tick_match(live, clocks, now)
            except Exception:
                # one broken match must not hold up the others' clocks
                log.exception("clock of match %s failed", match_id)
        for hook in list(self.tick_hooks):
            try:
                await hook(now)
            except Exception:
                log.exception("a tick hook failed")
        # only the lobbies this call closed: each is announced once
        for row in await self.store.expire_lobbies(now, self.clock_config.lobby_ttl, self.shards):
            lobby = Lobby.of(row)
            if lobby.guild_id is not None:
                await self._know_guild(lobby.guild_id, lobby.channel_id)
            for listener in list(self.listeners):
                try:
                    await listener.on_lobby_expired(lobby)
                except Exception:
                    log.exception("listener failed on an expired lobby")

    # ---- moves made by other processes ------------------------------------------------------
    async def sweep(self) -> None:
        """Catch up with the owned matches the database has moved on (a move
        played by another process, whose notification was missed) and retire
        those finished or cancelled elsewhere."""
        versions = await self.store.active_versions(self.shards)
        for match_id, version in versions.items():
            live = self.matches.get(match_id)
            if live is None or version != live.version or not self._drives(live):
                await self._catch_up(match_id, version)
        for live in list(self.matches.values()):
            if live.id not in versions and self._drives(live):
                await self._catch_up(live.id, None)

    def _on_move(self, match_id: int, version: int | None) -> None:
        """A move (``version``) or a cancel (None) committed by any process
        (this one's too), heard through :meth:`Store.listen_moves`: the owner
        catches up in a task of its own, so that the listener never waits on
        a match's lock."""
        live = self.matches.get(match_id)
        if live is None or not self._drives(live):
            return  # not driven here (an owned match not in memory: the sweep finds it)
        if version is not None and version <= live.version:
            return  # this process's own move, or one it already has
        task = asyncio.get_running_loop().create_task(self._catch_up(match_id, version))
        self._catch_ups.add(task)
        task.add_done_callback(self._catch_ups.discard)

    async def _catch_up(self, match_id: int, version: int | None) -> None:
        """Bring an owned match up to the database's ``version`` (None: it is
        no longer active): reload it, retire it if it ended, sync its clocks
        and kick its bots. Matches of other processes are left alone."""
        try:
            live = self.matches.get(match_id)
            if live is None:
                if version is None:
                    return
                row = await self.store.match(match_id)
                if row is None or row.status != "active" or not self.shards.owns(row.guild_id):
                    return
                live = await self.get_match(match_id)  # registered: it plays here
                await self._sync_clock(live)
                return
            if not self.owns(live):
                return
            if version is not None and version <= live.version and self._drives(live):
                return  # up to date
            with self._log_ids(live):
                async with live.lock:
                    row = await self.store.match(match_id)
                    if row is None or (row.version == live.version and row.status == live.status):
                        return
                    await self._reload(live, row)
                if live.status != "active" or live.match.is_over:
                    self._retire(live)
                    return
                if self.by_channel.get(live.channel_id) is None:
                    self._register(live)
                await self._sync_clock(live)
                self.kick_bots(live)
        except Exception:
            log.exception("could not catch up with match %s", match_id)

    async def _tick_match(
        self,
        live: LiveMatch,
        clocks: list[tuple[int, float, float, float, bool, int]],
        now: float,
    ) -> None:
        """Remind or expire the due clocks of one match."""
        for seat, since, per_move, bank, reminded, expiries in clocks:
            if seat in live.bots or seat not in live.match.pending():
                continue
            total = per_move + bank
            deadline = since + total
            if now >= deadline:
                await self._expire(live, seat, expiries + 1, since)
            elif not reminded and now >= since + total / 2:
                # under the match's lock, and only if it is still the clock
                # found due: a move made meanwhile (here or elsewhere) wins
                if not await self.store.remind_clock(live.id, seat, since):
                    continue
                for listener in list(self.listeners):
                    try:
                        await listener.on_reminder(live, seat, deadline - now)
                    except Exception:
                        log.exception("listener failed on a reminder")

    async def _expire(self, live: LiveMatch, seat: int, expiries: int, since: float) -> None:
        """The clock that started at ``since`` ran out: a ``normal`` bot
        decides for the absent player, and the clock's expiry is written with
        that move, in its locked transaction (nothing if the seat acted or its
        clock moved meanwhile). An optional decision (a response window the
        player may let pass) does not count as an absence and takes nothing
        from the bank."""
        cfg = self.clock_config
        # the state the bot thinks on (play refuses the move on any other)
        decision = live.match.pending().get(seat)
        optional = decision is not None and decision.optional
        if optional:
            expiries -= 1
        try:
            notation, version = await self._bot_move(live, seat, "normal")
            update = await self.play(
                live.id,
                live.user_of(seat),
                notation,
                expected_version=version,
                seat=seat,
                by_clock=True,
                expired=(since, expiries, optional),
            )
        except HostError:
            return  # the player (or someone) acted meanwhile
        if expiries >= cfg.max_expiries and not live.match.is_over:
            # absent too often: a bot plays the seat to the end
            live.bots.add(seat)
            live.replaced.add(seat)
            live.bot_levels[seat] = "normal"
            await self.store.set_replaced(live.id, seat)
        await self._notify_update(update)
        self.kick_bots(live)
