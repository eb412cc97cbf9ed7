"""When the table message is edited: at once when a person acts next, one edit for a run of
AI moves, and never later than 3 × edit_interval after the oldest unshown change."""

from __future__ import annotations

import asyncio
import time
from types import SimpleNamespace
from typing import Any

from bot.host.table import Table
from tests.host.offline import offline_host, until


class StubTable:
    """What the updater reads of a table: its dirty flag and who acts next."""

    def __init__(self) -> None:
        self.id = 1
        self.table_dirty = asyncio.Event()
        self.dirty_since: float | None = None
        self.finished = False
        self.state = SimpleNamespace(is_over=False)
        self.ai_next = False

    mark_dirty = Table.mark_dirty

    def edit_may_wait(self) -> bool:
        return self.ai_next


async def _updater(tmp_path: Any, interval: float) -> tuple[Any, StubTable, list[float], Any]:
    host = await offline_host(str(tmp_path / "u.db"), edit_interval=interval)
    table = StubTable()
    shows: list[float] = []

    async def show(t: Any, new: bool = False) -> None:
        t.dirty_since = None
        shows.append(time.monotonic())

    host.presenter.show_table = show  # type: ignore[method-assign]
    task = asyncio.create_task(host.presenter.table_updater(table))  # type: ignore[arg-type]
    return host, table, shows, task


async def _close(host: Any, task: asyncio.Task[None]) -> None:
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
    await host.close()
    await host.store.close()


#: An edit interval far longer than the bound on "at once" below: an updater that waited a
#: full interval (or the AIs' gathering time) before showing a person's turn fails.
LONG_INTERVAL = 60.0
AT_ONCE = 10.0  # generous for a loaded machine, and a sixth of the interval


async def test_a_move_before_a_persons_turn_is_shown_at_once(tmp_path) -> None:
    host, table, shows, task = await _updater(tmp_path, interval=LONG_INTERVAL)
    try:
        table.mark_dirty()
        await until(lambda: shows, timeout=AT_ONCE)
        assert len(shows) == 1
    finally:
        await _close(host, task)


async def test_a_run_of_ai_moves_makes_one_edit(tmp_path) -> None:
    host, table, shows, task = await _updater(tmp_path, interval=LONG_INTERVAL)
    try:
        table.ai_next = True
        table.mark_dirty()  # a person's move; two AIs follow
        for _ in range(2):
            await asyncio.sleep(0.1)
            assert shows == []  # still gathering: AIs move next
            table.mark_dirty()
        table.ai_next = False  # the last AI moved: a person acts next
        await asyncio.sleep(0.1)
        table.mark_dirty()
        await until(lambda: shows, timeout=AT_ONCE)  # at once: not after the gathering time
        await asyncio.sleep(0.3)
        assert len(shows) == 1
    finally:
        await _close(host, task)


async def test_ai_moves_without_end_are_still_shown_within_the_gathering_time(tmp_path) -> None:
    host, table, shows, task = await _updater(tmp_path, interval=0.2)
    try:
        table.ai_next = True
        start = time.monotonic()
        while time.monotonic() - start < 2.0:  # AIs move every 50 ms: no quiet moment
            table.mark_dirty()
            await asyncio.sleep(0.05)
        # Gathering ends 3 × 0.2 s after the oldest unshown move: several edits in 2 s.
        assert len(shows) >= 2
    finally:
        await _close(host, task)
