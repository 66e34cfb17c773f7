"""End to end: Battalia with Buff through the real discord.py client.

The issue's "Done when" match (3 players, Buff: an auction by secret DM
bids, a bribe, a hire that runs out, a fight, week 3 and its horde of 8) is
the steered story of :mod:`tests.e2e.battalia_story`, played with the host's
match seed fixed to :data:`SEED` (the first seed from 1 where the story's
rules reach every goal, found by :func:`~tests.e2e.battalia_story.find_seed`;
``test_the_story_seed_still_reaches_every_goal`` checks it against the
engine). Every move is chosen from the real state at that point and played
through Discord: the bids and Buff's answers by the DM's components, the
first road by the staged menu (kind, layout, the cards that pay) and its
placement by the numbered ghost spots, the rest with ``/play``.
"""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

import render
from bot.discord import GueridonBot
from bot.service import LiveMatch
from engine import rng
from engine.games.battalia import GAME
from engine.games.battalia.text import card_name
from tests.e2e.battalia_story import GOALS, OPTIONS, SEATS, SEED, Story, play_story
from tests.e2e.test_discord_between_battle import World, live_match, png
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord.serve() as f:
        yield f


def test_the_story_seed_still_reaches_every_goal() -> None:
    """The engine alone, the same rules: if a rules change breaks the path,
    this says so first (then pick a new seed with ``find_seed``)."""
    story, state = play_story(SEED)
    assert story.done, sorted(set(GOALS) - story.reached)
    assert GAME.outcome(state) is not None


class Renders:
    """Every view the host gives the renderer, with the function's name."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.views: list[tuple[str, Any]] = []
        self.placements: list[list[tuple[int, str]]] = []
        for name in ("render_board", "render_private", "render_choices"):
            original = getattr(render, name)

            def spy(game_id: str, view: Any, *args: Any, _f: Any = original, _n: str = name) -> Any:
                self.views.append((_n, view))
                if _n == "render_choices":
                    self.placements.append(list(args[-1]))
                return _f(game_id, view, *args)

            monkeypatch.setattr(render, name, spy)


async def start_match(
    fake: FakeDiscord, world: World, bot: GueridonBot, options: str = OPTIONS
) -> LiveMatch:
    res = await fake.slash(
        world.alice, world.chan, "lobby create", game="battalia", seats=SEATS, options=options
    )
    assert res.ephemeral, res.text
    for user in (world.bob, world.eve):
        await fake.slash(user, world.chan, "lobby join")
    await fake.slash(world.alice, world.chan, "lobby start")
    live = live_match(bot, world.chan)
    assert live.match.seed == SEED
    return live


def latest_dm(fake: FakeDiscord, user: FakeUser, live: LiveMatch) -> Callable[[], Any]:
    """A finder of the DM whose components act on the current version."""
    marker = f":{live.id}:{live.version}:"

    def find() -> FakeMessage | None:
        for m in reversed(fake.dm_messages(user)):
            ids = [c["custom_id"] for c in m.buttons() + m.selects()]
            if ids and marker in ids[0]:
                return m
        return None

    return find


def board_messages(fake: FakeDiscord, world: World) -> list[FakeMessage]:
    return [m for m in fake.channel_messages(world.chan) if m.attachments]


def check_limits(message: FakeMessage) -> None:
    selects = message.selects()
    assert len(selects) <= 5 and len(message.buttons()) <= 25
    for select in selects:
        assert 0 < len(select["options"]) <= 25
        for option in select["options"]:
            assert len(option["label"]) <= 100
            assert len(option.get("description") or "") <= 100


async def play_by_menu(
    fake: FakeDiscord, bot: GueridonBot, live: LiveMatch, user: FakeUser, seat: int, notation: str
) -> tuple[list[FakeMessage], list[str]]:
    """Play ``notation`` with the components of the seat's latest DM: a
    button, or one select per level of the staged menu. Returns the
    messages read on the way (the DM, then each level) and the labels of
    the choices made."""
    locale = "fr" if user.locale == "fr" else "en"
    menu = bot.menu_for(live, seat, locale)
    entry = [n for n, _ in menu.entries].index(notation)
    [path] = [p for p, node in menu.leaves() if node.entry == entry]
    version = live.version
    message: FakeMessage = await fake.wait_for(latest_dm(fake, user, live), timeout=15)
    seen = [message]
    chosen: list[str] = []
    check_limits(message)
    if message.buttons():
        assert len(path) == 1
        button = message.buttons()[path[0]]
        chosen.append(button["label"])
        await fake.click(user, message, custom_id=button["custom_id"])
    elif menu.flat and len(menu.root.children) <= 125:
        # one select per 25 actions, valued by the action's index
        value = str(path[0])
        select = next(s for s in message.selects() if value in [o["value"] for o in s["options"]])
        chosen += [o["label"] for o in select["options"] if o["value"] == value]
        await fake.select(user, message, select["custom_id"], values=[value])
    else:
        depth = 0
        while depth < len(path):
            value = f"c{path[depth]}"
            select = next(
                (s for s in message.selects() if value in [o["value"] for o in s["options"]]),
                None,
            )
            if select is None:  # on a later page of a long level: turn the page
                select = message.selects()[-1]
                value = select["options"][-1]["value"]
                assert value.startswith("p"), (path, message.selects())
            else:
                chosen += [o["label"] for o in select["options"] if o["value"] == value]
                depth += 1
            res = await fake.select(user, message, select["custom_id"], values=[value])
            assert res.acknowledged
            if depth < len(path):
                [message] = await res.wait_followups(1, timeout=15)
                assert message.ephemeral
                check_limits(message)
                seen.append(message)
    await fake.wait_for(lambda: live.version > version, timeout=15)
    assert tuple(live.match.record().actions[version][:2]) == (seat, notation)
    return seen, chosen


async def test_the_done_when_match_through_discord(
    fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(secrets, "randbits", lambda bits: SEED)
    renders = Renders(monkeypatch)
    world = World(fake, tmp_path / "g.db")
    bot = world.make_bot()
    async with fake.running(bot):
        live = await start_match(fake, world, bot)
        story = Story()
        ways: dict[str, int] = {}
        bids: list[str] = []
        posted: list[FakeMessage] = []
        channel_before = 0
        menu_road = spots = False
        for _ in range(3000):
            if live.match.is_over:
                break
            pending = live.match.pending()
            seat = sorted(pending)[0]
            kind = pending[seat].kind
            user = world.users[live.user_of(seat)]
            state = live.match.state
            notation = story.choose(state, seat)
            version = live.version
            boards = len(board_messages(fake, world))
            if kind == "bid":
                if len(pending) == SEATS:
                    # the board that opens the auction pings every bidder
                    pings = [f"<@{live.user_of(s)}>" for s in pending]
                    opening = await fake.wait_for(
                        lambda p=pings: next(
                            (
                                i
                                for i, m in enumerate(fake.channel_messages(world.chan))
                                if all(ping in m.content for ping in p)
                            ),
                            None,
                        ),
                        timeout=15,
                    )
                    channel_before = opening + 1
                if len(pending) == 1:
                    # the boards of the earlier bids are posted: none names a card
                    await fake.wait_for(
                        lambda n=channel_before: (
                            len(fake.channel_messages(world.chan)) >= n + SEATS - 1
                        ),
                        timeout=15,
                    )
                    posted = fake.channel_messages(world.chan)[channel_before:]
                bids.append(notation)
                await play_by_menu(fake, bot, live, user, seat, notation)
                way = "dm-bid"
            elif kind == "buff-answer":
                # pinged: the defender's DM says it is their decision
                dm = await fake.wait_for(latest_dm(fake, user, live), timeout=15)
                assert "Buff" in dm.text, dm.text
                await play_by_menu(fake, bot, live, user, seat, notation)
                way = "dm-" + notation.split()[0]
            elif kind == "turn" and notation.startswith("road ") and not menu_road:
                _seen, chosen = await play_by_menu(fake, bot, live, user, seat, notation)
                assert len(chosen) >= 2, chosen  # the kind, then the layout and its cards
                cards = notation.split(" : ")[1].split()
                # (one Provision reads singular: « Provision » is in both forms)
                names = ["Provision" if c == "P" else card_name(c) for c in cards]
                assert all(name in chosen[-1] for name in names), chosen
                menu_road = True
                way = "menu-road"
            elif kind == "place" and menu_road and not spots:
                drawn = await check_spots(fake, live, user, seat, renders)
                _, chosen = await play_by_menu(fake, bot, live, user, seat, notation)
                # the number clicked is the number drawn on that spot
                number = int(chosen[-1].split(".")[0])
                assert drawn[number - 1][1] == notation, (chosen, drawn)
                spots = True
                way = "spots"
            else:
                if kind == "turn" and ways.get("play", 0) % 7 == 0:
                    # typing: autocomplete (the fake checks Discord's limits) narrows as one types
                    for typed in ("", notation.split()[0], notation[: len(notation) // 2]):
                        choices = await fake.autocomplete(
                            user, world.chan, "play", option="move", value=typed
                        )
                        assert 0 < len(choices) <= 25
                        assert all(typed.lower() in c["name"].lower() for c in choices)
                res = await fake.slash(user, world.chan, "play", move=notation)
                assert res.ephemeral and ("Played" in res.text or "joué" in res.text), res.text
                await fake.wait_for(lambda v=version: live.version > v, timeout=15)
                way = "play"
            ways[way] = ways.get(way, 0) + 1
            # as players do, wait for the board of the move (no announcements merged)
            await fake.wait_for(lambda b=boards: len(board_messages(fake, world)) > b, timeout=15)
            kinds = [logged.event.kind for logged in live.match.events(None, version)]
            story.see(kinds, live.match.state)
        assert live.match.is_over
        assert story.done, sorted(set(GOALS) - story.reached)
        assert menu_road and spots and ways["dm-bid"] >= 3, ways
        assert {"dm-bribe", "dm-recruit", "dm-fight"} <= set(ways), ways
        await bot.host.wait_for_bots()
        check_bids_hidden(renders, posted, bids)
        seed = str(live.match.seed)
        await fake.wait_for(
            lambda: any(seed in m.text for m in fake.channel_messages(world.chan)), timeout=30
        )
        text = "\n".join(m.text for m in fake.channel_messages(world.chan))
        # the channel read it all: the bids revealed together, the bribe, the
        # hire, its end with week 3's horde of 8, the fight
        for line in (
            "Bids revealed: ",
            "The horde beats ",
            "he stays where he is, horde strength 8.",
            "with 3 Provisions",
            "with 4 Provisions",
        ):
            assert line in text, line
        png([m for m in fake.channel_messages(world.chan) if m.attachments][-1])


async def check_spots(
    fake: FakeDiscord, live: LiveMatch, user: FakeUser, seat: int, renders: Renders
) -> list[tuple[int, str]]:
    """The placement DM: the ghost spots image attached, its numbers those
    of the choices (1..n, one per legal placement). Returns the numbered
    placements drawn."""
    dm: FakeMessage = await fake.wait_for(latest_dm(fake, user, live), timeout=15)
    assert [a.filename for a in dm.attachments] == ["hand.png", "spots.png"], dm.attachments
    png(dm)
    labels = [b["label"] for b in dm.buttons()] or [
        o["label"] for s in dm.selects() for o in s["options"]
    ]
    legal = live.match.legal_notations(seat)
    drawn = renders.placements[-1]
    assert sorted(n for _, n in drawn) == sorted(legal)
    assert [number for number, _ in drawn] == list(range(1, len(legal) + 1))
    assert len(labels) == len(legal)
    assert all(label.startswith(f"{i + 1}. ") for i, label in enumerate(labels))
    return drawn


def check_bids_hidden(renders: Renders, posted: list[FakeMessage], bids: list[str]) -> None:
    """While someone still had to bid, no image showed a bid: every view the
    renderer got then holds no revealed bid (the observer's own bid only);
    and no board posted before the last bid named a bid's cards."""
    during = [(name, v) for name, v in renders.views if v.auction is not None and v.auction.bidders]
    assert {name for name, _ in during} >= {"render_board", "render_private"}, during
    for _, view in during:
        assert not view.auction.bids
        assert view.auction.own_bid is None or view.observer is not None
    names = {card_name(c) for bid in bids for c in bid.split()[1:]}
    assert posted
    for message in posted:
        assert not any(name in message.text for name in names), message.text


async def test_the_defender_is_pinged_and_the_clock_answers_buff_for_them(
    fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Buff attacks a hero: its owner is pinged (the board mentions them, a
    DM holds the bribe / recruit / fight choice), reminded at half time, and
    when their clock (fast: a few seconds a decision) runs out the host
    answers for them as for any absent player: the ``normal`` bot's choice
    (a random legal one while a game has no bots), one of the three answers,
    and the match goes on."""
    monkeypatch.setattr(secrets, "randbits", lambda bits: SEED)
    world = World(fake, tmp_path / "g.db")
    bot = world.make_bot(fast_seconds=10.0, fast_bank_seconds=0.0, tick_seconds=0.1)
    async with fake.running(bot):
        res = await fake.slash(
            world.alice,
            world.chan,
            "lobby create",
            game="battalia",
            seats=SEATS,
            options=OPTIONS,
            clock="fast",
        )
        assert res.ephemeral, res.text
        for user in (world.bob, world.eve):
            await fake.slash(user, world.chan, "lobby join")
        await fake.slash(world.alice, world.chan, "lobby start")
        live = live_match(bot, world.chan)
        story = Story()
        while True:
            pending = live.match.pending()
            assert pending, "the match ended before Buff attacked a hero"
            seat = sorted(pending)[0]
            if pending[seat].kind == "buff-answer":
                break
            version = live.version
            user = world.users[live.user_of(seat)]
            notation = story.choose(live.match.state, seat)
            await fake.slash(user, world.chan, "play", move=notation)
            await fake.wait_for(lambda v=version: live.version > v, timeout=15)
            story.see((e.event.kind for e in live.match.events(None, version)), live.match.state)
        defender = world.users[live.user_of(seat)]
        version = live.version
        legal = live.match.legal_notations(seat)
        assert {n.split()[0] for n in legal} == {"bribe", "recruit", "fight"}
        dm: FakeMessage = await fake.wait_for(latest_dm(fake, defender, live), timeout=15)
        assert "Buff" in dm.text and ("Your turn" in dm.text or "À vous" in dm.text), dm.text
        await fake.wait_for(
            lambda: next(
                (
                    m
                    for m in reversed(board_messages(fake, world))
                    if f"<@{defender.id}>" in m.content and "Buff attacks your hero" in m.text
                ),
                None,
            ),
            timeout=15,
        )
        assert live.match.version == version
        # nobody answers: the reminder, then the clock's answer
        await fake.wait_for(
            lambda: any("⏰" in m.text for m in fake.dm_messages(defender)), timeout=20
        )
        await fake.wait_for(lambda: live.version > version, timeout=30)
        seat_played, played = live.match.record().actions[version][:2]
        assert seat_played == seat and played.split()[0] in ("bribe", "recruit", "fight")
        assert played in legal
        assert not live.match.is_over and live.match.pending()
        # the channel says the host played for them (it said nothing)
        told = f"⏰ {live.names[seat]} ran out of time: the host played for them."
        await fake.wait_for(
            lambda: any(told in m.text for m in fake.channel_messages(world.chan)), timeout=15
        )
        await bot.host.wait_for_bots()


async def test_a_new_user_plays_a_whole_game_against_two_bots(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """Someone the bot has never seen opens ``/lobby create game:Battalia``
    for three, adds an easy and a normal bot, starts, and plays every one of
    their decisions with the components of the DMs (buttons, staged menus,
    numbered spots), a random legal choice each time, to the end. Options:
    ``week_limit=2`` (the match ends after two weeks, Buff's first auction
    included)."""
    world = World(fake, tmp_path / "g.db")
    newcomer = fake.add_user("newcomer", guild=world.guild)
    bot = world.make_bot()
    async with fake.running(bot):
        # the game as the newcomer picks it in Discord's list: « Battalia »
        create = next(o for o in fake.command("lobby")["options"] if o["name"] == "create")
        game = next(o for o in create["options"] if o["name"] == "game")
        assert {"name": "Battalia", "value": "battalia"} in [
            {"name": c["name"], "value": c["value"]} for c in game["choices"]
        ]
        res = await fake.slash(
            newcomer, world.chan, "lobby create", game="battalia", seats=3, options="week_limit=2"
        )
        assert res.ephemeral, res.text
        for level in ("easy", "normal"):
            res = await fake.slash(newcomer, world.chan, "lobby addbot", level=level)
            assert res.ephemeral, res.text
        await fake.slash(newcomer, world.chan, "lobby start")
        live = live_match(bot, world.chan)
        [seat] = live.seats_of(newcomer.id)
        chooser = rng.seed_state(15, "newcomer")
        played = 0
        for _ in range(2000):
            await fake.wait_for(
                lambda: live.match.is_over or seat in live.match.pending(), timeout=60
            )
            await bot.host.wait_for_bots()  # (the bots' bids come with ours)
            if live.match.is_over:
                break
            legal = live.match.legal_notations(seat)
            index, chooser = rng.randbelow(chooser, len(legal))
            await play_by_menu(fake, bot, live, newcomer, seat, legal[index])
            played += 1
        assert live.match.is_over and played > 20
        seed = str(live.match.seed)
        await fake.wait_for(
            lambda: any(seed in m.text for m in fake.channel_messages(world.chan)), timeout=30
        )
        outcome = live.match.outcome()
        assert outcome is not None and outcome.reason in ("weeks", "no-placement", "full")
        # the bots' decisions name them, they ping no one (it read "<@-1>: Your turn")
        channel = fake.channel_messages(world.chan)
        assert not [m.text for m in channel if "<@-" in m.text or "<@-" in m.content]
        assert any("Bot 1 (★): " in m.text for m in channel)
        kinds = {logged.event.kind for logged in live.match.events(None)}
        assert {"auction", "buff-enter"} <= kinds  # the bots bid too
        png(board_messages(fake, world)[-1])
        await bot.host.wait_for_bots()
