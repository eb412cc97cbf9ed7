"""Paired comparisons of Mushi AI variants on the arena's deals (bench only).

``python -m bench.mushi_paired OUT.json DEALS SEED A B [FIRST]`` plays deals FIRST ..
FIRST+DEALS-1 of the arena (the same seeds, rotations and per-deal figures as ``python -m
bench arena --game mushi``) of A against B, each a level name (``normal``, ``strong``,
``greedy``…) or ``module:function``, and writes each deal's A win share and score
difference (``per_deal``: ``[deal, win, diff]``) and A's decision CPU times
(``time.thread_time``) every 25 deals.

``python -m bench.mushi_paired --compare X.json Y.json`` prints the paired difference of
two such runs over their common deals (95 % CI over deals).
"""

from __future__ import annotations

import importlib
import json
import random
import statistics
import sys
import time
from collections.abc import Mapping, Sequence
from typing import Any

from bench.arena import game_spec, mean_ci, percentile, play_match, resolve_level, rotations
from bench.baselines import Level


def _level(arg: str) -> Level:
    if ":" in arg:
        mod, fn = arg.split(":")
        level: Level = getattr(importlib.import_module(mod), fn)
        return level
    return resolve_level("mushi", arg)


def normal_plain(view: Mapping[str, Any], legal: Sequence[str], rng: random.Random) -> str:
    """``normal`` without the reading of the opponent's hand (stop 38's normal)."""
    from bot.games.mushi.ai import choose

    return choose(view, legal, rng, read=False)


def normal_read(view: Mapping[str, Any], legal: Sequence[str], rng: random.Random) -> str:
    """``normal`` reading the opponent's hand from its laid cards (``opponent_reading``)."""
    from bot.games.mushi.ai import choose

    return choose(view, legal, rng, read=True)


def run(out: str, deals: int, seed: int, a: str, b: str, first: int) -> None:
    level = {"a": _level(a), "b": _level(b)}
    spec = game_spec("mushi")
    cpu: list[float] = []
    per_deal: list[list[float]] = []
    started = time.perf_counter()
    for d in range(first, first + deals):
        win = diff = 0.0
        rots = rotations(2)
        for r, rot in enumerate(rots):
            rng = random.Random(f"arena|{seed}|{d}|{r}")
            wall: list[list[float]] = [[] for _ in rot]
            cpus: list[list[float]] = [[] for _ in rot]
            players = [level[w] for w in rot]
            state = play_match(spec, f"{seed}|{d}", players, {}, rng, wall, cpus)
            cpu.extend(t for s, w in enumerate(rot) if w == "a" for t in cpus[s])
            sc = state.scores
            ma = statistics.fmean(sc[s] for s, w in enumerate(rot) if w == "a")
            mb = statistics.fmean(sc[s] for s, w in enumerate(rot) if w == "b")
            diff += (ma - mb) / len(rots)
            win += (1.0 if ma > mb else 0.5 if ma == mb else 0.0) / len(rots)
        per_deal.append([d, win, round(diff, 2)])
        if (d + 1 - first) % 25 == 0 or d + 1 == first + deals:
            cs = sorted(cpu)
            report = {
                "a": a,
                "b": b,
                "seed": seed,
                "first": first,
                "deals": len(per_deal),
                "win_rate": [round(x, 4) for x in mean_ci([x[1] for x in per_deal])],
                "score_diff": [round(x, 2) for x in mean_ci([x[2] for x in per_deal])],
                "cpu_median_ms": round(percentile(cs, 0.5), 3),
                "cpu_mean_ms": round(statistics.fmean(cs), 3),
                "cpu_p99_ms": round(percentile(cs, 0.99), 3),
                "cpu_max_ms": round(cs[-1], 3),
                "seconds": round(time.perf_counter() - started, 1),
                "per_deal": per_deal,
            }
            with open(out, "w") as f:
                json.dump(report, f)


def compare(x: str, y: str) -> None:
    with open(x) as fx, open(y) as fy:
        rx, ry = json.load(fx), json.load(fy)
    dx = {p[0]: p for p in rx["per_deal"]}
    dy = {p[0]: p for p in ry["per_deal"]}
    common = sorted(set(dx) & set(dy))
    wx = mean_ci([dx[d][1] for d in common])
    wy = mean_ci([dy[d][1] for d in common])
    w, wlo, whi = mean_ci([dx[d][1] - dy[d][1] for d in common])
    s, slo, shi = mean_ci([dx[d][2] - dy[d][2] for d in common])
    print(f"{len(common)} deals: X {wx[0]:.4f} ({wx[1]:.4f}-{wx[2]:.4f}) Y {wy[0]:.4f}")
    print(f"win X-Y {w:+.4f} ({wlo:+.4f} .. {whi:+.4f})")
    print(f"score X-Y {s:+.1f} ({slo:+.1f} .. {shi:+.1f})")
    print(f"X cpu p99 {rx['cpu_p99_ms']} Y cpu p99 {ry['cpu_p99_ms']}")


def strong_blind(view: Mapping[str, Any], legal: Sequence[str], rng: random.Random) -> str:
    """``strong`` whose determinizations deal the opponent's hand blind (stop 38's)."""
    from bot.games.mushi.strong import choose_strong

    return choose_strong(view, legal, rng, trust=0.0)


def strong_read(view: Mapping[str, Any], legal: Sequence[str], rng: random.Random) -> str:
    """``strong`` whose determinizations deal the opponent's hand by the reading in 80 %
    of the samples (stop 39's screen)."""
    from bot.games.mushi.strong import choose_strong

    return choose_strong(view, legal, rng, trust=0.8)


def strong_e4(view: Mapping[str, Any], legal: Sequence[str], rng: random.Random) -> str:
    """``strong`` searching exactly from 4 cards in hand."""
    from bot.games.mushi import strong

    saved, strong.ENDGAME = strong.ENDGAME, 4
    try:
        return strong.choose_strong(view, legal, rng)
    finally:
        strong.ENDGAME = saved


if __name__ == "__main__":
    if sys.argv[1] == "--compare":
        compare(sys.argv[2], sys.argv[3])
    else:
        run(
            sys.argv[1],
            int(sys.argv[2]),
            int(sys.argv[3]),
            sys.argv[4],
            sys.argv[5],
            int(sys.argv[6]) if len(sys.argv) > 6 else 0,
        )
