"""Twenty's registration, for a test's duration: what ``GAME_NAMES`` and ``PACKAGES`` in
``bot/games/__init__.py`` would say of a game of the bot's own."""

from __future__ import annotations

import pytest

import bot.games
from bot.engine.spec import GameSpec
from tests.twenty import NAME, SPEC


def register(monkeypatch: pytest.MonkeyPatch) -> GameSpec:
    monkeypatch.setattr(bot.games, "GAME_NAMES", (*bot.games.GAME_NAMES, NAME))
    monkeypatch.setitem(bot.games.PACKAGES, NAME, SPEC.package)
    return SPEC
