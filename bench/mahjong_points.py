"""Where a Mah-Jongg match's points come from, level against level (bench only).

``python -m bench.mahjong_points DEALS SEED [FIRST] [A] [B] [OUT.json]`` plays deals
FIRST .. FIRST+DEALS-1 of the arena (its seeds, rotations and ``play_match``) of level A
(default ``strong``) against level B (default ``normal``); a level is an arena level name or
``module:function``. From each hand's score sheets (the game's ``history``) it splits every
seat's final total into parts and prints, per match, each level's mean over its two seats
and the difference A − B (95 % CI over deals), so the parts add up to the arena's score
difference:

- ``win.groups`` / ``win.extras`` / ``win.items`` / ``win.standing``: a winning hand's basic
  points from its groups, its seasons and flowers, the winner-only items but the standing
  hand's 100, and that 100 (all before multipliers);
- ``win.mult.<name>``: what each multiplier adds to a winning hand (basic × its fraction,
  the rounding in ``win.round``); ``win.special``: a special hand's whole total;
- ``pay``: the 8/16 payments (+ for the winner, − for the others);
- ``lose.groups`` / ``lose.extras`` / ``lose.mult.<name>`` / ``lose.round``: the same for a
  non-winner's own hand total.

It also counts each level's wins (from a standing hand or silent) and their mean total.
"""

from __future__ import annotations

import importlib
import json
import random
import statistics
import sys
from collections import defaultdict
from collections.abc import Mapping
from typing import Any

from bench.arena import game_spec, mean_ci, play_match, resolve_level, rotations
from bench.baselines import Level

STANDING = "Win from a declared standing hand"


def level_of(arg: str) -> Level:
    if ":" in arg:
        mod, fn = arg.split(":")
        found: Level = getattr(importlib.import_module(mod), fn)
        return found
    return resolve_level("mahjong", arg)


def sheet_parts(sheet: Mapping[str, Any], winner: bool) -> dict[str, float]:
    """One seat's hand total split into parts (they add up to ``sheet["total"]``)."""
    side = "win" if winner else "lose"
    out: dict[str, float] = defaultdict(float)
    if sheet["special"]:
        out[f"{side}.special"] += sheet["total"]
        return out
    basic = sheet["basic"]
    for item in sheet["items"]:
        name, value = str(item["name"]), item["value"]
        if name == STANDING:
            out[f"{side}.standing"] += value
        elif name.startswith(("Chow", "Pung", "Kong")):
            out[f"{side}.groups"] += value
        elif name.startswith("Season"):
            out[f"{side}.extras"] += value
        else:
            out[f"{side}.items"] += value
    added = 0.0
    for m in sheet["multipliers"]:
        part = basic * m["value"]
        out[f"{side}.mult.{m['name']}"] += part
        added += part
    out[f"{side}.round"] += sheet["total"] - basic - added
    return out


def match_parts(state: Any, rot: tuple[str, ...]) -> dict[str, dict[str, float]]:
    """Per level ("a", "b"): the mean over its seats of each part of the final totals."""
    parts: dict[str, dict[str, float]] = {"a": defaultdict(float), "b": defaultdict(float)}
    seats = {w: [s for s, x in enumerate(rot) if x == w] for w in parts}
    for entry in state.history:
        if entry["outcome"] != "mahjong" or not entry["sheets"]:
            continue
        w = entry["winner"]
        for s, sheet in enumerate(entry["sheets"]):
            lv = rot[s]
            share = 1 / len(seats[lv])
            for k, v in sheet_parts(sheet, s == w).items():
                parts[lv][k] += v * share
            parts[lv]["pay"] += sheet["payment"] * share
        lw = rot[w]
        t = entry["sheets"][w]["total"]
        kind = "standing" if entry["win"]["standing"] else "silent"
        parts[lw][f"n.wins.{kind}"] += 1
        parts[lw][f"t.wins.{kind}"] += t
    return parts


def run(deals: int, seed: int, first: int, a: str, b: str, out: str | None) -> None:
    spec = game_spec("mahjong")
    level = {"a": level_of(a), "b": level_of(b)}
    per_deal: list[dict[str, dict[str, float]]] = []
    for d in range(first, first + deals):
        deal: dict[str, dict[str, float]] = {"a": defaultdict(float), "b": defaultdict(float)}
        rots = rotations(spec.seats)
        for r, rot in enumerate(rots):
            rng = random.Random(f"arena|{seed}|{d}|{r}")
            times: list[list[float]] = [[] for _ in rot]
            state = play_match(spec, f"{seed}|{d}", [level[w] for w in rot], {}, rng, times)
            parts = match_parts(state, rot)
            for lv in deal:
                for k, v in parts[lv].items():
                    deal[lv][k] += v / len(rots)
            sc = state.scores
            ma = statistics.fmean(sc[s] for s, w in enumerate(rot) if w == "a")
            mb = statistics.fmean(sc[s] for s, w in enumerate(rot) if w == "b")
            deal["a"]["total"] += ma / len(rots)
            deal["b"]["total"] += mb / len(rots)
            deal["a"]["match.win"] += (1.0 if ma > mb else 0.5 if ma == mb else 0.0) / len(rots)
        per_deal.append(deal)
    keys = sorted({k for dl in per_deal for lv in dl.values() for k in lv})
    rows = []
    print(f"{a} (A) vs {b} (B), seed {seed}, deals {first}-{first + deals - 1}; per match")
    print(f"{'part':42s} {'A':>8s} {'B':>8s} {'A-B':>8s}  95% CI")
    for k in keys:
        va = [dl["a"].get(k, 0.0) for dl in per_deal]
        vb = [dl["b"].get(k, 0.0) for dl in per_deal]
        m, lo, hi = mean_ci([x - y for x, y in zip(va, vb, strict=True)])
        ma, mb = statistics.fmean(va), statistics.fmean(vb)
        rows.append({"part": k, "a": ma, "b": mb, "diff": [m, lo, hi]})
        print(f"{k:42s} {ma:8.2f} {mb:8.2f} {m:+8.2f}  ({lo:+.2f} .. {hi:+.2f})")
    for lv, name in (("a", a), ("b", b)):
        for kind in ("standing", "silent"):
            n = sum(dl[lv].get(f"n.wins.{kind}", 0.0) for dl in per_deal)
            t = sum(dl[lv].get(f"t.wins.{kind}", 0.0) for dl in per_deal)
            print(f"{name} {kind} wins per match {n / deals:.2f}, mean total {t / max(n, 1):.1f}")
    if out:
        report = {"a": a, "b": b, "seed": seed, "first": first, "deals": deals, "parts": rows}
        with open(out, "w") as f:
            json.dump(report, f, indent=1)


if __name__ == "__main__":
    argv = sys.argv[1:]
    run(
        int(argv[0]),
        int(argv[1]),
        int(argv[2]) if len(argv) > 2 else 0,
        argv[3] if len(argv) > 3 else "strong",
        argv[4] if len(argv) > 4 else "normal",
        argv[5] if len(argv) > 5 else None,
    )
