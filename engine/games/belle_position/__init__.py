"""Belle Position (seed 001): 1870-71 battle lines, armies bought with points,
hidden deployment, dice fire, cohesion tests, generals and terrain.

Two players, one French and one German army. Each army is a list of cards
(units, generals, terrain, specials) bought with 200 or 250 points; 18 are
dealt into the *reserve* (the hand), the rest form the face-down
reinforcement pile. Each side has three battle positions, the left wing
(``G``), the centre (``C``) and the right wing (``D``); one's left faces the
enemy's right.

Every card of an army has a handle: its side letter (``F`` French, ``A``
German, *allemand*) and a number, ``F7``, ``A12``. Handles are given after
the shuffle, so they say nothing about the card. In the notation, positions
are written from the point of view of the player who acts: ``G`` ``C`` ``D``
(own wings), ``EG`` ``EC`` ``ED`` (enemy wings, *ennemi*), ``R`` (own
reserve). Events and views also give absolute codes: ``FG`` is the French
left wing, ``AC`` the German centre.

Notation:

===============  =========================================================
``F7>C``         deploy or move card F7 to your centre (``F7>EG``: into the
                 enemy's left wing; ``F7>R``: back to your reserve). A
                 terrain card moved from the reserve is placed face up.
``ok``           done: end your deployment, roll the cohesion tests, end the
                 combat phase, end the movement phase
``undo``         (deployment) take back the last card you deployed
``F7@EC``        F7 fires at the enemy's centre: melee when F7 is there,
                 long range when it is the opposite position, a flank
                 attack when it is beside (optional rule 18)
``F7@A3``        counter-battery: F7 fires at the enemy artillery A3
``-F3``          (the player taking losses) put the next loss token on F3
``F21!F7``       play the special card F21 on your unit F7
===============  =========================================================
"""

from __future__ import annotations

from .actions import Action, Done, Fire, Loss, Move, Play, Undo
from .board import (
    Board,
    _cap,
    _count,
    _kinds,
    absolute_of,
    board,
    card_index,
    lateral,
    opposite,
    relative_code,
    status_of,
)
from .data import (
    GAME_ID,
    GONE,
    LETTERS,
    PILE,
    RESERVE,
    USED,
    WINGS,
    ArmyError,
    ArmyFile,
    CardFile,
    TypeDef,
    _resolve,
    army_entries,
    army_file,
    army_text,
    card_file,
    catalog,
    check_army,
    check_total,
    describe_army,
    generic_general,
    pack_type,
    parse_army,
    preset_entries,
    type_def,
    type_name,
    unpack_type,
)
from .model import (
    Alloc,
    AllocView,
    Army,
    Card,
    CardView,
    Combat,
    GeneralStatus,
    Options,
    PlayerView,
    PositionView,
    Rules,
    SideAt,
    State,
    Test,
    View,
    army_of,
)
from .rules import GAME, BellePosition

__all__ = [
    "GAME",
    "GAME_ID",
    "GONE",
    "LETTERS",
    "PILE",
    "RESERVE",
    "USED",
    "WINGS",
    "Action",
    "Alloc",
    "AllocView",
    "Army",
    "ArmyError",
    "ArmyFile",
    "BellePosition",
    "Board",
    "Card",
    "CardFile",
    "CardView",
    "Combat",
    "Done",
    "Fire",
    "GeneralStatus",
    "Loss",
    "Move",
    "Options",
    "Play",
    "PlayerView",
    "PositionView",
    "Rules",
    "SideAt",
    "State",
    "Test",
    "TypeDef",
    "Undo",
    "View",
    "_cap",
    "_count",
    "_kinds",
    "_resolve",
    "absolute_of",
    "army_entries",
    "army_file",
    "army_of",
    "army_text",
    "board",
    "card_file",
    "card_index",
    "catalog",
    "check_army",
    "check_total",
    "describe_army",
    "generic_general",
    "lateral",
    "opposite",
    "pack_type",
    "parse_army",
    "preset_entries",
    "relative_code",
    "status_of",
    "type_def",
    "type_name",
    "unpack_type",
]
