"""Twenty's registration, for a test's duration: what ``GAME_NAMES`` and ``PACKAGES`` in
``bot/games/__init__.py`` would say of a game of the bot's own."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

import bot.games
import bot.render.worker
from bot.engine.spec import GameSpec
from tests.twenty import NAME, SPEC


def register(monkeypatch: pytest.MonkeyPatch) -> GameSpec:
    monkeypatch.setattr(bot.games, "GAME_NAMES", (*bot.games.GAME_NAMES, NAME))
    monkeypatch.setitem(bot.games.PACKAGES, NAME, SPEC.package)
    # Registered in this process only: render worker processes (the shared pool an earlier
    # test may have started) would not know the game, so its pictures render in threads.
    monkeypatch.setattr(
        bot.render.worker, "_pool", ThreadPoolExecutor(2, thread_name_prefix="render-twenty")
    )
    return SPEC
