"""Rendering benchmarks: render + PNG encode CPU time and PNG size, for every game.

``python -m bench.render_bench [game ...] [--quick]`` prints, per game and per image kind
(table, hand, score sheet), the median and p95 CPU time of ``render_x(view)`` + ``to_png``
over seeded views from real (AI-played) matches in several phases, the median PNG size and
the image dimensions. CPU time (``time.process_time``) is what a render costs; wall time also
counts whatever else the machine is doing. ``python -m bench koikoi`` includes the Koi-Koi
table figures (``koikoi_render_ms``).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

from bot.games import GAME_NAMES, game_spec
from bot.render.encode import to_png
from bot.render.worker import render_png

KINDS = ("render_table", "render_hand", "render_deal_summary")
NAMES = ("Alice", "Bob", "Chen", "Dana")


def _players(game: str) -> list[str]:
    seats = game_spec(game).seats
    return [*NAMES, *(f"P{i + 1}" for i in range(len(NAMES), seats))][:seats]


def game_views(
    game: str,
    matches: int = 3,
    every: int = 5,
    seed: int = 2024,
    max_steps: int = 600,
    cap: int = 40,
) -> dict[str, list[dict[str, Any]]]:
    """Views of AI-played matches (seeded), one every ``every`` actions, in every phase the
    matches reach: spectator views for the table, the acting seat's view for its hand, and
    the views right after a finished hand for the score sheet; at most ``cap`` of each."""
    spec = game_spec(game)
    players = _players(game)
    out: dict[str, list[dict[str, Any]]] = {k: [] for k in KINDS}
    for m in range(matches):
        rng = random.Random(seed + m)
        state = spec.new_game(seed + m, players)
        histories = 0
        for step in range(max_steps):
            if state.is_over or not state.to_act:
                break
            if step % every == 0:
                out["render_table"].append(state.view(None))
                out["render_hand"].append(state.view(state.to_act[0]))
            seat = state.to_act[0]
            view = state.view(seat)
            state.apply(seat, spec.choose(view, state.legal_actions(seat), rng))
            spectator = state.view(None)
            if len(spectator.get("history") or []) > histories:
                histories = len(spectator["history"])
                out["render_deal_summary"].append(spectator)
        out["render_table"].append(state.view(None))  # the end (or where the match stopped)
    return {k: _spread(v, cap) for k, v in out.items()}


def _spread(items: list[Any], cap: int) -> list[Any]:
    """At most ``cap`` items, evenly spread over the list (first and last kept)."""
    if len(items) <= cap:
        return items
    return [items[round(i * (len(items) - 1) / (cap - 1))] for i in range(cap)]


def _p95(values: list[float]) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, round(0.95 * (len(s) - 1)))]


def measure(game: str, kind: str, views: list[dict[str, Any]], rounds: int = 3) -> dict | None:
    """CPU ms median / p95 of ``render_png(game, kind, view)`` (what a render process does:
    draw, then encode with the game's palette) over ``rounds`` passes of the views, after one
    warm-up pass that fills the caches; PNG size median and max; the dimensions seen."""
    fn = getattr(game_spec(game).renderers(), kind)
    dims: dict[tuple[int, int], int] = {}
    kept = []
    for v in views:
        img = fn(v)
        if img is not None:
            kept.append(v)
            dims[img.size] = dims.get(img.size, 0) + 1
            render_png(game, kind, v)
    if not kept:
        return None
    cpu: list[float] = []
    sizes: list[int] = []
    for _ in range(rounds):
        for v in kept:
            c0 = time.process_time()
            png = render_png(game, kind, v)
            cpu.append((time.process_time() - c0) * 1000)
            assert png is not None
            sizes.append(len(png))
    return {
        "n": len(kept),
        "cpu_median_ms": statistics.median(cpu),
        "cpu_p95_ms": _p95(cpu),
        "kib_median": statistics.median(sizes) / 1024,
        "kib_max": max(sizes) / 1024,
        "dims": sorted(dims, key=lambda d: -dims[d]),
    }


def game_render_figures(game: str, quick: bool = False) -> dict[str, dict[str, Any]]:
    """Figures for each image kind of ``game`` (see ``measure``)."""
    renderers = game_spec(game).renderers()
    views = game_views(
        game, matches=2 if quick else 3, every=8 if quick else 5, cap=20 if quick else 40
    )
    figures: dict[str, dict[str, Any]] = {}
    for kind in KINDS:
        if getattr(renderers, kind) is None or not views[kind]:
            continue
        r = measure(game, kind, views[kind], rounds=1 if quick else 3)
        if r is not None:
            figures[kind] = r
    return figures


def print_figures(game: str, figures: dict[str, dict[str, Any]]) -> None:
    for kind, r in figures.items():
        dims = ", ".join(f"{w}×{h}" for w, h in r["dims"][:3]) + (
            " …" if len(r["dims"]) > 3 else ""
        )
        print(
            f"  {game:<8} {kind.removeprefix('render_'):<13} n={r['n']:<4}"
            f" CPU median {r['cpu_median_ms']:6.1f} ms  p95 {r['cpu_p95_ms']:6.1f} ms"
            f"  PNG median {r['kib_median']:5.1f} KiB (max {r['kib_max']:5.1f})  {dims}"
        )


def mid_round_views(count: int = 5, seed: int = 2024) -> list[dict[str, Any]]:
    """Koi-Koi spectator views in the middle of a round (stack about half used, captures on
    both sides, a last play and flip to highlight)."""
    from bot.games.koikoi import new_game

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
    """Koi-Koi table on mid-round views (warm caches): median and p95 wall time, median CPU
    time, PNG size, and the cold first render (sprites and background drawn on demand)."""
    from bot.games.koikoi.render import render_table

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
    return {
        "median_ms": statistics.median(times),
        "p95_ms": _p95(times),
        "png_bytes": int(statistics.median(sizes)),
        "cold_ms": cold_ms,
        "cpu_median_ms": statistics.median(cpu),
        "cpu_p95_ms": _p95(cpu),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.render_bench")
    parser.add_argument("games", nargs="*", default=list(GAME_NAMES))
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args(argv)
    print("render + PNG encode, CPU time per image (target: table median ≤ 10 ms, ≤ 40 KiB)")
    for game in args.games:
        print_figures(game, game_render_figures(game, args.quick))


if __name__ == "__main__":
    main()
