"""End to end (issue 14): Chroniques de Liber through the real discord.py
client on the fake Discord.

* a new player pastes a deck list, opens a Liber lobby with it, adds a
  ``hard`` bot and plays the match to its end with the staged menus, the
  buttons and ``/play`` (its autocomplete offering the full notation);
* reactions: an attack declared against a player opens a window; that player
  is sent a DM with buttons (block / pass ...), answers there, and a window
  left alone is decided by the clock, as any pending decision;
* a 3-player match with decks built from pasted lists, played to its end;
* the staged menus of compound moves: card → line → place, attacker →
  target, the blocker, and the distributions of Ravage and Honneur du
  guerrier.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.discord import GueridonBot
from bot.i18n import game_text, t
from bot.service import LiveMatch
from engine import GAMES, BadNotation, rng
from engine.games.liber import deck as rules
from engine.games.liber.actions import format_action, parse_action
from engine.games.liber.data import decks_by_id
from tests.bot.textcheck import problems
from tests.e2e.random_match import play_random_match, typed_move
from tests.e2e.test_discord_between_battle import World, live_match, match_chan, png
from tests.e2e.test_discord_every_game import _texts
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser, InteractionResult

GAME = GAMES["liber"]


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord.serve() as f:
        yield f


def ready_list(deck_id: str) -> str:
    spec = decks_by_id()[deck_id]
    return rules.deck_list_text(spec.general, spec.cards)


# A deck built for the compound moves: Ravage (Mage de guerre), Honneur du
# guerrier (Chevalier), éphémères for the windows, blockers, cheap units.
MENU_DECK = (
    "aldric",
    (
        ("mage-de-guerre", 4),
        ("chevalier", 4),
        ("chaines-de-glace", 4),
        ("dague-empoisonnee", 4),
        ("paysan", 4),
        ("milicien", 4),
        ("fantassin", 4),
        ("archer", 4),
        ("porte-bouclier", 4),
        ("sergent", 4),
        ("berserker", 4),
        ("pillard", 4),
        ("recrue", 2),
    ),
)


def menu_list() -> str:
    return rules.deck_list_text(*MENU_DECK)


def menu_code() -> str:
    return rules.deck_code(*MENU_DECK)


# ---------------------------------------------------------------------------
# The DMs and their components
# ---------------------------------------------------------------------------


def _acts_on(message: FakeMessage, live: LiveMatch, seat: int, version: int) -> bool:
    marks = (f"gm:{live.id}:{version}:{seat}:", f"gs:{live.id}:{version}:{seat}:")
    marks += (f"gp:{live.id}:{version}:{seat}:",)
    return any(
        str(c.get("custom_id", "")).startswith(marks)
        for c in message.all_components()
        if c.get("type") in (2, 3)
    )


async def choices_dm(
    fake: FakeDiscord, user: FakeUser, live: LiveMatch, seat: int, version: int
) -> FakeMessage:
    """The DM whose components act on this version of the match for this seat."""

    def find() -> FakeMessage | None:
        for message in reversed(fake.dm_messages(user)):
            if _acts_on(message, live, seat, version):
                return message
        return None

    found: FakeMessage = await fake.wait_for(find, timeout=15)
    return found


def check_limits(message: FakeMessage) -> None:
    """What Discord itself enforces, checked again where the host builds it."""
    selects = message.selects()
    assert len(selects) <= 5 and len(message.buttons()) <= 25
    for select in selects:
        assert 0 < len(select["options"]) <= 25
        assert len(select["custom_id"]) <= 100
        for option in select["options"]:
            assert 0 < len(option["label"]) <= 100 and len(option["value"]) <= 100
            assert len(option.get("description") or "") <= 100
    for button in message.buttons():
        assert 0 < len(button.get("label") or "") <= 80


def _is_notation(text: str) -> bool:
    """A select option's description that is an action's notation, shown bare
    (``attack f5 1a2``, ``next``): no prose, in no language."""
    try:
        return format_action(parse_action(text)) == text
    except BadNotation:
        return False


class Walker:
    """Plays one seat's chosen action through its private view: a button or a
    select of the flat layout, or the menu's levels one select at a time
    (each next level comes ephemerally). Records every menu path walked."""

    def __init__(self, fake: FakeDiscord, bot: GueridonBot, live: LiveMatch) -> None:
        self.fake, self.bot, self.live = fake, bot, live
        self.paths: list[tuple[str, list[str]]] = []  # (notation, the steps' keys)
        self.flat: list[tuple[str, str]] = []  # (decision kind, notation) played flat
        self.texts: list[tuple[str, str]] = []  # (language, text) of the DMs and levels

    async def play(self, user: FakeUser, seat: int, notation: str, locale: str) -> None:
        live, fake = self.live, self.fake
        version = live.version
        decision = live.match.pending()[seat]
        message = await choices_dm(fake, user, live, seat, version)
        check_limits(message)
        self.texts.append((locale, message.text))
        menu = self.bot.menu_for(live, seat, locale)
        index = [n for n, _ in menu.entries].index(notation)
        buttons = [b for b in message.buttons() if b["custom_id"].startswith("gm:")]
        if buttons:
            await fake.click(user, message, custom_id=buttons[index]["custom_id"])
            self.flat.append((decision.kind, notation))
        elif any(s["custom_id"].startswith("gs:") for s in message.selects()):
            await self._pick(user, message, str(index))
            self.flat.append((decision.kind, notation))
        else:
            await self._walk(user, message, menu, index, notation, locale)
        await fake.wait_for(lambda: live.version > version, timeout=15)

    async def _pick(self, user: FakeUser, message: FakeMessage, value: str) -> InteractionResult:
        for select in message.selects():
            if any(o["value"] == value for o in select["options"]):
                return await self.fake.select(user, message, select["custom_id"], values=[value])
        raise AssertionError(f"no option {value} in {message.selects()}")

    async def _walk(
        self,
        user: FakeUser,
        message: FakeMessage,
        menu: Any,
        index: int,
        notation: str,
        locale: str,
    ) -> None:
        path = next(p for p, node in menu.leaves() if node.entry == index)
        keys = [step.key for step in menu.entries[index][1]]
        for depth, child in enumerate(path):
            value = f"c{child}"
            while not any(o["value"] == value for s in message.selects() for o in s["options"]):
                # a long level: turn the page
                turn = next(
                    o["value"]
                    for s in message.selects()
                    for o in s["options"]
                    if o["value"][0] == "p"
                )
                res = await self._pick(user, message, turn)
                message = (await res.wait_followups(1, timeout=15))[-1]
            label = next(
                o["label"] for s in message.selects() for o in s["options"] if o["value"] == value
            )
            res = await self._pick(user, message, value)
            assert res.acknowledged
            if depth < len(path) - 1:
                message = (await res.wait_followups(1, timeout=15))[-1]
                assert message.ephemeral
                check_limits(message)
                assert label in message.text  # what was chosen so far
                self.texts.append((locale, message.text))
            else:
                answer = (await res.wait_followups(1, timeout=15))[-1]
                assert notation in answer.text, answer.text
        self.paths.append((notation, keys))


async def typed(fake: FakeDiscord, world: World, user: FakeUser, notation: str, lang: str) -> None:
    """``/play`` typed with autocomplete: its first word narrows the list,
    the full notation is offered with its label, then played."""
    head = notation.split(" ")[0]
    choices = await fake.autocomplete(user, world.chan, "play", option="move", value=head)
    assert 0 < len(choices) <= 25
    assert all(head in c["name"].lower() for c in choices)
    full = await fake.autocomplete(user, world.chan, "play", option="move", value=notation)
    assert notation in [c["value"] for c in full], (notation, full)
    named = next(c["name"] for c in full if c["value"] == notation)
    assert named.startswith(notation) and len(named) <= 100
    res = await fake.slash(user, world.chan, "play", move=notation)
    assert res.ephemeral
    assert "Played" in res.text or "joué" in res.text, (notation, res.text)


# ---------------------------------------------------------------------------
# Test 1: a new player's deck against a hard bot
# ---------------------------------------------------------------------------


async def test_a_new_player_builds_a_deck_and_plays_it_against_a_hard_bot(
    fake: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.ERROR)
    world = World(fake, tmp_path / "g.db")
    eve = world.eve  # never used the bot before
    bot = world.make_bot(bot_seconds=0.2)
    async with fake.running(bot):
        bot.host._seed_source = lambda: 14  # the same shuffles on every run
        res = await fake.slash(
            eve, world.chan, "deck create", name="Ma foi", list=ready_list("foi")
        )
        assert res.ephemeral and "Deck saved" in res.text, res.text
        res = await fake.slash(
            eve, world.chan, "lobby create", game="liber", seats=2, deck="Ma foi"
        )
        assert res.ephemeral, res.text
        lobby = fake.last_message(world.chan)
        assert lobby is not None and "Ma foi" in lobby.text
        await fake.slash(eve, world.chan, "lobby addbot", level="hard")
        await fake.slash(eve, world.chan, "lobby start")
        live = live_match(bot, world.chan)
        spec = decks_by_id()["foi"]
        assert live.match.options.decks[0] == rules.deck_code(spec.general, spec.cards)
        assert live.bot_levels == {1: "hard"}
        walker = Walker(fake, bot, live)
        chooser = rng.seed_state(14, "hard")
        moves = 0
        while not live.match.is_over and moves < 600:
            await fake.wait_for(lambda: live.match.is_over or 0 in live.match.pending(), 60)
            if live.match.is_over:
                break
            legal = live.match.legal_notations(0)
            index, chooser = rng.randbelow(chooser, len(legal))
            notation = legal[index]
            if moves == 0:  # the first move: a unit, card → line → place
                menu = bot.menu_for(live, 0, "en")
                notation = next(n for n, path in menu.entries if len(path) >= 3)
            if moves % 3 == 2:
                version = live.version
                await typed(fake, world, eve, notation, "en")
                await fake.wait_for(lambda v=version: live.version > v, timeout=15)
            else:
                await walker.play(eve, 0, notation, "en")
            moves += 1
        assert live.match.is_over, moves
        seed = str(live.match.seed)
        played = match_chan(fake, live)  # its thread, archived at the end
        await fake.wait_for(
            lambda: any(seed in m.text for m in fake.channel_messages(played)), timeout=30
        )
        await bot.host.wait_for_bots()
        final = [m for m in fake.channel_messages(played) if m.attachments][-1]
        png(final)
        assert t("en", "result-title") in final.text
        row = await bot.host.store.match(live.id)
        assert row is not None and row.status == "finished"
        # the staged menus were walked on the way (card → line → place at least)
        assert any(keys[0].startswith("play:") and len(keys) >= 3 for _, keys in walker.paths)
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, [f"{r.name}: {r.getMessage()}" for r in errors]
    bad = [p for lang, text in walker.texts for p in problems(text, lang, ("eve",))]
    assert not bad, bad


# ---------------------------------------------------------------------------
# Helpers for matches between people
# ---------------------------------------------------------------------------


async def people_match(
    fake: FakeDiscord,
    world: World,
    bot: GueridonBot,
    users: list[FakeUser],
    decks: list[str],
    options: str = "",
    seed: int = 14,
) -> LiveMatch:
    """Each user pastes their deck list (``/deck create``), then the first
    opens a lobby with it, the others join with theirs, and it starts (with
    this match seed: the shuffles, so the match, are the same on every run)."""
    bot.host._seed_source = lambda: seed
    for user, text in zip(users, decks, strict=True):
        res = await fake.slash(user, world.chan, "deck create", name="Mon deck", list=text)
        assert res.ephemeral and ("saved" in res.text or "enregistré" in res.text), res.text
    first, *others = users
    await fake.slash(
        first,
        world.chan,
        "lobby create",
        game="liber",
        seats=len(users),
        deck="Mon deck",
        options=options,
    )
    for user in others:
        await fake.slash(user, world.chan, "lobby join", deck="Mon deck")
    await fake.slash(first, world.chan, "lobby start")
    return live_match(bot, world.chan)


async def drive(
    fake: FakeDiscord,
    world: World,
    live: LiveMatch,
    chooser: int,
    until: Callable[[], bool],
    pick: Callable[[int, list[str], int], tuple[int, int]] | None = None,
    walker: Walker | None = None,
    limit: int = 3000,
) -> int:
    """Play seeded random moves (or ``pick``'s) for the people of the match
    until ``until()`` or the end; through the walker's components when given,
    else ``/play``."""
    for _ in range(limit):
        if live.match.is_over or until():
            return chooser
        seat = sorted(live.match.pending())[0]
        legal = live.match.legal_notations(seat)
        if pick is not None:
            index, chooser = pick(seat, legal, chooser)
        else:
            index, chooser = rng.randbelow(chooser, len(legal))
        user = world.users[live.user_of(seat)]
        version = live.version
        if walker is not None:
            await walker.play(user, seat, legal[index], "en" if user.locale != "fr" else "fr")
        else:
            res = await fake.slash(user, world.chan, "play", move=legal[index])
            assert res.ephemeral, res.text
            await fake.wait_for(lambda v=version: live.version > v, timeout=15)
    raise AssertionError("the match did not reach the expected point")


def _attack_first(seat: int, legal: list[str], chooser: int) -> tuple[int, int]:
    """Random, but an attack when there is one (three times in four): the
    windows come sooner."""
    attacks = [i for i, n in enumerate(legal) if n.startswith("attack ")]
    roll, chooser = rng.randbelow(chooser, 4)
    if attacks and roll:
        k, chooser = rng.randbelow(chooser, len(attacks))
        return attacks[k], chooser
    return rng.randbelow(chooser, len(legal))


def attack_window(live: LiveMatch) -> int | None:
    """The seat reacting to an attack declared against it, if any."""
    for seat, decision in live.match.pending().items():
        if decision.kind == "react" and decision.param("window") == "attack":
            return seat
    return None


# ---------------------------------------------------------------------------
# Test 2: reactions by DM, and the clock on a window
# ---------------------------------------------------------------------------


async def test_an_attack_window_is_asked_by_dm_with_buttons_and_is_on_the_clock(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    world = World(fake, tmp_path / "g.db")
    bot = world.make_bot()
    now = [1_000_000.0]
    async with fake.running(bot):
        bot.host.now = lambda: now[0]
        users = [world.alice, world.bob]
        live = await people_match(fake, world, bot, users, [ready_list("aggro"), menu_list()])
        walker = Walker(fake, bot, live)
        chooser = rng.seed_state(14, "windows")

        def blockable() -> bool:
            seat = attack_window(live)
            return seat is not None and any(
                n.startswith("block ") for n in live.match.legal_notations(seat)
            )

        chooser = await drive(fake, world, live, chooser, blockable, pick=_attack_first)
        seat = attack_window(live)
        assert seat is not None
        user = world.users[live.user_of(seat)]
        lang = "fr" if user.locale == "fr" else "en"
        version = live.version
        # the board in the channel mentions the reacting player
        await fake.wait_for(
            lambda: any(
                f"<@{user.id}>" in (m.content or "") and m.attachments
                for m in fake.channel_messages(world.chan)[-3:]
            ),
            timeout=15,
        )
        # a DM with the window's buttons: block (each blocker), éphémères, pass
        dm = await choices_dm(fake, user, live, seat, version)
        png(dm)
        legal = live.match.legal_notations(seat)
        menu = bot.menu_for(live, seat, lang)
        # block with each blocker and pass are buttons, one click each (an
        # éphémère that takes a target makes it a menu: its target comes next)
        assert menu.flat, [n for n, _ in menu.entries]
        buttons = dm.buttons()
        assert [b["custom_id"] for b in buttons] == [
            f"gm:{live.id}:{version}:{seat}:{i}" for i in range(len(legal))
        ]
        assert buttons[legal.index("pass")]["label"] == game_text(
            lang, GAME.describe_action(live.match.state, seat, GAME.parse_action("pass"))
        )
        decision = live.match.pending()[seat]
        what = game_text(lang, GAME.decision_text(decision, names=live.names))
        assert t(lang, "to-act", who=t(lang, "your-turn"), what=what) in dm.text, dm.text
        assert not problems(dm.text, lang, ("alice", "bob"))
        # answered there: the block
        block = next(n for n in legal if n.startswith("block "))
        await walker.play(user, seat, block, lang)
        actions = await bot.host.store.match_actions(live.id)
        assert (actions[-1][1], actions[-1][2]) == (seat, block)
        # the next window is left alone: the clock decides it, as any decision,
        # but a window is optional (Decision.optional): no absence is counted
        chooser = await drive(
            fake, world, live, chooser, lambda: attack_window(live) is not None, pick=_attack_first
        )
        seat = attack_window(live)
        assert seat is not None
        version = live.version
        reacting = world.users[live.user_of(seat)]
        await choices_dm(fake, reacting, live, seat, version)  # asked by DM again
        legal = live.match.legal_notations(seat)
        clocks = await bot.host.store.clocks(live.id)
        since, per_move, bank, pending, _reminded, expiries = clocks[seat]
        assert pending and expiries == 0
        assert live.match.pending()[seat].optional
        boards = len(fake.channel_messages(world.chan))
        now[0] = since + per_move / 2 + 1
        await bot.host.tick()  # half time: a reminder, nothing played
        assert live.version == version
        assert any("⏰" in m.text for m in fake.dm_messages(reacting))
        now[0] = since + per_move + 1
        await bot.host.tick()
        await fake.wait_for(lambda: live.version > version, timeout=15)
        actions = await bot.host.store.match_actions(live.id)
        assert actions[version][1] == seat  # the window's seat decided (a bot for them)
        assert actions[version][2] in legal
        clocks = await bot.host.store.clocks(live.id)
        assert clocks[seat][5] == 0  # a window let pass is no absence
        assert clocks[seat][2] == bank  # and takes nothing from the bank
        await fake.wait_for(lambda: len(fake.channel_messages(world.chan)) > boards, timeout=15)


# ---------------------------------------------------------------------------
# Test 3: three players with built decks
# ---------------------------------------------------------------------------


async def test_three_players_with_built_decks_play_to_the_end(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    world = World(fake, tmp_path / "g.db", locale="fr")
    bot = world.make_bot()
    async with fake.running(bot):
        users = [world.alice, world.bob, world.eve]
        decks = [ready_list("tir"), ready_list("controle"), menu_list()]
        live = await people_match(fake, world, bot, users, decks)
        assert live.match.seats == 3
        codes = [
            rules.deck_code(decks_by_id()[d].general, decks_by_id()[d].cards)
            for d in ("tir", "controle")
        ]
        assert live.match.options.decks == (*codes, menu_code())
        await play_random_match(
            fake, world, live, rng.seed_state(3, "three"), move=typed_move(fake, world), timeout=15
        )
        outcome = live.match.outcome()
        assert outcome is not None and outcome.reason in {
            "general",
            "faith",
            "vp",
            "gold",
            "last-standing",
        }
        # what everyone reads in the channel (eve's private answers are English)
        texts = [
            m.text
            for chan in (match_chan(fake, live), world.lobby_chan)  # its thread, the lines
            for m in fake.channel_messages(chan)
            if not m.ephemeral
        ]
        bad = [p for text in texts for p in problems(text, "fr", ("alice", "bob", "eve"))]
        assert not bad, bad


# ---------------------------------------------------------------------------
# Test 4: the staged menus of compound moves
# ---------------------------------------------------------------------------


def kind_of(notation: str) -> str | None:
    """The compound move a notation is, for the coverage of the menus."""
    words = notation.split(" ")
    if words[0] == "play" and words[1] in EPHEMERES:
        return "ephemere"  # on a target (played in a window: Coverage.kind)
    if words[0] == "play" and len(words) == 4 and ":" in words[3]:
        return "ravage"
    if words[0] == "play" and words[1] in {c for c, _ in MENU_DECK[1]} and len(words) == 3:
        return "unit" if words[2][0] in "paf" and words[2][1:].isdigit() else None
    if words[0] == "attack":
        return "honneur" if "," in words[2] else "attack"
    if words[0] == "block":
        return "block"
    return None


EPHEMERES = ("chaines-de-glace", "dague-empoisonnee")
KINDS = ("unit", "ravage", "attack", "honneur", "block", "window-ephemere")
MENU_OPTIONS = "start_reserves=3 gold_to_win=999 vp_to_win=999 faith_to_win=99"
MENU_SEEDS = (19, 14)  # the match's seed, the players' chooser's (all kinds in 42 moves)


class Coverage:
    """Picks the players' moves: a compound move of a kind not played yet
    when there is one, else random (attacks first), éphémères kept for the
    windows; while the window's éphémère is missing, a player holding one
    ends their placement at once (gold kept for it)."""

    def __init__(self, match: Any) -> None:
        self.match = match
        self.seen: set[str] = set()
        self.window_spell = ""

    def done(self) -> bool:
        return self.seen >= set(KINDS)

    def kind(self, seat: int, notation: str) -> str | None:
        found = kind_of(notation)
        if found == "ephemere":
            window = self.match.pending()[seat].kind == "react"
            return "window-ephemere" if window else None
        return found

    def pick(self, seat: int, legal: list[str], chooser: int) -> tuple[int, int]:
        missing = set(KINDS) - self.seen
        wanted = [i for i, n in enumerate(legal) if self.kind(seat, n) in missing]
        if wanted:
            k, chooser = rng.randbelow(chooser, len(wanted))
            kind = str(self.kind(seat, legal[wanted[k]]))
            self.seen.add(kind)
            if kind == "window-ephemere":
                self.window_spell = legal[wanted[k]]
            return wanted[k], chooser
        decision = self.match.pending()[seat].kind
        hand = self.match.state.players[seat].hand
        spells = any(card in EPHEMERES for card in hand)
        if "window-ephemere" in missing and spells and decision == "placement":
            return legal.index("next"), chooser  # gold kept for the éphémère
        keep = [i for i, n in enumerate(legal) if kind_of(n) != "ephemere"]
        k, chooser = _attack_first(seat, [legal[i] for i in keep], chooser)
        return keep[k], chooser


async def test_compound_moves_are_picked_in_stages(fake: FakeDiscord, tmp_path: Path) -> None:
    world = World(fake, tmp_path / "g.db")
    bot = world.make_bot()
    async with fake.running(bot):
        users = [world.alice, world.bob]  # English, French
        # more gold a turn (Mage de guerre and Chevalier cost 6 and 7), only the
        # general's death ends it, and seeds with which every kind comes up
        decks = [menu_list(), menu_list()]
        live = await people_match(
            fake, world, bot, users, decks, options=MENU_OPTIONS, seed=MENU_SEEDS[0]
        )
        walker = Walker(fake, bot, live)
        cover = Coverage(live.match)
        await drive(
            fake,
            world,
            live,
            rng.seed_state(MENU_SEEDS[1], "menus"),
            cover.done,
            pick=cover.pick,
            walker=walker,
        )
        assert cover.done(), cover.seen
        shapes = {kind_of(n): keys for n, keys in walker.paths}
        # card → line → place
        play, line, place = shapes["unit"]
        assert play.startswith("play:") and line.startswith("line:") and place.startswith("place:")
        # card → line → place → the shares of Ravage's 3 damage
        play, line, place, shares = shapes["ravage"]
        assert play == "play:mage-de-guerre" and line.startswith("line:")
        assert ":" in shares.split(" ")[-1]
        # attacker → target
        attacker, target = shapes["attack"]
        assert attacker.startswith("attack:") and target.startswith("attack ")
        # attacker → the two targets → the split of Honneur du guerrier
        attacker, pair, split = shapes["honneur"]
        assert attacker.startswith("attack:") and pair.startswith("pair:") and "," in split
        # an éphémère in the opponent's turn (a window): the card, then its target
        spell = cover.window_spell
        card, target = next(keys for n, keys in walker.paths if n == spell)
        assert card.startswith("play:") and target == spell
        # the blocker: one choice in the window
        blocks = [n for k, n in walker.flat if n.startswith("block ")]
        blocks += [n for n, keys in walker.paths if n.startswith("block ") and len(keys) == 1]
        assert blocks
        # every DM each player got, menus' labels and details included, in
        # their language (alice English, bob French)
        names = ("alice", "bob")
        bad = [
            f"{p}: {text[:120]!r}"
            for user, lang in ((world.alice, "en"), (world.bob, "fr"))
            for message in fake.dm_messages(user)
            for text in _texts(message)
            if not _is_notation(text)
            for p in problems(text, lang, names)
        ]
        bad += [p for lang, text in walker.texts for p in problems(text, lang, names)]
        assert not bad, "\n".join(dict.fromkeys(bad))
