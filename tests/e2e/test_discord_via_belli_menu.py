"""End to end: a Via Belli move picked in steps (card, anchor, spot) through
the selects of the private view, with the spots as numbered ghost outlines;
a stale step answers cleanly and a restart in between changes nothing.
"""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.discord import GueridonBot
from bot.menu import page_count
from bot.service import LiveMatch
from engine import GAMES, MenuStep
from engine.games.via_belli import Summon
from tests.e2e.test_discord_between_battle import World, live_match, pending_user, png
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord.serve() as f:
        yield f


async def start_via_belli(world: World) -> None:
    fake = world.fake
    res = await fake.slash(
        world.alice, world.chan, "lobby create", game="via-belli", seats=2, options="table=gueridon"
    )
    assert res.ephemeral, res.text
    await fake.slash(world.bob, world.chan, "lobby join")
    await fake.slash(world.alice, world.chan, "lobby start")
    await fake.wait_for(lambda: any(m.attachments for m in fake.channel_messages(world.chan)))


async def menu_dm(fake: FakeDiscord, user: FakeUser, live: LiveMatch) -> FakeMessage:
    """The DM holding the first level of the menu of the current version."""
    prefix = f"gp:{live.id}:{live.version}:"

    def find() -> FakeMessage | None:
        for m in reversed(fake.dm_messages(user)):
            if any(s["custom_id"].startswith(prefix) for s in m.selects()):
                return m
        return None

    found: FakeMessage = await fake.wait_for(find)
    return found


def option(message: FakeMessage, starts: tuple[str, ...]) -> tuple[str, dict[str, Any]]:
    """The custom_id of the select and the first option whose label starts so."""
    for select in message.selects():
        for opt in select["options"]:
            if opt["label"].startswith(starts):
                return select["custom_id"], opt
    raise AssertionError(f"no option starting with {starts} in {message.selects()}")


def check_limits(message: FakeMessage) -> None:
    selects = message.selects()
    assert 0 < len(selects) <= 5
    for select in selects:
        assert 0 < len(select["options"]) <= 25
        assert len(select["custom_id"]) <= 100


async def choose(
    fake: FakeDiscord, user: FakeUser, message: FakeMessage, custom_id: str, value: str
) -> FakeMessage:
    """Pick a value; return the ephemeral answer (the next level or a refusal)."""
    res = await fake.select(user, message, custom_id, values=[value])
    assert res.acknowledged
    followups = await res.wait_followups(1, timeout=15)
    answer = followups[-1]
    assert answer.ephemeral
    return answer


SUMMON = ("Summon", "Invoquer")


async def test_summon_in_three_selects_with_ghost_outlines(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    world = World(fake, tmp_path / "g.db")
    bot = world.make_bot()
    async with fake.running(bot):
        await start_via_belli(world)
        live = live_match(bot, world.chan)
        user, seat = pending_user(world, live)
        version = live.version
        units_before = len(live.match.state.units)
        dm = await menu_dm(fake, user, live)
        check_limits(dm)
        # 1. the card
        custom_id, card = option(dm, SUMMON)
        # (typing instead: autocomplete narrows to that card's placements as one types)
        name = card["description"]
        choices = await fake.autocomplete(user, world.chan, "play", option="move", value=name)
        assert 0 < len(choices) <= 25
        assert all(name.lower() in c["name"].lower() for c in choices)
        placement = next(c["value"] for c in choices if c["value"].startswith(f"{name} "))
        assert isinstance(live.game.parse_action(placement), Summon)
        narrowed = await fake.autocomplete(
            user, world.chan, "play", option="move", value=placement[:-1]
        )
        assert placement in [c["value"] for c in narrowed]
        assert all(placement[:-1].lower() in c["name"].lower() for c in narrowed)
        assert len(narrowed) <= 4  # face up or in ambush, standing or lying
        level2 = await choose(fake, user, dm, custom_id, card["value"])
        check_limits(level2)
        assert card["label"] in level2.text  # what was chosen so far
        assert live.version == version  # narrowing plays nothing
        # 2. the anchor card
        custom_id, anchor = option(level2, ("against", "contre"))
        level3 = await choose(fake, user, level2, custom_id, anchor["value"])
        check_limits(level3)
        assert anchor["label"] in level3.text
        # 3. the spot: numbered options and the same numbers drawn on a private image
        assert level3.attachments and level3.attachments[0].filename == "spots.png"
        png(level3)
        labels = [o["label"] for s in level3.selects() for o in s["options"]]
        assert labels[0].startswith("1. ") and labels[-1].startswith(f"{len(labels)}. ")
        custom_id = level3.selects()[-1]["custom_id"]
        spot = level3.selects()[-1]["options"][-1]
        notation = spot["description"]
        boards = len([m for m in fake.channel_messages(world.chan) if m.attachments])
        res = await fake.select(user, level3, custom_id, values=[spot["value"]])
        await res.wait_followups(1, timeout=15)
        await fake.wait_for(lambda: live.version == version + 1)
        assert notation in res.followups[-1].text
        # the card is on the table, where the spot said, in one line of the record
        action = live.game.parse_action(notation)
        assert isinstance(action, Summon)
        state = live.match.state
        assert len(state.units) == units_before + 1
        assert any(
            (u.x, u.y, u.landscape, u.owner) == (action.x, action.y, action.landscape, seat)
            for u in state.units
        )
        assert [a[2] for a in await bot.host.store.match_actions(live.id)] == [notation]
        # a new board is posted
        await fake.wait_for(
            lambda: len([m for m in fake.channel_messages(world.chan) if m.attachments]) > boards
        )
        # the spot level is spent; an older level is stale and says so
        assert fake.message(level3.id).selects() == []
        custom_id, anchor = option(level2, ("against", "contre"))
        stale = await choose(fake, user, level2, custom_id, anchor["value"])
        assert "changed" in stale.text or "changé" in stale.text
        assert live.version == version + 1


async def test_a_restart_between_two_steps(fake: FakeDiscord, tmp_path: Path) -> None:
    world = World(fake, tmp_path / "g.db")
    bot: GueridonBot = world.make_bot()
    await fake.start_client(bot)
    await start_via_belli(world)
    live = live_match(bot, world.chan)
    user, _ = pending_user(world, live)
    version = live.version
    dm = await menu_dm(fake, user, live)
    custom_id, card = option(dm, SUMMON)
    level2 = await choose(fake, user, dm, custom_id, card["value"])
    await fake.stop_client(bot)

    bot2 = world.make_bot()
    async with fake.running(bot2):
        again = live_match(bot2, world.chan)
        assert again.version == version
        custom_id, anchor = option(level2, ("against", "contre"))
        level3 = await choose(fake, user, level2, custom_id, anchor["value"])
        assert level3.attachments
        select = level3.selects()[0]
        first = select["options"][0]
        res = await fake.select(user, level3, select["custom_id"], values=[first["value"]])
        await res.wait_followups(1, timeout=15)
        await fake.wait_for(lambda: again.version == version + 1)
        assert first["description"] in res.followups[-1].text
        row = await bot2.host.store.match(again.id)
        assert row is not None and row.version == version + 1


async def test_a_spot_step_reached_by_typing_shows_numbered_spots(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    world = World(fake, tmp_path / "g.db")
    bot = world.make_bot()
    async with fake.running(bot):
        await start_via_belli(world)
        live = live_match(bot, world.chan)
        user, seat = pending_user(world, live)
        for step in range(2):  # "+", then the first card and anchor
            version = live.version
            move = "+" if step == 0 else live.match.legal_notations(seat)[0]
            res = await fake.slash(user, world.chan, "play", move=move)
            assert res.ephemeral
            await fake.wait_for(lambda v=version: live.version > v)
        assert live.match.state.phase == "spot"
        version = live.version
        legal = live.match.legal_notations(seat)
        prefix = f":{live.id}:{version}:{seat}:"

        def find() -> FakeMessage | None:
            for m in reversed(fake.dm_messages(user)):
                ids = [c["custom_id"] for c in m.buttons() + m.selects()]
                if ids and prefix in ids[0]:
                    return m
            return None

        dm: FakeMessage = await fake.wait_for(find)
        assert [a.filename for a in dm.attachments] == ["hand.png", "spots.png"]
        buttons = dm.buttons()
        options = [o for c in dm.selects() for o in c["options"]]
        labels = [b["label"] for b in buttons] or [o["label"] for o in options]
        assert len(labels) == len(legal)
        assert all(label.startswith(f"{i + 1}. ") for i, label in enumerate(labels))
        if buttons:
            await fake.click(user, dm, custom_id=buttons[-1]["custom_id"])
        else:
            select = dm.selects()[-1]
            value = select["options"][-1]["value"]
            await fake.select(user, dm, select["custom_id"], values=[value])
        await fake.wait_for(lambda: live.version == version + 1)
        assert live.match.record().actions[-1][1] == legal[-1]


async def test_a_long_level_is_paged(
    fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A menu whose second level holds every complete action (more than 125):
    pages of selects, the last option of a page opening the next."""
    game = GAMES["via-belli"]

    def one_long_level(state: Any, seat: int, locale: str = "en") -> list[Any]:
        group = MenuStep("all", "All")
        return [
            (a, (group, MenuStep(game.format_action(a), game.format_action(a))))
            for a in game.complete_actions(state, seat)
        ]

    monkeypatch.setattr(game, "action_menu", one_long_level)
    # a fixed match seed: the first turn then offers 233 complete actions (the
    # count depends on the deal; a random seed could fall under 125)
    monkeypatch.setattr(secrets, "randbits", lambda bits: 3)
    world = World(fake, tmp_path / "g.db")
    bot = world.make_bot()
    async with fake.running(bot):
        await start_via_belli(world)
        live = live_match(bot, world.chan)
        user, seat = pending_user(world, live)
        version = live.version
        complete = [game.format_action(a) for a in game.complete_actions(live.match.state, seat)]
        assert len(complete) > 125
        dm = await menu_dm(fake, user, live)
        select = dm.selects()[0]
        level = await choose(fake, user, dm, select["custom_id"], "c0")
        seen: list[str] = []
        for _ in range(page_count(len(complete))):
            check_limits(level)
            options = [o for s in level.selects() for o in s["options"]]
            assert options[-1]["value"].startswith("p")
            seen += [o["label"] for o in options if o["value"].startswith("c")]
            last = level.selects()[-1]
            level = await choose(fake, user, level, last["custom_id"], options[-1]["value"])
        # every action once, in order, numbered across the pages (the ghost outlines'
        # numbers: this level holds placements)
        assert seen == [f"{i + 1}. {n}" for i, n in enumerate(complete)]
        # back on the first page: play its first choice
        first = level.selects()[0]
        res = await fake.select(user, level, first["custom_id"], values=["c0"])
        await res.wait_followups(1, timeout=15)
        await fake.wait_for(lambda: live.version == version + 1)
        assert live.match.record().actions[-1][1] == complete[0]
