"""``Update.private_changed``: a seat the action concerns is sent its private
message again exactly when that message reads differently (its image, its
text, its actions), in every game."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, cast

import pytest

from bot.discord.announce import Announcer
from bot.service import HostService, LiveMatch, UserRef, private_key
from bot.store import Store
from engine import GAMES, rng
from render import render_private

ALICE = UserRef(1, "Alice", "en-US")
BOB = UserRef(2, "Bob", "fr")
CHAN = 100
STEPS = 40  # actions per game: enough to meet both kinds of seats where a game has them


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[HostService]:
    store = await Store.open(tmp_path / "g.db")
    svc = HostService(store, seed_source=lambda: 4242)
    await svc.resume()
    yield svc
    await store.close()


async def _start(svc: HostService, game_id: str) -> LiveMatch:
    await svc.create_lobby(
        guild_id=9,
        channel_id=CHAN,
        host=ALICE,
        game_id=game_id,
        seats=2,
        options=GAMES[game_id].quick_options,
    )
    await svc.join(CHAN, BOB)
    return await svc.start(CHAN, ALICE)


def _message(live: LiveMatch, seat: int) -> tuple[Any, ...]:
    """What the seat's private message shows, read the way the Discord
    adapter writes it: the view drawn, the text above it in both languages,
    and the actions its buttons offer."""
    text = Announcer.private_text  # uses nothing of the bot but its arguments
    none = cast(Announcer, None)
    moves = live.match.legal_notations(seat) if seat in live.match.pending() else []
    return (
        live.match.view(seat),
        text(none, live, seat, "en"),
        text(none, live, seat, "fr"),
        tuple(moves),
    )


async def _walk(svc: HostService, live: LiveMatch, salt: int) -> tuple[int, int]:
    """Random actions; at each, checks ``private_changed`` against what each
    seat concerned was last shown (the start's message, then the message of
    the last action that concerned it). Returns (seats sent again, seats
    left out)."""
    chooser = rng.seed_state(salt)
    match = live.match
    shown = [_message(live, s) for s in range(match.seats)]  # the start's messages
    sent = left_out = drawn = 0
    for _ in range(STEPS):
        if match.is_over:
            break
        seat = sorted(match.pending())[0]
        user = live.user_of(seat)
        before_pending = set(match.pending())
        moves = svc.legal_moves(live, user)
        index, chooser = rng.randbelow(chooser, len(moves))
        update = await svc.play(live.id, user, moves[index][0], seat=seat)
        now = [_message(live, s) for s in range(match.seats)]
        concerned = before_pending | set(match.pending())
        for event in update.events:
            concerned |= set(event.to or ())
        expected = {s for s in concerned if shown[s] != now[s]}
        assert update.private_changed == expected, (live.game_id, match.version)
        sent += len(expected)
        for s in concerned - expected:
            left_out += 1
            if drawn < 3:  # the image the seat keeps is the one it would be sent
                drawn += 1
                names = live.names
                kept = render_private(live.game_id, shown[s][0], names, "fr")
                assert kept == render_private(live.game_id, match.view(s), names, "fr")
        for s in concerned:
            shown[s] = now[s]
    return sent, left_out


@pytest.mark.parametrize("game_id", sorted(GAMES))
async def test_private_changed_names_the_seats_whose_message_changed(
    service: HostService, game_id: str
) -> None:
    live = await _start(service, game_id)
    sent, _ = await _walk(service, live, salt=3)
    assert sent > 0


async def test_belle_position_keeps_the_waiting_seats_message(service: HostService) -> None:
    """Belle Position's seats decide some steps at once (both place their
    units): one seat's choice leaves the other's hand and decision alone, so
    that seat is not sent its message again."""
    live = await _start(service, "belle-position")
    _, left_out = await _walk(service, live, salt=3)
    assert left_out > 0


async def test_a_seat_is_sent_again_when_its_view_changes(service: HostService) -> None:
    """Between Battle: the waiting seat's image shows the piles' tops, so a
    card laid on a pile sends it its message again, and the key the
    service keeps for it follows the version."""
    live = await _start(service, "between-battle")
    match = live.match
    for _ in range(STEPS):
        seat = sorted(match.pending())[0]
        other = 1 - seat
        before = match.view(other)
        user = live.user_of(seat)
        update = await service.play(live.id, user, service.legal_moves(live, user)[0][0], seat=seat)
        if other in update.pending and match.view(other) != before:
            assert other in update.private_changed
            assert live.private_keys[other][0] == match.version
            return
    pytest.fail("no action changed the waiting seat's view")


async def test_after_a_restart_the_seats_concerned_are_sent_again(tmp_path: Path) -> None:
    """What a seat was last shown is kept in memory only: after a restart,
    the first action that concerns a seat sends it its message again, even
    where Belle Position would otherwise leave it alone."""
    path = tmp_path / "g.db"
    store = await Store.open(path)
    svc = HostService(store, seed_source=lambda: 4242)
    live = await _start(svc, "belle-position")
    match = live.match
    game = live.game
    for _ in range(STEPS):  # up to a step where one seat's choice leaves the other alone
        seat = sorted(match.pending())[0]
        move = match.legal_notations(seat)[0]
        after, _ = game.apply_text(match.state, seat, move)
        other = 1 - seat
        if other in match.pending() and private_key(
            game, match.state, match.pending(), other
        ) == private_key(game, after, game.pending(after), other):
            break
        await svc.play(live.id, live.user_of(seat), move, seat=seat)
    else:
        pytest.fail("no simultaneous step met")
    await store.close()

    store = await Store.open(path)
    svc = HostService(store)
    await svc.resume()
    again = svc.match_in(CHAN)
    assert again is not None and not again.private_keys
    update = await svc.play(again.id, again.user_of(seat), move, seat=seat)
    assert other in update.private_changed
    await store.close()
