"""Determinized Monte Carlo: the ``strong`` AI levels' search (pure, no discord, no PIL).

The searching seat knows only its view. Each *determinization* is one complete state
consistent with that view: the cards the seat cannot see are dealt at random from exactly
the cards it has not seen (the game's ``sample`` builds it from the view alone). Every
candidate action is then played out in the same determinization, with the same dice
(common random numbers, so the comparison between actions is not drowned by the luck of
the sample), and the action with the best mean outcome is chosen.

A search stops after ``budget.samples`` determinizations or ``budget.seconds`` of wall
clock, whichever comes first; with ``seconds=None`` it is deterministic for a given
``rng`` (the tests use that).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

View = Mapping[str, Any]
W = TypeVar("W")


@dataclass(frozen=True)
class Budget:
    """How long a search may take: determinizations and wall-clock seconds at most."""

    samples: int = 48
    seconds: float | None = 0.18


def determinized_choice(
    view: View,
    legal: Sequence[str],
    rng: random.Random,
    *,
    sample: Callable[[View, random.Random], W],
    playout: Callable[[W, str, random.Random], float],
    copy: Callable[[W], W],
    budget: Budget,
    prior: str | None = None,
    margin: float = 0.0,
    clock: Callable[[], float] = time.perf_counter,
) -> str:
    """The action of ``legal`` with the best mean playout value over determinizations.

    ``sample(view, rng)`` builds one state consistent with ``view``; ``playout(world,
    code, rng)`` applies ``code`` for the viewing seat, plays on and returns the outcome
    for that seat (higher is better); ``copy(world)`` an independent copy."""
    if len(legal) == 1:
        return legal[0]
    started = clock()
    totals = [0.0] * len(legal)
    n = 0
    for _ in range(budget.samples):
        n += 1
        world = sample(view, rng)
        dice = rng.getrandbits(64)
        for i, code in enumerate(legal):
            totals[i] += playout(copy(world), code, random.Random(dice))
        if budget.seconds is not None and clock() - started >= budget.seconds:
            break
    best = max(range(len(legal)), key=lambda i: (totals[i], -i))
    if (
        prior is not None
        and prior in legal
        and totals[best] - totals[legal.index(prior)] <= margin * (n or 1)
    ):
        return prior
    return legal[best]


__all__ = ["Budget", "determinized_choice"]
