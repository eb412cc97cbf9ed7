"""Mah-Jongg images: the table, a seat's hand, and the end-of-hand score sheet (Pillow).

Every card is drawn here (no downloaded art): dots as coloured rings, bamboo as jointed
sticks, characters as a Chinese numeral over 萬, winds 東南西北, dragons 中 發 and the
framed white dragon, flowers 梅蘭菊竹 and seasons 春夏秋冬. Sprites are drawn at 3× and
reduced (antialiasing) and cached by code and size: they hold no words, the glyphs are the
cards' own. Renders are pure functions of a view and a locale: every label is English in a
:class:`~bot.i18n.text.Text` drawn as ``localize(locale, label)``.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.games.mahjong.tiles import INDEX, WIND_NAMES, name
from bot.games.mahjong.views import HandRecord, MahjongView, MeldView
from bot.i18n import DEFAULT_LOCALE, format_number, normalize
from bot.i18n.text import Text, localize, ntext, semicolons
from bot.render.draw import (
    FELT_GREEN,
    GOLD,
    HIGHLIGHT,
    INK,
    MUTED,
    WHITE,
    Draw,
    badge,
    draw_fitted,
    draw_text,
    felt,
    fit_text,
    glow,
    panel,
    paste_with_shadow,
    text_length,
)
from bot.render.fonts import font

SCALE = 3
IVORY = (250, 246, 232)
IVORY_EDGE = (214, 206, 186)
BACK = (34, 120, 104)
BACK_DARK = (20, 84, 72)
RED = (200, 36, 36)
GREEN = (24, 130, 64)
BLUE = (28, 62, 150)
NAVY = (22, 30, 70)
BLACK = (30, 30, 30)

TABLE_TILE = (34, 46)
RIVER_TILE = (30, 40)
HAND_TILE = (62, 84)
SMALL_TILE = (24, 32)

WIND_GLYPH = {"E": "東", "S": "南", "W": "西", "N": "北"}
#: The winds' words (Texts: localised where drawn); the glyphs above are every language's.
WIND_WORD: dict[str, Text] = dict(zip("ESWN", WIND_NAMES, strict=True))
#: A seat's wind under its name: English ``East`` as above, 東家 (the East seat) in Japanese.
SEAT_WORD: dict[str, Text] = {
    "E": Text("East", context="seat"),
    "S": Text("South", context="seat"),
    "W": Text("West", context="seat"),
    "N": Text("North", context="seat"),
}
NUMERALS = "一二三四五六七八九"
FLOWER_GLYPH = {"f1": "梅", "f2": "蘭", "f3": "菊", "f4": "竹"}
SEASON_GLYPH = {"s1": "春", "s2": "夏", "s3": "秋", "s4": "冬"}
EXTRA_COLOUR = {
    "f1": (196, 50, 110),
    "f2": (120, 60, 160),
    "f3": (206, 130, 20),
    "f4": (30, 120, 60),
    "s1": (40, 140, 60),
    "s2": (200, 60, 40),
    "s3": (190, 110, 20),
    "s4": (40, 90, 170),
}

# dot centres (x, y in 0..1 of the face) for 1..9
DOTS = {
    1: [(0.5, 0.5)],
    2: [(0.5, 0.27), (0.5, 0.73)],
    3: [(0.24, 0.2), (0.5, 0.5), (0.76, 0.8)],
    4: [(0.28, 0.27), (0.72, 0.27), (0.28, 0.73), (0.72, 0.73)],
    5: [(0.26, 0.22), (0.74, 0.22), (0.5, 0.5), (0.26, 0.78), (0.74, 0.78)],
    6: [(0.3, 0.18), (0.7, 0.18), (0.3, 0.5), (0.7, 0.5), (0.3, 0.82), (0.7, 0.82)],
    7: [
        (0.22, 0.13),
        (0.5, 0.25),
        (0.78, 0.37),
        (0.3, 0.62),
        (0.7, 0.62),
        (0.3, 0.86),
        (0.7, 0.86),
    ],
    8: [(0.3, y) for y in (0.14, 0.38, 0.62, 0.86)] + [(0.7, y) for y in (0.14, 0.38, 0.62, 0.86)],
    9: [(x, y) for y in (0.18, 0.5, 0.82) for x in (0.22, 0.5, 0.78)],
}
DOT_RADIUS = {1: 0.36, 2: 0.2, 3: 0.16, 4: 0.17, 5: 0.15, 6: 0.14, 7: 0.12, 8: 0.11, 9: 0.12}

# bamboo sticks: (x, y centre) per stick, all sticks the same size for a count
BAMBOO = {
    2: [(0.5, 0.27), (0.5, 0.73)],
    3: [(0.5, 0.27), (0.3, 0.73), (0.7, 0.73)],
    4: [(0.3, 0.27), (0.7, 0.27), (0.3, 0.73), (0.7, 0.73)],
    5: [(0.24, 0.27), (0.76, 0.27), (0.5, 0.5), (0.24, 0.73), (0.76, 0.73)],
    6: [(x, y) for y in (0.27, 0.73) for x in (0.2, 0.5, 0.8)],
    7: [(0.5, 0.16)] + [(x, y) for y in (0.5, 0.84) for x in (0.2, 0.5, 0.8)],
    8: [(x, y) for y in (0.27, 0.73) for x in (0.14, 0.38, 0.62, 0.86)],
    9: [(x, y) for y in (0.17, 0.5, 0.83) for x in (0.2, 0.5, 0.8)],
}
BAMBOO_RED = {5: {2}, 7: {0}, 9: {1, 4, 7}}


# ----- card sprites ------------------------------------------------------------------------
@lru_cache(maxsize=512)
def tile_image(
    code: str | None, size: tuple[int, int] = TABLE_TILE, highlight: bool = False
) -> Image.Image:
    """A card face (``None``: a card back) as an RGBA sprite of ``size``."""
    w, h = size
    W, H = w * SCALE, h * SCALE
    img = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    r = max(4, W // 8)
    edge = max(3, H // 14)
    if code is None:
        d.rounded_rectangle((0, 0, W - 1, H - 1), radius=r, fill=BACK_DARK)
        d.rounded_rectangle((0, 0, W - 1, H - 1 - edge), radius=r, fill=BACK)
        inset = W // 7
        d.rounded_rectangle(
            (inset, inset, W - 1 - inset, H - 1 - edge - inset),
            radius=r // 2,
            outline=(120, 200, 180),
            width=max(2, SCALE),
        )
        return img.resize(size, Image.Resampling.LANCZOS)
    # body: a darker edge below the face gives the card some thickness
    d.rounded_rectangle((0, 0, W - 1, H - 1), radius=r, fill=IVORY_EDGE)
    face_fill = (255, 240, 170) if highlight else IVORY
    d.rounded_rectangle(
        (0, 0, W - 1, H - 1 - edge), radius=r, fill=face_fill, outline=(150, 140, 120), width=SCALE
    )
    box = (W * 0.08, H * 0.06, W * 0.92, H * 0.94 - edge)
    _draw_face(d, code, box)
    return img.resize(size, Image.Resampling.LANCZOS)


def card_face(code: str) -> Image.Image:
    """One card face up at the replay's hand-panel size."""
    return tile_image(code, (48, 64))


def _draw_face(d: ImageDraw.ImageDraw, code: str, box: tuple[float, float, float, float]) -> None:
    x0, y0, x1, y1 = box
    fw, fh = x1 - x0, y1 - y0
    if len(code) == 2 and code[0].isdigit() and code[1] in "bcd":
        n = int(code[0])
        if code[1] == "d":
            _dots(d, n, box)
        elif code[1] == "b":
            _bamboo(d, n, box)
        else:
            g1 = font(int(fh * 0.42), True)
            d.text((x0 + fw / 2, y0 + fh * 0.27), NUMERALS[n - 1], font=g1, fill=NAVY, anchor="mm")
            g2 = font(int(fh * 0.44), True)
            d.text((x0 + fw / 2, y0 + fh * 0.74), "萬", font=g2, fill=RED, anchor="mm")
        # an Arabic index in the corner keeps small cards readable
        idx = font(max(9, int(fh * 0.26)), True)
        col = {"b": GREEN, "c": NAVY, "d": BLUE}[code[1]]
        d.text(
            (x0 - fw * 0.02, y0 - fh * 0.03),
            str(n),
            font=idx,
            fill=col,
            anchor="la",
            stroke_width=max(1, int(fh * 0.02)),
            stroke_fill=IVORY,
        )
        return
    if code in WIND_GLYPH:
        g = font(int(fh * 0.62), True)
        d.text((x0 + fw / 2, y0 + fh * 0.55), WIND_GLYPH[code], font=g, fill=NAVY, anchor="mm")
        idx = font(max(8, int(fh * 0.2)), True)
        d.text((x0 - fw * 0.02, y0 - fh * 0.03), code, font=idx, fill=NAVY, anchor="la")
        return
    if code == "C":
        g = font(int(fh * 0.66), True)
        d.text((x0 + fw / 2, y0 + fh * 0.5), "中", font=g, fill=RED, anchor="mm")
        return
    if code == "F":
        g = font(int(fh * 0.62), True)
        d.text((x0 + fw / 2, y0 + fh * 0.5), "發", font=g, fill=GREEN, anchor="mm")
        return
    if code == "P":
        m = fw * 0.12
        width = max(2, int(fw * 0.07))
        d.rectangle((x0 + m, y0 + fh * 0.1, x1 - m, y1 - fh * 0.1), outline=BLUE, width=width)
        m2 = m + width * 1.8
        d.rectangle(
            (x0 + m2, y0 + fh * 0.1 + width * 1.8, x1 - m2, y1 - fh * 0.1 - width * 1.8),
            outline=BLUE,
            width=max(1, width // 2),
        )
        return
    colour = EXTRA_COLOUR.get(code, BLACK)
    glyph = FLOWER_GLYPH.get(code) or SEASON_GLYPH.get(code) or "?"
    # a petal ring behind the glyph marks an extra card
    cx, cy, rad = x0 + fw / 2, y0 + fh * 0.56, fw * 0.42
    tint = tuple(int(255 - (255 - c) * 0.22) for c in colour)
    d.ellipse((cx - rad, cy - rad, cx + rad, cy + rad), fill=tint)
    g = font(int(fh * 0.5), True)
    d.text((cx, cy), glyph, font=g, fill=colour, anchor="mm")
    idx = font(max(8, int(fh * 0.2)), True)
    d.text((x0 - fw * 0.02, y0 - fh * 0.03), code, font=idx, fill=colour, anchor="la")


def _dots(d: ImageDraw.ImageDraw, n: int, box: tuple[float, float, float, float]) -> None:
    x0, y0, x1, y1 = box
    fw, fh = x1 - x0, y1 - y0
    rad = DOT_RADIUS[n] * min(fw, fh * 0.75)
    colours = [BLUE, GREEN, RED]
    for i, (px, py) in enumerate(DOTS[n]):
        cx, cy = x0 + px * fw, y0 + py * fh
        outer = (
            RED
            if n == 1
            else colours[(i + n) % 3]
            if n not in (2, 4, 8)
            else (BLUE if i % 2 == 0 else GREEN)
        )
        if n == 5 and i == 2:
            outer = RED
        d.ellipse((cx - rad, cy - rad, cx + rad, cy + rad), fill=outer)
        d.ellipse((cx - rad * 0.68, cy - rad * 0.68, cx + rad * 0.68, cy + rad * 0.68), fill=IVORY)
        d.ellipse((cx - rad * 0.4, cy - rad * 0.4, cx + rad * 0.4, cy + rad * 0.4), fill=outer)
        if n == 1:
            d.ellipse(
                (cx - rad * 0.15, cy - rad * 0.15, cx + rad * 0.15, cy + rad * 0.15), fill=IVORY
            )


def _stick(
    d: ImageDraw.ImageDraw, cx: float, cy: float, sw: float, sh: float, colour: tuple[int, int, int]
) -> None:
    d.rounded_rectangle(
        (cx - sw / 2, cy - sh / 2, cx + sw / 2, cy + sh / 2), radius=sw / 2, fill=colour
    )
    node = max(1.0, sh * 0.07)
    d.rectangle((cx - sw / 2, cy - node / 2, cx + sw / 2, cy + node / 2), fill=IVORY)
    d.line(
        (cx, cy - sh / 2 + sw * 0.6, cx, cy + sh / 2 - sw * 0.6),
        fill=(190, 230, 200),
        width=max(1, int(sw * 0.18)),
    )


def _bamboo(d: ImageDraw.ImageDraw, n: int, box: tuple[float, float, float, float]) -> None:
    x0, y0, x1, y1 = box
    fw, fh = x1 - x0, y1 - y0
    if n == 1:
        # the one of bamboo: a single tall red-tipped stalk with leaves
        cx = x0 + fw / 2
        _stick(d, cx, y0 + fh * 0.55, fw * 0.2, fh * 0.7, GREEN)
        d.ellipse((cx - fw * 0.17, y0 + fh * 0.04, cx + fw * 0.17, y0 + fh * 0.24), fill=RED)
        d.polygon(
            [
                (cx, y0 + fh * 0.45),
                (cx - fw * 0.38, y0 + fh * 0.32),
                (cx - fw * 0.1, y0 + fh * 0.55),
            ],
            fill=GREEN,
        )
        d.polygon(
            [
                (cx, y0 + fh * 0.65),
                (cx + fw * 0.38, y0 + fh * 0.5),
                (cx + fw * 0.1, y0 + fh * 0.75),
            ],
            fill=GREEN,
        )
        return
    rows = 3 if n in (7, 9) else 2
    sh = fh / rows * 0.82
    cols = 4 if n == 8 else 3 if n in (6, 7, 9) else 2
    sw = min(fw / cols * 0.6, sh * 0.36)
    red = BAMBOO_RED.get(n, set())
    for i, (px, py) in enumerate(BAMBOO[n]):
        _stick(d, x0 + px * fw, y0 + py * fh, sw, sh, RED if i in red else GREEN)


@lru_cache(maxsize=64)
def wind_disk(code: str, size: int, active: bool) -> Image.Image:
    """A round seat-wind badge with the CJK glyph."""
    S = size * SCALE
    img = Image.new("RGBA", (S, S), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.ellipse(
        (0, 0, S - 1, S - 1), fill=GOLD if active else (236, 228, 208), outline=INK, width=SCALE * 2
    )
    d.text(
        (S / 2, S / 2 + S * 0.02),
        WIND_GLYPH[code],
        font=font(int(S * 0.58), True),
        fill=NAVY,
        anchor="mm",
    )
    return img.resize((size, size), Image.Resampling.LANCZOS)


# ----- layout helpers ----------------------------------------------------------------------
def _over(canvas: Image.Image, sprite: Image.Image, xy: tuple[int, int]) -> None:
    """Blend an RGBA sprite over the (RGB) canvas."""
    canvas.paste(sprite, xy, sprite)


def _paste_tile(
    canvas: Image.Image,
    code: str | None,
    xy: tuple[int, int],
    size: tuple[int, int],
    highlight: bool = False,
) -> None:
    paste_with_shadow(canvas, tile_image(code, size, highlight), xy, offset=(1, 2))


def _meld_width(meld: MeldView, size: tuple[int, int]) -> int:
    return len(meld["cards"]) * (size[0] + 1)


def _draw_meld(canvas: Image.Image, meld: MeldView, x: int, y: int, size: tuple[int, int]) -> int:
    """A meld; a concealed kong shows its outer cards face down. Returns the next x."""
    cards = meld["cards"]
    concealed_kong = meld["kind"] == "kong" and meld.get("concealed")
    for i, c in enumerate(cards):
        face_down = concealed_kong and i in (0, len(cards) - 1)
        _paste_tile(canvas, None if face_down else c, (x, y), size)
        x += size[0] + 1
    return x


def _name(view: MahjongView, seat: int) -> str:
    players = view.get("players") or []
    return players[seat] if seat < len(players) else Text("Seat {n}", n=seat + 1)


def _card(code: str, locale: str) -> str:
    """A card in a label: its name (``5 Dots``, ``5筒``), never its code."""
    return name(INDEX[code]) if code in INDEX else code


def _num(locale: str, n: int, sign: bool = False) -> str:
    """A score as the locale writes numbers (``2,948``, ``+2,948`` with ``sign``); English
    pictures keep their plain digits (``2948``)."""
    if normalize(locale) == DEFAULT_LOCALE:
        return f"{n:+d}" if sign else str(n)
    text = format_number(locale, abs(n) if sign else n)
    return ("-" if n < 0 else "+") + text if sign else text


def _status(view: MahjongView, locale: str = DEFAULT_LOCALE) -> str:
    if view.get("is_over"):
        scores = view.get("scores") or []
        if scores:
            best = max(scores)
            win = [_name(view, s) for s in range(len(scores)) if scores[s] == best]
            return Text(
                "Game over — {names} wins with {points}",
                names=" & ".join(win),
                points=_num(locale, best),
            )
        return Text("Game over")
    phase = view.get("phase")
    claim = view.get("claim")
    if phase == "claim" and claim:
        # the same for every discard: nothing here tells who could claim it
        return Text("{name} discarded — claim window open", name=_name(view, claim["by"]))
    if phase == "prelude":
        # everyone is asked, four of a kind or not: nothing here tells who holds four
        return Text("Before play — everyone may declare concealed kongs")
    turn = view.get("turn")
    if turn is None:
        return ""
    who = _name(view, turn)
    if phase == "last_turns":
        declared = view.get("win")
        winner = declared["winner"] if declared else turn
        return Text(
            "Mah-Jongg by {winner} — {name} takes one more turn",
            winner=_name(view, winner),
            name=who,
        )
    return Text("{name} to play", name=who)


def _seat_order(view: MahjongView) -> list[int]:
    """Seats in turn order, East first."""
    winds = view["seat_winds"]
    return sorted(range(len(winds)), key=lambda s: "ESWN".index(winds[s]))


# ----- the table ---------------------------------------------------------------------------
# Laid out for Discord's inline preview (~550 px wide): a narrow canvas whose four seats sit
# two by two (in wind order, read left to right), so every card keeps a readable height at
# that width (``TABLE_W`` × ``PREVIEW_W`` scale; tests/render check the bound).
TABLE_W = 1000
HEADER_H = 74
#: A seat's panel: two across, two down.
PANEL_W = (TABLE_W - 30) // 2
PANEL_H = 242
PANEL_GAP = 10
#: Every card of the table: hand, melds, extras and discards (backs a little smaller).
CARD = (30, 40)
BACK_CARD = (26, 37)
#: The fallback when a row would not fit its panel (four kongs, a very long river).
CARD_SMALL = (24, 32)
#: The width Discord shows a picture inline at.
PREVIEW_W = 550
#: The smallest font of the table and the hand (9.35 px at PREVIEW_W on the table): a
#: name or label that does not fit is ellipsized, never shrunk below it.
MIN_TEXT = 17
#: Inside a panel: the left of the cards and the top of the hand's row (from the panel's
#: top); the discards follow the hand (one row, or two when its melds need them).
PAD = 10
ROW_HAND = 54
ROW_STEP = CARD[1] + 4


def panel_origin(index: int) -> tuple[int, int]:
    """The top-left corner of the ``index``-th seat's panel (0-3, in wind order)."""
    col, row = index % 2, index // 2
    return 10 + col * (PANEL_W + PANEL_GAP), HEADER_H + row * (PANEL_H + PANEL_GAP)


def table_height() -> int:
    return HEADER_H + 2 * PANEL_H + PANEL_GAP + 10


def render_table(view: MahjongView, locale: str = "en-US") -> Image.Image:
    """The public table: every seat's melds, extras and discards, winds, wall and turn."""
    order = _seat_order(view)
    canvas = _table_base(tuple(_active(view, seat) for seat in order)).copy()
    d = Draw(canvas)
    _header(canvas, d, view, locale)
    for index, seat in enumerate(order):
        _seat_panel(canvas, view, seat, panel_origin(index), locale)
    return canvas


@lru_cache(maxsize=8)  # ~1.5 MB each, per render process: a few highlight patterns
def _table_base(actives: tuple[bool, ...]) -> Image.Image:
    """The felt, the header panel and one panel per seat (a highlighted border on the
    active ones): everything that does not move. Cached; callers copy it."""
    canvas = felt((TABLE_W, table_height()), FELT_GREEN).copy()
    panel(canvas, (10, 8, TABLE_W - 10, HEADER_H - 8), fill=(0, 0, 0, 110))
    d = Draw(canvas)
    for index, active in enumerate(actives):
        x, y = panel_origin(index)
        box = (x, y, x + PANEL_W, y + PANEL_H)
        border = HIGHLIGHT if active else (255, 255, 255, 40)
        panel(canvas, box, fill=(0, 0, 0, 70 if not active else 105), border=border)
        if active:
            d.rounded_rectangle(box, radius=10, outline=HIGHLIGHT, width=3)
    return canvas


def _active(view: MahjongView, seat: int) -> bool:
    """Whether the seat's panel is highlighted: it is to act, or it is its turn in play."""
    return seat in set(view.get("to_act") or []) or (
        view.get("turn") == seat and view.get("phase") != "claim" and not view.get("is_over")
    )


def _header(canvas: Image.Image, d: ImageDraw.ImageDraw, view: MahjongView, locale: str) -> None:
    rw = view.get("round_wind", "E")
    _over(canvas, wind_disk(rw, 50, True), (20, 12))
    title = localize(locale, Text("Mah-Jongg — hand {n}", n=view.get("deal", 1)))
    draw_fitted(d, (82, 12), title, 380, 26, WHITE, bold=True, min_size=MIN_TEXT)
    rounds = view.get("rounds")
    played = view.get("rounds_played", 0)
    wind = WIND_WORD.get(rw, rw)
    sub = (
        Text(
            "{wind} round · seat changes {played}/{rounds}", wind=wind, played=played, rounds=rounds
        )
        if rounds
        else Text("{wind} round", wind=wind)
    )
    draw_fitted(d, (84, 44), localize(locale, sub), 380, 18, MUTED, min_size=MIN_TEXT)
    # wall and kong box
    x = TABLE_W - 22
    box = badge(
        d,
        (x, 12),
        localize(locale, Text("Kong box {n}", n=view.get("kong_box", 0))),
        20,
        fill=(236, 228, 208),
        anchor="ra",
    )
    badge(
        d,
        (box[0] - 10, 12),
        localize(locale, Text("Wall {n}", n=view.get("wall", 0))),
        20,
        fill=GOLD,
        anchor="ra",
    )
    status = localize(locale, _status(view, locale))
    if status:
        draw_fitted(
            d, (TABLE_W - 22, 42), status, 500, 21, HIGHLIGHT, True, "ra", min_size=MIN_TEXT
        )


def _seat_panel(
    canvas: Image.Image,
    view: MahjongView,
    seat: int,
    origin: tuple[int, int],
    locale: str,
) -> None:
    """One seat: its wind, name and score, its tags and extras (a top line), its hand and
    melds (a row), its discards (two rows)."""
    d = Draw(canvas)
    px, py = origin
    right = px + PANEL_W - PAD
    wind = view["seat_winds"][seat]
    round_player = seat == view.get("round_player")
    _over(canvas, wind_disk(wind, 40, round_player), (px + PAD, py + 8))
    x_text = px + PAD + 48
    name = _name(view, seat)
    used = draw_fitted(d, (x_text, py + 6), name, 190, 22, WHITE, True, min_size=MIN_TEXT)
    label = Text("{wind} · round player", wind=SEAT_WORD[wind]) if round_player else SEAT_WORD[wind]
    scores = view.get("scores") or []
    if seat < len(scores):
        points = ntext("{n} pt", "{n} pts", scores[seat], n=_num(locale, scores[seat]))
        label = Text("{item}, {next}", item=label, next=points)
    said = localize(locale, label)
    used = max(used, draw_fitted(d, (x_text, py + 32), said, 236, 17, GOLD, min_size=MIN_TEXT))
    # the top line's right: extras, then tags (standing hand, Mah-Jongg, to answer)
    extras = (view.get("extras") or [[]] * 4)[seat]
    tag_right = right - len(extras) * (CARD[0] + 2) - 8
    ex = tag_right + 8
    for c in extras:
        _paste_tile(canvas, c, (ex, py + 6), CARD)
        ex += CARD[0] + 2
    tag_left = x_text + used + 12
    standing = (view.get("standing") or [None] * 4)[seat]
    win = view.get("win")
    tags: list[tuple[str, tuple[int, int, int]]] = []
    if standing:
        tags.append((localize(locale, Text("Standing, calls")), (120, 200, 255)))
    if win and win.get("winner") == seat:
        tags.append((localize(locale, Text("MAH-JONGG")), (120, 230, 140)))
    if seat in set(view.get("to_act") or []) and view.get("phase") == "claim":
        tags.append((localize(locale, Text("to answer…")), (255, 214, 74)))
    # (two tags at most above the hand row: a claim's tag never meets a Mah-Jongg's)
    for i, (text, colour) in enumerate(tags[:2]):
        room = tag_right - tag_left - (CARD[0] + 6 if standing else 0)
        ty = py + 6 + 23 * i
        text, size = _badge_text(text, MIN_TEXT, max(40, room))
        box = badge(d, (tag_left, ty), text, size, fill=colour)
        if standing and i == 0:
            _paste_tile(canvas, standing["card"], (box[2] + 6, py + 6), CARD)
    below = _hand_row(canvas, view, seat, px + PAD, py + ROW_HAND, right)
    _river(canvas, view, seat, (px + PAD, below + 6, right, py + PANEL_H - 6), locale)


def _hand_row(
    canvas: Image.Image, view: MahjongView, seat: int, x0: int, y: int, right: int
) -> int:
    """The hand (backs, or its cards when shown), then the melds, wrapping to a second row
    where they do not fit. Returns the bottom of the last row."""
    standing = (view.get("standing") or [None] * 4)[seat]
    win = view.get("win")
    shown = None
    if standing:
        shown = standing["hand"]
    if win and win.get("winner") == seat:
        shown = win["hand"]["concealed"]
    if view.get("seat") == seat and view.get("hand"):
        shown = view["hand"]
    x = x0
    if shown:
        for c in shown:
            _paste_tile(canvas, c, (x, y), CARD)
            x += CARD[0] + 1
    else:
        for _ in range((view.get("hand_counts") or [0] * 4)[seat]):
            _paste_tile(canvas, None, (x, y + CARD[1] - BACK_CARD[1]), BACK_CARD)
            x += BACK_CARD[0] + 1
    for meld in (view.get("melds") or [[]] * 4)[seat]:
        if x + 12 + _meld_width(meld, CARD) > right:
            x, y = x0 - 12, y + ROW_STEP
        x = _draw_meld(canvas, meld, x + 12, y, CARD)
    return y + CARD[1]


def _river(
    canvas: Image.Image,
    view: MahjongView,
    seat: int,
    box: tuple[int, int, int, int],
    locale: str,
) -> None:
    """The seat's discards in rows within ``box`` (smaller cards only if they would not
    fit); the one being claimed glows."""
    river = (view.get("rivers") or [[]] * 4)[seat]
    x0, y, right, bottom = box
    if not river:
        no_discards = localize(locale, Text("no discards yet"))
        draw_text(Draw(canvas), (x0, y + 10), no_discards, MIN_TEXT, MUTED)
        return
    size = CARD
    per_row = (right - x0) // (size[0] + 2)
    rows = max(1, (bottom - y + 4) // (size[1] + 4))
    if len(river) > rows * per_row:
        size = CARD_SMALL
        per_row = (right - x0) // (size[0] + 2)
    claim = view.get("claim")
    hot = len(river) - 1 if claim and claim.get("by") == seat else -1
    rx, ry = x0, y
    for i, c in enumerate(river):
        if i and i % per_row == 0:
            ry += size[1] + 4
            rx = x0
        if i == hot:
            g = glow(size, HIGHLIGHT, 8)
            canvas.paste(g, (rx - 8, ry - 8), g)
        _paste_tile(canvas, c, (rx, ry), size, highlight=i == hot)
        rx += size[0] + 2


def _badge_text(text: str, size: int, max_width: float, bold: bool = True) -> tuple[str, int]:
    """``text`` at ``size`` (ellipsized if need be) so that its badge fits ``max_width``, its
    padding included."""
    pad = 2 * max(3, size // 3)
    return fit_text(text, int(max_width) - pad, size, bold, size)


# ----- a seat's hand ------------------------------------------------------------------------
def render_hand(view: MahjongView, locale: str = "en-US") -> Image.Image:
    """The seat's private hand (big cards; the drawn card set apart), its melds and extras."""
    seat = view.get("seat")
    hand: Sequence[str] = view.get("hand") or []
    drawn = view.get("drawn")
    cards = list(hand)
    if drawn and drawn in cards:
        cards.remove(drawn)
    # (no room kept for a drawn card when there is none: 14 cards stay within 990 px)
    drawn_w = HAND_TILE[0] + 3 + 18 if drawn else 0
    width = max(900, 40 + len(cards) * (HAND_TILE[0] + 3) + drawn_w + 40)
    height = 320
    canvas = felt((width, height), FELT_GREEN, seed=11).copy()
    d = Draw(canvas)
    if seat is None:
        text = localize(locale, Text("Spectators have no hand.", context="mahjong"))
        draw_fitted(d, (20, 20), text, width - 40, 22, WHITE, True, min_size=MIN_TEXT)
        return canvas
    wind = view["seat_winds"][seat]
    _over(canvas, wind_disk(wind, 48, seat == view.get("round_player")), (18, 12))
    title = Text(
        "{name} — {wind} seat, {round} round",
        name=_name(view, seat),
        wind=WIND_WORD[wind],
        round=WIND_WORD.get(view.get("round_wind", "E"), ""),
    )
    draw_fitted(
        d, (76, 12), localize(locale, title), width - 96, 22, WHITE, True, min_size=MIN_TEXT
    )
    status = localize(locale, _hand_status(view, locale))
    draw_fitted(d, (76, 42), status, width - 96, 18, HIGHLIGHT, min_size=MIN_TEXT)
    x, y = 20, 82
    for c in cards:
        _paste_tile(canvas, c, (x, y), HAND_TILE)
        x += HAND_TILE[0] + 3
    if drawn:
        x += 18
        g = glow(HAND_TILE, HIGHLIGHT, 10)
        canvas.paste(g, (x - 10, y - 10), g)
        _paste_tile(canvas, drawn, (x, y), HAND_TILE)
        draw_fitted(
            d,
            (x + HAND_TILE[0] / 2, y + HAND_TILE[1] + 8),
            localize(locale, Text("drawn")),
            HAND_TILE[0] + 30,
            MIN_TEXT,
            HIGHLIGHT,
            anchor="ma",
        )
    # melds and extras
    y2 = y + HAND_TILE[1] + 36
    x = 20
    melds = (view.get("melds") or [[]] * 4)[seat]
    if melds:
        label = localize(locale, Text("Melds"))
        draw_text(d, (x, y2 - 2), label, MIN_TEXT, MUTED)
        x += max(52, int(text_length(label, MIN_TEXT)) + 12)
        for meld in melds:
            x = _draw_meld(canvas, meld, x, y2, TABLE_TILE) + 12
    extras = (view.get("extras") or [[]] * 4)[seat]
    if extras:
        x += 12
        label = localize(locale, Text("Extras"))
        draw_text(d, (x, y2 - 2), label, MIN_TEXT, MUTED)
        x += max(52, int(text_length(label, MIN_TEXT)) + 12)
        for c in extras:
            _paste_tile(canvas, c, (x, y2), TABLE_TILE)
            x += TABLE_TILE[0] + 3
    claim = view.get("claim")
    if claim:
        cx = width - 20 - TABLE_TILE[0]
        text = localize(locale, Text("{name} discarded", name=_name(view, claim["by"])))
        room = max(80, cx - 8 - x - 12)
        draw_fitted(
            d, (cx - 8, y2 + 12), text, room, MIN_TEXT, WHITE, anchor="ra", min_size=MIN_TEXT
        )
        _paste_tile(canvas, claim["card"], (cx, y2), TABLE_TILE, highlight=True)
    standing = (view.get("standing") or [None] * 4)[seat]
    if standing:
        card = _card(standing["card"], locale)
        text = localize(locale, Text("Standing hand: calling {card}", card=card))
        colour = (120, 200, 255)
        draw_fitted(d, (20, height - 30), text, width - 40, 18, colour, True, min_size=MIN_TEXT)
    return canvas


def _hand_status(view: MahjongView, locale: str = DEFAULT_LOCALE) -> str:
    seat = view.get("seat")
    phase = view.get("phase")
    if view.get("is_over"):
        return Text("The game is over.")
    if phase == "claim":
        claim = view.get("claim")
        if claim and seat in claim["waiting"]:
            if any(c != "pass" for c in claim.get("my_options") or []):
                return Text("A discard you can claim — see the buttons.")
            return Text("Nothing to claim this time: pass.")
        return Text("Waiting for claims.")
    if phase == "prelude":
        prelude = view.get("prelude")
        if prelude and seat in prelude["waiting"]:
            if any(c != "pass" for c in prelude.get("my_options") or []):
                return Text("Before play: declare a concealed kong or keep your cards.")
            return Text("Before play: no four of a kind, nothing to declare: pass.")
        return Text("Before play: waiting for the others.")
    if view.get("turn") == seat:
        pending_declare = view.get("pending_declare")
        if pending_declare:
            return Text(
                "Standing hand calling {card}: now discard.",
                card=_card(pending_declare, locale),
            )
        if phase != "last_turns":
            return Text("Your turn.")
        return Text("Your one more turn: discard.")
    turn = view.get("turn")
    if turn is not None:
        return Text("{name} is playing.", name=_name(view, turn))
    return ""


# ----- the score sheet ---------------------------------------------------------------------
# Like the table, laid out for the ~550 px preview: the four players' columns two by two on
# a narrow sheet, so a line of the sheet keeps a readable size at that width.
SHEET_W = 900
SHEET_COL_W = (SHEET_W - 30) // 2
SHEET_TOP = 104
#: A line of a player's column (font size and step), and the cards of their hand.
SHEET_FONT = 18
SHEET_LINE = 24
SHEET_CARD = (24, 32)
#: Above a column's lines: its name and wind, then two rows of cards.
SHEET_HEAD = 52 + 2 * (SHEET_CARD[1] + 4) + 10


def render_deal_summary(view: MahjongView, locale: str = "en-US") -> Image.Image | None:
    """The score sheet of the last finished hand: every item of every player's score."""
    history = view.get("history") or []
    if not history:
        return None
    entry = history[-1]
    winds = entry.get("winds") or ["E", "S", "W", "N"]
    order = sorted(range(4), key=lambda s: "ESWN".index(winds[s]))
    # Each row of two columns is as tall as the longer sheet of the two.
    heights = [
        max(_column_height(entry, order[2 * r]), _column_height(entry, order[2 * r + 1]))
        for r in range(2)
    ]
    height = SHEET_TOP + sum(heights) + 10 + 10
    canvas = felt((SHEET_W, height), (60, 36, 30), seed=5).copy()
    d = Draw(canvas)
    title = localize(locale, _summary_title(view, entry, locale))
    draw_fitted(d, (20, 12), title, SHEET_W - 40, 28, WHITE, bold=True)
    rw = entry.get("round_wind", "E")
    sub = Text(
        "{wind} round · round player {name}",
        wind=WIND_WORD.get(rw, rw),
        name=_name(view, entry.get("round_player", 0)),
    )
    draw_fitted(d, (20, 50), localize(locale, sub), SHEET_W - 40, 18, MUTED)
    if entry.get("penalties"):
        pens = [
            Text(
                "{name} {points} ({reason})",
                name=_name(view, p["seat"]),
                points=p["points"],
                reason=p["reason"],
            )
            for p in entry["penalties"]
        ]
        listed = semicolons(pens)
        text = localize(locale, Text("Penalties: {list}", list=listed))
        draw_fitted(d, (20, 76), text, SHEET_W - 40, 17, (255, 160, 140))
    for i, seat in enumerate(order):
        x0 = 10 + (i % 2) * (SHEET_COL_W + 10)
        y0 = SHEET_TOP + (i // 2) * (heights[0] + 10)
        _summary_column(canvas, view, entry, seat, x0, y0, SHEET_COL_W, heights[i // 2], locale)
    return canvas


def _column_height(entry: HandRecord, seat: int) -> int:
    """The height of a player's column: the head (name, cards) and their sheet's lines."""
    sheets = entry.get("sheets")
    lines = 2
    if sheets:
        sheet = sheets[seat]
        lines = len(sheet["items"]) + len(sheet["multipliers"]) + bool(sheet.get("special")) + 5
    return SHEET_HEAD + lines * SHEET_LINE + 18


def _summary_title(view: MahjongView, entry: HandRecord, locale: str = DEFAULT_LOCALE) -> str:
    n = entry.get("deal")
    if entry.get("outcome") == "draw":
        return Text(
            "Hand {n}: a draw — the wall is exhausted, no scores (the hand is replayed)", n=n
        )
    if entry.get("outcome") == "void":
        return Text(
            "Hand {n}: void ({reason}) — replayed without scoring",
            n=n,
            reason=entry.get("reason", ""),
        )
    win = entry.get("win")
    winner = entry.get("winner")
    assert winner is not None  # (a hand neither void nor drawn was won)
    who = _name(view, winner)
    card = _card(win["card"], locale) if win and win["card"] else None
    original = bool(win and win["original"])
    if win and win["by"] == "wall":
        if original:
            # the original hand has no winning card
            return Text("Hand {n}: Mah-Jongg by {name} by wall — original hand", n=n, name=who)
        if card:
            return Text("Hand {n}: Mah-Jongg by {name} by wall ({card})", n=n, name=who, card=card)
        return Text("Hand {n}: Mah-Jongg by {name} by wall", n=n, name=who)
    discarder = win["from"] if win else None
    other = _name(view, discarder) if discarder is not None else ""
    if card:
        return Text(
            "Hand {n}: Mah-Jongg by {name} on {other}'s discard ({card})",
            n=n,
            name=who,
            other=other,
            card=card,
        )
    return Text("Hand {n}: Mah-Jongg by {name} on {other}'s discard", n=n, name=who, other=other)


def _summary_column(
    canvas: Image.Image,
    view: MahjongView,
    entry: HandRecord,
    seat: int,
    x0: int,
    y0: int,
    w: int,
    h: int,
    locale: str = "en-US",
) -> None:
    is_winner = entry.get("winner") == seat
    inner = panel(
        canvas,
        (x0, y0, x0 + w, y0 + h),
        # opaque: the felt's grain under the lines would only cost PNG bytes
        fill=(34, 22, 19, 255) if not is_winner else (36, 84, 36, 255),
        border=HIGHLIGHT if is_winner else (255, 255, 255, 50),
    )
    d = Draw(canvas)
    winds = entry.get("winds") or ["E", "S", "W", "N"]
    _over(
        canvas,
        wind_disk(winds[seat], 40, seat == entry.get("round_player")),
        (inner[0] + 2, inner[1] + 2),
    )
    name_w = inner[2] - inner[0] - 56
    draw_fitted(d, (inner[0] + 50, inner[1]), _name(view, seat), name_w, 22, WHITE, bold=True)
    wind = SEAT_WORD[winds[seat]]
    label = Text("{wind} · Mah-Jongg", wind=wind) if is_winner else wind
    colour = HIGHLIGHT if is_winner else MUTED
    draw_fitted(d, (inner[0] + 50, inner[1] + 27), localize(locale, label), name_w, 16, colour)
    # the hand: melds then concealed cards, then extras (two rows at most)
    hands = entry.get("hands")
    hand = hands[seat] if hands else None
    x, y = inner[0] + 2, inner[1] + 52
    if hand:
        size_t = SHEET_CARD
        for meld in hand["melds"]:
            if x + _meld_width(meld, size_t) > inner[2]:
                x, y = inner[0] + 2, y + size_t[1] + 4
            x = _draw_meld(canvas, meld, x, y, size_t) + 6
        for c in hand["concealed"]:
            if x + size_t[0] > inner[2]:
                x, y = inner[0] + 2, y + size_t[1] + 4
            _paste_tile(canvas, c, (x, y), size_t)
            x += size_t[0] + 1
        for c in hand["extras"]:
            if x + size_t[0] + 6 > inner[2]:
                x, y = inner[0] + 2, y + size_t[1] + 4
            _paste_tile(canvas, c, (x + 6, y), size_t)
            x += size_t[0] + 2
    y = inner[1] + SHEET_HEAD
    right = inner[2]
    col = right - inner[0]
    small, step = SHEET_FONT, SHEET_LINE
    sheets = entry.get("sheets")
    if not sheets:
        deltas = entry.get("deltas") or [0] * 4
        text = localize(locale, Text("change {delta}", delta=_num(locale, deltas[seat], True)))
        draw_fitted(d, (inner[0], y), text, col, small + 2, WHITE, bold=True)
        return
    sheet = sheets[seat]

    def row(label: Text, value: str, bold: bool = True) -> None:
        """A muted label on the left (shrunk to leave room) and its value on the right."""
        room = col - max(64, text_length(value, small, bold) + 12)
        draw_fitted(d, (inner[0], y), localize(locale, label), room, small, MUTED)
        draw_text(d, (right, y), value, small, WHITE, anchor="ra", bold=bold)

    if sheet.get("special"):
        text = localize(locale, Text("Special: {name}", name=sheet["special"]))
        draw_fitted(d, (inner[0], y), text, col, small + 1, HIGHLIGHT, bold=True)
        y += step
    for item in sheet["items"]:
        text, sz = fit_text(localize(locale, item["name"]), col - 64, small)
        draw_text(d, (inner[0], y), text, sz, WHITE)
        value = _num(locale, item["value"]) if isinstance(item["value"], int) else item["value"]
        draw_text(d, (right, y), f"{value}", small, WHITE, anchor="ra", bold=True)
        y += step
    d.line((inner[0], y + 2, right, y + 2), fill=(255, 255, 255, 90), width=1)
    y += 7
    row(Text("Basic points"), _num(locale, sheet["basic"]))
    y += step
    for m in sheet["multipliers"]:
        text, sz = fit_text(localize(locale, m["name"]), col - 64, small)
        draw_text(d, (inner[0], y), text, sz, (170, 220, 255))
        draw_text(d, (right, y), f"+{m['value']}", small, (170, 220, 255), anchor="ra", bold=True)
        y += step
    factor = sheet.get("factor", 1)
    total = Text(
        "Total {basic} × {factor}", basic=_num(locale, sheet["basic"]), factor=f"{factor:g}"
    )
    draw_fitted(d, (inner[0], y), localize(locale, total), col - 70, small + 1, WHITE, bold=True)
    value = _num(locale, sheet["total"])
    draw_text(d, (right, y), value, small + 2, HIGHLIGHT, anchor="ra", bold=True)
    y += step + 3
    pay = sheet.get("payment", 0)
    row(Text("Payments (8 / 16)"), _num(locale, pay, True), bold=False)
    y += step
    deltas = entry.get("deltas") or [0] * 4
    totals = entry.get("totals") or [0] * 4
    change = f"{_num(locale, deltas[seat], True)} → {_num(locale, totals[seat])}"
    row(Text("Change / new total"), change)


@lru_cache(maxsize=1)
def png_palette() -> Image.Image:
    """The fixed palette every Mah-Jongg image is encoded with (built once per process)."""
    from bot.games.mahjong.tiles import CODES
    from bot.render.draw import GOLD, HIGHLIGHT, MUTED, WHITE, palette_sheet
    from bot.render.encode import palette_from

    colours = [WHITE, MUTED, GOLD, HIGHLIGHT, INK, (240, 90, 80), (120, 210, 140)]
    table = felt((TABLE_W, 700), FELT_GREEN).copy()
    sprites = [wind_disk(w, 52, a) for w in "ESWN" for a in (False, True)]
    sprites += [tile_image(c, size) for size in (TABLE_TILE, HAND_TILE) for c in CODES]
    sprites += [tile_image(c, RIVER_TILE, True) for c in CODES[:9]] + [tile_image(None)]
    return palette_from(
        [
            palette_sheet(table, sprites, colours, panels=((0, 0, 0, 110), (0, 0, 0, 70))),
            palette_sheet(felt((900, 160), (60, 36, 30), seed=5), [], colours),
        ],
        keep=colours,
    )
