"""The Between Battle lesson: six situations of one short game, the learner
playing the Cow-boy against the Tutor's Pirate (seed 198 deals the Cow-boy
2, 5, 6, 9 and the joker, and lets the Cow-boy start).

1. both piles empty: any card, anywhere (T2: the Tutor must then fill the
   other, empty pile);
2. « un chiffre compris ENTRE les deux valeurs » (T1): 9 between 2 and 15;
3. a link: the Tutor's 12, played normally, is an open link; the Cow-boy's
   5 completes it and replaces the pile (T6);
4. the joker can always be played (T5) ...
5. ... and brings a card of its pile back up (the Pirate's 15);
6. nothing fits between 13 and 15: take damage, the Tutor gives a pile (T4).

Texts: ``i18n/locales/<lang>/learn_between_battle.po`` (``learn-bb-*``)."""

from __future__ import annotations

from ..lesson import Lesson, Step

LESSON = Lesson(
    game_id="between-battle",
    seed=198,
    options={"characters": "cowboy,pirate"},
    intro="learn-bb-intro",
    steps=(
        Step(
            say="learn-bb-empty",
            expect=("2>1",),
            reply=("15>2",),
            hint="learn-bb-empty-hint",
            done="learn-bb-empty-done",
        ),
        Step(
            say="learn-bb-between",
            expect=("9>1",),
            reply=("12>1",),
            hint="learn-bb-between-hint",
            done="learn-bb-between-done",
        ),
        Step(
            say="learn-bb-link",
            expect=("5+1",),
            reply=("11>2",),
            hint="learn-bb-link-hint",
            done="learn-bb-link-done",
        ),
        Step(
            say="learn-bb-joker",
            expect=("X>2",),
            hint="learn-bb-joker-hint",
        ),
        Step(
            say="learn-bb-pull",
            expect=("^Pi15",),
            reply=("13>1",),
            hint="learn-bb-pull-hint",
            done="learn-bb-pull-done",
        ),
        Step(
            say="learn-bb-damage",
            expect=("D",),
            reply=("P2",),
            hint="learn-bb-damage-hint",
            done="learn-bb-damage-done",
        ),
    ),
    outro="learn-bb-outro",
    names=("", "learn-tutor"),
)
