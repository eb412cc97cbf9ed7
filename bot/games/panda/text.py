"""Small pieces of Panda's sentences that several modules share (all :class:`Text`).

Sentences are built whole, as one message each; these join finished ones the way each
language does (a space in English and Korean, nothing between Japanese or Chinese
sentences) and name places and score lines.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n.text import Text


def sentences(*parts: str | None) -> str:
    """The sentences in ``parts`` (None skipped) one after the other: ``A. B.``."""
    kept = [p for p in parts if p]
    if not kept:
        return ""
    out = kept[0]
    for part in kept[1:]:
        out = Text("{sentence} {more}", sentence=out, more=part)
    return out


def semicolons(parts: Sequence[str]) -> str:
    """``a; b; c`` (the score lines of a hand, said in one sentence)."""
    if not parts:
        return ""
    out = parts[0]
    for part in parts[1:]:
        out = Text("{item}; {next}", item=out, next=part)
    return out


def commas(parts: Sequence[str]) -> str:
    """``a, b, c``: a list of cards or names, joined as the catalog says (``A、B、C``)
    rather than by Babel's list patterns (``A、B和C``, ``A, B 및 C``), which glue their word
    to the Latin names of the deck and hold characters the bundled font may lack."""
    if not parts:
        return ""
    out = parts[0]
    for part in parts[1:]:
        out = Text("{item}, {next}", item=out, next=part)
    return out


def place(n: int) -> str:
    """``1st`` .. ``4th`` for ``n`` = 0..3 (the order in which players went out)."""
    return (Text("1st"), Text("2nd"), Text("3rd"), Text("4th"))[n]
