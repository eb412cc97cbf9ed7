"""Mushi benchmarks (plain functions; the lead wires ``python -m bench``)."""

from __future__ import annotations

import random
import statistics
import time

from bot.games.mushi import choose, new_game
from bot.games.mushi.rules import MushiState

PLAYERS = ["Alice", "Bob"]


def _random_step(state: MushiState, rng: random.Random) -> None:
    seat = state.to_act[0]
    state.apply(seat, rng.choice(state.legal_actions(seat)))


def playout_hands_per_second(seconds: float = 3.0) -> float:
    """Random legal playouts: hands finished per second."""
    hands = 0
    seed = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = new_game(seed, PLAYERS)
        rng = random.Random(seed)
        while not state.is_over and time.perf_counter() - start < seconds:
            before = len(state.history)
            _random_step(state, rng)
            hands += len(state.history) - before
        seed += 1
    return hands / (time.perf_counter() - start)


def ai_decision_ms(samples: int = 300) -> tuple[float, float]:
    """Median and p99 time of one AI decision (states from random playouts)."""
    times: list[float] = []
    seed = 0
    while len(times) < samples:
        state = new_game(10_000 + seed, PLAYERS)
        rng = random.Random(seed)
        while not state.is_over and len(times) < samples:
            seat = state.to_act[0]
            legal = state.legal_actions(seat)
            view = state.view(seat)
            start = time.perf_counter()
            code = choose(view, legal, rng)
            times.append((time.perf_counter() - start) * 1000)
            state.apply(seat, code if rng.random() < 0.5 else rng.choice(legal))
        seed += 1
    times.sort()
    return statistics.median(times), times[min(len(times) - 1, int(len(times) * 0.99))]


def ai_vs_random(matches: int = 100) -> float:
    """Share of 12-hand matches the AI wins against uniformly random play (seats alternate)."""
    wins = 0
    for m in range(matches):
        ai_seat = m % 2
        state = new_game(20_000 + m, PLAYERS)
        rng = random.Random(m)
        while not state.is_over:
            seat = state.to_act[0]
            legal = state.legal_actions(seat)
            code = choose(state.view(seat), legal, rng) if seat == ai_seat else rng.choice(legal)
            state.apply(seat, code)
        wins += state.scores[ai_seat] > state.scores[1 - ai_seat]
    return wins / matches


def ai_vs_random_per_hand(matches: int = 50) -> float:
    """The AI's mean score per hand against uniformly random play."""
    total = hands = 0
    for m in range(matches):
        ai_seat = m % 2
        state = new_game(30_000 + m, PLAYERS)
        rng = random.Random(m)
        while not state.is_over:
            seat = state.to_act[0]
            legal = state.legal_actions(seat)
            code = choose(state.view(seat), legal, rng) if seat == ai_seat else rng.choice(legal)
            state.apply(seat, code)
        total += state.scores[ai_seat]
        hands += len(state.history)
    return total / hands


def render_ms(samples: int = 30) -> dict[str, float]:
    """Table render + PNG encode: median milliseconds and the PNG size of the last one."""
    from bot.games.mushi.render import render_table
    from bot.render.encode import to_png

    state = new_game(7, PLAYERS)
    rng = random.Random(7)
    views = []
    while not state.is_over and len(views) < samples:
        for _ in range(3):
            if not state.is_over:
                _random_step(state, rng)
        views.append(state.view(None))
    times: list[float] = []
    size = 0
    render_table(views[0])  # warm the sprite caches
    for view in views:
        start = time.perf_counter()
        size = len(to_png(render_table(view)))
        times.append((time.perf_counter() - start) * 1000)
    return {"median_ms": statistics.median(times), "png_bytes": float(size)}
