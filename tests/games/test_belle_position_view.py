"""Belle Position: what the view tells about the last fire's turn and the
generals (alive or dead, where), and that it tells no more than a seat may
know."""

from __future__ import annotations

import json

from engine.core import evolve
from engine.games.belle_position import GAME, GeneralStatus
from tests.games.bp_helpers import act, act_as, scenario


def _generals(view: object, seat: int) -> list[tuple[str, str, str, str]]:
    players = view.players  # type: ignore[attr-defined]
    return [(g.uid, g.type, g.where, g.code) for g in players[seat].generals]


def test_last_fire_keeps_its_turn() -> None:
    """The board's last-fire panel says when the fire was: it stays the last
    fire through the next turns."""
    s = scenario({"FC": "zouaves-turcos^"}, {"FC": "landwehr^ landwehr^"}, turn=7)
    s, _ = act(s, "F1@C")
    assert s.last_combat is not None and s.last_combat.turn == 7
    s, _ = act(s, "ok", "ok")  # end combat, end movement: the Germans' turn 8
    assert s.turn == 8 and s.active == 1
    for observer in (0, 1, None):
        view = GAME.view(s, observer)
        assert view.turn == 8
        assert view.last_combat is not None and view.last_combat.turn == 7


def test_a_state_saved_without_the_fire_turn_still_loads() -> None:
    s = scenario({"FC": "zouaves-turcos^"}, {"FC": "landwehr^ landwehr^"}, turn=5)
    s, _ = act(s, "F1@C")
    data = json.loads(json.dumps(GAME.encode_state(s)))
    del data["state"]["last_combat"]["turn"]
    back = GAME.decode_state(data)
    assert back.last_combat is not None and back.last_combat.turn == 0
    assert s.last_combat is not None
    assert back == evolve(s, last_combat=evolve(s.last_combat, turn=0))


def test_generals_alive_dead_and_where() -> None:
    """Each side's generals: on the board with their position, dead, in the
    reserve (one's own by handle; the enemy's only when seen going back, by
    type alone); the rest are counted as unseen."""
    s = scenario(
        {
            "FC": "ligne-francaise^ mac-mahon",
            "FD": "ligne-francaise bazaine",
            "R": "frossard bourbaki? faidherbe",
            "P": "general-de-brigade",
            "X": "ligne-francaise",
        },
        {"AC": "landwehr^ von-der-tann", "R": "steinmetz", "X": "friedrich-karl"},
        phase="movement",
    )
    mine = GAME.view(s, 0)
    assert _generals(mine, 0) == [
        ("F2", "mac-mahon", "board", "FC"),
        ("F4", "bazaine", "board", "FD"),
        ("F5", "frossard", "reserve", ""),  # the reserve in the card list's order
        ("F6", "bourbaki", "reserve", ""),
        ("F7", "faidherbe", "reserve", ""),
    ]
    assert mine.players[0].generals_unseen == 1  # the one in the pile
    assert mine.players[0].generals[0] == GeneralStatus(
        "F2", "mac-mahon", "Mac-Mahon", "board", 1, "FC", True
    )
    # what everybody knows: Frossard and Faidherbe were never seen in the reserve
    assert [g.public for g in mine.players[0].generals] == [True, True, False, True, False]
    # the Germans see the French generals on the board, and Bourbaki, seen
    # going back to the reserve, by type only
    theirs = GAME.view(s, 1)
    assert _generals(theirs, 0) == [
        ("F2", "mac-mahon", "board", "FC"),
        ("F4", "bazaine", "board", "FD"),
        ("", "bourbaki", "reserve", ""),
    ]
    assert theirs.players[0].generals_unseen == 3
    assert _generals(GAME.view(s, None), 0) == _generals(theirs, 0)
    # the German generals: one on the board, one dead, one in the reserve
    assert _generals(theirs, 1) == [
        ("A2", "von-der-tann", "board", "AC"),
        ("A3", "steinmetz", "reserve", ""),
        ("A4", "friedrich-karl", "dead", ""),
    ]
    assert _generals(mine, 1) == [
        ("A2", "von-der-tann", "board", "AC"),
        ("A4", "friedrich-karl", "dead", ""),
    ]
    assert mine.players[1].generals_unseen == 1
    # resampling what a seat cannot see changes none of this
    for seed in range(6):
        for observer in (0, 1, None):
            other = GAME.determinize(s, observer, seed)
            assert GAME.view(other, observer).players == GAME.view(s, observer).players


def test_generals_of_the_other_side_are_hidden_during_deployment() -> None:
    s = scenario(
        {"R": "ligne-francaise ligne-francaise mac-mahon"},
        {"R": "landwehr landwehr steinmetz"},
        phase="deploy",
        turn=0,
    )
    s = evolve(s, armies=tuple(evolve(a, done=False) for a in s.armies))
    s, _ = act_as(s, 0, "F3>C")
    assert _generals(GAME.view(s, 0), 0) == [("F3", "mac-mahon", "board", "FC")]
    assert not GAME.view(s, 0).players[0].generals[0].public
    assert _generals(GAME.view(s, 1), 0) == []
    assert GAME.view(s, 1).players[0].generals_unseen == 1
    assert _generals(GAME.view(s, None), 0) == []
