"""A short version of the fault soak (``python -m bench faults --quick``) on SQLite and on
a throwaway PostgreSQL server of its own (never the machine's service: it is restarted and
stalled). Every check of the soak must hold: nothing lost, nothing applied twice, every
ended match recorded once, no table stuck, the CPU quiet once play stops."""

from __future__ import annotations

import os

import pytest

from bench import faults
from bench.pg_throwaway import postgres_bindir


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
async def test_the_short_fault_soak_holds(kind: str) -> None:
    if kind == "postgres" and postgres_bindir() is None:
        if os.environ.get("TEAHOUSE_REQUIRE_POSTGRES") == "1":
            pytest.fail("TEAHOUSE_REQUIRE_POSTGRES=1 but initdb/pg_ctl are not installed")
        pytest.skip("PostgreSQL's initdb and pg_ctl are not installed")
    report = await faults.soak(kind, tables=4, quick=True, seed=3)
    print("\n".join(report.lines()))
    assert len(report.faults) == (3 if kind == "postgres" else 2)
    assert report.actions > 0 and report.finished >= 1
    assert report.lost == [] and report.doubled == []
    assert report.unrecorded == [] and report.stuck == []
    assert report.cpu_after <= faults.QUIET_CPU
