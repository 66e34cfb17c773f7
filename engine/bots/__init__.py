"""Bot players: a pure interface, three levels, one small policy per game.

Using a bot (hosts)::

    from engine.bots import Budget, make_bot, bot_rng

    bot = make_bot("between-battle", "hard")
    state = bot_rng(secret, seat)                      # once per bot seat
    action, state = bot.choose(match.view(seat), match.legal_actions(seat), state,
                               Budget(seconds=1.0, clock=time.monotonic))
    match.play(seat, action)

``choose(view, legal_actions, rng_state, budget) -> (action, next_rng_state)``
gets the seat's *view*, never the state; it is pure and thread-safe (run it
in a worker thread, or in another process: views are JSON-able values), and
deterministic when the budget has no clock.

Levels (:data:`LEVELS`):

* ``easy``: random legal moves with light sense (the policy's ``easy``);
* ``normal``: a heuristic written for the game (the policy's ``normal``);
* ``hard``: Monte Carlo search over determinisations (states consistent with
  the view, drawn by ``Game.sample_state``), see :mod:`engine.bots.search`,
  within the :class:`Budget` (default: 1 s with a clock, at most 1,500 iterations).

Adding bots for a new game ``foo`` (game id ``foo``):

1. give ``Foo`` a ``sample_state(view, seed) -> state`` (see
   :meth:`engine.core.Game.sample_state`); its view must show every public
   fact needed to rebuild a state (add public fields if needed);
2. write ``engine/bots/foo.py`` with a :class:`GamePolicy` subclass
   (``observer``, ``easy``, ``normal``, and a fast state-level ``playout``)
   and ``POLICY = FooPolicy()``;
3. add ``foo`` to :data:`POLICIES` below. ``tests/bots`` then runs every
   level on it, and ``python -m benchmarks strength`` measures it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import battalia, belle_position, between_battle, liber, via_belli
from .base import (
    DEFAULT_BUDGET,
    HOST_LEVEL,
    LEVELS,
    BotChoice,
    BotError,
    Budget,
    GamePolicy,
    Level,
    RandomPolicy,
    bot_rng,
    reward,
)
from .bot import Bot

POLICIES: Mapping[str, GamePolicy[Any, Any, Any]] = {
    between_battle.POLICY.game.info.id: between_battle.POLICY,
    belle_position.POLICY.game.info.id: belle_position.POLICY,
    via_belli.POLICY.game.info.id: via_belli.POLICY,
    liber.POLICY.game.info.id: liber.POLICY,
    battalia.POLICY.game.info.id: battalia.POLICY,
}
"""Each game id with bots, and its policy."""


class NoBots(BotError, KeyError):
    """The game has no bot policy yet."""


def policy_for(game_id: str) -> GamePolicy[Any, Any, Any]:
    policy = POLICIES.get(game_id)
    if policy is None:
        raise NoBots(
            f"{game_id!r} has no bots yet: write engine/bots/<game>.py and list it in "
            "engine.bots.POLICIES"
        )
    return policy


def has_bots(game_id: str) -> bool:
    """Whether ``game_id`` has its own bot policy (all three levels)."""
    return game_id in POLICIES


def make_bot(
    game_id: str, level: Level | str = HOST_LEVEL, *, fallback: bool = False
) -> Bot[Any, Any, Any]:
    """The bot playing ``game_id`` at ``level`` (``easy``, ``normal``, ``hard``).

    A game without its own policy raises :class:`NoBots`, unless ``fallback``:
    then a :class:`RandomPolicy` plays (hosts use it so that an absent player
    never stalls a match, even in a game whose bots are not written yet)."""
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}; levels: {', '.join(LEVELS)}")
    if fallback and game_id not in POLICIES:
        from .. import GAMES

        game = GAMES.get(game_id)
        if game is None:
            raise NoBots(f"unknown game {game_id!r}")
        return Bot(RandomPolicy(game), level)
    return Bot(policy_for(game_id), level)


__all__ = [
    "DEFAULT_BUDGET",
    "HOST_LEVEL",
    "LEVELS",
    "POLICIES",
    "Bot",
    "BotChoice",
    "BotError",
    "Budget",
    "GamePolicy",
    "Level",
    "NoBots",
    "RandomPolicy",
    "bot_rng",
    "has_bots",
    "make_bot",
    "policy_for",
    "reward",
]
