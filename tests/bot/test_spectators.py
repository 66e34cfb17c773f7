"""Spectators (``bot/spectators.py``): who follows what, and that what a
spectator is given never depends on hidden information."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.i18n import game_text, t
from bot.service import HostError, HostService, LiveMatch, UserRef
from bot.spectators import (
    Spectators,
    plays_in_thread,
    public_board_png,
    public_lines,
    summary_line,
    update_lines,
)
from bot.store import Store
from engine import GAMES, Event, Match, rng
from render import render_private

ALICE = UserRef(1, "Alice", "en-US")
BOB = UserRef(2, "Bob", "fr")
EVE = UserRef(5, "Eve", "en-US")
CHAN = 100


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[HostService]:
    store = await Store.open(tmp_path / "g.db")
    svc = HostService(store, seed_source=lambda: 4242)
    await svc.resume()
    yield svc
    await store.close()


async def _started(svc: HostService, channel: int = CHAN, guild: int = 9) -> LiveMatch:
    await svc.create_lobby(
        guild_id=guild,
        channel_id=channel,
        host=ALICE,
        game_id="between-battle",
        seats=2,
        options="characters=pirate,ninja hp=3",
    )
    await svc.join(channel, BOB)
    return await svc.start(channel, ALICE)


# ---- following ---------------------------------------------------------------------------------
async def test_watch_unwatch_and_the_rows_survive_a_restart(
    service: HostService, tmp_path: Path
) -> None:
    live = await _started(service)
    spectators = Spectators(service)
    await spectators.load()
    assert spectators.of(live.id) == ()
    await spectators.watch(live, EVE.id)
    await spectators.watch(live, EVE.id)  # twice: still one row
    assert spectators.of(live.id) == (EVE.id,) and spectators.follows(live.id, EVE.id)
    # another service on the same database reads who follows what
    again = HostService(await Store.open(tmp_path / "g.db"))
    try:
        await again.resume()
        other = Spectators(again)
        await other.load()
        assert other.of(live.id) == (EVE.id,)
    finally:
        await again.store.close()
    await spectators.unwatch(live.id, EVE.id)
    assert spectators.of(live.id) == () and not spectators.follows(live.id, EVE.id)
    await spectators.load()
    assert spectators.of(live.id) == ()


async def test_a_player_is_refused_and_so_is_a_finished_match(service: HostService) -> None:
    live = await _started(service)
    spectators = Spectators(service)
    with pytest.raises(HostError) as err:
        await spectators.watch(live, BOB.id)
    assert err.value.key == "watch-player" and err.value.params == {"match": live.id}
    await spectators.watch(live, EVE.id)
    await service.resign(live.id, ALICE.id)
    assert live.match.is_over
    with pytest.raises(HostError) as err:
        spectators.check_can_watch(live, 6)
    assert err.value.key == "watch-over"
    await spectators.finish(live.id)
    assert spectators.of(live.id) == ()


async def test_rows_of_ended_matches_are_dropped_at_load(service: HostService) -> None:
    live = await _started(service)
    spectators = Spectators(service)
    await spectators.watch(live, EVE.id)
    await service.resign(live.id, BOB.id)  # ended without the final board reaching anyone
    await spectators.load()
    assert spectators.of(live.id) == ()
    async with service.store.db.execute("SELECT COUNT(*) FROM watchers") as cur:
        row = await cur.fetchone()
    assert row is not None and row[0] == 0


async def test_live_matches_of_a_server_for_autocomplete(service: HostService) -> None:
    first = await _started(service, channel=100)
    second = await _started(service, channel=101)
    elsewhere = await _started(service, channel=200, guild=10)
    spectators = Spectators(service)
    assert [m.id for m in spectators.live_matches(9)] == [second.id, first.id]
    assert [m.id for m in spectators.live_matches(9, f"#{first.id}")] == [first.id]
    assert [m.id for m in spectators.live_matches(10)] == [elsewhere.id]
    await service.resign(second.id, ALICE.id)
    assert [m.id for m in spectators.live_matches(9)] == [first.id]


async def test_thread_mode_is_read_from_the_lobby_channel(service: HostService) -> None:
    live = await _started(service)
    assert not plays_in_thread(live)  # channel mode: no lobby channel apart
    # THREADS' LiveMatch.lobby_channel_id: the match plays in a thread of its own
    live.lobby_channel_id = live.channel_id  # type: ignore[attr-defined]
    assert not plays_in_thread(live)
    live.lobby_channel_id = live.channel_id + 1  # type: ignore[attr-defined]
    assert plays_in_thread(live)


async def test_the_one_match_a_channel_started_in_a_thread(service: HostService) -> None:
    """/watch and /board without a number in the lobby's channel (thread
    mode): the match that channel started, when it is the only one."""
    spectators = Spectators(service)
    first = await _started(service)
    assert first.lobby_channel_id == CHAN and spectators.started_in(CHAN) is None  # no thread
    await service.move_match(first, 1001)  # its thread
    assert spectators.started_in(CHAN) is first
    assert spectators.started_in(1001) is None
    second = await _started(service)
    await service.move_match(second, 1002)
    assert spectators.started_in(CHAN) is None  # two: the player names one
    await service.resign(second.id, ALICE.id)
    assert spectators.started_in(CHAN) is first


async def test_summary_line_in_both_languages(service: HostService) -> None:
    live = await _started(service)
    acting = live.names[sorted(live.match.pending())[0]]
    line = summary_line(live, "en")
    assert line.startswith(f"Between Battle · match #{live.id} · Alice, Bob · 0 actions played")
    assert line.endswith(f"to act: {acting}")
    assert summary_line(live, "fr").endswith(f"à jouer : {acting}")
    assert "\n" not in line
    await service.resign(live.id, ALICE.id)
    assert "over: " in summary_line(live, "en") and "Bob" in summary_line(live, "en")
    assert "terminée : " in summary_line(live, "fr")


# ---- what a spectator reads --------------------------------------------------------------------
def test_public_lines_show_private_events_only_in_their_redacted_form() -> None:
    """An event addressed to one seat reaches a spectator only as its
    redacted form, or not at all."""
    game_id = "between-battle"
    match = Match(GAMES[game_id], "characters=pirate,ninja hp=3", 2, 7)
    chooser = rng.seed_state(3)
    private: list[Event] = []
    events: list[Event] = []
    while not match.is_over and len(private) < 3:
        seat = sorted(match.pending())[0]
        legal = match.legal_notations(seat)
        index, chooser = rng.randbelow(chooser, len(legal))
        new = match.play(seat, legal[index])
        events += new
        private += [e for e in new if e.to is not None]
    assert private, "no private event in this game: choose another seed"
    names = ["Alice", "Bob"]
    game = GAMES[game_id]

    def line(event: Event) -> list[str]:
        msg = game.describe_event(event, names)
        text = game_text("en", msg) if msg is not None else ""
        return [f"· {text}"] if text else []

    for event in events:
        shown = public_lines(game_id, [event], names, "en")
        if event.to is None:
            assert shown == line(event)
        elif event.redacted is None:
            assert shown == []  # addressed to a seat, with nothing for the others
        else:
            assert shown == line(Event(event.kind, event.redacted, None, None))
    assert public_lines(game_id, events, names, "en") == [
        text for event in events for text in public_lines(game_id, [event], names, "en")
    ]


async def test_update_lines_say_resignations_in_the_readers_language(
    service: HostService,
) -> None:
    live = await _started(service)
    update = await service.resign(live.id, ALICE.id)
    # the game's own event says it, once (no second line of the host's)
    assert update_lines([update], "en").count("· Alice resigns.") == 1
    assert update_lines([update], "fr").count("· Alice abandonne.") == 1
    assert not {t("en", "resigned", user="Alice"), t("fr", "resigned", user="Alice")} & {
        *update_lines([update], "en"),
        *update_lines([update], "fr"),
    }


# ---- the hidden-information check --------------------------------------------------------------
def _states(game_id: str, seed: int, points: tuple[int, ...]) -> list[tuple[int, Any]]:
    """The states of a random game of ``game_id`` (its quick options, two
    seats) after each number of actions in ``points`` that it reaches."""
    game = GAMES[game_id]
    state = game.setup(game.options(game.quick_options), 2, seed)
    chooser = rng.seed_state(seed)
    found = []
    for step in range(max(points) + 1):
        if step in points:
            found.append((step, state))
        pending = sorted(game.pending(state))
        if not pending:
            break
        k, chooser = rng.randbelow(chooser, len(pending))
        seat = pending[k]
        legal = game.legal_actions(state, seat)
        index, chooser = rng.randbelow(chooser, len(legal))
        state, _ = game.apply(state, seat, legal[index])
    return found


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_the_spectators_board_does_not_depend_on_hidden_information(game_id: str) -> None:
    """The image a spectator gets is the same whatever the hands, the decks
    and the generator hold: resampling everything a spectator cannot see
    (``determinize(state, None, k)``) changes no byte of it. The same
    resampling does change what a seat sees privately (its hand image), so
    the check would catch a spectator image that showed a hand (checked by
    drawing the private image instead: every game fails then)."""
    game = GAMES[game_id]
    names = ["Alice", "Bob"]
    private_changed = False
    states = _states(game_id, 11, (0, 6, 15, 30))
    assert len(states) >= 3
    for step, state in states:
        board = public_board_png(game_id, state, names, "en")
        for k in (1, 2):
            other = game.determinize(state, None, 1000 * step + k)
            assert public_board_png(game_id, other, names, "en") == board, (game_id, step, k)
            if not private_changed:
                private_changed = render_private(
                    game_id, game.view(other, 0), names, "en"
                ) != render_private(game_id, game.view(state, 0), names, "en")
    assert private_changed, f"{game_id}: the resampling never changed a hand"
