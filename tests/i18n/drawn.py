"""What a renderer draws as text, and whether any of it is English a catalog translates.

Every string drawn on an image goes through FreeType's ``getmask2`` (Pillow's ``text``,
``bot.render.draw``'s cached glyph masks): :func:`drawn_text` records those strings while a
renderer runs (with the text and sprite caches emptied first, so nothing is skipped), and
:func:`english_leaks` names the drawn strings that are — or contain — the English of a
message the locale's catalog translates: a label that was not localised.
:func:`english_in_messages` does the same for what the bot sends to Discord (message
texts, embeds, button labels, select options), Discord's markup set aside.
"""

from __future__ import annotations

import functools
import re
import string
import sys
from collections.abc import Iterator
from contextlib import contextmanager

from PIL import ImageFont

from bot import i18n


def _clear_caches() -> None:
    """Empty every lru cache of the render modules (glyph masks, label sprites)."""
    for name, module in list(sys.modules.items()):
        if not (name.startswith("bot.render") or name.startswith("bot.games")):
            continue
        for value in list(vars(module).values()):
            if isinstance(value, functools._lru_cache_wrapper):
                value.cache_clear()


@contextmanager
def drawn_text() -> Iterator[list[str]]:
    """Collect the text drawn inside the ``with`` block."""
    drawn: list[str] = []
    original = ImageFont.FreeTypeFont.getmask2

    def recording(self, text, *args, **kwargs):  # type: ignore[no-untyped-def]
        drawn.append(str(text))
        return original(self, text, *args, **kwargs)

    _clear_caches()
    ImageFont.FreeTypeFont.getmask2 = recording  # type: ignore[method-assign]
    try:
        yield drawn
    finally:
        ImageFont.FreeTypeFont.getmask2 = original  # type: ignore[method-assign]
        _clear_caches()


@functools.cache
def _english_patterns(locale: str) -> tuple[re.Pattern[str], ...]:
    """A pattern per message the catalog translates differently from its English: the id
    with its ``{fields}`` as wildcards, matched as whole words. Not for a message whose
    words are all fields (``{move}: {cards}``: it would match anything), nor one whose
    translation keeps its English (Panda（パンダ）)."""
    patterns = []
    for message in i18n.catalog(locale):
        if not message.id or not message.string:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        for english in ids:
            pieces = list(string.Formatter().parse(english))
            words = "".join(literal for literal, *_ in pieces)
            if any(english in form for form in forms) or not re.search(r"[A-Za-z]{2}", words):
                continue
            parts = []
            for literal, field, _spec, _conv in pieces:
                parts.append(re.escape(literal))
                if field is not None:
                    parts.append(".+?")
            patterns.append(re.compile(r"(?<![A-Za-z])" + "".join(parts) + r"(?![A-Za-z])"))
    return tuple(patterns)


def english_leaks(drawn: list[str], locale: str) -> list[str]:
    """The drawn strings holding English that ``locale``'s catalog translates."""
    patterns = _english_patterns(i18n.normalize(locale))
    return sorted({s for s in drawn if any(p.search(s) for p in patterns)})


#: Discord markup that is no language: mentions, channels, custom emoji, timestamps,
#: code spans (command names, incident ids).
_MARKUP = re.compile(r"<(?:[@#][!&]?\d+|a?:\w+:\d+|t:\d+(?::\w)?)>|`[^`]*`")


def english_in_messages(texts: list[str], locale: str) -> list[str]:
    """The texts (what the bot sent: contents, embed texts, labels, options) holding
    English that ``locale``'s catalog translates; mentions, timestamps and code spans are
    not read."""
    return english_leaks([_MARKUP.sub(" ", text) for text in texts if text], locale)
