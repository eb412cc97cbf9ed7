"""Finished tables leave nothing behind in the host: memory stays flat over many matches.

The host runs whole Koi-Koi matches between AI seats (the human seat is taken over by an
AI, as after repeated timeouts) on a real SQLite store; Discord is absent (no channel is
found, so nothing is sent) and images are not drawn. The default run plays 40 matches; the
soak (``-m soak``) plays 500.
"""

from __future__ import annotations

import asyncio
import gc
import tracemalloc
from typing import Any

import pytest

from bot.host.manager import TableHost
from bot.store import SeatRow, Store
from tests.host.offline import offline_host


async def _play_matches(host: TableHost, store: Store, count: int, start: int) -> None:
    for i in range(start, start + count):
        table_id = await store.create_table(
            guild_id=1, channel_id=2, game="koikoi", options={}, seed=f"soak-{i}", host_id=7
        )
        await store.set_seats(
            table_id,
            [
                SeatRow(seat=0, user_id=7, name="Alice", ai_takeover=True, dms_closed=True),
                SeatRow(seat=1, user_id=None, name="AI 1", is_ai=True),
            ],
        )
        assert await store.transition(table_id, ("lobby",), "active")
        assert await host.restore() == 1  # its lease is free: claimed and driven here
        table = host.tables[table_id]

        async def finished(table=table) -> None:
            # Over, and forgotten once the end is written and shown.
            while not table.finished or table.id in host.tables:
                await asyncio.sleep(0.01)

        await asyncio.wait_for(finished(), 60)  # a stuck driver fails the test, not the run
        assert (await store.get_table(table_id)).status == "finished"


async def _host(tmp_path: Any) -> tuple[TableHost, Store]:
    # Only restore() claims the tables here: the takeover scan (running since the first
    # restore) would otherwise take a table that it finds between its activation and the
    # restore() meant for it, and that restore() would find nothing to claim.
    host = await offline_host(
        str(tmp_path / "soak.db"), ai_delay=0.0, edit_interval=0.0, takeover_scan=3600.0
    )
    return host, host.store


async def _flat_memory(tmp_path: Any, warmup: int, measured: int) -> None:
    host, store = await _host(tmp_path)
    try:
        await _play_matches(host, store, warmup, 0)
        gc.collect()
        tracemalloc.start()
        before = tracemalloc.take_snapshot()
        await _play_matches(host, store, measured, warmup)
        gc.collect()
        after = tracemalloc.take_snapshot()
        tracemalloc.stop()
        # Nothing of a finished table is kept: no table, lock, timer or task.
        assert host.tables == {}
        assert host.board.lobby_locks == {} and not any(
            t.get_name().startswith("lobby-") for t in host.ctx.scheduler.tasks()
        )
        growth = sum(s.size_diff for s in after.compare_to(before, "filename"))
        # A leak of one finished table (its state, log and events) is tens of KiB; allow
        # a little for caches that fill once (interned strings, the AI's tables).
        assert growth < 64 * 1024 + 256 * measured, f"memory grew by {growth} bytes"
    finally:
        await host.close()
        await store.close()


async def test_finished_matches_leave_nothing_behind(tmp_path) -> None:
    await _flat_memory(tmp_path, warmup=10, measured=30)


@pytest.mark.soak
async def test_500_finished_matches_keep_memory_flat(tmp_path) -> None:
    await _flat_memory(tmp_path, warmup=50, measured=450)
