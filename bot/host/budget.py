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
import logging
import time
from collections import Counter
from enum import IntEnum
from typing import Any

from bot.host.shared_budget import GateCount, SharedBucket, SharedBucketDown
from bot.ranked import RankedQueue

log = logging.getLogger(__name__)


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
    rather than waiting behind them.

    With a ``shared`` bucket (the token's, in Redis: :mod:`bot.host.shared_budget`) the
    tokens come from it instead of this process's clock: ``rate`` is then the whole
    token's, and a request that finds no token here waits while the pump draws, in one
    round trip, as many tokens as requests wait (up to ``DRAW_BATCH``), so the priority
    order stays this process's own and an idle process holds no tokens (leftovers, from a
    refund, a waiter cancelled meanwhile or ``SPARE`` tokens drawn besides from a bucket
    that is not contended, are dropped after ``LEFTOVER_SECONDS``). The
    send gate's window is then what the other processes' gates leave of the token's (each
    draw reports this gate's count and learns theirs; a gate that is full looks again every
    ``GATE_LOOK_SECONDS``), at least one request. While the shared bucket does not answer,
    the process refills at ``fallback_rate`` (its static share of the token's budget) by
    its own clock, logs the outage once and its end, and looks again every
    ``RETRY_SECONDS``."""

    #: The default burst, in seconds of ``rate``.
    BURST_SECONDS = 0.05
    #: The shared bucket's burst, in seconds of the token's rate: room for ``SPARE`` tokens
    #: while it is not contended (the send gates keep every second of requests within the
    #: token's limit, whatever the bucket lets through at once).
    SHARED_BURST_SECONDS = 0.2
    #: Most tokens drawn from the shared bucket in one round trip.
    DRAW_BATCH = 8
    #: Tokens drawn besides, for this process's next requests, when the shared bucket is
    #: not contended (it keeps one after them): a round trip per request would cost more
    #: CPU than the request's own sending.
    SPARE = 3
    #: s a token drawn from the shared bucket but not used may still be used.
    LEFTOVER_SECONDS = 0.25
    #: s between looks at a shared bucket that did not answer.
    RETRY_SECONDS = 1.0
    #: s between looks at the other processes' gates while this one is full.
    GATE_LOOK_SECONDS = 0.05

    def __init__(
        self,
        rate: float,
        burst: float | None = None,
        *,
        shared: SharedBucket | None = None,
        fallback_rate: float | None = None,
    ) -> None:
        if rate <= 0 or (fallback_rate is not None and fallback_rate <= 0):
            raise ValueError("the REST budget must be positive")
        self.rate = float(rate)
        self.capacity = float(burst if burst is not None else max(1.0, rate * self.BURST_SECONDS))
        self._shared = shared
        #: Whether the tokens come from the shared bucket now (not while it is down).
        self.sharing = shared is not None
        self.fallback_rate = float(fallback_rate if fallback_rate is not None else rate)
        self._down_since: float | None = None
        self._gate_looked = 0.0
        self._retry: asyncio.Task[None] | None = None
        #: Round trips to the shared bucket, and the tokens they brought (for the bench).
        self.draws = 0
        self.drawn = 0
        self._tokens = 0.0 if self.sharing else self.capacity
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

    @property
    def local_rate(self) -> float:
        """The rate this process refills at by its own clock (not while sharing)."""
        return self.fallback_rate if self._shared is not None else self.rate

    def _refill(self) -> None:
        now = time.monotonic()
        if self.sharing:  # tokens come from the shared bucket; leftovers go stale
            if now - self._updated > self.LEFTOVER_SECONDS:
                self._tokens = 0.0
            return
        self._tokens = min(self.capacity, self._tokens + (now - self._updated) * self.local_rate)
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

    def gate_count(self) -> GateCount:
        """What this gate counts now, as the other processes are told it: the requests in
        flight, and the answered ones by the tenth of a second in which they leave the
        count (rounded later, so a reader never forgets one too soon)."""
        self._counted()
        now = time.monotonic()
        leaving = [0] * GateCount.SLOTS
        for at in self._answered:
            leaving[min(GateCount.SLOTS - 1, int((at + 1.0 - now) * GateCount.SLOTS))] += 1
        return GateCount(self._in_flight, tuple(leaving))

    async def _open_gate(self) -> None:
        while self._at_gate:
            while self._at_gate and self._counted() < self.window:
                *_, future = heapq.heappop(self._at_gate)
                if not future.done():  # (else its sender was cancelled)
                    self._in_flight += 1
                    future.set_result(None)
            if self._at_gate and self.sharing:
                await self._look_at_other_gates()
                if self._counted() < self.window:
                    continue
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
        self._refill()
        self._tokens = min(self.capacity, self._tokens + 1)
        if self.sharing:  # (kept a moment, for the next request of this process)
            self._updated = time.monotonic()

    async def _release(self) -> None:
        while self._queued():
            self._refill()
            wait = None
            if self.sharing:
                wait = await self._draw()
            while self._waiters and self._tokens >= 1:
                *_, future = heapq.heappop(self._waiters)
                if future.done():  # its waiter was cancelled
                    continue
                self._tokens -= 1
                future.set_result(None)
            if self._waiters:
                if wait is None:
                    wait = (1 - self._tokens) / self.local_rate
                await asyncio.sleep(max(0.002, wait))

    async def _draw(self) -> float | None:
        """Draw tokens for the requests waiting from the shared bucket: the seconds until
        it has another token, or None if it did not answer (then the process falls back
        to its own rate)."""
        assert self._shared is not None
        want = min(len(self._waiters), self.DRAW_BATCH) - int(self._tokens)
        if want <= 0:
            return 0.0
        try:
            granted, wait, others = await self._shared.draw(want, self.gate_count(), self.SPARE)
        except SharedBucketDown as error:
            self._fall_back(str(error))
            return None
        self.draws += 1
        self.drawn += granted
        if not self.sharing:  # (it went down while this draw was on its way)
            return None
        self._leave_to_others(others)
        if granted:
            self._tokens += granted
            self._updated = time.monotonic()
        return wait

    def _leave_to_others(self, others: int) -> None:
        """This gate's window: what the other processes' gates leave of the token's."""
        self._gate_looked = time.monotonic()
        self.window = max(1, int(self.rate) - others)

    async def _look_at_other_gates(self) -> None:
        """(This gate is full, requests wait at it.) Learn again what the other processes'
        gates count: theirs may have emptied meanwhile."""
        if self._shared is None or not self.sharing:
            return
        if time.monotonic() - self._gate_looked < self.GATE_LOOK_SECONDS:
            return
        self._gate_looked = time.monotonic()
        try:
            _, _, others = await self._shared.draw(0, self.gate_count())
        except SharedBucketDown as error:
            self._fall_back(str(error))
            return
        if self.sharing:
            self._leave_to_others(others)

    def _fall_back(self, why: str) -> None:
        if not self.sharing:
            return
        self.sharing = False
        self._down_since = time.monotonic()
        self._tokens, self._updated = 0.0, time.monotonic()
        self.window = max(1, int(self.fallback_rate))
        log.warning(
            "the shared REST budget does not answer (%s): this process sends at its own "
            "share, %.1f requests/s, until it answers again",
            why,
            self.fallback_rate,
        )
        self._retry = asyncio.get_running_loop().create_task(self._look_again())

    async def _look_again(self) -> None:
        """Until the shared bucket answers again (a draw of nothing), every RETRY_SECONDS."""
        assert self._shared is not None
        while True:
            await asyncio.sleep(self.RETRY_SECONDS)
            try:
                _, _, others = await self._shared.draw(0, self.gate_count())
            except SharedBucketDown:
                continue
            break
        down = time.monotonic() - (self._down_since or time.monotonic())
        # Tokens of the own rate are not the shared bucket's: start from none.
        self._tokens, self._updated = 0.0, time.monotonic()
        self.sharing = True
        self._leave_to_others(others)
        self._down_since = None
        log.warning("the shared REST budget answers again (after %.1f s): sharing it", down)

    async def close_shared(self) -> None:
        """Let go of the shared bucket's connection (after :meth:`close`)."""
        if self._shared is not None:
            await self._shared.close()

    def close(self) -> None:
        for pump in (self._pump, self._gate_pump, self._retry):
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
