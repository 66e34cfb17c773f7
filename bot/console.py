"""The terminal host: the same lobby and match service, without Discord.

``python3 run.py console`` asks for a game, local player names and options,
then plays: against bots (``--bots 1:normal``: the bot seats and their
levels; the console shows only the humans' hands) or hot-seat between the
humans at the keyboard. It prints the acting player's hand and choices, reads
a move in the game's notation or the number of a choice, and writes the
board, the hand and the numbered spots of a placement as PNG files.

Images go to one folder per game, ``<out>/<game>-<date>-<time>-m<match>/``:
``board.png``, ``hand-<seat>.png`` and ``spots.png`` always hold the latest
images (a few hundred kB a game); ``save`` keeps a numbered copy of the board
and the hand (``board-v012.png``). Nothing from an earlier game is
overwritten.

Type ``help`` at the prompt for the commands.
"""

from __future__ import annotations

import argparse
import asyncio
import difflib
import json
import shutil
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TextIO

import i18n
from engine import GAMES, rng

from .decks import DECK_GAMES, DeckRefused, attachment_text, code_of, read_list
from .i18n import error_text, game_name, game_text, lang, menu_entries, result_lines, t
from .menu import Menu, MenuNode, build_menu
from .service import HostError, HostService, LiveMatch, Lobby, Update, UserRef, hostable_games
from .store import Store

CONSOLE_CHANNEL = 1
LINE_WIDTH = 100
COMMANDS = {  # name: the words accepted in any language (shown: `name-console-<name>`)
    "help": ("help", "aide"),
    "moves": ("moves", "coups"),
    "board": ("board", "plateau"),
    "save": ("save", "garder"),
    "random": ("random", "hasard"),
    "resign": ("resign", "abandon", "abandonner"),
    "undo": ("undo", "reprendre", "annuler"),
    "record": ("record", "record", "enregistrement"),
    "back": ("back", "retour"),
    "quit": ("quit", "quitter", "exit", "q"),
}
YES = {"y", "yes", "o", "oui"}


def parse_bots(text: str) -> list[tuple[int | None, str]]:
    """``"1:easy,2:hard"`` -> ``[(1, "easy"), (2, "hard")]``: seat indexes
    from 0 (the first seat); a bare level (``"normal"``) takes a free seat.
    Raises ValueError with an English reason (the caller translates)."""
    from engine.bots import LEVELS

    out: list[tuple[int | None, str]] = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        seat_text, _, level = part.rpartition(":")
        level = level.strip().lower()
        if level not in LEVELS:
            raise ValueError(part)
        if seat_text.strip():
            if not seat_text.strip().isdigit():
                raise ValueError(part)
            out.append((int(seat_text), level))
        else:
            out.append((None, level))
    return out


class Console:
    """One terminal session. Implements the service's listener interface, so
    the bots' moves are printed as they are played."""

    def __init__(
        self,
        service: HostService,
        out_dir: Path,
        *,
        locale: str = "en",
        stdin: TextIO = sys.stdin,
        stdout: TextIO = sys.stdout,
        images: bool = True,
    ) -> None:
        self.service = service
        self.out_root = out_dir
        self.game_dir: Path | None = None
        self.locale = lang(locale)
        self.stdin = stdin
        self.stdout = stdout
        self.images = images
        self.chooser = rng.seed_state(0, "console-random")
        # the menu being walked: (version, seat) it belongs to, the path, a typed prefix
        self._menu: tuple[int, int, Menu] | None = None
        self.path: list[int] = []
        self.prefix = ""  # narrows the level at depth prefix_depth
        self.prefix_depth = 0
        self.viewer: int | None = None  # the seat whose hand was shown last
        self.live: LiveMatch | None = None

    # ---- io ---------------------------------------------------------------------
    def tr(self, key: str, **params: object) -> str:
        return t(self.locale, key, **params)

    def say(self, text: str = "") -> None:
        print(text, file=self.stdout, flush=True)

    def ask(self, prompt: str, default: str = "") -> str | None:
        shown = f"{prompt} [{default}]" if default else prompt
        self.stdout.write(self.tr("console-prompt", prompt=shown))
        self.stdout.flush()
        line = self.stdin.readline()
        if not line:
            return None
        answer = line.strip()
        return answer or default

    def prompt(self, shown: str) -> str | None:
        self.stdout.write(shown)
        self.stdout.flush()
        line = self.stdin.readline()
        return line.strip() if line else None

    def confirm(self, question: str) -> bool:
        answer = self.prompt(f"{question} ")
        return answer is None or answer.strip().lower() in YES

    # ---- setting up ----------------------------------------------------------------
    async def setup(
        self,
        game_id: str | None,
        players: list[str] | None,
        options: str | None,
        bots: list[tuple[int | None, str]] | None = None,
        decks: list[tuple[str, str]] | None = None,
    ) -> LiveMatch | None:
        """Open the lobby, seat everyone, start. ``decks``: ``(file name,
        text)`` of deck lists, one a seat in seat order (``--deck``)."""
        bots = bots or []
        if game_id is None:
            self.say(self.tr("console-games"))
            for gid in hostable_games():
                info = GAMES[gid].info
                name = game_name(self.locale, gid)
                self.say(f"  {gid}  — {name} ({info.min_seats}-{info.max_seats})")
            answer = self.ask(self.tr("console-ask-game"), "between-battle")
            if answer is None:
                return None
            game_id = answer
        if game_id not in hostable_games():
            games = ", ".join(hostable_games())
            self.say(error_text(self.locale, "unknown-game", game=game_id, games=games))
            return None
        game = GAMES[game_id]
        info = game.info
        if players is None:
            count = 1 if bots else info.min_seats
            default = ",".join(["Alice", "Bob", "Chloé", "David"][:count])
            answer = self.ask(self.tr("console-ask-players"), default)
            if answer is None:
                return None
            players = [p.strip() for p in answer.split(",") if p.strip()]
        if options is None:
            answer = self.ask(self.tr("console-ask-options"), "")
            if answer is None:
                return None
            options = answer
        seats = len(players) + len(bots)
        if not players:
            self.say(self.tr("console-no-human"))
            return None
        if not info.min_seats <= seats <= info.max_seats:
            self.say(
                error_text(
                    self.locale,
                    "bad-seats",
                    game=game_name(self.locale, info.id),
                    min=info.min_seats,
                    max=info.max_seats,
                )
            )
            if seats < info.min_seats:
                self.say(self.tr("console-add-bots"))
            return None
        order = self._seat_order(players, bots, seats)
        if order is None:
            return None
        codes = self._deck_codes(game_id, decks or [], seats)
        if codes is None:
            return None
        users = [UserRef(id=i + 1, name=name, locale=self.locale) for i, name in enumerate(players)]
        host = users[0]
        try:
            lobby = await self.service.create_lobby(
                guild_id=None,
                channel_id=CONSOLE_CHANNEL,
                host=host,
                game_id=game_id,
                seats=seats,
                options=options,
            )
            for user in users[1:]:
                await self.service.join(CONSOLE_CHANNEL, user)
            for level in order:
                if level is not None:
                    lobby = await self.service.add_bot(CONSOLE_CHANNEL, host, level)
            await self._arrange(lobby, order, users)
            await self._seat_decks(lobby.id, codes)
            live = await self.service.start(CONSOLE_CHANNEL, host)
        except HostError as err:
            self.say(error_text(self.locale, err.key, err.rules, **err.params))
            if await self.service.lobby_in(CONSOLE_CHANNEL) is not None:
                await self.service.cancel(CONSOLE_CHANNEL, host, is_admin=True)
            return None
        self.name_bots(live)
        self.say(self.tr("match-title", game=game_name(self.locale, info.id), match=live.id))
        self.say(self.tr("seed-commit", sha=live.match.seed_commitment))
        return live

    def _deck_codes(
        self, game_id: str, decks: list[tuple[str, str]], seats: int
    ) -> list[tuple[str, str]] | None:
        """``(name, code)`` of each ``--deck`` file, read and checked (every
        problem of every file said at once); None when one is refused."""
        if not decks:
            return []
        if game_id not in DECK_GAMES:
            self.say(error_text(self.locale, "deck-no-decks"))
            return None
        if len(decks) > seats:
            self.say(self.tr("console-too-many-decks", decks=len(decks), seats=seats))
            return None
        out = []
        for name, text in decks:
            try:
                general, counts = read_list(game_id, text)
            except DeckRefused as err:
                reason = error_text(self.locale, err.key, err.rules, name=name, **err.params)
                if err.rules is not None:
                    reason = game_text(self.locale, err.rules.msg)
                self.say(self.tr("console-deck-refused", file=name, reason=reason))
                continue
            out.append((name, code_of(game_id, general, counts)))
        return out if len(out) == len(decks) else None

    async def _seat_decks(self, lobby_id: int, codes: list[tuple[str, str]]) -> None:
        """The ``--deck`` lists, seat by seat (the other seats: ready-made decks)."""
        lobby = await self.service.lobby(lobby_id)
        assert lobby is not None
        for uid, (name, code) in zip(lobby.players, codes, strict=False):
            await self.service.store.set_lobby_deck(lobby_id, uid, name, code)

    async def _arrange(self, lobby: Lobby, order: list[str | None], users: list[UserRef]) -> None:
        """Put the lobby's players in seat order (the lobby seats them in the
        order they joined: humans first, then the bots, by id -1, -2 ...)."""
        fresh = await self.service.lobby(lobby.id)
        assert fresh is not None
        lobby = fresh
        levels = dict(lobby.bots)
        humans = iter(u.id for u in users)
        bots = iter(sorted(levels, reverse=True))
        wanted = [next(humans) if level is None else next(bots) for level in order]
        if list(lobby.players) == wanted:
            return
        store = self.service.store
        for uid in wanted:
            await store.remove_lobby_player(lobby.id, uid)
            await store.add_lobby_player(lobby.id, uid, bot_level=levels.get(uid))

    def _seat_order(
        self, players: list[str], bots: list[tuple[int | None, str]], seats: int
    ) -> list[str | None] | None:
        """Each seat's bot level, or None for a human."""
        order: list[str | None] = [None] * seats
        taken: set[int] = set()
        for seat, level in bots:
            if seat is None:
                continue
            if not 0 <= seat < seats or seat in taken:
                self.say(self.tr("console-bad-bot-seat", seat=seat, last=seats - 1))
                return None
            taken.add(seat)
            order[seat] = level
        free = [s for s in range(seats) if s not in taken]
        for _, level in (b for b in bots if b[0] is None):
            order[free.pop()] = level  # bare levels take the last free seats
        return order

    def name_bots(self, live: LiveMatch) -> None:
        """The bots' names in the console's language (in memory only)."""
        number = 0
        for seat in range(len(live.players)):
            if seat in live.bots:
                number += 1
                level = self.tr(f"level-{live.bot_levels.get(seat, 'normal')}")
                uid = live.players[seat][0]
                live.players[seat] = (uid, self.tr("console-bot-name", n=number, level=level))

    # ---- the service's listener ---------------------------------------------------
    async def on_update(self, update: Update) -> None:
        if self.live is None or update.live.id != self.live.id:
            return
        self.print_events(update)

    async def on_reminder(self, live: LiveMatch, seat: int, remaining: float) -> None:
        return None

    async def on_lobby_expired(self, lobby: Lobby) -> None:
        return None

    # ---- playing ---------------------------------------------------------------------
    def humans(self, live: LiveMatch) -> list[int]:
        return [s for s in range(live.match.seats) if s not in live.bots]

    def event_seat(self, live: LiveMatch) -> int | None:
        """Whose eyes the events are seen through: the only human's, else a
        spectator's (hot-seat: the others are at the same screen)."""
        humans = self.humans(live)
        return humans[0] if len(humans) == 1 else None

    def print_events(self, update: Update) -> None:
        live = update.live
        viewer = self.event_seat(live)
        for event in update.events:
            seen = event.for_seat(viewer)
            if seen is None:
                continue
            line = game_text(self.locale, live.game.describe_event(seen, live.names))
            if line:
                self.say(f"  · {line}")
        if update.action == "!resign":
            self.say("  · " + self.tr("resigned", user=live.names[update.seat]))

    def human_to_act(self, live: LiveMatch) -> int | None:
        pending = live.match.pending()
        return next((s for s in sorted(pending) if s not in live.bots), None)

    async def play(self, live: LiveMatch) -> int:
        self.live = live
        self.game_dir = self.new_game_dir(live)
        if self.game_dir is not None:
            self.say(self.tr("console-folder", path=self.game_dir))
        self.service.listeners.append(self)
        try:
            return await self._loop(live)
        finally:
            self.service.listeners.remove(self)

    async def _loop(self, live: LiveMatch) -> int:
        humans = self.humans(live)
        self.service.kick_bots(live)  # a resumed match may wait for a bot
        await self.service.wait_for_bots()
        while not live.match.is_over:
            seat = self.human_to_act(live)
            if seat is None:
                self.say(self.tr("console-bots-stuck"))
                return 1
            if seat != self.viewer:
                if (
                    len(humans) > 1
                    and self.viewer is not None
                    and not self.pass_keyboard(live, seat)
                ):
                    self.say()
                    return 1
                self.viewer = seat
                self.show(live, seat)
            line = self.prompt(f"{live.names[seat]}> ")
            if line is None:
                self.say()
                return 1
            outcome = await self.handle(live, seat, line.strip())
            if outcome == "quit":
                return 1
            if outcome == "played":
                await self.service.wait_for_bots()
                after = self.human_to_act(live)
                if after is not None and after == self.viewer:
                    self.show(live, after)
        self.show_end(live)
        return 0

    async def record_text(self, live: LiveMatch) -> str:
        """The match record so far. With bots at the table it is what Discord's
        /replay gives: until the end only the seed's commitment, no moves
        (they can name a bot's hidden cards)."""
        if not live.bots:
            return live.match.record().dumps()
        _, data = await self.service.replay_record(live.id)
        if "note" in data:
            data["note"] = self.tr("replay-live")
        return json.dumps(data, ensure_ascii=False, indent=1)

    def pass_keyboard(self, live: LiveMatch, seat: int) -> bool:
        """Hot-seat: wait until the next player has the keyboard (False: end of input)."""
        if self.prompt(self.tr("console-pass", who=live.names[seat]) + " ") is None:
            return False
        if self.stdout.isatty():
            self.stdout.write("\033[2J\033[H")  # the last hand leaves the screen
        return True

    def command_of(self, text: str) -> str | None:
        low = text.lower()
        for name, words in COMMANDS.items():
            if low in words or low == self.tr(f"name-console-{name}").lower():
                return name
        return None

    async def handle(self, live: LiveMatch, seat: int, command: str) -> str:
        """One line typed by the player of ``seat``: "played", "quit" or ""."""
        if not command:
            return ""
        user = live.user_of(seat)
        legal = [n for n, _ in self.service.legal_moves(live, user)]
        moves = {n for n, _ in self.menu(live, seat).entries} | set(legal)
        name = None if command in moves else self.command_of(command)
        if name == "quit":
            return "quit" if self.confirm(self.tr("console-quit-confirm")) else ""
        if name == "help":
            # the notation's examples: the game's own (game-<id>-examples) when it has some
            own = f"game-{live.game_id}-examples"
            examples = self.tr(own if i18n.has(self.locale, own) else "console-examples")
            self.say(self.tr("console-help", examples=examples))
            return ""
        if name == "moves":
            self.show_choices(live, seat)
            return ""
        if name == "board":
            self.show(live, seat)
            return ""
        if name == "save":
            self.save(live, seat)
            return ""
        if name == "record":
            self.say(await self.record_text(live))
            return ""
        if name == "back" or (command == "-" and self.in_menu() and "-" not in legal):
            if self.narrowed():
                self.prefix = ""
            elif self.path:
                self.path.pop()
                while self.path and self.one_way(self.level(live, seat)):
                    self.path.pop()  # the levels of one choice were taken at once
            self.show_choices(live, seat)
            return ""
        if name == "undo":
            return await self.undo(live, user)
        try:
            if name == "resign":
                if not self.confirm(self.tr("console-resign-confirm")):
                    return ""
                update = await self.service.resign(live.id, user)
            else:
                if name == "random":
                    entries = self.menu(live, seat).entries  # complete moves
                    index, self.chooser = rng.randbelow(self.chooser, len(entries))
                    command = entries[index][0]
                    self.say(f"→ `{command}`")  # notation, as typed (no language)
                elif command not in {n for n, _ in self.menu(live, seat).entries}:
                    picked = self.pick(live, seat, command)
                    if picked is None:
                        return ""
                    if picked:
                        command = picked
                update = await self.service.play(live.id, user, command, seat=seat)
        except HostError as err:
            self.say(error_text(self.locale, err.key, err.rules, **err.params))
            if err.key == "illegal":
                self.suggest(live, seat, command)
            return ""
        self.forget_menu()
        self.print_events(update)
        return "played"

    async def undo(self, live: LiveMatch, user: int) -> str:
        """Take back the last move (bot/undo.py): bots accept at once; in a
        hot-seat game every other human at this screen is asked y/n."""
        from .undo import UndoDesk

        match = live.match
        seats = live.seats_of(user)
        last = match.actions[-1][0] if match.actions else None
        seat = last if last in seats else (seats[0] if seats else 0)
        refusal = match.undo_refusal(seat)
        if refusal is not None:
            self.say(self.tr(f"undo-refused-{refusal.reason}"))
            return ""
        names = live.names
        for other in self.humans(live):
            if other == seat or other in live.resigned:
                continue
            question = self.tr("console-undo-ask", player=names[other], requester=names[seat])
            if not self.confirm(question):
                self.say(self.tr("undo-declined", refuser=names[other], player=names[seat]))
                return ""
        desk = UndoDesk.of(self.service)
        try:
            result = await desk.request(live.id, user)
            for asked in sorted(result.request.asked):  # they said yes above
                result = await desk.answer(live.id, result.request.version, asked, True)
        except HostError as err:
            self.say(error_text(self.locale, err.key, err.rules, **err.params))
            return ""
        self.forget_menu()
        self.say("  · " + self.tr("undo-accepted", player=names[seat]))
        return "played"

    # ---- the menu -------------------------------------------------------------------
    def menu(self, live: LiveMatch, seat: int) -> Menu:
        key = (live.match.version, seat)
        if self._menu is None or self._menu[:2] != key:
            game = live.game
            menu = build_menu(menu_entries(game, live.match.state, seat, self.locale))
            self._menu = (*key, menu)
            self.path = []
            self.prefix = ""
        return self._menu[2]

    def forget_menu(self) -> None:
        self._menu = None
        self.path = []
        self.prefix = ""

    @staticmethod
    def one_way(children: list[MenuNode]) -> bool:
        """A level of one choice that opens another level: taken at once."""
        return len(children) == 1 and not children[0].is_leaf

    def in_menu(self) -> bool:
        """Below the first level, or narrowed by a prefix."""
        return bool(self.path) or self.narrowed()

    def narrowed(self) -> bool:
        """A typed prefix narrows the level shown now."""
        return bool(self.prefix) and len(self.path) == self.prefix_depth

    def level(self, live: LiveMatch, seat: int) -> list[MenuNode]:
        """The choices shown now: the current level, narrowed by a typed prefix."""
        menu = self.menu(live, seat)
        node = menu.node(self.path) or menu.root
        children = node.children
        if self.narrowed():
            low = self.prefix.lower()
            children = [c for c in children if c.step and c.step.key.lower().startswith(low)]
        return children

    def pick(self, live: LiveMatch, seat: int, command: str) -> str | None:
        """A typed line that is not a legal notation: a choice's number, a
        choice's key (opens its level), a prefix of choices (narrows the
        level). Returns the notation to play, None when the menu moved (it is
        shown again), "" to try the line as a move."""
        menu = self.menu(live, seat)
        children = self.level(live, seat)
        low = command.lower()
        chosen: MenuNode | None = None
        if command.isdigit():
            number = int(command)
            if not 1 <= number <= len(children):
                self.say(self.tr("console-bad-number", last=len(children)))
                return None
            chosen = children[number - 1]
        else:
            found = [
                (path, node)
                for path, node in self._nodes(menu)
                if node.step is not None
                and low in (node.step.key.lower(), node.step.detail.lower())
            ]
            here = [(p, n) for p, n in found if list(p[: len(self.path)]) == self.path]
            found = here or found
            if len(found) == 1:
                path, node = found[0]
                if node.is_leaf:
                    return menu.entries[node.entry or 0][0]
                self.path, self.prefix = list(path), ""
                self.show_choices(live, seat)
                return None
            if not menu.flat and any(
                c.step and c.step.key.lower().startswith(low) for c in children
            ):
                self.prefix, self.prefix_depth = command, len(self.path)
                self.show_choices(live, seat)
                return None
            return ""
        if chosen.is_leaf:
            return menu.entries[chosen.entry or 0][0]
        node = menu.node(self.path) or menu.root
        self.path.append(node.children.index(chosen))
        self.show_choices(live, seat)
        return None

    def _nodes(self, menu: Menu) -> list[tuple[tuple[int, ...], MenuNode]]:
        out: list[tuple[tuple[int, ...], MenuNode]] = []
        stack: list[tuple[tuple[int, ...], MenuNode]] = [((), menu.root)]
        while stack:
            path, node = stack.pop()
            if node.step is not None:
                out.append((path, node))
            for i, child in enumerate(node.children):
                stack.append(((*path, i), child))
        out.sort(key=lambda item: (len(item[0]), item[0]))
        return out

    def suggest(self, live: LiveMatch, seat: int, command: str) -> None:
        """ "Did you mean" from the legal moves, the menu's choices and the commands."""
        menu = self.menu(live, seat)
        words: dict[str, str] = {}
        for notation, _ in menu.entries:
            words.setdefault(notation.lower(), notation)
        for _, node in self._nodes(menu):
            if node.step is not None and not node.is_leaf:
                words.setdefault(node.step.key.lower(), node.step.key)
        for notation, _ in self.service.legal_moves(live, live.user_of(seat)):
            words.setdefault(notation.lower(), notation)
        for name in COMMANDS:  # the commands, in the console's language
            word = self.tr(f"name-console-{name}")
            words.setdefault(word.lower(), word)
        head = command.lower().split()
        if len(head) > 1:
            # several words: only moves whose first word (verb, piece) is close
            # to the typed one (a refused « summon c3 : Au P P » is not a « buy »)
            firsts = {w.split(" ", 1)[0] for w in words if " " in w}
            near = set(difflib.get_close_matches(head[0], list(firsts), n=5, cutoff=0.75))
            words = {k: v for k, v in words.items() if k.split(" ", 1)[0] in near}
        close = difflib.get_close_matches(command.lower(), list(words), n=3, cutoff=0.6)
        if close:
            self.say(self.tr("console-did-you-mean", moves=", ".join(words[c] for c in close)))
        else:
            self.say(self.tr("console-see-moves"))

    def show_choices(self, live: LiveMatch, seat: int) -> None:
        menu = self.menu(live, seat)
        children = self.level(live, seat)
        while self.path and self.one_way(children):
            # a level with one choice is taken at once
            node = menu.node(self.path) or menu.root
            self.path.append(node.children.index(children[0]))
            children = self.level(live, seat)
        if self.in_menu():
            trail = [s.label for s in menu.trail(self.path)]
            if self.narrowed():
                trail.append(f"{self.prefix}…")
            self.say(self.tr("console-menu-trail", path=" › ".join(trail)))
        leaves = [
            (i + 1, menu.entries[c.entry][0]) for i, c in enumerate(children) if c.entry is not None
        ]
        spots = self.write_spots(live, seat, leaves) if len(leaves) == len(children) else None
        if spots is not None:
            self.say(self.tr("console-spots", count=len(leaves), path=spots))
        # the numbered spots are named in words too (square, rotation, exits)
        cells = []
        for i, child in enumerate(children):
            step = child.step
            assert step is not None
            shown = menu.entries[child.entry][0] if child.entry is not None else step.key
            label = step.label if step.label == shown else f"{step.label} [`{shown}`]"
            cells.append(f"{i + 1:>2}. {label}")
        self.say(columns(cells))
        hint = "console-hint-menu" if self.in_menu() else "console-hint"
        if not menu.flat or self.path:
            self.say(self.tr(hint))
        else:
            self.say(self.tr("console-hint-flat"))

    # ---- what the player sees ---------------------------------------------------------
    def show(self, live: LiveMatch, seat: int) -> None:
        game = live.game
        match = live.match
        self.say("")
        self.say(game_text(self.locale, game.summary(match.view(seat), live.names)))
        board = self.write_image(live, None)
        hand = self.write_image(live, seat)
        if board:
            self.say(self.tr("console-board-image", path=board))
        if hand:
            name = live.names[seat]
            of_who = self.tr("of-player", name=name)
            self.say(self.tr("console-hand-image", of_who=of_who, path=hand))
        decision = match.pending()[seat]
        what = game_text(self.locale, game.decision_text(decision, names=live.names))
        self.say(self.tr("to-act", who=live.names[seat], what=what))
        self.show_choices(live, seat)

    def show_end(self, live: LiveMatch) -> None:
        match = live.match
        names = live.names
        outcome = match.outcome()
        assert outcome is not None
        self.say("")
        self.say(game_text(self.locale, live.game.summary(match.view(None), names)))
        board = self.write_image(live, None)
        title, *places, reason = result_lines(self.locale, outcome, names)
        self.say(title)
        for line in places:
            self.say("  " + line)
        self.say(reason)
        self.say(self.tr("seed-reveal", seed=match.seed, sha=match.seed_commitment))
        if board:
            self.say(self.tr("console-board-image", path=board))

    # ---- images -------------------------------------------------------------------------
    def new_game_dir(self, live: LiveMatch) -> Path | None:
        if not self.images:
            return None
        stamp = time.strftime("%Y%m%d-%H%M%S")
        base = self.out_root / f"{live.game_id}-{stamp}-m{live.id}"
        path, n = base, 1
        while path.exists():
            n += 1
            path = base.with_name(f"{base.name}-{n}")
        path.mkdir(parents=True)
        return path

    def write_image(self, live: LiveMatch, seat: int | None) -> Path | None:
        if self.game_dir is None:
            return None
        from render import render_board, render_private

        view = live.match.view(seat)
        draw: Callable[..., bytes] = render_board if seat is None else render_private
        data = draw(live.game_id, view, live.names, self.locale)
        path = self.game_dir / ("board.png" if seat is None else f"hand-{seat + 1}.png")
        path.write_bytes(data)
        return path

    def write_spots(
        self, live: LiveMatch, seat: int, choices: Sequence[tuple[int, str]]
    ) -> Path | None:
        """The numbered spots of a placement (the image Discord shows), or
        None when the game draws nothing for these choices."""
        if self.game_dir is None or not choices:
            return None
        from render import render_choices

        view = live.match.view(seat)
        data = render_choices(live.game_id, view, live.names, self.locale, list(choices))
        if data is None:
            return None
        path = self.game_dir / "spots.png"
        path.write_bytes(data)
        return path

    def save(self, live: LiveMatch, seat: int) -> None:
        """Keep numbered copies of the latest board and hand images."""
        if self.game_dir is None:
            self.say(self.tr("console-no-images"))
            return
        version = live.match.version
        kept = []
        for name, copy in (
            ("board.png", f"board-v{version:03d}.png"),
            (f"hand-{seat + 1}.png", f"hand-{seat + 1}-v{version:03d}.png"),
        ):
            source = self.game_dir / name
            if not source.exists():
                self.write_image(live, None if name == "board.png" else seat)
            shutil.copyfile(source, self.game_dir / copy)
            kept.append(str(self.game_dir / copy))
        self.say(self.tr("console-saved", paths=", ".join(kept)))


def columns(cells: list[str], width: int = LINE_WIDTH) -> str:
    """The cells in as many columns as fit in ``width``, read down the columns."""
    if not cells:
        return ""
    cell = max(len(c) for c in cells) + 3
    cols = max(1, min(len(cells), width // cell))
    rows = -(-len(cells) // cols)
    lines = []
    for r in range(rows):
        row = [cells[c * rows + r] for c in range(cols) if c * rows + r < len(cells)]
        lines.append("  " + "".join(c.ljust(cell) for c in row).rstrip())
    return "\n".join(lines)


def read_deck_files(
    paths: Sequence[str], locale: str, stdout: TextIO
) -> list[tuple[str, str]] | None:
    """``(file name, text)`` of each ``--deck`` file; None (and a message)
    when one cannot be read as text."""
    out = []
    for name in paths:
        path = Path(name)
        try:
            data = path.read_bytes()
            text = attachment_text(path.name or name, len(data), "text/plain", data)
        except OSError:
            print(t(locale, "console-deck-unreadable", file=name), file=stdout)
            return None
        except DeckRefused as err:
            print(error_text(locale, err.key, err.rules, **err.params), file=stdout)
            return None
        out.append((path.stem or name, text))
    return out


async def run_console(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    locale = args.lang
    try:
        bots = parse_bots(args.bots) if args.bots else []
    except ValueError as err:
        from engine.bots import LEVELS

        print(t(locale, "console-bad-bots", bots=err, levels=", ".join(LEVELS)), file=stdout)
        return 2
    store = await Store.open(args.db)
    service = None
    try:
        service = HostService(
            store,
            seed_source=(lambda: args.seed) if args.seed else None,
            bot_clock=time.monotonic,
        )
        await service.resume()
        console = Console(
            service,
            Path(args.out),
            locale=locale,
            stdin=stdin,
            stdout=stdout,
            images=not args.no_images,
        )
        live = service.match_in(CONSOLE_CHANNEL)
        if live is None:
            players = [p.strip() for p in args.players.split(",")] if args.players else None
            decks = read_deck_files(args.deck or [], locale, stdout)
            if decks is None:
                return 2
            live = await console.setup(args.game, players, args.options, bots, decks)
            if live is None:
                return 2
        else:
            console.name_bots(live)
        return await console.play(live)
    finally:
        if service is not None:
            await service.wait_for_bots()
            # through the service: it stops its PostgreSQL listener first
            await service.close()
        else:
            await store.close()


def _help_locale(argv: Sequence[str]) -> str:
    for i, arg in enumerate(argv):
        if arg == "--lang" and i + 1 < len(argv):
            return lang(argv[i + 1])
        if arg.startswith("--lang="):
            return lang(arg.split("=", 1)[1])
    return "en"


def parser(locale: str = "en") -> argparse.ArgumentParser:
    def h(key: str) -> str:
        return t(locale, f"console-arg-{key}")

    class Formatter(argparse.RawDescriptionHelpFormatter):
        def add_usage(self, usage, actions, groups, prefix=None):  # type: ignore[no-untyped-def]
            super().add_usage(usage, actions, groups, h("usage") + " ")

    p = argparse.ArgumentParser(
        prog="python3 run.py console",
        description=h("description"),
        epilog=h("epilog"),
        formatter_class=Formatter,
        add_help=False,
    )
    g = p.add_argument_group(h("options-title"))
    g.add_argument("-h", "--help", action="help", help=h("help"))
    g.add_argument("--game", help=h("game"))
    g.add_argument("--players", help=h("players"))
    g.add_argument("--bots", help=h("bots"))
    g.add_argument("--options", help=h("options"))
    g.add_argument("--lang", default="en", choices=list(i18n.languages()), help=h("lang"))
    g.add_argument("--out", default="console-out", help=h("out"))
    g.add_argument("--no-images", action="store_true", help=h("no-images"))
    g.add_argument("--db", default=":memory:", help=h("db"))
    g.add_argument("--seed", type=int, default=0, help=h("seed"))
    g.add_argument("--deck", action="append", help=h("deck"))
    g.add_argument("--learn", metavar="GAME", help=t(locale, "learn-console-arg"))
    return p


def main(argv: list[str], stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    args = parser(_help_locale(argv)).parse_args(argv)
    out = stdout or sys.stdout
    if args.learn:  # a guided lesson, in memory: no store, no match
        from .learn.console import run_lesson

        out_dir = None if args.no_images else Path(args.out)
        return run_lesson(args.learn, args.lang, stdin or sys.stdin, out, out_dir)
    try:
        return asyncio.run(run_console(args, stdin or sys.stdin, out))
    except KeyboardInterrupt:  # Ctrl-C: leave quietly (a --db match is kept)
        print(file=out)
        return 130
