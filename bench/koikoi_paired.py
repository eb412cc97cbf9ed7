"""Paired comparisons of Koi-Koi AI variants on the same arena deals (bench only).

``python -m bench.koikoi_paired A B DEALS SEED [--first F] [--base SET ...] [--new SET ...]...``

plays deals F .. F+DEALS-1 of the arena (the same seeds, rotations and dice as
``python -m bench arena --game koikoi --a A --b B``) in this process: once with the
``--base`` settings, once with each ``--new`` group's (``--new`` may be repeated: variants
against the same base run). A setting is ``module.NAME=value``
(a Python literal), e.g. ``bot.games.koikoi.judge.WHOLE_ROUND=False``; each run starts from
the code's own values with its settings applied on top. Printed: both win rates (ties
half) and the paired difference new − base with its 95 % CI over deals (the deals are the
same, so the difference varies less than two independent win rates), and A's decision CPU
p99 (``time.thread_time``) in each run. ``--json OUT`` writes the per-deal figures
(``[deal, base win, each variant's win, base score diff, each variant's]``) at every
progress report and at the end.
"""

from __future__ import annotations

import argparse
import ast
import importlib
import json
import sys
import time
from typing import Any

from bench.arena import mean_ci, percentile, play_deal


def _settings(items: list[str]) -> list[tuple[Any, str, Any]]:
    out = []
    for item in items:
        target, value = item.split("=", 1)
        mod, name = target.rsplit(".", 1)
        out.append((importlib.import_module(mod), name, ast.literal_eval(value)))
    return out


def _run(
    a: str, b: str, seed: int, deal: int, settings: list[tuple[Any, str, Any]]
) -> tuple[float, float, list[float]]:
    saved = [(m, n, getattr(m, n)) for m, n, _ in settings]
    try:
        for m, n, v in settings:
            setattr(m, n, v)
        out = play_deal(("koikoi", a, b, str(seed), deal, {}))
    finally:
        for m, n, v in saved:
            setattr(m, n, v)
    return out.win, out.diff, out.cpu_times[a]


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("a")
    p.add_argument("b")
    p.add_argument("deals", type=int)
    p.add_argument("seed", type=int)
    p.add_argument("--first", type=int, default=0)
    p.add_argument("--base", nargs="*", default=[])
    p.add_argument("--new", nargs="*", action="append")
    p.add_argument("--json")
    p.add_argument("--progress", type=int, default=50)
    args = p.parse_args(argv)
    base = _settings(args.base)
    news = [_settings(group) for group in (args.new or [[]])]
    rows: list[list[float]] = []  # deal, base win, each variant's win, base diff, diffs
    cpu: list[list[float]] = [[] for _ in range(len(news) + 1)]
    started = time.time()

    def report(final: bool) -> None:
        wb = [r[1] for r in rows]
        mb, lb, hb = mean_ci(wb)
        p99 = [percentile(sorted(v), 0.99) if v else 0.0 for v in cpu]
        print(
            f"{'final' if final else 'after'} {len(rows)} deals (seed {args.seed}, from "
            f"{args.first}): base {mb:.2%} ({lb:.2%}-{hb:.2%}), A's CPU p99 {p99[0]:.1f} ms;"
            f" {time.time() - started:.0f} s",
            flush=True,
        )
        for v, group in enumerate(args.new or [[]]):
            wn = [r[2 + v] for r in rows]
            mn, ln, hn = mean_ci(wn)
            md, ld, hd = mean_ci([n - b for n, b in zip(wn, wb, strict=True)])
            print(
                f"  new {' '.join(group) or '(the code as is)'}: {mn:.2%} ({ln:.2%}-{hn:.2%}),"
                f" paired new-base {md:+.2%} ({ld:+.2%} .. {hd:+.2%}); A's CPU p99 "
                f"{p99[1 + v]:.1f} ms",
                flush=True,
            )

    def dump() -> None:
        # (written at every report too: a run cut short keeps its deals)
        if args.json:
            with open(args.json, "w") as f:
                json.dump({"args": vars(args), "per_deal": rows}, f)

    for deal in range(args.first, args.first + args.deals):
        wins, diffs = [], []
        for v, settings in enumerate([base, *news]):
            w, d, c = _run(args.a, args.b, args.seed, deal, settings)
            wins.append(w)
            diffs.append(d)
            cpu[v] += c
        rows.append([deal, *wins, *diffs])
        if args.progress and len(rows) % args.progress == 0:
            report(False)
            dump()
    report(True)
    dump()


if __name__ == "__main__":
    main(sys.argv[1:])
