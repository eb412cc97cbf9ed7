"""Seeded whole matches played by the games' AIs, as replay records."""

from __future__ import annotations

import random
from typing import Any

from bot.engine import State
from bot.games import game_spec
from bot.replay.core import Action, Player, ReplayRecord

NAMES = ["Ann 🌸", "さくら", "Bob", "Dee"]
#: Short matches (the replay, not the game, is under test).
SHORT: dict[str, dict[str, Any]] = {
    "koikoi": {"rounds": 6},
    "mushi": {"hands": 6},
    "panda": {"target": 200},
    "sandayi": {"hands": 2},
    "mahjong": {"max_hands": 1},
}


def play(game: str, seed: str, options: dict[str, Any] | None = None, limit: int = 3000) -> State:
    """A match played to its end (or ``limit`` actions) by the game's AI on every seat."""
    spec = game_spec(game)
    state = spec.new_game(seed, NAMES[: spec.seats], SHORT[game] if options is None else options)
    rng = random.Random(seed)
    while not state.is_over and state.version < limit:
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        code = spec.choose(state.view(seat), legal, rng) or state.default_action(seat)
        state.apply(seat, code)
    return state


def record_of(
    state: State, options: dict[str, Any] | None = None, table_id: int = 7
) -> ReplayRecord:
    """The record of ``state``'s match (``options``: as given to ``play``)."""
    result = state.result() if state.is_over else None
    return ReplayRecord(
        game=state.game,
        seed=state.seed,
        options=dict(SHORT[state.game] if options is None else options),
        players=tuple(Player(i, n, i > 0) for i, n in enumerate(state.players)),
        actions=tuple(
            Action(s, c, "ai", 1_700_000_000.0 + i) for i, (s, c) in enumerate(state.log)
        ),
        table_id=table_id,
        started_at=1_700_000_000.0,
        finished_at=1_700_000_000.0 + len(state.log),
        scores=tuple(result.scores) if result else None,
        places=tuple(result.placements) if result else None,
    )
