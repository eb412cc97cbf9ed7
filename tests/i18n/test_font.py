"""Every character of every catalog is drawn by the bundled font (images/fonts/), regular
and bold: the next slices put translated text into the pictures. A catalog that needs a
new character: regenerate the subset with scripts/subset_font.py (it reads the catalogs)."""

from __future__ import annotations

import pytest

from bot import i18n
from bot.render.charts import has_glyph


@pytest.mark.parametrize("locale", i18n.TRANSLATED)
@pytest.mark.parametrize("bold", [False, True], ids=["regular", "bold"])
def test_the_font_draws_every_catalog_character(locale: str, bold: bool) -> None:
    text = set()
    for m in i18n.catalog(locale):
        if m.id:
            text.update(*(m.string if isinstance(m.string, tuple) else (m.string,)))
    assert len(text) > 20
    missing = sorted(ch for ch in text if not has_glyph(ch, bold) and not _emoji(ch))
    assert missing == [], f"the font lacks {''.join(missing)!r}: run scripts/subset_font.py"


def _emoji(ch: str) -> bool:
    """An emoji (⏰, 🤖): it only begins messages Discord shows as text, drawn by the reader's
    own emoji font (no subset font has them); what is drawn on the pictures is checked
    character by character by each game's picture tests (tests/i18n/test_*_i18n.py)."""
    return ord(ch) >= 0x1F000 or 0x23E9 <= ord(ch) <= 0x23FA  # (⏰ ⏳: emoji-style clocks)


def test_the_glyph_check_sees_a_missing_character() -> None:
    assert has_glyph("한") and has_glyph("卓") and has_glyph("こ")
    assert not has_glyph("\U0001d11e")  # musical G clef: not in the subset
