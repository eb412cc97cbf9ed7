"""A Mah-Jongg arena that writes as it goes (bench only).

The same matches and figures as ``python -m bench arena`` (the same seeds, rotations and
per-deal averaging, via :mod:`bench.arena`), but the deals are played one by one and the
report is rewritten after each, so a long run on a loaded machine leaves its figures so far
when it must stop. It adds each level's decision CPU time (``time.thread_time``) beside
the wall clock, and tallies the Mah-Jonggs each level wins: concealed (won by wall with
every group concealed), one suit (with or without honours) and special hands.

``python -m bench.mahjong_long_arena A B DEALS OUT.json [SEED]``
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import time
from typing import Any

from bench.arena import game_spec, mean_ci, percentile, resolve_level, rotations


def main() -> None:
    a, b, deals, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    seed = int(sys.argv[5]) if len(sys.argv) > 5 else 1
    spec = game_spec("mahjong")
    level = {"a": resolve_level("mahjong", a), "b": resolve_level("mahjong", b)}
    wall: dict[str, list[float]] = {"a": [], "b": []}
    cpu: dict[str, list[float]] = {"a": [], "b": []}
    kinds = {w: {"wins": 0, "concealed": 0, "one_suit": 0, "special": 0} for w in "ab"}
    specials: dict[str, dict[str, int]] = {"a": {}, "b": {}}
    wins: list[float] = []
    diffs: list[float] = []
    record = {"a_wins": 0, "ties": 0, "b_wins": 0}
    started = time.perf_counter()

    def timed(who: str) -> Any:
        f = level[who]

        def run(view: Any, legal: Any, rng: random.Random) -> str:
            w0, c0 = time.perf_counter(), time.thread_time()
            code = f(view, legal, rng)
            cpu[who].append((time.thread_time() - c0) * 1000)
            wall[who].append((time.perf_counter() - w0) * 1000)
            return code

        return run

    players = {w: timed(w) for w in "ab"}
    for d in range(deals):
        win = diff = 0.0
        rots = rotations(4)
        for r, rot in enumerate(rots):
            rng = random.Random(f"arena|{seed}|{d}|{r}")
            state: Any = spec.new_game(f"{seed}|{d}", [f"Seat {s}" for s in range(4)], {})
            while not state.is_over:
                acted = False
                for s in state.may_act:
                    code = players[rot[s]](state.view(s), state.legal_actions(s), rng)
                    if code:
                        state.apply(s, code)
                        acted = True
                        break
                if not acted:
                    s = state.to_act[0]
                    state.apply(s, players[rot[s]](state.view(s), state.legal_actions(s), rng))
            sc = state.scores
            ma = statistics.fmean(sc[s] for s, w in enumerate(rot) if w == "a")
            mb = statistics.fmean(sc[s] for s, w in enumerate(rot) if w == "b")
            diff += (ma - mb) / len(rots)
            if ma > mb:
                record["a_wins"] += 1
                win += 1 / len(rots)
            elif ma == mb:
                record["ties"] += 1
                win += 0.5 / len(rots)
            else:
                record["b_wins"] += 1
            for h in state.history:
                if h["outcome"] != "mahjong":
                    continue
                who = rot[h["winner"]]
                k = kinds[who]
                k["wins"] += 1
                sheet = h["sheets"][h["winner"]]
                if sheet["special"]:
                    k["special"] += 1
                    name = str(sheet["special"])
                    specials[who][name] = specials[who].get(name, 0) + 1
                if any("One suit" in str(m["name"]) for m in sheet["multipliers"]):
                    k["one_suit"] += 1
                g = sheet["groups"]
                if h["win"]["by"] == "wall" and g and all(x["concealed"] for x in g):
                    k["concealed"] += 1
        wins.append(win)
        diffs.append(diff)
        _write(out, a, b, d + 1, seed, wins, diffs, record, wall, cpu, kinds, specials, started)


def _write(out, a, b, n, seed, wins, diffs, record, wall, cpu, kinds, specials, started) -> None:  # type: ignore[no-untyped-def]
    w, wlo, whi = mean_ci(wins)
    df, dlo, dhi = mean_ci(diffs)
    decision = {}
    for who, name in (("a", a), ("b", b)):
        ws, cs = sorted(wall[who]), sorted(cpu[who])
        decision[name if a != b else who] = {
            "decisions": len(ws),
            "median_ms": round(statistics.median(ws), 3) if ws else 0.0,
            "p99_ms": round(percentile(ws, 0.99), 3),
            "cpu_median_ms": round(statistics.median(cs), 3) if cs else 0.0,
            "cpu_p99_ms": round(percentile(cs, 0.99), 3),
            "cpu_mean_ms": round(statistics.fmean(cs), 3) if cs else 0.0,
        }
    hands = {}
    for who, name in (("a", a), ("b", b)):
        k = dict(kinds[who])
        for x in ("concealed", "one_suit", "special"):
            k[f"{x}_share"] = round(k[x] / max(1, k["wins"]), 4)
        k["specials"] = specials[who]
        hands[name if a != b else who] = k
    report = {
        "game": "mahjong",
        "a": a,
        "b": b,
        "deals": n,
        "matches": sum(record.values()),
        "seed": seed,
        "options": None,
        **record,
        "win_rate_a": round(w, 4),
        "win_rate_ci": [round(max(0.0, wlo), 4), round(min(1.0, whi), 4)],
        "score_diff": round(df, 3),
        "score_diff_ci": [round(dlo, 3), round(dhi, 3)],
        "decision_ms": decision,
        "mahjongs": hands,
        "seconds": round(time.perf_counter() - started, 1),
        # each deal's A win share and score difference (to split or merge runs later)
        "per_deal": [[round(x, 3), round(y, 2)] for x, y in zip(wins, diffs, strict=True)],
    }
    with open(out + ".tmp", "w") as f:
        json.dump(report, f, indent=1)
    import os

    os.replace(out + ".tmp", out)


if __name__ == "__main__":
    main()
