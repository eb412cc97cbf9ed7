"""Hanafuda card art, drawn by our own Pillow code, and the table pieces of Koi-Koi and Mushi.

Each card's art is painted once on a large master (in a 100 x 160 unit space) and then
reduced by area averaging (BOX: antialiased without LANCZOS's ringing, whose extra tones
cost PNG bytes); the month label ("1 松") and class badge (光 種 短
カス) are drawn afterwards at the target size so they stay crisp. Sprites are cached per
(code, width). The table pieces (end of the module) are what both games' tables share.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Any

from PIL import Image, ImageDraw

from bot.games.hanafuda.cards import ANIMAL, BRIGHT, CLASS_ORDER, PLAIN, RIBBON, card
from bot.i18n import Text, localize
from bot.render.draw import GOLD as TABLE_GOLD
from bot.render.draw import (
    HIGHLIGHT,
    MATCH_GREEN,
    MUTED,
    WHITE,
    Draw,
    badge,
    felt,
    fit_text,
    glow,
    panel,
    paste_with_shadow,
    round_mask,
    text_length,
    wrap_text,
)
from bot.render.fonts import font

CARD_RATIO = 1.6  # height / width (real cards are 54 x 87 mm)
SMALL_CARD = 72  # below this width the class badge is a shape, as kanji would blur
U = 4  # master pixels per unit; the master is 400 x 640
MASTER_W, MASTER_H = 100 * U, 160 * U

Pt = tuple[float, float]
RGB = tuple[int, int, int]
#: A fill or outline colour for the pen (RGB or RGBA); None: none.
Ink = tuple[int, ...] | None

# Traditional palette
CREAM: RGB = (245, 236, 214)
INK: RGB = (30, 26, 26)
SKY_RED: RGB = (200, 52, 44)
SUN_RED: RGB = (214, 42, 36)
PINE: RGB = (32, 82, 48)
PINE_LIGHT: RGB = (72, 128, 72)
BARK: RGB = (74, 46, 30)
PLUM_RED: RGB = (206, 34, 58)
CHERRY: RGB = (248, 196, 210)
CHERRY_EDGE: RGB = (222, 110, 140)
WISTERIA: RGB = (122, 78, 168)
WISTERIA_LIGHT: RGB = (170, 132, 210)
IRIS: RGB = (66, 60, 168)
IRIS_LIGHT: RGB = (122, 112, 214)
LEAF: RGB = (52, 112, 58)
LEAF_DARK: RGB = (30, 70, 40)
PEONY: RGB = (214, 52, 84)
PEONY_LIGHT: RGB = (240, 120, 140)
CLOVER: RGB = (196, 40, 92)
HILL: RGB = (26, 24, 24)
MOON: RGB = (250, 244, 226)
CHRYS: RGB = (236, 178, 40)
CHRYS_DARK: RGB = (200, 110, 30)
MAPLE: RGB = (204, 48, 40)
MAPLE_ORANGE: RGB = (232, 130, 40)
WILLOW: RGB = (96, 150, 60)
WILLOW_DARK: RGB = (40, 84, 44)
PAUL_LEAF: RGB = (60, 120, 64)
PAUL_FLOWER: RGB = (150, 108, 184)
GOLD: RGB = (230, 184, 60)
RIBBON_RED: RGB = (204, 40, 40)
RIBBON_BLUE: RGB = (44, 62, 160)
STORM: RGB = (44, 42, 52)
MIST_GREY: RGB = (214, 220, 222)

MONTH_KANJI = {
    1: "松",
    2: "梅",
    3: "桜",
    4: "藤",
    5: "菖",
    6: "牡",
    7: "萩",
    8: "芒",
    9: "菊",
    10: "紅",
    11: "柳",
    12: "桐",
}
CLASS_MARK = {BRIGHT: "光", ANIMAL: "種", RIBBON: "短", PLAIN: "カス"}
POETRY = {"1r": "あかよろし", "2r": "あかよろし", "3r": "みよしの"}


# ---------------------------------------------------------------- geometry helpers


def _bez(p0: Pt, p1: Pt, p2: Pt, p3: Pt, n: int = 18) -> list[Pt]:
    """Points along a cubic Bézier curve."""
    out = []
    for i in range(n + 1):
        t = i / n
        a, b, c, d = (1 - t) ** 3, 3 * t * (1 - t) ** 2, 3 * t * t * (1 - t), t**3
        out.append(
            (
                a * p0[0] + b * p1[0] + c * p2[0] + d * p3[0],
                a * p0[1] + b * p1[1] + c * p2[1] + d * p3[1],
            )
        )
    return out


def _oval_pts(
    cx: float, cy: float, rx: float, ry: float, angle: float = 0, n: int = 28
) -> list[Pt]:
    """A rotated ellipse as a polygon (angle in degrees, clockwise on screen)."""
    a = math.radians(angle)
    ca, sa = math.cos(a), math.sin(a)
    pts = []
    for i in range(n):
        t = 2 * math.pi * i / n
        x, y = rx * math.cos(t), ry * math.sin(t)
        pts.append((cx + x * ca - y * sa, cy + x * sa + y * ca))
    return pts


def _leaf_pts(
    x: float, y: float, length: float, width: float, angle: float, n: int = 14
) -> list[Pt]:
    """A pointed leaf (lens) from its base (x, y) along `angle` degrees."""
    a = math.radians(angle)
    ux, uy = math.cos(a), math.sin(a)
    nx, ny = -uy, ux
    side1, side2 = [], []
    for i in range(n + 1):
        t = i / n
        half = width / 2 * math.sin(math.pi * t) ** 0.8
        px, py = x + ux * length * t, y + uy * length * t
        side1.append((px + nx * half, py + ny * half))
        side2.append((px - nx * half, py - ny * half))
    return side1 + side2[::-1]


def _star_pts(
    cx: float, cy: float, r_out: float, r_in: float, points: int, rot: float = -90
) -> list[Pt]:
    pts = []
    for i in range(points * 2):
        r = r_out if i % 2 == 0 else r_in
        a = math.radians(rot + 180 * i / points)
        pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return pts


class _Pen:
    """ImageDraw in card units (100 x 160)."""

    def __init__(self, img: Image.Image) -> None:
        self.img = img
        self.d = Draw(img)

    @staticmethod
    def _p(pts: Sequence[Pt]) -> list[Pt]:
        return [(x * U, y * U) for x, y in pts]

    def poly(
        self, pts: Sequence[Pt], fill: Ink = None, outline: Ink = None, width: float = 0
    ) -> None:
        self.d.polygon(
            self._p(pts),
            fill=fill,
            outline=outline,
            width=max(1, round(width * U)) if outline else 0,
        )

    def ellipse(
        self,
        cx: float,
        cy: float,
        rx: float,
        ry: float,
        fill: Ink = None,
        outline: Ink = None,
        width: float = 0,
    ) -> None:
        box = ((cx - rx) * U, (cy - ry) * U, (cx + rx) * U, (cy + ry) * U)
        self.d.ellipse(
            box, fill=fill, outline=outline, width=max(1, round(width * U)) if outline else 0
        )

    def circle(
        self,
        cx: float,
        cy: float,
        r: float,
        fill: Ink = None,
        outline: Ink = None,
        width: float = 0,
    ) -> None:
        self.ellipse(cx, cy, r, r, fill, outline, width)

    def oval(
        self,
        cx: float,
        cy: float,
        rx: float,
        ry: float,
        angle: float,
        fill: Ink = None,
        outline: Ink = None,
        width: float = 0.0,
    ) -> None:
        self.poly(_oval_pts(cx, cy, rx, ry, angle), fill, outline, width)

    def leaf(
        self,
        x: float,
        y: float,
        length: float,
        width: float,
        angle: float,
        fill: Ink,
        vein: Ink = None,
    ) -> None:
        self.poly(_leaf_pts(x, y, length, width, angle), fill)
        if vein:
            a = math.radians(angle)
            self.line(
                [(x, y), (x + math.cos(a) * length * 0.85, y + math.sin(a) * length * 0.85)],
                vein,
                0.5,
            )

    def line(self, pts: Sequence[Pt], fill: Ink, width: float) -> None:
        self.d.line(self._p(pts), fill=fill, width=max(1, round(width * U)), joint="curve")

    def rect(
        self,
        x0: float,
        y0: float,
        x1: float,
        y1: float,
        fill: Ink = None,
        outline: Ink = None,
        width: float = 0,
        radius: float = 0,
    ) -> None:
        box = (x0 * U, y0 * U, x1 * U, y1 * U)
        w = max(1, round(width * U)) if outline else 0
        if radius:
            self.d.rounded_rectangle(box, radius=radius * U, fill=fill, outline=outline, width=w)
        else:
            self.d.rectangle(box, fill=fill, outline=outline, width=w)

    def taper(self, pts: Sequence[Pt], w0: float, w1: float, fill: Ink) -> None:
        """A stroke whose width goes from w0 to w1 (branches, trunks, tails)."""
        n = len(pts)
        for i in range(n - 1):
            wa = w0 + (w1 - w0) * i / (n - 1)
            wb = w0 + (w1 - w0) * (i + 1) / (n - 1)
            (x0, y0), (x1, y1) = pts[i], pts[i + 1]
            length = math.hypot(x1 - x0, y1 - y0) or 1e-6
            nx, ny = -(y1 - y0) / length, (x1 - x0) / length
            self.poly(
                [
                    (x0 + nx * wa / 2, y0 + ny * wa / 2),
                    (x1 + nx * wb / 2, y1 + ny * wb / 2),
                    (x1 - nx * wb / 2, y1 - ny * wb / 2),
                    (x0 - nx * wa / 2, y0 - ny * wa / 2),
                ],
                fill,
            )
            self.circle(x1, y1, wb / 2, fill)
        self.circle(pts[0][0], pts[0][1], w0 / 2, fill)

    def text(
        self,
        x: float,
        y: float,
        s: str,
        size: float,
        fill: Ink,
        anchor: str = "mm",
        bold: bool = True,
    ) -> None:
        self.d.text((x * U, y * U), s, font=font(round(size * U), bold), fill=fill, anchor=anchor)


# ---------------------------------------------------------------- plant motifs


def _sky(pen: _Pen, colour: RGB, bottom: float, fade: float = 10) -> None:
    """Colour the top of the card down to `bottom`, with a short fade into the cream."""
    pen.rect(0, 0, 100, bottom - fade, fill=colour)
    steps = 8
    for i in range(steps):
        t = (i + 1) / (steps + 1)
        c = tuple(round(colour[k] * (1 - t) + CREAM[k] * t) for k in range(3))
        y0 = bottom - fade + fade * i / steps
        pen.rect(0, y0, 100, y0 + fade / steps + 0.3, fill=c)


def _mist(pen: _Pen, y: float, x0: float, x1: float, colour: RGB = SKY_RED, h: float = 9) -> None:
    """A kasumi mist band: a long rounded bar with a bumpy top."""
    pen.rect(x0, y, x1, y + h, fill=colour, radius=h / 2)
    for bx in range(int(x0 + 6), int(x1 - 4), 11):
        pen.circle(bx, y + 1.5, h * 0.45, fill=colour)


def _mirror(mirror: bool) -> Callable[[float], float]:
    """An x as drawn: across the card's middle (``100 - x``) when ``mirror``."""
    return (lambda x: 100 - x) if mirror else (lambda x: x)


def _pine(pen: _Pen, mirror: bool = False, leave_sky: bool = False) -> None:
    m = _mirror(mirror)
    pads = [(48, 34, 26), (20, 58, 18), (80, 86, 20), (62, 60, 18), (34, 92, 16), (72, 128, 16)]
    if leave_sky:  # the Crane: keep the upper right clear for the sun
        pads = [(22, 40, 20), (20, 70, 18), (34, 96, 16), (80, 92, 16)]
    trunk = _bez((m(30), 162), (m(10), 120), (m(62), 96), (m(48), 40))
    pen.taper(trunk, 13, 6, BARK)
    pen.taper(_bez((m(38), 112), (m(55), 104), (m(70), 100), (m(84), 92), 8), 5, 2.5, BARK)
    pen.taper(_bez((m(44), 70), (m(34), 64), (m(26), 60), (m(16), 56), 8), 4, 2, BARK)
    for pad_x, cy, rx in pads:
        cx = m(pad_x)
        pen.ellipse(cx, cy + 2, rx, rx * 0.42, fill=PINE)
        pen.ellipse(cx, cy - 1, rx * 0.9, rx * 0.3, fill=PINE_LIGHT)
        # needle texture: short fan strokes along the pad's top
        for k in range(-4, 5):
            x = cx + k * rx / 5
            pen.line([(x, cy + 1), (x + k * 0.6, cy - rx * 0.32)], PINE, 0.8)


def _plum(pen: _Pen, mirror: bool = False) -> None:
    m = _mirror(mirror)
    main = [
        (m(18), 162),
        (m(30), 128),
        (m(22), 104),
        (m(44), 80),
        (m(38), 56),
        (m(62), 34),
        (m(58), 12),
    ]
    pen.taper(main, 8, 3, BARK)
    pen.taper([(m(44), 80), (m(66), 72), (m(80), 52), (m(92), 48)], 4, 2, BARK)
    pen.taper([(m(30), 128), (m(52), 122), (m(70), 108)], 4, 2, BARK)
    for cx, cy, r in (
        (m(58), 16, 7), (m(64), 34, 8), (m(40), 54, 7), (m(80), 52, 8), (m(92), 44, 6),
        (m(46), 80, 7), (m(68), 108, 8), (m(52), 122, 6), (m(22), 104, 7), (m(70), 72, 6),
    ):  # fmt: skip
        _blossom5(pen, cx, cy, r, PLUM_RED, (250, 226, 120), edge=(150, 20, 40))
    for cx, cy in ((m(32), 40), (m(86), 66), (m(36), 70)):
        pen.circle(cx, cy, 2.6, fill=PLUM_RED)  # buds


def _blossom5(
    pen: _Pen,
    cx: float,
    cy: float,
    r: float,
    petal: RGB,
    centre: RGB,
    edge: RGB | None = None,
    rot: float = -90,
) -> None:
    for k in range(5):
        a = math.radians(rot + 72 * k)
        px, py = cx + math.cos(a) * r * 0.5, cy + math.sin(a) * r * 0.5
        pen.circle(px, py, r * 0.5, fill=edge or petal)
        pen.circle(px, py, r * 0.42, fill=petal)
    pen.circle(cx, cy, r * 0.28, fill=centre)


def _cherry(pen: _Pen, mirror: bool = False, low: bool = False) -> None:
    m = _mirror(mirror)
    pen.taper([(m(-2), 30), (m(26), 40), (m(52), 30), (m(82), 44), (m(104), 38)], 4, 3, BARK)
    rng = random.Random(3 + mirror)
    clusters = [(12, 28), (34, 46), (56, 24), (78, 48), (96, 30), (24, 62), (66, 66)]
    if low:
        clusters = clusters[:5]
    for cx, cy in clusters:
        for _ in range(5):
            x, y = m(cx) + rng.uniform(-9, 9), cy + rng.uniform(-8, 8)
            _blossom5(
                pen,
                x,
                y,
                rng.uniform(5.5, 7.5),
                CHERRY,
                (236, 90, 120),
                CHERRY_EDGE,
                rng.uniform(0, 72),
            )


def _wisteria(pen: _Pen, top: float = 0, mirror: bool = False) -> None:
    m = _mirror(mirror)
    pen.taper([(m(-4), top + 6), (m(40), top + 12), (m(104), top + 4)], 3, 2, LEAF_DARK)
    for k, x in enumerate((6, 20, 36, 52, 70, 88)):
        pen.leaf(m(x), top + 8, 14, 5, 200 if k % 2 else 340, LEAF_DARK)
    for x, length in ((14, 70), (34, 96), (58, 84), (80, 100)):
        _raceme(pen, m(x), top + 10, length)


def _raceme(pen: _Pen, x: float, top: float, length: float) -> None:
    rows = int(length / 4.2)
    for i in range(rows):
        t = i / rows
        y = top + 4 + i * 4.2
        spread = 6.5 * (1 - t * 0.7)
        sway = math.sin(t * 3) * 3
        for j in (-1, 0, 1):
            col = WISTERIA if (i + j) % 2 else WISTERIA_LIGHT
            pen.circle(
                x + sway + j * spread * 0.7, y + abs(j) * 1.5, 2.6 * (1 - t * 0.45), fill=col
            )


def _iris_flower(pen: _Pen, cx: float, cy: float, s: float = 1.0) -> None:
    pen.line([(cx, cy), (cx, cy + 26 * s)], LEAF, 1.6 * s)
    for ang in (90 + 50, 90, 90 - 50):  # falls droop down
        a = math.radians(ang)
        pen.oval(cx + math.cos(a) * 6 * s, cy + math.sin(a) * 6 * s, 7.5 * s, 3.6 * s, ang, IRIS)
        pen.oval(
            cx + math.cos(a) * 5 * s, cy + math.sin(a) * 5 * s, 3 * s, 1 * s, ang, (240, 200, 60)
        )
    for ang in (-90 - 28, -90 + 28, -90):  # standards up
        a = math.radians(ang)
        pen.oval(
            cx + math.cos(a) * 6 * s, cy + math.sin(a) * 6 * s, 6 * s, 2.6 * s, ang, IRIS_LIGHT
        )


def _iris(pen: _Pen, mirror: bool = False, flowers: bool = True) -> None:
    m = _mirror(mirror)
    for x, ang, ln in (
        (10, -80, 90),
        (24, -95, 120),
        (40, -84, 100),
        (58, -100, 130),
        (74, -78, 110),
        (90, -96, 96),
    ):
        pen.leaf(m(x), 164, ln, 7, ang if not mirror else -180 - ang, LEAF, LEAF_DARK)
    if flowers:
        for x, y, s in ((30, 50, 1.15), (66, 38, 1.2), (52, 82, 1.0)):
            _iris_flower(pen, m(x), y, s)


def _peony_flower(pen: _Pen, cx: float, cy: float, s: float = 1.0) -> None:
    for k in range(9):
        a = 360 * k / 9
        r = math.radians(a)
        pen.oval(
            cx + math.cos(r) * 10 * s,
            cy + math.sin(r) * 8 * s,
            9 * s,
            6 * s,
            a,
            PEONY,
            (150, 24, 50),
            0.5,
        )
    for k in range(7):
        a = 360 * k / 7 + 20
        r = math.radians(a)
        pen.oval(cx + math.cos(r) * 5 * s, cy + math.sin(r) * 4 * s, 6 * s, 4 * s, a, PEONY_LIGHT)
    pen.circle(cx, cy, 3.5 * s, fill=(250, 210, 80))


def _peony(pen: _Pen, mirror: bool = False, top: float = 0) -> None:
    m = _mirror(mirror)
    for x, y, ang in (
        (18, 120, -60),
        (40, 134, -100),
        (78, 118, -130),
        (60, 144, -70),
        (90, 150, -110),
    ):
        for da in (-30, 0, 30):  # three-lobed leaves
            pen.leaf(
                m(x), y, 22, 10, (ang + da) if not mirror else -180 - ang - da, LEAF_DARK, LEAF
            )
    pen.line([(m(50), 160), (m(48), 100 + top)], LEAF_DARK, 2)
    _peony_flower(pen, m(46), 98 + top, 1.6)
    _peony_flower(pen, m(80), 76 + top, 1.0)


def _clover(pen: _Pen, mirror: bool = False, top: float = 0) -> None:
    m = _mirror(mirror)
    rng = random.Random(7 + mirror)
    sprays = [
        ((4, 160), (10, 90), (50, 40 + top), (96, 50 + top)),
        ((18, 162), (34, 110), (70, 80 + top), (104, 96 + top)),
        ((2, 120), (20, 70), (30, 30 + top), (62, 14 + top)),
    ]
    for p0, p1, p2, p3 in sprays:
        pts = _bez((m(p0[0]), p0[1]), (m(p1[0]), p1[1]), (m(p2[0]), p2[1]), (m(p3[0]), p3[1]), 24)
        pen.taper(pts, 2.4, 1.0, INK)
        for i, (x, y) in enumerate(pts[3:], start=3):
            if i % 2:
                pen.oval(x + rng.uniform(-2, 2), y - 2.5, 3.6, 2.2, rng.uniform(-60, 60), CLOVER)
            else:
                pen.leaf(x, y, 6, 3, rng.choice((-120, -60, 60, 120)), LEAF_DARK)


def _hill(pen: _Pen, top: float = 96, mirror: bool = False, grass: int = 14) -> None:
    m = _mirror(mirror)
    ridge = _bez((m(-2), top + 30), (m(30), top - 20), (m(70), top - 12), (m(102), top + 14), 24)
    pen.poly([*ridge, (m(102), 162), (m(-2), 162)], fill=HILL)
    # pampas blades: pale curved strokes rising from the ridge
    for i in range(grass):
        x0, y0 = ridge[2 + i * (len(ridge) - 4) // grass]
        bend = 10 if i % 2 else -8
        blade = _bez(
            (x0, y0 + 2),
            (x0 + bend * 0.3, y0 - 8),
            (x0 + bend, y0 - 14),
            (x0 + bend * 1.4, y0 - 18),
            8,
        )
        pen.taper(blade, 1.6, 0.4, (236, 226, 200))
    for i in range(4):
        y = top + 18 + i * 12
        pen.line(
            _bez((m(8), y + 6), (m(30), y - 2), (m(60), y + 4), (m(94), y - 2), 10),
            (70, 66, 60),
            0.8,
        )


def _chrysanthemum_flower(
    pen: _Pen, cx: float, cy: float, s: float = 1.0, colour: RGB = CHRYS
) -> None:
    for ring, (n, r, length, w) in enumerate(((20, 8, 9, 2.6), (14, 4.5, 6.5, 2.4))):
        col = colour if ring == 0 else CHRYS_DARK
        for k in range(n):
            a = 360 * k / n + ring * 9
            pen.leaf(cx + math.cos(math.radians(a)) * r * s * 0.3, cy + math.sin(math.radians(a)) * r * s * 0.3,
                     length * s + r * s * 0.7, w * s, a, col)  # fmt: skip
    pen.circle(cx, cy, 3 * s, fill=(180, 60, 30))


def _chrysanthemum(pen: _Pen, mirror: bool = False) -> None:
    m = _mirror(mirror)
    pen.line(_bez((m(50), 162), (m(46), 130), (m(30), 100), (m(28), 60)), LEAF_DARK, 1.6)
    pen.line(_bez((m(52), 162), (m(60), 120), (m(76), 100), (m(74), 80)), LEAF_DARK, 1.6)
    for x, y, a in (
        (36, 128, 200),
        (56, 118, -20),
        (68, 140, -40),
        (26, 150, 210),
        (80, 106, -60),
        (40, 96, 190),
    ):
        pen.leaf(m(x), y, 14, 9, a if not mirror else 180 - a, LEAF, LEAF_DARK)
    _chrysanthemum_flower(pen, m(30), 48, 1.7)
    _chrysanthemum_flower(pen, m(74), 74, 1.25)
    _chrysanthemum_flower(pen, m(60), 26, 0.9, (240, 224, 190))


def _maple_leaf(pen: _Pen, cx: float, cy: float, r: float, angle: float, colour: RGB) -> None:
    pts = []
    for i in range(14):  # 7 lobes, the gap at the bottom for the stem
        lobe = i // 2
        a = math.radians(angle - 90 + (lobe - 3) * 38 + (19 if i % 2 else 0))
        rad = r if i % 2 == 0 else r * 0.42
        if i % 2 == 0:
            rad *= (0.75, 0.9, 1.0, 1.08, 1.0, 0.9, 0.75)[lobe]
        pts.append((cx + rad * math.cos(a), cy + rad * math.sin(a)))
    pen.poly(pts, fill=colour)
    a = math.radians(angle + 90)
    pen.line([(cx, cy), (cx + math.cos(a) * r * 0.8, cy + math.sin(a) * r * 0.8)], colour, 0.9)


def _maple(pen: _Pen, mirror: bool = False, rows: tuple[float, float] = (10, 120)) -> None:
    m = _mirror(mirror)
    pen.taper(_bez((m(104), 14), (m(70), 24), (m(40), 10), (m(-4), 30)), 3, 2, BARK)
    pen.taper(_bez((m(60), 18), (m(58), 40), (m(40), 56), (m(30), 72)), 2, 1, BARK)
    rng = random.Random(11 + mirror)
    y0, y1 = rows
    for i in range(11):
        x = m(8 + (i * 37) % 90)
        y = y0 + (i * 53) % (y1 - y0)
        col = MAPLE if i % 3 else MAPLE_ORANGE
        _maple_leaf(pen, x, y, rng.uniform(9, 13), rng.uniform(-40, 40), col)


def _willow(
    pen: _Pen,
    colour: RGB = WILLOW,
    dark: RGB = WILLOW_DARK,
    mirror: bool = False,
    span: tuple[int, int] = (0, 100),
) -> None:
    m = _mirror(mirror)
    pen.taper(_bez((m(-4), 4), (m(30), 10), (m(70), 2), (m(104), 8)), 4, 2, dark)
    x0, x1 = span
    for i, x in enumerate(range(x0 + 6, x1, 12)):
        length = 80 + (i * 29) % 60
        frond = _bez((m(x), 6), (m(x + 8), 40), (m(x - 6), length * 0.7), (m(x + 4), length), 16)
        pen.line(frond, dark, 1.0)
        for j, (fx, fy) in enumerate(frond[2:], start=2):
            side = 1 if j % 2 else -1
            pen.leaf(fx, fy, 7, 2.4, 90 + side * 35, colour if j % 3 else dark)


def _paulownia_flowers(
    pen: _Pen, x: float, y: float, length: float, angle: float, rows: int
) -> None:
    """A flower spike from (x, y) along `angle`: bell-shaped buds in rows, widest at the base."""
    a = math.radians(angle)
    ux, uy = math.cos(a), math.sin(a)
    nx, ny = -uy, ux
    pen.line([(x, y), (x + ux * length, y + uy * length)], LEAF_DARK, 1.2)
    for i in range(rows):
        t = (i + 1) / (rows + 0.5)
        cx, cy = x + ux * length * t, y + uy * length * t
        n = 3 if i < rows - 2 else (2 if i < rows - 1 else 1)
        for j in range(n):
            off = (j - (n - 1) / 2) * 5.2
            pen.oval(cx + nx * off, cy + ny * off, 3.4, 2.5, angle, PAUL_FLOWER, (96, 64, 128), 0.4)


def _paulownia_leaf(pen: _Pen, x: float, y: float, length: float, angle: float) -> None:
    """A broad ovate leaf from its base (x, y) to a sharp tip along `angle`, with veins."""
    a = math.radians(angle)
    ux, uy = math.cos(a), math.sin(a)
    nx, ny = -uy, ux
    width = length * 0.46
    side1, side2 = [], []
    for i in range(25):
        t = i / 24
        half = width * math.sin(math.pi * t**0.75) ** 0.9 + (
            0.18 * width * (1 - t) ** 6
        )  # heart-ish base
        px, py = x + ux * length * t, y + uy * length * t
        side1.append((px + nx * half, py + ny * half))
        side2.append((px - nx * half, py - ny * half))
    pen.poly(side1 + side2[::-1], fill=PAUL_LEAF, outline=LEAF_DARK, width=0.7)
    pen.line([(x, y), (x + ux * length * 0.95, y + uy * length * 0.95)], LEAF_DARK, 0.8)
    for k in (-1, 1):
        for f in (0.22, 0.45, 0.66):
            bx, by = x + ux * length * f, y + uy * length * f
            reach = width * (1.0 - f * 0.6)
            pen.line(
                [(bx, by), (bx + (ux * 0.5 + nx * k) * reach, by + (uy * 0.5 + ny * k) * reach)],
                LEAF_DARK,
                0.5,
            )


def _paulownia(pen: _Pen, mirror: bool = False, band: RGB | None = None, low: bool = False) -> None:
    """The kiri crest: three broad leaves fanning down, three flower spikes above.

    `low` draws a smaller crest at the bottom (the Phoenix card keeps the sky for the bird).
    """
    sway = -4 if mirror else 4
    k = 0.72 if low else 1.0
    if band:
        pen.rect(0, 118, 100, 160, fill=band)
    hub = (50, 126 if low else 104)
    _paulownia_flowers(pen, hub[0] - 4, hub[1] - 4, 52 * k, -118 + sway, round(7 * k))
    _paulownia_flowers(pen, hub[0] + 4, hub[1] - 4, 52 * k, -62 + sway, round(7 * k))
    _paulownia_flowers(pen, hub[0], hub[1] - 6, 66 * k, -90 + sway, round(9 * k))
    _paulownia_leaf(pen, hub[0] - 2, hub[1], 46 * k, 150 + sway)
    _paulownia_leaf(pen, hub[0] + 2, hub[1], 46 * k, 30 + sway)
    _paulownia_leaf(pen, hub[0], hub[1] + 2, 52 * k, 90 + sway / 2)


# ---------------------------------------------------------------- ribbons


def _ribbon(
    img: Image.Image, colour: RGB, poetry: str | None, cx: float, cy: float, angle: float
) -> None:
    w, h = 17 * U, 74 * U
    layer = Image.new("RGBA", (w + 8 * U, h + 8 * U), (0, 0, 0, 0))
    pen = _Pen(layer)
    ox, oy = 4, 4
    edge = tuple(max(0, c - 60) for c in colour)
    pen.rect(ox, oy, ox + 17, oy + 74, fill=colour, outline=edge, width=0.8)
    pen.line([(ox + 2, oy + 3), (ox + 15, oy + 3)], edge, 0.6)
    pen.line([(ox + 8.5, oy - 4), (ox + 8.5, oy + 3)], INK, 0.8)  # the string it hangs from
    if poetry:
        step = 62 / len(poetry)
        for i, ch in enumerate(poetry):
            pen.text(ox + 8.5, oy + 10 + step * i + step / 2 - 3, ch, 10, INK)
    rot = layer.rotate(angle, resample=Image.Resampling.BICUBIC, expand=True)
    img.alpha_composite(rot, (round(cx * U - rot.width / 2), round(cy * U - rot.height / 2)))


# ---------------------------------------------------------------- the special subjects


def _sun(pen: _Pen, cx: float, cy: float, r: float) -> None:
    pen.circle(cx, cy, r, fill=SUN_RED)


def _crane(pen: _Pen) -> None:
    white, grey, black = (252, 250, 244), (170, 170, 170), INK
    pen.line([(56, 130), (52, 158)], black, 1.2)  # legs
    pen.line([(64, 130), (70, 158)], black, 1.2)
    pen.line([(52, 158), (46, 159)], black, 1)
    pen.line([(70, 158), (76, 159)], black, 1)
    pen.poly([(40, 118), (26, 132), (32, 122), (24, 124), (38, 112)], fill=black)  # tail
    pen.oval(56, 116, 20, 12, -18, white, grey, 0.6)
    pen.oval(60, 110, 14, 6, -30, (236, 236, 230), grey, 0.5)  # wing
    neck = _bez((68, 108), (76, 96), (70, 84), (76, 72), 12)
    pen.taper(neck, 5, 3, black)
    pen.circle(77, 70, 4, fill=white)
    pen.circle(77, 67.5, 2.2, fill=SUN_RED)
    pen.poly([(80, 69), (90, 72), (80, 72)], fill=(120, 110, 90))


def _nightingale(pen: _Pen, cx: float, cy: float) -> None:
    olive, dark = (128, 140, 46), (80, 90, 30)
    pen.poly([(cx - 10, cy + 1), (cx - 26, cy + 8), (cx - 24, cy + 4)], fill=dark)  # tail
    pen.oval(cx, cy, 12, 7.5, -15, olive)
    pen.oval(cx - 2, cy - 1, 8, 4, -20, dark)  # wing
    pen.circle(cx + 10, cy - 6, 5.5, fill=olive)
    pen.circle(cx + 11.5, cy - 7, 1.6, fill=(250, 250, 240))
    pen.circle(cx + 11.7, cy - 7, 0.8, fill=INK)
    pen.poly([(cx + 15, cy - 6), (cx + 20, cy - 5), (cx + 15, cy - 4)], fill=INK)
    pen.line([(cx - 2, cy + 6), (cx - 3, cy + 10)], INK, 0.8)
    pen.line([(cx + 3, cy + 6), (cx + 3, cy + 10)], INK, 0.8)


def _curtain(pen: _Pen) -> None:
    top, bottom = 92, 150
    pen.line([(0, top - 2), (100, top - 2)], INK, 1.5)
    scallop = []
    for i in range(0, 101, 2):
        scallop.append((i, bottom - 4 + 4 * math.sin(i / 100 * math.pi * 4) ** 2))
    pen.poly([(0, top), (100, top), *scallop[::-1]], fill=SKY_RED)
    for x in (22, 50, 78):  # white stripes
        pen.rect(x - 5, top, x + 5, bottom - 2, fill=(248, 244, 236))
    pen.circle(50, 120, 13, fill=(248, 244, 236), outline=INK, width=1)
    for k in range(5):  # cherry-blossom crest
        a = math.radians(-90 + 72 * k)
        pen.circle(50 + math.cos(a) * 5.5, 120 + math.sin(a) * 5.5, 4.2, fill=INK)
    pen.circle(50, 120, 2.2, fill=(248, 244, 236))
    for x in (6, 94):
        pen.line([(x, top - 2), (x, top + 10)], GOLD, 1.2)
        pen.poly(
            [(x - 3, top + 10), (x + 3, top + 10), (x + 2, top + 20), (x - 2, top + 20)], fill=GOLD
        )


def _cuckoo(pen: _Pen) -> None:
    pen.circle(74, 22, 12, fill=(246, 206, 70))  # crescent moon
    pen.circle(80, 18, 11, fill=SKY_RED)
    body = (42, 50)
    pen.poly(
        [(body[0] - 4, body[1] - 2), (body[0] + 24, body[1] - 22), (body[0] + 10, body[1] - 2)],
        fill=INK,
    )
    pen.poly(
        [(body[0] - 6, body[1] + 2), (body[0] + 20, body[1] + 20), (body[0] + 8, body[1] + 2)],
        fill=(60, 56, 56),
    )
    pen.oval(body[0], body[1], 14, 5, -10, INK)
    pen.poly(
        [(body[0] + 12, body[1] - 2), (body[0] + 26, body[1] - 4), (body[0] + 26, body[1] + 3)],
        fill=INK,
    )
    pen.circle(body[0] - 12, body[1] + 1, 4.5, fill=INK)
    pen.poly(
        [(body[0] - 16, body[1]), (body[0] - 21, body[1] + 2), (body[0] - 16, body[1] + 3)],
        fill=(220, 170, 40),
    )
    pen.circle(body[0] - 13, body[1], 1.1, fill=SKY_RED)


def _bridge(pen: _Pen) -> None:
    plank, top, edge = (140, 90, 48), (196, 144, 84), (70, 40, 20)
    segs = [((-4, 118), (46, 98)), ((40, 96), (104, 110))]
    for (x0, y0), (x1, y1) in segs:
        quad = [(x0, y0), (x1, y1), (x1, y1 + 12), (x0, y0 + 12)]
        pen.poly(quad, fill=plank, outline=edge, width=0.8)
        pen.poly([(x0, y0), (x1, y1), (x1, y1 + 4), (x0, y0 + 4)], fill=top)
        for t in (0.2, 0.5, 0.8):  # posts
            x, y = x0 + (x1 - x0) * t, y0 + (y1 - y0) * t
            pen.rect(x - 1.5, y + 12, x + 1.5, y + 24, fill=edge)
        for t in (0.25, 0.5, 0.75):  # plank seams
            x, y = x0 + (x1 - x0) * t, y0 + (y1 - y0) * t
            pen.line([(x, y), (x, y + 12)], edge, 0.5)


def _butterfly(pen: _Pen, cx: float, cy: float, s: float, angle: float) -> None:
    a = math.radians(angle)

    def rot(dx: float, dy: float) -> Pt:
        return (
            cx + (dx * math.cos(a) - dy * math.sin(a)) * s,
            cy + (dx * math.sin(a) + dy * math.cos(a)) * s,
        )

    for side in (-1, 1):
        x, y = rot(side * 7, -4)
        pen.oval(x, y, 8 * s, 6 * s, angle + side * 25, (46, 88, 190), INK, 0.5)
        x, y = rot(side * 6, -5)
        pen.oval(x, y, 3.5 * s, 2.5 * s, angle + side * 25, (246, 210, 70))
        x, y = rot(side * 5, 5)
        pen.oval(x, y, 5 * s, 4 * s, angle - side * 30, (30, 60, 140), INK, 0.5)
    pen.line([rot(0, -8), rot(0, 8)], INK, 1.4 * s)
    pen.line([rot(0, -8), rot(-4, -15)], INK, 0.5)
    pen.line([rot(0, -8), rot(4, -15)], INK, 0.5)


def _boar(pen: _Pen) -> None:
    body, dark = (92, 62, 36), (50, 32, 20)
    for x in (30, 40, 62, 72):  # legs
        pen.rect(x - 2.5, 128, x + 2.5, 146, fill=dark)
    pen.oval(50, 120, 30, 15, 0, body, dark, 0.8)
    pen.poly(
        [(72, 108), (94, 118), (96, 126), (74, 132)], fill=body, outline=dark, width=0.8
    )  # head
    pen.poly([(72, 108), (76, 98), (80, 108)], fill=dark)  # ear
    pen.circle(86, 116, 1.4, fill=INK)
    pen.poly([(90, 124), (94, 118), (92, 126)], fill=(246, 240, 224))  # tusk
    pen.rect(94, 118, 98, 127, fill=dark, radius=1)  # snout
    for x in range(30, 70, 5):  # bristles along the back
        pen.line([(x, 106), (x + 2, 103)], dark, 0.8)
    pen.line([(20, 116), (14, 112)], dark, 1)


def _goose(pen: _Pen, cx: float, cy: float, s: float) -> None:
    pen.poly([(cx - 2 * s, cy), (cx + 6 * s, cy - 12 * s), (cx + 10 * s, cy - 1 * s)], fill=INK)
    pen.poly(
        [(cx - 1 * s, cy + 1 * s), (cx + 2 * s, cy + 12 * s), (cx + 8 * s, cy + 2 * s)],
        fill=(60, 56, 56),
    )
    pen.oval(cx + 4 * s, cy, 8 * s, 3 * s, 0, INK)
    pen.taper([(cx - 3 * s, cy - 0.5 * s), (cx - 10 * s, cy - 2 * s)], 2 * s, 1.6 * s, INK)
    pen.circle(cx - 11 * s, cy - 2.5 * s, 1.8 * s, fill=INK)


def _sake_cup(pen: _Pen) -> None:
    cup, rim = (186, 30, 38), GOLD
    pen.poly(
        [(44, 140), (70, 140), (66, 128), (48, 128)], fill=(150, 24, 30), outline=rim, width=0.8
    )  # foot
    pen.d.chord(
        (30 * U, 92 * U, 84 * U, 136 * U), 0, 180, fill=cup, outline=rim, width=round(1.2 * U)
    )
    pen.ellipse(57, 114, 27, 6, fill=(150, 20, 28), outline=rim, width=1)
    pen.text(57, 124, "寿", 11, rim)


def _deer(pen: _Pen) -> None:
    body, dark = (176, 106, 52), (96, 54, 24)
    for x0, x1 in ((34, 32), (40, 42), (62, 60), (68, 72)):
        pen.line([(x0, 124), (x1, 150)], dark, 1.8)
    pen.oval(52, 118, 22, 10, 0, body, dark, 0.6)
    pen.taper([(70, 114), (74, 100), (70, 90)], 7, 5, body)  # neck
    pen.oval(64, 86, 7, 4.5, 20, body, dark, 0.6)  # head turned back
    pen.circle(64, 84, 1.1, fill=INK)
    pen.poly([(70, 84), (76, 78), (72, 86)], fill=body)  # ear
    for dx in (-1, 1):  # antlers
        base = (68 + dx * 2, 82)
        tip = (68 + dx * 6, 66)
        pen.line([base, tip], dark, 1.0)
        pen.line([((base[0] + tip[0]) / 2, 74), ((base[0] + tip[0]) / 2 + dx * 5, 70)], dark, 0.8)
    for x, y in ((44, 114), (52, 112), (60, 116), (48, 120), (56, 121)):
        pen.circle(x, y, 1.2, fill=(246, 236, 210))
    pen.poly([(30, 112), (26, 108), (30, 116)], fill=(246, 236, 210))


def _swallow(pen: _Pen, cx: float, cy: float) -> None:
    pen.poly([(cx, cy), (cx + 30, cy - 22), (cx + 10, cy + 2)], fill=INK)
    pen.poly([(cx, cy + 2), (cx + 24, cy + 24), (cx + 8, cy + 4)], fill=(50, 50, 60))
    pen.oval(cx, cy + 1, 10, 4, 30, INK)
    pen.poly(
        [
            (cx + 6, cy + 4),
            (cx + 16, cy + 18),
            (cx + 12, cy + 6),
            (cx + 20, cy + 12),
            (cx + 9, cy + 2),
        ],
        fill=INK,
    )
    pen.circle(cx - 8, cy - 4, 3.6, fill=INK)
    pen.circle(cx - 9, cy - 2, 1.8, fill=SKY_RED)
    pen.oval(cx - 2, cy + 2, 5, 2, 30, (246, 240, 230))


def _rain_man(pen: _Pen) -> None:
    for i in range(14):  # rain
        x = (i * 17) % 104
        y = (i * 41) % 120 + 10
        pen.line([(x, y), (x - 4, y + 12)], (150, 160, 180), 0.5)
    pen.poly(
        [(0, 146), (30, 138), (60, 148), (100, 138), (100, 160), (0, 160)], fill=(60, 90, 150)
    )  # stream
    pen.poly([(38, 96), (62, 96), (70, 148), (30, 148)], fill=(186, 40, 36))  # robe
    pen.poly([(44, 96), (56, 96), (58, 148), (42, 148)], fill=(40, 60, 120))
    pen.circle(50, 90, 6, fill=(240, 214, 180))
    pen.d.pieslice(
        (16 * U, 54 * U, 84 * U, 110 * U), 190, 350, fill=(236, 184, 58), outline=INK, width=U
    )
    for k in range(5):  # umbrella ribs
        a = math.radians(195 + k * 37.5)
        pen.line([(50, 82), (50 + math.cos(a) * 33, 82 + math.sin(a) * 27)], (150, 110, 30), 0.6)
    pen.line([(50, 82), (48, 112)], INK, 1)
    pen.oval(82, 138, 6, 4, 0, (96, 150, 60), INK, 0.5)  # frog
    pen.circle(80, 134, 1.2, fill=INK)
    pen.line([(86, 140), (92, 146)], (96, 150, 60), 1.2)


def _lightning(pen: _Pen) -> None:
    for x, y, r in ((20, 44, 14), (40, 36, 16), (62, 40, 15), (82, 46, 13), (50, 50, 14)):
        pen.circle(x, y, r, fill=SKY_RED)  # storm cloud
    for k in range(6):  # thunder-drum dots
        pen.circle(18 + k * 13, 44, 3, fill=INK)
        pen.circle(18 + k * 13, 44, 1.5, fill=GOLD)
    bolt = [(56, 58), (42, 92), (54, 92), (40, 130), (68, 84), (56, 84), (66, 58)]
    pen.poly(bolt, fill=(250, 214, 60), outline=(150, 100, 20), width=0.6)


def _phoenix(pen: _Pen) -> None:
    for i, col in enumerate(((46, 120, 80), (236, 184, 58), (58, 90, 170), (210, 60, 40))):
        tail = _bez((56, 72), (30 + i * 6, 40), (10 + i * 10, 60), (6 + i * 12, 20 + i * 6), 16)
        pen.taper(tail, 5, 1.5, col)
    pen.poly([(56, 74), (86, 44), (92, 60), (70, 84)], fill=(46, 120, 80))  # wing
    pen.poly([(60, 76), (94, 60), (90, 74), (68, 88)], fill=(236, 184, 58))
    pen.oval(60, 82, 14, 9, -30, (214, 58, 40))
    pen.taper([(66, 74), (72, 62), (70, 52)], 5, 3.5, (214, 58, 40))
    pen.circle(70, 50, 4.5, fill=(214, 58, 40))
    pen.poly([(73, 48), (80, 50), (73, 52)], fill=GOLD)
    pen.circle(70, 49, 1, fill=INK)
    for k in range(3):
        pen.line([(68, 46), (62 + k * 4, 38)], (46, 120, 80), 0.8)


# ---------------------------------------------------------------- compose one card


def _draw_master(code: str) -> Image.Image:
    c = card(code)
    img = Image.new("RGBA", (MASTER_W, MASTER_H), CREAM + (255,))
    pen = _Pen(img)
    mirror = code.endswith("p2")
    kind = code[len(str(c.month)) :]
    m = c.month

    if m == 1:
        if kind == "b":
            _sun(pen, 64, 46, 26)
        _pine(pen, mirror, leave_sky=kind == "b")
        if kind == "b":
            _crane(pen)
    elif m == 2:
        _sky(pen, (236, 196, 188), 60, 30)
        _plum(pen, mirror)
        if kind == "a":
            _nightingale(pen, 56, 126)
    elif m == 3:
        _cherry(pen, mirror, low=kind == "b")
        if kind == "b":
            _curtain(pen)
        else:
            _mist(pen, 102, -6, 70)
            _mist(pen, 126, 30, 106)
    elif m == 4:
        if kind == "a":
            _sky(pen, SKY_RED, 78)
            _cuckoo(pen)
            _wisteria(pen, top=72)
        else:
            _wisteria(pen, mirror=mirror)
            pen.leaf(-2, 160, 60, 8, -70, LEAF_DARK)
            pen.leaf(102, 160, 50, 8, -115, LEAF_DARK)
    elif m == 5:
        _iris(pen, mirror, flowers=True)
        if kind == "a":
            _bridge(pen)
    elif m == 6:
        if kind == "a":
            _peony(pen, mirror, top=14)
            _butterfly(pen, 30, 50, 1.4, -15)
            _butterfly(pen, 74, 36, 1.1, 20)
        else:
            _peony(pen, mirror)
    elif m == 7:
        if kind == "a":
            _clover(pen, mirror, top=-10)
            _boar(pen)
        else:
            _clover(pen, mirror)
    elif m == 8:
        _sky(pen, SKY_RED, 100 if kind in ("b", "a") else 80, 14)
        if kind == "b":
            pen.circle(50, 46, 30, fill=MOON)
        if kind == "a":
            _goose(pen, 30, 30, 1.2)
            _goose(pen, 60, 46, 1.0)
            _goose(pen, 78, 22, 0.8)
        _hill(pen, 104 if kind in ("b", "a") else 84, mirror, grass=14 if kind != "p2" else 18)
    elif m == 9:
        _chrysanthemum(pen, mirror)
        if kind == "a":
            _sake_cup(pen)
    elif m == 10:
        if kind == "a":
            _maple(pen, mirror, rows=(10, 60))
            _deer(pen)
        else:
            _maple(pen, mirror)
    elif m == 11:
        if kind == "b":
            pen.rect(0, 0, 100, 160, fill=STORM)
            _willow(pen, (110, 160, 70), (60, 110, 50), span=(40, 100))
            _rain_man(pen)
        elif kind == "p1":
            pen.rect(0, 0, 100, 160, fill=STORM)
            _lightning(pen)
            _willow(pen, (110, 160, 70), (60, 110, 50), span=(70, 100))
        else:
            pen.rect(0, 0, 100, 160, fill=MIST_GREY)
            _willow(pen)
            if kind == "a":
                _swallow(pen, 40, 116)
            else:
                pen.poly(
                    [(0, 146), (40, 140), (70, 150), (100, 142), (100, 160), (0, 160)],
                    fill=(80, 110, 160),
                )
    elif m == 12:
        if kind == "b":
            _sky(pen, SKY_RED, 100, 16)
            _paulownia(pen, low=True)
            _phoenix(pen)
        else:
            _paulownia(pen, mirror, band=(232, 196, 80) if kind == "p1" else None)

    if c.cls == RIBBON:
        colour = RIBBON_BLUE if c.ribbon_colour == "blue" else RIBBON_RED
        angle = -14 if m % 2 else 12
        _ribbon(img, colour, POETRY.get(code), 50, 92, angle)
    return img


@lru_cache(maxsize=64)
def _master(code: str) -> Image.Image:
    return _draw_master(code)


# ---------------------------------------------------------------- public API


def card_height(width: int) -> int:
    """Card height for a given width (the shared hanafuda aspect ratio)."""
    return round(width * CARD_RATIO)


def _badge_colours(code: str) -> tuple[RGB, RGB]:
    c = card(code)
    if c.cls == BRIGHT:
        return SUN_RED, (255, 226, 120)
    if c.cls == ANIMAL:
        return (38, 112, 64), (255, 255, 255)
    if c.cls == RIBBON:
        return (RIBBON_BLUE if c.ribbon_colour == "blue" else RIBBON_RED), (255, 255, 255)
    return (112, 108, 100), (255, 255, 255)


@lru_cache(maxsize=512)
def card_image(code: str, width: int = 80) -> Image.Image:
    """The face of hanafuda card `code` as an RGBA sprite `width` pixels wide. Cached.

    Callers paste it; they must not draw on the returned image.
    """
    c = card(code)
    h = card_height(width)
    border = max(1, round(width / 45))
    radius = max(3, width // 12)
    inner = (width - 2 * border, h - 2 * border)
    art = _master(code).resize(inner, Image.Resampling.BOX)
    img = Image.new("RGBA", (width, h), INK + (255,))
    img.paste(art, (border, border), round_mask(inner, max(1, radius - border)))
    d = Draw(img)

    fs = max(10, round(width * 0.16))
    pad = max(1, fs // 6)
    # month label, top left: "1 松"
    label_font = font(fs, True)
    num = str(c.month)
    nw = label_font.getlength(num)
    kw = label_font.getlength(MONTH_KANJI[c.month])
    gap = max(1, fs // 5)
    lw = nw + gap + kw + 2 * pad
    x0, y0 = border + 1, border + 1
    d.rounded_rectangle(
        (x0, y0, x0 + lw, y0 + fs + 2 * pad), radius=fs // 3, fill=(252, 248, 238), outline=INK
    )
    d.text((x0 + pad, y0 + pad + fs / 2), num, font=label_font, fill=INK, anchor="lm")
    d.text(
        (x0 + pad + nw + gap, y0 + pad + fs / 2),
        MONTH_KANJI[c.month],
        font=label_font,
        fill=SUN_RED,
        anchor="lm",
    )

    # class badge, top right: a kanji pill when large enough to read, else a shape code
    x1 = width - border - 1
    bh = fs + 2 * pad
    bg, fg = _badge_colours(code)
    ring = (255, 226, 120) if c.cls == BRIGHT else (252, 248, 238)
    if width >= SMALL_CARD:
        mark = CLASS_MARK[c.cls]
        bfont = font(fs if c.cls != PLAIN else max(9, fs - 2), True)
        bw = max(bh, bfont.getlength(mark) + 2 * pad)
        box = (x1 - bw, y0, x1, y0 + bh)
        d.rounded_rectangle(box, radius=bh // 2, fill=bg, outline=ring, width=max(1, fs // 10))
        d.text(((box[0] + box[2]) / 2, y0 + bh / 2), mark, font=bfont, fill=fg, anchor="mm")
    elif c.cls == BRIGHT:
        d.ellipse((x1 - bh, y0, x1, y0 + bh), fill=bg, outline=ring, width=max(1, bh // 6))
    elif c.cls == ANIMAL:
        d.ellipse((x1 - bh + 2, y0 + 2, x1 - 2, y0 + bh - 2), fill=bg, outline=ring)
    elif c.cls == RIBBON:
        d.rectangle((x1 - bh * 0.55, y0, x1 - 1, y0 + bh + 2), fill=bg, outline=ring)
    img.putalpha(round_mask((width, h), radius))
    return img


def card_face(code: str) -> Image.Image:
    """One card face up at the replay's hand-panel size (both hanafuda games'
    :attr:`~bot.engine.spec.Renderers.card_face`)."""
    return card_image(code, 46)


@lru_cache(maxsize=64)
def card_back(width: int = 80) -> Image.Image:
    """The back of a hanafuda card: black with a red border and a red 花 crest."""
    h = card_height(width)
    s = 3
    big = Image.new("RGBA", (width * s, h * s), (0, 0, 0, 0))
    d = Draw(big)
    r = max(3, width // 12) * s
    d.rounded_rectangle((0, 0, width * s - 1, h * s - 1), radius=r, fill=(26, 20, 20))
    inset = max(3, width // 14) * s
    d.rounded_rectangle(
        (inset, inset, width * s - inset, h * s - inset),
        radius=r // 2,
        outline=(178, 36, 36),
        width=max(2, width // 30) * s,
    )
    cx, cy = width * s / 2, h * s / 2
    rr = width * s * 0.26
    d.ellipse((cx - rr, cy - rr, cx + rr, cy + rr), fill=(178, 36, 36))
    d.text((cx, cy), "花", font=font(round(rr * 1.15), True), fill=(26, 20, 20), anchor="mm")
    return big.resize((width, h), Image.Resampling.LANCZOS)


# ---------------------------------------------------------------- table pieces
# Koi-Koi and Mushi draw the same two-player table: a strip per player (info | hand |
# capture piles by class) above and below a middle row (stack column | the face-up field in
# two rows of 8, over a status band: now, the pending flip, the last play and flip). It is
# laid out for Discord's inline preview (~550 px wide): about 790 px wide, so that 13 px
# type is still 9 px there. The game modules lay the pieces out with their own
# sizes and words; everything here is a pure function of its arguments. Words come as
# Texts (bot.i18n) and are said in ``locale`` where they are drawn (a plain str, such as a
# player's name, is drawn as it is).


def say(locale: str, text: str) -> str:
    """``text`` in ``locale`` (a plain str as it is), ready to draw."""
    return str(localize(locale, text))


TableBox = tuple[int, int, int, int]
PasteCard = Callable[[str, int, tuple[int, int]], None]  # (code, width, top-left) -> pasted

PLAY_COLOUR = HIGHLIGHT  # the last card played (and what it took)
FLIP_COLOUR = (110, 200, 255)  # the last card flipped (and what it took)
OPTION_COLOUR = MATCH_GREEN  # field cards a pending flip may take
TURN_COLOUR = TABLE_GOLD
LAST_MOVES = (
    ("last_play", Text("Last play"), PLAY_COLOUR),
    ("last_flip", Text("Last flip"), FLIP_COLOUR),
)

CLASS_COLOUR = {
    BRIGHT: (214, 42, 36),
    ANIMAL: (38, 112, 64),
    RIBBON: (120, 60, 150),
    PLAIN: (100, 96, 90),
}
EMPTY_PILE_COLOUR = (60, 70, 64)
MAX_PILE_STEP = 12
CAPTURE_CARD_W = 34
#: The smallest type on a table: 9 px in Discord's inline preview of a ~790 px picture.
TABLE_MIN_TEXT = 13
PNG_COLOURS = 48  # the tables' fixed palette (see ``png_palette_for``)
BACK_W = 36
MOVE_CARD_W = 36
HAND_CARD_W = 112
HAND_GAP = 14
HAND_TOP = 64
#: The most cards a row of the hand picture holds: two rows of four keep a hand of eight
#: about 560 px wide, its names and notes 9-12 px high in Discord's inline preview.
HAND_ROW = 4
NO_MATCH_FILL = (60, 74, 66)
NO_MATCH_TEXT = (190, 200, 190)
MATCH_TEXT = (10, 40, 20)
RIBBON_SHORT_NAME = {
    "red poetry": Text("Poetry ribbon"),
    "blue": Text("Blue ribbon"),
    "red": Text("Red ribbon"),
}


@dataclass(frozen=True)
class TableLayout:
    """The sizes of one game's table; the boxes of its pieces follow from them."""

    width: int
    height: int
    strip_h: int
    mid_h: int
    class_width: Mapping[str, int]  # how wide each capture pile may fan out
    pile_label_dy: int  # from a strip's top to its pile labels
    pile_cards_dy: int  # ... to its pile cards
    hand_cards_dy: int  # ... to the cards of the hand slot
    margin: int = 12
    gap: int = 10
    info_w: int = 220
    hand_w: int = 96
    side_w: int = 150  # the stack column (as tall as the field and the status band)
    field_card_w: int = 64
    band_h: int = 104  # the status band under the field
    capture_card_w: int = CAPTURE_CARD_W
    max_pile_step: int = MAX_PILE_STEP  # the widest step between the cards of a pile
    # The plains pile (only its count matters) uses smaller cards and a shorter step;
    # 0 keeps those of the other piles.
    plain_card_w: int = 28
    plain_pile_step: int = 7

    def pile_card(self, cls: str) -> tuple[int, int]:
        """(card width, widest step) of the capture pile of class ``cls``."""
        if cls == PLAIN and self.plain_card_w:
            return self.plain_card_w, self.plain_pile_step or self.max_pile_step
        return self.capture_card_w, self.max_pile_step

    @property
    def top_y(self) -> int:
        return self.margin

    @property
    def mid_y(self) -> int:
        return self.top_y + self.strip_h + self.gap

    @property
    def band_y(self) -> int:
        return self.mid_y + self.mid_h + self.gap

    @property
    def bot_y(self) -> int:
        return self.band_y + self.band_h + self.gap

    @property
    def captures_x(self) -> int:
        return self.margin + self.info_w + self.gap + self.hand_w + self.gap

    @property
    def side_box(self) -> TableBox:
        x1, y1 = self.margin + self.side_w, self.band_y + self.band_h
        return (self.margin, self.mid_y, x1, y1)

    @property
    def field_box(self) -> TableBox:
        x0 = self.margin + self.side_w + self.gap
        return (x0, self.mid_y, self.width - self.margin, self.mid_y + self.mid_h)

    @property
    def status_box(self) -> TableBox:
        """The status band under the field."""
        x0 = self.field_box[0]
        return (x0, self.band_y, self.width - self.margin, self.band_y + self.band_h)

    def status_slots(self, now_w: int, n: int) -> list[TableBox]:
        """The status band cut into its ``now`` part (``now_w`` wide) and ``n`` equal slots
        for the pending flip and the last moves."""
        x0, y0, x1, y1 = self.status_box
        slot_w = (x1 - x0 - now_w) // max(1, n)
        slots = [(x0, y0, x0 + now_w, y1)]
        for i in range(n):
            left = x0 + now_w + i * slot_w
            slots.append((left, y0, left + slot_w, y1))
        return slots

    def strip_boxes(self, y: int) -> dict[str, TableBox]:
        """The info panel, hand slot and capture panel of the strip whose top is ``y``."""
        m, hand_x = self.margin, self.margin + self.info_w + self.gap
        return {
            "info": (m, y, m + self.info_w, y + self.strip_h),
            "hand": (hand_x, y, hand_x + self.hand_w, y + self.strip_h),
            "captures": (self.captures_x, y, self.width - m, y + self.strip_h),
        }

    @cached_property
    def pile_x(self) -> dict[str, int]:
        """The left edge of each class pile, the spare width spread between them."""
        inner = self.width - self.margin - self.captures_x - 24
        spare = (inner - sum(self.class_width.values())) // 3
        x = self.captures_x + 12
        out = {}
        for cls in CLASS_ORDER:
            out[cls] = x
            x += self.class_width[cls] + spare
        return out


def table_base(layout: TableLayout) -> Image.Image:
    """Felt, panels and empty capture slots: everything that does not depend on the view."""
    img = felt((layout.width, layout.height)).convert("RGB")
    d = Draw(img)
    for y in (layout.top_y, layout.bot_y):
        for box in layout.strip_boxes(y).values():
            panel(img, box)
        cy = y + layout.pile_cards_dy
        for cls, x in layout.pile_x.items():
            cw = layout.pile_card(cls)[0]
            d.rounded_rectangle(
                (x, cy, x + cw, cy + card_height(cw)), radius=5, outline=(64, 104, 84), width=1
            )
    for box in (layout.side_box, layout.field_box, layout.status_box):
        panel(img, box, fill=(0, 0, 0, 60))
    return img


def field_card_width(layout: TableLayout, n: int) -> int:
    """Field cards shrink once more than 16 lie there."""
    if n <= 16:
        return layout.field_card_w
    x0, _, x1, _ = layout.field_box
    cols = math.ceil(n / 2)
    return max(40, (x1 - x0 - 2 * layout.gap - (cols - 1) * 4) // cols)


def field_slots(layout: TableLayout, n: int, cw: int, top_pad: int = 0) -> list[tuple[int, int]]:
    """Top-left corners for n field cards: two rows of 8 (more columns if needed)."""
    x0, y0, x1, y1 = layout.field_box
    cols = max(8, math.ceil(n / 2))
    ch = card_height(cw)
    gap_x = 8 if cols == 8 else max(2, (x1 - x0 - 2 * layout.gap - cols * cw) // max(1, cols - 1))
    total_w = cols * cw + (cols - 1) * gap_x
    left = x0 + (x1 - x0 - total_w) // 2
    gap_y = 12
    top = y0 + top_pad + (y1 - y0 - top_pad - 2 * ch - gap_y) // 2
    return [(left + (i % cols) * (cw + gap_x), top + (i // cols) * (ch + gap_y)) for i in range(n)]


def seats_top_bottom(view: Mapping[str, Any]) -> tuple[int, int]:
    """(top seat, bottom seat): the viewer sits at the bottom; spectators see seat 0 there."""
    seat = view.get("seat")
    bottom = seat if seat in (0, 1) else 0
    return 1 - bottom, bottom


def move_highlights(view: Mapping[str, Any]) -> dict[str, RGB]:
    """Colours of the last play and flip (and what they took), and of a flip's options."""
    hl: dict[str, RGB] = {}
    for key, _, colour in LAST_MOVES:
        move = view.get(key)
        if move:
            for code in (move["card"], *move.get("took", [])):
                hl[code] = colour
    if view.get("phase") == "choose_flip":
        for code in (view.get("pending") or {}).get("options", []):
            hl[code] = OPTION_COLOUR
    return hl


def turn_label(view: Mapping[str, Any], seat: int, phase_labels: Mapping[str, str]) -> str | None:
    """``TO PLAY`` (or the phase's label) for a seat the table waits for, else None."""
    if view.get("is_over") or seat not in view.get("to_act", []):
        return None
    return phase_labels.get(view.get("phase") or "", Text("TO PLAY", context="hanafuda"))


def paste_card(
    img: Image.Image,
    code: str,
    width: int,
    xy: tuple[int, int],
    colour: RGB | None,
    *,
    halo: bool = True,
) -> Image.Image:
    """Paste a card (and return its sprite); ``colour`` gives a loose card a halo, or a
    fanned one (``halo=False``) a crisp ring. Fanned cards have no drop shadow: their dark
    borders part them, and shadows falling on the card below cost PNG bytes."""
    sprite = card_image(code, width)
    if colour and halo:
        g = glow(sprite.size, colour, spread=8)
        img.paste(g, (xy[0] - 8, xy[1] - 8), g)
    if halo:
        paste_with_shadow(img, sprite, xy)
    else:
        img.paste(sprite, xy, sprite)
    if colour and not halo:
        x, y = xy
        Draw(img).rounded_rectangle(
            (x - 2, y - 2, x + sprite.width + 1, y + sprite.height + 1),
            radius=6,
            outline=colour,
            width=3,
        )
    return sprite


# ----- a player's strip


def seat_name(view: Mapping[str, Any], seat: int) -> str:
    players = view.get("players", ["?", "?"])
    return (
        str(players[seat])
        if seat < len(players)
        else Text("Seat {n}", context="hanafuda", n=seat + 1)
    )


def draw_turn_ring(d: ImageDraw.ImageDraw, box: TableBox) -> None:
    """The gold frame around the info panel of the seat to act."""
    x0, y0, x1, y1 = box
    d.rounded_rectangle((x0 - 2, y0 - 2, x1 + 2, y1 + 2), radius=12, outline=TURN_COLOUR, width=3)


def draw_name_row(
    d: ImageDraw.ImageDraw, box: TableBox, name: str, role: str | None, locale: str = "en-US"
) -> None:
    """The player's name, with a role badge (``親 Dealer``) on the right when given."""
    x0, y0, x1, _ = box
    bx = x1 - 8
    if role:
        role_box = badge(
            d,
            (bx, y0 + 11),
            say(locale, role),
            13,
            fill=(250, 240, 220),
            text_fill=(40, 30, 30),
            anchor="ra",
        )
        bx = role_box[0] - 6
    text, size = fit_text(say(locale, name), bx - x0 - 14, 22, bold=True, min_size=13)
    d.text((x0 + 10, y0 + 20), text, font=font(size, True), fill=WHITE, anchor="lm")


def draw_turn_tab(d: ImageDraw.ImageDraw, box: TableBox, turn: str, locale: str = "en-US") -> None:
    """A tab on the info panel's top edge: ``▶ TO PLAY``."""
    x1, y0 = box[2], box[1]
    text = "▶ " + say(locale, turn)
    badge(
        d,
        (x1 - 14, y0 - 10),
        text,
        TABLE_MIN_TEXT,
        fill=TURN_COLOUR,
        text_fill=(30, 24, 10),
        anchor="ra",
    )


def draw_hand_slot(
    img: Image.Image,
    view: Mapping[str, Any],
    seat: int,
    box: TableBox,
    cards_dy: int,
    locale: str = "en-US",
) -> None:
    """A seat's hand as small backs (its own cards face up for its player)."""
    d = Draw(img)
    x0, y0, x1, _ = box
    n = (view.get("hand_counts") or [0, 0])[seat]
    own = view.get("hand") if view.get("seat") == seat else None
    label, size = fit_text(
        say(locale, Text("Hand {n}", context="hanafuda hand size", n=n)),
        x1 - x0 - 8,
        14,
        bold=True,
        min_size=TABLE_MIN_TEXT,
    )
    d.text(((x0 + x1) // 2, y0 + 16), label, font=font(size, True), fill=MUTED, anchor="mm")
    if n == 0:
        return
    cw = BACK_W
    step = min(12, (x1 - x0 - 16 - cw) / max(1, n - 1))
    total = cw + step * (n - 1)
    left = x0 + (x1 - x0 - total) / 2
    for i in range(n):
        sprite = card_image(own[i], cw) if own and i < len(own) else card_back(cw)
        paste_with_shadow(img, sprite, (round(left + i * step), y0 + cards_dy), offset=(1, 2))


def draw_capture_piles(
    img: Image.Image,
    layout: TableLayout,
    y: int,
    piles: Mapping[str, Sequence[str]],
    labels: Mapping[str, str],
    paste: PasteCard,
    locale: str = "en-US",
) -> None:
    """A seat's captures fanned by class, each under its label pill; a label wider than
    its room (up to the next pile) breaks in two rows at its last `` · ``."""
    d = Draw(img)
    size = TABLE_MIN_TEXT
    pad = max(3, size // 3)
    ends = [*list(layout.pile_x.values())[1:], layout.width - layout.margin]
    for cls, room_end in zip(CLASS_ORDER, ends, strict=True):
        x = layout.pile_x[cls]
        cards = piles[cls]
        fill = CLASS_COLOUR[cls] if cards else EMPTY_PILE_COLOUR
        text_fill = WHITE if cards else (150, 160, 150)
        label = say(locale, labels[cls])
        rows = [label]
        if text_length(label, size, True) + 2 * pad > room_end - x - 4 and " · " in label:
            head, _, tail = label.rpartition(" · ")
            rows = [head, "· " + tail]
        for i, row in enumerate(rows):
            row_y = y + layout.pile_label_dy + i * (size + pad + 3)
            badge(d, (x, row_y), row, size, fill=fill, text_fill=text_fill)
        cw, max_step = layout.pile_card(cls)
        step = min(max_step, (layout.class_width[cls] - cw) / max(1, len(cards) - 1))
        for i, code in enumerate(cards):
            paste(code, cw, (round(x + i * step), y + layout.pile_cards_dy))


# ----- the middle row


def draw_stack_pile(
    img: Image.Image, cx: int, top: int, cw: int, count: int, depth: int, locale: str = "en-US"
) -> None:
    """The face-down stack (``depth`` backs deep) with its count, or an empty outline."""
    d = Draw(img)
    ch = card_height(cw)
    left = cx - cw // 2 - 4
    if not count:
        d.rounded_rectangle(
            (left, top, left + cw, top + ch), radius=7, outline=(90, 130, 110), width=2
        )
        empty = say(locale, Text("empty", context="hanafuda stack"))
        d.text((cx, top + ch // 2), empty, font=font(14), fill=MUTED, anchor="mm")
        return
    back = card_back(cw)
    for i in range(depth):
        paste_with_shadow(img, back, (left + i * 2, top + depth * 2 - i * 2), offset=(1, 2))
    badge(
        d,
        (cx, top + ch // 2 + 4),
        str(count),
        20,
        fill=(250, 244, 226),
        text_fill=(30, 24, 24),
        anchor="mm",
    )


def draw_side_note(
    d: ImageDraw.ImageDraw, box: TableBox, text: str, bottom_gap: int, locale: str = "en-US"
) -> None:
    """A small line at the foot of the stack column (the last round's result)."""
    x0, _, x1, y1 = box
    text, size = fit_text(say(locale, text), x1 - x0 - 12, 14, min_size=TABLE_MIN_TEXT)
    d.text(
        ((x0 + x1) // 2, y1 - bottom_gap), text, font=font(size), fill=(220, 220, 200), anchor="mm"
    )


def draw_field(
    img: Image.Image,
    layout: TableLayout,
    cards: Sequence[str],
    paste: PasteCard,
    empty_text: str,
    top_pad: int = 0,
    locale: str = "en-US",
) -> None:
    """The face-up cards in two rows, over faint outlines of the free places."""
    d = Draw(img)
    full_w = layout.field_card_w
    ch = card_height(full_w)
    for x, y in field_slots(layout, 16, full_w, top_pad)[len(cards) :]:
        d.rounded_rectangle((x, y, x + full_w, y + ch), radius=7, outline=(70, 120, 96), width=1)
    cw = field_card_width(layout, len(cards))
    for code, xy in zip(cards, field_slots(layout, len(cards), cw, top_pad), strict=True):
        paste(code, cw, xy)
    if not cards:
        x0, y0, x1, y1 = layout.field_box
        text = say(locale, empty_text)
        d.text(((x0 + x1) // 2, (y0 + y1) // 2), text, font=font(18), fill=MUTED, anchor="mm")


def draw_now(
    d: ImageDraw.ImageDraw, box: TableBox, text: str, max_lines: int, locale: str = "en-US"
) -> int:
    """The status column's ``NOW`` line; returns the y below it."""
    x0, y0, x1, _ = box
    y = y0 + 12
    d.text(
        (x0 + 10, y),
        say(locale, Text("NOW", context="hanafuda")),
        font=font(TABLE_MIN_TEXT, True),
        fill=MUTED,
    )
    y += 18
    lines = wrap_text(say(locale, text), x1 - x0 - 20, 16, bold=True)
    if len(lines) > max_lines:  # what does not fit ends in "…"
        cut, _ = fit_text(lines[max_lines - 1] + "…", x1 - x0 - 20, 16, bold=True, min_size=16)
        lines = [*lines[: max_lines - 1], cut]
    for line in lines:
        d.text((x0 + 10, y), line, font=font(16, True), fill=TABLE_GOLD)
        y += 21
    return y + 6


def draw_pending_flip(img: Image.Image, x0: int, y: int, code: str, locale: str = "en-US") -> int:
    """The flipped card waiting for its player's choice; returns the y below it."""
    d = Draw(img)
    d.text((x0 + 10, y), say(locale, Text("Flipped")), font=font(TABLE_MIN_TEXT, True), fill=MUTED)
    paste_card(img, code, MOVE_CARD_W, (x0 + 10, y + 24), OPTION_COLOUR)  # halo under the title
    d.text(
        (x0 + 20 + MOVE_CARD_W, y + 24 + card_height(MOVE_CARD_W) // 2),
        say(locale, Text("takes one of\nthe green cards")),
        font=font(TABLE_MIN_TEXT),
        fill=WHITE,
        anchor="lm",
    )
    return y + 30 + card_height(MOVE_CARD_W)


def draw_last_move(
    img: Image.Image,
    box: TableBox,
    y: int,
    head: str,
    colour: RGB,
    move: Mapping[str, Any],
    paste: PasteCard,
    stays_note: str,
    locale: str = "en-US",
) -> int:
    """A last play or flip: ``head``, the card, an arrow and what it took (else
    ``stays_note``); returns the y below it."""
    d = Draw(img)
    x0, _, x1, _ = box
    head, size = fit_text(
        say(locale, head), x1 - x0 - 20, TABLE_MIN_TEXT, bold=True, min_size=TABLE_MIN_TEXT
    )
    d.text((x0 + 10, y), head, font=font(size, True), fill=colour)
    y += 18
    paste(move["card"], MOVE_CARD_W, (x0 + 10, y))
    took = move.get("took") or []
    ax = x0 + 14 + MOVE_CARD_W
    mid = y + card_height(MOVE_CARD_W) // 2
    if took:
        d.text((ax + 4, mid), "→", font=font(18, True), fill=WHITE, anchor="lm")
        tx = ax + 26
        step = min(MOVE_CARD_W + 4, (x1 - 8 - tx - MOVE_CARD_W) / max(1, len(took) - 1))
        for i, code in enumerate(took):
            paste(code, MOVE_CARD_W, (round(tx + i * step), y))
    else:
        note = say(locale, stays_note)
        d.text((ax + 4, mid), note, font=font(13), fill=(210, 214, 204), anchor="lm")
    return y + card_height(MOVE_CARD_W) + 10


def draw_banner_panel(img: Image.Image, box: TableBox) -> ImageDraw.ImageDraw:
    """The dark, gold-edged panel of the final result."""
    panel(img, box, fill=(12, 10, 10, 215), border=(232, 184, 64, 255), radius=16)
    return Draw(img)


def draw_text_columns(
    d: ImageDraw.ImageDraw,
    lines: Sequence[str],
    *,
    cx: int,
    top: int,
    avail_w: int,
    max_col_w: int,
    size: int,
    line_h: int,
    max_rows: int = 6,
    locale: str = "en-US",
) -> None:
    """``lines`` centred around ``cx``: one column, or two side by side beyond ``max_rows``
    lines."""
    lines = [say(locale, line) for line in lines]
    cols = 2 if len(lines) > max_rows else 1
    per_col = math.ceil(len(lines) / cols) if lines else 1
    col_w = min(max_col_w, avail_w // cols)
    fnt = font(size)
    widest = max((fnt.getlength(t) for t in lines), default=0)
    block_w = min(col_w, int(widest) + 10) if cols == 1 else col_w * cols
    left = cx - block_w // 2
    for i, text in enumerate(lines):
        col, row = divmod(i, per_col)
        text, fitted = fit_text(text, col_w - 10, size, min_size=TABLE_MIN_TEXT)
        d.text((left + col * col_w, top + row * line_h), text, font=font(fitted), fill=WHITE)


# ----- the hand image


@dataclass(frozen=True)
class HandNote:
    """The pill under a card of the hand image: what the card would do now."""

    text: str
    fill: RGB
    text_fill: RGB
    size: int = 13
    glow: bool = False  # a halo of ``fill`` behind the card


NO_MATCH = HandNote(Text("no match"), NO_MATCH_FILL, NO_MATCH_TEXT)
#: The note of a hand card that matches two field cards.
CHOOSE_NOTE = Text("✓ choose 1 of 2")


def takes_note(month: int, n: int) -> Text:
    """The note of a hand card that takes ``n`` field cards: ``✓ 松 takes all 3``."""
    if n == 3:
        return Text("✓ {month} takes all 3", month=MONTH_KANJI[month])
    return Text("✓ {month} takes {n}", month=MONTH_KANJI[month], n=n)


def hand_sheet(
    n_cards: int, min_width: int, foot_h: int, title: str, info: str, locale: str = "en-US"
) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """The felt of a hand image for ``n_cards`` large cards (in rows of ``HAND_ROW`` at
    most, each ``foot_h`` deep below its cards), with its title and info line."""
    rows, n = hand_rows(n_cards)
    cw = HAND_CARD_W
    width = max(min_width, 2 * 20 + n * cw + (n - 1) * HAND_GAP)
    height = HAND_TOP + rows * (card_height(cw) + foot_h)
    img = felt((width, height)).convert("RGB")
    d = Draw(img)
    title, info = say(locale, title), say(locale, info)
    # Title and info share the top line: the info shrinks (then the title) if they would meet.
    title_w = text_length(title, 20, True)
    info, info_size = fit_text(info, max(80, int(width - 40 - title_w - 24)), 15, min_size=11)
    room = width - 40 - 24 - text_length(info, info_size)
    title, title_size = fit_text(title, int(room), 20, bold=True, min_size=14)
    d.text((20, 20 + (20 - title_size)), title, font=font(title_size, True), fill=WHITE)
    d.text((width - 20, 24), info, font=font(info_size), fill=MUTED, anchor="ra")
    if not n_cards:
        d.text(
            (width // 2, HAND_TOP + card_height(cw) // 2),
            say(locale, Text("No cards left")),
            font=font(18),
            fill=MUTED,
            anchor="mm",
        )
    return img, d


def hand_rows(n_cards: int) -> tuple[int, int]:
    """(rows, cards in a full row) of a hand of ``n_cards``: rows as even as they come."""
    rows = max(1, -(-n_cards // HAND_ROW))
    return rows, max(1, -(-n_cards // rows))


def draw_hand_cards(
    img: Image.Image,
    hand: Sequence[str],
    notes: Sequence[HandNote],
    names: Sequence[str],
    name_dy: int,
    locale: str = "en-US",
) -> None:
    """The hand in rows (``hand_sheet``'s), each centred, each card over its note and its
    name (``name_dy`` below it)."""
    d = Draw(img)
    cw, gap = HAND_CARD_W, HAND_GAP
    ch = card_height(cw)
    rows, per_row = hand_rows(len(hand))
    pitch = (img.height - HAND_TOP) // rows
    for i, (code, note, name) in enumerate(zip(hand, notes, names, strict=True)):
        row, col = divmod(i, per_row)
        in_row = min(per_row, len(hand) - row * per_row)
        left = (img.width - (in_row * cw + (in_row - 1) * gap)) // 2
        x, top = left + col * (cw + gap), HAND_TOP + row * pitch
        if note.glow:
            g = glow((cw, ch), note.fill, spread=10)
            img.paste(g, (x - 10, top - 10), g)
        paste_with_shadow(img, card_image(code, cw), (x, top))
        cx = x + cw // 2
        # The note's pill may be as wide as the card and its gap (smaller type, then "…").
        pad = max(3, note.size // 3)
        text, note_size = fit_text(say(locale, note.text), cw + gap - 2 - 2 * pad, note.size, True)
        badge(
            d,
            (cx, top + ch + 8),
            text,
            note_size,
            fill=note.fill,
            text_fill=note.text_fill,
            anchor="ma",
        )
        name, size = fit_text(say(locale, name), cw + gap - 2, 13, min_size=10)
        d.text((cx, top + ch + name_dy), name, font=font(size), fill=WHITE, anchor="mm")


def ribbon_short_name(code: str) -> Text:
    """``Poetry ribbon``, ``Blue ribbon`` or ``Red ribbon``."""
    return RIBBON_SHORT_NAME[card(code).ribbon_colour or "red"]


def png_palette_for(
    base: Image.Image,
    sizes: tuple[int, int] = (CAPTURE_CARD_W, 80),
    colors: int = PNG_COLOURS,
    extra: Sequence[RGB] = (),
) -> Image.Image:
    """A fixed PNG palette of ``colors`` colours for a hanafuda game whose table background
    is `base`: its felt and panels, every card face and the back at the table's two card
    widths (``sizes``: captures, field), text in the table colours."""
    from bot.games.hanafuda.cards import ALL_CARDS
    from bot.render.draw import GOLD, HIGHLIGHT, MATCH_GREEN, MUTED, WHITE, palette_sheet
    from bot.render.encode import palette_from

    colours = [WHITE, MUTED, GOLD, HIGHLIGHT, MATCH_GREEN, INK, SUN_RED, (210, 214, 204)]
    colours += [EMPTY_PILE_COLOUR, NO_MATCH_FILL, NO_MATCH_TEXT, MATCH_TEXT, *extra]
    small, large = ([card_back(w)] + [card_image(c, w) for c in ALL_CARDS] for w in sizes)
    return palette_from(
        [palette_sheet(base, small, colours), palette_sheet(base, large, colours, panels=())],
        colors,
        keep=colours,
    )
