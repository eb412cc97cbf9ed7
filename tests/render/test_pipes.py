"""The render pool's workers: jobs run in other processes fed through pipes by the event
loop; answers and errors come back to the right caller; a dying worker fails only its own
job and is replaced; a new event loop takes the pool over."""

from __future__ import annotations

import asyncio
import os
from concurrent.futures.process import BrokenProcessPool

import pytest

from bot.render.pipes import PipePool


def test_jobs_run_in_worker_processes_and_answer_their_own_caller() -> None:
    pool = PipePool(2)

    async def main() -> None:
        loop = asyncio.get_running_loop()
        pids = await asyncio.gather(*(loop.run_in_executor(pool, os.getpid) for _ in range(6)))
        assert os.getpid() not in pids and 1 <= len(set(pids)) <= 2
        # More jobs than workers: each answer reaches the job that asked.
        texts = [str(n) * (1 + n % 7) for n in range(40)]
        got = await asyncio.gather(*(loop.run_in_executor(pool, int, t) for t in texts))
        assert got == [int(t) for t in texts]
        with pytest.raises(ValueError):
            await loop.run_in_executor(pool, int, "not a number")
        assert await loop.run_in_executor(pool, int, "7") == 7  # the worker carries on

    try:
        asyncio.run(main())
    finally:
        pool.shutdown()


def test_a_dying_worker_fails_its_job_only_and_is_replaced() -> None:
    pool = PipePool(1)

    async def main() -> None:
        loop = asyncio.get_running_loop()
        first = await loop.run_in_executor(pool, os.getpid)
        with pytest.raises(BrokenProcessPool):
            await loop.run_in_executor(pool, os._exit, 3)
        second = await loop.run_in_executor(pool, os.getpid)
        assert second != first  # a new worker took the dead one's place

    try:
        asyncio.run(main())
    finally:
        pool.shutdown()


def test_a_new_event_loop_takes_the_pool_over() -> None:
    pool = PipePool(1)

    async def ask() -> int:
        return await asyncio.get_running_loop().run_in_executor(pool, int, "42")

    try:
        assert asyncio.run(ask()) == 42
        assert asyncio.run(ask()) == 42
        processes = [w.process for w in pool._workers]
    finally:
        pool.shutdown()
    assert processes and all(not p.is_alive() for p in processes)  # shut down: gone
