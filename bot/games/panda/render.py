"""Panda images: the public table, a seat's hand (for its DM) and the hand's score sheet.

All card art is drawn here with Pillow: naturals show their rank and a suit emblem in the
suit's colour (Tamahagane a steel blade, Gyokuro a tea leaf, Renge a lotus, Asahi a rising
sun); the four specials each have their own picture and colour. Sprites are drawn at 2x,
reduced with antialiasing and cached.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.games.panda.cards import (
    CAT,
    CATFISH,
    PANDA,
    RANK_NAMES,
    STORK,
    SUIT_NAMES,
    rank_name,
)
from bot.games.panda.text import commas, place
from bot.games.panda.views import PandaView, ScoreLine, TrickPlay
from bot.i18n.text import Text, localize, ntext
from bot.render.draw import (
    FELT_GREEN,
    GOLD,
    HIGHLIGHT,
    INK,
    MUTED,
    PAPER,
    WHITE,
    Draw,
    badge,
    card_frame,
    draw_text,
    felt,
    fit_text,
    glow,
    palette_sheet,
    panel,
    paste_with_shadow,
    text_length,
    wrap_text,
)
from bot.render.encode import palette_from
from bot.render.fonts import font

SUIT_COLOURS = {
    "t": (58, 84, 122),  # steel blue
    "g": (38, 122, 62),  # tea green
    "r": (196, 48, 110),  # lotus pink
    "a": (222, 104, 18),  # sunrise orange
}
SPECIAL_STYLE = {
    STORK: ((232, 240, 248), (40, 70, 120), "STORK"),
    CAT: ((60, 56, 66), (250, 236, 200), "CAT"),
    CATFISH: ((210, 232, 226), (24, 96, 110), "CATFISH"),
    PANDA: ((250, 250, 246), (20, 20, 20), "PANDA"),
}
TEAM_COLOURS = ((86, 160, 232), (232, 120, 86))  # team A (0+2), team B (1+3)
# The table is laid out for Discord's inline preview (~550 px wide): at ``PREVIEW_W`` its
# smallest text (``MIN_TEXT``) is 9.2 px high and its smallest card (a mini card of the trick)
# 29 px tall (tests/render check both over whole matches).
PREVIEW_W = 550
TABLE_SIZE = (900, 772)
MIN_TEXT = 15  # the smallest font drawn on the table; names are ellipsized rather than shrunk
CARD = (66, 94)
SMALL = (50, 72)
HAND_CARD = (84, 120)
MINI = (34, 48)
HAND_ROW = 8  # cards a row of the hand picture
HAND_W = 40 + HAND_ROW * (HAND_CARD[0] + 6) - 6
HAND_TOP = 78  # the first row of cards, below the title and the notes
HAND_ROW_H = HAND_CARD[1] + 50  # a row: the card, who gave it, its code
HAND_MIN_TEXT = 14  # 10.3 px at PREVIEW_W
SUMMARY_MIN_TEXT = 14  # 9.6 px at PREVIEW_W on the 800 px score sheet
BIG = (82, 116)
SCALE = 2


# ----- card sprites ------------------------------------------------------------------------------


def card_sprite(code: str, size: tuple[int, int] = CARD, locale: str = "en-US") -> Image.Image:
    """The face of one card, RGBA, ``size`` pixels. The deck's names stay in Latin letters
    in every language; only the Catfish's "joker" is said in ``locale``."""
    return _card_sprite(code, size, locale if code == CATFISH else "en-US")


def card_face(code: str) -> Image.Image:
    """One card face up at the replay's hand-panel size."""
    return card_sprite(code, (50, 72))


@lru_cache(maxsize=512)
def _card_sprite(code: str, size: tuple[int, int], locale: str) -> Image.Image:
    w, h = size[0] * SCALE, size[1] * SCALE
    if code in SPECIAL_STYLE:
        img = _special(code, w, h, locale)
    else:
        img = _natural(code, w, h)
    return img.resize(size, Image.Resampling.LANCZOS)


@lru_cache(maxsize=8)
def card_back(size: tuple[int, int] = SMALL) -> Image.Image:
    w, h = size[0] * SCALE, size[1] * SCALE
    img = card_frame((w, h), fill=(122, 34, 40), border=(240, 220, 180), border_width=3 * SCALE)
    d = ImageDraw.Draw(img)
    # A bamboo-lattice pattern and a small panda-paw emblem.
    for x in range(-h, w, 10 * SCALE):
        d.line((x, 0, x + h, h), fill=(150, 52, 56), width=SCALE)
        d.line((x + h, 0, x, h), fill=(150, 52, 56), width=SCALE)
    cx, cy, r = w // 2, h // 2, min(w, h) // 5
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(240, 220, 180))
    d.ellipse((cx - r // 2, cy - r // 3, cx + r // 2, cy + r * 2 // 3), fill=(40, 30, 30))
    for dx in (-r // 2, 0, r // 2):
        d.ellipse(
            (cx + dx - r // 5, cy - r * 2 // 3, cx + dx + r // 5, cy - r // 4), fill=(40, 30, 30)
        )
    mask = img.getchannel("A")
    img.putalpha(mask)
    return img.resize(size, Image.Resampling.LANCZOS)


def _natural(code: str, w: int, h: int) -> Image.Image:
    rank, suit = code[:-1], code[-1]
    colour = SUIT_COLOURS[suit]
    img = card_frame((w, h), fill=PAPER, border=colour, border_width=3 * SCALE)
    d = ImageDraw.Draw(img)
    corner = int(h * 0.2)
    f = font(corner, True)
    d.text((8 * SCALE, 4 * SCALE), rank, font=f, fill=colour)
    # Suit emblem in the middle, rank big below it.
    r = int(w * 0.22)
    _emblem(d, suit, w // 2, int(h * 0.47), r, colour)
    word = RANK_NAMES.get(rank)
    if word:
        fw, size = fit_text(word, w - 10 * SCALE, int(h * 0.12), bold=True)
        d.text((w // 2, h - 6 * SCALE), fw, font=font(size, True), fill=colour, anchor="md")
    else:
        d.text(
            (w - 7 * SCALE, h - 4 * SCALE),
            rank,
            font=font(int(h * 0.16), True),
            fill=colour,
            anchor="rd",
        )
    return img


def _emblem(
    d: ImageDraw.ImageDraw, suit: str, cx: int, cy: int, r: int, colour: tuple[int, int, int]
) -> None:
    if suit == "t":  # a steel blade: a long rhombus with a guard
        d.polygon(
            [(cx, cy - r * 1.3), (cx + r * 0.35, cy), (cx, cy + r * 1.3), (cx - r * 0.35, cy)],
            fill=colour,
        )
        d.line(
            (cx - r * 0.7, cy + r * 0.55, cx + r * 0.7, cy + r * 0.55),
            fill=INK,
            width=max(2, r // 5),
        )
        d.line((cx, cy - r * 1.1, cx, cy + r * 0.4), fill=(200, 214, 232), width=max(1, r // 8))
    elif suit == "g":  # a tea leaf with its vein
        d.ellipse((cx - r * 0.7, cy - r * 1.2, cx + r * 0.7, cy + r * 1.2), fill=colour)
        d.line((cx, cy - r * 1.0, cx, cy + r * 1.4), fill=(210, 236, 200), width=max(2, r // 6))
        for k in (-0.5, 0.0, 0.5):
            y = cy + k * r
            d.line((cx, y, cx - r * 0.45, y - r * 0.35), fill=(210, 236, 200), width=max(1, r // 8))
            d.line((cx, y, cx + r * 0.45, y - r * 0.35), fill=(210, 236, 200), width=max(1, r // 8))
    elif suit == "r":  # a lotus: five petals over a bar of water
        for ang in (-60, -30, 0, 30, 60):
            a = math.radians(ang)
            px, py = cx + math.sin(a) * r * 0.55, cy - math.cos(a) * r * 0.55
            petal = Image.new("L", (int(r * 1.0), int(r * 1.8)), 0)
            ImageDraw.Draw(petal).ellipse((0, 0, petal.width - 1, petal.height - 1), fill=255)
            petal = petal.rotate(-ang, expand=True, resample=Image.Resampling.BICUBIC)
            x0, y0 = int(px - petal.width / 2), int(py - petal.height / 2)
            d._image.paste(colour, (x0, y0, x0 + petal.width, y0 + petal.height), petal)
        d.rectangle((cx - r, cy + r * 0.55, cx + r, cy + r * 0.75), fill=colour)
    else:  # a rising sun with rays over the horizon
        for k in range(9):
            a = math.radians(180 + k * 22.5)
            d.line(
                (
                    cx + math.cos(a) * r * 0.9,
                    cy + math.sin(a) * r * 0.9,
                    cx + math.cos(a) * r * 1.45,
                    cy + math.sin(a) * r * 1.45,
                ),
                fill=colour,
                width=max(2, r // 5),
            )
        d.pieslice((cx - r * 0.8, cy - r * 0.8, cx + r * 0.8, cy + r * 0.8), 180, 360, fill=colour)
        d.rectangle((cx - r * 1.3, cy + r * 0.1, cx + r * 1.3, cy + r * 0.3), fill=colour)


def _special(code: str, w: int, h: int, locale: str = "en-US") -> Image.Image:
    bg, fg, title = SPECIAL_STYLE[code]
    img = card_frame((w, h), fill=bg, border=fg, border_width=3 * SCALE)
    d = ImageDraw.Draw(img)
    ts, size = fit_text(title, w - 12 * SCALE, int(h * 0.13), bold=True)
    d.text((w // 2, 5 * SCALE), ts, font=font(size, True), fill=fg, anchor="ma")
    cx, cy, r = w // 2, int(h * 0.56), int(w * 0.3)
    if code == PANDA:
        d.ellipse((cx - r * 1.05, cy - r * 1.05, cx - r * 0.45, cy - r * 0.45), fill=fg)  # ears
        d.ellipse((cx + r * 0.45, cy - r * 1.05, cx + r * 1.05, cy - r * 0.45), fill=fg)
        d.ellipse(
            (cx - r, cy - r * 0.85, cx + r, cy + r * 0.95),
            fill=(255, 255, 255),
            outline=fg,
            width=SCALE * 2,
        )
        d.ellipse(
            (cx - r * 0.62, cy - r * 0.35, cx - r * 0.18, cy + r * 0.2), fill=fg
        )  # eye patches
        d.ellipse((cx + r * 0.18, cy - r * 0.35, cx + r * 0.62, cy + r * 0.2), fill=fg)
        d.ellipse((cx - r * 0.42, cy - r * 0.15, cx - r * 0.3, cy - r * 0.03), fill=WHITE)
        d.ellipse((cx + r * 0.3, cy - r * 0.15, cx + r * 0.42, cy - r * 0.03), fill=WHITE)
        d.ellipse((cx - r * 0.16, cy + r * 0.3, cx + r * 0.16, cy + r * 0.5), fill=fg)  # nose
        corner = "+25"
    elif code == CAT:
        d.polygon(
            [
                (cx - r * 0.9, cy - r * 0.3),
                (cx - r * 0.75, cy - r * 1.2),
                (cx - r * 0.2, cy - r * 0.65),
            ],
            fill=fg,
        )
        d.polygon(
            [
                (cx + r * 0.9, cy - r * 0.3),
                (cx + r * 0.75, cy - r * 1.2),
                (cx + r * 0.2, cy - r * 0.65),
            ],
            fill=fg,
        )
        d.ellipse((cx - r * 0.95, cy - r * 0.8, cx + r * 0.95, cy + r * 0.85), fill=fg)
        for sx in (-1, 1):
            d.ellipse(
                (
                    cx + sx * r * 0.4 - r * 0.16,
                    cy - r * 0.2,
                    cx + sx * r * 0.4 + r * 0.16,
                    cy + r * 0.12,
                ),
                fill=(120, 200, 90),
            )
            d.line(
                (cx + sx * r * 0.3, cy + r * 0.4, cx + sx * r * 1.3, cy + r * 0.25),
                fill=bg,
                width=SCALE,
            )
            d.line(
                (cx + sx * r * 0.3, cy + r * 0.5, cx + sx * r * 1.3, cy + r * 0.6),
                fill=bg,
                width=SCALE,
            )
        d.polygon(
            [(cx - r * 0.12, cy + r * 0.3), (cx + r * 0.12, cy + r * 0.3), (cx, cy + r * 0.45)],
            fill=(240, 150, 160),
        )
        corner = "-25"
    elif code == CATFISH:
        d.ellipse((cx - r * 1.1, cy - r * 0.5, cx + r * 0.8, cy + r * 0.5), fill=fg)
        d.polygon(
            [(cx + r * 0.6, cy), (cx + r * 1.2, cy - r * 0.55), (cx + r * 1.2, cy + r * 0.55)],
            fill=fg,
        )
        d.ellipse((cx - r * 0.75, cy - r * 0.25, cx - r * 0.5, cy), fill=WHITE)
        for k, dy in enumerate((-0.05, 0.15)):
            d.line(
                (cx - r * 1.0, cy + r * dy, cx - r * 1.45, cy + r * (dy + 0.5 + 0.2 * k)),
                fill=fg,
                width=SCALE * 2,
            )
        joker, size = fit_text(_say(locale, Text("joker")), w - 12 * SCALE, int(h * 0.09), True)
        d.text((cx, cy + r * 0.95), joker, font=font(size, True), fill=fg, anchor="mt")
        corner = "-25"
    else:  # the Stork: a white bird on one leg, value 1
        d.ellipse(
            (cx - r * 0.8, cy - r * 0.2, cx + r * 0.5, cy + r * 0.45),
            fill=WHITE,
            outline=fg,
            width=SCALE * 2,
        )
        d.line((cx + r * 0.3, cy, cx + r * 0.6, cy - r * 0.9), fill=fg, width=SCALE * 3)  # neck
        d.ellipse(
            (cx + r * 0.45, cy - r * 1.1, cx + r * 0.8, cy - r * 0.78),
            fill=WHITE,
            outline=fg,
            width=SCALE * 2,
        )
        d.ellipse((cx + r * 0.57, cy - r * 1.02, cx + r * 0.7, cy - r * 0.9), fill=(200, 30, 40))
        d.polygon(
            [
                (cx + r * 0.78, cy - r * 0.98),
                (cx + r * 1.45, cy - r * 0.88),
                (cx + r * 0.78, cy - r * 0.86),
            ],
            fill=(230, 160, 40),
        )
        d.line((cx - r * 0.1, cy + r * 0.4, cx - r * 0.1, cy + r * 1.2), fill=fg, width=SCALE * 2)
        d.polygon(
            [
                (cx - r * 0.8, cy - r * 0.05),
                (cx - r * 1.2, cy + r * 0.2),
                (cx - r * 0.7, cy + r * 0.3),
            ],
            fill=fg,
        )
        d.text(
            (8 * SCALE, h - 5 * SCALE), "1", font=font(int(h * 0.16), True), fill=fg, anchor="ld"
        )
        corner = "+25"
    d.text(
        (w - 7 * SCALE, h - 5 * SCALE), corner, font=font(int(h * 0.1), True), fill=fg, anchor="rd"
    )
    return img


# ----- helpers -------------------------------------------------------------------------------------


def _say(locale: str, text: str) -> str:
    """``text`` (a :class:`Text` or a plain name) as it reads in ``locale``."""
    return str(localize(locale, text))


def _seat_positions(viewer: int | None) -> dict[int, str]:
    bottom = viewer if viewer is not None else 0
    return {(bottom + k) % 4: pos for k, pos in enumerate(("bottom", "right", "top", "left"))}


def _team_label(view: PandaView, team: int) -> str:
    names = view["players"]
    a, b = view["teams"][team]
    return f"{names[a]} & {names[b]}"


def _row_of_cards(
    canvas: Image.Image,
    cards: Sequence[str],
    x: int,
    y: int,
    size: tuple[int, int],
    step: int,
    locale: str = "en-US",
) -> int:
    for i, c in enumerate(cards):
        paste_with_shadow(canvas, card_sprite(c, size, locale), (x + i * step, y))
    return x + (len(cards) - 1) * step + size[0] if cards else x


# ----- the table --------------------------------------------------------------------------------------


def render_table(view: PandaView, locale: str = "en-US") -> Image.Image:
    """The public table: every seat's card count, calls, tricks; the trick; team scores."""
    positions = _seat_positions(view.get("seat"))
    canvas = _table_base(tuple(sorted((pos, seat % 2) for seat, pos in positions.items()))).copy()
    d = Draw(canvas)
    _header(canvas, d, view, locale)
    for seat, pos in positions.items():
        _seat_panel(canvas, view, seat, pos, locale)
    _centre(canvas, view, locale)
    return canvas


@lru_cache(maxsize=4)
def _table_base(teams: tuple[tuple[str, int], ...]) -> Image.Image:
    """Felt with the panels that never move (header, seats by team colour, centre)."""
    canvas = felt(TABLE_SIZE, FELT_GREEN).copy()
    panel(canvas, _HEADER, fill=(0, 0, 0, 120))
    for pos, team in teams:
        panel(
            canvas, _PANEL[pos], fill=(0, 0, 0, 130), border=TEAM_COLOURS[team] + (200,), radius=12
        )
    panel(canvas, _CENTRE, fill=(0, 0, 0, 70), border=(255, 255, 255, 30), radius=16)
    return canvas


def _header(canvas: Image.Image, d: ImageDraw.ImageDraw, view: PandaView, locale: str) -> None:
    """The title and the target on the first line, each team's score on the second."""
    x0, y0, x1, _ = _HEADER
    title = _say(locale, Text("Panda · hand {deal}", deal=view["deal"]))
    draw_text(d, (x0 + 14, y0 + 24), title, 24, WHITE, bold=True, anchor="lm")
    target = _say(locale, Text("to {target}:", target=view["target"]))
    title_w = int(text_length(title, 24, True))
    draw_text(d, (x0 + 14 + title_w + 18, y0 + 25), target, 17, MUTED, anchor="lm")
    scores = view["team_scores"]
    half = (x1 - x0 - 28 - 12) // 2
    rooms = [half - 14 - int(text_length(f"  {scores[team]}", 18, True)) for team in (0, 1)]
    # Both teams' badges at one size: the smaller of the two that fit.
    size = min(fit_text(_team_label(view, t), rooms[t], 18, True, MIN_TEXT)[1] for t in (0, 1))
    x = x0 + 14
    for team in (0, 1):
        label, _ = fit_text(_team_label(view, team), rooms[team], size, True, size)
        text = f"{label}  {scores[team]}"
        box = badge(d, (x, y0 + 44), text, size=size, fill=TEAM_COLOURS[team], text_fill=INK)
        x = box[2] + 12


_HEADER = (10, 8, TABLE_SIZE[0] - 10, 86)
_CENTRE = (220, 248, 680, 612)
_PANEL = {  # position -> box (x0, y0, x1, y1)
    "bottom": (220, 622, 680, 764),
    "top": (220, 96, 680, 238),
    "left": (10, 248, 210, 612),
    "right": (690, 248, 890, 612),
}


def _seat_panel(canvas: Image.Image, view: PandaView, seat: int, pos: str, locale: str) -> None:
    box = _PANEL[pos]
    x0, y0, x1, y1 = box
    d = Draw(canvas)
    team = seat % 2
    acting = seat in view.get("to_act", [])
    if acting:
        d.rounded_rectangle((x0 - 3, y0 - 3, x1 + 3, y1 + 3), radius=14, outline=HIGHLIGHT, width=4)
    name = view["players"][seat]
    text, size = fit_text(name, x1 - x0 - 28, 22, True, MIN_TEXT)
    draw_text(d, (x0 + 14, y0 + 8), text, size, WHITE, bold=True)
    # Status badges, after the team's.
    bx = x0 + 14
    by = y0 + 40
    status: list[tuple[str, tuple[int, int, int]]] = [
        (Text("Team {team}", team="AB"[team]), TEAM_COLOURS[team])
    ]
    if view["calls"][seat]:
        status.append((Text("PANDA!"), (240, 60, 60)))
    out = view.get("out", [])
    if seat in out:
        status.append((_out_badge(out.index(seat)), GOLD))
    if view.get("first_kingdom") == seat:
        status.append((Text("Kingdom +100"), (190, 120, 240)))
    phase = view.get("phase")
    if phase == "passing":
        chosen = view["passing_done"][seat]
        status.append((Text("cards chosen") if chosen else Text("choosing cards…"), MUTED))
    elif phase == "play":
        if view.get("passes", [False] * 4)[seat] and view.get("trick"):
            status.append((Text("passed"), (150, 150, 150)))
        pending = view.get("pending")
        if acting:
            if pending and pending["kind"] == "gift":
                status.append((Text("gives the Panda trick"), HIGHLIGHT))
            elif pending and pending["kind"] == "wish":
                status.append((Text("names a wish"), HIGHLIGHT))
            elif not view.get("trick") or view.get("trick_won"):
                status.append((Text("to lead"), HIGHLIGHT))
            else:
                status.append((Text("to play"), HIGHLIGHT))
    for label, colour in status:
        text, size = fit_text(_say(locale, label), x1 - x0 - 40, MIN_TEXT, True, MIN_TEXT)
        if bx + text_length(text, size, True) + 10 > x1 - 10 and bx > x0 + 14:
            bx, by = x0 + 14, by + 25  # wrap to a second line of badges
        b = badge(d, (bx, by), text, size=size, fill=colour, text_fill=INK)
        bx = b[2] + 6
    # Cards in hand (backs) and tricks won.
    count = view["hand_counts"][seat]
    cy = y0 + 66
    horizontal = pos in ("top", "bottom")
    max_w = (x1 - x0) - 196 if horizontal else (x1 - x0) - 28
    step = min(16, max(4, (max_w - SMALL[0]) // max(1, count - 1))) if count > 1 else 0
    back = card_back(SMALL)
    if horizontal:
        cx = x0 + 14
    else:
        cx = x0 + 14
        cy = y0 + 124
    for i in range(count):
        paste_with_shadow(canvas, back, (cx + i * step, cy))
    label_x = cx + (count - 1) * step + SMALL[0] + 10 if count else cx
    if horizontal:
        lx, ly = x1 - 170, y0 + 76
    else:
        lx, ly = x0 + 14, y1 - 66
        label_x = x0 + 14
    room = (x1 - lx - 4) if horizontal else (x1 - x0 - 28)
    cards_x = label_x if horizontal and count == 0 else lx
    cards = _say(locale, ntext("{n} card", "{n} cards", count))
    text, size = fit_text(cards, room, 18, True, MIN_TEXT)
    draw_text(d, (cards_x, ly), text, size, WHITE, bold=True)
    tricks = view["tricks_won"][seat]
    pts = view["pile_points"][seat]
    won = ntext("{n} trick · {points:+d} pts", "{n} tricks · {points:+d} pts", tricks, points=pts)
    text, size = fit_text(_say(locale, won), room, 16, False, MIN_TEXT)
    draw_text(d, (lx, ly + 26), text, size, MUTED)


def _out_badge(nth: int) -> str:
    if nth == 0:
        return Text("out 1st")
    if nth == 1:
        return Text("out 2nd")
    if nth == 2:
        return Text("out 3rd")
    return Text("out 4th")


def _centre(canvas: Image.Image, view: PandaView, locale: str) -> None:
    d = Draw(canvas)
    x0, y0, x1, y1 = _CENTRE[0] + 8, _CENTRE[1] + 6, _CENTRE[2] - 8, _CENTRE[3] - 6  # panel inner
    names = view["players"]
    phase = view.get("phase")
    room = x1 - x0 - 24
    info: list[str] = []
    wish = view.get("wish")
    if wish:
        info.append(Text("Wish: {rank}", rank=rank_name(wish)))
    if phase == "passing":
        text, size = fit_text(
            _say(locale, Text("Passing: everyone chooses three cards")), room, 22, True, MIN_TEXT
        )
        draw_text(
            d,
            ((x0 + x1) // 2, (y0 + y1) // 2 - 14),
            text,
            size,
            WHITE,
            bold=True,
            anchor="mm",
        )
        done = sum(view["passing_done"])
        ready = _say(locale, Text("{done} of 4 ready", done=done))
        draw_text(d, ((x0 + x1) // 2, (y0 + y1) // 2 + 22), ready, 18, MUTED, anchor="mm")
    elif phase == "over":
        scores = view["team_scores"]
        win = 0 if scores[0] > scores[1] else 1
        # On two lines if need be: the team's names are long, and "win!" must show.
        won = _say(locale, Text("{team} win!", team=_team_label(view, win)))
        lines = wrap_text(won, room, 26, True)
        if len(lines) > 2:
            lines = [lines[0], " ".join(lines[1:])]
        y = (y0 + y1) // 2 - 16 - 16 * (len(lines) - 1)
        for line in lines:
            text, size = fit_text(line, room, 26, True, MIN_TEXT)
            draw_text(d, ((x0 + x1) // 2, y), text, size, GOLD, bold=True, anchor="mm")
            y += 32
        draw_text(
            d,
            ((x0 + x1) // 2, (y0 + y1) // 2 + 26),
            f"{scores[win]} – {scores[1 - win]}",
            24,
            WHITE,
            anchor="mm",
        )
    else:
        trick = view.get("trick") or []
        if not trick:
            turn = view.get("turn")
            lead: str = ""
            if turn is not None:
                if view.get("first_lead"):
                    lead = Text("{name} holds the Stork and leads", name=names[turn])
                else:
                    lead = Text("{name} to lead", name=names[turn])
            text, size = fit_text(_say(locale, lead), room, 22, False, MIN_TEXT)
            draw_text(d, ((x0 + x1) // 2, (y0 + y1) // 2), text, size, MUTED, anchor="mm")
        else:
            _trick(canvas, view, trick, (x0, y0, x1, y1), locale)
        top_seat = view.get("top_seat")
        if view.get("trick_won") and top_seat is not None:
            info.append(Text("Trick won by {name}", name=names[top_seat]))
        pending = view.get("pending")
        if pending and pending["kind"] == "gift" and pending["seat"] is not None:
            info.append(Text("{name} gives the Panda trick away", name=names[pending["seat"]]))
    bx = x0 + 4
    for label in info:
        room_left = max(60, x1 - 4 - bx - 16)
        text, size = fit_text(_say(locale, label), room_left, 16, True, MIN_TEXT)
        b = badge(d, (bx, y1 - 26), text, size=size, fill=GOLD)
        bx = b[2] + 8
    if view.get("history") and phase != "over":
        last = view["history"][-1]
        hs = last["hand_scores"]
        if last["double_victory"]:
            text = Text("Last hand: {a:+d} / {b:+d} (double victory)", a=hs[0], b=hs[1])
        else:
            text = Text("Last hand: {a:+d} / {b:+d}", a=hs[0], b=hs[1])
        said, size = fit_text(_say(locale, text), x1 - x0 - 8, MIN_TEXT, False, MIN_TEXT)
        # Beside the badges if there is room, else on a line of its own above them.
        clear = x1 - 4 - text_length(said, size) > bx + 4
        y = y1 - 14 if clear or not info else y1 - 44
        draw_text(d, (x1 - 4, y), said, size, MUTED, anchor="rm")


def _trick(
    canvas: Image.Image,
    view: PandaView,
    trick: Sequence[TrickPlay],
    box: tuple[int, int, int, int],
    locale: str = "en-US",
) -> None:
    d = Draw(canvas)
    names = view["players"]
    x0, y0, x1, y1 = box
    earlier = list(trick[:-1])[-3:]
    last = trick[-1]
    # Earlier plays of the trick: a row of mini cards each, with who played what.
    y = y0 + 4
    if len(trick) > 4:
        hidden = len(trick) - 4
        more = _say(locale, ntext("… {n} earlier play", "… {n} earlier plays", hidden))
        draw_text(d, (x0 + 6, y), more, MIN_TEXT, MUTED)
        y += 22
    for play in earlier:
        cards = play["cards"]
        step = min(MINI[0] + 3, (x1 - x0 - 260) // max(1, len(cards)))
        end = _row_of_cards(canvas, cards, x0 + 6, y, MINI, step, locale)
        who = f"{names[play['seat']]}: {_say(locale, play['label'])}"
        label, size = fit_text(who, x1 - end - 20, 16, False, MIN_TEXT)
        draw_text(d, (end + 12, y + MINI[1] // 2), label, size, MUTED, anchor="lm")
        y += MINI[1] + 6
    # The combination to beat, large.
    cards = last["cards"]
    ly = max(y + 16, (y0 + y1 - BIG[1]) // 2 - 10)
    ly = min(ly, y1 - BIG[1] - 64)
    step = (
        min(BIG[0] + 6, (x1 - x0 - 20 - BIG[0]) // max(1, len(cards) - 1)) if len(cards) > 1 else 0
    )
    total = (len(cards) - 1) * step + BIG[0]
    sx = (x0 + x1 - total) // 2
    for i, c in enumerate(cards):
        paste_with_shadow(canvas, card_sprite(c, BIG, locale), (sx + i * step, ly))
    label = f"{names[last['seat']]}: {_say(locale, last['label'])}"
    text, size = fit_text(label, x1 - x0 - 20, 20, True, MIN_TEXT)
    draw_text(d, ((x0 + x1) // 2, ly + BIG[1] + 18), text, size, WHITE, bold=True, anchor="mm")


# ----- the hand (DM) ----------------------------------------------------------------------------------


def render_hand(view: PandaView, locale: str = "en-US") -> Image.Image:
    """The seat's own hand, with what it passed/received and its team's situation."""
    seat = view.get("seat")
    hand = list(view.get("hand") or [])
    # Up to HAND_ROW cards a row, rows of even length, so that the picture stays narrow
    # enough for Discord's inline preview (its smallest text 9.9 px at PREVIEW_W).
    gap = 6
    rows = max(1, -(-len(hand) // HAND_ROW))
    per_row = -(-len(hand) // rows) if hand else 0
    width = HAND_W
    height = HAND_TOP + rows * HAND_ROW_H + 4
    canvas = felt((width, height), (30, 52, 82)).copy()
    d = Draw(canvas)
    names = view["players"]
    if seat is None:
        draw_text(d, (20, 20), _say(locale, Text("Spectator: no hand")), 22, WHITE, bold=True)
        return canvas
    team = seat % 2
    scores = view["team_scores"]
    team_name = _say(locale, Text("Team {team}", team="AB"[team]))
    title = f"{names[seat]} · {team_name} · {scores[team]} – {scores[1 - team]}"
    sub: list[str] = []
    if view["calls"][seat]:
        sub.append(Text("You called Panda!"))
    wish = view.get("wish")
    if wish:
        sub.append(Text("Wish: {rank}", rank=rank_name(wish)))
    given = view.get("given") or {}
    received = view.get("received") or {}
    tags: dict[str, tuple[str, tuple[int, int, int]]] = {}
    offsets = {"left": 1, "partner": 2, "right": 3}
    if view.get("phase") == "passing":
        for direction, card in given.items():
            tags[card] = (f"→ {names[(seat + offsets[direction]) % 4]}", GOLD)
        sub.append(Text("Choose one card for each other player"))
    else:
        for giver, card in received.items():
            tags[card] = (
                _say(locale, Text("from {name}", name=names[int(giver)])),
                (120, 210, 140),
            )
    # The title, then the notes on a line of their own.
    text, size = fit_text(title, width - 40, 22, True, HAND_MIN_TEXT)
    draw_text(d, (20, 12), text, size, WHITE, bold=True)
    notes = "   ".join(_say(locale, s) for s in sub)
    text, size = fit_text(notes, width - 40, 18, False, HAND_MIN_TEXT)
    draw_text(d, (20, 44), text, size, HIGHLIGHT)
    for i, c in enumerate(hand):
        x = 20 + (i % per_row) * (HAND_CARD[0] + gap)
        y = HAND_TOP + (i // per_row) * HAND_ROW_H
        sprite = card_sprite(c, HAND_CARD, locale)
        if c in tags:
            g = glow(HAND_CARD, tags[c][1], spread=8)
            canvas.paste(g, (x - 8, y - 8), g)
        paste_with_shadow(canvas, sprite, (x, y))
        if c in tags:
            text, size = fit_text(tags[c][0], HAND_CARD[0] + 4, 15, True, HAND_MIN_TEXT)
            draw_text(
                d,
                (x + HAND_CARD[0] // 2, y + HAND_CARD[1] + 16),
                text,
                size,
                tags[c][1],
                bold=True,
                anchor="mm",
            )
        code = (x + HAND_CARD[0] // 2, y + HAND_CARD[1] + 36)
        draw_text(d, code, c, HAND_MIN_TEXT, MUTED, anchor="mm")
    if not hand:
        draw_text(d, (20, 120), _say(locale, Text("You are out.")), 24, WHITE, bold=True)
    return canvas


# ----- the score sheet ---------------------------------------------------------------------------------


def render_deal_summary(view: PandaView, locale: str = "en-US") -> Image.Image | None:
    """The last finished hand's score lines and the match totals."""
    history = view.get("history") or []
    if not history:
        return None
    entry = history[-1]
    names = view["players"]
    rows = _summary_rows(entry["lines"], locale)
    width, row_h = 800, 48
    height = 170 + row_h * len(rows)
    canvas = felt((width, height), (60, 40, 30)).copy()
    d = Draw(canvas)
    cols = (470, 660)
    heading = _say(locale, Text("Hand {deal} — score", deal=entry["deal"]))
    draw_text(d, (20, 14), heading, 26, WHITE, bold=True)
    order = commas(
        [Text("{place} {name}", place=place(i), name=names[s]) for i, s in enumerate(entry["out"])]
    )
    if entry["double_victory"]:
        out = Text("Out: {order}  ·  Double victory!", order=order)
    else:
        out = Text("Out: {order}", order=order)
    text, size = fit_text(_say(locale, out), width - 40, 17, False, SUMMARY_MIN_TEXT)
    draw_text(d, (20, 52), text, size, MUTED)
    y = 90
    for team in (0, 1):
        label, size = fit_text(_team_label(view, team), 180, 17, True, SUMMARY_MIN_TEXT)
        draw_text(d, (cols[team], y), label, size, TEAM_COLOURS[team], bold=True, anchor="ma")
    y += 34
    for name, detail, points in rows:
        text, size = fit_text(name, cols[0] - 110, 19, True, SUMMARY_MIN_TEXT)
        draw_text(d, (20, y), text, size, WHITE, bold=True)
        text, size = fit_text(detail, cols[0] - 110, 14, False, SUMMARY_MIN_TEXT)
        draw_text(d, (20, y + 24), text, size, MUTED)
        for team in (0, 1):
            if points[team] is not None:
                draw_text(
                    d, (cols[team], y + 4), f"{points[team]:+d}", 22, WHITE, bold=True, anchor="ma"
                )
        y += row_h
    d.line((20, y, width - 20, y), fill=MUTED, width=1)
    for team in (0, 1):
        total = Text(
            "{points:+d}  (total {total})",
            points=entry["hand_scores"][team],
            total=entry["totals"][team],
        )
        text, size = fit_text(_say(locale, total), 180, 19, True, SUMMARY_MIN_TEXT)
        draw_text(d, (cols[team], y + 10), text, size, GOLD, bold=True, anchor="ma")
    return canvas


def _summary_rows(
    lines: Sequence[ScoreLine], locale: str = "en-US"
) -> list[tuple[str, str, list[int | None]]]:
    """Score lines as table rows, said in ``locale``: a line pair of both teams (card
    points, double victory) shares a row."""
    rows: list[tuple[str, str, list[int | None]]] = []
    for line in lines:
        key, team, pts = line["name"], line["team"], line["points"]
        name = _say(locale, key)
        detail = _say(locale, line.get("detail", ""))
        if (
            rows
            and rows[-1][0] == name
            and rows[-1][2][team] is None
            and key in ("Card points", "Double victory")
        ):
            prev = rows[-1]
            merged = prev[1] if not detail or detail == prev[1] else f"{prev[1]} / {detail}"
            prev[2][team] = pts
            rows[-1] = (name, merged, prev[2])
            continue
        points: list[int | None] = [None, None]
        points[team] = pts
        rows.append((name, detail, points))
    return rows


# ----- the PNG palette --------------------------------------------------------------------------------


@lru_cache(maxsize=1)
def png_palette() -> Image.Image:
    """The fixed palette every Panda image is encoded with (built once per process)."""
    codes = [f"{r}{s}" for r in RANK_NAMES for s in SUIT_COLOURS][:20] + list(SPECIAL_STYLE)
    codes += [f"{r}{s}" for r in ("2", "5", "9", "10") for s in SUIT_COLOURS]
    sprites = [card_back(SMALL)] + [card_sprite(c, size) for size in (BIG, MINI) for c in codes]
    colours = [WHITE, MUTED, GOLD, HIGHLIGHT, INK, *TEAM_COLOURS, (240, 60, 60), (190, 120, 240)]
    colours += [(150, 150, 150), (120, 210, 140)]
    base = _table_base((("bottom", 0), ("left", 1), ("right", 1), ("top", 0)))
    hand = felt((900, 250), (30, 52, 82)).copy()
    for i, c in enumerate(codes[:10]):
        paste_with_shadow(hand, card_sprite(c, HAND_CARD), (20 + i * 90, 70))
    return palette_from(
        [
            palette_sheet(base, sprites, colours, panels=((0, 0, 0, 130), (0, 0, 0, 70))),
            hand,
            palette_sheet(felt((800, 160), (60, 40, 30)), [], colours),
        ],
        keep=colours,
    )


__all__ = [
    "card_face",
    "card_sprite",
    "png_palette",
    "render_deal_summary",
    "render_hand",
    "render_table",
    "SUIT_NAMES",
]
