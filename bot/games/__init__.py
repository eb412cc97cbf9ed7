"""The games Teahouse hosts, by short name.

Each ``bot.games.<name>`` package exports ``NAME``, ``TITLE``, ``SEATS``, ``OPTIONS`` (its
options dataclass), ``new_game``, ``replay``, ``choose`` and ``controls`` (pure), and has a
``render`` module (Pillow) with ``render_table(view)`` and ``render_hand(view)``.
"""

from __future__ import annotations

import importlib
from types import ModuleType

#: Games that are implemented, in the order menus show them.
GAME_NAMES: tuple[str, ...] = ("koikoi", "mushi", "panda", "sandayi", "mahjong")


def game_module(name: str) -> ModuleType:
    if name not in GAME_NAMES:
        raise KeyError(f"unknown game {name!r}")
    return importlib.import_module(f"bot.games.{name}")


def render_module(name: str) -> ModuleType:
    if name not in GAME_NAMES:
        raise KeyError(f"unknown game {name!r}")
    return importlib.import_module(f"bot.games.{name}.render")


def rules_summary(name: str) -> str:
    """The short rules text shown by ``/rules`` (``bot/games/<name>/summary.md``)."""
    from importlib import resources

    return resources.files(f"bot.games.{name}").joinpath("summary.md").read_text(encoding="utf-8")
