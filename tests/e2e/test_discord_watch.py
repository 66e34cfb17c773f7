"""End to end (issue 16, spectators): ``/watch`` and ``/board`` through the
real discord.py client on the fake Discord, in English and in French.

* watch a match from its channel, get each new board by DM, stop with
  ``/watch`` again; a player is told they get its boards already; closed DMs
  are said once, privately; an unknown match id and a finished match;
* ``/board`` in the match's channel and by ``match:`` id from elsewhere,
  privately, with the public image and a one-line summary;
* a spectator follows a Between Battle and a Liber match to the end (channel
  mode): no DM to the spectator carries a private image or the name of a
  card in a hand that the public side of the match does not show.

Matches are addressed through ``LiveMatch.channel_id`` (the match's thread
once threads exist), never the lobby's channel.
"""

from __future__ import annotations

import io
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot.discord import GueridonBot
from bot.service import LiveMatch
from bot.spectators import public_board_png, public_lines
from engine import GAMES, Match, rng
from engine.codec import to_jsonable
from engine.games.liber.data import card as liber_card
from engine.games.liber.data import cards_by_id
from tests.bot.textcheck import problems
from tests.e2e.random_match import play_random_match
from tests.e2e.test_discord_between_battle import World, live_match, open_and_start, png
from tests.fakediscord import FakeChannel, FakeDiscord, FakeMessage


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord.serve() as f:
        yield f


async def channel_mode(bot: GueridonBot, world: World) -> None:
    """The server plays its matches in the lobby's channel (``/settings``'
    match mode): spectators then get the boards by DM."""
    settings = await bot.host.guild_settings(world.guild.id)
    await bot.host.save_guild_settings(settings.model_copy(update={"match_mode": "channel"}))


def match_channel(fake: FakeDiscord, live: LiveMatch) -> FakeChannel:
    """Where the match plays (its thread in thread mode)."""
    return fake.channels[live.channel_id]


def boards(fake: FakeDiscord, channel: FakeChannel) -> list[FakeMessage]:
    return [m for m in fake.channel_messages(channel) if m.attachments]


async def one_move(fake: FakeDiscord, world: World, live: LiveMatch, chooser: int) -> int:
    """A random legal move by the pending player, then wait for its board."""
    channel = match_channel(fake, live)
    seat = sorted(live.match.pending())[0]
    legal = live.match.legal_notations(seat)
    index, chooser = rng.randbelow(chooser, len(legal))
    before = len(boards(fake, channel))
    await fake.slash(world.users[live.user_of(seat)], channel, "play", move=legal[index])
    await fake.wait_for(lambda: len(boards(fake, channel)) > before)
    return chooser


def checked(text: str, language: str) -> str:
    found = problems(text, language)
    assert not found, (text, found)
    return text


@pytest.mark.parametrize("language", ["en", "fr"])
async def test_watch_unwatch_board_and_refusals(
    fake: FakeDiscord, tmp_path: Path, language: str
) -> None:
    world = World(fake, tmp_path / "g.db")
    locale = "en-US" if language == "en" else "fr"
    zoe = fake.add_user("zoé", guild=world.guild, locale=locale)
    other = fake.add_text_channel(world.guild, "ailleurs")
    french = language == "fr"
    bot = world.make_bot()
    async with fake.running(bot):
        await channel_mode(bot, world)
        # nothing to watch or show yet
        res = await fake.slash(zoe, world.chan, "watch")
        assert res.ephemeral
        assert ("Aucune partie" if french else "no match in progress") in res.text
        res = await fake.slash(zoe, world.chan, "board", match=999)
        assert res.ephemeral
        assert checked(res.text, language).endswith(
            "La partie n°999 n'existe pas." if french else "Match #999 does not exist."
        )
        res = await fake.slash(zoe, world.chan, "watch", match=999)
        assert ("n'existe pas" if french else "does not exist") in res.text
        await open_and_start(world, options="characters=pirate,ninja hp=3")
        live = live_match(bot, world.chan)
        channel = match_channel(fake, live)
        # /board in the match's channel: privately, the public image and one line
        res = await fake.slash(zoe, channel, "board")
        assert res.ephemeral and png(res.messages[-1])
        assert res.attachments[0].filename == "board.png"
        line = checked(res.text, language)
        assert "\n" not in line
        assert (f"partie n°{live.id}" if french else f"match #{live.id}") in line
        assert "alice, bob" in line
        assert res.attachments[0].data == public_board_png(
            live.game_id, live.match.state, live.names, language
        )
        # ... and by id from another channel
        res = await fake.slash(zoe, other, "board", match=live.id)
        assert res.ephemeral and f"{live.id}" in res.text and png(res.messages[-1])
        # the match: option offers the server's live matches
        choices = await fake.autocomplete(zoe, other, "watch", option="match", value="")
        assert [c["value"] for c in choices] == [live.id]
        assert "alice, bob" in choices[0]["name"]
        # a player is told they get the boards already
        res = await fake.slash(world.bob, channel, "watch")
        assert res.ephemeral
        assert checked(res.text, "fr").endswith(
            f"Vous jouez dans la partie n°{live.id} : vous en recevez déjà les plateaux."
        )
        cog: Any = bot.get_cog("watch")
        assert cog.spectators.of(live.id) == ()
        # Zoé follows: the current board at once by DM, then each new one
        res = await fake.slash(zoe, channel, "watch")
        assert res.ephemeral
        checked(res.text, language)
        assert ("Vous suivez la partie" if french else "You follow match") in res.text
        await fake.wait_for(lambda: len(fake.dm_messages(zoe)) == 1)
        first = fake.dm_messages(zoe)[0]
        assert png(first) and first.attachments[0].filename == "board.png"
        checked(first.text, language)
        assert ("Vous suivez maintenant" if french else "You now follow") in first.text
        # the board she has is not sent again (say the start board's
        # announcement reaches the spectators only now)
        assert await cog.send_board(live, zoe.id, language, []) is True
        await bot.wait_idle(2)
        assert len(fake.dm_messages(zoe)) == 1
        chooser = rng.seed_state(5)
        chooser = await one_move(fake, world, live, chooser)
        after = "1 coup joué" if french else "1 action played"
        second = await fake.wait_for(
            lambda: next((m for m in fake.dm_messages(zoe) if after in m.text), None)
        )
        checked(second.text, language)
        assert len(fake.dm_messages(zoe)) == 2
        # she follows from another channel too (by id): /watch again stops
        res = await fake.slash(zoe, other, "watch", match=live.id)
        assert checked(res.text, language) == (
            f"Vous ne suivez plus la partie n°{live.id}."
            if french
            else f"You no longer follow match #{live.id}."
        )
        chooser = await one_move(fake, world, live, chooser)
        await bot.wait_idle(2)
        assert len(fake.dm_messages(zoe)) == 2
        # a finished match: nothing left to follow, /board still shows it
        await fake.slash(world.alice, channel, "resign")
        await fake.wait_for(lambda: live.match.is_over)
        res = await fake.slash(zoe, other, "watch", match=live.id)
        assert ("est terminée" if french else "is over") in checked(res.text, language)
        res = await fake.slash(zoe, other, "board", match=live.id)
        assert res.ephemeral and png(res.messages[-1])
        assert ("terminée : " if french else "over: ") in res.text
        assert await fake.autocomplete(zoe, other, "watch", option="match", value="") == []


async def test_closed_dms_are_said_once_privately(fake: FakeDiscord, tmp_path: Path) -> None:
    world = World(fake, tmp_path / "g.db")
    bot = world.make_bot()
    async with fake.running(bot):
        await channel_mode(bot, world)
        await open_and_start(world, options="characters=pirate,ninja hp=3")
        live = live_match(bot, world.chan)
        channel = match_channel(fake, live)
        fake.set_dms_open(world.eve, False)
        posted = len(fake.channel_messages(channel, include_ephemeral=False))
        res = await fake.slash(world.eve, channel, "watch")
        assert res.ephemeral
        assert checked(res.text, "en").startswith("Your direct messages are closed")
        # said to her alone: nothing public in the channel, and she does not follow
        assert len(fake.channel_messages(channel, include_ephemeral=False)) == posted
        cog: Any = bot.get_cog("watch")
        assert cog.spectators.of(live.id) == ()
        # opened again, /watch works
        fake.set_dms_open(world.eve, True)
        res = await fake.slash(world.eve, channel, "watch")
        assert "You follow match" in res.text
        await fake.wait_for(lambda: fake.dm_messages(world.eve))


# ---- a spectator follows whole matches: never a hand ----------------------------------------------
def hand_names(game_id: str, match: Match) -> set[str]:
    """The names of the cards in every hand (as a player reads them)."""
    names: set[str] = set()
    for seat in range(match.seats):
        view = match.view(seat)
        if game_id == "liber":
            names |= {liber_card(c).name for c in view.hand or ()}
        else:
            names |= set(view.players[seat].hand or ())
    return names


def public_text(game_id: str, match: Match, names: list[str], locale: str) -> str:
    """Everything the public side shows up to now: the cards the spectator's
    view shows (Liber: on the table and in the graveyards, by name; the
    decklists, public through the options, are never printed in a message)
    and the public lines of every event."""
    view = match.view(None)
    if game_id == "liber":
        pool = cards_by_id()
        ids = [p.card for side in view.sides for p in side.pieces]
        ids += [e for side in view.sides for p in side.pieces for e in p.equipment]
        ids += [c for side in view.sides for c in side.graveyard]
        text = " ".join(pool[i].name for i in ids if i in pool)
    else:
        text = repr(to_jsonable(view))
    lines = public_lines(game_id, [item.event for item in match.log], names, locale)
    return text + "\n" + "\n".join(lines)


def pixels(data: bytes) -> tuple[tuple[int, int], bytes]:
    with Image.open(io.BytesIO(data)) as image:
        return image.size, image.convert("RGB").tobytes()


def shows(text: str, name: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text) is not None


@pytest.mark.parametrize(
    ("game_id", "options", "language"),
    [
        ("between-battle", "characters=pirate,ninja hp=3", "en"),
        ("liber", GAMES["liber"].quick_options, "fr"),
    ],
)
async def test_a_spectator_follows_to_the_end_and_never_sees_a_hand(
    fake: FakeDiscord, tmp_path: Path, game_id: str, options: str, language: str
) -> None:
    world = World(fake, tmp_path / "g.db")
    locale = "en-US" if language == "en" else "fr"
    zoe = fake.add_user("zoé", guild=world.guild, locale=locale)
    bot = world.make_bot()
    async with fake.running(bot):
        await channel_mode(bot, world)
        res = await fake.slash(
            world.alice, world.chan, "lobby create", game=game_id, seats=2, options=options
        )
        assert res.ephemeral, res.text
        await fake.slash(world.bob, world.chan, "lobby join")
        await fake.slash(world.alice, world.chan, "lobby start")
        live = live_match(bot, world.chan)
        channel = match_channel(fake, live)
        await fake.wait_for(lambda: boards(fake, channel))
        await bot.wait_idle(5)  # the first board and the hands went out
        posted = len(boards(fake, channel))
        await fake.slash(zoe, channel, "watch")
        await fake.wait_for(lambda: fake.dm_messages(zoe))
        await play_random_match(fake, world, live, rng.seed_state(11, game_id))
        seed = str(live.match.seed)
        await fake.wait_for(lambda: any(seed in m.text for m in fake.dm_messages(zoe)), 30)
        await bot.wait_idle(5)
        cog: Any = bot.get_cog("watch")
        assert cog.spectators.of(live.id) == ()  # following ended with the match
        received = fake.dm_messages(zoe)
        # the board at /watch, then one DM per board posted in the match's channel
        assert len(received) == 1 + len(boards(fake, channel)) - posted
        assert len(received) >= 2
        # the images: public boards only, none of the players' private images
        private = {
            pixels(a.data)
            for user in (world.alice, world.bob)
            for m in fake.dm_messages(user)
            for a in m.attachments
        }
        assert private
        for message in received:
            assert [a.filename for a in message.attachments] == ["board.png"]
            assert pixels(message.attachments[0].data) not in private
        final = received[-1]
        assert seed in final.text
        # the same picture as the public board of the final state (pixels:
        # Pillow may cut the same image's compressed data into other chunks)
        assert pixels(final.attachments[0].data) == pixels(
            public_board_png(game_id, live.match.state, live.names, language)
        )
        # the texts: at the version each DM shows, no name of a card in a hand
        # that nothing public shows
        record = live.match.record()
        hidden_seen = 0
        played = re.compile(r"(\d+) (?:actions? played|coups? jou[ée]s?)")
        for message in received:
            text = checked(message.text, language)
            found = played.search(text)
            if found is None:
                assert seed in text  # the final board says the match is over instead
                version = live.version
            else:
                version = int(found.group(1))
            then = Match.replay(record, upto=version)
            allowed = public_text(game_id, then, live.names, language)
            hidden = {n for n in hand_names(game_id, then) if not shows(allowed, n)}
            hidden_seen += len(hidden)
            leaked = [n for n in hidden if shows(text, n)]
            assert not leaked, (version, leaked, text)
        assert hidden_seen, "no hand ever held a card the public side did not show"


# ---- thread mode ---------------------------------------------------------------------------------


@pytest.mark.parametrize("language", ["en", "fr"])
async def test_in_thread_mode_a_spectator_joins_the_thread(
    fake: FakeDiscord, tmp_path: Path, language: str
) -> None:
    """A match in its thread (the default): /watch adds the spectator to the
    thread instead of sending DMs; /watch again takes them out of it (the bot
    has Manage Threads) or says how to leave it (it has not)."""
    world = World(fake, tmp_path / "g.db")
    locale = "en-US" if language == "en" else "fr"
    zoe = fake.add_user("zoé", guild=world.guild, locale=locale)
    bot = world.make_bot()
    async with fake.running(bot):
        await open_and_start(world, options="characters=pirate,ninja hp=3")
        live = live_match(bot, world.chan)
        thread = match_channel(fake, live)
        assert thread.is_thread
        res = await fake.slash(zoe, thread, "watch")
        assert res.ephemeral
        checked(res.text, language)
        assert thread.mention in res.text
        assert zoe.id in fake.thread_members(thread)
        await one_move(fake, world, live, rng.seed_state(2))
        await bot.wait_idle(2)
        assert fake.dm_messages(zoe) == []  # the boards are in the thread she is in
        res = await fake.slash(zoe, thread, "watch")
        checked(res.text, language)
        assert ("ne suivez plus" if language == "fr" else "no longer follow") in res.text
        if zoe.id in fake.thread_members(thread):
            # without Manage Threads the bot may not remove her: it says how to leave
            assert thread.mention in res.text


async def test_the_match_option_is_declared_as_discord_checks_it(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """``match:`` of /watch and /board: an integer 1..2^53 with autocomplete,
    so Discord refuses absurd numbers; an id in range that names no match
    gets the bot's private refusal."""
    world = World(fake, tmp_path / "g.db")
    async with fake.running(world.make_bot()):
        for command in ("watch", "board"):
            [spec] = fake.command(command)["options"]
            assert (spec["type"], spec["min_value"], spec["max_value"]) == (4, 1, 2**53)
            assert spec["autocomplete"] and not spec.get("required")
            assert spec["name_localizations"]["fr"] == "partie"
            res = await fake.slash(world.eve, world.chan, command, match=2**53)
            assert res.ephemeral and f"Match #{2**53} does not exist." in res.text
        assert fake.command("watch")["name_localizations"]["fr"] == "suivre"
