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
