"""The picture posted when a deal ends: the game's score sheet of the deal, then every
hand face up as it stood at the end (a render-pool job: it replays the log, off the bot's
event loop; no Discord).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image

from bot.games import game_spec
from bot.render.draw import FELT_GREEN, felt
from bot.render.encode import to_png
from bot.render.worker import drawable_names
from bot.replay.reveal import last_deal_end

log = logging.getLogger(__name__)

#: Width of the hands picture when the game draws no score sheet to match (narrow enough
#: that its texts stay 10 px or more in Discord's ~550 px inline preview).
HANDS_WIDTH = 760

#: (index of the action that ended the deal, each seat's hand then), or None.
Reveal = tuple[int, tuple[tuple[str, ...], ...]] | None


def deal_end_png(
    game: str,
    seed: int | str,
    names: Sequence[str],
    options: Mapping[str, Any],
    log_: Sequence[tuple[int, str]],
    public_view: dict[str, Any],
    locale: str = "en-US",
) -> tuple[Reveal, bytes | None]:
    """(the hands at the end of the last deal in ``log_``, the PNG of its summary).

    The summary is the game's ``render_deal_summary`` of ``public_view`` (if it draws
    one) over the hands face up (unless the game's summary shows them already), its words
    in ``locale`` (the table's language). The hands are None when they could not be worked
    out (the log is then only summed up)."""
    spec = game_spec(game)
    renderers = spec.renderers()
    parts: list[Image.Image] = []
    summary_fn = renderers.render_deal_summary
    if summary_fn is not None:
        summary = summary_fn(drawable_names(public_view), locale=locale)
        if summary is not None:
            parts.append(summary.convert("RGB"))
    reveal: Reveal = None
    if not spec.summary_shows_hands:
        try:
            end = last_deal_end(game, seed, names, options, log_)
        except Exception:
            log.exception("%s: the hands at the end of the deal could not be worked out", game)
            end = None
        if end is not None:
            reveal = (end.index, end.hands)
            if any(end.hands):
                from bot.replay.render import hands_panel

                width = max((p.width for p in parts), default=HANDS_WIDTH)
                views = [
                    {"seat": seat, "players": list(names), spec.hand_key: list(hand)}
                    for seat, hand in enumerate(end.hands)
                ]
                parts.append(hands_panel(game, views, width, locale))
    if not parts:
        return reveal, None
    width = max(p.width for p in parts)
    out = felt((width, sum(p.height for p in parts)), FELT_GREEN).copy()
    y = 0
    for part in parts:
        out.paste(part, ((width - part.width) // 2, y))
        y += part.height
    palette = renderers.png_palette
    return reveal, to_png(out, palette=palette() if palette is not None else True)


__all__ = ["HANDS_WIDTH", "deal_end_png"]
