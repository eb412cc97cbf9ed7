"""The games Teahouse hosts, by short name.

Each ``bot.games.<name>`` package exports ``SPEC``, its :class:`~bot.engine.spec.GameSpec`
(name, title, seats, options dataclass, ``new_game``, ``replay``, ``choose``, ``controls``,
``describe``, ``hint``, teams, option bounds, answer phases, status progress), built from
its pure modules, and has a ``render`` module (Pillow) with ``render_table(view)`` and
``render_hand(view)``. Registering a game is one line: its name in :data:`GAME_NAMES`.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from bot.engine.spec import GameSpec

#: The registered games, in the order menus show them.
GAME_NAMES: tuple[str, ...] = ("koikoi", "mushi", "panda", "sandayi", "mahjong")


def game_module(name: str) -> ModuleType:
    if name not in GAME_NAMES:
        raise KeyError(f"unknown game {name!r}")
    return importlib.import_module(f"bot.games.{name}")


def game_spec(name: str) -> GameSpec:
    """The registered game's spec (KeyError for a name that is not registered)."""
    spec = game_module(name).SPEC
    if not isinstance(spec, GameSpec) or spec.name != name:
        raise TypeError(f"bot.games.{name}.SPEC is not the GameSpec of {name!r}")
    return spec


def render_module(name: str) -> ModuleType:
    return game_spec(name).renderers()


def rules_summary(name: str, locale: object = None) -> str:
    """The short rules text shown by ``/rules``: ``bot/games/<name>/summary.<locale>.md`` for
    a translated locale (``ja``, ``zh-CN``, ``zh-TW``, ``ko``; a ``discord.Locale`` or its
    value), else the English ``summary.md``."""
    from importlib import resources

    from bot.i18n import TRANSLATED, normalize

    if name not in GAME_NAMES:
        raise KeyError(f"unknown game {name!r}")
    folder = resources.files(f"bot.games.{name}")
    loc = normalize(locale)
    if loc in TRANSLATED:
        localised = folder.joinpath(f"summary.{loc}.md")
        if localised.is_file():
            return localised.read_text(encoding="utf-8")
    return folder.joinpath("summary.md").read_text(encoding="utf-8")
