"""The Battalia lesson, with Buff le Sans Bannière: a turn of exact
payments, a city for victory points, a purchase, the end of the turn, then
week 2's auction and Buff's attack (``docs/rules/battalia.md``).

The learner is seat 1 (the Ursidés, start city f6), the tutor seat 2 (the
Insulaires, b2), default options, seed 12. The prelude is the first six days
as the ``normal`` bot played them (the learner's side also summoned its hero
on f6 as soon as it held an Arme, and never moved it), so the lesson opens on
day 7 with a hand that builds a level-1 city, and reaches week 2, Buff's
auction, in one more turn each: Buff teaches itself in the lesson instead of
only in the outro. The tutor bids 8 and puts Buff on f6, where the learner's
hero stands; the learner's best line (8) beats the horde (6).
``tests/bot/test_learn_battalia.py`` checks every one of these facts.
"""

from __future__ import annotations

from bot.learn.lesson import Lesson, Step

# Days 1 to 6 (set-up first: factions, then the start cities).
PRELUDE: tuple[tuple[int, str], ...] = (
    (0, "faction u"),
    (1, "faction i"),
    (1, "start b2"),
    (0, "start f6"),
    (0, "buy 2 : P P P"),
    (0, "end"),
    (1, "cohort 1a 1a 2a"),
    (1, "buy 2 : P P P"),
    (1, "buy A : 1a 1a 2a"),
    (1, "end"),
    (0, "buy A : 1i 1a 2u"),
    (0, "buy 1 : P P"),
    (0, "end"),
    (1, "buy 3 : P P P P"),
    (1, "end"),
    (0, "buy 3 : P P P P"),
    (0, "end"),
    (1, "buy 1 : P P"),
    (1, "end"),
    (0, "buy A : 1i 1a 2i"),
    (0, "road T : 1u 1i P"),
    (0, "place f5 2"),
    (0, "end"),
    (1, "buy 2 : P P P"),
    (1, "buy M : 1i 1a 3u"),
    (1, "end"),
    (0, "buy 3 : P P P P"),
    (0, "end"),
    (1, "upgrade b2 : 2a 2a"),
    (1, "road I : 1a P"),
    (1, "place c2 1"),
    (1, "end"),
    (0, "summon f6 : Ai P P"),
    (0, "end"),
    (1, "buy 3 : P P P P"),
    (1, "end"),
)

CITY = "city 1X : 1i 1i 1a"
PLACE = "place e5 0"
BUY = "buy 1 : P P"
BID = "bid 1u"
TUTOR_BID = "bid 2i 2a 3u Au"
FIGHT = "fight : 2u 3i 3a"

LESSON = Lesson(
    game_id="battalia",
    seed=12,
    intro="learn-bt-intro",
    outro="learn-bt-outro",
    prelude=PRELUDE,
    steps=(
        # 1-2. A city: an exact payment, then the card placed; its level is VP.
        Step(
            say="learn-bt-city-say",
            expect=(CITY,),
            hint="learn-bt-city-hint",
            done="learn-bt-city-done",
        ),
        Step(
            say="learn-bt-place-say",
            expect=(PLACE,),
            hint="learn-bt-place-hint",
            done="learn-bt-place-done",
        ),
        # 3. Deck-building: a bought card goes to the discard pile.
        Step(
            say="learn-bt-buy-say",
            expect=(BUY,),
            hint="learn-bt-buy-hint",
            done="learn-bt-buy-done",
        ),
        # 4. End of the turn; the tutor's day 7; week 2 opens Buff's auction.
        Step(
            say="learn-bt-end-say",
            expect=("end",),
            reply=("buy 2 : P P P", "end", TUTOR_BID),
            hint="learn-bt-end-hint",
            done="learn-bt-end-done",
        ),
        # 5. The secret auction; the tutor wins and brings Buff onto f6.
        Step(
            say="learn-bt-bid-say",
            expect=(BID,),
            reply=("enter f6",),
            hint="learn-bt-bid-hint",
            done="learn-bt-bid-done",
        ),
        # 6. Buff attacks the learner's hero: a line against the horde.
        Step(
            say="learn-bt-fight-say",
            expect=(FIGHT,),
            hint="learn-bt-fight-hint",
            done="learn-bt-fight-done",
        ),
    ),
)
