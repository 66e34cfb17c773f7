"""Fuzzing what users can type or forge: every component id and the typed
options of the commands, fed straight to the handlers (no network: a stub
interaction records the answers). Whatever comes in, the user gets one
acknowledgement and a clear answer in their language, never the
"something went wrong" message, and nothing is logged as an ERROR."""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from discord import app_commands
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.discord import (
    GueridonBot,
    HandButton,
    InfoCog,
    LeaderboardPage,
    LobbyButton,
    LobbyCog,
    MenuSelect,
    MoveButton,
    MoveSelect,
    PlayCog,
    RecordsCog,
    RematchButton,
    ReplayStep,
    create_bot,
)
from bot.discord.cogs import cogs
from bot.i18n import t
from bot.service import HostService, UserRef
from bot.settings import Settings
from bot.store import Store

ALICE = UserRef(1, "alice", "en-US")
BOB = UserRef(2, "bob", "fr")
CHAN, GUILD = 500, 900
EXAMPLES = 40

COMPONENTS: list[type[discord.ui.DynamicItem[Any]]] = [
    LobbyButton,
    MoveButton,
    MoveSelect,
    MenuSelect,
    HandButton,
    LeaderboardPage,
    ReplayStep,
    RematchButton,
]


class StubResponse:
    def __init__(self, sink: list[str]) -> None:
        self.sink = sink
        self.acks = 0

    def is_done(self) -> bool:
        return self.acks > 0

    async def defer(self, **kwargs: Any) -> None:
        self.acks += 1

    async def send_message(self, content: str | None = None, **kwargs: Any) -> None:
        self.acks += 1
        self.sink.append(content or "<embed>")


class StubFollowup:
    def __init__(self, sink: list[str]) -> None:
        self.sink = sink

    async def send(self, content: str | None = None, **kwargs: Any) -> None:
        self.sink.append(content or "<embed>")


class StubInteraction:
    """What the handlers read of a :class:`discord.Interaction`."""

    def __init__(self, bot: GueridonBot, user: UserRef, locale: str) -> None:
        self.id = 42
        self.client = bot
        self.user = SimpleNamespace(id=user.id, display_name=user.name, name=user.name)
        self.locale = discord.Locale(locale)
        self.guild_locale = discord.Locale("fr")
        self.guild_id = GUILD
        self.channel_id = CHAN
        self.channel = None  # a text channel in the cache: no thread parent
        self.permissions = discord.Permissions.none()
        self.sent: list[str] = []
        self.response = StubResponse(self.sent)
        self.followup = StubFollowup(self.sent)

    async def edit_original_response(self, **kwargs: Any) -> None:
        self.sent.append("<edit>")

    async def delete_original_response(self) -> None:
        pass


class StubChannel:
    async def send(self, *args: Any, **kwargs: Any) -> Any:
        return SimpleNamespace(id=777)

    def get_partial_message(self, message_id: int) -> Any:
        return self


class World:
    def __init__(self, loop: asyncio.AbstractEventLoop, bot: GueridonBot, match_id: int) -> None:
        self.loop, self.bot, self.match_id = loop, bot, match_id

    def run(self, coro: Any) -> Any:
        return self.loop.run_until_complete(coro)


@pytest.fixture
def world(tmp_path: Path) -> Iterator[World]:
    loop = asyncio.new_event_loop()
    bot = create_bot(
        Settings(discord_token="x", database_path=str(tmp_path / "g.db"), worker_processes=False)
    )

    async def setup() -> int:
        store = await Store.open(tmp_path / "g.db")
        bot.store = store
        bot.service = HostService(store, seed_source=lambda: 77)
        await bot.service.resume()
        for cog in cogs(bot):
            await bot.add_cog(cog)
        bot.get_partial_messageable = lambda *a, **k: StubChannel()  # type: ignore[method-assign,assignment,return-value]

        async def no_announce(*args: Any, **kwargs: Any) -> None:
            return None

        bot.announce = no_announce  # type: ignore[method-assign]
        host = bot.host
        await host.create_lobby(
            guild_id=GUILD, channel_id=CHAN, host=ALICE, game_id="between-battle", seats=2
        )
        await host.join(CHAN, BOB)
        live = await host.start(CHAN, ALICE)
        return live.id

    match_id = loop.run_until_complete(setup())
    yield World(loop, bot, match_id)

    async def teardown() -> None:
        await bot.host.wait_for_bots()
        assert bot.store is not None
        await bot.store.close()
        bot.render_pool.close()
        bot.bot_pool.close()

    loop.run_until_complete(teardown())
    loop.close()


def _check(inter: StubInteraction, locale: str, caplog: pytest.LogCaptureFixture) -> None:
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    caplog.clear()
    assert errors == []
    assert inter.response.acks == 1, inter.sent
    assert inter.sent, "no answer"
    assert t(locale, "internal-error") not in inter.sent
    assert not any("Traceback" in s for s in inter.sent)


numbers = st.one_of(
    st.integers(0, 12),
    st.integers(0, 2**64),
    st.integers(2**63 - 2, 10**25),
)
locales = st.sampled_from(["en-US", "fr"])


@st.composite
def custom_ids(draw: st.DrawFn) -> str:
    """Ids in the shape of one of the component templates, with any numbers."""
    kind = draw(st.sampled_from(["gl", "gm", "gs", "gp", "gh", "gb", "gv", "gr", "junk"]))
    n = lambda: str(draw(numbers))  # noqa: E731
    if kind == "gl":
        action = draw(st.sampled_from(["join", "leave", "start", "cancel", "addbot"]))
        return f"gl:{action}:{n()}"
    if kind in ("gm", "gs"):
        return f"{kind}:{n()}:{n()}:{n()}:{n()}"
    if kind == "gp":
        path = ".".join(n() for _ in range(draw(st.integers(0, 3))))
        return f"gp:{n()}:{n()}:{n()}:{path}:{n()}:{n()}"
    if kind in ("gh", "gr"):
        return f"{kind}:{n()}"
    if kind == "gb":
        game = draw(st.sampled_from(["between-battle", "via-belli", "nope", "x-y"]))
        return f"gb:{game}:{draw(st.sampled_from('gs'))}:{n()}"
    if kind == "gv":
        return f"gv:{n()}:{n()}:{draw(st.sampled_from(['first', 'prev', 'next', 'last']))}"
    return draw(st.text(max_size=40))


async def _click(bot: GueridonBot, custom_id: str, inter: StubInteraction, value: str) -> bool:
    """Dispatch a component id as discord.py does (template match, then
    ``from_custom_id``, then ``callback``); False when no template matches."""
    for cls in COMPONENTS:
        found = re.fullmatch(cls.__discord_ui_compiled_template__, custom_id)  # type: ignore[attr-defined]
        if found is None:
            continue
        if cls in (MoveSelect, MenuSelect):
            item: discord.ui.Item[Any] = discord.ui.Select(
                custom_id=custom_id, options=[discord.SelectOption(label="x", value=value)]
            )
        else:
            item = discord.ui.Button(custom_id=custom_id, label="x")
        component = await cls.from_custom_id(inter, item, found)  # type: ignore[arg-type]
        if isinstance(component.item, discord.ui.Select):
            component.item._values = [value]
        await component.callback(inter)  # type: ignore[arg-type]
        return True
    return False


async def _invoke(
    bot: GueridonBot,
    command: app_commands.Command[Any, ..., Any],
    inter: StubInteraction,
    *args: Any,
) -> None:
    """Run a command as the command tree does: what its callback raises
    reaches the tree's ``on_error``, wrapped as discord.py wraps it."""
    try:
        await command.callback(command.binding, inter, *args)  # type: ignore[arg-type]
    except Exception as err:
        await bot.tree.on_error(inter, app_commands.CommandInvokeError(command, err))  # type: ignore[arg-type]


def test_fuzz_component_ids(world: World, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING)
    user = st.sampled_from([ALICE, BOB, UserRef(3, "eve", "fr")])
    values = st.one_of(st.sampled_from(["0", "c0", "p1", "c99999999999999999999"]), st.text())

    @settings(
        max_examples=EXAMPLES * 3,
        derandomize=True,  # the same examples on every run: the kinds reached are stable
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(custom_id=custom_ids(), who=user, locale=locales, value=values)
    def check(custom_id: str, who: UserRef, locale: str, value: str) -> None:
        inter = StubInteraction(world.bot, who, locale)
        if world.run(_click(world.bot, custom_id, inter, value)):
            _check(inter, locale, caplog)
            handled.append(custom_id[:2])

    handled: list[str] = []
    check()
    # the examples did reach the handlers, of every kind
    assert len(handled) >= EXAMPLES and len(set(handled)) == len(COMPONENTS), set(handled)


def test_the_reported_component_ids_are_refused_clearly(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    """The ids of the report: a seat out of range, a match id past 64 bits."""
    caplog.set_level(logging.WARNING)
    m = world.match_id
    for custom_id, key in (
        (f"gm:{m}:1:99999999999:0", "not-seated"),
        ("gm:99999999999999999999:1:0:0", "no-such-match"),
        (f"gh:{2**63}", "no-such-match"),
        (f"gl:join:{2**64}", "no-lobby"),
    ):
        for who in (ALICE, BOB):
            locale = who.locale or "en-US"
            inter = StubInteraction(world.bot, who, locale)
            assert world.run(_click(world.bot, custom_id, inter, "0"))
            _check(inter, locale, caplog)
            assert any(
                t(locale, key, match=custom_id.split(":")[1]).split(" ")[0] in s for s in inter.sent
            ), (custom_id, inter.sent)


def test_fuzz_typed_command_options(world: World, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING)
    bot = world.bot
    lobby, play, info, records = (
        bot.get_cog(c.__name__) for c in (LobbyCog, PlayCog, InfoCog, RecordsCog)
    )
    assert isinstance(lobby, LobbyCog) and isinstance(play, PlayCog)
    assert isinstance(info, InfoCog) and isinstance(records, RecordsCog)
    games = st.one_of(st.sampled_from(["between-battle", "via-belli", "nope", ""]), st.text())
    texts = st.one_of(
        st.text(max_size=30),
        st.sampled_from(["D", "hp=12 hp=13", "hp=3", "1>2", "characters=pirate,pirate"]),
    )
    calls = st.one_of(
        st.tuples(st.just("play"), texts),
        st.tuples(st.just("replay"), st.one_of(numbers, st.integers(-(2**70), 0))),
        st.tuples(st.just("create"), texts),
        st.tuples(st.just("rules"), games),
        st.tuples(
            st.just("table"),
            st.tuples(games, st.one_of(st.none(), numbers, st.integers(-5, 0)), texts),
        ),
        st.tuples(st.just("leaderboard"), st.tuples(games, texts)),
        st.tuples(st.just("history"), st.one_of(st.none(), games)),
    )

    @settings(
        max_examples=EXAMPLES * 2,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(call=calls, locale=locales, who=st.sampled_from([ALICE, BOB]))
    def check(call: tuple[str, Any], locale: str, who: UserRef) -> None:
        name, arg = call
        inter = StubInteraction(bot, who, locale)
        if name == "play":
            coro = _invoke(bot, play.play, inter, arg)
        elif name == "replay":
            coro = _invoke(bot, records.replay, inter, arg)
        elif name == "create":
            inter.channel_id = CHAN + 1  # a free channel: the options decide
            coro = _invoke(bot, lobby.lobby_create, inter, "between-battle", None, arg)
        elif name == "table":  # game, seats and clock of /lobby create
            inter.channel_id = CHAN + 1
            game, seats, clock = arg
            coro = _invoke(bot, lobby.lobby_create, inter, game, seats, None, clock)
        elif name == "leaderboard":
            coro = _invoke(bot, records.leaderboard, inter, *arg)
        elif name == "history":
            coro = _invoke(bot, records.history, inter, None, arg)
        else:
            coro = _invoke(bot, info.rules, inter, arg)
        world.run(coro)
        _check(inter, locale, caplog)
        handled.append(name)
        if name in ("create", "table"):
            # whatever was opened is closed again for the next example
            opened = world.run(bot.host.lobby_in(CHAN + 1))
            if opened is not None:
                world.run(bot.host.cancel(CHAN + 1, ALICE, is_admin=True))

    handled: list[str] = []
    check()
    assert len(handled) >= EXAMPLES and len(set(handled)) == 7, set(handled)


@pytest.mark.parametrize("who", [ALICE, BOB])
def test_the_reported_typed_inputs_are_refused_clearly(
    world: World, caplog: pytest.LogCaptureFixture, who: UserRef
) -> None:
    caplog.set_level(logging.WARNING)
    bot = world.bot
    lobby, records = bot.get_cog("LobbyCog"), bot.get_cog("RecordsCog")
    assert isinstance(lobby, LobbyCog) and isinstance(records, RecordsCog)
    locale = who.locale or "en-US"
    inter = StubInteraction(bot, who, locale)
    world.run(_invoke(bot, records.replay, inter, 2**63))
    _check(inter, locale, caplog)
    assert t(locale, "no-such-match", match=2**63) in inter.sent[-1]
    inter = StubInteraction(bot, who, locale)
    inter.channel_id = CHAN + 1
    world.run(_invoke(bot, lobby.lobby_create, inter, "between-battle", None, "hp=12 hp=13"))
    _check(inter, locale, caplog)
    twice = "donnée deux fois" if locale == "fr" else "given twice"
    assert twice in inter.sent[-1] and "hp=12" in inter.sent[-1], inter.sent
    assert world.run(bot.host.lobby_in(CHAN + 1)) is None


def test_a_forged_menu_value_is_refused_as_stale(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    """A menu select's value with a digit ``int`` does not read (``²``) is
    refused like any stale choice, not answered "something went wrong"."""
    caplog.set_level(logging.WARNING)
    live = world.bot.host.matches[world.match_id]
    seat = sorted(live.match.pending())[0]
    who = ALICE if live.user_of(seat) == ALICE.id else BOB
    locale = who.locale or "en-US"
    for value in ("c²", "p¹"):
        inter = StubInteraction(world.bot, who, locale)
        custom_id = f"gp:{live.id}:{live.version}:{seat}::0:0"
        assert world.run(_click(world.bot, custom_id, inter, value))
        _check(inter, locale, caplog)
        assert any(t(locale, "stale") in s for s in inter.sent), inter.sent
