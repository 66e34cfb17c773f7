"""Spectators (``/watch`` and ``/board``), with no Discord import.

A spectator follows a live match: in channel mode the adapter sends them each
new public board by DM, in thread mode they are added to the match's thread
(where the boards are posted anyway). Everything a spectator is given comes
from the public side of the match only: the board drawn from
``view(state, None)`` and the events as ``Event.for_seat(None)`` sees them
(:func:`public_lines`, :func:`public_board_png`), never a hand, a private
image or a private event. ``tests/bot/test_spectators.py`` checks that the
public image does not change when the hidden information is resampled.

Who follows what is kept in the ``watchers`` table (migration 009) and in
memory; the rows of a match are deleted once its final board went out
(:meth:`Spectators.finish`). The Discord adapter owns the one
:class:`Spectators` of a bot (``cogs/watch.py``) and loads it at start-up.
When several processes share the database (``HostService.shared``), a
``/watch`` may be made on one and the board announced by another: a match's
spectators are then read through the database again once what this process
holds is older than the service's ``cache_seconds``
(:meth:`Spectators.watchers`); its own writes count at once.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from cachetools import TTLCache

from engine import GAMES, Event
from engine.match import UNDO

from .i18n import game_name, game_text, result_lines, t
from .service import CACHE_SIZE, HostError, HostService, LiveMatch, Update
from .store import now_iso

AUTOCOMPLETE_LIMIT = 25  # Discord's most choices


def plays_in_thread(live: LiveMatch) -> bool:
    """Whether the match plays in a thread of its own (THREADS' thread mode):
    its ``channel_id`` is then not the channel where its lobby opened."""
    lobby_channel = getattr(live, "lobby_channel_id", None)
    return lobby_channel is not None and lobby_channel != live.channel_id


def public_lines(
    game_id: str, events: Iterable[Event], names: Sequence[str], locale: str
) -> list[str]:
    """The lines a spectator reads of ``events``: each as a spectator sees it
    (``Event.for_seat(None)``: its redacted form, or nothing), in ``locale``."""
    game = GAMES[game_id]
    lines = []
    for event in events:
        seen = event.for_seat(None)
        if seen is None:
            continue
        text = game_text(locale, game.describe_event(seen, names))
        if text:
            lines.append(f"· {text}")
    return lines


def update_lines(updates: Iterable[Update], locale: str) -> list[str]:
    """What a spectator reads of a run of updates (several when announcements
    were folded into one board), in the spectator's language: who ran out of
    time, who took a move back, then the public lines of the events (a
    resignation is one: every game says it)."""
    lines: list[str] = []
    for update in updates:
        live = update.live
        if update.by_clock:
            lines.append(t(locale, "clock-played", name=live.names[update.seat]))
        if update.action == UNDO:  # the board goes back: say why, as the match's board does
            lines.append(t(locale, "undo-accepted", player=live.names[update.seat]))
        lines += public_lines(live.game_id, update.events, live.names, locale)
    return lines


def public_board_png(game_id: str, state: Any, names: Sequence[str], locale: str) -> bytes:
    """The board a spectator sees of ``state``: drawn from ``view(state, None)``
    only (called in the render workers: it pickles)."""
    from render import render_board

    return render_board(game_id, GAMES[game_id].view(state, None), list(names), locale)


def summary_line(live: LiveMatch, locale: str) -> str:
    """One line about a match for ``/board``: the game, the players, how far
    it went and who acts (or how it ended)."""
    match = live.match
    game = live.game
    outcome = match.outcome()
    if outcome is not None:
        _title, *rest = result_lines(locale, outcome, live.names)
        state = t(locale, "watch-finished", result=" · ".join(rest))
    else:
        acting = [live.names[seat] for seat in sorted(match.pending())]
        state = t(locale, "watch-acting", players=", ".join(acting))
    return t(
        locale,
        "watch-summary",
        game=game_name(locale, game.info.id),
        match=live.id,
        players=", ".join(live.names),
        actions=match.version,
        state=state,
    )


class Spectators:
    """Who follows which match (the service's ``spectators``)."""

    def __init__(self, host: HostService) -> None:
        self.host = host
        self._watchers: dict[int, dict[int, str]] = {}  # match -> user -> since
        self._sent: dict[tuple[int, int], int] = {}  # (match, user) -> last version sent
        # shared databases: the matches whose spectators were read lately, and
        # how many times this process changed each match's (a read that
        # overlapped a change of its own is not kept)
        self._fresh: TTLCache[int, bool] = TTLCache(CACHE_SIZE, host.cache_seconds, timer=host.now)
        self._writes: dict[int, int] = {}

    async def load(self) -> None:
        """Read who follows the active matches (at start-up); rows left by
        matches that ended or were cancelled are dropped."""
        rows = await self.host.store.watcher_rows()
        self._watchers.clear()
        stale = set()
        for match_id, user_id, since, status in rows:
            if status == "active":
                self._watchers.setdefault(int(match_id), {})[int(user_id)] = str(since)
            else:
                stale.add(int(match_id))
        for match_id in stale:
            await self._delete(match_id)

    async def refresh(self, match_id: int) -> None:
        """On a shared database, read a match's spectators again when this
        process's are older than the service's ``cache_seconds`` (another
        process may have added or removed some)."""
        if not self.host.shared or match_id in self._fresh:
            return
        writes = self._writes.get(match_id, 0)
        rows = await self.host.store.match_watchers(match_id)
        if self._writes.get(match_id, 0) != writes:
            return  # changed here meanwhile: memory is newer; read next time
        if rows:
            self._watchers[match_id] = dict(rows)
        else:
            self._watchers.pop(match_id, None)
        self._fresh[match_id] = True

    async def watchers(self, match_id: int) -> tuple[int, ...]:
        """:meth:`of`, read through the database when it is shared."""
        await self.refresh(match_id)
        return self.of(match_id)

    async def following(self, match_id: int, user_id: int) -> bool:
        """:meth:`follows`, read through the database when it is shared."""
        await self.refresh(match_id)
        return self.follows(match_id, user_id)

    def _changed(self, match_id: int) -> None:
        self._writes[match_id] = self._writes.get(match_id, 0) + 1

    def of(self, match_id: int) -> tuple[int, ...]:
        """The users following a match, in the order they started (as this
        process knows them: see :meth:`watchers`)."""
        return tuple(self._watchers.get(match_id, {}))

    def follows(self, match_id: int, user_id: int) -> bool:
        return user_id in self._watchers.get(match_id, {})

    def is_live(self, live: LiveMatch) -> bool:
        """Still played: not over, not cancelled (the database's status: a
        match another process plays is live too)."""
        return not live.match.is_over and live.status == "active"

    def check_can_watch(self, live: LiveMatch, user_id: int) -> None:
        """Refuse a player of the match (they get its boards already) and a
        match that is no longer played."""
        if live.seats_of(user_id):
            raise HostError("watch-player", match=live.id)
        if not self.is_live(live):
            raise HostError("watch-over", match=live.id)

    async def watch(self, live: LiveMatch, user_id: int) -> None:
        self.check_can_watch(live, user_id)
        since = now_iso()
        await self.host.store._write(
            "INSERT INTO watchers (match_id, user_id, since) VALUES (?, ?, ?)"
            " ON CONFLICT (match_id, user_id) DO NOTHING",
            (live.id, user_id, since),
        )
        self._changed(live.id)
        self._watchers.setdefault(live.id, {}).setdefault(user_id, since)

    def newer(self, match_id: int, user_id: int, version: int) -> bool:
        """Whether a board at ``version`` is newer than the last one sent to
        this spectator (and it counts as sent then): announcements and
        ``/watch``'s first board may arrive in any order, a spectator never
        gets the same board twice nor an older one after a newer."""
        key = (match_id, user_id)
        if self._sent.get(key, -1) >= version:
            return False
        self._sent[key] = version
        return True

    async def unwatch(self, match_id: int, user_id: int) -> None:
        self._sent.pop((match_id, user_id), None)
        await self.host.store._write(
            "DELETE FROM watchers WHERE match_id = ? AND user_id = ?", (match_id, user_id)
        )
        self._changed(match_id)
        users = self._watchers.get(match_id)
        if users is not None:
            users.pop(user_id, None)
            if not users:
                del self._watchers[match_id]

    async def finish(self, match_id: int) -> None:
        """Following ends with the match (after its final board went out)."""
        self._watchers.pop(match_id, None)
        self._sent = {key: v for key, v in self._sent.items() if key[0] != match_id}
        await self._delete(match_id)
        self._changed(match_id)

    async def _delete(self, match_id: int) -> None:
        await self.host.store._write("DELETE FROM watchers WHERE match_id = ?", (match_id,))

    def started_in(self, channel_id: int) -> LiveMatch | None:
        """The one match being played in a thread of its own that started
        from a lobby of ``channel_id`` (thread mode: the channel shows its
        start line), else None (none, or several: name one)."""
        host = self.host
        found = [
            live
            for live in (host.matches.get(match_id) for match_id in host.by_channel.values())
            if live is not None
            and plays_in_thread(live)
            and live.lobby_channel_id == channel_id
            and not live.match.is_over
        ]
        return found[0] if len(found) == 1 else None

    def live_matches(self, guild_id: int | None, typed: str = "") -> list[LiveMatch]:
        """The server's matches being played, newest first, for the
        ``match:`` option's autocomplete (``typed``: a part of the number)."""
        host = self.host
        found = [
            host.matches[match_id]
            for match_id in host.by_channel.values()
            if match_id in host.matches
        ]
        typed = typed.strip().lstrip("#")
        return sorted(
            (
                live
                for live in found
                if live.guild_id == guild_id
                and not live.match.is_over
                and (not typed or typed in str(live.id))
            ),
            key=lambda live: -live.id,
        )[:AUTOCOMPLETE_LIMIT]
