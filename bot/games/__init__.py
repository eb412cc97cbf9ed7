"""The games Teahouse hosts, by short name.

Each game's package (``bot.games.<name>``) exports ``SPEC``, its
:class:`~bot.engine.spec.GameSpec` — the one thing the bot knows of the game (see
docs/architecture.md, "The game contract") — and holds its ``render`` module (the spec's
:class:`~bot.engine.spec.Renderers`) and its ``summary.md`` for ``/rules``; its cog
(``cogs/<name>.py``) opens tables. Registering a game is its name in :data:`GAME_NAMES` (and,
for a package outside ``bot.games``, where it lives in :data:`PACKAGES`).
"""

from __future__ import annotations

import importlib
from types import ModuleType

from bot.engine.spec import GameSpec, Renderers

#: The registered games, in the order menus show them.
GAME_NAMES: tuple[str, ...] = ("koikoi", "mushi", "panda", "sandayi", "mahjong")
#: The package of a registered game that is not ``bot.games.<name>``.
PACKAGES: dict[str, str] = {}


def game_names() -> tuple[str, ...]:
    """The registered games now (code that runs after start-up asks this rather than
    binding :data:`GAME_NAMES` at import: a test registers its own game for a while)."""
    return GAME_NAMES


def game_package(name: str) -> str:
    """Where a registered game's package is (KeyError for a name that is not registered)."""
    if name not in GAME_NAMES:
        raise KeyError(f"unknown game {name!r}")
    return PACKAGES.get(name, f"bot.games.{name}")


def game_module(name: str) -> ModuleType:
    """The game's package (the bot reads games through :func:`game_spec`; the games' own
    tests and benches import more of it)."""
    return importlib.import_module(game_package(name))


def game_spec(name: str) -> GameSpec:
    """The registered game's spec (KeyError for a name that is not registered)."""
    spec = game_module(name).SPEC
    if not isinstance(spec, GameSpec) or spec.name != name:
        raise TypeError(f"{game_package(name)}.SPEC is not the GameSpec of {name!r}")
    return spec


def game_title(name: str, locale: object = "en-US") -> str:
    """The game's name in ``locale`` (the glossary's: こいこい, 三打一, 마작)."""
    from bot.i18n import Text, gettext, localize

    title = game_spec(name).title
    if isinstance(title, Text):
        return str(localize(str(locale), title))
    return gettext(locale, str(title))


def check_games(*, load_renderers: bool = False) -> list[GameSpec]:
    """Every registered game's spec: TypeError (naming what is missing) for a game whose
    package or render module does not hold up, so a broken registration stops the bot's
    start instead of its first picture. The render modules are read, not imported (the
    bot's process leaves Pillow and the games' art to its render workers), unless
    ``load_renderers`` (a render worker: it imports them up front anyway)."""
    specs = [game_spec(name) for name in game_names()]
    for spec in specs:
        if load_renderers:
            spec.renderers()
        else:
            Renderers.check_declared(spec.render_module)
    return specs


def rules_summary(name: str, locale: object = None) -> str:
    """The short rules text shown by ``/rules``: ``summary.<locale>.md`` of the game's
    package for a translated locale (``ja``, ``zh-CN``, ``zh-TW``, ``ko``; a
    ``discord.Locale`` or its value), else its English ``summary.md``."""
    from importlib import resources

    from bot.i18n import TRANSLATED, normalize

    folder = resources.files(game_spec(name).package)
    loc = normalize(locale)
    if loc in TRANSLATED:
        localised = folder.joinpath(f"summary.{loc}.md")
        if localised.is_file():
            return localised.read_text(encoding="utf-8")
    return folder.joinpath("summary.md").read_text(encoding="utf-8")
