"""Leaderboard and rating pictures (Pillow; pure functions of plain data, no Discord).

``render_leaderboard(board)`` draws the standings of one game in a server: rank, name,
rating, games, wins and a sparkline of each player's rating over their last matches.
``render_stats(stats)`` draws one player's rating over time, one plot per game. Both use
the tables' felt, panels, gold and the bundled font; :func:`drawable` makes any name safe
to draw with that font (characters it lacks, such as emoji, are dropped or replaced, never
drawn as empty boxes).
"""

from __future__ import annotations

import logging
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from PIL import Image

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


@dataclass(frozen=True)
class Leaderboard:
    title: str
    lines: Sequence[LeaderLine]
    subtitle: str = ""
    footer: str = "Rating: openskill ordinal (μ − 3σ); it grows as you win and play."


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
    top = M + 42 + (26 if board.subtitle else 0) + 4
    height = top + 34 + ROW * max(1, len(lines)) + 44 + M
    img = felt((WIDTH, height), FELT_GREEN).copy()
    _header(img, board.title, board.subtitle)
    inner = panel(img, (M, top, WIDTH - M, height - M - 36))
    d = Draw(img)
    y = inner[1] + 2
    heads = (("rank", "#"), ("name", "Player"), ("rating", "Rating"), ("games", "Games"))
    for key, label in (*heads, ("wins", "Wins"), ("spark", "Last matches")):
        anchor = "ra" if key in NUMERIC else "la"
        draw_text(d, (COLUMNS[key], y), label, 14, MUTED, bold=True, anchor=anchor)
    y += 26
    if not lines:
        draw_text(d, (WIDTH // 2, y + ROW // 2), "No rated players yet", 18, MUTED, anchor="mm")
    img = _rows(img, inner, top_y=y, lines=lines)
    d = Draw(img)
    foot, fsize = fit_text(drawable(board.footer, fallback=""), WIDTH - 2 * M, 14)
    draw_text(d, (M + 4, height - M - 20), foot, fsize, MUTED)
    return img


def _rows(
    img: Image.Image, inner: tuple[int, int, int, int], *, top_y: int, lines: Sequence[LeaderLine]
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
        draw_text(
            d, (COLUMNS["rating"], cy), f"{line.rating:.1f}", 19, GOLD, bold=True, anchor="rm"
        )
        draw_text(d, (COLUMNS["games"], cy), str(line.games), 18, PAPER, anchor="rm")
        draw_text(d, (COLUMNS["wins"], cy), str(line.wins), 18, PAPER, anchor="rm")
        sparkline(
            d, (COLUMNS["spark"] + 4, y + 10, inner[2] - 14, y + ROW - 10), list(line.history)
        )
    return out


PLOT_H = 230


def _date(ts: float) -> str:
    import datetime as _dt

    return _dt.datetime.fromtimestamp(ts, _dt.UTC).strftime("%Y-%m-%d")


def _plot(img: Image.Image, box: tuple[int, int, int, int], curve: GameCurve) -> None:
    """One game's panel: its title and record, and the rating after each match."""
    inner = panel(img, box)
    d = Draw(img)
    x0, y0, x1, y1 = inner
    title, size = fit_text(drawable(curve.title, bold=True), 360, 20, True)
    draw_text(d, (x0 + 6, y0 + 2), title, size, GOLD, bold=True)
    facts = [f"games {curve.games}", f"wins {curve.wins}"]
    if curve.average_place is not None:
        facts.append(f"average place {curve.average_place:.2f}")
    if curve.best_score is not None:
        facts.append(f"best score {curve.best_score}")
    if curve.rank is not None:
        facts.append(f"#{curve.rank} in this server")
    draw_text(d, (x1 - 6, y0 + 6), " · ".join(facts), 15, PAPER, anchor="ra")
    values = list(curve.ratings)
    px0, py0, px1, py1 = x0 + 64, y0 + 40, x1 - 20, y1 - 28
    if not values:
        draw_text(d, ((px0 + px1) // 2, (py0 + py1) // 2), "not rated yet", 17, MUTED, anchor="mm")
        return
    lo, hi = min(values), max(values)
    if hi - lo < 1.0:
        lo, hi = lo - 0.5, hi + 0.5
    pad = (hi - lo) * 0.08
    lo, hi = lo - pad, hi + pad
    for frac in (0.0, 0.5, 1.0):
        gy = py1 - (py1 - py0) * frac
        d.line((px0, gy, px1, gy), fill=(70, 110, 90), width=1)
        draw_text(d, (px0 - 8, gy), f"{lo + (hi - lo) * frac:.1f}", 13, MUTED, anchor="rm")
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
    draw_text(
        d, (min(lx, px1 - 30), ly - 10), f"{values[-1]:.1f}", 16, WHITE, bold=True, anchor="mb"
    )
    times = list(curve.times)
    left = _date(times[0]) if times else "first match"
    right = _date(times[-1]) if times else "last match"
    draw_text(d, (px0, y1 - 4), left, 13, MUTED, anchor="ld")
    draw_text(d, (px1, y1 - 4), right, 13, MUTED, anchor="rd")
    draw_text(
        d,
        ((px0 + px1) // 2, y1 - 4),
        f"rating after each of {n} match{'es' if n != 1 else ''}",
        13,
        MUTED,
        anchor="md",
    )


def render_stats(stats: PlayerStats) -> Image.Image:
    """A player's rating over time, one plot per game they played."""
    games = list(stats.games)
    top = M + 42 + (26 if stats.subtitle else 0) + 4
    height = top + (PLOT_H + 12) * max(1, len(games)) + M
    img = felt((WIDTH, height), FELT_GREEN).copy()
    _header(img, f"{drawable(stats.name, bold=True)} — rating over time", stats.subtitle)
    if not games:
        inner = panel(img, (M, top, WIDTH - M, top + PLOT_H))
        draw_text(
            Draw(img),
            ((inner[0] + inner[2]) // 2, (inner[1] + inner[3]) // 2),
            "No finished matches in this server yet",
            19,
            MUTED,
            anchor="mm",
        )
        return img
    y = top
    for curve in games:
        _plot(img, (M, y, WIDTH - M, y + PLOT_H), curve)
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
