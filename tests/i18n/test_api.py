"""The i18n API: locale picking, the format specs (elision, plural, ordinal),
nested messages and lists, and what happens to a missing key."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

import i18n
from engine.text import Msg


@pytest.mark.parametrize(
    ("locale", "lang"),
    [
        ("fr", "fr"),
        ("fr-FR", "fr"),
        ("FR-ca", "fr"),
        ("fr_BE", "fr"),
        ("en-US", "en"),
        ("en-GB", "en"),
        ("es-ES", "en"),
        ("", "en"),
        (None, "en"),
        ("zz", "en"),
    ],
)
def test_pick_maps_a_locale_to_a_catalogue_language(locale: str | None, lang: str) -> None:
    assert i18n.pick(locale) == lang


def test_elision_specs() -> None:
    f = i18n.TextFormatter("fr")
    assert f.format("Main {p:de}", p="Alice") == "Main d'Alice"
    assert f.format("Main {p:de}", p="Bob") == "Main de Bob"
    assert f.format("Main {p:de}", p="Hugo") == "Main d'Hugo"  # names: mute h
    assert f.format("le tour {c:de_h}", c="Hussards") == "le tour de Hussards"  # aspirate h
    assert f.format("plus {p:que}", p="Émile") == "plus qu'Émile"
    assert f.format("plus {p:que}", p="Bob") == "plus que Bob"
    assert f.format("plus {c:que_h}", c="Hauteur") == "plus que Hauteur"
    assert f.format("{x:.1f}", x=2.25) == "2.2"  # the usual specs still work


def test_plural_and_ordinal_follow_the_language() -> None:
    fr, en = i18n.TextFormatter("fr"), i18n.TextFormatter("en")
    text = "{n} {n:plural:carte|cartes}"
    assert [fr.format(text, n=n) for n in (0, 1, 2)] == ["0 carte", "1 carte", "2 cartes"]
    assert [en.format("{n:plural:card|cards}", n=n) for n in (0, 1, 2)] == [
        "cards",
        "card",
        "cards",
    ]
    named = "{n:plural:one=un|other=plusieurs}"
    assert fr.format(named, n=1) == "un" and fr.format(named, n=5) == "plusieurs"
    assert [
        i18n.translate("en", "ordinal", n=n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 111)
    ] == [
        "1st",
        "2nd",
        "3rd",
        "4th",
        "11th",
        "12th",
        "13th",
        "21st",
        "22nd",
        "111th",
    ]
    assert [i18n.translate("fr", "ordinal", n=n) for n in (1, 2, 21)] == ["1er", "2e", "21e"]


def test_a_msg_is_pure_hashable_and_translates_with_nested_messages() -> None:
    inner = Msg.of("game-via-belli-name")
    msg = Msg.of("lobby-title", game=inner)
    assert msg == Msg.of("lobby-title", game=Msg.of("game-via-belli-name"))
    assert hash(msg) == hash(Msg.of("lobby-title", game=inner))
    assert i18n.translate("en", msg) == "Via Belli: lobby"
    assert i18n.translate("fr", msg) == "Via Belli : salon d'attente"
    # a tuple of messages is a list in the language's pattern
    games = tuple(
        Msg.of(f"game-{g}-name") for g in ("via-belli", "between-battle", "belle-position")
    )
    listed = Msg.of("lobby-started", players=games)
    assert i18n.translate("en", listed) == (
        "The match has started: Via Belli, Between Battle and Belle Position."
    )
    assert i18n.translate("fr", listed) == (
        "La partie commence : Via Belli, Between Battle et Belle Position."
    )
    # seat names are plain string parameters from the host
    assert i18n.translate("fr", Msg.of("of-player", name="Alice")) == "d'Alice"


def test_a_missing_key_raises_when_strict_and_falls_back_to_english_otherwise(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    (tmp_path / "xx").mkdir()
    (tmp_path / "xx" / "host.po").write_text(
        'msgid ""\nmsgstr "Content-Type: text/plain; charset=utf-8\\n"\n\n'
        'msgid "lobby-title"\nmsgstr "{game} — xx"\n',
        encoding="utf-8",
    )
    i18n.set_catalogue_dirs(tmp_path)
    try:
        assert "xx" in i18n.languages()
        assert i18n.translate("xx", "lobby-title", game="G") == "G — xx"
        monkeypatch.setenv(i18n.ENV_STRICT, "1")
        with pytest.raises(i18n.MissingText):
            i18n.translate("xx", "lobby-cancelled")
        with pytest.raises(i18n.MissingText):
            i18n.translate("en", "no-such-key")
        monkeypatch.setenv(i18n.ENV_STRICT, "")
        with caplog.at_level(logging.WARNING, logger="i18n"):
            assert i18n.translate("xx", "lobby-cancelled") == "Lobby cancelled."
        assert "missing from the 'xx' catalogue" in caplog.text
        assert i18n.translate("en", "no-such-key") == "no-such-key"
    finally:
        i18n.set_catalogue_dirs()
    assert "xx" not in i18n.languages()


def test_the_i18n_package_imports_no_host_renderer_or_discord() -> None:
    import ast

    for path in Path(i18n.__file__).parent.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            for name in names:
                root = name.split(".")[0]
                assert root not in {"bot", "render", "discord", "PIL"}, f"{path.name}: {name}"
                if root == "engine":
                    assert name == "engine.text", f"{path.name}: {name}"
