"""The Mah-Jongg renderers produce valid, readable-size images for varied views."""

from __future__ import annotations

import random

import pytest
from PIL import Image

from bot.games.mahjong import choose, new_game
from bot.games.mahjong.render import render_deal_summary, render_hand, render_table, tile_image
from bot.games.mahjong.tiles import CODES
from bot.render.encode import to_png

PLAYERS = ["Ann", "Ben", "Cat", "Dov"]


def snapshots(seed: int, every: int = 37, options: dict | None = None):  # type: ignore[no-untyped-def]
    """Views of one game at several moments (all phases), ending with the game over."""
    rng = random.Random(seed)
    g = new_game(seed, PLAYERS, {"max_hands": 3, **(options or {})})
    i = 0
    phases = set()
    while not g.is_over:
        seat = g.to_act[0]
        if i % every == 0 or g.phase not in phases:
            phases.add(g.phase)
            yield g.view(None), g.view(seat)
        g.apply(seat, choose(g.view(seat), g.legal_actions(seat), rng))
        i += 1
    yield g.view(None), g.view(0)


@pytest.mark.parametrize("seed", [1, 2])
def test_table_and_hand_images_for_a_whole_game(seed: int) -> None:
    for public, private in snapshots(seed):
        table = render_table(public)
        assert isinstance(table, Image.Image) and 1000 <= table.width <= 1400
        assert table.height > 400
        hand = render_hand(private)
        assert hand.width >= 900
        assert to_png(table)[:8] == b"\x89PNG\r\n\x1a\n"
    # the last view is the game over
    assert public["is_over"]


def test_score_sheet_after_each_kind_of_hand_end() -> None:
    kinds = set()
    for public, _ in snapshots(3, every=5, options={"max_hands": 4, "strict": True}):
        img = render_deal_summary(public)
        if not public["history"]:
            assert img is None
            continue
        kinds.add(public["history"][-1]["outcome"])
        assert img is not None and img.width > 1000
    assert "mahjong" in kinds or "draw" in kinds


def test_spectator_hand_image_and_every_card_sprite() -> None:
    g = new_game(4, PLAYERS)
    img = render_hand(g.view(None))
    assert img.size[0] >= 900
    for code in [*CODES, None]:
        sprite = tile_image(code, (30, 40))
        assert sprite.size == (30, 40) and sprite.mode == "RGBA"
