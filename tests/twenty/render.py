"""Twenty's pictures (Pillow): the running total and the points, a seat's cards."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from PIL import Image

from bot.render.draw import FELT_BLUE, GOLD, INK, PAPER, WHITE, Draw, draw_text, felt, panel

CARD = (46, 66)


@lru_cache(maxsize=8)
def card_face(code: str) -> Image.Image:
    """A number card face up."""
    img = Image.new("RGBA", CARD, PAPER)
    d = Draw(img)
    d.rectangle((0, 0, CARD[0] - 1, CARD[1] - 1), outline=INK, width=2)
    draw_text(d, (CARD[0] // 2, CARD[1] // 2), code, 28, INK, bold=True, anchor="mm")
    return img


def render_table(view: Mapping[str, Any], locale: str = "en-US") -> Image.Image:
    img = felt((420, 180), FELT_BLUE).copy()
    inner = panel(img, (10, 10, 410, 170), title=f"Round {view['round']}/{view['rounds']}")
    d = Draw(img)
    total = f"{view['total']} / {view['goal']}"
    draw_text(d, (210, inner[1] + 40), total, 40, GOLD, bold=True, anchor="mm")
    for seat, name in enumerate(view["players"]):
        line = f"{'▶ ' if view['turn'] == seat and not view['is_over'] else ''}{name}"
        y = inner[1] + 85 + 28 * seat
        draw_text(d, (inner[0] + 10, y), line, 18, WHITE)
        draw_text(d, (inner[2] - 10, y), str(view["points"][seat]), 18, WHITE, anchor="ra")
    return img


def render_hand(view: Mapping[str, Any], locale: str = "en-US") -> Image.Image:
    cards = view.get("cards") or []
    img = felt((40 + 56 * max(1, len(cards)), 100), FELT_BLUE).copy()
    for i, code in enumerate(cards):
        face = card_face(code)
        img.paste(face, (20 + 56 * i, 17), face)
    return img
