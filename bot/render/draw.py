"""Shared drawing primitives: felt backgrounds, card frames with shadows, text, panels, badges.

Everything expensive (felt textures, shadows, masks) is cached by size so a table render
only pastes ready-made layers.
"""

from __future__ import annotations

import random
from functools import lru_cache

from PIL import Image, ImageChops, ImageDraw, ImageFilter, ImageFont

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

SHADOW_OFFSET = (2, 3)
SHADOW_BLUR = 3


@lru_cache(maxsize=16)
def felt(size: tuple[int, int], base: Colour = FELT_GREEN, seed: int = 7) -> Image.Image:
    """A procedural felt cloth: soft mottling plus a vignette. Cached; callers must copy.

    No fine grain: it would vanish in the palette PNG anyway and only cost bytes.
    """
    w, h = size
    rng = random.Random(seed)
    # Low-frequency mottling: tiny random image blown up smoothly.
    small = Image.new("L", (max(2, w // 48), max(2, h // 48)))
    small.putdata([rng.randint(0, 255) for _ in range(small.width * small.height)])
    mottle = small.resize((w, h), Image.Resampling.BICUBIC).filter(ImageFilter.GaussianBlur(6))
    vignette = _vignette((w, h))
    r, g, b = base[:3]
    layers = []
    for c in (r, g, b):
        # channel = base * (0.88 .. 1.04 from the mottle) * vignette
        lut_m = [int(c * (0.88 + 0.16 * i / 255)) for i in range(256)]
        ch = ImageChops.multiply(mottle.point(lut_m), vignette)
        layers.append(ch)
    return Image.merge("RGB", layers)


@lru_cache(maxsize=8)
def _vignette(size: tuple[int, int]) -> Image.Image:
    w, h = size
    g = Image.radial_gradient("L").resize((w, h), Image.Resampling.BILINEAR)
    # radial_gradient is 0 at the centre, 255 at the rim; map to 255 .. ~170.
    return g.point([255 - int(85 * (i / 255) ** 2) for i in range(256)])


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
    """Paste an RGBA sprite at `xy` over a soft shadow."""
    x, y = xy
    w, h = sprite.size
    r = radius if radius is not None else max(2, w // 12)
    sh = shadow((w, h), r)
    pad = (sh.width - w) // 2
    sx, sy = x - pad + offset[0], y - pad + offset[1]
    canvas.paste(sh, (sx, sy), sh)
    if sprite.mode == "RGBA":
        canvas.paste(sprite, (x, y), sprite)
    else:
        canvas.paste(sprite, (x, y))


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
    return right - left, bottom - top


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
    draw.text(
        xy,
        text,
        font=font(size, bold),
        fill=fill,
        anchor=anchor,
        stroke_width=outline_width if outline else 0,
        stroke_fill=outline,
    )


def fit_text(
    text: str, max_width: int, size: int, bold: bool = False, min_size: int = 9
) -> tuple[str, int]:
    """Shrink the font (down to `min_size`) then ellipsize so `text` fits in `max_width`."""
    while size > min_size and font(size, bold).getlength(text) > max_width:
        size -= 1
    fnt = font(size, bold)
    if fnt.getlength(text) <= max_width:
        return text, size
    while text and fnt.getlength(text + "…") > max_width:
        text = text[:-1]
    return text + "…", size


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
    tw = int(fnt.getlength(text))
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
    draw.text((x + w / 2, y + h / 2), text, font=fnt, fill=text_fill, anchor="mm")
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
    layer = Image.new("RGBA", (x1 - x0, y1 - y0), (0, 0, 0, 0))
    d = ImageDraw.Draw(layer)
    d.rounded_rectangle(
        (0, 0, x1 - x0 - 1, y1 - y0 - 1), radius=radius, fill=fill, outline=border, width=1
    )
    if canvas.mode == "RGBA":
        canvas.alpha_composite(layer, (x0, y0))
    else:
        canvas.paste(layer, (x0, y0), layer)
    if title:
        draw = ImageDraw.Draw(canvas)
        draw.text((x0 + 10, y0 + 6), title, font=font(title_size, True), fill=title_fill)
        return (x0 + 8, y0 + 10 + title_size, x1 - 8, y1 - 6)
    return (x0 + 8, y0 + 6, x1 - 8, y1 - 6)


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
