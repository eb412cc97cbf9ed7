"""The host's timers and background tasks, in one place.

Every task the host starts outside a table's own (a lobby's expiry, a table being loaded
from the log, a takeover under way, the lease loops, the restore, a post tried again
later) is started here, under a key when someone must find it again (``("lobby", 7)``,
``("load", 7)``, ``("takeover", 7)``) or loose when nobody will. :meth:`Scheduler.close`
cancels them all, and a task under a key is forgotten once it is done.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine, Hashable
from typing import Any, TypeVar

log = logging.getLogger(__name__)

T = TypeVar("T")


class Scheduler:
    """Tasks by key (at most one a key) and loose tasks; all cancelled on :meth:`close`."""

    def __init__(self) -> None:
        self._keyed: dict[Hashable, asyncio.Task[Any]] = {}
        self._loose: set[asyncio.Task[Any]] = set()
        #: Set by :meth:`close`: nothing new is worth starting.
        self.closing = False

    def spawn(
        self, key: Hashable, coro: Coroutine[Any, Any, T], *, name: str | None = None
    ) -> asyncio.Task[T]:
        """Start ``coro`` under ``key``, cancelling the task the key held before (a lobby's
        expiry set again). The key is let go of when the task is done."""
        old = self._keyed.pop(key, None)
        if old is not None and old is not asyncio.current_task():
            old.cancel()
        task = asyncio.get_running_loop().create_task(coro, name=name)
        self._keyed[key] = task
        task.add_done_callback(lambda t: self._forget(key, t))
        return task

    def start(self, coro: Coroutine[Any, Any, T], *, name: str | None = None) -> asyncio.Task[T]:
        """Start ``coro`` with no key (kept until done, cancelled on close)."""
        task = asyncio.get_running_loop().create_task(coro, name=name)
        self._loose.add(task)
        task.add_done_callback(self._loose.discard)
        return task

    def get(self, key: Hashable) -> asyncio.Task[Any] | None:
        """The task under ``key``, if one is running (or done and not yet forgotten)."""
        return self._keyed.get(key)

    def running(self, key: Hashable) -> bool:
        task = self._keyed.get(key)
        return task is not None and not task.done()

    def discard(self, key: Hashable, task: asyncio.Task[Any] | None = None) -> None:
        """Forget the task under ``key`` now (``task``: only if it is still that one),
        without cancelling it: the next :meth:`spawn` under the key starts afresh."""
        if task is None or self._keyed.get(key) is task:
            self._keyed.pop(key, None)

    def cancel(self, key: Hashable) -> None:
        """Cancel and forget the task under ``key`` (not the task calling this)."""
        task = self._keyed.pop(key, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    def _forget(self, key: Hashable, task: asyncio.Task[Any]) -> None:
        if self._keyed.get(key) is task:
            del self._keyed[key]

    def tasks(self) -> list[asyncio.Task[Any]]:
        return [*self._keyed.values(), *self._loose]

    def cancel_all(self) -> list[asyncio.Task[Any]]:
        """Mark closing and cancel every task; returns them (to wait for)."""
        self.closing = True
        tasks = self.tasks()
        for task in tasks:
            task.cancel()
        return tasks
