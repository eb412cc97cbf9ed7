"""Rendering benchmarks: table image render + PNG encode time and size.

``python -m bench.render_bench`` prints the Koi-Koi figures; ``python -m bench koikoi``
includes them.
"""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

from bot.games.koikoi import new_game
from bot.games.koikoi.render import render_table
from bot.render.encode import to_png


def mid_round_views(count: int = 5, seed: int = 2024) -> list[dict[str, Any]]:
    """Spectator views of real matches in the middle of a round (stack about half used,
    captures on both sides, a last play and flip to highlight)."""
    views: list[dict[str, Any]] = []
    rng = random.Random(seed)
    game_seed = seed
    while len(views) < count:
        game_seed += 1
        state = new_game(game_seed, ["Alice", "Bob"])
        for _ in range(400):
            view = state.view(None)
            if view["phase"] == "play" and view["stack_count"] <= 12 and view["round"] >= 2:
                views.append(view)
                break
            if state.is_over:
                break
            seat = state.to_act[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
    return views


def koikoi_render_ms(samples: int = 50) -> dict[str, float]:
    """Median and p95 wall time of render_table + to_png on realistic mid-round views (warm
    caches), the median CPU time, the PNG size, and the cold first render (sprites and
    background drawn on demand)."""
    views = mid_round_views()
    start = time.perf_counter()
    to_png(render_table(views[0]))
    cold_ms = (time.perf_counter() - start) * 1000
    for view in views:  # warm every sprite these views use
        to_png(render_table(view))
    times: list[float] = []
    cpu: list[float] = []
    sizes: list[int] = []
    for i in range(samples):
        view = views[i % len(views)]
        t0, c0 = time.perf_counter(), time.process_time()
        png = to_png(render_table(view))
        times.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.process_time() - c0) * 1000)
        sizes.append(len(png))
    times.sort()
    p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
    return {
        "median_ms": statistics.median(times),
        "p95_ms": p95,
        "png_bytes": int(statistics.median(sizes)),
        "cold_ms": cold_ms,
        # CPU time is what the render costs; wall time also counts other busy processes
        "cpu_median_ms": statistics.median(cpu),
    }


if __name__ == "__main__":
    r = koikoi_render_ms()
    print(
        f"Koi-Koi table: median {r['median_ms']:.1f} ms (CPU {r['cpu_median_ms']:.1f} ms),"
        f" p95 {r['p95_ms']:.1f} ms, PNG {r['png_bytes'] / 1024:.0f} KiB,"
        f" cold first render {r['cold_ms']:.0f} ms"
    )
