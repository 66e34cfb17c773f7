"""Every text a player reads, walked in English and in French.

Random matches of every hosted game (the engine's own generator, a fixed
seed) give real decisions, events, outcomes, states and refusals; each goes
through the host's text paths: the board's "who acts" line, the final match
message, ``/history`` lines, ``/rules``, decision prompts, event lines,
action labels and menus, summaries, refusals (``RulesError.message``), the
console's printed text and the words drawn on the images. Each text must pass
:func:`tests.bot.textcheck.problems`: no raw key, no leftover placeholder, no
English inside French, the colon spacing of its language, French elision.
"""

from __future__ import annotations

import ast
import functools
import importlib
import inspect
import io
import pkgutil
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from PIL import ImageDraw

import i18n as _i18n_catalogue
from bot import i18n
from bot.console import main as console_main
from bot.i18n import (
    EN,
    FR,
    error_text,
    game_name,
    game_text,
    history_line,
    menu_entries,
    reason_text,
    result_lines,
    rules_text,
    t,
)
from bot.lobby_options import readable_options
from bot.service import hostable_games
from engine import GAMES, rng
from engine.core import Decision, Event, Game, Outcome
from engine.errors import RulesError
from i18n import TextFormatter
from tests.bot.textcheck import problems

GAME_IDS = hostable_games()
LOCALES = ("en", "fr")
# Names starting with a vowel, so that French elision is exercised ("Main d'Alice").
NAMES = ("Alice", "Bob", "Émile", "Odile")
BOT = Path(__file__).resolve().parents[2] / "bot"
# Random matches per game in the walk (about two seconds each).
WALK_GAMES = {"belle-position": 60, "between-battle": 200, "via-belli": 12}
SAMPLES = 3  # texts kept per decision / event kind
GARBAGE = ("zzz", "", "@", "99>99", "x x x", "A1@Z9", "!", ">>", "+++", "Z9>A1")


@dataclass
class Walk:
    decisions: dict[str, list[tuple[Decision, int]]] = field(default_factory=dict)
    events: dict[str, list[tuple[Event, int]]] = field(default_factory=dict)
    outcomes: dict[str, Outcome] = field(default_factory=dict)
    states: list[tuple[Any, int]] = field(default_factory=list)
    finals: list[tuple[Any, int]] = field(default_factory=list)
    errors: dict[str, RulesError] = field(default_factory=dict)
    shapes: set[tuple[str, str]] = field(default_factory=set)


def _shape(data: Any) -> str:
    """The short text parameters of an event or decision (a cause, a mode, a
    reason...): samples of a kind are kept per shape, so each variant is read."""
    items = data.items() if isinstance(data, dict) else data
    return ",".join(f"{k}={v}" for k, v in sorted(items) if isinstance(v, str) and len(v) < 24)


def _keep(walk: Walk, bucket: dict[str, list[Any]], kind: str, shape: str, item: Any) -> None:
    kept = bucket.setdefault(kind, [])
    if (kind, shape) not in walk.shapes and len(kept) < 4 * SAMPLES:
        walk.shapes.add((kind, shape))
        kept.append(item)
    elif len(kept) < SAMPLES:
        kept.append(item)


def _refusal(walk: Walk, call: Any) -> None:
    try:
        call()
    except RulesError as err:
        # one refusal of each shape (card names and numbers aside)
        shape = err.msg.key
        walk.errors.setdefault(f"{type(err).__name__}:{shape}", err)


def _try_errors(walk: Walk, game: Game[Any, Any, Any], state: Any, seats: int, old: Any) -> None:
    for text in GARBAGE:
        _refusal(walk, lambda text=text: game.apply_text(state, 0, text))
    pending = game.pending(state)
    for seat in range(seats):
        if seat not in pending:
            _refusal(walk, lambda seat=seat: game.apply_text(state, seat, "zzz"))
            if pending:
                other = next(iter(pending))
                action = game.legal_actions(state, other)[0]
                _refusal(walk, lambda seat=seat, a=action: game.apply(state, seat, a))
    if old is not None:
        for seat in pending:
            legal = set(game.legal_actions(state, seat))
            for action in game.legal_actions(old, seat)[:30]:
                if action not in legal:
                    _refusal(walk, lambda seat=seat, a=action: game.apply(state, seat, a))


@functools.cache
def walk(game_id: str) -> Walk:
    game = GAMES[game_id]
    info = game.info
    out = Walk()
    r = rng.seed_state(2026, game_id)
    options = game.conformance_options
    for k in range(WALK_GAMES.get(game_id, 20)):
        seats = info.min_seats + k % (info.max_seats - info.min_seats + 1)
        try:
            state = game.setup(game.options(options[k % len(options)]), seats, k + 1)
        except RulesError:
            continue
        for event in game.setup_events(state):
            _keep(out, out.events, event.kind, _shape(event.data), (event, seats))
        resign_at, r = rng.randbelow(r, 400) if k % 4 == 3 else (-1, r)
        r = _play(out, game, state, seats, r, resign_at)
    for state, seats, plays in _scripts(game_id):
        for seat, text in plays:
            for decision in game.pending(state).values():
                _keep(out, out.decisions, decision.kind, _shape(decision.params), (decision, seats))
            state, events = game.apply_text(state, seat, text)
            for event in events:
                _keep(out, out.events, event.kind, _shape(event.data), (event, seats))
        r = _play(out, game, state, seats, r, -1)
    for text in ("nope=1", "zzz", *(f"{name}=%%%" for name in info.options_model.model_fields)):
        _refusal(out, lambda text=text: game.options(text))
    return out


# Games whose rarest events a random walk does not reach play them from
# scripted positions (a module of tests/games with ``scripts()``: start
# state, seat count, the actions played), then go on at random to the end.
SCRIPTS = {"battalia": "tests.games.battalia_walk"}


def _scripts(game_id: str) -> list[tuple[Any, int, list[tuple[int, str]]]]:
    if game_id not in SCRIPTS:
        return []
    return list(importlib.import_module(SCRIPTS[game_id]).scripts())


def _play(
    out: Walk, game: Game[Any, Any, Any], state: Any, seats: int, r: Any, resign_at: int
) -> Any:
    """A random match from ``state`` to its end, every text kept."""
    old = None
    for step in range(game.max_actions):
        pending = game.pending(state)
        if not pending:
            break
        for decision in pending.values():
            _keep(out, out.decisions, decision.kind, _shape(decision.params), (decision, seats))
        if step % 25 == 0 and len(out.states) < 40:
            out.states.append((state, seats))
            _try_errors(out, game, state, seats, old)
            old = state
        seat = sorted(pending)[0]
        if step == resign_at:
            state, events = game.resign(state, seat)
        else:
            legal = game.legal_actions(state, seat)
            i, r = rng.randbelow(r, len(legal))
            state, events = game.apply(state, seat, legal[i])
        for event in events:
            _keep(out, out.events, event.kind, _shape(event.data), (event, seats))
    outcome = game.outcome(state)
    assert outcome is not None
    if len(out.finals) < 6 or outcome.reason not in out.outcomes:
        out.finals.append((state, seats))
    out.outcomes.setdefault(outcome.reason, outcome)
    _refusal(out, lambda s=state: game.apply_text(s, 0, "zzz"))
    return r


def _module_tree(game_id: str) -> ast.Module:
    """The source of the game's module; for a game that is a package
    (``engine/games/<game>/``), of every module in it."""
    module = inspect.getmodule(type(GAMES[game_id]))
    assert module is not None
    if module.__name__.count(".") < 3:
        return ast.parse(inspect.getsource(module))
    package = importlib.import_module(module.__name__.rpartition(".")[0])
    sources = [
        inspect.getsource(importlib.import_module(f"{package.__name__}.{info.name}"))
        for info in pkgutil.iter_modules(package.__path__)
    ]
    return ast.parse("\n".join(sources))


def _constant_first_args(game_id: str, callee: str) -> set[str]:
    found = set()
    for node in ast.walk(_module_tree(game_id)):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == callee
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            found.add(node.args[0].value)
    return found


def end_reasons(game_id: str) -> set[str]:
    """Every ``Outcome.reason`` a game can end with: the string constants its
    ``_finish`` / ``_eliminate`` methods (or functions) get as their
    ``reason`` parameter (passed or by default)."""
    tree = _module_tree(game_id)
    position: dict[str, int] = {}
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name in ("_finish", "_eliminate", "finish"):
            names = [a.arg for a in node.args.args if a.arg != "self"]
            if "reason" in names:
                position[node.name] = names.index("reason")
            for param, default in zip(node.args.args[::-1], node.args.defaults[::-1], strict=False):
                if param.arg == "reason" and isinstance(default, ast.Constant):
                    found.add(str(default.value))
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        # self._finish(...) in a game module, _finish(...) in a game package
        func = node.func
        callee = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        if callee in position and len(node.args) > position[callee]:
            value = node.args[position[callee]]
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                found.add(value.value)
    return found


def check(texts: Iterator[tuple[str, str, str]]) -> None:
    bad = []
    seen = 0
    for where, locale, text in texts:
        seen += 1
        for problem in problems(text, locale, NAMES):
            bad.append(f"[{locale}] {where[:50]}: {problem}\n      {text[:300]!r}")
    assert seen, "no text was walked"
    unique = list(dict.fromkeys(bad))
    assert not unique, f"{len(unique)} problems:\n" + "\n".join(unique[:60])


# ---- what the walk reaches ----------------------------------------------------------------


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_walk_reaches_every_decision_and_end(game_id: str) -> None:
    w = walk(game_id)
    assert _constant_first_args(game_id, "Decision") <= set(w.decisions)
    reasons = end_reasons(game_id)
    assert "resign" in reasons and set(w.outcomes) <= reasons, (reasons, set(w.outcomes))
    # every event kind the module can emit, except the rarest ones a short
    # walk does not reach (the conformance run covers them)
    missing = _constant_first_args(game_id, "Event") - set(w.events)
    assert len(missing) <= 2, missing


# ---- host text paths ------------------------------------------------------------------------


def test_the_catalogues_have_the_same_keys_and_every_key_used_exists() -> None:
    assert set(EN) <= set(FR)
    assert {k for k in FR if not k.startswith("name-")} <= set(EN)
    used: set[str] = set()
    for path in BOT.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", getattr(node.func, "attr", ""))
            args = node.args
            if name in ("t", "_desc") and args:
                key = args[1] if name == "t" and len(args) > 1 else args[0]
            elif name == "HostError" and args:
                key = args[0]
            else:
                continue
            if isinstance(key, ast.Constant) and isinstance(key.value, str):
                used.add(key.value)
    # a feature's texts may live in its own domain (undo.po...): any catalogue key
    known = set(EN) | set(_i18n_catalogue.keys("en"))
    assert used and not used - known, sorted(used - known)


def test_the_catalogues_read_right() -> None:
    class Blank(dict[str, int]):
        def __missing__(self, key: str) -> int:
            return 7

    def texts() -> Iterator[tuple[str, str, str]]:
        for locale, catalogue in (("en", EN), ("fr", FR)):
            for key, template in catalogue.items():
                if key.startswith("name-"):
                    continue  # command names: lowercase words joined by '-' on purpose
                # the host's own formatter (plural and elision specs)
                yield key, locale, TextFormatter(locale).vformat(template, (), Blank())

    check(texts())


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("game_id", GAME_IDS)
def test_end_of_match_texts(game_id: str, locale: str) -> None:
    """The final board's lines, the console's, and /history, for every end reason."""
    reasons = end_reasons(game_id) | set(walk(game_id).outcomes)
    assert reasons

    def texts() -> Iterator[tuple[str, str, str]]:
        for reason in sorted(reasons):
            assert f"reason-{reason}" in EN and f"reason-{reason}" in FR, reason
            outcome = Outcome(ranking=((0,), (1,)), reason=reason)
            for line in result_lines(locale, outcome, NAMES):
                yield f"result {reason}", locale, line
            tied = Outcome(ranking=((0, 1),), reason=reason)
            yield f"result {reason}", locale, "\n".join(result_lines(locale, tied, NAMES))
            seats = [("Alice", 1, False, False), ("Bob", 2, True, True)]
            yield (
                f"history {reason}",
                locale,
                history_line(locale, 12, game_name(locale, game_id), "2026-11-23", seats, reason),
            )
        yield "seed", locale, t(locale, "seed-reveal", seed=42, sha="ab" * 32)

    check(texts())


def test_an_unknown_reason_is_still_a_sentence() -> None:
    assert reason_text("fr", "no-such-reason") == FR["reason-other"]
    assert reason_text("en", "no-such-reason") == EN["reason-other"]


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("game_id", GAME_IDS)
def test_rules_text(game_id: str, locale: str) -> None:
    game = GAMES[game_id]
    info = game.info
    changed = game.options_text(game.options(game.conformance_options[-1]))

    def texts() -> Iterator[tuple[str, str, str]]:
        yield "name", locale, game_name(locale, game_id)
        details = game_text(locale, game.rules_details())
        # the options in force come in words (cogs/info.py reads them so)
        for in_force in (None, "", readable_options(locale, game_id, changed)):
            yield f"/rules {in_force!r}", locale, rules_text(locale, info, in_force, details)

    check(texts())


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("game_id", GAME_IDS)
def test_decision_prompts(game_id: str, locale: str) -> None:
    game = GAMES[game_id]

    def texts() -> Iterator[tuple[str, str, str]]:
        for kind, samples in walk(game_id).decisions.items():
            for decision, seats in samples:
                what = game_text(locale, game.decision_text(decision, names=NAMES[:seats]))
                yield f"decision {kind}", locale, t(locale, "to-act", who="Alice", what=what)
                yield (
                    f"decision {kind} (hand)",
                    locale,
                    t(locale, "to-act", who=t(locale, "your-turn"), what=what),
                )

    check(texts())


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("game_id", GAME_IDS)
def test_event_lines(game_id: str, locale: str) -> None:
    game = GAMES[game_id]

    def texts() -> Iterator[tuple[str, str, str]]:
        for kind, samples in walk(game_id).events.items():
            for event, seats in samples:
                for viewer in (None, *range(seats)):
                    seen = event.for_seat(viewer)
                    if seen is None:
                        continue
                    text = game_text(locale, game.describe_event(seen, NAMES[:seats]))
                    if text:
                        yield f"event {kind} (seat {viewer})", locale, text

    check(texts())


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("game_id", GAME_IDS)
def test_actions_menus_and_summaries(game_id: str, locale: str) -> None:
    game = GAMES[game_id]
    w = walk(game_id)

    def texts() -> Iterator[tuple[str, str, str]]:
        for state, seats in w.states[::2] + w.finals:
            names = NAMES[:seats]
            for viewer in (None, *range(seats)):
                yield (
                    "summary",
                    locale,
                    game_text(locale, game.summary(game.view(state, viewer), names)),
                )
            for seat in game.pending(state):
                for action in game.legal_actions(state, seat)[:40]:
                    text = game_text(locale, game.describe_action(state, seat, action))
                    yield "action", locale, text
                for entry in menu_entries(game, state, seat, locale)[:60]:
                    for step in entry[1]:
                        yield "menu", locale, step.label
                        # a detail that is the step's key is the action's notation
                        # (no prose: card ids, English verbs), shown bare
                        if step.detail and step.detail != step.key:
                            yield "menu detail", locale, step.detail

    check(texts())


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("game_id", GAME_IDS)
def test_refusals(game_id: str, locale: str) -> None:
    errors = walk(game_id).errors
    assert len(errors) >= 5, list(errors)

    def texts() -> Iterator[tuple[str, str, str]]:
        for where, err in errors.items():
            yield where, locale, error_text(locale, "illegal", err)
            if err.code == "bad-options":
                yield where, locale, error_text(locale, "bad-options", err)

    check(texts())


# ---- the images' words ----------------------------------------------------------------------


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("game_id", GAME_IDS)
def test_words_drawn_on_the_images(
    game_id: str, locale: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from render import render_board, render_private

    game = GAMES[game_id]
    w = walk(game_id)
    drawn: list[str] = []
    real = ImageDraw.ImageDraw.text

    def spy(self: Any, xy: Any, text: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(text, str):
            drawn.append(text)
        return real(self, xy, text, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", spy)
    for state, seats in w.states[::8] + w.finals[:4]:
        names = NAMES[:seats]
        render_board(game_id, game.view(state, None), names, locale)
        for seat in sorted(game.pending(state))[:1] or [0]:
            render_private(game_id, game.view(state, seat), names, locale)
    # single words drawn alone (a card's name, a letter) are checked as part of
    # the texts: join the pieces of one image into lines
    check((f"image {game_id}", locale, text) for text in dict.fromkeys(drawn))


# ---- the console ----------------------------------------------------------------------------


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("game_id", GAME_IDS)
def test_console_text(game_id: str, locale: str, tmp_path: Path) -> None:
    """A whole console match, typed moves and all; every printed line checked."""
    first = ["aide", "coups", "zzz"] if locale == "fr" else ["help", "moves", "zzz"]
    fr = locale == "fr"
    if game_id == "via-belli":  # long matches: 300 random moves, then a resignation
        moves = first + ["hasard" if fr else "random"] * 300 + ["abandon" if fr else "resign"]
        moves += ["o" if fr else "y"] * 2
    else:
        moves = first + ["hasard" if fr else "random"] * 10000
    out = io.StringIO()
    code = console_main(
        [
            "--game",
            game_id,
            "--players",
            ",".join(NAMES[:2]),
            "--options",
            GAMES[game_id].quick_options,
            "--lang",
            locale,
            "--no-images",
            "--seed",
            "5",
        ],
        stdin=io.StringIO("\n".join(moves) + "\n"),
        stdout=out,
    )
    text = out.getvalue()
    assert code == 0, text[-2000:]
    assert t(locale, "result-title") in text
    check(("console", locale, line) for line in dict.fromkeys(text.splitlines()) if line.strip())


def test_the_host_module_is_pure() -> None:
    """The text functions the tests call need no Discord."""
    assert "discord" not in inspect.getsource(i18n).split('"""', 2)[2]


ENGINE_DATA_COPIES = (
    "vb-render-effect-",
    "bp-render-text-",
    "bp-render-side-",
    "bp-render-pos-",
)


def _render_tables() -> Iterator[tuple[str, str, str]]:
    """Every word of the renderers: the image keys of the catalogues (the
    ``render`` domain and each game's ``*-render-*`` keys; they were
    ``(en, fr)`` tables in the render modules before issue 13)."""
    import i18n

    for locale in ("en", "fr"):
        catalogue = i18n.catalogue(locale)
        for key, text in sorted(catalogue.messages.items()):
            if key.startswith(ENGINE_DATA_COPIES):
                continue  # copies of the engine's data, equal to it (tests/i18n)
            if catalogue.domains[key] == "render" or "-render-" in key:
                yield (
                    f"catalogue {key}",
                    locale,
                    i18n.TextFormatter(locale).vformat(text, (), _Blank()),
                )


class _Blank(dict[str, int]):
    def __missing__(self, key: str) -> int:
        return 7


def test_the_renderers_text_tables() -> None:
    check(_render_tables())
