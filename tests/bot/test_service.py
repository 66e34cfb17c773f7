"""The lobby and match service, without Discord."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.i18n import game_text
from bot.service import HostError, HostService, LiveMatch, UserRef
from bot.store import LockedMatch, Store
from engine import Match, MatchRecord, rng

ALICE = UserRef(1, "Alice", "en-US")
BOB = UserRef(2, "Bob", "fr")
CHLOE = UserRef(3, "Chloé", "fr")
CHAN = 100


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[HostService]:
    store = await Store.open(tmp_path / "g.db")
    svc = HostService(store, seed_source=lambda: 4242)
    await svc.resume()
    yield svc
    await store.close()


async def _started(svc: HostService, options: str = "characters=pirate,ninja") -> LiveMatch:
    await svc.create_lobby(
        guild_id=9,
        channel_id=CHAN,
        host=ALICE,
        game_id="between-battle",
        seats=2,
        options=options,
    )
    await svc.join(CHAN, BOB)
    return await svc.start(CHAN, ALICE)


def _acting_user(live: LiveMatch) -> int:
    return live.user_of(sorted(live.match.pending())[0])


async def _play_random(svc: HostService, live: LiveMatch, steps: int, salt: int = 1) -> None:
    chooser = rng.seed_state(salt)
    for _ in range(steps):
        if live.match.is_over:
            return
        user = _acting_user(live)
        moves = svc.legal_moves(live, user)
        index, chooser = rng.randbelow(chooser, len(moves))
        await svc.play(live.id, user, moves[index][0])


async def test_lobby_flow_and_errors(service: HostService) -> None:
    with pytest.raises(HostError) as err:
        await service.create_lobby(
            guild_id=9, channel_id=CHAN, host=ALICE, game_id="chess", seats=2
        )
    assert err.value.key == "unknown-game"
    with pytest.raises(HostError) as err:
        await service.create_lobby(
            guild_id=9, channel_id=CHAN, host=ALICE, game_id="between-battle", seats=7
        )
    assert err.value.key == "bad-seats"
    with pytest.raises(HostError) as err:
        await service.create_lobby(
            guild_id=9, channel_id=CHAN, host=ALICE, game_id="between-battle", options="x=1"
        )
    assert err.value.key == "bad-options" and err.value.rules is not None
    assert "between_rule" in game_text("en", err.value.rules.msg)

    lobby = await service.create_lobby(
        guild_id=9,
        channel_id=CHAN,
        host=ALICE,
        game_id="between-battle",
        seats=3,
        options="hp=8",
    )
    assert lobby.players == (1,) and lobby.options == "hp=8"
    with pytest.raises(HostError) as err:
        await service.create_lobby(guild_id=9, channel_id=CHAN, host=BOB, game_id="between-battle")
    assert err.value.key == "channel-busy"
    with pytest.raises(HostError) as err:
        await service.start(CHAN, ALICE)
    assert err.value.key == "not-enough-players"
    await service.join(CHAN, BOB)
    with pytest.raises(HostError) as err:
        await service.join(CHAN, BOB)
    assert err.value.key == "already-joined"
    with pytest.raises(HostError) as err:
        await service.start(CHAN, BOB)
    assert err.value.key == "not-host"
    with pytest.raises(HostError) as err:
        await service.cancel(CHAN, BOB, is_admin=False)
    assert err.value.key == "not-host-cancel"
    # the host leaves: Bob becomes host
    lobby = await service.leave(CHAN, ALICE)
    assert lobby.host_id == 2 and lobby.players == (2,)
    await service.join(CHAN, CHLOE)
    await service.join(CHAN, ALICE)
    with pytest.raises(HostError) as err:
        await service.join(CHAN, UserRef(4, "Dan"))
    assert err.value.key == "lobby-full"
    # an admin may cancel
    lobby = await service.cancel(CHAN, CHLOE, is_admin=True)  # type: ignore[assignment]
    assert lobby.status == "cancelled"
    assert await service.lobby_in(CHAN) is None


async def test_play_refusals_change_nothing(service: HostService) -> None:
    live = await _started(service)
    version = live.version
    state = live.match.state
    user = _acting_user(live)
    other = 3 - user
    with pytest.raises(HostError) as err:
        await service.play(live.id, other, "D")
    assert err.value.key == "not-your-turn"
    with pytest.raises(HostError) as err:
        await service.play(live.id, 77, "D")
    assert err.value.key == "not-seated"
    with pytest.raises(HostError) as err:
        await service.play(live.id, user, "zzz")
    assert err.value.key == "illegal" and err.value.rules is not None
    assert "not a Between Battle move" in game_text("en", err.value.rules.msg)
    assert "n'est pas un coup" in game_text("fr", err.value.rules.msg)
    with pytest.raises(HostError) as err:
        await service.play(live.id, user, "D", expected_version=version + 3)
    assert err.value.key == "stale"
    assert live.version == version and live.match.state is state
    row = await service.store.match(live.id)
    assert row is not None and row.version == version


async def test_concurrent_clicks_apply_exactly_one(service: HostService) -> None:
    live = await _started(service)
    user = _acting_user(live)
    version = live.version
    results = await asyncio.gather(
        *[service.play(live.id, user, "D", expected_version=version) for _ in range(5)],
        return_exceptions=True,
    )
    ok = [r for r in results if not isinstance(r, BaseException)]
    stale = [r for r in results if isinstance(r, HostError) and r.key == "stale"]
    assert len(ok) == 1 and len(stale) == 4
    assert live.version == version + 1
    assert len(await service.store.match_actions(live.id)) == 1


async def test_action_is_committed_before_the_service_returns(
    service: HostService, monkeypatch: pytest.MonkeyPatch
) -> None:
    live = await _started(service)
    user = _acting_user(live)
    state, version = live.match.state, live.version

    async def broken(*args: object, **kwargs: object) -> None:
        raise OSError("disk full")

    # the action is written in the match's locked transaction (issue 18)
    monkeypatch.setattr(LockedMatch, "commit_action", broken)
    with pytest.raises(OSError):
        await service.play(live.id, user, "D")
    # the database refused: the match in memory is as before
    assert live.match.state is state and live.version == version
    assert live.match.actions == []


async def test_full_match_restart_and_replay(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    store = await Store.open(path)
    svc = HostService(store, seed_source=lambda: 99)
    live = await _started(svc)
    await _play_random(svc, live, 15)
    version = live.version
    state = live.match.state
    await store.close()

    # a new host on the same file resumes the match where it was
    store2 = await Store.open(path)
    svc2 = HostService(store2)
    resumed = await svc2.resume()
    assert [m.id for m in resumed] == [live.id]
    again = svc2.match_in(CHAN)
    assert again is not None and again.version == version and again.match.state == state
    assert again.names == ["Alice", "Bob"]
    await _play_random(svc2, again, 3000, salt=2)
    assert again.match.is_over
    # result stored, channel free again, replay identical
    result = await store2.result(again.id)
    assert result is not None
    ranking, reason = result
    assert reason == again.match.outcome().reason  # type: ignore[union-attr]
    assert sorted(u for g in json.loads(ranking)["users"] for u in g) == [1, 2]
    assert svc2.match_in(CHAN) is None
    row = await store2.match(again.id)
    assert row is not None and row.status == "finished"
    actions = await store2.match_actions(again.id)
    record = MatchRecord(
        game="between-battle",
        options=json.loads(row.options),
        seats=2,
        seed=row.seed,
        actions=tuple((seat, action) for _, seat, action, _ in actions),
    )
    assert Match.replay(record).state == again.match.state
    with pytest.raises(HostError) as err:
        await svc2.play(again.id, 1, "D")
    assert err.value.key == "game-over"
    await store2.close()


async def test_resign_ends_a_two_player_match(service: HostService) -> None:
    live = await _started(service)
    update = await service.resign(live.id, BOB.id)
    assert update.outcome is not None
    assert update.outcome.ranking == ((0,), (1,))
    assert update.outcome.reason == "resign"
    result = await service.store.result(live.id)
    assert result is not None and result[1] == "resign"
    row = await service.store.match(live.id)
    assert row is not None and row.resigned == (1,)


async def test_cancel_a_match(service: HostService) -> None:
    live = await _started(service)
    with pytest.raises(HostError) as err:
        await service.cancel(CHAN, BOB, is_admin=False)
    assert err.value.key == "not-host-cancel"
    await service.cancel(CHAN, ALICE, is_admin=False)
    assert service.match_in(CHAN) is None
    with pytest.raises(HostError) as err:
        await service.play(live.id, _acting_user(live), "D")
    assert err.value.key == "match-closed"


async def test_private_changes_name_the_pending_and_informed_seats(service: HostService) -> None:
    live = await _started(service)
    first = _acting_user(live)
    await service.play(live.id, first, service.legal_moves(live, first)[0][0])
    user = _acting_user(live)
    seat = live.seat_of(user)
    update = await service.play(live.id, user, "D")
    # the chooser is now pending; the taker was pending before
    assert set(update.pending) == {1 - seat}  # type: ignore[operator]
    assert {seat, 1 - seat} <= update.private_changed  # type: ignore[operator]
