"""The terminal console plays a whole game through the host service."""

from __future__ import annotations

import io
import json
from pathlib import Path

from bot.console import main


def _run(args: list[str], lines: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    code = main(args, stdin=io.StringIO("\n".join(lines) + "\n"), stdout=out)
    return code, out.getvalue()


def test_a_newcomer_finishes_a_game(tmp_path: Path) -> None:
    moves = ["help", "moves", "zzz"] + ["random"] * 400
    code, text = _run(
        [
            "--game",
            "between-battle",
            "--players",
            "Alice,Bob",
            "--options",
            "",
            "--seed",
            "7",
            "--out",
            str(tmp_path / "png"),
        ],
        moves,
    )
    assert code == 0, text[-2000:]
    assert "Commands:" in text  # help
    assert "is not a Between Battle move" in text  # a typo is explained, not fatal
    assert "Match over" in text and "Seed: `7`" in text
    pngs = sorted((tmp_path / "png").glob("*.png"))
    assert any("board" in p.name for p in pngs) and any("seat" in p.name for p in pngs)
    assert all(p.read_bytes().startswith(b"\x89PNG") for p in pngs)


def test_console_in_french_and_prompts(tmp_path: Path) -> None:
    lines = ["between-battle", "Zoé,Yann,Xavier", "hp=3"] + ["hasard"] * 600
    code, text = _run(["--lang", "fr", "--no-images", "--seed", "3"], lines)
    assert code == 0, text[-2000:]
    assert "Partie terminée" in text and "Graine" in text
    assert "Zoé" in text and "Xavier" in text


def test_bad_options_are_explained(tmp_path: Path) -> None:
    code, text = _run(
        ["--game", "between-battle", "--players", "A,B", "--options", "colour=red", "--no-images"],
        [],
    )
    assert code == 2
    assert "Valid keys" in text


def test_console_resumes_from_its_database(tmp_path: Path) -> None:
    db = str(tmp_path / "console.db")
    args = [
        "--game",
        "between-battle",
        "--players",
        "A,B",
        "--options",
        "",
        "--no-images",
        "--db",
        db,
        "--seed",
        "11",
    ]
    code, _first = _run(args, ["random"] * 5 + ["quit"])
    assert code == 1
    code, second = _run(["--no-images", "--db", db], ["record", "random"] * 2 + ["quit"])
    assert '"seed": "11"' in second
    assert "A> " in second or "B> " in second
    # the five moves of the first session are in the resumed record
    record, _ = json.JSONDecoder().raw_decode(second[second.index("{") :])
    assert len(record["actions"]) == 5 and record["seed"] == "11"
