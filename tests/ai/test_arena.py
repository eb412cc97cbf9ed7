"""The arena (``python -m bench arena``): seats rotated, counts add up, statistics sound."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bench import arena
from bench.baselines import GREEDY

ROOT = Path(__file__).resolve().parents[2]


def _without_timing(result: dict) -> dict:
    return {k: v for k, v in result.items() if k not in ("seconds", "decision_ms")}


def test_a_deterministic_level_against_itself_is_exactly_even() -> None:
    """Greedy Koi-Koi uses no dice: with seats swapped each deal is the same match mirrored,
    so A wins exactly one of its two matches (or both tie) and the difference is 0."""
    r = arena.run_arena("koikoi", "greedy", "greedy", deals=6, seed=3)
    assert r["matches"] == 12 == r["a_wins"] + r["ties"] + r["b_wins"]
    assert r["a_wins"] == r["b_wins"]
    assert r["win_rate_a"] == 0.5 and r["win_rate_ci"] == [0.5, 0.5]
    assert r["score_diff"] == 0 and r["score_diff_ci"] == [0, 0]


def test_random_against_itself_is_near_even_and_the_cis_cover_the_truth() -> None:
    """Equal levels: the true win rate is 50 % and the true difference 0; a 95 % interval
    should contain them in most of ten independent arenas (coverage, not luck of a seed)."""
    win_covered = diff_covered = 0
    for seed in range(10):
        r = arena.run_arena("koikoi", "random", "random", deals=30, seed=seed)
        assert r["matches"] == 60 == r["a_wins"] + r["ties"] + r["b_wins"]
        lo, hi = r["win_rate_ci"]
        assert lo < r["win_rate_a"] < hi and hi - lo < 0.45
        win_covered += lo <= 0.5 <= hi
        dlo, dhi = r["score_diff_ci"]
        diff_covered += dlo <= 0 <= dhi
        # One level: every decision is counted under its single name.
        assert list(r["decision_ms"]) == ["random"]
    assert win_covered >= 8 and diff_covered >= 8


def test_a_clearly_stronger_level_wins_with_a_ci_above_half() -> None:
    r = arena.run_arena("mushi", "normal", "random", deals=4, seed=1, options={"hands": 6})
    assert r["win_rate_ci"][0] > 0.5 and r["score_diff_ci"][0] > 0
    assert set(r["decision_ms"]) == {"normal", "random"}
    assert r["options"] == {"hands": 6}


def test_the_arena_is_deterministic_and_processes_change_nothing() -> None:
    one = arena.run_arena("koikoi", "normal", "greedy", deals=6, seed=9)
    again = arena.run_arena("koikoi", "normal", "greedy", deals=6, seed=9)
    two = arena.run_arena("koikoi", "normal", "greedy", deals=6, seed=9, processes=2)
    assert _without_timing(one) == _without_timing(again) == _without_timing(two)
    assert one["decision_ms"]["normal"]["decisions"] == two["decision_ms"]["normal"]["decisions"]


@pytest.mark.parametrize("game", ["panda", "sandayi", "mahjong"])
def test_four_seat_games_rotate_levels_over_the_seats(game: str) -> None:
    assert arena.rotations(4) == [("a", "b", "a", "b"), ("b", "a", "b", "a")]
    outcome = arena.play_deal((game, "greedy", "random", "7", 0, {}))
    assert outcome.wins + outcome.ties + outcome.losses == 2
    assert set(outcome.times) == {"greedy", "random"} and all(outcome.times.values())


def test_every_game_has_a_greedy_baseline_that_plays_legal_moves() -> None:
    from bot.games import GAME_NAMES

    assert set(GREEDY) == set(GAME_NAMES)


def test_unknown_level_or_bad_option_is_refused_clearly() -> None:
    with pytest.raises(ValueError, match="Unknown level 'grandmaster'"):
        arena.run_arena("koikoi", "grandmaster", "normal", deals=1)
    with pytest.raises(ValueError, match="Unknown option"):
        arena.run_arena("koikoi", "normal", "normal", deals=1, options={"bogus": 1})


def test_the_command_line_prints_one_json_object() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "bench", "arena", "--game", "koikoi", "--a", "greedy"]
        + ["--b", "random", "--deals", "3", "--seed", "2", "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    r = json.loads(proc.stdout)
    assert r["deals"] == 3 and r["matches"] == 6 and r["a"] == "greedy"
    bad = subprocess.run(
        [sys.executable, "-m", "bench", "arena", "--game", "chess", "--a", "x", "--b", "y"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert bad.returncode == 2 and "Unknown game 'chess'" in bad.stderr


def _sleeper(view, legal, rng) -> str:
    """Waits without working: wall-clock time, next to no CPU time."""
    time.sleep(0.002)
    return legal[0]


def _spinner(view, legal, rng) -> str:
    """Works 2 ms of this thread's CPU time, however long the wall clock takes."""
    until = time.thread_time() + 0.002
    while time.thread_time() < until:
        pass
    return legal[0]


def test_the_decision_time_has_a_cpu_figure_beside_the_wall_clock(monkeypatch) -> None:
    """A level that sleeps costs wall-clock time but no CPU time; a level that computes costs
    CPU time: the arena reports both, per level (``cpu_median_ms``/``cpu_p99_ms``)."""
    levels = {"sleeper": _sleeper, "spinner": _spinner}
    monkeypatch.setattr(arena, "resolve_level", lambda game, name: levels[name])
    outcome = arena.play_deal(("koikoi", "sleeper", "spinner", "4", 0, {}))
    assert set(outcome.cpu_times) == {"sleeper", "spinner"}
    for name in levels:
        walls, cpus = outcome.times[name], outcome.cpu_times[name]
        assert len(cpus) == len(walls) > 0
        # The CPU time is measured inside the wall-clock interval, so never exceeds it.
        assert all(c <= w + 0.01 for c, w in zip(cpus, walls, strict=True))
    r = arena.run_arena("koikoi", "sleeper", "spinner", deals=1, seed=4)
    sleeper, spinner = r["decision_ms"]["sleeper"], r["decision_ms"]["spinner"]
    assert sleeper["median_ms"] >= 2.0 and sleeper["cpu_median_ms"] < 1.0
    assert spinner["cpu_median_ms"] >= 2.0 and spinner["median_ms"] >= 2.0
    assert sleeper["cpu_p99_ms"] <= sleeper["p99_ms"] and spinner["cpu_p99_ms"] >= 2.0
    assert "CPU time" in arena.format_report(r)


def test_progress_lines_go_to_stderr_and_change_no_figure(capsys) -> None:
    quiet = arena.run_arena("koikoi", "greedy", "random", deals=4, seed=5)
    capsys.readouterr()
    loud = arena.run_arena("koikoi", "greedy", "random", deals=4, seed=5, progress=2)
    out, err = capsys.readouterr()
    assert out == ""
    lines = err.strip().splitlines()
    assert [line.split(": ")[1].split(",")[0] for line in lines] == ["2/4 deals", "4/4 deals"]
    assert lines[-1].startswith("arena koikoi greedy-random:")
    assert f"{loud['win_rate_a']:.1%}" in lines[-1]
    assert _without_timing(loud) == _without_timing(quiet)
