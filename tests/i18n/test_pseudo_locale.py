"""A language is only data: a pseudo-locale ``qps``, generated here from the
English catalogues (every sentence accented and bracketed ``⟦…⟧``,
placeholders kept), is registered as a directory and, with no code change,
the host, the console and the images speak it.

The engine's game texts (decisions, events, menus, summaries, refusals) are
catalogue keys too: a console match of each game reads only the catalogues,
but for seat names, card names (French in every language) and notation.
What an image draws outside the catalogues is listed here, explicitly
(``IMAGE_EXCEPTIONS``)."""

from __future__ import annotations

import io
import re
import string
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

import i18n
from bot import i18n as host
from engine import GAMES
from engine.core import Game, Outcome

ACCENTS = str.maketrans("aeiouAEIOUcnyCNY", "áéíóúÁÉÍÓÚçñýÇÑÝ")
OPEN, CLOSE = "⟦", "⟧"


def pseudo(text: str) -> str:
    """``"{game}: lobby"`` -> ``"⟦{game}: lóbbý⟧"``: literal text accented and
    bracketed, every placeholder kept as it is."""
    out = []
    for literal, field, spec, conversion in string.Formatter().parse(text):
        out.append(literal.translate(ACCENTS).replace("{", "{{").replace("}", "}}"))
        if field is not None:
            out.append(
                "{"
                + field
                + (f"!{conversion}" if conversion else "")
                + (f":{spec}" if spec else "")
                + "}"
            )
    return OPEN + "".join(out) + CLOSE


@pytest.fixture(scope="module")
def qps(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    root = tmp_path_factory.mktemp("locales")
    folder = root / "qps"
    folder.mkdir()
    for path in sorted((i18n.LOCALES_DIR / "en").glob("*.po")):
        with path.open("rb") as handle:
            english = read_po(handle)
        catalogue = Catalog(domain=path.stem, project="gueridon", charset="utf-8")
        for message in english:
            if message.id:
                catalogue.add(message.id, pseudo(str(message.string)))
        with (folder / path.name).open("wb") as handle:
            write_po(handle, catalogue)
    i18n.set_catalogue_dirs(root)
    yield "qps"
    i18n.set_catalogue_dirs()


def outside_brackets(text: str) -> str:
    """What is left of ``text`` once every bracketed (catalogue) part is
    removed, innermost first; a part cut by ``fit_text`` ("⟦Lóng…") counts."""
    previous = None
    while previous != text:
        previous = text
        text = re.sub(f"{OPEN}[^{OPEN}{CLOSE}]*{CLOSE}", " ", text)
    return re.sub(f"{OPEN}[^{CLOSE}]*$", " ", text)


def leftover_words(text: str, allowed: set[str]) -> list[str]:
    """Words outside the brackets that are not in ``allowed`` (names,
    notation, engine texts)."""
    rest = text
    for word in sorted(allowed, key=len, reverse=True):
        if word:
            rest = rest.replace(word, " ")
    return re.findall(r"[^\W\d_]{2,}", outside_brackets(rest))


# ---------------------------------------------------------------------------
# The language is discovered, picked and complete
# ---------------------------------------------------------------------------


def test_a_folder_of_po_files_is_a_language(qps: str) -> None:
    assert qps in i18n.languages()
    assert i18n.pick("qps") == "qps" and i18n.pick("QPS-ploc") == "qps"
    assert i18n.keys(qps) == i18n.keys("en")
    assert host.lang("qps") == "qps"
    assert host.t(qps, "lobby-title", game="Via Belli") == "⟦Via Belli: lóbbý⟧"
    assert host.game_name(qps, "via-belli") == "⟦Víá Béllí⟧"


def test_every_host_text_function_speaks_the_pseudo_locale(qps: str) -> None:
    names = ["Alice", "Bob"]
    allowed = {*names, "SHA", "Via Belli"}
    lines = [
        *host.result_lines(qps, Outcome(ranking=((0,), (1,)), reason="knockout"), names),
        *host.result_lines(qps, Outcome(ranking=((0, 1),), reason="no-such-reason"), names),
        host.history_line(
            qps,
            3,
            host.game_name(qps, "via-belli"),
            "2026-11-24",
            [("Alice", 1, True, True)],
            "conquest",
        ),
        host.duration_text(qps, 5400),
        host.duration_text(qps, 1),
        host.error_text(qps, "bad-seats", game=host.game_name(qps, "via-belli"), min=2, max=4),
        host.t(qps, "seed-reveal", seed=42, sha="ab" * 32),
        host.t(qps, "help-text"),
    ]
    for game_id, game in GAMES.items():
        text = host.rules_text(qps, game.info, in_force="")
        lines.extend(line for line in text.split("\n") if not line.startswith("`"))
        lines.append(host.game_summary(qps, game_id))
    for line in lines:
        assert not leftover_words(line, allowed), line


# ---------------------------------------------------------------------------
# A console match with a player in the pseudo-locale
# ---------------------------------------------------------------------------


def _record_engine_texts(monkeypatch: pytest.MonkeyPatch) -> set[str]:
    """The texts the engine writes itself (not converted yet): every string
    returned by the game's text methods, its notation and its refusals."""
    seen: set[str] = set()

    def keep(value: Any) -> None:
        if isinstance(value, str):
            seen.add(value)
            seen.update(value.split("\n"))
        elif isinstance(value, list | tuple):
            for item in value:
                keep(item)
        elif hasattr(value, "label"):  # a MenuStep
            keep(value.label)
            keep(getattr(value, "detail", ""))

    def spy(name: str, cls: type[Any]) -> None:
        original: Callable[..., Any] = getattr(cls, name)

        def wrapper(*args: Any, **kwargs: Any) -> Any:
            result = original(*args, **kwargs)
            keep(result)
            return result

        monkeypatch.setattr(cls, name, wrapper)

    classes = {type(game) for game in GAMES.values()}
    for cls in classes:
        # Between Battle's texts are catalogue keys (issue 13): only its
        # notation is written as it is (``7>1``, ``D``, ``^Co7``)
        for name in ("format_action",):
            if hasattr(cls, name):
                spy(name, cls)
    assert Game  # the classes above are its subclasses
    return seen


# engine game texts the console prints outside the catalogues: none (its
# notation is no language's)
ENGINE_TEXTS: tuple[str, ...] = ()


def test_a_console_match_in_the_pseudo_locale(
    qps: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bot.console import main

    engine_texts = _record_engine_texts(monkeypatch)
    out = io.StringIO()
    args = ["--game", "between-battle", "--players", "Alice", "--bots", "1:normal"]
    args += ["--options", "", "--seed", "7", "--lang", qps, "--no-images"]
    code = main(args, stdin=io.StringIO("help\nmoves\nzzz\n" + "random\n" * 400), stdout=out)
    text = out.getvalue()
    assert code == 0, text[-2000:]
    assert pseudo("Match over") in text and pseudo("Commands:")[:-1] in text
    assert engine_texts, "the engine wrote nothing?"
    allowed = {"Alice", *engine_texts}
    assert not leftover_words(text, allowed)  # the whole output: messages span lines


# keys a console match of each game must show (its first words, before a placeholder)
CONSOLE_KEYS = {
    "belle-position": (
        "bp-decision-deploy",
        "bp-act-done-deploy",
        "bp-summary-player",
        "bp-ev-turn",
    ),
    "via-belli": ("game-via-belli-name",),
    "liber": ("lb-ev-turn", "lb-summary-side"),
    "battalia": ("bt-ev-turn", "bt-summary-player"),
}
# what a player types as it is (notation)
TYPED = {"belle-position": {"ok", "undo"}, "via-belli": set(), "liber": set(), "battalia": set()}


def _drawn_games(games: Iterable[str]) -> list[str]:
    """The games among ``games`` the host offers (a game registered in the
    engine is hosted once the renderer draws it)."""
    from render import RENDERED_GAMES

    return [g for g in games if g in RENDERED_GAMES]


@pytest.mark.parametrize("game_id", _drawn_games(sorted(CONSOLE_KEYS)))
def test_a_console_match_reads_only_the_catalogues(qps: str, game_id: str) -> None:
    """A game's engine texts are catalogue keys: a whole console match
    (decisions, menus, events, summaries, a refusal, a bad notation) speaks the
    pseudo-locale with no engine exception; what is left outside the brackets
    is seat names, card names (French in every language) and notation."""
    from bot.console import main
    from engine.bots import POLICIES

    out = io.StringIO()
    # a game whose bots are still to come is played by two humans at random
    seats = ["Alice", "--bots", "1:normal"] if game_id in POLICIES else ["Alice,Bob"]
    args = ["--game", game_id, "--players", *seats]
    args += ["--options", GAMES[game_id].quick_options, "--seed", "7", "--lang", qps]
    args += ["--no-images"]
    moves = "help\nmoves\nzzz\nF1>EG\n" + "random\n" * 400
    code = main(args, stdin=io.StringIO(moves), stdout=out)
    text = out.getvalue()
    assert code == 0, text[-2000:]
    assert pseudo("Match over") in text
    for key in CONSOLE_KEYS[game_id]:
        assert i18n.template(qps, key).split("{", 1)[0] in text, key
    state = GAMES[game_id].setup(GAMES[game_id].options(""), 2, 7)
    allowed = {"Alice", "Bob", *TYPED[game_id], *_card_words(game_id, state)}
    assert not leftover_words(text, allowed | _notation(game_id))


# ---------------------------------------------------------------------------
# Images
# ---------------------------------------------------------------------------

# Words drawn on the images that are no language's, besides the seat names,
# card names (French in every language) and handles: Belle Position's ``ok``
# is typed as it is (notation).
IMAGE_EXCEPTIONS: dict[str, set[str]] = {
    "between-battle": set(),
    "via-belli": set(),
    "belle-position": {"ok"},
    # Liber: the pool's card texts (data, French and English, drawn as they are)
    "liber": set(),
    "battalia": set(),
}


def _drawn(monkeypatch: pytest.MonkeyPatch, package: Any) -> list[str]:
    """Every text the renderer draws (its module, or each module of its package)."""
    import importlib
    import pkgutil

    modules = [package]
    if hasattr(package, "__path__"):
        modules += [
            importlib.import_module(f"{package.__name__}.{info.name}")
            for info in pkgutil.iter_modules(package.__path__)
        ]
    texts: list[str] = []
    for module, name in ((m, n) for m in modules for n in ("draw_text", "pill", "message_image")):
        original = getattr(module, name, None)
        if original is None:
            continue

        def spy(
            *args: Any, _f: Callable[..., Any] = original, _n: str = name, **kwargs: Any
        ) -> Any:
            if _n == "message_image":
                texts.append(args[0])
                texts.extend(args[1])
            else:
                texts.append(args[3] if _n == "pill" else args[2])
            return _f(*args, **kwargs)

        monkeypatch.setattr(module, name, spy)
    return texts


def _states(game_id: str, seats: int, seed: int, steps: int) -> Iterator[Any]:
    from engine import rng

    game = GAMES[game_id]
    state = game.setup(game.options(""), seats, seed)
    chooser = rng.seed_state(seed, "pseudo-locale")
    for step in range(steps):
        pending = game.pending(state)
        if step % 25 == 0 or not pending:
            yield state
        if not pending:
            return
        seat = sorted(pending)[0]
        action, chooser = rng.choice(chooser, game.legal_actions(state, seat))
        state, _ = game.apply(state, seat, action)
    yield state


@pytest.mark.parametrize(
    "game_id", _drawn_games(["between-battle", "via-belli", "belle-position", "liber", "battalia"])
)
def test_the_images_speak_the_pseudo_locale(
    qps: str, game_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import importlib

    from render import render_board, render_choices, render_private

    module = importlib.import_module(f"render.{game_id.replace('-', '_')}")
    texts = _drawn(monkeypatch, module)
    game = GAMES[game_id]
    names = ("Alice", "Bob")
    cards: set[str] = set()
    for state in _states(game_id, 2, 3, 400):
        for seat in (None, 0, 1):
            view = game.view(state, seat)
            render_board(game_id, view, names, qps)
            render_private(game_id, view, names, qps)
        for seat in game.pending(state):  # the numbered spots (Via Belli)
            actions = game.legal_actions(state, seat)[:9]
            spots = [(i + 1, game.format_action(a)) for i, a in enumerate(actions)]
            render_choices(game_id, game.view(state, seat), names, qps, spots)
        cards |= _card_words(game_id, state)
    assert texts
    allowed = {*names, *IMAGE_EXCEPTIONS[game_id], *cards, *_notation(game_id)}
    words = {w for text in allowed for w in re.findall(r"[^\W\d_]{2,}", text)}
    leaks = sorted(
        {
            t
            for t in texts
            for w in re.findall(r"[^\W\d_]{2,}", outside_brackets(t))
            if not _known(w, words)
        }
    )
    assert not leaks, "\n".join(leaks)
    assert sum(OPEN in t for t in texts) > 100


PSEUDO_LETTERS = frozenset("áéíóúñçýÁÉÍÓÚÑÇÝ")


def _known(word: str, words: set[str]) -> bool:
    """A word drawn outside brackets that is no leak: an allowed word (or its
    start, cut by ``fit_text``), a grid column or handle (``AB``, ``FC``), or
    a pseudo-locale word from a bracketed paragraph wrapped over lines."""
    if word in words or re.fullmatch("[A-Z]{1,2}", word):
        return True
    if PSEUDO_LETTERS & set(word):
        return True
    return len(word) >= 3 and any(w.startswith(word) for w in words)


def _card_words(game_id: str, state: Any) -> set[str]:
    """Card, unit and character names and ids (French in every language);
    Liber's cards also carry their texts as data (``text.fr`` / ``text.en``)."""
    if game_id == "liber":
        from engine.games.liber.data import card_file

        pool = card_file()
        words = {c.name for c in pool.cards} | {c.id for c in pool.cards}
        return words | {c.text.en for c in pool.cards} | {c.text.fr for c in pool.cards}
    if game_id == "via-belli":
        from engine.games.via_belli import deck_file

        return {u.name for u in deck_file().units}
    if game_id == "battalia":  # card names from the data file (French in every language)
        return _battalia_names()
    if game_id == "belle-position":
        from engine.games.belle_position import card_file

        data = card_file()
        words = {t.name for t in (*data.terrain, *data.specials)}
        words |= {u.name for u in data.units} | {u.short for u in data.units}
        words |= {g.name for g in data.generals}
        return words
    from engine.games.between_battle import deck_file

    return {spec.id for spec in deck_file().characters}


def _battalia_names() -> set[str]:
    from engine.games.battalia import data

    d = data.data()
    codes = ["P", *(g.code for g in d.great_artefacts)]
    codes += [f"{r}{f}" for r in "1234" for f in "uianm"]
    codes += [f"{a}{f}" for a in data.ARTEFACTS for f in data.FACTIONS]
    names = {data.card_name(c) for c in codes}
    names |= {r.name for r in d.ranks} | {a.name for a in d.artefacts}
    names |= {f.name for f in d.factions} | {t.name for t in d.terrains} | {d.mercenary.name}
    return names | {"Buff", "Sans", "Bannière", "Battalia"}


def _notation(game_id: str) -> set[str]:
    """Handles and codes as typed (``Co7``, ``FC``, ``AG``...)."""
    if game_id == "between-battle":
        from engine.games.between_battle import deck_file

        return {c.code for c in deck_file().characters}
    if game_id == "belle-position":
        return {a + b for a in "FAE" for b in "GCD"} | {"FG", "EG", "EC", "ED"}
    if game_id == "via-belli":  # columns past Z (AA12) and attacks (xX12, xAB3)
        letters = string.ascii_uppercase
        columns = {*letters, *(a + b for a in letters for b in letters)}
        return {c for c in columns if len(c) > 1} | {f"x{c}" for c in columns}
    if game_id == "liber":  # `play archer a2`, `use a2 defausse archer`: verbs, places, keyword ids
        from engine.games.liber.data import KEYWORDS

        verbs = {"play", "move", "attack", "block", "guard", "pass", "next", "reclaim"}
        verbs |= {"discard", "use", "general", "equip"}
        return verbs | set(KEYWORDS) | {f"{line}{p}" for line in "paf" for p in range(1, 6)}
    if game_id == "battalia":  # `buy 2 : P P`, `move h1 c3 : P`: verbs, card codes, heroes
        from engine.games.battalia.text import VERBS

        codes = {f"{a}{f}" for a in "OAMTREC" for f in "uianm"} | {"buff", "h1", "h2"}
        return set(VERBS) | codes | {f"{c}{r}" for c in "abcdefg" for r in range(1, 8)}
    return set()
