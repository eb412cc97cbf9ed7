"""What a renderer draws, recorded, to check a picture reads at Discord's inline preview
width (~550 px): every text's font size and every card's size, scaled to that width."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

import pytest
from PIL import Image, ImageDraw

from bot.render import draw as draw_module

PREVIEW_W = 550
MIN_TEXT_PX = 9  # a text's font size at PREVIEW_W (its x-height is then about 5 px)
MIN_CARD_PX = 20  # a card's height at PREVIEW_W


@dataclass
class Drawn:
    """Font sizes of the texts drawn (with the size of the image they were drawn on) and
    the sizes of the card sprites made, since the last ``clear``."""

    texts: list[tuple[int, tuple[int, int], str]] = field(default_factory=list)
    cards: list[tuple[int, int]] = field(default_factory=list)

    def clear(self) -> None:
        self.texts.clear()
        self.cards.clear()

    def check(self, picture: Image.Image, what: str = "") -> None:
        """Scaled to PREVIEW_W, every text drawn on ``picture`` (or on a part of it as wide:
        a panel stacked under another) is at least MIN_TEXT_PX and every card at least
        MIN_CARD_PX tall (texts on narrower images are the cards' own); then forget them."""
        scale = PREVIEW_W / picture.width
        on_picture = [(size, text) for size, on, text in self.texts if on[0] == picture.width]
        assert on_picture, f"{what}: no text recorded on the picture"
        small = sorted({(size, text) for size, text in on_picture if size * scale < MIN_TEXT_PX})
        assert not small, f"{what} ({picture.width} px wide): texts under {MIN_TEXT_PX} px: {small}"
        tiny = sorted({h for _, h in self.cards if h * scale < MIN_CARD_PX})
        assert not tiny, f"{what} ({picture.width} px wide): cards under {MIN_CARD_PX} px: {tiny}"
        self.clear()


def record_drawing(
    monkeypatch: pytest.MonkeyPatch, card_makers: Iterable[tuple[ModuleType, str]]
) -> Drawn:
    """Record every text drawn from now on, and the size of every sprite returned by the
    ``(module, function name)`` card makers (as the renderers look them up)."""
    drawn = Drawn()
    cached_text = draw_module.cached_text
    plain_text = ImageDraw.ImageDraw.text

    def recording_cached(draw: ImageDraw.ImageDraw, xy: Any, text: str, fnt: Any, *a: Any, **k: Any) -> None:  # fmt: skip
        drawn.texts.append((round(fnt.size), draw.im.size, text))
        cached_text(draw, xy, text, fnt, *a, **k)

    def recording_plain(self: ImageDraw.ImageDraw, xy: Any, text: Any, fill: Any = None, font: Any = None, *a: Any, **k: Any) -> None:  # fmt: skip
        if font is not None and hasattr(font, "size"):
            drawn.texts.append((round(font.size), self.im.size, str(text)))
        plain_text(self, xy, text, fill, font, *a, **k)

    monkeypatch.setattr(draw_module, "cached_text", recording_cached)
    monkeypatch.setattr(ImageDraw.ImageDraw, "text", recording_plain)
    for module, name in card_makers:
        make = getattr(module, name)

        def recording_card(*a: Any, _make: Any = make, **k: Any) -> Image.Image:
            sprite = _make(*a, **k)
            drawn.cards.append(sprite.size)
            return sprite

        monkeypatch.setattr(module, name, recording_card)
    return drawn
