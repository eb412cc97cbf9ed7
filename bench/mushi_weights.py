"""Mushi's ``normal`` with other weights, for paired screens (bench only).

``python -m bench.mushi_paired OUT DEALS SEED bench.mushi_weights:w_RISK-1.2_FUTURE-1.0
greedy`` plays ``normal`` with the named module constants of ``bot/games/mushi/ai.py``
set for its own decisions only (restored after each). Figures in docs/ai/mushi.md.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bot.games.mushi import ai

WEIGHTS = ("RISK", "FLIP", "FUTURE", "COMBO", "RAIN", "WILD_LEFT")
Level = Callable[[Mapping[str, Any], Sequence[str], random.Random], str]


def with_weights(weights: Mapping[str, float]) -> Level:
    """``normal`` playing with ``weights`` (names of :data:`WEIGHTS`)."""
    unknown = set(weights) - set(WEIGHTS)
    if unknown:
        raise ValueError(f"not a weight of normal: {sorted(unknown)}")

    def level(view: Mapping[str, Any], legal: Sequence[str], rng: random.Random) -> str:
        saved = {k: getattr(ai, k) for k in weights}
        for k, v in weights.items():
            setattr(ai, k, v)
        try:
            return ai.choose(view, legal, rng)
        finally:
            for k, v in saved.items():
                setattr(ai, k, v)

    return level


def parse(name: str) -> dict[str, float]:
    """``w_RISK-1.2_WILD_LEFT-0.5`` → ``{"RISK": 1.2, "WILD_LEFT": 0.5}`` (a weight's name
    may hold underscores; each ends at its ``-value``)."""
    weights: dict[str, float] = {}
    key: list[str] = []
    for part in name.removeprefix("w_").split("_"):
        if "-" in part:
            k, v = part.split("-", 1)
            weights["_".join([*key, k])] = float(v)
            key = []
        else:
            key.append(part)
    return weights


def __getattr__(name: str) -> Level:
    """``bench.mushi_weights:w_RISK-1.2_FUTURE-1.0``: normal with RISK 1.2, FUTURE 1.0."""
    if not name.startswith("w_"):
        raise AttributeError(name)
    return with_weights(parse(name))
