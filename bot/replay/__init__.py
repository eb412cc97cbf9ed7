"""Replays of finished matches: any step rebuilt from the action log, exported as one JSON
file (``docs/replay-format.md``) and viewed offline with ``python -m bot.replay FILE``.

The core (:mod:`bot.replay.core`) is pure; :mod:`bot.replay.render` draws a step with the
games' own renderers (Pillow). Neither talks to Discord.
"""

from bot.replay.core import (
    FORMAT,
    VERSION,
    Action,
    Player,
    Replayer,
    ReplayError,
    ReplayRecord,
    Step,
    final_results,
    from_json,
    game_options,
    to_json,
)

__all__ = [
    "FORMAT",
    "VERSION",
    "Action",
    "Player",
    "ReplayError",
    "ReplayRecord",
    "Replayer",
    "Step",
    "final_results",
    "from_json",
    "game_options",
    "to_json",
]
