"""The terminal console plays whole games through the host service, driven
here by scripted input as a player would type it."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from bot import i18n
from bot.console import main, parse_bots


def _run(args: list[str], lines: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    code = main(args, stdin=io.StringIO("\n".join(lines) + "\n"), stdout=out)
    return code, out.getvalue()


def _folders(root: Path) -> list[Path]:
    return sorted(p for p in root.iterdir() if p.is_dir())


VB = ["--game", "via-belli", "--options", "", "--seed", "5"]  # Alice's hand: Serf, Cabot ...


def test_a_newcomer_finishes_a_hot_seat_game(tmp_path: Path) -> None:
    moves = ["help", "moves", "zzz"] + ["random"] * 400
    args = ["--game", "between-battle", "--players", "Alice,Bob", "--options", ""]
    code, text = _run([*args, "--seed", "7", "--out", str(tmp_path / "png")], moves)
    assert code == 0, text[-2000:]
    assert "Commands:" in text  # help
    assert "is not a Between Battle move" in text  # a typo is explained, not fatal
    assert "Match over" in text and "Seed: `7`" in text
    assert "Pass the keyboard to" in text  # two humans at one keyboard
    (folder,) = _folders(tmp_path / "png")
    names = sorted(p.name for p in folder.iterdir())
    assert names == ["board.png", "hand-1.png", "hand-2.png"]
    assert all(p.read_bytes().startswith(b"\x89PNG") for p in folder.iterdir())


def test_one_player_against_a_bot_sees_only_their_own_hand(tmp_path: Path) -> None:
    args = ["--game", "between-battle", "--players", "Alice", "--bots", "1:normal"]
    code, text = _run(
        [*args, "--options", "", "--seed", "7", "--out", str(tmp_path)], ["random"] * 400
    )
    assert code == 0, text[-2000:]
    assert "Match over" in text and "Bot 1 (normal)" in text
    assert "Pass the keyboard" not in text  # one human: no hot-seat prompt
    assert set(re.findall(r"^(\S[^>\n]*)> ", text, re.M)) == {"Alice"}  # only Alice is asked
    assert set(re.findall(r"^Hand of ([^:]+):", text, re.M)) == {"Alice"}
    (folder,) = _folders(tmp_path)
    assert sorted(p.name for p in folder.iterdir()) == ["board.png", "hand-1.png"]
    # the bot played: its moves are told as Alice sees them
    assert re.search(r"· Bot 1 \(normal\) ", text)


def test_the_bots_private_view_is_never_printed(monkeypatch: pytest.MonkeyPatch) -> None:
    """A bot in the first seat: the console shows, draws and lists the
    choices of Alice's seat (1) only."""
    from bot.console import Console

    seen: list[int | None] = []
    for name in ("show", "write_image", "show_choices"):
        original = getattr(Console, name)

        def spy(
            self: Console, live: object, seat: int | None, *rest: object, _f=original
        ) -> object:
            seen.append(seat)
            return _f(self, live, seat, *rest)

        monkeypatch.setattr(Console, name, spy)
    args = ["--game", "via-belli", "--players", "Alice", "--bots", "0:easy", "--options", ""]
    code, text = _run([*args, "--seed", "3", "--no-images"], ["random"] * 60 + ["quit", "y"])
    assert code == 1, text[-2000:]
    assert re.search(r"^1\. Bot 1 \(easy\)", text, re.M) and re.search(r"^2\. Alice", text, re.M)
    assert seen and set(seen) <= {1, None}  # None: the public board
    assert "· Bot 1 (easy) draws a card." in text  # the bot's draws stay hidden


def test_via_belli_spots_are_a_numbered_image_not_coordinates(tmp_path: Path) -> None:
    lines = ["+", "1", "7", "quit", "y"]
    code, text = _run(
        [*VB, "--players", "Alice", "--bots", "1:easy", "--out", str(tmp_path)], lines
    )
    assert code == 1, text[-2000:]
    (folder,) = _folders(tmp_path)
    spots = folder / "spots.png"
    assert spots.read_bytes().startswith(b"\x89PNG")
    assert f"42 spots: the numbered outlines are in {spots}" in text
    level = text[text.index("» Summon Serf") : text.index("42 spots")]
    assert not re.search(r"\b[A-Z]{1,2}\d+[PL]\b", level)  # no bare coordinates listed
    assert "Alice summons Serf at A14 (lying)." in text  # spot 7 on the image


def test_a_complete_move_typed_after_opening_a_menu_is_played(tmp_path: Path) -> None:
    # "+" opens the summon choices (nothing is played); the full move is then accepted
    lines = ["+", "Serf B13P", "record", "quit", "y"]  # hot-seat: the record shows the moves
    code, text = _run([*VB, "--players", "Alice,Bob", "--no-images"], lines)
    assert code == 1
    assert "» +…" in text
    assert "Alice summons Serf at B13 (standing)." in text
    assert "Move refused" not in text
    start = re.search(r"\{\n", text)
    assert start is not None
    record, _ = json.JSONDecoder().raw_decode(text[start.start() :])
    assert record["actions"] == [[0, "Serf B13P"]]  # one action: opening the menu played nothing


def test_a_typo_gets_did_you_mean_from_the_legal_moves() -> None:
    lines = ["Serf B13", "Srf", "hlep", "quit", "y"]
    code, text = _run([*VB, "--players", "Alice", "--bots", "1:easy", "--no-images"], lines)
    assert code == 1
    assert "Move refused" in text
    assert "Did you mean: Serf B13P" in text
    assert re.search(r"Did you mean: .*\+Serf", text)
    assert "Did you mean: help?" in text


def test_quit_asks_first_in_a_running_game() -> None:
    lines = ["quit", "n", "D", "quit", "y"]
    code, text = _run([*VB, "--players", "Alice", "--bots", "1:easy", "--no-images"], lines)
    assert code == 1
    assert text.count("Leave the match?") == 2
    assert "Alice draws" in text  # the game went on after "n"


def test_each_game_has_its_own_folder_and_save_keeps_numbered_copies(tmp_path: Path) -> None:
    args = ["--game", "between-battle", "--players", "Alice", "--bots", "1:easy", "--options", ""]
    out = ["--out", str(tmp_path)]
    code, text = _run([*args, "--seed", "4", *out], ["save"] + ["random"] * 300)
    assert code == 0, text[-2000:]
    code, _ = _run([*args, "--seed", "4", *out], ["random"] * 300)
    assert code == 0
    first, second = _folders(tmp_path)
    assert first.name.startswith("between-battle-") and first != second
    names = sorted(p.name for p in first.iterdir())
    assert names[0] == "board-v000.png" or "board-v001.png" in names[0]
    assert {"board.png", "hand-1.png"} <= set(names) and len(names) == 4
    assert re.search(r"Kept: .*board-v\d{3}\.png, .*hand-1-v\d{3}\.png", text)
    # the whole game's images stay small: the latest ones only
    total = sum(p.stat().st_size for p in tmp_path.rglob("*.png"))
    assert total < 3_000_000


def test_the_console_in_french(tmp_path: Path) -> None:
    lines = ["aide", "zzz", "garder"] + ["hasard"] * 400
    args = ["--lang", "fr", "--game", "between-battle", "--players", "Zoé", "--bots", "1:easy"]
    code, text = _run([*args, "--options", "", "--seed", "2", "--out", str(tmp_path)], lines)
    assert code == 0, text[-2000:]
    assert "Partie terminée" in text and "Graine" in text
    assert "Robot 1 (facile)" in text and "Commandes :" in text
    assert "Image du plateau : " in text and "Main de Zoé : " in text and "Gardé : " in text
    english = {i18n.EN[k] for k in i18n.EN if k.startswith("console-")}
    for phrase in ("Board image", "Hand of", "Did you mean", "Type a ", "Bot 1", "Kept"):
        assert phrase not in text
    assert not any(e in text for e in english if len(e) > 12)


def test_the_console_with_images_reads_right_in_both_languages(tmp_path: Path) -> None:
    """Every line printed while images are written (their paths, "Main d'Alice")
    passes the texts check: elision, colons, no English in French."""
    from tests.bot.textcheck import problems

    for lang, word in (("fr", "hasard"), ("en", "random")):
        args = ["--lang", lang, "--game", "between-battle", "--players", "Alice"]
        args += ["--bots", "1:easy", "--options", "", "--seed", "4", "--out", str(tmp_path)]
        code, text = _run(args, [word] * 400)
        assert code == 0, text[-2000:]
        text = text.replace(str(tmp_path), "/out")  # the test's own folder name is English
        lines = [line for line in dict.fromkeys(text.splitlines()) if line.strip()]
        hand = [line for line in lines if "hand-1.png" in line]
        assert hand, text[-2000:]
        assert all(
            line.startswith("Main d'Alice : " if lang == "fr" else "Hand of Alice: ")
            for line in hand
        ), hand[:2]
        bad = [(line, p) for line in lines for p in problems(line, lang, ("Alice",))]
        assert not bad, bad[:5]


def test_console_hot_seat_in_french_with_prompts() -> None:
    lines = ["between-battle", "Zoé,Yann,Xavier", "hp=3"] + ["hasard"] * 900
    code, text = _run(["--lang", "fr", "--no-images", "--seed", "3"], lines)
    assert code == 0, text[-2000:]
    assert "Partie terminée" in text and "Graine" in text
    assert "Zoé" in text and "Xavier" in text and "Passez le clavier à" in text


def test_every_console_text_is_in_both_languages() -> None:
    en = {k for k in i18n.EN if k.startswith("console-")}
    fr = {k for k in i18n.FR if k.startswith("console-")}
    assert en == fr and len(en) > 30
    for key in en - {"console-menu-trail"}:
        assert i18n.FR[key] != i18n.EN[key], key


def test_help_in_both_languages(capsys: pytest.CaptureFixture[str]) -> None:
    for argv, words in ((["--help"], "usage: "), (["--lang", "fr", "--help"], "utilisation : ")):
        with pytest.raises(SystemExit):
            main(argv)
        shown = capsys.readouterr().out
        assert words in shown and "board-v012.png" in shown and "--bots" in shown


def test_bad_bots_and_options_are_explained() -> None:
    game = ["--game", "between-battle", "--options", "", "--no-images"]
    code, text = _run([*game, "--players", "A", "--bots", "1:genius"], [])
    assert code == 2 and "Levels: easy, normal, hard" in text
    code, text = _run([*game, "--players", "A", "--bots", "5:easy"], [])
    assert code == 2 and "There is no seat 5" in text
    code, text = _run([*game, "--players", "A", "--lang", "fr"], [])
    assert code == 2 and "se joue de 2 à 4 joueurs" in text and "--bots 1:normal" in text
    code, text = _run(
        ["--game", "between-battle", "--players", "A,B", "--options", "colour=red"], []
    )
    assert code == 2 and "Valid keys" in text
    assert parse_bots("1:easy, 2:hard,normal") == [(1, "easy"), (2, "hard"), (None, "normal")]


def test_console_resumes_from_its_database(tmp_path: Path) -> None:
    db = str(tmp_path / "console.db")
    args = ["--game", "between-battle", "--players", "A,B", "--options", ""]
    args += ["--no-images", "--db", db, "--seed", "11"]
    code, _first = _run(args, ["random", "", "random", "", "random", "quit", "y"])
    assert code == 1
    code, second = _run(["--no-images", "--db", db], ["record", "quit", "y"])
    assert '"seed": "11"' in second  # hot-seat: everyone at the table sees the record
    assert "A> " in second or "B> " in second
    record, _ = json.JSONDecoder().raw_decode(second[second.index("{") :])
    assert len(record["actions"]) == 3 and record["seed"] == "11"


def test_against_bots_the_record_hides_the_seed_and_moves_until_the_end(tmp_path: Path) -> None:
    db = str(tmp_path / "console.db")
    args = ["--game", "via-belli", "--players", "A", "--bots", "1:easy", "--options", ""]
    args += ["--no-images", "--db", db, "--seed", "11", "--lang", "fr"]
    code, first = _run(args, ["D", "record", "quit", "o"])
    assert code == 1
    record, _ = json.JSONDecoder().raw_decode(first[first.index("{\n") :])
    assert "seed" not in record and "actions" not in record and record["seed_sha256"]
    assert record["note"].startswith("La partie est en cours")
    # the match is kept in the database and resumes with its bot
    code, second = _run(["--no-images", "--db", db, "--lang", "fr"], ["quitter", "o"])
    assert "A> " in second and "Robot 1 (facile)" in second


def test_resign_asks_first_and_ends_the_game() -> None:
    lines = ["resign", "n", "moves", "resign", "y"]
    code, text = _run([*VB, "--players", "Alice", "--bots", "1:easy", "--no-images"], lines)
    assert code == 0, text[-2000:]
    assert text.count("Resign this match?") == 2
    assert "Alice resigned." in text and "Match over" in text and "Reason: resignation" in text


def test_back_goes_up_one_menu_level() -> None:
    # "+" narrows to the summons, "1" opens Serf (its one anchor is taken at once: the spots)
    lines = ["+", "1", "back", "2", "back", "back", "D", "quit", "y"]
    code, text = _run([*VB, "--players", "Alice", "--bots", "1:easy", "--no-images"], lines)
    assert code == 1
    assert "» Summon Serf (1 PA, 0/2) › against Castle 1 (D17)" in text  # the spots level
    assert "» Summon Cabot à Couteau" in text  # back at the card level, "2" is the second card
    assert "Alice draws" in text  # back at the top, D plays


# ---- --deck files (issue 14) ----------------------------------------------------------
def _deck_file(tmp_path: Path, name: str, deck_id: str = "starter") -> Path:
    from engine.games.liber import deck as rules
    from engine.games.liber.data import decks_by_id

    spec = decks_by_id()[deck_id]
    path = tmp_path / name
    path.write_text(rules.deck_list_text(spec.general, spec.cards), encoding="utf-8")
    return path


def test_deck_files_are_read_and_refused_clearly(tmp_path: Path) -> None:
    good = _deck_file(tmp_path, "mine.txt")
    game = ["--game", "between-battle", "--players", "A,B", "--options", "", "--no-images"]
    code, text = _run([*game, "--deck", str(good)], [])
    assert code == 2 and "not played with decks" in text
    code, text = _run([*game, "--deck", str(tmp_path / "missing.txt")], [])
    assert code == 2 and "Cannot read the deck file" in text and "missing.txt" in text
    (tmp_path / "img.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    code, text = _run([*game, "--lang", "fr", "--deck", str(tmp_path / "img.png")], [])
    assert code == 2 and "n'est pas un fichier texte" in text


async def test_deck_files_give_every_seat_its_code(tmp_path: Path) -> None:
    """Each --deck file goes to the next seat, checked with every problem of
    every file at once (the Liber engine is not needed for that part)."""
    from bot.console import Console, read_deck_files
    from bot.service import HostService
    from bot.store import Store
    from engine.games.liber import deck as rules
    from engine.games.liber.data import decks_by_id

    good = _deck_file(tmp_path, "mine.txt", "foi")
    bad = tmp_path / "bad.txt"
    bad.write_text("Général : Aldric\n5 Archer\n2 Archre\n", encoding="utf-8")
    out = io.StringIO()
    files = read_deck_files([str(good), str(bad)], "en", out)
    assert files is not None and [n for n, _ in files] == ["mine", "bad"]
    store = await Store.open(":memory:")
    try:
        console = Console(HostService(store), tmp_path, stdout=out, images=False)
        assert console._deck_codes("liber", files, 2) is None
        said = out.getvalue()
        assert "Deck file bad: This deck cannot be played (3 problems)" in said
        assert "Did you mean Archer?" in said and "5 copies" in said and "exactly 50" in said
        assert "mine" not in said  # the good file is not blamed
        assert console._deck_codes("liber", files[:1] * 3, 2) is None
        assert "3 deck files for 2 seats" in out.getvalue()
        codes = console._deck_codes("liber", files[:1], 2)
        spec = decks_by_id()["foi"]
        assert codes == [("mine", rules.deck_code(spec.general, spec.cards))]
    finally:
        await store.close()


def test_a_liber_game_with_deck_files(tmp_path: Path) -> None:
    good = _deck_file(tmp_path, "mine.txt", "foi")
    args = ["--game", "liber", "--players", "Alice", "--bots", "1:easy", "--options", ""]
    code, text = _run(
        [*args, "--deck", str(good), "--no-images", "--db", str(tmp_path / "c.db")],
        ["random"] * 2000,
    )
    assert code == 0, text[-2000:]
    assert "Match over" in text, text[-2000:]


BT = ["--game", "battalia", "--players", "Alice,Bob,Chloé", "--options", "week_limit=3"]


def test_battalia_hot_seat_with_buff_to_the_end() -> None:
    """Three players at one keyboard, Buff on, to the end of week 3: the
    secret auction is typed bid by bid, each bid told as "has bid" only
    until the bids are revealed together; Buff comes in, moves and attacks."""
    code, text = _run([*BT, "--seed", "3", "--no-images"], ["random"] * 3000)
    assert code == 0, text[-2000:]
    assert "Match over" in text and "Seed: `3`" in text
    assert "Pass the keyboard to Chloé" in text
    bids = re.findall(r"^(\w+)> → `(bid[^`]*)`\n(.*)$", text, re.M)
    assert len(bids) >= 3, text[-3000:]
    for name, _, told in bids:
        assert told == f"  · {name} has bid.", told  # nothing of the cards
    revealed = text.index("Bids revealed: ")
    first_bid = text.index(f"{bids[0][0]}> → `bid")
    # between the first bid and the reveal, no bid's cards are printed as a bid
    for shown in re.findall(r"(?:\w+) with ([^(]+) \(strength", text[revealed:].split("\n")[0]):
        assert f"with {shown}" not in text[first_bid:revealed]
    assert "brings Buff in on" in text and "moves Buff:" in text
    assert "Buff's horde now has strength 8." in text  # week 3


def test_battalia_spots_are_a_numbered_image(tmp_path: Path) -> None:
    """The start city is chosen on the map: its spots drawn numbered, the
    number typed plays that spot."""
    # (an empty line passes the keyboard to the next player)
    lines = ["faction u", "", "faction i", "", "faction a", "", "1", "", "quit", "y"]
    code, text = _run([*BT, "--seed", "3", "--out", str(tmp_path)], lines)
    assert code == 1, text[-2000:]
    (folder,) = _folders(tmp_path)
    spots = folder / "spots.png"
    assert spots.read_bytes().startswith(b"\x89PNG")
    assert f"3 spots: the numbered outlines are in {spots}" in text
    # the last to choose a faction places first; spot 1 is the first square in order
    assert "Chloé places their start city on a1." in text


def test_battalia_console_in_french() -> None:
    code, text = _run(["--lang", "fr", *BT, "--seed", "5", "--no-images"], ["hasard"] * 3000)
    assert code == 0, text[-2000:]
    assert "Partie terminée" in text and "Graine" in text
    assert "Enchères révélées" in text or "a enchéri" in text, text[-2000:]


@pytest.mark.parametrize(
    ("lang", "one"),
    [("en", "1 spot: the numbered outline is in"), ("fr", "1 place : le contour numéroté est")],
)
def test_a_single_spot_reads_singular(lang: str, one: str) -> None:
    """Battalia's last start city is one spot (it printed "1 spots")."""
    assert i18n.t(lang, "console-spots", count=1, path="/x/spots.png").startswith(one)
    assert i18n.t(lang, "console-spots", count=2, path="/x/spots.png").startswith("2 ")


def test_battalia_spots_are_named_in_words_and_counted_singular(tmp_path: Path) -> None:
    """The console audit: the start cities were listed as « see spots.png »
    only, and « 1 places »: every numbered spot is named too (its square),
    and one spot is singular."""
    args = ["--game", "battalia", "--players", "Alice,Bob", "--options", "", "--seed", "5"]
    lines = ["faction u", "", "faction i", "", "1", "", "quit", "o"]
    code, text = _run([*args, "--out", str(tmp_path), "--lang", "fr"], lines)
    assert code == 1, text[-2000:]
    (folder,) = _folders(tmp_path)
    assert f"2 places : les contours numérotés sont dans {folder / 'spots.png'}" in text
    assert re.search(r"1\. Ville de départ en b2 \[`start b2`\] +2\. Ville de départ en f6", text)
    assert "1 place : " in text and "1 places" not in text, text[-1500:]
    assert "1. Ville de départ en f6" in text


def test_battalia_help_gives_battalia_examples(tmp_path: Path) -> None:
    """The console audit: « aide » gave other games' notation (7>1, Serf
    B13P) as examples during a Battalia match."""
    args = ["--game", "battalia", "--players", "Alice,Bob", "--options", "", "--no-images"]
    code, text = _run([*args, "--lang", "fr"], ["aide", "quit", "o"])
    assert code == 1, text[-2000:]
    assert "(ex. `buy 2 : P P P`, `move h1 c3 : P`" in text and "Serf B13P" not in text, text
    code, text = _run([*VB, "--players", "Alice,Bob", "--no-images"], ["help", "quit", "y"])
    assert "(e.g. 7>1, D, Serf B13P)" in text  # the other games keep theirs


def test_a_refused_battalia_move_suggests_no_other_verb() -> None:
    """The console audit: a refused summon was answered « did you mean buy
    … ? »: a suggestion keeps the typed verb (or one close to it)."""
    args = ["--game", "battalia", "--players", "Alice,Bob", "--options", "", "--seed", "5"]
    lines = ["faction u", "", "faction i", "", "1", "", "1", "", "summon f6 : Au P P", "quit", "o"]
    code, text = _run([*args, "--no-images", "--lang", "fr"], lines)
    assert code == 1, text[-2000:]
    assert "Coup refusé" in text and "Vouliez-vous dire : buy" not in text, text[-800:]
    assert "Tapez coups pour revoir vos choix." in text


def test_undo_in_a_hot_seat_game_asks_the_other_player() -> None:
    """``undo`` takes back the last move once every other human at the screen
    says yes; a no keeps it; the record shows the ``!undo``."""
    lines = ["Serf B13P", "undo", "n", "undo", "y", "record", "quit", "y"]
    code, text = _run([*VB, "--players", "Alice,Bob", "--no-images"], lines)
    assert code == 1
    assert text.count("Bob, do you let Alice take back their last move? (y/n)") == 2
    assert "✋ Bob refused: Alice's move stands." in text
    assert "↩ Alice took back a move." in text
    start = re.search(r"\{\n", text)
    assert start is not None
    record, _ = json.JSONDecoder().raw_decode(text[start.start() :])
    assert record["actions"] == [[0, "Serf B13P"], [0, "!undo"]]


def test_undo_against_a_bot_is_accepted_at_once_and_refusals_are_explained() -> None:
    lines = ["undo", "Serf B13P", "undo", "record", "quit", "y"]
    code, text = _run([*VB, "--players", "Alice", "--bots", "1:easy", "--no-images"], lines)
    assert code == 1
    assert "There is no move of yours to take back." in text  # nothing played yet
    assert "do you let" not in text  # the bot is not asked
    assert "↩ Alice took back a move." in text


async def test_the_console_closes_through_the_service(
    database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On PostgreSQL the service listens for moves on a connection of its
    own: the console closes through the service, which stops that listener
    before closing the store (issue 18)."""
    import asyncio

    from bot.console import parser, run_console
    from bot.service import HostService

    closed: list[HostService] = []
    real_close = HostService.close

    async def close(self: HostService) -> None:
        closed.append(self)
        await real_close(self)

    monkeypatch.setattr(HostService, "close", close)
    args = parser().parse_args(
        ["--game", "between-battle", "--players", "A,B", "--options", ""]
        + ["--no-images", "--db", database, "--seed", "11"]
    )
    out = io.StringIO()
    code = await run_console(args, io.StringIO("random\n\nquit\ny\n"), out)
    assert code == 1, out.getvalue()[-2000:]
    assert len(closed) == 1 and closed[0]._stop_listening is None
    listening = [t for t in asyncio.all_tasks() if t.get_name().startswith("listen ")]
    assert listening == []
