"""Paired comparisons of Mushi AI variants on the arena's deals (bench only).

``python -m bench.mushi_paired OUT.json DEALS SEED A B [FIRST]`` plays deals FIRST ..
FIRST+DEALS-1 of the arena (the same seeds, rotations and per-deal figures as ``python -m
bench arena --game mushi``) of A against B, each a level name (``normal``, ``strong``,
``greedy``…) or ``module:function``, and writes each deal's A win share and score
difference (``per_deal``: ``[deal, win, diff]``) and A's decision CPU times
(``time.thread_time``) every 25 deals.

``python -m bench.mushi_paired --compare X.json Y.json`` prints the paired difference of
two such runs over their common deals (95 % CI over deals).

The level variants below are the switched-off experiments of docs/ai/mushi.md (their
code: ``bench/mushi_variants.py``, the reading of stop 39; ``bench/mushi_belief.py``, the
soft reading of stop 42); the stored runs name them as ``bench.mushi_paired:<name>``.
"""

from __future__ import annotations

import importlib
import random
import sys
from collections.abc import Mapping, Sequence
from typing import Any

from bench import paired
from bench.arena import resolve_level
from bench.baselines import Level


def _level(arg: str) -> Level:
    if ":" in arg:
        mod, fn = arg.split(":")
        level: Level = getattr(importlib.import_module(mod), fn)
        return level
    return resolve_level("mushi", arg)


def normal_plain(view: Mapping[str, Any], legal: Sequence[str], rng: random.Random) -> str:
    """``normal`` without the reading of the opponent's hand (stop 38's normal, today's)."""
    from bot.games.mushi.ai import choose

    return choose(view, legal, rng)


def normal_read(view: Mapping[str, Any], legal: Sequence[str], rng: random.Random) -> str:
    """``normal`` reading the opponent's hand from its laid cards (``opponent_reading``)."""
    from bench.mushi_variants import choose_read

    return choose_read(view, legal, rng)


def run(out: str, deals: int, seed: int, a: str, b: str, first: int) -> None:
    paired.run("mushi", {"a": _level(a), "b": _level(b)}, out, deals, seed, first, {"a": a, "b": b})


def strong_blind(view: Mapping[str, Any], legal: Sequence[str], rng: random.Random) -> str:
    """``strong`` whose determinizations deal the opponent's hand blind (stop 38's, today's)."""
    from bot.games.mushi.strong import choose_strong

    return choose_strong(view, legal, rng)


def strong_read(view: Mapping[str, Any], legal: Sequence[str], rng: random.Random) -> str:
    """``strong`` whose determinizations deal the opponent's hand by the reading in 80 %
    of the samples (stop 39's screen)."""
    from bench.mushi_variants import choose_strong_read

    return choose_strong_read(view, legal, rng, trust=0.8)


def strong_e4(view: Mapping[str, Any], legal: Sequence[str], rng: random.Random) -> str:
    """``strong`` searching exactly from 4 cards in hand."""
    from bot.games.mushi import strong

    saved, strong.ENDGAME = strong.ENDGAME, 4
    try:
        return strong.choose_strong(view, legal, rng)
    finally:
        strong.ENDGAME = saved


def strong_belief(view: Mapping[str, Any], legal: Sequence[str], rng: random.Random) -> str:
    """``strong`` whose determinizations are drawn by the soft reading of the opponent's
    hand (stop 42; ``beta`` from ``MUSHI_BETA``, default 0.3; ``MUSHI_ENDGAME`` the hand
    size from which it searches, default strong's)."""
    import os

    from bench.mushi_belief import choose_strong_belief
    from bot.games.mushi import strong

    beta = float(os.environ.get("MUSHI_BETA", "0.3"))
    saved = strong.ENDGAME
    strong.ENDGAME = int(os.environ.get("MUSHI_ENDGAME", str(saved)))
    try:
        return choose_strong_belief(view, legal, rng, beta=beta)
    finally:
        strong.ENDGAME = saved


def strong_mid(view: Mapping[str, Any], legal: Sequence[str], rng: random.Random) -> str:
    """``strong`` with normal's choice weighing the opponent's hand by the soft reading
    before the endgame (stop 42; ``MUSHI_MID_BETA``, default 1.0), and the endgame's samples
    by it too (``MUSHI_BETA``, default 1.0; 0: blind, today's)."""
    import os

    from bench.mushi_belief import choose_strong_belief

    beta = float(os.environ.get("MUSHI_BETA", "1.0"))
    mid = float(os.environ.get("MUSHI_MID_BETA", "1.0"))
    return choose_strong_belief(view, legal, rng, beta=beta, mid_beta=mid)


def strong_mid_only(view: Mapping[str, Any], legal: Sequence[str], rng: random.Random) -> str:
    """``strong`` with the soft reading before the endgame only (endgame samples blind)."""
    from bench.mushi_belief import choose_strong_belief

    return choose_strong_belief(view, legal, rng, beta=0.0, mid_beta=1.0)


def strong_end_only(view: Mapping[str, Any], legal: Sequence[str], rng: random.Random) -> str:
    """``strong`` with the endgame's samples drawn by the soft reading (beta 1) only."""
    from bench.mushi_belief import choose_strong_belief

    return choose_strong_belief(view, legal, rng, beta=1.0, mid_beta=0.0)


if __name__ == "__main__":
    if sys.argv[1] == "--compare":
        paired.compare(sys.argv[2], sys.argv[3])
    else:
        run(
            sys.argv[1],
            int(sys.argv[2]),
            int(sys.argv[3]),
            sys.argv[4],
            sys.argv[5],
            int(sys.argv[6]) if len(sys.argv) > 6 else 0,
        )
