"""Panda benchmarks (plain functions; the lead wires ``python -m bench``)."""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

from bot.games.panda import choose, new_game
from bot.games.panda.selfplay import PLAYERS as _PLAYERS
from bot.games.panda.selfplay import play_match, random_agent, step

PLAYERS = list(_PLAYERS)


def ai_vs_random(matches: int = 40, out_of_turn: float = 0.05) -> float:
    """Share of matches to 1000 won by two AIs (seats 0+2) against two random players."""
    rnd = random_agent(out_of_turn)
    agents = [choose, rnd, choose, rnd]
    wins = 0
    for m in range(matches):
        state = play_match(10_000 + m, agents)
        wins += state.team_scores[0] > state.team_scores[1]
    return wins / matches


def playout_hands_per_second(seconds: float = 3.0) -> float:
    """Engine speed: random legal actions (the seat to act; now and then an optional
    out-of-turn action), no views. Hands finished per second."""
    hands = 0
    seed = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = new_game(seed, PLAYERS, {"target": 500})
        rng = random.Random(seed)
        while not state.is_over and time.perf_counter() - start < seconds:
            before = state.deal_no
            if state.may_act and rng.random() < 0.05:
                seat = rng.choice(state.may_act)
            else:
                seat = state.to_act[0]
            legal = state.legal_actions(seat)
            # Random players calling at every chance would never end a match.
            plain = [c for c in legal if c != "call"] or legal
            state.apply(seat, rng.choice(plain))
            hands += state.deal_no != before or state.is_over
        seed += 1
    return hands / (time.perf_counter() - start)


def ai_decision_ms(samples: int = 300) -> tuple[float, float]:
    """Median and p99 time of one AI decision (to_act seats), over AI-vs-AI play."""
    times: list[float] = []
    seed = 0
    while len(times) < samples:
        state = new_game(seed, PLAYERS)
        rng = random.Random(seed)
        while not state.is_over and len(times) < samples:
            s = state.to_act[0]
            view, legal = state.view(s), state.legal_actions(s)
            t0 = time.perf_counter()
            code = choose(view, legal, rng)
            times.append((time.perf_counter() - t0) * 1000)
            state.apply(s, code)
        seed += 1
    times.sort()
    return statistics.median(times), times[min(len(times) - 1, int(len(times) * 0.99))]


def render_ms(samples: int = 30) -> dict[str, float]:
    """Median time to render (and encode) a table image, and its PNG size."""
    from bot.games.panda.render import render_table

    try:
        from bot.render.encode import to_png
    except ImportError:  # pragma: no cover - until bot/render/encode.py exists
        import io

        def to_png(img: Any) -> bytes:
            buf = io.BytesIO()
            img.save(buf, "PNG", optimize=False)
            return buf.getvalue()

    state = new_game(1, PLAYERS)
    rng = random.Random(1)
    views = []
    while len(views) < samples:
        step(state, [choose] * 4, rng)
        if state.phase == "play" and state.trick:
            views.append(state.view(None))
    times, sizes = [], []
    for v in views:
        t0 = time.perf_counter()
        data = to_png(render_table(v))
        times.append((time.perf_counter() - t0) * 1000)
        sizes.append(len(data))
    return {"median_ms": statistics.median(times), "png_bytes": statistics.median(sizes)}
