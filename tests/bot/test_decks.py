"""Decks that players build (issue 14): the store, the service (create from a
pasted list with every problem at once, list, show, delete, the ready-made
decks), the deck each lobby seat plays, and the card pool lookups of /card."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.cards import all_cards, find_card, fold, search_cards
from bot.decks import (
    MAX_DECKS,
    MAX_FILE_BYTES,
    DeckRefused,
    attachment_text,
    list_text,
    ready_decks,
    split_pasted_line,
)
from bot.i18n import error_text
from bot.service import HostError, HostService, Lobby, UserRef
from bot.store import Store
from engine.games.liber import deck as rules
from engine.games.liber.data import card_file, decks_by_id
from engine.games.liber.model import Options
from tests.bot.textcheck import problems

ALICE = UserRef(1, "Alice", "en-US")
BOB = UserRef(2, "Bob", "fr")
CHAN = 100


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[HostService]:
    store = await Store.open(tmp_path / "g.db")
    svc = HostService(store, seed_source=lambda: 4242)
    await svc.resume()
    yield svc
    await store.close()


def _ready_text(deck_id: str = "starter") -> str:
    spec = decks_by_id()[deck_id]
    return rules.deck_list_text(spec.general, spec.cards)


def _names() -> dict[str, str]:
    return {c.id: c.name for c in card_file().cards}


def _bad_list() -> str:
    """Every reason at once: 5 copies of a card, an unknown card close to a
    real one, two generals, a token, an unreadable line, not 50 cards."""
    spec = decks_by_id()["starter"]
    names = _names()
    generals = [c for c in card_file().cards if c.type == "general"]
    token = next(c for c in card_file().cards if c.type == "token")
    first = spec.cards[0][0]
    lines = [f"Général : {names[spec.general]}", f"1 {generals[1].name}"]
    lines += [f"5 {names[first]}", f"2 {names[first][:-1]}z", f"1 {token.name}", "???!"]
    return "\n".join(lines)


# ---- store ---------------------------------------------------------------------------
async def test_store_keeps_one_deck_per_user_and_folded_name(service: HostService) -> None:
    store = service.store
    row, replaced = await store.save_deck(1, "liber", "Mon Deck", "mon deck", "aldric:archer*50")
    assert not replaced
    again, replaced = await store.save_deck(1, "liber", "MON deck", "mon deck", "ysolde:archer*50")
    assert replaced and again.id == row.id
    await store.save_deck(2, "liber", "Mon Deck", "mon deck", "aldric:archer*50")
    assert [d.code for d in await store.user_decks(1, "liber")] == ["ysolde:archer*50"]
    assert await store.count_decks(2, "liber") == 1
    await store.delete_deck(row.id)
    assert await store.user_deck(1, "liber", "mon deck") is None
    assert await store.user_deck(2, "liber", "mon deck") is not None


# ---- create, with every problem at once -------------------------------------------------
async def test_create_from_pasted_text_stores_the_canonical_code(service: HostService) -> None:
    text = _ready_text("starter")
    deck, replaced = await service.create_deck(ALICE, "  Mon   deck ", text)
    assert not replaced
    spec = decks_by_id()["starter"]
    assert deck.name == "Mon deck"
    assert deck.code == rules.deck_code(spec.general, spec.cards)
    assert deck.size == 50 and deck.general == spec.general
    # the same name (any case, accents, spaces) replaces it
    _, replaced = await service.create_deck(ALICE, "MON DECK", text)
    assert replaced
    assert [d.name for d in await service.user_decks(ALICE.id)] == ["MON DECK"]
    # another user's decks are theirs
    assert await service.user_decks(BOB.id) == []


async def test_create_refuses_with_every_reason_at_once(service: HostService) -> None:
    with pytest.raises(HostError) as caught:
        await service.create_deck(ALICE, "Bad", _bad_list())
    err = caught.value
    assert err.key == "deck-invalid" and err.rules is not None
    keys = [m.key for m in err.rules.problems]
    for key in (
        "lb-deck-unreadable",
        "lb-deck-unknown-suggest",
        "lb-deck-token",
        "lb-deck-generals",
        "lb-deck-copies",
        "lb-deck-size",
    ):
        assert key in keys, (key, keys)
    first = _names()[decks_by_id()["starter"].cards[0][0]]
    for locale in ("en", "fr"):
        text = error_text(locale, err.key, err.rules, **err.params)
        assert "Bad" in text and first in text and "{" not in text
        assert text.count("\n") >= len(keys)  # one reason a line
    assert await service.user_decks(ALICE.id) == []  # nothing saved


async def test_create_refuses_a_bad_name_or_list(service: HostService) -> None:
    text = _ready_text()
    cases = [
        ("   ", text, "deck-name-empty"),
        ("x" * 41, text, "deck-name-long"),
        ("starter", text, "deck-name-ready"),
        (decks_by_id()["starter"].name.en.upper(), text, "deck-name-ready"),
        ("ok", "  \n ", "deck-list-empty"),
        ("ok", "4 Archer\n" * 6000, "deck-list-long"),
    ]
    for name, body, key in cases:
        with pytest.raises(HostError) as caught:
            await service.create_deck(ALICE, name, body)
        assert caught.value.key == key, name


async def test_a_user_keeps_at_most_max_decks(service: HostService) -> None:
    text = _ready_text()
    for i in range(MAX_DECKS):
        await service.create_deck(ALICE, f"d{i}", text)
    with pytest.raises(HostError) as caught:
        await service.create_deck(ALICE, "one more", text)
    assert caught.value.key == "deck-too-many"
    await service.create_deck(ALICE, "d0", text)  # replacing one is fine


# ---- list, show, delete, the ready-made decks -------------------------------------------
async def test_find_show_and_delete(service: HostService) -> None:
    await service.create_deck(ALICE, "Rush", _ready_text("starter"))
    mine = await service.find_deck(ALICE.id, "rush")
    assert mine.ready is None and mine.name == "Rush"
    # shown as a list that reads back to the same deck
    again = rules.checked(rules.parse_deck_list(list_text(mine)))
    assert rules.deck_code(*again) == mine.code
    # the ready-made decks: for everyone, by id or by name in either language
    for spec in card_file().decks:
        for typed in (spec.id, spec.name.fr, spec.name.en.lower()):
            found = await service.find_deck(BOB.id, typed)
            assert found.ready == spec.id
            assert found.code == rules.deck_code(spec.general, spec.cards)
    with pytest.raises(HostError) as caught:
        await service.delete_deck(ALICE.id, "starter")
    assert caught.value.key == "deck-ready-kept"
    with pytest.raises(HostError) as caught:
        await service.delete_deck(BOB.id, "Rush")  # Alice's
    assert caught.value.key == "no-such-deck"
    deleted = await service.delete_deck(ALICE.id, "RUSH")
    assert deleted.name == "Rush"
    assert await service.user_decks(ALICE.id) == []
    with pytest.raises(HostError) as caught:
        await service.find_deck(ALICE.id, "Rush")
    assert caught.value.key == "no-such-deck"


async def test_autocomplete_choices(service: HostService) -> None:
    await service.create_deck(ALICE, "Rush", _ready_text())
    pairs = await service.decks.choices(ALICE.id, "", "fr")
    assert pairs[0] == ("Rush", "Rush")
    ready = [value for _, value in pairs[1:]]
    assert ready == [d.id for d in card_file().decks]
    assert all("(tout fait)" in label for label, _ in pairs[1:])
    assert await service.decks.choices(ALICE.id, "RU", "en") == [("Rush", "Rush")]
    assert len(pairs) <= 25


async def test_a_game_without_decks_is_refused(service: HostService) -> None:
    with pytest.raises(HostError) as caught:
        await service.create_deck(ALICE, "x", _ready_text(), "between-battle")
    assert caught.value.key == "deck-no-decks"


# ---- attached files and one-line pastes --------------------------------------------------
def test_attachment_text() -> None:
    text = _ready_text()
    assert attachment_text("deck.txt", 10, None, ("\ufeff" + text).encode()) == text
    assert attachment_text("DECK.TXT", 10, None, "4 Épée".encode("latin-1")) == "4 Épée"
    assert attachment_text("list", 10, "text/plain; charset=utf-8", b"4 Archer") == "4 Archer"
    for name, data, size, key in [
        ("deck.png", b"\x89PNG", 4, "deck-file-not-text"),
        ("deck.txt", b"4 Archer\x00\x01", 10, "deck-file-not-text"),
        ("deck.txt", b"x", MAX_FILE_BYTES + 1, "deck-file-too-big"),
        ("deck.txt", b"x" * (MAX_FILE_BYTES + 1), 1, "deck-file-too-big"),
    ]:
        with pytest.raises(DeckRefused) as caught:
            attachment_text(name, size, None, data)
        assert caught.value.key == key


def test_a_list_pasted_on_one_line_reads_as_the_list() -> None:
    text = _ready_text("starter")
    one_line = " ".join(text.split("\n"))  # what Discord makes of a pasted list
    assert "\n" not in one_line
    parsed = rules.checked(rules.parse_deck_list(split_pasted_line(one_line)))
    spec = decks_by_id()["starter"]
    assert rules.deck_code(*parsed) == rules.deck_code(spec.general, spec.cards)
    # the other styles
    names = _names()
    general = names[spec.general]
    cards = [names[c] for c, _ in spec.cards]
    styles = " ".join(f"{cards[i]} x{n}" for i, (_, n) in enumerate(spec.cards))
    parsed = rules.checked(rules.parse_deck_list(split_pasted_line(f"{styles} General: {general}")))
    assert rules.deck_code(*parsed) == rules.deck_code(spec.general, spec.cards)
    assert split_pasted_line("a\nb") == "a\nb"  # lines already: left alone


# ---- lobbies: each seat's deck, the match's options ---------------------------------------
async def _liber_lobby(svc: HostService, seats: int = 3) -> Lobby:
    """A Liber lobby, straight in the store (the game is not hostable until
    its engine and images are registered)."""
    lobby_id = await svc.store.create_lobby(9, CHAN, "liber", ALICE.id, seats, "")
    lobby = await svc.lobby(lobby_id)
    assert lobby is not None
    return lobby


async def test_joining_with_a_deck_keeps_its_code(service: HostService) -> None:
    await service.create_deck(BOB, "Mien", _ready_text("starter"))
    await _liber_lobby(service)
    lobby = await service.join(CHAN, BOB, "mien")
    code = (await service.find_deck(BOB.id, "Mien")).code
    assert lobby.decks == ((BOB.id, "Mien", code),)
    # joining again with another deck changes it; deleting the deck later does not
    other = card_file().decks[-1]
    lobby = await service.join(CHAN, BOB, other.id)
    assert lobby.decks == ((BOB.id, other.name.fr, rules.deck_code(other.general, other.cards)),)
    with pytest.raises(HostError) as caught:
        await service.join(CHAN, BOB)
    assert caught.value.key == "already-joined"
    with pytest.raises(HostError) as caught:
        await service.join(CHAN, ALICE, "no such deck")
    assert caught.value.key == "no-such-deck"
    assert (await service.lobby(lobby.id)).decks == lobby.decks  # type: ignore[union-attr]


async def test_the_match_options_hold_every_seats_code(service: HostService) -> None:
    await service.create_deck(BOB, "Mien", _ready_text("starter"))
    lobby = await _liber_lobby(service)
    await service.join(CHAN, BOB, "Mien")
    await service.store.add_lobby_player(lobby.id, -1, bot_level="easy")
    lobby = await service.lobby(lobby.id)  # type: ignore[assignment]
    assert lobby is not None
    options = service._with_decks(lobby, Options())
    ready = [d.code for d in ready_decks("liber")]
    mine = (await service.find_deck(BOB.id, "Mien")).code
    # Alice chose nothing: a ready-made deck; Bob his; the bot a ready-made one
    assert options.decks == (ready[0], mine, ready[2 % len(ready)])
    # every entry is a code the engine reads back to a 50-card deck
    for code in options.decks:
        _, general, cards = rules.resolve_deck(code)
        assert len(cards) == 50 and general
    # a seat's entry in the lobby options is kept, as a code
    given = Options(decks=(card_file().decks[-1].id,))
    spec = card_file().decks[-1]
    assert service._with_decks(lobby, given).decks[0] == rules.deck_code(spec.general, spec.cards)
    # replayable: the options' JSON holds the codes
    dumped = json.loads(json.dumps(options.model_dump(mode="json")))
    assert Options.model_validate(dumped).decks == options.decks


async def test_start_puts_the_decks_in_the_match(service: HostService) -> None:
    await service.create_deck(BOB, "Mien", _ready_text("starter"))
    await service.create_lobby(guild_id=9, channel_id=CHAN, host=ALICE, game_id="liber", seats=2)
    await service.join(CHAN, BOB, "Mien")
    live = await service.start(CHAN, ALICE)
    mine = (await service.find_deck(BOB.id, "Mien")).code
    assert live.match.options.decks[1] == mine
    row = await service.store.match(live.id)
    assert row is not None and json.loads(row.options)["decks"][1] == mine


# ---- /card lookups -----------------------------------------------------------------------
def test_cards_are_found_by_name_id_or_value() -> None:
    archer = next(c for c in all_cards() if c.type == "unite")
    assert find_card(archer.value) == archer
    assert find_card(archer.id) == archer
    assert find_card(archer.name.upper()) == archer
    assert find_card(fold(archer.name)) == archer
    assert find_card("zzzz no card") is None
    assert search_cards("", 25) == list(all_cards()[:25])
    assert archer in search_cards(archer.name[:3])
    assert all(len(c.value) <= 100 and len(c.name) <= 80 for c in all_cards())
    specs = {c.id: c for c in card_file().cards}
    for card in all_cards():
        assert card.text_in("fr") == specs[card.id].text.fr
        assert card.text_in("en") == specs[card.id].text.en


# ---- what Discord shows ------------------------------------------------------------------
def test_long_deck_lists_fill_several_fields() -> None:
    from bot.discord.cogs.decks import fields

    lines = [f"• {'x' * 70} {i}" for i in range(MAX_DECKS)]
    values = fields(lines)
    assert len(values) > 1 and all(len(v) <= 1024 for v in values)
    assert "\n".join(values).split("\n") == lines  # nothing lost, in order


async def test_the_lobby_says_who_plays_which_deck(service: HostService) -> None:
    from types import SimpleNamespace

    from bot.discord.announce import Announcer

    await service.create_deck(BOB, "Mien", _ready_text())
    await _liber_lobby(service)
    service.names[ALICE.id] = "Alice"
    service.names[BOB.id] = "Bob"
    lobby = await service.join(CHAN, BOB, "Mien")
    fake_bot = SimpleNamespace(host=service)
    assert Announcer.lobby_decks(fake_bot, lobby, "en") == (  # type: ignore[arg-type]
        "Decks: Alice (a ready-made deck) and Bob (“Mien”). Choose yours with `/lobby join deck:`."
    )
    french = Announcer.lobby_decks(fake_bot, lobby, "fr")  # type: ignore[arg-type]
    assert french.startswith("Decks : Alice (un deck tout fait) et Bob (« Mien »).")
    assert not problems(french, "fr")
