"""The loop watch: background work waits while the event loop runs late, and not longer
than its cap; after a restart the notices and other fresh DMs wait for it."""

from __future__ import annotations

import asyncio
import time

import pytest

from bot.host.budget import Priority
from bot.host.lag import LoopWatch
from tests.host.offline import offline_host, until
from tests.host.test_leases import SLOW, a_box_driving_a_table, closing


async def test_calm_waits_while_the_loop_runs_late() -> None:
    watch = LoopWatch(threshold=0.1)
    await watch.calm()  # (calm until told otherwise)
    watch.note(2.0)
    waiting = asyncio.ensure_future(watch.calm())
    await asyncio.sleep(0.05)
    assert not waiting.done()
    watch.note(0.01)
    await asyncio.wait_for(waiting, 5)


async def test_calm_gives_up_waiting_after_its_cap() -> None:
    watch = LoopWatch(threshold=0.1, max_wait=0.05)
    watch.note(2.0)
    await asyncio.wait_for(watch.calm(), 5)  # (returns although the loop never calmed)
    assert not watch.is_calm


async def test_the_probe_notices_a_blocked_loop() -> None:
    watch = LoopWatch(threshold=0.1, interval=0.02)
    watch.start()
    try:
        await asyncio.sleep(0.05)  # the probe is asleep
        time.sleep(0.3)  # the loop is held: the probe wakes at least 0.28 s late
        await until(lambda: watch.lag > 0.25)
        assert not watch.is_calm
        await until(lambda: watch.is_calm)  # and once the loop runs freely again
    finally:
        watch.close()


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
async def test_restart_notices_wait_for_a_loop_that_keeps_up(new_database) -> None:
    """After a restart the players' clicks come first: the notice and the fresh DMs of
    players who still hold working controls wait while the loop runs late (nothing was
    sent before the kill here, so the player who must decide has no controls: that DM
    goes at once)."""
    path = await new_database()
    first, table_id = await a_box_driving_a_table(path)
    second = None
    try:
        await first.close(release=False)  # as kill -9
        second = await offline_host(path, record=True, process_name="box", **SLOW)
        second.loop_watch.start = lambda: None  # type: ignore[method-assign]  # (told below)
        second.loop_watch.note(5.0)
        assert await second.restore() == 1
        # (the DM of the player who must decide never went out: that one does not wait)
        await until(lambda: second.fresh_dms)
        await asyncio.sleep(0.2)
        assert second.posts == [] and [p for *_, p in second.fresh_dms] == [Priority.DECISION]
        second.loop_watch.note(0.0)
        await until(lambda: second.posts and len(second.fresh_dms) == 2)
        assert [t for t, _ in second.posts] == [table_id]
    finally:
        await closing(*(h for h in (first, second) if h is not None))
