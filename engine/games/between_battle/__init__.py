"""Between Battle (seed 003): play a number between the two piles, or take damage.

Cards are short strings: a character code and a label, ``"Pi7"`` (Pirate 7),
``"ChX"`` (the Chevalier's joker). On a pile, a link played facing outwards
(its link is open) carries a ``~`` suffix: ``"Co5~"``.

Notation (piles and seats are 1-based for people):

===============  ===================================================
``pirate``       pick a character (draft)
``7>1``          play the 7 on pile 1 (``X>2``: the joker on pile 2)
``5+1``          create a link: discard pile 1 (its top is an open
                 link) and put the 5 there alone
``D``            take damage
``P2``           (the chooser) give pile 2 to the player taking damage
``^Co7``         (joker) bring the Cow-boy's 7 up above the joker
``T14``          (Pirate's unique) take the 14 from your deck
``@2``           choose player 2 as the target of an ability
===============  ===================================================

The package: ``data`` (the card data file's schema and loading), ``model``
(options, state, views), ``actions`` (action types and their notation),
``board`` (card, pile and seat helpers), ``rules`` (the :class:`BetweenBattle`
game: setup, who decides, apply, the turn, damage and the end, views),
``legality`` (one check per kind of action: the legal actions and why an
action is refused), ``abilities`` (the joker and the characters' abilities),
``text`` (texts for hosts, as catalogue keys), ``sampling`` (``determinize``, ``sample_state``).
This module re-exports the names code outside it uses.
"""

from __future__ import annotations

from .actions import (
    CODES,
    Action,
    GivePile,
    Link,
    Pick,
    Play,
    Pull,
    TakeDamage,
    Target,
    Tutor,
)
from .board import ability_of, card_kind, card_value, is_open, pile_value, plain, split_code
from .data import (
    GAME_ID,
    CardSpec,
    CharacterId,
    CharacterSpec,
    DeckFile,
    Kind,
    SpecialAbility,
    UniqueAbility,
    deck_file,
)
from .model import CHARACTER_ALIASES, Deck, Options, Phase, Player, PlayerView, Rules, State, View
from .rules import GAME, BetweenBattle
from .text import character_sheet

__all__ = [
    "CHARACTER_ALIASES",
    "CODES",
    "GAME",
    "GAME_ID",
    "Action",
    "BetweenBattle",
    "CardSpec",
    "CharacterId",
    "CharacterSpec",
    "Deck",
    "DeckFile",
    "GivePile",
    "Kind",
    "Link",
    "Options",
    "Phase",
    "Pick",
    "Play",
    "Player",
    "PlayerView",
    "Pull",
    "Rules",
    "SpecialAbility",
    "State",
    "TakeDamage",
    "Target",
    "Tutor",
    "UniqueAbility",
    "View",
    "ability_of",
    "card_kind",
    "card_value",
    "character_sheet",
    "deck_file",
    "is_open",
    "pile_value",
    "plain",
    "split_code",
]
