"""Rendering in a separate process, so drawing never holds the bot's event loop (or GIL).

``render_png(game, what, view, locale)`` is a pure function of its arguments: it imports the render
module the game's spec names and returns PNG bytes (None if the game has no such renderer).
Sprite, text and palette caches live in each worker process (bounded lru caches).
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import os
from concurrent.futures import Executor, ThreadPoolExecutor
from typing import Any

from bot.render.encode import to_png
from bot.render.pipes import PipePool

log = logging.getLogger(__name__)

_pool: Executor | None = None
#: Jobs each worker holds at once (see :class:`~bot.render.pipes.PipePool`).
RENDER_DEPTH = 2
#: How much nicer (lower CPU priority) render workers are than the bot's process.
RENDER_NICENESS = 5


def render_png(game: str, what: str, view: dict[str, Any], locale: str = "en-US") -> bytes | None:
    from bot.games import game_spec

    renderers = game_spec(game).renderers()
    fn = getattr(renderers, what, None)
    if fn is None:
        return None
    image = fn(drawable_names(view), locale=locale)
    if image is None:
        return None
    # A game's fixed palette (built once per process) saves choosing one per image.
    palette = renderers.png_palette
    return to_png(image, palette=palette() if palette is not None else True)


def drawable_names(view: dict[str, Any]) -> dict[str, Any]:
    """The view with player names the bundled font can draw (an emoji in a name would be an
    empty box): the picture only — the stored names, and those in messages, keep them."""
    from bot.render.charts import drawable

    players = view.get("players")
    if not isinstance(players, list | tuple):
        return view
    return {**view, "players": [drawable(str(name), bold=True) for name in players]}


def _start_worker() -> None:
    """A render worker's start: a lower CPU priority than the bot's own process (whose
    event loop answers clicks: a picture may wait a moment, an answer should not), and
    the renderers imported up front (so the first real render is not slowed by imports)."""
    with contextlib.suppress(OSError, AttributeError):  # (no os.nice on some platforms)
        os.nice(RENDER_NICENESS)
    from bot.games import check_games

    check_games(load_renderers=True)


def default_render_processes() -> int:
    """Render workers when the settings do not say: one less than the cores, at least one."""
    return max(1, (os.cpu_count() or 2) - 1)


def start_pool(processes: int | None = None) -> Executor:
    """The shared render pool with its workers started now (called as the bot starts: a
    worker's start, its imports, overlaps logging in rather than delaying the first picture
    — after a restart, the fresh DM of a person who has no controls)."""
    executor = pool(processes)
    if isinstance(executor, PipePool):
        executor.start()
    return executor


def pool(processes: int | None = None) -> Executor:
    """The shared render pool, created on first use: ``processes`` worker processes
    (default one less than the cores, at least one) fed through pipes by the event loop
    (:class:`bot.render.pipes.PipePool`); 0 renders in threads instead."""
    global _pool
    if _pool is None:
        workers = default_render_processes() if processes is None else processes
        if workers <= 0:
            _pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="render")
        else:
            _pool = PipePool(workers, initializer=_start_worker, depth=RENDER_DEPTH)
        atexit.register(_pool.shutdown, wait=False, cancel_futures=True)
        log.info("render pool: %s", _pool)
    return _pool
