"""Undo by consent, in the engine: which actions may be taken back
(:meth:`engine.core.Game.undo_blocker`, default :func:`engine.undo.undo_blocker`),
:meth:`engine.Match.undo` and its ``!undo`` record entries.

For each game, an ordinary action a player would want back is undoable, and
an action that drew, rolled, shuffled or revealed is not, with its reason.
The situations are found by playing a seeded random game (the engine's own
generator) up to the first legal action of the kind asked for.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from engine import GAMES, Match, MatchRecord, rng
from engine.errors import StaleAction, UndoRefused
from engine.match import RESIGN, UNDO, undone_entries


def find(game_id: str, pattern: str, *, limit: int = 400) -> tuple[Match, int, Any]:
    """A match (quick options, fewest seats) played at random until a pending
    seat has a legal action whose notation matches ``pattern``:
    ``(match, seat, action)``; the first seed from 1 whose game has one."""
    for seed in range(1, 30):
        found = _find(game_id, pattern, seed, limit)
        if found is not None:
            return found
    raise AssertionError(f"no {pattern!r} in 29 games")


def _find(game_id: str, pattern: str, seed: int, limit: int) -> tuple[Match, int, Any] | None:
    game = GAMES[game_id]
    match = Match(game, game.quick_options, game.info.min_seats, seed)
    chooser = rng.seed_state(seed, "test-undo")
    regex = re.compile(pattern)
    for _ in range(limit):
        if match.is_over:
            return None
        for seat in sorted(match.pending()):
            for action in match.legal_actions(seat):
                if regex.search(game.format_action(action)):
                    return match, seat, action
        pending = sorted(match.pending())
        i, chooser = rng.randbelow(chooser, len(pending))
        legal = match.legal_actions(pending[i])
        j, chooser = rng.randbelow(chooser, len(legal))
        match.play(pending[i], legal[j])
    return None


def blocker(match: Match, seat: int, action: Any) -> str | None:
    game = match.game
    after, events = game.apply(match.state, seat, action)
    return game.undo_blocker(match.state, seat, action, after, events)


# (game, notation pattern, expected blocker, what it is)
CASES = [
    ("between-battle", r"^\d+>\d$", None, "a card played on a pile"),
    ("between-battle", r"^P\d$", "reveal", "a pile given, which ends the turn: the chooser draws"),
    ("via-belli", r"^[A-Z][a-zé]+ [A-Z]\d+[PL]$", None, "a summon, face up"),
    ("via-belli", r"^\?[A-Z][a-zé]+ [A-Z]\d+[PL]$", None, "a summon in ambush"),
    ("via-belli", r"^[A-Z]\d+>[A-Z]\d+[PL]$", None, "a move"),
    ("via-belli", r"^D$", "chance", "a draw from the shuffled bag"),
    ("belle-position", r"^[FA]\d+>E?[GCDR]$", None, "a move"),
    ("belle-position", r"^[FA]\d+@", "chance", "an attack: the fire dice"),
    ("liber", r"^play \S+ [af]\d$", None, "a unit placed"),
    ("liber", r"^move ", None, "a unit moved between lines"),
    ("battalia", r"^place ", None, "a tile placed"),
    ("battalia", r"^move h\d ", None, "a hero moved, no battle"),
    ("battalia", r"^road ", "reveal", "a road card drawn from its face-down deck"),
    ("battalia", r"^mulligan$", "chance", "a mulligan: the deck reshuffled"),
]


@pytest.mark.parametrize(("game_id", "pattern", "expected", "what"), CASES)
def test_which_actions_can_be_taken_back(
    game_id: str, pattern: str, expected: str | None, what: str
) -> None:
    match, seat, action = find(game_id, pattern)
    assert blocker(match, seat, action) == expected, (what, match.game.format_action(action))


def played(game_id: str, pattern: str) -> tuple[Match, int, bytes]:
    """The match right after the found action: ``(match, seat, state before)``."""
    match, seat, action = find(game_id, pattern)
    before = match.game.dump_state(match.state)
    match.play(seat, action)
    return match, seat, before


def test_undo_gives_back_the_state_and_is_recorded() -> None:
    match, seat, before = played("via-belli", r"^[A-Z]\d+>[A-Z]\d+[PL]$")
    version = match.version
    assert match.undo_refusal(seat) is None
    assert match.undo(seat, expected_version=version) == ()
    assert match.game.dump_state(match.state) == before
    assert match.version == version + 1
    assert match.actions[-1] == (seat, UNDO)
    assert undone_entries(match.actions) == {len(match.actions) - 2}
    # the record (with its !undo) survives JSON and replays to the same state
    record = MatchRecord.loads(match.record().dumps())
    assert record.actions[-1] == (seat, UNDO)
    replayed = Match.replay(record)
    assert match.game.dump_state(replayed.state) == before
    assert replayed.version == match.version


def test_a_restored_match_can_still_undo() -> None:
    """After a restart the host rebuilds the match from its snapshot: the
    state before the last action is replayed from the record."""
    match, seat, before = played("belle-position", r"^[FA]\d+>E?[GCDR]$")
    restored = Match.from_parts(match.record(), match.game.dump_state(match.state), match.version)
    restored.undo(seat)
    assert restored.game.dump_state(restored.state) == before


def test_refusals() -> None:
    match, seat, _ = played("via-belli", r"^[A-Z]\d+>[A-Z]\d+[PL]$")
    other = 1 - seat
    with pytest.raises(StaleAction):
        match.preview_undo(seat, expected_version=match.version - 1)
    refusal = match.undo_refusal(other)
    assert refusal is not None and refusal.reason in ("not-yours", "acted-since")
    match.undo(seat)
    # an undo cannot be chained: the last entry is now the !undo itself
    refusal = match.undo_refusal(seat)
    assert refusal is not None and refusal.reason == "nothing"
    with pytest.raises(UndoRefused) as caught:
        match.undo(seat)
    assert caught.value.msg.key == "undo-refused-nothing"


def test_someone_acted_since() -> None:
    match, seat, _ = played("via-belli", r"^[A-Z]\d+>[A-Z]\d+[PL]$")
    for _ in range(50):  # the seat's turn may hold several actions
        others = [s for s in match.pending() if s != seat]
        if others:
            match.play(others[0], match.legal_actions(others[0])[-1])
            break
        match.play(seat, match.legal_actions(seat)[-1])
    assert match.actions[-1][0] != seat
    refusal = match.undo_refusal(seat)
    assert refusal is not None and refusal.reason == "acted-since"


def test_hidden_information_and_the_end() -> None:
    match, seat, _ = played("via-belli", r"^D$")
    refusal = match.undo_refusal(seat)
    assert refusal is not None and refusal.reason == "hidden"
    match.resign(seat)
    refusal = match.undo_refusal(seat)
    assert refusal is not None and refusal.reason == "over"


def test_nothing_to_undo_at_the_start_and_after_a_resignation() -> None:
    game = GAMES["liber"]
    match = Match(game, game.quick_options, 3, 4) if game.info.max_seats >= 3 else None
    fresh = Match(GAMES["via-belli"], "", 2, 1)
    refusal = fresh.undo_refusal(0)
    assert refusal is not None and refusal.reason == "nothing"
    if match is not None:
        match.resign(0)
        assert match.actions[-1] == (0, RESIGN)
        if not match.is_over:
            refusal = match.undo_refusal(0)
            assert refusal is not None and refusal.reason == "nothing"


def test_old_records_still_load() -> None:
    """A record written before undo existed (no ``!undo``) reads and replays."""
    match, _, _ = played("between-battle", r"^\d+>\d$")
    data = match.record().to_json()
    assert Match.replay(MatchRecord.from_json(data)).state == match.state
