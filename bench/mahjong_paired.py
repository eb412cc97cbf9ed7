"""Paired comparisons of strong-level variants against normal (bench only).

``python -m bench.mahjong_paired OUT.json DEALS SEED [FIRST] [STYLE-JSON | module:function]``
plays deals FIRST .. FIRST+DEALS-1 of the arena (the same seeds, rotations and per-deal
figures as ``python -m bench arena --game mahjong``) of a variant against ``normal`` and
writes each deal's A win share and score difference (``per_deal``: ``[deal, win,
diff]``) and the variant's decision CPU times (``time.thread_time``) every 25 deals. A
style JSON overrides fields of strong's :class:`~bot.games.mahjong.ai.Style` (``{}``: strong
itself), e.g. ``'{"silent": null}'`` (always call a standing hand).

``python -m bench.mahjong_paired --compare A.json B.json`` prints the paired difference of
two such runs over their common deals (95 % CI over deals): the deals are the same, so the
difference varies less than two independent win rates.
"""

from __future__ import annotations

import importlib
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from bench.arena import game_spec, mean_ci, percentile, play_match, resolve_level, rotations
from bot.games.mahjong import ai

Level = Callable[[Any, Any, random.Random], str]


def _variant(arg: str) -> Level:
    if not arg.startswith("{"):
        mod, fn = arg.split(":")
        level: Level = getattr(importlib.import_module(mod), fn)
        return level
    style = ai.Style(**{**ai.STRONG.__dict__, **json.loads(arg)})
    return lambda view, legal, rng: ai.play(view, legal, rng, style)


def _match(
    level: dict[str, Level], seed: int, d: int, r: int, rot: tuple[str, ...], cpu: list[float]
) -> list[int]:
    """One match of deal ``d`` in rotation ``r`` (the arena's own ``play_match``, its seeds
    and dice); A's decision CPU times go to ``cpu``."""
    spec = game_spec("mahjong")
    rng = random.Random(f"arena|{seed}|{d}|{r}")
    players = [level[w] for w in rot]
    wall: list[list[float]] = [[] for _ in rot]
    cpu_by_seat: list[list[float]] = [[] for _ in rot]
    state = play_match(spec, f"{seed}|{d}", players, {}, rng, wall, cpu_by_seat)
    cpu.extend(t for s, w in enumerate(rot) if w == "a" for t in cpu_by_seat[s])
    return list(state.scores)


def run(out: str, deals: int, seed: int, first: int, arg: str) -> None:
    level = {"a": _variant(arg), "b": resolve_level("mahjong", "normal")}
    cpu: list[float] = []
    per_deal: list[list[float]] = []
    started = time.perf_counter()
    for d in range(first, first + deals):
        win = diff = 0.0
        rots = rotations(4)
        for r, rot in enumerate(rots):
            sc = _match(level, seed, d, r, rot, cpu)
            ma = statistics.fmean(sc[s] for s, w in enumerate(rot) if w == "a")
            mb = statistics.fmean(sc[s] for s, w in enumerate(rot) if w == "b")
            diff += (ma - mb) / len(rots)
            win += (1.0 if ma > mb else 0.5 if ma == mb else 0.0) / len(rots)
        per_deal.append([d, win, round(diff, 2)])
        if (d + 1 - first) % 25 == 0 or d + 1 == first + deals:
            cs = sorted(cpu)
            report = {
                "variant": arg,
                "seed": seed,
                "first": first,
                "deals": len(per_deal),
                "win_rate": [round(x, 4) for x in mean_ci([x[1] for x in per_deal])],
                "score_diff": [round(x, 2) for x in mean_ci([x[2] for x in per_deal])],
                "cpu_mean_ms": round(statistics.fmean(cs), 3),
                "cpu_p99_ms": round(percentile(cs, 0.99), 3),
                "cpu_max_ms": round(cs[-1], 3),
                "seconds": round(time.perf_counter() - started, 1),
                "per_deal": per_deal,
            }
            with open(out, "w") as f:
                json.dump(report, f)


def compare(a: str, b: str) -> None:
    with open(a) as fa, open(b) as fb:
        ra, rb = json.load(fa), json.load(fb)
    da = {x[0]: x for x in ra["per_deal"]}
    db = {x[0]: x for x in rb["per_deal"]}
    common = sorted(set(da) & set(db))
    wa = mean_ci([da[d][1] for d in common])[0]
    wb = mean_ci([db[d][1] for d in common])[0]
    w, wlo, whi = mean_ci([da[d][1] - db[d][1] for d in common])
    s, slo, shi = mean_ci([da[d][2] - db[d][2] for d in common])
    print(f"{len(common)} deals: A {wa:.3f} B {wb:.3f}")
    print(f"win diff A-B {w:.4f} ({wlo:.4f} .. {whi:.4f})")
    print(f"score diff A-B {s:.1f} ({slo:.1f} .. {shi:.1f})")
    print(f"A cpu mean {ra['cpu_mean_ms']} p99 {ra['cpu_p99_ms']} max {ra['cpu_max_ms']}")


if __name__ == "__main__":
    if sys.argv[1] == "--compare":
        compare(sys.argv[2], sys.argv[3])
    else:
        run(
            sys.argv[1],
            int(sys.argv[2]),
            int(sys.argv[3]),
            int(sys.argv[4]) if len(sys.argv) > 4 else 0,
            sys.argv[5] if len(sys.argv) > 5 else "{}",
        )
