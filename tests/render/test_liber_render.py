"""The Chroniques de Liber renderer: valid, bounded, deterministic PNGs from
hand-made views (tests/render/liber_views.py: 2, 3 and 4 seats, every
status, a combat, the windows, the end of the game, a full hand of long
texts), the same board for every observer, and one card per pool card.

To look at the images by hand: ``python -m tests.render.test_liber_render OUTDIR``.
"""

from __future__ import annotations

import copy
import dataclasses
import io
import os
import sys
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageStat

import i18n
from engine.games.liber.data import KEYWORDS, card_file
from engine.games.liber.model import FRONT, PLAINE, View
from render import CARD_GAMES, UnknownCard, UnknownGame, render_card
from render.liber import render_board, render_private
from render.liber.board import _banner_lines, _layout
from render.liber.context import context
from tests.i18n import test_pseudo_locale

from .liber_views import FULL_HAND, NAMES, SCENARIOS, observed, piece

qps = test_pseudo_locale.qps  # the pseudo-locale fixture

LOCALES = ("en", "fr")
MAX_BYTES = 400 * 1024


def _check(
    data: bytes, width: int = 1100, min_height: int = 150, max_height: int = 2600
) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(data) < MAX_BYTES
    img = Image.open(io.BytesIO(data))
    assert img.format == "PNG"
    img.load()
    assert img.width == width
    assert min_height <= img.height <= max_height
    assert ImageStat.Stat(img.convert("L")).stddev[0] > 12  # not blank
    return img


@pytest.mark.parametrize("scenario", sorted(SCENARIOS))
def test_every_view_renders_in_both_locales(scenario: str) -> None:
    v = SCENARIOS[scenario]()
    for locale in LOCALES:
        boards = set()
        for seat in (None, *range(len(v.sides))):
            seen = observed(v, seat, FULL_HAND[:3], ("play eclair 2f1",))
            boards.add(render_board(seen, NAMES, locale))
            data = render_private(seen, NAMES, locale)
            if seat is None:
                _check(data, max_height=400)
            else:
                _check(data, min_height=300)
        # the board shows public information only: every observer gets the same
        assert len(boards) == 1, scenario
        _check(boards.pop(), min_height=900)


def test_the_board_grows_with_the_players() -> None:
    heights = {}
    for name in ("statuses", "three-players", "four-players"):
        img = Image.open(io.BytesIO(render_board(SCENARIOS[name](), NAMES)))
        heights[len(SCENARIOS[name]().sides)] = img.height
    assert heights[2] < heights[3] < heights[4]


def test_the_lines_face_each_other() -> None:
    """L1: plaine, arrière, front | front, arrière, plaine: in each duel the
    first battlefield has its front at the bottom, the second at the top,
    and the two fronts are next to each other."""
    for seats in ((0, 1), (0, 1, 2), (0, 1, 2, 3)):
        fields, _ = _layout(seats, 0)
        for first, second in zip(fields[0::2], fields[1::2], strict=False):
            assert first.cell(PLAINE, 0)[1] < first.cell(FRONT, 0)[1]
            assert second.cell(FRONT, 0)[1] < second.cell(PLAINE, 0)[1]
            gap = second.cell(FRONT, 0)[1] - first.cell(FRONT, 0)[3]
            assert 0 < gap < 120  # only the two side panels' paddings between them
        assert fields[-1].front_first  # a lone third player faces the others too


@pytest.mark.parametrize(
    "change",
    [
        {"poisoned": True},
        {"paralysed": True},
        {"sick": True},
        {"countered": True},
        {"attacks": 1},
        {"damage": 2},
        {"equipment": ("epee-runique",)},
        {"keywords": ("vol", "armure")},
        {"force": 7},
    ],
    ids=lambda c: next(iter(c)),
)
def test_each_mark_of_a_unit_is_drawn(change: dict[str, Any]) -> None:
    v = SCENARIOS["start"]()
    plain = piece("fantassin", 1, "f2")
    sides = list(v.sides)
    with_unit = dataclasses.replace(sides[1], pieces=(*sides[1].pieces, plain))
    marked = dataclasses.replace(
        sides[1], pieces=(*sides[1].pieces, dataclasses.replace(plain, **change))
    )
    a = render_board(dataclasses.replace(v, sides=(sides[0], with_unit)), NAMES)
    b = render_board(dataclasses.replace(v, sides=(sides[0], marked)), NAMES)
    assert a != b


def test_the_attack_is_drawn() -> None:
    window = SCENARIOS["attack-window"]()
    calm = dataclasses.replace(window, combat=None)
    assert render_board(window, NAMES) != render_board(calm, NAMES)
    assert render_board(SCENARIOS["blocked"](), NAMES) != render_board(window, NAMES)
    assert render_board(SCENARIOS["honour"](), NAMES) != render_board(window, NAMES)


def test_the_banner_says_who_acts_and_why() -> None:
    ctx = context(SCENARIOS["attack-window"](), NAMES, "en")
    lines = _banner_lines(ctx)
    assert lines[0] == "Alice plays: attack phase"
    assert lines[1] == "Attack: Chevalier (1f3) → Griffon (2f1)"
    bob = "Bérénice de la Tour-d'Auvergne"  # the name as drawn (no emoji)
    assert lines[2].startswith(bob + " may react: block")
    fr = _banner_lines(context(SCENARIOS["honour"](), NAMES, "fr"))
    assert (
        fr[1] == "Attaque : Chevalier (1f3) → Griffon (2f1) (5 dégâts), Assassin (2f3) (4 dégâts)"
    )
    blocked = _banner_lines(context(SCENARIOS["blocked"](), NAMES, "fr"))
    assert blocked[1].endswith("· bloquée par Assassin (2f3)")
    three = _banner_lines(context(SCENARIOS["three-players"](), NAMES, "fr"))
    assert three == [
        f"{bob} joue : fin du tour",
        f"{bob} se défausse jusqu'à la limite de main",
    ]
    first = _banner_lines(context(SCENARIOS["start"](), NAMES, "en"))
    assert first == ["Alice plays: placement phase", "First round: placement only, no combat"]
    over = _banner_lines(context(SCENARIOS["over"](), NAMES, "fr"))
    assert over == ["Alice remporte la bataille", "Le général adverse est tombé."]


def test_the_hand_shows_every_card_with_its_text() -> None:
    v = SCENARIOS["statuses"]()
    full = observed(v, 1, FULL_HAND, ("play eclair 1f2", "play milicien p2", "pass"))
    small = observed(v, 1, FULL_HAND[:2], ())
    for locale in LOCALES:
        big = _check(render_private(full, NAMES, locale), min_height=900)
        little = _check(render_private(small, NAMES, locale), min_height=200)
        assert big.height > little.height + 500
    # the playable cards are marked
    assert render_private(full, NAMES) != render_private(
        dataclasses.replace(full, choices=()), NAMES
    )
    empty = observed(v, 0, (), ())
    _check(render_private(empty, NAMES), min_height=150)


def test_the_hand_says_what_its_owner_decides() -> None:
    from render.liber.private import status_line

    window = SCENARIOS["attack-window"]()
    bob = "Bérénice de la Tour-d'Auvergne"
    reacting = context(observed(window, 1, FULL_HAND[:2]), NAMES, "en")
    assert status_line(reacting, False) == (
        f"{bob} may react: block, cast an ephemeral or play an Impatient unit",
        True,
    )
    waiting = context(observed(window, 0, FULL_HAND[:2]), NAMES, "fr")
    assert status_line(waiting, False) == ("Alice joue : phase d'attaque", False)
    start = context(observed(SCENARIOS["start"](), 0, FULL_HAND[:2]), NAMES, "fr")
    assert status_line(start, True) == (
        "À vous : les cartes cerclées d'or se jouent maintenant",
        True,
    )
    assert status_line(start, False) == ("À vous de jouer", True)
    discarding = context(observed(SCENARIOS["three-players"](), 1, FULL_HAND), NAMES, "en")
    assert status_line(discarding, False) == (f"{bob} discards down to the hand limit", True)


def test_the_texts_come_from_the_pool_and_the_keywords() -> None:
    from render.liber.cards import paragraphs
    from render.liber.context import spec

    necro = spec("necromancien")
    assert necro is not None
    paras = paragraphs(necro, "fr")
    assert paras[0].lead == "Invocateur"
    assert "Squelette 5/1" in paras[0].body
    assert len(paras) == 1  # the card's own text only repeats the keyword
    god = spec("dieu-de-la-guerre")
    assert god is not None
    assert [p.body for p in paragraphs(god, "en")] == [god.text.en]
    assert [p.body for p in paragraphs(god, "fr")] == [god.text.fr]


def test_fixtures_say_what_they_do_in_short() -> None:
    """Places, enchantments and favours on the board carry a short line per
    effect (legible at the preview), the card's text when one lacks it."""
    from engine.games.liber.data import CardSpec, Effect, Texts
    from render.liber.tiles import effect_summary

    fixtures = [
        c for c in card_file().cards if c.type in ("lieu", "faveur") or c.spell == "enchantement"
    ]
    assert fixtures
    for lang in LOCALES:
        for card in fixtures:
            assert len(effect_summary(card, lang)) == len(card.effects), (lang, card.id)
    mine = next(c for c in fixtures if c.id == "mine-d-or")
    assert effect_summary(mine, "fr") == ["+1 réserve d'or"]
    odd = CardSpec(
        id="puits",
        name="Puits",
        type="lieu",
        effects=(Effect(kind="draw", amount=1),),
        text=Texts(fr="Piochez une carte.", en="Draw a card."),
    )
    assert effect_summary(odd, "en") == []


def test_every_keyword_has_words_in_every_language() -> None:
    for lang in i18n.languages():
        abbreviations = set()
        for kw in KEYWORDS:
            for kind in ("kw", "kwa", "kwd"):
                assert i18n.has(lang, f"lb-render-{kind}-{kw}"), (lang, kind, kw)
            abbreviations.add(i18n.translate(lang, f"lb-render-kwa-{kw}"))
        assert len(abbreviations) == len(KEYWORDS), lang


@pytest.mark.parametrize("locale", LOCALES)
def test_every_card_of_the_pool_renders(locale: str) -> None:
    assert "liber" in CARD_GAMES
    for card in card_file().cards:
        _check(render_card("liber", card.id, locale), width=712, min_height=500, max_height=1400)


def test_render_card_refusals() -> None:
    with pytest.raises(UnknownCard):
        render_card("liber", "no-such-card")
    with pytest.raises(KeyError):
        render_card("liber", "no-such-card")
    with pytest.raises(UnknownGame):
        render_card("via-belli", "archer")
    assert render_card("liber", "archer", "fr") != render_card("liber", "archer", "en")
    assert render_card("liber", "archer", "fr-CA") == render_card("liber", "archer", "fr")


def test_rendering_is_deterministic_and_pure(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    v = observed(SCENARIOS["honour"](), 0, FULL_HAND, ("play eclair 2f1",))
    before = copy.deepcopy(v)
    names = list(NAMES)
    assert render_board(v, names, "fr") == render_board(v, names, "fr")
    assert render_private(v, names, "fr") == render_private(v, names, "fr")
    assert v == before and names == list(NAMES)
    assert os.listdir(tmp_path) == []


def test_locales_differ_and_default_is_english() -> None:
    v = observed(SCENARIOS["statuses"](), 0, FULL_HAND[:4])
    en = render_board(v, NAMES)
    assert en == render_board(v, NAMES, "en-GB")
    assert en != render_board(v, NAMES, "fr")
    assert render_private(v, NAMES) != render_private(v, NAMES, "fr")


@pytest.mark.parametrize(
    "names",
    [[], ["", "   "], ["\U0001f409\U0001f3b2", "李小龙"], ["A" * 300, "Zoë\u200d\ufe0f 🎉 " * 20]],
)
def test_awkward_names_are_handled(names: list[str]) -> None:
    for name in ("attack-window", "four-players", "over"):
        v = SCENARIOS[name]()
        _check(render_board(v, names), min_height=900)
        render_private(observed(v, 1, FULL_HAND[:3]), names, "fr")


def test_unknown_cards_and_wrong_views() -> None:
    v = SCENARIOS["start"]()
    odd = dataclasses.replace(piece("archer", 0, "f1"), card="carte-inconnue")
    sides = (dataclasses.replace(v.sides[0], pieces=(*v.sides[0].pieces, odd)), v.sides[1])
    _check(render_board(dataclasses.replace(v, sides=sides), NAMES), min_height=900)
    _check(render_private(observed(v, 0, ("carte-inconnue",)), NAMES))
    with pytest.raises(TypeError):
        render_board(object(), NAMES)
    with pytest.raises(TypeError):
        render_private(object(), NAMES)
    assert isinstance(v, View)


def main(out: str) -> None:
    path = Path(out)
    path.mkdir(parents=True, exist_ok=True)
    for name, build in SCENARIOS.items():
        v = build()
        for locale in LOCALES:
            (path / f"{name}-{locale}-board.png").write_bytes(render_board(v, NAMES, locale))
    hand = observed(SCENARIOS["statuses"](), 1, FULL_HAND, ("play eclair 1f2", "play milicien p2"))
    for locale in LOCALES:
        (path / f"hand-{locale}.png").write_bytes(render_private(hand, NAMES, locale))
        for card in card_file().cards:
            (path / f"card-{card.id}-{locale}.png").write_bytes(
                render_card("liber", card.id, locale)
            )


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "/tmp/liber-check")


def test_the_images_speak_the_pseudo_locale(monkeypatch: pytest.MonkeyPatch, qps: str) -> None:
    """Every word drawn comes from the catalogues (bracketed in ``qps``),
    but for seat names and card names (French in every language)."""
    import re

    import render.liber
    from tests.i18n.test_pseudo_locale import OPEN, _drawn, _known, outside_brackets

    texts = _drawn(monkeypatch, render.liber)
    for build in SCENARIOS.values():
        v = build()
        render_board(v, NAMES, qps)
        render_private(observed(v, 1, FULL_HAND, ("play eclair 1f2",)), NAMES, qps)
        render_private(observed(v, None), NAMES, qps)
    for card in card_file().cards:
        render_card("liber", card.id, qps)
    # the pool's texts are data, in French and English (qps reads English)
    allowed = {
        *NAMES,
        *(c.name for c in card_file().cards),
        *(c.text.en for c in card_file().cards),
    }
    words = {w for text in allowed for w in re.findall(r"[^\W\d_]{2,}", text)}
    leaks = sorted(
        {
            t
            for t in texts
            for w in re.findall(r"[^\W\d_]{2,}", outside_brackets(t))
            if not _known(w, words)
        }
    )
    assert not leaks, "\n".join(leaks)
    assert sum(OPEN in t for t in texts) > 100
