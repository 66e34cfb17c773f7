"""Ratings: OpenSkill's Plackett-Luce model, per server and global, per game.

* 2 to 4 players and ties are handled by the model (ties share a rank).
* A resignation counts as last place (resigners tie for last).
* Matches with a bot seat go to a separate pool ("bots"), so nobody farms
  rating from bots; matches between people go to "humans".
* A match cancelled before its first action has no result, hence no rating.
* A player is provisional until they have played ``provisional_games`` rated
  games in that pool.
* The shown rating is ``1000 + 40 * (mu - 3 sigma)``: everyone starts at
  1000 and climbs as the model grows confident.

Everything here is pure arithmetic over stored results, so recomputing all
ratings from the ``results`` tables gives exactly the numbers kept
incrementally (a test proves it).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
DEFAULT_MU = MODEL.mu
DEFAULT_SIGMA = MODEL.sigma


def display(mu: float, sigma: float) -> int:
    """The number players see."""
    return round(1000 + 40 * (mu - 3 * sigma))


@dataclass(frozen=True)
class Rating:
    mu: float = DEFAULT_MU
    sigma: float = DEFAULT_SIGMA
    games: int = 0
    wins: int = 0

    @property
    def shown(self) -> int:
        return display(self.mu, self.sigma)


@dataclass(frozen=True)
class SeatResult:
    user_id: int
    place: int  # 1 = first; tied seats share a place
    resigned: bool = False
    is_bot: bool = False


def rating_places(seats: Sequence[SeatResult]) -> list[int]:
    """The places the model sees: resigners tie for last."""
    last = max((s.place for s in seats if not s.resigned), default=0) + 1
    return [last if s.resigned else s.place for s in seats]


def pool_of(seats: Sequence[SeatResult]) -> str:
    return "bots" if any(s.is_bot for s in seats) else "humans"


def update(current: Sequence[Rating], places: Sequence[int]) -> list[Rating]:
    """New ratings of the seats after one match (lower place is better)."""
    teams = [[MODEL.create_rating([r.mu, r.sigma])] for r in current]
    rated = MODEL.rate(teams, ranks=[float(p) for p in places])
    best = min(places)
    return [
        Rating(
            mu=team[0].mu,
            sigma=team[0].sigma,
            games=old.games + 1,
            wins=old.wins + (1 if place == best else 0),
        )
        for old, team, place in zip(current, rated, places, strict=True)
    ]


Key = tuple[str, str, str, int]  # scope, game, pool, user


def scopes(guild_id: int | None) -> list[str]:
    return ["global"] if guild_id is None else ["global", f"guild:{guild_id}"]


@dataclass(frozen=True)
class FinishedMatch:
    match_id: int
    guild_id: int | None
    game_id: str
    seats: tuple[SeatResult, ...]


def apply_match(table: dict[Key, Rating], match: FinishedMatch) -> list[tuple[Key, Rating]]:
    """Update ``table`` with one match; returns the changed entries."""
    humans = [s for s in match.seats if not s.is_bot]
    if len(match.seats) < 2 or not humans:
        return []
    pool = pool_of(match.seats)
    places = rating_places(match.seats)
    changed: list[tuple[Key, Rating]] = []
    for scope in scopes(match.guild_id):
        keys: list[Key] = [(scope, match.game_id, pool, s.user_id) for s in match.seats]
        new = update([table.get(k, Rating()) for k in keys], places)
        for key, seat, rating in zip(keys, match.seats, new, strict=True):
            if seat.is_bot:
                continue  # bots have no rating of their own
            table[key] = rating
            changed.append((key, rating))
    return changed


def recompute(matches: Iterable[FinishedMatch]) -> dict[Key, Rating]:
    """All ratings from scratch, matches in the order they finished."""
    table: dict[Key, Rating] = {}
    for match in matches:
        apply_match(table, match)
    return table
