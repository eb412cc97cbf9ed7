"""The REST budget: rate, priorities, arrival order within a priority, cancellation, and the
send gate every request of the HTTP client passes."""

from __future__ import annotations

import asyncio
import contextvars
from typing import Any

import pytest

from bot.host.budget import Priority, RestBudget, Slots, gate_requests


async def test_a_burst_within_the_capacity_goes_at_once() -> None:
    budget = RestBudget(rate=100, burst=5)
    for _ in range(5):
        await asyncio.wait_for(budget.acquire(Priority.TABLE), 0.5)
    assert budget.spent["TABLE"] == 5


async def served_in_order(
    budget: RestBudget, requests: list[tuple[str, Priority]], *, turns: tuple[str, ...] = ()
) -> list[str]:
    """The names of ``requests`` in the order the (emptied) budget let them through, each
    waiting with ``acquire`` — or with ``turn`` if its name is in ``turns``."""
    served: list[str] = []

    async def want(name: str, priority: Priority) -> None:
        await (budget.turn(priority) if name in turns else budget.acquire(priority))
        served.append(name)

    tasks = [asyncio.create_task(want(name, priority)) for name, priority in requests]
    await asyncio.wait_for(asyncio.gather(*tasks), 5)
    return served


async def test_waiters_are_served_by_priority_then_arrival() -> None:
    budget = RestBudget(rate=50, burst=1)
    await budget.acquire(Priority.TABLE)  # the bucket is now empty
    served = await served_in_order(
        budget,
        [
            ("table-1", Priority.TABLE),
            ("notice", Priority.BACKGROUND),
            ("table-2", Priority.TABLE),
            ("decision", Priority.DECISION),
            ("dm", Priority.DM),
        ],
    )
    assert served == ["decision", "dm", "table-1", "table-2", "notice"]


async def test_the_rate_is_kept() -> None:
    budget = RestBudget(rate=200, burst=1)
    loop = asyncio.get_running_loop()
    start = loop.time()
    for _ in range(21):
        await budget.acquire(Priority.DM)
    # 20 requests after the first need 20 / 200 s = 0.1 s at least (a lower bound only).
    assert loop.time() - start >= 0.09


async def test_a_cancelled_waiter_gives_its_turn_away() -> None:
    budget = RestBudget(rate=20, burst=1)
    await budget.acquire(Priority.DM)
    first = asyncio.create_task(budget.acquire(Priority.DECISION))
    second = asyncio.create_task(budget.acquire(Priority.TABLE))
    await asyncio.sleep(0)
    first.cancel()
    await asyncio.wait_for(second, 2)
    assert budget.spent["TABLE"] == 1 and budget.spent["DECISION"] == 0


async def test_table_edits_are_served_oldest_unshown_change_first() -> None:
    budget = RestBudget(rate=50, burst=1)
    await budget.acquire(Priority.TABLE)
    served: list[str] = []

    async def edit(name: str, since: float) -> None:
        await budget.acquire(Priority.TABLE, since=since)
        served.append(name)

    # Queued in this order, but table-b's change is the oldest unshown one.
    tasks = [
        asyncio.create_task(edit("table-a", 20.0)),
        asyncio.create_task(edit("table-b", 10.0)),
        asyncio.create_task(edit("table-c", 30.0)),
    ]
    await asyncio.wait_for(asyncio.gather(*tasks), 5)
    assert served == ["table-b", "table-a", "table-c"]


def test_a_default_burst_keeps_a_one_second_window_within_5_percent_above_the_rate() -> None:
    # Discord counts its global limit per second: rate + burst is the most one window sees.
    assert RestBudget(rate=45).capacity == pytest.approx(2.25)
    assert RestBudget(rate=900).capacity == pytest.approx(45)
    assert RestBudget(rate=2).capacity == 1


def test_the_budget_must_be_positive() -> None:
    with pytest.raises(ValueError):
        RestBudget(rate=0)


async def taken_slot(priority: Priority) -> Slots:
    """A pool of one slot, taken."""
    slots = Slots(1)
    await slots.acquire(priority)
    return slots


def slot_job(
    slots: Slots, served: list[Any], name: Any, priority: Priority, *, release: bool = False
) -> asyncio.Task[None]:
    """A job waiting for a slot: its name goes to ``served`` when it gets one (and it
    releases the slot at once if ``release``)."""

    async def job() -> None:
        await slots.acquire(priority)
        served.append(name)
        if release:
            slots.release()

    return asyncio.create_task(job())


async def test_slots_start_waiting_jobs_by_priority() -> None:
    slots = await taken_slot(Priority.TABLE)
    order: list[str] = []
    tasks = [
        slot_job(slots, order, name, priority, release=True)
        for name, priority in [
            ("table", Priority.TABLE),
            ("hand", Priority.DM),
            ("decision", Priority.DECISION),
        ]
    ]
    await asyncio.sleep(0)
    slots.release()
    await asyncio.wait_for(asyncio.gather(*tasks), 2)
    assert order == ["decision", "hand", "table"]
    assert slots._busy == 0


async def test_slots_never_starve_the_lowest_priority() -> None:
    slots = await taken_slot(Priority.DECISION)
    served: list[str] = []
    table = slot_job(slots, served, "table", Priority.TABLE)
    await asyncio.sleep(0)
    # A flood of urgent jobs keeps arriving; the table picture still gets its turn.
    for i in range(12):
        slot_job(slots, served, f"hand-{i}", Priority.DECISION)
        await asyncio.sleep(0)
        slots.release()
        await asyncio.sleep(0)
        if table.done():
            break
    assert table.done() and "table" in served
    assert served.index("table") < 8


async def test_slots_count_waiters_and_skip_the_cancelled() -> None:
    slots = await taken_slot(Priority.TABLE)
    served: list[int] = []
    # Two table pictures arrive first, then five decisions.
    priorities = [Priority.TABLE] * 2 + [Priority.DECISION] * 5
    tasks = [slot_job(slots, served, n, p) for n, p in enumerate(priorities)]
    await asyncio.sleep(0)
    assert slots.waiting == 7
    tasks[0].cancel()  # the oldest waiter
    tasks[3].cancel()
    await asyncio.sleep(0)
    assert slots.waiting == 5
    for _ in range(5):
        slots.release()
        await asyncio.sleep(0)
    # Decisions first; the fourth slot goes to the oldest live waiter (the cancelled oldest
    # is skipped), ahead of a newer decision.
    assert served == [2, 4, 5, 1, 6]
    assert slots.waiting == 0 and slots._busy == 1
    slots.release()
    assert slots._busy == 0
    await slots.acquire(Priority.DM)  # free again: taken at once
    assert slots._busy == 1


def virtual_clock(monkeypatch) -> list[float]:
    """The budget's clock, moved on only by its own sleeps (which still yield to the loop)."""
    clock = [1000.0]
    real_sleep = asyncio.sleep
    monkeypatch.setattr("bot.host.budget.time.monotonic", lambda: clock[0])

    async def sleep(seconds: float) -> None:
        clock[0] += seconds
        await real_sleep(0)

    monkeypatch.setattr("bot.host.budget.asyncio.sleep", sleep)
    return clock


async def test_requests_in_flight_hold_the_gate_until_a_second_after_their_answer(
    monkeypatch,
) -> None:
    clock = virtual_clock(monkeypatch)
    budget = RestBudget(rate=10, burst=1)
    assert budget.window == 10
    for _ in range(10):
        await budget.sending()
    waiter = asyncio.create_task(budget.sending())
    for _ in range(200):  # long after the sends (4 s of polls): they are still out
        await asyncio.sleep(0)
    assert not waiter.done() and clock[0] > 1003.0
    answered_at = clock[0]
    budget.answered()
    await waiter
    assert clock[0] >= answered_at + 1.0


async def test_however_late_requests_arrive_no_second_holds_more_than_the_window(
    monkeypatch,
) -> None:
    # Requests held back on their way (a busy loop: a garbage collection, a burst of clicks)
    # and then let go together, just before the next ones: whether each reaches Discord
    # as it is sent or just before its answer, no one-second span of arrivals holds more
    # than the window. (Counting sends only, the held ones and the next second's arrive
    # within one second: twice the window.)
    clock = virtual_clock(monkeypatch)
    budget = RestBudget(rate=10, burst=1)
    held = [round(0.9 - 0.1 * k, 2) for k in range(10)]
    delays = (held + [0.0] * 10 + [0.3, 1.5, 0.05, 0.7, 0.0]) * 3
    spans: list[tuple[float, float]] = []

    async def request(delay: float) -> None:
        await budget.acquire(Priority.TABLE)
        await budget.sending()
        sent = clock[0]
        answer_at = sent + delay
        while clock[0] < answer_at:  # on its way while the clock moves on
            await asyncio.sleep(0.01)
        spans.append((sent, clock[0]))
        budget.answered()

    await asyncio.gather(*(request(d) for d in delays))
    assert len(spans) == len(delays)
    for arrivals in ([s for s, _ in spans], [a for _, a in spans]):
        arrivals.sort()
        for i, t in enumerate(arrivals):
            assert sum(1 for u in arrivals[i:] if u < t + 1.0) <= budget.window


async def test_every_request_of_the_http_client_passes_the_gate(monkeypatch) -> None:
    clock = virtual_clock(monkeypatch)
    budget = RestBudget(rate=2, burst=1)
    seen: list[int] = []

    class Http:
        async def request(self, route: str, **kwargs: Any) -> str:
            seen.append(budget._in_flight)
            if route == "bad":
                raise RuntimeError("refused")
            return route

    http = Http()
    gate_requests(http, budget)
    gate_requests(http, budget)  # gated again (a new host for the same client): once
    first_answered = clock[0]
    assert await http.request("a") == "a"
    with pytest.raises(RuntimeError):  # a failed request is answered too
        await http.request("bad")
    assert seen == [1, 1] and budget._in_flight == 0
    # Two answered within the second: the third waits until the first is a second old.
    assert await http.request("c") == "c"
    assert clock[0] >= first_answered + 1.0


async def test_a_turn_waits_behind_more_urgent_requests_and_spends_nothing() -> None:
    budget = RestBudget(rate=50, burst=1)
    await budget.acquire(Priority.TABLE)  # the bucket is now empty
    order = await served_in_order(
        budget,
        [("table", Priority.TABLE), ("dm turn", Priority.DM), ("decision", Priority.DECISION)],
        turns=("dm turn",),
    )
    assert order == ["decision", "dm turn", "table"]
    # The turn was given back: only the three real requests were spent.
    assert (budget.spent["DECISION"], budget.spent["DM"], budget.spent["TABLE"]) == (1, 0, 2)


async def test_the_gate_lets_requests_through_by_their_priority(monkeypatch) -> None:
    # Table edits granted while their pictures were drawn reach the gate together and fill
    # it; a decision's DM granted after them takes the next free place, ahead of the edits
    # already waiting there.
    clock = virtual_clock(monkeypatch)
    budget = RestBudget(rate=10, burst=20)
    passed: list[str] = []

    async def send(name: str, priority: Priority | None) -> None:
        if priority is not None:
            await budget.acquire(priority)
        await budget.sending()
        passed.append(name)

    for k in range(10):
        await send(f"edit {k}", Priority.TABLE)
    waiting = [
        asyncio.create_task(send("edit 10", Priority.TABLE)),
        asyncio.create_task(send("edit 11", Priority.TABLE)),
        asyncio.create_task(send("decision", Priority.DECISION)),
        # Sent without a grant (discord.py's own requests, in a task granted nothing).
        asyncio.create_task(send("plain", None), context=contextvars.Context()),
        asyncio.create_task(send("dm", Priority.DM)),
    ]
    for _ in range(100):  # 2 s of polls: the window is full, nothing was answered
        await asyncio.sleep(0)
    assert len(passed) == 10 and budget._in_flight == 10 and clock[0] > 1001.5
    budget.answered()
    answered_at = clock[0]
    while len(passed) < 11:
        await asyncio.sleep(0)
    assert passed[10] == "decision" and clock[0] >= answered_at + 1.0
    for _ in range(4):
        budget.answered()
    await asyncio.gather(*waiting)
    assert passed[11:] == ["dm", "plain", "edit 10", "edit 11"]


async def test_a_request_cancelled_at_the_gate_takes_no_place(monkeypatch) -> None:
    virtual_clock(monkeypatch)
    budget = RestBudget(rate=2, burst=4)
    await budget.sending()
    await budget.sending()
    cancelled = asyncio.create_task(budget.sending())
    later = asyncio.create_task(budget.sending())
    await asyncio.sleep(0)
    cancelled.cancel()
    budget.answered()
    await later
    assert cancelled.cancelled() and budget._in_flight == 2
