"""End to end: ``/learn`` through the real discord.py client against the fake
Discord, in English and in French: a lesson in one ephemeral message that
every click updates, hints, a wrong move, quitting, a click after a restart
or after another lesson started, and ``/learn`` in DMs.

:func:`play_lesson` plays any game's lesson to its end through the buttons
and selects (the lesson's ``expect`` at each step, else the hint), whatever
the layout of the game's menu, so it runs over every game with a lesson."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot import Settings, create_bot
from bot.discord import GueridonBot
from bot.learn.sessions import LessonGone, LessonSession, Sessions
from engine import GAMES
from tests.bot.test_lessons import LESSON_GAMES
from tests.bot.textcheck import problems
from tests.fakediscord import FakeChannel, FakeDiscord, FakeMessage, FakeUser

LEARN_PREFIXES = ("lm:", "ls:", "lp:", "lc:")


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord.serve() as f:
        yield f


class World:
    def __init__(self, fake: FakeDiscord, db: Path, locale: str = "en-US") -> None:
        self.fake = fake
        self.db = db
        self.guild = fake.add_guild("Café des jeux", locale=locale)
        self.chan: FakeChannel = fake.add_text_channel(self.guild, "jeux")
        self.alice: FakeUser = fake.add_user("alice", guild=self.guild, locale=locale)

    def make_bot(self) -> GueridonBot:
        config = Settings(
            discord_token=self.fake.token, database_path=str(self.db), worker_processes=False
        )
        return create_bot(config, guild_ready_timeout=0.05)


def sessions_of(bot: GueridonBot) -> Sessions:
    cog: Any = bot.get_cog("LearnCog")
    assert cog is not None
    return cog.sessions  # type: ignore[no-any-return]


def current(bot: GueridonBot, user: FakeUser) -> LessonSession | None:
    try:
        return sessions_of(bot).get(user.id)
    except LessonGone:
        return None


def learn_components(message: FakeMessage) -> list[dict[str, Any]]:
    return [
        c
        for c in message.buttons() + message.selects()
        if str(c.get("custom_id", "")).startswith(LEARN_PREFIXES)
    ]


def check_text(message: FakeMessage, locale: str) -> None:
    assert problems(message.text, locale, ("alice",)) == [], (message.text, locale)


async def choose(
    fake: FakeDiscord, user: FakeUser, message: FakeMessage, session: LessonSession, notation: str
) -> FakeMessage:
    """Play ``notation`` through the lesson message's components: its button,
    its option in a select, or the menu's levels one select at a time."""
    locale = "fr" if user.locale.startswith("fr") else "en"
    menu = session.menu(locale)
    index = [n for n, _ in menu.entries].index(notation)
    (path,) = [p for p, node in menu.leaves() if node.entry == index]
    for button in message.buttons():
        if button["custom_id"].startswith("lm:") and button["custom_id"].endswith(f":{index}"):
            res = await fake.click(user, message, custom_id=button["custom_id"])
            await res.wait_update()
            return fake.message(message.id)
    for depth, choice in enumerate(path):
        prefix, value = ("ls:", str(index)) if depth == 0 and menu.flat else ("lp:", f"c{choice}")
        while True:  # the choice may sit on a later page of a long level
            selects = [s for s in message.selects() if s["custom_id"].startswith(prefix)]
            hit = [s for s in selects if value in {o["value"] for o in s["options"]}]
            if hit:
                break
            pages = [
                (s, o["value"]) for s in selects for o in s["options"] if o["value"].startswith("p")
            ]
            assert pages, f"{notation!r} is nowhere in the lesson's menu"
            res = await fake.select(user, message, pages[0][0]["custom_id"], values=[pages[0][1]])
            await res.wait_update()
            message = fake.message(message.id)
        res = await fake.select(user, message, hit[0]["custom_id"], values=[value])
        await res.wait_update()
        message = fake.message(message.id)
        if prefix == "ls:":
            break
    return message


async def play_lesson(
    fake: FakeDiscord, bot: GueridonBot, user: FakeUser, message: FakeMessage
) -> FakeMessage:
    """Play the user's lesson to its end through the message's components:
    the step's expected move, or the hint's when the step asks for none."""
    for _ in range(50):
        session = current(bot, user)
        if session is None or session.finished:
            return message
        step = session.tutor.step
        assert step is not None
        notation = step.expect[0] if step.expect else session.tutor.hint()[0]
        message = await choose(fake, user, message, session, notation)
    raise AssertionError("the lesson never ended")


@pytest.mark.parametrize(
    ("locale", "words"),
    [
        (
            "en-US",
            {
                "title": "Lesson: Between Battle · step 1 of 6",
                "hint": "💡 Hint: 2 → pile 1",
                "wrong": "asks for another one",
                "end": "Ready for a real match of Between Battle? Open a lobby with "
                "`/lobby create game:between-battle`",
                "done": "Lesson: Between Battle · finished",
                "quit": "Lesson stopped",
            },
        ),
        (
            "fr",
            {
                "title": "Leçon : Between Battle · étape 1 sur 6",
                "hint": "💡 Indice : 2 → paquet 1",
                "wrong": "en demande un autre",
                "end": "Envie d'une vraie partie de Between Battle ? Ouvrez un salon d'attente "
                "avec `/salon créer jeu:between-battle`",
                "done": "Leçon : Between Battle · terminée",
                "quit": "Leçon arrêtée",
            },
        ),
    ],
)
async def test_learn_between_battle_to_the_end(
    fake: FakeDiscord, tmp_path: Path, locale: str, words: dict[str, str]
) -> None:
    world = World(fake, tmp_path / "g.db", locale)
    lang = locale[:2]
    bot = world.make_bot()
    async with fake.running(bot):
        res = await fake.slash(world.alice, world.chan, "learn", game="between-battle")
        assert res.ephemeral
        message = res.messages[-1]
        assert words["title"] in message.text
        assert [a.filename for a in message.attachments] == ["board.png", "hand.png"]
        assert all(a.data.startswith(b"\x89PNG") for a in message.attachments)
        labels = [b["label"] for b in message.buttons()]
        assert labels[-2:] == (["Hint", "Quit"] if lang == "en" else ["Indice", "Quitter"])
        check_text(message, lang)

        # a hint: the same message, updated (a deferred update, then the edit)
        hint_id = next(
            b["custom_id"] for b in message.buttons() if b["custom_id"].startswith("lc:hint")
        )
        res = await fake.click(world.alice, message, custom_id=hint_id)
        assert res.response_type == 6
        await res.wait_update()
        message = fake.message(message.id)
        assert words["hint"] in message.text
        check_text(message, lang)

        # a wrong but legal move: what the step asks for, the lesson unchanged
        session = current(bot, world.alice)
        assert session is not None
        version = session.version
        message = await choose(fake, world.alice, message, session, "9>1")
        assert words["wrong"] in message.text and session.version == version
        check_text(message, lang)

        message = await play_lesson(fake, bot, world.alice, message)
        assert words["done"] in message.text and words["end"] in message.text
        assert not learn_components(message)
        check_text(message, lang)
        assert current(bot, world.alice) is None
        # nothing was written: no match, no user row
        assert await bot.host.store.match(1) is None


@pytest.mark.parametrize(
    ("locale", "gone", "stopped"),
    [
        ("en-US", "no longer exists", "Lesson stopped"),
        ("fr", "n'existe plus", "Leçon arrêtée"),
    ],
)
async def test_quit_and_a_new_lesson_makes_the_old_message_stale(
    fake: FakeDiscord, tmp_path: Path, locale: str, gone: str, stopped: str
) -> None:
    world = World(fake, tmp_path / "g.db", locale)
    command = "`/learn`" if locale == "en-US" else "`/apprendre`"
    bot = world.make_bot()
    async with fake.running(bot):
        first = (
            await fake.slash(world.alice, world.chan, "learn", game="between-battle")
        ).messages[-1]
        second = (
            await fake.slash(world.alice, world.chan, "learn", game="between-battle")
        ).messages[-1]
        # the first lesson was replaced: its buttons say so and offer /learn
        res = await fake.click(world.alice, first, custom_id=first.buttons()[0]["custom_id"])
        await res.wait_update()
        stale = fake.message(first.id)
        assert gone in stale.text and command in stale.text
        check_text(stale, locale[:2])
        assert not learn_components(stale)
        quit_id = next(
            b["custom_id"] for b in second.buttons() if b["custom_id"].startswith("lc:quit")
        )
        res = await fake.click(world.alice, second, custom_id=quit_id)
        await res.wait_update()
        after = fake.message(second.id)
        assert stopped in after.text and not learn_components(after)
        check_text(after, locale[:2])
        assert not after.attachments
        assert current(bot, world.alice) is None


@pytest.mark.parametrize("locale", ["en-US", "fr"])
async def test_a_click_after_a_restart_says_the_lesson_is_gone(
    fake: FakeDiscord, tmp_path: Path, locale: str
) -> None:
    world = World(fake, tmp_path / "g.db", locale)
    bot = world.make_bot()
    await fake.start_client(bot)
    message = (await fake.slash(world.alice, world.chan, "learn", game="between-battle")).messages[
        -1
    ]
    await fake.stop_client(bot)
    again = world.make_bot()
    async with fake.running(again):
        res = await fake.click(world.alice, message, custom_id=message.buttons()[0]["custom_id"])
        await res.wait_update()
        stale = fake.message(message.id)
        expected = "no longer exists" if locale == "en-US" else "n'existe plus"
        assert expected in stale.text and not learn_components(stale)
        check_text(stale, locale[:2])


async def test_learn_in_direct_messages(fake: FakeDiscord, tmp_path: Path) -> None:
    world = World(fake, tmp_path / "g.db")
    bot = world.make_bot()
    async with fake.running(bot):
        res = await fake.slash(
            world.alice, fake.dm_channel(world.alice), "learn", game="between-battle"
        )
        message = res.messages[-1]
        assert "Lesson: Between Battle · step 1 of 6" in message.text
        message = await play_lesson(fake, bot, world.alice, message)
        assert "Lesson: Between Battle · finished" in message.text


@pytest.mark.parametrize("game_id", [g for g in LESSON_GAMES if g in GAMES])
async def test_every_lesson_through_the_buttons(
    fake: FakeDiscord, tmp_path: Path, game_id: str
) -> None:
    world = World(fake, tmp_path / "g.db")
    bot = world.make_bot()
    async with fake.running(bot):
        res = await fake.slash(world.alice, world.chan, "learn", game=game_id)
        message = await play_lesson(fake, bot, world.alice, res.messages[-1])
        assert current(bot, world.alice) is None and not learn_components(message)
        check_text(message, "en")


async def test_a_double_click_plays_the_move_once(fake: FakeDiscord, tmp_path: Path) -> None:
    world = World(fake, tmp_path / "g.db")
    bot = world.make_bot()
    async with fake.running(bot):
        res = await fake.slash(world.alice, world.chan, "learn", game="between-battle")
        message = res.messages[-1]
        session = current(bot, world.alice)
        assert session is not None
        index = [n for n, _ in session.menu("en").entries].index("2>1")
        custom_id = next(
            b["custom_id"] for b in message.buttons() if b["custom_id"].endswith(f":{index}")
        )
        edits = len(fake.message(message.id).history)
        results = await asyncio.gather(
            fake.click(world.alice, message, custom_id=custom_id),
            fake.click(world.alice, message, custom_id=custom_id),
        )
        assert [r.response_type for r in results] == [6, 6]
        assert session.tutor.step_index == 1  # once, not twice (and no refusal)
        await fake.wait_for(lambda: len(fake.message(message.id).history) >= edits + 2)
        assert "step 2 of 6" in fake.message(message.id).text
        final = fake.message(message.id).text
        # the second click found the lesson moved on: no "wrong move" for the same button
        assert "Play your **2** on pile 1" not in final and "asks for another one" not in final
