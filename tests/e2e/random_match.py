"""A random match played through the real client against the fake Discord,
shared by the end-to-end tests: a registered (hostable) game gets its full
match by one parametrisation of ``test_discord_every_game.py``.

Players pick legal moves at random (from a SplitMix64 state, so a match is
the same on every run) and play them as a person would; the default way is
``/play`` with the notation typed.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Collection
from typing import TYPE_CHECKING, Literal

from bot.service import LiveMatch
from engine import rng
from tests.fakediscord import FakeDiscord, FakeUser

if TYPE_CHECKING:
    from tests.e2e.test_discord_between_battle import World

Move = Callable[[FakeUser, int, list[str], int], Awaitable[None]]
"""How a move is played: ``(user, seat, legal notations, chosen index)``."""


def typed_move(fake: FakeDiscord, world: World) -> Move:
    """Play the chosen notation with ``/play``; the answer is private and
    says it was played."""

    async def move(user: FakeUser, seat: int, legal: list[str], index: int) -> None:
        res = await fake.slash(user, world.chan, "play", move=legal[index])
        assert res.ephemeral
        assert "Played" in res.text or "joué" in res.text, (legal[index], res.text)

    return move


async def play_random_match(
    fake: FakeDiscord,
    world: World,
    live: LiveMatch,
    chooser: int,
    *,
    move: Move | None = None,
    seat_choice: Literal["random", "first"] = "random",
    players: Collection[int] | None = None,
    max_moves: int = 5000,
    timeout: float = 5.0,
    final_board: bool = True,
) -> int:
    """Play ``live`` with random legal moves, each by a pending seat's user
    (a random one of them, or the first), until the end or ``max_moves``.

    ``players``: the users the test moves for (the others are the host's
    bots: wait for them); by default every seat. With ``final_board``, wait
    until the final board (with the revealed seed) is posted. Returns the
    generator state after the last draw."""
    move = move or typed_move(fake, world)
    for _ in range(max_moves):
        if players is not None:
            await fake.wait_for(lambda: live.match.is_over or bool(_ours(live, players)), timeout)
        if live.match.is_over:
            break
        pending = _ours(live, players) if players is not None else sorted(live.match.pending())
        seat = pending[0]
        if seat_choice == "random":
            k, chooser = rng.randbelow(chooser, len(pending))
            seat = pending[k]
        user = world.users[live.user_of(seat)]
        legal = live.match.legal_notations(seat)
        index, chooser = rng.randbelow(chooser, len(legal))
        version = live.version
        await move(user, seat, legal, index)
        await fake.wait_for(lambda v=version: live.version > v, timeout)
    if final_board:
        assert live.match.is_over
        seed = str(live.match.seed)
        # the last boards may still be drawing on a busy machine
        where = fake.channels[live.channel_id]  # the match's thread, or its channel
        await fake.wait_for(
            lambda: any(seed in m.text for m in fake.channel_messages(where)), timeout=30
        )
    return chooser


def _ours(live: LiveMatch, players: Collection[int]) -> list[int]:
    return [s for s in sorted(live.match.pending()) if live.user_of(s) in players]
