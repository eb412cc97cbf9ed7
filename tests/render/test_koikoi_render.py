"""Koi-Koi table and hand images for varied views: valid PNGs of sensible size, highlights."""

from __future__ import annotations

import io
import random
from typing import Any

import pytest
from PIL import Image

from bot.games.hanafuda import render as hanafuda_render
from bot.games.hanafuda.cards import ALL_CARDS, PLAIN, card, card_class
from bot.games.hanafuda.render import card_height, hand_rows
from bot.games.koikoi import choose, new_game
from bot.games.koikoi import render as kr
from bot.games.koikoi.render import render_hand, render_table
from bot.render.encode import to_png
from tests.render.preview import MIN_TEXT_PX, PREVIEW_W, record_drawing

PLAINS = [c for c in ALL_CARDS if card_class(c) == PLAIN]


def make_view(**overrides: Any) -> dict[str, Any]:
    """A spectator view in the rules' format, mid-round; keys can be overridden."""
    view: dict[str, Any] = {
        "game": "koikoi",
        "seat": None,
        "players": ["Alice", "Bob"],
        "version": 12,
        "to_act": [1],
        "may_act": [],
        "scores": [6, 1],
        "is_over": False,
        "round": 3,
        "rounds": 6,
        "deal": 3,
        "dealer": 0,
        "board": ["3p1", "5a", "6r", "8p1", "9p2", "10a", "12b", "2p1"],
        "stack_count": 14,
        "hand": None,
        "hand_counts": [5, 5],
        "captures": [["1b", "1p1", "3b", "3r", "7a"], ["4a", "4p1", "11p1", "11b"]],
        "yaku": [[], []],
        "yaku_points": [0, 0],
        "koikoi": [False, False],
        "phase": "play",
        "pending": None,
        "last_play": {"seat": 0, "card": "7a", "took": ["7p1"]},
        "last_flip": {"seat": 0, "card": "2p1", "took": []},
        "history": [
            {
                "round": 1,
                "dealer": 0,
                "winner": 0,
                "points": 6,
                "reason": "stop",
                "yaku": [{"name": "Sankō", "points": 6}],
            },
            {
                "round": 2,
                "dealer": 0,
                "winner": 1,
                "points": 1,
                "reason": "stop",
                "yaku": [{"name": "Kasu", "points": 1}],
            },
        ],
        "void_deals": 0,
    }
    view.update(overrides)
    return view


def _decode(png: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(png))
    img.load()
    return img


def _check_table(view: dict[str, Any]) -> Image.Image:
    img = render_table(view)
    assert img.size == (kr.W, kr.H)
    assert 700 <= img.width <= 820  # laid out for Discord's ~550 px inline preview
    png = to_png(img)
    decoded = _decode(png)
    assert decoded.size == img.size
    assert 10_000 < len(png) < 400_000
    return img


_BIG = sorted(ALL_CARDS, key=lambda c: (card(c).cls, c))
VIEWS = {
    "mid-round spectator": make_view(),
    "empty board": make_view(board=[], last_play=None, last_flip=None),
    "16 board cards": make_view(board=list(ALL_CARDS[:16]), captures=[[], []]),
    "20 board cards": make_view(board=list(ALL_CARDS[:20]), captures=[[], []]),
    "big capture piles": make_view(
        board=[],
        stack_count=0,
        hand_counts=[0, 0],
        captures=[PLAINS[:24], [c for c in ALL_CARDS if c not in PLAINS]],
        yaku=[
            [{"name": "Kasu", "points": 15}],
            [
                {"name": "Gokō", "points": 15},
                {"name": "Tane", "points": 5},
                {"name": "Tanzaku", "points": 6},
                {"name": "Ino-Shika-Chō", "points": 5},
                {"name": "Akatan", "points": 6},
                {"name": "Aotan", "points": 6},
            ],
        ],
        yaku_points=[15, 43],
        koikoi=[True, True],
    ),
    "player view with hand": make_view(seat=1, hand=["3p2", "5p1", "7r", "9a", "11a"]),
    "choose flip": make_view(
        phase="choose_flip",
        board=["9p1", "9p2", "5a"],
        pending={"card": "9a", "options": ["9p1", "9p2"]},
    ),
    "decide": make_view(
        phase="decide",
        pending={"points": 6},
        to_act=[0],
        yaku=[[{"name": "Sankō", "points": 6}], []],
        yaku_points=[6, 0],
    ),
    "game over": make_view(
        is_over=True,
        phase="over",
        to_act=[],
        round=12,
        rounds=12,
        scores=[30, 30],
        history=[
            {
                "round": r,
                "dealer": r % 2,
                "winner": None if r % 3 == 0 else r % 2,
                "points": 5,
                "reason": "stop",
                "yaku": [{"name": "Tane", "points": 5}],
            }
            for r in range(1, 13)
        ],  # fmt: skip
    ),
    "long names": make_view(players=["A" * 60, "名前がとても長いプレイヤー" * 3]),
}


@pytest.mark.parametrize("name", list(VIEWS))
def test_table_renders_valid_png(name: str) -> None:
    _check_table(VIEWS[name])


def test_table_is_a_pure_function_of_the_view() -> None:
    view = make_view()
    assert render_table(view).tobytes() == render_table(view).tobytes()
    assert view == make_view()  # the view is not mutated


def _slot_of(view: dict[str, Any], code: str) -> tuple[int, int]:
    board = kr.sort_cards(view["board"])
    return kr._board_slots(len(board), kr._board_card_width(len(board)))[board.index(code)]


def _yellowness(img: Image.Image, xy: tuple[int, int]) -> int:
    r, g, b = img.getpixel(xy)[:3]
    return r + g - 2 * b


def test_last_play_left_on_the_board_is_highlighted() -> None:
    with_hl = make_view(last_play={"seat": 0, "card": "5a", "took": []}, last_flip=None)
    without = make_view(last_play=None, last_flip=None)
    x, y = _slot_of(with_hl, "5a")
    probe = (x + kr.BOARD_CARD_W // 2, y - 4)  # just above the card: the halo
    assert (
        _yellowness(render_table(with_hl), probe) > _yellowness(render_table(without), probe) + 60
    )


def test_flip_options_glow_green() -> None:
    view = VIEWS["choose flip"]
    img = render_table(view)
    x, y = _slot_of(view, "9p1")
    r, g, b = img.getpixel((x + kr.BOARD_CARD_W // 2, y - 4))[:3]
    assert g > r + 40 and g > b + 40


def test_acting_player_panel_is_outlined() -> None:
    # spectators see seat 1 at the top; the gold ring sits just outside its info panel
    probe = (kr.M + kr.INFO_W // 2, kr.TOP_Y - 1)
    acting = render_table(make_view(to_act=[1])).getpixel(probe)
    waiting = render_table(make_view(to_act=[0])).getpixel(probe)
    assert acting[0] > 180 and acting[1] > 140
    assert waiting[0] < 120


def test_viewer_sits_at_the_bottom() -> None:
    assert kr._seats(make_view(seat=1)) == (0, 1)
    assert kr._seats(make_view(seat=0)) == (1, 0)
    assert kr._seats(make_view(seat=None)) == (1, 0)


@pytest.mark.parametrize(
    "hand,board",
    [
        ([], []),
        (["1b"], ["1p1"]),
        (
            ["1b", "2a", "3r", "4p1", "5p2", "8b", "9a", "12p3"],
            ["1p1", "8p1", "8p2", "9p1", "9p2", "9r"],
        ),
    ],
)
def test_hand_renders_valid_png(hand: list[str], board: list[str]) -> None:
    view = make_view(seat=0, hand=hand, board=board)
    img = render_hand(view)
    rows, per_row = hand_rows(len(hand))  # eight cards: two rows of four
    assert img.width >= per_row * kr.HAND_CARD_W
    assert img.height > rows * card_height(kr.HAND_CARD_W)
    png = to_png(img)
    assert _decode(png).size == img.size


def test_hand_marks_cards_that_match_the_board() -> None:
    view = make_view(seat=0, hand=["1b", "2a"], board=["1p1", "5p1"])
    img = render_hand(view)
    cw, ch = kr.HAND_CARD_W, card_height(kr.HAND_CARD_W)
    left = (img.width - (2 * cw + 14)) // 2
    top = 64

    def greenness(x: int) -> int:
        r, g, b = img.getpixel((x + cw // 2, top + ch + 16))[:3]  # the badge under the card
        return g - (r + b) // 2

    assert greenness(left) > 60  # 1b matches 1p1
    assert greenness(left + cw + 14) < 30  # 2a matches nothing


def test_random_real_states_render() -> None:
    """Views of real matches (random legal play) render for every seat and spectators."""
    rng = random.Random(5)
    for seed in range(3):
        state = new_game(seed, ["Ann", "Ben"])
        step = 0
        while not state.is_over and step < 400:
            if step % 17 == 0:
                for seat in (None, 0, 1):
                    view = state.view(seat)
                    _check_table(view)
                    if seat is not None:
                        render_hand(view)
            seat = state.to_act[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
            step += 1
        _check_table(state.view(None))


def test_every_hand_text_and_card_is_readable_at_the_preview_width(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A DM's hand (eight cards: two rows of four), scaled to 550 px wide: every text (the
    notes, the names, the title) at least 9 px and every card 20 px tall, over real matches
    (the notes and names were 6-7 px on the old 1034 px row of eight)."""
    drawn = record_drawing(monkeypatch, [(hanafuda_render, "card_image")])
    rng = random.Random(8)
    for seed in (1, 2):
        state = new_game(seed, ["Bartholomew the Magnificent", "王小明"])
        while not state.is_over:
            seat = state.to_act[0]
            drawn.check(render_hand(state.view(seat)), f"hand at {state.phase}")
            state.apply(seat, rng.choice(state.legal_actions(seat)))


@pytest.mark.parametrize("seed", [1, 2])
def test_every_table_text_and_card_is_readable_at_the_preview_width(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Scaled to 550 px wide, every text on the table (the names, NOW, TO PLAY, the last
    play's and flip's headers, the capture-pile labels, the yaku, the match's rounds) is at
    least 9 px and every card at least 20 px tall: over a whole 12-round match of AI
    players (Koi-Koi calls, flip choices), spectator and player views, a long and a CJK
    name, the end in English and Japanese (they were 5.2-5.4 px on the old 1060 px table)."""
    drawn = record_drawing(
        monkeypatch, [(hanafuda_render, "card_image"), (hanafuda_render, "card_back")]
    )
    rng = random.Random(seed)
    state = new_game(seed, ["Bartholomew the Magnificent", "王小明"], {"rounds": 12})
    phases: set[str] = set()
    step = 0
    while not state.is_over:
        seat = state.to_act[0]
        if step % 5 == 0 or state.phase != "play":
            phases.add(state.phase)
            for viewer in (None, seat):
                table = render_table(state.view(viewer))
                assert table.width == kr.W
                drawn.check(table, f"{state.phase} at step {step} seen by {viewer}")
        state.apply(seat, choose(state.view(seat), state.legal_actions(seat), rng))
        step += 1
    for locale in ("en-US", "ja"):
        drawn.check(render_table(state.view(None), locale), f"match over in {locale}")
    assert {"play", "decide", "choose_flip"} <= phases
    assert hanafuda_render.TABLE_MIN_TEXT * PREVIEW_W / kr.W >= MIN_TEXT_PX
