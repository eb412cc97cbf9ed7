"""Mushi table, hand and hand-summary images: pure functions of a view dict (``rules.py``).

Layout of the table (the viewer's seat at the bottom; a spectator sees seat 0 there):

    [opponent info][hand backs][captures: brights | animals | ribbons | junk  + points]
    [hand n/12, stock][            table (2 rows of 8)             ][now / last move]
    [viewer   info][hand      ][captures: brights | animals | ribbons | junk  + points]

The wild card (Willow lightning) wears a violet halo and a WILD tag wherever it lies; when
it waits on the table a banner says that the next flip must take it. The felt, the panels
and the empty capture slots form a cached base layer; a render copies it and pastes cached
card sprites.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from bot.games.hanafuda.cards import ANIMAL, BRIGHT, CLASS_ORDER, PLAIN, RIBBON, card
from bot.games.hanafuda.render import MONTH_KANJI, card_back, card_height, card_image
from bot.games.mushi.rules import (
    MONTH,
    WILD,
    capture_choices,
    card_label,
    card_points,
    sort_mushi,
    wild_targets,
)
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

W, H = 1160, 680
M = 12  # outer margin
GAP = 10

INFO_W = 236
HAND_W = 104
STRIP_H = 156
MID_H = 308

TABLE_CARD_W = 80
CAPTURE_CARD_W = 54
BACK_W = 36
MOVE_CARD_W = 44
STOCK_CARD_W = 72
ASIDE_CARD_W = 30

PLAY_COLOUR = HIGHLIGHT  # the last card played (and what it took)
FLIP_COLOUR = (110, 200, 255)  # the last card flipped (and what it took)
OPTION_COLOUR = MATCH_GREEN  # table cards a pending flip may take
WILD_COLOUR = (190, 120, 255)  # the wild card, wherever it is
TURN_COLOUR = GOLD
LOSS_RED = (236, 96, 88)

CLASS_LABEL = {
    BRIGHT: ("光", "Brights"),
    ANIMAL: ("種", "Animals"),
    RIBBON: ("短", "Ribbons"),
    PLAIN: ("カス", "Junk"),
}
CLASS_COLOUR = {
    BRIGHT: (214, 42, 36),
    ANIMAL: (38, 112, 64),
    RIBBON: (120, 60, 150),
    PLAIN: (100, 96, 90),
}
# Width each class pile may use, sized for its largest count (20 junk cards squeeze).
CLASS_WIDTH = {BRIGHT: 150, ANIMAL: 176, RIBBON: 190, PLAIN: 226}
MAX_STEP = 24

# ----------------------------------------------------------------------------- layout

TOP_Y = M
MID_Y = TOP_Y + STRIP_H + GAP
BOT_Y = MID_Y + MID_H + GAP
CAPTURES_X = M + INFO_W + GAP + HAND_W + GAP
CAPTURES_W = W - M - CAPTURES_X

STOCK_COL_W = 150
STATUS_X = M + STOCK_COL_W + GAP + 8 * TABLE_CARD_W + 7 * 8 + 2 * GAP
TABLE_BOX = (M + STOCK_COL_W + GAP, MID_Y, STATUS_X - GAP, MID_Y + MID_H)
STATUS_BOX = (STATUS_X, MID_Y, W - M, MID_Y + MID_H)
STOCK_BOX = (M, MID_Y, M + STOCK_COL_W, MID_Y + MID_H)
CAPTURE_LABEL_H = 26


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


@lru_cache(maxsize=2)
def _base() -> Image.Image:
    """Felt, panels and empty capture slots: everything that does not depend on the view."""
    img = felt((W, H)).convert("RGB")
    d = ImageDraw.Draw(img)
    ch = card_height(CAPTURE_CARD_W)
    for y in (TOP_Y, BOT_Y):
        for box in _strip_boxes(y).values():
            panel(img, box)
        cy = y + 12 + CAPTURE_LABEL_H
        for cls in CLASS_ORDER:
            x = CLASS_X0[cls]
            d.rounded_rectangle(
                (x, cy, x + CAPTURE_CARD_W, cy + ch), radius=5, outline=(64, 104, 84), width=1
            )
    for box in (STOCK_BOX, TABLE_BOX, STATUS_BOX):
        panel(img, box, fill=(0, 0, 0, 60))
    return img


def _table_card_width(n: int) -> int:
    if n <= 16:
        return TABLE_CARD_W
    x0, _, x1, _ = TABLE_BOX
    cols = math.ceil(n / 2)
    return max(40, (x1 - x0 - 2 * GAP - (cols - 1) * 4) // cols)


def _table_slots(n: int, cw: int, top_pad: int = 0) -> list[tuple[int, int]]:
    """Top-left corners for n table cards: two rows of 8 (more columns if needed)."""
    x0, y0, x1, y1 = TABLE_BOX
    cols = max(8, math.ceil(n / 2))
    ch = card_height(cw)
    gap_x = 8 if cols == 8 else max(2, (x1 - x0 - 2 * GAP - cols * cw) // max(1, cols - 1))
    total_w = cols * cw + (cols - 1) * gap_x
    left = x0 + (x1 - x0 - total_w) // 2
    gap_y = 12
    top = y0 + top_pad + (y1 - y0 - top_pad - 2 * ch - gap_y) // 2
    return [(left + (i % cols) * (cw + gap_x), top + (i // cols) * (ch + gap_y)) for i in range(n)]


# ----------------------------------------------------------------------------- pieces


def _paste_card(
    img: Image.Image,
    code: str,
    width: int,
    xy: tuple[int, int],
    hl: Mapping[str, tuple],
    *,
    halo: bool = True,
    wild_tag: bool = True,
) -> None:
    """Paste a card; a highlighted one gets a halo (loose cards) or a ring (fanned piles).

    The wild always gets its violet mark, so players can find it at a glance.
    """
    sprite = card_image(code, width)
    colour = hl.get(code)
    if code == WILD and colour is None:
        colour = WILD_COLOUR
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
    if code == WILD and wild_tag and width >= 40:
        d = ImageDraw.Draw(img)
        size = max(9, min(13, width // 6))
        badge(
            d,
            (xy[0] + sprite.width // 2, xy[1] + sprite.height - size - 8),
            "WILD",
            size,
            fill=WILD_COLOUR,
            text_fill=(30, 10, 50),
            anchor="ma",
        )


def _highlights(view: View) -> dict[str, tuple]:
    hl: dict[str, tuple] = {}
    for key, colour in (("last_play", PLAY_COLOUR), ("last_flip", FLIP_COLOUR)):
        move = view.get(key)
        if move:
            for code in (move["card"], *move.get("took", [])):
                hl[code] = colour
    pending = view.get("pending") or {}
    if view.get("phase") == "choose_flip":
        for code in pending.get("options", []):
            hl[code] = OPTION_COLOUR
    return hl


def _turn_label(view: View, seat: int) -> str | None:
    if view.get("is_over") or seat not in view.get("to_act", []):
        return None
    return {"declare": "DECIDING", "choose_flip": "CHOOSING"}.get(view.get("phase", ""), "TO PLAY")


def _player_strip(img: Image.Image, view: View, seat: int, y: int, hl: Mapping[str, tuple]) -> None:
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
    bx = x1 - 8
    if view.get("elder") == seat and not view.get("is_over"):
        box = badge(
            d,
            (bx, y0 + 11),
            "親 Elder",
            13,
            fill=(250, 240, 220),
            text_fill=(40, 30, 30),
            anchor="ra",
        )
        bx = box[0] - 6
    text, size = fit_text(name, bx - x0 - 14, 22, bold=True, min_size=13)
    d.text((x0 + 10, y0 + 20), text, font=font(size, True), fill=WHITE, anchor="lm")
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

    scores = view.get("scores") or [0, 0]
    total = scores[seat]
    d.text((x0 + 10, y0 + 50), "Match", font=font(14), fill=MUTED, anchor="lm")
    colour = GOLD if total >= 0 else LOSS_RED
    d.text((x0 + 60, y0 + 50), _signed(total), font=font(24, True), fill=colour, anchor="lm")

    points = (view.get("card_points") or [0, 0])[seat]
    d.text((x0 + 10, y0 + 80), "Card points", font=font(14), fill=MUTED, anchor="lm")
    d.text((x0 + 100, y0 + 80), str(points), font=font(20, True), fill=WHITE, anchor="lm")
    d.text((x0 + 140, y0 + 81), "/ 115", font=font(13), fill=(170, 180, 170), anchor="lm")

    combos = (view.get("combos") or [[], []])[seat]
    ty = y0 + 104
    if not combos:
        d.text(
            (x0 + 10, ty + 8), "No combination", font=font(13), fill=(160, 170, 160), anchor="lm"
        )
    for i, combo in enumerate(combos[:3]):
        line = f"★ {combo['name']} +{combo['value']}"
        text, size = fit_text(line, INFO_W - 20, 14, bold=True, min_size=10)
        d.text(
            (x0 + 10, ty + 8 + i * 17),
            text,
            font=font(size, True),
            fill=(255, 226, 120),
            anchor="lm",
        )
    _hand_slot(img, view, seat, boxes["hand"])
    _captures(img, view, seat, y, hl)


def _signed(n: int) -> str:
    return f"{n:+d}".replace("-", "−") if n else "0"


def _hand_slot(img: Image.Image, view: View, seat: int, box: tuple[int, int, int, int]) -> None:
    d = ImageDraw.Draw(img)
    x0, y0, x1, y1 = box
    n = (view.get("hand_counts") or [0, 0])[seat]
    own = view.get("hand") if view.get("seat") == seat else None
    d.text(((x0 + x1) // 2, y0 + 16), f"Hand {n}", font=font(14, True), fill=MUTED, anchor="mm")
    if n == 0:
        return
    cw = BACK_W
    step = min(12, (x1 - x0 - 16 - cw) / max(1, n - 1))
    total = cw + step * (n - 1)
    left = x0 + (x1 - x0 - total) / 2
    for i in range(n):
        sprite = card_image(own[i], cw) if own and i < len(own) else card_back(cw)
        paste_with_shadow(img, sprite, (round(left + i * step), y0 + 36), offset=(1, 2))


def _captures(img: Image.Image, view: View, seat: int, y: int, hl: Mapping[str, tuple]) -> None:
    d = ImageDraw.Draw(img)
    groups = (view.get("captures") or [{}, {}])[seat]
    cw = CAPTURE_CARD_W
    cy = y + 12 + CAPTURE_LABEL_H
    for cls in CLASS_ORDER:
        x = CLASS_X0[cls]
        kanji, word = CLASS_LABEL[cls]
        cards = list(groups.get(cls, []))
        pts = sum(card_points(c) for c in cards)
        label = f"{kanji} {word} {len(cards)}" + (f" · {pts}" if cards else "")
        fill = CLASS_COLOUR[cls] if cards else (60, 70, 64)
        badge(d, (x, y + 9), label, 13, fill=fill, text_fill=WHITE if cards else (150, 160, 150))
        n = len(cards)
        if not n:
            continue
        step = min(MAX_STEP, (CLASS_WIDTH[cls] - cw) / max(1, n - 1))
        for i, code in enumerate(cards):
            _paste_card(img, code, cw, (round(x + i * step), cy), hl, halo=False, wild_tag=False)


def _stock_column(img: Image.Image, view: View) -> None:
    d = ImageDraw.Draw(img)
    x0, y0, x1, y1 = STOCK_BOX
    cx = (x0 + x1) // 2
    title = f"Hand {view.get('deal', 1)} / {view.get('deals', 12)}"
    d.text((cx, y0 + 20), title, font=font(19, True), fill=WHITE, anchor="mm")
    n = int(view.get("stock_count", 0))
    cw = STOCK_CARD_W
    ch = card_height(cw)
    left = cx - cw // 2 - 4
    top = y0 + 42
    if n:
        depth = min(4, (n + 3) // 4)
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
    y = top + ch + 22
    d.text((cx, y), "Stock", font=font(14, True), fill=MUTED, anchor="mm")
    aside = view.get("set_aside") or []
    if aside:
        y += 16
        d.text((cx, y), "Rain set aside", font=font(12, True), fill=WILD_COLOUR, anchor="mm")
        step = ASIDE_CARD_W + 4
        ax = cx - (len(aside) * step - 4) // 2
        for i, code in enumerate(aside):
            paste_with_shadow(
                img, card_image(code, ASIDE_CARD_W), (ax + i * step, y + 10), offset=(1, 1)
            )
    history = view.get("history") or []
    if history and not view.get("is_over"):
        last = history[-1]
        players = view.get("players", ["?", "?"])
        a, b = last["scores"]
        if a == b:
            text = f"H{last['hand']}: 0 – 0"
        else:
            w = 0 if a > b else 1
            text = f"H{last['hand']}: {players[w]} +{last['scores'][w]}"
        text, size = fit_text(text, x1 - x0 - 12, 13, min_size=10)
        d.text((cx, y1 - 16), text, font=font(size), fill=(220, 220, 200), anchor="mm")


def _table(img: Image.Image, view: View, hl: Mapping[str, tuple]) -> None:
    table = sort_mushi(view.get("table") or [])
    x0, y0, x1, y1 = TABLE_BOX
    d = ImageDraw.Draw(img)
    duty = bool(view.get("wild_duty")) and not view.get("is_over")
    pad = 30 if duty else 0
    if duty:
        text = "雷 The wild is on the table: the next flip must take it"
        badge(
            d,
            ((x0 + x1) // 2, y0 + 8),
            text,
            14,
            fill=WILD_COLOUR,
            text_fill=(30, 10, 50),
            anchor="ma",
        )
    cw = _table_card_width(len(table))
    ch = card_height(TABLE_CARD_W)
    if len(table) <= 16:  # faint outlines of the free places
        for x, y in _table_slots(16, TABLE_CARD_W, pad)[len(table) :]:
            d.rounded_rectangle(
                (x, y, x + TABLE_CARD_W, y + ch), radius=7, outline=(70, 120, 96), width=1
            )
    for code, xy in zip(table, _table_slots(len(table), cw, pad), strict=True):
        _paste_card(img, code, cw, xy, hl)
    if not table:
        d.text(
            ((x0 + x1) // 2, (y0 + y1) // 2),
            "The table is empty",
            font=font(18),
            fill=MUTED,
            anchor="mm",
        )


def _now_text(view: View) -> str:
    players = view.get("players", ["?", "?"])
    to_act = view.get("to_act") or []
    if view.get("is_over"):
        return "Match over"
    if not to_act:
        return "Waiting…"
    who = fit_text(str(players[to_act[0]]), 120, 16, bold=True, min_size=16)[0]
    phase = view.get("phase")
    if phase == "declare":
        return f"{who}: dealt four of a kind — cancel the deal or keep it?"
    if phase == "choose_flip":
        return f"{who}: choose what the flip takes"
    return f"{who} to play"


def _status_column(img: Image.Image, view: View) -> None:
    d = ImageDraw.Draw(img)
    x0, y0, x1, y1 = STATUS_BOX
    players = view.get("players", ["?", "?"])
    width = x1 - x0 - 20
    y = y0 + 12
    d.text((x0 + 10, y), "NOW", font=font(12, True), fill=MUTED)
    y += 18
    for line in _wrap(_now_text(view), width, 16, bold=True)[:3]:
        d.text((x0 + 10, y), line, font=font(16, True), fill=GOLD)
        y += 21
    y += 6
    pending = view.get("pending") or {}
    mch = card_height(MOVE_CARD_W)
    if view.get("phase") == "choose_flip" and pending.get("card"):
        d.text((x0 + 10, y), "Flipped", font=font(12, True), fill=MUTED)
        _paste_card(
            img,
            pending["card"],
            MOVE_CARD_W,
            (x0 + 10, y + 18),
            {pending["card"]: OPTION_COLOUR},
            wild_tag=False,
        )
        d.text(
            (x0 + 20 + MOVE_CARD_W, y + 18 + mch // 2),
            "takes one of\nthe green cards",
            font=font(13),
            fill=WHITE,
            anchor="lm",
        )
        y += 24 + mch
    for key, title, colour in (
        ("last_play", "Last play", PLAY_COLOUR),
        ("last_flip", "Last flip", FLIP_COLOUR),
    ):
        move = view.get(key)
        if not move or y + mch + 20 > y1:
            continue
        if key == "last_flip" and view.get("phase") == "choose_flip" and not move.get("took"):
            continue  # the pending flip is shown above
        who = players[move["seat"]] if move.get("seat") is not None else ""
        head, size = fit_text(f"{title} · {who}", width, 12, bold=True, min_size=10)
        d.text((x0 + 10, y), head, font=font(size, True), fill=colour)
        y += 18
        _paste_card(img, move["card"], MOVE_CARD_W, (x0 + 10, y), {}, wild_tag=False)
        took = move.get("took") or []
        ax = x0 + 14 + MOVE_CARD_W
        mid = y + mch // 2
        if took:
            d.text((ax + 4, mid), "→", font=font(18, True), fill=WHITE, anchor="lm")
            tx = ax + 26
            step = min(MOVE_CARD_W + 4, (x1 - 8 - tx - MOVE_CARD_W) / max(1, len(took) - 1))
            for i, code in enumerate(took):
                _paste_card(img, code, MOVE_CARD_W, (round(tx + i * step), y), {}, wild_tag=False)
        else:
            kept = move["card"] == WILD and key == "last_flip" and not view.get("wild_duty")
            note = "kept by the\nyounger" if kept else "stays on\nthe table"
            d.text((ax + 4, mid), note, font=font(13), fill=(210, 214, 204), anchor="lm")
        y += mch + 10


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


def _hand_line(h: Mapping[str, Any], players: Sequence[str]) -> str:
    a, b = h["scores"]
    combos = [c["name"] for cs in h["combos"] for c in cs]
    extra = f", {', '.join(combos)}" if combos else ""
    pts = f"{h['card_points'][0]}–{h['card_points'][1]} pts{extra}"
    if a == b:
        return f"Hand {h['hand']}: 0 – 0  ({pts})"
    w = 0 if a > b else 1
    return f"Hand {h['hand']}: {players[w]} +{h['scores'][w]}  ({pts})"


def _banner(img: Image.Image, view: View) -> None:
    """The final result across the middle of the table."""
    players = view.get("players", ["?", "?"])
    scores = view.get("scores") or [0, 0]
    box = (M + 60, MID_Y + 14, W - M - 60, MID_Y + MID_H - 14)
    panel(img, box, fill=(12, 10, 10, 215), border=(232, 184, 64, 255), radius=16)
    d = ImageDraw.Draw(img)
    cx = (box[0] + box[2]) // 2
    if scores[0] == scores[1]:
        headline = f"Tie  {_signed(scores[0])} / {_signed(scores[1])}"
    else:
        win = 0 if scores[0] > scores[1] else 1
        headline = f"{players[win]} wins  {_signed(scores[win])} / {_signed(scores[1 - win])}"
    headline, size = fit_text(headline, box[2] - box[0] - 40, 32, bold=True, min_size=18)
    d.text((cx, box[1] + 22), "MATCH OVER", font=font(15, True), fill=MUTED, anchor="mm")
    d.text((cx, box[1] + 56), headline, font=font(size, True), fill=GOLD, anchor="mm")
    lines = [_hand_line(h, players) for h in view.get("history") or []]
    cols = 2 if len(lines) > 6 else 1
    per_col = math.ceil(len(lines) / cols) if lines else 1
    col_w = min(470, (box[2] - box[0] - 40) // cols)
    fnt = font(14)
    widest = max((fnt.getlength(t) for t in lines), default=0)
    block_w = min(col_w, int(widest) + 10) if cols == 1 else col_w * cols
    left = cx - block_w // 2
    for i, text in enumerate(lines):
        col, row = divmod(i, per_col)
        text, size = fit_text(text, col_w - 10, 14, min_size=10)
        d.text((left + col * col_w, box[1] + 88 + row * 21), text, font=font(size), fill=WHITE)


# ----------------------------------------------------------------------------- public


def _seats(view: View) -> tuple[int, int]:
    """(top seat, bottom seat): the viewer sits at the bottom; spectators see seat 0 there."""
    seat = view.get("seat")
    bottom = seat if seat in (0, 1) else 0
    return 1 - bottom, bottom


def render_table(view: View) -> Image.Image:
    """The public table image (1160 x 680) for a Mushi view."""
    img = _base().copy()
    hl = _highlights(view)
    top, bottom = _seats(view)
    _player_strip(img, view, top, TOP_Y, hl)
    _player_strip(img, view, bottom, BOT_Y, hl)
    _stock_column(img, view)
    _table(img, view, hl)
    _status_column(img, view)
    if view.get("is_over"):
        _banner(img, view)
    return img


HAND_CARD_W = 112


def _short_name(code: str) -> str:
    c = card(code)
    if c.cls == RIBBON:
        return {"red poetry": "Poetry ribbon", "blue": "Blue ribbon"}.get(
            c.ribbon_colour or "", "Red ribbon"
        )
    return card_label(code) if code == WILD else card_label(code).split(" (")[0]


def _hand_badge(code: str, table: Sequence[str]) -> tuple[str, tuple, tuple]:
    """The note under a hand card: what it would take from the table now."""
    if code == WILD:
        n = len(wild_targets(table))
        if not n:
            return "no target", (60, 74, 66), (190, 200, 190)
        return f"WILD · any of {n}", WILD_COLOUR, (30, 10, 50)
    choices = capture_choices(code, table)
    took = choices[0]
    kanji = MONTH_KANJI[MONTH[code]]
    if len(choices) == 2:
        return "✓ choose 1 of 2", MATCH_GREEN, (10, 40, 20)
    if len(took) == 3:
        return f"✓ {kanji} takes all 3", MATCH_GREEN, (10, 40, 20)
    if took:
        return f"✓ {kanji} takes 1", MATCH_GREEN, (10, 40, 20)
    return "no match", (60, 74, 66), (190, 200, 190)


def render_hand(view: View) -> Image.Image:
    """The seat's own hand, large, with what each card would take from the table now."""
    hand: Sequence[str] = view.get("hand") or []
    table: Sequence[str] = view.get("table") or []
    n = max(1, len(hand))
    cw = HAND_CARD_W
    ch = card_height(cw)
    gap = 14
    width = max(600, 2 * 20 + n * cw + (n - 1) * gap)
    height = 20 + 30 + 14 + ch + 60
    img = felt((width, height)).convert("RGB")
    d = ImageDraw.Draw(img)
    title = f"Your hand · Hand {view.get('deal', 1)} / {view.get('deals', 12)}"
    d.text((20, 20), title, font=font(20, True), fill=WHITE)
    seat = view.get("seat")
    info = f"{len(hand)} cards"
    if seat in (0, 1):
        pts = (view.get("card_points") or [0, 0])[seat]
        info += f" · {pts} card points"
        if view.get("elder") == seat:
            info += " · 親 elder"
    d.text((width - 20, 24), info, font=font(15), fill=MUTED, anchor="ra")
    if not hand:
        d.text((width // 2, 64 + ch // 2), "No cards left", font=font(18), fill=MUTED, anchor="mm")
        return img
    left = (width - (len(hand) * cw + (len(hand) - 1) * gap)) // 2
    top = 64
    for i, code in enumerate(hand):
        x = left + i * (cw + gap)
        text, fill, text_fill = _hand_badge(code, table)
        if fill != (60, 74, 66):
            g = glow((cw, ch), fill, spread=10)
            img.paste(g, (x - 10, top - 10), g)
        paste_with_shadow(img, card_image(code, cw), (x, top))
        cx = x + cw // 2
        badge(d, (cx, top + ch + 8), text, 13, fill=fill, text_fill=text_fill, anchor="ma")
        name = f"{_short_name(code)} · {card_points(code)}"
        name, size = fit_text(name, cw + gap - 2, 13, min_size=10)
        d.text((cx, top + ch + 46), name, font=font(size), fill=WHITE, anchor="mm")
    return img


SUMMARY_W = 1000
SUMMARY_CARD_W = 46


def render_deal_summary(view: View) -> Image.Image | None:
    """The score sheet of the last finished hand (``view["history"][-1]``), or None."""
    history = view.get("history") or []
    if not history:
        return None
    h = history[-1]
    players = view.get("players", ["?", "?"])
    ch = card_height(SUMMARY_CARD_W)
    row_h = 26 + ch + 12
    block_h = 44 + 2 * row_h + 8
    height = 70 + 2 * block_h + 50
    img = felt((SUMMARY_W, height)).convert("RGB")
    d = ImageDraw.Draw(img)
    d.text(
        (20, 18),
        f"Hand {h['hand']} / {view.get('deals', 12)} — score sheet",
        font=font(22, True),
        fill=WHITE,
    )
    elder = players[h["elder"]]
    d.text((SUMMARY_W - 20, 24), f"親 elder: {elder}", font=font(15), fill=MUTED, anchor="ra")
    y = 64
    for seat in (0, 1):
        box = (16, y, SUMMARY_W - 16, y + block_h)
        panel(img, box)
        x0, y0, x1, _ = box
        name, size = fit_text(str(players[seat]), 300, 20, bold=True, min_size=12)
        d.text((x0 + 12, y0 + 20), name, font=font(size, True), fill=WHITE, anchor="lm")
        score = h["scores"][seat]
        d.text(
            (x1 - 12, y0 + 20),
            _signed(score),
            font=font(26, True),
            fill=GOLD if score >= 0 else LOSS_RED,
            anchor="rm",
        )
        pts = h["card_points"][seat]
        combos = h["combos"][seat]
        against = h["combos"][1 - seat]
        parts = [f"({pts} − 115)"]
        parts += [f"+ {c['name']} {c['value']}" for c in combos]
        parts += [f"− {c['name']} {c['value']}" for c in against]
        formula = " ".join(parts) + f" = {_signed(score)}"
        formula, size = fit_text(formula, x1 - x0 - 360, 15, min_size=10)
        d.text((x0 + 330, y0 + 20), formula, font=font(size), fill=(236, 230, 200), anchor="lm")
        groups = h["captures"][seat]
        for i, cls in enumerate(CLASS_ORDER):
            col, row = i % 2, i // 2
            gx = x0 + 12 + col * ((x1 - x0) // 2)
            gy = y0 + 44 + row * row_h
            cards = list(groups.get(cls, []))
            kanji, word = CLASS_LABEL[cls]
            label = f"{kanji} {word} {len(cards)} · {sum(card_points(c) for c in cards)}"
            badge(
                d,
                (gx, gy),
                label,
                13,
                fill=CLASS_COLOUR[cls] if cards else (60, 70, 64),
                text_fill=WHITE,
            )
            avail = (x1 - x0) // 2 - 30 - SUMMARY_CARD_W
            step = min(SUMMARY_CARD_W + 3, avail / max(1, len(cards) - 1))
            for j, code in enumerate(cards):
                _paste_card(
                    img,
                    code,
                    SUMMARY_CARD_W,
                    (round(gx + j * step), gy + 24),
                    {},
                    halo=False,
                    wild_tag=False,
                )
        y += block_h + 10
    notes = []
    for x in h.get("leftovers", []):
        who = players[x["seat"]]
        notes.append(f"{card_label(x['card'])} → {who} ({x['why']})")
    if notes:
        text, size = fit_text(
            "Left on the table: " + "; ".join(notes), SUMMARY_W - 40, 14, min_size=10
        )
        d.text((20, y + 12), text, font=font(size), fill=MUTED)
    return img


__all__ = ["render_deal_summary", "render_hand", "render_table"]
