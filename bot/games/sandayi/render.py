"""San Da Yi images: the playing cards (our own Pillow art), the table, the hand and the
end-of-hand score sheet. Every render is a pure function of a view (see ``rules.py``).

Cards are painted on a 3x master and reduced by area averaging (BOX: antialiased pips,
without LANCZOS's ringing tones, which cost PNG bytes); sprites are cached per (code,
width). The table puts the viewer's seat at the bottom (a spectator sees seat 0 there) and
the next seats counter-clockwise: right, top, left.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from bot.games.sandayi.cards import (
    BIG_JOKER,
    JOKERS,
    RED_SUITS,
    SUIT_NAME,
    TRUMP_GROUP,
    group,
    is_trump,
    points,
    rank,
    sort_for_display,
    suit,
    trick_strength,
)
from bot.games.sandayi.scoring import SETTLEMENT_CASES
from bot.render.draw import (
    GOLD,
    HIGHLIGHT,
    MUTED,
    WHITE,
    Draw,
    badge,
    card_frame,
    felt,
    fit_text,
    glow,
    panel,
    paste_with_shadow,
)
from bot.render.fonts import font

View = Mapping[str, Any]
RGB = tuple[int, int, int]

CARD_RATIO = 1.4  # height / width (poker cards are 63 x 88 mm)
SCALE = 3  # master pixels per output pixel

CARD_RED: RGB = (200, 28, 42)
CARD_BLACK: RGB = (26, 26, 34)
CARD_FACE: RGB = (252, 250, 244)
FACE_TINT: RGB = (250, 236, 196)
BACK_RED: RGB = (150, 28, 40)
BACK_LINE: RGB = (214, 92, 96)
JOKER_GOLD: RGB = (226, 170, 40)
DIM: RGB = (150, 160, 150)
DECLARER_COLOUR: RGB = (236, 120, 60)
DEFENDER_COLOUR: RGB = (110, 180, 230)
GOOD: RGB = (120, 220, 140)
BAD: RGB = (240, 110, 100)


def card_height(width: int) -> int:
    return round(width * CARD_RATIO)


def _colour(card: str) -> RGB:
    if card in JOKERS:
        return CARD_RED if card == BIG_JOKER else CARD_BLACK
    return CARD_RED if suit(card) in RED_SUITS else CARD_BLACK


# ----------------------------------------------------------------------------- pips


def _heart_points(cx: float, cy: float, s: float, flip: bool) -> list[tuple[float, float]]:
    """The classic parametric heart, ``s`` wide, centred on (cx, cy)."""
    pts = []
    for i in range(72):
        t = 2 * math.pi * i / 72
        x = 16 * math.sin(t) ** 3
        y = -(13 * math.cos(t) - 5 * math.cos(2 * t) - 2 * math.cos(3 * t) - math.cos(4 * t))
        pts.append((x, y + 1.5))
    k = s / 34
    sign = -1 if flip else 1
    return [(cx + x * k, cy + sign * y * k) for x, y in pts]


def draw_pip(
    d: ImageDraw.ImageDraw, suit_letter: str, cx: float, cy: float, s: float, colour: RGB,
    flip: bool = False,
) -> None:  # fmt: skip
    """A suit symbol about ``s`` wide centred on (cx, cy); ``flip`` turns it upside down."""
    sign = -1 if flip else 1
    if suit_letter == "H":
        d.polygon(_heart_points(cx, cy, s, flip), fill=colour)
    elif suit_letter == "D":
        w, h = s * 0.40, s * 0.56
        pts = []
        for i in range(4):  # gently concave sides
            a = [(0, -h), (w, 0), (0, h), (-w, 0)][i]
            b = [(w, 0), (0, h), (-w, 0), (0, -h)][i]
            for t in (0.0, 0.25, 0.5, 0.75):
                bow = 0.08 * math.sin(math.pi * t)
                x = a[0] + (b[0] - a[0]) * t - bow * a[0] - bow * b[0]
                y = a[1] + (b[1] - a[1]) * t - bow * a[1] - bow * b[1]
                pts.append((cx + x, cy + y))
        d.polygon(pts, fill=colour)
    elif suit_letter == "S":
        body = _heart_points(cx, cy - sign * s * 0.06, s * 0.96, not flip)
        d.polygon(body, fill=colour)
        stem = [
            (cx, cy + sign * s * 0.05),
            (cx - s * 0.2, cy + sign * s * 0.5),
            (cx + s * 0.2, cy + sign * s * 0.5),
        ]
        d.polygon(stem, fill=colour)
    elif suit_letter == "C":
        r = s * 0.22
        for dx, dy in ((0, -0.2), (-0.24, 0.1), (0.24, 0.1)):
            x, y = cx + dx * s, cy + sign * dy * s
            d.ellipse((x - r, y - r, x + r, y + r), fill=colour)
        d.ellipse((cx - r * 0.7, cy - r * 0.5, cx + r * 0.7, cy + r * 0.9), fill=colour)
        stem = [
            (cx, cy + sign * s * 0.02),
            (cx - s * 0.18, cy + sign * s * 0.5),
            (cx + s * 0.18, cy + sign * s * 0.5),
        ]
        d.polygon(stem, fill=colour)


@lru_cache(maxsize=64)
def pip_image(suit_letter: str, size: int, colour: RGB | None = None) -> Image.Image:
    """A standalone antialiased suit symbol (RGBA), for labels next to text."""
    colour = colour or (CARD_RED if suit_letter in RED_SUITS else CARD_BLACK)
    big = Image.new("RGBA", (size * SCALE, size * SCALE), (0, 0, 0, 0))
    draw_pip(
        Draw(big),
        suit_letter,
        size * SCALE / 2,
        size * SCALE / 2,
        size * SCALE * 0.9,
        colour,
    )
    return big.resize((size, size), Image.Resampling.LANCZOS)


# Pip layouts of the number cards: (x, y) in units of the pip field (0..1), as on real cards.
_L, _M, _R = 0.0, 0.5, 1.0
PIP_LAYOUT: dict[str, list[tuple[float, float]]] = {
    "2": [(_M, 0), (_M, 1)],
    "3": [(_M, 0), (_M, 0.5), (_M, 1)],
    "4": [(_L, 0), (_R, 0), (_L, 1), (_R, 1)],
    "5": [(_L, 0), (_R, 0), (_M, 0.5), (_L, 1), (_R, 1)],
    "6": [(_L, 0), (_R, 0), (_L, 0.5), (_R, 0.5), (_L, 1), (_R, 1)],
    "7": [(_L, 0), (_R, 0), (_M, 0.25), (_L, 0.5), (_R, 0.5), (_L, 1), (_R, 1)],
    "8": [(_L, 0), (_R, 0), (_M, 0.25), (_L, 0.5), (_R, 0.5), (_M, 0.75), (_L, 1), (_R, 1)],
    "9": [(_L, 0), (_R, 0), (_L, 1 / 3), (_R, 1 / 3), (_M, 0.5), (_L, 2 / 3), (_R, 2 / 3), (_L, 1), (_R, 1)],
    "10": [
        (_L, 0), (_R, 0), (_M, 1 / 6), (_L, 1 / 3), (_R, 1 / 3),
        (_L, 2 / 3), (_R, 2 / 3), (_M, 5 / 6), (_L, 1), (_R, 1),
    ],
}  # fmt: skip


# ----------------------------------------------------------------------------- cards


def _draw_corner_text(
    d: ImageDraw.ImageDraw, text: str, x: float, y: float, size: int, colour: RGB
) -> float:
    """Rank text, horizontally centred on x, top at y; returns the bottom."""
    f = font(size, True)
    if len(text) == 2:  # "10": condensed so it fits the corner
        f = font(int(size * 0.86), True)
    box = d.textbbox((x, y), text, font=f, anchor="mt")
    d.text((x, y - (box[1] - y)), text, font=f, fill=colour, anchor="mt")
    return y + (box[3] - box[1])


def _master_face(code: str, width: int) -> Image.Image:
    w, h = width * SCALE, card_height(width) * SCALE
    img = card_frame(
        (w, h), fill=CARD_FACE, border=(120, 118, 112), border_width=max(2, SCALE), radius=w // 10
    )
    d = Draw(img)
    colour = _colour(code)
    if code in JOKERS:
        _draw_joker(img, d, code, w, h)
        return img
    r, s = rank(code), suit(code)
    # Corner index: large rank and pip at top-left, repeated upside down at bottom-right.
    idx = int(w * 0.27)
    cx = w * 0.125
    bottom = _draw_corner_text(d, r, cx, h * 0.035, idx, colour)
    draw_pip(d, s, cx, bottom + w * 0.1, w * 0.16, colour)
    corner = img.crop((0, 0, int(w * 0.26), int(h * 0.34)))
    img.alpha_composite(corner.rotate(180), (w - corner.width, h - corner.height))
    d = Draw(img)
    # The field between the corner columns.
    fx0, fx1 = w * 0.37, w * 0.63
    fy0, fy1 = h * 0.15, h * 0.85
    if r in PIP_LAYOUT:
        ps = w * 0.17
        for px, py in PIP_LAYOUT[r]:
            x = fx0 + (fx1 - fx0) * px
            y = fy0 + (fy1 - fy0) * py
            draw_pip(d, s, x, y, ps, colour, flip=py > 0.5)
    elif r == "A":
        draw_pip(d, s, w / 2, h / 2, w * (0.5 if s == "S" else 0.42), colour)
    else:  # J Q K: a tinted frame with the letter and the suit
        box = (w * 0.27, h * 0.13, w * 0.73, h * 0.87)
        d.rounded_rectangle(
            box, radius=w * 0.04, fill=FACE_TINT, outline=colour, width=max(2, SCALE)
        )
        f = font(int(w * 0.42), True)
        d.text((w / 2, h * 0.42), r, font=f, fill=colour, anchor="mm")
        draw_pip(d, s, w / 2, h * 0.66, w * 0.2, colour)
    return img


def _draw_joker(img: Image.Image, d: ImageDraw.ImageDraw, code: str, w: int, h: int) -> None:
    big = code == BIG_JOKER
    colour = CARD_RED if big else CARD_BLACK
    # "JOKER" down the corners.
    f = font(int(w * 0.15), True)
    for i, ch in enumerate("JOKER"):
        d.text((w * 0.12, h * 0.05 + i * w * 0.16), ch, font=f, fill=colour, anchor="mt")
    corner = img.crop((0, 0, int(w * 0.24), int(h * 0.62)))
    img.alpha_composite(corner.rotate(180), (w - corner.width, h - corner.height))
    d = Draw(img)
    # A jester's hat: three points with bells, over a band; gold for the big joker.
    cx, cy = w / 2, h * 0.44
    s = w * 0.5
    hat = JOKER_GOLD if big else (150, 150, 158)
    band = colour
    left = (cx - s * 0.5, cy + s * 0.2)
    right = (cx + s * 0.5, cy + s * 0.2)
    tips = [(cx - s * 0.52, cy - s * 0.45), (cx, cy - s * 0.62), (cx + s * 0.52, cy - s * 0.45)]
    d.polygon(
        [
            left,
            tips[0],
            (cx - s * 0.2, cy - s * 0.05),
            tips[1],
            (cx + s * 0.2, cy - s * 0.05),
            tips[2],
            right,
        ],
        fill=hat,
        outline=band,
        width=max(2, SCALE),
    )
    d.rounded_rectangle(
        (cx - s * 0.55, cy + s * 0.14, cx + s * 0.55, cy + s * 0.34), radius=s * 0.06, fill=band
    )
    for tx, ty in tips:
        r = s * 0.09
        d.ellipse((tx - r, ty - r, tx + r, ty + r), fill=band)
    label = "大王" if big else "小王"
    d.text((cx, h * 0.72), label, font=font(int(w * 0.2), True), fill=colour, anchor="mm")


@lru_cache(maxsize=256)
def card_image(code: str, width: int = 80) -> Image.Image:
    """The face of a card as an RGBA sprite ``width`` wide."""
    master = _master_face(code, width)
    return master.resize((width, card_height(width)), Image.Resampling.BOX)


@lru_cache(maxsize=16)
def card_back(width: int = 80) -> Image.Image:
    w, h = width * SCALE, card_height(width) * SCALE
    img = card_frame(
        (w, h), fill=CARD_FACE, border=(120, 118, 112), border_width=max(2, SCALE), radius=w // 10
    )
    d = Draw(img)
    m = w * 0.07
    d.rounded_rectangle((m, m, w - m, h - m), radius=w * 0.06, fill=BACK_RED)
    step = w * 0.14
    lw = max(1, SCALE)
    k = -h
    while k < w + h:  # diagonal lattice
        d.line((m + k, m, m + k + h, m + h), fill=BACK_LINE, width=lw)
        d.line((m + k + h, m, m + k, m + h), fill=BACK_LINE, width=lw)
        k += step
    # Re-mask the lattice to the inner panel and add a medallion.
    inner = Image.new("L", (w, h), 0)
    Draw(inner).rounded_rectangle((m, m, w - m, h - m), radius=w * 0.06, fill=255)
    face = card_frame(
        (w, h), fill=CARD_FACE, border=(120, 118, 112), border_width=max(2, SCALE), radius=w // 10
    )
    face.paste(img, (0, 0), inner)
    d = Draw(face)
    r = w * 0.2
    d.ellipse(
        (w / 2 - r, h / 2 - r, w / 2 + r, h / 2 + r),
        fill=CARD_FACE,
        outline=JOKER_GOLD,
        width=lw * 2,
    )
    d.text((w / 2, h / 2), "三", font=font(int(r * 1.2), True), fill=BACK_RED, anchor="mm")
    return face.resize((width, card_height(width)), Image.Resampling.LANCZOS)


# ----------------------------------------------------------------------------- helpers


def _name(view: View, seat: int) -> str:
    return str(view["players"][seat])


def _seat_positions(view: View) -> dict[int, str]:
    """Which side of the table each seat sits on for this viewer."""
    me = view.get("seat")
    bottom = me if isinstance(me, int) else 0
    return {(bottom + i) % 4: side for i, side in enumerate(("bottom", "right", "top", "left"))}


def _signed(n: int) -> str:
    return f"{n:+d}".replace("-", "−")


def _trick_winner(trick: Sequence[Mapping[str, Any]], trump: str | None) -> int | None:
    if not trick or trump is None:
        return None
    led = group(trick[0]["card"], trump)
    best, best_s = None, -1
    for p in trick:
        st = trick_strength(p["card"], trump, led)
        if st > best_s:
            best, best_s = p["seat"], st
    return best


def _legal_cards(view: View) -> set[str]:
    """The cards the viewer may play now (for highlighting its hand)."""
    hand = view.get("hand") or []
    if view.get("phase") != "play" or view.get("seat") not in (view.get("to_act") or []):
        return set()
    trick = view.get("trick") or []
    trump = view.get("trump")
    if not trick:
        return set(hand)
    led = group(trick[0]["card"], trump)
    following = {c for c in hand if group(c, trump) == led}
    return following or set(hand)


def _status_line(view: View) -> str:
    phase = view.get("phase")
    to_act = view.get("to_act") or []
    who = _name(view, to_act[0]) if to_act else ""
    if view.get("is_over") or phase == "over":
        return "The match is over"
    if phase == "bidding":
        return f"Bidding — {who} to speak"
    if phase == "bury":
        left = view.get("to_bury") or 6
        return f"{who} is burying {left} card{'s' if left != 1 else ''}"
    if phase == "trump":
        return f"{who} is naming trump"
    if phase == "play":
        return f"Trick {view.get('tricks_played', 0) + 1} of 12 — {who} to play"
    return ""


def _hand_prompt(view: View) -> str:
    """What the hand's owner is asked to do now (or what the table is waiting for)."""
    if view.get("seat") not in (view.get("to_act") or []):
        return _status_line(view)
    phase = view.get("phase")
    if phase == "bidding":
        minimum = view.get("bid_minimum")
        return f"Your bid: {minimum}–80 or pass" if minimum and minimum <= 80 else "Your turn: pass"
    if phase == "bury":
        left = view.get("to_bury") or 6
        n = len(view.get("hand") or [])
        return f"Your turn: bury {left} of these {n} cards"
    if phase == "trump":
        return "Your turn: name the trump suit"
    if phase == "play":
        return "Your turn: play a lifted card"
    return _status_line(view)


def _paste_text_with_pip(
    img: Image.Image, xy: tuple[int, int], text: str, suit_letter: str | None, size: int,
    fill: RGB = WHITE, bold: bool = True, pip_colour: RGB | None = None,
) -> int:  # fmt: skip
    """Text followed by a drawn suit pip; returns the x after it."""
    d = Draw(img)
    f = font(size, bold)
    x, y = xy
    d.text((x, y), text, font=f, fill=fill)
    x += int(f.getlength(text)) + 4
    if suit_letter:
        pip = pip_image(suit_letter, int(size * 1.1), pip_colour)
        img.paste(pip, (x, y + int(size * 0.12)), pip)
        x += pip.width + 4
    return x


def _suit_chip(img: Image.Image, xy: tuple[int, int], suit_letter: str, size: int) -> None:
    """A white disc with a coloured pip, readable on the felt."""
    x, y = xy
    d = Draw(img)
    d.ellipse((x, y, x + size, y + size), fill=CARD_FACE, outline=GOLD, width=2)
    pip = pip_image(suit_letter, int(size * 0.62))
    img.paste(pip, (x + (size - pip.width) // 2, y + (size - pip.height) // 2), pip)


# ----------------------------------------------------------------------------- table

W, H = 1160, 720
M = 12
LEFT_W = 250
RIGHT_W = 250
CENTER = (M + LEFT_W + 10, M, W - M - RIGHT_W - 10, H - M - 66)
FOOT = (M, H - M - 56, W - M, H - M)
TRICK_CARD = 90
SEAT_W, SEAT_H = 230, 92
SIDE_SEAT_W = 140


@lru_cache(maxsize=2)
def _base() -> Image.Image:
    img = felt((W, H)).convert("RGB")
    panel(img, (M, M, M + LEFT_W, FOOT[1] - 10))
    panel(img, (W - M - RIGHT_W, M, W - M, FOOT[1] - 10))
    panel(img, CENTER, fill=(0, 0, 0, 40))
    panel(img, FOOT, fill=(0, 0, 0, 110))
    return img


def _seat_box(side: str) -> tuple[int, int, int, int]:
    x0, y0, x1, y1 = CENTER
    cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
    if side == "bottom":
        return (cx - SEAT_W // 2, y1 - SEAT_H - 10, cx + SEAT_W // 2, y1 - 10)
    if side == "top":
        return (cx - SEAT_W // 2, y0 + 10, cx + SEAT_W // 2, y0 + 10 + SEAT_H)
    if side == "left":
        return (x0 + 10, cy - 70, x0 + 10 + SIDE_SEAT_W, cy + 70)
    return (x1 - 10 - SIDE_SEAT_W, cy - 70, x1 - 10, cy + 70)


def _trick_slot(side: str) -> tuple[int, int]:
    """Top-left of the card a seat plays to the trick."""
    x0, y0, x1, y1 = CENTER
    cx, cy = (x0 + x1) // 2, (y0 + y1) // 2 + 4
    cw, ch = TRICK_CARD, card_height(TRICK_CARD)
    off_x, off_y = 106, 88
    if side == "bottom":
        return (cx - cw // 2, cy + off_y - ch // 2)
    if side == "top":
        return (cx - cw // 2, cy - off_y - ch // 2)
    if side == "left":
        return (cx - off_x - cw // 2, cy - ch // 2)
    return (cx + off_x - cw // 2, cy - ch // 2)


def _seat_panel(img: Image.Image, view: View, seat: int, side: str) -> None:
    box = _seat_box(side)
    x0, y0, x1, y1 = box
    to_act = view.get("to_act") or []
    acting = seat in to_act and not view.get("is_over")
    declarer = view.get("declarer")
    panel(img, box, fill=(0, 0, 0, 120), border=GOLD if acting else (255, 255, 255, 50))
    d = Draw(img)
    if acting:
        d.rounded_rectangle((x0 - 2, y0 - 2, x1 + 2, y1 + 2), radius=12, outline=GOLD, width=3)
        badge(d, (x1 - 6, y0 - 10), "▶ TO PLAY", size=12, anchor="ra")
    name, size = fit_text(_name(view, seat), x1 - x0 - 20, 20, bold=True)
    d.text((x0 + 10, y0 + 8), name, font=font(size, True), fill=WHITE)
    y = y0 + 36
    if declarer is not None:
        if seat == declarer:
            badge(d, (x0 + 10, y), "庄 Declarer", size=13, fill=DECLARER_COLOUR)
        else:
            badge(d, (x0 + 10, y), "闲 Defender", size=13, fill=DEFENDER_COLOUR)
    elif view.get("phase") == "bidding":
        said = next((b["bid"] for b in view.get("bids") or [] if b["seat"] == seat), "—")
        text = "Pass" if said is None else ("…" if said == "—" else f"Bid {said}")
        badge(
            d, (x0 + 10, y), text, size=13, fill=GOLD if isinstance(said, int) else (180, 180, 180)
        )
    if seat == view.get("first_bidder") and view.get("phase") == "bidding":
        badge(d, (x1 - 10, y), "1st", size=13, fill=(200, 200, 200), anchor="ra")
    total = (view.get("scores") or [0, 0, 0, 0])[seat]
    counts = view.get("hand_counts") or [0, 0, 0, 0]
    won = (view.get("tricks_won") or [0, 0, 0, 0])[seat]
    stats = f"Total {_signed(total)}"
    tricks = f"{won} trick" + ("" if won == 1 else "s")
    line2 = f"{counts[seat]} cards · {tricks}"
    if side in ("left", "right"):
        d.text((x0 + 10, y + 28), stats, font=font(15, True), fill=GOLD)
        d.text((x0 + 10, y + 52), f"{counts[seat]} cards", font=font(14), fill=MUTED)
        d.text((x0 + 10, y + 72), f"{tricks} won", font=font(14), fill=MUTED)
    else:
        d.text((x0 + 10, y + 28), stats, font=font(15, True), fill=GOLD)
        d.text((x1 - 10, y + 30), line2, font=font(14), fill=MUTED, anchor="ra")


def _info_column(img: Image.Image, view: View) -> None:
    x0, y0 = M + 14, M + 12
    x1 = M + LEFT_W - 14
    d = Draw(img)
    d.text((x0, y0), "三打一 San Da Yi", font=font(22, True), fill=WHITE)
    deal, deals = view.get("deal", 1), view.get("deals")
    d.text(
        (x0, y0 + 32),
        f"Hand {deal} / {deals}" if deals else f"Hand {deal}",
        font=font(17, True),
        fill=GOLD,
    )
    redeals = view.get("redeals") or 0
    if redeals:
        d.text((x1, y0 + 34), f"redealt ×{redeals}", font=font(13), fill=MUTED, anchor="ra")
    y = y0 + 70
    bid, declarer = view.get("bid"), view.get("declarer")
    d.text((x0, y), "BID", font=font(13, True), fill=MUTED)
    if bid:
        d.text((x0, y + 18), f"{bid}", font=font(34, True), fill=WHITE)
        d.text(
            (x0 + 64, y + 22),
            f"by {_name(view, declarer)}",
            font=font(15, True),
            fill=DECLARER_COLOUR,
        )
        d.text((x0 + 64, y + 42), f"stake ×{view.get('stake')}", font=font(14), fill=MUTED)
    else:
        high = view.get("high_bid")
        d.text(
            (x0, y + 20),
            f"highest so far: {high}" if high else "no bid yet",
            font=font(16),
            fill=MUTED,
        )
    y += 78
    d.text((x0, y), "TRUMP", font=font(13, True), fill=MUTED)
    trump = view.get("trump")
    if trump:
        _suit_chip(img, (x0, y + 18), trump, 46)
        d.text((x0 + 56, y + 24), SUIT_NAME[trump], font=font(20, True), fill=WHITE)
        d.text((x0 + 56, y + 48), "+ jokers and all 2s", font=font(13), fill=MUTED)
    else:
        d.text((x0, y + 22), "not named yet", font=font(16), fill=MUTED)
    y += 84
    # The defenders' points against their target, with marks at N and 2N.
    d.text((x0, y), "DEFENDERS' POINTS", font=font(13, True), fill=MUTED)
    pts, target = view.get("defender_points", 0), view.get("target")
    if target:
        colour = BAD if pts >= target else WHITE
        d.text((x0, y + 16), f"{pts}", font=font(34, True), fill=colour)
        d.text((x0 + 70, y + 30), f"/ {target} needed", font=font(16, True), fill=MUTED)
        bar = (x0, y + 64, x1, y + 78)
        full = max(100, 2 * target)
        d.rounded_rectangle(bar, radius=6, fill=(20, 40, 30), outline=(255, 255, 255, 60))
        fill_w = int((bar[2] - bar[0]) * min(pts, full) / full)
        if fill_w > 4:
            d.rounded_rectangle((bar[0], bar[1], bar[0] + fill_w, bar[3]), radius=6, fill=colour)
        for mark, label in ((target, "N"), (2 * target, "2N")):
            mx = bar[0] + int((bar[2] - bar[0]) * mark / full)
            d.line((mx, bar[1] - 4, mx, bar[3] + 4), fill=GOLD, width=2)
            d.text((mx, bar[3] + 6), f"{label} {mark}", font=font(12, True), fill=GOLD, anchor="mt")
    else:
        d.text((x0, y + 22), "needed: 105 − bid", font=font(16), fill=MUTED)
    y += 116
    d.text((x0, y), f"TRICKS  {view.get('tricks_played', 0)} / 12", font=font(13, True), fill=MUTED)
    if declarer is not None:
        kept = sum(t["points"] for t in view.get("tricks") or [] if t["winner"] == declarer)
        d.text(
            (x0, y + 18), f"Declarer's tricks: {kept} pts (not counted)", font=font(13), fill=MUTED
        )
    y += 44
    _kitty(img, view, (x0, y), x1)


def _kitty(img: Image.Image, view: View, xy: tuple[int, int], x1: int) -> None:
    x0, y = xy
    d = Draw(img)
    kitty = view.get("kitty")
    declarer = view.get("declarer")
    buried = view.get("buried")
    cw = 36
    if buried:
        title = "BURIED (only you see them)"
        cards: list[str | None] = list(buried)
    elif kitty and declarer is not None:
        public = view.get("kitty_public")
        title = "KITTY (shown: bid 60/65)" if public else "KITTY (only you see it)"
        cards = list(kitty)
    else:
        title = "KITTY (face down)" if declarer is None else "KITTY (hidden: bid 70+)"
        cards = [None] * 6
    d.text((x0, y), title, font=font(13, True), fill=MUTED)
    step = min(cw + 4, (x1 - x0 - cw) // 5)
    for i, c in enumerate(cards):
        sprite = card_back(cw) if c is None else card_image(c, cw)
        paste_with_shadow(img, sprite, (x0 + i * step, y + 20))


def _right_column(img: Image.Image, view: View) -> None:
    x0, y0 = W - M - RIGHT_W + 14, M + 12
    x1 = W - M - 14
    d = Draw(img)
    d.text((x0, y0), _status_line(view), font=font(15, True), fill=GOLD)
    y = y0 + 30
    d.text((x0, y), "BIDDING THIS HAND", font=font(13, True), fill=MUTED)
    y += 20
    bids = view.get("bids") or []
    if not bids:
        first = view.get("first_bidder")
        note = f"{_name(view, first)} bids first" if isinstance(first, int) and first >= 0 else ""
        d.text((x0, y), note, font=font(14), fill=WHITE)
        y += 22
    for b in bids:
        said = "pass" if b["bid"] is None else str(b["bid"])
        name, size = fit_text(_name(view, b["seat"]), 150, 14)
        d.text((x0, y), name, font=font(size), fill=WHITE)
        d.text((x1, y), said, font=font(14, True), fill=GOLD if b["bid"] else MUTED, anchor="ra")
        y += 20
    y = max(y + 10, y0 + 150)
    last = view.get("last_trick")
    d.text((x0, y), "LAST TRICK", font=font(13, True), fill=MUTED)
    y += 20
    if last:
        cw = 44
        for i, p in enumerate(last["cards"]):
            cx = x0 + i * (cw + 14)
            paste_with_shadow(img, card_image(p["card"], cw), (cx, y))
            initial, _ = fit_text(_name(view, p["seat"]), cw + 12, 11)
            d.text(
                (cx + cw // 2, y + card_height(cw) + 4),
                initial,
                font=font(11),
                fill=MUTED,
                anchor="mt",
            )
            if p["seat"] == last["winner"]:
                d.rounded_rectangle(
                    (cx - 2, y - 2, cx + cw + 1, y + card_height(cw) + 1),
                    radius=5,
                    outline=HIGHLIGHT,
                    width=2,
                )
        y += card_height(cw) + 22
        side = "defenders" if last["winner"] != view.get("declarer") else "declarer"
        d.text(
            (x0, y),
            f"{_name(view, last['winner'])} won {last['points']} pts ({side})",
            font=font(13),
            fill=WHITE,
        )
        y += 24
    else:
        d.text((x0, y), "—", font=font(14), fill=MUTED)
        y += 24
    # Match scoreboard: hands so far and totals.
    y += 6
    d.text((x0, y), "MATCH TOTALS", font=font(13, True), fill=MUTED)
    y += 20
    scores = view.get("scores") or [0, 0, 0, 0]
    order = sorted(range(4), key=lambda s: -scores[s])
    for s in order:
        name, size = fit_text(_name(view, s), 160, 15)
        d.text((x0, y), name, font=font(size, True), fill=WHITE)
        d.text((x1, y), _signed(scores[s]), font=font(15, True), fill=GOLD, anchor="ra")
        y += 22
    history = view.get("history") or []
    if history:
        y += 8
        d.text((x0, y), "HANDS", font=font(13, True), fill=MUTED)
        y += 20
        for h in history[-max(1, (FOOT[1] - 20 - y) // 19) :]:
            text = f"{h['hand']}. {_name(view, h['declarer'])} {h['bid']} · D {h['defender_points']} · {h['case']}"
            text, size = fit_text(text, x1 - x0 - 44, 13)
            d.text((x0, y), text, font=font(size), fill=WHITE)
            dd = h["settlement"][h["declarer"]]
            d.text(
                (x1, y), _signed(dd), font=font(13, True), fill=GOOD if dd > 0 else BAD, anchor="ra"
            )
            y += 19


def _centre(img: Image.Image, view: View, sides: dict[int, str]) -> None:
    d = Draw(img)
    x0, y0, x1, y1 = CENTER
    cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
    phase = view.get("phase")
    trick = view.get("trick") or []
    trump = view.get("trump")
    if view.get("is_over"):
        _game_over_banner(img, view)
        return
    if phase == "play":
        shown, dim = trick, False
        if not trick and view.get("last_trick"):
            shown, dim = view["last_trick"]["cards"], True
        winner = _trick_winner(shown, trump)
        leader = shown[0]["seat"] if shown else None
        for p in shown:
            side = sides[p["seat"]]
            sprite = card_image(p["card"], TRICK_CARD)
            if dim:
                sprite = sprite.copy()
                sprite.putalpha(sprite.getchannel("A").point(lambda a: a * 210 // 255))
            x, y = _trick_slot(side)
            if p["seat"] == winner:
                g = glow(sprite.size, HIGHLIGHT, spread=10)
                img.paste(g, (x - 10, y - 10), g)
            paste_with_shadow(img, sprite, (x, y))
            if p["seat"] == leader:
                ly = y + card_height(TRICK_CARD) + 2 if side == "bottom" else y - 22
                badge(
                    Draw(img),
                    (x + TRICK_CARD // 2, ly),
                    "led",
                    size=12,
                    anchor="ma",
                    fill=(220, 220, 220),
                )
        d = Draw(img)
        if dim:
            last = view["last_trick"]
            box = (cx - 68, cy - 20, cx + 68, cy + 28)
            panel(img, box, fill=(0, 0, 0, 170), border=HIGHLIGHT)
            d = Draw(img)
            d.text(
                (cx, cy - 8),
                f"trick {view.get('tricks_played')} won by",
                font=font(12),
                fill=MUTED,
                anchor="mm",
            )
            who, size = fit_text(
                f"{_name(view, last['winner'])} +{last['points']}", 126, 15, bold=True
            )
            d.text((cx, cy + 12), who, font=font(size, True), fill=WHITE, anchor="mm")
        elif not shown and view.get("to_act"):
            d.text(
                (cx, cy),
                f"{_name(view, view['to_act'][0])} leads",
                font=font(16, True),
                fill=WHITE,
                anchor="mm",
            )
    elif phase == "bidding":
        cw = 48
        total = 6 * (cw + 6) - 6
        for i in range(6):
            paste_with_shadow(
                img, card_back(cw), (cx - total // 2 + i * (cw + 6), cy - card_height(cw) // 2 - 10)
            )
        d.text(
            (cx, cy + card_height(cw) // 2 + 6),
            "the kitty: 6 cards face down",
            font=font(14),
            fill=MUTED,
            anchor="mt",
        )
        minimum = view.get("bid_minimum")
        if minimum and view.get("to_act"):
            d.text(
                (cx, cy + card_height(cw) // 2 + 28),
                f"{_name(view, view['to_act'][0])} may bid {minimum}–80 or pass",
                font=font(15, True),
                fill=GOLD,
                anchor="mt",
            )
    elif phase in ("bury", "trump"):
        kitty = view.get("kitty")
        cw = 46
        total = 6 * (cw + 6) - 6
        for i in range(6):
            sprite = card_image(kitty[i], cw) if kitty else card_back(cw)
            paste_with_shadow(
                img, sprite, (cx - total // 2 + i * (cw + 6), cy - card_height(cw) // 2 - 14)
            )
        who = _name(view, view["declarer"])
        text = (
            f"{who} takes the kitty and buries 6 cards"
            if phase == "bury"
            else f"{who} names the trump suit"
        )
        d.text(
            (cx, cy + card_height(cw) // 2 + 2), text, font=font(16, True), fill=WHITE, anchor="mt"
        )
        note = (
            "kitty shown to all (bid 60/65)"
            if view.get("kitty_public")
            else "kitty hidden (bid 70+)"
        )
        d.text((cx, cy + card_height(cw) // 2 + 26), note, font=font(13), fill=MUTED, anchor="mt")


def _game_over_banner(img: Image.Image, view: View) -> None:
    x0, y0, x1, y1 = CENTER
    cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
    scores = view.get("scores") or [0, 0, 0, 0]
    best = max(scores)
    winners = [s for s in range(4) if scores[s] == best]
    names = " & ".join(_name(view, s) for s in winners)
    box = (cx - 150, cy - 62, cx + 150, cy + 62)
    panel(img, box, fill=(0, 0, 0, 200), border=GOLD)
    d = Draw(img)
    d.text((cx, cy - 36), "Match over", font=font(18, True), fill=MUTED, anchor="mm")
    text, size = fit_text(names, 276, 24, bold=True)
    d.text((cx, cy), text, font=font(size, True), fill=GOLD, anchor="mm")
    verb = "wins" if len(winners) == 1 else "win"
    d.text(
        (cx, cy + 34), f"{verb} with {_signed(best)}", font=font(18, True), fill=WHITE, anchor="mm"
    )


def _settlement_line(img: Image.Image, view: View) -> None:
    x0, y0, x1, y1 = FOOT
    d = Draw(img)
    history = view.get("history") or []
    if not history:
        d.text(
            (x0 + 14, (y0 + y1) // 2),
            "The settlement of each hand appears here.",
            font=font(15),
            fill=MUTED,
            anchor="lm",
        )
        return
    h = history[-1]
    kou = "抠底 by the defenders" if h["kou_di"] else "no 抠底"
    head = (
        f"Hand {h['hand']}: {_name(view, h['declarer'])} bid {h['bid']} · D {h['defender_points']}"
        f"/{h['target']} · {kou} · case {h['case']}"
    )
    x = _paste_text_with_pip(img, (x0 + 14, y0 + 5), head + " ·", None, 16)
    d.text((x, y0 + 5), h["case_name"], font=font(16), fill=MUTED)
    x = x0 + 14
    for s in range(4):
        delta = h["settlement"][s]
        name, size = fit_text(_name(view, s), 150, 16)
        text = f"{name} {_signed(delta)}"
        colour = GOOD if delta > 0 else BAD
        d.text((x, y0 + 29), text, font=font(size, True), fill=colour)
        x += int(font(size, True).getlength(text)) + 24


def render_table(view: View, locale: str = "en-US") -> Image.Image:
    """The public table: the trick, the bid and declarer, trump, points, seats, settlement."""
    img = _base().copy()
    sides = _seat_positions(view)
    for seat, side in sides.items():
        _seat_panel(img, view, seat, side)
    _info_column(img, view)
    _right_column(img, view)
    _centre(img, view, sides)
    _settlement_line(img, view)
    return img


# ----------------------------------------------------------------------------- hand

HAND_W = 1200


def _hand_groups(cards: Sequence[str], trump: str | None) -> list[tuple[str, list[str]]]:
    """Trumps (once trump is named; else jokers and 2s) first, then each plain suit."""
    out: list[tuple[str, list[str]]] = []
    ordered = sort_for_display(cards, trump)
    trumps = [c for c in ordered if is_trump(c, trump)]
    if trumps:
        out.append((TRUMP_GROUP, trumps))
    for s in ("S", "H", "C", "D"):
        plain = [c for c in ordered if not is_trump(c, trump) and suit(c) == s]
        if plain:
            out.append((s, plain))
    return out


def render_hand(view: View, locale: str = "en-US") -> Image.Image:
    """The seat's own hand grouped by trump and suits; playable cards lifted and ringed."""
    hand = list(view.get("hand") or [])
    trump = view.get("trump")
    seat = view.get("seat")
    groups = _hand_groups(hand, trump)
    n, g = len(hand), len(groups)
    group_gap = 22
    cw = 84
    step = cw + 6
    avail = HAND_W - 40
    # Width: each group is one full card plus a step per further card, groups apart.
    if n and (n - g) * step + g * cw + (g - 1) * group_gap > avail:  # 18 cards: overlap
        step = (avail - g * cw - (g - 1) * group_gap) // max(1, n - g)
    ch = card_height(cw)
    extra = 0
    declarer = view.get("declarer")
    side_cards = view.get("buried") or (
        view.get("kitty") if seat == declarer and view.get("phase") in ("bury",) else None
    )
    if view.get("buried"):
        extra = 92
    height = 88 + ch + 40 + extra
    img = felt((HAND_W, height)).convert("RGB")
    d = Draw(img)
    if seat is None:
        d.text((20, 20), "Spectators have no hand.", font=font(20, True), fill=WHITE)
        return img
    role = ""
    if declarer is not None:
        role = " · Declarer" if seat == declarer else " · Defender"
    title = f"{_name(view, seat)}{role} — {n} cards"
    x = _paste_text_with_pip(img, (20, 14), title, None, 20)
    if trump:
        x = _paste_text_with_pip(img, (x + 16, 16), "Trump", None, 17, fill=GOLD)
        _suit_chip(img, (x, 10), trump, 34)
        x += 42
    d.text((HAND_W - 20, 18), _hand_prompt(view), font=font(15, True), fill=GOLD, anchor="ra")
    legal = _legal_cards(view)
    x = 20
    top = 84
    for grp, cards in groups:
        label = "Trumps" if grp == TRUMP_GROUP else SUIT_NAME[grp]
        gx = x
        for c in cards:
            lift = 12 if c in legal else 0
            sprite = card_image(c, cw)
            if c in legal:
                gl = glow(sprite.size, HIGHLIGHT, spread=6)
                img.paste(gl, (x - 6, top + 8 - lift - 6), gl)
            paste_with_shadow(img, sprite, (x, top + 8 - lift))
            x += step
        x += cw - step + group_gap
        d.text(
            (gx, top - 26), label, font=font(13, True), fill=GOLD if grp == TRUMP_GROUP else MUTED
        )
        pts = sum(points(c) for c in cards)
        if pts:
            d.text((x - group_gap, top - 26), f"{pts} pts", font=font(12), fill=MUTED, anchor="ra")
    if view.get("phase") == "play" and legal:
        d.text(
            (20, top + ch + 18),
            "Lifted cards are the ones you may play.",
            font=font(14),
            fill=MUTED,
        )
    if side_cards and view.get("buried"):
        y = top + ch + 44
        d.text((20, y), "Buried (face down, only you see them):", font=font(14, True), fill=MUTED)
        for i, c in enumerate(sort_for_display(side_cards, trump)):
            paste_with_shadow(img, card_image(c, 40), (330 + i * 46, y - 6))
    return img


# ----------------------------------------------------------------------------- summary


def render_deal_summary(view: View, locale: str = "en-US") -> Image.Image | None:
    """The score sheet of the last finished hand: the result and the settlement table with
    the row that applied highlighted."""
    history = view.get("history") or []
    if not history:
        return None
    h = history[-1]
    w, hgt = 900, 520
    img = felt((w, hgt)).convert("RGB")
    d = Draw(img)
    declarer = h["declarer"]
    d.text((24, 18), f"Hand {h['hand']} — settlement", font=font(26, True), fill=WHITE)
    _paste_text_with_pip(
        img,
        (24, 60),
        f"{_name(view, declarer)} bid {h['bid']} (stake ×{h['stake']}) · trump",
        h["trump"],
        18,
        pip_colour=None,
    )
    d.text(
        (24, 92),
        f"Defenders took {h['defender_points']} points (needed {h['target']}, twice: {2 * h['target']})",
        font=font(18),
        fill=WHITE,
    )
    last = _name(view, h["last_trick_winner"])
    kou = (
        f"{last} (a defender) won the last trick: 抠底"
        if h["kou_di"]
        else f"{last} (the declarer) won the last trick: no 抠底"
    )
    d.text((24, 120), kou, font=font(18), fill=WHITE)
    # The seven rows, the applied one highlighted.
    tx0, ty = 24, 160
    panel(img, (tx0 - 8, ty - 8, 560, ty + 7 * 34 + 40))
    d = Draw(img)
    d.text((tx0, ty), "case", font=font(13, True), fill=MUTED)
    d.text((tx0 + 60, ty), "condition", font=font(13, True), fill=MUTED)
    d.text((tx0 + 400, ty), "declarer", font=font(13, True), fill=MUTED)
    d.text((tx0 + 470, ty), "each", font=font(13, True), fill=MUTED)
    ty += 24
    for case in SETTLEMENT_CASES:
        hit = case.code == h["case"]
        if hit:
            d.rounded_rectangle(
                (tx0 - 6, ty - 4, 552, ty + 26),
                radius=6,
                fill=(90, 70, 20),
                outline=HIGHLIGHT,
                width=2,
            )
        colour = WHITE if hit else DIM
        d.text((tx0, ty), case.code, font=font(16, True), fill=GOLD if hit else colour)
        name, size = fit_text(case.name, 330, 15)
        d.text((tx0 + 60, ty + 1), name, font=font(size), fill=colour)
        d.text((tx0 + 400, ty), f"{_signed(case.declarer)}s", font=font(16, True), fill=colour)
        d.text((tx0 + 470, ty), f"{_signed(case.defender)}s", font=font(16, True), fill=colour)
        ty += 34
    # Per-seat settlement and totals.
    px = 590
    panel(img, (px - 8, 152, w - 16, 152 + 7 * 34 + 40), title="SETTLEMENT")
    d = Draw(img)
    y = 190
    for s in range(4):
        name, size = fit_text(_name(view, s), 150, 16, bold=True)
        role = "庄" if s == declarer else "闲"
        d.text(
            (px + 4, y),
            role,
            font=font(16, True),
            fill=DECLARER_COLOUR if s == declarer else DEFENDER_COLOUR,
        )
        d.text((px + 28, y), name, font=font(size, True), fill=WHITE)
        delta = h["settlement"][s]
        d.text(
            (px + 220, y),
            _signed(delta),
            font=font(18, True),
            fill=GOOD if delta > 0 else BAD,
            anchor="ra",
        )
        d.text((px + 290, y + 2), _signed(h["totals"][s]), font=font(15), fill=GOLD, anchor="ra")
        y += 40
    d.text((px + 220, 168), "hand", font=font(12, True), fill=MUTED, anchor="ra")
    d.text((px + 290, 168), "total", font=font(12, True), fill=MUTED, anchor="ra")
    stake_note = f"case {h['case']}: declarer {_signed(h['declarer_multiple'])} × {h['stake']}, each defender {_signed(h['defender_multiple'])} × {h['stake']}"
    d.text((24, hgt - 40), stake_note, font=font(16), fill=MUTED)
    return img


@lru_cache(maxsize=1)
def png_palette() -> Image.Image:
    """The fixed palette every San Da Yi image is encoded with (built once per process)."""
    from bot.games.sandayi.cards import RANKS
    from bot.render.draw import GOLD, HIGHLIGHT, MUTED, WHITE, palette_sheet
    from bot.render.encode import palette_from

    codes = [f"{r}{s}" for s in "SHDC" for r in RANKS] + ["BJ", "SJ"]
    colours = [WHITE, MUTED, GOLD, HIGHLIGHT, (24, 22, 22), (200, 40, 40), (120, 210, 140)]
    sheets = [
        palette_sheet(
            _base(), [card_back(w) for w in (40, 60)] + [card_image(c, w) for c in codes], colours
        )
        for w in (TRICK_CARD, 60)
    ]
    return palette_from(sheets, 48)  # 48 colours: ~5% fewer bytes than 64, the same look
