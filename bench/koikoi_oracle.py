"""How far above ``normal`` can a Koi-Koi player get? An oracle's ceiling (bench only).

``python -m bench.koikoi_oracle OUT.json DEALS SEED FIRST KIND [B] [--z Z]``

plays the arena's deals (the same seeds, rotations and dice as ``python -m bench arena``)
of an *oracle* against level ``B`` (default ``normal``) and writes the per-deal figures
(``bench/paired.py``). The oracle is strong's search (``strong.choose_strong``: the one-ply
judgement, overruled by a determinized search where it is sure, and the one-ply Koi-Koi
call over sampled playouts) whose samples are not sampled: every "sample" deals the
hidden cards as they truly lie —

- ``hand``: the opponent's true hand, the stack's true cards in a random order (what a
  player who could read the opponent's hand would know);
- ``full``: the opponent's true hand and the stack in its true order (everything).

``--z`` sets how sure the search must be to overrule the one-ply choice (strong's ``Z``,
2 standard errors; 0 takes the best mean). No fair player knows this much, so its win rate against ``B`` bounds from above what a
search of this kind can gain over ``B`` by better guessing of the hidden cards. It reads
the true state through the arena's ``_ask`` (patched here to note which state asks), and
only for the oracle's own seats: ``B``'s searches sample from their view as always.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence
from typing import Any

import bench.arena as arena
from bench.baselines import Level
from bench.paired import run
from bot.engine.core import State
from bot.games.koikoi import strong
from bot.games.koikoi.rules import KoiKoiState

#: The true state while an oracle seat is deciding (None otherwise).
_TRUTH: list[KoiKoiState | None] = [None]
_KIND = ["hand"]
_fair_deal_hidden = strong.deal_hidden
_fair_ask = arena._ask


def _oracle_deal_hidden(view: Any, rng: random.Random, lack_weight: float = 1.0) -> list[str]:
    state = _TRUTH[0]
    if state is None:
        return _fair_deal_hidden(view, rng, lack_weight)
    opp = 1 - view["seat"]
    hand = list(state.hands[opp])
    stack = list(state.stack)
    if sorted(hand + stack) != sorted(strong.unseen_cards(view)):
        raise AssertionError("the true hidden cards are not the view's unseen cards")
    if _KIND[0] == "hand":
        rng.shuffle(stack)
    return hand + stack


_ORACLE_Z = [strong.Z]


def oracle(view: Any, legal: Sequence[str], rng: random.Random) -> str:
    fair_z, strong.Z = strong.Z, _ORACLE_Z[0]  # (the opponent's searches keep theirs)
    try:
        return strong.choose_strong(view, legal, rng)
    finally:
        strong.Z = fair_z


def _ask(
    state: State,
    seat: int,
    player: Level,
    rng: random.Random,
    times: list[float],
    cpu_times: list[float],
) -> str:
    _TRUTH[0] = state if player is oracle and isinstance(state, KoiKoiState) else None
    try:
        return _fair_ask(state, seat, player, rng, times, cpu_times)
    finally:
        _TRUTH[0] = None


def main(argv: list[str]) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("out")
    p.add_argument("deals", type=int)
    p.add_argument("seed", type=int)
    p.add_argument("first", type=int)
    p.add_argument("kind", choices=("hand", "full"))
    p.add_argument("b", nargs="?", default="normal")
    p.add_argument("--z", type=float, default=strong.Z)
    args = p.parse_args(argv)
    _KIND[0] = args.kind
    _ORACLE_Z[0] = args.z
    strong.deal_hidden = _oracle_deal_hidden
    arena._ask = _ask
    try:
        level = {"a": oracle, "b": arena.resolve_level("koikoi", args.b)}
        head = {"a": f"oracle-{args.kind}", "b": args.b, "z": args.z}
        run("koikoi", level, args.out, args.deals, args.seed, args.first, head)
    finally:
        strong.deal_hidden, arena._ask = _fair_deal_hidden, _fair_ask


if __name__ == "__main__":
    main(sys.argv[1:])
