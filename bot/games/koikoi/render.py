"""Koi-Koi table and hand images: pure functions of a view dict (see ``rules.py``).

Layout of the table (the viewer's seat at the bottom; a spectator sees seat 0 there):

    [opponent info][hand backs][captures: brights | animals | ribbons | plains]
    [round + stack][            board (2 rows of 8)             ][now / last move]
    [viewer   info][hand      ][captures: brights | animals | ribbons | plains]

The pieces both hanafuda games draw live in :mod:`bot.games.hanafuda.render`. The felt,
the panels and the empty capture slots form a cached base layer; a render copies it and
pastes cached card sprites.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from bot.games.hanafuda.cards import ANIMAL, BRIGHT, CLASS_ORDER, PLAIN, RIBBON, card, sort_cards
from bot.games.hanafuda.render import (
    CLASS_MARK,
    CLASS_WORD,
    HAND_CARD_W,
    LAST_MOVES,
    MATCH_TEXT,
    MONTH_KANJI,
    MOVE_CARD_W,
    NO_MATCH_FILL,
    NO_MATCH_TEXT,
    HandNote,
    PasteCard,
    TableLayout,
    card_height,
    draw_banner_panel,
    draw_capture_piles,
    draw_field,
    draw_hand_cards,
    draw_hand_slot,
    draw_last_move,
    draw_name_row,
    draw_now,
    draw_pending_flip,
    draw_side_note,
    draw_stack_pile,
    draw_text_columns,
    draw_turn_ring,
    draw_turn_tab,
    field_card_width,
    field_slots,
    hand_sheet,
    move_highlights,
    paste_card,
    png_palette_for,
    ribbon_short_name,
    seat_name,
    seats_top_bottom,
    table_base,
    turn_label,
)
from bot.render.draw import GOLD, MATCH_GREEN, MUTED, WHITE, Draw, badge, fit_text
from bot.render.fonts import font

View = Mapping[str, Any]

LAYOUT = TableLayout(
    width=1060,
    height=604,
    strip_h=148,
    mid_h=260,
    # Width each class pile may use, sized for its largest realistic count (24 plains squeeze).
    class_width={BRIGHT: 122, ANIMAL: 156, RIBBON: 156, PLAIN: 186},
    pile_label_dy=10,
    pile_cards_dy=38,
    hand_cards_dy=36,
    field_card_w=70,
)
W, H = LAYOUT.width, LAYOUT.height
M = LAYOUT.margin
INFO_W = LAYOUT.info_w
TOP_Y, MID_Y, BOT_Y = LAYOUT.top_y, LAYOUT.mid_y, LAYOUT.bot_y
BOARD_CARD_W = LAYOUT.field_card_w
STACK_CARD_W = 80
KOIKOI_RED = (214, 48, 52)
PHASE_TURN = {"decide": "DECIDING", "choose_flip": "CHOOSING"}

YAKU_KANJI = {
    "Kasu": "カス",
    "Tanzaku": "短冊",
    "Tane": "タネ",
    "Ino-Shika-Chō": "猪鹿蝶",
    "Akatan": "赤短",
    "Aotan": "青短",
    "Sankō": "三光",
    "Ame-Shikō": "雨四光",
    "Shikō": "四光",
    "Gokō": "五光",
}


@lru_cache(maxsize=2)
def _base() -> Image.Image:
    return table_base(LAYOUT)


def _board_slots(n: int, cw: int) -> list[tuple[int, int]]:
    """Top-left corners for n board cards: two rows of 8 (more columns if needed)."""
    return field_slots(LAYOUT, n, cw)


def _board_card_width(n: int) -> int:
    return field_card_width(LAYOUT, n)


def _seats(view: View) -> tuple[int, int]:
    return seats_top_bottom(view)


# ----------------------------------------------------------------------------- pieces


def _paster(img: Image.Image, hl: Mapping[str, tuple], *, halo: bool = True) -> PasteCard:
    """Paste cards on ``img``, a highlighted one with a halo (loose) or a ring (fanned)."""

    def paste(code: str, width: int, xy: tuple[int, int]) -> None:
        paste_card(img, code, width, xy, hl.get(code), halo=halo)

    return paste


def _player_strip(img: Image.Image, view: View, seat: int, y: int, hl: Mapping[str, tuple]) -> None:
    d = Draw(img)
    boxes = LAYOUT.strip_boxes(y)
    info = boxes["info"]
    x0, y0, x1, _ = info
    turn = turn_label(view, seat, PHASE_TURN)
    if turn:
        draw_turn_ring(d, info)
    draw_name_row(
        d, info, seat_name(view, seat), "親 Dealer" if view.get("dealer") == seat else None
    )

    # score row
    scores = view.get("scores") or [0, 0]
    d.text((x0 + 10, y0 + 50), "Score", font=font(14), fill=MUTED, anchor="lm")
    d.text((x0 + 56, y0 + 50), str(scores[seat]), font=font(24, True), fill=GOLD, anchor="lm")
    if (view.get("koikoi") or [False, False])[seat] and not view.get("is_over"):
        badge(
            d,
            (x1 - 8, y0 + 41),
            "こいこい Koi-Koi!",
            13,
            fill=KOIKOI_RED,
            text_fill=WHITE,
            anchor="ra",
        )
    if turn:
        draw_turn_tab(d, info, turn)
    _yaku_lines(d, view, seat, x0, y0 + 72)
    draw_hand_slot(img, view, seat, boxes["hand"], LAYOUT.hand_cards_dy)
    _captures(img, view, seat, y, hl)


def _yaku_lines(d: ImageDraw.ImageDraw, view: View, seat: int, x0: int, ty: int) -> None:
    yaku = (view.get("yaku") or [[], []])[seat]
    points = (view.get("yaku_points") or [0, 0])[seat]
    if not yaku:
        d.text((x0 + 10, ty + 8), "No yaku yet", font=font(14), fill=(170, 180, 170), anchor="lm")
        return
    d.text((x0 + 10, ty + 8), f"Yaku  {points} pts", font=font(15, True), fill=WHITE, anchor="lm")
    two_cols = len(yaku) > 3
    lines = [
        f"{y['name']} {y['points']}"
        if two_cols
        else f"{YAKU_KANJI.get(y['name'], '')} {y['name']} {y['points']}".strip()
        for y in yaku
    ]
    col_w = (INFO_W - 20) // (2 if two_cols else 1)
    for i, line in enumerate(lines[:6]):
        col, row = divmod(i, 3) if len(lines) > 3 else (0, i)
        text, size = fit_text(line, col_w - 6, 13, min_size=10)
        d.text(
            (x0 + 10 + col * col_w, ty + 28 + row * 17),
            text,
            font=font(size),
            fill=(236, 230, 200),
            anchor="lm",
        )


def _captures(img: Image.Image, view: View, seat: int, y: int, hl: Mapping[str, tuple]) -> None:
    caps = (view.get("captures") or [[], []])[seat]
    piles: dict[str, list[str]] = {cls: [] for cls in CLASS_ORDER}
    for code in sort_cards(caps):
        piles[card(code).cls].append(code)
    labels = {cls: f"{CLASS_MARK[cls]} {CLASS_WORD[cls]} {len(piles[cls])}" for cls in piles}
    draw_capture_piles(img, LAYOUT, y, piles, labels, _paster(img, hl, halo=False))


def _stack_column(img: Image.Image, view: View) -> None:
    d = Draw(img)
    box = LAYOUT.side_box
    x0, y0, x1, _ = box
    cx = (x0 + x1) // 2
    title = f"Round {view.get('round', 1)} / {view.get('rounds', 6)}"
    d.text((cx, y0 + 20), title, font=font(19, True), fill=WHITE, anchor="mm")
    n = int(view.get("stack_count", 0))
    top = y0 + 44
    draw_stack_pile(img, cx, top, STACK_CARD_W, n, depth=min(4, (n + 5) // 6))
    label_y = top + card_height(STACK_CARD_W) + 24
    d.text((cx, label_y), "Stack", font=font(14, True), fill=MUTED, anchor="mm")
    history = view.get("history") or []
    if history and not view.get("is_over"):
        last = history[-1]
        players = view.get("players", ["?", "?"])
        if last.get("winner") is None:
            text = f"R{last['round']}: draw"
        else:
            text = f"R{last['round']}: {players[last['winner']]} +{last['points']}"
        draw_side_note(d, box, text, bottom_gap=18)


def _board(img: Image.Image, view: View, hl: Mapping[str, tuple]) -> None:
    board = sort_cards(view.get("board") or [])
    draw_field(img, LAYOUT, board, _paster(img, hl), "The board is empty")


def _now_text(view: View, width: int) -> str:
    players = view.get("players", ["?", "?"])
    to_act = view.get("to_act") or []
    if view.get("is_over"):
        return "Match over"
    if not to_act:
        return "Waiting…"
    who = fit_text(str(players[to_act[0]]), width * 2 // 3, 16, bold=True, min_size=16)[0]
    pending = view.get("pending") or {}
    return {
        "decide": f"{who}: Koi-Koi or stop? ({pending.get('points', '?')} pts)",
        "choose_flip": f"{who}: choose what the flip takes",
    }.get(view.get("phase") or "", f"{who} to play")


def _status_column(img: Image.Image, view: View) -> None:
    box = LAYOUT.status_box
    x0, y0, x1, y1 = box
    players = view.get("players", ["?", "?"])
    y = draw_now(Draw(img), box, _now_text(view, x1 - x0 - 20), max_lines=2)
    pending = view.get("pending") or {}
    if view.get("phase") == "choose_flip" and pending.get("card"):
        y = draw_pending_flip(img, x0, y, pending["card"])
    for key, title, colour in LAST_MOVES:
        move = view.get(key)
        if not move or y + card_height(MOVE_CARD_W) + 20 > y1:
            continue
        who = players[move["seat"]] if move.get("seat") is not None else ""
        y = draw_last_move(
            img, box, y, f"{title} · {who}", colour, move, _paster(img, {}), "stays on\nthe board"
        )


def _banner(img: Image.Image, view: View) -> None:
    """The final result across the middle of the table."""
    players = view.get("players", ["?", "?"])
    scores = view.get("scores") or [0, 0]
    box = (M + 60, MID_Y + 12, W - M - 60, MID_Y + LAYOUT.mid_h - 12)
    d = draw_banner_panel(img, box)
    cx = (box[0] + box[2]) // 2
    if scores[0] == scores[1]:
        headline = f"Tie  {scores[0]} – {scores[1]}"
    else:
        win = 0 if scores[0] > scores[1] else 1
        headline = f"{players[win]} wins  {scores[win]} – {scores[1 - win]}"
    headline, size = fit_text(headline, box[2] - box[0] - 40, 34, bold=True, min_size=18)
    d.text((cx, box[1] + 20), "MATCH OVER", font=font(15, True), fill=MUTED, anchor="mm")
    d.text((cx, box[1] + 52), headline, font=font(size, True), fill=GOLD, anchor="mm")
    lines = []
    for h in view.get("history") or []:
        if h.get("winner") is None:
            lines.append(f"Round {h['round']}: draw")
        else:
            names = ", ".join(y["name"] for y in h.get("yaku", [])) or h.get("reason", "")
            lines.append(f"Round {h['round']}: {players[h['winner']]} +{h['points']}  ({names})")
    draw_text_columns(
        d,
        lines,
        cx=cx,
        top=box[1] + 82,
        avail_w=box[2] - box[0] - 60,
        max_col_w=460,
        size=15,
        line_h=21,
    )


# ----------------------------------------------------------------------------- public


def render_table(view: View, locale: str = "en-US") -> Image.Image:
    """The public table image (1060 x 604) for a Koi-Koi view."""
    img = _base().copy()
    hl = move_highlights(view)
    top, bottom = _seats(view)
    _player_strip(img, view, top, TOP_Y, hl)
    _player_strip(img, view, bottom, BOT_Y, hl)
    _stack_column(img, view)
    _board(img, view, hl)
    _status_column(img, view)
    if view.get("is_over"):
        _banner(img, view)
    return img


def _short_name(code: str) -> str:
    c = card(code)
    if c.cls == RIBBON:
        return ribbon_short_name(code)
    if c.cls == PLAIN and code != "11p1":
        return "Plain"
    return c.name


def _hand_note(code: str, board_months: Mapping[int, int]) -> HandNote:
    """What a hand card would take from the board now."""
    month = card(code).month
    k = board_months.get(month, 0)
    if not k:
        return HandNote("no match", NO_MATCH_FILL, NO_MATCH_TEXT, size=12)
    text = f"{MONTH_KANJI[month]} takes {'all 3' if k == 3 else k}" if k != 2 else "choose 1 of 2"
    return HandNote("✓ " + text, MATCH_GREEN, MATCH_TEXT, glow=True)


def render_hand(view: View, locale: str = "en-US") -> Image.Image:
    """The seat's own hand, large, with a marker on the cards that match a board card."""
    hand: Sequence[str] = view.get("hand") or []
    board_months: dict[int, int] = {}
    for code in view.get("board") or []:
        m = card(code).month
        board_months[m] = board_months.get(m, 0) + 1
    title = f"Your hand · Round {view.get('round', 1)} / {view.get('rounds', 6)}"
    matches = sum(1 for c in hand if card(c).month in board_months)
    info = f"{len(hand)} cards · {matches} match the board"
    img, _ = hand_sheet(len(hand), 560, 58, title, info)
    if hand:
        notes = [_hand_note(c, board_months) for c in hand]
        draw_hand_cards(img, hand, notes, [_short_name(c) for c in hand], name_dy=44)
    return img


@lru_cache(maxsize=1)
def png_palette() -> Image.Image:
    """The fixed palette every image of this game is encoded with (once per process)."""
    return png_palette_for(_base(), (LAYOUT.capture_card_w, LAYOUT.field_card_w))


__all__ = ["HAND_CARD_W", "render_hand", "render_table"]
