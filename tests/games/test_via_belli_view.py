"""Via Belli: an ambush stays anonymous in what the other seats see."""

from __future__ import annotations

from engine import GAMES, Match, rng

G = GAMES["via-belli"]


def test_an_ambush_summon_does_not_name_its_card_in_the_view() -> None:
    chooser = rng.seed_state(1, "ambush")
    for seed in range(40):
        match = Match(G, "table=gueridon", 2, seed)
        for _ in range(400):
            pending = sorted(match.pending())
            if not pending:
                break
            seat = pending[0]
            legal = match.legal_notations(seat)
            ambush = [m for m in legal if m.startswith("?") and " " in m]
            if ambush:
                name = ambush[0][1:].split("@")[0].split()[0]
                match.play(seat, ambush[0])
                for observer in (None, 1 - seat):
                    view = match.view(observer)
                    assert name not in view.last_action, view.last_action
                    assert view.last_action.startswith("?")
                return
            i, chooser = rng.randbelow(chooser, len(legal))
            match.play(seat, legal[i])
    raise AssertionError("no ambush summon found in 40 random games")
