"""End to end: issue 16's "Done when", lived by one server, features together.

Through the real discord.py client against the fake Discord, in English and
in French:

1. with the server's default settings, a Between Battle match between two
   humans plays entirely inside its thread (the lobby's channel gets the
   lobby message, one line at the start and one at the end); a spectator
   ``/watch``es (joins the thread) and asks ``/board``; a player takes a move
   back with ``/undo`` and the other accepts with the button (the thread's
   board goes back, ``/replay``'s record shows ``!undo``, ``/history`` says a
   move was taken back, the result row counts it); the thread is archived;
   the Rematch button in the archived thread opens a lobby in the channel;
2. an admin switches the server to channel mode and French with
   ``/settings set`` (a member without Manage Server is refused); the
   rematch plays in the channel, in French, with another undo, and a
   spectator gets its boards by DM (each one the board of the version it
   names, under that action's lines); ``/history`` and ``/replay`` answer
   in French whoever asks;
3. a new player finishes ``/learn`` for every game, in both languages, in
   the server and in DMs.

Whatever a spectator can see (DMs, ephemeral replies) carries no private
image and no card of a hand that the public side does not show; every text
read is checked with ``tests/bot/textcheck.py``. Matches are addressed
through ``LiveMatch.channel_id``.
"""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator, Iterable
from pathlib import Path
from typing import Any

import pytest

from bot.discord import GueridonBot
from bot.service import LiveMatch
from bot.spectators import public_board_png, public_lines
from engine import Match
from engine.match import UNDO
from tests.bot.test_lessons import LESSON_GAMES
from tests.bot.textcheck import problems
from tests.e2e.test_discord_between_battle import World, match_chan
from tests.e2e.test_discord_learn import current, learn_components, play_lesson
from tests.e2e.test_discord_watch import hand_names, pixels, public_text, shows
from tests.fakediscord import (
    CommandNotAvailable,
    FakeChannel,
    FakeDiscord,
    FakeMessage,
    FakeUser,
    InteractionResult,
)

PLAYED = re.compile(r"(\d+) (?:actions? played|coups? jou[ée]s?)")
OPTIONS = "characters=pirate,ninja hp=3"
PLAYERS = ("alice", "bob", "zoé")

WORDS = {
    "en": {
        "started": "has started with",
        "over": "is over",
        "took": "took back a move",
        "history": "1 move taken back",
        "follow": "You follow match",
        "refused": "Manage Server",
        "lesson-done": "finished",
    },
    "fr": {
        "started": "a commencé avec",
        "over": "est terminée",
        "took": "a repris un coup",
        "history": "1 coup repris",
        "follow": "Vous suivez la partie",
        "refused": "« Gérer le serveur »",
        "lesson-done": "terminée",
    },
}


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord.serve() as f:
        yield f


def lang_of(user: FakeUser) -> str:
    return "fr" if user.locale.startswith("fr") else "en"


def labels(components: list[dict[str, Any]]) -> list[str]:
    """The words on buttons and in selects (option labels and placeholders;
    an option's description is its notation, the text ``/play`` takes)."""
    found: list[str] = []
    for component in components:
        found += [str(component[k]) for k in ("label", "placeholder") if component.get(k)]
        for option in component.get("options", ()):
            found += [str(option["label"])] if option.get("label") else []
        found += labels(component.get("components", []))
    return found


def every_version(message: FakeMessage) -> list[str]:
    """What a player read of ``message`` over time: each older version's
    content, embeds and components, then the message as it is now."""
    texts = []
    for old in message.history:
        parts = [str(old.get("content") or "")]
        for embed in old.get("embeds") or ():
            parts += [str(embed.get(k) or "") for k in ("title", "description")]
            parts.append(str((embed.get("footer") or {}).get("text") or ""))
        parts += labels(old.get("components") or [])
        texts.append("\n".join(p for p in parts if p))
    texts.append("\n".join([message.text, *labels(message.components)]))
    return texts


def clean(text: str, lang: str) -> str:
    found = problems(text, lang, PLAYERS)
    assert not found, (text, found)
    return text


def public(fake: FakeDiscord, chan: FakeChannel) -> list[FakeMessage]:
    return fake.channel_messages(chan, include_ephemeral=False)


def boards(fake: FakeDiscord, chan: FakeChannel) -> list[FakeMessage]:
    return [m for m in public(fake, chan) if m.attachments]


class Spectator:
    """Everything one spectator was shown: their DMs and the ephemeral
    replies to their commands; checked against the players' private images
    and the cards in hands that nothing public shows."""

    def __init__(self, fake: FakeDiscord, user: FakeUser) -> None:
        self.fake = fake
        self.user = user
        self.replies: list[FakeMessage] = []

    async def slash(self, chan: FakeChannel, command: str, **options: Any) -> InteractionResult:
        res = await self.fake.slash(self.user, chan, command, **options)
        assert res.ephemeral, res.text
        self.replies += res.messages
        return res

    def seen(self) -> list[FakeMessage]:
        """Their DMs, and every ephemeral message shown to them anywhere."""
        found = {m.id: m for m in [*self.fake.dm_messages(self.user), *self.replies]}
        for channel in list(self.fake.channels.values()):
            for message in self.fake.channel_messages(channel, visible_to=self.user):
                if message.ephemeral:
                    found[message.id] = message
        return list(found.values())

    def check(self, live: LiveMatch, players: Iterable[FakeUser]) -> None:
        private = {
            pixels(a.data)
            for user in players
            for m in self.fake.dm_messages(user)
            for a in m.attachments
        }
        assert private  # the players did get their hands
        record = live.match.record()
        lang = lang_of(self.user)
        # what the spectator may read: the public side at the end (a card a
        # hand held earlier and the public side showed since is no secret)
        allowed = public_text(live.game_id, live.match, live.names, lang)
        hidden: set[str] = set()
        for version in range(live.version + 1):
            then = Match.replay(record, upto=version)
            hidden |= hand_names(live.game_id, then)
        hidden = {n for n in hidden if not shows(allowed, n)}
        assert hidden, "no hand ever held a card the public side did not show"
        for message in self.seen():
            for text in every_version(message):
                clean(text, lang)
            # a board DM shows the board of the version it names, not a newer one
            found = PLAYED.search(message.text)
            if found is not None and message in self.fake.dm_messages(self.user):
                version = int(found.group(1))
                then = Match.replay(record, upto=version)
                expected = public_board_png(live.game_id, then.state, live.names, lang)
                assert pixels(message.attachments[0].data) == pixels(expected), message.text
                if message is self.fake.dm_messages(self.user)[0]:
                    continue  # the board at /watch: the match as it is, no last action
                # ... under the lines of the action that led to it
                events = [item.event for item in live.match.log if item.version == version]
                for line in public_lines(live.game_id, events, live.names, lang):
                    assert line in message.text.splitlines(), (line, message.text)
            for attachment in message.attachments:
                assert attachment.filename == "board.png", attachment.filename
                assert pixels(attachment.data) not in private
            leaked = [n for n in hidden if shows(message.text, n)]
            assert not leaked, (leaked, message.text)


def check_all(fake: FakeDiscord, messages: Iterable[FakeMessage], server_lang: str) -> None:
    """``messages`` (of server channels): the public ones in the server's
    language, the ephemeral ones in their reader's; and every DM of every
    user in that user's language."""
    for message in messages:
        reader = fake.users.get(message.visible_to or 0)
        for text in every_version(message):
            clean(text, server_lang if reader is None else lang_of(reader))
    for user in fake.users.values():
        if not user.bot:
            for message in fake.dm_messages(user):
                for text in every_version(message):
                    clean(text, lang_of(user))


async def open_lobby(world: World, host: FakeUser, guest: FakeUser) -> FakeMessage:
    """``host`` opens a Between Battle lobby, ``guest`` joins with its button."""
    fake = world.fake
    res = await fake.slash(
        host, world.lobby_chan, "lobby create", game="between-battle", seats=2, options=OPTIONS
    )
    assert res.ephemeral
    clean(res.text, lang_of(host))
    lobby = next(m for m in reversed(public(fake, world.lobby_chan)) if m.buttons())
    join = next(b for b in lobby.buttons() if b["custom_id"].startswith("gl:join:"))
    await fake.click(guest, lobby, custom_id=join["custom_id"])
    return fake.message(lobby.id)


async def start(world: World, bot: GueridonBot, host: FakeUser, lobby: FakeMessage) -> LiveMatch:
    """``host`` starts the lobby with its button; the match once its first
    board and the hands are out."""
    fake = world.fake
    button = next(b for b in lobby.buttons() if b["custom_id"].startswith("gl:start:"))
    known = set(bot.host.matches)
    await fake.click(host, lobby, custom_id=button["custom_id"])
    live: LiveMatch = await fake.wait_for(
        lambda: next((m for i, m in bot.host.matches.items() if i not in known), None)
    )
    await fake.wait_for(lambda: boards(fake, match_chan(fake, live)))
    players = [world.users[uid] for uid, _ in live.players]
    await fake.wait_for(lambda: all(fake.dm_messages(u) for u in players))
    return live


def undoable(live: LiveMatch, seat: int) -> str:
    """A legal move of ``seat`` that the seat may take back right after."""
    for notation in live.match.legal_notations(seat):
        trial = Match.replay(live.match.record())
        trial.play(seat, notation)
        if trial.undo_refusal(seat) is None:
            return notation
    raise AssertionError(f"no undoable move for seat {seat} at version {live.version}")


async def play(world: World, live: LiveMatch, notation: str | None = None) -> FakeUser:
    """The pending player plays ``notation`` (else their first legal move)
    with /play in the match's channel; returns them once the board is out."""
    fake = world.fake
    chan = match_chan(fake, live)
    seat = sorted(live.match.pending())[0]
    user = world.users[live.user_of(seat)]
    notation = notation or live.match.legal_notations(seat)[0]
    posted = len(boards(fake, chan))
    res = await fake.slash(user, chan, "play", move=notation)
    assert res.ephemeral, res.text
    clean(res.text, lang_of(user))
    await fake.wait_for(lambda: len(boards(fake, chan)) > posted)
    return user


async def take_back(
    world: World, live: LiveMatch, spectator: Spectator, took: str
) -> tuple[int, bytes]:
    """The pending player plays a move they may take back; the spectator asks
    ``/board``; the player asks ``/undo``; the other accepts with the button.
    The state and the match's board go back: ``(the seat, the board before)``."""
    fake = world.fake
    where = match_chan(fake, live)
    seat = sorted(live.match.pending())[0]
    before = live.game.dump_state(live.match.state)
    board_before = boards(fake, where)[-1].attachments[0].data
    asker = await play(world, live, undoable(live, seat))
    other = world.bob if asker is world.alice else world.alice
    await spectator.slash(where, "board")
    assert spectator.replies[-1].attachments
    res = await fake.slash(asker, where, "undo")
    assert res.ephemeral
    clean(res.text, lang_of(asker))
    request = await fake.wait_for(
        lambda: next(
            (
                m
                for m in reversed(public(fake, where))
                if m.buttons() and m.buttons()[0]["custom_id"].startswith("gu:")
            ),
            None,
        )
    )
    assert f"<@{other.id}>" in request.content
    posted = len(boards(fake, where))
    await fake.click(other, request, custom_id=request.buttons()[0]["custom_id"])
    await fake.wait_for(lambda: took in fake.message(request.id).content)
    assert not fake.message(request.id).buttons()
    assert live.game.dump_state(live.match.state) == before
    assert live.match.actions[-1] == (seat, UNDO)
    # the match's board goes back: the same picture as before the move
    await fake.wait_for(lambda: len(boards(fake, where)) > posted)
    board_after = boards(fake, where)[-1]
    assert took in board_after.text
    assert pixels(board_after.attachments[0].data) == pixels(board_before)
    return seat, board_before


async def wait_version(fake: FakeDiscord, live: LiveMatch, version: int) -> None:
    await fake.wait_for(lambda: live.version >= version, timeout=10)


async def resign(world: World, live: LiveMatch, user: FakeUser) -> None:
    """``user`` resigns as soon as the rules let them."""
    fake = world.fake
    for _ in range(30):
        if live.match.is_over:
            return
        version = live.version
        res = await fake.slash(user, match_chan(fake, live), "resign")
        assert res.ephemeral
        clean(res.text, lang_of(user))
        if not live.match.is_over:
            await wait_version(fake, live, version + 1)
    assert live.match.is_over


@pytest.mark.parametrize("locale", ["en-US", "fr"])
async def test_a_server_lives_issue_16(fake: FakeDiscord, tmp_path: Path, locale: str) -> None:
    lang = locale[:2]
    words = WORDS[lang]
    world = World(fake, tmp_path / "g.db", locale=locale)
    world.admin.locale = world.eve.locale = locale
    alice, bob = world.alice, world.bob
    zoe = Spectator(fake, fake.add_user("zoé", guild=world.guild, locale=locale))
    bot = world.make_bot()
    async with fake.running(bot):
        # ---- 1. default settings: the match plays inside its thread --------------------------
        live = await start(world, bot, alice, await open_lobby(world, alice, bob))
        thread = match_chan(fake, live)
        assert thread.is_thread and thread.parent_id == world.lobby_chan.id
        lines = public(fake, world.lobby_chan)
        assert len(lines) == 2 and words["started"] in lines[1].text
        assert f"<#{thread.id}>" in lines[1].text
        # the spectator follows from the channel where they saw the start line:
        # they join the thread, no DM
        res = await zoe.slash(world.lobby_chan, "board")
        assert str(live.id) in res.text and res.attachments
        res = await zoe.slash(world.lobby_chan, "watch")
        assert thread.mention in res.text and words["follow"] in res.text
        assert zoe.user.id in fake.thread_members(thread)
        clean(thread.name or "", lang)
        # a spectator asking for a hand, by command or by the board's button, gets none
        res = await zoe.slash(thread, "hand")
        assert not res.attachments
        board = boards(fake, thread)[-1]
        res = await fake.click(zoe.user, board, custom_id=board.buttons()[0]["custom_id"])
        assert res.ephemeral and not res.attachments
        zoe.replies += res.messages
        res = await zoe.slash(thread, "undo")  # nor may they take a move back
        assert live.version == 0
        # a move, then a move its player takes back with the other's consent
        await play(world, live)
        seat, board_before = await take_back(world, live, zoe, words["took"])
        res = await zoe.slash(thread, "board")
        assert pixels(zoe.replies[-1].attachments[0].data) == pixels(board_before)
        # play on a little, then resign
        if not live.match.is_over:
            await play(world, live)
        await resign(world, live, alice)
        await fake.wait_for(lambda: thread.archived, timeout=20)
        await bot.wait_idle(5)
        assert fake.dm_messages(zoe.user) == []  # the thread was enough
        zoe.check(live, (alice, bob))
        # the lobby's channel: the lobby, the start line and the end line; no board
        lines = public(fake, world.lobby_chan)
        assert len(lines) == 3 and not any(m.attachments for m in lines)
        assert words["over"] in lines[2].text and f"<#{thread.id}>" in lines[2].text
        # the record, the history and the results count the undo
        res = await fake.slash(alice, world.lobby_chan, "replay", match=live.id)
        clean(res.text, lang)
        assert words["took"] in res.text
        [record_file] = [a for a in res.attachments if a.filename.endswith(".json")]
        record = json.loads(record_file.data)
        assert [seat, UNDO] in [list(entry) for entry in record["actions"]]
        res = await fake.slash(alice, world.lobby_chan, "history")
        assert words["history"] in clean(res.text, lang)
        assert await bot.host.store.undo_counts([live.id]) == {live.id: 1}
        check_all(
            fake, fake.channel_messages(world.lobby_chan) + fake.channel_messages(thread), lang
        )
        # a rematch from the final board in the archived thread: the lobby
        # opens in the channel, the thread stays archived
        final = next(m for m in reversed(public(fake, thread)) if m.buttons())
        res = await fake.click(bob, final, custom_id=final.buttons()[0]["custom_id"])
        assert res.ephemeral
        clean(res.text, lang_of(bob))
        rematch = public(fake, world.lobby_chan)[-1]
        assert rematch.buttons() and "bob" in rematch.text and "alice" in rematch.text
        assert thread.archived and public(fake, thread)[-1].id == final.id

        # ---- 2. channel mode and French, by an admin ----------------------------------------
        with pytest.raises(CommandNotAvailable):  # Discord hides /settings from eve
            await fake.slash(world.eve, world.lobby_chan, "settings set", mode="channel")
        fake.set_command_permission(world.guild, "settings", world.guild)  # opened to all
        res = await fake.slash(world.eve, world.lobby_chan, "settings set", mode="channel")
        assert res.ephemeral and words["refused"] in clean(res.text, lang)
        assert (await bot.host.guild_settings(world.guild.id)).match_mode == "thread"
        res = await fake.slash(
            world.admin, world.lobby_chan, "settings set", language="fr", mode="channel"
        )
        assert res.ephemeral
        clean(res.text, lang)
        # bob starts the rematch: it plays in the channel, in French
        live = await start(world, bot, bob, fake.message(rematch.id))
        seen = [m.id for m in public(fake, world.lobby_chan)].index(rematch.id) + 1
        assert live.channel_id == world.lobby_chan.id and not live.in_thread
        await bot.wait_idle(5)  # the first board went out
        res = await zoe.slash(world.lobby_chan, "watch")
        assert words["follow"] in res.text
        await fake.wait_for(lambda: fake.dm_messages(zoe.user))
        # an undo: the spectator gets the board that went back, by DM
        await play(world, live)
        await fake.wait_for(lambda: len(fake.dm_messages(zoe.user)) == 2)
        board_before = fake.dm_messages(zoe.user)[-1].attachments[0].data
        await take_back(world, live, zoe, "a repris un coup")
        undone = await fake.wait_for(
            lambda: next((m for m in fake.dm_messages(zoe.user) if words["took"] in m.text), None)
        )
        assert pixels(undone.attachments[0].data) == pixels(board_before)
        for _ in range(3):
            if not live.match.is_over:  # (a quick match may end on its own)
                await play(world, live)
        await resign(world, live, bob)
        seed = str(live.match.seed)
        await fake.wait_for(lambda: any(seed in m.text for m in fake.dm_messages(zoe.user)), 20)
        await bot.wait_idle(5)
        zoe.check(live, (alice, bob))
        assert len(fake.dm_messages(zoe.user)) >= 3
        if (live.seat_of(bob.id), "!resign") in live.match.actions:  # said once, everywhere
            final = [m for m in public(fake, world.lobby_chan) if seed in m.text][-1]
            for text in (final.text, fake.dm_messages(zoe.user)[-1].text):
                said = [
                    x for x in text.splitlines() if "bob" in x and ("abandon" in x or "resign" in x)
                ]
                assert len(said) == 1, text
        # the match's public messages are in the channel, in French
        played = public(fake, world.lobby_chan)[seen:]
        assert sum(1 for m in played if m.attachments) >= 4
        assert "commence" in played[0].text
        assert any("Partie terminée" in m.text for m in played), "\n---\n".join(
            m.text for m in played
        )
        assert not any(c.is_thread for c in fake.channels.values() if c is not thread)
        # the records' public answers follow the server's language, whoever asks
        res = await fake.slash(alice, world.lobby_chan, "history")
        assert not res.ephemeral and "1 coup repris" in res.text
        res = await fake.slash(alice, world.lobby_chan, "replay", match=live.id)
        assert not res.ephemeral and "a repris un coup" in res.text
        check_all(
            fake, [m for m in fake.channel_messages(world.lobby_chan) if m.id > rematch.id], "fr"
        )


async def learn_everything(
    fake: FakeDiscord, bot: GueridonBot, user: FakeUser, where: FakeChannel
) -> None:
    """``user`` finishes every game's lesson from ``where``."""
    lang = lang_of(user)
    for game_id in LESSON_GAMES:
        res = await fake.slash(user, where, "learn", game=game_id)
        assert res.ephemeral or where.type == 1
        message = await play_lesson(fake, bot, user, res.messages[-1])
        assert current(bot, user) is None and not learn_components(message)
        assert WORDS[lang]["lesson-done"] in message.text
        versions = every_version(message)
        assert len(versions) > 3  # every step was read
        for text in versions:
            clean(text, lang)


@pytest.mark.parametrize(
    ("locale", "venue", "sweep_only"),
    [
        ("en-US", "server", False),
        ("fr", "dm", False),
        # each language and each venue are walked above; the two other pairs with --full
        ("fr", "server", True),
        ("en-US", "dm", True),
    ],
)
async def test_a_new_player_finishes_every_lesson(
    fake: FakeDiscord, tmp_path: Path, locale: str, venue: str, sweep_only: bool, full_sweep: bool
) -> None:
    if sweep_only and not full_sweep:
        pytest.skip("this language in this venue: with --full")
    world = World(fake, tmp_path / "g.db", locale=locale)
    newcomer = fake.add_user("nouveau", guild=world.guild, locale=locale)
    bot = world.make_bot()
    async with fake.running(bot):
        where = world.lobby_chan if venue == "server" else fake.dm_channel(newcomer)
        await learn_everything(fake, bot, newcomer, where)
        assert await bot.host.store.match(1) is None  # lessons write nothing
