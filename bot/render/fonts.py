"""The single bundled font family (a subset of Noto Sans CJK), loaded by size."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from PIL import ImageFont

FONT_DIR = Path(__file__).resolve().parents[2] / "images" / "fonts"
_FILES = {False: "TeahouseSans-Regular.otf", True: "TeahouseSans-Bold.otf"}


def font_path(bold: bool = False) -> Path:
    """Path of the regular or bold font file."""
    return FONT_DIR / _FILES[bold]


@lru_cache(maxsize=128)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The Teahouse font at `size` pixels; cached because loading costs ~ms."""
    return ImageFont.truetype(str(font_path(bold)), size)
