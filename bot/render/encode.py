"""In-memory image encoding for Discord attachments.

Table art is flat colours and antialiased edges, so images are sent as palette PNGs (no
dithering): ~3x smaller than RGB and cheaper to deflate. Choosing a palette per image
(octree over every pixel) used to be the costliest step of a render, so:

- a game can give a fixed palette (``palette_from`` over its felts and sprites, built once
  per process) and every frame is only mapped onto it (``quantize(palette=...)``, ~1 ms);
- otherwise the palette is chosen from a sparse sample of the image's own pixels.

Deflating the ~1 MB of palette indices was then the costliest step (3–4 ms per table with
zlib, at any level: the time is in zlib's match search). Where ISA-L (``isal``) is installed,
palette images are written here instead: filter "None" on every row and ISA-L's level 1
deflate, ~5x faster than zlib's level 1 and only ~3% larger than its level 3 on these images.
The rare image that comes out larger than ``PNG_SIZE_CAP`` (a busy table: ~1 in 4 of the
hanafuda and Mah-Jongg tables pass 40 KiB, a few pass 48) is deflated again by zlib at level 6,
which costs 6-9 ms but saves ~20%.
"""

from __future__ import annotations

import io
import struct
import zlib
from collections.abc import Iterable

from PIL import Image

try:  # optional: without it (a platform with no wheel), Pillow's own encoder writes every PNG
    from isal import isal_zlib as _fast_deflate
except ImportError:  # pragma: no cover - the project's requirements install it
    _fast_deflate = None  # type: ignore[assignment]  # (None stands for the missing module)

# zlib level 6 costs ~3x the time of level 3 for ~15% fewer bytes on palette images; the
# time is per pixel, so it is the same for every table.
PNG_COMPRESS_LEVEL = 3
_SAMPLE_STEP = 3  # adaptive palettes look at every 3rd pixel of every 3rd row
# Fixed palettes hold 64 colours: every antialiased edge then has fewer tones to pick from,
# so a table PNG is ~25% smaller than with 256; flat colours, card art and text look the same.
FIXED_PALETTE_COLOURS = 64
#: bytes; a fast-deflated palette PNG larger than this is deflated again, harder.
PNG_SIZE_CAP = 48 * 1024


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
    level = PNG_COMPRESS_LEVEL
    if img.mode == "P" and _fast_deflate is not None and "transparency" not in img.info:
        data = palette_png(img)
        if len(data) <= PNG_SIZE_CAP:
            return data
        level = 6
    buf = io.BytesIO()
    img.save(buf, format="PNG", compress_level=level)
    return buf.getvalue()


_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def palette_png(img: Image.Image) -> bytes:
    """An 8-bit palette PNG of the "P" image `img`, deflated with ISA-L (see the module's
    docstring). Every row is filtered with "None": palette indices gain nothing from the
    arithmetic filters, and the row's filter byte comes free from the pasting below."""
    if _fast_deflate is None:
        raise RuntimeError("palette_png needs the isal package")
    w, h = img.size
    # The image one column wider, its first column index 0: its bytes are then exactly the
    # PNG scanlines, each led by its filter-type byte 0 ("None").
    rows = Image.new("P", (w + 1, h), 0)
    rows.paste(img, (1, 0))
    palette = bytes(img.getpalette("RGB") or [0, 0, 0])[: 256 * 3]
    return b"".join(
        (
            _PNG_SIGNATURE,
            _chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 3, 0, 0, 0)),
            _chunk(b"PLTE", palette),
            _chunk(b"IDAT", _fast_deflate.compress(rows.tobytes(), 1)),
            _chunk(b"IEND", b""),
        )
    )


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def _adaptive_palette(img: Image.Image, colors: int) -> Image.Image:
    w, h = img.size
    sample = img
    if w >= 4 * _SAMPLE_STEP and h >= 4 * _SAMPLE_STEP:
        sample = img.resize((w // _SAMPLE_STEP, h // _SAMPLE_STEP), Image.Resampling.NEAREST)
    return sample.quantize(colors, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


def palette_from(
    samples: Iterable[Image.Image],
    colors: int = FIXED_PALETTE_COLOURS,
    *,
    keep: Iterable[tuple[int, int, int]] = (),
) -> Image.Image:
    """A fixed palette (a small "P" image) for ``to_png(..., palette=)``, chosen from sample
    images stacked into one sheet: a game's felts, panels, sprites and text colours.

    ``keep``: colours the palette holds exactly, whatever the sample's statistics: the
    small, saturated fills (a role badge, a wild card's ring, white text) that the octree
    would otherwise merge into a nearby grey, so a blue badge came out beige. They take
    their own entries; the rest of the ``colors`` are chosen from the sheet."""
    parts = [s.convert("RGB") for s in samples]
    width = max(p.width for p in parts)
    sheet = Image.new("RGB", (width, sum(p.height for p in parts)))
    y = 0
    for p in parts:
        sheet.paste(p, (0, y))
        y += p.height
    kept = list(dict.fromkeys(tuple(c[:3]) for c in keep))
    chosen = sheet.quantize(
        max(2, colors - len(kept)), method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
    )
    if not kept:
        return chosen
    entries = bytes(chosen.getpalette("RGB") or [])
    have = {tuple(entries[i : i + 3]) for i in range(0, len(entries), 3)}
    extra = bytes(v for c in kept if c not in have for v in c)
    out = Image.new("P", (1, 1))
    out.putpalette(entries + extra, "RGB")
    return out
