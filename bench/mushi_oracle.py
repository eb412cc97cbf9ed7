"""How much would Mushi's ``normal`` gain from knowing the opponent's hand? (bench only)

``python -m bench.mushi_oracle OUT.json DEALS SEED B [FIRST]`` plays the arena's deals
(``bench.paired``: the same seeds, rotations and per-deal figures as ``python -m bench
arena --game mushi``) of an *oracle* ``normal`` against B (a level name). The oracle is
``normal``'s own one-ply expectimax, but on its own turns it reads the opponent's true hand
from the true state: the risk and next-turn terms see exactly the cards the opponent
holds, and the flip's average runs over the stock's cards only. This bounds what any
reading of the opponent's hand could bring ``normal``'s evaluation (docs/ai/mushi.md,
stop 42). The true state reaches it through the arena's ``_ask``, patched here and
restored after the run; ``normal`` reads it through a position whose every unseen card
but the opponent's hand surely lies in the stock
(:class:`bench.mushi_variants.SureStockPosition`).
"""

from __future__ import annotations

import random
import sys
from collections.abc import Mapping, Sequence
from typing import Any

from bench import arena, paired
from bench.arena import resolve_level
from bench.mushi_variants import SureStockPosition
from bot.games.mushi import ai
from bot.games.mushi.strong import unseen_cards

_fair_ask = arena._ask
_asking: list[Any] = [None]


def _ask_noting_state(state: Any, seat: int, *args: Any) -> str:
    _asking[0] = state
    try:
        return _fair_ask(state, seat, *args)
    finally:
        _asking[0] = None  # (the true state is seen only while a seat decides)


def true_opponent_hand(state: Any, seat: int) -> list[str]:
    return list(state.hands[1 - seat])


def knowing(view: Mapping[str, Any]) -> SureStockPosition:
    """``normal``'s position with the opponent's hand known (only while a seat decides in
    :func:`run`): every other unseen card is surely in the stock, and the hand is drawn
    from exactly its own cards."""
    held = set(true_opponent_hand(_asking[0], view["seat"]))
    unseen = unseen_cards(view)
    assert held <= set(unseen), "the opponent's hand must be among the unseen cards"
    return SureStockPosition(view, [c for c in unseen if c not in held])


def oracle(view: Mapping[str, Any], legal: Sequence[str], rng: random.Random) -> str:
    """``normal`` knowing the opponent's hand (only inside :func:`run`)."""
    return ai.choose(view, legal, rng, position=knowing)


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
