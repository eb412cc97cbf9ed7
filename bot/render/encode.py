"""In-memory image encoding for Discord attachments."""

from __future__ import annotations

import io

from PIL import Image

# zlib level 6 is the knee of the curve: level 9 costs ~2x the time for ~2% fewer bytes.
PNG_COMPRESS_LEVEL = 6


def to_png(img: Image.Image, *, palette: bool = True, colors: int = 256) -> bytes:
    """Encode `img` as PNG bytes.

    With `palette` (default) the image is first reduced to an adaptive 256-colour
    palette (fast octree, no dithering): table art is flat colours and antialiased
    edges, so the look is kept while the file shrinks ~3x and encodes faster.
    """
    if img.mode not in ("RGB", "RGBA", "P", "L"):
        img = img.convert("RGBA" if "A" in img.getbands() else "RGB")
    if palette and img.mode in ("RGB", "RGBA"):
        img = img.quantize(
            colors=colors, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
        )
    buf = io.BytesIO()
    img.save(buf, format="PNG", compress_level=PNG_COMPRESS_LEVEL)
    return buf.getvalue()
