"""A queue served by rank, then arrival, in which the lowest ranks slow down but never
starve: the render slots' waiters and the render pool's queued jobs are kept in one."""

from __future__ import annotations

import collections
import heapq
import itertools
from collections.abc import Callable, Iterator
from typing import Generic, TypeVar

T = TypeVar("T")


def _always(item: object) -> bool:
    return True


class RankedQueue(Generic[T]):
    """Items come out lowest rank first, then in arrival order; but every ``oldest_every``-th
    :meth:`pop` takes the item that has waited longest, whatever its rank: under a flood of
    urgent items (a decision's hand picture) the others (table pictures) still get that
    share. The same items are kept by rank (a heap) and by arrival (a deque): an item taken
    through one is skipped in the other when it comes up, so both stay cheap with thousands
    waiting."""

    def __init__(self, oldest_every: int = 4) -> None:
        self.oldest_every = max(1, oldest_every)
        self._by_rank: list[tuple[int, int, T]] = []
        self._by_arrival: collections.deque[tuple[int, T]] = collections.deque()
        #: Arrival numbers taken through one of the two and still in the other.
        self._taken: set[int] = set()
        self._order = itertools.count()
        self._pops = 0
        self._size = 0

    def __len__(self) -> int:
        """Items pushed and not popped yet (dead ones included until a pop passes them)."""
        return self._size

    def push(self, rank: int, item: T) -> None:
        n = next(self._order)
        heapq.heappush(self._by_rank, (rank, n, item))
        self._by_arrival.append((n, item))
        self._size += 1

    def pop(self, live: Callable[[T], bool] = _always) -> T | None:
        """The next item for which ``live`` holds (the others are dropped on the way), or
        None if none is left."""
        self._pops += 1
        if self._pops % self.oldest_every == 0:
            while self._by_arrival:
                n, item = self._by_arrival.popleft()
                if self._take(n) and live(item):
                    return item
        while self._by_rank:
            _, n, item = heapq.heappop(self._by_rank)
            if self._take(n) and live(item):
                return item
        self._by_arrival.clear()  # (only items taken through the heap were left)
        self._taken.clear()
        return None

    def _take(self, n: int) -> bool:
        """Whether item ``n`` was still waiting (it is taken now)."""
        if n in self._taken:  # taken through the other side earlier: now out of both
            self._taken.discard(n)
            return False
        self._taken.add(n)
        self._size -= 1
        return True

    def drain(self) -> Iterator[T]:
        """Every item not popped yet, in arrival order; the queue is empty afterwards."""
        items = [item for n, item in self._by_arrival if n not in self._taken]
        self._by_rank.clear()
        self._by_arrival.clear()
        self._taken.clear()
        self._size = 0
        return iter(items)
