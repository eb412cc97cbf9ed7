"""``python -m bench host`` ends by itself: closing the host cancels its tables' tasks and
does not wait on a driver blocked in a wait (it used to hang at shutdown)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_host_bench_exits_by_itself() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "bench", "host", "--quick"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,  # a generous bound on a busy machine; a hang would never finish
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "ack latency" in proc.stdout


def test_the_process_host_bench_exits_by_itself_and_reports_json() -> None:
    """``python -m bench host --tables N ...`` runs ``python -m bot`` as a separate process,
    stops it in any case and prints one JSON object with the figures."""
    import json

    proc = subprocess.run(
        [sys.executable, "-m", "bench", "host", "--tables", "3", "--pace", "1"]
        + ["--warmup", "2", "--duration", "5", "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    for key in (
        "ack_p50_ms",
        "ack_p99_ms",
        "decision_p50_ms",
        "decision_p99_ms",
        "table_stale_p99_ms",
        "actions_per_s",
        "cpu_ms_per_action",
        "rest_per_action",
        "rest_by_route",
        "http_429",
        "rss_kib_per_table",
        "errors",
    ):
        assert key in result, (key, result)
    assert not any(k.startswith("bench failed") for k in result["error_kinds"]), result
    assert result["actions"] > 0, result
