"""AI against uniformly random players, for the strength test and the benchmark (pure)."""

from __future__ import annotations

import random
from collections.abc import Iterable

from bot.games.mahjong.ai import choose
from bot.games.mahjong.rules import new_game

PLAYERS = ["A", "B", "C", "D"]


def ai_vs_random(seeds: Iterable[int], max_hands: int) -> tuple[float, float, int, int, int]:
    """AI seats (0, 2) against random seats (1, 3): mean score change per hand of each side,
    hands won by each side, and the number of hands played."""
    totals = [0, 0]
    wins = [0, 0]
    hands = 0
    for seed in seeds:
        rng = random.Random(seed)
        g = new_game(seed, PLAYERS, {"max_hands": max_hands})
        while not g.is_over:
            seat = g.to_act[0]
            legal = g.legal_actions(seat)
            code = choose(g.view(seat), legal, rng) if seat % 2 == 0 else rng.choice(legal)
            g.apply(seat, code)
        hands += g.hand_no
        for p in range(4):
            totals[p % 2] += g.totals[p]
        for h in g.history:
            if h["winner"] is not None:
                wins[h["winner"] % 2] += 1
    return totals[0] / 2 / hands, totals[1] / 2 / hands, wins[0], wins[1], hands
