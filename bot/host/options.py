"""Server-side validation of a table's options, whatever the client sent.

Discord clients enforce a slash option's range and choices, but a forged interaction need
not: discord.py passes the raw value on. Every option is checked here before a table opens.
"""

from __future__ import annotations

from typing import Any

from bot.engine.core import parse_options
from bot.games import game_module

#: Options the host keeps for itself; the rest go to the game.
HOST_OPTIONS = ("turn_seconds",)

#: Inclusive ranges of whole-number options (the same as the slash commands declare).
RANGES: dict[tuple[str | None, str], tuple[int, int]] = {
    (None, "turn_seconds"): (15, 3600),
    ("panda", "target"): (100, 10000),
    ("sandayi", "hands"): (1, 40),
    ("mahjong", "max_hands"): (0, 200),
}


def game_options(options: dict[str, Any]) -> dict[str, Any]:
    """A table's options without the host's own (what the game's ``new_game`` takes)."""
    return {k: v for k, v in options.items() if k not in HOST_OPTIONS}


def validate_options(game: str, options: dict[str, Any]) -> dict[str, Any]:
    """The options as given if every one is known and within range; else ValueError with a
    message a player can read."""
    module = game_module(game)
    for name, value in options.items():
        bounds = RANGES.get((None, name)) or RANGES.get((game, name))
        if bounds is None:
            continue
        low, high = bounds
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"Option {name} must be a whole number.")
        if not low <= value <= high:
            raise ValueError(f"Option {name} must be between {low} and {high}, not {value}.")
    parse_options(module.OPTIONS, game_options(options))
    return options
