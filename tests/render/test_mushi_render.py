"""Mushi table, hand and summary images: valid images for varied views, from real states."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from bot.games import mushi
from bot.games.hanafuda import render as hanafuda_render
from bot.games.mushi import render as mr
from bot.games.mushi.rules import MushiState
from bot.render.encode import to_png
from tests.render.preview import MIN_TEXT_PX, PREVIEW_W, record_drawing


def _valid_png(img: Image.Image) -> Image.Image:
    data = to_png(img)
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return Image.open(io.BytesIO(data))


def _states(seed: int, options: dict | None = None) -> list[MushiState]:
    """Snapshots of one random match: start, mid-hand, flip choices, wild duty, over."""
    state = mushi.new_game(seed, ["Alice", "Bob the Magnificent"], options)
    rng = random.Random(seed)
    picked: list[MushiState] = [state.clone()]
    step = 0
    while not state.is_over:
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        code = mushi.choose(state.view(seat), legal, rng) if seat == 0 else rng.choice(legal)
        state.apply(seat, code)
        step += 1
        v = state.view(None)
        if step % 23 == 0 or v["phase"] == "choose_flip" or v["wild_duty"]:
            if len(picked) < 14:
                picked.append(state.clone())
    picked.append(state)
    return picked


@pytest.mark.parametrize("seed", [1, 2])
def test_table_images_for_every_seat_and_spectators(seed: int) -> None:
    options = {"hands": 6, "elder_takes_table_four": seed == 2}
    for state in _states(seed, options):
        for seat in (None, 0, 1):
            img = _valid_png(mr.render_table(state.view(seat)))
            assert img.size == (mr.W, mr.H)


def test_hand_images() -> None:
    for state in _states(3, {"hands": 6})[:-1]:
        for seat in (0, 1):
            img = _valid_png(mr.render_hand(state.view(seat)))
            assert 600 <= img.width <= 1100 and img.height > 200


def test_deal_summary_and_game_over() -> None:
    states = _states(4, {"hands": 6})
    assert mr.render_deal_summary(states[0].view(None)) is None  # nothing finished yet
    final = states[-1].view(None)
    assert final["is_over"]
    img = _valid_png(mr.render_deal_summary(final))
    assert img.width == mr.SUMMARY_W
    _valid_png(mr.render_table(final))


def test_crowded_table_and_the_wild_marked() -> None:
    view = mushi.new_game(5, ["A", "B"]).view(0)
    table = [
        "1p1",
        "2p1",
        "3p1",
        "4p1",
        "5p1",
        "8p1",
        "9p1",
        "10p1",
        "12p1",
        "11p1",
        "11b",
        "1p2",
        "2p2",
        "3p2",
        "4p2",
        "5p2",
        "8p2",
        "9p2",
    ]
    view = dict(view, table=table, wild_duty=True, set_aside=["11b", "11a", "11r"])
    img = mr.render_table(view)
    # The WILD tag's violet shows somewhere on the table.
    violet = mr.WILD_COLOUR
    colours = img.crop(mr.TABLE_BOX).convert("RGB").getcolors(maxcolors=1 << 20) or []
    assert any(sum(abs(a - b) for a, b in zip(c, violet, strict=True)) < 20 for _, c in colours)


def test_render_does_not_touch_the_view() -> None:
    state = _states(6, {"hands": 6})[3]
    view = state.view(None)
    before = repr(view)
    mr.render_table(view)
    mr.render_hand(state.view(0))
    assert repr(view) == before


def test_every_hand_text_and_card_is_readable_at_the_preview_width(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A DM's hand (up to eight cards: rows of four at most), scaled to 550 px wide: every
    text (what a card takes, its name and points) at least 9 px and every card 20 px tall
    (the names were 5-7 px on the old row of up to 908 px)."""
    drawn = record_drawing(monkeypatch, [(hanafuda_render, "card_image")])
    for state in _states(3, {"hands": 6})[:-1]:
        for seat in (0, 1):
            drawn.check(mr.render_hand(state.view(seat)), f"hand of {seat}")


def test_every_score_sheet_text_and_card_is_readable_at_the_preview_width(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The score sheet after every hand of a match with long names, scaled to 550 px wide:
    every text (the piles' labels, the formula, the cards left over) at least 9 px and every
    card 20 px tall (the labels were 7 px on the old 1000 px sheet)."""
    drawn = record_drawing(monkeypatch, [(hanafuda_render, "card_image"), (mr, "card_image")])
    state = mushi.new_game(2, ["Bartholomew the Magnificent", "Anastasia Featherstonehaugh"])
    rng = random.Random(2)
    sheets = 0
    while not state.is_over:
        seat = state.to_act[0]
        hands = len(state.view(None)["history"])
        state.apply(seat, mushi.choose(state.view(seat), state.legal_actions(seat), rng))
        if len(state.view(None)["history"]) > hands:
            sheet = mr.render_deal_summary(state.view(None))
            assert sheet is not None and sheet.width == mr.SUMMARY_W
            drawn.check(sheet, f"score sheet of hand {hands + 1}")
            sheets += 1
        drawn.clear()
    assert sheets == 12


@pytest.mark.parametrize("seed", [1, 2])
def test_every_table_text_and_card_is_readable_at_the_preview_width(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Scaled to 550 px wide, every text on the table (the names, NOW, TO PLAY, the last
    play's and flip's headers, the capture-pile labels with their points, the wild's tag
    and duty, the match's hands) is at least 9 px and every card at least 20 px tall: over
    a whole match of an AI and a random player, spectator and player views, a long and a
    CJK name, the end in English and Japanese (they were 5.2-5.4 px on the old 1028 px
    table)."""
    drawn = record_drawing(
        monkeypatch,
        [(hanafuda_render, "card_image"), (hanafuda_render, "card_back"), (mr, "card_image")],
    )
    rng = random.Random(seed)
    state = mushi.new_game(seed, ["Anastasia Featherstonehaugh", "王小明"], {"hands": 6})
    seen: set[str] = set()
    step = 0
    while not state.is_over:
        seat = state.to_act[0]
        view = state.view(None)
        if step % 5 == 0 or view["phase"] == "choose_flip" or view["wild_duty"]:
            seen |= {view["phase"]} | ({"wild duty"} if view["wild_duty"] else set())
            for viewer in (None, seat):
                table = mr.render_table(state.view(viewer))
                assert table.width == mr.W
                drawn.check(table, f"{view['phase']} at step {step} seen by {viewer}")
        legal = state.legal_actions(seat)
        code = mushi.choose(state.view(seat), legal, rng) if seat == 0 else rng.choice(legal)
        state.apply(seat, code)
        step += 1
    for locale in ("en-US", "ja"):
        drawn.check(mr.render_table(state.view(None), locale), f"match over in {locale}")
    assert {"play", "choose_flip"} <= seen
    assert hanafuda_render.TABLE_MIN_TEXT * PREVIEW_W / mr.W >= MIN_TEXT_PX


def test_a_pile_label_with_its_points_takes_two_rows_when_it_does_not_fit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``短 Ribbons 4 · 20`` is wider than the ribbons' pile: it breaks at its ``·`` into
    two pills (``短 Ribbons 4`` over ``· 20``); the junk's label, with the rest of the
    panel as its room, stays on one row."""
    view = mushi.new_game(5, ["A", "B"]).view(None)
    captures = {"bright": [], "animal": [], "ribbon": ["1r", "2r", "3r", "9r"], "plain": ["1p1"]}
    view = dict(view, captures=[captures, {k: [] for k in captures}])
    drawn = record_drawing(monkeypatch, [])
    mr.render_table(view)
    texts = {text for _, _, text in drawn.texts}
    assert {"短 Ribbons 4", "· 20", "カス Junk 1 · 1"} <= texts
    assert "短 Ribbons 4 · 20" not in texts
