"""Start-up objects stay out of garbage collections; the C heap's free pages go back to
the system (glibc's ``malloc_trim``)."""

from __future__ import annotations

import asyncio
import gc
import subprocess
import sys
from collections.abc import Coroutine
from typing import Any

import pytest

from bot import heap

#: The measurement, run in a process of its own: after a long test run the process has
#: threads (render pools, database connections) and a heap whose state changes what a free
#: alone gives back (a thread's malloc may even have moved the main thread to another
#: arena), so the same steps in the test's own process are not reproducible.
_TRIM_PROBE = """
from bot import heap

def rss_kib():
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))

blocks, pins = [], []
for i in range(1600):  # 100 MiB
    blocks.append(bytearray(64 * 1024))
    blocks[-1][::4096] = b"x" * 16  # touch every page
    pins.append(bytearray(1024 + i % 7))  # (over 512 B: from C's heap, not Python's)
before = rss_kib()
del blocks
freed = rss_kib()
trimmed = heap.trim_heap()
after = rss_kib()
print(before, freed, after, trimmed, len(pins))
"""


@pytest.mark.skipif(not heap.can_trim(), reason="no glibc malloc_trim on this platform")
def test_trimming_gives_freed_heap_pages_back() -> None:
    """Blocks of 64 KiB (under glibc's mmap threshold: they come from the heap) are freed
    while a small block allocated after each keeps the heap from shrinking by itself; a trim
    gives most of the freed space back."""
    out = subprocess.run(
        [sys.executable, "-c", _TRIM_PROBE], capture_output=True, text=True, check=True
    ).stdout.split()
    before, freed, after = (int(x) for x in out[:3])
    assert out[3] == "True"
    assert before - freed < 30 * 1024  # freeing alone gave little back...
    assert freed - after > 60 * 1024  # ...the trim most of the 100 MiB
    assert out[4] == "1600"


async def _runs_until_cancelled(work: Coroutine[Any, Any, None], calls: list[Any]) -> None:
    """Run a periodic ``work`` until it has called three times; it stops when cancelled."""
    task = asyncio.get_running_loop().create_task(work)
    while len(calls) < 3:
        await asyncio.sleep(0)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task


async def test_the_trimmer_runs_until_cancelled(monkeypatch: pytest.MonkeyPatch) -> None:
    trims: list[int] = []
    monkeypatch.setattr(heap, "trim_heap", lambda: trims.append(1) or True)
    monkeypatch.setattr(heap, "can_trim", lambda: True)
    await _runs_until_cancelled(heap.trim_heap_every(0.0), trims)


def test_full_collections_are_taken_over_once_per_process(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """What start-up left over is collected, the rest frozen, and Python's own full
    collections turned off (the young generations keep theirs); a second bot in the same
    process changes nothing more."""
    calls: list[object] = []
    monkeypatch.setattr(heap, "_managed", False)
    monkeypatch.setattr(gc, "collect", lambda *a: calls.append("collect") or 0)
    monkeypatch.setattr(gc, "freeze", lambda: calls.append("freeze"))
    monkeypatch.setattr(gc, "get_threshold", lambda: (700, 10, 10))
    monkeypatch.setattr(gc, "set_threshold", lambda *t: calls.append(t))
    assert heap.manage_collections()
    assert calls[:2] == ["collect", "freeze"]
    young, middle, full = calls[2]  # type: ignore[misc]
    assert (young, middle) == (700, 10) and full >= 2**30
    assert not heap.manage_collections()
    assert len(calls) == 3


async def test_full_collections_run_on_a_timer(monkeypatch: pytest.MonkeyPatch) -> None:
    generations: list[tuple[object, ...]] = []
    monkeypatch.setattr(gc, "collect", lambda *a: generations.append(a) or 0)
    await _runs_until_cancelled(heap.collect_every(0.0), generations)
    assert all(g in ((), (2,)) for g in generations)  # full ones
