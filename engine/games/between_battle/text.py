"""Between Battle's texts for hosts: actions, events, decisions, summaries,
the characters' help cards, and why an action is refused.

Every text is a :class:`~engine.text.Msg`: a key of the ``between_battle``
catalogue (``i18n/locales/<lang>/between_battle.po``, keys ``bb-*``) and its
parameters; hosts translate it (``i18n.translate(lang, msg)``). Seat names
are plain string parameters; a character's name is the message
``bb-char-<id>``, an ability's full text ``bb-ability-<id>``."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ...core import Decision, Event, Seat
from ...text import Msg, MsgParam
from .actions import Action, GivePile, Link, Play, Pull, TakeDamage, Target, Tutor
from .board import card_kind, code_of, deck_by_character
from .data import deck_file
from .legality import Refusal
from .model import State, View

# The help cards lie face up (« face visible devant lui, elle indique ses
# capacités et ses points de vies »): every player may read every character's
# abilities. Their full texts (from the seed) are ``bb-ability-<id>``; the
# board's short ones are the renderer's ``bb-render-ability-short-<id>``.


def lines(*items: Msg) -> Msg:
    """Messages one per line (``bb-lines``: ``{first}`` newline ``{rest}``)."""
    out = items[-1]
    for item in reversed(items[:-1]):
        out = Msg.of("bb-lines", first=item, rest=out)
    return out


def character_name(character: str) -> Msg | str:
    """The character's name (``bb-char-<id>``); an unknown id as it is."""
    if any(spec.id == character for spec in deck_file().characters):
        return Msg.of(f"bb-char-{character}")
    return character


def character_sheet() -> Msg:
    """Every character's help card: HP, special and unique abilities (the
    values carrying them come from the card data)."""
    blocks = [Msg.of("bb-sheet-title")]
    for spec in deck_file().characters:
        special = ", ".join(str(c.value) for c in spec.cards if c.kind == "special")
        unique = ", ".join(str(c.value) for c in spec.cards if c.kind == "unique")
        hp = Msg.of("bb-sheet-hp", hp=spec.hp)
        if spec.hp_asymmetric != spec.hp:
            hp = Msg.of("bb-sheet-hp-asymmetric", hp=spec.hp, asymmetric=spec.hp_asymmetric)
        blocks.append(
            Msg.of(
                "bb-sheet-character",
                name=character_name(spec.id),
                hp=hp,
                special=special,
                special_text=Msg.of(f"bb-ability-{spec.special}"),
                unique=unique,
                unique_text=Msg.of(f"bb-ability-{spec.unique}"),
            )
        )
    return lines(*blocks)


# What a decision expects instead (``not-now``), by phase: ``bb-expect-<phase>``.
EXPECTED = frozenset({"draft", "choose-pile", "joker-pull", "tutor", "target"})


def refusal_text(refusal: Refusal) -> Msg:
    """Why an action is refused: ``bb-refuse-<key>`` with the refusal's params."""
    params: dict[str, MsgParam] = {
        name: "—" if value is None else value for name, value in refusal.params
    }
    if refusal.key == "not-now":
        phase = str(params.pop("phase"))
        expected = phase if phase in EXPECTED else "wait"
        params["expected"] = Msg.of(f"bb-expect-{expected}")
    return Msg.of(f"bb-refuse-{refusal.key}", **params)


def describe_action(state: State, seat: Seat, action: Action) -> Msg:
    if isinstance(action, Play):
        kind = card_kind(state.rules, code_of(state, seat) + action.card)
        pile = action.pile + 1
        if kind == "joker":
            return Msg.of("bb-action-play-joker", pile=pile)
        if kind == "link":
            return Msg.of("bb-action-play-link", card=action.card, pile=pile)
        return Msg.of("bb-action-play", card=action.card, pile=pile)
    if isinstance(action, Link):
        return Msg.of("bb-action-link", card=action.card, pile=action.pile + 1)
    if isinstance(action, TakeDamage):
        return Msg.of("bb-action-damage")
    if isinstance(action, GivePile):
        n = len(state.piles[action.pile])
        return Msg.of("bb-action-give", pile=action.pile + 1, count=n)
    if isinstance(action, Pull):
        return Msg.of("bb-action-pull", card=action.card)
    if isinstance(action, Tutor):
        return Msg.of("bb-action-tutor", card=action.card)
    if isinstance(action, Target):
        return Msg.of("bb-action-target", seat=action.seat + 1)
    deck = deck_by_character(state.rules.decks)[action.character]
    return Msg.of(f"bb-char-{deck.character}")


def decision_text(decision: Decision, names: Sequence[str] = ()) -> Msg:
    kind = decision.kind
    if kind == "choose-pile":
        taker = decision.param("taker")
        if isinstance(taker, int) and 0 <= taker < len(names):
            return Msg.of("bb-decision-choose-pile", name=names[taker])
        return Msg.of("bb-decision-choose-pile-seat", seat=int(taker or 0) + 1)
    if kind == "turn":
        pile = decision.param("pile")
        if pile is not None:
            return Msg.of("bb-decision-turn-locked", pile=pile)
        return Msg.of("bb-decision-turn")
    if kind == "joker-pull":
        pile = decision.param("pile")
        return Msg.of("bb-decision-joker-pull", pile="?" if pile is None else pile)
    if kind in ("draft", "tutor"):
        return Msg.of(f"bb-decision-{kind}")
    return Msg.of("bb-decision-target")


class _Event:
    """An event's data, with the names of its seats and the numbers of its piles."""

    def __init__(self, event: Event, names: Sequence[str]) -> None:
        self.data = event.data
        self.names = names

    def who(self, key: str = "seat") -> str:
        seat = self.data.get(key)
        if not isinstance(seat, int) or not 0 <= seat < len(self.names):
            return "?"
        return self.names[seat]

    def pile(self, key: str = "pile") -> int | str:
        value = self.data.get(key)
        return value + 1 if isinstance(value, int) else "?"

    def card(self) -> str:
        return str(self.data["card"])


def describe_event(event: Event, names: Sequence[str]) -> Msg | None:
    """One line of the match log for ``event`` (None: not worth a line)."""
    line = _EVENT_LINES.get(event.kind)
    if line is None:
        return None
    return line(_Event(event, names))


def _named(key: str) -> Callable[[_Event], Msg | None]:
    """An event line naming the event's seat (``{name}``) only."""
    return lambda e: Msg.of(key, name=e.who())


def _pick(e: _Event) -> Msg | None:
    name = character_name(str(e.data.get("character")))
    return Msg.of("bb-event-pick", name=e.who(), character=name)


def _play(e: _Event) -> Msg | None:
    return Msg.of("bb-event-play", name=e.who(), card=e.card(), pile=e.pile())


def _link(e: _Event) -> Msg | None:
    return Msg.of("bb-event-link", name=e.who(), card=e.card(), pile=e.pile())


def _joker_pull(e: _Event) -> Msg | None:
    return Msg.of("bb-event-joker-pull", card=e.card(), pile=e.pile())


def _discard(e: _Event) -> Msg | None:
    return Msg.of("bb-event-discard", target=e.who("target"), card=e.card())


def _draw(e: _Event) -> Msg | None:
    cards = e.data.get("cards")
    count = len(cards) if isinstance(cards, list) else e.data.get("count", 0)
    if not count:
        return None
    if isinstance(cards, list):
        return Msg.of("bb-event-draw-cards", name=e.who(), cards=", ".join(cards))
    return Msg.of("bb-event-draw-count", name=e.who(), count=count)


def _lock(e: _Event) -> Msg | None:
    return Msg.of("bb-event-lock", target=e.who("target"), pile=e.pile())


def _cancel(e: _Event) -> Msg | None:
    return Msg.of("bb-event-cancel", target=e.who("target"))


def _tutor(e: _Event) -> Msg | None:
    card = e.data.get("card")
    if card:
        return Msg.of("bb-event-tutor-card", card=str(card))
    return Msg.of("bb-event-tutor", name=e.who())


def _steal_top(e: _Event) -> Msg | None:
    if e.data.get("card") is None:
        return None
    return Msg.of("bb-event-steal-top", card=e.card(), pile=e.pile("to"))


def _reveal(e: _Event) -> Msg | None:
    cards = ", ".join(e.data.get("cards", [])) or "—"
    return Msg.of("bb-event-reveal", target=e.who("target"), cards=cards)


def _ability_cancelled(e: _Event) -> Msg | None:
    return Msg.of("bb-event-ability-cancelled", card=e.card())


def _damage_declared(e: _Event) -> Msg | None:
    return Msg.of("bb-event-damage-declared", name=e.who(), chooser=e.who("chooser"))


def _damage(e: _Event) -> Msg | None:
    life = max(0, e.data["life"])
    return Msg.of("bb-event-damage", name=e.who(), amount=e.data["amount"], life=life)


def _coup_fatal(e: _Event) -> Msg | None:
    return Msg.of("bb-event-coup-fatal", target=e.who("target"), amount=e.data["amount"])


_EVENT_LINES: dict[str, Callable[[_Event], Msg | None]] = {
    "pick": _pick,
    "first-player": _named("bb-event-first-player"),
    "play": _play,
    "link": _link,
    "joker-pull": _joker_pull,
    "discard": _discard,
    "draw": _draw,
    "lock": _lock,
    "cancel": _cancel,
    "extra-turn": _named("bb-event-extra-turn"),
    "tutor": _tutor,
    "steal-top": _steal_top,
    "reveal": _reveal,
    "ability-cancelled": _ability_cancelled,
    "damage-declared": _damage_declared,
    "damage": _damage,
    "coup-fatal": _coup_fatal,
    "eliminated": _named("bb-event-eliminated"),
    "turn-passed": _named("bb-event-turn-passed"),
    "resign": _named("bb-event-resign"),
}


def summary(view: View, names: Sequence[str]) -> Msg:
    out = []
    for i, pile in enumerate(view.piles):
        value = view.pile_values[i]
        out.append(
            Msg.of(
                "bb-summary-pile",
                pile=i + 1,
                top=pile[-1] if pile else "—",
                value="—" if value is None else value,
                count=len(pile),
            )
        )
    for p in view.players:
        name = names[p.seat] if p.seat < len(names) else f"#{p.seat + 1}"
        if not p.character:
            out.append(Msg.of("bb-summary-choosing", seat=p.seat + 1, name=name))
            continue
        key = "bb-summary-player" + ("-out" if p.out else "") + ("-revealed" if p.revealed else "")
        params: dict[str, MsgParam] = {
            "seat": p.seat + 1,
            "name": name,
            "character": character_name(p.character),
            "life": max(0, p.life),
            "hp": p.hp,
            "hand": p.hand_count,
            "deck": p.deck_count,
        }
        if p.revealed:
            params["cards"] = ", ".join(p.revealed)
        out.append(Msg.of(key, **params))
        if p.hand is not None:
            out.append(Msg.of("bb-summary-hand", cards=" ".join(p.hand)))
    return lines(*out)
