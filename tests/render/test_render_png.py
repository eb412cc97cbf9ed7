"""Every game's images through the render worker's path (draw, then the game's fixed
palette): valid PNGs of the expected size, under the size limit; caches are bounded."""

from __future__ import annotations

import importlib
import io
import random
import statistics
from concurrent.futures import ProcessPoolExecutor
from functools import _lru_cache_wrapper
from multiprocessing import get_context
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageStat

from bot.games import GAME_NAMES
from bot.games.panda.render import TABLE_SIZE
from bot.render import draw, encode, fonts, worker
from bot.render.worker import render_png

# bytes; plain felt, fixed 48-64-colour palettes and compact layouts: tables are 23-40 KiB at
# the median (the hanafuda ones, with the most card art, the largest), busy ones up to the
# encoder's cap; hands under 40 KiB
TABLE_PNG_MEDIAN_LIMIT = 40 * 1024
HAND_PNG_LIMIT = 40 * 1024
PLAYERS = {2: ["Alice", "Bob"], 4: ["Alice", "Bob", "Chen", "Dana"]}


def _views(game: str, steps: int = 40) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Spectator and acting-seat views of a short seeded AI-played match."""
    mod = importlib.import_module(f"bot.games.{game}")
    state = mod.new_game(11, PLAYERS[mod.SEATS])
    rng = random.Random(11)
    tables, hands = [], []
    for step in range(steps):
        if state.is_over or not state.to_act:
            break
        seat = state.to_act[0]
        if step % 10 == 0:
            tables.append(state.view(None))
            hands.append(state.view(seat))
        state.apply(seat, mod.choose(state.view(seat), state.legal_actions(seat), rng))
    return tables, hands


def _decode(png: bytes) -> Image.Image:
    assert png.startswith(b"\x89PNG")
    img = Image.open(io.BytesIO(png))
    img.load()
    return img


@pytest.mark.parametrize("game", GAME_NAMES)
def test_table_and_hand_pngs(game: str) -> None:
    render = importlib.import_module(f"bot.games.{game}.render")
    assert callable(getattr(render, "png_palette", None))  # encoded with a fixed palette
    tables, hands = _views(game)
    assert tables and hands
    sizes = []
    for view in tables:
        expected = render.render_table(view).size
        png = render_png(game, "render_table", view)
        assert png is not None and len(png) <= encode.PNG_SIZE_CAP
        sizes.append(len(png))
        img = _decode(png)
        assert img.size == expected and img.mode == "P"
        # (Koi-Koi's and Mushi's, 790 px, are the narrowest: laid out for the ~550 px
        # inline preview)
        assert 790 <= img.width <= 1400 and 500 <= img.height <= 900
    assert statistics.median(sizes) <= TABLE_PNG_MEDIAN_LIMIT
    for view in hands:
        png = render_png(game, "render_hand", view)
        assert png is not None and len(png) < HAND_PNG_LIMIT
        assert _decode(png).size == render.render_hand(view).size


def test_fixed_palette_keeps_the_picture() -> None:
    tables, _ = _views("panda")
    from bot.games.panda.render import png_palette, render_table

    rgb = render_table(tables[-1])
    back = _decode(encode.to_png(rgb, palette=png_palette())).convert("RGB")
    mean = sum(ImageStat.Stat(ImageChops.difference(rgb, back)).mean) / 3
    assert mean < 4


def test_a_kept_colour_is_an_exact_entry_of_the_fixed_palette() -> None:
    """A colour passed as ``keep`` is mapped onto itself, whatever the sheet's statistics,
    and the palette stays within its size."""
    sheet = Image.new("RGB", (400, 300), (40, 90, 60))
    for i in range(40):  # many greys and greens, one tiny blue patch
        sheet.paste((100 + i * 3, 110 + i * 3, 100 + i * 3), (i * 10, 0, i * 10 + 10, 290))
    blue = (110, 180, 230)
    sheet.paste(blue, (0, 290, 3, 293))
    kept = encode.palette_from([sheet], 16, keep=[blue, (255, 255, 255)])
    patch = Image.new("RGB", (8, 8), blue)
    back = _decode(encode.to_png(patch, palette=kept)).convert("RGB")
    assert back.getpixel((0, 0)) == blue
    assert len(kept.getpalette() or []) <= 16 * 3


@pytest.mark.parametrize("game", GAME_NAMES)
def test_every_game_palette_holds_its_text_and_badge_colours(game: str) -> None:
    """The colours a game's tables write text and badges in (those it samples for its
    palette) are entries of its fixed palette: the San Da Yi Defender badge was beige."""
    render = importlib.import_module(f"bot.games.{game}.render")
    from bot.render.draw import GOLD, MUTED, WHITE

    entries = render.png_palette().getpalette() or []
    palette = {tuple(entries[i : i + 3]) for i in range(0, len(entries), 3)}
    named = [WHITE, MUTED, GOLD]
    if game == "sandayi":
        named += [render.DECLARER_COLOUR, render.DEFENDER_COLOUR, render.GOOD, render.BAD]
    if game == "mushi":
        named += [render.WILD_COLOUR, render.LOSS_RED]
    for colour in named:
        assert colour in palette, colour


def test_palette_png_is_the_image_exactly() -> None:
    """The fast writer's PNG decodes to the very palette indices and colours it was given,
    odd widths included (each row carries its own filter byte)."""
    img = Image.new("RGB", (301, 77), (20, 60, 40))
    img.paste((240, 200, 60), (13, 5, 150, 70))
    img.paste((200, 30, 30), (151, 0, 152, 77))
    pal = img.quantize(8)
    png = encode.palette_png(pal)
    back = _decode(png)
    assert back.mode == "P" and back.size == (301, 77)
    assert back.tobytes() == pal.tobytes()
    assert back.convert("RGB").tobytes() == pal.convert("RGB").tobytes()
    assert encode.to_png(img, palette=pal) == encode.palette_png(img.quantize(palette=pal))


def test_an_image_over_the_cap_is_deflated_harder() -> None:
    """Noise defeats the fast deflate: past the cap, zlib's level 6 writes it (and it is
    still the same picture)."""
    rng = random.Random(5)
    img = Image.frombytes("L", (640, 400), bytes(rng.randrange(4) * 60 for _ in range(256_000)))
    pal = img.convert("RGB").quantize(4)
    fast = encode.palette_png(pal)
    assert len(fast) > encode.PNG_SIZE_CAP
    png = encode.to_png(pal)
    assert len(png) < len(fast)
    assert _decode(png).convert("RGB").tobytes() == pal.convert("RGB").tobytes()


def test_adaptive_palette_default_and_full_colour() -> None:
    img = Image.new("RGB", (300, 200), (20, 60, 40))
    img.paste((240, 200, 60), (50, 50, 150, 120))
    assert _decode(encode.to_png(img)).mode == "P"
    assert _decode(encode.to_png(img, palette=False)).mode == "RGB"
    assert _decode(encode.to_png(img)).convert("RGB").getpixel((60, 60)) == (240, 200, 60)


def test_render_caches_are_bounded() -> None:
    modules = [draw, encode, fonts, worker] + [
        importlib.import_module(f"bot.games.{g}.render") for g in GAME_NAMES
    ]
    modules.append(importlib.import_module("bot.games.hanafuda.render"))
    for mod in modules:
        for name, obj in vars(mod).items():
            if isinstance(obj, _lru_cache_wrapper) and obj.__module__ == mod.__name__:
                assert obj.cache_parameters()["maxsize"] is not None, f"{mod.__name__}.{name}"


def test_renders_in_a_worker_process() -> None:
    tables, _ = _views("panda", steps=10)
    with ProcessPoolExecutor(max_workers=1, mp_context=get_context("spawn")) as pool:
        png = pool.submit(render_png, "panda", "render_table", tables[0]).result(timeout=120)
    assert png is not None and _decode(png).size == TABLE_SIZE  # Panda's


def test_a_sprite_over_its_shadow_is_one_paste_of_the_same_picture() -> None:
    """``paste_with_shadow`` pastes a composite of sprite and shadow: within one unit of
    pasting the shadow, then the sprite; the same pixels every time; a sprite drawn once is
    not kept alive by the cache."""
    import gc
    import weakref

    sprite = draw.card_frame((40, 56), fill=(230, 220, 200))
    canvas = Image.new("RGB", (120, 120), (20, 90, 50))
    expected = canvas.copy()
    sh = draw.shadow(sprite.size, max(2, 40 // 12))
    pad = 2 * draw.SHADOW_BLUR
    ox, oy = draw.SHADOW_OFFSET
    expected.paste(sh, (30 - pad + ox, 30 - pad + oy), sh)
    expected.paste(sprite, (30, 30), sprite)
    first, second = canvas.copy(), canvas.copy()
    draw.paste_with_shadow(first, sprite, (30, 30))
    draw.paste_with_shadow(second, sprite, (30, 30))
    assert first.tobytes() == second.tobytes()
    diff = ImageChops.difference(first, expected).getextrema()
    assert max(hi for _, hi in diff) <= 1
    assert ImageChops.difference(first, canvas).getbbox() is not None  # something was drawn
    gone = weakref.ref(sprite)
    del sprite
    gc.collect()
    assert gone() is None
