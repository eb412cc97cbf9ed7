"""The Mah-Jongg renderers produce valid, readable-size images for varied views."""

from __future__ import annotations

import random

import pytest
from PIL import Image

from bot.games.mahjong import choose, new_game
from bot.games.mahjong import render as mr
from bot.games.mahjong.render import render_deal_summary, render_hand, render_table, tile_image
from bot.games.mahjong.tiles import CODES
from bot.render.encode import to_png
from tests.render.preview import record_drawing

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
        assert img is not None and img.width == mr.SHEET_W
    assert "mahjong" in kinds or "draw" in kinds


# ----- readable in Discord's inline preview (~550 px wide) ------------------------------------


def _drawn_cards(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int]]:
    """The sizes of the cards the renderers paste from now on."""
    sizes: list[tuple[int, int]] = []
    paste = mr._paste_tile

    def recording(canvas, code, xy, size, highlight=False):  # type: ignore[no-untyped-def]
        sizes.append(size)
        paste(canvas, code, xy, size, highlight)

    monkeypatch.setattr(mr, "_paste_tile", recording)
    return sizes


@pytest.mark.parametrize("seed", [1, 2])
def test_every_table_card_is_readable_at_the_preview_width(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Scaled to 550 px wide, every card on the table picture (hand, melds, extras,
    discards, face down or up) is at least 20 px tall; the texts at least 10 px."""
    drawn = _drawn_cards(monkeypatch)
    for public, private in snapshots(seed, every=11):
        for view in (public, private):
            table = render_table(view)
            scale = mr.PREVIEW_W / table.width
            assert table.width == mr.TABLE_W
            assert drawn and min(h for _, h in drawn) * scale >= 20, sorted(set(drawn))
            drawn.clear()
    assert mr.MIN_TEXT * mr.PREVIEW_W / mr.TABLE_W >= 9  # the smallest text (a seat's score)
    assert 22 * mr.PREVIEW_W / mr.TABLE_W >= 12  # names


LONG_NAMES = ["Bartholomew the Magnificent", "王小明", "Maximilian von Habsburg", "Cai"]


@pytest.mark.parametrize("seed", [1, 3])
def test_every_text_of_the_table_and_the_hand_is_readable_at_the_preview_width(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Scaled to 550 px wide, every text drawn on the table and on a DM's hand is at least
    9 px, with long names (a long name was shrunk to 6.6 px, the hand's labels were 7.8)."""
    drawn = record_drawing(monkeypatch, [])
    rng = random.Random(seed)
    g = new_game(seed, LONG_NAMES, {"max_hands": 2})
    i = 0
    while not g.is_over:
        seat = g.to_act[0]
        if i % 7 == 0 or (g.phase != "discard" and i % 2 == 0):
            drawn.check(render_table(g.view(None)), f"table at {g.phase}")
            drawn.check(render_hand(g.view(seat)), f"hand at {g.phase}")
        g.apply(seat, choose(g.view(seat), g.legal_actions(seat), rng))
        i += 1
    drawn.check(render_table(g.view(None)), "game over")
    sheet = render_deal_summary(g.view(None))
    assert sheet is not None
    drawn.check(sheet, "score sheet")


def test_the_score_sheet_is_readable_at_the_preview_width(monkeypatch: pytest.MonkeyPatch) -> None:
    """Scaled to 550 px wide, a line of the score sheet is at least 10 px high (it was 6)
    and the hands' cards at least 17 px."""
    drawn = _drawn_cards(monkeypatch)
    sheets = 0
    for public, _ in snapshots(3, every=5, options={"max_hands": 4, "strict": True}):
        img = render_deal_summary(public)
        if img is None:
            continue
        sheets += 1
        scale = mr.PREVIEW_W / img.width
        assert mr.SHEET_FONT * scale >= 10 and mr.SHEET_LINE * scale >= 13
        assert min(h for _, h in drawn) * scale >= 17
        drawn.clear()
    assert sheets


def test_spectator_hand_image_and_every_card_sprite() -> None:
    g = new_game(4, PLAYERS)
    img = render_hand(g.view(None))
    assert img.size[0] >= 900
    for code in [*CODES, None]:
        sprite = tile_image(code, (30, 40))
        assert sprite.size == (30, 40) and sprite.mode == "RGBA"
