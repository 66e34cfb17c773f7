"""Lessons being played: one per user, in memory only (no Discord, no store).

:class:`Sessions` starts a lesson for a user (``start``), hands them the
current step, and takes their actions by notation or by the index of a
choice in the game's staged action menu (the same :mod:`bot.menu` a match
uses), a hint or a quit. A user has one lesson at a time: starting another
drops the first. A lesson untouched for :data:`LESSON_TTL` seconds (an
injected clock) is dropped. Nothing is written to the database and nothing
is rated: a restart forgets every lesson, and a click on a lesson that no
longer exists raises :class:`LessonGone` (the hosts say so and offer
``/learn``).

The texts a learner reads (the step, the tutor's moves, a refusal, a hint)
are built here too, by :func:`turn_lines`, so that Discord and the console
say the same thing.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from engine.core import Event
from engine.text import Msg

from ..i18n import game_name, game_text, lang, menu_entries, t
from ..menu import Menu, build_menu
from . import lesson_for
from .lesson import Lesson, Tutor

LESSON_TTL = 3600.0
"""Seconds without a click after which a lesson is dropped."""

TurnKind = Literal["start", "played", "wrong", "refused", "hint"]


class LessonGone(LookupError):
    """The lesson a click belongs to no longer exists (restart, expiry, or
    another lesson started since)."""


@dataclass(frozen=True)
class Turn:
    """What became of the learner's last request."""

    kind: TurnKind
    events: tuple[Event, ...] = ()
    """What happened since the learner last looked, as they may see it."""
    done: Msg | None = None
    """The step's ``done`` text, after a move the lesson accepted."""
    refusal: Msg | None = None
    """The rules' refusal of an illegal move."""
    wanted: Msg | None = None
    """The move the lesson asks for, when the learner played another one."""
    hint: tuple[str, Msg, Msg | None] | None = None
    """``(notation, the move in words, why)`` for a hint."""


@dataclass
class LessonSession:
    user_id: int
    number: int
    """Carried by the custom ids of the lesson's components."""
    tutor: Tutor
    learner_name: str
    seen: float
    _menus: dict[tuple[int, str], Menu] = field(default_factory=dict, repr=False)

    @property
    def lesson(self) -> Lesson:
        return self.tutor.lesson

    @property
    def game_id(self) -> str:
        return self.lesson.game_id

    @property
    def version(self) -> int:
        return self.tutor.match.version

    @property
    def finished(self) -> bool:
        return self.tutor.finished

    def names(self, locale: str) -> tuple[str, ...]:
        """The seats' names: the learner's own, the tutor's from the lesson's
        keys (``learn-tutor`` when it names none)."""
        out = []
        for seat in range(self.lesson.seats):
            if seat == self.lesson.learner:
                out.append(self.learner_name)
            elif seat < len(self.lesson.names) and self.lesson.names[seat]:
                out.append(t(locale, self.lesson.names[seat]))
            else:
                out.append(t(locale, "learn-tutor"))
        return tuple(out)

    def menu(self, locale: str) -> Menu:
        """The learner's staged action menu now (memoised per version and language)."""
        key = (self.version, lang(locale))
        menu = self._menus.get(key)
        if menu is None:
            self._menus.clear()
            game = self.tutor.game
            menu = build_menu(
                menu_entries(game, self.tutor.match.state, self.tutor.learner, locale)
            )
            self._menus[key] = menu
        return menu

    def view(self) -> Any:
        """The learner's view of the table (what their images show)."""
        return self.tutor.match.view(self.tutor.learner)


class Sessions:
    """Every lesson in progress, one per user."""

    def __init__(
        self,
        clock: Callable[[], float] = time.monotonic,
        ttl: float = LESSON_TTL,
        numbers: Callable[[], int] | None = None,
    ) -> None:
        self.clock = clock
        self.ttl = ttl
        self._numbers = numbers or (lambda: secrets.randbelow(2**40) + 1)
        self._by_user: dict[int, LessonSession] = {}

    def __len__(self) -> int:
        self.sweep()
        return len(self._by_user)

    def start(self, user_id: int, game_id: str, learner_name: str) -> tuple[LessonSession, Turn]:
        """A new lesson for the user (any lesson of theirs is dropped);
        ``KeyError`` for a game without a lesson."""
        try:
            lesson = lesson_for(game_id)
        except ModuleNotFoundError as error:
            raise KeyError(game_id) from error
        self.sweep()
        number = self._numbers()
        old = self._by_user.get(user_id)
        while old is not None and number == old.number:
            number = self._numbers()
        session = LessonSession(user_id, number, Tutor(lesson), learner_name, self.clock())
        self._by_user[user_id] = session
        return session, Turn("start", events=tuple(session.tutor.new_events()))

    def get(self, user_id: int, number: int | None = None) -> LessonSession:
        """The user's lesson (the one numbered ``number`` when given), its
        clock reset; :class:`LessonGone` when there is none."""
        self.sweep()
        session = self._by_user.get(user_id)
        if session is None or (number is not None and session.number != number):
            raise LessonGone(user_id)
        session.seen = self.clock()
        return session

    def sweep(self) -> None:
        """Drop the lessons untouched for longer than the time limit."""
        now = self.clock()
        for user_id in [u for u, s in self._by_user.items() if now - s.seen > self.ttl]:
            del self._by_user[user_id]

    def act(self, user_id: int, notation: str, number: int | None = None) -> Turn:
        """The learner's move by its notation (a finished lesson refuses nothing:
        it is over, see :attr:`LessonSession.finished`)."""
        session = self.get(user_id, number)
        tutor = session.tutor
        step = tutor.step
        if step is None:
            raise LessonGone(user_id)
        attempt = tutor.act(notation)
        if attempt.refusal is not None:
            return Turn("refused", refusal=attempt.refusal)
        if not attempt.accepted:
            return Turn("wrong", wanted=attempt.wanted)
        done = None if step.done is None else Msg.of(step.done, **step.params)
        return Turn("played", events=tuple(tutor.new_events()), done=done)

    def choose(
        self, user_id: int, index: int, number: int | None = None, locale: str = "en"
    ) -> Turn:
        """The learner's move by its index in the menu's entries (a button)."""
        session = self.get(user_id, number)
        entries = session.menu(locale).entries
        if not 0 <= index < len(entries):
            raise LessonGone(user_id)
        return self.act(user_id, entries[index][0], number)

    def hint(self, user_id: int, number: int | None = None) -> Turn:
        session = self.get(user_id, number)
        if session.tutor.step is None:
            raise LessonGone(user_id)
        return Turn("hint", hint=session.tutor.hint())

    def quit(self, user_id: int, number: int | None = None) -> LessonSession:
        """End the user's lesson; :class:`LessonGone` when there is none."""
        session = self.get(user_id, number)
        del self._by_user[user_id]
        return session

    def finish(self, session: LessonSession) -> None:
        """Forget a lesson whose last step was played."""
        if self._by_user.get(session.user_id) is session:
            del self._by_user[session.user_id]


# ---------------------------------------------------------------------------
# What the learner reads
# ---------------------------------------------------------------------------


def step_title(locale: str, session: LessonSession) -> str:
    """``Lesson: Between Battle · step 2 of 6`` (or ``· done``)."""
    tutor = session.tutor
    game = game_name(locale, session.game_id)
    if tutor.finished:
        return t(locale, "learn-title-done", game=game)
    return t(
        locale,
        "learn-title",
        game=game,
        step=tutor.step_index + 1,
        steps=len(session.lesson.steps),
    )


def event_lines(locale: str, session: LessonSession, events: tuple[Event, ...]) -> list[str]:
    names = session.names(locale)
    out = []
    for event in events:
        line = game_text(locale, session.tutor.game.describe_event(event, names))
        if line:
            out.append(f"· {line}")
    return out


def hint_lines(locale: str, hint: tuple[str, Msg, Msg | None]) -> list[str]:
    notation, words, why = hint
    lines = [t(locale, "learn-hint", move=game_text(locale, words), notation=notation)]
    if why is not None:
        lines.append(game_text(locale, why))
    return lines


def lobby_command(locale: str, game_id: str) -> str:
    """``/lobby create game:<game>`` with the command's names in the language
    Discord shows them in."""
    words = (t(locale, f"name-{word}") for word in ("lobby", "create", "game"))
    lobby, create, game = words
    return f"/{lobby} {create} {game}:{game_id}"


def step_lines(locale: str, session: LessonSession) -> list[str]:
    """The current step's text, or the lesson's outro once it is over."""
    tutor = session.tutor
    lesson = session.lesson
    if tutor.finished:
        return [
            t(locale, lesson.outro),
            t(
                locale,
                "learn-play-real",
                game=game_name(locale, session.game_id),
                command=lobby_command(locale, session.game_id),
            ),
        ]
    step = tutor.step
    assert step is not None
    return [t(locale, step.say, **step.params)]


def turn_lines(locale: str, session: LessonSession, turn: Turn) -> list[str]:
    """Everything the learner reads after a request, the current step last."""
    lines: list[str] = []
    if turn.kind == "start":
        lines.append(t(locale, session.lesson.intro))
    if turn.kind == "refused":
        reason = game_text(locale, turn.refusal)
        return [t(locale, "learn-refused", reason=reason), *step_lines(locale, session)]
    if turn.kind == "wrong":
        wanted = game_text(locale, turn.wanted)
        return [t(locale, "learn-wrong", wanted=wanted), *step_lines(locale, session)]
    if turn.kind == "hint":
        assert turn.hint is not None
        return [*step_lines(locale, session), *hint_lines(locale, turn.hint)]
    if turn.done is not None:
        lines.append(game_text(locale, turn.done))
    lines += event_lines(locale, session, turn.events)
    lines += step_lines(locale, session)
    return lines


__all__ = [
    "LESSON_TTL",
    "LessonGone",
    "LessonSession",
    "Sessions",
    "Turn",
    "event_lines",
    "hint_lines",
    "step_lines",
    "step_title",
    "turn_lines",
]
