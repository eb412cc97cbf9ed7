"""San Da Yi engine, AI and rendering figures (plain functions; ``python -m bench`` prints them)."""

from __future__ import annotations

import random
import statistics
import time

from bot.games import sandayi
from bot.games.sandayi import render
from bot.games.sandayi.arena import (
    ai_policy,
    declarer_stats,
    match,
    random_policy,
)
from bot.render.encode import to_png

PLAYERS = ("North", "East", "South", "West")


def playout_hands_per_second(seconds: float = 3.0) -> float:
    """Hands per second of uniformly random legal playouts (redeals included)."""
    rng = random.Random(1)
    hands = 0
    start = time.perf_counter()
    seed = 0
    while time.perf_counter() - start < seconds:
        state = sandayi.new_game(seed, PLAYERS, {"hands": 8})
        seed += 1
        while not state.is_over and time.perf_counter() - start < seconds:
            seat = state.to_act[0]
            before = len(state.history)
            state.apply(seat, rng.choice(state.legal_actions(seat)))
            hands += len(state.history) - before
    return hands / (time.perf_counter() - start)


def ai_decision_ms(samples: int = 300) -> tuple[float, float]:
    """Median and p99 time of one AI decision (view building excluded), over match states."""
    rng = random.Random(2)
    times: list[float] = []
    seed = 0
    while len(times) < samples:
        state = sandayi.new_game(f"ai{seed}", PLAYERS, {"hands": 2})
        seed += 1
        while not state.is_over and len(times) < samples:
            seat = state.to_act[0]
            view = state.view(seat)
            legal = state.legal_actions(seat)
            t0 = time.perf_counter()
            code = sandayi.choose(view, legal, rng)
            times.append((time.perf_counter() - t0) * 1000)
            state.apply(seat, code)
    times.sort()
    return statistics.median(times), times[min(len(times) - 1, int(len(times) * 0.99))]


def ai_vs_random(matches: int = 100) -> float:
    """Share of 4-hand matches in which one AI seat finishes first against three random
    players (bidding included)."""
    firsts = 0
    for seed in range(matches):
        state = match(
            f"vs{seed}", [ai_policy, random_policy, random_policy, random_policy], hands=4
        )
        firsts += state.result().placements[0] == 1
    return firsts / matches


def declarer_and_defender_strength(hands: int = 300) -> dict[str, float]:
    """Mean settlement per hand at a forced bid of 60 (stake 1), for the declarer:
    AI vs random defenders, random vs random, random declarer vs AI defenders."""
    seeds = [f"d{i}" for i in range(hands)]
    ai_decl = declarer_stats(seeds, ai_policy, random_policy)
    rnd = declarer_stats(seeds, random_policy, random_policy)
    ai_def = declarer_stats(seeds, random_policy, ai_policy)
    return {
        "ai_declarer_mean": ai_decl.mean_declarer,
        "ai_declarer_win_rate": ai_decl.declarer_win_rate,
        "random_declarer_mean": rnd.mean_declarer,
        "random_declarer_win_rate": rnd.declarer_win_rate,
        "ai_defenders_mean": ai_def.mean_defenders,
        "random_defenders_mean": rnd.mean_defenders,
        "ai_defenders_kou_di_rate": ai_def.kou_di_rate,
        "random_defenders_kou_di_rate": rnd.kou_di_rate,
    }


def render_ms(samples: int = 30) -> dict[str, float]:
    """Median time to render the table of a mid-hand view and encode it as PNG."""
    state = sandayi.new_game(7, PLAYERS, {"hands": 1})
    rng = random.Random(7)
    state.apply(state.to_act[0], "bid 60")
    while state.phase == "bidding":
        state.apply(state.to_act[0], "pass")
    while state.phase != "play" or len(state.tricks) < 5 or len(state.trick) < 2:
        seat = state.to_act[0]
        state.apply(seat, ai_policy(state, seat, rng))
    view = state.view(None)
    to_png(render.render_table(view))  # warm the sprite caches
    times = []
    png = b""
    for _ in range(samples):
        t0 = time.perf_counter()
        png = to_png(render.render_table(view))
        times.append((time.perf_counter() - t0) * 1000)
    return {"median_ms": statistics.median(times), "png_bytes": len(png)}


if __name__ == "__main__":
    print(f"hands/s {playout_hands_per_second(2.0):,.0f}")
    median, p99 = ai_decision_ms(300)
    print(f"AI ms median/p99 {median:.3f} / {p99:.3f}")
    print(f"AI first vs 3 random {ai_vs_random(50):.0%}")
    for k, v in declarer_and_defender_strength(300).items():
        print(f"{k:32s} {v:+.2f}")
    print(render_ms(20))
