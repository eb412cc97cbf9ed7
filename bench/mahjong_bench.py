"""Mah-Jongg figures for ``python -m bench mahjong`` (plain functions, no CLI)."""

from __future__ import annotations

import random
import statistics
import time

from bot.games.mahjong import choose, new_game, selfplay
from bot.games.mahjong.render import render_table
from bot.render.encode import to_png

PLAYERS = ["A", "B", "C", "D"]


def playout_hands_per_second(seconds: float = 3.0) -> float:
    """Random legal play: hands (deals) per second of CPU time on one core."""
    rng = random.Random(1)
    hands = 0
    seed = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        g = new_game(seed, PLAYERS, {"max_hands": 20})
        seed += 1
        while not g.is_over:
            seat = g.to_act[0]
            g.apply(seat, rng.choice(g.legal_actions(seat)))
        hands += g.hand_no
    return hands / (time.process_time() - start)


def ai_decision_ms(samples: int = 300) -> tuple[float, float]:
    """Median and p99 time of one AI decision (over a mix of turns and claims)."""
    rng = random.Random(2)
    times: list[float] = []
    seed = 100
    while len(times) < samples:
        g = new_game(seed, PLAYERS, {"max_hands": 2})
        seed += 1
        while not g.is_over and len(times) < samples:
            seat = g.to_act[0]
            view, legal = g.view(seat), g.legal_actions(seat)
            t = time.perf_counter()
            code = choose(view, legal, rng)
            times.append((time.perf_counter() - t) * 1000)
            g.apply(seat, code)
    times.sort()
    return statistics.median(times), times[min(len(times) - 1, int(len(times) * 0.99))]


def ai_vs_random(matches: int = 20) -> str:
    """AI seats (0, 2) against uniformly random seats (1, 3): mean score change per hand."""
    ai, rnd, ai_wins, rnd_wins, hands = selfplay.ai_vs_random(range(matches), max_hands=8)
    return (
        f"per hand: AI {ai:+.1f}, random {rnd:+.1f}; "
        f"hands won AI {ai_wins} / random {rnd_wins} of {hands}"
    )


def render_ms(samples: int = 30) -> dict:
    """Table render + PNG encode time (median ms) and PNG size for mid-game views."""
    rng = random.Random(3)
    views = []
    g = new_game(7, PLAYERS)
    while len(views) < samples and not g.is_over:
        seat = g.to_act[0]
        g.apply(seat, choose(g.view(seat), g.legal_actions(seat), rng))
        if g.version % 7 == 0:
            views.append(g.view(None))
    times = []
    size = 0
    for v in views:
        t = time.perf_counter()
        png = to_png(render_table(v))
        times.append((time.perf_counter() - t) * 1000)
        size = len(png)
    return {"median_ms": statistics.median(times), "png_bytes": size}
