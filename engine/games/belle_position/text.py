"""Belle Position texts for hosts, in English and French: actions, decisions, events,
summaries, and why an action is refused."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import Any

from ...core import Decision, Event, Seat
from ...text import colon, de, semicolon
from .actions import Action, Fire, Loss, Move, Play, Undo
from .board import (
    _index_of,
    _types,
)
from .data import WINGS, army_entries, describe_army, type_name
from .model import CardView, State, View

_WING_FR = ("aile gauche", "centre", "aile droite")


_WING_EN = ("left wing", "centre", "right wing")


_SIDE_ADJ_FR = {"french": ("française", "français"), "german": ("allemande", "allemand")}


_SIDE_NAME = {
    "french": ("Français", "French"),
    "german": ("Allemands", "Germans"),
}


@cache
def _at(code: str, fr: bool) -> str:
    """``"FG"`` -> "à l'aile gauche française" / "in the French left wing"."""
    if code == "R":
        return "en réserve" if fr else "in the reserve"
    if not fr:
        return f"in the {_code_name(code, False)}"
    name = _code_name(code, True)
    return f"au {name}" if name.startswith("centre") else f"à l'{name}"


@cache
def _the(code: str, fr: bool) -> str:
    """``"FC"`` -> "le centre français" / "the French centre"."""
    if code == "R":
        return "la réserve" if fr else "the reserve"
    if not fr:
        return f"the {_code_name(code, False)}"
    name = _code_name(code, True)
    return f"le {name}" if name.startswith("centre") else f"l'{name}"


@cache
def _code_name(code: str, fr: bool) -> str:
    """``"FG"`` -> "aile gauche française" / "French left wing"."""
    if code == "R":
        return "réserve" if fr else "reserve"
    if len(code) != 2 or code[0] not in "FA" or code[1] not in "GCD":
        return code
    side = "french" if code[0] == "F" else "german"
    wing = "GCD".index(code[1])
    if fr:
        adj = _SIDE_ADJ_FR[side][1 if wing == 1 else 0]
        return f"{_WING_FR[wing]} {adj}"
    return f"{'French' if side == 'french' else 'German'} {_WING_EN[wing]}"


def _relative_name(code: str, fr: bool) -> str:
    if code == "R":
        return "réserve" if fr else "reserve"
    wing = WINGS.index(code[-1])
    if code.startswith("E"):
        return (
            f"{_WING_FR[wing]} {'ennemie' if wing != 1 else 'ennemi'}"
            if fr
            else f"enemy {_WING_EN[wing]}"
        )
    return f"{'votre' if fr else 'your'} {_WING_FR[wing] if fr else _WING_EN[wing]}"


def _name_of(data: Mapping[str, Any], key: str = "type") -> str:
    value = data.get(key)
    return type_name(str(value)) if value else "?"


_MOD_FR = {
    "save": "sauvegarde",
    "bourg": "Bourg",
    "retranchements": "Retranchements",
    "general": "général",
    "bois": "Bois",
    "hauteur": "Hauteur",
}


_MOD_EN = {
    "save": "save",
    "bourg": "Bourg",
    "retranchements": "Retranchements",
    "general": "general",
    "bois": "Bois",
    "hauteur": "Hauteur",
}


def _mods_text(mods: object, fr: bool) -> str:
    if not isinstance(mods, list) or not mods:
        return ""
    table = _MOD_FR if fr else _MOD_EN
    return ", ".join(f"{table.get(str(m[0]), str(m[0]))} {int(m[1]):+d}" for m in mods)


_PHASE = {
    "deploy": ("déploiement", "deployment"),
    "movement": ("mouvements", "movement"),
    "combat": ("combats", "combat"),
    "rally": ("cohésion", "cohesion"),
    "over": ("partie terminée", "game over"),
}


_MODE_FR = {
    "melee": "corps à corps",
    "long-range": "tir à longue portée",
    "counter-battery": "contre-batterie",
    "flank-attack": "attaque de flanc",
}


_MODE_EN = {
    "melee": "melee",
    "long-range": "long-range fire",
    "counter-battery": "counter-battery",
    "flank-attack": "flank attack",
}


_REASON = {
    "occupation": (
        "occupe deux positions ennemies abandonnées",
        "occupies two abandoned enemy positions",
    ),
    "flank": (
        "peut prendre de flanc une position vacante (règle 18)",
        "can attack a vacant position from the flank (rule 18)",
    ),
    "annihilation": ("l'adversaire n'a plus d'unité", "the enemy has no unit left"),
    "resign": ("l'adversaire abandonne", "the opponent resigns"),
    "turn-limit": ("limite de tours atteinte", "turn limit reached"),
}


class _Ev:
    """An event's data and the players' names, with the pieces every
    description uses."""

    __slots__ = ("d", "fr", "names")

    def __init__(self, event: Event, names: Sequence[str], fr: bool) -> None:
        self.d = event.data
        self.names = names
        self.fr = fr

    def who(self, key: str = "seat") -> str:
        seat = self.d.get(key)
        if not isinstance(seat, int) or not 0 <= seat < len(self.names):
            return "?"
        return self.names[seat]

    def where(self, key: str = "position") -> str:
        return _at(str(self.d.get(key, "")), self.fr)

    def card(self, uid_key: str = "card", type_key: str = "type") -> str:
        return f"{_name_of(self.d, type_key)} ({self.d.get(uid_key)})"


def _describe(event: Event, names: Sequence[str], fr: bool) -> str | None:
    kind = event.kind
    describe = _DESCRIBE.get(kind)
    if describe is None and ":" in kind:
        describe = _DESCRIBE.get(kind.split(":", 1)[0] + ":")
    if describe is None:
        return None
    return describe(_Ev(event, names, fr), kind)


def _army_text(e: _Ev, kind: str) -> str:
    d, fr = e.d, e.fr
    army = army_entries(str(d.get("list", "")), str(d.get("side", "french")))
    side = _SIDE_NAME.get(str(d.get("side")), ("?", "?"))[0 if fr else 1]
    cards = "cartes" if fr else "cards"
    return (
        f"{e.who()} ({side}, {d.get('points')} pts, {d.get('cards')} {cards}){colon(fr)} "
        f"{describe_army(army)}"
    )


def _deal_text(e: _Ev, kind: str) -> str:
    d, fr = e.d, e.fr
    if "cards" in d:
        shown = ", ".join(f"{type_name(t)} ({u})" for u, t in d["cards"])
        return f"Votre réserve : {shown}." if fr else f"Your reserve: {shown}."
    return (
        f"{e.who()} reçoit {d.get('count')} cartes ({d.get('pile')} en pioche)."
        if fr
        else f"{e.who()} is dealt {d.get('count')} cards ({d.get('pile')} in the pile)."
    )


def _deployed_text(e: _Ev, kind: str) -> str:
    fr = e.fr
    parts = []
    for pos in e.d.get("positions", []):
        bits = []
        if pos.get("general"):
            bits.append(type_name(pos["general"][1]))
        bits += [type_name(t) for _, t in pos.get("terrain", [])]
        hidden = pos.get("hidden", 0)
        if hidden:
            bits.append(f"{hidden} {'cachée(s)' if fr else 'hidden'}")
        parts.append(f"{pos.get('position')}{colon(fr)} " + (", ".join(bits) or "—"))
    head = "déploiement" if fr else "deployment"
    return (
        f"{e.who()} — {head} : " + " ; ".join(parts)
        if fr
        else f"{e.who()} — {head}: " + "; ".join(parts)
    )


def _terrain_text(e: _Ev, kind: str) -> str:
    tid = kind.split(":", 1)[1]
    return (
        f"{e.who()} : {type_name(tid)} {e.where()}."
        if e.fr
        else f"{e.who()}: {type_name(tid)} {e.where()}."
    )


def _first_player_text(e: _Ev, kind: str) -> str:
    d, fr = e.d, e.fr
    terrain = d.get("terrain", [0, 0])
    rolls = d.get("rolls") or []
    if rolls:
        dice = semicolon(fr).join(f"{a}–{b}" for a, b in rolls)
        why = f"tirage au sort aux dés ({dice})" if fr else f"drawn by dice ({dice})"
    else:
        why = (
            f"moins de terrains déployés ({terrain[0]} contre {terrain[1]})"
            if fr
            else f"fewer terrain cards deployed ({terrain[0]} to {terrain[1]})"
        )
    return f"{e.who()} {'joue en premier' if fr else 'plays first'}{colon(fr)} {why}."


def _test_text(e: _Ev, kind: str) -> str:
    """Cohesion and Désorganisation tests."""
    d, fr = e.d, e.fr
    dice = " ".join(str(x) for x in d.get("dice", []))
    mods = _mods_text(d.get("modifiers"), fr)
    extra = f" ({mods})" if mods else ""
    ok = d.get("passed")
    if kind == "cohesion":
        label = "Cohésion" if fr else "Cohesion"
        result = ("tient" if fr else "holds") if ok else ("déroute !" if fr else "routs!")
        if not ok and d.get("may_rally"):  # option ralliement_timing=failure
            result = "échoue (Ralliement possible)" if fr else "fails (Ralliement possible)"
    else:
        label = "Désorganisation" if fr else "Disorganisation"
        result = (
            ("reste" if fr else "stays")
            if ok
            else ("retourne en réserve" if fr else "back to the reserve")
        )
    return (
        f"{label} {e.card()} {e.where()} : dés {dice} contre {d.get('target')}{extra} → {result}"
        if fr
        else f"{label} {e.card()} {e.where()}: dice {dice} against {d.get('target')}{extra} → {result}"
    )


def _general_test_text(e: _Ev, kind: str) -> str:
    d, fr = e.d, e.fr
    dice = " ".join(str(x) for x in d.get("dice", []))
    result = (
        ("survit" if fr else "survives")
        if d.get("passed")
        else ("est tué (6) !" if fr else "is killed (6)!")
    )
    return f"{'Général' if fr else 'General'} {e.card()}{colon(fr)} {'dés' if fr else 'dice'} {dice} → {result}"


def _fire_text(e: _Ev, kind: str) -> str:
    """Melee, long-range fire, counter-battery, flank attack."""
    d, fr = e.d, e.fr
    mode = _MODE_FR[kind] if fr else _MODE_EN[kind]
    dice = " ".join(str(x) for x in d.get("dice", [])) or "—"
    mods = _mods_text(d.get("modifiers"), fr)
    status = d.get("status")
    status_text = ""
    if status:
        status_text = (
            (" en attaque" if status == "attack" else " en défense")
            if fr
            else (" attacking" if status == "attack" else " defending")
        )
    target = ""
    if d.get("target"):
        target = f" → {e.card('target', 'target_type')}"
    dice_line = (
        f"{d.get('dice_count')} dé(s) (VC {d.get('vc')}{', ' + mods if mods else ''}) : {dice}"
        if fr
        else f"{d.get('dice_count')} dice (VC {d.get('vc')}{', ' + mods if mods else ''}): {dice}"
    )
    hits = d.get("hits")
    text = (
        f"{e.who()} — {e.card()} {mode}{status_text} sur {_the(str(d.get('at')), True)}{target} : "
        f"{dice_line}, touche sur {d.get('threshold')} ou moins → {hits} perte(s)"
        if fr
        else f"{e.who()} — {e.card()} {mode}{status_text} at {_the(str(d.get('at')), False)}{target}: "
        f"{dice_line}, hitting on {d.get('threshold')} or less → {hits} loss(es)"
    )
    if d.get("general"):
        text += (
            f" ; {d.get('sixes')} six → jeton(s) sur {e.card('general', 'general_type')}"
            if fr
            else f"; {d.get('sixes')} six(es) → token(s) on {e.card('general', 'general_type')}"
        )
    return text + "."


_CAUSES_FR = {
    "losses": "plus de pertes que sa VC",
    "rout": "déroute",
    "general-test": "6 au test du général",
    "alone": "général seul engagé",
}
_CAUSES_EN = {
    "losses": "more losses than its VC",
    "rout": "routed",
    "general-test": "a 6 on the general's test",
    "alone": "a general engaged alone",
}


def _eliminated_text(e: _Ev, kind: str) -> str:
    fr = e.fr
    cause = str(e.d.get("cause"))
    why = (_CAUSES_FR if fr else _CAUSES_EN).get(cause, cause)
    return f"Élimination : {e.card()} ({why})." if fr else f"{e.card()} is eliminated ({why})."


def _conquest_text(e: _Ev, kind: str) -> str:
    fr = e.fr
    the = _the(str(e.d.get("position", "")), fr)
    if kind == "conquered":
        return f"{e.who()} conquiert {the}." if fr else f"{e.who()} conquers {the}."
    return f"{e.who()} reprend {the}." if fr else f"{e.who()} retakes {the}."


def _move_text(e: _Ev, kind: str) -> str:
    d, fr = e.d, e.fr
    src = _code_name(str(d.get("from")), fr)
    dst = _code_name(str(d.get("to")), fr)
    engaged = d.get("engaged")
    tail = (" — engagement !" if fr else " — engaged!") if engaged else ""
    if "card" in d:
        return f"{e.who()}{colon(fr)} {e.card()} {src} → {dst}{tail}"
    hidden = "une carte cachée" if fr else "a hidden card"
    return f"{e.who()}{colon(fr)} {hidden} {src} → {dst}{tail}"


def _special_text(e: _Ev, kind: str) -> str:
    d, fr = e.d, e.fr
    special = type_name(kind.split(":", 1)[1])
    if "target" in d:
        return f"{e.who()} {'joue' if fr else 'plays'} {special} ({d.get('card')}) → {e.card('target')}."
    hidden = "une carte cachée" if fr else "a hidden card"
    return (
        f"{e.who()} {'joue' if fr else 'plays'} {special} ({d.get('card')}) → {hidden} {e.where()}."
    )


def _reinforcement_text(e: _Ev, kind: str) -> str:
    fr = e.fr
    if "card" in e.d:
        return f"{'Renfort' if fr else 'Reinforcement'}{colon(fr)} {e.card()}."
    return f"{e.who()} {'pioche un renfort' if fr else 'draws a reinforcement'}."


def _game_over_text(e: _Ev, kind: str) -> str:
    d, fr = e.d, e.fr
    reason = str(d.get("reason"))
    text = _REASON.get(reason, (reason, reason))[0 if fr else 1]
    if d.get("winner") is None:
        return f"{'Match nul' if fr else 'Draw'}{colon(fr)} {text}."
    return f"{e.who('winner')} {'l’emporte' if fr else 'wins'}{colon(fr)} {text}."


_DESCRIBE: dict[str, Callable[[_Ev, str], str]] = {
    "army": _army_text,
    "deal": _deal_text,
    "deploy": lambda e, k: f"{'Vous déployez' if e.fr else 'You deploy'} {e.card()} {e.where()}.",
    "undo": lambda e, k: f"{'Vous reprenez' if e.fr else 'You take back'} {e.card()}.",
    "ready": lambda e, k: f"{e.who()} {'a terminé son déploiement' if e.fr else 'has deployed'}.",
    "deployed": _deployed_text,
    "terrain:": _terrain_text,
    "general": lambda e, k: (
        f"{e.who()} : {e.card()} {e.where()}." if e.fr else f"{e.who()}: {e.card()} {e.where()}."
    ),
    "first-player": _first_player_text,
    "turn": lambda e, k: (
        f"— {'Tour' if e.fr else 'Turn'} {e.d.get('turn')}{colon(e.fr)} {e.who()} —"
    ),
    "cohesion": _test_text,
    "disorganisation": _test_text,
    "general-test": _general_test_text,
    **dict.fromkeys(_MODE_FR, _fire_text),
    "loss": lambda e, k: (
        f"Perte sur {e.card()} ({e.d.get('tokens')} jeton(s))."
        if e.fr
        else f"Loss on {e.card()} ({e.d.get('tokens')} token(s))."
    ),
    "eliminated": _eliminated_text,
    "reveal:": lambda e, k: (
        f"{e.who()} révèle {e.card()} {e.where()}."
        if e.fr
        else f"{e.who()} reveals {e.card()} {e.where()}."
    ),
    "to-reserve": lambda e, k: (
        f"{e.card()} retourne en réserve (désorganisation)."
        if e.fr
        else f"{e.card()} goes back to the reserve (disorganisation)."
    ),
    "conquered": _conquest_text,
    "recovered": _conquest_text,
    "move": _move_text,
    "special:": _special_text,
    "reinforcement": _reinforcement_text,
    "no-reinforcement": lambda e, k: (
        f"{e.who()}{colon(e.fr)} {'pioche vide' if e.fr else 'the pile is empty'}."
    ),
    "resign": lambda e, k: f"{e.who()} {'abandonne' if e.fr else 'resigns'}.",
    "game-over": _game_over_text,
}


def describe_action(state: State, seat: Seat, action: Action, locale: str = "en") -> str:
    fr = locale.lower().startswith("fr")
    army = state.armies[seat]

    def card_label(uid: str, side: int = seat) -> str:
        i = _index_of(state.armies[side], uid)
        if i < 0:
            return uid
        return f"{type_name(state.armies[side].cards[i].type)} ({uid})"

    if isinstance(action, Move):
        where = _relative_name(action.to, fr)
        i = _index_of(army, action.card)
        kind = _types(state.rules)[army.cards[i].type].kind if i >= 0 else "unit"
        if state.phase == "deploy":
            verb = "Déployer" if fr else "Deploy"
            return f"{verb} {card_label(action.card)} → {where}"
        if kind == "terrain":
            return f"{'Poser' if fr else 'Place'} {card_label(action.card)} → {where}"
        return f"{card_label(action.card)} → {where}"
    if isinstance(action, Fire):
        if action.at in ("G", "C", "D", "EG", "EC", "ED"):
            return f"{'Tir' if fr else 'Fire'}{colon(fr)} {card_label(action.card)} → {_relative_name(action.at, fr)}"
        label = "Contre-batterie" if fr else "Counter-battery"
        return f"{label}{colon(fr)} {card_label(action.card)} → {card_label(action.at, 1 - seat)}"
    if isinstance(action, Loss):
        return f"{'Perte sur' if fr else 'Loss on'} {card_label(action.card)}"
    if isinstance(action, Play):
        return f"{card_label(action.card)} → {card_label(action.target)}"
    if isinstance(action, Undo):
        return "Reprendre la dernière carte" if fr else "Take back the last card"
    labels = {
        "deploy": ("Terminer le déploiement", "Finish deployment"),
        "rally": ("Lancer les tests de cohésion", "Roll the cohesion tests"),
        "combat": ("Fin des combats", "End the combats"),
        "movement": ("Fin des mouvements", "End the movement"),
    }
    if state.phase == "rally" and state.rules.ralliement_timing == "failure":
        return "Laisser l'unité dérouter" if fr else "Let the unit rout"
    fr_text, en_text = labels.get(state.phase, ("Terminé", "Done"))
    return fr_text if fr else en_text


def decision_text(decision: Decision, locale: str = "en", names: Sequence[str] = ()) -> str:
    fr = locale.lower().startswith("fr")
    kind = decision.kind
    m = str(decision.param("letter") or "F")  # the player's own handles in examples
    e = str(decision.param("enemy") or ("A" if m == "F" else "F"))
    if kind == "deploy":
        return (
            f"Déployez vos cartes faces cachées dans vos trois positions ({m}7>C), une à la "
            "fois, puis ok. L'adversaire déploie en même temps, en secret."
            if fr
            else f"Deploy your cards face down in your three positions ({m}7>C), one at a "
            "time, then ok. Your opponent deploys at the same time, in secret."
        )
    if kind == "rout":
        failed = str(decision.param("card") or f"{m}7")
        special = str(decision.param("special") or f"{m}21")
        return (
            f"{failed} vient d'échouer à son test de cohésion : jouez Ralliement sur elle "
            f"({special}!{failed}), elle réussit alors tous ses tests, ou laissez-la "
            "dérouter (ok)."
            if fr
            else f"{failed} has just failed its cohesion test: play Ralliement on it "
            f"({special}!{failed}) and it passes all its tests, or let it rout (ok)."
        )
    if kind == "rally":
        return (
            f"Cohésion : jouez Ralliement sur une unité touchée ({m}21!{m}7), ou lancez les tests (ok)."
            if fr
            else f"Cohesion: play Ralliement on a unit that took losses ({m}21!{m}7), or roll "
            "the tests (ok)."
        )
    if kind == "combat":
        return (
            f"Combats : faites tirer une unité ({m}7@EC, contre-batterie {m}7@{e}3), ou terminez (ok)."
            if fr
            else f"Combat: fire with a unit ({m}7@EC, counter-battery {m}7@{e}3), or end (ok)."
        )
    if kind == "allocate":
        hits = decision.param("hits")
        where = _at(str(decision.param("position") or ""), fr)
        return (
            f"Vous subissez {hits} perte(s) {where} : choisissez l'unité qui prend le "
            f"prochain jeton (-{m}3), chacune en ayant un avant qu'une en reçoive un second."
            if fr
            else f"You take {hits} loss(es) {where}: choose the unit that takes "
            f"the next token (-{m}3); each has one before any has a second."
        )
    return (
        f"Mouvements : déplacez des cartes ({m}7>EC), jouez une carte ({m}21!{m}7), ou terminez (ok)."
        if fr
        else f"Movement: move cards ({m}7>EC), play a card ({m}21!{m}7), or end (ok)."
    )


def summary(view: View, names: Sequence[str], locale: str = "en") -> str:
    fr = locale.lower().startswith("fr")

    def who(seat: int) -> str:
        return names[seat] if 0 <= seat < len(names) else f"#{seat + 1}"

    def cards(units: Sequence[CardView]) -> str:
        parts = []
        for c in units:
            label = f"{c.uid} {c.short} VC{c.vc}"
            if not c.face_up:
                label += " (" + ("cachée" if fr else "hidden") + ")"
            if c.tokens:
                label += f" [{c.tokens}]"
            parts.append(label)
        return ", ".join(parts)

    lines = []
    turn = "Tour" if fr else "Turn"
    phase = _PHASE.get(view.phase, ("", ""))[0 if fr else 1]
    limit = f"/{2 * view.turn_limit}" if view.turn_limit else ""
    lines.append(f"{turn} {view.turn}{limit} — {phase}")
    for pos in view.positions:
        name = pos.name_fr if fr else pos.name_en
        head = f"{pos.code} ({name})"
        if pos.terrain:
            head += " — " + ", ".join(t.name for t in pos.terrain)
        if pos.conquered:
            head += " — " + ("conquise" if fr else "conquered")
        lines.append(head)
        for side in pos.sides:
            bits = []
            if side.general is not None:
                g = side.general
                bits.append(
                    f"{g.name} A{g.attack}/D{g.defence}" + (f" [{g.tokens}]" if g.tokens else "")
                )
            if side.units:
                bits.append(cards(side.units))
            if side.hidden:
                bits.append(f"{side.hidden} " + ("cachée(s)" if fr else "hidden"))
            if bits:
                lines.append(f"   {who(side.seat)}{colon(fr)} " + semicolon(fr).join(bits))
    for p in view.players:
        reserve = "réserve" if fr else "reserve"
        pile = "pioche" if fr else "pile"
        lines.append(
            f"{who(p.seat)} ({p.side_name_fr if fr else p.side_name_en}){colon(fr)} "
            f"{p.reserve_count} {reserve}, {p.pile_count} {pile}"
        )
        if p.reserve is not None:
            lines.append("   " + ", ".join(f"{c.uid} {c.short}" for c in p.reserve))
    if view.last_combat is not None:
        c = view.last_combat
        lines.append(
            f"{c.card} {(_MODE_FR if fr else _MODE_EN).get(c.mode, '')}{colon(fr)} "
            f"{' '.join(str(d) for d in c.dice)} ≤ {c.threshold} → {c.hits}"
        )
    return "\n".join(lines)


# ---- why an action is refused (the keys legality.check returns) ----------------

_Text = tuple[str, str]  # English, French


def refusal_text(key: str, params: Mapping[str, Any]) -> tuple[str, str]:
    """The (English, French) sentences of a refusal of :func:`legality.check`."""
    return _REFUSALS[key](params)


def _not_yours(p: Mapping[str, Any]) -> _Text:
    card, letter, size = p["card"], p["letter"], p["size"]
    return (
        f"{card} is not one of your cards (yours are {letter}1 to {letter}{size}).",
        f"{card} n'est pas une de vos cartes (les vôtres vont de {letter}1 à {letter}{size}).",
    )


def _not_in_reserve(p: Mapping[str, Any]) -> _Text:
    where = "already deployed" if p["deployed"] else "in your reinforcement pile"
    where_fr = "déjà déployée" if p["deployed"] else "dans votre pioche de renforts"
    return (f"{p['name']} ({p['card']}) is {where}.", f"{p['name']} ({p['card']}) est {where_fr}.")


def _spread_losses(p: Mapping[str, Any]) -> _Text:
    names = ", ".join(p["cards"])
    return (
        f"Spread the losses: every unit there has a token before any has a second (now: {names}).",
        f"Répartissez les pertes : chaque unité de la position a un jeton avant "
        f"qu'une en reçoive un second (maintenant : {names}).",
    )


def _cannot_fire(p: Mapping[str, Any]) -> _Text:
    name, at, flank = p["name"], p["at"], p["flank"]
    return (
        f"{name} cannot fire at {at}: melee needs enemy units in its own position, "
        "long range artillery facing visible enemies with neither position engaged"
        + (", a flank attack enemies beside it" if flank else "")
        + ".",
        f"{name} ne peut pas tirer sur {at} : le corps à corps exige des ennemis dans "
        "sa position, le tir à longue portée une artillerie face à des ennemis visibles, "
        "aucune des deux positions n'étant engagée"
        + (", l'attaque de flanc des ennemis à côté" if flank else "")
        + ".",
    )


def _destination(p: Mapping[str, Any]) -> _Text:
    name, to = p["name"], p["to"]
    allowed = ", ".join(p["allowed"]) or "—"
    extra_en = extra_fr = ""
    if p["engaged"]:
        extra_en = " Its position is engaged: no advance into the enemy line from there."
        extra_fr = " Sa position est engagée : pas d'avance vers la ligne ennemie."
    return (
        f"{name} cannot go to {to} (no lateral, diagonal or enemy-reserve moves); "
        f"it may go to: {allowed}.{extra_en}",
        f"{name} ne peut pas aller en {to} (pas de mouvement latéral, en "
        f"diagonale ou vers la réserve ennemie) ; destinations : {allowed}.{extra_fr}",
    )


def _grouping(p: Mapping[str, Any]) -> _Text:
    name, code = p["name"], p["code"]
    return (
        f"Moving {name} to {code} would break the grouping limit for good: the limit is "
        "ignored while cards move, but the moves left could no longer bring every "
        "position back within it.",
        f"Déplacer {name} en {code} briserait la limite de regroupement pour de bon : elle "
        "est ignorée pendant les mouvements, mais les mouvements restants ne pourraient "
        "plus ramener chaque position dans la limite.",
    )


_REFUSALS: dict[str, Callable[[Mapping[str, Any]], _Text]] = {
    "not-yours": _not_yours,
    "impossible": lambda p: ("That is not possible now.", "Impossible maintenant."),
    # deployment
    "nothing-to-undo": lambda p: (
        "You have nothing to take back.",
        "Vous n'avez rien à reprendre.",
    ),
    "deploy-phase": lambda p: (
        f"Deployment: place a card ({p['m']}7>C), take back the last one (undo), or ok.",
        f"Déploiement : placez une carte ({p['m']}7>C), reprenez la dernière (undo), ou ok.",
    ),
    "not-in-reserve": _not_in_reserve,
    "own-positions": lambda p: (
        "Deploy in your own positions: G, C or D.",
        "Déployez dans vos propres positions : G, C ou D.",
    ),
    "special-stays": lambda p: (
        f"{p['name']} is a special card: it stays in the reserve until played.",
        f"{p['name']} est une carte spéciale : elle reste en réserve jusqu'à être jouée.",
    ),
    # placing a card (deployment, terrain during the game)
    "general-there": lambda p: (
        f"There is already one of your generals in {p['code']}: one per position.",
        f"Vous avez déjà un général en {p['code']} : un par position.",
    ),
    "terrain-engaged": lambda p: (
        f"{p['code']} is engaged: terrain goes only into a position that is not.",
        f"{p['code']} est engagée : un terrain ne se pose que dans une position non engagée.",
    ),
    "same-terrain": lambda p: (
        f"There is already a {p['name']} in {p['code']}: two *different* terrain cards at most.",
        f"Il y a déjà un {p['name']} en {p['code']} : deux terrains *différents* au plus.",
    ),
    "two-terrain": lambda p: (
        f"{p['code']} already has two terrain cards.",
        f"{p['code']} a déjà deux cartes de terrain.",
    ),
    "full": lambda p: (
        f"{p['code']} is full: {p['cap']} cards (units and terrain) at most there.",
        f"{p['code']} est pleine : {p['cap']} cartes (unités et terrains) au plus.",
    ),
    # losses
    "losses-first": lambda p: ("Place the losses first (-F3).", "Placez d'abord les pertes (-F3)."),
    "spread-losses": _spread_losses,
    # cohesion
    "rout-decision": lambda p: (
        f"{p['failed']} has just failed its cohesion test: play Ralliement on it "
        f"({p['special']}!{p['failed']}), or let it rout (ok).",
        f"{p['failed']} vient d'échouer à son test de cohésion : jouez Ralliement sur elle "
        f"({p['special']}!{p['failed']}), ou laissez-la dérouter (ok).",
    ),
    "rally-phase": lambda p: (
        f"Cohesion phase: play Ralliement on a unit that took losses ({p['m']}21!{p['m']}7), "
        "or roll the tests (ok).",
        f"Phase de cohésion : jouez Ralliement sur une unité touchée ({p['m']}21!{p['m']}7), "
        "ou lancez les tests (ok).",
    ),
    # combat
    "combat-phase": lambda p: (
        f"Combat phase: fire with a unit ({p['m']}7@EC), or end the combats (ok).",
        f"Phase de combat : faites tirer une unité ({p['m']}7@EC), ou terminez les combats (ok).",
    ),
    "not-on-field": lambda p: (
        f"{p['name']} is not a unit on the battlefield.",
        f"{p['name']} n'est pas une unité sur le champ de bataille.",
    ),
    "fired": lambda p: (
        f"{p['name']} has already fired this turn.",
        f"{p['name']} a déjà tiré ce tour-ci.",
    ),
    "combats-over": lambda p: (
        f"The combats in {p['code']} are over: all combats in a position "
        "are resolved before moving on to another.",
        f"Les combats en {p['code']} sont terminés : tous les combats d'une "
        "position sont résolus avant de passer à une autre.",
    ),
    "cannot-fire": _cannot_fire,
    # movement
    "movement-phase": lambda p: (
        f"Movement phase: move a card ({p['m']}7>EC), play a card ({p['m']}21!{p['m']}7), "
        "or end (ok).",
        f"Phase de mouvement : déplacez une carte ({p['m']}7>EC), jouez une carte "
        f"({p['m']}21!{p['m']}7), ou terminez (ok).",
    ),
    "over-limit": lambda p: (
        f"Over the grouping limit in {', '.join(p['codes'])}: move cards out before ending "
        "the movement phase.",
        f"Limite de regroupement dépassée en {', '.join(p['codes'])} : sortez des cartes "
        "avant de terminer les mouvements.",
    ),
    "play-not-now": lambda p: (
        f"{p['name']} ({p['card']}) cannot be played on {p['target']} now.",
        f"{p['name']} ({p['card']}) ne peut pas être joué sur {p['target']} maintenant.",
    ),
    "special-played": lambda p: (
        f"{p['name']} is played on a unit ({p['card']}!{p['card'][0]}7), not moved.",
        f"{p['name']} se joue sur une unité ({p['card']}!{p['card'][0]}7), elle ne se déplace pas.",
    ),
    "out-of-game": lambda p: (f"{p['name']} is out of the game.", f"{p['name']} est hors jeu."),
    "in-pile": lambda p: (
        f"{p['name']} is still in your reinforcement pile.",
        f"{p['name']} est encore dans votre pioche de renforts.",
    ),
    "terrain-stays": lambda p: (
        f"{p['name']} is terrain: it stays where it was placed.",
        f"{p['name']} est un terrain : il reste où il a été posé.",
    ),
    "fought-no-move": lambda p: (
        f"{p['name']} fought this turn: it cannot also move.",
        f"{p['name']} a combattu ce tour-ci : elle ne peut pas aussi se déplacer.",
    ),
    "no-move-left": lambda p: (
        f"{p['name']} has no move left this turn.",
        f"{p['name']} n'a plus de mouvement ce tour.",
    ),
    "moves-over": lambda p: (
        f"{p['name']}'s moves are over: a card's moves are consecutive, and another card "
        "has moved since.",
        f"Les mouvements {de(p['name'], mute_h=False)} sont terminés : ils sont consécutifs, "
        "et une autre carte a bougé depuis.",
    ),
    "destination": _destination,
    "grouping": _grouping,
}
