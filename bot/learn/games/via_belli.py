"""The Via Belli lesson: a short match on a small table (the ``gueridon``
preset with its castles 10 cells apart), where the learner summons a column
from the castle, hides a card in ambush, draws, sees the tutor's Espion fail
against the ambush, takes an inn with a dog (and passes the free second dog),
then links a Lancier to the enemy castle and takes it with the Lancier's free
attack (texts: ``learn_via_belli``).

Every learner move is a complete action (``Roturier K12L``), the one the
action menu and typing both send. (``walk`` in :mod:`bot.learn.lesson` checks
``expect`` against ``legal_notations``, which at Via Belli's turn decision are
only the menu openers ``D``, ``+``, ``>``, ``x``: see the report of issue 16;
the tests check this lesson with the complete actions allowed.)
"""

from __future__ import annotations

from bot.learn.lesson import Lesson, Step

LESSON = Lesson(
    game_id="via-belli",
    seed=4,
    options={"table": "gueridon", "castle_gap": 10},
    intro="learn-vb-intro",
    steps=(
        Step(
            say="learn-vb-summon",
            expect=("Roturier K12L",),
            hint="learn-vb-summon-hint",
            done="learn-vb-summon-done",
        ),
        Step(
            say="learn-vb-ambush",
            expect=("?Paladin K15L",),
            hint="learn-vb-ambush-hint",
            done="learn-vb-ambush-done",
        ),
        Step(
            say="learn-vb-draw",
            expect=("D",),
            # The tutor's turn: an Espion against the learner's castle, then
            # its attack, which reveals the Paladin in ambush.
            reply=("Espion H8P", "H8xH12"),
            hint="learn-vb-draw-hint",
            done="learn-vb-draw-done",
        ),
        Step(
            say="learn-vb-inn",
            expect=("Molosse Masqué J8P",),
            hint="learn-vb-inn-hint",
            done="learn-vb-inn-done",
        ),
        Step(
            say="learn-vb-dog",
            expect=("-",),
            hint="learn-vb-dog-hint",
        ),
        Step(
            say="learn-vb-column",
            expect=("Lancier O12P",),
            hint="learn-vb-column-hint",
            done="learn-vb-column-done",
        ),
        Step(
            say="learn-vb-conquer",
            expect=("O12xR12",),
            hint="learn-vb-conquer-hint",
            done="learn-vb-conquer-done",
        ),
    ),
    outro="learn-vb-outro",
)
