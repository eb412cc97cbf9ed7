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
import sys
from collections.abc import Callable
from typing import Any

from bench import paired
from bench.arena import resolve_level
from bot.games.mahjong import ai

Level = Callable[[Any, Any, random.Random], str]


def _variant(arg: str) -> Level:
    if not arg.startswith("{"):
        mod, fn = arg.split(":")
        level: Level = getattr(importlib.import_module(mod), fn)
        return level
    style = ai.Style(**{**ai.STRONG.__dict__, **json.loads(arg)})
    return lambda view, legal, rng: ai.play(view, legal, rng, style)


def run(out: str, deals: int, seed: int, first: int, arg: str) -> None:
    level = {"a": _variant(arg), "b": resolve_level("mahjong", "normal")}
    paired.run("mahjong", level, out, deals, seed, first, {"variant": arg})


if __name__ == "__main__":
    if sys.argv[1] == "--compare":
        paired.compare(sys.argv[2], sys.argv[3])
    else:
        run(
            sys.argv[1],
            int(sys.argv[2]),
            int(sys.argv[3]),
            int(sys.argv[4]) if len(sys.argv) > 4 else 0,
            sys.argv[5] if len(sys.argv) > 5 else "{}",
        )
