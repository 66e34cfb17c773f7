"""Chroniques de Liber's deck lists (engine/games/liber/deck.py): pasted text
in every common style, every validation reason at once with suggestions,
deck codes and ready-made decks resolved for Options.decks, and lists
written back as text."""

from __future__ import annotations

import pytest

import i18n
from engine.errors import RulesError
from engine.games.liber import data
from engine.games.liber.deck import (
    DeckError,
    DeckList,
    checked,
    deck_code,
    deck_list_text,
    find_card,
    fold,
    join_problems,
    parse_deck_code,
    parse_deck_list,
    resolve_deck,
    suggest,
    validate,
)
from engine.games.liber.model import Options
from engine.text import Msg

STARTER = data.decks_by_id()["starter"]


def _valid_text(general_line: str = "Général : Aldric") -> str:
    """The starter deck written by hand: 50 cards in mixed styles."""
    lines = [general_line]
    styles = ("{n} {name}", "{n}x {name}", "{n} x {name}", "{name} x{n}")
    for i, (card_id, n) in enumerate(STARTER.cards):
        lines.append(styles[i % 4].format(n=n, name=data.card(card_id).name))
    return "\n".join(lines)


def _keys(problems: tuple[Msg, ...]) -> list[str]:
    return [p.key for p in problems]


# ---- parsing ------------------------------------------------------------------


@pytest.mark.parametrize(
    "line",
    [
        "4 Archer",
        "4x Archer",
        "4X Archer",
        "4 x Archer",
        "4 × Archer",
        "Archer x4",
        "Archer x 4",
        "Archer ×4",
        "  4   Archer  ",
        "- 4 Archer",
        "* 4x Archer",
        "4 Archer  # my shooters",
        "4 Archer // tireurs",
        "4 archer",
        "4 ARCHER",
    ],
)
def test_each_paste_style_reads_four_archers(line: str) -> None:
    deck = parse_deck_list(line)
    assert deck.unreadable == ()
    assert deck.counts == {"archer": 4}
    assert deck.total == 4


@pytest.mark.parametrize(
    ("name", "card_id"),
    [
        ("Mine d'or", "mine-d-or"),
        ("Mine d’or", "mine-d-or"),
        ("MINE D'OR", "mine-d-or"),
        ("mine dor", "mine-d-or"),
        ("mine d or", "mine-d-or"),
        ("mine-d-or", "mine-d-or"),
        ("Eclaireur", "eclaireur"),
        ("ÉCLAIREUR", "eclaireur"),
        ("éclaireur", "eclaireur"),
        ("  sorciere   du  GIVRE ", "sorciere-du-givre"),
        ("Epee runique", "epee-runique"),
        ("epee-runique", "epee-runique"),
        ("Porte bouclier", "porte-bouclier"),
        ("Archer d'élite", "archer-d-elite"),
        ("archer d elite", "archer-d-elite"),
        ("Âme errante", "ame-errante"),
        ("Chaînes de glace", "chaines-de-glace"),
    ],
)
def test_names_match_ignoring_case_accents_apostrophes_and_spaces(name: str, card_id: str) -> None:
    assert find_card(name) == card_id
    assert parse_deck_list(f"2 {name}").counts == {card_id: 2}


def test_fold() -> None:
    assert fold("  Mine d’Or ") == "mine dor"
    assert fold("Mine d'or", " ") == "mine d or"
    assert fold("Sorcière  du\tgivre") == "sorciere du givre"
    assert fold("Œil-de-bœuf") == "oeil de boeuf"


@pytest.mark.parametrize(
    "general_line",
    [
        "Général : Aldric",
        "General: Aldric",
        "GÉNÉRAL: aldric",
        "Commandant = Aldric",
        "1 Aldric",
        "Aldric",
    ],
)
def test_the_general_line_in_every_form(general_line: str) -> None:
    deck = parse_deck_list(_valid_text(general_line))
    assert deck.general == "aldric"
    assert deck.total == 50
    assert validate(deck) == ()


def test_blank_lines_comments_and_section_headers_are_skipped() -> None:
    text = "\ufeff# Mon deck\r\n// by me\r\n\r\nGénéral\r\nAldric\r\n\r\nDeck (50)\r\nUnités :\r\n"
    text += "\n".join(f"{n} {data.card(c).name}" for c, n in STARTER.cards)
    text += "\n\nSorts\nMain\n   \n"
    deck = parse_deck_list(text)
    assert deck.unreadable == ()
    assert deck.general == "aldric"
    assert deck.counts == dict(STARTER.cards)
    assert validate(deck) == ()


def test_a_card_on_two_lines_adds_up() -> None:
    deck = parse_deck_list("2 Archer\narcher x1\n1 archer")
    assert deck.counts == {"archer": 4}


def test_ids_are_accepted() -> None:
    deck = parse_deck_list("General: ysolde\n" + "\n".join(f"{n} {c}" for c, n in STARTER.cards))
    assert (deck.general, deck.counts) == ("ysolde", dict(STARTER.cards))


# ---- validation ---------------------------------------------------------------


def test_every_reason_at_once() -> None:
    text = "\n".join(
        [
            "Deck",
            "Général : Aldric",
            "Ysolde",
            "5 Archer",
            "2 Archr",
            "1 Xyzzy plugh",
            "1 Squelette",
            "1 Faveur de la Guerre",
            "this is not a line",
            "0 Paysan",
        ]
    )
    problems = validate(parse_deck_list(text))
    assert _keys(problems) == [
        "lb-deck-unknown-suggest",
        "lb-deck-unknown",
        "lb-deck-token",
        "lb-deck-favour",
        "lb-deck-unreadable",
        "lb-deck-unreadable",
        "lb-deck-generals",
        "lb-deck-copies",
        "lb-deck-size",
    ]
    by_key = {p.key: p.kwargs() for p in problems}
    assert by_key["lb-deck-unknown-suggest"] == {"name": "Archr", "card": "Archer"}
    assert by_key["lb-deck-unknown"] == {"name": "Xyzzy plugh"}
    assert by_key["lb-deck-token"] == {"card": "Squelette"}
    assert by_key["lb-deck-favour"] == {"card": "Faveur de la Guerre"}
    assert by_key["lb-deck-copies"] == {"card": "Archer", "n": 5, "max": 4}
    assert by_key["lb-deck-size"] == {"n": 10, "size": 50}
    generals = by_key["lb-deck-generals"]
    assert generals["n"] == 2
    assert generals["cards"] == (
        Msg.of("lb-deck-card", card="Aldric"),
        Msg.of("lb-deck-card", card="Ysolde"),
    )
    unreadable = [p.kwargs() for p in problems if p.key == "lb-deck-unreadable"]
    assert unreadable == [
        {"line": 9, "text": "this is not a line"},
        {"line": 10, "text": "0 Paysan"},
    ]


def test_not_fifty_cards_says_how_many() -> None:
    text = _valid_text() + "\n1 Marchand"
    problems = validate(parse_deck_list(text))
    assert [(p.key, p.kwargs()) for p in problems] == [("lb-deck-size", {"n": 51, "size": 50})]
    short = "\n".join(_valid_text().splitlines()[:-1])
    assert [p.kwargs()["n"] for p in validate(parse_deck_list(short))] == [
        50 - STARTER.cards[-1][1]
    ]


def test_more_than_four_copies_names_each_card() -> None:
    deck = DeckList.of("aldric", {"archer": 5, "paysan": 6, "fantassin": 4, "milicien": 35})
    problems = validate(deck)
    assert [(p.key, p.kwargs().get("card"), p.kwargs().get("n")) for p in problems] == [
        ("lb-deck-copies", "Archer", 5),
        ("lb-deck-copies", "Milicien", 35),
        ("lb-deck-copies", "Paysan", 6),
    ]


def test_no_general() -> None:
    deck = parse_deck_list("\n".join(_valid_text().splitlines()[1:]))
    assert _keys(validate(deck)) == ["lb-deck-no-general"]


def test_a_general_line_naming_a_unit_or_an_unknown_general() -> None:
    body = "\n".join(_valid_text().splitlines()[1:])
    problems = validate(parse_deck_list("Général : Archer\n" + body))
    assert [(p.key, p.kwargs()) for p in problems] == [("lb-deck-not-general", {"card": "Archer"})]
    problems = validate(parse_deck_list("General: Aldrik\n" + body))
    assert [(p.key, p.kwargs()) for p in problems] == [
        ("lb-deck-unknown-suggest", {"name": "Aldrik", "card": "Aldric"})
    ]


def test_the_same_general_twice_is_one_general() -> None:
    deck = parse_deck_list(_valid_text() + "\n1 Aldric")
    assert deck.generals == ("aldric",)
    assert validate(deck) == ()


@pytest.mark.parametrize(
    ("typed", "closest"),
    [
        ("Archr", "Archer"),
        ("Sorciere du giver", "Sorcière du givre"),
        ("necromancer", "Nécromancien"),
        ("Catapult", "Catapulte"),
        ("Mine dore", "Mine d'or"),
        ("Porte-boucliers", "Porte-bouclier"),
    ],
)
def test_an_unknown_card_gets_the_closest_name(typed: str, closest: str) -> None:
    assert suggest(typed) == closest
    problems = validate(parse_deck_list(f"1 {typed}"))
    assert problems[0] == Msg.of("lb-deck-unknown-suggest", name=typed, card=closest)


def test_nothing_close_no_suggestion() -> None:
    assert suggest("qwxzv") is None
    assert suggest("Aldrik", generals=True) == "Aldric"


def test_the_deck_error_carries_every_problem_in_one_text() -> None:
    deck = parse_deck_list("5 Archer\n1 Archr\nwhat")
    with pytest.raises(DeckError) as caught:
        checked(deck)
    error = caught.value
    assert isinstance(error, RulesError)
    assert error.code == "deck"
    assert error.problems == validate(deck)
    assert error.msg == join_problems(error.problems)
    english = i18n.translate("en", error.msg)
    french = i18n.translate("fr", error.msg)
    assert english.splitlines() == [
        "This deck cannot be played (5 problems):",
        "Unknown card: “Archr”. Did you mean Archer?",
        "Line 3: “what” cannot be read (write one card per line, such as “4 Archer”).",
        "No general: add a line such as “General: Aldric”.",
        "Archer: 5 copies, at most 4.",
        "6 cards: a deck has exactly 50.",
    ]
    assert french.splitlines()[0] == "Ce deck ne peut pas être joué (5 problèmes) :"
    assert french.splitlines()[-1] == "6 cartes : un deck en a exactement 50."
    assert len(french.splitlines()) == 6


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_problem_text_exists_and_formats(lang: str) -> None:
    text = "Général : Aldric\nYsolde\n5 Archer\n1 Archr\n1 Qwxzv\n1 Squelette\n1 Faveur de la Guerre\n?"
    problems = validate(parse_deck_list(text)) + validate(parse_deck_list("General: Archer"))
    problems += validate(parse_deck_list("4 Archer"))
    keys = {p.key for p in problems}
    for key in ("lb-deck-unknown", "lb-deck-not-general", "lb-deck-no-general", "lb-deck-generals"):
        assert key in keys
    for problem in problems:
        out = i18n.translate(lang, problem)
        assert "{" not in out and "lb-deck" not in out, out
    for error in (_error("zzz"), _error("aggr"), _error("aldric:archer*4")):
        assert "lb-deck" not in i18n.translate(lang, error.msg)
    assert i18n.translate(lang, join_problems(())).strip()


def _error(text: str) -> DeckError:
    with pytest.raises(DeckError) as caught:
        resolve_deck(text)
    return caught.value


# ---- deck codes and ready-made decks ------------------------------------------


def test_deck_code_is_sorted_and_canonical() -> None:
    code = deck_code("aldric", [("paysan", 3), ("archer", 2), ("archer", 2), ("eclair", 0)])
    assert code == "aldric:archer*4+paysan*3"
    assert deck_code("aldric", {"paysan": 3, "archer": 4}) == code
    assert parse_deck_code(code) == ("aldric", (("archer", 4), ("paysan", 3)))
    assert parse_deck_code("aldric:paysan*1+archer*4+paysan*2") == parse_deck_code(code)


@pytest.mark.parametrize("deck_id", sorted(data.decks_by_id()))
def test_code_round_trips_for_every_ready_made_deck(deck_id: str) -> None:
    deck = data.decks_by_id()[deck_id]
    code = deck_code(deck.general, deck.cards)
    general, cards = parse_deck_code(code)
    assert (general, dict(cards)) == (deck.general, dict(deck.cards))
    assert deck_code(general, cards) == code
    assert Options(decks=(code, deck_id)).decks == (code, deck_id)
    name, general, ids = resolve_deck(code)
    assert (name, general) == ("", deck.general)
    assert ids == resolve_deck(deck_id)[2]


@pytest.mark.parametrize("deck_id", sorted(data.decks_by_id()))
def test_resolve_a_ready_made_deck(deck_id: str) -> None:
    deck = data.decks_by_id()[deck_id]
    name, general, ids = resolve_deck(f" {deck_id} ")
    assert (name, general) == (deck_id, deck.general)
    assert len(ids) == 50
    assert list(ids) == sorted(ids)
    assert {c: ids.count(c) for c in set(ids)} == dict(deck.cards)


@pytest.mark.parametrize(
    "code", ["aldric:archer", "aldric:archer*x", "Aldric:archer*4", "aldric:", ":archer*4"]
)
def test_malformed_codes_are_refused(code: str) -> None:
    with pytest.raises(DeckError) as caught:
        parse_deck_code(code)
    assert caught.value.problems == (Msg.of("lb-deck-bad-code", code=code),)


def test_resolve_refuses_an_invalid_code_with_every_problem() -> None:
    error = _error("archer:archer*5+squelette*1+zzz*1")
    assert _keys(error.problems) == [
        "lb-deck-not-general",
        "lb-deck-token",
        "lb-deck-unknown",
        "lb-deck-copies",
        "lb-deck-size",
    ]


def test_resolve_an_unknown_deck_suggests_the_closest_id() -> None:
    assert _error("aggr").problems == (
        Msg.of("lb-deck-unknown-deck-suggest", name="aggr", deck="aggro"),
    )
    assert _error("zzz").problems == (Msg.of("lb-deck-unknown-deck", name="zzz"),)


# ---- lists written back -------------------------------------------------------


@pytest.mark.parametrize("deck_id", sorted(data.decks_by_id()))
def test_deck_list_text_reads_back_to_the_same_deck(deck_id: str) -> None:
    deck = data.decks_by_id()[deck_id]
    text = deck_list_text(deck.general, deck.cards)
    assert text.splitlines()[0] == f"Général : {data.card(deck.general).name}"
    parsed = parse_deck_list(text)
    assert validate(parsed) == ()
    assert (parsed.general, parsed.counts) == (deck.general, dict(deck.cards))
    names = [line.split(" ", 1)[1] for line in text.splitlines()[2:]]
    assert all(find_card(n) and data.card(find_card(n) or "").name == n for n in names)


def test_deck_list_text_orders_units_first_by_cost() -> None:
    text = deck_list_text(
        "ysolde", {"autel": 1, "archer": 4, "paysan": 3, "eclair": 2, "epee-runique": 1}
    )
    assert text == "Général : Ysolde\n\n3 Paysan\n4 Archer\n1 Épée runique\n2 Éclair\n1 Autel\n"
