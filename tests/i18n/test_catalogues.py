"""The catalogues themselves: every PO file parses, every language has every
key of every domain with the same placeholders, no sentence is empty, and a
key lives in one domain only. Plus the copies of engine texts that the
catalogues hold until the engine returns keys (they must not drift)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

import i18n
from engine import GAMES

LOCALES = i18n.LOCALES_DIR
LANGS = sorted(p.name for p in LOCALES.iterdir() if p.is_dir())


def _files(lang: str) -> dict[str, Path]:
    return {p.stem: p for p in sorted((LOCALES / lang).glob("*.po"))}


def _entries(path: Path) -> Iterator[tuple[str, str]]:
    with path.open("rb") as handle:
        for message in read_po(handle, abort_invalid=True):
            if message.id:
                assert isinstance(message.id, str), (path, message.id)
                assert isinstance(message.string, str), (path, message.id)
                yield message.id, message.string


def test_the_shipped_languages_are_the_folders() -> None:
    assert {"en", "fr"} <= set(LANGS)
    assert set(LANGS) <= set(i18n.languages())


@pytest.mark.parametrize("lang", LANGS)
def test_every_po_file_parses_with_unique_non_empty_entries(lang: str) -> None:
    files = _files(lang)
    assert files, lang
    for domain, path in files.items():
        seen: set[str] = set()
        for key, text in _entries(path):
            assert key not in seen, (domain, key)
            seen.add(key)
            assert text.strip(), f"{lang}/{domain}.po: {key} has an empty msgstr"
        assert seen, path


@pytest.mark.parametrize("lang", LANGS)
def test_a_key_lives_in_one_domain(lang: str) -> None:
    owner: dict[str, str] = {}
    for domain, path in _files(lang).items():
        for key, _ in _entries(path):
            assert key not in owner, f"{key} is in {owner.get(key)} and {domain}"
            owner[key] = domain


# Placeholders a language uses or leaves out on purpose (ignored on both sides
# of the comparison), with the reason.
LEFT_OUT: dict[tuple[str, str], frozenset[str]] = {
    # pydantic's messages are English: French names the refused keys and
    # points to /rules instead
    ("fr", "core-bad-options"): frozenset({"problems", "refused"}),
    # a developer's detail (a field, a JSON error), in English only
    ("fr", "core-bad-record"): frozenset({"detail"}),
}


@pytest.mark.parametrize("lang", [lang for lang in LANGS if lang != "en"])
def test_every_key_exists_in_every_language_with_the_same_placeholders(lang: str) -> None:
    english = _files("en")
    other = _files(lang)
    assert set(other) == set(english), lang
    for domain, path in english.items():
        ref = dict(_entries(path))
        mine = dict(_entries(other[domain]))
        assert set(mine) == set(ref), (
            f"{lang}/{domain}.po: missing {sorted(set(ref) - set(mine))}, "
            f"extra {sorted(set(mine) - set(ref))}"
        )
        for key, text in ref.items():
            left_out = LEFT_OUT.get((lang, key), frozenset())
            assert i18n.placeholders(mine[key]) - left_out == i18n.placeholders(text) - left_out, (
                lang,
                key,
            )


@pytest.mark.parametrize("lang", LANGS)
def test_every_sentence_formats(lang: str) -> None:
    """Each sentence formats with its own placeholders (specs included): no
    stray brace, no unknown format spec."""
    for key in sorted(i18n.keys(lang)):
        text = i18n.template(lang, key)
        params = {name: 2 for name in i18n.placeholders(text)}
        out = i18n.translate(lang, key, **params)
        assert ("{" in out) == ("{{" in text), (lang, key, out)


def test_french_puts_a_space_before_the_colon_and_english_does_not() -> None:
    """Over every catalogue (the host's texts have a finer check in
    tests/bot/textcheck.py): a colon after a letter in French, or after a
    space in English, is a typo."""
    import re

    for lang, bad in (("fr", re.compile(r"[^\W\d_]:(?=\s|$)")), ("en", re.compile(r" :(?=\s|$)"))):
        for key in i18n.keys(lang):
            text = i18n.template(lang, key)
            prose = re.sub(r"`[^`]*`|\{[^}]*\}|https?://\S+", "X", text)
            assert not bad.search(prose), (lang, key, text)


# ---- texts the engine names by key: each has its sentence -------


def test_every_game_has_a_name_and_a_summary() -> None:
    """A game's name and summary are catalogue texts only (``game-<id>-*``)."""
    for lang in LANGS:
        for game_id in GAMES:
            for key in (f"game-{game_id}-name", f"game-{game_id}-summary"):
                assert key in i18n.keys(lang) and i18n.translate(lang, key).strip(), key


def test_between_battle_characters_have_names() -> None:
    """Between Battle's character names are catalogue texts (``bb-char-<id>``),
    no longer the card data's: every character of the data has one."""
    from engine.games.between_battle import deck_file

    for lang in ("en", "fr"):
        for spec in deck_file().characters:
            assert i18n.has(lang, f"bb-char-{spec.id}"), spec.id


def test_via_belli_card_effects_and_table_names_are_catalogue_keys() -> None:
    """The card effects and the table presets' names left the engine's data
    for ``vb-render-effect-<card>`` and ``vb-table-<preset>``: each effect key
    names a card of the deck, and every language names every preset."""
    from engine.games.via_belli import PRESETS, deck_file
    from render.via_belli import card_key

    cards = {card_key(unit.name) for unit in deck_file().units}
    prefix = "vb-render-effect-"
    for lang in i18n.languages():
        effects = {k.removeprefix(prefix) for k in i18n.keys(lang) if k.startswith(prefix)}
        assert len(effects) >= 8 and effects <= cards, (lang, sorted(effects - cards))
        assert {f"vb-table-{preset}" for preset in PRESETS} <= i18n.keys(lang), lang


def test_belle_position_texts_match_the_engine() -> None:
    from engine.games.belle_position import card_file

    data = card_file()
    for card in (*data.terrain, *data.specials):  # their effects: the catalogue's only
        for lang in ("en", "fr"):
            assert i18n.translate(lang, f"bp-render-text-{card.id}").strip(), card.id
    game = GAMES["belle-position"]
    view = game.view(game.setup(game.options(""), 2, 1), None)
    for lang in ("en", "fr"):  # the sides' and positions' names: the catalogue's only
        for player in view.players:
            assert i18n.translate(lang, f"bp-render-side-{player.side}").strip(), player.side
        for pos in view.positions:
            assert i18n.translate(lang, f"bp-render-pos-{pos.code}").strip(), pos.code
