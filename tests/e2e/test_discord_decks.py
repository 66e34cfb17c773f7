"""End to end (the real discord.py client on the fake Discord): decks that
players build (``/deck create`` from a pasted list, an attached .txt file or
the box, refusals with every reason, ``/deck list|show|delete``, autocomplete)
and ``/card`` in English and French."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import render
from engine.games.liber import deck as rules
from engine.games.liber.data import card_file, decks_by_id
from tests.bot.textcheck import problems
from tests.e2e.test_discord_between_battle import World
from tests.fakediscord import DiscordError, FakeDiscord


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord.serve() as f:
        yield f


@pytest.fixture
def world(fake: FakeDiscord, tmp_path: Path) -> World:
    return World(fake, tmp_path / "gueridon.db")


def _list(deck_id: str = "starter") -> str:
    spec = decks_by_id()[deck_id]
    return rules.deck_list_text(spec.general, spec.cards)


def _code(deck_id: str = "starter") -> str:
    spec = decks_by_id()[deck_id]
    return rules.deck_code(spec.general, spec.cards)


def _clean(text: str, locale: str) -> None:
    assert not problems(text, locale), (problems(text, locale), text)


async def test_create_from_text_and_file_then_list_show_delete(
    fake: FakeDiscord, world: World
) -> None:
    bot = world.make_bot()
    alice = world.alice
    async with fake.running(bot):
        # pasted: Discord's client keeps the option on one line
        res = await fake.slash(alice, world.chan, "deck create", name="Rush", list=_list())
        assert res.ephemeral and "Deck saved" in res.text, res.text
        _clean(res.text, "en")
        # attached as a .txt file (with a BOM, as editors write them)
        upload = fake.make_attachment("tir.txt", ("\ufeff" + _list("tir")).encode())
        res = await fake.slash(alice, world.chan, "deck create", name="Archers", file=upload)
        assert "Deck saved" in res.text, res.text
        codes = {d.name: d.code for d in await bot.host.user_decks(alice.id)}
        assert codes == {"Rush": _code("starter"), "Archers": _code("tir")}
        # the same name replaces
        res = await fake.slash(alice, world.chan, "deck create", name="rush", list=_list("foi"))
        assert "Deck replaced" in res.text
        # list: hers and the ready-made ones
        res = await fake.slash(alice, world.chan, "deck list")
        assert res.ephemeral
        text = res.text
        assert "Archers" in text and "rush" in text
        for spec in card_file().decks:
            assert spec.name.en in text and f"`{spec.id}`" in text
        _clean(text, "en")
        # show: the list, pasteable, and the code
        res = await fake.slash(alice, world.chan, "deck show", name="Archers")
        assert _code("tir") in res.text
        names = {c.id: c.name for c in card_file().cards}
        for card_id, count in decks_by_id()["tir"].cards:
            assert f"{count} {names[card_id]}" in res.text
        # autocomplete: hers, then the ready-made ones; delete offers hers only
        choices = await fake.autocomplete(alice, world.chan, "deck show", option="name", value="")
        values = [c["value"] for c in choices]
        assert values == ["Archers", "rush", *(d.id for d in card_file().decks)]
        choices = await fake.autocomplete(
            alice, world.chan, "deck delete", option="name", value="ar"
        )
        assert [c["value"] for c in choices] == ["Archers"]
        # delete: hers yes, a ready-made deck no
        res = await fake.slash(alice, world.chan, "deck delete", name="starter")
        assert "cannot be deleted" in res.text
        res = await fake.slash(alice, world.chan, "deck delete", name="Archers")
        assert "deleted" in res.text
        assert [d.name for d in await bot.host.user_decks(alice.id)] == ["rush"]
        # in DMs too: a deck follows its player everywhere
        res = await fake.slash(alice, fake.dm_channel(alice), "deck show", name="RUSH")
        assert _code("foi") in res.text


async def test_refusals_give_every_reason_in_french(fake: FakeDiscord, world: World) -> None:
    bot = world.make_bot()
    bob = world.bob  # French
    spec = decks_by_id()["starter"]
    names = {c.id: c.name for c in card_file().cards}
    first = names[spec.cards[0][0]]
    other_general = next(
        c.name for c in card_file().cards if c.type == "general" and c.id != spec.general
    )
    bad = "\n".join(
        [f"Général : {names[spec.general]}", f"1 {other_general}", f"5 {first}", "2 Archre"]
    )
    async with fake.running(bot):
        res = await fake.slash(bob, world.chan, "deck create", name="Mauvais", list=bad)
        text = res.text
        assert res.ephemeral and "n'a pas été enregistré" in text, text
        assert "Archer" in text  # the closest name suggested
        assert first in text and other_general in text  # too many copies, two generals
        assert "50" in text  # not 50 cards
        _clean(text, "fr")
        assert await bot.host.user_decks(bob.id) == []
        # a file that is not text, and one too large
        image = fake.make_attachment("deck.png", b"\x89PNG\r\n\x1a\n" + b"\0" * 64)
        res = await fake.slash(bob, world.chan, "deck create", name="Img", file=image)
        assert "n'est pas un fichier texte" in res.text
        _clean(res.text, "fr")
        big = fake.make_attachment("deck.txt", b"4 Archer\n" * 10_000)
        res = await fake.slash(bob, world.chan, "deck create", name="Gros", file=big)
        assert "trop gros" in res.text
        # what Discord itself refuses never reaches the bot
        with pytest.raises(DiscordError):
            fake.make_attachment("huge.txt", b"x" * (fake.user_upload_limit + 1))
        # a deck that is not there, a ready-made deck's name
        res = await fake.slash(bob, world.chan, "deck show", name="Rien")
        assert "Vous n'avez pas de deck" in res.text
        res = await fake.slash(bob, world.chan, "deck create", name="Starter", list=_list())
        assert "deck tout fait" in res.text
        _clean(res.text, "fr")


async def test_create_in_the_box(fake: FakeDiscord, world: World) -> None:
    """Without a list nor a file, a box opens to paste the list, lines kept."""
    bot = world.make_bot()
    async with fake.running(bot):
        res = await fake.slash(world.alice, world.chan, "deck create", name="Boîte")
        assert res.modal is not None
        done = await fake.submit_modal(world.alice, res, {"deck-list": _list("controle")})
        assert "Deck saved" in done.text, done.text
        deck = await bot.host.find_deck(world.alice.id, "boite")
        assert deck.code == _code("controle")


@pytest.mark.parametrize("locale", ["en-US", "fr"])
async def test_card_shows_image_and_text(fake: FakeDiscord, world: World, locale: str) -> None:
    bot = world.make_bot()
    user = world.alice if locale == "en-US" else world.bob
    lang = "en" if locale == "en-US" else "fr"
    card = next(c for c in card_file().cards if c.type == "unite" and c.text.en)
    async with fake.running(bot):
        choices = await fake.autocomplete(user, world.chan, "card", option="card", value="")
        assert 0 < len(choices) <= 25
        choices = await fake.autocomplete(
            user, world.chan, "card", option="card", value=card.name[:4].lower()
        )
        assert f"liber/{card.id}" in [c["value"] for c in choices]
        res = await fake.slash(user, world.chan, "card", card=f"liber/{card.id}")
        assert res.ephemeral
        text = res.text
        assert card.name in text
        assert getattr(card.text, lang) in text
        assert f"{card.force}" in text and f"{card.pv}" in text
        _clean(text, lang)
        [attachment] = res.attachments
        assert attachment.data == render.render_card("liber", card.id, lang)
        assert res.embeds[0]["image"]["url"] == "attachment://card.png"
        # typed by name, any case; an unknown one suggests the closest
        res = await fake.slash(user, world.chan, "card", card=card.name.upper())
        assert card.name in res.text
        res = await fake.slash(user, world.chan, "card", card=card.name[:-1] + "zz")
        assert card.name in res.text and ("Did you mean" in res.text or "Vouliez-vous" in res.text)
        _clean(res.text, lang)


async def test_join_a_liber_lobby_with_a_deck(fake: FakeDiscord, world: World) -> None:
    bot = world.make_bot()
    async with fake.running(bot):
        await fake.slash(world.bob, world.chan, "deck create", name="Mien", list=_list("foi"))
        await fake.slash(
            world.alice, world.chan, "lobby create", game="liber", seats=2, deck="aggro"
        )
        choices = await fake.autocomplete(world.bob, world.chan, "lobby join", option="deck")
        assert choices[0]["value"] == "Mien"
        res = await fake.slash(world.bob, world.chan, "lobby join", deck="Mien")
        assert res.acknowledged
        await fake.slash(world.alice, world.chan, "lobby start")
        live = bot.host.match_in(world.chan.id)
        assert live is not None
        assert live.match.options.decks == (_code("aggro"), _code("foi"))
