"""Server-side validation of a table's options, whatever the client sent.

Discord clients enforce a slash option's range and choices, but a forged interaction need
not: discord.py passes the raw value on. Every option is checked here before a table opens:
the host's own options against :data:`HOST_BOUNDS`, the game's against its spec
(``option_bounds`` and its options dataclass).
"""

from __future__ import annotations

from typing import Any

from bot.games import game_spec
from bot.i18n import Text, localize

#: Options the host keeps for itself; the rest go to the game. ``claim_seconds``: the length
#: of an answer window (Mah-Jongg's claims), the table's own ``TEAHOUSE_CLAIM_SECONDS``.
#: ``hints``: the Hint button
#: is offered (absent until the start decides it, see :mod:`bot.host.hints`); ``hinted``:
#: the seats that asked for a hint (the match is then not rated), never given by a user.
HOST_OPTIONS = ("turn_seconds", "claim_seconds", "hints", "hinted")

#: Host options a table's host may set with ``/<game> new``, true or false.
HOST_FLAGS = ("hints",)

#: Inclusive ranges of the host's whole-number options (the same as the slash commands declare).
HOST_BOUNDS: dict[str, tuple[int, int]] = {"turn_seconds": (15, 3600), "claim_seconds": (1, 60)}


def game_options(options: dict[str, Any]) -> dict[str, Any]:
    """A table's options without the host's own (what the game's ``new_game`` takes)."""
    return {k: v for k, v in options.items() if k not in HOST_OPTIONS}


def shown_options(options: dict[str, Any], locale: str = "en-US") -> str:
    """A table's options as the lobby message lists them, in ``locale`` (hints: on, off,
    or used). Option names stay as the slash command spells them."""
    parts = []
    for name, value in options.items():
        if name == "hinted":
            continue
        if name == "hints":
            value = (
                Text("used (not rated)")
                if options.get("hinted")
                else Text("on", context="option")
                if value
                else Text("off", context="option")
            )
        parts.append(f"{name}: {localize(locale, value)}")
    return ", ".join(parts)


def validate_options(game: str, options: dict[str, Any]) -> dict[str, Any]:
    """The options as given if every one is known and within range; else ValueError with a
    message a player can read."""
    spec = game_spec(game)
    if "hinted" in options:
        raise ValueError(Text("Unknown option: {name}.", name="hinted"))
    for name, value in options.items():
        if name in HOST_FLAGS:
            if not isinstance(value, bool):
                raise ValueError(Text("Option {name} must be true or false.", name=name))
            continue
        bounds = HOST_BOUNDS.get(name) if name in HOST_OPTIONS else spec.option_bounds.get(name)
        if bounds is None:
            continue
        low, high = bounds
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(Text("Option {name} must be a whole number.", name=name))
        if not low <= value <= high:
            raise ValueError(
                Text(
                    "Option {name} must be between {low} and {high}, not {value}.",
                    name=name,
                    low=low,
                    high=high,
                    value=value,
                )
            )
    spec.parse_options(game_options(options))
    return options
