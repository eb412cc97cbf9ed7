"""In-memory image encoding for Discord attachments.

Table art is flat colours and antialiased edges, so images are sent as palette PNGs (no
dithering): ~3x smaller than RGB and cheaper to deflate. Choosing a palette per image
(octree over every pixel) used to be the costliest step of a render, so:

- a game can give a fixed palette (``palette_from`` over its felts and sprites, built once
  per process) and every frame is only mapped onto it (``quantize(palette=...)``, ~1 ms);
- otherwise the palette is chosen from a sparse sample of the image's own pixels.
"""

from __future__ import annotations

import io
from collections.abc import Iterable

from PIL import Image

# zlib level 6 costs ~3x the time of level 3 for ~15% fewer bytes on palette images; the
# time is per pixel, so it is the same for every table.
PNG_COMPRESS_LEVEL = 3
_SAMPLE_STEP = 3  # adaptive palettes look at every 3rd pixel of every 3rd row
# Fixed palettes hold 64 colours: every antialiased edge then has fewer tones to pick from,
# so a table PNG is ~25% smaller than with 256; flat colours, card art and text look the same.
FIXED_PALETTE_COLOURS = 64


def to_png(img: Image.Image, *, palette: bool | Image.Image = True, colors: int = 256) -> bytes:
    """Encode `img` as PNG bytes.

    `palette`: True (default) reduces the image to an adaptive palette of `colors` colours
    chosen from a sample of its pixels; a "P" image maps it onto that image's palette
    (see ``palette_from``); False keeps full colour.
    """
    if img.mode not in ("RGB", "RGBA", "P", "L"):
        img = img.convert("RGBA" if "A" in img.getbands() else "RGB")
    if palette is not False and img.mode in ("RGB", "RGBA"):
        if img.mode == "RGBA":
            img = img.convert("RGB")
        if palette is True:
            palette = _adaptive_palette(img, colors)
        img = img.quantize(palette=palette, dither=Image.Dither.NONE)
    buf = io.BytesIO()
    img.save(buf, format="PNG", compress_level=PNG_COMPRESS_LEVEL)
    return buf.getvalue()


def _adaptive_palette(img: Image.Image, colors: int) -> Image.Image:
    w, h = img.size
    sample = img
    if w >= 4 * _SAMPLE_STEP and h >= 4 * _SAMPLE_STEP:
        sample = img.resize((w // _SAMPLE_STEP, h // _SAMPLE_STEP), Image.Resampling.NEAREST)
    return sample.quantize(colors, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


def palette_from(
    samples: Iterable[Image.Image], colors: int = FIXED_PALETTE_COLOURS
) -> Image.Image:
    """A fixed palette (a small "P" image) for ``to_png(..., palette=)``, chosen from sample
    images stacked into one sheet: a game's felts, panels, sprites and text colours."""
    parts = [s.convert("RGB") for s in samples]
    width = max(p.width for p in parts)
    sheet = Image.new("RGB", (width, sum(p.height for p in parts)))
    y = 0
    for p in parts:
        sheet.paste(p, (0, y))
        y += p.height
    return sheet.quantize(colors, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
