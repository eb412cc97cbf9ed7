"""A short version of the fault soak (``python -m bench faults --quick``) on SQLite and on
a throwaway PostgreSQL server of its own (never the machine's service: it is restarted and
stalled). Every check of the soak must hold: nothing lost, nothing applied twice, every
ended match recorded once, no table stuck, the CPU quiet once play stops.

With real bot processes (``bench/faults_process.py``: one on SQLite, two sharing
PostgreSQL) it also suffers Discord's 5xx bursts, gateway disconnects and a real kill -9;
in-process (``bench/faults.py``) SQLite failing outright."""

from __future__ import annotations

import os
import random

import pytest

from bench import faults
from bench.faults_process import shown_problems
from bench.pg_throwaway import postgres_bindir
from bot.games import game_module


def _need_postgres(kind: str) -> None:
    if kind == "postgres" and postgres_bindir() is None:
        if os.environ.get("TEAHOUSE_REQUIRE_POSTGRES") == "1":
            pytest.fail("TEAHOUSE_REQUIRE_POSTGRES=1 but initdb/pg_ctl are not installed")
        pytest.skip("PostgreSQL's initdb and pg_ctl are not installed")


def _all_checks_hold(report: faults.FaultsReport) -> None:
    print("\n".join(report.lines()))
    assert report.errors == []
    assert report.actions > 0 and report.finished >= 1
    assert report.lost == [] and report.doubled == []
    assert report.unrecorded == [] and report.stuck == []
    assert report.cpu_after <= faults.QUIET_CPU
    assert report.ok


@pytest.mark.parametrize(("kind", "processes"), [("sqlite", 1), ("postgres", 2)])
async def test_the_short_fault_soak_with_bot_processes_holds(kind: str, processes: int) -> None:
    _need_postgres(kind)
    report = await faults.soak(kind, tables=4, quick=True, seed=3, processes=processes)
    _all_checks_hold(report)
    # kill -9, Discord 5xx, RESUME, (a restart,) INVALID_SESSION, the database stalled.
    assert len(report.faults) == (6 if kind == "postgres" else 5)
    assert report.notes["the fake's 5xx answers"] > 0
    assert report.notes["decisions shown, checked against the log"] > 0


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
async def test_the_short_in_process_fault_soak_holds(kind: str) -> None:
    _need_postgres(kind)
    report = await faults.soak(kind, tables=4, quick=True, seed=3, in_process=True)
    _all_checks_hold(report)
    assert len(report.faults) == (3 if kind == "postgres" else 2)


def _shown(seat: int, version: int, codes: list[str]) -> tuple[int, int, list[dict[str, str]]]:
    return seat, version, [{"custom_id": f"th:a:1:{seat}:{version}:{code}"} for code in codes]


def test_a_decision_shown_that_the_log_does_not_hold_is_found() -> None:
    game, seed, names = "koikoi", "shown", ["Person", "AI 1"]
    module = game_module(game)
    state = module.new_game(seed, names, {})
    rng = random.Random(1)
    log: list[tuple[int, str]] = []
    shown = []
    for _ in range(8):
        seat = state.to_act[0]
        shown.append(_shown(seat, state.version, state.legal_actions(seat)))
        code = module.choose(state.view(seat), state.legal_actions(seat), rng)
        state.apply(seat, code)
        log.append((seat, code))
    seat = state.to_act[0]
    legal = state.legal_actions(seat)
    assert shown_problems(game, seed, names, {}, log, [*shown, _shown(seat, 8, legal)]) == []
    # A move the log lost: the next decision was shown, the log does not have it.
    beyond = shown_problems(game, seed, names, {}, log[:-1], [*shown, _shown(seat, 8, legal)])
    assert beyond == ["showed version 8, the log has 7 actions"]
    # A decision shown to the seat not to act, or a move the log's state refuses.
    assert shown_problems(game, seed, names, {}, log, [_shown(1 - seat, 8, legal)])
    assert shown_problems(game, seed, names, {}, log, [_shown(seat, 8, ["no-such-move"])])
