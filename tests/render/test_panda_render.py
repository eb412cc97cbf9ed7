"""Panda images for varied views: valid PNGs of sensible size; every card drawn distinctly."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from bot.games.panda import choose, new_game
from bot.games.panda import render as panda_render
from bot.games.panda.cards import ALL_CARDS
from bot.games.panda.render import (
    CARD,
    TABLE_SIZE,
    card_sprite,
    render_deal_summary,
    render_hand,
    render_table,
)
from bot.games.panda.selfplay import PLAYERS, step
from bot.render.encode import to_png
from tests.render.preview import PREVIEW_W, record_drawing


def _png_ok(img: Image.Image, min_w: int = 600) -> None:
    assert img.width >= min_w and img.height >= 150
    data = to_png(img)
    again = Image.open(io.BytesIO(data))
    again.verify()
    assert len(data) < 1_500_000


def test_every_card_has_its_own_face() -> None:
    faces = {card_sprite(c, CARD).tobytes() for c in ALL_CARDS}
    assert len(faces) == 60
    assert card_sprite("Mt", CARD).size == CARD


def _views_along_a_match():
    state = new_game(5, PLAYERS, {"target": 300})
    rng = random.Random(5)
    seen_kinds = set()
    yield state.view(None), state.view(0)
    while not state.is_over:
        step(state, [choose] * 4, rng)
        key = (state.phase, bool(state.trick), state.trick_won, state.pending, bool(state.out))
        if key not in seen_kinds:
            seen_kinds.add(key)
            seat = state.to_act[0] if state.to_act else 0
            yield state.view(None), state.view(seat)
    yield state.view(None), state.view(1)


def test_table_hand_and_summary_render_along_a_match() -> None:
    count = 0
    for spectator, player in _views_along_a_match():
        table = render_table(spectator)
        assert table.size == TABLE_SIZE
        _png_ok(table)
        _png_ok(render_table(player))
        _png_ok(render_hand(player))
        summary = render_deal_summary(spectator)
        if spectator["history"]:
            assert summary is not None
            _png_ok(summary)
        else:
            assert summary is None
        count += 1
    assert count >= 6
    assert spectator["is_over"]


def test_spectator_hand_and_empty_hand() -> None:
    state = new_game(1, PLAYERS)
    _png_ok(render_hand(state.view(None)))
    view = state.view(2)
    view["hand"] = []
    _png_ok(render_hand(view))


def test_long_trick_and_long_straight_fit() -> None:
    state = new_game(1, PLAYERS)
    view = state.view(None)
    view.update(
        phase="play",
        trick=[
            {
                "seat": s % 4,
                "cards": ["stork", *[f"{r}t" for r in "2 3 4 5 6 7 8 9 10 B G E M".split()]],
                "kind": "straight",
                "value": 14,
                "label": "a straight 1–Mon",
            }
            for s in range(6)
        ],
        top_seat=1,
        wish="7",
        pending={"kind": "gift", "seat": 1},
        trick_won=True,
    )
    _png_ok(render_table(view))


# ----- readable in Discord's inline preview (~550 px wide) ------------------------------------

LONG_NAMES = ["Bartholomew the Magnificent", "王小明", "Maximilian von Habsburg", "Cai"]


@pytest.mark.parametrize("seed", [5, 6])
def test_every_table_text_and_card_is_readable_at_the_preview_width(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Scaled to 550 px wide, every text on the table (the seats' statistics, names and
    badges, the trick's plays, the scores) is at least 9 px and every card 20 px tall, over
    a whole match with long names, spectator and player views (the statistics were 7 px on
    the old 1280 px table)."""
    drawn = record_drawing(
        monkeypatch, [(panda_render, "card_sprite"), (panda_render, "card_back")]
    )
    state = new_game(seed, LONG_NAMES, {"target": 300})
    rng = random.Random(seed)
    views = 0
    while not state.is_over:
        step(state, [choose] * 4, rng)
        seat = state.to_act[0] if state.to_act else 0
        for view in (state.view(None), state.view(seat)):
            table = render_table(view)
            assert table.size == TABLE_SIZE and panda_render.PREVIEW_W == PREVIEW_W
            drawn.check(table, f"{view['phase']} seen by {view['seat']}")
            views += 1
    drawn.check(render_table(state.view(None)), "game over")
    assert views > 100
    assert panda_render.MIN_TEXT * PREVIEW_W / TABLE_SIZE[0] >= 9


def test_the_hand_and_the_score_sheet_are_readable_at_the_preview_width(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A DM's hand (14 cards: two rows of 7) and the score sheet, scaled to 550 px wide:
    every text at least 9 px, every card 20 px tall (the hand's card codes were 5 px on the
    old 1390 px hand)."""
    drawn = record_drawing(monkeypatch, [(panda_render, "card_sprite")])
    state = new_game(7, LONG_NAMES, {"target": 300})
    rng = random.Random(7)
    sheets = 0
    first = render_hand(state.view(0))
    assert first.width == panda_render.HAND_W and first.height > 2 * panda_render.HAND_ROW_H
    drawn.clear()
    while not state.is_over:
        step(state, [choose] * 4, rng)
        for seat in range(4):
            drawn.check(render_hand(state.view(seat)), f"hand of {seat} at {state.phase}")
        summary = render_deal_summary(state.view(None))
        if summary is not None:
            drawn.check(summary, "score sheet")
            sheets += 1
    assert sheets
