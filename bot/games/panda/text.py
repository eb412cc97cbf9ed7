"""Small pieces of Panda's sentences that several modules share (all :class:`Text`).

Sentences are built whole, as one message each; these join finished ones the way each
language does (a space in English and Korean, nothing between Japanese or Chinese
sentences) and name places and score lines.
"""

from __future__ import annotations

from bot.i18n.text import Text, commas, semicolons, sentences

__all__ = ["commas", "place", "semicolons", "sentences"]


def place(n: int) -> str:
    """``1st`` .. ``4th`` for ``n`` = 0..3 (the order in which players went out)."""
    return (Text("1st"), Text("2nd"), Text("3rd"), Text("4th"))[n]
