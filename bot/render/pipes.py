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
from collections.abc import Callable
from concurrent.futures import Executor, Future
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.connection import Connection
from typing import Any

log = logging.getLogger(__name__)


def _serve(conn: Connection, initializer: Callable[[], None] | None) -> None:
    """A worker: run each job it receives, send back (True, result) or (False, error)."""
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
        try:
            conn.send(answer)
        except Exception as e:  # the result or the error would not pickle
            conn.send((False, RuntimeError(f"unpicklable answer: {e!r}")))


class _Worker:
    def __init__(self, process: Any, conn: Connection) -> None:
        self.process = process
        self.conn = conn
        self.job: Future[Any] | None = None


class PipePool(Executor):
    """``size`` worker processes (spawned, ``initializer`` run in each), started on the
    first job; a dead worker fails its job with ``BrokenProcessPool`` and is replaced."""

    def __init__(self, size: int, initializer: Callable[[], None] | None = None) -> None:
        self.size = max(1, size)
        self._initializer = initializer
        self._ctx = multiprocessing.get_context("spawn")
        self._workers: list[_Worker] = []
        self._idle: collections.deque[_Worker] = collections.deque()
        self._pending: collections.deque[tuple[Future[Any], Callable[..., Any], Any, Any]] = (
            collections.deque()
        )
        self._loop: asyncio.AbstractEventLoop | None = None
        self._closed = False

    def __repr__(self) -> str:
        return f"<PipePool size={self.size} busy={self.busy} waiting={len(self._pending)}>"

    @property
    def busy(self) -> int:
        return sum(1 for w in self._workers if w.job is not None)

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        if self._closed:
            raise RuntimeError("the pool is shut down")
        self._bind(asyncio.get_running_loop())
        future: Future[Any] = Future()
        self._pending.append((future, fn, args, kwargs))
        while len(self._workers) < self.size and len(self._pending) > len(self._idle):
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
            if w.job is not None:
                self._lose(w, "its event loop was replaced")
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
        self._idle.append(worker)
        self._loop.add_reader(parent.fileno(), self._readable, worker)

    def _dispatch(self) -> None:
        while self._idle and self._pending:
            future, fn, args, kwargs = self._pending.popleft()
            if not future.set_running_or_notify_cancel():
                continue
            worker = self._idle.popleft()
            try:
                worker.conn.send((fn, args, kwargs))
            except (OSError, EOFError) as e:  # the worker died while idle
                future.set_exception(BrokenProcessPool(f"a render worker died: {e!r}"))
                self._lose(worker, "its pipe broke")
                continue
            except Exception as e:  # the job would not pickle
                future.set_exception(e)
                self._idle.appendleft(worker)
                continue
            worker.job = future

    def _readable(self, worker: _Worker) -> None:
        try:
            ok, value = worker.conn.recv()
        except (EOFError, OSError):
            self._lose(worker, "it exited")
            return
        job, worker.job = worker.job, None
        self._idle.append(worker)
        if job is not None and not job.done():
            if ok:
                job.set_result(value)
            else:
                job.set_exception(value)
        self._dispatch()

    def _lose(self, worker: _Worker, why: str) -> None:
        """Drop a dead (or orphaned) worker, fail its job, start a replacement if needed."""
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
        if worker in self._idle:
            self._idle.remove(worker)
        if worker.job is not None and not worker.job.done():
            worker.job.set_exception(BrokenProcessPool(f"a render worker was lost: {why}"))
        worker.job = None
        if self._pending and not self._closed and self._loop is not None:
            self._start_worker()
            self._dispatch()

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self._closed = True
        while self._pending:
            future = self._pending.popleft()[0]
            future.cancel()
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
            if w.job is not None and not w.job.done():
                w.job.cancel()
        self._workers.clear()
        self._idle.clear()
