"""Guided lessons (``/learn``, ``console --learn``): the format and the tutor.

A lesson is data: a game, its options, a seed, the seat the learner plays,
the actions that set up its situation, then steps. At each step the learner
must act; the step's text (a catalogue key of the ``learn_<game>`` domain)
says what the step teaches. ``expect`` lists the actions the lesson asks for
(any legal action when empty); after the learner's action the scripted
opponent plays ``reply`` in order, then, whenever the script is exhausted
and the learner is not to act, the ``easy`` bot plays from a generator drawn
from the lesson's seed, so a lesson always unrolls the same way. Once a step
accepted any action, every later step must too (the script cannot know what
the learner chose). Everything is the real engine: the same rules, views,
images and texts as a match.

A hint is always the move a lesson asks for when it asks for one, else the
``normal`` bot's move, described in words (``describe_action``), with the
step's ``hint`` text when it has one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine import GAMES
from engine.bots import bot_rng, make_bot
from engine.core import Event, Game
from engine.errors import RulesError
from engine.match import Match
from engine.text import Msg


@dataclass(frozen=True)
class Step:
    say: str
    """Catalogue key: what this step teaches, shown before the learner acts."""
    expect: tuple[str, ...] = ()
    """Notations the lesson asks for (empty: any legal action)."""
    reply: tuple[str, ...] = ()
    """The scripted opponent's actions after this step, in order."""
    hint: str | None = None
    """Catalogue key: why the suggested move is good (shown with the hint)."""
    done: str | None = None
    """Catalogue key shown once the learner's action was accepted."""
    params: Mapping[str, Any] = field(default_factory=dict)
    """Parameters of ``say`` (and ``hint``, ``done``)."""


@dataclass(frozen=True)
class Lesson:
    game_id: str
    seed: int
    intro: str
    """Catalogue key: the game in three sentences and what the lesson shows."""
    steps: tuple[Step, ...]
    outro: str
    """Catalogue key: what the learner now knows, and how to open a real match."""
    options: Mapping[str, Any] = field(default_factory=dict)
    seats: int = 2
    learner: int = 0
    prelude: tuple[tuple[int, str], ...] = ()
    """``(seat, notation)`` played before the first step, to reach its situation."""
    names: tuple[str, ...] = ()
    """Catalogue keys naming the seats (the learner's and the tutor bot's)."""


class LessonError(Exception):
    """A lesson whose script no longer fits the engine (a test catches it)."""


@dataclass
class Attempt:
    """What became of one of the learner's actions."""

    accepted: bool
    events: tuple[Event, ...] = ()
    refusal: Msg | None = None  # the rules' refusal, or None when the lesson wanted another move
    wanted: Msg | None = None  # the move the lesson asks for, in words, when it was not this one


class Tutor:
    """One learner's walk through a lesson (pure: no I/O, no Discord)."""

    def __init__(self, lesson: Lesson) -> None:
        self.lesson = lesson
        self.game: Game[Any, Any, Any] = GAMES[lesson.game_id]
        self.match = Match(self.game, dict(lesson.options), lesson.seats, lesson.seed)
        self.step_index = 0
        self._replies: list[str] = []
        self._since = 0  # the version after which the learner has not seen the events
        for seat, notation in lesson.prelude:
            self._play(seat, notation)
        self._opponents()
        self._since = self.match.version

    # ---- reading -------------------------------------------------------------
    @property
    def learner(self) -> int:
        return self.lesson.learner

    @property
    def finished(self) -> bool:
        return self.step_index >= len(self.lesson.steps) or self.match.is_over

    @property
    def step(self) -> Step | None:
        return None if self.finished else self.lesson.steps[self.step_index]

    def legal(self) -> list[str]:
        return self.match.legal_notations(self.learner)

    def accepts(self, notation: str) -> bool:
        """Whether the rules accept this move of the learner now: a complete
        move counts even where ``legal()`` lists only the menu's openers
        (Via Belli's turn offers ``+`` for every summon the menu completes)."""
        try:
            self.match.preview(self.learner, notation)
        except RulesError:
            return False
        return True

    def hint(self) -> tuple[str, Msg, Msg | None]:
        """``(notation, the move in words, why)`` of the suggested move."""
        step = self.step
        if step is None:
            raise LessonError("no hint after the last step")
        if step.expect:
            notation = step.expect[0]
        else:
            view = self.match.view(self.learner)
            legal = self.match.legal_actions(self.learner)
            rng_state = bot_rng(self.lesson.seed, self.learner, "hint", str(self.match.version))
            action, _ = make_bot(self.lesson.game_id, "normal", fallback=True).choose(
                view, legal, rng_state
            )
            notation = self.game.format_action(action)
        action = self.game.parse_action(notation)
        words = self.game.describe_action(self.match.state, self.learner, action)
        why = None if step.hint is None else Msg.of(step.hint, **step.params)
        return notation, words, why

    def new_events(self) -> list[Event]:
        """The events the learner has not been shown yet (then marked seen)."""
        events = [item.event for item in self.match.events(self.learner, self._since)]
        self._since = self.match.version
        return events

    # ---- acting --------------------------------------------------------------
    def act(self, notation: str) -> Attempt:
        """The learner's move: refused by the rules, not the one the lesson
        asks for, or played (and the opponent answers)."""
        step = self.step
        if step is None:
            raise LessonError("the lesson is over")
        try:
            action = self.game.parse_action(notation.strip())
            new_state, events, normal = self.match.preview(self.learner, action)
        except RulesError as error:
            return Attempt(False, refusal=error.msg)
        if step.expect and normal not in step.expect:
            wanted = self.game.parse_action(step.expect[0])
            words = self.game.describe_action(self.match.state, self.learner, wanted)
            return Attempt(False, wanted=words)
        self.match.accept(self.learner, normal, new_state, events)
        self._replies = list(step.reply)
        self.step_index += 1
        self._opponents()
        return Attempt(True, events=events)

    def _play(self, seat: int, notation: str) -> None:
        try:
            self.match.play(seat, notation)
        except RulesError as error:
            raise LessonError(
                f"{self.lesson.game_id}: {notation!r} by seat {seat} at version"
                f" {self.match.version}: {error}"
            ) from error

    def _opponents(self) -> None:
        """The tutor bot plays until the learner must act (or the game ends)."""
        for _ in range(10_000):
            pending = self.match.pending()
            if not pending or (self.learner in pending and len(pending) == 1):
                return
            seat = next(s for s in sorted(pending) if s != self.learner)
            if self._replies:
                self._play(seat, self._replies.pop(0))
                continue
            view = self.match.view(seat)
            legal = self.match.legal_actions(seat)
            rng_state = bot_rng(self.lesson.seed, seat, "tutor", str(self.match.version))
            action, _ = make_bot(self.lesson.game_id, "easy", fallback=True).choose(
                view, legal, rng_state
            )
            self.match.play(seat, action)
        raise LessonError(f"{self.lesson.game_id}: the tutor bot never hands over")


def walk(lesson: Lesson) -> Tutor:
    """Play a lesson through with the moves it asks for (the hint where it
    asks for none); raise :class:`LessonError` where the script no longer
    fits. Used by the tests of every lesson."""
    free = False
    tutor = Tutor(lesson)
    for number, step in enumerate(lesson.steps):
        if tutor.match.is_over:
            raise LessonError(f"{lesson.game_id}: the game ended before step {number + 1}")
        if lesson.learner not in tutor.match.pending():
            raise LessonError(f"{lesson.game_id}: the learner is not to act at step {number + 1}")
        if free and step.expect:
            raise LessonError(
                f"{lesson.game_id}: step {number + 1} expects a move after a free one"
            )
        free = free or not step.expect
        missing = [n for n in step.expect if not tutor.accepts(n)]
        if missing:
            raise LessonError(f"{lesson.game_id}: step {number + 1}: not legal: {missing}")
        notation, _, _ = tutor.hint()
        attempt = tutor.act(notation)
        if not attempt.accepted:
            raise LessonError(f"{lesson.game_id}: step {number + 1}: {notation!r} refused")
        if tutor._replies:
            raise LessonError(f"{lesson.game_id}: step {number + 1}: replies left unplayed")
    return tutor
