"""Hanafuda card art: every card renders, at the right size, distinct, with its class badge."""

from __future__ import annotations

import pytest
from PIL import Image, ImageDraw

from bot.games.hanafuda.cards import ALL_CARDS, ANIMAL, BRIGHT, PLAIN, RIBBON, card
from bot.games.hanafuda.render import (
    CARD_RATIO,
    RIBBON_BLUE,
    RIBBON_RED,
    SMALL_CARD,
    SUN_RED,
    card_back,
    card_height,
    card_image,
)
from bot.render.encode import to_png
from bot.render.fonts import font, font_path


def test_font_files_exist_and_cover_the_game_glyphs() -> None:
    for bold in (False, True):
        path = font_path(bold)
        assert path.exists() and path.stat().st_size < 2_000_000
    tofu = _glyph("\ue000")  # a private-use code point: the subset draws its .notdef box
    missing = [
        ch
        for ch in "松梅桜藤菖牡萩芒菊紅柳桐光種短カス猪鹿蝶東南西北中發白萬筒條抠底寿"
        if _glyph(ch) == tofu
    ]
    assert missing == []


def _glyph(ch: str) -> bytes:
    img = Image.new("L", (40, 40))
    ImageDraw.Draw(img).text((4, 4), ch, font=font(24), fill=255)
    return img.tobytes()


def test_font_is_cached() -> None:
    assert font(17) is font(17)
    assert font(17, bold=True) is not font(17)


@pytest.mark.parametrize("width", [40, 54, 80, 112, 160])
def test_every_card_renders_at_its_size(width: int) -> None:
    for code in ALL_CARDS:
        img = card_image(code, width)
        assert img.mode == "RGBA"
        assert img.size == (width, card_height(width))
        # rounded corners are transparent, the face is opaque
        assert img.getpixel((0, 0))[3] < 32
        assert img.getpixel((width // 2, img.height // 2))[3] == 255


def test_card_height_follows_the_ratio() -> None:
    assert card_height(100) == round(100 * CARD_RATIO)


def test_all_48_faces_differ() -> None:
    faces = {card_image(code, 80).tobytes() for code in ALL_CARDS}
    assert len(faces) == 48


def test_sprites_are_cached() -> None:
    assert card_image("1b", 80) is card_image("1b", 80)
    assert card_back(80) is card_back(80)


def test_unknown_code_is_rejected() -> None:
    with pytest.raises(ValueError):
        card_image("13b", 80)


def _share_near(
    img: Image.Image, box: tuple[int, int, int, int], colour: tuple[int, int, int]
) -> float:
    """Share of pixels in `box` within a small distance of `colour`."""
    raw = img.crop(box).convert("RGB").tobytes()
    pixels = [raw[i : i + 3] for i in range(0, len(raw), 3)]
    near = sum(1 for p in pixels if sum(abs(p[i] - colour[i]) for i in range(3)) < 60)
    return near / len(pixels)


def test_class_badge_colour_in_the_top_right_corner() -> None:
    expected = {BRIGHT: SUN_RED, ANIMAL: (38, 112, 64), PLAIN: (112, 108, 100)}
    width = 100
    for code in ALL_CARDS:
        c = card(code)
        colour = expected.get(c.cls)
        if c.cls == RIBBON:
            colour = RIBBON_BLUE if c.ribbon_colour == "blue" else RIBBON_RED
        # the badge hugs the top-right corner, one text line high
        assert _share_near(card_image(code, width), (width - 20, 3, width - 4, 20), colour) > 0.2, (
            code
        )


def test_month_label_is_light_in_the_top_left_corner() -> None:
    for code in ALL_CARDS:
        img = card_image(code, 100).convert("RGB")
        assert _share_near(img, (4, 4, 30, 18), (252, 248, 238)) > 0.3, code


def test_small_cards_use_shape_badges() -> None:
    # below SMALL_CARD the badge is a plain shape (no white kanji strokes): a red ribbon
    # marker is solid ribbon red, where the large badge mixes in its white kanji
    small = card_image("4r", SMALL_CARD - 12)
    w = small.width
    assert _share_near(small, (w - 8, 3, w - 4, 12), RIBBON_RED) > 0.8


def test_card_back_size_and_colours() -> None:
    back = card_back(60)
    assert back.size == (60, card_height(60))
    r, g, b, a = back.getpixel((6, back.height // 2 - 20))
    assert a == 255 and max(r, g, b) < 200


def test_a_sheet_encodes_as_png() -> None:
    sheet = Image.new("RGB", (12 * 60, 4 * 96), (20, 60, 40))
    for i, code in enumerate(ALL_CARDS):
        sprite = card_image(code, 60)
        sheet.paste(sprite, ((i // 4) * 60, (i % 4) * 96), sprite)
    png = to_png(sheet)
    assert png.startswith(b"\x89PNG")


# ----- the shared primitives the card art and tables are built from (bot.render.draw)


def test_felt_is_cached_and_sized() -> None:
    from bot.render.draw import felt

    assert felt((300, 200)) is felt((300, 200))
    assert felt((300, 200)).size == (300, 200) and felt((300, 200)).mode == "RGB"


def test_primitives_draw_on_a_canvas() -> None:
    from bot.render import draw as rd

    canvas = rd.felt((320, 200)).copy()
    inner = rd.panel(canvas, (10, 10, 310, 190), title="Panel")
    assert inner[1] > 10  # the title takes room
    frame = rd.card_frame((60, 96))
    assert frame.size == (60, 96) and frame.getpixel((30, 48))[:3] == rd.PAPER
    rd.paste_with_shadow(canvas, frame, (20, 40))
    d = ImageDraw.Draw(canvas)
    box = rd.badge(d, (300, 20), "光 3", 14, anchor="ra")
    assert box[2] == 300 and box[0] < 300
    rd.draw_text(d, (160, 100), "Koi-Koi 花札", 18, outline=rd.INK)
    rd.outline_box(d, (20, 40, 80, 136), rd.HIGHLIGHT)
    assert canvas.getpixel((50, 37))[:3] == rd.HIGHLIGHT
    assert rd.text_size("abc", font(20))[0] > 0


def test_fit_text_shrinks_then_ellipsizes() -> None:
    from bot.render.draw import fit_text

    assert fit_text("Bob", 200, 20) == ("Bob", 20)
    text, size = fit_text("W" * 80, 100, 20, min_size=10)
    assert size == 10 and text.endswith("…") and font(10).getlength(text) <= 100


def test_png_palette_encoding_is_smaller_and_decodes() -> None:
    import io

    sheet = Image.new("RGB", (300, 200), (20, 60, 40))
    for i, code in enumerate(ALL_CARDS[:8]):
        sprite = card_image(code, 60)
        sheet.paste(sprite, (i * 30, 10), sprite)
    small, full = to_png(sheet), to_png(sheet, palette=False)
    assert len(small) < len(full)
    assert Image.open(io.BytesIO(small)).size == (300, 200)
