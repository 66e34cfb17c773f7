"""Battalia images: what is derived once from the view (the readers' names,
the seats' colours, the squares' coordinates), the cards' French names and
the words (the ``battalia_render`` catalogue's ``bt-render-*`` keys)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import i18n
from engine.games.battalia.data import card_name as data_name
from engine.games.battalia.model import PlayerView, View

from ..common import RGB, clean_text
from .style import FACTION_COLOURS, FACTION_TERRAIN, UNCHOSEN

COLUMNS = "abcdefg"
SIZE = 7


def tr(lang: str, key: str, **params: object) -> str:
    """A word of these images: the ``bt-render-<key>`` text of the catalogue."""
    return i18n.translate(lang, "bt-render-" + key, **params)


def square_xy(square: str) -> tuple[int, int] | None:
    """``"c3"`` -> (column 2, row 2), a1 top-left; None when unreadable."""
    if len(square) != 2 or square[0] not in COLUMNS or not square[1].isdigit():
        return None
    row = int(square[1]) - 1
    return (COLUMNS.index(square[0]), row) if 0 <= row < SIZE else None


_RANKS = ("Citoyen", "Chef", "Prêtre", "Seigneur")
_ADJ = {"u": "ursidé", "i": "insulaire", "a": "ambrardent", "n": "nébuleux", "m": "sans bannière"}


def card_name(code: str) -> str:
    """The French name of a card code (« Chef insulaire »), in every
    language; the code itself when the data file does not know it."""
    try:
        return data_name(code)
    except (KeyError, StopIteration, IndexError, ValueError):
        pass
    if len(code) == 2 and code[0] in "1234" and code[1] in _ADJ:
        return f"{_RANKS[int(code[0]) - 1]} {_ADJ[code[1]]}"
    return code


def card_faction(code: str) -> str | None:
    """The faction letter of a unit or artefact code (``2i`` -> ``i``)."""
    if len(code) == 2 and code[1] in FACTION_COLOURS:
        return code[1]
    return None


def card_rank(code: str) -> int:
    """A unit's rank (its strength), 0 for any other card."""
    return int(code[0]) if len(code) == 2 and code[0] in "1234" else 0


def card_group(code: str) -> str:
    """``unit``, ``provision``, ``artefact`` or ``great`` (Great Artefact)."""
    if code == "P":
        return "provision"
    if code.startswith("G") and code[1:].isdigit():
        return "great"
    if card_rank(code):
        return "unit"
    return "artefact"


@dataclass(frozen=True)
class Ctx:
    view: View
    lang: str
    names: tuple[str, ...]

    def t(self, key: str, **params: object) -> str:
        return tr(self.lang, key, **params)

    def name(self, seat: int | None) -> str:
        if seat is None:
            return self.t("target-buff")
        if 0 <= seat < len(self.names):
            return self.names[seat]
        return self.t("player", n=seat + 1)

    def faction(self, seat: int) -> str | None:
        factions = tuple(self.view.factions)
        return factions[seat] if 0 <= seat < len(factions) else None

    def colour(self, seat: int | None) -> RGB:
        """A seat's colour: its faction's element colour once chosen."""
        if seat is None:
            return FACTION_COLOURS["m"]
        faction = self.faction(seat)
        if faction in FACTION_TERRAIN:
            return FACTION_COLOURS[faction]
        return UNCHOSEN  # before the faction choice: no colour yet

    def faction_name(self, faction: str | None) -> str:
        return (
            self.t(f"faction-{faction}") if faction in FACTION_TERRAIN else self.t("faction-none")
        )

    def winners(self) -> tuple[int, ...]:
        """The winning seats once the game is over (ties share the win)."""
        v = self.view
        if v.phase != "over":
            return ()
        if v.ranking:
            return tuple(v.ranking[0])
        return () if v.winner is None else (v.winner,)

    def buff_on(self) -> bool:
        """Whether this game plays with Buff (option ``buff``)."""
        rules = self.view.rules
        return rules is None or bool(rules.buff)

    def player(self, seat: int) -> PlayerView | None:
        for p in self.view.players:
            if p.seat == seat:
                return p
        return None


def clean_names(names: Sequence[str], seats: int, lang: str) -> tuple[str, ...]:
    out: list[str] = []
    for seat in range(seats):
        raw = str(names[seat]) if seat < len(names) else ""
        text = clean_text(raw[:200], "condensed-bold")
        out.append(text or tr(lang, "player", n=seat + 1))
    return tuple(out)


def context(view: object, names: Sequence[str], locale: str) -> Ctx:
    if not isinstance(view, View):
        raise TypeError(f"expected a Battalia View, got {type(view).__name__}")
    lang = i18n.pick(locale)
    return Ctx(view=view, lang=lang, names=clean_names(names, len(view.players), lang))
