"""San Da Yi images: the playing cards (our own Pillow art), the table, the hand and the
end-of-hand score sheet. Every render is a pure function of a view (see ``rules.py``).

Cards are painted on a 3x master and reduced by area averaging (BOX: antialiased pips,
without LANCZOS's ringing tones, which cost PNG bytes); sprites are cached per (code,
width). The table puts the viewer's seat at the bottom (a spectator sees seat 0 there) and
the next seats counter-clockwise: right, top, left.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.engine.view import PlayedCard
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
from bot.games.sandayi.rules import KOU_DI, NO_KOU_DI, PASS
from bot.games.sandayi.scoring import CASES_BY_CODE, SETTLEMENT_CASES
from bot.games.sandayi.views import HandRecord, SanDaYiView
from bot.i18n.text import Text, localize, ntext
from bot.render.draw import (
    GOLD,
    HIGHLIGHT,
    MUTED,
    WHITE,
    Draw,
    badge,
    card_frame,
    draw_fitted,
    felt,
    fit_text,
    glow,
    panel,
    paste_with_shadow,
    text_length,
    wrap_text,
)
from bot.render.fonts import font

View = SanDaYiView
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


def card_face(code: str) -> Image.Image:
    """One card face up at the replay's hand-panel size."""
    return card_image(code, 50)


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
    k: float = -h
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


# ----------------------------------------------------------------------------- words

#: Labels drawn on the images; each is said in the image's locale with ``localize``.
TITLE = Text("三打一 San Da Yi")
TO_PLAY = Text("▶ TO PLAY")
DECLARER = Text("庄 Declarer")
DEFENDER = Text("闲 Defender")
DECLARER_MARK = Text("庄", context="declarer mark")
DEFENDER_MARK = Text("闲", context="defender mark")
FIRST = Text("1st", context="first bidder")
PASS_LOWER = Text("pass", context="bidding")
TRUMP = Text("Trump")
TRUMPS = Text("Trumps")


def _case_name(entry: HandRecord) -> str:
    """The settlement row's name (a Text) for a hand of the view's history."""
    case = CASES_BY_CODE.get(entry["case"])
    return case.name if case is not None else str(entry.get("case_name", ""))


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


def _trick_winner(trick: Sequence[PlayedCard], trump: str | None) -> int | None:
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
        return Text("The match is over")
    if phase == "bidding":
        return Text("Bidding — {name} to speak", name=who)
    if phase == "bury":
        left = view.get("to_bury") or 6
        return ntext("{name} is burying {n} card", "{name} is burying {n} cards", left, name=who)
    if phase == "trump":
        return Text("{name} is naming trump", name=who)
    if phase == "play":
        return Text(
            "Trick {n} of 12 — {name} to play", n=view.get("tricks_played", 0) + 1, name=who
        )
    return ""


def _hand_prompt(view: View) -> str:
    """What the hand's owner is asked to do now (or what the table is waiting for)."""
    if view.get("seat") not in (view.get("to_act") or []):
        return _status_line(view)
    phase = view.get("phase")
    if phase == "bidding":
        minimum = view.get("bid_minimum")
        if minimum and minimum <= 80:
            return Text("Your bid: {minimum}–80 or pass", minimum=minimum)
        return Text("Your turn: pass")
    if phase == "bury":
        left = view.get("to_bury") or 6
        n = len(view.get("hand") or [])
        return Text("Your turn: bury {left} of these {n} cards", left=left, n=n)
    if phase == "trump":
        return Text("Your turn: name the trump suit")
    if phase == "play":
        return Text("Your turn: play a lifted card")
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
    x += int(text_length(text, size, bold)) + 4
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

# Laid out for Discord's inline preview (~550 px wide): the bid, trump and points in a column
# beside the table, the bidding, the last trick and the match in a band below it, so that at
# ``PREVIEW_W`` every text is at least ``MIN_TEXT`` × PREVIEW_W / W ≈ 9.6 px high and every card
# at least 20 px tall (tests/render check both over whole matches).
PREVIEW_W = 550
W, H = 860, 858
M = 12
MIN_TEXT = 15  # the smallest font drawn on the table (9.6 px at PREVIEW_W)
LEFT_W = 250
MAIN_H = 520
CENTER = (M + LEFT_W + 10, M, W - M, M + MAIN_H)
BAND_Y = CENTER[3] + 10
BAND_H = 200
#: The band's three panels: the bidding, the last trick, the match totals and hands.
BAND = (
    (M, BAND_Y, M + 250, BAND_Y + BAND_H),
    (M + 260, BAND_Y, M + 548, BAND_Y + BAND_H),
    (M + 558, BAND_Y, W - M, BAND_Y + BAND_H),
)
FOOT = (M, BAND_Y + BAND_H + 10, W - M, H - M)
TRICK_CARD = 80
SEAT_W, SEAT_H = 264, 94
SIDE_SEAT_W, SIDE_SEAT_H = 130, 152
LAST_TRICK_CARD = 46
KITTY_CARD = 36


def _fitted(
    d: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, width: float, size: int,
    fill: RGB = WHITE, bold: bool = False, anchor: str = "la",
) -> int:  # fmt: skip
    """``draw_fitted`` that shrinks no smaller than ``MIN_TEXT`` (it ellipsizes instead)."""
    return draw_fitted(d, xy, text, width, size, fill, bold, anchor, min_size=MIN_TEXT)


def _wrapped(
    d: ImageDraw.ImageDraw, xy: tuple[int, int], text: str, width: int, size: int,
    fill: RGB = WHITE, bold: bool = False, max_lines: int = 2, line_h: int | None = None,
) -> int:  # fmt: skip
    """``text`` on up to ``max_lines`` lines of ``width`` (the last ellipsized if it is still
    too long); returns the y below it."""
    x, y = xy
    lines = wrap_text(text, width, size, bold)
    if len(lines) > max_lines:
        lines = [*lines[: max_lines - 1], " ".join(lines[max_lines - 1 :])]
    for line in lines:
        _fitted(d, (x, y), line, width, size, fill, bold)
        y += line_h or size + 5
    return y


@lru_cache(maxsize=2)
def _base() -> Image.Image:
    img = felt((W, H)).convert("RGB")
    panel(img, (M, M, M + LEFT_W, CENTER[3]))
    panel(img, CENTER, fill=(0, 0, 0, 40))
    for box in BAND:
        panel(img, box)
    panel(img, FOOT, fill=(0, 0, 0, 110))
    return img


def _seat_box(side: str) -> tuple[int, int, int, int]:
    x0, y0, x1, y1 = CENTER
    cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
    if side == "bottom":
        return (cx - SEAT_W // 2, y1 - SEAT_H - 10, cx + SEAT_W // 2, y1 - 10)
    if side == "top":
        return (cx - SEAT_W // 2, y0 + 10, cx + SEAT_W // 2, y0 + 10 + SEAT_H)
    half = SIDE_SEAT_H // 2
    if side == "left":
        return (x0 + 10, cy - half, x0 + 10 + SIDE_SEAT_W, cy + half)
    return (x1 - 10 - SIDE_SEAT_W, cy - half, x1 - 10, cy + half)


def _trick_slot(side: str) -> tuple[int, int]:
    """Top-left of the card a seat plays to the trick."""
    x0, y0, x1, y1 = CENTER
    cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
    cw, ch = TRICK_CARD, card_height(TRICK_CARD)
    off_x, off_y = 96, 70
    if side == "bottom":
        return (cx - cw // 2, cy + off_y - ch // 2)
    if side == "top":
        return (cx - cw // 2, cy - off_y - ch // 2)
    if side == "left":
        return (cx - off_x - cw // 2, cy - ch // 2)
    return (cx + off_x - cw // 2, cy - ch // 2)


def _seat_panel(img: Image.Image, view: View, seat: int, side: str, locale: str) -> None:
    box = _seat_box(side)
    x0, y0, x1, y1 = box
    to_act = view.get("to_act") or []
    acting = seat in to_act and not view.get("is_over")
    declarer = view.get("declarer")
    panel(img, box, fill=(0, 0, 0, 120), border=GOLD if acting else (255, 255, 255, 50))
    d = Draw(img)
    if acting:
        d.rounded_rectangle((x0 - 2, y0 - 2, x1 + 2, y1 + 2), radius=12, outline=GOLD, width=3)
        badge(d, (x1 - 6, y0 - 12), localize(locale, TO_PLAY), size=MIN_TEXT, anchor="ra")
    inner = x1 - x0 - 20
    _fitted(d, (x0 + 10, y0 + 6), _name(view, seat), inner, 21, WHITE, True)
    y = y0 + 36
    if declarer is not None:
        if seat == declarer:
            badge(d, (x0 + 10, y), localize(locale, DECLARER), size=MIN_TEXT, fill=DECLARER_COLOUR)
        else:
            badge(d, (x0 + 10, y), localize(locale, DEFENDER), size=MIN_TEXT, fill=DEFENDER_COLOUR)
    elif view.get("phase") == "bidding":
        said = next((b["bid"] for b in view.get("bids") or [] if b["seat"] == seat), "—")
        text = PASS if said is None else ("…" if said == "—" else Text("Bid {bid}", bid=said))
        badge(
            d,
            (x0 + 10, y),
            localize(locale, text),
            size=MIN_TEXT,
            fill=GOLD if isinstance(said, int) else (180, 180, 180),
        )
    if seat == view.get("first_bidder") and view.get("phase") == "bidding":
        first = localize(locale, FIRST)
        badge(d, (x1 - 10, y), first, size=MIN_TEXT, fill=(200, 200, 200), anchor="ra")
    total = (view.get("scores") or [0, 0, 0, 0])[seat]
    counts = view.get("hand_counts") or [0, 0, 0, 0]
    won = (view.get("tricks_won") or [0, 0, 0, 0])[seat]
    stats = localize(locale, Text("Total {score}", score=_signed(total)))
    if side in ("left", "right"):
        _fitted(d, (x0 + 10, y + 30), stats, inner, 17, GOLD, True)
        cards = localize(locale, ntext("{n} card", "{n} cards", counts[seat]))
        tricks = localize(locale, ntext("{n} trick won", "{n} tricks won", won))
        _fitted(d, (x0 + 10, y + 56), cards, inner, MIN_TEXT, MUTED)
        _fitted(d, (x0 + 10, y + 78), tricks, inner, MIN_TEXT, MUTED)
    else:
        line2 = ntext(
            "{n} card · {tricks}",
            "{n} cards · {tricks}",
            counts[seat],
            tricks=ntext("{n} trick", "{n} tricks", won),
        )
        stats_w = _fitted(d, (x0 + 10, y + 28), stats, inner, 17, GOLD, True)
        _fitted(
            d, (x1 - 10, y + 30), localize(locale, line2), inner - stats_w - 10, MIN_TEXT, MUTED,
            anchor="ra",
        )  # fmt: skip


def _info_column(img: Image.Image, view: View, locale: str) -> None:
    x0, y0 = M + 12, M + 10
    x1 = M + LEFT_W - 12
    width = x1 - x0 + 6  # up to the panel's edge
    d = Draw(img)
    _fitted(d, (x0, y0), localize(locale, TITLE), width, 22, WHITE, True)
    deal, deals = view.get("deal", 1), view.get("deals")
    hand = (
        Text("Hand {deal} / {deals}", deal=deal, deals=deals)
        if deals
        else Text("Hand {deal}", deal=deal)
    )
    hand_w = _fitted(d, (x0, y0 + 30), localize(locale, hand), width, 18, GOLD, True)
    redeals = view.get("redeals") or 0
    if redeals:
        redealt = localize(locale, Text("redealt ×{n}", n=redeals))
        _fitted(d, (x1, y0 + 32), redealt, width - hand_w - 8, MIN_TEXT, MUTED, anchor="ra")
    y = y0 + 62
    bid, declarer = view.get("bid"), view.get("declarer")
    _fitted(d, (x0, y), localize(locale, Text("BID")), width, MIN_TEXT, MUTED, True)
    if bid:
        assert declarer is not None  # (a bid has its declarer)
        d.text((x0, y + 18), f"{bid}", font=font(34, True), fill=WHITE)
        by = localize(locale, Text("by {name}", name=_name(view, declarer)))
        _fitted(d, (x0 + 62, y + 19), by, width - 62, 17, DECLARER_COLOUR, True)
        stake = localize(locale, Text("stake ×{stake}", stake=view.get("stake")))
        _fitted(d, (x0 + 62, y + 41), stake, width - 62, 16, MUTED)
    else:
        high = view.get("high_bid")
        note = Text("highest so far: {bid}", bid=high) if high else Text("no bid yet")
        _fitted(d, (x0, y + 22), localize(locale, note), width, 17, MUTED)
    y += 72
    _fitted(d, (x0, y), localize(locale, Text("TRUMP")), width, MIN_TEXT, MUTED, True)
    trump = view.get("trump")
    if trump:
        _suit_chip(img, (x0, y + 20), trump, 44)
        name = localize(locale, SUIT_NAME[trump])
        _fitted(d, (x0 + 54, y + 20), name, width - 54, 20, WHITE, True)
        also = localize(locale, Text("+ jokers and all 2s"))
        _fitted(d, (x0 + 54, y + 46), also, width - 54, MIN_TEXT, MUTED)
    else:
        _fitted(d, (x0, y + 22), localize(locale, Text("not named yet")), width, 17, MUTED)
    y += 76
    # The defenders' points against their target, with marks at N and 2N.
    _fitted(d, (x0, y), localize(locale, Text("DEFENDERS' POINTS")), width, MIN_TEXT, MUTED, True)
    pts, target = view.get("defender_points", 0), view.get("target")
    if target:
        colour = BAD if pts >= target else WHITE
        d.text((x0, y + 16), f"{pts}", font=font(34, True), fill=colour)
        needed = localize(locale, Text("/ {target} needed", target=target))
        _fitted(d, (x0 + 62, y + 28), needed, width - 62, 17, MUTED, True)
        bar = (x0, y + 64, x1, y + 78)
        full = max(100, 2 * target)
        d.rounded_rectangle(bar, radius=6, fill=(20, 40, 30), outline=(255, 255, 255, 60))
        fill_w = int((bar[2] - bar[0]) * min(pts, full) / full)
        if fill_w > 4:
            d.rounded_rectangle((bar[0], bar[1], bar[0] + fill_w, bar[3]), radius=6, fill=colour)
        for mark, label in ((target, "N"), (2 * target, "2N")):
            mx = bar[0] + int((bar[2] - bar[0]) * mark / full)
            d.line((mx, bar[1] - 4, mx, bar[3] + 4), fill=GOLD, width=2)
            mark_font = font(MIN_TEXT, True)
            d.text((mx, bar[3] + 5), f"{label} {mark}", font=mark_font, fill=GOLD, anchor="mt")
    else:
        needed = localize(locale, Text("needed: 105 − bid"))
        _fitted(d, (x0, y + 22), needed, width, 17, MUTED)
    y += 108
    tricks = Text("TRICKS  {n} / 12", n=view.get("tricks_played", 0))
    _fitted(d, (x0, y), localize(locale, tricks), width, MIN_TEXT, MUTED, True)
    y += 20
    if declarer is not None:
        kept = sum(t["points"] for t in view.get("tricks") or [] if t["winner"] == declarer)
        note = Text("Declarer's tricks: {points} pts (not counted)", points=kept)
        y = _wrapped(d, (x0, y), localize(locale, note), width, MIN_TEXT, MUTED, line_h=19)
    _kitty(img, view, (x0, max(y + 6, CENTER[3] - 90)), x1, locale)


def _kitty(img: Image.Image, view: View, xy: tuple[int, int], x1: int, locale: str) -> None:
    x0, y = xy
    d = Draw(img)
    kitty = view.get("kitty")
    declarer = view.get("declarer")
    buried = view.get("buried")
    cw = KITTY_CARD
    if buried:
        title = Text("BURIED (only you see them)")
        cards: list[str | None] = list(buried)
    elif kitty and declarer is not None:
        public = view.get("kitty_public")
        title = Text("KITTY (shown: bid 60/65)") if public else Text("KITTY (only you see it)")
        cards = list(kitty)
    else:
        title = Text("KITTY (face down)") if declarer is None else Text("KITTY (hidden: bid 70+)")
        cards = [None] * 6
    _fitted(d, (x0, y), localize(locale, title), x1 - x0 + 6, MIN_TEXT, MUTED, True)
    step = min(cw + 4, (x1 - x0 - cw) // 5)
    for i, c in enumerate(cards):
        sprite = card_back(cw) if c is None else card_image(c, cw)
        paste_with_shadow(img, sprite, (x0 + i * step, y + 22))


def _band_bidding(img: Image.Image, view: View, locale: str) -> None:
    """The band's first panel: what is happening now and this hand's bids."""
    bx0, by0, bx1, by1 = BAND[0]
    x0, x1, y = bx0 + 12, bx1 - 12, by0 + 10
    width = x1 - x0
    d = Draw(img)
    y = _wrapped(d, (x0, y), localize(locale, _status_line(view)), width, 16, GOLD, True)
    y += 4
    _fitted(d, (x0, y), localize(locale, Text("BIDDING THIS HAND")), width, MIN_TEXT, MUTED, True)
    y += 22
    bids = view.get("bids") or []
    if not bids:
        first = view.get("first_bidder")
        if isinstance(first, int) and first >= 0:
            note = localize(locale, Text("{name} bids first", name=_name(view, first)))
            _fitted(d, (x0, y), note, width, 16, WHITE)
    room = max(1, (by1 - 8 - y) // 21)
    for b in bids[-room:]:  # the latest bids when more were said than fit
        said = localize(locale, PASS_LOWER) if b["bid"] is None else str(b["bid"])
        said_w = _fitted(d, (x1, y), said, width // 2, 16, GOLD if b["bid"] else MUTED, True, "ra")
        _fitted(d, (x0, y), _name(view, b["seat"]), width - said_w - 10, 16, WHITE)
        y += 21


def _band_last_trick(img: Image.Image, view: View, locale: str) -> None:
    """The band's second panel: the last trick's cards, who played them, who took it."""
    bx0, by0, bx1, _ = BAND[1]
    x0, x1, y = bx0 + 12, bx1 - 12, by0 + 10
    d = Draw(img)
    _fitted(d, (x0, y), localize(locale, Text("LAST TRICK")), x1 - x0, MIN_TEXT, MUTED, True)
    y += 24
    last = view.get("last_trick")
    if not last:
        d.text((x0, y), "—", font=font(16), fill=MUTED)
        return
    cw = LAST_TRICK_CARD
    step = (x1 - x0 - cw) // 3
    for i, p in enumerate(last["cards"]):
        cx = x0 + i * step
        paste_with_shadow(img, card_image(p["card"], cw), (cx, y))
        _fitted(
            d, (cx + cw // 2, y + card_height(cw) + 4), _name(view, p["seat"]), step - 4,
            MIN_TEXT, MUTED, anchor="ma",
        )  # fmt: skip
        if p["seat"] == last["winner"]:
            d.rounded_rectangle(
                (cx - 2, y - 2, cx + cw + 1, y + card_height(cw) + 1),
                radius=5,
                outline=HIGHLIGHT,
                width=2,
            )
    y += card_height(cw) + 26
    who = _name(view, last["winner"])
    if last["winner"] != view.get("declarer"):
        won = Text("{name} won {points} pts (defenders)", name=who, points=last["points"])
    else:
        won = Text("{name} won {points} pts (declarer)", name=who, points=last["points"])
    _wrapped(d, (x0, y), localize(locale, won), x1 - x0, MIN_TEXT, WHITE, line_h=19)


def _band_match(img: Image.Image, view: View, locale: str) -> None:
    """The band's third panel: the match totals and the hands played so far."""
    bx0, by0, bx1, by1 = BAND[2]
    x0, x1, y = bx0 + 12, bx1 - 12, by0 + 10
    width = x1 - x0
    d = Draw(img)
    _fitted(d, (x0, y), localize(locale, Text("MATCH TOTALS")), width, MIN_TEXT, MUTED, True)
    y += 22
    scores = view.get("scores") or [0, 0, 0, 0]
    for s in sorted(range(4), key=lambda s: -scores[s]):
        score_w = _fitted(d, (x1, y), _signed(scores[s]), width // 3, 16, GOLD, True, "ra")
        _fitted(d, (x0, y), _name(view, s), width - score_w - 10, 16, WHITE, True)
        y += 21
    history = view.get("history") or []
    room = (by1 - 8 - y - 26) // 20
    if history and room > 0:
        y += 4
        _fitted(d, (x0, y), localize(locale, Text("HANDS")), width, MIN_TEXT, MUTED, True)
        y += 22
        for h in history[-room:]:
            dd = h["settlement"][h["declarer"]]
            colour = GOOD if dd > 0 else BAD
            dd_w = _fitted(d, (x1, y), _signed(dd), width // 3, MIN_TEXT, colour, True, "ra")
            text = f"{h['hand']}. {_name(view, h['declarer'])} {h['bid']} · D {h['defender_points']} · {h['case']}"
            _fitted(d, (x0, y), text, width - dd_w - 10, MIN_TEXT, WHITE)
            y += 20


def _centre(img: Image.Image, view: View, sides: dict[int, str], locale: str) -> None:
    d = Draw(img)
    x0, y0, x1, y1 = CENTER
    cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
    phase = view.get("phase")
    trick = view.get("trick") or []
    trump = view.get("trump")
    between = x1 - x0 - 2 * SIDE_SEAT_W - 36  # the room between the side seats
    if view.get("is_over"):
        _game_over_banner(img, view, locale)
        return
    if phase == "play":
        shown, dim = trick, False
        last_trick = view.get("last_trick")
        if not trick and last_trick:
            shown, dim = last_trick["cards"], True
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
                ly = y + card_height(TRICK_CARD) + 3 if side == "bottom" else y - 26
                badge(
                    Draw(img),
                    (x + TRICK_CARD // 2, ly),
                    localize(locale, Text("led")),
                    size=MIN_TEXT,
                    anchor="ma",
                    fill=(220, 220, 220),
                )
        d = Draw(img)
        if dim and last_trick:  # (dim: the last trick is shown)
            last = last_trick
            box = (cx - 84, cy - 26, cx + 84, cy + 30)
            panel(img, box, fill=(0, 0, 0, 170), border=HIGHLIGHT)
            d = Draw(img)
            won_by = Text("trick {n} won by", n=view.get("tricks_played"))
            _fitted(d, (cx, cy - 10), localize(locale, won_by), 156, MIN_TEXT, MUTED, anchor="mm")
            who = f"{_name(view, last['winner'])} +{last['points']}"
            _fitted(d, (cx, cy + 13), who, 156, 17, WHITE, True, "mm")
        elif not shown and view.get("to_act"):
            leads = Text("{name} leads", name=_name(view, view["to_act"][0]))
            _fitted(d, (cx, cy), localize(locale, leads), between, 18, WHITE, True, "mm")
    elif phase == "bidding":
        cw = 40
        total = 6 * (cw + 6) - 6
        top = cy - card_height(cw) // 2 - 24
        for i in range(6):
            paste_with_shadow(img, card_back(cw), (cx - total // 2 + i * (cw + 6), top))
        y = top + card_height(cw) + 8
        kitty_note = localize(locale, Text("the kitty: 6 cards face down"))
        _fitted(d, (cx, y), kitty_note, between, 16, MUTED, anchor="ma")
        minimum = view.get("bid_minimum")
        if minimum and view.get("to_act"):
            may = Text(
                "{name} may bid {minimum}–80 or pass",
                name=_name(view, view["to_act"][0]),
                minimum=minimum,
            )
            _centred_lines(d, (cx, y + 24), localize(locale, may), between, 17, GOLD, True)
    elif phase in ("bury", "trump"):
        kitty = view.get("kitty")
        cw = 40
        total = 6 * (cw + 6) - 6
        top = cy - card_height(cw) // 2 - 28
        for i in range(6):
            sprite = card_image(kitty[i], cw) if kitty else card_back(cw)
            paste_with_shadow(img, sprite, (cx - total // 2 + i * (cw + 6), top))
        declarer = view["declarer"]
        assert declarer is not None  # (the declarer buries and names trump)
        who = _name(view, declarer)
        text = (
            Text("{name} takes the kitty and buries 6 cards", name=who)
            if phase == "bury"
            else Text("{name} names the trump suit", name=who)
        )
        y = _centred_lines(
            d, (cx, top + card_height(cw) + 6), localize(locale, text), between, 17, WHITE, True
        )
        note = (
            Text("kitty shown to all (bid 60/65)")
            if view.get("kitty_public")
            else Text("kitty hidden (bid 70+)")
        )
        _centred_lines(d, (cx, y + 2), localize(locale, note), between, MIN_TEXT, MUTED)


def _centred_lines(
    d: ImageDraw.ImageDraw, xy: tuple[int, int], text: str, width: int, size: int,
    fill: RGB, bold: bool = False,
) -> int:  # fmt: skip
    """``text`` centred on up to two lines (a long name need not cut the sentence); returns
    the y below it."""
    x, y = xy
    lines = wrap_text(text, width, size, bold)
    if len(lines) > 2:
        lines = [lines[0], " ".join(lines[1:])]
    for line in lines:
        _fitted(d, (x, y), line, width, size, fill, bold, "ma")
        y += size + 6
    return y


def _game_over_banner(img: Image.Image, view: View, locale: str) -> None:
    x0, y0, x1, y1 = CENTER
    cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
    scores = view.get("scores") or [0, 0, 0, 0]
    best = max(scores)
    winners = [s for s in range(4) if scores[s] == best]
    names = " & ".join(_name(view, s) for s in winners)
    half = (x1 - x0) // 2 - 2 * SIDE_SEAT_W // 2 - 18  # between the side seats
    room = 2 * half - 20
    # Tied winners' names take two lines rather than lose the last of them.
    lines = 1 if text_length(names, 24, True) <= room else 2
    top = cy - 62 - 15 * (lines - 1)
    box = (cx - half, top, cx + half, cy + 62 + 15 * (lines - 1))
    panel(img, box, fill=(0, 0, 0, 200), border=GOLD)
    d = Draw(img)
    over = localize(locale, Text("Match over"))
    _fitted(d, (cx, top + 26), over, room, 18, MUTED, True, "mm")
    size = 24 if lines == 1 else 20
    y = _centred_lines(d, (cx, top + 46), names, room, size, GOLD, True)
    score = _signed(best)
    won = (
        Text("wins with {score}", score=score)
        if len(winners) == 1
        else Text("win with {score}", score=score)
    )
    _fitted(d, (cx, y + 18), localize(locale, won), room, 18, WHITE, True, "mm")


def _settlement_line(img: Image.Image, view: View, locale: str) -> None:
    x0, y0, x1, y1 = FOOT
    d = Draw(img)
    history = view.get("history") or []
    width = x1 - x0 - 28
    if not history:
        note = localize(locale, Text("The settlement of each hand appears here."))
        _fitted(d, (x0 + 14, (y0 + y1) // 2), note, width, 17, MUTED, anchor="lm")
        return
    h = history[-1]
    head = Text(
        "Hand {hand}: {name} bid {bid} · D {points}/{target} · {kou} · case {case}",
        hand=h["hand"],
        name=_name(view, h["declarer"]),
        bid=h["bid"],
        points=h["defender_points"],
        target=h["target"],
        kou=KOU_DI if h["kou_di"] else NO_KOU_DI,
        case=h["case"],
    )
    _fitted(d, (x0 + 14, y0 + 6), localize(locale, head), width, 17, WHITE, True)
    _fitted(d, (x0 + 14, y0 + 30), localize(locale, _case_name(h)), width, 16, MUTED)
    x = x0 + 14
    share = width // 4
    for s in range(4):
        delta = h["settlement"][s]
        colour = GOOD if delta > 0 else BAD
        score = _signed(delta)
        score_w = int(text_length(score, 17, True))
        name_w = _fitted(d, (x, y0 + 54), _name(view, s), share - score_w - 24, 17, colour, True)
        d.text((x + name_w + 6, y0 + 54), score, font=font(17, True), fill=colour)
        x += share


def render_table(view: View, locale: str = "en-US") -> Image.Image:
    """The public table: the trick, the bid and declarer, trump, points, seats, settlement."""
    img = _base().copy()
    sides = _seat_positions(view)
    for seat, side in sides.items():
        _seat_panel(img, view, seat, side, locale)
    _info_column(img, view, locale)
    _band_bidding(img, view, locale)
    _band_last_trick(img, view, locale)
    _band_match(img, view, locale)
    _centre(img, view, sides, locale)
    _settlement_line(img, view, locale)
    return img


# ----------------------------------------------------------------------------- hand

# Narrow enough for Discord's inline preview (its smallest text 9.6 px at PREVIEW_W): the
# suits go on two rows when one would overlap the cards past their corners.
HAND_W = 860
HAND_CARD = 78
HAND_GROUP_GAP = 22
HAND_MIN_STEP = 40  # the least of a card shown when cards overlap (its corner and more)
HAND_ROW_H = card_height(HAND_CARD) + 44  # a row: its suits' names, the cards lifted


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
    n = len(hand)
    cw = HAND_CARD
    rows, step = _hand_rows(groups)
    ch = card_height(cw)
    extra = 0
    declarer = view.get("declarer")
    side_cards = view.get("buried") or (
        view.get("kitty") if seat == declarer and view.get("phase") in ("bury",) else None
    )
    if view.get("buried"):
        extra = 92
    height = 60 + len(rows) * HAND_ROW_H + 22 + extra
    img = felt((HAND_W, height)).convert("RGB")
    d = Draw(img)
    if seat is None:
        no_hand = localize(locale, Text("Spectators have no hand.", context="cards"))
        draw_fitted(d, (20, 20), no_hand, HAND_W - 40, 20, WHITE, True)
        return img
    name = _name(view, seat)
    if declarer is None:
        title = ntext("{name} — {n} card", "{name} — {n} cards", n, name=name)
    elif seat == declarer:
        title = ntext("{name} · Declarer — {n} card", "{name} · Declarer — {n} cards", n, name=name)
    else:
        title = ntext("{name} · Defender — {n} card", "{name} · Defender — {n} cards", n, name=name)
    # The title, trump and prompt share the top line: the title gives way first (down to
    # half the line), then the prompt.
    title_text = localize(locale, title)
    trump_text = localize(locale, TRUMP) if trump else ""
    prompt = localize(locale, _hand_prompt(view))
    trump_w = int(text_length(trump_text, 17, True)) + 4 + 16 + 42 if trump else 0
    prompt_w = int(text_length(prompt, 16, True))
    room = HAND_W - 40 - trump_w - 24
    title_room = max(room - prompt_w, room // 2)
    title_text, title_size = fit_text(title_text, title_room, 20, True, MIN_TEXT)
    x = _paste_text_with_pip(img, (20, 14), title_text, None, title_size)
    if trump:
        x = _paste_text_with_pip(img, (x + 16, 16), trump_text, None, 17, fill=GOLD)
        _suit_chip(img, (x, 10), trump, 34)
        x += 42
    _fitted(d, (HAND_W - 20, 17), prompt, HAND_W - 20 - x - 24, 16, GOLD, True, "ra")
    legal = _legal_cards(view)
    top = 60 + 30
    for row in rows:
        x = 20
        for grp, cards in row:
            x = _hand_group(img, d, grp, cards, (x, top), step, legal, locale)
        top += HAND_ROW_H
    top -= HAND_ROW_H
    if view.get("phase") == "play" and legal:
        lifted = localize(locale, Text("Lifted cards are the ones you may play."))
        _fitted(d, (20, top + ch + 18), lifted, HAND_W - 40, MIN_TEXT, MUTED)
    if side_cards and view.get("buried"):
        y = top + ch + 44
        buried = localize(locale, Text("Buried (face down, only you see them):"))
        end = 20 + _fitted(d, (20, y), buried, HAND_W - 40 - 6 * 46, MIN_TEXT, MUTED, True)
        for i, c in enumerate(sort_for_display(side_cards, trump)):
            paste_with_shadow(img, card_image(c, 40), (max(330, end + 16) + i * 46, y - 6))
    return img


def _hand_rows(
    groups: list[tuple[str, list[str]]],
) -> tuple[list[list[tuple[str, list[str]]]], int]:
    """The groups on one row, or on two when one row would show less than HAND_MIN_STEP of
    a card; and the step between the cards of a group (the same on every row)."""
    avail = HAND_W - 40

    def step_for(row: list[tuple[str, list[str]]]) -> int:
        n, g = sum(len(cards) for _, cards in row), len(row)
        room = avail - g * HAND_CARD - (g - 1) * HAND_GROUP_GAP
        return min(HAND_CARD + 6, room // max(1, n - g))

    if len(groups) < 2 or step_for(groups) >= HAND_MIN_STEP:
        return [groups], step_for(groups)
    # Two rows, split where the wider row is the narrowest.
    split = max(
        range(1, len(groups)), key=lambda k: min(step_for(groups[:k]), step_for(groups[k:]))
    )
    rows = [groups[:split], groups[split:]]
    return rows, min(step_for(row) for row in rows)


def _hand_group(
    img: Image.Image, d: ImageDraw.ImageDraw, grp: str, cards: list[str], xy: tuple[int, int],
    step: int, legal: set[str], locale: str,
) -> int:  # fmt: skip
    """One suit (or the trumps) of the hand under its name and points; returns the x where
    the next group starts."""
    x, top = xy
    cw = HAND_CARD
    label = localize(locale, TRUMPS if grp == TRUMP_GROUP else SUIT_NAME[grp])
    gx = x
    for c in cards:
        lift = 12 if c in legal else 0
        sprite = card_image(c, cw)
        if c in legal:
            gl = glow(sprite.size, HIGHLIGHT, spread=6)
            img.paste(gl, (x - 6, top + 8 - lift - 6), gl)
        paste_with_shadow(img, sprite, (x, top + 8 - lift))
        x += step
    x += cw - step + HAND_GROUP_GAP
    pts = sum(points(c) for c in cards)
    pts_text = localize(locale, ntext("{n} pt", "{n} pts", pts)) if pts else ""
    pts_w = int(text_length(pts_text, MIN_TEXT)) + 6 if pts else 0
    width = x - HAND_GROUP_GAP - gx
    colour = GOLD if grp == TRUMP_GROUP else MUTED
    _fitted(d, (gx, top - 28), label, max(width - pts_w, 30), MIN_TEXT, colour, True)
    if pts and width - pts_w >= 30:
        d.text((gx + width, top - 28), pts_text, font=font(MIN_TEXT), fill=MUTED, anchor="ra")
    return x


# ----------------------------------------------------------------------------- summary


SHEET_W, SHEET_H = 700, 668


def render_deal_summary(view: View, locale: str = "en-US") -> Image.Image | None:
    """The score sheet of the last finished hand: the result, the settlement table with the
    row that applied highlighted, and each seat's settlement. One column, ``SHEET_W`` wide,
    so that at Discord's inline preview its smallest text is 11.8 px high."""
    history = view.get("history") or []
    if not history:
        return None
    h = history[-1]
    w = SHEET_W
    room = w - 48
    img = felt((w, SHEET_H)).convert("RGB")
    d = Draw(img)
    declarer = h["declarer"]
    title = localize(locale, Text("Hand {hand} — settlement", hand=h["hand"]))
    _fitted(d, (24, 16), title, room, 26, WHITE, True)
    bid = Text(
        "{name} bid {bid} (stake ×{stake}) · trump",
        name=_name(view, declarer),
        bid=h["bid"],
        stake=h["stake"],
    )
    bid_text, bid_size = fit_text(localize(locale, bid), room - 30, 18, True, MIN_TEXT)
    _paste_text_with_pip(img, (24, 56), bid_text, h["trump"], bid_size, pip_colour=None)
    took = Text(
        "Defenders took {points} points (needed {target}, twice: {double})",
        points=h["defender_points"],
        target=h["target"],
        double=2 * h["target"],
    )
    _fitted(d, (24, 86), localize(locale, took), room, 17, WHITE)
    last = _name(view, h["last_trick_winner"])
    kou = (
        Text("{name} (a defender) won the last trick (抠底): higher stakes", name=last)
        if h["kou_di"]
        else Text("{name} (the declarer) won the last trick (no 抠底)", name=last)
    )
    _fitted(d, (24, 112), localize(locale, kou), room, 17, WHITE)
    # The seven rows, the applied one highlighted.
    tx0, ty = 24, 156
    right = w - 24
    panel(img, (tx0 - 10, ty - 8, right + 10, ty + 26 + 7 * 32 + 6))
    d = Draw(img)
    columns = (  # x from tx0, width, heading
        (0, 50, Text("case", context="settlement sheet")),
        (56, 420, Text("condition", context="settlement sheet")),
        (486, 70, Text("declarer", context="settlement sheet")),
        (570, 62, Text("each", context="settlement sheet")),
    )
    for dx, width, head in columns:
        _fitted(d, (tx0 + dx, ty), localize(locale, head), width, MIN_TEXT, MUTED, True)
    ty += 26
    for case in SETTLEMENT_CASES:
        hit = case.code == h["case"]
        if hit:
            d.rounded_rectangle(
                (tx0 - 6, ty - 4, right + 6, ty + 25),
                radius=6,
                fill=(90, 70, 20),
                outline=HIGHLIGHT,
                width=2,
            )
        colour = WHITE if hit else DIM
        d.text((tx0, ty), case.code, font=font(17, True), fill=GOLD if hit else colour)
        _fitted(d, (tx0 + 56, ty + 1), localize(locale, case.name), 420, 16, colour)
        d.text((tx0 + 486, ty), f"{_signed(case.declarer)}s", font=font(17, True), fill=colour)
        d.text((tx0 + 570, ty), f"{_signed(case.defender)}s", font=font(17, True), fill=colour)
        ty += 32
    # Per-seat settlement and totals.
    top = ty + 22
    panel(
        img,
        (tx0 - 10, top, right + 10, top + 40 + 4 * 34 + 8),
        title=localize(locale, Text("SETTLEMENT")),
        title_size=MIN_TEXT,
    )
    d = Draw(img)
    hand_x, total_x = right - 110, right - 6
    this_hand = localize(locale, Text("hand", context="settlement sheet"))
    _fitted(d, (hand_x, top + 8), this_hand, 90, MIN_TEXT, MUTED, True, "ra")
    total = localize(locale, Text("total", context="settlement sheet"))
    _fitted(d, (total_x, top + 8), total, 90, MIN_TEXT, MUTED, True, "ra")
    y = top + 40
    for s in range(4):
        role = localize(locale, DECLARER_MARK if s == declarer else DEFENDER_MARK)
        role_colour = DECLARER_COLOUR if s == declarer else DEFENDER_COLOUR
        d.text((tx0 + 4, y), role, font=font(18, True), fill=role_colour)
        _fitted(d, (tx0 + 32, y), _name(view, s), hand_x - 80 - tx0 - 32, 18, WHITE, True)
        delta = h["settlement"][s]
        colour = GOOD if delta > 0 else BAD
        d.text((hand_x, y), _signed(delta), font=font(19, True), fill=colour, anchor="ra")
        d.text((total_x, y + 1), _signed(h["totals"][s]), font=font(17), fill=GOLD, anchor="ra")
        y += 34
    stake_note = Text(
        "case {case}: declarer {declarer} × {stake}, each defender {defender} × {stake}",
        case=h["case"],
        declarer=_signed(h["declarer_multiple"]),
        defender=_signed(h["defender_multiple"]),
        stake=h["stake"],
    )
    _fitted(d, (24, SHEET_H - 36), localize(locale, stake_note), room, 16, MUTED)
    return img


@lru_cache(maxsize=1)
def png_palette() -> Image.Image:
    """The fixed palette every San Da Yi image is encoded with (built once per process)."""
    from bot.games.sandayi.cards import RANKS
    from bot.render.draw import GOLD, HIGHLIGHT, MUTED, WHITE, palette_sheet
    from bot.render.encode import palette_from

    codes = [f"{r}{s}" for s in "SHDC" for r in RANKS] + ["BJ", "SJ"]
    colours = [WHITE, MUTED, GOLD, HIGHLIGHT, (24, 22, 22), (200, 40, 40), (120, 210, 140)]
    colours += [DECLARER_COLOUR, DEFENDER_COLOUR, GOOD, BAD, DIM]
    sheets = [
        palette_sheet(
            _base(), [card_back(w) for w in (40, 60)] + [card_image(c, w) for c in codes], colours
        )
        for w in (TRICK_CARD, 60)
    ]
    # 48 colours: ~5% fewer bytes than 64, the same look
    return palette_from(sheets, 48, keep=colours)
