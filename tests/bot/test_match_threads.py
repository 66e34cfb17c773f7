"""Where a match lives, without Discord: the venue an adapter gives a match at
its start (a thread), the lobby's channel freed, restarts, rematches."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.service import HostError, HostService, LiveMatch, Lobby, UserRef
from bot.store import Store

ALICE = UserRef(1, "Alice", "en-US")
BOB = UserRef(2, "Bob", "fr")
GUILD = 9
CHAN = 100
THREAD = 555


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[HostService]:
    store = await Store.open(tmp_path / "g.db")
    svc = HostService(store, seed_source=lambda: 4242)
    await svc.resume()
    yield svc
    await store.close()


async def _lobby(svc: HostService, channel: int = CHAN) -> Lobby:
    lobby = await svc.create_lobby(
        guild_id=GUILD,
        channel_id=channel,
        host=ALICE,
        game_id="between-battle",
        seats=2,
        options="characters=pirate,ninja",
    )
    await svc.join(channel, BOB)
    return lobby


async def test_a_match_moved_to_its_thread_frees_the_lobby_channel(service: HostService) -> None:
    await _lobby(service)
    seen: list[tuple[int, int, int]] = []

    async def venue(live: LiveMatch, lobby: Lobby) -> int | None:
        # called before the match is registered: no lookup finds it yet
        assert service.match_in(CHAN) is None
        seen.append((live.id, lobby.channel_id, live.channel_id))
        return THREAD

    live = await service.start(CHAN, ALICE, venue=venue)
    assert seen == [(live.id, CHAN, CHAN)]
    assert live.channel_id == THREAD and live.lobby_channel_id == CHAN and live.in_thread
    assert service.match_in(THREAD) is live
    assert service.match_in(CHAN) is None
    assert service.channel_guilds[THREAD] == GUILD
    row = await service.store.match(live.id)
    assert row is not None and row.channel_id == THREAD and row.lobby_channel_id == CHAN
    # the lobby's channel takes a new lobby while the match plays in its thread
    second = await _lobby(service)
    assert second.channel_id == CHAN
    # commands run in the thread reach the match
    user = live.user_of(sorted(live.match.pending())[0])
    move = service.legal_moves(live, user)[0][0]
    update = await service.play(live.id, user, move)
    assert update.live.channel_id == THREAD


async def test_a_thread_speaks_the_servers_language(service: HostService) -> None:
    await service.remember_guild(GUILD, CHAN, "fr")
    await _lobby(service)

    async def venue(live: LiveMatch, lobby: Lobby) -> int | None:
        return THREAD

    await service.start(CHAN, ALICE, venue=venue)
    assert service.channel_locale(THREAD) == "fr"


async def test_without_a_venue_or_when_it_fails_the_match_plays_in_the_channel(
    service: HostService, caplog: pytest.LogCaptureFixture
) -> None:
    await _lobby(service)

    async def none(live: LiveMatch, lobby: Lobby) -> int | None:
        return None

    live = await service.start(CHAN, ALICE, venue=none)
    assert live.channel_id == CHAN and not live.in_thread
    assert service.match_in(CHAN) is live
    with pytest.raises(HostError) as err:
        await _lobby(service)
    assert err.value.key == "channel-busy"
    await service.cancel(CHAN, ALICE, is_admin=False)

    await _lobby(service)

    async def broken(live: LiveMatch, lobby: Lobby) -> int | None:
        raise RuntimeError("discord is down")

    live = await service.start(CHAN, ALICE, venue=broken)
    assert live.channel_id == CHAN and service.match_in(CHAN) is live
    assert "no venue for match" in caplog.text


async def test_resume_finds_the_match_in_its_thread(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "g.db")
    svc = HostService(store, seed_source=lambda: 4242)
    await svc.resume()
    await svc.remember_guild(GUILD, CHAN, "fr")
    await _lobby(svc)

    async def venue(live: LiveMatch, lobby: Lobby) -> int | None:
        return THREAD

    live = await svc.start(CHAN, ALICE, venue=venue)
    await store.close()

    store = await Store.open(tmp_path / "g.db")
    again = HostService(store, seed_source=lambda: 4242)
    try:
        await again.resume()
        found = again.match_in(THREAD)
        assert found is not None and found.id == live.id
        assert found.lobby_channel_id == CHAN and again.match_in(CHAN) is None
        assert again.channel_guilds[THREAD] == GUILD
        # after a restart the thread and the lobby's channel (its start and end
        # lines) both speak the server's language, before anyone interacts
        assert again.channel_locale(THREAD) == "fr" and again.channel_locale(CHAN) == "fr"
    finally:
        await store.close()


async def test_a_rematch_opens_in_the_lobby_channel_not_in_the_thread(
    service: HostService,
) -> None:
    await _lobby(service)

    async def venue(live: LiveMatch, lobby: Lobby) -> int | None:
        return THREAD

    live = await service.start(CHAN, ALICE, venue=venue)
    await service.resign(live.id, BOB.id)
    assert live.match.is_over
    lobby = await service.rematch(live.id, ALICE)
    assert lobby.channel_id == CHAN and set(lobby.players) == {ALICE.id, BOB.id}
