"""End to end: ``/settings show|set|reset`` through the real discord.py client,
in English and in French: what an admin sees and changes, the refusals of a
member without Manage Server (even when an admin opened the command to
everyone), and each setting enforced (lobby channels, bots, default clock,
cancel role, the language of public messages)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.discord import GueridonBot
from bot.guilds import GuildSettings
from tests.bot.textcheck import problems
from tests.e2e.test_discord_between_battle import World
from tests.e2e.test_discord_host_robustness import _block_store
from tests.fakediscord import CommandNotAvailable, FakeChannel, FakeDiscord, FakeMessage

SUBCOMMANDS: list[tuple[str, dict[str, Any]]] = [
    ("settings show", {}),
    ("settings set", {"bots": False}),
    ("settings reset", {"setting": "all"}),
]

WORDS = {  # what each language must say (the reader's language)
    "en": {
        "default-language": "Discord's server language (English)",
        "every": "every channel",
        "french": "Language: French",
        "channel-mode": "Matches are played: in the channel where the lobby opened",
        "refused": "Manage Server",
        "elsewhere": "lobbies open only in",
        "bots": "does not allow bots",
        "back": "Back to the default:",
        "nothing": "Choose at least one setting",
    },
    "fr": {
        "default-language": "la langue du serveur sur Discord (anglais)",
        "every": "tous les salons",
        "french": "Langue : français",
        "channel-mode": "Les parties se jouent : dans le salon où le salon d'attente s'est ouvert",
        "refused": "« Gérer le serveur »",
        "elsewhere": "les salons d'attente s'ouvrent seulement dans",
        "bots": "n'admet pas de joueurs robots",
        "back": "Remis par défaut :",
        "nothing": "Choisissez au moins un paramètre",
    },
}


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord.serve() as f:
        yield f


@pytest.fixture(params=["en", "fr"])
def lang(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def world(fake: FakeDiscord, tmp_path: Path, lang: str) -> World:
    """A server whose Discord language is English; the admin and eve read
    ``lang`` (what they are told comes in their language)."""
    w = World(fake, tmp_path / "gueridon.db")
    w.admin.locale = "fr" if lang == "fr" else "en-US"
    w.eve.locale = w.admin.locale
    return w


def clean(text: str, lang: str) -> str:
    assert problems(text, lang) == [], text
    return text


def lobby_message(fake: FakeDiscord, chan: FakeChannel) -> FakeMessage:
    found = [m for m in fake.channel_messages(chan) if m.buttons()]
    assert found, [m.text for m in fake.channel_messages(chan)]
    return found[-1]


async def stored(bot: GueridonBot, world: World) -> GuildSettings:
    return await bot.host.store.guild_settings(world.guild.id)


async def test_an_admin_shows_sets_and_resets(fake: FakeDiscord, world: World, lang: str) -> None:
    words = WORDS[lang]
    bot = world.make_bot()
    async with fake.running(bot):
        command = fake.command("settings")
        assert int(command["default_member_permissions"]) == discord.Permissions.manage_guild.flag
        assert command.get("contexts") == [0] or command.get("dm_permission") is False
        assert command["name_localizations"]["fr"] == "paramètres"
        show = await fake.slash(world.admin, world.chan, "settings show")
        assert show.ephemeral
        first = clean(show.text, lang)
        assert words["default-language"] in first and words["every"] in first
        # at least one setting, and only a listed channel can be removed
        res = await fake.slash(world.admin, world.chan, "settings set")
        assert words["nothing"] in clean(res.text, lang)
        res = await fake.slash(
            world.admin, world.chan, "settings set", remove_lobby_channel=world.chan
        )
        assert f"<#{world.chan.id}>" in clean(res.text, lang)
        assert await stored(bot, world) == GuildSettings(guild_id=world.guild.id)
        # French and channel mode: said in the admin's language, kept in the store
        res = await fake.slash(
            world.admin, world.chan, "settings set", language="fr", mode="channel"
        )
        assert res.ephemeral
        text = clean(res.text, lang)
        assert words["french"] in text and words["channel-mode"] in text
        assert (await stored(bot, world)).match_mode == "channel"
        # the next public lobby message is in French at once
        await fake.slash(world.alice, world.chan, "lobby create", game="between-battle")
        lobby = lobby_message(fake, world.chan)
        assert "salon d'attente" in lobby.text and "Pendule : correspondance" in lobby.text
        assert problems(lobby.text, "fr") == []
        await fake.slash(world.alice, world.chan, "lobby cancel")
        # back to Discord's language: the next lobby is in English again
        res = await fake.slash(world.admin, world.chan, "settings reset", setting="language")
        assert words["back"] in clean(res.text, lang)
        assert words["default-language"] in res.text
        await fake.slash(world.alice, world.chan, "lobby create", game="between-battle")
        lobby = lobby_message(fake, world.chan)
        assert "lobby" in lobby.text and "Clock: correspondence" in lobby.text
        # everything back: show reads as at first
        await fake.slash(world.admin, world.chan, "settings reset", setting="all")
        assert await stored(bot, world) == GuildSettings(guild_id=world.guild.id)
        again = await fake.slash(world.admin, world.chan, "settings show")
        assert again.text == first


async def test_a_member_without_manage_server_is_refused_every_subcommand(
    fake: FakeDiscord, world: World, lang: str
) -> None:
    bot = world.make_bot()
    async with fake.running(bot):
        for command, options in SUBCOMMANDS:
            # Discord hides it from them (default_member_permissions) ...
            with pytest.raises(CommandNotAvailable):
                await fake.slash(world.eve, world.chan, command, **options)
            # ... and it does not exist in DMs (guild only)
            with pytest.raises(CommandNotAvailable):
                await fake.slash(world.admin, fake.dm_channel(world.admin), command, **options)
        # an admin opens /settings to everyone in Integrations: the bot still refuses
        fake.set_command_permission(world.guild, "settings", world.guild)
        for command, options in SUBCOMMANDS:
            res = await fake.slash(world.eve, world.chan, command, **options)
            assert res.ephemeral
            assert WORDS[lang]["refused"] in clean(res.text, lang)
        assert await stored(bot, world) == GuildSettings(guild_id=world.guild.id)


async def test_lobby_channels_bots_and_the_default_clock(
    fake: FakeDiscord, world: World, lang: str
) -> None:
    words = WORDS[lang]
    world.alice.locale = world.admin.locale  # refusals in the reader's language
    other = fake.add_text_channel(world.guild, "bavardage")
    bot = world.make_bot()
    async with fake.running(bot):
        res = await fake.slash(
            world.admin, world.chan, "settings set", add_lobby_channel=world.chan
        )
        assert f"<#{world.chan.id}>" in clean(res.text, lang)
        refused = await fake.slash(world.alice, other, "lobby create", game="between-battle")
        assert refused.ephemeral
        text = clean(refused.text, lang)
        assert words["elsewhere"] in text and f"<#{world.chan.id}>" in text
        assert not [m for m in fake.channel_messages(other) if not m.ephemeral]
        # bots refused, the clock from the server
        await fake.slash(world.admin, world.chan, "settings set", bots=False, clock="fast")
        await fake.slash(world.alice, world.chan, "lobby create", game="between-battle")
        lobby = await bot.host.lobby_in(world.chan.id)
        assert lobby is not None and lobby.clock == "fast"
        assert "Clock: fast" in lobby_message(fake, world.chan).text
        refused = await fake.slash(world.alice, world.chan, "lobby addbot")
        assert words["bots"] in clean(refused.text, lang)
        assert (await bot.host.lobby_in(world.chan.id)).bots == ()  # type: ignore[union-attr]
        # a clock asked for is kept
        await fake.slash(world.alice, world.chan, "lobby cancel")
        await fake.slash(
            world.alice, world.chan, "lobby create", game="between-battle", clock="correspondence"
        )
        lobby = await bot.host.lobby_in(world.chan.id)
        assert lobby is not None and lobby.clock == "correspondence"
        # the channel removed again: every channel
        res = await fake.slash(
            world.admin, world.chan, "settings set", remove_lobby_channel=world.chan
        )
        assert words["every"] in clean(res.text, lang)
        res = await fake.slash(world.alice, other, "lobby create", game="between-battle")
        assert await bot.host.lobby_in(other.id) is not None


async def test_a_member_with_the_cancel_role_cancels_a_match(
    fake: FakeDiscord, world: World, lang: str
) -> None:
    referees = fake.add_role(world.guild, "arbitres")
    carol = fake.add_user("carol", guild=world.guild, roles=[referees], locale=world.admin.locale)
    bot = world.make_bot()
    async with fake.running(bot):
        res = await fake.slash(world.admin, world.chan, "settings set", cancel_role=referees)
        assert f"<@&{referees.id}>" in clean(res.text, lang)
        assert (await stored(bot, world)).cancel_role_id == referees.id
        await fake.slash(world.alice, world.chan, "lobby create", game="between-battle", seats=2)
        await fake.click(world.bob, lobby_message(fake, world.chan), label="Join")
        await fake.click(world.alice, lobby_message(fake, world.chan), label="Start")
        live = await fake.wait_for(lambda: bot.host.match_in(world.chan.id))
        where = fake.channels[live.channel_id]
        refused = await fake.slash(world.eve, where, "lobby cancel")  # no role, not the host
        assert refused.ephemeral and bot.host.matches[live.id].match.is_over is False
        assert bot.host.match_in(live.channel_id) is live
        res = await fake.slash(carol, where, "lobby cancel")
        assert res.ephemeral and str(live.id) in res.text
        assert bot.host.match_in(live.channel_id) is None
        row = await bot.host.store.match(live.id)
        assert row is not None and row.status == "cancelled"
        await fake.wait_for(
            lambda: any(
                "carol" in m.text and str(live.id) in m.text
                for m in fake.channel_messages(where, include_ephemeral=False)
            )
        )


async def test_settings_are_acknowledged_before_the_store_answers(
    fake: FakeDiscord, world: World, lang: str
) -> None:
    bot = world.make_bot()
    async with fake.running(bot):
        await fake.slash(world.admin, world.chan, "settings show")  # the admin is known
        gate = _block_store(bot.host.store)
        bot.host._guild_settings.clear()  # read again from the (blocked) store
        fake.ack_window = 1.0
        try:
            results = [
                await fake.slash(
                    world.admin, world.chan, command, _timeout=0.05, _expect_ack=False, **options
                )
                for command, options in SUBCOMMANDS
            ]
            assert all(r.acknowledged for r in results)
        finally:
            gate.set()
        await fake.wait_for(lambda: not fake.unfinished_deferrals(), timeout=10)
