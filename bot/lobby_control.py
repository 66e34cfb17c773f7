"""What a lobby's host may do before the start, besides adding bots and
starting: free a seat (a player or a bot), and change the lobby's seats,
options and clock. No Discord import: the Discord cog and the tests call
these functions with the :class:`~bot.service.HostService`.

Every change is made under the channel's lock (the one ``join``, ``start``
and ``cancel`` take), so a change and a start never cross: a match starts
with the lobby as it was after the last change. Refusals are
:class:`~bot.service.HostError`, as everywhere in the host.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine import GAMES, RulesError
from engine.core import parse_options_text
from engine.text import Msg

from .decks import DECK_GAMES
from .i18n import t
from .lobby_options import readable_options
from .service import CLOCKS, HostError, HostService, Lobby, UserRef


@dataclass(frozen=True)
class Kicked:
    """A seat freed by the host: the lobby after it, and who sat there."""

    lobby: Lobby
    user_id: int  # negative for a bot seat
    name: str
    seat: int  # 1-based, as the lobby listed it


@dataclass(frozen=True)
class LobbyChange:
    """The lobby before and after its host changed it."""

    before: Lobby
    after: Lobby

    @property
    def seats_changed(self) -> bool:
        return self.before.seats != self.after.seats

    @property
    def options_changed(self) -> bool:
        return self.before.options != self.after.options

    @property
    def clock_changed(self) -> bool:
        return self.before.clock != self.after.clock


async def _hosted_lobby(host: HostService, channel_id: int, user: UserRef) -> Lobby:
    """The channel's open lobby, if ``user`` hosts it (call under the channel
    lock). After the start, the refusal says the match has started."""
    lobby = await host.lobby_in(channel_id)
    if lobby is None:
        latest = await host.store.latest_lobby_in(channel_id)
        started = latest is not None and latest.status == "started"
        if started or host.match_in(channel_id) is not None:
            raise HostError("lobby-started-already")
        raise HostError("no-lobby")
    if user.id != lobby.host_id:
        raise HostError("not-host")
    return lobby


def seat_choices(host: HostService, lobby: Lobby) -> list[tuple[int, int, str]]:
    """``(seat, user id, name)`` of every seat but the host's, seat numbers
    from 1: what ``/lobby kick`` offers."""
    return [
        (seat, uid, host.display_name(uid, lobby))
        for seat, uid in enumerate(lobby.players, start=1)
        if uid != lobby.host_id
    ]


def find_seat(host: HostService, lobby: Lobby, text: str) -> int:
    """The user id a ``/lobby kick`` value names: a user id (what the
    autocomplete sends), a seat number, or a seated name (case ignored)."""
    text = text.strip()
    try:
        number = int(text)
    except ValueError:
        number = None
    if number is not None:
        if number in lobby.players:
            return number
        if 1 <= number <= len(lobby.players):
            return lobby.players[number - 1]
    folded = text.casefold()
    for uid in lobby.players:
        if host.display_name(uid, lobby).casefold() == folded:
            return uid
    raise HostError("lobby-kick-unknown", seat=text)


async def kick(host: HostService, channel_id: int, user: UserRef, seat: str | int) -> Kicked:
    """The host frees a seat: ``seat`` is a user id (negative: a bot), or
    the text of ``/lobby kick`` (see :func:`find_seat`). The host's own seat
    is refused: they leave or cancel instead."""
    async with host._channel_lock(channel_id):
        lobby = await _hosted_lobby(host, channel_id, user)
        target = seat if isinstance(seat, int) else find_seat(host, lobby, seat)
        if target == user.id:
            raise HostError("lobby-kick-self")
        if target not in lobby.players:
            raise HostError("lobby-kick-unknown", seat=host.display_name(target, lobby))
        name = host.display_name(target, lobby)
        number = lobby.players.index(target) + 1
        await host.store.remove_lobby_player(lobby.id, target)
        after = await host.lobby(lobby.id)
    assert after is not None
    return Kicked(after, target, name, number)


def _merged_options(game_id: str, current: str, given: str | None, standard: bool) -> Any:
    """The lobby's options with ``given`` (``key=value`` text) over them, or
    over the defaults when ``standard``: validated like ``/lobby create``'s."""
    game = GAMES[game_id]
    try:
        base = {} if standard else parse_options_text(current)
        base.update(parse_options_text(given or ""))
        return game.options(base)
    except RulesError as err:
        raise HostError("bad-options", rules=err) from None


def _check_decks(host: HostService, lobby: Lobby, options: Any) -> None:
    """A deck game's seats keep the decks they chose: the options with every
    seat's deck must still be valid, as they must be at the start; and every
    deck the options name must be playable even where a chosen deck wins
    over it for now (that player may leave)."""
    if lobby.game_id not in DECK_GAMES:
        return
    game = GAMES[lobby.game_id]
    chosen = {uid: code for uid, _, code in lobby.decks}
    try:
        host.decks.seat_codes(lobby.game_id, [0] * len(options.decks), {}, options.decks)
        codes = host.decks.seat_codes(lobby.game_id, lobby.players, chosen, options.decks)
        game.options({**options.model_dump(), "decks": codes})
    except RulesError as err:
        raise HostError("bad-options", rules=err) from None


async def change(
    host: HostService,
    channel_id: int,
    user: UserRef,
    *,
    seats: int | None = None,
    options: str | None = None,
    clock: str | None = None,
    standard: bool = False,
) -> LobbyChange:
    """The host changes the lobby before the start: its number of seats, its
    options (``options``: ``key=value`` pairs that replace those keys, the
    others stay; ``standard``: start again from the defaults) and its clock.
    The same checks as ``/lobby create``; fewer seats than seated players is
    refused."""
    if seats is None and not options and clock is None and not standard:
        raise HostError("lobby-change-nothing")
    if clock is not None and clock not in CLOCKS:
        raise HostError("bad-clock", clock=clock, clocks=", ".join(CLOCKS))
    async with host._channel_lock(channel_id):
        lobby = await _hosted_lobby(host, channel_id, user)
        game = GAMES[lobby.game_id]
        info = game.info
        table = lobby.seats if seats is None else seats
        if not info.min_seats <= table <= info.max_seats:
            raise HostError(
                "bad-seats",
                game=Msg.of(f"game-{lobby.game_id}-name"),
                min=info.min_seats,
                max=info.max_seats,
            )
        if len(lobby.players) > table:
            raise HostError("lobby-seats-taken", count=len(lobby.players), seats=table)
        parsed = _merged_options(lobby.game_id, lobby.options, options, standard)
        _check_decks(host, lobby, parsed)
        text = game.options_text(parsed)
        new_clock = lobby.clock if clock is None else clock
        if (table, text, new_clock) == (lobby.seats, lobby.options, lobby.clock):
            raise HostError("lobby-unchanged")
        await host.store.set_lobby_rules(lobby.id, table, text, new_clock)
        after = await host.lobby(lobby.id)
    assert after is not None
    return LobbyChange(lobby, after)


def change_lines(locale: str | None, change: LobbyChange) -> list[str]:
    """What changed, one line each, in ``locale``: the seats, the options in
    words (all of them, as the lobby now has them), the clock."""
    after = change.after
    lines = []
    if change.seats_changed:
        lines.append(t(locale, "lobby-change-seats", seats=after.seats))
    if change.options_changed:
        options = readable_options(locale, after.game_id, after.options)
        lines.append(t(locale, "lobby-change-options", options=options))
    if change.clock_changed:
        lines.append(t(locale, "lobby-clock", clock=t(locale, f"clock-{after.clock}")))
    return lines
