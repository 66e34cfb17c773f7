"""Lobbies and decks, a part of :class:`~bot.service.HostService`.

Opening a lobby, taking and leaving seats, bot seats, cancelling a lobby or
a match, starting a match (and moving it to its own place), and the decks
of the games played with decks. A mixin of :class:`HostService`: see
:mod:`bot.service_core` for how the parts fit together.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from typing import Any

from engine import ENGINE_VERSION, GAMES, Match, RulesError
from engine.text import Msg

from .decks import DECK_GAMES, Deck, DeckRefused
from .live import (
    CLOCKS,
    HostError,
    LiveMatch,
    Lobby,
    UserRef,
    Venue,
    bot_name,
    hostable_games,
    private_key,
)
from .service_core import HostCore

# the service's one logger, whichever part logs (tests and log filters name it)
log = logging.getLogger("bot.service")


class LobbiesPart(HostCore):
    """Lobbies and decks."""

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
        clock: str | None = None,
        deck: str | None = None,
        parent_id: int | None = None,
    ) -> Lobby:
        """Open a lobby. ``clock`` None: the server's default clock;
        ``parent_id``: the channel of a thread (a thread of a channel where
        the server's settings allow lobbies is allowed too)."""
        settings = None if guild_id is None else await self.guild_settings(guild_id)
        if settings is not None:
            if not settings.lobby_allowed_in(channel_id, parent_id):
                where = ", ".join(f"<#{c}>" for c in settings.lobby_channels)
                raise HostError("settings-lobby-elsewhere", channels=where)
            clock = settings.clock_for(clock)
        clock = clock or "correspondence"
        if clock not in CLOCKS:
            raise HostError("bad-clock", clock=clock, clocks=", ".join(CLOCKS))
        game = GAMES.get(game_id)
        if game is None or game_id not in hostable_games():
            raise HostError("unknown-game", game=game_id, games=", ".join(hostable_games()))
        info = game.info
        table = seats if seats is not None else info.max_seats
        if not info.min_seats <= table <= info.max_seats:
            raise HostError(
                "bad-seats",
                game=Msg.of(f"game-{game_id}-name"),
                min=info.min_seats,
                max=info.max_seats,
            )
        try:
            parsed = game.options(options or None)
        except RulesError as err:
            raise HostError("bad-options", rules=err) from None
        chosen = None if deck is None else await self.find_deck(host.id, deck, game_id)
        await self.remember_user(host)
        async with self._channel_lock(channel_id):
            if self.match_in(channel_id) is not None or await self.lobby_in(channel_id):
                raise HostError("channel-busy")
            lobby_id = await self.store.create_lobby(
                guild_id, channel_id, game_id, host.id, table, game.options_text(parsed)
            )
            await self.store.set_lobby_clock(lobby_id, clock, self.now())
            if chosen is not None:
                await self.store.set_lobby_deck(lobby_id, host.id, chosen.name, chosen.code)
        lobby = await self.lobby(lobby_id)
        assert lobby is not None
        return lobby

    async def _open_lobby(self, channel_id: int) -> Lobby:
        lobby = await self.lobby_in(channel_id)
        if lobby is None:
            raise HostError("no-lobby")
        return lobby

    async def join(self, channel_id: int, user: UserRef, deck: str | None = None) -> Lobby:
        """Take a seat; with ``deck`` (games played with decks), the deck this
        seat plays (a seated player may join again to choose another)."""
        await self.remember_user(user)
        chosen = None
        if deck is not None:
            lobby = await self._open_lobby(channel_id)
            chosen = await self.find_deck(user.id, deck, lobby.game_id)
        async with self._channel_lock(channel_id):
            lobby = await self._open_lobby(channel_id)
            if user.id in lobby.players and chosen is None:
                raise HostError("already-joined")
            if user.id not in lobby.players:
                if len(lobby.players) >= lobby.seats:
                    raise HostError("lobby-full", seats=lobby.seats)
                await self.store.add_lobby_player(lobby.id, user.id)
            if chosen is not None:
                await self.store.set_lobby_deck(lobby.id, user.id, chosen.name, chosen.code)
            new = await self.lobby(lobby.id)
        assert new is not None
        return new

    async def add_bot(self, channel_id: int, user: UserRef, level: str = "normal") -> Lobby:
        """The host adds a bot seat (``easy``, ``normal`` or ``hard``)."""
        from engine.bots import LEVELS, POLICIES

        if level not in LEVELS:
            raise HostError("bad-level", level=level, levels=", ".join(LEVELS))
        async with self._channel_lock(channel_id):
            lobby = await self._open_lobby(channel_id)
            if user.id != lobby.host_id:
                raise HostError("not-host")
            if (
                lobby.guild_id is not None
                and not (await self.guild_settings(lobby.guild_id)).bots_allowed
            ):
                raise HostError("settings-bots-refused")
            if lobby.game_id not in POLICIES:
                raise HostError("no-bots-for-game", game=Msg.of(f"game-{lobby.game_id}-name"))
            if len(lobby.players) >= lobby.seats:
                raise HostError("lobby-full", seats=lobby.seats)
            # the smallest free number: a bot seat the host removed leaves a gap
            taken = {-uid for uid, _ in lobby.bots}
            number = next(n for n in range(1, len(taken) + 2) if n not in taken)
            bot_id = -number
            self.names[bot_id] = bot_name(number, level)
            await self.store.add_lobby_player(lobby.id, bot_id, bot_level=level)
            new = await self.lobby(lobby.id)
        assert new is not None
        return new

    def display_name(self, user_id: int, lobby: Lobby | None = None) -> str:
        if user_id < 0 and lobby is not None:
            level = dict(lobby.bots).get(user_id, "normal")
            return bot_name(-user_id, level)
        return self.names.get(user_id, f"#{user_id}")

    async def leave(self, channel_id: int, user: UserRef) -> Lobby:
        async with self._channel_lock(channel_id):
            lobby = await self._open_lobby(channel_id)
            if user.id not in lobby.players:
                raise HostError("not-in-lobby")
            await self.store.remove_lobby_player(lobby.id, user.id)
            rest = [p for p in lobby.players if p != user.id and p > 0]
            if not rest:
                await self.store.set_lobby_status(lobby.id, "cancelled")
            elif user.id == lobby.host_id:
                await self.store.set_lobby_host(lobby.id, rest[0])
            new = await self.lobby(lobby.id)
        assert new is not None
        return new

    async def cancel(
        self, channel_id: int, user: UserRef, *, is_admin: bool, role_ids: Sequence[int] = ()
    ) -> Lobby | LiveMatch:
        """Cancel the channel's lobby or match: its host, an admin (Manage
        Server) or a member with the server's cancel role (``role_ids``: the
        member's roles)."""
        async with self._channel_lock(channel_id):
            lobby = await self.lobby_in(channel_id)
            live = self.match_in(channel_id) if lobby is None else None
            where = lobby if lobby is not None else live
            guild_id = None if where is None else where.guild_id
            cancel_role = None
            if not is_admin and guild_id is not None:
                settings = await self.guild_settings(guild_id)
                is_admin = settings.may_cancel(role_ids)
                cancel_role = settings.cancel_role_id
            # the refusal says who may cancel here
            refusal = (
                HostError("not-host-cancel")
                if cancel_role is None
                else HostError("not-host-cancel-role", role=f"<@&{cancel_role}>")
            )
            if lobby is not None:
                if user.id != lobby.host_id and not is_admin:
                    raise refusal
                await self.store.set_lobby_status(lobby.id, "cancelled")
                new = await self.lobby(lobby.id)
                assert new is not None
                return new
            if live is None:
                raise self.cancel_elsewhere(channel_id) or HostError("nothing-to-cancel")
            if user.id != live.lobby_host and not is_admin:
                raise refusal
            async with live.lock:
                await self.store.cancel_match(live.id)
                live.status = "cancelled"
                self.by_channel.pop(channel_id, None)
            self._retire(live)
            return live

    def cancel_elsewhere(self, channel_id: int, lobby_id: int | None = None) -> HostError | None:
        """Where to cancel instead, when a channel's lobbies started matches
        that play in threads of their own (``lobby_id``: only that lobby's):
        the refusal names their threads."""
        threads = [
            live.channel_id
            for live in self.matches.values()
            if live.lobby_channel_id == channel_id
            and live.channel_id != channel_id
            and (lobby_id is None or live.lobby_id == lobby_id)
            and self.by_channel.get(live.channel_id) == live.id
        ]
        if not threads:
            return None
        mentions = ", ".join(f"<#{thread}>" for thread in sorted(threads))
        return HostError("cancel-in-thread", count=len(threads), threads=mentions)

    async def start(self, channel_id: int, user: UserRef, venue: Venue | None = None) -> LiveMatch:
        """Start the channel's lobby. ``venue`` (the adapter's) may give the
        match a place of its own before anything of it is announced and
        before its bots or clock run."""
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
                options = self._with_decks(lobby, game.options(lobby.options or None))
                match = Match(game, options, len(lobby.players), seed)
            except RulesError as err:
                raise HostError("bad-options", rules=err) from None
            players = [(uid, self.display_name(uid, lobby)) for uid in lobby.players]
            levels = dict(lobby.bots)
            bot_levels = {
                seat: levels[uid] for seat, uid in enumerate(lobby.players) if uid in levels
            }
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
                snapshot=game.dump_state(match.state).decode(),
                players=players,
                bot_levels=bot_levels,
                clock=lobby.clock,
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
                bots=set(bot_levels),
                bot_levels=bot_levels,
                clock=lobby.clock,
                lobby_channel_id=channel_id,
            )
            place = None
            if venue is not None:
                try:
                    place = await venue(live, lobby)
                except Exception:
                    log.exception("no venue for match %s: it plays in its channel", match_id)
            if place is not None and place != channel_id:
                await self.move_match(live, place)
            self._register(live)
            # every seat is sent its private view of the start
            start_pending = match.pending()
            for s in range(match.seats):
                live.private_keys[s] = (
                    match.version,
                    private_key(game, match.state, start_pending, s),
                )
        await self._sync_clock(live)
        self.kick_bots(live)
        return live

    async def move_match(self, live: LiveMatch, channel_id: int) -> None:
        """The match plays in ``channel_id`` from now on (its thread): the
        store and :attr:`by_channel` follow, and its former channel is free
        for a new lobby."""
        old = live.channel_id
        await self.store.move_match(live.id, channel_id)
        live.channel_id = channel_id
        if live.guild_id is not None:
            self.channel_guilds[channel_id] = live.guild_id
        if self.by_channel.get(old) == live.id:
            del self.by_channel[old]
            self.by_channel[channel_id] = live.id

    def _with_decks(self, lobby: Lobby, options: Any) -> Any:
        """A deck game's options with every seat's deck code (chosen, given
        in the options, or ready-made), so that the match record replays."""
        if lobby.game_id not in DECK_GAMES:
            return options
        chosen = {uid: code for uid, _, code in lobby.decks}
        codes = self.decks.seat_codes(lobby.game_id, lobby.players, chosen, options.decks)
        # validated again, so that the options' own checks see the codes
        return type(options).model_validate({**options.model_dump(), "decks": codes})

    # ---- decks ------------------------------------------------------------------------
    async def find_deck(self, user_id: int, name: str, game_id: str = "liber") -> Deck:
        """The user's deck or a ready-made one, by name."""
        try:
            return await self.decks.find(user_id, name, game_id)
        except DeckRefused as err:
            raise HostError(err.key, rules=err.rules, **err.params) from None

    async def create_deck(
        self, user: UserRef, name: str, text: str, game_id: str = "liber"
    ) -> tuple[Deck, bool]:
        await self.remember_user(user)
        try:
            return await self.decks.create(user.id, name, text, game_id)
        except DeckRefused as err:
            raise HostError(err.key, rules=err.rules, **err.params) from None

    async def delete_deck(self, user_id: int, name: str, game_id: str = "liber") -> Deck:
        try:
            return await self.decks.delete(user_id, name, game_id)
        except DeckRefused as err:
            raise HostError(err.key, rules=err.rules, **err.params) from None

    async def user_decks(self, user_id: int, game_id: str = "liber") -> list[Deck]:
        return await self.decks.mine(user_id, game_id)
