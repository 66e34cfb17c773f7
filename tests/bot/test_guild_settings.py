"""A server's ``/settings``: stored, migrated, shown in words, and enforced by
the service (lobby channels, default clock, bots, cancel role), with no Discord."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.guilds import GuildSettings
from bot.service import ClockConfig, HostError, HostService, LiveMatch, UserRef
from bot.settings_text import DISCORD_LANGUAGE, SETTINGS, changed, reset, show_text, value_text
from bot.store import Store
from tests.bot.textcheck import problems

ALICE = UserRef(1, "Alice", "en-US")
BOB = UserRef(2, "Bob", "fr")
CHLOE = UserRef(3, "Chloé", "fr")
GUILD = 9
CHAN = 100
OTHER = 200
THREAD = 300  # a thread of CHAN
ROLE = 77


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[HostService]:
    store = await Store.open(tmp_path / "g.db")
    svc = HostService(store, seed_source=lambda: 4242)
    await svc.resume()
    yield svc
    await store.close()


async def _set(svc: HostService, **update: object) -> GuildSettings:
    settings = await svc.guild_settings(GUILD)
    return await svc.save_guild_settings(settings.model_copy(update=update))


async def _lobby(svc: HostService, channel: int = CHAN, **kwargs: object) -> None:
    await svc.create_lobby(
        guild_id=GUILD,
        channel_id=channel,
        host=ALICE,
        game_id="between-battle",
        seats=2,
        options="characters=pirate,ninja",
        **kwargs,  # type: ignore[arg-type]
    )


async def _started(svc: HostService) -> LiveMatch:
    await _lobby(svc)
    await svc.join(CHAN, BOB)
    return await svc.start(CHAN, ALICE)


# ---- the store -----------------------------------------------------------------------------


async def test_settings_round_trip_through_the_store(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "g.db")
    try:
        assert await store.guild_settings(GUILD) == GuildSettings(guild_id=GUILD)
        chosen = GuildSettings(
            guild_id=GUILD,
            language="fr",
            match_mode="channel",
            lobby_channels=(CHAN, OTHER),
            default_clock="fast",
            bots_allowed=False,
            cancel_role_id=ROLE,
            thread_notice=True,
        )
        await store.save_guild_settings(chosen)
        await store.set_guild_locale(GUILD, "de")  # Discord's locale is a separate column
        assert await store.guild_settings(GUILD) == chosen
        assert await store.guild_locale(GUILD) == "de"
        await store.save_guild_settings(GuildSettings(guild_id=GUILD))
        assert await store.guild_settings(GUILD) == GuildSettings(guild_id=GUILD)
        assert await store.guild_locale(GUILD) == "de"
    finally:
        await store.close()


async def test_migration_006_keeps_the_rows_of_a_database_at_version_5(tmp_path: Path) -> None:
    """A server the bot knew before ``/settings`` keeps its Discord locale and
    gets the defaults."""
    path = tmp_path / "v5.db"
    old = await Store.open(path, upto=5)
    assert await old.schema_version() == 5
    await old.set_guild_locale(GUILD, "fr")
    await old.set_guild_locale(GUILD + 1, "en-US")
    await old.close()
    store = await Store.open(path)
    try:
        assert await store.schema_version() >= 6
        assert await store.guild_locale(GUILD) == "fr"
        assert await store.guild_locale(GUILD + 1) == "en-US"
        assert await store.guild_settings(GUILD) == GuildSettings(guild_id=GUILD)
    finally:
        await store.close()
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT COUNT(*) FROM guild_settings").fetchone()[0] == 2


# ---- the words -----------------------------------------------------------------------------


@pytest.mark.parametrize("reader", ["en-US", "fr"])
def test_show_says_every_setting_and_what_each_default_means(reader: str) -> None:
    clocks = ClockConfig()
    default = GuildSettings(guild_id=GUILD)
    text = show_text(reader, default, "fr", clocks)
    assert problems(text, reader[:2]) == []
    if reader == "fr":
        assert "la langue du serveur sur Discord (français)" in text
        assert "tous les salons" in text and "Pendule par défaut : correspondance" in text
        assert "Langue :" in text
    else:
        assert "Discord's server language (French)" in text
        assert "every channel" in text
        assert "Default clock: correspondence (24 hours per decision)" in text
        assert "Language: " in text and "allowed at tables" in text
    assert text.count("\n•") == len(SETTINGS)
    chosen = default.model_copy(
        update={"language": "en", "lobby_channels": (CHAN, OTHER), "cancel_role_id": ROLE}
    )
    text = show_text(reader, chosen, "fr", clocks)
    assert problems(text, reader[:2]) == []
    assert f"<#{CHAN}>" in text and f"<#{OTHER}>" in text and f"<@&{ROLE}>" in text
    assert ("anglais" if reader == "fr" else "English") in text
    everyone = default.model_copy(update={"cancel_role_id": GUILD})
    assert value_text(reader, "cancel_role", everyone, None, clocks) == "@everyone"


def test_set_changes_only_what_is_named_and_reset_goes_back_to_the_default() -> None:
    start = GuildSettings(guild_id=GUILD, thread_notice=True)
    new, whats = changed(start, language="fr", add_channel=CHAN, bots=False)
    assert whats == ["language", "lobby_channels", "bots"]
    assert (new.language, new.lobby_channels, new.bots_allowed) == ("fr", (CHAN,), False)
    assert new.match_mode == "thread" and new.default_clock == "correspondence"
    new, _ = changed(new, add_channel=OTHER, language=DISCORD_LANGUAGE)
    assert new.lobby_channels == (CHAN, OTHER) and new.language is None
    new, _ = changed(new, add_channel=OTHER)  # already there: listed once
    assert new.lobby_channels == (CHAN, OTHER)
    new, _ = changed(new, remove_channel=CHAN, mode="channel", clock="fast", cancel_role=ROLE)
    assert new.lobby_channels == (OTHER,)
    assert (new.match_mode, new.default_clock, new.cancel_role_id) == ("channel", "fast", ROLE)
    with pytest.raises(HostError) as err:
        changed(new, remove_channel=CHAN)
    assert err.value.key == "settings-channel-not-listed"
    with pytest.raises(HostError) as err:
        changed(new)
    assert err.value.key == "settings-set-nothing"
    one, named = reset(new, "clock")
    assert one.default_clock == "correspondence" and one.match_mode == "channel"
    assert list(named) == ["clock"]
    every, named = reset(new, "all")
    assert every == GuildSettings(guild_id=GUILD, thread_notice=True)
    assert tuple(named) == SETTINGS


# ---- enforcement ---------------------------------------------------------------------------


async def test_lobbies_open_only_in_the_lobby_channels_or_their_threads(
    service: HostService,
) -> None:
    await _set(service, lobby_channels=(CHAN, OTHER + 1))
    with pytest.raises(HostError) as err:
        await _lobby(service, OTHER)
    assert err.value.key == "settings-lobby-elsewhere"
    assert err.value.params["channels"] == f"<#{CHAN}>, <#{OTHER + 1}>"
    assert await service.lobby_in(OTHER) is None
    await _lobby(service, THREAD, parent_id=CHAN)  # a thread of an allowed channel
    await _lobby(service, CHAN)
    # a lobby without a server (the console) has no settings to obey
    await service.create_lobby(
        guild_id=None, channel_id=OTHER, host=ALICE, game_id="between-battle"
    )


async def test_a_lobby_opened_without_a_clock_takes_the_servers_default(
    service: HostService,
) -> None:
    await _lobby(service)
    assert (await service.lobby_in(CHAN)).clock == "correspondence"  # type: ignore[union-attr]
    await _set(service, default_clock="fast")
    await _lobby(service, OTHER)
    assert (await service.lobby_in(OTHER)).clock == "fast"  # type: ignore[union-attr]
    await _lobby(service, THREAD, clock="correspondence")  # asked for: kept
    assert (await service.lobby_in(THREAD)).clock == "correspondence"  # type: ignore[union-attr]


async def test_bots_are_refused_where_the_server_does_not_allow_them(
    service: HostService,
) -> None:
    await _lobby(service)
    await _set(service, bots_allowed=False)
    with pytest.raises(HostError) as err:
        await service.add_bot(CHAN, ALICE, "easy")
    assert err.value.key == "settings-bots-refused"
    lobby = await service.lobby_in(CHAN)
    assert lobby is not None and lobby.bots == ()
    await _set(service, bots_allowed=True)
    lobby = await service.add_bot(CHAN, ALICE, "easy")
    assert len(lobby.bots) == 1


async def test_the_cancel_role_cancels_lobbies_and_matches(service: HostService) -> None:
    await _lobby(service)
    # no cancel role yet: a role is nothing special
    with pytest.raises(HostError) as err:
        await service.cancel(CHAN, CHLOE, is_admin=False, role_ids=[ROLE])
    assert err.value.key == "not-host-cancel"
    await _set(service, cancel_role_id=ROLE)
    with pytest.raises(HostError):
        await service.cancel(CHAN, CHLOE, is_admin=False, role_ids=[ROLE + 1])
    lobby = await service.cancel(CHAN, CHLOE, is_admin=False, role_ids=[ROLE + 1, ROLE])
    assert lobby.id and service.match_in(CHAN) is None
    live = await _started(service)
    with pytest.raises(HostError):
        await service.cancel(CHAN, CHLOE, is_admin=False)
    cancelled = await service.cancel(CHAN, CHLOE, is_admin=False, role_ids=[ROLE])
    assert cancelled is live and service.match_in(CHAN) is None
    # @everyone as the cancel role (its id is the server's): anyone may cancel
    await _set(service, cancel_role_id=GUILD)
    await _lobby(service)
    await service.cancel(CHAN, CHLOE, is_admin=False)
    assert await service.lobby_in(CHAN) is None


async def test_the_servers_language_wins_for_public_messages_at_once(
    service: HostService,
) -> None:
    await service.remember_guild(GUILD, CHAN, "en-US")
    assert service.channel_locale(CHAN) == "en-US"
    await _set(service, language="fr")
    assert service.channel_locale(CHAN) == "fr"
    await _set(service, language=None)
    assert service.channel_locale(CHAN) == "en-US"
