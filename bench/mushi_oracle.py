"""How much would Mushi's ``normal`` gain from knowing the opponent's hand? (bench only)

``python -m bench.mushi_oracle OUT.json DEALS SEED B [FIRST]`` plays the arena's deals
(``bench.paired``: the same seeds, rotations and per-deal figures as ``python -m bench
arena --game mushi``) of an *oracle* ``normal`` against B (a level name). The oracle is
``normal``'s own one-ply expectimax, but on its own turns it reads the opponent's true hand
from the true state: the risk and next-turn terms see exactly the cards the opponent
holds, and the flip's average runs over the stock's cards only. This bounds what any
reading of the opponent's hand could bring ``normal``'s evaluation (docs/ai/mushi.md,
stop 42). The true state reaches it through the arena's ``_ask``, patched here and
restored after the run.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Mapping, Sequence
from typing import Any

from bench import arena, paired
from bench.arena import resolve_level
from bot.games.mushi import ai

_fair_ask = arena._ask
_fair_position = ai._Position
_asking: list[Any] = [None]


def _ask_noting_state(state: Any, seat: int, *args: Any) -> str:
    _asking[0] = state
    try:
        return _fair_ask(state, seat, *args)
    finally:
        _asking[0] = None  # (the true state is seen only while a seat decides)


def true_opponent_hand(state: Any, seat: int) -> list[str]:
    return list(state.hands[1 - seat])


class _Knowing(ai._Position):
    """``normal``'s position with the opponent's hand known: every other unseen card is
    surely in the stock, and the hand is drawn from exactly its own cards."""

    def __init__(self, view: Mapping[str, Any], read: bool = False, hold: Any = None) -> None:
        super().__init__(view, False)  # (no reading, no belief: the hand itself is known)
        held = set(true_opponent_hand(_asking[0], view["seat"]))
        assert held <= set(self.unseen), "the opponent's hand must be among the unseen cards"
        self.sure_stock = frozenset(c for c in self.unseen if c not in held)
        self.pool = len(held)
        self.wild_in_pool = ai.WILD in held
        self.unseen_by_month = {}
        for c in held:
            if c != ai.WILD:
                self.unseen_by_month[ai.MONTH[c]] = self.unseen_by_month.get(ai.MONTH[c], 0) + 1


def oracle(view: Mapping[str, Any], legal: Sequence[str], rng: random.Random) -> str:
    """``normal`` knowing the opponent's hand (only inside :func:`run`)."""
    ai._Position = _Knowing
    try:
        return ai.choose(view, legal, rng, read=False)
    finally:
        ai._Position = _fair_position


def run(out: str, deals: int, seed: int, b: str, first: int = 0) -> None:
    arena._ask = _ask_noting_state
    try:
        level = {"a": oracle, "b": resolve_level("mushi", b)}
        paired.run("mushi", level, out, deals, seed, first, {"variant": "oracle normal"})
    finally:
        arena._ask = _fair_ask


if __name__ == "__main__":
    run(
        sys.argv[1],
        int(sys.argv[2]),
        int(sys.argv[3]),
        sys.argv[4],
        int(sys.argv[5]) if len(sys.argv) > 5 else 0,
    )
