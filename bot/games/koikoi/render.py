"""Koi-Koi table and hand images: pure functions of a view dict (see ``rules.py``).

Layout of the table (the viewer's seat at the bottom; a spectator sees seat 0 there):

    [opponent info][hand backs][captures: brights | animals | ribbons | plains]
    [round + stack][            board (2 rows of 8)             ][now / last move]
    [viewer   info][hand      ][captures: brights | animals | ribbons | plains]

The felt, the panels and the empty capture slots form a cached base layer; a render
copies it and pastes cached card sprites.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from bot.games.hanafuda.cards import ANIMAL, BRIGHT, CLASS_ORDER, PLAIN, RIBBON, card, sort_cards
from bot.games.hanafuda.render import MONTH_KANJI, card_back, card_height, card_image
from bot.render.draw import (
    GOLD,
    HIGHLIGHT,
    MATCH_GREEN,
    MUTED,
    WHITE,
    badge,
    felt,
    fit_text,
    glow,
    panel,
    paste_with_shadow,
)
from bot.render.fonts import font

View = Mapping[str, Any]

W, H = 1140, 660
M = 12  # outer margin
GAP = 10

INFO_W = 236
HAND_W = 104
STRIP_H = 150
MID_H = 300

BOARD_CARD_W = 80
CAPTURE_CARD_W = 54
BACK_W = 36
MOVE_CARD_W = 44
STACK_CARD_W = 80

PLAY_COLOUR = HIGHLIGHT  # the last card played (and what it took)
FLIP_COLOUR = (110, 200, 255)  # the last card flipped (and what it took)
OPTION_COLOUR = MATCH_GREEN  # board cards a pending flip may take
TURN_COLOUR = GOLD
KOIKOI_RED = (214, 48, 52)

CLASS_LABEL = {
    BRIGHT: ("光", "Brights"),
    ANIMAL: ("種", "Animals"),
    RIBBON: ("短", "Ribbons"),
    PLAIN: ("カス", "Plains"),
}
CLASS_COLOUR = {
    BRIGHT: (214, 42, 36),
    ANIMAL: (38, 112, 64),
    RIBBON: (120, 60, 150),
    PLAIN: (100, 96, 90),
}
# Width each class pile may use, sized for its largest realistic count (24 plains squeeze).
CLASS_WIDTH = {BRIGHT: 146, ANIMAL: 190, RIBBON: 190, PLAIN: 206}
MAX_STEP = 24

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

# ----------------------------------------------------------------------------- layout

TOP_Y = M
MID_Y = TOP_Y + STRIP_H + GAP
BOT_Y = MID_Y + MID_H + GAP
CAPTURES_X = M + INFO_W + GAP + HAND_W + GAP
CAPTURES_W = W - M - CAPTURES_X

STACK_COL_W = 150
STATUS_X = M + STACK_COL_W + GAP + 8 * BOARD_CARD_W + 7 * 8 + 2 * GAP
BOARD_BOX = (M + STACK_COL_W + GAP, MID_Y, STATUS_X - GAP, MID_Y + MID_H)
STATUS_BOX = (STATUS_X, MID_Y, W - M, MID_Y + MID_H)
STACK_BOX = (M, MID_Y, M + STACK_COL_W, MID_Y + MID_H)


def _strip_boxes(y: int) -> dict[str, tuple[int, int, int, int]]:
    return {
        "info": (M, y, M + INFO_W, y + STRIP_H),
        "hand": (M + INFO_W + GAP, y, M + INFO_W + GAP + HAND_W, y + STRIP_H),
        "captures": (CAPTURES_X, y, W - M, y + STRIP_H),
    }


def _class_x0() -> dict[str, int]:
    inner = CAPTURES_W - 24
    spare = (inner - sum(CLASS_WIDTH.values())) // 3
    x = CAPTURES_X + 12
    out = {}
    for cls in CLASS_ORDER:
        out[cls] = x
        x += CLASS_WIDTH[cls] + spare
    return out


CLASS_X0 = _class_x0()
CAPTURE_LABEL_H = 24


@lru_cache(maxsize=2)
def _base() -> Image.Image:
    """Felt, panels and empty capture slots: everything that does not depend on the view."""
    img = felt((W, H)).convert("RGB")
    for y in (TOP_Y, BOT_Y):
        boxes = _strip_boxes(y)
        for box in boxes.values():
            panel(img, box)
        d = ImageDraw.Draw(img)
        ch = card_height(CAPTURE_CARD_W)
        cy = y + 10 + CAPTURE_LABEL_H
        for cls in CLASS_ORDER:
            x = CLASS_X0[cls]
            d.rounded_rectangle(
                (x, cy, x + CAPTURE_CARD_W, cy + ch), radius=5, outline=(64, 104, 84), width=1
            )
    for box in (STACK_BOX, BOARD_BOX, STATUS_BOX):
        panel(img, box, fill=(0, 0, 0, 60))
    return img


def _board_slots(n: int, cw: int) -> list[tuple[int, int]]:
    """Top-left corners for n board cards: two rows of 8 (more columns if needed)."""
    x0, y0, x1, y1 = BOARD_BOX
    cols = max(8, math.ceil(n / 2))
    ch = card_height(cw)
    gap_x = 8 if cols == 8 else max(2, (x1 - x0 - 2 * GAP - cols * cw) // max(1, cols - 1))
    total_w = cols * cw + (cols - 1) * gap_x
    left = x0 + (x1 - x0 - total_w) // 2
    rows = 2
    gap_y = 12
    top = y0 + (y1 - y0 - rows * ch - gap_y) // 2
    return [(left + (i % cols) * (cw + gap_x), top + (i // cols) * (ch + gap_y)) for i in range(n)]


def _board_card_width(n: int) -> int:
    if n <= 16:
        return BOARD_CARD_W
    x0, _, x1, _ = BOARD_BOX
    cols = math.ceil(n / 2)
    return max(40, (x1 - x0 - 2 * GAP - (cols - 1) * 4) // cols)


# ----------------------------------------------------------------------------- pieces


def _paste_card(
    img: Image.Image,
    code: str,
    width: int,
    xy: tuple[int, int],
    hl: Mapping[str, tuple],
    *,
    halo: bool = True,
) -> None:
    """Paste a card; a highlighted one gets a halo (loose cards) or a crisp ring (fanned piles)."""
    sprite = card_image(code, width)
    colour = hl.get(code)
    if colour and halo:
        g = glow(sprite.size, colour, spread=8)
        img.paste(g, (xy[0] - 8, xy[1] - 8), g)
    paste_with_shadow(img, sprite, xy)
    if colour and not halo:
        x, y = xy
        ImageDraw.Draw(img).rounded_rectangle(
            (x - 2, y - 2, x + sprite.width + 1, y + sprite.height + 1),
            radius=6,
            outline=colour,
            width=3,
        )


def _highlights(view: View) -> dict[str, tuple]:
    hl: dict[str, tuple] = {}
    for key, colour in (("last_play", PLAY_COLOUR), ("last_flip", FLIP_COLOUR)):
        move = view.get(key)
        if move:
            for code in (move["card"], *move.get("took", [])):
                hl[code] = colour
    pending = view.get("pending") or {}
    for code in pending.get("options", []) if view.get("phase") == "choose_flip" else []:
        hl[code] = OPTION_COLOUR
    return hl


def _turn_label(view: View, seat: int) -> str | None:
    if view.get("is_over") or seat not in view.get("to_act", []):
        return None
    phase = view.get("phase")
    if phase == "decide":
        return "DECIDING"
    if phase == "choose_flip":
        return "CHOOSING"
    return "TO PLAY"


def _player_strip(
    img: Image.Image, view: View, seat: int, y: int, hl: Mapping[str, tuple], bottom: bool
) -> None:
    d = ImageDraw.Draw(img)
    boxes = _strip_boxes(y)
    x0, y0, x1, y1 = boxes["info"]
    turn = _turn_label(view, seat)
    if turn:
        d.rounded_rectangle(
            (x0 - 2, y0 - 2, x1 + 2, y1 + 2), radius=12, outline=TURN_COLOUR, width=3
        )

    players = view.get("players", ["?", "?"])
    name = str(players[seat]) if seat < len(players) else f"Seat {seat + 1}"
    # name row with dealer badge
    bx = x1 - 8
    if view.get("dealer") == seat:
        box = badge(
            d,
            (bx, y0 + 11),
            "親 Dealer",
            13,
            fill=(250, 240, 220),
            text_fill=(40, 30, 30),
            anchor="ra",
        )
        bx = box[0] - 6
    text, size = fit_text(name, bx - x0 - 14, 22, bold=True, min_size=13)
    d.text((x0 + 10, y0 + 20), text, font=font(size, True), fill=WHITE, anchor="lm")

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
    if turn:  # a tab on the panel's top edge
        badge(
            d,
            (x1 - 14, y0 - 9),
            "▶ " + turn,
            12,
            fill=TURN_COLOUR,
            text_fill=(30, 24, 10),
            anchor="ra",
        )

    # yaku
    yaku = (view.get("yaku") or [[], []])[seat]
    points = (view.get("yaku_points") or [0, 0])[seat]
    ty = y0 + 72
    if not yaku:
        d.text((x0 + 10, ty + 8), "No yaku yet", font=font(14), fill=(170, 180, 170), anchor="lm")
    else:
        d.text(
            (x0 + 10, ty + 8), f"Yaku  {points} pts", font=font(15, True), fill=WHITE, anchor="lm"
        )
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

    _hand_slot(img, view, seat, boxes["hand"], bottom)
    _captures(img, view, seat, y, hl)


def _hand_slot(
    img: Image.Image, view: View, seat: int, box: tuple[int, int, int, int], bottom: bool
) -> None:
    d = ImageDraw.Draw(img)
    x0, y0, x1, y1 = box
    counts = view.get("hand_counts") or [0, 0]
    n = counts[seat]
    own = view.get("hand") if view.get("seat") == seat else None
    d.text(((x0 + x1) // 2, y0 + 16), f"Hand {n}", font=font(14, True), fill=MUTED, anchor="mm")
    if n == 0:
        return
    cw = BACK_W
    step = min(12, (x1 - x0 - 16 - cw) / max(1, n - 1))
    total = cw + step * (n - 1)
    left = x0 + (x1 - x0 - total) / 2
    top = y0 + 34
    for i in range(n):
        sprite = card_image(own[i], cw) if own and i < len(own) else card_back(cw)
        paste_with_shadow(img, sprite, (round(left + i * step), top), offset=(1, 2))


def _captures(img: Image.Image, view: View, seat: int, y: int, hl: Mapping[str, tuple]) -> None:
    d = ImageDraw.Draw(img)
    caps = (view.get("captures") or [[], []])[seat]
    groups: dict[str, list[str]] = {cls: [] for cls in CLASS_ORDER}
    for code in sort_cards(caps):
        groups[card(code).cls].append(code)
    cw = CAPTURE_CARD_W
    cy = y + 10 + CAPTURE_LABEL_H
    for cls in CLASS_ORDER:
        x = CLASS_X0[cls]
        kanji, word = CLASS_LABEL[cls]
        cards = groups[cls]
        label = f"{kanji} {word} {len(cards)}"
        fill = CLASS_COLOUR[cls] if cards else (60, 70, 64)
        badge(d, (x, y + 8), label, 13, fill=fill, text_fill=WHITE if cards else (150, 160, 150))
        if not cards:
            continue
        n = len(cards)
        step = min(MAX_STEP, (CLASS_WIDTH[cls] - cw) / max(1, n - 1))
        for i, code in enumerate(cards):
            _paste_card(img, code, cw, (round(x + i * step), cy), hl, halo=False)


def _stack_column(img: Image.Image, view: View) -> None:
    d = ImageDraw.Draw(img)
    x0, y0, x1, y1 = STACK_BOX
    cx = (x0 + x1) // 2
    d.text(
        (cx, y0 + 20),
        f"Round {view.get('round', 1)} / {view.get('rounds', 6)}",
        font=font(19, True),
        fill=WHITE,
        anchor="mm",
    )
    n = int(view.get("stack_count", 0))
    cw = STACK_CARD_W
    ch = card_height(cw)
    left = cx - cw // 2 - 4
    top = y0 + 44
    if n:
        depth = min(4, (n + 5) // 6)
        back = card_back(cw)
        for i in range(depth):
            paste_with_shadow(img, back, (left + i * 2, top + depth * 2 - i * 2), offset=(1, 2))
        badge(
            d,
            (cx, top + ch // 2 + 4),
            str(n),
            20,
            fill=(250, 244, 226),
            text_fill=(30, 24, 24),
            anchor="mm",
        )
    else:
        d.rounded_rectangle(
            (left, top, left + cw, top + ch), radius=7, outline=(90, 130, 110), width=2
        )
        d.text((cx, top + ch // 2), "empty", font=font(14), fill=MUTED, anchor="mm")
    d.text((cx, top + ch + 24), "Stack", font=font(14, True), fill=MUTED, anchor="mm")
    history = view.get("history") or []
    if history and not view.get("is_over"):
        last = history[-1]
        players = view.get("players", ["?", "?"])
        if last.get("winner") is None:
            text = f"R{last['round']}: draw"
        else:
            text = f"R{last['round']}: {players[last['winner']]} +{last['points']}"
        text, size = fit_text(text, x1 - x0 - 12, 13, min_size=10)
        d.text((cx, y1 - 18), text, font=font(size), fill=(220, 220, 200), anchor="mm")


def _board(img: Image.Image, view: View, hl: Mapping[str, tuple]) -> None:
    board = sort_cards(view.get("board") or [])
    cw = _board_card_width(len(board))
    d = ImageDraw.Draw(img)
    ch = card_height(BOARD_CARD_W)
    for x, y in _board_slots(16, BOARD_CARD_W)[len(board) :]:  # faint outlines of the free places
        d.rounded_rectangle(
            (x, y, x + BOARD_CARD_W, y + ch), radius=7, outline=(70, 120, 96), width=1
        )
    for code, xy in zip(board, _board_slots(len(board), cw), strict=True):
        _paste_card(img, code, cw, xy, hl)
    if not board:
        x0, y0, x1, y1 = BOARD_BOX
        ImageDraw.Draw(img).text(
            ((x0 + x1) // 2, (y0 + y1) // 2),
            "The board is empty",
            font=font(18),
            fill=MUTED,
            anchor="mm",
        )


def _status_column(img: Image.Image, view: View) -> None:
    d = ImageDraw.Draw(img)
    x0, y0, x1, y1 = STATUS_BOX
    players = view.get("players", ["?", "?"])
    width = x1 - x0 - 20
    y = y0 + 12
    # what is happening now
    to_act = view.get("to_act") or []
    phase = view.get("phase")
    pending = view.get("pending") or {}
    if view.get("is_over"):
        now = "Match over"
    elif to_act:
        who = fit_text(str(players[to_act[0]]), width * 2 // 3, 16, bold=True, min_size=16)[0]
        now = {
            "decide": f"{who}: Koi-Koi or stop? ({pending.get('points', '?')} pts)",
            "choose_flip": f"{who}: choose what the flip takes",
        }.get(phase or "", f"{who} to play")
    else:
        now = "Waiting…"
    d.text((x0 + 10, y), "NOW", font=font(12, True), fill=MUTED)
    y += 18
    for line in _wrap(now, width, 16, bold=True)[:2]:
        d.text((x0 + 10, y), line, font=font(16, True), fill=GOLD)
        y += 21
    y += 6
    if phase == "choose_flip" and pending.get("card"):
        d.text((x0 + 10, y), "Flipped", font=font(12, True), fill=MUTED)
        _paste_card(
            img, pending["card"], MOVE_CARD_W, (x0 + 10, y + 18), {pending["card"]: OPTION_COLOUR}
        )
        d.text(
            (x0 + 20 + MOVE_CARD_W, y + 18 + card_height(MOVE_CARD_W) // 2),
            "takes one of\nthe green cards",
            font=font(13),
            fill=WHITE,
            anchor="lm",
        )
        y += 24 + card_height(MOVE_CARD_W)
    for key, title, colour in (
        ("last_play", "Last play", PLAY_COLOUR),
        ("last_flip", "Last flip", FLIP_COLOUR),
    ):
        move = view.get(key)
        if not move or y + card_height(MOVE_CARD_W) + 20 > y1:
            continue
        who = players[move["seat"]] if move.get("seat") is not None else ""
        head, size = fit_text(f"{title} · {who}", width, 12, bold=True, min_size=10)
        d.text((x0 + 10, y), head, font=font(size, True), fill=colour)
        y += 18
        _paste_card(img, move["card"], MOVE_CARD_W, (x0 + 10, y), {})
        took = move.get("took") or []
        ax = x0 + 14 + MOVE_CARD_W
        mid = y + card_height(MOVE_CARD_W) // 2
        if took:
            d.text((ax + 4, mid), "→", font=font(18, True), fill=WHITE, anchor="lm")
            tx = ax + 26
            step = min(MOVE_CARD_W + 4, (x1 - 8 - tx - MOVE_CARD_W) / max(1, len(took) - 1))
            for i, code in enumerate(took):
                _paste_card(img, code, MOVE_CARD_W, (round(tx + i * step), y), {})
        else:
            d.text(
                (ax + 4, mid),
                "stays on\nthe board",
                font=font(13),
                fill=(210, 214, 204),
                anchor="lm",
            )
        y += card_height(MOVE_CARD_W) + 10


def _wrap(text: str, width: int, size: int, bold: bool = False) -> list[str]:
    fnt = font(size, bold)
    lines: list[str] = []
    line = ""
    for word in text.split():
        trial = f"{line} {word}".strip()
        if fnt.getlength(trial) <= width or not line:
            line = trial
        else:
            lines.append(line)
            line = word
    if line:
        lines.append(line)
    return lines


def _banner(img: Image.Image, view: View) -> None:
    """The final result across the middle of the table."""
    players = view.get("players", ["?", "?"])
    scores = view.get("scores") or [0, 0]
    box = (M + 60, MID_Y + 18, W - M - 60, MID_Y + MID_H - 18)
    panel(img, box, fill=(12, 10, 10, 215), border=(232, 184, 64, 255), radius=16)
    d = ImageDraw.Draw(img)
    cx = (box[0] + box[2]) // 2
    if scores[0] == scores[1]:
        headline = f"Tie  {scores[0]} – {scores[1]}"
    else:
        win = 0 if scores[0] > scores[1] else 1
        headline = f"{players[win]} wins  {scores[win]} – {scores[1 - win]}"
    headline, size = fit_text(headline, box[2] - box[0] - 40, 34, bold=True, min_size=18)
    d.text((cx, box[1] + 24), "MATCH OVER", font=font(15, True), fill=MUTED, anchor="mm")
    d.text((cx, box[1] + 60), headline, font=font(size, True), fill=GOLD, anchor="mm")
    history = view.get("history") or []
    lines = []
    for h in history:
        if h.get("winner") is None:
            lines.append(f"Round {h['round']}: draw")
        else:
            names = ", ".join(y["name"] for y in h.get("yaku", [])) or h.get("reason", "")
            lines.append(f"Round {h['round']}: {players[h['winner']]} +{h['points']}  ({names})")
    cols = 2 if len(lines) > 6 else 1
    per_col = math.ceil(len(lines) / cols) if lines else 1
    col_w = min(460, (box[2] - box[0] - 60) // cols)
    fnt = font(15)
    widest = max((fnt.getlength(t) for t in lines), default=0)
    block_w = min(col_w, int(widest) + 10) if cols == 1 else col_w * cols
    left = cx - block_w // 2
    for i, text in enumerate(lines):
        col, row = divmod(i, per_col)
        text, size = fit_text(text, col_w - 10, 15, min_size=10)
        d.text((left + col * col_w, box[1] + 96 + row * 22), text, font=font(size), fill=WHITE)


# ----------------------------------------------------------------------------- public


def _seats(view: View) -> tuple[int, int]:
    """(top seat, bottom seat): the viewer sits at the bottom; spectators see seat 0 there."""
    seat = view.get("seat")
    bottom = seat if seat in (0, 1) else 0
    return 1 - bottom, bottom


def render_table(view: View) -> Image.Image:
    """The public table image (about 1140 x 660) for a Koi-Koi view."""
    img = _base().copy()
    hl = _highlights(view)
    top, bottom = _seats(view)
    _player_strip(img, view, top, TOP_Y, hl, bottom=False)
    _player_strip(img, view, bottom, BOT_Y, hl, bottom=True)
    _stack_column(img, view)
    _board(img, view, hl)
    _status_column(img, view)
    if view.get("is_over"):
        _banner(img, view)
    return img


HAND_CARD_W = 112


def _short_name(code: str) -> str:
    c = card(code)
    if c.cls == RIBBON:
        return {"red poetry": "Poetry ribbon", "blue": "Blue ribbon", "red": "Red ribbon"}[
            c.ribbon_colour or "red"
        ]
    if c.cls == PLAIN and code != "11p1":
        return "Plain"
    return c.name


def render_hand(view: View) -> Image.Image:
    """The seat's own hand, large, with a marker on the cards that match a board card."""
    hand: Sequence[str] = view.get("hand") or []
    board_months: dict[int, int] = {}
    for code in view.get("board") or []:
        m = card(code).month
        board_months[m] = board_months.get(m, 0) + 1
    n = max(1, len(hand))
    cw = HAND_CARD_W
    ch = card_height(cw)
    gap = 14
    width = max(560, 2 * 20 + n * cw + (n - 1) * gap)
    height = 20 + 30 + 14 + ch + 58
    img = felt((width, height)).convert("RGB")
    d = ImageDraw.Draw(img)
    title = f"Your hand · Round {view.get('round', 1)} / {view.get('rounds', 6)}"
    d.text((20, 20), title, font=font(20, True), fill=WHITE)
    matches = sum(1 for c in hand if card(c).month in board_months)
    d.text(
        (width - 20, 24),
        f"{len(hand)} cards · {matches} match the board",
        font=font(15),
        fill=MUTED,
        anchor="ra",
    )
    if not hand:
        d.text((width // 2, 64 + ch // 2), "No cards left", font=font(18), fill=MUTED, anchor="mm")
        return img
    left = (width - (len(hand) * cw + (len(hand) - 1) * gap)) // 2
    top = 64
    for i, code in enumerate(hand):
        x = left + i * (cw + gap)
        k = board_months.get(card(code).month, 0)
        if k:
            g = glow((cw, ch), MATCH_GREEN, spread=10)
            img.paste(g, (x - 10, top - 10), g)
        paste_with_shadow(img, card_image(code, cw), (x, top))
        cx = x + cw // 2
        if k:
            text = (
                f"{MONTH_KANJI[card(code).month]} takes {'all 3' if k == 3 else k}"
                if k != 2
                else "choose 1 of 2"
            )
            badge(
                d,
                (cx, top + ch + 8),
                "✓ " + text,
                13,
                fill=MATCH_GREEN,
                text_fill=(10, 40, 20),
                anchor="ma",
            )
        else:
            badge(
                d,
                (cx, top + ch + 8),
                "no match",
                12,
                fill=(60, 74, 66),
                text_fill=(190, 200, 190),
                anchor="ma",
            )
        name, size = fit_text(_short_name(code), cw + gap - 2, 13, min_size=10)
        d.text((cx, top + ch + 44), name, font=font(size), fill=WHITE, anchor="mm")
    return img
