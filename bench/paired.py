"""Paired runs on the arena's deals, shared by the per-game paired tools (bench only).

A run plays deals FIRST .. FIRST+DEALS-1 of the arena (its seeds, rotations, dice and
``play_match``) of level A against level B and writes each deal's A win share and score
difference (``per_deal``: ``[deal, win, diff]``) and A's decision CPU times
(``time.thread_time``) every 25 deals, so a run cut short still reports. :func:`compare`
prints the paired difference of two such runs over their common deals (95 % CI over
deals): the deals are the same, so the difference varies less than two win rates.
"""

from __future__ import annotations

import json
import random
import statistics
import time
from collections.abc import Mapping
from typing import Any

from bench.arena import game_spec, mean_ci, percentile, play_match, rotations
from bench.baselines import Level


def run(
    game: str,
    level: Mapping[str, Level],
    out: str,
    deals: int,
    seed: int,
    first: int,
    head: Mapping[str, Any],
) -> None:
    """Play the deals of ``level["a"]`` against ``level["b"]``; ``head`` leads the report."""
    spec = game_spec(game)
    cpu: list[float] = []
    per_deal: list[list[float]] = []
    started = time.perf_counter()
    for d in range(first, first + deals):
        win = diff = 0.0
        rots = rotations(spec.seats)
        for r, rot in enumerate(rots):
            rng = random.Random(f"arena|{seed}|{d}|{r}")
            wall: list[list[float]] = [[] for _ in rot]
            cpus: list[list[float]] = [[] for _ in rot]
            state = play_match(spec, f"{seed}|{d}", [level[w] for w in rot], {}, rng, wall, cpus)
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
                **head,
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
    """Print the paired difference X − Y of two runs over their common deals."""
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
    print(f"X cpu p99 {rx['cpu_p99_ms']} max {rx['cpu_max_ms']}; Y cpu p99 {ry['cpu_p99_ms']}")
