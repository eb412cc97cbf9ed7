"""Player names reach the table pictures through ``bot.render.charts.drawable``: an emoji
in a name is dropped (never an empty box), a letter the font lacks is a '?'; the view the
host keeps, and the stored names, are not changed."""

from __future__ import annotations

import pytest

from bot.games import GAME_NAMES, game_spec
from bot.render.worker import drawable_names, render_png

EMOJI = ["Ann 🌸", "Bob 🐼🎋", "Cid", "Dee ✨"]
PLAIN = ["Ann", "Bob", "Cid", "Dee"]


@pytest.mark.parametrize("game", GAME_NAMES)
def test_an_emoji_in_a_name_is_left_out_of_the_table_picture(game: str) -> None:
    spec = game_spec(game)
    seats = spec.seats
    view = spec.new_game(5, EMOJI[:seats], {}).view(None)
    plain = spec.new_game(5, PLAIN[:seats], {}).view(None)
    assert render_png(game, "render_table", view) == render_png(game, "render_table", plain)
    assert view["players"] == EMOJI[:seats]  # the caller's view keeps the names as they are


def test_drawable_names_leaves_other_fields_alone() -> None:
    view = {"players": ["Ann 🌸", "さくら", "🐼"], "seat": 1, "hand": ["1b"]}
    named = drawable_names(view)
    assert named["players"] == ["Ann", "さくら", "Player"]
    assert named["seat"] == 1 and named["hand"] == ["1b"]
    assert view["players"][0] == "Ann 🌸"
    assert drawable_names({"seat": None}) == {"seat": None}
