"""Leaderboard and stats pictures: sizes, and names with emoji and CJK drawn without empty
boxes."""

from __future__ import annotations

import io

from PIL import Image, ImageChops

from bot.render.charts import (
    WIDTH,
    GameCurve,
    Leaderboard,
    LeaderLine,
    PlayerStats,
    drawable,
    has_glyph,
    leaderboard_png,
    render_leaderboard,
    render_stats,
    stats_png,
)


def _board(names: list[str]) -> Leaderboard:
    return Leaderboard(
        title="Koi-Koi — leaderboard",
        subtitle="Teahouse Test · top 3",
        lines=[
            LeaderLine(i + 1, name, 10.0 - i, 5 + i, 2, [0.0, 1.5, 0.5 + i, 3.0 - i])
            for i, name in enumerate(names)
        ],
    )


def test_names_are_drawable() -> None:
    assert drawable("Ann 🌸") == "Ann"
    assert drawable("さくら") == "さくら"
    assert drawable("👍🏽🎉") == "Player"
    assert drawable("Zoë") == "Zoë"
    assert drawable("A\u200db\ufe0f c") == "Ab c"
    assert has_glyph("さ") and has_glyph("A") and not has_glyph("🌸")
    # A letter of a script the font lacks keeps its place as "?" rather than a box.
    assert all(ch == "?" or has_glyph(ch) for ch in drawable("김민수 Kim"))


def test_leaderboard_size_grows_with_its_rows() -> None:
    small = render_leaderboard(_board(["Ann"]))
    big = render_leaderboard(_board(["Ann", "Bob", "Cid", "Dee", "Eve"]))
    assert small.width == big.width == WIDTH
    assert big.height > small.height + 150
    empty = render_leaderboard(_board([]))
    assert empty.width == WIDTH
    png = leaderboard_png(_board(["Ann"]))
    assert Image.open(io.BytesIO(png)).size == small.size


def test_emoji_and_cjk_names_draw() -> None:
    """The emoji is dropped (no box); kana and kanji draw as themselves."""
    plain = render_leaderboard(_board(["Ann", "花子", "さくら"]))
    emoji = render_leaderboard(_board(["Ann 🌸🌸", "花子", "さくら"]))
    assert ImageChops.difference(plain, emoji).getbbox() is None
    other = render_leaderboard(_board(["Bob", "花子", "さくら"]))
    assert ImageChops.difference(plain, other).getbbox() is not None


def test_stats_has_one_plot_per_game() -> None:
    one = render_stats(PlayerStats("Ann 🌸", [GameCurve("Koi-Koi", [0.0, 1.0, 2.5], 3, 2)]))
    three = render_stats(
        PlayerStats(
            "さくら",
            [
                GameCurve("Koi-Koi", [0.0, 1.0], 2, 1, rank=1, times=[1.7e9, 1.71e9]),
                GameCurve("Panda", [-1.0], 1, 0),
                GameCurve("Mah-Jongg", [], 0, 0),
            ],
        )
    )
    assert one.width == three.width == WIDTH
    assert three.height > one.height + 400
    assert render_stats(PlayerStats("Nobody")).width == WIDTH
    png = stats_png(PlayerStats("Ann", [GameCurve("Koi-Koi", [1.0] * 60, 60, 30)]))
    assert Image.open(io.BytesIO(png)).format == "PNG"
