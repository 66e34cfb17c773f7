"""Write ``via_belli_v1_snapshots.json``: Via Belli states saved in the compact
format of schema 1 (the release before the msgspec state codec, issue 13),
each with the match record that rebuilds it, for ``tests/test_codec.py``.

How it was made (on the unchanged code of that release, the main branch at
commit 00396b6)::

    cd /work/main && .venv/bin/python /path/to/tests/data/make_via_belli_v1.py OUT.json

Random matches (a fixed chooser) on every table and seat count, some with
variants: each match's record, and ``[version, saved state]`` every 90 actions
and at the end (the state is the record replayed up to that version). Nothing here is imported by the tests.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from engine import GAMES, Match, rng

CASES = [
    ("table=standard", 2, 1),
    ("table=gueridon", 3, 2),
    ("table=carre_4j", 4, 3),
    ("table=salle_a_manger", 2, 4),
    ("table=table_basse cup_layout=random cups=3 dog_chain=true", 2, 5),
    ("table=standard must_spend_pa=false self_cut=true recall_face_down=true", 3, 6),
]


EVERY = 90


def main(out: Path) -> None:
    game = GAMES["via-belli"]
    saved = []
    for options, seats, seed in CASES:
        match = Match(game, options, seats, seed)
        chooser = rng.seed_state(seed, "v1-snapshots")
        snapshots = []
        while True:
            over = match.is_over
            if match.version % EVERY == 0 or over:
                snapshots.append([match.version, game.encode_state(match.state)])
            if over:
                break
            seat = min(match.pending())
            legal = match.legal_actions(seat)
            index, chooser = rng.randbelow(chooser, len(legal))
            match.play(seat, legal[index])
        saved.append({"record": match.record().to_json(), "snapshots": snapshots})
    out.write_text(json.dumps(saved, ensure_ascii=False, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
