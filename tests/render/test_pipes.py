"""The render pool's workers: jobs run in other processes fed through pipes by the event
loop; answers and errors come back to the right caller; a dying worker fails only its own
job and is replaced; a new event loop takes the pool over."""

from __future__ import annotations

import asyncio
import os
import signal
import time
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


def _slow_pid(seconds: float) -> int:
    import time

    time.sleep(seconds)
    return os.getpid()


def test_a_worker_holds_the_next_job_while_it_runs_one() -> None:
    pool = PipePool(1, depth=2)

    async def main() -> None:
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(pool, os.getpid)  # started
        first = loop.run_in_executor(pool, _slow_pid, 0.3)
        second = loop.run_in_executor(pool, _slow_pid, 0.0)
        third = loop.run_in_executor(pool, _slow_pid, 0.0)
        await asyncio.sleep(0.1)
        # Two are out in the one worker (the second waits in its pipe), the third waits here.
        assert pool.busy == 2 and len(pool._pending) == 1
        assert len({await first, await second, await third}) == 1

    try:
        asyncio.run(main())
    finally:
        pool.shutdown()


def test_waiting_jobs_go_out_by_rank_and_the_oldest_gets_every_fourth_turn() -> None:
    pool = PipePool(1, depth=1)

    async def main() -> None:
        await asyncio.get_running_loop().run_in_executor(pool, os.getpid)  # started
        busy = asyncio.wrap_future(pool.submit(_slow_pid, 0.3))
        await asyncio.sleep(0.05)
        done: list[str] = []

        def job(rank: int, name: str) -> asyncio.Future[int]:
            future = asyncio.wrap_future(pool.submit_ranked(rank, _slow_pid, 0.0))
            future.add_done_callback(lambda f: f.cancelled() or done.append(name))
            return future

        # Two table pictures wait first; then a flood of hands, and one that gives up.
        jobs = [job(3, "table-1"), job(3, "table-2")]
        jobs += [job(0, f"hand-{n}") for n in range(6)]
        cancelled = job(0, "cancelled")
        jobs.append(job(1, "dm"))
        cancelled.cancel()
        assert pool.waiting == 10
        await busy
        await asyncio.gather(*jobs)
        # The first two jobs had turns 1 and 2; every fourth turn goes to the longest
        # waiting, the others by rank; the cancelled job never runs.
        assert done == [
            "hand-0",
            "table-1",
            "hand-1",
            "hand-2",
            "hand-3",
            "table-2",
            "hand-4",
            "hand-5",
            "dm",
        ]
        assert pool.waiting == 0

    try:
        asyncio.run(main())
    finally:
        pool.shutdown()


def test_the_next_job_goes_out_as_an_answer_is_read() -> None:
    pool = PipePool(1, depth=1)

    async def main() -> None:
        await asyncio.get_running_loop().run_in_executor(pool, os.getpid)  # started
        first = asyncio.wrap_future(pool.submit_ranked(2, _slow_pid, 0.2))
        second = asyncio.wrap_future(pool.submit_ranked(2, _slow_pid, 0.2))
        await asyncio.sleep(0.05)
        assert pool.busy == 1 and pool.waiting == 1
        await first
        # Already in the worker when the first job's caller hears back: no loop turn
        # between an answer and the next job (the worker would sit idle meanwhile).
        assert pool.busy == 1 and pool.waiting == 0
        await second

    try:
        asyncio.run(main())
    finally:
        pool.shutdown()


def test_jobs_queued_behind_a_dying_job_run_on_the_replacement() -> None:
    pool = PipePool(1, depth=3)

    async def main() -> None:
        loop = asyncio.get_running_loop()
        first = await loop.run_in_executor(pool, os.getpid)
        dying = loop.run_in_executor(pool, os._exit, 3)
        behind = [loop.run_in_executor(pool, int, str(n)) for n in range(2)]
        with pytest.raises(BrokenProcessPool):
            await dying
        assert await asyncio.gather(*behind) == [0, 1]  # never started there: run anew
        assert await loop.run_in_executor(pool, os.getpid) != first

    try:
        asyncio.run(main())
    finally:
        pool.shutdown()


def test_jobs_sent_to_a_worker_already_dead_of_an_earlier_job_run_on_the_replacement() -> None:
    """The race of the test above on a loaded machine: the worker has died of its first job
    before the jobs behind it are sent (the pipe is broken at the send). Those never
    reached it: they run on the replacement, and only the job it died of fails."""
    pool = PipePool(1, depth=3)

    async def main() -> None:
        loop = asyncio.get_running_loop()
        first = await loop.run_in_executor(pool, os.getpid)
        dying = loop.run_in_executor(pool, os._exit, 3)
        pool._workers[0].process.join(timeout=10)  # dead, and the loop has not noticed
        behind = [loop.run_in_executor(pool, int, str(n)) for n in range(2)]
        with pytest.raises(BrokenProcessPool):
            await dying
        assert await asyncio.gather(*behind) == [0, 1]
        assert await loop.run_in_executor(pool, os.getpid) != first

    try:
        asyncio.run(main())
    finally:
        pool.shutdown()


def test_render_workers_run_at_a_lower_cpu_priority_than_the_bot() -> None:
    from bot.render.worker import RENDER_NICENESS, _start_worker

    pool = PipePool(1, initializer=_start_worker)

    async def niceness() -> int:
        return await asyncio.get_running_loop().run_in_executor(pool, os.nice, 0)

    try:
        assert asyncio.run(niceness()) == min(19, os.nice(0) + RENDER_NICENESS)
    finally:
        pool.shutdown()


def test_a_worker_shut_down_mid_job_ends_quietly() -> None:
    """The pool shutting down while a job runs closes the worker's pipe: the worker ends
    with exit code 0 once the job is done (it used to die of BrokenPipeError, printing a
    traceback at every bot shutdown)."""
    pool = PipePool(1)

    async def main() -> None:
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(pool, int, "1")  # the worker is up
        worker = pool._workers[0].process
        running = loop.run_in_executor(pool, time.sleep, 0.5)
        await asyncio.sleep(0.1)  # the job is in the worker
        pool.shutdown(wait=True)
        with pytest.raises(BrokenProcessPool):
            await running
        worker.join(timeout=10)
        assert worker.exitcode == 0

    asyncio.run(main())


def test_ctrl_c_leaves_the_workers_to_the_pool() -> None:
    """SIGINT (Ctrl-C reaches the whole process group) does not kill a worker: the pool
    stops its workers itself."""
    pool = PipePool(1)

    async def main() -> None:
        loop = asyncio.get_running_loop()
        pid = await loop.run_in_executor(pool, os.getpid)
        os.kill(pid, signal.SIGINT)
        await asyncio.sleep(0.2)
        assert await loop.run_in_executor(pool, os.getpid) == pid

    try:
        asyncio.run(main())
    finally:
        pool.shutdown()


def test_a_started_pool_has_its_workers_up_before_the_first_job() -> None:
    pool = PipePool(2)

    async def main() -> None:
        pool.start()
        started = {w.process.pid for w in pool._workers}
        assert len(started) == 2 and all(w.process.is_alive() for w in pool._workers)
        pool.start()  # (once started, nothing more)
        loop = asyncio.get_running_loop()
        pids = await asyncio.gather(*(loop.run_in_executor(pool, os.getpid) for _ in range(4)))
        assert set(pids) <= started

    try:
        asyncio.run(main())
    finally:
        pool.shutdown()
