"""The board message's text: the status lines (who acts, the result and the
revealed seed) always show whole, however many event lines were folded in."""

from __future__ import annotations

from bot.discord.text import fit_description as _fit_description


def dropped(n: int) -> str:
    return f"· … {n} earlier"


def test_everything_shows_when_it_fits() -> None:
    text = _fit_description(["· a", "· b"], ["Result", "Seed 42"], 4000, dropped)
    assert text == "· a\n· b\nResult\nSeed 42"


def test_oldest_history_gives_way_to_the_status() -> None:
    history = [f"· event number {i:03d} with some dice" for i in range(300)]
    status = ["**Result**", "1. Alice", "2. Bob", "Seed: 123456789 (sha256 abcdef)"]
    text = _fit_description(history, status, 4000, dropped)
    assert len(text) <= 4000
    assert text.endswith("\n".join(status))
    lines = text.split("\n")
    shown = lines[1 : -len(status)]
    assert lines[0] == dropped(300 - len(shown))
    assert shown == history[-len(shown) :]  # the newest lines, in order
    assert len(shown) > 50


def test_a_huge_status_is_clipped_not_lost() -> None:
    text = _fit_description(["· x"], ["y" * 5000], 4000, dropped)
    assert len(text) == 4000 and text.endswith("…")
