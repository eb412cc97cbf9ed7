"""Stop 42's decision screen of Mushi variants (bench only).

``python -m bench.mushi_belief_screen OUT.json MATCHES SEED VARIANT BASE [RESHUFFLES]``
plays six-hand matches of ``normal`` against itself; at every decision of seat 0 where
VARIANT chooses differently from BASE (``module:function`` or level names), both choices
are played to the hand's end from the **true** position — the hands as dealt, the stock
reshuffled RESHUFFLES times (its order is unknown to both seats), the same reshuffles for
both choices — with ``normal`` for both seats afterwards; the mean difference of seat 0's
hand score is the variant's gain at that decision (stop 38's screen). Writes the gains and
a 95 % CI over the disagreements.
"""

from __future__ import annotations

import json
import os
import random
import statistics
import sys
import time
from collections.abc import Mapping, Sequence
from typing import Any

from bench.arena import mean_ci
from bench.baselines import Level
from bench.mushi_belief import BeliefPosition
from bench.mushi_paired import _level
from bench.mushi_variants import choose_strong_sampled
from bot.games.mushi import choose, new_game
from bot.games.mushi.rules import MushiState


def _hand_score(state: MushiState, seat: int, code: str, k: int) -> float:
    """Seat's score of the running hand after ``code``, normal playing on, reshuffle ``k``."""
    world = state.clone()
    assert isinstance(world, MushiState)
    random.Random(f"reshuffle|{k}").shuffle(world.stock)
    done = len(world.history)
    world.apply(seat, code)
    rng = random.Random(k)
    while len(world.history) == done and not world.is_over:
        s = world.to_act[0]
        world.apply(s, choose(world.view(s), world.legal_actions(s), rng))
    return float(world.history[-1]["scores"][seat])


def _oracle(state: MushiState, seat: int) -> Level:
    """``normal`` that knows the opponent's hand (its ``hold``: 1 for a true card): the
    headroom of any belief that ``normal``'s terms can use."""
    truth = frozenset(state.hands[1 - seat])

    def knowing(view: Mapping[str, Any]) -> BeliefPosition:
        return BeliefPosition(view, lambda cards: 1.0 if cards & truth else 0.0)

    def level(view: Mapping[str, Any], legal: Sequence[str], rng: random.Random) -> str:
        return choose(view, legal, rng, position=knowing)

    return level


def _oracle_end(state: MushiState, seat: int) -> Level:
    """``strong`` whose endgame determinizations deal the opponent's true hand (only the
    stock's order is sampled): the headroom of any belief in strong's exact endgame
    (``MUSHI_ENDGAME``: the hand size it searches from, default strong's)."""
    from bot.games.mushi import strong

    truth = list(state.hands[1 - seat])

    def sample(view: Mapping[str, Any], rng: random.Random) -> strong.World:
        world = strong.sample_world(view, rng)
        rest = [c for c in strong.unseen_cards(view) if c not in truth]
        rng.shuffle(rest)
        world.hands[1 - seat], world.stock = list(truth), rest
        return world

    def level(view: Mapping[str, Any], legal: Sequence[str], rng: random.Random) -> str:
        saved = strong.ENDGAME
        strong.ENDGAME = int(os.environ.get("MUSHI_ENDGAME", str(saved)))
        try:
            return choose_strong_sampled(view, legal, rng, sample)
        finally:
            strong.ENDGAME = saved

    return level


def run(out: str, matches: int, seed: int, variant: str, base: str, reshuffles: int) -> None:
    """The screen (above); VARIANT ``oracle``: :func:`_oracle`, ``oracle_end``:
    :func:`_oracle_end`."""
    b = _level(base)
    gains: list[float] = []
    decisions = 0
    started = time.perf_counter()
    for m in range(matches):
        state = new_game(seed * 10_000 + m, ["A", "B"], {"hands": 6})
        rng = random.Random(f"{seed}|{m}")
        while not state.is_over:
            seat = state.to_act[0]
            view, legal = state.view(seat), state.legal_actions(seat)
            if seat == 0 and len(legal) > 1 and "cancel" not in legal:
                decisions += 1
                dice = rng.random()
                if variant == "oracle":
                    a = _oracle(state, seat)
                elif variant == "oracle_end":
                    a = _oracle_end(state, seat)
                else:
                    a = _level(variant)
                x = a(view, legal, random.Random(dice))
                y = b(view, legal, random.Random(dice))
                if x != y:
                    diffs = [
                        _hand_score(state, seat, x, k) - _hand_score(state, seat, y, k)
                        for k in range(reshuffles)
                    ]
                    gains.append(statistics.fmean(diffs))
            state.apply(seat, choose(view, legal, rng))
        report: dict[str, Any] = {
            "variant": variant,
            "base": base,
            "seed": seed,
            "matches": m + 1,
            "reshuffles": reshuffles,
            "decisions": decisions,
            "disagreements": len(gains),
            "gain": [round(g, 3) for g in mean_ci(gains)] if len(gains) > 1 else None,
            "seconds": round(time.perf_counter() - started, 1),
            "gains": [round(g, 3) for g in gains],
        }
        with open(out, "w") as f:
            json.dump(report, f)


if __name__ == "__main__":
    run(
        sys.argv[1],
        int(sys.argv[2]),
        int(sys.argv[3]),
        sys.argv[4],
        sys.argv[5],
        int(sys.argv[6]) if len(sys.argv) > 6 else 16,
    )
