"""The arena: two AI levels play seeded matches against each other, seats rotated.

``python -m bench arena --game G --a LEVEL --b LEVEL --deals N [--json] [--seed S]
[--processes P] [--option name=value ...]``

A *deal* is one seeded match (the game's default options unless ``--option`` says
otherwise), played once per seat rotation with the same seed, so both levels get the same
cards from the same seats and seat advantage cancels: 2-player games play each deal twice
(A first, then B first); 4-player games twice too, as A B A B and B A B A (partners sit
opposite in Panda, so each level is one team; in San Da Yi and Mah-Jongg each level has two
seats and is judged by their mean score).

Figures, with 95 % confidence intervals over deals (a deal is the unit, its rotations are
averaged, so the correlated pair counts once):

- A's win rate: matches won by A (mean score of A's seats above B's), ties half;
- the mean score difference per deal (A's seats' mean minus B's, per match);
- the decision time of each level, median and p99 (ms, every ``choose`` call), both
  wall-clock (``median_ms``/``p99_ms``) and CPU time of the calling thread
  (``cpu_median_ms``/``cpu_p99_ms``, ``time.thread_time()``): on a loaded machine the
  wall clock also counts the time other processes held the core, the CPU time does not,
  so it is the figure to hold against a per-decision budget "on one core".

Levels are ``random`` and ``greedy`` (``bench/baselines.py``, bench only) and the game's own
AI levels (``easy``, ``normal``, ``strong``: :meth:`bot.engine.spec.GameSpec.ai`). The
engines are driven directly (``new_game``, ``legal_actions``, ``view``, ``apply``).
"""

from __future__ import annotations

import importlib
import math
import multiprocessing
import random
import statistics
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bench.baselines import GREEDY, Level, random_level
from bot.engine.core import State
from bot.engine.spec import GameSpec

BASELINES = ("random", "greedy")


def game_spec(game: str) -> GameSpec:
    return importlib.import_module(f"bot.games.{game}").SPEC


def resolve_level(game: str, name: str) -> Level:
    """The ``choose`` function of a level: a baseline or one of the game's AI levels."""
    if name == "random":
        return random_level
    if name == "greedy":
        return GREEDY[game]
    spec = game_spec(game)
    levels = spec.ai_levels()
    if name not in levels:
        known = ", ".join([*BASELINES, *levels])
        raise ValueError(f"Unknown level {name!r} for {game}: one of {known}.")
    return levels[name]


def rotations(seats: int) -> list[tuple[str, ...]]:
    """Which level ("a" or "b") sits at each seat, per rotation."""
    if seats == 2:
        return [("a", "b"), ("b", "a")]
    if seats == 4:
        return [("a", "b", "a", "b"), ("b", "a", "b", "a")]
    raise ValueError(f"no rotation scheme for {seats} seats")


@dataclass
class DealOutcome:
    """One deal: A's mean win share over its rotations, the mean score difference, and
    every decision time of each level (ms): wall-clock in ``times``, the thread's CPU time
    in ``cpu_times``."""

    win: float
    diff: float
    wins: int = 0
    ties: int = 0
    losses: int = 0
    times: dict[str, list[float]] = field(default_factory=dict)
    cpu_times: dict[str, list[float]] = field(default_factory=dict)


def play_match(
    spec: GameSpec,
    seed: str,
    players: Sequence[Level],
    options: Mapping[str, Any],
    rng: random.Random,
    times: Sequence[list[float]],
    cpu_times: Sequence[list[float]] | None = None,
) -> State:
    """One whole match; ``players[s]`` plays seat ``s``; decision times go to ``times[s]``
    (wall clock) and ``cpu_times[s]`` (the thread's CPU time), both in ms.

    Like the host: seats that may act out of turn are asked first ("" = nothing now), then
    the first seat with a pending decision."""
    state = spec.new_game(seed, [f"Seat {s}" for s in range(spec.seats)], dict(options))
    cpu = cpu_times if cpu_times is not None else [[] for _ in range(spec.seats)]
    while not state.is_over:
        acted = False
        for seat in state.may_act:
            code = _ask(state, seat, players[seat], rng, times[seat], cpu[seat])
            if code:
                state.apply(seat, code)
                acted = True
                break
        if not acted:
            seat = state.to_act[0]
            state.apply(seat, _ask(state, seat, players[seat], rng, times[seat], cpu[seat]))
    return state


def _ask(
    state: State,
    seat: int,
    player: Level,
    rng: random.Random,
    times: list[float],
    cpu_times: list[float],
) -> str:
    view, legal = state.view(seat), state.legal_actions(seat)
    started, cpu_started = time.perf_counter(), time.thread_time()
    code = player(view, legal, rng)
    cpu_times.append((time.thread_time() - cpu_started) * 1000)
    times.append((time.perf_counter() - started) * 1000)
    return code


def play_deal(args: tuple[str, str, str, str, int, Mapping[str, Any]]) -> DealOutcome:
    """Both rotations of deal ``deal`` (the same seed, so the same cards)."""
    game, a, b, seed, deal, options = args
    spec = game_spec(game)
    level = {"a": resolve_level(game, a), "b": resolve_level(game, b)}
    out = DealOutcome(win=0.0, diff=0.0, times={a: [], b: []}, cpu_times={a: [], b: []})
    rots = rotations(spec.seats)
    for r, rot in enumerate(rots):
        times = [out.times[a if who == "a" else b] for who in rot]
        cpu = [out.cpu_times[a if who == "a" else b] for who in rot]
        rng = random.Random(f"arena|{seed}|{deal}|{r}")
        players = [level[who] for who in rot]
        state = play_match(spec, f"{seed}|{deal}", players, options, rng, times, cpu)
        scores = state.scores
        mean_a = statistics.fmean(scores[s] for s, who in enumerate(rot) if who == "a")
        mean_b = statistics.fmean(scores[s] for s, who in enumerate(rot) if who == "b")
        out.diff += (mean_a - mean_b) / len(rots)
        if mean_a > mean_b:
            out.wins += 1
            out.win += 1 / len(rots)
        elif mean_a == mean_b:
            out.ties += 1
            out.win += 0.5 / len(rots)
        else:
            out.losses += 1
    return out


def mean_ci(values: Sequence[float]) -> tuple[float, float, float]:
    """Mean and its 95 % confidence interval (normal approximation)."""
    m = statistics.fmean(values)
    if len(values) < 2:
        return m, m, m
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
    return m, m - half, m + half


def percentile(sorted_values: Sequence[float], q: float) -> float:
    if not sorted_values:
        return 0.0
    return sorted_values[min(len(sorted_values) - 1, int(len(sorted_values) * q))]


def run_arena(
    game: str,
    a: str,
    b: str,
    deals: int,
    seed: int = 1,
    processes: int = 1,
    options: Mapping[str, Any] | None = None,
    progress: int = 0,
) -> dict[str, Any]:
    """Play ``deals`` deals of ``a`` against ``b`` and return the figures (see module doc).

    With ``progress`` N, every N deals a line on stderr says how many are done and A's win
    rate so far (a long arena on a loaded machine shows where it stands)."""
    spec = game_spec(game)
    resolve_level(game, a), resolve_level(game, b)  # unknown levels fail before any work
    options = dict(options or {})
    spec.parse_options(options)
    jobs = [(game, a, b, str(seed), d, options) for d in range(deals)]
    started = time.perf_counter()
    outcomes: list[DealOutcome] = []

    def done(outcome: DealOutcome) -> None:
        outcomes.append(outcome)
        if progress and len(outcomes) % progress == 0:
            win = statistics.fmean(o.win for o in outcomes)
            print(
                f"arena {game} {a}-{b}: {len(outcomes)}/{deals} deals, A's win rate {win:.1%}"
                f" ({time.perf_counter() - started:.0f} s)",
                file=sys.stderr,
                flush=True,
            )

    if processes > 1:
        with multiprocessing.get_context("fork").Pool(processes) as pool:
            # imap keeps the deals' order (the figures do not depend on the processes).
            chunk = max(1, min(deals // (processes * 8), progress or deals))
            for outcome in pool.imap(play_deal, jobs, chunksize=chunk):
                done(outcome)
    else:
        for job in jobs:
            done(play_deal(job))
    elapsed = time.perf_counter() - started
    win, win_lo, win_hi = mean_ci([o.win for o in outcomes])
    diff, diff_lo, diff_hi = mean_ci([o.diff for o in outcomes])
    times: dict[str, list[float]] = {}
    cpu_times: dict[str, list[float]] = {}
    for o in outcomes:
        for name, ts in o.times.items():
            times.setdefault(name, []).extend(ts)
        for name, ts in o.cpu_times.items():
            cpu_times.setdefault(name, []).extend(ts)
    decision = {}
    for name, ts in times.items():
        ts.sort()
        cts = sorted(cpu_times.get(name, []))
        decision[name] = {
            "decisions": len(ts),
            "median_ms": round(statistics.median(ts), 3) if ts else 0.0,
            "p99_ms": round(percentile(ts, 0.99), 3),
            "cpu_median_ms": round(statistics.median(cts), 3) if cts else 0.0,
            "cpu_p99_ms": round(percentile(cts, 0.99), 3),
        }
    return {
        "game": game,
        "a": a,
        "b": b,
        "deals": deals,
        "matches": sum(o.wins + o.ties + o.losses for o in outcomes),
        "seed": seed,
        "options": options or None,
        "a_wins": sum(o.wins for o in outcomes),
        "ties": sum(o.ties for o in outcomes),
        "b_wins": sum(o.losses for o in outcomes),
        "win_rate_a": round(win, 4),
        "win_rate_ci": [round(max(0.0, win_lo), 4), round(min(1.0, win_hi), 4)],
        "score_diff": round(diff, 3),
        "score_diff_ci": [round(diff_lo, 3), round(diff_hi, 3)],
        "decision_ms": decision,
        "seconds": round(elapsed, 1),
    }


def parse_option(text: str) -> tuple[str, Any]:
    """``name=value`` with value an int, true/false or text."""
    name, sep, raw = text.partition("=")
    if not sep or not name:
        raise ValueError(f"--option takes name=value, not {text!r}")
    value: Any = raw
    if raw.lower() in ("true", "false"):
        value = raw.lower() == "true"
    else:
        try:
            value = int(raw)
        except ValueError:
            pass
    return name, value


def format_report(r: Mapping[str, Any]) -> str:
    lo, hi = r["win_rate_ci"]
    dlo, dhi = r["score_diff_ci"]
    lines = [
        f"Arena: {r['game']}, {r['a']} (A) vs {r['b']} (B), {r['deals']} deals"
        f" = {r['matches']} matches, seed {r['seed']}"
        + (f", options {r['options']}" if r["options"] else ""),
        f"  A wins / ties / B wins        {r['a_wins']} / {r['ties']} / {r['b_wins']}",
        f"  A's win rate (ties half)      {r['win_rate_a']:.1%}  (95 % CI {lo:.1%} – {hi:.1%})",
        f"  score difference A−B / deal   {r['score_diff']:+.2f}  (95 % CI {dlo:+.2f} – {dhi:+.2f})",
    ]
    for name, d in r["decision_ms"].items():
        lines.append(
            f"  decision time {name:<15} median {d['median_ms']:.3f} ms, p99 {d['p99_ms']:.3f}"
            f" ms ({d['decisions']} decisions)"
        )
        lines.append(
            f"    CPU time {'':<18} median {d['cpu_median_ms']:.3f} ms,"
            f" p99 {d['cpu_p99_ms']:.3f} ms"
        )
    lines.append(f"  ({r['seconds']} s)")
    return "\n".join(lines)


__all__ = ["format_report", "play_deal", "play_match", "resolve_level", "rotations", "run_arena"]
