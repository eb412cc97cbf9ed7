"""``python -m bench [koikoi|host|...]``: engine, AI, rendering and hosting figures.

Each game contributes ``bench/<game>_bench.py`` (or ``bench/koikoi_engine.py``) with plain
functions; the host benchmark runs the real bot over the fake Discord.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import sys
import time


def _line(label: str, value: str) -> None:
    print(f"  {label:<44} {value}")


def bench_koikoi(quick: bool) -> None:
    from bench import koikoi_engine, render_bench

    print("Koi-Koi")
    secs = 1.0 if quick else 3.0
    _line(
        "random-playout rounds/s (target ≥ 1,000)",
        f"{koikoi_engine.playout_rounds_per_second(secs):,.0f}",
    )
    med, p99 = koikoi_engine.ai_decision_ms(100 if quick else 500)
    _line("AI decision time median / p99", f"{med:.3f} ms / {p99:.3f} ms")
    rate = koikoi_engine.ai_vs_random(60 if quick else 400)
    _line("AI vs uniformly random: matches won", f"{rate:.1%}")
    r = render_bench.koikoi_render_ms(10 if quick else 50)
    _line(
        "table render + PNG encode median (≤ 50 ms)",
        f"{r['median_ms']:.1f} ms (p95 {r.get('p95_ms', 0):.1f} ms)",
    )
    _line("table PNG size", f"{r['png_bytes'] / 1024:.0f} KiB")


def bench_game(name: str, quick: bool) -> None:
    """The shared shape of ``bench/<game>_bench.py``."""
    mod = importlib.import_module(f"bench.{name}_bench")
    title = importlib.import_module(f"bot.games.{name}").TITLE
    print(title)
    secs = 1.0 if quick else 3.0
    _line("random-playout hands/s", f"{mod.playout_hands_per_second(secs):,.0f}")
    med, p99 = mod.ai_decision_ms(50 if quick else 300)
    _line("AI decision time median / p99", f"{med:.3f} ms / {p99:.3f} ms")
    if hasattr(mod, "ai_vs_random"):
        value = mod.ai_vs_random(20 if quick else 100)
        _line(
            "AI vs uniformly random",
            f"{value:.1%}" if isinstance(value, float) and value <= 1 else str(value),
        )
    if hasattr(mod, "ai_vs_random_per_hand"):
        _line(
            "AI vs random: mean points per hand",
            f"{mod.ai_vs_random_per_hand(10 if quick else 50):+.1f}",
        )
    if hasattr(mod, "declarer_and_defender_strength"):
        for key, value in mod.declarer_and_defender_strength(60 if quick else 300).items():
            _line(key.replace("_", " "), f"{value:.1%}" if "rate" in key else f"{value:+.2f}")
    r = mod.render_ms(5 if quick else 30)
    _line("table render + PNG encode median", f"{r['median_ms']:.1f} ms")
    _line("table PNG size", f"{r['png_bytes'] / 1024:.0f} KiB")


def bench_host(quick: bool) -> None:
    from bench import host_bench

    tables = 10 if quick else 50
    print(f"Hosting ({tables} concurrent tables over the fake Discord)")
    lat = asyncio.run(host_bench.ack_latency(tables=tables, clicks_per_table=5 if quick else 20))
    _line("interactions acknowledged", f"{lat['count']}")
    _line(
        "ack latency p50 / p99 (target p99 ≤ 100 ms)",
        f"{lat['p50_ms']:.1f} ms / {lat['p99_ms']:.1f} ms",
    )


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench")
    parser.add_argument("which", nargs="*", help="koikoi, host, or other games (default: all)")
    parser.add_argument("--quick", action="store_true", help="fewer samples")
    args = parser.parse_args(argv)
    from bot.games import GAME_NAMES

    which = args.which or [*GAME_NAMES, "host"]
    started = time.perf_counter()
    for name in which:
        if name == "koikoi":
            bench_koikoi(args.quick)
        elif name == "host":
            bench_host(args.quick)
        else:
            bench_game(name, args.quick)
        print()
    print(f"(took {time.perf_counter() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
