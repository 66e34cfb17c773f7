"""A lesson in the terminal: ``python3 run.py console --learn <game>``.

The same lesson as ``/learn`` (:mod:`bot.learn.sessions`): the step's text,
the tutor's moves in words, the learner's choices numbered level by level
(the game's staged menu, as in a console match), a typed notation, ``hint``
and ``quit`` (in either language). The board and the hand are written as
PNG files where the console writes a match's, in a folder of their own
(``<out>/<game>-learn-<date>-<time>/``), with the numbered spots of a
placement when the game draws them.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import TextIO

from ..i18n import t
from ..menu import MenuNode
from .sessions import LessonGone, LessonSession, Sessions, Turn, step_title, turn_lines

USER = 1
HINT_WORDS = ("hint", "indice")
QUIT_WORDS = ("quit", "quitter", "exit", "q")
BACK_WORDS = ("back", "retour", "-")


class LessonConsole:
    def __init__(
        self,
        game_id: str,
        locale: str,
        stdin: TextIO,
        stdout: TextIO,
        out_dir: Path | None,
    ) -> None:
        self.game_id = game_id
        self.locale = locale
        self.stdin = stdin
        self.stdout = stdout
        self.out_root = out_dir
        self.folder: Path | None = None
        self.sessions = Sessions()
        self.path: list[int] = []

    def say(self, text: str = "") -> None:
        print(text, file=self.stdout, flush=True)

    def run(self) -> int:
        session, turn = self.sessions.start(USER, self.game_id, t(self.locale, "learn-learner"))
        if self.out_root is not None:
            stamp = time.strftime("%Y%m%d-%H%M%S")
            self.folder = self.out_root / f"{self.game_id}-learn-{stamp}"
            self.folder.mkdir(parents=True, exist_ok=True)
            self.say(t(self.locale, "console-folder", path=self.folder))
        self.say(t(self.locale, "learn-console-help"))
        self.show(session, turn)
        while not session.finished:
            self.stdout.write(f"{session.learner_name}> ")
            self.stdout.flush()
            line = self.stdin.readline()
            if not line:
                self.say()
                return 1
            command = line.strip()
            low = command.lower()
            if not command:
                continue
            if low in QUIT_WORDS:
                self.sessions.quit(USER)
                self.say(t(self.locale, "learn-console-quit"))
                return 1
            try:
                turn_or_none = self.handle(session, command, low)
            except LessonGone:  # pragma: no cover - one lesson, no clock in the console
                return 1
            if turn_or_none is not None:
                self.show(session, turn_or_none)
        self.sessions.finish(session)
        return 0

    def handle(self, session: LessonSession, command: str, low: str) -> Turn | None:
        """One typed line: a hint, a level of the menu, or a move."""
        if command in session.tutor.legal():  # a notation first, as in a match
            self.path = []
            return self.sessions.act(USER, command)
        if low in HINT_WORDS:
            return self.sessions.hint(USER)
        menu = session.menu(self.locale)
        node = menu.node(self.path) or menu.root
        if low in BACK_WORDS:
            if self.path:
                self.path.pop()
            self.show_choices(session)
            return None
        if command.isdigit() and 1 <= int(command) <= len(node.children):
            child = node.children[int(command) - 1]
            if child.entry is None:
                self.path.append(int(command) - 1)
                self.show_choices(session)
                return None
            command = menu.entries[child.entry][0]
        self.path = []
        return self.sessions.act(USER, command)

    def show(self, session: LessonSession, turn: Turn) -> None:
        self.say("")
        self.say(f"== {step_title(self.locale, session)} ==")
        for line in turn_lines(self.locale, session, turn):
            self.say(line)
        if turn.kind in ("start", "played"):
            self.write_images(session)
        if not session.finished:
            self.path = []
            self.show_choices(session)

    def show_choices(self, session: LessonSession) -> None:
        menu = session.menu(self.locale)
        node = menu.node(self.path) or menu.root
        children: list[MenuNode] = node.children
        if self.path:
            trail = " › ".join(s.label for s in menu.trail(self.path))
            self.say(t(self.locale, "console-menu-trail", path=trail))
        leaves = [
            (i + 1, menu.entries[c.entry][0]) for i, c in enumerate(children) if c.entry is not None
        ]
        if leaves and len(leaves) == len(children):
            spots = self.write_spots(session, leaves)
            if spots is not None:
                self.say(t(self.locale, "console-spots", count=len(leaves), path=spots))
        for i, child in enumerate(children):
            step = child.step
            assert step is not None
            shown = menu.entries[child.entry][0] if child.entry is not None else step.key
            label = step.label if step.label == shown else f"{step.label} [`{shown}`]"
            self.say(f"  {i + 1:>2}. {label}")

    # ---- images -------------------------------------------------------------------------
    def write_images(self, session: LessonSession) -> None:
        if self.folder is None:
            return
        from render import render_board, render_private

        view = session.view()
        names = list(session.names(self.locale))
        board = self.folder / "board.png"
        board.write_bytes(render_board(session.game_id, view, names, self.locale))
        self.say(t(self.locale, "console-board-image", path=board))
        hand = self.folder / "hand.png"
        hand.write_bytes(render_private(session.game_id, view, names, self.locale))
        of_who = t(self.locale, "of-player", name=session.learner_name)
        self.say(t(self.locale, "console-hand-image", of_who=of_who, path=hand))

    def write_spots(self, session: LessonSession, choices: list[tuple[int, str]]) -> Path | None:
        if self.folder is None:
            return None
        from render import render_choices

        names = list(session.names(self.locale))
        data = render_choices(session.game_id, session.view(), names, self.locale, choices)
        if data is None:
            return None
        path = self.folder / "spots.png"
        path.write_bytes(data)
        return path


def run_lesson(
    game_id: str, locale: str, stdin: TextIO, stdout: TextIO, out_dir: Path | None
) -> int:
    """``console --learn <game>``: 0 when the lesson was finished, 1 when
    the learner left, 2 for a game without a lesson."""
    from . import lesson_for

    try:
        lesson_for(game_id)
    except (KeyError, ModuleNotFoundError):
        from engine import GAMES

        have = []
        for gid in GAMES:
            try:
                lesson_for(gid)
            except ModuleNotFoundError:
                continue
            have.append(gid)
        print(t(locale, "learn-console-unknown", game=game_id, games=", ".join(have)), file=stdout)
        return 2
    return LessonConsole(game_id, locale, stdin, stdout, out_dir).run()
