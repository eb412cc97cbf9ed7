"""A queue served by rank, then arrival, in which the lowest ranks slow down but never
starve: the render slots' waiters and the render pool's queued jobs are kept in one."""

from __future__ import annotations

import collections
import heapq
import itertools
from collections.abc import Callable, Iterator
from typing import Any, Generic, TypeVar

T = TypeVar("T")

#: What a cell holds once its item was taken.
_TAKEN: Any = object()


def _always(item: object) -> bool:
    return True


class RankedQueue(Generic[T]):
    """Items come out lowest rank first, then in arrival order; but every ``oldest_every``-th
    :meth:`pop` takes the item that has waited longest, whatever its rank: under a flood of
    urgent items (a decision's hand picture) the others (table pictures) still get that
    share.

    Each item sits in a one-slot cell kept both by rank (a heap) and by arrival (a deque),
    so both stay cheap with thousands waiting. Taking an item through one side empties its
    cell, which the other side then skips: a taken item is not held until the other side
    reaches its cell (the arrival side may lag by all that was pushed since the oldest item
    still waiting — seconds of render jobs, with their views and pictures)."""

    def __init__(self, oldest_every: int = 4) -> None:
        self.oldest_every = max(1, oldest_every)
        self._by_rank: list[tuple[int, int, list[Any]]] = []
        self._by_arrival: collections.deque[list[Any]] = collections.deque()
        self._order = itertools.count()
        self._pops = 0
        self._size = 0

    def __len__(self) -> int:
        """Items pushed and not popped yet (dead ones included until a pop passes them)."""
        return self._size

    def push(self, rank: int, item: T) -> None:
        cell = [item]
        heapq.heappush(self._by_rank, (rank, next(self._order), cell))
        self._by_arrival.append(cell)
        self._size += 1

    def pop(self, live: Callable[[T], bool] = _always) -> T | None:
        """The next item for which ``live`` holds (the others are dropped on the way), or
        None if none is left."""
        self._pops += 1
        if self._pops % self.oldest_every == 0:
            while self._by_arrival:
                item = self._take(self._by_arrival.popleft())
                if item is not _TAKEN and live(item):
                    return item
        while self._by_rank:
            item = self._take(heapq.heappop(self._by_rank)[2])
            if item is not _TAKEN and live(item):
                return item
        self._by_arrival.clear()  # (only emptied cells were left)
        return None

    def _take(self, cell: list[Any]) -> Any:
        """The cell's item (``_TAKEN`` if it was taken before); the cell is emptied."""
        item = cell[0]
        if item is not _TAKEN:
            cell[0] = _TAKEN
            self._size -= 1
        return item

    def drain(self) -> Iterator[T]:
        """Every item not popped yet, in arrival order; the queue is empty afterwards."""
        items = [cell[0] for cell in self._by_arrival if cell[0] is not _TAKEN]
        self._by_rank.clear()
        self._by_arrival.clear()
        self._size = 0
        return iter(items)
