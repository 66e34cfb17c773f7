"""Records, ratings, replays and delivery bookkeeping, a part of
:class:`~bot.service.HostService`.

Leaderboards, a player's record and ratings, history, replays and
rematches; and where the host's messages went (boards, lobby messages, each
seat's private view, closed direct messages). A mixin of
:class:`HostService`: see :mod:`bot.service_core` for how the parts fit
together.
"""

from __future__ import annotations

import contextlib
from typing import Any

from engine import GAMES, Event, Match

from . import ratings
from .decks import DECK_GAMES
from .live import HostError, LiveMatch, Lobby, UserRef
from .service_core import HostCore


class RecordsPart(HostCore):
    """Records, ratings, replays and delivery bookkeeping."""

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
            # Moves can name hidden cards (a card taken from a deck, an ambush,
            # a secret deployment): until the end, only the commitment is given.
            data.pop("seed")
            data.pop("actions")
            data["note"] = "the moves and the seed are revealed when the match ends"
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
        previous = live.match.options
        if live.game_id in DECK_GAMES:  # decks follow their players, not the seats
            previous = previous.model_copy(update={"decks": ()})
        options = live.game.options_text(previous)
        channel_id = live.lobby_channel_id or live.channel_id  # not in the match's thread
        lobby = await self.create_lobby(
            guild_id=live.guild_id,
            channel_id=channel_id,
            host=user,
            game_id=live.game_id,
            seats=live.match.seats,
            options=options,
            clock=live.clock,  # the finished match's clock, not the server's default
        )
        for seat, (uid, name) in enumerate(live.players):
            if uid != user.id and seat not in live.bots:
                await self.join(channel_id, UserRef(uid, name))
            decks = getattr(live.match.options, "decks", ())
            if live.game_id in DECK_GAMES and seat not in live.bots and seat < len(decks):
                await self.store.set_lobby_deck(lobby.id, uid, "", decks[seat])
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

    async def set_board_message(self, live: LiveMatch, message_id: int, version: int) -> None:
        """Where the match's latest board went, showing ``version``."""
        if live.board_version is not None and version < live.board_version:
            return  # a newer board is out
        live.board_message_id = message_id
        live.board_version = version
        await self.store.set_board_message(live.id, message_id, version)

    async def set_lobby_message(self, lobby_id: int, message_id: int | None) -> None:
        """The message that shows a lobby (updated as players come and go)."""
        await self.store.set_lobby_message(lobby_id, message_id)

    async def seat_message(self, match_id: int, seat: int) -> tuple[int, int, int] | None:
        """Where a seat's latest private view went: ``(channel, message, version)``."""
        return await self.store.seat_message(match_id, seat)

    async def set_seat_message(
        self, match_id: int, seat: int, channel_id: int, message_id: int, version: int
    ) -> None:
        await self.store.set_seat_message(match_id, seat, channel_id, message_id, version)

    def seat_lock(self, match_id: int, seat: int) -> contextlib.AbstractAsyncContextManager[None]:
        """:meth:`Store.seat_lock` where other processes share the database;
        alone, the announcer's lock of the match is enough."""
        if not self.shared:
            return contextlib.nullcontext()
        return self.store.seat_lock(match_id, seat)

    async def swap_seat_message(
        self, match_id: int, seat: int, channel_id: int, message_id: int, version: int
    ) -> tuple[bool, tuple[int, int, int] | None]:
        """:meth:`Store.swap_seat_message`: recorded unless a newer view is."""
        return await self.store.swap_seat_message(match_id, seat, channel_id, message_id, version)
