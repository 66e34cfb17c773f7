"""The Chroniques de Liber lesson: the learner plays the Horde de Brenna
(``aggro``: cheap melee units, Impatient, Fanatique) against the Archers de
Corwin (``tir``), places a Berserker on the back line, ends the placement-only
first round, passes a response window, moves the Berserker to the front, kills
a Frondeur (damage, riposte, victory points, faith), then sends an Impatient
Recrue against the enemy general, who strikes back (texts: ``learn_liber``).
"""

from __future__ import annotations

from bot.learn.lesson import Lesson, Step

LESSON = Lesson(
    game_id="liber",
    seed=1,
    options={"decks": "aggro/tir"},
    intro="learn-lb-intro",
    steps=(
        Step(
            say="learn-lb-place",
            expect=("play berserker a2",),
            hint="learn-lb-place-hint",
            done="learn-lb-place-done",
        ),
        Step(
            say="learn-lb-next",
            expect=("next",),
            # The tutor's first turn: a Frondeur on its front line, then the
            # end of its placement phase (which opens the learner's window).
            reply=("play frondeur f2", "next"),
            hint="learn-lb-next-hint",
            done="learn-lb-next-done",
        ),
        Step(
            say="learn-lb-window",
            expect=("pass",),
            hint="learn-lb-window-hint",
            done="learn-lb-window-done",
        ),
        Step(
            say="learn-lb-move",
            expect=("move a2 f2",),
            hint="learn-lb-move-hint",
        ),
        Step(
            say="learn-lb-attack-phase",
            expect=("next",),
            hint="learn-lb-attack-phase-hint",
        ),
        Step(
            say="learn-lb-attack",
            expect=("attack f2 2f2",),
            hint="learn-lb-attack-hint",
            done="learn-lb-attack-done",
        ),
        Step(
            say="learn-lb-impatient",
            expect=("play recrue f3",),
            hint="learn-lb-impatient-hint",
        ),
        Step(
            say="learn-lb-general",
            expect=("attack f3 2a3",),
            hint="learn-lb-general-hint",
            done="learn-lb-general-done",
        ),
    ),
    outro="learn-lb-outro",
)
