"""Via Belli (seed 000): the table becomes the board.

The table is a grid of cells of about 22 mm. A card covers 3x4 cells standing
(portrait, ``P``) or 4x3 lying (landscape, ``L``); two cards touch when they
share an edge of at least one cell (corners do not count). Columns are
letters (``A`` ... ``Z``, ``AA`` ...), rows are numbers from 1, as printed on
the board image; a card on the table is named by its top-left cell (its
*tag*, ``C5``).

A turn is a series of actions paid with action points (PA). Each action is
chosen in a few short steps (a menu, then what, then where); every step is
one action of the engine, and every choice offered leads to a complete
action:

=====================  ==================================================
``D``                  draw a card (1 PA)
``+``                  summon menu (face up, or in ambush for 2 PA)
``>``                  move or recall menu (1 PA)
``x``                  attack menu (1 PA per attacker)
``^``                  Sorcier menu (the card's IVK)
``Roturier@D11``       the card to summon face up and the card to place it
                       against (``?Roturier@D11``: in ambush)
``Roturier G11P``      summon it with its top-left cell at G11, standing
                       (``L``: lying; ``?Roturier G11P`` in ambush)
``G11@D11``            the card to move and the card to move it along
``G11>G15L``           move the card at G11 to G15, lying
``<G11``               recall the card at G11
``G8+G11xJ11``         attack the card at J11 with those at G8 and G11
``^Bailli``            (Sorcier) take a Bailli back from the discard
``!D15``               (defender) reveal the ambush card at D15
``-``                  decline the free dog; in a step: back to the turn
``E``                  end the turn (only with ``must_spend_pa=false``)
=====================  ==================================================

A complete action (``Roturier G11P``, ``G11>G15L``, ``<G11``,
``G8+G11xJ11``, ``^Bailli``) is also accepted at the turn decision, where it
stands for all its steps at once (hosts may build it with their own menus).
Rules as implemented, every option and the view: ``docs/rules/via-belli.md``.

The package, by what its modules hold (dependencies point up the list):

* ``geometry`` cells, rectangles, the table layout, cups, the bit-mask
  placement fields; ``data`` the card data file's schema and the presets;
  ``model`` options, state, views and small edits of a state; ``actions``
  the actions and their notation; ``board`` the table analysed (contacts,
  supply, current values) and its per-thread cache (a board is derived
  from the previous one when a card was placed, moved or taken off);
* ``summoning``, ``moving``, ``attacking`` what may go where (queries
  memoised per board); ``checks`` whether an action is legal now and if not
  why (the single source of legality); ``legal`` the legal actions;
  ``randomplay`` one legal action drawn at random without listing them
  (``random_action``: the card first, then its anchor and spot);
* ``turns`` who decides, what follows every action, turns and the end;
  ``combat`` attacks; ``play`` the steps and each action's effect;
  ``start`` a new game;
* ``view``, ``sampling`` (``determinize``, ``sample_state``), ``menu``
  (menus for hosts), ``text`` (the texts as catalogue keys), ``codec`` (the
  compact JSON form of a state);
* ``rules`` the :class:`ViaBelli` game, thin wrappers over the modules.

This module re-exports the names code outside the package imports.
"""

from __future__ import annotations

from .actions import (
    Action,
    Anchor,
    Attack,
    Begin,
    BeginKind,
    Cancel,
    Draw,
    EndTurn,
    FullAction,
    Move,
    Pivot,
    Recall,
    Reveal,
    Sorcery,
    Summon,
)
from .board import (
    K_CASTLE,
    K_TERRAIN,
    K_UNIT,
    Board,
    PublicParts,
    Side,
    Stats,
    board_of,
    card_order,
    card_table,
    share_board,
)
from .data import (
    GAME_ID,
    PRESETS,
    RESERVED_WORDS,
    Ability,
    DeckFile,
    Preset,
    TableName,
    TerrainSpec,
    UnitSpec,
    deck_file,
    name_key,
)
from .geometry import (
    CELL_MM,
    LONG,
    MAX_SIDE,
    MIN_SIDE,
    SHORT,
    Cell,
    Geo,
    Layout,
    Rect,
    around,
    card_rect,
    cell_text,
    col_index,
    col_label,
    columns,
    geometry,
    parse_cell,
    preset_cups,
    random_cups,
    table_layout,
)
from .model import (
    AMBUSH_COST,
    BASE_PA,
    INN_PA,
    SUB_PHASES,
    CardDef,
    CardInfo,
    Castle,
    CastleView,
    Combat,
    CombatView,
    Options,
    Phase,
    Player,
    PlayerView,
    Rules,
    SelectionView,
    SelKind,
    State,
    Terrain,
    TerrainKind,
    TerrainView,
    Unit,
    UnitView,
    View,
)
from .rules import GAME, ViaBelli

__all__ = [
    "AMBUSH_COST",
    "BASE_PA",
    "CELL_MM",
    "GAME",
    "GAME_ID",
    "INN_PA",
    "K_CASTLE",
    "K_TERRAIN",
    "K_UNIT",
    "LONG",
    "MAX_SIDE",
    "MIN_SIDE",
    "PRESETS",
    "RESERVED_WORDS",
    "SHORT",
    "SUB_PHASES",
    "Ability",
    "Action",
    "Anchor",
    "Attack",
    "Begin",
    "BeginKind",
    "Board",
    "Cancel",
    "CardDef",
    "CardInfo",
    "Castle",
    "CastleView",
    "Cell",
    "Combat",
    "CombatView",
    "DeckFile",
    "Draw",
    "EndTurn",
    "FullAction",
    "Geo",
    "Layout",
    "Move",
    "Options",
    "Phase",
    "Pivot",
    "Player",
    "PlayerView",
    "Preset",
    "PublicParts",
    "Recall",
    "Rect",
    "Reveal",
    "Rules",
    "SelKind",
    "SelectionView",
    "Side",
    "Sorcery",
    "State",
    "Stats",
    "Summon",
    "TableName",
    "Terrain",
    "TerrainKind",
    "TerrainSpec",
    "TerrainView",
    "Unit",
    "UnitSpec",
    "UnitView",
    "ViaBelli",
    "View",
    "around",
    "board_of",
    "card_order",
    "card_rect",
    "card_table",
    "cell_text",
    "col_index",
    "col_label",
    "columns",
    "deck_file",
    "geometry",
    "name_key",
    "parse_cell",
    "preset_cups",
    "random_cups",
    "share_board",
    "table_layout",
]
