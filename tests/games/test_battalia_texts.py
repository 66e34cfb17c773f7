"""Battalia's texts: every event kind and decision kind has its sentence in
English and French, action labels are never the raw notation, the rules
details hold the cost table, the Oracle and the Great Artefacts, and the
staged menus of a full hand reach every legal action with short levels."""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

import i18n
from engine import GAMES
from engine.core import Decision, Event, evolve
from engine.games.battalia import actions as bta
from engine.games.battalia import menu as btm
from engine.games.battalia import text as btt
from engine.text import Msg

LANGS = ("en", "fr")
NAMES = ("Alice", "Bob", "Chloé")

# The design's event kinds (/tmp/p15/design.md « Events »), with the data
# the engine sends (a sample of each).
EVENTS: dict[str, dict[str, Any]] = {
    "faction": {"seat": 0, "faction": "u"},
    "start": {"seat": 1, "square": "g1"},
    "turn": {"seat": 0},
    "day": {"day": 9, "illuminated": "A", "matching": "R"},
    "week": {"week": 2},
    "mulligan": {"seat": 0},
    "cohort": {"seat": 0, "cards": ["1u", "2u", "3u"]},
    "buy": {"seat": 0, "stack": "2", "card": "2i", "cards": ["P", "P", "P"], "provision": True},
    "build": {
        "seat": 0,
        "kind": "city",
        "layout": "L",
        "terrain": "lac",
        "level": 2,
        "cards": ["2u", "2u", "2i"],
    },
    "place": {
        "seat": 0,
        "square": "c3",
        "rotation": 1,
        "kind": "road",
        "layout": "T",
        "terrain": "foret",
        "level": 0,
    },
    "upgrade": {"seat": 0, "square": "c3", "level": 3},
    "summon": {"seat": 0, "hero": "h1", "square": "a1"},
    "move": {"seat": 0, "hero": "h2", "from": "a1", "path": ["b1", "c1"]},
    "attack": {"seat": 0, "hero": "h1", "target": "d4", "target_kind": "ruins", "line": ["Au"]},
    "defend": {"seat": 1, "line": ["2i", "Ai"]},
    "retreat": {"seat": 1, "square": "c4"},
    "battle": {
        "attacker": 0,
        "target": "c3",
        "kind": "city",
        "square": "c3",
        "attack": 7,
        "defence": 7,
        "result": "defender",
    },
    "conquer": {"seat": 0, "square": "g1", "level": 1},
    "hero-lost": {"seat": 1, "hero": "2h1"},
    "great-artefact": {"seat": 0, "artefact": "G2"},
    "tent": {"seat": 0, "count": 2},
    "tent-back": {"seat": 0, "count": 2},
    "end": {"seat": 0},
    "draw": {"seat": 0, "count": 4},
    "reshuffle": {"seat": 0},
    "buff-roll": {"seat": 1, "roll": 4},
    "buff-move": {"seat": 1, "from": "b1", "path": ["b2", "c2"]},
    "buff-attack": {"seat": 2, "hero": "3h1", "square": "c2", "horde": 8, "by": 1},
    "buff-fight": {"seat": 2, "hero": "3h1", "line": ["4i", "Ai"], "strength": 6, "horde": 8},
    "auction-open": {"week": 2},
    "bribe": {"seat": 2, "until": 16},
    "recruit": {"seat": 2, "until": 16},
    "hire-ends": {"seat": 2, "horde": 8},
    "bribe-ends": {"seat": 2},
    "buff-removed": {"seat": -1, "square": "c2"},
    "horde": {"horde": 8},
    "bid": {"seat": 0, "cards": ["2u", "Au"], "total": 3},
    "auction": {"bids": [[0, ["2u", "Au"], 3], [1, ["4i"], 4]], "winner": 1},
    "buff-enter": {"seat": 1, "square": "g7"},
    "game-over": {"reason": "five-level4", "ranking": [[0], [2, 1]], "scores": [20, 9, 9]},
    "resign": {"seat": 2},
}

DECISIONS = (
    Decision("faction"),
    Decision("start"),
    Decision("turn"),
    Decision("place", (("kind", "city"), ("layout", "L"), ("terrain", "lac"), ("level", 2))),
    Decision("place", (("kind", "road"), ("layout", "X"), ("terrain", "foret"), ("level", 0))),
    Decision("defend", (("attacker", 1), ("target", "c3"), ("strength", 7))),
    Decision("defend", (("attacker", 1), ("target", "1h2"), ("strength", 7))),
    Decision("defend", (("attacker", 1), ("target", "buff"), ("strength", 7))),
    Decision("ruins"),
    Decision("take"),
    Decision("bid"),
    Decision("enter"),
    Decision("buff-move", (("roll", 5),)),
    Decision("buff-answer", (("horde", 8), ("square", "c2"))),
)


def _text(lang: str, msg: Msg | None) -> str:
    assert msg is not None
    out = i18n.translate(lang, msg)
    assert out.strip() and "{" not in out and "bt-" not in out, (lang, msg, out)
    return out


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("kind", sorted(EVENTS))
def test_every_event_kind_has_a_line(lang: str, kind: str) -> None:
    out = _text(lang, btt.describe_event(Event(kind, EVENTS[kind]), NAMES))
    assert kind in btt.EVENT_KINDS
    if EVENTS[kind].get("seat", -1) >= 0:
        assert NAMES[EVENTS[kind]["seat"]] in out, out


def test_the_event_table_covers_the_design() -> None:
    assert set(EVENTS) == btt.EVENT_KINDS


@pytest.mark.parametrize("lang", LANGS)
def test_a_redacted_bid_only_says_who_has_bid(lang: str) -> None:
    """Seed 004: « tous les joueurs choisissent secrètement une ou plusieurs
    cartes » — the others read only that Alice has bid."""
    event = Event(
        "bid", {"seat": 0, "cards": ["4u", "Au"], "total": 5}, frozenset({0}), {"seat": 0}
    )
    other = _text(lang, btt.describe_event(event.for_seat(1), NAMES))  # type: ignore[arg-type]
    own = _text(lang, btt.describe_event(event.for_seat(0), NAMES))  # type: ignore[arg-type]
    assert "Alice" in other and "Seigneur" not in other and "5" not in other
    assert "Seigneur ursidé" in own and "5" in own


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("decision", DECISIONS, ids=lambda d: d.kind)
def test_every_decision_kind_has_a_sentence(lang: str, decision: Decision) -> None:
    out = _text(lang, btt.decision_text(decision, NAMES))
    assert not out.startswith("bt-")
    if decision.kind == "buff-move":
        assert "5" in out
    if decision.kind == "buff-answer":
        assert "8" in out
    if decision.kind == "defend":
        assert "Bob" in out and "7" in out
    if decision.kind == "place":
        assert "Lac" in out or "Forêt" in out


def test_french_decision_texts_are_french() -> None:
    out = _text("fr", btt.decision_text(Decision("buff-answer", (("horde", 8),)), NAMES))
    assert "Soudoyez" in out or "soudoyez" in out
    assert " :" in out


NOTATIONS = (
    "faction u",
    "start a1",
    "mulligan",
    "cohort 1u 2u 3u",
    "buy 2 : P P P",
    "buy m : P P P P",
    "buy Ou : 1u 1u 1a",
    "road T : 1u 1i P",
    "city 2L : 2u 2u 2i",
    "place c3 1",
    "upgrade c3 : 3u 3a",
    "summon c3 : Au P P",
    "move h1 c3 d3 : P P",
    "move b c3 : P",
    "attack h1 c3 : 2u Au Tu>2u",
    "attack h2 2h1 : Au",
    "attack b buff : Au",
    "tent 3u : Eu P",
    "end",
    "defend : 2u Au",
    "defend",
    "retreat c4 : Cu",
    "take G2",
    "bid 2u Au",
    "bid",
    "enter a1",
    "buff c2 c3",
    "buff c2 2h1",
    "buff",
    "bribe : P P P",
    "recruit : P P P P",
    "fight : 2u Au",
    "fight",
)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("notation", NOTATIONS)
def test_describe_action_is_never_the_raw_notation(lang: str, notation: str) -> None:
    action = bta.parse_action(notation)
    text = bta.format_action(action)
    msg = btt.describe_notation(None, 0, text)
    assert msg.key != "action-notation", notation
    out = _text(lang, msg)
    assert out != text and out[:1].isupper(), out
    # payments and lines read as French card names, never as codes
    _, cards = btt.split(text)
    for code in cards:
        assert btt.cards_text([code.split(">")[0]]) in out, (code, out)


def test_card_names_are_the_data_files() -> None:
    assert btt.card_name("2i") == "Chef insulaire"
    assert btt.card_name("Au") == "Arme ursidée"
    assert btt.card_name("P") == "Provisions"
    assert btt.card_name("3m") == "Prêtre sans bannière"
    assert btt.card_name("G1") == "Épée d'Elemag"
    assert btt.card_name("Tu>2u") == "Titre ursidé → Chef ursidé"
    assert btt.cards_text(["1u", "P"]) == "Citoyen ursidé + Provision"  # one card: singular
    assert btt.cards_text(["P", "P", "P"]) == "3 × Provisions"


def test_a_bid_label_gives_its_strength() -> None:
    """Seed 004: the highest total strength wins the auction: the label adds
    it up (units their rank, a weapon 1)."""
    out = _text("fr", btt.describe_notation(None, 0, "bid 4u 2i Au"))
    assert "force 7" in out, out


@pytest.mark.parametrize("lang", LANGS)
def test_rules_details_hold_costs_oracle_and_great_artefacts(lang: str) -> None:
    out = _text(lang, btt.rules_details())
    for name in ("Épée d'Elemag", "Bouclier de Britos", "Ailes d'Aviena", "Couronne de Titus"):
        assert name in out
    types = {"fr": ("Outil", "Cheval", "Parchemin"), "en": ("Tool", "Horse", "Scroll")}[lang]
    assert all(t in out for t in types), out  # artefact types: translated game terms
    assert len(out.splitlines()) >= 20


def test_french_texts_use_a_space_before_the_colon() -> None:
    for key in sorted(k for k in i18n.keys("fr") if k.startswith("bt-")):
        text = i18n.template("fr", key)
        prose = re.sub(r"\{[^}]*\}", "X", text)
        assert not re.search(r"[^\W\d_]:(?=\s|$)", prose), (key, text)


# ---------------------------------------------------------------------------
# Staged menus over a full hand's notations (the builder alone)
# ---------------------------------------------------------------------------


def _subsets(cards: list[str]) -> list[tuple[str, ...]]:
    out: set[tuple[str, ...]] = set()
    for n in range(1, len(cards) + 1):
        out |= {tuple(bta.canon(list(c))) for c in itertools.combinations(cards, n)}
    return sorted(out)


def _full_hand_notations() -> list[str]:
    """What a 7-card hand (and a big tent) may write in a turn: every attack
    line holding a weapon against three targets (with the title on the
    Chef), buys, roads, moves, and the start of turn."""
    hand = ["1u", "1u", "2u", "3i", "Au", "Tu", "P"]
    notes = ["mulligan", "cohort 1u 1u 2u"]
    for line in _subsets(hand):
        if "Au" not in line:
            continue
        for aim in ("c3", "2h1", "buff"):
            notes.append(f"attack h1 {aim} : {' '.join(line)}")
            if "Tu" in line and "2u" in line:
                titled = [c for c in line if c != "Tu"] + ["Tu>2u"]
                notes.append(f"attack h1 {aim} : {' '.join(bta.canon(titled))}")
    notes += ["buy 1 : P P", "buy O : 1u 1u 1u", "road I : 1u P", "road L : 1u P"]
    notes += ["move h1 a2 : P", "move h1 a2 a3 : P P", "move h2 b1 : P", "end"]
    return [bta.format_action(bta.parse_action(n)) for n in dict.fromkeys(notes)]


def _label(lang: str, label: Msg | str) -> str:
    """A menu label as the host shows it: a plain string as it is."""
    return label if isinstance(label, str) else i18n.translate(lang, label)


def _menu(notes: list[str], lang: str = "fr") -> Any:
    from bot.menu import MenuStep as HostStep
    from bot.menu import build_menu

    entries = btm.action_menu(None, 0, [(n, n) for n in notes])
    return entries, build_menu(
        [
            (n, tuple(HostStep(s.key, _label(lang, s.label), "") for s in path))
            for n, path in entries
        ]
    )


def _levels(node: Any) -> Iterator[Any]:
    if not node.is_leaf:
        yield node
        for child in node.children:
            yield from _levels(child)


def test_a_full_hand_menu_reaches_every_action_once_with_short_levels() -> None:
    notes = _full_hand_notations()
    assert len(notes) > 150
    entries, menu = _menu(notes)
    leaves = [menu.entries[node.entry][0] for _, node in menu.leaves()]
    assert sorted(leaves) == sorted(notes) and len(set(leaves)) == len(leaves)
    assert [a for a, _ in entries] != [] and Counter(a for a, _ in entries) == Counter(notes)
    widest = max(len(level.children) for level in _levels(menu.root))
    assert widest <= 25, widest  # one select per level
    # every leaf is labelled in words, never the bare notation
    for notation, path in menu.entries:
        assert path[-1].label != notation


def test_an_attack_is_chosen_by_target_then_size_then_line() -> None:
    entries, _ = _menu(_full_hand_notations())
    path = dict(entries)["attack h1 buff : 2u Au Tu>2u"]
    labels = [_label("fr", s.label) for s in path]
    assert labels[0] == "Attaquer" and labels[1] == "Buff"  # one hero: no hero level
    assert labels[2] == "3 cartes", labels
    assert "Titre ursidé → Chef ursidé" in labels[-1], labels


def test_a_single_payment_plays_at_once() -> None:
    entries, _ = _menu(_full_hand_notations())
    path = dict(entries)["buy 1 : P P"]
    assert len(path) == 2 and path[-1].key == "buy 1 : P P"
    label = _label("fr", path[-1].label)
    assert label == "Acheter Citoyen (2 × Provisions)", label


def test_buff_entering_on_several_heroes_names_the_one_attacked() -> None:
    """Seed 004: « Seul un des héros peut être attaqué » — the auction's
    winner names it (``enter a1 2h1``)."""
    out = _text("fr", btt.describe_notation(None, 0, "enter a1 2h1"))
    assert out == "Faire entrer Buff en a1, contre le héros 1 du joueur 2", out


def test_the_action_entry_points_read_the_notation() -> None:
    """``describe_action`` and ``action_menu`` take engine actions (as Liber's
    text module does) and read them through their notation."""
    action = bta.parse_action("buy 2 : P P P")
    assert btt.describe_action(None, 0, action) == btt.describe_notation(None, 0, "buy 2 : P P P")
    (only,) = btm.legal_menu(None, 0, [action])
    assert only[0] == action and only[1][-1].key == "buy 2 : P P P"


@pytest.mark.parametrize("lang", LANGS)
def test_a_fight_against_the_horde_reads_both_strengths(lang: str) -> None:
    """Seed 004: « une ligne de combat avec des cartes dont la force est au
    moins égale à la force de la horde »: the line says both numbers."""
    data = {"seat": 2, "hero": "3h1", "line": ["4i", "Ai"], "strength": 8, "horde": 8, "won": True}
    out = _text(lang, btt.describe_event(Event("buff-fight", data), NAMES))
    assert "Chloé" in out and "8" in out and "Seigneur insulaire" in out
    lost = _text(lang, btt.describe_event(Event("buff-fight", {**data, "won": False}), NAMES))
    assert lost != out


def test_a_placement_is_one_numbered_level_sorted_by_square() -> None:
    """The host draws a flat level's choices as numbered ghost tiles
    (``render_choices``): a terrain card's spots are one level, those of a
    square next to each other, each labelled with its exits."""
    notes = ["place d3 0", "place c3 1", "place c3 0", "place b4 2"]
    entries, menu = _menu(notes)
    assert menu.flat
    assert [n for n, _ in entries] == ["place b4 2", "place c3 0", "place c3 1", "place d3 0"]
    label = _label("fr", entries[0][1][0].label)
    assert label.startswith("Poser en b4, rotation 2"), label


def test_buff_paths_are_one_numbered_level() -> None:
    notes = ["buff", "buff c2", "buff c2 c3", "buff b1", "buff c2 c3 3h1"]
    _, menu = _menu(notes)
    assert menu.flat and len(menu.root.children) == 5


# ---------------------------------------------------------------------------
# Menus of real states: random games, and a full hand mid-game
# ---------------------------------------------------------------------------


def _real_menu(state: Any, seat: int) -> tuple[list[Any], Any]:
    from bot.menu import MenuStep as HostStep
    from bot.menu import build_menu

    game = GAMES["battalia"]
    entries = list(game.action_menu(state, seat))
    menu = build_menu(
        [
            (game.format_action(a), tuple(HostStep(s.key, _label("en", s.label)) for s in path))
            for a, path in entries
        ]
    )
    return entries, menu


def _walk_states(seeds: range, steps: int = 1500) -> Iterator[tuple[Any, int]]:
    from engine import rng

    game = GAMES["battalia"]
    for seed in seeds:
        state = game.setup(game.options("week_limit=3"), 2 + seed % 3, seed)
        chooser = rng.seed_state(seed, "menus")
        for _ in range(steps):
            pending = game.pending(state)
            if not pending:
                break
            seat = sorted(pending)[0]
            yield state, seat
            action, chooser = rng.choice(chooser, game.legal_actions(state, seat))
            state, _ = game.apply(state, seat, action)


def test_every_legal_action_is_in_the_menu_once_in_random_games() -> None:
    game = GAMES["battalia"]
    phases: Counter[str] = Counter()
    for state, seat in _walk_states(range(4)):
        legal = [game.format_action(a) for a in game.legal_actions(state, seat)]
        _, menu = _real_menu(state, seat)
        leaves = [menu.entries[node.entry][0] for _, node in menu.leaves()]
        assert sorted(leaves) == sorted(legal), state.phase
        for notation, path in menu.entries:
            label = path[-1].label
            assert label and label != notation and "bt-" not in label, (notation, label)
        if state.phase not in btm.SPOTS_PHASES:
            widest = max(len(level.children) for level in _levels(menu.root))
            assert widest <= 40, (state.phase, widest)
        phases[state.phase] += 1
    assert {"turn", "place", "auction", "buff-move"} <= set(phases), phases


def _full_hand_state() -> tuple[Any, int]:
    """A mid-game turn whose seat has a hero on the board, given a full hand
    of 7 cards (units of three ranks, a weapon, a title, a horse, Provisions)."""
    for state, seat in _walk_states(range(20), 3000):
        if state.phase == "turn" and state.day >= 9 and any(h.seat == seat for h in state.heroes):
            players = list(state.players)
            hand = ("1u", "1i", "2u", "3u", "Au", "Tu", "Cu", "P", "P")
            players[seat] = evolve(players[seat], hand=hand)
            full = evolve(state, players=tuple(players))
            if any(isinstance(a, bta.Attack) for a in GAMES["battalia"].legal_actions(full, seat)):
                return full, seat  # a hero with a target: the lines make the menu big
    raise AssertionError("no mid-game turn with a hero on the board")


def test_a_full_hand_menu_is_complete_and_staged() -> None:
    game = GAMES["battalia"]
    state, seat = _full_hand_state()
    legal = [game.format_action(a) for a in game.legal_actions(state, seat)]
    assert len(legal) > 100  # the hand allows many lines
    game.action_menu(state, seat)
    _, menu = _real_menu(state, seat)
    leaves = [menu.entries[node.entry][0] for _, node in menu.leaves()]
    assert sorted(leaves) == sorted(legal)
    assert len(menu.root.children) <= 12  # the kinds of action
    widest = max(len(level.children) for level in _levels(menu.root))
    assert widest <= 40, widest


def test_a_bid_choice_gives_its_strength_as_the_engine_counts_it() -> None:
    """Seed 004: « Le joueur qui sacrifie la force de combat totale la plus
    élevée » — each bid of the menu shows its total, an Arme counting 2 on
    its illuminated day (day 2: Arme)."""
    from tests.games.battalia_buff_helpers import table

    state = table(hands=("2u Au P",), day=9, phase="auction")
    entries = btm.action_menu(state, 0, [(n, n) for n in ("bid 2u", "bid Au", "bid 2u Au")])
    labels = {path[-1].key: _label("fr", path[-1].label) for _, path in entries}
    assert labels["bid 2u Au"] == "Chef ursidé + Arme ursidée (force 4)", labels
    assert labels["bid Au"] == "Arme ursidée (force 2)", labels


def test_the_rules_document_lists_every_option_with_its_default() -> None:
    """docs/rules/battalia.md stays true: each option of the game is a row of
    its options table, with the model's default."""
    from pathlib import Path

    from engine.games.battalia.model import Options

    doc = (Path(__file__).resolve().parents[2] / "docs" / "rules" / "battalia.md").read_text()
    rows = {
        m.group(1): m.group(2).strip()
        for m in re.finditer(r"^\| `([a-z_0-9]+)` \| ([^|]+) \|", doc, flags=re.M)
    }
    words = {True: "on", False: "off"}
    for name, field in Options.model_fields.items():
        assert name in rows, name
        default = field.default
        shown = words[default] if isinstance(default, bool) else str(default)
        assert rows[name].strip("`").startswith(shown), (name, rows[name], shown)


@pytest.mark.parametrize("lang", LANGS)
def test_summaries_of_real_views_read_day_players_buff_and_waits(lang: str) -> None:
    """The console's and accessibility's summary: the day and the Oracle,
    every player's points, the heroes, Buff, what is awaited (the auction),
    the observer's hand only for a seat."""
    game = GAMES["battalia"]
    names = ("Alice", "Bob", "Chloé")
    seen_auction = seen_buff = False
    for state, seat in _walk_states(range(2, 3), 1200):
        for viewer in (None, seat):
            view = game.view(state, viewer)
            out = _text(lang, game.summary(view, names[: state.seats]))
            assert ("Jour " if lang == "fr" else "Day ") + str(view.day) in out
            assert all(n in out for n in names[: state.seats])
            hand_word = "Votre main" if lang == "fr" else "Your hand"
            assert (hand_word in out) == (viewer is not None)
            if view.auction is not None and view.auction.bidders:
                seen_auction = True
                assert ("Enchère pour Buff" if lang == "fr" else "Auction for Buff") in out
            if view.buff.square:
                seen_buff = True
                assert view.buff.square in out
    assert seen_auction and seen_buff


@pytest.mark.parametrize("tie", ["", "vp", "chance"])
def test_the_auction_line_says_how_a_tie_was_broken(tie: str) -> None:
    """Seed 004: « En cas d'égalité, c'est le joueur qui possède le plus de
    point de victoire qui gagne ce privilège. S'il y a toujours égalité, un
    des joueurs à égalité est choisi au hasard. »"""
    data = {"bids": [[0, ["4u"], 4], [1, ["4i"], 4]], "winner": 1, "tie": tie}
    out = _text("fr", btt.describe_event(Event("auction", data), NAMES))
    assert "Bob choisit" in out
    assert ("points de victoire" in out) == (tie == "vp")
    assert ("tirée au sort" in out) == (tie == "chance")


def test_every_refusal_the_engine_raises_has_its_sentence() -> None:
    """The refusals of legality.py and buff.py (``refuse("cost")``,
    ``_refuse(f"buff-{why}")`` with wander.py's reasons) and the notation's
    are catalogue keys of both languages: the catalogue follows the code."""
    from pathlib import Path

    package = Path(btt.__file__).resolve().parent
    keys: set[str] = set()
    whys: set[str] = set()
    for path in package.glob("*.py"):
        source = path.read_text()
        keys |= {f"bt-refuse-{k}" for k in re.findall(r'refuse\(\s*"([a-z0-9-]+)"', source)}
        keys |= set(re.findall(r'"(bt-refuse-[a-z0-9-]+)"', source))
        if path.name == "wander.py":
            whys |= set(re.findall(r'return "([a-z-]+)"', source))
    keys |= {f"bt-refuse-buff-{why}" for why in whys}
    assert len(keys) > 30 and whys
    for lang in LANGS:
        missing = sorted(k for k in keys if not i18n.has(lang, k))
        assert not missing, (lang, missing)


def test_a_move_label_starts_from_the_heros_square() -> None:
    from tests.games.battalia_buff_helpers import table

    state = table(roads="a1-b1-c1", heroes={"a1": ("1h1",)}, hands=("P P",))
    out = _text("fr", btt.describe_notation(state, 0, "move h1 b1 c1 : P P"))
    assert out == "Déplacer votre héros 1 : a1 → b1 → c1 (2 × Provisions)", out


# ---------------------------------------------------------------------------
# Issue 15 fixes (console audit, E2E reading)
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(("lang", "word"), [("fr", "1 case "), ("en", "1 square ")])
def test_a_buff_roll_of_one_reads_singular(lang: str, word: str) -> None:
    text = _text(lang, btt.decision_text(Decision("buff-move", (("roll", 1),)), NAMES))
    assert word in text, text


@pytest.mark.parametrize(("lang", "own"), [("fr", "À vous"), ("en", "Your turn")])
def test_the_turn_decision_does_not_repeat_the_hosts_your_turn(lang: str, own: str) -> None:
    """The host puts « À vous » / the seat's name before the decision."""
    text = _text(lang, btt.decision_text(Decision("turn"), NAMES))
    assert not text.startswith(own), text


def _started_view(**changes: Any) -> Any:
    from tests.games.battalia_helpers import started

    state = evolve(started(3, options="week_limit=2"), **changes)
    return GAMES["battalia"].view(state, None)


@pytest.mark.parametrize(
    ("lang", "turn", "over"),
    [("fr", "Au tour", "Partie terminée"), ("en", "'s turn", "Match over")],
)
def test_the_summary_of_a_finished_match_names_no_turn(lang: str, turn: str, over: str) -> None:
    text = _text(lang, btt.summary(_started_view(phase="over", ranking=((1,), (0, 2))), NAMES))
    assert turn not in text and over in text, text
    playing = _text(lang, btt.summary(_started_view(), NAMES))
    assert turn in playing and over not in playing, playing


@pytest.mark.parametrize(
    ("lang", "open_"), [("fr", "Enchère pour Buff ouverte"), ("en", "Auction for Buff open")]
)
def test_the_summary_during_the_auction_says_it_is_open_not_whose_turn(
    lang: str, open_: str
) -> None:
    """Seed 004: « chaque joueur … enchérit » at once: nobody's turn, the
    auction is open and its line names who still has to bid."""
    from engine.games.battalia.model import AuctionView

    view = _started_view(active=2)
    view = evolve(view, auction=AuctionView(bidders=(0, 2), bids=(), winner=None, own_bid=()))
    text = _text(lang, btt.summary(view, NAMES))
    assert open_ in text and "Chloé's turn" not in text and "Au tour de Chloé" not in text, text
    assert "Alice" in text.split(open_)[1], text


def test_one_provision_reads_singular() -> None:
    """« 1 places » / « + Provisions »: a single card takes the singular."""
    assert btt.cards_text(["1u", "P"]) == "Citoyen ursidé + Provision"
    assert btt.cards_text(["P", "P"]) == "2 × Provisions"


def test_artefact_types_are_translated_card_names_stay_french() -> None:
    """docs/rules/battalia.md: a type (Horse) is a game term, a card
    (« Cheval ursidé ») keeps its French name."""
    day = btt.describe_event(Event("day", {"day": 7, "illuminated": "C", "matching": "T"}), NAMES)
    en = _text("en", day)
    assert "Horse" in en and "Title" in en and "Cheval" not in en, en
    assert "Cheval" in _text("fr", day)
    buy = _text("en", btt.describe_notation(None, 0, "buy C : 2u P P"))
    assert "Horse" in buy and "Cheval" not in buy, buy
    assert "Cheval ursidé" in _text("en", btt.describe_notation(None, 0, "buy Cu : 2u P P"))


@pytest.mark.parametrize(
    ("lang", "who"), [("fr", "Votre héros 2 n'est pas"), ("en", "Your hero 2 is not")]
)
def test_a_missing_hero_is_not_named_by_its_id(lang: str, who: str) -> None:
    from engine.errors import RulesError
    from tests.games.battalia_helpers import scenario

    state = scenario(roads="b2-c2", heroes={"b2": ("1h1",)}, hands=("P",), day=3)
    with pytest.raises(RulesError) as err:
        GAMES["battalia"].apply_text(state, 0, "move h2 c2 : P")
    text = i18n.translate(lang, err.value.msg)
    assert text.startswith(who) and "h2" not in text, text


@pytest.mark.parametrize("lang", LANGS)
def test_the_fight_menu_gives_each_line_its_strength_against_the_horde(lang: str) -> None:
    """Seed 004: « une ligne de combat avec des cartes dont la force est au
    moins égale à la force de la horde »: each line of the menu says both."""
    from tests.games.battalia_buff_helpers import table, with_hand

    state = table(roads="a1-b1-c1", heroes={"b1": ("2h1",)}, buff="a1", hands=("P", "P", "1a"))
    state = evolve(state, phase="buff-move")
    state = evolve(state, buff=evolve(state.buff, roll=1, mover=0, resume="after-turn"))
    state = with_hand(state, 1, "2i 3i Ci")
    state, _ = GAMES["battalia"].apply_text(state, 0, "buff b1")
    entries = GAMES["battalia"].action_menu(state, 1)
    labels = {
        path[-1].key: i18n.translate(lang, path[-1].label)
        for _, path in entries
        if not isinstance(path[-1].label, str)
    }
    horde = state.buff.horde
    assert horde == 6
    expected = {
        "fr": "Chef insulaire + Prêtre insulaire (force 5 contre la horde 6)",
        "en": "Chef insulaire + Prêtre insulaire (strength 5 against the horde's 6)",
    }
    # 2 + 3: the cards' strength only (the seed's reading, buff_fight_bonuses off)
    assert labels["fight : 2i 3i"] == expected[lang]


@pytest.mark.parametrize("lang", LANGS)
def test_a_not_now_refusal_says_what_is_expected(lang: str) -> None:
    """The console audit: « Ce n'est pas le moment » said nothing of what to
    do: the refusal carries the seat's pending decision."""
    from engine.errors import RulesError
    from tests.games.battalia_helpers import scenario

    game = GAMES["battalia"]
    state = scenario(
        roads="c3-d3-e3", heroes={"c3": ("1h1",), "d3": ("2h1",)}, hands=("2u Au", "P P"), day=3
    )
    state, _ = game.apply_text(state, 0, "attack h1 2h1 : 2u Au")
    with pytest.raises(RulesError) as err:  # the defender tries to end a turn
        game.apply_text(state, 1, "end")
    text = i18n.translate(lang, err.value.msg)
    start = {
        "fr": "Pas maintenant. Le joueur 1 attaque votre héros 1 (force 4)",
        "en": "Not now. Player 1 attacks your hero 1 (strength 4)",
    }
    assert text.startswith(start[lang]), text


@pytest.mark.parametrize(("lang", "said"), [("fr", "pas de pile « 9 »"), ("en", "no stack “9”")])
def test_buying_from_no_stack_says_so(lang: str, said: str) -> None:
    """The console audit: `buy 9` was « not a Battalia action »."""
    from engine.errors import BadNotation

    with pytest.raises(BadNotation) as err:
        bta.parse_action("buy 9 : P P")
    text = _text(lang, err.value.msg)
    assert said in text and "Battalia" not in text, text


def test_a_long_bid_menu_is_staged_by_strength() -> None:
    """The console audit: the bid menu listed every combination flat (63
    for six cards): it opens on the strength, then the cards."""
    cards = ["1u", "2u", "3u", "4u", "Au", "Cu"]
    notes = ["bid " + " ".join(c) for n in range(1, 7) for c in itertools.combinations(cards, n)]
    entries = btm.action_menu(None, 0, [(n, n) for n in notes])
    assert len(entries) == 63
    tops = {path[0].key for _, path in entries}
    assert len(tops) <= 12 and len(tops) < 63, tops  # strengths 1 to 12
    for _, path in entries:
        if len(path) > 1:
            total = btt.bid_total(None, path[-1].key.split()[1:])
            assert _text("fr", path[0].label) == f"Force {total}", path
