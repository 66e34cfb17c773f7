"""The terminal host: the same lobby and match service, without Discord.

``python -m bot console`` asks for a game, local player names and options,
then plays hot-seat: it prints whose turn it is, that player's hand and moves,
reads a move in the game's notation, and writes the board (and the private
image of the player to act) as PNG files to a folder after every move.

Type ``help`` at the prompt for the commands.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from engine import GAMES, rng

from .i18n import error_text, result_lines, t
from .service import HostError, HostService, LiveMatch, Update, UserRef, hostable_games
from .store import Store

CONSOLE_CHANNEL = 1
HELP_EN = """\
Commands:
  <move>    a move in the game's notation (e.g. 7>1, D, P2)
  moves     list the moves of the player to act
  board     print the board again (and write its image)
  random    play a random legal move for the player to act
  resign    the player to act resigns
  record    print the match record (JSON) so far
  help      this list
  quit      leave (the match is lost unless --db names a file)
"""
HELP_FR = """\
Commandes :
  <coup>    un coup dans la notation du jeu (ex. 7>1, D, P2)
  coups     lister les coups du joueur qui doit agir
  plateau   réafficher le plateau (et écrire son image)
  hasard    jouer un coup légal au hasard pour le joueur qui doit agir
  abandon   le joueur qui doit agir abandonne
  enregistrement   afficher l'enregistrement de la partie (JSON)
  aide      cette liste
  quitter   quitter (la partie est perdue sauf si --db désigne un fichier)
"""


class Console:
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
        self.out_dir = out_dir
        self.locale = locale
        self.stdin = stdin
        self.stdout = stdout
        self.images = images
        self.chooser = rng.seed_state(0, "console-random")

    # ---- io ---------------------------------------------------------------------
    def say(self, text: str = "") -> None:
        print(text, file=self.stdout, flush=True)

    def ask(self, prompt: str, default: str = "") -> str | None:
        shown = f"{prompt} [{default}]: " if default else f"{prompt}: "
        self.stdout.write(shown)
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

    # ---- setting up ----------------------------------------------------------------
    async def setup(
        self, game_id: str | None, players: list[str] | None, options: str | None
    ) -> LiveMatch | None:
        fr = self.locale.startswith("fr")
        if game_id is None:
            self.say("Jeux :" if fr else "Games:")
            for gid in hostable_games():
                info = GAMES[gid].info
                self.say(f"  {gid}  — {info.name(self.locale)} ({info.min_seats}-{info.max_seats})")
            answer = self.ask("Jeu" if fr else "Game", "between-battle")
            if answer is None:
                return None
            game_id = answer
        if game_id not in GAMES:
            self.say(error_text(self.locale, "unknown-game", game=game_id, games=", ".join(GAMES)))
            return None
        game = GAMES[game_id]
        if players is None:
            default = ",".join(["Alice", "Bob", "Chloé", "David"][: game.info.min_seats])
            answer = self.ask(
                "Joueurs (séparés par des virgules)" if fr else "Players (comma-separated)",
                default,
            )
            if answer is None:
                return None
            players = [p.strip() for p in answer.split(",") if p.strip()]
        if options is None:
            answer = self.ask("Options (clé=valeur)" if fr else "Options (key=value)", "")
            if answer is None:
                return None
            options = answer
        users = [UserRef(id=i + 1, name=name, locale=self.locale) for i, name in enumerate(players)]
        try:
            await self.service.create_lobby(
                guild_id=None,
                channel_id=CONSOLE_CHANNEL,
                host=users[0],
                game_id=game_id,
                seats=len(users),
                options=options,
            )
            for user in users[1:]:
                await self.service.join(CONSOLE_CHANNEL, user)
            live = await self.service.start(CONSOLE_CHANNEL, users[0])
        except HostError as err:
            self.say(error_text(self.locale, err.key, err.rules, **err.params))
            lobby = await self.service.lobby_in(CONSOLE_CHANNEL)
            if lobby is not None:
                await self.service.cancel(CONSOLE_CHANNEL, users[0], is_admin=True)
            return None
        self.say(t(self.locale, "match-title", game=game.info.name(self.locale), match=live.id))
        self.say(t(self.locale, "seed-commit", sha=live.match.seed_commitment))
        return live

    # ---- playing ---------------------------------------------------------------------
    async def play(self, live: LiveMatch) -> int:
        self.show(live, None)
        while not live.match.is_over:
            seat = self.acting_seat(live)
            user = live.user_of(seat)
            line = self.prompt(f"{live.names[seat]}> ")
            if line is None:
                self.say()
                return 1
            command = line.strip()
            low = command.lower()
            if not command:
                continue
            if low in {"quit", "exit", "q", "quitter"}:
                return 1
            if low in {"help", "?", "aide"}:
                self.say(HELP_FR if self.locale.startswith("fr") else HELP_EN)
                continue
            if low in {"moves", "coups"}:
                self.show_moves(live, user)
                continue
            if low in {"board", "plateau"}:
                self.show(live, None)
                continue
            if low in {"record", "enregistrement"}:
                self.say(live.match.record().dumps())
                continue
            try:
                if low in {"resign", "abandon"}:
                    update = await self.service.resign(live.id, user)
                else:
                    if low in {"random", "hasard"}:
                        moves = self.service.legal_moves(live, user)
                        index, self.chooser = rng.randbelow(self.chooser, len(moves))
                        command = moves[index][0]
                        self.say(f"→ {command}")
                    update = await self.service.play(live.id, user, command, seat=seat)
            except HostError as err:
                self.say(error_text(self.locale, err.key, err.rules, **err.params))
                continue
            self.show(live, update)
        return 0

    def acting_seat(self, live: LiveMatch) -> int:
        pending = sorted(live.match.pending())
        return pending[0]

    def show_moves(self, live: LiveMatch, user: int) -> None:
        moves = self.service.legal_moves(live, user, self.locale)
        self.say("  " + "   ".join(f"{n} ({label})" if label != n else n for n, label in moves))

    def show(self, live: LiveMatch, update: Update | None) -> None:
        game = live.game
        names = live.names
        match = live.match
        if update is not None:
            for event in update.events:
                seen = event.for_seat(None)
                if seen is None:
                    continue
                line = game.describe_event(seen, names, self.locale)
                if line:
                    self.say(f"  · {line}")
        self.say("")
        board_path = self.write_image(live, None)
        outcome = match.outcome()
        if outcome is not None:
            self.say(game.summary(match.view(None), names, self.locale))
            title, *places, reason = result_lines(self.locale, outcome, names)
            self.say(title)
            for line in places:
                self.say("  " + line)
            self.say(reason)
            self.say(t(self.locale, "seed-reveal", seed=match.seed, sha=match.seed_commitment))
            if board_path:
                self.say(f"[board] {board_path}")
            return
        seat = self.acting_seat(live)
        decision = match.pending()[seat]
        self.say(game.summary(match.view(seat), names, self.locale))
        private_path = self.write_image(live, seat)
        if board_path:
            self.say(f"[board] {board_path}")
        if private_path:
            self.say(f"[{names[seat]}] {private_path}")
        what = game.decision_text(decision, self.locale, names)
        self.say(t(self.locale, "to-act", who=names[seat], what=what))
        self.show_moves(live, live.user_of(seat))

    def write_image(self, live: LiveMatch, seat: int | None) -> Path | None:
        if not self.images:
            return None
        from render import render_board, render_private

        match = live.match
        view = match.view(seat)
        draw: Callable[..., bytes] = render_board if seat is None else render_private
        data = draw(live.game_id, view, live.names, self.locale)
        self.out_dir.mkdir(parents=True, exist_ok=True)
        who = "board" if seat is None else f"seat{seat + 1}"
        path = self.out_dir / f"match{live.id}-v{match.version:03d}-{who}.png"
        path.write_bytes(data)
        return path


async def run_console(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    store = await Store.open(args.db)
    try:
        service = HostService(store, seed_source=(lambda: args.seed) if args.seed else None)
        await service.resume()
        console = Console(
            service,
            Path(args.out),
            locale=args.lang,
            stdin=stdin,
            stdout=stdout,
            images=not args.no_images,
        )
        live = service.match_in(CONSOLE_CHANNEL)
        if live is None:
            players = args.players.split(",") if args.players else None
            live = await console.setup(args.game, players, args.options)
            if live is None:
                return 2
        return await console.play(live)
    finally:
        await store.close()


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m bot console", description=__doc__.split("\n")[0])
    p.add_argument("--game", help="game id (asked if missing)")
    p.add_argument("--players", help="comma-separated local player names (asked if missing)")
    p.add_argument("--options", help="game options as key=value pairs (asked if missing)")
    p.add_argument("--lang", default="en", choices=["en", "fr"], help="language")
    p.add_argument("--out", default="console-out", help="folder for the PNG images")
    p.add_argument("--no-images", action="store_true", help="do not write images")
    p.add_argument(
        "--db", default=":memory:", help="SQLite file to keep the match in (resumes it if active)"
    )
    p.add_argument("--seed", type=int, default=0, help="fixed seed (0: random)")
    return p


def main(argv: list[str], stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    args = parser().parse_args(argv)
    return asyncio.run(run_console(args, stdin or sys.stdin, stdout or sys.stdout))
