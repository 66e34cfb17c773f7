"""End to end: three real bot processes (``SHARD_COUNT=3``, one shard each) over one PostgreSQL
database and the fake Discord, killed (SIGKILL) and restarted while matches are played.

The fake routes each server's events to the session of its shard and direct messages to shard
0 (tests/fakediscord/gateway.py): a click on a DM button about any server's match reaches
process 0, which plays it on the match as the database has it. Each server (one per shard)
plays a quick match of two human players; the matches move concurrently, some moves typed
with ``/play`` in the match's thread, some clicked in the mover's DMs. Mid-match one process
is killed; the other matches go on; it is restarted and its match resumes and finishes. A
lobby left open in each server expires (a short ``LOBBY_TTL_HOURS``) while the three
processes tick.

Checked from the database and the fake at the end: every move a player saw accepted is in
``match_actions`` exactly once and nothing else is; versions are 1..n; every finished match
replays from its seed and actions to its stored state; each thread got one board per move
(none twice); a clock of a match whose process was not killed never moved while another
process was down, and the killed shard's clocks moved by about its downtime (frozen), no
more; every idle lobby is announced expired exactly once.

The default tier kills process 1 once; ``--full`` (``full_sweep``) plays rounds of three
matches until 20 kills spread over the three processes (shard 0's too: then DM clicks fail
with "This interaction failed" and the players type their moves) and prints the counts.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bot import Settings, create_bot
from bot.discord import GueridonBot
from bot.i18n import t
from bot.service import HostService, LiveMatch
from bot.shards import shard_of
from bot.store import MatchRow, Store
from engine.match import Match
from tests.fakediscord import (
    FakeChannel,
    FakeDiscord,
    FakeGuild,
    FakeMessage,
    FakeUser,
    InteractionNotDelivered,
)
from tests.fakediscord.processes import BotProcesses

SHARDS = 3
GAME = "between-battle"
#: 7.2 s: the matches' own lobbies are started well before, the idle ones expire mid-run
LOBBY_TTL_HOURS = 0.002
TICK = 0.5


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord.serve() as f:
        yield f


def refusals(text: str) -> list[str]:
    """The refusals a move must not meet, in both languages."""
    found = []
    for locale in ("en", "fr"):
        keys = (
            "match-closed",
            "stale",
            "internal-error",
            "not-your-turn",
            "illegal",
            "channel-busy",
        )
        for key in keys:
            if t(locale, key) in text:
                found.append(key)
    return found


def boards(fake: FakeDiscord, channel: FakeChannel) -> list[FakeMessage]:
    return [m for m in fake.channel_messages(channel, include_ephemeral=False) if m.attachments]


@dataclass
class Move:
    version: int  # the version the move made
    seat: int
    notation: str | None  # typed; None: a DM component (checked by seat)
    sent: float
    answered: float
    how: str  # "play" or "dm"


@dataclass(eq=False)
class Game:
    """One server (on one shard), its match and what its players saw."""

    shard: int
    guild: FakeGuild
    games: FakeChannel
    users: list[FakeUser]
    match_id: int = 0
    thread: FakeChannel | None = None
    moves: list[Move] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)  # held during one move
    paused: asyncio.Event = field(default_factory=asyncio.Event)  # set: the driver waits
    done: bool = False


async def db_match(store: Store, match_id: int) -> tuple[MatchRow, Match]:
    """The match as the database has it now (its row and actions read again if a process
    committed a move between the two reads)."""
    while True:
        row = await store.match(match_id)
        assert row is not None
        actions = await store.match_actions(match_id)
        if len(actions) == row.version:
            break
    record = row.record(actions)
    return row, Match.from_parts(record, row.snapshot, row.version)


def dm_component(
    fake: FakeDiscord, user: FakeUser, match_id: int, version: int
) -> tuple[FakeMessage, dict[str, object]] | None:
    """A component of the user's DMs that plays on ``version`` of the match."""
    prefixes = (f"gm:{match_id}:{version}:", f"gs:{match_id}:{version}:")
    for message in reversed(fake.dm_messages(user)):
        for comp in message.buttons() + message.selects():
            if str(comp.get("custom_id", "")).startswith(prefixes):
                return message, comp
    return None


class Run:
    """The servers, the processes and the checks of one run."""

    def __init__(self, fake: FakeDiscord, procs: BotProcesses, store: Store) -> None:
        self.fake = fake
        self.procs = procs
        self.store = store
        self.up = [asyncio.Event() for _ in range(SHARDS)]
        self.games: list[Game] = []
        self.finished: list[tuple[int, int]] = []  # (match, moves seen accepted) checked
        self.kills = 0
        self.lost = 0  # moves seen accepted, not stored
        self.duplicated = 0  # stored actions no player saw accepted (a move applied twice)
        self.dm_moves = 0
        self.typed_moves = 0

    # ---- set-up ----------------------------------------------------------------------------
    def add_servers(self) -> None:
        for shard in range(SHARDS):
            guild = self.fake.add_guild(f"Serveur {shard}", shard=(shard, SHARDS))
            games = self.fake.add_text_channel(guild, "jeux")
            users = [
                self.fake.add_user(f"p{shard}a"),
                self.fake.add_user(f"p{shard}b", locale="fr"),
            ]
            for user in users:
                self.fake.add_member(guild, user)
            self.games.append(Game(shard, guild, games, users))

    async def open_match(self, game: Game) -> None:
        """p?a opens a lobby (the quick options), p?b joins, p?a starts: the match's thread."""
        fake = self.fake
        alice, bob = game.users
        quick = "hp=3"
        seen = {m.id for m in fake.channel_messages(game.games)}
        res = await fake.slash(alice, game.games, "lobby create", game=GAME, options=quick)
        assert res.ephemeral and not refusals(res.text), res.text

        def posted() -> FakeMessage | None:
            # the lobby's message (the end of the previous match may be announced meanwhile)
            for m in fake.channel_messages(game.games, include_ephemeral=False):
                if m.id not in seen and any(b.get("label") == "Join" for b in m.buttons()):
                    return m
            return None

        lobby = await fake.wait_for(posted, timeout=10)
        await fake.click(bob, lobby, label="Join")
        await fake.click(alice, lobby, label="Start")
        thread_id = await fake.wait_for(lambda: fake.message(lobby.id).thread_id, timeout=10)
        game.thread = fake.channels[thread_id]
        thread = game.thread
        await fake.wait_for(lambda: boards(fake, thread), timeout=10)
        rows = [r for r in await self.store.active_matches() if r.guild_id == game.guild.id]
        [row] = rows
        assert row.channel_id == thread.id  # LiveMatch.channel_id: the thread
        game.match_id = row.id
        game.moves = []
        game.done = False

    async def leave_idle_lobby(self, game: Game) -> None:
        res = await self.fake.slash(game.users[1], game.games, "lobby create", game=GAME)
        assert res.ephemeral and not refusals(res.text), res.text

    # ---- playing -----------------------------------------------------------------------------
    async def move(self, game: Game, n: int) -> None:
        """The seat to move plays its first legal move: every other move of a match through
        its DMs (shard 0's process), unless shard 0 is down; the others with ``/play``."""
        fake = self.fake
        assert game.thread is not None
        thread = game.thread
        row, match = await db_match(self.store, game.match_id)
        seat = sorted(match.pending())[0]
        player = next(u for u in game.users if u.id == row.players[seat][0])
        shown = len(boards(fake, thread))
        sent = time.time()
        by_dm = n % 2 == 1 and self.up[0].is_set()
        if by_dm:
            found = await fake.wait_for(
                lambda: dm_component(fake, player, game.match_id, match.version), timeout=10
            )
            message, comp = found
            if comp["type"] == 2:
                res = await fake.click(player, message, custom_id=str(comp["custom_id"]))
            else:
                options = comp["options"]
                assert isinstance(options, list)
                value = options[0]["value"]
                res = await fake.select(player, message, str(comp["custom_id"]), [value])
            assert res.interaction is not None
            # the update of the DM is deferred; the confirmation (or a refusal) follows
            [answer] = await res.wait_followups(1, timeout=10)
            assert answer.ephemeral and not refusals(answer.text), answer.text
            notation = None
            self.dm_moves += 1
        else:
            notation = match.legal_notations(seat)[0]
            res = await fake.slash(player, thread, "play", move=notation)
            assert not refusals(res.text) and "⚠️" not in res.text, res.text
            self.typed_moves += 1
        answered = time.time()
        game.moves.append(
            Move(match.version + 1, seat, notation, sent, answered, "dm" if by_dm else "play")
        )
        # its board, in the match's thread (from whichever process played it); a loaded
        # 2-core machine (the --full tier runs beside other sweeps) may take seconds to
        # draw it: a board lost for good still fails here
        try:
            await fake.wait_for(lambda: len(boards(fake, thread)) > shown, timeout=30)
        except TimeoutError:
            where = f"/channels/{thread.id}/"
            requests = [r for r in fake.request_log if where in r[1]][-8:]
            row, _ = await db_match(self.store, game.match_id)
            raise AssertionError(
                f"no board for version {match.version + 1} of the match of shard"
                f" {game.shard} (move {n}, {'dm' if by_dm else 'play'}, sent at"
                f" {time.strftime('%H:%M:%S', time.localtime(sent))}, answered in"
                f" {answered - sent:.1f}s; the database's version {row.version}, status"
                f" {row.status}; the thread's last requests {requests})"
            ) from None

    async def drive(self, game: Game, stop_after: int | None = None) -> None:
        """Play the match to its end (or ``stop_after`` moves), waiting while the match's
        shard is down or the test has paused it."""
        n = len(game.moves)
        while not game.done and (stop_after is None or len(game.moves) < stop_after):
            await self.up[game.shard].wait()
            while game.paused.is_set():
                await asyncio.sleep(0.05)
            async with game.lock:
                if not self.up[game.shard].is_set():
                    continue
                row, _ = await db_match(self.store, game.match_id)
                if row.status != "active":
                    game.done = True
                    break
                await self.move(game, n)
                n += 1
                row, _ = await db_match(self.store, game.match_id)
                game.done = row.status != "active"
            await asyncio.sleep(0.02)

    # ---- kills -------------------------------------------------------------------------------
    async def clocks(self) -> dict[int, dict[int, tuple[float, bool]]]:
        found = {}
        for game in self.games:
            rows = await self.store.clocks(game.match_id)
            found[game.match_id] = {seat: (row[0], row[3]) for seat, row in rows.items()}
        return found

    async def kill_and_restart(self, k: int, downtime: float) -> None:
        """Kill process ``k`` between two moves of its match; one other match goes on, the
        third waits (its clocks are the witness); then restart it and check the clocks."""
        fake, procs = self.fake, self.procs
        killed = self.games[k]
        playing = self.games[(k + 1) % SHARDS]
        idle = self.games[(k + 2) % SHARDS]
        idle.paused.set()
        # between two moves of every match: none is in flight in the process killed (shard
        # 0's gets the DM clicks of every match)
        async with killed.lock, idle.lock, playing.lock:
            before = await self.clocks()
            versions = {
                g.match_id: (await db_match(self.store, g.match_id))[0].version for g in self.games
            }
            self.up[k].clear()
            t_kill = time.time()
            await procs.kill(k)
        print(f"{time.strftime('%H:%M:%S')} killed process {k}", flush=True)
        self.kills += 1
        moved = len(playing.moves)
        # its server's interactions are lost meanwhile ("This interaction failed")
        assert killed.thread is not None
        fake.ack_window = 0.5
        try:
            with pytest.raises(InteractionNotDelivered):
                await fake.slash(killed.users[0], killed.thread, "hand")
        finally:
            fake.ack_window = 3.0
        while time.time() - t_kill < downtime:
            await asyncio.sleep(0.05)
        # the other processes played on meanwhile
        assert len(playing.moves) > moved or playing.done, (
            [(m.how, m.sent - t_kill, m.answered - t_kill) for m in playing.moves],
            time.time() - t_kill,
        )
        t_start = time.time()
        async with killed.lock, idle.lock:
            await procs.restart(k)
            t_ready = time.time()
            after = await self.clocks()
            for game in self.games:
                row, _ = await db_match(self.store, game.match_id)
                if game in (killed, idle):
                    assert row.version == versions[game.match_id]
                for seat, (since, pending) in after[game.match_id].items():
                    old = before[game.match_id].get(seat)
                    if not pending or old is None or not old[1]:
                        continue
                    if game is killed:
                        # frozen while its process was down: moved by about the downtime
                        shift = since - old[0]
                        assert (
                            t_start - t_kill - 0.2 <= shift <= t_ready - t_kill + 2 * TICK + 0.5
                        ), (
                            shift,
                            t_start - t_kill,
                            t_ready - t_kill,
                        )
                    elif row.version == versions[game.match_id]:
                        # not moved here: its clock did not move either
                        assert since == old[0], (game.shard, seat, since, old[0])
            # a clock of a match that moved meanwhile started at its last move, not later
            for game in (playing, idle):
                if game.moves and not game.done:
                    last = game.moves[-1]
                    for since, pending in after[game.match_id].values():
                        if pending:
                            assert since <= last.answered + 0.05, (since, last)
        idle.paused.clear()
        self.up[k].set()

    # ---- the checks at the end --------------------------------------------------------------
    async def check_match(self, game: Game) -> None:
        row, _ = await db_match(self.store, game.match_id)
        assert row.status == "finished", (game.shard, row.status)
        actions = await self.store.match_actions(game.match_id)
        versions = [v for v, _, _, _ in actions]
        assert versions == list(range(1, len(actions) + 1)) and row.version == len(actions)
        # every move a player saw accepted, exactly once, and nothing else: a move is found
        # at the version it made, by its seat (the typed ones: its very text)
        stored = {v: (seat, action) for v, seat, action, _ in actions}
        found = {
            m.version
            for m in game.moves
            if m.version in stored
            and stored[m.version][0] == m.seat
            and m.notation in (None, stored[m.version][1])
        }
        self.lost += len(game.moves) - len(found)
        self.duplicated += len(actions) - len(found)
        assert [m.version for m in game.moves] == versions, (game.moves, actions)
        assert len(found) == len(game.moves), (game.moves, actions)
        # it replays from its seed and actions to its stored state
        record = row.record(actions)
        replayed = Match.replay(record)
        assert replayed.is_over and replayed.version == row.version
        assert json.loads(replayed.game.dump_state(replayed.state)) == json.loads(row.snapshot)
        # one board per move in its thread (and the first one): none lost, none twice
        assert game.thread is not None
        assert len(boards(self.fake, game.thread)) == 1 + len(actions)

    async def check_lobbies(self) -> None:
        texts = {t(locale, "lobby-expired") for locale in ("en", "fr")}

        def expired(game: Game) -> int:
            messages = self.fake.channel_messages(game.games, include_ephemeral=False)
            return sum(1 for m in messages if m.text.strip() in texts)

        await self.fake.wait_for(lambda: all(expired(g) >= 1 for g in self.games), timeout=20)
        await asyncio.sleep(3 * TICK)  # a second announcement would come by now
        assert [expired(g) for g in self.games] == [1] * SHARDS


async def play_round(run: Run, kills: list[int], downtime: float, idle_lobbies: bool) -> None:
    """A match in every server, played concurrently; ``kills`` processes killed one after the
    other mid-match (after a few moves of their match) and restarted. ``idle_lobbies``: a
    lobby is left open in every server, to expire."""
    await asyncio.gather(*(run.open_match(g) for g in run.games))
    if idle_lobbies:
        await asyncio.gather(*(run.leave_idle_lobby(g) for g in run.games))
    await asyncio.gather(*(run.drive(g, stop_after=2) for g in run.games))
    drivers = [asyncio.create_task(run.drive(g)) for g in run.games]
    try:
        for k in kills:
            # mid-match: its match has moves left
            if run.games[k].done:
                continue
            await run.kill_and_restart(k, downtime)
        await asyncio.gather(*drivers)
    finally:
        for task in drivers:
            task.cancel()
    for game in run.games:
        await run.check_match(game)
        run.finished.append((game.match_id, len(game.moves)))


async def test_three_shard_processes_killed_and_restarted_lose_no_move(
    fake: FakeDiscord, tmp_path: Path, postgres_url: str, full_sweep: bool
) -> None:
    started = time.monotonic()
    # migrated before the processes start, as a deployment does
    await (await HostService.open(postgres_url)).close()
    store = await Store.open(postgres_url)
    env = {"LOBBY_TTL_HOURS": str(LOBBY_TTL_HOURS), "TICK_SECONDS": str(TICK)}
    try:
        async with BotProcesses(
            fake, tmp_path / "procs", database=postgres_url, shard_count=SHARDS, env=env
        ) as procs:
            run = Run(fake, procs, store)
            run.add_servers()
            assert [shard_of(g.guild.id, SHARDS) for g in run.games] == [0, 1, 2]
            for k in range(SHARDS):
                procs.add(shard_ids=str(k))
            await procs.start_all()
            assert fake.ready_shards() == {(k, SHARDS) for k in range(SHARDS)}
            for event in run.up:
                event.set()
            await play_round(run, [1], downtime=2.0, idle_lobbies=True)
            # the lobbies left open expire, once each, before their channels take new ones
            await run.check_lobbies()
            if full_sweep:
                # 20 kills over the three processes: shard 0's process (DMs) too
                order = [2, 0, 1]
                while run.kills < 20:
                    kills = [order[run.kills % 3], order[(run.kills + 1) % 3]]
                    await play_round(run, kills, downtime=2.0, idle_lobbies=False)
                await run.check_lobbies()  # and never again
            moves = sum(n for _, n in run.finished)
            stored = 0
            for match_id, _ in run.finished:
                stored += len(await store.match_actions(match_id))
            print(
                f"kills={run.kills} matches={len(run.finished)} moves={moves} "
                f"dm={run.dm_moves} typed={run.typed_moves} lost={run.lost} "
                f"duplicated={run.duplicated} "
                f"stored={stored} seconds={time.monotonic() - started:.1f}"
            )
            assert stored == moves and run.lost == run.duplicated == 0
    finally:
        await store.close()


# --------------------------------------------------------------------------------------------
# a crash between a move's commit and its direct messages (in the test's process)
# --------------------------------------------------------------------------------------------


def shard_bot(fake: FakeDiscord, db: Path) -> GueridonBot:
    """A process of shard 1 of 2 (a shared database: it does not run every shard), which
    syncs the commands here (no shard-0 process)."""
    config = Settings(
        discord_token=fake.token,
        database_path=str(db),
        worker_processes=False,
        shard_count=2,
        shard_ids="1",
        sync_commands=True,
    )
    return create_bot(config, guild_ready_timeout=0.05)


def south_server(fake: FakeDiscord) -> tuple[FakeUser, FakeUser, FakeGuild, FakeChannel]:
    """Alice and Bob (in French) in a server of shard 1 of 2, with its games channel."""
    alice = fake.add_user("alice")
    bob = fake.add_user("bob", locale="fr")
    guild = fake.add_guild("Sud", shard=(1, 2))
    games = fake.add_text_channel(guild, "jeux")
    for user in (alice, bob):
        fake.add_member(guild, user)
    return alice, bob, guild, games


async def start_match(
    fake: FakeDiscord, bot: GueridonBot, games: FakeChannel, alice: FakeUser, bob: FakeUser
) -> LiveMatch:
    """Alice opens a lobby, Bob joins, Alice starts: the process's one match."""
    res = await fake.slash(alice, games, "lobby create", game=GAME, options="hp=3")
    assert not refusals(res.text), res.text
    lobby = fake.last_message(games)
    assert lobby is not None
    await fake.click(bob, lobby, label="Join")
    await fake.click(alice, lobby, label="Start")
    [live] = bot.host.matches.values()
    return live


async def test_a_restarted_process_sends_the_direct_messages_its_crash_lost(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """Killed after a move's commit, before its board and direct messages (the kills above
    end some uploads half-way): on restart the match's thread gets the current board, saying
    why, the seats to act get the current version's buttons, and a restart that lost nothing
    sends nothing again."""
    alice, bob, guild, games = south_server(fake)
    users = {u.id: u for u in (alice, bob)}
    db = tmp_path / "g.db"
    bot = shard_bot(fake, db)
    async with fake.running(bot):
        live = await start_match(fake, bot, games, alice, bob)
        pending = sorted(live.match.pending())
        for seat in pending:
            user = users[live.user_of(seat)]
            await fake.wait_for(lambda u=user: dm_component(fake, u, live.id, live.version))
        # every seat's view of the start is out (the announcement is over)
        await fake.wait_for(lambda: all(fake.dm_messages(u) for u in (alice, bob)))
        await bot.wait_idle(timeout=5)
        # a move committed; the process dies before it announces it
        seat = pending[0]
        await bot.host.play(live.id, live.user_of(seat), live.match.legal_notations(seat)[0])
        version = live.version
        pending = sorted(live.match.pending())
        thread = fake.channels[live.channel_id]
        await bot.wait_idle(timeout=5)
    shown = len(boards(fake, thread))
    sent = {u.id: len(fake.dm_messages(u)) for u in (alice, bob)}
    bot = shard_bot(fake, db)
    async with fake.running(bot):
        for seat in pending:
            user = users[[uid for uid, _ in (await bot.host.get_match(live.id)).players][seat]]
            await fake.wait_for(lambda u=user: dm_component(fake, u, live.id, version), timeout=10)
        assert bot.resending is not None
        await bot.resending
        [board] = boards(fake, thread)[shown:]
        assert t(guild.locale, "board-after-restart") in board.text
        assert (await bot.host.get_match(live.id)).board_version == version
    shown = len(boards(fake, thread))
    sent = {u.id: len(fake.dm_messages(u)) for u in (alice, bob)}
    # nothing lost: nothing sent again
    bot = shard_bot(fake, db)
    async with fake.running(bot):
        assert bot.resending is not None
        await bot.resending
        assert {u.id: len(fake.dm_messages(u)) for u in (alice, bob)} == sent
        assert len(boards(fake, thread)) == shown


async def test_a_view_sent_but_never_recorded_loses_its_buttons_on_restart(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """Killed between a seat's direct message and its record (tests/e2e/test_discord_shards.py
    caught it: a seat kept the buttons of version 1 beside those of version 4): on restart the
    seat gets the current view again, and its other messages naming the match, which nothing
    had recorded, lose their buttons."""
    alice, bob, _, games = south_server(fake)
    users = {u.id: u for u in (alice, bob)}
    db = tmp_path / "g.db"
    bot = shard_bot(fake, db)
    async with fake.running(bot):
        live = await start_match(fake, bot, games, alice, bob)
        seat = sorted(live.match.pending())[0]
        user = users[live.user_of(seat)]
        found = await fake.wait_for(lambda: dm_component(fake, user, live.id, live.version))
        orphan = found[0]
        await bot.wait_idle(timeout=5)
    # the record never made it
    with sqlite3.connect(db) as conn:
        conn.execute("DELETE FROM seat_messages WHERE match_id = ? AND seat = ?", (live.id, seat))
    bot = shard_bot(fake, db)
    async with fake.running(bot):
        assert bot.resending is not None
        await bot.resending
        live_messages = [
            m.id
            for m in fake.dm_messages(user)
            if any(
                str(c.get("custom_id", "")).startswith(f"gm:{live.id}:")
                or str(c.get("custom_id", "")).startswith(f"gs:{live.id}:")
                for c in m.buttons() + m.selects()
            )
        ]
        assert len(live_messages) == 1 and live_messages[0] != orphan.id
        assert not orphan.buttons() + orphan.selects()
