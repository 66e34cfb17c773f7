"""The ratings images: leaderboard pages and rating charts as valid,
bounded, deterministic, pure PNGs."""

from __future__ import annotations

import copy
import io
import os
from pathlib import Path

import pytest
from PIL import Image, ImageStat

import render
from render import LeaderboardRow, RatingSeries, render_leaderboard, render_rating_chart
from render.stats import ROWS_PER_PAGE, _thin, _x_ticks, _y_range, nice_step

MAX_BYTES = 300 * 1024
LB_WIDTH = 1000
CHART_SIZE = (900, 420)

NAMES = [
    "Alice",
    "Bérénice de la Tour-d'Auvergne et des Environs Lointains",
    "李小龙",
    "Zoë 🎉",
    "Bob",
    "Chloé",
    "Dmitri",
    "Émile",
    "Fatou",
    "Gaspard",
    "Hélène",
    "Ivo",
]
AWKWARD_NAMES = [
    "",
    "   ",
    "\U0001f409\U0001f3b2\U0001f3b4",
    "李小龙",
    "A" * 300,
    "Zoë\u200d\ufe0f 🎉 " * 20,
    "\n\tAlice\x00",
    "W" * 60,
]


def _rows(count: int, start: int = 1, names: list[str] | None = None) -> list[LeaderboardRow]:
    names = names or NAMES
    return [
        LeaderboardRow(
            rank=start + i,
            name=names[i % len(names)],
            rating=1480 - 37 * i,
            games=3 + 11 * i,
            wins=2 + 5 * i,
            provisional=i % 4 == 3,
        )
        for i in range(count)
    ]


def _series(length: int, seed: int = 1) -> list[int]:
    points = [1000]
    for i in range(length - 1):
        points.append(points[-1] + ((i * 37 + seed * 11) % 51) - 24)
    return points[:length]


def _open(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(data) < MAX_BYTES
    img = Image.open(io.BytesIO(data))
    assert img.format == "PNG"
    img.load()
    assert img.mode == "RGB"
    # not blank: real contrast across the picture
    assert ImageStat.Stat(img.convert("L")).stddev[0] > 10
    return img


def _board(data: bytes) -> Image.Image:
    img = _open(data)
    assert img.width == LB_WIDTH
    assert 250 <= img.height <= 900
    return img


def _chart(data: bytes) -> Image.Image:
    img = _open(data)
    assert img.size == CHART_SIZE
    return img


def _lb(rows: list[LeaderboardRow], page: int = 1, pages: int = 1, **kw: object) -> bytes:
    locale = str(kw.pop("locale", "en"))
    highlight = kw.pop("highlight_rank", None)
    assert highlight is None or isinstance(highlight, int)
    assert not kw
    return render_leaderboard(
        "Between Battle — Leaderboard",
        "Server: Le Guéridon · 48 rated players",
        rows,
        page,
        pages,
        locale,
        highlight_rank=highlight,
    )


# ---------------------------------------------------------------------------
# Leaderboard
# ---------------------------------------------------------------------------


def test_exported_from_the_package() -> None:
    for name in ("LeaderboardRow", "RatingSeries", "render_leaderboard", "render_rating_chart"):
        assert name in render.__all__
        assert hasattr(render, name)
    for name in ("RENDERED_GAMES", "UnknownGame", "render_board", "render_private"):
        assert name in render.__all__


@pytest.mark.parametrize("count", range(1, ROWS_PER_PAGE + 1))
@pytest.mark.parametrize("locale", ["en", "fr"])
def test_one_to_ten_rows(count: int, locale: str) -> None:
    img = _board(_lb(_rows(count), locale=locale))
    one = _board(_lb(_rows(1), locale=locale))
    # a single page grows with its rows (and the provisional legend from row 4)
    legend = 30 if count >= 4 else 0
    assert img.height == one.height + (count - 1) * 58 + legend


def test_rows_beyond_a_page_are_ignored() -> None:
    assert _lb(_rows(14)) == _lb(_rows(ROWS_PER_PAGE))


def test_multi_page_boards_keep_a_full_page_height() -> None:
    full = _board(_lb(_rows(10), page=1, pages=3))
    last = _board(_lb(_rows(3, start=21), page=3, pages=3))
    assert full.height == last.height
    single = _board(_lb(_rows(3, start=21), page=1, pages=1))
    assert single.height < last.height


def test_page_indicator() -> None:
    rows = _rows(5, start=11)
    two = _lb(rows, page=2, pages=5)
    assert two != _lb(rows, page=3, pages=5)
    # out-of-range pages are clamped rather than refused
    assert _lb(rows, page=9, pages=5) == _lb(rows, page=5, pages=5)
    assert _lb(rows, page=0, pages=5) == _lb(rows, page=1, pages=5)
    _board(_lb(rows, page=1, pages=0))
    # no indicator on a single page
    assert _lb(rows, page=1, pages=1) != _lb(rows, page=1, pages=2)


@pytest.mark.parametrize("locale", ["en", "fr"])
def test_empty_leaderboard(locale: str) -> None:
    empty = _board(_lb([], locale=locale))
    assert empty.height < _board(_lb(_rows(10), locale=locale)).height
    assert _lb([], locale="en") != _lb([], locale="fr")
    _board(render_leaderboard("", "", [], 1, 1, locale))


def test_locales() -> None:
    rows = _rows(6)
    en = _lb(rows)
    assert en == _lb(rows, locale="en-GB")
    assert en != _lb(rows, locale="fr")
    assert _lb(rows, locale="fr") == _lb(rows, locale="FR-ca")
    assert render_leaderboard("T", "S", rows, 1, 1) == render_leaderboard(
        "T", "S", rows, 1, 1, "en"
    )


def test_deterministic() -> None:
    rows = _rows(10)
    assert _lb(rows, page=2, pages=4, highlight_rank=3) == _lb(
        list(rows), page=2, pages=4, highlight_rank=3
    )
    assert _lb(rows, locale="fr") == _lb(rows, locale="fr")


def test_highlight() -> None:
    rows = _rows(8, start=11)
    plain = _lb(rows)
    assert _lb(rows, highlight_rank=13) != plain
    assert _lb(rows, highlight_rank=13) != _lb(rows, highlight_rank=14)
    # a rank that is not on this page changes nothing
    assert _lb(rows, highlight_rank=1) == plain


def test_provisional_mark_and_legend() -> None:
    settled = [LeaderboardRow(i + 1, n, 1200 - i, 40, 20, False) for i, n in enumerate(NAMES[:4])]
    marked = [settled[0], settled[1], settled[2], LeaderboardRow(4, "Zoë", 1197, 3, 1, True)]
    a, b = _board(_lb(settled)), _board(_lb(marked))
    assert b.height > a.height  # the legend's line


@pytest.mark.parametrize("name", AWKWARD_NAMES)
def test_awkward_names(name: str) -> None:
    rows = [LeaderboardRow(1, name, 1010, 5, 3, True), LeaderboardRow(2, name, 990, 5, 2, False)]
    for locale in ("en", "fr"):
        _board(render_leaderboard(name, name, rows, 1, 1, locale, highlight_rank=1))


def test_awkward_numbers() -> None:
    rows = [
        LeaderboardRow(1, "Zero", 1000, 0, 0, True),  # no games: no win rate
        LeaderboardRow(2, "More wins than games", 1000, 3, 7, False),
        LeaderboardRow(1234, "Far down", -50, 0, -1, True),
        LeaderboardRow(99999, "Huge", 123456, 123_456_789, 99_999_999, False),
    ]
    _board(_lb(rows, page=124, pages=130))


def test_rows_are_not_mutated() -> None:
    rows = _rows(10)
    before = copy.deepcopy(rows)
    _lb(rows, highlight_rank=2)
    assert rows == before


# ---------------------------------------------------------------------------
# Rating chart
# ---------------------------------------------------------------------------


def test_chart_with_series() -> None:
    one = _chart(render_rating_chart("Alice", [RatingSeries("Between Battle", _series(40))]))
    many = [
        RatingSeries(label, _series(n, seed))
        for seed, (label, n) in enumerate(
            [("Between Battle", 60), ("Via Belli", 15), ("Server", 2)]
        )
    ]
    _chart(render_rating_chart("Alice — rating history", many))
    # the line is drawn in the first series colour (gold)
    raw = one.tobytes()
    pixels = zip(raw[0::3], raw[1::3], raw[2::3], strict=True)
    gold = sum(1 for r, g, b in pixels if r > 220 and 170 < g < 215 and b < 110)
    assert gold > 1000


@pytest.mark.parametrize(
    "series",
    [
        [],
        [RatingSeries("Between Battle", [])],
        [RatingSeries("Between Battle", [1012])],
        [RatingSeries("Between Battle", [1012]), RatingSeries("Server", []), RatingSeries("", [7])],
    ],
)
@pytest.mark.parametrize("locale", ["en", "fr"])
def test_chart_empty_states(series: list[RatingSeries], locale: str) -> None:
    data = render_rating_chart("Bob", series, locale)
    _chart(data)
    assert data != render_rating_chart("Bob", [RatingSeries("Between Battle", [1012, 1030])])


def test_chart_locales_and_determinism() -> None:
    series = [RatingSeries("Global", _series(30)), RatingSeries("Via Belli", _series(12, 2))]
    en = render_rating_chart("Alice", series)
    assert en == render_rating_chart("Alice", series, "en-US")
    assert en == render_rating_chart("Alice", list(series))
    assert en != render_rating_chart("Alice", series, "fr")
    assert render_rating_chart("Alice", series, "fr") == render_rating_chart(
        "Alice", series, "fr-BE"
    )


@pytest.mark.parametrize(
    "points",
    [
        [1000, 1000],
        [1000, 1000, 1000, 1000],
        [1000, 1001],
        [-40, 5000],
        [1, 2, 3] * 700,
        list(range(900, 1500)),
    ],
)
def test_chart_awkward_points(points: list[int]) -> None:
    _chart(render_rating_chart("Edge", [RatingSeries("A", points)]))


def test_chart_long_labels_and_many_series() -> None:
    series = [
        RatingSeries(label, _series(50 + 40 * k, k))
        for k, label in enumerate(
            ["A" * 200, "李小龙", "Zoë 🎉", "", "Server", "Global", "Seventh"]
        )
    ]
    _chart(render_rating_chart("T" * 300, series, "fr"))
    _chart(render_rating_chart("🎉", series[:1]))


def test_chart_does_not_mutate_inputs() -> None:
    points = _series(20)
    series = [RatingSeries("A", points)]
    render_rating_chart("A", series)
    assert points == _series(20)
    assert series == [RatingSeries("A", _series(20))]


# ---------------------------------------------------------------------------
# Helpers, purity and speed
# ---------------------------------------------------------------------------


def test_nice_ticks() -> None:
    assert nice_step(300, 4) == 100
    assert nice_step(1000, 4) == 250
    assert nice_step(20, 4) == 5
    assert nice_step(0, 4) == 1
    for values in ([1000], [990, 1010], [812, 1460], [-3, 4], [1000, 1001]):
        low, high, step = _y_range(values)
        assert low <= min(values) and high >= max(values)
        assert low % step == 0 and high % step == 0
        assert 2 <= (high - low) // step <= 6
    assert _x_ticks(2) == [1, 2]
    assert _x_ticks(41) == [1, 10, 20, 30, 40]
    assert all(t <= 1000 for t in _x_ticks(1000))


def test_thinning_keeps_the_envelope() -> None:
    points = _series(5000)
    kept = _thin(points, 300)
    assert len(kept) <= 4 * 300 + 4
    assert kept[0] == (0, points[0]) and kept[-1] == (4999, points[-1])
    values = [v for _, v in kept]
    assert min(values) == min(points) and max(values) == max(points)
    assert [i for i, _ in kept] == sorted({i for i, _ in kept})
    assert _thin(points[:10], 300) == list(enumerate(points[:10]))


def test_rendering_writes_no_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    _lb(_rows(10), page=1, pages=2)
    _lb([])
    render_rating_chart("A", [RatingSeries("A", _series(30))])
    render_rating_chart("A", [])
    assert os.listdir(tmp_path) == []
