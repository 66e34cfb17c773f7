"""Self-tests of the fake Discord, driven by a tiny real discord.py bot defined here."""

from __future__ import annotations

import asyncio
import io
import json
import logging
from collections.abc import AsyncIterator
from typing import Any, ClassVar

import aiohttp
import discord
import pytest
import yarl
from discord import app_commands
from discord.ext import commands
from PIL import Image

from tests.fakediscord import (
    CommandNotAvailable,
    CommandNotSynced,
    DiscordError,
    FakeChannel,
    FakeDiscord,
    FakeGuild,
    FakeUser,
    HarnessError,
    InteractionNotDelivered,
)
from tests.fakediscord.gateway import GatewaySession
from tests.fakediscord.processes import BotProcess

GAMES = ["belote", "between-battle", "tarot", "yams"]

# --------------------------------------------------------------------------------------------
# the tiny bot
# --------------------------------------------------------------------------------------------


class FrenchTranslator(app_commands.Translator):
    """Gives French localizations to a few strings, to check they are synced."""

    TABLE: ClassVar[dict[str, str]] = {
        "lobby": "salon",
        "Manage lobbies": "Gérer les salons",
        "create": "creer",
    }

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        if locale is discord.Locale.french:
            return self.TABLE.get(string.message)
        return None


class Tile(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"tile:(?P<n>[0-9]+)"):
    """A persistent button: works for any client that registered it, even after a restart."""

    def __init__(self, n: int, *, disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                label=f"Tile {n}",
                custom_id=f"tile:{n}",
                style=discord.ButtonStyle.primary,
                disabled=disabled,
            )
        )
        self.n = n

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: Any,
    ) -> Tile:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        client = interaction.client
        assert isinstance(client, TinyBot)
        client.events.append(("tile", self.n, client.name))
        await interaction.response.edit_message(
            content=f"tile {self.n} taken by {interaction.user.name} (via {client.name})",
            view=tiles_view(taken=self.n),
        )


def tiles_view(taken: int | None = None) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for n in (1, 2, 3):
        view.add_item(Tile(n, disabled=n == taken))
    return view


class PickView(discord.ui.View):
    @discord.ui.select(
        custom_id="pick:card",
        placeholder="Pick cards",
        min_values=1,
        max_values=2,
        options=[discord.SelectOption(label=c, value=c) for c in ("7", "8", "9", "10")],
    )
    async def pick(
        self, interaction: discord.Interaction[Any], select: discord.ui.Select[Any]
    ) -> None:
        await interaction.response.send_message(f"picked {','.join(select.values)}")


class NameModal(discord.ui.Modal, title="Your name"):
    name: discord.ui.TextInput[Any] = discord.ui.TextInput(label="Name", custom_id="name:field")

    async def on_submit(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message(f"hello {self.name.value}")


lobby = app_commands.Group(
    name=app_commands.locale_str("lobby"),
    description=app_commands.locale_str("Manage lobbies"),
)


@lobby.command(name=app_commands.locale_str("create"), description="Create a lobby")
@app_commands.describe(game="Which game", options="Free-form options")
async def lobby_create(
    interaction: discord.Interaction[Any], game: str, options: str | None = None
) -> None:
    await interaction.response.send_message(
        f"lobby {game} created options={options} locale={interaction.locale.value}"
    )


@lobby_create.autocomplete("game")
async def lobby_game_autocomplete(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=g, value=g) for g in GAMES if current in g]


@app_commands.command(description="Play a move")
async def play(interaction: discord.Interaction[Any], move: str, times: int = 1) -> None:
    await interaction.response.send_message(f"played {move} x{times}")


@play.autocomplete("move")
async def play_move_autocomplete(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    if current == "many":  # more than Discord's 25 choices: must be caught by the fake
        return [app_commands.Choice(name=f"m{i}", value=f"m{i}") for i in range(30)]
    return [
        app_commands.Choice(name=f"card {c}", value=c) for c in ("7", "17", "27") if current in c
    ]


@app_commands.command(description="Render the board (slow: defers)")
async def board(interaction: discord.Interaction[Any]) -> None:
    await interaction.response.defer(thinking=True)
    buf = io.BytesIO()
    Image.new("RGB", (64, 32), (0, 128, 0)).save(buf, format="PNG")
    buf.seek(0)
    await interaction.followup.send("here is the board", file=discord.File(buf, "board.png"))


@app_commands.command(description="Post tiles")
async def tiles(interaction: discord.Interaction[Any]) -> None:
    await interaction.response.send_message("pick a tile", view=tiles_view())


@app_commands.command(description="Pick cards")
async def pick(interaction: discord.Interaction[Any]) -> None:
    await interaction.response.send_message("choose", view=PickView(timeout=None))


@app_commands.command(description="Ask a name")
async def askname(interaction: discord.Interaction[Any]) -> None:
    await interaction.response.send_modal(NameModal())


@app_commands.command(description="A secret")
async def secret(interaction: discord.Interaction[Any]) -> None:
    await interaction.response.send_message("only you can see this", ephemeral=True)


@app_commands.command(description="DM me")
async def dm(interaction: discord.Interaction[Any]) -> None:
    client = interaction.client
    assert isinstance(client, TinyBot)
    try:
        await interaction.user.send("psst, your cards: 7 8 9")
    except discord.Forbidden as exc:
        client.events.append(("forbidden", exc.code, exc.status))
        await interaction.response.send_message("your DMs are closed", ephemeral=True)
    else:
        await interaction.response.send_message("check your DMs", ephemeral=True)


@app_commands.command(description="Too long")
async def toolong(interaction: discord.Interaction[Any]) -> None:
    client = interaction.client
    assert isinstance(client, TinyBot)
    try:
        await interaction.response.send_message("x" * 2001)
    except discord.HTTPException as exc:
        client.events.append(("toolong", exc.code, exc.status))
        await interaction.response.send_message("message too long, shortened")


@app_commands.command(description="Answers too late")
async def slow(interaction: discord.Interaction[Any]) -> None:
    client = interaction.client
    assert isinstance(client, TinyBot)
    await client.release_slow.wait()  # the test releases it once the window has passed
    try:
        await interaction.response.send_message("finally")
    except discord.NotFound as exc:
        client.events.append(("late", exc.code, exc.status))


@app_commands.command(description="Never answers")
async def ignore(interaction: discord.Interaction[Any]) -> None:
    return None


class RevealView(discord.ui.View):
    @discord.ui.button(label="Reveal", custom_id="reveal")
    async def reveal(
        self, interaction: discord.Interaction[Any], button: discord.ui.Button[Any]
    ) -> None:
        await interaction.response.defer()  # type 6: deferred update, the edit comes later
        await interaction.edit_original_response(content="revealed: 7 of hearts", view=None)


@app_commands.command(description="Hidden card")
async def reveal(interaction: discord.Interaction[Any]) -> None:
    await interaction.response.send_message("a hidden card", view=RevealView(timeout=None))


@app_commands.command(description="Countdown with edits and follow-ups")
async def countdown(interaction: discord.Interaction[Any]) -> None:
    await interaction.response.send_message("3")
    await interaction.edit_original_response(content="2")
    note = await interaction.followup.send("psst", ephemeral=True, wait=True)
    await note.edit(content="psst (edited)")
    await interaction.followup.send("go!")


@app_commands.command(description="Follow-up before responding (a bug)")
async def early(interaction: discord.Interaction[Any]) -> None:
    client = interaction.client
    assert isinstance(client, TinyBot)
    try:
        await interaction.followup.send("too early")
    except discord.NotFound as exc:
        client.events.append(("early", exc.code, exc.status))
    await interaction.response.send_message("ok")


@app_commands.command(description="Deal cards to a player")
async def deal(
    interaction: discord.Interaction[Any],
    player: discord.Member,
    deck: discord.Attachment,
    to: discord.TextChannel | None = None,
) -> None:
    data = await deck.read()
    where = to.name if to else "here"
    await interaction.response.send_message(
        f"dealt {data.decode()} to {player.display_name} in {where}"
    )


@app_commands.context_menu(name="Challenge")
async def challenge(interaction: discord.Interaction[Any], member: discord.Member) -> None:
    await interaction.response.send_message(f"{interaction.user.name} challenges {member.name}")


@app_commands.context_menu(name="Quote")
async def quote(interaction: discord.Interaction[Any], message: discord.Message) -> None:
    await interaction.response.send_message(f"> {message.content}")


@app_commands.command(description="Get tiles in DM")
async def dmtiles(interaction: discord.Interaction[Any]) -> None:
    await interaction.user.send("your private tiles", view=tiles_view())
    await interaction.response.send_message("sent", ephemeral=True)


def png(color: str, size: tuple[int, int] = (8, 8)) -> io.BytesIO:
    buf = io.BytesIO()
    Image.new("RGB", size, color).save(buf, format="PNG")
    buf.seek(0)
    return buf


@app_commands.command(description="Show a card image, then swap it")
async def card(interaction: discord.Interaction[Any]) -> None:
    embed = discord.Embed(title="Your card").set_image(url="attachment://card.png")
    await interaction.response.send_message(
        "your card", embed=embed, file=discord.File(png("red"), "card.png")
    )
    await interaction.edit_original_response(
        attachments=[discord.File(png("blue", (16, 8)), "card2.png")]
    )


@app_commands.command(description="Server settings (Manage Server)")
@app_commands.guild_only()
@app_commands.default_permissions(manage_guild=True)
async def admin(interaction: discord.Interaction[Any]) -> None:
    allowed = interaction.permissions.manage_guild
    await interaction.response.send_message(f"manage_guild={allowed}", ephemeral=True)


ALL_COMMANDS: list[Any] = [
    *(lobby, play, board, tiles, pick, askname, secret, dm, toolong, slow, ignore),
    *(reveal, countdown, early, deal, challenge, quote, dmtiles, card, admin),
]


class TinyBot(commands.Bot):
    def __init__(self, name: str = "bot", *, message_content: bool = False, **options: Any) -> None:
        intents = discord.Intents.default()
        intents.message_content = message_content
        super().__init__(command_prefix="!", intents=intents, guild_ready_timeout=0.05, **options)
        self.name = name
        self.events: list[tuple[Any, ...]] = []
        self.release_slow = asyncio.Event()

    async def setup_hook(self) -> None:
        self.add_dynamic_items(Tile)
        for cmd in ALL_COMMANDS:
            self.tree.add_command(cmd)
        await self.tree.set_translator(FrenchTranslator())
        await self.tree.sync()

    async def on_message(self, message: discord.Message) -> None:
        if message.author != self.user:
            self.events.append(("message", message.author.name, message.content))


# --------------------------------------------------------------------------------------------
# fixtures
# --------------------------------------------------------------------------------------------


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord.serve() as fake:
        yield fake


class World:
    def __init__(self, fake: FakeDiscord) -> None:
        self.guild: FakeGuild = fake.add_guild("Café des jeux", locale="fr")
        self.games: FakeChannel = fake.add_text_channel(self.guild, "games")
        self.alice: FakeUser = fake.add_user("alice", guild=self.guild, locale="fr")
        self.bob: FakeUser = fake.add_user("bob", guild=self.guild, locale="en-US")


@pytest.fixture
async def world(fake: FakeDiscord) -> World:
    return World(fake)


@pytest.fixture
async def bot(fake: FakeDiscord, world: World) -> AsyncIterator[TinyBot]:
    client = TinyBot()
    async with fake.running(client):
        yield client


# --------------------------------------------------------------------------------------------
# tests
# --------------------------------------------------------------------------------------------


async def test_sync_registers_commands_with_options_and_localizations(
    fake: FakeDiscord, bot: TinyBot
) -> None:
    names = {c["name"] for c in fake.commands()}
    assert {"lobby", "play", "board", "tiles", "secret", "dm"} <= names
    lobby_cmd = fake.command("lobby")
    assert lobby_cmd["name_localizations"] == {"fr": "salon"}
    assert lobby_cmd["description_localizations"] == {"fr": "Gérer les salons"}
    [create] = lobby_cmd["options"]
    assert (create["name"], create["type"]) == ("create", 1)
    assert create["name_localizations"] == {"fr": "creer"}
    opts = {o["name"]: o for o in create["options"]}
    assert opts["game"]["type"] == 3 and opts["game"]["required"] is True
    assert opts["game"]["autocomplete"] is True
    assert opts["options"].get("required", False) is False
    play_opts = {o["name"]: o["type"] for o in fake.command("play")["options"]}
    assert play_opts == {"move": 3, "times": 4}
    assert bot.application_id == fake.application_id
    with pytest.raises(CommandNotSynced):
        fake.command("nope")


async def test_slash_roundtrip_with_subcommand_and_locale(
    fake: FakeDiscord, world: World, bot: TinyBot
) -> None:
    res = await fake.slash(
        world.alice, world.games, "lobby create", game="between-battle", options="x=1"
    )
    assert res.response_type == 4
    assert res.content == "lobby between-battle created options=x=1 locale=fr"
    assert not res.ephemeral
    assert fake.last_message(world.games) is res.message
    assert res.message is not None and res.message.interaction_metadata is not None
    res2 = await fake.slash(world.bob, world.games, "play", move="7", times=3)
    assert res2.content == "played 7 x3"
    with pytest.raises(CommandNotSynced):
        await fake.slash(world.bob, world.games, "lobby destroy")
    with pytest.raises(HarnessError):
        await fake.slash(world.bob, world.games, "play", move=7)  # wrong type
    with pytest.raises(HarnessError):
        await fake.slash(world.bob, world.games, "play")  # missing required option


async def test_autocomplete_returns_choices(fake: FakeDiscord, world: World, bot: TinyBot) -> None:
    choices = await fake.autocomplete(world.alice, world.games, "play", option="move", value="7")
    assert [c["value"] for c in choices] == ["7", "17", "27"]
    choices = await fake.autocomplete(
        world.alice, world.games, "lobby create", option="game", value="ta"
    )
    assert choices == [{"name": "tarot", "value": "tarot"}]


async def test_defer_then_followup_with_png_attachment(
    fake: FakeDiscord, world: World, bot: TinyBot
) -> None:
    res = await fake.slash(world.alice, world.games, "board")
    assert res.response_type == 5 and res.deferred
    assert res.content == "here is the board"
    [att] = res.attachments
    assert att.filename == "board.png"
    assert att.data.startswith(b"\x89PNG\r\n\x1a\n")
    assert (att.width, att.height) == (64, 32)
    # the follow-up replaced the "thinking" message, it did not add a second one
    assert res.message is not None and not res.message.loading
    assert len(fake.channel_messages(world.games)) == 1
    async with aiohttp.ClientSession() as session, session.get(att.url) as resp:
        assert resp.status == 200
        assert await resp.read() == att.data


async def test_dynamic_button_click_edits_message(
    fake: FakeDiscord, world: World, bot: TinyBot
) -> None:
    res = await fake.slash(world.alice, world.games, "tiles")
    msg = res.message
    assert msg is not None and [b["label"] for b in msg.buttons()] == ["Tile 1", "Tile 2", "Tile 3"]
    click = await fake.click(world.bob, msg, label="Tile 2")
    assert click.response_type == 7
    assert msg.content == "tile 2 taken by bob (via bot)"
    assert msg.edited and msg.history[0]["content"] == "pick a tile"
    tile2 = msg.find_component(custom_id="tile:2")
    assert tile2 is not None and tile2["disabled"] is True
    with pytest.raises(HarnessError):
        await fake.click(world.alice, msg, custom_id="tile:2")  # disabled now


async def test_select_and_modal(fake: FakeDiscord, world: World, bot: TinyBot) -> None:
    res = await fake.slash(world.alice, world.games, "pick")
    assert res.message is not None
    picked = await fake.select(world.alice, res.message, "pick:card", values=["8", "10"])
    assert picked.content == "picked 8,10"
    with pytest.raises(HarnessError):
        await fake.select(world.alice, res.message, "pick:card", values=["joker"])
    opened = await fake.slash(world.bob, world.games, "askname")
    assert opened.response_type == 9 and opened.modal is not None
    submitted = await fake.submit_modal(world.bob, opened, {"name:field": "Bob"})
    assert submitted.content == "hello Bob"


async def test_ephemeral_reply(fake: FakeDiscord, world: World, bot: TinyBot) -> None:
    res = await fake.slash(world.alice, world.games, "secret")
    assert res.ephemeral and res.content == "only you can see this"
    assert fake.channel_messages(world.games, visible_to=world.bob) == []
    assert fake.channel_messages(world.games, visible_to=world.alice) == [res.message]


async def test_dm_and_closed_dm(fake: FakeDiscord, world: World, bot: TinyBot) -> None:
    res = await fake.slash(world.alice, world.games, "dm")
    assert res.content == "check your DMs" and res.ephemeral
    [dm_msg] = fake.dm_messages(world.alice)
    assert dm_msg.content == "psst, your cards: 7 8 9"
    fake.set_dms_open(world.bob, False)
    res = await fake.slash(world.bob, world.games, "dm")
    assert res.content == "your DMs are closed"
    assert ("forbidden", 50007, 403) in bot.events
    assert fake.dm_messages(world.bob) == []


async def test_restart_new_client_handles_buttons_of_old_one(
    fake: FakeDiscord, world: World
) -> None:
    first = TinyBot("first")
    await fake.start_client(first)
    res = await fake.slash(world.alice, world.games, "tiles")
    posted = res.message
    assert posted is not None
    await fake.stop_client(first)
    assert fake.live_sessions() == []

    second = TinyBot("second")
    async with fake.running(second):
        click = await fake.click(world.bob, posted, custom_id="tile:3")
        assert click.response_type == 7
        assert posted.content == "tile 3 taken by bob (via second)"
    assert ("tile", 3, "second") in second.events
    assert first.events == []
    assert fake.sync_count == 2  # both clients synced; command ids stay stable
    assert len(fake.commands()) == len(ALL_COMMANDS)


async def test_limit_violations_are_recorded(fake: FakeDiscord, world: World, bot: TinyBot) -> None:
    res = await fake.slash(world.alice, world.games, "toolong")
    # the 2,001-character answer was refused, the bot's fallback answer was accepted
    assert res.content == "message too long, shortened"
    assert ("toolong", 50035, 400) in bot.events
    [v] = fake.take_violations()
    assert v.kind == "invalid_form_body" and "content" in v.message and "2000" in v.message

    # raw REST calls through the bot's real HTTP client: limits discord.py doesn't check itself
    route = discord.http.Route("POST", "/channels/{channel_id}/messages", channel_id=world.games.id)
    row = {"type": 1, "components": [{"type": 2, "style": 1, "label": "b", "custom_id": "c"}]}
    six_buttons = {
        "type": 1,
        "components": [
            {"type": 2, "style": 1, "label": str(i), "custom_id": f"b{i}"} for i in range(6)
        ],
    }
    bad_bodies: list[dict[str, Any]] = [
        {"content": "rows", "components": [row] * 6},
        {"content": "buttons", "components": [six_buttons]},
        {
            "content": "id",
            "components": [
                {
                    "type": 1,
                    "components": [{"type": 2, "style": 1, "label": "x", "custom_id": "x" * 101}],
                }
            ],
        },
        {"content": "embeds", "embeds": [{"title": str(i)} for i in range(11)]},
        {
            "content": "options",
            "components": [
                {
                    "type": 1,
                    "components": [
                        {
                            "type": 3,
                            "custom_id": "s",
                            "options": [{"label": str(i), "value": str(i)} for i in range(26)],
                        }
                    ],
                }
            ],
        },
        {},
    ]
    for body in bad_bodies:
        with pytest.raises(discord.HTTPException) as info:
            await bot.http.request(route, json=body)
        assert info.value.status == 400
    kinds = [v.kind for v in fake.take_violations()]
    assert kinds == ["invalid_form_body"] * 5 + ["empty_message"]

    # command definitions are validated on sync, like Discord does
    bad_commands: list[Any] = [
        {"name": "Lobby", "description": "uppercase name", "type": 1},
        {"name": "x", "description": "d" * 101, "type": 1},
        {
            "name": "order",
            "description": "required option after an optional one",
            "options": [
                {"type": 3, "name": "a", "description": "a", "required": False},
                {"type": 3, "name": "b", "description": "b", "required": True},
            ],
        },
        {"name": "loc", "description": "d", "name_localizations": {"fr": "Salon"}},
    ]
    for command in bad_commands:
        with pytest.raises(discord.HTTPException):
            await bot.http.bulk_upsert_global_commands(fake.application_id, [command])
    assert [v.kind for v in fake.take_violations()] == ["invalid_commands"] * 4
    assert len(fake.commands()) == len(ALL_COMMANDS)  # a refused sync changes nothing

    fake.attachment_size_limit = 100
    with pytest.raises(discord.HTTPException) as info:
        await world_channel(bot, world).send(file=discord.File(io.BytesIO(b"0" * 101), "big.bin"))
    assert info.value.status == 413
    assert [v.kind for v in fake.take_violations()] == ["file_too_large"]

    # more than 25 autocomplete choices: refused, so the interaction stays unanswered
    fake.ack_window = 0.5  # the refused answer leaves it unanswered: don't wait 3 s for that
    with pytest.raises(AssertionError):
        await fake.autocomplete(world.alice, world.games, "play", option="move", value="many")
    violations = fake.take_violations()
    assert [v.kind for v in violations] == ["invalid_autocomplete"]
    assert "25 or fewer" in violations[0].message
    assert len(fake.unanswered_interactions()) == 1
    fake.forget_interaction(fake.unanswered_interactions()[0])
    # discord.py logged the HTTPException of the autocomplete callback
    await fake.expect_bot_errors("autocomplete", logger="discord", exc=discord.HTTPException)


def world_channel(bot: TinyBot, world: World) -> discord.TextChannel:
    channel = bot.get_channel(world.games.id)
    assert isinstance(channel, discord.TextChannel)
    return channel


async def test_three_second_rule_and_double_ack(
    fake: FakeDiscord, world: World, bot: TinyBot
) -> None:
    fake.ack_window = 0.2
    res = await fake.slash(world.alice, world.games, "slow", _expect_ack=False)
    assert not res.acknowledged and res.interaction.expired
    bot.release_slow.set()
    await fake.wait_for(lambda: ("late", 10062, 404) in bot.events)
    [v] = fake.take_violations()
    assert v.kind == "late_ack" and "window 0.2s" in v.message
    assert fake.unanswered_interactions() == [res.interaction]
    fake.forget_interaction(res)

    ignored = await fake.slash(world.alice, world.games, "ignore", _expect_ack=False)
    assert fake.unanswered_interactions() == [ignored.interaction]
    fake.forget_interaction(ignored)

    # a second initial response is refused with 40060
    fake.ack_window = 3.0
    ok = await fake.slash(world.alice, world.games, "secret")
    inter = ok.interaction
    url = f"{fake.api_url}/interactions/{inter.id}/{inter.token}/callback"
    body = {"type": 4, "data": {"content": "again"}}
    async with aiohttp.ClientSession() as session, session.post(url, json=body) as resp:
        assert resp.status == 400
        assert resp.headers["Content-Type"] == "application/json"
        assert (await resp.json())["code"] == 40060
    assert [v.kind for v in fake.take_violations()] == ["double_ack"]


async def test_resume_after_reconnect_and_message_events(fake: FakeDiscord, world: World) -> None:
    client = TinyBot("reader", message_content=True)
    async with fake.running(client):
        [session] = fake.live_sessions()
        assert session.connection is not None
        assert session.connection.compress == "zlib-stream"
        await fake.force_reconnect()
        assert session.resumes == 1 and session.connection.path == "/resume-gateway"
        res = await fake.slash(world.bob, world.games, "play", move="9")
        assert res.content == "played 9 x1"
        await fake.send_message(world.alice, world.games, "bonjour")
        await fake.wait_for(lambda: ("message", "alice", "bonjour") in client.events)


async def test_unhandled_bot_errors_are_collected(
    fake: FakeDiscord, world: World, bot: TinyBot
) -> None:
    async def boom(interaction: discord.Interaction[Any]) -> None:
        raise RuntimeError("kaboom")

    bot.tree.add_command(app_commands.Command(name="boom", description="fails", callback=boom))
    await bot.tree.sync()
    fake.ack_window = 0.3
    with pytest.raises(AssertionError, match="kaboom"):
        await fake.slash(world.alice, world.games, "boom")
    [record] = fake.take_bot_errors("kaboom", logger="discord", exc=RuntimeError)
    assert record.levelno >= logging.ERROR
    fake.forget_interaction(fake.unanswered_interactions()[0])


async def test_errors_of_every_logger_fail_the_teardown() -> None:
    """Not only discord.py's: an ERROR the bot logs itself (``gueridon``,
    ``bot.service``...), even from a background task, fails the test at
    teardown unless the test consumes it by name."""
    with pytest.raises(AssertionError, match="bot error: gueridon: could not post the board"):
        async with FakeDiscord.serve() as fake:
            World(fake)
            async with fake.running(TinyBot()):
                logging.getLogger("gueridon").error("could not post the board of match 7")

                async def background() -> None:
                    logging.getLogger("bot.service").error("bot of match 7 seat 1 failed")

                await asyncio.create_task(background())
                # consumed by name: this one no longer fails the test
                [record] = await fake.expect_bot_errors("seat 1 failed", logger="bot")
                assert record.name == "bot.service"
            # logged while no client runs: not the bot's
            logging.getLogger("gueridon").error("after the bot stopped")
            assert [r.getMessage() for r in fake.bot_errors] == [
                "could not post the board of match 7"
            ]


async def test_expected_errors_are_taken_by_name_and_count(
    fake: FakeDiscord, world: World, bot: TinyBot
) -> None:
    log = logging.getLogger("gueridon")
    log.error("clock tick failed")
    try:
        raise KeyError("seat")
    except KeyError:
        log.exception("interaction failed")
    # no blanket consumption: a pattern that matches nothing, or the wrong count, fails
    with pytest.raises(AssertionError, match="found 0"):
        fake.take_bot_errors("nothing like this")
    with pytest.raises(AssertionError, match="found 1"):
        fake.take_bot_errors("failed", logger="gueridon", exc=KeyError, count=2)
    with pytest.raises(AssertionError, match="found 0"):
        fake.take_bot_errors("failed", logger="discord")
    assert len(fake.bot_errors) == 2  # a failed take consumes nothing
    [record] = fake.take_bot_errors("'seat'", exc=LookupError)  # the exception's text
    assert record.getMessage() == "interaction failed"
    [record] = fake.take_bot_errors("tick", logger="gueridon")
    assert fake.bot_errors == []


async def test_integer_options_are_held_to_discords_limits(
    fake: FakeDiscord, world: World, bot: TinyBot
) -> None:
    """Discord refuses INTEGER values beyond ±2^53 and values outside a declared
    min_value/max_value (400 / 50035): the bot never hears of them."""
    with pytest.raises(DiscordError) as info:
        await fake.slash(world.alice, world.games, "play", move="9", times=2**53 + 1)
    assert (info.value.status, info.value.code) == (400, 50035)
    with pytest.raises(DiscordError):
        await fake.slash(world.alice, world.games, "play", move="9", times=-(2**60))
    res = await fake.slash(world.alice, world.games, "play", move="9", times=2**53)
    assert res.content == f"played 9 x{2**53}"
    # a command declaring min/max: Discord holds the users to them
    bounded: Any = {
        "name": "roll",
        "description": "d",
        "options": [
            {"type": 4, "name": "dice", "description": "d", "min_value": 1, "max_value": 6}
        ],
    }
    await bot.http.upsert_global_command(fake.application_id, bounded)
    with pytest.raises(DiscordError) as info:
        await fake.slash(world.alice, world.games, "roll", dice=7, _expect_ack=False)
    assert info.value.code == 50035
    # and refuses definitions whose bounds or choices leave the range
    bad = [
        {"type": 4, "name": "n", "description": "d", "max_value": 2**60},
        {"type": 4, "name": "n", "description": "d", "min_value": -(2**54)},
        {"type": 4, "name": "n", "description": "d", "min_value": 5, "max_value": 1},
        {"type": 4, "name": "n", "description": "d", "min_value": 1.5},
        {"type": 4, "name": "n", "description": "d", "choices": [{"name": "x", "value": 2**60}]},
    ]
    for option in bad:
        command: Any = {"name": "bad", "description": "d", "options": [option]}
        with pytest.raises(discord.HTTPException) as refused:
            await bot.http.upsert_global_command(fake.application_id, command)
        assert (refused.value.status, refused.value.code) == (400, 50035), option
    assert [v.kind for v in fake.take_violations()] == ["invalid_commands"] * len(bad)


async def test_deferred_update_then_edit_and_followups(
    fake: FakeDiscord, world: World, bot: TinyBot
) -> None:
    res = await fake.slash(world.alice, world.games, "reveal")
    assert res.message is not None
    click = await fake.click(world.bob, res.message, label="Reveal")
    assert click.response_type == 6 and click.message is res.message
    await click.wait_update()
    assert res.message.content == "revealed: 7 of hearts" and res.message.components == []

    count = await fake.slash(world.alice, world.games, "countdown")
    followups = await count.wait_followups(2)
    await fake.wait_for(lambda: followups[0].edited)
    assert count.content == "2"
    assert [(m.content, m.ephemeral) for m in followups] == [
        ("psst (edited)", True),
        ("go!", False),
    ]
    assert [m.content for m in fake.channel_messages(world.games, visible_to=world.bob)] == [
        "revealed: 7 of hearts",
        "2",
        "go!",
    ]

    early_res = await fake.slash(world.alice, world.games, "early")
    assert early_res.content == "ok"
    assert ("early", 10015, 404) in bot.events
    assert [v.kind for v in fake.take_violations()] == ["webhook_before_ack"]


async def test_expired_token_and_stuck_deferral(
    fake: FakeDiscord, world: World, bot: TinyBot
) -> None:
    fake.token_ttl = 0.0  # every follow-up comes "after 15 minutes"
    fake.followup_timeout = 0.3
    res = await fake.slash(world.alice, world.games, "board", _expect_ack=False)
    assert res.response_type == 5 and res.message is not None and res.message.loading
    assert fake.unfinished_deferrals() == [res.interaction]
    assert [v.kind for v in fake.take_violations()] == ["expired_token"]
    # the bot did not handle the 401
    fake.take_bot_errors("401", logger="discord", exc=discord.HTTPException)
    fake.forget_interaction(res)


async def test_options_of_every_kind_and_context_menus(
    fake: FakeDiscord, world: World, bot: TinyBot
) -> None:
    other = fake.add_text_channel(world.guild, "tables")
    deck = fake.make_attachment("deck.txt", b"7 8 9")
    res = await fake.slash(world.alice, world.games, "deal", player=world.bob, deck=deck, to=other)
    assert res.content == "dealt 7 8 9 to bob in tables"
    res = await fake.user_command(world.alice, world.games, "Challenge", world.bob)
    assert res.content == "alice challenges bob"
    said = await fake.send_message(world.bob, world.games, "I never lose")
    res = await fake.message_command(world.alice, said, "Quote")
    assert res.content == "> I never lose"


async def test_dm_slash_and_buttons_on_dm_messages(
    fake: FakeDiscord, world: World, bot: TinyBot
) -> None:
    dm_channel = fake.dm_channel(world.alice)
    res = await fake.slash(world.alice, dm_channel, "play", move="7")
    assert res.content == "played 7 x1" and res.message in fake.dm_messages(world.alice)
    await fake.slash(world.alice, world.games, "dmtiles")
    dm_msg = await fake.wait_for_message(world.alice, lambda m: m.content == "your private tiles")
    click = await fake.click(world.alice, dm_msg, custom_id="tile:1")
    assert click.response_type == 7 and dm_msg.content == "tile 1 taken by alice (via bot)"
    with pytest.raises(HarnessError):
        await fake.click(world.bob, dm_msg, custom_id="tile:2")  # not bob's DM


async def test_channel_rest_operations_through_discord_py(
    fake: FakeDiscord, world: World, bot: TinyBot
) -> None:
    channel = world_channel(bot, world)
    sent = await channel.send("hello", embed=discord.Embed(title="Score", description="3-1"))
    stored = fake.message(sent.id)
    assert stored.text == "hello\nScore\n3-1"
    await sent.edit(content="hello again")
    fetched = await channel.fetch_message(sent.id)
    assert fetched.content == "hello again" and fetched.edited_at is not None
    await sent.add_reaction("🎲")
    assert fake.message(sent.id).reactions == {"🎲": {fake.bot_user.id}}
    second = await channel.send("second", reference=sent)
    history = [m.content async for m in channel.history(limit=10)]
    assert history == ["second", "hello again"]
    assert fake.message(second.id).message_reference is not None
    thread = await sent.create_thread(name="game #1")
    await thread.send("in the thread")
    assert [m.content for m in fake.channel_messages(fake.channels[thread.id])] == ["in the thread"]
    await second.delete()
    assert [m.content for m in fake.channel_messages(world.games)] == ["hello again"]
    user = await bot.fetch_user(world.alice.id)
    assert user.name == "alice"
    member = await channel.guild.fetch_member(world.bob.id)
    assert member.name == "bob"
    fetched_channel = await bot.fetch_channel(world.games.id)
    assert isinstance(fetched_channel, discord.TextChannel) and fetched_channel.name == "games"
    synced = await bot.tree.fetch_commands()
    assert {c.id for c in synced} == {int(c["id"]) for c in fake.commands()}


async def test_dm_channel_with_an_unknown_user_is_refused(
    fake: FakeDiscord, world: World, bot: TinyBot
) -> None:
    """Discord answers 404 Unknown User (10013) to a DM channel with an id it
    does not know, a negative one included, as to ``GET /users/{id}``."""
    for user_id in (-1, 123456789):
        with pytest.raises(discord.NotFound) as caught:
            await bot.http.start_private_message(user_id)
        assert caught.value.code == 10013
        with pytest.raises(discord.NotFound) as caught:
            await bot.fetch_user(user_id)
        assert caught.value.code == 10013
    dm = await bot.http.start_private_message(world.alice.id)
    assert int(dm["recipients"][0]["id"]) == world.alice.id


async def test_intents_chunking_and_login_errors(fake: FakeDiscord, world: World) -> None:
    intents = discord.Intents.default()
    intents.members = True
    client = discord.Client(intents=intents, guild_ready_timeout=0.05)
    async with fake.running(client):
        guild = client.get_guild(world.guild.id)
        assert guild is not None and guild.chunked
        assert {m.name for m in guild.members} >= {"alice", "bob"}
    fake.allowed_privileged_intents = set()
    with pytest.raises(discord.PrivilegedIntentsRequired):
        await fake.start_client(discord.Client(intents=intents))
    with pytest.raises(discord.LoginFailure):
        await fake.start_client(discord.Client(intents=discord.Intents.none()), token="wrong")


async def test_response_with_file_then_attachment_swap(
    fake: FakeDiscord, world: World, bot: TinyBot
) -> None:
    res = await fake.slash(world.alice, world.games, "card")
    assert res.response_type == 4
    await res.wait_update()
    assert [a.filename for a in res.attachments] == ["card2.png"]
    assert (res.attachments[0].width, res.attachments[0].height) == (16, 8)
    assert res.message is not None
    assert [a.filename for a in res.message.history[0]["attachments"]] == ["card.png"]
    assert res.embeds[0]["image"]["url"] == "attachment://card.png"


async def test_default_member_permissions_and_an_admins_overrides(
    fake: FakeDiscord, world: World, bot: TinyBot
) -> None:
    """A command declared with ``default_permissions(manage_guild=True)`` is
    hidden from members without it, and unavailable in DMs when guild-only;
    a server admin's override (Integrations) opens it to a member, a role or
    @everyone, and the handler still sees the member's real permissions."""
    manager = fake.add_user(
        "manager", guild=world.guild, permissions=discord.Permissions(manage_guild=True)
    )
    res = await fake.slash(manager, world.games, "admin")
    assert res.content == "manage_guild=True"
    with pytest.raises(CommandNotAvailable):
        await fake.slash(world.bob, world.games, "admin")
    with pytest.raises(CommandNotAvailable):
        await fake.slash(manager, fake.dm_channel(manager), "admin")
    # @everyone allowed by an admin: bob reaches the handler, without Manage Server
    fake.set_command_permission(world.guild, "admin", world.guild)
    res = await fake.slash(world.bob, world.games, "admin")
    assert res.content == "manage_guild=False"
    # a member's own override comes first
    fake.set_command_permission(world.guild, "admin", world.bob, allow=False)
    with pytest.raises(CommandNotAvailable):
        await fake.slash(world.bob, world.games, "admin")
    # then the roles': one allowing role is enough, over @everyone's denial
    fake.set_command_permission(world.guild, "admin", world.guild, allow=False)
    with pytest.raises(CommandNotAvailable):
        await fake.slash(world.alice, world.games, "admin")
    helpers = fake.add_role(world.guild, "helpers")
    carol = fake.add_user("carol", guild=world.guild, roles=[helpers])
    fake.set_command_permission(world.guild, "admin", helpers)
    res = await fake.slash(carol, world.games, "admin")
    assert res.content == "manage_guild=False"
    # "Members with the Administrator permission can use all commands": no
    # override shuts one out
    boss = fake.add_user(
        "boss", guild=world.guild, permissions=discord.Permissions(administrator=True)
    )
    fake.set_command_permission(world.guild, "admin", boss, allow=False)
    res = await fake.slash(boss, world.games, "admin")
    assert res.content == "manage_guild=True"


# --------------------------------------------------------------------------------------------
# threads (https://discord.com/developers/docs/topics/threads)
# --------------------------------------------------------------------------------------------


async def _thread_from_message(
    fake: FakeDiscord, bot: TinyBot, world: World, **kwargs: Any
) -> tuple[discord.Message, discord.Thread]:
    channel = world_channel(bot, world)
    sent = await channel.send("lobby")
    thread = await sent.create_thread(name="Between Battle #1 · alice, bob", **kwargs)
    return sent, thread


async def test_a_thread_from_a_message_takes_its_id_and_is_a_type_11_channel(
    fake: FakeDiscord, world: World, bot: TinyBot
) -> None:
    sent, thread = await _thread_from_message(fake, bot, world, auto_archive_duration=60)
    assert thread.id == sent.id
    stored = fake.channels[thread.id]
    assert stored.type == 11 and stored.parent_id == world.games.id and stored.is_thread
    payload = stored.payload()
    assert payload["parent_id"] == str(world.games.id)
    meta = payload["thread_metadata"]
    assert meta["auto_archive_duration"] == 60 and meta["archived"] is False
    # discord.py sees a Thread, in the cache, whose parent is the channel
    cached = await fake.wait_for(lambda: bot.get_channel(thread.id))
    assert isinstance(cached, discord.Thread) and cached.parent_id == world.games.id
    fetched = await bot.fetch_channel(thread.id)
    assert isinstance(fetched, discord.Thread) and fetched.auto_archive_duration == 60
    # the message knows its thread; a second thread from it is refused
    source = fake.message(sent.id)
    assert source.thread_id == thread.id and source.flags & (1 << 5)
    with pytest.raises(discord.HTTPException) as err:
        await sent.create_thread(name="again")
    assert err.value.code == 160004
    fake.take_violations()
    # a duration Discord does not offer is refused
    other = await world_channel(bot, world).send("other")
    with pytest.raises(discord.HTTPException) as bad:
        await bot.http.start_thread_with_message(
            world.games.id,
            other.id,
            name="x",
            auto_archive_duration=30,  # type: ignore[arg-type]
            rate_limit_per_user=None,
        )
    assert bad.value.status == 400
    assert fake.message(other.id).thread_id is None
    assert [v.kind for v in fake.take_violations()] == ["invalid_form_body"]


async def test_messages_and_interactions_inside_a_thread(
    fake: FakeDiscord, world: World, bot: TinyBot
) -> None:
    _, thread = await _thread_from_message(fake, bot, world)
    stored = fake.channels[thread.id]
    await thread.send("board")
    assert [m.content for m in fake.channel_messages(stored)] == ["board"]
    assert "board" not in [m.content for m in fake.channel_messages(world.games)]
    # a command run in the thread: its channel is the thread
    res = await fake.slash(world.alice, stored, "play", move="e4")
    assert res.content == "played e4 x1"
    assert fake.message(res.message.id).channel_id == thread.id
    [inter] = [i for i in fake.interactions.values() if i.payload["data"].get("name") == "play"]
    assert inter.payload["channel_id"] == str(thread.id)
    assert inter.payload["channel"]["type"] == 11
    assert inter.payload["channel"]["parent_id"] == str(world.games.id)
    assert "thread_metadata" in inter.payload["channel"]
    # a user who writes in the thread joins it
    await fake.send_message(world.bob, stored, "hello")
    assert world.bob.id in fake.thread_members(stored)


async def test_archiving_a_thread_and_sending_to_it(
    fake: FakeDiscord, world: World, bot: TinyBot
) -> None:
    _, thread = await _thread_from_message(fake, bot, world)
    stored = fake.channels[thread.id]
    await bot.http.edit_channel(thread.id, archived=True)
    assert stored.archived
    await fake.wait_for(lambda: getattr(bot.get_channel(thread.id), "archived", True))
    # an archived thread takes no other change...
    with pytest.raises(discord.HTTPException) as err:
        await bot.http.edit_channel(thread.id, name="renamed")
    assert err.value.code == 50083
    fake.take_violations()
    # ...but a message from someone who may send unarchives it (it is not locked)
    await thread.send("rematch?")
    assert not stored.archived
    # a locked, archived thread refuses whoever lacks Manage Threads
    await bot.http.edit_channel(thread.id, archived=True, locked=True)
    fake.set_overwrite(
        world.games, fake.bot_role(world.guild), deny=discord.Permissions(manage_threads=True)
    )
    with pytest.raises(discord.HTTPException) as locked:
        await thread.send("still here?")
    assert locked.value.code == 50083 and stored.archived
    fake.take_violations()


async def test_an_archived_thread_refuses_edits_reactions_and_commands(
    fake: FakeDiscord, world: World, bot: TinyBot
) -> None:
    """https://discord.com/developers/docs/topics/threads#active--archived-threads:
    "Users cannot edit messages, add reactions, use application commands, or join
    archived threads"; a message deleted there is the one change left."""
    _, thread = await _thread_from_message(fake, bot, world)
    stored = fake.channels[thread.id]
    board = await thread.send("board")
    await bot.http.edit_channel(thread.id, archived=True)
    with pytest.raises(discord.HTTPException) as edit:
        await board.edit(content="board, edited")
    assert edit.value.code == 50083 and fake.message(board.id).content == "board"
    with pytest.raises(discord.HTTPException) as react:
        await board.add_reaction("👍")
    assert react.value.code == 50083
    assert [v.kind for v in fake.take_violations()] == ["archived", "archived"]
    with pytest.raises(CommandNotAvailable):
        await fake.slash(world.alice, stored, "play", move="e4")
    await board.delete()
    assert stored.archived
    # once a message reopened it, edits go through again
    reopened = await thread.send("rematch?")
    assert not stored.archived
    await reopened.edit(content="rematch!")
    assert fake.message(reopened.id).content == "rematch!"


async def test_locking_a_thread_needs_manage_threads_even_for_its_creator(
    fake: FakeDiscord, world: World, bot: TinyBot
) -> None:
    """https://discord.com/developers/docs/topics/threads#editing--deleting-threads:
    the creator may rename or archive its thread; `locked` and `rate_limit_per_user`
    need Manage Threads."""
    _, thread = await _thread_from_message(fake, bot, world)
    stored = fake.channels[thread.id]
    fake.set_overwrite(
        world.games, fake.bot_role(world.guild), deny=discord.Permissions(manage_threads=True)
    )
    await bot.http.edit_channel(thread.id, name="renamed", archived=True)
    assert stored.name == "renamed" and stored.archived
    with pytest.raises(discord.Forbidden) as lock:
        await bot.http.edit_channel(thread.id, locked=True)
    assert lock.value.code == 50013 and not stored.locked
    with pytest.raises(discord.Forbidden):
        await bot.http.edit_channel(thread.id, archived=False, rate_limit_per_user=10)
    assert [v.kind for v in fake.take_violations()] == ["missing_permissions"] * 2


async def test_thread_members_are_added_and_removed(
    fake: FakeDiscord, world: World, bot: TinyBot
) -> None:
    _, thread = await _thread_from_message(fake, bot, world)
    stored = fake.channels[thread.id]
    assert fake.thread_members(stored) == {fake.bot_user.id}
    await thread.add_user(discord.Object(id=world.alice.id))
    assert fake.thread_members(stored) == {fake.bot_user.id, world.alice.id}
    members = await thread.fetch_members()
    assert {m.id for m in members} == {fake.bot_user.id, world.alice.id}
    await thread.remove_user(discord.Object(id=world.alice.id))
    assert fake.thread_members(stored) == {fake.bot_user.id}
    await thread.leave()
    assert fake.thread_members(stored) == set()
    await thread.join()
    assert fake.thread_members(stored) == {fake.bot_user.id}
    # no member changes on an archived thread
    await bot.http.edit_channel(thread.id, archived=True)
    with pytest.raises(discord.HTTPException) as err:
        await thread.add_user(discord.Object(id=world.bob.id))
    assert err.value.code == 50083
    fake.take_violations()


async def test_thread_permission_refusals(fake: FakeDiscord, world: World, bot: TinyBot) -> None:
    channel = world_channel(bot, world)
    sent = await channel.send("lobby")
    fake.set_overwrite(
        world.games,
        fake.bot_role(world.guild),
        deny=discord.Permissions(create_public_threads=True),
    )
    with pytest.raises(discord.Forbidden) as err:
        await sent.create_thread(name="no thread")
    assert err.value.code == 50013
    assert fake.message(sent.id).thread_id is None
    [violation] = fake.take_violations()
    assert violation.kind == "missing_permissions"
    # with the permission back, but not Send Messages in Threads: no posting there
    fake.set_overwrite(
        world.games,
        fake.bot_role(world.guild),
        deny=discord.Permissions(send_messages_in_threads=True),
    )
    thread = await sent.create_thread(name="thread")
    with pytest.raises(discord.Forbidden) as send:
        await thread.send("board")
    assert send.value.code == 50013
    fake.take_violations()


async def test_a_waiter_on_a_channel_sleeps_through_other_channels_changes(
    fake: FakeDiscord, world: World, bot: TinyBot
) -> None:
    other = fake.add_text_channel(world.guild, "other")
    checks = {"games": 0, "other": 0, "anywhere": 0}

    def message_in_games() -> list[Any]:
        checks["games"] += 1
        return fake.channel_messages(world.games)

    def carol_exists() -> bool:
        checks["other"] += 1
        return any(u.name == "carol" for u in fake.users.values())

    def never() -> bool:
        checks["anywhere"] += 1
        return False

    # a long poll: only a wake-up re-checks the predicates
    in_games = asyncio.create_task(
        fake.wait_for(message_in_games, 30, poll=30, channel=world.games)
    )
    in_other = asyncio.create_task(fake.wait_for(carol_exists, 30, poll=30, channel=other.id))
    anywhere = asyncio.create_task(fake.wait_for(never, 30, poll=30))
    await asyncio.sleep(0.05)
    assert checks == {"games": 1, "other": 1, "anywhere": 1}
    for move in ("1", "2", "3"):  # interactions and messages in another channel
        res = await fake.slash(world.alice, other, "play", move=move)
        assert res.content == f"played {move} x1"
    # the channel's waiter slept through them; a waiter naming no channel woke for each
    assert checks["games"] == 1 and not in_games.done()
    assert checks["anywhere"] > 3
    # a change in its channel wakes it at once
    await fake.slash(world.bob, world.games, "play", move="4")
    [msg] = await asyncio.wait_for(in_games, 1)
    assert msg.content == "played 4 x1"
    # a change that names no channel (a new user) wakes every channel's waiters
    fake.add_user("carol", guild=world.guild)
    assert await asyncio.wait_for(in_other, 1) is True
    anywhere.cancel()


# --------------------------------------------------------------------------------------------
# sharding (https://discord.com/developers/docs/events/gateway#sharding)
# --------------------------------------------------------------------------------------------


class ShardedTinyBot(TinyBot, commands.AutoShardedBot):
    """The tiny bot on discord.py's AutoShardedBot: ``shard_ids`` of ``shard_count``."""


async def gateway_bot(fake: FakeDiscord) -> dict[str, Any]:
    headers = {"Authorization": f"Bot {fake.token}"}
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"{fake.api_url}/gateway/bot", headers=headers) as resp,
    ):
        assert resp.status == 200
        body: dict[str, Any] = await resp.json()
        return body


async def raw_identify(
    fake: FakeDiscord, shard: list[int] | None, guilds: int = 0
) -> tuple[int | None, list[dict[str, Any]]]:
    """IDENTIFY on a bare websocket (no discord.py): the close code (None: still open once
    READY and ``guilds`` GUILD_CREATE came) and the dispatches received."""
    got: list[dict[str, Any]] = []
    async with aiohttp.ClientSession() as session, session.ws_connect(fake.gateway_url) as ws:
        hello = await ws.receive_json(timeout=5)
        assert hello["op"] == 10
        body: dict[str, Any] = {"token": fake.token, "intents": 513, "properties": {}}
        if shard is not None:
            body["shard"] = shard
        await ws.send_json({"op": 2, "d": body})
        while True:
            msg = await ws.receive(timeout=10)
            if msg.type != aiohttp.WSMsgType.TEXT:
                return ws.close_code, got
            got.append(json.loads(msg.data))
            creates = [p for p in got if p.get("t") == "GUILD_CREATE"]
            if got[0].get("t") == "READY" and len(creates) == guilds:
                return None, got


async def test_gateway_bot_advises_one_shard_per_thousand_guilds_and_counts_identifies(
    fake: FakeDiscord,
) -> None:
    first = await gateway_bot(fake)
    assert first["url"] == fake.gateway_url and first["shards"] == 1
    limit = first["session_start_limit"]
    assert limit["remaining"] == limit["total"] and limit["max_concurrency"] == 1
    for n in range(1001):
        fake.add_guild(f"g{n}")
    assert (await gateway_bot(fake))["shards"] == 2
    code, _ = await raw_identify(fake, [0, 2], guilds=len(fake.shard_guilds(0, 2)))
    assert code is None
    assert (await gateway_bot(fake))["session_start_limit"]["remaining"] == limit["total"] - 1


async def test_invalid_shard_closes_4010_and_too_many_guilds_close_4011(
    fake: FakeDiscord,
) -> None:
    # "4010 Invalid shard: You sent an invalid shard when identifying"
    assert (await raw_identify(fake, [1, 1]))[0] == 4010
    assert (await raw_identify(fake, [0, 0]))[0] == 4010
    with pytest.raises(discord.ConnectionClosed) as closed:
        await fake.start_client(ShardedTinyBot("bad", shard_ids=[2], shard_count=2))
    assert closed.value.code == 4010
    # "4011 Sharding required: The session would have handled too many guilds"
    # ("Each shard can only support a maximum of 2500 guilds")
    assert fake.max_guilds_per_session == 2500
    for n in range(2501):
        fake.add_guild(f"g{n}", shard=(n % 2, 2))
    assert (await raw_identify(fake, None))[0] == 4011
    assert (await raw_identify(fake, [0, 1]))[0] == 4011
    code, got = await raw_identify(fake, [1, 2], guilds=1250)
    assert code is None
    ready = got[0]["d"]
    assert ready["shard"] == [1, 2] and len(ready["guilds"]) == 1250
    assert all((int(g["id"]) >> 22) % 2 == 1 for g in ready["guilds"])


async def test_each_shard_gets_its_guilds_and_direct_messages_go_to_shard_0(
    fake: FakeDiscord,
) -> None:
    north = fake.add_guild("Nord", shard=(0, 2))
    south = fake.add_guild("Sud", shard=(1, 2))
    north_games = fake.add_text_channel(north, "jeux")
    south_games = fake.add_text_channel(south, "jeux")
    alice = fake.add_user("alice", guild=north)
    fake.add_member(south, alice)
    zero = ShardedTinyBot("zero", shard_ids=[0], shard_count=2)
    one = ShardedTinyBot("one", shard_ids=[1], shard_count=2)
    async with fake.running(zero), fake.running(one):
        assert fake.ready_shards() == {(0, 2), (1, 2)}
        # READY and GUILD_CREATE: only the shard's guilds
        assert [g.id for g in zero.guilds] == [north.id]
        assert [g.id for g in one.guilds] == [south.id]
        for bot, guild in ((zero, north), (one, south)):
            [session] = [s for s in fake.live_sessions() if s.shard == (bot.shard_ids[0], 2)]
            ready = session.buffer[0]
            assert ready["t"] == "READY" and ready["d"]["shard"] == [bot.shard_ids[0], 2]
            assert [g["id"] for g in ready["d"]["guilds"]] == [str(guild.id)]
        # each guild's interactions go to its shard's session only
        for channel, name in ((north_games, "zero"), (south_games, "one")):
            res = await fake.slash(alice, channel, "tiles")
            assert res.message is not None
            await fake.click(alice, res.message, custom_id="tile:2")
            assert res.message.content == f"tile 2 taken by alice (via {name})"
        assert [e for e in zero.events if e[0] == "tile"] == [("tile", 2, "zero")]
        assert [e for e in one.events if e[0] == "tile"] == [("tile", 2, "one")]
        # shard 1's process DMs by REST; the DM's button comes back on shard 0
        res = await fake.slash(alice, south_games, "dmtiles")
        assert res.content == "sent"
        dm = fake.dm_messages(alice)[-1]
        await fake.click(alice, dm, custom_id="tile:3")
        assert fake.message(dm.id).content == "tile 3 taken by alice (via zero)"
        # messages of a guild, and of a DM, reach their shard only
        await fake.send_message(alice, south_games, "salut")
        await fake.send_message(alice, fake.dm_channel(alice), "coucou")
        await fake.wait_for(lambda: ("message", "alice", "") in one.events)
        await fake.wait_for(lambda: ("message", "alice", "coucou") in zero.events)
        sessions = {s.shard: s for s in fake.live_sessions()}

        def seen(shard: tuple[int, int], event: str, channel: FakeChannel) -> bool:
            return any(
                p["t"] == event and p["d"].get("channel_id") == str(channel.id)
                for p in sessions[shard].buffer
            )

        assert seen((1, 2), "MESSAGE_CREATE", south_games)
        assert not seen((0, 2), "MESSAGE_CREATE", south_games)
        assert seen((0, 2), "MESSAGE_CREATE", fake.dm_channel(alice))
        assert not seen((1, 2), "MESSAGE_CREATE", fake.dm_channel(alice))
        assert not seen((0, 2), "INTERACTION_CREATE", south_games)
        # a guild added later: GUILD_CREATE to its shard only
        east = fake.add_guild("Est", shard=(1, 2))
        await fake.wait_for(lambda: one.get_guild(east.id))
        assert zero.get_guild(east.id) is None


async def test_an_interaction_of_a_shard_with_no_session_is_not_delivered(
    fake: FakeDiscord,
) -> None:
    north = fake.add_guild("Nord", shard=(0, 2))
    south = fake.add_guild("Sud", shard=(1, 2))
    north_games = fake.add_text_channel(north, "jeux")
    south_games = fake.add_text_channel(south, "jeux")
    alice = fake.add_user("alice", guild=north)
    fake.add_member(south, alice)
    zero = ShardedTinyBot("zero", shard_ids=[0], shard_count=2)
    async with fake.running(zero):
        res = await fake.slash(alice, north_games, "play", move="7")
        assert res.content == "played 7 x1"
        # no session of shard 1 at all: refused at once, nothing dispatched
        started = fake.loop_time()
        with pytest.raises(InteractionNotDelivered, match="shard 1/2"):
            await fake.slash(alice, south_games, "play", move="7")
        assert fake.loop_time() - started < 1.0
        # shard 1's session is down but resumable (its process crashed): Discord keeps the
        # event for a RESUME that never comes; the user sees "This interaction failed"
        dead = await raw_identify_and_drop(fake, [1, 2])
        assert not dead.live and not dead.invalidated
        fake.ack_window = 0.3
        with pytest.raises(InteractionNotDelivered, match="never delivered"):
            await fake.slash(alice, south_games, "play", move="8")
        [lost] = [i for i in fake.interactions.values() if i.data.get("name") == "play"][-1:]
        assert lost.delivered == 0 and not lost.acknowledged
        assert fake.unanswered_interactions() == []  # not the bot's fault: reported above
        assert any(p["t"] == "INTERACTION_CREATE" for p in dead.buffer)
    one = ShardedTinyBot("one", shard_ids=[1], shard_count=2)
    async with fake.running(one):
        # direct messages go to shard 0 only
        with pytest.raises(InteractionNotDelivered, match="shard 0/2"):
            await fake.slash(alice, fake.dm_channel(alice), "play", move="9")


async def raw_identify_and_drop(fake: FakeDiscord, shard: list[int]) -> GatewaySession:
    """A session of ``shard`` whose connection then breaks without a close frame (a
    process killed): it stays resumable."""
    before = set(fake.gateway.sessions)
    session = aiohttp.ClientSession()
    try:
        ws = await session.ws_connect(fake.gateway_url)
        await ws.receive_json(timeout=5)
        body = {"token": fake.token, "intents": 513, "properties": {}, "shard": shard}
        await ws.send_json({"op": 2, "d": body})
        await ws.receive_json(timeout=5)  # READY
        [sid] = set(fake.gateway.sessions) - before
        transport = ws._response.connection.transport  # type: ignore[union-attr]
        assert transport is not None
        transport.abort()  # no close frame: like a SIGKILL
        dead = fake.gateway.sessions[sid]
        await fake.wait_for(lambda: not dead.live)
        return dead
    finally:
        await session.close()


# --------------------------------------------------------------------------------------------
# real bot processes (tests/fakediscord/processes.py)
# --------------------------------------------------------------------------------------------


def test_bot_processes_find_errors_in_stderr(tmp_path: Any) -> None:
    """An ERROR line or a traceback in a bot process's stderr fails the test at the end of
    ``BotProcesses`` (processes are run by tests/e2e/test_discord_shards.py)."""
    err = tmp_path / "bot0-1.err"
    err.write_text(
        "2026-11-24 18:32:09,589 INFO     gueridon shards 0/2: resumed 0 active matches\n"
        "2026-11-24 18:32:10,001 ERROR    gueridon [shard 0 guild 7] interaction failed\n"
        "Traceback (most recent call last):\n"
        "RuntimeError: boom\n"
    )
    bp = BotProcess(0, {}, [0], logs=[(tmp_path / "bot0-1.out", err)])
    assert bp.problem_lines() == [
        "2026-11-24 18:32:10,001 ERROR    gueridon [shard 0 guild 7] interaction failed",
        "Traceback (most recent call last):",
    ]


async def test_a_client_gone_in_the_middle_of_an_upload_is_no_fake_error() -> None:
    """A bot process killed while it uploads a message (tests/e2e/test_discord_shard_kills.py):
    the request never arrives whole, Discord creates nothing and records nothing wrong; the
    fake used to report its own crash (``fake_internal_error``: ConnectionResetError)."""
    async with FakeDiscord.serve() as fake:
        guild = fake.add_guild("Café")
        channel = fake.add_text_channel(guild, "jeux")
        url = yarl.URL(fake.api_url)
        assert url.host is not None and url.port is not None
        reader, writer = await asyncio.open_connection(url.host, url.port)
        boundary = "b0undary"
        head = (
            f"POST {url.path}/channels/{channel.id}/messages HTTP/1.1\r\n"
            f"Host: {url.host}:{url.port}\r\n"
            f"Authorization: Bot {fake.token}\r\n"
            f"Content-Type: multipart/form-data; boundary={boundary}\r\n"
            "Content-Length: 100000\r\n\r\n"
            f"--{boundary}\r\n"
            'Content-Disposition: form-data; name="payload_json"\r\n\r\n'
            '{"content": "half a board"}\r\n'
            f"--{boundary}\r\n"
            'Content-Disposition: form-data; name="files[0]"; filename="board.png"\r\n'
            "Content-Type: image/png\r\n\r\n"
        )
        writer.write(head.encode() + b"\x89PNG" + b"\0" * 1000)
        await writer.drain()
        await asyncio.sleep(0.2)  # the fake is reading the body
        writer.transport.abort()  # killed: the connection resets
        await fake.wait_for(lambda: fake.request_log, timeout=5)
        assert fake.request_log[-1] == ("POST", f"{url.path}/channels/{channel.id}/messages", 0)
        assert fake.channel_messages(channel) == []
        assert fake.problems() == []
        reader.feed_eof()
