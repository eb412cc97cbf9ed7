"""Shared drawing primitives: felt backgrounds, card frames with shadows, text, panels, badges.

Everything expensive (felt textures, shadows, masks, panel layers, rendered text runs) is
cached (bounded lru caches, one set per render process) so a table render only pastes
ready-made layers. Draw on RGB canvases: pasting an RGBA sprite with itself as the mask
blends it over the canvas, like ``alpha_composite`` but without a full-size RGBA layer.
"""

from __future__ import annotations

import contextlib
import math
import weakref
from collections import OrderedDict
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw, ImageFilter, ImageFont

from bot.render.fonts import font

Colour = tuple[int, int, int] | tuple[int, int, int, int]
Box = tuple[int, int, int, int]

FELT_GREEN = (28, 84, 60)
FELT_RED = (112, 30, 36)
FELT_BLUE = (26, 58, 92)
INK = (24, 22, 22)
PAPER = (246, 239, 222)
GOLD = (232, 184, 64)
HIGHLIGHT = (255, 214, 74)
MATCH_GREEN = (82, 214, 120)
WHITE = (255, 255, 255)
MUTED = (200, 210, 200)

FELT_SHADES = 1  # felt bands, top to bottom (more than one shows seams through the panels)
FELT_TOP = 256  # shade of the top band (256 = the base colour)
FELT_FALL = 10  # shade lost per band
SHADOW_OFFSET = (2, 3)
SHADOW_BLUR = 3


# ----- text: rendered glyph masks are cached (font rendering is the costliest drawing step)

#: Glyph masks and text widths kept per render process. A thousand tables draw a few thousand
#: names, scores and counts in each of their sizes; with 4,096 masks the cache thrashed there
#: and FreeType took ~18 % of the render worker. A mask is ~1-3 KB.
TEXT_CACHE_SIZE = 16384


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def _text_mask(
    fnt: ImageFont.FreeTypeFont,
    text: str,
    anchor: str,
    stroke_width: float,
    start: tuple[float, float],
) -> tuple[Any, tuple[int, int]]:
    return fnt.getmask2(
        text, "L", None, None, None, stroke_width, anchor, 0, start, stroke_filled=True
    )


def cached_text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    fnt: ImageFont.FreeTypeFont,
    fill: Any,
    anchor: str | None = None,
    stroke_width: float = 0,
    stroke_fill: Any = None,
) -> None:
    """``draw.text`` for one line of text in a FreeType font, from cached glyph masks:
    the same pixels as ``ImageDraw.text``."""
    if draw.fontmode != "L" or "\n" in text:
        ImageDraw.ImageDraw.text(
            draw, xy, text, fill, fnt, anchor, stroke_width=stroke_width, stroke_fill=stroke_fill
        )
        return
    ink = _ink(draw, fill)
    if ink is None:
        return
    x, y = xy
    start = (math.modf(x)[0], math.modf(y)[0])
    anchor = anchor or "la"
    passes: list[tuple[int | None, float]] = [(ink, 0.0)]
    if stroke_width:
        stroke_ink = _ink(draw, stroke_fill) if stroke_fill is not None else ink
        passes = [(stroke_ink, stroke_width)] + ([(ink, 0.0)] if ink != stroke_ink else [])
    for pass_ink, sw in passes:
        mask, (ox, oy) = _text_mask(fnt, text, anchor, sw, start)
        draw.draw.draw_bitmap((int(x) + ox, int(y) + oy), mask, pass_ink)


def _ink(draw: ImageDraw.ImageDraw, fill: Any) -> int | None:
    ink, fill_ink = draw._getink(fill)
    return fill_ink if ink is None else ink


class Draw(ImageDraw.ImageDraw):
    """``ImageDraw.Draw`` whose single-line FreeType ``text`` comes from the glyph-mask cache."""

    def text(
        self,
        xy: tuple[float, float],
        text: Any,
        fill: Any = None,
        font: Any = None,
        anchor: str | None = None,
        *args: Any,
        stroke_width: float = 0,
        stroke_fill: Any = None,
        **kwargs: Any,
    ) -> None:
        if (
            args
            or kwargs
            or not isinstance(text, str)
            or not isinstance(font, ImageFont.FreeTypeFont)
        ):
            super().text(  # type: ignore[misc]  # (no caller passes 6 extra positionals)
                xy, text, fill, font, anchor, *args, stroke_width=stroke_width,
                stroke_fill=stroke_fill, **kwargs,
            )  # fmt: skip
            return
        cached_text(self, xy, text, font, fill, anchor, stroke_width, stroke_fill)


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def text_length(text: str, size: int, bold: bool = False) -> float:
    """``font(size, bold).getlength(text)``, cached."""
    return font(size, bold).getlength(text)


@lru_cache(maxsize=16)
def felt(size: tuple[int, int], base: Colour = FELT_GREEN, seed: int = 7) -> Image.Image:
    """A plain felt cloth: the base colour (in FELT_SHADES horizontal bands, each a little
    darker, if more than one). Cached; callers must copy. (`seed` is kept for callers; the felt
    has no random texture.)

    Every row of a band is the same, so the felt costs next to nothing in a PNG: the mottled
    felt it replaces (blobs and a radial vignette in a few tones) was 13-23 KiB of every
    table image, and most of it is hidden under the panels anyway.
    """
    w, h = size
    column = Image.new("L", (1, h))
    column.putdata([min(FELT_SHADES - 1, y * FELT_SHADES // h) for y in range(h)])
    bands = column.resize((w, h), Image.Resampling.NEAREST)  # the band of each pixel
    shades = [FELT_TOP - FELT_FALL * i for i in range(FELT_SHADES)]  # per 256 of `base`
    layers = [
        bands.point([min(255, c * shades[min(i, FELT_SHADES - 1)] // 256) for i in range(256)])
        for c in base[:3]
    ]
    return Image.merge("RGB", layers)


@lru_cache(maxsize=64)
def round_mask(size: tuple[int, int], radius: int, scale: int = 4) -> Image.Image:
    """An antialiased rounded-rectangle mask (drawn large, then reduced)."""
    w, h = size
    big = Image.new("L", (w * scale, h * scale), 0)
    ImageDraw.Draw(big).rounded_rectangle(
        (0, 0, w * scale - 1, h * scale - 1), radius=radius * scale, fill=255
    )
    return big.resize((w, h), Image.Resampling.LANCZOS)


@lru_cache(maxsize=64)
def shadow(
    size: tuple[int, int], radius: int, blur: int = SHADOW_BLUR, opacity: int = 120
) -> Image.Image:
    """A soft drop-shadow RGBA tile for a rounded rect of `size`, padded by 2*blur each side."""
    w, h = size
    pad = blur * 2
    mask = Image.new("L", (w + 2 * pad, h + 2 * pad), 0)
    mask.paste(round_mask(size, radius).point(lambda v: v * opacity // 255), (pad, pad))
    mask = mask.filter(ImageFilter.GaussianBlur(blur))
    tile = Image.new("RGBA", mask.size, (0, 0, 0, 0))
    tile.putalpha(mask)
    return tile


def paste_with_shadow(
    canvas: Image.Image,
    sprite: Image.Image,
    xy: tuple[int, int],
    *,
    radius: int | None = None,
    offset: tuple[int, int] = SHADOW_OFFSET,
) -> None:
    """Paste an RGBA sprite at `xy` over a soft shadow.

    The sprite is pasted as one image of itself over its shadow, composed once per sprite
    (the cached tiles and cards of every table): one blend of the shadow's pixels instead of
    two. Always so, so that a picture does not depend on what was drawn before it."""
    x, y = xy
    r = radius if radius is not None else max(2, sprite.width // 12)
    pad = 2 * SHADOW_BLUR
    key = (id(sprite), r, offset)
    kept = _shadowed.get(key)
    if kept is not None and kept[0]() is sprite:
        composite = kept[1]
        _shadowed.move_to_end(key)
    else:
        composite = _compose_shadowed(sprite, r, offset)
        # Weakly: a sprite drawn for one picture only is not kept alive by this cache.
        with contextlib.suppress(TypeError):
            _shadowed[key] = (weakref.ref(sprite), composite)
            while len(_shadowed) > SHADOWED_SPRITES:
                _shadowed.popitem(last=False)
    left, top = x + min(offset[0] - pad, 0), y + min(offset[1] - pad, 0)
    canvas.paste(composite, (left, top), composite)


#: Sprites (by identity) and their composite over a shadow, per process.
SHADOWED_SPRITES = 2048
_shadowed: OrderedDict[
    tuple[int, int, tuple[int, int]], tuple[weakref.ref[Image.Image], Image.Image]
] = OrderedDict()


def _compose_shadowed(sprite: Image.Image, radius: int, offset: tuple[int, int]) -> Image.Image:
    """`sprite` over its shadow (as ``paste_with_shadow`` draws them) in one RGBA image,
    whose top-left is the top-left of the two together."""
    w, h = sprite.size
    sh = shadow((w, h), radius)
    pad = 2 * SHADOW_BLUR
    sx, sy = -pad + offset[0], -pad + offset[1]
    left, top = min(sx, 0), min(sy, 0)
    right, bottom = max(sx + sh.width, w), max(sy + sh.height, h)
    out = Image.new("RGBA", (right - left, bottom - top), (0, 0, 0, 0))
    out.alpha_composite(sh, (sx - left, sy - top))
    out.alpha_composite(sprite.convert("RGBA"), (-left, -top))
    return out


def card_frame(
    size: tuple[int, int],
    fill: Colour = PAPER,
    border: Colour = INK,
    border_width: int = 2,
    radius: int | None = None,
) -> Image.Image:
    """A blank RGBA rounded card with a border, for games that draw faces on top."""
    w, h = size
    r = radius if radius is not None else max(2, w // 12)
    img = Image.new("RGBA", size, border)
    inner = Image.new("RGBA", (w - 2 * border_width, h - 2 * border_width), fill)
    img.paste(inner, (border_width, border_width), round_mask(inner.size, max(1, r - border_width)))
    img.putalpha(round_mask(size, r))
    return img


def outline_box(
    draw: ImageDraw.ImageDraw, box: Box, colour: Colour, width: int = 3, radius: int = 6
) -> None:
    """A rounded outline (highlight ring) around `box`, drawn outside it."""
    x0, y0, x1, y1 = box
    g = width
    draw.rounded_rectangle(
        (x0 - g, y0 - g, x1 + g, y1 + g), radius=radius + g, outline=colour, width=width
    )


def text_size(text: str, fnt: ImageFont.FreeTypeFont, stroke: int = 0) -> tuple[int, int]:
    left, top, right, bottom = fnt.getbbox(text, stroke_width=stroke)
    return int(right - left), int(bottom - top)  # (a FreeType font measures in whole pixels)


def draw_text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: Colour = WHITE,
    *,
    bold: bool = False,
    anchor: str = "la",
    outline: Colour | None = None,
    outline_width: int = 2,
) -> None:
    """Text at `xy` (Pillow anchor, e.g. "mm" centred); optional outline for legibility on art."""
    cached_text(
        draw,
        xy,
        text,
        font(size, bold),
        fill,
        anchor,
        stroke_width=outline_width if outline else 0,
        stroke_fill=outline,
    )


def draw_fitted(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    max_width: float,
    size: int,
    fill: Colour = WHITE,
    bold: bool = False,
    anchor: str = "la",
    min_size: int = 9,
) -> int:
    """``text`` drawn within ``max_width`` (shrunk down to ``min_size``, then ellipsized: a
    translated label may be wider than the English it replaces); returns the width drawn."""
    fitted, sz = fit_text(text, int(max_width), size, bold, min(size, min_size))
    draw_text(draw, xy, fitted, sz, fill, bold=bold, anchor=anchor)
    return int(text_length(fitted, sz, bold))


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def fit_text(
    text: str, max_width: int, size: int, bold: bool = False, min_size: int = 9
) -> tuple[str, int]:
    """Shrink the font (down to `min_size`) then ellipsize so `text` fits in `max_width`.

    Bounded by what fits, not by the text's length (a player's name may be thousands of
    characters): only prefixes up to twice the longest that fits are measured, found by
    doubling then halving, never the whole of a text too long to fit."""
    fnt = font(min_size, bold)
    probe = 1
    while fnt.getlength(text[:probe]) <= max_width:
        if probe >= len(text):  # it all fits at min_size: shrink no more than needed
            while size > min_size and text_length(text, size, bold) > max_width:
                size -= 1
            return text, size
        probe = min(len(text), 2 * probe)
    return _ellipsized(text, max_width, min_size, bold, probe), min_size


def _ellipsized(text: str, max_width: int, size: int, bold: bool, too_long: int) -> str:
    """The longest prefix of `text` shorter than `too_long` that fits in `max_width` with
    "…" after it, plus "…" (halving: log n measures of at most `too_long` characters)."""
    fnt = font(size, bold)
    low, high = 0, min(too_long, len(text))
    while high - low > 1:
        middle = (low + high) // 2
        if fnt.getlength(text[:middle] + "…") <= max_width:
            low = middle
        else:
            high = middle
    return text[:low] + "…"


# ----- lines: a text broken to a width (CJK text breaks between characters)


def _is_wide(ch: str) -> bool:
    """A character next to which a line may break without a space: kana and CJK
    ideographs (Korean, written with spaces, breaks at its spaces)."""
    return ch >= "\u2e80" and not "\uac00" <= ch <= "\ud7a3"


def _words(text: str) -> list[tuple[str, str]]:
    """``text`` as (word, separator before it): spaces separate words, and a line may
    also break between two CJK characters (Japanese and Chinese put no spaces)."""
    out: list[tuple[str, str]] = []
    for i, chunk in enumerate(text.split()):
        sep = " " if i else ""
        word = ""
        for ch in chunk:
            if word and _may_break(word[-1], ch):
                out.append((word, sep))
                word, sep = "", ""
            word += ch
        out.append((word, sep))
    return out


#: Characters that may not open a line (closing brackets and punctuation), or end one.
_NO_LINE_START = frozenset("、。，．,.)）」』】〕!！?？:：;；…・ー")
_NO_LINE_END = frozenset("(（「『【〔")


def _may_break(before: str, after: str) -> bool:
    """Whether a CJK line may break between two characters with no space between them
    (never inside a number with its counter, ``7点``, nor next to brackets and stops)."""
    if not (_is_wide(before) or _is_wide(after)):
        return False
    if after in _NO_LINE_START or before in _NO_LINE_END:
        return False
    return not (before.isascii() and before.isalnum())


def wrap_text(text: str, width: int, size: int, bold: bool = False) -> list[str]:
    """``text`` broken into lines no wider than ``width`` (a long word keeps its own line;
    CJK text breaks between characters)."""
    fnt = font(size, bold)
    lines: list[str] = []
    line = ""
    for word, sep in _words(text):
        trial = f"{line}{sep}{word}" if line else word
        if fnt.getlength(trial) <= width or not line:
            line = trial
        else:
            lines.append(line)
            line = word
    if line:
        lines.append(line)
    return lines


def badge(
    draw: ImageDraw.ImageDraw,
    xy: tuple[int, int],
    text: str,
    size: int = 14,
    fill: Colour = GOLD,
    text_fill: Colour = INK,
    *,
    bold: bool = True,
    pad: int | None = None,
    anchor: str = "la",
) -> Box:
    """A pill-shaped label; returns its box. `anchor` "la" = top-left at xy, "ra" = top-right."""
    fnt = font(size, bold)
    p = pad if pad is not None else max(3, size // 3)
    tw = int(text_length(text, size, bold))
    h = size + p
    w = tw + 2 * p
    x, y = xy
    if anchor[0] == "r":
        x -= w
    elif anchor[0] == "m":
        x -= w // 2
    if anchor[1] == "m":
        y -= h // 2
    box = (x, y, x + w, y + h)
    draw.rounded_rectangle(box, radius=h // 2, fill=fill)
    cached_text(draw, (x + w / 2, y + h / 2), text, fnt, text_fill, "mm")
    return box


def panel(
    canvas: Image.Image,
    box: Box,
    *,
    title: str | None = None,
    fill: Colour = (0, 0, 0, 90),
    border: Colour | None = (255, 255, 255, 40),
    radius: int = 10,
    title_size: int = 15,
    title_fill: Colour = MUTED,
) -> Box:
    """A translucent rounded panel; returns the inner box below the optional title."""
    x0, y0, x1, y1 = box
    layer = panel_layer((x1 - x0, y1 - y0), fill, border, radius)
    if canvas.mode == "RGBA":
        canvas.alpha_composite(layer, (x0, y0))
    else:
        canvas.paste(layer, (x0, y0), layer)
    if title:
        draw = ImageDraw.Draw(canvas)
        cached_text(draw, (x0 + 10, y0 + 6), title, font(title_size, True), title_fill)
        return (x0 + 8, y0 + 10 + title_size, x1 - 8, y1 - 6)
    return (x0 + 8, y0 + 6, x1 - 8, y1 - 6)


@lru_cache(maxsize=64)
def panel_layer(
    size: tuple[int, int], fill: Colour, border: Colour | None, radius: int
) -> Image.Image:
    """The RGBA layer of a translucent rounded panel (cached; do not modify)."""
    layer = Image.new("RGBA", size, (0, 0, 0, 0))
    ImageDraw.Draw(layer).rounded_rectangle(
        (0, 0, size[0] - 1, size[1] - 1), radius=radius, fill=fill, outline=border, width=1
    )
    return layer


def glow(
    size: tuple[int, int], colour: Colour = HIGHLIGHT, spread: int = 6, radius: int | None = None
) -> Image.Image:
    """A coloured halo tile (RGBA) to paste behind a highlighted card; padded by `spread`."""
    return _glow(size, colour[:3], spread, radius if radius is not None else max(2, size[0] // 12))


@lru_cache(maxsize=64)
def _glow(
    size: tuple[int, int], colour: tuple[int, int, int], spread: int, radius: int
) -> Image.Image:
    w, h = size
    mask = Image.new("L", (w + 2 * spread, h + 2 * spread), 0)
    ImageDraw.Draw(mask).rounded_rectangle(
        (spread // 2, spread // 2, w + spread * 3 // 2, h + spread * 3 // 2),
        radius=radius + spread // 2,
        fill=255,
    )
    mask = mask.filter(ImageFilter.GaussianBlur(max(1, spread // 3)))
    tile = Image.new("RGBA", mask.size, colour + (0,))
    tile.putalpha(mask)
    return tile


def palette_sheet(
    background: Image.Image,
    sprites: Sequence[Image.Image],
    colours: Sequence[Colour],
    *,
    panels: Sequence[Colour] = ((0, 0, 0, 90),),
) -> Image.Image:
    """A sample sheet for ``encode.palette_from``: `background` with translucent `panels`,
    every sprite (with its shadow) and text and badges in every colour over felt and over
    the panels, so a fixed palette holds the colours (and antialiased edges) of real frames."""
    w = background.width
    sheet = background.copy().convert("RGB")
    x, y, row_h = 8, 8, 0
    for sprite in sprites:
        if x + sprite.width + 8 > w:
            x, y, row_h = 8, y + row_h + 10, 0
        if y + sprite.height + 8 > sheet.height:
            break
        paste_with_shadow(sheet, sprite, (x, y))
        x += sprite.width + 8
        row_h = max(row_h, sprite.height)
    d = Draw(sheet)
    ty = max(8, sheet.height - 40 * len(panels) - 4)
    for fill in panels:
        panel(sheet, (4, ty - 2, w - 4, ty + 36), fill=fill)
        x = 10
        for colour in colours:
            if x + 150 > w:
                break
            draw_text(d, (x, ty + 2), "Ag 12 光", 16, colour, bold=True)
            draw_text(d, (x, ty + 20), "ag 3·", 13, colour)
            badge(d, (x + 72, ty + 4), "Ab", 14, fill=colour[:3])
            x += 150
        ty += 40
    return sheet
