"""Koi-Koi engine and AI benchmarks (plain functions; ``python -m bench`` calls them)."""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bot.games.koikoi import choose, new_game
from bot.games.koikoi.rules import KoiKoiState

PLAYERS = ("North", "South")
Player = Callable[[Mapping[str, Any], Sequence[str], random.Random], str]


def _random_player(view: Mapping[str, Any], legal: Sequence[str], rng: random.Random) -> str:
    return rng.choice(legal)


def _play_match(seed: int, players: Sequence[Player]) -> KoiKoiState:
    state = new_game(seed, PLAYERS)
    rng = random.Random(f"bench-{seed}")
    while not state.is_over:
        seat = state.to_act[0]
        state.apply(seat, players[seat](state.view(seat), state.legal_actions(seat), rng))
    return state


def playout_rounds_per_second(seconds: float = 3.0) -> float:
    """Rounds (won, instant or drawn) per second of uniformly random legal play.

    Measures the engine alone: legal_actions + apply, no views.
    """
    rng = random.Random(0)
    rounds = 0
    seed = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        state = new_game(seed, PLAYERS)
        while not state.is_over:
            seat = state.to_act[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        rounds += len(state.history)
        seed += 1
    return rounds / (time.perf_counter() - start)


def ai_decision_ms(samples: int = 500) -> tuple[float, float]:
    """Median and 99th percentile of one AI decision (ms), at positions of AI-vs-random play."""
    timings: list[float] = []
    seed = 0
    while len(timings) < samples:
        state = new_game(seed, PLAYERS)
        rng = random.Random(seed)
        while not state.is_over and len(timings) < samples:
            seat = state.to_act[0]
            view, legal = state.view(seat), state.legal_actions(seat)
            if seat == 0:
                t0 = time.perf_counter()
                code = choose(view, legal, rng)
                timings.append((time.perf_counter() - t0) * 1000)
            else:
                code = rng.choice(legal)
            state.apply(seat, code)
        seed += 1
    timings.sort()
    p99 = timings[min(len(timings) - 1, int(len(timings) * 0.99))]
    return statistics.median(timings), p99


def ai_vs_random(matches: int = 400) -> float:
    """Share of whole matches the AI wins against a uniformly random player (both seat
    orders alternate; a tie is not a win)."""
    wins = 0
    for seed in range(matches):
        ai_seat = seed % 2
        players = [choose, _random_player] if ai_seat == 0 else [_random_player, choose]
        scores = _play_match(seed, players).scores
        wins += scores[ai_seat] > scores[1 - ai_seat]
    return wins / matches
