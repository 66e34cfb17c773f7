"""Issue 16's loose ends on the host side, without Discord: a rematch keeps
its match's clock; who may cancel is said in the refusal; ``/rules`` shows
the options in force in words."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.i18n import error_text, rules_text, t
from bot.lobby_options import readable_options
from bot.service import HostError, HostService, UserRef
from bot.store import Store
from engine import GAMES
from tests.bot.textcheck import problems

ALICE = UserRef(1, "Alice", "en-US")
BOB = UserRef(2, "Bob", "fr")
GUILD = 9
CHAN = 100


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[HostService]:
    store = await Store.open(tmp_path / "g.db")
    svc = HostService(store, seed_source=lambda: 4242)
    await svc.resume()
    yield svc
    await store.close()


async def test_a_rematch_keeps_the_clock_of_its_match(service: HostService) -> None:
    """The server's default clock is for new lobbies: a rematch plays at the
    pace the players chose for the match they just finished."""
    settings = await service.guild_settings(GUILD)
    await service.save_guild_settings(settings.model_copy(update={"default_clock": "fast"}))
    await service.create_lobby(
        guild_id=GUILD,
        channel_id=CHAN,
        host=ALICE,
        game_id="between-battle",
        seats=2,
        options="characters=pirate,ninja",
        clock="correspondence",
    )
    await service.join(CHAN, BOB)
    live = await service.start(CHAN, ALICE)
    assert live.clock == "correspondence"
    await service.resign(live.id, BOB.id)
    lobby = await service.rematch(live.id, ALICE)
    assert lobby.clock == "correspondence"
    # and a fresh lobby still takes the server's default
    await service.cancel(CHAN, ALICE, is_admin=False)
    fresh = await service.create_lobby(
        guild_id=GUILD, channel_id=CHAN, host=ALICE, game_id="between-battle", seats=2
    )
    assert fresh.clock == "fast"


@pytest.mark.parametrize("started", [False, True])
async def test_a_cancel_refusal_says_who_may_cancel(service: HostService, started: bool) -> None:
    """Refused a cancel, a member reads who may: the host, Manage Server,
    and the server's cancel role once one is set (mentioned)."""
    await service.create_lobby(
        guild_id=GUILD, channel_id=CHAN, host=ALICE, game_id="between-battle", seats=2
    )
    await service.join(CHAN, BOB)
    if started:
        await service.start(CHAN, ALICE)
    with pytest.raises(HostError) as err:
        await service.cancel(CHAN, BOB, is_admin=False)
    assert (err.value.key, err.value.params) == ("not-host-cancel", {})
    assert error_text("en", err.value.key, **err.value.params) == (
        "Only the host or a member with Manage Server can cancel."
    )
    assert error_text("fr", err.value.key, **err.value.params) == (
        "Seul l'hôte ou un membre avec « Gérer le serveur » peut annuler."
    )
    settings = await service.guild_settings(GUILD)
    await service.save_guild_settings(settings.model_copy(update={"cancel_role_id": 77}))
    with pytest.raises(HostError) as err:
        await service.cancel(CHAN, BOB, is_admin=False, role_ids=[78])
    params = err.value.params
    assert error_text("en", err.value.key, **params) == (
        "Only the host, a member with Manage Server or a member with the <@&77> role can cancel."
    )
    assert error_text("fr", err.value.key, **params) == (
        "Seul l'hôte, un membre avec « Gérer le serveur » ou un membre avec le rôle <@&77>"
        " peut annuler."
    )


@pytest.mark.parametrize("language", ["en", "fr"])
def test_rules_show_the_options_in_force_in_words(language: str) -> None:
    """``/rules``' "Options in force here" reads as the lobby message does
    (what ``cogs/info.py`` passes), not as ``key=value`` in code."""
    info = GAMES["between-battle"].info
    words = readable_options(language, "between-battle", "characters=pirate,ninja hp=3")
    assert "=" not in words and "`" not in words
    text = rules_text(language, info, words)
    assert t(language, "rules-in-force", options=words) in text.split("\n")
    assert problems(text, language) == []
    standard = rules_text(language, info, "")
    line = t(language, "rules-in-force", options=t(language, "lobby-standard-rules"))
    assert line in standard.split("\n")
