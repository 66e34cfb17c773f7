"""What a player must never read: a raw translation key, a leftover
placeholder, English inside French, or the other language's colon spacing.

``problems(text, locale)`` lists what is wrong with one text. It is shared by
the walking test (``tests/bot/test_texts.py``) and the end-to-end test of a
full match on the fake Discord.
"""

from __future__ import annotations

import re

# Notation, mentions, custom emoji and links are not prose: they are left out.
_NOT_PROSE = re.compile(
    r"`[^`]*`|<[@#:][^>]*>|https?://\S+|\b[\w/.-]+\.(?:md|png|json)\b|(?<!\S)/\S*"
)  # code, mentions, links, file names, absolute paths

# A raw key: lowercase words joined by '-', '_' or ':' (``reason-occupation``,
# ``turn_limit``, ``reveal:dragons``), unless it is one of these real words.
_KEYISH = re.compile(r"(?<![\w'’-])[a-z][a-z0-9]*(?:[-_:][a-z0-9]+)+(?![\w'’-])")
REAL_HYPHENATED = frozenset(
    {
        # English
        "face-down",
        "face-up",
        "long-range",
        "counter-battery",
        "step-by-step",
        "hot-seat",
        "one-shot",
        "first-player",
        "re-roll",
        "k-o",
        "top-left",
        "enemy-reserve",
        "ready-made",
        "top-right",
        "bottom-left",
        "bottom-right",
        # French
        "entre-temps",
        "peut-être",
        "c'est-à-dire",
        "au-delà",
        "vis-à-vis",
        "avant-poste",
        "avant-postes",
        "contre-batterie",
        "contre-attaque",
        "francs-tireurs",
        "franc-tireur",
        "arrière-garde",
        "demi-tour",
        "là-bas",
        "celui-ci",
        "celle-ci",
        "ceux-ci",
        "vous-même",
        "lui-même",
        "elle-même",
        "eux-mêmes",
        "ci-dessous",
        "ci-dessus",
        "dites-le",
        "jusque-là",
        "est-ce",
        "choisissez-en",
        "prenez-en",
        "ouvrez-en",
        "terminez-la",
        "tapez-les",
        "tour-ci",
        "annulez-la",
    }
)

# French imperatives and compounds: "posez-y", "prenez-en", "au-dessus", "celle-ci".
_FRENCH_CLITIC = re.compile(
    r"^(?:[a-zà-ÿ]+-(?:y|en|le|la|les|lui|leur|moi|ci|là|même|mêmes|dessus|dessous|il|elle|on)"
    r"|(?:au|ci|là|par)-[a-zà-ÿ]+)$"
)

# English words that have no place in French text (card names stay French
# and none of them is here; words French shares with English are left out:
# "face", "terrain", "charge", "front", "position", "pile", "deck", "joker",
# "match", "long", "on", "est", "morale", "total", "simple", "centre"; and
# "token", a card type in the French text of Chroniques de Liber's seed).
ENGLISH_ONLY = frozenset(
    """
    the and turn turns player players wins win won draw draws drawn hand hands
    melee left right you your with of is are was out card cards attack attacks
    attacked move moves moved resign resigns resigned resignation winner round
    fire fires fired deploy deployed deployment damage link links none yes over
    stalemate conquest castle castles summon summons summoned ambush spot spots
    west east north south by at to from it this that which choose chooses pick
    play plays played pass passes end ends back up down no not has have had
    takes take took loses lose lost seat seats cohesion general generals unit
    units reserve hidden shown reveal reveals revealed eliminated knockout tie
    game games reason seed rating rated waiting wait enemy enemies own must may
    can cannot when then there their them they he she his her its now next
    first last loss losses dice die rolls rolled roll flank occupies occupied
    wing center army armies deal dealt hit hits misses miss free easy hard
    inn inns outpost outposts lying standing along against routs
    holds stays survives target discard discards choosing
    """.split()  # noqa: SIM905
)

_WORD = re.compile(r"[A-Za-zÀ-ÖØ-öø-ÿŒœ]+(?:['’][A-Za-zÀ-ÖØ-öø-ÿŒœ]+)?")
# French: a space (plain, no-break or narrow no-break) before the colon, the
# semicolon, "!" and "?".
_FR_COLON = re.compile(r"[^\s\u00a0\u202f][:;!?](?=\s|$)")
# English: no space before them.
_EN_COLON = re.compile(r"\w[ \u00a0\u202f]+[:;!?](?=\s|$)")
# French elision before a vowel: "de Alice" is "d'Alice", "que un" is "qu'un".
_NO_ELISION = re.compile(
    r"(?<![\w'’-])(?:de|que|le|la|ne|se|je|me|te|jusque|lorsque|puisque)"
    r"\s+(?=[aeiouyéèêëàâîïôûAEIOUYÉÈÊÀÂÎÏÔÛ][a-zà-ÿ])",
    re.IGNORECASE,
)
# Gendered participles about a player: prefer neutral phrasing.
_GENDERED = r"(?:est|sont) (?:éliminé|éliminée|éliminés)\b"


def prose(text: str) -> str:
    """The text without what is not prose (notation in backticks, mentions, links)."""
    return _NOT_PROSE.sub("X", text)


def problems(text: str, locale: str, players: tuple[str, ...] = ()) -> list[str]:
    """What is wrong with ``text`` shown in ``locale`` ("en" or "fr");
    ``players`` are the names of the players (gendered phrasing about them)."""
    out: list[str] = []
    plain = prose(text)
    for token in _KEYISH.findall(plain):
        if token.lower() not in REAL_HYPHENATED and not _FRENCH_CLITIC.match(token):
            out.append(f"raw key {token!r}")
    if re.search(r"\{[a-z_]*\}|\bNone\b|Traceback|\bnan\b", plain):
        out.append("placeholder, None or traceback")
    if locale == "fr":
        english = sorted(
            {w for w in _WORD.findall(plain) if w.lower() in ENGLISH_ONLY and not w.isupper()}
        )
        if english:
            out.append(f"English in French {english}")
        for m in _FR_COLON.finditer(plain):
            out.append(
                f"no space before ':' in French near {plain[max(0, m.start() - 15) : m.end() + 5]!r}"
            )
        for m in _NO_ELISION.finditer(plain):
            out.append(f"missing elision near {plain[m.start() : m.end() + 10]!r}")
        for name in players:
            if re.search(re.escape(name) + " " + _GENDERED, plain):
                out.append(f"gendered 'est éliminé' about {name}")
    else:
        for m in _EN_COLON.finditer(plain):
            out.append(
                f"space before ':' in English near {plain[max(0, m.start() - 15) : m.end() + 5]!r}"
            )
    return out
