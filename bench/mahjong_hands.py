"""What kind of hands a Mah-Jongg level wins (bench only): how often its Mah-Jonggs are
concealed (every group and the pair from the wall, won by wall), one suit (with or without
honours) or a special hand, over arena matches (seats A B A B and B A B A, as the arena).

``python -m bench.mahjong_hands --a normal --b greedy --deals 100 [--seed 1] [--json]``
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
from typing import Any

from bench.arena import game_spec, play_match, resolve_level, rotations


def tally(a: str, b: str, deals: int, seed: int = 1) -> dict[str, Any]:
    spec = game_spec("mahjong")
    level = {"a": resolve_level("mahjong", a), "b": resolve_level("mahjong", b)}
    out: dict[str, dict[str, Any]] = {
        who: {
            "level": name,
            "seat_hands": 0,
            "wins": 0,
            "concealed": 0,
            "one_suit": 0,
            "special": 0,
            "specials": {},
            "score": [],
        }
        for who, name in (("a", a), ("b", b))
    }
    for d in range(deals):
        for r, rot in enumerate(rotations(4)):
            rng = random.Random(f"arena|{seed}|{d}|{r}")
            times: list[list[float]] = [[], [], [], []]
            state = play_match(spec, f"{seed}|{d}", [level[w] for w in rot], {}, rng, times)
            g: Any = state
            for s, who in enumerate(rot):
                out[who]["score"].append(g.scores[s])
            for h in g.history:
                if h["outcome"] != "mahjong":
                    continue
                for s, who in enumerate(rot):
                    out[who]["seat_hands"] += 1
                w = h["winner"]
                t = out[rot[w]]
                t["wins"] += 1
                sheet = h["sheets"][w]
                if sheet["special"]:
                    t["special"] += 1
                    name = str(sheet["special"])
                    t["specials"][name] = t["specials"].get(name, 0) + 1
                names = " ".join(str(m["name"]) for m in sheet["multipliers"])
                if "One suit" in names:
                    t["one_suit"] += 1
                groups = sheet["groups"]
                if h["win"]["by"] == "wall" and groups and all(x["concealed"] for x in groups):
                    t["concealed"] += 1
    for t in out.values():
        scores = t.pop("score")
        t["mean_score"] = round(statistics.fmean(scores), 1)
        w = max(1, t["wins"])
        for k in ("concealed", "one_suit", "special"):
            t[f"{k}_share_of_wins"] = round(t[k] / w, 4)
    return {"a": a, "b": b, "deals": deals, "seed": seed, "levels": out}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--a", required=True)
    ap.add_argument("--b", required=True)
    ap.add_argument("--deals", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    r = tally(args.a, args.b, args.deals, args.seed)
    print(json.dumps(r, indent=1 if args.json else None, default=str))


if __name__ == "__main__":
    main()
