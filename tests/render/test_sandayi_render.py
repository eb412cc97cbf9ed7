"""San Da Yi renderers: valid images for varied views (every phase, spectator, game over)."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image, ImageChops

from bot.games import sandayi
from bot.games.sandayi import render
from bot.games.sandayi.arena import ai_policy
from bot.games.sandayi.cards import DECK
from bot.render.encode import to_png
from tests.render.preview import PREVIEW_W, record_drawing

PLAYERS = ["Ann", "Bob the Builder with a very long name", "Cai", "Dee"]


def _decode(png: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(png))
    img.load()
    return img


def _views_of_a_match(seed: int) -> list[dict]:
    """Views at interesting moments of a 2-hand match with AI players (+ one forced bid)."""
    state = sandayi.new_game(seed, PLAYERS, {"hands": 2})
    rng = random.Random(seed)
    views = []
    step = 0
    while not state.is_over:
        seat = state.to_act[0]
        if state.phase == "bidding" and not state.bids:
            code = rng.choice([c for c in state.legal_actions(seat) if c != "pass"])
        elif state.phase == "bidding":
            code = "pass"
        else:
            code = ai_policy(state, seat, rng)
        if step % 7 == 0 or state.phase in ("bury", "trump"):
            views.append(state.view(None))
            views.append(state.view(seat))
        state.apply(seat, code)
        step += 1
    views.append(state.view(None))
    views.append(state.view(2))
    return views


@pytest.mark.parametrize("seed", [1, 2])
def test_table_hand_and_summary_render_for_every_phase(seed: int) -> None:
    phases = set()
    for view in _views_of_a_match(seed):
        phases.add(view["phase"])
        table = render.render_table(view)
        assert table.size == (render.W, render.H)
        assert _decode(to_png(table)).size == table.size
        hand = render.render_hand(view)
        assert hand.width == render.HAND_W and hand.height > 100
        summary = render.render_deal_summary(view)
        if view["history"]:
            assert summary is not None and summary.width >= 600
        else:
            assert summary is None
    assert phases == {"bidding", "bury", "trump", "play", "over"}


def test_every_card_has_its_own_face_and_jokers_differ() -> None:
    faces = {}
    for card in DECK:
        img = render.card_image(card, 60)
        assert img.size == (60, render.card_height(60))
        faces[card] = img.tobytes()
    assert len(set(faces.values())) == 54
    big = render.card_image("BJ", 60).convert("RGB")
    small = render.card_image("SJ", 60).convert("RGB")
    assert ImageChops.difference(big, small).getbbox() is not None
    assert render.card_back(60).size == (60, render.card_height(60))


def test_spectator_table_shows_no_hand_and_hand_render_for_spectator() -> None:
    state = sandayi.new_game(4, PLAYERS, {"hands": 1})
    view = state.view(None)
    assert view["hand"] is None
    img = render.render_hand(view)
    assert img.width > 0
    assert render.render_table(view).size == (render.W, render.H)


def test_bury_hand_of_18_cards_fits() -> None:
    state = sandayi.new_game(5, PLAYERS, {"hands": 1})
    seat = state.to_act[0]
    state.apply(seat, "bid 70")
    while state.phase == "bidding":
        state.apply(state.to_act[0], "pass")
    view = state.view(seat)
    assert len(view["hand"]) == 18
    img = render.render_hand(view)
    assert img.width == render.HAND_W
    # Nothing drawn past the right margin (cards stay inside the image).
    right_strip = img.crop((img.width - 8, 60, img.width, img.height - 40)).convert("L")
    assert right_strip.getextrema()[1] < 200


def test_table_png_is_small() -> None:
    view = _views_of_a_match(3)[10]
    png = to_png(render.render_table(view))
    assert len(png) < 400_000


# ----- readable in Discord's inline preview (~550 px wide) ------------------------------------


@pytest.mark.parametrize("seed", [1, 2])
def test_every_table_text_and_card_is_readable_at_the_preview_width(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Scaled to 550 px wide, every text on the table (seats, bid, trump, points, the
    bidding, the last trick's names, the totals, the settlement) is at least 9 px, every
    card at least 20 px tall: over a whole match, spectator and player views, with a long
    name (it was 6 px for the sidebars on the old 1160 px table)."""
    drawn = record_drawing(monkeypatch, [(render, "card_image"), (render, "card_back")])
    for view in _views_of_a_match(seed):
        table = render.render_table(view)
        assert table.width == render.W and render.PREVIEW_W == PREVIEW_W
        drawn.check(table, f"{view['phase']} seen by {view['seat']}")
    assert render.MIN_TEXT * PREVIEW_W / render.W >= 9


@pytest.mark.parametrize("seed", [1, 2])
def test_the_hand_and_the_score_sheet_are_readable_at_the_preview_width(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A DM's hand (18 cards at the kitty: two rows of suits) and the score sheet, scaled to
    550 px wide: every text at least 9 px, every card 20 px tall (the hand's suit names and
    the sheet's conditions were 5-7 px on the old 1200 and 900 px pictures)."""
    drawn = record_drawing(monkeypatch, [(render, "card_image"), (render, "card_back")])
    sheets = rows = 0
    for view in _views_of_a_match(seed):
        if view["seat"] is not None:
            hand = render.render_hand(view)
            drawn.check(hand, f"hand at {view['phase']}")
            rows = max(rows, len(render._hand_rows(render._hand_groups(view["hand"], None))[0]))
        summary = render.render_deal_summary(view)
        if summary is not None:
            assert summary.width == render.SHEET_W
            drawn.check(summary, "score sheet")
            sheets += 1
    assert sheets and rows == 2  # the 18 cards of the kitty take two rows
