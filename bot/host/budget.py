"""The bot's own budget of REST requests (Discord allows 50/s per bot token, across all
routes; interaction responses are exempt and never pass through here).

Every other request waits for a token here first, by priority: a player's new decision
before anything else, table-image edits after DMs and posts, restart notices last. Waiters
of one priority are served oldest first — in arrival order, or by the time a table edit
says its oldest unshown change was made —, so under pressure every table slows down
evenly instead of some starving.
"""

from __future__ import annotations

import asyncio
import collections
import contextvars
import heapq
import itertools
import time
from collections import Counter
from enum import IntEnum
from typing import Any

from bot.ranked import RankedQueue


class Priority(IntEnum):
    DECISION = 0  # a DM that brings a player a decision to make
    DM = 1  # other DM updates (hand changed, waiting, controls retired)
    POST = 2  # thread posts (deal summaries, results, notices players need)
    TABLE = 3  # table-image edits (coalesced: the latest state wins)
    BACKGROUND = 4  # restart notices, lobby housekeeping


#: The priority the current task was last granted a request at: the send gate orders by it
#: (a task sends what it was granted itself, after :meth:`RestBudget.acquire`). Requests
#: sent without a grant (discord.py's own: logging in, syncing commands) rank as posts.
_granted: contextvars.ContextVar[Priority] = contextvars.ContextVar(
    "rest_granted", default=Priority.POST
)


class RestBudget:
    """A token bucket of ``rate`` requests per second, bursts up to ``burst`` (default: a
    twentieth of a second's worth), in front of a send gate (:meth:`sending`, which every
    request discord.py's HTTP client sends passes: see :func:`gate_requests`).

    Discord counts its global limit by when requests reach it, in one-second windows; a
    request granted here reaches Discord a moment later, and that moment varies: a table
    edit draws its picture after its grant, and a busy event loop (a garbage collection, a
    burst of clicks) holds requests back and then lets them go together. So the gate counts
    a request from the moment it is sent until a second after its answer came back: however
    late a request arrives, it arrives before its answer, and no second of arrivals then
    holds more than ``window`` requests. A small burst lets ``rate`` come close to the limit
    without a 429.

    Requests waiting at the gate go through by the priority they were granted at, then in
    arrival order: table edits granted while their pictures were drawn arrive at the gate
    together and fill it, and a decision's DM granted after them takes the next free place
    rather than waiting behind them."""

    #: The default burst, in seconds of ``rate``.
    BURST_SECONDS = 0.05

    def __init__(self, rate: float, burst: float | None = None) -> None:
        if rate <= 0:
            raise ValueError("the REST budget must be positive")
        self.rate = float(rate)
        self.capacity = float(burst if burst is not None else max(1.0, rate * self.BURST_SECONDS))
        self._tokens = self.capacity
        self._updated = time.monotonic()
        self._waiters: list[tuple[int, float, int, asyncio.Future[None]]] = []
        self._order = itertools.count()
        self._pump: asyncio.Task[None] | None = None
        #: Most requests in flight or answered within the last second (the rate).
        self.window = max(1, int(self.rate))
        self._in_flight = 0
        self._answered: collections.deque[float] = collections.deque()
        self._at_gate: list[tuple[int, int, asyncio.Future[None]]] = []
        self._gate_pump: asyncio.Task[None] | None = None
        #: Requests granted, by priority name (for the log and the bench).
        self.spent: Counter[str] = Counter()

    @property
    def waiting(self) -> int:
        return sum(1 for *_, f in self._waiters if not f.done())

    def _queued(self) -> bool:
        """Whether anyone waits (cheap: ``waiting`` counts them all, and after a restart
        thousands of notices wait). Cancelled waiters on top are dropped on the way."""
        while self._waiters and self._waiters[0][-1].done():
            heapq.heappop(self._waiters)
        return bool(self._waiters)

    def _refill(self) -> None:
        now = time.monotonic()
        self._tokens = min(self.capacity, self._tokens + (now - self._updated) * self.rate)
        self._updated = now

    async def acquire(self, priority: Priority, since: float | None = None) -> None:
        """Wait until a request of this priority may be sent; among waiters of one priority
        the one ``since`` the earliest (monotonic; default: now, i.e. arrival order) first.
        A caller that then sends nothing gives the token back (:meth:`refund`)."""
        self._refill()
        if self._tokens >= 1 and not self._queued():
            self._tokens -= 1
        else:
            future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            key = time.monotonic() if since is None else since
            heapq.heappush(self._waiters, (int(priority), key, next(self._order), future))
            if self._pump is None or self._pump.done():
                self._pump = asyncio.get_running_loop().create_task(self._release())
            await future
        self.spent[priority.name] += 1
        _granted.set(priority)

    #: s between two looks at the gate while only requests in flight fill it.
    GATE_POLL = 0.02

    async def sending(self) -> None:
        """A request is about to be sent: wait until fewer than ``window`` requests are in
        flight or were answered within the last second (those waiting go by the priority
        they were granted at, then in arrival order), and count it in flight until
        :meth:`answered`."""
        if not self._at_gate and self._counted() < self.window:
            self._in_flight += 1
            return
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        heapq.heappush(self._at_gate, (int(_granted.get()), next(self._order), future))
        if self._gate_pump is None or self._gate_pump.done():
            self._gate_pump = loop.create_task(self._open_gate())
        try:
            await future
        except asyncio.CancelledError:
            if future.done() and not future.cancelled():
                self._in_flight -= 1  # let through just as it was cancelled: nothing sent
            raise

    def _counted(self) -> int:
        """Requests in flight or answered within the last second."""
        now = time.monotonic()
        while self._answered and self._answered[0] <= now - 1.0:
            self._answered.popleft()
        return self._in_flight + len(self._answered)

    async def _open_gate(self) -> None:
        while self._at_gate:
            while self._at_gate and self._counted() < self.window:
                *_, future = heapq.heappop(self._at_gate)
                if not future.done():  # (else its sender was cancelled)
                    self._in_flight += 1
                    future.set_result(None)
            if self._at_gate:
                # Until the oldest answer is a second old, or a request in flight comes back.
                now = time.monotonic()
                wait = self._answered[0] + 1.0 - now if self._answered else self.GATE_POLL
                await asyncio.sleep(max(0.001, min(wait, self.GATE_POLL)))

    def answered(self) -> None:
        """A request counted by :meth:`sending` came back (or failed)."""
        self._in_flight -= 1
        self._answered.append(time.monotonic())

    async def spare(self) -> None:
        """Wait until a request could be sent with nothing more urgent waiting (for
        background work that then sends at its own priority)."""
        await self.turn(Priority.BACKGROUND)

    async def turn(self, priority: Priority) -> None:
        """Wait until a request of ``priority`` could be sent, without spending it: for work
        that must not hold a lock while it waits (it then sends the usual way)."""
        await self.acquire(priority)
        self.spent[priority.name] -= 1
        self.refund()

    def refund(self) -> None:
        """Give back a token that was not used after all (e.g. nothing changed to send)."""
        self._tokens = min(self.capacity, self._tokens + 1)

    async def _release(self) -> None:
        while self._waiters:
            self._refill()
            while self._waiters and self._tokens >= 1:
                *_, future = heapq.heappop(self._waiters)
                if future.done():  # its waiter was cancelled
                    continue
                self._tokens -= 1
                future.set_result(None)
            if self._waiters:
                await asyncio.sleep(max(0.001, (1 - self._tokens) / self.rate))

    def close(self) -> None:
        for pump in (self._pump, self._gate_pump):
            if pump is not None:
                pump.cancel()
        futures = [waiter[-1] for waiter in self._waiters] + [at[-1] for at in self._at_gate]
        for future in futures:
            if not future.done():
                future.cancel()
        self._waiters.clear()
        self._at_gate.clear()


def gate_requests(http: Any, budget: RestBudget) -> None:
    """Send every request of discord.py's HTTP client ``http`` through ``budget``'s send
    gate: table edits, DMs, posts, and whatever else the bot sends with the bot token.
    (Interaction responses and follow-ups go through discord.py's webhook adapter instead:
    Discord exempts them from the global limit, and so does the gate.)"""
    request = getattr(http.request, "__wrapped__", http.request)  # (gated once, by the last)

    async def gated(*args: Any, **kwargs: Any) -> Any:
        await budget.sending()
        try:
            return await request(*args, **kwargs)
        finally:
            budget.answered()

    gated.__wrapped__ = request  # type: ignore[attr-defined]  # (as functools.wraps sets it)
    http.request = gated


class Slots:
    """At most ``size`` jobs at once (e.g. renders in a thread pool), waiting jobs started
    by priority, then in arrival order: a decision's hand image is drawn before table
    pictures that are waiting, so a busy pool delays table edits, not players. One slot in
    ``OLDEST_EVERY`` goes to the job that has waited longest, whatever its priority (see
    :class:`~bot.ranked.RankedQueue`)."""

    OLDEST_EVERY = 4

    def __init__(self, size: int) -> None:
        self.size = max(1, size)
        self._busy = 0
        self._waiters: RankedQueue[asyncio.Future[None]] = RankedQueue(self.OLDEST_EVERY)
        self._waiting = 0

    @property
    def waiting(self) -> int:
        return self._waiting

    async def acquire(self, priority: Priority) -> None:
        if self._busy < self.size and not self._waiting:
            self._busy += 1
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiters.push(int(priority), future)
        self._waiting += 1
        try:
            await future
        except asyncio.CancelledError:
            if future.done() and not future.cancelled():
                self.release()  # it was handed the slot just as it was cancelled
            else:
                self._waiting -= 1
            raise

    def release(self) -> None:
        future = self._waiters.pop(live=lambda f: not f.done())
        if future is None:
            self._busy -= 1
            return
        self._waiting -= 1
        future.set_result(None)  # the slot passes on; busy count unchanged
