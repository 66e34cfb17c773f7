"""End to end (the real discord.py client on the fake Discord), in English
and in French: the lobby's host frees a player's seat and a bot's seat
(``/lobby kick``, seats offered by autocomplete), changes the lobby's seats,
options and clock (``/lobby options``); the lobby message shows the options
in words and who was removed, the seated players are told of a change; a
member who is not the host, an invalid change and a change after the start
are refused in words."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.discord import GueridonBot
from tests.bot.textcheck import problems
from tests.e2e.test_discord_between_battle import World
from tests.fakediscord import FakeChannel, FakeDiscord, FakeMessage, FakeUser


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord.serve() as f:
        yield f


def _clean(text: str, locale: str) -> str:
    assert not problems(text, locale), (problems(text, locale), text)
    return text


async def _private(
    fake: FakeDiscord, user: FakeUser, chan: FakeChannel, cmd: str, locale: str, **kw: Any
) -> str:
    """An ephemeral answer (a confirmation or a refusal), checked for raw
    keys, English in French and colons."""
    res = await fake.slash(user, chan, cmd, **kw)
    assert res.ephemeral, res.text
    return _clean(res.text, locale)


def _lobby_message(fake: FakeDiscord, chan: FakeChannel) -> FakeMessage:
    found = [m for m in fake.channel_messages(chan) if m.buttons()]
    assert found
    return fake.message(found[-1].id)


async def _started(fake: FakeDiscord, bot: GueridonBot, world: World) -> None:
    """The host clicks Start; the match exists (wherever it plays)."""
    res = await fake.slash(world.alice, world.chan, "lobby start")
    assert res.ephemeral
    await fake.wait_for(lambda: bot.host.user_matches(world.alice.id))


async def test_the_host_controls_the_lobby_in_english(fake: FakeDiscord, tmp_path: Path) -> None:
    world = World(fake, tmp_path / "g.db")
    bot = world.make_bot()
    chan, alice, eve = world.chan, world.alice, world.eve
    bob = world.bob  # French: his own answers are in French, the lobby in English
    async with fake.running(bot):
        await fake.slash(alice, chan, "lobby create", game="between-battle", seats=3)
        lobby = _lobby_message(fake, chan)
        assert "Options: Standard rules" in lobby.text, lobby.text
        await fake.slash(bob, chan, "lobby join")
        await fake.slash(alice, chan, "lobby addbot", level="easy")
        # the seats, by number and name, the host's left out
        choices = await fake.autocomplete(alice, chan, "lobby kick", option="seat", value="")
        assert [c["name"] for c in choices] == ["Seat 2: bob", "Seat 3: Bot 1 (★)"]
        assert [c["value"] for c in choices] == [str(bob.id), "-1"]
        assert await fake.autocomplete(alice, chan, "lobby kick", option="seat", value="BOT") == [
            choices[1]
        ]
        # only the host
        text = await _private(fake, eve, chan, "lobby kick", "en", seat=str(bob.id))
        assert "Only the host" in text
        # a player's seat: the lobby message says who was removed
        text = await _private(fake, alice, chan, "lobby kick", "en", seat=str(bob.id))
        assert text == "The host removed bob from the lobby."
        lobby = _lobby_message(fake, chan)
        assert lobby.content == f"The host removed <@{bob.id}> from the lobby."
        assert "Players (2/3): alice, Bot 1 (★)" in lobby.text, lobby.text
        # a bot's seat
        text = await _private(fake, alice, chan, "lobby kick", "en", seat="-1")
        assert text == "The host removed Bot 1 (★) from the lobby."
        lobby = _lobby_message(fake, chan)
        assert "Players (1/3): alice\n" in lobby.text and "Bot 1" in lobby.content
        # not the host's own seat
        text = await _private(fake, alice, chan, "lobby kick", "en", seat="alice")
        assert "`/lobby leave`" in text and "`/lobby cancel`" in text
        # three seated: fewer seats is refused, then an invalid option
        await fake.slash(bob, chan, "lobby join")
        lobby = _lobby_message(fake, chan)
        assert not lobby.content and "alice, bob" in lobby.text  # the notice is out of date
        await fake.slash(eve, chan, "lobby join")
        text = await _private(fake, alice, chan, "lobby options", "en", seats=2)
        assert "3 players are seated" in text and "`/lobby kick`" in text
        text = await _private(fake, alice, chan, "lobby options", "en", options="hp=0")
        assert text.startswith("⚠️ Those options are refused") and "hp" in text
        text = await _private(fake, bob, chan, "lobby options", "fr", options="hp=5")
        assert "Seul l'hôte" in text
        await _private(fake, alice, chan, "lobby kick", "en", seat="3")  # eve, by seat number
        # options, seats and clock change; the lobby shows them in words
        before = len(fake.channel_messages(chan, include_ephemeral=False))
        text = await _private(
            fake,
            alice,
            chan,
            "lobby options",
            "en",
            options="characters=pirate,ninja between_rule=inclusive",
            seats=2,
            clock="fast",
        )
        wanted = "Options: Characters: Pirate and Ninja · Between the tops: bounds included"
        assert text.startswith("The lobby is changed.") and wanted in text, text
        assert "Seats: 2" in text and "Clock: fast" in text
        lobby = _lobby_message(fake, chan)
        _clean(lobby.text, "en")
        assert f"Players (2/2): alice, bob\n{wanted}" in lobby.text, lobby.text
        assert "The host changed the lobby" in lobby.content
        # the seated players are told (a message that mentions them)
        told = fake.channel_messages(chan, include_ephemeral=False)[before:]
        assert len(told) == 1 and f"<@{bob.id}>" in told[0].content, [m.text for m in told]
        assert f"<@{alice.id}>" not in told[0].content and wanted in told[0].content
        # only the keys given change
        text = await _private(fake, alice, chan, "lobby options", "en", options="hp=5")
        assert "Characters: Pirate and Ninja" in text and "HP: 5" in text
        # the match starts with them; after that, nothing changes any more
        await _started(fake, bot, world)
        (live,) = bot.host.user_matches(alice.id)
        assert live.clock == "fast" and live.match.seats == 2
        assert live.match.options.between_rule == "inclusive"  # type: ignore[attr-defined]
        assert live.match.options.hp == 5  # type: ignore[attr-defined]
        text = await _private(fake, alice, chan, "lobby options", "en", options="hp=6")
        assert text == "⚠️ The match has started: a lobby can only be changed before the start."
        text = await _private(fake, alice, chan, "lobby kick", "en", seat=str(bob.id))
        assert "The match has started" in text


async def test_the_host_controls_the_lobby_in_french(fake: FakeDiscord, tmp_path: Path) -> None:
    world = World(fake, tmp_path / "g.db", locale="fr")
    bot = world.make_bot()
    chan, alice, bob = world.chan, world.alice, world.bob
    async with fake.running(bot):
        # the commands, as a French client lists them
        subs = {o["name"]: o for o in fake.command("lobby")["options"]}
        assert subs["kick"]["name_localizations"]["fr"] == "retirer"
        assert subs["kick"]["options"][0]["name_localizations"]["fr"] == "place"
        assert subs["options"]["description_localizations"]["fr"].startswith("Changer places")
        await fake.slash(alice, chan, "lobby create", game="battalia", seats=4, options="buff=0")
        lobby = _lobby_message(fake, chan)
        assert "Options : Buff : non" in lobby.text, lobby.text
        await fake.slash(bob, chan, "lobby join")
        await fake.slash(alice, chan, "lobby addbot", level="normal")
        choices = await fake.autocomplete(alice, chan, "lobby kick", option="seat", value="")
        assert [c["name"] for c in choices] == ["Place 2 : bob", "Place 3 : Bot 1 (★★)"]
        text = await _private(fake, bob, chan, "lobby kick", "fr", seat="-1")
        assert "Seul l'hôte" in text
        text = await _private(fake, alice, chan, "lobby kick", "fr", seat="-1")
        assert text == "L'hôte a retiré Bot 1 (★★) du salon d'attente."
        text = await _private(fake, alice, chan, "lobby kick", "fr", seat="bob")
        assert text == "L'hôte a retiré bob du salon d'attente."
        lobby = _lobby_message(fake, chan)
        assert lobby.content == f"L'hôte a retiré <@{bob.id}> du salon d'attente."
        assert "Joueurs (1/4) : alice\n" in lobby.text, lobby.text
        await fake.slash(bob, chan, "lobby join")
        # refusals in words, nothing changed
        text = await _private(fake, alice, chan, "lobby options", "fr", options="horde_cap=-2")
        assert text.startswith("⚠️ Options refusées"), text
        text = await _private(fake, alice, chan, "lobby options", "fr", seats=5)
        assert "de 2 à 4 joueurs" in text
        text = await _private(fake, alice, chan, "lobby options", "fr", options="buff=false")
        assert text.startswith("⚠️ Rien n'a changé")
        text = await _private(fake, alice, chan, "lobby options", "fr")
        assert "Dites ce qu'il faut changer" in text
        # a change, in French words everywhere
        text = await _private(
            fake, alice, chan, "lobby options", "fr", options="horde_cap=20", seats=2
        )
        wanted = "Options : Buff : non · Plafond de la horde : 20"
        assert wanted in text and "Places : 2" in text, text
        lobby = _lobby_message(fake, chan)
        _clean(lobby.text, "fr")
        assert f"Joueurs (2/2) : alice, bob\n{wanted}" in lobby.text, lobby.text
        told = fake.channel_messages(chan, include_ephemeral=False)[-1]
        assert f"<@{bob.id}>" in told.content and "L'hôte a modifié" in told.content
        _clean(told.content, "fr")
        # back to the standard rules
        text = await _private(fake, alice, chan, "lobby options", "fr", standard=True)
        assert "Options : Règles standard" in text
        await _started(fake, bot, world)
        (live,) = bot.host.user_matches(alice.id)
        assert live.match.options.buff is True  # type: ignore[attr-defined]
        text = await _private(fake, alice, chan, "lobby options", "fr", clock="fast")
        assert (
            text == "⚠️ La partie a commencé : un salon d'attente ne se modifie qu'avant le début."
        )
