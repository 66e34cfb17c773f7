"""The lobby and match service: the authoritative host, with no Discord in it.

Adapters (the Discord cogs, the terminal console) call this service and show
what it returns. Rules:

* one writer per match: an :class:`asyncio.Lock` per match, plus the version
  check in the database write;
* every accepted action is committed to SQLite (:meth:`Store.commit_action`)
  before the service returns, so before any message goes out;
* every refusal is a :class:`HostError` with a translation key, and changes
  nothing.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine import ENGINE_VERSION, GAMES, Event, Match, MatchRecord, Outcome, RulesError
from engine.core import Decision, Game
from engine.match import LoggedEvent

from . import ratings
from .store import LobbyRow, MatchRow, StaleWrite, Store

log = logging.getLogger(__name__)


class HostError(Exception):
    """A refusal a user can read: ``key`` is a translation key of
    :mod:`bot.i18n`, ``params`` fill it. ``rules`` carries the engine's own
    error when the rules refused."""

    def __init__(self, key: str, rules: RulesError | None = None, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.rules = rules
        self.params = params


@dataclass(frozen=True)
class UserRef:
    id: int
    name: str
    locale: str | None = None


@dataclass
class LiveMatch:
    """A match in memory, with its seats and lock."""

    id: int
    guild_id: int | None
    channel_id: int
    game_id: str
    players: list[tuple[int, str]]  # (user id, display name) by seat
    match: Match
    lobby_id: int | None = None
    lobby_host: int | None = None
    board_message_id: int | None = None
    resigned: set[int] = field(default_factory=set)
    dm_notice_sent: set[int] = field(default_factory=set)
    bots: set[int] = field(default_factory=set)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    @property
    def game(self) -> Game[Any, Any, Any]:
        return self.match.game

    @property
    def names(self) -> list[str]:
        return [name for _, name in self.players]

    @property
    def version(self) -> int:
        return self.match.version

    def seats_of(self, user_id: int) -> list[int]:
        return [seat for seat, (uid, _) in enumerate(self.players) if uid == user_id]

    def seat_of(self, user_id: int) -> int | None:
        """The user's seat; with several (console hot-seat), the pending one."""
        seats = self.seats_of(user_id)
        if not seats:
            return None
        pending = self.match.pending()
        for seat in seats:
            if seat in pending:
                return seat
        return seats[0]

    def user_of(self, seat: int) -> int:
        return self.players[seat][0]


@dataclass(frozen=True)
class Update:
    """What happened after one accepted action; adapters announce it."""

    live: LiveMatch
    version: int
    seat: int  # who acted
    action: str  # notation ("!resign" for a resignation)
    events: tuple[Event, ...]
    pending: Mapping[int, Decision]
    outcome: Outcome | None
    private_changed: frozenset[int]  # seats whose private view must be re-sent


@dataclass(frozen=True)
class Lobby:
    id: int
    guild_id: int | None
    channel_id: int
    game_id: str
    host_id: int
    seats: int
    options: str
    status: str
    message_id: int | None
    players: tuple[int, ...]

    @staticmethod
    def of(row: LobbyRow) -> Lobby:
        return Lobby(
            row.id,
            row.guild_id,
            row.channel_id,
            row.game_id,
            row.host_id,
            row.seats,
            row.options,
            row.status,
            row.message_id,
            row.players,
        )


class HostService:
    """Lobbies and matches for every game of :data:`engine.GAMES`."""

    def __init__(
        self,
        store: Store,
        *,
        seed_source: Callable[[], int] | None = None,
        provisional_games: int = 5,
    ) -> None:
        self.store = store
        self.provisional_games = provisional_games
        self.matches: dict[int, LiveMatch] = {}
        self.by_channel: dict[int, int] = {}  # channel id -> active match id
        self.names: dict[int, str] = {}
        self.dm_closed: set[int] = set()
        self._seed_source = seed_source or (lambda: secrets.randbits(63))
        self._channel_locks: dict[int, asyncio.Lock] = {}

    # ---- start-up --------------------------------------------------------------
    async def resume(self) -> list[LiveMatch]:
        """Load every active match from the database."""
        self.dm_closed = await self.store.dm_closed_users()
        if not await self.store.all_ratings() and await self.store.finished_matches():
            # results from before ratings existed (schema version 2): rate them now
            await self.store.recompute_ratings()
        resumed = []
        for row in await self.store.active_matches():
            try:
                live = await self._load(row)
            except Exception:
                log.exception("could not resume match %s", row.id)
                continue
            self._register(live)
            resumed.append(live)
        return resumed

    async def _load(self, row: MatchRow) -> LiveMatch:
        actions = await self.store.match_actions(row.id)
        record = MatchRecord(
            game=row.game_id,
            options=json.loads(row.options),
            seats=row.seats,
            seed=row.seed,
            actions=tuple((seat, action) for _, seat, action, _ in actions),
        )
        events = [
            LoggedEvent(version, Event.from_json(e))
            for version, _, _, events_json in actions
            for e in json.loads(events_json)
        ]
        match = Match.from_parts(record, json.loads(row.snapshot), row.version, events)
        lobby_host = None
        if row.lobby_id is not None:
            lobby = await self.store.lobby(row.lobby_id)
            lobby_host = lobby.host_id if lobby else None
        for uid, name in row.players:
            self.names.setdefault(uid, name)
        return LiveMatch(
            id=row.id,
            guild_id=row.guild_id,
            channel_id=row.channel_id,
            game_id=row.game_id,
            players=list(row.players),
            match=match,
            lobby_id=row.lobby_id,
            lobby_host=lobby_host,
            board_message_id=row.board_message_id,
            resigned=set(row.resigned),
            dm_notice_sent=set(row.dm_notice_sent),
            bots=set(row.bots),
        )

    def _register(self, live: LiveMatch) -> None:
        self.matches[live.id] = live
        if live.match.is_over:
            self.by_channel.pop(live.channel_id, None)
        else:
            self.by_channel[live.channel_id] = live.id

    def _channel_lock(self, channel_id: int) -> asyncio.Lock:
        return self._channel_locks.setdefault(channel_id, asyncio.Lock())

    async def remember_user(self, user: UserRef) -> None:
        if self.names.get(user.id) != user.name:
            self.names[user.id] = user.name
            await self.store.upsert_user(user.id, user.name, user.locale)

    # ---- lookups -----------------------------------------------------------------
    def match_in(self, channel_id: int) -> LiveMatch | None:
        match_id = self.by_channel.get(channel_id)
        return None if match_id is None else self.matches.get(match_id)

    async def get_match(self, match_id: int) -> LiveMatch:
        live = self.matches.get(match_id)
        if live is None:
            row = await self.store.match(match_id)
            if row is None:
                raise HostError("no-such-match", match=match_id)
            live = await self._load(row)
            self.matches[live.id] = live
        return live

    async def lobby_in(self, channel_id: int) -> Lobby | None:
        row = await self.store.open_lobby_in(channel_id)
        return None if row is None else Lobby.of(row)

    async def lobby(self, lobby_id: int) -> Lobby | None:
        row = await self.store.lobby(lobby_id)
        return None if row is None else Lobby.of(row)

    def user_matches(self, user_id: int) -> list[LiveMatch]:
        """Active matches where the user holds a seat, newest first."""
        return sorted(
            (
                m
                for m in self.matches.values()
                if not m.match.is_over and m.seats_of(user_id) and m.channel_id in self.by_channel
            ),
            key=lambda m: -m.id,
        )

    # ---- lobbies -------------------------------------------------------------------
    async def create_lobby(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        host: UserRef,
        game_id: str,
        seats: int | None = None,
        options: str = "",
    ) -> Lobby:
        game = GAMES.get(game_id)
        if game is None:
            raise HostError("unknown-game", game=game_id, games=", ".join(sorted(GAMES)))
        info = game.info
        table = seats if seats is not None else info.max_seats
        if not info.min_seats <= table <= info.max_seats:
            raise HostError("bad-seats", game=info.name_en, min=info.min_seats, max=info.max_seats)
        try:
            parsed = game.options(options or None)
        except RulesError as err:
            raise HostError("bad-options", rules=err) from None
        await self.remember_user(host)
        async with self._channel_lock(channel_id):
            if self.match_in(channel_id) is not None or await self.lobby_in(channel_id):
                raise HostError("channel-busy")
            lobby_id = await self.store.create_lobby(
                guild_id, channel_id, game_id, host.id, table, game.options_text(parsed)
            )
        lobby = await self.lobby(lobby_id)
        assert lobby is not None
        return lobby

    async def _open_lobby(self, channel_id: int) -> Lobby:
        lobby = await self.lobby_in(channel_id)
        if lobby is None:
            raise HostError("no-lobby")
        return lobby

    async def join(self, channel_id: int, user: UserRef) -> Lobby:
        await self.remember_user(user)
        async with self._channel_lock(channel_id):
            lobby = await self._open_lobby(channel_id)
            if user.id in lobby.players:
                raise HostError("already-joined")
            if len(lobby.players) >= lobby.seats:
                raise HostError("lobby-full", seats=lobby.seats)
            await self.store.add_lobby_player(lobby.id, user.id)
            new = await self.lobby(lobby.id)
        assert new is not None
        return new

    async def leave(self, channel_id: int, user: UserRef) -> Lobby:
        async with self._channel_lock(channel_id):
            lobby = await self._open_lobby(channel_id)
            if user.id not in lobby.players:
                raise HostError("not-in-lobby")
            await self.store.remove_lobby_player(lobby.id, user.id)
            rest = [p for p in lobby.players if p != user.id]
            if not rest:
                await self.store.set_lobby_status(lobby.id, "cancelled")
            elif user.id == lobby.host_id:
                await self.store.set_lobby_host(lobby.id, rest[0])
            new = await self.lobby(lobby.id)
        assert new is not None
        return new

    async def cancel(self, channel_id: int, user: UserRef, *, is_admin: bool) -> Lobby | LiveMatch:
        """Cancel the channel's lobby (host or admin) or match (lobby host or admin)."""
        async with self._channel_lock(channel_id):
            lobby = await self.lobby_in(channel_id)
            if lobby is not None:
                if user.id != lobby.host_id and not is_admin:
                    raise HostError("not-host")
                await self.store.set_lobby_status(lobby.id, "cancelled")
                new = await self.lobby(lobby.id)
                assert new is not None
                return new
            live = self.match_in(channel_id)
            if live is None:
                raise HostError("nothing-to-cancel")
            if user.id != live.lobby_host and not is_admin:
                raise HostError("not-host")
            async with live.lock:
                await self.store.cancel_match(live.id)
                self.by_channel.pop(channel_id, None)
            return live

    async def start(self, channel_id: int, user: UserRef) -> LiveMatch:
        async with self._channel_lock(channel_id):
            lobby = await self._open_lobby(channel_id)
            if user.id != lobby.host_id:
                raise HostError("not-host")
            game = GAMES[lobby.game_id]
            if len(lobby.players) < game.info.min_seats:
                raise HostError(
                    "not-enough-players", min=game.info.min_seats, have=len(lobby.players)
                )
            seed = self._seed_source()
            try:
                match = Match(game, lobby.options or None, len(lobby.players), seed)
            except RulesError as err:
                raise HostError("bad-options", rules=err) from None
            players = [(uid, self.names.get(uid, f"#{uid}")) for uid in lobby.players]
            match_id = await self.store.create_match(
                lobby_id=lobby.id,
                guild_id=lobby.guild_id,
                channel_id=channel_id,
                game_id=lobby.game_id,
                options=json.dumps(match.options.model_dump(mode="json"), sort_keys=True),
                seats=len(players),
                seed=seed,
                seed_sha256=match.seed_commitment,
                engine_version=ENGINE_VERSION,
                snapshot=json.dumps(game.encode_state(match.state)),
                players=players,
            )
            live = LiveMatch(
                id=match_id,
                guild_id=lobby.guild_id,
                channel_id=channel_id,
                game_id=lobby.game_id,
                players=players,
                match=match,
                lobby_id=lobby.id,
                lobby_host=lobby.host_id,
            )
            self._register(live)
        return live

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
            (game.format_action(a), game.describe_action(state, seat, a, locale))
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
    ) -> Update:
        live = await self.get_match(match_id)
        seats = live.seats_of(user_id)
        if not seats:
            raise HostError("not-seated")
        if seat is not None and seat not in seats:
            raise HostError("not-seated")
        async with live.lock:
            match = live.match
            closed = self.by_channel.get(live.channel_id) != live.id
            if closed and not match.is_over:
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
            # committed first; only then does the match in memory change
            await self._commit(live, seat, notation, new_state, events)
            match.accept(seat, notation, new_state, events)
            self._after_commit(live)
            return self._update(live, seat, notation, events, before_pending)

    async def resign(self, match_id: int, user_id: int) -> Update:
        live = await self.get_match(match_id)
        seats = live.seats_of(user_id)
        if not seats:
            raise HostError("not-seated")
        async with live.lock:
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
            await self._commit(live, seat, notation, new_state, events, resigned=seat)
            match.accept(seat, notation, new_state, events)
            live.resigned.add(seat)
            self._after_commit(live)
            return self._update(live, seat, notation, events, before_pending)

    async def _commit(
        self,
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
            quitters = live.resigned | ({resigned} if resigned is not None else set())
            finished = ratings.FinishedMatch(
                match_id=live.id,
                guild_id=live.guild_id,
                game_id=live.game_id,
                seats=tuple(
                    ratings.SeatResult(
                        user_id=live.user_of(seat),
                        place=outcome.place(seat),
                        resigned=seat in quitters,
                        is_bot=seat in live.bots,
                    )
                    for seat in range(live.match.seats)
                ),
            )
        try:
            await self.store.commit_action(
                live.id,
                expected_version=live.match.version,
                seat=seat,
                action=action,
                events=[e.to_json() for e in events],
                snapshot=json.dumps(game.encode_state(new_state)),
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
            self.by_channel.pop(live.channel_id, None)

    def _update(
        self,
        live: LiveMatch,
        seat: int,
        action: str,
        events: tuple[Event, ...],
        before_pending: Mapping[int, Decision],
    ) -> Update:
        match = live.match
        pending = match.pending()
        changed = set(pending) | set(before_pending)
        for ev in events:
            if ev.to is not None:
                changed |= set(ev.to)
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

    # ---- records, ratings, replays ---------------------------------------------------------
    async def leaderboard(
        self, game_id: str, scope: str, page: int, per_page: int = 10
    ) -> tuple[list[tuple[int, int, str, int, int, int, bool]], int, int]:
        """One page of a leaderboard: ``[(rank, user, name, rating, games, wins,
        provisional)]``, the page (clamped) and the number of pages."""
        if game_id not in GAMES:
            raise HostError("unknown-game", game=game_id, games=", ".join(sorted(GAMES)))
        _, total = await self.store.leaderboard(scope, game_id, "humans", 0, 0)
        pages = max(1, (total + per_page - 1) // per_page)
        page = min(max(page, 1), pages)
        rows, _ = await self.store.leaderboard(
            scope, game_id, "humans", (page - 1) * per_page, per_page
        )
        out = []
        for i, (uid, name, mu, sigma, games, wins) in enumerate(rows):
            out.append(
                (
                    (page - 1) * per_page + i + 1,
                    uid,
                    self.names.get(uid, name) or f"#{uid}",
                    ratings.display(mu, sigma),
                    games,
                    wins,
                    games < self.provisional_games,
                )
            )
        return out, page, pages

    async def player_stats(
        self, user_id: int, guild_id: int | None
    ) -> tuple[list[tuple[str, int, int, float]], dict[str, dict[str, tuple[int, int, bool]]]]:
        """The user's record per game (played, won, average place) and ratings
        ``{game: {scope or "bots": (rating, games, provisional)}}``."""
        record = await self.store.user_record(user_id, None)
        rated: dict[str, dict[str, tuple[int, int, bool]]] = {}
        wanted = ratings.scopes(guild_id)
        for scope in wanted:
            for game_id, pool, mu, sigma, games, _wins in await self.store.user_ratings(
                user_id, scope
            ):
                key = scope if pool == "humans" else f"{scope}:bots"
                rated.setdefault(game_id, {})[key] = (
                    ratings.display(mu, sigma),
                    games,
                    games < self.provisional_games,
                )
        return record, rated

    async def rating_points(self, user_id: int, game_id: str, scope: str) -> list[int]:
        return [
            ratings.display(mu, sigma)
            for _, mu, sigma in await self.store.rating_series(user_id, game_id, scope)
        ]

    async def history(
        self, *, user_id: int | None, game_id: str | None, guild_id: int | None, limit: int = 10
    ) -> list[tuple[int, str, str, str, list[tuple[int, str, int, bool, bool]]]]:
        return await self.store.recent_results(
            user_id=user_id, game_id=game_id, guild_id=guild_id, limit=limit
        )

    async def replay_record(self, match_id: int) -> tuple[LiveMatch, dict[str, Any]]:
        """The match record as JSON data; the seed only once the match is over
        (before that, only its SHA-256 commitment)."""
        live = await self.get_match(match_id)
        data = live.match.record().to_json()
        data["players"] = live.names
        if not live.match.is_over:
            data.pop("seed")
            data["note"] = "seed revealed when the match ends"
        return live, data

    def replay_step(self, live: LiveMatch, step: int) -> tuple[Match, tuple[Event, ...]]:
        """The match as it was after ``step`` actions (0: the start), and the
        events of that step."""
        step = min(max(step, 0), live.version)
        match = Match.replay(live.match.record(), upto=step)
        events = tuple(item.event for item in live.match.log if item.version == step)
        return match, events

    async def rematch(self, match_id: int, user: UserRef) -> Lobby:
        """A new lobby in the same channel with the same players and options,
        hosted by whoever asked."""
        live = await self.get_match(match_id)
        if not live.match.is_over:
            raise HostError("rematch-not-over")
        if user.id not in {uid for uid, _ in live.players}:
            raise HostError("not-seated")
        options = live.game.options_text(live.match.options)
        lobby = await self.create_lobby(
            guild_id=live.guild_id,
            channel_id=live.channel_id,
            host=user,
            game_id=live.game_id,
            seats=live.match.seats,
            options=options,
        )
        for seat, (uid, name) in enumerate(live.players):
            if uid != user.id and seat not in live.bots:
                await self.join(live.channel_id, UserRef(uid, name))
        new = await self.lobby(lobby.id)
        assert new is not None
        return new

    # ---- delivery bookkeeping -----------------------------------------------------------
    async def mark_dm_closed(self, user_id: int, closed: bool = True) -> None:
        if closed:
            self.dm_closed.add(user_id)
        else:
            self.dm_closed.discard(user_id)
        await self.store.set_dm_closed(user_id, closed)

    async def mark_dm_notice(self, live: LiveMatch, seat: int) -> None:
        live.dm_notice_sent.add(seat)
        await self.store.set_dm_notice_sent(live.id, seat)

    async def set_board_message(self, live: LiveMatch, message_id: int | None) -> None:
        live.board_message_id = message_id
        await self.store.set_board_message(live.id, message_id)

    async def record(self, match_id: int) -> MatchRecord:
        live = await self.get_match(match_id)
        return live.match.record()
