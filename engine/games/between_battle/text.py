"""Between Battle's texts for hosts, in English and French: actions, events,
decisions, summaries, the characters' help cards, and why an action is refused."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ...core import Decision, Event, Seat
from ...text import colon, de, que
from .actions import Action, GivePile, Link, Play, Pull, TakeDamage, Target, Tutor
from .board import card_kind, code_of, deck_by_character
from .data import deck_file
from .legality import Refusal
from .model import State, View

# The help cards lie face up (« face visible devant lui, elle indique ses
# capacités et ses points de vies »): every player may read every character's
# abilities. Full texts (from the seed) and short ones (for the board).
ABILITY_TEXTS: dict[str, tuple[str, str]] = {
    "discard-random": (
        "Discard a random card from your opponent's hand.",
        "Défaussez une carte dans la main de l'adversaire aléatoirement.",
    ),
    "draw": ("Draw a card from your deck.", "Piochez une carte de votre deck."),
    "lock": (
        "On their next turn, your opponent must play on this pile (or take damage), "
        "so they cannot create a link.",
        "Votre adversaire, lors de son prochain tour, doit jouer sur ce paquet (ou prendre "
        "des dégâts), il n'est donc pas possible de « créer un lien ».",
    ),
    "extra-turn": ("Play another turn immediately.", "Vous jouez immédiatement un nouveau tour."),
    "tutor": (
        "Take a card of your choice from your deck into your hand, then shuffle your deck.",
        "Prenez une carte au choix depuis votre deck et ajoutez-la à votre main. "
        "Mélangez ensuite votre deck.",
    ),
    "steal-top": (
        "Take the top card of the other pile and put it on this one, keeping its orientation.",
        "Prenez la carte du dessus de l'autre paquet et placez-la par-dessus celle-ci. "
        "Gardez son sens d'orientation.",
    ),
    "cancel": (
        "On their next turn, your opponent does not apply the ability of the card they "
        "play. Creating or playing a link is not an ability.",
        "Votre adversaire, lors de son prochain tour, n'applique pas la capacité de sa "
        "carte jouée. Créer ou jouer une carte « lien » n'est pas une capacité.",
    ),
    "reveal": (
        "Your opponent reveals their current hand and keeps it face up.",
        "Votre adversaire révèle sa main actuelle et la place face visible devant lui.",
    ),
}
ABILITY_SHORT: dict[str, tuple[str, str]] = {
    "discard-random": ("Opponent discards at random", "Défausse adverse au hasard"),
    "draw": ("Draw 1 card", "Piochez 1 carte"),
    "lock": ("Opponent must play here", "L'adversaire doit jouer ici"),
    "extra-turn": ("Play again at once", "Rejouez immédiatement"),
    "tutor": ("Take any card from your deck", "Prenez 1 carte de votre deck"),
    "steal-top": ("Other pile's top moves here", "Vole le haut de l'autre paquet"),
    "cancel": ("Cancel opponent's next ability", "Annule la capacité adverse"),
    "reveal": ("Opponent reveals their hand", "L'adversaire révèle sa main"),
}


def character_sheet(locale: str = "en") -> str:
    """Every character's help card: HP, special and unique abilities (the
    values carrying them come from the card data), in ``locale``."""
    fr = locale.lower().startswith("fr")
    lang = 1 if fr else 0
    lines = ["**Personnages (cartes d'aide)**" if fr else "**Characters (help cards)**"]
    for spec in deck_file().characters:
        special = ", ".join(str(c.value) for c in spec.cards if c.kind == "special")
        unique = ", ".join(str(c.value) for c in spec.cards if c.kind == "unique")
        name = spec.name_fr if fr else spec.name_en
        hp = f"{spec.hp} {'PV' if fr else 'HP'}"
        if spec.hp_asymmetric != spec.hp:
            hp += f" ({spec.hp_asymmetric} {'avec' if fr else 'with'} `hp_variant=asymmetric`)"
        sep = " :" if fr else ":"
        lines.append(
            f"**{name}** — {hp}\n"
            f"★ {'Spéciale' if fr else 'Special'} ({special}){sep} "
            f"{ABILITY_TEXTS[spec.special][lang]}\n"
            f"♦ Unique ({unique}){sep} {ABILITY_TEXTS[spec.unique][lang]}"
        )
    return "\n".join(lines)


def character_name(character: str, fr: bool) -> str:
    for spec in deck_file().characters:
        if spec.id == character:
            return spec.name_fr if fr else spec.name_en
    return character


# Why an action is refused (``legality.Refusal``): (English, French) sentences
# by refusal key, filled with the refusal's params.
REFUSALS: dict[str, tuple[str, str]] = {
    "no-card": ("You have no {card} in hand.", "Vous n'avez pas de {card} en main."),
    "locked-pile": (
        "The Chevalier forces you to play on pile {pile}.",
        "Le Chevalier vous oblige à jouer sur le paquet {pile}.",
    ),
    "lock-no-link": (
        "Under the Chevalier's lock you cannot create a link.",
        "Sous l'effet du Chevalier, vous ne pouvez pas créer de lien.",
    ),
    "lock-and-empty-pile": (
        "Pile {empty} is empty but the Chevalier forces you to play on pile {pile}: "
        "only the joker can go there, or take damage (D).",
        "Le paquet {empty} est vide mais le Chevalier vous oblige à jouer sur le paquet "
        "{pile} : seul le joker peut y aller, sinon prenez des dégâts (D).",
    ),
    "not-a-link": ("The {card} is not a link card.", "Le {card} n'est pas une carte lien."),
    "no-open-link": (
        "Pile {pile} has no open link to connect to.",
        "Le paquet {pile} n'a pas de lien ouvert à compléter.",
    ),
    "empty-pile": (
        "Pile {pile} is empty: you must play there.",
        "Le paquet {pile} est vide : vous devez jouer dessus.",
    ),
    "joker-only": (
        "The other pile is empty: only the joker goes on pile {pile} (Chevalier).",
        "L'autre paquet est vide : seul le joker va sur le paquet {pile} (Chevalier).",
    ),
    "not-between": (
        "The {card} is not between {low} and {high}.",
        "Le {card} n'est pas compris entre {low} et {high}.",
    ),
    "damage-empty-piles": (
        "Both piles are empty: there is no damage to take, play a card.",
        "Les deux paquets sont vides : pas de dégâts à prendre, jouez une carte.",
    ),
    "turn-expected": (
        "Now play a card, create a link or take damage (D).",
        "Jouez une carte, créez un lien ou prenez des dégâts (D).",
    ),
    "give-empty": (
        "Pile {pile} is empty: give the pile that has cards.",
        "Le paquet {pile} est vide : donnez le paquet qui a des cartes.",
    ),
    "not-now": ("That is not possible now: {expected}.", "Impossible maintenant : {expected}."),
}
# What a decision expects instead (``not-now``), by phase.
EXPECTED: dict[str, tuple[str, str]] = {
    "draft": ("choose a character", "choisissez un personnage"),
    "choose-pile": ("choose a pile: P1 or P2", "choisissez un paquet : P1 ou P2"),
    "joker-pull": (
        "choose a card to bring up with the joker (^Co7)",
        "choisissez la carte que le joker fait remonter (^Co7)",
    ),
    "tutor": (
        "choose a card from your deck (T14)",
        "choisissez une carte de votre pioche (T14)",
    ),
    "target": ("choose a target (@2)", "choisissez une cible (@2)"),
}


def refusal_text(refusal: Refusal) -> tuple[str, str]:
    """Why an action is refused: (English, French)."""
    en, fr = REFUSALS[refusal.key]
    params = dict(refusal.params)
    if refusal.key == "not-now":
        expected = EXPECTED.get(str(params["phase"]), ("wait", "attendez"))
        return en.format(expected=expected[0]), fr.format(expected=expected[1])
    return en.format(**params), fr.format(**params)


def describe_action(state: State, seat: Seat, action: Action, locale: str = "en") -> str:
    fr = locale.lower().startswith("fr")
    if isinstance(action, Play):
        kind = card_kind(state.rules, code_of(state, seat) + action.card)
        what = {"joker": "Joker", "link": ("Lien" if fr else "Link")}.get(kind, action.card)
        if kind == "link":
            what = f"{what} {action.card}"
        return f"{what} → {'paquet' if fr else 'pile'} {action.pile + 1}"
    if isinstance(action, Link):
        return (
            f"Créer un lien {action.card} sur le paquet {action.pile + 1}"
            if fr
            else f"Create link {action.card} on pile {action.pile + 1}"
        )
    if isinstance(action, TakeDamage):
        return "Prendre des dégâts" if fr else "Take damage"
    if isinstance(action, GivePile):
        n = len(state.piles[action.pile])
        return (
            f"Donner le paquet {action.pile + 1} ({n} carte{'s' if n > 1 else ''})"
            if fr
            else f"Give pile {action.pile + 1} ({n} card{'s' if n != 1 else ''})"
        )
    if isinstance(action, Pull):
        return f"{'Remonter' if fr else 'Bring up'} {action.card}"
    if isinstance(action, Tutor):
        return f"{'Prendre' if fr else 'Take'} {action.card}"
    if isinstance(action, Target):
        return f"{'Cibler le joueur' if fr else 'Target player'} {action.seat + 1}"
    deck = deck_by_character(state.rules.decks)[action.character]
    return character_name(deck.character, fr)


def decision_text(decision: Decision, locale: str = "en", names: Sequence[str] = ()) -> str:
    fr = locale.lower().startswith("fr")
    kind = decision.kind
    if kind == "choose-pile":
        taker = decision.param("taker")
        if isinstance(taker, int) and 0 <= taker < len(names):
            who = names[taker]
        else:
            who = f"{'le joueur' if fr else 'player'} {int(taker or 0) + 1}"
        if fr:
            return f"Choisissez le paquet {que(who)} prend en dégâts (P1 ou P2)."
        return f"Choose the pile {who} takes as damage (P1 or P2)."
    if not fr:
        return decision.text
    if kind == "turn":
        pile = decision.param("pile")
        if pile is not None:
            return f"Jouez sur le paquet {pile} (Chevalier), ou prenez des dégâts (D)."
        return "Jouez une carte entre les deux paquets, créez un lien, ou prenez des dégâts (D)."
    if kind == "draft":
        return "Choisissez votre personnage."
    if kind == "joker-pull":
        return f"Joker : choisissez une carte du paquet {decision.param('pile')} à faire remonter."
    if kind == "tutor":
        return "Pirate : prenez une carte au choix dans votre pioche."
    return "Choisissez l'adversaire visé par votre capacité."


class _Event:
    """An event's data, with the names of its seats and piles in a locale."""

    def __init__(self, event: Event, names: Sequence[str], fr: bool) -> None:
        self.data = event.data
        self.names = names
        self.fr = fr

    def who(self, key: str = "seat") -> str:
        seat = self.data.get(key)
        if not isinstance(seat, int) or not 0 <= seat < len(self.names):
            return "?"
        return self.names[seat]

    def pile(self, key: str = "pile") -> str:
        value = self.data.get(key)
        n = value + 1 if isinstance(value, int) else "?"
        return f"{'paquet' if self.fr else 'pile'} {n}"


def describe_event(event: Event, names: Sequence[str], locale: str = "en") -> str | None:
    """One line of the match log for ``event`` (None: not worth a line)."""
    line = _EVENT_LINES.get(event.kind)
    if line is None:
        return None
    return line(_Event(event, names, locale.lower().startswith("fr")))


def _pick(e: _Event) -> str | None:
    name = character_name(str(e.data.get("character")), e.fr)
    return f"{e.who()} {'choisit' if e.fr else 'picks'} {name}."


def _first_player(e: _Event) -> str | None:
    return f"{e.who()} {'commence' if e.fr else 'starts'}."


def _play(e: _Event) -> str | None:
    return f"{e.who()} {'joue' if e.fr else 'plays'} {e.data['card']} → {e.pile()}."


def _link(e: _Event) -> str | None:
    return (
        f"{e.who()} crée un lien avec {e.data['card']} : le {e.pile()} est défaussé."
        if e.fr
        else f"{e.who()} creates a link with {e.data['card']}: {e.pile()} is discarded."
    )


def _joker_pull(e: _Event) -> str | None:
    return (
        f"Joker : {e.data['card']} remonte sur le {e.pile()}."
        if e.fr
        else f"Joker: {e.data['card']} comes up on {e.pile()}."
    )


def _discard(e: _Event) -> str | None:
    return (
        f"Pirate : {e.who('target')} défausse {e.data['card']} au hasard."
        if e.fr
        else f"Pirate: {e.who('target')} discards {e.data['card']} at random."
    )


def _draw(e: _Event) -> str | None:
    cards = e.data.get("cards")
    count = len(cards) if isinstance(cards, list) else e.data.get("count", 0)
    if not count:
        return None
    if isinstance(cards, list):
        shown = ", ".join(cards)
        return f"{e.who()} {'pioche' if e.fr else 'draws'} {shown}."
    return f"{e.who()} {'pioche' if e.fr else 'draws'} {count}."


def _lock(e: _Event) -> str | None:
    return (
        f"Chevalier : au prochain tour, {e.who('target')} doit jouer sur le {e.pile()}."
        if e.fr
        else f"Chevalier: next turn, {e.who('target')} must play on {e.pile()}."
    )


def _cancel(e: _Event) -> str | None:
    return (
        f"Chevalier : la prochaine carte {de(e.who('target'))} n'aura pas de capacité."
        if e.fr
        else f"Chevalier: {e.who('target')}'s next card has no ability."
    )


def _extra_turn(e: _Event) -> str | None:
    return f"Ninja : {e.who()} rejoue." if e.fr else f"Ninja: {e.who()} plays again."


def _tutor(e: _Event) -> str | None:
    card = e.data.get("card")
    if card:
        return f"Pirate : vous prenez {card}." if e.fr else f"Pirate: you take {card}."
    return (
        f"Pirate : {e.who()} prend une carte de sa pioche."
        if e.fr
        else f"Pirate: {e.who()} takes a card from their deck."
    )


def _steal_top(e: _Event) -> str | None:
    if e.data.get("card") is None:
        return None
    return (
        f"Cow-boy : {e.data['card']} passe sur le {e.pile('to')}."
        if e.fr
        else f"Cow-boy: {e.data['card']} moves onto {e.pile('to')}."
    )


def _reveal(e: _Event) -> str | None:
    cards = ", ".join(e.data.get("cards", [])) or "—"
    return (
        f"Ninja : {e.who('target')} révèle sa main : {cards}."
        if e.fr
        else f"Ninja: {e.who('target')} reveals their hand: {cards}."
    )


def _ability_cancelled(e: _Event) -> str | None:
    return (
        f"Capacité de {e.data['card']} annulée (Chevalier)."
        if e.fr
        else f"{e.data['card']}'s ability is cancelled (Chevalier)."
    )


def _damage_declared(e: _Event) -> str | None:
    return (
        f"{e.who()} prend des dégâts ; {e.who('chooser')} choisit le paquet."
        if e.fr
        else f"{e.who()} takes damage; {e.who('chooser')} chooses the pile."
    )


def _damage(e: _Event) -> str | None:
    return (
        f"{e.who()} prend {e.data['amount']} dégât(s) ; reste {max(0, e.data['life'])} PV."
        if e.fr
        else f"{e.who()} takes {e.data['amount']} damage; {max(0, e.data['life'])} HP left."
    )


def _coup_fatal(e: _Event) -> str | None:
    return (
        f"Coup fatal ! {e.who('target')} prend {e.data['amount']} dégât(s)."
        if e.fr
        else f"Coup fatal! {e.who('target')} takes {e.data['amount']} damage."
    )


def _eliminated(e: _Event) -> str | None:
    return f"{e.who()} {'est hors jeu' if e.fr else 'is out'}."


def _turn_passed(e: _Event) -> str | None:
    return (
        f"{e.who()} n'a plus de cartes : son tour passe."
        if e.fr
        else f"{e.who()} has no cards left: their turn passes."
    )


def _resign(e: _Event) -> str | None:
    return f"{e.who()} {'abandonne' if e.fr else 'resigns'}."


_EVENT_LINES: dict[str, Callable[[_Event], str | None]] = {
    "pick": _pick,
    "first-player": _first_player,
    "play": _play,
    "link": _link,
    "joker-pull": _joker_pull,
    "discard": _discard,
    "draw": _draw,
    "lock": _lock,
    "cancel": _cancel,
    "extra-turn": _extra_turn,
    "tutor": _tutor,
    "steal-top": _steal_top,
    "reveal": _reveal,
    "ability-cancelled": _ability_cancelled,
    "damage-declared": _damage_declared,
    "damage": _damage,
    "coup-fatal": _coup_fatal,
    "eliminated": _eliminated,
    "turn-passed": _turn_passed,
    "resign": _resign,
}


def summary(view: View, names: Sequence[str], locale: str = "en") -> str:
    fr = locale.lower().startswith("fr")
    lines = []
    for i, pile in enumerate(view.piles):
        value = view.pile_values[i]
        top = pile[-1] if pile else "—"
        label = "Paquet" if fr else "Pile"
        shown = "—" if value is None else value
        lines.append(f"{label} {i + 1} : {top} (valeur {shown}, {len(pile)} carte(s))")
        if not fr:
            lines[-1] = f"{label} {i + 1}: {top} (value {shown}, {len(pile)} card(s))"
    for p in view.players:
        name = names[p.seat] if p.seat < len(names) else f"#{p.seat + 1}"
        if not p.character:
            lines.append(f"{p.seat + 1}. {name}{colon(fr)} {'choisit…' if fr else 'choosing…'}")
            continue
        character = character_name(p.character, fr)
        status = (" — " + ("hors jeu" if fr else "out")) if p.out else ""
        hp = "PV" if fr else "HP"
        hand = "main" if fr else "hand"
        deck = "pioche" if fr else "deck"
        line = (
            f"{p.seat + 1}. {name} ({character}){colon(fr)} {max(0, p.life)}/{p.hp} {hp}, "
            f"{p.hand_count} {hand}, {p.deck_count} {deck}{status}"
        )
        if p.revealed:
            line += f" — {'révélées' if fr else 'revealed'}{colon(fr)} {', '.join(p.revealed)}"
        lines.append(line)
        if p.hand is not None:
            lines.append(f"   {'Votre main' if fr else 'Your hand'}{colon(fr)} {' '.join(p.hand)}")
    return "\n".join(lines)
