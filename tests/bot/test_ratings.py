"""Ratings: OpenSkill Plackett-Luce, ties, resignations, pools, recompute."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot import ratings
from bot.ratings import FinishedMatch, Rating, SeatResult
from bot.service import HostService, UserRef
from bot.store import Store
from engine import rng


def _match(
    mid: int, places: list[int], *, guild: int | None = 7, resigned=(), bots=()
) -> FinishedMatch:
    return FinishedMatch(
        mid,
        guild,
        "between-battle",
        tuple(SeatResult(100 + i, p, i in resigned, i in bots) for i, p in enumerate(places)),
    )


@pytest.mark.parametrize("players", [2, 3, 4])
def test_winner_gains_loser_loses(players: int) -> None:
    table: dict[ratings.Key, Rating] = {}
    ratings.apply_match(table, _match(1, list(range(1, players + 1))))
    shown = [table[("global", "between-battle", "humans", 100 + i)] for i in range(players)]
    mus = [r.mu for r in shown]
    assert mus == sorted(mus, reverse=True)
    assert mus[0] > ratings.DEFAULT_MU > mus[-1]
    assert [r.games for r in shown] == [1] * players
    assert [r.wins for r in shown] == [1] + [0] * (players - 1)
    # per server and global: the same numbers after one match
    assert table[("guild:7", "between-battle", "humans", 100)] == shown[0]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_ties_share_the_update(players: int) -> None:
    table: dict[ratings.Key, Rating] = {}
    places = [1] * players
    ratings.apply_match(table, _match(1, places))
    rs = [table[("global", "between-battle", "humans", 100 + i)] for i in range(players)]
    assert len({(r.mu, r.sigma) for r in rs}) == 1
    assert all(r.wins == 1 for r in rs)
    # a tie for second place in a 3- or 4-player match
    if players >= 3:
        table = {}
        ratings.apply_match(table, _match(2, [1, 2, 2] + [4] * (players - 3)))
        second = table[("global", "between-battle", "humans", 101)]
        third = table[("global", "between-battle", "humans", 102)]
        assert second.mu == pytest.approx(third.mu)


def test_resignation_counts_as_last_place() -> None:
    seats = (SeatResult(1, 1, resigned=True), SeatResult(2, 2), SeatResult(3, 3))
    assert ratings.rating_places(seats) == [4, 2, 3]
    table: dict[ratings.Key, Rating] = {}
    ratings.apply_match(table, FinishedMatch(1, None, "between-battle", seats))
    mu = {uid: table[("global", "between-battle", "humans", uid)].mu for uid in (1, 2, 3)}
    assert mu[1] < mu[3] < mu[2]
    assert ("guild:None", "between-battle", "humans", 1) not in table


def test_matches_with_bots_go_to_their_own_pool() -> None:
    table: dict[ratings.Key, Rating] = {}
    ratings.apply_match(table, _match(1, [1, 2], bots=(1,)))
    assert ("global", "between-battle", "bots", 100) in table
    assert ("global", "between-battle", "bots", 101) not in table  # bots are not rated
    assert not any(k[2] == "humans" for k in table)


def test_shown_rating_starts_at_1000() -> None:
    assert Rating().shown == 1000


async def _finish_random_matches(svc: HostService, n: int) -> None:
    users = [UserRef(i, f"p{i}") for i in range(1, 6)]
    chooser = rng.seed_state(3)
    for k in range(n):
        seats = 2 + k % 3
        players = [users[(k + i) % len(users)] for i in range(seats)]
        chan = 500 + k
        await svc.create_lobby(
            guild_id=10 + k % 2,
            channel_id=chan,
            host=players[0],
            game_id="between-battle",
            seats=seats,
            options="hp=4",
        )
        for p in players[1:]:
            await svc.join(chan, p)
        live = await svc.start(chan, players[0])
        steps = 0
        while not live.match.is_over:
            steps += 1
            if k % 4 == 3 and steps == seats + 3:  # after the draft
                await svc.resign(live.id, live.user_of(0))
                continue
            seat = sorted(live.match.pending())[0]
            moves = svc.legal_moves(live, live.user_of(seat))
            i, chooser = rng.randbelow(chooser, len(moves))
            await svc.play(live.id, live.user_of(seat), moves[i][0], seat=seat)


async def test_recompute_gives_the_same_numbers(database: str) -> None:
    store = await Store.open(database)
    svc = HostService(store, seed_source=lambda: 12345)
    await _finish_random_matches(svc, 9)
    incremental = await store.all_ratings()
    assert len(incremental) > 10
    history = await store.rating_series(1, "between-battle", "global")
    assert len(history) >= 3
    count = await store.recompute_ratings()
    assert count == 9
    assert await store.all_ratings() == incremental
    assert await store.rating_series(1, "between-battle", "global") == history
    # the stored seats say who resigned
    results = await store.recent_results(limit=20)
    assert len(results) == 9
    assert any(any(seat[3] for seat in r[4]) for r in results)
    await store.close()


async def test_results_from_version_2_are_rated_after_the_upgrade(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    old = await Store.open(path, upto=2)
    # a match as version 2 of the host stored it
    cur = await old.db.execute(
        "INSERT INTO matches (guild_id, channel_id, game_id, options, seats, seed, seed_sha256,"
        " engine_version, status, snapshot, version, created_at, updated_at)"
        " VALUES (3, 4, 'between-battle', '{}', 2, '1', 'x', '1', 'active', '{}', 1, '', '')"
    )
    mid = cur.lastrowid
    await old.db.executemany(
        "INSERT INTO match_players (match_id, seat, user_id, name) VALUES (?, ?, ?, ?)",
        [(mid, 0, 1, "a"), (mid, 1, 2, "b")],
    )
    # what version 2 of the host wrote at the end of a match
    await old.db.execute("UPDATE matches SET status = 'finished' WHERE id = ?", (mid,))
    await old.db.execute("UPDATE match_players SET resigned = 1 WHERE seat = 0")
    await old.db.execute(
        "INSERT INTO results (match_id, guild_id, game_id, ranking, reason, finished_at)"
        " VALUES (?, 3, 'between-battle', ?, 'resign', '2026-01-01T00:00:00')",
        (mid, json.dumps({"seats": [[1], [0]], "users": [[2], [1]]})),
    )
    await old.close()
    store = await Store.open(path)
    svc = HostService(store)
    await svc.resume()
    board, total = await store.leaderboard("guild:3", "between-battle", "humans", 0, 10)
    assert total == 2 and board[0][0] == 2  # user 2 won
    results = await store.recent_results(user_id=1)
    assert results[0][4] == [(2, "b", 1, False, False), (1, "a", 2, True, False)]
    await store.close()


async def test_leaderboard_paging(database: str) -> None:
    store = await Store.open(database)
    svc = HostService(store, seed_source=lambda: 777)
    await _finish_random_matches(svc, 6)
    first, total = await store.leaderboard("global", "between-battle", "humans", 0, 2)
    second, _ = await store.leaderboard("global", "between-battle", "humans", 2, 2)
    third, _ = await store.leaderboard("global", "between-battle", "humans", 4, 2)
    assert total == 5 and len(first) == 2 and len(second) == 2 and len(third) == 1
    rows = first + second + third
    assert len({r[0] for r in rows}) == 5
    shown = [ratings.display(r[2], r[3]) for r in rows]
    assert shown == sorted(shown, reverse=True)
    await store.close()
