"""Worker processes fed through one pipe each and read by the event loop.

``concurrent.futures.ProcessPoolExecutor`` hands every job to a manager thread and a feeder
thread (a wake-up pipe, a call queue, a result queue). At a few hundred renders a second
those threads hold the GIL each time the event loop releases it for a system call, and the
loop waits: measured at 1,000 tables, a quarter of the bot's main thread was spent in
``submit``'s wake-up write. Here the loop pickles a job straight into an idle worker's
pipe and reads the answer when the pipe is readable (``loop.add_reader``): no thread at
all. It is an :class:`~concurrent.futures.Executor`, so ``loop.run_in_executor`` works
as before; jobs are submitted from the event loop's thread.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import multiprocessing
import signal
from collections.abc import Callable
from concurrent.futures import Executor, Future
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.connection import Connection
from typing import Any

from bot.ranked import RankedQueue

log = logging.getLogger(__name__)


def _serve(conn: Connection, initializer: Callable[[], None] | None) -> None:
    """A worker: run each job it receives, send back (True, result) or (False, error)."""
    # Ctrl-C in a terminal reaches the whole process group: the pool's owner decides when
    # its workers stop (it closes their pipes), so a worker ignores it rather than dying
    # mid-job with a traceback.
    with contextlib.suppress(ValueError, OSError):  # (not the main thread / no signals)
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    if initializer is not None:
        initializer()
    while True:
        try:
            fn, args, kwargs = conn.recv()
        except (EOFError, OSError, KeyboardInterrupt):
            return
        try:
            answer: tuple[bool, Any] = (True, fn(*args, **kwargs))
        except BaseException as e:  # noqa: BLE001 - handed to the caller
            answer = (False, e)
        if not _answer(conn, answer):
            return


def _answer(conn: Connection, answer: tuple[bool, Any]) -> bool:
    """Send a job's answer; False once the pool has closed the pipe (it shut down while the
    job ran: nobody waits for the answer, and the worker ends quietly)."""
    try:
        conn.send(answer)
    except OSError:  # BrokenPipeError, ConnectionResetError: the pool is gone
        return False
    except Exception as e:  # the result or the error would not pickle
        try:
            conn.send((False, RuntimeError(f"unpicklable answer: {e!r}")))
        except OSError:
            return False
    return True


class _Worker:
    def __init__(self, process: Any, conn: Connection) -> None:
        self.process = process
        self.conn = conn
        #: Jobs sent and not answered yet, oldest first (a worker answers in order).
        self.jobs: collections.deque[_Job] = collections.deque()


_Job = tuple[Future[Any], Callable[..., Any], Any, Any]


class PipePool(Executor):
    """``size`` worker processes (spawned, ``initializer`` run in each), started on the
    first job; a dead worker fails the job it was running with ``BrokenProcessPool`` (the
    jobs queued behind it go to another worker) and is replaced.

    Each worker holds up to ``depth`` jobs: the next one waits in its pipe while it draws,
    so it never sits idle until the event loop, busy with other work, reads an answer and
    sends the next job (with one job each, a worker drew only about half the time at
    1,000 tables). Jobs are small (a view); ``depth`` of them fit a pipe's buffer, so
    sending one never blocks the loop.

    Jobs beyond that wait here, by rank (:meth:`submit_ranked`; a decision's hand picture
    before table pictures) in a :class:`~bot.ranked.RankedQueue`, and the next one goes
    out the moment an answer is read. (Waiting for a slot in the event loop instead, the
    next job went out only a few loop turns after the answer: at 1,000 tables the worker
    then sat idle a seventh of the time while pictures waited.)"""

    def __init__(
        self, size: int, initializer: Callable[[], None] | None = None, depth: int = 2
    ) -> None:
        self.size = max(1, size)
        self.depth = max(1, depth)
        self._initializer = initializer
        self._ctx = multiprocessing.get_context("spawn")
        self._workers: list[_Worker] = []
        self._pending: RankedQueue[_Job] = RankedQueue()
        #: Jobs of a lost worker that were queued behind the one it was running: first.
        self._requeued: collections.deque[_Job] = collections.deque()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._closed = False

    def __repr__(self) -> str:
        return (
            f"<PipePool size={self.size} depth={self.depth} busy={self.busy}"
            f" waiting={self.waiting}>"
        )

    @property
    def busy(self) -> int:
        """Jobs out in the workers."""
        return sum(len(w.jobs) for w in self._workers)

    @property
    def waiting(self) -> int:
        """Jobs waiting for a worker."""
        return len(self._pending) + len(self._requeued)

    def start(self) -> None:
        """Start every worker now, in the running event loop, rather than on the first job:
        their start (a new interpreter, the initializer's imports: seconds on a busy
        machine) then overlaps what the caller does next instead of delaying the first
        job."""
        if self._closed:
            raise RuntimeError("the pool is shut down")
        self._bind(asyncio.get_running_loop())
        while len(self._workers) < self.size:
            self._start_worker()

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        """A job of rank 0 (see :meth:`submit_ranked`)."""
        return self.submit_ranked(0, fn, *args, **kwargs)

    def submit_ranked(
        self, rank: int, fn: Callable[..., Any], /, *args: Any, **kwargs: Any
    ) -> Future[Any]:
        """Run ``fn(*args, **kwargs)`` in a worker; while all are full, jobs wait lowest
        rank first (then in arrival order; every few go to the longest-waiting job)."""
        if self._closed:
            raise RuntimeError("the pool is shut down")
        self._bind(asyncio.get_running_loop())
        future: Future[Any] = Future()
        self._pending.push(rank, (future, fn, args, kwargs))
        while len(self._workers) < self.size and not any(not w.jobs for w in self._workers):
            self._start_worker()
        self._dispatch()
        return future

    def _bind(self, loop: asyncio.AbstractEventLoop) -> None:
        """Read the workers' pipes in ``loop`` (a new loop, e.g. in tests, takes them over;
        jobs still out in the old one are lost with their workers)."""
        if self._loop is loop:
            return
        old, self._loop = self._loop, loop
        for w in list(self._workers):
            if old is not None and not old.is_closed():
                with contextlib.suppress(Exception):
                    old.remove_reader(w.conn.fileno())
            if w.jobs:
                self._lose(w, "its event loop was replaced", requeue=False)
            else:
                loop.add_reader(w.conn.fileno(), self._readable, w)

    def _start_worker(self) -> None:
        assert self._loop is not None
        parent, child = self._ctx.Pipe(duplex=True)
        process = self._ctx.Process(
            target=_serve, args=(child, self._initializer), daemon=True, name="render"
        )
        process.start()
        child.close()
        worker = _Worker(process, parent)
        self._workers.append(worker)
        self._loop.add_reader(parent.fileno(), self._readable, worker)

    def _least_busy(self) -> _Worker | None:
        """The worker with the fewest jobs out, if it can take one more."""
        worker = min(self._workers, key=lambda w: len(w.jobs), default=None)
        return worker if worker is not None and len(worker.jobs) < self.depth else None

    def _next_job(self) -> _Job | None:
        if self._requeued:
            return self._requeued.popleft()
        return self._pending.pop(live=lambda job: not job[0].done())

    def _dispatch(self) -> None:
        while self._pending or self._requeued:
            worker = self._least_busy()
            if worker is None:
                return
            job = self._next_job()
            if job is None:
                return
            future, fn, args, kwargs = job
            # (a job requeued from a lost worker is running already)
            if not future.running() and not future.set_running_or_notify_cancel():
                continue
            try:
                worker.conn.send((fn, args, kwargs))
            except (OSError, EOFError) as e:  # the worker is dead
                if worker.jobs:
                    # It died of a job sent before this one (which never reached it): this
                    # one runs on the replacement, like the others queued behind that job.
                    self._requeued.appendleft(job)
                else:  # it died idle (e.g. at its start): don't feed the job to the next
                    future.set_exception(BrokenProcessPool(f"a render worker died: {e!r}"))
                self._lose(worker, "its pipe broke")
                continue
            except Exception as e:  # the job would not pickle
                future.set_exception(e)
                continue
            worker.jobs.append(job)

    def _readable(self, worker: _Worker) -> None:
        # Every answer already in the pipe: one wake-up of the loop may bring several.
        while True:
            try:
                ok, value = worker.conn.recv()
            except (EOFError, OSError):
                self._lose(worker, "it exited")
                return
            if worker.jobs:
                job = worker.jobs.popleft()[0]
                if not job.done():
                    if ok:
                        job.set_result(value)
                    else:
                        job.set_exception(value)
            try:
                more = worker.jobs and worker.conn.poll(0)
            except (EOFError, OSError):
                more = False
            if not more:
                break
        self._dispatch()

    def _lose(self, worker: _Worker, why: str, *, requeue: bool = True) -> None:
        """Drop a dead (or orphaned) worker and fail the job it was running; the jobs queued
        behind it never started and go back to the front of the queue (``requeue``)."""
        log.warning("render worker %s lost: %s", worker.process.pid, why)
        if self._loop is not None and not self._loop.is_closed():
            with contextlib.suppress(Exception):
                self._loop.remove_reader(worker.conn.fileno())
        with contextlib.suppress(Exception):
            worker.conn.close()
        if worker.process.is_alive():
            worker.process.terminate()
        if worker in self._workers:
            self._workers.remove(worker)
        jobs, worker.jobs = list(worker.jobs), collections.deque()
        queued = []
        for i, job in enumerate(jobs):
            if job[0].done():
                continue
            if i == 0 or not requeue:
                job[0].set_exception(BrokenProcessPool(f"a render worker was lost: {why}"))
            else:
                queued.append(job)
        self._requeued.extendleft(reversed(queued))
        if self.waiting and not self._closed and self._loop is not None:
            if len(self._workers) < self.size:
                self._start_worker()
            self._dispatch()

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self._closed = True
        for future, *_ in [*self._requeued, *self._pending.drain()]:
            future.cancel()
        self._requeued.clear()
        for w in self._workers:
            if self._loop is not None and not self._loop.is_closed():
                with contextlib.suppress(Exception):
                    self._loop.remove_reader(w.conn.fileno())
            with contextlib.suppress(Exception):
                w.conn.close()  # the worker reads EOF and returns
        for w in self._workers:
            w.process.join(timeout=2 if wait else 0.1)
            if w.process.is_alive():
                w.process.terminate()
            for future, *_ in w.jobs:
                if not future.done():  # running: it cannot be cancelled
                    future.set_exception(BrokenProcessPool("the pool was shut down"))
            w.jobs.clear()
        self._workers.clear()
