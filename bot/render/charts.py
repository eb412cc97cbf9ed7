"""Leaderboard and rating pictures (Pillow; pure functions of plain data, no Discord).

``render_leaderboard(board)`` draws the standings of one game in a server: rank, name,
rating, games, wins and a sparkline of each player's rating over their last matches.
``render_stats(stats)`` draws one player's rating over time, one plot per game. Both use
the tables' felt, panels, gold and the bundled font; :func:`drawable` makes any name safe
to draw with that font (characters it lacks, such as emoji, are dropped or replaced, never
drawn as empty boxes). Every word they draw comes from the catalogs in the data's
``locale`` (numbers and dates too, by Babel); labels are measured and shrunk to their room.
"""

from __future__ import annotations

import logging
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from babel.dates import format_date
from babel.numbers import format_decimal
from PIL import Image

from bot.i18n import BABEL_LOCALES, gettext, ngettext, normalize
from bot.render.draw import (
    FELT_GREEN,
    GOLD,
    MUTED,
    PAPER,
    WHITE,
    Draw,
    badge,
    draw_text,
    felt,
    fit_text,
    panel,
    text_length,
)
from bot.render.fonts import font

RGB = tuple[int, int, int]

log = logging.getLogger(__name__)

#: A private-use character no font subset keeps: what the font draws for a missing glyph.
_MISSING = "\ue000"
_INVISIBLE = {"\u200d", "\u200c", "\ufe0e", "\ufe0f", "\u20e3"}


@lru_cache(maxsize=1)
def _notdef(bold: bool) -> tuple[tuple[int, int], bytes]:
    mask = font(20, bold).getmask(_MISSING)
    return mask.size, bytes(mask)


@lru_cache(maxsize=8192)
def has_glyph(ch: str, bold: bool = False) -> bool:
    """Whether the bundled font draws ``ch`` (rather than its empty box)."""
    if ch.isspace():
        return True
    mask = font(20, bold).getmask(ch)
    return (mask.size, bytes(mask)) != _notdef(bold)


def drawable(text: str, *, bold: bool = False, fallback: str = "Player") -> str:
    """``text`` with what the font cannot draw taken out: emoji, pictographs, joiners and
    variation selectors are dropped; a missing letter becomes ``?`` (so a name in a script
    the font lacks still shows its length). Empty after that: ``fallback``."""
    out: list[str] = []
    for ch in unicodedata.normalize("NFC", text):
        category = unicodedata.category(ch)
        if ch in _INVISIBLE or category in ("Cf", "Cc", "Cs", "Co"):
            continue
        if has_glyph(ch, bold):
            out.append(ch)
        elif category.startswith("L") or category == "Nd":
            out.append("?")
        # else: a symbol or emoji the font lacks: dropped
    cleaned = " ".join("".join(out).split())
    return cleaned or fallback


# ----- data ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class LeaderLine:
    rank: int
    name: str
    rating: float
    games: int
    wins: int
    #: The player's rating after each of their last matches, oldest first.
    history: Sequence[float] = ()


#: What the leaderboard's rating is (its footer, and the embed's).
RATING_NOTE = "Rating: openskill ordinal (μ − 3σ); it grows as you win and play."


@dataclass(frozen=True)
class Leaderboard:
    title: str
    lines: Sequence[LeaderLine]
    subtitle: str = ""
    #: None: :data:`RATING_NOTE` in ``locale``.
    footer: str | None = None
    #: The language of the picture's words (the title and subtitle come as they are).
    locale: str = "en-US"


@dataclass(frozen=True)
class GameCurve:
    """One game of a player's stats: their rating after each match, and their record."""

    title: str
    ratings: Sequence[float]
    games: int
    wins: int
    rank: int | None = None
    average_place: float | None = None
    best_score: int | None = None
    #: Unix times of the matches (the first and last are written under the plot).
    times: Sequence[float] = ()


@dataclass(frozen=True)
class PlayerStats:
    name: str
    games: Sequence[GameCurve] = field(default_factory=tuple)
    subtitle: str = ""
    #: The language of the picture's words (the game titles come as they are).
    locale: str = "en-US"


# ----- drawing ----------------------------------------------------------------------------

WIDTH = 960
M = 16
ROW = 44
UP: RGB = (110, 214, 130)
DOWN: RGB = (236, 120, 100)
FLAT: RGB = (200, 210, 200)
MEDALS: dict[int, RGB] = {1: GOLD, 2: (200, 204, 212), 3: (205, 140, 80)}
#: x of each column: the left edge of rank, name and the sparkline, the right edge of numbers.
COLUMNS = {"rank": M + 14, "name": M + 64, "rating": 545, "games": 635, "wins": 715, "spark": 750}
NUMERIC = ("rating", "games", "wins")
#: The room of each column's heading (numbers are right-aligned under theirs).
HEAD_ROOM = {"rank": 40, "name": 300, "rating": 86, "games": 82, "wins": 74, "spark": 170}


def rating_text(locale: str, value: float) -> str:
    """A rating with one decimal, in the locale's digits (``12.3``)."""
    return format_decimal(round(value, 1), format="0.0", locale=BABEL_LOCALES[normalize(locale)])


def number_text(locale: str, value: float, digits: int = 0) -> str:
    """A count or score (``1,234``), or a mean with ``digits`` decimals, per locale."""
    pattern = "#,##0" + ("." + "0" * digits if digits else "")
    return format_decimal(value, format=pattern, locale=BABEL_LOCALES[normalize(locale)])


def _trend(values: Sequence[float]) -> RGB:
    if len(values) < 2 or abs(values[-1] - values[0]) < 1e-9:
        return FLAT
    return UP if values[-1] > values[0] else DOWN


def sparkline(
    d: Draw, box: tuple[int, int, int, int], values: Sequence[float], colour: RGB | None = None
) -> None:
    """A small line of ``values`` scaled into ``box``, its last point marked."""
    x0, y0, x1, y1 = box
    if not values:
        draw_text(d, (x0, (y0 + y1) // 2), "—", 16, MUTED, anchor="lm")
        return
    colour = colour or _trend(values)
    lo, hi = min(values), max(values)
    span = hi - lo or 1.0
    n = len(values)
    pts = [
        (
            x0 + (x1 - x0) * (i / (n - 1) if n > 1 else 1.0),
            y1 - (y1 - y0) * ((v - lo) / span if hi > lo else 0.5),
        )
        for i, v in enumerate(values)
    ]
    if n > 1:
        d.line(pts, fill=colour, width=2, joint="curve")
    x, y = pts[-1]
    d.ellipse((x - 3.5, y - 3.5, x + 3.5, y + 3.5), fill=colour)


def _header(img: Image.Image, title: str, subtitle: str) -> int:
    d = Draw(img)
    text, size = fit_text(drawable(title, bold=True), WIDTH - 2 * M - 20, 30, True)
    draw_text(d, (M + 4, M), text, size, GOLD, bold=True)
    y = M + 42
    if subtitle:
        sub, ssize = fit_text(drawable(subtitle, fallback=""), WIDTH - 2 * M - 20, 17)
        draw_text(d, (M + 4, y), sub, ssize, MUTED)
        y += 26
    return y + 4


def render_leaderboard(board: Leaderboard) -> Image.Image:
    """The standings of one game: rank, name, rating, games, wins, recent rating trend."""
    lines = list(board.lines)
    loc = board.locale
    top = M + 42 + (26 if board.subtitle else 0) + 4
    height = top + 34 + ROW * max(1, len(lines)) + 44 + M
    img = felt((WIDTH, height), FELT_GREEN).copy()
    _header(img, board.title, board.subtitle)
    inner = panel(img, (M, top, WIDTH - M, height - M - 36))
    d = Draw(img)
    y = inner[1] + 2
    heads = (
        ("rank", "#"),
        ("name", gettext(loc, "Player")),
        ("rating", gettext(loc, "Rating")),
        ("games", gettext(loc, "Games")),
        ("wins", gettext(loc, "Wins")),
        ("spark", gettext(loc, "Last matches")),
    )
    for key, label in heads:
        anchor = "ra" if key in NUMERIC else "la"
        text, size = fit_text(label, HEAD_ROOM[key], 14, True)
        draw_text(d, (COLUMNS[key], y), text, size, MUTED, bold=True, anchor=anchor)
    y += 26
    if not lines:
        empty = gettext(loc, "No rated players yet")
        draw_text(d, (WIDTH // 2, y + ROW // 2), empty, 18, MUTED, anchor="mm")
    img = _rows(img, inner, top_y=y, lines=lines, locale=loc)
    d = Draw(img)
    footer = board.footer if board.footer is not None else gettext(loc, RATING_NOTE)
    foot, fsize = fit_text(drawable(footer, fallback=""), WIDTH - 2 * M, 14)
    draw_text(d, (M + 4, height - M - 20), foot, fsize, MUTED)
    return img


def _rows(
    img: Image.Image,
    inner: tuple[int, int, int, int],
    *,
    top_y: int,
    lines: Sequence[LeaderLine],
    locale: str = "en-US",
) -> Image.Image:
    base = img.convert("RGBA")
    layer = Image.new("RGBA", base.size, (0, 0, 0, 0))
    ld = Draw(layer)
    for i in range(len(lines)):
        if i % 2 == 0:
            y = top_y + i * ROW
            ld.rounded_rectangle(
                (inner[0], y + 2, inner[2], y + ROW - 2), radius=8, fill=(255, 255, 255, 16)
            )
    out = Image.alpha_composite(base, layer).convert("RGB")
    d = Draw(out)
    for i, line in enumerate(lines):
        y = top_y + i * ROW
        cy = y + ROW // 2
        medal = MEDALS.get(line.rank)
        if medal:
            badge(d, (COLUMNS["rank"] + 8, cy), str(line.rank), 16, fill=medal, anchor="mm")
        else:
            draw_text(
                d, (COLUMNS["rank"] + 8, cy), str(line.rank), 17, WHITE, bold=True, anchor="mm"
            )
        name, size = fit_text(
            drawable(line.name, bold=True), COLUMNS["rating"] - COLUMNS["name"] - 90, 20, True
        )
        draw_text(d, (COLUMNS["name"], cy), name, size, WHITE, bold=True, anchor="lm")
        rating = rating_text(locale, line.rating)
        draw_text(d, (COLUMNS["rating"], cy), rating, 19, GOLD, bold=True, anchor="rm")
        games, wins = number_text(locale, line.games), number_text(locale, line.wins)
        draw_text(d, (COLUMNS["games"], cy), games, 18, PAPER, anchor="rm")
        draw_text(d, (COLUMNS["wins"], cy), wins, 18, PAPER, anchor="rm")
        sparkline(
            d, (COLUMNS["spark"] + 4, y + 10, inner[2] - 14, y + ROW - 10), list(line.history)
        )
    return out


PLOT_H = 230


def _date(ts: float, locale: str = "en-US") -> str:
    """A match's day: ``2026-11-24`` in English (as before), the locale's short date else."""
    import datetime as _dt

    day = _dt.datetime.fromtimestamp(ts, _dt.UTC).date()
    loc = normalize(locale)
    if loc == "en-US":
        return day.strftime("%Y-%m-%d")
    return format_date(day, format="medium", locale=BABEL_LOCALES[loc])


def record_facts(curve: GameCurve, locale: str = "en-US") -> list[str]:
    """A player's record in one game, a phrase each: games, wins, average place, best
    score, rank in the server."""
    facts = [
        gettext(locale, "games {n}", n=number_text(locale, curve.games)),
        gettext(locale, "wins {n}", n=number_text(locale, curve.wins)),
    ]
    if curve.average_place is not None:
        place = number_text(locale, curve.average_place, 2)
        facts.append(gettext(locale, "average place {place}", place=place))
    if curve.best_score is not None:
        best = number_text(locale, curve.best_score)
        facts.append(gettext(locale, "best score {score}", score=best))
    if curve.rank is not None:
        facts.append(gettext(locale, "#{rank} in this server", rank=curve.rank))
    return facts


def _plot(
    img: Image.Image, box: tuple[int, int, int, int], curve: GameCurve, locale: str = "en-US"
) -> None:
    """One game's panel: its title and record, and the rating after each match."""
    inner = panel(img, box)
    d = Draw(img)
    x0, y0, x1, y1 = inner
    title, size = fit_text(drawable(curve.title, bold=True), 360, 20, True)
    draw_text(d, (x0 + 6, y0 + 2), title, size, GOLD, bold=True)
    room = x1 - x0 - 24 - int(text_length(title, size, True))
    facts, fsize = fit_text(" · ".join(record_facts(curve, locale)), room, 15)
    draw_text(d, (x1 - 6, y0 + 6), facts, fsize, PAPER, anchor="ra")
    values = list(curve.ratings)
    px0, py0, px1, py1 = x0 + 64, y0 + 40, x1 - 20, y1 - 28
    if not values:
        unrated = gettext(locale, "not rated yet")
        draw_text(d, ((px0 + px1) // 2, (py0 + py1) // 2), unrated, 17, MUTED, anchor="mm")
        return
    lo, hi = min(values), max(values)
    if hi - lo < 1.0:
        lo, hi = lo - 0.5, hi + 0.5
    pad = (hi - lo) * 0.08
    lo, hi = lo - pad, hi + pad
    for frac in (0.0, 0.5, 1.0):
        gy = py1 - (py1 - py0) * frac
        d.line((px0, gy, px1, gy), fill=(70, 110, 90), width=1)
        tick = rating_text(locale, lo + (hi - lo) * frac)
        draw_text(d, (px0 - 8, gy), tick, 13, MUTED, anchor="rm")
    if lo < 0 < hi:
        zy = py1 - (py1 - py0) * (0 - lo) / (hi - lo)
        d.line((px0, zy, px1, zy), fill=(120, 150, 130), width=1)
    n = len(values)
    pts = [
        (
            px0 + (px1 - px0) * (i / (n - 1) if n > 1 else 0.5),
            py1 - (py1 - py0) * (v - lo) / (hi - lo),
        )
        for i, v in enumerate(values)
    ]
    colour = _trend(values)
    if n > 1:
        d.line(pts, fill=colour, width=3, joint="curve")
    for x, y in pts if n <= 40 else pts[-1:]:
        d.ellipse((x - 3, y - 3, x + 3, y + 3), fill=colour)
    lx, ly = pts[-1]
    last = rating_text(locale, values[-1])
    draw_text(d, (min(lx, px1 - 30), ly - 10), last, 16, WHITE, bold=True, anchor="mb")
    times = list(curve.times)
    left = _date(times[0], locale) if times else gettext(locale, "first match")
    right = _date(times[-1], locale) if times else gettext(locale, "last match")
    draw_text(d, (px0, y1 - 4), left, 13, MUTED, anchor="ld")
    draw_text(d, (px1, y1 - 4), right, 13, MUTED, anchor="rd")
    ends = max(text_length(left, 13), text_length(right, 13))
    note = ngettext(locale, "rating after each of {n} match", "rating after each of {n} matches", n)
    note, nsize = fit_text(note, int(px1 - px0 - 2 * ends - 24), 13)
    draw_text(d, ((px0 + px1) // 2, y1 - 4), note, nsize, MUTED, anchor="md")


def render_stats(stats: PlayerStats) -> Image.Image:
    """A player's rating over time, one plot per game they played."""
    games = list(stats.games)
    loc = stats.locale
    top = M + 42 + (26 if stats.subtitle else 0) + 4
    height = top + (PLOT_H + 12) * max(1, len(games)) + M
    img = felt((WIDTH, height), FELT_GREEN).copy()
    name = drawable(stats.name, bold=True)
    _header(img, gettext(loc, "{name} — rating over time", name=name), stats.subtitle)
    if not games:
        inner = panel(img, (M, top, WIDTH - M, top + PLOT_H))
        draw_text(
            Draw(img),
            ((inner[0] + inner[2]) // 2, (inner[1] + inner[3]) // 2),
            gettext(loc, "No finished matches in this server yet"),
            19,
            MUTED,
            anchor="mm",
        )
        return img
    y = top
    for curve in games:
        _plot(img, (M, y, WIDTH - M, y + PLOT_H), curve, loc)
        y += PLOT_H + 12
    return img


def leaderboard_png(board: Leaderboard) -> bytes:
    """PNG bytes of :func:`render_leaderboard` (what the render pool runs)."""
    from bot.render.encode import to_png

    return to_png(render_leaderboard(board))


def stats_png(stats: PlayerStats) -> bytes:
    """PNG bytes of :func:`render_stats` (what the render pool runs)."""
    from bot.render.encode import to_png

    return to_png(render_stats(stats))
