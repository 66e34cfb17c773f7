"""The Belle Position lesson: deploy, the four phases of a turn, melee and
cohesion, victory by occupation (``docs/rules/belle-position.md``).

The learner leads the French (seat 1, the default ``french_seat``) against
the tutor's Germans, with the preset armies and the default options. Seed 84
deals the handles below; the prelude deploys most of both armies: a Ligne
Française in each French position and Mac-Mahon in the centre; the Germans
mass everything in their centre (two Ligne Prussienne, a Landwehr, von der
Tann) and put their Bois on their left wing, so they deployed more terrain
and the French play first, and the German wings hold no unit.

The dice of that seed: the tutor's Ligne Prussienne A3 hits the Cuirassiers
once (1, 3, 4 against 2), their cohesion test holds (2 against 2), their
melee hits once (5, 4, 1 against 3); then two moves into the abandoned
German wings win by occupation. ``tests/bot/test_learn_belle_position.py``
checks every one of these facts.
"""

from __future__ import annotations

from bot.learn.lesson import Lesson, Step

# The cards of seed 84 (handles are dealt after the shuffle).
LIGNE_LEFT = "F1"  # Ligne Française, French left wing
LIGNE_RIGHT = "F3"  # Ligne Française, French right wing
LIGNE_CENTRE = "F8"  # Ligne Française, French centre
MAC_MAHON = "F5"
CUIRASSIERS = "F4"
PRUSSIAN = "A3"  # Ligne Prussienne (it fires at the Cuirassiers)
PRUSSIAN_2 = "A9"  # Ligne Prussienne
LANDWEHR = "A1"
BOIS = "A7"
VON_DER_TANN = "A14"

LESSON = Lesson(
    game_id="belle-position",
    seed=84,
    intro="learn-bp-intro",
    outro="learn-bp-outro",
    prelude=(
        (0, f"{LIGNE_LEFT}>G"),
        (0, f"{LIGNE_RIGHT}>D"),
        (0, f"{LIGNE_CENTRE}>C"),
        (0, f"{MAC_MAHON}>C"),
        (1, f"{PRUSSIAN}>C"),
        (1, f"{PRUSSIAN_2}>C"),
        (1, f"{LANDWEHR}>C"),
        (1, f"{BOIS}>G"),
        (1, f"{VON_DER_TANN}>C"),
        (1, "ok"),
    ),
    steps=(
        # 1. Deployment: face down, four cards a position.
        Step(
            say="learn-bp-deploy-say",
            expect=(f"{CUIRASSIERS}>C",),
            hint="learn-bp-deploy-hint",
            done="learn-bp-deploy-done",
        ),
        # 2. End of the deployment; fewer terrain cards plays first.
        Step(
            say="learn-bp-ready-say",
            expect=("ok",),
            hint="learn-bp-ready-hint",
            done="learn-bp-ready-done",
        ),
        # 3. A turn's phases; movement into the enemy position opposite engages.
        Step(
            say="learn-bp-move-say",
            expect=(f"{CUIRASSIERS}>EC",),
            hint="learn-bp-move-hint",
            done="learn-bp-move-done",
        ),
        # 4. End of movement: face up, reinforcement; the enemy's turn: its
        #    melee, our losses, then our cohesion test.
        Step(
            say="learn-bp-end-move-say",
            expect=("ok",),
            reply=(f"{PRUSSIAN}@C", "ok", "ok"),
            hint="learn-bp-end-move-hint",
            done="learn-bp-end-move-done",
        ),
        # 5. Melee: VC dice against the firepower.
        Step(
            say="learn-bp-melee-say",
            expect=(f"{CUIRASSIERS}@EC",),
            hint="learn-bp-melee-hint",
            done="learn-bp-melee-done",
        ),
        # 6-7. Victory: two abandoned enemy positions.
        Step(
            say="learn-bp-occupy-say",
            expect=(f"{LIGNE_LEFT}>ED",),
            hint="learn-bp-occupy-hint",
            done="learn-bp-occupy-done",
        ),
        Step(
            say="learn-bp-win-say",
            expect=(f"{LIGNE_RIGHT}>EG",),
            hint="learn-bp-win-hint",
            done="learn-bp-win-done",
        ),
    ),
)
