"""The picture posted when a deal ends (the game's score sheet over every hand face up)
reads in Discord's inline preview (~550 px wide): every text at least 9 px there."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.games import game_spec
from bot.render.reveal import HANDS_WIDTH, deal_end_png
from tests.render.preview import PREVIEW_W, record_drawing
from tests.replay.helpers import SHORT, play

LONG_NAMES = ["Bartholomew the Magnificent", "王小明", "Maximilian von Habsburg", "Cai"]


@pytest.mark.parametrize("game", ["koikoi", "mushi", "panda", "sandayi", "mahjong"])
def test_the_deal_end_picture_is_readable_at_the_preview_width(
    game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    state = play(game, f"preview-{game}")
    names = LONG_NAMES[: len(state.players)]
    view = state.view(None)
    view["players"] = names
    palette = game_spec(game).renderers().png_palette
    if palette is not None:
        palette()  # made once (its sample texts are no part of the picture)
    drawn = record_drawing(monkeypatch, [])
    _, png = deal_end_png(game, state.seed, names, SHORT[game], state.log, view)
    assert png is not None
    picture = Image.open(io.BytesIO(png))
    drawn.check(picture, f"{game}'s deal-end picture")
    if game == "koikoi":  # no score sheet: the hands alone, HANDS_WIDTH wide
        assert picture.width == HANDS_WIDTH and 14 * PREVIEW_W / HANDS_WIDTH >= 10
