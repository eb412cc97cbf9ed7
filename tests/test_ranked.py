"""The ranked queue: lowest rank first, then arrival; every few pops the longest-waiting
item, whatever its rank; dead items are passed over; its length counts what is left."""

from __future__ import annotations

import weakref

from bot.ranked import RankedQueue


def test_items_come_out_by_rank_then_arrival() -> None:
    queue: RankedQueue[str] = RankedQueue(oldest_every=100)
    for rank, name in [(3, "table-a"), (1, "dm"), (0, "hand-a"), (3, "table-b"), (0, "hand-b")]:
        queue.push(rank, name)
    assert len(queue) == 5
    out = [queue.pop() for _ in range(5)]
    assert out == ["hand-a", "hand-b", "dm", "table-a", "table-b"]
    assert len(queue) == 0 and queue.pop() is None


def test_every_few_pops_the_longest_waiting_item_goes_first() -> None:
    queue: RankedQueue[str] = RankedQueue(oldest_every=3)
    queue.push(3, "table")
    for n in range(6):
        queue.push(0, f"hand-{n}")
    out = [queue.pop() for _ in range(7)]
    assert out == ["hand-0", "hand-1", "table", "hand-2", "hand-3", "hand-4", "hand-5"]
    # The table, taken through the arrivals, was not served again through the ranks.
    assert queue.pop() is None and len(queue) == 0


def test_dead_items_are_passed_over_and_counted_out() -> None:
    queue: RankedQueue[str] = RankedQueue(oldest_every=2)
    for name in ["old-dead", "a", "b-dead", "c"]:
        queue.push(0, name)
    alive = lambda name: not name.endswith("dead")  # noqa: E731
    assert queue.pop(alive) == "a"  # "old-dead" passed over on the way
    assert len(queue) == 2  # "b-dead" is still counted: no pop has reached it
    assert queue.pop(alive) == "c"  # (the oldest turn: "b-dead" passed over)
    assert len(queue) == 0 and queue.pop(alive) is None


def test_drain_gives_what_is_left_in_arrival_order() -> None:
    queue: RankedQueue[str] = RankedQueue(oldest_every=2)
    for rank, name in [(2, "x"), (0, "y"), (1, "z")]:
        queue.push(rank, name)
    assert queue.pop() == "y"
    assert queue.pop() == "x"  # (the oldest turn)
    assert list(queue.drain()) == ["z"]
    assert len(queue) == 0 and queue.pop() is None


class _Job:
    """An item the test can watch being freed."""


def test_a_taken_item_is_not_held_while_older_ones_wait() -> None:
    queue: RankedQueue[_Job] = RankedQueue(oldest_every=100)
    waiting = _Job()
    queue.push(3, waiting)  # a table picture that waits long
    urgent = _Job()
    gone = weakref.ref(urgent)
    queue.push(0, urgent)
    del urgent
    taken = queue.pop()
    assert taken is gone()
    del taken
    # Its cell is still behind the table's in the arrival order: the job is not kept there.
    assert gone() is None
    assert queue.pop() is waiting
