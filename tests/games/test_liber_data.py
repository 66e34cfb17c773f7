"""Chroniques de Liber's card pool (engine/data/liber-cards.json): the file
validates, the ready-made decks are playable and different, every keyword,
card type and effect kind is on the cards of the ready-made decks, the
rulings' starter deck is there as proposed, and the schema refuses broken
data."""

from __future__ import annotations

import copy
import re
from typing import Any, get_args

import pytest
from pydantic import ValidationError

from engine.data import load_json
from engine.games.liber import data
from engine.games.liber.data import KEYWORDS, CardFile, CardSpec, EffectKind
from engine.games.liber.deck import DeckList, find_card, fold, validate

# The rulings' proposed starter deck (rulings/chroniques-de-liber.md, copied
# here: tests never read /work/shared): name, type, gold, faith, force, PV,
# keywords, copies.
RULINGS_STARTER: tuple[tuple[str, str, int, int, int | None, int | None, str, int], ...] = (
    ("Paysan", "unite", 1, 0, 1, 2, "producteur", 3),
    ("Milicien", "unite", 2, 0, 2, 3, "", 3),
    ("Marchand", "unite", 2, 0, 1, 2, "defausse", 1),
    ("Archer", "unite", 3, 0, 2, 3, "tir", 4),
    ("Fantassin", "unite", 3, 0, 3, 4, "", 3),
    ("Éclaireur", "unite", 3, 0, 2, 3, "deplacement impatient", 2),
    ("Sergent", "unite", 4, 0, 3, 5, "regroupement", 2),
    ("Porte-bouclier", "unite", 4, 0, 2, 6, "armure loyaute", 2),
    ("Empoisonneuse", "unite", 4, 0, 2, 3, "tir empoisonnement", 2),
    ("Prêtre", "unite", 4, 0, 1, 4, "soin", 2),
    ("Spectre", "unite", 4, 0, 3, 3, "entraver", 1),
    ("Fanatique", "unite", 5, 0, 5, 4, "fanatique", 2),
    ("Assassin", "unite", 5, 0, 4, 3, "furtivite coup-fatal", 2),
    ("Duelliste", "unite", 5, 0, 3, 4, "double-attaque", 1),
    ("Sorcière du givre", "unite", 5, 0, 2, 4, "paralysie", 1),
    ("Nécromancien", "unite", 5, 0, 2, 4, "invocateur", 1),
    ("Griffon", "unite", 6, 0, 4, 5, "vol", 2),
    ("Catapulte", "unite", 6, 0, 5, 4, "artillerie", 2),
    ("Capitaine", "unite", 6, 0, 4, 5, "encouragement", 1),
    ("Mage de guerre", "unite", 6, 0, 3, 4, "ravage", 1),
    ("Mentaliste", "unite", 6, 0, 2, 4, "telekinesie", 1),
    ("Chevalier", "unite", 7, 0, 6, 7, "initiative honneur", 2),
    ("Épée runique", "objet", 1, 0, None, None, "", 2),
    ("Éclair", "sort", 4, 1, None, None, "", 2),
    ("Bénédiction", "sort", 3, 0, None, None, "", 1),
    ("Mine d'or", "lieu", 6, 0, None, None, "", 2),
    ("Autel", "lieu", 4, 0, None, None, "", 1),
    ("Dieu de la Guerre", "dieu", 0, 10, None, None, "", 1),
)

THEMED = ("aggro", "tir", "controle", "foi")
READY = ("starter", *THEMED)


def _raw() -> dict[str, Any]:
    return copy.deepcopy(load_json(data.DATA_FILE))


def _made(spec: CardSpec) -> list[CardSpec]:
    """The tokens and favours a card brings into play."""
    refs = [k.token for k in spec.keywords] + [e.token for e in spec.effects]
    return [data.card(r) for r in refs if r is not None]


def _deck_cards(deck_id: str) -> list[CardSpec]:
    """A ready-made deck's general, cards, and what they make (tokens, favours)."""
    deck = data.decks_by_id()[deck_id]
    specs = [data.card(deck.general)] + [data.card(c) for c, _ in deck.cards]
    return specs + [m for s in specs for m in _made(s)]


# ---- the file ------------------------------------------------------------


def test_the_shipped_file_validates() -> None:
    pool = CardFile.model_validate(_raw())
    assert pool == data.card_file()
    assert set(READY) <= set(data.decks_by_id())


@pytest.mark.parametrize("deck_id", READY)
def test_each_ready_made_deck_is_fifty_cards_at_most_four_copies_and_valid(deck_id: str) -> None:
    deck = data.decks_by_id()[deck_id]
    assert sum(n for _, n in deck.cards) == 50
    assert all(1 <= n <= 4 for _, n in deck.cards)
    assert len({c for c, _ in deck.cards}) == len(deck.cards)
    assert data.card(deck.general).type == "general"
    assert validate(DeckList.of(deck.general, deck.cards)) == ()
    assert deck.name.fr and deck.name.en and deck.style.fr and deck.style.en


def test_the_starter_is_the_rulings_proposed_mirror_deck() -> None:
    deck = data.decks_by_id()["starter"]
    counts = dict(deck.cards)
    assert len(counts) == len(RULINGS_STARTER)
    for name, kind, gold, faith, force, pv, keywords, copies in RULINGS_STARTER:
        card_id = find_card(name)
        assert card_id is not None, name
        spec = data.card(card_id)
        assert spec.name == name
        assert (spec.type, spec.gold, spec.faith, spec.force, spec.pv) == (
            kind,
            gold,
            faith,
            force,
            pv,
        ), name
        assert tuple(k.id for k in spec.keywords) == tuple(keywords.split()), name
        assert counts[card_id] == copies, name


def test_the_rulings_parameters_and_effects_of_the_starter_cards() -> None:
    necro = data.card("necromancien").keyword("invocateur")
    assert necro is not None and (necro.cost, necro.token) == (2, "squelette")
    assert (data.card("squelette").type, data.card("squelette").force) == ("token", 5)
    assert data.card("squelette").pv == 1
    ravage = data.card("mage-de-guerre").keyword("ravage")
    assert ravage is not None and ravage.amount == 3
    assert [(e.kind, e.amount) for e in data.card("epee-runique").effects] == [("force", 2)]
    assert [(e.kind, e.amount) for e in data.card("eclair").effects] == [("damage", 3)]
    assert data.card("eclair").spell == "ephemere"
    assert data.card("benediction").spell == "enchantement"
    assert [(e.kind, e.amount) for e in data.card("benediction").effects] == [("units-pv", 1)]
    assert [e.kind for e in data.card("mine-d-or").effects] == ["gold-reserve"]
    assert [e.kind for e in data.card("autel").effects] == ["faith-on-own-death"]
    favour = data.card("dieu-de-la-guerre").effects[0]
    assert (favour.kind, favour.token) == ("favour", "faveur-de-la-guerre")
    front = data.card("faveur-de-la-guerre").effects[0]
    assert (front.kind, front.amount, front.scope) == ("units-force", 1, "front")
    aldric, ysolde = data.card("aldric"), data.card("ysolde")
    assert (aldric.pv, aldric.force, aldric.vp) == (20, 3, 3)
    assert [(e.kind, e.amount) for e in aldric.effects] == [("force", 2)]
    assert (ysolde.pv, ysolde.force, ysolde.vp) == (18, 2, 4)
    assert [(e.kind, e.amount) for e in ysolde.effects] == [("heal", 3), ("faith", 1)]


# ---- coverage: keywords, types, effects, themes ------------------------------


@pytest.mark.parametrize("decks", [READY, THEMED, ("starter",)])
def test_every_keyword_is_on_cards_of_the_ready_made_decks(decks: tuple[str, ...]) -> None:
    found = {k.id for d in decks for s in _deck_cards(d) for k in s.keywords}
    assert set(KEYWORDS) - found == set()
    assert len(KEYWORDS) == 24


def test_every_card_type_spell_kind_and_effect_kind_is_in_the_themed_decks() -> None:
    specs = [s for d in THEMED for s in _deck_cards(d)]
    types = {"unite", "objet", "sort", "lieu", "dieu", "token", "faveur", "general"}
    assert {s.type for s in specs} == types
    assert {s.spell for s in specs if s.spell} == {"rituel", "enchantement", "ephemere"}
    assert {e.kind for s in specs for e in s.effects} == set(get_args(EffectKind))


def test_two_generals_per_theme_each_theme_a_ready_made_deck() -> None:
    generals = [c for c in data.card_file().cards if c.type == "general"]
    by_theme: dict[str, list[str]] = {}
    for g in generals:
        by_theme.setdefault(g.faction, []).append(g.id)
    assert sorted(by_theme) == sorted(THEMED)
    assert all(len(ids) == 2 for ids in by_theme.values()), by_theme
    for deck_id in THEMED:
        assert data.card(data.decks_by_id()[deck_id].general).faction == deck_id


def test_the_themed_decks_play_differently() -> None:
    """Each themed deck leans on its own keywords and card kinds."""

    def copies(deck_id: str, test: Any) -> int:
        deck = data.decks_by_id()[deck_id]
        return sum(n for c, n in deck.cards if test(data.card(c)))

    def has(*kws: str) -> Any:
        return lambda s: any(k.id in kws for k in s.keywords)

    assert copies("aggro", has("impatient", "fanatique", "encouragement")) >= 15
    assert copies("aggro", lambda s: s.type == "unite" and s.gold <= 3) >= 25
    assert copies("tir", has("tir", "artillerie")) >= 20
    assert copies("tir", has("loyaute")) >= 8
    locks = has("paralysie", "empoisonnement", "telekinesie")
    answers = {"paralyse", "poison", "destroy"}
    assert copies("controle", lambda s: locks(s) or answers & {e.kind for e in s.effects}) >= 20
    assert copies("controle", lambda s: s.spell == "ephemere") >= 8
    assert copies("foi", has("soin")) >= 8
    assert copies("foi", lambda s: s.faith > 0 or s.type in ("dieu", "lieu")) >= 12
    cheapest = {d: _mean_gold(d) for d in THEMED}
    assert min(cheapest, key=cheapest.__getitem__) == "aggro"


def _mean_gold(deck_id: str) -> float:
    deck = data.decks_by_id()[deck_id]
    return sum(data.card(c).gold * n for c, n in deck.cards) / 50


@pytest.mark.parametrize("deck_id", READY)
def test_the_numbers_stay_near_the_starters_curve(deck_id: str) -> None:
    """Sensible numbers: a mean gold cost within a gold of the starter's, at
    least 25 units, and no unit much stronger than the starter's for its
    cost (force + PV at most 2 x gold + 3)."""
    deck = data.decks_by_id()[deck_id]
    assert abs(_mean_gold(deck_id) - _mean_gold("starter")) <= 1.2
    assert sum(n for c, n in deck.cards if data.card(c).type == "unite") >= 25
    for card_id, _ in deck.cards:
        spec = data.card(card_id)
        if spec.type == "unite":
            assert (spec.force or 0) + (spec.pv or 0) <= 2 * spec.gold + 3, card_id


# ---- texts and names -----------------------------------------------------------

KEYWORD_NAMES = {
    "armure": ("Armure", "Armour"),
    "artillerie": ("Artillerie", "Artillery"),
    "coup-fatal": ("Coup fatal", "Deadly Blow"),
    "defausse": ("Défausse", "Discard"),
    "deplacement": ("Déplacement", "Mobility"),
    "double-attaque": ("Double attaque", "Double Attack"),
    "encouragement": ("Encouragement", "Encouragement"),
    "empoisonnement": ("Empoisonnement", "Poison"),
    "entraver": ("Entraver", "Fettered"),
    "fanatique": ("Fanatique", "Fanatic"),
    "furtivite": ("Furtivité", "Stealth"),
    "invocateur": ("Invocateur", "Summoner"),
    "honneur": ("Honneur du guerrier", "Warrior's Honour"),
    "impatient": ("Impatient", "Impatient"),
    "initiative": ("Initiative", "Initiative"),
    "loyaute": ("Loyauté", "Loyalty"),
    "paralysie": ("Paralysie", "Paralysis"),
    "producteur": ("Producteur", "Producer"),
    "ravage": ("Ravage", "Ravage"),
    "regroupement": ("Regroupement", "Rally"),
    "soin": ("Soin", "Healing"),
    "telekinesie": ("Télékinésie", "Telekinesis"),
    "tir": ("Tir", "Ranged"),
    "vol": ("Vol", "Flying"),
}
"""The keywords' French names and the English glosses the card texts use."""


def test_every_card_has_both_texts_and_english_uses_the_english_glosses() -> None:
    assert set(KEYWORD_NAMES) == set(KEYWORDS)
    french_only = [fr for fr, en in KEYWORD_NAMES.values() if fr != en]
    for spec in data.card_file().cards:
        assert spec.text.fr.strip() and spec.text.en.strip(), spec.id
        assert "plaine" not in spec.text.en, spec.id
        for word in french_only:
            assert not re.search(rf"\b{word}\b", spec.text.en), (spec.id, word)
        for kw in spec.keywords:
            fr, en = KEYWORD_NAMES[kw.id]
            assert fr in spec.text.fr and en in spec.text.en, (spec.id, kw.id)
        for amount in [k.amount for k in spec.keywords if k.amount] + [
            k.cost for k in spec.keywords if k.cost
        ]:
            assert str(amount) in spec.text.fr and str(amount) in spec.text.en, spec.id
        for effect in spec.effects:
            if effect.amount > 1:
                assert str(effect.amount) in spec.text.fr and str(effect.amount) in spec.text.en, (
                    spec.id
                )


def test_every_name_and_id_finds_its_card_and_folded_names_are_unique() -> None:
    cards = data.card_file().cards
    assert len({fold(c.name) for c in cards}) == len(cards)
    for spec in cards:
        assert find_card(spec.name) == spec.id
        assert find_card(spec.id) == spec.id
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", spec.id)


# ---- schema refusals -------------------------------------------------------------


def _unit(card_id: str, **extra: Any) -> dict[str, Any]:
    base = {"id": card_id, "name": card_id.title(), "type": "unite", "gold": 1, "force": 1}
    return {**base, "pv": 1, "text": {"fr": "x", "en": "x"}, **extra}


def _pool(*extra: dict[str, Any], deck: list[list[Any]] | None = None) -> dict[str, Any]:
    cards = [_unit(f"u{i}") for i in range(13)] + list(extra)
    general = {"id": "gen", "name": "Gen", "type": "general", "force": 1, "pv": 20}
    cards.append({**general, "vp": 1, "text": {"fr": "x", "en": "x"}})
    cards_50 = [[f"u{i}", 4] for i in range(12)] + [["u12", 2]]
    style = {"fr": "x", "en": "x"}
    return {
        "cards": cards,
        "decks": [
            {"id": "d", "name": style, "style": style, "general": "gen", "cards": deck or cards_50}
        ],
    }


def test_the_schema_accepts_the_minimal_pool() -> None:
    assert len(CardFile.model_validate(_pool()).cards) == 14


SQUELETTE = {
    "id": "sq",
    "name": "Sq",
    "type": "token",
    "force": 5,
    "pv": 1,
    "text": {"fr": "", "en": ""},
}
REFUSED: dict[str, dict[str, Any]] = {
    "unit without pv": _pool(
        {"id": "x", "name": "X", "type": "unite", "force": 1, "text": {"fr": "", "en": ""}}
    ),
    "spell without kind": _pool(
        {"id": "x", "name": "X", "type": "sort", "text": {"fr": "", "en": ""}}
    ),
    "kind on a non-spell": _pool({**_unit("x"), "spell": "rituel"}),
    "keyword on an object": _pool(
        {
            "id": "x",
            "name": "X",
            "type": "objet",
            "keywords": [{"id": "tir"}],
            "text": {"fr": "", "en": ""},
        }
    ),
    "unknown keyword": _pool(_unit("x", keywords=[{"id": "charge"}])),
    "keyword twice": _pool(_unit("x", keywords=[{"id": "tir"}, {"id": "tir"}])),
    "invocateur without cost": _pool(
        _unit("x", keywords=[{"id": "invocateur", "token": "sq"}]), SQUELETTE
    ),
    "cost on tir": _pool(_unit("x", keywords=[{"id": "tir", "cost": 2}])),
    "amount on vol": _pool(_unit("x", keywords=[{"id": "vol", "amount": 2}])),
    "unknown token": _pool(_unit("x", keywords=[{"id": "invocateur", "cost": 2, "token": "nope"}])),
    "invocateur of a unit": _pool(
        _unit("x", keywords=[{"id": "invocateur", "cost": 2, "token": "u1"}])
    ),
    "favour of a token": _pool(
        {
            "id": "g",
            "name": "G",
            "type": "dieu",
            "faith": 10,
            "effects": [{"kind": "favour", "token": "sq"}],
            "text": {"fr": "", "en": ""},
        },
        SQUELETTE,
    ),
    "token effect naming nothing": _pool(
        {
            "id": "s",
            "name": "S",
            "type": "sort",
            "spell": "rituel",
            "effects": [{"kind": "token", "amount": 2}],
            "text": {"fr": "", "en": ""},
        }
    ),
    "unknown effect": _pool(
        {
            "id": "s",
            "name": "S",
            "type": "sort",
            "spell": "rituel",
            "effects": [{"kind": "steal"}],
            "text": {"fr": "", "en": ""},
        }
    ),
    "unknown field": _pool(_unit("x", rarity="rare")),
    "bad id": _pool(_unit("Épée")),
    "same id": _pool(_unit("u1")),
    "same name": _pool({**_unit("x"), "name": "U1"}),
    "49 cards": _pool(deck=[[f"u{i}", 4] for i in range(12)] + [["u12", 1]]),
    "5 copies": _pool(deck=[[f"u{i}", 4] for i in range(11)] + [["u11", 5], ["u12", 1]]),
    "token in a deck": _pool(
        SQUELETTE, deck=[[f"u{i}", 4] for i in range(12)] + [["u12", 1], ["sq", 1]]
    ),
    "unknown card in a deck": _pool(
        deck=[[f"u{i}", 4] for i in range(12)] + [["u12", 1], ["zz", 1]]
    ),
}


REASONS = {
    "unit without pv": "have force and PV",
    "spell without kind": "have a spell kind",
    "kind on a non-spell": "have a spell kind",
    "keyword on an object": "have keywords",
    "unknown keyword": "Input should be 'armure'",
    "keyword twice": "printed twice",
    "invocateur without cost": "needs a cost and a token",
    "cost on tir": "takes no cost",
    "amount on vol": "takes no amount",
    "unknown token": "unknown token",
    "invocateur of a unit": "is not a token",
    "favour of a token": "is not a faveur",
    "token effect naming nothing": "names no card",
    "unknown effect": "Input should be 'damage'",
    "unknown field": "Extra inputs",
    "bad id": "should match pattern",
    "same id": "share an id",
    "same name": "share a name",
    "49 cards": "49 cards, not 50",
    "5 copies": "5 copies of u11",
    "token in a deck": "'sq' is not a deck card",
    "unknown card in a deck": "'zz' is not a deck card",
}


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_the_schema_refuses(case: str) -> None:
    with pytest.raises(ValidationError, match=re.escape(REASONS[case])):
        CardFile.model_validate(REFUSED[case])


def test_the_schema_refuses_a_deck_whose_general_is_not_a_general() -> None:
    pool = _pool()
    pool["decks"][0]["general"] = "u1"
    with pytest.raises(ValidationError, match="not a general"):
        CardFile.model_validate(pool)


def test_the_schema_refuses_two_decks_with_one_id() -> None:
    pool = _pool()
    pool["decks"].append(pool["decks"][0])
    with pytest.raises(ValidationError, match="two decks"):
        CardFile.model_validate(pool)
