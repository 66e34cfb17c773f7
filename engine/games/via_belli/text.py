"""The texts for players, in English and French: decisions, actions, events,
summaries and the reasons an action is refused."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ...core import Decision, Event, Seat
from ...errors import IllegalAction
from ...text import colon, de
from .actions import (
    Action,
    Anchor,
    Attack,
    Begin,
    Cancel,
    Draw,
    EndTurn,
    Move,
    Pivot,
    Recall,
    Reveal,
    Sorcery,
    Summon,
)
from .board import K_CASTLE, K_TERRAIN, Board, board_of, card_table
from .geometry import cell_text
from .model import SUB_PHASES, State, View

_DECISION_TEXTS = {
    "anchor": "Choose the card and the card to place it against (Roturier@C5; "
    "?Roturier@C5 in ambush).",
    "spot": "Choose the spot: top-left cell and P (standing) or L (lying); - goes back.",
    "pivot": "Choose the card to move and the card to move it along (C5@D9), or the "
    "card to recall (<C5).",
    "destination": "Choose where it goes: top-left cell and P or L; - goes back.",
    "attack": "Choose the attackers and the target (C5+F5xD9).",
    "sorcery": "Sorcier: choose the card to take back from the discard (^Roturier).",
    "free-dog": "Dog: summon another dog for free (Cabot à Couteau@C5), or pass (-).",
}


def decision_text(decision: Decision, locale: str = "en", names: Sequence[str] = ()) -> str:
    fr = locale.lower().startswith("fr")
    kind = decision.kind
    if kind == "reveal":
        target = decision.param("target")
        attacker = decision.param("attacker")
        if isinstance(attacker, int) and 0 <= attacker < len(names):
            who = names[attacker]
        else:
            who = f"{'le joueur' if fr else 'player'} {int(attacker or 0) + 1}"
        if fr:
            return (
                f"{who} attaque votre carte en {target} : choisissez la carte en embuscade à "
                "retourner (!case)."
            )
        return f"{who} attacks your card at {target}: choose the ambush card to reveal (!cell)."
    if not fr:
        return decision.text
    pa = decision.param("pa")
    return {
        "turn": f"À vous, {pa} PA restants : piocher (D), invoquer (+), déplacer ou "
        "rapatrier (>), attaquer (x) ou Sorcier (^).",
        "anchor": "Choisissez la carte et la carte contre laquelle la poser (Roturier@C5 ; "
        "?Roturier@C5 en embuscade).",
        "spot": "Choisissez la place : case en haut à gauche et P (debout) ou L (couchée) ; "
        "- pour revenir.",
        "pivot": "Choisissez la carte à déplacer et la carte le long de laquelle (C5@D9), ou "
        "la carte à rapatrier (<C5).",
        "destination": "Choisissez la destination : case en haut à gauche et P ou L ; "
        "- pour revenir.",
        "attack": "Choisissez les attaquants et la cible (C5+F5xD9).",
        "sorcery": "Sorcier : choisissez la carte à reprendre dans la défausse (^Roturier).",
        "free-dog": "Chien : invoquez gratuitement un autre chien (Cabot à Couteau@C5), ou "
        "passez (-).",
    }.get(kind, decision.text)


def describe_action(state: State, seat: Seat, action: Action, locale: str = "en") -> str:
    fr = locale.lower().startswith("fr")
    table = card_table(state.rules)
    if isinstance(action, Draw):
        return "Piocher (1 PA)" if fr else "Draw (1 PA)"
    if isinstance(action, EndTurn):
        return "Finir le tour" if fr else "End the turn"
    if isinstance(action, Begin):
        labels = {
            "+": ("Invoquer / embuscade", "Summon / ambush"),
            ">": ("Déplacer / rapatrier (1 PA)", "Move / recall (1 PA)"),
            "x": ("Attaquer (1 PA par carte)", "Attack (1 PA per card)"),
            "^": ("Sorcier", "Sorcier"),
        }[action.kind]
        return labels[0] if fr else labels[1]
    if isinstance(action, Cancel):
        if state.phase == "free-dog":
            return "Pas de chien gratuit" if fr else "No free dog"
        return "Annuler" if fr else "Cancel"
    if isinstance(action, Summon | Move):
        orient = (
            ("couchée" if fr else "lying") if action.landscape else ("debout" if fr else "standing")
        )
        where = f"{cell_text(action.x, action.y)} {orient}"
        if isinstance(action, Summon):
            hidden = (
                " (embuscade)" if fr and action.hidden else " (ambush)" if action.hidden else ""
            )
            return f"{action.card} → {where}{hidden}"
        return f"{cell_text(action.fx, action.fy)} → {where}"
    if isinstance(action, Sorcery):
        return f"{'Reprendre' if fr else 'Take back'} {action.card} ({table[action.card].ivk} PA)"
    b = board_of(state)
    if isinstance(action, Anchor):
        cd = table[action.card]
        if state.phase == "free-dog":
            cost = "gratuit" if fr else "free"
        elif action.hidden:
            cost = ("embuscade, " if fr else "ambush, ") + f"{state.rules.ambush_cost} PA"
        else:
            cost = f"{cd.ivk} PA"
        against = _card_label(state, b, b.at((action.x, action.y)), seat, fr)
        return f"{cd.name} ({cost}, {cd.atk}/{cd.dfn}) {'contre' if fr else 'against'} {against}"
    if isinstance(action, Pivot):
        mover = _card_label(state, b, b.at((action.fx, action.fy)), seat, fr)
        pivot = _card_label(state, b, b.at((action.x, action.y)), seat, fr)
        return f"{mover} {'le long ' + de(pivot, mute_h=False) if fr else 'along ' + pivot}"
    if isinstance(action, Recall | Reveal):
        label = _card_label(state, b, b.at((action.x, action.y)), seat, fr)
        if isinstance(action, Recall):
            return f"{'Rapatrier' if fr else 'Recall'} {label}"
        return f"{'Retourner' if fr else 'Reveal'} {label}"
    assert isinstance(action, Attack)
    t = b.at(action.target)
    cis = [b.at(c) for c in action.attackers]
    atk = sum(b.atk(c) for c in cis)
    if b.kind[t] == K_TERRAIN:
        holders = [k for k in b.adj[t] if b.owner[k] == b.owner[t] and b.kind[k] != K_TERRAIN]
        dfn = sum(b.dfn(k) for k in holders)
    else:
        dfn = b.dfn(t)
    who = " + ".join(_card_label(state, b, c, seat, fr) for c in cis)
    return f"{who} → {_card_label(state, b, t, seat, fr)} ({atk} ATK / {dfn} DEF)"


def describe_event(event: Event, names: Sequence[str], locale: str = "en") -> str | None:
    fr = locale.lower().startswith("fr")
    d = event.data

    def who(key: str = "seat") -> str:
        seat = d.get(key)
        if not isinstance(seat, int) or not 0 <= seat < len(names):
            return "?"
        return names[seat]

    kind = event.kind
    describe = _EVENT_TEXTS.get(kind)
    return None if describe is None else describe(kind, d, who, names, fr)


def _setup_event_text(
    kind: str, d: Mapping[str, Any], who: Callable[..., str], names: Sequence[str], fr: bool
) -> str | None:
    """The deal, the initiative and the turns."""
    if kind == "deal":
        cards = d.get("cards")
        if isinstance(cards, list):
            return f"{'Votre main' if fr else 'Your hand'}{colon(fr)} {', '.join(cards)}."
        return None
    if kind in ("initiative", "initiative-tie"):
        shown = [
            f"{names[s] if s < len(names) else s + 1}{colon(fr)} {c}"
            for s, c in enumerate(d.get("cards", []))
            if c
        ]
        label = "Initiative" if kind == "initiative" else ("Départage" if fr else "Tie-break")
        return f"{label} — {', '.join(shown)}."
    if kind == "first-player":
        return f"{who()} {'commence' if fr else 'starts'}."
    if kind == "turn":
        return f"{'Tour ' + de(who()) if fr else 'Turn of ' + who()} ({d.get('pa')} PA)."
    return None


def _play_event_text(
    kind: str, d: Mapping[str, Any], who: Callable[..., str], names: Sequence[str], fr: bool
) -> str | None:
    """Draws, summons, moves, recalls and the Sorcier."""
    orient = {"P": "debout" if fr else "standing", "L": "couchée" if fr else "lying"}
    if kind == "draw":
        card = d.get("card")
        if card:
            return f"{who()} {'pioche' if fr else 'draws'} {card}."
        return f"{who()} {'pioche une carte' if fr else 'draws a card'}."
    if kind == "summon":
        return (
            f"{who()} invoque {d['card']} en {d['tag']} ({orient.get(str(d['orient']))})."
            if fr
            else f"{who()} summons {d['card']} at {d['tag']} ({orient.get(str(d['orient']))})."
        )
    if kind == "ambush":
        card = d.get("card")
        extra = f" ({card})" if card else ""
        return (
            f"{who()} pose une carte en embuscade en {d['tag']}{extra}."
            if fr
            else f"{who()} places an ambush card at {d['tag']}{extra}."
        )
    if kind == "free-dog":
        return f"{'Chien gratuit' if fr else 'Free dog'}{colon(fr)} {d['card']}."
    if kind == "move":
        card = d.get("card") or ("une carte" if fr else "a card")
        return (
            f"{who()} déplace {card} de {d['from']} en {d['tag']}."
            if fr
            else f"{who()} moves {card} from {d['from']} to {d['tag']}."
        )
    if kind == "recall":
        card = d.get("card") or ("une carte" if fr else "a card")
        return (
            f"{who()} rapatrie {card} ({d['tag']})."
            if fr
            else f"{who()} recalls {card} ({d['tag']})."
        )
    if kind == "sorcery":
        return (
            f"Sorcier : {who()} reprend {d['card']} de la défausse."
            if fr
            else f"Sorcier: {who()} takes {d['card']} back from the discard."
        )
    return None


def _combat_event_text(
    kind: str, d: Mapping[str, Any], who: Callable[..., str], names: Sequence[str], fr: bool
) -> str | None:
    """Attacks, ambushes revealed, supply cut off."""
    if kind == "ambush-revealed":
        return (
            f"Embuscade ! {d['card']} est retourné en {d['tag']}."
            if fr
            else f"Ambush! {d['card']} is revealed at {d['tag']}."
        )
    if kind == "attack":
        result = {
            "win": ("la cible tombe", "the target falls"),
            "lose": ("les attaquants tombent", "the attackers fall"),
            "tie": ("égalité", "tie"),
        }[str(d["result"])]
        dead = d.get("dead") or []
        fallen = ", ".join(f"{x['card']} ({x['tag']})" for x in dead if isinstance(x, dict))
        tail = (f" — morts : {fallen}" if fr else f" — dead: {fallen}") if fallen else ""
        attackers = "+".join(d.get("attackers", []))
        if fr:
            return (
                f"{who()} attaque {d['target']} avec {attackers} : {d['atk']} ATK contre "
                f"{d['def']} DEF, {result[0]}{tail}."
            )
        return (
            f"{who()} attacks {d['target']} with {attackers}: {d['atk']} ATK against "
            f"{d['def']} DEF, {result[1]}{tail}."
        )
    if kind == "cut-off":
        cards = [c or ("carte cachée" if fr else "face-down card") for c in d.get("cards", [])]
        return (
            f"Coupées du château, retour en main {de(who())} : {', '.join(cards)}."
            if fr
            else f"Cut off from the castle, back to {who()}'s hand: {', '.join(cards)}."
        )
    return None


def _terrain_event_text(
    kind: str, d: Mapping[str, Any], who: Callable[..., str], names: Sequence[str], fr: bool
) -> str | None:
    """Terrain revealed, taken, besieged, and the castles conquered."""
    if kind == "terrain-revealed":
        name = _terrain_name(str(d["kind"]), fr)
        return f"{d['tag']}{colon(fr)} {name}."
    if kind == "control":
        name = _terrain_name(str(d["kind"]), fr)
        return (
            f"{who()} prend le contrôle de l'{name} ({d['tag']})."
            if fr
            else f"{who()} takes control of the {name} ({d['tag']})."
        )
    if kind == "siege":
        name = _terrain_name(str(d["kind"]), fr)
        if d.get("success"):
            return (
                f"Siège réussi : {who()} prend l'{name} ({d['tag']})."
                if fr
                else f"Siege won: {who()} takes the {name} ({d['tag']})."
            )
        return (
            f"Siège repoussé ({name}, {d['tag']})."
            if fr
            else f"Siege repelled ({name}, {d['tag']})."
        )
    if kind == "inn-bonus":
        return f"{who()}{colon(fr)} +{d['pa']} PA ({'auberge' if fr else 'inn'})."
    if kind == "conquest":
        return (
            f"{who()} conquiert le château {de(who('target'))} !"
            if fr
            else f"{who()} conquers {who('target')}'s castle!"
        )
    return None


def _end_event_text(
    kind: str, d: Mapping[str, Any], who: Callable[..., str], names: Sequence[str], fr: bool
) -> str | None:
    """Lost PA, ends of turns, eliminations and the end of the game."""
    if kind == "deck-out":
        return f"{'Pioche épuisée' if fr else 'Draw pile exhausted'}{colon(fr)} {who()}."
    if kind == "eliminated":
        return f"{who()} {'quitte la partie' if fr else 'is out'}."
    if kind == "pa-lost":
        return (
            f"{who()} perd {d['pa']} PA (aucune action possible)."
            if fr
            else f"{who()} loses {d['pa']} PA (nothing can be done)."
        )
    if kind == "end-turn":
        return f"{who()} {'finit son tour' if fr else 'ends the turn'}."
    if kind == "resign":
        return f"{who()} {'abandonne' if fr else 'resigns'}."
    if kind == "game-over":
        ranking = d.get("ranking") or []
        if ranking and ranking[0] and len(ranking[0]) == 1:
            winner = ranking[0][0]
            name = names[winner] if isinstance(winner, int) and winner < len(names) else "?"
            return f"{name} {'remporte la partie' if fr else 'wins'} !" if fr else f"{name} wins!"
        return "Fin de la partie." if fr else "Game over."
    return None


_EVENT_TEXTS: dict[str, Callable[..., str | None]] = {
    "deal": _setup_event_text,
    "initiative": _setup_event_text,
    "initiative-tie": _setup_event_text,
    "first-player": _setup_event_text,
    "turn": _setup_event_text,
    "draw": _play_event_text,
    "summon": _play_event_text,
    "ambush": _play_event_text,
    "free-dog": _play_event_text,
    "move": _play_event_text,
    "recall": _play_event_text,
    "sorcery": _play_event_text,
    "ambush-revealed": _combat_event_text,
    "attack": _combat_event_text,
    "cut-off": _combat_event_text,
    "terrain-revealed": _terrain_event_text,
    "control": _terrain_event_text,
    "siege": _terrain_event_text,
    "inn-bonus": _terrain_event_text,
    "conquest": _terrain_event_text,
    "deck-out": _end_event_text,
    "eliminated": _end_event_text,
    "pa-lost": _end_event_text,
    "end-turn": _end_event_text,
    "resign": _end_event_text,
    "game-over": _end_event_text,
}
"""Which function words each kind of event."""


def summary(view: View, names: Sequence[str], locale: str = "en") -> str:
    fr = locale.lower().startswith("fr")

    def name(seat: int) -> str:
        return names[seat] if 0 <= seat < len(names) else f"#{seat + 1}"

    lines = [
        f"Table {view.width}x{view.height} "
        f"({view.width * view.cell_mm // 10}x{view.height * view.cell_mm // 10} cm), "
        f"{'tour' if fr else 'turn'} {view.turn}, {name(view.active)}{colon(fr)} {view.pa} PA"
    ]
    for p in view.players:
        castle = view.castles[p.seat]
        status = (" — " + ("hors jeu" if fr else "out")) if p.out else ""
        side = _SIDE_WORDS.get(p.side, ("", ""))[0 if fr else 1]
        lines.append(
            f"{p.seat + 1}. {name(p.seat)} ({side}) {'château' if fr else 'castle'} {castle.tag}"
            f" DEF {castle.dfn}, {p.hand_count} {'en main' if fr else 'in hand'}, "
            f"{p.deck_count} {'en pioche' if fr else 'in deck'}, {p.inns} "
            f"{'auberge(s)' if fr else 'inn(s)'}, {p.outposts} {'avant-poste(s)' if fr else 'outpost(s)'}"
            f"{status}"
        )
        if p.hand is not None:
            lines.append(
                f"   {'Votre main' if fr else 'Your hand'}{colon(fr)} {', '.join(p.hand) or '—'}"
            )
    for t in view.terrain:
        kind = _terrain_name(t.kind, fr) if t.kind else ("face cachée" if fr else "face down")
        holder = name(t.controller) if t.controller >= 0 else "—"
        lines.append(f"   {t.tag}{colon(fr)} {kind} ({holder})")
    for u in view.units:
        label = u.name or ("carte cachée" if fr else "face-down card")
        if not u.face_up and u.name:
            label += " (embuscade)" if fr else " (ambush)"
        orient = "L" if u.landscape else "P"
        lines.append(f"   {name(u.owner)}{colon(fr)} {label} {u.tag}{orient} {u.atk}/{u.dfn}")
    return "\n".join(lines)


_SIDE_WORDS = {
    "W": ("ouest", "west"),
    "N": ("nord", "north"),
    "E": ("est", "east"),
    "S": ("sud", "south"),
}


def _terrain_name(kind: str | None, fr: bool) -> str:
    if kind == "inn":
        return "auberge" if fr else "inn"
    if kind == "outpost":
        return "avant-poste" if fr else "outpost"
    return "terrain"


def _card_label(state: State, b: Board, ci: int, seat: Seat, fr: bool) -> str:
    if ci < 0:
        return "?"
    tag = b.tag(ci)
    k = b.kind[ci]
    if k == K_CASTLE:
        return f"{'Château' if fr else 'Castle'} {b.owner[ci] + 1} ({tag})"
    if k == K_TERRAIN:
        t = state.terrain[b.ref[ci]]
        name = _terrain_name(t.kind if t.revealed else None, fr)
        return f"{name[:1].upper()}{name[1:]} ({tag})"
    u = state.units[b.ref[ci]]
    if u.face_up or u.owner == seat:
        return f"{u.name} ({tag})"
    return f"{'carte cachée' if fr else 'face-down card'} ({tag})"


# ---------------------------------------------------------------------------
# Why an action is refused (the checks in ``checks.py`` pick the sentence)
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why an action is refused, in English and French."""

    en: str
    fr: str

    def error(self, action: str) -> IllegalAction:
        """The error ``apply`` raises for the action (in notation)."""
        return IllegalAction(self.en, fr=self.fr, action=action)


EMPTY_PILE = Refusal("Your draw pile is empty.", "Votre pioche est vide.")
NO_PA = Refusal("You have no action point left.", "Il ne vous reste aucun point d'action.")
BEGIN_REFUSALS = {
    "+": Refusal(
        "You cannot summon any card now (not enough PA, or no free place).",
        "Vous ne pouvez invoquer aucune carte (pas assez de PA, ou aucune place).",
    ),
    ">": Refusal(
        "None of your cards can move or be recalled now.",
        "Aucune de vos cartes ne peut se déplacer ni être rapatriée.",
    ),
    "x": Refusal(
        "None of your cards can attack now.",
        "Aucune de vos cartes ne peut attaquer.",
    ),
    "^": Refusal(
        "The Sorcier needs to be on the table, face up, and a card of the discard you can pay for.",
        "Il faut un Sorcier face visible en jeu et une carte de la défausse que vous pouvez payer.",
    ),
}
MOVE_PLACE = Refusal(
    "That place is not free, does not touch a card next to yours, or would cut your supply.",
    "Cette place n'est pas libre, ne touche pas une carte voisine de la vôtre, ou "
    "couperait votre ravitaillement.",
)
RECALL_FACE_UP = Refusal(
    "Only face-up cards can be recalled.",
    "Seules les cartes face visible peuvent être rapatriées.",
)
ATTACK_GROUP = Refusal(
    "Those cards cannot attack that target together (they must be yours, face "
    "up and touching it, except an Archer; 1 PA each).",
    "Ces cartes ne peuvent pas attaquer cette cible ensemble (vos cartes face "
    "visible qui la touchent, sauf l'Archer ; 1 PA chacune).",
)
CHOOSE_ACTION = Refusal(
    "Now choose an action: D, +, ?, >, <, x or ^ (or a complete move such as Roturier C5P).",
    "Choisissez une action : D, +, ?, >, <, x ou ^ (ou un coup complet comme Roturier C5P).",
)
DOG_ONLY = Refusal(
    "Only a dog can be summoned for free.",
    "Seul un chien peut être invoqué gratuitement.",
)
SPY_CONTACT = Refusal(
    "The Espion must touch an enemy card.",
    "L'Espion doit être posé au contact d'une carte ennemie.",
)


def hand_full(limit: int) -> Refusal:
    return Refusal(
        f"Your hand is full ({limit} cards).",
        f"Votre main est pleine ({limit} cartes).",
    )


def pa_unspent(pa: int) -> Refusal:
    return Refusal(
        f"Your turn ends only when your action points are spent ({pa} left).",
        f"Votre tour ne s'achève qu'une fois vos points d'action dépensés ({pa} restants).",
    )


def no_card_at(where: str) -> Refusal:
    return Refusal(f"You have no card at {where}.", f"Vous n'avez pas de carte en {where}.")


def recall_cuts(where: str) -> Refusal:
    return Refusal(
        f"Recalling {where} would cut other cards off your castle.",
        f"Rapatrier {where} couperait d'autres cartes de votre château.",
    )


def not_in_discard(card: str) -> Refusal:
    return Refusal(
        f"There is no {card} in your discard.",
        f"Il n'y a pas {de(card, mute_h=False)} dans votre défausse.",
    )


def sorcery_needs(ivk: int) -> Refusal:
    return Refusal(
        f"You need a face-up Sorcier and {ivk} PA.",
        f"Il faut un Sorcier face visible et {ivk} PA.",
    )


def not_in_hand(card: str) -> Refusal:
    return Refusal(
        f"You have no {card} in hand.",
        f"Vous n'avez pas {de(card, mute_h=False)} en main.",
    )


def card_cost(card: str, ivk: int, pa: int) -> Refusal:
    return Refusal(
        f"The {card} costs {ivk} PA; you have {pa}.",
        f"Le {card} coûte {ivk} PA ; il vous en reste {pa}.",
    )


def bad_anchor(where: str, card: str) -> Refusal:
    return Refusal(
        f"The card at {where} is not a place to summon the {card} against (it must "
        "be your castle, an outpost you hold, or a linked card of yours touching no "
        "enemy, with a free place along it).",
        f"La carte en {where} ne permet pas d'invoquer le {card} (il faut votre "
        "château, un avant-poste que vous contrôlez ou une de vos cartes reliée qui ne "
        "touche aucun ennemi, avec une place libre le long).",
    )


def summon_cost(cost: int, pa: int) -> Refusal:
    return Refusal(
        f"That costs {cost} PA; you have {pa}.",
        f"Cela coûte {cost} PA ; il vous en reste {pa}.",
    )


def off_table(where: str) -> Refusal:
    return Refusal(
        f"A card at {where} would leave the table.",
        f"Une carte en {where} sortirait de la table.",
    )


def not_free(where: str) -> Refusal:
    return Refusal(
        f"The place at {where} is not free (a card or a cup is there).",
        f"La place en {where} n'est pas libre (une carte ou une tasse s'y trouve).",
    )


def must_touch(where: str) -> Refusal:
    return Refusal(
        f"A card at {where} must touch your castle, an outpost you hold, or one of your "
        "linked cards that touches no enemy.",
        f"Une carte en {where} doit toucher votre château, un avant-poste que vous contrôlez "
        "ou une de vos cartes reliée qui ne touche aucun ennemi.",
    )


_EXPECTED = {
    "anchor": (
        "choose the card and the card to place it against (Roturier@C5)",
        "choisissez la carte et la carte contre laquelle la poser (Roturier@C5)",
    ),
    "free-dog": (
        "choose a dog and where (Molosse Masqué@C5), or - to pass",
        "choisissez un chien et où (Molosse Masqué@C5), ou - pour passer",
    ),
    "spot": ("choose the spot (Roturier C5P)", "choisissez la place (Roturier C5P)"),
    "pivot": (
        "choose the card to move and its pivot (C5@D9), or to recall (<C5)",
        "choisissez la carte à déplacer et son pivot (C5@D9), ou à rapatrier (<C5)",
    ),
    "destination": (
        "choose the destination (C5>D9L)",
        "choisissez la destination (C5>D9L)",
    ),
    "attack": (
        "choose the attackers and the target (C5+F5xD9)",
        "choisissez les attaquants et la cible (C5+F5xD9)",
    ),
    "sorcery": (
        "choose a card of the discard (^Roturier)",
        "choisissez une carte de la défausse (^Roturier)",
    ),
    "reveal": (
        "choose the ambush card to reveal (!C5)",
        "choisissez la carte en embuscade à révéler (!C5)",
    ),
}


def wrong_step(phase: str) -> Refusal:
    """An action of another step: what this step expects."""
    expected = _EXPECTED.get(phase, ("wait", "attendez"))
    cancel_en = " (or - to go back)" if phase in SUB_PHASES else ""
    cancel_fr = " (ou - pour revenir)" if phase in SUB_PHASES else ""
    return Refusal(
        f"That is not possible now: {expected[0]}{cancel_en}.",
        f"Impossible maintenant : {expected[1]}{cancel_fr}.",
    )
