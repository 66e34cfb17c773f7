"""Every text a player reads, in every language: gettext PO catalogues read with Babel.

Layout: ``i18n/locales/<lang>/<domain>.po``, monolingual key-based catalogues
(``msgid`` is a stable key such as ``lobby-title``, ``msgstr`` the sentence;
English is a catalogue like any other). Domains: ``host`` (the bot and the
console), ``render`` (shared image labels) and one per game
(``between_battle``, ``via_belli``, ``belle_position``: its texts, its name
``game-<id>-name`` and its image labels). Keys are unique across domains, so
a language is one merged lookup.

The languages are the folders of ``i18n/locales/`` plus those of the
directories named by the ``GUERIDON_LOCALES`` environment variable
(``os.pathsep``-separated) or :func:`set_catalogue_dirs`: adding a language is
adding a folder of ``.po`` files, nothing else.

API:

* ``translate(lang, key_or_msg, **params) -> str`` (``lang`` may be any
  locale: it goes through :func:`pick`); a :class:`engine.text.Msg` carries
  its own key and parameters, nested ``Msg`` parameters are translated first
  and a tuple of ``Msg`` becomes a list (``list-sep`` / ``list-and``).
* ``languages()``, ``pick(locale)`` (``fr-FR`` -> ``fr``, ``es-ES`` -> ``en``
  when there is no ``es`` folder), ``keys(lang)``, ``catalogue(lang)``.
* ``template(lang, key)``: the raw sentence, unformatted.

Placeholders are ``str.format`` fields, ``{name}``, with the usual format
specs (``{avg:.1f}``) and these ones for languages that need them:

* ``{player:de}`` -> ``d'Alice`` / ``de Bob`` (French elision; names are taken
  to start with a mute h: ``d'Hugo``), ``{card:de_h}`` the same with an
  aspirate h (``de Hussards``); ``{player:que}`` / ``{card:que_h}`` likewise
  with ``que``;
* ``{count:plural:carte|cartes}``: the first form for the language's ``one``
  plural category (Babel's ``Locale.plural_form``), the last for the others;
  ``{count:plural:one=…|few=…|other=…}`` names the categories. The number
  itself is written with a separate ``{count}`` field;
* ``{n:ordinal:one=st|two=nd|few=rd|other=th}``: the same with the
  language's ordinal rule (``1st``, ``22nd``, ``13th``; ``1er``, ``2e``).

A key missing from a language falls back to English with a logged warning;
when ``GUERIDON_I18N_STRICT`` is set (the tests set it) it raises
:class:`MissingText` instead. ``tests/i18n/test_catalogues.py`` checks that
every language has every key with the same placeholders.
"""

from __future__ import annotations

import logging
import os
import string
import threading
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from babel import Locale, UnknownLocaleError
from babel.messages.pofile import read_po

from engine.text import Msg

__all__ = [
    "Catalogue",
    "MissingText",
    "Msg",
    "catalogue",
    "catalogue_dirs",
    "keys",
    "languages",
    "pick",
    "set_catalogue_dirs",
    "template",
    "translate",
]

log = logging.getLogger(__name__)

FALLBACK = "en"
LOCALES_DIR = Path(__file__).resolve().parent / "locales"
ENV_DIRS = "GUERIDON_LOCALES"
ENV_STRICT = "GUERIDON_I18N_STRICT"

_extra_dirs: tuple[Path, ...] = ()
_lock = threading.Lock()


class MissingText(LookupError):
    """A key that a language's catalogue (or every catalogue) lacks."""


@dataclass(frozen=True)
class Catalogue:
    """One language: every domain's messages merged (``key -> sentence``),
    and the domain each key comes from."""

    lang: str
    messages: Mapping[str, str]
    domains: Mapping[str, str] = field(default_factory=dict)
    files: tuple[Path, ...] = ()

    def get(self, key: str) -> str | None:
        return self.messages.get(key)


# ---------------------------------------------------------------------------
# Discovery and loading
# ---------------------------------------------------------------------------


def catalogue_dirs() -> tuple[Path, ...]:
    """Where languages are looked for: the package's own folder, then the
    ``GUERIDON_LOCALES`` directories, then :func:`set_catalogue_dirs`'s."""
    return _dirs(os.environ.get(ENV_DIRS, ""), _extra_dirs)


@lru_cache(maxsize=8)
def _dirs(env: str, extra: tuple[Path, ...]) -> tuple[Path, ...]:
    return (LOCALES_DIR, *(Path(p) for p in env.split(os.pathsep) if p), *extra)


def set_catalogue_dirs(*dirs: str | os.PathLike[str]) -> None:
    """Add directories holding ``<lang>/<domain>.po`` (replacing earlier ones
    given here); ``set_catalogue_dirs()`` removes them. Clears the caches."""
    global _extra_dirs
    with _lock:
        _extra_dirs = tuple(Path(d) for d in dirs)
    reload()


def reload() -> None:
    """Forget every parsed catalogue (the next lookup reads the files again)."""
    _dirs.cache_clear()
    _languages.cache_clear()
    _catalogue.cache_clear()
    _pick.cache_clear()
    _plural_locale.cache_clear()


def languages() -> tuple[str, ...]:
    """The available languages (folder names holding at least one ``.po``), sorted."""
    return _languages(catalogue_dirs())


@lru_cache(maxsize=8)
def _languages(dirs: tuple[Path, ...]) -> tuple[str, ...]:
    found: set[str] = set()
    for base in dirs:
        if not base.is_dir():
            continue
        for sub in base.iterdir():
            if sub.is_dir() and any(sub.glob("*.po")):
                found.add(sub.name)
    return tuple(sorted(found))


def catalogue(lang: str | None) -> Catalogue:
    """The merged catalogue of a language (parsed once, then cached)."""
    dirs = catalogue_dirs()
    return _catalogue(_pick(str(lang) if lang else "", _languages(dirs)), dirs)


@lru_cache(maxsize=32)
def _catalogue(lang: str, dirs: tuple[Path, ...]) -> Catalogue:
    messages: dict[str, str] = {}
    domains: dict[str, str] = {}
    files: list[Path] = []
    for base in dirs:
        folder = base / lang
        if not folder.is_dir():
            continue
        for path in sorted(folder.glob("*.po")):
            files.append(path)
            for key, text in read_catalogue(path).items():
                if key in domains and domains[key] != path.stem:
                    raise ValueError(f"{path}: key {key!r} is already in domain {domains[key]!r}")
                messages[key] = text
                domains[key] = path.stem
    return Catalogue(lang, messages, domains, tuple(files))


def read_catalogue(path: Path) -> dict[str, str]:
    """One ``.po`` file as ``key -> sentence`` (entries with an empty
    ``msgstr`` are left out, so that they count as missing)."""
    with path.open("rb") as handle:
        parsed = read_po(handle, abort_invalid=True)
    out: dict[str, str] = {}
    for message in parsed:
        if not message.id or not isinstance(message.id, str):
            continue
        text = message.string
        if isinstance(text, str) and text:
            out[message.id] = text
    return out


def keys(lang: str) -> frozenset[str]:
    """The keys a language's catalogue has."""
    return frozenset(catalogue(lang).messages)


def pick(locale: str | None) -> str:
    """The catalogue language for a Discord or console locale: ``fr``,
    ``fr-FR``, ``fr_CA`` -> ``fr``; an exact folder name wins (``pt-BR``);
    anything unknown or empty -> ``en``."""
    return _pick(str(locale) if locale else "", languages())


@lru_cache(maxsize=256)
def _pick(locale: str, available: tuple[str, ...]) -> str:
    wanted = locale.strip().replace("_", "-")
    by_lower = {lang.lower().replace("_", "-"): lang for lang in available}
    low = wanted.lower()
    if low in by_lower:
        return by_lower[low]
    base = low.split("-", 1)[0]
    if base in by_lower:
        return by_lower[base]
    return FALLBACK


# ---------------------------------------------------------------------------
# Translation
# ---------------------------------------------------------------------------


def _strict() -> bool:
    return os.environ.get(ENV_STRICT, "") not in ("", "0")


def template(lang: str | None, key: str) -> str:
    """The sentence of ``key`` in ``lang``, unformatted: English when the
    language lacks it (logged), the key itself when no catalogue has it
    (logged as an error); :class:`MissingText` instead in strict mode."""
    chosen = pick(lang)
    text = _catalogue(chosen, catalogue_dirs()).messages.get(key)
    if text is not None:
        return text
    if _strict():
        raise MissingText(f"{key!r} is missing from the {chosen!r} catalogue")
    english = catalogue(FALLBACK).get(key) if chosen != FALLBACK else None
    if english is None:
        log.error("text %r is in no catalogue: the key is shown", key)
        return key
    log.warning("text %r is missing from the %r catalogue: English is used", key, chosen)
    return english


def has(lang: str | None, key: str) -> bool:
    """Whether ``key`` has a sentence in ``lang`` or in English."""
    return catalogue(pick(lang)).get(key) is not None or catalogue(FALLBACK).get(key) is not None


def translate(lang: str | None, key: str | Msg, /, **params: Any) -> str:
    """The sentence of ``key`` (or of a :class:`Msg`) in ``lang``, formatted
    with ``params`` (nested messages translated first)."""
    chosen = pick(lang)
    if isinstance(key, Msg):
        params = {**key.kwargs(), **params}
        key = key.key
    found = _catalogue(chosen, catalogue_dirs()).messages.get(key)
    text = found if found is not None else template(chosen, key)
    if not params:
        return text if "{" not in text else _formatter(chosen).format(text)
    resolved = {name: _resolve(chosen, value) for name, value in params.items()}
    return _formatter(chosen).format(text, **resolved)


def _resolve(lang: str, value: Any) -> Any:
    if isinstance(value, Msg):
        return translate(lang, value)
    if isinstance(value, tuple) and value and all(isinstance(v, Msg) for v in value):
        return join_list(lang, [translate(lang, v) for v in value])
    return value


def join_list(lang: str | None, items: Iterable[str]) -> str:
    """``A, B and C`` in the language's pattern (``list-sep``, ``list-and``)."""
    words = list(items)
    if len(words) <= 1:
        return "".join(words)
    sep = template(lang, "list-sep")
    last = template(lang, "list-and")
    return sep.join(words[:-1]) + last + words[-1]


# ---- French elision (the de / que format specs) ----

_VOWELS = frozenset("aeiouyàâäéèêëîïôöûüœAEIOUYÀÂÄÉÈÊËÎÏÔÖÛÜŒ")


def elides(word: str, mute_h: bool = True) -> bool:
    """Whether French elides before ``word``: a vowel, or an h when ``mute_h``
    (player names are taken to start with a mute h, "d'Hugo", "d'Hélène";
    card names such as "Hussards" or "Hauteur" do not: pass ``mute_h=False``)."""
    return bool(word) and (word[0] in _VOWELS or (mute_h and word[0] in "hH"))


def de(word: str, mute_h: bool = True) -> str:
    """``de Bob`` / ``d'Alice``."""
    return f"d'{word}" if elides(word, mute_h) else f"de {word}"


def que(word: str, mute_h: bool = True) -> str:
    """``que Bob`` / ``qu'Alice``."""
    return f"qu'{word}" if elides(word, mute_h) else f"que {word}"


class TextFormatter(string.Formatter):
    """``str.format`` plus the ``de``/``de_h``/``que``/``que_h`` elision specs
    and the ``plural:`` spec (see the module docstring)."""

    def __init__(self, lang: str) -> None:
        super().__init__()
        self.lang = lang

    def format_field(self, value: Any, format_spec: str) -> str:
        if format_spec == "de":
            return de(str(value))
        if format_spec == "de_h":
            return de(str(value), mute_h=False)
        if format_spec == "que":
            return que(str(value))
        if format_spec == "que_h":
            return que(str(value), mute_h=False)
        if format_spec.startswith("plural:"):
            return plural(self.lang, value, format_spec[len("plural:") :])
        if format_spec.startswith("ordinal:"):
            return plural(self.lang, value, format_spec[len("ordinal:") :], ordinal=True)
        return str(format(value, format_spec))


@lru_cache(maxsize=64)
def _formatter(lang: str) -> TextFormatter:
    return TextFormatter(lang)


@lru_cache(maxsize=64)
def _plural_locale(lang: str) -> Locale:
    try:
        return Locale.parse(lang.replace("-", "_"))
    except (UnknownLocaleError, ValueError):
        return Locale.parse(FALLBACK)


def plural(lang: str, count: Any, forms: str, ordinal: bool = False) -> str:
    """The form of ``forms`` (``"carte|cartes"`` or ``"one=…|other=…"``) for
    ``count``, by the language's cardinal (or ``ordinal``) plural rule."""
    variants = forms.split("|")
    rules = _plural_locale(lang)
    category = (rules.ordinal_form if ordinal else rules.plural_form)(abs(count))
    if all("=" in v for v in variants):
        named = dict(v.split("=", 1) for v in variants)
        return named.get(category, named.get("other", variants[-1]))
    return variants[0] if category == "one" else variants[-1]


def placeholders(text: str) -> frozenset[str]:
    """The field names a sentence uses (``{count:plural:a|b}`` -> ``count``)."""
    names: set[str] = set()
    for _, name, spec, _ in string.Formatter().parse(text):
        if name is not None and name != "":
            names.add(name.split(".", 1)[0].split("[", 1)[0])
        if spec and "{" in spec:
            names |= placeholders(spec)
    return frozenset(names)
