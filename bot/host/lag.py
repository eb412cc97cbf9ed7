"""How late the event loop runs, for work that must never delay play.

After a restart every table comes back at once, and their players click at once: the bot's
one event loop is then saturated for seconds. The restart notices and the fresh DMs of the
players who still hold working controls are not urgent, but each costs the loop as much as
a click (a picture's request, an upload, a write). :meth:`LoopWatch.calm` holds such work
back while the loop runs late, so the clicks come first; the REST budget alone cannot
tell (with a raised global limit there is always REST budget to spare).
"""

from __future__ import annotations

import asyncio
import contextlib
import time


class LoopWatch:
    """A probe sleeps ``interval`` seconds over and over and notes by how much it woke
    late; the loop is calm while that lateness is at most ``threshold``."""

    def __init__(
        self, threshold: float = 0.1, interval: float = 0.05, max_wait: float = 60.0
    ) -> None:
        self.threshold, self.interval, self.max_wait = threshold, interval, max_wait
        self.lag = 0.0
        self._calm = asyncio.Event()
        self._calm.set()
        self._probe: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Start the probe (once; it runs until :meth:`close`)."""
        if self._probe is None or self._probe.done():
            self._probe = asyncio.get_running_loop().create_task(self._run(), name="loop-watch")

    async def _run(self) -> None:
        while True:
            start = time.monotonic()
            await asyncio.sleep(self.interval)
            self.note(time.monotonic() - start - self.interval)

    def note(self, lag: float) -> None:
        """The loop last ran ``lag`` seconds late."""
        self.lag = lag
        if lag <= self.threshold:
            self._calm.set()
        else:
            self._calm.clear()

    @property
    def is_calm(self) -> bool:
        return self._calm.is_set()

    async def calm(self) -> None:
        """Wait until the loop keeps up again; at most ``max_wait`` seconds (a loop that
        never does still gets the work done, late)."""
        if self._calm.is_set():
            return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._calm.wait(), self.max_wait)

    def close(self) -> None:
        if self._probe is not None:
            self._probe.cancel()
        self._calm.set()  # (nothing waits for a loop that is going away)
