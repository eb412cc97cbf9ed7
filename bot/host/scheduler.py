"""The host's timers and background tasks, in one place.

Every task the host starts is started here: under a key when someone must find it again
(a lobby's expiry ``("lobby", 7)``, a table being loaded ``("load", 7)``, a takeover under
way ``("takeover", 7)``, the lease loops, the restore), as one of a table's (its updater,
its driver, DMs being sent: cancelled with the table), or loose when nobody will (a post
tried again later). :meth:`Scheduler.cancel_all` cancels them all on close; a task is
forgotten once it is done.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine, Hashable
from typing import Any, TypeVar

log = logging.getLogger(__name__)

T = TypeVar("T")


class Scheduler:
    """Tasks by key (at most one a key) and loose tasks; all cancelled on :meth:`close`."""

    def __init__(self) -> None:
        self._keyed: dict[Hashable, asyncio.Task[Any]] = {}
        self._loose: set[asyncio.Task[Any]] = set()
        #: A table's own tasks (its updater, its driver, DMs being sent), by table object
        #: (``id(table)``: a table evicted and loaded again is another object, with tasks of
        #: its own).
        #: (In the order they were started: a dict of tasks.)
        self._tables: dict[int, dict[asyncio.Task[Any], None]] = {}
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

    def start_for(
        self, table: object, coro: Coroutine[Any, Any, T], *, name: str | None = None
    ) -> asyncio.Task[T]:
        """Start one of ``table``'s tasks (cancelled with the table, see
        :meth:`cancel_table`)."""
        task = asyncio.get_running_loop().create_task(coro, name=name)
        self.track(table, task)
        return task

    def track(self, table: object, task: asyncio.Task[Any]) -> None:
        """Keep a task started elsewhere as one of ``table``'s."""
        key = id(table)
        self._tables.setdefault(key, {})[task] = None
        task.add_done_callback(lambda t: self._untrack(key, t))

    def _untrack(self, key: int, task: asyncio.Task[Any]) -> None:
        tasks = self._tables.get(key)
        if tasks is not None:
            tasks.pop(task, None)
            if not tasks:
                del self._tables[key]

    def table_tasks(self, table: object) -> list[asyncio.Task[Any]]:
        """``table``'s tasks not done yet (or done moments ago)."""
        return list(self._tables.get(id(table), ()))

    def cancel_table(
        self, table: object, *, keep: Callable[[asyncio.Task[Any]], bool] | None = None
    ) -> None:
        """Cancel ``table``'s tasks but the one calling this and those ``keep`` keeps;
        the cancelled ones are no longer the table's."""
        current = asyncio.current_task()
        tasks = self._tables.get(id(table), {})
        for task in list(tasks):
            if task is current or (keep is not None and keep(task)):
                continue
            task.cancel()
            del tasks[task]
        if not tasks:
            self._tables.pop(id(table), None)

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
        tables = [task for tasks in self._tables.values() for task in tasks]
        return [*self._keyed.values(), *self._loose, *tables]

    def cancel_all(self) -> list[asyncio.Task[Any]]:
        """Mark closing and cancel every task; returns them (to wait for)."""
        self.closing = True
        tasks = self.tasks()
        for task in tasks:
            task.cancel()
        return tasks
